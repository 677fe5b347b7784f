"""Paddle 3.3.1's name list is the contract: how much of it pylayer has, per
namespace, and that the lists beside it stay true.

The data is in tools/paddle_api/ (see tools/paddle_coverage.py); Paddle is not
needed. The per-namespace table is printed (``pytest -s``), written in the
terminal summary and put in every failure message. A namespace's coverage may
only rise: the names pylayer had when the floor was last raised
(``python tools/paddle_coverage.py --raise-floor``) must all stay.
"""
import fnmatch
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))

import paddle_coverage  # noqa: E402
from paddle_coverage import Namespace  # noqa: E402


def unmatched(patterns, qualified):
    """The patterns that match none of the qualified names."""
    return [pattern for pattern, names in paddle_coverage.matching(patterns, qualified).items()
            if not names]


def qualified(space, names):
    return [f"{space.name}.{name}" for name in names]


def not_applicable_but_had(spaces):
    """Names listed as not applicable that pylayer exports: they apply."""
    return [f"{space.name}.{name}" for space in spaces for name in sorted(space.not_applicable)
            if space.exports and name in space.exports]


def invented(spaces, extras):
    """pylayer's public names in a Paddle namespace that Paddle lacks there and
    that pylayer_extras.toml does not list."""
    found = []
    for space in spaces:
        known = set(space.names) | space.attributes
        for name in sorted((space.exports or set()) - known):
            full = f"{space.name}.{name}"
            if not any(fnmatch.fnmatchcase(full, pattern) for pattern in extras):
                found.append(full)
    return found


def stale_extras(spaces, extras):
    """Extras that pylayer does not export, or that Paddle has after all."""
    exported = [full for space in spaces for full in qualified(space, sorted(space.exports or ()))]
    paddle = [full for space in spaces for full in qualified(space, [*space.names,
                                                                     *space.attributes])]
    return sorted(set(unmatched(extras, exported))
                  | {pattern for pattern, names in paddle_coverage.matching(extras, paddle).items()
                     if names})


def lost(spaces, floor):
    """``{namespace: [names of the floor pylayer no longer has]}``."""
    by_name = {space.name: space for space in spaces}
    drops = {}
    for namespace, names in floor.items():
        have = set(by_name[namespace].have) if namespace in by_name else set()
        gone = [name for name in names if name not in have]
        if gone:
            drops[namespace] = gone
    return drops


def patterns(path):
    return [pattern for _, names in paddle_coverage.groups(path) for pattern in names]


class Summary:
    """Writes the table at the end of the run, in pytest's terminal summary."""

    def __init__(self, text):
        self.text = text

    def pytest_terminal_summary(self, terminalreporter):
        terminalreporter.write_sep("-", "Paddle API coverage")
        terminalreporter.write_line(self.text)


@pytest.fixture(scope="module")
def spaces(request):
    found = paddle_coverage.namespaces()
    text = paddle_coverage.table(found)
    print("\n" + text)
    plugins = request.config.pluginmanager
    if not plugins.has_plugin("paddle-coverage-summary"):
        plugins.register(Summary(text), "paddle-coverage-summary")
    return found


@pytest.fixture(scope="module")
def table(spaces):
    return paddle_coverage.table(spaces)


def test_the_name_list_is_paddle_3_3_1s(spaces, table):
    data = paddle_coverage.paddle_names()
    assert data["paddle"] == "3.3.1"
    for name, entry in data["namespaces"].items():
        assert entry["names"] == sorted(set(entry["names"])), name
        assert not [n for n in entry["names"] if n.startswith("_")], name
    counts = {space.name: len(space.names) for space in spaces}
    assert counts["paddle"] == 516 and counts["paddle.Tensor"] == 543, table
    assert {"paddle.nn", "paddle.nn.functional", "paddle.linalg", "paddle.optimizer"} <= set(counts)


