"""Shape ops: ``reshape``, ``flatten``, ``squeeze``, ``unsqueeze``, ``transpose``,
``broadcast_to``, ``expand``, ``expand_as``, ``cast`` and ``assign``.

Each op is declared as a record next to its forward, and its gradient rule is
written with these same ops (the broadcasts' with ``unbroadcast``, a sum), so
that with ``create_graph=True`` it is recorded too (double backward). None of
them keeps a tensor for backward: shapes, permutations and dtypes are
attributes. ``reshape_exact`` and ``broadcast_exact`` are the forms gradient
rules use: to exactly a given shape, and no node when the shape is already right.

``ops/reduction.py`` imports this module, so the broadcasts' rule imports
``unbroadcast`` where it runs.
"""
import functools
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer._kernels.dtypes import is_bool, is_complex, is_inexact
from pylayer._kernels.dtypes import convert_dtype
from pylayer.ops._arguments import check_axis, check_ints
from pylayer.ops._arguments import shape_arg
from pylayer.ops._operands import as_tensor_arg as tensor_arg
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.dispatch import op

__all__ = ["reshape", "flatten", "squeeze", "unsqueeze", "transpose", "broadcast_to", "expand",
           "expand_as", "cast", "assign",
           "cast_", "flatten_", "reshape_", "squeeze_", "transpose_", "unsqueeze_"]


# --------------------------------------------------- Paddle's other spellings
def _is_int(value):
    return (isinstance(value, (int, np.integer)) and not isinstance(value, bool)) or (
        isinstance(value, Tensor) and value.size == 1 and value.ndim <= 1)


def spellings(aliases=(), spread=None):
    """Accept Paddle's other spellings of a function's arguments: keywords named in
    ``aliases`` (pairs ``(alias, name)``, such as ``("input", "x")``), and, when
    ``spread`` names a parameter, that list given as ints after the first argument
    (``reshape(x, 2, 3)`` for ``reshape(x, [2, 3])``). The signature stays the
    function's own.

    >>> @spellings([("input", "x")], spread="shape")
    ... def shape_of(x, shape):
    ...     return x, shape
    >>> shape_of(input=1, shape=[2]), shape_of(1, 2, 3)
    ((1, [2]), (1, [2, 3]))
    """
    aliases = tuple(aliases)

    def decorate(fn):
        @functools.wraps(fn)
        def call(*args, **kwargs):
            if kwargs:
                for alias, name in aliases:
                    if alias in kwargs and name not in kwargs:
                        kwargs[name] = kwargs.pop(alias)
            if spread is not None and len(args) > 2 and _is_int(args[1]) and all(
                    _is_int(a) for a in args[2:]):
                args = (args[0], list(args[1:]))
            return fn(*args, **kwargs)
        return call
    return decorate


def two_axes(fn):
    """Accept ``fn(x, dim0, dim1)`` (or keywords ``dim0``/``dim1``, ``axis0``/``axis1``)
    for ``fn(x, perm)`` with the two axes swapped, and ``input`` for ``x``, as Paddle's
    ``transpose`` and ``swapaxes`` do.

    >>> import pylayer
    >>> pylayer.transpose(pylayer.zeros([2, 1, 3]), 0, 2).shape
    [3, 1, 2]
    """
    @functools.wraps(fn)
    def call(*args, **kwargs):
        if "input" in kwargs and "x" not in kwargs:
            kwargs["x"] = kwargs.pop("input")
        dim0 = kwargs.pop("dim0", kwargs.pop("axis0", None))
        dim1 = kwargs.pop("dim1", kwargs.pop("axis1", None))
        if dim0 is None and len(args) > 1 and _is_int(args[1]):
            dim0 = args[1]
        if dim1 is None and len(args) > 2 and _is_int(args[2]):
            dim1 = args[2]
        if dim0 is not None and dim1 is not None:
            x = tensor_arg(kwargs.pop("x", None) if not args else args[0], fn.__name__, "x", 1)
            perm = list(range(x.ndim))
            if perm:
                first = check_axis(dim0, x.ndim, fn.__name__, "dim0")
                second = check_axis(dim1, x.ndim, fn.__name__, "dim1")
                perm[first], perm[second] = perm[second], perm[first]
            kwargs["perm"] = perm
            args = (x,)
        return fn(*args, **kwargs)
    return call


