"""Convolutions: ``conv1d``, ``conv2d`` and the ``Conv1D``, ``Conv2D`` layers.

A convolution is computed as: pad (constant zeros), gather every window
into a ``[N, C, KH, KW, OH, OW]`` tensor with one recorded ``take``, and
contract it with the weight by a recorded ``einsum`` (groups included).
Gradients and gradients of gradients come from those ops. A 1-D
convolution is a 2-D one over a height of 1.
"""
import math

import numpy as np

from pylayer.nn.initializer import Normal
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.nn.spatial import pad
from pylayer.ops._arguments import MAX_ELEMENTS, check_choice, check_int, check_ints, describe
from pylayer.ops._elementwise import add
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops._shape import reshape, transpose
from pylayer.ops.dispatch import op
from pylayer.ops.indexing import take
from pylayer.ops.linalg import einsum

__all__ = ["conv1d", "conv2d", "Conv1D", "Conv2D"]


def _sizes(value, count, fn, arg):
    """An int or ``count`` ints, each at least 1, as a list of ``count`` ints."""
    sizes = check_ints(value, fn, arg)
    if len(sizes) == 1:
        sizes = sizes * count
    if len(sizes) != count or min(sizes) < 1:
        raise ValueError(f"{fn}(): argument '{arg}' must be a positive int or {count} of them, "
                         f"got {describe(value) if not isinstance(value, list) else value}")
    return sizes


