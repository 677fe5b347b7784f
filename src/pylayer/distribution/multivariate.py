"""Distributions over vectors: Dirichlet and the multivariate normal."""
import math

import numpy as np

import pylayer
from pylayer._core.tensor import Tensor
from pylayer.distribution._base import Distribution, ExponentialFamily, parameters
from pylayer.ops._arguments import describe

__all__ = ["Dirichlet", "MultivariateNormal", "LKJCholesky"]


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
    >>> cov = pylayer.to_tensor([[2.0, 0.0], [0.0, 1.0]])
    >>> d = pylayer.distribution.MultivariateNormal(pylayer.to_tensor([0.0, 1.0]), cov)
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


class LKJCholesky(Distribution):
    """The LKJ distribution over lower Cholesky factors of ``dim x dim`` correlation
    matrices, with density proportional to ``det(L L^T) ** (concentration - 1)``.
    ``sample_method`` is ``'onion'`` or ``'cvine'`` (two algorithms, the same
    distribution).

    >>> import pylayer
    >>> d = pylayer.distribution.LKJCholesky(3, 2.0)
    >>> L = d.sample()
    >>> L.shape, (L @ L.T).numpy().diagonal().round(4).tolist()
    ([3, 3], [1.0, 1.0, 1.0])
    """

    def __init__(self, dim=2, concentration=1.0, sample_method="onion"):
        if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
            raise TypeError(f"LKJCholesky(): argument 'dim' (position 1) must be an int, got "
                            f"{describe(dim)}")
        if dim < 2:
            raise ValueError(f"LKJCholesky(): argument 'dim' (position 1) must be at least 2, "
                             f"got {dim}")
        if sample_method not in ("onion", "cvine"):
            raise ValueError(f"LKJCholesky(): argument 'sample_method' (position 3) must be "
                             f"'onion' or 'cvine', got {describe(sample_method)}")
        (concentration,) = parameters("LKJCholesky", concentration=concentration)
        self.dim, self.concentration, self.sample_method = int(dim), concentration, sample_method
        super().__init__(tuple(concentration.shape), (self.dim, self.dim))

    @property
    def _dtype(self):
        return self.concentration.dtype

    def _beta(self, shape, a, b):
        full = list(shape) + list(a.shape)
        x = pylayer.standard_gamma(pylayer.broadcast_to(a, full))
        y = pylayer.standard_gamma(pylayer.broadcast_to(b, full))
        return x / (x + y)

    def _sample(self, shape):
        d, eta = self.dim, self.concentration.detach().unsqueeze(-1)
        steps = pylayer.arange(0, d - 1, dtype=self._dtype)
        lower = pylayer.tril(pylayer.ones([d, d], self._dtype), -1)
        if self.sample_method == "onion":
            a = pylayer.broadcast_to(steps + 0.5, list(eta.shape[:-1]) + [d - 1])
            b = eta + 0.5 * (d - 2) - 0.5 * steps
            y = self._beta(shape, a, b)
            y = pylayer.concat([pylayer.zeros(list(y.shape[:-1]) + [1], self._dtype), y], -1)
            u = pylayer.standard_normal(list(self._extend(shape)), self._dtype) * lower
            norm = pylayer.sqrt(pylayer.square(u).sum(axis=-1, keepdim=True))
            w = pylayer.sqrt(y).unsqueeze(-1) * u / pylayer.where(norm > 0, norm,
                                                                  pylayer.ones_like(norm))
        else:
            half = eta + 0.5 * (d - 2) - 0.5 * steps
            half = pylayer.broadcast_to(half.unsqueeze(-2), list(half.shape[:-1]) + [d, d - 1])
            z = 2 * self._beta(shape, half, half) - 1
            column = list(z.shape[:-1]) + [1]
            z = pylayer.concat([z, pylayer.zeros(column, self._dtype)], -1) * lower
            keep = pylayer.cumprod(pylayer.sqrt(1 - pylayer.square(z)), dim=-1)
            keep = pylayer.concat([pylayer.ones(column, self._dtype), keep[..., :-1]], -1)
            w = z * keep
        diagonal = pylayer.sqrt(pylayer.clip(1 - pylayer.square(w).sum(axis=-1), min=0.0))
        return w + pylayer.diag_embed(diagonal)

    def _log_prob(self, value):
        d = self.dim
        diagonal = pylayer.diagonal(value, axis1=-2, axis2=-1)[..., 1:]
        order = 2 * (self.concentration.unsqueeze(-1) - 1) + d \
            - pylayer.arange(2, d + 1, dtype=self._dtype)
        unnormalized = (order * pylayer.log(diagonal)).sum(axis=-1)
        alpha = self.concentration + 0.5 * (d - 1)
        normalizer = 0.5 * (d - 1) * math.log(math.pi) \
            + pylayer.multigammaln(alpha - 0.5, d - 1) - (d - 1) * pylayer.lgamma(alpha)
        return unnormalized - normalizer
