"""Padding, resizing and rearranging of spatial dimensions (``pad``,
``interpolate``, ``pixel_shuffle``, ...) and the pairwise measures of
``nn.functional`` (``cosine_similarity``, ``pairwise_distance``, ``bilinear``).

Each is built from recorded ops (``take`` along one axis at a time,
``multiply``, ``add``, ``reshape``, ``transpose``), so gradients and
gradients of gradients come from those. Constant padding records one node
whose gradient crops the output's gradient.
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import (check_axis, check_choice, check_count, check_int,
                                    check_ints, check_number, describe, float_tensor)
from pylayer.ops.arithmetic import add, divide, multiply, subtract
from pylayer.ops.linalg import einsum
from pylayer.ops.manipulation import concat
from pylayer.ops.math import clip, sqrt
from pylayer.ops.reduction import sum as reduce_sum
from pylayer.ops.statistics import norm
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.shape import reshape, transpose
from pylayer.ops.dispatch import op
from pylayer.ops.indexing import take

__all__ = ["pad", "zeropad2d", "interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle",
           "channel_shuffle", "temporal_shift", "cosine_similarity", "pairwise_distance",
           "bilinear"]

_CHANNEL_LAST = {"NLC": 3, "NHWC": 4, "NDHWC": 5}
_CHANNEL_FIRST = {"NCL": 3, "NCHW": 4, "NCDHW": 5}


def spatial_axes(ndim, data_format, fn):
    """The axes of the spatial dimensions of an ``N, C, ...`` or ``N, ..., C`` tensor."""
    formats = {**_CHANNEL_FIRST, **_CHANNEL_LAST}
    check_choice(data_format, fn, "data_format", list(formats))
    if formats[data_format] != ndim:
        raise ValueError(f"{fn}(): data_format {data_format!r} is for {formats[data_format]}-D "
                         f"input, got a {ndim}-D tensor")
    if data_format in _CHANNEL_FIRST:
        return list(range(2, ndim))
    return list(range(1, ndim - 1))


def along(x, axis, positions, op_name):
    """``x`` indexed by the int array ``positions`` on ``axis`` (recorded)."""
    return take(x, (slice(None),) * axis + (positions,), True, op_name)


# ---------------------------------------------------------------------- pad
def _pad_widths(ndim, pad, mode, data_format, pad_from_left_axis, fn, arg="pad"):
    """``[(before, after)]`` for every axis, by Paddle's ordering rules."""
    if len(pad) % 2 or any(p < 0 for p in pad):
        raise ValueError(f"{fn}(): argument '{arg}' must hold an even number of non-negative "
                         f"ints, got {pad}")
    pairs = [(pad[i], pad[i + 1]) for i in range(0, len(pad), 2)]
    widths = [(0, 0)] * ndim
    if mode == "constant" and len(pad) == 2 * ndim:
        axes = list(range(ndim)) if pad_from_left_axis else list(range(ndim))[::-1]
    elif 3 <= ndim <= 5 and len(pad) == 2 * (ndim - 2):
        default = {3: "NCL", 4: "NCHW", 5: "NCDHW"}[ndim]
        axes = spatial_axes(ndim, default if data_format is None else data_format, fn)[::-1]
    elif mode == "constant" and len(pad) <= 2 * ndim:
        axes = list(range(ndim))[::-1][:len(pairs)]
    else:
        counts = ([2 * ndim] if mode == "constant" else []) + (
            [2 * (ndim - 2)] if 3 <= ndim <= 5 else [])
        raise ValueError(f"{fn}(): argument '{arg}' has {len(pad)} values; for a {ndim}-D "
                         f"tensor in mode {mode!r} give "
                         f"{' or '.join(map(str, counts)) or 'a 3- to 5-D tensor'}")
    for axis, pair in zip(axes, pairs):
        widths[axis] = pair
    return widths


def _source_positions(size, before, after, mode, fn):
    positions = np.arange(-before, size + after)
    if mode == "circular":
        return np.mod(positions, size)
    if mode == "replicate":
        return np.clip(positions, 0, size - 1)
    if before >= size or after >= size:
        raise ValueError(f"{fn}(): in mode 'reflect' each pad must be smaller than the size "
                         f"{size} of its dimension, got {before} and {after}")
    positions = np.abs(positions)
    return np.where(positions >= size, 2 * (size - 1) - positions, positions)


