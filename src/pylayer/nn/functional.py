"""Functional forms of the nn layers: activations, dropout, losses and ``linear``.

The activations and losses are the ops of ``pylayer.ops.activation`` and
``pylayer.ops.loss`` (``tanh`` of ``pylayer.ops.math``), public here under
their Paddle names.
"""
import math

import numpy as np

from pylayer._core.graph import make_output_legacy
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer.ops import creation
from pylayer.ops._arguments import check_axis, check_choice, check_int, check_number, float_tensor
from pylayer.ops._linalg import matmul
from pylayer.ops._reduction import sum as reduce_sum
from pylayer.ops._shape import reshape
from pylayer.ops.activation import (gelu, hardtanh, leaky_relu, log_softmax, relu, sigmoid,
                                    softmax)
from pylayer.ops.arithmetic import add, multiply
from pylayer.ops.dispatch import op
from pylayer.ops.loss import (_check_reduction, check_cross_entropy_arguments,  # noqa: F401
                              cross_entropy, mse_loss)
from pylayer.ops.math import tanh

__all__ = ["relu", "leaky_relu", "gelu", "hardtanh", "sigmoid", "tanh", "softmax", "log_softmax",
           "dropout", "mse_loss", "cross_entropy", "linear", "conv1d", "conv2d",
           "conv1d_transpose", "conv2d_transpose", "pad", "interpolate", "pixel_shuffle",
           "one_hot", "embedding", "layer_norm", "batch_norm", "group_norm", "max_pool1d",
           "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d"]


# ---------------------------------------------------------------- dropout
def check_dropout_arguments(p, axis, mode, fn):
    """Check dropout's settings (for ``dropout`` and ``Dropout``); returns ``p`` as a float."""
    p = check_number(p, fn, "p", minimum=0.0, maximum=1.0)
    check_choice(mode, fn, "mode", ("upscale_in_train", "downscale_in_infer"))
    for item in axis if isinstance(axis, (list, tuple)) else [axis]:
        if item is not None:
            check_int(item, fn, "axis")
    return p


def _dropout_bw(node, g):
    return (multiply(g, node.saved_tensors()[0]),)


@op
def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """Zero each element with probability ``p`` (drawn from pylayer's seeded stream).

    ``mode='upscale_in_train'`` scales the kept elements by ``1 / (1 - p)`` in
    training and returns ``x`` unchanged otherwise; ``'downscale_in_infer'``
    keeps them as they are in training and scales by ``1 - p`` otherwise.
    ``axis`` draws one decision per index along those axes only. Saves the
    scaled mask.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.ones([4])
    >>> F.dropout(x, p=0.0).numpy()
    array([1., 1., 1., 1.], dtype=float32)
    >>> F.dropout(x, p=0.5, training=False) is x
    True
    """
    p = check_dropout_arguments(p, axis, mode, "dropout")
    x = float_tensor(x, "dropout")
    if not training:
        return x if mode == "upscale_in_train" else multiply(x, 1.0 - p)
    if p == 0:
        return x
    a = x.numpy()
    shape = list(a.shape)
    if axis is not None:
        axes = {check_axis(v, a.ndim, "dropout") for v in (axis if isinstance(axis, (list, tuple))
                                                      else [axis])}
        shape = [s if i in axes else 1 for i, s in enumerate(shape)]
    keep = creation.get_rng().random(shape) >= p
    scale = 1.0 / (1.0 - p) if mode == "upscale_in_train" and p < 1 else 1.0
    mask = (keep * scale).astype(a.dtype)
    return make_output_legacy(a * mask, (x,), "dropout", _dropout_bw, save=(make_tensor(mask),))


# ----------------------------------------------------------------- linear
_KERNEL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


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
    # One matrix product over all leading dimensions, the bias added in place: one node
    out = np.matmul(a.reshape(math.prod(a.shape[:-1]), w.shape[0]), w)
    if bias is not None:
        out += bias.numpy()
    return make_output_legacy(out.reshape(a.shape[:-1] + w.shape[1:]), (x, weight, bias), "linear",
                       _linear_bw, save=(x, weight))


def _linear_bw(node, g):
    x, weight = node.saved_tensors()
    needs = node.needs_input_grad
    if is_grad_enabled():                  # to be differentiated again: recorded ops
        rows = math.prod(x.shape[:-1])
        return (matmul(g, weight, transpose_y=True) if needs[0] else None,
                matmul(reshape(x, [rows, weight.shape[0]]), reshape(g, [rows, weight.shape[1]]),
                       transpose_x=True) if needs[1] else None,
                reduce_sum(g, axis=list(range(g.ndim - 1))) if needs[2] else None)
    rows = math.prod(x.shape[:-1])
    g2 = np.asarray(g.numpy()).reshape(rows, weight.shape[1])
    return (make_tensor((g2 @ weight.numpy().T).reshape(x.shape)) if needs[0] else None,
            make_tensor(x.numpy().reshape(rows, weight.shape[0]).T @ g2) if needs[1] else None,
            make_tensor(g2.sum(axis=0)) if needs[2] else None)


# The layers' areas hold the rest of the functional forms.
from pylayer.nn.conv import conv1d, conv1d_transpose, conv2d, conv2d_transpose  # noqa: E402
from pylayer.nn.input import embedding, one_hot  # noqa: E402
from pylayer.nn.norm import batch_norm, group_norm, layer_norm  # noqa: E402
from pylayer.nn.pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d,  # noqa: E402
                                avg_pool1d, avg_pool2d, max_pool1d, max_pool2d)
from pylayer.nn.spatial import interpolate, pad, pixel_shuffle  # noqa: E402
