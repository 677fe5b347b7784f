"""Shape and layout ops: flatten, squeeze, concat, split, tile, gather, slice, flip, roll...

``reshape``, ``transpose``, ``broadcast_to``, ``expand``, ``cast`` and
``assign`` are hot ops compiled in ``_shape.pyx`` and ``_reduction.pyx``, public from here. Every op here
records a node whose backward is written with these same ops, so double
backward works. None of them saves a tensor for backward: shapes, axes and
indices are kept in the node's attributes.
"""
import builtins

import numpy as np

from pylayer._core.graph import make_output_legacy, make_outputs_legacy, needs_grad
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops import _reduction, _shape
from pylayer.ops._arguments import check_axis, check_count, check_int, check_ints, describe
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops._reduction import sum as reduce_sum
from pylayer.ops.dispatch import op
from pylayer.ops.math import where
from pylayer.ops.indexing import put, take
from pylayer.ops.inplace import refuse_leaf, take_over

__all__ = ["reshape", "transpose", "broadcast_to", "expand", "cast", "assign", "flatten",
           "squeeze", "unsqueeze", "concat", "stack", "unstack", "split", "chunk", "tile",
           "gather", "index_select", "slice", "flip", "roll", "numel", "take_along_axis",
           "put_along_axis", "expand_as", "masked_fill"]

# The compiled shape ops (_shape.pyx, and broadcasting in _reduction.pyx), public from
# here: each wrapped once by pylayer.ops.dispatch.op (the compiled ops call each other
# unwrapped).
reshape = op(_shape.reshape)
transpose = op(_shape.transpose)
broadcast_to = op(_reduction.broadcast_to)
expand = op(_reduction.expand)
cast = op(_shape.cast)
assign = op(_shape.assign)


# -------------------------------------------------------------- arguments
def _tensor_list(x, fn):
    if isinstance(x, Tensor) or not isinstance(x, (list, tuple)):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a list or tuple of "
                        f"Tensors, got {type(x).__name__}")
    if not x:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must hold at least one Tensor")
    tensors = [as_tensor_arg(t, fn, f"x[{i}]", 1) for i, t in enumerate(x)]
    dtypes = {t.numpy().dtype for t in tensors}
    if len(dtypes) > 1:
        raise TypeError(f"{fn}(): all tensors in 'x' must have the same dtype, got "
                        f"{[t.dtype.name for t in tensors]}")
    return tensors


def _zeros_for_missing(node, grads):
    """Multi-output backward: outputs that got no gradient count as zeros."""
    return [g if g is not None else make_tensor(np.zeros(shape, dtype))
            for g, (shape, dtype) in zip(grads, node.out_meta)]


# --------------------------------------------------------- shape changes
def _reshape_to_bw(node, g):
    return (reshape_to(g, node.attrs),)


def reshape_to(x, shape, op_name="reshape"):
    """Reshape to an exact shape (no ``0``/``-1`` rules), recorded as ``op_name``."""
    a = x.numpy()
    return make_output_legacy(a.reshape(shape), (x,), op_name, _reshape_to_bw, attrs=a.shape)


@op
def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """Merge the dimensions ``start_axis`` to ``stop_axis`` (inclusive) into one.

    A 0-d tensor becomes shape ``[1]``.

    >>> import pylayer
    >>> pylayer.flatten(pylayer.zeros([2, 3, 4]), start_axis=1).shape
    [2, 12]
    """
    x = as_tensor_arg(x, "flatten", "x", 1)
    shape = x.numpy().shape
    start = check_axis(start_axis, len(shape), "flatten", "start_axis")
    stop = check_axis(stop_axis, len(shape), "flatten", "stop_axis")
    if start > stop:
        raise ValueError(f"flatten(): 'start_axis' ({start_axis}) must not come after "
                         f"'stop_axis' ({stop_axis})")
    merged = int(np.prod(shape[start:stop + 1], dtype=np.int64))
    return reshape_to(x, shape[:start] + (merged,) + shape[stop + 1:], "flatten")


