"""The poolings: ``max_pool1d/2d/3d``, ``avg_pool1d/2d/3d``, ``adaptive_avg_pool1d/2d/3d``,
``adaptive_max_pool1d/2d/3d``, ``max_unpool1d/2d/3d``, ``lp_pool1d/2d`` and
``fractional_max_pool2d/3d``.

Max and average pooling follow Paddle 3.3.1's rules:

* the output size is ``(in + padding - kernel) / stride + 1``, the division
  rounding towards zero, or upwards with ``ceil_mode``; a window may then
  start in the padding or past it;
* max pooling takes the largest non-NaN element of each window (the first
  on ties); a window without one (all padding, or all NaN) gives
  ``-FLT_MAX`` (-3.4028235e38) and the mask -1 (Paddle gives that for a
  window of -inf too, and below -FLT_MAX in float64; pylayer gives the
  window's largest element);
* average pooling sums each window's input elements and divides by their
  count (``exclusive=True``) or by the window's size within the padded input
  (``exclusive=False``; Paddle takes that as the input padded at both ends
  by the top or left padding, whatever the bottom or right padding);
  ``divisor_override`` multiplies that average by
  ``kernel size / divisor_override``, as Paddle does.

Adaptive average pooling: output position ``i`` of an axis of size ``n``
pooled to ``m`` averages the inputs ``floor(i * n / m)`` to
``ceil((i + 1) * n / m) - 1``, as in Paddle. Where every bin has the same
size (``m`` divides ``n`` on each pooled axis, global pooling included) that
is a recorded ``mean`` over the bins; otherwise each axis is pooled by a
recorded ``matmul`` with a fixed averaging matrix. Either way gradients can be
differentiated again.

Both max and average pooling are linear in what flows backward, so each
gradient is one more recorded op whose own gradient is the first again: max
pooling's gradient scatters into the positions of its mask, and the gradient
of that scatter gathers from them; average pooling's gradient spreads each
output over its window, and the gradient of that spreading is the average
pooling again. Gradients of any order come out of these, which run on the
kernels of :mod:`pylayer._kernels.pool` for 1-D and 2-D windows. 3-D windows,
adaptive and fractional max bins go through numpy: each window's elements are
gathered by their plane positions (-1 for padding), the mask is their argmax,
and the same scatter and gather make the gradients; average pooling sums a
strided view of the windows. Unpooling puts each element at its mask
position (its gradient gathers), and lp pooling is the p-th root of a window
sum of ``x ** p``, made of recorded ops.

:class:`PoolGeometry` holds what the public functions checked; 1-D arrays
are seen as images of height 1 and channel-last arrays through their
transposed views, as for the convolutions.
"""
import math
from typing import NamedTuple

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer._kernels import pool as kernels
from pylayer._kernels.conv import pooled_empty
from pylayer.ops._arguments import (check_choice, check_count, check_int, check_ints,
                                    check_number, describe, float_tensor)
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.linalg import matmul
from pylayer.ops.math import pow
from pylayer.ops.reduction import mean
from pylayer.ops.shape import reshape, transpose
from pylayer.ops._window_args import window_padding, window_sizes
from pylayer.ops.convolution import window_adjoint, window_view
from pylayer.ops.creation import get_rng
from pylayer.ops.dispatch import op
from pylayer.ops.spatial import spatial_axes

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "max_unpool1d",
           "max_unpool2d", "max_unpool3d", "lp_pool1d", "lp_pool2d", "fractional_max_pool2d",
           "fractional_max_pool3d"]


class PoolGeometry(NamedTuple):
    """The checked shape of one pooling (image -> output)."""
    spatial: int           # 1, 2 or 3
    channel_last: bool
    batch: int
    channels: int
    sizes: tuple           # the image's (H, W) or (D, H, W); (1, L) for 1-D
    out_sizes: tuple
    kernel: tuple          # per dimension of ``sizes``; () for an adaptive max pooling
    stride: tuple
    padding: tuple         # before each dimension
    padding_end: tuple     # where an inclusive average's padded input ends
    exclusive: bool        # the average divides by the input elements of each window
    scale: float           # the average is multiplied by this (Paddle's divisor_override)

    @property
    def dilation(self):
        return (1,) * len(self.kernel)

    @property
    def compiled(self):
        """The compiled kernels take the 1-D and 2-D windows."""
        return len(self.kernel) == 2

    def image_shape(self):
        return self._shape(self.sizes)

    def output_shape(self):
        return self._shape(self.out_sizes)

    def _shape(self, sizes):
        sizes = list(sizes[len(sizes) - self.spatial:])
        if self.channel_last:
            return [self.batch] + sizes + [self.channels]
        return [self.batch, self.channels] + sizes


_COMPUTE = {np.dtype(np.float32): np.float32, np.dtype(np.float64): np.float64}
_FLT_MAX = float(np.finfo(np.float32).max)


def _as_nchw(a, geo):
    """A caller-layout array as a channel-first view, in a dtype the kernels take."""
    a = np.asarray(a, _COMPUTE.get(a.dtype, np.float32))
    if geo.channel_last:
        a = np.moveaxis(a, -1, 1)
    return a[:, :, None, :] if geo.spatial == 1 else a


def _new(shape, geo, dtype):
    """An array in the caller's layout (``shape``), and its channel-first view."""
    a = pooled_empty(shape, _COMPUTE.get(dtype, np.float32))
    return a, _as_nchw(a, geo)


def _result(a, dtype):
    return a.astype(dtype, copy=False)


def _windows(geo):
    return (*geo.kernel, *geo.stride, *geo.padding)


