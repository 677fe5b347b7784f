"""Shape and layout ops: flatten, squeeze, concat, split, tile, gather, slice, flip, roll...

``reshape``, ``transpose``, ``broadcast_to``, ``expand``, ``cast`` and
``assign`` are hot ops that live in :mod:`pylayer._ops`. Every op here
records a node whose backward is written with these same ops, so double
backward works. None of them saves a tensor for backward: shapes, axes and
indices are kept in the node's attributes.
"""
import builtins

import numpy as np

from pylayer import _state
from pylayer._engine import make_output, make_outputs
from pylayer._ops import as_tensor_arg, sum as reduce_sum
from pylayer._tensor import Tensor, make_tensor
from pylayer.ops._arguments import check_count
from pylayer.ops.indexing import take

__all__ = ["flatten", "squeeze", "unsqueeze", "concat", "stack", "unstack", "split", "chunk",
           "tile", "gather", "index_select", "slice", "flip", "roll", "numel"]


# -------------------------------------------------------------- arguments
def _int(value, fn, arg):
    if isinstance(value, Tensor):
        if value.size != 1 or value.dtype.np_dtype.kind not in "iu":
            raise TypeError(f"{fn}(): argument '{arg}' must be an int or a one-element integer "
                            f"Tensor, got a Tensor of shape {value.shape} and dtype "
                            f"{value.dtype.name}")
        return int(value.item())
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int, got {type(value).__name__}")
    return int(value)


def _ints(value, fn, arg):
    """An int, a list/tuple of ints (or one-element Tensors), or a 1-D Tensor -> list of ints."""
    if isinstance(value, Tensor) and value.ndim == 1:
        value = value.numpy().tolist()
    if isinstance(value, (list, tuple)):
        return [_int(v, fn, arg) for v in value]
    return [_int(value, fn, arg)]


def _axis(value, ndim, fn, arg="axis"):
    """Normalize one axis into ``[0, ndim)``; a 0-d tensor accepts 0 and -1."""
    axis = _int(value, fn, arg)
    size = builtins.max(ndim, 1)
    if not -size <= axis < size:
        raise ValueError(f"{fn}(): argument '{arg}' is {axis}, out of range for a tensor of "
                         f"rank {ndim} (expected [{-size}, {size - 1}])")
    return axis % size


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
    return make_output(a.reshape(shape), (x,), op_name, _reshape_to_bw, attrs=a.shape)


def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """Merge the dimensions ``start_axis`` to ``stop_axis`` (inclusive) into one.

    A 0-d tensor becomes shape ``[1]``.

    >>> import pylayer
    >>> pylayer.flatten(pylayer.zeros([2, 3, 4]), start_axis=1).shape
    [2, 12]
    """
    if _state.static_mode:
        return _state.static_call(flatten, x, start_axis=start_axis, stop_axis=stop_axis,
                                  name=name)
    x = as_tensor_arg(x, "flatten", "x", 1)
    shape = x.numpy().shape
    start = _axis(start_axis, len(shape), "flatten", "start_axis")
    stop = _axis(stop_axis, len(shape), "flatten", "stop_axis")
    if start > stop:
        raise ValueError(f"flatten(): 'start_axis' ({start_axis}) must not come after "
                         f"'stop_axis' ({stop_axis})")
    merged = int(np.prod(shape[start:stop + 1], dtype=np.int64))
    return reshape_to(x, shape[:start] + (merged,) + shape[stop + 1:], "flatten")


def squeeze(x, axis=None, name=None):
    """Remove dimensions of size 1: all of them, or those listed in ``axis``.

    Listed axes whose size is not 1 are left alone, as in Paddle.

    >>> import pylayer
    >>> pylayer.squeeze(pylayer.zeros([1, 3, 1]), axis=0).shape
    [3, 1]
    """
    if _state.static_mode:
        return _state.static_call(squeeze, x, axis=axis, name=name)
    x = as_tensor_arg(x, "squeeze", "x", 1)
    shape = x.numpy().shape
    if axis is None:
        drop = {i for i, size in enumerate(shape) if size == 1}
    else:
        drop = {_axis(a, len(shape), "squeeze") for a in _ints(axis, "squeeze", "axis")}
        drop = {i for i in drop if i < len(shape) and shape[i] == 1}
    return reshape_to(x, tuple(size for i, size in enumerate(shape) if i not in drop), "squeeze")


