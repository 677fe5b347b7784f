"""Building and reshaping: joining, stacking and splitting, diagonals and triangles, Kronecker, outer and inner products, axes moved and tensors viewed anew.

Most names here are compositions of recorded ops (``transpose``, ``reshape``,
``concat``, ``take``...), and so need no record of their own. The records
are the diagonal pair (``diagonal`` reads a diagonal, ``diag_embed`` writes
one into zeros: each one's rule is the other), the triangles, ``vander``,
``block_diag`` and the strided windows (``as_strided``, ``unfold``), whose
gradient adds up at every position a window reads. ``diagonal``,
``as_strided`` and ``unfold`` are views of their input's memory, as are the
compositions of view ops (``permute``, ``t``, ``narrow``, ``unbind``,
``view``...). A window that reads one element twice cannot be written in
place.
"""
import builtins
import itertools
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer._kernels.dtypes import is_bool, is_integer
from pylayer.ops._arguments import (MAX_ELEMENTS, check_axis, check_count, check_dtype,
                                    check_int, check_ints, describe, memory_limit, shape_arg)
from pylayer.ops._operands import as_tensor_arg, conjugate
from pylayer.ops.arithmetic import add, multiply
from pylayer.ops.dispatch import op
from pylayer.ops.declaration import declare
from pylayer.ops.indexing import take
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.manipulation import concat, flip, split, stack, tile, unstack
from pylayer.ops.reduction import sum as reduce_sum
from pylayer.ops.shape import (assign, broadcast_to, flatten, reshape, reshape_exact, spellings,
                               transpose, two_axes)

__all__ = ["add_n", "cat", "concatenate", "diag", "diag_embed", "diagflat", "diagonal", "tril",
           "triu", "tril_indices", "triu_indices", "block_diag", "cartesian_prod",
           "combinations", "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack",
           "dstack", "column_stack", "row_stack", "hsplit", "vsplit", "dsplit", "tensor_split",
           "rot90", "repeat_interleave", "moveaxis", "swapaxes",
           "swapdims", "permute", "t", "narrow", "ravel", "unbind", "unflatten", "vander",
           "meshgrid", "as_strided", "view", "view_as", "unfold", "broadcast_tensors",
           "broadcast_shape", "broadcast_shapes", "reverse", "crop", "strided_slice",
           "tril_", "triu_", "t_"]


def _tensors(x, fn, arg="x"):
    """A non-empty list or tuple of Tensors of one dtype, as a list."""
    if isinstance(x, Tensor) or not isinstance(x, (list, tuple)):
        raise TypeError(f"{fn}(): argument '{arg}' (position 1) must be a list or tuple of "
                        f"Tensors, got {describe(x)}")
    if not x:
        raise ValueError(f"{fn}(): argument '{arg}' (position 1) must hold at least one Tensor")
    tensors = [as_tensor_arg(t, fn, f"{arg}[{i}]", 1) for i, t in enumerate(x)]
    if len({t.numpy().dtype for t in tensors}) > 1:
        raise TypeError(f"{fn}(): all tensors in '{arg}' must have the same dtype, got "
                        f"{[t.dtype.name for t in tensors]}")
    return tensors


def _renamed(name, target, *args):
    """``target(*args)``, its argument errors naming ``name`` (the function called)."""
    try:
        return target(*args)
    except (TypeError, ValueError) as error:
        called = f"{target.__name__}()"
        text = error.args[0] if error.args else None
        if isinstance(text, str) and text.startswith(called):
            error.args = (f"{name}()" + text[len(called):],) + error.args[1:]
        raise


