"""Selecting and placing: unique values, searching sorted tensors, masked and indexed scatters and fills, and the other index-driven ops.

The placing ops (``masked_scatter``, ``index_fill``, ``select_scatter``,
``slice_scatter``, ``diagonal_scatter``, ``fill_diagonal_tensor``,
``Tensor.fill_diagonal_``) work out the flat positions of ``x`` they write, with
numpy, and write there with the ``put_rows`` record of ``ops/scatter.py``: ``x``
gets the gradient of the positions not written, the values that of the positions
they were written to. ``take``, ``multiplex`` and ``scatter_add`` are built the
same way on ``take_rows`` and ``put_rows``, so every order of derivative is
recorded. ``scatter_reduce`` records its ``prod``, ``amin`` and ``amax``
reductions itself; ties of ``amin``/``amax`` share the gradient evenly, as in
Paddle.

``unique``, ``unique_consecutive``, ``argwhere``, ``searchsorted``,
``bucketize``, ``isin`` and ``shard_index`` give indices, counts or masks: no
gradient.
"""
import math

import numpy as np

from pylayer._kernels.dtypes import is_bool, is_complex, is_floating, is_integer, number_in
from pylayer._core.graph import Op, make_output, needs_grad
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._arguments import (check_axis, check_choice, check_dtype, check_int,
                                    check_ints, describe)
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.arithmetic import add, divide, multiply
from pylayer.ops.declaration import declare
from pylayer.ops.dispatch import has_static_variable, op
from pylayer.ops.inplace import inplace, inplace_twin, refuse_leaf, write_result
from pylayer.ops.manipulation import _along_axis, stack
from pylayer.ops.indexing import take as _take_index
from pylayer.ops.scatter import _index, _in_range, _put_rows, _refuse_variable, _take_rows
from pylayer.ops.shape import broadcast_to, cast, reshape

__all__ = ["unique", "unique_consecutive", "argwhere", "masked_scatter", "searchsorted",
           "bucketize", "index_fill", "take", "take_along_dim", "select_scatter",
           "slice_scatter", "diagonal_scatter", "scatter_add", "scatter_reduce", "multiplex",
           "shard_index", "isin",
           "masked_scatter_", "index_fill_", "scatter_add_"]


# ----------------------------------------------------------------------- helpers
def _flat(x):
    return x if x.ndim == 1 else reshape(x, [x.size])


def _put_at(x, positions, values):
    """A copy of ``x`` with ``values`` (a Tensor of x's dtype with ``positions.size``
    elements) written at the distinct flat ``positions``."""
    out = _put_rows(_flat(x), positions.reshape(-1).astype(np.intp), _flat(values), "write")
    return out if x.ndim == 1 else reshape(out, x.shape)


def _grid(shape):
    """The flat position of every element of a tensor of ``shape``."""
    return np.arange(math.prod(shape), dtype=np.intp).reshape(shape)


def _values_like(values, x, fn, arg, position):
    """``values`` as a Tensor of ``x``'s dtype (cast as Paddle does)."""
    values = as_tensor_arg(values, fn, arg, position)
    if values.numpy().dtype != x.numpy().dtype:
        values = cast(values, x.dtype)
    return values


def _same_shape(value, shape, fn, arg, what):
    if list(value.shape) != list(shape):
        raise ValueError(f"{fn}(): argument '{arg}' must have the shape {list(shape)} of {what}, "
                         f"got {list(value.shape)}")


def _write_out(result, out, fn):
    """``result``, or ``out`` holding it when the caller passed ``out``."""
    if out is None:
        return result
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be a Tensor or None, got {describe(out)}")
    recording = needs_grad(result)
    refuse_leaf(out, recording, f"{fn}(out=...)")
    write_result(out, result, recording, f"{fn}(out=...)", resizes=True)
    return out


def _index_dtype(dtype, fn):
    dtype = check_dtype(dtype, fn, "dtype", kinds="iu", allow_none=False)
    if dtype not in (np.int32, np.int64):
        raise ValueError(f"{fn}(): argument 'dtype' must be 'int32' or 'int64', got {dtype}")
    return dtype


def _real_numbers(x, fn, arg="x", position=1):
    x = as_tensor_arg(x, fn, arg, position)
    dtype = x.numpy().dtype
    if not (is_integer(dtype) or is_floating(dtype)) or is_bool(dtype):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be an int or float "
                        f"Tensor, got dtype {x.dtype.name}")
    return x


# ------------------------------------------------------------------------ unique
def _results(out, extras, dtype):
    tensors = [make_tensor(out)] + [make_tensor(np.asarray(e).astype(dtype)) for e in extras]
    return tensors[0] if len(tensors) == 1 else tuple(tensors)


