"""The package is typed (PEP 561): it ships ``py.typed``, a typed program
passes mypy in strict mode, and mypy refuses calls the annotations forbid."""
import pathlib
import re
import subprocess
import sys

import pytest

import pylayer

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLE = HERE / "example_typed.py"
WRONG = HERE / "wrong_types.py"

pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install '.[test]'")


def mypy(cache, *files):
    """mypy with the project's settings (pyproject.toml), as CI runs it."""
    result = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                             str(ROOT / "pyproject.toml"), "--cache-dir", str(cache),
                             "--no-pretty", *map(str, files)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    return result.returncode, result.stdout + result.stderr


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("mypy-cache")


def test_the_package_says_it_is_typed():
    assert (pathlib.Path(pylayer.__file__).parent / "py.typed").is_file()


@pytest.mark.slow
def test_the_typed_example_passes_mypy_strict(cache):
    status, output = mypy(cache, EXAMPLE)
    assert status == 0, output
    assert "Success: no issues found in 1 source file" in output


def test_the_typed_example_runs():
    ran = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "the typed example ran"


@pytest.mark.slow
def test_mypy_reports_every_known_type_error(cache):
    """Each line marked ``# error: <code>`` gets that error, and no other line any:
    were to_tensor, grad or saved_tensors_hooks untyped, these would pass silently."""
    expected = {(number, code)
                for number, line in enumerate(WRONG.read_text().splitlines(), 1)
                for code in re.findall(r"# error: ([\w-]+)", line)}
    assert len(expected) >= 10
    status, output = mypy(cache, WRONG)
    assert status == 1, output
    reported = {(int(line), code) for line, code in
                re.findall(r"^[^:\n]*wrong_types\.py:(\d+): error: .*\[([\w-]+)\]$", output,
                           re.M)}
    assert reported == expected, output
