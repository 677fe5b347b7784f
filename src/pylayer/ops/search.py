"""Sorting and searching along an axis: ``argsort``, ``sort``, ``topk``.

Orders are stable: equal values keep their order of position, in
descending order too. A NaN counts as larger than every number (last in
ascending order, first in descending order). Sorted values are picked
from ``x`` with :func:`pylayer.take_along_axis`, so their gradient goes
back to the positions they came from.
"""
import numpy as np

from pylayer._kernels.dtypes import is_real
from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import check_axis, check_int
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.dispatch import op
from pylayer.ops.manipulation import take_along_axis
from pylayer.ops.shape import reshape

__all__ = ["argsort", "sort", "topk"]


def _order(a, axis, descending):
    """Stable argsort of ``a`` along ``axis`` (int64 indices)."""
    if not descending:
        return np.argsort(a, axis=axis, kind="stable").astype(np.int64)
    # Sorting the reversed array and reversing back keeps ties in position order.
    reverse = np.flip(np.argsort(np.flip(a, axis), axis=axis, kind="stable"), axis)
    return (a.shape[axis] - 1 - reverse).astype(np.int64)


def _sort_input(x, axis, fn):
    x = as_tensor_arg(x, fn, "x", 1)
    if not is_real(x.numpy().dtype):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a numeric Tensor, got "
                        f"dtype {x.dtype.name}")
    return x, check_axis(axis, x.ndim, fn)


@op(method=True)
def argsort(x, axis=-1, descending=False, stable=False, name=None):
    """The int64 indices that sort ``x`` along ``axis`` (stable; NaN counts as largest).

    >>> import pylayer
    >>> x = pylayer.to_tensor([3.0, 1.0, 2.0, 1.0])
    >>> pylayer.argsort(x).numpy()
    array([1, 3, 2, 0])
    >>> pylayer.argsort(x, descending=True).numpy()
    array([0, 2, 1, 3])
    """
    x, axis = _sort_input(x, axis, "argsort")
    if x.ndim == 0:
        return make_tensor(np.zeros((), np.int64))
    return make_tensor(_order(x.numpy(), axis, bool(descending)))


@op(method=True)
def sort(x, axis=-1, descending=False, stable=False, name=None):
    """``x`` sorted along ``axis`` (stable; NaN counts as largest).

    The gradient of each sorted value goes back to the position it came from.

    >>> import pylayer
    >>> pylayer.sort(pylayer.to_tensor([[3.0, 1.0], [0.0, 5.0]]), axis=1, descending=True).numpy()
    array([[3., 1.],
           [5., 0.]], dtype=float32)
    """
    x, axis = _sort_input(x, axis, "sort")
    if x.ndim == 0:
        return reshape(sort(reshape(x, [1])), [])
    return take_along_axis(x, make_tensor(_order(x.numpy(), axis, bool(descending))), axis)


@op(method=True)
def topk(x, k, axis=None, largest=True, sorted=True, name=None):
    """The ``k`` largest (or, with ``largest=False``, smallest) entries along ``axis``.

    Returns ``(values, indices)``; ``axis`` defaults to the last one. Results
    come in sorted order whatever ``sorted`` says; among equal values the
    earlier position comes first. ``k`` larger than the axis is a
    ``ValueError``. The gradient of each value goes back to its position.

    >>> import pylayer
    >>> values, indices = pylayer.topk(pylayer.to_tensor([[0.0, 5.0, 5.0, -1.0]]), k=2)
    >>> values.numpy(), indices.numpy()
    (array([[5., 5.]], dtype=float32), array([[1, 2]]))
    """
    x, axis = _sort_input(x, -1 if axis is None else axis, "topk")
    k = check_int(k, "topk", "k", minimum=0)
    if x.ndim == 0:
        x = reshape(x, [1])
    size = x.shape[axis]
    if k > size:
        raise ValueError(f"topk(): argument 'k' ({k}) must not exceed the size {size} of axis "
                         f"{axis} of x (shape {x.shape})")
    order = _order(x.numpy(), axis, bool(largest))
    indices = make_tensor(np.ascontiguousarray(np.take(order, np.arange(k), axis=axis)))
    return take_along_axis(x, indices, axis), indices
