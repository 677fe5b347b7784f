"""Reductions: ``sum`` and ``mean`` (compiled in ``_reduction.pyx``), extremes, products, variance and
standard deviation, ``logsumexp``, running sums, index reductions and truth
tests.

* ``axis`` is None (all axes), an int or a list of ints; ``keepdim`` keeps the
  reduced axes as size 1.
* Gradients are spread back over the reduced axes with recorded pylayer ops,
  so ``create_graph=True`` records them (double backward). Where several
  elements tie for ``max`` or ``min`` the gradient is split evenly among them.
* ``std`` and ``logsumexp`` compute an integer tensor in float32, as Paddle
  does, and raise ``TypeError`` for bool tensors; ``var`` (and ``mean``)
  refuse integers, where Paddle truncates. ``max min prod cumsum`` are exact
  on integers and keep an integer dtype.
* ``argmax argmin all any`` return index or bool tensors and record no graph.
"""
import numpy as np

from pylayer._core.graph import make_output_legacy
from pylayer._core.tensor import convert_dtype, make_tensor
from pylayer.ops import _reduction
from pylayer.ops._arguments import check_axes, check_dtype, float_tensor
from pylayer.ops._common import expand_grad, kept_shape, reduced_count
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops._reduction import broadcast_to
from pylayer.ops._shape import cast, reshape, reshape_exact, transpose
from pylayer.ops.arithmetic import divide, multiply, scale, subtract
from pylayer.ops.compare import equal
from pylayer.ops.dispatch import op
from pylayer.ops.math import exp, where

__all__ = ["sum", "mean", "max", "min", "prod", "var", "std", "logsumexp", "cumsum", "argmax",
           "argmin", "all", "any"]

# The compiled reductions (_reduction.pyx), public from here: each wrapped once by
# pylayer.ops.dispatch.op (the compiled ops call each other unwrapped).
sum = op(_reduction.sum)
mean = op(_reduction.mean)


# -------------------------------------------------------------- reductions
def _extreme_reduce_bw(node, g):
    x, out = node.saved_tensors()
    shape, axes, keepdim = node.attrs
    xa = x._array
    kept = out._array.reshape(kept_shape(shape, axes))
    hit = xa == kept
    if xa.dtype.kind == "f":
        hit |= np.isnan(xa) & np.isnan(kept)
    with np.errstate(all="ignore"):
        share = hit / np.sum(hit, axis=axes, keepdims=True)
    return (multiply(expand_grad(g, shape, axes, keepdim),
                     make_tensor(share.astype(g._array.dtype))),)


def _extreme_reduce(fn, np_fn, x, axis, keepdim):
    x = as_tensor_arg(x, fn, "x", 1)
    a = x._array
    axes = check_axes(axis, a.ndim, fn)
    try:
        out = np.asarray(np_fn(a, axis=axes, keepdims=bool(keepdim)))
    except ValueError:
        raise ValueError(f"{fn}(): cannot reduce over an axis of size 0 (x has shape "
                         f"{list(a.shape)}, axis={axis!r}); there is no identity for "
                         f"{fn}") from None
    return make_output_legacy(out, (x,), fn, _extreme_reduce_bw, save=(x,), save_output=True,
                       attrs=(a.shape, axes, bool(keepdim)))


@op
def max(x, axis=None, keepdim=False, name=None):
    """Largest element over ``axis`` (all axes by default); NaN propagates.

    Where several elements tie for the maximum, the gradient is split evenly
    among them (each receives ``1/count`` of it). Saves its input and output.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 4.0], [4.0, 2.0]], stop_gradient=False)
    >>> y = pylayer.max(x)
    >>> y.backward()
    >>> y.numpy(), x.grad.numpy()
    (array(4., dtype=float32), array([[0. , 0.5],
           [0.5, 0. ]], dtype=float32))
    """
    return _extreme_reduce("max", np.max, x, axis, keepdim)


@op
def min(x, axis=None, keepdim=False, name=None):
    """Smallest element over ``axis`` (all axes by default); NaN propagates.

    Where several elements tie for the minimum, the gradient is split evenly
    among them. Saves its input and output.

    >>> import pylayer
    >>> pylayer.min(pylayer.to_tensor([[1.0, 4.0], [0.0, 2.0]]), axis=1).numpy()
    array([1., 0.], dtype=float32)
    """
    return _extreme_reduce("min", np.min, x, axis, keepdim)


