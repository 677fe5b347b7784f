# What the kernels share: the floating types they run in, strided arrays seen through
# raw pointers, the index check of a debug build, the run of window positions inside
# an axis, and zeroing an array.
#
# The kernels' loops index raw pointers (Cython's bounds checks would cost a branch
# per element): every entry point proves at the door that the indices its loops form
# stay inside the arrays, and a debug build (PYLAYER_CYTHON_DEBUG=1) checks each one
# again with at(), aborting on the first index outside its axis.
from libc.string cimport memset


cdef extern from *:
    """
    #include <stdio.h>
    #include <stdlib.h>
    #if PYLAYER_BOUNDS_CHECKED
    static Py_ssize_t pylayer_index_outside(Py_ssize_t i, Py_ssize_t n, const char *file,
                                            int line) {
        fprintf(stderr, "pylayer kernel: index %zd outside [0, %zd) at %s:%d\\n", i, n,
                file, line);
        abort();
        return 0;
    }
    #define PYLAYER_AT(i, n) \\
        ((0 <= (i) && (i) < (n)) ? (i) : pylayer_index_outside((i), (n), __FILE__, __LINE__))
    #else
    #define PYLAYER_AT(i, n) (i)
    #endif
    #define PYLAYER_CHECK(i, n) ((void)PYLAYER_AT(i, n))
    """
    # ``i`` itself; in a debug build it aborts unless 0 <= i < n.
    Py_ssize_t at "PYLAYER_AT"(Py_ssize_t i, Py_ssize_t n) noexcept nogil
    # Nothing; in a debug build it aborts unless 0 <= i < n (the last index of a run).
    void check_index "PYLAYER_CHECK"(Py_ssize_t i, Py_ssize_t n) noexcept nogil

ctypedef fused real:
    float
    double

# A strided array's sizes and strides counted in elements (not bytes).
ctypedef struct Shape4:
    Py_ssize_t size[4]
    Py_ssize_t step[4]


cdef inline int shape4(const real[:, :, :, :] a, Shape4* s) except -1:
    """Fill ``s`` from ``a``; refuse strides that are not whole elements."""
    cdef int k
    for k in range(4):
        if a.strides[k] % <Py_ssize_t>sizeof(real):
            raise ValueError(f"an array stride of {a.strides[k]} bytes is not a whole "
                             f"number of {sizeof(real)}-byte elements")
        s.size[k] = a.shape[k]
        s.step[k] = a.strides[k] // <Py_ssize_t>sizeof(real)
    return 0


cdef inline bint is_empty(const Shape4* s) noexcept nogil:
    return s.size[0] == 0 or s.size[1] == 0 or s.size[2] == 0 or s.size[3] == 0


cdef inline Py_ssize_t plane(const Shape4* s, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """The offset of element ``[a, b, 0, 0]``."""
    return at(a, s.size[0]) * s.step[0] + at(b, s.size[1]) * s.step[1]


cdef inline Py_ssize_t cell(const Shape4* s, Py_ssize_t h, Py_ssize_t w) noexcept nogil:
    """The offset of ``[., ., h, w]`` from its plane's ``[., ., 0, 0]``."""
    return at(h, s.size[2]) * s.step[2] + at(w, s.size[3]) * s.step[3]


cdef inline bint is_c_contiguous(const Shape4* s) noexcept nogil:
    return (s.step[3] == 1 and s.step[2] == s.size[3] and s.step[1] == s.size[2] * s.step[2]
            and s.step[0] == s.size[1] * s.step[1])


cdef inline void zero_4d(real* p, const Shape4* s) noexcept nogil:
    """Set every element of the array ``s`` at ``p`` to 0 (``p`` unused when it is
    empty)."""
    cdef Py_ssize_t n, c, h, w, base
    if is_empty(s):
        return
    if is_c_contiguous(s):
        memset(p, 0, s.size[0] * s.step[0] * sizeof(real))
        return
    for n in range(s.size[0]):
        for c in range(s.size[1]):
            base = plane(s, n, c)
            for h in range(s.size[2]):
                for w in range(s.size[3]):
                    p[base + cell(s, h, w)] = 0


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
