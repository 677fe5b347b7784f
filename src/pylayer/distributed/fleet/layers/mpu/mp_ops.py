"""The tensor-parallel operations (Paddle's ``paddle.distributed.fleet.layers.mpu.mp_ops``):
PyLayers whose forward and backward are collectives over the model-parallel group.

In a group of one process (or with ``group=None`` in a world of one) their collectives
do nothing: ``_c_identity``, ``_mp_allreduce``, ``_c_split`` and ``_c_concat`` return
their input.
"""
import numpy as np

import pylayer
import pylayer.distributed as dist
import pylayer.nn.functional as F
from pylayer.autograd import PyLayer

__all__ = ["split"]


def _group(group, what):
    if group is None:
        if not dist.is_initialized():
            dist.init_parallel_env()
        return dist.get_group(0)
    if not isinstance(group, dist.Group):
        raise TypeError(f"{what}: argument 'group' must be a Group (from "
                        f"pylayer.distributed.new_group) or None, got {type(group).__name__}")
    return group


def _tensor(value, what, name="tensor"):
    if not isinstance(value, (pylayer.Tensor, pylayer.static.Variable)):
        raise TypeError(f"{what}: argument '{name}' (position 1) must be a Tensor, got "
                        f"{type(value).__name__}")
    return value


def _sum(tensor, group, op=dist.ReduceOp.SUM):
    out = tensor.clone()
    dist.all_reduce(out, op=op, group=group)
    return out


def _gather_last(tensor, group):
    parts = []
    dist.all_gather(parts, tensor, group=group)
    return pylayer.concat(parts, axis=-1)


def _piece_last(tensor, group, what):
    size = tensor.shape[-1]
    if size % group.nranks:
        raise ValueError(f"{what}: the last dimension ({size}) must be divisible by the "
                         f"group's {group.nranks} processes")
    width = size // group.nranks
    return tensor[..., group.rank * width:(group.rank + 1) * width].clone()


class _Identity(PyLayer):
    @staticmethod
    def forward(ctx, tensor, group):
        ctx.group = group
        return tensor.clone()

    @staticmethod
    def backward(ctx, grad):
        return _sum(grad, ctx.group)


class _AllReduce(PyLayer):
    @staticmethod
    def forward(ctx, tensor, op, group):
        return _sum(tensor, group, op)

    @staticmethod
    def backward(ctx, grad):
        return grad


class _Split(PyLayer):
    @staticmethod
    def forward(ctx, tensor, group):
        ctx.group = group
        return _piece_last(tensor, group, "_c_split()")

    @staticmethod
    def backward(ctx, grad):
        return _gather_last(grad, ctx.group)


class _Concat(PyLayer):
    @staticmethod
    def forward(ctx, tensor, group):
        ctx.group = group
        return _gather_last(tensor, group)

    @staticmethod
    def backward(ctx, grad):
        return _piece_last(grad, ctx.group, "_c_concat() backward")


def _c_identity(tensor, group=None, skip_c_identity_dynamic=False):
    """The identity in forward; in backward the gradient is summed over ``group`` (the
    input of a column-parallel layer, used by every process of the group).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> x = pylayer.ones([2]); x.stop_gradient = False
    >>> mp_ops._c_identity(x).sum().backward()
    >>> x.grad.numpy()
    array([1., 1.], dtype=float32)
    """
    _tensor(tensor, "_c_identity()")
    group = _group(group, "_c_identity()")
    if group.nranks == 1:
        return tensor
    return _Identity.apply(tensor, group)


def _mp_allreduce(tensor, op=dist.ReduceOp.SUM, group=None, use_calc_stream=True,
                  use_model_parallel=True, skip_c_identity_dynamic=False):
    """All-reduce ``tensor`` over ``group`` in forward (a new tensor); the gradient
    passes through unchanged in backward (the output of a row-parallel layer). Paddle
    allows the sum only.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> mp_ops._mp_allreduce(pylayer.to_tensor([1.0, 2.0])).numpy()
    array([1., 2.], dtype=float32)
    """
    _tensor(tensor, "_mp_allreduce()")
    if op != dist.ReduceOp.SUM:
        raise ValueError(f"_mp_allreduce(): argument 'op' must be ReduceOp.SUM (Paddle's "
                         f"model-parallel all-reduce sums), got {op!r}")
    group = _group(group, "_mp_allreduce()")
    if group.nranks == 1:
        return tensor
    return _AllReduce.apply(tensor, op, group)


