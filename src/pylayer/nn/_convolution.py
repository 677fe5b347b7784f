"""The convolution ops: a convolution and its two gradients, each one recorded op.

A convolution maps an *image* ``[N, C, H, W]`` to an *output*
``[N, O, OH, OW]`` through a weight ``[O, C / groups, KH, KW]``. Three linear
maps make the whole family, and each is the gradient of the others:

* ``convolution(x, weight)``: the output, ``weight @ im2col(x)``;
* ``input_gradient(dy, weight)``: an image, ``col2im(weight^T @ dy)``; it
  is also the transposed convolution;
* ``weight_gradient(x, dy)``: a weight, ``dy @ im2col(x)^T`` summed over the
  samples.

Each runs as one batched matrix product (numpy's BLAS) over the column
buffer of :mod:`pylayer._kernels.conv`, taken from pylayer's buffer pool, and
records one node whose gradient rule calls the other two ops, so gradients of
any order come out of the same three.

:class:`Geometry` holds what the public functions checked: the sizes, the
layout of the caller's arrays (1-D or 2-D, channel-first or channel-last) and
the kernel's stride, padding and dilation. 1-D arrays are seen as images of
height 1, channel-last arrays through their transposed views; results are
handed back in the caller's layout.
"""
from typing import NamedTuple

import numpy as np

from pylayer._core.graph import current_saved_tensors_hooks, make_output_legacy
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer._kernels.conv import col2im, im2col, pooled_empty
from pylayer.ops.reduction import sum as reduce_sum

__all__ = []


