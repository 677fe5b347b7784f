# cython: wraparound=False
"""Normalization loops: ``(x - mean) * rstd * weight + bias`` and its gradient.

Two layouts. *Channels*: ``x`` is ``[A, C, B]`` and each channel ``c`` is
normalized over its ``A * B`` elements (batch normalization: ``[N, C, H*W]``
for NCHW, ``[N*H*W, C, 1]`` for NHWC). *Rows*: ``x`` is ``[R, D]`` and each row
is normalized over its ``D`` elements, the weight and bias running along the
row (layer normalization). Statistics are accumulated in double; the variance
is the biased one, from a second pass over the centred values.

Every array's shape is checked against ``x``'s at the door; the loops then
index within those shapes.
"""
import numpy as np

cimport numpy as cnp
from libc.math cimport sqrt

from pylayer.kernels._common cimport real

cnp.import_array()

__all__ = []   # internal: nn.norm calls these (and the tests)


cdef int _same(Py_ssize_t got, Py_ssize_t want, str what) except -1:
    if got != want:
        raise ValueError(f"{what} must have {want} elements along its axis, got {got}")
    return 0


# Sums over contiguous runs use four partial sums: one chain of dependent additions
# would wait on the adder's latency at every element.
cdef inline double _sum(const real* p, Py_ssize_t n) noexcept nogil:
    cdef double s0 = 0, s1 = 0, s2 = 0, s3 = 0
    cdef Py_ssize_t i = 0
    while i + 4 <= n:
        s0 += p[i]
        s1 += p[i + 1]
        s2 += p[i + 2]
        s3 += p[i + 3]
        i += 4
    while i < n:
        s0 += p[i]
        i += 1
    return (s0 + s1) + (s2 + s3)


cdef inline double _centred_squares(const real* p, Py_ssize_t n, double mean) noexcept nogil:
    cdef double s0 = 0, s1 = 0, s2 = 0, s3 = 0, d0, d1, d2, d3
    cdef Py_ssize_t i = 0
    while i + 4 <= n:
        d0 = p[i] - mean
        d1 = p[i + 1] - mean
        d2 = p[i + 2] - mean
        d3 = p[i + 3] - mean
        s0 += d0 * d0
        s1 += d1 * d1
        s2 += d2 * d2
        s3 += d3 * d3
        i += 4
    while i < n:
        d0 = p[i] - mean
        s0 += d0 * d0
        i += 1
    return (s0 + s1) + (s2 + s3)


cdef inline void _gradient_sums(const real* g, const real* x, Py_ssize_t n, double mean,
                                double* sum_g, double* sum_gx) noexcept nogil:
    """Add ``sum(g)`` and ``sum(g * (x - mean))`` over a run to ``sum_g`` and ``sum_gx``."""
    cdef double a0 = 0, a1 = 0, b0 = 0, b1 = 0
    cdef Py_ssize_t i = 0
    while i + 2 <= n:
        a0 += g[i]
        a1 += g[i + 1]
        b0 += g[i] * (x[i] - mean)
        b1 += g[i + 1] * (x[i + 1] - mean)
        i += 2
    while i < n:
        a0 += g[i]
        b0 += g[i] * (x[i] - mean)
        i += 1
    sum_g[0] += a0 + a1
    sum_gx[0] += b0 + b1


cdef inline bint _runs(const real[:, :, :] a) noexcept nogil:
    """Whether ``a``'s last axis is contiguous and not empty (each [i, j] row is a run)."""
    return a.shape[2] > 0 and a.strides[2] == sizeof(real)


