"""The hot ops: elementwise arithmetic and activations, matmul, sum, mean, reshape.

Each op computes its result with numpy or a fused kernel and records a node
through ``make_output``. Backward rules are written with these same ops, so
that with ``create_graph=True`` the backward is itself recorded (double
backward). These are the raw ops: the public names (``pylayer.add``, ...) wrap
them with ``pylayer.ops.dispatch.op``, while the rules here call them directly.
"""
import math

import numpy as np
cimport numpy as cnp

from pylayer._tensor cimport (Tensor, elementwise, grad_enabled, has_shape, has_unshared_array,
                              install_arithmetic, wrap)
from pylayer._buffers cimport POOL_MIN_BYTES, buffer_like
from pylayer._temporaries cimport is_running_binary_op
from pylayer._graph cimport GradNode, make_output
from pylayer._kernels cimport (SMALL_ARRAY, check_spans, tanh_backward_loop, sigmoid_forward_loop,
                               sigmoid_backward_loop, relu_backward_loop, binary_loop,
                               scalar_loop)
from pylayer._tensor import to_array, convert_dtype

cnp.import_array()

__all__ = ["add", "subtract", "multiply", "divide", "neg", "scale", "tanh", "exp", "log",
           "sigmoid", "relu", "square", "sqrt", "matmul", "sum", "mean", "reshape",
           "broadcast_to", "expand", "cast", "assign", "transpose", "unbroadcast", "reshape_exact", "shape_arg",
           "as_tensor_arg"]


# ------------------------------------------------------------ arguments
def as_tensor_arg(value, str fn, str arg, int position):
    """Accept a Tensor, a number, a numpy array or a nested list as an op argument.

    >>> as_tensor_arg([1, 2], "f", "x", 1).shape
    [2]
    """
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, np.ndarray, np.generic, list, tuple)):
        return wrap(to_array(value, None, fn, arg))
    raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a Tensor or a "
                    f"number, got {type(value).__name__}")


cdef inline object _arg(object value, str fn, str arg, int position):
    """as_tensor_arg without a Python call when value already is a Tensor."""
    if type(value) is Tensor:
        return value
    return as_tensor_arg(value, fn, arg, position)


cpdef object operand(object value, str fn, str arg, int position):
    """Tensor -> its array; a Python number stays a number (numpy's weak promotion)."""
    if isinstance(value, Tensor):
        return (<Tensor>value)._array
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return (<Tensor>as_tensor_arg(value, fn, arg, position))._array


cdef inline object _tensor_or_none(object value):
    return value if isinstance(value, Tensor) else None


cdef inline bint _is_float_array(object a):
    if not cnp.PyArray_Check(a):
        return False
    t = cnp.PyArray_TYPE(a)
    return t == cnp.NPY_FLOAT32 or t == cnp.NPY_FLOAT64


cdef inline bint _kernel_ready(object a):
    """A small float32/float64 C-contiguous array: a C loop beats numpy on it."""
    return (_is_float_array(a) and cnp.PyArray_IS_C_CONTIGUOUS(a)
            and cnp.PyArray_SIZE(<cnp.ndarray>a) <= SMALL_ARRAY)


cdef inline bint _same_layout(object a, object b):
    """Two float arrays of one dtype and shape, both C-contiguous (any size)."""
    return (_is_float_array(a) and cnp.PyArray_IS_C_CONTIGUOUS(a) and cnp.PyArray_Check(b)
            and cnp.PyArray_TYPE(a) == cnp.PyArray_TYPE(b)
            and cnp.PyArray_IS_C_CONTIGUOUS(b)
            and cnp.PyArray_SAMESHAPE(<cnp.ndarray>a, <cnp.ndarray>b))


cdef inline bint _fusable(object a, object b):
    return (_kernel_ready(a) and cnp.PyArray_Check(b)
            and cnp.PyArray_TYPE(a) == cnp.PyArray_TYPE(b)
            and cnp.PyArray_IS_C_CONTIGUOUS(b)
            and cnp.PyArray_SAMESHAPE(<cnp.ndarray>a, <cnp.ndarray>b))


cdef inline cnp.ndarray _empty_like(object a):
    return cnp.PyArray_EMPTY(cnp.PyArray_NDIM(<cnp.ndarray>a), cnp.PyArray_DIMS(<cnp.ndarray>a),
                             cnp.PyArray_TYPE(<cnp.ndarray>a), 0)


cdef inline bint _is_single(object a):
    return cnp.PyArray_TYPE(<cnp.ndarray>a) == cnp.NPY_FLOAT32


cdef inline void* _data(object a):
    return cnp.PyArray_DATA(<cnp.ndarray>a)


