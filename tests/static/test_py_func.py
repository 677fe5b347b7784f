"""``py_func``: every rule of paddle-behavior.md section 6."""
import numpy as np
import pytest

import pylayer as paddle

X1 = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]], "float32")
X2 = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32")


def new_var(name, shape=(2, 3), dtype="float32"):
    return paddle.static.default_main_program().current_block().create_var(
        name=name, dtype=dtype, shape=list(shape))


@pytest.fixture
def x(static):
    return paddle.static.data("x", [2, 3], "float32")


def test_both_spellings_are_the_same_function():
    assert paddle.static.py_func is paddle.static.nn.py_func


# --------------------------------------------------------------- refusals
def test_tensors_are_refused_with_a_hint():
    for x, out in ((paddle.ones([2]), None), (None, [paddle.ones([2])])):
        with pytest.raises(RuntimeError, match=r"got a Tensor.*static-graph mode.*enable_static\(\)"):
            paddle.static.nn.py_func(func=np.tanh, x=x, out=out)


@pytest.mark.parametrize("bad", [np.ones([2, 3]), 3, "x", {"x": None}])
def test_x_and_out_must_be_variables_lists_tuples_or_none(bad, x):
    out = new_var("out")
    with pytest.raises(TypeError, match="argument 'x' must be a Variable, a list or tuple"):
        paddle.static.py_func(np.tanh, bad, out)
    with pytest.raises(TypeError, match="argument 'out' must be a Variable, a list or tuple"):
        paddle.static.py_func(np.tanh, x, bad)


def test_list_items_must_be_variables(x):
    out = new_var("out")
    with pytest.raises(TypeError, match="argument 'x' item 1 must be a Variable, got ndarray"):
        paddle.static.py_func(np.tanh, [x, np.ones(3)], out)
    with pytest.raises(TypeError, match="argument 'out' item 0 must be a Variable, got int"):
        paddle.static.py_func(np.tanh, x, (1,))


def test_func_and_backward_func_must_be_callable(x):
    out = new_var("out")
    with pytest.raises(TypeError, match="func must be callable, got str"):
        paddle.static.py_func("tanh", x, out)
    with pytest.raises(TypeError, match="backward_func must be callable or None, got int"):
        paddle.static.py_func(np.tanh, x, out, backward_func=1)


def test_every_output_needs_a_shape(x):
    shapeless = paddle.static.default_main_program().current_block().create_var(
        name="shapeless", dtype="float32")
    with pytest.raises(ValueError, match="output Variable 'shapeless' has no shape"):
        paddle.static.py_func(np.tanh, x, shapeless)


def test_outputs_must_be_fresh_variables(x):
    with pytest.raises(ValueError, match="'x' is already computed by another op or fed"):
        paddle.static.py_func(np.tanh, None, x)
    y = paddle.tanh(x)
    with pytest.raises(ValueError, match=f"'{y.name}' is already computed"):
        paddle.static.py_func(np.tanh, x, y)


def test_skipped_variables_must_be_forward_inputs_or_outputs(x):
    out = new_var("out")
    other = new_var("other")
    with pytest.raises(ValueError, match="'other', which is neither an input nor an output"):
        paddle.static.py_func(np.tanh, x, out, backward_func=lambda *a: None,
                              skip_vars_in_backward_input=other)
    x.stop_gradient = False
    dy = paddle.static.gradients(paddle.sum(paddle.exp(x)), x)[0]
    with pytest.raises(ValueError, match="'x@GRAD', which is neither an input nor an output"):
        paddle.static.py_func(np.tanh, x, out, backward_func=lambda *a: None,
                              skip_vars_in_backward_input=[x, dy])
    with pytest.raises(TypeError, match="'skip_vars_in_backward_input' must be a Variable"):
        paddle.static.py_func(np.tanh, x, out, skip_vars_in_backward_input="x")
    assert [op.type for op in paddle.static.default_main_program().global_block().ops] == \
        ["exp", "sum", "gradients"]


