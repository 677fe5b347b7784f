"""numpy's ufuncs and a Tensor (issue 22): numpy's operators between an ndarray and a
Tensor give what the Tensor's own operators give, as in Paddle 3.3.1 (``a + t`` is a
Tensor there too); any other use of a ufunc is a TypeError that says what to call,
where Paddle gives numpy's bare "does not support ufuncs"."""
import operator

import numpy as np
import pytest

import pylayer as paddle


@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv,
                                operator.lt, operator.ge, operator.eq, operator.pow])
def test_numpy_operators_with_a_tensor_give_the_tensors_result(op):
    a = np.array([1.0, 2.0], dtype="float32")
    t = paddle.to_tensor([2.0, 4.0])
    got = op(a, t)
    assert isinstance(got, paddle.Tensor)
    np.testing.assert_array_equal(got.numpy(), op(a, t.numpy()))


def test_the_ufunc_called_directly_records_like_the_operator():
    a = np.array([1.0, 2.0], dtype="float32")
    t = paddle.to_tensor([2.0, 4.0], stop_gradient=False)
    out = np.multiply(a, t)
    assert isinstance(out, paddle.Tensor) and out.grad_fn.name() == "MultiplyGradNode"
    out.sum().backward()
    assert t.grad.numpy().tolist() == [1.0, 2.0]


def test_a_numpy_float64_scalar_times_a_float32_tensor_stays_float32():
    assert (np.float64(2.0) * paddle.ones([2])).dtype == paddle.float32


@pytest.mark.parametrize("call, names", [
    (lambda t: np.exp(t), ["numpy.exp()", "pylayer.exp(", "x.exp(", "x.numpy()"]),
    (lambda t: np.absolute(t), ["numpy.absolute()", "pylayer.abs("]),
    (lambda t: np.maximum(t, t), ["numpy.maximum()", "pylayer.maximum("]),
    (lambda t: np.add.reduce(t), ["numpy.add.reduce()", "reduce"]),
    (lambda t: np.logaddexp2(t, t), ["numpy.logaddexp2()", "no op of that name"]),
])
def test_other_ufuncs_say_what_to_call_instead(call, names):
    with pytest.raises(TypeError) as error:
        call(paddle.ones([2]))
    for name in names:
        assert name in str(error.value)


def test_a_ufunc_cannot_write_a_tensor_into_an_array_and_leaves_it_unchanged():
    a = np.ones(2, dtype="float32")
    with pytest.raises(TypeError, match="cannot be written into a numpy array"):
        a += paddle.ones([2])
    assert a.tolist() == [1.0, 1.0]