cdef inline object _float_arg(object value, str fn):
    """The argument as a floating-point Tensor: an integer tensor is computed in
    float32 (Paddle's default float), a bool tensor is refused."""
    cdef Tensor x = <Tensor>_arg(value, fn, "x", 1)
    if _is_float_array(x._array):
        return x
    kind = x._array.dtype.kind
    if kind in "iu":
        return cast(x, "float32")
    if kind != "f":
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a floating-point Tensor "
                        f"(float16, float32 or float64) or an integer Tensor, "
                        f"got dtype {x._array.dtype}")
    return x


cpdef object unbroadcast(object g, tuple shape):
    """Sum a broadcast gradient back to ``shape``."""
    cdef Tensor tg = <Tensor?>g
    if has_shape(tg._array, shape):
        return g
    gshape = tg._array.shape
    lead = len(gshape) - len(shape)
    axes = list(range(lead))
    for i, size in enumerate(shape):
        if size == 1 and gshape[i + lead] != 1:
            axes.append(i + lead)
    if axes:
        g = sum(g, axis=axes, keepdim=True)
    return reshape_exact(g, shape)


cdef object _broadcast_error(str fn, object xa, object ya):
    return ValueError(f"{fn}(): x of shape {list(np.shape(xa))} and y of shape "
                      f"{list(np.shape(ya))} cannot be broadcast together")


cdef object _FLOAT64 = np.dtype(np.float64)


cdef inline bint _is_float64_array(object a):
    return cnp.PyArray_Check(a) and cnp.PyArray_TYPE(<cnp.ndarray>a) == cnp.NPY_FLOAT64


cdef inline object _arith_array(int op, str fn, object xa, object ya, object into=None):
    """The array of x (+ - * /) y: a C loop when it pays, else numpy; written into
    ``into`` when given (an operand's array that may take the result).

    float64 only when an operand is a float64 array: integers with a Python
    float, integers divided, or int64 with float32 give float32, Paddle's
    default float.
    """
    if into is not None:
        return elementwise(op, xa, ya, into)
    out = _arith(op, xa, ya)
    if out is not None:
        return out
    try:
        out = elementwise(op, xa, ya)
    except ValueError:
        raise _broadcast_error(fn, xa, ya) from None
    if out.dtype == _FLOAT64 and not _is_float64_array(xa) and not _is_float64_array(ya):
        return out.astype(np.float32)
    return out


# BINARY_OP's argument for each of _arith's operations: 0 add, 1 subtract, 2 multiply, 3 divide.
cdef int[4] _BINARY_OPERATION = [0, 10, 5, 11]


cdef inline bint _takes_result(object a, object other):
    """``a`` is a large float array that ``a (op) other`` and ``other (op) a`` would give
    a result of exactly its dtype and shape."""
    if not (_is_float_array(a) and cnp.PyArray_IS_C_CONTIGUOUS(a)
            and cnp.PyArray_NBYTES(<cnp.ndarray>a) >= POOL_MIN_BYTES):
        return False
    if type(other) is float or type(other) is int:
        return True
    return _same_layout(a, other)


cdef object _temporary_target(int op, object x, object y, int sole_references):
    """The array of an operand of ``x (op) y`` that the running Python expression made
    and that nothing else can reach, when the result fits it: the result is then
    written there instead of into a fresh array (numpy elides its temporaries the
    same way). None otherwise. ``sole_references``: which operands only the
    operator's caller refers to (bit 0: x, bit 1: y)."""
    cdef Tensor candidate
    if (sole_references & 1 and isinstance(x, Tensor)
            and _takes_result((<Tensor>x)._array,
                              (<Tensor>y)._array if isinstance(y, Tensor) else y)):
        candidate = <Tensor>x
    elif (sole_references & 2 and isinstance(y, Tensor)
            and _takes_result((<Tensor>y)._array,
                              (<Tensor>x)._array if isinstance(x, Tensor) else x)):
        candidate = <Tensor>y
    else:
        return None
    if _keeps_operands(op, x, y) or not has_unshared_array(candidate):
        return None
    if not is_running_binary_op(x, y, _BINARY_OPERATION[op]):
        return None
    return candidate._array


cdef inline bint _keeps_operands(int op, object x, object y):
    """Whether ``x (op) y`` records a node that keeps its tensor operands for backward:
    multiply of two tensors, divide by a tensor, when a gradient is needed."""
    if op < 2 or not isinstance(y, Tensor) or (op == 2 and not isinstance(x, Tensor)):
        return False
    if not grad_enabled():
        return False
    return not (<Tensor>y).stop_gradient or (isinstance(x, Tensor) and not (<Tensor>x).stop_gradient)


cdef object _arithmetic(int op, object x, object y, int sole_references):
    """Tensor's ``+ - * /`` (installed into _tensor): the ops, with the result written
    into a temporary operand when one is proven."""
    into = _temporary_target(op, x, y, sole_references) if sole_references else None
    if op == 0:
        return _add(x, y, into)
    if op == 1:
        return _subtract(x, y, into)
    if op == 2:
        return _multiply(x, y, into)
    return _divide(x, y, into)


