"""Statistics and cumulative ops: norms and distances, nan-aware reductions, medians, quantiles, modes, cumulative products, maxima and log-sum-exp, differences and the trapezoid rule.

* ``norm`` is built on two helpers that ``pylayer.linalg`` may reuse:
  :func:`vector_norm_of` (a p-norm over some axes, one record whose gradient is 0
  where the norm is 0, as in Paddle) and :func:`matrix_norm_of` (the norms of the
  matrices over two axes: Frobenius, nuclear, largest or smallest singular value,
  largest column or row sum).
* Medians and quantiles record one node whose gradient is a fixed weighting of the
  input's elements: a median's gradient goes half to each middle value, or, when
  both are equal, is shared evenly among the elements equal to the median (Paddle's
  rule); a quantile's goes to the sorted positions it interpolates between. The weighting does not depend on the values, so every higher
  derivative is exact (zero).
* ``amax``/``amin`` split the gradient evenly among ties (``max``/``min`` do too).
* ``mode``, ``kthvalue``, ``cummax``, ``cummin``, ``msort`` and a median's
  ``mode='min'`` pick elements with ``take_along_axis``; the others are compositions
  of recorded ops or records with rules written with ops, so double backward works,
  except for the singular-value norms (``p='nuc'``, ``2``, ``-2`` over two axes), whose
  second derivative is refused with an error rather than given wrong.
* Among equal elements the picking ops (``kthvalue``, ``mode`` and a median's
  ``mode='min'``) take positions from a stable sort; Paddle's partial sort can pick
  another index among ties.
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, is_grad_enabled, make_tensor
from pylayer._kernels.dtypes import is_bool, is_complex, is_floating, is_integer
from pylayer.ops import arithmetic as _ar
from pylayer.ops import compare as _cmp
from pylayer.ops import manipulation as _mp
from pylayer.ops import math as _m
from pylayer.ops import reduction as _rd
from pylayer.ops import search as _search
from pylayer.ops import shape as _sh
from pylayer.ops._arguments import (check_axes, check_axis, check_choice, check_count,
                                    check_dtype, check_int, check_number, describe)
from pylayer.ops._operands import as_tensor_arg, conjugate, float_tensor, real_tensor
from pylayer.ops.dispatch import op
from pylayer.ops.inplace import inplace, inplace_twin
from pylayer.ops.reduction import expand_grad, kept_shape

__all__ = ["norm", "dist", "amax", "amin", "nanmean", "nansum", "nanmedian", "median",
           "quantile", "nanquantile", "mode", "kthvalue", "count_nonzero", "cumprod", "cummax",
           "cummin", "logcumsumexp", "diff", "trapezoid", "cumulative_trapezoid", "msort",
           "histogram_bin_edges", "histogramdd", "cdist", "pdist", "renorm", "trace",
           "reduce_as",
           "cumprod_", "renorm_"]

_INF = float("inf")


# ------------------------------------------------------------------ arguments
def _no_bool(x, fn, arg="x", position=1):
    if is_bool(x._array.dtype):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a numeric "
                        f"Tensor, got dtype bool")
    return x


def _real_numbers(x, fn, arg="x", position=1):
    """A real, non-bool Tensor argument."""
    return _no_bool(real_tensor(x, fn, arg, position), fn, arg, position)


def _one_axis(axis, ndim, fn, arg="axis", allow_none=True):
    """An int axis (None stays None when allowed) counted from 0."""
    if axis is None and allow_none:
        return None
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer, Tensor)):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int"
                        f"{' or None' if allow_none else ''}, got {describe(axis)}")
    return check_axis(axis, ndim, fn, arg)


def _moved_last(a, axes):
    """``a`` with ``axes`` (None: all) moved to the end and merged into one axis:
    (the array, the order of a's axes in it before the merge)."""
    if axes is None:
        axes = tuple(range(a.ndim))
    rest = [i for i in range(a.ndim) if i not in axes]
    moved = np.transpose(a, rest + list(axes))
    batch = tuple(a.shape[i] for i in rest)
    return moved.reshape(batch + (math.prod(a.shape[i] for i in axes),)), rest + list(axes)


def _moved_back(w, shape, order, lead=0):
    """Undo :func:`_moved_last` for an array of ``lead`` leading dimensions (one per
    quantile, say), then the batch, then the merged axes: the result has ``shape``
    after its leading dimensions."""
    front = w.shape[:lead]
    w = w.reshape(front + tuple(shape[i] for i in order))
    return np.transpose(w, tuple(range(lead)) + tuple(lead + int(i) for i in np.argsort(order)))


def _out(result, out, fn):
    """``result``, or written into ``out`` (Paddle's ``out=`` argument)."""
    if out is None:
        return result
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be a Tensor or None, got "
                        f"{describe(out)}")
    if out.shape != result.shape:
        raise ValueError(f"{fn}(): argument 'out' must have the result's shape "
                         f"{result.shape}, got {out.shape}")
    return inplace(out, lambda _: result)


def _along(t, axis, start, stop):
    """``t[..., start:stop, ...]`` on ``axis`` (recorded)."""
    return t[(slice(None),) * axis + (slice(start, stop),)]


# ------------------------------------------------------------------------ norms
def _vector_norm_array(a, p, axes, keepdim):
    m = np.abs(a)
    with np.errstate(all="ignore"):
        if p == _INF:
            out = np.max(m, axis=axes, keepdims=keepdim, initial=0)
        elif p == -_INF:
            out = np.min(m, axis=axes, keepdims=keepdim, initial=_INF)
        elif p == 0:
            out = np.sum(m != 0, axis=axes, keepdims=keepdim)
        elif p == 1:
            out = np.sum(m, axis=axes, keepdims=keepdim)
        elif p == 2:
            out = np.sqrt(np.sum(m * m, axis=axes, keepdims=keepdim))
        else:
            out = np.sum(m ** p, axis=axes, keepdims=keepdim) ** (1.0 / p)
    return np.asarray(out, dtype=m.dtype)


def _vector_norm_vjp(g, x, out, x_shape, axes, keepdim, p):
    g = expand_grad(g, x_shape, axes, keepdim)
    o = expand_grad(out, x_shape, axes, keepdim)
    xa = x.numpy()
    if p == 0 or xa.size == 0:
        return make_tensor(np.zeros(xa.shape, xa.dtype))
    at_zero = make_tensor(xa == 0)
    size = _m.where(at_zero, 1.0, _m.abs(x))
    if abs(p) == _INF:
        kept = out.numpy().reshape(kept_shape(x_shape, axes))
        hit = np.abs(xa) == kept
        hit |= np.isnan(np.abs(xa)) & np.isnan(kept)
        with np.errstate(all="ignore"):
            share = np.nan_to_num(hit / np.sum(hit, axis=axes, keepdims=True))
        unit = _m.where(at_zero, 0.0, _ar.divide(x, size))
        return _ar.multiply(_ar.multiply(g, make_tensor(share.astype(g.numpy().dtype))), unit)
    term = x if p == 2 else _ar.multiply(x, _m.pow(size, p - 2.0))
    oa = o.numpy()
    empty = make_tensor(oa == 0)
    safe = _m.where(empty, 1.0, o)
    denominator = safe if p == 2 else _m.pow(safe, p - 1.0)
    grad = _ar.divide(_ar.multiply(g, term), denominator)
    return _m.where(make_tensor((xa == 0) | (oa == 0)), 0.0, grad)


VECTOR_NORM = Op("norm", keeps=("x", "out"), attrs=("x_shape", "axes", "keepdim", "p"),
                 vjp=(_vector_norm_vjp,))


def vector_norm_of(x, p, axes, keepdim):
    """The ``p``-norm (a number, ``inf`` and ``-inf`` included; ``0`` counts non-zeros) of
    the floating-point or complex Tensor ``x`` over ``axes`` (a sorted tuple, None: all).
    Its gradient is 0 where the norm is 0; for ``p = +-inf`` it is split evenly among
    the elements of largest (smallest) size.

    >>> import pylayer
    >>> vector_norm_of(pylayer.to_tensor([3.0, -4.0]), 2.0, None, False).numpy()
    array(5., dtype=float32)
    """
    a = x._array
    out = _vector_norm_array(a, float(p), axes, bool(keepdim))
    return make_output(VECTOR_NORM, out, (x,), (a.shape, axes, bool(keepdim), float(p)))


def _refuse_second_derivative(g):
    raise RuntimeError("norm(): the second derivative of a norm of singular values "
                       "(p='nuc', 2 or -2 over two axes) is not implemented")


# The gradient of a singular-value norm, when it is recorded (create_graph=True): its
# own gradient is refused rather than given without the singular vectors' derivatives.
SINGULAR_NORM_GRADIENT = Op("norm_gradient", inputs=("g", "x"),
                            vjp=(_refuse_second_derivative, _refuse_second_derivative))


