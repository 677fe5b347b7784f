"""Reading the documentation sources: page files, Python-domain directives,
doctest examples, and the public names of the installed package."""
import ast
import doctest
import importlib
import importlib.util
import inspect
import pathlib
import pkgutil
import re
import sys

import pylayer

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_shared"))

import api_entries  # noqa: E402  (the ``.. api::`` directive's own reading of the code)

LANGUAGES = ("en", "zh")

# Public modules whose names are not API: the demo is a runnable script
# (``python -m pylayer.demo``), documented by the README.
NOT_API_MODULES = {"pylayer.demo"}

_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\. py:(?P<kind>[\w-]+)::\s*(?P<rest>.*?)\s*$")
# ``.. api:: pylayer.name`` (docs/_shared/api_entries.py): a function's entry whose
# signature and example come from the code.
_API = re.compile(r"^\.\. api::\s*(?P<fullname>\S+)\s*$")
_OPTION = re.compile(r"^\s+:[\w-]+:")
_SIGNED_KINDS = {"function", "class", "method", "exception", "decorator"}


def pages(lang):
    """Paths of the .rst pages of one language, relative to its tree."""
    tree = DOCS / lang
    return sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*.rst")
                  if "_build" not in p.relative_to(tree).parts)


def read(lang, page):
    return (DOCS / lang / page).read_text(encoding="utf-8")


class Directive:
    """One ``.. py:<kind>:: name(signature)`` line, with its options and full name."""

    def __init__(self, line, kind, name, signature, fullname, options, index=None):
        self.line, self.kind, self.name = line, kind, name
        self.signature, self.fullname, self.options = signature, fullname, options
        self.index = index  # the number of the directive's line in its page, from 0

    def header(self):
        return "\n".join([self.line] + self.options)

    def __repr__(self):
        return f"<{self.kind} {self.fullname}{self.signature or ''}>"


def directives(text):
    """The Python-domain directives of a page, in order, with full dotted names."""
    lines = text.splitlines()
    module = None
    owners = []  # (indent, fullname) of the enclosing class directives
    found = []
    for i, line in enumerate(lines):
        api = _API.match(line)
        if api:
            fullname = api["fullname"]
            try:
                signature = api_entries.signature_text(api_entries.resolve(fullname)[0])
            except (ImportError, LookupError):
                signature = None  # test_every_documented_name_exists reports it
            found.append(Directive(line.rstrip(), "function", fullname.rpartition(".")[2],
                                   signature, fullname, [], i))
            owners.clear()
            continue
        match = _DIRECTIVE.match(line)
        if not match:
            continue
        indent, kind, rest = len(match["indent"]), match["kind"], match["rest"]
        options = []
        for following in lines[i + 1:]:
            if not _OPTION.match(following):
                break
            options.append(following.rstrip())
        while owners and owners[-1][0] >= indent:
            owners.pop()
        if kind in ("module", "currentmodule"):
            module = rest
            found.append(Directive(line.rstrip(), kind, rest, None, rest, options, i))
            continue
        name, paren, signature = rest.partition("(")
        signature = paren + signature if paren else None
        prefix = owners[-1][1] if owners else module
        fullname = f"{prefix}.{name}" if prefix else name
        found.append(Directive(line.rstrip(), kind, name, signature, fullname, options, i))
        if kind in ("class", "exception"):
            owners.append((indent, fullname))
    return found


def function_entries(text):
    """``[(directive, body)]`` of the top-level function entries of a page (``.. api::``
    and ``.. py:function::``): the body is the text of the entry's indented lines."""
    lines = text.splitlines()
    found = []
    for directive in directives(text):
        if directive.kind != "function" or directive.line[:1].isspace():
            continue
        end = directive.index + 1
        while end < len(lines) and (not lines[end].strip() or lines[end][:1].isspace()):
            end += 1
        found.append((directive, "\n".join(lines[directive.index + 1:end])))
    return found


_UNDERLINE = re.compile(r"^([=\-~^])\1{2,}$")
_LABEL = re.compile(r"^\.\. _(?P<label>[\w-]+):$")


