"""The layers point one way, and no module of the lower three imports another in a
circle (lazy imports inside functions count too).

    kernels (pylayer._kernels)   array loops and the buffer pool: no other pylayer module
    core    (pylayer._core)      Tensor, graph, engine: kernels, and nothing above;
                                 what it needs of the ops is installed into it
    ops     (pylayer.ops)        every op and its rules, by area: core and kernels
    the rest (autograd, nn, static, optimizer, framework, ...): any layer below

Read from the source (``.py`` with ``ast``, ``.pyx``/``.pxd`` line by line), so a
lazy import that would only run in a rare branch is caught as well. A lazy import
(inside a function) is allowed only from one ops area to another: the rules of two
areas may need each other's ops (mean's rule divides, division's rule sums), which
no import at load time may express."""
import ast
import pathlib
import re

import pytest

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "pylayer"
LAYERS = {"pylayer._kernels": 0, "pylayer._core": 1, "pylayer._typing": 1, "pylayer.ops": 2}
NAMES = {0: "kernels", 1: "core", 2: "ops", 3: "the layers above ops"}
_CYTHON_FROM = re.compile(r"^\s*from\s+([\w.]+)\s+c?import\s+\(?([\w\s,]+)")
_CYTHON_IMPORT = re.compile(r"^\s*c?import\s+([\w.]+)")


def layer_of(module):
    for prefix, layer in LAYERS.items():
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return 3


def module_name(path):
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name):
    path = SRC.joinpath(*name.split("."))
    return path.is_dir() or any(path.with_suffix(s).exists() for s in (".py", ".pyx", ".pxd"))


def resolve(base, names):
    """The modules that ``from base import names`` reaches: submodules by name, else base."""
    found = [f"{base}.{n}" for n in names if is_module(f"{base}.{n}")]
    return found if len(found) == len(names) else found + [base]


def imports_of(path, lazy=True):
    """The pylayer modules a source file imports: anywhere in it, or with ``lazy=False``
    only at load time (outside functions and classes)."""
    targets = set()
    if path.suffix == ".py":
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes = ast.walk(tree) if lazy else _load_time_nodes(tree.body)
        for node in nodes:
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets.update(resolve(node.module, [a.name for a in node.names]))
    else:
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.split("#")[0]
            if not lazy and line[:1].isspace():
                continue
            match = _CYTHON_FROM.match(line)
            if match:
                names = [n.split()[0] for n in match.group(2).split(",") if n.strip()]
                targets.update(resolve(match.group(1), names))
            elif _CYTHON_IMPORT.match(line):
                targets.add(_CYTHON_IMPORT.match(line).group(1))
    return {t for t in targets if t == "pylayer" or t.startswith("pylayer.")}


def _load_time_nodes(body):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            yield from _load_time_nodes(getattr(node, field, []))


def is_area(module):
    """An ops area (``pylayer.ops.shape``), not a helper (``_operands``) or ``dispatch``."""
    parts = module.split(".")
    return (len(parts) == 3 and parts[1] == "ops" and not parts[2].startswith("_")
            and parts[2] != "dispatch")


def graph(lazy):
    edges = {}
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxd") and "__pycache__" not in path.parts:
            edges.setdefault(module_name(path), set()).update(imports_of(path, lazy))
    return edges


EDGES = graph(lazy=True)
LOAD_TIME = graph(lazy=False)
LOWER = sorted(m for m in EDGES if layer_of(m) < 3)


def test_the_layers_cover_the_lower_modules():
    assert {"pylayer._core.tensor", "pylayer._core.graph", "pylayer._core.engine",
            "pylayer.ops.dispatch", "pylayer._kernels.loops"} <= set(LOWER)


@pytest.mark.parametrize("module", LOWER)
def test_a_lower_module_imports_nothing_above_its_layer(module):
    above = sorted(t for t in EDGES[module] if layer_of(t) > layer_of(module))
    assert not above, (f"{module} ({NAMES[layer_of(module)]}) imports {above}: install what "
                       f"it needs into it from above instead")


@pytest.mark.parametrize("module", LOWER)
def test_a_lazy_import_goes_only_from_one_ops_area_to_another(module):
    lazy = EDGES[module] - LOAD_TIME[module]
    wrong = sorted(t for t in lazy if layer_of(t) < 3 and not (is_area(module) and is_area(t)))
    assert not wrong, f"{module} imports {wrong} inside a function"


def test_no_load_time_import_cycle_among_kernels_core_and_ops():
    lower = set(LOWER)
    state, stack = {}, []

    def visit(module):
        state[module] = "open"
        stack.append(module)
        for target in sorted(LOAD_TIME[module] & lower):
            if target == module:
                continue
            if state.get(target) == "open":
                cycle = stack[stack.index(target):] + [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = "done"

    for module in LOWER:
        if module not in state:
            visit(module)


def test_the_reader_catches_lazy_and_compiled_imports(tmp_path):
    source = tmp_path / "probe.pyx"
    source.write_text("def f():\n    from pylayer import add\n"
                      "from pylayer.ops cimport dispatch\ncimport pylayer._core.tensor\n")
    assert imports_of(source) == {"pylayer", "pylayer.ops.dispatch", "pylayer._core.tensor"}
    assert imports_of(source, lazy=False) == {"pylayer.ops.dispatch", "pylayer._core.tensor"}
    lazy = tmp_path / "probe.py"
    lazy.write_text("def f():\n    import pylayer.nn\n    from pylayer.ops import dispatch, zz\n")
    assert imports_of(lazy) == {"pylayer.nn", "pylayer.ops.dispatch", "pylayer.ops"}
    assert imports_of(lazy, lazy=False) == set()
