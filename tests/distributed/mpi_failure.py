"""Run under mpiexec by test_mpi.py: the last rank raises (``raise``), dies without a
word (``exit``) or is killed (``kill``) while the others wait for it in a collective,
or does so in the middle of a DataParallel backward (``backward-raise``,
``backward-kill``: from a gradient hook, after the other processes have started
all-reducing the first buckets); the job must end with an error, not hang."""
import os
import signal
import sys

import pylayer
import pylayer.distributed as dist


def fail(how):
    if how.endswith("exit"):
        os._exit(3)
    if how.endswith("kill"):
        os.kill(os.getpid(), signal.SIGKILL)
    raise RuntimeError("rank failed on purpose")


def main():
    how = sys.argv[1]
    dist.init_parallel_env()
    last = dist.get_rank() == dist.get_world_size() - 1
    if not how.startswith("backward"):
        if last:
            fail(how)
        dist.all_reduce(pylayer.ones([3]))
    else:
        pylayer.seed(0)
        model = pylayer.nn.Sequential(pylayer.nn.Linear(4, 4), pylayer.nn.Linear(4, 4))
        parallel = dist.DataParallel(model, comm_buffer_size=1e-5, last_comm_buffer_size=1e-5)
        if last:
            model[0].weight.register_hook(lambda g: fail(how))
        parallel(pylayer.ones([2, 4])).sum().backward()
    print("not reached", flush=True)


if __name__ == "__main__":
    main()
