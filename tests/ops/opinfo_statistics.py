"""The op database's entries for ``pylayer/ops/statistics.py``: norms and distances,
nan-aware reductions, medians, quantiles, modes, running products, maxima and
log-sum-exp, differences, the trapezoid rule, histograms, traces and ``reduce_as``.

Samples draw distinct random values, so the picking ops (medians, quantiles, modes,
running extremes) are smooth where central differences look; ties, NaNs and Paddle's
observed values are checked in ``test_statistics.py``."""
import numpy as np
import scipy.integrate
import scipy.spatial.distance

import pylayer

from opinfo import COMPLEX, FLOATS, INTS, NUMBERS, OpInfo, T, away_from_zero, bounded, samples
from _hostile_values import A, K, Call, _value, f3, f23


# ------------------------------------------------------------------ references
def _flat_norm(x, p):
    return np.linalg.norm(x.reshape(-1), ord=p) if x.size else np.float64(0)


def _norm(x, p=None, axis=None, keepdim=False):
    if axis is None and p != "nuc":
        out = _flat_norm(x, 2 if p in (None, "fro") else p)
        shape = [1] * x.ndim if keepdim else []
        return np.asarray(out).reshape(shape).astype(np.abs(x).dtype)
    if axis is None:
        axis = (0, 1)
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        order = "fro" if p is None else p
        return np.asarray(np.linalg.norm(x, ord=order, axis=tuple(axis), keepdims=keepdim)
                          ).astype(np.abs(x).dtype)
    order = 2 if p in (None, "fro") else p
    axis = axis[0] if isinstance(axis, (list, tuple)) else axis
    return np.asarray(np.linalg.norm(x, ord=order, axis=axis, keepdims=keepdim)
                      ).astype(np.abs(x).dtype)


def _dist(x, y, p=2):
    return np.asarray(_flat_norm(np.subtract(x, y), p)).astype(x.dtype)


def _extreme(np_fn):
    def ref(x, axis=None, keepdim=False):
        axis = tuple(axis) if isinstance(axis, list) else axis
        return np.asarray(np_fn(x, axis=axis, keepdims=keepdim)).astype(x.dtype)
    return ref


def _nansum(x, axis=None, keepdim=False):
    dtype = np.int64 if x.dtype.kind in "iub" else x.dtype
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.asarray(np.nansum(x, axis=axis, keepdims=keepdim)).astype(dtype)


def _nanmean(x, axis=None, keepdim=False):
    dtype = np.float32 if x.dtype.kind in "iu" else x.dtype
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.asarray(np.nanmean(x, axis=axis, keepdims=keepdim)).astype(dtype)


