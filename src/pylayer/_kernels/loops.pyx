# cython: wraparound=False
# distutils: extra_compile_args = -fno-math-errno -fno-inline-functions-called-once
"""Typed-memoryview entry points for the fused loops of ``loops.pxd`` that Python code
calls: the optimizers' ``axpy`` and ``adam_update``, the cross-entropy loss's two
``softmax_cross_entropy`` loops, linear's ``column_sums`` and ``unary`` (erf, GELU and its
slope, by the C library's ``erf``). They check their arguments' lengths against each
other. The compiled ops call the other loops directly (tests/core/test_kernels.py
drives each through its op).

Compiled with -fno-math-errno (the distutils line above): the square root then
needs no errno check, and Adam's loop runs in vector instructions; no result
changes, since nothing reads errno and IEEE square root and division round exactly
either way. And with -fno-inline-functions-called-once: inlined into the large
``adam_update`` wrapper, GCC left that loop scalar (110 against 31 µs for 65,536
float32 elements).
"""

import numpy as np

from pylayer._kernels.buffers cimport buffer_like
from pylayer._kernels.dtypes import is_floating, is_integer

cnp.import_array()      # check_span (the .pxd) uses numpy's C API in a debug build

#: True in a debug build (PYLAYER_CYTHON_DEBUG=1).
BOUNDS_CHECKED = bool(PYLAYER_BOUNDS_CHECKED)

__all__ = ["BOUNDS_CHECKED", "span_fits", "axpy", "adam_update", "softmax_cross_entropy",
           "softmax_cross_entropy_backward", "column_sums", "unary", "Unary"]


def span_fits(array, Py_ssize_t n):
    """Whether the debug build lets a loop over ``n`` items of ``array`` (of its own dtype)
    run; a release build skips the check and answers True.

    >>> import numpy as np
    >>> span_fits(np.zeros(4), 4)
    True
    """
    try:
        check_span(array, n, array.dtype.num)
    except IndexError:
        return False
    return True


cdef inline void _same_length(Py_ssize_t a, Py_ssize_t b) except *:
    if a != b:
        raise ValueError(f"kernel arguments differ in length: {a} and {b}")


def axpy(alpha, x, y):
    """``y += alpha * x`` in place (an optimizer's update), for a real number ``alpha``
    and two numpy arrays of numbers of one shape, ``y`` writeable: one pass without a
    temporary when both are C-contiguous float32 or float64 of one dtype and do not
    partly overlap, numpy otherwise.

    >>> import pylayer
    >>> import numpy as np
    >>> from pylayer import extend
    >>> y = np.ones(3, np.float32)
    >>> extend.axpy(2.0, np.arange(3, dtype=np.float32), y)
    >>> y
    array([1., 3., 5.], dtype=float32)
    """
    if not (type(alpha) is float or type(alpha) is int) and (
            isinstance(alpha, (bool, np.bool_))
            or not isinstance(alpha, (int, float, np.integer, np.floating))):
        raise TypeError(f"axpy(): argument 'alpha' must be a real number, got "
                        f"{type(alpha).__name__}")
    for arg, a in (("x", x), ("y", y)):
        if not cnp.PyArray_CheckExact(a) or not (is_float_array(a) or is_integer(a.dtype)
                                                 or is_floating(a.dtype)):
            raise TypeError(f"axpy(): argument '{arg}' must be a numpy array of numbers, "
                            f"got {getattr(a, 'dtype', type(a).__name__)}")
    if not cnp.PyArray_SAMESHAPE(<cnp.ndarray>x, <cnp.ndarray>y):
        raise ValueError(f"axpy(): arguments 'x' and 'y' must have one shape, got "
                         f"{list(x.shape)} and {list(y.shape)}")
    if not cnp.PyArray_ISWRITEABLE(<cnp.ndarray>y):
        raise ValueError("axpy(): argument 'y' must be writeable")
    if same_layout(x, y) and loop_writable(y) and not _partly_overlap(x, y):
        check_spans(y, x, None)
        if is_single(y):
            axpy_loop(<float>alpha, <const float*>data_of(x), <float*>data_of(y),
                      cnp.PyArray_SIZE(<cnp.ndarray>y))
        else:
            axpy_loop(<double>alpha, <const double*>data_of(x), <double*>data_of(y),
                      cnp.PyArray_SIZE(<cnp.ndarray>y))
    else:
        y += (alpha * x).astype(y.dtype, copy=False)


cdef bint _partly_overlap(object x, object y):
    """Whether two arrays of one layout share some memory without being the same."""
    cdef char* a = <char*>data_of(x)
    cdef char* b = <char*>data_of(y)
    cdef Py_ssize_t n = cnp.PyArray_NBYTES(<cnp.ndarray>x)
    return a != b and a < b + n and b < a + n


cdef bint _apart(list arrays):
    """Whether no two of ``arrays`` (of one layout) share any memory."""
    cdef Py_ssize_t i, j, n = cnp.PyArray_NBYTES(<cnp.ndarray>arrays[0])
    cdef char* a
    cdef char* b
    for i in range(len(arrays)):
        a = <char*>data_of(arrays[i])
        for j in range(i):
            b = <char*>data_of(arrays[j])
            if a < b + n and b < a + n:
                return False
    return True


