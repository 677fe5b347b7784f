"""The op database's entries of the spatial ops added with the padding, resampling and
pairwise layers: zeropad2d, upsample, pixel_unshuffle, channel_shuffle, temporal_shift,
cosine_similarity, pairwise_distance, bilinear, grid_sample, affine_grid, gather_tree,
and variants of pad (circular) and interpolate (linear, trilinear, bicubic, area) for their
new modes.

The references are numpy written for these tests, in float64, returning the input's
dtype."""
import itertools

import numpy as np

import pylayer
from pylayer.nn import functional as F

from opinfo import INTS, OpInfo, T, samples
from _hostile_values import A, K, Call, _chw, _value, f23

_SUMS = {"float32": (1e-5, 1e-6)}


# ----------------------------------------------------------------- references
def _pad(x, pad, mode="constant", value=0.0, data_format=None):
    widths = [(0, 0)] * x.ndim
    for k in range(len(pad) // 2):
        widths[x.ndim - 1 - k] = (pad[2 * k], pad[2 * k + 1])
    if mode == "constant":
        return np.pad(x, widths, constant_values=value)
    return np.pad(x, widths, mode={"replicate": "edge", "circular": "wrap"}.get(mode, mode))


def _zeropad2d(x, padding, data_format="NCHW"):
    return _pad(x, padding)


def _linear_matrix(size, out_size, align_corners):
    """The [out_size, size] matrix of linear interpolation along one axis."""
    if align_corners:
        source = np.arange(out_size) * ((size - 1) / (out_size - 1) if out_size > 1 else 0.0)
    else:
        source = np.maximum((np.arange(out_size) + 0.5) * size / out_size - 0.5, 0.0)
    low = np.minimum(np.floor(source).astype(int), size - 1)
    high = np.minimum(low + 1, size - 1)
    matrix = np.zeros((out_size, size))
    np.add.at(matrix, (np.arange(out_size), low), 1 - (source - low))
    np.add.at(matrix, (np.arange(out_size), high), source - low)
    return matrix


def _cubic_matrix(size, out_size, align_corners):
    """The [out_size, size] matrix of cubic convolution (a = -0.75), edges repeated."""
    if align_corners:
        source = np.arange(out_size) * ((size - 1) / (out_size - 1) if out_size > 1 else 0.0)
    else:
        source = (np.arange(out_size) + 0.5) * size / out_size - 0.5
    matrix = np.zeros((out_size, size))
    for o, s in enumerate(source):
        for k in range(int(np.floor(s)) - 1, int(np.floor(s)) + 3):
            d = abs(s - k)
            w = (1.25 * d - 2.25) * d * d + 1 if d <= 1 else ((-0.75 * d + 3.75) * d - 6) * d + 3
            matrix[o, min(max(k, 0), size - 1)] += w
    return matrix


def _resize(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
            data_format=None):
    out = x.astype(np.float64)
    sizes = size if size is not None else [int(n * scale_factor) for n in x.shape[2:]]
    for axis, out_size in zip(range(2, x.ndim), sizes):
        n = x.shape[axis]
        if mode == "nearest":
            matrix = np.eye(n)[np.arange(out_size) * n // out_size]
        elif mode == "area":
            matrix = np.zeros((out_size, n))
            for o in range(out_size):
                low, high = o * n // out_size, -(-(o + 1) * n // out_size)
                matrix[o, low:high] = 1 / (high - low)
        elif mode == "bicubic":
            matrix = _cubic_matrix(n, out_size, align_corners)
        else:
            matrix = _linear_matrix(n, out_size, align_corners)
        out = np.moveaxis(np.tensordot(matrix, np.moveaxis(out, axis, 0), axes=1), 0, axis)
    return out.astype(x.dtype)


def _pixel_unshuffle(x, downscale_factor):
    n, c, h, w = x.shape
    r = downscale_factor
    out = np.empty((n, c, r, r, h // r, w // r), x.dtype)
    for i, j in itertools.product(range(r), range(r)):
        out[:, :, i, j] = x[:, :, i::r, j::r]
    return out.reshape(n, c * r * r, h // r, w // r)


def _channel_shuffle(x, groups):
    c = x.shape[1]
    order = [g * (c // groups) + i for i in range(c // groups) for g in range(groups)]
    return x[:, order]


def _temporal_shift(x, seg_num, shift_ratio=0.25):
    nt, c = x.shape[:2]
    clips = x.reshape(nt // seg_num, seg_num, *x.shape[1:])
    out = clips.copy()
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    out[:, :, :c1] = 0
    out[:, 1:, :c1] = clips[:, :-1, :c1]
    out[:, :, c1:c2] = 0
    out[:, :-1, c1:c2] = clips[:, 1:, c1:c2]
    return out.reshape(x.shape)


def _cosine_similarity(x1, x2, axis=1, eps=1e-8):
    a, b = x1.astype(np.float64), x2.astype(np.float64)
    norms = np.sqrt(np.maximum((a * a).sum(axis) * (b * b).sum(axis), eps * eps))
    return ((a * b).sum(axis) / norms).astype(x1.dtype)


def _pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False):
    d = np.abs(x.astype(np.float64) - y + epsilon)
    out = (d ** p).sum(-1, keepdims=keepdim) ** (1 / p)
    return np.asarray(out, x.dtype)


def _bilinear(x1, x2, weight, bias=None):
    out = np.einsum("bi,oij,bj->bo", x1.astype(np.float64), weight, x2)
    return (out if bias is None else out + bias).astype(x1.dtype)


def _affine_grid(theta, out_shape, align_corners=True):
    sizes = out_shape[2:]

    def axis(n):
        return (np.linspace(-1, 1, n) * (1 if align_corners else (n - 1) / n)
                if n > 1 else np.zeros(1))
    points = np.array(list(itertools.product(*[axis(n) for n in sizes])))[:, ::-1]
    points = np.concatenate([points, np.ones((len(points), 1))], axis=1)
    out = np.einsum("pk,ndk->npd", points, theta.astype(np.float64))
    return out.reshape(theta.shape[0], *sizes, len(sizes)).astype(theta.dtype)


def _unnormalize(g, size, align_corners):
    return (g + 1) * (size - 1) / 2 if align_corners else ((g + 1) * size - 1) / 2


def _padded(c, size, padding_mode, align_corners):
    if padding_mode == "zeros":
        return c
    if padding_mode == "reflection":
        low, high = (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)
        if high > low:
            period = 2 * (high - low)
            c = np.mod(c - low, period)
            c = low + np.minimum(c, period - c)
        else:
            c = np.zeros_like(c)
    return np.clip(c, 0, size - 1)


def _grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True):
    a = x.astype(np.float64)
    dims = x.ndim - 2
    sizes = x.shape[2:]
    coords = [_padded(_unnormalize(grid[..., dims - 1 - k], sizes[k], align_corners),
                      sizes[k], padding_mode, align_corners) for k in range(dims)]
    n = np.arange(x.shape[0]).reshape((-1,) + (1,) * dims)

    def read(index):
        inside = np.all([(i >= 0) & (i < s) for i, s in zip(index, sizes)], axis=0)
        safe = [np.clip(i, 0, s - 1) for i, s in zip(index, sizes)]
        values = np.moveaxis(a, 1, -1)[(n, *safe)]
        return values * inside[..., None]
    if mode == "nearest":
        out = read([np.rint(c).astype(int) for c in coords])
    else:
        out = 0.0
        for corner in itertools.product((0, 1), repeat=dims):
            index = [np.floor(c).astype(int) + o for c, o in zip(coords, corner)]
            weight = np.prod([1 - np.abs(c - i) for c, i in zip(coords, index)], axis=0)
            out = out + read(index) * weight[..., None]
    return np.moveaxis(out, -1, 1).astype(x.dtype)


def _gather_tree(ids, parents):
    out = np.empty_like(ids)
    length, batch, beam = ids.shape
    for b in range(batch):
        for k in range(beam):
            parent = k
            for t in range(length - 1, -1, -1):
                out[t, b, k] = ids[t, b, parent]
                parent = parents[t, b, parent]
    return out


_PARENTS = np.array([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])


def _grid(env=None):
    return pylayer.to_tensor([[[[0.3, -0.2], [0.9, 0.5]]]])


def _theta(env=None):
    return pylayer.to_tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])


ENTRIES = [
    OpInfo("pad", _pad, samples(
        ((T((1, 2, 3, 4)), [1, 2, 2, 1]), {"mode": "circular"}),
        ((T((1, 2, 2, 3, 2)), [1, 0, 0, 1, 1, 1]), {"mode": "circular"}),
        ((T((1, 1, 2, 3, 2)), [1, 0, 0, 1, 1, 1]), {"mode": "reflect"})),
           variant="circular_and_3d", op=F.pad),
    OpInfo("zeropad2d", _zeropad2d, samples((T((1, 2, 3, 4)), [1, 2, 0, 1]),
                                            (T((2, 1, 2, 2)), [0, 0, 3, 1])),
           dtypes=("float32", "float64", "int32", "int64"),
           call=Call(A("x", _chw, "tensor"), A("padding", _value([1, 1, 0, 0]), "int_list"),
                     K("data_format", _value("NCHW"), "reduction"))),
    OpInfo("interpolate", _resize, samples(
        ((T((1, 2, 4)),), {"size": [7], "mode": "linear"}),
        ((T((1, 2, 5)),), {"scale_factor": 0.6, "mode": "linear", "align_corners": True}),
        ((T((1, 1, 2, 3, 2)),), {"size": [3, 4, 3], "mode": "trilinear"}),
        ((T((1, 2, 2, 3, 2)),), {"scale_factor": 2, "mode": "nearest"}),
        ((T((1, 2, 3, 5)),), {"size": [5, 4], "mode": "bicubic"}),
        ((T((1, 1, 4, 3)),), {"size": [3, 5], "mode": "bicubic", "align_corners": True}),
        ((T((1, 2, 7)),), {"size": [3], "mode": "area"}),
        ((T((1, 1, 5, 4)),), {"size": [3, 6], "mode": "area"}),
        ((T((1, 1, 3, 5, 4)),), {"size": [2, 3, 2], "mode": "area"})),
           variant="more_modes", tolerance=_SUMS),
    OpInfo("upsample", _resize, samples(
        ((T((1, 2, 2, 3)),), {"scale_factor": 2}),
        ((T((1, 2, 3, 4)),), {"size": [4, 6], "mode": "bilinear"}),
        ((T((1, 2, 3)),), {"size": [5], "mode": "linear", "align_corners": True})),
           tolerance=_SUMS,
           call=Call(A("x", _chw, "float_tensor"), K("size", _value([3, 5]), "int_list"),
                     K("mode", _value("bilinear"), "reduction"))),
    OpInfo("pixel_unshuffle", _pixel_unshuffle, samples((T((1, 2, 4, 6)), 2),
                                                        (T((2, 1, 3, 3)), 3)),
           call=Call(A("x", _chw, "float_tensor"), A("downscale_factor", _value(2), "size"),
                     K("data_format", _value("NCHW"), "reduction"))),
    OpInfo("channel_shuffle", _channel_shuffle, samples((T((1, 6, 2, 2)), 3),
                                                        (T((2, 4, 1, 3)), 2)),
           call=Call(A("x", _chw, "float_tensor"), A("groups", _value(2), "size"),
                     K("data_format", _value("NCHW"), "reduction"))),
    OpInfo("temporal_shift", _temporal_shift, samples(
        (T((4, 4, 2, 2)), 2), ((T((6, 8, 1, 2)), 3), {"shift_ratio": 0.3})),
           call=Call(A("x", _chw, "float_tensor"), A("seg_num", _value(1), "size"),
                     K("shift_ratio", _value(0.25), "probability"))),
    OpInfo("cosine_similarity", _cosine_similarity, samples(
        (T((3, 4)), T((3, 4))), ((T((2, 3, 2)), T((1, 3, 2))), {"axis": 1}),
        ((T((4, 2)), T((4, 2))), {"axis": 0, "eps": 0.5})), tolerance=_SUMS,
           call=Call(A("x1", f23, "float_tensor"), A("x2", f23, "float_tensor"),
                     K("axis", _value(1), "int_axis"), K("eps", _value(1e-8), "number"))),
    OpInfo("pairwise_distance", _pairwise_distance, samples(
        (T((3, 4)), T((3, 4))), ((T((2, 3)), T((3,))), {"p": 3.0, "keepdim": True}),
        ((T((4,)), T((4,))), {"p": 1.5, "epsilon": 0.1})), tolerance=_SUMS,
           call=Call(A("x", f23, "float_tensor"), A("y", f23, "float_tensor"),
                     K("p", _value(2.0), "number"), K("epsilon", _value(1e-6), "number"))),
    OpInfo("bilinear", _bilinear, samples(
        (T((3, 2)), T((3, 4)), T((5, 2, 4)), T((1, 5))), (T((2, 3)), T((2, 1)), T((2, 3, 1)))),
           tolerance=_SUMS,
           call=Call(A("x1", lambda env: pylayer.ones([2, 3]), "float_tensor"),
                     A("x2", lambda env: pylayer.ones([2, 2]), "float_tensor"),
                     A("weight", lambda env: pylayer.ones([4, 3, 2]), "float_tensor"),
                     K("bias", lambda env: pylayer.ones([1, 4]), "tensor_or_none"))),
    OpInfo("grid_sample", _grid_sample, samples(
        (T((2, 2, 3, 4)), T((2, 2, 3, 2), -0.95, 0.95)),
        ((T((1, 2, 3, 4)), T((1, 3, 2, 2), -1.4, 1.4)),
         {"padding_mode": "border", "align_corners": False}),
        ((T((1, 1, 3, 4)), T((1, 2, 3, 2), -1.8, 1.8)), {"padding_mode": "reflection"}),
        ((T((1, 1, 3, 4)), T((1, 2, 3, 2), -1.8, 1.8)),
         {"padding_mode": "reflection", "align_corners": False}),
        ((T((1, 2, 3, 4)), T((1, 2, 2, 2), -1.3, 1.3)), {"mode": "nearest"}),
        ((T((1, 2, 2, 3, 2)), T((1, 2, 1, 2, 3), -1.2, 1.2)), {"align_corners": False}),
        ((T((1, 1, 2, 3, 2)), T((1, 1, 2, 2, 3), -1.2, 1.2)),
         {"mode": "nearest", "padding_mode": "border"})), tolerance=_SUMS,
           call=Call(A("x", lambda env: pylayer.ones([1, 2, 3, 3]), "float_tensor"),
                     A("grid", _grid, "float_tensor"),
                     K("mode", _value("bilinear"), "reduction"),
                     K("padding_mode", _value("zeros"), "reduction"))),
    OpInfo("affine_grid", _affine_grid, samples(
        (T((2, 2, 3)), [2, 1, 2, 3]), ((T((1, 2, 3)), [1, 3, 3, 2]), {"align_corners": False}),
        (T((2, 3, 4)), [2, 1, 2, 3, 2])), tolerance=_SUMS,
           call=Call(A("theta", _theta, "float_tensor"),
                     A("out_shape", _value([1, 1, 2, 3]), "int_list"))),
    OpInfo("gather_tree", _gather_tree, samples((T((3, 2, 2), 0, 9), _PARENTS)),
           dtypes=INTS, differentiable=False, static=False,
           call=Call(A("ids", lambda env: pylayer.to_tensor([[[1, 2]], [[3, 4]]]), "int_tensor"),
                     A("parents", lambda env: pylayer.to_tensor([[[0, 1]], [[1, 0]]]),
                       "int_tensor"))),
]
