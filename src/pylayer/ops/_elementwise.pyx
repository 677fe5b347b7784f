"""The compiled elementwise ops: arithmetic (``add``, ``subtract``, ``multiply``,
``divide``, ``neg``, ``scale``) and activations (``tanh``, ``exp``, ``log``,
``sigmoid``, ``relu``, ``square``, ``sqrt``), with their argument rule
``float_tensor``.

Each op computes its result with numpy or a fused kernel and records a node
through ``make_output``. Backward rules are written with these same ops, so
that with ``create_graph=True`` the backward is itself recorded (double
backward). These are the raw ops: ``ops/elementwise.py`` (and
``nn.functional`` for ``relu``) make them public, wrapped with
``pylayer.ops.dispatch.op``, while the rules here call them directly.
"""
import math

import numpy as np
cimport numpy as cnp

from pylayer._core.buffers cimport buffer_like
from pylayer._core.graph cimport Op, make_output
from pylayer._kernels.loops cimport (check_spans, tanh_backward_loop, sigmoid_forward_loop,
                               sigmoid_backward_loop, relu_backward_loop, binary_loop,
                               scalar_loop)
from pylayer._core.tensor cimport Tensor, elementwise, install_arithmetic
from pylayer.ops._operands cimport (data_of, empty_like, float32_unless_float64, fusable,
                                    is_float_array, is_single, kernel_ready, operand, same_layout,
                                    shape_of, tensor_arg)
from pylayer.ops.reduction cimport unbroadcast, unbroadcast_like
from pylayer.ops.shape import cast

cnp.import_array()

__all__ = ["add", "subtract", "multiply", "divide", "neg", "scale", "tanh", "exp", "log",
           "sigmoid", "relu", "square", "sqrt", "float_tensor"]


cpdef object float_tensor(object value, object fn, object arg="x", object position=1,
                          bint integers_as_float32=False):
    """``value`` as a floating-point Tensor. With ``integers_as_float32`` an integer
    tensor is computed in float32 (Paddle's default float); otherwise it is refused.

    >>> float_tensor([1, 2], "f", integers_as_float32=True).dtype
    pylayer.float32
    """
    cdef Tensor x = <Tensor>tensor_arg(value, fn, arg, position)
    if is_float_array(x._array):
        return x
    kind = x._array.dtype.kind
    if kind == "f":
        return x
    if kind in "iu" and integers_as_float32:
        return cast(x, "float32")
    accepted = " (float16, float32 or float64) or an integer Tensor" if integers_as_float32 else ""
    raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a floating-point "
                    f"Tensor{accepted}, got dtype {x.dtype.name}")


cdef object _broadcast_error(str fn, object xa, object ya):
    return ValueError(f"{fn}(): x of shape {list(np.shape(xa))} and y of shape "
                      f"{list(np.shape(ya))} cannot be broadcast together")


cdef inline object _arith_array(int op, str fn, object xa, object ya):
    """The array of x (+ - * /) y: a C loop when it pays, else numpy.

    float64 only when an operand is a float64 array: integers with a Python
    float, integers divided, or int64 with float32 give float32, Paddle's
    default float.
    """
    out = _arith(op, xa, ya)
    if out is not None:
        return out
    try:
        out = elementwise(op, xa, ya)
    except ValueError:
        raise _broadcast_error(fn, xa, ya) from None
    return float32_unless_float64(out, (xa, ya))


cdef object _arithmetic(int op, object x, object y):
    """Tensor's ``+ - * /`` (installed into _tensor): the ops, called from C."""
    if op == 0:
        return _add(x, y)
    if op == 1:
        return _subtract(x, y)
    if op == 2:
        return _multiply(x, y)
    return _divide(x, y)


install_arithmetic(_arithmetic)


cdef object _np_tanh = np.tanh   # looked up once instead of on every call


cdef inline object _unary(object ufunc, object a):
    """``ufunc(a)``, written into a pooled buffer when a large one of ``a``'s size is free."""
    buffer = buffer_like(a)
    return ufunc(a) if buffer is None else ufunc(a, out=buffer)


