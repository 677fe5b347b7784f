"""``pylayer.distributed.stream`` (Paddle's ``paddle.distributed.stream``): the
collectives in the form Paddle gives for its communication streams.

They are the collectives of :mod:`pylayer.distributed`, with two differences of
form: a single tensor may stand where a list of one tensor per process goes (the
parts laid end to end along the first axis: ``all_gather`` into one tensor,
``reduce_scatter``, ``scatter`` and ``alltoall`` from one), and each takes
``use_calc_stream``, which may be True only with ``sync_op=True``. There are no
devices, hence no streams: MPI's communication is the same either way. A process
outside ``group`` does nothing and gets None (``all_gather`` raises, as Paddle's).

>>> import pylayer, pylayer.distributed as dist
>>> _ = dist.init_parallel_env()
>>> out = pylayer.zeros([2])
>>> _ = dist.stream.all_gather(out, pylayer.to_tensor([1.0, 2.0]))
>>> out.numpy()
array([1., 2.], dtype=float32)
"""
import numpy as np

from pylayer import Tensor, to_tensor
from pylayer.distributed import _collective as c
from pylayer.distributed._env import ReduceOp, _check_group

__all__ = ["all_gather", "all_reduce", "all_to_all", "alltoall", "alltoall_single",
           "broadcast", "gather", "recv", "reduce", "reduce_scatter", "scatter", "send"]


def _checked(what, group, sync_op, use_calc_stream):
    """Paddle's common rules; the group, or None where this process is not in it."""
    c._bool(sync_op, what, "sync_op")
    c._bool(use_calc_stream, what, "use_calc_stream")
    if use_calc_stream and not sync_op:
        raise RuntimeError(f"{what}: use_calc_stream can only be True with sync_op=True")
    group = _check_group(group, what)
    return group if group.is_member() else None


def _parts(tensor, n, what, argument):
    """``tensor`` cut along its first axis into ``n`` equal tensors."""
    array = tensor.numpy()
    if array.ndim == 0 or array.shape[0] % n:
        raise ValueError(f"{what}: argument '{argument}' has shape {tensor.shape}; its first "
                         f"dimension must be divisible by the group's {n} processes")
    return [to_tensor(part) for part in np.split(array, n)]


def _is_tensor(value):
    return isinstance(value, Tensor)


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True, use_calc_stream=False):
    """:func:`pylayer.distributed.all_reduce`, with ``use_calc_stream``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> x = pylayer.to_tensor([1.0, 2.0])
    >>> dist.stream.all_reduce(x, use_calc_stream=True).wait(), x.numpy()
    (True, array([1., 2.], dtype=float32))
    """
    group = _checked("stream.all_reduce()", group, sync_op, use_calc_stream)
    return None if group is None else c.all_reduce(tensor, op, group, sync_op)


def all_gather(tensor_or_tensor_list, tensor, group=None, sync_op=True,
               use_calc_stream=False):
    """Gather ``tensor`` from every process of ``group``, in rank order, into a list
    (as :func:`pylayer.distributed.all_gather`) or into one tensor, laid end to end
    along the first axis (in place; its first dimension is the group's size times
    ``tensor``'s, or the group's size for a 0-D ``tensor``).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([1, 2])
    >>> _ = dist.stream.all_gather(out, pylayer.to_tensor([[3.0, 4.0]]))
    >>> out.numpy()
    array([[3., 4.]], dtype=float32)
    """
    what = "stream.all_gather()"
    group = _checked(what, group, sync_op, use_calc_stream)
    if group is None:
        raise RuntimeError(f"{what}: this process is not a member of the group; every "
                           f"process that calls it must be")
    c._tensor(tensor, what, "tensor")
    if not _is_tensor(tensor_or_tensor_list):
        return c.all_gather(tensor_or_tensor_list, tensor, group, sync_op)
    out = tensor_or_tensor_list
    expected = [group.nranks * (tensor.shape[0] if tensor.ndim else 1)] + tensor.shape[1:]
    if out.shape != expected or out.dtype != tensor.dtype:
        raise ValueError(f"{what}: argument 'tensor_or_tensor_list' (shape {out.shape}, "
                         f"{out.dtype}) must have the shape {expected} and dtype "
                         f"{tensor.dtype} to hold every process's 'tensor'")
    gathered = []
    task = c.all_gather(gathered, tensor, group, sync_op)
    c._write(out, np.stack([t.numpy() for t in gathered]) if tensor.ndim == 0 else
             np.concatenate([t.numpy() for t in gathered]), what)
    return task


