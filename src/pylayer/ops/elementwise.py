"""More elementwise math: inverse trigonometric and hyperbolic functions, exponents and logarithms in other bases, rounding, sign and float-bit functions, integer functions, and the PyTorch-style aliases Paddle 3 added.

Conventions, as in :mod:`pylayer.ops.math`:

* Ops whose result cannot be an integer compute an integer tensor in float32 (``atan2``
  in float64, as Paddle does) and refuse bool tensors; the inverse trigonometric and
  hyperbolic functions, ``expm1``, ``log2``, ``log10``, ``sinc`` and ``stanh`` take
  complex tensors too.
* Ops exact on integers (``trunc frac copysign gcd lcm heaviside fmax fmin``) keep the
  integer dtype.
* Predicates (``signbit isneginf isposinf isreal``), ``nextafter``, ``gcd``, ``lcm``
  and the shifts record no graph.
* A Python number on either side of a binary op stays a weak scalar.
* NaN and inf propagate silently, as in numpy.

The gradient rules are written with pylayer ops, so ``create_graph=True`` records them.
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer._kernels.dtypes import is_bool, is_complex, is_floating
from pylayer._kernels.dtypes import is_integer as integer_dtype
from pylayer.ops._arguments import broadcast_error, check_number, describe, numeric_tensor
from pylayer.ops.shape import cast
from pylayer.ops._common import binary_array, is_number, tensor_pair
from pylayer.ops._operands import (as_tensor_arg, conjugate, float32_default, float_tensor,
                                   holds_complex, operands, real_tensor, unbroadcast,
                                   unbroadcast_to)
from pylayer.ops.arithmetic import add, divide, multiply, neg, subtract
from pylayer.ops.complex import real
from pylayer.ops.compare import equal
from pylayer.ops.declaration import declare
from pylayer.ops.dispatch import op
from pylayer.ops.inplace import inplace, inplace_twin
from pylayer.ops.math import _where, abs, cos, exp, sign, sqrt, square, tanh
from pylayer.ops.math import pow as power

__all__ = ["acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cosh", "sinh",
           "expm1", "log2", "log10", "logit", "frac", "trunc", "copysign", "hypot", "ldexp",
           "frexp", "nextafter", "gcd", "lcm", "heaviside", "fmax", "fmin", "logaddexp",
           "signbit", "sgn", "deg2rad", "rad2deg", "nan_to_num", "lerp", "stanh", "sinc",
           "isneginf", "isposinf", "isreal", "is_floating_point", "is_integer", "is_empty",
           "positive", "negative", "bitwise_left_shift", "bitwise_right_shift", "true_divide",
           "increment",
           "acos_", "atan_", "sinh_", "expm1_", "log2_", "log10_", "logit_", "frac_",
           "trunc_", "copysign_", "hypot_", "ldexp_", "gcd_", "lcm_", "nan_to_num_",
           "sinc_", "bitwise_left_shift_", "bitwise_right_shift_"]


def _in_double(compute, a):
    """``compute(a)`` evaluated in float64 (complex128 for complex ``a``) and given back
    in ``a``'s dtype, so that a float32 result is the correctly rounded one."""
    wide = np.complex128 if holds_complex(a) else np.float64
    with np.errstate(all="ignore"):
        return np.asarray(compute(a.astype(wide, copy=False))).astype(a.dtype, copy=False)


def _unary_float(record, fn, compute, x, complex_too=True):
    """``compute`` of ``x``'s array, ``x`` taken as a float tensor (integers in float32,
    bool refused; complex accepted with ``complex_too``), recorded with ``record``."""
    x = float_tensor(x, fn, "x", 1, True, complex_too)
    return make_output(record, _in_double(compute, x._array), (x,))


def _zeros_like(g, x_shape):
    return make_tensor(np.zeros(x_shape, g._array.dtype), True)


def _constant(array, like):
    """A constant tensor (no gradient) of ``array`` in the dtype of the tensor ``like``."""
    return make_tensor(np.asarray(array, dtype=like._array.dtype), True)


# ------------------------------------------------- inverse trigonometric functions
def _one_minus_square(x):
    return subtract(1.0, square(x))


ACOS = Op("acos", keeps=("x",),
          vjp=(lambda g, x: neg(divide(g, conjugate(sqrt(_one_minus_square(x))))),))
ASIN = Op("asin", keeps=("x",),
          vjp=(lambda g, x: divide(g, conjugate(sqrt(_one_minus_square(x)))),))
ATAN = Op("atan", keeps=("x",), vjp=(lambda g, x: divide(g, conjugate(add(square(x), 1.0))),))


@op(method=True, inplace=True)
def acos(x, name=None):
    """Elementwise arc cosine, in radians (integers in float32; complex accepted).

    The gradient is ``-1 / sqrt(1 - x**2)``: ``-inf`` at ``x = +-1``, NaN outside
    ``[-1, 1]``. Saves its input. Also ``x.acos()``, ``x.acos_()`` and
    ``pylayer.acos_``.

    >>> import pylayer
    >>> pylayer.acos(pylayer.to_tensor([1.0, 0.0, -1.0])).numpy()
    array([0.       , 1.5707964, 3.1415927], dtype=float32)
    """
    return _unary_float(ACOS, "acos", np.arccos, x)


@op(method=True, inplace=True)
def asin(x, name=None):
    """Elementwise arc sine, in radians (integers in float32; complex accepted).

    The gradient is ``1 / sqrt(1 - x**2)``: ``inf`` at ``x = +-1``. Saves its
    input. Also ``x.asin()`` and ``x.asin_()``.

    >>> import pylayer
    >>> pylayer.asin(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.       , 1.5707964], dtype=float32)
    """
    return _unary_float(ASIN, "asin", np.arcsin, x)


@op(method=True, inplace=True)
def atan(x, name=None):
    """Elementwise arc tangent, in radians (integers in float32; complex accepted).

    The gradient is ``1 / (1 + x**2)``. Saves its input. Also ``x.atan()``,
    ``x.atan_()`` and ``pylayer.atan_``.

    >>> import pylayer
    >>> pylayer.atan(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.       , 0.7853982], dtype=float32)
    """
    return _unary_float(ATAN, "atan", np.arctan, x)


def _atan2_rule(g, x, y, into):
    """``g * y / (x**2 + y**2)`` for x, ``-g * x / (x**2 + y**2)`` for y."""
    radius = add(square(x), square(y))
    top = y if into is x else neg(x)
    return unbroadcast_to(multiply(g, divide(top, radius)), into)


ATAN2 = Op("atan2", inputs=("x", "y"), keeps=("x", "y"),
           vjp=(lambda g, x, y: _atan2_rule(g, x, y, x),
                lambda g, x, y: _atan2_rule(g, x, y, y)))


