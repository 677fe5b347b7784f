"""``py_func`` tells what to do: a function that cannot take the arguments it
will get is refused when the program is built, naming the argument order;
a function that writes into the arrays it receives is told they are read-only."""
import numpy as np
import pytest

import pylayer as paddle

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]], "float32")


def new_var(name, shape=(2, 3), dtype="float32"):
    return paddle.static.default_main_program().current_block().create_var(
        name=name, dtype=dtype, shape=list(shape))


@pytest.fixture
def x(static):
    x = paddle.static.data("x", [2, 3], "float32")
    x.stop_gradient = False
    return x


def test_a_backward_func_with_too_few_parameters_names_the_order(x):
    out = new_var("out")
    with pytest.raises(TypeError) as info:
        paddle.static.py_func(np.tanh, x, out, backward_func=lambda y, dy: dy)
    message = str(info.value)
    assert message.startswith("py_func: backward_func '<lambda>' cannot take the 3 argument(s) "
                              "it will be called with (too many positional arguments)")
    assert ("the inputs ['x'], then the outputs ['out'], then one gradient per output (1), "
            "in that order") in message
    assert "skip_vars_in_backward_input" in message
    assert paddle.static.default_main_program().current_block().ops == []


def test_the_order_leaves_out_the_skipped_variables(static):
    a = paddle.static.data("a", [2, 3], "float32")
    b = paddle.static.data("b", [2, 3], "float32")
    s, d = new_var("s"), new_var("d")
    with pytest.raises(TypeError, match=r"cannot take the 4 argument\(s\) it will be called with "
                                        r"\(missing a required argument: 'e'\): the inputs "
                                        r"\['b'\], then the outputs \['s'\], then one gradient "
                                        r"per output \(2\)"):
        paddle.static.py_func(lambda p, q: (p + q, p - q), [a, b], [s, d],
                              backward_func=lambda b_, s_, ds, dd, e: (ds, dd),
                              skip_vars_in_backward_input=[a, d])


def test_a_func_with_the_wrong_number_of_parameters_is_refused(x):
    out = new_var("out")
    with pytest.raises(TypeError, match=r"py_func: func 'two' cannot take the 1 argument\(s\) it "
                                        r"will be called with \(missing a required argument: "
                                        r"'b'\): one array per variable of x, \['x'\]"):
        def two(a, b):
            return a
        paddle.static.py_func(two, x, out)


def test_functions_that_take_any_arguments_pass(x, exe):
    out = new_var("out")
    paddle.static.py_func(lambda *arrays: np.tanh(arrays[0]), x, out,
                          backward_func=lambda *args: args[-1])
    got, = exe.run(feed={"x": X}, fetch_list=[out])
    np.testing.assert_allclose(got, np.tanh(X), rtol=1e-6)


def test_writing_into_an_input_says_the_inputs_are_read_only(x, exe):
    def doubles_in_place(a):
        a *= 2
        return a

    out = new_var("out")
    paddle.static.py_func(doubles_in_place, x, out)
    with pytest.raises(ValueError) as info:
        exe.run(feed={"x": X}, fetch_list=[out])
    message = str(info.value)
    assert message.startswith("py_func: func 'doubles_in_place' wrote into a read-only array "
                              "(output array is read-only): the inputs it receives are "
                              "read-only views")
    assert "copy one before changing it (a = a.copy())" in message
    assert "read-only" in str(info.value.__cause__)


def test_a_backward_func_writing_into_a_gradient_is_told_too(x, exe):
    def backward(x_, y, dy):
        dy[...] = 0
        return dy

    out = new_var("out")
    paddle.static.py_func(np.tanh, x, out, backward_func=backward)
    paddle.static.gradients(paddle.sum(out), x)
    with pytest.raises(ValueError, match=r"py_func: backward_func 'backward' wrote into a "
                                         r"read-only array \(assignment destination is "
                                         r"read-only\): the inputs, outputs and output "
                                         r"gradients it receives are read-only"):
        exe.run(feed={"x": X})


def test_other_value_errors_of_func_are_unchanged(x, exe):
    error = ValueError("bad value")

    def func(a):
        raise error

    out = new_var("out")
    paddle.static.py_func(func, x, out)
    with pytest.raises(ValueError) as info:
        exe.run(feed={"x": X}, fetch_list=[out])
    assert info.value is error
