"""Normalization: ``layer_norm``, ``batch_norm``, ``group_norm``, ``instance_norm``,
``local_response_norm``, ``rms_norm`` and ``normalize``.

Each normalizes with ``(x - mean) / sqrt(var + epsilon)``, the variance
being the biased one (divided by the count), then scales by ``weight`` and
shifts by ``bias``. Layer normalization and batch normalization in training
are one recorded op each (:func:`normalize_affine`): numpy computes the
statistics once, and the gradient is the closed form below, written with
recorded ops when it must be differentiated again. Group normalization and
the normalization by running statistics are written with recorded ops, as are
instance normalization (layer normalization of each channel), the local response
and RMS normalizations and ``normalize``.
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, is_grad_enabled, make_tensor
from pylayer._kernels import norm as norm_kernels
from pylayer._kernels.conv import pooled_empty
from pylayer.ops._arguments import (check_axis, check_choice, check_count, check_int, check_ints,
                                    check_number, float_tensor)
from pylayer.ops.arithmetic import add, divide, maximum, multiply, subtract
from pylayer.ops.creation import zeros
from pylayer.ops.manipulation import concat, slice as slice_axes
from pylayer.ops.math import pow as power, square
from pylayer.ops.reduction import mean, sum as reduce_sum
from pylayer.ops.selection import _write_out
from pylayer.ops.shape import reshape
from pylayer.ops.statistics import norm
from pylayer.ops.dispatch import op
from pylayer.ops.math import rsqrt

__all__ = ["layer_norm", "batch_norm", "group_norm", "instance_norm", "local_response_norm",
           "rms_norm", "normalize"]


def _statistics(x, axes, epsilon):
    """``x - mean`` and ``1 / sqrt(var + epsilon)`` over ``axes`` (biased variance),
    with recorded ops."""
    centred = subtract(x, mean(x, axis=axes, keepdim=True))
    return centred, rsqrt(add(mean(square(centred), axis=axes, keepdim=True), epsilon))


def _normalize(x, axes, epsilon):
    """``(x - mean) / sqrt(var + epsilon)`` over ``axes`` (biased variance)."""
    return multiply(*_statistics(x, axes, epsilon))


def _check_affine(weight, bias, shape, fn):
    """Refuse a weight or bias that is not a Tensor of ``prod(shape)`` elements."""
    size = math.prod(shape)
    for arg, t in (("weight", weight), ("bias", bias)):
        if t is not None and (not isinstance(t, Tensor) or t.size != size):
            raise ValueError(f"{fn}(): argument '{arg}' must be a Tensor of {size} elements, "
                             f"got {t.shape if isinstance(t, Tensor) else type(t).__name__}")


def _affine(y, weight, bias, shape, fn):
    """``y * weight + bias``, each reshaped to ``shape`` (either may be None)."""
    _check_affine(weight, bias, shape, fn)
    if weight is not None:
        y = multiply(y, reshape(weight, shape))
    if bias is not None:
        y = add(y, reshape(bias, shape))
    return y


# ------------------------------------------------ one op: normalize and affine
_COMPUTE = {np.dtype(np.float32): np.float32, np.dtype(np.float64): np.float64}


def _normalize_affine_vjp(g, x, weight, axes, epsilon, shape, layout, batch_mean, rstd,
                          bias_shape, needs_input_grad):
    """The gradients of normalize_affine: the kernels' closed form, or recorded ops when
    they are to be differentiated again."""
    needs = needs_input_grad
    if is_grad_enabled():
        return _normalize_affine_grads(x, weight, g, axes, epsilon, shape, bias_shape, needs)
    a = x.numpy()
    dtype = _COMPUTE.get(a.dtype, np.float32)
    dx = pooled_empty(a.shape, dtype)
    dweight, dbias = np.empty(layout[1][1]), np.empty(layout[1][1])
    backward = norm_kernels.row_backward if layout[0] == "rows" \
        else norm_kernels.channel_backward
    backward(np.ascontiguousarray(a, dtype).reshape(layout[1]),
             np.ascontiguousarray(g.numpy(), dtype).reshape(layout[1]), batch_mean, rstd,
             _parameters(weight, None, layout, dtype)[0], dx.reshape(layout[1]), dweight,
             dbias)
    return (make_tensor(dx.astype(a.dtype, copy=False)) if needs[0] else None,
            make_tensor(dweight.astype(a.dtype).reshape(weight.shape)) if needs[1] else None,
            make_tensor(dbias.astype(a.dtype).reshape(bias_shape)) if needs[2] else None)


# Normalize and scale as one op: the node keeps x, the weight (None when left out)
# and the batch's statistics; the three gradients share the work, so one rule.
_NORMALIZE_AFFINE = dict(inputs=("x", "weight", "bias"), keeps=("x", "weight"),
                         attrs=("axes", "epsilon", "shape", "layout", "batch_mean", "rstd",
                                "bias_shape"),
                         vjp=_normalize_affine_vjp)
LAYER_NORM = Op("layer_norm", **_NORMALIZE_AFFINE)
BATCH_NORM = Op("batch_norm", **_NORMALIZE_AFFINE)


def normalize_affine(record, x, weight, bias, axes, epsilon, shape):
    """``(x - mean) / sqrt(var + epsilon) * weight + bias`` over ``axes`` as one call of
    ``record`` (LAYER_NORM or BATCH_NORM); ``weight`` and ``bias`` (either may be None)
    are reshaped to ``shape``, which broadcasts against ``x``. ``axes`` are the last ones
    (layer normalization: the weight runs along them) or all but one (batch
    normalization: one weight per channel). Returns the output and the batch mean and
    (biased) variance as arrays of the statistics' size."""
    _check_affine(weight, bias, shape, record.name)
    a = x.numpy()
    dtype = _COMPUTE.get(a.dtype, np.float32)               # float16 in float32
    layout = _layout(a.shape, axes)
    out = pooled_empty(a.shape, dtype)
    batch_mean = np.empty(layout[1][0 if layout[0] == "rows" else 1])
    rstd = np.empty_like(batch_mean)
    params = _parameters(weight, bias, layout, dtype)
    forward = norm_kernels.row_forward if layout[0] == "rows" else norm_kernels.channel_forward
    forward(np.ascontiguousarray(a, dtype).reshape(layout[1]), *params, float(epsilon),
            out.reshape(layout[1]), batch_mean, rstd)
    y = make_output(record, out.astype(a.dtype, copy=False), (x, weight, bias),
                    (tuple(axes), epsilon, shape, layout, batch_mean, rstd,
                     None if bias is None else bias.shape))
    return y, batch_mean, 1.0 / (rstd * rstd) - epsilon