def unsqueeze(x, axis, name=None):
    """Insert dimensions of size 1 at ``axis`` (an int or a list, inserted in order).

    >>> import pylayer
    >>> pylayer.unsqueeze(pylayer.zeros([5, 10]), axis=[0, 2]).shape
    [1, 5, 1, 10]
    """
    if _state.static_mode:
        return _state.static_call(unsqueeze, x, axis, name=name)
    x = as_tensor_arg(x, "unsqueeze", "x", 1)
    shape = list(x.numpy().shape)
    for a in _ints(axis, "unsqueeze", "axis"):
        if not -len(shape) - 1 <= a <= len(shape):
            raise ValueError(f"unsqueeze(): axis {a} is out of range for inserting into a "
                             f"tensor of rank {len(shape)}")
        shape.insert(a % (len(shape) + 1), 1)
    return reshape_to(x, tuple(shape), "unsqueeze")


# --------------------------------------------------------- join and split
def _concat_bw(node, g):
    sizes, axis = node.attrs
    pieces = split(g, list(sizes), axis)
    return tuple(p if nxt is not None else None for p, nxt in zip(pieces, node.next_nodes))


def concat(x, axis=0, name=None):
    """Join a list of tensors along an existing ``axis``.

    >>> import pylayer
    >>> pylayer.concat([pylayer.zeros([1, 2]), pylayer.ones([2, 2])]).shape
    [3, 2]
    """
    if _state.static_mode:
        return _state.static_call(concat, x, axis=axis, name=name)
    tensors = _tensor_list(x, "concat")
    arrays = [t.numpy() for t in tensors]
    if arrays[0].ndim == 0:
        raise ValueError("concat(): 0-d tensors cannot be concatenated; use stack()")
    axis = _axis(axis, arrays[0].ndim, "concat")
    try:
        out = np.concatenate(arrays, axis=axis)
    except ValueError:
        raise ValueError(f"concat(): the tensors in argument 'x' must have the same shape "
                         f"except along axis {axis}, got shapes "
                         f"{[list(a.shape) for a in arrays]}") from None
    sizes = tuple(a.shape[axis] for a in arrays)
    return make_output(out, tuple(tensors), "concat", _concat_bw, attrs=(sizes, axis))


def _stack_bw(node, g):
    pieces = unstack(g, node.attrs)
    return tuple(p if nxt is not None else None for p, nxt in zip(pieces, node.next_nodes))


def stack(x, axis=0, name=None):
    """Join a list of same-shaped tensors along a new ``axis``.

    >>> import pylayer
    >>> pylayer.stack([pylayer.zeros([2]), pylayer.ones([2])], axis=1).shape
    [2, 2]
    """
    if _state.static_mode:
        return _state.static_call(stack, x, axis=axis, name=name)
    tensors = _tensor_list(x, "stack")
    arrays = [t.numpy() for t in tensors]
    axis = _axis(axis, arrays[0].ndim + 1, "stack")
    if len({a.shape for a in arrays}) > 1:
        raise ValueError(f"stack(): the tensors in argument 'x' must have the same shape, got "
                         f"{[list(a.shape) for a in arrays]}")
    return make_output(np.stack(arrays, axis=axis), tuple(tensors), "stack", _stack_bw,
                       attrs=axis)


def _unstack_bw(node, grads):
    return (stack(_zeros_for_missing(node, grads), node.attrs),)


def unstack(x, axis=0, num=None):
    """Split ``x`` along ``axis`` into a list of tensors with that dimension removed.

    >>> import pylayer
    >>> [t.shape for t in pylayer.unstack(pylayer.zeros([2, 3]), axis=1)]
    [[2], [2], [2]]
    """
    if _state.static_mode:
        return _state.static_call(unstack, x, axis=axis, num=num)
    x = as_tensor_arg(x, "unstack", "x", 1)
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError("unstack(): argument 'x' (position 1) must have at least one dimension")
    axis = _axis(axis, a.ndim, "unstack")
    if num is not None and _int(num, "unstack", "num") != a.shape[axis]:
        raise ValueError(f"unstack(): argument 'num' must be the size {a.shape[axis]} of axis "
                         f"{axis}, got {num}")
    moved = np.moveaxis(a, axis, 0)
    return make_outputs([moved[i] for i in range(a.shape[axis])], (x,), "unstack",
                        _unstack_bw, attrs=axis)


def _split_bw(node, grads):
    return (concat(_zeros_for_missing(node, grads), node.attrs),)