def test_output_gradients_cannot_be_skipped(x, exe):
    x.stop_gradient = False
    out = new_var("out")
    received = []

    def backward(*args):
        received.append(args)
        return np.array(args[0]) * 5

    paddle.static.py_func(np.tanh, x, out, backward_func=backward,
                          skip_vars_in_backward_input=[x, out])
    dx, = paddle.static.gradients(paddle.sum(out), x)
    got, = exe.run(feed={"x": X1}, fetch_list=[dx])
    (only_the_output_gradient,), = received
    np.testing.assert_array_equal(only_the_output_gradient, np.ones([2, 3]))
    np.testing.assert_array_equal(got, np.full([2, 3], 5.0))


def test_returns_out_itself(x):
    single = new_var("single")
    assert paddle.static.py_func(np.tanh, x, single) is single
    pair = [new_var("a"), new_var("b")]
    assert paddle.static.py_func(lambda v: (v, v), x, pair) is pair
    triple = (new_var("c"),)
    assert paddle.static.py_func(np.tanh, x, triple) is triple
    assert paddle.static.py_func(lambda v: None, x, None) is None


# ------------------------------------------------------------- forward
def test_func_is_called_with_the_inputs_in_order_as_arrays(static, exe):
    a = paddle.static.data("a", [2, 3], "float32")
    b = paddle.static.data("b", [2, 3], "float32")
    seen = []

    def func(first, second):
        seen.append((first, second))
        return np.array(first) * 10 + np.array(second)

    out = new_var("out")
    paddle.static.py_func(func, [a, b], out)
    got, = exe.run(feed={"a": X1, "b": X2}, fetch_list=[out])
    np.testing.assert_array_equal(got, X1 * 10 + X2)
    (first, second), = seen
    np.testing.assert_array_equal(np.array(first), X1)
    np.testing.assert_array_equal(np.array(second), X2)
    assert np.tanh(first).shape == (2, 3)       # numpy functions take them directly
    with pytest.raises(ValueError):
        first[0, 0] = 1.0                        # the program's own value is read-only


def test_func_may_return_tensors_and_its_values_take_the_declared_dtype(x, exe):
    as_tensor = new_var("as_tensor")
    as_float64 = new_var("as_float64")
    paddle.static.py_func(lambda v: paddle.to_tensor(np.array(v) + 1), x, as_tensor)
    paddle.static.py_func(lambda v: np.array(v, dtype="float64") * 2, x, as_float64)
    got_tensor, got_float64 = exe.run(feed={"x": X1}, fetch_list=[as_tensor, as_float64])
    np.testing.assert_array_equal(got_tensor, X1 + 1)
    assert got_float64.dtype == np.float32
    np.testing.assert_array_equal(got_float64, X1 * 2)


def test_integer_inputs_and_outputs(static, exe):
    a = paddle.static.data("a", [2, 2], "int32")
    out = new_var("out", [2, 2], "int32")
    paddle.static.py_func(lambda v: np.array(v) * 3, a, out)
    got, = exe.run(feed={"a": np.array([[1, 2], [3, 4]], "int32")}, fetch_list=[out])
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, [[3, 6], [9, 12]])


def test_unknown_dimensions_take_the_run_time_size(static, exe):
    a = paddle.static.data("a", [-1, 3], "float32")
    out = new_var("out", [-1, 3])
    paddle.static.py_func(np.tanh, a, out)
    follow = paddle.sum(out, axis=1)
    assert follow.shape == [-1]
    for n in (1, 4):
        value = np.ones([n, 3], "float32")
        got, = exe.run(feed={"a": value}, fetch_list=[follow])
        np.testing.assert_allclose(got, np.full(n, 3 * np.tanh(1.0)), rtol=1e-6)


def test_no_outputs_runs_for_its_side_effect(x, exe, capsys):
    def debug_func(v):
        print("value:", np.array(v).sum())

    assert paddle.static.py_func(debug_func, x, None) is None
    y = paddle.exp(x)
    exe.run(feed={"x": X1}, fetch_list=[y])
    exe.run(feed={"x": X2}, fetch_list=[y])
    assert capsys.readouterr().out.split("\n")[:2] == [f"value: {X1.sum()}", f"value: {X2.sum()}"]


def test_no_inputs(static, exe):
    out = new_var("const", [2])
    calls = []

    def func():
        calls.append(True)
        return np.array([7.0, 8.0])

    paddle.static.py_func(func, None, out)
    paddle.static.py_func(lambda: None, [], None)
    got, = exe.run(fetch_list=[out])
    np.testing.assert_array_equal(got, [7.0, 8.0])
    assert calls == [True]