@op
def squeeze(x, axis=None, name=None):
    """Remove dimensions of size 1: all of them, or those listed in ``axis``.

    Listed axes whose size is not 1 are left alone, as in Paddle.

    >>> import pylayer
    >>> pylayer.squeeze(pylayer.zeros([1, 3, 1]), axis=0).shape
    [3, 1]
    """
    x = as_tensor_arg(x, "squeeze", "x", 1)
    shape = x.numpy().shape
    if axis is None:
        drop = {i for i, size in enumerate(shape) if size == 1}
    else:
        drop = {check_axis(a, len(shape), "squeeze") for a in check_ints(axis, "squeeze", "axis")}
        drop = {i for i in drop if i < len(shape) and shape[i] == 1}
    return reshape_to(x, tuple(size for i, size in enumerate(shape) if i not in drop), "squeeze")


@op
def unsqueeze(x, axis, name=None):
    """Insert dimensions of size 1 at ``axis`` (an int or a list, inserted in order).

    >>> import pylayer
    >>> pylayer.unsqueeze(pylayer.zeros([5, 10]), axis=[0, 2]).shape
    [1, 5, 1, 10]
    """
    x = as_tensor_arg(x, "unsqueeze", "x", 1)
    shape = list(x.numpy().shape)
    for a in check_ints(axis, "unsqueeze", "axis"):
        if not -len(shape) - 1 <= a <= len(shape):
            raise ValueError(f"unsqueeze(): axis {a} is out of range for inserting into a "
                             f"tensor of rank {len(shape)}")
        shape.insert(a % (len(shape) + 1), 1)
    return reshape_to(x, tuple(shape), "unsqueeze")


# --------------------------------------------------------- join and split
def _concat_bw(node, g):
    sizes, axis = node.attrs
    pieces = split(g, list(sizes), axis)
    return tuple(p if needed else None for p, needed in zip(pieces, node.needs_input_grad))


@op
def concat(x, axis=0, name=None):
    """Join a list of tensors along an existing ``axis``.

    >>> import pylayer
    >>> pylayer.concat([pylayer.zeros([1, 2]), pylayer.ones([2, 2])]).shape
    [3, 2]
    """
    tensors = _tensor_list(x, "concat")
    arrays = [t.numpy() for t in tensors]
    if arrays[0].ndim == 0:
        raise ValueError("concat(): 0-d tensors cannot be concatenated; use stack()")
    axis = check_axis(axis, arrays[0].ndim, "concat")
    try:
        out = np.concatenate(arrays, axis=axis)
    except ValueError:
        raise ValueError(f"concat(): the tensors in argument 'x' must have the same shape "
                         f"except along axis {axis}, got shapes "
                         f"{[list(a.shape) for a in arrays]}") from None
    sizes = tuple(a.shape[axis] for a in arrays)
    return make_output_legacy(out, tuple(tensors), "concat", _concat_bw, attrs=(sizes, axis))


def _stack_bw(node, g):
    pieces = unstack(g, node.attrs)
    return tuple(p if needed else None for p, needed in zip(pieces, node.needs_input_grad))


@op
def stack(x, axis=0, name=None):
    """Join a list of same-shaped tensors along a new ``axis``.

    >>> import pylayer
    >>> pylayer.stack([pylayer.zeros([2]), pylayer.ones([2])], axis=1).shape
    [2, 2]
    """
    tensors = _tensor_list(x, "stack")
    arrays = [t.numpy() for t in tensors]
    axis = check_axis(axis, arrays[0].ndim + 1, "stack")
    if len({a.shape for a in arrays}) > 1:
        raise ValueError(f"stack(): the tensors in argument 'x' must have the same shape, got "
                         f"{[list(a.shape) for a in arrays]}")
    return make_output_legacy(np.stack(arrays, axis=axis), tuple(tensors), "stack", _stack_bw,
                       attrs=axis)


def _unstack_bw(node, grads):
    return (stack(_zeros_for_missing(node, grads), node.attrs),)


@op
def unstack(x, axis=0, num=None):
    """Split ``x`` along ``axis`` into a list of tensors with that dimension removed.

    >>> import pylayer
    >>> [t.shape for t in pylayer.unstack(pylayer.zeros([2, 3]), axis=1)]
    [[2], [2], [2]]
    """
    x = as_tensor_arg(x, "unstack", "x", 1)
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError("unstack(): argument 'x' (position 1) must have at least one dimension")
    axis = check_axis(axis, a.ndim, "unstack")
    if num is not None and check_int(num, "unstack", "num") != a.shape[axis]:
        raise ValueError(f"unstack(): argument 'num' must be the size {a.shape[axis]} of axis "
                         f"{axis}, got {num}")
    moved = np.moveaxis(a, axis, 0)
    return make_outputs_legacy([moved[i] for i in range(a.shape[axis])], (x,), "unstack",
                        _unstack_bw, attrs=axis)


