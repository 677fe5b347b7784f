"""Convolutions over lowered buffers: the kernels (im2col, col2im), the three recorded
ops behind conv1d/conv2d and their transposes, checked against the einsum
formulation they replaced (kept here only, as the reference), against Paddle
3.3.1's recorded results, and by gradcheck/gradgradcheck in float64."""
import doctest

import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer import nn
from pylayer.autograd import gradcheck, gradgradcheck
from pylayer._kernels import conv as kernels
from pylayer.ops.indexing import take
from pylayer.ops.linalg import einsum

RNG = np.random.default_rng(23)


def leaf(*shape, dtype="float64"):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype=dtype, stop_gradient=False)


# ------------------------------------------------------------------ kernels
def windows_reference(x, kernel, stride, pads, dilation):
    """im2col by numpy slicing of the zero-padded image: [N, C*KH*KW, OH*OW]."""
    (kh, kw), (sh, sw), (dh, dw) = kernel, stride, dilation
    xp = np.pad(x, [(0, 0), (0, 0), pads[0], pads[1]])
    n, c, h, w = xp.shape
    oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (w - dw * (kw - 1) - 1) // sw + 1
    col = np.empty((n, c, kh, kw, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            col[:, :, i, j] = xp[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                 j * dw:j * dw + sw * (ow - 1) + 1:sw]
    return col.reshape(n, c * kh * kw, oh * ow), oh, ow


def random_geometry(rng):
    while True:
        kernel, stride = rng.integers(1, 4, 2), rng.integers(1, 4, 2)
        dilation, pads = rng.integers(1, 3, 2), rng.integers(0, 3, (2, 2))
        shape = [rng.integers(1, 3), rng.integers(1, 4), rng.integers(1, 9), rng.integers(1, 9)]
        if all(shape[2 + d] + pads[d].sum() >= dilation[d] * (kernel[d] - 1) + 1
               for d in range(2)):
            return shape, kernel, stride, dilation, pads


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("channel_last", [False, True])
def test_im2col_and_col2im_match_slicing_and_are_adjoint(dtype, channel_last):
    rng = np.random.default_rng(5)
    for _ in range(60):
        shape, kernel, stride, dilation, pads = random_geometry(rng)
        x = rng.standard_normal(shape).astype(dtype)
        if channel_last:      # the kernel reads a channel-last array through its strides
            x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
        want, oh, ow = windows_reference(x, kernel, stride, pads, dilation)
        geometry = (*kernel, *stride, pads[0][0], pads[1][0], *dilation, oh, ow)
        col = np.full(want.shape, np.nan, dtype)
        kernels.im2col(x, col, *geometry)
        np.testing.assert_array_equal(col, want)
        g = rng.standard_normal(want.shape).astype(dtype)
        dx = np.full(x.shape, np.nan, dtype)
        kernels.col2im(g, dx, *geometry)
        # <im2col(x), g> = <x, col2im(g)>: col2im is exactly the adjoint
        np.testing.assert_allclose((want.astype(np.float64) * g).sum(),
                                   (x.astype(np.float64) * dx).sum(), rtol=1e-4)
        # Padded rows (a view of a wider buffer): the same rows, the padding untouched
        extra = int(rng.integers(1, 20))
        wide = np.full(want.shape[:2] + (want.shape[2] + extra,), np.nan, dtype)
        kernels.im2col(x, wide[:, :, :want.shape[2]], *geometry)
        np.testing.assert_array_equal(wide[:, :, :want.shape[2]], want)
        assert np.isnan(wide[:, :, want.shape[2]:]).all()
        wide[:, :, :want.shape[2]] = g
        dx_wide = np.full(x.shape, np.nan, dtype)
        kernels.col2im(wide[:, :, :want.shape[2]], dx_wide, *geometry)
        np.testing.assert_array_equal(dx_wide, dx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_im2col_of_stride_one_same_size_windows_matches_slicing(dtype):
    """Stride 1 with output rows as long as the input's (padding that keeps the size):
    im2col copies each shifted plane at once and zeroes what wrapped around its rows;
    a plane whose rows are not contiguous goes row by row."""
    rng = np.random.default_rng(8)
    for _ in range(60):
        kernel, dilation = rng.integers(1, 5, 2), rng.integers(1, 3, 2)
        pads = []
        for k, d in zip(kernel, dilation):
            before = rng.integers(0, d * (k - 1) + 1)
            pads.append((before, d * (k - 1) - before))
        shape = [rng.integers(1, 3), rng.integers(1, 4), rng.integers(1, 9), rng.integers(1, 9)]
        x = rng.standard_normal(shape).astype(dtype)
        for image in (x, np.pad(x, [(0, 0), (0, 0), (0, 0), (0, 2)])[..., :shape[3]]):
            want, oh, ow = windows_reference(image, kernel, (1, 1), pads, dilation)
            assert (oh, ow) == tuple(shape[2:])
            col = np.full(want.shape, np.nan, dtype)
            kernels.im2col(image, col, *kernel, 1, 1, pads[0][0], pads[1][0], *dilation, oh, ow)
            np.testing.assert_array_equal(col, want)


def test_col2im_sums_every_window_position():
    dx = np.empty((1, 1, 3, 3))
    kernels.col2im(np.ones((1, 4, 4)), dx, 2, 2, 1, 1, 0, 0, 1, 1, 2, 2)
    assert dx[0, 0].tolist() == [[1, 2, 1], [2, 4, 2], [1, 2, 1]]


@pytest.mark.parametrize("call,error,match", [
    (lambda: kernels.im2col(np.zeros((1, 1, 3, 3)), np.zeros((1, 4, 5)), 2, 2, 1, 1, 0, 0, 1, 1,
                            2, 2), ValueError, r"col must have shape \[1, 4, 4\]"),
    (lambda: kernels.im2col(np.zeros((1, 1, 3, 3)), np.zeros((1, 4, 4)), 0, 2, 1, 1, 0, 0, 1, 1,
                            2, 2), ValueError, "kernel height"),
    (lambda: kernels.im2col(np.zeros((1, 1, 3, 3)), np.zeros((1, 4, 4)), 2, 2, 1, 1, -1, 0, 1,
                            1, 2, 2), ValueError, "padding"),
    (lambda: kernels.im2col(np.zeros((1, 1, 3, 3)), np.zeros((1, 4, 4)), 2, 2, 2 ** 31, 1, 0, 0,
                            1, 1, 2, 2), ValueError, "stride"),
    (lambda: kernels.im2col(np.zeros((1, 1, 3, 3)), np.zeros((1, 4, 8))[:, :, ::2], 2, 2, 1, 1,
                            0, 0, 1, 1, 2, 2), ValueError, "contiguous rows"),
    (lambda: kernels.im2col(np.zeros((1, 1, 3, 3)),
                            np.lib.stride_tricks.as_strided(np.zeros(20), (1, 4, 4), (160, 24, 8)),
                            2, 2, 1, 1, 0, 0, 1, 1, 2, 2), ValueError, "evenly spaced rows"),
    (lambda: kernels.im2col(np.zeros((2, 1, 3, 3)), np.zeros((2, 4, 6))[:, ::-1, :4], 2, 2, 1,
                            1, 0, 0, 1, 1, 2, 2), ValueError, "evenly spaced rows"),
    (lambda: kernels.col2im(np.zeros((2, 4, 6))[::-1, :, :4], np.zeros((2, 1, 3, 3)), 2, 2, 1,
                            1, 0, 0, 1, 1, 2, 2), ValueError, "evenly spaced rows"),
    (lambda: kernels.col2im(np.zeros((1, 4, 4)), np.broadcast_to(np.zeros(1), (1, 1, 3, 3)), 2,
                            2, 1, 1, 0, 0, 1, 1, 2, 2), ValueError, "read-only"),
    (lambda: kernels.im2col(np.zeros((1, 1, 3, 3), np.float32), np.zeros((1, 4, 4)), 2, 2, 1, 1,
                            0, 0, 1, 1, 2, 2), ValueError, "dtype mismatch"),
])
def test_kernels_refuse_what_they_cannot_prove(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_kernel_modules_are_compiled_and_their_examples_pass():
    from pylayer._kernels import norm, pool
    for module in (kernels, pool, norm):
        assert module.__file__.endswith((".so", ".pyd"))
        assert doctest.testmod(module).failed == 0


def test_column_buffers_come_from_the_pool():
    x = pylayer.to_tensor(RNG.standard_normal((8, 16, 32, 32)), dtype="float32")
    w = pylayer.ones([16, 16, 3, 3])
    F.conv2d(x, w, padding=1)                            # a column buffer of 4.7 MB
    hits = pylayer.device.memory_stats()["hits"]
    F.conv2d(x, w, padding=1)
    assert pylayer.device.memory_stats()["hits"] > hits


# --------------------------------------------------------- einsum reference
def einsum_conv2d(x, w, stride, pads, dilation, groups):
    """The formulation conv2d had before the kernels, built from recorded ops."""
    x = F.pad(x, [0, 0, 0, 0, *pads[0], *pads[1]])
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    rows = (np.arange(oh) * stride[0])[None, None, :, None] + \
        (np.arange(kh) * dilation[0])[:, None, None, None]
    cols = (np.arange(ow) * stride[1])[None, None, None, :] + \
        (np.arange(kw) * dilation[1])[None, :, None, None]
    windows = take(x, (slice(None), slice(None), rows, cols), True, "reference")
    windows = windows.reshape([n, groups, c // groups, kh, kw, oh, ow])
    w = w.reshape([groups, o // groups, cg, kh, kw])
    return einsum("ngcabij,gocab->ngoij", windows, w).reshape([n, o, oh, ow])


def random_conv(rng):
    """Random arguments of conv2d: odd sizes, strides, dilations, groups, paddings."""
    while True:
        groups = int(rng.choice([1, 1, 2, 3]))
        c, o = groups * int(rng.integers(1, 3)), groups * int(rng.integers(1, 3))
        kernel, stride = rng.integers(1, 4, 2).tolist(), rng.integers(1, 4, 2).tolist()
        dilation, pads = rng.integers(1, 3, 2).tolist(), rng.integers(0, 3, (2, 2)).tolist()
        size = rng.integers(1, 8, 2).tolist()
        if all(size[d] + sum(pads[d]) >= dilation[d] * (kernel[d] - 1) + 1 for d in range(2)):
            return dict(n=int(rng.integers(1, 3)), c=c, o=o, size=size, kernel=kernel,
                        stride=stride, dilation=dilation, pads=pads, groups=groups)


def test_conv2d_matches_the_einsum_formulation_with_gradients():
    rng = np.random.default_rng(7)
    for _ in range(40):
        a = random_conv(rng)
        x = leaf(a["n"], a["c"], *a["size"])
        w = leaf(a["o"], a["c"] // a["groups"], *a["kernel"])
        padding = [v for pair in a["pads"] for v in pair]
        out = F.conv2d(x, w, stride=a["stride"], padding=padding, dilation=a["dilation"],
                       groups=a["groups"])
        want = einsum_conv2d(x, w, a["stride"], a["pads"], a["dilation"], a["groups"])
        np.testing.assert_allclose(out.numpy(), want.numpy(), atol=1e-12)
        g = pylayer.to_tensor(rng.standard_normal(out.shape))
        got = pylayer.grad(out, [x, w], grad_outputs=g)
        ref = pylayer.grad(want, [x, w], grad_outputs=g)
        for mine, theirs in zip(got, ref):
            np.testing.assert_allclose(mine.numpy(), theirs.numpy(), atol=1e-12)


@pytest.mark.parametrize("dtype,size,groups", [("float64", (8, 8), 1), ("float32", (8, 16), 2),
                                                ("float64", (1, 64), 1)])
def test_column_buffers_with_padded_rows_give_the_einsum_results(dtype, size, groups,
                                                                 monkeypatch):
    # Outputs of 512 bytes a row (64 float64 or 128 float32 positions) go through column
    # buffers whose rows are padded; one sample a block so that several blocks run
    import pylayer.ops.convolution as convolution
    monkeypatch.setattr(convolution, "COLUMN_BLOCK_BYTES", 1)
    x = leaf(3, 4, *size, dtype=dtype)
    w = leaf(6, 4 // groups, 3, 3, dtype=dtype)
    layout = convolution._column_buffer(1, convolution.Geometry(
        2, False, 3, 4, size, 6, size, groups, (3, 3), (1, 1), (1, 1), (1, 1)), dtype)
    assert layout.strides[1] > layout.shape[2] * layout.itemsize          # padded
    out = F.conv2d(x, w, padding=1, groups=groups)
    want = einsum_conv2d(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1), groups)
    tolerance = dict(rtol=1e-5, atol=1e-5) if dtype == "float32" else dict(atol=1e-12)
    np.testing.assert_allclose(out.numpy(), want.numpy(), **tolerance)
    g = pylayer.to_tensor(RNG.standard_normal(out.shape), dtype=dtype)
    for mine, theirs in zip(pylayer.grad(out, [x, w], grad_outputs=g),
                            pylayer.grad(want, [x, w], grad_outputs=g)):
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), **tolerance)


@pytest.mark.parametrize("count", [1, 2])
def test_channel_last_and_1d_forms_match_the_channel_first_2d_one(count):
    rng = np.random.default_rng(11)
    for _ in range(10):
        a = random_conv(rng)
        size, kernel = a["size"][2 - count:], a["kernel"][2 - count:]
        x = leaf(a["n"], a["c"], *size)
        w = leaf(a["o"], a["c"] // a["groups"], *kernel)
        b = leaf(a["o"])
        opts = dict(stride=a["stride"][2 - count:], dilation=a["dilation"][2 - count:],
                    padding=[v for pair in a["pads"][2 - count:] for v in pair],
                    groups=a["groups"])
        conv = F.conv1d if count == 1 else F.conv2d
        last = [0] + list(range(2, count + 2)) + [1]
        first = [0, count + 1] + list(range(1, count + 1))
        want = conv(x, w, b, **opts)
        got = conv(x.transpose(last), w, b, data_format="NLC" if count == 1 else "NHWC",
                   **opts)
        np.testing.assert_allclose(got.transpose(first).numpy(), want.numpy(), atol=1e-12)
        if count == 1:   # a 1-D convolution is a 2-D one of height 1
            flat = F.conv2d(x.unsqueeze(2), w.unsqueeze(2), b, stride=[1] + opts["stride"],
                            padding=[0, 0] + opts["padding"], dilation=[1] + opts["dilation"],
                            groups=a["groups"])
            np.testing.assert_allclose(flat.squeeze(2).numpy(), want.numpy(), atol=1e-12)


def test_conv2d_transpose_is_the_einsum_convolutions_input_gradient():
    rng = np.random.default_rng(13)
    for _ in range(30):
        a = random_conv(rng)
        image = leaf(a["n"], a["c"], *a["size"])
        w = leaf(a["o"], a["c"] // a["groups"], *a["kernel"])
        y = einsum_conv2d(image, w, a["stride"], a["pads"], a["dilation"], a["groups"])
        x = pylayer.to_tensor(rng.standard_normal(y.shape))
        (want,) = pylayer.grad(y, [image], grad_outputs=x)
        got = F.conv2d_transpose(x, w, stride=a["stride"],
                                 padding=[v for pair in a["pads"] for v in pair],
                                 dilation=a["dilation"], groups=a["groups"],
                                 output_size=a["size"])
        np.testing.assert_allclose(got.numpy(), want.numpy(), atol=1e-12)


# ------------------------------------------------------------- gradcheck
@pytest.mark.parametrize("opts", [
    dict(),
    dict(stride=2, padding=1),
    dict(stride=[1, 2], padding=[1, 0, 2, 1], dilation=[2, 1]),
    dict(padding="same", groups=2),
    dict(padding=[[0, 0], [1, 0], [0, 2], [0, 0]], data_format="NHWC"),
])
def test_conv2d_gradients_of_first_and_second_order(opts):
    groups = opts.get("groups", 1)
    x = leaf(1, 4, 3, 4) if opts.get("data_format") == "NHWC" else leaf(1, 4, 4, 3)
    inputs = (x, leaf(2, 4 // groups, 2, 2), leaf(2))
    fn = lambda *t: F.conv2d(*t, **opts)  # noqa: E731
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("opts", [
    dict(stride=2),
    dict(stride=2, padding=1, output_padding=1, dilation=1),
    dict(stride=[2, 1], padding=[1, 0, 0, 1], dilation=[1, 2], groups=2),
    dict(stride=2, padding="same", data_format="NHWC"),
])
def test_conv2d_transpose_gradients_of_first_and_second_order(opts):
    groups = opts.get("groups", 1)
    x = leaf(1, 3, 2, 4) if opts.get("data_format") == "NHWC" else leaf(1, 4, 3, 2)
    inputs = (x, leaf(4, 4 // groups, 2, 2), leaf(4))
    fn = lambda *t: F.conv2d_transpose(*t, **opts)  # noqa: E731
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("transpose", [False, True])
def test_conv1d_and_its_transpose_gradients(transpose):
    fn = (lambda a, b: F.conv1d_transpose(a, b, stride=2, padding=[1, 0], output_padding=1,
                                          data_format="NLC")) if transpose else \
        (lambda a, b: F.conv1d(a, b, stride=2, padding=1, dilation=2, groups=2))
    inputs = (leaf(2, 4, 2), leaf(2, 3, 3)) if transpose else (leaf(2, 4, 7), leaf(4, 2, 2))
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_third_order_gradients_come_from_the_same_ops():
    x, w = leaf(1, 2, 4, 4), leaf(2, 2, 3, 3)
    y = F.conv2d(x, w, padding=1)
    (gx,) = pylayer.grad((y * y).sum(), [x], create_graph=True)
    (gw,) = pylayer.grad((gx * gx).sum(), [w], create_graph=True)
    (gxx,) = pylayer.grad(gw.sum(), [x])
    assert gxx.shape == [1, 2, 4, 4] and np.isfinite(gxx.numpy()).all()


# ------------------------------------------------- Paddle 3.3.1's results
def test_conv_transpose_results_recorded_from_paddle():
    x = pylayer.arange(9, dtype="float32").reshape([1, 1, 3, 3])
    w = pylayer.ones([1, 1, 2, 2])
    assert F.conv2d_transpose(x, w).numpy()[0, 0].tolist() == [
        [0, 1, 3, 2], [3, 8, 12, 7], [9, 20, 24, 13], [6, 13, 15, 8]]
    assert F.conv2d_transpose(x, w, stride=2, padding=1).numpy()[0, 0].tolist() == [
        [0, 1, 1, 2], [3, 4, 4, 5], [3, 4, 4, 5], [6, 7, 7, 8]]
    assert F.conv2d_transpose(x, w, stride=2, output_padding=1).shape == [1, 1, 7, 7]
    assert F.conv2d_transpose(x, w, stride=2, output_size=[6, 7]).numpy()[0, 0, :, 6].tolist() \
        == [0] * 6
    assert F.conv2d_transpose(x, w, stride=2, padding="SAME").shape == [1, 1, 5, 5]
    k3 = pylayer.ones([1, 1, 3, 3])
    assert F.conv2d_transpose(x, k3, stride=2, padding="SAME").numpy()[0, 0, 1].tolist() == [
        3, 8, 5, 12, 7]
    assert F.conv2d_transpose(x, k3, stride=2, padding=[1, 0, 0, 1]).numpy()[0, 0, 5].tolist() \
        == [6, 6, 13, 7, 15, 8]
    assert F.conv2d_transpose(x, w, dilation=2).numpy()[0, 0, 2].tolist() == [6, 8, 16, 8, 10]
    assert F.conv2d_transpose(x, w, padding=2).shape == [1, 1, 0, 0]
    xg = pylayer.arange(18, dtype="float32").reshape([1, 2, 3, 3])
    wg = pylayer.arange(16, dtype="float32").reshape([2, 2, 2, 2])
    out = F.conv2d_transpose(xg, wg, bias=pylayer.to_tensor([1.0, 2, 3, 4]), groups=2)
    assert out.numpy()[0, :, 0, 0].tolist() == [1, 2, 75, 112]
    assert out.numpy()[0, 3, 3].tolist() == [214, 453, 482, 259]
    nhwc = F.conv2d_transpose(xg.transpose([0, 2, 3, 1]), wg, data_format="NHWC", stride=2,
                              output_padding=1)
    assert nhwc.shape == [1, 7, 7, 2] and nhwc.numpy()[0, 1, 2].tolist() == [102, 146]
    x1, w1 = pylayer.arange(4, dtype="float32").reshape([1, 1, 4]), \
        pylayer.to_tensor([[[1.0, 2, 3]]])
    assert F.conv1d_transpose(x1, w1).numpy()[0, 0].tolist() == [0, 1, 4, 10, 12, 9]
    assert F.conv1d_transpose(x1, w1, stride=2, padding=[1, 0]).numpy()[0, 0].tolist() == [
        0, 1, 2, 5, 4, 9, 6, 9]
    assert F.conv1d_transpose(x1, w1, stride=2, output_size=10).numpy()[0, 0].tolist() == [
        0, 0, 1, 2, 5, 4, 9, 6, 9, 0]
    assert F.conv1d_transpose(x1, w1, stride=2, padding="same").shape == [1, 1, 8]


@pytest.mark.parametrize("call,match", [
    (lambda: F.conv2d_transpose(pylayer.ones([1, 1, 3, 3]), pylayer.ones([1, 1, 2, 2]),
                                stride=2, output_padding=2), "output_padding"),
    (lambda: F.conv2d_transpose(pylayer.ones([1, 1, 3, 3]), pylayer.ones([1, 1, 2, 2]),
                                stride=2, output_size=8), "output_size"),
    (lambda: F.conv2d_transpose(pylayer.ones([1, 1, 3, 3]), pylayer.ones([1, 1, 2, 2]),
                                stride=2, output_size=5), "output_size"),
    (lambda: F.conv2d_transpose(pylayer.ones([1, 1, 3, 3]), pylayer.ones([1, 1, 2, 2]),
                                stride=2, output_size=7, output_padding=1), "not both"),
    (lambda: F.conv2d_transpose(pylayer.ones([1, 1, 3, 3]), pylayer.ones([1, 1, 2, 2]),
                                stride=2, output_size=[7, 7, 7]), "output_size"),
    (lambda: F.conv2d_transpose(pylayer.ones([1, 1, 3, 7]), pylayer.ones([1, 2, 1, 2]),
                                stride=[3, 1], padding=2, dilation=2, output_padding=1),
     "inconsistent"),
    (lambda: F.conv2d_transpose(pylayer.ones([1, 2, 3, 3]), pylayer.ones([1, 1, 2, 2])),
     "first dimension"),
    (lambda: F.conv2d_transpose(pylayer.ones([1, 1, 2, 2]), pylayer.ones([1, 1, 2, 2]),
                                padding=3), "larger than"),
    (lambda: F.conv1d(pylayer.ones([1, 1, 5]), pylayer.ones([1, 1, 3]), padding=-1),
     "non-negative"),
])
def test_conv_transpose_refusals_as_paddle(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call", [
    lambda: F.conv2d(pylayer.ones([1, 1, 4, 4]), pylayer.ones([1, 1, 5, 5])),
    lambda: F.conv2d(pylayer.ones([1, 1, 4, 4]), pylayer.ones([1, 1, 3, 3]), dilation=2),
    lambda: F.conv1d(pylayer.ones([1, 1, 3]), pylayer.ones([1, 1, 4])),
])
def test_a_kernel_larger_than_the_padded_input_is_refused(call):
    # Paddle 3.3.1 returns an empty tensor here (0 output positions).
    with pytest.raises(ValueError, match=r"conv[12]d\(\): the kernel .* does not fit"):
        call()


def test_conv_transpose_layers_initialize_like_paddle_and_take_output_size():
    up = nn.Conv2DTranspose(2, 4, 3, stride=2, padding=1, output_padding=1)
    assert up.weight.shape == [2, 4, 3, 3] and up.bias.shape == [4]
    limit = (6 / (4 * 9 + 2 * 9)) ** 0.5               # XavierUniform, Paddle's fans
    assert np.abs(up.weight.numpy()).max() <= limit
    x = pylayer.ones([1, 2, 3, 3])
    assert up(x).shape == [1, 4, 6, 6] and up(x, output_size=[5, 5]).shape == [1, 4, 5, 5]
    up1 = nn.Conv1DTranspose(2, 4, 3, stride=2, groups=2, data_format="NLC")
    assert up1.weight.shape == [2, 2, 3] and up1(pylayer.ones([1, 5, 2])).shape == [1, 11, 4]
    assert "output_padding" in repr(up)


# ----------------------------------------------------- dtypes and contracts
def test_float16_is_computed_in_float32():
    x = pylayer.to_tensor(RNG.standard_normal((2, 3, 5, 5)), dtype="float16")
    w = pylayer.to_tensor(RNG.standard_normal((4, 3, 3, 3)), dtype="float16")
    out = F.conv2d(x, w, padding=1)
    assert out.dtype == pylayer.float16
    want = F.conv2d(x.astype("float32"), w.astype("float32"), padding=1)
    np.testing.assert_allclose(out.numpy().astype(np.float32), want.numpy(), rtol=5e-3,
                               atol=5e-2)


def test_an_empty_batch_gives_an_empty_result_and_zero_weight_gradient():
    x = pylayer.zeros([0, 3, 5, 5])
    w = leaf(4, 3, 3, 3, dtype="float32")
    out = F.conv2d(x, w)
    assert out.shape == [0, 4, 3, 3]
    out.sum().backward()
    assert w.grad.shape == [4, 3, 3, 3] and not w.grad.numpy().any()


def test_an_input_changed_in_place_after_the_convolution_is_refused_in_backward():
    x, w = leaf(1, 1, 4, 4), leaf(1, 1, 2, 2)
    h = x * 1.0
    y = F.conv2d(h, w)
    h.zero_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_conv_ops_record_into_a_static_program():
    from pylayer import static
    data = np.arange(18.0, dtype="float32").reshape(1, 2, 3, 3)
    w = np.ones((2, 1, 2, 2), "float32")
    build = lambda x: F.conv2d_transpose(x, pylayer.to_tensor(w), stride=2)  # noqa: E731
    want = build(pylayer.to_tensor(data)).numpy()
    pylayer.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            x = static.data("x", [1, 2, 3, 3], "float32")
            y = build(x)
        (got,) = static.Executor().run(main, feed={"x": data}, fetch_list=[y])
    finally:
        pylayer.disable_static()
    np.testing.assert_allclose(got, want)


def test_a_convolution_keeps_its_input_and_no_column_buffer():
    x, w = leaf(2, 3, 5, 5), leaf(4, 3, 3, 3)
    y = F.conv2d(x, w, padding=1)
    assert [type(a).__name__ for a in y.grad_fn.attrs] == ["Geometry"]


@pytest.mark.parametrize("case", [
    dict(x=(5, 4, 6, 7), w=(6, 2, 3, 3), groups=2, stride=2, padding=1),
    dict(x=(3, 5, 7, 4), w=(4, 5, 2, 3), groups=1, stride=1, padding=[1, 0],
         data_format="NHWC"),
    dict(x=(4, 2, 3, 4, 5), w=(3, 2, 2, 2, 3), groups=1, stride=1, padding=1),
    dict(x=(3, 4, 9), w=(2, 4, 3), groups=1, stride=2, padding=2),
    dict(x=(4, 3, 5, 5), w=(6, 3, 1, 1), groups=1, stride=1, padding=0),
])
def test_blocks_of_samples_give_the_whole_batchs_results(case, monkeypatch):
    # The column buffers are made a block of samples at a time: one sample per block
    # (a tiny block size) must give what one block for the whole batch gives.
    import pylayer.ops.convolution as convolution
    conv = {3: F.conv1d, 4: F.conv2d, 5: F.conv3d}[len(case["x"])]
    kwargs = {k: v for k, v in case.items() if k not in ("x", "w")}
    shape = list(case["x"])
    if kwargs.get("data_format") == "NHWC":
        shape = [shape[0], shape[2], shape[3], shape[1]]
    x_data, w_data = RNG.standard_normal(shape), RNG.standard_normal(case["w"])
    results = []
    for block_bytes in (1, 1 << 40):
        monkeypatch.setattr(convolution, "COLUMN_BLOCK_BYTES", block_bytes)
        x = pylayer.to_tensor(x_data, stop_gradient=False)
        w = pylayer.to_tensor(w_data, stop_gradient=False)
        y = conv(x, w, **kwargs)
        g = pylayer.to_tensor(np.linspace(-1.0, 1.0, y.size).reshape(y.shape))
        results.append([y.numpy()] + [t.numpy() for t in pylayer.grad(y, [x, w], g)])
    for per_sample, whole in zip(*results):
        np.testing.assert_allclose(per_sample, whole, rtol=1e-12, atol=1e-12)
