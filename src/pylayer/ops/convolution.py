"""The convolutions: ``conv1d/2d/3d`` and ``conv1d/2d/3d_transpose``.

A convolution maps an *image* ``[N, C, H, W]`` to an *output*
``[N, O, OH, OW]`` through a weight ``[O, C / groups, KH, KW]``. Three linear
maps make the whole family, and each is the gradient of the others:

* ``convolution(x, weight)``: the output, ``weight @ im2col(x)``;
* ``conv_transpose(dy, weight)``: an image, ``col2im(weight^T @ dy)``; it
  is the gradient of a convolution for its input, and the transposed
  convolution;
* ``weight_gradient(x, dy)``: a weight, ``dy @ im2col(x)^T`` summed over the
  samples.

Each runs as batched matrix products (numpy's BLAS) over the column buffers
of :mod:`pylayer._kernels.conv`, taken from pylayer's buffer pool a block of
samples at a time (about ``COLUMN_BLOCK_BYTES`` each, so that BLAS reads a
block while it is in the core's cache; no buffer outlives its call), and
records one node whose gradient rules call the other two, so gradients of
any order come out of the same three.

The public functions check their arguments in Paddle's forms into a
:class:`Geometry`: the sizes, the layout of the caller's arrays (1-D or 2-D,
channel-first or channel-last) and the kernel's stride, padding and
dilation. 1-D arrays are seen as images of height 1, channel-last arrays
through their transposed views; results are handed back in the caller's
layout. 1-D and 2-D column buffers are built by the compiled kernels; 3-D
ones by one numpy copy from a strided view of the windows (and summed back,
for the transposed direction, one slice per kernel position).
"""
import itertools
import math
from typing import NamedTuple

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer._kernels.conv import col2im, im2col, pooled_empty
from pylayer.ops._arguments import check_choice, check_count, check_int, check_ints
from pylayer.ops.arithmetic import add
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.reduction import sum as reduce_sum
from pylayer.ops.shape import reshape
from pylayer.ops._window_args import is_same, window_padding, window_sizes
from pylayer.ops.dispatch import op

__all__ = ["conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose",
           "conv3d_transpose"]


