"""Op-database entries of the activations of ``pylayer.ops.nonlinear`` (``nn.functional``).

Samples come from (-2, 2) (or the op's own domain); the kinks (0 for relu6 and the
shrinks, the thresholds) are kept out of the fuzz chains through ``smooth``. Paddle's
values at the kinks and its argument rules are in ``test_activations_more.py``.
"""
import numpy as np

import pylayer

from opinfo import FLOATS, UNARY_SHAPES, OpInfo, T, away_from_zero, samples
from _hostile_values import A, Call, K, _value, f23, unary_call
from pylayer.nn import functional as F


def _same_dtype(fn):
    return lambda x, *args, **kwargs: np.asarray(fn(x, *args, **kwargs)).astype(x.dtype)


def _softplus(x, beta=1, threshold=20):
    return np.where(x * beta > threshold, x, np.log1p(np.exp(x * beta)) / beta)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(x))


def _number(name, value):
    return K(name, _value(value), "number")


def _unary(name, ref, sample_set=UNARY_SHAPES, call=None, **flags):
    return OpInfo(name, _same_dtype(ref), sample_set, dtypes=FLOATS, elementwise=True,
                  op=getattr(F, name), call=call or unary_call("float_tensor"), **flags)


def _with(extra):
    """UNARY_SHAPES plus a (2, 3) sample with the keyword arguments ``extra``."""
    return UNARY_SHAPES + samples(((T((2, 3)),), extra))


def _kink(*points):
    return lambda v: min(np.abs(v - p).min() for p in points) > 1e-3


ENTRIES = [
    _unary("relu6", lambda x: np.minimum(np.maximum(x, 0), 6), domain=(-2.0, 8.0),
           smooth=_kink(0, 6)),
    _unary("elu", _elu, _with({"alpha": 0.5}), smooth=away_from_zero(),
           call=Call(A("x", f23, "float_tensor"), _number("alpha", 1.0))),
    _unary("selu", lambda x, scale=1.0507009873554805, alpha=1.6732632423543772:
           scale * _elu(x, alpha), _with({"scale": 1.5, "alpha": 0.5}), smooth=away_from_zero(),
           call=Call(A("x", f23, "float_tensor"), _number("scale", 1.5),
                     _number("alpha", 1.0))),
    _unary("celu", lambda x, alpha=1.0: np.where(x > 0, x, alpha * np.expm1(x / alpha)),
           _with({"alpha": 2.0}), smooth=away_from_zero(),
           call=Call(A("x", f23, "float_tensor"), _number("alpha", 1.0))),
    _unary("silu", lambda x: x * _sigmoid(x)),
    _unary("swish", lambda x: x * _sigmoid(x)),
    _unary("mish", lambda x: x * np.tanh(_softplus(x)), domain=(-3.0, 3.0)),
    _unary("hardswish", lambda x: x * np.clip(x + 3, 0, 6) / 6, domain=(-5.0, 5.0),
           smooth=_kink(-3, 3)),
    _unary("hardsigmoid", lambda x, slope=0.1666667, offset=0.5: np.clip(x * slope + offset, 0, 1),
           _with({"slope": 0.2, "offset": 0.3}), domain=(-5.0, 5.0),
           smooth=_kink(-0.5 / 0.1666667, 0.5 / 0.1666667),
           call=Call(A("x", f23, "float_tensor"), _number("slope", 0.2),
                     _number("offset", 0.5))),
    _unary("softplus", _softplus, _with({"beta": 2.0, "threshold": 1.0}), domain=(-3.0, 3.0),
           smooth=_kink(0.5),
           call=Call(A("x", f23, "float_tensor"), _number("beta", 1.0),
                     _number("threshold", 20.0))),
    _unary("softsign", lambda x: x / (1 + np.abs(x)), smooth=away_from_zero()),
    _unary("softshrink", lambda x, threshold=0.5: np.where(
        x > threshold, x - threshold, np.where(x < -threshold, x + threshold, 0)),
           _with({"threshold": 1.0}), smooth=_kink(-0.5, 0.5, -1.0, 1.0),
           call=Call(A("x", f23, "float_tensor"), _number("threshold", 0.5))),
    _unary("hardshrink", lambda x, threshold=0.5: np.where(np.abs(x) >= threshold, x, 0),
           _with({"threshold": 1.0}), smooth=_kink(-0.5, 0.5, -1.0, 1.0),
           call=Call(A("x", f23, "float_tensor"), _number("threshold", 0.5))),
    _unary("tanhshrink", lambda x: x - np.tanh(x)),
    _unary("thresholded_relu", lambda x, threshold=1.0, value=0.0: np.where(x > threshold, x,
                                                                          value),
           _with({"threshold": 0.5, "value": 0.25}), smooth=_kink(0.5, 1.0),
           call=Call(A("x", f23, "float_tensor"), _number("threshold", 1.0),
                     _number("value", 0.0))),
    _unary("log_sigmoid", lambda x: -np.log1p(np.exp(-x)), domain=(-5.0, 5.0)),
    OpInfo("glu", _same_dtype(lambda x, axis=-1: np.split(x, 2, axis)[0]
                              * _sigmoid(np.split(x, 2, axis)[1])),
           samples((T((2, 4)),), ((T((4, 3)),), {"axis": 0}), ((T((2, 6, 2)),), {"axis": 1}),
                   (T((0, 2)),)),
           op=F.glu, call=Call(A("x", f23, "float_tensor"),
                               K("axis", _value(0), "int_axis"))),
]

