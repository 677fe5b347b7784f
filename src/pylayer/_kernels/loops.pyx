# cython: wraparound=False
"""Typed-memoryview entry points for the fused loops of ``loops.pxd`` that Python code
calls: the optimizers' ``axpy`` and the cross-entropy loss's two
``softmax_cross_entropy`` loops. They check their arguments' lengths against each
other. The compiled ops call the other loops directly (tests/core/test_kernels.py
drives each through its op).
"""

import numpy as np

from pylayer._kernels.dtypes import is_floating, is_integer

cnp.import_array()      # check_span (the .pxd) uses numpy's C API in a debug build

#: True in a debug build (PYLAYER_CYTHON_DEBUG=1).
BOUNDS_CHECKED = bool(PYLAYER_BOUNDS_CHECKED)

__all__ = ["BOUNDS_CHECKED", "span_fits", "axpy", "softmax_cross_entropy",
           "softmax_cross_entropy_backward"]


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
    temporary when both are C-contiguous float32 or float64 of one dtype, numpy
    otherwise.

    >>> import numpy as np
    >>> y = np.ones(3, np.float32)
    >>> axpy(2.0, np.arange(3, dtype=np.float32), y)
    >>> y
    array([1., 3., 5.], dtype=float32)
    """
    if isinstance(alpha, (bool, np.bool_)) or not isinstance(alpha, (int, float, np.integer,
                                                                     np.floating)):
        raise TypeError(f"axpy(): argument 'alpha' must be a real number, got "
                        f"{type(alpha).__name__}")
    for arg, a in (("x", x), ("y", y)):
        if not cnp.PyArray_CheckExact(a) or not (is_integer(a.dtype) or is_floating(a.dtype)):
            raise TypeError(f"axpy(): argument '{arg}' must be a numpy array of numbers, "
                            f"got {getattr(a, 'dtype', type(a).__name__)}")
    if x.shape != y.shape:
        raise ValueError(f"axpy(): arguments 'x' and 'y' must have one shape, got "
                         f"{list(x.shape)} and {list(y.shape)}")
    if not y.flags.writeable:
        raise ValueError("axpy(): argument 'y' must be writeable")
    if (x.dtype == y.dtype
            and cnp.PyArray_TYPE(<cnp.ndarray>x) in (cnp.NPY_FLOAT32, cnp.NPY_FLOAT64)
            and x.flags.c_contiguous and y.flags.c_contiguous):
        _axpy(alpha, x.reshape(-1), y.reshape(-1))
    else:
        y += (alpha * x).astype(y.dtype, copy=False)


def _axpy(double alpha, const real[::1] x, real[::1] y):
    _same_length(x.shape[0], y.shape[0])
    if x.shape[0]:
        with nogil:
            axpy_loop(<real>alpha, &x[0], &y[0], x.shape[0])


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
