"""Gradients of log_prob, entropy and rsample against central differences (float64), twice
where the ops allow; samples are a fixed function of the parameters for a fixed seed."""
import numpy as np
import pytest

import pylayer
from pylayer import distribution as D
from pylayer.autograd import gradcheck, gradgradcheck


def p(v):
    return pylayer.to_tensor(np.asarray(v, dtype="float64"), stop_gradient=False)


def c(v):
    return pylayer.to_tensor(np.asarray(v, dtype="float64"))


CORR = np.array([[1.0, 0.3, 0.2], [0.3, 1.0, 0.1], [0.2, 0.1, 1.0]])
COV = np.array([[2.0, 0.5], [0.5, 1.0]])

# (name, constructor of the distribution from its parameters, parameters, a value)
CASES = [
    ("Normal", D.Normal, [[0.2, -1.0], [1.1, 0.7]], [0.3, -0.5]),
    ("Uniform", D.Uniform, [[0.0, -1.0], [2.0, 3.0]], [0.3, 0.5]),
    ("Exponential", D.Exponential, [[2.0, 0.5]], [0.3, 1.5]),
    ("Laplace", D.Laplace, [[0.2, -1.0], [1.1, 0.7]], [0.9, -0.5]),
    ("Cauchy", D.Cauchy, [[0.2, -1.0], [1.1, 0.7]], [0.3, -0.5]),
    ("Gumbel", D.Gumbel, [[0.2, -1.0], [1.1, 0.7]], [0.3, -0.5]),
    ("Gamma", D.Gamma, [[2.0, 0.7], [1.3, 2.0]], [0.3, 1.5]),
    ("Chi2", D.Chi2, [[3.0, 1.5]], [0.3, 1.5]),
    ("Beta", D.Beta, [[2.0, 0.7], [1.3, 2.0]], [0.3, 0.6]),
    ("StudentT", D.StudentT, [[3.0, 4.5], [0.1, 1.0], [1.0, 2.0]], [0.3, 0.6]),
    ("ContinuousBernoulli", D.ContinuousBernoulli, [[0.3, 0.8]], [0.3, 0.6]),
    ("LogNormal", D.LogNormal, [[0.2, -1.0], [1.1, 0.7]], [0.3, 1.5]),
    ("Bernoulli", D.Bernoulli, [[0.3, 0.8]], [1.0, 0.0]),
    ("Geometric", D.Geometric, [[0.3, 0.8]], [2.0, 0.0]),
    ("Poisson", D.Poisson, [[2.0, 7.5]], [2.0, 0.0]),
    ("Binomial", lambda pr: D.Binomial(c([10.0, 4.0]), pr), [[0.3, 0.8]], [2.0, 4.0]),
    ("Categorical", D.Categorical, [[0.1, 0.2, 0.7]], None),
    ("Multinomial", lambda pr: D.Multinomial(5, pr), [[0.2, 0.3, 0.5]], [1.0, 1.0, 3.0]),
    ("Dirichlet", D.Dirichlet, [[1.0, 2.0, 3.5]], [0.2, 0.3, 0.5]),
    ("MultivariateNormal", lambda loc, tril: D.MultivariateNormal(loc, scale_tril=tril),
     [[0.0, 1.0], np.linalg.cholesky(COV)], [0.3, 0.2]),
    ("LKJCholesky", lambda eta: D.LKJCholesky(3, eta), [2.0], np.linalg.cholesky(CORR)),
]
NO_ENTROPY = {"LogNormal", "LKJCholesky"}


@pytest.mark.parametrize("name,make,params,value", CASES, ids=[x[0] for x in CASES])
def test_log_prob_gradients(name, make, params, value):
    if value is None:
        def f(*ps):
            return make(*ps).log_prob(pylayer.to_tensor([2, 0]))
    else:
        def f(*ps):
            return make(*ps).log_prob(c(value))
    inputs = tuple(p(v) for v in params)
    assert gradcheck(f, inputs)
    assert gradgradcheck(f, inputs)


@pytest.mark.parametrize("name,make,params,value",
                         [x for x in CASES if x[0] not in NO_ENTROPY],
                         ids=[x[0] for x in CASES if x[0] not in NO_ENTROPY])
def test_entropy_gradients(name, make, params, value):
    assert gradcheck(lambda *ps: make(*ps).entropy(), tuple(p(v) for v in params))


RSAMPLED = ["Normal", "Uniform", "Exponential", "Laplace", "Cauchy", "Gumbel",
            "ContinuousBernoulli", "LogNormal", "Bernoulli", "MultivariateNormal"]


@pytest.mark.parametrize("name", RSAMPLED)
def test_rsample_gradients(name):
    _, make, params, _ = next(x for x in CASES if x[0] == name)

    def f(*ps):
        pylayer.seed(7)
        return make(*ps).rsample([3])
    inputs = tuple(p(v) for v in params)
    assert gradcheck(f, inputs)
    assert gradgradcheck(f, inputs)


def test_sample_is_out_of_the_graph_and_rsample_is_not():
    loc = p([0.0])
    d = D.Normal(loc, c([1.0]))
    assert d.sample([2]).stop_gradient
    assert not d.rsample([2]).stop_gradient


def test_gamma_rsample_has_no_gradient_as_in_paddle():
    assert D.Gamma(p(2.0), p(1.0)).rsample([2]).stop_gradient


def test_kl_gradients():
    def f(a, b, c_, d_):
        return D.kl_divergence(D.Normal(a, b), D.Normal(c_, d_))
    assert gradcheck(f, (p([0.2]), p([1.1]), p([0.5]), p([2.0])))
    def g(a, b):
        return D.kl_divergence(D.Beta(a, b), D.Beta(c([1.5]), c([2.5])))
    assert gradcheck(g, (p([2.0]), p([0.7])))
