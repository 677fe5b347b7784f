"""What reaches a PyLayer's inputs: reshaped or summed gradients, and a backward that runs
even when no gradient reached its outputs (as in Paddle 3.3.1 and PyTorch 2.13)."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import PyLayer


def leaf(values, dtype="float64"):
    return paddle.to_tensor(values, dtype=dtype, stop_gradient=False)


class Drop(PyLayer):
    """Backward gives its input no gradient (None)."""
    @staticmethod
    def forward(ctx, a):
        return a * 3.0

    @staticmethod
    def backward(ctx, g):
        return None


class Returns(PyLayer):
    """Backward returns ``make(dy)``: a gradient of another shape."""
    @staticmethod
    def forward(ctx, x, make):
        ctx.make = make
        return x * 1.0

    @staticmethod
    def backward(ctx, dy):
        return ctx.make(dy)


def test_a_0d_gradient_for_a_shape_1_input_is_reshaped():
    x = leaf([3.0])
    Returns.apply(x, lambda dy: dy.sum() * 2.0).sum().backward()
    assert x.grad.shape == [1] and x.grad.numpy().tolist() == [2.0]


def test_a_shape_1_gradient_for_a_0d_input_is_reshaped():
    x = leaf(3.0)
    Returns.apply(x, lambda dy: paddle.ones([1], dtype="float64")).backward()
    assert x.grad.shape == [] and float(x.grad) == 1.0


def test_a_gradient_that_differs_by_size_1_dimensions_is_reshaped():
    x = leaf([[1.0, 2.0, 3.0]])
    Returns.apply(x, lambda dy: paddle.reshape(dy, [3, 1])).sum().backward()
    assert x.grad.shape == [1, 3]


def test_a_gradient_the_input_broadcasts_to_is_summed_down():
    x = leaf([1.0, 2.0])
    Returns.apply(x, lambda dy: paddle.ones([3, 2], dtype="float64")).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_any_other_shape_is_an_error_naming_the_class_position_and_shapes():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with pytest.raises(ValueError, match=r"Returns.*\[6\] at position 0.*\[2, 3\]"):
        Returns.apply(x, lambda dy: paddle.reshape(dy, [6])).sum().backward()
    assert x.grad is None


def test_reshaped_gradients_pass_gradcheck_and_gradgradcheck():
    class Quantize(PyLayer):
        @staticmethod
        def forward(ctx, x, scale):
            ctx.save_for_backward(x, scale)
            return paddle.round(x / scale) * scale

        @staticmethod
        def backward(ctx, dy):
            x, scale = ctx.saved_tensor()
            return dy, (dy * (x / scale)).sum()      # 0-D gradient for a shape-[1] scale

    x = leaf([0.3, 1.7, -0.9])
    scale = leaf([0.5])
    Quantize.apply(x, scale).sum().backward()
    assert scale.grad.shape == [1]

    class Square(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, dy):
            x, = ctx.saved_tensor()
            return (dy * x * 2.0).sum()              # 0-D for a shape-[1] input

    assert paddle.autograd.gradcheck(Square.apply, leaf([0.7]))
    assert paddle.autograd.gradgradcheck(Square.apply, leaf([0.7]))


def test_an_upstream_pylayer_runs_with_zeros_when_a_downstream_one_returns_none():
    calls = []

    class Up(PyLayer):
        @staticmethod
        def forward(ctx, a):
            return a * 2.0

        @staticmethod
        def backward(ctx, g):
            calls.append(g.numpy().tolist())
            return g * 2.0

    x = leaf([1.0, 2.0])
    with pytest.warns(UserWarning, match="GradNodePyLayer_Drop: backward returned None"):
        Drop.apply(paddle.tanh(Up.apply(x))).sum().backward()
    assert calls == [[0.0, 0.0]]                     # Paddle 3.3.1 and PyTorch 2.13 agree
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0])


def test_without_materialized_grads_the_upstream_pylayer_gets_none():
    calls = []

    class Up(PyLayer):
        @staticmethod
        def forward(ctx, a):
            ctx.set_materialize_grads(False)
            return a * 2.0

        @staticmethod
        def backward(ctx, g):
            calls.append(g)
            return g

    x = leaf([1.0, 2.0])
    with pytest.warns(UserWarning, match="GradNodePyLayer_Drop: backward returned None"):
        Drop.apply(Up.apply(x)).sum().backward()
    assert calls == [None]
    assert x.grad is None


def test_only_built_in_ops_below_a_none_leave_the_leaf_without_a_gradient():
    x = leaf([1.0, 2.0])
    with pytest.warns(UserWarning, match="GradNodePyLayer_Drop: backward returned None"):
        Drop.apply(paddle.tanh(x * 2.0)).sum().backward()
    assert x.grad is None                            # PyTorch's rule (Paddle fills zeros)