def _lower_median_with_index(x, axis):
    ranks = np.argsort(x, axis=axis, kind="stable")
    middle = np.take(ranks, [(x.shape[axis] - 1) // 2], axis=axis)
    return np.take_along_axis(x, middle, axis), middle


def _median(np_fn):
    def ref(x, axis=None, keepdim=False, mode="avg"):
        if mode == "min":
            values, index = _lower_median_with_index(x if axis is not None else x.reshape(-1),
                                                     axis if axis is not None else 0)
            if axis is None:
                return values.reshape([1] * x.ndim if keepdim else [])
            if not keepdim:
                values, index = np.squeeze(values, axis), np.squeeze(index, axis)
            return [values, index.astype(np.int64)]
        dtype = x.dtype if x.dtype.kind == "f" else np.float32
        axis = tuple(axis) if isinstance(axis, list) else axis
        return np.asarray(np_fn(x, axis=axis, keepdims=keepdim)).astype(dtype)
    return ref


def _quantile(np_fn):
    def ref(x, q, axis=None, keepdim=False, interpolation="linear"):
        axis = tuple(axis) if isinstance(axis, list) else axis
        return np.asarray(np_fn(x, q, axis=axis, keepdims=keepdim, method=interpolation)
                          ).astype(x.dtype)
    return ref


def _mode(x, axis=-1, keepdim=False):
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    values, indices = [], []
    for row in rows:
        found, counts = np.unique(row, return_counts=True)
        value = found[np.argmax(counts)]
        values.append(value)
        indices.append(np.flatnonzero(row == value)[-1])
    shape = moved.shape[:-1]
    values = np.moveaxis(np.asarray(values, x.dtype).reshape(shape + (1,)), -1, axis)
    indices = np.moveaxis(np.asarray(indices, np.int64).reshape(shape + (1,)), -1, axis)
    if not keepdim:
        values, indices = np.squeeze(values, axis), np.squeeze(indices, axis)
    return [values, indices]


def _kthvalue(x, k, axis=-1, keepdim=False):
    ranks = np.argsort(x, axis=axis, kind="stable")
    index = np.take(ranks, [k - 1], axis=axis)
    values = np.take_along_axis(x, index, axis)
    if not keepdim:
        values, index = np.squeeze(values, axis), np.squeeze(index, axis)
    return [values, index.astype(np.int64)]


def _count_nonzero(x, axis=None, keepdim=False):
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.asarray(np.count_nonzero(x, axis=axis, keepdims=keepdim), np.int64)


def _cumprod(x, dim=None):
    if dim is None:
        return np.cumprod(x.reshape(-1)).astype(x.dtype)
    return np.cumprod(x, axis=dim).astype(x.dtype)


def _running(better):
    """A running extreme with its indices, one element at a time."""
    def ref(x, axis=None):
        if axis is None:
            x, axis = x.reshape(-1), 0
        moved = np.moveaxis(x, axis, -1)
        values, indices = np.empty_like(moved), np.empty(moved.shape, np.int64)
        for row in np.ndindex(moved.shape[:-1]):
            best, where = None, 0
            for j, v in enumerate(moved[row]):
                if best is None or better(v, best) or v == best:
                    best, where = v, j
                values[row + (j,)], indices[row + (j,)] = best, where
        return [np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)]
    return ref


def _logcumsumexp(x, axis=None):
    if axis is None:
        x, axis = x.reshape(-1), 0
    return np.logaddexp.accumulate(x.astype(np.float64), axis=axis).astype(x.dtype)


def _diff(x, n=1, axis=-1, prepend=None, append=None):
    kwargs = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return np.diff(x, n=n, axis=axis, **kwargs)


def _trapezoid(y, x=None, dx=None, axis=-1):
    dtype = y.dtype if x is None else np.result_type(y, x)
    return np.asarray(np.trapezoid(y, x=x, dx=1.0 if dx is None else dx, axis=axis)
                      ).astype(dtype)


def _cumulative_trapezoid(y, x=None, dx=None, axis=-1):
    dtype = y.dtype if x is None else np.result_type(y, x)
    return scipy.integrate.cumulative_trapezoid(y, x=x, dx=1.0 if dx is None else dx,
                                                axis=axis).astype(dtype)


def _histogram_bin_edges(input, bins=100, min=0.0, max=0.0):
    span = None if min == 0 and max == 0 else (min, max)
    return np.histogram_bin_edges(input.astype(np.float64), bins, range=span).astype(np.float32)


def _histogramdd(x, bins=10, ranges=None, density=False, weights=None):
    data = x.reshape(-1, x.shape[-1])
    span = None if ranges is None else np.reshape(ranges, (-1, 2))
    hist, edges = np.histogramdd(data, bins=bins, range=span, density=density,
                                 weights=None if weights is None else weights.reshape(-1))
    return [hist.astype(x.dtype)] + [e.astype(x.dtype) for e in edges]


def _histogramdd_flat(*args, **kwargs):
    """histogramdd's ``(hist, [edges...])`` as one list, for the checks."""
    hist, edges = pylayer.histogramdd(*args, **kwargs)
    return [hist] + list(edges)


def _cdist(x, y, p=2.0):
    return np.linalg.norm(x[..., :, None, :] - y[..., None, :, :], ord=p, axis=-1).astype(x.dtype)


def _pdist(x, p=2.0):
    return scipy.spatial.distance.pdist(x, "minkowski", p=p).astype(x.dtype)


def _renorm(x, p, axis, max_norm):
    others = tuple(i for i in range(x.ndim) if i != axis)
    norms = np.sum(np.abs(x) ** p, axis=others, keepdims=True) ** (1.0 / p)
    return (x * np.where(norms > max_norm, max_norm / norms, 1.0)).astype(x.dtype)


def _trace(x, offset=0, axis1=0, axis2=1):
    return np.asarray(np.trace(x, offset=offset, axis1=axis1, axis2=axis2)).astype(x.dtype)


def _reduce_as(x, target):
    extra = x.ndim - target.ndim
    out = np.sum(x, axis=tuple(range(extra))) if extra else x
    axes = tuple(i for i, (s, t) in enumerate(zip(out.shape, target.shape)) if t == 1 and s != 1)
    if not extra and not axes:
        return x
    out = np.sum(out, axis=axes, keepdims=True)
    return out.astype(np.int64 if x.dtype.kind in "iub" and x.dtype.itemsize < 8 else x.dtype)


# ------------------------------------------------------------------- entries
_NORM_CALL = Call(A("x", f23, "inexact_tensor"), K("p", _value(2.0), "number_or_none"),
                  K("axis", _value(1), "axis"), K("dtype", _value("float64"), "dtype"),
                  extra=[("an unknown p", {"p": _value("spam")}, "p"),
                         ("p=3 over two axes", {"p": _value(3.0), "axis": _value([0, 1])},
                          "p")])
_Q = dict(dtypes=FLOATS, domain=(-3.0, 3.0))
_X234 = T((2, 3, 4))
_PICK_CALL = Call(A("x", f23, "real_tensor"), K("axis", _value(1), "int_axis"))

ENTRIES = [
    OpInfo("norm", _norm, samples(
        (T((2, 3)),), ((T((2, 3)),), {"p": 1, "axis": 1}), ((T((2, 3)),), {"p": 3.0, "axis": 0}),
        ((T((2, 3)),), {"p": float("inf"), "axis": [1], "keepdim": True}),
        ((T((2, 3)),), {"p": -float("inf")}), ((_X234,), {"p": "fro", "axis": [2, 0]}),
        ((_X234,), {"p": 1, "axis": [0, 2]}), ((_X234,), {"p": float("inf"), "axis": [2, 1]}),
        ((T((2, 3)),), {"p": 0.5, "axis": -1}), ((T((2, 3)),), {"p": 2, "keepdim": True})),
           dtypes=FLOATS + COMPLEX, domain=(0.5, 2.0), call=_NORM_CALL,
           smooth=away_from_zero(0.1)),
    OpInfo("norm", _norm, samples(
        ((T((3, 2)),), {"p": "nuc"}), ((_X234,), {"p": 2, "axis": [1, 2]}),
        ((_X234,), {"p": -2, "axis": [2, 0], "keepdim": True})),
           variant="singular_values", second_order=False, tolerance={"float32": (1e-5, 1e-6)}),
    OpInfo("dist", _dist, samples((T((2, 3)), T((3,), -2.0, -0.5))),
           domain=(0.5, 2.0), call=Call(A("x", f23, "float_tensor"), A("y", f3, "float_tensor"),
                                        K("p", _value(2.0), "number"))),
    OpInfo("dist", lambda x, y, p: _dist(x, y, p), samples(
        (T((2, 3)), T((2, 3), -2.0, -0.5), 1.0), (T((3,)), T((3,), -2.0, -0.5), float("inf")),
        (T((3,)), T((3,), -2.0, -0.5), 0.5)), domain=(0.5, 2.0), variant="p"),
    OpInfo("amax", _extreme(np.max), samples(
        (_X234,), ((_X234,), {"axis": 1}), ((_X234,), {"axis": [0, 2], "keepdim": True})),
           dtypes=NUMBERS, domain=(-100.0, 100.0),
           call=Call(A("x", f23, "real_tensor"), K("axis", _value(1), "axis"))),
    OpInfo("amin", _extreme(np.min), samples(
        (_X234,), ((_X234,), {"axis": -1}), ((_X234,), {"axis": [1, 2], "keepdim": True})),
           dtypes=NUMBERS, domain=(-100.0, 100.0),
           call=Call(A("x", f23, "real_tensor"), K("axis", _value(1), "axis"))),
    OpInfo("nansum", _nansum, samples((_X234,), ((_X234,), {"axis": [0, 2], "keepdim": True})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("axis", _value(1), "axis"),
                     K("dtype", _value("float64"), "dtype"))),
    OpInfo("nanmean", _nanmean, samples((_X234,), ((_X234,), {"axis": 1, "keepdim": True})),
           dtypes=FLOATS + COMPLEX,
           call=Call(A("x", f23, "math_tensor"), K("axis", _value(1), "axis"))),
    OpInfo("median", _median(np.median), samples(
        (_X234,), ((_X234,), {"axis": 1}), ((T((2, 5)),), {"axis": 0, "keepdim": True}),
        ((T((2, 5)),), {"axis": 1, "mode": "min"}), ((_X234,), {"mode": "min"})),
           **_Q, call=Call(A("x", f23, "real_tensor"), K("axis", _value(1), "int_axis_or_none"),
                           K("mode", _value("min"), "str"),
                           extra=[("an unknown mode", {"mode": _value("max")}, "mode")])),
    OpInfo("nanmedian", _median(np.nanmedian), samples(
        (_X234,), ((_X234,), {"axis": [0, 2]}), ((T((2, 5)),), {"axis": 1, "keepdim": True})),
           **_Q, call=Call(A("x", f23, "real_tensor"), K("axis", _value(1), "axis"),
                           K("mode", _value("avg"), "str"))),
    OpInfo("quantile", _quantile(np.quantile), samples(
        (T((2, 5)), 0.3), ((_X234, [0.25, 0.5]), {"axis": 1}),
        ((_X234, 0.6), {"axis": [0, 2], "keepdim": True}),
        ((T((2, 5)), [0.1, 0.9]), {"axis": 1, "interpolation": "lower"}),
        ((T((2, 5)), 0.4), {"axis": 1, "interpolation": "higher"}),
        ((T((2, 5)), [0.3, 0.7]), {"axis": 1, "interpolation": "nearest"}),
        ((T((2, 5)), 0.3), {"axis": 0, "interpolation": "midpoint"})), **_Q,
           call=Call(A("x", f23, "float_tensor"), A("q", _value(0.5), "probability"),
                     K("axis", _value(1), "axis"),
                     K("interpolation", _value("lower"), "str"),
                     extra=[("an empty q", {"q": _value([])}, "q"),
                            ("an unknown interpolation", {"interpolation": _value("cubic")},
                             "interpolation")])),
    OpInfo("nanquantile", _quantile(np.nanquantile), samples(
        (T((2, 5)), 0.3), ((_X234, [0.25, 0.5]), {"axis": [2]})), **_Q,
           call=Call(A("x", f23, "float_tensor"), A("q", _value(0.5), "probability"),
                     K("axis", _value(1), "axis"))),
    OpInfo("mode", _mode, samples((T((2, 5)),), ((_X234,), {"axis": 1, "keepdim": True})),
           **_Q, call=_PICK_CALL),
    OpInfo("kthvalue", _kthvalue, samples(
        (T((2, 5)), 2), ((_X234, 3), {"axis": 1, "keepdim": True})), **_Q,
           call=Call(A("x", f23, "real_tensor"), A("k", _value(2), "size"),
                     K("axis", _value(1), "int_axis_or_none"),
                     extra=[("k beyond the axis", {"k": _value(4)}, "k")])),
    OpInfo("count_nonzero", _count_nonzero, samples(
        (np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]]),),
        ((T((2, 3)),), {"axis": 1}), ((T((2, 3)),), {"axis": [0, 1], "keepdim": True})),
           dtypes=NUMBERS, domain=(-1.0, 1.0), differentiable=False,
           call=Call(A("x", f23, "tensor"), K("axis", _value(1), "axis"))),
    OpInfo("cumprod", _cumprod, samples(
        (T((2, 3)),), ((_X234,), {"dim": 1}), ((T((4,)),), {"dim": -1})),
           dtypes=NUMBERS + COMPLEX, domain=(0.5, 1.5), smooth=bounded(3),
           call=Call(A("x", f23, "tensor"), K("dim", _value(1), "int_axis_or_none"),
                     K("dtype", _value("float64"), "dtype"))),
    OpInfo("cumprod", _cumprod, samples(
        (np.array([[2.0, 0.0, 3.0, 0.5], [0.0, 0.0, 2.0, 1.5]]),),), variant="zeros",
           differentiable=False),
    OpInfo("cummax", _running(np.greater), samples(
        (T((2, 3)),), ((_X234,), {"axis": 1})), dtypes=NUMBERS, domain=(-100.0, 100.0),
           call=Call(A("x", f23, "real_tensor"), K("axis", _value(1), "int_axis_or_none"),
                     K("dtype", _value("int32"), "dtype_required"))),
    OpInfo("cummin", _running(np.less), samples(
        (T((2, 3)),), ((_X234,), {"axis": -1})), dtypes=NUMBERS, domain=(-100.0, 100.0),
           call=Call(A("x", f23, "real_tensor"), K("axis", _value(1), "int_axis_or_none"),
                     K("dtype", _value("int32"), "dtype_required"))),
    OpInfo("logcumsumexp", _logcumsumexp, samples(
        (T((2, 3)),), ((_X234,), {"axis": 1}), ((T((5,)),), {"axis": 0})),
           call=Call(A("x", f23, "real_math_tensor"), K("axis", _value(1), "int_axis_or_none"),
                     K("dtype", _value("float64"), "dtype"))),
    OpInfo("diff", _diff, samples(
        (T((2, 4)),), ((_X234,), {"n": 2, "axis": 1}),
        ((T((2, 3)),), {"prepend": np.ones((2, 1)), "append": np.zeros((2, 2))})),
           dtypes=("float64",),
           call=Call(A("x", f23, "tensor"), K("n", _value(1), "count"),
                     K("axis", _value(1), "int_axis"),
                     K("prepend", lambda env: pylayer.ones([2, 1]), "tensor_or_none"),
                     extra=[("n=0", {"n": _value(0)}, "n"),
                            ("a prepend of another shape",
                             {"prepend": lambda env: pylayer.ones([3, 1])}, "prepend")])),
    OpInfo("diff", _diff, samples((T((2, 4)),), ((T((3, 2)),), {"axis": 0})),
           dtypes=INTS + ("float32",) + COMPLEX, variant="dtypes"),
    OpInfo("trapezoid", _trapezoid, samples(
        (T((2, 4)),), ((T((2, 4)),), {"dx": 0.5, "axis": 0}),
        ((T((2, 4)),), {"x": np.array([0.0, 0.5, 2.0, 3.5])})),
           call=Call(A("y", f23, "float_tensor"), K("x", _value(None), "tensor_or_none"),
                     K("dx", _value(0.5), "number_or_none"), K("axis", _value(1), "int_axis"),
                     extra=[("both x and dx", {"x": f3}, ("x", "dx"))])),
    OpInfo("trapezoid", lambda y, x, axis=-1: _trapezoid(y, x, axis=axis), samples(
        (T((2, 4)), T((4,), 0.0, 3.0)), ((T((3, 2)), T((3, 2), 0.0, 3.0)), {"axis": 0})),
           variant="x"),
    OpInfo("cumulative_trapezoid", _cumulative_trapezoid, samples(
        (T((2, 4)),), ((T((3, 2)),), {"dx": 2.0, "axis": 0}),
        ((T((2, 4)),), {"x": np.array([0.0, 0.5, 2.0, 3.5])})),
           call=Call(A("y", f23, "float_tensor"), K("dx", _value(0.5), "number_or_none"),
                     K("axis", _value(1), "int_axis"))),
    OpInfo("msort", lambda input: np.sort(input, axis=0, kind="stable"),
           samples((T((3, 2)),), (T((4,)),)), dtypes=NUMBERS, domain=(-100.0, 100.0),
           call=Call(A("input", f23, "real_tensor"))),
    OpInfo("histogram_bin_edges", _histogram_bin_edges, samples(
        ((T((2, 3)),), {"bins": 4}), ((T((5,)),), {"bins": 3, "min": -1.0, "max": 2.0})),
           dtypes=NUMBERS, differentiable=False,
           call=Call(A("input", f23, "real_tensor"), K("bins", _value(4), "count"),
                     K("min", _value(0.0), "number"), K("max", _value(2.0), "number"),
                     extra=[("max below min", {"min": _value(3.0)}, ("min", "max"))])),
    OpInfo("histogramdd", _histogramdd, samples(
        ((T((6, 2)),), {"bins": 3}), ((T((2, 4, 3)),), {"bins": [2, 3, 2]}),
        ((T((6, 2)),), {"bins": 2, "ranges": [-1.0, 1.0, 0.0, 2.0], "density": True})),
           dtypes=FLOATS, differentiable=False, op=_histogramdd_flat,
           static=False,   # a Tensor and a list of Tensors: the static recorder takes Tensors
           call=Call(A("x", f23, "float_tensor"), K("bins", _value(2), "count"),
                     K("ranges", _value([0.0, 1.0, 0.0, 1.0, 0.0, 1.0]), None),
                     extra=[("ranges of another length", {"ranges": _value([0.0, 1.0])},
                             "ranges"),
                            ("ranges as a string", {"ranges": _value("spam")}, "ranges")])),
    OpInfo("cdist", _cdist, samples(
        (T((3, 2)), T((4, 2), 3.0, 5.0)), ((T((3, 2)), T((2, 2), 3.0, 5.0)), {"p": 1.0}),
        ((T((2, 3, 2)), T((1, 2, 2), 3.0, 5.0)), {"p": 3.0}),
        ((T((3, 2)), T((2, 2), 3.0, 5.0)), {"p": float("inf")})),
           domain=(-1.0, 1.0),
           call=Call(A("x", f23, "float_tensor"), A("y", f23, "float_tensor"),
                     K("p", _value(2.0), "non_negative"),
                     K("compute_mode", _value("donot_use_mm_for_euclid_dist"), "str"),
                     extra=[("rows of another length",
                             {"y": lambda env: pylayer.ones([2, 4])}, ("x", "y"))])),
    OpInfo("pdist", _pdist, samples((T((4, 3)),), ((T((3, 2)),), {"p": 1.0})),
           domain=(-1.0, 1.0), tolerance={"float32": (1e-5, 1e-6)},
           call=Call(A("x", f23, "float_tensor"), K("p", _value(2.0), "non_negative"))),
    OpInfo("renorm", _renorm, samples(
        (T((3, 4)), 2.0, 0, 1.5), (_X234, 1.0, 1, 3.0), (T((3, 4)), float("inf"), -1, 1.2)),
           domain=(-1.0, 1.0),
           call=Call(A("x", f23, "float_tensor"), A("p", _value(2.0), "number"),
                     A("axis", _value(1), "int_axis"), A("max_norm", _value(1.0), "number"),
                     extra=[("p=0", {"p": _value(0.0)}, "p")])),
    OpInfo("trace", _trace, samples(
        (T((3, 4)),), ((T((3, 4)),), {"offset": 1}), ((T((3, 4)),), {"offset": -2}),
        ((_X234,), {"axis1": 2, "axis2": 0}), ((_X234,), {"offset": 1, "axis1": -1, "axis2": 1})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("offset", _value(1), "int"),
                     K("axis1", _value(1), "int_axis"), K("axis2", _value(0), "int_axis"),
                     extra=[("the same axis twice", {"axis1": _value(0)}, ("axis1", "axis2"))])),
    OpInfo("reduce_as", _reduce_as, samples(
        (_X234, np.zeros((3, 1))), (_X234, np.zeros((2, 1, 4))), (T((2, 3)), np.zeros((2, 3)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("target", f3, "tensor"),
                     extra=[("a target that does not broadcast",
                             {"target": lambda env: pylayer.ones([4])}, "target")])),
]
