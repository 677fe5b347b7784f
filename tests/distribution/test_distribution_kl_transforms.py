"""KL divergences against Monte Carlo estimates for a fixed seed and against closed forms;
the registry; the transforms' forward, inverse, log-det-Jacobians and shapes; Paddle's
errors for bad arguments."""
import math

import numpy as np
import pytest

import pylayer
from pylayer import distribution as D


def t(v):
    return pylayer.to_tensor(np.asarray(v, dtype="float64"))


KL_PAIRS = [
    ("Normal", D.Normal(t([0.0, 1.0]), t([1.0, 2.0])), D.Normal(t([0.5, 0.0]), t([2.0, 1.0]))),
    ("Uniform", D.Uniform(t([0.0, 1.0]), t([1.0, 2.0])), D.Uniform(t([-1.0, 0.0]), t([2.0, 3.0]))),
    ("Exponential", D.Exponential(t([2.0, 0.5])), D.Exponential(t([1.0, 3.0]))),
    ("Laplace", D.Laplace(t([0.0, 1.0]), t([1.0, 2.0])), D.Laplace(t([0.5, 0.0]), t([2.0, 1.0]))),
    ("Cauchy", D.Cauchy(t([0.0, 1.0]), t([1.0, 2.0])), D.Cauchy(t([0.5, 0.0]), t([2.0, 1.0]))),
    ("Gamma", D.Gamma(t([2.0, 0.7]), t([1.0, 3.0])), D.Gamma(t([1.0, 2.0]), t([2.0, 1.0]))),
    ("Beta", D.Beta(t([2.0, 0.7]), t([1.0, 3.0])), D.Beta(t([1.0, 2.0]), t([2.0, 1.0]))),
    ("Dirichlet", D.Dirichlet(t([1.0, 2.0, 3.0])), D.Dirichlet(t([2.0, 2.0, 1.0]))),
    ("Bernoulli", D.Bernoulli(t([0.3, 0.8])), D.Bernoulli(t([0.5, 0.1]))),
    ("Geometric", D.Geometric(t([0.3, 0.8])), D.Geometric(t([0.5, 0.1]))),
    ("Poisson", D.Poisson(t([2.0, 7.5])), D.Poisson(t([1.0, 3.0]))),
    ("Binomial", D.Binomial(t([10.0, 4.0]), t([0.3, 0.8])),
     D.Binomial(t([10.0, 4.0]), t([0.5, 0.1]))),
    ("MultivariateNormal", D.MultivariateNormal(t([0.0, 1.0]), t([[2.0, 0.5], [0.5, 1.0]])),
     D.MultivariateNormal(t([1.0, 0.0]), t([[1.0, 0.2], [0.2, 1.0]]))),
    ("LogNormal", D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])), D.LogNormal(t([0.5, 0.0]),
                                                                         t([2.0, 1.0]))),
    ("ContinuousBernoulli", D.ContinuousBernoulli(t([0.3, 0.8])),
     D.ContinuousBernoulli(t([0.5, 0.1]))),
]


@pytest.mark.parametrize("name,p,q", KL_PAIRS, ids=[k[0] for k in KL_PAIRS])
def test_kl_against_monte_carlo(name, p, q):
    pylayer.seed(99)
    n = 200000
    x = p.sample([n])
    log_ratio = (p.log_prob(x) - q.log_prob(x)).numpy()
    estimate, error = log_ratio.mean(axis=0), log_ratio.std(axis=0) / math.sqrt(n)
    kl = D.kl_divergence(p, q).numpy()
    assert np.all(np.abs(kl - estimate) < 6 * error + 1e-6), (kl, estimate, error)
    np.testing.assert_allclose(p.kl_divergence(q).numpy(), kl)


def test_kl_of_categoricals_uses_the_softmax_and_keeps_the_last_axis():
    a, b = np.array([0.1, 0.2, 0.7]), np.array([0.3, 0.3, 0.4])
    sa, sb = np.exp(a) / np.exp(a).sum(), np.exp(b) / np.exp(b).sum()
    kl = D.kl_divergence(D.Categorical(t(a)), D.Categorical(t(b)))
    assert kl.shape == [1]
    np.testing.assert_allclose(kl.numpy(), [np.sum(sa * np.log(sa / sb))])


