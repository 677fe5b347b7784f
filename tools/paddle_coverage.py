"""How much of Paddle 3.3.1's API pylayer has, per namespace, without Paddle.

Reads the files of tools/paddle_api/: paddle_names.json (written by
tools/paddle_names.py), not_applicable.toml and pylayer_extras.toml (written by
hand, a reason per group of names) and coverage_floor.json (the names pylayer
had when the floor was last raised). tests/api/test_paddle_coverage.py and the
migration guide's table (docs/_shared/paddle_coverage_table.py) use it.

``python tools/paddle_coverage.py`` prints the table;
``python tools/paddle_coverage.py --raise-floor`` rewrites coverage_floor.json
with the names pylayer has now (do it after adding names: the test fails
when a name of the floor goes missing, never when one is added).
"""
import dataclasses
import fnmatch
import importlib
import json
import pathlib
import sys
import tomllib
import types

DATA = pathlib.Path(__file__).resolve().parent / "paddle_api"
NAMES = DATA / "paddle_names.json"
NOT_APPLICABLE = DATA / "not_applicable.toml"
EXTRAS = DATA / "pylayer_extras.toml"
FLOOR = DATA / "coverage_floor.json"


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


def groups(path):
    """``[(reason, [name or pattern])]`` of a not_applicable / extras file."""
    with open(path, "rb") as file:
        return [(group["reason"], group["names"]) for group in tomllib.load(file)["group"]]


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


def matching(patterns, qualified):
    """``{pattern: [qualified names it matches]}``."""
    return {pattern: [name for name in qualified if fnmatch.fnmatchcase(name, pattern)]
            for pattern in patterns}


def paddle_names():
    with open(NAMES, encoding="utf-8") as file:
        return json.load(file)


def namespaces():
    """``[Namespace]`` in the order of paddle_names.json."""
    data = paddle_names()["namespaces"]
    patterns = [pattern for _, names in groups(NOT_APPLICABLE) for pattern in names]
    result = []
    for name, entry in data.items():
        qualified = [f"{name}.{n}" for n in entry["names"]]
        excluded = {q[len(name) + 1:] for q in qualified
                    if any(fnmatch.fnmatchcase(q, pattern) for pattern in patterns)}
        result.append(Namespace(name, entry["names"], set(entry["attributes"]), excluded,
                                public_exports(pylayer_object(name))))
    return result


def table(spaces):
    """The per-namespace table as text: have / applicable / total / percent."""
    rows = [("namespace", "have", "applicable", "total", "percent")]
    for space in spaces:
        percent = "n/a" if space.percent is None else f"{space.percent:.0f} %"
        rows.append((space.name, str(len(space.have)), str(len(space.applicable)),
                     str(len(space.names)), percent))
    have = sum(len(space.have) for space in spaces)
    applicable = sum(len(space.applicable) for space in spaces)
    rows.append(("all", str(have), str(applicable), str(sum(len(s.names) for s in spaces)),
                 f"{100.0 * have / applicable:.0f} %"))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = [rows[0][0].ljust(widths[0]) + "  " + "  ".join(cell.rjust(width) for cell, width
                                                             in zip(rows[0][1:], widths[1:]))]
    for row in rows[1:]:
        lines.append(row[0].ljust(widths[0]) + "  " + "  ".join(cell.rjust(width) for cell, width
                                                                in zip(row[1:], widths[1:])))
    version = paddle_names()["paddle"]
    return f"Paddle {version}'s names in pylayer, per namespace\n" + "\n".join(lines)


def floor():
    with open(FLOOR, encoding="utf-8") as file:
        return json.load(file)


def raise_floor():
    spaces = namespaces()
    FLOOR.write_text(json.dumps({space.name: space.have for space in spaces}, indent=1) + "\n")
    print(table(spaces))
    print(f"wrote {FLOOR}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--raise-floor"]:
        raise_floor()
    elif sys.argv[1:]:
        sys.exit("usage: python tools/paddle_coverage.py [--raise-floor]")
    else:
        print(table(namespaces()))
