"""What pylayer has of Paddle 3.3.1's API, name by name, from the data shipped with it.

Two files beside this module are the one source of it, for the errors, for
``python -m pylayer migration`` and for the documentation (the migration
guide's table and tools/paddle_coverage.py read them too):

* ``paddle_names.json``: Paddle 3.3.1's public names per namespace (written by
  tools/paddle_names.py from an installed Paddle);
* ``not_applicable.toml``: the names that do not apply to a CPU-only NumPy
  library, in groups, each with its reason.

A Paddle name that pylayer lacks is either not applicable (and the reason says
why, and often what to use instead) or not there yet. :func:`explain` says
which, in one line for an error; :func:`describe` says it at length.
"""
import dataclasses
import difflib
import fnmatch
import functools
import importlib
import json
import pathlib
import sys
import tomllib
import types

DATA = pathlib.Path(__file__).resolve().parent
NAMES = DATA / "paddle_names.json"
NOT_APPLICABLE = DATA / "not_applicable.toml"

# Paddle's public modules that pylayer does not have at all (most are not in
# paddle_names.json: they are not applicable as a whole, or their names were not
# listed because pylayer has none of them).
MODULES_NOT_IN_PYLAYER = frozenset({
    "base", "cost_model", "cuda", "dataset", "decomposition", "fluid",
    "geometric", "hub", "inference", "library", "onnx", "pir", "profiler",
    "quantization", "reader", "sparse", "special", "sysconfig", "tensor"})
# Paddle's public modules that pylayer has in part, with the submodules Paddle has
# there that pylayer lacks (paddle.vision.models, paddle.audio.features, ...).
MODULES_IN_PART = {"audio": {"backends", "datasets", "features", "functional"},
                   "text": {"datasets"}, "vision": {"datasets", "image", "models"}}

COMMAND = "python -m pylayer migration"


@dataclasses.dataclass
class Namespace:
    """One Paddle namespace against pylayer's namespace of the same path."""
    name: str                 # "paddle.nn.functional"
    names: list               # Paddle's names, sorted
    attributes: set           # Paddle's other public attributes there
    not_applicable: set       # the names of ``names`` that do not apply
    exports: set | None       # pylayer's public names there, None without the namespace

    @property
    def applicable(self):
        return [name for name in self.names if name not in self.not_applicable]

    @property
    def have(self):
        return [name for name in self.applicable if self.exports and name in self.exports]

    @property
    def missing(self):
        return [name for name in self.applicable if not self.exports or name not in self.exports]

    @property
    def percent(self):
        applicable = len(self.applicable)
        return 100.0 * len(self.have) / applicable if applicable else None


def groups(path=NOT_APPLICABLE):
    """``[(reason, [name or pattern])]`` of a not_applicable / extras file."""
    with open(path, "rb") as file:
        return [(group["reason"], group["names"]) for group in tomllib.load(file)["group"]]


@functools.cache
def paddle_names():
    with open(NAMES, encoding="utf-8") as file:
        return json.load(file)


def pylayer_object(namespace):
    """pylayer's module (or its Tensor class) for a Paddle namespace, or None."""
    import pylayer
    if namespace == "paddle.Tensor":
        return pylayer.Tensor
    try:
        return importlib.import_module("pylayer" + namespace[len("paddle"):])
    except ImportError:
        return None


def public_exports(obj):
    """The public names pylayer exports from a module (``__all__``, else ``dir()``;
    without submodules) or from the Tensor class (``dir()``)."""
    if obj is None:
        return None
    if isinstance(obj, type):
        return {name for name in dir(obj) if not name.startswith("_")}
    declared = getattr(obj, "__all__", None)
    return {name for name in (dir(obj) if declared is None else declared)
            if not name.startswith("_")
            and not isinstance(getattr(obj, name, None), types.ModuleType)}


