"""The layers point one way: ``nn``, ``static``, ``optimizer`` and ``framework`` build on
pylayer's public modules and on ``pylayer.extend`` only.

Read from the source with ``ast``, every import in those packages must name

* a module of its own package (private ones included: ``nn/conv.py`` may import
  ``pylayer.nn._something``);
* ``pylayer.extend``, and only names its ``__all__`` lists;
* or a public module of pylayer (no part of its path starts with ``_``), and from it
  no name that starts with ``_``.

What a layer needs from pylayer's private modules is added to ``pylayer.extend``,
the surface contributors may rely on (docs: ``api/extend.rst``).
"""
import ast
import pathlib

import pytest

import pylayer.extend

SOURCE = pathlib.Path(__file__).resolve().parents[2] / "src" / "pylayer"
PACKAGES = ("nn", "static", "optimizer", "framework")


def imports(source, package):
    """``(line, imported module, names)`` of every import in ``source``, a module of
    ``package``; relative imports made absolute. A plain ``import a.b`` has no names."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            yield node.lineno, base, tuple(alias.name for alias in node.names)


def offences(source, module, is_package=False):
    """What ``module`` (under one of PACKAGES; an ``__init__`` when ``is_package``)
    imports against the rule, one line each."""
    own = ".".join(module.split(".")[:2])
    found = []
    package = module if is_package else module.rsplit(".", 1)[0]
    for line, imported, names in imports(source, package):
        parts = imported.split(".")
        if parts[0] != "pylayer" or imported == own or imported.startswith(own + "."):
            continue
        if imported == "pylayer.extend":
            wrong = [n for n in names if n not in pylayer.extend.__all__]
            if wrong:
                found.append(f"{module}:{line}: {wrong} are not in pylayer.extend.__all__")
        elif any(part.startswith("_") for part in parts[1:]):
            found.append(f"{module}:{line}: imports the private module {imported}")
        elif any(name.startswith("_") for name in names):
            found.append(f"{module}:{line}: imports private names {list(names)} from "
                         f"{imported}")
    return found


def modules():
    """``(dotted name, path)`` of every Python module of PACKAGES."""
    for package in PACKAGES:
        for path in sorted((SOURCE / package).rglob("*.py")):
            parts = path.relative_to(SOURCE.parent).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


MODULES = list(modules())


def found_in(module, path):
    return offences(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_imports_only_public_modules_extend_or_its_own_package(module, path):
    assert found_in(module, path) == [], (
        "import it from pylayer.extend (add it there, documented in docs/*/api/extend.rst) "
        "or from a public module")


def test_the_packages_hold_no_compiled_source_the_check_cannot_read():
    compiled = [str(p.relative_to(SOURCE)) for package in PACKAGES
                for pattern in ("*.pyx", "*.pxd") for p in (SOURCE / package).rglob(pattern)]
    assert compiled == []
    assert len(MODULES) > 20     # nn, static, optimizer and framework were found


@pytest.mark.parametrize("module,source", [
    ("pylayer.nn.conv", "from pylayer._core.tensor import Tensor"),
    ("pylayer.nn.conv", "import pylayer._kernels.conv"),
    ("pylayer.nn.conv", "from pylayer.ops import _window_args"),
    ("pylayer.nn.conv", "from pylayer.ops.dispatch import _hidden"),
    ("pylayer.nn.conv", "from pylayer.extend import something_unlisted"),
    ("pylayer.static._executor", "from pylayer.nn._private import x"),
    ("pylayer.optimizer.sgd", "from ..static import _backward"),
    ("pylayer.nn.conv", "from .._core import graph"),
    ("pylayer.framework.io", "def load():\n    from pylayer._core import engine"),
])
def test_an_import_against_the_rule_is_found(module, source):
    assert len(offences(source, module)) == 1


@pytest.mark.parametrize("module,source", [
    ("pylayer.nn.conv", "from pylayer.nn._private import x"),
    ("pylayer.nn.conv", "from . import _private"),
    ("pylayer.static", "from pylayer.static._program import _parameter"),
    ("pylayer.nn.conv", "from pylayer.extend import Op, check_int"),
    ("pylayer.nn.conv", "from pylayer.ops.convolution import conv2d"),
    ("pylayer.nn.conv", "import numpy as np\nimport pylayer"),
])
def test_an_import_the_rule_allows_passes(module, source):
    assert offences(source, module) == []
