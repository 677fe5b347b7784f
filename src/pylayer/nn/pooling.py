"""Pooling layers: ``MaxPool1D/2D/3D``, ``AvgPool1D/2D/3D``, ``AdaptiveAvgPool1D/2D/3D``,
``AdaptiveMaxPool1D/2D/3D``, ``MaxUnPool1D/2D/3D``, ``LPPool1D/2D`` and
``FractionalMaxPool2D/3D``.

Each calls its functional form in :mod:`pylayer.ops.pooling`, whose
documentation states the rules.
"""
from pylayer.extend import check_choice, check_number, window_padding, window_sizes
from pylayer.nn.layer import Layer
from pylayer.ops.pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d,
                                 adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d,
                                 adaptive_output_sizes, avg_pool1d, avg_pool2d, avg_pool3d,
                                 fractional_max_pool2d, fractional_max_pool3d, lp_pool1d, lp_pool2d, max_pool1d, max_pool2d, max_pool3d,
                                 max_unpool1d, max_unpool2d, max_unpool3d)

__all__ = ["MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
           "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
           "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "MaxUnPool1D", "MaxUnPool2D",
           "MaxUnPool3D", "LPPool1D", "LPPool2D", "FractionalMaxPool2D", "FractionalMaxPool3D",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d"]


class _Pool(Layer):
    def __init__(self, count, kernel_size, stride, padding, **options):
        super().__init__()
        fn = type(self).__name__
        kernel = window_sizes(kernel_size, count, fn, "kernel_size")
        steps = kernel if stride is None else window_sizes(stride, count, fn, "stride")
        window_padding(padding, count, [1] * count, kernel, steps,
                       options.get("data_format") in ("NLC", "NHWC", "NDHWC"),
                       fn)   # checks its form
        self._kernel_size, self._stride, self._padding = kernel_size, stride, padding
        self._options = options

    def extra_repr(self):
        return f"kernel_size={self._kernel_size}, stride={self._stride}, " \
               f"padding={self._padding}"


class MaxPool1D(_Pool):
    """Layer form of :func:`pylayer.nn.functional.max_pool1d`.

    >>> import pylayer
    >>> pylayer.nn.MaxPool1D(2)(pylayer.ones([2, 3, 8])).shape
    [2, 3, 4]
    """

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False,
                 ceil_mode=False, name=None):
        super().__init__(1, kernel_size, stride, padding, return_mask=return_mask,
                         ceil_mode=ceil_mode)

    def forward(self, input):
        return max_pool1d(input, self._kernel_size, self._stride, self._padding, **self._options)


class MaxPool2D(_Pool):
    """Layer form of :func:`pylayer.nn.functional.max_pool2d`.

    >>> import pylayer
    >>> pylayer.nn.MaxPool2D(2)(pylayer.ones([2, 3, 8, 8])).shape
    [2, 3, 4, 4]
    """

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False,
                 ceil_mode=False, data_format="NCHW", name=None):
        check_choice(data_format, "MaxPool2D", "data_format", ["NCHW", "NHWC"])
        super().__init__(2, kernel_size, stride, padding, return_mask=return_mask,
                         ceil_mode=ceil_mode, data_format=data_format)

    def forward(self, x):
        return max_pool2d(x, self._kernel_size, self._stride, self._padding, **self._options)


class AvgPool1D(_Pool):
    """Layer form of :func:`pylayer.nn.functional.avg_pool1d`.

    >>> import pylayer
    >>> pylayer.nn.AvgPool1D(3, stride=1, padding=1)(pylayer.ones([1, 1, 4])).numpy()
    array([[[1., 1., 1., 1.]]], dtype=float32)
    """

    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
                 name=None):
        super().__init__(1, kernel_size, stride, padding, exclusive=exclusive,
                         ceil_mode=ceil_mode)

    def forward(self, x):
        return avg_pool1d(x, self._kernel_size, self._stride, self._padding, **self._options)


