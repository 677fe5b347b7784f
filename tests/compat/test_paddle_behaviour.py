"""Behaviour that follows Paddle 3.3.1, each case as observed on Paddle 3.3.1 (issue 20).

The static-graph cases are in tests/static (creation ops, static_pylayer)
and the optimizer's minimize in tests/optimizer.
"""
import warnings

import numpy as np
import pytest

import pylayer as paddle
import pylayer.nn.functional as F


# ------------------------------------------------------------ Tensor.gradient
def test_gradient_is_a_numpy_copy_of_grad_or_none():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    assert x.gradient() is None
    y = x * 3.0
    y.retain_grads()
    (y * 2.0).sum().backward()
    got = x.gradient()
    assert type(got) is np.ndarray and got.dtype == np.float32 and got.tolist() == [6.0, 6.0]
    got[0] = 100.0
    assert x.grad.numpy().tolist() == [6.0, 6.0]      # a copy
    assert y.gradient().tolist() == [2.0, 2.0]
    assert (x * 5.0).gradient() is None
    assert paddle.to_tensor([1.0]).gradient() is None
    x.clear_grad(set_to_zero=True)
    assert x.gradient().tolist() == [0.0, 0.0]


# ------------------------------------------------------- MSELoss broadcasting
def test_mse_loss_broadcasts_input_and_label():
    inp = paddle.to_tensor([1.0, 2.0, 3.0, 4.0], stop_gradient=False)
    label = paddle.to_tensor([[1.0], [0.0], [2.0], [5.0]])
    with pytest.warns(UserWarning, match=r"mse_loss\(\): 'input' of shape \[4\] and 'label' "
                                         r"of shape \[4, 1\] broadcast to a loss of shape"):
        loss = paddle.nn.MSELoss()(inp, label)
    assert loss.shape == [] and loss.item() == 5.0
    loss.backward()
    np.testing.assert_allclose(inp.grad.numpy(), [-0.5, 0.0, 0.5, 1.0])
    with pytest.warns(UserWarning):
        unreduced = paddle.nn.MSELoss(reduction="none")(inp, label)
        assert paddle.nn.MSELoss(reduction="sum")(inp, label).item() == 80.0
        assert F.mse_loss(inp, label).item() == 5.0
    assert unreduced.shape == [4, 4]
    assert unreduced.numpy().ravel()[:6].tolist() == [0.0, 1.0, 4.0, 9.0, 1.0, 4.0]


def test_a_label_that_broadcasts_to_the_inputs_shape_is_no_warning():
    inp = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert F.mse_loss(inp, paddle.to_tensor([1.0, 2.0])).item() == 2.0
        assert F.mse_loss(inp, paddle.to_tensor(0.0)).item() == 7.5


def test_mse_loss_of_shapes_that_do_not_broadcast_is_a_value_error():
    with pytest.raises(ValueError, match=r"mse_loss\(\): argument 'label' of shape \[4\] does "
                                         r"not broadcast with 'input' of shape \[3\]"):
        paddle.nn.MSELoss()(paddle.ones([3]), paddle.ones([4]))


# ------------------------------------------ grad_outputs with size-1 dimensions
@pytest.mark.parametrize("x_value, seed, expected", [
    (2.0, [3.0], 12.0),                 # 0-D output, gradient of shape [1]
    ([2.0], 3.0, [12.0]),               # [1] output, 0-D gradient
    (2.0, [[3.0]], 12.0),               # 0-D output, gradient of shape [1, 1]
    ([[2.0, 3.0]], [3.0, 4.0], [[12.0, 24.0]]),    # [1, 2] output, [2] gradient
], ids=["0-D and [1]", "[1] and 0-D", "0-D and [1, 1]", "[1, 2] and [2]"])
def test_a_grad_output_that_differs_by_size_one_dimensions_is_taken(x_value, seed, expected):
    x = paddle.to_tensor(x_value, stop_gradient=False)
    (gx,) = paddle.grad(x * x, x, grad_outputs=paddle.to_tensor(seed))
    assert gx.shape == x.shape
    np.testing.assert_array_equal(gx.numpy(), expected)


def test_backward_takes_such_a_gradient_too_and_create_graph_keeps_it_differentiable():
    x = paddle.to_tensor(2.0, stop_gradient=False)
    paddle.autograd.backward([x * x], [paddle.to_tensor([3.0])])
    assert x.grad.shape == [] and x.grad.item() == 12.0
    x = paddle.to_tensor(2.0, stop_gradient=False)
    (gx,) = paddle.grad(x * x * x, x, grad_outputs=paddle.to_tensor([1.0]), create_graph=True)
    assert gx.shape == [] and not gx.stop_gradient
    (ggx,) = paddle.grad(gx, x)
    assert ggx.item() == 12.0


def test_a_grad_output_of_another_size_is_still_refused():
    # Paddle 3.3.1 returns [12, 0] here (the one value spread over the first element).
    x = paddle.to_tensor([2.0, 3.0], stop_gradient=False)
    with pytest.raises(ValueError, match=r"grad\(\): argument 'grad_outputs' has a gradient of "
                                         r"shape \[1\] for a tensor of shape \[2\].*size 1"):
        paddle.grad(x * x, x, grad_outputs=paddle.to_tensor([3.0]))


# ------------------------------------------------------------ error types
def test_hessian_of_a_0d_ys_with_a_batch_axis_is_an_index_error():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    with pytest.raises(IndexError, match=r"hessian\(\): with batch_axis=0, ys needs a batch "
                                         r"axis.*0-D"):
        paddle.autograd.hessian((x * x).sum(), x, batch_axis=0)


def test_backward_of_a_create_graph_gradient_that_does_not_depend_on_x_gives_x_zeros():
    # Paddle 3.3.1: d(x*w)/dx = w does not depend on x, yet after backward x.grad is
    # zeros (the double-grad node reaches x), not None; w gets its gradient.
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    (gx,) = paddle.grad((x * w).sum(), x, create_graph=True)
    gx.sum().backward()
    assert x.grad is not None and x.grad.numpy().tolist() == [0.0, 0.0]
    assert w.grad.numpy().tolist() == [1.0, 1.0]
