"""Each fused loop against numpy, for float32 and float64, through the op that runs it:
small C-contiguous arrays of one dtype take the loops (see "choosing a loop" in
_kernels/loops.pxd), so these calls run exactly the code production runs."""
import math

import numpy as np
import pytest

import pylayer as paddle
from pylayer._kernels import loops as _kernels

rng = np.random.default_rng(7)


@pytest.fixture(params=[np.float32, np.float64], ids=["float32", "float64"])
def dtype(request):
    return request.param


def arrays(dtype, n=37):
    return [rng.standard_normal(n).astype(dtype) for _ in range(3)]


def tolerance(dtype):
    return dict(rtol=1e-6, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-13, atol=1e-14)


def gradient(op, x, dy):
    """The gradient op(x)'s rule gives x for the output gradient dy (arrays)."""
    t = paddle.to_tensor(x, stop_gradient=False)
    g, = paddle.grad(op(t), t, grad_outputs=paddle.to_tensor(dy))
    return g.numpy()


def test_the_ops_take_the_loops_on_small_contiguous_arrays(dtype):
    x, y, _ = arrays(dtype)
    assert all(_kernels.span_fits(a, a.size) for a in (x, y))
    assert x.flags.c_contiguous and x.size <= 2048


def test_backward_loops_of_tanh_sigmoid_and_relu(dtype):
    x, _, dy = arrays(dtype)
    tol = tolerance(dtype)
    y = np.tanh(x)
    np.testing.assert_allclose(gradient(paddle.tanh, x, dy), dy * (1 - y * y), **tol)
    s = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(gradient(paddle.sigmoid, x, dy), dy * s * (1 - s), **tol)
    np.testing.assert_array_equal(gradient(paddle.nn.functional.relu, x, dy),
                                  np.where(x > 0, dy, 0))


def test_relu_backward_loop_keeps_a_nan_gradient_out_where_the_output_is_zero(dtype):
    x = np.array([-1.0, 2.0], dtype)
    np.testing.assert_array_equal(gradient(paddle.nn.functional.relu, x,
                                           np.array([np.nan, 3.0], dtype)), [0.0, 3.0])


@pytest.mark.parametrize("size", [7, 70_000])          # plain and pooled results
def test_relu_forward_loop_gives_numpys_maximum_bit_for_bit(dtype, size):
    edges = np.array([-0.0, 0.0, np.nan, -np.inf, np.inf, -1e-45, 1e-45], dtype)
    x = np.resize(edges, size) * np.resize(np.array([1, 1, 1, 1, 1, 3, 5], dtype), size)
    got = paddle.nn.functional.relu(paddle.to_tensor(x)).numpy()
    want = np.maximum(x, 0)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_sigmoid_forward_loop(dtype):
    x, _, _ = arrays(dtype)
    np.testing.assert_allclose(paddle.sigmoid(paddle.to_tensor(x)).numpy(),
                               1 / (1 + np.exp(-x)), **tolerance(dtype))


def test_sigmoid_does_not_overflow(dtype):
    x = np.array([-1000.0, 1000.0, 0.0], dtype=dtype)
    with np.errstate(all="raise"):
        np.testing.assert_array_equal(paddle.sigmoid(paddle.to_tensor(x)).numpy(),
                                      [0.0, 1.0, 0.5])


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
def test_arithmetic_loops(dtype, op):
    a, b, _ = arrays(dtype)
    ta, tb = paddle.to_tensor(a), paddle.to_tensor(b)
    compute = {"+": lambda p, q: p + q, "-": lambda p, q: p - q,
               "*": lambda p, q: p * q, "/": lambda p, q: p / q}[op]
    tol = tolerance(dtype)
    for got, expected in ((compute(ta, tb), compute(a, b)),
                          (compute(ta, 1.5), compute(a, dtype(1.5))),
                          (compute(1.5, ta), compute(dtype(1.5), a))):
        assert got.dtype == dtype
        np.testing.assert_allclose(got.numpy(), expected, **tol)


