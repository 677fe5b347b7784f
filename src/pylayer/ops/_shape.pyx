"""The compiled shape ops: reshape, transpose, cast and assign (each with its
gradient rule, written with these same ops so that it can be differentiated
again). ``ops/manipulation.py`` makes them public; ``broadcast_to`` and
``expand``, whose gradient is a sum, are in ``_reduction.pyx``.
"""
import math

import numpy as np
cimport numpy as cnp

from pylayer._graph cimport GradNode, make_output
from pylayer._tensor cimport Tensor, has_shape, wrap
from pylayer._tensor import convert_dtype
from pylayer.ops._operands cimport shape_arg, tensor_arg

cnp.import_array()

__all__ = ["reshape", "reshape_exact", "transpose", "cast", "assign"]


def _reshape_bw(GradNode node not None, g):
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
    x = tensor_arg(x, "reshape", "x", 1)
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


def _cast_bw(GradNode node not None, g):
    return (cast(g, node.attrs),)


def cast(x, dtype):
    """A copy of ``x`` converted to ``dtype``; gradients are cast back.

    >>> import pylayer
    >>> pylayer.cast(pylayer.to_tensor([1.5]), 'float64').dtype
    pylayer.float64
    """
    x = tensor_arg(x, "cast", "x", 1)
    a = (<Tensor>x)._array
    if dtype is None:
        raise TypeError("cast(): argument 'dtype' (position 2) must be a dtype such as "
                        "'float32', got None")
    target = convert_dtype(dtype, "cast")
    out = a.astype(target)
    if target.kind != "f":
        return wrap(out, True)
    return make_output(out, (x,), "cast", _cast_bw, (), False, a.dtype)


def _assign_bw(GradNode node not None, g):
    return (g,)


def assign(x, output=None):
    """A copy of ``x`` that stays on the graph (``Tensor.clone``).

    >>> import pylayer
    >>> pylayer.assign(pylayer.to_tensor([1.0])).numpy()
    array([1.], dtype=float32)
    """
    x = tensor_arg(x, "assign", "x", 1)
    if output is not None and not isinstance(output, Tensor):
        raise TypeError(f"assign(): argument 'output' (position 2) must be a Tensor or None, "
                        f"got {type(output).__name__}")
    out = make_output(np.array((<Tensor>x)._array, copy=True), (x,), "assign", _assign_bw)
    if output is not None:
        (<Tensor>output)._set_array_inplace(out._array)
        return output
    return out


def _transpose_bw(GradNode node not None, g):
    return (transpose(g, list(np.argsort(node.attrs))),)


def transpose(x, perm, name=None):
    """Permute the dimensions of ``x``.

    >>> import pylayer
    >>> pylayer.transpose(pylayer.zeros([2, 3]), [1, 0]).shape
    [3, 2]
    """
    x = tensor_arg(x, "transpose", "x", 1)
    a = (<Tensor>x)._array
    perm = shape_arg(perm, "transpose", "perm", -(1 << 62))
    if any(not -a.ndim <= p < a.ndim for p in perm) or \
            sorted(p % a.ndim for p in perm) != list(range(a.ndim)):
        raise ValueError(f"transpose(): perm {perm} is not a permutation of the "
                         f"{a.ndim} dimensions of x")
    perm = [p % a.ndim for p in perm]
    return make_output(np.transpose(a, perm), (x,), "transpose", _transpose_bw, (), False, tuple(perm))
