"""LBFGS against Paddle 3.3.1 (CPU).

``data/lbfgs_paddle.json`` holds, for each case of ``CASES``, what Paddle's
``paddle.optimizer.LBFGS`` gave after each ``step(closure)`` on the problem of
``problem`` below: the returned loss, the parameters, the state's ``func_evals`` and
``n_iter``, and how many times the closure ran. It was written by this same code run
with ``import paddle`` in place of ``import pylayer``.
"""
import json
import os

import numpy as np
import pytest

import pylayer
from pylayer.optimizer import LBFGS

EXPECTED = json.load(open(os.path.join(os.path.dirname(__file__), "data",
                                       "lbfgs_paddle.json")))

CASES = {
    "plain": dict(dtype="float64", steps=3, kw=dict(learning_rate=0.5, max_iter=5)),
    "wolfe": dict(dtype="float64", steps=2, kw=dict(learning_rate=1.0, history_size=4,
                                                   line_search_fn="strong_wolfe")),
    "wolfe_short": dict(dtype="float64", steps=3,
                        kw=dict(learning_rate=1.0, max_iter=4, max_eval=6,
                                line_search_fn="strong_wolfe")),
    "float32": dict(dtype="float32", steps=2, kw=dict(learning_rate=1.0, max_iter=10,
                                                     line_search_fn="strong_wolfe")),
}


def problem(dtype):
    w = pylayer.create_parameter([2], dtype)
    w.set_value(np.array([-1.2, 1.0], dtype))
    b = pylayer.create_parameter([3], dtype)
    b.set_value(np.array([0.5, -0.3, 2.0], dtype))
    c = pylayer.to_tensor(np.array([1.0, 2.0, -1.0], dtype))
    scale = pylayer.to_tensor(np.array([1.0, 3.0, 0.5], dtype))

    def loss_fn():
        rosen = (1 - w[0]) ** 2 + 10 * (w[1] - w[0] ** 2) ** 2
        return rosen + ((b - c) ** 2 * scale).sum() + 0.1 * (w.sum() * b.sum()) ** 2
    return w, b, loss_fn


def run(name):
    case = CASES[name]
    w, b, loss_fn = problem(case["dtype"])
    opt = LBFGS(parameters=[w, b], **case["kw"])
    calls = [0]

    def closure():
        calls[0] += 1
        opt.clear_grad()
        loss = loss_fn()
        loss.backward()
        return loss
    rows = []
    for _ in range(case["steps"]):
        ret = opt.step(closure)
        state = opt.state_dict()["state"]
        rows.append(dict(loss=float(ret), w=w.numpy().tolist(), b=b.numpy().tolist(),
                         func_evals=state["func_evals"], n_iter=state["n_iter"],
                         calls=calls[0]))
    return rows, opt


@pytest.mark.parametrize("name", sorted(CASES))
def test_trajectory_equals_paddles(name):
    tol = 1e-6 if CASES[name]["dtype"] == "float32" else 1e-12
    rows, _ = run(name)
    for found, expected in zip(rows, EXPECTED[name]):
        for key in ("func_evals", "n_iter", "calls"):
            assert found[key] == expected[key], key
        np.testing.assert_allclose(found["loss"], expected["loss"], rtol=tol)
        np.testing.assert_allclose(found["w"], expected["w"], rtol=0, atol=tol)
        np.testing.assert_allclose(found["b"], expected["b"], rtol=0, atol=tol)


def test_state_dict_resumes_the_same_trajectory():
    settings = CASES["wolfe_short"]["kw"]
    models = [problem("float64") for _ in range(2)]
    opts = [LBFGS(parameters=[w, b], **settings) for w, b, _ in models]

    def closure_for(opt, loss_fn):
        def closure():
            opt.clear_grad()
            loss = loss_fn()
            loss.backward()
            return loss
        return closure
    for _ in range(2):
        opts[0].step(closure_for(opts[0], models[0][2]))
    # the second model takes the first's values and state, then both step once more
    for source, target in zip(models[0][:2], models[1][:2]):
        target.set_value(source.numpy())
    opts[1].set_state_dict(opts[0].state_dict())
    assert opts[1].state_dict()["state"]["n_iter"] == 8
    for opt, model in zip(opts, models):
        opt.step(closure_for(opt, model[2]))
    np.testing.assert_array_equal(models[1][0].numpy(), models[0][0].numpy())
    np.testing.assert_allclose(models[0][0].numpy(), EXPECTED["wolfe_short"][2]["w"],
                               rtol=0, atol=1e-12)


def test_converged_start_returns_at_once_and_minimize_is_refused():
    w = pylayer.create_parameter([1], "float64", is_bias=True)
    opt = LBFGS(parameters=[w])
    calls = []

    def closure():
        calls.append(1)
        opt.clear_grad()
        loss = (w * 0.0).sum()
        loss.backward()
        return loss
    assert float(opt.step(closure)) == 0.0 and len(calls) == 1
    with pytest.raises(NotImplementedError, match="step"):
        opt.minimize(closure())


def test_argument_refusals():
    w = pylayer.create_parameter([1], "float64")
    with pytest.raises(TypeError, match="parameters"):
        LBFGS(parameters=w)
    with pytest.raises(ValueError, match="line_search_fn"):
        LBFGS(parameters=[w], line_search_fn="backtracking")
    with pytest.raises(ValueError, match="max_iter"):
        LBFGS(parameters=[w], max_iter=0)
    with pytest.raises(ValueError, match="one parameter group"):
        LBFGS(parameters=[{"params": [w]}, {"params": [pylayer.create_parameter([1],
                                                                               "float64")]}])
    opt = LBFGS(parameters=[w])
    with pytest.raises(TypeError, match="closure"):
        opt.step(3)
    with pytest.raises(TypeError, match="Tensor"):
        opt.step(lambda: 1.0)
