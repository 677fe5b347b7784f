"""``python -m pylayer check module:Class --input "float64[3,4]" ...``: opcheck from the shell."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from pylayer.__main__ import main
from pylayer.autograd.opcheck import _command_line, _parse_input

LAYERS = textwrap.dedent('''
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class Scale(PyLayer):
        @staticmethod
        def forward(ctx, x, factor=2.0, mask=None):
            ctx.factor = factor
            ctx.save_for_backward(mask)
            out = x * factor
            return out if mask is None else out * paddle.cast(mask, out.dtype)

        @staticmethod
        def backward(ctx, dy):
            mask, = ctx.saved_tensor()
            dx = dy * ctx.factor
            return dx if mask is None else (dx * paddle.cast(mask, dx.dtype), None)

    class Stash(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.x = x
            return x * x

        @staticmethod
        def backward(ctx, dy):
            return 2 * ctx.x * dy

    not_a_layer = 3
''')


@pytest.fixture
def layers(tmp_path, monkeypatch):
    (tmp_path / "my_layers.py").write_text(LAYERS)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("my_layers", None)
    return tmp_path


def test_a_correct_layer_prints_the_report_and_exits_0(layers, capsys):
    assert _command_line(["my_layers:Scale", "--input", "float32[3,4]", "--input", "3.0"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == ["opcheck of Scale: ok",
                                    "inputs: x: float32[3, 4] as float64, factor: 3.0"]
    assert "gradient                    pass" in out


def test_a_broken_layer_exits_1_and_the_report_says_why(layers, capsys):
    assert _command_line(["my_layers:Stash", "--input", "float64[2]"]) == 1
    out = capsys.readouterr().out
    assert "saved tensors               fail     backward uses tensors it did not save" in out
    assert "to change: keep every tensor backward needs with ctx.save_for_backward" in out


def test_keyword_inputs_integer_tensors_and_a_file_path(layers, capsys):
    argv = [str(layers / "my_layers.py") + ":Scale", "--input", "float64[2,3]",
            "--input", "mask=bool[2,3]", "--seed", "3", "--low", "0.5", "--high", "2"]
    assert _command_line(argv) == 0
    assert "x: float64[2, 3], mask: bool[2, 3]" in capsys.readouterr().out


def test_a_float_tensor_can_be_given_stop_gradient(layers, capsys):
    rng = np.random.default_rng(0)
    key, tensor = _parse_input("mask=float32[2,3]:stop_gradient", rng, 0.0, 1.0)
    assert (key, tensor.shape, tensor.dtype.name, tensor.stop_gradient) == \
        ("mask", [2, 3], "float32", True)
    _, tensor = _parse_input("float32[2]", rng, 0.0, 1.0)
    assert not tensor.stop_gradient
    assert _command_line(["my_layers:Scale", "--input", "float64[2]:stop_gradient"]) == 2
    assert "no float Tensor in argument 'args' or 'kwargs'" in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["my_layers"], "expected module:Class (or path/to/file.py:Class), got 'my_layers'"),
    (["no_such_module_here:Layer"], "No module named 'no_such_module_here'"),
    (["my_layers:Missing"], "my_layers has no 'Missing'"),
    (["my_layers:not_a_layer", "--input", "float64[2]"], "my_layers:not_a_layer is int, "
                                                           "not a PyLayer subclass"),
    (["my_layers:Scale", "--input", "float64[2,x]"], "--input 'float64[2,x]': expected "
                                                      "dtype[shape] such as float64[3,4]"),
    (["my_layers:Scale", "--input", "complex64[2]"], "dtype complex64 is not supported"),
    (["my_layers:Scale", "--input", "float64[-2]"], "dimensions must be non-negative"),
    (["my_layers:Scale", "--input", "what is this"], "expected dtype[shape] such as "
                                                     "float64[3,4], or a Python literal"),
    (["my_layers:Scale", "--input", "int64[2]"], "has stop_gradient=False, so no gradient of "
                                                 "Scale can be checked"),
    (["my_layers:Scale", "--input", "float64[2]", "--low", "2", "--high", "1"],
     "--low (2.0) must be below --high (1.0)"),
    ([str("missing_file.py") + ":Scale"], "no file 'missing_file.py'"),
])
def test_usage_errors_exit_2_with_a_message(layers, capsys, argv, message):
    assert _command_line(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m pylayer check: ") and message in err


def test_help_describes_the_inputs(capsys):
    with pytest.raises(SystemExit) as caught:
        _command_line(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "usage: python -m pylayer check" in out and "dtype[shape]" in out


def test_the_main_command_dispatches_check(layers, capsys):
    assert main(["check", "my_layers:Scale", "--input", "float64[2]"]) == 0
    assert "check" in capsys.readouterr().out
    assert main([]) == 2 and "check" in capsys.readouterr().out
    assert main(["chekc"]) == 2
    assert "unknown command 'chekc'" in capsys.readouterr().err


def test_python_dash_m_pylayer_check_runs_from_the_shell(layers):
    environment = dict(os.environ, PYTHONPATH=str(layers))
    done = subprocess.run([sys.executable, "-m", "pylayer", "check", "my_layers:Stash",
                           "--input", "float64[3]"], capture_output=True, text=True,
                          env=environment, cwd=layers, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("opcheck of Stash: 1 check failed\ninputs: x: float64[3]\n")
