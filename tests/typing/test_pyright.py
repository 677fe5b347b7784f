"""pyright sees exactly the public names, typed: a typical user script passes
basedpyright in standard mode (every name it uses is exported by pylayer, a
Tensor converts with float()), and a script that uses an internal name is
refused. basedpyright comes with the test extra (it ships its own Node.js)."""
import json
import pathlib
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
USER_SCRIPT = HERE / "example_user.py"



def pyright(tmp_path, source):
    binary = shutil.which("basedpyright", path=str(pathlib.Path(sys.executable).parent))
    if binary is None:
        pytest.fail("basedpyright is missing: it comes with the test extra, pip install '.[test]'")
    (tmp_path / "script.py").write_text(source)
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(
        {"typeCheckingMode": "standard", "pythonVersion": "3.11"}))
    result = subprocess.run([binary, "--pythonpath", sys.executable, "script.py"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=600)
    return result.returncode, result.stdout + result.stderr


def test_a_typical_user_script_is_clean(tmp_path):
    code, output = pyright(tmp_path, USER_SCRIPT.read_text())
    assert code == 0 and "0 errors" in output, output


def test_an_internal_name_is_not_exported(tmp_path):
    code, output = pyright(tmp_path, "import pylayer\npylayer.bool_\n")
    assert code != 0 and '"bool_" is not exported' in output, output


def test_the_user_script_runs():
    result = subprocess.run([sys.executable, str(USER_SCRIPT)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("0 ")


def test_completion_offers_the_public_names_and_submodules_only():
    import jedi             # comes with the test extra
    import pylayer
    offered = {c.name for c in jedi.Script("import pylayer\npylayer.", path="user.py")
               .complete(2, 8) if not c.name.startswith("_")}
    package = pathlib.Path(pylayer.__file__).parent
    submodules = {path.stem for path in package.iterdir() if not path.stem.startswith("_")
                  and (path.suffix == ".py" or (path / "__init__.py").exists())}
    # the helpers that stay importable (tests/api/test_namespace.py), and nothing else
    helpers = {"getitem", "setitem", "inplace", "tensor_methods", "bool_"}
    assert offered - set(pylayer.__all__) - submodules <= helpers
    assert set(pylayer.__all__) <= offered
