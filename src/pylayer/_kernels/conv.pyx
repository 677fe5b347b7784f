# cython: wraparound=False
"""Lowering a convolution to matrix products: ``im2col`` and its adjoint ``col2im``.

``x`` is ``[N, C, H, W]`` with any strides (a channel-last array is passed as
its transposed view). Its column buffer ``col`` is ``[N, C * KH * KW, OH * OW]``
with contiguous rows, one every ``row_step`` elements (``OH * OW`` when it is
C-contiguous; more when the rows are padded, which a caller does where rows
of a multiple of 512 bytes would fall on the same cache sets and slow BLAS
down): row ``(c, i, j)`` of sample ``n`` holds, for
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

from pylayer._kernels.buffers cimport pooled_new
from pylayer._kernels._common cimport (Shape4, at, cell, check_index, is_empty, plane, real,
                                     shape4, span, zero_4d)

cnp.import_array()

__all__ = []   # internal: the layers call these (and the tests)

#: Every size, stride, padding and dilation must be below this, so that no index
#: computed from them (products of two) can overflow a 64-bit Py_ssize_t.
LIMIT = 2 ** 31


# Looked up once: many calls of pooled_empty are small ones, which end in np.empty
cdef object _empty = np.empty


def pooled_empty(shape, dtype):
    """A new C-contiguous array of ``shape`` and ``dtype``, on memory from pylayer's
    pool of large buffers when it is large (see ``pylayer.device.memory_stats``).

    >>> pooled_empty((2, 3), np.float32).shape
    (2, 3)
    """
    cdef cnp.dtype kind = dtype if isinstance(dtype, cnp.dtype) else np.dtype(dtype)
    out = pooled_new(shape, kind)
    return _empty(shape, kind) if out is None else out


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


cdef Py_ssize_t _row_step(Py_ssize_t* shape, Py_ssize_t* strides,
                          Py_ssize_t itemsize) except -1:
    """The distance, in items, between consecutive rows of the ``[N, R, P]`` buffer
    ``col``: its rows must be contiguous and lie one every ``row_step >= P`` items, the
    samples' rows one after another (a C-contiguous buffer, or one with padded rows)."""
    cdef Py_ssize_t n = shape[0], rows = shape[1], length = shape[2], step = length
    if n * rows <= 1 or length == 0:
        return step
    if length > 1 and strides[2] != itemsize:
        raise ValueError(f"col must have contiguous rows, got strides "
                         f"{[strides[k] for k in range(3)]}")
    if rows > 1:
        step = strides[1] // itemsize
        if strides[1] % itemsize or step < length or (n > 1 and strides[0] != rows * strides[1]):
            raise ValueError(f"col must have evenly spaced rows, got strides "
                             f"{[strides[k] for k in range(3)]}")
    else:
        step = strides[0] // itemsize
        if strides[0] % itemsize or step < length:
            raise ValueError(f"col must have evenly spaced rows, got strides "
                             f"{[strides[k] for k in range(3)]}")
    return step


cdef void _fill(real* p, Py_ssize_t begin, Py_ssize_t end, Py_ssize_t size) noexcept nogil:
    """Zero ``p[begin:end]`` (``0 <= begin``, ``end <= size``)."""
    if begin < end:
        check_index(begin, size)
        check_index(end - 1, size)
        memset(p + begin, 0, (end - begin) * sizeof(real))


cdef void _shifted_plane(const real* source, const Shape4* xs, real* colp, Py_ssize_t row,
                         Py_ssize_t size, Py_ssize_t shift, Py_ssize_t y0, Py_ssize_t y1,
                         Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t oh) noexcept nogil:
    """One row of ``col`` for a stride-1 window over a plane whose rows are as long as the
    output's (``ow``) and contiguous: the input element of output position ``y * ow + t``
    is ``source[y * ow + t + shift]``, inside the plane for the rows ``[y0, y1)`` and the
    columns ``[lo, hi)``. One copy spans every valid element; what it brings in between
    rows, from the ends of the input rows, is then zeroed with the rest of the padding."""
    cdef Py_ssize_t ow = xs.size[3], y, t, first = y0 * ow + lo, end = (y1 - 1) * ow + hi
    _fill(colp, row, row + first, size)
    check_index(row + end - 1, size)
    check_index(first + shift, xs.size[2] * ow)       # both ends inside the plane
    check_index(end - 1 + shift, xs.size[2] * ow)
    memcpy(colp + row + first, source + first + shift, (end - first) * sizeof(real))
    for t in range(hi, ow):               # a column or two: element by element
        for y in range(y0, y1 - 1):
            colp[at(row + y * ow + t, size)] = 0
    for t in range(lo):
        for y in range(y0 + 1, y1):
            colp[at(row + y * ow + t, size)] = 0
    _fill(colp, row + end, row + oh * ow, size)