def _real_operand(value, fn, arg, position, integers_to):
    """A binary op's float operand: a Tensor (integers cast to ``integers_to``; bool and
    complex refused) or a Python number."""
    if is_number(value):
        return value
    value = as_tensor_arg(value, fn, arg, position)
    dtype = value._array.dtype
    if integer_dtype(dtype):
        return value.astype(integers_to)
    if not is_floating(dtype):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a "
                        f"floating-point or integer Tensor, got dtype {value.dtype.name}")
    return value


def _float_binary(fn, ufunc, x, y, integers_to="float32"):
    """``(out, x, y)``: ``ufunc`` of the float operands, in Paddle's result dtype."""
    x, y = tensor_pair(x, y, fn)
    x = _real_operand(x, fn, "x", 1, integers_to)
    y = _real_operand(y, fn, "y", 2, integers_to)
    xa, ya = operands(x, y, fn)
    out = binary_array(fn, lambda a, b: ufunc(np.asarray(a, np.float64), b), xa, ya)
    arrays = [a for a in (xa, ya) if isinstance(a, np.ndarray)]     # a number stays weak
    return out.astype(np.result_type(*arrays), copy=False), x, y


@op(method=True)
def atan2(x, y, name=None):
    """Elementwise angle of the point ``(y, x)``: ``arctan(x / y)`` in the right quadrant.

    The result is in ``[-pi, pi]``; integer tensors are computed in float64, as
    in Paddle. The gradients are ``y / (x**2 + y**2)`` and ``-x / (x**2 + y**2)``
    (NaN at the origin). Saves both inputs. Also ``x.atan2(y)``.

    >>> import pylayer
    >>> pylayer.atan2(pylayer.to_tensor([1.0, -1.0]), pylayer.to_tensor([1.0, -1.0])).numpy()
    array([ 0.7853982, -2.3561945], dtype=float32)
    """
    out, x, y = _float_binary("atan2", np.arctan2, x, y, "float64")
    return make_output(ATAN2, out, (x, y))


# ---------------------------------------------------- hyperbolic functions
ACOSH = Op("acosh", keeps=("x",),
           vjp=(lambda g, x: divide(g, conjugate(multiply(sqrt(subtract(x, 1.0)),
                                                          sqrt(add(x, 1.0))))),))
ASINH = Op("asinh", keeps=("x",),
           vjp=(lambda g, x: divide(g, conjugate(sqrt(add(square(x), 1.0)))),))
ATANH = Op("atanh", keeps=("x",), vjp=(lambda g, x: divide(g, conjugate(_one_minus_square(x))),))
COSH = Op("cosh", keeps=("x",), vjp=(lambda g, x: multiply(g, conjugate(_sinh(x))),))
SINH = Op("sinh", keeps=("x",), vjp=(lambda g, x: multiply(g, conjugate(_cosh(x))),))


def _cosh(x):
    return _unary_float(COSH, "cosh", np.cosh, x)


def _sinh(x):
    return _unary_float(SINH, "sinh", np.sinh, x)


@op(method=True, inplace=True)
def acosh(x, name=None):
    """Elementwise inverse hyperbolic cosine (integers in float32; complex accepted).

    Real inputs below 1 give NaN. The gradient is ``1 / sqrt(x**2 - 1)``
    (``inf`` at 1). Saves its input. Also ``x.acosh()`` and ``x.acosh_()``.

    >>> import pylayer
    >>> pylayer.acosh(pylayer.to_tensor([1.0, 2.0])).numpy()
    array([0.      , 1.316958], dtype=float32)
    """
    return _unary_float(ACOSH, "acosh", np.arccosh, x)


@op(method=True, inplace=True)
def asinh(x, name=None):
    """Elementwise inverse hyperbolic sine (integers in float32; complex accepted).

    The gradient is ``1 / sqrt(x**2 + 1)``. Saves its input. Also ``x.asinh()``
    and ``x.asinh_()``.

    >>> import pylayer
    >>> pylayer.asinh(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.       , 0.8813736], dtype=float32)
    """
    return _unary_float(ASINH, "asinh", np.arcsinh, x)


@op(method=True, inplace=True)
def atanh(x, name=None):
    """Elementwise inverse hyperbolic tangent (integers in float32; complex accepted).

    ``atanh(+-1)`` is ``+-inf`` and real inputs outside ``[-1, 1]`` give NaN. The
    gradient is ``1 / (1 - x**2)``. Saves its input. Also ``x.atanh()`` and
    ``x.atanh_()``.

    >>> import pylayer
    >>> pylayer.atanh(pylayer.to_tensor([0.0, 0.5])).numpy()
    array([0.        , 0.54930615], dtype=float32)
    """
    return _unary_float(ATANH, "atanh", np.arctanh, x)


@op(method=True, inplace=True)
def cosh(x, name=None):
    """Elementwise hyperbolic cosine (integers in float32; complex accepted).

    The gradient is ``sinh(x)``. Saves its input. Also ``x.cosh()`` and
    ``x.cosh_()``.

    >>> import pylayer
    >>> pylayer.cosh(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([1.       , 1.5430807], dtype=float32)
    """
    return _cosh(x)


@op(method=True, inplace=True)
def sinh(x, name=None):
    """Elementwise hyperbolic sine (integers in float32; complex accepted).

    The gradient is ``cosh(x)``. Saves its input. Also ``x.sinh()``,
    ``x.sinh_()`` and ``pylayer.sinh_``.

    >>> import pylayer
    >>> pylayer.sinh(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.       , 1.1752012], dtype=float32)
    """
    return _sinh(x)


# ------------------------------------------------ exponents and logarithms
EXPM1 = Op("expm1", keeps=("out",), vjp=(lambda g, out: multiply(g, conjugate(add(out, 1.0))),))
_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
LOG2 = Op("log2", keeps=("x",), vjp=(lambda g, x: divide(g, conjugate(multiply(x, _LN2))),))
LOG10 = Op("log10", keeps=("x",), vjp=(lambda g, x: divide(g, conjugate(multiply(x, _LN10))),))


@op(method=True)
def expm1(x, name=None):
    """Elementwise ``exp(x) - 1``, accurate for small ``x`` (integers in float32).

    Complex tensors are accepted. The gradient is ``exp(x)``; saves its output.
    Also ``x.expm1()`` and ``pylayer.expm1_`` (Paddle has no ``x.expm1_()``).

    >>> import pylayer
    >>> pylayer.expm1(pylayer.to_tensor([0.0, 1e-10], dtype='float64')).numpy()
    array([0.e+00, 1.e-10])
    """
    return _unary_float(EXPM1, "expm1", np.expm1, x)


