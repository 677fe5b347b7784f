"""``pylayer.incubate.LookAhead`` and ``ModelAverage`` against Paddle 3.3.1.

``data/incubate_optimizers_paddle.json`` was recorded with the scratch Paddle 3.3.1 (CPU):
a ``Linear(3, 2)`` from fixed weights, the mean squared error on four fixed rows, run
for 9 steps of ``LookAhead(Momentum(0.1))`` (several ``alpha``, ``k``) and 12 steps of
``SGD(0.1)`` followed by ``ModelAverage.step()`` (several windows), in float32 and
float64: the parameters after each step (LookAhead), the averaged parameters inside
``apply()`` and the counters after each step (ModelAverage), the parameters after the
last ``apply()`` block, and the ``state_dict()`` keys (parameter names as W and B).
"""
import json
import pathlib

import numpy as np
import pytest

import pylayer

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" /
                       "incubate_optimizers_paddle.json").read_text())
W0 = [[0.5, -0.3], [0.2, 0.8], [-0.6, 0.1]]
B0 = [0.1, -0.2]
X = [[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [0.3, -0.7, 1.1], [2.0, 1.0, -1.0]]
Y = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, -1.0]]


def model(dtype):
    before = pylayer.get_default_dtype()
    pylayer.set_default_dtype(dtype)
    try:
        layer = pylayer.nn.Linear(3, 2)
    finally:
        pylayer.set_default_dtype(before)
    with pylayer.no_grad():
        layer.weight.set_value(np.array(W0, dtype))
        layer.bias.set_value(np.array(B0, dtype))
    return layer


def loss(layer, dtype):
    x, y = pylayer.to_tensor(np.array(X, dtype)), pylayer.to_tensor(np.array(Y, dtype))
    return ((layer(x) - y) ** 2).mean()


def keys(state, layer):
    return sorted(k.replace(layer.weight.name, "W").replace(layer.bias.name, "B") for k in state)


def close(found, expected, dtype):
    atol = 1e-12 if dtype == "float64" else 2e-6
    np.testing.assert_allclose(np.array(found, dtype="float64"), expected, rtol=0, atol=atol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("alpha,k", [(0.5, 3), (0.8, 1), (0.25, 4)])
def test_lookahead_follows_paddles_trajectory(dtype, alpha, k):
    expected = RECORDED[f"lookahead-{dtype}-{alpha}-{k}"]
    layer = model(dtype)
    opt = pylayer.incubate.LookAhead(
        pylayer.optimizer.Momentum(0.1, parameters=layer.parameters()), alpha=alpha, k=k)
    for step, (weight, bias) in enumerate(expected["params"]):
        loss(layer, dtype).backward()
        opt.step()
        opt.clear_grad()
        close(layer.weight.numpy(), weight, dtype)
        close(layer.bias.numpy(), bias, dtype)
    state = opt.state_dict()
    assert keys(state, layer) == expected["keys"]
    close(state[layer.weight.name + "_slow_0"].numpy(), expected["slow_weight"], dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("rate,smallest,largest", [(0.15, 2, 4), (0.5, 3, 5)])
def test_model_average_follows_paddles_windows_and_averages(dtype, rate, smallest, largest):
    expected = RECORDED[f"model_average-{dtype}-{rate}-{smallest}-{largest}"]
    layer = model(dtype)
    sgd = pylayer.optimizer.SGD(0.1, parameters=layer.parameters())
    average = pylayer.incubate.ModelAverage(rate, parameters=layer.parameters(),
                                            min_average_window=smallest,
                                            max_average_window=largest)
    for (weight, bias), counters in zip(expected["averages"], expected["counters"]):
        loss(layer, dtype).backward()
        sgd.step()
        average.step()
        sgd.clear_grad()
        state = average.state_dict()
        assert [int(state[f"{layer.weight.name}_{key}_0"].numpy()[0]) for key in
                ("num_accumulates", "old_num_accumulates", "num_updates")] == counters
        trained = layer.weight.numpy().copy()
        with average.apply():
            # Paddle averages in float32, whatever the parameter's dtype.
            np.testing.assert_allclose(layer.weight.numpy(), weight, rtol=0, atol=2e-6)
            np.testing.assert_allclose(layer.bias.numpy(), bias, rtol=0, atol=2e-6)
        np.testing.assert_array_equal(layer.weight.numpy(), trained)
    close(layer.weight.numpy(), expected["final"][0], dtype)
    assert keys(average.state_dict(), layer) == expected["keys"]


def test_model_average_apply_without_restore_keeps_the_average_until_restore():
    w = pylayer.create_parameter([2], "float32")
    sgd = pylayer.optimizer.SGD(0.5, parameters=[w])
    average = pylayer.incubate.ModelAverage(0.5, parameters=[w], min_average_window=1,
                                            max_average_window=3)
    for _ in range(3):
        (w * w).sum().backward(); sgd.step(); average.step(); sgd.clear_grad()
    trained = w.numpy().copy()
    with average.apply(need_restore=False):
        averaged = w.numpy().copy()
    np.testing.assert_array_equal(w.numpy(), averaged)
    average.restore()
    np.testing.assert_array_equal(w.numpy(), trained)


def test_lookahead_state_dict_round_trips_through_save_and_load(tmp_path):
    layer = model("float32")
    opt = pylayer.incubate.LookAhead(pylayer.optimizer.SGD(0.1, parameters=layer.parameters()),
                                     alpha=0.5, k=2)
    for _ in range(3):
        loss(layer, "float32").backward(); opt.step(); opt.clear_grad()
    pylayer.save(opt.state_dict(), str(tmp_path / "opt.pdopt"))
    again = pylayer.incubate.LookAhead(pylayer.optimizer.SGD(0.1, parameters=layer.parameters()),
                                       alpha=0.5, k=2)
    again.set_state_dict(pylayer.load(str(tmp_path / "opt.pdopt")))
    for key, value in opt.state_dict().items():
        np.testing.assert_array_equal(again.state_dict()[key].numpy(), value.numpy())


def test_a_small_model_trains_with_lookahead_and_evaluates_with_its_average():
    layer = model("float32")
    opt = pylayer.incubate.LookAhead(pylayer.optimizer.Adam(0.05, parameters=layer.parameters()))
    average = pylayer.incubate.ModelAverage(0.3, parameters=layer.parameters(),
                                            min_average_window=2, max_average_window=5)
    first = float(loss(layer, "float32"))
    for _ in range(40):
        loss(layer, "float32").backward(); opt.step(); average.step(); opt.clear_grad()
    assert float(loss(layer, "float32")) < first / 2
    with average.apply():
        assert float(loss(layer, "float32")) < first


@pytest.mark.parametrize("kwargs,error", [
    ({"alpha": 1.5}, ValueError), ({"alpha": "a"}, TypeError), ({"k": 0}, ValueError),
    ({"k": 2.0}, TypeError)])
def test_lookahead_refuses_bad_settings(kwargs, error):
    inner = pylayer.optimizer.SGD(0.1, parameters=model("float32").parameters())
    with pytest.raises(error, match="LookAhead"):
        pylayer.incubate.LookAhead(inner, **kwargs)
    with pytest.raises(TypeError, match="inner_optimizer"):
        pylayer.incubate.LookAhead(None)
