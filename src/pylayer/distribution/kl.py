"""The Kullback-Leibler divergence between distributions, and its registry."""
import math

import pylayer
from pylayer.distribution._base import Distribution, ExponentialFamily, \
    log_normalizer_and_gradient
from pylayer.distribution.continuous import (Beta, Cauchy, ContinuousBernoulli, Exponential,
                                             Gamma, Laplace, Normal, Uniform)
from pylayer.distribution.discrete import (Bernoulli, Binomial, Categorical, Geometric, Poisson,
                                           _clamped)
from pylayer.distribution.multivariate import Dirichlet, MultivariateNormal
from pylayer.distribution.transformed import LogNormal
from pylayer.ops._arguments import describe

__all__ = ["kl_divergence", "register_kl"]

_REGISTRY = {}


def register_kl(cls_p, cls_q):
    """A decorator that registers a function ``f(p, q)`` as the KL divergence of a
    ``cls_p`` distribution from a ``cls_q`` one. :func:`kl_divergence` picks the
    registered pair whose classes are the closest bases of the arguments' classes.

    >>> import pylayer
    >>> D = pylayer.distribution
    >>> class Point(D.Distribution):
    ...     pass
    >>> @D.register_kl(Point, Point)
    ... def _kl_point(p, q):
    ...     return pylayer.to_tensor(0.0)
    >>> float(D.kl_divergence(Point(), Point()))
    0.0
    """
    for position, (arg, cls) in enumerate((("cls_p", cls_p), ("cls_q", cls_q)), 1):
        if not (isinstance(cls, type) and issubclass(cls, Distribution)):
            raise TypeError(f"register_kl(): argument '{arg}' (position {position}) must be a "
                            f"subclass of Distribution, got {describe(cls)}")

    def decorate(function):
        if not callable(function):
            raise TypeError(f"register_kl(): the decorated object must be callable, got "
                            f"{describe(function)}")
        _REGISTRY[cls_p, cls_q] = function
        return function
    return decorate


def _lookup(cls_p, cls_q):
    matches = [(p, q) for p, q in _REGISTRY if issubclass(cls_p, p) and issubclass(cls_q, q)]
    if not matches:
        return None
    best = min(matches, key=lambda pq: (cls_p.__mro__.index(pq[0]), cls_q.__mro__.index(pq[1])))
    return _REGISTRY[best]


def _divergence(p, q, fn, q_arg):
    if not isinstance(q, Distribution):
        raise TypeError(f"{fn}(): argument '{q_arg}' must be a Distribution, got {describe(q)}")
    function = _lookup(type(p), type(q))
    if function is None:
        raise NotImplementedError(f"{fn}(): no KL divergence is registered for "
                                  f"{type(p).__name__} and {type(q).__name__}")
    return function(p, q)


def kl_divergence(p, q):
    """The Kullback-Leibler divergence ``KL(p || q) = E_p[log p(x) - log q(x)]``, shaped
    like the batch. A pair with no registered formula raises ``NotImplementedError``.

    >>> import pylayer
    >>> D = pylayer.distribution
    >>> round(float(D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0))), 4)
    0.4431
    """
    if not isinstance(p, Distribution):
        raise TypeError(f"kl_divergence(): argument 'p' (position 1) must be a Distribution, "
                        f"got {describe(p)}")
    return _divergence(p, q, "kl_divergence", "q")


@register_kl(Normal, Normal)
def _kl_normal(p, q):
    ratio = pylayer.square(p.scale / q.scale)
    return 0.5 * (ratio + pylayer.square((p.loc - q.loc) / q.scale) - 1 - pylayer.log(ratio))


@register_kl(LogNormal, LogNormal)
def _kl_lognormal(p, q):
    return _kl_normal(p._normal, q._normal)


@register_kl(Uniform, Uniform)
def _kl_uniform(p, q):
    inside = pylayer.logical_and(q.low <= p.low, p.high <= q.high)
    value = pylayer.log((q.high - q.low) / (p.high - p.low))
    return pylayer.where(inside, value, pylayer.full_like(value, math.inf))


@register_kl(Exponential, Exponential)
def _kl_exponential(p, q):
    ratio = q.rate / p.rate
    return ratio - 1 - pylayer.log(ratio)


@register_kl(Laplace, Laplace)
def _kl_laplace(p, q):
    ratio = p.scale / q.scale
    distance = pylayer.abs(p.loc - q.loc) / q.scale
    return -pylayer.log(ratio) + distance + ratio * pylayer.exp(-distance * q.scale / p.scale) - 1


@register_kl(Cauchy, Cauchy)
def _kl_cauchy(p, q):
    return pylayer.log(pylayer.square(p.scale + q.scale) + pylayer.square(p.loc - q.loc)) \
        - pylayer.log(4 * p.scale * q.scale)


