"""pylayer.ops.reduction and linalg.dot beyond what the op database checks for every op
(tests/ops/opinfo.py): ties and NaN, axes, keepdim, dtype rules and argument errors."""
import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck

from math_helpers import assert_silent, grad_of, leaf, non_contiguous, rand, saved_by


# ----------------------------------------------------------------------- dot
@pytest.mark.parametrize("shape", [(3,), (4, 3)], ids=str)
def test_dot_of_a_tensor_with_itself_adds_both_gradients(shape):
    x = leaf(rand(*shape))
    assert gradcheck(lambda t: pylayer.dot(t, t), x)


def test_dot_on_integers_and_strided_inputs():
    assert pylayer.dot(pylayer.to_tensor([1, 2]), pylayer.to_tensor([3, 4])).numpy() == 11
    a, b = rand(3, 4), rand(3, 4)
    np.testing.assert_allclose(pylayer.dot(non_contiguous(a), non_contiguous(b)).numpy(),
                               np.sum(a * b, axis=-1), rtol=1e-13)


def test_dot_errors():
    with pytest.raises(ValueError, match=r"dot\(\).*same shape.*\[3\].*\[2\]"):
        pylayer.dot(pylayer.ones([3]), pylayer.ones([2]))
    with pytest.raises(ValueError, match=r"dot\(\).*1-D or 2-D"):
        pylayer.dot(pylayer.ones([2, 2, 2]), pylayer.ones([2, 2, 2]))
    with pytest.raises(ValueError, match=r"dot\(\).*1-D or 2-D"):
        pylayer.dot(pylayer.to_tensor(1.0), pylayer.to_tensor(1.0))
    with pytest.raises(TypeError, match=r"dot\(\).*'y'.*position 2"):
        pylayer.dot(pylayer.ones([2]), object())


def test_dot_saves_both_inputs():
    x, y = leaf([1.0]), leaf([2.0])
    assert saved_by(lambda: pylayer.dot(x, y)) == [id(x), id(y)]


# --------------------------------------------------------------- max / min
def test_max_splits_the_gradient_evenly_among_ties():
    x = leaf([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]])
    (g,) = grad_of(lambda t: pylayer.max(t, axis=1), x)
    np.testing.assert_allclose(g, [[0.5, 0.0, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    (g,) = grad_of(pylayer.min, leaf([1.0, 1.0, 4.0, 1.0]))
    np.testing.assert_allclose(g, [1 / 3, 1 / 3, 0.0, 1 / 3])


def test_max_propagates_nan_and_gives_it_the_gradient():
    x = leaf([1.0, np.nan, 3.0])
    assert np.isnan(pylayer.max(x).numpy())
    (g,) = grad_of(pylayer.max, x)
    np.testing.assert_array_equal(g, [0.0, 1.0, 0.0])


def test_max_min_on_integers_zero_d_strided_and_methods():
    ints = pylayer.to_tensor([[1, 7], [4, 2]], dtype="int32")
    assert pylayer.max(ints).dtype == "int32" and pylayer.max(ints).numpy() == 7
    assert pylayer.min(ints, axis=0).numpy().tolist() == [1, 2]
    scalar = leaf(2.5)
    assert pylayer.max(scalar).shape == [] and pylayer.max(scalar, axis=0).numpy() == 2.5
    assert gradcheck(pylayer.max, scalar)
    a = rand(3, 4)
    np.testing.assert_array_equal(pylayer.max(non_contiguous(a), axis=0).numpy(), a.max(0))
    t = pylayer.to_tensor(a)
    assert t.max().numpy() == pytest.approx(a.max())
    assert t.min(axis=1, keepdim=True).shape == [3, 1]
    assert pylayer.max(pylayer.zeros([0, 3]), axis=1).shape == [0]


def test_max_min_errors():
    with pytest.raises(ValueError, match=r"max\(\).*axis of size 0.*\[0, 3\]"):
        pylayer.max(pylayer.zeros([0, 3]))
    with pytest.raises(ValueError, match=r"min\(\).*axis 2 is out of range.*rank 2"):
        pylayer.min(pylayer.ones([2, 2]), axis=2)
    with pytest.raises(TypeError, match=r"max\(\).*'axis'.*float"):
        pylayer.max(pylayer.ones([2, 2]), axis=0.5)


def test_max_saves_input_and_output():
    x = leaf([1.0, 2.0])
    assert saved_by(lambda: pylayer.max(x)) == [id(x), "output"]


# ---------------------------------------------------------------------- prod
def test_prod_gradient_is_exact_with_zeros():
    a = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 5.0], [1.0, 2.0, 4.0]])
    (g,) = grad_of(lambda t: pylayer.prod(t, axis=1), leaf(a))
    np.testing.assert_array_equal(g, [[6.0, 0.0, 0.0], [0.0, 0.0, 0.0], [8.0, 4.0, 2.0]])
    for axis in (0, 1, None):
        fn = lambda t: pylayer.prod(t, axis=axis)
        assert gradcheck(fn, leaf(a))
        assert gradgradcheck(fn, leaf(a))
    assert gradgradcheck(pylayer.prod, leaf(0.0))


