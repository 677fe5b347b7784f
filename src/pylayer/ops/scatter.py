"""Scatter and index ops: write, add or pick values at positions given by index tensors.

Every op here is built on three records that work on the rows (the first
dimension) of a tensor: ``take_rows`` picks rows, ``add_rows`` adds values into
rows of zeros, and ``put_rows`` writes or adds values into rows of a copy. Each
one's gradient is written with the others, so every order of derivative is
recorded. The ops bring their positions to rows by reshaping (``gather_nd``,
``index_put``: the indexed dimensions flattened into one) or by transposing
(``index_add``: its axis first).

The rules that hold for all of them, as in Paddle 3.3.1: index tensors are
int32 or int64 (bool where ``index_put`` and ``masked_select`` take a mask);
negative indices count from the end (``index_sample``: not accepted); an index
out of range raises ``IndexError`` before anything is computed; values and
updates have the dtype of ``x``. Where a position is written more than once,
the last write (in C order of the index) wins, and it alone gets a gradient.
Index arrays are copied when the op records them for backward.
"""
import math

import numpy as np

from pylayer._kernels.dtypes import is_floating, is_integer
from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import check_axis, check_count, check_int, check_number, describe
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.arithmetic import scale
from pylayer.ops.declaration import declare
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.dispatch import has_static_variable, op
from pylayer.ops.shape import broadcast_to, cast, reshape, transpose, unsqueeze

__all__ = ["scatter", "scatter_nd", "scatter_nd_add", "gather_nd", "index_sample", "index_add",
           "index_put", "masked_select", "nonzero", "bincount", "histogram",
           "index_add_", "index_put_", "scatter_"]


# --------------------------------------------------------------- the three records
def _mask(keep, g):
    """A 0/1 constant of ``g``'s dtype that keeps the gradient where ``keep`` is true."""
    return make_tensor(keep.astype(g.numpy().dtype))


TAKE_ROWS = Op("take_rows", attrs=("rows", "x_shape"),
               vjp=(lambda g, rows, x_shape: _add_rows(g, rows, x_shape),))
ADD_ROWS = Op("add_rows", inputs=("values",), attrs=("rows", "x_shape"),
              vjp=(lambda g, rows: _take_rows(g, rows),))


def _put_rows_vjp(g, rows, x_keep, values_keep, needs_input_grad):
    grad_x = grad_values = None
    if needs_input_grad[0]:
        grad_x = g if x_keep is None else g * _mask(x_keep, g)
    if needs_input_grad[1]:
        grad_values = _take_rows(g, rows)
        if values_keep is not None:
            grad_values = grad_values * _mask(values_keep, g)
    return grad_x, grad_values


PUT_ROWS = Op("put_rows", inputs=("x", "values"), attrs=("rows", "x_keep", "values_keep"),
              vjp=_put_rows_vjp)


def _take_rows(x, rows):
    """``x[rows]`` (a copy): ``rows`` is an int array of any shape indexing ``x``'s first
    dimension."""
    return make_output(TAKE_ROWS, np.take(x.numpy(), rows, axis=0), (x,), (rows, tuple(x.shape)))


def _add_rows(values, rows, x_shape):
    """Zeros of ``x_shape`` with ``values`` (shaped ``rows.shape + x_shape[1:]``) added
    at ``rows``, repeated rows adding up."""
    v = values.numpy()
    out = np.zeros(x_shape, v.dtype)
    np.add.at(out, rows, v)
    return make_output(ADD_ROWS, out, (values,), (rows, tuple(x_shape)))


def _put_rows(x, rows, values, mode):
    """A copy of ``x`` with ``values`` put at ``rows``: ``mode`` is ``"write"`` (the last
    write of a row wins), ``"add"`` (added to x) or ``"replace_add"`` (added to zeros
    where a row is written)."""
    a, v = x.numpy(), values.numpy()
    out = np.array(a, copy=True)
    written = np.zeros(a.shape[0], bool)
    written[rows] = True
    tail = (1,) * (a.ndim - 1)
    x_keep = values_keep = None
    if mode == "write":
        order = np.arange(rows.size).reshape(rows.shape)
        last = np.full(a.shape[0], -1)
        np.maximum.at(last, rows, order)
        winners = last[rows] == order
        out[rows[winners]] = v[winners]
        values_keep = winners.reshape(rows.shape + tail)
    else:
        if mode == "replace_add":
            out[written] = 0
        np.add.at(out, rows, v)
    if mode != "add":
        x_keep = (~written).reshape((-1,) + tail)
    return make_output(PUT_ROWS, out, (x, values), (rows, x_keep, values_keep))


