"""The statistics, densities and distribution functions of pylayer.distribution against
scipy.stats (and closed forms), in float64."""
import math

import numpy as np
import pytest
import scipy.special
import scipy.stats as st

import pylayer
from pylayer import distribution as D


def t(v):
    return pylayer.to_tensor(np.asarray(v, dtype="float64"))


def close(actual, expected, rtol=1e-6, atol=1e-8):
    np.testing.assert_allclose(np.asarray(actual.numpy(), "float64"), expected, rtol=rtol,
                               atol=atol)


X = np.array([0.3, 1.7, 2.4])

# (name, pylayer distribution, scipy frozen distribution, values, whether pdf or pmf)
UNIVARIATE = [
    ("Normal", lambda: D.Normal(t([0.0, 1.0, -2.0]), t([1.0, 2.0, 0.5])),
     st.norm([0.0, 1.0, -2.0], [1.0, 2.0, 0.5]), X, "pdf"),
    ("Uniform", lambda: D.Uniform(t([0.0, 1.0, -2.0]), t([1.0, 2.0, 3.0])),
     st.uniform([0.0, 1.0, -2.0], [1.0, 1.0, 5.0]), np.array([0.3, 1.5, 2.4]), "pdf"),
    ("Exponential", lambda: D.Exponential(t([2.0, 0.5, 1.0])), st.expon(scale=[0.5, 2.0, 1.0]),
     X, "pdf"),
    ("Laplace", lambda: D.Laplace(t([0.0, 1.0, 3.0]), t([1.0, 2.0, 0.5])),
     st.laplace([0.0, 1.0, 3.0], [1.0, 2.0, 0.5]), X, "pdf"),
    ("Cauchy", lambda: D.Cauchy(t([0.0, 1.0, 3.0]), t([1.0, 2.0, 0.5])),
     st.cauchy([0.0, 1.0, 3.0], [1.0, 2.0, 0.5]), X, "pdf"),
    ("Gumbel", lambda: D.Gumbel(t([0.0, 1.0, 3.0]), t([1.0, 2.0, 0.5])),
     st.gumbel_r([0.0, 1.0, 3.0], [1.0, 2.0, 0.5]), X, "pdf"),
    ("Gamma", lambda: D.Gamma(t([2.0, 0.5, 3.0]), t([1.0, 3.0, 0.5])),
     st.gamma([2.0, 0.5, 3.0], scale=[1.0, 1 / 3, 2.0]), X, "pdf"),
    ("Chi2", lambda: D.Chi2(t([3.0, 1.5, 5.0])), st.chi2([3.0, 1.5, 5.0]), X, "pdf"),
    ("Beta", lambda: D.Beta(t([2.0, 0.5, 3.0]), t([1.0, 3.0, 2.5])),
     st.beta([2.0, 0.5, 3.0], [1.0, 3.0, 2.5]), np.array([0.3, 0.6, 0.9]), "pdf"),
    ("StudentT", lambda: D.StudentT(t([3.0, 4.5, 6.0]), t([0.0, 1.0, -1.0]), t([1.0, 2.0, 0.5])),
     st.t([3.0, 4.5, 6.0], [0.0, 1.0, -1.0], [1.0, 2.0, 0.5]), X, "pdf"),
    ("LogNormal", lambda: D.LogNormal(t([0.0, 1.0, -0.5]), t([1.0, 0.5, 0.8])),
     st.lognorm([1.0, 0.5, 0.8], scale=np.exp([0.0, 1.0, -0.5])), X, "pdf"),
    ("Bernoulli", lambda: D.Bernoulli(t([0.3, 0.8, 0.5])), st.bernoulli([0.3, 0.8, 0.5]),
     np.array([1.0, 0.0, 1.0]), "pmf"),
    ("Geometric", lambda: D.Geometric(t([0.3, 0.8, 0.5])),
     st.geom([0.3, 0.8, 0.5], loc=-1), np.array([2.0, 0.0, 5.0]), "pmf"),
    ("Poisson", lambda: D.Poisson(t([2.0, 7.5, 0.5])), st.poisson([2.0, 7.5, 0.5]),
     np.array([2.0, 0.0, 3.0]), "pmf"),
    ("Binomial", lambda: D.Binomial(t([10.0, 4.0, 7.0]), t([0.3, 0.8, 0.5])),
     st.binom([10, 4, 7], [0.3, 0.8, 0.5]), np.array([2.0, 4.0, 0.0]), "pmf"),
]

CDF = {"Normal", "Uniform", "Exponential", "Laplace", "Cauchy", "Gumbel", "Bernoulli",
       "Geometric"}
ICDF = {"Normal", "Exponential", "Laplace", "Cauchy", "Gumbel"}
NO_MOMENTS = {"Cauchy"}


