"""Installing: the distribution's name, and what a failed build tells the user."""
import importlib.util
import pathlib
import sysconfig
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def load_setup_script():
    """setup.py as a module; only running it as __main__ builds anything."""
    spec = importlib.util.spec_from_file_location("pylayer_setup_script", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_missing_compiler_is_named_with_what_to_install():
    setup_script = load_setup_script()
    advice = setup_script.missing_build_tools(["gcc", "-pthread"], which=lambda command: None)
    assert "a C compiler (`gcc` is not on PATH)" in advice
    assert "Python's C headers" not in advice
    for remedy in ("sudo apt-get install gcc python3-dev", "xcode-select --install",
                   "Microsoft C++ Build Tools", "set CC"):
        assert remedy in advice


def test_missing_python_headers_are_named(tmp_path):
    setup_script = load_setup_script()
    advice = setup_script.missing_build_tools(["gcc"], include_dir=tmp_path,
                                              which=lambda command: "/usr/bin/gcc")
    assert f"Python's C headers (no Python.h in {tmp_path})" in advice
    assert "is not on PATH" not in advice


def test_a_complete_tool_chain_passes():
    setup_script = load_setup_script()
    headers = sysconfig.get_paths()["include"]
    assert setup_script.missing_build_tools(["gcc"], include_dir=headers,
                                            which=lambda command: "/usr/bin/gcc") is None


def test_the_distribution_name_is_not_the_unrelated_pylayer_on_the_index():
    """`pip install pylayer` installs an unrelated encryption tool; ours is pylayer-autograd,
    and the README says so."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "pylayer-autograd"
    assert "pylayer-autograd[docs]" in project["optional-dependencies"]["test"]
    readme = (ROOT / "README.md").read_text()
    assert "`pylayer-autograd`" in readme