class Geometry(NamedTuple):
    """The checked shape of one convolution (image -> output)."""
    name: str              # the public function, for node names
    spatial: int           # 1 or 2: the caller's arrays are [N, C, L] or [N, C, H, W]
    channel_last: bool     # the caller's arrays are [N, ..., C]
    batch: int
    channels: int          # C, of the image
    height: int
    width: int
    out_channels: int      # O, of the output
    out_height: int
    out_width: int
    groups: int
    kernel: tuple          # (KH, KW)
    stride: tuple
    padding: tuple         # (top, left): the bottom and right follow from the sizes
    dilation: tuple

    def image_shape(self):
        return self._shape(self.channels, self.height, self.width)

    def output_shape(self):
        return self._shape(self.out_channels, self.out_height, self.out_width)

    def weight_shape(self):
        kernel = list(self.kernel[2 - self.spatial:])
        return [self.out_channels, self.channels // self.groups] + kernel

    def _shape(self, channels, height, width):
        sizes = [height, width][2 - self.spatial:]
        if self.channel_last:
            return [self.batch] + sizes + [channels]
        return [self.batch, channels] + sizes

    def sum_axes(self):
        """The axes of the output that a bias gradient sums over."""
        return [0] + list(range(1, self.spatial + 1)) if self.channel_last \
            else [0] + list(range(2, self.spatial + 2))


# ---------------------------------------------------------------- layouts
_COMPUTE = {np.dtype(np.float32): np.float32, np.dtype(np.float64): np.float64}


def _compute_dtype(dtype):
    """The dtype the kernels and BLAS run in: float16 is computed in float32."""
    return _COMPUTE.get(dtype, np.float32)


def _as_nchw(a, geo):
    """A caller-layout array as a 4-D channel-first view ``[N, C, H, W]``."""
    if geo.channel_last:
        a = np.moveaxis(a, -1, 1)
    return a[:, :, None, :] if geo.spatial == 1 else a


def _from_nchw(a, geo, dtype):
    """A channel-first ``[N, C, H, W]`` result in the caller's layout and dtype."""
    if geo.spatial == 1:
        a = a[:, :, 0, :]
    if geo.channel_last:
        a = np.moveaxis(a, 1, -1)
    return np.ascontiguousarray(a, dtype=dtype)


def _weight_by_group(weight, geo, dtype):
    """The weight as ``[groups, O / groups, C / groups * KH * KW]``."""
    return np.asarray(weight, dtype).reshape(geo.groups, geo.out_channels // geo.groups,
                                             _group_rows(geo))


def _group_rows(geo):
    """The rows of a group's column buffer: ``C / groups * KH * KW``."""
    return geo.channels // geo.groups * geo.kernel[0] * geo.kernel[1]


def _is_pointwise(geo):
    """A 1x1 kernel with stride 1 and no padding: the image is its own column buffer."""
    return geo.kernel == (1, 1) and geo.stride == (1, 1) and geo.padding == (0, 0) \
        and (geo.out_height, geo.out_width) == (geo.height, geo.width)


def _columns(image, geo, dtype):
    """``im2col`` of a caller-layout image: ``[N, groups, C/groups*KH*KW, OH*OW]``."""
    x = _as_nchw(np.asarray(image, dtype), geo)
    n, c = geo.batch, geo.channels
    if _is_pointwise(geo):
        col = x.reshape(n, c, geo.height * geo.width)
    else:
        col = pooled_empty((n, c * geo.kernel[0] * geo.kernel[1],
                            geo.out_height * geo.out_width), dtype)
        im2col(x, col, *geo.kernel, *geo.stride, *geo.padding, *geo.dilation,
               geo.out_height, geo.out_width)
    return col.reshape(n, geo.groups, _group_rows(geo), geo.out_height * geo.out_width)


def _output_by_group(dy, geo, dtype):
    """A caller-layout output as ``[N, groups, O / groups, OH * OW]``."""
    y = np.ascontiguousarray(_as_nchw(dy, geo), dtype)   # BLAS needs unit strides
    return y.reshape(geo.batch, geo.groups, geo.out_channels // geo.groups,
                     geo.out_height * geo.out_width)


# ---------------------------------------------------------------- arrays
def convolve(x, weight, bias, geo):
    """The output array of the convolution of the image ``x`` (caller layout), and the
    column buffer it was computed from."""
    dtype = _compute_dtype(x.dtype)
    col = _columns(x, geo, dtype)
    out = pooled_empty((geo.batch, geo.out_channels, geo.out_height, geo.out_width), dtype)
    np.matmul(_weight_by_group(weight, geo, dtype), col,
              out=out.reshape(col.shape[:2] + (geo.out_channels // geo.groups, col.shape[3])))
    if bias is not None:
        out += np.asarray(bias, dtype).reshape(-1, 1, 1)
    return _from_nchw(out, geo, x.dtype), col


def convolve_input_gradient(dy, weight, geo):
    """The image array ``col2im(weight^T @ dy)`` (the transposed convolution of ``dy``)."""
    dtype = _compute_dtype(dy.dtype)
    n, c = geo.batch, geo.channels
    w = _weight_by_group(weight, geo, dtype)
    if _is_pointwise(geo):
        dx = np.matmul(np.swapaxes(w, 1, 2), _output_by_group(dy, geo, dtype))
        return _from_nchw(dx.reshape(n, c, geo.height, geo.width), geo, dy.dtype)
    col = pooled_empty((n, c * geo.kernel[0] * geo.kernel[1], geo.out_height * geo.out_width),
                       dtype)
    np.matmul(np.swapaxes(w, 1, 2), _output_by_group(dy, geo, dtype),
              out=col.reshape(n, geo.groups, _group_rows(geo), col.shape[-1]))
    dx = pooled_empty((n, c, geo.height, geo.width), dtype)
    col2im(col, dx, *geo.kernel, *geo.stride, *geo.padding, *geo.dilation, geo.out_height,
           geo.out_width)
    return _from_nchw(dx, geo, dy.dtype)


def convolve_weight_gradient(x, dy, geo, col=None):
    """The weight array ``sum over samples of dy @ im2col(x)^T`` (``col``: im2col(x) if
    known)."""
    dtype = _compute_dtype(x.dtype)
    if col is None:
        col = _columns(x, geo, dtype)
    # col @ dy^T, transposed at the end, runs faster in BLAS than dy @ col^T
    per_sample = np.matmul(col, np.swapaxes(_output_by_group(dy, geo, dtype), 2, 3))
    dw = per_sample.sum(axis=0) if geo.batch else np.zeros(per_sample.shape[1:], dtype)
    return np.swapaxes(dw, 1, 2).reshape(geo.weight_shape()).astype(x.dtype, copy=False)


# ---------------------------------------------------------------- recorded ops
def convolution(x, weight, bias, geo):
    """The recorded convolution of the image Tensor ``x`` (bias None or ``[O]``).

    Its node keeps the column buffer for the weight gradient (it is the input's
    lowering, and the input is version-checked), unless saved-tensor hooks are
    active: they decide what backward keeps.
    """
    out, col = convolve(x.numpy(), weight.numpy(), None if bias is None else bias.numpy(),
                        geo)
    inputs = (x, weight) if bias is None else (x, weight, bias)
    keep = not weight.stop_gradient and current_saved_tensors_hooks() is None
    return make_output_legacy(out, inputs, geo.name, _convolution_bw, save=(x, weight),
                       attrs=(geo, col if keep else None))


def _convolution_bw(node, g):
    x, weight = node.saved_tensors()
    geo, col = node.attrs
    needs = node.needs_input_grad
    grads = (input_gradient(g, weight, geo) if needs[0] else None,
             weight_gradient(x, g, geo, col) if needs[1] else None)
    if len(needs) == 3:
        grads += (_bias_gradient(g, geo) if needs[2] else None,)
    return grads


def _bias_gradient(g, geo):
    """``g`` summed over all but its channel axis (einsum's sum beats np.sum here)."""
    if is_grad_enabled():                  # to be differentiated again: a recorded sum
        return reduce_sum(g, axis=geo.sum_axes())
    a = g.numpy()
    rows = _as_nchw(np.asarray(a, _compute_dtype(a.dtype)), geo).reshape(
        geo.batch, geo.out_channels, geo.out_height * geo.out_width)
    return make_tensor(np.einsum("nop->o", rows).astype(a.dtype, copy=False))


def input_gradient(dy, weight, geo, name=None):
    """The recorded image-shaped ``col2im(weight^T @ dy)``: the gradient of a convolution
    for its input, and the transposed convolution (``name`` names its node)."""
    out = convolve_input_gradient(dy.numpy(), weight.numpy(), geo)
    return make_output_legacy(out, (dy, weight), name or geo.name + "_input_grad", _input_gradient_bw,
                       save=(dy, weight), attrs=geo)


def _input_gradient_bw(node, g):
    dy, weight = node.saved_tensors()
    geo = node.attrs
    needs = node.needs_input_grad
    return (convolution(g, weight, None, geo) if needs[0] else None,
            weight_gradient(g, dy, geo) if needs[1] else None)


def weight_gradient(x, dy, geo, col=None):
    """The recorded weight-shaped gradient of a convolution: ``dy @ im2col(x)^T``."""
    out = convolve_weight_gradient(x.numpy(), dy.numpy(), geo, col)
    return make_output_legacy(out, (x, dy), geo.name + "_weight_grad", _weight_gradient_bw,
                       save=(x, dy), attrs=geo)


def _weight_gradient_bw(node, g):
    x, dy = node.saved_tensors()
    geo = node.attrs
    needs = node.needs_input_grad
    return (input_gradient(dy, g, geo) if needs[0] else None,
            convolution(x, g, None, geo) if needs[1] else None)
