"""Run under mpiexec by test_mpi.py with a directory: every process saves the same
state dict (replicated, as DataParallel's) with save_state_dict; the keys are spread
over the processes' files; every process loads it back. Exits 0 when all hold; the
test then loads the directory in one process."""
import os
import sys

import numpy as np

import pylayer
import pylayer.distributed as dist


def main():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    path = sys.argv[1]
    pylayer.seed(3)
    model = pylayer.nn.Sequential(pylayer.nn.Linear(3, 4), pylayer.nn.Linear(4, 2))
    dist.save_state_dict({"model": model.state_dict()}, path)
    files = sorted(os.listdir(path))
    assert files == ["0.metadata"] + [f"{r}_0.distcp" for r in range(n)], files
    pylayer.seed(100 + rank)
    fresh = pylayer.nn.Sequential(pylayer.nn.Linear(3, 4), pylayer.nn.Linear(4, 2))
    dist.load_state_dict({"model": fresh.state_dict()}, path)
    for a, b in zip(fresh.parameters(), model.parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    print(f"rank {rank} of {n}: the checkpoint holds", flush=True)


if __name__ == "__main__":
    main()