class AvgPool2D(_Pool):
    """Layer form of :func:`pylayer.nn.functional.avg_pool2d`.

    >>> import pylayer
    >>> pylayer.nn.AvgPool2D(2)(pylayer.ones([2, 3, 8, 8])).shape
    [2, 3, 4, 4]
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCHW", name=None):
        check_choice(data_format, "AvgPool2D", "data_format", ["NCHW", "NHWC"])
        super().__init__(2, kernel_size, stride, padding, ceil_mode=ceil_mode,
                         exclusive=exclusive, divisor_override=divisor_override,
                         data_format=data_format)

    def forward(self, x):
        return avg_pool2d(x, self._kernel_size, self._stride, self._padding, **self._options)


class AdaptiveAvgPool1D(Layer):
    """Layer form of :func:`pylayer.nn.functional.adaptive_avg_pool1d`.

    >>> import pylayer
    >>> pylayer.nn.AdaptiveAvgPool1D(1)(pylayer.ones([2, 3, 7])).shape
    [2, 3, 1]
    """

    def __init__(self, output_size, name=None):
        super().__init__()
        (self._output_size,) = adaptive_output_sizes(output_size, 1, [1], "AdaptiveAvgPool1D")

    def forward(self, input):
        return adaptive_avg_pool1d(input, self._output_size)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class AdaptiveAvgPool2D(Layer):
    """Layer form of :func:`pylayer.nn.functional.adaptive_avg_pool2d`.

    >>> import pylayer
    >>> pylayer.nn.AdaptiveAvgPool2D([1, 2])(pylayer.ones([2, 3, 4, 4])).shape
    [2, 3, 1, 2]
    """

    def __init__(self, output_size, data_format="NCHW", name=None):
        super().__init__()
        adaptive_output_sizes(output_size, 2, [1, 1], "AdaptiveAvgPool2D")
        self._output_size = output_size
        self._data_format = check_choice(data_format, "AdaptiveAvgPool2D", "data_format",
                                         ["NCHW", "NHWC"])

    def forward(self, x):
        return adaptive_avg_pool2d(x, self._output_size, self._data_format)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class MaxPool3D(_Pool):
    """Layer form of :func:`pylayer.nn.functional.max_pool3d`.

    >>> import pylayer
    >>> pylayer.nn.MaxPool3D(2)(pylayer.ones([2, 3, 4, 4, 4])).shape
    [2, 3, 2, 2, 2]
    """

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False,
                 ceil_mode=False, data_format="NCDHW", name=None):
        check_choice(data_format, "MaxPool3D", "data_format", ["NCDHW", "NDHWC"])
        super().__init__(3, kernel_size, stride, padding, return_mask=return_mask,
                         ceil_mode=ceil_mode, data_format=data_format)

    def forward(self, x):
        return max_pool3d(x, self._kernel_size, self._stride, self._padding, **self._options)


class AvgPool3D(_Pool):
    """Layer form of :func:`pylayer.nn.functional.avg_pool3d`.

    >>> import pylayer
    >>> pylayer.nn.AvgPool3D(2)(pylayer.ones([2, 3, 4, 4, 4])).shape
    [2, 3, 2, 2, 2]
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCDHW", name=None):
        check_choice(data_format, "AvgPool3D", "data_format", ["NCDHW", "NDHWC"])
        super().__init__(3, kernel_size, stride, padding, ceil_mode=ceil_mode,
                         exclusive=exclusive, divisor_override=divisor_override,
                         data_format=data_format)

    def forward(self, x):
        return avg_pool3d(x, self._kernel_size, self._stride, self._padding, **self._options)


class AdaptiveAvgPool3D(Layer):
    """Layer form of :func:`pylayer.nn.functional.adaptive_avg_pool3d`.

    >>> import pylayer
    >>> pylayer.nn.AdaptiveAvgPool3D([1, None, 2])(pylayer.ones([2, 3, 4, 4, 4])).shape
    [2, 3, 1, 4, 2]
    """

    def __init__(self, output_size, data_format="NCDHW", name=None):
        super().__init__()
        adaptive_output_sizes(output_size, 3, [1, 1, 1], "AdaptiveAvgPool3D")
        self._output_size = output_size
        self._data_format = check_choice(data_format, "AdaptiveAvgPool3D", "data_format",
                                         ["NCDHW", "NDHWC"])

    def forward(self, x):
        return adaptive_avg_pool3d(x, self._output_size, self._data_format)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class _AdaptiveMaxPool(Layer):
    def __init__(self, count, output_size, return_mask):
        super().__init__()
        adaptive_output_sizes(output_size, count, [1] * count, type(self).__name__)
        self._output_size, self._return_mask = output_size, return_mask

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class AdaptiveMaxPool1D(_AdaptiveMaxPool):
    """Layer form of :func:`pylayer.nn.functional.adaptive_max_pool1d`.

    >>> import pylayer
    >>> pylayer.nn.AdaptiveMaxPool1D(2)(pylayer.ones([2, 3, 7])).shape
    [2, 3, 2]
    """

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(1, output_size, return_mask)

    def forward(self, input):
        return adaptive_max_pool1d(input, self._output_size, self._return_mask)


