"""The op database's entries for ``pylayer/ops/elementwise.py`` and the PyTorch-style
aliases of issue 33 (``eq``, ``gt``, ... are functions of their own; ``clamp``, ``div``,
``mod``, ... are the same objects as the ops they alias, which have entries already)."""
import numpy as np

import pylayer

from opinfo import (BOOL, BROADCAST, COMPLEX, FLOATS, INTS, NUMBERS, POSITIVE, UNARY_SHAPES,
                    ABOVE_DOMAIN, INSIDE_DOMAIN, OpInfo, Sample, T, _binary, _comparison,
                    _divisor_samples, _unary, away_from_integers, away_from_zero, bounded,
                    samples)
from _hostile_values import MISMATCH, A, K, Call, _value, binary_call, f23, i23, unary_call


def _kept(np_fn):
    """``np_fn`` with its result in the dtype of its first argument."""
    return lambda x, *rest, **kwargs: np.asarray(np_fn(x, *rest, **kwargs)).astype(x.dtype)


def _result_dtype(x, y):
    return np.result_type(x, y) if isinstance(y, np.ndarray) else x.dtype


def _copysign(x, y):
    if x.dtype.kind == "f":
        return np.copysign(x, y)
    return np.where(np.signbit(y), -np.abs(x), np.abs(x)).astype(_result_dtype(x, y))


def _heaviside(x, y):
    return np.where(x == 0, y, x > 0).astype(_result_dtype(x, y))


def _sgn(x):
    if x.dtype.kind != "c":
        return np.sign(x)
    modulus = np.abs(x)
    return np.where(modulus == 0, 0, x / np.where(modulus == 0, 1, modulus)).astype(x.dtype)


def _logical_right_shift(x, y):
    unsigned = np.dtype(f"u{x.dtype.itemsize}")
    return np.right_shift(x.view(unsigned), y.astype(unsigned)).view(x.dtype)


def _frexp(x):
    mantissa, exponent = np.frexp(x)
    return [mantissa, exponent.astype(x.dtype)]


def _ldexp(x, y):
    return (x.astype(np.float64) * np.exp2(y)).astype(x.dtype)


def _increment_a_copy(x, value=1.0):
    return pylayer.increment(x.clone(), value)


def _as_tensor(fn):
    return lambda x: pylayer.to_tensor(fn(x))


_SHIFTS = samples((T((2, 3)), T((2, 3), 0, 6)), (T((2, 3)), T((3,), 0, 6)),
                  (T((2, 1)), T((1, 3), 0, 6)), (T((2, 3)), 2))
_SHIFT_CALL = Call(A("x", i23, "int_tensor"), A("y", i23, "int_tensor"))
_INTEGERS = (-20.0, 20.0)
_MATH = unary_call("math_tensor")
_REAL_MATH = binary_call("real_math_tensor")
_NO_INTEGERS = samples((T((2, 3)), T((2, 3))), (T((2, 3)), T((3,))), (T((2, 1)), T((1, 3))),
                       (T(()), T((2, 2))), (T((0, 3)), T((3,))), (T((2, 3)), 2.5))

