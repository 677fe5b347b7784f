"""Timing one prepared benchmark: calibrate the inner loop, then take samples."""
import gc
import math
import time


def _runner(bench):
    """A function ``run(n)`` that runs ``n`` iterations and returns their timed seconds."""
    if bench.timed_step is not None:
        def run(n):
            return sum(bench.timed_step() for _ in range(n))
        return run

    step = bench.step

    def run(n):
        start = time.perf_counter()
        for _ in range(n):
            step()
        return time.perf_counter() - start
    return run


def calibrate(run, min_time):
    """The smallest doubling-ish iteration count whose run takes at least ``min_time``."""
    n = 1
    while True:
        elapsed = run(n)
        if elapsed >= min_time:
            return n
        if elapsed <= 0:
            n *= 10
        else:
            n = max(n * 2, math.ceil(n * 1.2 * min_time / elapsed))


def measure(bench, min_time, samples):
    """Seconds per unit of work, one value per sample (each sample >= ``min_time``)."""
    run = _runner(bench)
    n = calibrate(run, min_time)
    per_unit = []
    for _ in range(samples):
        gc.collect()
        per_unit.append(run(n) / (n * bench.units))
    return per_unit, n
