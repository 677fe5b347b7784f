"""Univariate continuous distributions."""
import math

import numpy as np

import pylayer
from pylayer.distribution._base import Distribution, ExponentialFamily, parameters

__all__ = ["Normal", "Uniform", "Exponential", "Laplace", "Cauchy", "Gumbel", "Gamma", "Chi2",
           "Beta", "StudentT", "ContinuousBernoulli"]

_EULER = 0.5772156649015329
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _like(x, number):
    return pylayer.full_like(x, number)


def _uniform(shape, dtype, low=0.0):
    """Uniform noise in (low, 1) (the open interval, so logs stay finite)."""
    tiny = float(np.finfo(np.dtype(dtype.name if dtype.name != "bfloat16" else "float32")).tiny)
    return pylayer.clip(pylayer.rand(list(shape), dtype), min=max(low, tiny), max=1.0 - 1e-7
                        if dtype.name != "float64" else 1.0 - 1e-16)


class _Located(Distribution):
    """A distribution with tensors ``loc`` and ``scale`` broadcast together."""

    def __init__(self, loc, scale, name=None):
        self.loc, self.scale = parameters(type(self).__name__, loc=loc, scale=scale)
        self.name = name
        super().__init__(tuple(self.loc.shape))

    @property
    def _dtype(self):
        return self.loc.dtype

    def _noise(self, shape):
        return pylayer.standard_normal(list(self._extend(shape)), self._dtype)


class Normal(_Located):
    """The normal (Gaussian) distribution with mean ``loc`` and standard deviation
    ``scale``; the parameters broadcast together into the batch shape. Python floats give
    float32.

    >>> import pylayer
    >>> loc, scale = pylayer.to_tensor([0.0, 1.0]), pylayer.to_tensor([1.0, 2.0])
    >>> d = pylayer.distribution.Normal(loc, scale)
    >>> d.batch_shape, d.entropy().numpy().round(4)
    ((2,), array([1.4189, 2.1121], dtype=float32))
    """

    def __init__(self, loc, scale, name=None):
        super().__init__(loc, scale, name)

    @property
    def mean(self):
        """The mean, ``loc``."""
        return self.loc * 1

    @property
    def variance(self):
        """The variance, ``scale ** 2``."""
        return pylayer.square(self.scale)

    def sample(self, shape=(), seed=0):
        """Draw samples shaped ``shape + batch_shape``, out of the graph. ``seed`` is
        accepted for compatibility with Paddle and ignored (use :func:`pylayer.seed`).

        >>> import pylayer
        >>> pylayer.distribution.Normal(0.0, 1.0).sample([2, 3]).shape
        [2, 3]
        """
        return Distribution.sample(self, shape)

    def _rsample(self, shape):
        return self.loc + self.scale * self._noise(shape)

    def _entropy(self):
        return 0.5 + _LOG_SQRT_2PI + pylayer.log(self.scale)

    def _log_prob(self, value):
        z = (value - self.loc) / self.scale
        return -0.5 * z * z - pylayer.log(self.scale) - _LOG_SQRT_2PI

    def _cdf(self, value):
        return 0.5 * (1 + pylayer.erf((value - self.loc) / (self.scale * math.sqrt(2))))

    def _icdf(self, value):
        return self.loc + self.scale * math.sqrt(2) * pylayer.erfinv(2 * value - 1)


class Uniform(Distribution):
    """The continuous uniform distribution on ``[low, high)``; the density is 0 outside.

    >>> import pylayer
    >>> d = pylayer.distribution.Uniform(0.0, 2.0)
    >>> [round(v, 4) for v in d.log_prob(pylayer.to_tensor([1.0, 3.0])).tolist()]
    [-0.6931, -inf]
    """

    def __init__(self, low, high, name=None):
        self.low, self.high = parameters("Uniform", low=low, high=high)
        self.name = name
        super().__init__(tuple(self.low.shape))

    @property
    def _dtype(self):
        return self.low.dtype

    @property
    def mean(self):
        """The mean, ``(low + high) / 2``."""
        return (self.low + self.high) / 2

    @property
    def variance(self):
        """The variance, ``(high - low) ** 2 / 12``."""
        return pylayer.square(self.high - self.low) / 12

    def _rsample(self, shape):
        u = pylayer.rand(list(self._extend(shape)), self._dtype)
        return self.low + (self.high - self.low) * u

    def _log_prob(self, value):
        inside = pylayer.logical_and(value >= self.low, value < self.high)
        log_density = -pylayer.log(self.high - self.low)
        return pylayer.where(inside, log_density + value * 0, _like(log_density + value * 0,
                                                                    -math.inf))

    def _cdf(self, value):
        return pylayer.clip((value - self.low) / (self.high - self.low), 0.0, 1.0)

    def _icdf(self, value):
        return self.low + (self.high - self.low) * value

    def _entropy(self):
        return pylayer.log(self.high - self.low)