@pytest.mark.parametrize("name,make,ref,x,kind", UNIVARIATE, ids=[u[0] for u in UNIVARIATE])
def test_univariate_against_scipy(name, make, ref, x, kind):
    d = make()
    assert d.batch_shape == (3,) and d.event_shape == ()
    density = ref.logpdf(x) if kind == "pdf" else ref.logpmf(x)
    close(d.log_prob(t(x)), density)
    close(d.prob(t(x)), np.exp(density))
    close(d.entropy(), ref.entropy(), rtol=1e-5)
    if name not in NO_MOMENTS:
        close(d.mean, ref.mean())
        close(d.variance, ref.var())
    if name in CDF:
        close(d.cdf(t(x)), ref.cdf(x))
    if name in ICDF:
        q = np.array([0.1, 0.5, 0.8])
        close(d.icdf(t(q)), ref.ppf(q))


def test_geometric_pmf_and_log_pmf():
    d = D.Geometric(t([0.3]))
    close(d.pmf(t([2.0])), st.geom(0.3, loc=-1).pmf(2))
    close(d.log_pmf(t([2.0])), st.geom(0.3, loc=-1).logpmf(2))


def test_cauchy_has_no_moments():
    d = D.Cauchy(0.0, 1.0)
    for name in ("mean", "variance", "stddev"):
        with pytest.raises(ValueError, match="Cauchy distribution has no"):
            getattr(d, name)


def test_student_t_moments_where_undefined():
    d = D.StudentT(t([0.5, 1.5, 3.0]), t([1.0, 1.0, 1.0]), t([2.0, 2.0, 2.0]))
    mean, variance = d.mean.numpy(), d.variance.numpy()
    assert np.isnan(mean[0]) and mean[1] == 1.0
    assert np.isnan(variance[0]) and np.isinf(variance[1]) and variance[2] == pytest.approx(12.0)


def test_uniform_density_is_zero_outside():
    d = D.Uniform(t(0.0), t(2.0))
    assert d.log_prob(t([-0.5, 2.0, 1.0])).numpy().tolist() == [-math.inf, -math.inf,
                                                                  -math.log(2.0)]


def test_continuous_bernoulli_against_quadrature():
    probs = np.array([0.2, 0.5, 0.7, 0.5004])
    d = D.ContinuousBernoulli(t(probs))
    grid = np.linspace(0, 1, 200001)
    density = np.exp(d.log_prob(t(grid[:, None] * np.ones(4))).numpy())
    total = np.trapezoid(density, grid, axis=0)
    np.testing.assert_allclose(total, 1.0, rtol=1e-6)
    np.testing.assert_allclose(d.mean.numpy(), np.trapezoid(grid[:, None] * density, grid,
                                                            axis=0), rtol=1e-6)
    mean = d.mean.numpy()
    np.testing.assert_allclose(d.variance.numpy(), np.trapezoid(
        (grid[:, None] - mean) ** 2 * density, grid, axis=0), rtol=1e-5)
    entropy = -np.trapezoid(density * np.log(density), grid, axis=0)
    np.testing.assert_allclose(d.entropy().numpy(), entropy, rtol=1e-5, atol=1e-12)
    x = np.array([0.3, 0.6, 0.9, 0.1])
    cdf = d.cdf(t(x)).numpy()
    for i in range(4):
        inside = grid <= x[i]
        # inside lims the cdf is the identity, a first-order approximation
        assert cdf[i] == pytest.approx(np.trapezoid(density[inside, i], grid[inside]),
                                       rel=1e-4 if i < 3 else 1e-2)
    np.testing.assert_allclose(d.icdf(t(cdf)).numpy(), x, rtol=1e-6)


def test_categorical_normalises_by_sum_and_entropy_by_softmax():
    logits = np.array([0.1, 0.2, 0.7])
    d = D.Categorical(t(logits))
    close(d.probs(pylayer.to_tensor([2, 0])), [0.7, 0.1])
    close(d.log_prob(pylayer.to_tensor([1])), [math.log(0.2)])
    soft = scipy.special.softmax(logits)
    close(d.entropy(), st.entropy(soft))
    assert d.batch_shape == () and d.entropy().shape == []


def test_categorical_batch():
    logits = np.array([[1.0, 3.0], [2.0, 2.0]])
    d = D.Categorical(t(logits))
    assert d.batch_shape == (2,)
    # Paddle's rule: a 1-D value is looked up in every distribution of the batch, a value
    # with a row per distribution in its own.
    close(d.probs(pylayer.to_tensor([1, 0])), [[0.75, 0.25], [0.5, 0.5]])
    close(d.probs(pylayer.to_tensor([[1], [0]])), [[0.75], [0.5]])
    close(d.probs(pylayer.to_tensor([[1, 0, 1], [0, 0, 1]])), [[0.75, 0.25, 0.75], [0.5] * 3])


