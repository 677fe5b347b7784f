"""Adaptive average pooling: ``adaptive_avg_pool1d``, ``adaptive_avg_pool2d`` and layers.

Output position ``i`` of an axis of size ``n`` pooled to ``m`` averages the
inputs ``floor(i * n / m)`` to ``ceil((i + 1) * n / m) - 1``, as in Paddle.
Each axis is pooled by a recorded ``matmul`` with a fixed averaging matrix,
so gradients can be differentiated again.
"""
import numpy as np

from pylayer._core.tensor import make_tensor
from pylayer.nn.layer import Layer
from pylayer.nn.spatial import spatial_axes
from pylayer.ops._arguments import check_choice, check_count, check_int, float_tensor
from pylayer.ops._linalg import matmul
from pylayer.ops._shape import transpose
from pylayer.ops.dispatch import op

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "AdaptiveAvgPool1D",
           "AdaptiveAvgPool2D"]


def _averaging(in_size, out_size, dtype):
    """The ``[in_size, out_size]`` matrix whose column ``i`` averages bin ``i``."""
    weights = np.zeros((in_size, out_size), dtype)
    for i in range(out_size):
        start = (i * in_size) // out_size
        end = -((-(i + 1) * in_size) // out_size)
        weights[start:end, i] = 1.0 / (end - start)
    return make_tensor(weights)


def _output_sizes(output_size, count, in_sizes, fn):
    """``output_size`` as ``count`` positive ints; a None in a list keeps that input size."""
    if output_size is None:
        raise TypeError(f"{fn}(): argument 'output_size' must be an int or a list of "
                        f"{count}, got None")
    items = list(output_size) if isinstance(output_size, (list, tuple)) else \
        [output_size] * count
    if len(items) != count:
        raise ValueError(f"{fn}(): argument 'output_size' must be an int or {count} of them, "
                         f"got {output_size!r}")
    sizes = [size if item is None else check_int(item, fn, "output_size", minimum=1)
             for item, size in zip(items, in_sizes)]
    for size, in_size in zip(sizes, in_sizes):
        check_count(size * in_size, fn, "output_size")
    return sizes


def _pool(x, output_size, axes, fn):
    x = float_tensor(x, fn)
    if x.ndim != len(axes) + 2:
        raise ValueError(f"{fn}(): argument 'x' must be {len(axes) + 2}-D, got shape "
                         f"{x.shape}")
    sizes = _output_sizes(output_size, len(axes), [x.shape[a] for a in axes], fn)
    last = x.ndim - 1
    for axis, out_size in zip(axes, sizes):
        order = list(range(x.ndim))
        order[axis], order[last] = last, axis
        moved = transpose(x, order) if axis != last else x
        pooled = matmul(moved, _averaging(x.shape[axis], out_size, x.numpy().dtype))
        x = transpose(pooled, order) if axis != last else pooled
    return x


@op
def adaptive_avg_pool1d(x, output_size, name=None):
    """Average ``[N, C, L]`` input over ``output_size`` bins of the last axis.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.adaptive_avg_pool1d(pylayer.arange(5, dtype='float32').reshape([1, 1, 5]), 3).numpy()
    array([[[0.5, 2. , 3.5]]], dtype=float32)
    """
    return _pool(x, output_size, [2], "adaptive_avg_pool1d")


@op
def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """Average ``[N, C, H, W]`` input over ``output_size`` ``[h, w]`` bins (None keeps a size).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(16, dtype='float32').reshape([1, 1, 4, 4])
    >>> F.adaptive_avg_pool2d(x, 2).numpy()
    array([[[[ 2.5,  4.5],
             [10.5, 12.5]]]], dtype=float32)
    """
    fn = "adaptive_avg_pool2d"
    check_choice(data_format, fn, "data_format", ["NCHW", "NHWC"])
    return _pool(x, output_size, spatial_axes(4, data_format, fn), fn)


class AdaptiveAvgPool1D(Layer):
    """Layer form of :func:`pylayer.nn.functional.adaptive_avg_pool1d`.

    >>> import pylayer
    >>> pylayer.nn.AdaptiveAvgPool1D(1)(pylayer.ones([2, 3, 7])).shape
    [2, 3, 1]
    """

    def __init__(self, output_size, name=None):
        super().__init__()
        (self._output_size,) = _output_sizes(output_size, 1, [1], "AdaptiveAvgPool1D")

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
        _output_sizes(output_size, 2, [1, 1], "AdaptiveAvgPool2D")
        self._output_size = output_size
        self._data_format = check_choice(data_format, "AdaptiveAvgPool2D", "data_format",
                                         ["NCHW", "NHWC"])

    def forward(self, input):
        return adaptive_avg_pool2d(input, self._output_size, self._data_format)

    def extra_repr(self):
        return f"output_size={self._output_size}"
