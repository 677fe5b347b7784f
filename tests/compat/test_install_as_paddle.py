"""pylayer.install_as_paddle(): ``import paddle`` and ``paddle.x`` resolve to pylayer.

Each case runs in a fresh interpreter (sys.executable): the alias changes the
process's import system, which the rest of the suite must not see.
"""
import subprocess
import sys
import textwrap

import pytest

import pylayer
from pylayer import compat


def child(code, cwd=None):
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, timeout=120, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_importing_pylayer_changes_nothing_until_it_is_called():
    out = child("""
        import sys
        import pylayer
        print("paddle" in sys.modules, any("Paddle" in type(f).__name__ for f in sys.meta_path))
        try:
            import paddle
        except ModuleNotFoundError as error:
            print("no paddle:", error.name)
    """)
    assert out.split("\n")[:2] == ["False False", "no paddle: paddle"]


def test_paddle_and_its_submodules_are_pylayers():
    out = child("""
        import sys
        import pylayer
        pylayer.install_as_paddle()
        import paddle
        import paddle.nn as nn
        import paddle.nn.functional as F
        import paddle.static
        from paddle.autograd import PyLayer
        from paddle.framework import save
        from paddle.optimizer import Adam
        from paddle import incubate
        print(paddle is pylayer, nn is pylayer.nn, F is pylayer.nn.functional,
              paddle.static is pylayer.static, PyLayer is pylayer.autograd.PyLayer,
              save is pylayer.save, Adam is pylayer.optimizer.Adam,
              incubate is pylayer.incubate)
        print(paddle.__spec__.name, paddle.nn.__spec__.name)
    """)
    assert out.splitlines() == ["True True True True True True True True", "pylayer pylayer.nn"]


def test_nothing_is_imported_ahead_and_attributes_are_not_overwritten():
    out = child("""
        import sys
        import pylayer
        pylayer.install_as_paddle()
        print(sorted(name for name in sys.modules if name.startswith("paddle")))
        import paddle.autograd.gradcheck as module
        from paddle.autograd import gradcheck
        print(sorted(name for name in sys.modules if name.startswith("paddle")))
        print(gradcheck is pylayer.autograd.gradcheck, callable(gradcheck),
              module is sys.modules["pylayer.autograd.gradcheck"])
    """)
    before, after, checks = out.splitlines()
    assert before == "[]"
    # pylayer.autograd's submodules that a function of the same name hides (gradcheck,
    # opcheck) are registered under their alias when paddle.autograd is imported
    assert after == ("['paddle', 'paddle.autograd', 'paddle.autograd.gradcheck', "
                     "'paddle.autograd.opcheck']")
    # the function pylayer.autograd.gradcheck stays a function, as without the alias
    assert checks == "True True False"


@pytest.mark.parametrize("statement", [
    "import paddle.vision.models", "import paddle.geometric", "import paddle.onnx",
    "from paddle import onnx", "from paddle.onnx import export", "import paddle.vision.datasets",
    "import paddle._C_ops", "import paddle.nn.LSTM",
])
def test_a_module_pylayer_lacks_is_an_import_error_naming_the_migration_command(statement):
    out = child(f"""
        import pylayer
        pylayer.install_as_paddle()
        try:
            {statement}
        except ImportError as error:
            print(type(error).__name__, "|", error)
    """)
    kind, message = out.strip().split(" | ")
    assert kind == "ModuleNotFoundError"
    assert "No module named 'paddle." in message
    assert "python -m pylayer migration" in message or "not a module" in message


def test_a_real_paddle_already_imported_is_refused(tmp_path):
    fake = tmp_path / "paddle"
    fake.mkdir()
    (fake / "__init__.py").write_text("REAL = True\n")
    out = child("""
        import sys
        import paddle
        import pylayer
        meta_path = list(sys.meta_path)
        try:
            pylayer.install_as_paddle()
        except RuntimeError as error:
            print("refused:", error)
        print(sys.meta_path == meta_path, sys.modules["paddle"].REAL)
    """, cwd=tmp_path)
    first, second = out.splitlines()
    assert first.startswith("refused: install_as_paddle(): the real Paddle is already imported")
    assert second == "True True"


def test_calling_it_twice_is_harmless():
    out = child("""
        import sys
        import pylayer
        pylayer.install_as_paddle()
        pylayer.compat.install_as_paddle()
        import paddle
        print(sum(type(f).__name__ == "_PaddleFinder" for f in sys.meta_path), paddle is pylayer)
    """)
    assert out.strip() == "1 True"


@pytest.mark.parametrize("name", ["quantization", "onnx", "geometric", "hub"])
def test_a_paddle_namespace_reached_as_an_attribute_names_the_migration_command(name):
    with pytest.raises(AttributeError, match=rf"module 'pylayer' has no attribute '{name}': "
                                             rf"Paddle's .*paddle\.{name} .*python -m pylayer "
                                             rf"migration paddle\.{name}"):
        getattr(pylayer, name)
    assert not hasattr(pylayer, name)


def test_another_missing_attribute_is_a_plain_attribute_error():
    with pytest.raises(AttributeError, match=r"^module 'pylayer' has no attribute 'tanhh'$"):
        pylayer.tanhh
    assert compat.install_as_paddle is pylayer.install_as_paddle