class Geometry(NamedTuple):
    """The checked shape of one convolution (image -> output)."""
    spatial: int           # 1, 2 or 3: the caller's arrays are [N, C, *sizes]
    channel_last: bool     # the caller's arrays are [N, ..., C]
    batch: int
    channels: int          # C, of the image
    sizes: tuple           # the image's (H, W), or (D, H, W); (1, L) for 1-D
    out_channels: int      # O, of the output
    out_sizes: tuple
    groups: int
    kernel: tuple          # per dimension of ``sizes``
    stride: tuple
    padding: tuple         # before each dimension: the padding after follows from the sizes
    dilation: tuple

    def image_shape(self):
        return self._shape(self.channels, self.sizes)

    def output_shape(self):
        return self._shape(self.out_channels, self.out_sizes)

    def weight_shape(self):
        kernel = list(self.kernel[len(self.kernel) - self.spatial:])
        return [self.out_channels, self.channels // self.groups] + kernel

    def _shape(self, channels, sizes):
        sizes = list(sizes[len(sizes) - self.spatial:])
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
    """A caller-layout array as a channel-first view ``[N, C, *geo.sizes]``."""
    if geo.channel_last:
        a = np.moveaxis(a, -1, 1)
    return a[:, :, None, :] if geo.spatial == 1 else a


def _from_nchw(a, geo, dtype):
    """A channel-first ``[N, C, *sizes]`` result in the caller's layout and dtype."""
    if geo.spatial == 1:
        a = a[:, :, 0, :]
    if geo.channel_last:
        a = np.moveaxis(a, 1, -1)
    return np.ascontiguousarray(a, dtype=dtype)


def _weight_by_group(weight, geo, dtype):
    """The weight as ``[groups, O / groups, C / groups * prod(kernel)]``."""
    return np.asarray(weight, dtype).reshape(geo.groups, geo.out_channels // geo.groups,
                                             _group_rows(geo))


def _group_rows(geo):
    """The rows of a group's column buffer: ``C / groups * prod(kernel)``."""
    return geo.channels // geo.groups * math.prod(geo.kernel)


_ONES = {2: (1, 1), 3: (1, 1, 1)}
_ZEROS = {2: (0, 0), 3: (0, 0, 0)}


def _is_pointwise(geo):
    """A 1x1 kernel with stride 1 and no padding: the image is its own column buffer."""
    count = len(geo.kernel)
    return geo.kernel == _ONES[count] and geo.stride == _ONES[count] \
        and geo.padding == _ZEROS[count] and geo.out_sizes == geo.sizes


def _padded_sizes(geo):
    """The sizes of the zero-padded image every window of ``geo`` lies in."""
    return tuple(max(size + p, (o - 1) * s + (k - 1) * d + 1)
                 for size, o, k, s, p, d in zip(geo.sizes, geo.out_sizes, geo.kernel,
                                                geo.stride, geo.padding, geo.dilation))


def window_view(x, geo, fill=0):
    """The windows of the channel-first image ``x`` ``[N, C, *geo.sizes]``, padded with
    ``fill`` as ``geo`` says, as a read-only view ``[N, C, *kernel, *out_sizes]``.

    ``geo`` has ``sizes``, ``out_sizes``, ``kernel``, ``stride``, ``padding`` (before each
    dimension) and ``dilation``."""
    pads = [(0, 0), (0, 0)] + [(p, end - size - p) for size, p, end in
                               zip(geo.sizes, geo.padding, _padded_sizes(geo))]
    xp = np.pad(x, pads, constant_values=fill) if any(map(any, pads)) else x
    strides = xp.strides[2:]
    return np.lib.stride_tricks.as_strided(
        xp, xp.shape[:2] + tuple(geo.kernel) + tuple(geo.out_sizes),
        xp.strides[:2] + tuple(t * d for t, d in zip(strides, geo.dilation))
        + tuple(t * s for t, s in zip(strides, geo.stride)), writeable=False)


def window_adjoint(cols, dx, geo):
    """The adjoint of :func:`window_view`: each element of ``cols`` ``[N, C, *kernel,
    *out_sizes]`` added to its image element of ``dx`` ``[N, C, *sizes]`` (one slice per
    kernel position)."""
    out = np.zeros(dx.shape[:2] + _padded_sizes(geo), dx.dtype)
    for position in itertools.product(*map(range, geo.kernel)):
        window = tuple(slice(k * d, k * d + (o - 1) * s + 1, s) for k, d, o, s in
                       zip(position, geo.dilation, geo.out_sizes, geo.stride))
        out[(Ellipsis,) + window] += cols[(slice(None), slice(None)) + position]
    dx[...] = out[(Ellipsis,) + tuple(slice(p, p + size)
                                      for p, size in zip(geo.padding, geo.sizes))]


def _columns(image, geo, dtype, buffer):
    """``im2col`` of a caller-layout image (the whole batch or a block of its samples):
    ``[n, groups, C/groups*prod(kernel), prod(out)]``, written into ``buffer`` (from
    ``_sample_blocks``); a pointwise convolution's columns are the image itself."""
    x = _as_nchw(np.asarray(image, dtype), geo)
    n, c = x.shape[0], geo.channels
    if _is_pointwise(geo):
        col = x.reshape(n, c, math.prod(geo.sizes))
    else:
        col = buffer[:n]
        if len(geo.kernel) == 2:
            im2col(x, col, *geo.kernel, *geo.stride, *geo.padding, *geo.dilation,
                   *geo.out_sizes)
        else:
            np.copyto(col.reshape(x.shape[:2] + geo.kernel + geo.out_sizes),
                      window_view(x, geo))
    return _view(col, (n, geo.groups, _group_rows(geo), math.prod(geo.out_sizes)))


# Column buffers are made and multiplied a block of samples at a time, each block's
# about this size, so that BLAS reads a buffer while it is still in the core's cache
# (one [288, 1024] float32 sample, 1.2 MB, ran its forward product and im2col 1.3
# times faster than the whole batch's buffer); backward makes its own again.
COLUMN_BLOCK_BYTES = 1 << 20


def _column_buffer(samples, geo, dtype):
    """A pooled column buffer ``[samples, C*prod(kernel), prod(out)]`` for a block of
    samples. For the 2-D kernels, rows of a multiple of 512 bytes are padded by 64 bytes:
    rows that far apart fall on the same cache sets, and BLAS read them 1.5 times
    slower (measured on [288, 1024] float32 columns: ``W @ col`` 177 -> 114 us,
    ``W.T @ dy`` into them 149 -> 97 us)."""
    rows, length = geo.channels * math.prod(geo.kernel), math.prod(geo.out_sizes)
    itemsize = np.dtype(dtype).itemsize
    pad = 64 // itemsize if len(geo.kernel) == 2 and length and \
        length * itemsize % 512 == 0 else 0
    return pooled_empty((samples, rows, length + pad), dtype)[:, :, :length]


def _view(array, shape):
    """``array`` reshaped to ``shape``, which must be a view: a padded column buffer is
    written through its reshaped views, and a copy would lose what is written."""
    view = array.reshape(shape)
    if not np.may_share_memory(view, array):
        raise AssertionError(f"reshaping {array.shape} with strides {array.strides} copied")
    return view


def _sample_blocks(geo, dtype, per_sample=None):
    """The batch as slices of samples whose arrays of ``per_sample`` elements of ``dtype``
    (by default one sample's columns) each take about ``COLUMN_BLOCK_BYTES`` together
    (one sample at least), and a column buffer for a block (None for a pointwise
    convolution, whose columns are its image)."""
    per_sample = _column_count(geo) if per_sample is None else per_sample
    size = max(1, COLUMN_BLOCK_BYTES // max(per_sample * np.dtype(dtype).itemsize, 1))
    buffer = None if _is_pointwise(geo) else _column_buffer(min(size, geo.batch), geo, dtype)
    return [slice(start, start + size) for start in range(0, geo.batch, size)], buffer


def _column_count(geo):
    """The elements of one sample's column buffer."""
    return geo.channels * math.prod(geo.kernel) * math.prod(geo.out_sizes)


def _check_buffers(geo, dtype, fn, arg):
    """Refuse, in ``fn``'s name and blaming ``arg``, a geometry whose image, output or column
    buffer (a block's, one sample at least) is too large to allocate in the compute dtype
    of the caller's ``dtype``."""
    dtype = _compute_dtype(np.dtype(dtype))
    if not _is_pointwise(geo):
        check_count(_column_count(geo), fn, arg, dtype)
    check_count(geo.batch * geo.channels * math.prod(geo.sizes), fn, arg, dtype)
    check_count(geo.batch * geo.out_channels * math.prod(geo.out_sizes), fn, arg, dtype)


def _output_by_group(dy, geo, dtype):
    """A caller-layout output as ``[N, groups, O / groups, prod(out)]``."""
    y = np.ascontiguousarray(_as_nchw(dy, geo), dtype)   # BLAS needs unit strides
    return y.reshape(geo.batch, geo.groups, geo.out_channels // geo.groups,
                     math.prod(geo.out_sizes))


# ---------------------------------------------------------------- arrays
def convolve(x, weight, bias, geo):
    """The output array of the convolution of the image ``x`` (caller layout)."""
    dtype = _compute_dtype(x.dtype)
    out = pooled_empty((geo.batch, geo.out_channels) + geo.out_sizes, dtype)
    rows = out.reshape(geo.batch, geo.groups, geo.out_channels // geo.groups,
                       math.prod(geo.out_sizes))
    w = _weight_by_group(weight, geo, dtype)
    if _is_pointwise(geo):
        np.matmul(w, _columns(x, geo, dtype, None), out=rows)
    else:
        blocks, buffer = _sample_blocks(geo, dtype)
        for block in blocks:
            np.matmul(w, _columns(x[block], geo, dtype, buffer), out=rows[block])
    if bias is not None:
        out += np.asarray(bias, dtype).reshape((-1,) + (1,) * len(geo.out_sizes))
    return _from_nchw(out, geo, x.dtype)


def convolve_input_gradient(dy, weight, geo):
    """The image array ``col2im(weight^T @ dy)`` (the transposed convolution of ``dy``)."""
    dtype = _compute_dtype(dy.dtype)
    n, c = geo.batch, geo.channels
    w_t = np.swapaxes(_weight_by_group(weight, geo, dtype), 1, 2)
    if _is_pointwise(geo):
        dx = np.matmul(w_t, _output_by_group(dy, geo, dtype))
        return _from_nchw(dx.reshape((n, c) + geo.sizes), geo, dy.dtype)
    dy_rows = _output_by_group(dy, geo, dtype)
    dx = pooled_empty((n, c) + geo.sizes, dtype)
    blocks, buffer = _sample_blocks(geo, dtype)
    for block in blocks:
        rows = dy_rows[block]
        col = buffer[:rows.shape[0]]
        np.matmul(w_t, rows, out=_view(col, (rows.shape[0], geo.groups, _group_rows(geo),
                                             col.shape[-1])))
        if len(geo.kernel) == 2:
            col2im(col, dx[block], *geo.kernel, *geo.stride, *geo.padding, *geo.dilation,
                   *geo.out_sizes)
        else:
            window_adjoint(col.reshape((col.shape[0], c) + geo.kernel + geo.out_sizes),
                           dx[block], geo)
    return _from_nchw(dx, geo, dy.dtype)


def convolve_weight_gradient(x, dy, geo):
    """The weight array ``sum over samples of dy @ im2col(x)^T``."""
    dtype = _compute_dtype(x.dtype)
    # col @ dy^T, transposed at the end, runs faster in BLAS than dy @ col^T
    dy_t = np.swapaxes(_output_by_group(dy, geo, dtype), 2, 3)
    dw = np.zeros((geo.groups, _group_rows(geo), dy_t.shape[3]), dtype)
    # A block's products, one per sample, take no more memory than its columns.
    blocks, buffer = _sample_blocks(geo, dtype, max(_column_count(geo), dw.size))
    for block in blocks:
        dw += np.matmul(_columns(x[block], geo, dtype, buffer), dy_t[block]).sum(axis=0)
    return np.swapaxes(dw, 1, 2).reshape(geo.weight_shape()).astype(x.dtype, copy=False)


# ---------------------------------------------------------------- recorded ops
def _bias_gradient(g, geometry):
    """``g`` summed over all but its channel axis (einsum's sum beats np.sum here)."""
    if is_grad_enabled():                  # to be differentiated again: a recorded sum
        return reduce_sum(g, axis=geometry.sum_axes())
    a = g.numpy()
    rows = _as_nchw(np.asarray(a, _compute_dtype(a.dtype)), geometry).reshape(
        geometry.batch, geometry.out_channels, math.prod(geometry.out_sizes))
    return make_tensor(np.einsum("nop->o", rows).astype(a.dtype, copy=False))


_CONVOLUTION = dict(
    inputs=("x", "weight", "bias"), keeps=("x", "weight"), attrs=("geometry",),
    vjp=(lambda g, weight, geometry: conv_transpose(g, weight, geometry),
         lambda g, x, geometry: weight_gradient(x, g, geometry),
         lambda g, geometry: _bias_gradient(g, geometry)))
CONV1D = Op("conv1d", **_CONVOLUTION)
CONV2D = Op("conv2d", **_CONVOLUTION)
CONV3D = Op("conv3d", **_CONVOLUTION)
_CONVOLUTIONS = {1: CONV1D, 2: CONV2D, 3: CONV3D}

_TRANSPOSED = dict(
    inputs=("x", "weight"), keeps=("x", "weight"), attrs=("geometry",),
    vjp=(lambda g, weight, geometry: convolution(g, weight, None, geometry),
         lambda g, x, geometry: weight_gradient(g, x, geometry)))
CONV1D_TRANSPOSE = Op("conv1d_transpose", **_TRANSPOSED)
CONV2D_TRANSPOSE = Op("conv2d_transpose", **_TRANSPOSED)
CONV3D_TRANSPOSE = Op("conv3d_transpose", **_TRANSPOSED)
_TRANSPOSES = {1: CONV1D_TRANSPOSE, 2: CONV2D_TRANSPOSE, 3: CONV3D_TRANSPOSE}

CONV_WEIGHT_GRAD = Op("conv_weight_grad", inputs=("x", "dy"), keeps=("x", "dy"),
                      attrs=("geometry",),
                      vjp=(lambda g, dy, geometry: conv_transpose(dy, g, geometry),
                           lambda g, x, geometry: convolution(x, g, None, geometry)))


def convolution(x, weight, bias, geometry):
    """The recorded convolution of the image Tensor ``x`` (bias None or ``[O]``). Its node
    keeps ``x`` and ``weight``; the weight gradient makes the column buffers again."""
    out = convolve(x.numpy(), weight.numpy(), None if bias is None else bias.numpy(), geometry)
    return make_output(_CONVOLUTIONS[geometry.spatial], out, (x, weight, bias), (geometry,))


def conv_transpose(dy, weight, geometry):
    """The recorded image-shaped ``col2im(weight^T @ dy)``: the gradient of a convolution
    for its input, and the transposed convolution."""
    out = convolve_input_gradient(dy.numpy(), weight.numpy(), geometry)
    return make_output(_TRANSPOSES[geometry.spatial], out,
                       (dy, weight), (geometry,))


def weight_gradient(x, dy, geometry):
    """The recorded weight-shaped gradient of a convolution: ``dy @ im2col(x)^T``."""
    out = convolve_weight_gradient(x.numpy(), dy.numpy(), geometry)
    return make_output(CONV_WEIGHT_GRAD, out, (x, dy), (geometry,))


# ---------------------------------------------------------------- arguments
def _operands(x, weight, groups, stride, dilation, count, fn):
    """``x`` and ``weight`` as floating-point Tensors of rank ``count + 2`` and one dtype,
    and the checked ``groups``, ``stride`` and ``dilation``."""
    x = as_tensor_arg(x, fn, "x", 1)
    weight = as_tensor_arg(weight, fn, "weight", 2)
    for arg, t in (("x", x), ("weight", weight)):
        if t.numpy().dtype.kind != "f" or t.ndim != count + 2:
            raise ValueError(f"{fn}(): argument '{arg}' must be a {count + 2}-D floating-point "
                             f"Tensor, got shape {t.shape} and dtype {t.dtype.name}")
    if x.dtype != weight.dtype:
        raise TypeError(f"{fn}(): x and weight must have the same dtype, got "
                        f"{x.dtype.name} and {weight.dtype.name}")
    return (x, weight, check_int(groups, fn, "groups", minimum=1),
            window_sizes(stride, count, fn, "stride"),
            window_sizes(dilation, count, fn, "dilation"))


def _layout(x, channel_last):
    """(channels, spatial sizes) of ``x`` in its data format."""
    if channel_last:
        return x.shape[-1], x.shape[1:-1]
    return x.shape[1], x.shape[2:]


def _check_bias(bias, channels, fn):
    if bias is None:
        return None
    bias = as_tensor_arg(bias, fn, "bias", 3)
    if bias.shape != [channels]:
        raise ValueError(f"{fn}(): argument 'bias' must have shape [{channels}], got "
                         f"{bias.shape}")
    return bias


def _geometry(count, channel_last, batch, image, out, groups, kernel, stride, pairs,
              dilation):
    """A Geometry from per-dimension lists; a 1-D convolution is a 2-D one of height 1."""
    if count == 1:
        image, out, kernel = image[:1] + [1] + image[1:], out[:1] + [1] + out[1:], [1] + kernel
        stride, pairs, dilation = [1] + stride, [(0, 0)] + pairs, [1] + dilation
    return Geometry(count, channel_last, batch, image[0], tuple(image[1:]), out[0],
                    tuple(out[1:]), groups, tuple(kernel), tuple(stride), tuple(p[0] for p in pairs),
                    tuple(dilation))


def _conv(x, weight, bias, stride, padding, dilation, groups, channel_last, count, fn):
    """The shared body of conv1d and conv2d (``count`` spatial dimensions)."""
    x, weight, groups, stride, dilation = _operands(x, weight, groups, stride, dilation, count,
                                                    fn)
    channels, in_sizes = _layout(x, channel_last)
    out_channels, group_channels, *kernel = weight.shape
    if channels % groups or out_channels % groups or channels // groups != group_channels:
        raise ValueError(f"{fn}(): x has {channels} channels and weight has shape "
                         f"{list(weight.shape)}: with groups={groups} both channel counts must "
                         f"divide by groups and weight's second dimension must be "
                         f"{channels} / groups")
    pairs = window_padding(padding, count, in_sizes, kernel, stride, channel_last, fn)
    if is_same(padding):
        dilation = [1] * count
    out_sizes = [(size + before + after - d * (k - 1) - 1) // s + 1
                 for size, (before, after), k, s, d in zip(in_sizes, pairs, kernel, stride,
                                                             dilation)]
    if min(out_sizes) < 1:
        raise ValueError(f"{fn}(): the kernel {kernel} (dilation {dilation}) does not fit "
                         f"the padded input of spatial size "
                         f"{[size + sum(pair) for size, pair in zip(in_sizes, pairs)]}")
    bias = _check_bias(bias, out_channels, fn)
    geo = _geometry(count, channel_last, x.shape[0], [channels] + in_sizes,
                    [out_channels] + out_sizes, groups, kernel, stride, pairs, dilation)
    # without padding the output is no larger than the input; the columns are the
    # input's times the kernel's size
    _check_buffers(geo, x.numpy().dtype, fn,
                   "padding" if any(v for pair in pairs for v in pair) else "weight")
    return convolution(x, weight, bias, geo)


def _transposed_sizes(in_sizes, pairs, kernel, stride, dilation, output_padding, output_size,
                      count, fn):
    """The output sizes of a transposed convolution, by Paddle's rules."""
    inferred = [(size - 1) * s - before - after + d * (k - 1) + 1
                for size, (before, after), k, s, d in zip(in_sizes, pairs, kernel, stride,
                                                            dilation)]
    extra = window_sizes(output_padding, count, fn, "output_padding", minimum=0)
    for pad, s, d in zip(extra, stride, dilation):
        if pad >= s and pad >= d:
            raise ValueError(f"{fn}(): argument 'output_padding' ({extra}) must be smaller "
                             f"than either the stride ({stride}) or the dilation ({dilation}) "
                             f"in each dimension")
    if output_size is None:
        sizes = [size + pad for size, pad in zip(inferred, extra)]
    else:
        if any(extra):
            raise ValueError(f"{fn}(): give either 'output_size' or 'output_padding', "
                             f"not both")
        sizes = check_ints(output_size, fn, "output_size")
        if len(sizes) == 1:
            sizes = sizes * count
        if len(sizes) != count:
            raise ValueError(f"{fn}(): argument 'output_size' must be an int or {count} of "
                             f"them, got {sizes}")
        for size, low, s in zip(sizes, inferred, stride):
            if not low <= size < low + s:
                raise ValueError(f"{fn}(): argument 'output_size' {sizes} must lie, in each "
                                 f"dimension, between the inferred size {inferred} and that "
                                 f"size plus the stride {stride} (excluded)")
    if min(sizes) < 0:
        raise ValueError(f"{fn}(): the padding {[list(p) for p in pairs]} is larger than the "
                         f"transposed convolution's output {sizes} of spatial input "
                         f"{list(in_sizes)}")
    for size, in_size, (before, after), k, s, d in zip(sizes, in_sizes, pairs, kernel, stride,
                                                         dilation):
        span = size + before + after - d * (k - 1) - 1     # Paddle divides towards zero
        if (span // s if span >= 0 else -(-span // s)) + 1 != in_size:
            raise ValueError(f"{fn}(): the output size {sizes} is inconsistent with the "
                             f"input size {list(in_sizes)}: a convolution of that output "
                             f"with this kernel, stride and padding would not give the input "
                             f"(an output_padding from the dilation must stay below the "
                             f"stride)")
    return sizes


def _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups,
                    output_size, channel_last, count, fn):
    """The shared body of conv1d_transpose and conv2d_transpose."""
    x, weight, groups, stride, dilation = _operands(x, weight, groups, stride, dilation, count,
                                                    fn)
    in_channels, in_sizes = _layout(x, channel_last)
    weight_in, group_channels, *kernel = weight.shape
    if weight_in != in_channels or in_channels % groups:
        raise ValueError(f"{fn}(): x has {in_channels} channels and weight has shape "
                         f"{list(weight.shape)}: weight's first dimension must be the "
                         f"channels of x, which must divide by groups={groups}")
    pairs = window_padding(padding, count, in_sizes, kernel, stride, channel_last, fn)
    if is_same(padding):
        dilation = [1] * count
    out_sizes = _transposed_sizes(in_sizes, pairs, kernel, stride, dilation, output_padding,
                                  output_size, count, fn)
    out_channels = group_channels * groups
    bias = _check_bias(bias, out_channels, fn)
    geo = _geometry(count, channel_last, x.shape[0], [out_channels] + out_sizes,
                    [in_channels] + in_sizes, groups, kernel, stride, pairs, dilation)
    _check_buffers(geo, x.numpy().dtype, fn,
                   "output_size" if output_size is not None else "stride" if max(stride) > 1
                   else "dilation" if max(dilation) > 1 else "weight")
    out = conv_transpose(x, weight, geo)
    if bias is None:
        return out
    shape = [1] * (count + 2)
    shape[-1 if channel_last else 1] = out_channels
    return add(out, reshape(bias, shape))


@op
def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL",
           name=None):
    """1-D convolution of ``x`` ``[N, C, L]`` with ``weight`` ``[O, C / groups, K]``.

    ``padding`` is ``'same'``, ``'valid'``, an int, ``[left, right]`` or
    pairs per dimension; ``data_format`` is ``'NCL'`` or ``'NLC'``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(5, dtype='float32').reshape([1, 1, 5])
    >>> F.conv1d(x, pylayer.ones([1, 1, 3]), padding=1).numpy()
    array([[[1., 3., 6., 9., 7.]]], dtype=float32)
    """
    check_choice(data_format, "conv1d", "data_format", ["NCL", "NLC"])
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format == "NLC", 1,
                 "conv1d")


