"""Nothing Python can reach of a compiled module crashes the process (issue 18).

Every compiled module's internal surface (every function, every type's
attributes and methods, private and dunder ones included, copying, pickling
and ``__setstate__``) is walked with hostile values by ``_surface_sweep.py``,
one child process per module, so that a crash fails the test instead of the
run. The hostile-input test (test_hostile_input.py) does the same for the
public API.
"""
import importlib.machinery
import pathlib
import pkgutil
import subprocess
import sys

import pytest

import pylayer

SWEEP = pathlib.Path(__file__).with_name("_surface_sweep.py")


def compiled_modules():
    """Every extension module of the installed package (what setup.py compiled)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = []
    for info in pkgutil.walk_packages(pylayer.__path__, "pylayer."):
        spec = importlib.util.find_spec(info.name)
        if spec is not None and spec.origin and spec.origin.endswith(suffixes):
            found.append(info.name)
    return sorted(found)


def test_the_sweep_sees_every_compiled_module():
    assert {"pylayer._core.tensor", "pylayer._core.graph", "pylayer._core.engine", "pylayer._kernels.buffers",
            "pylayer.autograd._apply", "pylayer.ops.dispatch"} <= set(compiled_modules())


@pytest.mark.slow
@pytest.mark.parametrize("module", compiled_modules())
def test_hostile_use_of_the_internal_surface_never_crashes(module):
    done = subprocess.run([sys.executable, str(SWEEP), module], capture_output=True,
                          text=True, timeout=1200)
    last = done.stderr.strip().splitlines()[-5:]
    assert done.returncode == 0, (f"{module}: the sweep ended with {done.returncode}; its last "
                                  f"steps:\n" + "\n".join(last))
    assert last and last[-1] == f"done {module}"