def _padding(padding, count, in_sizes, kernel, stride, fn):
    """``[(before, after)]`` per spatial dimension, from Paddle's padding forms.

    ``'same'`` makes the output size ``ceil(in / stride)``, with any odd
    padding after; as in Paddle it does not account for dilation.
    """
    if isinstance(padding, str):
        check_choice(padding.lower(), fn, "padding", ["same", "valid"])
        if padding.lower() == "valid":
            return [(0, 0)] * count
        result = []
        for size, k, s in zip(in_sizes, kernel, stride):
            total = max((math.ceil(size / s) - 1) * s + k - size, 0)
            result.append((total // 2, total - total // 2))
        return result
    if isinstance(padding, (list, tuple)) and padding and all(
            isinstance(p, (list, tuple)) for p in padding):
        pairs = [tuple(check_ints(list(p), fn, "padding")) for p in padding]
        if len(pairs) != count + 2 or any(len(p) != 2 for p in pairs) or \
                any(pairs[i] != (0, 0) for i in (0, 1)):
            raise ValueError(f"{fn}(): a padding of pairs must hold {count + 2} pairs, the "
                             f"first two (batch and channel) [0, 0], got {padding}")
        pairs = pairs[2:]
    else:
        values = check_ints(padding, fn, "padding")
        if len(values) == 1:
            values = values * count
        if len(values) == count:
            pairs = [(v, v) for v in values]
        elif len(values) == 2 * count:
            pairs = [(values[2 * i], values[2 * i + 1]) for i in range(count)]
        else:
            raise ValueError(f"{fn}(): argument 'padding' must be 'same', 'valid', an int, "
                             f"{count} or {2 * count} ints, or pairs, got {values}")
    if any(v < 0 for pair in pairs for v in pair):
        raise ValueError(f"{fn}(): argument 'padding' must be non-negative, got {padding}")
    return pairs


def _conv(x, weight, bias, stride, padding, dilation, groups, channel_last, count, fn):
    """The shared body of conv1d and conv2d (``count`` spatial dimensions)."""
    x = as_tensor_arg(x, fn, "x", 1)
    weight = as_tensor_arg(weight, fn, "weight", 2)
    for arg, t in (("x", x), ("weight", weight)):
        if t.numpy().dtype.kind != "f" or t.ndim != count + 2:
            raise ValueError(f"{fn}(): argument '{arg}' must be a {count + 2}-D floating-point "
                             f"Tensor, got shape {t.shape} and dtype {t.dtype.name}")
    if x.dtype != weight.dtype:
        raise TypeError(f"{fn}(): x and weight must have the same dtype, got "
                        f"{x.dtype.name} and {weight.dtype.name}")
    groups = check_int(groups, fn, "groups", minimum=1)
    stride = _sizes(stride, count, fn, "stride")
    dilation = _sizes(dilation, count, fn, "dilation")
    if channel_last:
        x = transpose(x, [0, x.ndim - 1] + list(range(1, x.ndim - 1)))
    if count == 1:
        x = reshape(x, [x.shape[0], x.shape[1], 1, x.shape[2]])
        weight = reshape(weight, weight.shape[:2] + [1, weight.shape[2]])
    n, channels = x.shape[:2]
    out_channels, group_channels, kh, kw = weight.shape
    if channels % groups or out_channels % groups or channels // groups != group_channels:
        raise ValueError(f"{fn}(): x has {channels} channels and weight has shape "
                         f"{list(weight.shape)}: with groups={groups} both channel counts must "
                         f"divide by groups and weight's second dimension must be "
                         f"{channels} / groups")
    kernel = [kh, kw] if count == 2 else [kw]
    pairs = _padding(padding, count, x.shape[2:] if count == 2 else x.shape[3:], kernel,
                     stride, fn)
    if count == 1:
        pairs, stride, dilation = [(0, 0)] + pairs, [1] + stride, [1] + dilation
    if isinstance(padding, str) and padding.lower() == "same":
        dilation = [1, 1]
    if any(v for pair in pairs for v in pair):
        x = pad(x, [0, 0, 0, 0] + [v for pair in pairs for v in pair])
    out_sizes = [(size - d * (k - 1) - 1) // s + 1
                 for size, k, s, d in zip(x.shape[2:], (kh, kw), stride, dilation)]
    if min(out_sizes) < 1:
        raise ValueError(f"{fn}(): the kernel {kernel} (dilation {dilation[2 - count:]}) does "
                         f"not fit the padded input of spatial size {x.shape[4 - count:]}")
    rows = (np.arange(out_sizes[0]) * stride[0])[None, None, :, None] + \
        (np.arange(kh) * dilation[0])[:, None, None, None]
    cols = (np.arange(out_sizes[1]) * stride[1])[None, None, None, :] + \
        (np.arange(kw) * dilation[1])[None, :, None, None]
    windows = take(x, (slice(None), slice(None), rows, cols), True, fn)
    windows = reshape(windows, [n, groups, channels // groups, kh, kw] + out_sizes)
    weight = reshape(weight, [groups, out_channels // groups, group_channels, kh, kw])
    out = reshape(einsum("ngcabij,gocab->ngoij", windows, weight),
                  [n, out_channels] + out_sizes)
    if bias is not None:
        bias = as_tensor_arg(bias, fn, "bias", 3)
        if bias.shape != [out_channels]:
            raise ValueError(f"{fn}(): argument 'bias' must have shape [{out_channels}], got "
                             f"{bias.shape}")
        out = add(out, reshape(bias, [1, out_channels, 1, 1]))
    if count == 1:
        out = reshape(out, [n, out_channels, out_sizes[1]])
    if channel_last:
        out = transpose(out, [0] + list(range(2, out.ndim)) + [1])
    return out


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


_PADDING_MODES = {"zeros": None, "reflect": "reflect", "replicate": "replicate"}


class _ConvNd(Layer):
    def __init__(self, count, in_channels, out_channels, kernel_size, stride, padding,
                 dilation, groups, padding_mode, weight_attr, bias_attr, data_format):
        fn = type(self).__name__
        super().__init__(name_scope=fn.lower())
        in_channels = check_int(in_channels, fn, "in_channels", minimum=1)
        out_channels = check_int(out_channels, fn, "out_channels", minimum=1)
        groups = check_int(groups, fn, "groups", minimum=1)
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"{fn}(): in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must divide by groups ({groups})")
        check_choice(padding_mode, fn, "padding_mode", list(_PADDING_MODES))
        kernel = _sizes(kernel_size, count, fn, "kernel_size")
        self._sizes = (_sizes(stride, count, fn, "stride"), _sizes(dilation, count, fn,
                                                                   "dilation"))
        self._in_channels, self._out_channels, self._groups = in_channels, out_channels, groups
        self._kernel_size, self._padding, self._padding_mode = kernel, padding, padding_mode
        self._data_format = data_format
        fan_in = in_channels // groups * int(np.prod(kernel, dtype=np.float64))
        if out_channels * fan_in > MAX_ELEMENTS:
            raise ValueError(f"{fn}(): in_channels, out_channels and kernel_size ask for a "
                             f"weight of {out_channels * fan_in} elements, more than the "
                             f"{MAX_ELEMENTS} a tensor may have")
        self.weight = self.create_parameter(
            [out_channels, in_channels // groups] + kernel,
            attr=ParamAttr._to_attr(weight_attr, fn, "weight_attr"),
            default_initializer=Normal(0.0, (2.0 / fan_in) ** 0.5))
        self.bias = self.create_parameter([out_channels],
                                          attr=ParamAttr._to_attr(bias_attr, fn, "bias_attr"),
                                          is_bias=True)

    def _forward(self, conv, x):
        padding = self._padding
        if self._padding_mode != "zeros" and not isinstance(padding, str):
            count = len(self._kernel_size)
            values = check_ints(padding, type(self).__name__, "padding")
            if len(values) in (1, count):
                values = [v for v in (values * count)[:count] for _ in (0, 1)]
            # F.pad lists the last spatial dimension first
            pairs = [values[2 * i:2 * i + 2] for i in reversed(range(count))]
            x = pad(x, [v for pair in pairs for v in pair],
                    mode=_PADDING_MODES[self._padding_mode], data_format=self._data_format)
            padding = 0
        stride, dilation = self._sizes
        return conv(x, self.weight, self.bias, stride, padding, dilation, self._groups,
                    self._data_format)

    def extra_repr(self):
        return (f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}, "
                f"stride={self._sizes[0]}, padding={self._padding}")


class Conv1D(_ConvNd):
    """1-D convolution layer; see :func:`pylayer.nn.functional.conv1d`.

    The weight ``[out_channels, in_channels / groups, kernel_size]`` starts
    from ``Normal(0, sqrt(2 / fan_in))`` and the bias from zeros, as in
    Paddle. ``padding_mode`` ``'reflect'`` or ``'replicate'`` pads with
    :func:`pylayer.nn.functional.pad` instead of zeros.

    >>> import pylayer
    >>> conv = pylayer.nn.Conv1D(4, 6, 3, padding=1)
    >>> conv.weight.shape, conv(pylayer.ones([2, 4, 10])).shape
    ([6, 4, 3], [2, 6, 10])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        check_choice(data_format, "Conv1D", "data_format", ["NCL", "NLC"])
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format)

    def forward(self, x):
        return self._forward(conv1d, x)


class Conv2D(_ConvNd):
    """2-D convolution layer; see :func:`pylayer.nn.functional.conv2d`.

    The weight ``[out_channels, in_channels / groups, kh, kw]`` starts from
    ``Normal(0, sqrt(2 / fan_in))`` and the bias from zeros, as in Paddle.

    >>> import pylayer
    >>> conv = pylayer.nn.Conv2D(3, 8, 3, stride=2, padding='same')
    >>> conv(pylayer.ones([1, 3, 9, 9])).shape
    [1, 8, 5, 5]
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        check_choice(data_format, "Conv2D", "data_format", ["NCHW", "NHWC"])
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format)

    def forward(self, x):
        return self._forward(conv2d, x)
