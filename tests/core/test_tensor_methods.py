"""Tensor's methods come from one explicit table (pylayer._methods), which the stub lists."""
import ast
import pathlib
import re

import pytest

import pylayer
from pylayer import _methods


def stub_methods():
    tree = ast.parse((pathlib.Path(pylayer.__file__).parent / "_core" / "tensor.pyi").read_text())
    tensor = next(node for node in tree.body if isinstance(node, ast.ClassDef)
                  and node.name == "Tensor")
    return {node.name for node in tensor.body if isinstance(node, ast.FunctionDef)}


def test_every_method_of_the_table_is_in_the_stub():
    missing = sorted(set(pylayer.tensor_methods()) - stub_methods())
    assert not missing, f"add these to class Tensor in _core/tensor.pyi: {missing}"


def test_the_table_names_existing_public_functions_and_their_inplace_twins():
    for name in _methods.METHODS:
        assert name in pylayer.__all__, name
    assert set(_methods.WITH_INPLACE) <= set(_methods.METHODS)
    table = pylayer.tensor_methods()
    for name in _methods.WITH_INPLACE:
        assert table[name + "_"].__name__ == name + "_"


@pytest.mark.parametrize("name", ["exp", "add_", "fill_", "put_along_axis_"])
def test_a_method_of_the_table_is_reachable_on_a_tensor(name):
    assert callable(getattr(pylayer.ones([2]), name))


def test_a_renamed_parameter_does_not_change_the_methods():
    # The table is explicit: no method appears or disappears with a parameter's name.
    assert "numel_" not in pylayer.tensor_methods()
    assert "is_tensor" not in pylayer.tensor_methods()
    x = pylayer.to_tensor([1.0, 4.0])
    assert x.sqrt_() is x and x.numpy().tolist() == [1.0, 2.0]


@pytest.mark.parametrize("dunder", sorted(_methods.OPERATORS))
def test_tensor_operators_follow_the_operator_table(dunder):
    import numpy as np
    name, how = _methods.OPERATORS[dunder]
    fn = getattr(pylayer, name)
    integer = name.startswith("bitwise")
    make = (lambda v: pylayer.to_tensor(v)) if integer else \
        (lambda v: pylayer.to_tensor(v, dtype="float64"))
    a, b = make([[3, 4], [5, 6]]), make([[1, 2], [2, 3]])
    if how == "unary":
        got, want = getattr(a, dunder)(), fn(a)
    elif how == "reflected":
        got, want = getattr(a, dunder)(b), fn(b, a)
    elif how == "in_place":
        want = fn(a, b)
        got = getattr(a, dunder)(b)
        assert got is a
    else:
        got, want = getattr(a, dunder)(b), fn(a, b)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert got.dtype == want.dtype


def test_tensor_is_given_named_functions_not_the_namespace():
    # Every function the compiled Tensor looks up by name is in the table it is given.
    source = (pathlib.Path(__file__).resolve().parents[2] / "src" / "pylayer"
              / "_core" / "tensor.pyx").read_text()
    looked_up = set(re.findall(r'_functions\["(\w+)"\]', source))
    given = set(_methods.tensor_functions(vars(pylayer)))
    assert looked_up and looked_up <= given
    assert given == {name for name, _ in _methods.OPERATORS.values()} | set(_methods.TENSOR_CALLS)
