"""Reductions: sums and means, extremes, products, variance and standard deviation,
``logsumexp``, running sums, index reductions and truth tests; and ``unbroadcast``,
the sum that takes a broadcast gradient back to an input's shape.

* ``axis`` is None (all axes), an int or a list of ints; ``keepdim`` keeps the
  reduced axes as size 1.
* Each op is declared as a record next to its forward. Gradients are spread back
  over the reduced axes with recorded ops (``expand_grad``), so ``create_graph=True``
  records them (double backward). Where several elements tie for ``max`` or
  ``min`` the gradient is split evenly among them.
* ``std`` and ``logsumexp`` compute an integer tensor in float32, as Paddle
  does, and raise ``TypeError`` for bool tensors; ``var`` (and ``mean``)
  refuse integers, where Paddle truncates. ``max min prod cumsum`` are exact
  on integers and keep an integer dtype.
* ``argmax argmin all any`` return index or bool tensors and record no graph.

``unbroadcast`` (with ``real_part_if`` and ``conjugate``) runs in every binary op's
rule: it is compiled, in ``ops/_operands.pyx``, and calls ``sum_kept`` here when the
shapes differ. The arithmetic ops import this module, so what the rules here need of
them is imported where it is used.
"""
import math

import numpy as np

from pylayer._kernels.conv import pooled_empty
from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer._kernels.dtypes import convert_dtype
from pylayer.ops._arguments import check_axes, check_dtype, float_tensor
from pylayer._kernels.dtypes import is_bool, is_floating, is_inexact, is_integer
from pylayer.ops._operands import (accumulating, as_tensor_arg as tensor_arg, conjugate,
                                   holds_complex, is_bfloat16_array, real_part_if, real_tensor,
                                   unbroadcast)
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.dispatch import op
from pylayer.ops.shape import broadcast_exact, reshape_exact

__all__ = ["sum", "mean", "max", "min", "prod", "var", "std", "logsumexp", "cumsum", "argmax",
           "argmin", "all", "any",
           "cumsum_"]

_np_add_reduce = np.add.reduce   # np.sum without its Python-level wrapper


# ------------------------------------------------------ shapes of reductions
def _axes(axis, ndim, fn):
    """The reduced axes as a sorted tuple, or None for all (the shared check and wording)."""
    if axis is None:
        return None
    return check_axes(axis, ndim, fn)


def kept_shape(shape, axes):
    """``shape`` with the reduced ``axes`` (None: all) kept as size 1.

    >>> kept_shape((2, 3, 4), (0, 2))
    [1, 3, 1]
    """
    return [1 if axes is None or i in axes else s for i, s in enumerate(shape)]


def reduced_count(shape, axes):
    """How many elements each result of a reduction over ``axes`` (None: all) takes.

    >>> reduced_count((2, 3, 4), (0, 2))
    8
    """
    if axes is None:
        return math.prod(shape)
    return math.prod([shape[i] for i in axes])


def expand_grad(g, shape, axes, keepdim):
    """Broadcast a reduction's gradient back over the reduced axes (recorded ops).

    >>> import pylayer
    >>> expand_grad(pylayer.ones([3]), (2, 3), (0,), False).shape
    [2, 3]
    """
    if not keepdim and len(shape):
        g = reshape_exact(g, tuple(kept_shape(shape, axes)))
    return broadcast_exact(g, tuple(shape))


# ------------------------------------------------------------------ sum, mean
def _sum_vjp(g, x_shape, axes, keepdim, x_dtype):
    g = expand_grad(g, x_shape, axes, keepdim)
    if g._array.dtype == x_dtype:
        return g
    from pylayer.ops.shape import cast   # sum(x, dtype=...) changed the dtype: back to x's
    return cast(g, x_dtype)


SUM = Op("sum", attrs=("x_shape", "axes", "keepdim", "x_dtype"), vjp=(_sum_vjp,))


_WIDENED_SUMS = frozenset(map(np.dtype, (np.bool_, np.int8, np.int16, np.int32)))