# ------------------------------------------------------------ arithmetic
ADD = Op("add", inputs=("x", "y"), attrs=("x_shape", "y_shape"),
         vjp=(lambda g, x_shape: unbroadcast(g, x_shape), lambda g, y_shape: unbroadcast(g, y_shape)))


def add(x, y, name=None):
    """Elementwise ``x + y`` with broadcasting.

    >>> import pylayer
    >>> pylayer.add(pylayer.to_tensor([1.0, 2.0]), 1.0).numpy()
    array([2., 3.], dtype=float32)
    """
    return _add(x, y)


cdef object _add(object x, object y):
    xa = operand(x, "add", "x", 1)
    ya = operand(y, "add", "y", 2)
    out = _arith_array(0, "add", xa, ya)
    return make_output(ADD, out, (x, y), (shape_of(x), shape_of(y)))


SUBTRACT = Op("subtract", inputs=("x", "y"), attrs=("x_shape", "y_shape"),
              vjp=(lambda g, x_shape: unbroadcast(g, x_shape),
                   lambda g, y_shape: unbroadcast(neg(g), y_shape)))


def subtract(x, y, name=None):
    """Elementwise ``x - y`` with broadcasting.

    >>> import pylayer
    >>> pylayer.subtract(pylayer.to_tensor([3, 4]), 1).numpy()
    array([2, 3])
    """
    return _subtract(x, y)


cdef object _subtract(object x, object y):
    xa = operand(x, "subtract", "x", 1)
    ya = operand(y, "subtract", "y", 2)
    out = _arith_array(1, "subtract", xa, ya)
    return make_output(SUBTRACT, out, (x, y), (shape_of(x), shape_of(y)))


MULTIPLY = Op("multiply", inputs=("x", "y"), keeps=("x", "y"),
              vjp=(lambda g, y, x: unbroadcast_like(multiply(g, y), x),
                   lambda g, x, y: unbroadcast_like(multiply(g, x), y)))

# A tensor times a number (on either side): a scale, which keeps no tensor.
MULTIPLY_BY_NUMBER = Op("multiply", inputs=("x", "y"), attrs=("factor",),
                        vjp=(lambda g, factor: multiply(g, factor),
                             lambda g, factor: multiply(g, factor)))


def multiply(x, y, name=None):
    """Elementwise ``x * y`` with broadcasting; saves both inputs when both are tensors.

    >>> import pylayer
    >>> pylayer.multiply(pylayer.to_tensor([1.0, 2.0]), 3.0).numpy()
    array([3., 6.], dtype=float32)
    """
    return _multiply(x, y)


cdef object _multiply(object x, object y):
    xa = operand(x, "multiply", "x", 1)
    ya = operand(y, "multiply", "y", 2)
    out = _arith_array(2, "multiply", xa, ya)
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        return make_output(MULTIPLY, out, (x, y))
    return make_output(MULTIPLY_BY_NUMBER, out, (x, y), (ya if isinstance(x, Tensor) else xa,))


# x / y with y a tensor (x a tensor or a number, kept as it is).
DIVIDE = Op("divide", inputs=("x", "y"), keeps=("x", "y"),
            vjp=(lambda g, y, x: unbroadcast_like(divide(g, y), x),
                 lambda g, x, y: unbroadcast_like(neg(divide(multiply(g, x),
                                                          multiply(y, y))), y)))

# A tensor divided by a number: a scale, which keeps no tensor.
DIVIDE_BY_NUMBER = Op("divide", inputs=("x", "y"), attrs=("divisor",),
                      vjp=(lambda g, divisor: divide(g, divisor), None))


def divide(x, y, name=None):
    """Elementwise ``x / y`` with broadcasting; integers divide to float32.

    >>> import pylayer
    >>> pylayer.divide(pylayer.to_tensor([1.0, 3.0]), 2.0).numpy()
    array([0.5, 1.5], dtype=float32)
    """
    return _divide(x, y)


