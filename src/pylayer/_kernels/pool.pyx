# cython: wraparound=False
"""Max and average pooling over windows of ``[N, C, H, W]`` arrays, and their adjoints.

Output position ``(y, x)`` pools the window of rows ``y * SH - PT`` to
``y * SH - PT + KH - 1`` and columns ``x * SW - PL`` to ``x * SW - PL + KW - 1``,
clipped to the input: padding is never read. Images and outputs take any
strides (a channel-last array is passed as its transposed view); masks are
C-contiguous int32 ``[N, C, OH, OW]`` holding ``row * W + column`` in the
input plane, or -1 for a window with no element.

Every entry point checks the sizes it is given; the loops then index raw pointers
(see ``_common.pxd``) at rows and columns clipped to the input, and a mask entry
is tested against ``H * W`` before it is used (a mask is an array Python can
write to).
"""
import numpy as np

cimport numpy as cnp
from libc.float cimport FLT_MAX

from libc.stdlib cimport free, malloc

from pylayer._kernels._common cimport (Shape4, at, cell, is_empty, plane, real, shape4, span,
                                     zero_4d)

cnp.import_array()

__all__ = []   # internal: the layers call these (and the tests)

cdef Py_ssize_t LIMIT = 2 ** 31


cdef int _check_window(Py_ssize_t* image, Py_ssize_t* out, Py_ssize_t kh, Py_ssize_t kw,
                       Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl) except -1:
    """The window geometry is in range and ``out`` pools ``image`` (same N and C)."""
    for value, name in ((kh, "kernel height"), (kw, "kernel width"), (sh, "stride"),
                        (sw, "stride")):
        if not 1 <= value < LIMIT:
            raise ValueError(f"{name} must lie in [1, {LIMIT}), got {value}")
    for value in (pt, pl, out[2], out[3], image[2], image[3]):
        if not 0 <= value < LIMIT:
            raise ValueError(f"paddings and sizes must lie in [0, {LIMIT}), got {value}")
    if image[2] * image[3] >= LIMIT:
        raise ValueError(f"an input plane of {image[2]} x {image[3]} is too large for int32 "
                         f"mask indices")
    if image[0] != out[0] or image[1] != out[1]:
        raise ValueError(f"the pooled array must have the batch and channels of the input "
                         f"({image[0]}, {image[1]}), got ({out[0]}, {out[1]})")
    return 0


cdef int _check_mask(const int[:, :, :, ::1] mask, Py_ssize_t* out) except -1:
    cdef int k
    for k in range(4):
        if mask.shape[k] != out[k]:
            raise ValueError(f"the mask must have the pooled array's shape "
                             f"{[out[i] for i in range(4)]}, got "
                             f"{[mask.shape[i] for i in range(4)]}")
    return 0


cdef inline Py_ssize_t _mask_row(const Shape4* s, Py_ssize_t n, Py_ssize_t c,
                                 Py_ssize_t y) noexcept nogil:
    """The offset of ``[n, c, y, 0]`` in a C-contiguous array shaped like ``s``."""
    return ((at(n, s.size[0]) * s.size[1] + at(c, s.size[1])) * s.size[2]
            + at(y, s.size[2])) * s.size[3]


