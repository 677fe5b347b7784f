"""Paddle's ``paddle.incubate.segment_sum``, ``segment_mean``, ``segment_max`` and
``segment_min``: reductions of the rows of ``data`` grouped by ``segment_ids``.

``segment_ids`` (int32 or int64, one id per row of ``data``, sorted ascending, from 0)
names each row's segment; the result has ``segment_ids[-1] + 1`` rows, one per segment,
and a segment no row names is zeros. Rows of a segment are contiguous (the ids are
sorted), so each reduction is one ``numpy.ufunc.reduceat`` over the starts of the
segments.

Gradients (float data): a row of a segment gets the segment's gradient (``sum``), that
divided by the segment's size (``mean``), or it when the row equals the segment's
maximum (minimum): as in Paddle, every tied row gets the whole gradient. Integer data
takes no gradient.

Paddle 3.3.1 marks these deprecated (in favour of ``paddle.geometric``, which pylayer
does not have) and warns on every call; pylayer does not warn.
"""
import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import as_tensor_arg
from pylayer.ops.arithmetic import divide, multiply
from pylayer.ops.dispatch import op
from pylayer.ops.manipulation import index_select

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min"]

_DATA_DTYPES = ("float16", "float32", "float64", "int32", "int64")


def _gather(g, ids):
    return index_select(g, make_tensor(ids), axis=0)


def _sum_vjp(g, ids):
    return _gather(g, ids)


def _mean_vjp(g, ids, counts):
    return _gather(divide(g, make_tensor(counts.astype(g.numpy().dtype))), ids)


def _extreme_vjp(g, data, out, ids):
    hit = data.numpy() == out.numpy()[ids]
    return multiply(_gather(g, ids), make_tensor(hit.astype(g.numpy().dtype)))


SEGMENT_SUM = Op("segment_sum", inputs=("data", "segment_ids"), attrs=("ids",),
                 vjp=(_sum_vjp, None))
SEGMENT_MEAN = Op("segment_mean", inputs=("data", "segment_ids"), attrs=("ids", "counts"),
                  vjp=(_mean_vjp, None))
SEGMENT_MAX = Op("segment_max", inputs=("data", "segment_ids"), keeps=("data", "out"),
                 attrs=("ids",), vjp=(_extreme_vjp, None))
SEGMENT_MIN = Op("segment_min", inputs=("data", "segment_ids"), keeps=("data", "out"),
                 attrs=("ids",), vjp=(_extreme_vjp, None))


def _operands(data, segment_ids, fn):
    """The checked tensors, the ids as a 1-D int64 array, and the segments: the ids
    present, the first row of each, and the number of rows of the result."""
    data = as_tensor_arg(data, fn, "data", 1)
    segment_ids = as_tensor_arg(segment_ids, fn, "segment_ids", 2)
    a, ids = data.numpy(), segment_ids.numpy()
    if str(data.dtype).split(".")[-1] not in _DATA_DTYPES:
        raise TypeError(f"{fn}(): argument 'data' (position 1) must be a Tensor of dtype "
                        f"float16, float32, float64, int32 or int64, got dtype {data.dtype}")
    if ids.dtype not in (np.int32, np.int64):
        raise TypeError(f"{fn}(): argument 'segment_ids' (position 2) must be a Tensor of "
                        f"dtype int32 or int64, got dtype {segment_ids.dtype}")
    if a.ndim == 0:
        raise ValueError(f"{fn}(): argument 'data' (position 1) must have at least one "
                         f"dimension (its rows are grouped), got a 0-D Tensor")
    if ids.ndim == 0 or ids.size != ids.shape[0]:
        raise ValueError(f"{fn}(): argument 'segment_ids' (position 2) must be 1-D (or have "
                         f"its other dimensions of size 1), got shape {list(ids.shape)}")
    ids = ids.reshape(-1).astype(np.int64)
    if ids.size != a.shape[0]:
        raise ValueError(f"{fn}(): argument 'segment_ids' (position 2) must have one id per "
                         f"row of data ({a.shape[0]}), got {ids.size}")
    if ids.size and ids[0] < 0:
        raise ValueError(f"{fn}(): argument 'segment_ids' (position 2) must be >= 0, got "
                         f"{ids[0]}")
    if ids.size > 1 and np.any(ids[1:] < ids[:-1]):
        at = int(np.argmax(ids[1:] < ids[:-1]))
        raise ValueError(f"{fn}(): argument 'segment_ids' (position 2) must be sorted "
                         f"ascending, got segment_ids[{at}] = {ids[at]} > "
                         f"segment_ids[{at + 1}] = {ids[at + 1]}")
    present, first = np.unique(ids, return_index=True)
    rows = int(ids[-1]) + 1 if ids.size else 0
    return data, segment_ids, a, ids, present, first, rows