def alltoall(out_tensor_or_tensor_list, in_tensor_or_tensor_list, group=None, sync_op=True,
             use_calc_stream=False):
    """:func:`pylayer.distributed.alltoall` with lists, or
    :func:`pylayer.distributed.alltoall_single` (equal parts) with two tensors.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([2])
    >>> _ = dist.stream.alltoall(out, pylayer.to_tensor([5.0, 6.0]))
    >>> out.numpy()
    array([5., 6.], dtype=float32)
    """
    what = "stream.alltoall()"
    group = _checked(what, group, sync_op, use_calc_stream)
    if group is None:
        return None
    if out_tensor_or_tensor_list is None:
        raise RuntimeError(f"{what}: the output 'out_tensor_or_tensor_list' must be given")
    if in_tensor_or_tensor_list is None:
        raise RuntimeError(f"{what}: the input 'in_tensor_or_tensor_list' must be given")
    out_tensor, in_tensor = (_is_tensor(out_tensor_or_tensor_list),
                             _is_tensor(in_tensor_or_tensor_list))
    if out_tensor and in_tensor:
        return c.alltoall_single(out_tensor_or_tensor_list, in_tensor_or_tensor_list,
                                 group=group, sync_op=sync_op)
    if out_tensor or in_tensor:
        raise RuntimeError(f"{what}: the output and the input must both be tensors or both "
                           f"lists of tensors")
    if isinstance(in_tensor_or_tensor_list, list) and not in_tensor_or_tensor_list:
        raise RuntimeError(f"{what}: the input list 'in_tensor_or_tensor_list' is empty")
    return c.alltoall(out_tensor_or_tensor_list, in_tensor_or_tensor_list, group, sync_op)


all_to_all = alltoall


def alltoall_single(out_tensor, in_tensor, out_split_sizes=None, in_split_sizes=None,
                    group=None, sync_op=True, use_calc_stream=False):
    """:func:`pylayer.distributed.alltoall_single` (note Paddle's order here:
    ``out_split_sizes`` before ``in_split_sizes``), with ``use_calc_stream``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([3])
    >>> _ = dist.stream.alltoall_single(out, pylayer.to_tensor([1.0, 2.0, 3.0]), [3], [3])
    >>> out.numpy()
    array([1., 2., 3.], dtype=float32)
    """
    group = _checked("stream.alltoall_single()", group, sync_op, use_calc_stream)
    if group is None:
        return None
    return c.alltoall_single(out_tensor, in_tensor, in_split_sizes, out_split_sizes, group,
                             sync_op)


def broadcast(tensor, src, group=None, sync_op=True, use_calc_stream=False):
    """:func:`pylayer.distributed.broadcast`, with ``use_calc_stream``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> x = pylayer.to_tensor([7])
    >>> _ = dist.stream.broadcast(x, src=0)
    >>> x.numpy()
    array([7])
    """
    group = _checked("stream.broadcast()", group, sync_op, use_calc_stream)
    return None if group is None else c.broadcast(tensor, src, group, sync_op)


