"""Discrete distributions."""
import math

import numpy as np

import pylayer
from pylayer._core.tensor import Tensor
from pylayer.distribution._base import (Distribution, ExponentialFamily, parameters,
                                        sample_shape, value_tensor)
from pylayer.ops._arguments import check_number, describe

__all__ = ["Bernoulli", "Categorical", "Geometric", "Poisson", "Binomial", "Multinomial"]


def _eps(dtype):
    return float(np.finfo(np.dtype(dtype.name if dtype.name != "bfloat16" else "float32")).eps)


def _clamped(probs):
    eps = _eps(probs.dtype)
    return pylayer.clip(probs, min=eps, max=1 - eps)


class Bernoulli(ExponentialFamily):
    """The Bernoulli distribution: 1 with probability ``probs``, else 0. ``rsample`` draws
    relaxed samples (see :meth:`rsample`).

    >>> import pylayer
    >>> d = pylayer.distribution.Bernoulli(0.3)
    >>> d.log_prob(pylayer.to_tensor([1.0, 0.0])).numpy().round(4)
    array([-1.204 , -0.3567], dtype=float32)
    """

    def __init__(self, probs, name=None):
        (self.probs,) = parameters("Bernoulli", probs=probs)
        self.logits = pylayer.log(_clamped(self.probs)) - pylayer.log1p(-_clamped(self.probs))
        self.name = name
        super().__init__(tuple(self.probs.shape))

    @property
    def _dtype(self):
        return self.probs.dtype

    @property
    def mean(self):
        """The mean, ``probs``."""
        return self.probs * 1

    @property
    def variance(self):
        """The variance, ``probs (1 - probs)``."""
        return self.probs * (1 - self.probs)

    def _sample(self, shape):
        full = list(self._extend(shape))
        return pylayer.bernoulli(pylayer.broadcast_to(self.probs.detach(), full))

    def rsample(self, shape=(), temperature=1.0):
        """Relaxed samples (the logistic reparameterisation of Paddle): real numbers
        ``(logit(probs) + log(u) - log(1 - u)) / temperature`` with ``u ~ U(0, 1)``; their
        sigmoid tends to a Bernoulli draw as ``temperature`` falls. Gradients flow to
        ``probs``.

        >>> import pylayer
        >>> pylayer.distribution.Bernoulli(0.3).rsample([4]).shape
        [4]
        """
        fn = "Bernoulli.rsample"
        shape = sample_shape(shape, fn, self._batch_shape, self._dtype.name)
        temperature = check_number(temperature, fn, "temperature")
        if not temperature > 0:
            raise ValueError(f"{fn}(): argument 'temperature' (position 2) must be positive, "
                             f"got {temperature}")
        eps = _eps(self._dtype)
        u = pylayer.clip(pylayer.rand(list(self._extend(shape)), self._dtype), eps, 1 - eps)
        return (self.logits + pylayer.log(u) - pylayer.log1p(-u)) / temperature

    def _log_prob(self, value):
        p = _clamped(self.probs)
        return value * pylayer.log(p) + (1 - value) * pylayer.log1p(-p)

    def _entropy(self):
        p = _clamped(self.probs)
        return -(p * pylayer.log(p) + (1 - p) * pylayer.log1p(-p))

    def _cdf(self, value):
        p = self.probs + value * 0
        return pylayer.where(value < 0, pylayer.zeros_like(p),
                             pylayer.where(value < 1, 1 - p, pylayer.ones_like(p)))