# Constant padding: the gradient is the output's gradient cropped to the input.
PAD = Op("pad", attrs=("crop",), vjp=(lambda g, crop: take(g, crop, False, "pad"),))


@op
def pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True,
        name=None):
    """Pad ``x`` with a ``value`` (``'constant'``), a mirror (``'reflect'``), the edge
    values (``'replicate'``) or the values of the other end (``'circular'``).

    ``pad`` holds ``(before, after)`` pairs in Paddle's order:

    * ``2 * ndim`` values in mode ``'constant'``: one pair per axis, from the
      first axis (or, with ``pad_from_left_axis=False``, from the last);
    * ``2 * (ndim - 2)`` values for a 3-, 4- or 5-D tensor: the spatial axes
      of ``data_format`` (``'NCHW'`` by default), from the last, so
      ``[left, right, top, bottom]`` for images;
    * fewer values in mode ``'constant'``: from the last axis backwards.

    Reflection needs each pad smaller than its dimension; circular padding
    wraps around as often as needed.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[1.0, 2.0, 3.0]]])
    >>> F.pad(x, [2, 1], mode='reflect').numpy()
    array([[[3., 2., 1., 2., 3., 2.]]], dtype=float32)
    >>> F.pad(x, [1, 0], value=9.0).numpy()
    array([[[9., 1., 2., 3.]]], dtype=float32)
    """
    return _pad("pad", x, pad, mode, value, data_format, pad_from_left_axis)


def _pad(fn, x, pad, mode, value, data_format, pad_from_left_axis, arg="pad"):
    x = as_tensor_arg(x, fn, "x", 1)
    check_choice(mode, fn, "mode", ["constant", "reflect", "replicate", "circular"])
    value = check_number(value, fn, "value")
    widths = _pad_widths(x.ndim, check_ints(pad, fn, arg), mode, data_format,
                         bool(pad_from_left_axis), fn, arg)
    a = x.numpy()
    check_count(math.prod(size + before + after for size, (before, after)
                          in zip(a.shape, widths)), fn, arg, a.dtype)
    if mode == "constant":
        out = np.pad(a, widths, constant_values=np.asarray(value, a.dtype))
        crop = tuple(slice(before, before + size) for (before, _), size in zip(widths, a.shape))
        return make_output(PAD, out, (x,), (crop,))
    for axis, (before, after) in enumerate(widths):
        if before or after:
            if a.shape[axis] == 0:
                raise ValueError(f"{fn}(): mode {mode!r} cannot pad the empty axis {axis}")
            x = along(x, axis, _source_positions(a.shape[axis], before, after, mode, fn), fn)
    return x


@op
def zeropad2d(x, padding, data_format="NCHW", name=None):
    """Pad the height and width of a 4-D image batch with zeros; ``padding`` is
    ``[left, right, top, bottom]``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.zeropad2d(pylayer.ones([1, 1, 1, 2]), [1, 0, 0, 1]).numpy()[0, 0]
    array([[0., 1., 1.],
           [0., 0., 0.]], dtype=float32)
    """
    fn = "zeropad2d"
    x = as_tensor_arg(x, fn, "x", 1)
    check_choice(data_format, fn, "data_format", ["NCHW", "NHWC"])
    return _pad(fn, x, padding, "constant", 0.0, data_format, True, "padding")


# -------------------------------------------------------------- interpolate
def _linear_weights(out_size, in_size, ratio, align_corners, align_mode):
    """(lower index, upper index, upper weight) of each output position."""
    d = np.arange(out_size, dtype=np.float64)
    if align_corners:
        src = d * ((in_size - 1) / (out_size - 1) if out_size > 1 else 0.0)
    elif align_mode == 0:
        src = np.maximum((d + 0.5) * ratio - 0.5, 0.0)
    else:
        src = d * ratio
    low = np.minimum(np.floor(src).astype(np.intp), in_size - 1)
    high = np.minimum(low + 1, in_size - 1)
    return low, high, src - low


def _cubic(distance):
    """The cubic convolution kernel (a = -0.75) at ``distance`` (an array)."""
    a, d = -0.75, np.abs(distance)
    return np.where(d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                    ((a * d - 5 * a) * d + 8 * a) * d - 4 * a)