# ------------------------------------------------------------------ joining
@op(method=True)
def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype.

    A single Tensor is returned as a copy. Each input's gradient is the
    output's.

    >>> import pylayer
    >>> pylayer.add_n([pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor([3.0, 4.0])]).numpy()
    array([4., 6.], dtype=float32)
    """
    tensors = _tensors([inputs] if isinstance(inputs, Tensor) else inputs, "add_n", "inputs")
    if len({tuple(t.shape) for t in tensors}) > 1:
        raise ValueError(f"add_n(): the tensors in 'inputs' must have the same shape, got "
                         f"{[t.shape for t in tensors]}")
    if is_bool(tensors[0].numpy().dtype):
        raise TypeError("add_n(): the tensors in 'inputs' must be numeric, got dtype bool")
    out = tensors[0] if len(tensors) > 1 else assign(tensors[0])
    for t in tensors[1:]:
        out = add(out, t)
    return out


@op
@spellings([("tensors", "x"), ("dim", "axis")])
def cat(x, axis=0, name=None):
    """:func:`concat` by another name (not a Tensor method, as in Paddle).

    >>> import pylayer
    >>> pylayer.cat([pylayer.zeros([1, 2]), pylayer.ones([2, 2])]).shape
    [3, 2]
    """
    return _renamed("cat", concat, x, axis)


@op
@spellings([("tensors", "x"), ("dim", "axis")])
def concatenate(x, axis=0, name=None):
    """:func:`concat` by another name (not a Tensor method, as in Paddle).

    >>> import pylayer
    >>> pylayer.concatenate([pylayer.zeros([2]), pylayer.ones([1])]).shape
    [3]
    """
    return _renamed("concatenate", concat, x, axis)


def _at_least(rank, name, inputs):
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)) and inputs[0] and all(
            isinstance(t, Tensor) for t in inputs[0]):
        inputs = tuple(inputs[0])
    out = []
    for i, value in enumerate(inputs):
        x = as_tensor_arg(value, name, "inputs", i + 1)
        shape = tuple(x.shape)
        if len(shape) < rank:
            if rank == 3 and len(shape) == 1:
                shape = (1,) + shape + (1,)
            elif len(shape) == 2:
                shape = shape + (1,)
            else:
                shape = (1,) * (rank - len(shape)) + shape
            x = reshape_exact(x, shape)
        out.append(x)
    return out[0] if len(out) == 1 else out


@op(method=True)
def atleast_1d(*inputs, name=None):
    """Each input as a tensor of rank at least 1 (a 0-d tensor becomes shape ``[1]``).

    One input gives one Tensor, several a list. The results are views of the
    inputs.

    >>> import pylayer
    >>> pylayer.atleast_1d(pylayer.to_tensor(1.0)).shape
    [1]
    """
    return _at_least(1, "atleast_1d", inputs)


@op(method=True)
def atleast_2d(*inputs, name=None):
    """Each input as a tensor of rank at least 2 (shape ``[n]`` becomes ``[1, n]``).

    >>> import pylayer
    >>> [t.shape for t in pylayer.atleast_2d(pylayer.to_tensor(1.0), pylayer.zeros([3]))]
    [[1, 1], [1, 3]]
    """
    return _at_least(2, "atleast_2d", inputs)


@op(method=True)
def atleast_3d(*inputs, name=None):
    """Each input as a tensor of rank at least 3: shape ``[n]`` becomes ``[1, n, 1]``,
    ``[m, n]`` becomes ``[m, n, 1]``.

    >>> import pylayer
    >>> pylayer.atleast_3d(pylayer.zeros([2, 3])).shape
    [2, 3, 1]
    """
    return _at_least(3, "atleast_3d", inputs)


@op
def hstack(x, name=None):
    """Join tensors column-wise: along axis 1, or axis 0 for 1-d (and 0-d) tensors.

    >>> import pylayer
    >>> pylayer.hstack([pylayer.to_tensor([1, 2]), pylayer.to_tensor([3])]).numpy()
    array([1, 2, 3])
    """
    tensors = _at_least(1, "hstack", tuple(_tensors(x, "hstack")))
    tensors = tensors if isinstance(tensors, list) else [tensors]
    return concat(tensors, 0 if tensors[0].ndim == 1 else 1)


@op
def vstack(x, name=None):
    """Join tensors row-wise: along axis 0, 1-d (and 0-d) tensors made rows first.

    ``row_stack`` is the same function.

    >>> import pylayer
    >>> pylayer.vstack([pylayer.to_tensor([1, 2]), pylayer.to_tensor([3, 4])]).numpy()
    array([[1, 2],
           [3, 4]])
    """
    tensors = _at_least(2, "vstack", tuple(_tensors(x, "vstack")))
    return concat(tensors if isinstance(tensors, list) else [tensors], 0)


row_stack = vstack


@op
def dstack(x, name=None):
    """Join tensors depth-wise: along axis 2, after making each of rank 3 as
    :func:`atleast_3d` does.

    >>> import pylayer
    >>> pylayer.dstack([pylayer.to_tensor([1, 2]), pylayer.to_tensor([3, 4])]).numpy()
    array([[[1, 3],
            [2, 4]]])
    """
    tensors = _at_least(3, "dstack", tuple(_tensors(x, "dstack")))
    return concat(tensors if isinstance(tensors, list) else [tensors], 2)


@op
def column_stack(x, name=None):
    """Join tensors as columns: 1-d (and 0-d) tensors become columns, then all are
    joined along axis 1.

    >>> import pylayer
    >>> pylayer.column_stack([pylayer.to_tensor([1, 2]), pylayer.to_tensor([3, 4])]).numpy()
    array([[1, 3],
           [2, 4]])
    """
    columns = []
    for t in _tensors(x, "column_stack"):
        if t.ndim < 2:
            t = reshape_exact(t, (t.size, 1))
        columns.append(t)
    return concat(columns, 1)


# ---------------------------------------------------------------- splitting
def _cuts(x, num_or_indices, axis, fn, arg="num_or_indices"):
    """The ``(start, stop)`` of each piece of a ``tensor_split``."""
    size = x.shape[axis]
    if isinstance(num_or_indices, (list, tuple)):
        _check_pieces(len(num_or_indices), fn, arg)
        bounds = [check_int(v, fn, arg) for v in num_or_indices]
        bounds = [b + size if b < 0 else b for b in bounds]
        starts = [0] + bounds
        stops = bounds + [size]
        return [(builtins.min(a, size), builtins.max(builtins.min(b, size), builtins.min(a, size)))
                for a, b in zip(starts, stops)]
    if isinstance(num_or_indices, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int or a list or tuple of ints, "
                        f"got Tensor")
    num = check_int(num_or_indices, fn, arg)
    if num <= 0:
        raise ValueError(f"{fn}(): argument '{arg}' must be larger than 0, got {num}")
    _check_pieces(num, fn, arg)
    small, extra = divmod(size, num)
    sizes = [small + 1] * extra + [small] * (num - extra)
    stops = np.cumsum(sizes).tolist()
    return list(zip([0] + stops[:-1], stops))


def _check_pieces(count, fn, arg):
    """Refuse more pieces than fit in memory (about 1 KiB each: a Tensor and its node)."""
    limit = memory_limit()
    if count > MAX_ELEMENTS or (limit is not None and count * 1024 > limit):
        raise MemoryError(f"{fn}(): argument '{arg}' asks for {count} pieces, more than "
                          f"this process can hold")


def _pieces(x, cuts, axis, fn):
    """Copies of the pieces ``cuts`` of ``x`` along ``axis``."""
    lead = (builtins.slice(None),) * axis
    return [take(x, lead + (np.arange(a, b),), True, fn) for a, b in cuts]


@op(method=True)
@spellings([("input", "x"), ("dim", "axis"), ("indices_or_sections", "num_or_indices"),
            ("indices", "num_or_indices"), ("sections", "num_or_indices")])
def tensor_split(x, num_or_indices, axis=0, name=None):
    """Split ``x`` along ``axis`` into ``num_or_indices`` nearly equal pieces (the first
    ones one longer), or at the given indices (``[2, 5]`` gives ``x[:2]``,
    ``x[2:5]``, ``x[5:]``; indices past the end give empty pieces).

    The pieces are copies. ``input``, ``dim`` and ``indices``/``sections``
    are accepted as keywords too.

    >>> import pylayer
    >>> [t.numpy().tolist() for t in pylayer.tensor_split(pylayer.arange(7), 3)]
    [[0, 1, 2], [3, 4], [5, 6]]
    """
    x = as_tensor_arg(x, "tensor_split", "x", 1)
    if x.ndim == 0:
        raise ValueError("tensor_split(): argument 'x' (position 1) must have at least one "
                         "dimension")
    axis = check_axis(axis, x.ndim, "tensor_split")
    return _pieces(x, _cuts(x, num_or_indices, axis, "tensor_split"), axis, "tensor_split")


def _split_at(x, num_or_indices, axis, fn, rank):
    x = as_tensor_arg(x, fn, "x", 1)
    if x.ndim < rank:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least {rank} "
                         f"dimension{'s' if rank > 1 else ''}, got {x.ndim}")
    return _pieces(x, _cuts(x, num_or_indices, axis, fn), axis, fn)


@op(method=True)
def hsplit(x, num_or_indices, name=None):
    """:func:`tensor_split` along axis 1 (axis 0 for a 1-d tensor).

    >>> import pylayer
    >>> [t.shape for t in pylayer.hsplit(pylayer.zeros([2, 6]), [1, 4])]
    [[2, 1], [2, 3], [2, 2]]
    """
    x = as_tensor_arg(x, "hsplit", "x", 1)
    return _split_at(x, num_or_indices, 0 if x.ndim == 1 else 1, "hsplit", 1)


@op(method=True)
def vsplit(x, num_or_indices, name=None):
    """:func:`tensor_split` along axis 0 of a tensor of rank 2 or more.

    >>> import pylayer
    >>> [t.shape for t in pylayer.vsplit(pylayer.zeros([4, 2]), 2)]
    [[2, 2], [2, 2]]
    """
    return _split_at(x, num_or_indices, 0, "vsplit", 2)


@op(method=True)
def dsplit(x, num_or_indices, name=None):
    """:func:`tensor_split` along axis 2 of a tensor of rank 3 or more.

    >>> import pylayer
    >>> [t.shape for t in pylayer.dsplit(pylayer.zeros([1, 2, 6]), [2, 5])]
    [[1, 2, 2], [1, 2, 3], [1, 2, 1]]
    """
    return _split_at(x, num_or_indices, 2, "dsplit", 3)


@op
def split_with_sizes(self, split_sizes, dim=0):
    """Split the tensor into pieces of the given non-negative sizes along ``dim``
    (``Tensor.split_with_sizes``); the pieces are views.

    >>> import pylayer
    >>> [t.numpy().tolist() for t in pylayer.arange(5).split_with_sizes([2, 3])]
    [[0, 1], [2, 3, 4]]
    """
    x = as_tensor_arg(self, "split_with_sizes", "self", 1)
    sizes = check_ints(split_sizes, "split_with_sizes", "split_sizes")
    if any(s < 0 for s in sizes):
        raise ValueError(f"split_with_sizes(): argument 'split_sizes' must hold non-negative "
                         f"sizes, got {sizes}")
    return split(x, sizes, dim)


@op(method=True)
@spellings([("dim", "axis")])
def unbind(input, axis=0):
    """The slices of ``input`` along ``axis``, that axis removed (views; ``dim`` is
    accepted for ``axis``).

    >>> import pylayer
    >>> [t.numpy().tolist() for t in pylayer.unbind(pylayer.to_tensor([[1, 2], [3, 4]]), 1)]
    [[1, 3], [2, 4]]
    """
    x = as_tensor_arg(input, "unbind", "input", 1)
    if x.ndim == 0:
        raise ValueError("unbind(): argument 'input' (position 1) must have at least one "
                         "dimension")
    return unstack(x, check_axis(axis, x.ndim, "unbind"))


# ------------------------------------------------------- diagonals, triangles
def _diagonal_window(a, offset, axis1, axis2):
    """A view of ndarray ``a``'s diagonal (writable when ``a`` is), the diagonal last."""
    n1, n2 = a.shape[axis1], a.shape[axis2]
    length = builtins.max(0, builtins.min(n1, n2 - offset) if offset >= 0 else
                          builtins.min(n1 + offset, n2))
    start = [0] * a.ndim
    if length:
        start[axis2 if offset >= 0 else axis1] = builtins.abs(offset)
    first = a[tuple(builtins.slice(s, None) for s in start)]
    rest = [i for i in range(a.ndim) if i not in (axis1, axis2)]
    shape = [a.shape[i] for i in rest] + [length]
    strides = [a.strides[i] for i in rest] + [a.strides[axis1] + a.strides[axis2]]
    return np.lib.stride_tricks.as_strided(first, shape, strides,
                                           writeable=a.flags.writeable)


