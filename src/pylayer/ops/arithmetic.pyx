"""Arithmetic: ``add``, ``subtract``, ``multiply`` and ``divide`` (Tensor's ``+ - * /``,
which this module installs), ``neg``, ``scale``, ``floor_divide``, ``remainder``,
``maximum`` and ``minimum``.

* Binary ops broadcast like numpy; a Python number on either side stays a "weak"
  scalar (it does not widen the tensor's dtype). When numpy would give float64
  although neither operand is a float64 tensor, the result is float32, Paddle's
  default float (``divide`` of integers too).
* Gradients are summed back to each input's shape by rules written with these
  ops, so that ``create_graph=True`` records them (double backward).
* ``floor_divide`` is piecewise constant: its node gives a gradient of zeros, as
  Paddle's does. Integer division by zero raises ``ZeroDivisionError``.
* NaN and inf propagate silently, as in numpy (no floating-point warnings).

Each op is declared once as a record (``Op``) next to its forward. The public
function is the forward wrapped by :func:`pylayer.ops.dispatch.op`; rules and
other compiled ops call the unwrapped forwards (``add_op`` ..., ``arithmetic.pxd``).
"""
import math

import numpy as np
cimport numpy as cnp

from pylayer._kernels.dtypes import is_floating, is_integer, number_in
from pylayer._core.graph cimport Op, make_output
from pylayer._core.tensor cimport Tensor, elementwise, install_arithmetic, wrap
from pylayer._kernels.loops cimport (Arithmetic, ADDITION, SUBTRACTION, MULTIPLICATION,
                                     DIVISION, check_spans, data_of, empty_like, is_single,
                                     kernel_ready, scalar_loop, small_binary)
from pylayer.ops._common import binary_array, tensor_pair
from pylayer.ops._arguments import broadcast_error, refuse_complex
from pylayer.ops._operands cimport (check_numbers, conjugate, float32_unless_float64,
                                    is_complex_array, is_complex_result, operand_of,
                                    pooled_unary, real_part_if, shape_of, tensor_arg,
                                    unbroadcast, unbroadcast_like)
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.dispatch import op

cnp.import_array()

__all__ = ["add", "subtract", "multiply", "divide", "neg", "scale", "floor_divide",
           "remainder", "maximum", "minimum", "sub", "mul", "div", "mod", "floor_mod",
           "divide_", "floor_divide_", "multiply_", "neg_", "remainder_", "subtract_",
           "sub_", "div_", "mod_", "floor_mod_"]


# ------------------------------------------------------ + - * / on arrays
cdef object _small_loop(Arithmetic operation, object x, object y):
    """x (operation) y by a C loop when numpy's dispatch would cost more than the work.

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
            return small_binary(operation, x, y)
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
        scalar_loop(operation, <const float*>data_of(array), <float>s, scalar_first,
                    <float*>data_of(out), n)
    else:
        scalar_loop(operation, <const double*>data_of(array), s, scalar_first,
                    <double*>data_of(out), n)
    return out


cdef inline object _arithmetic_array(Arithmetic operation, str fn, object xa, object ya):
    """The array of x (+ - * /) y: a C loop when it pays, else numpy.

    float64 only when an operand is a float64 array: integers with a Python
    float, integers divided, or int64 with float32 give float32, Paddle's
    default float.
    """
    out = _small_loop(operation, xa, ya)
    if out is not None:
        return out
    try:
        out = elementwise(operation, xa, ya)
    except ValueError:
        raise broadcast_error(fn, xa, ya) from None
    return float32_unless_float64(out, (xa, ya))


cdef object _tensor_arithmetic(int operation, object x, object y):
    """Tensor's ``+ - * /`` (installed into the core): the ops, called from C."""
    if operation == ADDITION:
        return add_op(x, y)
    if operation == SUBTRACTION:
        return subtract_op(x, y)
    if operation == MULTIPLICATION:
        return multiply_op(x, y)
    return divide_op(x, y)


