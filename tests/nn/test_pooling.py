"""Max and average pooling: Paddle 3.3.1's recorded results, a direct numpy reference on
random shapes, the kernels' refusals, and gradcheck/gradgradcheck in float64."""
import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer import nn
from pylayer.autograd import gradcheck, gradgradcheck
from pylayer._kernels import pool as kernels

RNG = np.random.default_rng(29)
LOWEST = -3.4028234663852886e38          # what Paddle gives for a window without an element


def leaf(*shape):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype="float64", stop_gradient=False)


# ------------------------------------------------- Paddle 3.3.1's results
X56 = np.arange(30, dtype="float32").reshape(1, 1, 5, 6)


def pooled(fn, *args, x=X56, **kwargs):
    out = fn(pylayer.to_tensor(x), *args, **kwargs)
    return [t.numpy().tolist() for t in out] if isinstance(out, tuple) else out.numpy().tolist()


def test_max_pool2d_results_recorded_from_paddle():
    assert pooled(F.max_pool2d, 2) == [[[[7, 9, 11], [19, 21, 23]]]]
    assert pooled(F.max_pool2d, 2, ceil_mode=True) == [[[[7, 9, 11], [19, 21, 23],
                                                         [25, 27, 29]]]]
    assert pooled(F.max_pool2d, 3, 2, 1, return_mask=True, ceil_mode=True) == [
        [[[[7, 9, 11, 11], [19, 21, 23, 23], [25, 27, 29, 29]]]],
        [[[[7, 9, 11, 11], [19, 21, 23, 23], [25, 27, 29, 29]]]]]
    assert pooled(F.max_pool2d, 3, 2, "SAME") == [[[[8, 10, 11], [20, 22, 23], [26, 28, 29]]]]
    assert pooled(F.max_pool2d, 3, 2, "VALID") == [[[[14, 16], [26, 28]]]]
    assert pooled(F.max_pool2d, 3, 2, [1, 0, 0, 1]) == [[[[8, 10, 11], [20, 22, 23]]]]
    assert pooled(F.max_pool2d, 3, 2, [[0, 0], [0, 0], [1, 0], [0, 1]]) == [
        [[[8, 10, 11], [20, 22, 23]]]]
    assert pooled(F.max_pool2d, [2, 3], [1, 2]) == [[[[8, 10], [14, 16], [20, 22], [26, 28]]]]
    assert pooled(F.max_pool2d, 7) == [[[[29]]]]          # the size rounds towards zero
    assert pooled(F.max_pool2d, 6, 1) == [[[]]]           # an empty output
    nhwc = pooled(F.max_pool2d, 2, data_format="NHWC", x=X56.reshape(1, 5, 6, 1))
    assert np.array(nhwc)[0, :, :, 0].tolist() == [[7, 9, 11], [19, 21, 23]]
    # a window of padding only: -FLT_MAX and the mask -1
    x5 = np.arange(25, dtype="float32").reshape(1, 1, 5, 5)
    out, mask = pooled(F.max_pool2d, 2, 2, 1, ceil_mode=True, return_mask=True, x=x5)
    assert out[0][0][0] == [0, 2, 4, LOWEST] and out[0][0][3] == [LOWEST] * 4
    assert mask[0][0][0] == [0, 2, 4, -1]


def test_max_pool1d_results_recorded_from_paddle():
    x = np.arange(7, dtype="float32").reshape(1, 1, 7)
    assert pooled(F.max_pool1d, 3, 2, 1, return_mask=True, x=x) == [[[[1, 3, 5, 6]]],
                                                                   [[[1, 3, 5, 6]]]]
    assert pooled(F.max_pool1d, 2, x=x) == [[[1, 3, 5]]]
    assert pooled(F.max_pool1d, 3, 2, "SAME", x=x) == [[[1, 3, 5, 6]]]
    assert pooled(F.max_pool1d, 3, 2, [[0, 0], [0, 0], [1, 1]], x=x) == [[[1, 3, 5, 6]]]
    ties = np.array([[[1.0, 3, 3, 2, 2, 1]]])
    assert pooled(F.max_pool1d, 3, 1, return_mask=True, x=ties)[1] == [[[1, 1, 2, 3]]]
    # NaN is skipped, a window of -inf or NaN only gives -FLT_MAX and -1
    assert pooled(F.max_pool1d, 3, 1, return_mask=True, x=np.array(
        [[[1.0, np.nan, 3, 2, 2, 1]]])) == [[[[3, 3, 3, 2]]], [[[2, 2, 2, 3]]]]
    assert pooled(F.max_pool1d, 2, 1, return_mask=True, x=np.array(
        [[[np.nan, np.nan, 1.0]]])) == [[[[LOWEST, 1.0]]], [[[-1, 2]]]]


