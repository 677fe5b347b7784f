"""Helpers shared by the Python ops: the operands of a binary op, its result dtype
and what a node keeps for backward.

A binary op takes a Tensor or a Python number on either side; a number stays a
"weak" scalar (it does not widen the tensor's dtype), and the node keeps it in
its attrs instead of saving it. ``operand``, ``shape_of``, ``saved_operands``,
``number_attrs`` and ``float32_default`` are the compiled ops' own
(``_operands.pyx``), so that each exists once.
"""
import numpy as np

from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._operands import (as_tensor_arg, float32_default, number_attrs,  # noqa: F401
                                   operand, saved_operands, shape_of)

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
        raise ValueError(f"{fn}(): x of shape {shape_text(xa)} and y of shape "
                         f"{shape_text(ya)} cannot be broadcast together") from None
    with np.errstate(all="ignore"):
        return np.asarray(ufunc(xa, ya))


def saved_tensors(values):
    """The Tensors among a binary op's operands: what its node saves."""
    return tuple(v for v in values if isinstance(v, Tensor))


def zero_grads(node, g):
    """Gradient of a piecewise-constant op: zeros shaped like each tensor input
    (the node's attrs hold the input shapes)."""
    return tuple(make_tensor(np.zeros(shape, g._array.dtype)) if needed else None
                 for needed, shape in zip(node.needs_input_grad, node.attrs))

