"""The numpy references of the op database (``opinfo.py``): each computes what its op
should give, from numpy arrays and the op's keyword arguments. One reference per op, for
every test (the fuzzer and the ops' own test files take them from here)."""
import math

import numpy as np


erf = np.vectorize(math.erf, otypes=[np.float64])  # the erf reference of every test


def _np_axis(axis):
    """Paddle's axis (None, int, list; [] means all) as numpy's."""
    if axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0):
        return None
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


def reduction(np_fn):
    return lambda x, axis=None, keepdim=False: np_fn(x, axis=_np_axis(axis), keepdims=keepdim)


def same_dtype(np_fn):
    """A reference that keeps its input's dtype (numpy may promote ints, Paddle does not)."""
    return lambda x, *args, **kwargs: np.asarray(np_fn(x, *args, **kwargs)).astype(x.dtype)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True):
    return (x * scale + bias if bias_after_scale else (x + bias) * scale).astype(x.dtype)


def matmul(x, y, transpose_x=False, transpose_y=False):
    if transpose_x:
        x = np.swapaxes(x, -1, -2)
    if transpose_y:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)


def flatten(x, start_axis=0, stop_axis=-1):
    if x.ndim == 0:
        return x.reshape(1)
    start, stop = start_axis % x.ndim, stop_axis % x.ndim
    return x.reshape(x.shape[:start] + (-1,) + x.shape[stop + 1:])


def split(x, num_or_sections, axis=0):
    if isinstance(num_or_sections, int):
        return np.split(x, num_or_sections, axis)
    return np.split(x, np.cumsum(num_or_sections)[:-1], axis)


def slice_along(x, axes, starts, ends):
    index = [slice(None)] * x.ndim
    for axis, start, end in zip(axes, starts, ends):
        index[axis] = slice(start, end)
    return x[tuple(index)]


def put_along_axis(arr, indices, values, axis, reduce="assign"):
    out = arr.copy()
    np.put_along_axis(out, indices, np.broadcast_to(values, indices.shape), axis)
    return out


def masked_fill(x, mask, value):
    return np.where(mask, np.asarray(value, x.dtype), x)


def var(x, axis=None, unbiased=True, keepdim=False):
    return np.var(x, axis=_np_axis(axis), ddof=int(unbiased), keepdims=keepdim)


def std(x, axis=None, unbiased=True, keepdim=False):
    return np.std(x, axis=_np_axis(axis), ddof=int(unbiased), keepdims=keepdim)


def logsumexp(x, axis=None, keepdim=False):
    axis = _np_axis(axis)
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)  # an infinite peak: the sum says it all
    out = np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdim else np.squeeze(out, axis=axis)


def arg_extreme(np_fn):
    def ref(x, axis=None, keepdim=False):
        return np.asarray(np_fn(x, axis=axis, keepdims=keepdim), np.int64)
    return ref


def topk(x, k, axis=-1, largest=True):
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    indices = np.take(order, np.arange(k), axis=axis)
    return [np.take_along_axis(x, indices, axis), indices.astype(np.int64)]


def sort(x, axis=-1, descending=False):
    return np.flip(np.sort(x, axis), axis) if descending else np.sort(x, axis)


def argsort(x, axis=-1, descending=False):
    order = np.argsort(-x if descending else x, axis=axis, kind="stable")
    return order.astype(np.int64)


def unsqueeze(x, axis):
    return np.expand_dims(x, axis)


def squeeze(x, axis=None):
    if axis is None:
        return np.squeeze(x)
    axes = [a % x.ndim for a in np.atleast_1d(axis)]
    return np.squeeze(x, axis=tuple(a for a in axes if x.shape[a] == 1))


def numel(x):
    return np.asarray(x.size, np.int64)


def equal_all(x, y):
    return np.asarray(x.shape == y.shape and bool(np.all(x == y)))