def _products_of_others(x, axes):
    """For each element, the product of the other elements of its reduced slice.

    Built from recorded ops (so it can be differentiated again) on a
    ``[..., K, K]`` copy whose diagonal is 1; used only when x holds zeros.
    """
    shape = list(x._array.shape)
    axes = tuple(range(len(shape))) if axes is None else axes
    kept_axes = [i for i in range(len(shape)) if i not in axes]
    perm = kept_axes + list(axes)
    kept_dims = [shape[i] for i in kept_axes]
    k = reduced_count(shape, axes)
    rows = reshape_exact(transpose(x, perm) if shape else x, tuple(kept_dims + [1, k]))
    square_rows = broadcast_to(rows, kept_dims + [k, k])
    others = where(make_tensor(np.eye(k, dtype=bool)), 1.0, square_rows)
    result = reshape_exact(prod(others, axis=-1), tuple(shape[i] for i in perm))
    return transpose(result, list(np.argsort(perm))) if shape else result


def _prod_bw(node, g):
    x, out = node.saved_tensors()
    shape, axes, keepdim = node.attrs
    g = expand_grad(g, shape, axes, keepdim)
    if not np.any(x._array == 0):
        return (divide(multiply(g, expand_grad(out, shape, axes, keepdim)), x),)
    return (multiply(g, _products_of_others(x, axes)),)


@op
def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    """Product of the elements over ``axis`` (all axes by default).

    ``dtype`` casts ``x`` first. Integer tensors keep their dtype (bool gives
    int64). The gradient is ``prod / x`` when ``x`` holds no zero, and the
    product of the other elements of each slice otherwise, so zeros are exact.
    Saves its input and output.

    >>> import pylayer
    >>> pylayer.prod(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]]), axis=1).numpy()
    array([ 2., 12.], dtype=float32)
    """
    x = as_tensor_arg(x, "prod", "x", 1)
    if dtype is not None:
        x = cast(x, check_dtype(dtype, "prod"))
    axes = check_axes(axis, x._array.ndim, "prod")
    a = x._array
    out_dtype = np.int64 if a.dtype.kind == "b" else a.dtype
    with np.errstate(all="ignore"):
        out = np.asarray(np.prod(a, axis=axes, keepdims=bool(keepdim), dtype=out_dtype))
    return make_output_legacy(out, (x,), "prod", _prod_bw, save=(x,), save_output=True,
                       attrs=(a.shape, axes, bool(keepdim)))


def _variance(a, axes, keepdim, ddof):
    count = reduced_count(a.shape, axes)
    with np.errstate(all="ignore"):
        centre = np.sum(a, axis=axes, keepdims=True) / a.dtype.type(count)
        deviation = a - centre
        total = np.sum(deviation * deviation, axis=axes, keepdims=bool(keepdim))
        return np.asarray(total / a.dtype.type(count - ddof), dtype=a.dtype), count - ddof


def _deviation(x, axes, divisor):
    """(x - mean(x)) / divisor with recorded ops; NaN when the divisor is not positive."""
    centred = subtract(x, mean(x, axis=list(axes) if axes else None, keepdim=True))
    return scale(centred, 1.0 / divisor if divisor > 0 else float("nan"))


def _var_bw(node, g):
    (x,) = node.saved_tensors()
    shape, axes, keepdim, divisor = node.attrs
    return (multiply(expand_grad(g, shape, axes, keepdim),
                     scale(_deviation(x, axes, divisor), 2.0)),)


