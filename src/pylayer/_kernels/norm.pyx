# cython: wraparound=False
"""Normalization loops: ``(x - mean) * rstd * weight + bias`` and its gradient.

Two layouts of C-contiguous arrays. *Channels*: ``x`` is ``[A, C, B]`` and each
channel ``c`` is
normalized over its ``A * B`` elements (batch normalization: ``[N, C, H*W]``
for NCHW, ``[N*H*W, C, 1]`` for NHWC). *Rows*: ``x`` is ``[R, D]`` and each row
is normalized over its ``D`` elements, the weight and bias running along the
row (layer normalization). Statistics are accumulated in double; the variance
is the biased one, from a second pass over the centred values.

Every array's shape is checked against ``x``'s at the door; the loops then index
raw pointers within those shapes (checked again in a debug build: ``_common.pxd``).
"""
import numpy as np

cimport numpy as cnp
from libc.math cimport sqrt

from pylayer._kernels._common cimport at, check_index, real
from pylayer._kernels.loops cimport LANES, lanes_total, sum_loop

cnp.import_array()

__all__ = []   # internal: nn.norm calls these (and the tests)


cdef int _same(Py_ssize_t got, Py_ssize_t want, str what) except -1:
    if got != want:
        raise ValueError(f"{what} must have {want} elements along its axis, got {got}")
    return 0


# Sums over runs keep LANES partial sums (see sum_loop).
cdef inline double _centred_squares(const real* p, Py_ssize_t n, double mean) noexcept nogil:
    cdef double acc[LANES]
    cdef double tail = 0, d
    cdef Py_ssize_t i = 0, j
    for j in range(LANES):
        acc[j] = 0
    while i + LANES <= n:
        for j in range(LANES):
            acc[j] += (p[i + j] - mean) * (p[i + j] - mean)
        i += LANES
    while i < n:
        d = p[i] - mean
        tail += d * d
        i += 1
    return lanes_total(acc) + tail


cdef inline void _gradient_sums(const real* g, const real* w, const real* x, Py_ssize_t n,
                                double mean, double* sum_g, double* sum_gx) noexcept nogil:
    """Add ``sum(d)`` and ``sum(d * (x - mean))`` over a run to ``sum_g`` and ``sum_gx``,
    ``d`` being ``g`` times ``w`` (an array of the run's length, or NULL for ones)."""
    cdef double acc_g[LANES]
    cdef double acc_gx[LANES]
    cdef double tail_g = 0, tail_gx = 0, d
    cdef Py_ssize_t i = 0, j
    for j in range(LANES):
        acc_g[j] = 0
        acc_gx[j] = 0
    if w == NULL:
        while i + LANES <= n:
            for j in range(LANES):
                acc_g[j] += g[i + j]
                acc_gx[j] += g[i + j] * (x[i + j] - mean)
            i += LANES
    else:
        while i + LANES <= n:
            for j in range(LANES):
                acc_g[j] += g[i + j] * w[i + j]
                acc_gx[j] += g[i + j] * w[i + j] * (x[i + j] - mean)
            i += LANES
    while i < n:
        d = g[i] if w == NULL else g[i] * w[i]
        tail_g += d
        tail_gx += d * (x[i] - mean)
        i += 1
    sum_g[0] += lanes_total(acc_g) + tail_g
    sum_gx[0] += lanes_total(acc_gx) + tail_gx


cdef int _check_channels(Py_ssize_t* shape, Py_ssize_t* other, str what) except -1:
    cdef int k
    for k in range(3):
        _same(other[k], shape[k], what)
    return 0


