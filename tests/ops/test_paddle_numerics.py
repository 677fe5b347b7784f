"""Paddle's numerics where Paddle is right (issue 13, part 6).

Each test records what Paddle 3.3.1 returned for the same call (checked in a
scratch environment with ``paddlepaddle==3.3.1``; the expected values below
are Paddle's outputs), so that pylayer keeps matching it.
"""
import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck


def leaf(data, dtype="float32"):
    return pylayer.to_tensor(data, dtype=dtype, stop_gradient=False)


# ------------------------------------------------------------------ rounding
def test_round_halves_go_to_even():
    out = pylayer.round(pylayer.to_tensor([0.5, 1.5, 2.5, -0.5, -1.5]))
    # Paddle: [0., 2., 2., -0., -2.]
    np.testing.assert_array_equal(out.numpy(), np.array([0.0, 2.0, 2.0, -0.0, -2.0], "float32"))
    assert np.signbit(out.numpy()[3])


def test_round_with_decimals_rounds_half_to_even_in_the_input_dtype():
    out = pylayer.round(pylayer.to_tensor([0.125, 0.375, 1.005, 2.5]), decimals=2)
    # Paddle (float32): [0.12, 0.38, 1.0, 2.5]
    np.testing.assert_array_equal(out.numpy(), np.array([0.12, 0.38, 1.0, 2.5], "float32"))
    tens = pylayer.round(pylayer.to_tensor([0.125, 25.0, 35.0], dtype="float64"), decimals=-1)
    # Paddle (float64, decimals=-1): [0., 20., 40.]
    np.testing.assert_array_equal(tens.numpy(), [0.0, 20.0, 40.0])


def test_round_keeps_values_too_large_to_scale():
    big = pylayer.to_tensor([3e38, -3e38, np.inf])
    np.testing.assert_array_equal(pylayer.round(big, decimals=2).numpy(), big.numpy())


# ---------------------------------------------------------------- gradients
def test_clip_gradient_passes_at_both_bounds():
    x = leaf([-1.0, 0.0, 1.0, 2.0, -2.0])
    pylayer.clip(x, -1.0, 1.0).sum().backward()
    # Paddle: [1., 1., 1., 0., 0.]
    assert x.grad.numpy().tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]
    y = leaf([-1.0, 0.0, 1.0, 2.0])
    pylayer.clip(y, min=-1.0).sum().backward()
    # Paddle: [1., 1., 1., 1.]
    assert y.grad.numpy().tolist() == [1.0, 1.0, 1.0, 1.0]
    z = leaf([-1.5, 0.3, 1.2], dtype="float64")
    assert gradcheck(lambda t: pylayer.clip(t, -1.0, 1.0) * t, z)
    assert gradgradcheck(lambda t: pylayer.clip(t, -1.0, 1.0) * t, z)


def test_sum_with_a_wider_dtype_gives_a_gradient_of_the_input_dtype():
    x = leaf([1.0, 2.0])
    total = pylayer.sum(x * 2.0, dtype="float64")
    assert total.dtype == "float64"
    (g,) = pylayer.grad(total, x)
    # Paddle: float32 [2., 2.], for grad() and for .grad alike
    assert g.dtype == "float32" and g.numpy().tolist() == [2.0, 2.0]
    pylayer.sum(x, dtype="float64").backward()
    assert x.grad.dtype == "float32" and x.grad.numpy().tolist() == [1.0, 1.0]
    w = leaf([0.5, -1.5])
    assert gradcheck(lambda t: pylayer.sum(t * t, dtype="float64"), w.astype("float64"))


# ----------------------------------------------------------- default dtypes
def test_full_of_an_int_is_float32():
    out = pylayer.full([2], 3)
    # Paddle: float32 [3., 3.]
    assert out.dtype == "float32" and out.numpy().tolist() == [3.0, 3.0]
    assert pylayer.full([2], True).dtype == "bool"
    assert pylayer.full([2], 3, dtype="int64").dtype == "int64"
    assert pylayer.full_like(pylayer.to_tensor([1, 2]), 3).dtype == "int64"


@pytest.mark.parametrize("expression, expected", [
    (lambda t: t * 1.5, [1.5, 3.0]),
    (lambda t: t + 1.5, [2.5, 3.5]),
    (lambda t: 1.5 - t, [0.5, -0.5]),
    (lambda t: t / 2.0, [0.5, 1.0]),
    (lambda t: pylayer.multiply(t, pylayer.to_tensor(1.5)), [1.5, 3.0]),
], ids=["mul", "add", "rsub", "div", "int64-times-float32"])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_integer_tensor_with_a_float_gives_float32(expression, expected, dtype):
    out = expression(pylayer.to_tensor([1, 2], dtype=dtype))
    # Paddle: float32 in every case
    assert out.dtype == "float32" and out.numpy().tolist() == expected
    assert (pylayer.to_tensor([1, 2]) * 2).dtype == "int64"
    assert (pylayer.to_tensor([1, 2]) * pylayer.to_tensor(1.5, dtype="float64")).dtype == "float64"


def test_scale_keeps_an_integer_dtype_truncating_scale_and_bias():
    ints = pylayer.to_tensor([1, 2])
    # Paddle: int64 [3, 5], [2, 4], [-1, -2]
    assert pylayer.scale(ints, 2.5, 1.0).numpy().tolist() == [3, 5]
    assert pylayer.scale(ints, 2.7, 0.9, bias_after_scale=False).numpy().tolist() == [2, 4]
    assert pylayer.scale(ints, -1.5).numpy().tolist() == [-1, -2]
    assert pylayer.scale(ints, 2.5).dtype == "int64"
    assert pylayer.scale(pylayer.to_tensor([1], dtype="int32"), 2.0).dtype == "int32"
    with pytest.raises(ValueError, match=r"scale\(\).*finite"):
        pylayer.scale(ints, float("inf"))


