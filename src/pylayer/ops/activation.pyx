"""Activations: ``relu``, ``sigmoid``, ``leaky_relu``, ``hardtanh``, ``gelu``, ``softmax``
and ``log_softmax`` (``tanh`` is :func:`pylayer.ops.math.tanh`).

``pylayer.nn.functional`` makes them public under its name too; ``sigmoid`` is also
``pylayer.sigmoid``. Each op is declared once as a record (``Op``) next to its
forward, and its gradient rule is written with pylayer ops, so that
``create_graph=True`` records it (double backward). The public function is the
forward wrapped by :func:`pylayer.ops.dispatch.op`.
"""
import math

import numpy as np
cimport numpy as cnp

from pylayer._core.graph cimport Op, make_output
from pylayer._core.tensor cimport Tensor, grad_enabled, wrap
from pylayer._kernels.buffers cimport buffer_like
from pylayer._kernels.loops cimport (Unary, unary, check_spans, data_of, empty_like, is_float_array,
                                     is_single, kernel_ready, loop_ready, same_layout,
                                     sigmoid_forward_loop,
                                     softmax_backward_loop, softmax_scale_loop,
                                     softmax_shift_loop)
from pylayer.ops._arguments import check_axis, check_dtype, check_number
from pylayer.ops._operands cimport (RELU_GRADIENT, SIGMOID_GRADIENT, accumulating, conjugate,
                                    float_tensor, is_complex_array, output_gradient, pooled_unary,
                                    real_tensor, tensor_arg)
from pylayer.ops.reduction import sum as reduce_sum
from pylayer.ops.shape import cast
from pylayer.ops.arithmetic cimport (add_op as add, multiply_op as multiply,
                                     subtract_op as subtract)
from pylayer.ops.dispatch import op
from pylayer.ops.math import exp_op as exp, square_op as square
from pylayer.ops.math import tanh_op as tanh

cnp.import_array()

__all__ = ["relu", "sigmoid", "leaky_relu", "hardtanh", "gelu", "softmax", "log_softmax"]


# ------------------------------------------------------------------ relu
RELU = Op("relu", keeps=("out",), vjp=(lambda g, out: _relu_grad(out, g),))


@op
def relu(x, name=None):
    """Elementwise ``max(x, 0)``; saves its output.

    >>> import pylayer
    >>> pylayer.nn.functional.relu(pylayer.to_tensor([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """
    x = real_tensor(x, "relu", "x", 1)
    a = (<Tensor>x)._array
    if is_float_array(a):               # numpy's maximum with a scalar runs unvectorized
        return make_output(RELU, unary(Unary.RELU, a), (x,))
    buffer = buffer_like(a) if a.dtype.kind == "f" else None   # large: pooled memory
    out = np.maximum(a, 0) if buffer is None else np.maximum(a, 0, out=buffer)
    return make_output(RELU, out.astype(a.dtype, copy=False), (x,))


RELU_GRAD = Op("relu_grad", inputs=("y", "dy"), keeps=("y",),
               vjp=(None, lambda gg, y: _relu_grad(y, gg)))


cdef object _relu_grad(object y, object dy):
    """``dy`` where ``y > 0``, else 0."""
    return make_output(RELU_GRAD, output_gradient(RELU_GRADIENT, y, dy), (y, dy))


# --------------------------------------------------------------- sigmoid
# Up to this many elements the C loop is faster than numpy's three calls (measured:
# 0.9 us against 2.4 us at 64 elements, 1.8 against 2.5 at 256); beyond it numpy's
# vectorised exp wins (5.7 against 3.2 us at 1024, 8.6 against 1.0 ms at 10**6).
cdef Py_ssize_t SIGMOID_LOOP_MAX = 256


cdef object _sigmoid_array(object a):
    """``1 / (1 + exp(-a))`` of a float array, without overflow warnings: exp(-a) may
    reach inf, whose reciprocal sum is the limit 0."""
    cdef cnp.ndarray out
    if kernel_ready(a) and cnp.PyArray_SIZE(<cnp.ndarray>a) <= SIGMOID_LOOP_MAX:
        out = empty_like(a)
        check_spans(out, a, None)
        if is_single(a):
            sigmoid_forward_loop(<const float*>data_of(a), <float*>data_of(out),
                                 cnp.PyArray_SIZE(out))
        else:
            sigmoid_forward_loop(<const double*>data_of(a), <double*>data_of(out),
                                 cnp.PyArray_SIZE(out))
        return out
    out = np.asarray(pooled_unary(np.negative, a))   # a 0-d array's is a numpy scalar
    with np.errstate(over="ignore"):
        np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