class Categorical(Distribution):
    """The categorical distribution over ``K`` classes (the last axis of ``logits``).
    As in Paddle, :meth:`probs`, :meth:`log_prob` and :meth:`sample` take ``logits``
    normalised by their sum as the class probabilities, while :meth:`entropy` and
    :meth:`kl_divergence` take their softmax.

    >>> import pylayer
    >>> d = pylayer.distribution.Categorical(pylayer.to_tensor([0.1, 0.2, 0.7]))
    >>> d.probs(pylayer.to_tensor([2, 0])).numpy().round(4)
    array([0.7, 0.1], dtype=float32)
    """

    def __init__(self, logits, name=None):
        (logits,) = parameters("Categorical", logits=logits)
        if logits.ndim < 1:
            raise ValueError("Categorical(): argument 'logits' (position 1) must have at least "
                             "one axis (the classes), got a 0-D tensor")
        self.logits = logits
        self._prob = logits / logits.sum(axis=-1, keepdim=True)
        self.name = name
        super().__init__(tuple(logits.shape[:-1]))

    @property
    def _dtype(self):
        return self.logits.dtype

    def sample(self, shape=()):
        """Draw class indices (int64) shaped ``shape + batch_shape``.

        >>> import pylayer
        >>> pylayer.seed(0) and None
        >>> d = pylayer.distribution.Categorical(pylayer.to_tensor([0.1, 0.2, 0.7]))
        >>> d.sample([5]).shape
        [5]
        """
        shape = sample_shape(shape, "Categorical.sample", self._batch_shape, "int64")
        n = math.prod(shape)
        k = self.logits.shape[-1]
        with pylayer.no_grad():
            flat = self._prob.detach().reshape([-1, k])
            draws = pylayer.multinomial(flat, max(n, 1), replacement=True)[:, :n]
            draws = draws.transpose([1, 0]).reshape(list(shape) + list(self._batch_shape))
        return draws

    def _index(self, value, fn):
        if value.dtype.name.startswith(("float", "bfloat")):
            value = value.astype("int64")
        k = self.logits.shape[-1]
        v = value.numpy()
        if v.size and (v.min() < 0 or v.max() >= k):
            raise IndexError(f"{fn}(): argument 'value' holds a class out of range [0, {k})")
        return value.astype("int64")

    def probs(self, value):
        """The probability of the classes ``value`` (integer indices).

        >>> import pylayer
        >>> d = pylayer.distribution.Categorical(pylayer.to_tensor([1.0, 3.0]))
        >>> d.probs(pylayer.to_tensor([1])).numpy()
        array([0.75], dtype=float32)
        """
        return self._probs_of(value, "Categorical.probs")

    def _probs_of(self, value, fn):
        if not isinstance(value, Tensor):
            value = value_tensor(value, fn, pylayer.int64)
        elif value.dtype.name in ("complex64", "complex128", "bool"):
            raise TypeError(f"{fn}(): argument 'value' (position 1) must be an integer Tensor, "
                            f"got dtype {value.dtype.name}")
        index = self._index(value, fn)
        if self.logits.ndim == 1:
            return pylayer.gather(self._prob, index.reshape([-1])).reshape(list(index.shape))
        # As in Paddle: the classes of the last axis of ``value`` are looked up in every
        # distribution of the batch (a 1-D value) or in the distribution of its row.
        if index.ndim == 0:
            index = index.reshape([1])
        lead = tuple(index.shape[:-1]) if index.ndim > 1 else ()
        try:
            lead = np.broadcast_shapes(lead, self._batch_shape)
        except ValueError:
            raise ValueError(f"{fn}(): argument 'value' of shape {list(value.shape)} does not "
                             f"match the batch shape {list(self._batch_shape)}") from None
        index = pylayer.broadcast_to(index, list(lead) + [index.shape[-1]])
        prob = pylayer.broadcast_to(self._prob, list(lead) + [self.logits.shape[-1]])
        return pylayer.take_along_axis(prob, index, -1)

    def log_prob(self, value):
        """The log of the probability of the classes ``value``.

        >>> import pylayer
        >>> d = pylayer.distribution.Categorical(pylayer.to_tensor([1.0, 3.0]))
        >>> d.log_prob(pylayer.to_tensor([0])).numpy().round(4)
        array([-1.3863], dtype=float32)
        """
        return pylayer.log(self._probs_of(value, "Categorical.log_prob"))

    def prob(self, value):
        """The probability of the classes ``value``; the same as :meth:`probs`.

        >>> import pylayer
        >>> d = pylayer.distribution.Categorical(pylayer.to_tensor([1.0, 3.0]))
        >>> d.prob(pylayer.to_tensor([0])).numpy()
        array([0.25], dtype=float32)
        """
        return self._probs_of(value, "Categorical.prob")

    def _entropy(self):
        log_p = pylayer.nn.functional.log_softmax(self.logits, axis=-1)
        return -(pylayer.exp(log_p) * log_p).sum(axis=-1)


