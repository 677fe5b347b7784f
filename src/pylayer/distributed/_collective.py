"""The collectives and point-to-point operations, on MPI (``mpi4py``).

A tensor's memory is handed to MPI as it is where it is contiguous and writable
(the data moves as bytes, so every dtype goes: bfloat16, float16 and complex
included); a reduction of bfloat16 or float16 is computed in float32 and one of
bool in uint8 (MPI has no such sums). What a collective writes into a tensor is
an in-place change: the version the tensor shares with its views is bumped.
In a world of one process each operation does what it does for one process.
"""
import pickle

import numpy as np

from pylayer import Tensor, to_tensor
from pylayer._core.tensor import write_through
from pylayer.distributed import _env as env
from pylayer.distributed._env import ReduceOp, _check_group

__all__ = ["all_reduce", "all_gather", "all_gather_object", "broadcast",
           "broadcast_object_list", "reduce", "reduce_scatter", "scatter",
           "scatter_object_list", "gather", "alltoall", "alltoall_single", "send", "recv",
           "isend", "irecv", "send_object_list", "recv_object_list", "wait", "P2POp",
           "batch_isend_irecv"]


class Task:
    """What a collective returns: ``wait()`` blocks until it is done (for
    ``sync_op=False`` and ``isend``/``irecv``), ``is_completed()`` tells whether it is.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> task = dist.all_reduce(pylayer.ones([2]), sync_op=False)
    >>> task.wait(), task.is_completed()
    (True, True)
    """

    def __init__(self, requests=(), finish=None):
        self._requests = list(requests)
        self._finish = finish
        self._done = not self._requests and finish is None

    def wait(self, timeout=None):
        if not self._done:
            if self._requests:
                env._state.MPI.Request.Waitall(self._requests)
            if self._finish is not None:
                self._finish()
            self._done = True
        return True

    def is_completed(self):
        if not self._done and self._requests and env._state.MPI.Request.Testall(self._requests):
            self.wait()
        return self._done

    def synchronize(self):
        self.wait()


_COMPLETED = Task()     # what a blocking operation that has finished returns


def _done(sync_op, requests=(), finish=None):
    task = Task(requests, finish)
    if sync_op:
        task.wait()
    return task


def _tensor(value, what, argument):
    if not isinstance(value, Tensor):
        raise TypeError(f"{what}: argument '{argument}' must be a Tensor, got "
                        f"{type(value).__name__}")
    return value


def _tensor_list(value, what, argument, may_be_none=False):
    if value is None and may_be_none:
        return None
    if not isinstance(value, list) or not all(isinstance(t, Tensor) for t in value):
        raise TypeError(f"{what}: argument '{argument}' must be a list of Tensors, got "
                        f"{type(value).__name__}")
    return value


def _list(value, what, argument):
    if not isinstance(value, list):
        raise TypeError(f"{what}: argument '{argument}' must be a list, got "
                        f"{type(value).__name__}")
    return value


def _bool(value, what, argument):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what}: argument '{argument}' must be a bool, got "
                        f"{type(value).__name__}")
    return bool(value)


def _op(op, what):
    if isinstance(op, bool) or not isinstance(op, (int, np.integer)) or op not in env._OP_NAMES:
        raise ValueError(f"{what}: argument 'op' must be a ReduceOp (SUM, MAX, MIN, PROD, "
                         f"AVG), got {op!r}")
    return int(op)


def _peer(group, rank, what, argument):
    """The rank in ``group`` of global rank ``rank``."""
    if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)):
        raise TypeError(f"{what}: argument '{argument}' must be an int (a global rank), got "
                        f"{type(rank).__name__}")
    local = group.get_group_rank(int(rank))
    if local < 0:
        raise ValueError(f"{what}: argument '{argument}' is rank {rank}, which is not in the "
                         f"group (ranks {group.ranks})")
    return local


def _member(group, what):
    group = _check_group(group, what)
    if not group.is_member():
        return None
    return group