def _reduce(ufunc, a, present, first, rows):
    """``ufunc`` over each segment's rows, zeros for a segment without rows."""
    out = np.zeros((rows,) + a.shape[1:], dtype=a.dtype)
    if present.size:
        out[present] = ufunc.reduceat(a, first, axis=0)
    return out


@op
def segment_sum(data, segment_ids, name=None):
    """The sum of the rows of ``data`` in each segment of ``segment_ids`` (sorted int ids
    from 0, one per row); a segment without rows is zeros.

    >>> import pylayer
    >>> data = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> pylayer.incubate.segment_sum(data, pylayer.to_tensor([0, 0, 2])).numpy()
    array([[4., 6.],
           [0., 0.],
           [5., 6.]], dtype=float32)
    """
    data, segment_ids, a, ids, present, first, rows = _operands(data, segment_ids,
                                                                "segment_sum")
    out = _reduce(np.add, a, present, first, rows)
    return make_output(SEGMENT_SUM, out, (data, segment_ids), (ids,))


@op
def segment_mean(data, segment_ids, name=None):
    """The mean of the rows of ``data`` in each segment of ``segment_ids``; a segment
    without rows is zeros. Integer data gives the integer quotient, rounded toward zero,
    as Paddle does.

    >>> import pylayer
    >>> data = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> pylayer.incubate.segment_mean(data, pylayer.to_tensor([0, 0, 1])).numpy()
    array([[2., 3.],
           [5., 6.]], dtype=float32)
    """
    data, segment_ids, a, ids, present, first, rows = _operands(data, segment_ids,
                                                                "segment_mean")
    total = _reduce(np.add, a, present, first, rows)
    counts = np.maximum(np.bincount(ids, minlength=rows), 1).reshape(
        (rows,) + (1,) * (a.ndim - 1))
    if np.issubdtype(a.dtype, np.integer):
        out = (np.sign(total) * (np.abs(total) // counts)).astype(a.dtype)
    else:
        out = (total / counts).astype(a.dtype)
    return make_output(SEGMENT_MEAN, out, (data, segment_ids), (ids, counts))


@op
def segment_max(data, segment_ids, name=None):
    """The largest of the rows of ``data`` in each segment of ``segment_ids``, element by
    element; a segment without rows is zeros. Every row equal to its segment's maximum
    gets the segment's gradient.

    >>> import pylayer
    >>> data = pylayer.to_tensor([[1.0, 6.0], [3.0, 4.0], [5.0, 2.0]])
    >>> pylayer.incubate.segment_max(data, pylayer.to_tensor([0, 0, 1])).numpy()
    array([[3., 6.],
           [5., 2.]], dtype=float32)
    """
    data, segment_ids, a, ids, present, first, rows = _operands(data, segment_ids,
                                                                "segment_max")
    out = _reduce(np.maximum, a, present, first, rows)
    return make_output(SEGMENT_MAX, out, (data, segment_ids), (ids,))


@op
def segment_min(data, segment_ids, name=None):
    """The smallest of the rows of ``data`` in each segment of ``segment_ids``, element
    by element; a segment without rows is zeros. Every row equal to its segment's
    minimum gets the segment's gradient.

    >>> import pylayer
    >>> data = pylayer.to_tensor([[1.0, 6.0], [3.0, 4.0], [5.0, 2.0]])
    >>> pylayer.incubate.segment_min(data, pylayer.to_tensor([0, 0, 1])).numpy()
    array([[1., 4.],
           [5., 2.]], dtype=float32)
    """
    data, segment_ids, a, ids, present, first, rows = _operands(data, segment_ids,
                                                                "segment_min")
    out = _reduce(np.minimum, a, present, first, rows)
    return make_output(SEGMENT_MIN, out, (data, segment_ids), (ids,))