def _taps(mode, out_size, in_size, ratio, align_corners, align_mode):
    """``[(positions, weights)]`` whose weighted sum along the axis gives each output
    entry (``weights`` None: the entries as they are)."""
    if mode == "nearest":
        return [(np.minimum(np.floor(np.arange(out_size) * ratio).astype(np.intp),
                            in_size - 1), None)]
    if mode == "area":
        d = np.arange(out_size)
        start = (d * in_size) // out_size
        stop = -((-(d + 1) * in_size) // out_size)
        return [(np.minimum(start + k, in_size - 1),
                 np.where(start + k < stop, 1.0 / (stop - start), 0.0))
                for k in range(int((stop - start).max()))]
    if mode == "bicubic":
        d = np.arange(out_size, dtype=np.float64)
        if align_corners:
            src = d * ((in_size - 1) / (out_size - 1) if out_size > 1 else 0.0)
        else:
            src = (d + 0.5) * ratio - 0.5
        low = np.floor(src)
        return [(np.clip(low + k, 0, in_size - 1).astype(np.intp), _cubic(src - low - k))
                for k in (-1, 0, 1, 2)]
    low, high, weight = _linear_weights(out_size, in_size, ratio, align_corners, align_mode)
    return [(low, 1.0 - weight), (high, weight)]


# The modes of interpolate and the ranks of tensor each resizes.
_RANKS = {"nearest": (4, 5), "linear": (3,), "bilinear": (4,), "trilinear": (5,),
          "bicubic": (4,), "area": (3, 4, 5)}
_1D_FORMATS = {"NCW": "NCL", "NWC": "NLC"}


@op
def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                align_mode=0, data_format=None, recompute_scale_factor=None, name=None):
    """Resize the spatial dimensions of a batch: 3-D ``'NCW'``/``'NWC'``
    (``mode='linear'``), 4-D ``'NCHW'``/``'NHWC'`` (``'nearest'``,
    ``'bilinear'``, ``'bicubic'``) or 5-D ``'NCDHW'``/``'NDHWC'``
    (``'nearest'``, ``'trilinear'``); ``'area'`` averages the input entries
    each output entry covers, for any of them, and needs ``size``.

    Give the output ``size`` (``[H, W]`` for images) or a ``scale_factor`` (a
    number or one per dimension; the output size is rounded down and the
    sampling step is ``1 / scale_factor``, or ``in / out`` with
    ``recompute_scale_factor=True``). ``mode='nearest'`` takes
    ``floor(i * step)``; the linear modes mix the two nearest entries of each
    axis, sampling at ``(i + 0.5) * step - 0.5`` (``align_mode=0``), at
    ``i * step`` (``align_mode=1``) or, with ``align_corners=True``, so that
    the corner entries line up; ``'bicubic'`` weighs the four nearest with the
    cubic convolution kernel (``a = -0.75``) at ``(i + 0.5) * step - 0.5`` or
    with the corners aligned. ``align_corners`` cannot be set with ``'nearest'``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
    >>> F.interpolate(x, scale_factor=2).numpy()[0, 0]
    array([[0., 0., 1., 1.],
           [0., 0., 1., 1.],
           [2., 2., 3., 3.],
           [2., 2., 3., 3.]], dtype=float32)
    >>> F.interpolate(x, size=[3, 3], mode='bilinear', align_corners=True).numpy()[0, 0]
    array([[0. , 0.5, 1. ],
           [1. , 1.5, 2. ],
           [2. , 2.5, 3. ]], dtype=float32)
    """
    return _resize("interpolate", x, size, scale_factor, mode, align_corners, align_mode,
                   data_format, recompute_scale_factor)