# ---------------------------------------------------------------------- arguments
def _index(index, fn, arg, position):
    """The int32/int64 array of an index Tensor (or list)."""
    index = as_tensor_arg(index, fn, arg, position)
    a = index.numpy()
    if a.dtype not in (np.int32, np.int64):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be an int32 or "
                        f"int64 Tensor, got dtype {index.dtype.name}")
    return a


def _in_range(a, size, fn, arg, what, negative=True):
    """A fresh intp copy of ``a`` with negative indices counted from the end; IndexError
    for a value outside ``[-size, size)`` (``[0, size)`` without ``negative``)."""
    low = -size if negative else 0
    bad = a[(a < low) | (a >= size)]
    if bad.size:
        raise IndexError(f"{fn}(): argument '{arg}' holds the index {bad.flat[0]}, outside "
                         f"the valid range [{low}, {size}) of {what}")
    return np.where(a < 0, a + size, a).astype(np.intp)


def _rows_of(columns, dims, fn, arg):
    """Row numbers in the flattened ``dims`` for one index array per dimension."""
    rows = np.zeros(np.shape(columns[0]), np.intp)
    for j, (column, size) in enumerate(zip(columns, dims)):
        rows = rows * size + _in_range(column, size, fn, arg, f"dimension {j} (size {size})")
    return np.asarray(rows)     # 0-d stays an array (arithmetic makes it a numpy scalar)


def _indexed_tensor(x, fn):
    """``x`` as a Tensor with at least one dimension to index."""
    x = as_tensor_arg(x, fn, "x", 1)
    if x.ndim == 0:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least 1 dimension, "
                         f"got a 0-d Tensor")
    return x


def _like_x(value, x, fn, arg, position):
    """``value`` as a Tensor of ``x``'s dtype (another dtype is a TypeError, as in Paddle)."""
    value = as_tensor_arg(value, fn, arg, position)
    if value.numpy().dtype != x.numpy().dtype:
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must have the dtype "
                        f"of 'x' ({x.dtype.name}), got {value.dtype.name}")
    return value


def _check_shape(value, shape, fn, arg, why):
    if list(value.shape) != list(shape):
        raise ValueError(f"{fn}(): argument '{arg}' must have shape {list(shape)} ({why}), "
                         f"got {list(value.shape)}")


def _refuse_variable(fn, *args):
    """Ops whose output shape depends on the values cannot be recorded into a Program."""
    if has_static_variable(*args):
        raise TypeError(f"{fn}(): the shape of its result depends on the values of its "
                        f"input, which a static Program does not know when it is built; call "
                        f"it on Tensors (dynamic mode) or inside pylayer.static.py_func")


# ------------------------------------------------------------------------ scatter
@op(method=True, inplace=True)
def scatter(x, index, updates, overwrite=True, name=None):
    """A copy of ``x`` with the rows ``index`` (of its first dimension) set from ``updates``.

    ``index`` is a 0-d or 1-D int32/int64 Tensor (negative values count from
    the end); ``updates`` has ``x``'s dtype and the shape ``[len(index)] +
    x.shape[1:]`` (``x.shape[1:]`` for a 0-d index). With ``overwrite`` the rows
    are written, and where an index repeats the last update wins (and alone gets
    a gradient); without it the indexed rows start from zero and every update is
    added. ``x`` gets the gradient of the rows not written. ``x.scatter_(...)``
    is the in-place form.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    >>> index = paddle.to_tensor([2, 1, 0, 1])
    >>> updates = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]])
    >>> paddle.scatter(x, index, updates).numpy()
    array([[3., 3.],
           [4., 4.],
           [1., 1.]], dtype=float32)
    >>> paddle.scatter(x, index, updates, overwrite=False).numpy()
    array([[3., 3.],
           [6., 6.],
           [1., 1.]], dtype=float32)
    """
    fn = "scatter"
    x = _indexed_tensor(x, fn)
    idx = _index(index, fn, "index", 2)
    if idx.ndim > 1:
        raise ValueError(f"{fn}(): argument 'index' (position 2) must be 0-d or 1-D, got "
                         f"shape {list(idx.shape)}")
    updates = _like_x(updates, x, fn, "updates", 3)
    rows = _in_range(idx.reshape(-1), x.shape[0], fn, "index", f"dimension 0 of 'x' "
                     f"(size {x.shape[0]})")
    _check_shape(updates, list(idx.shape) + x.shape[1:], fn, "updates",
                 "the shape of 'index' followed by x.shape[1:]")
    if idx.ndim == 0:
        updates = unsqueeze(updates, 0)
    return _put_rows(x, rows, updates, "write" if overwrite else "replace_add")