cdef void _im2col(const real* xp, const Shape4* xs, real* colp, Py_ssize_t row_step,
                  Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt,
                  Py_ssize_t pl, Py_ssize_t dh, Py_ssize_t dw, Py_ssize_t oh,
                  Py_ssize_t ow) noexcept nogil:
    """Rows ``(n, c, i, j)`` of ``col`` (``oh * ow`` long, one every ``row_step`` items)
    one after another: ``row`` is where the current one starts; ``size`` spans them all
    (at least one row)."""
    cdef Py_ssize_t n, c, i, j, y, t, ih, lo, hi, start, base, y0, y1, pos
    cdef Py_ssize_t size = (xs.size[0] * xs.size[1] * kh * kw - 1) * row_step + oh * ow
    cdef Py_ssize_t row = 0
    cdef const real* source
    cdef bint runs = sw == 1 and xs.step[3] == 1
    # stride 1 over planes of contiguous rows as long as the output's: one copy per row of col
    cdef bint planes = runs and sh == 1 and xs.size[3] == ow and xs.step[2] == ow
    for n in range(xs.size[0]):
        for c in range(xs.size[1]):
            base = plane(xs, n, c)
            for i in range(kh):
                for j in range(kw):
                    start = j * dw - pl
                    span(start, sw, xs.size[3], ow, &lo, &hi)
                    if planes:
                        span(i * dh - pt, 1, xs.size[2], oh, &y0, &y1)
                        if y0 < y1 and lo < hi:
                            _shifted_plane(xp + base, xs, colp, row, size,
                                           (i * dh - pt) * ow + start, y0, y1, lo, hi, oh)
                        else:
                            _fill(colp, row, row + oh * ow, size)
                        row += row_step
                        continue
                    for y in range(oh):
                        ih = y * sh - pt + i * dh
                        pos = row + y * ow
                        if ih < 0 or ih >= xs.size[2] or lo == hi:
                            for t in range(ow):
                                colp[at(pos + t, size)] = 0
                        else:
                            source = xp + base + cell(xs, ih, 0)
                            for t in range(lo):
                                colp[at(pos + t, size)] = 0
                            if runs:      # x[.., ih, start + lo : start + hi], in range: span
                                check_index(start + hi - 1, xs.size[3])
                                check_index(pos + hi - 1, size)
                                memcpy(colp + at(pos + lo, size),
                                       source + at(start + lo, xs.size[3]),
                                       (hi - lo) * sizeof(real))
                            else:
                                for t in range(lo, hi):
                                    colp[at(pos + t, size)] = \
                                        source[at(start + t * sw, xs.size[3]) * xs.step[3]]
                            for t in range(hi, ow):
                                colp[at(pos + t, size)] = 0
                    row += row_step


cdef void _col2im(const real* colp, Py_ssize_t row_step, real* dxp, const Shape4* ds,
                  Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt,
                  Py_ssize_t pl, Py_ssize_t dh, Py_ssize_t dw, Py_ssize_t oh,
                  Py_ssize_t ow) noexcept nogil:
    """The adjoint of _im2col: ``row`` walks ``col`` the same way."""
    cdef Py_ssize_t n, c, i, j, y, t, ih, lo, hi, start, base, pos
    cdef Py_ssize_t size = (ds.size[0] * ds.size[1] * kh * kw - 1) * row_step + oh * ow
    cdef Py_ssize_t row = 0
    cdef real* target
    cdef const real* source
    cdef bint runs = sw == 1 and ds.step[3] == 1
    zero_4d(dxp, ds)
    for n in range(ds.size[0]):
        for c in range(ds.size[1]):
            base = plane(ds, n, c)
            for i in range(kh):
                for j in range(kw):
                    start = j * dw - pl
                    span(start, sw, ds.size[3], ow, &lo, &hi)
                    for y in range(oh):
                        ih = y * sh - pt + i * dh
                        pos = row + y * ow
                        if 0 <= ih < ds.size[2] and lo < hi:
                            target = dxp + base + cell(ds, ih, 0)
                            if runs:      # the same proven run as in _im2col
                                check_index(start + hi - 1, ds.size[3])
                                check_index(pos + hi - 1, size)
                                source = colp + at(pos + lo, size)
                                target += at(start + lo, ds.size[3])
                                for t in range(hi - lo):
                                    target[t] += source[t]
                            else:
                                for t in range(lo, hi):
                                    target[at(start + t * sw, ds.size[3]) * ds.step[3]] += \
                                        colp[at(pos + t, size)]
                    row += row_step


def im2col(const real[:, :, :, :] x, real[:, :, :] col, Py_ssize_t kh, Py_ssize_t kw,
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
    cdef Shape4 xs
    shape4(x, &xs)
    _check_geometry(x.shape, col.shape, kh, kw, sh, sw, pt, pl, dh, dw, oh, ow)
    if col.shape[0] == 0 or col.shape[1] == 0 or col.shape[2] == 0:
        return
    cdef Py_ssize_t row_step = _row_step(col.shape, col.strides, sizeof(real))
    if is_empty(&xs):                # no element to read: every window is padding
        col[:, :, :] = 0
        return
    with nogil:
        _im2col(&x[0, 0, 0, 0], &xs, &col[0, 0, 0], row_step, kh, kw, sh, sw, pt, pl, dh, dw,
                oh, ow)


def col2im(const real[:, :, :] col, real[:, :, :, :] dx, Py_ssize_t kh, Py_ssize_t kw,
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
    cdef Shape4 ds
    shape4(dx, &ds)
    _check_geometry(dx.shape, col.shape, kh, kw, sh, sw, pt, pl, dh, dw, oh, ow)
    if is_empty(&ds):
        return
    if col.shape[2] == 0:            # no window: nothing to add
        dx[:, :, :, :] = 0
        return
    cdef Py_ssize_t row_step = _row_step(col.shape, col.strides, sizeof(real))
    with nogil:
        _col2im(&col[0, 0, 0], row_step, &dx[0, 0, 0, 0], &ds, kh, kw, sh, sw, pt, pl, dh, dw,
                oh, ow)
