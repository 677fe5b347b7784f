"""Each fused loop against numpy, for float32 and float64, through its memoryview entry point."""
import numpy as np
import pytest

from pylayer._kernels import loops as _kernels

rng = np.random.default_rng(7)


@pytest.fixture(params=[np.float32, np.float64], ids=["float32", "float64"])
def dtype(request):
    return request.param


def arrays(dtype, n=37):
    return [rng.standard_normal(n).astype(dtype) for _ in range(3)]


def run(kernel, *args):
    out = np.empty_like(args[0])
    kernel(*args, out)
    return out


def tolerance(dtype):
    return dict(rtol=1e-6, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-13, atol=1e-14)


def test_unary_and_backward_loops(dtype):
    x, y, dy = arrays(dtype)
    tol = tolerance(dtype)
    np.testing.assert_allclose(run(_kernels.tanh_backward, y, dy), dy * (1 - y * y), **tol)
    np.testing.assert_allclose(run(_kernels.sigmoid_forward, x), 1 / (1 + np.exp(-x)), **tol)
    np.testing.assert_allclose(run(_kernels.sigmoid_backward, y, dy), dy * y * (1 - y), **tol)
    np.testing.assert_array_equal(run(_kernels.relu_backward, y, dy), np.where(y > 0, dy, 0))


def test_sigmoid_does_not_overflow(dtype):
    x = np.array([-1000.0, 1000.0, 0.0], dtype=dtype)
    with np.errstate(all="raise"):
        np.testing.assert_array_equal(run(_kernels.sigmoid_forward, x), [0.0, 1.0, 0.5])


def test_arithmetic_loops(dtype):
    a, b, _ = arrays(dtype)
    tol = tolerance(dtype)
    operations = _kernels.Arithmetic
    for op, ref in [(operations.ADDITION, np.add), (operations.SUBTRACTION, np.subtract),
                    (operations.MULTIPLICATION, np.multiply), (operations.DIVISION, np.divide)]:
        out = np.empty_like(a)
        _kernels.binary(op, a, b, out)
        np.testing.assert_allclose(out, ref(a, b), **tol)
        _kernels.with_scalar(op, a, 1.5, False, out)
        np.testing.assert_allclose(out, ref(a, dtype(1.5)), **tol)
        _kernels.with_scalar(op, a, 1.5, True, out)
        np.testing.assert_allclose(out, ref(dtype(1.5), a), **tol)


def test_accumulate(dtype):
    a, b, _ = arrays(dtype)
    tol = tolerance(dtype)
    acc = a.copy()
    _kernels.add_into(acc, b)
    np.testing.assert_allclose(acc, a + b, **tol)


def test_division_by_zero_follows_ieee(dtype):
    a = np.array([1.0, -1.0, 0.0], dtype=dtype)
    out = np.empty_like(a)
    _kernels.with_scalar(_kernels.Arithmetic.DIVISION, a, 0.0, False, out)
    assert out[0] == np.inf and out[1] == -np.inf and np.isnan(out[2])


def test_empty_arrays(dtype):
    empty = np.empty(0, dtype)
    _kernels.sigmoid_forward(empty, np.empty(0, dtype))
    _kernels.binary(_kernels.Arithmetic.ADDITION, empty, empty, np.empty(0, dtype))


def test_an_unknown_arithmetic_operation_is_refused(dtype):
    a = np.ones(3, dtype)
    for call in (lambda: _kernels.binary(4, a, a, np.empty_like(a)),
                 lambda: _kernels.with_scalar(-1, a, 1.0, False, np.empty_like(a)),
                 lambda: _kernels.binary(7, a[:0], a[:0], a[:0])):
        with pytest.raises(ValueError, match="must be an Arithmetic operation"):
            call()


def test_length_mismatch_is_refused(dtype):
    with pytest.raises(ValueError, match="differ in length: 3 and 2"):
        _kernels.tanh_backward(np.ones(3, dtype), np.ones(2, dtype), np.ones(3, dtype))


def test_read_only_inputs_are_accepted(dtype):
    x = np.ones(4, dtype)
    x.flags.writeable = False
    np.testing.assert_allclose(run(_kernels.sigmoid_forward, x), 1 / (1 + np.exp(-x)),
                               rtol=1e-6)


def test_sigmoid_op_agrees_across_the_loop_size_threshold():
    import pylayer as paddle
    for n in (255, 256, 257, 5000):
        a = rng.standard_normal(n) * 30
        np.testing.assert_allclose(paddle.sigmoid(paddle.to_tensor(a)).numpy(),
                                   1 / (1 + np.exp(-a)), rtol=1e-13)


def test_kernels_match_ops_through_public_api():
    import pylayer as paddle
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
    from pylayer._kernels import loops as _kernels
    four = np.zeros(4)
    assert _kernels.span_fits(four, 4)
    too_long = _kernels.span_fits(four, 5)
    strided = _kernels.span_fits(np.zeros(8)[::2], 4)
    if _kernels.BOUNDS_CHECKED:
        assert not too_long and not strided
    else:
        assert too_long and strided