# ------------------------------------------------- masks of any dimension (numpy)
def _window_candidates(geo):
    """``[*out_sizes, prod(kernel)]``: the flat plane position of each window element,
    -1 where it lies in the padding."""
    flat, valid = 0, True
    count = len(geo.sizes)
    for axis, (size, o, k, s, p) in enumerate(zip(geo.sizes, geo.out_sizes, geo.kernel,
                                                  geo.stride, geo.padding)):
        coord = (np.arange(o) * s - p)[:, None] + np.arange(k)
        shape = [1] * (2 * count)
        shape[axis], shape[count + axis] = o, k
        coord = coord.reshape(shape)
        valid = valid & (coord >= 0) & (coord < size)
        flat = flat * size + coord
    flat = np.where(valid, flat, -1)
    return flat.reshape(tuple(geo.out_sizes) + (-1,))


def _bins(in_size, out_size):
    """``[out_size, longest bin]``: the positions of each adaptive bin (the last one
    repeated to fill the row)."""
    i = np.arange(out_size)
    start = (i * in_size) // out_size
    end = -((-(i + 1) * in_size) // out_size)
    return np.minimum(start[:, None] + np.arange(int((end - start).max())), end[:, None] - 1)


def _fractional_bins(in_size, out_size, kernel, u):
    """``[out_size, longest bin]``: the positions of each fractional max pooling bin, by
    Paddle's rule (the last one repeated to fill the row, -1 for an empty bin)."""
    steps = out_size - (1 if kernel else 0)
    alpha = (in_size - kernel) / steps if steps else 0.0     # one bin of a kernel: at 0
    if not kernel:      # Paddle scales u so that the bins stay within the input
        base = in_size // out_size
        u = u * min((base + 2) / alpha - 1, (in_size + 1 - base) / alpha - (out_size - 1))
    i = np.arange(out_size)
    offset = int(u * alpha)
    start = ((i + u) * alpha).astype(np.int64) - offset
    end = start + kernel if kernel else ((i + 1 + u) * alpha).astype(np.int64) - offset
    start, end = np.maximum(start, 0), np.minimum(end, in_size)
    bins = np.minimum(start[:, None] + np.arange(max(int((end - start).max()), 1)),
                      end[:, None] - 1)
    return np.where((end > start)[:, None], bins, -1)


def _adaptive_candidates(sizes, out_sizes, bins=None):
    """``[*out_sizes, cells]``: the flat plane positions of each adaptive bin (or of the
    per-axis ``bins``; -1 in any axis makes the cell padding)."""
    flat, valid = 0, True
    count = len(sizes)
    for axis, (size, o) in enumerate(zip(sizes, out_sizes)):
        b = _bins(size, o) if bins is None else bins[axis]
        shape = [1] * (2 * count)
        shape[axis], shape[count + axis] = b.shape
        b = b.reshape(shape)
        valid = valid & (b >= 0)
        flat = flat * size + b
    return np.where(valid, flat, -1).reshape(tuple(out_sizes) + (-1,))


def _check_candidates(count, fn, arg):
    """Refuse a pooling whose ``count`` gathered window elements (a few arrays of them:
    positions, values, flags) do not fit."""
    check_count(3 * count, fn, arg, np.float64)


def _argmax_mask(x, candidates):
    """The int32 mask ``[N, C, *out]`` of the channel-first image ``x``: each window's
    largest non-NaN element (the first on ties), -1 for a window without one."""
    n, c = x.shape[:2]
    values = x.reshape(n, c, -1)[:, :, np.maximum(candidates, 0)]
    invalid = np.isnan(values) | (candidates < 0)
    arg = np.where(invalid, -np.inf, values).argmax(axis=-1)[..., None]
    empty = invalid.all(axis=-1)
    wrong = np.take_along_axis(invalid, arg, -1)[..., 0] & ~empty
    arg = np.where(wrong[..., None], (~invalid).argmax(axis=-1)[..., None], arg)
    mask = np.take_along_axis(np.broadcast_to(candidates, values.shape), arg, -1)[..., 0]
    mask[empty] = -1
    return mask.astype(np.int32)


def _gather_any(g, mask, out, fill):
    """``out`` (channel-first) = ``g`` at the positions of ``mask``, ``fill`` at -1."""
    n, c = mask.shape[:2]
    index = mask.reshape(n, c, -1)
    values = np.take_along_axis(np.ascontiguousarray(g).reshape(n, c, -1),
                                np.maximum(index, 0), axis=2)
    values[index < 0] = fill
    out[...] = values.reshape(out.shape)


def _scatter_any(g, mask, dx):
    """``dx`` (channel-first) = the sum of ``g`` over the positions of ``mask``."""
    n, c = mask.shape[:2]
    plane = math.prod(dx.shape[2:])
    index = mask.reshape(n, c, -1).astype(np.int64)
    flat = index + (np.arange(n * c, dtype=np.int64) * plane).reshape(n, c, 1)
    keep = index >= 0
    sums = np.bincount(flat[keep], weights=np.asarray(g).reshape(n, c, -1)[keep],
                       minlength=n * c * plane)
    dx[...] = sums.reshape(dx.shape)


# ---------------------------------------------------------------- max pooling
# Max pooling keeps the mask of each window's maximum, an int32 array no caller can
# reach (``return_mask`` hands out a copy).
_MAX_POOL = dict(attrs=("geometry", "mask"),
                 vjp=(lambda g, geometry, mask: _max_pool_scatter(g, geometry, mask),))
MAX_POOL1D = Op("max_pool1d", **_MAX_POOL)
MAX_POOL2D = Op("max_pool2d", **_MAX_POOL)
MAX_POOL3D = Op("max_pool3d", **_MAX_POOL)
_MAX_POOLS = {1: MAX_POOL1D, 2: MAX_POOL2D, 3: MAX_POOL3D}
ADAPTIVE_MAX_POOL1D = Op("adaptive_max_pool1d", **_MAX_POOL)
ADAPTIVE_MAX_POOL2D = Op("adaptive_max_pool2d", **_MAX_POOL)
ADAPTIVE_MAX_POOL3D = Op("adaptive_max_pool3d", **_MAX_POOL)
FRACTIONAL_MAX_POOL2D = Op("fractional_max_pool2d", **_MAX_POOL)
FRACTIONAL_MAX_POOL3D = Op("fractional_max_pool3d", **_MAX_POOL)
_FRACTIONAL_MAX_POOLS = {2: FRACTIONAL_MAX_POOL2D, 3: FRACTIONAL_MAX_POOL3D}
_ADAPTIVE_MAX_POOLS = {1: ADAPTIVE_MAX_POOL1D, 2: ADAPTIVE_MAX_POOL2D, 3: ADAPTIVE_MAX_POOL3D}
# Unpooling puts each element at its position in the mask (the last one wins where
# positions repeat); its gradient gathers from them.
_MAX_UNPOOL = dict(attrs=("geometry", "mask"),
                   vjp=(lambda g, geometry, mask: _max_pool_gather(g, geometry, mask),))
_MAX_UNPOOLS = {count: Op(f"max_unpool{count}d", **_MAX_UNPOOL) for count in (1, 2, 3)}
# The gradient scatters into the mask's positions; the gradient of that gathers.
MAX_POOL_GRAD = Op("max_pool_grad", attrs=("geometry", "mask"),
                   vjp=(lambda g, geometry, mask: _max_pool_gather(g, geometry, mask),))
MAX_POOL_GRAD_GRAD = Op("max_pool_grad_grad", attrs=("geometry", "mask"),
                        vjp=(lambda g, geometry, mask: _max_pool_scatter(g, geometry, mask),))


def max_pool(x, geo, record=None, bins=None):
    """The recorded max pooling of ``x`` (as ``record``, by default the max pooling of
    ``geo``'s dimensions), and its int32 mask: the node's own, which no caller may change
    (hand out a copy). A geometry without a kernel pools adaptive bins, or the per-axis
    ``bins`` given."""
    a = x.numpy()
    out, out4 = _new(geo.output_shape(), geo, a.dtype)
    if geo.compiled:
        mask = np.empty((geo.batch, geo.channels) + tuple(geo.out_sizes), np.int32)
        kernels.max_pool(_as_nchw(a, geo), out4, mask, *_windows(geo))
    else:
        image = _as_nchw(a, geo)
        mask = _argmax_mask(image, _window_candidates(geo) if geo.kernel else
                            _adaptive_candidates(geo.sizes, geo.out_sizes, bins))
        _gather_any(image, mask, out4, -_FLT_MAX)
    y = make_output(record or _MAX_POOLS[geo.spatial], _result(out, a.dtype), (x,),
                    (geo, mask))
    return y, mask


def _max_pool_scatter(g, geo, mask):
    """The recorded image-shaped scatter of ``g`` into the positions of ``mask``."""
    a = g.numpy()
    dx, dx4 = _new(geo.image_shape(), geo, a.dtype)
    if geo.compiled:
        kernels.max_pool_scatter(_as_nchw(a, geo), mask, dx4)
    else:
        _scatter_any(_as_nchw(a, geo), mask, dx4)
    return make_output(MAX_POOL_GRAD, _result(dx, a.dtype), (g,), (geo, mask))


def _max_pool_gather(g, geo, mask):
    """The recorded output-shaped gather of ``g`` from the positions of ``mask``."""
    a = g.numpy()
    out, out4 = _new(geo.output_shape(), geo, a.dtype)
    if geo.compiled:
        kernels.max_pool_gather(_as_nchw(a, geo), mask, out4)
    else:
        _gather_any(_as_nchw(a, geo), mask, out4, 0)
    return make_output(MAX_POOL_GRAD_GRAD, _result(out, a.dtype), (g,), (geo, mask))


# ------------------------------------------------------------ average pooling
_AVG_POOL = dict(attrs=("geometry",), vjp=(lambda g, geometry: _avg_pool_adjoint(g, geometry),))
AVG_POOL1D = Op("avg_pool1d", **_AVG_POOL)
AVG_POOL2D = Op("avg_pool2d", **_AVG_POOL)
AVG_POOL3D = Op("avg_pool3d", **_AVG_POOL)
_AVG_POOLS = {1: AVG_POOL1D, 2: AVG_POOL2D, 3: AVG_POOL3D}
# The gradient spreads each output over its window; the gradient of that averages.
AVG_POOL_GRAD = Op("avg_pool_grad", attrs=("geometry",),
                   vjp=(lambda g, geometry: avg_pool(g, geometry),))


def _average_arguments(geo):
    return (*_windows(geo), *geo.padding_end, geo.exclusive, geo.scale)


def _weights(geo):
    """``[*out_sizes]``: what multiplies each window's sum (``scale`` over Paddle's
    divisor: see the module's rules)."""
    divisor = 1.0
    count = len(geo.sizes)
    for axis, (size, o, k, s, p, end) in enumerate(zip(geo.sizes, geo.out_sizes, geo.kernel,
                                                       geo.stride, geo.padding,
                                                       geo.padding_end)):
        start = np.arange(o) * s - p
        if geo.exclusive:
            span = np.minimum(start + k, size) - np.maximum(start, 0)
        else:
            span = np.minimum(start + k, size + end) - start
        shape = [1] * count
        shape[axis] = o
        divisor = divisor * span.reshape(shape).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return geo.scale / divisor


def avg_pool(x, geo):
    """The recorded average pooling of ``x``."""
    a = x.numpy()
    out, out4 = _new(geo.output_shape(), geo, a.dtype)
    if geo.compiled:
        kernels.avg_pool(_as_nchw(a, geo), out4, *_average_arguments(geo))
    else:
        windows = window_view(_as_nchw(a, geo), geo)
        with np.errstate(invalid="ignore", over="ignore"):
            out4[...] = windows.sum(axis=tuple(range(2, 2 + len(geo.kernel)))) * _weights(geo)
    return make_output(_AVG_POOLS[geo.spatial], _result(out, a.dtype), (x,), (geo,))


def _avg_pool_adjoint(g, geo):
    """The recorded image-shaped spreading of ``g`` over the windows of ``geo``."""
    a = g.numpy()
    dx, dx4 = _new(geo.image_shape(), geo, a.dtype)
    if geo.compiled:
        kernels.avg_pool_adjoint(_as_nchw(a, geo), dx4, *_average_arguments(geo))
    else:
        with np.errstate(invalid="ignore", over="ignore"):
            weighted = (_as_nchw(a, geo) * _weights(geo)).astype(dx4.dtype, copy=False)
        cells = weighted.reshape(weighted.shape[:2] + (1,) * len(geo.kernel)
                                 + weighted.shape[2:])
        window_adjoint(np.broadcast_to(cells, cells.shape[:2] + tuple(geo.kernel)
                                       + cells.shape[2 + len(geo.kernel):]), dx4, geo)
    return make_output(AVG_POOL_GRAD, _result(dx, a.dtype), (g,), (geo,))


# ---------------------------------------------------------------- arguments
def _pooled_size(size, padding, kernel, stride, ceil_mode):
    """Paddle's output size: the division rounds towards zero (C's), or up in ceil mode."""
    span = size + padding - kernel + (stride - 1 if ceil_mode else 0)
    return (span // stride if span >= 0 else -(-span // stride)) + 1


def _pool_geometry(x, kernel_size, stride, padding, ceil_mode, data_format, count, fn,
                   exclusive=True, divisor_override=None, summing=False):
    """``x`` as a float Tensor and the PoolGeometry of its pooling; ``summing``: the
    average is each window's sum (every window divided by its size, then scaled by it)."""
    x = float_tensor(x, fn)
    if x.ndim != count + 2:
        raise ValueError(f"{fn}(): argument 'x' must be {count + 2}-D, got shape {x.shape}")
    channel_last = data_format in ("NLC", "NHWC", "NDHWC")
    kernel = window_sizes(kernel_size, count, fn, "kernel_size")
    stride = kernel if stride is None else window_sizes(stride, count, fn, "stride")
    channels = x.shape[-1] if channel_last else x.shape[1]
    in_sizes = x.shape[1:-1] if channel_last else x.shape[2:]
    if ceil_mode and isinstance(padding, str) and padding.lower() == "valid":
        raise ValueError(f"{fn}(): padding 'VALID' cannot go with ceil_mode=True")
    pairs = window_padding(padding, count, in_sizes, kernel, stride, channel_last, fn)
    out_sizes = [_pooled_size(size, sum(pair), k, s, ceil_mode)
                 for size, pair, k, s in zip(in_sizes, pairs, kernel, stride)]
    if min(out_sizes) < 0:
        raise ValueError(f"{fn}(): argument 'kernel_size' {kernel} does not fit the input of "
                         f"spatial size {in_sizes} padded by {[list(p) for p in pairs]}")
    # the output grows beyond the input only by the padding (a max pooling's int32 mask is
    # no larger than the output in its compute dtype)
    check_count(x.shape[0] * channels * math.prod(out_sizes), fn, "padding",
                _COMPUTE.get(x.numpy().dtype, np.float32))
    scale = 1.0
    if divisor_override is not None:
        divisor = check_number(divisor_override, fn, "divisor_override")
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = float(np.float64(np.prod(kernel)) / divisor)
    if count == 1:
        in_sizes, out_sizes, kernel = [1] + in_sizes, [1] + out_sizes, [1] + kernel
        stride, pairs = [1] + stride, [(0, 0)] + pairs
    before = tuple(p[0] for p in pairs)
    end = before
    if summing:
        exclusive, scale = False, float(math.prod(kernel))
        end = tuple(after + k for (_, after), k in zip(pairs, kernel))
    # Paddle bounds an inclusive window by the input padded by the top and left padding
    # at both ends, whatever the bottom and right padding
    return x, PoolGeometry(count, channel_last, x.shape[0], channels, tuple(in_sizes),
                           tuple(out_sizes), tuple(kernel), tuple(stride), before, end,
                           bool(exclusive), scale)


def _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, count,
              fn):
    if return_mask and data_format in ("NLC", "NHWC", "NDHWC"):
        raise ValueError(f"{fn}(): return_mask=True needs data_format "
                         f"{'NCDHW' if count == 3 else 'NCHW'!r}, got {data_format!r}")
    x, geo = _pool_geometry(x, kernel_size, stride, padding, ceil_mode, data_format, count, fn)
    if not geo.compiled:            # the windows' elements are gathered into one array
        _check_candidates(geo.batch * geo.channels * math.prod(geo.out_sizes)
                          * math.prod(geo.kernel), fn, "kernel_size")
    out, mask = max_pool(x, geo)
    if not return_mask:
        return out
    return out, make_tensor(mask.reshape(out.shape).copy())   # the node keeps the original


@op
def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               name=None):
    """The largest element of each window of ``x`` ``[N, C, L]`` (see the module's rules).

    ``stride`` defaults to ``kernel_size``. ``padding`` is ``'same'``,
    ``'valid'``, an int, ``[left, right]`` or three pairs. With
    ``return_mask=True`` it also returns, as int32, each maximum's position
    in its row of ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[1.0, 5.0, 2.0, 4.0, 3.0]]])
    >>> out, mask = F.max_pool1d(x, 2, return_mask=True)
    >>> out.numpy(), mask.numpy()
    (array([[[5., 4.]]], dtype=float32), array([[[1, 3]]], dtype=int32))
    """
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, "NCL", 1,
                     "max_pool1d")