@op(method=True, inplace=True)
def log2(x, name=None):
    """Elementwise base-2 logarithm (integers in float32; complex accepted).

    ``log2(0)`` is ``-inf`` and negative real inputs give NaN. The gradient is
    ``1 / (x * ln 2)``. Saves its input. Also ``x.log2()``, ``x.log2_()`` and
    ``pylayer.log2_``.

    >>> import pylayer
    >>> pylayer.log2(pylayer.to_tensor([1.0, 8.0])).numpy()
    array([0., 3.], dtype=float32)
    """
    return _unary_float(LOG2, "log2", np.log2, x)


@op(method=True, inplace=True)
def log10(x, name=None):
    """Elementwise base-10 logarithm (integers in float32; complex accepted).

    The gradient is ``1 / (x * ln 10)``. Saves its input. Also ``x.log10()``,
    ``x.log10_()`` and ``pylayer.log10_``.

    >>> import pylayer
    >>> pylayer.log10(pylayer.to_tensor([1.0, 100.0])).numpy()
    array([0., 2.], dtype=float32)
    """
    return _unary_float(LOG10, "log10", np.log10, x)


def _logit_grad(g, x, eps):
    a = x._array
    slope = divide(g, multiply(x, subtract(1.0, x)))
    with np.errstate(invalid="ignore"):
        if eps is None:
            outside = (a < 0) | (a > 1)
            return _where(_constant(outside, x), math.nan, slope)
        inside = (a >= eps) & (a <= 1.0 - eps)
    return _where(_constant(inside, x), slope, 0.0)


LOGIT = Op("logit", keeps=("x",), attrs=("eps",),
           vjp=(lambda g, x, eps: _logit_grad(g, x, eps),))


@op(method=True, inplace=True)
def logit(x, eps=None, name=None):
    """Elementwise ``log(x / (1 - x))``, with ``x`` first limited to ``[eps, 1 - eps]``.

    Without ``eps`` (or with a negative one) nothing is limited: ``logit(0)``
    is ``-inf``, ``logit(1)`` is ``inf``, and inputs outside ``[0, 1]`` give
    NaN. Integers are computed in float32. The gradient is ``1 / (x (1 - x))``;
    with ``eps`` it is zero where ``x`` was limited (the bounds themselves
    pass), and without it NaN outside ``[0, 1]``, as in Paddle. Saves its
    input. Also ``x.logit()``, ``x.logit_()`` and ``pylayer.logit_``.

    >>> import pylayer
    >>> pylayer.logit(pylayer.to_tensor([0.5, 0.75])).numpy()
    array([0.       , 1.0986123], dtype=float32)
    >>> pylayer.logit(pylayer.to_tensor([0.0, 1.0]), eps=0.25).numpy()
    array([-1.0986123,  1.0986123], dtype=float32)
    """
    eps = check_number(eps, "logit", "eps", allow_none=True)
    if eps is not None and eps < 0:
        eps = None
    x = float_tensor(x, "logit", "x", 1, True)
    a = x._array
    if eps is not None:
        a = np.maximum(np.minimum(a, 1.0 - eps), eps).astype(a.dtype)
    return make_output(LOGIT, _in_double(lambda v: np.log(v / (1 - v)), a), (x,), (eps,))


LOGADDEXP = Op("logaddexp", inputs=("x", "y"), keeps=("x", "y", "out"),
               vjp=(lambda g, x, out: unbroadcast_to(multiply(g, exp(subtract(x, out))), x),
                    lambda g, y, out: unbroadcast_to(multiply(g, exp(subtract(y, out))), y)))


@op(method=True)
def logaddexp(x, y, name=None):
    """Elementwise ``log(exp(x) + exp(y))``, without overflow (integers in float32).

    ``logaddexp(-inf, -inf)`` is ``-inf`` and ``logaddexp(inf, inf)`` is
    ``inf`` (Paddle gives NaN for both). The gradients are ``exp(x - out)`` and
    ``exp(y - out)``. ``y`` may be a Python number. Also ``x.logaddexp(y)``.

    >>> import pylayer
    >>> pylayer.logaddexp(pylayer.to_tensor([0.0, 1.0]), pylayer.to_tensor([0.0, 2.0])).numpy()
    array([0.6931472, 2.3132617], dtype=float32)
    """
    out, x, y = _float_binary("logaddexp", np.logaddexp, x, y)
    return make_output(LOGADDEXP, out, (x, y))


# ------------------------------------------------------------------ rounding
TRUNC = Op("trunc", attrs=("x_shape",), vjp=(_zeros_like,))


def _trunc(x, fn="trunc", arg="input"):
    x = numeric_tensor(x, fn, arg)
    a = x._array
    out = np.asarray(np.trunc(a)) if is_floating(a.dtype) else a.copy()
    return make_output(TRUNC, out, (x,), (a.shape,))