@declare(method=True)
def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", sorted=True, name=None):
    """The distinct values of ``x``, sorted, with where they come from and how often they occur.

    Without ``axis`` ``x`` is flattened; with it the distinct slices along
    ``axis`` are kept. ``return_index`` adds the position of each value's first
    occurrence, ``return_inverse`` the position in the result of every element
    (or slice) of ``x``, ``return_counts`` how often each occurs; they are
    returned after the values, in that order, in ``dtype`` (int32 or int64).
    The result is always sorted (``sorted=False`` too, as in Paddle on CPU);
    NaNs stay apart. ``x`` is an int or float Tensor; the result takes no
    gradient, and a static Program cannot record it (its size depends on the
    values).

    >>> import pylayer
    >>> x = pylayer.to_tensor([2, 3, 3, 1, 5, 3])
    >>> out, index, inverse, counts = pylayer.unique(
    ...     x, return_index=True, return_inverse=True, return_counts=True)
    >>> out.numpy(), index.numpy(), inverse.numpy(), counts.numpy()
    (array([1, 2, 3, 5]), array([3, 0, 1, 4]), array([1, 2, 2, 0, 3, 2]), array([1, 1, 3, 1]))
    >>> pylayer.unique(pylayer.to_tensor([[2, 1], [3, 0], [2, 1]]), axis=0).numpy()
    array([[2, 1],
           [3, 0]])
    """
    fn = "unique"
    _refuse_variable(fn, x)
    x = _real_numbers(x, fn)
    dtype = _index_dtype(dtype, fn)
    a = x.numpy()
    if axis is None:
        a = a.reshape(-1)
        found = np.unique(a, True, True, True, equal_nan=False)
    else:
        axis = check_axis(axis, a.ndim, fn)
        if a.ndim == 0:
            a = a.reshape(1)
        found = np.unique(a, True, True, True, axis=axis, equal_nan=False)
    out, index, inverse, counts = found
    extras = [e for e, wanted in ((index, return_index), (inverse.reshape(-1), return_inverse),
                                  (counts, return_counts)) if wanted]
    return _results(out, extras, dtype)


@declare(method=True)
def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64",
                       name=None):
    """``x`` with each run of equal consecutive values (or slices along ``axis``) kept once.

    Without ``axis`` ``x`` is flattened. ``return_inverse`` adds the position in
    the result of every element (or slice) of ``x``, ``return_counts`` the length
    of each run, in ``dtype`` (int32 or int64), after the values. The result
    takes no gradient, and a static Program cannot record it (its size depends
    on the values).

    >>> import pylayer
    >>> x = pylayer.to_tensor([1, 1, 2, 2, 3, 1, 1, 2])
    >>> out, inverse, counts = pylayer.unique_consecutive(x, return_inverse=True,
    ...                                                   return_counts=True)
    >>> out.numpy(), inverse.numpy(), counts.numpy()
    (array([1, 2, 3, 1, 2]), array([0, 0, 1, 1, 2, 3, 3, 4]), array([2, 2, 1, 2, 1]))
    """
    fn = "unique_consecutive"
    _refuse_variable(fn, x)
    x = _real_numbers(x, fn)
    dtype = _index_dtype(dtype, fn)
    a = x.numpy()
    if axis is None:
        a, axis = a.reshape(-1), 0
    else:
        axis = check_axis(axis, a.ndim, fn)
        a = a.reshape(1) if a.ndim == 0 else a
    moved = np.moveaxis(a, axis, 0).reshape(a.shape[axis], a.size // max(a.shape[axis], 1))
    starts = np.ones(moved.shape[0], bool)
    starts[1:] = np.any(moved[1:] != moved[:-1], axis=1)
    first = np.flatnonzero(starts)
    out = np.take(a, first, axis=axis)
    extras = []
    if return_inverse:
        extras.append(np.cumsum(starts) - 1)
    if return_counts:
        extras.append(np.diff(np.append(first, moved.shape[0])))
    return _results(out, extras, dtype)


@declare(method=True)
def argwhere(input):
    """The coordinates of the nonzero values of ``input`` (rank 1 or more): an int64
    ``[count, input.ndim]`` Tensor. No gradient; a static Program cannot record it
    (its size depends on the values).

    >>> import pylayer
    >>> pylayer.argwhere(pylayer.to_tensor([[1.0, 0.0], [0.0, 3.0]])).numpy()
    array([[0, 0],
           [1, 1]])
    """
    fn = "argwhere"
    _refuse_variable(fn, input)
    input = as_tensor_arg(input, fn, "input", 1)
    if input.ndim == 0:
        raise ValueError(f"{fn}(): argument 'input' (position 1) must have at least 1 dimension, "
                         f"got a 0-d Tensor")
    return make_tensor(np.argwhere(input.numpy()).astype(np.int64))


# ------------------------------------------------------------- sorted sequences
def _search(fn, sequence, values, out_int32, right, seq_arg, seq_position, values_arg,
            values_position, sorter=None):
    sequence = _real_numbers(sequence, fn, seq_arg, seq_position)
    values = _real_numbers(values, fn, values_arg, values_position)
    s, v = sequence.numpy(), values.numpy()
    if s.ndim == 0:
        raise ValueError(f"{fn}(): argument '{seq_arg}' must have at least 1 dimension, got a "
                         f"0-d Tensor")
    if sorter is not None:
        order = _index(sorter, fn, "sorter", 8)
        if order.shape != s.shape:
            raise ValueError(f"{fn}(): argument 'sorter' must have the shape {list(s.shape)} of "
                             f"'{seq_arg}', got {list(order.shape)}")
        order = _in_range(order, s.shape[-1], fn, "sorter", f"the last dimension of "
                          f"'{seq_arg}' (size {s.shape[-1]})", negative=False)
        s = np.take_along_axis(s, order, -1)
    side = "right" if right else "left"
    if s.ndim == 1:
        found = np.searchsorted(s, v, side)
    else:
        if v.ndim != s.ndim or v.shape[:-1] != s.shape[:-1]:
            raise ValueError(f"{fn}(): '{seq_arg}' of shape {list(s.shape)} must be 1-D or have "
                             f"the leading dimensions of '{values_arg}' (shape {list(v.shape)})")
        rows_s = s.reshape(-1, s.shape[-1])
        rows_v = v.reshape(-1, v.shape[-1])
        found = np.stack([np.searchsorted(r, w, side) for r, w in zip(rows_s, rows_v)]
                         ).reshape(v.shape) if rows_v.shape[0] else np.zeros(v.shape, np.int64)
    return make_tensor(np.asarray(found).astype(np.int32 if out_int32 else np.int64))


@op
def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None, *, side=None,
                 out=None, sorter=None):
    """Where each of ``values`` would go in the sorted last dimension of ``sorted_sequence``.

    ``sorted_sequence`` is 1-D, or has the leading dimensions of ``values``
    (one sorted row per row of values). The index of the first element not
    less than the value, or with ``right`` (or ``side='right'``) greater than
    it; NaN goes to the end. int64, or int32 with ``out_int32``. ``sorter``
    (int indices that sort each row) is given for an unsorted sequence. No
    gradient.

    >>> import pylayer
    >>> sequence = pylayer.to_tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
    >>> values = pylayer.to_tensor([[3, 6, 9], [3, 6, 9]])
    >>> pylayer.searchsorted(sequence, values).numpy()
    array([[1, 3, 4],
           [1, 2, 4]])
    >>> pylayer.searchsorted(sequence, values, right=True).numpy()
    array([[2, 3, 5],
           [1, 3, 4]])
    """
    fn = "searchsorted"
    if side is not None:
        check_choice(side, fn, "side", ("left", "right"))
        if right and side == "left":
            raise ValueError(f"{fn}(): 'right=True' and side='left' contradict each other")
        right = side == "right"
    result = _search(fn, sorted_sequence, values, bool(out_int32), bool(right),
                     "sorted_sequence", 1, "values", 2, sorter)
    return _write_out(result, out, fn)


