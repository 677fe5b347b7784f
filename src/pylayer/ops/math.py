"""Elementwise math: ``tanh``, ``exp``, ``log``, ``sqrt`` and ``square``, powers,
trigonometry, ``erf``, sign and rounding, ``clip``, and ``where``.

Conventions shared by every function here (and by :mod:`pylayer.ops.arithmetic`,
whose ops their gradient rules are written with, so that ``create_graph=True``
records them):

* Ops whose result cannot be an integer (``exp log sqrt tanh log1p rsqrt sin cos
  tan erf reciprocal``) compute an integer tensor in float32, as Paddle does, and
  raise ``TypeError`` for bool tensors. Ops that are exact on integers (``square
  abs sign floor ceil round clip``) keep the integer dtype.
* Piecewise-constant ops (``sign floor ceil round``) record a node whose
  gradient is zero, as Paddle's do.
* ``pow`` and ``where`` broadcast like the arithmetic ops; a Python number stays
  a weak scalar.
* NaN and inf propagate silently, as in numpy (no floating-point warnings).

Each op is declared once as a record (``Op``) next to its forward; the public
function is the forward wrapped by :func:`pylayer.ops.dispatch.op`.
"""
import functools
import math

import numpy as np

from pylayer._kernels.conv import pooled_empty
from pylayer._kernels.dtypes import is_bool, is_floating, is_integer
from pylayer._kernels.loops import Unary, unary
from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._arguments import check_int, numeric_tensor
from pylayer.ops._common import binary_array, is_number, shape_text, tensor_pair
from pylayer.ops._operands import (as_tensor_arg, conjugate, float32_default, float_tensor,
                                   holds_complex, operands, pooled_ufunc, real_part_if,
                                   shape_of, tanh_gradient, tanh_rule, unary_forward,
                                   unbroadcast, unbroadcast_to)
from pylayer.ops.arithmetic import add, divide, multiply, neg, subtract
from pylayer.ops.compare import equal, logical_and
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.dispatch import op

__all__ = ["tanh", "exp", "log", "sqrt", "square", "pow", "reciprocal", "rsqrt", "log1p",
           "sin", "cos", "tan", "erf", "abs", "sign", "floor", "ceil", "round", "clip",
           "where", "clamp",
           "abs_", "cos_", "erf_", "log_", "pow_", "sin_", "square_", "tan_", "tanh_"]


def _float_math(record, fn, compute, x, complex_too=True):
    """``compute`` of ``x``'s array, ``x`` taken as a float tensor (integers in float32,
    bool refused; complex accepted with ``complex_too``), recorded with ``record``. NaN
    and inf propagate without warnings."""
    x = float_tensor(x, fn, "x", 1, True, complex_too)
    with np.errstate(all="ignore"):
        out = np.asarray(compute(x._array))
    return make_output(record, out, (x,))


# ------------------------------------------------------------------ tanh
def _tanh_curvature(a, b, c):
    """``-2 a b c``: tanh_grad's gradient for its output ``y`` is
    ``_tanh_curvature(y, dy, gg)``, one recorded op (not three). Each of its own rules is
    the same product with that operand replaced by the incoming gradient. Computed as
    ``((c b) a) (-2)``, the rounding of the three ops it replaces (scaling by -2 is
    exact). Operands of different shapes or dtypes take the three ops."""
    x, y, z = a._array, b._array, c._array
    if not (x.shape == y.shape == z.shape and x.dtype == y.dtype == z.dtype
            and x.dtype.kind == "f"):
        return multiply(multiply(c, b), multiply(a, -2.0))
    out = pooled_empty(x.shape, x.dtype)
    np.multiply(z, y, out=out)
    np.multiply(out, x, out=out)
    np.multiply(out, -2.0, out=out)
    return make_output(TANH_CURVATURE, out, (a, b, c))


