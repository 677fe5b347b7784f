"""Deformable convolution (``paddle.vision.ops.deform_conv2d``).

A composition of recorded ops: each kernel tap of each output pixel reads the
image at its regular position moved by its learned offset, mixing the four
neighbouring pixels bilinearly (pixels outside the image read zero) with weights
that are recorded functions of the offsets; the samples are scaled by the mask
(DCNv2) and multiplied with the filter, one matmul for all groups. So the
gradients reach the image, the offsets, the mask, the filter and the bias, and
can be differentiated again.
"""
import numpy as np

from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import check_count, check_int, float_tensor
from pylayer.ops._window_args import window_sizes
from pylayer.ops.arithmetic import add, multiply, subtract
from pylayer.ops.dispatch import op
from pylayer.ops.indexing import take
from pylayer.ops.linalg import matmul
from pylayer.ops.shape import reshape, transpose, unsqueeze

__all__ = []

_FN = "deform_conv2d"


def _operand(value, arg, position, dtype=None):
    t = float_tensor(value, _FN, arg, position)
    kind = t.numpy().dtype
    if kind not in (np.float32, np.float64):
        raise TypeError(f"{_FN}(): argument '{arg}' (position {position}) must be a float32 "
                        f"or float64 Tensor, got dtype {t.dtype}")
    if dtype is not None and kind != dtype:
        raise TypeError(f"{_FN}(): argument '{arg}' (position {position}) must have the "
                        f"dtype of x ({np.dtype(dtype).name}), got {np.dtype(kind).name}")
    return t


def _check_shape(t, arg, expected):
    if list(t.shape) != list(expected):
        raise ValueError(f"{_FN}(): argument '{arg}' must have shape {list(expected)}, got "
                         f"{list(t.shape)}")


def _sample_points(offset, n, dg, kernel, stride, padding, dilation, out_size, dtype):
    """The rows and columns (Tensors ``[N, dg, kh * kw, L]``) the taps read."""
    kh, kw = kernel
    ho, wo = out_size
    offsets = reshape(offset, [n, dg, kh * kw, 2, ho * wo])
    points = []
    for axis, (k, size) in enumerate(((kh, ho), (kw, wo))):
        tap = np.arange(k) * dilation[axis]
        start = np.arange(size) * stride[axis] - padding[axis]
        base = tap[:, None] + start[None, :]          # [k, size]
        if axis == 0:
            base = np.repeat(np.repeat(base, kw, axis=0), wo, axis=1)
        else:
            base = np.tile(base, (kh, ho))
        moved = take(offsets, (Ellipsis, axis, slice(None)), False, _FN)
        points.append(add(moved, make_tensor(base.astype(dtype))))
    return points


