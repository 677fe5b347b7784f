"""Comparisons, closeness tests, logical and bitwise ops, and NaN/inf tests.

All of them broadcast like numpy (a Python number on either side is a weak
scalar), return bool tensors (integer tensors for bitwise ops on integers),
and record no graph: their result has no gradient. The logical and bitwise ops
take an optional ``out`` Tensor that receives the result.
"""
import numpy as np

from pylayer._kernels.dtypes import is_bool, is_inexact, is_integer
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._common import binary_array, is_number, operand, tensor_pair
from pylayer.ops._arguments import refuse_complex
from pylayer.ops._operands import as_tensor_arg, operands
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.dispatch import op

__all__ = ["equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
           "equal_all", "isclose", "allclose", "logical_and", "logical_or", "logical_xor",
           "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "isnan",
           "isinf", "isfinite", "eq", "ne", "lt", "le", "gt", "ge", "less", "greater",
           "bitwise_invert",
           "bitwise_and_", "bitwise_not_", "bitwise_or_", "bitwise_xor_", "equal_",
           "greater_equal_", "greater_than_", "less_equal_", "less_than_", "logical_and_",
           "logical_not_", "logical_or_", "less_", "bitwise_invert_"]


# ------------------------------------------------------------- comparisons
def _compare(fn, ufunc, x, y, ordering=True):
    x, y = tensor_pair(x, y, fn)
    xa, ya = operand(x, fn, "x", 1), operand(y, fn, "y", 2)
    if ordering:
        refuse_complex(fn, xa, ya)
    return make_tensor(binary_array(fn, ufunc, xa, ya))


@op(method=True, inplace=True)
def equal(x, y, name=None):
    """Elementwise ``x == y`` with broadcasting; a bool tensor, no gradient.

    >>> import pylayer
    >>> a = pylayer.to_tensor([1, 2, 3])
    >>> pylayer.equal(a, 2).numpy()
    array([False,  True, False])
    """
    return _compare("equal", np.equal, x, y, ordering=False)


# The PyTorch-style names Paddle 3 added. Paddle has no in-place eq_, ne_, ... (but
# has less_), so these are functions of their own, Tensor methods only.
@op(method=True)
def eq(x, y, name=None):
    """``x == y`` elementwise: the PyTorch-style name of :func:`equal`, with no in-place form.

    >>> import pylayer
    >>> pylayer.eq(pylayer.to_tensor([1, 2, 3]), 2).numpy()
    array([False,  True, False])
    """
    return _compare("eq", np.equal, x, y, ordering=False)


@op(method=True, inplace=True)
def not_equal(x, y, name=None):
    """Elementwise ``x != y`` with broadcasting; a bool tensor, no gradient.

    >>> import pylayer
    >>> pylayer.not_equal(pylayer.to_tensor([1, 2]), 2).numpy()
    array([ True, False])
    """
    return _compare("not_equal", np.not_equal, x, y, ordering=False)


@op(method=True)
def ne(x, y, name=None):
    """``x != y`` elementwise: the PyTorch-style name of :func:`not_equal`, with no in-place form.

    >>> import pylayer
    >>> pylayer.ne(pylayer.to_tensor([1, 2]), 2).numpy()
    array([ True, False])
    """
    return _compare("ne", np.not_equal, x, y, ordering=False)


@op(method=True, inplace=True)
def less_than(x, y, name=None):
    """Elementwise ``x < y`` with broadcasting; a bool tensor, no gradient.

    >>> import pylayer
    >>> pylayer.less_than(pylayer.to_tensor([1, 2]), 2).numpy()
    array([ True, False])
    """
    return _compare("less_than", np.less, x, y)


@op(method=True)
def lt(x, y, name=None):
    """``x < y`` elementwise: the PyTorch-style name of :func:`less_than`, with no in-place form.

    >>> import pylayer
    >>> pylayer.lt(pylayer.to_tensor([1, 2]), 2).numpy()
    array([ True, False])
    """
    return _compare("lt", np.less, x, y)
less = less_than


@op(method=True, inplace=True)
def less_equal(x, y, name=None):
    """Elementwise ``x <= y`` with broadcasting; a bool tensor, no gradient.

    >>> import pylayer
    >>> pylayer.less_equal(pylayer.to_tensor([1, 3]), 2).numpy()
    array([ True, False])
    """
    return _compare("less_equal", np.less_equal, x, y)


@op(method=True)
def le(x, y, name=None):
    """``x <= y`` elementwise: the PyTorch-style name of :func:`less_equal`, with no in-place form.

    >>> import pylayer
    >>> pylayer.le(pylayer.to_tensor([1, 3]), 2).numpy()
    array([ True, False])
    """
    return _compare("le", np.less_equal, x, y)


@op(method=True, inplace=True)
def greater_than(x, y, name=None):
    """Elementwise ``x > y`` with broadcasting; a bool tensor, no gradient.

    >>> import pylayer
    >>> pylayer.greater_than(pylayer.to_tensor([1, 3]), 2).numpy()
    array([False,  True])
    """
    return _compare("greater_than", np.greater, x, y)


