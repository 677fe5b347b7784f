"""More activations of ``pylayer.nn.functional``: ``relu6``, ``elu``, ``selu``, ``celu``,
``silu``, ``swish``, ``mish``, ``hardswish``, ``hardsigmoid``, ``softplus``, ``softsign``,
``softshrink``, ``hardshrink``, ``tanhshrink``, ``thresholded_relu``, ``log_sigmoid``
(also ``logsigmoid``), ``prelu``, ``maxout``, ``rrelu``, and the compositions ``glu``,
``swiglu`` and ``gumbel_softmax``; with the in-place forms Paddle lists in
``nn.functional`` (``elu_``, ``thresholded_relu_``, and ``relu_``, ``leaky_relu_``,
``hardtanh_``, ``softmax_`` of the activations of :mod:`pylayer.ops.activation`).

Each elementwise op is one record whose forward is numpy and whose gradient rule is
written with pylayer ops (so ``create_graph=True`` records it). The gradient at a kink
is Paddle's: strict comparisons except where Paddle includes the boundary (noted per op).
Integer tensors are refused, as Paddle's CPU kernels refuse them.
"""
import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops import creation
from pylayer.ops._arguments import check_axis, check_int, check_number
from pylayer.ops._operands import float_tensor
from pylayer.ops.activation import hardtanh, leaky_relu, relu, sigmoid, softmax
from pylayer.ops.arithmetic import add, divide, multiply, neg, subtract
from pylayer.ops.dispatch import op
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.manipulation import split
from pylayer.ops.math import abs as _abs, clip, exp, square, tanh
from pylayer.ops.reduction import sum as reduce_sum
from pylayer.ops.shape import reshape, unsqueeze

__all__ = ["relu6", "elu", "selu", "celu", "silu", "swish", "mish", "hardswish",
           "hardsigmoid", "softplus", "softsign", "softshrink", "hardshrink", "tanhshrink",
           "thresholded_relu", "log_sigmoid", "logsigmoid", "glu", "prelu", "maxout", "rrelu",
           "swiglu", "gumbel_softmax", "elu_", "thresholded_relu_", "relu_", "leaky_relu_",
           "hardtanh_", "softmax_"]


def _unary(record, fn, x, kernel, attrs=()):
    """``kernel`` of ``x``'s array (floating point), in ``x``'s dtype, recorded."""
    x = float_tensor(x, fn)
    a = x._array
    with np.errstate(all="ignore"):
        out = np.asarray(kernel(a)).astype(a.dtype, copy=False)
    return make_output(record, out, (x,), attrs)


def _mask(x, condition):
    """A fixed 0/1 tensor in ``x``'s dtype: ``condition`` of ``x``'s array."""
    with np.errstate(invalid="ignore"):
        return make_tensor(np.asarray(condition(x._array)).astype(x._array.dtype), True)


def _masked(g, x, condition):
    return multiply(g, _mask(x, condition))


def _exp_below(x, alpha):
    """``alpha * exp(min(x, 0))``: the slope of the exponential branch, finite everywhere."""
    return multiply(exp(clip(x, max=0.0)), alpha)


def _elu_slope(x, alpha):
    """1 where ``x > 0``, else ``alpha * exp(x)``."""
    positive = _mask(x, lambda a: a > 0)
    return add(positive, multiply(subtract(1.0, positive), _exp_below(x, alpha)))


# ----------------------------------------------------------- piecewise linear
RELU6 = Op("relu6", keeps=("x",),
           vjp=(lambda g, x: _masked(g, x, lambda a: (a > 0) & (a < 6)),))


@op
def relu6(x, name=None):
    """``min(max(x, 0), 6)``; the gradient passes strictly inside ``(0, 6)``. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.relu6(pylayer.to_tensor([-1.0, 3.0, 8.0])).numpy()
    array([0., 3., 6.], dtype=float32)
    """
    return _unary(RELU6, "relu6", x, lambda a: np.clip(a, 0, 6))


HARDSWISH = Op("hardswish", keeps=("x",),
               vjp=(lambda g, x: multiply(g, add(
                   _mask(x, lambda a: a >= 3),
                   multiply(_mask(x, lambda a: (a > -3) & (a < 3)),
                            add(multiply(x, 1.0 / 3.0), 0.5)))),))


