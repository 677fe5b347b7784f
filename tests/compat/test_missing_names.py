"""A Paddle name or module pylayer lacks, reached by any path (an attribute of paddle or of
a subpackage, ``import paddle.x``, ``from paddle.x import y``, ``from paddle import x``, a
Tensor method), gives an error that says why (not supported, with the reason, or not
there yet) and names ``python -m pylayer migration NAME``, which prints more from the
data installed with pylayer (pylayer/_paddle_api: Paddle's names and the reasons, the
one source the documentation reads too)."""
import pathlib
import subprocess
import sys
import textwrap
import tomllib

import pytest

import pylayer
from pylayer import _paddle_api

ROOT = pathlib.Path(__file__).resolve().parents[2]


def reason_of(pattern):
    return next(reason for reason, names in _paddle_api.groups() if pattern in names)


def run_child(code):
    """Run ``code`` in a fresh interpreter after install_as_paddle(); its stdout."""
    script = "import pylayer\npylayer.install_as_paddle()\nimport paddle\n" + \
        textwrap.dedent(code)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_a_not_applicable_name_says_why_from_the_shipped_reasons():
    with pytest.raises(AttributeError) as error:
        pylayer.float8_e4m3fn
    message = str(error.value)
    assert message.startswith("module 'pylayer' has no attribute 'float8_e4m3fn': ")
    assert reason_of("paddle.float8_*") in message
    assert "`python -m pylayer migration paddle.float8_e4m3fn` says more" in message
    assert error.value.name == "float8_e4m3fn"


def test_a_name_of_a_subpackage(monkeypatch):
    with pytest.raises(AttributeError) as error:
        pylayer.device.get_device_name
    assert reason_of("paddle.device.get_device_name") in str(error.value)
    assert "migration paddle.device.get_device_name" in str(error.value)
    # pylayer has every applicable name now: one taken away stands for a name not there yet.
    monkeypatch.delattr(pylayer.device, "synchronize")
    with pytest.raises(AttributeError, match="Paddle's paddle.device.synchronize is not in "
                                             "pylayer yet; `python -m pylayer migration"):
        pylayer.device.synchronize


def test_a_name_paddle_lacks_too_gets_pythons_own_error():
    with pytest.raises(AttributeError) as error:
        pylayer.device.not_a_paddle_name
    assert str(error.value) == "module 'pylayer.device' has no attribute 'not_a_paddle_name'"
    assert not hasattr(pylayer, "not_a_paddle_name")


def test_a_namespace_pylayer_lacks():
    with pytest.raises(AttributeError, match="paddle.geometric is not in pylayer") as error:
        pylayer.geometric
    assert "python -m pylayer migration paddle.geometric" in str(error.value)
    with pytest.raises(AttributeError) as error:
        pylayer.sparse
    assert reason_of("paddle.sparse.*") in str(error.value)


def test_a_tensor_method_paddle_has():
    x = pylayer.ones([2])
    with pytest.raises(AttributeError) as error:
        x.pin_memory()
    assert str(error.value).startswith("'Tensor' object has no attribute 'pin_memory': ")
    assert reason_of("paddle.Tensor.pin_memory") in str(error.value)
    with pytest.raises(AttributeError) as error:
        pylayer.create_parameter([2], "float32").nnz()
    assert str(error.value).startswith("'Parameter' object has no attribute 'nnz': ")
    with pytest.raises(AttributeError) as error:
        x.shpae
    assert str(error.value) == "'Tensor' object has no attribute 'shpae'"
    assert error.value.name == "shpae" and error.value.obj is x
    assert not hasattr(x, "__array_interface__")