def _singular_vjp(g, x, u, vh, weights):
    ga = g.numpy()[..., None] * weights
    grad = np.matmul(u * ga[..., None, :], vh).astype(u.dtype)
    if is_grad_enabled():
        return make_output(SINGULAR_NORM_GRADIENT, grad, (g, x), ())
    return make_tensor(grad)


SINGULAR_NORM = Op("norm", keeps=("x",), attrs=("u", "vh", "weights"), vjp=(_singular_vjp,))


def _singular_norm(x, p, fn):
    """nuc / 2 / -2 of the matrices in the last two axes of ``x``."""
    a = x._array
    rows, cols = a.shape[-2:]
    if rows == 0 or cols == 0:
        if p != "nuc":
            raise ValueError(f"{fn}(): the matrices of x have no elements (shape "
                             f"{list(a.shape)}): p={p!r} has no value")
        return make_output(SINGULAR_NORM, np.zeros(a.shape[:-2], np.abs(a).dtype), (x,),
                           (np.zeros(a.shape[:-1] + (0,), a.dtype),
                            np.zeros(a.shape[:-2] + (0, cols), a.dtype),
                            np.zeros(a.shape[:-2] + (0,), np.abs(a).dtype)))
    real = np.abs(a).dtype
    low = real.itemsize < 4              # float16, bfloat16: decomposed in float32
    u, s, vh = np.linalg.svd(a.astype(np.float32) if low else a, full_matrices=False)
    if low:
        u, s, vh = u.astype(a.dtype), s.astype(real), vh.astype(a.dtype)
    if p == "nuc":
        weights = np.ones_like(s)
    else:
        pick = s.max(axis=-1, keepdims=True) if p == 2 else s.min(axis=-1, keepdims=True)
        hit = s == pick
        weights = hit / hit.sum(axis=-1, keepdims=True)
    out = np.asarray(np.sum(s * weights, axis=-1), dtype=s.dtype)
    return make_output(SINGULAR_NORM, out, (x,), (u, vh, weights.astype(s.dtype)))


_MATRIX_PS = ("fro", "nuc", 1.0, -1.0, 2.0, -2.0, _INF, -_INF)


def matrix_norm_of(x, p, axes, keepdim, fn="norm"):
    """The norm ``p`` (``'fro'``, ``'nuc'``, ``1``, ``-1``, ``2``, ``-2``, ``inf``,
    ``-inf``) of the matrices of the floating-point or complex Tensor ``x`` over the
    two distinct axes ``axes`` (rows, columns; counted from 0).

    >>> import pylayer
    >>> matrix_norm_of(pylayer.to_tensor([[1.0, -2.0], [3.0, 4.0]]), 1.0, (0, 1), False).numpy()
    array(6., dtype=float32)
    """
    row, col = axes
    ndim = x.ndim
    if p == "fro":
        return vector_norm_of(x, 2.0, tuple(sorted(axes)), keepdim)
    if p in ("nuc", 2.0, -2.0):
        perm = [i for i in range(ndim) if i not in axes] + [row, col]
        moved = x if perm == list(range(ndim)) else _sh.transpose(x, perm)
        out = _singular_norm(moved, p, fn)
    else:
        summed, picked = (row, col) if abs(p) == 1 else (col, row)
        sums = _rd.sum(_m.abs(x), axis=summed, keepdim=True)
        extreme = amax if p > 0 else amin
        out = extreme(sums, axis=picked, keepdim=True)
    shape = kept_shape(x.shape, axes) if keepdim else \
        [s for i, s in enumerate(x.shape) if i not in axes]
    return _sh.reshape(out, shape)


def _norm_axes(axis, ndim, fn):
    """``axis`` as a tuple of axes counted from 0, in the order given (None stays None)."""
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = axis.numpy().tolist()
    items = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    for item in items:
        if not isinstance(item, (int, np.integer)) or isinstance(item, (bool, np.bool_)):
            raise TypeError(f"{fn}(): argument 'axis' must be an int or a list of ints, got "
                            f"{describe(axis)}")
    axes = tuple(check_axis(int(item), ndim, fn) for item in items)
    if not axes:
        return None                         # an empty list: every axis, as in Paddle
    if len(set(axes)) != len(axes):
        raise ValueError(f"{fn}(): argument 'axis' must name distinct axes, got {axis}")
    return axes if ndim else None


def _norm_p(p, fn):
    if p is None or p in ("fro", "nuc"):
        return p
    if isinstance(p, str):
        raise ValueError(f"{fn}(): argument 'p' must be 'fro', 'nuc' or a number, got {p!r}")
    return check_number(p, fn, "p")


@op(method=True)
def norm(x, p=None, axis=None, keepdim=False, out=None, dtype=None, name=None):
    """The vector or matrix norm of ``x``.

    ``p`` is ``'fro'`` (Frobenius), ``'nuc'`` (nuclear: the sum of the singular
    values), or a number: ``inf``/``-inf`` (largest/smallest size), ``0`` (the
    number of non-zeros) and any other ``p`` give ``sum(|x|**p) ** (1/p)``. With
    ``axis`` None the norm is over every element (``'nuc'`` needs a 2-D ``x``), with
    one axis it is a vector norm, and with two axes a matrix norm: ``'fro'``,
    ``'nuc'``, ``1``/``-1`` (largest/smallest column sum of sizes), ``2``/``-2``
    (largest/smallest singular value) or ``inf``/``-inf`` (largest/smallest row sum);
    more axes take a vector norm over all of them. ``p=None`` is ``'fro'`` over two
    axes and the 2-norm otherwise. ``dtype`` casts ``x`` first; a complex ``x`` gives
    the norm of its sizes. ``out`` receives the result. Also a Tensor method.

    The gradient is 0 where the norm is 0; ties of ``inf``/``-inf`` share it evenly.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[3.0, -4.0], [0.0, 12.0]])
    >>> pylayer.norm(x).numpy()
    array(13., dtype=float32)
    >>> pylayer.norm(x, p=1, axis=1).numpy()
    array([ 7., 12.], dtype=float32)
    >>> pylayer.norm(x, p=float('inf'), axis=[0, 1]).numpy()
    array(12., dtype=float32)
    """
    fn = "norm"
    x = float_tensor(x, fn, complex_too=True)
    if dtype is not None:
        x = _sh.cast(x, check_dtype(dtype, fn, kinds="fc"))
    p = _norm_p(p, fn)
    axes = _norm_axes(axis, x.ndim, fn)
    keepdim = bool(keepdim)
    if axes is not None and len(axes) == 2:
        if p is None:
            p = "fro"
        if p not in _MATRIX_PS:
            raise ValueError(f"{fn}(): over two axes argument 'p' must be one of 'fro', "
                             f"'nuc', 1, -1, 2, -2, inf or -inf, got {p!r}")
        result = matrix_norm_of(x, p, axes, keepdim)
    elif p == "nuc":
        if axes is not None or x.ndim != 2:
            raise ValueError(f"{fn}(): p='nuc' needs two axes (or a 2-D x with axis=None), "
                             f"got axis={axis!r} for x of shape {x.shape}")
        result = matrix_norm_of(x, p, (0, 1), keepdim)
    elif p == "fro" and axes is not None and len(axes) > 2:
        raise ValueError(f"{fn}(): p='fro' takes one or two axes, got axis={axis!r}")
    else:
        p = 2.0 if p in (None, "fro") else p
        result = vector_norm_of(x, p, None if axes is None else tuple(sorted(axes)), keepdim)
    return _out(result, out, fn)


@op(method=True)
def dist(x, y, p=2, name=None):
    """The ``p``-norm of ``x - y`` over all elements (``x`` and ``y`` broadcast).

    ``p`` is a number: ``0`` counts the non-zero differences, ``inf``/``-inf`` take
    the largest/smallest size. Floating-point tensors only. Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[3.0, 3.0], [3.0, 3.0]])
    >>> y = pylayer.to_tensor([[3.0, 3.0], [3.0, 1.0]])
    >>> pylayer.dist(x, y).numpy(), pylayer.dist(x, y, p=0).numpy()
    (array(2., dtype=float32), array(1., dtype=float32))
    """
    fn = "dist"
    x = float_tensor(x, fn, "x", 1)
    y = float_tensor(y, fn, "y", 2)
    p = check_number(p, fn, "p")
    try:
        np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        raise ValueError(f"{fn}(): arguments 'x' and 'y' must broadcast together, got shapes "
                         f"{x.shape} and {y.shape}") from None
    return vector_norm_of(_ar.subtract(x, y), p, None, False)


# ------------------------------------------------------------------- extremes
AMAX = Op("amax", keeps=("x", "out"), attrs=("x_shape", "axes", "keepdim"),
          vjp=(_rd._extreme_vjp,))
AMIN = Op("amin", keeps=("x", "out"), attrs=("x_shape", "axes", "keepdim"),
          vjp=(_rd._extreme_vjp,))