cdef inline real adam_parameter(real p, real mi, real vi, real decay, real lr,
                                real epsilon) noexcept nogil:
    """One element of Adam's new parameter: p decay - (mi / (sqrt(vi) + epsilon)) lr."""
    cdef real root
    if real is float:
        root = c_sqrtf(vi)
    else:
        root = c_sqrt(vi)
    return p * decay - mi / (root + epsilon) * lr


cdef void adam_loop(real* param, const real* grad, real* m, real* v, real* v_max,
                    real decay, real beta1, real beta2, real lr, real epsilon,
                    Py_ssize_t n) noexcept nogil:
    """Adam's update of one parameter in one pass, in the precision of ``real``, with
    numpy's roundings in numpy's order: m = beta1 m + (1 - beta1) g, v = beta2 v +
    (1 - beta2) g g, (v_max = max(v_max, v), NaN kept, and v_max read below when
    ``v_max`` is not NULL), param = param decay - (m / (sqrt(v) + epsilon)) lr.
    Without ``v_max`` the loop has no branch, and compiled as a function of its own
    (not inlined into ``adam_update``, where GCC left it scalar) it runs in vector
    instructions."""
    cdef Py_ssize_t i
    cdef real g, mi, vi, w
    cdef real rest1 = 1 - beta1, rest2 = 1 - beta2
    if v_max == NULL:
        for i in range(n):
            g = grad[i]
            mi = beta1 * m[i] + rest1 * g
            vi = beta2 * v[i] + rest2 * (g * g)
            m[i] = mi
            v[i] = vi
            param[i] = adam_parameter(param[i], mi, vi, decay, lr, epsilon)
        return
    for i in range(n):
        g = grad[i]
        mi = beta1 * m[i] + rest1 * g
        vi = beta2 * v[i] + rest2 * (g * g)
        m[i] = mi
        v[i] = vi
        w = v_max[i]
        if vi > w or vi != vi:
            w = vi
        v_max[i] = w
        param[i] = adam_parameter(param[i], mi, w, decay, lr, epsilon)


def adam_update(param, grad, moment1, moment2, moment2_max, lr, beta1, beta2, epsilon,
                decay):
    """Adam's update of one parameter, in place, in one pass without temporaries::

        moment1 = beta1 * moment1 + (1 - beta1) * grad
        moment2 = beta2 * moment2 + (1 - beta2) * grad * grad
        moment2_max = maximum(moment2_max, moment2)    # (when not None: used below)
        param = param * decay - moment1 / (sqrt(moment2) + epsilon) * lr

    each rounding to the arrays' dtype as numpy's passes would, the scalars
    (real numbers) taken in that dtype. The arrays must be numpy arrays of numbers of
    one shape, the written ones writeable (TypeError or ValueError otherwise). Runs
    when every array is a C-contiguous, aligned float32 or float64 array in the
    machine's byte order, all of one dtype, no two sharing memory: returns True.
    Otherwise it changes nothing and returns False (the caller updates with numpy).

    >>> import numpy as np
    >>> from pylayer import extend
    >>> p, g = np.ones(2), np.array([0.5, -0.5])
    >>> m, v = np.zeros(2), np.zeros(2)
    >>> extend.adam_update(p, g, m, v, None, 0.1, 0.9, 0.999, 1e-8, 1.0)
    True
    >>> m, p.round(4)
    (array([ 0.05, -0.05]), array([0.6838, 1.3162]))
    """
    names = ("param", "grad", "moment1", "moment2", "moment2_max")
    arrays = [param, grad, moment1, moment2]
    if moment2_max is not None:
        arrays.append(moment2_max)
    for arg, a in zip(names, arrays):
        if not cnp.PyArray_CheckExact(a) or not (is_float_array(a) or is_integer(a.dtype)
                                                 or is_floating(a.dtype)):
            raise TypeError(f"adam_update(): argument '{arg}' must be a numpy array of "
                            f"numbers, got {getattr(a, 'dtype', type(a).__name__)}")
        if not cnp.PyArray_SAMESHAPE(<cnp.ndarray>param, <cnp.ndarray>a):
            raise ValueError(f"adam_update(): argument '{arg}' must have the shape of "
                             f"'param', {list(param.shape)}, got {list(a.shape)}")
        if arg != "grad" and not cnp.PyArray_ISWRITEABLE(<cnp.ndarray>a):
            raise ValueError(f"adam_update(): argument '{arg}' must be writeable")
    for arg, value in zip(("lr", "beta1", "beta2", "epsilon", "decay"),
                          (lr, beta1, beta2, epsilon, decay)):
        if not (type(value) is float or type(value) is int) and (
                isinstance(value, (bool, np.bool_))
                or not isinstance(value, (int, float, np.integer, np.floating))):
            raise TypeError(f"adam_update(): argument '{arg}' must be a real number, got "
                            f"{type(value).__name__}")
    for a in arrays:
        if not same_layout(param, a):
            return False
    if not _apart(arrays):
        return False
    cdef Py_ssize_t n = cnp.PyArray_SIZE(<cnp.ndarray>param)
    for a in arrays:
        check_span(a, n, cnp.PyArray_TYPE(<cnp.ndarray>param))
    if is_single(param):
        adam_loop(<float*>data_of(param), <const float*>data_of(grad),
                  <float*>data_of(moment1), <float*>data_of(moment2),
                  NULL if moment2_max is None else <float*>data_of(moment2_max),
                  <float>decay, <float>beta1, <float>beta2, <float>lr, <float>epsilon, n)
    else:
        adam_loop(<double*>data_of(param), <const double*>data_of(grad),
                  <double*>data_of(moment1), <double*>data_of(moment2),
                  NULL if moment2_max is None else <double*>data_of(moment2_max),
                  <double>decay, <double>beta1, <double>beta2, <double>lr, <double>epsilon, n)
    return True


