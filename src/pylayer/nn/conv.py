"""Convolution layers: ``Conv1D/2D/3D`` and ``Conv1D/2D/3DTranspose``.

Each holds a weight and a bias and calls its functional form in
:mod:`pylayer.ops.convolution`.
"""
import numpy as np

from pylayer.extend import MAX_ELEMENTS, check_choice, check_int, check_ints, window_sizes
from pylayer.nn.initializer import Normal
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops.convolution import (conv1d, conv1d_transpose, conv2d, conv2d_transpose,
                                     conv3d, conv3d_transpose)
from pylayer.ops.folding import check_arguments, fold, unfold
from pylayer.ops.spatial import pad

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
           "Conv3DTranspose", "Conv1d", "Conv2d", "Conv3d", "Fold", "Unfold"]


_PADDING_MODES = {"zeros": None, "reflect": "reflect", "replicate": "replicate"}


class _ConvNd(Layer):
    def __init__(self, count, in_channels, out_channels, kernel_size, stride, padding,
                 dilation, groups, weight_attr, bias_attr, data_format, padding_mode="zeros",
                 transposed=False, output_padding=0, dtype=None):
        fn = type(self).__name__
        super().__init__(name_scope=fn.lower())
        in_channels = check_int(in_channels, fn, "in_channels", minimum=1)
        out_channels = check_int(out_channels, fn, "out_channels", minimum=1)
        groups = check_int(groups, fn, "groups", minimum=1)
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"{fn}(): in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must divide by groups ({groups})")
        check_choice(padding_mode, fn, "padding_mode", list(_PADDING_MODES))
        kernel = window_sizes(kernel_size, count, fn, "kernel_size")
        self._sizes = (window_sizes(stride, count, fn, "stride"),
                       window_sizes(dilation, count, fn, "dilation"))
        self._transposed = transposed
        if transposed:
            self._output_padding = window_sizes(output_padding, count, fn, "output_padding",
                                                minimum=0)
            self._raw_output_padding = output_padding
        self._in_channels, self._out_channels, self._groups = in_channels, out_channels, groups
        self._kernel_size, self._padding, self._padding_mode = kernel, padding, padding_mode
        self._data_format = data_format
        shape = [in_channels, out_channels // groups] if self._transposed else \
            [out_channels, in_channels // groups]
        fan_in = in_channels // groups * int(np.prod(kernel, dtype=np.float64))
        if int(np.prod(shape + kernel, dtype=np.float64)) > MAX_ELEMENTS:
            raise ValueError(f"{fn}(): in_channels, out_channels and kernel_size ask for a "
                             f"weight of {int(np.prod(shape + kernel, dtype=np.float64))} "
                             f"elements, more than the {MAX_ELEMENTS} a tensor may have")
        # Paddle: He-normal for a convolution, the default (Xavier-uniform) for a transpose
        initializer = None if self._transposed else Normal(0.0, (2.0 / fan_in) ** 0.5)
        self.weight = self.create_parameter(
            shape + kernel, attr=ParamAttr._to_attr(weight_attr, fn, "weight_attr"),
            dtype=dtype, default_initializer=initializer)
        self.bias = self.create_parameter([out_channels],
                                          attr=ParamAttr._to_attr(bias_attr, fn, "bias_attr"),
                                          dtype=dtype, is_bias=True)

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

    def _forward_transposed(self, conv_transpose, x, output_size):
        stride, dilation = self._sizes
        return conv_transpose(x, self.weight, self.bias, stride=stride, padding=self._padding,
                              output_padding=0 if output_size is not None
                              else self._output_padding, dilation=dilation,
                              groups=self._groups, output_size=output_size,
                              data_format=self._data_format)

    def extra_repr(self):
        """Paddle's: the settings that differ from their defaults."""
        count = len(self._kernel_size)
        text = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        stride, dilation = self._sizes
        if stride != [1] * count:
            text += f", stride={stride}"
        if self._padding != 0:
            text += f", padding={self._padding}"
        if self._transposed and self._output_padding != [0] * count:
            text += f", output_padding={self._raw_output_padding}"
        if dilation != [1] * count:
            text += f", dilation={dilation}"
        if self._groups != 1:
            text += f", groups={self._groups}"
        return text + f", data_format={self._data_format}"


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
                         groups, weight_attr, bias_attr, data_format, padding_mode)

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
                         groups, weight_attr, bias_attr, data_format, padding_mode)

    def forward(self, x):
        return self._forward(conv2d, x)