def test_imports_of_what_pylayer_lacks():
    out = run_child("""
        for statement in ("import paddle.geometric", "from paddle.geometric import sample",
                          "from paddle import geometric", "import paddle.sparse.nn",
                          "import paddle.vision.models", "import paddle.no_such_module"):
            try:
                exec(statement)
            except ModuleNotFoundError as error:
                print(statement, "|", error.name, "|", error)
    """)
    lines = dict(line.split(" | ", 1) for line in out.splitlines())
    assert lines["import paddle.geometric"].startswith(
        "paddle.geometric | No module named 'paddle.geometric' in pylayer, installed as paddle: "
        "Paddle's module paddle.geometric is not in pylayer")
    assert lines["import paddle.geometric"].endswith(
        "`python -m pylayer migration paddle.geometric` says more")
    for statement in ("from paddle.geometric import sample", "from paddle import geometric"):
        assert lines[statement].startswith(
            "paddle.geometric | No module named 'paddle.geometric'")
    # pylayer has paddle.vision's transforms only: its other modules are Paddle's too.
    assert lines["import paddle.vision.models"].startswith(
        "paddle.vision.models | No module named 'paddle.vision.models' in pylayer, installed "
        "as paddle: Paddle's module paddle.vision.models is not in pylayer")
    assert reason_of("paddle.sparse.*") in lines["import paddle.sparse.nn"]
    assert "Paddle 3.3.1 has no such public module either" in \
        lines["import paddle.no_such_module"]


def test_from_a_package_import_a_name_it_lacks():
    out = run_child("""
        try:
            from paddle import float8_e4m3fn
        except ImportError as error:
            print(type(error).__name__, "|", error)
        try:
            from paddle.nn.functional import flash_attn_qkvpacked
        except ImportError as error:
            print(type(error).__name__, "|", error)
        print(paddle.device.get_device_name.__name__ if hasattr(paddle.device,
              "get_device_name") else "no get_device_name")
    """)
    first, second, third = out.splitlines()
    assert first.startswith("ImportError | cannot import name 'float8_e4m3fn' from 'paddle' "
                            "(pylayer, installed as paddle): Paddle's paddle.float8_e4m3fn is "
                            "not supported by pylayer: ")
    # nn.functional is a module (not a package): Python's own "cannot import name"
    # is all an import from it can say; the attribute says more.
    assert second.startswith("ImportError | cannot import name")
    assert third == "no get_device_name"


def test_the_migration_command(tmp_path):
    def migration(*args):
        return subprocess.run([sys.executable, "-m", "pylayer", "migration", *args],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)

    table = migration()
    assert table.returncode == 0, table.stderr
    assert table.stdout.startswith("What pylayer has of Paddle 3.3.1's API, per namespace:")
    assert "paddle.nn.functional" in table.stdout and "paddle.geometric" in table.stdout
    name = migration("paddle.Tensor.pin_memory")
    assert name.stdout.strip() == ("Paddle's paddle.Tensor.pin_memory is not supported by "
                                   f"pylayer: {reason_of('paddle.Tensor.pin_memory')}.")
    namespace = migration("sparse").stdout
    assert namespace.startswith("paddle.sparse: none of its 37 names applies to pylayer")
    assert "Why: sparse storage formats" in namespace
    assert migration("paddle.nn.Linear").stdout.strip() == \
        "paddle.nn.Linear: pylayer has it, as pylayer.nn.Linear."
    assert migration("pylayer.io").stdout.startswith("paddle.io: pylayer has 17 of its 17")
    assert "Close: paddle.nn.Linear" in migration("nn.Linaer").stdout
    vision = migration("paddle.vision").stdout
    assert "paddle.vision.transforms: pylayer has 38 of its 38 applicable names" in vision
    bad = migration("a", "b")
    assert bad.returncode == 2 and "at most one NAME" in bad.stderr
    assert migration("--help").stdout.startswith("usage: python -m pylayer migration [NAME]")


def test_the_data_ships_in_the_package():
    with open(ROOT / "pyproject.toml", "rb") as file:
        package_data = tomllib.load(file)["tool"]["setuptools"]["package-data"]
    assert set(package_data["pylayer._paddle_api"]) == {"*.json", "*.toml"}
    assert _paddle_api.NAMES.parent == pathlib.Path(_paddle_api.__file__).parent
    assert _paddle_api.NOT_APPLICABLE.is_file() and _paddle_api.NAMES.is_file()
