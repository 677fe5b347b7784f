"""Paddle's ``paddle.vision.ops``: pylayer has its deformable convolution,
:func:`deform_conv2d` and the layer :class:`DeformConv2D`.

>>> import pylayer
>>> from pylayer.vision.ops import DeformConv2D
>>> layer = DeformConv2D(2, 4, kernel_size=3, padding=1)
>>> x = pylayer.randn([1, 2, 5, 5])
>>> offset = pylayer.zeros([1, 2 * 3 * 3, 5, 5])
>>> layer(x, offset).shape
[1, 4, 5, 5]
"""
import numpy as np

from pylayer.extend import MAX_ELEMENTS, check_int, window_sizes
from pylayer.nn.initializer import Normal
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops.deform_conv import deform_conv2d

__all__ = ["deform_conv2d", "DeformConv2D"]


class DeformConv2D(Layer):
    """A deformable 2-D convolution layer (see :func:`deform_conv2d`) with a
    filter ``weight`` of shape ``[out_channels, in_channels / groups, kh, kw]``
    (He-normal, ``Normal(0, sqrt(2 / (kh * kw * in_channels)))``, unless
    ``weight_attr`` says otherwise) and a ``bias`` of ``out_channels`` zeros
    (none with ``bias_attr=False``). ``forward(x, offset, mask=None)``: with a
    mask it is DCNv2, without DCNv1.

    >>> import pylayer
    >>> from pylayer.vision.ops import DeformConv2D
    >>> layer = DeformConv2D(4, 2, kernel_size=[2, 3], groups=2, deformable_groups=2)
    >>> [(name, p.shape) for name, p in layer.named_parameters()]
    [('weight', [2, 2, 2, 3]), ('bias', [2])]
    >>> x = pylayer.randn([1, 4, 4, 4])
    >>> offset, mask = pylayer.zeros([1, 24, 3, 2]), pylayer.ones([1, 12, 3, 2])
    >>> layer(x, offset, mask).shape
    [1, 2, 3, 2]
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, deformable_groups=1, groups=1, weight_attr=None, bias_attr=None):
        fn = "DeformConv2D"
        super().__init__()
        if weight_attr is False:
            raise ValueError(f"{fn}(): argument 'weight_attr' must not be False: the layer "
                             f"needs its weight")
        in_channels = check_int(in_channels, fn, "in_channels", minimum=1)
        out_channels = check_int(out_channels, fn, "out_channels", minimum=1)
        self._groups = check_int(groups, fn, "groups", minimum=1)
        self._deformable_groups = check_int(deformable_groups, fn, "deformable_groups",
                                            minimum=1)
        if in_channels % self._groups:
            raise ValueError(f"{fn}(): in_channels ({in_channels}) must be divisible by "
                             f"groups ({self._groups})")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = window_sizes(kernel_size, 2, fn, "kernel_size")
        self._stride = window_sizes(stride, 2, fn, "stride")
        self._padding = window_sizes(padding, 2, fn, "padding", minimum=0)
        self._dilation = window_sizes(dilation, 2, fn, "dilation")
        shape = [out_channels, in_channels // self._groups, *self._kernel_size]
        elements = int(np.prod(shape, dtype=np.float64))
        if elements > MAX_ELEMENTS:
            raise ValueError(f"{fn}(): in_channels, out_channels and kernel_size ask for a "
                             f"weight of {elements} elements, more than the {MAX_ELEMENTS} a "
                             f"tensor may have")
        std = (2.0 / (int(np.prod(self._kernel_size)) * in_channels)) ** 0.5
        self.weight = self.create_parameter(
            shape,
            attr=ParamAttr._to_attr(weight_attr, fn, "weight_attr"),
            default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter(
            [out_channels], attr=ParamAttr._to_attr(bias_attr, fn, "bias_attr"), is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding,
                             self._dilation, self._deformable_groups, self._groups, mask)
