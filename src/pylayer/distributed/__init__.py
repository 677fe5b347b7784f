"""``pylayer.distributed`` (Paddle's ``paddle.distributed``): collectives, groups and
data-parallel training over processes, on MPI through ``mpi4py``.

Installed with the ``distributed`` extra (``pip install "pylayer-autograd[distributed]"``:
``mpi4py`` and MPICH, whose ``mpiexec`` it brings), a program started by ``mpiexec``
(or ``python -m pylayer.distributed.launch``) runs in as many processes as it was
given. Without the extra, or outside ``mpiexec``, the program is one process of a
world of size 1, with the same API.

>>> import pylayer.distributed as dist
>>> dist.get_world_size(), dist.get_rank()
(1, 0)
"""
from pylayer.distributed._env import (ReduceOp, Group, ParallelEnv, init_parallel_env,
                                     is_initialized, is_available, get_rank, get_world_size,
                                     new_group, get_group, get_backend, destroy_process_group,
                                     barrier)
from pylayer.distributed._collective import (all_reduce, all_gather, all_gather_object,
                                            broadcast, broadcast_object_list, reduce,
                                            reduce_scatter, scatter, scatter_object_list,
                                            gather, alltoall, alltoall_single, send, recv,
                                            isend, irecv, send_object_list, recv_object_list,
                                            wait, P2POp, batch_isend_irecv)
from pylayer.distributed._parallel import DataParallel, spawn
from pylayer.distributed import _env, _collective, _parallel

__all__ = _env.__all__ + _collective.__all__ + _parallel.__all__

# fleet: hybrid data/tensor parallel, recompute, sequence parallel
from pylayer.distributed.fleet.base.topology import ParallelMode
from pylayer.distributed.fleet.layers.mpu.mp_ops import split
from pylayer.distributed import fleet

__all__ += ["ParallelMode", "split", "fleet"]

# DataParallel buckets, SyncBatchNorm, the stream forms and the checkpoint (round 10, ddp)
from pylayer.distributed import stream  # noqa: E402
from pylayer.distributed._env import shutdown_process_group, restart_process_group  # noqa: E402
from pylayer.distributed.launch import launch  # noqa: E402  (Paddle's: the function)
from pylayer.distributed.checkpoint import save_state_dict, load_state_dict  # noqa: E402

__all__ += ["launch", "save_state_dict", "load_state_dict"]