def test_avg_pool_results_recorded_from_paddle():
    assert pooled(F.avg_pool2d, 3, 2, 1) == [[[[3.5, 5, 7], [12.5, 14, 16], [21.5, 23, 25]]]]
    incl = np.array(pooled(F.avg_pool2d, 3, 2, 1, exclusive=False, ceil_mode=True))
    np.testing.assert_allclose(incl[0, 0], [[14 / 9, 30 / 9, 42 / 9, 16 / 6],
                                            [75 / 9, 14, 16, 51 / 6],
                                            [86 / 9, 138 / 9, 150 / 9, 52 / 6]], rtol=1e-6)
    assert pooled(F.avg_pool2d, 2, 2, 0, exclusive=False, ceil_mode=True)[0][0][2] == [
        24.5, 26.5, 28.5]
    assert pooled(F.avg_pool2d, 3, 2, "SAME") == [[[[4, 6, 7.5], [13, 15, 16.5],
                                                    [22, 24, 25.5]]]]
    assert pooled(F.avg_pool2d, 3, 2, [1, 0, 0, 1]) == [[[[4, 6, 7.5], [13, 15, 16.5]]]]
    # divisor_override scales the average by kernel size / divisor, as Paddle does
    assert pooled(F.avg_pool2d, 3, 2, 1, divisor_override=2)[0][0][0] == [15.75, 22.5, 31.5]
    assert pooled(F.avg_pool2d, 3, 2, 1, divisor_override=2, exclusive=False)[0][0][0] == [
        7, 15, 21]
    # Paddle bounds an inclusive window by the top/left padding at both ends
    x = np.arange(6, dtype="float32").reshape(1, 1, 6)
    assert pooled(F.avg_pool1d, 2, 1, "SAME", exclusive=False, x=x) == [[[0.5, 1.5, 2.5, 3.5,
                                                                          4.5, 5]]]
    # windows past the input: 0 over Paddle's divisor (nan for 0, -0.0 for -1)
    x5 = np.arange(25, dtype="float32").reshape(1, 1, 5, 5)
    out = np.array(pooled(F.avg_pool2d, 2, 2, 1, ceil_mode=True, x=x5))
    assert np.isnan(out[0, 0, :, 3]).all() and out[0, 0, 0, :3].tolist() == [0, 1.5, 3.5]
    past = np.array(pooled(F.avg_pool2d, 1, 3, 0, ceil_mode=True, exclusive=False, x=x5))
    assert past[0, 0].tolist() == [[0, 3, 0], [15, 18, 0], [0, 0, 0]]
    assert np.signbit(past[0, 0, 0, 2]) and not np.signbit(past[0, 0, 2, 2])
    x7 = np.arange(7, dtype="float32").reshape(1, 1, 7)
    assert pooled(F.avg_pool1d, 3, 2, 1, x=x7) == [[[0.5, 2, 4, 5.5]]]
    np.testing.assert_allclose(pooled(F.avg_pool1d, 3, 2, 1, exclusive=False, x=x7),
                               [[[1 / 3, 2, 4, 11 / 3]]], rtol=1e-6)
    assert pooled(F.avg_pool1d, 3, 2, [1, 0], x=x7) == [[[0.5, 2, 4]]]