# ------------------------------------------------------------- reshapes
def _reshape_back(g, x_shape):
    return reshape_exact(g, x_shape)


RESHAPE = Op("reshape", attrs=("x_shape",), vjp=(_reshape_back,), view=True)


def _reshape_as(record, x, shape):
    """``x`` reshaped to exactly ``shape``, recorded as ``record`` (a reshape by another name)."""
    return make_output(record, x._array.reshape(shape), (x,), (x._array.shape,))


def reshape_exact(x, shape):
    """Differentiable reshape to exactly ``shape`` (no 0/-1 rules; for gradient rules):
    ``x`` itself when it has that shape already.

    >>> import pylayer
    >>> reshape_exact(pylayer.zeros([2, 3]), (3, 2)).shape
    [3, 2]
    """
    t = x
    if t._array.shape == shape:
        return x
    return _reshape_as(RESHAPE, t, shape)


def _zero_size_dims(shape, dims):
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


@op(method=True, inplace=True)
@spellings([("input", "x")], spread="shape")
def reshape(x, shape, name=None):
    """A tensor with the same data and a new shape (``0`` keeps a dim, ``-1`` infers one).

    For a tensor without elements Paddle's rule applies: a ``0`` is a size of
    0, and ``-1`` is the product of the tensor's non-zero sizes divided by the
    other given ones (0 when the shape holds no 0).

    >>> import pylayer
    >>> x = pylayer.arange(6)
    >>> pylayer.reshape(x, [2, -1]).numpy()
    array([[0, 1, 2],
           [3, 4, 5]])
    >>> pylayer.reshape(pylayer.zeros([2, 3, 4]), [0, -1]).shape
    [2, 12]
    >>> pylayer.reshape(pylayer.zeros([2, 0, 3]), [0, -1]).shape
    [0, 6]
    """
    x = tensor_arg(x, "reshape", "x", 1)
    a = x._array
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
    return make_output(RESHAPE, out, (x,), (a.shape,))


FLATTEN = Op("flatten", attrs=("x_shape",), vjp=(_reshape_back,), view=True)


@op(method=True, inplace=True)
@spellings([("input", "x"), ("start_dim", "start_axis"), ("end_dim", "stop_axis")])
def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """Merge the dimensions ``start_axis`` to ``stop_axis`` (inclusive) into one.

    A 0-d tensor becomes shape ``[1]``.

    >>> import pylayer
    >>> pylayer.flatten(pylayer.zeros([2, 3, 4]), start_axis=1).shape
    [2, 12]
    """
    x = tensor_arg(x, "flatten", "x", 1)
    shape = x._array.shape
    start = check_axis(start_axis, len(shape), "flatten", "start_axis")
    stop = check_axis(stop_axis, len(shape), "flatten", "stop_axis")
    if start > stop:
        raise ValueError(f"flatten(): 'start_axis' ({start_axis}) must not come after "
                         f"'stop_axis' ({stop_axis})")
    merged = int(np.prod(shape[start:stop + 1], dtype=np.int64))
    return _reshape_as(FLATTEN, x, shape[:start] + (merged,) + shape[stop + 1:])


SQUEEZE = Op("squeeze", attrs=("x_shape",), vjp=(_reshape_back,), view=True)


@op(method=True, inplace=True)
@spellings([("input", "x"), ("dim", "axis")])
def squeeze(x, axis=None, name=None):
    """Remove dimensions of size 1: all of them, or those listed in ``axis``.

    Listed axes whose size is not 1 are left alone, as in Paddle.

    >>> import pylayer
    >>> pylayer.squeeze(pylayer.zeros([1, 3, 1])).shape
    [3]
    >>> pylayer.squeeze(pylayer.zeros([1, 3, 1]), axis=[0, 1]).shape
    [3, 1]
    """
    x = tensor_arg(x, "squeeze", "x", 1)
    shape = x._array.shape
    if axis is None:
        drop = {i for i, size in enumerate(shape) if size == 1}
    else:
        drop = {check_axis(a, len(shape), "squeeze") for a in check_ints(axis, "squeeze", "axis")}
        drop = {i for i in drop if i < len(shape) and shape[i] == 1}
    return _reshape_as(SQUEEZE, x, tuple([size for i, size in enumerate(shape) if i not in drop]))