@op(method=True, inplace=True)
def trunc(input, name=None):
    """Elementwise rounding toward zero; integer tensors are returned as a copy.

    Its gradient is zero. Also ``x.trunc()``, ``x.trunc_()`` and
    ``pylayer.trunc_``.

    >>> import pylayer
    >>> pylayer.trunc(pylayer.to_tensor([-1.5, 2.7])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return _trunc(input)


@op(method=True, inplace=True)
def frac(x, name=None):
    """Elementwise fractional part ``x - trunc(x)``, with the sign of ``x``.

    Integer tensors give zeros of their dtype. The gradient is 1. Also
    ``x.frac()``, ``x.frac_()`` and ``pylayer.frac_``.

    >>> import pylayer
    >>> pylayer.frac(pylayer.to_tensor([-1.5, 2.25])).numpy()
    array([-0.5 ,  0.25], dtype=float32)
    """
    x = numeric_tensor(x, "frac")
    return subtract(x, _trunc(x, "frac", "x"))


# ------------------------------------------------------ sign and float bits
def _copysign_x_grad(g, x, out):
    slope = multiply(sign(x), sign(out))
    return unbroadcast_to(multiply(g, slope), x)


def _no_gradient(g, y):
    if not isinstance(y, Tensor):
        return None
    return _zeros_like(g, y._array.shape)


COPYSIGN = Op("copysign", inputs=("x", "y"), keeps=("x", "y", "out"),
              vjp=(lambda g, x, out: _copysign_x_grad(g, x, out),
                   lambda g, y: _no_gradient(g, y)))


@op(method=True, inplace=True)
def copysign(x, y, name=None):
    """Elementwise ``|x|`` with the sign of ``y`` (the sign bit: ``-0.0`` counts as negative).

    Integer and bool tensors keep their dtype; ``y`` may be a Python number.
    The gradient for ``x`` is ``sign(x) * sign(out)`` (0 at ``x = 0``); ``y``
    gets a zero gradient. Also ``x.copysign(y)``, ``x.copysign_(y)`` and
    ``pylayer.copysign_``.

    >>> import pylayer
    >>> pylayer.copysign(pylayer.to_tensor([1.0, -2.0, 3.0]), pylayer.to_tensor([-1.0, 1.0, -0.0])).numpy()
    array([-1.,  2., -3.], dtype=float32)
    """
    x, y = tensor_pair(x, y, "copysign")
    x = real_tensor(x, "copysign", "x", 1)
    if not is_number(y):
        y = real_tensor(y, "copysign", "y", 2)
    xa, ya = operands(x, y, "copysign")
    if is_floating(xa.dtype) or (isinstance(ya, np.ndarray) and is_floating(ya.dtype)):
        out = float32_default(binary_array("copysign", np.copysign, xa, ya), xa, ya)
    else:
        negative = np.signbit(ya) if isinstance(ya, np.ndarray) else ya < 0
        if is_bool(xa.dtype):           # True and False have no sign to change
            out = binary_array("copysign", lambda a, b: a | np.zeros(np.shape(b), bool),
                               xa, negative)
        else:
            out = binary_array("copysign", lambda a, b: np.where(b, -a, a), np.abs(xa),
                               negative)
        out = out.astype(np.result_type(xa, ya) if isinstance(ya, np.ndarray) else xa.dtype)
    return make_output(COPYSIGN, out, (x, y))


@op(method=True)
def signbit(x, name=None):
    """Elementwise test of the sign bit: True for negative numbers, ``-0.0`` and ``-nan``.

    A bool tensor, no gradient; integer tensors are accepted, bool and complex
    ones refused. Also ``x.signbit()``.

    >>> import pylayer
    >>> pylayer.signbit(pylayer.to_tensor([-1.0, -0.0, 0.0, 2.0])).numpy()
    array([ True,  True, False, False])
    """
    x = numeric_tensor(x, "signbit")
    return make_tensor(np.asarray(np.signbit(x._array)))


def _sgn_complex_grad(g, x, out):
    """``(g - Re(g conj(s)) s) / |x|`` with ``s = x / |x|``, 0 where ``x`` is 0."""
    modulus = abs(x)
    along = multiply(real(multiply(g, conjugate(out))), out)
    zero = equal(modulus, 0)
    return _where(zero, 0.0, divide(subtract(g, along), _where(zero, 1.0, modulus)))


SGN = Op("sgn", attrs=("x_shape",), vjp=(_zeros_like,))
SGN_OF_COMPLEX = Op("sgn", keeps=("x", "out"),
                    vjp=(lambda g, x, out: _sgn_complex_grad(g, x, out),))


@op(method=True)
def sgn(x, name=None):
    """The sign of real numbers (-1, 0 or 1) and ``x / |x|`` for complex ones (0 at 0).

    Integer tensors are refused, as in Paddle. The gradient is zero for real
    tensors; for complex ones it is the derivative of ``x / |x|`` (zero at 0,
    where Paddle gives NaN). Also ``x.sgn()``.

    >>> import pylayer
    >>> pylayer.sgn(pylayer.to_tensor([3 + 4j, 0j])).numpy()
    array([0.6+0.8j, 0. +0.j ], dtype=complex64)
    """
    x = float_tensor(x, "sgn", "x", 1, False, True)
    a = x._array
    if not holds_complex(a):
        return make_output(SGN, np.asarray(np.sign(a)), (x,), (a.shape,))
    modulus = np.abs(a)
    with np.errstate(all="ignore"):
        out = np.where(modulus == 0, 0, a / np.where(modulus == 0, 1, modulus)).astype(a.dtype)
    return make_output(SGN_OF_COMPLEX, out, (x,))


@op(method=True)
def deg2rad(x, name=None):
    """Elementwise degrees to radians, ``x * pi / 180`` (integers in float32).

    Also ``x.deg2rad()``.

    >>> import pylayer
    >>> pylayer.deg2rad(pylayer.to_tensor([180.0, 90.0])).numpy()
    array([3.1415927, 1.5707964], dtype=float32)
    """
    x = float_tensor(x, "deg2rad", "x", 1, True, True)
    return multiply(x, math.pi / 180.0)


@op(method=True)
def rad2deg(x, name=None):
    """Elementwise radians to degrees, ``x * 180 / pi`` (integers in float32).

    Also ``x.rad2deg()``.

    >>> import pylayer
    >>> pylayer.rad2deg(pylayer.to_tensor([3.1415927, 1.0])).numpy()
    array([180.     ,  57.29578], dtype=float32)
    """
    x = float_tensor(x, "rad2deg", "x", 1, True, True)
    return multiply(x, 180.0 / math.pi)


def _float_limits(dtype):
    try:
        return np.finfo(dtype)
    except ValueError:
        import ml_dtypes
        return ml_dtypes.finfo(dtype)


NAN_TO_NUM = Op("nan_to_num", attrs=("finite",),
                vjp=(lambda g, finite: multiply(g, make_tensor(finite.astype(g._array.dtype),
                                                               True)),))


@op(method=True, inplace=True)
def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    """Replace NaN by ``nan``, ``inf`` by ``posinf`` and ``-inf`` by ``neginf``, elementwise.

    ``posinf`` and ``neginf`` default to the largest and lowest finite value of
    ``x``'s dtype; a replacement the dtype cannot hold is a ``ValueError``. Only
    floating-point tensors are accepted, as in Paddle. The gradient passes
    where ``x`` is finite and is zero elsewhere. Also ``x.nan_to_num()``,
    ``x.nan_to_num_()`` and ``pylayer.nan_to_num_``.

    >>> import pylayer
    >>> pylayer.nan_to_num(pylayer.to_tensor([float('nan'), float('inf'), 1.0]), posinf=9.0).numpy()
    array([0., 9., 1.], dtype=float32)
    """
    x = float_tensor(x, "nan_to_num")
    a = x._array
    limits = _float_limits(a.dtype)
    values = []
    for arg, value, default in (("nan", nan, 0.0), ("posinf", posinf, float(limits.max)),
                                ("neginf", neginf, float(limits.min))):
        value = check_number(value, "nan_to_num", arg, allow_none=arg != "nan")
        value = default if value is None else value
        if math.isfinite(value) and not float(limits.min) <= value <= float(limits.max):
            raise ValueError(f"nan_to_num(): argument '{arg}' must fit in {x.dtype.name} "
                             f"(between {float(limits.min)} and {float(limits.max)}), "
                             f"got {value}")
        values.append(value)
    out = np.nan_to_num(a, nan=values[0], posinf=values[1], neginf=values[2])
    return make_output(NAN_TO_NUM, np.asarray(out), (x,), (np.isfinite(a),))


# --------------------------------------------------------- binary float math
def _hypot_rule(g, into, out):
    return unbroadcast_to(multiply(g, divide(into, out)), into)


HYPOT = Op("hypot", inputs=("x", "y"), keeps=("x", "y", "out"),
           vjp=(lambda g, x, out: _hypot_rule(g, x, out),
                lambda g, y, out: _hypot_rule(g, y, out)))


@op(method=True, inplace=True)
def hypot(x, y, name=None):
    """Elementwise ``sqrt(x**2 + y**2)``, without overflow (integers in float32).

    The gradients are ``x / out`` and ``y / out`` (NaN where both are 0). ``y``
    may be a Python number. Complex tensors are refused (Paddle squares them as
    complex numbers; PyTorch refuses them). Also ``x.hypot(y)``,
    ``x.hypot_(y)`` and ``pylayer.hypot_``.

    >>> import pylayer
    >>> pylayer.hypot(pylayer.to_tensor([3.0, 5.0]), pylayer.to_tensor([4.0, 12.0])).numpy()
    array([ 5., 13.], dtype=float32)
    """
    out, x, y = _float_binary("hypot", np.hypot, x, y)
    return make_output(HYPOT, out, (x, y))


def _ldexp_y_grad(g, y, out):
    if not isinstance(y, Tensor) or not is_floating(y._array.dtype):
        return None
    return unbroadcast_to(multiply(g, multiply(out, _LN2)), y)


LDEXP = Op("ldexp", inputs=("x", "y"), keeps=("y", "out"), attrs=("x_shape",),
           vjp=(lambda g, y, x_shape: unbroadcast(multiply(g, _power_of_two(y)), x_shape),
                lambda g, y, out: _ldexp_y_grad(g, y, out)))


def _power_of_two(y):
    if isinstance(y, Tensor):
        return power(2.0, y)
    return 2.0 ** y


@op(method=True, inplace=True)
def ldexp(x, y, name=None):
    """Elementwise ``x * 2 ** y``.

    The result is float64 when either operand is a float64 tensor and float32
    otherwise (integers too), as in Paddle. With an integer ``y`` the scaling is
    exact. The gradient is ``2 ** y`` for ``x``, and ``out * ln 2`` for a
    floating-point ``y``. Also ``x.ldexp(y)``, ``x.ldexp_(y)`` and
    ``pylayer.ldexp_``.

    >>> import pylayer
    >>> pylayer.ldexp(pylayer.to_tensor([1.0, 3.0]), pylayer.to_tensor([3, -1])).numpy()
    array([8. , 1.5], dtype=float32)
    """
    x, y = tensor_pair(x, y, "ldexp")
    x = real_tensor(x, "ldexp", "x", 1)
    if is_bool(x._array.dtype):
        raise TypeError("ldexp(): argument 'x' (position 1) must be a floating-point or "
                        "integer Tensor, got dtype bool")
    if integer_dtype(x._array.dtype):
        x = x.astype("float32")
    if not is_number(y):
        y = numeric_tensor(y, "ldexp", "y", 2)
    xa, ya = operands(x, y, "ldexp")
    exponent_is_integer = isinstance(ya, int) or (isinstance(ya, np.ndarray)
                                                  and integer_dtype(ya.dtype))
    if exponent_is_integer:
        ya_int = np.clip(ya, -2 ** 31, 2 ** 31 - 1).astype(np.int32) \
            if isinstance(ya, np.ndarray) else max(min(ya, 2 ** 31 - 1), -2 ** 31)
        out = binary_array("ldexp", np.ldexp, xa.astype(np.float64), ya_int)
    else:
        out = binary_array("ldexp", lambda a, b: a * np.exp2(b), xa.astype(np.float64), ya)
    return make_output(LDEXP, float32_default(out, xa, ya), (x, y), (xa.shape,))


FREXP = Op("frexp", keeps=(), attrs=("scale",),
           vjp=(lambda g, scale: multiply(g, make_tensor(scale.astype(g._array.dtype), True)),))


@op(method=True)
def frexp(x, name=None):
    """Split ``x`` into a mantissa in ``[0.5, 1)`` (by magnitude) and a power of two.

    Returns ``(mantissa, exponent)`` with ``x == mantissa * 2 ** exponent``; both
    have ``x``'s floating-point dtype (integers are refused, as in Paddle). Zero
    gives ``(0, 0)``; ``inf`` and NaN give themselves and exponent 0, as in
    numpy. The mantissa's gradient is ``2 ** -exponent``; the exponent has
    none. Also ``x.frexp()``.

    >>> import pylayer
    >>> mantissa, exponent = pylayer.frexp(pylayer.to_tensor([8.0, -0.75]))
    >>> mantissa.numpy(), exponent.numpy()
    (array([ 0.5 , -0.75], dtype=float32), array([4., 0.], dtype=float32))
    """
    x = float_tensor(x, "frexp")
    a = x._array
    mantissa, exponent = np.frexp(a)
    scale = np.ldexp(np.ones(a.shape), -exponent)
    out = make_output(FREXP, np.asarray(mantissa, dtype=a.dtype), (x,), (scale,))
    return out, make_tensor(np.asarray(exponent.astype(a.dtype)))


@op(method=True)
def nextafter(x, y, name=None):
    """Elementwise the next floating-point value after ``x`` in the direction of ``y``.

    Both must be floating-point (``y`` may be a Python number); no gradient.
    Also ``x.nextafter(y)``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, 0.0], dtype='float64')
    >>> (pylayer.nextafter(x, pylayer.to_tensor([2.0, -1.0], dtype='float64')) - x).numpy()
    array([ 2.22044605e-016, -4.94065646e-324])
    """
    x, y = tensor_pair(x, y, "nextafter")
    x = float_tensor(x, "nextafter", "x", 1)
    if not is_number(y):
        y = float_tensor(y, "nextafter", "y", 2)
    xa, ya = operands(x, y, "nextafter")
    if not isinstance(ya, np.ndarray):
        ya = np.asarray(ya, dtype=xa.dtype)
    return make_tensor(binary_array("nextafter", np.nextafter, xa, ya))


def _fextreme_grad(g, x, y, into, keep_x):
    """The gradient of fmax/fmin for ``into``: x gets it where ``keep_x`` holds."""
    xa = x._array
    ya = y._array if isinstance(y, Tensor) else np.asarray(y)
    with np.errstate(invalid="ignore"):
        mask = keep_x(xa, ya) | np.isnan(ya)
    if into is y:
        mask = ~mask
    mask = np.broadcast_to(mask, np.broadcast_shapes(xa.shape, ya.shape))
    return unbroadcast_to(multiply(g, make_tensor(mask.astype(g._array.dtype), True)), into)


FMAX = Op("fmax", inputs=("x", "y"), keeps=("x", "y"),
          vjp=(lambda g, x, y: _fextreme_grad(g, x, y, x, np.greater_equal),
               lambda g, x, y: _fextreme_grad(g, x, y, y, np.greater_equal)))
FMIN = Op("fmin", inputs=("x", "y"), keeps=("x", "y"),
          vjp=(lambda g, x, y: _fextreme_grad(g, x, y, x, np.less_equal),
               lambda g, x, y: _fextreme_grad(g, x, y, y, np.less_equal)))


def _real_pair(fn, x, y):
    """``(x, y, xa, ya)``: real numeric (not bool) operands of ``fn``; numbers stay numbers."""
    x, y = tensor_pair(x, y, fn)
    x = numeric_tensor(x, fn, "x", 1)
    if not is_number(y):
        y = numeric_tensor(y, fn, "y", 2)
    xa, ya = operands(x, y, fn)
    return x, y, xa, ya


def _extreme(record, fn, ufunc, x, y):
    x, y, xa, ya = _real_pair(fn, x, y)
    return make_output(record, binary_array(fn, ufunc, xa, ya), (x, y))


@op(method=True)
def fmax(x, y, name=None):
    """Elementwise maximum that ignores NaN: NaN only where both are NaN.

    Integer tensors keep their dtype. The gradient goes to ``x`` where
    ``x >= y`` or ``y`` is NaN, and to ``y`` elsewhere. Also ``x.fmax(y)``.

    >>> import pylayer
    >>> nan = float('nan')
    >>> pylayer.fmax(pylayer.to_tensor([1.0, nan, 3.0]), pylayer.to_tensor([2.0, 1.0, nan])).numpy()
    array([2., 1., 3.], dtype=float32)
    """
    return _extreme(FMAX, "fmax", np.fmax, x, y)


@op(method=True)
def fmin(x, y, name=None):
    """Elementwise minimum that ignores NaN: NaN only where both are NaN.

    Integer tensors keep their dtype. The gradient goes to ``x`` where
    ``x <= y`` or ``y`` is NaN, and to ``y`` elsewhere. Also ``x.fmin(y)``.

    >>> import pylayer
    >>> nan = float('nan')
    >>> pylayer.fmin(pylayer.to_tensor([1.0, nan, 3.0]), pylayer.to_tensor([2.0, 1.0, nan])).numpy()
    array([1., 1., 3.], dtype=float32)
    """
    return _extreme(FMIN, "fmin", np.fmin, x, y)


def _heaviside_y_grad(g, x, y):
    zero = np.broadcast_to(x._array == 0, g._array.shape)
    return unbroadcast_to(multiply(g, make_tensor(zero.astype(g._array.dtype), True)), y)


HEAVISIDE = Op("heaviside", inputs=("x", "y"), keeps=("x", "y"), attrs=("x_shape",),
               vjp=(lambda g, x_shape: _zeros_like(g, x_shape),
                    lambda g, x, y: _heaviside_y_grad(g, x, y)))


@op(method=True)
def heaviside(x, y, name=None):
    """Elementwise step function: 0 where ``x < 0``, ``y`` where ``x == 0``, 1 where ``x > 0``.

    NaN in ``x`` gives 0, as in Paddle. Integer tensors keep their dtype. The
    gradient for ``x`` is zero; ``y`` gets it where ``x == 0``. Also
    ``x.heaviside(y)``.

    >>> import pylayer
    >>> pylayer.heaviside(pylayer.to_tensor([-1.0, 0.0, 2.0]), pylayer.to_tensor([0.5])).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    x, y, xa, ya = _real_pair("heaviside", x, y)
    out = binary_array("heaviside", lambda a, b: np.where(a == 0, b, a > 0), xa, ya)
    out = out.astype(np.result_type(xa, ya) if isinstance(ya, np.ndarray) else xa.dtype)
    return make_output(HEAVISIDE, out, (x, y), (xa.shape,))


