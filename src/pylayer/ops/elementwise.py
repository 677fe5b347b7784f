"""Elementwise math: the compiled arithmetic and activations of ``_elementwise.pyx``
(public from here), powers, trigonometry, erf, sign and rounding, binary
extremes, clipping, ``where`` and integer-style division.

Conventions shared by every function here:

* Binary ops broadcast like numpy; a Python number on either side stays a
  "weak" scalar (it does not widen the tensor's dtype). When numpy would give
  float64 although neither operand is a float64 tensor, the result is float32,
  Paddle's default float (``divide`` follows the same rule).
* Gradients are summed back to each input's shape, and every backward rule is
  written with pylayer ops, so ``create_graph=True`` records it (double
  backward).
* Ops whose result cannot be an integer (``log1p rsqrt sin cos tan erf
  reciprocal``, like ``exp log sqrt tanh sigmoid``) compute an integer tensor
  in float32, as Paddle does, and raise ``TypeError`` for bool tensors. Ops
  that are exact on integers (``abs sign floor ceil round clip maximum
  minimum``...) keep the integer dtype.
* Piecewise-constant ops (``sign floor ceil round floor_divide``) record a node
  whose gradient is zero, as Paddle's do.
* NaN and inf propagate silently, as in numpy (no floating-point warnings).
"""
import math

import numpy as np
from numpy.polynomial import chebyshev as _cheb

from pylayer._core.graph import make_output_legacy
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops import _elementwise
from pylayer.ops._arguments import check_int, float_tensor, numeric_tensor
from pylayer.ops._common import (binary_array, float32_default, is_number, number_attrs,
                                 operand, saved_operands, saved_tensors, shape_of, shape_text,
                                 tensor_pair, zero_grads)
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.reduction import unbroadcast
from pylayer.ops.compare import equal, logical_and
from pylayer.ops.dispatch import op

__all__ = ["add", "subtract", "multiply", "divide", "neg", "scale", "exp", "log", "sqrt",
           "square", "tanh", "sigmoid", "pow", "reciprocal", "rsqrt", "log1p", "sin", "cos",
           "tan", "erf", "abs", "sign", "floor", "ceil", "round", "maximum", "minimum", "clip",
           "where", "floor_divide", "remainder"]

# The compiled elementwise ops (_elementwise.pyx), public from here: each wrapped once by
# pylayer.ops.dispatch.op (the compiled ops call each other unwrapped).
add = op(_elementwise.add)
subtract = op(_elementwise.subtract)
multiply = op(_elementwise.multiply)
divide = op(_elementwise.divide)
neg = op(_elementwise.neg)
scale = op(_elementwise.scale)
exp = op(_elementwise.exp)
log = op(_elementwise.log)
sqrt = op(_elementwise.sqrt)
square = op(_elementwise.square)
tanh = op(_elementwise.tanh)
sigmoid = op(_elementwise.sigmoid)


def _zeros_like(g):
    return make_tensor(np.zeros_like(g._array))


def _float_math(x, name, compute, rule, keep):
    """``compute`` of ``x``'s array, ``x`` taken as a float tensor (integers in float32,
    bool refused), recorded with ``rule``, which needs the op's ``keep``: its "input" or
    its "output". NaN and inf propagate without warnings."""
    x = float_tensor(x, name, integers_as_float32=True)
    with np.errstate(all="ignore"):
        out = np.asarray(compute(x._array))
    if keep == "output":
        return make_output_legacy(out, (x,), name, rule, save_output=True)
    return make_output_legacy(out, (x,), name, rule, save=(x,))


