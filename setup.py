"""Build the compiled core. Everything else is declared in pyproject.toml."""
import hashlib
import os
import pathlib
import shutil
import sysconfig

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
MODULES = ["_kernels/buffers.pyx", "ops/dispatch.pyx", "_core/tensor.pyx", "_kernels/loops.pyx",
           "_core/graph.pyx", "_core/engine.pyx", "ops/_operands.pyx", "ops/arithmetic.pyx",
           "ops/activation.pyx", "autograd/_apply.pyx",
           "_kernels/conv.pyx", "_kernels/pool.pyx", "_kernels/norm.pyx",
           "_kernels/rnn.pyx"]

# Each variant keeps its generated C (and so its object files) apart, so a debug
# or sanitizer build never reuses the optimised build's (or the reverse).
# The directives are part of the name too: cythonize regenerates C only for changed
# .pyx files, so a changed directive would otherwise leave stale C behind.
DIRECTIVES_KEY = hashlib.sha1(repr(sorted(DIRECTIVES.items())).encode()).hexdigest()[:8]
BUILD_DIR = ("build/cython" + ("-debug" if DEBUG else "") + (f"-{SANITIZE}" if SANITIZE else "")
             + f"-{DIRECTIVES_KEY}")

INSTALL_ADVICE = """\
Install what is missing, then run pip again:
  Debian, Ubuntu:  sudo apt-get install gcc python3-dev
  Fedora, RHEL:    sudo dnf install gcc python3-devel
  Alpine:          apk add gcc musl-dev python3-dev
  macOS:           xcode-select --install
  Windows:         the Microsoft C++ Build Tools (Visual Studio's installer)
(or set CC to a C compiler you have)."""


def missing_build_tools(compiler, include_dir=None, which=shutil.which):
    """What compiling the core lacks, as advice to print, or None when nothing.

    ``compiler`` is the compiler's command line as setuptools will run it; the
    Python headers are looked for in ``include_dir`` (this Python's by default).
    """
    include_dir = pathlib.Path(include_dir or sysconfig.get_paths()["include"])
    missing = []
    if compiler and which(compiler[0]) is None:
        missing.append(f"a C compiler (`{compiler[0]}` is not on PATH)")
    if not (include_dir / "Python.h").is_file():
        missing.append(f"Python's C headers (no Python.h in {include_dir})")
    if not missing:
        return None
    return ("pylayer's core is C compiled from Cython, so installing it needs "
            + " and ".join(missing) + ". " + INSTALL_ADVICE)


def build():
    import numpy
    from Cython.Build import cythonize
    from setuptools import Extension, setup
    from setuptools.command.build_ext import build_ext

    # Both the C generation and the C compilation run one module per core (pip
    # install ., pip install -e . and build_ext --inplace alike).
    jobs = os.cpu_count() or 1

    class BuildExt(build_ext):
        def finalize_options(self):
            if self.parallel is None:
                self.parallel = jobs
            super().finalize_options()

        def build_extensions(self):
            # MSVC has no compiler_so; its own error already says what to install.
            problem = missing_build_tools(getattr(self.compiler, "compiler_so", None))
            if problem:
                raise SystemExit("error: " + problem)
            super().build_extensions()

    extensions = [
        Extension("pylayer." + name.rsplit(".", 1)[0].replace("/", "."), [f"src/pylayer/{name}"],
                  include_dirs=[numpy.get_include()],
                  define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
                                 ("PYLAYER_BOUNDS_CHECKED", "1" if DEBUG else "0")],
                  extra_compile_args=(["-O0", "-g"] if DEBUG else ["-O3"]) + SANITIZE_FLAGS,
                  extra_link_args=SANITIZE_FLAGS)
        for name in MODULES
    ]

    setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, build_dir=BUILD_DIR,
                                     nthreads=jobs),
          cmdclass={"build_ext": BuildExt})


# pip's build backend runs this file as __main__ too; importing it (as a test
# does) only defines the check.
if __name__ == "__main__":
    build()