class Geometric(Distribution):
    """The geometric distribution: the number of failures before the first success of
    Bernoulli trials with success probability ``probs`` (support ``0, 1, 2, ...``).

    >>> import pylayer
    >>> d = pylayer.distribution.Geometric(0.3)
    >>> round(float(d.mean), 4), round(float(d.pmf(pylayer.to_tensor(2.0))), 4)
    (2.3333, 0.147)
    """

    def __init__(self, probs):
        (self.probs,) = parameters("Geometric", probs=probs)
        super().__init__(tuple(self.probs.shape))

    @property
    def _dtype(self):
        return self.probs.dtype

    @property
    def mean(self):
        """The mean, ``(1 - probs) / probs``."""
        return (1 - self.probs) / self.probs

    @property
    def variance(self):
        """The variance, ``(1 - probs) / probs ** 2``."""
        return (1 - self.probs) / pylayer.square(self.probs)

    def _rsample(self, shape):
        eps = _eps(self._dtype)
        u = pylayer.clip(pylayer.rand(list(self._extend(shape)), self._dtype), eps, 1 - eps)
        return pylayer.floor(pylayer.log(u) / pylayer.log1p(-self.probs))

    def pmf(self, k):
        """The probability of ``k`` failures before the first success.

        >>> import pylayer
        >>> round(float(pylayer.distribution.Geometric(0.5).pmf(pylayer.to_tensor(1.0))), 4)
        0.25
        """
        return pylayer.exp(self._log_prob(value_tensor(k, "Geometric.pmf", self._dtype, "k")))

    def log_pmf(self, k):
        """The log of :meth:`pmf`.

        >>> import pylayer
        >>> round(float(pylayer.distribution.Geometric(0.5).log_pmf(pylayer.to_tensor(0.0))), 4)
        -0.6931
        """
        return self._log_prob(value_tensor(k, "Geometric.log_pmf", self._dtype, "k"))

    def _log_prob(self, value):
        return value * pylayer.log1p(-self.probs) + pylayer.log(self.probs)

    def _entropy(self):
        p = self.probs
        return -((1 - p) * pylayer.log1p(-p) + p * pylayer.log(p)) / p

    def _cdf(self, value):
        return 1 - pylayer.pow(1 - self.probs, value + 1)


class Poisson(ExponentialFamily):
    """The Poisson distribution with ``rate``. The entropy sums over the support up to a
    point where the remaining mass is negligible.

    >>> import pylayer
    >>> d = pylayer.distribution.Poisson(pylayer.to_tensor(2.0))
    >>> round(float(d.entropy()), 4)
    1.7049
    """

    def __init__(self, rate):
        (self.rate,) = parameters("Poisson", rate=rate)
        super().__init__(tuple(self.rate.shape))

    @property
    def _dtype(self):
        return self.rate.dtype

    @property
    def mean(self):
        """The mean, ``rate``."""
        return self.rate * 1

    @property
    def variance(self):
        """The variance, ``rate``."""
        return self.rate * 1

    def _sample(self, shape):
        return pylayer.poisson(pylayer.broadcast_to(self.rate.detach(),
                                                    list(self._extend(shape))))

    def _log_prob(self, value):
        return value * pylayer.log(self.rate) - self.rate - pylayer.lgamma(value + 1)

    def _entropy(self):
        rate = self.rate.numpy()
        top = float(np.max(rate)) if rate.size else 0.0
        upper = int(math.ceil(top + 30 * math.sqrt(top) + 30))
        k = pylayer.arange(0, upper + 1, dtype=self._dtype).reshape(
            [-1] + [1] * len(self._batch_shape))
        log_p = k * pylayer.log(self.rate) - self.rate - pylayer.lgamma(k + 1)
        return -(pylayer.exp(log_p) * log_p).sum(axis=0)


class _TrialCounts(Distribution):
    """Counts of successes over ``total_count`` trials of probability ``probs``."""

    @property
    def _dtype(self):
        return self.probs.dtype

    @property
    def mean(self):
        """The mean count, ``total_count probs``."""
        return self.total_count * self.probs

    @property
    def variance(self):
        """The variance of a count, ``total_count probs (1 - probs)``."""
        return self.total_count * self.probs * (1 - self.probs)


