"""The compiled core is really compiled, and a tree without it fails loudly."""
import doctest
import importlib
import importlib.machinery
import pathlib
import subprocess
import sys

import pytest

import pylayer

def _setup_modules():
    """The compiled modules setup.py lists (its MODULES), as dotted names under pylayer."""
    import ast
    tree = ast.parse((pathlib.Path(__file__).parents[2] / "setup.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "MODULES":
            return [name.rsplit(".", 1)[0].replace("/", ".")
                    for name in ast.literal_eval(node.value)]
    raise AssertionError("setup.py has no MODULES list")


COMPILED = _setup_modules()


def test_core_modules_are_extension_modules():
    for name in COMPILED:
        module = importlib.import_module(f"pylayer.{name}")
        suffix = pathlib.Path(module.__file__).name
        assert any(suffix.endswith(ext) for ext in importlib.machinery.EXTENSION_SUFFIXES), \
            f"pylayer.{name} is not compiled: {module.__file__}"


def test_pylayer_and_its_context_are_plain_python():
    import inspect
    from pylayer.autograd import py_layer
    assert py_layer.__file__.endswith(".py")
    for method in (py_layer.PyLayerContext.save_for_backward, py_layer.PyLayerContext.saved_tensor,
                   py_layer.PyLayerContext.mark_non_differentiable):
        assert inspect.isfunction(method)          # Python functions, steppable in a debugger


def test_tensor_is_an_extension_type():
    assert not hasattr(pylayer.Tensor, "__dict__") or "__slots__" not in pylayer.Tensor.__dict__
    assert not pylayer.Tensor.__flags__ & (1 << 9)    # Py_TPFLAGS_HEAPTYPE: a compiled type
    assert type(pylayer.Tensor).__name__ == "TensorType"  # which lets methods be assigned
    assert pylayer.Tensor.__module__ == "pylayer._core.tensor"
    assert not hasattr(pylayer.Tensor.__init__, "__code__")  # a C method, not Python


def test_import_without_build_says_how_to_build(tmp_path):
    source = pathlib.Path(pylayer.__file__).parent
    fake = tmp_path / "pylayer"
    fake.mkdir()
    for path in source.glob("*.py"):
        (fake / path.name).write_text(path.read_text())
    result = subprocess.run([sys.executable, "-c", "import pylayer"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert "pip install" in result.stderr


@pytest.mark.parametrize("name", COMPILED)
def test_the_doctests_of_every_compiled_module_pass(name):
    # pytest's doctest collection does not look inside extension modules.
    module = importlib.import_module(f"pylayer.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"pylayer.{name}: {result.failed} doctest example(s) failed"
