"""PyTorch's spellings get Paddle's in the error: ``requires_grad=`` points to
``stop_gradient``."""
import inspect

import pytest

import pylayer as paddle


@pytest.mark.parametrize("value", [True, False])
def test_to_tensor_requires_grad_points_to_stop_gradient(value):
    with pytest.raises(TypeError) as info:
        paddle.to_tensor([1.0, 2.0], requires_grad=value)
    message = str(info.value)
    assert message.startswith("to_tensor() has no argument 'requires_grad'")
    assert "requires_grad=True is stop_gradient=False" in message
    assert "requires_grad=False is the default, stop_gradient=True" in message


def test_to_tensor_keeps_its_paddle_signature_and_behaviour():
    assert list(inspect.signature(paddle.to_tensor).parameters) == [
        "data", "dtype", "place", "stop_gradient"]
    assert paddle.to_tensor([1.0], stop_gradient=False).stop_gradient is False
    with pytest.raises(TypeError, match="unexpected keyword argument 'device'"):
        paddle.to_tensor([1.0], device="cpu")
