"""Static Variables take their operators from the same table as Tensor, and give the
same numbers as dynamic mode for every operator."""
import operator

import numpy as np
import pytest

import pylayer as paddle
from pylayer import _methods

A = np.array([[3, 4], [5, 6]])
B = np.array([[1, 2], [2, 3]])


def dynamic(dunder, dtype):
    a, b = paddle.to_tensor(A.astype(dtype)), paddle.to_tensor(B.astype(dtype))
    return _call(dunder, a, b).numpy()


def _call(dunder, a, b):
    name, how = _methods.OPERATORS[dunder]
    if how == "unary":
        return getattr(a, dunder)()
    result = getattr(a, dunder)(b)
    return a if result is NotImplemented else result


@pytest.mark.parametrize("dunder", sorted(_methods.OPERATORS))
def test_every_operator_gives_the_same_numbers_in_static_mode(dunder):
    name, _ = _methods.OPERATORS[dunder]
    dtype = "int64" if name.startswith("bitwise") else "float64"
    expected = dynamic(dunder, dtype)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            a = paddle.static.data("a", [2, 2], dtype)
            b = paddle.static.data("b", [2, 2], dtype)
            out = _call(dunder, a, b)
        exe = paddle.static.Executor(paddle.CPUPlace())
        got, = exe.run(main, feed={"a": A.astype(dtype), "b": B.astype(dtype)},
                       fetch_list=[out])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_variable_and_tensor_operators_come_from_one_table():
    from pylayer.static import Variable
    for dunder in _methods.OPERATORS:
        assert getattr(Variable, dunder).__name__ == dunder
    assert operator.invert is not None and _methods.OPERATORS["__invert__"][0] == "bitwise_not"
