"""The hot ops (``ops/arithmetic.pyx`` and ``activation.pyx``, compiled; ``math.py``,
``shape.py``, ``reduction.py``, ``linalg.py``), beyond what the op database
checks for every op (tests/ops/opinfo.py: forward against numpy, gradcheck,
gradgradcheck, static mode): gradients summed back to broadcast shapes, numbers on
either side, non-contiguous inputs, dtype rules, edge values, saved tensors and
argument errors."""
import warnings

import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck

from math_helpers import leaf, non_contiguous, rand, saved_by
from opinfo import OPS


# ------------------------------------------------------- elementwise binary
BINARY = [(info.name, info.op, info.ref) for info in OPS
          if info.name in ("add", "subtract", "multiply", "divide")]

BROADCAST_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 2)),
                    ((4, 1, 3), (2, 1)), ((0, 3), (3,)), ((), ())]


@pytest.mark.parametrize("name, op, ref", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("shapes", [s for s in BROADCAST_SHAPES if 0 not in s[0] + s[1]],
                         ids=str)
def test_binary_gradients_are_summed_back_to_each_shape(name, op, ref, shapes):
    x = leaf(rand(*shapes[0]))
    y = leaf(rand(*shapes[1], low=0.5, high=2.0))
    assert gradcheck(op, (x, y))
    assert gradgradcheck(op, (x, y))
    out = op(x, y)
    out.sum().backward()
    assert x.grad.shape == list(shapes[0])
    assert y.grad.shape == list(shapes[1])


@pytest.mark.parametrize("name, op, ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_with_python_numbers_on_either_side(name, op, ref):
    a = rand(2, 3, low=0.5, high=2.0)
    x = leaf(a, "float32")
    left = op(x, 3.0)
    right = op(3.0, x)
    assert left.dtype == "float32" and right.dtype == "float32"
    np.testing.assert_allclose(left.numpy(), ref(a.astype(np.float32), 3.0), rtol=1e-6)
    np.testing.assert_allclose(right.numpy(), ref(3.0, a.astype(np.float32)), rtol=1e-6)
    x64 = leaf(a)
    assert gradcheck(lambda t: op(t, 3.0), x64)
    assert gradcheck(lambda t: op(3.0, t), x64)
    assert gradgradcheck(lambda t: op(3.0, t), x64)


@pytest.mark.parametrize("name, op, ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_non_contiguous_inputs(name, op, ref):
    a = rand(3, 4)
    b = rand(3, 4, low=0.5, high=2.0)
    out = op(non_contiguous(a), non_contiguous(b))
    np.testing.assert_allclose(out.numpy(), ref(a, b), rtol=1e-6)
    base = leaf(a.T.copy())
    assert gradcheck(lambda t, u: op(pylayer.transpose(t, [1, 0]), u),
                     (base, leaf(b)))


@pytest.mark.parametrize("name, op, ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_shape_mismatch_is_an_error(name, op, ref):
    with pytest.raises(ValueError):
        op(pylayer.ones([2, 3]), pylayer.ones([4]))


@pytest.mark.parametrize("name, op, ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_rejects_non_numeric_arguments(name, op, ref):
    with pytest.raises(TypeError, match=rf"{name}\(\).*'y'.*position 2"):
        op(pylayer.ones([2]), "a")
    with pytest.raises(TypeError, match=rf"{name}\(\).*'x'.*position 1"):
        op(None, pylayer.ones([2]))


def test_integer_arithmetic_keeps_integers_and_divide_gives_float32():
    a = pylayer.to_tensor([7, -7])
    assert pylayer.add(a, 1).dtype == "int64"
    assert pylayer.multiply(a, 2).numpy().tolist() == [14, -14]
    quotient = pylayer.divide(a, 2)
    assert quotient.dtype == "float32"
    np.testing.assert_allclose(quotient.numpy(), [3.5, -3.5])


def test_mixed_float_widths_promote_like_numpy():
    out = pylayer.add(pylayer.ones([2], "float32"), pylayer.ones([2], "float64"))
    assert out.dtype == "float64"


def test_divide_by_zero_gives_inf_and_nan_silently():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = pylayer.divide(pylayer.to_tensor([1.0, 0.0, -1.0]), 0.0).numpy()
    assert out[0] == np.inf and np.isnan(out[1]) and out[2] == -np.inf


# ---------------------------------------------------------- elementwise unary
def test_fused_kernels_match_the_numpy_formulas_for_large_inputs():
    a = rand(1000, low=-30, high=30)
    np.testing.assert_allclose(pylayer.tanh(pylayer.to_tensor(a)).numpy(), np.tanh(a))
    np.testing.assert_allclose(pylayer.sigmoid(pylayer.to_tensor(a)).numpy(),
                               1 / (1 + np.exp(-a)), rtol=1e-12)
    x = leaf(a)
    pylayer.sigmoid(x).sum().backward()
    s = 1 / (1 + np.exp(-a))
    np.testing.assert_allclose(x.grad.numpy(), s * (1 - s), rtol=1e-10, atol=1e-300)


def test_log_and_sqrt_of_out_of_domain_values_give_nan_silently():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(pylayer.log(pylayer.to_tensor([-1.0])).numpy()[0])
        assert pylayer.log(pylayer.to_tensor([0.0])).numpy()[0] == -np.inf
        assert np.isnan(pylayer.sqrt(pylayer.to_tensor([-1.0])).numpy()[0])


def test_sigmoid_of_extreme_values_saturates_without_nan():
    out = pylayer.sigmoid(pylayer.to_tensor([-1000.0, 1000.0], dtype="float64")).numpy()
    np.testing.assert_array_equal(out, [0.0, 1.0])


# -------------------------------------------------------------------- scale
def test_scale_accepts_a_one_element_tensor_and_keeps_float32():
    out = pylayer.scale(pylayer.ones([2], "float32"), scale=pylayer.to_tensor(3.0))
    assert out.dtype == "float32"
    np.testing.assert_allclose(out.numpy(), [3.0, 3.0])


# ------------------------------------------------------------------- matmul
@pytest.mark.parametrize("transpose_x", [False, True])
@pytest.mark.parametrize("transpose_y", [False, True])
@pytest.mark.parametrize("batch", [(), (2,)], ids=str)
def test_matmul_transpose_flags(transpose_x, transpose_y, batch):
    a = rand(*batch, 4, 3) if transpose_x else rand(*batch, 3, 4)
    b = rand(*batch, 2, 4) if transpose_y else rand(*batch, 4, 2)
    expected = np.matmul(np.swapaxes(a, -1, -2) if transpose_x else a,
                         np.swapaxes(b, -1, -2) if transpose_y else b)
    fn = lambda s, t: pylayer.matmul(s, t, transpose_x=transpose_x, transpose_y=transpose_y)
    np.testing.assert_allclose(fn(pylayer.to_tensor(a), pylayer.to_tensor(b)).numpy(),
                               expected, rtol=1e-6)
    x, y = leaf(a), leaf(b)
    assert gradcheck(fn, (x, y))
    assert gradgradcheck(fn, (x, y))


def test_matmul_non_contiguous_and_empty():
    a, b = rand(3, 4), rand(4, 2)
    out = pylayer.matmul(non_contiguous(a), non_contiguous(b))
    np.testing.assert_allclose(out.numpy(), a @ b, rtol=1e-6)
    empty = pylayer.matmul(pylayer.ones([0, 3]), pylayer.ones([3, 2]))
    assert empty.shape == [0, 2]
    zero_inner = pylayer.matmul(pylayer.ones([2, 0]), pylayer.ones([0, 3]))
    np.testing.assert_array_equal(zero_inner.numpy(), np.zeros((2, 3)))


def test_matmul_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError, match=r"matmul\(\).*\[2, 3\].*\[4, 2\]"):
        pylayer.matmul(pylayer.ones([2, 3]), pylayer.ones([4, 2]))


def test_matmul_saves_both_inputs():
    x, y = leaf(rand(2, 3)), leaf(rand(3, 2))
    assert saved_by(lambda: pylayer.matmul(x, y)) == [id(x), id(y)]


# -------------------------------------------------------------- reductions
def test_sum_of_integers_and_bools_is_int64_and_dtype_argument_is_honoured():
    assert pylayer.sum(pylayer.to_tensor([1, 2], dtype="int32")).dtype == "int64"
    assert pylayer.sum(pylayer.to_tensor([True, True, False])).numpy() == 2
    out = pylayer.sum(pylayer.ones([2], "float32"), dtype="float64")
    assert out.dtype == "float64"


def test_sum_gradient_reaches_a_float32_leaf_through_a_float64_sum():
    x = leaf(rand(3), "float32")
    pylayer.sum(x, dtype="float64").backward()
    assert x.grad.dtype == "float32"
    np.testing.assert_array_equal(x.grad.numpy(), np.ones(3, np.float32))


def test_reductions_of_zero_d_and_empty_tensors():
    x = leaf(2.5)
    assert pylayer.sum(x).shape == []
    assert gradcheck(pylayer.sum, x)
    assert gradcheck(lambda t: pylayer.mean(t, axis=0), x)
    assert pylayer.sum(pylayer.zeros([0, 3]), axis=0).numpy().tolist() == [0, 0, 0]
    empty = leaf(np.zeros((0, 3)))
    pylayer.sum(empty).backward()
    assert empty.grad.shape == [0, 3]


def test_reductions_on_non_contiguous_input():
    a = rand(3, 4)
    np.testing.assert_allclose(pylayer.sum(non_contiguous(a), axis=1).numpy(), a.sum(1))
    np.testing.assert_allclose(pylayer.mean(non_contiguous(a), axis=0).numpy(), a.mean(0))


def test_mean_of_integers_is_a_type_error():
    with pytest.raises(TypeError, match=r"mean\(\).*'x'.*floating-point.*int64"):
        pylayer.mean(pylayer.to_tensor([1, 2]))


@pytest.mark.parametrize("op", [pylayer.sum, pylayer.mean])
def test_reduction_axis_errors(op):
    x = pylayer.ones([2, 3])
    with pytest.raises(ValueError, match="out of range"):
        op(x, axis=2)
    with pytest.raises(TypeError, match="'axis'"):
        op(x, axis=1.5)


def test_sum_and_mean_save_nothing():
    x = leaf(rand(3))
    assert saved_by(lambda: pylayer.sum(x)) == []
    assert saved_by(lambda: pylayer.mean(x)) == []
    assert saved_by(lambda: pylayer.add(x, x)) == []


@pytest.mark.parametrize("axis,keepdim", [(None, False), (1, False), ([0, 2], True)])
@pytest.mark.parametrize("create_graph", [False, True])
def test_mean_gradient_is_the_output_gradient_divided_then_spread(axis, keepdim, create_graph):
    x = pylayer.to_tensor(rand(2, 3, 4).astype("float32"), stop_gradient=False)
    y = pylayer.mean(x, axis=axis, keepdim=keepdim)
    w = rand(*y.shape).astype("float32")
    (g,) = pylayer.grad([y], [x], [pylayer.to_tensor(w)], create_graph=create_graph)
    kept = [1 if axis is None or i in np.atleast_1d(axis) else n for i, n in enumerate(x.shape)]
    count = x.numpy().size // y.numpy().size
    np.testing.assert_array_equal(g.numpy(), np.broadcast_to((w / np.float32(count))
                                                             .reshape(kept), x.shape))


def test_mean_gradient_of_a_large_tensor_is_spread_into_a_pooled_buffer():
    # 2**17 float32 elements pass the pool's threshold: the spread takes a pooled buffer.
    x = pylayer.to_tensor(np.ones([256, 512], np.float32), stop_gradient=False)
    (g,) = pylayer.grad([pylayer.mean(x, axis=1)], [x], [pylayer.to_tensor(np.arange(
        256, dtype=np.float32))])
    np.testing.assert_array_equal(g.numpy(), np.broadcast_to(
        (np.arange(256, dtype=np.float32) / np.float32(512))[:, None], [256, 512]))


@pytest.mark.parametrize("values,expected", [([3e38, 3e38], np.inf), ([np.inf, -np.inf], np.nan),
                                             ([np.nan, 1.0], np.nan)])
def test_mean_past_the_largest_float_or_of_opposite_infinities_warns_nothing(values, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = pylayer.mean(pylayer.to_tensor(np.array(values, np.float32))).numpy()
    np.testing.assert_array_equal(out, np.float32(expected))


# ------------------------------------------------------------- manipulation
def test_reshape_forward_gradient_and_special_sizes():
    a = rand(2, 3, 4)
    out = pylayer.reshape(pylayer.to_tensor(a), [0, -1])
    assert out.shape == [2, 12]
    np.testing.assert_array_equal(out.numpy(), a.reshape(2, 12))
    x = leaf(a)
    fn = lambda t: pylayer.reshape(t, [4, 6]) * pylayer.to_tensor(np.arange(24.0).reshape(4, 6))
    assert gradcheck(fn, x)
    assert gradgradcheck(fn, x)
    assert pylayer.reshape(pylayer.to_tensor(3.0), [1, 1]).shape == [1, 1]
    assert pylayer.reshape(pylayer.ones([1, 1]), []).shape == []
    assert pylayer.reshape(pylayer.zeros([0, 4]), [-1, 2]).shape == [0, 2]
    assert pylayer.reshape(non_contiguous(a), [24]).numpy().tolist() == a.reshape(24).tolist()


def test_reshape_errors():
    with pytest.raises(ValueError, match=r"reshape\(\).*\[2, 3\].*6 elements"):
        pylayer.reshape(pylayer.ones([2, 3]), [4, 2])
    with pytest.raises(TypeError, match=r"reshape\(\).*'shape'"):
        pylayer.reshape(pylayer.ones([2, 3]), "6")


@pytest.mark.parametrize("op", [pylayer.broadcast_to, pylayer.expand])
def test_broadcast_to_and_expand(op):
    a = rand(3, 1)
    out = op(pylayer.to_tensor(a), [2, 3, 4])
    np.testing.assert_array_equal(out.numpy(), np.broadcast_to(a, (2, 3, 4)))
    x = leaf(a)
    weights = pylayer.to_tensor(rand(2, 3, 4))
    fn = lambda t: op(t, [2, 3, 4]) * weights
    assert gradcheck(fn, x)
    assert gradgradcheck(fn, x)
    assert op(pylayer.to_tensor(a), [-1, 5]).shape == [3, 5]
    with pytest.raises(ValueError, match="cannot broadcast"):
        op(pylayer.ones([3]), [2, 4])


def test_cast_changes_dtype_and_casts_the_gradient_back():
    x = leaf(rand(3), "float32")
    y = pylayer.cast(x, "float64")
    assert y.dtype == "float64" and not y.stop_gradient
    (y * y).sum().backward()
    assert x.grad.dtype == "float32"
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.numpy(), rtol=1e-6)
    ints = pylayer.cast(x, "int64")
    assert ints.dtype == "int64" and ints.stop_gradient
    assert gradgradcheck(lambda t: pylayer.cast(t, "float32") * 1.0, leaf(rand(3)),
                         atol=1e-3, rtol=1e-2)


def test_cast_rejects_unknown_dtypes():
    with pytest.raises(TypeError, match=r"cast\(\): argument 'dtype' must be a dtype"):
        pylayer.cast(pylayer.ones([1]), "uint32")


def test_assign_copies_and_stays_on_the_graph():
    x = leaf(rand(3))
    y = pylayer.assign(x)
    assert not np.shares_memory(x.numpy(), y.numpy())
    assert gradcheck(pylayer.assign, x)
    target = pylayer.zeros([3], "float64")
    version = target.inplace_version
    result = pylayer.assign(pylayer.to_tensor([1.0, 2.0, 3.0], dtype="float64"), target)
    assert result is target and target.inplace_version == version + 1
    assert target.numpy().tolist() == [1.0, 2.0, 3.0]


def test_transpose_rejects_a_repeated_axis():
    with pytest.raises(ValueError, match=r"transpose\(\).*not a permutation"):
        pylayer.transpose(pylayer.ones([2, 3]), [0, 0])


# --------------------------------------------------------- graph recording
def test_ops_record_only_when_an_input_needs_a_gradient():
    plain = pylayer.ones([2])
    assert pylayer.exp(plain).stop_gradient
    assert pylayer.exp(plain).grad_fn is None
    x = leaf([1.0, 2.0])
    y = pylayer.exp(x)
    assert not y.stop_gradient
    assert y.grad_fn.name() == "ExpGradNode"
    with pylayer.no_grad():
        assert pylayer.exp(x).stop_gradient


def test_saved_tensors_follow_paddle():
    x, y = leaf(rand(3)), leaf(rand(3))
    assert saved_by(lambda: pylayer.multiply(x, y)) == [id(x), id(y)]
    assert saved_by(lambda: pylayer.tanh(x)) == ["output"]
    assert saved_by(lambda: pylayer.exp(x)) == ["output"]
    assert saved_by(lambda: pylayer.square(x)) == [id(x)]


def test_in_place_change_of_a_saved_input_is_detected():
    x = leaf(rand(3))
    y = x * 1.0
    z = pylayer.square(y)
    with pylayer.no_grad():
        y.add_(pylayer.to_tensor(1.0))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
