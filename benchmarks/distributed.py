"""The distributed benchmark of issue 35, run by hand:

    python benchmarks/distributed.py [--json PATH] [--quick]

with the ``distributed`` extra installed (mpi4py and MPICH's ``mpiexec``). It starts
itself under ``mpiexec`` (``--worker`` mode) and measures

* ``all_reduce`` of float32 buffers of 2^10 ... 2^24 elements on 2 processes,
  through ``pylayer.distributed.all_reduce`` (a tensor, in place) and through raw
  ``mpi4py`` (``Allreduce(IN_PLACE, ...)`` on the tensor's numpy array: the same memory),
  alternating; per size the median time of each and pylayer's speed relative to
  mpi4py (the median over the pairs of consecutive samples of mpi4py's time /
  pylayer's: 1.0 is as fast);
* the step time of ``DataParallel`` on the MLP and CNN workloads of
  ``benchmarks/workloads`` (workloads 4 and 8: 64x784-256-10 and
  [16,3,32,32] Conv-BN-ReLU-pool x2, Linear, SGD), at 1 and 2 processes, each
  process with the workload's whole batch (weak scaling: the 2-process step does
  twice the work of the 1-process one, in the same time if the all-reduce of the
  gradients costs nothing), and, in the same processes, the step of the model
  without DataParallel (what the processes cost each other on the machine, apart
  from the communication).

One thread per process (``OMP_NUM_THREADS`` and friends set to 1), otherwise the
default environment. Medians over the samples; every sample is timed between two
barriers, as the slowest process sees it. The results go to
``benchmarks/results/distributed.json`` (with the machine's load average before and
after; per size the number of samples and the fastest and slowest) and a table is
printed.
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
THREADS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
           "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


def _timed(comm, function, repeat):
    """Seconds per call of ``function``, as the slowest process sees them."""
    comm.Barrier()
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    local = (time.perf_counter() - start) / repeat
    return comm.allreduce(local, op=_mpi().MAX)


def _mpi():
    from mpi4py import MPI
    return MPI


def all_reduce_sizes(quick):
    import numpy as np
    import pylayer
    import pylayer.distributed as dist
    MPI = _mpi()
    comm = MPI.COMM_WORLD
    results = []
    for power in range(10, 25, 2 if quick else 1):
        n = 2 ** power
        tensor = pylayer.to_tensor(np.ones(n, np.float32))
        array = tensor.numpy()          # the same memory: placement cannot tell them apart
        repeat = max(4, min(200, int(2 ** 20 / n)))

        def raw():
            comm.Allreduce(MPI.IN_PLACE, array, op=MPI.SUM)

        def ours():
            dist.all_reduce(tensor)
        raw(), ours()
        samples = {"mpi4py": [], "pylayer": []}
        pair = (("mpi4py", raw), ("pylayer", ours))
        for round_ in range(5 if quick else 61 if n <= 2 ** 20 else 31):
            for name, function in pair if round_ % 2 else pair[::-1]:
                array[...] = 1
                samples[name].append(_timed(comm, function, repeat))
        mpi_s, ours_s = (statistics.median(samples[k]) for k in ("mpi4py", "pylayer"))
        spread = {k: [min(v), max(v)] for k, v in samples.items()}
        # A pylayer sample and an mpi4py one follow each other (in turns first): their
        # ratio is taken under the same load, and the median of the ratios is the figure
        # (a shared machine's load comes in bursts that a median of times alone does not
        # cancel).
        ratio = statistics.median(a / b for a, b in zip(samples["mpi4py"], samples["pylayer"]))
        results.append({"elements": n, "bytes": 4 * n, "mpi4py_s": mpi_s, "pylayer_s": ours_s,
                        "ratio": ratio, "pylayer_GBps": 4 * n / ours_s / 1e9,
                        "samples": len(samples["mpi4py"]), "min_max_s": spread})
    return results


def data_parallel_steps(quick):
    import numpy as np
    import pylayer
    import pylayer.distributed as dist
    sys.path.insert(0, str(HERE))
    from workloads import paddle_api
    comm = _mpi().COMM_WORLD
    sizes = {"mlp": (64, 784, 256, 10), "cnn": (16, 3, 32, 10)}
    results = {}
    for name in ("mlp", "cnn"):
        pylayer.seed(0)
        nn, F = pylayer.nn, pylayer.nn.functional
        if name == "mlp":
            batch, d_in, d_hidden, d_out = sizes["mlp"]
            model = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Linear(d_hidden, d_out))
            x = pylayer.to_tensor(paddle_api._data([batch, d_in], seed=dist.get_rank()))
            classes = d_out
        else:
            batch, channels, size, classes = sizes["cnn"]
            model = nn.Sequential(nn.Conv2D(channels, 16, 3, padding=1), nn.BatchNorm2D(16),
                                  nn.ReLU(), nn.MaxPool2D(2), nn.Conv2D(16, 32, 3, padding=1),
                                  nn.ReLU(), nn.MaxPool2D(2), nn.Flatten(),
                                  nn.Linear(32 * (size // 4) ** 2, classes))
            x = pylayer.to_tensor(paddle_api._data([batch, channels, size, size],
                                                   seed=dist.get_rank()))
        label = pylayer.to_tensor(np.random.default_rng(1).integers(0, classes, batch)
                                  .astype("int64"))
        parallel = dist.DataParallel(model)
        optimizer = pylayer.optimizer.SGD(0.01, parameters=parallel.parameters())

        def stepper(net):
            def step():
                loss = F.cross_entropy(net(x), label)
                loss.backward()
                optimizer.step()
                optimizer.clear_grad()
            return step
        steps = {"data_parallel": stepper(parallel), "alone": stepper(model)}
        for step in steps.values():
            for _ in range(3):
                step()
        samples = {key: [] for key in steps}
        for _ in range(3 if quick else 11):           # alternating, as for all_reduce
            for key, step in steps.items():
                samples[key].append(_timed(comm, step, 5 if quick else 10))
        results[name] = {"ms_per_step": 1e3 * statistics.median(samples["data_parallel"]),
                         "ms_per_step_alone": 1e3 * statistics.median(samples["alone"])}
    return results


def worker(quick):
    import pylayer.distributed as dist
    dist.init_parallel_env()
    out = {"processes": dist.get_world_size(), "data_parallel": data_parallel_steps(quick)}
    if dist.get_world_size() > 1:
        out["all_reduce"] = all_reduce_sizes(quick)
    if dist.get_rank() == 0:
        print("RESULT " + json.dumps(out), flush=True)


def run(n, quick):
    mpiexec = pathlib.Path(sys.executable).parent / "mpiexec"
    environment = dict(os.environ, **{name: "1" for name in THREADS})
    command = [str(mpiexec), "-n", str(n), sys.executable, __file__, "--worker"]
    if quick:
        command.append("--quick")
    done = subprocess.run(command, capture_output=True, text=True, env=environment,
                          timeout=3600)
    if done.returncode:
        raise SystemExit(f"the {n}-process run failed:\n{done.stdout}{done.stderr}")
    line = next(l for l in done.stdout.splitlines() if l.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def table(results):
    lines = ["all_reduce, float32, 2 processes (medians; ratio: median over consecutive "
             "pairs of mpi4py time / pylayer time)",
             "", "| elements | mpi4py | pylayer | pylayer GB/s | ratio |",
             "|---:|---:|---:|---:|---:|"]
    for r in results["two"]["all_reduce"]:
        lines.append(f"| 2^{r['elements'].bit_length() - 1} | {1e6 * r['mpi4py_s']:.1f} us | "
                     f"{1e6 * r['pylayer_s']:.1f} us | {r['pylayer_GBps']:.2f} | "
                     f"{r['ratio']:.2f} |")
    lines += ["", "DataParallel step (each process its whole batch), ms per step; 'alone': "
              "the same processes stepping the model without DataParallel", "",
              "| workload | 1 process | 2 processes, alone | 2 processes |", "|---|---:|---:|---:|"]
    for name in ("mlp", "cnn"):
        one, two = results["one"]["data_parallel"][name], results["two"]["data_parallel"][name]
        lines.append(f"| {name} | {one['ms_per_step']:.2f} | {two['ms_per_step_alone']:.2f} | "
                     f"{two['ms_per_step']:.2f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="fewer sizes and samples")
    parser.add_argument("--json", default=str(HERE / "results" / "distributed.json"))
    options = parser.parse_args()
    if options.worker:
        worker(options.quick)
        return
    load_before = os.getloadavg()
    results = {"one": run(1, options.quick), "two": run(2, options.quick)}
    results["load_average_before"] = load_before
    results["load_average_after"] = os.getloadavg()
    results["cpus"] = os.cpu_count()
    pathlib.Path(options.json).write_text(json.dumps(results, indent=1) + "\n")
    print(f"(written to {options.json})")
    print(table(results))
    print(f"\nload average before {load_before}, after {results['load_average_after']}")


if __name__ == "__main__":
    main()