def max_pool(const real[:, :, :, :] x, real[:, :, :, :] out, int[:, :, :, ::1] mask,
             Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt,
             Py_ssize_t pl):
    """Fill ``out`` with the largest non-NaN element of each window (the first on ties) and
    ``mask`` with its index; a window without one gives ``-FLT_MAX`` and -1 (as Paddle).

    >>> x = np.array([[[[1.0, 5.0, 2.0, 4.0]]]])
    >>> out, mask = np.empty((1, 1, 1, 2)), np.empty((1, 1, 1, 2), np.int32)
    >>> max_pool(x, out, mask, 1, 2, 1, 2, 0, 0)
    >>> out, mask
    (array([[[[5., 4.]]]]), array([[[[1, 3]]]], dtype=int32))
    """
    cdef Shape4 xs, os
    cdef Py_ssize_t n, c, y, t, i, j, h, w, start, lo, hi, columns, xbase, obase, mrow
    cdef bint take
    cdef real value
    cdef const real* xp = NULL
    cdef real* op
    cdef int* mp
    cdef real* top = NULL
    cdef int* best = NULL
    shape4(x, &xs)
    shape4(out, &os)
    _check_window(x.shape, out.shape, kh, kw, sh, sw, pt, pl)
    _check_mask(mask, out.shape)
    if is_empty(&os):
        return
    if not is_empty(&xs):
        xp = &x[0, 0, 0, 0]
    op, mp = &out[0, 0, 0, 0], &mask[0, 0, 0, 0]
    columns = os.size[3]
    top = <real*>malloc(columns * sizeof(real))          # one output row
    best = <int*>malloc(columns * sizeof(int))
    try:
        if top == NULL or best == NULL:
            raise MemoryError("max_pool: no memory for a row of maxima")
        with nogil:
            # Row by row: each window element (i, j), in row-major order, is compared for a
            # whole output row at once, so that the first maximum of a window wins.
            for n in range(os.size[0]):
                for c in range(os.size[1]):
                    obase = plane(&os, n, c)
                    for y in range(os.size[2]):
                        for t in range(columns):
                            top[t] = -FLT_MAX
                            best[t] = -1
                        for i in range(kh):
                            h = y * sh - pt + i
                            if h < 0 or h >= xs.size[2]:
                                continue                   # (also when x is empty)
                            xbase = plane(&xs, n, c)
                            for j in range(kw):
                                start = j - pl
                                span(start, sw, xs.size[3], columns, &lo, &hi)
                                for t in range(lo, hi):
                                    w = start + t * sw
                                    value = xp[xbase + cell(&xs, h, w)]
                                    # without branches (a random maximum mispredicts them)
                                    take = (value == value) & ((best[t] < 0) | (value > top[t]))
                                    top[t] = value if take else top[t]
                                    best[t] = <int>(h * xs.size[3] + w) if take else best[t]
                        mrow = _mask_row(&os, n, c, y)
                        for t in range(columns):
                            op[obase + cell(&os, y, t)] = top[t]
                            mp[mrow + at(t, columns)] = best[t]
    finally:
        free(top)
        free(best)


cdef int _bad_index(Py_ssize_t index, Py_ssize_t size) except -1:
    raise IndexError(f"a max-pooling mask entry ({index}) lies outside the input plane of "
                     f"{size} elements")


