"""pylayer.distributed across processes: the scripts beside this file run under
mpiexec (2 and 4 processes), each within a time limit. Run with ``-m mpi`` after
``pip install ".[distributed]"``; without mpi4py and mpiexec the tests skip, unless
PYLAYER_REQUIRE_MPI=1 (as in CI) makes that a failure."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.mpi

HERE = pathlib.Path(__file__).resolve().parent
LIMIT = 240


def mpiexec():
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        mpi4py = None
    beside = pathlib.Path(sys.executable).parent / "mpiexec"
    found = str(beside) if beside.exists() else shutil.which("mpiexec")
    if mpi4py is None or found is None:
        message = "mpi4py and mpiexec are needed: pip install \".[distributed]\""
        if os.environ.get("PYLAYER_REQUIRE_MPI") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return found


def child_environment():
    """This process's environment, with the source tree on PYTHONPATH only when the
    pylayer under test is imported from it (an installed pylayer is used as installed)."""
    environment = dict(os.environ)
    source = str(HERE.parents[1] / "src")
    import pylayer
    if pathlib.Path(pylayer.__file__).is_relative_to(source):
        environment["PYTHONPATH"] = os.pathsep.join(
            [source] + [p for p in environment.get("PYTHONPATH", "").split(os.pathsep) if p])
    return environment


def run(script, n, *arguments):
    return subprocess.run([mpiexec(), "-n", str(n), sys.executable, str(HERE / script),
                           *arguments], capture_output=True, text=True, timeout=LIMIT,
                          env=child_environment(), stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("n", [2, 4])
def test_every_collective_against_its_definition(n):
    done = run("mpi_collectives.py", n)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("all collectives hold") == n


@pytest.mark.parametrize("n", [2, 4])
def test_data_parallel_on_n_processes_equals_one_process_on_the_whole_batch(n):
    done = run("mpi_data_parallel.py", n)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("DataParallel equals one process") == n


@pytest.mark.parametrize("n", [2, 4])
def test_sync_batch_norm_over_processes_equals_batch_norm_on_the_whole_batch(n):
    done = run("mpi_sync_batch_norm.py", n)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("SyncBatchNorm equals BatchNorm") == n


@pytest.mark.parametrize("n", [2, 4])
def test_every_stream_form_against_its_definition(n):
    done = run("mpi_stream.py", n)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("every stream form holds") == n


def test_a_checkpoint_saved_by_two_processes_loads_in_each_and_in_one(tmp_path):
    done = run("mpi_checkpoint.py", 2, str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("the checkpoint holds") == 2
    import numpy as np
    import pylayer
    import pylayer.distributed as dist
    pylayer.seed(3)
    model = pylayer.nn.Sequential(pylayer.nn.Linear(3, 4), pylayer.nn.Linear(4, 2))
    fresh = pylayer.nn.Sequential(pylayer.nn.Linear(3, 4), pylayer.nn.Linear(4, 2))
    dist.load_state_dict({"model": fresh.state_dict()}, tmp_path)
    for a, b in zip(fresh.parameters(), model.parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("how", ["raise", "exit", "kill", "backward-raise", "backward-kill"])
def test_a_failing_process_ends_the_job_with_an_error_instead_of_a_hang(how):
    done = run("mpi_failure.py", 4, how)        # the time limit turns a hang into a failure
    assert done.returncode != 0
    assert "not reached" not in done.stdout
    if how.endswith("raise"):
        assert "rank 3 of 4 raised an exception" in done.stderr
        assert "rank failed on purpose" in done.stderr


def test_the_launcher_starts_the_processes_through_mpiexec(tmp_path):
    mpiexec()
    script = tmp_path / "job.py"
    script.write_text("import sys, pylayer, pylayer.distributed as dist\n"
                      "dist.init_parallel_env()\n"
                      "x = pylayer.to_tensor([float(dist.get_rank())])\n"
                      "dist.all_reduce(x)\n"
                      "line = f'rank {dist.get_rank()} of {dist.get_world_size()} sum "
                      "{x.item()} {sys.argv[1:]}\\n'\n"
                      "sys.stdout.write(line)\n")          # one write: the lines never mix
    environment = child_environment()
    done = subprocess.run([sys.executable, "-m", "pylayer.distributed.launch",
                           "--nproc_per_node", "2", "--timeout", str(LIMIT), str(script),
                           "--flag", "1"], capture_output=True, text=True, timeout=LIMIT,
                          env=environment, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    for rank in (0, 1):
        assert f"rank {rank} of 2 sum 1.0 ['--flag', '1']" in done.stdout


def test_the_launcher_runs_a_paddle_program_on_pylayer(tmp_path):
    mpiexec()
    script = tmp_path / "paddle_job.py"
    script.write_text("import sys, paddle, paddle.distributed as dist\n"
                      "dist.init_parallel_env()\n"
                      "x = paddle.to_tensor([1.0])\n"
                      "dist.all_reduce(x)\n"
                      "sys.stdout.write(f'{paddle.__name__} sum {x.item()}\\n')\n")
    environment = child_environment()
    done = subprocess.run([sys.executable, "-m", "pylayer.distributed.launch", "--as_paddle",
                           "--nproc_per_node", "2", str(script)], capture_output=True,
                          text=True, timeout=LIMIT, env=environment, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("pylayer sum 2.0") == 2


def spawned(value):
    import pylayer.distributed as dist
    import pylayer
    x = pylayer.to_tensor([value])
    dist.all_reduce(x)
    assert x.item() == value * dist.get_world_size()


def test_spawn_runs_the_function_in_each_process():
    mpiexec()
    sys.path.insert(0, str(HERE))
    from pylayer.distributed import spawn
    import test_mpi
    assert spawn(test_mpi.spawned, args=(2.0,), nprocs=2).join()
    context = spawn(test_mpi.spawned, args=("not a number",), nprocs=2, join=False)
    with pytest.raises(RuntimeError, match="spawn.*a process of the 2 failed"):
        context.join(timeout=LIMIT)