@op(method=True)
def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None, *, out=None):
    """The bucket of the 1-D ``sorted_sequence`` each value of ``x`` falls in: its
    :func:`searchsorted` index (``right`` for the index after equal values). No gradient.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[0, 8, 4, 16], [-1, 2, 8, 4]])
    >>> pylayer.bucketize(x, pylayer.to_tensor([2, 4, 8, 16])).numpy()
    array([[0, 2, 1, 3],
           [0, 0, 2, 1]])
    """
    fn = "bucketize"
    sequence = as_tensor_arg(sorted_sequence, fn, "sorted_sequence", 2)
    if sequence.ndim != 1:
        raise ValueError(f"{fn}(): argument 'sorted_sequence' (position 2) must be 1-D, got shape "
                         f"{sequence.shape}")
    result = _search(fn, sequence, x, bool(out_int32), bool(right), "sorted_sequence", 2, "x", 1)
    return _write_out(result, out, fn)


@op(method=True)
def isin(x, test_x, assume_unique=False, invert=False, name=None):
    """Whether each element of ``x`` occurs in ``test_x``: a bool Tensor of ``x``'s shape
    (the opposite with ``invert``). ``x`` and ``test_x`` have one dtype, except
    that two floating-point dtypes may differ, as in Paddle. No gradient.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2], [3, 4]])
    >>> pylayer.isin(x, pylayer.to_tensor([2, 3, 9])).numpy()
    array([[False,  True],
           [ True, False]])
    """
    fn = "isin"
    x = as_tensor_arg(x, fn, "x", 1)
    test_x = as_tensor_arg(test_x, fn, "test_x", 2)
    for arg, t in (("x", x), ("test_x", test_x)):
        if is_complex(t.numpy().dtype):
            raise TypeError(f"{fn}(): argument '{arg}' must be a real Tensor, got dtype "
                            f"{t.dtype.name}")
    dtypes = (x.numpy().dtype, test_x.numpy().dtype)
    if dtypes[0] != dtypes[1] and not (is_floating(dtypes[0]) and is_floating(dtypes[1])):
        raise TypeError(f"{fn}(): 'x' ({x.dtype.name}) and 'test_x' ({test_x.dtype.name}) must "
                        f"have one dtype (two floating-point dtypes may differ), as in Paddle")
    return make_tensor(np.isin(x.numpy(), test_x.numpy(), assume_unique=bool(assume_unique),
                               invert=bool(invert)))