def channel_forward(const real[:, :, :] x, const real[::1] weight, const real[::1] bias,
                    double epsilon, real[:, :, :] out, double[::1] mean, double[::1] rstd):
    """Per channel of ``x`` ``[A, C, B]``: its mean and ``1 / sqrt(var + epsilon)`` into
    ``mean`` and ``rstd`` ``[C]``, and the normalized, scaled and shifted ``out``.

    >>> out, mean, rstd = np.empty((2, 1, 2)), np.empty(1), np.empty(1)
    >>> channel_forward(np.array([[[1.0, 3.0]], [[5.0, 7.0]]]), np.ones(1), np.zeros(1), 0.0,
    ...                 out, mean, rstd)
    >>> mean, out.ravel().round(4).tolist()
    (array([4.]), [-1.3416, -0.4472, 0.4472, 1.3416])
    """
    cdef Py_ssize_t a, c, b, count = x.shape[0] * x.shape[2]
    cdef double total, centred, scale, shift
    cdef int k
    for k in range(3):
        _same(out.shape[k], x.shape[k], "out")
    _same(weight.shape[0], x.shape[1], "weight")
    _same(bias.shape[0], x.shape[1], "bias")
    _same(mean.shape[0], x.shape[1], "mean")
    _same(rstd.shape[0], x.shape[1], "rstd")
    cdef bint runs = _runs(x) and _runs(out)
    cdef const real* source
    cdef real* target
    cdef real rscale, rshift
    with nogil:
        for c in range(x.shape[1]):
            total = 0
            for a in range(x.shape[0]):
                if runs:
                    total += _sum(&x[a, c, 0], x.shape[2])
                else:
                    for b in range(x.shape[2]):
                        total += x[a, c, b]
            mean[c] = total / count if count else 0.0
            total = 0
            for a in range(x.shape[0]):
                if runs:
                    total += _centred_squares(&x[a, c, 0], x.shape[2], mean[c])
                else:
                    for b in range(x.shape[2]):
                        centred = x[a, c, b] - mean[c]
                        total += centred * centred
            rstd[c] = 1.0 / sqrt((total / count if count else 0.0) + epsilon)
            scale = rstd[c] * weight[c]
            shift = bias[c] - mean[c] * scale
            rscale, rshift = <real>scale, <real>shift
            for a in range(x.shape[0]):
                if runs:             # the run [a, c, 0:B] of x and of out
                    source, target = &x[a, c, 0], &out[a, c, 0]
                    for b in range(x.shape[2]):
                        target[b] = source[b] * rscale + rshift
                else:
                    for b in range(x.shape[2]):
                        out[a, c, b] = <real>(x[a, c, b] * scale + shift)