def reduce(tensor, dst=0, op=ReduceOp.SUM, group=None, sync_op=True, use_calc_stream=False):
    """:func:`pylayer.distributed.reduce`, with ``use_calc_stream``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> x = pylayer.to_tensor([2.0])
    >>> _ = dist.stream.reduce(x, dst=0, op=dist.ReduceOp.MAX)
    >>> x.numpy()
    array([2.], dtype=float32)
    """
    group = _checked("stream.reduce()", group, sync_op, use_calc_stream)
    return None if group is None else c.reduce(tensor, dst, op, group, sync_op)


def reduce_scatter(tensor, tensor_or_tensor_list, op=ReduceOp.SUM, group=None, sync_op=True,
                   use_calc_stream=False):
    """:func:`pylayer.distributed.reduce_scatter`, from a list of one tensor per process
    or from one tensor cut into as many equal parts along its first axis.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([2])
    >>> _ = dist.stream.reduce_scatter(out, pylayer.to_tensor([4.0, 5.0]))
    >>> out.numpy()
    array([4., 5.], dtype=float32)
    """
    what = "stream.reduce_scatter()"
    group = _checked(what, group, sync_op, use_calc_stream)
    if group is None:
        return None
    if _is_tensor(tensor_or_tensor_list):
        tensor_or_tensor_list = _parts(tensor_or_tensor_list, group.nranks, what,
                                       "tensor_or_tensor_list")
    return c.reduce_scatter(tensor, tensor_or_tensor_list, op, group, sync_op)


def scatter(tensor, tensor_or_tensor_list=None, src=0, group=None, sync_op=True,
            use_calc_stream=False):
    """:func:`pylayer.distributed.scatter`, from a list of one tensor per process or
    from one tensor cut into as many equal parts along its first axis (read on
    ``src`` only).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([2], dtype="int64")
    >>> _ = dist.stream.scatter(out, pylayer.to_tensor([8, 9]), src=0)
    >>> out.numpy()
    array([8, 9])
    """
    what = "stream.scatter()"
    group = _checked(what, group, sync_op, use_calc_stream)
    if group is None:
        return None
    if _is_tensor(tensor_or_tensor_list):
        tensor_or_tensor_list = _parts(tensor_or_tensor_list, group.nranks, what,
                                       "tensor_or_tensor_list")
    return c.scatter(tensor, tensor_or_tensor_list, src, group, sync_op)


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True, use_calc_stream=False):
    """:func:`pylayer.distributed.gather`, with ``use_calc_stream``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = []
    >>> _ = dist.stream.gather(pylayer.to_tensor([1, 2]), out, dst=0)
    >>> [t.numpy() for t in out]
    [array([1, 2])]
    """
    group = _checked("stream.gather()", group, sync_op, use_calc_stream)
    return None if group is None else c.gather(tensor, gather_list, dst, group, sync_op)


def send(tensor, dst=0, group=None, sync_op=True, use_calc_stream=False):
    """:func:`pylayer.distributed.send`, with ``use_calc_stream``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> group = dist.new_group([0])
    >>> _ = dist.stream.send(pylayer.to_tensor([1.5]), dst=0, group=group)
    >>> out = pylayer.zeros([1])
    >>> _ = dist.stream.recv(out, src=0, group=group)
    >>> out.item()
    1.5
    """
    group = _checked("stream.send()", group, sync_op, use_calc_stream)
    return None if group is None else c.send(tensor, dst, group, sync_op)


def recv(tensor, src=0, group=None, sync_op=True, use_calc_stream=False):
    """:func:`pylayer.distributed.recv`, with ``use_calc_stream``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> group = dist.new_group([0])
    >>> _ = dist.stream.send(pylayer.to_tensor([2]), dst=0, group=group)
    >>> out = pylayer.zeros([1], dtype="int64")
    >>> dist.stream.recv(out, src=0, group=group, sync_op=False).wait(), out.item()
    (True, 2)
    """
    group = _checked("stream.recv()", group, sync_op, use_calc_stream)
    return None if group is None else c.recv(tensor, src, group, sync_op)
