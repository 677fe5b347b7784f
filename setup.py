"""Build the compiled core. Everything else is declared in pyproject.toml."""
import hashlib
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

# One place for every Cython directive. PYLAYER_CYTHON_DEBUG=1 builds for debugging
# (no optimisation, uninitialised-memoryview checks, and the kernels' span checks).
DEBUG = os.environ.get("PYLAYER_CYTHON_DEBUG", "0") not in ("", "0")
DIRECTIVES = {
    "language_level": 3,
    # What compiled code may trust (see docs/en/contributing/architecture.rst): every
    # index into a list, tuple or memoryview is checked against its size, and a None
    # where an extension type is expected is an error, not a crash. The kernels' inner
    # loops run over raw pointers, which these checks do not touch.
    "boundscheck": True,
    "nonecheck": True,
    # Negative indices stay Python-like; _kernels.pyx turns this off for its loops.
    "wraparound": True,
    # Float division by zero gives inf/nan as in numpy (also in a debug build).
    "cdivision": True,
    # Keep stack frames for Python-level tracebacks and profilers.
    "binding": True,
    "embedsignature": True,
    "initializedcheck": DEBUG,
    # No generated pickling, copying or __setstate_cython__: they would set fields
    # that compiled code trusts (readonly or private ones too) from Python.
    "auto_pickle": False,
}

# PYLAYER_SANITIZE=address builds with AddressSanitizer; Python must then run with
# the sanitizer's runtime preloaded (LD_PRELOAD=$(gcc -print-file-name=libasan.so),
# ASAN_OPTIONS=detect_leaks=0), as .ci/run does for the reliability tests.
SANITIZE = os.environ.get("PYLAYER_SANITIZE", "")
SANITIZE_FLAGS = [f"-fsanitize={SANITIZE}", "-fno-omit-frame-pointer"] if SANITIZE else []

# Compiled modules: the .pyx core. PyLayer and PyLayerContext (autograd/py_layer.py)
# stay plain Python; the per-call machinery they use is autograd/_apply.pyx.
MODULES = ["_buffers.pyx", "ops/dispatch.pyx", "_tensor.pyx", "_kernels.pyx",
           "_graph.pyx", "_engine.pyx", "ops/_operands.pyx", "ops/_shape.pyx",
           "ops/_reduction.pyx", "ops/_elementwise.pyx", "ops/_linalg.pyx", "autograd/_apply.pyx"]

extensions = [
    Extension("pylayer." + name.rsplit(".", 1)[0].replace("/", "."), [f"src/pylayer/{name}"],
              include_dirs=[numpy.get_include()],
              define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
                             ("PYLAYER_BOUNDS_CHECKED", "1" if DEBUG else "0")],
              extra_compile_args=(["-O0", "-g"] if DEBUG else ["-O3"]) + SANITIZE_FLAGS,
              extra_link_args=SANITIZE_FLAGS)
    for name in MODULES
]

# Each variant keeps its generated C (and so its object files) apart, so a debug
# or sanitizer build never reuses the optimised build's (or the reverse).
# The directives are part of the name too: cythonize regenerates C only for changed
# .pyx files, so a changed directive would otherwise leave stale C behind.
DIRECTIVES_KEY = hashlib.sha1(repr(sorted(DIRECTIVES.items())).encode()).hexdigest()[:8]
BUILD_DIR = ("build/cython" + ("-debug" if DEBUG else "") + (f"-{SANITIZE}" if SANITIZE else "")
             + f"-{DIRECTIVES_KEY}")

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, build_dir=BUILD_DIR))