def _split_bw(node, grads):
    return (concat(_zeros_for_missing(node, grads), node.attrs),)


def _section_sizes(num_or_sections, dim, fn, arg="num_or_sections"):
    if isinstance(num_or_sections, (list, tuple)) or (
            isinstance(num_or_sections, Tensor) and num_or_sections.ndim == 1):
        sizes = check_ints(num_or_sections, fn, arg)
        unknown = [i for i, s in enumerate(sizes) if s == -1]
        if len(unknown) > 1 or any(s < -1 for s in sizes):
            raise ValueError(f"{fn}(): 'num_or_sections' {sizes} may hold at most one -1 and "
                             f"otherwise non-negative sizes")
        if unknown:
            sizes[unknown[0]] = dim - (builtins.sum(sizes) + 1)
        if builtins.sum(sizes) != dim or min(sizes) < 0:
            raise ValueError(f"{fn}(): argument '{arg}' gives sections {sizes}, which do not "
                             f"add up to the size {dim} of the split axis")
        return sizes
    num = check_int(num_or_sections, fn, arg)
    if num <= 0 or dim % num:
        raise ValueError(f"{fn}(): argument '{arg}' is {num}, but the split axis has size "
                         f"{dim}, which cannot be divided into {num} equal parts")
    return [dim // num] * num


def _split(x, sizes, axis):
    a = x.numpy()
    bounds = np.cumsum(sizes)[:-1]
    return make_outputs_legacy(np.split(a, bounds, axis=axis), (x,), "split", _split_bw, attrs=axis)


@op
def split(x, num_or_sections, axis=0, name=None):
    """Split ``x`` along ``axis`` into equal parts (an int) or given sizes (a list, one -1 allowed).

    >>> import pylayer
    >>> [t.shape for t in pylayer.split(pylayer.zeros([5, 2]), [2, -1])]
    [[2, 2], [3, 2]]
    """
    x = as_tensor_arg(x, "split", "x", 1)
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError("split(): argument 'x' (position 1) must have at least one dimension")
    axis = check_axis(axis, a.ndim, "split")
    return _split(x, _section_sizes(num_or_sections, a.shape[axis], "split"), axis)


@op
def chunk(x, chunks, axis=0, name=None):
    """Split ``x`` into ``chunks`` equal parts along ``axis`` (the size must divide).

    >>> import pylayer
    >>> len(pylayer.chunk(pylayer.zeros([6]), 3))
    3
    """
    x = as_tensor_arg(x, "chunk", "x", 1)
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError("chunk(): argument 'x' (position 1) must have at least one dimension")
    axis = check_axis(axis, a.ndim, "chunk")
    return _split(x, _section_sizes(check_int(chunks, "chunk", "chunks"), a.shape[axis], "chunk",
                                    "chunks"), axis)


# ------------------------------------------------------------- repetition
def _tile_bw(node, g):
    shape, padded, reps = node.attrs
    interleaved = tuple(v for pair in zip(reps, padded) for v in pair)
    g = reshape_to(g, interleaved)
    axes = [2 * i for i, r in enumerate(reps) if r != 1]
    if axes:
        g = reduce_sum(g, axis=axes, keepdim=True)
    return (reshape_to(g, shape),)


@op
def tile(x, repeat_times, name=None):
    """Repeat ``x`` ``repeat_times[i]`` times along each dimension (numpy's ``tile``).

    >>> import pylayer
    >>> pylayer.tile(pylayer.to_tensor([1, 2]), [2]).numpy()
    array([1, 2, 1, 2])
    """
    x = as_tensor_arg(x, "tile", "x", 1)
    a = x.numpy()
    reps = check_ints(repeat_times, "tile", "repeat_times")
    if any(r < 0 for r in reps):
        raise ValueError(f"tile(): 'repeat_times' must hold non-negative ints, got {reps}")
    ndim = builtins.max(a.ndim, len(reps))
    padded = (1,) * (ndim - a.ndim) + a.shape
    reps = (1,) * (ndim - len(reps)) + tuple(reps)
    check_count(int(np.prod(padded, dtype=np.float64) * np.prod(reps, dtype=np.float64)), "tile",
                "repeat_times")
    out = np.tile(a.reshape(padded), reps)
    return make_output_legacy(out, (x,), "tile", _tile_bw, attrs=(a.shape, padded, reps))


# --------------------------------------------------------- index-based
def _index_arg(index, fn, ranks, arg="index"):
    """The integer positions of ``index``, as a private copy (backward keeps them)."""
    if isinstance(index, Tensor):
        idx = np.array(index.numpy(), copy=True)
    else:
        idx = np.array(index, copy=True)
        if idx.size == 0 and idx.dtype.kind == "f":
            idx = idx.astype(np.int64)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument '{arg}' must hold integers, got dtype {idx.dtype}")
    if idx.ndim not in ranks:
        raise ValueError(f"{fn}(): argument '{arg}' must have rank "
                         f"{' or '.join(map(str, ranks))}, got shape {list(idx.shape)}")
    return idx


def _take_along(x, index, axis, fn, ranks):
    x = as_tensor_arg(x, fn, "x", 1)
    a = x.numpy()
    idx = _index_arg(index, fn, ranks)
    axis = check_axis(0 if axis is None else axis, a.ndim, fn)
    size = a.shape[axis] if a.ndim else 1
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise IndexError(f"{fn}(): 'index' holds values outside [{-size}, {size}) for axis "
                         f"{axis} of size {size}")
    return take(x, (builtins.slice(None),) * axis + (idx,), True, fn)


@op
def gather(x, index, axis=None, name=None):
    """Select entries of ``x`` along ``axis`` (default 0) at the positions in ``index``.

    ``index`` is a 0-d or 1-d integer tensor; repeated positions add up in
    the gradient.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2], [3, 4], [5, 6]])
    >>> pylayer.gather(x, pylayer.to_tensor([2, 0])).numpy()
    array([[5, 6],
           [1, 2]])
    """
    return _take_along(x, index, axis, "gather", (0, 1))


@op
def index_select(x, index, axis=0, name=None):
    """Select slices of ``x`` along ``axis`` at the positions of the 1-d ``index``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> pylayer.index_select(x, pylayer.to_tensor([2, 2]), axis=1).numpy()
    array([[3, 3],
           [6, 6]])
    """
    return _take_along(x, index, check_int(axis, "index_select", "axis"), "index_select", (1,))


@op
def slice(x, axes, starts, ends):
    """Take ``x[starts[i]:ends[i]]`` along each of ``axes``; bounds are clamped to the size.

    Negative bounds count from the end, as in Python slicing.

    >>> import pylayer
    >>> x = pylayer.arange(12).reshape([3, 4])
    >>> pylayer.slice(x, axes=[0, 1], starts=[1, 0], ends=[3, -1]).numpy()
    array([[ 4,  5,  6],
           [ 8,  9, 10]])
    """
    x = as_tensor_arg(x, "slice", "x", 1)
    ndim = x.ndim
    axes = [check_axis(a, ndim, "slice", "axes") for a in check_ints(axes, "slice", "axes")]
    starts = check_ints(starts, "slice", "starts")
    ends = check_ints(ends, "slice", "ends")
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(f"slice(): 'axes', 'starts' and 'ends' must have the same length, got "
                         f"{len(axes)}, {len(starts)} and {len(ends)}")
    index = [builtins.slice(None)] * ndim
    for axis, start, end in zip(axes, starts, ends):
        index[axis] = builtins.slice(start, end)
    return take(x, tuple(index), False, "slice")


# ------------------------------------------------------------- reordering
@op
def numel(x, name=None):
    """The number of elements of ``x`` as a 0-D int64 Tensor (``Tensor.numel()`` too).

    >>> import pylayer
    >>> n = pylayer.numel(pylayer.zeros([2, 3]))
    >>> n.shape, n.dtype, int(n)
    ([], pylayer.int64, 6)
    """
    x = as_tensor_arg(x, "numel", "x", 1)
    return make_tensor(np.array(x.size, np.int64))


def _flip_bw(node, g):
    return (flip(g, list(node.attrs)),)


@op
def flip(x, axis, name=None):
    """Reverse the order of elements along ``axis`` (an int or a list).

    >>> import pylayer
    >>> pylayer.flip(pylayer.to_tensor([1, 2, 3]), axis=0).numpy()
    array([3, 2, 1])
    """
    x = as_tensor_arg(x, "flip", "x", 1)
    a = x.numpy()
    axes = tuple(sorted({check_axis(v, a.ndim, "flip") for v in check_ints(axis, "flip", "axis")}))
    out = np.flip(a, axes) if a.ndim else a
    return make_output_legacy(out, (x,), "flip", _flip_bw, attrs=axes)


def _roll_bw(node, g):
    shifts, axes = node.attrs
    return (roll(g, [-s for s in shifts], None if axes is None else list(axes)),)


@op
def roll(x, shifts, axis=None, name=None):
    """Shift elements circularly along ``axis``; with ``axis=None`` over the flattened tensor.

    >>> import pylayer
    >>> pylayer.roll(pylayer.to_tensor([1, 2, 3, 4]), 1).numpy()
    array([4, 1, 2, 3])
    """
    x = as_tensor_arg(x, "roll", "x", 1)
    a = x.numpy()
    shifts = check_ints(shifts, "roll", "shifts")
    if axis is None:
        if len(shifts) != 1:
            raise ValueError(f"roll(): with axis=None 'shifts' must be one int, got {shifts}")
        out = np.roll(a, shifts[0])
        axes = None
    else:
        axes = tuple(check_axis(v, a.ndim, "roll") for v in check_ints(axis, "roll", "axis"))
        if len(axes) != len(shifts):
            raise ValueError(f"roll(): 'shifts' ({len(shifts)} values) and 'axis' "
                             f"({len(axes)} values) must have the same length")
        out = np.roll(a, shifts, axes) if a.ndim else np.array(a)
    return make_output_legacy(out, (x,), "roll", _roll_bw, attrs=(tuple(shifts), axes))


# ------------------------------------------------------------ along an axis
def _along_axis(arr, indices, axis, broadcast, fn, arr_broadcasts):
    """(arr, index tuple, shape of the index) for ``take/put_along_axis``.

    With ``broadcast`` the size-1 dimensions of ``indices`` off ``axis``
    broadcast to ``arr``'s (and ``arr``'s to ``indices``' when
    ``arr_broadcasts``); without it ``indices`` may be smaller there.
    """
    arr = as_tensor_arg(arr, fn, "arr", 1)
    a = arr.numpy()
    idx = _index_arg(indices, fn, range(33), "indices")
    if idx.ndim != a.ndim or a.ndim == 0:
        raise ValueError(f"{fn}(): argument 'indices' must have the same rank as 'arr' (at "
                         f"least 1), got shapes {list(idx.shape)} and {list(a.shape)}")
    axis = check_axis(axis, a.ndim, fn)
    size = a.shape[axis]
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise IndexError(f"{fn}(): 'indices' holds values outside [{-size}, {size}) for axis "
                         f"{axis} of size {size}")
    shape = list(idx.shape)
    for d in range(a.ndim):
        if d == axis:
            continue
        if broadcast and arr_broadcasts and (idx.shape[d] == 1 or a.shape[d] == 1):
            shape[d] = builtins.max(idx.shape[d], a.shape[d])
        elif broadcast and idx.shape[d] == 1:
            shape[d] = a.shape[d]
        elif (broadcast and idx.shape[d] != a.shape[d]) or idx.shape[d] > a.shape[d]:
            raise ValueError(f"{fn}(): 'indices' of shape {list(idx.shape)} does not fit 'arr' "
                             f"of shape {list(a.shape)} off axis {axis}")
    index = []
    for d in range(a.ndim):
        if d == axis:
            index.append(np.broadcast_to(np.where(idx < 0, idx + size, idx), shape))
            continue
        positions = np.arange(shape[d]) if a.shape[d] != 1 else np.zeros(shape[d], np.intp)
        index.append(positions.reshape([-1 if i == d else 1 for i in range(a.ndim)]))
    return arr, tuple(index), shape


@op
def take_along_axis(arr, indices, axis, broadcast=True):
    """Pick from ``arr`` along ``axis`` at ``indices`` (an int tensor of ``arr``'s rank).

    ``out[i][j] = arr[indices[i][j]][j]`` for ``axis=0``. With ``broadcast``
    the other dimensions of ``arr`` and ``indices`` broadcast together;
    without it ``indices`` may be smaller there. Negative indices count
    from the end; others out of range raise ``IndexError``. The gradient adds
    up at repeated positions.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[10, 11, 12], [20, 21, 22]])
    >>> pylayer.take_along_axis(x, pylayer.to_tensor([[2], [0]]), axis=1).numpy()
    array([[12],
           [20]])
    """
    arr, index, _ = _along_axis(arr, indices, axis, broadcast, "take_along_axis", True)
    return take(arr, index, True, "take_along_axis")


_PUT_REDUCTIONS = ("assign", "add")


@op
def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True,
                   broadcast=True):
    """A copy of ``arr`` with ``values`` written along ``axis`` at ``indices``.

    ``reduce='assign'`` writes (where an index repeats, the last value in C
    order wins and alone gets a gradient); ``reduce='add'`` adds, repeated
    positions adding up, and with ``include_self=False`` the positions
    written to start from zero. ``values`` (a number or a Tensor) broadcasts
    to the indices' shape; with ``broadcast`` the indices broadcast to
    ``arr``'s shape off ``axis``, without it they (and ``values``) may be
    smaller. Gradients reach ``arr`` and a ``values`` Tensor.
    ``Tensor.put_along_axis_`` is the in-place form.

    >>> import pylayer
    >>> x = pylayer.zeros([2, 3])
    >>> index = pylayer.to_tensor([[0, 0], [2, 1]])
    >>> pylayer.put_along_axis(x, index, pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]]), 1,
    ...                        reduce='add').numpy()
    array([[3., 0., 0.],
           [0., 4., 3.]], dtype=float32)
    """
    fn = "put_along_axis"
    if reduce not in _PUT_REDUCTIONS:
        raise ValueError(f"{fn}(): argument 'reduce' must be one of {list(_PUT_REDUCTIONS)}, "
                         f"got {describe(reduce)}")
    arr, index, shape = _along_axis(arr, indices, axis, broadcast, fn, False)
    dtype = arr.numpy().dtype
    if isinstance(values, Tensor):
        if values.numpy().dtype != dtype:
            values = cast(values, dtype)
        if not broadcast and values.ndim == len(shape) and all(
                v >= s for v, s in zip(values.shape, shape)):
            values = take(values, tuple(builtins.slice(0, s) for s in shape), False, fn)
    else:
        if not isinstance(values, (int, float)) or isinstance(values, bool):
            raise TypeError(f"{fn}(): argument 'values' must be a number or a Tensor, got "
                            f"{describe(values)}")
        values = make_tensor(np.full(shape, values, dtype))
    try:
        np.broadcast_to(np.empty(values.shape, bool), shape)
    except ValueError:
        raise ValueError(f"{fn}(): argument 'values' of shape {values.shape} does not "
                         f"broadcast to the shape {shape} of the indices") from None
    if values.shape != shape:
        values = broadcast_to(values, shape)
    return put(arr, index, values, reduce == "add", bool(include_self), fn)


