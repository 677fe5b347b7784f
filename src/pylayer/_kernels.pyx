# cython: wraparound=False
"""Fused elementwise kernels over typed memoryviews.

Each kernel does in one pass what numpy would do in several (and with no
temporaries). Callers pass C-contiguous 1-D views of equal length and an
output they allocated.
"""
from libc.math cimport tanh as c_tanh, exp as c_exp

cdef extern from *:
    int PYLAYER_BOUNDS_CHECKED

#: True in a debug build (PYLAYER_CYTHON_DEBUG=1): kernels check every index.
BOUNDS_CHECKED = bool(PYLAYER_BOUNDS_CHECKED)

__all__ = ["BOUNDS_CHECKED", "tanh_forward", "tanh_backward", "sigmoid_forward", "sigmoid_backward",
           "relu_backward", "scale_add"]

ctypedef fused real:
    float
    double


def tanh_forward(const real[::1] x, real[::1] out):
    cdef Py_ssize_t i
    for i in range(x.shape[0]):
        out[i] = c_tanh(x[i])


def tanh_backward(const real[::1] y, const real[::1] dy, real[::1] out):
    """out = dy * (1 - y*y)"""
    cdef Py_ssize_t i
    for i in range(y.shape[0]):
        out[i] = dy[i] * (1 - y[i] * y[i])


def sigmoid_forward(const real[::1] x, real[::1] out):
    cdef Py_ssize_t i
    cdef real v
    for i in range(x.shape[0]):
        v = x[i]
        if v >= 0:
            out[i] = 1 / (1 + c_exp(-v))
        else:
            out[i] = c_exp(v) / (1 + c_exp(v))


def sigmoid_backward(const real[::1] y, const real[::1] dy, real[::1] out):
    """out = dy * y * (1 - y)"""
    cdef Py_ssize_t i
    for i in range(y.shape[0]):
        out[i] = dy[i] * y[i] * (1 - y[i])


def relu_backward(const real[::1] y, const real[::1] dy, real[::1] out):
    """out = dy where y > 0, else 0"""
    cdef Py_ssize_t i
    for i in range(y.shape[0]):
        out[i] = dy[i] if y[i] > 0 else 0


def scale_add(const real[::1] x, real scale, real bias, real[::1] out):
    """out = x * scale + bias"""
    cdef Py_ssize_t i
    for i in range(x.shape[0]):
        out[i] = x[i] * scale + bias