def test_fan_in_sums_in_place_loop(dtype):
    # x feeds three products: the engine sums the first two into a new array and adds
    # the third into it (add_into_loop); the leaf's .grad is that sum.
    x, a, b = arrays(dtype)
    t = paddle.to_tensor(x, stop_gradient=False)
    (t * paddle.to_tensor(a) + t * paddle.to_tensor(b) + t * 2.0).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), a + b + 2, **tolerance(dtype))


def test_division_by_zero_follows_ieee(dtype):
    a = np.array([1.0, -1.0, 0.0], dtype)
    with np.errstate(all="raise"):
        out = (paddle.to_tensor(a) / 0.0).numpy()
    np.testing.assert_array_equal(out[:2], [np.inf, -np.inf])
    assert np.isnan(out[2])


def test_empty_arrays(dtype):
    empty = paddle.to_tensor(np.empty(0, dtype))
    assert paddle.sigmoid(empty).shape == [0]
    assert (empty + empty).shape == [0] and (empty * 2.0).shape == [0]


def test_read_only_inputs_are_accepted(dtype):
    x = np.ones(4, dtype)
    x.flags.writeable = False
    np.testing.assert_allclose(paddle.sigmoid(paddle.to_tensor(x)).numpy(),
                               1 / (1 + np.exp(-x)), rtol=1e-6)
    np.testing.assert_allclose((paddle.to_tensor(x) + 1.0).numpy(), x + 1)


def test_sigmoid_op_agrees_across_the_loop_size_threshold():
    for n in (255, 256, 257, 5000):
        a = rng.standard_normal(n) * 30
        np.testing.assert_allclose(paddle.sigmoid(paddle.to_tensor(a)).numpy(),
                                   1 / (1 + np.exp(-a)), rtol=1e-13)


def test_kernels_match_ops_through_public_api():
    x = paddle.to_tensor(rng.standard_normal(10), stop_gradient=False)
    y = paddle.tanh(x)
    np.testing.assert_allclose(y.numpy(), np.tanh(x.numpy()), rtol=1e-13)
    # A non-contiguous input takes the numpy path and must agree.
    z = paddle.to_tensor(rng.standard_normal((4, 6)))
    zt = paddle.transpose(z, [1, 0])
    assert not zt.numpy().flags.c_contiguous
    np.testing.assert_allclose(paddle.tanh(zt).numpy(), np.tanh(z.numpy().T), rtol=1e-13)
    np.testing.assert_allclose((zt * 2.0 + zt).numpy(), 3 * z.numpy().T, rtol=1e-13)


def test_axpy_updates_in_place(dtype):
    x, y, _ = arrays(dtype)
    expected = y + np.asarray(-0.5, dtype) * x
    _kernels.axpy(-0.5, x, y)
    np.testing.assert_allclose(y, expected, **tolerance(dtype))


@pytest.mark.parametrize("y", [np.ones((2, 3), np.float16), np.ones((3, 2), np.float32).T,
                               np.ones((2, 3), np.float32), np.ones((2, 3), np.int64)],
                         ids=["float16", "transposed", "another dtype than x", "integers"])
def test_axpy_of_other_dtypes_and_layouts_updates_like_numpy(y):
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    expected = y + (2.0 * x).astype(y.dtype)
    _kernels.axpy(2.0, x, y)
    np.testing.assert_array_equal(y, expected)


def test_the_loops_that_run_in_production_are_span_checked_in_a_debug_build():
    # Every production call of a raw loop first checks each array's span (check_span);
    # a release build compiles the check out.
    four = np.zeros(4)
    assert _kernels.span_fits(four, 4)
    too_long = _kernels.span_fits(four, 5)
    strided = _kernels.span_fits(np.zeros(8)[::2], 4)
    if _kernels.BOUNDS_CHECKED:
        assert not too_long and not strided
    else:
        assert too_long and strided


def test_axpy_of_partly_overlapping_arrays_updates_like_numpy():
    # Two views of one buffer, one element apart: the loop would read what it just wrote.
    buffer = np.arange(10.0)
    expected = buffer.copy()
    expected[1:6] += expected[0:5].copy()
    _kernels.axpy(1.0, buffer[0:5], buffer[1:6])
    np.testing.assert_array_equal(buffer, expected)