def allclose(x, y, rtol=1e-5, atol=1e-8, equal_nan=False):
    return np.asarray(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


def addmm(input, x, y, beta=1.0, alpha=1.0):
    return beta * input + alpha * (x @ y)


def clip(x, min=None, max=None):
    if x.dtype.kind in "iu":  # Paddle moves float bounds inwards to integers
        min = None if min is None else math.ceil(min)
        max = None if max is None else math.floor(max)
    return np.clip(x, min, max).astype(x.dtype)


def cumsum(x, axis=None):
    return np.cumsum(x, axis=axis, dtype=np.int64 if x.dtype.kind in "iub" else x.dtype)


def gelu(x, approximate=False):
    if approximate:
        inner = np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)
        return (0.5 * x * (1 + np.tanh(inner))).astype(x.dtype)
    return (0.5 * x * (1 + erf(x / np.sqrt(2)))).astype(x.dtype)


def log_softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def mse_loss(input, label, reduction="mean"):
    loss = (input - label) ** 2
    return {"mean": np.mean, "sum": np.sum, "none": np.asarray}[reduction](loss).astype(input.dtype)


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",
                   soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0):
    """Paddle's cross entropy written out: per sample -sum(target * log p) times the
    sample's weight (its class's, or for soft labels the target's mix of them); the mean
    divides by the sum of the weights (the count of samples kept without ``weight``)."""
    x = input.astype(np.float64)
    axis %= x.ndim
    classes = x.shape[axis]
    class_shape = [classes if i == axis else 1 for i in range(x.ndim)]
    log_p = log_softmax(x, axis) if use_softmax else np.log(x)
    if soft_label:
        target = label.astype(np.float64)
        kept = np.ones(log_p.sum(axis=axis, keepdims=True).shape, bool)
    else:
        index = label if label.ndim == x.ndim else np.expand_dims(label, axis)
        kept = index != ignore_index
        target = (np.arange(classes).reshape(class_shape) == index) & kept
    target = target * (1 - label_smoothing) + kept * (label_smoothing / classes)
    losses = -np.sum(target * log_p, axis=axis, keepdims=True)
    if weight is None:
        sample_weight = kept.astype(np.float64)
    elif soft_label:
        sample_weight = np.sum(target * weight.reshape(class_shape), axis=axis, keepdims=True)
    else:
        sample_weight = np.where(kept, weight[np.where(kept, index, 0)], 0)
    losses = losses * sample_weight
    if reduction == "none":
        out = losses if soft_label else losses.reshape(label.shape)
    elif reduction == "sum":
        out = losses.sum()
    else:
        out = losses.sum() / sample_weight.sum()
    return np.asarray(out).astype(input.dtype)


# References of the scatter and index family (Paddle 3.3.1's semantics: a repeated
# written position takes the last write; ``scatter`` without overwrite zeroes the rows
# it writes, then adds).
def scatter(x, index, updates, overwrite=True):
    out = x.copy()
    index = index.reshape(-1)
    if overwrite:
        for i, row in enumerate(index):
            out[row] = updates.reshape((index.size,) + x.shape[1:])[i]
    else:
        out[index] = 0
        np.add.at(out, index, updates)
    return out


def scatter_nd_add(x, index, updates):
    out = x.copy()
    np.add.at(out, tuple(np.moveaxis(index, -1, 0)), updates)
    return out


def index_add(x, index, axis, value, alpha=1):
    out = np.moveaxis(x.copy(), axis, 0)
    np.add.at(out, index, np.moveaxis(value * x.dtype.type(alpha), axis, 0))
    return np.moveaxis(out, 0, axis)


def index_put(x, indices, value, accumulate=False):
    out = x.copy()
    if accumulate:
        np.add.at(out, indices, value)
    else:
        out[indices] = value
    return out


def masked_select(x, mask):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]


def histogram(x, bins=100, min=0.0, max=0.0):
    low, high = (x.min(), x.max()) if min == max else (min, max)
    low, high = (low - 1, high + 1) if low == high else (low, high)
    return np.histogram(x.astype(np.float64), bins, (float(low), float(high)))[0].astype(np.int64)