def test_cumsum_of_int32_is_int64():
    out = pylayer.cumsum(pylayer.to_tensor([1, 2], dtype="int32"))
    # Paddle: int64 [1, 3]
    assert out.dtype == "int64" and out.numpy().tolist() == [1, 3]


FLOAT_ONLY = ["exp", "log", "sqrt", "tanh", "sigmoid", "log1p", "rsqrt", "sin", "cos", "tan",
              "erf", "reciprocal", "logsumexp", "std"]


@pytest.mark.parametrize("name", FLOAT_ONLY)
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_float_only_math_computes_integers_in_float32(name, dtype):
    fn = getattr(pylayer, name)
    out = fn(pylayer.to_tensor([1, 2], dtype=dtype))
    assert out.dtype == "float32"
    np.testing.assert_allclose(out.numpy(), fn(pylayer.to_tensor([1.0, 2.0])).numpy(),
                               rtol=1e-6)


def test_float_only_math_values_on_integers():
    # Paddle: exp [2.7182817, 7.389056], log [0., 0.6931472], logsumexp 2.3132617
    np.testing.assert_allclose(pylayer.exp(pylayer.to_tensor([1, 2])).numpy(),
                               [2.7182817, 7.389056], rtol=1e-6)
    np.testing.assert_allclose(pylayer.log(pylayer.to_tensor([1, 2])).numpy(),
                               [0.0, 0.6931472], rtol=1e-6)
    np.testing.assert_allclose(pylayer.logsumexp(pylayer.to_tensor([1, 2])).numpy(),
                               2.3132617, rtol=1e-6)


# -------------------------------------------------------------------- shapes
def test_where_with_one_argument_gives_1d_index_tensors():
    rows, cols = pylayer.where(pylayer.to_tensor([[True, False], [False, True]]))
    # Paddle: (int64 [0, 1], int64 [0, 1]), each of shape [2]
    assert rows.shape == [2] and cols.shape == [2] and rows.dtype == "int64"
    assert rows.numpy().tolist() == [0, 1] and cols.numpy().tolist() == [0, 1]
    empty = pylayer.where(pylayer.zeros([2, 2]) > 0)
    assert [t.shape for t in empty] == [[0], [0]]
    assert [t.shape for t in pylayer.where(pylayer.ones([2, 2, 2]) > 0)] == [[8]] * 3
    # Paddle: ValueError for a 0-D condition
    with pytest.raises(ValueError, match=r"where\(\).*0-D"):
        pylayer.where(pylayer.to_tensor(True))


@pytest.mark.parametrize("source, target, expected", [
    ([0, 3], [0, -1], [0, 3]),
    ([0, 3], [-1, 0], [3, 0]),
    ([0, 3], [3, 0], [3, 0]),
    ([2, 0, 3], [0, 0], [0, 0]),
    ([2, 0, 3], [0, -1], [0, 6]),
    ([2, 0, 3], [2, 0, -1], [2, 0, 3]),
    ([2, 0, 3], [5, -1], [5, 0]),
    ([2, 0, 3], [-1, 0], [6, 0]),
    ([3, 0], [3, 0, -1], [3, 0, 1]),
    ([3, 0, 4], [4, 0, -1], [4, 0, 3]),
    ([0], [-1, 0], [1, 0]),
    ([0], [2, -1], [2, 0]),
])
def test_reshape_of_a_zero_size_tensor_follows_paddle(source, target, expected):
    # The expected shapes are Paddle's results.
    assert pylayer.reshape(pylayer.zeros(source), target).shape == expected


@pytest.mark.parametrize("source, target", [
    ([2, 0, 3], [4, 0, -1]),    # 6 is not divisible by 4
    ([2, 0, 3], [6]),           # 6 elements wanted, 0 there
    ([2, 0, 3], [0, 0, -1]),    # several 0s: the -1 is ambiguous
])
def test_reshape_of_a_zero_size_tensor_refuses_what_paddle_refuses(source, target):
    with pytest.raises(ValueError, match=r"reshape\(\)"):
        pylayer.reshape(pylayer.zeros(source), target)


def test_reshape_keeps_a_dimension_for_0_when_the_tensor_has_elements():
    assert pylayer.reshape(pylayer.zeros([2, 3]), [0, -1]).shape == [2, 3]


# ------------------------------------------------------- errors and types
def test_gather_index_out_of_range_is_an_index_error():
    x = pylayer.to_tensor([1.0, 2.0, 3.0])
    # Paddle: IndexError (OutOfRange)
    with pytest.raises(IndexError, match=r"gather\(\).*'index'"):
        pylayer.gather(x, pylayer.to_tensor([5]))
    with pytest.raises(IndexError, match=r"gather\(\).*axis 1"):
        pylayer.gather(pylayer.ones([2, 3]), pylayer.to_tensor([3]), axis=1)
    assert pylayer.gather(x, pylayer.to_tensor([-1])).numpy().tolist() == [3.0]


def test_numel_is_a_0d_int64_tensor():
    x = pylayer.to_tensor([[1.0, 2.0, 3.0]])
    for n in (x.numel(), pylayer.numel(x)):
        # Paddle: Tensor(shape=[], dtype=int64, 3)
        assert isinstance(n, pylayer.Tensor) and n.shape == [] and n.dtype == "int64"
        assert int(n) == 3 and n.stop_gradient
    assert x.size == 3