def softmax_cross_entropy(const real[:, ::1] logits, const long long[::1] labels,
                          long long ignore_index, real[::1] losses, real[:, ::1] probs):
    """Per row: probs = softmax(logits), losses = its cross entropy with the label.

    Returns -1, or the first row whose label is neither in [0, classes) nor
    ``ignore_index`` (its loss and the rows after it are not computed).
    """
    cdef Py_ssize_t rows = logits.shape[0], classes = logits.shape[1], bad
    _same_length(rows, labels.shape[0])
    _same_length(rows, losses.shape[0])
    _same_length(rows, probs.shape[0])
    _same_length(classes, probs.shape[1])
    if rows == 0 or classes == 0:
        return -1
    with nogil:
        bad = softmax_xent_loop(&logits[0, 0], &labels[0], rows, classes, ignore_index,
                                &losses[0], &probs[0, 0])
    return bad


def softmax_cross_entropy_backward(const real[:, ::1] probs, const long long[::1] labels,
                                   const real[::1] factors, long long ignore_index,
                                   real[:, ::1] out):
    """out = (probs - onehot(labels)) * factors[row], zero rows where the label is ignored.

    Returns -1, or the first row whose label is out of range (IndexError for the caller)."""
    cdef Py_ssize_t rows = probs.shape[0], classes = probs.shape[1], bad
    _same_length(rows, labels.shape[0])
    _same_length(rows, factors.shape[0])
    _same_length(rows, out.shape[0])
    _same_length(classes, out.shape[1])
    if rows == 0 or classes == 0:
        return -1
    with nogil:
        bad = softmax_xent_backward_loop(&probs[0, 0], &labels[0], &factors[0], rows, classes,
                                         ignore_index, &out[0, 0])
    return bad


def column_sums(const real[:, ::1] m, real[::1] out):
    """``out[j]`` = the sum of column ``j`` of the matrix ``m``, row after row, as numpy's
    ``m.sum(axis=0)`` adds them, without its call of an inner loop per row.

    >>> import numpy as np
    >>> out = np.empty(2)
    >>> column_sums(np.arange(6.0).reshape(3, 2), out)
    >>> out
    array([6., 9.])
    """
    cdef Py_ssize_t r, j, rows = m.shape[0], columns = m.shape[1]
    _same_length(columns, out.shape[0])
    out[:] = 0
    if rows == 0 or columns == 0:
        return
    with nogil:
        for r in range(rows):
            add_into_loop(&out[0], &m[r, 0], columns)


cpdef object unary(int op, object a):
    """A new array ``f(a)`` of ``a``'s dtype and shape, ``f`` one of :class:`Unary` (ERF,
    GELU, GELU_SLOPE, RELU), computed element by element in ``a``'s precision, for a
    float32 or float64 numpy array (any layout: others are copied to a C-contiguous one first).

    >>> import numpy as np
    >>> unary(Unary.ERF, np.array([0.0, 1.0]))
    array([0.        , 0.84270079])
    """
    if not (ERF <= op <= RELU):
        raise ValueError(f"unary(): argument 'op' must be one of Unary, got {op}")
    if not is_float_array(a):
        raise TypeError(f"unary(): argument 'a' must be a float32 or float64 numpy array, "
                        f"got {getattr(a, 'dtype', type(a).__name__)}")
    if not loop_ready(a):
        a = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("="))
    cdef cnp.ndarray out
    pooled = buffer_like(a)                          # large: pooled memory
    out = empty_like(a) if pooled is None else pooled
    cdef Py_ssize_t n = cnp.PyArray_SIZE(out)
    cdef void* source = data_of(a)
    cdef void* target = data_of(out)
    check_spans(out, a, None)
    cdef bint single = is_single(a)
    if n > SMALL_ARRAY:             # releasing the GIL costs as much as a short loop
        with nogil:
            _unary_typed(op, single, source, target, n)
    else:
        _unary_typed(op, single, source, target, n)
    return out


cdef void _unary_typed(int op, bint single, void* source, void* target,
                       Py_ssize_t n) noexcept nogil:
    if single:
        unary_loop(op, <const float*>source, <float*>target, n)
    else:
        unary_loop(op, <const double*>source, <double*>target, n)
