"""``gradients`` and ``append_backward`` against the dynamic engine."""
import numpy as np
import pytest

import pylayer as paddle

RNG = np.random.default_rng(3)
X = RNG.standard_normal([4, 3])
W = RNG.standard_normal([3, 2])


def dynamic_grads(build, values, wrt, grad_outputs=None):
    # Tensors made without an op: in static mode a creation op records into the Program.
    tensors = {k: paddle.Tensor(v, stop_gradient=k not in wrt) for k, v in values.items()}
    outputs = build(tensors)
    return [g.numpy() for g in paddle.grad(outputs, [tensors[k] for k in wrt], grad_outputs)]


def static_data(values, wrt):
    variables = {}
    for name, value in values.items():
        variables[name] = paddle.static.data(name, list(value.shape), str(value.dtype))
        variables[name].stop_gradient = name not in wrt
    return variables


def test_gradients_match_the_dynamic_engine(static, exe):
    def build(v):
        return paddle.sum(paddle.tanh(paddle.matmul(v["x"], v["w"])) * 3.0)

    values = {"x": X, "w": W}
    expected = dynamic_grads(build, values, ["x", "w"])
    variables = static_data(values, ["x", "w"])
    dx, dw = paddle.static.gradients(build(variables), [variables["x"], variables["w"]])
    assert (dx.name, dx.shape, dx.dtype) == ("x@GRAD", [4, 3], paddle.float64)
    assert dw.name == "w@GRAD"
    got = exe.run(feed=values, fetch_list=[dx, dw])
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-12)


def test_several_targets_with_target_gradients(static, exe):
    def build(v):
        h = paddle.exp(v["x"] * 0.5)
        return [paddle.sum(h, axis=1), paddle.mean(h * h)]

    values = {"x": X}
    weights = [RNG.standard_normal([4]), np.array(2.0)]
    expected = dynamic_grads(build, values, ["x"], [paddle.Tensor(w) for w in weights])
    variables = static_data(values, ["x"])
    g0 = paddle.static.data("g0", [4], "float64")
    targets = build(variables)
    dx, = paddle.static.gradients(targets, variables["x"], target_gradients=[g0, None])
    scaled = paddle.static.gradients(targets, [variables["x"]],
                                     target_gradients=[g0, paddle.static.data("g1", [], "float64")])
    got, got_scaled = exe.run(feed={"x": X, "g0": weights[0], "g1": weights[1]},
                              fetch_list=[dx, scaled[0]])
    plain = dynamic_grads(build, values, ["x"], [paddle.Tensor(weights[0]), None])
    np.testing.assert_allclose(got, plain[0], rtol=1e-12)
    np.testing.assert_allclose(got_scaled, expected[0], rtol=1e-12)
    assert scaled[0].name == "x@GRAD_1"


def test_gradient_with_respect_to_an_intermediate_variable(static, exe):
    x = paddle.static.data("x", [4, 3], "float64")
    h = paddle.tanh(x)
    assert paddle.static.gradients(paddle.sum(h * h), h) == [None]   # x stops gradients
    x.stop_gradient = False
    h = paddle.tanh(x)
    y = paddle.sum(h * h)
    dh, = paddle.static.gradients(y, h)
    got, = exe.run(feed={"x": X}, fetch_list=[dh])
    np.testing.assert_allclose(got, 2 * np.tanh(X), rtol=1e-12)


def test_inputs_without_a_gradient_get_none(static, exe):
    x = paddle.static.data("x", [4, 3], "float64")
    unused = paddle.static.data("unused", [2], "float64")
    unused.stop_gradient = False
    counted = paddle.static.data("counted", [4, 3], "float64")
    counted.stop_gradient = False
    y = paddle.sum(paddle.exp(x) + paddle.cast(paddle.cast(counted, "int64"), "float64"))
    assert paddle.static.gradients(y, [x, unused, counted]) == [None, None, None]
    x.stop_gradient = False
    dx, du, dc = paddle.static.gradients(y, [x, unused, counted])
    assert du is None and dc is None
    got, = exe.run(feed={"x": X, "unused": np.zeros(2), "counted": X}, fetch_list=[dx])
    np.testing.assert_allclose(got, np.exp(X))


def test_no_grad_set_and_stop_gradient_cut_a_path(static, exe):
    x = paddle.static.data("x", [4, 3], "float64")
    x.stop_gradient = False
    h = paddle.tanh(x)
    y = paddle.sum(h * x)
    blocked, = paddle.static.gradients(y, x, no_grad_set={h.name})
    full, = paddle.static.gradients(y, x)
    g = paddle.exp(x)
    g.stop_gradient = True
    z = paddle.sum(g * x)
    cut, = paddle.static.gradients(z, x)
    got_blocked, got_full, got_cut = exe.run(feed={"x": X}, fetch_list=[blocked, full, cut])
    t = np.tanh(X)
    np.testing.assert_allclose(got_blocked, t, rtol=1e-12)
    np.testing.assert_allclose(got_full, t + X * (1 - t * t), rtol=1e-12)
    np.testing.assert_allclose(got_cut, np.exp(X), rtol=1e-12)