def channel_backward(const real[:, :, :] x, const real[:, :, :] g, const double[::1] mean,
                     const double[::1] rstd, const real[::1] weight, real[:, :, :] dx,
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
    cdef Py_ssize_t a, c, b, count = x.shape[0] * x.shape[2]
    cdef double sum_g, sum_gx, xhat, scale, mean_g, mean_gx
    cdef int k
    for k in range(3):
        _same(g.shape[k], x.shape[k], "g")
        _same(dx.shape[k], x.shape[k], "dx")
    _same(mean.shape[0], x.shape[1], "mean")
    _same(rstd.shape[0], x.shape[1], "rstd")
    _same(dweight.shape[0], x.shape[1], "dweight")
    _same(dbias.shape[0], x.shape[1], "dbias")
    _same(weight.shape[0], x.shape[1], "weight")
    cdef bint runs = _runs(x) and _runs(g) and _runs(dx)
    cdef const real* xs
    cdef const real* gs
    cdef real* target
    cdef real k0, k1, k2
    with nogil:
        for c in range(x.shape[1]):
            sum_g = 0
            sum_gx = 0
            for a in range(x.shape[0]):
                if runs:
                    _gradient_sums(&g[a, c, 0], &x[a, c, 0], x.shape[2], mean[c], &sum_g,
                                   &sum_gx)
                else:
                    for b in range(x.shape[2]):
                        sum_g += g[a, c, b]
                        sum_gx += g[a, c, b] * (x[a, c, b] - mean[c])
            sum_gx *= rstd[c]
            dweight[c] = sum_gx
            dbias[c] = sum_g
            if count == 0:
                continue
            scale = weight[c] * rstd[c]
            mean_g = sum_g / count
            mean_gx = sum_gx / count
            # dx = scale * (g - mean_g - (x - mean) * rstd * mean_gx) = k0 * g + k1 * x + k2
            k0 = <real>scale
            k1 = <real>(-scale * rstd[c] * mean_gx)
            k2 = <real>(scale * (mean[c] * rstd[c] * mean_gx - mean_g))
            for a in range(x.shape[0]):
                if runs:
                    xs, gs, target = &x[a, c, 0], &g[a, c, 0], &dx[a, c, 0]
                    for b in range(x.shape[2]):
                        target[b] = k0 * gs[b] + k1 * xs[b] + k2
                else:
                    for b in range(x.shape[2]):
                        xhat = (x[a, c, b] - mean[c]) * rstd[c]
                        dx[a, c, b] = <real>(scale * (g[a, c, b] - mean_g - xhat * mean_gx))


def row_forward(const real[:, :] x, const real[::1] weight, const real[::1] bias,
                double epsilon, real[:, :] out, double[::1] mean, double[::1] rstd):
    """Per row of ``x`` ``[R, D]``: its mean and ``1 / sqrt(var + epsilon)`` into ``mean``
    and ``rstd`` ``[R]``, and ``out = xhat * weight + bias`` (``weight``, ``bias`` ``[D]``).

    >>> out, mean, rstd = np.empty((1, 3)), np.empty(1), np.empty(1)
    >>> row_forward(np.array([[1.0, 2.0, 3.0]]), np.ones(3), np.zeros(3), 0.0, out, mean,
    ...             rstd)
    >>> out.round(4)
    array([[-1.2247,  0.    ,  1.2247]])
    """
    cdef Py_ssize_t r, d, width = x.shape[1]
    cdef double total, centred
    _same(out.shape[0], x.shape[0], "out")
    _same(out.shape[1], width, "out")
    _same(weight.shape[0], width, "weight")
    _same(bias.shape[0], width, "bias")
    _same(mean.shape[0], x.shape[0], "mean")
    _same(rstd.shape[0], x.shape[0], "rstd")
    if width == 0:
        return
    with nogil:
        for r in range(x.shape[0]):
            total = 0
            for d in range(width):
                total += x[r, d]
            mean[r] = total / width
            total = 0
            for d in range(width):
                centred = x[r, d] - mean[r]
                total += centred * centred
            rstd[r] = 1.0 / sqrt(total / width + epsilon)
            for d in range(width):
                out[r, d] = <real>((x[r, d] - mean[r]) * rstd[r] * weight[d] + bias[d])


def row_backward(const real[:, :] x, const real[:, :] g, const double[::1] mean,
                 const double[::1] rstd, const real[::1] weight, real[:, :] dx,
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
    cdef Py_ssize_t r, d, width = x.shape[1]
    cdef double sum_d, sum_dx, xhat, value
    cdef int k
    for k in range(2):
        _same(g.shape[k], x.shape[k], "g")
        _same(dx.shape[k], x.shape[k], "dx")
    _same(mean.shape[0], x.shape[0], "mean")
    _same(rstd.shape[0], x.shape[0], "rstd")
    _same(weight.shape[0], width, "weight")
    _same(dweight.shape[0], width, "dweight")
    _same(dbias.shape[0], width, "dbias")
    dweight[:] = 0
    dbias[:] = 0
    if width == 0:
        return
    with nogil:
        for r in range(x.shape[0]):
            sum_d = 0
            sum_dx = 0
            for d in range(width):
                xhat = (x[r, d] - mean[r]) * rstd[r]
                value = g[r, d] * weight[d]
                sum_d += value
                sum_dx += value * xhat
                dweight[d] += g[r, d] * xhat
                dbias[d] += g[r, d]
            sum_d /= width
            sum_dx /= width
            for d in range(width):
                xhat = (x[r, d] - mean[r]) * rstd[r]
                dx[r, d] = <real>(rstd[r] * (g[r, d] * weight[d] - sum_d - xhat * sum_dx))