def sum_kept(g, axes):
    """For ``unbroadcast``: the recorded sum of the Tensor ``g`` over ``axes`` (a tuple),
    keeping them as size 1.

    >>> import pylayer
    >>> sum_kept(pylayer.ones([2, 3]), (0,)).shape
    [1, 3]
    """
    return _sum(g, axes, None, True)


def _sum(x, axes, np_dtype, keepdim):
    """The sum of ``x`` over the checked ``axes`` (None: all, as for a 0-d ``x``)."""
    a = x._array
    if np_dtype is None and a.dtype in _WIDENED_SUMS:
        np_dtype = np.dtype(np.int64)       # bools and narrower signed integers sum in int64
    if is_bfloat16_array(a) and (np_dtype is None or np_dtype == a.dtype):
        out = np.asarray(_np_add_reduce(a, axis=axes, dtype=np.float32, keepdims=keepdim),
                         dtype=a.dtype)
    else:
        out = _np_add_reduce(a, axis=axes, dtype=np_dtype, keepdims=keepdim)
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    return make_output(SUM, out, (x,), (a.shape, axes, keepdim, a.dtype))


@op(method=True)
def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over ``axis`` (all axes by default); saves nothing.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> pylayer.sum(x).numpy(), pylayer.sum(x, axis=0).numpy()
    (array(10., dtype=float32), array([4., 6.], dtype=float32))
    >>> pylayer.sum(x, axis=1, keepdim=True).shape
    [2, 1]
    """
    x = tensor_arg(x, "sum", "x", 1)
    axes = _axes(axis, x._array.ndim, "sum")
    return _sum(x, axes, convert_dtype(dtype, "sum"), bool(keepdim))


def _mean_vjp(g, x_shape, axes, keepdim, count):
    from pylayer.ops.arithmetic import divide
    g = divide(g, float(count))       # before it is spread: one division per result
    if is_grad_enabled():                # to be differentiated again: a recorded broadcast
        return expand_grad(g, x_shape, axes, keepdim)
    # Written out, not a broadcast view: BLAS-backed rules (matmul, conv) need one.
    source = g._array.reshape(kept_shape(x_shape, axes))
    out = pooled_empty(x_shape, source.dtype)
    np.copyto(out, source)
    return make_tensor(out)


MEAN = Op("mean", attrs=("x_shape", "axes", "keepdim", "count"), vjp=(_mean_vjp,))


@op(method=True)
def mean(x, axis=None, keepdim=False, name=None):
    """Mean over ``axis`` (all axes by default); saves nothing.

    >>> import pylayer
    >>> pylayer.mean(pylayer.to_tensor([1.0, 2.0, 6.0])).numpy()
    array(3., dtype=float32)
    """
    x = tensor_arg(x, "mean", "x", 1)
    a = x._array
    if not is_inexact(a.dtype):
        raise TypeError(f"mean(): argument 'x' (position 1) must be a floating-point or "
                        f"complex Tensor, got dtype {a.dtype}")
    axes = _axes(axis, a.ndim, "mean")
    count = reduced_count(a.shape, axes)
    keep = bool(keepdim)
    with np.errstate(over="ignore", invalid="ignore"):   # inf, or inf - inf = nan
        total = _np_add_reduce(accumulating(a), axis=axes, keepdims=keep)
    # sum / count rather than np.mean, which warns on an empty slice.
    out = np.asarray(total / count if count else np.full(np.shape(total), np.nan),
                     dtype=a.dtype)
    return make_output(MEAN, out, (x,), (a.shape, axes, keep, count))


# ------------------------------------------------------------------ extremes
def _extreme_vjp(g, x, out, x_shape, axes, keepdim):
    """The gradient goes to the elements equal to the result, split evenly among ties."""
    from pylayer.ops.arithmetic import multiply
    xa = x.numpy()
    kept = out.numpy().reshape(kept_shape(x_shape, axes))
    hit = xa == kept
    if is_floating(xa.dtype):
        hit |= np.isnan(xa) & np.isnan(kept)
    with np.errstate(all="ignore"):
        share = hit / np.sum(hit, axis=axes, keepdims=True)
    return multiply(expand_grad(g, x_shape, axes, keepdim),
                    make_tensor(share.astype(g.numpy().dtype)))


MAX = Op("max", keeps=("x", "out"), attrs=("x_shape", "axes", "keepdim"), vjp=(_extreme_vjp,))
MIN = Op("min", keeps=("x", "out"), attrs=("x_shape", "axes", "keepdim"), vjp=(_extreme_vjp,))


def _extreme(record, fn, np_fn, x, axis, keepdim):
    x = real_tensor(x, fn, "x", 1)
    a = x._array
    axes = _axes(axis, a.ndim, fn)
    try:
        out = np.asarray(np_fn(a, axis=axes, keepdims=bool(keepdim)))
    except ValueError:
        raise ValueError(f"{fn}(): cannot reduce over an axis of size 0 (x has shape "
                         f"{list(a.shape)}, axis={axis!r}); there is no identity for "
                         f"{fn}") from None
    return make_output(record, out, (x,), (a.shape, axes, bool(keepdim)))


@op(method=True)
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
    return _extreme(MAX, "max", np.max, x, axis, keepdim)


@op(method=True)
def min(x, axis=None, keepdim=False, name=None):
    """Smallest element over ``axis`` (all axes by default); NaN propagates.

    Where several elements tie for the minimum, the gradient is split evenly
    among them. Saves its input and output.

    >>> import pylayer
    >>> pylayer.min(pylayer.to_tensor([[1.0, 4.0], [0.0, 2.0]]), axis=1).numpy()
    array([1., 0.], dtype=float32)
    """
    return _extreme(MIN, "min", np.min, x, axis, keepdim)


# ------------------------------------------------------------------- products
def _products_of_others(x, axes):
    """For each element, the product of the other elements of its reduced slice, for an
    ``x`` that holds zeros, in O(size) memory.

    With ``p`` the product of a slice's non-zeros and ``e`` the product of its zeros
    (recorded, so its value is 0 but its derivatives are not): a non-zero ``x_i``
    gets ``p / x_i * e``; a zero gets ``p`` when it is its slice's only zero,
    ``p`` times the other zero when there are two, and 0 with three or more. Built
    from recorded ops, so the result is exact for the first two derivatives.
    """
    from pylayer.ops.arithmetic import divide, multiply, subtract
    from pylayer.ops.math import where
    zero = x.numpy() == 0
    zeros = np.sum(zero, axis=axes, keepdims=True)
    nonzeros = where(make_tensor(zero), 1.0, x)
    p = prod(nonzeros, axis=axes, keepdim=True)
    e = prod(where(make_tensor(~zero), 1.0, x), axis=axes, keepdim=True)
    at_nonzeros = multiply(divide(p, nonzeros), e)
    other_zero = subtract(sum(where(make_tensor(zero), x, 0.0), axis=axes, keepdim=True), x)
    at_zeros = where(make_tensor(zeros == 1), p, where(make_tensor(zeros == 2),
                                                         multiply(p, other_zero), 0.0))
    return where(make_tensor(zero), at_zeros, at_nonzeros)


def _prod_vjp(g, x, out, x_shape, axes, keepdim):
    from pylayer.ops.arithmetic import divide, multiply
    g = expand_grad(g, x_shape, axes, keepdim)
    if not np.any(x.numpy() == 0):
        if holds_complex(x.numpy()):
            return multiply(g, conjugate(divide(expand_grad(out, x_shape, axes, keepdim), x)))
        return divide(multiply(g, expand_grad(out, x_shape, axes, keepdim)), x)
    return multiply(g, conjugate(_products_of_others(x, axes)))


PROD = Op("prod", keeps=("x", "out"), attrs=("x_shape", "axes", "keepdim"), vjp=(_prod_vjp,))


@op(method=True)
def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    """Product of the elements over ``axis`` (all axes by default).

    ``dtype`` casts ``x`` first. Integer tensors keep their dtype (bool gives
    int64). The gradient is ``prod / x`` when ``x`` holds no zero, and the
    product of the other elements of each slice otherwise, so zeros are exact.
    Saves its input and output.

    >>> import pylayer
    >>> z = pylayer.to_tensor([2.0, 0.0, 3.0], stop_gradient=False)
    >>> pylayer.prod(z).backward()
    >>> z.grad.numpy()
    array([0., 6., 0.], dtype=float32)
    """
    from pylayer.ops.shape import cast
    x = tensor_arg(x, "prod", "x", 1)
    if dtype is not None:
        x = cast(x, check_dtype(dtype, "prod"))
    a = x._array
    axes = _axes(axis, a.ndim, "prod")
    out_dtype = np.int64 if is_bool(a.dtype) else a.dtype
    with np.errstate(all="ignore"):
        out = np.asarray(np.prod(a, axis=axes, keepdims=bool(keepdim),
                                 dtype=np.float32 if is_bfloat16_array(a) else out_dtype),
                         dtype=out_dtype)
    return make_output(PROD, out, (x,), (a.shape, axes, bool(keepdim)))


# ------------------------------------------------------- variance, deviation
def _variance(a, axes, keepdim, ddof):
    """(the variance of the array ``a`` over ``axes``, its divisor ``N - ddof``)."""
    count = reduced_count(a.shape, axes)
    work = accumulating(a)
    with np.errstate(all="ignore"):
        centre = np.sum(work, axis=axes, keepdims=True) / work.dtype.type(count)
        deviation = work - centre
        total = np.sum(deviation * deviation, axis=axes, keepdims=bool(keepdim))
        return np.asarray(total / work.dtype.type(count - ddof), dtype=a.dtype), count - ddof


def _deviation(x, axes, divisor):
    """(x - mean(x)) / divisor with recorded ops; NaN when the divisor is not positive."""
    from pylayer.ops.arithmetic import scale, subtract
    centred = subtract(x, mean(x, axis=list(axes) if axes else None, keepdim=True))
    return scale(centred, 1.0 / divisor if divisor > 0 else float("nan"))


def _var_vjp(g, x, x_shape, axes, keepdim, divisor):
    from pylayer.ops.arithmetic import multiply, scale
    return multiply(expand_grad(g, x_shape, axes, keepdim),
                    scale(_deviation(x, axes, divisor), 2.0))


VAR = Op("var", keeps=("x",), attrs=("x_shape", "axes", "keepdim", "divisor"), vjp=(_var_vjp,))


@op(method=True)
def var(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Variance over ``axis`` (all axes by default); floating-point tensors only.

    ``unbiased=True`` divides by ``N - 1``, else by ``N``; with ``N - 1 == 0``
    the result is NaN. Saves its input.

    >>> import pylayer
    >>> v = pylayer.to_tensor([1.0, 2.0, 3.0, 4.0])
    >>> pylayer.var(v).numpy(), pylayer.var(v, unbiased=False).numpy()
    (array(1.6666666, dtype=float32), array(1.25, dtype=float32))
    """
    x = float_tensor(x, "var")
    a = x._array
    axes = _axes(axis, a.ndim, "var")
    out, divisor = _variance(a, axes, keepdim, 1 if unbiased else 0)
    return make_output(VAR, out, (x,), (a.shape, axes, bool(keepdim), divisor))