def _layout(shape, axes):
    """How the kernels see ``x``: ``("rows", (R, D))`` when ``axes`` are the last ones,
    else ``("channels", (A, C, B))`` around the one axis left out."""
    ndim = len(shape)
    if list(axes) == list(range(ndim - len(axes), ndim)):
        return "rows", (math.prod(shape[:ndim - len(axes)]), math.prod(shape[ndim - len(axes):]))
    (channel,) = [i for i in range(ndim) if i not in axes]
    return "channels", (math.prod(shape[:channel]), shape[channel],
                        math.prod(shape[channel + 1:]))


def _parameters(weight, bias, layout, dtype):
    """The weight and bias as contiguous vectors along the parameter axis (ones and zeros
    for those left out)."""
    size = layout[1][1]
    return [np.ones(size, dtype) if weight is None
            else np.ascontiguousarray(weight.numpy().reshape(-1), dtype),
            np.zeros(size, dtype) if bias is None
            else np.ascontiguousarray(bias.numpy().reshape(-1), dtype)]


def _normalize_affine_grads(x, weight, g, axes, epsilon, shape, bias_shape, needs):
    """The gradients of normalize_affine written with recorded ops."""
    centred, rstd = _statistics(x, list(axes), epsilon)
    xhat = multiply(centred, rstd)
    d = g if weight is None else multiply(g, reshape(weight, shape))
    dx = dw = db = None
    if needs[0]:
        spread = multiply(xhat, mean(multiply(d, xhat), axis=list(axes), keepdim=True))
        dx = multiply(subtract(subtract(d, mean(d, axis=list(axes), keepdim=True)), spread),
                      rstd)
    sums = [i for i, size in enumerate(shape) if size == 1]
    if needs[1]:
        dw = reshape(reduce_sum(multiply(g, xhat), axis=sums), weight.shape)
    if needs[2]:
        db = reshape(reduce_sum(g, axis=sums), bias_shape)
    return dx, dw, db


