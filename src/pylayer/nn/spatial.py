"""Layers that reshape, resample or compare: ``PixelShuffle``, ``PixelUnshuffle``,
``ChannelShuffle``, ``Flatten``, ``Unflatten``, ``Upsample`` (and its two fixed
forms), ``Bilinear``, ``CosineSimilarity`` and ``PairwiseDistance``. Their
functional forms are in :mod:`pylayer.ops.spatial`.
"""
from pylayer.extend import (Tensor, check_choice, check_count, check_int, check_ints,
                            check_number)
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops.assembly import unflatten
from pylayer.ops.shape import flatten
from pylayer.ops.spatial import (bilinear, channel_shuffle, cosine_similarity, interpolate,
                                 pairwise_distance, pixel_shuffle, pixel_unshuffle)

__all__ = ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Flatten", "Unflatten",
           "Upsample", "UpsamplingNearest2D", "UpsamplingBilinear2D", "UpsamplingNearest2d",
           "UpsamplingBilinear2d", "Bilinear", "CosineSimilarity", "PairwiseDistance"]


class PixelShuffle(Layer):
    """Layer form of :func:`pylayer.nn.functional.pixel_shuffle`.

    >>> import pylayer
    >>> pylayer.nn.PixelShuffle(2)(pylayer.zeros([1, 8, 3, 3])).shape
    [1, 2, 6, 6]
    """

    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__()
        self.upscale_factor = check_int(upscale_factor, "PixelShuffle", "upscale_factor",
                                        minimum=1)
        check_count(self.upscale_factor ** 2, "PixelShuffle", "upscale_factor")
        self.data_format = check_choice(data_format, "PixelShuffle", "data_format",
                                        ["NCHW", "NHWC"])

    def forward(self, x):
        return pixel_shuffle(x, self.upscale_factor, self.data_format)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


def _format_repr(data_format, name):
    return ((f", data_format={data_format}" if data_format != "NCHW" else "")
            + (f", name={name}" if name else ""))


class PixelUnshuffle(Layer):
    """Layer form of :func:`pylayer.nn.functional.pixel_unshuffle`.

    >>> import pylayer
    >>> pylayer.nn.PixelUnshuffle(2)(pylayer.zeros([1, 2, 6, 6])).shape
    [1, 8, 3, 3]
    """

    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        super().__init__()
        fn = "PixelUnshuffle"
        self._downscale_factor = check_int(downscale_factor, fn, "downscale_factor", minimum=1)
        check_count(self._downscale_factor ** 2, fn, "downscale_factor")
        self._data_format = check_choice(data_format, fn, "data_format", ["NCHW", "NHWC"])
        self._name = name

    def forward(self, x):
        return pixel_unshuffle(x, self._downscale_factor, self._data_format)

    def extra_repr(self):
        return (f"downscale_factor={self._downscale_factor}"
                f"{_format_repr(self._data_format, self._name)}")


class ChannelShuffle(Layer):
    """Layer form of :func:`pylayer.nn.functional.channel_shuffle`.

    >>> import pylayer
    >>> pylayer.nn.ChannelShuffle(3)(pylayer.zeros([1, 6, 2, 2])).shape
    [1, 6, 2, 2]
    """

    def __init__(self, groups, data_format="NCHW", name=None):
        super().__init__()
        self._groups = check_int(groups, "ChannelShuffle", "groups", minimum=1)
        check_count(self._groups, "ChannelShuffle", "groups")
        self._data_format = check_choice(data_format, "ChannelShuffle", "data_format",
                                         ["NCHW", "NHWC"])
        self._name = name

    def forward(self, x):
        return channel_shuffle(x, self._groups, self._data_format)

    def extra_repr(self):
        return f"groups={self._groups}{_format_repr(self._data_format, self._name)}"


class Flatten(Layer):
    """Join the axes ``start_axis`` to ``stop_axis`` (:func:`pylayer.flatten`).

    >>> import pylayer
    >>> pylayer.nn.Flatten()(pylayer.zeros([2, 3, 4])).shape
    [2, 12]
    """

    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis = check_int(start_axis, "Flatten", "start_axis")
        self.stop_axis = check_int(stop_axis, "Flatten", "stop_axis")

    def forward(self, input):
        return flatten(input, self.start_axis, self.stop_axis)


class Unflatten(Layer):
    """Split ``axis`` into the dimensions ``shape`` (:func:`pylayer.unflatten`).

    >>> import pylayer
    >>> pylayer.nn.Unflatten(1, [2, -1])(pylayer.zeros([3, 8])).shape
    [3, 2, 4]
    """

    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis = check_int(axis, "Unflatten", "axis")
        if not isinstance(shape, Tensor):
            check_ints(shape, "Unflatten", "shape")
        self.shape = shape
        self.name = name

    def forward(self, input):
        return unflatten(input, self.axis, self.shape)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"axis={self.axis}, shape={self.shape}{name}"


