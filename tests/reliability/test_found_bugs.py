"""One regression test per bug that the reliability tests found (each failed before its fix)."""
import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradgradcheck


def leaf(shape, low=-1.0, high=1.0, seed=0):
    values = np.random.default_rng(seed).uniform(low, high, shape)
    return pylayer.to_tensor(values, dtype="float64", stop_gradient=False)


@pytest.mark.parametrize("reduce", [
    lambda t: pylayer.max(t, axis=0), lambda t: pylayer.min(t, axis=0),
    lambda t: pylayer.prod(t, axis=0), lambda t: pylayer.logsumexp(t, axis=0),
    lambda t: pylayer.var(t, axis=0), lambda t: pylayer.std(t, axis=0)])
def test_reduction_backward_over_an_empty_tensor_keeps_its_zero_sized_dims(reduce):
    # Reducing [5, 0, 2] over axis 0 gives [0, 2]; its gradient must be
    # reshaped to [1, 0, 2] exactly, where a 0 is a size, not "keep this dim".
    x = leaf([5, 0, 2])
    reduce(x).sum().backward()
    assert x.grad.shape == [5, 0, 2]


def test_pow_second_derivative_in_the_exponent_at_exponent_zero():
    # d/dy (d/dx x**y) = x**(y-1) * (1 + y*log(x)), which is 1/x at y == 0.
    x = pylayer.to_tensor([1.0, 2.0, 0.5], dtype="float64", stop_gradient=False)
    y = pylayer.to_tensor([0.0, 0.0, 0.0], dtype="float64", stop_gradient=False)
    (dx,) = pylayer.grad(pylayer.pow(x, y).sum(), [x], create_graph=True)
    (dxdy,) = pylayer.grad(dx.sum(), [y])
    np.testing.assert_allclose(dxdy.numpy(), [1.0, 0.5, 2.0])
    assert gradgradcheck(pylayer.pow, [x, y])


def test_pow_gradient_stays_zero_where_base_and_exponent_are_zero():
    x = pylayer.to_tensor([0.0, 0.0], dtype="float64", stop_gradient=False)
    y = pylayer.to_tensor([0.0, 2.0], dtype="float64", stop_gradient=False)
    (dx,) = pylayer.grad(pylayer.pow(x, y).sum(), [x])
    np.testing.assert_array_equal(dx.numpy(), [0.0, 0.0])


def test_to_tensor_with_a_float64_dtype_keeps_python_floats_exact():
    # Python floats went through float32 before the cast: 0.1 became 0.10000000149.
    assert pylayer.to_tensor(0.1, dtype="float64").item() == 0.1
    assert pylayer.to_tensor([0.1, [0.2][0]], dtype="float64").numpy().tolist() == [0.1, 0.2]
    assert pylayer.to_tensor([[1e-300]], dtype="float64").item() == 1e-300
    assert pylayer.to_tensor(0.1).dtype == pylayer.float32  # the default stays float32


def test_mse_loss_warns_when_a_label_broadcasts_the_loss():
    # A [N, 1] prediction against a [N] label broadcasts to an [N, N] loss (the
    # mean of all pairwise errors), as Paddle computes it: not silently.
    prediction = pylayer.to_tensor([[1.0], [2.0], [3.0]])
    label = pylayer.to_tensor([1.0, 2.0, 3.0])
    with pytest.warns(UserWarning, match=r"mse_loss\(\).*broadcast to a loss of shape \[3, 3\]"):
        loss = pylayer.nn.functional.mse_loss(prediction, label)
    assert loss.item() == pytest.approx(12.0 / 9.0)


@pytest.mark.parametrize("dtype", ["float16", "complex64"])
def test_scalar_gradients_fanning_in_stay_arrays(dtype):
    # Gradients of a 0-d tensor outside the float32/float64 loop were summed by numpy,
    # which hands back a numpy scalar; the engine kept it as the sum's array and read
    # it as an ndarray at the next gradient (a crash for complex64).
    x = pylayer.to_tensor(1.5, dtype=dtype, stop_gradient=False)
    y = x * 2.0
    (y + y + y + y).backward()
    assert x.grad.dtype == dtype and x.grad.item() == 8.0