def _embed(record, t, shape, offset, axis1, axis2):
    """Zeros of ``shape`` with ``t`` on the diagonal ``offset`` of ``axis1``/``axis2``."""
    out = np.zeros(shape, t.numpy().dtype)
    _diagonal_window(out, offset, axis1, axis2)[...] = t.numpy()
    return make_output(record, out, (t,), (offset, axis1, axis2))


def _diagonal(x, offset, axis1, axis2):
    window = _diagonal_window(x.numpy(), offset, axis1, axis2)
    return make_output(DIAGONAL, window, (x,), (tuple(x.shape), offset, axis1, axis2))


DIAGONAL = Op("diagonal", attrs=("x_shape", "offset", "axis1", "axis2"), view=True,
              vjp=(lambda g, x_shape, offset, axis1, axis2:
                   _embed(DIAGONAL_GRAD, g, x_shape, offset, axis1, axis2),))
DIAGONAL_GRAD = Op("diagonal_grad", attrs=("offset", "axis1", "axis2"),
                   vjp=(lambda g, offset, axis1, axis2: _diagonal(g, offset, axis1, axis2),))
DIAG_EMBED = Op("diag_embed", attrs=("offset", "axis1", "axis2"),
                vjp=(lambda g, offset, axis1, axis2: _diagonal(g, offset, axis1, axis2),))


def _two_axes(ndim, axis1, axis2, fn, names):
    first = check_axis(axis1, ndim, fn, names[0])
    second = check_axis(axis2, ndim, fn, names[1])
    if first == second:
        raise ValueError(f"{fn}(): the axes '{names[0]}' and '{names[1]}' must differ, got "
                         f"{axis1} and {axis2}")
    return first, second


@op(method=True)
@spellings([("input", "x"), ("dim1", "axis1"), ("dim2", "axis2")])
def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    """The diagonal ``offset`` (above the main one when positive) of the matrices
    that axes ``axis1`` and ``axis2`` span, as a view of ``x``: those axes are
    removed and the diagonal is the last axis.

    ``input``, ``dim1`` and ``dim2`` are accepted as keywords too.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> pylayer.diagonal(x).numpy(), pylayer.diagonal(x, offset=1).numpy()
    (array([1, 5]), array([2, 6]))
    """
    x = as_tensor_arg(x, "diagonal", "x", 1)
    if x.ndim < 2:
        raise ValueError(f"diagonal(): argument 'x' (position 1) must have at least 2 "
                         f"dimensions, got {x.ndim}")
    axis1, axis2 = _two_axes(x.ndim, axis1, axis2, "diagonal", ("axis1", "axis2"))
    return _diagonal(x, check_int(offset, "diagonal", "offset"), axis1, axis2)


