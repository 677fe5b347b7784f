"""Convolutions: ``conv1d``, ``conv2d``, their transposes and the four layers.

The arguments are checked here, in Paddle's forms, into a
:class:`~pylayer.nn._convolution.Geometry`; the computation is the three
recorded ops of :mod:`pylayer.nn._convolution` (one batched matrix product
over a lowered buffer each). A transposed convolution is the gradient of a
convolution for its input, run forward. A 1-D convolution is a 2-D one over
a height of 1.
"""
import numpy as np

from pylayer.nn._convolution import Geometry, convolution, input_gradient
from pylayer.nn._window_args import is_same, window_padding, window_sizes
from pylayer.nn.initializer import Normal
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.nn.spatial import pad
from pylayer.ops._arguments import MAX_ELEMENTS, check_choice, check_int, check_ints
from pylayer.ops.arithmetic import add
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops._shape import reshape
from pylayer.ops.dispatch import op

__all__ = ["conv1d", "conv2d", "conv1d_transpose", "conv2d_transpose", "Conv1D", "Conv2D",
           "Conv1DTranspose", "Conv2DTranspose"]


def _operands(x, weight, count, fn):
    """``x`` and ``weight`` as floating-point Tensors of rank ``count + 2`` and one dtype."""
    x = as_tensor_arg(x, fn, "x", 1)
    weight = as_tensor_arg(weight, fn, "weight", 2)
    for arg, t in (("x", x), ("weight", weight)):
        if t.numpy().dtype.kind != "f" or t.ndim != count + 2:
            raise ValueError(f"{fn}(): argument '{arg}' must be a {count + 2}-D floating-point "
                             f"Tensor, got shape {t.shape} and dtype {t.dtype.name}")
    if x.dtype != weight.dtype:
        raise TypeError(f"{fn}(): x and weight must have the same dtype, got "
                        f"{x.dtype.name} and {weight.dtype.name}")
    return x, weight


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


def _geometry(fn, count, channel_last, batch, image, out, groups, kernel, stride, pairs,
              dilation):
    """A Geometry from per-dimension lists; a 1-D convolution is a 2-D one of height 1."""
    if count == 1:
        image, out, kernel = image[:1] + [1] + image[1:], out[:1] + [1] + out[1:], [1] + kernel
        stride, pairs, dilation = [1] + stride, [(0, 0)] + pairs, [1] + dilation
    return Geometry(fn, count, channel_last, batch, image[0], *image[1:], out[0], *out[1:],
                    groups, tuple(kernel), tuple(stride), tuple(p[0] for p in pairs),
                    tuple(dilation))


def _conv(x, weight, bias, stride, padding, dilation, groups, channel_last, count, fn):
    """The shared body of conv1d and conv2d (``count`` spatial dimensions)."""
    x, weight = _operands(x, weight, count, fn)
    groups = check_int(groups, fn, "groups", minimum=1)
    stride = window_sizes(stride, count, fn, "stride")
    dilation = window_sizes(dilation, count, fn, "dilation")
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
    geo = _geometry(fn, count, channel_last, x.shape[0], [channels] + in_sizes,
                    [out_channels] + out_sizes, groups, kernel, stride, pairs, dilation)
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
    x, weight = _operands(x, weight, count, fn)
    groups = check_int(groups, fn, "groups", minimum=1)
    stride = window_sizes(stride, count, fn, "stride")
    dilation = window_sizes(dilation, count, fn, "dilation")
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
    geo = _geometry(fn, count, channel_last, x.shape[0], [out_channels] + out_sizes,
                    [in_channels] + in_sizes, groups, kernel, stride, pairs, dilation)
    out = input_gradient(x, weight, geo, name=fn)
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


_PADDING_MODES = {"zeros": None, "reflect": "reflect", "replicate": "replicate"}


class _ConvNd(Layer):
    def __init__(self, count, in_channels, out_channels, kernel_size, stride, padding,
                 dilation, groups, weight_attr, bias_attr, data_format, padding_mode="zeros",
                 transposed=False, output_padding=0):
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
            default_initializer=initializer)
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

    def _forward_transposed(self, conv_transpose, x, output_size):
        stride, dilation = self._sizes
        return conv_transpose(x, self.weight, self.bias, stride=stride, padding=self._padding,
                              output_padding=0 if output_size is not None
                              else self._output_padding, dilation=dilation,
                              groups=self._groups, output_size=output_size,
                              data_format=self._data_format)

    def extra_repr(self):
        text = (f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}, "
                f"stride={self._sizes[0]}, padding={self._padding}")
        if self._transposed:
            text += f", output_padding={self._output_padding}"
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