def test_kl_of_uniforms_is_infinite_outside_the_support():
    kl = D.kl_divergence(D.Uniform(t(0.0), t(2.0)), D.Uniform(t(0.5), t(3.0)))
    assert math.isinf(float(kl))


def test_kl_of_exponential_family_members_by_bregman_divergence():
    class Exp2(D.Exponential):
        pass                     # not registered itself: the family's rule applies
    p, q = Exp2(t([2.0])), Exp2(t([0.5]))
    expected = D.kl_divergence(D.Exponential(t([2.0])), D.Exponential(t([0.5])))
    np.testing.assert_allclose(D.kl_divergence(p, q).numpy(), expected.numpy())
    np.testing.assert_allclose(Exp2(t([2.0])).entropy().numpy(), [1 - math.log(2.0)])
    # The divergence differentiates in both distributions' parameters.
    from pylayer.autograd import gradcheck
    rate = lambda v: pylayer.to_tensor([v], dtype="float64", stop_gradient=False)
    assert gradcheck(lambda a, b: D.kl_divergence(Exp2(a), Exp2(b)), (rate(2.0), rate(0.5)))


def test_entropy_from_the_log_normalizer():
    class Exp3(D.ExponentialFamily):
        """An exponential distribution that gives only its natural parameter."""

        def __init__(self, rate):
            self.rate = rate
            super().__init__(tuple(rate.shape))

        @property
        def _natural_parameters(self):
            return (-self.rate,)

        def _log_normalizer(self, x):
            return -pylayer.log(-x)

        @property
        def _mean_carrier_measure(self):
            return 0.0
    rate = pylayer.to_tensor([2.0, 0.5], dtype="float64", stop_gradient=False)
    entropy = Exp3(rate).entropy()
    np.testing.assert_allclose(entropy.numpy(), 1 - np.log([2.0, 0.5]))
    entropy.sum().backward()
    np.testing.assert_allclose(rate.grad.numpy(), -1 / np.array([2.0, 0.5]))


def test_register_kl_and_unregistered_pairs():
    with pytest.raises(NotImplementedError):
        D.kl_divergence(D.Normal(0.0, 1.0), D.Gamma(1.0, 2.0))

    class Mine(D.Normal):
        pass

    @D.register_kl(Mine, D.Normal)
    def _kl(p, q):
        return pylayer.to_tensor(42.0)
    assert float(D.kl_divergence(Mine(0.0, 1.0), D.Normal(0.0, 1.0))) == 42.0
    assert float(D.kl_divergence(D.Normal(0.0, 1.0), Mine(0.0, 1.0))) == 0.0
    with pytest.raises(TypeError, match="register_kl"):
        D.register_kl(int, D.Normal)
    with pytest.raises(TypeError, match="kl_divergence"):
        D.kl_divergence(D.Normal(0.0, 1.0), "a")


# ------------------------------------------------------------------ transforms
X = np.array([[0.3, -1.2, 0.7], [1.5, 0.1, -0.4]])
ELEMENTWISE = [
    ("Exp", D.ExpTransform(), X, np.exp),
    ("Sigmoid", D.SigmoidTransform(), X, lambda x: 1 / (1 + np.exp(-x))),
    ("Tanh", D.TanhTransform(), X, np.tanh),
    ("Affine", D.AffineTransform(t(1.0), t([2.0, -3.0, 0.5])), X,
     lambda x: 1 + np.array([2.0, -3.0, 0.5]) * x),
    ("Power", D.PowerTransform(t(3.0)), np.abs(X), lambda x: x ** 3),
]


