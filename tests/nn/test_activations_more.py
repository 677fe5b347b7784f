"""The activations of ``pylayer.ops.nonlinear`` and their layers: Paddle 3.3.1's values at
the kinks, its argument rules, the layers' signatures and reprs, and a small model that
trains and round-trips through ``pylayer.save``/``load``.

The expected numbers were observed with Paddle 3.3.1 (CPU, float64 inputs).
"""
import numpy as np
import pytest

import pylayer
import pylayer.nn as nn
import pylayer.nn.functional as F


def _value_and_grad(fn, values, **kwargs):
    x = pylayer.to_tensor(values, dtype="float64", stop_gradient=False)
    y = fn(x, **kwargs)
    y.sum().backward()
    return y.numpy(), x.grad.numpy()


# Paddle 3.3.1: (function, kwargs, inputs, outputs, gradients of the sum)
PADDLE = [
    (F.relu6, {}, [-1., 0., 3., 6., 7.], [0., 0., 3., 6., 6.], [0., 0., 1., 0., 0.]),
    (F.hardswish, {}, [-4., -3., 0., 3., 4.], [0., 0., 0., 3., 4.], [0., 0., .5, 1., 1.]),
    (F.hardsigmoid, {}, [-4., -3., 0., 3., 4.], [0., 0., .5, 1., 1.],
     [0., 0., 0.1666667, 0., 0.]),
    (F.softshrink, {}, [-1., -.5, 0., .5, 1.], [-.5, 0., 0., 0., .5], [1., 0., 0., 0., 1.]),
    (F.hardshrink, {}, [-1., -.5, 0., .5, 1.], [-1., -.5, 0., .5, 1.], [1., 1., 0., 1., 1.]),
    (F.thresholded_relu, {}, [0., 1., 2.], [0., 0., 2.], [0., 0., 1.]),
    (F.thresholded_relu, {"value": 0.5}, [0., 1., 2.], [.5, .5, 2.], [0., 0., 1.]),
    (F.elu, {}, [-1., 0., 1.], [-0.6321205588285577, 0., 1.], [0.36787944117144233, 1., 1.]),
    (F.elu, {"alpha": -0.5}, [-1., 0., 1.], [0.31606027941427883, 0., 1.],
     [-0.18393972058572117, -0.5, 1.]),
    (F.celu, {"alpha": 2.0}, [-1., 0., 1.], [-0.7869386805747332, 0., 1.],
     [0.6065306597126334, 1., 1.]),
    (F.selu, {}, [-1., 0., 1.], [-1.1113307412864781, 0., 1.0507009873554805],
     [0.646768576264181, 1.7580993175506592, 1.0507009873554805]),
    (F.softplus, {}, [-1., 0., 1., 20., 21.],
     [0.31326168751822286, 0.6931471805599453, 1.3132616875182228, 20.000000002061153, 21.],
     [0.2689414213699951, .5, 0.7310585786300049, 0.9999999979388463, 1.]),
    (F.softplus, {"beta": 2, "threshold": 20}, [-1., 0., 1., 10., 11.],
     [0.0634640055214863, 0.34657359027997264, 1.0634640055214861, 10.000000001030577, 11.],
     [0.11920292202211755, .5, 0.8807970779778823, 0.9999999979388463, 1.]),
    (F.mish, {}, [-1., 0., 1., 20., 21.], [-0.30340146137410895, 0., 0.8650983882673103, 20., 21.],
     [0.059216755877395, .6, 1.0490362200997922, 1., 1.]),
    (F.log_sigmoid, {}, [-100., 0., 100.], [-100., -0.6931471805599453, 0.],
     [1., .5, 3.720075976020836e-44]),
    (F.silu, {}, [-1., 0., 1.], [-0.2689414213699951, 0., 0.7310585786300049],
     [0.07232948812851325, .5, 0.9276705118714869]),
    (F.swish, {}, [-1., 0., 1.], [-0.2689414213699951, 0., 0.7310585786300049],
     [0.07232948812851325, .5, 0.9276705118714869]),
    (F.tanhshrink, {}, [-1., 0., 1.], [-0.23840584404423515, 0., 0.23840584404423515],
     [0.5800256583859739, 0., 0.5800256583859739]),
    (F.softsign, {}, [-1., 0., 1.], [-.5, 0., .5], [.25, 1., .25]),
]