cdef Py_ssize_t _scatter(const real* gp, const Shape4* gs, const int* mp, real* dp,
                         const Shape4* ds) noexcept nogil:
    """dx += dy at the mask's positions; returns -1, or the first mask entry outside the
    plane (the entries after it are not added)."""
    cdef Py_ssize_t n, c, y, t, index, gbase, dbase, mrow
    cdef Py_ssize_t size = ds.size[2] * ds.size[3]
    for n in range(gs.size[0]):
        for c in range(gs.size[1]):
            gbase, dbase = plane(gs, n, c), plane(ds, n, c)
            for y in range(gs.size[2]):
                mrow = _mask_row(gs, n, c, y)
                for t in range(gs.size[3]):
                    index = mp[mrow + at(t, gs.size[3])]
                    if index < 0:
                        continue
                    if index >= size:
                        return index
                    dp[dbase + cell(ds, index // ds.size[3], index % ds.size[3])] += \
                        gp[gbase + cell(gs, y, t)]
    return -1


def max_pool_scatter(const real[:, :, :, :] dy, const int[:, :, :, ::1] mask,
                     real[:, :, :, :] dx):
    """Fill ``dx`` with zeros plus each ``dy`` added at its mask position (the gradient of
    :func:`max_pool`); mask entries -1 add nothing.

    >>> dx = np.empty((1, 1, 1, 4))
    >>> max_pool_scatter(np.ones((1, 1, 1, 2)), np.array([[[[1, 1]]]], np.int32), dx)
    >>> dx
    array([[[[0., 2., 0., 0.]]]])
    """
    cdef Shape4 gs, ds
    cdef Py_ssize_t bad
    shape4(dy, &gs)
    shape4(dx, &ds)
    _check_window(dx.shape, dy.shape, 1, 1, 1, 1, 0, 0)
    _check_mask(mask, dy.shape)
    if is_empty(&ds):
        return
    zero_4d(&dx[0, 0, 0, 0], &ds)
    if is_empty(&gs):
        return
    with nogil:
        bad = _scatter(&dy[0, 0, 0, 0], &gs, &mask[0, 0, 0, 0], &dx[0, 0, 0, 0], &ds)
    if bad >= 0:
        _bad_index(bad, ds.size[2] * ds.size[3])


cdef Py_ssize_t _gather(const real* gp, const Shape4* gs, const int* mp, real* op,
                        const Shape4* os) noexcept nogil:
    """out = g at the mask's positions (0 for -1); returns -1, or the first mask entry
    outside the plane."""
    cdef Py_ssize_t n, c, y, t, index, obase, mrow
    cdef Py_ssize_t size = gs.size[2] * gs.size[3]
    for n in range(os.size[0]):
        for c in range(os.size[1]):
            obase = plane(os, n, c)
            for y in range(os.size[2]):
                mrow = _mask_row(os, n, c, y)
                for t in range(os.size[3]):
                    index = mp[mrow + at(t, os.size[3])]
                    if index < 0:
                        op[obase + cell(os, y, t)] = 0
                    elif index >= size:                # (also when g is empty: size 0)
                        return index
                    else:
                        op[obase + cell(os, y, t)] = gp[plane(gs, n, c) + cell(
                            gs, index // gs.size[3], index % gs.size[3])]
    return -1


def max_pool_gather(const real[:, :, :, :] g, const int[:, :, :, ::1] mask,
                    real[:, :, :, :] out):
    """Fill ``out`` with ``g`` at each mask position, 0 for -1 (the adjoint of
    :func:`max_pool_scatter`).

    >>> out = np.empty((1, 1, 1, 2))
    >>> max_pool_gather(np.array([[[[7.0, 8.0, 9.0]]]]), np.array([[[[2, -1]]]], np.int32), out)
    >>> out
    array([[[[9., 0.]]]])
    """
    cdef Shape4 gs, os
    cdef Py_ssize_t bad
    cdef const real* gp = NULL
    shape4(g, &gs)
    shape4(out, &os)
    _check_window(g.shape, out.shape, 1, 1, 1, 1, 0, 0)
    _check_mask(mask, out.shape)
    if is_empty(&os):
        return
    if not is_empty(&gs):
        gp = &g[0, 0, 0, 0]
    with nogil:
        bad = _gather(gp, &gs, &mask[0, 0, 0, 0], &out[0, 0, 0, 0], &os)
    if bad >= 0:
        _bad_index(bad, gs.size[2] * gs.size[3])


cdef inline double _divisor(Py_ssize_t start_h, Py_ssize_t start_w, Py_ssize_t kh,
                            Py_ssize_t kw, Py_ssize_t height, Py_ssize_t width,
                            Py_ssize_t pb, Py_ssize_t pr, bint exclusive) noexcept nogil:
    """What Paddle divides a window's sum by: the number of input elements in it
    (``exclusive``), else its size within the padded input (both can be 0 or negative
    for a window past the input, as in Paddle)."""
    cdef Py_ssize_t end_h = start_h + kh, end_w = start_w + kw
    if exclusive:
        return <double>((min(end_h, height) - max(start_h, 0))
                        * (min(end_w, width) - max(start_w, 0)))
    return <double>((min(end_h, height + pb) - start_h) * (min(end_w, width + pr) - start_w))


cdef inline void _window_sums(real* image, const Shape4* s, Py_ssize_t base, double* row,
                              Py_ssize_t y, Py_ssize_t columns, Py_ssize_t kh, Py_ssize_t kw,
                              Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl,
                              bint spread) noexcept nogil:
    """For output row ``y``, each window element at a time: ``row[t]`` += the image's
    elements of window ``t`` (``spread`` false: ``image`` is only read), or each of those
    elements += ``row[t]`` (``spread`` true). ``base`` is the image plane's offset."""
    cdef Py_ssize_t i, j, t, h, start, lo, hi, k
    for i in range(kh):
        h = y * sh - pt + i
        if h < 0 or h >= s.size[2]:
            continue
        for j in range(kw):
            start = j - pl
            span(start, sw, s.size[3], columns, &lo, &hi)
            for t in range(lo, hi):
                k = base + cell(s, h, start + t * sw)
                if spread:
                    image[k] += <real>row[t]
                else:
                    row[t] += image[k]


def avg_pool(const real[:, :, :, :] x, real[:, :, :, :] out, Py_ssize_t kh, Py_ssize_t kw,
             Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl, Py_ssize_t pb,
             Py_ssize_t pr, bint exclusive, double scale):
    """Fill ``out`` with each window's sum over its divisor (see Paddle's rules in
    ``_divisor``) times ``scale``.

    >>> out = np.empty((1, 1, 1, 2))
    >>> avg_pool(np.array([[[[1.0, 2.0, 3.0]]]]), out, 1, 2, 1, 2, 0, 0, 0, 1, False, 1.0)
    >>> out
    array([[[[1.5, 1.5]]]])
    """
    cdef Shape4 xs, os
    cdef Py_ssize_t n, c, y, t, columns, obase
    cdef real* xp = NULL                   # only read (_window_sums without spread)
    cdef real* op
    cdef double* total = NULL
    shape4(x, &xs)
    shape4(out, &os)
    _check_window(x.shape, out.shape, kh, kw, sh, sw, pt, pl)
    _check_window(x.shape, out.shape, kh, kw, sh, sw, pb, pr)
    if is_empty(&os):
        return
    if not is_empty(&xs):
        xp = <real*>&x[0, 0, 0, 0]
    op = &out[0, 0, 0, 0]
    columns = os.size[3]
    total = <double*>malloc(columns * sizeof(double))    # one output row
    if total == NULL:
        raise MemoryError("avg_pool: no memory for a row of sums")
    try:
        with nogil:
            for n in range(os.size[0]):
                for c in range(os.size[1]):
                    obase = plane(&os, n, c)
                    for y in range(os.size[2]):
                        for t in range(columns):
                            total[t] = 0
                        if xp != NULL:
                            _window_sums(xp, &xs, plane(&xs, n, c), total, y, columns, kh, kw,
                                         sh, sw, pt, pl, False)
                        for t in range(columns):
                            op[obase + cell(&os, y, t)] = <real>(total[t] / _divisor(
                                y * sh - pt, t * sw - pl, kh, kw, xs.size[2], xs.size[3], pb,
                                pr, exclusive) * scale)
    finally:
        free(total)


def avg_pool_adjoint(const real[:, :, :, :] dy, real[:, :, :, :] dx, Py_ssize_t kh,
                     Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt, Py_ssize_t pl,
                     Py_ssize_t pb, Py_ssize_t pr, bint exclusive, double scale):
    """Fill ``dx`` with zeros plus, on every element of each window, the window's ``dy``
    over its divisor times ``scale``: the gradient of :func:`avg_pool`.

    >>> dx = np.empty((1, 1, 1, 3))
    >>> avg_pool_adjoint(np.ones((1, 1, 1, 2)), dx, 1, 2, 1, 2, 0, 0, 0, 1, False, 1.0)
    >>> dx
    array([[[[0.5, 0.5, 0.5]]]])
    """
    cdef Shape4 gs, ds
    cdef Py_ssize_t n, c, y, t, columns, gbase
    cdef const real* gp
    cdef real* dp
    cdef double* share = NULL
    shape4(dy, &gs)
    shape4(dx, &ds)
    _check_window(dx.shape, dy.shape, kh, kw, sh, sw, pt, pl)
    _check_window(dx.shape, dy.shape, kh, kw, sh, sw, pb, pr)
    if is_empty(&ds):
        return
    dp = &dx[0, 0, 0, 0]
    zero_4d(dp, &ds)
    if is_empty(&gs):
        return
    gp = &dy[0, 0, 0, 0]
    columns = gs.size[3]
    share = <double*>malloc(columns * sizeof(double))    # one output row
    if share == NULL:
        raise MemoryError("avg_pool_adjoint: no memory for a row of shares")
    try:
        with nogil:
            for n in range(gs.size[0]):
                for c in range(gs.size[1]):
                    gbase = plane(&gs, n, c)
                    for y in range(gs.size[2]):
                        for t in range(columns):
                            share[t] = gp[gbase + cell(&gs, y, t)] / _divisor(
                                y * sh - pt, t * sw - pl, kh, kw, ds.size[2], ds.size[3],
                                pb, pr, exclusive) * scale
                        _window_sums(dp, &ds, plane(&ds, n, c), share, y, columns, kh, kw,
                                     sh, sw, pt, pl, True)
    finally:
        free(share)
