"""The top-level namespace a user meets in the prompt: ``dir(pylayer)`` and tab
completion list the public names only; the helpers behind them stay importable."""
import pathlib
import re
import rlcompleter
import types

import pylayer

API_DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "en" / "api"

HELPERS = ["getitem", "setitem", "inplace", "tensor_methods", "bool_", "ops"]


def completions(prefix):
    completer = rlcompleter.Completer({"pylayer": pylayer})
    found, state = [], 0
    while (match := completer.complete(prefix, state)) is not None:
        found.append(match)
        state += 1
    return found


def test_dir_is_the_public_names_and_the_dunders():
    listed = dir(pylayer)
    assert set(listed) == set(pylayer.__all__) | {n for n in vars(pylayer) if n.startswith("__")}
    assert listed == sorted(listed)
    for name in listed:
        getattr(pylayer, name)


def test_tab_completion_offers_no_helpers():
    offered = {match.removeprefix("pylayer.").removesuffix("()").removesuffix("(") for match in completions("pylayer.")}
    assert offered, "rlcompleter offered nothing for 'pylayer.'"
    assert not offered & set(HELPERS), offered & set(HELPERS)
    assert {"to_tensor", "autograd", "nn", "Tensor", "no_grad"} <= offered
    assert not [name for name in offered if name.startswith("_")]


def test_the_helpers_stay_importable():
    for name in HELPERS:
        assert hasattr(pylayer, name), name
    from pylayer import getitem, inplace, ops, tensor_methods  # noqa: F401


def test_every_documented_subpackage_is_listed():
    """``import pylayer.nn``, ``pylayer.autograd``, ...: the modules the API
    reference documents, one level below pylayer, are all in dir(). Except
    ``ops``: the implementation package, documented only for the helper that a
    user imports by its full name, ``from pylayer.ops.inplace import inplace``."""
    documented = {match for page in API_DOCS.glob("*.rst")
                  for match in re.findall(r"^\.\. py:module:: pylayer\.(\w+)", page.read_text(),
                                          re.M)}
    top_level = documented - {"ops"}
    assert {"autograd", "nn", "optimizer", "static", "device"} <= top_level
    for name in top_level:
        assert name in dir(pylayer), name
        assert isinstance(getattr(pylayer, name), types.ModuleType)