def test_gradients_recorded_from_paddle():
    x = pylayer.to_tensor([[[[1.0, 3, 3, 2]]]], stop_gradient=False)
    F.max_pool2d(x, [1, 3], 1).sum().backward()
    assert x.grad.numpy().tolist() == [[[[0, 2, 0, 0]]]]
    x = pylayer.to_tensor([[[[1.0, 2, 3, 4, 5]]]], stop_gradient=False)
    F.max_pool2d(x, [1, 2], 2, [0, 2]).sum().backward()
    assert x.grad.numpy().tolist() == [[[[0, 1, 0, 1, 1]]]]
    x = pylayer.to_tensor([[[[1.0, 2, 3, 4, 5]]]], stop_gradient=False)
    F.avg_pool2d(x, [1, 3], 2, [0, 1], exclusive=False, ceil_mode=True).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[[[1 / 3, 2 / 3, 1 / 3, 2 / 3, 1 / 3]]]])


def test_where_paddle_is_wrong_a_window_of_minus_infinity_gives_minus_infinity():
    # Paddle 3.3.1 starts from -FLT_MAX and gives it (mask -1) for a window of -inf, and
    # for float64 values below -FLT_MAX; pylayer gives the window's largest element.
    out, mask = pooled(F.max_pool1d, 2, 1, return_mask=True,
                       x=np.array([[[-np.inf, -np.inf, 3.0]]]))
    assert out == [[[-np.inf, 3.0]]] and mask == [[[0, 2]]]
    low = pylayer.to_tensor([[[-1e300, -1e301, 1.0]]], dtype="float64")
    assert F.max_pool1d(low, 2, 1).numpy().tolist() == [[[-1e300, 1.0]]]


def test_where_paddle_is_inconsistent_the_mask_follows_the_pooling():
    # Paddle 3.3.1 pools 'SAME' as 'VALID' when return_mask=True (and refuses a
    # four-number padding there); pylayer pools the same windows with or without it.
    out, mask = F.max_pool2d(pylayer.to_tensor(X56), 3, 2, "SAME", return_mask=True)
    assert out.numpy().tolist() == pooled(F.max_pool2d, 3, 2, "SAME")
    assert mask.numpy()[0, 0].tolist() == [[8, 10, 11], [20, 22, 23], [26, 28, 29]]


# -------------------------------------------------- numpy reference
def pool_reference(x, kind, kernel, stride, pads, ceil_mode, exclusive=True):
    """Direct loops over the windows, by the rules the module documents."""
    n, c, h, w = x.shape
    sizes = []
    for size, k, s, (before, after) in zip((h, w), kernel, stride, pads):
        span = size + before + after - k + (s - 1 if ceil_mode else 0)
        sizes.append(int(span / s) + 1)
    out = np.zeros((n, c, *sizes))
    mask = np.full(out.shape, -1)
    for i in range(sizes[0]):
        for j in range(sizes[1]):
            top, left = i * stride[0] - pads[0][0], j * stride[1] - pads[1][0]
            rows = range(max(top, 0), max(min(top + kernel[0], h), 0))
            cols = range(max(left, 0), max(min(left + kernel[1], w), 0))
            window = x[:, :, rows.start:rows.stop, cols.start:cols.stop].reshape(
                n, c, len(rows) * len(cols))
            if kind == "max":
                if window.shape[-1]:
                    best = window.argmax(-1)
                    out[:, :, i, j] = window.max(-1)
                    mask[:, :, i, j] = (rows.start + best // len(cols)) * w + \
                        cols.start + best % len(cols)
                else:
                    out[:, :, i, j] = LOWEST
                continue
            if exclusive:   # Paddle's count, negative for a window past the input
                count = (min(top + kernel[0], h) - max(top, 0)) * \
                    (min(left + kernel[1], w) - max(left, 0))
            else:
                count = (min(top + kernel[0], h + pads[0][0]) - top) * \
                    (min(left + kernel[1], w + pads[1][0]) - left)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:, :, i, j] = window.sum(-1) / count
    return out, mask


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pooling_matches_direct_loops_on_random_shapes(kind):
    rng = np.random.default_rng(3 if kind == "max" else 4)
    for _ in range(80):
        kernel, stride = rng.integers(1, 4, 2).tolist(), rng.integers(1, 4, 2).tolist()
        pads = rng.integers(0, 3, (2, 2)).tolist()
        x = rng.standard_normal((int(rng.integers(1, 3)), int(rng.integers(1, 3)),
                                 int(rng.integers(1, 8)), int(rng.integers(1, 8))))
        ceil_mode, exclusive = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
        padding = [v for pair in pads for v in pair]
        want, want_mask = pool_reference(x, kind, kernel, stride, pads, ceil_mode, exclusive)
        if min(want.shape) < 0:
            continue
        if kind == "max":
            out, mask = F.max_pool2d(pylayer.to_tensor(x), kernel, stride, padding,
                                     return_mask=True, ceil_mode=ceil_mode)
            np.testing.assert_array_equal(mask.numpy(), want_mask)
        else:
            out = F.avg_pool2d(pylayer.to_tensor(x), kernel, stride, padding,
                               ceil_mode=ceil_mode, exclusive=exclusive)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-12, equal_nan=True)