# --------------------------------------------------------- integer functions
def _euclid(xa, ya):
    """The greatest common divisor of float arrays, by vectorised Euclid steps."""
    a, b = np.broadcast_arrays(np.abs(xa), np.abs(ya))
    a, b = a.copy(), b.copy()
    with np.errstate(all="ignore"):
        active = (b != 0) & np.isfinite(b) & np.isfinite(a)
        while active.any():
            remainder = np.fmod(a[active], b[active])
            a[active] = b[active]
            b[active] = remainder
            active = active & (b != 0)
    return a


def _integer_function(fn, x, y):
    x, y, xa, ya = _real_pair(fn, x, y)
    yd = ya.dtype if isinstance(ya, np.ndarray) else None
    if integer_dtype(xa.dtype) and (yd is None or integer_dtype(yd)):
        ufunc = np.gcd if fn == "gcd" else np.lcm
        return make_tensor(binary_array(fn, ufunc, xa, ya))
    xa = np.asarray(xa)
    ya = np.asarray(ya, dtype=xa.dtype) if yd is None else ya
    binary_array(fn, np.add, xa, ya)        # refuses shapes that do not broadcast
    divisor = _euclid(xa, ya)
    if fn == "lcm":
        with np.errstate(all="ignore"):
            divisor = np.where(divisor == 0, 0, np.abs(xa * ya) / np.where(divisor == 0, 1,
                                                                             divisor))
    return make_tensor(float32_default(np.asarray(divisor), xa, ya))