@op
def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    """The largest element of each window of ``x`` ``[N, C, H, W]`` (see the module's rules).

    ``kernel_size`` and ``stride`` (default: ``kernel_size``) are an int or
    ``[h, w]``. ``padding`` is ``'same'``, ``'valid'``, an int, ``[h, w]``,
    ``[top, bottom, left, right]`` or four pairs in ``data_format`` order.
    With ``return_mask=True`` (``'NCHW'`` only) it also returns, as int32,
    each maximum's position ``row * W + column`` in its plane of ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(16, dtype='float32').reshape([1, 1, 4, 4])
    >>> F.max_pool2d(x, 2).numpy()
    array([[[[ 5.,  7.],
             [13., 15.]]]], dtype=float32)
    >>> x5 = pylayer.arange(25, dtype='float32').reshape([1, 1, 5, 5])
    >>> F.max_pool2d(x5, 2, stride=2, padding=1, ceil_mode=True).numpy()[0, 0, 0]
    array([ 0.0000000e+00,  2.0000000e+00,  4.0000000e+00, -3.4028235e+38],
          dtype=float32)
    """
    check_choice(data_format, "max_pool2d", "data_format", ["NCHW", "NHWC"])
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, 2,
                     "max_pool2d")


@op
def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
               name=None):
    """The average of each window of ``x`` ``[N, C, L]`` (see the module's rules).

    ``stride`` defaults to ``kernel_size``; ``padding`` takes the forms of
    :func:`max_pool1d`. ``exclusive=True`` leaves the padding out of the
    count.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[1.0, 2.0, 3.0, 4.0]]])
    >>> F.avg_pool1d(x, 2, padding=1).numpy()
    array([[[1. , 2.5, 4. ]]], dtype=float32)
    >>> F.avg_pool1d(x, 2, padding=1, exclusive=False).numpy()
    array([[[0.5, 2.5, 2. ]]], dtype=float32)
    """
    x, geo = _pool_geometry(x, kernel_size, stride, padding, ceil_mode, "NCL", 1,
                            "avg_pool1d", exclusive)
    return avg_pool(x, geo)