@pytest.mark.parametrize("name,transform,x,f", ELEMENTWISE, ids=[e[0] for e in ELEMENTWISE])
def test_elementwise_transforms(name, transform, x, f):
    y = transform.forward(t(x))
    np.testing.assert_allclose(y.numpy(), f(x), rtol=1e-12)
    np.testing.assert_allclose(transform.inverse(y).numpy(), x, rtol=1e-10, atol=1e-12)
    h = 1e-6
    slope = (f(x + h) - f(x - h)) / (2 * h)
    np.testing.assert_allclose(transform.forward_log_det_jacobian(t(x)).numpy(),
                               np.log(np.abs(slope)), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(transform.inverse_log_det_jacobian(y).numpy(),
                               -np.log(np.abs(slope)), rtol=1e-6, atol=1e-8)
    assert transform.forward_shape([2, 3]) == (2, 3) and transform(t(x)).shape == [2, 3]


def test_abs_transform_inverse_is_both_preimages():
    neg, pos = D.AbsTransform().inverse(t([2.0]))
    assert neg.numpy().tolist() == [-2.0] and pos.numpy().tolist() == [2.0]
    with pytest.raises(NotImplementedError):
        D.AbsTransform().forward_log_det_jacobian(t([1.0]))


def test_stick_breaking_transform():
    tr = D.StickBreakingTransform()
    x = t([0.3, -1.2, 0.7])
    y = tr.forward(x)
    assert y.shape == [4] and float(y.sum()) == pytest.approx(1.0)
    np.testing.assert_allclose(tr.inverse(y).numpy(), x.numpy(), rtol=1e-10)
    xs = pylayer.to_tensor(x.numpy(), stop_gradient=False)
    jac = np.stack([np.asarray(pylayer.grad(tr.forward(xs)[i], xs)[0].numpy())
                    for i in range(3)])
    assert float(tr.forward_log_det_jacobian(x)) == pytest.approx(
        math.log(abs(np.linalg.det(jac))))
    assert tr.forward_shape([5, 3]) == (5, 4) and tr.inverse_shape([5, 4]) == (5, 3)


def test_softmax_reshape_chain_independent_stack():
    y = D.SoftmaxTransform().forward(t([[0.0, math.log(3.0)]]))
    np.testing.assert_allclose(y.numpy(), [[0.25, 0.75]])
    r = D.ReshapeTransform((2, 3), (3, 2))
    assert r.forward(pylayer.ones([4, 2, 3])).shape == [4, 3, 2]
    assert r.inverse(pylayer.ones([4, 3, 2])).shape == [4, 2, 3]
    assert r.forward_log_det_jacobian(pylayer.ones([4, 2, 3])).shape == [4]
    assert r.forward_shape([4, 2, 3]) == (4, 3, 2) and r.inverse_shape([3, 2]) == (2, 3)
    chain = D.ChainTransform([D.AffineTransform(t(0.0), t(2.0)), D.ExpTransform()])
    x = t([0.5, 1.0])
    np.testing.assert_allclose(chain.forward(x).numpy(), np.exp(2 * x.numpy()))
    np.testing.assert_allclose(chain.forward_log_det_jacobian(x).numpy(),
                               math.log(2) + 2 * x.numpy())
    np.testing.assert_allclose(chain.inverse(chain.forward(x)).numpy(), x.numpy())
    ind = D.IndependentTransform(D.ExpTransform(), 1)
    np.testing.assert_allclose(ind.forward_log_det_jacobian(t([[1.0, 2.0]])).numpy(), [3.0])
    stack = D.StackTransform([D.ExpTransform(), D.AffineTransform(t(1.0), t(2.0))], axis=1)
    np.testing.assert_allclose(stack.forward(t([[0.0, 1.0]])).numpy(), [[1.0, 3.0]])
    np.testing.assert_allclose(stack.forward_log_det_jacobian(t([[1.0, 1.0]])).numpy(),
                               [[1.0, math.log(2)]])


def test_transform_call_builds_distributions_and_chains():
    d = D.ExpTransform()(D.Normal(t(0.0), t(1.0)))
    assert isinstance(d, D.TransformedDistribution)
    chain = D.ExpTransform()(D.AffineTransform(t(0.0), t(2.0)))
    assert isinstance(chain, D.ChainTransform)
    assert float(chain(t(1.0))) == pytest.approx(math.exp(2.0))


def test_transformed_distribution_matches_lognormal():
    base = D.Normal(t([0.0, 1.0]), t([1.0, 0.5]))
    d = D.TransformedDistribution(base, [D.ExpTransform()])
    x = t([0.7, 2.0])
    np.testing.assert_allclose(d.log_prob(x).numpy(),
                               D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])).log_prob(x).numpy())
    pylayer.seed(1)
    assert d.sample([3]).shape == [3, 2] and d.rsample([3]).shape == [3, 2]