@op(method=True)
def gt(x, y, name=None):
    """``x > y`` elementwise: the PyTorch-style name of :func:`greater_than`, with no in-place form.

    >>> import pylayer
    >>> pylayer.gt(pylayer.to_tensor([1, 3]), 2).numpy()
    array([False,  True])
    """
    return _compare("gt", np.greater, x, y)


greater = gt


@op(method=True, inplace=True)
def greater_equal(x, y, name=None):
    """Elementwise ``x >= y`` with broadcasting; a bool tensor, no gradient.

    >>> import pylayer
    >>> pylayer.greater_equal(pylayer.to_tensor([1, 2]), 2).numpy()
    array([False,  True])
    """
    return _compare("greater_equal", np.greater_equal, x, y)


@op(method=True)
def ge(x, y, name=None):
    """``x >= y`` elementwise: the PyTorch-style name of :func:`greater_equal`, with no in-place form.

    >>> import pylayer
    >>> pylayer.ge(pylayer.to_tensor([1, 2]), 2).numpy()
    array([False,  True])
    """
    return _compare("ge", np.greater_equal, x, y)


@op(method=True)
def equal_all(x, y, name=None):
    """A 0-d bool tensor: True when ``x`` and ``y`` have the same shape and elements.

    >>> import pylayer
    >>> pylayer.equal_all(pylayer.to_tensor([1, 2]), pylayer.to_tensor([1, 2])).numpy()
    array(True)
    """
    a = as_tensor_arg(x, "equal_all", "x", 1)._array
    b = as_tensor_arg(y, "equal_all", "y", 2)._array
    return make_tensor(np.asarray(a.shape == b.shape and bool(np.array_equal(a, b))))


def _check_tolerances(fn, rtol, atol):
    for arg, value in (("rtol", rtol), ("atol", atol)):
        if not is_number(value) and not isinstance(value, np.floating):
            raise TypeError(f"{fn}(): argument '{arg}' must be a float, "
                            f"got {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{fn}(): argument '{arg}' must be non-negative, got {value}")


def _close_arrays(fn, x, y, rtol, atol, equal_nan):
    _check_tolerances(fn, rtol, atol)
    a = as_tensor_arg(x, fn, "x", 1)._array
    b = as_tensor_arg(y, fn, "y", 2)._array
    return binary_array(fn, lambda a, b: np.isclose(a, b, rtol=float(rtol), atol=float(atol),
                                                    equal_nan=bool(equal_nan)), a, b)