install_arithmetic(_arithmetic)


cdef object _np_tanh = np.tanh   # looked up once instead of on every call


cdef inline object _unary(object ufunc, object a):
    """``ufunc(a)``, written into a pooled buffer when a large one of ``a``'s size is free."""
    buffer = buffer_like(a)
    return ufunc(a) if buffer is None else ufunc(a, out=buffer)
cdef object _np_add_reduce = np.add.reduce   # np.sum without its Python-level wrapper


cpdef tuple shape_of(object x):
    """A Tensor's shape; a number counts as 0-d."""
    return (<Tensor>x)._array.shape if isinstance(x, Tensor) else ()


cdef object _unbroadcast_like(object g, object x):
    """unbroadcast(g, shape of x), without building shapes when they already agree."""
    if isinstance(x, Tensor) and cnp.PyArray_SAMESHAPE(<cnp.ndarray>(<Tensor>g)._array,
                                                       <cnp.ndarray>(<Tensor>x)._array):
        return g
    return unbroadcast(g, shape_of(x))


# ------------------------------------------------------------ arithmetic
def _add_bw(GradNode node, g):
    sx, sy = node.attrs
    return (unbroadcast(g, sx), unbroadcast(g, sy))


def add(x, y, name=None):
    """Elementwise ``x + y`` with broadcasting.

    >>> import pylayer
    >>> pylayer.add(pylayer.to_tensor([1.0, 2.0]), 1.0).numpy()
    array([2., 3.], dtype=float32)
    """
    return _add(x, y, None)


cdef object _add(object x, object y, object into):
    xa = operand(x, "add", "x", 1)
    ya = operand(y, "add", "y", 2)
    out = _arith_array(0, "add", xa, ya, into)
    return make_output(out, (x, y), "add", _add_bw, (), False, (shape_of(x), shape_of(y)))


def _sub_bw(GradNode node, g):
    sx, sy = node.attrs
    return (unbroadcast(g, sx), unbroadcast(neg(g), sy))


def subtract(x, y, name=None):
    """Elementwise ``x - y`` with broadcasting.

    >>> import pylayer
    >>> pylayer.subtract(pylayer.to_tensor([3, 4]), 1).numpy()
    array([2, 3])
    """
    return _subtract(x, y, None)


cdef object _subtract(object x, object y, object into):
    xa = operand(x, "subtract", "x", 1)
    ya = operand(y, "subtract", "y", 2)
    out = _arith_array(1, "subtract", xa, ya, into)
    return make_output(out, (x, y), "subtract", _sub_bw, (), False, (shape_of(x), shape_of(y)))


cpdef tuple saved_operands(GradNode node):
    """(x, y) of a binary op: saved tensors, or the Python numbers kept in attrs."""
    saved = iter(node.saved_tensors())
    x, y = node.attrs[0], node.attrs[1]
    return (next(saved) if x is None else x, next(saved) if y is None else y)


cpdef tuple number_attrs(object x, object y):
    """The numbers among a binary op's operands, None for each Tensor."""
    return (None if isinstance(x, Tensor) else x, None if isinstance(y, Tensor) else y)


def _mul_bw(GradNode node, g):
    x, y = saved_operands(node)
    gx = _unbroadcast_like(multiply(g, y), x) if node.needs_input_grad[0] else None
    gy = _unbroadcast_like(multiply(g, x), y) if node.needs_input_grad[1] else None
    return (gx, gy)


def _mul_number_bw(GradNode node, g):
    number, tensor_first = node.attrs
    return (multiply(g, number), None) if tensor_first else (None, multiply(g, number))


def multiply(x, y, name=None):
    """Elementwise ``x * y`` with broadcasting; saves both inputs when both are tensors.

    >>> import pylayer
    >>> pylayer.multiply(pylayer.to_tensor([1.0, 2.0]), 3.0).numpy()
    array([3., 6.], dtype=float32)
    """
    return _multiply(x, y, None)


cdef object _multiply(object x, object y, object into):
    xa = operand(x, "multiply", "x", 1)
    ya = operand(y, "multiply", "y", 2)
    out = _arith_array(2, "multiply", xa, ya, into)
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        return make_output(out, (x, y), "multiply", _mul_bw, (x, y), False, (None, None))
    # Times a number: a scale, which needs no saved tensor.
    if isinstance(x, Tensor):
        return make_output(out, (x, y), "multiply", _mul_number_bw, (), False, (ya, True))
    return make_output(out, (x, y), "multiply", _mul_number_bw, (), False, (xa, False))