def _c_split(tensor, group=None):
    """This process's piece of the last axis of ``tensor`` (the group's rank-th of
    ``nranks`` equal pieces); in backward the gradient pieces are gathered back.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> mp_ops._c_split(pylayer.to_tensor([[1.0, 2.0]])).shape
    [1, 2]
    """
    _tensor(tensor, "_c_split()")
    group = _group(group, "_c_split()")
    if group.nranks == 1:
        return tensor
    return _Split.apply(tensor, group)


def _c_concat(tensor, group=None):
    """The pieces of every process of ``group`` concatenated along the last axis, in
    rank order; in backward each process keeps its piece of the gradient.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> mp_ops._c_concat(pylayer.to_tensor([[1.0, 2.0]])).shape
    [1, 2]
    """
    _tensor(tensor, "_c_concat()")
    group = _group(group, "_c_concat()")
    if group.nranks == 1:
        return tensor
    return _Concat.apply(tensor, group)


def _c_lookup_table(table, index, start_index=0, vocab_size=-1, name=None):
    """Rows of this process's part of an embedding table: ``index`` holds ids of the
    whole vocabulary, the part holds the ids ``start_index`` to ``start_index +
    table.shape[0]``; ids outside it give rows of zeros (summed over the group by
    :func:`_mp_allreduce` afterwards). Differentiable in ``table``.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> table = pylayer.to_tensor([[1.0], [2.0]])
    >>> mp_ops._c_lookup_table(table, pylayer.to_tensor([1, 2, 3]), start_index=2).numpy()
    array([[0.],
           [1.],
           [2.]], dtype=float32)
    """
    _tensor(table, "_c_lookup_table()", "table")
    if not isinstance(index, (pylayer.Tensor, pylayer.static.Variable)) \
            or index.dtype not in (pylayer.int32, pylayer.int64):
        raise TypeError(f"_c_lookup_table(): argument 'index' (position 2) must be an int32 or "
                        f"int64 Tensor, got {getattr(index, 'dtype', type(index).__name__)}")
    if isinstance(start_index, bool) or not isinstance(start_index, int):
        raise TypeError(f"_c_lookup_table(): argument 'start_index' (position 3) must be an "
                        f"int, got {type(start_index).__name__}")
    rows = table.shape[0]
    inside = pylayer.logical_and(index >= start_index, index < start_index + rows)
    local = pylayer.where(inside, index - start_index, pylayer.zeros_like(index))
    out = F.embedding(local, table)
    return out * inside.astype(out.dtype).unsqueeze(-1)


class _SoftmaxCrossEntropy(PyLayer):
    @staticmethod
    def forward(ctx, logits, label, group, ignore_index, return_softmax):
        x = logits.numpy()
        ids = label.numpy()[..., 0].astype(np.int64)
        width = x.shape[-1]
        start = group.rank * width
        top = pylayer.to_tensor(x.max(axis=-1))
        dist.all_reduce(top, op=dist.ReduceOp.MAX, group=group)
        shifted = x - top.numpy()[..., None]
        e = np.exp(shifted)
        total = pylayer.to_tensor(e.sum(axis=-1))
        dist.all_reduce(total, group=group)
        inside = (ids >= start) & (ids < start + width)
        local = np.where(inside, ids - start, 0)
        picked = np.take_along_axis(shifted, local[..., None], axis=-1)[..., 0]
        picked = pylayer.to_tensor(np.where(inside, picked, 0).astype(x.dtype))
        dist.all_reduce(picked, group=group)
        kept = ids != ignore_index
        loss = np.where(kept, np.log(total.numpy()) - picked.numpy(), 0).astype(x.dtype)
        softmax = (e / total.numpy()[..., None]).astype(x.dtype)
        onehot = np.zeros_like(softmax)
        np.put_along_axis(onehot, local[..., None], inside[..., None].astype(x.dtype), axis=-1)
        ctx.grad_factor = np.where(kept[..., None], softmax - onehot, 0).astype(x.dtype)
        out = pylayer.to_tensor(loss[..., None])
        if return_softmax:
            return out, pylayer.to_tensor(softmax)
        return out

    @staticmethod
    def backward(ctx, grad, *unused):
        return pylayer.to_tensor(ctx.grad_factor) * grad, None


