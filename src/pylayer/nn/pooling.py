"""Pooling layers: ``MaxPool1D/2D``, ``AvgPool1D/2D``, ``AdaptiveAvgPool1D/2D``.

Each calls its functional form in :mod:`pylayer.ops.pooling`, whose
documentation states the rules.
"""
from pylayer.extend import check_choice, window_padding, window_sizes
from pylayer.nn.layer import Layer
from pylayer.ops.pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_output_sizes,
                                 avg_pool1d, avg_pool2d, max_pool1d, max_pool2d)

__all__ = ["MaxPool1D", "MaxPool2D", "AvgPool1D", "AvgPool2D", "AdaptiveAvgPool1D",
           "AdaptiveAvgPool2D"]


class _Pool(Layer):
    def __init__(self, count, kernel_size, stride, padding, **options):
        super().__init__()
        fn = type(self).__name__
        kernel = window_sizes(kernel_size, count, fn, "kernel_size")
        steps = kernel if stride is None else window_sizes(stride, count, fn, "stride")
        window_padding(padding, count, [1] * count, kernel, steps,
                       options.get("data_format") == "NHWC", fn)   # checks its form
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