@op(method=True)
def amax(x, axis=None, keepdim=False, name=None):
    """Largest element over ``axis`` (all axes by default); NaN propagates.

    The gradient is split evenly among the elements that tie for the maximum.
    Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 4.0, 4.0], [0.0, 2.0, 1.0]], stop_gradient=False)
    >>> y = pylayer.amax(x, axis=1)
    >>> y.sum().backward()
    >>> y.numpy(), x.grad.numpy()
    (array([4., 2.], dtype=float32), array([[0. , 0.5, 0.5],
           [0. , 1. , 0. ]], dtype=float32))
    """
    x = _real_numbers(x, "amax")
    return _rd._extreme(AMAX, "amax", np.max, x, axis, keepdim)


@op(method=True)
def amin(x, axis=None, keepdim=False, name=None):
    """Smallest element over ``axis`` (all axes by default); NaN propagates.

    The gradient is split evenly among the elements that tie for the minimum.
    Also a Tensor method.

    >>> import pylayer
    >>> pylayer.amin(pylayer.to_tensor([[1.0, 4.0], [0.0, 2.0]]), axis=1).numpy()
    array([1., 0.], dtype=float32)
    """
    x = _real_numbers(x, "amin")
    return _rd._extreme(AMIN, "amin", np.min, x, axis, keepdim)


# ------------------------------------------------------------ nan-aware sums
def _without_nan(x):
    """``x`` with its NaNs replaced by 0 (recorded: they get no gradient)."""
    a = x._array
    if not (is_floating(a.dtype) or is_complex(a.dtype)):
        return x
    nan = np.isnan(a)
    if not nan.any():
        return x
    return _m.where(make_tensor(nan), make_tensor(np.zeros_like(a)), x)


@op(method=True)
def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over ``axis`` (all axes by default), counting NaNs as 0.

    Integer tensors give int64, as ``sum`` does; ``dtype`` casts ``x`` first. The
    NaNs get no gradient. Also a Tensor method.

    >>> import pylayer
    >>> pylayer.nansum(pylayer.to_tensor([[1.0, float('nan')], [2.0, 3.0]]), axis=1).numpy()
    array([1., 5.], dtype=float32)
    """
    fn = "nansum"
    x = _no_bool(as_tensor_arg(x, fn, "x", 1), fn)
    check_axes(axis, x.ndim, fn)
    dtype = check_dtype(dtype, fn)
    if dtype is not None:
        x = _sh.cast(x, dtype)
    return _rd.sum(_without_nan(x), axis=axis, keepdim=keepdim)


@op(method=True)
def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean over ``axis`` (all axes by default) of the elements that are not NaN.

    A slice of NaNs only gives NaN. Integer tensors are computed in float32. The
    NaNs get no gradient. Also a Tensor method.

    >>> import pylayer
    >>> pylayer.nanmean(pylayer.to_tensor([[1.0, float('nan')], [2.0, 3.0]]), axis=1).numpy()
    array([1. , 2.5], dtype=float32)
    """
    fn = "nanmean"
    x = _no_bool(as_tensor_arg(x, fn, "x", 1), fn)
    x = float_tensor(x, fn, integers_as_float32=True, complex_too=True)
    axes = check_axes(axis, x.ndim, fn)
    a = x._array
    count = np.sum(~np.isnan(a), axis=axes, keepdims=bool(keepdim))
    total = _rd.sum(_without_nan(x), axis=None if axes is None else list(axes),
                    keepdim=keepdim)
    return _ar.divide(total, make_tensor(np.asarray(count, dtype=np.abs(a).dtype)))


# ------------------------------------------------- medians and quantiles
def _weights_vjp(g, weights, x_shape, axes, keepdim, lead):
    """The gradient of a fixed weighting of x's elements: ``weights`` is ``lead`` leading
    dimensions (one per quantile) and then x's shape."""
    w = make_tensor(weights.astype(g.numpy().dtype))
    if not lead:
        return _ar.multiply(expand_grad(g, x_shape, axes, keepdim), w)
    g = _sh.reshape(g, [g.shape[0]] + kept_shape(x_shape, axes))
    return _rd.sum(_ar.multiply(g, w), axis=0)


MEDIAN = Op("median", attrs=("weights", "x_shape", "axes", "keepdim", "lead"),
            vjp=(_weights_vjp,))
NANMEDIAN = Op("nanmedian", attrs=("weights", "x_shape", "axes", "keepdim", "lead"),
               vjp=(_weights_vjp,))
def _quantile_vjp(g, at_low, at_high, fraction, x_shape, order):
    """The gradient of interpolated quantiles: for each quantile q and slice, the weight
    ``1 - fraction`` goes to position ``at_low`` and ``fraction`` to ``at_high`` (in the
    slice's merged axis). Added with a recorded scatter, in the input's size."""
    batch = fraction.shape[1:]
    g = _sh.reshape(g, list(fraction.shape))
    f = make_tensor(fraction.astype(g.numpy().dtype))
    parts = (_ar.multiply(g, _ar.scale(_ar.subtract(f, 1.0), -1.0)), _ar.multiply(g, f))
    last = list(range(1, len(batch) + 1)) + [0]          # the quantiles last
    values = _mp.concat([_sh.transpose(t, last) for t in parts], axis=-1)
    index = np.concatenate([np.transpose(at_low, last), np.transpose(at_high, last)], axis=-1)
    n = math.prod(x_shape[i] for i in order[len(batch):])
    zeros = make_tensor(np.zeros(batch + (n,), g.numpy().dtype))
    grad = _mp.put_along_axis(zeros, make_tensor(index), values, -1, reduce="add")
    grad = _sh.reshape(grad, [x_shape[i] for i in order])
    return _sh.transpose(grad, [int(i) for i in np.argsort(order)])


QUANTILE = Op("quantile", attrs=("at_low", "at_high", "fraction", "x_shape", "order"),
              vjp=(_quantile_vjp,))
NANQUANTILE = Op("nanquantile", attrs=("at_low", "at_high", "fraction", "x_shape", "order"),
                 vjp=(_quantile_vjp,))


def _result_shape(shape, axes, keepdim):
    if keepdim:
        return tuple(kept_shape(shape, axes))
    return tuple(s for i, s in enumerate(shape) if axes is not None and i not in axes)


def _one_hot(index, n):
    return np.arange(n) == index[..., None]


def _middle(low, high, floating):
    """The average of two middle values: in float64 for a floating-point result, else
    exactly in integers, truncated toward 0 (Paddle's integer ``nanmedian``)."""
    if floating:
        return (low.astype(np.float64) + high) / 2
    low, high = low.astype(np.int64), high.astype(np.int64)
    floor = low + (high - low) // 2
    odd_and_negative = ((high - low) % 2 != 0) & (low + (high - low) / 2.0 < 0)
    return floor + odd_and_negative