class Binomial(_TrialCounts):
    """The binomial distribution: the number of successes in ``total_count`` trials of
    success probability ``probs``.

    >>> import pylayer
    >>> d = pylayer.distribution.Binomial(10, pylayer.to_tensor(0.3))
    >>> round(float(d.mean), 4), round(float(d.variance), 4)
    (3.0, 2.1)
    """

    def __init__(self, total_count, probs):
        self.total_count, self.probs = parameters("Binomial", total_count=total_count,
                                                  probs=probs)
        counts = self.total_count.numpy()
        if counts.size and (np.any(counts < 0) or np.any(counts != np.floor(counts))):
            raise ValueError(f"Binomial(): argument 'total_count' (position 1) must hold whole "
                             f"numbers >= 0, got {counts.tolist()}")
        super().__init__(tuple(self.probs.shape))

    def _sample(self, shape):
        full = list(self._extend(shape))
        count = pylayer.broadcast_to(self.total_count.detach(), full).astype("int64")
        prob = pylayer.broadcast_to(self.probs.detach(), full)
        return pylayer.binomial(count, prob).astype(self._dtype)

    def _log_prob(self, value):
        n, p = self.total_count, _clamped(self.probs)
        return pylayer.lgamma(n + 1) - pylayer.lgamma(value + 1) - pylayer.lgamma(n - value + 1) \
            + value * pylayer.log(p) + (n - value) * pylayer.log1p(-p)

    def _entropy(self):
        counts = self.total_count.numpy()
        upper = int(np.max(counts)) if counts.size else 0
        k = pylayer.arange(0, upper + 1, dtype=self._dtype).reshape(
            [-1] + [1] * len(self._batch_shape))
        inside = k <= self.total_count
        log_p = self._log_prob(pylayer.where(inside, k, pylayer.zeros_like(k)))
        terms = pylayer.where(inside, pylayer.exp(log_p) * log_p, pylayer.zeros_like(log_p))
        return -terms.sum(axis=0)


class Multinomial(_TrialCounts):
    """The multinomial distribution: counts of ``K`` classes (the last axis of ``probs``,
    normalised to sum to 1) over ``total_count`` independent draws.

    >>> import pylayer
    >>> d = pylayer.distribution.Multinomial(10, pylayer.to_tensor([0.2, 0.3, 0.5]))
    >>> d.mean.numpy()
    array([2., 3., 5.], dtype=float32)
    """

    def __init__(self, total_count, probs):
        if isinstance(total_count, bool) or not isinstance(total_count, (int, np.integer)):
            raise TypeError(f"Multinomial(): argument 'total_count' (position 1) must be an "
                            f"int, got {describe(total_count)}")
        if total_count < 1:
            raise ValueError(f"Multinomial(): argument 'total_count' (position 1) must be at "
                             f"least 1, got {total_count}")
        (probs,) = parameters("Multinomial", probs=probs)
        if probs.ndim < 1:
            raise ValueError("Multinomial(): argument 'probs' (position 2) must have at least "
                             "one axis (the classes), got a 0-D tensor")
        self.total_count = int(total_count)
        self.probs = probs / probs.sum(axis=-1, keepdim=True)
        super().__init__(tuple(probs.shape[:-1]), tuple(probs.shape[-1:]))

    def _sample(self, shape):
        n = math.prod(shape)
        k = self.probs.shape[-1]
        flat = self.probs.detach().reshape([-1, k])
        draws = pylayer.multinomial(flat, self.total_count * max(n, 1), replacement=True)
        draws = draws.reshape([flat.shape[0], max(n, 1), self.total_count])
        counts = pylayer.nn.functional.one_hot(draws, k).sum(axis=2)[:, :n]
        counts = counts.transpose([1, 0, 2]).reshape(list(self._extend(shape)))
        return counts.astype(self._dtype)

    def _log_prob(self, value):
        p = _clamped(self.probs)
        return math.lgamma(self.total_count + 1) - pylayer.lgamma(value + 1).sum(axis=-1) \
            + (value * pylayer.log(p)).sum(axis=-1)

    def _entropy(self):
        n = self.total_count
        p = _clamped(self.probs)
        k = pylayer.arange(0, n + 1, dtype=self._dtype).reshape(
            [-1] + [1] * (len(self._batch_shape) + 1))
        binomial_log = math.lgamma(n + 1) - pylayer.lgamma(k + 1) - pylayer.lgamma(n - k + 1) \
            + k * pylayer.log(p) + (n - k) * pylayer.log1p(-p)
        expected = (pylayer.exp(binomial_log) * pylayer.lgamma(k + 1)).sum(axis=0)
        return -n * (self.probs * pylayer.log(p)).sum(axis=-1) - math.lgamma(n + 1) \
            + expected.sum(axis=-1)