def _nd_rows(x_shape, idx, fn):
    """(row numbers, how many leading dimensions the index covers) for an ``*_nd`` index."""
    if idx.ndim == 0:
        raise ValueError(f"{fn}(): argument 'index' must have at least 1 dimension (its last "
                         f"one holds the coordinates), got a 0-d Tensor")
    depth = idx.shape[-1]
    if depth > len(x_shape):
        raise ValueError(f"{fn}(): the last dimension of 'index' ({depth}) must be at most the "
                         f"rank of the indexed tensor ({len(x_shape)})")
    columns = [idx[..., j] for j in range(depth)]
    if depth == 0:
        columns = [np.zeros(idx.shape[:-1], np.int64)]   # each index selects the whole tensor
    return _rows_of(columns, list(x_shape[:depth]) or [1], fn, "index"), depth


def _leading_as_rows(x, depth):
    """``x`` with its first ``depth`` dimensions flattened into one (of size 1 for 0)."""
    return reshape(x, [math.prod(x.shape[:depth])] + x.shape[depth:])


def _nd_add(x, idx, updates, fn):
    rows, depth = _nd_rows(x.shape, idx, fn)
    rest = x.shape[depth:]
    _check_shape(updates, list(idx.shape[:-1]) + rest, fn, "updates",
                 "index.shape[:-1] followed by the dimensions of 'x' the index leaves out")
    return reshape(_put_rows(_leading_as_rows(x, depth), rows, updates, "add"), x.shape)


@op(method=True)
def scatter_nd_add(x, index, updates, name=None):
    """A copy of ``x`` with ``updates`` added at the coordinates in ``index``.

    The last dimension of ``index`` (int32/int64) holds coordinates into the
    first ``index.shape[-1]`` dimensions of ``x``; ``updates`` has ``x``'s dtype
    and the shape ``index.shape[:-1] + x.shape[index.shape[-1]:]``. Repeated
    coordinates add up. Gradients reach ``x`` and ``updates``.

    >>> import pylayer as paddle
    >>> x = paddle.ones([3, 2])
    >>> index = paddle.to_tensor([[1], [1]])
    >>> paddle.scatter_nd_add(x, index, paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy()
    array([[1., 1.],
           [5., 7.],
           [1., 1.]], dtype=float32)
    """
    fn = "scatter_nd_add"
    x = as_tensor_arg(x, fn, "x", 1)
    idx = _index(index, fn, "index", 2)
    return _nd_add(x, idx, _like_x(updates, x, fn, "updates", 3), fn)


@op(method=True)
def scatter_nd(index, updates, shape, name=None):
    """Zeros of ``shape`` (and of ``updates``' dtype) with ``updates`` added at the
    coordinates in ``index``: :func:`scatter_nd_add` on zeros.

    >>> import pylayer as paddle
    >>> index = paddle.to_tensor([[1], [1], [3]])
    >>> paddle.scatter_nd(index, paddle.to_tensor([1.0, 2.0, 3.0]), [5]).numpy()
    array([0., 3., 0., 3., 0.], dtype=float32)
    """
    fn = "scatter_nd"
    idx = _index(index, fn, "index", 1)
    updates = as_tensor_arg(updates, fn, "updates", 2)
    dims = [check_int(d, fn, "shape", minimum=0) for d in
            (shape if isinstance(shape, (list, tuple)) else [shape])]
    check_count(math.prod(dims), fn, "shape", updates.numpy().dtype)
    zeros = make_tensor(np.zeros(dims, updates.numpy().dtype))
    return _nd_add(zeros, idx, updates, fn)


