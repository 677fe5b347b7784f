"""SGD and Adam against hand-computed numpy updates; clipping, decay, minimize, training."""
import numpy as np
import pytest

import pylayer
from pylayer import nn, static
from pylayer.nn import initializer as I
from pylayer.optimizer import SGD, Adam


def param(values, dtype="float64", **attr):
    values = np.asarray(values, dtype=dtype)
    p = pylayer.create_parameter(list(values.shape), dtype, attr=pylayer.ParamAttr(**attr))
    with pylayer.no_grad():
        p.set_value(values)
    return p


def set_grad(p, values):
    p.grad = pylayer.to_tensor(np.asarray(values, dtype=p.numpy().dtype))


def test_sgd_single_step_in_place():
    p = param([1.0, -2.0, 3.0])
    array, version = p.numpy(), p.inplace_version
    set_grad(p, [0.5, 0.5, -1.0])
    SGD(learning_rate=0.1, parameters=[p]).step()
    np.testing.assert_allclose(p.numpy(), [0.95, -2.05, 3.1])
    assert p.numpy() is array and p.inplace_version == version + 1
    assert p.is_leaf and not p.stop_gradient


def test_sgd_weight_decay_lr_factor_and_regularizer():
    p = param([1.0, 2.0], learning_rate=0.5)
    set_grad(p, [1.0, 1.0])
    SGD(learning_rate=0.1, parameters=[p], weight_decay=0.01).step()
    np.testing.assert_allclose(p.numpy(), [1.0, 2.0] - 0.05 * (1 + 0.01 * np.array([1.0, 2.0])))
    q = param([1.0], regularizer=0.5)
    set_grad(q, [0.0])
    SGD(learning_rate=1.0, parameters=[q], weight_decay=0.01).step()
    np.testing.assert_allclose(q.numpy(), [0.5])


def adam_reference(p, grads, lr, b1=0.9, b2=0.999, eps=1e-8):
    m = np.zeros_like(p)
    v = np.zeros_like(p)
    for t, g in enumerate(grads, start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1 ** t)
        v_hat = v / (1 - b2 ** t)
        p = p - lr * m_hat / (np.sqrt(v_hat) + eps)
    return p


def test_adam_steps_match_textbook_formula():
    start = np.array([0.5, -1.5, 2.0])
    p = param(start)
    opt = Adam(learning_rate=0.01, beta1=0.8, beta2=0.99, epsilon=1e-6, parameters=[p])
    grads = [np.array([0.1, -0.3, 2.0]), np.array([-0.2, 0.4, 1.0]), np.array([0.0, 0.1, -3.0])]
    for step, g in enumerate(grads, start=1):
        set_grad(p, g)
        opt.step()
        np.testing.assert_allclose(p.numpy(), adam_reference(start, grads[:step], 0.01, 0.8,
                                                             0.99, 1e-6), rtol=1e-12)
    state = opt.state_dict()
    assert state[f"{p.name}_beta1_pow_acc_0"].numpy().tolist() == pytest.approx([0.8 ** 4])


def test_adam_first_step_is_lr_times_sign():
    p = param([1.0, 1.0], dtype="float32")
    set_grad(p, [3.0, -0.01])
    Adam(learning_rate=0.1, parameters=[p]).step()
    np.testing.assert_allclose(p.numpy(), [0.9, 1.1], rtol=1e-5)
    assert p.dtype == "float32"


def test_adam_amsgrad_uses_running_max():
    start = np.array([1.0])
    p = param(start)
    opt = Adam(learning_rate=0.1, parameters=[p], amsgrad=True)
    for g in (10.0, 0.1):
        set_grad(p, [g])
        opt.step()
    m = 0.9 * 0.1 * 10 + 0.1 * 0.1
    v_max = 0.001 * 100
    expected_second = (start - 0.1 * 1.0) - 0.1 * np.sqrt(1 - 0.999 ** 2) / (1 - 0.81) * m / (
        np.sqrt(v_max) + 1e-8 * np.sqrt(1 - 0.999 ** 2))
    np.testing.assert_allclose(p.numpy(), expected_second, rtol=1e-6)


def test_step_skips_parameters_without_grad_or_frozen():
    a, b = param([1.0]), param([1.0], trainable=False)
    set_grad(b, [1.0])
    SGD(learning_rate=1.0, parameters=[a, b]).step()
    np.testing.assert_array_equal(a.numpy(), [1.0])
    np.testing.assert_array_equal(b.numpy(), [1.0])
    assert a.inplace_version == b.inplace_version


def test_clear_grad_to_zero_or_none():
    p = param([1.0, 2.0])
    opt = SGD(parameters=[p])
    (p * p).sum().backward()
    opt.clear_grad()
    np.testing.assert_array_equal(p.grad.numpy(), [0.0, 0.0])
    opt.clear_grad(set_to_zero=False)
    assert p.grad is None


def test_grad_clip_global_norm_before_update():
    a, b = param([0.0]), param([0.0])
    set_grad(a, [3.0])
    set_grad(b, [4.0])
    SGD(learning_rate=1.0, parameters=[a, b], grad_clip=nn.ClipGradByGlobalNorm(1.0)).step()
    np.testing.assert_allclose([a.item(), b.item()], [-0.6, -0.8])
    c = param([0.0], need_clip=False)
    set_grad(c, [5.0])
    SGD(learning_rate=1.0, parameters=[c], grad_clip=nn.ClipGradByValue(1.0)).step()
    assert c.item() == -5.0