SIGMOID = Op("sigmoid", keeps=("out",), vjp=(lambda g, out: _sigmoid_grad(out, g),))
SIGMOID_OF_COMPLEX = Op("sigmoid", keeps=("out",),
                        vjp=(lambda g, out: multiply(g, conjugate(
                            multiply(out, subtract(1.0, out)))),))


@op(method=True, inplace=True)
def sigmoid(x, name=None):
    """Elementwise logistic function ``1 / (1 + exp(-x))`` (complex too); saves its output.

    >>> import pylayer
    >>> pylayer.sigmoid(pylayer.to_tensor([0.0, 2.0])).numpy()
    array([0.5      , 0.8807971], dtype=float32)
    """
    x = float_tensor(x, "sigmoid", "x", 1, True, True)
    a = (<Tensor>x)._array
    if is_complex_array(a):
        return make_output(SIGMOID_OF_COMPLEX, _sigmoid_array(a), (x,))
    return make_output(SIGMOID, _sigmoid_array(a), (x,))


SIGMOID_GRAD = Op("sigmoid_grad", inputs=("y", "dy"), keeps=("y", "dy"),
                  vjp=(lambda gg, dy, y: multiply(multiply(gg, dy),
                                                  subtract(1.0, multiply(y, 2.0))),
                       lambda gg, y: _sigmoid_grad(y, gg)))


cdef object _sigmoid_grad(object y, object dy):
    """``dy * y * (1 - y)`` in one pass: the gradient of sigmoid given its output."""
    return make_output(SIGMOID_GRAD, output_gradient(SIGMOID_GRADIENT, y, dy), (y, dy))


# ------------------------------------------------------ piecewise linear
cdef object _times_mask(object g, object mask):
    """``g`` times a fixed 0/1 (or slope) array, in ``g``'s dtype."""
    return multiply(g, wrap(np.asarray(mask).astype((<Tensor?>g)._array.dtype), True))


cdef object _leaky_slopes(object x, object negative_slope, object dtype):
    """1 where ``x > 0``, else ``negative_slope``, in ``dtype``. A slope in [0, 1] is
    the larger of the slope and the 0/1 mask (about twice as fast as np.where)."""
    if 0 <= negative_slope <= 1 and np.dtype(dtype).kind == "f":
        slopes = np.asarray(x > 0).astype(dtype)      # (a 0-d x gives a scalar)
        return np.maximum(slopes, np.full(x.shape, negative_slope, dtype), out=slopes)
    return np.where(x > 0, 1, negative_slope).astype(dtype)


LEAKY_RELU = Op("leaky_relu", keeps=("x",), attrs=("negative_slope",),
                vjp=(lambda g, x, negative_slope: _times_mask(
                    g, _leaky_slopes((<Tensor?>x)._array, negative_slope,
                                     (<Tensor?>g)._array.dtype)),))


@op
def leaky_relu(x, negative_slope=0.01, name=None):
    """``x`` where positive, ``negative_slope * x`` elsewhere; saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.leaky_relu(pylayer.to_tensor([-2.0, 3.0]), 0.5).numpy()
    array([-1.,  3.], dtype=float32)
    """
    x = float_tensor(x, "leaky_relu")
    negative_slope = check_number(negative_slope, "leaky_relu", "negative_slope")
    a = (<Tensor>x)._array
    if a.dtype.kind == "f" and 0 < a.dtype.type(negative_slope) <= 1:
        # max(a, s a) is exactly a where a > 0 and s a elsewhere when 0 < s <= 1 in
        # a's dtype (NaN, infinities and signed zeros too): four times faster than
        # np.where.
        out = np.empty_like(a)
        np.multiply(a, negative_slope, out=out)
        np.maximum(a, out, out=out)
    else:
        # A slope of 0 (or one that rounds to 0) times an infinity is NaN where a <= 0,
        # as in Paddle, without numpy's warning.
        with np.errstate(invalid="ignore", over="ignore", under="ignore"):
            out = np.where(a > 0, a, a * negative_slope).astype(a.dtype)
    return make_output(LEAKY_RELU, out, (x,), (negative_slope,))


HARDTANH = Op("hardtanh", keeps=("x",), attrs=("low", "high"),
              vjp=(lambda g, x, low, high: _times_mask(
                  g, ((<Tensor?>x)._array > low) & ((<Tensor?>x)._array < high)),))