@op(method=True)
def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):
    """Each index of ``input`` relative to the shard ``shard_id`` of ``nshards`` equal
    shards of ``[0, index_num)``, or ``ignore_value`` where it lies in another shard.

    A shard holds ``ceil(index_num / nshards)`` indices. ``input`` is an int32 or
    int64 Tensor of rank 2 or more whose values lie in ``[0, index_num)``. No
    gradient.

    >>> import pylayer
    >>> label = pylayer.to_tensor([[16], [1]])
    >>> pylayer.shard_index(label, index_num=20, nshards=2, shard_id=0).numpy()
    array([[-1],
           [ 1]])
    >>> pylayer.shard_index(label, index_num=20, nshards=2, shard_id=1).numpy()
    array([[ 6],
           [-1]])
    """
    fn = "shard_index"
    a = _index(input, fn, "input", 1)
    if a.ndim < 2:
        raise ValueError(f"{fn}(): argument 'input' (position 1) must have rank 2 or more, got "
                         f"shape {list(a.shape)}")
    index_num = check_int(index_num, fn, "index_num", minimum=1)
    nshards = check_int(nshards, fn, "nshards", minimum=1)
    shard_id = check_int(shard_id, fn, "shard_id", minimum=0)
    ignore_value = check_int(ignore_value, fn, "ignore_value")
    if shard_id >= nshards:
        raise ValueError(f"{fn}(): argument 'shard_id' must be less than nshards ({nshards}), "
                         f"got {shard_id}")
    bad = a[(a < 0) | (a >= index_num)]
    if bad.size:
        raise ValueError(f"{fn}(): argument 'input' holds {bad.flat[0]}, outside [0, "
                         f"{index_num}) (index_num)")
    size = -(-index_num // nshards)
    out = np.where(a // size == shard_id, a % size, ignore_value).astype(a.dtype)
    return make_tensor(out)


# ----------------------------------------------------------- masks and indices
@op(method=True, inplace=True)
def masked_scatter(x, mask, value, name=None):
    """``x`` with the positions where ``mask`` is true filled, in order, from the first
    values of ``value``.

    ``x`` and the bool ``mask`` broadcast together (the result has their
    broadcast shape); ``value`` has ``x``'s dtype and at least as many elements as
    ``mask`` has true positions, read in C order. ``x`` gets the gradient of the
    positions kept, ``value``'s first elements that of the positions they fill.
    ``x.masked_scatter_(...)`` is the in-place form.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> mask = pylayer.to_tensor([[True, False], [False, True]])
    >>> pylayer.masked_scatter(x, mask, pylayer.to_tensor([10.0, 20.0, 30.0])).numpy()
    array([[10.,  2.],
           [ 3., 20.]], dtype=float32)
    """
    fn = "masked_scatter"
    x = as_tensor_arg(x, fn, "x", 1)
    mask = as_tensor_arg(mask, fn, "mask", 2)
    value = as_tensor_arg(value, fn, "value", 3)
    if mask.numpy().dtype != np.bool_:
        raise TypeError(f"{fn}(): argument 'mask' (position 2) must be a bool Tensor, got dtype "
                        f"{mask.dtype.name}")
    if value.numpy().dtype != x.numpy().dtype:
        raise TypeError(f"{fn}(): argument 'value' (position 3) must have the dtype of 'x' "
                        f"({x.dtype.name}), got {value.dtype.name}")
    try:
        shape = list(np.broadcast_shapes(tuple(x.shape), tuple(mask.shape)))
    except ValueError:
        raise ValueError(f"{fn}(): 'x' of shape {x.shape} and 'mask' of shape {mask.shape} do "
                         f"not broadcast together") from None
    positions = np.flatnonzero(np.broadcast_to(mask.numpy(), shape))
    if positions.size > value.size:
        raise ValueError(f"{fn}(): argument 'value' has {value.size} elements, fewer than the "
                         f"{positions.size} true positions of 'mask'")
    if x.shape != shape:
        x = broadcast_to(x, shape)
    used = _take_rows(_flat(value), np.arange(positions.size, dtype=np.intp))
    return _put_at(x, positions, used)


def _fill_values(value, count, x, fn, position):
    """``count`` copies of ``value`` (a number, or a one-element Tensor whose gradient is
    kept) in ``x``'s dtype."""
    dtype = x.numpy().dtype
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{fn}(): argument 'value' (position {position}) must be a number "
                             f"or a one-element Tensor, got a Tensor of shape {value.shape}")
        if value.numpy().dtype != dtype:
            value = cast(value, x.dtype)
        return broadcast_to(reshape(value, [1]), [count])
    if not isinstance(value, (bool, int, float, np.number)) or is_complex(np.asarray(value).dtype) \
            and not is_complex(dtype):
        raise TypeError(f"{fn}(): argument 'value' (position {position}) must be a number or a "
                        f"Tensor, got {describe(value)}")
    return make_tensor(np.full(count, number_in(value, dtype, fn, "value"), dtype))


@op(method=True, inplace=True)
def index_fill(x, index, axis, value, name=None):
    """``x`` with ``value`` at the positions ``index`` along ``axis``.

    ``index`` is an int32/int64 Tensor (negative values count from the end;
    repeats are harmless); ``value`` a number, converted to ``x``'s dtype (a
    float is truncated for an integer ``x``), or a one-element Tensor, which
    gets the gradient of every position it fills. ``x`` gets the gradient of the
    other positions. ``x.index_fill_(...)`` is the in-place form.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> pylayer.index_fill(x, pylayer.to_tensor([0, 2]), 1, -1).numpy()
    array([[-1,  2, -1],
           [-1,  5, -1]])
    """
    fn = "index_fill"
    x = as_tensor_arg(x, fn, "x", 1)
    idx = _index(index, fn, "index", 2)
    axis = check_axis(axis, x.ndim, fn)
    size = x.shape[axis] if x.ndim else 1
    rows = np.unique(_in_range(idx.reshape(-1), size, fn, "index",
                               f"axis {axis} of 'x' (size {size})"))
    positions = np.take(_grid(x.shape or [1]), rows, axis=axis)
    return _put_at(x, positions, _fill_values(value, positions.size, x, fn, 4))


@op(method=True)
def take(x, index, mode="raise", name=None):
    """The elements of the flattened ``x`` at ``index`` (an int32/int64 Tensor), in
    ``index``'s shape.

    ``mode='raise'`` accepts indices in ``[-x.size, x.size)`` (negative ones count
    from the end; others raise ``IndexError``), ``'wrap'`` wraps every index
    around, ``'clip'`` clips it to ``[0, x.size - 1]``. The gradient adds up
    at repeated positions.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> pylayer.take(x, pylayer.to_tensor([[0, 5], [-1, 2]])).numpy()
    array([[1., 6.],
           [6., 3.]], dtype=float32)
    >>> pylayer.take(x, pylayer.to_tensor([7, -8]), mode='clip').numpy()
    array([6., 1.], dtype=float32)
    """
    fn = "take"
    x = as_tensor_arg(x, fn, "x", 1)
    idx = _index(index, fn, "index", 2)
    check_choice(mode, fn, "mode", ("raise", "wrap", "clip"))
    size = x.size
    if size == 0 and idx.size:
        raise IndexError(f"{fn}(): cannot take from the empty tensor 'x'")
    if mode == "raise":
        rows = _in_range(idx, size, fn, "index", f"the flattened 'x' (size {size})")
    elif mode == "wrap":
        rows = np.mod(idx, max(size, 1)).astype(np.intp)
    else:
        rows = np.clip(idx, 0, max(size - 1, 0)).astype(np.intp)
    return _take_rows(_flat(x), np.asarray(rows))


@op(method=True)
def take_along_dim(arr, indices, axis, broadcast=True, *, out=None):
    """:func:`pylayer.take_along_axis` under its PyTorch-style name, with ``out``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[10, 11, 12], [20, 21, 22]])
    >>> pylayer.take_along_dim(x, pylayer.to_tensor([[2], [0]]), axis=1).numpy()
    array([[12],
           [20]])
    """
    fn = "take_along_dim"
    arr, index, _ = _along_axis(arr, indices, axis, broadcast, fn, True)
    return _write_out(_take_index(arr, index, True, fn), out, fn)


# --------------------------------------------------------- slices and diagonals
@op(method=True)
def select_scatter(x, values, axis, index, name=None):
    """``x`` with the slice at ``index`` along ``axis`` replaced by ``values``.

    ``values`` has ``x``'s shape without ``axis`` and is cast to ``x``'s dtype;
    ``index`` is an int in ``[-size, size)`` (``IndexError`` otherwise). ``x``
    gets the gradient of the other slices, ``values`` that of the slice.

    >>> import pylayer
    >>> x = pylayer.zeros([2, 3])
    >>> pylayer.select_scatter(x, pylayer.to_tensor([1.0, 2.0]), 1, -1).numpy()
    array([[0., 0., 1.],
           [0., 0., 2.]], dtype=float32)
    """
    fn = "select_scatter"
    x = as_tensor_arg(x, fn, "x", 1)
    if x.ndim == 0:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least 1 dimension, got "
                         f"a 0-d Tensor")
    values = _values_like(values, x, fn, "values", 2)
    axis = check_axis(axis, x.ndim, fn)
    index = check_int(index, fn, "index")
    size = x.shape[axis]
    if not -size <= index < size:
        raise IndexError(f"{fn}(): argument 'index' ({index}) is outside the valid range "
                         f"[{-size}, {size}) of axis {axis} of 'x'")
    positions = np.take(_grid(x.shape), index % size, axis=axis)
    _same_shape(values, positions.shape, fn, "values", f"'x' without axis {axis}")
    return _put_at(x, positions, values)