@op(method=True, inplace=True)
def gcd(x, y, name=None):
    """Elementwise greatest common divisor, non-negative; ``gcd(0, 0)`` is 0.

    Integer tensors keep their dtype; floating-point ones are accepted too, as
    in Paddle (Euclid's algorithm on their values). No gradient. Also
    ``x.gcd(y)``, ``x.gcd_(y)`` and ``pylayer.gcd_``.

    >>> import pylayer
    >>> pylayer.gcd(pylayer.to_tensor([12, -18, 0]), pylayer.to_tensor([8, 12, 5])).numpy()
    array([4, 6, 5])
    """
    return _integer_function("gcd", x, y)


@op(method=True, inplace=True)
def lcm(x, y, name=None):
    """Elementwise least common multiple, non-negative; 0 where either is 0.

    Integer tensors keep their dtype; floating-point ones are accepted too. No
    gradient. Also ``x.lcm(y)``, ``x.lcm_(y)`` and ``pylayer.lcm_``.

    >>> import pylayer
    >>> pylayer.lcm(pylayer.to_tensor([12, -18, 0]), pylayer.to_tensor([8, 12, 5])).numpy()
    array([24, 36,  0])
    """
    return _integer_function("lcm", x, y)


def _integer_tensor(value, fn, arg, position):
    value = as_tensor_arg(value, fn, arg, position)
    if not integer_dtype(value._array.dtype):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be an integer "
                        f"Tensor, got dtype {value.dtype.name}")
    return value