TANH_CURVATURE = Op("tanh_curvature", inputs=("a", "b", "c"), keeps=("a", "b", "c"),
                    vjp=(lambda g, b, c: _tanh_curvature(g, b, c),
                         lambda g, a, c: _tanh_curvature(a, g, c),
                         lambda g, a, b: _tanh_curvature(a, b, g)))
TANH_GRAD = Op("tanh_grad", inputs=("y", "dy"), keeps=("y", "dy"),
               vjp=(lambda gg, dy, y: _tanh_curvature(y, dy, gg),
                    lambda gg, y: tanh_gradient(TANH_GRAD, y, gg)))
# Workloads run tanh and its rule hundreds of times a step: both are compiled helpers,
# so neither runs a Python frame (one would cost 5 % of a chain of tanh, measured).
TANH = Op("tanh", keeps=("out",), vjp=(tanh_rule(TANH_GRAD),))
TANH_OF_COMPLEX = Op("tanh", keeps=("out",),
                     vjp=(lambda g, out: multiply(g, conjugate(subtract(1.0, square_op(out)))),))
tanh_op = unary_forward(TANH, TANH_OF_COMPLEX, "tanh", np.tanh)


def tanh(x, name=None):
    """Elementwise hyperbolic tangent; saves its output for backward.

    >>> import pylayer
    >>> pylayer.tanh(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.       , 0.7615942], dtype=float32)
    """
    return tanh_op(x)


# The public op runs the compiled forward itself (no Python frame); the function above
# gives it its name, signature and documentation.
tanh = op(functools.update_wrapper(tanh_op, tanh), method=True, inplace=True)


# ------------------------------------------------------- exp, log, sqrt, square
EXP = Op("exp", keeps=("out",), vjp=(lambda g, out: multiply(g, conjugate(out)),))


def exp_op(x):
    x = float_tensor(x, "exp", "x", 1, True, True)
    with np.errstate(over="ignore"):
        out = pooled_ufunc(np.exp, x._array)
    return make_output(EXP, out, (x,))


@op(method=True, inplace=True)
def exp(x, name=None):
    """Elementwise ``e ** x``; saves its output.

    >>> import pylayer
    >>> pylayer.exp(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([1.      , 2.718282], dtype=float32)
    """
    return exp_op(x)


LOG = Op("log", keeps=("x",), vjp=(lambda g, x: divide(g, conjugate(x)),))


def log_op(x):
    x = float_tensor(x, "log", "x", 1, True, True)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = pooled_ufunc(np.log, x._array)
    return make_output(LOG, out, (x,))


@op(method=True, inplace=True)
def log(x, name=None):
    """Elementwise natural logarithm.

    >>> import numpy as np
    >>> import pylayer
    >>> pylayer.log(pylayer.to_tensor([1.0, np.e])).numpy()
    array([0., 1.], dtype=float32)
    """
    return log_op(x)


SQRT = Op("sqrt", keeps=("out",), vjp=(lambda g, out: divide(g, multiply(conjugate(out), 2.0)),))


@op(method=True, inplace=True)
def sqrt(x, name=None):
    """Elementwise square root; saves its output.

    >>> import pylayer
    >>> pylayer.sqrt(pylayer.to_tensor([4.0, 9.0])).numpy()
    array([2., 3.], dtype=float32)
    """
    x = float_tensor(x, "sqrt", "x", 1, True, True)
    with np.errstate(invalid="ignore"):
        out = pooled_ufunc(np.sqrt, x._array)
    return make_output(SQRT, out, (x,))


SQUARE = Op("square", keeps=("x",),
            vjp=(lambda g, x: multiply(g, multiply(conjugate(x), 2.0)),))


def square_op(x):
    x = as_tensor_arg(x, "square", "x", 1)
    a = x._array
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.multiply(a, a)
    return make_output(SQUARE, out, (x,))


@op(method=True, inplace=True)
def square(x, name=None):
    """Elementwise ``x * x``; saves its input.

    >>> import pylayer
    >>> pylayer.square(pylayer.to_tensor([-3.0, 2.0])).numpy()
    array([9., 4.], dtype=float32)
    """
    return square_op(x)