@op(method=True)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices with the last axis of ``input`` on their diagonal ``offset`` and zeros
    elsewhere; the matrices span the new axes ``dim1`` and ``dim2`` of the result
    (of rank one more than ``input``).

    >>> import pylayer
    >>> pylayer.diag_embed(pylayer.to_tensor([1.0, 2.0])).numpy()
    array([[1., 0.],
           [0., 2.]], dtype=float32)
    """
    x = as_tensor_arg(input, "diag_embed", "input", 1)
    if x.ndim == 0:
        raise ValueError("diag_embed(): argument 'input' (position 1) must have at least one "
                         "dimension")
    offset = check_int(offset, "diag_embed", "offset")
    axis1, axis2 = _two_axes(x.ndim + 1, dim1, dim2, "diag_embed", ("dim1", "dim2"))
    size = x.shape[-1] + builtins.abs(offset)
    rest = iter(x.shape[:-1])
    shape = tuple(size if i in (axis1, axis2) else next(rest) for i in range(x.ndim + 1))
    return _embed(DIAG_EMBED, x, shape, offset, axis1, axis2)


@op(method=True)
def diag(x, offset=0, padding_value=0, name=None):
    """A 1-d ``x`` (or 0-d) put on the diagonal ``offset`` of a square matrix filled
    with ``padding_value``; from a 2-d ``x``, its diagonal ``offset`` (a copy).

    >>> import pylayer
    >>> pylayer.diag(pylayer.to_tensor([1, 2]), offset=1, padding_value=9).numpy()
    array([[9, 1, 9],
           [9, 9, 2],
           [9, 9, 9]])
    """
    x = as_tensor_arg(x, "diag", "x", 1)
    offset = check_int(offset, "diag", "offset")
    if not isinstance(padding_value, (bool, int, float, complex, np.number)):
        raise TypeError(f"diag(): argument 'padding_value' must be a number, got "
                        f"{describe(padding_value)}")
    if x.ndim == 2:
        return assign(_diagonal(x, offset, 0, 1))
    if x.ndim > 2:
        raise ValueError(f"diag(): argument 'x' (position 1) must have 1 or 2 dimensions, got "
                         f"{x.ndim}")
    if x.ndim == 0:
        x = reshape_exact(x, (1,))
    out = diag_embed(x, offset, 0, 1)
    if padding_value != 0:
        pad = np.full(out.shape, padding_value, out.numpy().dtype)
        _diagonal_window(pad, offset, 0, 1)[...] = 0
        out = add(out, make_tensor(pad))
    return out


@op(method=True)
def diagflat(x, offset=0, name=None):
    """The flattened ``x`` put on the diagonal ``offset`` of a square matrix of zeros.

    >>> import pylayer
    >>> pylayer.diagflat(pylayer.to_tensor([[1, 2], [3, 4]])).shape
    [4, 4]
    """
    x = as_tensor_arg(x, "diagflat", "x", 1)
    return diag_embed(reshape_exact(x, (x.size,)), check_int(offset, "diagflat", "offset"), 0, 1)


def _triangle(record, x, k):
    keep = np.tril if record is TRIL else np.triu
    return make_output(record, keep(x.numpy(), k), (x,), (k,))


TRIL = Op("tril", attrs=("diagonal",), vjp=(lambda g, diagonal: _triangle(TRIL, g, diagonal),))
TRIU = Op("triu", attrs=("diagonal",), vjp=(lambda g, diagonal: _triangle(TRIU, g, diagonal),))


def _triangle_call(record, x, diagonal, fn):
    x = as_tensor_arg(x, fn, "x", 1)
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least 2 dimensions, "
                         f"got {x.ndim}")
    return _triangle(record, x, check_int(diagonal, fn, "diagonal"))


@op(method=True, inplace=True)
@spellings([("input", "x")])
def tril(x, diagonal=0, name=None):
    """The lower triangle of the last two axes of ``x``: entries above the diagonal
    ``diagonal`` (above the main one when positive) set to zero.

    ``x.tril_()`` and ``pylayer.tril_(x)`` are the in-place forms.

    >>> import pylayer
    >>> pylayer.tril(pylayer.to_tensor([[1, 2, 3], [4, 5, 6]])).numpy()
    array([[1, 0, 0],
           [4, 5, 0]])
    """
    return _triangle_call(TRIL, x, diagonal, "tril")


@op(method=True, inplace=True)
@spellings([("input", "x")])
def triu(x, diagonal=0, name=None):
    """The upper triangle of the last two axes of ``x``: entries below the diagonal
    ``diagonal`` set to zero.

    ``x.triu_()`` and ``pylayer.triu_(x)`` are the in-place forms.

    >>> import pylayer
    >>> pylayer.triu(pylayer.to_tensor([[1, 2, 3], [4, 5, 6]]), diagonal=1).numpy()
    array([[0, 2, 3],
           [0, 0, 6]])
    """
    return _triangle_call(TRIU, x, diagonal, "triu")


def _indices(fn, row, col, offset, dtype, lower):
    row = check_int(row, fn, "row", minimum=0)
    col = row if col is None and not lower else check_int(col, fn, "col", minimum=0)
    offset = check_int(offset, fn, "offset")
    dtype = check_dtype(dtype, fn, kinds="i", allow_none=False)
    if dtype not in (np.int32, np.int64):
        raise TypeError(f"{fn}(): argument 'dtype' must be int32 or int64, got {dtype}")
    check_count(2 * row * col, fn, "row", dtype)
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return make_tensor(np.stack([rows, cols]).astype(dtype))


@op
def tril_indices(row, col, offset=0, dtype="int64"):
    """The row and column indices (a ``[2, n]`` tensor) of the lower triangle of a
    ``row`` x ``col`` matrix, diagonal ``offset`` included, row by row.

    >>> import pylayer
    >>> pylayer.tril_indices(3, 3).numpy()
    array([[0, 1, 1, 2, 2, 2],
           [0, 0, 1, 0, 1, 2]])
    """
    return _indices("tril_indices", row, col, offset, dtype, True)


@op
def triu_indices(row, col=None, offset=0, dtype="int64"):
    """The row and column indices (a ``[2, n]`` tensor) of the upper triangle of a
    ``row`` x ``col`` matrix (``col`` defaults to ``row``), diagonal ``offset``
    included, row by row.

    >>> import pylayer
    >>> pylayer.triu_indices(3, offset=1).numpy()
    array([[0, 0, 1],
           [1, 2, 2]])
    """
    return _indices("triu_indices", row, col, offset, dtype, False)


def _block_diag_vjp(g, boxes, needs_input_grad):
    return tuple(reshape_exact(take(g, (builtins.slice(r0, r1), builtins.slice(c0, c1)), False,
                                    "block_diag_grad"), shape) if needed else None
                 for (r0, r1, c0, c1, shape), needed in zip(boxes, needs_input_grad))


BLOCK_DIAG = Op("block_diag", inputs=None, attrs=("boxes",), vjp=_block_diag_vjp)


@op(method=True)
def block_diag(inputs, name=None):
    """The block-diagonal matrix of the given tensors (0-d, 1-d as one row, or 2-d),
    zeros elsewhere.

    >>> import pylayer
    >>> pylayer.block_diag([pylayer.to_tensor([[1, 2]]), pylayer.to_tensor([[3], [4]])]).numpy()
    array([[1, 2, 0],
           [0, 0, 3],
           [0, 0, 4]])
    """
    tensors = _tensors(inputs, "block_diag", "inputs")
    boxes, r, c = [], 0, 0
    for t in tensors:
        if t.ndim > 2:
            raise ValueError(f"block_diag(): each tensor in 'inputs' must have 0, 1 or 2 "
                             f"dimensions, got one of shape {t.shape}")
        rows, cols = ([1, 1] + list(t.shape))[-2:]
        boxes.append((r, r + rows, c, c + cols, tuple(t.shape)))
        r, c = r + rows, c + cols
    out = np.zeros((r, c), tensors[0].numpy().dtype)
    for (r0, r1, c0, c1, _), t in zip(boxes, tensors):
        out[r0:r1, c0:c1] = t.numpy().reshape(r1 - r0, c1 - c0)
    return make_output(BLOCK_DIAG, out, tuple(tensors), (tuple(boxes),))


# ---------------------------------------------------------------- products
@op
def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-d (or 0-d) tensors, given as arguments or as one list:
    the i-th result repeats the i-th tensor along every other axis.

    ``indexing='ij'`` (default) gives shape ``[len(x0), len(x1), ...]``;
    ``indexing='xy'`` swaps the first two axes.

    >>> import pylayer
    >>> a, b = pylayer.meshgrid(pylayer.to_tensor([1, 2]), pylayer.to_tensor([3, 4, 5]))
    >>> a.shape, b.numpy()[0].tolist()
    ([2, 3], [3, 4, 5])
    """
    indexing = kwargs.pop("indexing", "ij")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid(): unexpected keyword argument {sorted(kwargs)[0]!r}")
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid(): argument 'indexing' must be 'ij' or 'xy', got "
                         f"{describe(indexing)}")
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    tensors = _tensors(list(args), "meshgrid", "args")
    for i, t in enumerate(tensors):
        if t.ndim > 1:
            raise ValueError(f"meshgrid(): each tensor must be 0-d or 1-d, got shape "
                             f"{t.shape} at position {i}")
    sizes = [t.size for t in tensors]
    if indexing == "xy" and len(tensors) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(tensors):
        axis = (1 - i if i < 2 else i) if indexing == "xy" and len(tensors) > 1 else i
        shape = tuple(s if j == axis else 1 for j, s in enumerate(sizes))
        out.append(tile(reshape_exact(t, shape), [1 if j == axis else s
                                                   for j, s in enumerate(sizes)]))
    return out