def _std_vjp(g, x, out, x_shape, axes, keepdim, divisor):
    from pylayer.ops.arithmetic import divide, multiply
    from pylayer.ops.compare import equal
    from pylayer.ops.math import where
    # Where std == 0 every deviation is 0 as well; dividing by 1 there gives 0.
    safe_std = where(equal(out, 0), 1.0, out)
    return multiply(divide(expand_grad(g, x_shape, axes, keepdim),
                           expand_grad(safe_std, x_shape, axes, keepdim)),
                    _deviation(x, axes, divisor))


STD = Op("std", keeps=("x", "out"), attrs=("x_shape", "axes", "keepdim", "divisor"),
         vjp=(_std_vjp,))


@op(method=True)
def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Standard deviation over ``axis``: ``sqrt(var(x, ...))``; integers in float32.

    Where the standard deviation is 0 the gradient is 0 (not NaN). Saves its
    input and output.

    >>> import pylayer
    >>> pylayer.std(pylayer.to_tensor([1.0, 3.0]), unbiased=False).numpy()
    array(1., dtype=float32)
    """
    x = float_tensor(x, "std", integers_as_float32=True)
    a = x._array
    axes = _axes(axis, a.ndim, "std")
    variance, divisor = _variance(a, axes, keepdim, 1 if unbiased else 0)
    with np.errstate(all="ignore"):
        out = np.asarray(np.sqrt(variance))
    return make_output(STD, out, (x,), (a.shape, axes, bool(keepdim), divisor))


# ------------------------------------------------------------------ logsumexp
def _logsumexp_vjp(g, x, out, x_shape, axes, keepdim):
    from pylayer.ops.arithmetic import multiply, subtract
    from pylayer.ops.math import exp
    weights = exp(subtract(x, expand_grad(out, x_shape, axes, keepdim)))
    return multiply(expand_grad(g, x_shape, axes, keepdim), weights)


LOGSUMEXP = Op("logsumexp", keeps=("x", "out"), attrs=("x_shape", "axes", "keepdim"),
               vjp=(_logsumexp_vjp,))


@op(method=True)
def logsumexp(x, axis=None, keepdim=False, name=None):
    """``log(sum(exp(x)))`` over ``axis``, computed without overflow (integers in float32).

    The gradient is ``softmax(x)`` along the reduced axes. Saves its input and
    output.

    >>> import pylayer
    >>> pylayer.logsumexp(pylayer.to_tensor([1000.0, 1000.0], dtype='float64')).numpy()
    array(1000.69314718)
    """
    x = float_tensor(x, "logsumexp", integers_as_float32=True)
    a = x._array
    work = accumulating(a)
    axes = _axes(axis, a.ndim, "logsumexp")
    with np.errstate(all="ignore"):
        if a.size:
            shift = np.max(work, axis=axes, keepdims=True)
            shift = np.where(np.isfinite(shift), shift, 0).astype(work.dtype)
        else:
            shift = np.zeros(kept_shape(a.shape, axes), work.dtype)
        total = np.sum(np.exp(work - shift), axis=axes, keepdims=True)
        out = np.log(total) + shift
    if not keepdim:
        out = out.reshape([s for i, s in enumerate(a.shape) if axes is not None and i not in axes])
    return make_output(LOGSUMEXP, np.asarray(out, a.dtype), (x,), (a.shape, axes, bool(keepdim)))


# ------------------------------------------------------------------ running sums
CUMSUM = Op("cumsum", attrs=("axis", "reverse"),
            vjp=(lambda g, axis, reverse: _cumsum(g, axis, not reverse),))


def _cumsum(x, axis, reverse):
    """Running sum along ``axis`` of a 1-D-or-more tensor, from the end when ``reverse``;
    its gradient is the running sum the other way."""
    a = x._array
    work = accumulating(a)
    with np.errstate(all="ignore"):
        if reverse:
            out = np.flip(np.cumsum(np.flip(work, axis), axis=axis, dtype=work.dtype), axis)
        else:
            out = np.cumsum(work, axis=axis, dtype=work.dtype)
    return make_output(CUMSUM, np.ascontiguousarray(out, dtype=a.dtype), (x,), (axis, reverse))


@op(method=True, inplace=True)
def cumsum(x, axis=None, dtype=None, name=None):
    """Running sum along ``axis``; with ``axis=None`` over the flattened tensor.

    ``dtype`` casts ``x`` first. Integer and bool tensors give int64, as in
    Paddle. The gradient is the running sum of the gradient taken from the
    end. Saves nothing.

    >>> import pylayer
    >>> c = pylayer.to_tensor([[1, 2], [3, 4]])
    >>> pylayer.cumsum(c).numpy()
    array([ 1,  3,  6, 10])
    >>> pylayer.cumsum(c, axis=0).numpy()
    array([[1, 2],
           [4, 6]])
    """
    from pylayer.ops.shape import cast, reshape
    x = tensor_arg(x, "cumsum", "x", 1)
    if dtype is not None:
        x = cast(x, check_dtype(dtype, "cumsum"))
    elif (is_bool(x._array.dtype) or is_integer(x._array.dtype)) \
            and x._array.dtype != np.int64:
        x = cast(x, "int64")
    if axis is not None and (not isinstance(axis, (int, np.integer)) or isinstance(axis, bool)):
        raise TypeError(f"cumsum(): argument 'axis' (position 2) must be an int or None, "
                        f"got {type(axis).__name__}")
    shape = list(x._array.shape)
    axes = _axes(axis, len(shape), "cumsum")
    if axis is None or not shape:
        out = _cumsum(reshape(x, [-1]), 0, False)
        return out if axis is None else reshape(out, shape)
    return _cumsum(x, axes[0], False)


# ------------------------------------------------------------- index reductions
def _arg_extreme(fn, np_fn, x, axis, keepdim,
                         dtype):
    x = real_tensor(x, fn, "x", 1)
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
    axes = _axes(axis, a.ndim, fn)
    if a.size == 0:
        raise ValueError(f"{fn}(): x has no elements (shape {list(a.shape)})")
    if axes is None:
        out = np_fn(a)
        out = np.asarray(out).reshape([1] * a.ndim if keepdim else [])
    else:
        out = np_fn(a, axis=axes[0], keepdims=bool(keepdim))
    return make_tensor(np.asarray(out, dtype=out_dtype))


@op(method=True)
def argmax(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the largest element along ``axis`` (of the flattened tensor by default).

    Ties give the first index; a NaN counts as the largest. No gradient.

    >>> import pylayer
    >>> pylayer.argmax(pylayer.to_tensor([[1.0, 5.0], [7.0, 2.0]]), axis=1).numpy()
    array([1, 0])
    """
    return _arg_extreme("argmax", np.argmax, x, axis, keepdim, dtype)