class Upsample(Layer):
    """Layer form of :func:`pylayer.nn.functional.interpolate`.

    >>> import pylayer
    >>> pylayer.nn.Upsample(scale_factor=2, mode='bilinear')(pylayer.zeros([1, 1, 2, 3])).shape
    [1, 1, 4, 6]
    """

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, recompute_scale_factor=None, name=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode.lower() if isinstance(mode, str) else mode
        self.align_corners = align_corners
        self.align_mode = align_mode
        self.data_format = data_format
        self.recompute_scale_factor = recompute_scale_factor
        self.name = name

    def forward(self, x):
        return interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                           self.align_mode, self.data_format, self.recompute_scale_factor)

    def extra_repr(self):
        first = (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                 else f"size={self.size}")
        name = f", name={self.name}" if self.name else ""
        return (f"{first}, mode={self.mode}, align_corners={self.align_corners}, "
                f"align_mode={self.align_mode}, data_format={self.data_format}{name}")


class _FixedUpsampling(Layer):
    _mode = "nearest"

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.data_format = data_format
        self.name = name

    def forward(self, x):
        return interpolate(x, self.size, self.scale_factor, self._mode,
                           self._mode == "bilinear", 0, self.data_format)

    def extra_repr(self):
        first = (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                 else f"size={self.size}")
        name = f", name={self.name}" if self.name else ""
        return f"{first}, data_format={self.data_format}{name}"


class UpsamplingNearest2D(_FixedUpsampling):
    """Resize images by taking the nearest pixel (``interpolate(mode='nearest')``).

    >>> import pylayer
    >>> pylayer.nn.UpsamplingNearest2D(scale_factor=2)(pylayer.ones([1, 1, 2, 3])).shape
    [1, 1, 4, 6]
    """
    _mode = "nearest"


class UpsamplingBilinear2D(_FixedUpsampling):
    """Resize images bilinearly with the corners aligned
    (``interpolate(mode='bilinear', align_corners=True)``).

    >>> import pylayer
    >>> x = pylayer.to_tensor([[[[0.0, 1.0]]]])
    >>> pylayer.nn.UpsamplingBilinear2D(size=[1, 3])(x)
    Tensor(shape=[1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[[[0. , 0.5, 1. ]]]])
    """
    _mode = "bilinear"


UpsamplingNearest2d = UpsamplingNearest2D
UpsamplingBilinear2d = UpsamplingBilinear2D


class Bilinear(Layer):
    """``out = x1 @ weight[o] @ x2 + bias`` for each output feature ``o``
    (:func:`pylayer.nn.functional.bilinear`). ``weight`` is
    ``[out_features, in1_features, in2_features]`` (Xavier-uniform by default),
    ``bias`` ``[1, out_features]`` (zeros).

    >>> import pylayer
    >>> layer = pylayer.nn.Bilinear(3, 2, 4)
    >>> layer.weight.shape, layer.bias.shape
    ([4, 3, 2], [1, 4])
    >>> layer(pylayer.ones([5, 3]), pylayer.ones([5, 2])).shape
    [5, 4]
    """

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None,
                 bias_attr=None, name=None):
        super().__init__()
        for arg, value in (("in1_features", in1_features), ("in2_features", in2_features),
                           ("out_features", out_features)):
            check_count(check_int(value, "Bilinear", arg, minimum=1), "Bilinear", arg)
        check_count(in1_features * in2_features * out_features, "Bilinear", "out_features")
        self._in1_features = in1_features
        self._in2_features = in2_features
        self._out_features = out_features
        self._name = name
        weight_attr = ParamAttr._to_attr(weight_attr, "Bilinear", "weight_attr")
        bias_attr = ParamAttr._to_attr(bias_attr, "Bilinear", "bias_attr")
        self.weight = self.create_parameter([out_features, in1_features, in2_features],
                                            attr=weight_attr)
        self.bias = self.create_parameter([1, out_features], attr=bias_attr, is_bias=True)

    def forward(self, x1, x2):
        return bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}{name}")


class CosineSimilarity(Layer):
    """Layer form of :func:`pylayer.nn.functional.cosine_similarity`.

    >>> import pylayer
    >>> pylayer.nn.CosineSimilarity(axis=0)(pylayer.ones([3, 2]), pylayer.ones([3, 2]))
    Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
           [1., 1.])
    """

    def __init__(self, axis=1, eps=1e-8):
        super().__init__()
        self._axis = check_int(axis, "CosineSimilarity", "axis")
        self._eps = check_number(eps, "CosineSimilarity", "eps")

    def forward(self, x1, x2):
        return cosine_similarity(x1, x2, self._axis, self._eps)

    def extra_repr(self):
        return f"axis={self._axis}, eps={self._eps}"


class PairwiseDistance(Layer):
    """Layer form of :func:`pylayer.nn.functional.pairwise_distance`.

    >>> import pylayer
    >>> pylayer.nn.PairwiseDistance(epsilon=0.0)(pylayer.to_tensor([[3.0, 4.0]]),
    ...                                          pylayer.zeros([1, 2]))
    Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True,
           [5.])
    """

    def __init__(self, p=2.0, epsilon=1e-6, keepdim=False, name=None):
        super().__init__()
        self.p = check_number(p, "PairwiseDistance", "p")
        self.epsilon = check_number(epsilon, "PairwiseDistance", "epsilon")
        self.keepdim = keepdim
        self.name = name

    def forward(self, x, y):
        return pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self):
        return (f"p={self.p}" + (f", epsilon={self.epsilon}" if self.epsilon != 1e-6 else "")
                + (", keepdim=True" if self.keepdim else "")
                + (f", name={self.name}" if self.name else ""))