def _median(fn, record, x, axis, keepdim, mode, ignore_nan):
    x = as_tensor_arg(x, fn, "x", 1)
    x = real_tensor(x, fn) if not ignore_nan else _real_numbers(x, fn)
    mode = check_choice(mode, fn, "mode", ("avg", "min"))
    a = x._array
    if ignore_nan:
        axes = check_axes(axis, a.ndim, fn)
    else:
        if isinstance(axis, (list, tuple)):
            raise TypeError(f"{fn}(): argument 'axis' must be an int or None, got "
                            f"{describe(axis)}")
        axes = _one_axis(axis, a.ndim, fn)
        axes = None if axes is None or a.ndim == 0 else (axes,)
    keepdim = bool(keepdim)
    work = a.astype(np.int64) if is_bool(a.dtype) else a
    moved, order = _moved_last(work, axes)
    batch, n = moved.shape[:-1], moved.shape[-1]
    floating = is_floating(a.dtype)
    nan = np.isnan(moved) if floating else np.zeros(moved.shape, bool)
    nans = nan.sum(axis=-1)
    if mode == "avg" and not ignore_nan and a.dtype != np.float64:
        out_dtype = np.dtype(np.float32)     # Paddle's median averages in float32
    else:
        out_dtype = a.dtype
    value = np.full(batch, np.nan if is_floating(out_dtype) else 0, dtype=np.float64)
    index = np.full(batch, -1, np.int64)
    weights = np.zeros(moved.shape, np.float64)
    if n:
        ranks = np.argsort(moved, axis=-1, kind="stable")
        ordered = np.take_along_axis(moved, ranks, -1)
        valid = n - nans if ignore_nan else np.full(batch, n)
        lo = np.clip((valid - 1) // 2, 0, n - 1)
        hi = lo if mode == "min" else np.clip(valid // 2, 0, n - 1)
        low = np.take_along_axis(ordered, lo[..., None], -1)
        high = np.take_along_axis(ordered, hi[..., None], -1)
        index = np.take_along_axis(ranks, lo[..., None], -1)[..., 0]
        with np.errstate(all="ignore"):
            if mode == "min":
                value = low[..., 0]
                weights = _one_hot(index, n).astype(np.float64)
            else:
                value = _middle(low[..., 0], high[..., 0], is_floating(out_dtype))
                # Paddle's rule: a median equal to both middle values is shared by every
                # element equal to it; otherwise each middle position takes half.
                upper = np.take_along_axis(ranks, hi[..., None], -1)[..., 0]
                apart = 0.5 * (_one_hot(index, n) + _one_hot(upper, n))
                tied = moved == low
                together = tied / np.maximum(tied.sum(-1, keepdims=True), 1)
                weights = np.where(low == high, together, apart)
        empty = (valid == 0) if ignore_nan else (nans > 0)
        if empty.any():
            value = np.where(empty, np.nan, value.astype(np.float64))
            if ignore_nan:
                index = np.where(empty, -1, index)
                spread = np.full(moved.shape, 1.0 / n)
            else:
                index = np.where(empty, np.argmax(nan, axis=-1), index)
                spread = nan / np.maximum(nans, 1)[..., None]
            weights = np.where(empty[..., None], spread, weights)
    shape = _result_shape(a.shape, axes, keepdim)
    if is_floating(out_dtype):
        out = np.asarray(value, dtype=out_dtype).reshape(shape)
    else:
        out = np.asarray(value).astype(out_dtype).reshape(shape)
    weights = _moved_back(weights, a.shape, order)
    values = make_output(record, out, (x,), (weights, a.shape, axes, keepdim, 0))
    if mode == "min" and axis is not None and not isinstance(axis, (list, tuple)):
        return values, make_tensor(index.reshape(shape))
    return values


@op(method=True)
def median(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median of ``x`` over ``axis`` (an int; None: all elements).

    ``mode='avg'`` averages the two middle values of an even count, in float32 unless
    ``x`` is float64 (integer, bool and float16 tensors give float32); ``mode='min'`` takes the lower one and keeps the dtype, and
    with an ``axis`` returns ``(values, indices)``. A slice holding NaN gives NaN. The
    gradient goes half to each middle value, or, when the two are equal, is shared
    evenly among the elements equal to the median. Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[3.0, 1.0, 2.0, 5.0], [4.0, 4.0, 1.0, 0.0]])
    >>> pylayer.median(x, axis=1).numpy()
    array([2.5, 2.5], dtype=float32)
    >>> values, indices = pylayer.median(x, axis=1, mode='min')
    >>> values.numpy(), indices.numpy()
    (array([2., 1.], dtype=float32), array([2, 2]))
    """
    return _median("median", MEDIAN, x, axis, keepdim, mode, False)


@op(method=True)
def nanmedian(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median of the elements of ``x`` that are not NaN, over ``axis`` (an int or a
    list of ints; None: all elements).

    ``mode='avg'`` averages the two middle values of an even count, ``mode='min'``
    takes the lower one and, with an int ``axis``, returns ``(values, indices)``
    (index -1 for a slice of NaNs only, whose median is NaN). Integer tensors keep
    their dtype (the average is truncated toward 0, as in Paddle). The gradient is
    shared as for :func:`median`. Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[3.0, float('nan'), 1.0], [4.0, 4.0, 1.0]])
    >>> pylayer.nanmedian(x, axis=1).numpy()
    array([2., 4.], dtype=float32)
    """
    return _median("nanmedian", NANMEDIAN, x, axis, keepdim, mode, True)


_INTERPOLATIONS = ("linear", "lower", "higher", "nearest", "midpoint")


def _quantile_q(q, fn):
    """(the quantiles as a float64 array, whether q was one number)."""
    if isinstance(q, Tensor):
        if q.ndim > 1 or not (is_floating(q.numpy().dtype) or is_integer(q.numpy().dtype)):
            raise TypeError(f"{fn}(): argument 'q' must be a number, a list of numbers or a "
                            f"0-D or 1-D real Tensor, got a Tensor of shape {q.shape} and "
                            f"dtype {q.dtype.name}")
        scalar, qs = q.ndim == 0, q.numpy().astype(np.float64).reshape(-1)
    elif isinstance(q, (list, tuple)):
        scalar, qs = False, np.array([check_number(v, fn, "q") for v in q], np.float64)
    else:
        scalar, qs = True, np.array([check_number(q, fn, "q")], np.float64)
    if qs.size == 0:
        raise ValueError(f"{fn}(): argument 'q' must not be empty")
    if not np.all((qs >= 0) & (qs <= 1)):
        raise ValueError(f"{fn}(): argument 'q' must be in [0, 1], got {qs.tolist()}")
    return qs, scalar


def _quantile(fn, record, x, q, axis, keepdim, interpolation, ignore_nan):
    x = float_tensor(x, fn)
    qs, scalar = _quantile_q(q, fn)
    a = x._array
    axes = check_axes(axis, a.ndim, fn)
    keepdim = bool(keepdim)
    interpolation = check_choice(interpolation, fn, "interpolation", _INTERPOLATIONS)
    moved, order = _moved_last(a, axes)
    batch, n = moved.shape[:-1], moved.shape[-1]
    lead = (qs.size,)
    value = np.full(lead + batch, np.nan)
    at_low = at_high = np.zeros(lead + batch, np.int64)
    fraction = np.zeros(lead + batch)
    if n:
        nan = np.isnan(moved)
        nans = nan.sum(axis=-1)
        valid = n - nans if ignore_nan else np.full(batch, n)
        ranks = np.argsort(moved, axis=-1, kind="stable")
        ordered = np.take_along_axis(moved, ranks, -1).astype(np.float64)
        position = qs.reshape(lead + (1,) * len(batch)) * np.maximum(valid - 1, 0)
        lo = np.floor(position).astype(np.int64)
        hi = np.ceil(position).astype(np.int64)
        fraction = position - lo
        if interpolation == "lower":
            hi, fraction = lo, np.zeros_like(fraction)
        elif interpolation == "higher":
            lo, fraction = hi, np.zeros_like(fraction)
        elif interpolation == "nearest":
            lo = hi = np.round(position).astype(np.int64)
            fraction = np.zeros_like(fraction)
        elif interpolation == "midpoint":
            fraction = np.where(lo == hi, 0.0, 0.5)
        wide = np.broadcast_to(ordered, lead + moved.shape)
        low = np.take_along_axis(wide, lo[..., None], -1)[..., 0]
        high = np.take_along_axis(wide, hi[..., None], -1)[..., 0]
        with np.errstate(all="ignore"):
            value = low + fraction * (high - low)
        ranks = np.broadcast_to(ranks, lead + moved.shape)
        at_low = np.take_along_axis(ranks, lo[..., None], -1)[..., 0]
        at_high = np.take_along_axis(ranks, hi[..., None], -1)[..., 0]
        empty = (valid == 0) if ignore_nan else (nans > 0)
        if empty.any():
            # A NaN result: its gradient goes to the slice's first NaN.
            value = np.where(empty, np.nan, value)
            first_nan = np.broadcast_to(np.argmax(nan, axis=-1), at_low.shape)
            at_low = at_high = np.where(empty, first_nan, at_low)
            fraction = np.where(empty, 0.0, fraction)
    shape = _result_shape(a.shape, axes, keepdim)
    out = np.asarray(value, dtype=a.dtype).reshape((() if scalar else lead) + shape)
    return make_output(record, out, (x,), (np.ascontiguousarray(at_low),
                                           np.ascontiguousarray(at_high),
                                           np.ascontiguousarray(fraction), a.shape,
                                           tuple(order)))


@op(method=True)
def quantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """The ``q``-quantiles of ``x`` over ``axis`` (an int or a list; None: all elements).

    ``q`` is a number in [0, 1], a list of them or a 0-D/1-D Tensor; several give a
    leading dimension, one per quantile. The position ``q * (n - 1)`` among the
    sorted values lies between two of them: ``interpolation`` picks ``'linear'``
    (interpolate), ``'lower'``, ``'higher'``, ``'nearest'`` (ties to even) or
    ``'midpoint'``. A slice holding NaN gives NaN. Floating-point tensors only. The
    gradient goes to the values interpolated, with their weights. Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[3.0, 1.0, 2.0, 5.0], [4.0, 4.0, 1.0, 0.0]])
    >>> pylayer.quantile(x, 0.5, axis=1).numpy()
    array([2.5, 2.5], dtype=float32)
    >>> pylayer.quantile(x, [0.25, 1.0], axis=1, interpolation='lower').numpy()
    array([[1., 0.],
           [5., 4.]], dtype=float32)
    """
    return _quantile("quantile", QUANTILE, x, q, axis, keepdim, interpolation, False)


@op(method=True)
def nanquantile(x, q, axis=None, keepdim=False, interpolation="linear"):
    """:func:`quantile` of the elements of ``x`` that are not NaN (a slice of NaNs only
    gives NaN). Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[3.0, float('nan'), 1.0], [4.0, 4.0, 1.0]])
    >>> pylayer.nanquantile(x, 0.5, axis=1).numpy()
    array([2., 4.], dtype=float32)
    """
    return _quantile("nanquantile", NANQUANTILE, x, q, axis, keepdim, interpolation, True)


# ------------------------------------------------------------ picking ops
def _pick(x, index, axis, keepdim):
    """(values, indices) of ``x`` at ``index`` (an int64 array with size 1 on ``axis``)."""
    values = _mp.take_along_axis(x, make_tensor(index), axis)
    if keepdim:
        return values, make_tensor(index)
    return _sh.squeeze(values, axis), make_tensor(np.squeeze(index, axis))


@op(method=True)
def mode(x, axis=-1, keepdim=False, name=None):
    """The most frequent value along ``axis`` and the index of its last occurrence.

    Among values equally frequent the smallest wins; each NaN counts as a value of its
    own. Returns ``(values, indices)``; the gradient goes to the positions of the
    indices. Also a Tensor method.

    >>> import pylayer
    >>> values, indices = pylayer.mode(pylayer.to_tensor([[1.0, 2.0, 2.0, 3.0, 3.0]]))
    >>> values.numpy(), indices.numpy()
    (array([2.], dtype=float32), array([2]))
    """
    fn = "mode"
    x = _real_numbers(x, fn)
    axis = _one_axis(axis, x.ndim, fn, allow_none=False)
    if x.ndim == 0:
        values, indices = mode(_sh.reshape(x, [1]), 0, keepdim)
        return _sh.reshape(values, []), _sh.reshape(indices, [])
    a = x._array
    n = a.shape[axis]
    if n == 0:
        raise ValueError(f"{fn}(): axis {axis} of x has size 0 (shape {x.shape}): there is "
                         f"no most frequent value")
    moved = np.moveaxis(a, axis, -1)
    ranks = np.argsort(moved, axis=-1, kind="stable")
    ordered = np.take_along_axis(moved, ranks, -1)
    change = ordered[..., 1:] != ordered[..., :-1]
    true = np.ones(moved.shape[:-1] + (1,), bool)
    starts = np.concatenate([true, change], axis=-1)
    ends = np.concatenate([change, true], axis=-1)
    place = np.arange(n)
    first = np.maximum.accumulate(np.where(starts, place, 0), axis=-1)
    runs = np.where(ends, place - first + 1, 0)
    best = np.argmax(runs, axis=-1)[..., None]
    index = np.moveaxis(np.take_along_axis(ranks, best, -1), -1, axis)
    return _pick(x, np.ascontiguousarray(index, dtype=np.int64), axis, bool(keepdim))


@op(method=True)
def kthvalue(x, k, axis=None, keepdim=False, name=None):
    """The ``k``-th smallest value along ``axis`` (the last by default) and its index.

    ``k`` counts from 1; NaN sorts last. Returns ``(values, indices)``; the gradient
    goes to the positions of the indices. Also a Tensor method.

    >>> import pylayer
    >>> values, indices = pylayer.kthvalue(pylayer.to_tensor([[5.0, 1.0, 4.0]]), 2)
    >>> values.numpy(), indices.numpy()
    (array([4.], dtype=float32), array([2]))
    """
    fn = "kthvalue"
    x = _real_numbers(x, fn)
    k = check_int(k, fn, "k", minimum=1)
    axis = _one_axis(-1 if axis is None else axis, x.ndim, fn, allow_none=False)
    if x.ndim == 0:
        values, indices = kthvalue(_sh.reshape(x, [1]), k, 0, keepdim)
        return _sh.reshape(values, []), _sh.reshape(indices, [])
    n = x.shape[axis]
    if k > n:
        raise ValueError(f"{fn}(): argument 'k' ({k}) must not exceed the size {n} of axis "
                         f"{axis} of x (shape {x.shape})")
    ranks = np.argsort(x._array, axis=axis, kind="stable")
    index = np.take(ranks, [k - 1], axis=axis)
    return _pick(x, np.ascontiguousarray(index, dtype=np.int64), axis, bool(keepdim))


@op(method=True)
def count_nonzero(x, axis=None, keepdim=False, name=None):
    """How many elements along ``axis`` (all axes by default) are not zero; int64.

    NaN counts as non-zero. No gradient. Also a Tensor method.

    >>> import pylayer
    >>> pylayer.count_nonzero(pylayer.to_tensor([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0]]), axis=1).numpy()
    array([2, 1])
    """
    fn = "count_nonzero"
    x = as_tensor_arg(x, fn, "x", 1)
    a = x._array
    axes = check_axes(axis, a.ndim, fn)
    counted = np.count_nonzero(a, axis=axes, keepdims=bool(keepdim))
    return make_tensor(np.asarray(counted, dtype=np.int64))


@op(method=True)
def msort(input):
    """``input`` sorted along its first axis (ascending, stable; NaN last).

    The gradient of each sorted value goes back to where it came from. Also a
    Tensor method.

    >>> import pylayer
    >>> pylayer.msort(pylayer.to_tensor([[3.0, 1.0], [2.0, 5.0]])).numpy()
    array([[2., 1.],
           [3., 5.]], dtype=float32)
    """
    input = _real_numbers(input, "msort", "input")
    return _search.sort(input, axis=0)


# -------------------------------------------------------- running products
def _cumprod_vjp(g, x, out, axis):
    # d out_j / d x_i (j >= i) is the product of the x_k, k <= j, other than x_i. Before
    # a slice's first zero z1 that is out_j / x_i: a running sum taken from the end,
    # divided by x_i. From z1 on, the products are those of x with its zeros replaced
    # by 1 (running products c1, c2 of x with z1, then also z2, replaced), times the
    # zeros they skip: x_z1 between z1 and the second zero z2, x_z1 at z2 (whose
    # product skips both), and 0 after z2, where two zero factors remain. Written with
    # recorded ops, every step O(size), so first and second derivatives are exact.
    def from_the_end(t):
        return _mp.flip(_rd.cumsum(_mp.flip(t, [axis]), axis=axis), [axis])

    xa = x.numpy()
    zero = xa == 0
    terms = from_the_end(_ar.multiply(g, conjugate(out)))
    if not zero.any():
        return _ar.divide(terms, conjugate(x))
    seen = np.cumsum(zero, axis=axis)
    before, first, second = seen == 0, zero & (seen == 1), zero & (seen == 2)
    between = (seen == 1) & ~zero
    skip_first = _m.where(make_tensor(first), 1.0, x)
    tail1 = from_the_end(_ar.multiply(g, conjugate(_cumprod(skip_first, axis))))
    at_z1 = conjugate(_rd.sum(_m.where(make_tensor(first), x, 0.0), axis=axis, keepdim=True))
    grad = _m.where(make_tensor(between),
                    _ar.multiply(at_z1, _ar.divide(tail1, conjugate(
                        _m.where(make_tensor(between), x, 1.0)))), 0.0)
    if second.any():
        skip_both = _m.where(make_tensor(second), 1.0, skip_first)
        tail2 = from_the_end(_ar.multiply(g, conjugate(_cumprod(skip_both, axis))))
        grad = _m.where(make_tensor(second), _ar.multiply(at_z1, tail2), grad)
    grad = _m.where(make_tensor(first), tail1, grad)
    return _m.where(make_tensor(before),
                    _ar.divide(terms, conjugate(_m.where(make_tensor(before), x, 1.0))), grad)


CUMPROD = Op("cumprod", keeps=("x", "out"), attrs=("axis",), vjp=(_cumprod_vjp,))


def _cumprod(x, axis):
    a = x._array
    with np.errstate(all="ignore"):
        out = np.cumprod(a, axis=axis, dtype=a.dtype)
    return make_output(CUMPROD, np.ascontiguousarray(out), (x,), (axis,))


@op(method=True, inplace=True)
def cumprod(x, dim=None, *, dtype=None, name=None):
    """Running product along ``dim``; with ``dim=None`` over the flattened tensor.

    ``dtype`` casts ``x`` first; integer tensors keep their dtype. The gradient is
    exact at zeros. Also a Tensor method, with the in-place form ``cumprod_``.

    >>> import pylayer
    >>> pylayer.cumprod(pylayer.to_tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 6.0]]), dim=1).numpy()
    array([[1., 2., 6.],
           [4., 0., 0.]], dtype=float32)
    """
    fn = "cumprod"
    x = as_tensor_arg(x, fn, "x", 1)
    if dtype is not None:
        x = _sh.cast(x, check_dtype(dtype, fn))
    x = _no_bool(x, fn)
    if dim is None:
        return _cumprod(_sh.reshape(x, [-1]), 0)
    axis = _one_axis(dim, x.ndim, fn, "dim", allow_none=False)
    if x.ndim == 0:
        return _sh.reshape(_cumprod(_sh.reshape(x, [1]), 0), [])
    return _cumprod(x, axis)


def _running_extreme(fn, accumulate, x, axis, dtype):
    x = _real_numbers(x, fn)
    index_dtype = check_dtype(dtype, fn, allow_none=False)
    if index_dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise ValueError(f"{fn}(): argument 'dtype' must be 'int32' or 'int64', got {dtype!r}")
    if axis is None or x.ndim == 0:
        axis = _one_axis(axis, x.ndim, fn)
        x, axis = _sh.reshape(x, [-1]), 0
    else:
        axis = _one_axis(axis, x.ndim, fn)
    moved = np.moveaxis(x._array, axis, -1)
    n = moved.shape[-1]
    with np.errstate(all="ignore"):
        best = accumulate(moved, axis=-1)
    update = moved == best
    if is_floating(moved.dtype):
        before = np.concatenate([np.zeros(moved.shape[:-1] + (1,), bool),
                                 np.isnan(best[..., :-1])], axis=-1)
        update |= np.isnan(moved) & ~before
    index = np.maximum.accumulate(np.where(update, np.arange(n), 0), axis=-1) if n else \
        np.zeros(moved.shape, np.int64)
    index = np.ascontiguousarray(np.moveaxis(index, -1, axis), dtype=np.int64)
    values = _mp.take_along_axis(x, make_tensor(index), axis)
    return values, make_tensor(index.astype(index_dtype))


@op(method=True)
def cummax(x, axis=None, dtype="int64", name=None):
    """Running maximum along ``axis`` (over the flattened tensor by default) and the
    index where it was reached.

    Ties take the later index; a NaN propagates from where it appears. Returns
    ``(values, indices)`` with indices of ``dtype`` (int32 or int64). The gradient
    goes to the positions of the indices. Also a Tensor method.

    >>> import pylayer
    >>> values, indices = pylayer.cummax(pylayer.to_tensor([1.0, 3.0, 2.0, 3.0]))
    >>> values.numpy(), indices.numpy()
    (array([1., 3., 3., 3.], dtype=float32), array([0, 1, 1, 3]))
    """
    return _running_extreme("cummax", np.maximum.accumulate, x, axis, dtype)


@op(method=True)
def cummin(x, axis=None, dtype="int64", name=None):
    """Running minimum along ``axis`` (over the flattened tensor by default) and the
    index where it was reached.

    Ties take the later index; a NaN propagates from where it appears. Returns
    ``(values, indices)`` with indices of ``dtype`` (int32 or int64). The gradient
    goes to the positions of the indices. Also a Tensor method.

    >>> import pylayer
    >>> values, indices = pylayer.cummin(pylayer.to_tensor([3.0, 1.0, 2.0, 1.0]))
    >>> values.numpy(), indices.numpy()
    (array([3., 1., 1., 1.], dtype=float32), array([0, 1, 1, 3]))
    """
    return _running_extreme("cummin", np.minimum.accumulate, x, axis, dtype)


def _log_of_part(mask, g, sign):
    """log(sign * g) where ``mask`` holds, -inf elsewhere (recorded)."""
    part = g if sign > 0 else _ar.scale(g, -1.0)
    return _m.where(mask, _m.log(_m.where(mask, part, 1.0)), -_INF)


def _logcumsumexp_vjp(g, x, out, axis):
    # d out_j / d x_i = exp(x_i - out_j) for j >= i. The positive and negative parts of
    # g are summed in log space (a running log-sum-exp from the end), so nothing
    # overflows.
    # Where out_j is -inf every x_i (i <= j) is -inf too: those terms are 0.
    ga = g.numpy()
    empty = np.isneginf(out.numpy())
    grad = None
    for sign, mask in ((1.0, ga > 0), (-1.0, ga < 0)):
        if not mask.any():
            continue
        logs = _ar.subtract(_log_of_part(make_tensor(mask & ~empty), g, sign),
                            _m.where(make_tensor(empty), 0.0, out))
        tail = _mp.flip(_logcumsumexp(_mp.flip(logs, [axis]), axis), [axis])
        part = _m.exp(_ar.add(tail, x))
        part = part if sign > 0 else _ar.scale(part, -1.0)
        grad = part if grad is None else _ar.add(grad, part)
    return grad if grad is not None else _ar.scale(g, 0.0)


LOGCUMSUMEXP = Op("logcumsumexp", keeps=("x", "out"), attrs=("axis",),
                  vjp=(_logcumsumexp_vjp,))


def _logcumsumexp(x, axis):
    a = x._array
    with np.errstate(all="ignore"):
        out = np.logaddexp.accumulate(a, axis=axis, dtype=a.dtype)
    return make_output(LOGCUMSUMEXP, np.ascontiguousarray(out), (x,), (axis,))


@op(method=True)
def logcumsumexp(x, axis=None, dtype=None, name=None):
    """Running ``log(sum(exp(x)))`` along ``axis`` (over the flattened tensor by
    default), without overflow.

    ``dtype`` casts ``x`` first; integer tensors are computed in float32. A run of
    ``-inf`` gives ``-inf`` (Paddle gives the dtype's lowest number). Also a Tensor
    method.

    >>> import pylayer
    >>> pylayer.logcumsumexp(pylayer.to_tensor([0.0, 0.0, 3.0], dtype='float64')).numpy()
    array([0.        , 0.69314718, 3.09492296])
    """
    fn = "logcumsumexp"
    x = _real_numbers(x, fn)
    if dtype is not None:
        x = _sh.cast(x, check_dtype(dtype, fn, kinds="f"))
    x = float_tensor(x, fn, integers_as_float32=True)
    if axis is None or x.ndim == 0:
        _one_axis(axis, x.ndim, fn)
        return _logcumsumexp(_sh.reshape(x, [-1]), 0)
    return _logcumsumexp(x, _one_axis(axis, x.ndim, fn))


# ------------------------------------------------------------- differences
def _joined(fn, x, axis, prepend, append):
    parts = []
    for arg, position, part in (("prepend", 4, prepend), ("append", 5, append)):
        if part is None:
            parts.append(None)
            continue
        part = as_tensor_arg(part, fn, arg, position)
        if part.ndim != x.ndim or any(s != t for i, (s, t) in enumerate(zip(part.shape, x.shape))
                                      if i != axis):
            raise ValueError(f"{fn}(): argument '{arg}' must have the shape of x ({x.shape}) "
                             f"except on axis {axis}, got {part.shape}")
        if part._array.dtype != x._array.dtype:
            raise TypeError(f"{fn}(): argument '{arg}' must have the dtype of x "
                            f"({x.dtype.name}), got {part.dtype.name}")
        parts.append(part)
    joined = [t for t in (parts[0], x, parts[1]) if t is not None]
    return x if len(joined) == 1 else _mp.concat(joined, axis=axis)


@op(method=True)
def diff(x, n=1, axis=-1, prepend=None, append=None, name=None):
    """The ``n``-th forward difference along ``axis``: ``x[1:] - x[:-1]``, ``n`` times.

    ``prepend`` and ``append`` (x's dtype and shape except on ``axis``) are joined to
    ``x`` first. A bool tensor gives ``x[1:] != x[:-1]``. Also a Tensor method.

    >>> import pylayer
    >>> pylayer.diff(pylayer.to_tensor([1.0, 4.0, 9.0, 16.0])).numpy()
    array([3., 5., 7.], dtype=float32)
    >>> pylayer.diff(pylayer.to_tensor([1.0, 4.0, 9.0, 16.0]), n=2).numpy()
    array([2., 2.], dtype=float32)
    """
    fn = "diff"
    x = as_tensor_arg(x, fn, "x", 1)
    n = check_int(n, fn, "n", minimum=1)
    if x.ndim == 0:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least one "
                         f"dimension, got a 0-D Tensor")
    axis = _one_axis(axis, x.ndim, fn, allow_none=False)
    t = _joined(fn, x, axis, prepend, append)
    step = _cmp.not_equal if is_bool(t._array.dtype) else _ar.subtract
    for _ in range(min(n, t.shape[axis])):   # once the axis is empty, it stays empty
        t = step(_along(t, axis, 1, None), _along(t, axis, None, -1))
    return t


