"""Manipulation ops: join and split (concat, stack, unstack, split, chunk), repeat
(tile), pick by index (gather, index_select, slice, take_along_axis, put_along_axis,
masked_fill), reorder (flip, roll), numel and ``Tensor.set_``.

Each op that records a node is declared as a record next to its forward, and its
gradient rule is written with these same ops, so double backward works. None of
them keeps a tensor for backward: sizes, axes and indices are attributes. The
changes of shape alone (reshape, flatten, squeeze, transpose, broadcasts, cast...)
are ``ops/shape.pyx``; the reads and writes at an index, ``ops/indexing.py``.
"""
import builtins
import math

import numpy as np

from pylayer._kernels.dtypes import is_bool, is_floating, is_integer, number_in
from pylayer._core.graph import Op, make_output, make_outputs, needs_grad
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._arguments import check_axis, check_count, check_int, check_ints, describe
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.dispatch import op
from pylayer.ops.math import where
from pylayer.ops.indexing import put, take
from pylayer.ops.inplace import inplace_twin, refuse_leaf, take_over
from pylayer.ops.reduction import sum as reduce_sum
from pylayer.ops.shape import broadcast_to, cast, reshape_exact, spellings

__all__ = ["concat", "stack", "unstack", "split", "chunk", "tile", "gather", "index_select",
           "slice", "flip", "roll", "numel", "take_along_axis", "put_along_axis", "masked_fill",
           "masked_fill_"]


# --------------------------------------------------------- join and split
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


def _pieces_grads(grads, axis, sizes=None):
    """The gradients of the pieces of a split (``sizes`` along ``axis``) or an unstack
    (None: pieces without that axis), zeros for a piece no gradient reached."""
    like = next(g for g in grads if g is not None)
    shape = list(like.shape)
    filled = []
    for i, g in enumerate(grads):
        if g is None:
            if sizes is not None:
                shape[axis] = sizes[i]
            g = make_tensor(np.zeros(shape, like.numpy().dtype))
        filled.append(g)
    return filled


def _concat_vjp(g, sizes, axis, needs_input_grad):
    pieces = split(g, list(sizes), axis)
    return tuple(p if needed else None for p, needed in zip(pieces, needs_input_grad))


CONCAT = Op("concat", inputs=None, attrs=("sizes", "axis"), vjp=_concat_vjp)


@op(method=True)
@spellings([("tensors", "x"), ("dim", "axis")])
def concat(x, axis=0, name=None):
    """Join a list of tensors along an existing ``axis``.

    >>> import pylayer
    >>> pylayer.concat([pylayer.zeros([1, 2]), pylayer.ones([2, 2])]).numpy()
    array([[0., 0.],
           [1., 1.],
           [1., 1.]], dtype=float32)
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
    return make_output(CONCAT, out, tuple(tensors), (sizes, axis))


def _stack_vjp(g, axis, needs_input_grad):
    pieces = unstack(g, axis)
    return tuple(p if needed else None for p, needed in zip(pieces, needs_input_grad))


STACK = Op("stack", inputs=None, attrs=("axis",), vjp=_stack_vjp)


@op(method=True)
@spellings([("tensors", "x"), ("dim", "axis")])
def stack(x, axis=0, name=None):
    """Join a list of same-shaped tensors along a new ``axis``.

    >>> import pylayer
    >>> pylayer.stack([pylayer.zeros([2]), pylayer.ones([2])], axis=1).numpy()
    array([[0., 1.],
           [0., 1.]], dtype=float32)
    """
    tensors = _tensor_list(x, "stack")
    arrays = [t.numpy() for t in tensors]
    axis = check_axis(axis, arrays[0].ndim + 1, "stack")
    if len({a.shape for a in arrays}) > 1:
        raise ValueError(f"stack(): the tensors in argument 'x' must have the same shape, got "
                         f"{[list(a.shape) for a in arrays]}")
    return make_output(STACK, np.stack(arrays, axis=axis), tuple(tensors), (axis,))


UNSTACK = Op("unstack", multi_output=True, attrs=("axis",),
             vjp=(lambda grads, axis: stack(_pieces_grads(grads, axis), axis),), view=True)


@op(method=True)
def unstack(x, axis=0, num=None):
    """Split ``x`` along ``axis`` into a list of tensors with that dimension removed.

    >>> import pylayer
    >>> [t.numpy() for t in pylayer.unstack(pylayer.to_tensor([[1, 2], [3, 4]]), axis=1)]
    [array([1, 3]), array([2, 4])]
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
    return make_outputs(UNSTACK, [moved[i] for i in range(a.shape[axis])], (x,), (axis,))


