"""What gradcheck and gradgradcheck say when they fail: the input, the element, and
"use float64" when the numbers were computed in a coarser dtype."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import GradcheckError, gradcheck, gradgradcheck


def test_a_float32_failure_says_to_use_float64_and_names_the_coarse_input():
    x = paddle.to_tensor(np.linspace(-1, 1, 3), dtype="float32", stop_gradient=False)
    with pytest.raises(GradcheckError) as caught:
        gradcheck(paddle.tanh, x)
    message = str(caught.value)
    assert "input 0 is float32" in message and "output 0 is float32" in message
    assert "check with float64 inputs (x.astype('float64'))" in message


def test_a_float32_output_of_float64_inputs_is_named_as_the_cause():
    x = paddle.to_tensor(np.linspace(-1, 1, 3), dtype="float64", stop_gradient=False)
    with pytest.raises(GradcheckError) as caught:
        gradcheck(lambda t: paddle.tanh(paddle.cast(t, "float32")), x)
    message = str(caught.value)
    assert "output 0 is float32" in message and "input 0 is" not in message
    assert "float64 inputs" in message


def test_a_float64_failure_blames_backward_without_the_float64_advice():
    x = paddle.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    with pytest.raises(GradcheckError) as caught:
        gradcheck(lambda t: t + t.detach(), x)
    assert "float64 inputs" not in str(caught.value) and "is float" not in str(caught.value)
    assert gradcheck(lambda t: t + t.detach(), x, raise_exception=False) is False


def test_the_input_is_counted_among_all_inputs_not_only_the_checked_ones():
    constant = paddle.to_tensor([3.0], dtype="float64")
    x = paddle.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    with pytest.raises(GradcheckError, match=r"with respect to input 1 \(element 0, "
                                             r"index \(0,\)\) is 3\.0 by backward"):
        gradcheck(lambda c, t: t * c + t.detach(), (constant, x))


def test_gradgradcheck_failure_also_says_float64_for_float32_inputs():
    x = paddle.to_tensor(np.linspace(-1, 1, 3), dtype="float32", stop_gradient=False)
    with pytest.raises(GradcheckError, match="float64 inputs"):
        gradgradcheck(paddle.tanh, x)
