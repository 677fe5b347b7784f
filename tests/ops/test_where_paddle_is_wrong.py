"""Where Paddle 3.3.1 gives a wrong result, pylayer keeps the right one (numpy / PyTorch).

Each case is listed, with Paddle's outcome, in the migration guide
(docs/*/guides/migration.rst, "Numerics that differ from Paddle").
"""
import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F


def leaf(data, dtype="float64"):
    return pylayer.to_tensor(data, dtype=dtype, stop_gradient=False)


def gradient(fn, x):
    (g,) = pylayer.grad(fn(x).sum(), x)
    return g.numpy()


def test_prod_gradient_at_zeros_is_exact():           # Paddle: nan
    np.testing.assert_array_equal(gradient(pylayer.prod, leaf([0.0, 2.0, 3.0])), [6.0, 0.0, 0.0])
    np.testing.assert_array_equal(gradient(pylayer.prod, leaf([0.0, 0.0, 3.0])), [0.0, 0.0, 0.0])


def test_max_gradient_with_a_nan_goes_to_the_nan():    # Paddle: nan everywhere
    g = gradient(pylayer.max, leaf([1.0, np.nan, 3.0]))
    assert g.tolist()[0] == 0.0 and g.tolist()[2] == 0.0 and g[1] == 1.0


def test_std_of_a_constant_has_a_zero_gradient():     # Paddle: nan
    np.testing.assert_array_equal(gradient(pylayer.std, leaf([2.0, 2.0, 2.0])), [0.0] * 3)


def test_abs_gradient_at_infinity():                  # Paddle: nan
    np.testing.assert_array_equal(gradient(pylayer.abs, leaf([np.inf, -np.inf])), [1.0, -1.0])


def test_logsumexp_of_all_minus_infinity():          # Paddle: nan
    assert pylayer.logsumexp(pylayer.to_tensor([-np.inf, -np.inf])).numpy() == -np.inf


def test_float32_log_softmax_of_a_large_spread():      # Paddle: -inf / inaccurate in float32
    out = F.log_softmax(pylayer.to_tensor([0.0, 1000.0], dtype="float32"), axis=0).numpy()
    np.testing.assert_allclose(out, [-1000.0, 0.0])


def test_masked_setitem_gives_the_values_their_gradient():  # Paddle float64: garbage
    x = leaf([1.0, 2.0, 3.0]) * 1.0
    values = leaf([5.0, 6.0])
    x[pylayer.to_tensor([True, False, True])] = values
    (g,) = pylayer.grad((x * x).sum(), values)
    assert g.numpy().tolist() == [10.0, 12.0]


def test_broadcast_batched_matmul_backward():          # Paddle: fails
    a, b = leaf(np.ones((2, 3, 4))), leaf(np.ones((4, 5)))
    pylayer.matmul(a, b).sum().backward()
    assert a.grad.shape == [2, 3, 4] and b.grad.shape == [4, 5]
    np.testing.assert_array_equal(b.grad.numpy(), np.full((4, 5), 6.0))


def test_argmax_with_a_nan_picks_the_nan():            # numpy's rule
    assert int(pylayer.argmax(pylayer.to_tensor([1.0, np.nan, 3.0]))) == 1


def test_relu_of_nan_is_nan():
    assert np.isnan(F.relu(pylayer.to_tensor([np.nan])).numpy()[0])


@pytest.mark.parametrize("op", [pylayer.mean, pylayer.var])
def test_integer_mean_and_var_are_refused_not_truncated(op):   # Paddle: truncates
    with pytest.raises(TypeError, match=rf"{op.__name__}\(\).*floating-point"):
        op(pylayer.to_tensor([1, 2]))


def test_std_of_integers_is_computed_in_float32():    # Paddle: 1.0 for [1, 2] (truncated mean)
    out = pylayer.std(pylayer.to_tensor([1, 2]))
    assert out.dtype == "float32" and out.numpy() == pytest.approx(np.sqrt(0.5))