class Conv1DTranspose(_ConvNd):
    """1-D transposed convolution layer; see :func:`pylayer.nn.functional.conv1d_transpose`.

    The weight ``[in_channels, out_channels / groups, kernel_size]`` starts
    from ``XavierUniform`` and the bias from zeros, as in Paddle.
    ``forward(x, output_size=None)`` may pick the output length.

    >>> import pylayer
    >>> up = pylayer.nn.Conv1DTranspose(4, 2, 3, stride=2, padding=1, output_padding=1)
    >>> up.weight.shape, up(pylayer.ones([1, 4, 5])).shape
    ([4, 2, 3], [1, 2, 10])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        check_choice(data_format, "Conv1DTranspose", "data_format", ["NCL", "NLC"])
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, weight_attr, bias_attr, data_format, transposed=True,
                         output_padding=output_padding)

    def forward(self, x, output_size=None):
        return self._forward_transposed(conv1d_transpose, x, output_size)


class Conv2DTranspose(_ConvNd):
    """2-D transposed convolution layer; see :func:`pylayer.nn.functional.conv2d_transpose`.

    The weight ``[in_channels, out_channels / groups, kh, kw]`` starts from
    ``XavierUniform`` and the bias from zeros, as in Paddle.
    ``forward(x, output_size=None)`` may pick the output size.

    >>> import pylayer
    >>> up = pylayer.nn.Conv2DTranspose(8, 4, 3, stride=2, padding=1)
    >>> up(pylayer.ones([1, 8, 5, 5])).shape, up(pylayer.ones([1, 8, 5, 5]), [10, 10]).shape
    ([1, 4, 9, 9], [1, 4, 10, 10])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        check_choice(data_format, "Conv2DTranspose", "data_format", ["NCHW", "NHWC"])
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, weight_attr, bias_attr, data_format, transposed=True,
                         output_padding=output_padding)

    def forward(self, x, output_size=None):
        return self._forward_transposed(conv2d_transpose, x, output_size)


class Conv3D(_ConvNd):
    """3-D convolution layer; see :func:`pylayer.nn.functional.conv3d`.

    The weight ``[out_channels, in_channels / groups, kd, kh, kw]`` starts
    from ``Normal(0, sqrt(2 / fan_in))`` and the bias from zeros, as in
    Paddle. ``bias=False`` leaves the bias out (as ``bias_attr=False``);
    ``dtype`` is the parameters' (default: the default dtype); ``device`` is
    accepted for Paddle's signature (pylayer computes on the CPU).
    ``padding_mode`` ``'reflect'`` or ``'replicate'`` pads with
    :func:`pylayer.nn.functional.pad` instead of zeros.

    >>> import pylayer
    >>> conv = pylayer.nn.Conv3D(2, 4, 3, padding=1)
    >>> conv.weight.shape, conv(pylayer.ones([1, 2, 4, 5, 6])).shape
    ([4, 2, 3, 3, 3], [1, 4, 4, 5, 6])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, *, bias=True, padding_mode="zeros", device=None,
                 dtype=None, weight_attr=None, bias_attr=None, data_format="NCDHW"):
        check_choice(data_format, "Conv3D", "data_format", ["NCDHW", "NDHWC"])
        if bias.__class__ is not bool:
            raise TypeError(f"Conv3D(): argument 'bias' must be a bool, got "
                            f"{type(bias).__name__}")
        super().__init__(3, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, weight_attr, bias_attr if bias else False, data_format,
                         padding_mode, dtype=dtype)

    def forward(self, x):
        return self._forward(conv3d, x)


class Conv3DTranspose(_ConvNd):
    """3-D transposed convolution layer; see
    :func:`pylayer.nn.functional.conv3d_transpose`.

    The weight ``[in_channels, out_channels / groups, kd, kh, kw]`` starts
    from ``XavierUniform`` and the bias from zeros, as in Paddle.
    ``forward(x, output_size=None)`` may pick the output size.

    >>> import pylayer
    >>> up = pylayer.nn.Conv3DTranspose(4, 2, 2, stride=2)
    >>> up.weight.shape, up(pylayer.ones([1, 4, 2, 3, 3])).shape
    ([4, 2, 2, 2, 2], [1, 2, 4, 6, 6])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        check_choice(data_format, "Conv3DTranspose", "data_format", ["NCDHW", "NDHWC"])
        super().__init__(3, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, weight_attr, bias_attr, data_format, transposed=True,
                         output_padding=output_padding)

    def forward(self, x, output_size=None):
        return self._forward_transposed(conv3d_transpose, x, output_size)


class Fold(Layer):
    """Layer form of :func:`pylayer.nn.functional.fold` (col2im).

    >>> import pylayer
    >>> pylayer.nn.Fold([3, 3], 2)(pylayer.ones([1, 8, 4])).shape
    [1, 2, 3, 3]
    """

    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1,
                 name=None):
        super().__init__()
        check_arguments(kernel_sizes, strides, paddings, dilations, "Fold", output_sizes)
        self._output_sizes, self._kernel_sizes = output_sizes, kernel_sizes
        self._dilations, self._paddings, self._strides = dilations, paddings, strides

    def forward(self, input):
        return fold(input, self._output_sizes, self._kernel_sizes, self._strides,
                    self._paddings, self._dilations)

    def extra_repr(self):
        return f"kernel_size={self._kernel_sizes}, dilation={self._dilations}, " \
               f"padding={self._paddings}, stride={self._strides}"


class Unfold(Layer):
    """Layer form of :func:`pylayer.nn.functional.unfold` (im2col).

    >>> import pylayer
    >>> pylayer.nn.Unfold(2)(pylayer.ones([1, 2, 3, 3])).shape
    [1, 8, 4]
    """

    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        check_arguments(kernel_sizes, strides, paddings, dilations, "Unfold")
        self._kernel_sizes, self._dilations = kernel_sizes, dilations
        self._paddings, self._strides = paddings, strides

    def forward(self, input):
        return unfold(input, self._kernel_sizes, self._strides, self._paddings,
                      self._dilations)

    def extra_repr(self):
        return f"kernel_size={self._kernel_sizes}, dilation={self._dilations}, " \
               f"padding={self._paddings}, stride={self._strides}"


# Paddle 3.3.1 exports PyTorch's spellings as the same classes
Conv1d = Conv1D
Conv2d = Conv2D
Conv3d = Conv3D
