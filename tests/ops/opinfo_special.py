"""Op-database entries of the special functions (``pylayer.ops.special``).

The references are SciPy's (tests only). Domains keep away from the poles of the gamma
family and the kink of ``i0e``/``i1e`` at 0, so that central differences are smooth;
the edge values, negative arguments and Paddle's rules are in ``test_special.py``.
"""
import numpy as np
import scipy.special as sp

from opinfo import FLOATS, UNARY_SHAPES, OpInfo, T, samples
from _hostile_values import A, Call, _value, binary_call, f23, unary_call


def _same_dtype(fn):
    return lambda x, *args, **kwargs: np.asarray(fn(x, *args, **kwargs)).astype(x.dtype)


def _multigammaln(x, p):
    return (sum(sp.gammaln(x - j / 2.0) for j in range(p))
            + p * (p - 1) / 4.0 * np.log(np.pi)).astype(x.dtype)


# gammainc: x (the shape) takes no gradient in Paddle, so it is a fixed array here.
_SHAPES = np.array([[0.5, 1.0, 2.5], [3.0, 0.8, 1.7]])
_INCOMPLETE = samples((_SHAPES, T((2, 3))), (_SHAPES, T((3,))), (_SHAPES[0], T((2, 1))),
                      (np.array(1.5), T((2, 2))), (_SHAPES[:1, :1], T((0, 3))))


def _unary(name, ref, domain, kind="real_math_tensor", **flags):
    return OpInfo(name, _same_dtype(ref), UNARY_SHAPES, dtypes=FLOATS, domain=domain,
                  elementwise=True, call=unary_call(kind), **flags)


ENTRIES = [
    _unary("lgamma", sp.gammaln, (0.2, 4.0)),
    _unary("gammaln", sp.gammaln, (0.2, 4.0), kind="float_tensor"),
    _unary("digamma", sp.psi, (0.3, 4.0)),
    OpInfo("polygamma", _same_dtype(lambda x, n: sp.polygamma(n, x)),
           samples((T((2, 3)), 1), (T((5,)), 2), (T(()), 0), (T((0, 3)), 3),
                   ((T((2, 3)),), {"n": 4})),
           domain=(0.5, 4.0), tolerance={"float64": (1e-12, 1e-12)},
           call=Call(A("x", f23, "real_math_tensor"), A("n", _value(1), "int"))),
    _unary("erfinv", sp.erfinv, (-0.9, 0.9)),
    _unary("i0", sp.i0, (-3.0, 3.0)),
    _unary("i0e", sp.i0e, (0.2, 3.0)),
    _unary("i1", sp.i1, (-3.0, 3.0)),
    _unary("i1e", sp.i1e, (0.2, 3.0)),
    OpInfo("gammainc", _same_dtype(sp.gammainc), _INCOMPLETE, domain=(0.2, 4.0),
           tolerance={"float64": (1e-12, 1e-13)}, call=binary_call("float_tensor")),
    OpInfo("gammaincc", _same_dtype(sp.gammaincc), _INCOMPLETE, domain=(0.2, 4.0),
           tolerance={"float64": (1e-12, 1e-13)}, call=binary_call("float_tensor")),
    OpInfo("multigammaln", _multigammaln,
           samples((T((2, 3)), 2), (T((4,)), 3), (T(()), 1), ((T((2, 2)),), {"p": 4})),
           domain=(2.0, 5.0),
           call=Call(A("x", f23, "float_tensor"), A("p", _value(2), "int"))),
]