install_arithmetic(_tensor_arithmetic)


# ------------------------------------------------------------------- add
ADD = Op("add", inputs=("x", "y"), attrs=("x_shape", "y_shape"),
         vjp=(lambda g, x_shape: unbroadcast(g, x_shape),
              lambda g, y_shape: unbroadcast(g, y_shape)))

# A complex result: an operand that was real gets the real part of its gradient.
ADD_TO_COMPLEX = Op("add", inputs=("x", "y"), attrs=("x_shape", "y_shape", "x_real", "y_real"),
                    vjp=(lambda g, x_shape, x_real: unbroadcast(real_part_if(g, x_real), x_shape),
                         lambda g, y_shape, y_real: unbroadcast(real_part_if(g, y_real),
                                                                y_shape)))


cdef tuple _complex_attrs(object x, object y, object xa, object ya):
    """The attributes of ADD_TO_COMPLEX and SUBTRACT_FROM_COMPLEX: shapes, and which
    operand is real."""
    return (shape_of(x), shape_of(y), not is_complex_array(xa), not is_complex_array(ya))


cdef object add_op(object x, object y):
    xa = operand_of(x, "add", "x", 1)
    ya = operand_of(y, "add", "y", 2)
    check_numbers(xa, ya, "add", 1)
    out = _arithmetic_array(ADDITION, "add", xa, ya)
    if is_complex_result(out):
        return make_output(ADD_TO_COMPLEX, out, (x, y), _complex_attrs(x, y, xa, ya))
    return make_output(ADD, out, (x, y), (shape_of(x), shape_of(y)))


@op(method=True, inplace=True)
def add(x, y, name=None):
    """Elementwise ``x + y`` with broadcasting.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> pylayer.add(x, pylayer.to_tensor([10.0, 20.0])).numpy()
    array([[11., 22.],
           [13., 24.]], dtype=float32)
    """
    return add_op(x, y)


# -------------------------------------------------------------- subtract
SUBTRACT = Op("subtract", inputs=("x", "y"), attrs=("x_shape", "y_shape"),
              vjp=(lambda g, x_shape: unbroadcast(g, x_shape),
                   lambda g, y_shape: unbroadcast(neg_op(g), y_shape)))
SUBTRACT_FROM_COMPLEX = Op(
    "subtract", inputs=("x", "y"), attrs=("x_shape", "y_shape", "x_real", "y_real"),
    vjp=(lambda g, x_shape, x_real: unbroadcast(real_part_if(g, x_real), x_shape),
         lambda g, y_shape, y_real: unbroadcast(neg_op(real_part_if(g, y_real)), y_shape)))


cdef object subtract_op(object x, object y):
    xa = operand_of(x, "subtract", "x", 1)
    ya = operand_of(y, "subtract", "y", 2)
    check_numbers(xa, ya, "subtract", 1)
    out = _arithmetic_array(SUBTRACTION, "subtract", xa, ya)
    if is_complex_result(out):
        return make_output(SUBTRACT_FROM_COMPLEX, out, (x, y), _complex_attrs(x, y, xa, ya))
    return make_output(SUBTRACT, out, (x, y), (shape_of(x), shape_of(y)))


@op(method=True, inplace=True)
def subtract(x, y, name=None, *, alpha=1):
    """Elementwise ``x - alpha * y`` with broadcasting (``alpha`` a number, 1 by default).

    >>> import pylayer
    >>> pylayer.subtract(pylayer.to_tensor([3, 4]), 1).numpy()
    array([2, 3])
    >>> pylayer.subtract(pylayer.to_tensor([3.0, 4.0]), 1.0, alpha=2).numpy()
    array([1., 2.], dtype=float32)
    """
    if not (type(alpha) is int and alpha == 1):
        if not isinstance(alpha, (int, float)) or isinstance(alpha, bool):
            raise TypeError(f"subtract(): argument 'alpha' must be a number, got "
                            f"{type(alpha).__name__}")
        if alpha != 1:
            y = multiply_op(y, alpha) if isinstance(y, Tensor) else _scaled_number(y, alpha)
    return subtract_op(x, y)


