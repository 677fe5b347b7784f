"""Run the performance workloads on pylayer and its peers, print medians and targets.

    python benchmarks/run.py [--quick] [--repeat N] [--only 1,2] [--json PATH]

Each measurement runs in its own process (``worker.py``), interleaved across
libraries and repeated. A peer runs in the interpreter given by
``--<peer>-python`` or ``PYLAYER_BENCH_<PEER>_PYTHON``, by default in this
one; a peer that does not import there is reported absent.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import report  # noqa: E402
import targets  # noqa: E402
from worker import MARK  # noqa: E402
from workloads import BY_KEY, LIBS, SIZES, WORKLOADS  # noqa: E402

WORKER = os.path.join(HERE, "worker.py")
DEFAULT_JSON = os.path.join(HERE, "results", "latest.json")
DEFAULT_PLOT = os.path.join(HERE, "results", "benchmarks.png")
TIMEOUT_S = 900
FORCED_BLAS_KERNEL = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="one process and two samples per measurement")
    parser.add_argument("--repeat", type=int, help="processes per measurement (default 3)")
    parser.add_argument("--samples", type=int, help="samples per process (default 3)")
    parser.add_argument("--min-time", type=float, default=0.2,
                        help="seconds per sample at least (default 0.2)")
    parser.add_argument("--only", help="workloads to run, e.g. 1 or 1,4")
    parser.add_argument("--peers", help="libraries to run, e.g. pylayer,torch (default all)")
    parser.add_argument("--size", default="full", choices=sorted(SIZES),
                        help="'tiny' only checks that everything runs")
    parser.add_argument("--json", default=DEFAULT_JSON, help="where to write the JSON result")
    parser.add_argument("--plot", default=DEFAULT_PLOT, help="where to write the PNG plot")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--update-docs", action="store_true",
                        help="also rewrite the docs' performance results (both languages) "
                             "from this run")
    for lib in LIBS:
        parser.add_argument(f"--{lib}-python", metavar="PATH",
                            help=f"interpreter for {lib} (env PYLAYER_BENCH_{lib.upper()}_PYTHON)")
    args = parser.parse_args(argv)
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.samples = args.samples or (2 if args.quick else 3)
    return args


def child_env():
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
        env[var] = "1"
    # Nothing else is tuned: every library runs in the process environment a user has
    # (no allocator or malloc settings).
    env["GLOG_minloglevel"] = "2"          # Paddle's C++ logging
    env["PYTHONWARNINGS"] = "ignore"
    return env


def call_worker(python, lib, worker_args):
    """Run the worker; return its JSON answer, or an error dict."""
    cmd = [python, WORKER, lib] + worker_args
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=child_env(),
                              cwd=ROOT, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"status": "error", "available": False, "reason": f"timed out after {TIMEOUT_S} s"}
    except OSError as exc:
        return {"status": "error", "available": False, "reason": f"cannot start {python}: {exc}"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    if proc.returncode < 0:
        why = f"worker killed by signal {-proc.returncode}"
    else:
        tail = [line for line in proc.stderr.splitlines() if line.strip()]
        why = tail[-1][:300] if tail else f"worker exited with code {proc.returncode}"
    return {"status": "error", "available": False, "reason": why}


def interpreter_for(args, lib):
    return (getattr(args, f"{lib}_python") or os.environ.get(f"PYLAYER_BENCH_{lib.upper()}_PYTHON")
            or sys.executable)


def find_peers(args, libs):
    peers = {}
    for lib in libs:
        python = interpreter_for(args, lib)
        info = call_worker(python, lib, ["--probe"])
        info.pop("status", None)
        info["python"] = python
        peers[lib] = info
        state = f"{info['version']}" if info["available"] else f"absent ({info['reason']})"
        log(f"{lib:9s} {state}  [{python}]")
    return peers


def schedule(workloads, libs, repeat):
    """Jobs (round, workload, case, lib): each round visits every measurement once,
    the libraries in an order rotated from round to round."""
    jobs = []
    for round_index in range(repeat):
        shift = round_index % len(libs)
        order = libs[shift:] + libs[:shift]
        for workload in workloads:
            for case in workload.cases:
                for lib in order:
                    if workload.runs(case, lib):
                        jobs.append((round_index, workload, case, lib))
    return jobs


def machine_summary():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    forced = {var: os.environ[var] for var in FORCED_BLAS_KERNEL if var in os.environ}
    summary = f"{model}, {os.cpu_count()} cores, load {load:.2f} at start"
    if forced:
        summary += ", " + ", ".join(f"{var}={value}" for var, value in forced.items())
    return {"cpu": model, "cores": os.cpu_count(), "platform": platform.platform(),
            "load_at_start": round(load, 2), "forced_blas_kernel": forced,
            "summary": summary}


def warn_if_blas_kernel_forced():
    """OpenBLAS picks its kernels for the CPU when numpy loads unless these variables
    say otherwise; a machine that sets them (for an older OpenBLAS) measures other
    kernels than a user of a current numpy gets."""
    forced = [f"{var}={os.environ[var]}" for var in FORCED_BLAS_KERNEL if var in os.environ]
    if forced:
        log(f"warning: {' '.join(forced)} is set: numpy's matrix products run the kernels it "
            f"names, not those OpenBLAS picks for this CPU; to measure what a user gets, run "
            f"`env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/run.py ...`")


def collect(jobs, peers, args):
    raw = {}
    for number, (round_index, workload, case, lib) in enumerate(jobs, 1):
        worker_args = [workload.key, case, "--size", args.size, "--min-time",
                       str(args.min_time), "--samples", str(args.samples)]
        answer = call_worker(peers[lib]["python"], lib, worker_args)
        raw.setdefault((workload.key, case, lib), []).append(answer)
        shown = answer.get("reason", "")
        if answer["status"] == "ok":
            shown = f"{statistics.median(answer['seconds_per_unit']) * workload.scale:.4g} " \
                    f"{workload.unit}"
        log(f"[{number}/{len(jobs)}] ({workload.key}) {case:7s} {lib:9s} {shown}")
    return raw


def summarise(answers, scale):
    """One entry per (workload, case, lib): the median over every sample of every process."""
    good = [a for a in answers if a["status"] == "ok"]
    if not good:
        first = answers[0]
        return {"status": first["status"], "reason": first.get("reason", "")}
    samples = [s * scale for a in good for s in a["seconds_per_unit"]]
    return {"status": "ok", "median": statistics.median(samples), "samples": samples,
            "process_medians": [statistics.median(a["seconds_per_unit"]) * scale for a in good],
            "inner_iterations": [a["inner_iterations"] for a in good],
            "first_loss": good[0].get("first_loss")}


def build_result(args, peers, workloads, raw):
    result = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
              "machine": machine_summary(),
              "settings": {"repeat": args.repeat, "samples": args.samples,
                           "min_time": args.min_time, "size": args.size},
              "peers": peers,
              "absent": sorted(lib for lib, info in peers.items() if not info["available"]),
              "workloads": {}}
    for workload in workloads:
        cases = {}
        for case in workload.cases:
            cases[case] = {lib: summarise(raw[(workload.key, case, lib)], workload.scale)
                           for lib in peers
                           if (workload.key, case, lib) in raw}
        result["workloads"][workload.key] = {"title": workload.title, "unit": workload.unit,
                                             "cases": cases}
    result["targets"] = targets.evaluate(result["workloads"])
    result["machine"]["load_at_end"] = round(os.getloadavg()[0], 2)
    return result


def log(message):
    print(message, file=sys.stderr, flush=True)


def main(argv=None):
    args = parse_args(argv)
    libs = list(LIBS) if not args.peers else [p.strip() for p in args.peers.split(",")]
    unknown = [lib for lib in libs if lib not in LIBS]
    if unknown:
        sys.exit(f"unknown peer(s) {unknown}; choose from {', '.join(LIBS)}")
    keys = [k.strip() for k in args.only.split(",")] if args.only else [w.key for w in WORKLOADS]
    if any(k not in BY_KEY for k in keys):
        sys.exit(f"--only takes workload numbers among {', '.join(BY_KEY)}")
    workloads = [BY_KEY[k] for k in keys]

    warn_if_blas_kernel_forced()
    peers = find_peers(args, libs)
    present = [lib for lib in libs if peers[lib]["available"]]
    raw = collect(schedule(workloads, present, args.repeat), peers, args)
    result = build_result(args, peers, workloads, raw)

    print(report.format_table(result))
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    print(f"JSON written to {args.json}")
    if not args.no_plot:
        print(report.plot(result, args.plot))
    if args.update_docs:
        update_docs(args.json)


def update_docs(json_path):
    """Regenerate docs/_shared/performance/<lang>/ (results and charts) from this run."""
    import importlib.util
    script = os.path.join(ROOT, "docs", "_shared", "performance", "update.py")
    spec = importlib.util.spec_from_file_location("performance_update", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["update.py", json_path])
    print("docs performance results updated")


if __name__ == "__main__":
    main()