@op
def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    """The average of each window of ``x`` ``[N, C, H, W]`` (see the module's rules).

    ``kernel_size``, ``stride`` and ``padding`` take the forms of
    :func:`max_pool2d`. ``exclusive=True`` leaves the padding out of the
    count; ``divisor_override`` scales the average by ``kh * kw /
    divisor_override`` (Paddle's rule: the window's sum over the divisor
    where the window holds no padding).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(16, dtype='float32').reshape([1, 1, 4, 4])
    >>> F.avg_pool2d(x, 2).numpy()
    array([[[[ 2.5,  4.5],
             [10.5, 12.5]]]], dtype=float32)
    """
    check_choice(data_format, "avg_pool2d", "data_format", ["NCHW", "NHWC"])
    x, geo = _pool_geometry(x, kernel_size, stride, padding, ceil_mode, data_format, 2,
                            "avg_pool2d", exclusive, divisor_override)
    return avg_pool(x, geo)


@op
def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCDHW", name=None):
    """The largest element of each window of ``x`` ``[N, C, D, H, W]`` (see the module's
    rules).

    ``kernel_size`` and ``stride`` (default: ``kernel_size``) are an int or
    ``[d, h, w]``. ``padding`` is ``'same'``, ``'valid'``, an int, ``[d, h,
    w]``, six ints ``[front, back, top, bottom, left, right]`` or five pairs
    in ``data_format`` order. With ``return_mask=True`` (``'NCDHW'`` only) it
    also returns, as int32, each maximum's position ``(d * H + h) * W + w`` in
    its volume of ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
    >>> out, mask = F.max_pool3d(x, [1, 2, 2], return_mask=True)
    >>> out.numpy().ravel(), mask.numpy().ravel()
    (array([3., 7.], dtype=float32), array([3, 7], dtype=int32))
    """
    check_choice(data_format, "max_pool3d", "data_format", ["NCDHW", "NDHWC"])
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, 3,
                     "max_pool3d")