def test_minimize_in_dynamic_mode_applies_the_gradients_already_computed():
    # As Paddle 3.3.1: `loss.backward(); opt.minimize(loss)` updates once with the
    # gradients there, keeps them, and returns ([], [(param, grad), ...]).
    p = param([2.0])
    opt = SGD(learning_rate=0.25, parameters=[p])
    loss = (p * p).sum()
    loss.backward()
    ops, params_grads = opt.minimize(loss)
    assert ops == [] and params_grads[0][0] is p and params_grads[0][1] is p.grad
    np.testing.assert_allclose(p.numpy(), [1.0])
    np.testing.assert_allclose(p.grad.numpy(), [4.0])
    q = param([2.0])
    opt2 = SGD(learning_rate=0.25, parameters=[p, q])
    opt2.clear_grad(set_to_zero=False)
    loss = (p * q).sum()
    loss.backward()
    opt2.minimize(loss, no_grad_set={q.name})
    np.testing.assert_allclose([p.item(), q.item()], [0.5, 2.0])


def test_minimize_without_backward_updates_nothing_and_says_so():
    p = param([2.0])
    opt = Adam(learning_rate=0.1, parameters=[p])
    with pytest.warns(RuntimeWarning, match=r"minimize\(\): no parameter has a gradient.*"
                                            r"loss\.backward\(\) before minimize"):
        assert opt.minimize((p * p).sum()) == ([], [])
    assert p.numpy().tolist() == [2.0] and p.grad is None


def test_minimize_of_a_variable_loss_delegates_to_static(monkeypatch):
    from pylayer.optimizer import optimizer
    calls = []
    monkeypatch.setattr(optimizer, "static_minimize",
                        lambda opt, loss, parameters=None, no_grad_set=None:
                        calls.append((opt, loss, parameters, no_grad_set)) or "done")
    opt = SGD(learning_rate=0.5, parameters=[param([1.0])])
    with static.program_guard(static.Program()):
        loss = static.data("loss", [1], "float32")
    assert opt.minimize(loss, no_grad_set={"x"}) == "done"
    assert calls == [(opt, loss, None, {"x"})]


def test_parameters_may_be_omitted_in_static_mode_only():
    with pytest.raises(ValueError, match="'parameters' is required in dynamic mode"):
        SGD(learning_rate=0.5)
    pylayer.enable_static()
    try:
        assert SGD(learning_rate=0.5).get_lr() == 0.5
    finally:
        pylayer.disable_static()


def test_hyper_parameters_are_readable():
    opt = Adam(learning_rate=0.02, beta1=0.5, parameters=[param([1.0])])
    assert opt._learning_rate == opt.get_lr() == 0.02 and opt._beta1 == 0.5
    opt.set_lr(0.1)
    assert opt.get_lr() == 0.1


def test_optimizer_state_dict_round_trip():
    p = param([1.0, 2.0])
    opt = Adam(learning_rate=0.1, parameters=[p])
    set_grad(p, [1.0, -1.0])
    opt.step()
    saved = opt.state_dict()
    # Paddle's keys and values: Tensors named like the keys, no plain learning rate.
    assert sorted(saved) == sorted(f"{p.name}_{acc}_0" for acc in
                                   ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"))
    assert all(isinstance(v, pylayer.Tensor) and v.name == k for k, v in saved.items())
    assert saved[f"{p.name}_beta2_pow_acc_0"].shape == [1]
    q = param([1.0, 2.0])
    q.name = p.name
    other = Adam(learning_rate=0.1, parameters=[q])
    other.set_state_dict(saved)
    set_grad(p, [0.5, 0.5])
    set_grad(q, [0.5, 0.5])
    with pylayer.no_grad():
        q.set_value(p.numpy())
    opt.step()
    other.step()
    np.testing.assert_allclose(q.numpy(), p.numpy())


def test_argument_errors():
    with pytest.raises(ValueError, match="parameters"):
        SGD(learning_rate=0.1)
    with pytest.raises(ValueError, match="'params'"):
        SGD(parameters=[{"learning_rate": 0.5}])
    with pytest.raises(ValueError, match="learning_rate"):
        SGD(learning_rate=-1.0, parameters=[])
    with pytest.raises(ValueError, match="beta1"):
        Adam(beta1=1.0, parameters=[])
    with pytest.raises(TypeError, match="grad_clip"):
        SGD(parameters=[], grad_clip=1.0)


def test_tiny_mlp_loss_falls_over_50_sgd_steps():
    pylayer.seed(0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal([64, 3]).astype(np.float32)
    y = (np.sin(x[:, :1]) + 0.5 * x[:, 1:2] * x[:, 2:3]).astype(np.float32)
    model = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = SGD(learning_rate=0.1, parameters=model.parameters())
    inputs, targets = pylayer.to_tensor(x), pylayer.to_tensor(y)
    losses = []
    for _ in range(50):
        loss = nn.functional.mse_loss(model(inputs), targets)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
    assert all(np.isfinite(losses))


def test_classifier_with_adam_and_cross_entropy():
    pylayer.seed(1)
    rng = np.random.default_rng(1)
    x = rng.standard_normal([90, 2]).astype(np.float32)
    labels = (x[:, 0] > 0).astype(np.int64) + (x[:, 1] > 0)
    model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))
    opt = Adam(learning_rate=0.05, parameters=model.parameters())
    loss_fn = nn.CrossEntropyLoss()
    first = None
    for _ in range(40):
        loss = loss_fn(model(pylayer.to_tensor(x)), pylayer.to_tensor(labels))
        first = loss.item() if first is None else first
        loss.backward()
        opt.minimize(loss)
        opt.clear_grad()
    assert loss.item() < 0.5 * first
    accuracy = (model(pylayer.to_tensor(x)).numpy().argmax(1) == labels).mean()
    assert accuracy > 0.85