cdef object _scaled_number(object y, object alpha):
    if isinstance(y, (int, float, complex)) and not isinstance(y, bool):
        return y * alpha
    return multiply_op(tensor_arg(y, "subtract", "y", 2), alpha)


sub = subtract      # the PyTorch-style name Paddle 3 added, as mul, div and mod below


# -------------------------------------------------------------- multiply
MULTIPLY = Op("multiply", inputs=("x", "y"), keeps=("x", "y"),
              vjp=(lambda g, y, x: unbroadcast_like(multiply_op(g, conjugate(y)), x),
                   lambda g, x, y: unbroadcast_like(multiply_op(g, conjugate(x)), y)))

# A tensor times a number (on either side): a scale, which keeps no tensor.
MULTIPLY_BY_NUMBER = Op("multiply", inputs=("x", "y"), attrs=("factor",),
                        vjp=(lambda g, factor: multiply_op(g, factor),
                             lambda g, factor: multiply_op(g, factor)))

# The same with a complex result: the factor's conjugate, the real part for a real tensor.
MULTIPLY_BY_NUMBER_TO_COMPLEX = Op(
    "multiply", inputs=("x", "y"), attrs=("conjugate_factor", "real_tensor"),
    vjp=(lambda g, conjugate_factor, real_tensor: real_part_if(
             multiply_op(g, conjugate_factor), real_tensor),) * 2)


cdef object multiply_op(object x, object y):
    xa = operand_of(x, "multiply", "x", 1)
    ya = operand_of(y, "multiply", "y", 2)
    check_numbers(xa, ya, "multiply", 1)
    out = _arithmetic_array(MULTIPLICATION, "multiply", xa, ya)
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        return make_output(MULTIPLY, out, (x, y))
    if is_complex_result(out):
        return _scaled_to_complex(out, x, y, xa, ya)
    return make_output(MULTIPLY_BY_NUMBER, out, (x, y), (ya if isinstance(x, Tensor) else xa,))


cdef object _scaled_to_complex(object out, object x, object y, object xa, object ya):
    """The complex product of a tensor and a number (or array), recorded."""
    factor, array = (ya, xa) if isinstance(x, Tensor) else (xa, ya)
    return make_output(MULTIPLY_BY_NUMBER_TO_COMPLEX, out, (x, y),
                       (conjugate(factor), not is_complex_array(array)))


@op(method=True, inplace=True)
def multiply(x, y, name=None):
    """Elementwise ``x * y`` with broadcasting; saves both inputs when both are tensors.

    >>> import pylayer
    >>> pylayer.multiply(pylayer.to_tensor([1.0, 2.0]), 3.0).numpy()
    array([3., 6.], dtype=float32)
    """
    return multiply_op(x, y)


mul = multiply


# ---------------------------------------------------------------- divide
# x / y with y a tensor (x a tensor or a number, kept as it is).
DIVIDE = Op("divide", inputs=("x", "y"), keeps=("x", "y"),
            vjp=(lambda g, y, x: unbroadcast_like(divide_op(g, conjugate(y)), x),
                 lambda g, x, y: unbroadcast_like(neg_op(divide_op(
                     multiply_op(g, conjugate(x)), conjugate(multiply_op(y, y)))), y)))

# A tensor divided by a number: a scale, which keeps no tensor.
DIVIDE_BY_NUMBER = Op("divide", inputs=("x", "y"), attrs=("divisor",),
                      vjp=(lambda g, divisor: divide_op(g, divisor), None))