def _section_sizes(num_or_sections, dim, fn, arg="num_or_sections"):
    if isinstance(num_or_sections, (list, tuple)) or (
            isinstance(num_or_sections, Tensor) and num_or_sections.ndim == 1):
        sizes = _ints(num_or_sections, fn, arg)
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
    num = _int(num_or_sections, fn, arg)
    if num <= 0 or dim % num:
        raise ValueError(f"{fn}(): argument '{arg}' is {num}, but the split axis has size "
                         f"{dim}, which cannot be divided into {num} equal parts")
    return [dim // num] * num


def _split(x, sizes, axis):
    a = x.numpy()
    bounds = np.cumsum(sizes)[:-1]
    return make_outputs(np.split(a, bounds, axis=axis), (x,), "split", _split_bw, attrs=axis)


def split(x, num_or_sections, axis=0, name=None):
    """Split ``x`` along ``axis`` into equal parts (an int) or given sizes (a list, one -1 allowed).

    >>> import pylayer
    >>> [t.shape for t in pylayer.split(pylayer.zeros([5, 2]), [2, -1])]
    [[2, 2], [3, 2]]
    """
    if _state.static_mode:
        return _state.static_call(split, x, num_or_sections, axis=axis, name=name)
    x = as_tensor_arg(x, "split", "x", 1)
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError("split(): argument 'x' (position 1) must have at least one dimension")
    axis = _axis(axis, a.ndim, "split")
    return _split(x, _section_sizes(num_or_sections, a.shape[axis], "split"), axis)


def chunk(x, chunks, axis=0, name=None):
    """Split ``x`` into ``chunks`` equal parts along ``axis`` (the size must divide).

    >>> import pylayer
    >>> len(pylayer.chunk(pylayer.zeros([6]), 3))
    3
    """
    if _state.static_mode:
        return _state.static_call(chunk, x, chunks, axis=axis, name=name)
    x = as_tensor_arg(x, "chunk", "x", 1)
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError("chunk(): argument 'x' (position 1) must have at least one dimension")
    axis = _axis(axis, a.ndim, "chunk")
    return _split(x, _section_sizes(_int(chunks, "chunk", "chunks"), a.shape[axis], "chunk",
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


def tile(x, repeat_times, name=None):
    """Repeat ``x`` ``repeat_times[i]`` times along each dimension (numpy's ``tile``).

    >>> import pylayer
    >>> pylayer.tile(pylayer.to_tensor([1, 2]), [2]).numpy()
    array([1, 2, 1, 2])
    """
    if _state.static_mode:
        return _state.static_call(tile, x, repeat_times, name=name)
    x = as_tensor_arg(x, "tile", "x", 1)
    a = x.numpy()
    reps = _ints(repeat_times, "tile", "repeat_times")
    if any(r < 0 for r in reps):
        raise ValueError(f"tile(): 'repeat_times' must hold non-negative ints, got {reps}")
    ndim = builtins.max(a.ndim, len(reps))
    padded = (1,) * (ndim - a.ndim) + a.shape
    reps = (1,) * (ndim - len(reps)) + tuple(reps)
    check_count(int(np.prod(padded, dtype=np.float64) * np.prod(reps, dtype=np.float64)), "tile",
                "repeat_times")
    out = np.tile(a.reshape(padded), reps)
    return make_output(out, (x,), "tile", _tile_bw, attrs=(a.shape, padded, reps))


# --------------------------------------------------------- index-based
def _index_arg(index, fn, ranks):
    """The integer positions of ``index``, as a private copy (backward keeps them)."""
    if isinstance(index, Tensor):
        idx = np.array(index.numpy(), copy=True)
    else:
        idx = np.array(index, copy=True)
        if idx.size == 0 and idx.dtype.kind == "f":
            idx = idx.astype(np.int64)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'index' must hold integers, got dtype {idx.dtype}")
    if idx.ndim not in ranks:
        raise ValueError(f"{fn}(): argument 'index' must have rank "
                         f"{' or '.join(map(str, ranks))}, got shape {list(idx.shape)}")
    return idx


def _take_along(x, index, axis, fn, ranks):
    x = as_tensor_arg(x, fn, "x", 1)
    a = x.numpy()
    idx = _index_arg(index, fn, ranks)
    axis = _axis(0 if axis is None else axis, a.ndim, fn)
    size = a.shape[axis] if a.ndim else 1
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise IndexError(f"{fn}(): 'index' holds values outside [{-size}, {size}) for axis "
                         f"{axis} of size {size}")
    return take(x, (builtins.slice(None),) * axis + (idx,), True, fn)


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
    if _state.static_mode:
        return _state.static_call(gather, x, index, axis=axis, name=name)
    return _take_along(x, index, axis, "gather", (0, 1))


def index_select(x, index, axis=0, name=None):
    """Select slices of ``x`` along ``axis`` at the positions of the 1-d ``index``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> pylayer.index_select(x, pylayer.to_tensor([2, 2]), axis=1).numpy()
    array([[3, 3],
           [6, 6]])
    """
    if _state.static_mode:
        return _state.static_call(index_select, x, index, axis=axis, name=name)
    return _take_along(x, index, _int(axis, "index_select", "axis"), "index_select", (1,))


def slice(x, axes, starts, ends):
    """Take ``x[starts[i]:ends[i]]`` along each of ``axes``; bounds are clamped to the size.

    Negative bounds count from the end, as in Python slicing.

    >>> import pylayer
    >>> x = pylayer.arange(12).reshape([3, 4])
    >>> pylayer.slice(x, axes=[0, 1], starts=[1, 0], ends=[3, -1]).numpy()
    array([[ 4,  5,  6],
           [ 8,  9, 10]])
    """
    if _state.static_mode:
        return _state.static_call(slice, x, axes, starts, ends)
    x = as_tensor_arg(x, "slice", "x", 1)
    ndim = x.ndim
    axes = [_axis(a, ndim, "slice", "axes") for a in _ints(axes, "slice", "axes")]
    starts = _ints(starts, "slice", "starts")
    ends = _ints(ends, "slice", "ends")
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(f"slice(): 'axes', 'starts' and 'ends' must have the same length, got "
                         f"{len(axes)}, {len(starts)} and {len(ends)}")
    index = [builtins.slice(None)] * ndim
    for axis, start, end in zip(axes, starts, ends):
        index[axis] = builtins.slice(start, end)
    return take(x, tuple(index), False, "slice")


# ------------------------------------------------------------- reordering
def numel(x, name=None):
    """The number of elements of ``x`` as a 0-D int64 Tensor (``Tensor.numel()`` too).

    >>> import pylayer
    >>> n = pylayer.numel(pylayer.zeros([2, 3]))
    >>> n.shape, n.dtype, int(n)
    ([], pylayer.int64, 6)
    """
    if _state.static_mode:
        return _state.static_call(numel, x, name=name)
    x = as_tensor_arg(x, "numel", "x", 1)
    return make_tensor(np.array(x.size, np.int64))


def _flip_bw(node, g):
    return (flip(g, list(node.attrs)),)


def flip(x, axis, name=None):
    """Reverse the order of elements along ``axis`` (an int or a list).

    >>> import pylayer
    >>> pylayer.flip(pylayer.to_tensor([1, 2, 3]), axis=0).numpy()
    array([3, 2, 1])
    """
    if _state.static_mode:
        return _state.static_call(flip, x, axis, name=name)
    x = as_tensor_arg(x, "flip", "x", 1)
    a = x.numpy()
    axes = tuple(sorted({_axis(v, a.ndim, "flip") for v in _ints(axis, "flip", "axis")}))
    out = np.flip(a, axes) if a.ndim else a
    return make_output(out, (x,), "flip", _flip_bw, attrs=axes)


def _roll_bw(node, g):
    shifts, axes = node.attrs
    return (roll(g, [-s for s in shifts], None if axes is None else list(axes)),)


def roll(x, shifts, axis=None, name=None):
    """Shift elements circularly along ``axis``; with ``axis=None`` over the flattened tensor.

    >>> import pylayer
    >>> pylayer.roll(pylayer.to_tensor([1, 2, 3, 4]), 1).numpy()
    array([4, 1, 2, 3])
    """
    if _state.static_mode:
        return _state.static_call(roll, x, shifts, axis=axis, name=name)
    x = as_tensor_arg(x, "roll", "x", 1)
    a = x.numpy()
    shifts = _ints(shifts, "roll", "shifts")
    if axis is None:
        if len(shifts) != 1:
            raise ValueError(f"roll(): with axis=None 'shifts' must be one int, got {shifts}")
        out = np.roll(a, shifts[0])
        axes = None
    else:
        axes = tuple(_axis(v, a.ndim, "roll") for v in _ints(axis, "roll", "axis"))
        if len(axes) != len(shifts):
            raise ValueError(f"roll(): 'shifts' ({len(shifts)} values) and 'axis' "
                             f"({len(axes)} values) must have the same length")
        out = np.roll(a, shifts, axes) if a.ndim else np.array(a)
    return make_output(out, (x,), "roll", _roll_bw, attrs=(tuple(shifts), axes))