@pytest.mark.parametrize("fn, kwargs, x, out, grad", PADDLE,
                         ids=[f"{p[0].__name__}{p[1] or ''}" for p in PADDLE])
def test_values_and_gradients_at_the_kinks_are_paddles(fn, kwargs, x, out, grad):
    y, g = _value_and_grad(fn, x, **kwargs)
    # Paddle holds selu's and hardsigmoid's attributes in float32 (digits beyond 1e-8)
    np.testing.assert_allclose(y, out, rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(g, grad, rtol=1e-7, atol=1e-12)


def test_prelu_per_channel_values_and_gradients_are_paddles():
    x = pylayer.to_tensor([[-1., 2.], [3., -4.]], dtype="float64", stop_gradient=False)
    w = pylayer.to_tensor([0.3, 0.2], dtype="float64", stop_gradient=False)
    y = F.prelu(x, w)
    (y * y).sum().backward()
    np.testing.assert_allclose(y.numpy(), [[-0.3, 2.], [3., -0.8]])
    np.testing.assert_allclose(x.grad.numpy(), [[-0.18, 4.], [6., -0.32]])
    np.testing.assert_allclose(w.grad.numpy(), [0.6, 6.4])


def test_prelu_channels_last_uses_the_last_axis():
    x = pylayer.to_tensor(np.arange(-6.0, 6.0).reshape(2, 2, 3).astype("float32"))
    w = pylayer.to_tensor([0.1, 0.2, 0.3])
    expected = np.where(x.numpy() > 0, x.numpy(), x.numpy() * np.array([0.1, 0.2, 0.3]))
    np.testing.assert_allclose(F.prelu(x, w, data_format="NLC").numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("call, error, words", [
    (lambda: F.celu(pylayer.ones([2]), alpha=0.0), ZeroDivisionError, "alpha"),
    (lambda: F.softshrink(pylayer.ones([2]), threshold=-1.0), ValueError, "threshold"),
    (lambda: F.selu(pylayer.ones([2]), scale=1.0), ValueError, "scale"),
    (lambda: F.selu(pylayer.ones([2]), alpha=-1.0), ValueError, "alpha"),
    (lambda: F.glu(pylayer.ones([1, 3])), ValueError, "even"),
    (lambda: F.prelu(pylayer.ones([1, 2]), pylayer.ones([3])), ValueError, "channel"),
    (lambda: F.prelu(pylayer.ones([2]), pylayer.ones([2])), ValueError, "2 dimensions"),
    (lambda: F.prelu(pylayer.ones([2]), pylayer.ones([1], dtype="float64")), ValueError, "dtype"),
    (lambda: F.prelu(pylayer.ones([2, 2]), pylayer.ones([2]), data_format="CN"), ValueError,
     "data_format"),
    (lambda: F.relu6(pylayer.to_tensor([1, 2])), TypeError, "floating-point"),
    (lambda: nn.Softmax2D()(pylayer.ones([2, 2])), ValueError, "3-D or 4-D"),
])
def test_paddles_argument_rules(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_hardshrink_keeps_the_threshold_itself_and_softplus_of_beta_zero_is_inf():
    x = pylayer.to_tensor([-0.5, 0.5, 0.3])
    np.testing.assert_array_equal(F.hardshrink(x).numpy(), [-0.5, 0.5, 0.0])
    assert np.isinf(F.softplus(pylayer.to_tensor([-1.0, 2.0]), beta=0).numpy()).all()


def test_in_place_forms_write_into_their_input():
    for twin, ref, kwargs in [(F.elu_, F.elu, {"alpha": 0.5}),
                              (F.thresholded_relu_, F.thresholded_relu, {"value": 0.5}),
                              (F.relu_, F.relu, {}), (F.leaky_relu_, F.leaky_relu, {}),
                              (F.hardtanh_, F.hardtanh, {}), (F.softmax_, F.softmax, {}),
                              (F.tanh_, F.tanh, {})]:
        x = pylayer.to_tensor([[-2.0, 0.5], [1.5, 3.0]])
        expected = ref(x, **kwargs).numpy()
        assert twin(x, **kwargs) is x
        np.testing.assert_allclose(x.numpy(), expected, rtol=1e-6)
    x = pylayer.to_tensor([-1.0, 1.0])
    assert F.silu(x, inplace=True) is x
    np.testing.assert_allclose(x.numpy(), [-0.26894143, 0.7310586], rtol=1e-6)


def test_in_place_form_refuses_a_leaf_that_needs_a_gradient():
    x = pylayer.to_tensor([-1.0, 2.0], stop_gradient=False)
    with pytest.raises(ValueError, match="relu_"):
        F.relu_(x)
    np.testing.assert_array_equal(x.numpy(), [-1.0, 2.0])


def test_glu_halves_along_axis():
    x = pylayer.to_tensor([[1.0, 2.0], [0.0, 0.0]])
    np.testing.assert_allclose(F.glu(x, axis=0).numpy(), [[0.5, 1.0]])


# ----------------------------------------------------------------- layers
REPRS = [
    (nn.ReLU6(), "ReLU6()"), (nn.ELU(), "ELU(alpha=1.0)"),
    (nn.SELU(), "SELU(scale=1.0507009873554805, alpha=1.6732632423543772)"),
    (nn.CELU(), "CELU(alpha=1.0)"), (nn.SiLU(), "Silu(inplace=False)"), (nn.Swish(), "Swish()"),
    (nn.Mish(), "Mish()"), (nn.Hardswish(), "Hardswish()"), (nn.Hardsigmoid(), "Hardsigmoid()"),
    (nn.Softplus(), "Softplus(beta=1, threshold=20)"), (nn.Softsign(), "Softsign()"),
    (nn.Softshrink(), "Softshrink(threshold=0.5)"), (nn.Hardshrink(), "Hardshrink(threshold=0.5)"),
    (nn.Tanhshrink(), "Tanhshrink()"),
    (nn.ThresholdedReLU(), "ThresholdedReLU(threshold=1.0, value=0.0)"),
    (nn.LogSigmoid(), "LogSigmoid()"), (nn.GLU(), "GLU(axis=-1)"), (nn.Softmax2D(), "Softmax2D()"),
    (nn.PReLU(), "PReLU(num_parameters=1, data_format=NCHW, init=0.25, dtype=float32)"),
    (nn.ELU(0.5, name="act"), "ELU(alpha=0.5, name=act)"),
]


@pytest.mark.parametrize("layer, text", REPRS, ids=[t for _, t in REPRS])
def test_layer_repr_is_paddles(layer, text):
    assert repr(layer) == text


@pytest.mark.parametrize("layer, fn", [
    (nn.ReLU6(), F.relu6), (nn.ELU(0.5), lambda x: F.elu(x, 0.5)), (nn.SELU(), F.selu),
    (nn.CELU(2.0), lambda x: F.celu(x, 2.0)), (nn.SiLU(), F.silu), (nn.Swish(), F.swish),
    (nn.Mish(), F.mish), (nn.Hardswish(), F.hardswish), (nn.Hardsigmoid(), F.hardsigmoid),
    (nn.Softplus(2, 1), lambda x: F.softplus(x, 2, 1)), (nn.Softsign(), F.softsign),
    (nn.Softshrink(0.3), lambda x: F.softshrink(x, 0.3)),
    (nn.Hardshrink(0.3), lambda x: F.hardshrink(x, 0.3)), (nn.Tanhshrink(), F.tanhshrink),
    (nn.ThresholdedReLU(0.2, 0.1), lambda x: F.thresholded_relu(x, 0.2, 0.1)),
    (nn.LogSigmoid(), F.log_sigmoid), (nn.GLU(0), lambda x: F.glu(x, 0)),
    (nn.Softmax2D(), lambda x: F.softmax(x, axis=-3)),
    (nn.PReLU(), lambda x: F.leaky_relu(x, 0.25)),
])
def test_layer_called_by_keyword_computes_its_function(layer, fn):
    x = pylayer.to_tensor(np.linspace(-3, 3, 24).reshape(2, 3, 2, 2).astype("float32"))
    np.testing.assert_allclose(layer(x=x).numpy(), fn(x).numpy(), rtol=1e-6)


def test_prelu_layer_has_one_weight_per_channel_initialised_to_init():
    layer = nn.PReLU(3, init=0.1, data_format="NHWC")
    assert list(layer.state_dict()) == ["_weight"]
    np.testing.assert_allclose(layer._weight.numpy(), [0.1, 0.1, 0.1], rtol=1e-6)
    assert layer(pylayer.ones([2, 4, 3])).shape == [2, 4, 3]
    with pytest.raises(ValueError, match="num_parameters"):
        nn.PReLU(0)


def test_a_small_model_with_the_layers_trains_and_round_trips(tmp_path):
    pylayer.seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.PReLU(8, data_format="NC"), nn.Linear(8, 8),
                          nn.SiLU(), nn.Linear(8, 8), nn.Mish(), nn.Linear(8, 8), nn.ELU(),
                          nn.Linear(8, 8), nn.Hardswish(), nn.Linear(8, 8), nn.GLU(),
                          nn.Linear(4, 1), nn.Softplus())
    x = pylayer.to_tensor(np.random.default_rng(0).normal(size=(16, 4)).astype("float32"))
    target = (x.sum(axis=1, keepdim=True) > 0).astype("float32")
    optimizer = pylayer.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    losses = []
    for _ in range(40):
        loss = F.mse_loss(model(x), target)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    assert not np.allclose(model[1]._weight.numpy(), 0.25)
    path = str(tmp_path / "model.pdparams")
    pylayer.save(model.state_dict(), path)
    copy = nn.Sequential(nn.Linear(4, 8), nn.PReLU(8, data_format="NC"), nn.Linear(8, 8),
                         nn.SiLU(), nn.Linear(8, 8), nn.Mish(), nn.Linear(8, 8), nn.ELU(),
                         nn.Linear(8, 8), nn.Hardswish(), nn.Linear(8, 8), nn.GLU(),
                         nn.Linear(4, 1), nn.Softplus())
    copy.set_state_dict(pylayer.load(path))
    np.testing.assert_array_equal(copy(x).numpy(), model(x).numpy())


# ------------------------------------------------- maxout, rrelu, swiglu, gumbel_softmax
def test_maxout_gives_the_gradient_to_every_tied_maximum_as_paddle_does():
    x = pylayer.to_tensor(np.array([1., 3., 3., 2.]).reshape(1, 4, 1, 1), stop_gradient=False)
    y = F.maxout(x, 2)
    y.sum().backward()
    np.testing.assert_array_equal(y.numpy().ravel(), [3., 3.])
    np.testing.assert_array_equal(x.grad.numpy().ravel(), [0., 1., 1., 0.])
    assert F.maxout(pylayer.ones([1, 2, 2, 4]), 2, axis=-1).shape == [1, 2, 2, 2]


@pytest.mark.parametrize("call, words", [
    (lambda: F.maxout(pylayer.ones([1, 4, 2, 2]), 3), "divisible"),
    (lambda: F.maxout(pylayer.ones([1, 4, 2, 2]), 2, axis=2), "axis"),
    (lambda: F.maxout(pylayer.ones([1, 4, 2, 2]), 1), "greater than 1"),
    (lambda: F.maxout(pylayer.ones([4, 2]), 2), "4-D"),
    (lambda: F.rrelu(pylayer.ones([2]), lower=-0.1), "lower"),
    (lambda: F.rrelu(pylayer.ones([2]), lower=0.5, upper=0.2), "greater than 'lower'"),
    (lambda: F.rrelu(pylayer.ones([2]), upper=1.5), "upper"),
    (lambda: F.swiglu(pylayer.ones([1, 3])), "even"),
    (lambda: F.gumbel_softmax(pylayer.ones([1, 3]), temperature=0.0), "temperature"),
    (lambda: F.gumbel_softmax(pylayer.ones([1, 3]), temperature=-1.0), "temperature"),
])
def test_paddles_rules_of_the_grouped_and_random_activations(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_swiglu_values_and_gradients_are_paddles():
    x = pylayer.to_tensor([[1., -2., 3., 4.]], stop_gradient=False)
    y = F.swiglu(x)
    y.sum().backward()
    np.testing.assert_allclose(y.numpy(), [[2.1931758, -0.95362335]], rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), [[2.7830117, -0.363137, 0.7310586, -0.23840584]],
                               rtol=1e-6)
    a, b = pylayer.to_tensor([1.0, -2.0]), pylayer.to_tensor([3.0, 4.0])
    np.testing.assert_allclose(F.swiglu(a, b).numpy(), y.numpy().ravel(), rtol=1e-6)


def test_rrelu_draws_slopes_in_training_and_uses_their_mean_otherwise():
    x = pylayer.to_tensor(-np.ones(1000, dtype="float32"), stop_gradient=False)
    pylayer.seed(3)
    y = F.rrelu(x, 0.1, 0.3)
    y.sum().backward()
    slopes = -y.numpy()
    assert 0.1 <= slopes.min() and slopes.max() < 0.3 and slopes.std() > 0.03
    np.testing.assert_allclose(x.grad.numpy(), slopes)
    pylayer.seed(3)
    np.testing.assert_array_equal(F.rrelu(x, 0.1, 0.3).numpy(), y.numpy())
    np.testing.assert_allclose(F.rrelu(pylayer.to_tensor([-1., -2., 3.]), training=False).numpy(),
                               [-0.22916667, -0.45833334, 3.], rtol=1e-6)
    layer = nn.RReLU(0.1, 0.3)
    assert not np.allclose(layer(x).numpy(), -0.2)
    layer.eval()
    np.testing.assert_allclose(layer(x=x).numpy(), -0.2, rtol=1e-6)
    assert repr(layer) == "RReLU(lower=0.1, upper=0.3, training=False, dtype=float32)"


def test_gumbel_softmax_is_a_seeded_distribution_and_hard_is_one_hot():
    x = pylayer.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    pylayer.seed(5)
    soft = F.gumbel_softmax(x, temperature=0.5)
    np.testing.assert_allclose(soft.numpy().sum(), 1.0, rtol=1e-6)
    pylayer.seed(5)
    hard = F.gumbel_softmax(x, temperature=0.5, hard=True)
    np.testing.assert_array_equal(hard.numpy(), np.eye(3)[[soft.numpy().argmax()]])
    (hard * pylayer.to_tensor([[1.0, 2.0, 3.0]])).sum().backward()
    assert np.abs(x.grad.numpy()).sum() > 0
    pylayer.seed(0)
    picks = [int(F.gumbel_softmax(pylayer.to_tensor([0.0, np.log(3.0)])).numpy().argmax())
             for _ in range(400)]
    assert 0.65 < np.mean(picks) < 0.85          # P(second) = 3/4


def test_maxout_layer():
    layer = nn.Maxout(2, axis=-1)
    assert repr(layer) == "Maxout(groups=2, axis=-1)"
    assert layer(x=pylayer.ones([1, 2, 2, 4])).shape == [1, 2, 2, 2]