cdef object _divide(object x, object y):
    xa = operand(x, "divide", "x", 1)
    ya = operand(y, "divide", "y", 2)
    out = _arith_array(3, "divide", xa, ya)
    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        return make_output(DIVIDE_BY_NUMBER, out, (x, y), (ya,))
    return make_output(DIVIDE, out, (x, y))


NEG = Op("neg", vjp=(lambda g: neg(g),))


def neg(x, name=None):
    """Elementwise ``-x``.

    >>> import pylayer
    >>> pylayer.neg(pylayer.to_tensor([1.0, -2.0])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    x = tensor_arg(x, "neg", "x", 1)
    return make_output(NEG, _unary(np.negative, (<Tensor>x)._array), (x,))


SCALE = Op("scale", attrs=("factor",), vjp=(lambda g, factor: scale(g, factor),))


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """``x * scale + bias`` (or ``(x + bias) * scale`` when bias_after_scale is False).

    An integer tensor keeps its dtype: ``scale`` and ``bias`` are truncated
    to integers first, as in Paddle.

    >>> import pylayer
    >>> pylayer.scale(pylayer.to_tensor([1.0, 2.0]), scale=2.0, bias=1.0).numpy()
    array([3., 5.], dtype=float32)
    """
    x = tensor_arg(x, "scale", "x", 1)
    if isinstance(scale, Tensor) and (<Tensor>scale)._array.size == 1:
        scale = (<Tensor>scale).item()
    if not isinstance(scale, (int, float, np.number)) or isinstance(scale, bool):
        raise TypeError(f"scale(): argument 'scale' (position 2) must be a number or a "
                        f"one-element Tensor, got {type(scale).__name__}")
    if not isinstance(bias, (int, float, np.number)) or isinstance(bias, bool):
        raise TypeError(f"scale(): argument 'bias' (position 3) must be a number, "
                        f"got {type(bias).__name__}")
    a = (<Tensor>x)._array
    if a.dtype.kind in "iu":
        # An integer tensor stays integer: Paddle truncates scale and bias first.
        if not (math.isfinite(scale) and math.isfinite(bias)):
            raise ValueError(f"scale(): an integer tensor needs a finite scale and bias, "
                             f"got scale={scale!r} and bias={bias!r}")
        scale, bias = int(scale), int(bias)
    if not bias_after_scale:
        bias = bias * scale
    out = a * scale
    if bias:
        out = out + bias
    if out.dtype != a.dtype and a.dtype.kind == "f":
        out = out.astype(a.dtype)
    return make_output(SCALE, out, (x,), (scale,))


# ------------------------------------------------------------ unary math
cdef object _arith(int op, object x, object y):
    """x (op) y by a C loop when numpy's dispatch would cost more than the work.

    Handles same-shape C-contiguous float32/float64 arrays of one dtype, and
    such an array with a Python number (numpy's weak promotion keeps the
    array's dtype). Returns None for everything else.
    """
    cdef cnp.ndarray out
    cdef bint scalar_first
    cdef Py_ssize_t n
    cdef double s
    if cnp.PyArray_Check(x):
        if cnp.PyArray_Check(y):
            if not fusable(x, y):
                return None
            out = empty_like(x)
            n = cnp.PyArray_SIZE(out)
            check_spans(out, x, y)
            if is_single(x):
                binary_loop(op, <const float*>data_of(x), <const float*>data_of(y), <float*>data_of(out), n)
            else:
                binary_loop(op, <const double*>data_of(x), <const double*>data_of(y), <double*>data_of(out), n)
            return out
        if type(y) is not float and type(y) is not int:
            return None
        array = x
        number = y
        scalar_first = False
    elif cnp.PyArray_Check(y) and (type(x) is float or type(x) is int):
        array = y
        number = x
        scalar_first = True
    else:
        return None
    if not kernel_ready(array):
        return None
    s = number
    out = empty_like(array)
    n = cnp.PyArray_SIZE(out)
    check_spans(out, array, None)
    if is_single(array):
        scalar_loop(op, <const float*>data_of(array), <float>s, scalar_first, <float*>data_of(out), n)
    else:
        scalar_loop(op, <const double*>data_of(array), s, scalar_first, <double*>data_of(out), n)
    return out


# Below this many elements the C loop beats numpy's dispatch; above it
# numpy's vectorised exp wins.
cdef Py_ssize_t SIGMOID_LOOP_MAX = 256


cdef object _sigmoid_array(object a):
    cdef cnp.ndarray out
    cdef Py_ssize_t n = cnp.PyArray_SIZE(<cnp.ndarray>a)
    if n > SIGMOID_LOOP_MAX:
        with np.errstate(over="ignore"):
            out = np.exp(np.negative(a))
        out += 1
        return np.reciprocal(out, out=out)
    out = empty_like(a)
    check_spans(out, a, None)
    if is_single(a):
        sigmoid_forward_loop(<const float*>data_of(a), <float*>data_of(out), n)
    else:
        sigmoid_forward_loop(<const double*>data_of(a), <double*>data_of(out), n)
    return out


cdef object _grad_kernel(int which, object y, object g):
    """One of the fused backward loops: 0 tanh, 1 sigmoid, 2 relu."""
    cdef cnp.ndarray out = empty_like(y)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(out)
    check_spans(out, y, g)
    if is_single(y):
        if which == 0:
            tanh_backward_loop(<const float*>data_of(y), <const float*>data_of(g), <float*>data_of(out), n)
        elif which == 1:
            sigmoid_backward_loop(<const float*>data_of(y), <const float*>data_of(g), <float*>data_of(out), n)
        else:
            relu_backward_loop(<const float*>data_of(y), <const float*>data_of(g), <float*>data_of(out), n)
    else:
        if which == 0:
            tanh_backward_loop(<const double*>data_of(y), <const double*>data_of(g), <double*>data_of(out), n)
        elif which == 1:
            sigmoid_backward_loop(<const double*>data_of(y), <const double*>data_of(g), <double*>data_of(out), n)
        else:
            relu_backward_loop(<const double*>data_of(y), <const double*>data_of(g), <double*>data_of(out), n)
    return out


TANH = Op("tanh", keeps=("out",), vjp=(lambda g, out: tanh_grad(out, g),))


def tanh(x, name=None):
    """Elementwise hyperbolic tangent; saves its output for backward.

    >>> import pylayer
    >>> pylayer.tanh(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """
    x = float_tensor(x, "tanh", "x", 1, True)
    return make_output(TANH, _unary(_np_tanh, (<Tensor>x)._array), (x,))


TANH_GRAD = Op("tanh_grad", inputs=("y", "dy"), keeps=("y", "dy"),
               vjp=(lambda gg, dy, y: multiply(multiply(gg, dy), multiply(y, -2.0)),
                    lambda gg, y: tanh_grad(y, gg)))


def tanh_grad(y, dy):
    """``dy * (1 - y**2)`` in one pass: the gradient of tanh given its output."""
    ya = (<Tensor?>y)._array
    ga = (<Tensor?>dy)._array
    if fusable(ya, ga):
        out = _grad_kernel(0, ya, ga)
    else:
        out = ga * (1 - ya * ya)
    return make_output(TANH_GRAD, out, (y, dy))


EXP = Op("exp", keeps=("out",), vjp=(lambda g, out: multiply(g, out),))


def exp(x, name=None):
    """Elementwise ``e ** x``; saves its output.

    >>> import pylayer
    >>> pylayer.exp(pylayer.to_tensor([0.0])).numpy()
    array([1.], dtype=float32)
    """
    x = float_tensor(x, "exp", "x", 1, True)
    with np.errstate(over="ignore"):
        out = _unary(np.exp, (<Tensor>x)._array)
    return make_output(EXP, out, (x,))


LOG = Op("log", keeps=("x",), vjp=(lambda g, x: divide(g, x),))


def log(x, name=None):
    """Elementwise natural logarithm.

    >>> import pylayer
    >>> pylayer.log(pylayer.to_tensor([1.0])).numpy()
    array([0.], dtype=float32)
    """
    x = float_tensor(x, "log", "x", 1, True)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = _unary(np.log, (<Tensor>x)._array)
    return make_output(LOG, out, (x,))


SIGMOID = Op("sigmoid", keeps=("out",), vjp=(lambda g, out: sigmoid_grad(out, g),))


def sigmoid(x, name=None):
    """Elementwise logistic function ``1 / (1 + exp(-x))``; saves its output.

    >>> import pylayer
    >>> pylayer.sigmoid(pylayer.to_tensor([0.0])).numpy()
    array([0.5], dtype=float32)
    """
    x = float_tensor(x, "sigmoid", "x", 1, True)
    a = (<Tensor>x)._array
    if kernel_ready(a):
        out = _sigmoid_array(a)
    else:
        with np.errstate(over="ignore"):
            out = np.asarray(1 / (1 + np.exp(-a)), dtype=a.dtype)
    return make_output(SIGMOID, out, (x,))


SIGMOID_GRAD = Op("sigmoid_grad", inputs=("y", "dy"), keeps=("y", "dy"),
                  vjp=(lambda gg, dy, y: multiply(multiply(gg, dy),
                                              subtract(1.0, multiply(y, 2.0))),
                       lambda gg, y: sigmoid_grad(y, gg)))


def sigmoid_grad(y, dy):
    """``dy * y * (1 - y)`` in one pass: the gradient of sigmoid given its output."""
    ya = (<Tensor?>y)._array
    ga = (<Tensor?>dy)._array
    if fusable(ya, ga):
        out = _grad_kernel(1, ya, ga)
    else:
        out = ga * ya * (1 - ya)
    return make_output(SIGMOID_GRAD, out, (y, dy))


RELU = Op("relu", keeps=("out",), vjp=(lambda g, out: relu_grad(out, g),))


def relu(x, name=None):
    """Elementwise ``max(x, 0)``; saves its output.

    >>> import pylayer
    >>> pylayer.nn.functional.relu(pylayer.to_tensor([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """
    x = tensor_arg(x, "relu", "x", 1)
    a = (<Tensor>x)._array
    return make_output(RELU, np.maximum(a, 0).astype(a.dtype, copy=False), (x,))


RELU_GRAD = Op("relu_grad", inputs=("y", "dy"), keeps=("y",),
               vjp=(None, lambda gg, y: relu_grad(y, gg)))


def relu_grad(y, dy):
    """``dy`` where ``y > 0``, else 0."""
    ya = (<Tensor?>y)._array
    ga = (<Tensor?>dy)._array
    if same_layout(ya, ga):
        # The select loop beats np.where at every size; dy * (y > 0) would be
        # faster still, but turns a NaN upstream gradient into NaN where y <= 0.
        out = _grad_kernel(2, ya, ga)
    else:
        out = np.where(ya > 0, ga, 0).astype(ga.dtype, copy=False)
    return make_output(RELU_GRAD, out, (y, dy))


SQUARE = Op("square", keeps=("x",), vjp=(lambda g, x: multiply(g, multiply(x, 2.0)),))


def square(x, name=None):
    """Elementwise ``x * x``; saves its input.

    >>> import pylayer
    >>> pylayer.square(pylayer.to_tensor([3.0])).numpy()
    array([9.], dtype=float32)
    """
    x = tensor_arg(x, "square", "x", 1)
    a = (<Tensor>x)._array
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.multiply(a, a)
    return make_output(SQUARE, out, (x,))


SQRT = Op("sqrt", keeps=("out",), vjp=(lambda g, out: divide(g, multiply(out, 2.0)),))


def sqrt(x, name=None):
    """Elementwise square root; saves its output.

    >>> import pylayer
    >>> pylayer.sqrt(pylayer.to_tensor([4.0])).numpy()
    array([2.], dtype=float32)
    """
    x = float_tensor(x, "sqrt", "x", 1, True)
    with np.errstate(invalid="ignore"):
        out = _unary(np.sqrt, (<Tensor>x)._array)
    return make_output(SQRT, out, (x,))