@op(method=True)
def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """``x`` with the slice ``starts:ends:strides`` on ``axes`` replaced by ``value``.

    ``axes``, ``starts``, ``ends`` and ``strides`` are lists of ints of one
    length; each slice follows Python's rules (negative positions count from the
    end, out-of-range ones are clipped, a negative stride walks backwards).
    ``value`` has the slice's shape and is cast to ``x``'s dtype. ``x`` gets the
    gradient of the positions outside the slice, ``value`` that of the slice.

    >>> import pylayer
    >>> x = pylayer.zeros([2, 4])
    >>> pylayer.slice_scatter(x, pylayer.ones([2, 2]), axes=[1], starts=[0], ends=[4],
    ...                       strides=[2]).numpy()
    array([[1., 0., 1., 0.],
           [1., 0., 1., 0.]], dtype=float32)
    """
    fn = "slice_scatter"
    x = as_tensor_arg(x, fn, "x", 1)
    value = _values_like(value, x, fn, "value", 2)
    lists = [check_ints(v, fn, arg) for v, arg in
             ((axes, "axes"), (starts, "starts"), (ends, "ends"), (strides, "strides"))]
    if len({len(v) for v in lists}) != 1:
        raise ValueError(f"{fn}(): 'axes', 'starts', 'ends' and 'strides' must have one length, "
                         f"got lengths {[len(v) for v in lists]}")
    picked = [slice(None)] * x.ndim
    seen = set()
    for axis, start, end, stride in zip(*lists):
        axis = check_axis(axis, x.ndim, fn, "axes")
        if axis in seen:
            raise ValueError(f"{fn}(): argument 'axes' names axis {axis} twice")
        seen.add(axis)
        if stride == 0:
            raise ValueError(f"{fn}(): argument 'strides' must hold non-zero ints, got 0")
        picked[axis] = slice(start, end, stride)
    positions = _grid(x.shape)[tuple(picked)]
    _same_shape(value, positions.shape, fn, "value", "the slice")
    return _put_at(x, positions, value)


def _diagonal_positions(x, offset, axis1, axis2, fn, names):
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' must have at least 2 dimensions, got shape "
                         f"{x.shape}")
    offset = check_int(offset, fn, "offset")
    first = check_axis(axis1, x.ndim, fn, names[0])
    second = check_axis(axis2, x.ndim, fn, names[1])
    if first == second:
        raise ValueError(f"{fn}(): '{names[0]}' and '{names[1]}' must be two different axes, got "
                         f"{first} twice")
    return np.diagonal(_grid(x.shape), offset, first, second)


