"""``linear``: ``x @ weight + bias``, one recorded op for float32 and float64.

One matrix product over all leading dimensions of ``x``, the bias added in
place. Each input has its own gradient rule, in numpy, or with recorded ops
when the gradient is to be differentiated again. Other dtypes (and a bias of
another shape or dtype) are computed with ``matmul`` and ``add``.
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer._kernels.conv import pooled_empty
from pylayer._kernels.loops import column_sums
from pylayer.ops._arguments import float_tensor
from pylayer.ops.arithmetic import add
from pylayer.ops.linalg import matmul, matrix_product
from pylayer.ops.reduction import sum as reduce_sum
from pylayer.ops.shape import reshape
from pylayer.ops.dispatch import op

__all__ = ["linear"]

_KERNEL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _matrix(a):
    """The array ``a`` as a matrix: one row per index of its leading dimensions."""
    return a.reshape(math.prod(a.shape[:-1]), a.shape[-1])


def _product(a, b, shape):
    """The matrix product ``a @ b`` (2-D arrays of one float dtype) written into a new
    array of ``shape`` (its size that of the product), on pooled memory when large."""
    out = pooled_empty(shape, a.dtype)
    matrix_product(a, b, out.reshape(a.shape[0], b.shape[1]))
    return out


def _x_grad(g, weight):
    if is_grad_enabled():                  # to be differentiated again: recorded ops
        return matmul(g, weight, transpose_y=True)
    dy, w = g.numpy(), weight.numpy()
    if dy.dtype != w.dtype:
        return make_tensor((_matrix(dy) @ w.T).reshape(dy.shape[:-1] + w.shape[:1]))
    return make_tensor(_product(_matrix(dy), w.T, dy.shape[:-1] + w.shape[:1]))


def _weight_grad(g, x):
    if is_grad_enabled():
        rows = math.prod(x.shape[:-1])
        return matmul(reshape(x, [rows, x.shape[-1]]), reshape(g, [rows, g.shape[-1]]),
                      transpose_x=True)
    a, dy = _matrix(x.numpy()), _matrix(g.numpy())
    if a.dtype != dy.dtype:
        return make_tensor(a.T @ dy)
    return make_tensor(_product(a.T, dy, (a.shape[1], dy.shape[1])))


def _bias_grad(g):
    if is_grad_enabled():
        return reduce_sum(g, axis=list(range(g.ndim - 1)))
    dy = _matrix(g.numpy())
    if dy.dtype not in _KERNEL_DTYPES:
        return make_tensor(dy.sum(axis=0))
    sums = np.empty(dy.shape[1], dy.dtype)
    column_sums(np.ascontiguousarray(dy), sums)
    return make_tensor(sums)


LINEAR = Op("linear", inputs=("x", "weight", "bias"), keeps=("x", "weight"),
            vjp=(_x_grad, _weight_grad, _bias_grad))


@op
def linear(x, weight, bias=None, name=None):
    """``x @ weight + bias`` with ``weight`` shaped ``[in_features, out_features]``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.linear(pylayer.ones([1, 2]), pylayer.ones([2, 3]), pylayer.ones([3])).numpy()
    array([[3., 3., 3.]], dtype=float32)
    """
    x = float_tensor(x, "linear")
    weight = float_tensor(weight, "linear", "weight", 2)
    if weight.ndim != 2 or x.ndim < 1 or x.shape[-1] != weight.shape[0]:
        raise ValueError(f"linear(): argument 'weight' must have shape [in_features, "
                         f"out_features] with in_features = {x.shape[-1:]} (the last dim of "
                         f"'x', shape {x.shape}), got {weight.shape}")
    if bias is not None:
        bias = float_tensor(bias, "linear", "bias", 3)
        if bias.shape not in ([weight.shape[1]], [1], []):
            raise ValueError(f"linear(): argument 'bias' must have shape [{weight.shape[1]}] "
                             f"(out_features), got {bias.shape}")
    a, w = x.numpy(), weight.numpy()
    if x.ndim < 2 or a.dtype != w.dtype or a.dtype not in _KERNEL_DTYPES or (
            bias is not None and (bias.shape != [w.shape[1]] or bias.numpy().dtype != a.dtype)):
        out = matmul(x, weight)
        return out if bias is None else add(out, bias)
    out = _product(_matrix(a), w, a.shape[:-1] + w.shape[1:])
    if bias is not None:
        out += bias.numpy()
    return make_output(LINEAR, out, (x, weight, bias))