@op
def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    """The average of each window of ``x`` ``[N, C, D, H, W]`` (see the module's rules).

    ``kernel_size``, ``stride`` and ``padding`` take the forms of
    :func:`max_pool3d`; ``exclusive`` and ``divisor_override`` are as in
    :func:`avg_pool2d`.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
    >>> F.avg_pool3d(x, 2).numpy()
    array([[[[[3.5]]]]], dtype=float32)
    """
    check_choice(data_format, "avg_pool3d", "data_format", ["NCDHW", "NDHWC"])
    x, geo = _pool_geometry(x, kernel_size, stride, padding, ceil_mode, data_format, 3,
                            "avg_pool3d", exclusive, divisor_override)
    return avg_pool(x, geo)


def _averaging(in_size, out_size, dtype):
    """The ``[in_size, out_size]`` matrix whose column ``i`` averages bin ``i``."""
    weights = np.zeros((in_size, out_size), dtype)
    for i in range(out_size):
        start = (i * in_size) // out_size
        end = -((-(i + 1) * in_size) // out_size)
        weights[start:end, i] = 1.0 / (end - start)
    return make_tensor(weights)


def adaptive_output_sizes(output_size, count, in_sizes, fn):
    """``output_size`` as ``count`` positive ints; a None in a list keeps that input size."""
    if output_size is None:
        raise TypeError(f"{fn}(): argument 'output_size' must be an int or a list of "
                        f"{count}, got None")
    items = list(output_size) if isinstance(output_size, (list, tuple)) else \
        [output_size] * count
    if len(items) != count:
        raise ValueError(f"{fn}(): argument 'output_size' must be an int or {count} of them, "
                         f"got {output_size!r}")
    sizes = [size if item is None else check_int(item, fn, "output_size", minimum=1)
             for item, size in zip(items, in_sizes)]
    for size, in_size in zip(sizes, in_sizes):
        check_count(size * in_size, fn, "output_size")
    return sizes


def _pool(x, output_size, axes, fn):
    x = float_tensor(x, fn)
    if x.ndim != len(axes) + 2:
        raise ValueError(f"{fn}(): argument 'x' must be {len(axes) + 2}-D, got shape "
                         f"{x.shape}")
    in_sizes = [x.shape[a] for a in axes]
    sizes = adaptive_output_sizes(output_size, len(axes), in_sizes, fn)
    a = x.numpy()
    for size, in_size in zip(sizes, in_sizes):        # the averaging matrices, and the result
        check_count(size * in_size, fn, "output_size", a.dtype)
    check_count(a.size // max(math.prod(in_sizes), 1) * math.prod(sizes), fn, "output_size",
                a.dtype)
    if all(in_size % size == 0 for size, in_size in zip(sizes, in_sizes)):
        return _mean_of_equal_bins(x, axes, sizes)
    last = x.ndim - 1
    # shrinking axes first: no intermediate is larger than the input or the result
    for axis, out_size, in_size in sorted(zip(axes, sizes, in_sizes),
                                          key=lambda item: item[1] / max(item[2], 1)):
        order = list(range(x.ndim))
        order[axis], order[last] = last, axis
        moved = transpose(x, order) if axis != last else x
        pooled = matmul(moved, _averaging(in_size, out_size, a.dtype))
        x = transpose(pooled, order) if axis != last else pooled
    return x


def _mean_of_equal_bins(x, axes, sizes):
    """Adaptive average pooling where every bin of an axis has the same size: each
    pooled axis split into (bins, bin size), and the mean over the bin sizes."""
    split = []
    for axis, size in enumerate(x.shape):
        split += [sizes[axes.index(axis)], size // sizes[axes.index(axis)]] if axis in axes \
            else [size]
    inner = [axis + axes.index(axis) + 1 for axis in axes]
    shape = list(x.shape)
    for axis, size in zip(axes, sizes):
        shape[axis] = size
    return reshape(mean(reshape(x, split), axis=inner), shape)


@op
def adaptive_avg_pool1d(x, output_size, name=None):
    """Average ``[N, C, L]`` input over ``output_size`` bins of the last axis.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.adaptive_avg_pool1d(pylayer.arange(5, dtype='float32').reshape([1, 1, 5]), 3).numpy()
    array([[[0.5, 2. , 3.5]]], dtype=float32)
    """
    return _pool(x, output_size, [2], "adaptive_avg_pool1d")


@op
def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """Average ``[N, C, H, W]`` input over ``output_size`` ``[h, w]`` bins (None keeps a size).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(16, dtype='float32').reshape([1, 1, 4, 4])
    >>> F.adaptive_avg_pool2d(x, 2).numpy()
    array([[[[ 2.5,  4.5],
             [10.5, 12.5]]]], dtype=float32)
    """
    fn = "adaptive_avg_pool2d"
    check_choice(data_format, fn, "data_format", ["NCHW", "NHWC"])
    return _pool(x, output_size, spatial_axes(4, data_format, fn), fn)


@op
def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    """Average ``[N, C, D, H, W]`` input over ``output_size`` ``[d, h, w]`` bins (None keeps
    a size), the bins as in :func:`adaptive_avg_pool1d`.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
    >>> F.adaptive_avg_pool3d(x, [1, 1, 2]).numpy()
    array([[[[[3., 4.]]]]], dtype=float32)
    """
    fn = "adaptive_avg_pool3d"
    check_choice(data_format, fn, "data_format", ["NCDHW", "NDHWC"])
    return _pool(x, output_size, spatial_axes(5, data_format, fn), fn)


def _adaptive_max_pool(x, output_size, return_mask, count, fn):
    x = float_tensor(x, fn)
    if x.ndim != count + 2:
        raise ValueError(f"{fn}(): argument 'x' must be {count + 2}-D, got shape {x.shape}")
    in_sizes = x.shape[2:]
    sizes = adaptive_output_sizes(output_size, count, in_sizes, fn)
    bins = [-(-size // out) + 1 for size, out in zip(in_sizes, sizes)]  # no bin is longer
    _check_candidates(x.shape[0] * x.shape[1] * math.prod(sizes) * math.prod(bins), fn,
                      "output_size")
    if count == 1:
        in_sizes, sizes = [1] + in_sizes, [1] + sizes
    geo = PoolGeometry(count, False, x.shape[0], x.shape[1], tuple(in_sizes), tuple(sizes),
                       (), (), (), (), True, 1.0)
    out, mask = max_pool(x, geo, _ADAPTIVE_MAX_POOLS[count])
    if not return_mask:
        return out
    return out, make_tensor(mask.reshape(out.shape).copy())   # the node keeps the original


@op
def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    """The largest element of each of ``output_size`` bins of ``x`` ``[N, C, L]``.

    Bin ``i`` of ``L`` elements pooled to ``m`` covers ``floor(i * L / m)``
    to ``ceil((i + 1) * L / m) - 1``; NaN is skipped as in :func:`max_pool1d`.
    With ``return_mask=True`` it also returns each maximum's int32 position.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[1.0, 5.0, 2.0, 4.0, 3.0]]])
    >>> out, mask = F.adaptive_max_pool1d(x, 2, return_mask=True)
    >>> out.numpy(), mask.numpy()
    (array([[[5., 4.]]], dtype=float32), array([[[1, 3]]], dtype=int32))
    """
    return _adaptive_max_pool(x, output_size, return_mask, 1, "adaptive_max_pool1d")


@op
def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """The largest element of each of ``output_size`` ``[h, w]`` bins of ``x``
    ``[N, C, H, W]`` (bins as in :func:`adaptive_max_pool1d`; None keeps a size).

    The mask holds each maximum's position ``h * W + w`` in its plane.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(16, dtype='float32').reshape([1, 1, 4, 4])
    >>> F.adaptive_max_pool2d(x, [2, 1]).numpy()
    array([[[[ 7.],
             [15.]]]], dtype=float32)
    """
    return _adaptive_max_pool(x, output_size, return_mask, 2, "adaptive_max_pool2d")


@op
def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    """The largest element of each of ``output_size`` ``[d, h, w]`` bins of ``x``
    ``[N, C, D, H, W]`` (bins as in :func:`adaptive_max_pool1d`; None keeps a size).

    The mask holds each maximum's position ``(d * H + h) * W + w`` in its volume.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
    >>> out, mask = F.adaptive_max_pool3d(x, 1, return_mask=True)
    >>> out.numpy().ravel(), mask.numpy().ravel()
    (array([7.], dtype=float32), array([7], dtype=int32))
    """
    return _adaptive_max_pool(x, output_size, return_mask, 3, "adaptive_max_pool3d")


def _unpool_sizes(in_sizes, kernel, stride, padding, output_size, count, fn):
    """The unpooled spatial sizes: Paddle's ``(in - 1) * stride + kernel - 2 * padding``, or
    ``output_size`` (spatial, or with the batch and channel sizes first) within a stride of
    it."""
    default = [(size - 1) * s + k - 2 * p
               for size, k, s, p in zip(in_sizes, kernel, stride, padding)]
    if output_size is None:
        sizes = default
    else:
        if not isinstance(output_size, (list, tuple)):
            raise TypeError(f"{fn}(): argument 'output_size' must be None, a list or a tuple, "
                            f"got {describe(output_size)}")
        sizes = check_ints(list(output_size), fn, "output_size")
        if len(sizes) == count + 2:
            sizes = sizes[2:]
        if len(sizes) != count:
            raise ValueError(f"{fn}(): argument 'output_size' must hold {count} or "
                             f"{count + 2} ints, got {list(output_size)}")
        for size, low, s in zip(sizes, default, stride):
            if not low - s < size < low + s:
                raise ValueError(f"{fn}(): argument 'output_size' {sizes} must lie, in each "
                                 f"dimension, strictly within a stride {stride} of the "
                                 f"default size {default}")
    if min(sizes) < 1:
        raise ValueError(f"{fn}(): the unpooled size {sizes} (from kernel_size {kernel}, "
                         f"stride {stride} and padding {padding}) must be positive")
    return sizes


def _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, count,
                fn, layout):
    x = float_tensor(x, fn)
    indices = as_tensor_arg(indices, fn, "indices", 2)
    check_choice(data_format, fn, "data_format", [layout])
    if x.ndim != count + 2:
        raise ValueError(f"{fn}(): argument 'x' must be {count + 2}-D ({layout}), got shape "
                         f"{x.shape}")
    index = indices.numpy()
    if index.dtype not in (np.int32, np.int64) or list(index.shape) != x.shape:
        raise ValueError(f"{fn}(): argument 'indices' must be an int32 or int64 Tensor of the "
                         f"shape of x {x.shape}, got shape {list(index.shape)} and dtype "
                         f"{indices.dtype.name}")
    kernel = window_sizes(kernel_size, count, fn, "kernel_size")
    stride = kernel if stride is None else window_sizes(stride, count, fn, "stride")
    padding = window_sizes(padding, count, fn, "padding", minimum=0)
    in_sizes = x.shape[2:]
    sizes = _unpool_sizes(in_sizes, kernel, stride, padding, output_size, count, fn)
    plane = math.prod(sizes)
    a = x.numpy()
    check_count(x.shape[0] * x.shape[1] * plane, fn, "output_size",
                _COMPUTE.get(a.dtype, np.float32))
    if index.size and (index.min() < 0 or index.max() >= plane):
        bad = index.min() if index.min() < 0 else index.max()
        raise ValueError(f"{fn}(): argument 'indices' must hold positions in [0, {plane}) of "
                         f"the unpooled {sizes}, got {bad}")
    if count == 1:
        in_sizes, sizes = [1] + in_sizes, [1] + sizes
    geo = PoolGeometry(count, False, x.shape[0], x.shape[1], tuple(sizes), tuple(in_sizes),
                       (), (), (), (), True, 1.0)
    mask = index.astype(np.int32)
    out = np.zeros((geo.batch, geo.channels, plane), _COMPUTE.get(a.dtype, np.float32))
    n, c = mask.shape[:2]
    np.put_along_axis(out, mask.reshape(n, c, -1), _as_nchw(a, geo).reshape(n, c, -1), axis=2)
    return make_output(_MAX_UNPOOLS[count],
                       _result(out.reshape(geo.image_shape()), a.dtype), (x,), (geo, mask))


@op
def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
    """The inverse of :func:`max_pool1d`: each element of ``x`` ``[N, C, L]`` put at its
    position ``indices`` (the mask of ``max_pool1d``) in zeros.

    The output length is ``(L - 1) * stride + kernel_size - 2 * padding``,
    or ``output_size`` (``[L_out]`` or ``[N, C, L_out]``, within a stride of
    it). A position beyond the output is a ValueError.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[1.0, 5.0, 2.0, 4.0]]])
    >>> out, mask = F.max_pool1d(x, 2, return_mask=True)
    >>> F.max_unpool1d(out, mask, 2).numpy()
    array([[[0., 5., 0., 4.]]], dtype=float32)
    """
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 1,
                       "max_unpool1d", "NCL")


@op
def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
    """The inverse of :func:`max_pool2d`: each element of ``x`` ``[N, C, H, W]`` put at its
    position ``indices`` (``h * W_out + w``, the mask of ``max_pool2d``) in zeros.

    Sizes as in :func:`max_unpool1d`, per dimension; ``data_format`` is
    ``'NCHW'`` only, as in Paddle.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(16, dtype='float32').reshape([1, 1, 4, 4])
    >>> out, mask = F.max_pool2d(x, 2, return_mask=True)
    >>> F.max_unpool2d(out, mask, 2).numpy()[0, 0]
    array([[ 0.,  0.,  0.,  0.],
           [ 0.,  5.,  0.,  7.],
           [ 0.,  0.,  0.,  0.],
           [ 0., 13.,  0., 15.]], dtype=float32)
    """
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 2,
                       "max_unpool2d", "NCHW")


@op
def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
    """The inverse of :func:`max_pool3d`: each element of ``x`` ``[N, C, D, H, W]`` put at
    its position ``indices`` (the mask of ``max_pool3d``) in zeros.

    Sizes as in :func:`max_unpool1d`, per dimension; ``data_format`` is
    ``'NCDHW'`` only, as in Paddle.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
    >>> out, mask = F.max_pool3d(x, 2, return_mask=True)
    >>> F.max_unpool3d(out, mask, 2).numpy().ravel()
    array([0., 0., 0., 0., 0., 0., 0., 7.], dtype=float32)
    """
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 3,
                       "max_unpool3d", "NCDHW")