def test_gradient_of_a_gradient(static, exe):
    x = paddle.static.data("x", [4, 3], "float64")
    x.stop_gradient = False
    dx, = paddle.static.gradients(paddle.sum(x * x * x), x)
    ddx, = paddle.static.gradients(paddle.sum(dx), x)
    got_dx, got_ddx = exe.run(feed={"x": X}, fetch_list=[dx, ddx])
    np.testing.assert_allclose(got_dx, 3 * X ** 2, rtol=1e-12)
    np.testing.assert_allclose(got_ddx, 6 * X, rtol=1e-12)


def test_the_gradient_op_is_listed_in_the_program(static):
    main, _ = static
    x = paddle.static.data("x", [2], "float32")
    x.stop_gradient = False
    y = paddle.mean(x)
    paddle.static.gradients(y, x)
    assert "x@GRAD: float32[2] (grad" in str(main)
    assert f"x@GRAD = gradients({y.name}, x)" in str(main)
    assert main.global_block().ops[-1].role == "backward"


def test_gradients_checks_its_arguments(static):
    x = paddle.static.data("x", [2], "float32")
    y = paddle.mean(x)
    with pytest.raises(TypeError, match="'targets' must be a Variable"):
        paddle.static.gradients(3, x)
    with pytest.raises(TypeError, match="'inputs' item 0 must be a Variable"):
        paddle.static.gradients(y, [paddle.Tensor(np.ones(2))])
    with pytest.raises(ValueError, match="1 target_gradients for 2 targets"):
        paddle.static.gradients([y, y], x, target_gradients=[None])
    wrong = paddle.static.data("wrong", [3], "float32")
    with pytest.raises(ValueError, match="'wrong' has shape \\[3\\], but target"):
        paddle.static.gradients(y, x, target_gradients=[wrong])
    with pytest.raises(ValueError, match="targets is empty"):
        paddle.static.gradients([], x)
    with pytest.raises(TypeError, match="no_grad_set must hold"):
        paddle.static.gradients(y, x, no_grad_set=[1])


# --------------------------------------------------------- append_backward
def _tiny_model():
    x = paddle.static.data("x", [-1, 3], "float64")
    w = paddle.static.create_parameter([3, 2], "float64", name="w")
    b = paddle.static.create_parameter([2], "float64", name="b", is_bias=True)
    idle = paddle.static.create_parameter([5], "float64", name="idle")
    loss = paddle.mean(paddle.square(paddle.tanh(paddle.matmul(x, w) + b)))
    return x, w, b, idle, loss


def test_append_backward_pairs_parameters_with_their_gradients(static, exe):
    main, startup = static
    x, w, b, idle, loss = _tiny_model()
    pairs = paddle.static.append_backward(loss)
    assert [(p.name, g.name) for p, g in pairs] == [("w", "w@GRAD"), ("b", "b@GRAD")]
    assert all(g.shape == p.shape for p, g in pairs)
    exe.run(startup)
    scope = paddle.static.global_scope()
    w0 = np.array(scope.find_var("w").get_tensor())
    b0 = np.array(scope.find_var("b").get_tensor())
    gw, gb = exe.run(main, feed={"x": X}, fetch_list=[g for _, g in pairs])
    paddle.disable_static()
    tw = paddle.to_tensor(w0, stop_gradient=False)
    tb = paddle.to_tensor(b0, stop_gradient=False)
    tl = paddle.mean(paddle.square(paddle.tanh(paddle.matmul(paddle.to_tensor(X), tw) + tb)))
    ew, eb = paddle.grad(tl, [tw, tb])
    np.testing.assert_allclose(gw, ew.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gb, eb.numpy(), rtol=1e-12)


def test_append_backward_parameter_list_and_no_grad_set(static):
    x, w, b, idle, loss = _tiny_model()
    assert [p.name for p, _ in paddle.static.append_backward(loss, parameter_list=["b"])] == ["b"]
    assert [p.name for p, _ in paddle.static.append_backward(loss, parameter_list=[w, idle])] \
        == ["w"]
    assert [p.name for p, _ in paddle.static.append_backward(loss, no_grad_set={"w"})] == ["b"]
    assert paddle.static.append_backward(loss, no_grad_set=[w, b]) == []
    w.trainable = False
    assert [p.name for p, _ in paddle.static.append_backward(loss)] == ["b"]
    with pytest.raises(TypeError, match="'loss' must be a Variable"):
        paddle.static.append_backward(paddle.Tensor(np.ones(1)))
    with pytest.raises(TypeError, match="'parameter_list' must hold"):
        paddle.static.append_backward(loss, parameter_list=[1])


def test_only_gradients_that_are_differentiated_again_record_their_backward(static):
    main, _ = static
    x = paddle.static.data("x", [3], "float64")
    x.stop_gradient = False
    dx, = paddle.static.gradients(paddle.sum(x * x * x), x)
    other, = paddle.static.gradients(paddle.sum(paddle.exp(x)), x)
    first, second = [op.fn for op in main.global_block().ops if op.role == "backward"]
    assert not first.create_graph and not second.create_graph
    paddle.static.gradients(paddle.sum(dx), x)
    assert first.create_graph and not second.create_graph
