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


def test_the_stub_is_generated_from_the_table_with_real_parameters():
    text = (pathlib.Path(pylayer.__file__).parent / _methods.STUB).read_text()
    generated = text[text.index(_methods.STUB_BEGIN):]
    assert generated == _methods.tensor_stub(pylayer.tensor_methods()), (
        "run python tools/write_stubs.py")
    assert "    def clip(self, min: Any = ..., max: Any = ..., name: Any = ...) -> Any: ..." \
        in generated


def test_methods_are_class_attributes_that_code_can_replace():
    """dir(), help() and inspect see the methods; Paddle code adds its own to the class."""
    import inspect
    assert "exp" in dir(pylayer.Tensor) and pylayer.Tensor.exp is pylayer.exp
    assert str(inspect.signature(pylayer.Tensor.exp)) == "(x, name=None)"
    pylayer.Tensor.view_as_pair = lambda self: pylayer.reshape(self, [2, -1])
    try:
        assert pylayer.ones([4]).view_as_pair().shape == [2, 2]
        assert pylayer.create_parameter([4], "float32").view_as_pair().shape == [2, 2]
    finally:
        del pylayer.Tensor.view_as_pair
    assert not hasattr(pylayer.ones([1]), "view_as_pair")


def test_a_replaced_operator_reaches_every_tensor():
    original = pylayer.Tensor.__pow__
    pylayer.Tensor.__pow__ = lambda self, other: "replaced"
    try:
        assert pylayer.ones([1]) ** 2 == "replaced"
    finally:
        pylayer.Tensor.__pow__ = original
    assert ((pylayer.ones([1]) * 3) ** 2).numpy().tolist() == [9.0]


@pytest.mark.parametrize("attribute", ["__name__", "__qualname__", "__bases__", "__module__",
                                       "__doc__", "__class__"])
def test_the_attributes_of_the_compiled_class_itself_stay_refused(attribute):
    """Setting these would write fields a compiled type does not have: in a child
    process, since a regression crashes the interpreter."""
    import subprocess
    import sys
    code = (f"import gc, pylayer\n"
            f"class Base: __slots__ = ()\n"
            f"try:\n    pylayer.Tensor.{attribute} = (Base,) if '{attribute}' == '__bases__' "
            f"else 'X'\nexcept TypeError as e:\n    print('refused', e)\n"
            f"gc.collect()\nprint(pylayer.Tensor.__name__, (pylayer.ones([1]) + 1).numpy())")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"refused cannot set '{attribute}' of the class Tensor")
    assert run.stdout.endswith("Tensor [2.]\n")