# ------------------------------------------------------------ gradients
@pytest.mark.parametrize("fn", [
    lambda t: F.max_pool2d(t, 2),
    lambda t: F.max_pool2d(t, 3, 2, 1, ceil_mode=True),
    lambda t: F.max_pool2d(t, [2, 3], [1, 2], "SAME", data_format="NHWC"),
    lambda t: F.avg_pool2d(t, 3, 2, 1),
    lambda t: F.avg_pool2d(t, 3, 2, [1, 0, 2, 1], exclusive=False, ceil_mode=True),
    lambda t: F.avg_pool2d(t, 2, 1, divisor_override=3.0, data_format="NHWC"),
])
def test_pool2d_gradients_of_first_and_second_order(fn):
    x = leaf(1, 2, 5, 4)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


@pytest.mark.parametrize("fn", [
    lambda t: F.max_pool1d(t, 3, 2, 1),
    lambda t: F.avg_pool1d(t, 3, 2, [1, 0], exclusive=False),
])
def test_pool1d_gradients_of_first_and_second_order(fn):
    x = leaf(2, 2, 7)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_the_mask_given_back_is_the_callers_to_change():
    x = leaf(1, 1, 4, 4)
    out, mask = F.max_pool2d(x, 2, return_mask=True)
    assert mask.dtype == pylayer.int32
    want = mask.numpy().copy()
    mask.numpy()[...] = 0
    out.sum().backward()
    assert (x.grad.numpy().reshape(-1)[want.reshape(-1)] == 1).all()
    assert x.grad.numpy().sum() == 4


def test_float16_pools_in_float32():
    x = pylayer.to_tensor(RNG.standard_normal((1, 2, 4, 4)), dtype="float16")
    assert F.max_pool2d(x, 2).dtype == pylayer.float16
    np.testing.assert_allclose(F.avg_pool2d(x, 2).numpy(),
                               F.avg_pool2d(x.astype("float32"), 2).numpy(), rtol=1e-3)