def _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, count, fn):
    p = check_number(norm_type, fn, "norm_type")
    x, geo = _pool_geometry(x, kernel_size, stride, padding, ceil_mode, data_format, count,
                            fn, summing=True)
    return pow(avg_pool(pow(x, p), geo), 1.0 / p)


@op
def lp_pool1d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCL", name=None):
    """The ``norm_type``-norm of each window of ``x`` ``[N, C, L]``: ``(sum of x ** p) **
    (1 / p)``, the padding counting as zeros (a negative sum gives NaN, as in Paddle).

    ``stride``, ``padding`` and ``ceil_mode`` are as in :func:`avg_pool1d`;
    ``data_format`` is ``'NCL'`` or ``'NLC'``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[3.0, 4.0, 1.0, 1.0]]])
    >>> F.lp_pool1d(x, 2, 2).numpy()
    array([[[5.       , 1.4142135]]], dtype=float32)
    """
    check_choice(data_format, "lp_pool1d", "data_format", ["NCL", "NLC"])
    return _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, 1,
                    "lp_pool1d")


@op
def lp_pool2d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCHW", name=None):
    """The ``norm_type``-norm of each window of ``x`` ``[N, C, H, W]``, as in
    :func:`lp_pool1d`; the window forms are those of :func:`avg_pool2d`.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.full([1, 1, 2, 2], 2.0)
    >>> F.lp_pool2d(x, 1, 2).numpy()
    array([[[[8.]]]], dtype=float32)
    """
    check_choice(data_format, "lp_pool2d", "data_format", ["NCHW", "NHWC"])
    return _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, 2,
                    "lp_pool2d")


