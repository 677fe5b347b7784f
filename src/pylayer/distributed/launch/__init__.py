"""``python -m pylayer.distributed.launch --nproc_per_node N script.py [arguments]``:
start N processes of ``script.py`` through ``mpiexec`` (MPICH's, from the
``distributed`` extra, or the first on PATH), which form the world that
:func:`pylayer.distributed.init_parallel_env` joins.

``--nnodes`` with ``--hostfile`` (or ``--ips host1,host2``) spreads them over machines
(``--nproc_per_node`` on each); ``--log_dir`` writes each process's output to
``workerlog.<rank>``; ``--timeout`` (seconds) ends the job when it runs longer;
``--as_paddle`` runs the program under ``python -m pylayer run`` (its ``import
paddle`` gives pylayer); ``--dry_run`` prints the command. The exit status is mpiexec's: when one process
fails, the job stops and the status is not 0.
"""
import argparse
import os
import shlex
import subprocess
import sys

from pylayer.distributed._parallel import _mpiexec

__all__ = ["launch"]


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m pylayer.distributed.launch",
        description="Start a pylayer.distributed program in several processes through "
                    "mpiexec.")
    parser.add_argument("--nproc_per_node", type=int, default=None,
                        help="processes per machine (default: the CPU cores)")
    parser.add_argument("--nnodes", type=int, default=1, help="number of machines")
    parser.add_argument("--hostfile", default=None,
                        help="mpiexec's host file (one machine a line)")
    parser.add_argument("--ips", default=None,
                        help="the machines, comma separated (instead of --hostfile)")
    parser.add_argument("--log_dir", default=None,
                        help="a directory for each process's output, workerlog.<rank>")
    parser.add_argument("--timeout", type=int, default=None,
                        help="end the job after this many seconds")
    parser.add_argument("--mpiexec", default=None, help="the mpiexec to use")
    parser.add_argument("--as_paddle", action="store_true",
                        help="run the program under python -m pylayer run, so that its "
                             "import paddle gives pylayer")
    parser.add_argument("--dry_run", action="store_true", help="print the command only")
    parser.add_argument("-m", dest="module", default=None,
                        help="run a module (as python -m) instead of a script")
    parser.add_argument("script", nargs="?", help="the program")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="its arguments")
    return parser


def command(argv):
    """The mpiexec command line that ``launch`` runs for ``argv`` (its arguments).

    >>> import importlib
    >>> launch = importlib.import_module("pylayer.distributed.launch")
    >>> launch.command(["--nproc_per_node", "2", "--mpiexec", "mpiexec", "train.py", "--lr", "1"])[:5]
    ['mpiexec', '-n', '2', '-genv', 'PADDLE_TRAINERS_NUM']
    """
    options = _parser().parse_args(argv)
    if options.module is None and options.script is None:
        raise SystemExit("launch: give a script (or -m module) to run")
    if options.module is not None and options.script is not None:
        options.arguments = [options.script] + options.arguments
    per_node = options.nproc_per_node or os.cpu_count() or 1
    if per_node < 1 or options.nnodes < 1:
        raise SystemExit("launch: --nproc_per_node and --nnodes must be positive")
    total = per_node * options.nnodes
    line = [options.mpiexec or _mpiexec(), "-n", str(total),
            "-genv", "PADDLE_TRAINERS_NUM", str(total)]
    if options.hostfile:
        line += ["-f", options.hostfile, "-ppn", str(per_node)]
    elif options.ips:
        line += ["-hosts", options.ips, "-ppn", str(per_node)]
    if options.log_dir:
        os.makedirs(options.log_dir, exist_ok=True)
        line += ["-outfile-pattern", os.path.join(options.log_dir, "workerlog.%r"),
                 "-errfile-pattern", os.path.join(options.log_dir, "workerlog.%r")]
    program = (["-m", options.module] if options.module else [options.script])
    runner = ["-m", "pylayer", "run"] if options.as_paddle else []
    return line + [sys.executable, "-u"] + runner + program + options.arguments


def _plan(argv):
    options = _parser().parse_args(argv)
    return command(argv), options


def main(argv=None):
    """Run the launcher with ``argv`` (``sys.argv[1:]`` by default); returns the exit status.

    >>> import importlib
    >>> callable(importlib.import_module("pylayer.distributed.launch").main)
    True
    """
    line, options = _plan(sys.argv[1:] if argv is None else argv)
    if options.dry_run:
        print(shlex.join(line))
        return 0
    try:
        return subprocess.run(line, timeout=options.timeout).returncode
    except subprocess.TimeoutExpired:
        print(f"launch: the job ran longer than {options.timeout} s and was ended",
              file=sys.stderr)
        return 124


def launch():
    """Paddle's ``paddle.distributed.launch()``: run the launcher with this program's
    command line (``sys.argv[1:]``, the options above then the script and its
    arguments), as ``python -m pylayer.distributed.launch`` does; when the job
    fails, exit with its status. (``pylayer.distributed.launch`` is this
    function, as in Paddle; the package stays reachable by ``python -m`` and
    ``importlib.import_module``.)

    >>> import pylayer.distributed as dist
    >>> dist.launch.__module__
    'pylayer.distributed.launch'
    """
    status = main()
    if status:
        sys.exit(status)

