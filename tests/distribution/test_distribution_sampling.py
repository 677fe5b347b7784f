"""Samples: shapes, dtypes, reproducibility under pylayer.seed, and moments of a large
sample for a fixed seed (loose bounds: several standard errors, deterministic)."""
import numpy as np
import pytest

import pylayer
from pylayer import distribution as D

N = 20000


def t(v):
    return pylayer.to_tensor(np.asarray(v, dtype="float64"))


MOMENTS = [
    ("Normal", lambda: D.Normal(t([0.5, -1.0]), t([1.0, 2.0]))),
    ("Uniform", lambda: D.Uniform(t([0.0, -1.0]), t([1.0, 3.0]))),
    ("Exponential", lambda: D.Exponential(t([2.0, 0.5]))),
    ("Laplace", lambda: D.Laplace(t([0.5, -1.0]), t([1.0, 2.0]))),
    ("Gumbel", lambda: D.Gumbel(t([0.5, -1.0]), t([1.0, 2.0]))),
    ("Gamma", lambda: D.Gamma(t([2.0, 0.7]), t([1.0, 3.0]))),
    ("Chi2", lambda: D.Chi2(t([3.0, 1.5]))),
    ("Beta", lambda: D.Beta(t([2.0, 0.7]), t([1.0, 3.0]))),
    ("StudentT", lambda: D.StudentT(t([7.0, 9.0]), t([0.5, -1.0]), t([1.0, 2.0]))),
    ("ContinuousBernoulli", lambda: D.ContinuousBernoulli(t([0.2, 0.5]))),
    ("LogNormal", lambda: D.LogNormal(t([0.0, -0.5]), t([0.5, 0.3]))),
    ("Bernoulli", lambda: D.Bernoulli(t([0.3, 0.8]))),
    ("Geometric", lambda: D.Geometric(t([0.3, 0.8]))),
    ("Poisson", lambda: D.Poisson(t([2.0, 7.5]))),
    ("Binomial", lambda: D.Binomial(t([10.0, 4.0]), t([0.3, 0.8]))),
    ("Multinomial", lambda: D.Multinomial(6, t([0.2, 0.3, 0.5]))),
    ("Dirichlet", lambda: D.Dirichlet(t([1.0, 2.0, 3.5]))),
    ("MultivariateNormal", lambda: D.MultivariateNormal(
        t([0.0, 1.0]), t([[2.0, 0.5], [0.5, 1.0]]))),
    ("Independent", lambda: D.Independent(D.Normal(t([[0.5, -1.0]]), t([[1.0, 2.0]])), 1)),
]


@pytest.mark.parametrize("name,make", MOMENTS, ids=[m[0] for m in MOMENTS])
def test_sample_moments(name, make):
    pylayer.seed(2024)
    d = make()
    x = d.sample([N])
    assert x.shape == [N, *d.batch_shape, *d.event_shape]
    assert x.dtype == pylayer.float64
    x = x.numpy()
    mean, variance = d.mean.numpy(), d.variance.numpy()
    error = np.sqrt(variance / N)
    assert np.all(np.abs(x.mean(axis=0) - mean) < 6 * error + 1e-12), (x.mean(axis=0), mean)
    np.testing.assert_allclose(x.var(axis=0), variance, rtol=0.1)


def test_multivariate_normal_sample_covariance():
    pylayer.seed(3)
    cov = np.array([[2.0, 0.5], [0.5, 1.0]])
    x = D.MultivariateNormal(t([0.0, 1.0]), t(cov)).sample([N]).numpy()
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.08)


def test_categorical_frequencies():
    pylayer.seed(5)
    x = D.Categorical(t([0.1, 0.2, 0.7])).sample([N])
    assert x.dtype == pylayer.int64 and x.shape == [N]
    np.testing.assert_allclose(np.bincount(x.numpy(), minlength=3) / N, [0.1, 0.2, 0.7],
                               atol=0.02)


def test_cauchy_sample_quartiles():
    pylayer.seed(6)
    x = D.Cauchy(t(1.0), t(2.0)).sample([N]).numpy()
    np.testing.assert_allclose(np.percentile(x, [25, 50, 75]), [-1.0, 1.0, 3.0], atol=0.15)


@pytest.mark.parametrize("method", ["onion", "cvine"])
def test_lkj_samples_are_cholesky_factors_of_correlations(method):
    pylayer.seed(8)
    d = D.LKJCholesky(4, t(2.0), method)
    low = d.sample([2000]).numpy()
    assert low.shape == (2000, 4, 4)
    corr = low @ np.swapaxes(low, -1, -2)
    np.testing.assert_allclose(np.diagonal(corr, axis1=-2, axis2=-1), 1.0, atol=1e-12)
    assert np.allclose(np.triu(low, 1), 0)
    # Off-diagonal correlations of LKJ(eta) are Beta(eta - 1 + d/2, same) on [-1, 1]:
    # mean 0, variance 1 / (2 (eta - 1 + d / 2) + 1) = 1 / 7 here.
    off = corr[:, 0, 1]
    assert abs(off.mean()) < 0.05
    assert off.var() == pytest.approx(1 / 7, rel=0.15)


def test_seed_makes_sampling_reproducible():
    d = D.Gamma(t([2.0, 0.5]), t([1.0, 3.0]))
    pylayer.seed(11)
    first = d.sample([5]).numpy()
    pylayer.seed(11)
    np.testing.assert_array_equal(first, d.sample([5]).numpy())


def test_sample_shapes():
    d = D.Normal(pylayer.zeros([2]), pylayer.ones([2]))
    assert d.sample([3, 4]).shape == [3, 4, 2]
    assert d.sample().shape == [2]
    assert d.sample((3,)).shape == [3, 2]
    assert D.Dirichlet(pylayer.ones([2, 3])).sample([4]).shape == [4, 2, 3]
    assert D.Normal(0.0, 1.0).sample([0]).shape == [0]