# ---------------------------------------------------------------- powers
def _pow_x_grad(g, x, y):
    # d/dx x**y = y * x**(y-1). Where x == y == 0 that reads 0 * 0**-1: the base is
    # taken as 1 there, so the slope is 0 and keeps its own derivative in y (selecting
    # a constant 0 wherever y == 0 would cut it).
    if isinstance(y, Tensor):
        base = _where(logical_and(equal(x, 0), equal(y, 0)), 1.0, x)
        slope = multiply(y, _pow(base, subtract(y, 1)))
    elif y == 0:
        slope = make_tensor(np.zeros_like(x._array), True)
    else:
        slope = multiply(_pow(x, y - 1), y)
    return unbroadcast_to(multiply(g, conjugate(slope)), x)


def _pow_y_grad(g, x, y):
    # d/dy x**y = x**y * log(x); at x == 0 the product is taken as 0.
    if isinstance(x, Tensor):
        log_x = log_op(_where(equal(x, 0), 1.0, x))
    else:
        with np.errstate(all="ignore"):
            log_x = 0.0 if x == 0 else np.log(x).item()
    return unbroadcast_to(multiply(g, conjugate(multiply(_pow(x, y), log_x))), y)


POW = Op("pow", inputs=("x", "y"), keeps=("x", "y"),
         vjp=(lambda g, x, y: _pow_x_grad(g, x, y), lambda g, x, y: _pow_y_grad(g, x, y)))


def _pow(x, y):
    x, y = tensor_pair(x, y, "pow")
    xa, ya = operands(x, y, "pow")
    try:
        out = binary_array("pow", np.power, xa, ya)
    except ValueError as exc:
        if "negative integer powers" not in str(exc):
            raise
        raise ValueError("pow(): an integer tensor cannot be raised to a negative integer "
                         "power; cast x to a float dtype first") from None
    return make_output(POW, float32_default(out, xa, ya), (x, y))


@op(method=True, inplace=True)
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
    return _pow(x, y)


RECIPROCAL = Op("reciprocal", keeps=("out",),
                vjp=(lambda g, out: neg(multiply(g, conjugate(square_op(out)))),))


@op(method=True, inplace=True)
def reciprocal(x, name=None):
    """Elementwise ``1 / x`` (integers are computed in float32); saves its output.

    >>> import pylayer
    >>> pylayer.reciprocal(pylayer.to_tensor([2.0, 4.0])).numpy()
    array([0.5 , 0.25], dtype=float32)
    """
    return _float_math(RECIPROCAL, "reciprocal", np.reciprocal, x)


RSQRT = Op("rsqrt", keeps=("out",),
           vjp=(lambda g, out: multiply(g, multiply(multiply(out, square_op(out)), -0.5)),))


@op(method=True, inplace=True)
def rsqrt(x, name=None):
    """Elementwise ``1 / sqrt(x)`` (integers are computed in float32); saves its output.

    >>> import pylayer
    >>> pylayer.rsqrt(pylayer.to_tensor([4.0, 16.0])).numpy()
    array([0.5 , 0.25], dtype=float32)
    """
    return _float_math(RSQRT, "rsqrt", lambda a: np.reciprocal(np.sqrt(a)), x, False)


LOG1P = Op("log1p", keeps=("x",), vjp=(lambda g, x: divide(g, conjugate(add(x, 1.0))),))


@op(method=True, inplace=True)
def log1p(x, name=None):
    """Elementwise ``log(1 + x)``, accurate for small ``x`` (integers in float32).

    >>> import pylayer
    >>> pylayer.log1p(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.       , 0.6931472], dtype=float32)
    >>> pylayer.log1p(pylayer.to_tensor([1e-10], dtype='float64')).numpy()
    array([1.e-10])
    """
    return _float_math(LOG1P, "log1p", np.log1p, x)