def namespaces():
    """``[Namespace]`` in the order of paddle_names.json."""
    data = paddle_names()["namespaces"]
    patterns = [pattern for _, names in groups() for pattern in names]
    result = []
    for name, entry in data.items():
        qualified = [f"{name}.{n}" for n in entry["names"]]
        excluded = {q[len(name) + 1:] for q in qualified
                    if any(fnmatch.fnmatchcase(q, pattern) for pattern in patterns)}
        result.append(Namespace(name, entry["names"], set(entry["attributes"]), excluded,
                                public_exports(pylayer_object(name))))
    return result


# ------------------------------------------------------------- one name explained
@functools.cache
def _reasons():
    return groups()


@functools.cache
def _names_of(namespace):
    """Paddle's names and other public attributes in ``namespace``, as a set."""
    entry = paddle_names()["namespaces"][namespace]
    return frozenset(entry["names"]) | frozenset(entry["attributes"])


def reason_not_applicable(qualified):
    """The reason ``qualified`` (``"paddle.sparse.add"``) does not apply, or None."""
    for reason, patterns in _reasons():
        if any(fnmatch.fnmatchcase(qualified, pattern) for pattern in patterns):
            return reason
    return None


def _split(qualified):
    """``(namespace, name)`` for a name of a namespace of paddle_names.json, the
    namespace alone as ``(namespace, None)``, else ``(None, None)``."""
    spaces = paddle_names()["namespaces"]
    if qualified in spaces:
        return qualified, None
    namespace, _, name = qualified.rpartition(".")
    if namespace in spaces and name in _names_of(namespace):
        return namespace, name
    return None, None


@functools.cache
def _modules():
    """Paddle's public modules: the namespaces of paddle_names.json and the modules
    above them, and MODULES_NOT_IN_PYLAYER."""
    found = {f"paddle.{name}" for name in MODULES_NOT_IN_PYLAYER}
    for space in paddle_names()["namespaces"]:
        parts = space.split(".")
        found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    found.discard("paddle.Tensor")
    return frozenset(found)


def is_paddle_module(qualified):
    """Whether ``qualified`` (``"paddle.vision"``) is one of Paddle's public modules, or
    inside one that pylayer lacks as a whole (``"paddle.vision.models"``)."""
    parts = qualified.split(".", 2)
    if qualified in _modules() or len(parts) < 3 or parts[0] != "paddle":
        return qualified in _modules()
    return parts[1] in MODULES_NOT_IN_PYLAYER or \
        parts[2].split(".")[0] in MODULES_IN_PART.get(parts[1], ())


def is_paddle_name(qualified):
    """Whether ``qualified`` is a public module or name of Paddle 3.3.1."""
    return _split(qualified)[0] is not None or is_paddle_module(qualified)


def explain(qualified):
    """One sentence on a Paddle name or module pylayer lacks (``"paddle.vision"``,
    ``"paddle.Tensor.pin_memory"``): not supported and why, or not there yet; and
    where to read more. None when ``qualified`` is not one of Paddle's names.

    >>> from pylayer._paddle_api import explain
    >>> print(explain("paddle.Tensor.pin_memory"))  # doctest: +ELLIPSIS
    Paddle's paddle.Tensor.pin_memory is not supported by pylayer: a place on a device ...
    """
    if not is_paddle_name(qualified):
        return None
    reason = reason_not_applicable(qualified)
    more = f"`{COMMAND} {qualified}` says more"
    if reason is not None:
        return f"Paddle's {qualified} is not supported by pylayer: {reason}; {more}"
    if is_paddle_module(qualified):
        top = ".".join(qualified.split(".")[:2])
        if top != qualified and _split(qualified)[0] is None and top[len("paddle."):] \
                in MODULES_NOT_IN_PYLAYER:
            qualified = top
            more = f"`{COMMAND} {qualified}` says more"
        reason = reason_not_applicable(qualified + ".*")
        if reason is not None:
            return f"Paddle's {qualified} is not supported by pylayer: {reason}; {more}"
        return (f"Paddle's module {qualified} is not in pylayer (not yet: pylayer has the "
                f"parts of Paddle that models and their training use); {more}")
    return f"Paddle's {qualified} is not in pylayer yet; {more}"


