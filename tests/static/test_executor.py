"""Running programs: feeds, fetches, scopes, the same numbers as dynamic mode, errors."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.ops.dispatch import op

RNG = np.random.default_rng(0)


def test_run_returns_numpy_arrays_for_variables_and_names(static, exe):
    x = paddle.static.data("x", [-1, 3], "float32")
    y = paddle.tanh(x)
    z = paddle.sum(y)
    value = RNG.standard_normal([4, 3]).astype("float32")
    out_y, out_z = exe.run(feed={"x": value}, fetch_list=[y, z.name])
    assert isinstance(out_y, np.ndarray) and out_y.shape == (4, 3)
    np.testing.assert_allclose(out_y, np.tanh(value), rtol=1e-6)
    np.testing.assert_allclose(out_z, np.tanh(value).sum(), rtol=1e-5)
    tensors = exe.run(feed={"x": value}, fetch_list=[y], return_numpy=False)
    assert isinstance(tensors[0], paddle.Tensor)
    assert exe.run(feed={"x": value}) == []
    single, = exe.run(feed={"x": value}, fetch_list=y)
    np.testing.assert_array_equal(single, out_y)


def test_batch_size_can_change_between_runs(static, exe):
    x = paddle.static.data("x", [None, 2], "float32")
    y = paddle.mean(x * x, axis=1)
    for n in (1, 5, 0):
        value = np.ones([n, 2], "float32")
        out, = exe.run(feed={"x": value}, fetch_list=[y])
        np.testing.assert_array_equal(out, np.ones([n], "float32"))


def test_feed_accepts_tensors_and_lists(static, exe):
    x = paddle.static.data("x", [2], "float32")
    y = x * 3.0
    out, = exe.run(feed={"x": paddle.Tensor(np.array([1.0, 2.0], "float32"))}, fetch_list=[y])
    np.testing.assert_array_equal(out, [3.0, 6.0])
    out, = exe.run(feed={"x": [1.0, -1.0]}, fetch_list=[y])
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [3.0, -3.0])


def _pairs():
    a = RNG.standard_normal([3, 4]).astype("float32")
    b = RNG.standard_normal([3, 4]).astype("float32")
    w = RNG.standard_normal([4, 2]).astype("float32")
    return a, b, w


@pytest.mark.parametrize("build", [
    lambda p, a, b, w, l: p.tanh(a) * p.exp(b) - p.sigmoid(a),
    lambda p, a, b, w, l: p.matmul(p.square(a) + b, w),
    lambda p, a, b, w, l: p.mean(p.reshape(a, [-1, 2]), axis=0),
    lambda p, a, b, w, l: p.nn.functional.softmax(a / (p.abs(b) + 1.0), axis=1),
    lambda p, a, b, w, l: p.concat([a, b], axis=0),
    lambda p, a, b, w, l: p.split(a, 2, axis=1)[1] * 2.0,
    lambda p, a, b, w, l: p.transpose(p.sqrt(p.abs(a)), [1, 0]),
    lambda p, a, b, w, l: p.nn.functional.cross_entropy(p.matmul(a, w), l),
    lambda p, a, b, w, l: p.nn.functional.relu(a) + p.log(p.exp(b)),
], ids=["elementwise", "matmul", "reshape-mean", "softmax", "concat", "split", "transpose",
        "cross_entropy", "relu-log"])
def test_static_and_dynamic_give_the_same_numbers(build, exe):
    a, b, w = _pairs()
    label = np.array([0, 1, 1], "int64")
    dynamic = build(paddle, paddle.to_tensor(a), paddle.to_tensor(b),
                    paddle.to_tensor(w), paddle.to_tensor(label)).numpy()
    paddle.enable_static()
    va = paddle.static.data("a", [-1, 4], "float32")
    vb = paddle.static.data("b", [-1, 4], "float32")
    vw = paddle.static.data("w", [4, 2], "float32")
    vl = paddle.static.data("label", [-1], "int64")
    out = build(paddle, va, vb, vw, vl)
    static_value, = exe.run(feed={"a": a, "b": b, "w": w, "label": label}, fetch_list=[out])
    assert static_value.dtype == dynamic.dtype
    assert list(static_value.shape) == list(dynamic.shape)
    assert all(d in (-1, n) for d, n in zip(out.shape, dynamic.shape))
    np.testing.assert_array_equal(static_value, dynamic)


def test_parameters_come_from_the_startup_program_and_live_in_the_scope(static, exe):
    main, startup = static
    attr = paddle.ParamAttr(name="w", initializer=paddle.nn.initializer.Constant(0.5))
    w = paddle.static.create_parameter([2, 2], "float32", attr=attr)
    x = paddle.static.data("x", [1, 2], "float32")
    y = paddle.matmul(x, w)
    assert [op.type for op in startup.global_block().ops] == ["Constant"]
    assert startup.global_block().var("w").persistable
    with pytest.raises(ValueError, match="'w' has no value in the scope; run the startup"):
        exe.run(main, feed={"x": np.ones([1, 2], "float32")}, fetch_list=[y])
    assert exe.run(startup) == []
    scope = paddle.static.global_scope()
    np.testing.assert_array_equal(np.array(scope.find_var("w").get_tensor()),
                                  np.full([2, 2], 0.5, "float32"))
    out, = exe.run(main, feed={"x": np.ones([1, 2], "float32")}, fetch_list=[y])
    np.testing.assert_array_equal(out, [[1.0, 1.0]])
    scope.find_var("w").get_tensor().set(np.eye(2, dtype="float32"), paddle.static.CPUPlace())
    out, = exe.run(main, feed={"x": np.array([[2, 3]], "float32")}, fetch_list=[y, w])[:1]
    np.testing.assert_array_equal(out, [[2.0, 3.0]])
    fetched_w, = exe.run(main, feed={"x": np.ones([1, 2], "float32")}, fetch_list=["w"])
    np.testing.assert_array_equal(fetched_w, np.eye(2))


def test_scope_guard_and_explicit_scope_keep_values_apart(static, exe):
    main, startup = static
    three = paddle.nn.initializer.Constant(3.0)
    paddle.static.create_parameter([1], "float32",
                                   attr=paddle.ParamAttr(name="p", initializer=three))
    mine = paddle.static.Scope()
    with paddle.static.scope_guard(mine):
        assert paddle.static.global_scope() is mine
        exe.run(startup)
    assert mine.find_var("p") is not None
    assert paddle.static.global_scope().find_var("p") is None
    other = paddle.static.Scope()
    exe.run(startup, scope=other)
    assert other.local_var_names() == ["p"]
    with pytest.raises(TypeError, match="argument 'scope' must be a Scope"):
        with paddle.static.scope_guard({}):
            pass


def test_the_same_program_runs_in_dynamic_mode_too(static, exe):
    x = paddle.static.data("x", [2], "float32")
    y = paddle.exp(x)
    paddle.disable_static()
    out, = exe.run(feed={"x": np.zeros([2], "float32")}, fetch_list=[y])
    np.testing.assert_array_equal(out, [1.0, 1.0])
    assert paddle.in_dynamic_mode()


def test_the_mode_is_static_again_after_a_run(static, exe):
    x = paddle.static.data("x", [2], "float32")
    y = paddle.exp(x)
    exe.run(feed={"x": np.zeros([2], "float32")}, fetch_list=[y])
    assert not paddle.in_dynamic_mode()
    assert isinstance(paddle.exp(x), paddle.static.Variable)


def test_run_refuses_things_that_are_not_programs(exe):
    with pytest.raises(TypeError, match="program must be a Program"):
        exe.run("main")
    with pytest.raises(TypeError, match="feed must be a dict"):
        exe.run(paddle.static.Program(), feed=[1])


def test_executor_place(exe):
    assert exe.place == paddle.static.CPUPlace()
    assert paddle.static.CPUPlace() == paddle.ones([1]).place
    assert repr(paddle.static.Executor().place) == "Place(cpu)"
    exe.close()


# ------------------------------------------------------------- bad use
@pytest.fixture
def small(static):
    x = paddle.static.data("x", [-1, 3], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    y = paddle.tanh(x)
    return x, label, y


def test_unknown_feed_name_is_named(small, exe):
    x, label, y = small
    with pytest.raises(ValueError, match=r"'z'.*not a variable of the program.*\['label', 'x'\]"):
        exe.run(feed={"x": np.ones([1, 3], "float32"), "z": np.ones([1])}, fetch_list=[y])


def test_feeding_a_computed_variable_is_refused(small, exe):
    x, label, y = small
    with pytest.raises(ValueError, match=f"'{y.name}' is computed by the program"):
        exe.run(feed={"x": np.ones([1, 3], "float32"), y.name: np.ones([1, 3], "float32")})


def test_wrong_feed_shape_is_named(small, exe):
    x, label, y = small
    with pytest.raises(ValueError, match=r"feed for 'x' has shape \[2, 4\].*\[-1, 3\]"):
        exe.run(feed={"x": np.ones([2, 4], "float32")}, fetch_list=[y])
    with pytest.raises(ValueError, match=r"feed for 'x' has shape \[3\]"):
        exe.run(feed={"x": np.ones([3], "float32")}, fetch_list=[y])


def test_wrong_feed_dtype_is_named(small, exe):
    x, label, y = small
    with pytest.raises(TypeError, match="feed for 'x' has dtype float64.*declared as float32"):
        exe.run(feed={"x": np.ones([2, 3])}, fetch_list=[y])
    with pytest.raises(TypeError, match="feed for 'x' must be a numpy array"):
        exe.run(feed={"x": "data"}, fetch_list=[y])


def test_unknown_fetch_is_named(small, exe):
    x, label, y = small
    with pytest.raises(ValueError, match="cannot fetch 'nothing'"):
        exe.run(feed={"x": np.ones([1, 3], "float32")}, fetch_list=["nothing"])
    other = paddle.static.Program()
    with paddle.static.program_guard(other):
        foreign = paddle.static.data("foreign", [1], "float32")
    with pytest.raises(ValueError, match="'foreign'.*belongs to another program"):
        exe.run(feed={"x": np.ones([1, 3], "float32")}, fetch_list=[foreign])
    with pytest.raises(TypeError, match="fetch_list item 0 must be a Variable"):
        exe.run(feed={"x": np.ones([1, 3], "float32")}, fetch_list=[3])


def test_unfed_input_is_named(small, exe):
    x, label, y = small
    with pytest.raises(ValueError, match="variable 'x' is an input of the program but was not fed"):
        exe.run(fetch_list=[y])
    paddle.cast(label, "float32")
    with pytest.raises(ValueError, match="'label' is an input of the program but was not fed"):
        exe.run(feed={"x": np.ones([1, 3], "float32")}, fetch_list=[y])


def test_fetching_a_variable_nothing_computes_is_an_error(static, exe):
    main, _ = static
    v = main.current_block().create_var(name="never", dtype="float32", shape=[1])
    with pytest.raises(ValueError, match="cannot fetch 'never': no op of the program computes it"):
        exe.run(fetch_list=[v])


def test_run_time_errors_name_the_op_and_restore_the_mode(static, exe):
    a = paddle.static.data("a", [-1, 3], "float32")
    b = paddle.static.data("b", [-1, 3], "float32")
    c = a + b
    with pytest.raises(ValueError) as info:
        exe.run(feed={"a": np.ones([2, 3], "float32"), "b": np.ones([4, 3], "float32")},
                fetch_list=[c])
    assert any(f"{c.name} = add(a, b)" in note for note in info.value.__notes__)
    assert not paddle.in_dynamic_mode()
    assert paddle.is_grad_enabled()


def test_a_program_is_replanned_after_it_changes(static, exe):
    x = paddle.static.data("x", [1], "float32")
    y = x + 1.0
    feed = {"x": np.zeros([1], "float32")}
    np.testing.assert_array_equal(exe.run(feed=feed, fetch_list=[y])[0], [1.0])
    z = y * 10.0
    np.testing.assert_array_equal(exe.run(feed=feed, fetch_list=[z])[0], [10.0])


def test_variables_inside_lists_and_keywords_are_bound(static, exe):
    @op
    def weighted(x, parts=(), scale=None):
        total = x
        for p in parts:
            total = total + p
        return total * scale

    a = paddle.static.data("a", [2], "float32")
    b = paddle.static.data("b", [2], "float32")
    s = paddle.static.data("s", [1], "float32")
    out = weighted(a, parts=[b, (a,)[0]], scale=s)
    assert out.shape == [2]
    got, = exe.run(feed={"a": np.array([1, 2], "float32"), "b": np.array([10, 20], "float32"),
                         "s": np.array([2], "float32")}, fetch_list=[out])
    np.testing.assert_array_equal(got, [24.0, 48.0])


def test_item_assignment_writes_the_variable_in_program_order(static, exe):
    x = paddle.static.data("x", [3], "float32")
    before = x * 1.0
    x[0] = 7.0
    y = x * 2.0
    y[1:] = paddle.static.data("tail", [2], "float32")
    value = np.array([1.0, 2.0, 3.0], "float32")
    got_before, got_x, got_y = exe.run(
        feed={"x": value, "tail": np.array([-1.0, -2.0], "float32")},
        fetch_list=[before, x, y])
    np.testing.assert_array_equal(got_before, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(got_x, [7.0, 2.0, 3.0])
    np.testing.assert_array_equal(got_y, [14.0, -1.0, -2.0])
    np.testing.assert_array_equal(value, [1.0, 2.0, 3.0])    # the caller's array is intact
    got_x[0] = 0.0                                            # results belong to the caller
