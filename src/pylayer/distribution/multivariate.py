"""Distributions over vectors: Dirichlet and the multivariate normal."""
import math

import pylayer
from pylayer._core.tensor import Tensor
from pylayer.distribution._base import Distribution, ExponentialFamily, parameters
from pylayer.ops._arguments import describe

__all__ = ["Dirichlet", "MultivariateNormal"]


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution over the probability simplex, with ``concentration``
    (a Tensor whose last axis is the event).

    >>> import pylayer
    >>> d = pylayer.distribution.Dirichlet(pylayer.to_tensor([1.0, 2.0, 3.0]))
    >>> d.event_shape, d.mean.numpy().round(4)
    ((3,), array([0.1667, 0.3333, 0.5   ], dtype=float32))
    """

    def __init__(self, concentration):
        if not isinstance(concentration, Tensor):
            raise TypeError(f"Dirichlet(): argument 'concentration' (position 1) must be a "
                            f"Tensor, got {describe(concentration)}")
        (concentration,) = parameters("Dirichlet", concentration=concentration)
        if concentration.ndim < 1:
            raise ValueError("Dirichlet(): argument 'concentration' (position 1) must have at "
                             "least one axis, got a 0-D tensor")
        self.concentration = concentration
        super().__init__(tuple(concentration.shape[:-1]), tuple(concentration.shape[-1:]))

    @property
    def _dtype(self):
        return self.concentration.dtype

    @property
    def mean(self):
        """The mean, ``concentration / concentration.sum(-1)``."""
        return self.concentration / self.concentration.sum(axis=-1, keepdim=True)

    @property
    def variance(self):
        """The variance of each coordinate."""
        total = self.concentration.sum(axis=-1, keepdim=True)
        return self.concentration * (total - self.concentration) / \
            (pylayer.square(total) * (total + 1))

    def _sample(self, shape):
        alpha = pylayer.broadcast_to(self.concentration.detach(), list(self._extend(shape)))
        gamma = pylayer.standard_gamma(alpha)
        return gamma / gamma.sum(axis=-1, keepdim=True)

    def _log_prob(self, value):
        a = self.concentration
        return ((a - 1) * pylayer.log(value)).sum(axis=-1) + pylayer.lgamma(a.sum(axis=-1)) \
            - pylayer.lgamma(a).sum(axis=-1)

    def _entropy(self):
        a = self.concentration
        k = a.shape[-1]
        total = a.sum(axis=-1)
        return pylayer.lgamma(a).sum(axis=-1) - pylayer.lgamma(total) \
            + (total - k) * pylayer.digamma(total) - ((a - 1) * pylayer.digamma(a)).sum(axis=-1)


def _batch_mv(matrix, vector):
    return pylayer.matmul(matrix, vector.unsqueeze(-1)).squeeze(-1)


class MultivariateNormal(Distribution):
    """The multivariate normal distribution with mean ``loc`` and one of
    ``covariance_matrix``, ``precision_matrix`` or ``scale_tril`` (the lower Cholesky
    factor of the covariance).

    >>> import pylayer
    >>> d = pylayer.distribution.MultivariateNormal(
    ...     pylayer.to_tensor([0.0, 1.0]), covariance_matrix=pylayer.to_tensor([[2.0, 0.0], [0.0, 1.0]]))
    >>> d.event_shape, d.variance.numpy().round(4)
    ((2,), array([2., 1.], dtype=float32))
    """

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None):
        given = [(n, m) for n, m in (("covariance_matrix", covariance_matrix),
                                     ("precision_matrix", precision_matrix),
                                     ("scale_tril", scale_tril)) if m is not None]
        if len(given) != 1:
            raise ValueError("MultivariateNormal(): exactly one of covariance_matrix, "
                             f"precision_matrix and scale_tril must be given, got {len(given)}")
        (loc,) = parameters("MultivariateNormal", loc=loc)
        if loc.ndim < 1:
            raise ValueError("MultivariateNormal(): argument 'loc' (position 1) must have at "
                             "least one axis, got a 0-D tensor")
        name, matrix = given[0]
        (matrix,) = parameters("MultivariateNormal", **{name: matrix})
        k = loc.shape[-1]
        if matrix.ndim < 2 or matrix.shape[-1] != k or matrix.shape[-2] != k:
            raise ValueError(f"MultivariateNormal(): argument '{name}' must be a batch of "
                             f"[{k}, {k}] matrices to match loc, got shape {list(matrix.shape)}")
        if matrix.dtype != loc.dtype:
            matrix = matrix.astype(loc.dtype)
        try:
            if name == "scale_tril":
                tril = pylayer.tril(matrix)
            elif name == "covariance_matrix":
                tril = pylayer.linalg.cholesky(matrix)
            else:
                tril = pylayer.linalg.cholesky(pylayer.linalg.inv(matrix))
        except ValueError as error:
            raise ValueError(f"MultivariateNormal(): argument '{name}' must be positive "
                             f"definite: {error}") from None
        batch = tuple(pylayer.broadcast_shape(list(loc.shape[:-1]), list(tril.shape[:-2])))
        self.loc = pylayer.broadcast_to(loc, list(batch) + [k])
        self.scale_tril = pylayer.broadcast_to(tril, list(batch) + [k, k])
        super().__init__(batch, (k,))

    @property
    def _dtype(self):
        return self.loc.dtype

    def _transposed(self, m):
        return m.transpose(list(range(m.ndim - 2)) + [m.ndim - 1, m.ndim - 2])

    @property
    def covariance_matrix(self):
        """The covariance matrix, ``scale_tril @ scale_tril.T``."""
        return pylayer.matmul(self.scale_tril, self._transposed(self.scale_tril))

    @property
    def mean(self):
        """The mean, ``loc``."""
        return self.loc * 1

    @property
    def variance(self):
        """The variance of each coordinate, the diagonal of the covariance."""
        return pylayer.square(self.scale_tril).sum(axis=-1)

    def _rsample(self, shape):
        eps = pylayer.standard_normal(list(self._extend(shape)), self._dtype)
        return self.loc + _batch_mv(self.scale_tril, eps)

    def _half_log_det(self):
        return pylayer.log(pylayer.diagonal(self.scale_tril, axis1=-2, axis2=-1)).sum(axis=-1)

    def _log_prob(self, value):
        diff = value - self.loc
        k = self._event_shape[0]
        shape = list(diff.shape)
        tril = pylayer.broadcast_to(self.scale_tril, shape + [k])
        z = pylayer.linalg.triangular_solve(tril, diff.unsqueeze(-1), upper=False).squeeze(-1)
        return -0.5 * pylayer.square(z).sum(axis=-1) - self._half_log_det() \
            - 0.5 * k * math.log(2 * math.pi)

    def _entropy(self):
        k = self._event_shape[0]
        return 0.5 * k * (1 + math.log(2 * math.pi)) + self._half_log_det()
