"""once_differentiable: a backward that refuses to be differentiated a second time."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import PyLayer, once_differentiable


class NumpyTanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        NumpyTanh.recording = paddle.is_grad_enabled()
        y, = ctx.saved_tensor()
        return paddle.to_tensor(dy.numpy() * (1 - y.numpy() ** 2))


class PairOnce(PyLayer):
    @staticmethod
    def forward(ctx, x, items):
        return x * items[0]

    @staticmethod
    @once_differentiable
    def backward(ctx, dz):
        return dz * 2, [dz * 3, None]


def leaf(values):
    return paddle.to_tensor(np.asarray(values, dtype="float64"), stop_gradient=False)


def test_first_order_gradients_are_unchanged():
    x = leaf([0.5, -0.25])
    NumpyTanh.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh([0.5, -0.25]) ** 2)
    assert paddle.autograd.gradcheck(NumpyTanh.apply, leaf([0.1, 0.9]))


def test_the_backward_runs_with_recording_off_even_under_create_graph():
    x = leaf([0.5])
    (g,) = paddle.grad(NumpyTanh.apply(x), x, create_graph=True)
    assert NumpyTanh.recording is False
    np.testing.assert_allclose(g.numpy(), 1 - np.tanh([0.5]) ** 2)


def test_differentiating_the_gradient_again_raises_a_clear_error():
    x = leaf([0.5, 1.0])
    (g,) = paddle.grad(NumpyTanh.apply(x).sum(), x, create_graph=True)
    with pytest.raises(RuntimeError, match=r"GradNodePyLayer_NumpyTanh.*once_differentiable"):
        paddle.grad(g.sum(), x)
    with pytest.raises(RuntimeError, match="once_differentiable"):
        paddle.autograd.gradgradcheck(NumpyTanh.apply, leaf([0.1]))


def test_second_order_through_incoming_gradients_also_raises():
    x = leaf([1.0])
    seed = leaf([2.0])
    (g,) = paddle.grad(NumpyTanh.apply(x), x, grad_outputs=seed, create_graph=True)
    with pytest.raises(RuntimeError, match="once_differentiable"):
        paddle.grad(g, seed)


def test_tuples_and_list_slots_are_guarded_and_keep_their_values():
    x, a, b = leaf([1.0]), leaf([2.0]), leaf([3.0])
    gx, ga = paddle.grad(PairOnce.apply(x, [a, b]), [x, a], create_graph=True)
    assert (gx.item(), ga.item()) == (2.0, 3.0)
    with pytest.raises(RuntimeError, match="GradNodePyLayer_PairOnce"):
        paddle.grad(ga, x)


def test_without_create_graph_gradients_are_plain_tensors():
    x = leaf([0.5])
    (g,) = paddle.grad(NumpyTanh.apply(x), x)
    assert g.stop_gradient and g.grad_fn is None


def test_the_decorated_function_keeps_its_name_and_doc():
    def backward(ctx, dy):
        """My backward."""
        return dy

    wrapped = once_differentiable(backward)
    assert wrapped.__name__ == "backward" and wrapped.__doc__ == "My backward."
