"""Where pylayer's time goes in a workload: cProfile, or a plain loop for py-spy.

    python benchmarks/profile_pylayer.py --only 1,2,4 [--top 25]
    py-spy record --native --format raw -o stacks.txt -- \\
        python benchmarks/profile_pylayer.py --only 2 --loop 20
    python benchmarks/stack_summary.py stacks.txt

cProfile sees Python functions and the ``def`` functions of the compiled
modules (they are called like built-ins), not ``cdef`` functions or the time
inside numpy's C code; ``py-spy --native`` sees both.
"""
import argparse
import cProfile
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import worker  # noqa: E402  (fixes the thread count before numpy loads)
from workloads import BY_KEY, SIZES  # noqa: E402


def prepared(key, case):
    module = worker.import_lib("pylayer")
    return worker.build("pylayer", module, key, case, "full")[0]


def iterations_for(bench, seconds):
    start = time.perf_counter()
    bench.step()
    once = time.perf_counter() - start
    return max(1, int(seconds / once))


def profile(key, case, seconds, top):
    bench = prepared(key, case)
    n = iterations_for(bench, seconds)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(n):
        bench.step()
    profiler.disable()
    stats = pstats.Stats(profiler)
    units = n * bench.units
    print(f"\n=== workload {key} ({BY_KEY[key].title}), case {case}: {n} iterations, "
          f"{units:g} units; times below are totals over the run ===")
    for order in ("cumulative", "tottime"):
        print(f"\n--- top {top} by {order} ---")
        stats.sort_stats(order).print_stats(top)


def loop(key, case, seconds):
    bench = prepared(key, case)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        bench.step()


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="1,2,4", help="workload numbers, e.g. 1,2,4")
    parser.add_argument("--case", default=None, help="case of a two-case workload")
    parser.add_argument("--seconds", type=float, default=3.0, help="time profiled per workload")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--loop", type=float, metavar="SECONDS",
                        help="no cProfile: just run the workload this long (for py-spy)")
    args = parser.parse_args()
    for key in args.only.split(","):
        case = args.case or BY_KEY[key].cases[0]
        if BY_KEY[key].impls.get("pylayer") is None or case not in BY_KEY[key].cases:
            sys.exit(f"workload {key} has no pylayer case {case}")
        if args.loop:
            loop(key, case, args.loop)
        else:
            profile(key, case, args.seconds, args.top)


if __name__ == "__main__":
    main()