def _write(tensor, array, what):
    """Store ``array`` in ``tensor``'s memory as an in-place change (the version bumped)."""
    target = tensor.numpy()
    if not target.flags.writeable:
        raise ValueError(f"{what}: the tensor's memory cannot be written (a view made by "
                         f"expand or broadcast_to); pass a copy (x.clone())")
    if array is not target:
        np.copyto(target, np.asarray(array).reshape(target.shape), casting="unsafe")
    tensor._set_array_inplace(target)


def _writable_memory(tensor):
    """The tensor's own memory where MPI can write into it, else None."""
    array = tensor.numpy()
    if array.flags.c_contiguous and array.flags.writeable:
        return array
    return None


def _bytes(array):
    """A contiguous array's bytes, for MPI."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


# Reductions: dtypes MPI cannot reduce go through a wider one.
def _reduce_dtype(dtype):
    kind = dtype.kind
    if kind == "b":
        return np.dtype(np.uint8)
    if dtype.itemsize == 2 and kind not in "iu":   # float16, bfloat16
        return np.dtype(np.float32)
    return None


def _mpi_op(op, dtype):
    return env._mpi_operations(env._state.MPI)[dtype.kind == "b"][op]


def _check_reducible(array, op, what):
    if array.dtype.kind == "c" and op in (ReduceOp.MAX, ReduceOp.MIN):
        raise TypeError(f"{what}: complex tensors have no {env._OP_NAMES[op]} reduction")


def _average(array, n):
    if array.dtype.kind in "iub":
        return array // n if array.dtype.kind != "b" else array
    return array / n


def _reduction_buffer(tensor):
    """(buffer MPI reduces, whether it is the tensor's memory)."""
    array = tensor.numpy()
    wider = _reduce_dtype(array.dtype)
    if wider is not None:
        return array.astype(wider), False
    memory = _writable_memory(tensor)
    if memory is not None:
        return memory, True
    return np.ascontiguousarray(array).copy(), False


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor`` over the processes of ``group`` with ``op`` (sum by default),
    in place: every process ends with the result. ``sync_op=False`` returns a task to
    ``wait()`` on (MPI's non-blocking all-reduce).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> x = pylayer.to_tensor([1.0, 2.0])
    >>> _ = dist.all_reduce(x)
    >>> x.numpy()          # one process: the sum of one tensor
    array([1., 2.], dtype=float32)
    """
    world = env._state.world
    if group is None and sync_op is True and type(op) is int and 0 <= op <= 3 and \
            world is not None:
        # The common case, checked at the least cost (a small all-reduce is dominated by
        # it): a real or integer tensor of a live world, reduced in its own memory.
        cheap = world.cheap_all_reduce
        if cheap is not None and write_through(tensor, cheap[0], cheap[1], cheap[2][op]):
            return _COMPLETED
    what = "all_reduce()"
    _tensor(tensor, what, "tensor")
    op = _op(op, what)
    sync_op = _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    _check_reducible(tensor.numpy(), op, what)
    if group.comm is None or group.nranks == 1:
        return _done(sync_op, finish=lambda: _write(tensor, tensor.numpy(), what))
    buffer, own = _reduction_buffer(tensor)
    MPI = env._state.MPI
    mpi_op = _mpi_op(op, buffer.dtype)
    def finish():
        result = _average(buffer, group.nranks) if op == ReduceOp.AVG else buffer
        _write(tensor, result if not own or result is not buffer else tensor.numpy(), what)
    if sync_op:
        group.comm.Allreduce(MPI.IN_PLACE, buffer, op=mpi_op)
        return _done(True, finish=finish)
    return _done(False, [group.comm.Iallreduce(MPI.IN_PLACE, buffer, op=mpi_op)], finish)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor`` over the processes of ``group`` with ``op`` into the tensor of
    global rank ``dst`` (in place there; the others keep theirs).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> x = pylayer.to_tensor([3, 4])
    >>> _ = dist.reduce(x, dst=0)
    >>> x.numpy()
    array([3, 4])
    """
    what = "reduce()"
    _tensor(tensor, what, "tensor")
    op = _op(op, what)
    sync_op = _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    root = _peer(group, dst, what, "dst")
    _check_reducible(tensor.numpy(), op, what)
    if group.comm is None or group.nranks == 1:
        return _done(sync_op, finish=lambda: _write(tensor, tensor.numpy(), what))
    buffer, own = _reduction_buffer(tensor)
    MPI = env._state.MPI
    mine = group.rank == root
    if mine:
        group.comm.Reduce(MPI.IN_PLACE, buffer, op=_mpi_op(op, buffer.dtype), root=root)
        result = _average(buffer, group.nranks) if op == ReduceOp.AVG else buffer
        _write(tensor, tensor.numpy() if own and result is buffer else result, what)
    else:
        group.comm.Reduce(buffer, None, op=_mpi_op(op, buffer.dtype), root=root)
    return Task()


def broadcast(tensor, src, group=None, sync_op=True):
    """Copy the tensor of global rank ``src`` into ``tensor`` on every process of
    ``group`` (in place).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> x = pylayer.to_tensor([[1, 2]])
    >>> _ = dist.broadcast(x, src=0)
    >>> x.numpy()
    array([[1, 2]])
    """
    what = "broadcast()"
    _tensor(tensor, what, "tensor")
    sync_op = _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    root = _peer(group, src, what, "src")
    if group.comm is None or group.nranks == 1:
        return Task()
    memory = _writable_memory(tensor)
    buffer = memory if memory is not None else np.ascontiguousarray(tensor.numpy()).copy()
    data = _bytes(buffer) if memory is None else memory.reshape(-1).view(np.uint8)

    def finish():
        if group.rank != root:
            _write(tensor, tensor.numpy() if memory is not None else buffer, what)
    if sync_op:
        group.comm.Bcast(data, root=root)
        return _done(True, finish=finish)
    return _done(False, [group.comm.Ibcast(data, root=root)], finish)


def _same_layout(tensors, model, what, argument):
    for t in tensors:
        if t.shape != model.shape or t.dtype != model.dtype:
            raise ValueError(f"{what}: argument '{argument}' holds a tensor of shape "
                             f"{t.shape} and dtype {t.dtype}; every one must have the shape "
                             f"{model.shape} and dtype {model.dtype} of 'tensor'")


def _fill(tensor_list, gathered, model):
    """Put the rows of ``gathered`` in ``tensor_list``: into its tensors (in place), or
    as new tensors where it is empty."""
    if tensor_list:
        for t, row in zip(tensor_list, gathered):
            _write(t, row, "all_gather()")
    else:
        tensor_list.extend(to_tensor(row, dtype=model.dtype) for row in gathered)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    """Gather ``tensor`` from every process of ``group`` into ``tensor_list``, in rank
    order: an empty list is filled with new tensors, a list of ``nranks`` tensors is
    written into.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = []
    >>> _ = dist.all_gather(out, pylayer.to_tensor([1.0, 2.0]))
    >>> [t.numpy() for t in out]
    [array([1., 2.], dtype=float32)]
    """
    what = "all_gather()"
    _tensor_list(tensor_list, what, "tensor_list")
    _tensor(tensor, what, "tensor")
    _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    if tensor_list and len(tensor_list) != group.nranks:
        raise ValueError(f"{what}: argument 'tensor_list' has {len(tensor_list)} tensors; "
                         f"it must be empty or have one per process of the group "
                         f"({group.nranks})")
    _same_layout(tensor_list, tensor, what, "tensor_list")
    array = tensor.numpy()
    gathered = np.empty((group.nranks,) + array.shape, array.dtype)
    if group.comm is None:
        gathered[0] = array
    else:
        group.comm.Allgather(_bytes(array), gathered.reshape(-1).view(np.uint8))
    _fill(tensor_list, gathered, tensor)
    return Task()


def all_gather_object(object_list, obj, group=None):
    """Gather the picklable ``obj`` of every process of ``group``, in rank order, and
    append them to ``object_list`` (as Paddle's, which is given an empty list).

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = []
    >>> dist.all_gather_object(out, {"step": 3})
    >>> out
    [{'step': 3}]
    """
    what = "all_gather_object()"
    _list(object_list, what, "object_list")
    group = _member(group, what)
    if group is None:
        return
    if group.comm is None:
        object_list.append(pickle.loads(pickle.dumps(obj)))
    else:
        object_list.extend(group.comm.allgather(obj))


def broadcast_object_list(object_list, src, group=None):
    """Replace the contents of ``object_list`` on every process of ``group`` with those
    of global rank ``src``'s list (picklable objects).

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> objects = ["a", 1]
    >>> dist.broadcast_object_list(objects, src=0)
    >>> objects
    ['a', 1]
    """
    what = "broadcast_object_list()"
    _list(object_list, what, "object_list")
    group = _member(group, what)
    if group is None:
        return
    root = _peer(group, src, what, "src")
    if group.comm is not None:
        object_list[:] = group.comm.bcast(object_list if group.rank == root else None, root=root)


def reduce_scatter(tensor, tensor_list, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor_list`` (one tensor per process of ``group``) over the processes
    with ``op``; process i receives the reduction of the i-th tensors in ``tensor``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([2])
    >>> _ = dist.reduce_scatter(out, [pylayer.to_tensor([1.0, 5.0])])
    >>> out.numpy()
    array([1., 5.], dtype=float32)
    """
    what = "reduce_scatter()"
    _tensor(tensor, what, "tensor")
    _tensor_list(tensor_list, what, "tensor_list")
    op = _op(op, what)
    _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    if len(tensor_list) != group.nranks:
        raise ValueError(f"{what}: argument 'tensor_list' has {len(tensor_list)} tensors; it "
                         f"must have one per process of the group ({group.nranks})")
    _same_layout(tensor_list, tensor, what, "tensor_list")
    _check_reducible(tensor.numpy(), op, what)
    stacked = np.stack([t.numpy() for t in tensor_list])
    wider = _reduce_dtype(stacked.dtype)
    if wider is not None:
        stacked = stacked.astype(wider)
    if group.comm is None:
        result = stacked[0]
    else:
        result = np.empty(stacked.shape[1:], stacked.dtype)
        group.comm.Reduce_scatter_block(stacked, result, op=_mpi_op(op, stacked.dtype))
    if op == ReduceOp.AVG:
        result = _average(result, group.nranks)
    _write(tensor, result, what)
    return Task()


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    """Global rank ``src`` sends the i-th tensor of its ``tensor_list`` to process i of
    ``group``, which receives it in ``tensor`` (in place); ``tensor_list`` is read on
    ``src`` only.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([2], dtype="int64")
    >>> _ = dist.scatter(out, [pylayer.to_tensor([7, 8])], src=0)
    >>> out.numpy()
    array([7, 8])
    """
    what = "scatter()"
    _tensor(tensor, what, "tensor")
    _tensor_list(tensor_list, what, "tensor_list", may_be_none=True)
    _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    root = _peer(group, src, what, "src")
    source = None
    if group.rank == root:
        if tensor_list is None or len(tensor_list) != group.nranks:
            raise ValueError(f"{what}: argument 'tensor_list' must hold one tensor per process "
                             f"of the group ({group.nranks}) on the source rank")
        _same_layout(tensor_list, tensor, what, "tensor_list")
        source = np.stack([t.numpy() for t in tensor_list])
    if group.comm is None:
        _write(tensor, source[0], what)
        return Task()
    received = np.empty(tensor.shape, tensor.numpy().dtype)
    group.comm.Scatter(None if source is None else source.reshape(-1).view(np.uint8),
                       received.reshape(-1).view(np.uint8), root=root)
    _write(tensor, received, what)
    return Task()


def scatter_object_list(out_object_list, in_object_list=None, src=0, group=None):
    """Global rank ``src`` sends the i-th object of ``in_object_list`` to process i of
    ``group``, where it becomes the contents of ``out_object_list``.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = []
    >>> dist.scatter_object_list(out, [{"part": 0}], src=0)
    >>> out
    [{'part': 0}]
    """
    what = "scatter_object_list()"
    _list(out_object_list, what, "out_object_list")
    group = _member(group, what)
    if group is None:
        return
    root = _peer(group, src, what, "src")
    if group.rank == root and (not isinstance(in_object_list, list)
                               or len(in_object_list) != group.nranks):
        raise ValueError(f"{what}: argument 'in_object_list' must be a list of one object per "
                         f"process of the group ({group.nranks}) on the source rank")
    if group.comm is None:
        out_object_list[:] = [in_object_list[0]]
    else:
        out_object_list[:] = [group.comm.scatter(in_object_list if group.rank == root
                                                 else None, root=root)]


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True):
    """Gather ``tensor`` of every process of ``group`` on global rank ``dst``, into its
    ``gather_list`` (filled like :func:`all_gather`'s list; ignored elsewhere).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = []
    >>> _ = dist.gather(pylayer.to_tensor([1, 2]), out, dst=0)
    >>> [t.numpy() for t in out]
    [array([1, 2])]
    """
    what = "gather()"
    _tensor(tensor, what, "tensor")
    _tensor_list(gather_list, what, "gather_list", may_be_none=True)
    _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    root = _peer(group, dst, what, "dst")
    mine = group.rank == root
    if mine:
        if gather_list is None:
            raise ValueError(f"{what}: argument 'gather_list' must be a list on the "
                             f"destination rank")
        if gather_list and len(gather_list) != group.nranks:
            raise ValueError(f"{what}: argument 'gather_list' has {len(gather_list)} tensors; "
                             f"it must be empty or have one per process ({group.nranks})")
        _same_layout(gather_list, tensor, what, "gather_list")
    array = tensor.numpy()
    gathered = np.empty((group.nranks,) + array.shape, array.dtype) if mine else None
    if group.comm is None:
        gathered[0] = array
    else:
        group.comm.Gather(_bytes(array), None if gathered is None
                          else gathered.reshape(-1).view(np.uint8), root=root)
    if mine:
        _fill(gather_list, gathered, tensor)
    return Task()


def alltoall(out_tensor_list, in_tensor_list, group=None, sync_op=True):
    """Process i sends the j-th tensor of its ``in_tensor_list`` to process j of
    ``group``, which receives it as the i-th of its ``out_tensor_list`` (filled like
    :func:`all_gather`'s list).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = []
    >>> _ = dist.alltoall(out, [pylayer.to_tensor([1.0])])
    >>> [t.numpy() for t in out]
    [array([1.], dtype=float32)]
    """
    what = "alltoall()"
    _tensor_list(out_tensor_list, what, "out_tensor_list")
    _tensor_list(in_tensor_list, what, "in_tensor_list")
    _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    if len(in_tensor_list) != group.nranks:
        raise ValueError(f"{what}: argument 'in_tensor_list' has {len(in_tensor_list)} "
                         f"tensors; it must have one per process of the group "
                         f"({group.nranks})")
    model = in_tensor_list[0]
    _same_layout(in_tensor_list, model, what, "in_tensor_list")
    if out_tensor_list and len(out_tensor_list) != group.nranks:
        raise ValueError(f"{what}: argument 'out_tensor_list' has {len(out_tensor_list)} "
                         f"tensors; it must be empty or have one per process ({group.nranks})")
    _same_layout(out_tensor_list, model, what, "out_tensor_list")
    source = np.stack([t.numpy() for t in in_tensor_list])
    if group.comm is None:
        received = source
    else:
        received = np.empty_like(source)
        group.comm.Alltoall(source.reshape(-1).view(np.uint8),
                            received.reshape(-1).view(np.uint8))
    _fill(out_tensor_list, received, model)
    return Task()


def _splits(sizes, rows, n, what, argument):
    if sizes is None or len(sizes) == 0:
        if rows % n:
            raise ValueError(f"{what}: the first dimension ({rows}) is not divisible by the "
                             f"group's {n} processes; give '{argument}'")
        return [rows // n] * n
    sizes = [int(s) for s in sizes]
    if len(sizes) != n or sum(sizes) != rows or min(sizes) < 0:
        raise ValueError(f"{what}: argument '{argument}' must have {n} non-negative sizes "
                         f"adding up to the first dimension {rows}, got {sizes}")
    return sizes


def alltoall_single(out_tensor, in_tensor, in_split_sizes=None, out_split_sizes=None,
                    group=None, sync_op=True):
    """Split ``in_tensor`` along its first dimension (equally, or by
    ``in_split_sizes``) and send part j to process j of ``group``; ``out_tensor``
    receives (in place) the parts from every process, in rank order
    (``out_split_sizes`` rows from each).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([2])
    >>> _ = dist.alltoall_single(out, pylayer.to_tensor([1.0, 2.0]))
    >>> out.numpy()
    array([1., 2.], dtype=float32)
    """
    what = "alltoall_single()"
    _tensor(out_tensor, what, "out_tensor")
    _tensor(in_tensor, what, "in_tensor")
    _bool(sync_op, what, "sync_op")
    group = _member(group, what)
    if group is None:
        return Task()
    source = in_tensor.numpy()
    if out_tensor.dtype != in_tensor.dtype or out_tensor.shape[1:] != in_tensor.shape[1:]:
        raise ValueError(f"{what}: 'out_tensor' (shape {out_tensor.shape}, "
                         f"{out_tensor.dtype}) and 'in_tensor' (shape {in_tensor.shape}, "
                         f"{in_tensor.dtype}) must have the same dtype and trailing shape")
    n = group.nranks
    sends = _splits(in_split_sizes, source.shape[0], n, what, "in_split_sizes")
    receives = _splits(out_split_sizes, out_tensor.shape[0], n, what, "out_split_sizes")
    if group.comm is None:
        _write(out_tensor, source, what)
        return Task()
    row = source[0:1].nbytes if source.shape[0] else int(np.prod(source.shape[1:])) * source.itemsize
    received = np.empty(out_tensor.shape, source.dtype)
    send_counts = [s * row for s in sends]
    receive_counts = [s * row for s in receives]
    group.comm.Alltoallv([_bytes(source), (send_counts, None)],
                         [received.reshape(-1).view(np.uint8), (receive_counts, None)])
    _write(out_tensor, received, what)
    return Task()


def _point_to_point(group, peer, what, argument):
    group = _member(group, what)
    if group is None:
        return None, None
    return group, _peer(group, peer, what, argument)


def _mailbox(group, objects=False):
    """In a world of one process, a process sends to itself: the messages wait in the
    group's mailbox (one for tensors, one for object lists), oldest first."""
    return group.messages[1 if objects else 0]


def _send(tensor, dst, group, sync_op, what):
    _tensor(tensor, what, "tensor")
    sync_op = _bool(sync_op, what, "sync_op")
    group, peer = _point_to_point(group, dst, what, "dst")
    if group is None:
        return Task()
    if group.comm is None:
        _mailbox(group).append(np.array(tensor.numpy(), copy=True))
        return Task()
    data = _bytes(tensor.numpy())
    if sync_op:
        group.comm.Send(data, dest=peer, tag=17)
        return Task()
    return Task([group.comm.Isend(data, dest=peer, tag=17)])


def _recv(tensor, src, group, sync_op, what):
    _tensor(tensor, what, "tensor")
    sync_op = _bool(sync_op, what, "sync_op")
    if src is None:
        group = _member(group, what)
        peer = env._state.MPI.ANY_SOURCE if group is not None and group.comm is not None else 0
    else:
        group, peer = _point_to_point(group, src, what, "src")
    if group is None:
        return Task()
    if group.comm is None:
        mailbox = _mailbox(group)
        if not mailbox:
            raise RuntimeError(f"{what}: nothing was sent to receive: in a world of one "
                               f"process only what this process sent itself arrives")
        message = mailbox[0]
        if message.shape != tuple(tensor.shape) or message.dtype != tensor.numpy().dtype:
            raise ValueError(f"{what}: the message (shape {list(message.shape)}, "
                             f"{message.dtype}) does not fit 'tensor' (shape {tensor.shape}, "
                             f"{tensor.numpy().dtype})")
        _write(tensor, mailbox.pop(0), what)
        return Task()
    memory = _writable_memory(tensor)
    buffer = memory if memory is not None else np.empty(tensor.shape, tensor.numpy().dtype)
    data = buffer.reshape(-1).view(np.uint8)

    def finish():
        _write(tensor, tensor.numpy() if memory is not None else buffer, what)
    if sync_op:
        group.comm.Recv(data, source=peer, tag=17)
        return _done(True, finish=finish)
    return _done(False, [group.comm.Irecv(data, source=peer, tag=17)], finish)


def send(tensor, dst=0, group=None, sync_op=True):
    """Send ``tensor`` to global rank ``dst``, which receives it with :func:`recv` (in
    a world of one process, a process sends to itself).

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> group = dist.new_group([0])
    >>> _ = dist.send(pylayer.to_tensor([1.0, 2.0]), dst=0, group=group)
    >>> out = pylayer.zeros([2])
    >>> _ = dist.recv(out, src=0, group=group)
    >>> out.numpy()
    array([1., 2.], dtype=float32)
    """
    return _send(tensor, dst, group, sync_op, "send()")


def recv(tensor, src=0, group=None, sync_op=True):
    """Receive into ``tensor`` (in place) what global rank ``src`` (any rank where it is
    None) sends with :func:`send`.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> group = dist.new_group([0])
    >>> _ = dist.send(pylayer.to_tensor([3]), dst=0, group=group)
    >>> out = pylayer.zeros([1], dtype="int64")
    >>> _ = dist.recv(out, src=0, group=group)
    >>> out.numpy()
    array([3])
    """
    return _recv(tensor, src, group, sync_op, "recv()")


def isend(tensor, dst, group=None):
    """:func:`send` without waiting: returns a task to ``wait()`` on.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> group = dist.new_group([0])
    >>> dist.isend(pylayer.ones([1]), dst=0, group=group).wait()
    True
    >>> dist.irecv(pylayer.zeros([1]), src=0, group=group).wait()
    True
    """
    return _send(tensor, dst, group, False, "isend()")


def irecv(tensor, src=None, group=None):
    """:func:`recv` without waiting (from any process where ``src`` is None): returns a
    task to ``wait()`` on, after which ``tensor`` holds what was sent.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> group = dist.new_group([0])
    >>> _ = dist.isend(pylayer.ones([1]), dst=0, group=group)
    >>> out = pylayer.zeros([1])
    >>> dist.irecv(out, group=group).wait(), out.item()
    (True, 1.0)
    """
    return _recv(tensor, src, group, False, "irecv()")


def send_object_list(object_list, dst=None, group=None, dst_in_group=None):
    """Send the picklable objects of ``object_list`` (not empty) to global rank ``dst``
    (or to the group's rank ``dst_in_group``; rank 0 where neither is given), which
    receives them with :func:`recv_object_list`.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> group = dist.new_group([0])
    >>> dist.send_object_list([{"step": 1}], dst=0, group=group)
    >>> received = [None]
    >>> dist.recv_object_list(received, src=0, group=group)
    >>> received
    [{'step': 1}]
    """
    what = "send_object_list()"
    group, peer = _object_peer(object_list, group, dst, dst_in_group, what, "dst")
    if group is not None and group.comm is None:
        _mailbox(group, True).append(pickle.loads(pickle.dumps(object_list)))
    elif group is not None:
        group.comm.send(object_list, dest=peer, tag=18)


def recv_object_list(object_list, src=None, group=None, src_in_group=None):
    """Receive into ``object_list`` the objects global rank ``src`` (or the group's rank
    ``src_in_group``; rank 0 where neither is given) sends with
    :func:`send_object_list`: as in Paddle, the list has as many elements as were sent,
    which are replaced.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> group = dist.new_group([0])
    >>> dist.send_object_list(["a"], dst=0, group=group)
    >>> received = [None]
    >>> dist.recv_object_list(received, src=0, group=group)
    >>> received
    ['a']
    """
    what = "recv_object_list()"
    group, peer = _object_peer(object_list, group, src, src_in_group, what, "src")
    if group is not None and group.comm is None:
        if not _mailbox(group, True):
            raise RuntimeError(f"{what}: no object list was sent to receive: in a world of "
                               f"one process only what this process sent itself arrives")
        _replace(object_list, _mailbox(group, True).pop(0), what)
    elif group is not None:
        _replace(object_list, group.comm.recv(source=peer, tag=18), what)


def _object_peer(object_list, group, rank, rank_in_group, what, argument):
    """Paddle's rules: a non-empty list; ``rank`` or ``rank_in_group``, not both (rank 0
    where neither is given)."""
    _list(object_list, what, "object_list")
    if not object_list:
        raise ValueError(f"{what}: argument 'object_list' cannot be empty")
    if rank is not None and rank_in_group is not None:
        raise ValueError(f"{what}: give '{argument}' or '{argument}_in_group', not both")
    if rank_in_group is not None:
        group = _check_group(group, what)
        if isinstance(rank_in_group, bool) or not isinstance(rank_in_group, int) or \
                not 0 <= rank_in_group < group.nranks:
            raise ValueError(f"{what}: argument '{argument}_in_group' must be a rank of the "
                             f"group (0 to {group.nranks - 1}), got {rank_in_group!r}")
        rank = group.ranks[rank_in_group]
    return _point_to_point(group, 0 if rank is None else rank, what, argument)


def _replace(object_list, received, what):
    if len(received) != len(object_list):
        raise ValueError(f"{what}: {len(received)} objects were sent, but 'object_list' has "
                         f"{len(object_list)} places; give a list as long as the one sent")
    object_list[:] = received


class P2POp:
    """One operation of :func:`batch_isend_irecv`: ``op`` (:func:`isend` or
    :func:`irecv`) of ``tensor`` with global rank ``peer``.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> op = dist.P2POp(dist.isend, pylayer.ones([2]), 0)
    >>> op.op is dist.isend, op.peer, op.group.id
    (True, 0, 0)
    """

    def __init__(self, op, tensor, peer, group=None):
        if op is not isend and op is not irecv:
            raise RuntimeError("P2POp(): argument 'op' must be pylayer.distributed.isend or "
                               f"pylayer.distributed.irecv, got {op!r}")
        self.op = op
        self.tensor = _tensor(tensor, "P2POp()", "tensor")
        self.group = _check_group(group, "P2POp()")
        _peer(self.group, peer, "P2POp()", "peer")
        self.peer = int(peer)

    def __repr__(self):
        return (f"P2POp(op={self.op.__name__}, tensor=Tensor(shape={self.tensor.shape}), "
                f"peer={self.peer}, group={self.group.id})")


def batch_isend_irecv(p2p_op_list):
    """Start every :class:`P2POp` of ``p2p_op_list`` without waiting (MPI's non-blocking
    sends and receives, so their order between processes cannot deadlock) and return
    their tasks. In a world of one process the sends go first.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> out = pylayer.zeros([2])
    >>> tasks = dist.batch_isend_irecv([dist.P2POp(dist.irecv, out, 0),
    ...                                 dist.P2POp(dist.isend, pylayer.ones([2]), 0)])
    >>> [task.wait() for task in tasks], out.numpy()
    ([True, True], array([1., 1.], dtype=float32))
    """
    if not isinstance(p2p_op_list, list) or not p2p_op_list or not all(
            isinstance(op, P2POp) for op in p2p_op_list):
        raise RuntimeError("batch_isend_irecv(): argument 'p2p_op_list' must be a non-empty "
                           f"list of P2POp, got {p2p_op_list!r}")
    if not p2p_op_list[0].group.is_member():
        return None
    order = list(range(len(p2p_op_list)))
    if p2p_op_list[0].group.comm is None:
        order.sort(key=lambda i: p2p_op_list[i].op is irecv)
    tasks = [None] * len(p2p_op_list)
    for i in order:
        op = p2p_op_list[i]
        tasks[i] = op.op(op.tensor, op.peer, op.group)
    return tasks


def wait(tensor, group=None, use_calc_stream=True):
    """Wait for the communication of ``tensor`` to finish: MPI's blocking operations
    have finished when they return, and a task's ``wait()`` finishes a non-blocking
    one, so there is nothing left to wait for.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> dist.wait(pylayer.ones([1]))
    """
    _tensor(tensor, "wait()", "tensor")
    _check_group(group, "wait()")