# ---------------------------------------------------------- trigonometry
SIN = Op("sin", keeps=("x",), vjp=(lambda g, x: multiply(g, conjugate(_cos(x))),))
COS = Op("cos", keeps=("x",), vjp=(lambda g, x: neg(multiply(g, conjugate(_sin(x)))),))
TAN = Op("tan", keeps=("x",), vjp=(lambda g, x: divide(g, conjugate(square_op(_cos(x)))),))


def _sin(x):
    return _float_math(SIN, "sin", np.sin, x)


def _cos(x):
    return _float_math(COS, "cos", np.cos, x)


@op(method=True, inplace=True)
def sin(x, name=None):
    """Elementwise sine (integers are computed in float32); saves its input.

    >>> import numpy as np
    >>> import pylayer
    >>> pylayer.sin(pylayer.to_tensor([0.0, np.pi / 2])).numpy()
    array([0., 1.], dtype=float32)
    """
    return _sin(x)


@op(method=True, inplace=True)
def cos(x, name=None):
    """Elementwise cosine (integers are computed in float32); saves its input.

    >>> import numpy as np
    >>> import pylayer
    >>> pylayer.cos(pylayer.to_tensor([0.0, np.pi])).numpy()
    array([ 1., -1.], dtype=float32)
    """
    return _cos(x)


@op(method=True, inplace=True)
def tan(x, name=None):
    """Elementwise tangent (integers are computed in float32); saves its input.

    >>> import numpy as np
    >>> import pylayer
    >>> pylayer.tan(pylayer.to_tensor([0.0, np.pi / 4], dtype='float64')).numpy().round(6)
    array([0., 1.])
    """
    return _float_math(TAN, "tan", np.tan, x)


# ------------------------------------------------------------------- erf
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def erf_array(a):
    """erf of the float array ``a`` in ``a``'s dtype: the C library's ``erf``/``erff``
    element by element for float32 and float64; other dtypes are computed in float64."""
    a = np.asarray(a)
    if a.dtype in (np.float32, np.float64):
        return unary(Unary.ERF, a)
    return unary(Unary.ERF, a.astype(np.float64)).astype(a.dtype)


ERF = Op("erf", keeps=("x",),
         vjp=(lambda g, x: multiply(g, multiply(exp_op(neg(square_op(x))), _TWO_OVER_SQRT_PI)),))


def erf_op(x):
    return _float_math(ERF, "erf", erf_array, x, False)


@op(method=True)
def erf(x, name=None):
    """The error function ``2/sqrt(pi) * integral_0^x exp(-t*t) dt`` (integers in float32).

    Computed by the C library's ``erf`` in the input's precision (float16 and bfloat16
    in float64, then cast back). Saves its input.

    >>> import pylayer
    >>> pylayer.erf(pylayer.to_tensor([0.0, 1.0], dtype='float64')).numpy()
    array([0.        , 0.84270079])
    """
    return erf_op(x)


# ---------------------------------------------------- sign and magnitude
ABS = Op("abs", keeps=("x",), vjp=(lambda g, x: multiply(g, _sign(x)),))
ABS_OF_COMPLEX = Op("abs", keeps=("x",), vjp=(lambda g, x: multiply(g, _unit(x)),))


def _unit(x):
    """``x / |x|`` for a complex tensor (0 where x is 0): the gradient of its modulus."""
    modulus = _abs(x)
    return divide(x, _where(equal(modulus, 0), 1.0, modulus))


def _abs(x):
    x = numeric_tensor(x, "abs", complex_too=True)
    out = np.asarray(np.abs(x._array))
    return make_output(ABS_OF_COMPLEX if holds_complex(x._array) else ABS, out,
                       (x,))


@op(method=True, inplace=True)
def abs(x, name=None):
    """Elementwise absolute value (the modulus of a complex number, as a float tensor).

    The gradient is ``sign(x)`` (0 at 0), and ``x / |x|`` for complex ``x``
    (0 at 0). Saves its input.

    >>> import pylayer
    >>> pylayer.abs(pylayer.to_tensor([-1.5, 2.0])).numpy()
    array([1.5, 2. ], dtype=float32)
    >>> pylayer.abs(pylayer.to_tensor([3 + 4j])).numpy()
    array([5.], dtype=float32)
    """
    return _abs(x)