def channel_forward(const real[:, :, ::1] x, const real[::1] weight, const real[::1] bias,
                    double epsilon, real[:, :, ::1] out, double[::1] mean, double[::1] rstd):
    """Per channel of ``x`` ``[A, C, B]``: its mean and ``1 / sqrt(var + epsilon)`` into
    ``mean`` and ``rstd`` ``[C]``, and the normalized, scaled and shifted ``out``.

    >>> out, mean, rstd = np.empty((2, 1, 2)), np.empty(1), np.empty(1)
    >>> channel_forward(np.array([[[1.0, 3.0]], [[5.0, 7.0]]]), np.ones(1), np.zeros(1), 0.0,
    ...                 out, mean, rstd)
    >>> mean, out.ravel().round(4).tolist()
    (array([4.]), [-1.3416, -0.4472, 0.4472, 1.3416])
    """
    cdef Py_ssize_t a, c, b, row, size
    cdef Py_ssize_t outer = x.shape[0], channels = x.shape[1], inner = x.shape[2]
    cdef Py_ssize_t count = outer * inner
    cdef double total
    cdef real scale, shift
    cdef const real* xp
    cdef real* op
    _check_channels(x.shape, out.shape, "out")
    for arr, name in ((weight, "weight"), (bias, "bias"), (mean, "mean"), (rstd, "rstd")):
        _same(len(arr), channels, name)
    size = outer * channels * inner
    if size == 0:
        mean[:] = 0
        rstd[:] = 1 / sqrt(epsilon) if epsilon > 0 else float("inf")
        return
    xp, op = &x[0, 0, 0], &out[0, 0, 0]
    with nogil:
        for c in range(channels):
            total = 0
            for a in range(outer):        # run [a, c, 0:inner] starts at row
                row = (a * channels + c) * inner
                check_index(row + inner - 1, size)
                total += sum_loop(xp + at(row, size), inner)
            mean[c] = total / count
            total = 0
            for a in range(outer):
                row = (a * channels + c) * inner
                total += _centred_squares(xp + at(row, size), inner, mean[c])
            rstd[c] = 1.0 / sqrt(total / count + epsilon)
            scale = <real>(rstd[c] * weight[c])
            shift = <real>(bias[c] - mean[c] * rstd[c] * weight[c])
            for a in range(outer):
                row = at((a * channels + c) * inner, size)
                for b in range(inner):
                    op[row + b] = xp[row + b] * scale + shift


def channel_backward(const real[:, :, ::1] x, const real[:, :, ::1] g, const double[::1] mean,
                     const double[::1] rstd, const real[::1] weight, real[:, :, ::1] dx,
                     double[::1] dweight, double[::1] dbias):
    """The gradients of :func:`channel_forward` for ``g``: ``dweight`` and ``dbias`` ``[C]``
    (sums of ``g * xhat`` and ``g``) and ``dx = weight * rstd * (g - mean(g) - xhat *
    mean(g * xhat))``.

    >>> x = np.array([[[1.0, 3.0]], [[5.0, 7.0]]])
    >>> mean, rstd, dx = np.array([4.0]), np.array([1 / 5 ** 0.5]), np.empty((2, 1, 2))
    >>> dw, db = np.empty(1), np.empty(1)
    >>> channel_backward(x, np.ones((2, 1, 2)), mean, rstd, np.ones(1), dx, dw, db)
    >>> db, dx.ravel().tolist()
    (array([4.]), [0.0, 0.0, 0.0, 0.0])
    """
    cdef Py_ssize_t a, c, b, row, size
    cdef Py_ssize_t outer = x.shape[0], channels = x.shape[1], inner = x.shape[2]
    cdef Py_ssize_t count = outer * inner
    cdef double sum_g, sum_gx, scale, mean_gx
    cdef real k0, k1, k2
    cdef const real* xp
    cdef const real* gp
    cdef real* dp
    _check_channels(x.shape, g.shape, "g")
    _check_channels(x.shape, dx.shape, "dx")
    for arr, name in ((mean, "mean"), (rstd, "rstd"), (weight, "weight"),
                      (dweight, "dweight"), (dbias, "dbias")):
        _same(len(arr), channels, name)
    size = outer * channels * inner
    if size == 0:
        dweight[:] = 0
        dbias[:] = 0
        return
    xp, gp, dp = &x[0, 0, 0], &g[0, 0, 0], &dx[0, 0, 0]
    with nogil:
        for c in range(channels):
            sum_g = 0
            sum_gx = 0
            for a in range(outer):
                row = (a * channels + c) * inner
                check_index(row + inner - 1, size)
                _gradient_sums(gp + at(row, size), NULL, xp + row, inner, mean[c], &sum_g,
                               &sum_gx)
            sum_gx *= rstd[c]
            dweight[c] = sum_gx
            dbias[c] = sum_g
            scale = weight[c] * rstd[c]
            mean_gx = sum_gx / count
            # dx = scale * (g - mean(g) - (x - mean) * rstd * mean_gx) = k0 g + k1 x + k2
            k0 = <real>scale
            k1 = <real>(-scale * rstd[c] * mean_gx)
            k2 = <real>(scale * (mean[c] * rstd[c] * mean_gx - sum_g / count))
            for a in range(outer):
                row = at((a * channels + c) * inner, size)
                for b in range(inner):
                    dp[row + b] = k0 * gp[row + b] + k1 * xp[row + b] + k2