def test_axpy_of_an_array_onto_itself_doubles_it(dtype):
    y = np.arange(5, dtype=dtype)
    _kernels.axpy(1.0, y, y)
    np.testing.assert_array_equal(y, np.arange(5, dtype=dtype) * 2)


@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (33, 64), (5, 0), (0, 4)])
def test_column_sums_add_the_rows_as_numpy_does(dtype, shape):
    m = rng.standard_normal(shape).astype(dtype)
    out = np.full(shape[1], np.nan, dtype)
    _kernels.column_sums(m, out)
    np.testing.assert_array_equal(out, m.sum(axis=0))


def test_column_sums_refuse_an_output_of_another_length():
    with pytest.raises(ValueError, match="differ in length"):
        _kernels.column_sums(np.ones((2, 3)), np.empty(2))


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("shape", [(1,), (7,), (3, 5), (2, 3, 17), (4, 1), (2, 9, 64)])
def test_softmax_row_loops_against_numpy(dtype, shape):
    # The last axis of a C-contiguous float array takes the row loops, forward and backward.
    x = rng.standard_normal(shape).astype(dtype) * 4
    dy = rng.standard_normal(shape).astype(dtype)
    y = paddle.nn.functional.softmax(paddle.to_tensor(x), axis=-1).numpy()
    expected = _softmax(x.astype(np.float64), -1)
    assert y.dtype == dtype
    np.testing.assert_allclose(y, expected, **tolerance(dtype))
    g = gradient(lambda t: paddle.nn.functional.softmax(t, axis=-1), x, dy)
    expected_g = expected * (dy - (dy * expected).sum(axis=-1, keepdims=True))
    np.testing.assert_allclose(g, expected_g, **tolerance(dtype))


def test_softmax_row_loops_agree_with_the_general_path(dtype):
    # A transposed array takes numpy's path; its transpose back must agree with the loops.
    x = rng.standard_normal((6, 5)).astype(dtype)
    rows = paddle.nn.functional.softmax(paddle.to_tensor(x), axis=1).numpy()
    columns = paddle.nn.functional.softmax(paddle.to_tensor(np.ascontiguousarray(x.T)),
                                           axis=0).numpy()
    np.testing.assert_allclose(rows, columns.T, **tolerance(dtype))


def test_softmax_row_loops_spread_nan_and_infinity_over_the_row(dtype):
    x = np.array([[1.0, np.nan, 2.0], [-np.inf] * 3, [1.0, np.inf, 0.0], [0.0, -np.inf, 0.0]],
                 dtype)
    y = paddle.nn.functional.softmax(paddle.to_tensor(x)).numpy()
    assert np.isnan(y[:3]).all()
    np.testing.assert_array_equal(y[3], [0.5, 0.0, 0.5])


def test_softmax_gradient_of_the_row_loops_is_differentiable_again():
    # With create_graph the rule records ops instead of running the loop.
    x = paddle.to_tensor(rng.standard_normal((2, 4)), stop_gradient=False)
    assert paddle.autograd.gradcheck(lambda t: paddle.nn.functional.softmax(t, axis=-1), [x])
    assert paddle.autograd.gradgradcheck(lambda t: paddle.nn.functional.softmax(t, axis=-1),
                                         [x])


# ------------------------------------------------------- erf and gelu (the C library's erf)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_loops_match_their_definitions_in_their_precision(dtype):
    x = np.concatenate([np.linspace(-8, 8, 4001), [0.0, -0.0, np.inf, -np.inf]]).astype(dtype)
    wide = x.astype(np.float64)
    erf = np.array([math.erf(v) for v in wide])
    phi = 0.5 * (1 + np.array([math.erf(v / math.sqrt(2)) for v in wide]))
    with np.errstate(invalid="ignore"):     # +-inf * 0: nan, as Paddle's gelu gives at -inf
        gelu = wide * phi
        slope = phi + wide * np.exp(-wide * wide / 2) / math.sqrt(2 * math.pi)
    tolerance = {np.float32: 3e-7, np.float64: 1e-15}[dtype]
    for op, expected in ((_kernels.Unary.ERF, erf), (_kernels.Unary.GELU, gelu),
                         (_kernels.Unary.GELU_SLOPE, slope)):
        got = _kernels.unary(op, x)
        assert got.dtype == dtype and got.shape == x.shape
        np.testing.assert_allclose(got, expected, rtol=tolerance, atol=tolerance)
    assert np.isnan(_kernels.unary(_kernels.Unary.ERF, np.array([np.nan], dtype))).all()