# ---------------------------------------------------------------- layer norm
@op
def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalize over the last dimensions, those of ``normalized_shape``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.layer_norm(pylayer.to_tensor([[1.0, 2.0, 3.0]]), 3).numpy().round(4)
    array([[-1.2247,  0.    ,  1.2247]], dtype=float32)
    """
    fn = "layer_norm"
    x = float_tensor(x, fn)
    shape = check_ints(normalized_shape, fn, "normalized_shape")
    epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
    if not shape or x.shape[x.ndim - len(shape):] != shape or len(shape) > x.ndim:
        raise ValueError(f"{fn}(): argument 'normalized_shape' {shape} must be the last "
                         f"dimensions of x, whose shape is {x.shape}")
    axes = list(range(x.ndim - len(shape), x.ndim))
    return normalize_affine(LAYER_NORM, x, weight, bias, axes, epsilon,
                            [1] * (x.ndim - len(shape)) + shape)[0]


# ---------------------------------------------------------------- batch norm
def _channel_axis(x, data_format, fn):
    formats = ["NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"]
    check_choice(data_format, fn, "data_format", formats)
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' must have at least 2 dimensions, got shape "
                         f"{x.shape}")
    return 1 if data_format.startswith("NC") else x.ndim - 1


@op
def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.9, epsilon=1e-05, data_format="NCHW", use_global_stats=None,
               name=None):
    """Normalize each channel over the batch and the other dimensions.

    In training (and unless ``use_global_stats``) the statistics of the
    batch are used, and ``running_mean``/``running_var`` are updated in
    place as ``momentum * running + (1 - momentum) * batch`` (Paddle's
    convention; the batch variance is the biased one). Otherwise the
    running statistics are used. The channel axis is 1 for ``'NC...'``
    formats and the last one for ``'N...C'``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]])
    >>> mean, var = pylayer.zeros([2]), pylayer.ones([2])
    >>> F.batch_norm(x, mean, var, training=True).numpy().round(4)[:, 0]
    array([-1.2247,  0.    ,  1.2247], dtype=float32)
    >>> mean.numpy(), var.numpy().round(4)
    (array([0.3, 0.3], dtype=float32), array([1.1667, 1.3667], dtype=float32))
    """
    fn = "batch_norm"
    x = float_tensor(x, fn)
    axis = _channel_axis(x, data_format, fn)
    channels = x.shape[axis]
    for arg, t in (("running_mean", running_mean), ("running_var", running_var)):
        if not isinstance(t, Tensor) or t.shape != [channels]:
            raise ValueError(f"{fn}(): argument '{arg}' must be a Tensor of shape "
                             f"[{channels}], got "
                             f"{t.shape if isinstance(t, Tensor) else type(t).__name__}")
    momentum = check_number(momentum, fn, "momentum", minimum=0.0, maximum=1.0)
    epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
    axes = [i for i in range(x.ndim) if i != axis]
    shape = [channels if i == axis else 1 for i in range(x.ndim)]
    if training and not use_global_stats:
        y, batch_mean, batch_var = normalize_affine(BATCH_NORM, x, weight, bias, axes,
                                                    epsilon, shape)
        for stat, batch in ((running_mean, batch_mean), (running_var, batch_var)):
            old = stat.numpy()
            stat._set_array_inplace((momentum * old + (1.0 - momentum) * batch).astype(
                old.dtype))
        return y
    centre = reshape(running_mean.detach().astype(x.dtype), shape)
    scale = rsqrt(add(reshape(running_var.detach().astype(x.dtype), shape), epsilon))
    return _affine(multiply(subtract(x, centre), scale), weight, bias, shape, fn)


# ---------------------------------------------------------------- group norm
@op
def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
               name=None):
    """Normalize each of ``num_groups`` groups of channels of each sample.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([1, 4, 2])
    >>> F.group_norm(x, 2, data_format='NCL').numpy().round(4)[0, :2]
    array([[-1.3416, -0.4472],
           [ 0.4472,  1.3416]], dtype=float32)
    """
    fn = "group_norm"
    x = float_tensor(x, fn)
    axis = _channel_axis(x, data_format, fn)
    groups = check_int(num_groups, fn, "num_groups", minimum=1)
    epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
    channels = x.shape[axis]
    if channels % groups:
        raise ValueError(f"{fn}(): the {channels} channels of x must divide into num_groups "
                         f"({groups}) groups")
    if axis != 1:
        x = x.transpose([0, axis] + list(range(1, axis)))
    y = reshape(_normalize(reshape(x, [x.shape[0], groups, -1]), [2], epsilon), x.shape)
    y = _affine(y, weight, bias, [channels] + [1] * (x.ndim - 2), fn)
    if axis != 1:
        y = y.transpose([0] + list(range(2, y.ndim)) + [1])
    return y


# ------------------------------------------------------------- instance norm
@op
def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW",
                  name=None):
    """Normalize each channel of each sample over its own spatial dimensions.

    The channels are on axis 1 (``'NC'``, ``'NCL'``, ``'NCHW'``, ``'NCDHW'``);
    ``weight`` and ``bias`` hold one value per channel. As in Paddle's dynamic
    mode, the statistics are always those of the input: ``running_mean``,
    ``running_var``, ``use_input_stats`` and ``momentum`` are checked and
    otherwise left alone.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 4.0, 4.0]]])
    >>> F.instance_norm(x, data_format='NCL').numpy().round(4)
    array([[[-1.3416, -0.4472,  0.4472,  1.3416],
            [-1.    , -1.    ,  1.    ,  1.    ]]], dtype=float32)
    """
    fn = "instance_norm"
    x = float_tensor(x, fn)
    check_choice(data_format, fn, "data_format", ["NC", "NCL", "NCHW", "NCDHW"])
    check_number(momentum, fn, "momentum")
    eps = check_number(eps, fn, "eps", minimum=0.0)
    for arg, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(f"{fn}(): argument '{arg}' must be a Tensor or None, got "
                            f"{type(t).__name__}")
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' must have at least 2 dimensions, got shape "
                         f"{x.shape}")
    rows = [x.shape[0], x.shape[1], math.prod(x.shape[2:])]
    y = normalize_affine(LAYER_NORM, reshape(x, rows), None, None, [2], eps,
                         [1, 1, rows[2]])[0]
    return _affine(reshape(y, x.shape), weight, bias, [x.shape[1]] + [1] * (x.ndim - 2), fn)


# ------------------------------------------------------- local response norm
@op
def local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW",
                        name=None):
    """Divide each element by ``(k + alpha * m) ** beta``, ``m`` being the mean of the
    squares of ``size`` neighbouring channels (zeros past the edges).

    The window of channel ``c`` runs from ``c - size // 2`` to
    ``c + (size - 1) // 2``. The channel axis is 1, or the last one when
    ``data_format`` ends in ``'C'``; ``x`` has at least 3 dimensions.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[0.0], [4.0], [8.0]]])
    >>> F.local_response_norm(x, 3, alpha=0.1, data_format='NCL').numpy().ravel().round(4)
    array([0.    , 1.5096, 3.0192], dtype=float32)
    """
    fn = "local_response_norm"
    x = float_tensor(x, fn)
    check_choice(data_format, fn, "data_format", ["NCL", "NLC", "NCHW", "NHWC", "NCDHW",
                                                   "NDHWC"])
    size = check_int(size, fn, "size", minimum=1)
    alpha = check_number(alpha, fn, "alpha")
    beta = check_number(beta, fn, "beta")
    k = check_number(k, fn, "k")
    if x.ndim < 3:
        raise ValueError(f"{fn}(): argument 'x' must have at least 3 dimensions, got shape "
                         f"{x.shape}")
    axis = x.ndim - 1 if data_format.endswith("C") else 1
    channels = x.shape[axis]
    # As Paddle, refuse a window whose zero-padded squares could not be allocated.
    check_count(math.prod(x.shape) // max(channels, 1) * (channels + size - 1), fn, "size",
                x.dtype.name)
    # Padding beyond the channels adds only zeros to every window: at most ``channels``.
    before, after = min(size // 2, channels), min((size - 1) // 2, channels)
    squares = square(x)
    parts = [zeros([count if i == axis else s for i, s in enumerate(x.shape)], x.dtype)
             for count in (before, after)]
    padded = concat([parts[0], squares, parts[1]], axis=axis) if before + after else squares
    window = slice_axes(padded, [axis], [0], [channels])
    for i in range(1, before + after + 1):
        window = add(window, slice_axes(padded, [axis], [i], [i + channels]))
    return divide(x, power(add(multiply(window, alpha / size), k), beta))


# ------------------------------------------------------------------ RMS norm
@op
def rms_norm(input, normalized_shape, weight=None, eps=1e-05, name=None):
    """Divide by the root mean square over the last dimensions (``normalized_shape``),
    then scale by ``weight``.

    Returns ``(out, invvar)``: ``invvar`` is ``1 / sqrt(mean(x ** 2) + eps)`` of
    each of the ``rows`` (the product of the leading dimensions), in float32
    (float64 for a float64 input).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> out, invvar = F.rms_norm(pylayer.to_tensor([[3.0, 4.0]]), [2])
    >>> out.numpy().round(4), invvar.numpy().round(4)
    (array([[0.8485, 1.1314]], dtype=float32), array([0.2828], dtype=float32))
    """
    fn = "rms_norm"
    x = float_tensor(input, fn, "input")
    shape = check_ints(normalized_shape, fn, "normalized_shape")
    eps = check_number(eps, fn, "eps", minimum=0.0)
    if not shape or len(shape) > x.ndim or x.shape[x.ndim - len(shape):] != shape:
        raise ValueError(f"{fn}(): argument 'normalized_shape' {shape} must be the last "
                         f"dimensions of input, whose shape is {x.shape}")
    axes = list(range(x.ndim - len(shape), x.ndim))
    inverse = rsqrt(add(mean(square(x), axis=axes, keepdim=True), eps))
    out = _affine(multiply(x, inverse), weight, None, [1] * (x.ndim - len(shape)) + shape, fn)
    invvar = reshape(inverse, [math.prod(x.shape[:x.ndim - len(shape)])])
    return out, invvar.astype("float64" if x.dtype == "float64" else "float32")


# ----------------------------------------------------------------- normalize
@op
def normalize(x, p=2, axis=1, epsilon=1e-12, out=None, name=None):
    """Divide ``x`` by its ``p``-norm along ``axis``, or by ``epsilon`` where that is larger.

    ``out``, when given, receives the result and is returned.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.normalize(pylayer.to_tensor([[3.0, 4.0], [0.0, 0.0]])).numpy()
    array([[0.6, 0.8],
           [0. , 0. ]], dtype=float32)
    """
    fn = "normalize"
    x = float_tensor(x, fn)
    p = check_number(p, fn, "p")
    axis = check_axis(axis, x.ndim, fn)
    epsilon = check_number(epsilon, fn, "epsilon")
    size = norm(x, p=float(p), axis=axis, keepdim=True)
    floor = Tensor(np.array(epsilon, dtype=x.numpy().dtype))
    return _write_out(divide(x, maximum(size, floor)), out, fn)