def _fractional_max_pool(x, output_size, kernel_size, random_u, return_mask, count, fn):
    x = float_tensor(x, fn)
    if x.ndim != count + 2:
        raise ValueError(f"{fn}(): argument 'x' must be {count + 2}-D, got shape {x.shape}")
    in_sizes = x.shape[2:]
    sizes = adaptive_output_sizes(output_size, count, in_sizes, fn)
    kernel = [0] * count if kernel_size is None else \
        window_sizes(kernel_size, count, fn, "kernel_size")
    for size, out, k in zip(in_sizes, sizes, kernel):
        if k and size < out - 1 + k:
            raise ValueError(f"{fn}(): output_size {sizes} and kernel_size {kernel} need an "
                             f"input of at least output_size - 1 + kernel_size in each "
                             f"dimension, got spatial size {in_sizes}")
    if random_u is None:
        u = float(get_rng().uniform(0.0, 1.0))
    else:
        u = check_number(random_u, fn, "random_u")
        if not 0 < u < 1:
            raise ValueError(f"{fn}(): argument 'random_u' must lie in (0, 1), got {random_u}")
    bins = [_fractional_bins(size, out, k, u) for size, out, k in zip(in_sizes, sizes, kernel)]
    _check_candidates(x.shape[0] * x.shape[1] * math.prod(sizes)
                      * math.prod(b.shape[1] for b in bins), fn, "output_size")
    geo = PoolGeometry(count, False, x.shape[0], x.shape[1], tuple(in_sizes), tuple(sizes),
                       (), (), (), (), True, 1.0)
    out, mask = max_pool(x, geo, _FRACTIONAL_MAX_POOLS[count], bins)
    if not return_mask:
        return out
    return out, make_tensor(mask.reshape(out.shape).copy())   # the node keeps the original