@op
def hardtanh(x, min=-1.0, max=1.0, name=None):
    """``x`` clipped to ``[min, max]``; the gradient passes only strictly inside, as in Paddle.

    Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.hardtanh(pylayer.to_tensor([-2.0, 0.5, 3.0])).numpy()
    array([-1. ,  0.5,  1. ], dtype=float32)
    """
    x = float_tensor(x, "hardtanh")
    low = check_number(min, "hardtanh", "min")
    high = check_number(max, "hardtanh", "max")
    if low > high:
        raise ValueError(f"hardtanh(): argument 'min' ({low}) must not exceed 'max' ({high})")
    a = (<Tensor>x)._array
    return make_output(HARDTANH, np.clip(a, low, high).astype(a.dtype, copy=False), (x,),
                       (low, high))


# ------------------------------------------------------------------ gelu
_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TANH_SCALE = math.sqrt(2.0 / math.pi)
_TANH_CUBIC = 0.044715


cdef object _gelu_slope(object x, bint approximate):
    """d gelu / dx, written with pylayer ops (the exact one is one fused op)."""
    if approximate:  # 0.5 x (1 + tanh(u)), u = c (x + k x^3)
        x2 = square(x)
        t = tanh(multiply(x, add(multiply(x2, _TANH_SCALE * _TANH_CUBIC), _TANH_SCALE)))
        du = add(multiply(x2, 3 * _TANH_SCALE * _TANH_CUBIC), _TANH_SCALE)
        return add(multiply(add(t, 1.0), 0.5),
                   multiply(multiply(x, 0.5), multiply(subtract(1.0, square(t)), du)))
    a = (<Tensor>x)._array
    return make_output(GELU_SLOPE, _in_own_dtype(Unary.GELU_SLOPE, a), (x,))


cdef object _gelu_curvature(object x):
    """d^2 gelu / dx^2 = phi(x) (2 - x^2), written with pylayer ops."""
    x2 = square(x)
    return multiply(multiply(exp(multiply(x2, -0.5)), _INV_SQRT_2PI), subtract(2.0, x2))


cdef object _in_own_dtype(int which, object a):
    """A compiled unary loop of ``a`` (float16 and bfloat16 computed in float32)."""
    if is_float_array(a):
        return unary(which, a)
    return unary(which, a.astype(np.float32)).astype(a.dtype)


GELU_SLOPE = Op("gelu_slope", keeps=("x",),
                vjp=(lambda g, x: multiply(g, _gelu_curvature(x)),))
GELU = Op("gelu", keeps=("x",), attrs=("approximate",),
          vjp=(lambda g, x, approximate: multiply(g, _gelu_slope(x, approximate)),))


@op
def gelu(x, approximate=False, name=None):
    """Gaussian error linear unit ``x * Phi(x)``; ``approximate=True`` uses the tanh form.

    Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.gelu(pylayer.to_tensor([0.0, 1.0], dtype='float64')).numpy().round(6)
    array([0.      , 0.841345])
    """
    x = float_tensor(x, "gelu")
    a = (<Tensor>x)._array
    if approximate:
        out = (0.5 * a * (1.0 + np.tanh(_TANH_SCALE * (a + _TANH_CUBIC * (a * a * a))))).astype(
            a.dtype, copy=False)
    else:
        out = _in_own_dtype(Unary.GELU, a)
    return make_output(GELU, out, (x,), (bool(approximate),))


# ------------------------------------------------------- softmax, log_softmax
cdef tuple _softmax_input(object x, object axis, object dtype, str fn):
    x = float_tensor(x, fn)
    if dtype is not None:
        x = cast(x, check_dtype(dtype, fn, kinds="f"))
    axis = check_axis(axis, (<Tensor>x)._array.ndim, fn)
    # numpy reduces a 0-d array over axis None
    return x, (axis if (<Tensor>x)._array.ndim else None)


cdef object _shifted(object a, object axis):
    """``a`` minus its max along ``axis`` (None: all), so that exp cannot overflow."""
    with np.errstate(invalid="ignore"):
        return a - np.max(a, axis=axis, keepdims=True, initial=-np.inf)


def log_softmax_array(a, axis):
    """``log(softmax(a))`` of a float array along ``axis`` (None for a 0-d array),
    computed stably: the array step of ``log_softmax`` and of the cross-entropy loss.

    >>> log_softmax_array(np.array([1000.0, 1000.0]), 0)
    array([-0.69314718, -0.69314718])
    """
    shifted = _shifted(a, axis)
    # An empty axis sums to 0, whose log (-inf) meets no element of the empty result.
    with np.errstate(divide="ignore"):
        return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