UNSQUEEZE = Op("unsqueeze", attrs=("x_shape",), vjp=(_reshape_back,), view=True)


@op(method=True, inplace=True)
@spellings([("input", "x"), ("dim", "axis")])
def unsqueeze(x, axis, name=None):
    """Insert dimensions of size 1 at ``axis`` (an int or a list, inserted in order).

    >>> import pylayer
    >>> pylayer.unsqueeze(pylayer.zeros([5, 10]), axis=[0, 2]).shape
    [1, 5, 1, 10]
    """
    x = tensor_arg(x, "unsqueeze", "x", 1)
    shape = list(x._array.shape)
    for a in check_ints(axis, "unsqueeze", "axis"):
        if not -len(shape) - 1 <= a <= len(shape):
            raise ValueError(f"unsqueeze(): axis {a} is out of range for inserting into a "
                             f"tensor of rank {len(shape)}")
        shape.insert(a % (len(shape) + 1), 1)
    return _reshape_as(UNSQUEEZE, x, tuple(shape))


# ------------------------------------------------------------ transpose
def _transpose_vjp(g, perm):
    return _permute(g, tuple([int(p) for p in np.argsort(perm)]))


TRANSPOSE = Op("transpose", attrs=("perm",), vjp=(_transpose_vjp,), view=True)


def _permute(x, perm):
    return make_output(TRANSPOSE, np.transpose(x._array, perm), (x,), (perm,))


@op(method=True, inplace=True)
@two_axes
def transpose(x, perm, name=None):
    """Permute the dimensions of ``x``.

    >>> import pylayer
    >>> pylayer.transpose(pylayer.zeros([2, 3, 4]), [2, 0, 1]).shape
    [4, 2, 3]
    """
    x = tensor_arg(x, "transpose", "x", 1)
    a = x._array
    perm = shape_arg(perm, "transpose", "perm", -(1 << 62))
    if any(not -a.ndim <= p < a.ndim for p in perm) or \
            sorted(p % a.ndim for p in perm) != list(range(a.ndim)):
        raise ValueError(f"transpose(): perm {perm} is not a permutation of the "
                         f"{a.ndim} dimensions of x")
    return _permute(x, tuple([p % a.ndim for p in perm]))


# ----------------------------------------------------------- broadcasts
def _unbroadcast_vjp(g, x_shape):
    from pylayer.ops.reduction import unbroadcast
    return unbroadcast(g, x_shape)


BROADCAST_TO = Op("broadcast_to", attrs=("x_shape",), vjp=(_unbroadcast_vjp,), view=True)
EXPAND = Op("expand", attrs=("x_shape",), vjp=(_unbroadcast_vjp,), view=True)


def broadcast_exact(x, shape):
    """Differentiable broadcast to exactly ``shape`` (for gradient rules): ``x`` itself
    when it has that shape already.

    >>> import pylayer
    >>> broadcast_exact(pylayer.ones([3]), (2, 3)).shape
    [2, 3]
    """
    t = x
    if t._array.shape == shape:
        return x
    return make_output(BROADCAST_TO, np.broadcast_to(t._array, shape), (x,), (t._array.shape,))


def _broadcast(record, x, shape, fn):
    """broadcast_to / expand / expand_as: ``-1`` keeps a dimension of x."""
    x = tensor_arg(x, fn, "x", 1)
    a = x._array
    dims = shape_arg(shape, fn)
    lead = len(dims) - a.ndim
    dims = [a.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(dims)]
    try:
        out = np.broadcast_to(a, dims)
    except ValueError:
        raise ValueError(f"{fn}(): cannot broadcast x of shape {list(a.shape)} to the shape "
                         f"{list(shape)}") from None
    return make_output(record, out, (x,), (a.shape,))


@op(method=True)
@spellings([("input", "x"), ("size", "shape")])
def broadcast_to(x, shape, name=None):
    """Broadcast ``x`` to ``shape`` (numpy rules); the gradient is summed back.

    >>> import pylayer
    >>> b = pylayer.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> y = pylayer.broadcast_to(b, [3, 2])
    >>> y.sum().backward()
    >>> y.shape, b.grad.numpy()
    ([3, 2], array([3., 3.], dtype=float32))
    """
    return _broadcast(BROADCAST_TO, x, shape, "broadcast_to")