@op(method=True)
def gather_nd(x, index, name=None):
    """The slices of ``x`` at the coordinates in ``index`` (the pair of :func:`scatter_nd`).

    The last dimension of ``index`` (int32/int64) holds coordinates into the
    first ``index.shape[-1]`` dimensions of ``x``; the result has the shape
    ``index.shape[:-1] + x.shape[index.shape[-1]:]``. The gradient adds up at
    repeated coordinates.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> paddle.gather_nd(x, paddle.to_tensor([[1, 0], [0, 1]])).numpy()
    array([3., 2.], dtype=float32)
    >>> paddle.gather_nd(x, paddle.to_tensor([[1]])).numpy()
    array([[3., 4.]], dtype=float32)
    """
    fn = "gather_nd"
    x = as_tensor_arg(x, fn, "x", 1)
    rows, depth = _nd_rows(x.shape, _index(index, fn, "index", 2), fn)
    return _take_rows(_leading_as_rows(x, depth), rows)


@op(method=True)
def index_sample(x, index):
    """For each row ``i`` of the 2-D ``x``, the values at the columns ``index[i]``.

    ``index`` is a 2-D int32/int64 Tensor with as many rows as ``x``; its values
    must lie in ``[0, x.shape[1])`` (negative values are refused, as in Paddle).
    ``out[i][j] = x[i][index[i][j]]``; the gradient adds up at repeated columns.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> paddle.index_sample(x, paddle.to_tensor([[2, 2], [0, 1]])).numpy()
    array([[3., 3.],
           [4., 5.]], dtype=float32)
    """
    fn = "index_sample"
    x = as_tensor_arg(x, fn, "x", 1)
    idx = _index(index, fn, "index", 2)
    if x.ndim != 2 or idx.ndim != 2 or idx.shape[0] != x.shape[0]:
        raise ValueError(f"{fn}(): 'x' and 'index' must be 2-D with the same number of rows, "
                         f"got shapes {x.shape} and {list(idx.shape)}")
    rows, cols = x.shape
    columns = _in_range(idx, cols, fn, "index", f"dimension 1 of 'x' (size {cols})",
                        negative=False)
    flat_rows = np.arange(rows, dtype=np.intp)[:, None] * cols + columns
    return _take_rows(reshape(x, [rows * cols]), flat_rows)


@op(method=True, inplace=True)
def index_add(x, index, axis, value, alpha=1, name=None):
    """A copy of ``x`` with ``alpha * value`` added along ``axis`` at the positions ``index``.

    ``index`` is a 1-D int32/int64 Tensor (negative values count from the end);
    ``value`` has ``x``'s dtype and rank, ``len(index)`` along ``axis`` and
    ``x``'s size elsewhere (no broadcasting, as in Paddle). Repeated positions add
    up. An integer ``x`` takes an int ``alpha`` only, as in Paddle.
    ``x.index_add_(...)`` is the in-place form.

    >>> import pylayer as paddle
    >>> x = paddle.ones([3, 2])
    >>> value = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> paddle.index_add(x, paddle.to_tensor([0, 2, 0]), 0, value).numpy()
    array([[7., 9.],
           [1., 1.],
           [4., 5.]], dtype=float32)
    """
    fn = "index_add"
    x = _indexed_tensor(x, fn)
    idx = _index(index, fn, "index", 2)
    if idx.ndim != 1:
        raise ValueError(f"{fn}(): argument 'index' (position 2) must be 1-D, got shape "
                         f"{list(idx.shape)}")
    axis = check_axis(axis, x.ndim, fn)
    value = _like_x(value, x, fn, "value", 4)
    if is_integer(x.numpy().dtype) and isinstance(alpha, (float, np.floating)):
        raise TypeError(f"{fn}(): argument 'alpha' must be an int for the integer 'x' "
                        f"({x.dtype.name}), got {alpha!r}, as in Paddle")
    alpha = check_number(alpha, fn, "alpha")
    size = x.shape[axis]
    rows = _in_range(idx, size, fn, "index", f"axis {axis} of 'x' (size {size})")
    expected = list(x.shape)
    expected[axis] = idx.size
    _check_shape(value, expected, fn, "value", f"x's shape with len(index) on axis {axis}")
    if alpha != 1:
        value = cast(scale(value, alpha), x.dtype)
    perm = [axis] + [d for d in range(x.ndim) if d != axis]
    back = list(np.argsort(perm))
    out = _put_rows(transpose(x, perm), rows, transpose(value, perm), "add")
    return transpose(out, back)


