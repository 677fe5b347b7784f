# Fused elementwise loops over raw buffers. Callers check dtype, C-contiguity
# and equal sizes first (the tests under "choosing a loop") and, in a debug build, call
# check_span for every array a loop is about to run over: the loops that run
# in production are bounds-checked there. loops.pyx gives each loop a
# typed-memoryview entry point that checks its arguments, which the optimizer
# and the tests call. (A memoryview per array would check every access, but
# acquiring one costs about as much as a whole [64] op.)
cimport numpy as cnp
from libc.math cimport (erf as c_erf, erff as c_erff, exp as c_exp, expf as c_expf,
                        log as c_log, sqrt as c_sqrt, sqrtf as c_sqrtf)

cdef extern from *:
    int PYLAYER_BOUNDS_CHECKED     # 1 in a debug build (PYLAYER_CYTHON_DEBUG=1)


cdef inline int check_span(object array, Py_ssize_t n, int typenum) except -1:
    """In a debug build: ``array`` is a C-contiguous array of ``typenum`` holding at least
    ``n`` items, so a raw loop over its first ``n`` items stays inside it. Compiled out
    of a release build."""
    if PYLAYER_BOUNDS_CHECKED:
        if not (cnp.PyArray_Check(array)
                and cnp.PyArray_TYPE(<cnp.ndarray>array) == typenum
                and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>array)
                and cnp.PyArray_SIZE(<cnp.ndarray>array) >= n):
            raise IndexError(f"a kernel loop over {n} items of type {typenum} would leave its "
                             f"array ({type(array).__name__} "
                             f"{getattr(array, 'dtype', '')} {getattr(array, 'shape', '')})")
    return 0


cdef inline int check_spans(object out, object a, object b) except -1:
    """In a debug build: ``a`` and ``b`` (None: no second operand) hold as many items of
    ``out``'s type as a loop writing all of ``out`` touches. Compiled out of a release build."""
    cdef Py_ssize_t n
    cdef int typenum
    if PYLAYER_BOUNDS_CHECKED:
        n = cnp.PyArray_SIZE(<cnp.ndarray>out)
        typenum = cnp.PyArray_TYPE(<cnp.ndarray>out)
        check_span(out, n, typenum)
        check_span(a, n, typenum)
        if b is not None:
            check_span(b, n, typenum)
    return 0

# Up to this many elements a C loop beats numpy's per-call dispatch; beyond it
# numpy's run-time-dispatched SIMD loops win, so the fast paths hand over.
cdef enum:
    SMALL_ARRAY = 2048

ctypedef fused real:
    float
    double


cdef inline real erf_of_one(real v) noexcept nogil:
    """The C library's erf, in the precision of ``real``."""
    if real is float:
        return c_erff(v)
    else:
        return c_erf(v)


cdef inline real exp_of_one(real v) noexcept nogil:
    if real is float:
        return c_expf(v)
    else:
        return c_exp(v)


# The unary loops of ``unary_loop`` (its ``int op``).
cpdef enum Unary:
    ERF = 0
    GELU = 1            # x * Phi(x), Phi(x) = (1 + erf(x / sqrt 2)) / 2
    GELU_SLOPE = 2      # d gelu / dx = Phi(x) + x * phi(x), phi the normal density
    RELU = 3            # max(x, 0) as numpy's maximum gives it: NaN stays, -0.0 gives 0.0


cpdef object unary(int op, object a)


cdef inline void unary_loop(int op, const real* x, real* out, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef real v
    cdef real root_half = <real>0.70710678118654752440
    cdef real density = <real>0.39894228040143267794      # 1 / sqrt(2 pi)
    if op == ERF:
        for i in range(n):
            out[i] = erf_of_one(x[i])
    elif op == GELU:
        for i in range(n):
            v = x[i]
            out[i] = <real>0.5 * v * (1 + erf_of_one(v * root_half))
    elif op == RELU:
        for i in range(n):
            v = x[i]
            out[i] = 0 if v <= 0 else v
    else:
        for i in range(n):
            v = x[i]
            out[i] = (<real>0.5 * (1 + erf_of_one(v * root_half))
                      + v * density * exp_of_one(<real>-0.5 * v * v))


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


# The operation binary_loop and scalar_loop apply (their ``int op``).
cpdef enum Arithmetic:
    ADDITION = 0
    SUBTRACTION = 1
    MULTIPLICATION = 2
    DIVISION = 3


cdef inline void binary_loop(int op, const real* a, const real* b, real* out,
                             Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    if op == ADDITION:
        for i in range(n):
            out[i] = a[i] + b[i]
    elif op == SUBTRACTION:
        for i in range(n):
            out[i] = a[i] - b[i]
    elif op == MULTIPLICATION:
        for i in range(n):
            out[i] = a[i] * b[i]
    else:
        for i in range(n):
            out[i] = a[i] / b[i]


# ------------------------------------------------------------ choosing a loop
# What a caller proves before a loop runs over raw pointers (loop_ready, the one test
# every raw loop's caller makes for every array it reads): float32 or float64 data in
# the machine's byte order, aligned, C-contiguous; and for two arrays one dtype and
# one shape. An array that fails it goes to numpy, which reads any layout.
cdef inline bint is_float_array(object a):
    if not cnp.PyArray_Check(a):
        return False
    t = cnp.PyArray_TYPE(a)
    return t == cnp.NPY_FLOAT32 or t == cnp.NPY_FLOAT64


cdef inline bint loop_ready(object a):
    """A float32/float64 array a loop may read as ``const float*`` / ``const double*``:
    native byte order (a big-endian array has the same dtype number), aligned and
    C-contiguous."""
    return (is_float_array(a) and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray>a)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray>a))


