"""Distributions built from others: Independent, TransformedDistribution, LogNormal."""
import numpy as np

import pylayer
from pylayer.distribution._base import Distribution, parameters
from pylayer.distribution.continuous import Normal
from pylayer.distribution.transform import ChainTransform, ExpTransform, Transform, \
    _sum_rightmost
from pylayer.ops._arguments import describe

__all__ = ["Independent", "TransformedDistribution", "LogNormal"]


class Independent(Distribution):
    """``base`` with its rightmost ``reinterpreted_batch_rank`` batch axes taken as event
    axes: ``log_prob`` and ``entropy`` sum over them.

    >>> import pylayer
    >>> D = pylayer.distribution
    >>> d = D.Independent(D.Normal(pylayer.zeros([2, 3]), pylayer.ones([2, 3])), 1)
    >>> d.batch_shape, d.event_shape, d.log_prob(pylayer.zeros([2, 3])).shape
    ((2,), (3,), [2])
    """

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Distribution):
            raise TypeError(f"Independent(): argument 'base' (position 1) must be a "
                            f"Distribution, got {describe(base)}")
        rank = reinterpreted_batch_rank
        if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)):
            raise TypeError(f"Independent(): argument 'reinterpreted_batch_rank' (position 2) "
                            f"must be an int, got {describe(rank)}")
        if not 0 < rank <= len(base.batch_shape):
            raise ValueError(f"Independent(): argument 'reinterpreted_batch_rank' (position 2) "
                             f"must be in [1, {len(base.batch_shape)}] (the rank of the base's "
                             f"batch shape), got {rank}")
        self._base, self._rank = base, int(rank)
        shape = base.batch_shape + base.event_shape
        cut = len(base.batch_shape) - self._rank
        super().__init__(shape[:cut], shape[cut:])

    @property
    def _dtype(self):
        return self._base._dtype

    @property
    def mean(self):
        """The base's mean."""
        return self._base.mean

    @property
    def variance(self):
        """The base's variance."""
        return self._base.variance

    def _sample(self, shape):
        return self._base._sample(shape)

    def _rsample(self, shape):
        return self._base._rsample(shape)

    def _log_prob(self, value):
        return _sum_rightmost(self._base._log_prob(value), self._rank)

    def _entropy(self):
        return _sum_rightmost(self._base.entropy(), self._rank)


class TransformedDistribution(Distribution):
    """The distribution of ``transforms`` applied in order to draws of ``base``; densities
    by the change of variables.

    >>> import pylayer
    >>> D = pylayer.distribution
    >>> d = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.ExpTransform()])
    >>> round(float(d.log_prob(pylayer.to_tensor(1.0))), 4)
    -0.9189
    """

    def __init__(self, base, transforms):
        if not isinstance(base, Distribution):
            raise TypeError(f"TransformedDistribution(): argument 'base' (position 1) must be "
                            f"a Distribution, got {describe(base)}")
        if not isinstance(transforms, (list, tuple)) or not all(
                isinstance(t, Transform) for t in transforms):
            raise TypeError(f"TransformedDistribution(): argument 'transforms' (position 2) "
                            f"must be a list of Transforms, got {describe(transforms)}")
        self._base = base
        self._transforms = list(transforms)
        chain = ChainTransform(self._transforms)
        self._chain = chain
        base_shape = base.batch_shape + base.event_shape
        if len(base_shape) < chain._domain_rank:
            raise ValueError(f"TransformedDistribution(): the base's shape {list(base_shape)} "
                             f"has fewer axes than the transforms' event rank "
                             f"{chain._domain_rank}")
        shape = chain._forward_shape(base_shape)
        event_rank = max(len(base.event_shape) + chain._codomain_rank - chain._domain_rank,
                         chain._codomain_rank)
        cut = len(shape) - event_rank
        super().__init__(shape[:cut], shape[cut:])

    @property
    def _dtype(self):
        return self._base._dtype

    def _sample(self, shape):
        return self._chain._forward(self._base._sample(shape))

    def _rsample(self, shape):
        return self._chain._forward(self._base._rsample(shape))

    def _log_prob(self, value):
        log_prob, y = 0.0, value
        event_rank = len(self._event_shape)
        for t in reversed(self._transforms):
            x = t._inverse(y)
            event_rank += t._domain_rank - t._codomain_rank
            log_prob = log_prob - _sum_rightmost(t._forward_log_det_jacobian(x),
                                                 event_rank - t._domain_rank)
            y = x
        return log_prob + _sum_rightmost(self._base._log_prob(y),
                                         event_rank - len(self._base.event_shape))


class LogNormal(TransformedDistribution):
    """The log-normal distribution: ``exp`` of a normal variable with mean ``loc`` and
    standard deviation ``scale``.

    >>> import pylayer
    >>> d = pylayer.distribution.LogNormal(0.0, 1.0)
    >>> round(float(d.mean), 4), round(float(d.entropy()), 4)
    (1.6487, 1.4189)
    """

    def __init__(self, loc, scale):
        self._normal = Normal(*parameters("LogNormal", loc=loc, scale=scale))
        self.loc, self.scale = self._normal.loc, self._normal.scale
        super().__init__(self._normal, [ExpTransform()])

    @property
    def mean(self):
        """The mean, ``exp(loc + scale ** 2 / 2)``."""
        return pylayer.exp(self.loc + pylayer.square(self.scale) / 2)

    @property
    def variance(self):
        """The variance, ``(exp(scale ** 2) - 1) exp(2 loc + scale ** 2)``."""
        s2 = pylayer.square(self.scale)
        return pylayer.expm1(s2) * pylayer.exp(2 * self.loc + s2)

    def _entropy(self):
        return self._normal._entropy() + self.loc