@op(method=True, inplace=True)
def index_put(x, indices, value, accumulate=False, name=None):
    """A copy of ``x`` with ``value`` put at ``x[indices]``.

    ``indices`` is a tuple or list of Tensors, one per leading dimension of
    ``x``: int32/int64 Tensors broadcast together and give coordinates (negative
    values count from the end), a bool Tensor stands for the positions where it
    is true in as many dimensions as it has. ``value`` has ``x``'s dtype and
    broadcasts to the selected positions. Written (where a position repeats, the
    last value wins and alone gets a gradient), or added with ``accumulate``.
    ``x.index_put_(...)`` is the in-place form.

    >>> import pylayer as paddle
    >>> x = paddle.zeros([3, 3])
    >>> indices = (paddle.to_tensor([0, 1, 0]), paddle.to_tensor([1, 2, 1]))
    >>> paddle.index_put(x, indices, paddle.to_tensor([1.0, 2.0, 3.0])).numpy()
    array([[0., 3., 0.],
           [0., 0., 2.],
           [0., 0., 0.]], dtype=float32)
    >>> paddle.index_put(x, indices, paddle.to_tensor([1.0, 2.0, 3.0]), accumulate=True).numpy()
    array([[0., 4., 0.],
           [0., 0., 2.],
           [0., 0., 0.]], dtype=float32)
    """
    fn = "index_put"
    x = as_tensor_arg(x, fn, "x", 1)
    if not isinstance(indices, (tuple, list)) or not indices:
        raise TypeError(f"{fn}(): argument 'indices' (position 2) must be a non-empty tuple or "
                        f"list of Tensors, got {describe(indices)}")
    columns = []
    for i, item in enumerate(indices):
        arg = f"indices[{i}]"
        item = as_tensor_arg(item, fn, arg, 2).numpy()
        if item.dtype == np.bool_:
            dims = x.shape[len(columns):len(columns) + item.ndim]
            if item.ndim == 0 or list(item.shape) != dims:
                raise IndexError(f"{fn}(): argument '{arg}' is a bool mask of shape "
                                 f"{list(item.shape)}, which does not match the dimensions "
                                 f"{dims} of 'x' it indexes")
            columns.extend(np.nonzero(item))
        elif item.dtype in (np.int32, np.int64):
            columns.append(item)
        else:
            raise TypeError(f"{fn}(): argument '{arg}' must be an int32, int64 or bool Tensor, "
                            f"got dtype {item.dtype}")
    if len(columns) > x.ndim:
        raise IndexError(f"{fn}(): 'indices' index {len(columns)} dimensions, but 'x' has only "
                         f"{x.ndim}")
    try:
        columns = np.broadcast_arrays(*columns)
    except ValueError:
        raise ValueError(f"{fn}(): the index tensors in 'indices' must broadcast together, got "
                         f"shapes {[list(c.shape) for c in columns]}") from None
    depth = len(columns)
    rows = _rows_of(columns, x.shape[:depth], fn, "indices")
    rest = x.shape[depth:]
    value = _like_x(value, x, fn, "value", 3)
    target = list(rows.shape) + rest
    if value.shape != target:
        try:
            value = broadcast_to(value, target)
        except ValueError:
            raise ValueError(f"{fn}(): argument 'value' of shape {value.shape} does not "
                             f"broadcast to the shape {target} of the positions it is put "
                             f"at") from None
    out = _put_rows(_leading_as_rows(x, depth), rows, value, "add" if accumulate else "write")
    return reshape(out, x.shape)


