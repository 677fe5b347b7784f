"""Build the compiled core. Everything else is declared in pyproject.toml."""
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

# One place for every Cython directive. PYLAYER_CYTHON_DEBUG=1 turns the
# safety checks back on for a debug build (bounds, wraparound, None checks).
DEBUG = os.environ.get("PYLAYER_CYTHON_DEBUG", "0") not in ("", "0")
DIRECTIVES = {
    "language_level": 3,
    # Index checks cost a branch per element in the kernels' inner loops.
    "boundscheck": DEBUG,
    # Negative indices stay Python-like; _kernels.pyx turns this off for its loops.
    "wraparound": True,
    # Arguments typed as cdef classes are checked for None explicitly.
    "nonecheck": DEBUG,
    # Float division by zero gives inf/nan as in numpy (also in a debug build).
    "cdivision": True,
    # Keep stack frames for Python-level tracebacks and profilers.
    "binding": True,
    "embedsignature": True,
    "initializedcheck": DEBUG,
}

# PYLAYER_SANITIZE=address builds with AddressSanitizer; Python must then run with
# the sanitizer's runtime preloaded (LD_PRELOAD=$(gcc -print-file-name=libasan.so),
# ASAN_OPTIONS=detect_leaks=0), as .ci/run does for the reliability tests.
SANITIZE = os.environ.get("PYLAYER_SANITIZE", "")
SANITIZE_FLAGS = [f"-fsanitize={SANITIZE}", "-fno-omit-frame-pointer"] if SANITIZE else []

# Compiled modules: the .pyx core. PyLayer and PyLayerContext (autograd/py_layer.py)
# stay plain Python; the per-call machinery they use is autograd/_apply.pyx.
MODULES = ["_buffers.pyx", "_temporaries.pyx", "ops/dispatch.pyx", "_tensor.pyx", "_kernels.pyx",
           "_graph.pyx", "_engine.pyx", "ops/_operands.pyx", "ops/_shape.pyx",
           "ops/_reduction.pyx", "ops/_elementwise.pyx", "ops/_linalg.pyx", "autograd/_apply.pyx",
           "kernels/conv.pyx", "kernels/pool.pyx", "kernels/norm.pyx"]

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
BUILD_DIR = "build/cython" + ("-debug" if DEBUG else "") + (f"-{SANITIZE}" if SANITIZE else "")

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, build_dir=BUILD_DIR))