def test_several_outputs(x, exe):
    y = paddle.static.data("y", [2, 3], "float32")
    total, difference = new_var("total"), new_var("difference")
    paddle.static.py_func(lambda a, b: (np.add(a, b), np.subtract(a, b)), (x, y),
                          [total, difference])
    got_total, got_difference = exe.run(feed={"x": X1, "y": X2},
                                        fetch_list=[total, difference])
    np.testing.assert_array_equal(got_total, X1 + X2)
    np.testing.assert_array_equal(got_difference, X1 - X2)


def test_returning_none_is_allowed_only_without_outputs(x, exe):
    out = new_var("out")
    paddle.static.py_func(lambda v: None, x, out)
    with pytest.raises(ValueError, match="returned None for output 'out'"):
        exe.run(feed={"x": X1}, fetch_list=[out])


def test_a_wrong_number_of_results_names_both_counts(x, exe):
    first, second = new_var("first"), new_var("second")
    paddle.static.py_func(lambda v: (v, v, v), x, [first, second])
    with pytest.raises(ValueError,
                       match=r"<lambda> returned 3 value\(s\), but there are 2 outputs"):
        exe.run(feed={"x": X1}, fetch_list=[first])


def test_none_for_several_outputs_names_both_counts(x, exe):
    first, second = new_var("first"), new_var("second")
    paddle.static.py_func(lambda v: None, x, [first, second])
    with pytest.raises(ValueError, match=r"returned 0 value\(s\), but there are 2 outputs"):
        exe.run(feed={"x": X1}, fetch_list=[first])


def test_a_result_of_the_wrong_shape_is_named(x, exe):
    out = new_var("out")
    paddle.static.py_func(lambda v: np.zeros([3, 2]), x, out)
    with pytest.raises(ValueError,
                       match=r"returned shape \[3, 2\] for output 'out', declared as \[2, 3\]"):
        exe.run(feed={"x": X1}, fetch_list=[out])


class Boom(Exception):
    pass


def test_exceptions_in_func_reach_executor_run_unchanged(x, exe):
    error = Boom("from func")

    def func(v):
        raise error

    out = new_var("out")
    paddle.static.py_func(func, x, out)
    with pytest.raises(Boom) as info:
        exe.run(feed={"x": X1}, fetch_list=[out])
    assert info.value is error
    assert info.value.args == ("from func",)
    assert not getattr(info.value, "__notes__", None)
    assert not paddle.in_dynamic_mode() and paddle.is_grad_enabled()
    with paddle.static.program_guard(paddle.static.Program()):
        a = paddle.static.data("a", [1], "float32")
        b = paddle.exp(a)
        got, = exe.run(paddle.static.default_main_program(),
                       feed={"a": np.zeros([1], "float32")}, fetch_list=[b])
    assert got == 1.0


# ------------------------------------------------------------ backward
def test_backward_gets_inputs_outputs_and_output_gradients_in_order(static, exe):
    a = paddle.static.data("a", [2, 3], "float32")
    b = paddle.static.data("b", [2, 3], "float32")
    a.stop_gradient = b.stop_gradient = False
    s, d = new_var("s"), new_var("d")
    calls = []

    def backward(*args):
        calls.append([np.array(v) for v in args])
        a_, b_, s_, d_, ds, dd = (np.array(v) for v in args)
        return ds + dd, ds - dd

    paddle.static.py_func(lambda p, q: (np.add(p, q), np.subtract(p, q)), [a, b], [s, d],
                          backward_func=backward)
    gs = paddle.static.data("gs", [2, 3], "float32")
    gd = paddle.static.data("gd", [2, 3], "float32")
    da, db = paddle.static.gradients([s, d], [a, b], target_gradients=[gs, gd])
    up_s, up_d = X1 * 3, X2 - 1
    got_a, got_b = exe.run(feed={"a": X1, "b": X2, "gs": up_s, "gd": up_d}, fetch_list=[da, db])
    args, = calls
    assert len(args) == 6
    for got, expected in zip(args, [X1, X2, X1 + X2, X1 - X2, up_s, up_d]):
        np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got_a, up_s + up_d)
    np.testing.assert_array_equal(got_b, up_s - up_d)