class Exponential(ExponentialFamily):
    """The exponential distribution with ``rate`` (the inverse of its mean).

    >>> import pylayer
    >>> d = pylayer.distribution.Exponential(pylayer.to_tensor(2.0))
    >>> float(d.mean), float(d.variance)
    (0.5, 0.25)
    """

    def __init__(self, rate):
        (self.rate,) = parameters("Exponential", rate=rate)
        super().__init__(tuple(self.rate.shape))

    @property
    def _dtype(self):
        return self.rate.dtype

    @property
    def mean(self):
        """The mean, ``1 / rate``."""
        return 1 / self.rate

    @property
    def variance(self):
        """The variance, ``1 / rate ** 2``."""
        return 1 / pylayer.square(self.rate)

    def _rsample(self, shape):
        return -pylayer.log(_uniform(self._extend(shape), self._dtype)) / self.rate

    def _log_prob(self, value):
        return pylayer.log(self.rate) - self.rate * value

    def _entropy(self):
        return 1 - pylayer.log(self.rate)

    def _cdf(self, value):
        return -pylayer.expm1(-self.rate * value)

    def _icdf(self, value):
        return -pylayer.log1p(-value) / self.rate

    @property
    def _natural_parameters(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -pylayer.log(-x)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class Laplace(_Located):
    """The Laplace distribution with location ``loc`` and scale ``scale``:
    density ``exp(-|x - loc| / scale) / (2 scale)``.

    >>> import pylayer
    >>> d = pylayer.distribution.Laplace(0.0, 1.0)
    >>> round(float(d.cdf(pylayer.to_tensor(1.0))), 4)
    0.8161
    """

    def __init__(self, loc, scale):
        super().__init__(loc, scale)

    @property
    def mean(self):
        """The mean, ``loc``."""
        return self.loc * 1

    @property
    def variance(self):
        """The variance, ``2 scale ** 2``."""
        return 2 * pylayer.square(self.scale)

    def _rsample(self, shape):
        u = 2 * _uniform(self._extend(shape), self._dtype) - 1
        return self.loc - self.scale * pylayer.sign(u) * pylayer.log1p(-pylayer.abs(u))

    def _log_prob(self, value):
        return -pylayer.log(2 * self.scale) - pylayer.abs(value - self.loc) / self.scale

    def _entropy(self):
        return 1 + pylayer.log(2 * self.scale)

    def _cdf(self, value):
        z = (value - self.loc) / self.scale
        return 0.5 - 0.5 * pylayer.sign(z) * pylayer.expm1(-pylayer.abs(z))

    def _icdf(self, value):
        t = value - 0.5
        return self.loc - self.scale * pylayer.sign(t) * pylayer.log1p(-2 * pylayer.abs(t))


class Cauchy(_Located):
    """The Cauchy distribution with location ``loc`` and scale ``scale``. It has no mean
    and no variance: asking for them is a ``ValueError``, as in Paddle.

    >>> import pylayer
    >>> d = pylayer.distribution.Cauchy(0.0, 1.0)
    >>> round(float(d.entropy()), 4)
    2.531
    """

    def __init__(self, loc, scale, name=None):
        super().__init__(loc, scale, name)

    @property
    def mean(self):
        """Undefined: a ``ValueError``."""
        raise ValueError("Cauchy distribution has no mean")

    @property
    def variance(self):
        """Undefined: a ``ValueError``."""
        raise ValueError("Cauchy distribution has no variance")

    @property
    def stddev(self):
        """Undefined: a ``ValueError``."""
        raise ValueError("Cauchy distribution has no stddev")

    def _rsample(self, shape):
        u = _uniform(self._extend(shape), self._dtype)
        return self.loc + self.scale * pylayer.tan(math.pi * (u - 0.5))

    def _log_prob(self, value):
        z = (value - self.loc) / self.scale
        return -math.log(math.pi) - pylayer.log(self.scale) - pylayer.log1p(z * z)

    def _cdf(self, value):
        return pylayer.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def _icdf(self, value):
        return self.loc + self.scale * pylayer.tan(math.pi * (value - 0.5))

    def _entropy(self):
        return math.log(4 * math.pi) + pylayer.log(self.scale)


class Gumbel(_Located):
    """The Gumbel (type-I extreme value) distribution with location ``loc`` and scale
    ``scale``.

    >>> import pylayer
    >>> d = pylayer.distribution.Gumbel(0.0, 1.0)
    >>> round(float(d.mean), 4), round(float(d.entropy()), 4)
    (0.5772, 1.5772)
    """

    def __init__(self, loc, scale):
        super().__init__(loc, scale)

    @property
    def mean(self):
        """The mean, ``loc + scale * euler_gamma``."""
        return self.loc + self.scale * _EULER

    @property
    def variance(self):
        """The variance, ``(pi * scale) ** 2 / 6``."""
        return pylayer.square(self.scale) * (math.pi ** 2 / 6)

    def _rsample(self, shape):
        u = _uniform(self._extend(shape), self._dtype)
        return self.loc - self.scale * pylayer.log(-pylayer.log(u))

    def _log_prob(self, value):
        z = (value - self.loc) / self.scale
        return -(z + pylayer.exp(-z)) - pylayer.log(self.scale)

    def _cdf(self, value):
        return pylayer.exp(-pylayer.exp(-(value - self.loc) / self.scale))

    def _icdf(self, value):
        return self.loc - self.scale * pylayer.log(-pylayer.log(value))

    def _entropy(self):
        return pylayer.log(self.scale) + (1 + _EULER)


class Gamma(ExponentialFamily):
    """The gamma distribution with shape ``concentration`` and ``rate``.
    ``rsample`` draws as ``sample`` does: no gradient flows to the parameters, as in
    Paddle.

    >>> import pylayer
    >>> d = pylayer.distribution.Gamma(pylayer.to_tensor(2.0), pylayer.to_tensor(4.0))
    >>> float(d.mean), float(d.variance)
    (0.5, 0.125)
    """

    def __init__(self, concentration, rate):
        self.concentration, self.rate = parameters(type(self).__name__,
                                                   concentration=concentration, rate=rate)
        super().__init__(tuple(self.rate.shape))

    @property
    def _dtype(self):
        return self.rate.dtype

    @property
    def mean(self):
        """The mean, ``concentration / rate``."""
        return self.concentration / self.rate

    @property
    def variance(self):
        """The variance, ``concentration / rate ** 2``."""
        return self.concentration / pylayer.square(self.rate)

    def _sample(self, shape):
        alpha = pylayer.broadcast_to(self.concentration, list(self._extend(shape)))
        return pylayer.standard_gamma(alpha.detach()) / self.rate.detach()

    def rsample(self, shape=()):
        """Draw samples as :meth:`sample` does (out of the graph), as Paddle does.

        >>> import pylayer
        >>> pylayer.distribution.Gamma(2.0, 1.0).rsample([3]).shape
        [3]
        """
        return self.sample(shape)

    def _log_prob(self, value):
        a, b = self.concentration, self.rate
        return a * pylayer.log(b) + (a - 1) * pylayer.log(value) - b * value - pylayer.lgamma(a)

    def _entropy(self):
        a = self.concentration
        return a - pylayer.log(self.rate) + pylayer.lgamma(a) + (1 - a) * pylayer.digamma(a)

    @property
    def _natural_parameters(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return pylayer.lgamma(x + 1) + (x + 1) * pylayer.log(-1 / y)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class Chi2(Gamma):
    """The chi-squared distribution with ``df`` degrees of freedom:
    ``Gamma(df / 2, 1 / 2)``.

    >>> import pylayer
    >>> d = pylayer.distribution.Chi2(pylayer.to_tensor(3.0))
    >>> float(d.mean), float(d.variance)
    (3.0, 6.0)
    """

    def __init__(self, df):
        (df,) = parameters("Chi2", df=df)
        self.df = df
        super().__init__(df * 0.5, _like(df, 0.5))


def _lbeta(a, b):
    return pylayer.lgamma(a) + pylayer.lgamma(b) - pylayer.lgamma(a + b)


class Beta(ExponentialFamily):
    """The beta distribution on ``[0, 1]`` with shapes ``alpha`` and ``beta``.

    >>> import pylayer
    >>> d = pylayer.distribution.Beta(2.0, 3.0)
    >>> round(float(d.mean), 4), round(float(d.variance), 4)
    (0.4, 0.04)
    """

    def __init__(self, alpha, beta):
        self.alpha, self.beta = parameters("Beta", alpha=alpha, beta=beta)
        super().__init__(tuple(self.alpha.shape))

    @property
    def _dtype(self):
        return self.alpha.dtype

    @property
    def mean(self):
        """The mean, ``alpha / (alpha + beta)``."""
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self):
        """The variance, ``alpha beta / ((alpha + beta) ** 2 (alpha + beta + 1))``."""
        total = self.alpha + self.beta
        return self.alpha * self.beta / (pylayer.square(total) * (total + 1))

    def _sample(self, shape):
        full = list(self._extend(shape))
        x = pylayer.standard_gamma(pylayer.broadcast_to(self.alpha.detach(), full))
        y = pylayer.standard_gamma(pylayer.broadcast_to(self.beta.detach(), full))
        return x / (x + y)

    def _log_prob(self, value):
        return (self.alpha - 1) * pylayer.log(value) + (self.beta - 1) * pylayer.log1p(-value) \
            - _lbeta(self.alpha, self.beta)

    def _entropy(self):
        a, b = self.alpha, self.beta
        return _lbeta(a, b) - (a - 1) * pylayer.digamma(a) - (b - 1) * pylayer.digamma(b) \
            + (a + b - 2) * pylayer.digamma(a + b)

    @property
    def _natural_parameters(self):
        return (self.alpha, self.beta)

    def _log_normalizer(self, x, y):
        return _lbeta(x, y)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class StudentT(Distribution):
    """Student's t distribution with ``df`` degrees of freedom, location ``loc`` and scale
    ``scale``. The mean is NaN for ``df <= 1``; the variance is infinite for
    ``1 < df <= 2`` and NaN for ``df <= 1``.

    >>> import pylayer
    >>> d = pylayer.distribution.StudentT(3.0, 0.0, 1.0)
    >>> float(d.mean), round(float(d.variance), 4), round(float(d.entropy()), 4)
    (0.0, 3.0, 1.7735)
    """

    def __init__(self, df, loc, scale, name=None):
        self.df, self.loc, self.scale = parameters("StudentT", df=df, loc=loc, scale=scale)
        self.name = name
        super().__init__(tuple(self.df.shape))

    @property
    def _dtype(self):
        return self.df.dtype

    @property
    def mean(self):
        """The mean, ``loc`` where ``df > 1``, else NaN."""
        return pylayer.where(self.df > 1, self.loc * 1, _like(self.loc, math.nan))

    @property
    def variance(self):
        """The variance, ``scale ** 2 df / (df - 2)`` where ``df > 2``; infinite for
        ``1 < df <= 2``, NaN for ``df <= 1``."""
        finite = pylayer.square(self.scale) * self.df / pylayer.where(
            self.df > 2, self.df - 2, _like(self.df, 1.0))
        return pylayer.where(self.df > 2, finite, pylayer.where(
            self.df > 1, _like(finite, math.inf), _like(finite, math.nan)))

    def _sample(self, shape):
        full = list(self._extend(shape))
        z = pylayer.standard_normal(full, self._dtype)
        chi2 = 2 * pylayer.standard_gamma(pylayer.broadcast_to(self.df.detach() * 0.5, full))
        return self.loc.detach() + self.scale.detach() * z * pylayer.rsqrt(chi2 / self.df.detach())

    def _log_prob(self, value):
        df = self.df
        z = (value - self.loc) / self.scale
        return pylayer.lgamma((df + 1) / 2) - pylayer.lgamma(df / 2) \
            - 0.5 * pylayer.log(df * math.pi) - pylayer.log(self.scale) \
            - (df + 1) / 2 * pylayer.log1p(z * z / df)

    def _entropy(self):
        df = self.df
        return (df + 1) / 2 * (pylayer.digamma((df + 1) / 2) - pylayer.digamma(df / 2)) \
            + 0.5 * pylayer.log(df) + _lbeta(df / 2, _like(df, 0.5)) + pylayer.log(self.scale)


class ContinuousBernoulli(ExponentialFamily):
    """The continuous Bernoulli distribution on ``[0, 1]``: density ``C(probs) probs ** x
    (1 - probs) ** (1 - x)``. Inside ``lims`` (around 1/2, where the closed forms lose
    precision) the normalizer, mean, variance, cdf and icdf use their Taylor expansions.

    >>> import pylayer
    >>> d = pylayer.distribution.ContinuousBernoulli(0.3)
    >>> round(float(d.mean), 4)
    0.4302
    """

    def __init__(self, probs, lims=(0.499, 0.501)):
        (self.probs,) = parameters("ContinuousBernoulli", probs=probs)
        if not isinstance(lims, (list, tuple)) or len(lims) != 2 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in lims):
            raise TypeError(f"ContinuousBernoulli(): argument 'lims' (position 2) must be a "
                            f"pair of numbers, got {lims!r}")
        if not 0 < lims[0] < lims[1] < 1:
            raise ValueError(f"ContinuousBernoulli(): argument 'lims' (position 2) must be "
                             f"(low, high) with 0 < low < high < 1, got {tuple(lims)}")
        self._lims = (float(lims[0]), float(lims[1]))
        eps = float(np.finfo(np.dtype("float64" if self.probs.dtype.name == "float64"
                                      else "float32")).eps)
        self._p = pylayer.clip(self.probs, eps, 1 - eps)
        super().__init__(tuple(self.probs.shape))

    @property
    def _dtype(self):
        return self.probs.dtype

    def _outside(self):
        return pylayer.logical_or(self._p < self._lims[0], self._p > self._lims[1])

    def _safe(self):
        """probs where it is outside ``lims``, else ``lims[0]`` (finite closed forms)."""
        return pylayer.where(self._outside(), self._p, _like(self._p, self._lims[0]))

    def _log_norm(self):
        p = self._safe()
        closed = pylayer.log(pylayer.abs(2 * pylayer.atanh(1 - 2 * p))) \
            - pylayer.log(pylayer.abs(1 - 2 * p))
        x = self._p - 0.5
        taylor = math.log(2.0) + (4 / 3 + 104 / 45 * x * x) * x * x
        return pylayer.where(self._outside(), closed, taylor)

    @property
    def mean(self):
        """The mean."""
        p = self._safe()
        closed = p / (2 * p - 1) + 1 / (2 * pylayer.atanh(1 - 2 * p))
        x = self._p - 0.5
        taylor = 0.5 + (1 / 3 + 16 / 45 * x * x) * x
        return pylayer.where(self._outside(), closed, taylor)

    @property
    def variance(self):
        """The variance."""
        p = self._safe()
        closed = (p - 1) * p / pylayer.square(1 - 2 * p) \
            + 1 / pylayer.square(pylayer.log1p(-p) - pylayer.log(p))
        x2 = pylayer.square(self._p - 0.5)
        taylor = 1 / 12 - (1 / 15 - 128 / 945 * x2) * x2
        return pylayer.where(self._outside(), closed, taylor)

    def _rsample(self, shape):
        return self._icdf(pylayer.rand(list(self._extend(shape)), self._dtype))

    def _log_prob(self, value):
        return self._log_norm() + value * pylayer.log(self._p) \
            + (1 - value) * pylayer.log1p(-self._p)

    def _entropy(self):
        log0, log1 = pylayer.log1p(-self._p), pylayer.log(self._p)
        return self.mean * (log0 - log1) - self._log_norm() - log0

    def _cdf(self, value):
        p = self._safe()
        closed = (pylayer.pow(p, value) * pylayer.pow(1 - p, 1 - value) + p - 1) / (2 * p - 1)
        inside = pylayer.where(self._outside(), closed, value * 1)
        return pylayer.where(value <= 0, pylayer.zeros_like(inside),
                             pylayer.where(value >= 1, pylayer.ones_like(inside), inside))

    def _icdf(self, value):
        p = self._safe()
        closed = (pylayer.log1p(-p + value * (2 * p - 1)) - pylayer.log1p(-p)) \
            / (pylayer.log(p) - pylayer.log1p(-p))
        return pylayer.where(self._outside(), closed, value * 1)