@declare(method=True)
def masked_select(x, mask, name=None):
    """The values of ``x`` where the bool ``mask`` is true, as a 1-D Tensor.

    ``x`` and ``mask`` broadcast together. The gradient goes back to the selected
    positions (summed over broadcasting). The size of the result depends on the
    mask's values, so a static Program cannot record it (``TypeError``).

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> paddle.masked_select(x, x > 1.5).numpy()
    array([2., 3., 4.], dtype=float32)
    """
    fn = "masked_select"
    _refuse_variable(fn, x, mask)
    x = as_tensor_arg(x, fn, "x", 1)
    mask = as_tensor_arg(mask, fn, "mask", 2)
    if mask.numpy().dtype != np.bool_:
        raise TypeError(f"{fn}(): argument 'mask' (position 2) must be a bool Tensor, got "
                        f"dtype {mask.dtype.name}")
    try:
        shape = list(np.broadcast_shapes(tuple(x.shape), tuple(mask.shape)))
    except ValueError:
        raise ValueError(f"{fn}(): 'x' of shape {x.shape} and 'mask' of shape {mask.shape} "
                         f"do not broadcast together") from None
    if x.shape != shape:
        x = broadcast_to(x, shape)
    rows = np.flatnonzero(np.broadcast_to(mask.numpy(), shape))
    return _take_rows(reshape(x, [math.prod(shape)]), rows)


# ---------------------------------------------------- counting (no gradient to x)
@declare(method=True)
def nonzero(x, as_tuple=False):
    """The coordinates of the nonzero values of ``x`` (of rank 1 or more), as int64.

    A ``[count, x.ndim]`` Tensor, or with ``as_tuple`` one 1-D Tensor per
    dimension. The result takes no gradient. Its size depends on the values of
    ``x``, so a static Program cannot record it (``TypeError``).

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([[1.0, 0.0], [0.0, 3.0]])
    >>> paddle.nonzero(x).numpy()
    array([[0, 0],
           [1, 1]])
    >>> [t.numpy() for t in paddle.nonzero(x, as_tuple=True)]
    [array([0, 1]), array([0, 1])]
    """
    fn = "nonzero"
    _refuse_variable(fn, x)
    x = _indexed_tensor(x, fn)
    coordinates = [c.astype(np.int64) for c in np.nonzero(x.numpy())]
    if as_tuple:
        return tuple(make_tensor(c) for c in coordinates)
    return make_tensor(np.stack(coordinates, axis=1))


@declare(method=True)
def bincount(x, weights=None, minlength=0, name=None):
    """How often each value ``0, 1, ...`` occurs in the 1-D non-negative int Tensor ``x``.

    The result has ``max(x.max() + 1, minlength)`` entries: int64 counts, or
    with ``weights`` (``x``'s shape) the sums of the weights, in the weights'
    float dtype (float64 for int weights), as in Paddle. The gradient reaches
    float ``weights`` (Paddle gives them none). The size of the result depends on
    the values of ``x``, so a static Program cannot record it (``TypeError``).

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([1, 1, 3])
    >>> paddle.bincount(x).numpy()
    array([0, 2, 0, 1])
    >>> paddle.bincount(x, weights=paddle.to_tensor([0.5, 1.0, 2.0]), minlength=5).numpy()
    array([0. , 1.5, 0. , 2. , 0. ], dtype=float32)
    """
    fn = "bincount"
    _refuse_variable(fn, x, weights, minlength)
    idx = _index(x, fn, "x", 1)
    if idx.ndim != 1:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must be 1-D, got shape "
                         f"{list(idx.shape)}")
    if idx.size and idx.min() < 0:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must hold non-negative values, "
                         f"got {idx.min()}")
    minlength = check_int(minlength, fn, "minlength", minimum=0)
    length = max(int(idx.max()) + 1 if idx.size else 0, minlength)
    check_count(length, fn, "minlength", np.int64 if weights is None else np.float64)
    if weights is None:
        return make_tensor(np.bincount(idx, minlength=length).astype(np.int64))
    weights = as_tensor_arg(weights, fn, "weights", 2)
    dtype = weights.numpy().dtype
    if not (is_integer(dtype) or is_floating(dtype)):
        raise TypeError(f"{fn}(): argument 'weights' (position 2) must be a float or int "
                        f"Tensor, got dtype {weights.dtype.name}")
    _check_shape(weights, idx.shape, fn, "weights", "the shape of 'x'")
    if not is_floating(dtype):
        weights = cast(weights, "float64")
    return _add_rows(weights, idx.astype(np.intp), (length,))


