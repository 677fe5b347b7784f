# Fused elementwise loops over raw buffers. Callers check dtype, C-contiguity
# and equal sizes first (see _ops.pyx); _kernels.pyx wraps each loop with a
# typed-memoryview entry point for tests and the bounds-checked build.
from libc.math cimport exp as c_exp

# Up to this many elements a C loop beats numpy's per-call dispatch; beyond it
# numpy's run-time-dispatched SIMD loops win, so the fast paths hand over.
cdef enum:
    SMALL_ARRAY = 2048

ctypedef fused real:
    float
    double


cdef inline void tanh_backward_loop(const real* y, const real* dy, real* out,
                                    Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        out[i] = dy[i] * (1 - y[i] * y[i])


cdef inline void sigmoid_forward_loop(const real* x, real* out, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef real v, e
    for i in range(n):
        v = x[i]
        if v >= 0:
            out[i] = 1 / (1 + c_exp(-v))
        else:
            e = c_exp(v)
            out[i] = e / (1 + e)


cdef inline void sigmoid_backward_loop(const real* y, const real* dy, real* out,
                                       Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        out[i] = dy[i] * y[i] * (1 - y[i])


cdef inline void relu_backward_loop(const real* y, const real* dy, real* out,
                                    Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef real g
    for i in range(n):
        g = dy[i]                  # loaded unconditionally, so the compiler can vectorize
        out[i] = g if y[i] > 0 else 0


cdef inline void add_into_loop(real* acc, const real* x, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        acc[i] += x[i]


# Arithmetic: op 0 add, 1 subtract, 2 multiply, 3 divide.
cdef inline void binary_loop(int op, const real* a, const real* b, real* out,
                             Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    if op == 0:
        for i in range(n):
            out[i] = a[i] + b[i]
    elif op == 1:
        for i in range(n):
            out[i] = a[i] - b[i]
    elif op == 2:
        for i in range(n):
            out[i] = a[i] * b[i]
    else:
        for i in range(n):
            out[i] = a[i] / b[i]


cdef inline void scalar_loop(int op, const real* a, real s, bint scalar_first, real* out,
                             Py_ssize_t n) noexcept nogil:
    """The same ops with one operand a number (first or second)."""
    cdef Py_ssize_t i
    if op == 0:
        for i in range(n):
            out[i] = a[i] + s
    elif op == 2:
        for i in range(n):
            out[i] = a[i] * s
    elif op == 1 and not scalar_first:
        for i in range(n):
            out[i] = a[i] - s
    elif op == 1:
        for i in range(n):
            out[i] = s - a[i]
    elif not scalar_first:
        for i in range(n):
            out[i] = a[i] / s
    else:
        for i in range(n):
            out[i] = s / a[i]


cdef inline void axpy_loop(real alpha, const real* x, real* y, Py_ssize_t n) noexcept nogil:
    """y += alpha * x, in place: one pass and no temporary (optimizer updates)."""
    cdef Py_ssize_t i
    for i in range(n):
        y[i] += alpha * x[i]