@register_kl(Gamma, Gamma)
def _kl_gamma(p, q):
    a1, b1, a2, b2 = p.concentration, p.rate, q.concentration, q.rate
    return (a1 - a2) * pylayer.digamma(a1) - pylayer.lgamma(a1) + pylayer.lgamma(a2) \
        + a2 * (pylayer.log(b1) - pylayer.log(b2)) + a1 * (b2 - b1) / b1


def _lbeta(a, b):
    return pylayer.lgamma(a) + pylayer.lgamma(b) - pylayer.lgamma(a + b)


@register_kl(Beta, Beta)
def _kl_beta(p, q):
    a1, b1, a2, b2 = p.alpha, p.beta, q.alpha, q.beta
    return _lbeta(a2, b2) - _lbeta(a1, b1) + (a1 - a2) * pylayer.digamma(a1) \
        + (b1 - b2) * pylayer.digamma(b1) + (a2 - a1 + b2 - b1) * pylayer.digamma(a1 + b1)


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet(p, q):
    a, b = p.concentration, q.concentration
    a0 = a.sum(axis=-1)
    return pylayer.lgamma(a0) - pylayer.lgamma(b.sum(axis=-1)) \
        - (pylayer.lgamma(a) - pylayer.lgamma(b)).sum(axis=-1) \
        + ((a - b) * (pylayer.digamma(a) - pylayer.digamma(a0.unsqueeze(-1)))).sum(axis=-1)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli(p, q):
    a, b = _clamped(p.probs), _clamped(q.probs)
    return a * (pylayer.log(a) - pylayer.log(b)) + (1 - a) * (pylayer.log1p(-a)
                                                              - pylayer.log1p(-b))


@register_kl(Geometric, Geometric)
def _kl_geometric(p, q):
    a, b = p.probs, q.probs
    return pylayer.log(a) - pylayer.log(b) + (1 - a) / a * (pylayer.log1p(-a) - pylayer.log1p(-b))


@register_kl(Poisson, Poisson)
def _kl_poisson(p, q):
    return p.rate * (pylayer.log(p.rate) - pylayer.log(q.rate)) - p.rate + q.rate


@register_kl(Binomial, Binomial)
def _kl_binomial(p, q):
    counts = (p.total_count - q.total_count).numpy()
    if counts.size and (counts > 0).any():
        raise NotImplementedError("kl_divergence(): the KL divergence of Binomials is "
                                  "implemented only where p.total_count <= q.total_count")
    a, b = _clamped(p.probs), _clamped(q.probs)
    n = p.total_count
    return n * (a * (pylayer.log(a) - pylayer.log(b))
                + (1 - a) * (pylayer.log1p(-a) - pylayer.log1p(-b)))


@register_kl(Categorical, Categorical)
def _kl_categorical(p, q):
    log_softmax = pylayer.nn.functional.log_softmax
    lp, lq = log_softmax(p.logits, axis=-1), log_softmax(q.logits, axis=-1)
    return (pylayer.exp(lp) * (lp - lq)).sum(axis=-1, keepdim=True)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal(p, q):
    k = p.event_shape[0]
    shape = list(pylayer.broadcast_shape(list(p.scale_tril.shape), list(q.scale_tril.shape)))
    lp = pylayer.broadcast_to(p.scale_tril, shape)
    lq = pylayer.broadcast_to(q.scale_tril, shape)
    m = pylayer.linalg.triangular_solve(lq, lp, upper=False)
    diff = pylayer.broadcast_to(q.loc - p.loc, shape[:-1])
    z = pylayer.linalg.triangular_solve(lq, diff.unsqueeze(-1), upper=False).squeeze(-1)
    return q._half_log_det() - p._half_log_det() \
        + 0.5 * (pylayer.square(m).sum(axis=[-2, -1]) + pylayer.square(z).sum(axis=-1) - k)


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli(p, q):
    logit_p = pylayer.log(p._p) - pylayer.log1p(-p._p)
    logit_q = pylayer.log(q._p) - pylayer.log1p(-q._p)
    return p.mean * (logit_p - logit_q) + p._log_norm() + pylayer.log1p(-p._p) \
        - q._log_norm() - pylayer.log1p(-q._p)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_exponential_family(p, q):
    if type(p) is not type(q):
        raise NotImplementedError(f"kl_divergence(): the divergence of exponential-family "
                                  f"distributions needs the same family, got "
                                  f"{type(p).__name__} and {type(q).__name__}")
    p_natural, p_log_norm, grads = log_normalizer_and_gradient(p)
    result = q._log_normalizer(*q._natural_parameters) - p_log_norm
    for pn, qn, g in zip(p_natural, q._natural_parameters, grads):
        result = result - (qn - pn) * g
    return result