def _div_bw(GradNode node, g):
    x, y = saved_operands(node)
    gx = _unbroadcast_like(divide(g, y), x) if node.needs_input_grad[0] else None
    gy = None
    if node.needs_input_grad[1]:
        gy = _unbroadcast_like(neg(divide(multiply(g, x), multiply(y, y))), y)
    return (gx, gy)


def _div_number_bw(GradNode node, g):
    return (divide(g, node.attrs), None)


def divide(x, y, name=None):
    """Elementwise ``x / y`` with broadcasting; integers divide to float32.

    >>> import pylayer
    >>> pylayer.divide(pylayer.to_tensor([1.0, 3.0]), 2.0).numpy()
    array([0.5, 1.5], dtype=float32)
    """
    return _divide(x, y, None)


cdef object _divide(object x, object y, object into):
    xa = operand(x, "divide", "x", 1)
    ya = operand(y, "divide", "y", 2)
    out = _arith_array(3, "divide", xa, ya, into)
    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        return make_output(out, (x, y), "divide", _div_number_bw, (), False, ya)
    tensors = tuple(t for t in (x, y) if isinstance(t, Tensor))
    return make_output(out, (x, y), "divide", _div_bw, tensors, False, number_attrs(x, y))


def _neg_bw(GradNode node, g):
    return (neg(g),)