@op
def var(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Variance over ``axis`` (all axes by default); floating-point tensors only.

    ``unbiased=True`` divides by ``N - 1``, else by ``N``; with ``N - 1 == 0``
    the result is NaN. Saves its input.

    >>> import pylayer
    >>> pylayer.var(pylayer.to_tensor([1.0, 2.0, 3.0, 4.0])).numpy()
    array(1.6666666, dtype=float32)
    """
    x = float_tensor(x, "var")
    axes = check_axes(axis, x._array.ndim, "var")
    out, divisor = _variance(x._array, axes, keepdim, 1 if unbiased else 0)
    return make_output_legacy(out, (x,), "var", _var_bw, save=(x,),
                       attrs=(x._array.shape, axes, bool(keepdim), divisor))


def _std_bw(node, g):
    x, out = node.saved_tensors()
    shape, axes, keepdim, divisor = node.attrs
    # Where std == 0 every deviation is 0 as well; dividing by 1 there gives 0.
    safe_std = where(equal(out, 0), 1.0, out)
    return (multiply(divide(expand_grad(g, shape, axes, keepdim),
                            expand_grad(safe_std, shape, axes, keepdim)),
                     _deviation(x, axes, divisor)),)


@op
def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Standard deviation over ``axis``: ``sqrt(var(x, ...))``; integers in float32.

    Where the standard deviation is 0 the gradient is 0 (not NaN). Saves its
    input and output.

    >>> import pylayer
    >>> pylayer.std(pylayer.to_tensor([1.0, 3.0]), unbiased=False).numpy()
    array(1., dtype=float32)
    """
    x = float_tensor(x, "std", integers_as_float32=True)
    axes = check_axes(axis, x._array.ndim, "std")
    variance, divisor = _variance(x._array, axes, keepdim, 1 if unbiased else 0)
    with np.errstate(all="ignore"):
        out = np.asarray(np.sqrt(variance))
    return make_output_legacy(out, (x,), "std", _std_bw, save=(x,), save_output=True,
                       attrs=(x._array.shape, axes, bool(keepdim), divisor))


def _logsumexp_bw(node, g):
    x, out = node.saved_tensors()
    shape, axes, keepdim = node.attrs
    weights = exp(subtract(x, expand_grad(out, shape, axes, keepdim)))
    return (multiply(expand_grad(g, shape, axes, keepdim), weights),)


@op
def logsumexp(x, axis=None, keepdim=False, name=None):
    """``log(sum(exp(x)))`` over ``axis``, computed without overflow (integers in float32).

    The gradient is ``softmax(x)`` along the reduced axes. Saves its input and
    output.

    >>> import pylayer
    >>> pylayer.logsumexp(pylayer.to_tensor([1000.0, 1000.0], dtype='float64')).numpy()
    array(1000.69314718)
    """
    x = float_tensor(x, "logsumexp", integers_as_float32=True)
    axes = check_axes(axis, x._array.ndim, "logsumexp")
    a = x._array
    with np.errstate(all="ignore"):
        if a.size:
            shift = np.max(a, axis=axes, keepdims=True)
            shift = np.where(np.isfinite(shift), shift, 0).astype(a.dtype)
        else:
            shift = np.zeros(kept_shape(a.shape, axes), a.dtype)
        total = np.sum(np.exp(a - shift), axis=axes, keepdims=True)
        out = np.log(total) + shift
    if not keepdim:
        out = out.reshape([s for i, s in enumerate(a.shape) if axes is not None and i not in axes])
    return make_output_legacy(np.asarray(out, a.dtype), (x,), "logsumexp", _logsumexp_bw, save=(x,),
                       save_output=True,
                       attrs=(a.shape, axes, bool(keepdim)))


def _cumsum_bw(node, g):
    in_shape, axis, reverse = node.attrs
    gx = _cumsum(g, axis, not reverse)
    if tuple(g._array.shape) != tuple(in_shape):
        gx = reshape_exact(gx, tuple(in_shape))
    return (gx,)


def _cumsum(x, axis, reverse):
    """Running sum along ``axis`` of a 1-D-or-more tensor, from the end when ``reverse``."""
    a = x._array
    with np.errstate(all="ignore"):
        if reverse:
            out = np.flip(np.cumsum(np.flip(a, axis), axis=axis, dtype=a.dtype), axis)
        else:
            out = np.cumsum(a, axis=axis, dtype=a.dtype)
    return make_output_legacy(np.ascontiguousarray(out), (x,), "cumsum", _cumsum_bw,
                       attrs=(a.shape, axis, reverse))


@op
def cumsum(x, axis=None, dtype=None, name=None):
    """Running sum along ``axis``; with ``axis=None`` over the flattened tensor.

    ``dtype`` casts ``x`` first. Integer and bool tensors give int64, as in
    Paddle. The gradient is the running sum of the gradient taken from the
    end. Saves nothing.

    >>> import pylayer
    >>> pylayer.cumsum(pylayer.to_tensor([[1, 2], [3, 4]])).numpy()
    array([ 1,  3,  6, 10])
    >>> pylayer.cumsum(pylayer.to_tensor([[1, 2], [3, 4]]), axis=0).numpy()
    array([[1, 2],
           [4, 6]])
    """
    x = as_tensor_arg(x, "cumsum", "x", 1)
    if dtype is not None:
        x = cast(x, check_dtype(dtype, "cumsum"))
    elif x._array.dtype.kind in "biu" and x._array.dtype != np.int64:
        x = cast(x, "int64")
    if axis is not None and (not isinstance(axis, (int, np.integer)) or isinstance(axis, bool)):
        raise TypeError(f"cumsum(): argument 'axis' (position 2) must be an int or None, "
                        f"got {type(axis).__name__}")
    shape = list(x._array.shape)
    axes = check_axes(axis, len(shape), "cumsum")
    if axis is None or not shape:
        flat = reshape(x, [-1])
        out = _cumsum(flat, 0, False)
        return out if axis is None else reshape(out, shape)
    return _cumsum(x, axes[0], False)


# ------------------------------------------------------- index reductions
def _arg_extreme(fn, np_fn, x, axis, keepdim, dtype):
    x = as_tensor_arg(x, fn, "x", 1)
    a = x._array
    try:
        out_dtype = convert_dtype(dtype)
    except TypeError:
        out_dtype = None
    if out_dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise ValueError(f"{fn}(): argument 'dtype' must be 'int32' or 'int64', got {dtype!r}")
    if axis is not None and (not isinstance(axis, (int, np.integer)) or isinstance(axis, bool)):
        raise TypeError(f"{fn}(): argument 'axis' (position 2) must be an int or None, "
                        f"got {type(axis).__name__}")
    axes = check_axes(axis, a.ndim, fn)
    if a.size == 0:
        raise ValueError(f"{fn}(): x has no elements (shape {list(a.shape)})")
    if axes is None:
        out = np.argmax(a) if np_fn is np.argmax else np.argmin(a)
        out = np.asarray(out).reshape([1] * a.ndim if keepdim else [])
    else:
        out = np_fn(a, axis=axes[0], keepdims=bool(keepdim))
    return make_tensor(np.asarray(out, dtype=out_dtype))


@op
def argmax(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the largest element along ``axis`` (of the flattened tensor by default).

    Ties give the first index; a NaN counts as the largest. No gradient.

    >>> import pylayer
    >>> pylayer.argmax(pylayer.to_tensor([[1.0, 5.0], [7.0, 2.0]]), axis=1).numpy()
    array([1, 0])
    """
    return _arg_extreme("argmax", np.argmax, x, axis, keepdim, dtype)


@op
def argmin(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the smallest element along ``axis`` (of the flattened tensor by default).

    Ties give the first index; a NaN counts as the smallest. No gradient.

    >>> import pylayer
    >>> pylayer.argmin(pylayer.to_tensor([3.0, 1.0, 1.0])).numpy()
    array(1)
    """
    return _arg_extreme("argmin", np.argmin, x, axis, keepdim, dtype)


def _truth_reduce(fn, np_fn, x, axis, keepdim):
    x = as_tensor_arg(x, fn, "x", 1)
    axes = check_axes(axis, x._array.ndim, fn)
    return make_tensor(np.asarray(np_fn(x._array, axis=axes, keepdims=bool(keepdim))))


@op
def all(x, axis=None, keepdim=False, name=None):
    """Whether every element along ``axis`` is true (non-zero); a bool tensor.

    >>> import pylayer
    >>> pylayer.all(pylayer.to_tensor([[True, False], [True, True]]), axis=1).numpy()
    array([False,  True])
    """
    return _truth_reduce("all", np.all, x, axis, keepdim)


@op
def any(x, axis=None, keepdim=False, name=None):
    """Whether some element along ``axis`` is true (non-zero); a bool tensor.

    >>> import pylayer
    >>> pylayer.any(pylayer.to_tensor([0, 0, 3])).numpy()
    array(True)
    """
    return _truth_reduce("any", np.any, x, axis, keepdim)