def _shift(fn, ufunc, x, y, is_arithmetic, out):
    x = _integer_tensor(x, fn, "x", 1)
    if not (isinstance(y, int) and not isinstance(y, bool)):
        y = _integer_tensor(y, fn, "y", 2)
    if not isinstance(is_arithmetic, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument 'is_arithmetic' (position 3) must be a bool, got "
                        f"{describe(is_arithmetic)}")
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' (position 4) must be a Tensor or None, got "
                        f"{type(out).__name__}")
    xa, ya = operands(x, y, fn)
    if is_arithmetic or xa.dtype.kind == "u":
        result = binary_array(fn, ufunc, xa, ya)
    else:
        unsigned = np.dtype(f"u{xa.dtype.itemsize}")
        ya = ya.astype(unsigned) if isinstance(ya, np.ndarray) else np.asarray(ya).astype(unsigned)
        result = binary_array(fn, ufunc, xa.view(unsigned), ya).view(xa.dtype)
    if out is None:
        return make_tensor(result)
    out._set_array_inplace(result)
    return out


@op(method=True, inplace=True)
def bitwise_left_shift(x, y, is_arithmetic=True, out=None, name=None):
    """Elementwise ``x << y`` of integer tensors; bits shifted past the width are lost.

    A shift by a negative amount or by the width or more gives 0.
    ``is_arithmetic`` makes no difference to a left shift. ``out`` receives the
    result when given. Also ``x.bitwise_left_shift(y)``,
    ``x.bitwise_left_shift_(y)`` and ``pylayer.bitwise_left_shift_``.

    >>> import pylayer
    >>> pylayer.bitwise_left_shift(pylayer.to_tensor([1, -8]), pylayer.to_tensor([3, 1])).numpy()
    array([  8, -16])
    """
    return _shift("bitwise_left_shift", np.left_shift, x, y, is_arithmetic, out)


@op(method=True, inplace=True)
def bitwise_right_shift(x, y, is_arithmetic=True, out=None, name=None):
    """Elementwise ``x >> y`` of integer tensors.

    With ``is_arithmetic=True`` the sign bit is copied in (a negative number
    stays negative); with ``False`` zeros come in, as if ``x`` were unsigned. A
    shift by a negative amount or by the width or more leaves only the fill.
    ``out`` receives the result when given. Also ``x.bitwise_right_shift(y)``,
    ``x.bitwise_right_shift_(y)`` and ``pylayer.bitwise_right_shift_``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([-8, 8], dtype='int8')
    >>> pylayer.bitwise_right_shift(x, pylayer.to_tensor([1, 2], dtype='int8')).numpy()
    array([-4,  2], dtype=int8)
    >>> pylayer.bitwise_right_shift(x, pylayer.to_tensor([1, 2], dtype='int8'), is_arithmetic=False).numpy()
    array([124,   2], dtype=int8)
    """
    return _shift("bitwise_right_shift", np.right_shift, x, y, is_arithmetic, out)


# ---------------------------------------------------- composed elementwise ops
@op(method=True, inplace=True)
def lerp(x, y, weight, name=None):
    """Elementwise linear interpolation ``x + weight * (y - x)``.

    ``x`` and ``y`` are floating-point tensors; ``weight`` is a Python number or
    a floating-point tensor, and the three broadcast together. The gradients
    are ``1 - weight``, ``weight`` and ``y - x`` (Paddle gives a tensor weight
    no gradient; PyTorch does). Also ``x.lerp(y, weight)`` and
    ``x.lerp_(y, weight)``.

    >>> import pylayer
    >>> pylayer.lerp(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor([3.0, 6.0]), 0.25).numpy()
    array([1.5, 3. ], dtype=float32)
    """
    x = float_tensor(x, "lerp", "x", 1)
    y = float_tensor(y, "lerp", "y", 2)
    if is_number(weight) or isinstance(weight, np.floating):
        weight = float(weight)
        weight_shape = ()
    else:
        weight = float_tensor(weight, "lerp", "weight", 3)
        weight_shape = tuple(weight.shape)
    try:
        np.broadcast_shapes(tuple(x.shape), tuple(y.shape), weight_shape)
    except ValueError:
        raise ValueError(f"lerp(): x of shape {list(x.shape)}, y of shape {list(y.shape)} "
                         f"and weight of shape {list(weight_shape)} cannot be broadcast "
                         f"together") from None
    return add(x, multiply(weight, subtract(y, x)))


@op(method=True)
def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    """Scaled tanh, ``scale_b * tanh(scale_a * x)`` (integers in float32; complex accepted).

    Also ``x.stanh()``.

    >>> import pylayer
    >>> pylayer.stanh(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([0.      , 1.003767], dtype=float32)
    """
    scale_a = check_number(scale_a, "stanh", "scale_a")
    scale_b = check_number(scale_b, "stanh", "scale_b")
    x = float_tensor(x, "stanh", "x", 1, True, True)
    return multiply(tanh(multiply(x, scale_a)), scale_b)


def _sinc_grad(g, x, out):
    """``(cos(pi x) - sinc(x)) / x``, 0 at ``x = 0``."""
    zero = equal(x, 0)
    safe = _where(zero, 1.0, x)
    slope = divide(subtract(cos(multiply(x, math.pi)), out), safe)
    return multiply(g, conjugate(_where(zero, 0.0, slope)))


SINC = Op("sinc", keeps=("x", "out"), vjp=(lambda g, x, out: _sinc_grad(g, x, out),))


@op(method=True, inplace=True)
def sinc(x, name=None):
    """Elementwise normalised sinc, ``sin(pi x) / (pi x)``, and 1 at 0.

    Floating-point and complex tensors only, as in Paddle. The gradient is
    ``(cos(pi x) - sinc(x)) / x``, and 0 at 0. Saves its input and output.
    Also ``x.sinc()``, ``x.sinc_()`` and ``pylayer.sinc_``.

    >>> import pylayer
    >>> pylayer.sinc(pylayer.to_tensor([0.0, 0.5, 1.0])).numpy()
    array([1.0000000e+00, 6.3661975e-01, 3.8981717e-17], dtype=float32)
    """
    x = float_tensor(x, "sinc", "x", 1, False, True)
    return make_output(SINC, _in_double(np.sinc, x._array), (x,))


@op
def positive(x, name=None):
    """``+x``: returns ``x`` itself, as Paddle does (bool tensors are refused).

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, -2.0])
    >>> pylayer.positive(x) is x
    True
    """
    return numeric_tensor(x, "positive", complex_too=True)