@op(method=True)
def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None):
    """Counts of the values of ``input`` in ``bins`` equal bins over ``[min, max]``.

    The last bin includes ``max``; values outside the range (and NaN) are not
    counted. ``min`` and ``max`` must be finite, and so must their difference
    (a ``ValueError`` otherwise, as in Paddle). When ``min == max`` the range is
    the data's ``[min, max]`` (widened by 1 on each side when those are equal
    too), as in Paddle. The result is int64
    counts, or float32 with ``weight`` (summed weights, ``input``'s shape and
    dtype) or ``density`` (normalized so that it integrates to 1). It takes no
    gradient.

    >>> import pylayer
    >>> pylayer.histogram(pylayer.to_tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=4).numpy()
    array([0, 2, 1, 1])
    >>> pylayer.histogram(pylayer.to_tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=4,
    ...                   density=True).numpy()
    array([0.  , 0.5 , 0.25, 0.25], dtype=float32)
    """
    fn = "histogram"
    input = as_tensor_arg(input, fn, "input", 1)
    a = input.numpy().ravel()
    if not (is_integer(a.dtype) or is_floating(a.dtype)):
        raise TypeError(f"{fn}(): argument 'input' (position 1) must be a float or int Tensor, "
                        f"got dtype {input.dtype.name}")
    bins = check_int(bins, fn, "bins", minimum=1)
    check_count(bins, fn, "bins", np.float64)
    low = check_number(min, fn, "min")
    high = check_number(max, fn, "max")
    for arg, value in (("min", low), ("max", high)):
        if not np.isfinite(value):
            raise ValueError(f"{fn}(): argument '{arg}' must be a finite number, got {value}")
    if high < low:
        raise ValueError(f"{fn}(): argument 'max' ({high}) must be at least 'min' ({low})")
    if not np.isfinite(high - low):
        raise ValueError(f"{fn}(): argument 'max' ({high}) is too far from 'min' ({low}): the "
                         f"width of the range is not a finite number")
    if weight is not None:
        weight = as_tensor_arg(weight, fn, "weight", 5)
        if weight.numpy().dtype != input.numpy().dtype:
            raise TypeError(f"{fn}(): argument 'weight' must have the dtype of 'input' "
                            f"({input.dtype.name}), got {weight.dtype.name}")
        _check_shape(weight, input.shape, fn, "weight", "the shape of 'input'")
    if low == high and a.size:
        low, high = float(np.nanmin(a)), float(np.nanmax(a))
        if not (np.isfinite(low) and np.isfinite(high)):
            raise ValueError(f"{fn}(): the data's range [{low}, {high}] is not finite; give "
                             f"'min' and 'max'")
        if not np.isfinite(high - low):
            raise ValueError(f"{fn}(): the data's range [{low}, {high}] is too wide for its "
                             f"width to be a finite number; give 'min' and 'max'")
    if low == high:
        low, high = low - 1, high + 1
    values = a.astype(np.float64)
    inside = (values >= low) & (values <= high)
    which = np.minimum(((values[inside] - low) * bins / (high - low)).astype(np.int64), bins - 1)
    counted = None if weight is None else weight.numpy().ravel()[inside].astype(np.float64)
    counts = np.bincount(which, weights=counted, minlength=bins)
    if density:
        total = counts.sum()
        counts = counts / (total * (high - low) / bins) if total else counts * 0.0
    if weight is None and not density:
        return make_tensor(counts.astype(np.int64))
    return make_tensor(counts.astype(np.float32))


# ----------------------------------------- Paddle's function-level in-place twins
index_add_ = inplace_twin(index_add)
index_put_ = inplace_twin(index_put)
scatter_ = inplace_twin(scatter)
