"""Special functions: log-gamma, digamma and polygamma, the inverse error function, modified Bessel functions and the regularized incomplete gamma functions, computed with numpy alone.

Each is computed in float64 by the kernels of :mod:`pylayer.ops._special_kernels`
(series, asymptotic expansions, recurrences and reflection formulas, no table copied
from elsewhere) and given back in the input's dtype. ``lgamma digamma polygamma erfinv
i0 i0e i1 i1e`` compute an integer tensor in float32, as Paddle does; ``gammaln
multigammaln gammainc gammaincc`` refuse integers, as Paddle does. Bool and complex
tensors are refused. NaN propagates without warnings.

The gradient rules are written with pylayer ops, so every one can be differentiated
again (Paddle 3.3.1 has no second derivative for any of them).
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer.ops import _special_kernels as kernels
from pylayer.ops._arguments import broadcast_error, check_count, check_int
from pylayer.ops._operands import float_tensor, unbroadcast_to
from pylayer.ops.arithmetic import add, divide, multiply, subtract
from pylayer.ops.creation import to_tensor
from pylayer.ops.dispatch import op
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.math import exp, log, pow, sign, square, where
from pylayer.ops.reduction import sum as _sum
from pylayer.ops.shape import unsqueeze

__all__ = ["lgamma", "gammaln", "digamma", "polygamma", "erfinv", "i0", "i0e", "i1", "i1e",
           "gammainc", "gammaincc", "multigammaln",
           "lgamma_", "gammaln_", "digamma_", "polygamma_", "i0_", "gammainc_", "gammaincc_",
           "multigammaln_"]


def _unary(record, fn, kernel, x, integers=True, attrs=()):
    """``kernel`` of ``x``'s array in float64, back in ``x``'s dtype, recorded."""
    x = float_tensor(x, fn, "x", 1, integers)
    a = x._array
    with np.errstate(all="ignore"):
        out = kernel(np.asarray(a, dtype=np.float64)).astype(a.dtype)
    return make_output(record, out, (x,), attrs)


def _nonzero(x):
    return where(x == 0, 1.0, x)


# ------------------------------------------------------------ log-gamma
LGAMMA = Op("lgamma", keeps=("x",), vjp=(lambda g, x: multiply(g, digamma(x)),))
GAMMALN = Op("gammaln", keeps=("x",), vjp=(lambda g, x: multiply(g, digamma(x)),))


@op(method=True, inplace=True)
def lgamma(x, name=None):
    """``log|Gamma(x)|`` elementwise; integers are computed in float32.

    ``+inf`` at 0, at the negative integers and at ``-inf``. The gradient is
    ``digamma(x)``. Saves its input.

    >>> import pylayer
    >>> pylayer.lgamma(pylayer.to_tensor([0.5, 1.0, 4.0, -0.5], dtype='float64')).numpy()
    array([0.57236494, 0.        , 1.79175947, 1.26551212])
    """
    return _unary(LGAMMA, "lgamma", kernels.lgamma, x)


@op(method=True, inplace=True)
def gammaln(x, name=None):
    """``log|Gamma(x)|`` elementwise, as :func:`lgamma`, for float tensors only.

    >>> import pylayer
    >>> pylayer.gammaln(pylayer.to_tensor([3.0, 10.0])).numpy()
    array([ 0.6931472, 12.801827 ], dtype=float32)
    """
    return _unary(GAMMALN, "gammaln", kernels.lgamma, x, integers=False)


# ------------------------------------------------------ digamma, polygamma
DIGAMMA = Op("digamma", keeps=("x",), vjp=(lambda g, x: multiply(g, polygamma(x, 1)),))


@op(method=True, inplace=True)
def digamma(x, name=None):
    """The digamma function ``d/dx log Gamma(x)`` elementwise; integers in float32.

    NaN at the negative integers and at ``-inf``; ``-inf`` at ``0.0`` and
    ``+inf`` at ``-0.0``. The gradient is ``polygamma(x, 1)``. Saves its input.

    >>> import pylayer
    >>> pylayer.digamma(pylayer.to_tensor([1.0, 0.5, -0.5], dtype='float64')).numpy()
    array([-0.57721566, -1.96351003,  0.03648997])
    """
    return _unary(DIGAMMA, "digamma", kernels.digamma, x)


POLYGAMMA = Op("polygamma", keeps=("x",), attrs=("n",),
               vjp=(lambda g, x, n: multiply(g, polygamma(x, n + 1)),))


def _polygamma_kernel(n):
    return kernels.digamma if n == 0 else lambda a: kernels.polygamma(a, n)


@op(method=True, inplace=True)
def polygamma(x, n, name=None):
    """The ``n``-th derivative of :func:`digamma` elementwise (``n == 0`` is digamma
    itself); integers are computed in float32.

    ``n`` is an int, at least 0. At the poles (0 and the negative integers) and at
    ``-inf`` the result is ``+inf`` for odd ``n`` and ``-inf`` for even ``n``; at
    ``+inf`` it is 0. The gradient is ``polygamma(x, n + 1)``. Saves its input.

    >>> import pylayer
    >>> pylayer.polygamma(pylayer.to_tensor([1.0, 2.5], dtype='float64'), 1).numpy()
    array([1.64493407, 0.49035776])
    """
    n = check_int(n, "polygamma", "n", minimum=0)
    return _unary(POLYGAMMA, "polygamma", _polygamma_kernel(n), x, attrs=(n,))


# ------------------------------------------------------------------ erfinv
_HALF_SQRT_PI = math.sqrt(math.pi) / 2.0
ERFINV = Op("erfinv", keeps=("out",),
            vjp=(lambda g, out: multiply(g, multiply(exp(square(out)), _HALF_SQRT_PI)),))


@op(method=True, inplace=True)
def erfinv(x, name=None):
    """The inverse error function elementwise; integers are computed in float32.

    ``erfinv(erf(y)) == y``; ``+-inf`` at ``+-1`` and NaN outside ``[-1, 1]``. The
    gradient is ``sqrt(pi) / 2 * exp(erfinv(x) ** 2)``. Saves its output.

    >>> import pylayer
    >>> pylayer.erfinv(pylayer.to_tensor([0.0, 0.5, -0.9], dtype='float64')).numpy()
    array([ 0.        ,  0.47693628, -1.16308715])
    """
    return _unary(ERFINV, "erfinv", kernels.erfinv, x)


# ------------------------------------------------- modified Bessel I0, I1
I0 = Op("i0", keeps=("x",), vjp=(lambda g, x: multiply(g, i1(x)),))
I0E = Op("i0e", keeps=("x", "out"),
         vjp=(lambda g, x, out: multiply(g, subtract(i1e(x), multiply(sign(x), out))),))
I1 = Op("i1", keeps=("x", "out"),
        vjp=(lambda g, x, out: multiply(g, where(x == 0, 0.5, subtract(
            i0(x), divide(out, _nonzero(x))))),))
I1E = Op("i1e", keeps=("x", "out"),
         vjp=(lambda g, x, out: multiply(g, where(x == 0, 0.5, subtract(
             i0e(x), multiply(out, add(sign(x), divide(1.0, _nonzero(x))))))),))


@op(method=True, inplace=True)
def i0(x, name=None):
    """The modified Bessel function of the first kind of order 0, elementwise;
    integers are computed in float32.

    ``+inf`` at ``+-inf``. The gradient is :func:`i1`. Saves its input.

    >>> import pylayer
    >>> pylayer.i0(pylayer.to_tensor([0.0, 1.0, -2.0], dtype='float64')).numpy()
    array([1.        , 1.26606588, 2.2795853 ])
    """
    return _unary(I0, "i0", lambda a: kernels.bessel_i(a, 0, False), x)


@op(method=True)
def i0e(x, name=None):
    """The exponentially scaled ``i0(x) * exp(-|x|)`` elementwise, finite for large
    ``|x|``; integers are computed in float32.

    The gradient is ``i1e(x) - sign(x) * i0e(x)`` (its kink at 0 gives 0 there).
    Saves its input and output.

    >>> import pylayer
    >>> pylayer.i0e(pylayer.to_tensor([0.0, 1.0, 1000.0], dtype='float64')).numpy()
    array([1.        , 0.46575961, 0.01261724])
    """
    return _unary(I0E, "i0e", lambda a: kernels.bessel_i(a, 0, True), x)


@op(method=True)
def i1(x, name=None):
    """The modified Bessel function of the first kind of order 1, elementwise (an odd
    function); integers are computed in float32.

    The gradient is ``i0(x) - i1(x) / x`` (0.5 at 0). Saves its input and output.

    >>> import pylayer
    >>> pylayer.i1(pylayer.to_tensor([0.0, 1.0, -2.0], dtype='float64')).numpy()
    array([ 0.        ,  0.5651591 , -1.59063685])
    """
    return _unary(I1, "i1", lambda a: kernels.bessel_i(a, 1, False), x)


@op(method=True)
def i1e(x, name=None):
    """The exponentially scaled ``i1(x) * exp(-|x|)`` elementwise; integers are
    computed in float32.

    The gradient is ``i0e(x) - i1e(x) * (sign(x) + 1 / x)`` (0.5 at 0). Saves its
    input and output.

    >>> import pylayer
    >>> pylayer.i1e(pylayer.to_tensor([0.0, 1.0, -1000.0], dtype='float64')).numpy()
    array([ 0.        ,  0.20791042, -0.01261093])
    """
    return _unary(I1E, "i1e", lambda a: kernels.bessel_i(a, 1, True), x)


# --------------------------------------- regularized incomplete gamma functions
def _density(x, y):
    """d/dy P(x, y) = y^(x-1) exp(-y) / Gamma(x), as pylayer ops (y >= 0)."""
    positive = y > 0
    safe = where(positive, y, 1.0)
    inside = exp(subtract(multiply(subtract(x, 1.0), log(safe)), add(safe, lgamma(x))))
    at_zero = divide(pow(y, subtract(x, 1.0)), exp(lgamma(x)))
    return where(positive, inside, at_zero)


GAMMAINC = Op("gammainc", inputs=("x", "y"), keeps=("x", "y"),
              vjp=(None, lambda g, x, y: unbroadcast_to(multiply(g, _density(x, y)), y)))
GAMMAINCC = Op("gammaincc", inputs=("x", "y"), keeps=("x", "y"),
               vjp=(None, lambda g, x, y: unbroadcast_to(
                   multiply(g, multiply(_density(x, y), -1.0)), y)))


def _incomplete_gamma(record, fn, x, y, upper):
    x = float_tensor(x, fn, "x", 1)
    y = float_tensor(y, fn, "y", 2)
    xa, ya = x._array, y._array
    try:
        shape = np.broadcast_shapes(xa.shape, ya.shape)
    except ValueError:
        raise broadcast_error(fn, xa, ya) from None
    dtype = np.result_type(xa, ya)
    for arg, position, a in (("x", 1, xa), ("y", 2, ya)):
        if not np.all(np.asarray(a, dtype=np.float64) >= 0):
            raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must be greater "
                             f"than or equal to 0 everywhere, got a Tensor holding negative "
                             f"or NaN values")
    a = np.broadcast_to(np.asarray(xa, dtype=np.float64), shape).ravel()
    b = np.broadcast_to(np.asarray(ya, dtype=np.float64), shape).ravel()
    with np.errstate(all="ignore"):
        p, q = kernels.gammainc_pair(a, b)
    out = (q if upper else p).reshape(shape).astype(dtype)
    return make_output(record, out, (x, y))


@op(method=True, inplace=True)
def gammainc(x, y, name=None):
    """The regularized lower incomplete gamma function
    ``P(x, y) = 1/Gamma(x) * integral_0^y t^(x-1) exp(-t) dt``, elementwise with
    broadcasting; ``x`` and ``y`` are float tensors, at least 0 everywhere (else
    ``ValueError``).

    ``P(0, y) = 1`` for ``y > 0``. Only ``y`` gets a gradient,
    ``y^(x-1) exp(-y) / Gamma(x)``, as in Paddle. Saves both inputs.

    >>> import pylayer
    >>> x = pylayer.to_tensor([0.5, 1.0, 3.0], dtype='float64')
    >>> pylayer.gammainc(x, pylayer.to_tensor([1.0, 1.0, 2.0], dtype='float64')).numpy()
    array([0.84270079, 0.63212056, 0.32332358])
    """
    return _incomplete_gamma(GAMMAINC, "gammainc", x, y, False)


@op(method=True, inplace=True)
def gammaincc(x, y, name=None):
    """The regularized upper incomplete gamma function ``Q(x, y) = 1 - P(x, y)``,
    computed directly (accurate where it is tiny); see :func:`gammainc`.

    Only ``y`` gets a gradient, ``-y^(x-1) exp(-y) / Gamma(x)``. Saves both inputs.

    >>> import pylayer
    >>> x = pylayer.to_tensor([0.5, 1.0, 3.0], dtype='float64')
    >>> pylayer.gammaincc(x, pylayer.to_tensor([1.0, 1.0, 20.0], dtype='float64')).numpy()
    array([1.57299207e-01, 3.67879441e-01, 4.55514951e-07])
    """
    return _incomplete_gamma(GAMMAINCC, "gammaincc", x, y, True)


# ------------------------------------------------------------ multigammaln
@op(method=True, inplace=True)
def multigammaln(x, p, name=None):
    """The log of the multivariate gamma function of dimension ``p``:
    ``p (p - 1) / 4 * log(pi) + sum_{j<p} lgamma(x - j / 2)``, elementwise.

    ``x`` is a float tensor, ``p`` an int, at least 1. A composition of
    :func:`lgamma`, so its gradient is ``sum_{j<p} digamma(x - j / 2)``.

    >>> import pylayer
    >>> pylayer.multigammaln(pylayer.to_tensor([2.5, 4.0], dtype='float64'), 2).numpy()
    array([0.85704781, 3.56509801])
    """
    x = float_tensor(x, "multigammaln", "x", 1)
    p = check_int(p, "multigammaln", "p", minimum=1)
    check_count(x._array.size * p, "multigammaln", "p", x._array.dtype)
    halves = to_tensor(np.arange(p, dtype=x._array.dtype) / 2)
    terms = lgamma(subtract(unsqueeze(x, -1), halves))
    return add(_sum(terms, axis=-1), p * (p - 1) / 4.0 * math.log(math.pi))


# ----------------------------------------- Paddle's function-level in-place twins
lgamma_ = inplace_twin(lgamma)
gammaln_ = inplace_twin(gammaln)
digamma_ = inplace_twin(digamma)
polygamma_ = inplace_twin(polygamma)
i0_ = inplace_twin(i0)
gammainc_ = inplace_twin(gammainc)
gammaincc_ = inplace_twin(gammaincc)
multigammaln_ = inplace_twin(multigammaln)