# The same with a complex result: the divisor's conjugate, the real part for a real tensor.
DIVIDE_BY_NUMBER_TO_COMPLEX = Op(
    "divide", inputs=("x", "y"), attrs=("conjugate_divisor", "real_tensor"),
    vjp=(lambda g, conjugate_divisor, real_tensor: real_part_if(
             divide_op(g, conjugate_divisor), real_tensor), None))


cdef object divide_op(object x, object y):
    xa = operand_of(x, "divide", "x", 1)
    ya = operand_of(y, "divide", "y", 2)
    check_numbers(xa, ya, "divide", 1)
    out = _arithmetic_array(DIVISION, "divide", xa, ya)
    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        if is_complex_result(out):
            return make_output(DIVIDE_BY_NUMBER_TO_COMPLEX, out, (x, y),
                               (conjugate(ya), not is_complex_array(xa)))
        return make_output(DIVIDE_BY_NUMBER, out, (x, y), (ya,))
    return make_output(DIVIDE, out, (x, y))


@op(method=True, inplace=True)
def divide(x, y, name=None, *, rounding_mode=None):
    """Elementwise ``x / y`` with broadcasting; integers divide to float32.

    ``rounding_mode='floor'`` rounds the quotient toward minus infinity and
    ``'trunc'`` toward zero; both keep an integer dtype and have a zero gradient.

    >>> import pylayer
    >>> pylayer.divide(pylayer.to_tensor([1, 2, 3]), 2).numpy()
    array([0.5, 1. , 1.5], dtype=float32)
    >>> pylayer.divide(pylayer.to_tensor([7, -7]), 2, rounding_mode='trunc').numpy()
    array([ 3, -3])
    """
    if rounding_mode is None:
        return divide_op(x, y)
    if rounding_mode not in ("floor", "trunc") or not isinstance(rounding_mode, str):
        raise ValueError(f"divide(): argument 'rounding_mode' must be None, 'trunc' or "
                         f"'floor', got {rounding_mode!r}")
    x, y = tensor_pair(x, y, "divide")
    rounded = np.floor_divide if rounding_mode == "floor" else _trunc_divide
    out = _integer_style("divide", rounded, x, y)
    return make_output(ROUNDED_DIVIDE, out, (x, y), (shape_of(x), shape_of(y)))


def _trunc_divide(a, b):
    """The quotient rounded toward zero (exactly, for integers)."""
    if is_integer(np.result_type(a, b)):
        quotient = np.floor_divide(a, b)
        inexact = np.not_equal(np.remainder(a, b), 0)
        return quotient + (inexact & (np.less(a, 0) != np.less(b, 0)))
    return np.trunc(np.true_divide(a, b))


div = divide


# ------------------------------------------------------------ neg, scale
NEG = Op("neg", vjp=(lambda g: neg_op(g),))


cdef object neg_op(object x):
    x = tensor_arg(x, "neg", "x", 1)
    return make_output(NEG, pooled_unary(np.negative, (<Tensor>x)._array), (x,))


@op(method=True, inplace=True)
def neg(x, name=None):
    """Elementwise ``-x``.

    >>> import pylayer
    >>> pylayer.neg(pylayer.to_tensor([1.0, -2.0])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return neg_op(x)


SCALE = Op("scale", attrs=("factor",), vjp=(lambda g, factor: multiply_op(g, factor),))


@op(method=True, inplace=True)
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """``x * scale + bias`` (or ``(x + bias) * scale`` when bias_after_scale is False).

    An integer tensor keeps its dtype: ``scale`` and ``bias`` are truncated
    to integers first, as in Paddle.

    >>> import pylayer
    >>> v = pylayer.to_tensor([1.0, 2.0])
    >>> pylayer.scale(v, scale=2.0, bias=1.0).numpy()
    array([3., 5.], dtype=float32)
    >>> pylayer.scale(v, scale=2.0, bias=1.0, bias_after_scale=False).numpy()
    array([4., 6.], dtype=float32)
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
    if is_integer(a.dtype):
        # An integer tensor stays integer: Paddle truncates scale and bias first.
        if not (math.isfinite(scale) and math.isfinite(bias)):
            raise ValueError(f"scale(): an integer tensor needs a finite scale and bias, "
                             f"got scale={scale!r} and bias={bias!r}")
        scale, bias = int(scale), int(bias)
    if not bias_after_scale:
        bias = bias * scale
    for arg, position, value in (("scale", 2, scale), ("bias", 3, bias)):
        if isinstance(value, int):
            number_in(value, a.dtype, "scale", arg, position)
    out = a * scale
    if bias:
        out = out + bias
    if out.dtype != a.dtype and is_floating(a.dtype):
        out = out.astype(a.dtype)
    return make_output(SCALE, out, (x,), (scale,))