@op
def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCHW", name=None):
    """2-D convolution of ``x`` ``[N, C, H, W]`` with ``weight`` ``[O, C / groups, KH, KW]``.

    ``stride`` and ``dilation`` are an int or ``[h, w]``. ``padding`` is
    ``'same'`` (output ``ceil(in / stride)``, dilation ignored as in
    Paddle), ``'valid'``, an int, ``[h, w]``, ``[top, bottom, left,
    right]`` or four pairs in ``data_format`` order. ``groups`` splits the
    channels into independent convolutions. ``data_format`` is ``'NCHW'``
    or ``'NHWC'``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(16, dtype='float32').reshape([1, 1, 4, 4])
    >>> F.conv2d(x, pylayer.ones([1, 1, 2, 2]), stride=2).numpy()
    array([[[[10., 18.],
             [42., 50.]]]], dtype=float32)
    """
    check_choice(data_format, "conv2d", "data_format", ["NCHW", "NHWC"])
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format == "NHWC", 2,
                 "conv2d")


@op
def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCL", name=None):
    """1-D transposed convolution of ``x`` ``[N, C, L]`` with ``weight`` ``[C, O / groups, K]``.

    The gradient of :func:`conv1d` for its input, run forward: each input
    element adds the kernel, scaled by it, to the output from position
    ``i * stride - padding``. The output length is ``(L - 1) * stride -
    padding (both sides) + dilation * (K - 1) + 1 + output_padding``;
    ``output_padding`` (smaller than the stride or the dilation) or
    ``output_size`` (at least that length without it, below it plus the
    stride) picks among the lengths whose convolution gives ``L``.
    ``padding`` takes the forms of :func:`conv1d`; with ``'same'`` the
    output is ``L * stride`` long.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[1.0, 2.0]]])
    >>> F.conv1d_transpose(x, pylayer.ones([1, 1, 3]), stride=2).numpy()
    array([[[1., 1., 3., 2., 2.]]], dtype=float32)
    """
    check_choice(data_format, "conv1d_transpose", "data_format", ["NCL", "NLC"])
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups,
                           output_size, data_format == "NLC", 1, "conv1d_transpose")


