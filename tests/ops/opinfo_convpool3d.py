"""Op-database entries of the 3-D convolutions and the poolings added with them
(``pylayer.ops.convolution``, ``pooling`` and ``folding``).

The references below are plain numpy loops over kernel taps, windows or bins, in any
number of dimensions. Max poolings draw distinct values, so their windows have one
maximum and central differences stay away from ties; lp poolings draw positive
values, away from the kink of ``|x| ** p`` at 0. Paddle's observed values (masks,
fractional bins, edge cases, errors) are in ``tests/nn/test_convpool3d.py``.
"""
import itertools

import numpy as np

import pylayer
from pylayer.nn import functional as F

from opinfo import OpInfo, T, samples
from _hostile_values import A, K, Call, _value

_SUMS = {"float32": (1e-5, 1e-6)}


def _tuple(value, count):
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * count


# ----------------------------------------------------------------- convolutions
def _conv_nd(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Each kernel tap adds its weight times the strided patch of the padded image."""
    count = x.ndim - 2
    stride, padding, dilation = (_tuple(v, count) for v in (stride, padding, dilation))
    image = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out_channels, per_group, *kernel = weight.shape
    outs = [(size - d * (k - 1) - 1) // s + 1
            for size, k, s, d in zip(image.shape[2:], kernel, stride, dilation)]
    out = np.zeros((x.shape[0], out_channels, *outs))
    per_out = out_channels // groups
    for g in range(groups):
        ins, os = slice(g * per_group, (g + 1) * per_group), slice(g * per_out,
                                                                   (g + 1) * per_out)
        for tap in itertools.product(*map(range, kernel)):
            patch = image[(slice(None), ins) + tuple(
                slice(t * d, t * d + s * (o - 1) + 1, s)
                for t, d, s, o in zip(tap, dilation, stride, outs))]
            out[:, os] += np.einsum("nc...,oc->no...", patch, weight[(os, slice(None)) + tap])
    if bias is not None:
        out += bias.reshape((-1,) + (1,) * count)
    return out.astype(x.dtype)


def _conv_transpose_nd(x, weight, bias=None, stride=1, padding=0, output_padding=0,
                       dilation=1, groups=1):
    """Each input element adds the kernel, scaled by it, at ``i * stride - padding``."""
    count = x.ndim - 2
    stride, padding, dilation, extra = (_tuple(v, count) for v in
                                        (stride, padding, dilation, output_padding))
    n, channels, *sizes = x.shape
    _, per_group, *kernel = weight.shape
    full = np.zeros((n, per_group * groups) + tuple(
        (size - 1) * s + d * (k - 1) + 1 + e
        for size, s, d, k, e in zip(sizes, stride, dilation, kernel, extra)))
    per_in = channels // groups
    for g in range(groups):
        ins, os = slice(g * per_in, (g + 1) * per_in), slice(g * per_group, (g + 1) * per_group)
        for tap in itertools.product(*map(range, kernel)):
            full[(slice(None), os) + tuple(
                slice(t * d, t * d + s * (size - 1) + 1, s)
                for t, d, s, size in zip(tap, dilation, stride, sizes))] += np.einsum(
                "nc...,co->no...", x[:, ins].astype(np.float64),
                weight[(ins, slice(None)) + tap])
    out = full[(Ellipsis,) + tuple(slice(p, full.shape[2 + i] - p)
                                   for i, p in enumerate(padding))]
    if bias is not None:
        out = out + bias.reshape((-1,) + (1,) * count)
    return out.astype(x.dtype)


# ------------------------------------------------------------------- poolings
def _windows(x, kernel_size, stride, padding, fill):
    """The windows of ``x`` [N, C, *S]: [N, C, *O, *K]."""
    count = x.ndim - 2
    kernel = _tuple(kernel_size, count)
    stride = kernel if stride is None else _tuple(stride, count)
    padding = _tuple(padding, count)
    image = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + [(p, p) for p in padding],
                   constant_values=fill)
    view = np.lib.stride_tricks.sliding_window_view(image, kernel,
                                                    axis=tuple(range(2, 2 + count)))
    return view[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in stride)]


def _max_pool(x, kernel_size, stride=None, padding=0):
    count = x.ndim - 2
    axes = tuple(range(-count, 0))
    return _windows(x, kernel_size, stride, padding, -np.inf).max(axis=axes).astype(x.dtype)


def _avg_pool(x, kernel_size, stride=None, padding=0, exclusive=True):
    count = x.ndim - 2
    axes = tuple(range(-count, 0))
    total = _windows(x, kernel_size, stride, padding, 0.0).sum(axis=axes)
    if exclusive:
        size = _windows(np.ones_like(x), kernel_size, stride, padding, 0.0).sum(axis=axes)
    else:
        size = np.prod(_tuple(kernel_size, count))
    return (total / size).astype(x.dtype)


def _lp_pool(x, norm_type, kernel_size, stride=None, padding=0):
    count = x.ndim - 2
    axes = tuple(range(-count, 0))
    total = (_windows(x, kernel_size, stride, padding, 0.0) ** norm_type).sum(axis=axes)
    return (total ** (1.0 / norm_type)).astype(x.dtype)


def _adaptive_bins(size, out):
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def _adaptive(reduce):
    def reference(x, output_size, **kwargs):
        count = x.ndim - 2
        outs = [s if o is None else o for s, o in zip(x.shape[2:], _tuple(output_size, count))]
        bins = [_adaptive_bins(size, out) for size, out in zip(x.shape[2:], outs)]
        out = np.empty(x.shape[:2] + tuple(outs))
        for cell in itertools.product(*map(range, outs)):
            window = x[(Ellipsis,) + tuple(slice(*bins[a][i]) for a, i in enumerate(cell))]
            out[(Ellipsis,) + cell] = reduce(window.reshape(x.shape[:2] + (-1,)), axis=-1)
        return out.astype(x.dtype)
    return reference


def _fractional_bins(size, out, kernel, u):
    """Paddle's bins, written out element by element."""
    alpha = (size - kernel) / (out - 1) if kernel and out > 1 else 0.0 if kernel \
        else size / out
    if not kernel:
        base = size // out
        u = u * min((base + 2) / alpha - 1, (size + 1 - base) / alpha - (out - 1))
    result = []
    for i in range(out):
        start = int((i + u) * alpha) - int(u * alpha)
        end = start + kernel if kernel else int((i + 1 + u) * alpha) - int(u * alpha)
        result.append((max(start, 0), min(end, size)))
    return result


def _fractional(x, output_size, kernel_size=None, random_u=None):
    count = x.ndim - 2
    outs = _tuple(output_size, count)
    kernel = (0,) * count if kernel_size is None else _tuple(kernel_size, count)
    bins = [_fractional_bins(s, o, k, random_u) for s, o, k in zip(x.shape[2:], outs, kernel)]
    out = np.empty(x.shape[:2] + tuple(outs))
    for cell in itertools.product(*map(range, outs)):
        window = x[(Ellipsis,) + tuple(slice(*bins[a][i]) for a, i in enumerate(cell))]
        out[(Ellipsis,) + cell] = window.reshape(x.shape[:2] + (-1,)).max(axis=-1)
    return out.astype(x.dtype)


def _unpool(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    count = x.ndim - 2
    kernel = _tuple(kernel_size, count)
    stride = kernel if stride is None else _tuple(stride, count)
    padding = _tuple(padding, count)
    sizes = output_size[-count:] if output_size is not None else [
        (i - 1) * s + k - 2 * p for i, s, k, p in zip(x.shape[2:], stride, kernel, padding)]
    out = np.zeros(x.shape[:2] + (int(np.prod(sizes)),))
    for n, c in itertools.product(*map(range, x.shape[:2])):
        out[n, c, indices[n, c].ravel()] = x[n, c].ravel()
    return out.reshape(x.shape[:2] + tuple(sizes)).astype(x.dtype)


# ------------------------------------------------------------ fold / unfold
def _paddings4(paddings):
    p = list(_tuple(paddings, 2))
    return p * 2 if len(p) == 2 else p


def _unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1):
    (kh, kw), (sh, sw), (dh, dw) = (_tuple(v, 2) for v in (kernel_sizes, strides, dilations))
    top, left, bottom, right = _paddings4(paddings)
    image = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (top, bottom), (left, right)])
    oh = (image.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (image.shape[3] - dw * (kw - 1) - 1) // sw + 1
    cols = np.empty((x.shape[0], x.shape[1], kh, kw, oh, ow))
    for i, j in itertools.product(range(kh), range(kw)):
        cols[:, :, i, j] = image[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                 j * dw:j * dw + sw * (ow - 1) + 1:sw]
    return cols.reshape(x.shape[0], -1, oh * ow).astype(x.dtype)


def _fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1):
    (h, w), (kh, kw) = _tuple(output_sizes, 2), _tuple(kernel_sizes, 2)
    (sh, sw), (dh, dw) = _tuple(strides, 2), _tuple(dilations, 2)
    top, left, bottom, right = _paddings4(paddings)
    oh = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    ow = (w + left + right - dw * (kw - 1) - 1) // sw + 1
    image = np.zeros((x.shape[0], x.shape[1] // (kh * kw), h + top + bottom, w + left + right),
                     np.result_type(x.dtype, np.float64))
    cols = x.reshape(x.shape[0], -1, kh, kw, oh, ow)
    for i, j in itertools.product(range(kh), range(kw)):
        image[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
              j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[:, :, i, j]
    return image[:, :, top:top + h, left:left + w].astype(x.dtype)


def _ncdhw(env=None):
    return pylayer.ones([1, 2, 3, 4, 4])


def _nchw(env=None):
    return pylayer.ones([1, 2, 4, 4])


def _ncl(env=None):
    return pylayer.ones([1, 2, 6])


# unique positions in each plane of a 4 x 6 image, as a 2 x 3 max pooling mask could be
_UNPOOL2D = np.array([[[[0, 3, 5], [13, 16, 23]], [[6, 2, 10], [19, 14, 21]]]], np.int32)
_UNPOOL1D = np.array([[[1, 2, 5], [0, 3, 4]]], np.int64)
_UNPOOL3D = np.arange(8, dtype=np.int32).reshape(1, 1, 2, 2, 2) * 5 % 36 + \
    np.zeros((1, 2, 1, 1, 1), np.int32)

ENTRIES = [
    OpInfo("conv3d", _conv_nd, samples(
        (T((2, 2, 3, 4, 3)), T((3, 2, 2, 3, 2))),
        (T((1, 2, 3, 3, 3)), T((2, 2, 2, 2, 2)), T((2,))),
        ((T((1, 4, 4, 3, 4)), T((2, 2, 3, 2, 2))),
         {"stride": [2, 1, 2], "padding": 1, "groups": 2}),
        ((T((1, 1, 5, 4, 5)), T((1, 1, 2, 2, 2))), {"dilation": [2, 1, 2]}),
        (T((1, 3, 2, 2, 2)), T((2, 3, 1, 1, 1)))), op=F.conv3d, tolerance=_SUMS,
           call=Call(A("x", _ncdhw, "float_tensor"),
                     A("weight", lambda env: pylayer.ones([3, 2, 2, 2, 2]), "float_tensor"),
                     K("bias", lambda env: pylayer.ones([3]), "tensor_or_none"),
                     K("stride", _value(1), "size"), K("padding", _value(1), "count"),
                     K("dilation", _value(1), "size"), K("groups", _value(1), "size"),
                     K("data_format", _value("NCDHW"), "reduction"),
                     extra=[("a bias of the wrong size", {"bias": lambda env: pylayer.ones([2])},
                             "bias")])),
    OpInfo("conv3d_transpose", _conv_transpose_nd, samples(
        (T((1, 2, 2, 3, 2)), T((2, 3, 2, 2, 2))),
        (T((1, 2, 2, 2, 2)), T((2, 1, 2, 3, 2)), T((1,))),
        ((T((1, 2, 2, 3, 2)), T((2, 2, 2, 2, 3))), {"stride": 2, "padding": 1, "dilation": 2}),
        ((T((1, 4, 2, 2, 2)), T((4, 1, 2, 2, 2))),
         {"stride": [2, 1, 2], "output_padding": [1, 0, 0], "groups": 2})),
           op=F.conv3d_transpose, tolerance=_SUMS,
           call=Call(A("x", _ncdhw, "float_tensor"),
                     A("weight", lambda env: pylayer.ones([2, 3, 2, 2, 2]), "float_tensor"),
                     K("bias", lambda env: pylayer.ones([3]), "tensor_or_none"),
                     K("stride", _value(2), "count"), K("padding", _value(1), "count"),
                     K("output_padding", _value(1), "count"),
                     K("groups", _value(1), "size"),
                     K("output_size", _value(None), "count_or_none"),
                     K("data_format", _value("NCDHW"), "reduction"),
                     extra=[("an output_padding not below the stride",
                             {"output_padding": _value(2)}, "output_padding")])),
    OpInfo("max_pool3d", _max_pool, samples(
        (T((2, 2, 4, 4, 4)), 2),
        ((T((1, 2, 5, 4, 3)), 3), {"stride": [2, 1, 1], "padding": 1})),
           op=F.max_pool3d,
           call=Call(A("x", _ncdhw, "float_tensor"), A("kernel_size", _value(2), "size"),
                     K("stride", _value(1), "count_or_none"), K("padding", _value(1), "count"),
                     K("data_format", _value("NCDHW"), "reduction"),
                     extra=[("a padding of the wrong length", {"padding": _value([1, 0])},
                             "padding")])),
    OpInfo("avg_pool3d", _avg_pool, samples(
        (T((2, 2, 4, 4, 4)), 2),
        ((T((1, 2, 5, 4, 3)), 3), {"stride": [2, 1, 1], "padding": 1}),
        ((T((1, 1, 4, 4, 4)), 3), {"stride": 1, "padding": 1, "exclusive": False})),
           op=F.avg_pool3d,
           call=Call(A("x", _ncdhw, "float_tensor"), A("kernel_size", _value(2), "size"),
                     K("stride", _value(1), "count_or_none"), K("padding", _value(0), "count"),
                     K("ceil_mode", _value(False), None),
                     K("divisor_override", _value(2.0), "number_or_none"),
                     K("data_format", _value("NCDHW"), "reduction"),
                     extra=[("'VALID' padding with ceil_mode",
                             {"padding": _value("VALID"), "ceil_mode": _value(True)},
                             ("padding", "ceil_mode"))])),
    OpInfo("adaptive_avg_pool3d", _adaptive(np.mean), samples(
        (T((2, 2, 5, 4, 3)), 2), (T((1, 2, 3, 5, 4)), [2, 3, 3]),
        (T((1, 1, 3, 4, 5)), [1, None, 2]), (T((1, 2, 2, 4, 6)), [1, 2, 3])),
           op=F.adaptive_avg_pool3d,
           call=Call(A("x", _ncdhw, "float_tensor"), A("output_size", _value(2), "size"),
                     K("data_format", _value("NCDHW"), "reduction"))),
    OpInfo("adaptive_max_pool1d", _adaptive(np.max), samples(
        (T((2, 2, 7)), 3), (T((1, 2, 4)), 4)), op=F.adaptive_max_pool1d,
           call=Call(A("x", _ncl, "float_tensor"), A("output_size", _value(2), "size"))),
    OpInfo("adaptive_max_pool2d", _adaptive(np.max), samples(
        (T((2, 2, 5, 4)), 2), (T((1, 2, 3, 5)), [2, 3]), (T((1, 1, 4, 5)), [None, 3])),
           op=F.adaptive_max_pool2d,
           call=Call(A("x", _nchw, "float_tensor"), A("output_size", _value(2), "size"))),
    OpInfo("adaptive_max_pool3d", _adaptive(np.max), samples(
        (T((2, 2, 5, 4, 3)), 2), (T((1, 2, 3, 5, 4)), [2, 3, 3])), op=F.adaptive_max_pool3d,
           call=Call(A("x", _ncdhw, "float_tensor"), A("output_size", _value(2), "size"))),
    OpInfo("max_unpool1d", _unpool, samples(
        (T((1, 2, 3)), _UNPOOL1D, 2)), op=F.max_unpool1d,
           call=Call(A("x", lambda env: pylayer.ones([1, 2, 3]), "float_tensor"),
                     A("indices", lambda env: pylayer.to_tensor(_UNPOOL1D), "int_tensor"),
                     A("kernel_size", _value(2), "size"),
                     K("output_size", _value(None), "shape_or_none"),
                     extra=[("an index beyond the output",
                             {"indices": lambda env: pylayer.to_tensor(_UNPOOL1D * 9)},
                             "indices")])),
    OpInfo("max_unpool2d", _unpool, samples(
        (T((1, 2, 2, 3)), _UNPOOL2D, 2),
        ((T((1, 2, 2, 3)), _UNPOOL2D, 2), {"output_size": [5, 7]})), op=F.max_unpool2d,
           call=Call(A("x", lambda env: pylayer.ones([1, 2, 2, 3]), "float_tensor"),
                     A("indices", lambda env: pylayer.to_tensor(_UNPOOL2D), "int_tensor"),
                     A("kernel_size", _value(2), "size"),
                     K("stride", _value(None), "count_or_none"),
                     K("data_format", _value("NCHW"), "reduction"))),
    OpInfo("max_unpool3d", _unpool, samples(
        ((T((1, 2, 2, 2, 2)), _UNPOOL3D, 2), {"stride": 2, "output_size": [3, 3, 4]})),
           op=F.max_unpool3d,
           call=Call(A("x", lambda env: pylayer.ones([1, 2, 2, 2, 2]), "float_tensor"),
                     A("indices", lambda env: pylayer.to_tensor(_UNPOOL3D), "int_tensor"),
                     A("kernel_size", _value(2), "size"),
                     K("padding", _value(0), "count"))),
    OpInfo("lp_pool1d", _lp_pool, samples(
        (T((2, 2, 6)), 2.0, 2), ((T((1, 2, 7)), 3.0, 3), {"stride": 2, "padding": 1})),
           op=F.lp_pool1d, domain=(0.5, 2.0),
           call=Call(A("x", _ncl, "float_tensor"), A("norm_type", _value(2.0), "number"),
                     A("kernel_size", _value(2), "size"),
                     K("data_format", _value("NCL"), "reduction"))),
    OpInfo("lp_pool2d", _lp_pool, samples(
        (T((2, 2, 4, 4)), 2.0, 2), ((T((1, 2, 5, 4)), 1.5, [3, 2]), {"stride": [2, 1]})),
           op=F.lp_pool2d, domain=(0.5, 2.0),
           call=Call(A("x", _nchw, "float_tensor"), A("norm_type", _value(2.0), "number"),
                     A("kernel_size", _value(2), "size"), K("padding", _value(0), "count"),
                     K("data_format", _value("NCHW"), "reduction"))),
    OpInfo("fractional_max_pool2d", _fractional, samples(
        ((T((2, 2, 7, 7)), [3, 3]), {"random_u": 0.3}),
        ((T((1, 2, 9, 8)), [7, 6]), {"kernel_size": [2, 3], "random_u": 0.6})),
           op=F.fractional_max_pool2d,
           call=Call(A("x", _nchw, "float_tensor"), A("output_size", _value(2), "size"),
                     K("kernel_size", _value(None), "count_or_none"),
                     K("random_u", _value(0.5), "number_or_none"),
                     extra=[("a random_u outside (0, 1)", {"random_u": _value(1.5)},
                             "random_u")])),
    OpInfo("fractional_max_pool3d", _fractional, samples(
        ((T((1, 2, 5, 6, 7)), [2, 3, 4]), {"random_u": 0.4}),
        ((T((1, 1, 5, 5, 5)), 3), {"kernel_size": 2, "random_u": 0.9})),
           op=F.fractional_max_pool3d,
           call=Call(A("x", _ncdhw, "float_tensor"), A("output_size", _value(2), "size"),
                     K("random_u", _value(0.5), "number_or_none"))),
    OpInfo("nn.functional.unfold", _unfold, samples(
        (T((2, 2, 4, 4)), 2),
        ((T((1, 2, 5, 4)), [2, 3]), {"strides": [1, 2], "paddings": [1, 0, 2, 1],
                                     "dilations": [2, 1]})),
           op=F.unfold,
           call=Call(A("x", _nchw, "float_tensor"), A("kernel_sizes", _value(2), "size"),
                     K("strides", _value(1), "size"), K("paddings", _value(0), "count"),
                     K("dilations", _value(1), "size"))),
    OpInfo("fold", _fold, samples(
        (T((2, 8, 9)), [4, 4], 2),
        ((T((1, 12, 12)), [5, 4]), {"kernel_sizes": [2, 3], "strides": [1, 2],
                                    "paddings": [1, 0, 2, 1], "dilations": [2, 1]})),
           op=F.fold, dtypes=("float32", "float64", "complex64", "complex128"),
           call=Call(A("x", lambda env: pylayer.ones([1, 8, 9]), "inexact_tensor"),
                     A("output_sizes", _value(4), "size"),
                     A("kernel_sizes", _value(2), "size"),
                     K("paddings", _value(0), "count"),
                     extra=[("columns that are not the blocks of output_sizes",
                             {"output_sizes": _value(5)}, "output_sizes")])),
]