def _trapezoid_areas(fn, y, x, dx, axis):
    """The area of each interval along ``axis`` (recorded), and the axis."""
    y = float_tensor(y, fn, "y", 1)
    if x is not None and dx is not None:
        raise ValueError(f"{fn}(): give 'x' or 'dx', not both")
    if y.ndim == 0:
        raise ValueError(f"{fn}(): argument 'y' (position 1) must have at least one "
                         f"dimension, got a 0-D Tensor")
    axis = _one_axis(axis, y.ndim, fn, allow_none=False)
    n = y.shape[axis]
    heights = _ar.scale(_ar.add(_along(y, axis, 1, None), _along(y, axis, None, -1)), 0.5)
    if x is None:
        spacing = 1.0 if dx is None else check_number(dx, fn, "dx")
        return _ar.scale(heights, spacing), axis
    x = float_tensor(x, fn, "x", 2)
    if x.ndim == 1 and x.shape[0] == n:
        x = _sh.reshape(x, [n if i == axis else 1 for i in range(y.ndim)])
    elif x.shape != y.shape:
        raise ValueError(f"{fn}(): argument 'x' must be 1-D with {n} elements (the size of "
                         f"axis {axis} of y) or have y's shape {y.shape}, got {x.shape}")
    widths = _ar.subtract(_along(x, axis, 1, None), _along(x, axis, None, -1))
    return _ar.multiply(widths, heights), axis