ENTRIES = [
    # ------------------------------------------- inverse trigonometric and hyperbolic
    _unary("acos", np.arccos, domain=(-0.9, 0.9), dtypes=FLOATS + COMPLEX, call=_MATH,
           smooth=INSIDE_DOMAIN),
    _unary("asin", np.arcsin, domain=(-0.9, 0.9), dtypes=FLOATS + COMPLEX, call=_MATH,
           smooth=INSIDE_DOMAIN),
    _unary("atan", np.arctan, domain=(-0.8, 0.8), dtypes=FLOATS + COMPLEX, call=_MATH),
    _binary("atan2", np.arctan2, dtypes=FLOATS, sample_set=_NO_INTEGERS,
            domain=(0.5, 2.0), call=_REAL_MATH),
    _unary("acosh", np.arccosh, domain=(1.2, 3.0), dtypes=FLOATS + COMPLEX, call=_MATH,
           smooth=ABOVE_DOMAIN),
    _unary("asinh", np.arcsinh, dtypes=FLOATS + COMPLEX, call=_MATH),
    _unary("atanh", np.arctanh, domain=(-0.8, 0.8), dtypes=FLOATS + COMPLEX, call=_MATH,
           smooth=INSIDE_DOMAIN),
    _unary("cosh", np.cosh, dtypes=FLOATS + COMPLEX, call=_MATH, smooth=bounded(4)),
    _unary("sinh", np.sinh, dtypes=FLOATS + COMPLEX, call=_MATH, smooth=bounded(4)),
    # ------------------------------------------------------- exponents and logarithms
    _unary("expm1", np.expm1, dtypes=FLOATS + COMPLEX, call=_MATH, smooth=bounded(4)),
    _unary("log2", np.log2, domain=POSITIVE, dtypes=FLOATS + COMPLEX, call=_MATH,
           smooth=ABOVE_DOMAIN),
    _unary("log10", np.log10, domain=POSITIVE, dtypes=FLOATS + COMPLEX, call=_MATH,
           smooth=ABOVE_DOMAIN),
    _unary("logit", lambda x: np.log(x / (1 - x)), domain=(0.1, 0.9),
           call=Call(A("x", lambda env: pylayer.to_tensor([0.25, 0.5]), "real_math_tensor"),
                     K("eps", _value(0.1), "number_or_none")),
           smooth=INSIDE_DOMAIN),
    OpInfo("logit", lambda x, eps: np.log(np.clip(x, eps, 1 - eps) / np.clip(1 - x, eps, 1 - eps)),
           samples(((T((2, 3)),), {"eps": 0.2})), domain=(0.05, 0.95), variant="eps"),
    _binary("logaddexp", np.logaddexp, dtypes=FLOATS, sample_set=_NO_INTEGERS,
            call=_REAL_MATH),
    _binary("ldexp", _ldexp, dtypes=FLOATS,
            sample_set=samples((T((2, 3)), T((2, 3))), (T((2, 1)), T((3,))),
                               (T((2, 3)), np.array([[1, -2, 3], [0, 2, -1]])),
                               (T((2, 3)), np.array([2, -1, 0])), (T((2, 3)), 3),
                               (T((0, 3)), np.array([1, 2, 3]))),
            call=Call(A("x", f23, "real_math_tensor"), A("y", i23, "tensor"),
                      extra=(MISMATCH,))),
    OpInfo("frexp", _frexp, UNARY_SHAPES, domain=(0.3, 3.0),
           call=Call(A("x", f23, "float_tensor")), smooth=bounded(0.45)),
    # ---------------------------------------------------------------- rounding
    _unary("trunc", _kept(np.trunc), dtypes=NUMBERS, domain=(-3.0, 3.0),
           call=Call(A("input", f23, "real_tensor"), aliases={"input": ("x",)}),
           smooth=away_from_integers()),
    _unary("frac", lambda x: (x - np.trunc(x)).astype(x.dtype), dtypes=NUMBERS,
           domain=(-3.0, 3.0), call=unary_call("real_tensor"), smooth=away_from_integers()),
    # ------------------------------------------------------ sign and float bits
    _binary("copysign", _copysign, dtypes=NUMBERS, call=binary_call("real_tensor"),
            smooth=away_from_zero()),
    _unary("signbit", np.signbit, dtypes=NUMBERS, differentiable=False,
           call=unary_call("real_tensor")),
    _unary("sgn", _sgn, dtypes=FLOATS + COMPLEX, call=Call(A("x", f23, "inexact_tensor")),
           smooth=away_from_zero()),
    _unary("deg2rad", lambda x: x * (np.pi / 180), dtypes=FLOATS + COMPLEX, call=_MATH),
    _unary("rad2deg", lambda x: x * (180 / np.pi), dtypes=FLOATS + COMPLEX, call=_MATH),
    _unary("nan_to_num", np.nan_to_num,
           call=Call(A("x", f23, "float_tensor"), K("nan", _value(1.0), "number"),
                     K("posinf", _value(2.0), "number_or_none"),
                     K("neginf", _value(-2.0), "number_or_none"))),
    OpInfo("nan_to_num", lambda x, nan, posinf, neginf: np.nan_to_num(
        x, nan=nan, posinf=posinf, neginf=neginf),
           samples(((T((2, 3)),), {"nan": 1.5, "posinf": 9.0, "neginf": -9.0})),
           variant="replacements"),
    OpInfo("nan_to_num", lambda x, nan, posinf, neginf: np.nan_to_num(
        x, nan=nan, posinf=posinf, neginf=neginf),
           samples(((np.array([1.0, np.nan, np.inf, -np.inf, 0.0, -2.5]),),
                    {"nan": 1.5, "posinf": 9.0, "neginf": -9.0})), differentiable=False,
           variant="specials"),
    _unary("sinc", np.sinc, dtypes=FLOATS + COMPLEX, call=Call(A("x", f23, "inexact_tensor"))),
    _unary("stanh", lambda x: (1.7159 * np.tanh(0.67 * x)).astype(x.dtype),
           dtypes=FLOATS + COMPLEX,
           call=Call(A("x", f23, "math_tensor"), K("scale_a", _value(0.5), "number"),
                     K("scale_b", _value(2.0), "number"))),
    OpInfo("stanh", lambda x, scale_a, scale_b: (scale_b * np.tanh(scale_a * x)).astype(x.dtype),
           samples(((T((2, 3)),), {"scale_a": 1.5, "scale_b": -0.5})), variant="scales"),
    # ------------------------------------------------------- binary float and integer math
    _binary("hypot", np.hypot, dtypes=FLOATS, sample_set=_NO_INTEGERS, domain=(0.5, 2.0),
            call=_REAL_MATH),
    _binary("nextafter", np.nextafter, dtypes=FLOATS, differentiable=False,
            sample_set=_NO_INTEGERS, call=binary_call("float_tensor")),
    _binary("fmax", np.fmax, call=binary_call("real_tensor")),
    _binary("fmin", np.fmin, call=binary_call("real_tensor")),
    _binary("heaviside", _heaviside, call=binary_call("real_tensor"),
            smooth=away_from_zero()),
    OpInfo("gcd", np.gcd, BROADCAST, dtypes=INTS, domain=_INTEGERS, differentiable=False,
           elementwise=True, call=Call(A("x", i23, "real_tensor"), A("y", i23, "real_tensor"),
                                       extra=(MISMATCH,))),
    OpInfo("lcm", np.lcm, BROADCAST, dtypes=INTS, domain=_INTEGERS, differentiable=False,
           elementwise=True, call=Call(A("x", i23, "real_tensor"), A("y", i23, "real_tensor"),
                                       extra=(MISMATCH,))),
    OpInfo("bitwise_left_shift", np.left_shift, _SHIFTS, dtypes=INTS, domain=_INTEGERS,
           differentiable=False, call=_SHIFT_CALL),
    OpInfo("bitwise_right_shift", np.right_shift, _SHIFTS, dtypes=INTS, domain=_INTEGERS,
           differentiable=False, call=_SHIFT_CALL),
    OpInfo("bitwise_right_shift", lambda x, y, is_arithmetic: _logical_right_shift(x, y),
           tuple(Sample(s.args, {"is_arithmetic": False}) for s in _SHIFTS[:3]), dtypes=INTS,
           domain=_INTEGERS, differentiable=False, variant="logical"),
    OpInfo("lerp", lambda x, y, weight: x + weight * (y - x),
           samples((T((2, 3)), T((2, 3)), 0.25), (T((2, 3)), T((3,)), T((2, 3))),
                   (T((2, 1)), T((3,)), T(())), (T(()), T(()), 0.75)),
           call=Call(A("x", f23, "float_tensor"), A("y", f23, "float_tensor"),
                     A("weight", _value(0.5), "number"),
                     extra=[("shapes that do not broadcast",
                             {"y": lambda env: pylayer.ones([4])}, ("x", "y"))])),
    _binary("true_divide", np.true_divide, dtypes=FLOATS + COMPLEX,
            sample_set=_divisor_samples(),
            call=Call(A("input", f23, "tensor"), A("other", f23, "tensor"),
                      extra=[("shapes that do not broadcast",
                              {"other": lambda env: pylayer.ones([4])}, ("input", "other"))],
                      aliases={"input": ("x",), "other": ("y",)}), smooth=bounded(30)),
    # ------------------------------------------------------------ identity-like ops
    _unary("positive", lambda x: x, dtypes=NUMBERS + COMPLEX, differentiable=False,
           call=unary_call()),
    _unary("negative", np.negative, dtypes=NUMBERS + COMPLEX, call=unary_call()),
    OpInfo("increment", lambda x, value=1.0: (x + value).astype(x.dtype),
           samples((T((1,)),), ((T(()),), {"value": 2.5}), ((T((1, 1)),), {"value": -1.0})),
           dtypes=NUMBERS, op=_increment_a_copy, static=False,
           call=Call(A("x", lambda env: pylayer.ones([1]), "tensor_only"),
                     K("value", _value(2.0), "number"),
                     extra=[("a tensor of two elements",
                             {"x": lambda env: pylayer.ones([2])}, "x")])),
    # ------------------- Paddle 3's keywords of divide and subtract (and of div and sub)
    OpInfo("divide", np.floor_divide,
           _divisor_samples()[:3], dtypes=NUMBERS, differentiable=False, elementwise=True,
           op=lambda x, y: pylayer.divide(x, y, rounding_mode="floor"), variant="floor"),
    OpInfo("divide", lambda x, y: np.trunc(x / y).astype(np.result_type(x, y)),
           _divisor_samples()[:3], dtypes=NUMBERS, differentiable=False, elementwise=True,
           op=lambda x, y: pylayer.divide(x, y, rounding_mode="trunc"), variant="trunc"),
    OpInfo("subtract", lambda x, y: x - 2.5 * y, BROADCAST[:5], elementwise=True,
           op=lambda x, y: pylayer.subtract(x, y, alpha=2.5), variant="alpha"),
    # --------------------------------------------------------------- predicates
    _unary("isneginf", lambda x: np.isneginf(x.astype(np.float64)), dtypes=NUMBERS,
           differentiable=False, call=unary_call("real_tensor")),
    _unary("isposinf", lambda x: np.isposinf(x.astype(np.float64)), dtypes=NUMBERS,
           differentiable=False, call=unary_call("real_tensor")),
    OpInfo("isneginf", np.isneginf, samples((np.array([1.0, np.nan, np.inf, -np.inf]),)),
           differentiable=False, variant="specials"),
    _unary("isreal", np.isreal, dtypes=NUMBERS + BOOL + COMPLEX, differentiable=False,
           call=unary_call()),
    OpInfo("is_empty", lambda x: np.asarray(x.size == 0), UNARY_SHAPES,
           dtypes=NUMBERS + BOOL + COMPLEX, differentiable=False, call=unary_call()),
    OpInfo("is_floating_point", lambda x: np.asarray(x.dtype.kind == "f"), UNARY_SHAPES,
           dtypes=NUMBERS + BOOL + COMPLEX, differentiable=False, static=False,
           op=_as_tensor(pylayer.is_floating_point),
           call=Call(A("x", f23, "tensor_only"))),
    OpInfo("is_integer", lambda x: np.asarray(x.dtype.kind in "iu"), UNARY_SHAPES,
           dtypes=NUMBERS + BOOL + COMPLEX, differentiable=False, static=False,
           op=_as_tensor(pylayer.is_integer), call=Call(A("x", f23, "tensor_only"))),
    # -------------------------------------- PyTorch-style comparison names (no eq_ ...)
    _comparison("eq", np.equal, call=binary_call()),
    _comparison("ne", np.not_equal, call=binary_call()),
    _comparison("lt", np.less, call=binary_call("real_tensor")),
    _comparison("le", np.less_equal, call=binary_call("real_tensor")),
    _comparison("gt", np.greater, call=binary_call("real_tensor")),
    _comparison("ge", np.greater_equal, call=binary_call("real_tensor")),
]
