# What the kernels share: the floating types they run in, the run of window positions
# inside an axis, and zeroing an array.
from libc.string cimport memset

ctypedef fused real:
    float
    double


cdef inline void zero_4d(real[:, :, :, :] a) noexcept nogil:
    """Set every element of ``a`` to 0: one memset when it is C-contiguous."""
    cdef Py_ssize_t n, c, h, w
    if a.shape[0] == 0 or a.shape[1] == 0 or a.shape[2] == 0 or a.shape[3] == 0:
        return
    if (a.strides[3] == sizeof(real) and a.strides[2] == a.shape[3] * a.strides[3]
            and a.strides[1] == a.shape[2] * a.strides[2]
            and a.strides[0] == a.shape[1] * a.strides[1]):
        memset(&a[0, 0, 0, 0], 0, a.shape[0] * a.strides[0])
        return
    for n in range(a.shape[0]):
        for c in range(a.shape[1]):
            for h in range(a.shape[2]):
                for w in range(a.shape[3]):
                    a[n, c, h, w] = 0


cdef inline void span(Py_ssize_t start, Py_ssize_t step, Py_ssize_t size, Py_ssize_t count,
                       Py_ssize_t* lo, Py_ssize_t* hi) noexcept nogil:
    """The positions ``t`` in ``[lo, hi)`` of ``[0, count)`` whose ``start + t * step`` lies
    in ``[0, size)`` (``step`` >= 1): a contiguous run."""
    cdef Py_ssize_t first = 0, end = count
    if start < 0:
        first = (step - 1 - start) // step          # ceil(-start / step), both positive
    if start >= size:
        end = 0
    elif (size - start + step - 1) // step < count:
        end = (size - start + step - 1) // step     # ceil((size - start) / step)
    if first > count:
        first = count
    if end < first:
        end = first
    lo[0] = first
    hi[0] = end