@op(method=True)
def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The integral of ``y`` along ``axis`` by the trapezoid rule.

    The sample points are ``x`` (1-D along ``axis``, or ``y``'s shape), else spaced
    ``dx`` apart (1 by default); give one of them at most. Floating-point tensors
    only. Also a Tensor method.

    >>> import pylayer
    >>> pylayer.trapezoid(pylayer.to_tensor([1.0, 2.0, 4.0]), dx=0.5).numpy()
    array(2.25, dtype=float32)
    """
    areas, axis = _trapezoid_areas("trapezoid", y, x, dx, axis)
    return _rd.sum(areas, axis=axis)


@op(method=True)
def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The running integral of ``y`` along ``axis`` by the trapezoid rule: one value per
    interval, so the axis is one shorter. Arguments as for :func:`trapezoid`. Also a
    Tensor method.

    >>> import pylayer
    >>> pylayer.cumulative_trapezoid(pylayer.to_tensor([1.0, 2.0, 4.0])).numpy()
    array([1.5, 4.5], dtype=float32)
    """
    areas, axis = _trapezoid_areas("cumulative_trapezoid", y, x, dx, axis)
    return _rd.cumsum(areas, axis=axis)


# ---------------------------------------------------------------- histograms
@op(method=True)
def histogram_bin_edges(input, bins=100, min=0.0, max=0.0, name=None):
    """The ``bins + 1`` edges of ``bins`` equal bins over ``[min, max]``, in float32.

    With ``min`` and ``max`` both 0 the range is the data's; an empty range is widened
    by 0.5 on each side. Integer or floating-point tensors. Also a Tensor method.

    >>> import pylayer
    >>> pylayer.histogram_bin_edges(pylayer.to_tensor([1.0, 2.0, 5.0]), bins=4).numpy()
    array([1., 2., 3., 4., 5.], dtype=float32)
    """
    fn = "histogram_bin_edges"
    input = _real_numbers(input, fn, "input")
    bins = check_int(bins, fn, "bins", minimum=0)
    check_count(bins + 1, fn, "bins", np.float32)
    low = check_number(min, fn, "min")
    high = check_number(max, fn, "max")
    a = input._array
    if low == 0 and high == 0:
        if a.size == 0:
            raise ValueError(f"{fn}(): argument 'input' has no elements, so it has no range; "
                             f"give 'min' and 'max'")
        low, high = float(np.min(a)), float(np.max(a))
    elif high < low:
        raise ValueError(f"{fn}(): argument 'max' ({high}) must be at least 'min' ({low})")
    if low == high:
        low, high = low - 0.5, high + 0.5
    with np.errstate(all="ignore"):
        edges = np.linspace(low, high, bins + 1)
    return make_tensor(edges.astype(np.float32))


def _histogramdd_edges(fn, bins, ranges, data, dims, dtype):
    if isinstance(bins, (list, tuple)) and bins and all(isinstance(b, Tensor) for b in bins):
        if len(bins) != dims:
            raise ValueError(f"{fn}(): argument 'bins' must hold {dims} edge Tensors (one per "
                             f"dimension), got {len(bins)}")
        edges = []
        for b in bins:
            e = b.numpy()
            if e.ndim != 1 or e.size < 1 or e.dtype != dtype:
                raise ValueError(f"{fn}(): argument 'bins' must hold 1-D edge Tensors of x's "
                                 f"dtype {np.dtype(dtype)}, got shape {b.shape} and dtype "
                                 f"{b.dtype.name}")
            if np.any(np.diff(e) < 0):
                raise ValueError(f"{fn}(): argument 'bins' must hold increasing edges")
            edges.append(e)
        return edges
    counts = check_int(bins, fn, "bins", minimum=1) if not isinstance(bins, (list, tuple)) \
        else None
    counts = [counts] * dims if counts is not None else \
        [check_int(b, fn, "bins", minimum=1) for b in bins]
    if len(counts) != dims:
        raise ValueError(f"{fn}(): argument 'bins' must hold {dims} counts (one per "
                         f"dimension), got {len(counts)}")
    for count in counts:
        check_count(count + 1, fn, "bins", dtype)
    if ranges is None:
        if data.shape[0] == 0:
            raise ValueError(f"{fn}(): x has no points, so it has no range; give 'ranges'")
        low, high = data.min(axis=0), data.max(axis=0)
    else:
        if not isinstance(ranges, (list, tuple)):
            raise TypeError(f"{fn}(): argument 'ranges' must be a list of numbers or None, "
                            f"got {describe(ranges)}")
        if len(ranges) != 2 * dims:
            raise ValueError(f"{fn}(): argument 'ranges' must hold {2 * dims} numbers (a "
                             f"minimum and a maximum per dimension), got {len(ranges)}")
        bounds = np.array([check_number(r, fn, "ranges") for r in ranges]).reshape(dims, 2)
        low, high = bounds[:, 0], bounds[:, 1]
    return [np.linspace(low[i], high[i], counts[i] + 1).astype(dtype) for i in range(dims)]


@op(method=True)
def histogramdd(x, bins=10, ranges=None, density=False, weights=None, name=None):
    """The histogram of the points of ``x`` (its last axis is the point's dimension D).

    ``bins`` is a count for every dimension, a list of D counts, or a list of D edge
    Tensors. ``ranges`` (``[min0, max0, min1, max1, ...]``) defaults to the data's.
    The last bin of each dimension includes its upper edge; points outside are not
    counted. ``weights`` (x's shape without its last axis) weights the points;
    ``density`` divides by the total and each bin's volume. Returns ``(hist,
    edges)``, with x's dtype. No gradient. Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0]])
    >>> hist, edges = pylayer.histogramdd(x, bins=2)
    >>> hist.numpy(), edges[0].numpy()
    (array([[0., 1.],
           [2., 1.]], dtype=float32), array([0., 1., 2.], dtype=float32))
    """
    fn = "histogramdd"
    x = float_tensor(x, fn)
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least 2 "
                         f"dimensions (points and their coordinates), got shape {x.shape}")
    if not isinstance(density, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument 'density' must be a bool, got {describe(density)}")
    a = x._array
    dims = a.shape[-1]
    data = a.reshape(-1, dims)
    if weights is not None:
        weights = as_tensor_arg(weights, fn, "weights", 5)
        if weights.shape != x.shape[:-1] or weights._array.dtype != a.dtype:
            raise ValueError(f"{fn}(): argument 'weights' must have x's shape without its "
                             f"last axis ({x.shape[:-1]}) and x's dtype ({x.dtype.name}), "
                             f"got shape {weights.shape} and dtype {weights.dtype.name}")
        weights = weights._array.reshape(-1)
    edges = _histogramdd_edges(fn, bins, ranges, data, dims, a.dtype)
    shape = tuple(e.size - 1 for e in edges)
    check_count(math.prod(shape), fn, "bins", np.float64)
    inside = np.ones(data.shape[0], bool)
    which = []
    for i, e in enumerate(edges):
        column = data[:, i]
        place = np.searchsorted(e, column, side="right") - 1
        place = np.where(column == e[-1], e.size - 2, place)
        inside &= (place >= 0) & (place < e.size - 1) & (e.size > 1)
        which.append(place)
    flat = np.ravel_multi_index([w[inside] for w in which], shape) if inside.any() else \
        np.zeros(0, np.int64)
    counted = None if weights is None else weights[inside].astype(np.float64)
    hist = np.bincount(flat, weights=counted, minlength=math.prod(shape)).astype(np.float64)
    hist = hist.reshape(shape)
    if density:
        volume = np.ones(shape)
        for i, e in enumerate(edges):
            volume = volume * np.diff(e.astype(np.float64)).reshape(
                [-1 if j == i else 1 for j in range(dims)])
        with np.errstate(all="ignore"):
            hist = hist / hist.sum() / volume
    return make_tensor(hist.astype(a.dtype)), [make_tensor(e) for e in edges]


# --------------------------------------------------------------- distances
_COMPUTE_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                  "donot_use_mm_for_euclid_dist")


