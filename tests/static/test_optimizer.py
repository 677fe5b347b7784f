"""``optimizer.minimize`` in static mode: the same training as dynamic mode."""
import numpy as np
import pytest

import pylayer as paddle

DATA = np.random.default_rng(5).standard_normal([8, 3]).astype("float32")
TARGET = np.random.default_rng(6).standard_normal([8, 1]).astype("float32")


def build_static(make_optimizer, hidden_attr=None):
    x = paddle.static.data("x", [-1, 3], "float32")
    t = paddle.static.data("t", [-1, 1], "float32")
    h = paddle.static.nn.fc(x, 4, activation="tanh", name="hidden", weight_attr=hidden_attr)
    y = paddle.static.nn.fc(h, 1, name="out")
    loss = paddle.mean(paddle.square(y - t))
    result = make_optimizer(None).minimize(loss)
    return loss, result


def train_static(make_optimizer, steps, exe, hidden_attr=None):
    main, startup = paddle.static.default_main_program(), paddle.static.default_startup_program()
    loss, _ = build_static(make_optimizer, hidden_attr)
    exe.run(startup)
    scope = paddle.static.global_scope()
    start = {p.name: np.array(scope.find_var(p.name).get_tensor()) for p in main.all_parameters()}
    losses = [exe.run(main, feed={"x": DATA, "t": TARGET}, fetch_list=[loss])[0]
              for _ in range(steps)]
    return np.array(losses), start


def train_dynamic(make_optimizer, steps, start):
    params = {}
    for name, value in start.items():
        params[name] = paddle.create_parameter(list(value.shape), "float32", name=name)
        with paddle.no_grad():
            params[name].set_value(value)
    optimizer = make_optimizer(list(params.values()))
    losses = []
    for _ in range(steps):
        x, t = paddle.to_tensor(DATA), paddle.to_tensor(TARGET)
        h = paddle.tanh(paddle.matmul(x, params["hidden.w_0"]) + params["hidden.b_0"])
        y = paddle.matmul(h, params["out.w_0"]) + params["out.b_0"]
        loss = paddle.mean(paddle.square(y - t))
        losses.append(loss.numpy().copy())
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    return np.array(losses)


@pytest.mark.parametrize("make_optimizer", [
    lambda ps: paddle.optimizer.SGD(learning_rate=0.1, parameters=ps),
    lambda ps: paddle.optimizer.SGD(learning_rate=0.1, parameters=ps, weight_decay=0.05),
    lambda ps: paddle.optimizer.Adam(learning_rate=0.05, parameters=ps),
], ids=["sgd", "sgd-weight-decay", "adam"])
def test_static_training_equals_dynamic_training(make_optimizer, static, exe):
    static_losses, start = train_static(make_optimizer, 6, exe)
    paddle.disable_static()
    dynamic_losses = train_dynamic(make_optimizer, 6, start)
    np.testing.assert_array_equal(static_losses, dynamic_losses)
    assert static_losses[-1] < static_losses[0]


def test_minimize_returns_the_update_op_and_the_pairs(static):
    main, startup = static
    loss, (ops, pairs) = build_static(lambda ps: paddle.optimizer.SGD(0.1))
    assert [op.role for op in ops] == ["optimize"] and ops[0].type == "sgd"
    assert ops[0] is main.global_block().ops[-1]
    assert [(p.name, g.name) for p, g in pairs] == [
        ("hidden.w_0", "hidden.w_0@GRAD"), ("hidden.b_0", "hidden.b_0@GRAD"),
        ("out.w_0", "out.w_0@GRAD"), ("out.b_0", "out.b_0@GRAD")]
    assert "sgd(hidden.w_0" in str(main)


def test_running_startup_again_restarts_training(static, exe):
    main, startup = static
    paddle.seed(11)
    first, _ = train_static(lambda ps: paddle.optimizer.Adam(0.05), 4, exe)
    paddle.seed(11)
    exe.run(startup)
    again = [exe.run(main, feed={"x": DATA, "t": TARGET},
                     fetch_list=[main.global_block().ops[-3].outputs[0]])[0] for _ in range(4)]
    np.testing.assert_array_equal(first, again)


def test_frozen_and_slow_parameters(static, exe):
    main, startup = static
    frozen = paddle.ParamAttr(learning_rate=0.0)
    loss, (ops, pairs) = build_static(lambda ps: paddle.optimizer.SGD(0.1), hidden_attr=frozen)
    exe.run(startup)
    scope = paddle.static.global_scope()
    before = {n: np.array(scope.find_var(n).get_tensor()) for n in ("hidden.w_0", "out.w_0")}
    exe.run(main, feed={"x": DATA, "t": TARGET})
    np.testing.assert_array_equal(np.array(scope.find_var("hidden.w_0").get_tensor()),
                                  before["hidden.w_0"])
    assert not np.array_equal(np.array(scope.find_var("out.w_0").get_tensor()), before["out.w_0"])


def test_untrainable_parameters_are_not_updated(static, exe):
    main, startup = static
    fixed = paddle.ParamAttr(trainable=False)
    loss, (ops, pairs) = build_static(lambda ps: paddle.optimizer.SGD(0.1), hidden_attr=fixed)
    assert "hidden.w_0" not in [p.name for p, _ in pairs]
    exe.run(startup)
    scope = paddle.static.global_scope()
    before = np.array(scope.find_var("hidden.w_0").get_tensor())
    exe.run(main, feed={"x": DATA, "t": TARGET})
    np.testing.assert_array_equal(np.array(scope.find_var("hidden.w_0").get_tensor()), before)


def test_a_test_clone_does_not_train(static, exe):
    main, startup = static
    loss, _ = build_static(lambda ps: paddle.optimizer.SGD(0.1))
    evaluation = main.clone(for_test=True)
    exe.run(startup)
    feed = {"x": DATA, "t": TARGET}
    first = exe.run(evaluation, feed=feed, fetch_list=[loss.name])[0]
    assert exe.run(evaluation, feed=feed, fetch_list=[loss.name])[0] == first
    exe.run(main, feed=feed)
    assert exe.run(evaluation, feed=feed, fetch_list=[loss.name])[0] < first


def test_fetched_parameters_do_not_change_afterwards(static, exe):
    main, startup = static
    loss, _ = build_static(lambda ps: paddle.optimizer.SGD(0.1))
    exe.run(startup)
    w, = exe.run(main, feed={"x": DATA, "t": TARGET}, fetch_list=["out.w_0"])
    kept = w.copy()
    exe.run(main, feed={"x": DATA, "t": TARGET})
    np.testing.assert_array_equal(w, kept)


def test_minimize_dispatches_on_the_type_of_the_loss(static):
    main, _ = static
    # A Tensor loss is trained at once, even in static mode: it needs parameters.
    # (Tensors made without an op: in static mode a creation op records.)
    with pytest.raises(ValueError, match="SGD: there are no parameters.*parameters="):
        paddle.optimizer.SGD(0.1).minimize(paddle.Tensor(np.ones(1)))
    w = paddle.Tensor(np.array([1.0]), stop_gradient=False)
    loss = (w * 2.0).sum()
    loss.backward()
    paddle.optimizer.SGD(0.5, parameters=[w]).minimize(loss)
    assert w.numpy().tolist() == [0.0] and main.global_block().ops == []
    with pytest.raises(TypeError, match="'loss' must be a Tensor or a static Variable"):
        paddle.optimizer.SGD(0.1, parameters=[w]).minimize(3.0)