ENTRIES += [
    OpInfo("prelu", _same_dtype(lambda x, w, data_format="NCHW": np.where(
        x > 0, x, x * (w.reshape(w.shape if w.size == 1 else
                                 (-1,) + (1,) * (x.ndim - 2) if data_format[1] == "C"
                                 else (-1,))))),
           samples((T((2, 3, 4)), T((1,), 0.1, 0.5)), (T((2, 3, 2, 2)), T((3,), 0.1, 0.5)),
                   ((T((2, 4, 3)), T((3,), 0.1, 0.5)), {"data_format": "NLC"}),
                   (T((5,)), T((), 0.1, 0.5))),
           op=F.prelu, smooth=away_from_zero(),
           call=Call(A("x", f23, "float_tensor"), A("weight", _value(np.array([0.25], np.float32)),
                                                       "float_tensor"))),
]


def _maxout(x, groups, axis=1):
    axis %= 4
    shape = list(x.shape)
    shape[axis:axis + 1] = [x.shape[axis] // groups, groups]
    return x.reshape(shape).max(axis=axis + 1)


def _swiglu(x, y=None):
    if y is None:
        x, y = np.split(x, 2, axis=-1)
    return x * _sigmoid(x) * y


def _seeded(fn):
    """``fn`` after ``pylayer.seed(0)``: the same noise on every call, so that central
    differences see a smooth function."""
    def call(*args, **kwargs):
        pylayer.seed(0)
        return fn(*args, **kwargs)
    return call


def _gumbel_softmax(x, temperature=1.0, axis=-1):
    noise = -np.log(-np.log(np.random.default_rng(0).uniform(np.finfo(np.float64).tiny, 1.0,
                                                            x.shape)))
    z = (x + noise.astype(x.dtype)) / temperature
    z = np.exp(z - z.max(axis=axis, keepdims=True))
    return z / z.sum(axis=axis, keepdims=True)


# maxout draws values apart, so that no group has a tie (central differences at a tie
# see a kink).
_DISTINCT = np.random.default_rng(1).permutation(48).reshape(2, 4, 3, 2) / 10.0

ENTRIES += [
    OpInfo("maxout", _same_dtype(_maxout),
           samples((T((2, 4, 3, 2)), 2), ((T((2, 3, 2, 6)), 3), {"axis": -1}),
                   ((T((1, 4, 1, 1)), 4), {"axis": 1})),
           op=F.maxout, smooth=lambda v: len(np.unique(v)) == v.size,
           call=Call(A("x", _value(_DISTINCT.astype(np.float32)), "float_tensor"),
                     K("groups", _value(2), "int"), K("axis", _value(1), "int"))),
    OpInfo("swiglu", _same_dtype(_swiglu),
           samples((T((2, 4)),), (T((3, 2, 6)),), (T((2, 3)), T((2, 3)))),
           op=F.swiglu, call=Call(A("x", _value(np.ones((2, 4), np.float32)), "float_tensor"))),
    OpInfo("rrelu", _same_dtype(lambda x, lower=0.125, upper=1 / 3, training=True: np.where(
        x >= 0, x, x * (lower + upper) / 2)),
           samples(((T((2, 3)),), {"training": False}),
                   ((T((4,)),), {"lower": 0.2, "upper": 0.5, "training": False})),
           op=F.rrelu, smooth=away_from_zero(),
           call=Call(A("x", f23, "float_tensor"), _number("lower", 0.1),
                     _number("upper", 0.3))),
    OpInfo("gumbel_softmax", _same_dtype(_gumbel_softmax),
           samples((T((2, 3)),), ((T((3, 4)),), {"temperature": 0.5, "axis": 0})),
           op=_seeded(F.gumbel_softmax), static=False,
           tolerance={"float32": (1e-5, 1e-6)},
           call=Call(A("x", f23, "float_tensor"), _number("temperature", 1.0),
                     K("axis", _value(0), "int_axis"))),
]
