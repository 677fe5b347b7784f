"""The generated stubs are current: each compiled op area's ``.pyi`` says what the
module really exports, with its real parameters (type checkers cannot read a
compiled module), and every compiled module that exports names has a stub."""
import importlib
import importlib.util
import pathlib

import pytest

import pylayer

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("write_stubs", ROOT / "tools" / "write_stubs.py")
write_stubs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(write_stubs)


@pytest.mark.parametrize("module_name", write_stubs.COMPILED_AREAS)
def test_the_stub_of_a_compiled_area_is_current(module_name):
    path = write_stubs.area_stub_path(module_name)
    assert path.exists() and path.read_text() == write_stubs.area_stub(module_name), (
        f"{path.name} is stale: run python tools/write_stubs.py")


def test_every_compiled_module_with_public_names_has_a_stub():
    package = pathlib.Path(pylayer.__file__).parent
    for source in package.rglob("*.pyx"):
        module_name = ".".join(source.relative_to(package.parent).with_suffix("").parts)
        if importlib.import_module(module_name).__dict__.get("__all__"):
            assert source.with_suffix(".pyi").exists(), f"{module_name} has no stub"


def test_the_package_imports_its_areas_names_as_generated():
    text = write_stubs.INIT.read_text()
    assert write_stubs.explicit_imports(text) == text, (
        "src/pylayer/__init__.py is stale: run python tools/write_stubs.py")