@op(method=True)
def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """``x`` with the diagonal ``offset`` of the planes ``(axis1, axis2)`` replaced by ``y``.

    ``y`` has the diagonal's shape (``x``'s other dimensions, then the
    diagonal's length, as :func:`pylayer.diagonal` gives) and is cast to ``x``'s
    dtype. ``x`` gets the gradient off the diagonal, ``y`` that of the diagonal
    (Paddle gives ``y`` none).

    >>> import pylayer
    >>> x = pylayer.zeros([2, 3])
    >>> pylayer.diagonal_scatter(x, pylayer.to_tensor([1.0, 2.0]), offset=1).numpy()
    array([[0., 1., 0.],
           [0., 0., 2.]], dtype=float32)
    """
    fn = "diagonal_scatter"
    x = as_tensor_arg(x, fn, "x", 1)
    y = _values_like(y, x, fn, "y", 2)
    positions = _diagonal_positions(x, offset, axis1, axis2, fn, ("axis1", "axis2"))
    _same_shape(y, positions.shape, fn, "y", "the diagonal")
    return _put_at(x, positions, y)


def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None):
    """``x`` with the diagonal ``offset`` of the planes ``(dim1, dim2)`` replaced by ``y``
    (``Tensor.fill_diagonal_tensor``; ``x.fill_diagonal_tensor_(...)`` is the
    in-place form): :func:`pylayer.diagonal_scatter` with the dimensions named
    ``dim1`` and ``dim2``.

    >>> import pylayer
    >>> x = pylayer.zeros([2, 3])
    >>> x.fill_diagonal_tensor(pylayer.to_tensor([1.0, 2.0])).numpy()
    array([[1., 0., 0.],
           [0., 2., 0.]], dtype=float32)
    """
    fn = "fill_diagonal_tensor"
    x = as_tensor_arg(x, fn, "x", 1)
    y = _values_like(y, x, fn, "y", 2)
    positions = _diagonal_positions(x, offset, dim1, dim2, fn, ("dim1", "dim2"))
    _same_shape(y, positions.shape, fn, "y", "the diagonal")
    return _put_at(x, positions, y)


def fill_diagonal_(x, value, offset=0, wrap=False, name=None):
    """Write ``value`` on the main diagonal of ``x`` (moved right by ``offset``), in place,
    and return ``x`` (``Tensor.fill_diagonal_``; Paddle has no out-of-place form).

    ``x`` has 2 or more dimensions; the diagonal steps by one along every
    dimension. For a 2-D ``x`` taller than wide, ``wrap`` starts the diagonal
    again below every square block, as in Paddle. ``value`` is converted to
    ``x``'s dtype. Recorded like the other in-place ops: ``x``'s earlier value
    gets the gradient off the diagonal.

    >>> import pylayer
    >>> x = pylayer.zeros([3, 4])
    >>> x.fill_diagonal_(1.0, offset=1).numpy()
    array([[0., 1., 0., 0.],
           [0., 0., 1., 0.],
           [0., 0., 0., 1.]], dtype=float32)
    """
    return _in_place(_fill_diagonal, "fill_diagonal_", x, value, offset, wrap)


def _in_place(fn, name, x, *args):
    if not isinstance(x, Tensor) and not has_static_variable(x):
        raise TypeError(f"{name}(): argument 'x' (position 1) must be a Tensor, got "
                        f"{describe(x)}")
    return inplace(x, fn, *args)


def _fill_diagonal(x, value, offset, wrap):
    fn = "fill_diagonal_"
    x = as_tensor_arg(x, fn, "x", 1)
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' must have at least 2 dimensions, got shape "
                         f"{x.shape}")
    offset = check_int(offset, fn, "offset")
    shape = x.shape
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    size = x.size
    if x.ndim == 2 and not wrap:
        size = min(size, shape[1] * shape[1])
    starts = np.arange(0, size, sum(strides), dtype=np.int64)
    column = starts % shape[1] + offset
    positions = (starts + offset)[(column >= 0) & (column < shape[1])]
    return _put_at(x, positions.astype(np.intp), _fill_values(value, positions.size, x, fn, 2))



def fill_diagonal_tensor_(x, y, offset=0, dim1=0, dim2=1, name=None):
    """The in-place form of ``Tensor.fill_diagonal_tensor``: writes ``y`` on the diagonal
    of ``x`` itself and returns ``x``.

    >>> import pylayer
    >>> x = pylayer.zeros([2, 2])
    >>> x.fill_diagonal_tensor_(pylayer.to_tensor([1.0, 2.0])).numpy()
    array([[1., 0.],
           [0., 2.]], dtype=float32)
    """
    return _in_place(fill_diagonal_tensor, "fill_diagonal_tensor_", x, y, offset, dim1, dim2)


# --------------------------------------------------------------- scatter along
def _scatter_positions(x, index, src, axis, fn):
    """(flat positions of ``x``, ``src`` cut to ``index``'s shape) for the
    ``scatter_add``/``scatter_reduce`` family (PyTorch's rules: ``index`` has
    ``x``'s rank, is no larger than ``src`` anywhere and than ``x`` off ``axis``)."""
    x = as_tensor_arg(x, fn, "input", 1)
    idx = _index(index, fn, "index", 3)
    src = as_tensor_arg(src, fn, "src", 4)
    if src.numpy().dtype != x.numpy().dtype:
        raise TypeError(f"{fn}(): argument 'src' (position 4) must have the dtype of 'input' "
                        f"({x.dtype.name}), got {src.dtype.name}")
    if x.ndim == 0 or idx.ndim != x.ndim or src.ndim != x.ndim:
        raise ValueError(f"{fn}(): 'input', 'index' and 'src' must have one rank (at least 1), "
                         f"got shapes {x.shape}, {list(idx.shape)} and {src.shape}")
    axis = check_axis(axis, x.ndim, fn, "dim")
    for d in range(x.ndim):
        if idx.shape[d] > src.shape[d] or (d != axis and idx.shape[d] > x.shape[d]):
            raise ValueError(f"{fn}(): 'index' of shape {list(idx.shape)} must be no larger than "
                             f"'src' ({src.shape}) in every dimension and than 'input' "
                             f"({x.shape}) off dimension {axis}")
    size = x.shape[axis]
    rows = _in_range(idx, size, fn, "index", f"dimension {axis} of 'input' (size {size})")
    where = list(np.ix_(*[np.arange(n) for n in idx.shape]))
    where[axis] = rows
    positions = _grid(x.shape)[tuple(where)]
    if src.shape != list(idx.shape):
        src = _take_index(src, tuple(slice(0, n) for n in idx.shape), False, fn)
    return x, positions.reshape(-1), _flat(src) if src.ndim != 1 else src