cdef inline bint loop_writable(object a):
    """``loop_ready`` for an array a loop writes into: writeable as well."""
    return loop_ready(a) and cnp.PyArray_ISWRITEABLE(<cnp.ndarray>a)


cdef inline bint kernel_ready(object a):
    """A small array that loop_ready accepts: a C loop beats numpy on it."""
    return loop_ready(a) and cnp.PyArray_SIZE(<cnp.ndarray>a) <= SMALL_ARRAY


cdef inline bint _one_layout(object a, object b):
    """``b`` is loop_ready with ``a``'s dtype and shape (``a`` already is)."""
    return (loop_ready(b) and cnp.PyArray_TYPE(<cnp.ndarray>a) == cnp.PyArray_TYPE(<cnp.ndarray>b)
            and cnp.PyArray_SAMESHAPE(<cnp.ndarray>a, <cnp.ndarray>b))


cdef inline bint same_layout(object a, object b):
    """Two loop_ready arrays of one dtype and shape (any size)."""
    return loop_ready(a) and _one_layout(a, b)


cdef inline bint fusable(object a, object b):
    """Two loop_ready arrays of one dtype and shape, small enough for a C loop."""
    return kernel_ready(a) and _one_layout(a, b)


cdef inline cnp.ndarray empty_like(object a):
    return cnp.PyArray_EMPTY(cnp.PyArray_NDIM(<cnp.ndarray>a), cnp.PyArray_DIMS(<cnp.ndarray>a),
                             cnp.PyArray_TYPE(<cnp.ndarray>a), 0)


cdef inline bint is_single(object a):
    return cnp.PyArray_TYPE(<cnp.ndarray>a) == cnp.NPY_FLOAT32


cdef inline void* data_of(object a):
    return cnp.PyArray_DATA(<cnp.ndarray>a)


cdef inline object small_binary(int op, object a, object b):
    """A new array ``a (op) b`` by binary_loop when ``fusable(a, b)``, else None."""
    cdef cnp.ndarray out
    if not fusable(a, b):
        return None
    out = empty_like(a)
    check_spans(out, a, b)
    if is_single(a):
        binary_loop(op, <const float*>data_of(a), <const float*>data_of(b),
                    <float*>data_of(out), cnp.PyArray_SIZE(out))
    else:
        binary_loop(op, <const double*>data_of(a), <const double*>data_of(b),
                    <double*>data_of(out), cnp.PyArray_SIZE(out))
    return out


cdef inline bint small_add_into(object acc, object b) except -1:
    """``acc += b`` by add_into_loop when ``fusable(acc, b)`` and ``acc`` is writeable; False
    when it did nothing."""
    if not (fusable(acc, b) and loop_writable(acc)):
        return False
    check_spans(acc, acc, b)
    if is_single(acc):
        add_into_loop(<float*>data_of(acc), <const float*>data_of(b), cnp.PyArray_SIZE(<cnp.ndarray>acc))
    else:
        add_into_loop(<double*>data_of(acc), <const double*>data_of(b),
                      cnp.PyArray_SIZE(<cnp.ndarray>acc))
    return True


cdef inline void scalar_loop(int op, const real* a, real s, bint scalar_first, real* out,
                             Py_ssize_t n) noexcept nogil:
    """The same ops with one operand a number (first or second)."""
    cdef Py_ssize_t i
    if op == ADDITION:
        for i in range(n):
            out[i] = a[i] + s
    elif op == MULTIPLICATION:
        for i in range(n):
            out[i] = a[i] * s
    elif op == SUBTRACTION and not scalar_first:
        for i in range(n):
            out[i] = a[i] - s
    elif op == SUBTRACTION:
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


