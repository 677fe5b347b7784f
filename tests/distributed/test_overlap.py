"""DataParallel's bucket reductions start during backward, not after its last node
(mpi_overlap.py under mpiexec; run with ``-m mpi``)."""
import pytest

from test_mpi import run

pytestmark = pytest.mark.mpi


def test_every_bucket_is_launched_before_the_oldest_node_runs():
    done = run("mpi_overlap.py", 2)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("reductions overlap backward") == 2
