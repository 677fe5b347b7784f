"""Adding an op takes what "Adding an op" on the architecture page says, and nothing else:
a throwaway op written into a copy of the package's area file (its record, forward,
declaration, twin line and ``__all__`` entry), after ``tools/write_stubs.py``, is a
public function, a Tensor method with its in-place twin, Paddle's function-level twin,
in the generated stub, and it differentiates twice. The registrations no test checks by hand are derived; the one
that is a list (``nn.functional``) is checked against the areas here."""
import importlib
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import pylayer
from pylayer.nn import functional as F

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = pathlib.Path(pylayer.__file__).parent

THROWAWAY = '''

# ------------------------------------------------------------ a throwaway op of the test
LOGADDEXP2 = Op("logaddexp2", inputs=("x", "y"), keeps=("x", "y", "out"),
                vjp=(lambda g, x, out: multiply(g, exp(multiply(subtract(x, out), LN2))),
                     lambda g, y, out: multiply(g, exp(multiply(subtract(y, out), LN2)))))
LN2 = float(np.log(2.0))


@op(method=True, inplace=True)
def logaddexp2(x, y, name=None):
    """``log2(2 ** x + 2 ** y)``.

    >>> import pylayer
    >>> pylayer.logaddexp2(pylayer.to_tensor([1.0]), pylayer.to_tensor([1.0])).numpy()
    array([2.], dtype=float32)
    """
    x = float_tensor(x, "logaddexp2", "x", 1, True)
    y = float_tensor(y, "logaddexp2", "y", 2, True)
    return make_output(LOGADDEXP2, np.logaddexp2(x._array, y._array), (x, y))


logaddexp2_ = inplace_twin(logaddexp2)
__all__ += ["logaddexp2", "logaddexp2_"]
'''

CHECK = textwrap.dedent('''
    import pylayer
    from pylayer.autograd import gradcheck, gradgradcheck
    x = pylayer.to_tensor([0.5, 1.5], dtype="float64", stop_gradient=False)
    y = pylayer.to_tensor([1.0, -1.0], dtype="float64", stop_gradient=False)
    assert "logaddexp2" in pylayer.__all__ and "logaddexp2_" in pylayer.__all__
    assert "logaddexp2" in dir(pylayer)
    assert x.logaddexp2(y).numpy().tolist() == pylayer.logaddexp2(x, y).numpy().tolist()
    assert pylayer.Tensor.logaddexp2_ is pylayer.logaddexp2_
    z = pylayer.to_tensor([1.0]); assert z.logaddexp2_(pylayer.to_tensor([1.0])) is z
    assert z.numpy().tolist() == [2.0] and z.inplace_version == 1
    assert gradcheck(pylayer.logaddexp2, (x, y)) and gradgradcheck(pylayer.logaddexp2, (x, y))
    assert "def logaddexp2(self, y: Any, name: Any = ...) -> Any: ..." in \\
        pylayer._methods.tensor_stub(pylayer.tensor_methods())
    print("ok")
''')


def test_a_throwaway_op_needs_its_area_file_only(tmp_path):
    copy = tmp_path / "pylayer"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    area = copy / "ops" / "math.py"
    source = area.read_text()
    assert "from pylayer.ops.inplace import inplace_twin" in source
    area.write_text(source + THROWAWAY)
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    # what a contributor runs after declaring an op: it regenerates the stubs and the
    # package's imports of the area's names
    written = subprocess.run([sys.executable, str(ROOT / "tools" / "write_stubs.py")], env=env,
                             capture_output=True, text=True, timeout=300)
    assert written.returncode == 0, written.stderr[-3000:]
    assert "logaddexp2" in (copy / "__init__.py").read_text()
    result = subprocess.run([sys.executable, "-c", CHECK], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


# The areas whose ops Paddle has in paddle.nn.functional (and not at the top level).
FUNCTIONAL_AREAS = ("activation", "loss", "convolution", "pooling", "normalization", "dropout",
                    "embedding", "linear", "spatial", "nonlinear", "attention")


def test_every_op_of_a_functional_area_is_in_nn_functional():
    functional = ROOT / "src" / "pylayer" / "nn" / "functional.py"
    missing = []
    for area in FUNCTIONAL_AREAS:
        module = importlib.import_module(f"pylayer.ops.{area}")
        missing += [(area, name) for name in module.__all__
                    if getattr(F, name, None) is not getattr(module, name)]
    lines = functional.read_text().splitlines()
    last_import = max(i for i, line in enumerate(lines, 1)
                      if re.match(r"(from|import) ", line))
    assert not missing, "add to src/pylayer/nn/functional.py (after line {}): {}".format(
        last_import, "; ".join(f"from pylayer.ops.{a} import {n}, and '{n}' to __all__"
                               for a, n in missing))