@op(method=True)
@spellings([("input", "x"), ("size", "shape")], spread="shape")
def expand(x, shape, name=None):
    """Same as :func:`broadcast_to` (``-1`` keeps a dimension).

    >>> import pylayer
    >>> pylayer.expand(pylayer.to_tensor([[1.0], [2.0]]), [-1, 3]).numpy()
    array([[1., 1., 1.],
           [2., 2., 2.]], dtype=float32)
    """
    return _broadcast(EXPAND, x, shape, "expand")


@op(method=True)
@spellings([("input", "x"), ("other", "y")])
def expand_as(x, y, name=None):
    """Broadcast ``x`` to the shape of ``y`` (only ``y``'s shape is used).

    >>> import pylayer
    >>> pylayer.expand_as(pylayer.to_tensor([1.0, 2.0]), pylayer.zeros([3, 2])).shape
    [3, 2]
    """
    x = tensor_arg(x, "expand_as", "x", 1)
    y = tensor_arg(y, "expand_as", "y", 2)
    target = y._array.shape
    try:
        fits = np.broadcast_shapes(x._array.shape, target) == target
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"expand_as(): x of shape {x.shape} cannot be broadcast to the shape "
                         f"{y.shape} of y")
    return _broadcast(BROADCAST_TO, x, list(target), "expand_as")


# ---------------------------------------------------------- cast, assign
CAST = Op("cast", attrs=("x_dtype",), vjp=(lambda g, x_dtype: _cast(g, x_dtype),))


def _cast(x, dtype):
    x = tensor_arg(x, "cast", "x", 1)
    a = x._array
    if dtype is None:
        raise TypeError("cast(): argument 'dtype' (position 2) must be a dtype such as "
                        "'float32', got None")
    target = convert_dtype(dtype, "cast")
    if is_complex(a.dtype) and not (is_complex(target) or is_bool(target)):
        a = a.real          # a complex number cast to a real dtype keeps its real part
    out = a.astype(target)
    if not is_inexact(target):
        return make_tensor(out)
    return make_output(CAST, out, (x,), (x._array.dtype,))


@op(method=True, inplace=True)
def cast(x, dtype):
    """A copy of ``x`` converted to ``dtype``; gradients are cast back.

    A complex tensor cast to a real dtype keeps its real part (to bool: whether
    it is non-zero), and so the gradient of a real tensor cast to a complex
    dtype is the real part of the result's gradient.

    >>> import pylayer
    >>> pylayer.cast(pylayer.to_tensor([1.7, -1.7]), 'int32').numpy()
    array([ 1, -1], dtype=int32)
    >>> pylayer.cast(pylayer.to_tensor([1, 2]), pylayer.float64).dtype
    pylayer.float64
    """
    return _cast(x, dtype)


ASSIGN = Op("assign", vjp=(lambda g: g,))


@op
def assign(x, output=None):
    """A copy of ``x`` that stays on the graph (``Tensor.clone``).

    >>> import pylayer
    >>> target = pylayer.zeros([2])
    >>> _ = pylayer.assign(pylayer.to_tensor([3.0, 4.0]), output=target)
    >>> target.numpy()
    array([3., 4.], dtype=float32)
    """
    x = tensor_arg(x, "assign", "x", 1)
    if output is not None and not isinstance(output, Tensor):
        raise TypeError(f"assign(): argument 'output' (position 2) must be a Tensor or None, "
                        f"got {type(output).__name__}")
    out = make_output(ASSIGN, np.array(x._array, copy=True, order="C"), (x,))
    if output is not None:
        output._set_array_inplace(out._array)
        return output
    return out


# ----------------------------------------- Paddle's function-level in-place twins
cast_ = inplace_twin(cast, takes_dtype=True)
flatten_ = inplace_twin(flatten)
reshape_ = inplace_twin(reshape)
squeeze_ = inplace_twin(squeeze)
transpose_ = inplace_twin(transpose)
unsqueeze_ = inplace_twin(unsqueeze)