class AdaptiveMaxPool2D(_AdaptiveMaxPool):
    """Layer form of :func:`pylayer.nn.functional.adaptive_max_pool2d`.

    >>> import pylayer
    >>> pylayer.nn.AdaptiveMaxPool2D([1, 2])(pylayer.ones([2, 3, 4, 4])).shape
    [2, 3, 1, 2]
    """

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(2, output_size, return_mask)

    def forward(self, x):
        return adaptive_max_pool2d(x, self._output_size, self._return_mask)


class AdaptiveMaxPool3D(_AdaptiveMaxPool):
    """Layer form of :func:`pylayer.nn.functional.adaptive_max_pool3d`.

    >>> import pylayer
    >>> pylayer.nn.AdaptiveMaxPool3D(1)(pylayer.ones([2, 3, 4, 4, 4])).shape
    [2, 3, 1, 1, 1]
    """

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(3, output_size, return_mask)

    def forward(self, x):
        return adaptive_max_pool3d(x, self._output_size, self._return_mask)


class _MaxUnPool(Layer):
    def __init__(self, count, kernel_size, stride, padding, data_format, output_size, layout):
        super().__init__()
        fn = type(self).__name__
        window_sizes(kernel_size, count, fn, "kernel_size")
        if stride is not None:
            window_sizes(stride, count, fn, "stride")
        window_sizes(padding, count, fn, "padding", minimum=0)
        check_choice(data_format, fn, "data_format", [layout])
        self._kernel_size, self._stride, self._padding = kernel_size, stride, padding
        self._data_format, self._output_size = data_format, output_size

    def _unpool(self, unpool, x, indices, output_size):
        return unpool(x, indices, self._kernel_size, self._stride, self._padding,
                      self._data_format,
                      self._output_size if output_size is None else output_size)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class MaxUnPool1D(_MaxUnPool):
    """Layer form of :func:`pylayer.nn.functional.max_unpool1d`; ``forward(x, indices,
    output_size=None)`` may override the layer's ``output_size``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> out, mask = F.max_pool1d(pylayer.rand([1, 2, 6]), 2, return_mask=True)
    >>> pylayer.nn.MaxUnPool1D(2)(out, mask).shape
    [1, 2, 6]
    """

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
        super().__init__(1, kernel_size, stride, padding, data_format, output_size, "NCL")

    def forward(self, x, indices, output_size=None):
        return self._unpool(max_unpool1d, x, indices, output_size)


class MaxUnPool2D(_MaxUnPool):
    """Layer form of :func:`pylayer.nn.functional.max_unpool2d`; ``forward(x, indices,
    output_size=None)`` may override the layer's ``output_size``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> out, mask = F.max_pool2d(pylayer.rand([1, 2, 4, 6]), 2, return_mask=True)
    >>> pylayer.nn.MaxUnPool2D(2)(out, mask).shape
    [1, 2, 4, 6]
    """

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
        super().__init__(2, kernel_size, stride, padding, data_format, output_size, "NCHW")

    def forward(self, x, indices, output_size=None):
        return self._unpool(max_unpool2d, x, indices, output_size)


class MaxUnPool3D(_MaxUnPool):
    """Layer form of :func:`pylayer.nn.functional.max_unpool3d`; ``forward(x, indices,
    output_size=None)`` may override the layer's ``output_size``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> out, mask = F.max_pool3d(pylayer.rand([1, 2, 4, 4, 6]), 2, return_mask=True)
    >>> pylayer.nn.MaxUnPool3D(2)(out, mask).shape
    [1, 2, 4, 4, 6]
    """

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
        super().__init__(3, kernel_size, stride, padding, data_format, output_size, "NCDHW")

    def forward(self, x, indices, output_size=None):
        return self._unpool(max_unpool3d, x, indices, output_size)