# -------------------------------------------------------------------- powers
def _pow_bw(node, g):
    x, y = saved_operands(node)
    gx = gy = None
    if node.needs_input_grad[0]:
        if isinstance(y, Tensor):
            # d/dx x**y = y * x**(y-1). Where x == y == 0 that reads 0 * 0**-1: the
            # base is taken as 1 there, so the slope is 0 and keeps its own
            # derivative in y (selecting a constant 0 wherever y == 0 would cut it).
            base = where(logical_and(equal(x, 0), equal(y, 0)), 1.0, x)
            slope = multiply(y, pow(base, subtract(y, 1)))
        elif y == 0:
            slope = _zeros_like(x)
        else:
            slope = multiply(pow(x, y - 1), y)
        gx = unbroadcast(multiply(g, slope), shape_of(x))
    if node.needs_input_grad[1]:
        # d/dy x**y = x**y * log(x); at x == 0 the product is taken as 0.
        if isinstance(x, Tensor):
            log_x = log(where(equal(x, 0), 1.0, x))
        else:
            with np.errstate(all="ignore"):
                log_x = 0.0 if x == 0 else float(np.log(x))
        gy = unbroadcast(multiply(g, multiply(pow(x, y), log_x)), shape_of(y))
    return (gx, gy)


@op
def pow(x, y, name=None):
    """Elementwise ``x ** y``; ``y`` (or ``x``) may be a Python number.

    The gradient for ``x`` is ``y * x ** (y - 1)`` (zero where ``y == 0``) and
    for a tensor ``y`` it is ``x ** y * log(x)`` (zero where ``x == 0``).
    An integer tensor raised to a negative integer power is a ``ValueError``.

    >>> import pylayer
    >>> pylayer.pow(pylayer.to_tensor([1.0, 2.0, 3.0]), 2).numpy()
    array([1., 4., 9.], dtype=float32)
    >>> (2 ** pylayer.to_tensor([1.0, 3.0])).numpy()
    array([2., 8.], dtype=float32)
    """
    x, y = tensor_pair(x, y, "pow")
    xa = operand(x, "pow", "x", 1)
    ya = operand(y, "pow", "y", 2)
    try:
        out = binary_array("pow", np.power, xa, ya)
    except ValueError as exc:
        if "negative integer powers" not in str(exc):
            raise
        raise ValueError("pow(): an integer tensor cannot be raised to a negative integer "
                         "power; cast x to a float dtype first") from None
    out = float32_default(out, xa, ya)
    return make_output_legacy(out, (x, y), "pow", _pow_bw, save=saved_tensors((x, y)),
                       attrs=number_attrs(x, y))


def _reciprocal_bw(node, g):
    (out,) = node.saved_tensors()
    return (neg(multiply(g, square(out))),)


@op
def reciprocal(x, name=None):
    """Elementwise ``1 / x`` (integers are computed in float32); saves its output.

    >>> import pylayer
    >>> pylayer.reciprocal(pylayer.to_tensor([2.0, 4.0])).numpy()
    array([0.5 , 0.25], dtype=float32)
    """
    return _float_math(x, "reciprocal", np.reciprocal, _reciprocal_bw, keep="output")


def _rsqrt_bw(node, g):
    (out,) = node.saved_tensors()
    return (multiply(g, scale(multiply(out, square(out)), -0.5)),)


@op
def rsqrt(x, name=None):
    """Elementwise ``1 / sqrt(x)`` (integers are computed in float32); saves its output.

    >>> import pylayer
    >>> pylayer.rsqrt(pylayer.to_tensor([4.0, 16.0])).numpy()
    array([0.5 , 0.25], dtype=float32)
    """
    return _float_math(x, "rsqrt", lambda a: np.reciprocal(np.sqrt(a)), _rsqrt_bw,
                       keep="output")


def _log1p_bw(node, g):
    (x,) = node.saved_tensors()
    return (divide(g, add(x, 1.0)),)


@op
def log1p(x, name=None):
    """Elementwise ``log(1 + x)``, accurate for small ``x`` (integers in float32).

    >>> import pylayer
    >>> pylayer.log1p(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.       , 0.6931472], dtype=float32)
    """
    return _float_math(x, "log1p", np.log1p, _log1p_bw, keep="input")