def _zero_rule(g, x_shape):
    """The rule of a piecewise-constant op: a gradient of zeros."""
    return make_tensor(np.zeros(x_shape, g._array.dtype), True)


SIGN = Op("sign", attrs=("x_shape",), vjp=(_zero_rule,))


def _sign(x):
    x = numeric_tensor(x, "sign")
    a = x._array
    return make_output(SIGN, np.asarray(np.sign(a)), (x,), (a.shape,))


@op(method=True)
def sign(x, name=None):
    """Elementwise sign: -1, 0 or 1 (NaN stays NaN); its gradient is zero.

    >>> import pylayer
    >>> pylayer.sign(pylayer.to_tensor([-2.0, 0.0, 3.0])).numpy()
    array([-1.,  0.,  1.], dtype=float32)
    """
    return _sign(x)


# -------------------------------------------------------------- rounding
FLOOR = Op("floor", attrs=("x_shape",), vjp=(_zero_rule,))
CEIL = Op("ceil", attrs=("x_shape",), vjp=(_zero_rule,))
ROUND = Op("round", attrs=("x_shape",), vjp=(_zero_rule,))


def _to_whole(record, fn, ufunc, x):
    x = numeric_tensor(x, fn)
    a = x._array
    out = np.asarray(ufunc(a)) if is_floating(a.dtype) else a.copy()
    return make_output(record, out, (x,), (a.shape,))


@op(method=True, inplace=True)
def floor(x, name=None):
    """Elementwise round toward minus infinity; integer tensors are returned as a copy.

    Its gradient is zero.

    >>> import pylayer
    >>> pylayer.floor(pylayer.to_tensor([-1.5, 1.5])).numpy()
    array([-2.,  1.], dtype=float32)
    """
    return _to_whole(FLOOR, "floor", np.floor, x)