# ----------------------------------------------------------- like another
@op
def expand_as(x, y, name=None):
    """Broadcast ``x`` to the shape of ``y`` (only ``y``'s shape is used).

    >>> import pylayer
    >>> pylayer.expand_as(pylayer.to_tensor([1.0, 2.0]), pylayer.zeros([3, 2])).shape
    [3, 2]
    """
    x = as_tensor_arg(x, "expand_as", "x", 1)
    y = as_tensor_arg(y, "expand_as", "y", 2)
    try:
        fits = np.broadcast_shapes(tuple(x.shape), tuple(y.shape)) == tuple(y.shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"expand_as(): x of shape {x.shape} cannot be broadcast to the shape "
                         f"{y.shape} of y")
    return broadcast_to(x, y.shape)


@op
def masked_fill(x, mask, value, name=None):
    """``x`` with ``value`` wherever ``mask`` (broadcast to ``x``) is true.

    ``value`` is a number or a one-element Tensor, converted to ``x``'s dtype.
    The gradient reaches ``x`` where the mask is false and a ``value`` Tensor
    from every filled position. ``x.masked_fill_(mask, value)`` is the
    in-place form.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> pylayer.masked_fill(x, x > 2.5, 0.0).numpy()
    array([[1., 2.],
           [0., 0.]], dtype=float32)
    """
    fn = "masked_fill"
    x = as_tensor_arg(x, fn, "x", 1)
    mask = as_tensor_arg(mask, fn, "mask", 2)
    if mask.numpy().dtype.kind not in "biu":
        raise TypeError(f"{fn}(): argument 'mask' must be a bool or integer Tensor, got dtype "
                        f"{mask.dtype.name}")
    try:
        fits = np.broadcast_shapes(tuple(mask.shape), tuple(x.shape)) == tuple(x.shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"{fn}(): argument 'mask' of shape {mask.shape} does not broadcast "
                         f"to x's shape {x.shape}")
    dtype = x.numpy().dtype
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{fn}(): argument 'value' must be a number or a one-element "
                             f"Tensor, got a Tensor of shape {value.shape}")
        value = reshape_to(value, ()) if value.ndim else value
        if value.numpy().dtype != dtype:
            value = cast(value, dtype)
    elif isinstance(value, (bool, int, float, np.number)):
        value = np.asarray(value).astype(dtype)
    else:
        raise TypeError(f"{fn}(): argument 'value' must be a number or a Tensor, got "
                        f"{describe(value)}")
    return where(mask, value, x)