def row_forward(const real[:, ::1] x, const real[::1] weight, const real[::1] bias,
                double epsilon, real[:, ::1] out, double[::1] mean, double[::1] rstd):
    """Per row of ``x`` ``[R, D]``: its mean and ``1 / sqrt(var + epsilon)`` into ``mean``
    and ``rstd`` ``[R]``, and ``out = xhat * weight + bias`` (``weight``, ``bias`` ``[D]``).

    >>> out, mean, rstd = np.empty((1, 3)), np.empty(1), np.empty(1)
    >>> row_forward(np.array([[1.0, 2.0, 3.0]]), np.ones(3), np.zeros(3), 0.0, out, mean,
    ...             rstd)
    >>> out.round(4)
    array([[-1.2247,  0.    ,  1.2247]])
    """
    cdef Py_ssize_t r, d, rows = x.shape[0], width = x.shape[1]
    cdef double m, s
    cdef const real* xr
    cdef real* outr
    cdef const real* wp
    cdef const real* bp
    _same(out.shape[0], rows, "out")
    _same(out.shape[1], width, "out")
    _same(weight.shape[0], width, "weight")
    _same(bias.shape[0], width, "bias")
    _same(mean.shape[0], rows, "mean")
    _same(rstd.shape[0], rows, "rstd")
    if rows == 0 or width == 0:
        mean[:] = 0
        rstd[:] = 1 / sqrt(epsilon) if epsilon > 0 else float("inf")
        return
    wp, bp = &weight[0], &bias[0]
    with nogil:
        for r in range(rows):
            xr, outr = &x[0, 0] + at(r, rows) * width, &out[0, 0] + r * width
            m = sum_loop(xr, width) / width
            s = 1.0 / sqrt(_centred_squares(xr, width, m) / width + epsilon)
            mean[r], rstd[r] = m, s
            for d in range(width):
                outr[d] = <real>((xr[d] - m) * s * wp[d] + bp[d])


def row_backward(const real[:, ::1] x, const real[:, ::1] g, const double[::1] mean,
                 const double[::1] rstd, const real[::1] weight, real[:, ::1] dx,
                 double[::1] dweight, double[::1] dbias):
    """The gradients of :func:`row_forward` for ``g``: ``dweight`` and ``dbias`` ``[D]``
    (summed over the rows) and, per row, ``dx = rstd * (d - mean(d) - xhat * mean(d *
    xhat))`` with ``d = g * weight``.

    >>> x = np.array([[1.0, 2.0, 3.0]])
    >>> dx, dw, db = np.empty((1, 3)), np.empty(3), np.empty(3)
    >>> row_backward(x, np.ones((1, 3)), np.array([2.0]), np.array([1.5 ** 0.5]), np.ones(3),
    ...              dx, dw, db)
    >>> db, dx.round(6).tolist()
    (array([1., 1., 1.]), [[0.0, 0.0, 0.0]])
    """
    cdef Py_ssize_t r, d, rows = x.shape[0], width = x.shape[1]
    cdef double sum_d, sum_dx, m, s
    cdef const real* xr
    cdef const real* gr
    cdef real* dr
    cdef const real* wp
    cdef double* dwp
    cdef double* dbp
    for k in range(2):
        _same(g.shape[k], x.shape[k], "g")
        _same(dx.shape[k], x.shape[k], "dx")
    _same(mean.shape[0], rows, "mean")
    _same(rstd.shape[0], rows, "rstd")
    _same(weight.shape[0], width, "weight")
    _same(dweight.shape[0], width, "dweight")
    _same(dbias.shape[0], width, "dbias")
    dweight[:] = 0
    dbias[:] = 0
    if rows == 0 or width == 0:
        return
    wp, dwp, dbp = &weight[0], &dweight[0], &dbias[0]
    with nogil:
        for r in range(rows):
            xr = &x[0, 0] + at(r, rows) * width
            gr, dr = &g[0, 0] + r * width, &dx[0, 0] + r * width
            m, s = mean[r], rstd[r]
            sum_d = 0
            sum_dx = 0
            _gradient_sums(gr, wp, xr, width, m, &sum_d, &sum_dx)
            for d in range(width):
                dwp[d] += gr[d] * ((xr[d] - m) * s)
                dbp[d] += gr[d]
            # dx = s * (d - mean(d) - xhat * mean(d * xhat)), xhat = (x - m) * s
            sum_d /= width
            sum_dx *= s * s / width
            for d in range(width):
                dr[d] = <real>(s * (gr[d] * wp[d] - sum_d - (xr[d] - m) * sum_dx))