@op(method=True)
def argmin(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the smallest element along ``axis`` (of the flattened tensor by default).

    Ties give the first index; a NaN counts as the smallest. No gradient.

    >>> import pylayer
    >>> pylayer.argmin(pylayer.to_tensor([3.0, 1.0, 1.0])).numpy()
    array(1)
    """
    return _arg_extreme("argmin", np.argmin, x, axis, keepdim, dtype)


def _truth(fn, np_fn, x, axis, keepdim):
    x = tensor_arg(x, fn, "x", 1)
    axes = _axes(axis, x._array.ndim, fn)
    return make_tensor(np.asarray(np_fn(x._array, axis=axes, keepdims=bool(keepdim))))


@op(method=True)
def all(x, axis=None, keepdim=False, name=None):
    """Whether every element along ``axis`` is true (non-zero); a bool tensor.

    >>> import pylayer
    >>> pylayer.all(pylayer.to_tensor([[True, False], [True, True]]), axis=1).numpy()
    array([False,  True])
    """
    return _truth("all", np.all, x, axis, keepdim)


@op(method=True)
def any(x, axis=None, keepdim=False, name=None):
    """Whether some element along ``axis`` is true (non-zero); a bool tensor.

    >>> import pylayer
    >>> pylayer.any(pylayer.to_tensor([0, 0, 3])).numpy()
    array(True)
    """
    return _truth("any", np.any, x, axis, keepdim)


# ----------------------------------------- Paddle's function-level in-place twins
cumsum_ = inplace_twin(cumsum)
