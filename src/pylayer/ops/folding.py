"""``unfold`` (im2col) and ``fold`` (col2im) of 2-D images.

``unfold`` lays out the sliding blocks of an image ``[N, C, H, W]`` as the
columns of ``[N, C * KH * KW, L]``; ``fold`` sums such columns back into an
image. Each is the other's adjoint, so each op's gradient is the other one,
to any order. Both run on the column-buffer kernels of the convolutions, with
a :class:`pylayer.ops.convolution.Geometry` of one group.
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._kernels.conv import col2im, im2col
from pylayer.ops._arguments import check_count, check_ints, describe, float_tensor
from pylayer.ops._window_args import WINDOW_LIMIT, window_sizes
from pylayer.ops.convolution import Geometry, _compute_dtype
from pylayer.ops.dispatch import op

__all__ = ["unfold", "fold"]


def _parts(a):
    """The real arrays a complex array is computed from (the array itself if real)."""
    return (a.real, a.imag) if a.dtype.kind == "c" else (a,)


def _unfold_array(a, geo):
    n, c = geo.batch, geo.channels
    results = []
    for part in _parts(a):
        col = np.empty((n, c * math.prod(geo.kernel), math.prod(geo.out_sizes)),
                       _compute_dtype(part.dtype))
        im2col(np.asarray(part, col.dtype), col, *geo.kernel, *geo.stride, *geo.padding,
               *geo.dilation, *geo.out_sizes)
        results.append(col)
    out = results[0] if len(results) == 1 else results[0] + 1j * results[1]
    return out.astype(a.dtype, copy=False)


def _fold_array(a, geo):
    n, c = geo.batch, geo.channels
    results = []
    for part in _parts(a):
        dx = np.empty((n, c) + geo.sizes, _compute_dtype(part.dtype))
        col2im(np.ascontiguousarray(part, dx.dtype), dx, *geo.kernel, *geo.stride,
               *geo.padding, *geo.dilation, *geo.out_sizes)
        results.append(dx)
    out = results[0] if len(results) == 1 else results[0] + 1j * results[1]
    return out.astype(a.dtype, copy=False)


UNFOLD = Op("unfold", attrs=("geometry",), vjp=(lambda g, geometry: _fold(g, geometry),))
FOLD = Op("fold", attrs=("geometry",), vjp=(lambda g, geometry: _unfold(g, geometry),))


def _unfold(x, geo):
    """The recorded column buffer ``[N, C * KH * KW, L]`` of the image ``x``."""
    return make_output(UNFOLD, _unfold_array(x.numpy(), geo), (x,), (geo,))


def _fold(x, geo):
    """The recorded image ``[N, C, H, W]`` summed from the columns ``x``."""
    return make_output(FOLD, _fold_array(x.numpy(), geo), (x,), (geo,))


def _sizes(value, fn, arg, minimum=1):
    if not isinstance(value, (int, list, tuple)) or isinstance(value, bool):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int or a list of 2 ints, got "
                        f"{describe(value)}")
    return window_sizes(value, 2, fn, arg, minimum)


def _paddings(value, fn):
    """Paddle's ``[top, left, bottom, right]`` from an int, 2 or 4 ints."""
    if not isinstance(value, (int, list, tuple)) or isinstance(value, bool):
        raise TypeError(f"{fn}(): argument 'paddings' must be an int or a list of 2 or 4 "
                        f"ints, got {describe(value)}")
    values = check_ints(value, fn, "paddings")
    if len(values) in (1, 2):
        values = (values * 2)[:2] * 2
    if len(values) != 4 or min(values) < 0:
        raise ValueError(f"{fn}(): argument 'paddings' must be a non-negative int or 2 or 4 "
                         f"of them, got {value}")
    if max(values) >= WINDOW_LIMIT:
        raise ValueError(f"{fn}(): argument 'paddings' must hold values below 2**31, got "
                         f"{max(values)}")
    return values


def _blocks(sizes, kernel, strides, paddings, dilations, fn):
    """The number of sliding blocks along each dimension (positive, else ValueError)."""
    blocks = [(size + paddings[i] + paddings[i + 2] - d * (k - 1) - 1) // s + 1
              for i, (size, k, s, d) in enumerate(zip(sizes, kernel, strides, dilations))]
    if min(blocks) < 1:
        raise ValueError(f"{fn}(): the kernel {kernel} (dilations {dilations}, strides "
                         f"{strides}) leaves {blocks} blocks in the input of spatial size "
                         f"{list(sizes)} padded by {paddings}; both must be positive")
    return blocks