@op(method=True)
def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """The ``p``-norm distance between each row of ``x`` (``[..., P, M]``) and each row
    of ``y`` (``[..., R, M]``): a ``[..., P, R]`` tensor (batch dimensions broadcast).

    ``p >= 0``: ``0`` counts differing coordinates, ``inf`` takes the largest
    difference. For ``p=2``, ``compute_mode`` chooses, as in Paddle, whether to use a
    matrix product (``|x|^2 + |y|^2 - 2 x y^T``, in the result's memory; by default
    when either side has more than 25 rows) or the differences themselves. The
    gradient is 0 where a distance is 0. Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[0.0, 0.0], [3.0, 4.0]])
    >>> pylayer.cdist(x, pylayer.to_tensor([[0.0, 0.0]])).numpy()
    array([[0.],
           [5.]], dtype=float32)
    """
    fn = "cdist"
    x = float_tensor(x, fn, "x", 1)
    y = float_tensor(y, fn, "y", 2)
    p = check_number(p, fn, "p", minimum=0.0)
    check_choice(compute_mode, fn, "compute_mode", _COMPUTE_MODES)
    for arg, t in (("x", x), ("y", y)):
        if t.ndim < 2:
            raise ValueError(f"{fn}(): argument '{arg}' must have at least 2 dimensions (rows "
                             f"and their coordinates), got shape {t.shape}")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"{fn}(): arguments 'x' and 'y' must have rows of the same length, "
                         f"got shapes {x.shape} and {y.shape}")
    try:
        np.broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]))
    except ValueError:
        raise ValueError(f"{fn}(): the batch dimensions of 'x' and 'y' must broadcast "
                         f"together, got shapes {x.shape} and {y.shape}") from None
    if p == 2.0 and (compute_mode == "use_mm_for_euclid_dist" or (
            compute_mode == "use_mm_for_euclid_dist_if_necessary"
            and (x.shape[-2] > 25 or y.shape[-2] > 25))):
        return _euclidean_by_matmul(x, y)
    differences = _ar.subtract(_sh.unsqueeze(x, -2), _sh.unsqueeze(y, -3))
    return vector_norm_of(differences, p, (differences.ndim - 1,), False)