def test_prod_dtypes_zero_d_empty_and_strided():
    ints = pylayer.to_tensor([2, 3, 4], dtype="int32")
    assert pylayer.prod(ints).dtype == "int32" and pylayer.prod(ints).numpy() == 24
    assert pylayer.prod(pylayer.to_tensor([True, True])).dtype == "int64"
    as_float = pylayer.prod(ints, dtype="float64")
    assert as_float.dtype == "float64" and as_float.numpy() == 24.0
    x = leaf([1.0, 2.0], "float32")
    pylayer.prod(x, dtype="float64").backward()
    assert x.grad.dtype == "float32"
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 1.0])
    assert pylayer.prod(pylayer.to_tensor(3.0)).numpy() == 3.0
    assert pylayer.prod(pylayer.zeros([0])).numpy() == 1.0
    assert pylayer.prod(pylayer.zeros([2, 0]), axis=1).numpy().tolist() == [1.0, 1.0]
    a = rand(3, 4)
    np.testing.assert_allclose(pylayer.prod(non_contiguous(a), axis=1).numpy(), a.prod(1))


def test_prod_saves_input_and_output():
    x = leaf([1.0, 2.0])
    assert saved_by(lambda: pylayer.prod(x)) == [id(x), "output"]


# ----------------------------------------------------------------- var / std
def test_var_std_float32_and_strided():
    a = rand(4, 5).astype(np.float32)
    out = pylayer.var(pylayer.to_tensor(a), axis=1)
    assert out.dtype == "float32"
    np.testing.assert_allclose(out.numpy(), np.var(a, axis=1, ddof=1), rtol=1e-5)
    np.testing.assert_allclose(pylayer.std(non_contiguous(a), axis=0).numpy(),
                               np.std(a, axis=0, ddof=1), rtol=1e-5)


def test_var_std_degenerate_cases_are_nan_silently():
    def run():
        one = pylayer.var(pylayer.to_tensor([3.0]))
        empty = pylayer.std(pylayer.zeros([0]), unbiased=False)
        return one.numpy(), empty.numpy()
    one, empty = assert_silent(run)
    assert np.isnan(one) and np.isnan(empty)
    assert pylayer.var(pylayer.to_tensor([3.0]), unbiased=False).numpy() == 0.0
    assert pylayer.var(pylayer.to_tensor(2.0), unbiased=False).shape == []