@op(method=True, inplace=True)
def ceil(x, name=None):
    """Elementwise round toward plus infinity; integer tensors are returned as a copy.

    Its gradient is zero.

    >>> import pylayer
    >>> pylayer.ceil(pylayer.to_tensor([-1.5, 1.5])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return _to_whole(CEIL, "ceil", np.ceil, x)


@op(method=True, inplace=True)
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
        if decimals >= 0 and not is_floating(a.dtype):
            out = a.copy()
        else:
            out = np.asarray(np.round(a, decimals))
            if is_floating(a.dtype):
                out = np.where(np.isinf(out) & np.isfinite(a), a, out)
    return make_output(ROUND, out, (x,), (a.shape,))


# ------------------------------------------------------------------ clip
def _clip_bound(value, arg, position, dtype, shape):
    if value is None:
        return None
    if isinstance(value, Tensor):
        array = value._array
        if not (is_integer(array.dtype) or is_floating(array.dtype)):
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
            if is_floating(dtype):
                return np.array(array, copy=True)       # kept for backward
            return (np.ceil(array) if arg == "min" else np.floor(array)).astype(dtype)
    elif not is_number(value) and not isinstance(value, np.number):
        raise TypeError(f"clip(): argument '{arg}' (position {position}) must be a number "
                        f"or a Tensor, got {type(value).__name__}")
    if value != value:
        raise ValueError(f"clip(): argument '{arg}' (position {position}) must not be NaN")
    if is_floating(dtype):
        return float(value)
    # An integer tensor is clipped to the integers inside [min, max].
    info = np.iinfo(dtype)
    if value in (float("inf"), float("-inf")):
        return info.max if value > 0 else info.min
    rounded = math.ceil(value) if arg == "min" else math.floor(value)
    return int(min(max(rounded, info.min), info.max))


def _clip_grad(g, x, low, high):
    """``g`` where ``low <= x <= high`` (bounds included, as in Paddle), else 0."""
    a = x._array
    inside = np.ones(a.shape, dtype=bool)
    with np.errstate(all="ignore"):
        if low is not None:
            inside &= a >= low
        if high is not None:
            inside &= a <= high
    return multiply(g, make_tensor(inside.astype(g._array.dtype), True))


CLIP = Op("clip", keeps=("x",), attrs=("low", "high"),
          vjp=(lambda g, x, low, high: _clip_grad(g, x, low, high),))


@op(method=True, inplace=True)
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
    return make_output(CLIP, out, (x,), (low, high))


clamp = clip        # the PyTorch-style name Paddle 3 added


# ----------------------------------------------------------------- where
WHERE = Op("where", inputs=("condition", "x", "y"), keeps=("condition",),
           attrs=("x_shape", "y_shape", "x_real", "y_real"),
           vjp=(None,
                lambda g, condition, x_shape, x_real: unbroadcast(
                    real_part_if(_where(condition, g, 0.0), x_real), x_shape),
                lambda g, condition, y_shape, y_real: unbroadcast(
                    real_part_if(_where(condition, 0.0, g), y_real), y_shape)))


def _where(condition, x, y):
    """``x`` where ``condition``, else ``y``: ``condition`` a Tensor of bools."""
    condition = as_tensor_arg(condition, "where", "condition", 1)
    xa, ya = operands(x, y, "where", 2)
    try:
        out = np.asarray(np.where(condition._array, xa, ya))
    except ValueError:
        raise ValueError(f"where(): condition of shape "
                         f"{list(condition._array.shape)}, x of shape "
                         f"{shape_text(xa)} and y of shape {shape_text(ya)} cannot be "
                         f"broadcast together") from None
    out = float32_default(out, xa, ya)
    return make_output(WHERE, out, (condition, x, y), (shape_of(x), shape_of(y),
                                                        not holds_complex(xa),
                                                        not holds_complex(ya)))


@op(method=True)
def where(condition, x=None, y=None, name=None):
    """Elementwise ``x`` where ``condition`` is true, else ``y``, with broadcasting.

    ``x`` and ``y`` may be Python numbers. A non-bool condition counts its
    non-zero elements as true. Gradients flow to ``x`` where the condition
    holds and to ``y`` elsewhere; the op saves the condition. With ``x`` and
    ``y`` both None it returns the indices of the true elements, as Paddle
    does: a tuple with one 1-D int64 tensor of length ``count`` per dimension
    (a 0-D condition is a ``ValueError``).

    >>> import pylayer
    >>> cond = pylayer.to_tensor([True, False, True])
    >>> pylayer.where(cond, pylayer.to_tensor([1.0, 2.0, 3.0]), 0.0).numpy()
    array([1., 0., 3.], dtype=float32)
    >>> [t.numpy().tolist() for t in pylayer.where(cond)]
    [[0, 2]]
    """
    condition = as_tensor_arg(condition, "where", "condition", 1)
    if not is_bool(condition._array.dtype):
        condition = make_tensor(condition._array.astype(bool), True)
    if x is None and y is None:
        if condition._array.ndim == 0:
            raise ValueError("where(): with one argument, 'condition' must have at least one "
                             "dimension, got a 0-D tensor")
        return tuple(make_tensor(index.astype(np.int64), True)
                     for index in np.nonzero(condition._array))
    if x is None or y is None:
        raise ValueError("where(): give both 'x' and 'y', or neither (then the indices of "
                         "the true elements are returned)")
    return _where(condition, x, y)


# ----------------------------------------- Paddle's function-level in-place twins
abs_ = inplace_twin(abs)
cos_ = inplace_twin(cos)
erf_ = inplace_twin(erf)
log_ = inplace_twin(log)
pow_ = inplace_twin(pow)
sin_ = inplace_twin(sin)
square_ = inplace_twin(square)
tan_ = inplace_twin(tan)
tanh_ = inplace_twin(tanh)