# ------------------------------------------------------------- trigonometry
def _sin_bw(node, g):
    (x,) = node.saved_tensors()
    return (multiply(g, cos(x)),)


@op
def sin(x, name=None):
    """Elementwise sine (integers are computed in float32); saves its input.

    >>> import pylayer
    >>> pylayer.sin(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """
    return _float_math(x, "sin", np.sin, _sin_bw, keep="input")


def _cos_bw(node, g):
    (x,) = node.saved_tensors()
    return (neg(multiply(g, sin(x))),)


@op
def cos(x, name=None):
    """Elementwise cosine (integers are computed in float32); saves its input.

    >>> import pylayer
    >>> pylayer.cos(pylayer.to_tensor([0.0])).numpy()
    array([1.], dtype=float32)
    """
    return _float_math(x, "cos", np.cos, _cos_bw, keep="input")


def _tan_bw(node, g):
    (x,) = node.saved_tensors()
    return (divide(g, square(cos(x))),)


@op
def tan(x, name=None):
    """Elementwise tangent (integers are computed in float32); saves its input.

    >>> import pylayer
    >>> pylayer.tan(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """
    return _float_math(x, "tan", np.tan, _tan_bw, keep="input")


# ---------------------------------------------------------------------- erf
# erf is computed in float64 in two pieces, with no table copied from elsewhere:
# * |x| < 1: its Taylor series, x * sum_n c_n x**(2n), c_n = 2/sqrt(pi) (-1)^n / (n! (2n+1));
#   22 terms reach float64 rounding on that interval.
# * 1 <= |x| < 6: erf = 1 - exp(-x*x) * k(x), where k(x) = erfc(x) exp(x*x) is smooth
#   and slowly varying; k is interpolated in the variable 1/x at Chebyshev points from
#   Python's math.erfc when this module is imported.
# * |x| >= 6: erf is +-1 to float64 precision.
# Measured against math.erf on a dense grid, the absolute error stays below 2e-15.
_ERF_TAYLOR = [2.0 / math.sqrt(math.pi) * (-1) ** n
               / (math.factorial(n) * (2 * n + 1)) for n in range(22)]
_ERF_SPLIT = 1.0
_ERF_SATURATE = 6.0
_ERF_U_LOW = 1.0 / _ERF_SATURATE
_ERF_U_HIGH = 1.0 / _ERF_SPLIT


def _erfc_scaled_at(s):
    """k(x) = erfc(x) * exp(x*x) at x = 1/u, u mapped from s in [-1, 1]."""
    u = (s + 1.0) / 2.0 * (_ERF_U_HIGH - _ERF_U_LOW) + _ERF_U_LOW
    return np.array([math.erfc(1.0 / v) * math.exp(1.0 / (v * v)) for v in u])


_ERFC_SCALED_CHEB = _cheb.chebinterpolate(_erfc_scaled_at, 24)


def _erf_array(a):
    work = np.asarray(a, dtype=np.float64)
    out = np.empty_like(work)
    mag = np.abs(work)
    small = mag < _ERF_SPLIT
    middle = (mag >= _ERF_SPLIT) & (mag < _ERF_SATURATE)
    rest = ~(small | middle)          # |x| >= 6, inf and NaN
    xs = work[small]
    t = xs * xs
    acc = np.full_like(xs, _ERF_TAYLOR[-1])
    for c in _ERF_TAYLOR[-2::-1]:
        acc = acc * t + c
    out[small] = xs * acc
    xm = mag[middle]
    s = (1.0 / xm - _ERF_U_LOW) / (_ERF_U_HIGH - _ERF_U_LOW) * 2.0 - 1.0
    tail = np.exp(-xm * xm) * _cheb.chebval(s, _ERFC_SCALED_CHEB)
    out[middle] = np.copysign(1.0 - tail, work[middle])
    out[rest] = np.sign(work[rest])
    return out.astype(a.dtype, copy=False)