class _LPPool(_Pool):
    def __init__(self, count, norm_type, kernel_size, stride, padding, ceil_mode, data_format):
        super().__init__(count, kernel_size, stride, padding, ceil_mode=ceil_mode,
                         data_format=data_format)
        self._norm_type = float(check_number(norm_type, type(self).__name__, "norm_type"))

    def extra_repr(self):
        return f"norm_type={self._norm_type}, " + super().extra_repr()


class LPPool1D(_LPPool):
    """Layer form of :func:`pylayer.nn.functional.lp_pool1d`.

    >>> import pylayer
    >>> pylayer.nn.LPPool1D(2, 3, stride=2)(pylayer.ones([1, 2, 7])).shape
    [1, 2, 3]
    """

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCL", name=None):
        check_choice(data_format, "LPPool1D", "data_format", ["NCL", "NLC"])
        super().__init__(1, norm_type, kernel_size, stride, padding, ceil_mode, data_format)

    def forward(self, x):
        return lp_pool1d(x, self._norm_type, self._kernel_size, self._stride, self._padding,
                         **self._options)


class LPPool2D(_LPPool):
    """Layer form of :func:`pylayer.nn.functional.lp_pool2d`.

    >>> import pylayer
    >>> pylayer.nn.LPPool2D(1, 2)(pylayer.ones([1, 2, 4, 4])).numpy()[0, 0]
    array([[4., 4.],
           [4., 4.]], dtype=float32)
    """

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCHW", name=None):
        check_choice(data_format, "LPPool2D", "data_format", ["NCHW", "NHWC"])
        super().__init__(2, norm_type, kernel_size, stride, padding, ceil_mode, data_format)

    def forward(self, x):
        return lp_pool2d(x, self._norm_type, self._kernel_size, self._stride, self._padding,
                         **self._options)


class _FractionalMaxPool(_AdaptiveMaxPool):
    def __init__(self, count, output_size, kernel_size, random_u, return_mask):
        super().__init__(count, output_size, return_mask)
        fn = type(self).__name__
        if kernel_size is not None:
            window_sizes(kernel_size, count, fn, "kernel_size")
        if random_u is not None:
            check_number(random_u, fn, "random_u")
        self._kernel_size, self._random_u = kernel_size, random_u


class FractionalMaxPool2D(_FractionalMaxPool):
    """Layer form of :func:`pylayer.nn.functional.fractional_max_pool2d` (a new
    ``random_u`` each call when it is None).

    >>> import pylayer
    >>> pylayer.nn.FractionalMaxPool2D(3)(pylayer.rand([2, 3, 7, 7])).shape
    [2, 3, 3, 3]
    """

    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False,
                 name=None):
        super().__init__(2, output_size, kernel_size, random_u, return_mask)

    def forward(self, x):
        return fractional_max_pool2d(x, self._output_size, self._kernel_size, self._random_u,
                                     self._return_mask)


class FractionalMaxPool3D(_FractionalMaxPool):
    """Layer form of :func:`pylayer.nn.functional.fractional_max_pool3d` (a new
    ``random_u`` each call when it is None).

    >>> import pylayer
    >>> pylayer.nn.FractionalMaxPool3D([2, 3, 3])(pylayer.rand([1, 2, 5, 7, 7])).shape
    [1, 2, 2, 3, 3]
    """

    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False,
                 name=None):
        super().__init__(3, output_size, kernel_size, random_u, return_mask)

    def forward(self, x):
        return fractional_max_pool3d(x, self._output_size, self._kernel_size, self._random_u,
                                     self._return_mask)


# Paddle 3.3.1 exports PyTorch's spellings as the same classes
AdaptiveMaxPool1d = AdaptiveMaxPool1D
AdaptiveMaxPool2d = AdaptiveMaxPool2D
AdaptiveMaxPool3d = AdaptiveMaxPool3D
LPPool1d = LPPool1D
LPPool2d = LPPool2D