def test_multinomial_against_scipy():
    p = np.array([0.2, 0.3, 0.5])
    d = D.Multinomial(5, t(p))
    ref = st.multinomial(5, p)
    x = np.array([1.0, 1.0, 3.0])
    close(d.log_prob(t(x)), ref.logpmf(x))
    close(d.entropy(), ref.entropy(), rtol=1e-6)
    close(d.mean, 5 * p)
    close(d.variance, 5 * p * (1 - p))
    assert d.event_shape == (3,) and d.batch_shape == ()


def test_dirichlet_against_scipy():
    a = np.array([1.0, 2.0, 3.5])
    d = D.Dirichlet(t(a))
    ref = st.dirichlet(a)
    x = np.array([0.2, 0.3, 0.5])
    close(d.log_prob(t(x)), ref.logpdf(x))
    close(d.entropy(), ref.entropy())
    close(d.mean, ref.mean())
    close(d.variance, ref.var())


@pytest.mark.parametrize("form", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_multivariate_normal_against_scipy(form):
    mean = np.array([0.0, 1.0, -1.0])
    cov = np.array([[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 0.7]])
    matrix = {"covariance_matrix": cov, "precision_matrix": np.linalg.inv(cov),
              "scale_tril": np.linalg.cholesky(cov)}[form]
    d = D.MultivariateNormal(t(mean), **{form: t(matrix)})
    ref = st.multivariate_normal(mean, cov)
    x = np.array([[0.3, 0.2, -0.4], [1.0, 0.0, 0.5]])
    close(d.log_prob(t(x)), ref.logpdf(x))
    close(d.entropy(), ref.entropy())
    close(d.variance, np.diag(cov))
    close(d.covariance_matrix, cov)


def test_lkj_cholesky_log_prob_against_the_density_of_correlations():
    # The LKJ density of a correlation matrix C is c_d(eta) det(C) ** (eta - 1); moving to
    # its Cholesky factor L multiplies by prod_{i>=2} L_ii ** (d - i).
    d, eta = 3, 2.0
    corr = np.array([[1.0, 0.3, 0.2], [0.3, 1.0, 0.1], [0.2, 0.1, 1.0]])
    low = np.linalg.cholesky(corr)
    log_c = 0.0  # the normaliser of Lewandowski, Kurowicka and Joe (2009)
    for k in range(1, d):
        b = eta + (d - 1 - k) / 2
        log_c += (2 * eta - 2 + d - k) * (d - k) * math.log(2) \
            + (d - k) * scipy.special.betaln(b, b)
    expected = (eta - 1) * math.log(np.linalg.det(corr)) - log_c \
        + sum((d - i) * math.log(low[i - 1, i - 1]) for i in range(2, d + 1))
    close(D.LKJCholesky(d, eta).log_prob(t(low)), expected, rtol=1e-6)


def test_float_parameters_give_float32_and_tensors_keep_their_dtype():
    assert D.Normal(0.0, 1.0).sample([2]).dtype == pylayer.float32
    assert D.Normal(0, 1).mean.dtype == pylayer.float32
    assert D.Normal(t([0.0]), t([1.0])).log_prob(pylayer.to_tensor([0.5])).dtype == \
        pylayer.float64
    assert D.Normal(np.array([0.0, 1.0]), 1.0).sample([2]).dtype == pylayer.float64
    assert D.Normal(0.0, 1.0).log_prob(t([0.5])).dtype == pylayer.float32
    assert D.Normal(0.0, 1.0).batch_shape == ()
    assert D.Normal([0.0, 1.0], 1.0).batch_shape == (2,)


def test_paddle_s_conversions_of_parameters_by_class():
    # Exponential, Gamma, Chi2, StudentT and Bernoulli refuse a Python int (Paddle's
    # TypeError); Normal takes one.
    with pytest.raises(TypeError, match="Exponential"):
        D.Exponential(2)
    with pytest.raises(TypeError, match="rate"):
        D.Gamma(2.0, 1)
    assert D.Normal(0, 1).mean.dtype == pylayer.float32
    # A float64 numpy array stays float64 in Normal, Uniform and LogNormal, and is
    # computed in float32 by the others.
    assert D.Uniform(np.array([0.0]), np.array([1.0])).sample([2]).dtype == pylayer.float64
    assert D.Exponential(np.array([2.0])).mean.dtype == pylayer.float32
    assert D.Laplace(np.array([0.0]), 1.0).mean.dtype == pylayer.float32
    # Poisson and ContinuousBernoulli make a Python number a [1] tensor.
    assert D.Poisson(2.0).batch_shape == (1,) and D.Poisson(2.0).sample([3]).shape == [3, 1]
    assert D.ContinuousBernoulli(0.3).mean.shape == [1]
    assert D.Poisson(pylayer.to_tensor(2.0)).batch_shape == ()