# ------------------------------------------------- integer-style division
cdef object zero_gradient(object g, object shape):
    """The gradient of a piecewise-constant op: zeros of the input's ``shape`` in ``g``'s
    dtype (Paddle gives such an op's input a gradient of zeros, not none)."""
    return wrap(np.zeros(shape, (<Tensor?>g)._array.dtype), True)


cdef object _integer_style(str fn, object ufunc, object x, object y):
    """``ufunc(x, y)`` for floor_divide and remainder: their operands, broadcasting,
    dtype, and the refusal of an integer division by zero."""
    xa = operand_of(x, fn, "x", 1)
    ya = operand_of(y, fn, "y", 2)
    check_numbers(xa, ya, fn, 1)
    refuse_complex(fn, xa, ya)
    out = float32_unless_float64(binary_array(fn, ufunc, xa, ya), (xa, ya))
    if is_integer(np.result_type(xa, ya)) and np.any(np.equal(ya, 0)):
        raise ZeroDivisionError(f"{fn}(): integer division by zero (y holds a 0)")
    return out


FLOOR_DIVIDE = Op("floor_divide", inputs=("x", "y"), attrs=("x_shape", "y_shape"),
                  vjp=(lambda g, x_shape: zero_gradient(g, x_shape),
                       lambda g, y_shape: zero_gradient(g, y_shape)))
ROUNDED_DIVIDE = Op("divide", inputs=("x", "y"), attrs=("x_shape", "y_shape"),
                    vjp=(lambda g, x_shape: zero_gradient(g, x_shape),
                         lambda g, y_shape: zero_gradient(g, y_shape)))


cdef object _floor_divide(object x, object y):
    x, y = tensor_pair(x, y, "floor_divide")
    out = _integer_style("floor_divide", np.floor_divide, x, y)
    return make_output(FLOOR_DIVIDE, out, (x, y), (shape_of(x), shape_of(y)))


@op(method=True, inplace=True)
def floor_divide(x, y, name=None):
    """Elementwise ``x // y``: the quotient rounded toward minus infinity.

    Integer division by zero raises ``ZeroDivisionError``; float division by
    zero gives inf or NaN. The gradient is zero.

    >>> import pylayer
    >>> pylayer.floor_divide(pylayer.to_tensor([7, -7]), 2).numpy()
    array([ 3, -4])
    """
    return _floor_divide(x, y)


REMAINDER = Op("remainder", inputs=("x", "y"), keeps=("x", "y"),
               vjp=(lambda g, x: unbroadcast_like(g, x),
                    lambda g, x, y: unbroadcast_like(
                        neg_op(multiply_op(g, _floor_divide(x, y))), y)))


@op(method=True, inplace=True)
def remainder(x, y, name=None):
    """Elementwise ``x % y`` with the sign of ``y`` (Python's and numpy's rule).

    The gradient is 1 for ``x`` and ``-floor(x / y)`` for ``y``. Integer
    division by zero raises ``ZeroDivisionError``. Saves both tensor inputs.

    >>> import pylayer
    >>> pylayer.remainder(pylayer.to_tensor([7, -7]), 3).numpy()
    array([1, 2])
    """
    x, y = tensor_pair(x, y, "remainder")
    return make_output(REMAINDER, _integer_style("remainder", np.remainder, x, y), (x, y))