SPLIT = Op("split", multi_output=True, attrs=("sizes", "axis"),
           vjp=(lambda grads, sizes, axis: concat(_pieces_grads(grads, axis, sizes), axis),), view=True)


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
    return make_outputs(SPLIT, np.split(a, bounds, axis=axis), (x,), (tuple(sizes), axis))


@op(method=True)
def split(x, num_or_sections, axis=0, name=None):
    """Split ``x`` along ``axis`` into equal parts (an int) or given sizes (a list, one -1 allowed).

    >>> import pylayer
    >>> [t.shape for t in pylayer.split(pylayer.zeros([6, 2]), 3)]
    [[2, 2], [2, 2], [2, 2]]
    >>> [t.shape for t in pylayer.split(pylayer.zeros([5, 2]), [2, -1])]
    [[2, 2], [3, 2]]
    """
    x = as_tensor_arg(x, "split", "x", 1)
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError("split(): argument 'x' (position 1) must have at least one dimension")
    axis = check_axis(axis, a.ndim, "split")
    return _split(x, _section_sizes(num_or_sections, a.shape[axis], "split"), axis)


@op(method=True)
@spellings([("input", "x"), ("dim", "axis")])
def chunk(x, chunks, axis=0, name=None):
    """Split ``x`` into ``chunks`` equal parts along ``axis`` (the size must divide).

    >>> import pylayer
    >>> [t.numpy() for t in pylayer.chunk(pylayer.arange(6), 3)]
    [array([0, 1]), array([2, 3]), array([4, 5])]
    """
    x = as_tensor_arg(x, "chunk", "x", 1)
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError("chunk(): argument 'x' (position 1) must have at least one dimension")
    axis = check_axis(axis, a.ndim, "chunk")
    return _split(x, _section_sizes(check_int(chunks, "chunk", "chunks"), a.shape[axis], "chunk",
                                    "chunks"), axis)


# ------------------------------------------------------------- repetition
def _tile_vjp(g, x_shape, padded, reps):
    """Sum the gradient over the copies: each dimension split into (copy, size)."""
    g = reshape_exact(g, tuple(v for pair in zip(reps, padded) for v in pair))
    axes = [2 * i for i, r in enumerate(reps) if r != 1]
    if axes:
        g = reduce_sum(g, axis=axes, keepdim=True)
    return reshape_exact(g, x_shape)


TILE = Op("tile", attrs=("x_shape", "padded", "reps"), vjp=(_tile_vjp,))


