"""One measurement in its own process: ``worker.py LIB WORKLOAD CASE [options]``.

Runs in the peer's interpreter and imports only the library under test, numpy
and the workloads package. The result is one JSON line prefixed by ``MARK`` on
stdout, because libraries may print their own lines there.
"""
import argparse
import importlib
import json
import os
import sys
import traceback

MARK = "PYLAYER_BENCH_RESULT "

# The thread count must be fixed before numpy or a peer starts its pools.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
             "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import timing  # noqa: E402
from workloads import BY_KEY, LIB_MODULES, SIZES  # noqa: E402

# Exceptions meaning "this library does not have that feature yet".
MISSING_FEATURE = (AttributeError, NotImplementedError, ImportError)


def import_lib(lib):
    module = importlib.import_module(LIB_MODULES[lib])
    if lib == "torch":
        module.set_num_threads(1)
    if lib == "paddle":
        module.set_device("cpu")
    return module


def lib_version(lib, module):
    version = getattr(module, "__version__", None)
    if version is None:
        from importlib.metadata import version as dist_version
        version = dist_version(LIB_MODULES[lib])
    return str(version)


def build(lib, module, workload_key, case, size):
    workload = BY_KEY[workload_key]
    module_name, function_name = workload.impls[lib].split(":")
    impl = importlib.import_module("workloads." + module_name)
    bench = getattr(impl, function_name)(module, case, SIZES[size])
    # One untimed iteration: warms caches and tells whether the workload runs at all.
    if bench.timed_step is not None:
        bench.timed_step()
        return bench, None
    return bench, scalar(bench.step())


def scalar(value):
    """The float of a one-element result (a step's loss), else None."""
    try:
        return float(value.item() if hasattr(value, "item") else value)
    except Exception:   # a tensor of several elements, a tuple...
        return None


def one_line_error(exc):
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


def measure(args):
    module = import_lib(args.lib)
    try:
        bench, first_loss = build(args.lib, module, args.workload, args.case, args.size)
    except MISSING_FEATURE as exc:
        return {"status": "unavailable", "reason": "not available yet: " + one_line_error(exc)}
    except Exception as exc:  # a bug in the library under test, not in the runner
        traceback.print_exc()
        return {"status": "error", "reason": one_line_error(exc)}
    per_unit, inner = timing.measure(bench, args.min_time, args.samples)
    return {"status": "ok", "seconds_per_unit": per_unit, "inner_iterations": inner,
            "first_loss": first_loss}


def probe(lib):
    try:
        module = import_lib(lib)
    except Exception as exc:
        return {"available": False, "reason": one_line_error(exc)}
    import numpy
    return {"available": True, "version": lib_version(lib, module),
            "numpy": numpy.__version__, "python": sys.version.split()[0]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("lib", choices=sorted(LIB_MODULES))
    parser.add_argument("workload", nargs="?")
    parser.add_argument("case", nargs="?")
    parser.add_argument("--probe", action="store_true", help="only report whether LIB imports")
    parser.add_argument("--size", default="full", choices=sorted(SIZES))
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--samples", type=int, default=3)
    args = parser.parse_args(argv)
    result = probe(args.lib) if args.probe else measure(args)
    sys.stdout.flush()
    print(MARK + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