def section_labels(text):
    """``(title, label or None)`` of every section title of a page, in order: the
    label is the explicit target (``.. _label:`` and a blank line) just above it."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines[:-1]):
        if (line.strip() and not line[0].isspace() and not line.startswith(".. ")
                and _UNDERLINE.match(lines[i + 1]) and not _UNDERLINE.match(line)):
            label = _LABEL.match(lines[i - 2]) if i >= 2 and lines[i - 1] == "" else None
            found.append((line, label["label"] if label else None))
    return found


def examples(text):
    """``(source, want)`` of every doctest example of a page."""
    return [(ex.source, ex.want) for ex in doctest.DocTestParser().get_examples(text)]


# --------------------------------------------------------------- the package
def public_modules():
    names = ["pylayer"]
    for info in pkgutil.walk_packages(pylayer.__path__, "pylayer."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(n for n in names if n not in NOT_API_MODULES)


def public_names():
    """``{id(obj): (qualified name, obj)}`` for every non-module name in an ``__all__``."""
    found = {}
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if not inspect.ismodule(obj):
                found.setdefault(id(obj), (f"{module_name}.{name}", obj))
    return found


def tensor_method(name):
    """A method of Tensor that comes from a function (``x.exp()``, ``x.zero_()``)."""
    return pylayer.tensor_methods().get(name)


def resolve(fullname):
    """The object a documented dotted name refers to (LookupError if none)."""
    parts = fullname.split(".")
    try:
        obj = importlib.import_module(parts[0])
    except ImportError:
        raise LookupError(f"{fullname}: no module {parts[0]!r}") from None
    # Attributes first: ``pylayer.autograd.gradcheck`` is the function, not the
    # submodule of the same name.
    for i, part in enumerate(parts[1:], start=1):
        if hasattr(obj, part):
            obj = getattr(obj, part)
        elif inspect.ismodule(obj) and importlib.util.find_spec(".".join(parts[:i + 1])):
            obj = importlib.import_module(".".join(parts[:i + 1]))
        elif obj is pylayer.Tensor and tensor_method(part) is not None:
            obj = tensor_method(part)
        else:
            raise LookupError(f"{fullname}: {'.'.join(parts[:i])} has no {part!r}")
    return obj


def owner_and_member(fullname):
    owner_name, _, member = fullname.rpartition(".")
    return resolve(owner_name), member


# --------------------------------------------------------------- signatures
def real_signature(directive):
    """``(signature text or None, method kind or None)`` of the documented object."""
    if directive.kind == "method":
        owner, member = owner_and_member(directive.fullname)
        raw = inspect.getattr_static(owner, member, None)
        if raw is None and owner is pylayer.Tensor:
            return _text(inspect.signature(tensor_method(member)), drop_first=True), None
        if isinstance(raw, staticmethod):
            return _text(inspect.signature(raw.__func__)), "staticmethod"
        if isinstance(raw, classmethod):
            return _text(inspect.signature(getattr(owner, member))), "classmethod"
        return _text(inspect.signature(raw), drop_first=True), None
    obj = resolve(directive.fullname)
    try:
        return _text(inspect.signature(obj)), None
    except (TypeError, ValueError):
        pass
    # Compiled classes: Cython puts the signature on the docstring's first line.
    first = (getattr(obj, "__doc__", None) or "").partition("\n")[0]
    name = getattr(obj, "__name__", "")
    if first.startswith(name + "("):
        return first[len(name):], None
    return None, None


def _text(signature, drop_first=False):
    """The parameters as the docs write them: names, kinds and defaults, no annotations."""
    params = [p.replace(annotation=inspect.Parameter.empty)
              for p in list(signature.parameters.values())[1 if drop_first else 0:]]
    return str(signature.replace(parameters=params,
                                 return_annotation=inspect.Signature.empty))


def same_signature(documented, real):
    """Equal parameter names, kinds and defaults (spelling of numbers aside)."""
    if documented is None or real is None:
        return documented == real
    try:
        parsed = [ast.parse(f"def f{text}: pass").body[0].args for text in (documented, real)]
    except SyntaxError:
        return " ".join(documented.split()) == " ".join(real.split())
    return ast.dump(parsed[0]) == ast.dump(parsed[1])