def _c_softmax_with_cross_entropy(logits, label, group=None, return_softmax=False,
                                  ignore_index=-100):
    """Softmax cross entropy over a vocabulary split along the last axis of ``logits``
    among the processes of ``group`` (this process holds the group's rank-th part);
    ``label`` holds ids of the whole vocabulary, with a trailing axis of 1 or without
    it. The loss has ``label``'s shape with a trailing 1 (0 where the label is
    ``ignore_index``); with ``return_softmax`` also this part of the softmax.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> loss = mp_ops._c_softmax_with_cross_entropy(pylayer.zeros([1, 4]), pylayer.to_tensor([[1]]))
    >>> round(loss.item(), 4)
    1.3863
    """
    _tensor(logits, "_c_softmax_with_cross_entropy()", "logits")
    if not logits.dtype.is_floating_point:
        raise TypeError(f"_c_softmax_with_cross_entropy(): argument 'logits' (position 1) must "
                        f"be a floating-point Tensor, got {logits.dtype}")
    if not isinstance(label, pylayer.Tensor) or label.dtype not in (pylayer.int32,
                                                                    pylayer.int64):
        raise TypeError(f"_c_softmax_with_cross_entropy(): argument 'label' (position 2) must "
                        f"be an int32 or int64 Tensor, got "
                        f"{getattr(label, 'dtype', type(label).__name__)}")
    if label.ndim == logits.ndim - 1:
        label = label.unsqueeze(-1)
    if label.shape[:-1] != logits.shape[:-1] or label.shape[-1] != 1:
        raise ValueError(f"_c_softmax_with_cross_entropy(): argument 'label' (position 2) must "
                         f"have the shape {logits.shape[:-1] + [1]} of 'logits' without its "
                         f"last axis, got {label.shape}")
    group = _group(group, "_c_softmax_with_cross_entropy()")
    return _SoftmaxCrossEntropy.apply(logits, label, group, ignore_index, bool(return_softmax))


def _linear(x, weight, bias=None, name=None):
    """``x @ weight + bias`` (Paddle's helper of the parallel layers).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> mp_ops._linear(pylayer.ones([1, 2]), pylayer.ones([2, 3])).numpy()
    array([[2., 2., 2.]], dtype=float32)
    """
    return F.linear(x, weight, bias, name=name)


def _parallel_linear(x, num_rows, num_cols, axis, param_attr, bias_attr, gather_out,
                     inner_rank, nranks, split_tensor, name, group=None):
    """A new linear layer of weight ``[num_rows, num_cols]``, this process's part of a
    weight split by rows (``axis=0``: the input is split too where ``split_tensor``; the
    outputs are summed, then the bias added, where ``gather_out``) or by columns
    (``axis=1``: the outputs are gathered where ``gather_out``), applied to ``x``
    (Paddle's helper of :func:`pylayer.distributed.split`).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> mp_ops._parallel_linear(pylayer.ones([2, 3]), 3, 4, 1, None, None, True, 0, 1,
    ...                         False, None).shape
    [2, 4]
    """
    if group is not None and not group.is_member():
        return None
    if axis not in (0, 1):
        raise ValueError(f"_parallel_linear(): argument 'axis' must be 0 or 1, got {axis!r}")
    if axis == 0:
        if split_tensor:
            x = _c_split(x, group=group)
    else:
        x = _c_identity(x, group=group)
    linear = pylayer.nn.Linear(num_rows, num_cols, weight_attr=param_attr,
                               bias_attr=bias_attr, name=name)
    out = F.linear(x, linear.weight, None if axis == 0 else linear.bias)
    linear.weight.is_distributed = True
    if axis == 1 and linear.bias is not None:
        linear.bias.is_distributed = True
    if not gather_out:
        return out
    if axis == 0:
        out = _mp_allreduce(out, group=group)
        return out + linear.bias if linear.bias is not None else out
    return _c_concat(out, group=group)


def _parallel_embedding(x, per_part_embeddings, origin_size, param_attr, inner_rank,
                        num_partitions, name, group=None):
    """A new embedding table's part of ``per_part_embeddings`` rows (the
    ``inner_rank``-th of the vocabulary ``origin_size[0]``), looked up for ``x`` and
    summed over the group (Paddle's helper of :func:`pylayer.distributed.split`).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import mp_ops
    >>> mp_ops._parallel_embedding(pylayer.to_tensor([1, 2]), 8, [8, 3], None, 0, 1,
    ...                            None).shape
    [2, 3]
    """
    if group is not None and not group.is_member():
        return None
    table = pylayer.nn.Embedding(per_part_embeddings, origin_size[1], weight_attr=param_attr,
                                 name=name)
    table.weight.is_distributed = True
    out = _c_lookup_table(table.weight, x, start_index=inner_rank * per_part_embeddings,
                          vocab_size=origin_size[0], name=name)
    return _mp_allreduce(out, group=group)