def _bilinear_columns(x, points, n, dg, coefficient):
    """The image read at ``points``, bilinearly, times ``coefficient`` (the mask, or
    None): ``[N, dg, kh * kw, L, C / dg]``."""
    c, h, w = x.shape[1:]
    dtype = x.numpy().dtype
    image = transpose(reshape(x, [n, dg, c // dg, h * w]), [0, 1, 3, 2])
    rows, cols = points
    ra, ca = rows.numpy(), cols.numpy()
    # A point on or beyond the ring of pixels around the image reads zero, and so
    # has a zero gradient, as Paddle's kernel has.
    inside = (ra > -1) & (ca > -1) & (ra < h) & (ca < w)
    low = [np.floor(ra).astype(np.intp), np.floor(ca).astype(np.intp)]
    upper = [subtract(p, make_tensor(lo.astype(dtype))) for p, lo in zip(points, low)]
    lower = [subtract(1.0, u) for u in upper]
    batch = np.arange(n).reshape(n, 1, 1, 1)
    group = np.arange(dg).reshape(1, dg, 1, 1)
    out = None
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        iy, ix = low[0] + dy, low[1] + dx
        valid = inside & (iy >= 0) & (iy < h) & (ix >= 0) & (ix < w)
        flat = np.clip(iy, 0, h - 1) * w + np.clip(ix, 0, w - 1)
        weight = multiply(upper[0] if dy else lower[0], upper[1] if dx else lower[1])
        weight = multiply(weight, make_tensor(valid.astype(dtype)))
        if coefficient is not None:
            weight = multiply(weight, coefficient)
        term = multiply(take(image, (batch, group, flat), True, _FN), unsqueeze(weight, -1))
        out = term if out is None else add(out, term)
    return out


@op
def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1,
                  deformable_groups=1, groups=1, mask=None, name=None):
    """Deformable 2-D convolution (DCNv1, or DCNv2 with ``mask``), ``NCHW``.

    ``x`` is ``[N, C, H, W]`` and ``weight`` ``[C_out, C / groups, kh, kw]``;
    each tap ``k`` of each output pixel reads ``x`` bilinearly (zero outside
    the image) at its regular position plus its offset (``offset`` is
    ``[N, 2 * deformable_groups * kh * kw, H_out, W_out]``, a ``(dy, dx)`` pair
    per tap and deformable group), times ``mask`` (``[N, deformable_groups *
    kh * kw, H_out, W_out]``) when one is given; the convolution then sums the
    products with ``weight`` and adds ``bias`` (``[C_out]``). The input
    channels split into ``deformable_groups`` groups of their own offsets.

    >>> import pylayer
    >>> from pylayer.vision.ops import deform_conv2d
    >>> x = pylayer.arange(9, dtype="float32").reshape([1, 1, 3, 3])
    >>> offset = pylayer.full([1, 2, 3, 3], 0.5)      # move each read by half a pixel
    >>> weight = pylayer.ones([1, 1, 1, 1])
    >>> deform_conv2d(x, offset, weight).numpy()[0, 0]
    array([[2.  , 3.  , 1.75],
           [5.  , 6.  , 3.25],
           [3.25, 3.75, 2.  ]], dtype=float32)
    """
    x = _operand(x, "x", 1)
    dtype = x.numpy().dtype
    offset = _operand(offset, "offset", 2, dtype)
    weight = _operand(weight, "weight", 3, dtype)
    if bias is not None:
        bias = _operand(bias, "bias", 4, dtype)
    if mask is not None:
        mask = _operand(mask, "mask", 10, dtype)
    stride = window_sizes(stride, 2, _FN, "stride")
    padding = window_sizes(padding, 2, _FN, "padding", minimum=0)
    dilation = window_sizes(dilation, 2, _FN, "dilation")
    dg = check_int(deformable_groups, _FN, "deformable_groups", minimum=1)
    groups = check_int(groups, _FN, "groups", minimum=1)
    if x.ndim != 4:
        raise ValueError(f"{_FN}(): argument 'x' must be 4-D [N, C, H, W], got shape "
                         f"{list(x.shape)}")
    if weight.ndim != 4:
        raise ValueError(f"{_FN}(): argument 'weight' must be 4-D [C_out, C / groups, kh, kw], "
                         f"got shape {list(weight.shape)}")
    n, c, h, w = x.shape
    c_out, c_group, kh, kw = weight.shape
    if c_group * groups != c or c_out % groups:
        raise ValueError(f"{_FN}(): x's {c} channels must equal weight.shape[1] ({c_group}) "
                         f"times groups ({groups}), and weight.shape[0] ({c_out}) must be "
                         f"divisible by groups")
    if c % dg:
        raise ValueError(f"{_FN}(): x's {c} channels must be divisible by "
                         f"deformable_groups={dg}")
    out_size = [(size + 2 * p - (d * (k - 1) + 1)) // s + 1 for size, p, d, k, s in
                zip((h, w), padding, dilation, (kh, kw), stride)]
    if min(out_size) < 1:
        raise ValueError(f"{_FN}(): the output would be empty ({out_size}) for x of shape "
                         f"{list(x.shape)} and a {kh}x{kw} kernel")
    ho, wo = out_size
    _check_shape(offset, "offset", [n, 2 * dg * kh * kw, ho, wo])
    if mask is not None:
        _check_shape(mask, "mask", [n, dg * kh * kw, ho, wo])
    if bias is not None:
        _check_shape(bias, "bias", [c_out])
    check_count(n * c * kh * kw * ho * wo, _FN, "x", dtype)
    points = _sample_points(offset, n, dg, (kh, kw), stride, padding, dilation, out_size,
                            dtype)
    coefficient = None if mask is None else reshape(mask, [n, dg, kh * kw, ho * wo])
    sampled = _bilinear_columns(x, points, n, dg, coefficient)   # [N, dg, K, L, C / dg]
    columns = reshape(transpose(sampled, [0, 1, 4, 2, 3]),
                      [n, groups, c_group * kh * kw, ho * wo])
    filters = reshape(weight, [groups, c_out // groups, c_group * kh * kw])
    out = reshape(matmul(filters, columns), [n, c_out, ho, wo])
    if bias is not None:
        out = add(out, reshape(bias, [1, c_out, 1, 1]))
    return out