# ------------------------------------------------------------------ errors (as Paddle)
def test_errors_paddle_gives():
    with pytest.raises(ValueError, match="Multinomial"):
        D.Multinomial(0, t([0.5, 0.5]))
    with pytest.raises(ValueError, match="exactly one"):
        D.MultivariateNormal(t([0.0, 0.0]))
    with pytest.raises(ValueError, match="exactly one"):
        D.MultivariateNormal(t([0.0, 0.0]), covariance_matrix=pylayer.eye(2),
                             scale_tril=pylayer.eye(2))
    with pytest.raises(ValueError, match="positive definite"):
        D.MultivariateNormal(t([0.0, 0.0]), covariance_matrix=-pylayer.eye(2, dtype="float64"))
    with pytest.raises(ValueError, match="dim"):
        D.LKJCholesky(1, 1.0)
    with pytest.raises(ValueError, match="sample_method"):
        D.LKJCholesky(2, 1.0, "x")
    with pytest.raises(ValueError, match="reinterpreted_batch_rank"):
        D.Independent(D.Normal(t([0.0, 1.0]), t([1.0, 1.0])), 0)
    with pytest.raises(ValueError, match="reinterpreted_batch_rank"):
        D.Independent(D.Normal(t([0.0, 1.0]), t([1.0, 1.0])), 2)
    with pytest.raises(ValueError, match="same number"):
        D.ReshapeTransform((2, 3), (4,))
    with pytest.raises(TypeError, match="loc"):
        D.AffineTransform(1.0, 2.0)
    with pytest.raises(TypeError, match="power"):
        D.PowerTransform(2.0)
    with pytest.raises(TypeError, match="transforms"):
        D.StackTransform([])
    with pytest.raises(TypeError, match="transforms"):
        D.ChainTransform([1])
    with pytest.raises(TypeError, match="transforms"):
        D.TransformedDistribution(D.Normal(0.0, 1.0), [1])
    with pytest.raises(TypeError, match="'x'"):
        D.ExpTransform().forward(1.0)
    with pytest.raises(ValueError, match="concentration"):
        D.Dirichlet(t(1.0))
    with pytest.raises(IndexError, match="value"):
        D.Categorical(t([0.2, 0.8])).log_prob(pylayer.to_tensor([5]))
    with pytest.raises(TypeError, match="Normal"):
        D.Normal("a", 1.0)
    with pytest.raises(TypeError, match="shape"):
        D.Normal(0.0, 1.0).sample(3)
    with pytest.raises(ValueError, match="Cauchy distribution has no mean"):
        D.Cauchy(0.0, 1.0).mean


def test_reprs_show_how_the_object_was_made():
    assert repr(D.Normal(0.0, [1.0, 2.0])) == "Normal(batch_shape=[2], event_shape=[])"
    assert repr(D.Dirichlet(pylayer.ones([2, 3]))) == \
        "Dirichlet(batch_shape=[2], event_shape=[3])"
    chain = D.ChainTransform([D.ExpTransform(), D.ReshapeTransform((2,), (1, 2))])
    assert repr(chain) == ("ChainTransform(transforms=[ExpTransform(), ReshapeTransform("
                           "in_event_shape=(2,), out_event_shape=(1, 2))])")
    assert repr(D.StackTransform([D.TanhTransform()], 1)) == \
        "StackTransform(transforms=[TanhTransform()], axis=1)"


def test_paddle_distribution_after_install_as_paddle():
    import subprocess
    import sys
    code = ("import pylayer; pylayer.install_as_paddle(); import paddle.distribution as D; "
            "from paddle.distribution import Normal; import paddle; "
            "print(D.Normal is Normal is paddle.distribution.Normal is pylayer.distribution.Normal)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "True", done.stderr
