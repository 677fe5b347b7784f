"""Parameter groups: ``parameters=[{'params': [...], 'learning_rate': ..., ...}, ...]``.

``data/groups_paddle.json`` holds Paddle 3.3.1's (CPU) parameters after each of three
steps of every optimizer on the problem of ``run`` below, written by this same code
run with ``import paddle`` in place of ``import pylayer`` (``json.dump`` of
``run(name)`` for each name of ``OVERRIDES``). It shows that a group's
``learning_rate`` multiplies the optimizer's, that its ``weight_decay`` is an L2 term
(AdamW's decoupled coefficient instead), that the settings of ``OVERRIDES`` apply to
the group only, and that Rprop starts its step sizes at the optimizer's rate without
the group's factor.
"""
import json
import os

import numpy as np
import pytest

import pylayer
from pylayer import optimizer

EXPECTED = json.load(open(os.path.join(os.path.dirname(__file__), "data",
                                       "groups_paddle.json")))

OVERRIDES = {
    "SGD": {}, "Momentum": {"momentum": 0.5}, "Adam": {"beta1": 0.8},
    "AdamW": {"beta2": 0.99, "weight_decay": 0.05}, "Adamax": {"beta1": 0.8},
    "Adagrad": {"epsilon": 1e-3}, "Adadelta": {"rho": 0.9},
    "RMSProp": {"rho": 0.9, "momentum": 0.3}, "Lamb": {"lamb_weight_decay": 0.05},
    "NAdam": {"momentum_decay": 0.01}, "RAdam": {"beta1": 0.8}, "ASGD": {}, "Rprop": {},
}


def params():
    w1 = pylayer.create_parameter([3], "float32")
    w1.set_value(np.array([0.5, -1.0, 2.0], "float32"))
    w2 = pylayer.create_parameter([2, 2], "float32")
    w2.set_value(np.array([[1.0, -0.5], [0.25, 3.0]], "float32"))
    return w1, w2


def loss_of(w1, w2):
    c = pylayer.to_tensor(np.array([[1.0, 2.0], [-1.0, 0.5]], "float32"))
    return (w1 * w1 * w1).sum() / 3 + (w2 * w2 * c).sum() + (w1.sum() * w2.sum())


def run(name):
    w1, w2 = params()
    kw = dict(learning_rate=0.1)
    if name == "ASGD":
        kw["batch_num"] = 2
    groups = [dict(params=[w1], learning_rate=0.5, **OVERRIDES[name]),
              dict(params=[w2], weight_decay=0.1)]
    opt = getattr(optimizer, name)(parameters=groups, **kw)
    out = []
    for _ in range(3):
        loss_of(w1, w2).backward()
        opt.step()
        opt.clear_grad()
        out.append([w1.numpy().tolist(), w2.numpy().tolist()])
    return out


@pytest.mark.parametrize("name", sorted(OVERRIDES))
def test_groups_follow_paddles_trajectory(name):
    for found, expected in zip(run(name), EXPECTED[name]):
        for f, e in zip(found, expected):
            np.testing.assert_allclose(f, e, rtol=1e-6, atol=1e-6)


def test_group_learning_rate_is_a_factor_that_replaces_the_parameters_own():
    w = pylayer.create_parameter([1], "float64", attr=pylayer.ParamAttr(learning_rate=2.0))
    w.set_value(np.array([1.0]))
    opt = optimizer.SGD(learning_rate=0.1, parameters=[{"params": w}])
    (w * 3.0).sum().backward()
    opt.step()
    np.testing.assert_allclose(w.numpy(), [0.7])      # 1 - 0.1 * 1.0 * 3, as Paddle
    other = pylayer.create_parameter([1], "float64")
    other.set_value(np.array([1.0]))
    opt = optimizer.SGD(learning_rate=0.1, parameters=[{"params": [other],
                                                        "learning_rate": 0.25}])
    (other * 4.0).sum().backward()
    opt.step()
    np.testing.assert_allclose(other.numpy(), [0.9])


def test_group_grad_clip_and_the_optimizers_defaults():
    w1, w2 = params()
    opt = optimizer.SGD(learning_rate=1.0, grad_clip=pylayer.nn.ClipGradByValue(0.5),
                        parameters=[{"params": [w1], "grad_clip": None}, {"params": [w2]}])
    (w1.sum() * 2 + w2.sum() * 2).backward()
    opt.step()
    np.testing.assert_allclose(w1.numpy(), [-1.5, -3.0, 0.0])        # not clipped
    np.testing.assert_allclose(w2.numpy(), [[0.5, -1.0], [-0.25, 2.5]])   # clipped to 0.5
    assert len(opt._parameter_list) == 2
    opt.clear_grad()
    assert float(w1.grad.abs().sum()) == 0.0


def test_group_state_dict_round_trips():
    w1, w2 = params()
    opt = optimizer.Adam(learning_rate=0.1, parameters=[{"params": [w1], "beta1": 0.5},
                                                        {"params": [w2]}])
    loss_of(w1, w2).backward()
    opt.step()
    again = optimizer.Adam(learning_rate=0.1, parameters=[{"params": [w1], "beta1": 0.5},
                                                          {"params": [w2]}])
    again.set_state_dict(opt.state_dict())
    assert sorted(again.state_dict()) == sorted(opt.state_dict())
    # beta1 ** t of the first group starts from the group's beta1
    assert float(opt.state_dict()[f"{w1.name}_beta1_pow_acc_0"]) == pytest.approx(0.25)
    assert float(opt.state_dict()[f"{w2.name}_beta1_pow_acc_0"]) == pytest.approx(0.81)


def test_minimize_updates_each_group_with_its_settings():
    w1, w2 = params()
    opt = optimizer.SGD(learning_rate=0.1, parameters=[{"params": [w1], "learning_rate": 0.0},
                                                       {"params": [w2]}])
    before = w1.numpy().copy()
    loss = loss_of(w1, w2)
    loss.backward()
    _, pairs = opt.minimize(loss)
    assert [p for p, _ in pairs] == [w1, w2]
    np.testing.assert_array_equal(w1.numpy(), before)
    assert not np.array_equal(w2.numpy(), params()[1].numpy())


def test_group_refusals():
    w1, w2 = params()
    with pytest.raises(ValueError, match="'params'"):
        optimizer.Adam(parameters=[{"learning_rate": 0.1}])
    with pytest.raises(TypeError, match="set"):
        optimizer.Adam(parameters=[{"params": {w1}}])
    with pytest.raises(ValueError, match="more than one"):
        optimizer.Adam(parameters=[{"params": [w1]}, {"params": [w1, w2]}])
    with pytest.raises(TypeError, match="only parameter groups"):
        optimizer.Adam(parameters=[{"params": [w1]}, w2])
    with pytest.raises(ValueError, match="beta1"):
        optimizer.Adam(parameters=[{"params": [w1], "beta1": 1.5}])
    with pytest.raises(TypeError, match="grad_clip"):
        optimizer.Adam(parameters=[{"params": [w1], "grad_clip": 3}])
    with pytest.raises(ValueError, match="learning_rate"):
        optimizer.Adam(parameters=[{"params": [w1], "learning_rate": -1.0}])
    # keys Paddle does not read are ignored, as in Paddle
    optimizer.Adam(parameters=[{"params": [w1], "amsgrad": True, "name": "g"}])
