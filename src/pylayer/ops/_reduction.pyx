"""The compiled reductions and their adjoints: ``sum`` and ``mean``, ``broadcast_to``
and ``expand`` (a sum's gradient is a broadcast and a broadcast's is a sum),
``unbroadcast`` (sum a broadcast gradient back to an input's shape) and
``expand_grad``. ``ops/reduction.py`` and ``ops/manipulation.py`` make them public.
"""
import numpy as np
cimport numpy as cnp

from pylayer._core.graph cimport Op, make_output
from pylayer._core.tensor cimport Tensor, has_shape
from pylayer._core.tensor import convert_dtype
from pylayer.ops._operands cimport shape_arg, shape_of, tensor_arg
from pylayer.ops._shape cimport reshape_exact
from pylayer.ops._shape import cast

cnp.import_array()

__all__ = ["sum", "mean", "broadcast_to", "expand", "unbroadcast", "expand_grad"]

cdef object _np_add_reduce = np.add.reduce   # np.sum without its Python-level wrapper


cpdef object unbroadcast(object g, object shape):
    """Sum a broadcast gradient back to ``shape`` (recorded, so it can be differentiated again).

    >>> import pylayer
    >>> unbroadcast(pylayer.ones([3, 2]), (2,)).numpy()
    array([3., 3.], dtype=float32)
    """
    if not isinstance(g, Tensor):
        raise TypeError(f"unbroadcast(): argument 'g' must be a Tensor, got {type(g).__name__}")
    if type(shape) is not tuple:
        raise TypeError(f"unbroadcast(): argument 'shape' must be a tuple of ints, got "
                        f"{type(shape).__name__}")
    if has_shape((<Tensor>g)._array, shape):
        return g
    gshape = (<Tensor>g)._array.shape
    lead = len(gshape) - len(shape)
    if lead < 0:
        _refuse_target(gshape, shape)
    axes = list(range(lead))
    for i, size in enumerate(shape):
        if type(size) is not int or size not in (1, gshape[i + lead]):
            _refuse_target(gshape, shape)
        if size == 1 and gshape[i + lead] != 1:
            axes.append(i + lead)
    if axes:
        g = sum(g, axis=axes, keepdim=True)
    return reshape_exact(g, shape)


cdef int _refuse_target(tuple gshape, tuple shape) except -1:
    raise ValueError(f"unbroadcast(): argument 'shape' must be a shape that broadcasts to the "
                     f"gradient's {list(gshape)}, got {shape}")


cdef object unbroadcast_like(object g, object x):
    """unbroadcast(g, shape of x), without building shapes when they already agree."""
    if isinstance(x, Tensor) and cnp.PyArray_SAMESHAPE(<cnp.ndarray>(<Tensor?>g)._array,
                                                       <cnp.ndarray>(<Tensor>x)._array):
        return g
    return unbroadcast(g, shape_of(x))


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


def _sum_vjp(g, x_shape, axes, keepdim, x_dtype):
    g = expand_grad(g, x_shape, axes, keepdim)
    # sum(x, dtype=...) changed the dtype: the gradient has x's again.
    return g if g.dtype == x_dtype else cast(g, x_dtype)


SUM = Op("sum", attrs=("x_shape", "axes", "keepdim", "x_dtype"), vjp=(_sum_vjp,))


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over ``axis`` (all axes by default); saves nothing.

    >>> import pylayer
    >>> pylayer.sum(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0).numpy()
    array([4., 6.], dtype=float32)
    """
    x = tensor_arg(x, "sum", "x", 1)
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
    return make_output(SUM, out, (x,), (a.shape, axes, bool(keepdim), a.dtype))


def _mean_vjp(g, x_shape, axes, keepdim, count):
    # arithmetic cimports this module, so its divide is imported here.
    from pylayer.ops.arithmetic import divide
    return divide(expand_grad(g, x_shape, axes, keepdim), float(count))


MEAN = Op("mean", attrs=("x_shape", "axes", "keepdim", "count"), vjp=(_mean_vjp,))


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
    x = tensor_arg(x, "mean", "x", 1)
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
    return make_output(MEAN, out, (x,), (a.shape, axes, bool(keepdim), count))


BROADCAST_TO = Op("broadcast_to", attrs=("x_shape",),
                  vjp=(lambda g, x_shape: unbroadcast(g, x_shape),))


cdef object _broadcast(object x, object shape, str fn):
    """broadcast_to / expand: ``-1`` keeps a dimension of x."""
    x = tensor_arg(x, fn, "x", 1)
    a = (<Tensor>x)._array
    dims = shape_arg(shape, fn)
    lead = len(dims) - a.ndim
    dims = [a.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(dims)]
    try:
        out = np.broadcast_to(a, dims)
    except ValueError:
        raise ValueError(f"{fn}(): cannot broadcast x of shape {list(a.shape)} to the shape "
                         f"{list(shape)}") from None
    return make_output(BROADCAST_TO, out, (x,), (a.shape,))


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