@op
def hardswish(x, name=None):
    """``x * min(max(x + 3, 0), 6) / 6``. The gradient is 0 for ``x <= -3``, 1 for
    ``x >= 3`` and ``(2x + 3) / 6`` between, as in Paddle. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.hardswish(pylayer.to_tensor([-4.0, 0.0, 1.0, 4.0])).numpy().round(4)
    array([-0.    ,  0.    ,  0.6667,  4.    ], dtype=float32)
    """
    return _unary(HARDSWISH, "hardswish", x, lambda a: a * np.clip(a + 3, 0, 6) / 6)


HARDSIGMOID = Op("hardsigmoid", keeps=("out",), attrs=("slope", "offset"),
                 vjp=(lambda g, out, slope, offset: multiply(
                     _masked(g, out, lambda a: (a > 0) & (a < 1)), slope),))


@op
def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    """``min(max(slope * x + offset, 0), 1)``; the gradient ``slope`` passes where the
    output is strictly inside ``(0, 1)``. Saves its output.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.hardsigmoid(pylayer.to_tensor([-4.0, 0.0, 4.0])).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    slope = check_number(slope, "hardsigmoid", "slope")
    offset = check_number(offset, "hardsigmoid", "offset")
    return _unary(HARDSIGMOID, "hardsigmoid", x,
                  lambda a: np.clip(a * slope + offset, 0, 1), (slope, offset))


SOFTSHRINK = Op("softshrink", keeps=("x",), attrs=("threshold",),
                vjp=(lambda g, x, threshold: _masked(
                    g, x, lambda a: (a > threshold) | (a < -threshold)),))


@op
def softshrink(x, threshold=0.5, name=None):
    """``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, 0
    between; ``threshold`` must be non-negative. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.softshrink(pylayer.to_tensor([-1.0, 0.2, 1.0])).numpy()
    array([-0.5,  0. ,  0.5], dtype=float32)
    """
    t = check_number(threshold, "softshrink", "threshold")
    if not t >= 0:
        raise ValueError(f"softshrink(): argument 'threshold' must be no less than 0, got {t}")
    return _unary(SOFTSHRINK, "softshrink", x,
                  lambda a: np.where(a > t, a - t, np.where(a < -t, a + t, 0)), (t,))


HARDSHRINK = Op("hardshrink", keeps=("x",), attrs=("threshold",),
                vjp=(lambda g, x, threshold: _masked(g, x, lambda a: np.abs(a) >= threshold),))


@op
def hardshrink(x, threshold=0.5, name=None):
    """``x`` where ``|x| >= threshold`` (the boundary kept, as Paddle does), else 0.

    Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.hardshrink(pylayer.to_tensor([-1.0, 0.2, 1.0])).numpy()
    array([-1.,  0.,  1.], dtype=float32)
    """
    t = check_number(threshold, "hardshrink", "threshold")
    return _unary(HARDSHRINK, "hardshrink", x, lambda a: np.where(np.abs(a) >= t, a, 0), (t,))


THRESHOLDED_RELU = Op("thresholded_relu", keeps=("x",), attrs=("threshold",),
                      vjp=(lambda g, x, threshold: _masked(g, x, lambda a: a > threshold),))


@op
def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    """``x`` where ``x > threshold``, else ``value``. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.thresholded_relu(pylayer.to_tensor([0.5, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """
    t = check_number(threshold, "thresholded_relu", "threshold")
    v = check_number(value, "thresholded_relu", "value")
    return _unary(THRESHOLDED_RELU, "thresholded_relu", x, lambda a: np.where(a > t, a, v),
                  (t,))


# -------------------------------------------------------------- exponential
ELU = Op("elu", keeps=("x",), attrs=("alpha",),
         vjp=(lambda g, x, alpha: multiply(g, _elu_slope(x, alpha)),))


@op
def elu(x, alpha=1.0, name=None):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.elu(pylayer.to_tensor([-1.0, 2.0])).numpy()
    array([-0.63212055,  2.        ], dtype=float32)
    """
    alpha = check_number(alpha, "elu", "alpha")
    return _unary(ELU, "elu", x, lambda a: np.where(a > 0, a, alpha * np.expm1(a)), (alpha,))


SELU = Op("selu", keeps=("x",), attrs=("scale", "alpha"),
          vjp=(lambda g, x, scale, alpha: multiply(g, multiply(_elu_slope(x, alpha), scale)),))


@op
def selu(x, scale=1.0507009873554805, alpha=1.6732632423543772, name=None):
    """``scale * elu(x, alpha)``; ``scale`` must exceed 1 and ``alpha`` be non-negative,
    as Paddle requires. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.selu(pylayer.to_tensor([-1.0, 1.0], dtype='float64')).numpy().round(6)
    array([-1.111331,  1.050701])
    """
    scale = check_number(scale, "selu", "scale")
    alpha = check_number(alpha, "selu", "alpha")
    if not scale > 1.0:
        raise ValueError(f"selu(): argument 'scale' must be greater than 1.0, got {scale}")
    if not alpha >= 0:
        raise ValueError(f"selu(): argument 'alpha' must be no less than 0, got {alpha}")
    return _unary(SELU, "selu", x,
                  lambda a: scale * np.where(a > 0, a, alpha * np.expm1(a)), (scale, alpha))


CELU = Op("celu", keeps=("x",), attrs=("alpha",),
          vjp=(lambda g, x, alpha: multiply(g, _elu_slope(divide(x, alpha), 1.0)),))


@op
def celu(x, alpha=1.0, name=None):
    """``max(x, 0) + min(alpha * (exp(x / alpha) - 1), 0)``; ``alpha`` 0 is a
    ``ZeroDivisionError``, as in Paddle. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.celu(pylayer.to_tensor([-1.0, 2.0]), alpha=2.0).numpy().round(4)
    array([-0.7869,  2.    ], dtype=float32)
    """
    alpha = check_number(alpha, "celu", "alpha")
    if alpha == 0:
        raise ZeroDivisionError("celu(): argument 'alpha' must not be 0")
    return _unary(CELU, "celu", x,
                  lambda a: np.where(a > 0, a, alpha * np.expm1(a / alpha)), (alpha,))


def _softplus_array(a, beta, threshold):
    z = a * beta
    return np.where(z > threshold, a, np.logaddexp(0, z) / beta)


def _softplus_slope(x, beta, threshold):
    """1 where ``beta * x > threshold`` (the linear branch), else ``sigmoid(beta * x)``."""
    linear = _mask(x, lambda a: a * beta > threshold)
    return add(linear, multiply(subtract(1.0, linear), sigmoid(multiply(x, beta))))


SOFTPLUS = Op("softplus", keeps=("x",), attrs=("beta", "threshold"),
              vjp=(lambda g, x, beta, threshold: multiply(
                  g, _softplus_slope(x, beta, threshold)),))


@op
def softplus(x, beta=1, threshold=20, name=None):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``.

    Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.softplus(pylayer.to_tensor([0.0, 30.0])).numpy()
    array([ 0.6931472, 30.       ], dtype=float32)
    """
    beta = check_number(beta, "softplus", "beta")
    threshold = check_number(threshold, "softplus", "threshold")
    return _unary(SOFTPLUS, "softplus", x, lambda a: _softplus_array(a, beta, threshold),
                  (beta, threshold))


def _mish_slope(x):
    t = tanh(softplus(x))
    return add(t, multiply(multiply(x, subtract(1.0, square(t))), _softplus_slope(x, 1.0, 20.0)))


MISH = Op("mish", keeps=("x",), vjp=(lambda g, x: multiply(g, _mish_slope(x)),))


@op
def mish(x, name=None):
    """``x * tanh(softplus(x))`` (softplus taken as ``x`` above 20, as Paddle does).

    Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.mish(pylayer.to_tensor([-1.0, 1.0])).numpy().round(4)
    array([-0.3034,  0.8651], dtype=float32)
    """
    return _unary(MISH, "mish", x, lambda a: a * np.tanh(_softplus_array(a, 1.0, 20.0)))


LOG_SIGMOID = Op("log_sigmoid", keeps=("x",),
                 vjp=(lambda g, x: multiply(g, sigmoid(neg(x))),))


@op
def log_sigmoid(x, name=None):
    """``log(1 / (1 + exp(-x)))``, computed without overflow. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.log_sigmoid(pylayer.to_tensor([0.0, -100.0])).numpy()
    array([  -0.6931472, -100.       ], dtype=float32)
    """
    return _unary(LOG_SIGMOID, "log_sigmoid", x, lambda a: -np.logaddexp(0, -a))


logsigmoid = log_sigmoid


# ------------------------------------------------------------------ sigmoidal
def _silu_slope(x):
    s = sigmoid(x)
    return multiply(s, add(multiply(x, subtract(1.0, s)), 1.0))


SILU = Op("silu", keeps=("x",), vjp=(lambda g, x: multiply(g, _silu_slope(x)),))
SWISH = Op("swish", keeps=("x",), vjp=(lambda g, x: multiply(g, _silu_slope(x)),))


def _silu_array(a):
    return a / (1 + np.exp(-a))


@op
def silu(x, inplace=False, name=None):
    """``x * sigmoid(x)``; with ``inplace=True`` the result is written into ``x``.

    Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.silu(pylayer.to_tensor([-1.0, 1.0])).numpy().round(4)
    array([-0.2689,  0.7311], dtype=float32)
    """
    if inplace:
        return _silu_inplace(x)
    return _unary(SILU, "silu", x, _silu_array)


@op
def swish(x, name=None):
    """``x * sigmoid(x)`` (Paddle's swish, with beta 1). Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.swish(pylayer.to_tensor([-1.0, 1.0])).numpy().round(4)
    array([-0.2689,  0.7311], dtype=float32)
    """
    return _unary(SWISH, "swish", x, _silu_array)


SOFTSIGN = Op("softsign", keeps=("x",),
              vjp=(lambda g, x: divide(g, square(add(_abs(x), 1.0))),))


@op
def softsign(x, name=None):
    """``x / (1 + |x|)``. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.softsign(pylayer.to_tensor([-1.0, 3.0])).numpy()
    array([-0.5 ,  0.75], dtype=float32)
    """
    return _unary(SOFTSIGN, "softsign", x, lambda a: a / (1 + np.abs(a)))


TANHSHRINK = Op("tanhshrink", keeps=("x",), vjp=(lambda g, x: multiply(g, square(tanh(x))),))


@op
def tanhshrink(x, name=None):
    """``x - tanh(x)``. Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.tanhshrink(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.        , 0.23840582], dtype=float32)
    """
    return _unary(TANHSHRINK, "tanhshrink", x, lambda a: a - np.tanh(a))


# ---------------------------------------------------------------------- prelu
_PRELU_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def _prelu_weight_grad(g, x, weight, shape):
    """Sum of ``g * x`` over the non-positive ``x``, reduced to ``weight``'s shape."""
    below = multiply(multiply(g, x), _mask(x, lambda a: a <= 0))
    axes = [i for i, n in enumerate(shape) if n == 1] if shape else None
    return reshape(reduce_sum(below, axis=axes), list(weight._array.shape))


PRELU = Op("prelu", inputs=("x", "weight"), keeps=("x", "weight"), attrs=("shape",),
           vjp=(lambda g, x, weight, shape: multiply(g, add(
                    _mask(x, lambda a: a > 0),
                    multiply(_mask(x, lambda a: a <= 0), reshape(weight, list(shape))))),
                lambda g, x, weight, shape: _prelu_weight_grad(g, x, weight, shape)))


@op
def prelu(x, weight, data_format="NCHW", name=None):
    """``x`` where positive, ``weight * x`` elsewhere, with a learnt slope: one
    (``weight`` of shape ``[]`` or ``[1]``) or one per channel (``weight`` of shape
    ``[C]``; the channels are axis 1, or the last axis for a channels-last
    ``data_format``). Saves ``x`` and ``weight``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[-2.0, 1.0], [-4.0, 3.0]])
    >>> F.prelu(x, pylayer.to_tensor([0.5, 0.25]), data_format='NC').numpy()
    array([[-1.,  1.],
           [-2.,  3.]], dtype=float32)
    """
    x = float_tensor(x, "prelu")
    weight = float_tensor(weight, "prelu", "weight", 2)
    a, w = x._array, weight._array
    if w.ndim > 1:
        raise ValueError(f"prelu(): argument 'weight' (position 2) must have 0 or 1 "
                         f"dimensions, got shape {list(w.shape)}")
    if w.dtype != a.dtype:
        raise ValueError(f"prelu(): argument 'weight' (position 2) must have the dtype of 'x' "
                         f"({a.dtype.name}), got {w.dtype.name}")
    shape = ()
    if w.size > 1:
        if data_format not in _PRELU_FORMATS:
            raise ValueError(f"prelu(): argument 'data_format' must be one of "
                             f"{', '.join(_PRELU_FORMATS)}, got {data_format!r}")
        if a.ndim < 2:
            raise ValueError(f"prelu(): argument 'x' must have at least 2 dimensions when "
                             f"'weight' has several elements, got shape {list(a.shape)}")
        channel = 1 if data_format[1] == "C" else a.ndim - 1
        if a.shape[channel] != w.size:
            raise ValueError(f"prelu(): argument 'weight' must have one element per channel "
                             f"of 'x' ({a.shape[channel]}), got {w.size}")
        shape = tuple(w.size if i == channel else 1 for i in range(a.ndim))
    slope = w.reshape(shape) if shape else w.reshape(())
    out = np.where(a > 0, a, a * slope).astype(a.dtype, copy=False)
    return make_output(PRELU, out, (x, weight), (shape,))


# ------------------------------------------------------------------------ glu
@op
def glu(x, axis=-1, name=None):
    """Gated linear unit: ``x`` split in two halves ``a, b`` along ``axis``, then
    ``a * sigmoid(b)``; the size along ``axis`` must be even.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.glu(pylayer.to_tensor([[1.0, 2.0, 0.0, 0.0]])).numpy()
    array([[0.5, 1. ]], dtype=float32)
    """
    x = float_tensor(x, "glu")
    axis = check_axis(axis, x._array.ndim, "glu")
    size = x._array.shape[axis]
    if size % 2:
        raise ValueError(f"glu(): the size of 'x' along axis {axis} must be even, got {size}")
    a, b = split(x, 2, axis)
    return multiply(a, sigmoid(b))


# ------------------------------------------------------------ maxout, rrelu
def _maxout_grad(g, x, out, axis):
    """``g`` to every element of a group equal to its maximum (ties share it, as in
    Paddle)."""
    grouped = list(x._array.shape)
    groups = grouped[axis] // out._array.shape[axis]
    grouped[axis:axis + 1] = [out._array.shape[axis], groups]
    winners = x._array.reshape(grouped) == np.expand_dims(out._array, axis + 1)
    spread = multiply(unsqueeze(g, axis + 1), make_tensor(winners.astype(g._array.dtype), True))
    return reshape(spread, list(x._array.shape))


MAXOUT = Op("maxout", keeps=("x", "out"), attrs=("axis",),
            vjp=(lambda g, x, out, axis: _maxout_grad(g, x, out, axis),))


@op
def maxout(x, groups, axis=1, name=None):
    """The maximum over each run of ``groups`` consecutive channels of a 4-D ``x``: the
    channels (``axis`` 1, or 3 / -1 for channels last) shrink ``groups`` times. The
    gradient goes to every element equal to its group's maximum, as in Paddle. Saves
    ``x`` and its output.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([1.0, 3.0, 4.0, 2.0]).reshape([1, 4, 1, 1])
    >>> F.maxout(x, 2).numpy().ravel()
    array([3., 4.], dtype=float32)
    """
    x = float_tensor(x, "maxout")
    groups = check_int(groups, "maxout", "groups")
    axis = check_int(axis, "maxout", "axis")
    a = x._array
    if a.ndim != 4:
        raise ValueError(f"maxout(): argument 'x' must be a 4-D Tensor, got shape "
                         f"{list(a.shape)}")
    if axis not in (1, 3, -1):
        raise ValueError(f"maxout(): argument 'axis' must be 1, 3 or -1, got {axis}")
    axis %= 4
    if groups <= 1:
        raise ValueError(f"maxout(): argument 'groups' must be greater than 1, got {groups}")
    if a.shape[axis] % groups:
        raise ValueError(f"maxout(): the channels of 'x' ({a.shape[axis]}) must be divisible "
                         f"by 'groups' ({groups})")
    grouped = list(a.shape)
    grouped[axis:axis + 1] = [a.shape[axis] // groups, groups]
    out = a.reshape(grouped).max(axis=axis + 1)
    return make_output(MAXOUT, out, (x,), (axis,))


RRELU = Op("rrelu", keeps=(), attrs=("slopes",),
           vjp=(lambda g, slopes: multiply(g, make_tensor(slopes.astype(g._array.dtype),
                                                            True)),))


@op
def rrelu(x, lower=0.125, upper=0.3333333333333333, training=True, name=None):
    """``x`` where non-negative, ``slope * x`` elsewhere. In training each negative
    element draws its slope uniformly from ``[lower, upper)`` (from pylayer's seeded
    stream); otherwise the slope is ``(lower + upper) / 2``. ``0 <= lower < upper <= 1``
    as Paddle requires.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.rrelu(pylayer.to_tensor([-1.0, 2.0]), 0.2, 0.4, training=False).numpy()
    array([-0.3,  2. ], dtype=float32)
    """
    x = float_tensor(x, "rrelu")
    lower = check_number(lower, "rrelu", "lower")
    upper = check_number(upper, "rrelu", "upper")
    if not 0 <= lower <= 1:
        raise ValueError(f"rrelu(): argument 'lower' must be in [0, 1], got {lower}")
    if not upper <= 1:
        raise ValueError(f"rrelu(): argument 'upper' must be no greater than 1, got {upper}")
    if not upper > lower:
        raise ValueError(f"rrelu(): argument 'upper' ({upper}) must be greater than 'lower' "
                         f"({lower})")
    a = x._array
    if training:
        slope = creation.get_rng().uniform(lower, upper, a.shape)
    else:
        slope = np.full(a.shape, (lower + upper) / 2)
    slopes = np.where(a >= 0, 1.0, slope).astype(a.dtype)
    return make_output(RRELU, (a * slopes).astype(a.dtype, copy=False), (x,), (slopes,))


# ---------------------------------------------------- swiglu, gumbel_softmax
@op
def swiglu(x, y=None, name=None):
    """``silu(x) * y``; without ``y``, ``x`` is split in two halves along its last axis
    (which must be even) and the first gates the second.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.swiglu(pylayer.to_tensor([[0.0, 1.0, 5.0, 5.0]])).numpy().round(4)
    array([[0.    , 3.6553]], dtype=float32)
    """
    x = float_tensor(x, "swiglu")
    if y is None:
        if x._array.ndim == 0 or x._array.shape[-1] % 2:
            raise ValueError(f"swiglu(): the last axis of 'x' must have an even size when 'y' "
                             f"is None, got shape {list(x._array.shape)}")
        x, y = split(x, 2, -1)
    else:
        y = float_tensor(y, "swiglu", "y", 2)
        if y._array.shape != x._array.shape or y._array.dtype != x._array.dtype:
            raise ValueError(f"swiglu(): argument 'y' (position 2) must have the shape and "
                             f"dtype of 'x' ({list(x._array.shape)}, {x._array.dtype.name}), "
                             f"got {list(y._array.shape)}, {y._array.dtype.name}")
    return multiply(silu(x), y)


@op
def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None):
    """A sample of the Gumbel-softmax distribution: ``softmax((x + g) / temperature)``
    along ``axis``, ``g`` drawn from the standard Gumbel distribution (pylayer's seeded
    stream). ``hard=True`` gives the one-hot vector of the largest value, with the
    gradient of the soft sample. ``temperature`` must be positive.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> _ = pylayer.seed(0)
    >>> F.gumbel_softmax(pylayer.to_tensor([[0.0, 50.0]]), hard=True).numpy()
    array([[0., 1.]], dtype=float32)
    """
    x = float_tensor(x, "gumbel_softmax")
    temperature = check_number(temperature, "gumbel_softmax", "temperature")
    if not temperature > 0:
        raise ValueError(f"gumbel_softmax(): argument 'temperature' must be greater than 0, "
                         f"got {temperature}")
    axis = check_axis(axis, x._array.ndim, "gumbel_softmax")
    a = x._array
    noise = -np.log(-np.log(creation.get_rng().uniform(np.finfo(np.float64).tiny, 1.0,
                                                       a.shape)))
    soft = softmax(multiply(add(x, make_tensor(noise.astype(a.dtype), True)),
                            1.0 / temperature), axis)
    if not hard:
        return soft
    s = soft._array
    if s.ndim == 0:
        one_hot = np.ones_like(s)
    else:
        one_hot = np.zeros_like(s)
        np.put_along_axis(one_hot, np.expand_dims(np.argmax(s, axis=axis), axis), 1, axis=axis)
    return add(subtract(make_tensor(one_hot, True), soft.detach()), soft)


elu_ = inplace_twin(elu)
thresholded_relu_ = inplace_twin(thresholded_relu)
_silu_inplace = inplace_twin(silu)
# The in-place forms of the activations of pylayer.ops.activation that nn.functional lists.
relu_ = inplace_twin(relu)
leaky_relu_ = inplace_twin(leaky_relu)
hardtanh_ = inplace_twin(hardtanh)
softmax_ = inplace_twin(softmax)