def _euclidean_by_matmul(x, y):
    """``|x_i - y_j|`` from ``|x_i|^2 + |y_j|^2 - 2 x_i . y_j``: memory for the result
    only, not for every difference. A square that rounds to 0 or below gives 0, with
    gradient 0."""
    from pylayer.ops.linalg import matmul
    x_squares = _rd.sum(_ar.multiply(x, x), axis=-1, keepdim=True)
    y_squares = _rd.sum(_ar.multiply(y, y), axis=-1, keepdim=True)
    swap = list(range(y.ndim - 2)) + [y.ndim - 1, y.ndim - 2]
    squares = _ar.subtract(_ar.add(x_squares, _sh.transpose(y_squares, swap)),
                           _ar.scale(matmul(x, y, transpose_y=True), 2.0))
    positive = make_tensor(squares.numpy() > 0)
    return _m.where(positive, _m.sqrt(_m.where(positive, squares, 1.0)), 0.0)


@op
def pdist(x, p=2.0, name=None):
    """The ``p``-norm distance between every pair of rows ``i < j`` of the 2-D ``x``, in
    the order (0, 1), (0, 2), ..., (1, 2), ...: ``N * (N - 1) / 2`` values.

    The gradient is 0 where a distance is 0.

    >>> import pylayer
    >>> pylayer.pdist(pylayer.to_tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])).numpy()
    array([ 5., 10.,  5.], dtype=float32)
    """
    fn = "pdist"
    x = float_tensor(x, fn, "x", 1)
    p = check_number(p, fn, "p", minimum=0.0)
    if x.ndim != 2:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must be 2-D (rows and their "
                         f"coordinates), got shape {x.shape}")
    first, second = np.triu_indices(x.shape[0], 1)
    differences = _ar.subtract(_mp.index_select(x, make_tensor(first.astype(np.int64))),
                               _mp.index_select(x, make_tensor(second.astype(np.int64))))
    return vector_norm_of(differences, p, (1,), False)


@op(method=True, inplace=True)
def renorm(x, p, axis, max_norm):
    """``x`` with each slice along ``axis`` whose ``p``-norm exceeds ``max_norm`` scaled
    down to norm ``max_norm``.

    ``p > 0`` (``inf`` included). The gradient goes through the norms. Also a Tensor
    method, with the in-place form ``renorm_``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[3.0, 4.0], [0.3, 0.4]])
    >>> pylayer.renorm(x, 2.0, 0, 1.0).numpy()
    array([[0.6, 0.8],
           [0.3, 0.4]], dtype=float32)
    """
    fn = "renorm"
    x = float_tensor(x, fn)
    p = check_number(p, fn, "p")
    if not p > 0:
        raise ValueError(f"{fn}(): argument 'p' must be greater than 0, got {p}")
    axis = _one_axis(axis, x.ndim, fn, allow_none=False)
    max_norm = check_number(max_norm, fn, "max_norm")
    if x.ndim == 0:
        return _sh.reshape(renorm(_sh.reshape(x, [1]), p, 0, max_norm), [])
    others = tuple(i for i in range(x.ndim) if i != axis)
    norms = vector_norm_of(x, p, others or None, True) if others else _m.abs(x)
    over = make_tensor(norms.numpy() > max_norm)
    factor = _m.where(over, _ar.scale(_m.reciprocal(_m.where(over, norms, 1.0)), max_norm), 1.0)
    return _ar.multiply(x, factor)


# ------------------------------------------------------------------- traces
def _trace_vjp(g, x_shape, offset, axis1, axis2):
    kept = [1 if i in (axis1, axis2) else s for i, s in enumerate(x_shape)]
    mask = np.zeros([x_shape[axis1], x_shape[axis2]], bool)
    np.fill_diagonal(mask[max(-offset, 0):, max(offset, 0):], True)
    mask = mask.reshape([s if i in (axis1, axis2) else 1 for i, s in enumerate(x_shape)]) \
        if axis1 < axis2 else mask.T.reshape(
            [x_shape[i] if i in (axis1, axis2) else 1 for i in range(len(x_shape))])
    spread = _sh.expand(_sh.reshape(g, kept), list(x_shape))
    return _ar.multiply(spread, make_tensor(mask.astype(g.numpy().dtype)))


TRACE = Op("trace", attrs=("x_shape", "offset", "axis1", "axis2"), vjp=(_trace_vjp,))


@op(method=True)
def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """The sum of the diagonal ``offset`` (above the main one when positive) of the
    matrices over ``axis1`` and ``axis2``; the other axes remain.

    Integer tensors keep their dtype. Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> pylayer.trace(x).numpy(), pylayer.trace(x, offset=1).numpy()
    (array(6., dtype=float32), array(8., dtype=float32))
    """
    fn = "trace"
    x = _no_bool(as_tensor_arg(x, fn, "x", 1), fn)
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least 2 "
                         f"dimensions, got shape {x.shape}")
    offset = check_int(offset, fn, "offset")
    axis1 = _one_axis(axis1, x.ndim, fn, "axis1", allow_none=False)
    axis2 = _one_axis(axis2, x.ndim, fn, "axis2", allow_none=False)
    if axis1 == axis2:
        raise ValueError(f"{fn}(): arguments 'axis1' and 'axis2' must be different axes, "
                         f"got {axis1} and {axis2}")
    a = x._array
    out = np.asarray(np.trace(a, offset=offset, axis1=axis1, axis2=axis2, dtype=a.dtype))
    return make_output(TRACE, out, (x,), (a.shape, offset, axis1, axis2))


@op(method=True)
def reduce_as(x, target, name=None):
    """``x`` summed down to the shape of ``target`` (which must broadcast to x's shape).

    Integer and bool tensors give int64, as ``sum`` does. ``target`` gives only its
    shape and gets no gradient. Also a Tensor method.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> pylayer.reduce_as(x, pylayer.zeros([3])).numpy()
    array([5., 7., 9.], dtype=float32)
    """
    fn = "reduce_as"
    x = as_tensor_arg(x, fn, "x", 1)
    target = as_tensor_arg(target, fn, "target", 2)
    shape, goal = x.shape, target.shape
    extra = len(shape) - len(goal)
    if extra < 0 or any(t not in (1, s) for s, t in zip(shape[extra:], goal)):
        raise ValueError(f"{fn}(): the shape of 'target' ({goal}) must broadcast to the shape "
                         f"of 'x' ({shape})")
    axes = list(range(extra)) + [extra + i for i, (s, t) in enumerate(zip(shape[extra:], goal))
                                 if t == 1 and s != 1]
    if not axes:
        return _sh.reshape(x, goal)
    return _sh.reshape(_rd.sum(x, axis=axes, keepdim=True), goal)


# ----------------------------------------- Paddle's function-level in-place twins
cumprod_ = inplace_twin(cumprod)
renorm_ = inplace_twin(renorm)