def test_skipped_variables_are_left_out_of_the_backward_call(static, exe):
    a = paddle.static.data("a", [2, 3], "float32")
    b = paddle.static.data("b", [2, 3], "float32")
    a.stop_gradient = b.stop_gradient = False
    s, d = new_var("s"), new_var("d")
    calls = []

    def backward(*args):
        calls.append([np.array(v) for v in args])
        return np.ones([2, 3]), np.ones([2, 3])

    paddle.static.py_func(lambda p, q: (np.add(p, q), np.subtract(p, q)), [a, b], [s, d],
                          backward_func=backward, skip_vars_in_backward_input=[a, d])
    paddle.static.gradients([s, d], [a, b])
    exe.run(feed={"a": X1, "b": X2})
    args, = calls
    assert len(args) == 4       # b, s, ds, dd
    for got, expected in zip(args, [X2, X1 + X2, np.ones([2, 3]), np.ones([2, 3])]):
        np.testing.assert_array_equal(got, expected)


def test_a_single_skipped_input_as_in_the_guide(x, exe):
    x.stop_gradient = False
    out = new_var("out")

    def tanh_grad_without_x(y, dy):
        return np.array(dy) * (1 - np.square(np.array(y)))

    paddle.static.py_func(np.tanh, x, out, backward_func=tanh_grad_without_x,
                          skip_vars_in_backward_input=x)
    dx, = paddle.static.gradients(paddle.sum(out), x)
    got, = exe.run(feed={"x": X1}, fetch_list=[dx])
    np.testing.assert_allclose(got, 1 - np.tanh(X1) ** 2, rtol=1e-6)


def test_an_unused_output_gets_a_zero_gradient(static, exe):
    a = paddle.static.data("a", [2, 3], "float32")
    a.stop_gradient = False
    used, unused = new_var("used"), new_var("unused", [3])
    received = []

    def backward(a_, used_, unused_, d_used, d_unused):
        received.append((np.array(d_used), np.array(d_unused)))
        return np.array(d_used) * 2

    paddle.static.py_func(lambda v: (np.array(v) * 2, np.zeros(3)), a, [used, unused],
                          backward_func=backward)
    da, = paddle.static.gradients(paddle.sum(used), a)
    got, = exe.run(feed={"a": X1}, fetch_list=[da])
    (d_used, d_unused), = received
    np.testing.assert_array_equal(d_used, np.ones([2, 3]))
    np.testing.assert_array_equal(d_unused, np.zeros(3))
    assert d_unused.dtype == np.float32
    np.testing.assert_array_equal(got, np.full([2, 3], 2.0))


def test_none_gradients_for_inputs_without_one(static, exe):
    a = paddle.static.data("a", [2, 3], "float32")
    b = paddle.static.data("b", [2, 3], "float32")
    a.stop_gradient = False
    out = new_var("out")
    paddle.static.py_func(lambda p, q: np.multiply(p, q), [a, b], out,
                          backward_func=lambda p, q, o, do: (np.multiply(do, q), None))
    da, db = paddle.static.gradients(paddle.sum(out), [a, b])
    assert db is None
    got, = exe.run(feed={"a": X1, "b": X2}, fetch_list=[da])
    np.testing.assert_array_equal(got, X2)


def test_a_none_gradient_for_an_input_that_needs_one_counts_as_zero(x, exe):
    x.stop_gradient = False
    out = new_var("out")
    paddle.static.py_func(np.tanh, x, out, backward_func=lambda v, o, do: None)
    dx, = paddle.static.gradients(paddle.sum(out) + paddle.sum(x * 3.0), x)
    got, = exe.run(feed={"x": X1}, fetch_list=[dx])
    np.testing.assert_array_equal(got, np.full([2, 3], 3.0))


def test_without_backward_func_the_gradient_stops(x, exe):
    x.stop_gradient = False
    out = new_var("out")
    paddle.static.py_func(np.tanh, x, out)
    assert out.stop_gradient
    assert paddle.static.gradients(paddle.sum(out), x) == [None]
    dx, = paddle.static.gradients(paddle.sum(out) + paddle.sum(x * 2.0), x)
    got, = exe.run(feed={"x": X1}, fetch_list=[dx])
    np.testing.assert_array_equal(got, np.full([2, 3], 2.0))


