"""The docstring examples of the PyLayer modules run and print what they show."""
import doctest
import importlib

import pytest

MODULES = ["pylayer.autograd.py_layer", "pylayer.autograd.saved_hooks",
           "pylayer.autograd.graph", "pylayer.autograd.anomaly"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_has_a_docstring_with_an_example(name):
    module = importlib.import_module(name)
    for public in module.__all__:
        obj = getattr(module, public)
        assert ">>>" in (obj.__doc__ or ""), public
        if isinstance(obj, type):
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                if isinstance(value, (staticmethod, classmethod)):
                    value = value.__func__
                doc = getattr(value, "__doc__", None)
                assert ">>>" in (doc or ""), f"{public}.{attr}"