# ---------------------------------------------- the ops of nn.functional in pylayer.ops
# (convolution, pooling, normalization, spatial, embedding, dropout, linear). Their
# references compute in float64 and return the input's dtype.
def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def _taps(kh, kw, groups, in_per_group, out_per_group):
    """(input channels, output channels, row, column) of each kernel tap of each group."""
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                yield (slice(g * in_per_group, (g + 1) * in_per_group),
                       slice(g * out_per_group, (g + 1) * out_per_group), i, j)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Each kernel tap adds its weight times the strided patch of the padded image."""
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    image = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    out_channels, group_channels, kh, kw = weight.shape
    oh = (image.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (image.shape[3] - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((x.shape[0], out_channels, oh, ow))
    for ins, outs, i, j in _taps(kh, kw, groups, group_channels, out_channels // groups):
        patch = image[:, ins, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                      j * dw:j * dw + sw * (ow - 1) + 1:sw]
        out[:, outs] += np.einsum("nchw,oc->nohw", patch, weight[outs, :, i, j])
    if bias is not None:
        out += bias.reshape(-1, 1, 1)
    return out.astype(x.dtype)


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0,
                      dilation=1, groups=1):
    """Each input pixel adds the kernel, scaled by it, at ``i * stride - padding``."""
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    (eh, ew) = _pair(output_padding)
    n, channels, h, w = x.shape
    _, per_group, kh, kw = weight.shape
    full = np.zeros((n, per_group * groups, (h - 1) * sh + dh * (kh - 1) + 1 + eh,
                     (w - 1) * sw + dw * (kw - 1) + 1 + ew))
    for ins, outs, i, j in _taps(kh, kw, groups, channels // groups, per_group):
        full[:, outs, i * dh:i * dh + sh * (h - 1) + 1:sh,
             j * dw:j * dw + sw * (w - 1) + 1:sw] += np.einsum(
            "nchw,co->nohw", x[:, ins].astype(np.float64), weight[ins, :, i, j])
    out = full[:, :, ph:full.shape[2] - ph, pw:full.shape[3] - pw]
    if bias is not None:
        out = out + bias.reshape(-1, 1, 1)
    return out.astype(x.dtype)


def as_1d(conv2d):
    """A 1-D convolution reference: the 2-D one on images of height 1."""
    def reference(x, weight, bias=None, **settings):
        settings = {k: (v if k == "groups" else (1 if k in ("stride", "dilation") else 0, v))
                    for k, v in settings.items()}
        return conv2d(x[:, :, None], weight[:, :, None], bias, **settings)[:, :, 0]
    return reference


def _windows(x, kernel_size, stride, padding, fill):
    """The pooling windows of ``x`` [N, C, H, W]: [N, C, OH, OW, KH, KW]."""
    (kh, kw), (ph, pw) = _pair(kernel_size), _pair(padding)
    sh, sw = _pair(kernel_size if stride is None else stride)
    image = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (ph, ph), (pw, pw)),
                   constant_values=fill)
    return np.lib.stride_tricks.sliding_window_view(image, (kh, kw), axis=(2, 3))[:, :, ::sh, ::sw]


def max_pool2d(x, kernel_size, stride=None, padding=0):
    return _windows(x, kernel_size, stride, padding, -np.inf).max(axis=(4, 5)).astype(x.dtype)


def avg_pool2d(x, kernel_size, stride=None, padding=0):
    """The mean over the window's elements inside the image (``exclusive``)."""
    total = _windows(x, kernel_size, stride, padding, 0.0).sum(axis=(4, 5))
    count = _windows(np.ones_like(x), kernel_size, stride, padding, 0.0).sum(axis=(4, 5))
    return (total / count).astype(x.dtype)


def pool1d(pool2d):
    def reference(x, kernel_size, stride=None, padding=0):
        return pool2d(x[:, :, None], (1, kernel_size), None if stride is None else (1, stride),
                      (0, padding))[:, :, 0]
    return reference