@op
def cartesian_prod(x, name=None):
    """The Cartesian product of 1-d tensors: one row per combination, the last
    tensor varying fastest. A single tensor is returned as a copy.

    >>> import pylayer
    >>> pylayer.cartesian_prod([pylayer.to_tensor([1, 2]), pylayer.to_tensor([3, 4])]).numpy()
    array([[1, 3],
           [1, 4],
           [2, 3],
           [2, 4]])
    """
    tensors = _tensors(x, "cartesian_prod")
    for t in tensors:
        if t.ndim != 1:
            raise ValueError(f"cartesian_prod(): each tensor in 'x' must be 1-d, got shape "
                             f"{t.shape}")
    if len(tensors) == 1:
        return assign(tensors[0])
    grids = meshgrid(tensors)
    return reshape_exact(stack(grids, -1), (grids[0].size, len(tensors)))


@op(method=True)
def combinations(x, r=2, with_replacement=False, name=None):
    """All ``r``-element combinations of the entries of the 1-d ``x``, one per row, in
    the order of ``itertools.combinations`` (``combinations_with_replacement``
    with ``with_replacement=True``).

    >>> import pylayer
    >>> pylayer.combinations(pylayer.to_tensor([1, 2, 3])).numpy()
    array([[1, 2],
           [1, 3],
           [2, 3]])
    """
    x = as_tensor_arg(x, "combinations", "x", 1)
    if x.ndim != 1:
        raise TypeError(f"combinations(): argument 'x' (position 1) must be 1-d, got shape "
                        f"{x.shape}")
    r = check_int(r, "combinations", "r", minimum=0)
    if r == 0:
        return make_tensor(np.zeros([0], x.numpy().dtype))
    n = x.shape[0]
    count = math.comb(n + r - 1, r) if with_replacement else math.comb(n, r)
    check_count(count * r, "combinations", "r", np.int64)
    if count == 0:   # itertools would still allocate r indices
        return take(x, (np.zeros((0, r), np.int64),), True, "combinations")
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    index = np.array(list(pick(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    return take(x, (index,), True, "combinations")


def _vander_vjp(g, x, n, increasing):
    if n <= 1:
        return multiply(x, make_tensor(np.zeros((), x.numpy().dtype)))
    if not increasing:
        g = flip(g, [1])
    powers = make_tensor(np.arange(1, n, dtype=x.numpy().dtype))
    rest = take(g, (builtins.slice(None), builtins.slice(1, None)), False, "vander_grad")
    return reduce_sum(multiply(multiply(rest, powers), conjugate(_vander(x, n - 1, True))),
                      axis=1)


VANDER = Op("vander", keeps=("x",), attrs=("n", "increasing"), vjp=(_vander_vjp,))


def _vander(x, n, increasing):
    a = x.numpy()
    out = np.power(a[:, None], np.arange(n, dtype=np.int64 if is_integer(a.dtype) else a.dtype))
    if not increasing:
        out = out[:, ::-1]
    return make_output(VANDER, np.ascontiguousarray(out, dtype=a.dtype), (x,), (n, increasing))


@op(method=True)
def vander(x, n=None, increasing=False, name=None):
    """The Vandermonde matrix of the 1-d ``x``: column ``j`` is ``x ** (n - 1 - j)``
    (``x ** j`` with ``increasing=True``); ``n`` defaults to ``len(x)``.

    >>> import pylayer
    >>> pylayer.vander(pylayer.to_tensor([1, 2, 3]), n=3).numpy()
    array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]])
    """
    x = as_tensor_arg(x, "vander", "x", 1)
    if x.ndim != 1:
        raise ValueError(f"vander(): argument 'x' (position 1) must be 1-d, got shape {x.shape}")
    if is_bool(x.numpy().dtype):
        raise TypeError("vander(): argument 'x' (position 1) must be numeric, got dtype bool")
    n = x.shape[0] if n is None else check_int(n, "vander", "n", minimum=0)
    check_count(x.shape[0] * n, "vander", "n", x.numpy().dtype)
    return _vander(x, n, bool(increasing))


# ------------------------------------------------------------ moving axes
@op(method=True)
@spellings(spread="dims")
def permute(input, dims):
    """``input`` with its axes in the order ``dims`` (a view): ``transpose`` with the
    dims also given as separate ints (``x.permute(1, 0)``).

    >>> import pylayer
    >>> pylayer.permute(pylayer.zeros([2, 3, 4]), [2, 0, 1]).shape
    [4, 2, 3]
    """
    x = as_tensor_arg(input, "permute", "input", 1)
    dims = shape_arg(dims, "permute", "dims", -(1 << 62))
    if len(dims) != x.ndim or any(not -x.ndim <= d < x.ndim for d in dims) or \
            sorted(d % x.ndim for d in dims) != list(range(x.ndim)):
        raise ValueError(f"permute(): argument 'dims' {dims} is not a permutation of the "
                         f"{x.ndim} dimensions of 'input'")
    return transpose(x, dims)


@op(method=True)
@two_axes
def swapaxes(x, perm, name=None):
    """Swap two axes: ``swapaxes(x, 0, 2)`` (or ``axis0``/``axis1``, ``dim0``/``dim1``);
    given a full permutation ``perm`` it is :func:`transpose`. A view of ``x``.

    ``swapdims`` is the same function.

    >>> import pylayer
    >>> pylayer.swapaxes(pylayer.zeros([2, 3, 4]), 0, 2).shape
    [4, 3, 2]
    """
    return _renamed("swapaxes", transpose, as_tensor_arg(x, "swapaxes", "x", 1), perm)


swapdims = swapaxes


@op(method=True)
def moveaxis(x, source, destination, name=None):
    """Move the axes ``source`` to the positions ``destination`` (ints or lists of one
    length); the other axes keep their order. A view of ``x``.

    >>> import pylayer
    >>> pylayer.moveaxis(pylayer.zeros([2, 3, 4]), 0, -1).shape
    [3, 4, 2]
    """
    x = as_tensor_arg(x, "moveaxis", "x", 1)
    src = [check_axis(a, x.ndim, "moveaxis", "source")
           for a in check_ints(source, "moveaxis", "source")]
    dst = [check_axis(a, x.ndim, "moveaxis", "destination")
           for a in check_ints(destination, "moveaxis", "destination")]
    if len(src) != len(dst):
        raise ValueError(f"moveaxis(): 'source' and 'destination' must have the same length, "
                         f"got {len(src)} and {len(dst)}")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"moveaxis(): the axes in 'source' and in 'destination' must be "
                         f"unique, got {src} and {dst}")
    if x.ndim == 0:
        return transpose(x, [])
    perm = [i for i in range(x.ndim) if i not in src]
    for d, a in sorted(zip(dst, src)):
        perm.insert(d, a)
    return transpose(x, perm)


@op(method=True, inplace=True)
def t(input, name=None):
    """The transpose of a tensor of rank at most 2 (a view); 0-d and 1-d tensors come
    back as they are.

    ``x.t_()`` and ``pylayer.t_(x)`` are the in-place forms.

    >>> import pylayer
    >>> pylayer.t(pylayer.zeros([2, 3])).shape
    [3, 2]
    """
    x = as_tensor_arg(input, "t", "input", 1)
    if x.ndim > 2:
        raise ValueError(f"t(): argument 'input' (position 1) must have at most 2 dimensions, "
                         f"got {x.ndim}; use transpose()")
    return transpose(x, list(range(x.ndim))[::-1])


def _rotate(x, k, axes):
    if k == 0:
        return assign(x)
    if k == 2:
        return flip(x, list(axes))
    perm = list(range(x.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(x, [axes[1]]), perm)
    return flip(transpose(x, perm), [axes[1]])


@op(method=True)
def rot90(x, k=1, axes=[0, 1], name=None):  # noqa: B006 (Paddle's default)
    """Rotate ``x`` by 90 degrees ``k`` times in the plane of ``axes``, from the first
    axis towards the second (negative ``k`` the other way). A copy.

    >>> import pylayer
    >>> pylayer.rot90(pylayer.to_tensor([[1, 2], [3, 4]])).numpy()
    array([[2, 4],
           [1, 3]])
    """
    x = as_tensor_arg(x, "rot90", "x", 1)
    k = check_int(k, "rot90", "k")
    axes = check_ints(axes, "rot90", "axes")
    if len(axes) != 2:
        raise ValueError(f"rot90(): argument 'axes' must hold 2 axes, got {axes}")
    if x.ndim < 2:
        raise ValueError(f"rot90(): argument 'x' (position 1) must have at least 2 dimensions, "
                         f"got {x.ndim}")
    axes = _two_axes(x.ndim, axes[0], axes[1], "rot90", ("axes[0]", "axes[1]"))
    return _rotate(x, k % 4, axes)


reverse = flip


# ---------------------------------------------------------------- repeating
@op(method=True)
@spellings([("input", "x"), ("dim", "axis")])
def repeat_interleave(x, repeats, axis=None, name=None, *, output_size=None):
    """Repeat each element of ``x`` along ``axis`` (of the flattened ``x`` when None)
    ``repeats`` times: an int, or a 1-d integer Tensor with one count per element.

    ``output_size``, when given, must be the length of the result's axis.
    Gradients add up over the copies.

    >>> import pylayer
    >>> pylayer.repeat_interleave(pylayer.to_tensor([[1, 2], [3, 4]]), 2, axis=1).numpy()
    array([[1, 1, 2, 2],
           [3, 3, 4, 4]])
    """
    fn = "repeat_interleave"
    x = as_tensor_arg(x, fn, "x", 1)
    if axis is None:
        x = reshape_exact(x, (x.size,))
        axis = 0
    elif x.ndim == 0:
        x = reshape_exact(x, (1,))
    axis = check_axis(axis, x.ndim, fn)
    size = x.shape[axis]
    if isinstance(repeats, Tensor):
        if not is_integer(repeats.numpy().dtype) or repeats.ndim > 1:
            raise TypeError(f"{fn}(): argument 'repeats' must be an int or a 1-d integer "
                            f"Tensor, got a Tensor of shape {repeats.shape} and dtype "
                            f"{repeats.dtype.name}")
        counts = repeats.numpy().astype(np.int64).reshape(-1)
        if counts.size != size:
            raise ValueError(f"{fn}(): 'repeats' holds {counts.size} counts, but axis {axis} "
                             f"has size {size}")
        if counts.size and counts.min() < 0:
            raise ValueError(f"{fn}(): argument 'repeats' must hold non-negative counts")
    else:
        counts = check_int(repeats, fn, "repeats")
        if counts <= 0:
            raise ValueError(f"{fn}(): argument 'repeats' must be larger than 0, got {counts}")
    total = int(np.sum(counts, dtype=object)) * (size if np.ndim(counts) == 0 else 1)
    check_count(total * (x.size // size if size else 0), fn, "repeats", x.numpy().dtype)
    index = np.repeat(np.arange(size), counts)
    if output_size is not None and check_int(output_size, fn, "output_size") != index.size:
        raise ValueError(f"{fn}(): argument 'output_size' is {output_size}, but the result has "
                         f"{index.size} entries along axis {axis}")
    return take(x, (builtins.slice(None),) * axis + (index,), True, fn)


@op
@spellings(spread="repeats")
def repeat(input, repeats):
    """The tensor repeated ``repeats[i]`` times along each axis (``Tensor.repeat``,
    numpy's ``tile``); the counts may be given as separate ints.

    >>> import pylayer
    >>> pylayer.to_tensor([1, 2]).repeat(2, 2).numpy()
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    x = as_tensor_arg(input, "repeat", "input", 1)
    return tile(x, check_ints(repeats, "repeat", "repeats"))


# --------------------------------------------------------- reading windows
def _narrow_index(x, dim, start, length):
    fn = "narrow"
    if x.ndim == 0:
        raise ValueError("narrow(): argument 'input' (position 1) must have at least one "
                         "dimension")
    dim = check_axis(dim, x.ndim, fn, "dim")
    size = x.shape[dim]
    start = check_int(start, fn, "start")
    length = check_int(length, fn, "length")
    if not -size <= start <= size:
        raise ValueError(f"narrow(): argument 'start' ({start}) is out of range for axis {dim} "
                         f"of size {size}")
    start = start + size if start < 0 else start
    if length < 0 or start + length > size:
        raise ValueError(f"narrow(): argument 'length' ({length}) must be non-negative with "
                         f"start ({start}) + length at most the size {size} of axis {dim}")
    return (builtins.slice(None),) * dim + (builtins.slice(start, start + length),)


@op(method=True)
def narrow(input, dim, start, length):
    """``length`` entries of ``input`` along ``dim`` from ``start`` (negative counts
    from the end), as a view.

    >>> import pylayer
    >>> pylayer.narrow(pylayer.arange(10), 0, -3, 2).numpy()
    array([7, 8])
    """
    x = as_tensor_arg(input, "narrow", "input", 1)
    return take(x, _narrow_index(x, dim, start, length), False, "slice")


@op
def crop(x, shape=None, offsets=None, name=None):
    """The block of ``x`` of size ``shape`` (``-1`` keeps the rest of an axis; None
    all of ``x``) starting at ``offsets`` (zeros when None). A copy.

    >>> import pylayer
    >>> pylayer.crop(pylayer.arange(12).reshape([3, 4]), [2, 2], [1, 1]).numpy()
    array([[ 5,  6],
           [ 9, 10]])
    """
    fn = "crop"
    x = as_tensor_arg(x, fn, "x", 1)
    ndim = x.ndim
    sizes = list(x.shape) if shape is None else shape_arg(shape, fn, "shape")
    starts = [0] * ndim if offsets is None else shape_arg(offsets, fn, "offsets", 0)
    if len(sizes) != ndim or len(starts) != ndim:
        raise ValueError(f"crop(): 'shape' and 'offsets' must have one entry per dimension of "
                         f"x ({ndim}), got {sizes} and {starts}")
    sizes = [s - o if n == -1 else n for n, s, o in zip(sizes, x.shape, starts)]
    for i, (n, s, o) in enumerate(zip(sizes, x.shape, starts)):
        if n < 0 or o + n > s:
            raise ValueError(f"crop(): 'offsets' {starts} plus 'shape' {sizes} exceed the shape "
                             f"{x.shape} of x along axis {i}")
    index = np.ix_(*[np.arange(o, o + n) for o, n in zip(starts, sizes)])
    return take(x, index, True, fn)


def _strided_bounds(start, end, stride, size):
    """Paddle's clamping of one axis's ``start``/``end`` for ``stride``, as a slice."""
    if stride > 0:
        start = builtins.min(builtins.max(start + size if start < 0 else start, 0), size)
        end = builtins.min(builtins.max(end + size if end < 0 else end, 0), size)
        return builtins.slice(start, end, stride)
    start = builtins.min(builtins.max(start + size if start < 0 else start, -1), size - 1)
    end = builtins.min(builtins.max(end + size if end < 0 else end, -1), size - 1)
    return builtins.slice(start, None if end < 0 else end, stride)


@op(method=True)
def strided_slice(x, axes, starts, ends, strides, name=None):
    """``x[starts[i]:ends[i]:strides[i]]`` along each of ``axes`` (a view); bounds are
    clamped to the axis, negative ones count from the end, and a negative stride
    walks backwards.

    >>> import pylayer
    >>> pylayer.strided_slice(pylayer.arange(10), axes=[0], starts=[1], ends=[8],
    ...                       strides=[2]).numpy()
    array([1, 3, 5, 7])
    """
    fn = "strided_slice"
    x = as_tensor_arg(x, fn, "x", 1)
    axes = [check_axis(a, x.ndim, fn, "axes") for a in check_ints(axes, fn, "axes")]
    starts = check_ints(starts, fn, "starts")
    ends = check_ints(ends, fn, "ends")
    strides = check_ints(strides, fn, "strides")
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise ValueError(f"strided_slice(): 'axes', 'starts', 'ends' and 'strides' must have "
                         f"the same length, got {len(axes)}, {len(starts)}, {len(ends)} and "
                         f"{len(strides)}")
    index = [builtins.slice(None)] * x.ndim
    for axis, start, end, stride in zip(axes, starts, ends, strides):
        if stride == 0:
            raise ValueError(f"strided_slice(): argument 'strides' must not hold 0, got "
                             f"{strides}")
        index[axis] = _strided_bounds(start, end, stride, x.shape[axis])
    return take(x, tuple(index), False, "slice")


def _positions(window):
    """The flat (row-major) positions in ``x`` that the window's entries read: a
    strided view of an index array as large as ``x``."""
    x_shape, shape, strides, offset = window
    index = np.arange(int(np.prod(x_shape, dtype=np.int64)), dtype=np.int64)[offset:]
    if index.size == 0:
        return np.zeros(shape, np.int64)
    return np.lib.stride_tricks.as_strided(index, shape, [s * index.itemsize for s in strides],
                                           writeable=False)


def _window_grad(g, window):
    """Zeros of ``x``'s shape with ``g`` added at each position its entries read."""
    out = np.zeros(int(np.prod(window[0], dtype=np.int64)), g.numpy().dtype)
    np.add.at(out, _positions(window), g.numpy())
    return make_output(WINDOWS_GRAD, out.reshape(window[0]), (g,), (window,))


def _window_take(g, window):
    return take(reshape_exact(g, (g.size,)), (_positions(window),), True, "windows_grad_grad")


# ``window``: x's shape, the view's shape, its strides in elements of x's row-major
# layout, and its offset there.
AS_STRIDED = Op("as_strided", attrs=("window",), view=True, vjp=(_window_grad,))
UNFOLD = Op("unfold", attrs=("window",), view=True, vjp=(_window_grad,))
WINDOWS_GRAD = Op("windows_grad", attrs=("window",), vjp=(_window_take,))


def _overlaps(shape, strides):
    """Whether a strided view reads some element twice (a sufficient test: strides that
    do not step over everything the smaller ones reach count as overlapping)."""
    if 0 in shape:
        return False
    reach = 0
    for size, stride in sorted(((n, s) for n, s in zip(shape, strides) if n > 1),
                               key=lambda pair: pair[1]):
        if stride <= reach:
            return True
        reach += (size - 1) * stride
    return False


def _windows(record, x, a, byte_strides, window):
    """The strided view of ndarray ``a`` (read-only when it reads an element twice)."""
    shape, strides = window[1], window[2]
    view = np.lib.stride_tricks.as_strided(
        a, shape, byte_strides, writeable=a.flags.writeable and not _overlaps(shape, strides))
    return make_output(record, view, (x,), (window,))


@op(method=True)
def as_strided(x, shape, stride, offset=0, name=None):
    """A view of ``x``'s elements (in row-major order) with the given ``shape`` and
    ``stride`` (in elements), starting ``offset`` elements in.

    The view must stay within ``x``'s elements; a view that reads an element
    twice cannot be written in place. Gradients add up at such elements.

    >>> import pylayer
    >>> pylayer.as_strided(pylayer.arange(6), [2, 2], [2, 1], 1).numpy()
    array([[1, 2],
           [3, 4]])
    """
    fn = "as_strided"
    x = as_tensor_arg(x, fn, "x", 1)
    shape = shape_arg(shape, fn, "shape", 0)
    stride = shape_arg(stride, fn, "stride", -(1 << 62))
    offset = check_int(offset, fn, "offset", minimum=0)
    if len(stride) != len(shape):
        raise ValueError(f"as_strided(): 'stride' must have one entry per entry of 'shape', "
                         f"got {stride} for shape {shape}")
    if any(s < 0 for s in stride):
        raise ValueError(f"as_strided(): argument 'stride' must hold non-negative strides, "
                         f"got {stride}")
    if 0 not in shape:
        last = offset + builtins.sum((n - 1) * s for n, s in zip(shape, stride))
        if last >= x.size:
            raise ValueError(f"as_strided(): shape {shape}, stride {stride} and offset "
                             f"{offset} reach element {last} of x, which has {x.size}")
    check_count(int(np.prod(shape, dtype=object)), fn, "shape")
    a = x.numpy()
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    flat = a.reshape(-1)[offset:] if a.size else a.reshape(-1)
    window = (tuple(x.shape), tuple(shape), tuple(stride), offset)
    return _windows(AS_STRIDED, x, flat, [s * a.itemsize for s in stride], window)


@op(method=True)
@spellings([("dimension", "axis")])
def unfold(x, axis, size, step, name=None):
    """The windows of length ``size`` along ``axis``, every ``step`` entries, as a view:
    that axis becomes the number of windows and a last axis of length ``size``
    is added (``Tensor.unfold``).

    Overlapping windows (``step < size``) cannot be written in place;
    gradients add up where windows overlap.

    >>> import pylayer
    >>> pylayer.arange(7).unfold(0, 3, 2).numpy()
    array([[0, 1, 2],
           [2, 3, 4],
           [4, 5, 6]])
    """
    fn = "unfold"
    x = as_tensor_arg(x, fn, "x", 1)
    a = x.numpy()
    axis = check_axis(axis, a.ndim, fn)
    length = a.shape[axis] if a.ndim else 1
    size = check_int(size, fn, "size", minimum=0)
    step = check_int(step, fn, "step")
    if step <= 0:
        raise ValueError(f"unfold(): argument 'step' must be greater than 0, got {step}")
    if size > length:
        raise ValueError(f"unfold(): argument 'size' ({size}) must be at most the size "
                         f"{length} of axis {axis}")
    if a.ndim == 0:
        return _windows(UNFOLD, x, a.reshape(1), (a.itemsize,), ((), (size,), (0,), 0))
    count = (length - size) // step + 1
    shape = a.shape[:axis] + (count,) + a.shape[axis + 1:] + (size,)

    def windowed(strides):
        return strides[:axis] + (strides[axis] * step,) + strides[axis + 1:] + (strides[axis],)

    row_major = tuple(int(np.prod(a.shape[i + 1:], dtype=np.int64)) for i in range(a.ndim))
    window = (a.shape, shape, windowed(row_major), 0)
    return _windows(UNFOLD, x, a, windowed(a.strides), window)


# -------------------------------------------------------------- new shapes
@op(method=True)
def ravel(input):
    """``input`` flattened to 1-d (a view when the memory allows).

    >>> import pylayer
    >>> pylayer.ravel(pylayer.to_tensor([[1, 2], [3, 4]])).numpy()
    array([1, 2, 3, 4])
    """
    return flatten(as_tensor_arg(input, "ravel", "input", 1))


@op(method=True)
@spellings([("input", "x"), ("dim", "axis"), ("sizes", "shape")])
def unflatten(x, axis, shape, name=None):
    """Split axis ``axis`` of ``x`` into the axes ``shape`` (one ``-1`` inferred), a view.

    ``input``, ``dim`` and ``sizes`` are accepted as keywords too.

    >>> import pylayer
    >>> pylayer.unflatten(pylayer.zeros([2, 6]), 1, [3, -1]).shape
    [2, 3, 2]
    """
    fn = "unflatten"
    x = as_tensor_arg(x, fn, "x", 1)
    axis = check_axis(axis, x.ndim, fn)
    sizes = shape_arg(shape, fn, "shape")
    if not sizes:
        raise ValueError("unflatten(): argument 'shape' must not be empty")
    size = x.shape[axis]
    known = int(np.prod([s for s in sizes if s != -1], dtype=np.int64))
    if sizes.count(-1) > 1 or (sizes.count(-1) == 1 and (known == 0 or size % known)) or (
            -1 not in sizes and known != size):
        raise ValueError(f"unflatten(): argument 'shape' {sizes} does not split axis {axis} "
                         f"of size {size}")
    sizes = [size // known if s == -1 else s for s in sizes]
    return reshape_exact(x, tuple(x.shape[:axis]) + tuple(sizes) + tuple(x.shape[axis + 1:]))


@op(method=True)
@spellings([("size", "shape_or_dtype"), ("dtype", "shape_or_dtype")], spread="shape_or_dtype")
def view(x, shape_or_dtype, name=None):
    """``x`` seen with another shape (as :func:`reshape`, but never a copy: a view), or
    its bytes read as another dtype (the last axis rescaled by the ratio of item
    sizes; that result is a copy, not differentiable). The shape may be given as
    separate ints (``x.view(2, 3)``).

    >>> import pylayer
    >>> pylayer.ones([4]).view(2, 2).shape
    [2, 2]
    >>> pylayer.ones([2]).view('int32').numpy()
    array([1065353216, 1065353216], dtype=int32)
    """
    fn = "view"
    x = as_tensor_arg(x, fn, "x", 1)
    a = x.numpy()
    if isinstance(shape_or_dtype, (list, tuple, int, np.integer, Tensor)) and \
            not isinstance(shape_or_dtype, bool):
        out = _renamed(fn, reshape, x, shape_arg(shape_or_dtype, fn, "shape_or_dtype"))
        if out.size and not np.shares_memory(out.numpy(), a):
            raise ValueError(f"view(): x of shape {x.shape} and strides "
                             f"{list(a.strides)} cannot be viewed with shape "
                             f"{shape_or_dtype}; use reshape()")
        return out
    dtype = check_dtype(shape_or_dtype, fn, "shape_or_dtype", allow_none=False)
    if a.ndim == 0 or not a.flags.c_contiguous or (
            a.shape[-1] * a.itemsize) % np.dtype(dtype).itemsize:
        raise ValueError(f"view(): x of shape {x.shape} and dtype {x.dtype.name} cannot be "
                         f"viewed as {np.dtype(dtype).name}: its last axis must be contiguous "
                         f"and hold a multiple of {np.dtype(dtype).itemsize} bytes")
    return make_tensor(np.array(a.view(dtype)))


@op(method=True)
def view_as(x, other, name=None):
    """``x`` viewed with the shape of ``other`` (only its shape is read).

    >>> import pylayer
    >>> pylayer.view_as(pylayer.ones([4]), pylayer.zeros([2, 2])).shape
    [2, 2]
    """
    x = as_tensor_arg(x, "view_as", "x", 1)
    other = as_tensor_arg(other, "view_as", "other", 2)
    return view(x, list(other.shape))


# ------------------------------------------------------------------ broadcast
@op(method=True)
def broadcast_tensors(input, name=None):
    """The tensors of the list ``input`` broadcast to their common shape, as new tensors
    (gradients are summed back).

    >>> import pylayer
    >>> a, b = pylayer.broadcast_tensors([pylayer.zeros([2, 1]), pylayer.zeros([3])])
    >>> a.shape, b.shape
    ([2, 3], [2, 3])
    """
    tensors = _tensors(input, "broadcast_tensors", "input")
    try:
        shape = list(np.broadcast_shapes(*[tuple(t.shape) for t in tensors]))
    except ValueError:
        raise ValueError(f"broadcast_tensors(): the tensors in 'input' of shapes "
                         f"{[t.shape for t in tensors]} do not broadcast together") from None
    return [assign(t if t.shape == shape else broadcast_to(t, shape)) for t in tensors]


def _shape_list(value, fn, arg):
    if isinstance(value, Tensor) or not isinstance(value, (list, tuple)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a list or tuple of ints, got "
                        f"{describe(value)}")
    return tuple(shape_arg(value, fn, arg, 0))


@declare(method=True)
def broadcast_shape(x_shape, y_shape):
    """The shape that tensors of shapes ``x_shape`` and ``y_shape`` broadcast to.

    >>> import pylayer
    >>> pylayer.broadcast_shape([2, 1, 3], [4, 1])
    [2, 4, 3]
    """
    fn = "broadcast_shape"
    return _broadcast_shapes(fn, [_shape_list(x_shape, fn, "x_shape"),
                                  _shape_list(y_shape, fn, "y_shape")])


@declare(method=True)
def broadcast_shapes(*shapes):
    """The shape that tensors of all the given shapes broadcast to (``[]`` for none).

    >>> import pylayer
    >>> pylayer.broadcast_shapes([2, 1], [1, 3], [3])
    [2, 3]
    """
    fn = "broadcast_shapes"
    return _broadcast_shapes(fn, [_shape_list(s, fn, "shapes") for s in shapes])


def _broadcast_shapes(fn, lists):
    try:
        return list(np.broadcast_shapes(*lists))
    except ValueError:
        raise ValueError(f"{fn}(): the shapes {[list(s) for s in lists]} do not broadcast "
                         f"together") from None


# ----------------------------------------- Paddle's function-level in-place twins
tril_ = inplace_twin(tril)
triu_ = inplace_twin(triu)
_t_twin = inplace_twin(t)


def t_(input, name=None):
    """The in-place form of :func:`t`: ``input`` itself, transposed (``x.t_()``).

    >>> import pylayer
    >>> x = pylayer.zeros([2, 3])
    >>> pylayer.t_(x) is x, x.shape
    (True, [3, 2])
    """
    as_tensor_arg(input, "t_", "input", 1)
    return _t_twin(input)
