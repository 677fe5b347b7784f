"""Padding and resizing of spatial dimensions: ``pad``, ``interpolate`` and
``pixel_shuffle``.

Each is built from recorded ops (``take`` along one axis at a time,
``multiply``, ``add``, ``reshape``, ``transpose``), so gradients and
gradients of gradients come from those. Constant padding records one node
whose gradient crops the output's gradient.
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import (check_choice, check_count, check_int, check_ints,
                                    check_number, describe, float_tensor)
from pylayer.ops.arithmetic import add, multiply
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.shape import reshape, transpose
from pylayer.ops.dispatch import op
from pylayer.ops.indexing import take

__all__ = ["pad", "interpolate", "pixel_shuffle"]

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
def _pad_widths(ndim, pad, mode, data_format, pad_from_left_axis, fn):
    """``[(before, after)]`` for every axis, by Paddle's ordering rules."""
    if len(pad) % 2 or any(p < 0 for p in pad):
        raise ValueError(f"{fn}(): argument 'pad' must hold an even number of non-negative "
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
        raise ValueError(f"{fn}(): argument 'pad' has {len(pad)} values; for a {ndim}-D "
                         f"tensor in mode {mode!r} give "
                         f"{' or '.join(map(str, counts)) or 'a 3- to 5-D tensor'}")
    for axis, pair in zip(axes, pairs):
        widths[axis] = pair
    return widths


def _source_positions(size, before, after, mode, fn):
    positions = np.arange(-before, size + after)
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
    """Pad ``x`` with a ``value`` (``'constant'``), a mirror (``'reflect'``) or the edge
    values (``'replicate'``).

    ``pad`` holds ``(before, after)`` pairs in Paddle's order:

    * ``2 * ndim`` values in mode ``'constant'``: one pair per axis, from the
      first axis (or, with ``pad_from_left_axis=False``, from the last);
    * ``2 * (ndim - 2)`` values for a 3-, 4- or 5-D tensor: the spatial axes
      of ``data_format`` (``'NCHW'`` by default), from the last, so
      ``[left, right, top, bottom]`` for images;
    * fewer values in mode ``'constant'``: from the last axis backwards.

    Reflection needs each pad smaller than its dimension.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[1.0, 2.0, 3.0]]])
    >>> F.pad(x, [2, 1], mode='reflect').numpy()
    array([[[3., 2., 1., 2., 3., 2.]]], dtype=float32)
    >>> F.pad(x, [1, 0], value=9.0).numpy()
    array([[[9., 1., 2., 3.]]], dtype=float32)
    """
    fn = "pad"
    x = as_tensor_arg(x, fn, "x", 1)
    check_choice(mode, fn, "mode", ["constant", "reflect", "replicate"])
    value = check_number(value, fn, "value")
    widths = _pad_widths(x.ndim, check_ints(pad, fn, "pad"), mode, data_format,
                         bool(pad_from_left_axis), fn)
    a = x.numpy()
    check_count(math.prod(size + before + after for size, (before, after)
                          in zip(a.shape, widths)), fn, "pad", a.dtype)
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


@op
def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                align_mode=0, data_format=None, name=None):
    """Resize the spatial dimensions of a 4-D image batch (``'NCHW'`` or ``'NHWC'``).

    Give the output ``size`` ``[H, W]`` or a ``scale_factor`` (a number or
    one per dimension; the output size is rounded down and the sampling
    step is ``1 / scale_factor``, as in Paddle). ``mode='nearest'`` takes
    ``floor(i * step)``; ``mode='bilinear'`` mixes the two nearest pixels of
    each axis, sampling at ``(i + 0.5) * step - 0.5`` (``align_mode=0``), at
    ``i * step`` (``align_mode=1``) or, with ``align_corners=True``, so that
    the corner pixels line up. ``align_corners`` is for ``'bilinear'`` only.

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
    fn = "interpolate"
    x = float_tensor(x, fn)
    check_choice(mode, fn, "mode", ["nearest", "bilinear"])
    if align_corners and mode == "nearest":
        raise ValueError(f"{fn}(): argument 'align_corners' can only be set with mode "
                         f"'bilinear'")
    align_mode = check_int(align_mode, fn, "align_mode")
    if align_mode not in (0, 1):
        raise ValueError(f"{fn}(): argument 'align_mode' must be 0 or 1, got {align_mode}")
    axes = spatial_axes(x.ndim, "NCHW" if data_format is None else data_format, fn)
    in_sizes = [x.shape[a] for a in axes]
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{fn}(): give exactly one of 'size' and 'scale_factor'")
    if size is not None:
        out_sizes = check_ints(size, fn, "size")
        if len(out_sizes) != len(axes) or min(out_sizes) < 1:
            raise ValueError(f"{fn}(): argument 'size' must hold {len(axes)} positive ints, "
                             f"got {out_sizes}")
        ratios = [i / o for i, o in zip(in_sizes, out_sizes)]
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
        ratios = [1.0 / s for s in scales]
    dtype = x.numpy().dtype
    kept = math.prod(s for i, s in enumerate(x.shape) if i not in axes)
    check_count(kept * math.prod(out_sizes), fn, "size" if size is not None else "scale_factor",
                dtype)
    # Shrinking axes first: no step holds more elements than the input or the output.
    steps = sorted(zip(axes, in_sizes, out_sizes, ratios),
                   key=lambda step: step[2] / max(step[1], 1))
    for axis, in_size, out_size, ratio in steps:
        if mode == "nearest":
            positions = np.minimum(np.floor(np.arange(out_size) * ratio).astype(np.intp),
                                   in_size - 1)
            x = along(x, axis, positions, fn)
            continue
        low, high, weight = _linear_weights(out_size, in_size, ratio, align_corners,
                                            align_mode)
        shape = [-1 if i == axis else 1 for i in range(x.ndim)]
        upper = make_tensor(weight.reshape(shape).astype(dtype))
        lower = make_tensor((1.0 - weight).reshape(shape).astype(dtype))
        x = add(multiply(along(x, axis, low, fn), lower), multiply(along(x, axis, high, fn),
                                                                     upper))
    return x


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
