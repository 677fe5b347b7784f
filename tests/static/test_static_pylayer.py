"""static.nn.static_pylayer: a custom forward recorded in a Program, with an optional backward."""
import numpy as np
import pytest

import pylayer as paddle


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def run(main, feed, fetch, startup=None):
    exe = paddle.static.Executor()
    if startup is not None:
        exe.run(startup)
    return exe.run(main, feed=feed, fetch_list=fetch)


def test_backward_fn_defines_the_gradient_of_several_outputs(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [-1, 3], "float32")
        y = paddle.static.data("y", [-1, 3], "float32")
        x.stop_gradient = y.stop_gradient = False
        exp_x, product = paddle.static.nn.static_pylayer(
            lambda a, b: (paddle.exp(a), a * b), [x, y],
            backward_fn=lambda d_exp, d_product: (2 * d_exp + d_product, 3 * d_product))
        gx, gy = paddle.static.gradients([paddle.sum(exp_x) + paddle.sum(product)], [x, y])
    assert main.global_block().ops[0].type == "static_pylayer"
    out, dx, dy = run(main, {"x": np.ones([1, 3], "float32"),
                             "y": np.full([1, 3], 2.0, "float32")}, [exp_x, gx, gy])
    # Paddle 3.3.1 gives the same: exp(1), 2 * 1 + 1, 3 * 1
    np.testing.assert_allclose(out, np.full([1, 3], np.e), rtol=1e-6)
    assert dx.tolist() == [[3.0] * 3] and dy.tolist() == [[3.0] * 3]


def test_without_backward_fn_every_input_must_stop_gradient(static_mode):
    # As Paddle 3.3.1: without backward_fn the operator has no gradient, so an input
    # that needs one is a ValueError naming it; inputs that need none are fine.
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float64")
        y = paddle.static.nn.static_pylayer(lambda a: paddle.tanh(a) * a, [x], name="tanh_x")
        x2 = paddle.static.data("x2", [2], "float64")
        x2.stop_gradient = False
        with pytest.raises(ValueError, match=r"static_pylayer\(\): input 'x2' has "
                                             r"stop_gradient=False.*backward_fn"):
            paddle.static.nn.static_pylayer(lambda a, b: a + b, [x, x2])
    assert y.name == "tanh_x" and y.stop_gradient
    assert [op.type for op in main.global_block().ops] == ["static_pylayer"]
    a = np.array([0.5, -1.0])
    value, = run(main, {"x": a}, [y])
    np.testing.assert_allclose(value, np.tanh(a) * a)


@pytest.mark.parametrize("backward_fn, expected", [(lambda d: d, 0.125),
                                                   (lambda d: d * 2, 0.25)],
                         ids=["identity backward", "doubling backward"])
def test_an_identity_forward_gives_its_own_output_and_the_backward_fn_gradient(
        static_mode, backward_fn, expected):
    # Paddle 3.3.1: the gradient of mean(static_pylayer(lambda a: a, [x])) over 8
    # elements is backward_fn(1/8), through gradients and append_backward alike.
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 4], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.static_pylayer(lambda a: a, [x], backward_fn=backward_fn)
        loss = paddle.mean(y)
        (dx,) = paddle.static.gradients([loss], [x])
        pairs = paddle.static.append_backward(loss, parameter_list=[x])
    assert y is not x and not y.stop_gradient
    assert [p.name for p, _ in pairs] == ["x"]
    feed = {"x": np.ones([2, 4], "float32")}
    value, grad, appended = run(main, feed, [y, dx, pairs[0][1]])
    np.testing.assert_array_equal(value, feed["x"])
    np.testing.assert_array_equal(grad, np.full([2, 4], expected))
    np.testing.assert_array_equal(appended, np.full([2, 4], expected))


def test_an_identity_forward_of_a_parameter_trains_with_append_backward(static_mode):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 4], "float32")
        w = paddle.static.create_parameter([2, 4], "float32", name="w_identity")
        y = paddle.static.nn.static_pylayer(lambda a: a, [w], backward_fn=lambda d: d)
        [(param, grad)] = paddle.static.append_backward(paddle.mean(y * x))
    assert param.name == "w_identity"
    (g,) = run(main, {"x": np.ones([2, 4], "float32")}, [grad], startup)
    np.testing.assert_array_equal(g, np.full([2, 4], 0.125))


def test_a_straight_through_estimator_trains_with_append_backward(static_mode):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 2], "float32")
        w = paddle.static.create_parameter([2, 1], "float32", name="w_ste",
                                           default_initializer=paddle.nn.initializer.Constant(0.3))
        rounded = paddle.static.nn.static_pylayer(lambda a: paddle.round(a), [w],
                                                  backward_fn=lambda g: g)
        loss = paddle.mean(paddle.matmul(x, rounded))
        [(param, grad)] = paddle.static.append_backward(loss)
    feed = {"x": np.array([[1.0, 2.0], [3.0, 4.0]], "float32")}
    (g,) = run(main, feed, [grad], startup)
    # round() has a zero gradient; the straight-through backward passes it on
    np.testing.assert_allclose(g, [[2.0], [3.0]])


def test_a_gradient_of_none_for_an_input(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        s = paddle.static.data("s", [2], "float32")
        x.stop_gradient = s.stop_gradient = False
        y = paddle.static.nn.static_pylayer(lambda a, b: a * b, [x, s],
                                            backward_fn=lambda g: (g * 5.0, None))
        dx, ds = paddle.static.gradients(paddle.sum(y), [x, s])
    gx, gs = run(main, {"x": np.ones(2, "float32"), "s": np.ones(2, "float32")}, [dx, ds])
    assert gx.tolist() == [5.0, 5.0] and gs.tolist() == [0.0, 0.0]


def test_static_pylayer_refuses_dynamic_mode_and_bad_arguments(static_mode):
    with paddle.static.program_guard(paddle.static.Program()):
        x = paddle.static.data("x", [2], "float32")
        with pytest.raises(TypeError, match=r"static_pylayer\(\).*'forward_fn'"):
            paddle.static.nn.static_pylayer(3, [x])
        with pytest.raises(TypeError, match=r"static_pylayer\(\).*'backward_fn'"):
            paddle.static.nn.static_pylayer(paddle.exp, [x], backward_fn="no")
        with pytest.raises(TypeError, match=r"static_pylayer\(\).*'inputs' item 0"):
            paddle.static.nn.static_pylayer(paddle.exp, [np.ones(2)])
    # Tensors are refused by their type, whatever the mode.
    for mode in (paddle.enable_static, paddle.disable_static):
        mode()
        with pytest.raises(RuntimeError, match=r"static_pylayer.*Tensor.*static-graph mode.*PyLayer"):
            paddle.static.nn.static_pylayer(paddle.exp, [paddle.Tensor(np.ones(2))])