mod = floor_mod = remainder


# ------------------------------------------------------- binary extremes
cdef object _value_of(object value):
    return (<Tensor>value)._array if isinstance(value, Tensor) else value


cdef object _extreme_grad(object g, object x, object y, bint greater, bint for_x):
    """The gradient of maximum (``greater``) or minimum for x (``for_x``) or y: it goes
    to the input that wins, half each where they tie; where one is NaN (the result),
    all of it to that one."""
    xa = _value_of(x)
    ya = _value_of(y)
    with np.errstate(all="ignore"):
        wins = np.greater(xa, ya) if greater else np.less(xa, ya)
        share = wins + 0.5 * np.equal(xa, ya)
        share = np.where(np.isnan(xa), 1.0, np.where(np.isnan(ya), 0.0, share))
    if not for_x:
        share = 1.0 - share
    g = multiply_op(g, wrap(np.asarray(share, (<Tensor?>g)._array.dtype), True))
    return unbroadcast_like(g, x if for_x else y)


MAXIMUM = Op("maximum", inputs=("x", "y"), keeps=("x", "y"),
             vjp=(lambda g, x, y: _extreme_grad(g, x, y, True, True),
                  lambda g, x, y: _extreme_grad(g, x, y, True, False)))
MINIMUM = Op("minimum", inputs=("x", "y"), keeps=("x", "y"),
             vjp=(lambda g, x, y: _extreme_grad(g, x, y, False, True),
                  lambda g, x, y: _extreme_grad(g, x, y, False, False)))


cdef object _extreme(Op record, str fn, object ufunc, object x, object y):
    x, y = tensor_pair(x, y, fn)
    xa = operand_of(x, fn, "x", 1)
    ya = operand_of(y, fn, "y", 2)
    check_numbers(xa, ya, fn, 1)
    refuse_complex(fn, xa, ya)
    out = float32_unless_float64(binary_array(fn, ufunc, xa, ya), (xa, ya))
    return make_output(record, out, (x, y))


@op(method=True)
def maximum(x, y, name=None):
    """Elementwise larger of ``x`` and ``y`` with broadcasting; NaN propagates.

    The gradient goes to the larger input; where ``x == y`` it is split evenly
    (half each), the average of the one-sided derivatives. Saves both inputs.

    >>> import pylayer
    >>> a = pylayer.to_tensor([1.0, 5.0, 2.0], stop_gradient=False)
    >>> m = pylayer.maximum(a, 2.0)
    >>> m.sum().backward()
    >>> m.numpy(), a.grad.numpy()
    (array([2., 5., 2.], dtype=float32), array([0. , 1. , 0.5], dtype=float32))
    """
    return _extreme(MAXIMUM, "maximum", np.maximum, x, y)


@op(method=True)
def minimum(x, y, name=None):
    """Elementwise smaller of ``x`` and ``y`` with broadcasting; NaN propagates.

    The gradient goes to the smaller input; where ``x == y`` it is split
    evenly (half each). Saves both inputs.

    >>> import pylayer
    >>> pylayer.minimum(pylayer.to_tensor([1.0, 5.0]), 2.0).numpy()
    array([1., 2.], dtype=float32)
    """
    return _extreme(MINIMUM, "minimum", np.minimum, x, y)


# ----------------------------------------- Paddle's function-level in-place twins
divide_ = inplace_twin(divide)
floor_divide_ = inplace_twin(floor_divide)
multiply_ = inplace_twin(multiply)
neg_ = inplace_twin(neg)
remainder_ = inplace_twin(remainder)
subtract_ = inplace_twin(subtract)
div_ = divide_
mod_ = floor_mod_ = remainder_
sub_ = subtract_