def test_backward_results_are_checked(static, exe):
    a = paddle.static.data("a", [2, 3], "float32")
    a.stop_gradient = False
    counted, shaped = new_var("counted"), new_var("shaped")
    paddle.static.py_func(np.tanh, a, counted, backward_func=lambda *args: (args[-1], args[-1]))
    paddle.static.py_func(np.tanh, a, shaped, backward_func=lambda *args: np.zeros([3]))
    paddle.static.gradients(paddle.sum(counted), a)
    with pytest.raises(ValueError, match=r"returned 2 value\(s\), but there are 1 inputs"):
        exe.run(feed={"a": X1})
    with paddle.static.program_guard(paddle.static.Program()):
        b = paddle.static.data("b", [2, 3], "float32")
        b.stop_gradient = False
        out = new_var("out")
        paddle.static.py_func(np.tanh, b, out, backward_func=lambda *args: np.zeros([3]))
        paddle.static.gradients(paddle.sum(out), b)
        with pytest.raises(ValueError, match=r"gradient of shape \[3\] for input 'b', whose "
                                             r"shape is \[2, 3\]"):
            exe.run(paddle.static.default_main_program(), feed={"b": X1})


def test_exceptions_in_backward_func_reach_executor_run_unchanged(x, exe):
    x.stop_gradient = False
    error = Boom("from backward")

    def backward(*args):
        raise error

    out = new_var("out")
    paddle.static.py_func(np.tanh, x, out, backward_func=backward)
    paddle.static.gradients(paddle.sum(out), x)
    with pytest.raises(Boom) as info:
        exe.run(feed={"x": X1})
    assert info.value is error
    assert not paddle.in_dynamic_mode()


def test_backward_with_several_inputs_and_float64(static, exe):
    a = paddle.static.data("a", [3], "float64")
    b = paddle.static.data("b", [3], "float64")
    a.stop_gradient = b.stop_gradient = False
    out = new_var("out", [3], "float64")
    paddle.static.py_func(lambda p, q: np.array(p) * np.array(q), [a, b], out,
                          backward_func=lambda p, q, o, do: (np.array(do) * q, np.array(do) * p))
    loss = paddle.sum(paddle.square(out))
    da, db = paddle.static.gradients(loss, [a, b])
    va, vb = np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.5, 2.0])
    got_a, got_b = exe.run(feed={"a": va, "b": vb}, fetch_list=[da, db])
    np.testing.assert_allclose(got_a, 2 * va * vb * vb, rtol=1e-12)
    np.testing.assert_allclose(got_b, 2 * va * va * vb, rtol=1e-12)


def test_a_py_func_is_freed_with_its_program_once_its_backward_ran(static):
    import gc
    import weakref
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        out = new_var("out")
        paddle.static.py_func(np.tanh, x, out,
                              backward_func=lambda x_, y, dy: np.array(dy) * (1 - np.square(y)))
        dx, = paddle.static.gradients(paddle.sum(out), x)
    paddle.static.Executor().run(main, feed={"x": X1}, fetch_list=[dx])
    runner, = [op.fn for op in main.global_block().ops if op.type == "py_func"]
    freed = weakref.ref(runner)
    del runner, main, x, out, dx
    gc.collect()
    assert freed() is None


def test_an_input_changed_in_place_after_the_call_does_not_change_what_backward_gets(
        x, exe):
    # The node keeps its own copies of what backward_func receives: a later in-place
    # op on the input (or output) must not change them.
    x.stop_gradient = False
    h = x * 1.0
    out = new_var("out")
    received = []

    def backward(h_value, out_value, grad):
        received.append((np.array(h_value), np.array(out_value)))
        return grad * 2 * np.asarray(h_value)

    paddle.static.py_func(lambda v: np.square(v), h, out, backward_func=backward)
    h += 1.0
    out += 5.0
    dx, = paddle.static.gradients([out], [x])
    got, = exe.run(feed={"x": X1}, fetch_list=[dx])
    (h_seen, out_seen), = received
    np.testing.assert_array_equal(h_seen, X1)
    np.testing.assert_array_equal(out_seen, np.square(X1))
    np.testing.assert_allclose(got, 2 * X1)