# ------------------------------------------------------------- refusals
@pytest.mark.parametrize("call,error,match", [
    (lambda: F.avg_pool2d(pylayer.ones([1, 1, 4, 4]), 2, padding="VALID", ceil_mode=True),
     ValueError, "ceil_mode"),
    (lambda: F.max_pool2d(pylayer.ones([1, 4, 4, 1]), 2, return_mask=True, data_format="NHWC"),
     ValueError, "return_mask"),
    (lambda: F.max_pool2d(pylayer.ones([1, 4, 4]), 2), ValueError, "4-D"),
    (lambda: F.max_pool1d(pylayer.ones([1, 1, 4, 4]), 2), ValueError, "3-D"),
    (lambda: F.max_pool2d(pylayer.ones([1, 1, 4, 4], dtype="int64"), 2), TypeError,
     "floating"),
    (lambda: F.max_pool2d(pylayer.ones([1, 1, 4, 4]), 7, 1), ValueError, "kernel_size"),
    (lambda: F.max_pool2d(pylayer.ones([1, 1, 4, 4]), [2, 2, 2]), ValueError, "kernel_size"),
    (lambda: F.avg_pool1d(pylayer.ones([1, 1, 4]), 2, padding=[1, 1, 1]), ValueError,
     "padding"),
    (lambda: F.max_pool2d(pylayer.ones([1, 1, 4, 4]), 2, 0), ValueError, "stride"),
    (lambda: F.max_pool2d(pylayer.ones([1, 1, 4, 4]), 2, padding=2 ** 31), ValueError,
     "padding"),
    # Paddle 3.3.1 accepts a negative padding and pools past the input's edge.
    (lambda: F.max_pool2d(pylayer.ones([1, 1, 4, 4]), 2, padding=-1), ValueError,
     r"max_pool2d\(\): argument 'padding' must be non-negative, got -1"),
    (lambda: F.avg_pool2d(pylayer.ones([1, 1, 4, 4]), 2, padding=-1), ValueError,
     r"avg_pool2d\(\): argument 'padding' must be non-negative"),
    (lambda: F.max_pool1d(pylayer.ones([1, 1, 4]), 2, padding=[-1]), ValueError,
     r"max_pool1d\(\): argument 'padding' must be non-negative"),
    (lambda: F.avg_pool1d(pylayer.ones([1, 1, 4]), 2, padding=-2), ValueError,
     r"avg_pool1d\(\): argument 'padding' must be non-negative"),
])
def test_pooling_refusals(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_kernels_check_every_mask_entry_and_size():
    dx = np.empty((1, 1, 1, 4))
    with pytest.raises(IndexError, match="outside the input plane"):
        kernels.max_pool_scatter(np.ones((1, 1, 1, 2)), np.array([[[[1, 4]]]], np.int32), dx)
    with pytest.raises(IndexError, match="outside the input plane"):
        kernels.max_pool_gather(np.ones((1, 1, 1, 4)), np.array([[[[7]]]], np.int32),
                                np.empty((1, 1, 1, 1)))
    with pytest.raises(ValueError, match="mask must have"):
        kernels.max_pool(np.ones((1, 1, 1, 4)), np.empty((1, 1, 1, 2)),
                         np.empty((1, 1, 1, 3), np.int32), 1, 2, 1, 2, 0, 0)
    with pytest.raises(ValueError, match="batch and channels"):
        kernels.avg_pool(np.ones((1, 2, 1, 4)), np.empty((1, 1, 1, 2)), 1, 2, 1, 2, 0, 0, 0, 0,
                         True, 1.0)
    with pytest.raises(ValueError, match="stride"):
        kernels.avg_pool(np.ones((1, 1, 1, 4)), np.empty((1, 1, 1, 2)), 1, 2, 1, 0, 0, 0, 0, 0,
                         True, 1.0)


# --------------------------------------------------------------- layers
def test_layers_pool_as_their_functions_and_check_arguments_early():
    x = leaf(1, 2, 6, 6)
    out, mask = nn.MaxPool2D(3, 2, 1, return_mask=True, ceil_mode=True)(x)
    want, want_mask = F.max_pool2d(x, 3, 2, 1, return_mask=True, ceil_mode=True)
    np.testing.assert_array_equal(out.numpy(), want.numpy())
    np.testing.assert_array_equal(mask.numpy(), want_mask.numpy())
    np.testing.assert_array_equal(nn.AvgPool2D(2, divisor_override=2)(x).numpy(),
                                  F.avg_pool2d(x, 2, divisor_override=2).numpy())
    x1 = leaf(1, 2, 7)
    np.testing.assert_array_equal(nn.AvgPool1D(3, 2, 1, exclusive=False)(x1).numpy(),
                                  F.avg_pool1d(x1, 3, 2, 1, exclusive=False).numpy())
    np.testing.assert_array_equal(nn.MaxPool1D(2)(x1).numpy(), F.max_pool1d(x1, 2).numpy())
    assert repr(nn.MaxPool2D(2, 1, 1)) == "MaxPool2D(kernel_size=2, stride=1, padding=1)"
    with pytest.raises(ValueError, match="MaxPool2D.*kernel_size"):
        nn.MaxPool2D(0)
    with pytest.raises(ValueError, match="AvgPool1D.*padding"):
        nn.AvgPool1D(2, padding="full")