def test_std_gradient_is_zero_where_std_is_zero():
    x = leaf([[2.0, 2.0, 2.0], [1.0, 2.0, 3.0]])
    (g,) = grad_of(lambda t: pylayer.std(t, axis=1), x)
    np.testing.assert_array_equal(g[0], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(g[1], [-0.5, 0.0, 0.5])


def test_var_refuses_integers_where_paddle_truncates():
    with pytest.raises(TypeError, match=r"var\(\).*floating-point.*int64"):
        pylayer.var(pylayer.to_tensor([1, 2, 3]))


def test_var_saves_input_and_std_input_and_output():
    x = leaf([1.0, 2.0, 4.0])
    assert saved_by(lambda: pylayer.var(x)) == [id(x)]
    assert saved_by(lambda: pylayer.std(x)) == [id(x), "output"]


# ---------------------------------------------------------------- logsumexp
def _reference_logsumexp(a, axis, keepdims):
    return np.log(np.sum(np.exp(a), axis=axis, keepdims=keepdims))


def test_logsumexp_is_stable_for_large_and_small_values():
    a = np.array([[1000.0, 1000.0], [-1000.0, -1001.0]])
    out = pylayer.logsumexp(pylayer.to_tensor(a, dtype="float64"), axis=1).numpy()
    np.testing.assert_allclose(out, [1000 + np.log(2), -1000 + np.log1p(np.exp(-1))])
    (g,) = grad_of(lambda t: pylayer.logsumexp(t, axis=1), leaf(a))
    np.testing.assert_allclose(g.sum(axis=1), [1.0, 1.0])
    out32 = pylayer.logsumexp(pylayer.to_tensor([100.0, 100.0]))
    assert out32.dtype == "float32" and np.isfinite(out32.numpy())


def test_logsumexp_of_infinities_and_empty_slices():
    out = assert_silent(lambda: pylayer.logsumexp(
        pylayer.to_tensor([[-np.inf, -np.inf], [np.inf, 1.0]]), axis=1).numpy())
    assert out[0] == -np.inf and out[1] == np.inf
    empty = assert_silent(lambda: pylayer.logsumexp(pylayer.zeros([2, 0]), axis=1).numpy())
    np.testing.assert_array_equal(empty, [-np.inf, -np.inf])
    assert pylayer.logsumexp(pylayer.to_tensor(1.5)).numpy() == pytest.approx(1.5)


def test_logsumexp_strided_and_refuses_bool():
    a = rand(3, 4)
    np.testing.assert_allclose(pylayer.logsumexp(non_contiguous(a), axis=0).numpy(),
                               _reference_logsumexp(a, 0, False), rtol=1e-6)
    with pytest.raises(TypeError, match=r"logsumexp\(\).*floating-point.*bool"):
        pylayer.logsumexp(pylayer.to_tensor([True, False]))


def test_logsumexp_saves_input_and_output():
    x = leaf([1.0, 2.0])
    assert saved_by(lambda: pylayer.logsumexp(x)) == [id(x), "output"]


# -------------------------------------------------------------------- cumsum
def test_cumsum_gradient_is_the_reversed_running_sum():
    (g,) = grad_of(pylayer.cumsum, leaf([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(g, [4.0, 3.0, 2.0, 1.0])


def test_cumsum_dtypes():
    ints = pylayer.to_tensor([1, 2, 3], dtype="int32")
    assert pylayer.cumsum(ints).dtype == "int64"   # as in Paddle
    flags = pylayer.cumsum(pylayer.to_tensor([True, True, False]))
    assert flags.dtype == "int64" and flags.numpy().tolist() == [1, 2, 2]
    widened = pylayer.cumsum(pylayer.ones([3], "float32"), dtype="float64")
    assert widened.dtype == "float64" and widened.numpy().tolist() == [1.0, 2.0, 3.0]


def test_cumsum_zero_d_empty_and_strided():
    assert pylayer.cumsum(pylayer.to_tensor(2.0)).shape == [1]
    assert pylayer.cumsum(pylayer.to_tensor(2.0), axis=0).shape == []
    assert gradcheck(lambda t: pylayer.cumsum(t, axis=-1), leaf(2.0))
    assert pylayer.cumsum(pylayer.zeros([0, 3]), axis=1).shape == [0, 3]
    a = rand(3, 4)
    np.testing.assert_allclose(pylayer.cumsum(non_contiguous(a), axis=1).numpy(),
                               np.cumsum(a, axis=1), rtol=1e-6)


def test_cumsum_errors():
    with pytest.raises(TypeError, match=r"cumsum\(\).*'axis'.*list"):
        pylayer.cumsum(pylayer.ones([2, 2]), axis=[0])
    with pytest.raises(ValueError, match=r"cumsum\(\).*axis 2 is out of range"):
        pylayer.cumsum(pylayer.ones([2, 2]), axis=2)


# ------------------------------------------------------------ argmax/argmin
def test_arg_extremes_details():
    x = leaf([[1.0, 3.0, 3.0], [np.nan, 0.0, 5.0]])
    assert pylayer.argmax(x, axis=1).numpy().tolist() == [1, 0]
    assert pylayer.argmin(x, axis=1).numpy().tolist() == [0, 0]
    assert pylayer.argmax(x, axis=1).stop_gradient
    assert pylayer.argmax(x, dtype="int32").dtype == "int32"
    assert pylayer.argmax(pylayer.to_tensor(4.0)).numpy() == 0
    a = rand(3, 4)
    np.testing.assert_array_equal(pylayer.argmin(non_contiguous(a), axis=0).numpy(),
                                  np.argmin(a, axis=0))
    assert pylayer.to_tensor(a).argmax().numpy() == np.argmax(a.astype(np.float32))


def test_arg_extremes_errors():
    x = pylayer.ones([2, 3])
    with pytest.raises(ValueError, match=r"argmax\(\).*'dtype'.*'int32' or 'int64'"):
        pylayer.argmax(x, dtype="float32")
    with pytest.raises(ValueError, match=r"argmin\(\).*'dtype'"):
        pylayer.argmin(x, dtype="nonsense")
    with pytest.raises(TypeError, match=r"argmax\(\).*'axis'.*list"):
        pylayer.argmax(x, axis=[0])
    with pytest.raises(ValueError, match=r"argmin\(\).*no elements"):
        pylayer.argmin(pylayer.zeros([0]))
    with pytest.raises(ValueError, match=r"argmax\(\).*out of range"):
        pylayer.argmax(x, axis=-3)


# ----------------------------------------------------------------- all / any
def test_truth_reductions_on_numbers_zero_d_and_empty():
    assert pylayer.all(pylayer.to_tensor([1.0, 2.0])).numpy()
    assert not pylayer.any(pylayer.to_tensor([0, 0])).numpy()
    assert pylayer.all(pylayer.zeros([0])).numpy() and not pylayer.any(pylayer.zeros([0])).numpy()
    assert pylayer.any(pylayer.to_tensor(True)).shape == []
    assert pylayer.to_tensor([True, False]).any().numpy()
    assert not pylayer.to_tensor([True, False]).all().numpy()