cdef inline Py_ssize_t softmax_xent_loop(const real* logits, const long long* labels,
                                         Py_ssize_t rows, Py_ssize_t classes,
                                         long long ignore_index, real* losses,
                                         real* probs) noexcept nogil:
    """Softmax cross entropy of each row of ``logits`` (rows x classes) with hard labels.

    probs = softmax(row); loss = log(sum(exp(row - max))) - (row[label] - max),
    0 where the label is ``ignore_index``. Returns -1, or the first row whose
    label lies outside [0, classes).
    """
    cdef Py_ssize_t r, j
    cdef const real* row
    cdef real* p
    cdef real top, e
    cdef double total
    cdef long long label
    for r in range(rows):
        row = logits + r * classes
        p = probs + r * classes
        top = row[0]
        for j in range(1, classes):
            if row[j] > top:
                top = row[j]
        total = 0
        for j in range(classes):
            e = exp_of_one(row[j] - top)       # expf for float32
            p[j] = e
            total += e
        for j in range(classes):
            p[j] = <real>(p[j] / total)
        label = labels[r]
        if label == ignore_index:
            losses[r] = 0
            continue
        if label < 0 or label >= classes:
            return r
        losses[r] = <real>(c_log(total) - (row[label] - top))
    return -1


cdef inline Py_ssize_t softmax_xent_backward_loop(const real* probs, const long long* labels,
                                                  const real* factors, Py_ssize_t rows,
                                                  Py_ssize_t classes, long long ignore_index,
                                                  real* out) noexcept nogil:
    """out = (probs - onehot(labels)) * factor of the row (0 for ignored rows).

    Returns -1, or the first row whose label is neither in [0, classes) nor
    ``ignore_index`` (the rows from it on are not written)."""
    cdef Py_ssize_t r, j
    cdef real f
    for r in range(rows):
        if labels[r] != ignore_index and not 0 <= labels[r] < classes:
            return r
        f = factors[r] if labels[r] != ignore_index else 0
        for j in range(classes):
            out[r * classes + j] = probs[r * classes + j] * f
        if labels[r] != ignore_index:
            out[r * classes + labels[r]] -= f
    return -1


# ---------------------------------------- sums over runs, and softmax along rows
# A sum over a run keeps eight partial sums in an array: one chain of dependent
# additions would wait on the adder's latency at every element, and the compiler
# turns the fixed inner loop over the array into vector instructions.
cdef enum:
    LANES = 8


cdef inline double lanes_total(const double* acc) noexcept nogil:
    """The sum of the LANES partial sums ``acc``."""
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))


cdef inline double sum_loop(const real* p, Py_ssize_t n) noexcept nogil:
    """The sum of ``p[0:n]``, accumulated in double."""
    cdef double acc[LANES]
    cdef double tail = 0
    cdef Py_ssize_t i = 0, j
    for j in range(LANES):
        acc[j] = 0
    while i + LANES <= n:
        for j in range(LANES):
            acc[j] += p[i + j]
        i += LANES
    while i < n:
        tail += p[i]
        i += 1
    return lanes_total(acc) + tail


cdef inline double dot_loop(const real* a, const real* b, Py_ssize_t n) noexcept nogil:
    """The sum of ``a[i] * b[i]`` over ``i < n``, accumulated in double."""
    cdef double acc[LANES]
    cdef double tail = 0
    cdef Py_ssize_t i = 0, j
    for j in range(LANES):
        acc[j] = 0
    while i + LANES <= n:
        for j in range(LANES):
            acc[j] += <double>a[i + j] * b[i + j]
        i += LANES
    while i < n:
        tail += <double>a[i] * b[i]
        i += 1
    return lanes_total(acc) + tail


cdef inline void softmax_shift_loop(const real* x, real* out, Py_ssize_t rows,
                                    Py_ssize_t width) noexcept nogil:
    """Each row of ``x`` (rows x width, width > 0) minus its largest element, into ``out``.
    A NaN in a row, or an infinity that the shift turns into NaN, spreads over the row
    through its sum in softmax_scale_loop."""
    cdef Py_ssize_t r, j
    cdef const real* row
    cdef real top
    for r in range(rows):
        row = x + r * width
        top = row[0]
        for j in range(1, width):
            if row[j] > top:
                top = row[j]
        for j in range(width):
            out[r * width + j] = row[j] - top


cdef inline void softmax_scale_loop(real* e, Py_ssize_t rows, Py_ssize_t width) noexcept nogil:
    """Divide each row of ``e`` (rows x width) by its sum, rounded to ``real``."""
    cdef Py_ssize_t r, j
    cdef real total
    for r in range(rows):
        total = <real>sum_loop(e + r * width, width)
        for j in range(width):
            e[r * width + j] /= total


cdef inline void softmax_backward_loop(const real* y, const real* g, real* out,
                                       Py_ssize_t rows, Py_ssize_t width) noexcept nogil:
    """``out = y * (g - sum(g * y))`` per row: the gradient of ``y = softmax(x)``."""
    cdef Py_ssize_t r, j
    cdef real dot
    for r in range(rows):
        dot = <real>dot_loop(g + r * width, y + r * width, width)
        for j in range(width):
            out[r * width + j] = y[r * width + j] * (g[r * width + j] - dot)
