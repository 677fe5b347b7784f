"""``static.nn.fc`` and ``static.create_parameter``."""
import numpy as np
import pytest

import pylayer as paddle

RNG = np.random.default_rng(8)


def param_value(name):
    return np.array(paddle.static.global_scope().find_var(name).get_tensor())


def test_fc_computes_activation_of_x_times_w_plus_b(static, exe):
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float32")
    bias = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.25))
    y = paddle.static.nn.fc(x, size=2, bias_attr=bias, activation="tanh", name="layer")
    assert y.shape == [-1, 2]
    assert [p.name for p in main.all_parameters()] == ["layer.w_0", "layer.b_0"]
    assert [op.type for op in startup.global_block().ops] == ["XavierUniform", "Constant"]
    exe.run(startup)
    w, b = param_value("layer.w_0"), param_value("layer.b_0")
    limit = np.sqrt(6.0 / (3 + 2))
    assert w.shape == (3, 2) and np.all(np.abs(w) <= limit) and np.any(w != 0)
    np.testing.assert_array_equal(b, [0.25, 0.25])
    value = RNG.standard_normal([5, 3]).astype("float32")
    got, = exe.run(main, feed={"x": value}, fetch_list=[y])
    np.testing.assert_allclose(got, np.tanh(value @ w + b), rtol=1e-5, atol=1e-6)


def test_fc_num_flatten_dims(static, exe):
    main, startup = static
    x = paddle.static.data("x", [-1, 2, 3, 4], "float32")
    two = paddle.static.nn.fc(x, size=5, num_flatten_dims=2, name="two", bias_attr=False)
    one = paddle.static.nn.fc(x, size=5, name="one", bias_attr=False)
    three = paddle.static.nn.fc(x, size=5, num_flatten_dims=3, name="three", bias_attr=False)
    assert (two.shape, one.shape, three.shape) == ([-1, 2, 5], [-1, 5], [-1, 2, 3, 5])
    assert [p.shape for p in main.all_parameters()] == [[12, 5], [24, 5], [4, 5]]
    exe.run(startup)
    value = RNG.standard_normal([3, 2, 3, 4]).astype("float32")
    got_two, got_one, got_three = exe.run(main, feed={"x": value}, fetch_list=[two, one, three])
    np.testing.assert_allclose(got_two, value.reshape(3, 2, 12) @ param_value("two.w_0"),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_one, value.reshape(3, 24) @ param_value("one.w_0"),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_three, value @ param_value("three.w_0"), rtol=1e-5, atol=1e-6)


def test_fc_sums_the_products_of_several_inputs(static, exe):
    main, startup = static
    a = paddle.static.data("a", [-1, 2], "float64")
    b = paddle.static.data("b", [-1, 3], "float64")
    ones = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0))
    y = paddle.static.nn.fc([a, b], size=1, weight_attr=[ones, ones], name="multi")
    assert [p.name for p in main.all_parameters()] == ["multi.w_0", "multi.w_1", "multi.b_0"]
    assert y.dtype == "float64"
    exe.run(startup)
    av, bv = RNG.standard_normal([4, 2]), RNG.standard_normal([4, 3])
    got, = exe.run(main, feed={"a": av, "b": bv}, fetch_list=[y])
    np.testing.assert_allclose(got, av.sum(1, keepdims=True) + bv.sum(1, keepdims=True))


def test_fc_default_names_are_unique(static):
    main, _ = static
    x = paddle.static.data("x", [-1, 2], "float32")
    paddle.static.nn.fc(x, 2)
    paddle.static.nn.fc(x, 2)
    names = [p.name for p in main.all_parameters()]
    assert len(set(names)) == 4 and all(n.startswith("fc_") for n in names)


def test_fc_checks_its_arguments(static):
    x = paddle.static.data("x", [-1, 2], "float32")
    with pytest.raises(TypeError, match="'x' must be a Variable"):
        paddle.static.nn.fc(np.ones([2, 2]), 3)
    with pytest.raises(ValueError, match="'size' must be at least 1"):
        paddle.static.nn.fc(x, 0)
    with pytest.raises(ValueError, match="'num_flatten_dims' must be at least 1"):
        paddle.static.nn.fc(x, 2, num_flatten_dims=0)
    with pytest.raises(ValueError, match="needs more than num_flatten_dims=2"):
        paddle.static.nn.fc(x, 2, num_flatten_dims=2)
    with pytest.raises(ValueError, match="dimensions after num_flatten_dims must be known"):
        paddle.static.nn.fc(paddle.static.data("y", [2, -1], "float32"), 2)
    with pytest.raises(ValueError, match="unknown activation 'nope'"):
        paddle.static.nn.fc(x, 2, activation="nope")
    with pytest.raises(ValueError, match="2 weight_attr entries for 1 inputs"):
        paddle.static.nn.fc(x, 2, weight_attr=[None, None])


def test_fc_refuses_tensors_in_either_mode():
    for mode in (paddle.disable_static, paddle.enable_static):
        mode()
        with pytest.raises(RuntimeError, match=r"got a Tensor.*enable_static\(\)"):
            paddle.static.nn.fc(paddle.Tensor(np.ones([2, 2])), 2)
        with pytest.raises(RuntimeError, match=r"got a Tensor.*enable_static\(\)"):
            paddle.static.nn.fc([paddle.Tensor(np.ones([2, 2]))], 2)


def test_create_parameter_in_static_mode_goes_to_the_program(static, exe):
    main, startup = static
    w = paddle.create_parameter([2, 3], "float64", name="made",
                                default_initializer=paddle.nn.initializer.Constant(2.0))
    assert isinstance(w, paddle.static.Parameter)
    assert (w.name, w.shape, w.dtype, w.persistable) == ("made", [2, 3], "float64", True)
    frozen = paddle.static.create_parameter(
        [1], "float32", attr=paddle.ParamAttr(name="frozen", trainable=False, learning_rate=0.5))
    assert not frozen.trainable and frozen.stop_gradient
    assert frozen.optimize_attr == {"learning_rate": 0.5}
    exe.run(startup)
    np.testing.assert_array_equal(param_value("made"), np.full([2, 3], 2.0))


def test_batch_norm_layer_takes_a_variable_and_checks_what_is_not_one(static, exe):
    x = paddle.static.data("x", [-1, 2, 3, 3], "float32")
    bn = paddle.nn.BatchNorm2D(2)
    bn.eval()
    y = bn(x)
    assert y.shape == [-1, 2, 3, 3]
    exe.run(static[1])
    value = RNG.standard_normal([2, 2, 3, 3]).astype("float32")
    out, = exe.run(feed={"x": value}, fetch_list=[y])
    np.testing.assert_allclose(out, value / np.sqrt(1 + 1e-5), rtol=1e-6)
    with pytest.raises(TypeError, match=r"BatchNorm2D\(\): argument 'input'"):
        bn([x])
    with pytest.raises(ValueError, match="BatchNorm2D: argument 'input' must have rank 4"):
        bn(paddle.static.data("v", [-1, 2], "float32"))