def neg(x, name=None):
    """Elementwise ``-x``.

    >>> import pylayer
    >>> pylayer.neg(pylayer.to_tensor([1.0, -2.0])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    x = _arg(x, "neg", "x", 1)
    return make_output(_unary(np.negative, (<Tensor>x)._array), (x,), "neg", _neg_bw)


def _scale_bw(GradNode node, g):
    return (scale(g, node.attrs),)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """``x * scale + bias`` (or ``(x + bias) * scale`` when bias_after_scale is False).

    An integer tensor keeps its dtype: ``scale`` and ``bias`` are truncated
    to integers first, as in Paddle.

    >>> import pylayer
    >>> pylayer.scale(pylayer.to_tensor([1.0, 2.0]), scale=2.0, bias=1.0).numpy()
    array([3., 5.], dtype=float32)
    """
    x = _arg(x, "scale", "x", 1)
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
    return make_output(out, (x,), "scale", _scale_bw, (), False, scale)


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
            if not _fusable(x, y):
                return None
            out = _empty_like(x)
            n = cnp.PyArray_SIZE(out)
            check_spans(out, x, y)
            if _is_single(x):
                binary_loop(op, <const float*>_data(x), <const float*>_data(y), <float*>_data(out), n)
            else:
                binary_loop(op, <const double*>_data(x), <const double*>_data(y), <double*>_data(out), n)
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
    if not _kernel_ready(array):
        return None
    s = number
    out = _empty_like(array)
    n = cnp.PyArray_SIZE(out)
    check_spans(out, array, None)
    if _is_single(array):
        scalar_loop(op, <const float*>_data(array), <float>s, scalar_first, <float*>_data(out), n)
    else:
        scalar_loop(op, <const double*>_data(array), s, scalar_first, <double*>_data(out), n)
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
    out = _empty_like(a)
    check_spans(out, a, None)
    if _is_single(a):
        sigmoid_forward_loop(<const float*>_data(a), <float*>_data(out), n)
    else:
        sigmoid_forward_loop(<const double*>_data(a), <double*>_data(out), n)
    return out


cdef object _grad_kernel(int which, object y, object g):
    """One of the fused backward loops: 0 tanh, 1 sigmoid, 2 relu."""
    cdef cnp.ndarray out = _empty_like(y)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(out)
    check_spans(out, y, g)
    if _is_single(y):
        if which == 0:
            tanh_backward_loop(<const float*>_data(y), <const float*>_data(g), <float*>_data(out), n)
        elif which == 1:
            sigmoid_backward_loop(<const float*>_data(y), <const float*>_data(g), <float*>_data(out), n)
        else:
            relu_backward_loop(<const float*>_data(y), <const float*>_data(g), <float*>_data(out), n)
    else:
        if which == 0:
            tanh_backward_loop(<const double*>_data(y), <const double*>_data(g), <double*>_data(out), n)
        elif which == 1:
            sigmoid_backward_loop(<const double*>_data(y), <const double*>_data(g), <double*>_data(out), n)
        else:
            relu_backward_loop(<const double*>_data(y), <const double*>_data(g), <double*>_data(out), n)
    return out


def _tanh_bw(GradNode node, g):
    return (tanh_grad(node.saved_tensors()[0], g),)


def tanh(x, name=None):
    """Elementwise hyperbolic tangent; saves its output for backward.

    >>> import pylayer
    >>> pylayer.tanh(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """
    x = _float_arg(x, "tanh")
    return make_output(_unary(_np_tanh, (<Tensor>x)._array), (x,), "tanh", _tanh_bw, (), True)


def _tanh_grad_bw(GradNode node, gg):
    y, g = node.saved_tensors()
    gy = multiply(multiply(gg, g), multiply(y, -2.0)) if node.needs_input_grad[0] else None
    gdy = tanh_grad(y, gg) if node.needs_input_grad[1] else None
    return (gy, gdy)


def tanh_grad(y, dy):
    """``dy * (1 - y**2)`` in one pass: the gradient of tanh given its output."""
    ya = (<Tensor?>y)._array
    ga = (<Tensor?>dy)._array
    if _fusable(ya, ga):
        out = _grad_kernel(0, ya, ga)
    else:
        out = ga * (1 - ya * ya)
    return make_output(out, (y, dy), "tanh_grad", _tanh_grad_bw, (y, dy))


def _exp_bw(GradNode node, g):
    return (multiply(g, node.saved_tensors()[0]),)


def exp(x, name=None):
    """Elementwise ``e ** x``; saves its output.

    >>> import pylayer
    >>> pylayer.exp(pylayer.to_tensor([0.0])).numpy()
    array([1.], dtype=float32)
    """
    x = _float_arg(x, "exp")
    with np.errstate(over="ignore"):
        out = _unary(np.exp, (<Tensor>x)._array)
    return make_output(out, (x,), "exp", _exp_bw, (), True)


def _log_bw(GradNode node, g):
    return (divide(g, node.saved_tensors()[0]),)


def log(x, name=None):
    """Elementwise natural logarithm.

    >>> import pylayer
    >>> pylayer.log(pylayer.to_tensor([1.0])).numpy()
    array([0.], dtype=float32)
    """
    x = _float_arg(x, "log")
    with np.errstate(divide="ignore", invalid="ignore"):
        out = _unary(np.log, (<Tensor>x)._array)
    return make_output(out, (x,), "log", _log_bw, (x,))


def _sigmoid_bw(GradNode node, g):
    return (sigmoid_grad(node.saved_tensors()[0], g),)


def sigmoid(x, name=None):
    """Elementwise logistic function ``1 / (1 + exp(-x))``; saves its output.

    >>> import pylayer
    >>> pylayer.sigmoid(pylayer.to_tensor([0.0])).numpy()
    array([0.5], dtype=float32)
    """
    x = _float_arg(x, "sigmoid")
    a = (<Tensor>x)._array
    if _kernel_ready(a):
        out = _sigmoid_array(a)
    else:
        with np.errstate(over="ignore"):
            out = np.asarray(1 / (1 + np.exp(-a)), dtype=a.dtype)
    return make_output(out, (x,), "sigmoid", _sigmoid_bw, (), True)


def _sigmoid_grad_bw(GradNode node, gg):
    y, g = node.saved_tensors()
    gy = None
    if node.needs_input_grad[0]:
        gy = multiply(multiply(gg, g), subtract(1.0, multiply(y, 2.0)))
    gdy = sigmoid_grad(y, gg) if node.needs_input_grad[1] else None
    return (gy, gdy)


def sigmoid_grad(y, dy):
    """``dy * y * (1 - y)`` in one pass: the gradient of sigmoid given its output."""
    ya = (<Tensor?>y)._array
    ga = (<Tensor?>dy)._array
    if _fusable(ya, ga):
        out = _grad_kernel(1, ya, ga)
    else:
        out = ga * ya * (1 - ya)
    return make_output(out, (y, dy), "sigmoid_grad", _sigmoid_grad_bw, (y, dy))


def _relu_bw(GradNode node, g):
    return (relu_grad(node.saved_tensors()[0], g),)


def relu(x, name=None):
    """Elementwise ``max(x, 0)``; saves its output.

    >>> import pylayer
    >>> pylayer.nn.functional.relu(pylayer.to_tensor([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """
    x = _arg(x, "relu", "x", 1)
    a = (<Tensor>x)._array
    return make_output(np.maximum(a, 0).astype(a.dtype, copy=False), (x,), "relu", _relu_bw, (), True)


def _relu_grad_bw(GradNode node, gg):
    return (None, relu_grad(node.saved_tensors()[0], gg))


def relu_grad(y, dy):
    """``dy`` where ``y > 0``, else 0."""
    ya = (<Tensor?>y)._array
    ga = (<Tensor?>dy)._array
    if _same_layout(ya, ga):
        # The select loop beats np.where at every size; dy * (y > 0) would be
        # faster still, but turns a NaN upstream gradient into NaN where y <= 0.
        out = _grad_kernel(2, ya, ga)
    else:
        out = np.where(ya > 0, ga, 0).astype(ga.dtype, copy=False)
    return make_output(out, (y, dy), "relu_grad", _relu_grad_bw, (y,))


def _square_bw(GradNode node, g):
    x = node.saved_tensors()[0]
    return (multiply(g, multiply(x, 2.0)),)


def square(x, name=None):
    """Elementwise ``x * x``; saves its input.

    >>> import pylayer
    >>> pylayer.square(pylayer.to_tensor([3.0])).numpy()
    array([9.], dtype=float32)
    """
    x = _arg(x, "square", "x", 1)
    a = (<Tensor>x)._array
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.multiply(a, a)
    return make_output(out, (x,), "square", _square_bw, (x,))


def _sqrt_bw(GradNode node, g):
    y = node.saved_tensors()[0]
    return (divide(g, multiply(y, 2.0)),)


def sqrt(x, name=None):
    """Elementwise square root; saves its output.

    >>> import pylayer
    >>> pylayer.sqrt(pylayer.to_tensor([4.0])).numpy()
    array([2.], dtype=float32)
    """
    x = _float_arg(x, "sqrt")
    with np.errstate(invalid="ignore"):
        out = _unary(np.sqrt, (<Tensor>x)._array)
    return make_output(out, (x,), "sqrt", _sqrt_bw, (), True)


# ----------------------------------------------------------------- matmul
def _matmul_bw(GradNode node, g):
    x, y = node.saved_tensors()
    tx, ty = node.attrs
    xs = (<Tensor>x)._array.shape
    ys = (<Tensor>y)._array.shape
    gs = (<Tensor>g)._array.shape
    # Work with matrices: a vector x is a row [1, k], a vector y a column [k, 1].
    a = reshape_exact(x, (1,) + xs) if len(xs) == 1 else x
    b = reshape_exact(y, ys + (1,)) if len(ys) == 1 else y
    if len(xs) == 1 and len(ys) == 1:
        g = reshape_exact(g, (1, 1))
    elif len(xs) == 1:
        g = reshape_exact(g, gs[:-1] + (1,) + gs[-1:])
    elif len(ys) == 1:
        g = reshape_exact(g, gs + (1,))
    gx = gy = None
    if node.needs_input_grad[0]:
        if tx:
            gx = matmul(b, g, transpose_x=ty, transpose_y=True)
        else:
            gx = matmul(g, b, transpose_y=not ty)
        gx = reshape_exact(unbroadcast(gx, (<Tensor>a)._array.shape), xs)
    if node.needs_input_grad[1]:
        if ty:
            gy = matmul(g, a, transpose_x=True, transpose_y=tx)
        else:
            gy = matmul(a, g, transpose_x=not tx)
        gy = reshape_exact(unbroadcast(gy, (<Tensor>b)._array.shape), ys)
    return (gx, gy)


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    """Matrix product with numpy's broadcasting of batch dimensions.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, 2.0]])
    >>> pylayer.matmul(a, a, transpose_y=True).numpy()
    array([[5.]], dtype=float32)
    """
    x = _arg(x, "matmul", "x", 1)
    y = _arg(y, "matmul", "y", 2)
    a = (<Tensor>x)._array
    b = (<Tensor>y)._array
    if transpose_x and a.ndim > 1:
        a = np.swapaxes(a, -1, -2)
    if transpose_y and b.ndim > 1:
        b = np.swapaxes(b, -1, -2)
    try:
        out = np.matmul(a, b)
    except ValueError:
        raise ValueError(f"matmul(): x of shape {list((<Tensor>x)._array.shape)} and y of shape "
                         f"{list((<Tensor>y)._array.shape)} do not fit a matrix product: the "
                         f"last dimension of x must equal the first matrix dimension of y "
                         f"(transpose_x={transpose_x}, transpose_y={transpose_y})") from None
    return make_output(out, (x, y), "matmul", _matmul_bw, (x, y), False, (bool(transpose_x and a.ndim > 1), bool(transpose_y and b.ndim > 1)))


# ------------------------------------------------------------- reductions
cdef object _check_axes = None     # ops._arguments.check_axes (it imports this module)


cdef object _axes(object axis, int ndim, str fn):
    """The reduced axes as a sorted tuple, or None for all (the shared check and wording)."""
    global _check_axes
    if axis is None:
        return None
    if _check_axes is None:
        from pylayer.ops._arguments import check_axes
        _check_axes = check_axes
    return _check_axes(axis, ndim, fn)


def _sum_bw(GradNode node, g):
    shape, axes, keepdim, dtype = node.attrs
    g = expand_grad(g, shape, axes, keepdim)
    # sum(x, dtype=...) changed the dtype: the gradient has x's again.
    return (g if (<Tensor>g)._array.dtype == dtype else cast(g, dtype),)


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over ``axis`` (all axes by default); saves nothing.

    >>> import pylayer
    >>> pylayer.sum(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0).numpy()
    array([4., 6.], dtype=float32)
    """
    x = _arg(x, "sum", "x", 1)
    a = (<Tensor>x)._array
    axes = _axes(axis, a.ndim, "sum")
    if a.ndim == 0:
        axes = None
    np_dtype = convert_dtype(dtype, "sum")
    if np_dtype is None and a.dtype.kind in "bi" and a.dtype != np.int64:
        np_dtype = np.dtype(np.int64)
    out = _np_add_reduce(a, axis=axes, dtype=np_dtype, keepdims=bool(keepdim))
    if not cnp.PyArray_Check(out):
        out = np.asarray(out)
    return make_output(out, (x,), "sum", _sum_bw, (), False, (a.shape, axes, bool(keepdim), a.dtype))


def _mean_bw(GradNode node, g):
    shape, axes, keepdim, count = node.attrs
    return (divide(expand_grad(g, shape, axes, keepdim), float(count)),)


cpdef object expand_grad(g, shape, axes, keepdim):
    """Broadcast a reduction's gradient back over the reduced axes (recorded ops)."""
    if not keepdim and len(shape):
        kept = list(shape)
        for a in (axes if axes is not None else range(len(shape))):
            kept[a] = 1
        g = reshape_exact(g, tuple(kept))
    return broadcast_to(g, list(shape))


def mean(x, axis=None, keepdim=False, name=None):
    """Mean over ``axis`` (all axes by default); saves nothing.

    >>> import pylayer
    >>> pylayer.mean(pylayer.to_tensor([1.0, 2.0, 6.0])).numpy()
    array(3., dtype=float32)
    """
    x = _arg(x, "mean", "x", 1)
    a = (<Tensor>x)._array
    if a.dtype.kind != "f":
        raise TypeError(f"mean(): argument 'x' (position 1) must be a floating-point Tensor, "
                        f"got dtype {a.dtype}")
    axes = _axes(axis, a.ndim, "mean")
    if a.ndim == 0:
        axes = None
    count = a.size if axes is None else int(np.prod([a.shape[i] for i in axes]))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        # sum / count rather than np.mean, which warns on an empty slice.
        out = np.asarray(np.sum(a, axis=axes, keepdims=bool(keepdim)) / count
                         if count else np.full(np.sum(a, axis=axes, keepdims=bool(keepdim)).shape,
                                               np.nan), dtype=a.dtype)
    return make_output(out, (x,), "mean", _mean_bw, (), False, (a.shape, axes, bool(keepdim), count))


# ------------------------------------------------------------ manipulation
cpdef list shape_arg(object shape, str fn, str arg="shape", long minimum=-1):
    """A list of ints from a list/tuple/Tensor/int argument, each at least ``minimum``.

    >>> shape_arg((2, 3), "zeros", minimum=0)
    [2, 3]
    """
    if isinstance(shape, Tensor):
        shape = (<Tensor>shape)._array.tolist()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a list or tuple of ints, "
                        f"got {type(shape).__name__}")
    result = []
    for s in shape:
        if isinstance(s, Tensor) and (<Tensor>s)._array.size == 1:
            s = (<Tensor>s).item()
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"{fn}(): argument '{arg}' must hold ints, got {type(s).__name__}")
        if s < minimum:
            raise ValueError(f"{fn}(): argument '{arg}' holds {s}, but its entries must be "
                             f"at least {minimum}")
        result.append(int(s))
    return result


def _reshape_bw(GradNode node, g):
    return (reshape_exact(g, node.attrs),)


cpdef object reshape_exact(object x, tuple shape):
    """Differentiable reshape to exactly ``shape`` (no 0/-1 rules; for backward rules)."""
    cdef Tensor t = <Tensor?>x
    if has_shape(t._array, shape):
        return x
    return make_output(t._array.reshape(shape), (x,), "reshape", _reshape_bw, (), False, t._array.shape)


cdef list _zero_size_dims(tuple shape, list dims):
    """Paddle's reading of a target shape for a tensor without elements.

    A 0 is a size of 0 (not "keep this dimension"). A -1 is 0 when no 0 is
    given, else the product of ``shape``'s non-zero sizes divided by that of
    the other given sizes; with two or more 0s it is ambiguous.
    """
    if dims.count(-1) != 1:
        return dims     # no -1, or several: numpy's check applies
    zeros = dims.count(0)
    if zeros == 0:
        return [0 if d == -1 else d for d in dims]
    known = math.prod(d for d in dims if d > 0)
    available = math.prod(d for d in shape if d > 0)
    if zeros > 1 or available % known:
        reason = "the -1 is ambiguous with several 0s" if zeros > 1 else \
            f"the non-zero sizes multiply to {available}, which {known} does not divide"
        raise ValueError(f"reshape(): cannot reshape a tensor of shape {list(shape)} (0 "
                         f"elements) into {dims}: {reason}")
    return [available // known if d == -1 else d for d in dims]


def reshape(x, shape, name=None):
    """A tensor with the same data and a new shape (``0`` keeps a dim, ``-1`` infers one).

    For a tensor without elements Paddle's rule applies: a ``0`` is a size of
    0, and ``-1`` is the product of the tensor's non-zero sizes divided by the
    other given ones (0 when the shape holds no 0).

    >>> import pylayer
    >>> pylayer.reshape(pylayer.arange(6), [2, -1]).shape
    [2, 3]
    """
    x = _arg(x, "reshape", "x", 1)
    a = (<Tensor>x)._array
    dims = shape_arg(shape, "reshape")
    if a.size == 0:
        dims = _zero_size_dims(a.shape, dims)
    else:
        dims = [a.shape[i] if d == 0 and i < a.ndim else d for i, d in enumerate(dims)]
    try:
        out = a.reshape(dims)
    except ValueError:
        raise ValueError(f"reshape(): cannot reshape a tensor of shape {list(a.shape)} "
                         f"({a.size} elements) into {list(shape)}") from None
    return make_output(out, (x,), "reshape", _reshape_bw, (), False, a.shape)


def _broadcast_bw(GradNode node, g):
    return (unbroadcast(g, node.attrs),)


cdef object _broadcast(object x, object shape, str fn):
    """broadcast_to / expand: ``-1`` keeps a dimension of x."""
    x = _arg(x, fn, "x", 1)
    a = (<Tensor>x)._array
    dims = shape_arg(shape, fn)
    lead = len(dims) - a.ndim
    dims = [a.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(dims)]
    try:
        out = np.broadcast_to(a, dims)
    except ValueError:
        raise ValueError(f"{fn}(): cannot broadcast x of shape {list(a.shape)} to the shape "
                         f"{list(shape)}") from None
    return make_output(out, (x,), "broadcast_to", _broadcast_bw, (), False, a.shape)


def broadcast_to(x, shape, name=None):
    """Broadcast ``x`` to ``shape`` (numpy rules); the gradient is summed back.

    >>> import pylayer
    >>> pylayer.broadcast_to(pylayer.to_tensor([1.0, 2.0]), [2, 2]).shape
    [2, 2]
    """
    return _broadcast(x, shape, "broadcast_to")


def expand(x, shape, name=None):
    """Same as :func:`broadcast_to` (``-1`` keeps a dimension).

    >>> import pylayer
    >>> pylayer.expand(pylayer.to_tensor([[1.0], [2.0]]), [-1, 3]).shape
    [2, 3]
    """
    return _broadcast(x, shape, "expand")


def _cast_bw(GradNode node, g):
    return (cast(g, node.attrs),)


def cast(x, dtype):
    """A copy of ``x`` converted to ``dtype``; gradients are cast back.

    >>> import pylayer
    >>> pylayer.cast(pylayer.to_tensor([1.5]), 'float64').dtype
    pylayer.float64
    """
    x = _arg(x, "cast", "x", 1)
    a = (<Tensor>x)._array
    if dtype is None:
        raise TypeError("cast(): argument 'dtype' (position 2) must be a dtype such as "
                        "'float32', got None")
    target = convert_dtype(dtype, "cast")
    out = a.astype(target)
    if target.kind != "f":
        return wrap(out, True)
    return make_output(out, (x,), "cast", _cast_bw, (), False, a.dtype)


def _assign_bw(GradNode node, g):
    return (g,)


def assign(x, output=None):
    """A copy of ``x`` that stays on the graph (``Tensor.clone``).

    >>> import pylayer
    >>> pylayer.assign(pylayer.to_tensor([1.0])).numpy()
    array([1.], dtype=float32)
    """
    x = _arg(x, "assign", "x", 1)
    if output is not None and not isinstance(output, Tensor):
        raise TypeError(f"assign(): argument 'output' (position 2) must be a Tensor or None, "
                        f"got {type(output).__name__}")
    out = make_output(np.array((<Tensor>x)._array, copy=True), (x,), "assign", _assign_bw)
    if output is not None:
        (<Tensor>output)._set_array_inplace(out._array)
        return output
    return out


def _transpose_bw(GradNode node, g):
    return (transpose(g, list(np.argsort(node.attrs))),)


def transpose(x, perm, name=None):
    """Permute the dimensions of ``x``.

    >>> import pylayer
    >>> pylayer.transpose(pylayer.zeros([2, 3]), [1, 0]).shape
    [3, 2]
    """
    x = _arg(x, "transpose", "x", 1)
    a = (<Tensor>x)._array
    perm = shape_arg(perm, "transpose", "perm", -(1 << 62))
    if any(not -a.ndim <= p < a.ndim for p in perm) or \
            sorted(p % a.ndim for p in perm) != list(range(a.ndim)):
        raise ValueError(f"transpose(): perm {perm} is not a permutation of the "
                         f"{a.ndim} dimensions of x")
    perm = [p % a.ndim for p in perm]
    return make_output(np.transpose(a, perm), (x,), "transpose", _transpose_bw, (), False, tuple(perm))