@op(method=True)
def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Elementwise ``|x - y| <= atol + rtol * |y|``; a bool tensor, no gradient.

    NaNs compare equal only when ``equal_nan`` is True.

    >>> import pylayer
    >>> pylayer.isclose(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor([1.0, 2.1])).numpy()
    array([ True, False])
    """
    return make_tensor(np.asarray(_close_arrays("isclose", x, y, rtol, atol, equal_nan)))


@op(method=True)
def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """A 0-d bool tensor: True when every pair is close (see :func:`isclose`).

    >>> import pylayer
    >>> pylayer.allclose(pylayer.to_tensor([1.0]), pylayer.to_tensor([1.0 + 1e-7])).numpy()
    array(True)
    """
    close = _close_arrays("allclose", x, y, rtol, atol, equal_nan)
    return make_tensor(np.asarray(bool(np.all(close))))


# -------------------------------------------------------------------- logic
def _logical(fn, ufunc, x, y, out):
    x, y = tensor_pair(x, y, fn)
    result = binary_array(fn, ufunc, *operands(x, y, fn))
    return _into(out, result, fn)


def _into(out, result, fn):
    if out is None:
        return make_tensor(result)
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be a Tensor or None, "
                        f"got {type(out).__name__}")
    out._set_array_inplace(result)
    return out


@op(method=True, inplace=True)
def logical_and(x, y, out=None, name=None):
    """Elementwise logical AND (non-zero counts as true); a bool tensor.

    >>> import pylayer
    >>> p = pylayer.to_tensor([True, True, False])
    >>> q = pylayer.to_tensor([True, False, False])
    >>> pylayer.logical_and(p, q).numpy()
    array([ True, False, False])
    """
    return _logical("logical_and", np.logical_and, x, y, out)


@op(method=True, inplace=True)
def logical_or(x, y, out=None, name=None):
    """Elementwise logical OR (non-zero counts as true); a bool tensor.

    >>> import pylayer
    >>> pylayer.logical_or(pylayer.to_tensor([False, True]), False).numpy()
    array([False,  True])
    """
    return _logical("logical_or", np.logical_or, x, y, out)


@op(method=True, inplace=True)
def logical_xor(x, y, out=None, name=None):
    """Elementwise logical XOR (non-zero counts as true); a bool tensor.

    >>> import pylayer
    >>> pylayer.logical_xor(pylayer.to_tensor([True, True]), pylayer.to_tensor([True, False])).numpy()
    array([False,  True])
    """
    return _logical("logical_xor", np.logical_xor, x, y, out)


def _integer_or_bool(x, fn, arg, position):
    x = as_tensor_arg(x, fn, arg, position)
    if not (is_integer(x._array.dtype) or is_bool(x._array.dtype)):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be an integer or "
                        f"bool Tensor, got dtype {x.dtype.name}")
    return x


def _bitwise(fn, ufunc, x, y, out):
    x = _integer_or_bool(x, fn, "x", 1)
    if not isinstance(y, Tensor) and isinstance(y, (int, bool)):
        y_array = operands(x, y, fn)[1]
    else:
        y_array = _integer_or_bool(y, fn, "y", 2)._array
    return _into(out, binary_array(fn, ufunc, x._array, y_array), fn)


@op(method=True, inplace=True)
def bitwise_and(x, y, out=None, name=None):
    """Elementwise bitwise AND of integer or bool tensors (``x & y``).

    >>> import pylayer
    >>> i = pylayer.to_tensor([12, 10])
    >>> j = pylayer.to_tensor([10, 6])
    >>> pylayer.bitwise_and(i, j).numpy()
    array([8, 2])
    """
    return _bitwise("bitwise_and", np.bitwise_and, x, y, out)


@op(method=True, inplace=True)
def bitwise_or(x, y, out=None, name=None):
    """Elementwise bitwise OR of integer or bool tensors (``x | y``).

    >>> import pylayer
    >>> pylayer.bitwise_or(pylayer.to_tensor([12, 10]), pylayer.to_tensor([10, 6])).numpy()
    array([14, 14])
    """
    return _bitwise("bitwise_or", np.bitwise_or, x, y, out)


@op(method=True, inplace=True)
def bitwise_xor(x, y, out=None, name=None):
    """Elementwise bitwise XOR of integer or bool tensors (``x ^ y``).

    >>> import pylayer
    >>> pylayer.bitwise_xor(pylayer.to_tensor([12, 10]), pylayer.to_tensor([10, 6])).numpy()
    array([ 6, 12])
    """
    return _bitwise("bitwise_xor", np.bitwise_xor, x, y, out)


@op(method=True, inplace=True)
def bitwise_not(x, out=None, name=None):
    """Elementwise bitwise NOT of an integer or bool tensor (``~x``; logical NOT for bool).

    >>> import pylayer
    >>> pylayer.bitwise_not(pylayer.to_tensor([0, 5])).numpy()
    array([-1, -6])
    """
    x = _integer_or_bool(x, "bitwise_not", "x", 1)
    return _into(out, np.asarray(np.invert(x._array)), "bitwise_not")


bitwise_invert = bitwise_not


@op(method=True, inplace=True)
def logical_not(x, out=None, name=None):
    """Elementwise logical NOT (non-zero counts as true); a bool tensor.

    >>> import pylayer
    >>> pylayer.logical_not(pylayer.to_tensor([True, False])).numpy()
    array([False,  True])
    """
    x = as_tensor_arg(x, "logical_not", "x", 1)
    return _into(out, np.asarray(np.logical_not(x._array)), "logical_not")


def _classify(fn, np_fn, x, value_for_integers):
    x = as_tensor_arg(x, fn, "x", 1)
    a = x._array
    if not is_inexact(a.dtype):
        return make_tensor(np.full(a.shape, value_for_integers))
    return make_tensor(np.asarray(np_fn(a)))


@op(method=True)
def isnan(x, name=None):
    """Elementwise test for NaN; a bool tensor (always False for integers).

    >>> import pylayer
    >>> pylayer.isnan(pylayer.to_tensor([1.0, float('nan')])).numpy()
    array([False,  True])
    """
    return _classify("isnan", np.isnan, x, False)


@op(method=True)
def isinf(x, name=None):
    """Elementwise test for plus or minus infinity; a bool tensor.

    >>> import pylayer
    >>> pylayer.isinf(pylayer.to_tensor([1.0, float('-inf')])).numpy()
    array([False,  True])
    """
    return _classify("isinf", np.isinf, x, False)


@op(method=True)
def isfinite(x, name=None):
    """Elementwise test for a value that is neither infinite nor NaN; a bool tensor.

    >>> import pylayer
    >>> pylayer.isfinite(pylayer.to_tensor([1.0, float('inf'), float('nan')])).numpy()
    array([ True, False, False])
    """
    return _classify("isfinite", np.isfinite, x, True)


# ----------------------------------------- Paddle's function-level in-place twins
bitwise_and_ = inplace_twin(bitwise_and)
bitwise_not_ = inplace_twin(bitwise_not)
bitwise_or_ = inplace_twin(bitwise_or)
bitwise_xor_ = inplace_twin(bitwise_xor)
equal_ = inplace_twin(equal)
greater_equal_ = inplace_twin(greater_equal)
greater_than_ = inplace_twin(greater_than)
less_equal_ = inplace_twin(less_equal)
less_than_ = inplace_twin(less_than)
logical_and_ = inplace_twin(logical_and)
logical_not_ = inplace_twin(logical_not)
logical_or_ = inplace_twin(logical_or)
less_ = less_than_
bitwise_invert_ = inplace_twin(bitwise_invert)
