# cython: wraparound=False
"""Lowering a convolution to matrix products: ``im2col`` and its adjoint ``col2im``.

``x`` is ``[N, C, H, W]`` with any strides (a channel-last array is passed as
its transposed view). Its column buffer ``col`` is C-contiguous
``[N, C * KH * KW, OH * OW]``: row ``(c, i, j)`` of sample ``n`` holds, for
every output position ``(y, x)``, the input element
``x[n, c, y * SH - PT + i * DH, x * SW - PL + j * DW]``, or 0 where that lies
outside ``x`` (the zero padding). A convolution is then one matrix product
per sample and group; ``col2im`` sums a column buffer back into ``[N, C, H, W]``
(the gradient of ``im2col``).

The geometry (kernel, stride, padding, dilation, output size) is checked at the
door against the arrays' shapes; every index the loops compute is then inside
its array by construction: a column index below ``OH * OW``, an input row and
column tested against ``H`` and ``W`` before use.
"""
import numpy as np

cimport numpy as cnp
from libc.string cimport memcpy, memset

from pylayer._buffers cimport buffer_like
from pylayer.kernels._common cimport real, span, zero_4d

cnp.import_array()

__all__ = []   # internal: the layers call these (and the tests)

#: Every size, stride, padding and dilation must be below this, so that no index
#: computed from them (products of two) can overflow a 64-bit Py_ssize_t.
LIMIT = 2 ** 31


def pooled_empty(shape, dtype):
    """A new C-contiguous array of ``shape`` and ``dtype``, on memory from pylayer's
    pool of large buffers when it is large (see ``pylayer.device.memory_stats``).

    >>> pooled_empty((2, 3), np.float32).shape
    (2, 3)
    """
    like = np.broadcast_to(np.zeros((), dtype), shape)  # the shape and type, no memory
    out = buffer_like(like)
    return np.empty(shape, dtype) if out is None else out


cdef int _check(Py_ssize_t value, str name, Py_ssize_t minimum) except -1:
    if not minimum <= value < LIMIT:
        raise ValueError(f"{name} must lie in [{minimum}, {LIMIT}), got {value}")
    return 0


cdef int _check_geometry(Py_ssize_t* image, Py_ssize_t* col, Py_ssize_t kh, Py_ssize_t kw,
                         Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl,
                         Py_ssize_t dh, Py_ssize_t dw, Py_ssize_t oh, Py_ssize_t ow) except -1:
    """The geometry is in range and ``col`` is ``[N, C * kh * kw, oh * ow]`` for the image
    ``[N, C, H, W]``: then every index the loops form lies inside its array."""
    for value, name in ((kh, "kernel height"), (kw, "kernel width"), (sh, "stride"),
                        (sw, "stride"), (dh, "dilation"), (dw, "dilation")):
        _check(value, name, 1)
    for value, name in ((pt, "padding"), (pl, "padding"), (oh, "output height"),
                        (ow, "output width"), (image[1], "channels")):
        _check(value, name, 0)
    want = [image[0], image[1] * <object>kh * kw, <object>oh * ow]   # Python ints: exact
    if [col[0], col[1], col[2]] != want:
        raise ValueError(f"col must have shape {want} "
                         f"for an image of shape {[image[k] for k in range(4)]}, kernel "
                         f"{kh}x{kw} and output {oh}x{ow}; got {[col[k] for k in range(3)]}")
    return 0


cdef inline void _add_into(real* target, const real* source, Py_ssize_t count) noexcept nogil:
    cdef Py_ssize_t t
    for t in range(count):
        target[t] += source[t]