# ------------------------------------------------------------ Tensor.set_
def set_(x, source=None, shape=None, stride=None, offset=0, name=None):
    """Make ``x`` hold ``source``'s values, shape and dtype, in place (``Tensor.set_``).

    Without ``source`` ``x`` becomes an empty tensor of shape ``[0]``.
    ``shape``, ``stride`` and ``offset`` (in elements) pick a view of
    ``source``'s flattened values; positions past its end are refused.
    ``x`` gets a copy (it does not share ``source``'s array), its version
    is bumped, and when a graph is recorded gradients flow from ``x`` to
    ``source``. A leaf that needs a gradient refuses, as in Paddle.

    >>> import pylayer
    >>> x = pylayer.zeros([3])
    >>> x.set_(pylayer.arange(6, dtype='float32'), shape=[2, 2], stride=[1, 2], offset=1)
    ... # doctest: +ELLIPSIS
    Tensor(...)
    >>> x.numpy()
    array([[1., 3.],
           [2., 4.]], dtype=float32)
    """
    fn = "set_"
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument 'x' must be a Tensor, got {describe(x)}")
    if source is None:
        source = make_tensor(np.zeros([0], x.numpy().dtype))
    elif not isinstance(source, Tensor):
        raise TypeError(f"{fn}(): argument 'source' must be a Tensor or None, got "
                        f"{describe(source)}")
    count = source.size
    shape = list(source.shape) if shape is None else check_ints(shape, fn, "shape")
    if any(s < 0 for s in shape):
        raise ValueError(f"{fn}(): argument 'shape' must hold non-negative sizes, got {shape}")
    if stride is None:
        stride = [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
    else:
        stride = check_ints(stride, fn, "stride")
    offset = check_int(offset, fn, "offset")
    if len(stride) != len(shape) or builtins.min(stride + [0]) < 0 or offset < 0:
        raise ValueError(f"{fn}(): 'stride' must hold one non-negative int per dimension of "
                         f"'shape' and 'offset' must be non-negative, got shape {shape}, "
                         f"stride {stride} and offset {offset}")
    if 0 not in shape:
        last = offset + builtins.sum((s - 1) * st for s, st in zip(shape, stride))
        if last >= count:
            raise ValueError(f"{fn}(): shape {shape}, stride {stride} and offset {offset} "
                             f"reach element {last} of 'source', which has {count}")
    flat = np.arange(count)[offset:]
    positions = np.lib.stride_tricks.as_strided(
        flat, shape, [st * flat.itemsize for st in stride], writeable=False)
    if source.ndim != 1:
        source = reshape_to(source, (count,), fn)
    view = take(source, (np.array(positions),), True, fn)
    refuse_leaf(x, needs_grad(x, source), fn)
    take_over(x, view)
    return x
