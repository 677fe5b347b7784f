"""The max and average pooling ops, each one recorded op over the kernels of
:mod:`pylayer._kernels.pool`.

Both poolings are linear in what flows backward, so each gradient is one more
op whose own gradient is the first again: max pooling's gradient scatters
into the positions of its mask, and the gradient of that scatter gathers
from them; average pooling's gradient spreads each output over its window,
and the gradient of that spreading is the average pooling again. Gradients
of any order come out of these four.

:class:`PoolGeometry` holds what the public functions checked; 1-D arrays
are seen as images of height 1 and channel-last arrays through their
transposed views, as for the convolutions.
"""
from typing import NamedTuple

import numpy as np

from pylayer._core.graph import make_output_legacy
from pylayer._kernels import pool as kernels
from pylayer._kernels.conv import pooled_empty

__all__ = []


class PoolGeometry(NamedTuple):
    """The checked shape of one pooling (image -> output)."""
    name: str
    spatial: int           # 1 or 2
    channel_last: bool
    batch: int
    channels: int
    height: int
    width: int
    out_height: int
    out_width: int
    kernel: tuple          # (KH, KW)
    stride: tuple
    padding: tuple         # (top, left)
    padding_end: tuple     # where an inclusive average's padded input ends (bottom, right)
    exclusive: bool        # the average divides by the input elements of each window
    scale: float           # the average is multiplied by this (Paddle's divisor_override)

    def image_shape(self):
        return self._shape(self.height, self.width)

    def output_shape(self):
        return self._shape(self.out_height, self.out_width)

    def _shape(self, height, width):
        sizes = [height, width][2 - self.spatial:]
        if self.channel_last:
            return [self.batch] + sizes + [self.channels]
        return [self.batch, self.channels] + sizes


_COMPUTE = {np.dtype(np.float32): np.float32, np.dtype(np.float64): np.float64}


def _as_nchw(a, geo):
    """A caller-layout array as a 4-D channel-first view, in a dtype the kernels take."""
    a = np.asarray(a, _COMPUTE.get(a.dtype, np.float32))
    if geo.channel_last:
        a = np.moveaxis(a, -1, 1)
    return a[:, :, None, :] if geo.spatial == 1 else a


def _new(shape, geo, dtype):
    """An array in the caller's layout (``shape``), and its 4-D channel-first view."""
    a = pooled_empty(shape, _COMPUTE.get(dtype, np.float32))
    return a, _as_nchw(a, geo)


def _result(a, dtype):
    return a.astype(dtype, copy=False)


def _windows(geo):
    return (*geo.kernel, *geo.stride, *geo.padding)


# ---------------------------------------------------------------- max pooling
def max_pool(x, geo):
    """The recorded max pooling of ``x``, and its int32 mask: the node's own, which no
    caller may change (hand out a copy)."""
    a = x.numpy()
    out, out4 = _new(geo.output_shape(), geo, a.dtype)
    mask = np.empty([geo.batch, geo.channels, geo.out_height, geo.out_width], np.int32)
    kernels.max_pool(_as_nchw(a, geo), out4, mask, *_windows(geo))
    y = make_output_legacy(_result(out, a.dtype), (x,), geo.name, _max_pool_bw, attrs=(geo, mask))
    return y, mask


def _max_pool_bw(node, g):
    geo, mask = node.attrs
    return (_max_pool_scatter(g, geo, mask),)


def _max_pool_scatter(g, geo, mask):
    """The recorded image-shaped scatter of ``g`` into the positions of ``mask``."""
    a = g.numpy()
    dx, dx4 = _new(geo.image_shape(), geo, a.dtype)
    kernels.max_pool_scatter(_as_nchw(a, geo), mask, dx4)
    return make_output_legacy(_result(dx, a.dtype), (g,), geo.name + "_grad", _max_pool_scatter_bw,
                       attrs=(geo, mask))


def _max_pool_scatter_bw(node, g):
    geo, mask = node.attrs
    a = g.numpy()
    out, out4 = _new(geo.output_shape(), geo, a.dtype)
    kernels.max_pool_gather(_as_nchw(a, geo), mask, out4)
    gathered = make_output_legacy(_result(out, a.dtype), (g,), geo.name + "_grad_grad",
                           _max_pool_gather_bw, attrs=(geo, mask))
    return (gathered,)


def _max_pool_gather_bw(node, g):
    geo, mask = node.attrs
    return (_max_pool_scatter(g, geo, mask),)


# ------------------------------------------------------------ average pooling
def _average_arguments(geo):
    return (*_windows(geo), *geo.padding_end, geo.exclusive, geo.scale)


def avg_pool(x, geo):
    """The recorded average pooling of ``x``."""
    a = x.numpy()
    out, out4 = _new(geo.output_shape(), geo, a.dtype)
    kernels.avg_pool(_as_nchw(a, geo), out4, *_average_arguments(geo))
    return make_output_legacy(_result(out, a.dtype), (x,), geo.name, _avg_pool_bw, attrs=geo)


def _avg_pool_bw(node, g):
    geo = node.attrs
    a = g.numpy()
    dx, dx4 = _new(geo.image_shape(), geo, a.dtype)
    kernels.avg_pool_adjoint(_as_nchw(a, geo), dx4, *_average_arguments(geo))
    return (make_output_legacy(_result(dx, a.dtype), (g,), geo.name + "_grad", _avg_pool_adjoint_bw,
                        attrs=geo),)


def _avg_pool_adjoint_bw(node, g):
    return (avg_pool(g, node.attrs),)