@op(method=True, inplace=True)
def scatter_add(input, dim, index, src):
    """A copy of ``input`` with ``src[i][j]`` added at ``[index[i][j]][j]`` (``dim=0``; the
    same along any ``dim``).

    ``index`` (int32/int64, negative values counting from the end) has
    ``input``'s rank and is no larger than ``src`` in any dimension, nor than
    ``input`` off ``dim``; only the part of ``src`` it covers is used. ``src`` has
    ``input``'s dtype. Repeated positions add up. ``input`` gets the whole
    gradient, ``src`` the gradient of the position each element was added to
    (zero outside ``index``'s shape, as in PyTorch). ``x.scatter_add_(...)`` is
    the in-place form.

    >>> import pylayer
    >>> x = pylayer.zeros([2, 3])
    >>> index = pylayer.to_tensor([[0, 1, 0], [1, 1, 0]])
    >>> src = pylayer.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> pylayer.scatter_add(x, 0, index, src).numpy()
    array([[1., 0., 9.],
           [4., 7., 0.]], dtype=float32)
    """
    fn = "scatter_add"
    x, positions, values = _scatter_positions(input, index, src, dim, fn)
    out = _put_rows(_flat(x), positions, values, "add")
    return out if x.ndim == 1 else reshape(out, x.shape)


def _extreme_vjp(g, positions, x_weight, src_weight, needs_input_grad):
    grad_x = grad_src = None
    if needs_input_grad[0]:
        grad_x = multiply(g, make_tensor(x_weight.astype(g.numpy().dtype)))
    if needs_input_grad[1]:
        grad_src = multiply(_take_rows(g, positions),
                            make_tensor(src_weight.astype(g.numpy().dtype)))
    return grad_x, grad_src


SCATTER_EXTREME = Op("scatter_reduce", inputs=("x", "src"),
                     attrs=("positions", "x_weight", "src_weight"), vjp=_extreme_vjp)


def _prod_vjp(g, x, src, out, positions, x_ratio, x_rest, src_ratio, src_rest,
              needs_input_grad):
    """Each factor's gradient is ``g`` times the product of the others: ``out / factor``
    where the factor is nonzero, the product of the others (worked out in the
    forward) where it is zero."""
    dtype = g.numpy().dtype

    def others(factor, ratio, rest, product):
        safe = add(factor, make_tensor((~ratio).astype(dtype)))
        return add(multiply(divide(product, safe), make_tensor(ratio.astype(dtype))),
                   make_tensor(rest.astype(dtype)))
    grad_x = grad_src = None
    if needs_input_grad[0]:
        grad_x = multiply(g, others(x, x_ratio, x_rest, out))
    if needs_input_grad[1]:
        grad_src = multiply(_take_rows(g, positions),
                            others(src, src_ratio, src_rest, _take_rows(out, positions)))
    return grad_x, grad_src


SCATTER_PROD = Op("scatter_reduce", inputs=("x", "src"), keeps=("x", "src", "out"),
                  attrs=("positions", "x_ratio", "x_rest", "src_ratio", "src_rest"),
                  vjp=_prod_vjp)


def _prod(x, positions, src, include_self):
    a, v = x.numpy(), src.numpy()
    written = np.zeros(a.shape, bool)
    written[positions] = True
    x_counts = include_self | ~written
    out = np.where(x_counts, a, 1).astype(a.dtype)
    np.multiply.at(out, positions, v)
    if not (is_floating(a.dtype) or is_complex(a.dtype)):
        return make_tensor(out)
    # Per position: how many factors are zero, and the product of the others.
    zeros = (x_counts & (a == 0)).astype(np.int64)
    np.add.at(zeros, positions, (v == 0).astype(np.int64))
    nonzero = np.where(x_counts & (a != 0), a, 1).astype(a.dtype)
    np.multiply.at(nonzero, positions, np.where(v != 0, v, 1).astype(a.dtype))
    x_ratio = x_counts & (a != 0)
    x_rest = np.where(x_counts & (a == 0) & (zeros == 1), nonzero, 0).astype(a.dtype)
    src_ratio = v != 0
    src_rest = np.where((v == 0) & (zeros[positions] == 1), nonzero[positions], 0).astype(a.dtype)
    return make_output(SCATTER_PROD, out, (x, src),
                       (positions, x_ratio, x_rest, src_ratio, src_rest))