def split(x, size, operation, axis=0, num_partitions=1, gather_out=True, weight_attr=None,
          bias_attr=None, name=None):
    """Build, in static mode, a linear layer (``operation="linear"``, weight ``size``
    split by rows with ``axis=0`` or by columns with ``axis=1``) or an embedding
    (``"embedding"``, split by rows) whose weight is split over ``num_partitions``
    processes, and apply it to ``x``. In dynamic mode it is a ValueError, as in Paddle:
    use :class:`~pylayer.distributed.fleet.meta_parallel.ColumnParallelLinear`,
    :class:`~pylayer.distributed.fleet.meta_parallel.RowParallelLinear` and
    :class:`~pylayer.distributed.fleet.meta_parallel.VocabParallelEmbedding` there.

    >>> import numpy as np, pylayer
    >>> import pylayer.distributed as dist
    >>> from pylayer.distributed import fleet
    >>> _ = fleet.init(is_collective=True)
    >>> pylayer.enable_static()
    >>> main, startup = pylayer.static.Program(), pylayer.static.Program()
    >>> with pylayer.static.program_guard(main, startup):
    ...     x = pylayer.static.data("x", [-1, 3], "float32")
    ...     y = dist.split(x, (3, 4), "linear", axis=1, num_partitions=1)
    >>> exe = pylayer.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[y])[0].shape
    (2, 4)
    >>> pylayer.disable_static()
    """
    _tensor(x, "split()", "x")
    if not isinstance(size, (list, tuple)):
        raise TypeError(f"split(): argument 'size' (position 2) must be a list or tuple, got "
                        f"{type(size).__name__}")
    if len(size) != 2:
        raise ValueError(f"split(): argument 'size' (position 2) must have two elements, got "
                         f"{len(size)}")
    if not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in size):
        raise TypeError(f"split(): argument 'size' (position 2) must hold two positive ints, "
                        f"got {size!r}")
    if not isinstance(operation, str):
        raise TypeError(f"split(): argument 'operation' (position 3) must be a str, got "
                        f"{type(operation).__name__}")
    if operation not in ("linear", "embedding"):
        raise ValueError(f"split(): argument 'operation' (position 3) must be one of "
                         f"['linear', 'embedding'], got {operation!r}")
    if isinstance(num_partitions, bool) or not isinstance(num_partitions, int) \
            or num_partitions < 1:
        raise ValueError(f"split(): argument 'num_partitions' (position 5) must be a positive "
                         f"int, got {num_partitions!r}")
    if pylayer.in_dynamic_mode():
        raise ValueError("paddle.distributed.split cannot be used in dynamic graph mode, "
                         "please use ParallelEmbedding, ParallelRowLinear, "
                         "ParallelColumnLinear instead.")
    from pylayer.distributed import fleet
    if fleet.fleet._role_maker is None:
        raise RuntimeError("To use paddle.distributed.split, you must call fleet.init() "
                           "firstly.")
    inner_rank = fleet.worker_index() % num_partitions
    if operation == "embedding":
        if axis != 0:
            raise ValueError(f"split(): We only support to split the weight of embedding "
                             f"along the first axis now; got axis={axis}")
        if size[0] % num_partitions:
            raise ValueError(f"split(): The length of the vocabulary must be divisible by "
                             f"num_partitions but received vocabulary={size[0]} "
                             f"num_partitions={num_partitions}")
        return _parallel_embedding(x, size[0] // num_partitions, size, weight_attr, inner_rank,
                                   num_partitions, name)
    if axis not in (0, 1):
        raise ValueError(f"split(): argument 'axis' (position 4) must be 0 or 1 for a linear "
                         f"layer, got {axis!r}")
    if size[axis] % num_partitions:
        raise ValueError(f"split(): Number of {'rows' if axis == 0 else 'columns'} of the "
                         f"weight for linear ({size[axis]}) must be divisible by "
                         f"num_partitions ({num_partitions})")
    part = size[axis] // num_partitions
    if axis == 0:
        return _parallel_linear(x, part, size[1], 0, weight_attr, bias_attr, gather_out,
                                inner_rank, num_partitions, x.shape[-1] == size[0], name)
    return _parallel_linear(x, size[0], part, 1, weight_attr, bias_attr, gather_out,
                            inner_rank, num_partitions, False, name)