def _erf_bw(node, g):
    (x,) = node.saved_tensors()
    return (multiply(g, scale(exp(neg(square(x))), 2.0 / math.sqrt(math.pi))),)


@op
def erf(x, name=None):
    """The error function ``2/sqrt(pi) * integral_0^x exp(-t*t) dt`` (integers in float32).

    Computed in float64 whatever the input dtype (absolute error below 2e-15
    against :func:`math.erf`), then cast back. Saves its input.

    >>> import pylayer
    >>> pylayer.erf(pylayer.to_tensor([0.0, 1.0], dtype='float64')).numpy()
    array([0.        , 0.84270079])
    """
    return _float_math(x, "erf", _erf_array, _erf_bw, keep="input")


# ------------------------------------------------------ sign and magnitude
def _abs_bw(node, g):
    (x,) = node.saved_tensors()
    return (multiply(g, sign(x)),)


@op
def abs(x, name=None):
    """Elementwise absolute value; the gradient is ``sign(x)`` (0 at 0). Saves its input.

    >>> import pylayer
    >>> pylayer.abs(pylayer.to_tensor([-1.5, 2.0])).numpy()
    array([1.5, 2. ], dtype=float32)
    """
    x = numeric_tensor(x, "abs")
    return make_output_legacy(np.asarray(np.abs(x._array)), (x,), "abs", _abs_bw, save=(x,))


@op
def sign(x, name=None):
    """Elementwise sign: -1, 0 or 1 (NaN stays NaN); its gradient is zero.

    >>> import pylayer
    >>> pylayer.sign(pylayer.to_tensor([-2.0, 0.0, 3.0])).numpy()
    array([-1.,  0.,  1.], dtype=float32)
    """
    x = numeric_tensor(x, "sign")
    return make_output_legacy(np.asarray(np.sign(x._array)), (x,), "sign", zero_grads,
                       attrs=(x._array.shape,))


# ------------------------------------------------------------------ rounding
def _rounding(fn, x, array_fn):
    x = numeric_tensor(x, fn)
    a = x._array
    out = np.asarray(array_fn(a)) if a.dtype.kind == "f" else a.copy()
    return make_output_legacy(out, (x,), fn, zero_grads, attrs=(a.shape,))


@op
def floor(x, name=None):
    """Elementwise round toward minus infinity; integer tensors are returned as a copy.

    Its gradient is zero.

    >>> import pylayer
    >>> pylayer.floor(pylayer.to_tensor([-1.5, 1.5])).numpy()
    array([-2.,  1.], dtype=float32)
    """
    return _rounding("floor", x, np.floor)


