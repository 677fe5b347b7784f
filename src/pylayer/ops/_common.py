"""Helpers shared by the Python ops: the operands of a binary op and its result.

A binary op takes a Tensor or a Python number on either side; a number stays a
"weak" scalar (it does not widen the tensor's dtype). ``operand``, ``shape_of`` and
``float32_default`` are the compiled ops' own (``_operands.pyx``), so that each
exists once.
"""
import numpy as np

from pylayer._core.tensor import Tensor
from pylayer.ops._arguments import broadcast_error
from pylayer.ops._operands import (as_tensor_arg, float32_default, operand,  # noqa: F401
                                   shape_of)

__all__ = []


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def tensor_pair(x, y, fn):
    """x and y as given when one is a Tensor; otherwise x is made a Tensor."""
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        x = as_tensor_arg(x, fn, "x", 1)
    return x, y


def shape_text(value):
    return list(np.shape(value))


def binary_array(fn, ufunc, xa, ya):
    """``ufunc(xa, ya)`` with silent NaN/inf and a broadcast error naming ``fn``."""
    try:
        np.broadcast_shapes(np.shape(xa), np.shape(ya))
    except ValueError:
        raise broadcast_error(fn, xa, ya) from None
    with np.errstate(all="ignore"):
        return np.asarray(ufunc(xa, ya))