@op
def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1,
                     groups=1, output_size=None, data_format="NCHW", name=None):
    """2-D transposed convolution of ``x`` ``[N, C, H, W]`` with ``weight``
    ``[C, O / groups, KH, KW]``.

    The gradient of :func:`conv2d` for its input, run forward; see
    :func:`conv1d_transpose` for the output size, ``output_padding`` and
    ``output_size`` (an int or ``[h, w]``), per dimension. ``padding`` takes
    the forms of :func:`conv2d`.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
    >>> F.conv2d_transpose(x, pylayer.ones([1, 1, 2, 2]), stride=2).numpy()[0, 0]
    array([[1., 1., 2., 2.],
           [1., 1., 2., 2.],
           [3., 3., 4., 4.],
           [3., 3., 4., 4.]], dtype=float32)
    """
    check_choice(data_format, "conv2d_transpose", "data_format", ["NCHW", "NHWC"])
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups,
                           output_size, data_format == "NHWC", 2, "conv2d_transpose")


@op
def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCDHW", name=None):
    """3-D convolution of ``x`` ``[N, C, D, H, W]`` with ``weight``
    ``[O, C / groups, KD, KH, KW]``.

    ``stride`` and ``dilation`` are an int or ``[d, h, w]``. ``padding`` is
    ``'same'``, ``'valid'``, an int, ``[d, h, w]``, six ints ``[front, back,
    top, bottom, left, right]`` or five pairs in ``data_format`` order.
    ``data_format`` is ``'NCDHW'`` or ``'NDHWC'``; the rest is as in
    :func:`conv2d`.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
    >>> F.conv3d(x, pylayer.ones([1, 1, 2, 2, 2])).numpy()
    array([[[[[28.]]]]], dtype=float32)
    """
    check_choice(data_format, "conv3d", "data_format", ["NCDHW", "NDHWC"])
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format == "NDHWC", 3,
                 "conv3d")


@op
def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCDHW", name=None):
    """3-D transposed convolution of ``x`` ``[N, C, D, H, W]`` with ``weight``
    ``[C, O / groups, KD, KH, KW]``.

    The gradient of :func:`conv3d` for its input, run forward; see
    :func:`conv1d_transpose` for the output size, ``output_padding`` and
    ``output_size`` (an int or ``[d, h, w]``), per dimension.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.ones([1, 1, 1, 1, 2])
    >>> F.conv3d_transpose(x, pylayer.ones([1, 1, 2, 1, 2])).numpy()
    array([[[[[1., 2., 1.]],
    <BLANKLINE>
             [[1., 2., 1.]]]]], dtype=float32)
    """
    check_choice(data_format, "conv3d_transpose", "data_format", ["NCDHW", "NDHWC"])
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups,
                           output_size, data_format == "NDHWC", 3, "conv3d_transpose")