def adaptive_avg_pool2d(x, output_size):
    """Cell (i, j) averages rows floor(i H / OH) to ceil((i + 1) H / OH), and so columns."""
    (oh, ow), (h, w) = _pair(output_size), x.shape[2:]
    out = np.empty(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            out[:, :, i, j] = x[:, :, i * h // oh:-(-(i + 1) * h // oh),
                                j * w // ow:-(-(j + 1) * w // ow)].mean(axis=(2, 3))
    return out.astype(x.dtype)


def _normalized(x, axes, epsilon):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    return (x64 - mean) / np.sqrt(x64.var(axis=axes, keepdims=True) + epsilon)


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-5):
    count = 1 if isinstance(normalized_shape, int) else len(normalized_shape)
    out = _normalized(x, tuple(range(x.ndim - count, x.ndim)), epsilon)
    out = out * (1.0 if weight is None else weight) + (0.0 if bias is None else bias)
    return out.astype(x.dtype)


def _per_channel(value, ndim):
    return 1.0 if value is None else value.reshape((-1,) + (1,) * (ndim - 2))


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
                epsilon=1e-5):
    """Training normalizes by the batch's statistics, inference by the running ones."""
    if training:
        out = _normalized(x, (0,) + tuple(range(2, x.ndim)), epsilon)
    else:
        out = (x - _per_channel(running_mean, x.ndim)) / np.sqrt(
            _per_channel(running_var, x.ndim).astype(np.float64) + epsilon)
    out = out * _per_channel(weight, x.ndim) + (0.0 if bias is None else
                                                 _per_channel(bias, x.ndim))
    return out.astype(x.dtype)


def group_norm(x, num_groups, epsilon=1e-5, weight=None, bias=None):
    grouped = _normalized(x.reshape(x.shape[0], num_groups, -1), (2,), epsilon)
    out = grouped.reshape(x.shape) * _per_channel(weight, x.ndim)
    return (out + (0.0 if bias is None else _per_channel(bias, x.ndim))).astype(x.dtype)


def pad(x, pad, mode="constant", value=0.0):
    """``pad`` lists (before, after) pairs from the last axis backwards."""
    widths = [(0, 0)] * x.ndim
    for k in range(len(pad) // 2):
        widths[x.ndim - 1 - k] = (pad[2 * k], pad[2 * k + 1])
    if mode == "constant":
        return np.pad(x, widths, constant_values=value)
    return np.pad(x, widths, mode={"replicate": "edge"}.get(mode, mode))


def _linear_weights(size, out_size, align_corners):
    """The [out_size, size] matrix of linear interpolation along one axis."""
    if align_corners:
        source = np.arange(out_size) * ((size - 1) / (out_size - 1) if out_size > 1 else 0.0)
    else:                   # half-pixel centres, clamped at the first pixel
        source = np.maximum((np.arange(out_size) + 0.5) * size / out_size - 0.5, 0.0)
    low = np.minimum(np.floor(source).astype(int), size - 1)
    high = np.minimum(low + 1, size - 1)
    frac = source - low
    weights = np.zeros((out_size, size))
    np.add.at(weights, (np.arange(out_size), low), 1 - frac)
    np.add.at(weights, (np.arange(out_size), high), frac)
    return weights


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False):
    out_size = _pair(size) if size is not None else \
        tuple(int(n * scale_factor) for n in x.shape[2:])
    if mode == "nearest":
        rows = np.arange(out_size[0]) * x.shape[2] // out_size[0]
        cols = np.arange(out_size[1]) * x.shape[3] // out_size[1]
        return x[:, :, rows][:, :, :, cols]
    rows = _linear_weights(x.shape[2], out_size[0], align_corners)
    cols = _linear_weights(x.shape[3], out_size[1], align_corners)
    return np.einsum("ih,nchw,jw->ncij", rows, x.astype(np.float64), cols).astype(x.dtype)


def pixel_shuffle(x, upscale_factor):
    n, c, h, w = x.shape
    r = upscale_factor
    return x.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(
        n, c // (r * r), h * r, w * r)


def dropout(x, p=0.5, training=True, mode="upscale_in_train"):
    """The deterministic cases: p=0 in training, and inference."""
    return x * np.asarray(1 - p, x.dtype) if mode == "downscale_in_infer" and not training else x


def linear(x, weight, bias=None):
    out = x.astype(np.float64) @ weight + (0.0 if bias is None else bias)
    return out.astype(x.dtype)