@op(method=True)
@spellings([("input", "x"), ("dims", "repeat_times")])
def tile(x, repeat_times, name=None):
    """Repeat ``x`` ``repeat_times[i]`` times along each dimension (numpy's ``tile``).

    >>> import pylayer
    >>> pylayer.tile(pylayer.to_tensor([[1, 2]]), [2, 2]).numpy()
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    x = as_tensor_arg(x, "tile", "x", 1)
    a = x.numpy()
    reps = check_ints(repeat_times, "tile", "repeat_times")
    if any(r < 0 for r in reps):
        raise ValueError(f"tile(): 'repeat_times' must hold non-negative ints, got {reps}")
    ndim = builtins.max(a.ndim, len(reps))
    padded = (1,) * (ndim - a.ndim) + a.shape
    reps = (1,) * (ndim - len(reps)) + tuple(reps)
    check_count(math.prod(padded) * math.prod(reps), "tile", "repeat_times", a.dtype)
    out = np.tile(a.reshape(padded), reps)
    return make_output(TILE, out, (x,), (a.shape, padded, reps))


# --------------------------------------------------------- index-based
def _index_arg(index, fn, ranks, arg="index"):
    """The integer positions of ``index``, as a private copy (backward keeps them)."""
    if isinstance(index, Tensor):
        idx = np.array(index.numpy(), copy=True)
    else:
        idx = np.array(index, copy=True)
        if idx.size == 0 and is_floating(idx.dtype):    # np.array([]) is float64
            idx = idx.astype(np.int64)
    if not is_integer(idx.dtype):
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


@op(method=True)
@spellings([("input", "x"), ("dim", "axis")])
def gather(x, index, axis=None, name=None):
    """Select entries of ``x`` along ``axis`` (default 0) at the positions in ``index``.

    ``index`` is a 0-d or 1-d integer tensor; repeated positions add up in
    the gradient.

    >>> import pylayer
    >>> g = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], stop_gradient=False)
    >>> out = pylayer.gather(g, pylayer.to_tensor([2, 0, 2]))
    >>> out.sum().backward()
    >>> out.numpy()
    array([[5., 6.],
           [1., 2.],
           [5., 6.]], dtype=float32)
    >>> g.grad.numpy()
    array([[1., 1.],
           [0., 0.],
           [2., 2.]], dtype=float32)
    """
    return _take_along(x, index, axis, "gather", (0, 1))


@op(method=True)
@spellings([("input", "x"), ("dim", "axis")])
def index_select(x, index, axis=0, name=None):
    """Select slices of ``x`` along ``axis`` at the positions of the 1-d ``index``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> pylayer.index_select(x, pylayer.to_tensor([2, 2]), axis=1).numpy()
    array([[3, 3],
           [6, 6]])
    """
    return _take_along(x, index, check_int(axis, "index_select", "axis"), "index_select", (1,))


@op(method=True)
@spellings([("input", "x")])
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
@op(method=True)
def numel(x, name=None):
    """The number of elements of ``x`` as a 0-D int64 Tensor (``Tensor.numel()`` too).

    >>> import pylayer
    >>> n = pylayer.numel(pylayer.zeros([2, 3]))
    >>> n.shape, n.dtype, int(n)
    ([], pylayer.int64, 6)
    """
    x = as_tensor_arg(x, "numel", "x", 1)
    return make_tensor(np.array(x.size, np.int64))


FLIP = Op("flip", attrs=("axes",), vjp=(lambda g, axes: flip(g, list(axes)),))


@op(method=True)
def flip(x, axis, name=None):
    """Reverse the order of elements along ``axis`` (an int or a list).

    >>> import pylayer
    >>> pylayer.flip(pylayer.to_tensor([[1, 2], [3, 4]]), axis=[0, 1]).numpy()
    array([[4, 3],
           [2, 1]])
    """
    x = as_tensor_arg(x, "flip", "x", 1)
    a = x.numpy()
    axes = tuple(sorted({check_axis(v, a.ndim, "flip") for v in check_ints(axis, "flip", "axis")}))
    out = np.flip(a, axes).copy() if a.ndim else a.copy()     # np.flip gives a view
    return make_output(FLIP, out, (x,), (axes,))


def _roll_vjp(g, shifts, axes):
    return roll(g, [-s for s in shifts], None if axes is None else list(axes))


ROLL = Op("roll", attrs=("shifts", "axes"), vjp=(_roll_vjp,))


@op(method=True)
@spellings([("input", "x"), ("dims", "axis")])
def roll(x, shifts, axis=None, name=None):
    """Shift elements circularly along ``axis``; with ``axis=None`` over the flattened tensor.

    >>> import pylayer
    >>> pylayer.roll(pylayer.to_tensor([1, 2, 3, 4]), 1).numpy()
    array([4, 1, 2, 3])
    >>> pylayer.roll(pylayer.to_tensor([[1, 2], [3, 4]]), 1, axis=0).numpy()
    array([[3, 4],
           [1, 2]])
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
    return make_output(ROLL, out, (x,), (tuple(shifts), axes))


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


@op(method=True)
@spellings([("input", "arr"), ("dim", "axis")])
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


@op(method=True)
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
    >>> _ = x.put_along_axis_(index, 1.0, 1, reduce='add')
    >>> x.numpy()
    array([[2., 0., 0.],
           [0., 1., 1.]], dtype=float32)
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
    return put(arr, index, values, reduce == "add", bool(include_self))


# ----------------------------------------------------------- like another
@op(method=True, inplace=True)
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
    if not (is_integer(mask.numpy().dtype) or is_bool(mask.numpy().dtype)):
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
        value = reshape_exact(value, ())
        if value.numpy().dtype != dtype:
            value = cast(value, dtype)
    elif isinstance(value, (bool, int, float, np.number)):
        value = number_in(value, dtype, fn, "value")
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
        source = reshape_exact(source, (count,))
    view = take(source, (np.array(positions),), True, fn)
    refuse_leaf(x, needs_grad(x, source), fn)
    take_over(x, view)
    return x


# ----------------------------------------- Paddle's function-level in-place twins
masked_fill_ = inplace_twin(masked_fill)