def _extreme(x, positions, src, include_self, reduce):
    a, v = x.numpy(), src.numpy()
    written = np.zeros(a.shape, bool)
    written[positions] = True
    x_counts = include_self | ~written
    out = np.array(a, copy=True)
    if not include_self:
        out[positions] = v          # any of the values sent there: the extreme is the same
    (np.minimum if reduce == "amin" else np.maximum).at(out, positions, v)
    if not is_floating(a.dtype):
        return make_tensor(out)
    # The elements equal to the result share its gradient; as in Paddle (and PyTorch), an
    # element of x left out by include_self=False still counts among them.
    x_hit = a == out
    src_hit = v == out[positions]
    ties = x_hit.astype(np.int64)
    np.add.at(ties, positions, src_hit.astype(np.int64))
    ties = np.maximum(ties, 1)
    return make_output(SCATTER_EXTREME, out, (x, src),
                       (positions, (x_hit & x_counts) / ties, src_hit / ties[positions]))


@op(method=True)
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """A copy of ``input`` where ``src``'s elements are combined into the positions
    ``index`` gives along ``dim`` (as in :func:`scatter_add`) with ``reduce``.

    ``reduce`` is ``'sum'``, ``'prod'``, ``'mean'``, ``'amin'`` or ``'amax'``; with
    ``include_self`` the value of ``input`` at a position takes part, without it
    only the elements sent there (positions nothing is sent to keep ``input``'s
    value). An integer ``'mean'`` rounds down, as in Paddle. Gradients reach
    ``input`` and ``src``: for ``'amin'``/``'amax'`` the elements equal to the
    result share it evenly; for ``'prod'`` each factor gets the product of the
    others (also at zeros, where Paddle gives NaN).

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> index = pylayer.to_tensor([[0, 1, 0], [1, 1, 0]])
    >>> src = pylayer.to_tensor([[10.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> pylayer.scatter_reduce(x, 0, index, src, 'amax').numpy()
    array([[10.,  2.,  6.],
           [ 4.,  5.,  6.]], dtype=float32)
    >>> pylayer.scatter_reduce(x, 0, index, src, 'mean', include_self=False).numpy()
    array([[10. ,  2. ,  4.5],
           [ 4. ,  3.5,  6. ]], dtype=float32)
    """
    fn = "scatter_reduce"
    check_choice(reduce, fn, "reduce", ("sum", "prod", "mean", "amin", "amax"))
    include_self = bool(include_self)
    x, positions, values = _scatter_positions(input, index, src, dim, fn)
    flat = _flat(x)
    if reduce in ("sum", "mean"):
        out = _put_rows(flat, positions, values, "add" if include_self else "replace_add")
        if reduce == "mean":
            counts = np.bincount(positions, minlength=flat.size) + include_self
            counts = np.maximum(counts, 1)
            a = out.numpy()
            if is_floating(a.dtype) or is_complex(a.dtype):
                out = divide(out, make_tensor(counts.astype(a.dtype)))
            else:
                out = make_tensor(np.floor_divide(a, counts).astype(a.dtype))
    elif reduce == "prod":
        out = _prod(flat, positions, values, include_self)
    else:
        if is_complex(flat.numpy().dtype):
            raise TypeError(f"{fn}(): reduce={reduce!r} needs a real Tensor, got dtype "
                            f"{flat.dtype.name}")
        out = _extreme(flat, positions, values, include_self, reduce)
    return out if x.ndim == 1 else reshape(out, x.shape)


# ---------------------------------------------------------------------- multiplex
@op(method=True)
def multiplex(inputs, index, name=None):
    """Row ``i`` of the result is row ``i`` of ``inputs[index[i][0]]``.

    ``inputs`` is a list of two or more Tensors of one shape (rank 2 or more) and
    dtype; ``index`` an int32/int64 Tensor of shape ``[rows, 1]`` with values in
    ``[0, len(inputs))``. Each input gets the gradient of the rows taken from it.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> b = pylayer.to_tensor([[5.0, 6.0], [7.0, 8.0]])
    >>> pylayer.multiplex([a, b], pylayer.to_tensor([[1], [0]])).numpy()
    array([[5., 6.],
           [3., 4.]], dtype=float32)
    """
    fn = "multiplex"
    if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
        raise TypeError(f"{fn}(): argument 'inputs' (position 1) must be a list of at least two "
                        f"Tensors, got {describe(inputs)}")
    tensors = [as_tensor_arg(t, fn, f"inputs[{i}]", 1) for i, t in enumerate(inputs)]
    first = tensors[0]
    if first.ndim < 2:
        raise ValueError(f"{fn}(): the Tensors of 'inputs' must have rank 2 or more, got shape "
                         f"{first.shape}")
    for i, t in enumerate(tensors[1:], 1):
        if t.shape != first.shape or t.numpy().dtype != first.numpy().dtype:
            raise ValueError(f"{fn}(): the Tensors of 'inputs' must share one shape and dtype, "
                             f"got {first.shape} {first.dtype.name} and (inputs[{i}]) {t.shape} "
                             f"{t.dtype.name}")
    idx = _index(index, fn, "index", 2)
    rows = first.shape[0]
    if idx.ndim != 2 or idx.shape != (rows, 1):
        raise ValueError(f"{fn}(): argument 'index' (position 2) must have the shape [{rows}, 1], "
                         f"got {list(idx.shape)}")
    which = _in_range(idx[:, 0], len(tensors), fn, "index", f"the {len(tensors)} inputs",
                      negative=False)
    stacked = stack(tensors, 0)
    whole = reshape(stacked, [len(tensors) * rows] + first.shape[1:])
    return _take_rows(whole, which * rows + np.arange(rows, dtype=np.intp))


# ----------------------------------------- Paddle's function-level in-place twins
masked_scatter_ = inplace_twin(masked_scatter)
index_fill_ = inplace_twin(index_fill)
scatter_add_ = inplace_twin(scatter_add)