def test_unary_loops_read_any_layout_and_refuse_what_they_cannot_read():
    x = np.linspace(-2, 2, 12)
    expected = _kernels.unary(_kernels.Unary.ERF, x)
    np.testing.assert_array_equal(_kernels.unary(_kernels.Unary.ERF, x.astype(">f8")), expected)
    np.testing.assert_array_equal(_kernels.unary(_kernels.Unary.ERF, x.reshape(3, 4).T),
                                  expected.reshape(3, 4).T)
    np.testing.assert_array_equal(_kernels.unary(_kernels.Unary.ERF, np.repeat(x, 2)[::2]),
                                  expected)
    with pytest.raises(TypeError, match=r"unary\(\): argument 'a'"):
        _kernels.unary(_kernels.Unary.ERF, np.arange(3))
    with pytest.raises(TypeError, match=r"unary\(\): argument 'a'"):
        _kernels.unary(_kernels.Unary.ERF, [1.0])
    with pytest.raises(ValueError, match=r"unary\(\): argument 'op'"):
        _kernels.unary(7, x)


def test_softmax_cross_entropy_rows_are_within_float32_rounding_of_float64():
    # float32 logits take expf (the sums stay in double): probabilities and losses within
    # a few float32 roundings of the same rows computed in float64.
    logits = (rng.standard_normal((64, 512)) * 6).astype(np.float32)
    labels = rng.integers(0, 512, 64).astype(np.int64)
    losses, probs = np.empty(64, np.float32), np.empty((64, 512), np.float32)
    assert _kernels.softmax_cross_entropy(logits, labels, -100, losses, probs) == -1
    # the shifted logits as the loop forms them (a float32 subtraction), then in float64
    exact = (logits - logits.max(axis=1, keepdims=True)).astype(np.float64)
    total = np.exp(exact).sum(axis=1)
    np.testing.assert_allclose(probs, np.exp(exact) / total[:, None], rtol=4e-7, atol=1e-12)
    np.testing.assert_allclose(losses, np.log(total) - exact[np.arange(64), labels], rtol=4e-7,
                               atol=1e-6)


def test_linear_and_matmul_write_large_results_on_pooled_memory():
    # The products of a model step (linear's output and gradients, batched matmul) take
    # their memory from the pool of large buffers; their values are numpy's products.
    x = paddle.to_tensor(rng.standard_normal((8, 64, 128)).astype(np.float32),
                         stop_gradient=False)
    w = paddle.to_tensor(rng.standard_normal((128, 512)).astype(np.float32),
                         stop_gradient=False)
    b = paddle.to_tensor(rng.standard_normal(512).astype(np.float32))
    y = paddle.nn.functional.linear(x, w, b)
    expected = (x.numpy().reshape(512, 128) @ w.numpy()).reshape(8, 64, 512) + b.numpy()
    np.testing.assert_array_equal(y.numpy(), expected)
    assert type(y.numpy().base).__name__ == "Block"
    dy = rng.standard_normal((8, 64, 512)).astype(np.float32)
    dx, dw = paddle.grad(y, [x, w], paddle.to_tensor(dy))
    np.testing.assert_array_equal(dx.numpy(), (dy.reshape(512, 512) @ w.numpy().T).reshape(8, 64, 128))
    np.testing.assert_array_equal(dw.numpy(), x.numpy().reshape(512, 128).T @ dy.reshape(512, 512))
    assert type(dw.numpy().base).__name__ == "Block"
    q = rng.standard_normal((8, 4, 64, 32)).astype(np.float32)
    k = rng.standard_normal((1, 4, 64, 32)).astype(np.float32)
    s = paddle.matmul(paddle.to_tensor(q), paddle.to_tensor(k), transpose_y=True)
    np.testing.assert_array_equal(s.numpy(), q @ np.swapaxes(k, -1, -2))
    assert type(s.numpy().base).__name__ == "Block"