@op(method=True)
def negative(x, name=None):
    """Elementwise ``-x`` (bool tensors are refused); the gradient is -1.

    Also ``x.negative()``. The same as :func:`neg`, which also has an in-place
    form.

    >>> import pylayer
    >>> pylayer.negative(pylayer.to_tensor([1.0, -2.0])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return neg(numeric_tensor(x, "negative", complex_too=True))


@op(method=True)
def true_divide(input, other):
    """Elementwise true division ``input / other``: integers give float32, as in Paddle.

    The same as :func:`divide`, with PyTorch's parameter names. Also
    ``x.true_divide(other)``.

    >>> import pylayer
    >>> pylayer.true_divide(pylayer.to_tensor([1, 3]), pylayer.to_tensor([2, 2])).numpy()
    array([0.5, 1.5], dtype=float32)
    """
    input = as_tensor_arg(input, "true_divide", "input", 1)
    if not is_number(other):
        other = as_tensor_arg(other, "true_divide", "other", 2)
    refuse_bool = [a for a, v in (("input", input), ("other", other))
                   if isinstance(v, Tensor) and is_bool(v._array.dtype)]
    if refuse_bool:
        raise TypeError(f"true_divide(): argument '{refuse_bool[0]}' must be a numeric "
                        f"Tensor, got dtype bool")
    xa, ya = operands(input, other, "true_divide")
    try:
        np.broadcast_shapes(np.shape(xa), np.shape(ya))
    except ValueError:
        raise broadcast_error("true_divide", xa, ya) from None
    return divide(input, other)


# ------------------------------------------------------------- predicates
def _real_only(x, fn):
    x = numeric_tensor(x, fn)
    return x._array


@op(method=True)
def isneginf(x, name=None):
    """Elementwise test for ``-inf``; a bool tensor (False for integers).

    Bool and complex tensors are refused, as in Paddle. Also ``x.isneginf()``.

    >>> import pylayer
    >>> pylayer.isneginf(pylayer.to_tensor([float('-inf'), float('inf'), 1.0])).numpy()
    array([ True, False, False])
    """
    a = _real_only(x, "isneginf")
    return make_tensor(np.asarray(np.isneginf(a)) if is_floating(a.dtype)
                       else np.zeros(a.shape, bool))


@op(method=True)
def isposinf(x, name=None):
    """Elementwise test for ``+inf``; a bool tensor (False for integers).

    Bool and complex tensors are refused, as in Paddle. Also ``x.isposinf()``.

    >>> import pylayer
    >>> pylayer.isposinf(pylayer.to_tensor([float('-inf'), float('inf'), 1.0])).numpy()
    array([False,  True, False])
    """
    a = _real_only(x, "isposinf")
    return make_tensor(np.asarray(np.isposinf(a)) if is_floating(a.dtype)
                       else np.zeros(a.shape, bool))


@op(method=True)
def isreal(x, name=None):
    """Elementwise test for a zero imaginary part; a bool tensor (all True for real tensors).

    Also ``x.isreal()``.

    >>> import pylayer
    >>> pylayer.isreal(pylayer.to_tensor([1 + 0j, 1 + 1j])).numpy()
    array([ True, False])
    """
    a = as_tensor_arg(x, "isreal", "x", 1)._array
    return make_tensor(np.asarray(a.imag == 0) if is_complex(a.dtype)
                       else np.ones(a.shape, bool))


def _tensor_only(x, fn):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a Tensor, got "
                        f"{type(x).__name__}")
    return x._array.dtype


@declare(method=True)
def is_floating_point(x):
    """Whether ``x``'s dtype is a floating-point one (float16, bfloat16, float32, float64).

    A Python bool. Also ``x.is_floating_point()``.

    >>> import pylayer
    >>> pylayer.is_floating_point(pylayer.to_tensor([1.0])), pylayer.is_floating_point(pylayer.to_tensor([1]))
    (True, False)
    """
    return bool(is_floating(_tensor_only(x, "is_floating_point")))


@declare(method=True)
def is_integer(x):
    """Whether ``x``'s dtype is an integer one (bool is not). A Python bool.

    Also ``x.is_integer()``.

    >>> import pylayer
    >>> pylayer.is_integer(pylayer.to_tensor([1])), pylayer.is_integer(pylayer.to_tensor([True]))
    (True, False)
    """
    return bool(integer_dtype(_tensor_only(x, "is_integer")))


@op(method=True)
def is_empty(x, name=None):
    """Whether ``x`` has no elements, as a 0-D bool tensor. Also ``x.is_empty()``.

    >>> import pylayer
    >>> pylayer.is_empty(pylayer.zeros([0, 3])).numpy(), pylayer.is_empty(pylayer.zeros([2])).numpy()
    (array(True), array(False))
    """
    x = as_tensor_arg(x, "is_empty", "x", 1)
    return make_tensor(np.asarray(x._array.size == 0))


@op(method=True)
def increment(x, value=1.0, name=None):
    """Add ``value`` to the one-element tensor ``x`` in place, and return ``x``.

    ``x`` keeps its dtype (an integer tensor truncates ``1 + 2.5`` to 3, as in
    Paddle); a tensor of more than one element is a ``ValueError``. Also
    ``x.increment()``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0])
    >>> pylayer.increment(x, 2.0) is x, x.numpy()
    (True, array([3.], dtype=float32))
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"increment(): argument 'x' (position 1) must be a Tensor, got "
                        f"{type(x).__name__}")
    value = check_number(value, "increment", "value")
    if x._array.size != 1:
        raise ValueError(f"increment(): argument 'x' (position 1) must have exactly one "
                         f"element, got shape {list(x.shape)}")
    numeric_tensor(x, "increment")
    return inplace(x, _add_in_dtype_of_x, value)


def _add_in_dtype_of_x(x, value):
    return cast(add(x, value), x.dtype)


# ----------------------------------------- Paddle's function-level in-place twins
acos_ = inplace_twin(acos)
atan_ = inplace_twin(atan)
sinh_ = inplace_twin(sinh)
expm1_ = inplace_twin(expm1)
log2_ = inplace_twin(log2)
log10_ = inplace_twin(log10)
logit_ = inplace_twin(logit)
frac_ = inplace_twin(frac)
trunc_ = inplace_twin(trunc)
copysign_ = inplace_twin(copysign)
hypot_ = inplace_twin(hypot)
ldexp_ = inplace_twin(ldexp)
gcd_ = inplace_twin(gcd)
lcm_ = inplace_twin(lcm)
nan_to_num_ = inplace_twin(nan_to_num)
sinc_ = inplace_twin(sinc)
bitwise_left_shift_ = inplace_twin(bitwise_left_shift)
bitwise_right_shift_ = inplace_twin(bitwise_right_shift)