# ------------------------------------------------------ python -m pylayer migration
def _paddle_form(name):
    name = name.strip()
    if name.startswith("pylayer.") or name == "pylayer":
        name = "paddle" + name[len("pylayer"):]
    if name != "paddle" and not name.startswith("paddle."):
        name = "paddle." + name
    return name


def _wrap(text, indent="  "):
    import textwrap
    return textwrap.fill(text, width=88, initial_indent=indent, subsequent_indent=indent)


def _table():
    spaces = namespaces()
    rows = [("namespace", "has", "applicable", "in Paddle")]
    for space in spaces:
        rows.append((space.name, str(len(space.have)), str(len(space.applicable)),
                     str(len(space.names))))
    width = max(len(row[0]) for row in rows)
    lines = [f"{a:<{width}}  {b:>5}  {c:>10}  {d:>9}" for a, b, c, d in rows]
    absent = ", ".join(f"paddle.{m}" for m in sorted(MODULES_NOT_IN_PYLAYER)
                       if pylayer_object(f"paddle.{m}") is None)
    return ("What pylayer has of Paddle {}'s API, per namespace:\n\n".format(
        paddle_names()["paddle"]) + "\n".join(lines)
        + "\n\nPaddle modules pylayer does not have:\n" + _wrap(absent)
        + f"\n\n`{COMMAND} NAME` says what pylayer has of a namespace (paddle.io, "
          f"paddle.Tensor) or a name (paddle.sparse.add, paddle.Tensor.pin_memory), and why "
          f"a name is not supported.")


def _share(space):
    if not space.applicable:
        return (f"{space.name}: none of its {len(space.names)} names applies to pylayer, "
                f"which does not have it.")
    return (f"{space.name}: pylayer has {len(space.have)} of its {len(space.applicable)} "
            f"applicable names (Paddle {paddle_names()['paddle']} has {len(space.names)}).")


def _describe_namespace(space):
    lines = [_share(space)]
    if space.missing:
        lines += ["", "Not in pylayer yet:", _wrap(", ".join(space.missing))]
    by_reason = {}
    for name in sorted(space.not_applicable):
        by_reason.setdefault(reason_not_applicable(f"{space.name}.{name}"), []).append(name)
    for reason, names in by_reason.items():
        lines += ["", "Not supported:", _wrap(", ".join(names)), _wrap("Why: " + reason)]
    return "\n".join(lines)


def describe(name):
    """What ``python -m pylayer migration NAME`` prints: what pylayer has of a Paddle
    namespace or name, and why a name is not supported."""
    qualified = _paddle_form(name)
    for space in namespaces():
        if space.name == qualified:
            return _describe_namespace(space)
    namespace, short = _split(qualified)
    if namespace is not None:
        pylayer_name = "pylayer" + qualified[len("paddle"):]
        exports = public_exports(pylayer_object(namespace)) or set()
        if short in exports:
            return f"{qualified}: pylayer has it, as {pylayer_name}."
    text = explain(qualified)
    if text is not None:
        inside = [_share(space) for space in namespaces()
                  if space.name.startswith(qualified + ".")]
        return "\n".join([text.rsplit("; `", 1)[0] + "."] + inside)
    names = [f"{space}.{n}" for space, entry in paddle_names()["namespaces"].items()
             for n in entry["names"]]
    close = difflib.get_close_matches(qualified, names, n=5, cutoff=0.75)
    hint = f" Close: {', '.join(close)}." if close else ""
    return f"{qualified} is not a public name of Paddle {paddle_names()['paddle']}.{hint}"


_USAGE = f"""usage: {COMMAND} [NAME]

Without NAME: what pylayer has of Paddle's API, per namespace. With NAME (a
Paddle namespace or name: paddle.io, paddle.Tensor.pin_memory, sparse.add):
what pylayer has of it, and why a name it lacks is not supported."""


def _command_line(argv):
    argv = list(argv)
    if argv and argv[0] in ("-h", "--help"):
        print(_USAGE)
        return 0
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(f"{COMMAND}: expected at most one NAME, got {' '.join(argv)}\n\n{_USAGE}",
              file=sys.stderr)
        return 2
    print(describe(argv[0]) if argv else _table())
    return 0
