"""How much of Paddle 3.3.1's API pylayer has, per namespace, without Paddle.

Reads paddle_names.json (written by tools/paddle_names.py) and
not_applicable.toml (written by hand, a reason per group of names), which ship
in the package (src/pylayer/_paddle_api/, read through pylayer._paddle_api),
and the files of tools/paddle_api/: pylayer_extras.toml (also a reason per
group) and coverage_floor.json (the names pylayer had when the floor was last
raised). tests/api/test_paddle_coverage.py and the
migration guide's table (docs/_shared/paddle_coverage_table.py) use it.

``python tools/paddle_coverage.py`` prints the table;
``python tools/paddle_coverage.py --raise-floor`` rewrites coverage_floor.json
with the names pylayer has now (do it after adding names: the test fails
when a name of the floor goes missing, never when one is added).
"""
import fnmatch
import json
import pathlib
import sys

# The names and the reasons ship with pylayer (its errors and `python -m pylayer
# migration` read them): the one source, read here too.
from pylayer._paddle_api import (NAMES, NOT_APPLICABLE, Namespace, groups,  # noqa: F401
                                 namespaces, paddle_names, public_exports, pylayer_object)

DATA = pathlib.Path(__file__).resolve().parent / "paddle_api"
EXTRAS = DATA / "pylayer_extras.toml"
FLOOR = DATA / "coverage_floor.json"


def matching(patterns, qualified):
    """``{pattern: [qualified names it matches]}``."""
    return {pattern: [name for name in qualified if fnmatch.fnmatchcase(name, pattern)]
            for pattern in patterns}


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