@op
def fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """Fractional max pooling of ``x`` ``[N, C, H, W]`` to ``output_size`` ``[h, w]`` (None
    keeps a size), with pseudo-random bins (Graham, 2015) placed by ``random_u`` in
    (0, 1) (None: drawn from pylayer's generator, see :func:`pylayer.seed`).

    Along an axis of ``n`` pooled to ``m``, with ``a = (n - k) / (m - 1)``
    for ``kernel_size`` ``k`` (bins ``k`` long), or ``a = n / m`` and
    ``random_u`` scaled down as Paddle does (no ``kernel_size``: bins ending
    where the next starts), bin ``i`` starts at ``int((i + u) * a) - int(u *
    a)``. With ``return_mask=True`` it also returns each maximum's int32
    position ``h * W + w``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[[2.0, 4.0, 3.0, 1.0, 5.0, 2.0, 3.0]]]])
    >>> F.fractional_max_pool2d(x, [1, 5], random_u=0.3).numpy()
    array([[[[2., 4., 1., 5., 3.]]]], dtype=float32)
    """
    return _fractional_max_pool(x, output_size, kernel_size, random_u, return_mask, 2,
                                "fractional_max_pool2d")


@op
def fractional_max_pool3d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """Fractional max pooling of ``x`` ``[N, C, D, H, W]`` to ``output_size`` ``[d, h, w]``,
    the bins along each axis as in :func:`fractional_max_pool2d`; the mask holds each
    maximum's position ``(d * H + h) * W + w``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(27, dtype='float32').reshape([1, 1, 3, 3, 3])
    >>> F.fractional_max_pool3d(x, 2, random_u=0.5).shape
    [1, 1, 2, 2, 2]
    """
    return _fractional_max_pool(x, output_size, kernel_size, random_u, return_mask, 3,
                                "fractional_max_pool3d")