def _resize(fn, x, size, scale_factor, mode, align_corners, align_mode, data_format,
            recompute_scale_factor):
    x = float_tensor(x, fn)
    check_choice(mode, fn, "mode", list(_RANKS))
    if align_corners and mode == "nearest":
        raise ValueError(f"{fn}(): argument 'align_corners' cannot be set with mode "
                         f"'nearest'")
    align_mode = check_int(align_mode, fn, "align_mode")
    if align_mode not in (0, 1):
        raise ValueError(f"{fn}(): argument 'align_mode' must be 0 or 1, got {align_mode}")
    ranks = _RANKS[mode]
    if x.ndim not in ranks:
        raise ValueError(f"{fn}(): mode {mode!r} resizes "
                         f"{' or '.join(f'{r}-D' for r in ranks)} tensors, got shape {x.shape}")
    if data_format is None:
        data_format = {3: "NCW", 4: "NCHW", 5: "NCDHW"}[x.ndim]
    axes = spatial_axes(x.ndim, _1D_FORMATS.get(data_format, data_format), fn)
    in_sizes = [x.shape[a] for a in axes]
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{fn}(): give exactly one of 'size' and 'scale_factor'")
    if size is not None:
        out_sizes = check_ints(size, fn, "size")
        if len(out_sizes) != len(axes) or min(out_sizes) < 1:
            raise ValueError(f"{fn}(): argument 'size' must hold {len(axes)} positive ints, "
                             f"got {out_sizes}")
        ratios = [i / o for i, o in zip(in_sizes, out_sizes)]
    elif mode == "area":
        raise ValueError(f"{fn}(): mode 'area' needs the output 'size', not a scale_factor")
    else:
        scales = scale_factor if isinstance(scale_factor, (list, tuple)) else \
            [scale_factor] * len(axes)
        scales = [check_number(s, fn, "scale_factor") for s in scales]
        if len(scales) != len(axes) or min(scales) <= 0:
            raise ValueError(f"{fn}(): argument 'scale_factor' must be a positive number or "
                             f"{len(axes)} of them, got {describe(scale_factor)}")
        out_sizes = [int(math.floor(i * s)) for i, s in zip(in_sizes, scales)]
        if min(out_sizes) < 1:
            raise ValueError(f"{fn}(): argument 'scale_factor' {scales} makes an empty output "
                             f"from the size {in_sizes}")
        ratios = ([i / o for i, o in zip(in_sizes, out_sizes)] if recompute_scale_factor
                  else [1.0 / s for s in scales])
    dtype = x.numpy().dtype
    kept = math.prod(s for i, s in enumerate(x.shape) if i not in axes)
    check_count(kept * math.prod(out_sizes), fn, "size" if size is not None else "scale_factor",
                dtype)
    # Shrinking axes first: no step holds more elements than the input or the output.
    steps = sorted(zip(axes, in_sizes, out_sizes, ratios),
                   key=lambda step: step[2] / max(step[1], 1))
    for axis, in_size, out_size, ratio in steps:
        out = None
        for positions, weights in _taps(mode, out_size, in_size, ratio, align_corners,
                                        align_mode):
            term = along(x, axis, positions, fn)
            if weights is not None:
                shape = [-1 if i == axis else 1 for i in range(x.ndim)]
                term = multiply(term, make_tensor(weights.reshape(shape).astype(dtype)))
            out = term if out is None else add(out, term)
        x = out
    return x


@op
def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
             align_mode=0, data_format=None, name=None):
    """:func:`interpolate` under its other name.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.upsample(pylayer.to_tensor([[[0.0, 1.0, 2.0]]]), scale_factor=2, mode='linear',
    ...            align_corners=True).numpy()
    array([[[0. , 0.4, 0.8, 1.2, 1.6, 2. ]]], dtype=float32)
    """
    return _resize("upsample", x, size, scale_factor, mode, align_corners, align_mode,
                   data_format, None)