@op
def ceil(x, name=None):
    """Elementwise round toward plus infinity; integer tensors are returned as a copy.

    Its gradient is zero.

    >>> import pylayer
    >>> pylayer.ceil(pylayer.to_tensor([-1.5, 1.5])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return _rounding("ceil", x, np.ceil)


@op
def round(x, decimals=0, name=None):
    """Round to ``decimals`` places, halves to even (``round(2.5) == 2``), as Paddle does.

    With ``decimals != 0`` the value is scaled by ``10**decimals``, rounded and
    scaled back in its own dtype, so in float32 ``round(0.125, decimals=2)``
    is ``0.12``; a value too large to scale is already whole and is returned
    as it is. Integer tensors keep their dtype (negative ``decimals`` round
    them to tens, hundreds, ...). The gradient is zero.

    >>> import pylayer
    >>> pylayer.round(pylayer.to_tensor([-0.5, 0.5, 1.5, 2.5])).numpy()
    array([-0.,  0.,  2.,  2.], dtype=float32)
    >>> pylayer.round(pylayer.to_tensor([0.125, 0.375]), decimals=2).numpy()
    array([0.12, 0.38], dtype=float32)
    """
    if not isinstance(decimals, (int, np.integer)) or isinstance(decimals, bool):
        raise TypeError(f"round(): argument 'decimals' (position 2) must be an int, "
                        f"got {type(decimals).__name__}")
    decimals = check_int(decimals, "round", "decimals")
    x = numeric_tensor(x, "round")
    a = x._array
    with np.errstate(all="ignore"):
        if decimals >= 0 and a.dtype.kind != "f":
            out = a.copy()
        else:
            out = np.asarray(np.round(a, decimals))
            if a.dtype.kind == "f":
                out = np.where(np.isinf(out) & np.isfinite(a), a, out)
    return make_output_legacy(out, (x,), "round", zero_grads, attrs=(a.shape,))


# --------------------------------------------------------- binary extremes
def _extreme_bw(node, g):
    x, y = saved_operands(node)
    pick_greater = node.attrs[2]
    xa = x._array if isinstance(x, Tensor) else x
    ya = y._array if isinstance(y, Tensor) else y
    with np.errstate(all="ignore"):
        wins = np.greater(xa, ya) if pick_greater else np.less(xa, ya)
        share_x = wins + 0.5 * np.equal(xa, ya)
        share_x = np.where(np.isnan(xa), 1.0, np.where(np.isnan(ya), 0.0, share_x))
    dtype = g._array.dtype
    gx = gy = None
    if node.needs_input_grad[0]:
        gx = unbroadcast(multiply(g, make_tensor(share_x.astype(dtype))), shape_of(x))
    if node.needs_input_grad[1]:
        gy = unbroadcast(multiply(g, make_tensor((1.0 - share_x).astype(dtype))), shape_of(y))
    return (gx, gy)


def _extreme(fn, ufunc, pick_greater, x, y):
    x, y = tensor_pair(x, y, fn)
    xa = operand(x, fn, "x", 1)
    ya = operand(y, fn, "y", 2)
    out = float32_default(binary_array(fn, ufunc, xa, ya), xa, ya)
    return make_output_legacy(out, (x, y), fn, _extreme_bw, save=saved_tensors((x, y)),
                       attrs=number_attrs(x, y) + (pick_greater,))


@op
def maximum(x, y, name=None):
    """Elementwise larger of ``x`` and ``y`` with broadcasting; NaN propagates.

    The gradient goes to the larger input; where ``x == y`` it is split evenly
    (half each), the average of the one-sided derivatives. Saves both inputs.

    >>> import pylayer
    >>> pylayer.maximum(pylayer.to_tensor([1.0, 5.0]), pylayer.to_tensor([3.0, 2.0])).numpy()
    array([3., 5.], dtype=float32)
    """
    return _extreme("maximum", np.maximum, True, x, y)


@op
def minimum(x, y, name=None):
    """Elementwise smaller of ``x`` and ``y`` with broadcasting; NaN propagates.

    The gradient goes to the smaller input; where ``x == y`` it is split
    evenly (half each). Saves both inputs.

    >>> import pylayer
    >>> pylayer.minimum(pylayer.to_tensor([1.0, 5.0]), 2.0).numpy()
    array([1., 2.], dtype=float32)
    """
    return _extreme("minimum", np.minimum, False, x, y)


def _clip_bound(value, arg, position, dtype, shape):
    if value is None:
        return None
    if isinstance(value, Tensor):
        array = value._array
        if array.dtype.kind not in "iuf":
            raise TypeError(f"clip(): argument '{arg}' (position {position}) must be a number "
                            f"or a numeric Tensor, got dtype {value.dtype.name}")
        if array.size == 1:
            value = array.reshape(()).item()
        else:
            try:
                np.broadcast_to(array, shape)
            except ValueError:
                raise ValueError(f"clip(): argument '{arg}' of shape {list(array.shape)} does "
                                 f"not broadcast to x's shape {list(shape)}") from None
            if dtype.kind == "f":
                return np.array(array, copy=True)       # kept for backward
            return (np.ceil(array) if arg == "min" else np.floor(array)).astype(dtype)
    elif not is_number(value) and not isinstance(value, np.number):
        raise TypeError(f"clip(): argument '{arg}' (position {position}) must be a number "
                        f"or a Tensor, got {type(value).__name__}")
    if value != value:
        raise ValueError(f"clip(): argument '{arg}' (position {position}) must not be NaN")
    if dtype.kind == "f":
        return float(value)
    # An integer tensor is clipped to the integers inside [min, max].
    info = np.iinfo(dtype)
    if value in (float("inf"), float("-inf")):
        return info.max if value > 0 else info.min
    rounded = math.ceil(value) if arg == "min" else math.floor(value)
    return int(min(max(rounded, info.min), info.max))


def _clip_bw(node, g):
    (x,) = node.saved_tensors()
    low, high = node.attrs
    a = x._array
    inside = np.ones(a.shape, dtype=bool)
    with np.errstate(all="ignore"):
        if low is not None:
            inside &= a >= low
        if high is not None:
            inside &= a <= high
    return (multiply(g, make_tensor(inside.astype(g._array.dtype))),)


@op
def clip(x, min=None, max=None, name=None):
    """Limit every element of ``x`` to ``[min, max]`` (either bound may be None).

    Bounds are numbers, one-element Tensors, or Tensors that broadcast to
    ``x``'s shape (no gradient flows to them). The result keeps ``x``'s dtype;
    an integer tensor is clipped to the integers inside the bounds. The
    gradient passes where ``min <= x <= max`` (bounds included, as in
    Paddle), and is zero elsewhere. ``min > max`` is a ``ValueError``. Saves ``x``.

    >>> import pylayer
    >>> pylayer.clip(pylayer.to_tensor([-2.0, 0.5, 3.0]), min=-1.0, max=1.0).numpy()
    array([-1. ,  0.5,  1. ], dtype=float32)
    """
    x = numeric_tensor(x, "clip")
    a = x._array
    low = _clip_bound(min, "min", 2, a.dtype, a.shape)
    high = _clip_bound(max, "max", 3, a.dtype, a.shape)
    if low is not None and high is not None and np.any(np.greater(low, high)):
        raise ValueError(f"clip(): 'min' must not exceed 'max', got min={min!r} and "
                         f"max={max!r}")
    with np.errstate(all="ignore"):
        out = a
        if low is not None:
            out = np.where(out < low, low, out)
        if high is not None:
            out = np.where(out > high, high, out)
        out = np.array(out, dtype=a.dtype)
    return make_output_legacy(out, (x,), "clip", _clip_bw, save=(x,), attrs=(low, high))


# -------------------------------------------------------------------- where
def _where_bw(node, g):
    (condition,) = node.saved_tensors()
    shape_x, shape_y = node.attrs
    gx = gy = None
    if node.needs_input_grad[0]:
        gx = unbroadcast(where(condition, g, 0.0), shape_x)
    if node.needs_input_grad[1]:
        gy = unbroadcast(where(condition, 0.0, g), shape_y)
    return (gx, gy)


@op
def where(condition, x=None, y=None, name=None):
    """Elementwise ``x`` where ``condition`` is true, else ``y``, with broadcasting.

    ``x`` and ``y`` may be Python numbers. A non-bool condition counts its
    non-zero elements as true. Gradients flow to ``x`` where the condition
    holds and to ``y`` elsewhere; the op saves the condition. With ``x`` and
    ``y`` both None it returns the indices of the true elements, as Paddle
    does: a tuple with one 1-D int64 tensor of length ``count`` per dimension
    (a 0-D condition is a ``ValueError``).

    >>> import pylayer
    >>> c = pylayer.to_tensor([True, False, True])
    >>> pylayer.where(c, pylayer.to_tensor([1.0, 2.0, 3.0]), 0.0).numpy()
    array([1., 0., 3.], dtype=float32)
    >>> [t.numpy().tolist() for t in pylayer.where(c)]
    [[0, 2]]
    """
    condition = as_tensor_arg(condition, "where", "condition", 1)
    if condition._array.dtype.kind != "b":
        condition = make_tensor(condition._array.astype(bool))
    if x is None and y is None:
        if condition._array.ndim == 0:
            raise ValueError("where(): with one argument, 'condition' must have at least one "
                             "dimension, got a 0-D tensor")
        return tuple(make_tensor(index.astype(np.int64))
                     for index in np.nonzero(condition._array))
    if x is None or y is None:
        raise ValueError("where(): give both 'x' and 'y', or neither (then the indices of "
                         "the true elements are returned)")
    xa = operand(x, "where", "x", 2)
    ya = operand(y, "where", "y", 3)
    try:
        out = np.asarray(np.where(condition._array, xa, ya))
    except ValueError:
        raise ValueError(f"where(): condition of shape {list(condition._array.shape)}, x of "
                         f"shape {shape_text(xa)} and y of shape {shape_text(ya)} cannot be "
                         f"broadcast together") from None
    out = float32_default(out, xa, ya)
    return make_output_legacy(out, (x, y), "where", _where_bw, save=(condition,),
                       attrs=(shape_of(x), shape_of(y)))


# ------------------------------------------------- integer-style division
def _check_integer_divisor(fn, xa, ya):
    if np.result_type(xa, ya).kind in "iu" and np.any(np.equal(ya, 0)):
        raise ZeroDivisionError(f"{fn}(): integer division by zero (y holds a 0)")


@op
def floor_divide(x, y, name=None):
    """Elementwise ``x // y``: the quotient rounded toward minus infinity.

    Integer division by zero raises ``ZeroDivisionError``; float division by
    zero gives inf or NaN. The gradient is zero.

    >>> import pylayer
    >>> pylayer.floor_divide(pylayer.to_tensor([7, -7]), 2).numpy()
    array([ 3, -4])
    """
    x, y = tensor_pair(x, y, "floor_divide")
    xa = operand(x, "floor_divide", "x", 1)
    ya = operand(y, "floor_divide", "y", 2)
    out = float32_default(binary_array("floor_divide", np.floor_divide, xa, ya), xa, ya)
    _check_integer_divisor("floor_divide", xa, ya)
    return make_output_legacy(out, (x, y), "floor_divide", zero_grads,
                       attrs=(shape_of(x), shape_of(y)))


def _remainder_bw(node, g):
    x, y = saved_operands(node)
    gx = unbroadcast(g, shape_of(x)) if node.needs_input_grad[0] else None
    gy = None
    if node.needs_input_grad[1]:
        gy = unbroadcast(neg(multiply(g, floor_divide(x, y))), shape_of(y))
    return (gx, gy)


@op
def remainder(x, y, name=None):
    """Elementwise ``x % y`` with the sign of ``y`` (Python's and numpy's rule).

    The gradient is 1 for ``x`` and ``-floor(x / y)`` for ``y``. Integer
    division by zero raises ``ZeroDivisionError``. Saves both tensor inputs.

    >>> import pylayer
    >>> pylayer.remainder(pylayer.to_tensor([7, -7]), 3).numpy()
    array([1, 2])
    """
    x, y = tensor_pair(x, y, "remainder")
    xa = operand(x, "remainder", "x", 1)
    ya = operand(y, "remainder", "y", 2)
    out = float32_default(binary_array("remainder", np.remainder, xa, ya), xa, ya)
    _check_integer_divisor("remainder", xa, ya)
    return make_output_legacy(out, (x, y), "remainder", _remainder_bw, save=saved_tensors((x, y)),
                       attrs=number_attrs(x, y))