cdef bint _along_rows(object a, object axis):
    """Whether the row loops can run ``a`` along ``axis``: a C-contiguous float32 or
    float64 array, not empty, and ``axis`` its last."""
    return (loop_ready(a) and cnp.PyArray_SIZE(<cnp.ndarray>a) > 0
            and axis == cnp.PyArray_NDIM(<cnp.ndarray>a) - 1)


cdef object _softmax_rows(object a):
    """softmax along the last axis of an array that _along_rows accepts: the row loops
    shift each row by its largest element and divide it by its sum; numpy's vectorised
    exp runs in between, in place."""
    cdef cnp.ndarray out = empty_like(a)
    cdef Py_ssize_t width = cnp.PyArray_DIM(<cnp.ndarray>a, cnp.PyArray_NDIM(<cnp.ndarray>a) - 1)
    cdef Py_ssize_t rows = cnp.PyArray_SIZE(out) // width
    check_spans(out, a, None)
    if is_single(a):
        softmax_shift_loop(<const float*>data_of(a), <float*>data_of(out), rows, width)
        np.exp(out, out=out)
        softmax_scale_loop(<float*>data_of(out), rows, width)
    else:
        softmax_shift_loop(<const double*>data_of(a), <double*>data_of(out), rows, width)
        np.exp(out, out=out)
        softmax_scale_loop(<double*>data_of(out), rows, width)
    return out


cdef object _softmax_grad(object g, object out, object axis):
    """``out * (g - sum(g * out))`` along ``axis``: by the row loop, or with recorded ops
    when the gradient is to be differentiated again."""
    cdef cnp.ndarray dx
    cdef Py_ssize_t width
    ya, ga = (<Tensor?>out)._array, (<Tensor?>g)._array
    if grad_enabled() or not (_along_rows(ya, axis) and same_layout(ya, ga)):
        return multiply(out, subtract(g, reduce_sum(multiply(g, out), axis=axis, keepdim=True)))
    dx = empty_like(ya)
    width = cnp.PyArray_DIM(dx, cnp.PyArray_NDIM(dx) - 1)
    check_spans(dx, ya, ga)
    if is_single(ya):
        softmax_backward_loop(<const float*>data_of(ya), <const float*>data_of(ga),
                              <float*>data_of(dx), cnp.PyArray_SIZE(dx) // width, width)
    else:
        softmax_backward_loop(<const double*>data_of(ya), <const double*>data_of(ga),
                              <double*>data_of(dx), cnp.PyArray_SIZE(dx) // width, width)
    return wrap(dx)


SOFTMAX = Op("softmax", keeps=("out",), attrs=("axis",),
             vjp=(lambda g, out, axis: _softmax_grad(g, out, axis),))


@op
def softmax(x, axis=-1, dtype=None, name=None):
    """``exp(x) / sum(exp(x))`` along ``axis``, computed without overflow; saves its output.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.softmax(pylayer.to_tensor([1000.0, 1000.0])).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    x, axis = _softmax_input(x, axis, dtype, "softmax")
    a = (<Tensor>x)._array
    if _along_rows(a, axis):
        out = _softmax_rows(a)
    else:
        e = np.exp(_shifted(accumulating(a), axis))
        out = (e / np.sum(e, axis=axis, keepdims=True)).astype(a.dtype, copy=False)
    return make_output(SOFTMAX, out, (x,), (axis,))


LOG_SOFTMAX = Op("log_softmax", keeps=("out",), attrs=("axis",),
                 vjp=(lambda g, out, axis: subtract(
                     g, multiply(exp(out), reduce_sum(g, axis=axis, keepdim=True))),))


@op
def log_softmax(x, axis=-1, dtype=None, name=None):
    """``log(softmax(x))`` along ``axis``, computed stably; saves its output.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.log_softmax(pylayer.to_tensor([1000.0, 1000.0])).numpy()
    array([-0.6931472, -0.6931472], dtype=float32)
    """
    x, axis = _softmax_input(x, axis, dtype, "log_softmax")
    a = (<Tensor>x)._array
    out = log_softmax_array(accumulating(a), axis).astype(a.dtype, copy=False)
    return make_output(LOG_SOFTMAX, out, (x,), (axis,))