cdef void _im2col(const real[:, :, :, :] x, real[:, :, ::1] col, Py_ssize_t kh,
                  Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl,
                  Py_ssize_t dh, Py_ssize_t dw, Py_ssize_t oh, Py_ssize_t ow) noexcept nogil:
    cdef Py_ssize_t n, c, i, j, y, t, ih, lo, hi, start, r, p
    cdef Py_ssize_t height = x.shape[2], width = x.shape[3]
    cdef bint contiguous_rows = sw == 1 and x.strides[3] == sizeof(real)
    for n in range(x.shape[0]):
        r = 0
        for c in range(x.shape[1]):
            for i in range(kh):
                for j in range(kw):
                    start = j * dw - pl
                    span(start, sw, width, ow, &lo, &hi)
                    p = 0
                    for y in range(oh):
                        ih = y * sh - pt + i * dh
                        if ih < 0 or ih >= height or lo == hi:
                            for t in range(ow):
                                col[n, r, p + t] = 0
                        else:
                            for t in range(lo):
                                col[n, r, p + t] = 0
                            if contiguous_rows:
                                memcpy(&col[n, r, p + lo], &x[n, c, ih, start + lo],
                                       (hi - lo) * sizeof(real))
                            else:
                                for t in range(lo, hi):
                                    col[n, r, p + t] = x[n, c, ih, start + t * sw]
                            for t in range(hi, ow):
                                col[n, r, p + t] = 0
                        p += ow
                    r += 1


cdef void _col2im(const real[:, :, ::1] col, real[:, :, :, :] dx, Py_ssize_t kh,
                  Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl,
                  Py_ssize_t dh, Py_ssize_t dw, Py_ssize_t oh, Py_ssize_t ow) noexcept nogil:
    cdef Py_ssize_t n, c, i, j, y, t, ih, lo, hi, start, r, p
    cdef Py_ssize_t height = dx.shape[2], width = dx.shape[3]
    cdef bint contiguous_rows = sw == 1 and dx.strides[3] == sizeof(real)
    zero_4d(dx)
    for n in range(dx.shape[0]):
        r = 0
        for c in range(dx.shape[1]):
            for i in range(kh):
                for j in range(kw):
                    start = j * dw - pl
                    span(start, sw, width, ow, &lo, &hi)
                    p = 0
                    for y in range(oh):
                        ih = y * sh - pt + i * dh
                        if 0 <= ih < height and lo < hi:
                            if contiguous_rows:   # [lo, hi) proven in range: _span
                                _add_into(&dx[n, c, ih, start + lo], &col[n, r, p + lo],
                                          hi - lo)
                            else:
                                for t in range(lo, hi):
                                    dx[n, c, ih, start + t * sw] += col[n, r, p + t]
                        p += ow
                    r += 1


def im2col(const real[:, :, :, :] x, real[:, :, ::1] col, Py_ssize_t kh, Py_ssize_t kw,
           Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl, Py_ssize_t dh,
           Py_ssize_t dw, Py_ssize_t oh, Py_ssize_t ow):
    """Fill ``col`` ``[N, C*kh*kw, oh*ow]`` with the windows of ``x`` ``[N, C, H, W]``.

    Strides ``sh, sw``, top and left padding ``pt, pl``, dilations ``dh, dw``.

    >>> x = np.arange(9.0).reshape(1, 1, 3, 3)
    >>> col = np.empty((1, 4, 4))
    >>> im2col(x, col, 2, 2, 1, 1, 0, 0, 1, 1, 2, 2)
    >>> col[0]
    array([[0., 1., 3., 4.],
           [1., 2., 4., 5.],
           [3., 4., 6., 7.],
           [4., 5., 7., 8.]])
    """
    _check_geometry(x.shape, col.shape, kh, kw, sh, sw, pt, pl, dh, dw, oh, ow)
    with nogil:
        _im2col(x, col, kh, kw, sh, sw, pt, pl, dh, dw, oh, ow)


def col2im(const real[:, :, ::1] col, real[:, :, :, :] dx, Py_ssize_t kh, Py_ssize_t kw,
           Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl, Py_ssize_t dh,
           Py_ssize_t dw, Py_ssize_t oh, Py_ssize_t ow):
    """Fill ``dx`` ``[N, C, H, W]`` with the sums of ``col`` over the windows: the adjoint
    of :func:`im2col` with the same geometry.

    >>> col = np.ones((1, 4, 4))
    >>> dx = np.empty((1, 1, 3, 3))
    >>> col2im(col, dx, 2, 2, 1, 1, 0, 0, 1, 1, 2, 2)
    >>> dx[0, 0]
    array([[1., 2., 1.],
           [2., 4., 2.],
           [1., 2., 1.]])
    """
    _check_geometry(dx.shape, col.shape, kh, kw, sh, sw, pt, pl, dh, dw, oh, ow)
    with nogil:
        _col2im(col, dx, kh, kw, sh, sw, pt, pl, dh, dw, oh, ow)