# ------------------------------------------------------------ pixel shuffle
@op
def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    """Rearrange ``[N, C*r*r, H, W]`` into ``[N, C, H*r, W*r]`` (``r = upscale_factor``).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.pixel_shuffle(pylayer.arange(8, dtype='float32').reshape([1, 4, 1, 2]), 2).numpy()
    array([[[[0., 2., 1., 3.],
             [4., 6., 5., 7.]]]], dtype=float32)
    """
    fn = "pixel_shuffle"
    x = as_tensor_arg(x, fn, "x", 1)
    r = check_int(upscale_factor, fn, "upscale_factor", minimum=1)
    check_choice(data_format, fn, "data_format", ["NCHW", "NHWC"])
    if x.ndim != 4:
        raise ValueError(f"{fn}(): argument 'x' must be 4-D, got shape {x.shape}")
    if data_format == "NHWC":
        x = transpose(x, [0, 3, 1, 2])
    n, c, h, w = x.shape
    if c % (r * r):
        raise ValueError(f"{fn}(): the {c} channels of x must be divisible by "
                         f"upscale_factor ** 2 = {r * r}")
    out = reshape(transpose(reshape(x, [n, c // (r * r), r, r, h, w]), [0, 1, 4, 2, 5, 3]),
                  [n, c // (r * r), h * r, w * r])
    return transpose(out, [0, 2, 3, 1]) if data_format == "NHWC" else out


def _image(x, fn, data_format):
    """``x`` as a float ``NCHW`` tensor, with whether it came as ``NHWC``."""
    x = float_tensor(x, fn)
    check_choice(data_format, fn, "data_format", ["NCHW", "NHWC"])
    if x.ndim != 4:
        raise ValueError(f"{fn}(): argument 'x' must be 4-D, got shape {x.shape}")
    last = data_format == "NHWC"
    return (transpose(x, [0, 3, 1, 2]) if last else x), last


@op
def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    """Rearrange ``[N, C, H*r, W*r]`` into ``[N, C*r*r, H, W]`` (``r = downscale_factor``),
    the inverse of :func:`pixel_shuffle`.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.pixel_unshuffle(pylayer.arange(8, dtype='float32').reshape([1, 1, 2, 4]), 2)[0, :, 0]
    Tensor(shape=[4, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[0., 2.],
            [1., 3.],
            [4., 6.],
            [5., 7.]])
    """
    fn = "pixel_unshuffle"
    r = check_int(downscale_factor, fn, "downscale_factor", minimum=1)
    x, last = _image(x, fn, data_format)
    n, c, h, w = x.shape
    if h % r or w % r:
        raise ValueError(f"{fn}(): downscale_factor {r} must divide the height {h} and the "
                         f"width {w} of x")
    out = reshape(transpose(reshape(x, [n, c, h // r, r, w // r, r]), [0, 1, 3, 5, 2, 4]),
                  [n, c * r * r, h // r, w // r])
    return transpose(out, [0, 2, 3, 1]) if last else out


@op
def channel_shuffle(x, groups, data_format="NCHW", name=None):
    """Interleave the channels of ``groups`` groups: channel ``g * (C / groups) + i``
    moves to ``i * groups + g``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.channel_shuffle(pylayer.arange(6, dtype='float32').reshape([1, 6, 1, 1]), 3).flatten()
    Tensor(shape=[6], dtype=float32, place=Place(cpu), stop_gradient=True,
           [0., 2., 4., 1., 3., 5.])
    """
    fn = "channel_shuffle"
    groups = check_int(groups, fn, "groups", minimum=1)
    x, last = _image(x, fn, data_format)
    n, c, h, w = x.shape
    if c % groups:
        raise ValueError(f"{fn}(): groups {groups} must divide the {c} channels of x")
    out = reshape(transpose(reshape(x, [n, groups, c // groups, h, w]), [0, 2, 1, 3, 4]),
                  [n, c, h, w])
    return transpose(out, [0, 2, 3, 1]) if last else out


@op
def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW"):
    """Shift channels in time: ``x`` is ``[N*T, C, H, W]`` with ``T = seg_num`` frames
    per clip; the first ``int(C * shift_ratio)`` channels take the previous frame's
    values, the next ones up to ``int(2 * C * shift_ratio)`` the next frame's
    (zeros past the ends), the rest stay.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([2, 4, 1, 1])
    >>> F.temporal_shift(x, seg_num=2).reshape([2, 4])
    Tensor(shape=[2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[0., 5., 2., 3.],
            [0., 0., 6., 7.]])
    """
    fn = "temporal_shift"
    seg_num = check_int(seg_num, fn, "seg_num", minimum=1)
    ratio = check_number(shift_ratio, fn, "shift_ratio")
    if not 0.0 < ratio < 0.5:
        raise ValueError(f"{fn}(): argument 'shift_ratio' must be between 0 and 0.5 "
                         f"(exclusive), got {ratio}")
    x, last = _image(x, fn, data_format)
    nt, c, h, w = x.shape
    if nt % seg_num:
        raise ValueError(f"{fn}(): seg_num {seg_num} must divide the first dimension {nt} "
                         f"of x")
    c1, c2 = int(c * ratio), int(c * 2 * ratio)
    clips = reshape(x, [nt // seg_num, seg_num, c, h, w])
    padded = _pad(fn, clips, [0, 0, 1, 1, 0, 0, 0, 0, 0, 0], "constant", 0.0, None, True)
    out = concat([padded[:, :seg_num, :c1], padded[:, 2:, c1:c2], clips[:, :, c2:]], axis=2)
    out = reshape(out, [nt, c, h, w])
    return transpose(out, [0, 2, 3, 1]) if last else out


# ------------------------------------------------------------------ pairwise
@op
def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    """The cosine of the angle between ``x1`` and ``x2`` along ``axis``:
    ``sum(x1 * x2) / sqrt(max(sum(x1 ** 2) * sum(x2 ** 2), eps ** 2))``, each
    sum along ``axis`` (of the broadcast product, and of each input alone, as in
    Paddle).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.cosine_similarity(pylayer.to_tensor([[1.0, 0.0], [1.0, 1.0]]),
    ...                     pylayer.to_tensor([[1.0, 1.0], [0.0, 0.0]]))
    Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
           [0.70710677, 0.        ])
    """
    fn = "cosine_similarity"
    x1 = float_tensor(x1, fn, "x1", 1)
    x2 = float_tensor(x2, fn, "x2", 2)
    if x1.dtype != x2.dtype:
        raise TypeError(f"{fn}(): x1 and x2 must have one dtype, got {x1.dtype} and "
                        f"{x2.dtype}")
    axis1, axis2 = check_axis(axis, x1.ndim, fn), check_axis(axis, x2.ndim, fn)
    try:
        np.broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
        np.broadcast_shapes(tuple(np.delete(x1.shape, axis1)), tuple(np.delete(x2.shape, axis2)))
    except ValueError:
        raise ValueError(f"{fn}(): the shapes {x1.shape} and {x2.shape} of x1 and x2 do not "
                         f"broadcast, with and without their axis {axis}") from None
    eps = check_number(eps, fn, "eps")
    both = reduce_sum(multiply(x1, x2), axis=axis)
    norms = multiply(reduce_sum(multiply(x1, x1), axis=axis),
                     reduce_sum(multiply(x2, x2), axis=axis))
    return divide(both, sqrt(clip(norms, min=eps * eps)))


@op
def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    """The ``p``-norm of ``x - y + epsilon`` along the last axis (``p`` may be ``0``,
    ``inf`` or ``-inf``, as in :func:`pylayer.norm`).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.pairwise_distance(pylayer.to_tensor([[3.0, 4.0]]), pylayer.to_tensor([[0.0, 0.0]]),
    ...                     epsilon=0.0)
    Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True,
           [5.])
    """
    fn = "pairwise_distance"
    x = float_tensor(x, fn, "x", 1)
    y = float_tensor(y, fn, "y", 2)
    if x.dtype != y.dtype:
        raise TypeError(f"{fn}(): x and y must have one dtype, got {x.dtype} and {y.dtype}")
    p = check_number(p, fn, "p")
    epsilon = check_number(epsilon, fn, "epsilon")
    try:
        np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        raise ValueError(f"{fn}(): the shapes {x.shape} and {y.shape} of x and y do not "
                         f"broadcast") from None
    return norm(add(subtract(x, y), epsilon), p=p, axis=-1, keepdim=bool(keepdim))


@op
def bilinear(x1, x2, weight, bias=None, name=None):
    """``out[b, o] = sum_ij x1[b, i] * weight[o, i, j] * x2[b, j] + bias[0, o]``.

    ``x1`` is ``[B, in1]``, ``x2`` ``[B, in2]``, ``weight`` ``[out, in1, in2]``
    and ``bias`` ``[1, out]``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.bilinear(pylayer.ones([2, 3]), pylayer.ones([2, 2]), pylayer.ones([4, 3, 2])).shape
    [2, 4]
    """
    fn = "bilinear"
    x1 = float_tensor(x1, fn, "x1", 1)
    x2 = float_tensor(x2, fn, "x2", 2)
    weight = float_tensor(weight, fn, "weight", 3)
    if bias is not None:
        bias = float_tensor(bias, fn, "bias", 4)
    if x1.ndim != 2 or x2.ndim != 2 or weight.ndim != 3:
        raise ValueError(f"{fn}(): x1 and x2 must be 2-D and weight 3-D, got shapes "
                         f"{x1.shape}, {x2.shape} and {weight.shape}")
    out_features, in1, in2 = weight.shape
    if x1.shape[0] != x2.shape[0] or x1.shape[1] != in1 or x2.shape[1] != in2:
        raise ValueError(f"{fn}(): x1 {x1.shape} and x2 {x2.shape} must be [B, {in1}] and "
                         f"[B, {in2}] for the weight of shape {weight.shape}")
    if bias is not None and bias.shape != [1, out_features]:
        raise ValueError(f"{fn}(): argument 'bias' must have the shape [1, {out_features}], "
                         f"got {bias.shape}")
    if len({x1.dtype, x2.dtype, weight.dtype} | ({bias.dtype} if bias is not None else set())) > 1:
        raise TypeError(f"{fn}(): x1, x2, weight and bias must have one dtype")
    out = einsum("bi,oij,bj->bo", x1, weight, x2)
    return out if bias is None else add(out, bias)
