"""Run under mpiexec by test_mpi.py: the last rank raises (``raise``) or dies without a
word (``exit``) while the others wait for it in a collective; the job must end with an
error, not hang."""
import os
import sys

import pylayer
import pylayer.distributed as dist


def main():
    dist.init_parallel_env()
    if dist.get_rank() == dist.get_world_size() - 1:
        if sys.argv[1] == "exit":
            os._exit(3)
        raise RuntimeError("rank failed on purpose")
    dist.all_reduce(pylayer.ones([3]))
    print("not reached", flush=True)


if __name__ == "__main__":
    main()