def test_every_not_applicable_entry_is_a_paddle_name(spaces, table):
    every = [full for space in spaces for full in qualified(space, space.names)]
    stale = unmatched(patterns(paddle_coverage.NOT_APPLICABLE), every)
    assert not stale, (f"not_applicable.toml lists names Paddle 3.3.1 does not have: {stale}\n"
                       f"{table}")


def test_no_name_pylayer_has_is_listed_as_not_applicable(spaces, table):
    had = not_applicable_but_had(spaces)
    assert not had, (f"pylayer has these names, so they apply: remove them from "
                     f"not_applicable.toml: {had}\n{table}")


def test_pylayer_invents_no_names_in_paddles_namespaces(spaces, table):
    extra = invented(spaces, patterns(paddle_coverage.EXTRAS))
    assert not extra, (f"pylayer exports names Paddle 3.3.1 does not have; rename them after "
                       f"Paddle, make them private, or list them with a reason in "
                       f"pylayer_extras.toml: {extra}\n{table}")


def test_every_extra_is_pylayers_and_not_paddles(spaces, table):
    stale = stale_extras(spaces, patterns(paddle_coverage.EXTRAS))
    assert not stale, (f"pylayer_extras.toml lists names pylayer does not export or that "
                       f"Paddle has: {stale}\n{table}")


def test_no_namespace_loses_names_below_its_floor(spaces, table):
    floor = paddle_coverage.floor()
    drops = lost(spaces, floor)
    assert not drops, f"names pylayer had and lost: {drops}\n{table}"
    by_name = {space.name: space for space in spaces}
    for namespace, names in floor.items():
        assert set(names) <= set(by_name[namespace].applicable), \
            f"coverage_floor.json lists names that are not applicable Paddle names in {namespace}"


# The checks above, each shown to catch the problem it is for.

def space(name="paddle.fake", names=("a", "b", "c"), attributes=(), not_applicable=(),
          exports=("a",)):
    return Namespace(name, list(names), set(attributes), set(not_applicable),
                     None if exports is None else set(exports))


def test_the_counts_leave_out_the_names_that_do_not_apply():
    fake = space(names=("a", "b", "c", "d"), not_applicable={"d"}, exports=("a", "x"))
    assert (fake.have, fake.missing, fake.applicable) == (["a"], ["b", "c"], ["a", "b", "c"])
    assert round(fake.percent) == 33
    assert space(exports=None).have == [] and space(exports=None).missing == ["a", "b", "c"]
    assert space(not_applicable={"a", "b", "c"}).percent is None
    text = paddle_coverage.table([fake])
    assert "paddle.fake" in text and "33 %" in text


def test_a_stale_not_applicable_entry_is_caught():
    assert unmatched(["paddle.fake.b", "paddle.fake.z*", "paddle.fake.*"],
                     ["paddle.fake.a", "paddle.fake.b"]) == ["paddle.fake.z*"]


def test_a_not_applicable_name_that_pylayer_has_is_caught():
    assert not_applicable_but_had([space(not_applicable={"a", "b"})]) == ["paddle.fake.a"]


def test_an_invented_name_is_caught_unless_listed():
    fake = space(attributes={"y"}, exports=("a", "x", "y"))
    assert invented([fake], []) == ["paddle.fake.x"]
    assert invented([fake], ["paddle.fake.x"]) == []


def test_a_stale_extra_is_caught():
    fake = space(attributes={"y"}, exports=("a", "x", "y"))
    assert stale_extras([fake], ["paddle.fake.x", "paddle.fake.gone", "paddle.fake.y",
                                 "paddle.fake.b"]) == ["paddle.fake.b", "paddle.fake.gone",
                                                       "paddle.fake.y"]


def test_a_drop_below_the_floor_names_the_names_lost():
    fake = space(exports=("a",))
    assert lost([fake], {"paddle.fake": ["a", "b"], "paddle.gone": ["q"]}) == {
        "paddle.fake": ["b"], "paddle.gone": ["q"]}
    assert lost([fake], {"paddle.fake": ["a"]}) == {}