def _arguments(kernel_sizes, strides, paddings, dilations, fn):
    return (_sizes(kernel_sizes, fn, "kernel_sizes"), _sizes(strides, fn, "strides"),
            _paddings(paddings, fn), _sizes(dilations, fn, "dilations"))


def check_arguments(kernel_sizes, strides, paddings, dilations, fn, *output_sizes):
    """Check the settings of a Fold (given its ``output_sizes``) or an Unfold layer in
    ``fn``'s name."""
    for sizes in output_sizes:
        _sizes(sizes, fn, "output_sizes")
    _arguments(kernel_sizes, strides, paddings, dilations, fn)


@op
def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """The sliding blocks of ``x`` ``[N, C, H, W]`` as columns ``[N, C * kh * kw, L]``
    (im2col): column ``l`` holds block ``l`` (in row-major order), its rows ordered by
    channel, then kernel row, then kernel column.

    ``kernel_sizes``, ``strides`` and ``dilations`` are an int or ``[h, w]``;
    ``paddings`` an int, ``[h, w]`` or ``[top, left, bottom, right]``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(9, dtype='float32').reshape([1, 1, 3, 3])
    >>> F.unfold(x, 2).numpy()
    array([[[0., 1., 3., 4.],
            [1., 2., 4., 5.],
            [3., 4., 6., 7.],
            [4., 5., 7., 8.]]], dtype=float32)
    """
    fn = "unfold"
    x = float_tensor(x, fn)
    if x.ndim != 4:
        raise ValueError(f"{fn}(): argument 'x' must be 4-D [N, C, H, W], got shape {x.shape}")
    kernel, strides, paddings, dilations = _arguments(kernel_sizes, strides, paddings,
                                                      dilations, fn)
    n, c, *sizes = x.shape
    blocks = _blocks(sizes, kernel, strides, paddings, dilations, fn)
    check_count(n * c * math.prod(kernel) * math.prod(blocks), fn,
                "paddings" if any(paddings) else "kernel_sizes", _compute_dtype(x.numpy().dtype))
    geo = Geometry(2, False, n, c, tuple(sizes), c, tuple(blocks), 1, tuple(kernel),
                   tuple(strides), tuple(paddings[:2]), tuple(dilations))
    return _unfold(x, geo)


@op
def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """The image ``[N, C, H, W]`` summed from sliding blocks ``x`` ``[N, C * kh * kw, L]``
    (col2im, the adjoint of :func:`unfold`): each column element is added to its image
    element; ``L`` must be the number of blocks of ``output_sizes`` ``[H, W]``.

    The other arguments are those of :func:`unfold`. ``x`` may be complex.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.fold(pylayer.ones([1, 4, 4]), [3, 3], 2).numpy()[0, 0]
    array([[1., 2., 1.],
           [2., 4., 2.],
           [1., 2., 1.]], dtype=float32)
    """
    fn = "fold"
    x = float_tensor(x, fn, complex_too=True)
    if x.ndim != 3:
        raise ValueError(f"{fn}(): argument 'x' must be 3-D [N, C * kh * kw, L], got shape "
                         f"{x.shape}")
    sizes = _sizes(output_sizes, fn, "output_sizes")
    kernel, strides, paddings, dilations = _arguments(kernel_sizes, strides, paddings,
                                                      dilations, fn)
    n, rows, length = x.shape
    if rows % math.prod(kernel):
        raise ValueError(f"{fn}(): the second dimension of x ({rows}) must divide by the "
                         f"kernel's size {kernel}")
    blocks = _blocks(sizes, kernel, strides, paddings, dilations, fn)
    if math.prod(blocks) != length:
        raise ValueError(f"{fn}(): x holds {length} blocks, but output_sizes {sizes} with this "
                         f"kernel, strides, paddings and dilations make {blocks[0]} * "
                         f"{blocks[1]} = {math.prod(blocks)}")
    c = rows // math.prod(kernel)
    check_count(n * c * math.prod(sizes), fn, "output_sizes",
                _compute_dtype(x.numpy().dtype))
    geo = Geometry(2, False, n, c, tuple(sizes), c, tuple(blocks), 1, tuple(kernel),
                   tuple(strides), tuple(paddings[:2]), tuple(dilations))
    return _fold(x, geo)
