"""The op database of selecting, placing and products (ops/selection.py and the products of
ops/linalg.py): one OpInfo per op, with a numpy reference written here."""
import numpy as np

import pylayer

from opinfo import COMPLEX, FLOATS, INTS, NUMBERS, OpInfo, T, bounded, samples
from _hostile_values import A, K, Call, _value, f23, i23

_I64 = np.int64


# ------------------------------------------------------------------ references
def _unique(x, **flags):
    out, index, inverse, counts = np.unique(x.reshape(-1), True, True, True, equal_nan=False)
    extras = [e.astype(_I64) for e, key in ((index, "return_index"),
                                            (inverse.reshape(-1), "return_inverse"),
                                            (counts, "return_counts")) if flags.get(key)]
    return [out] + extras if extras else out


def _unique_consecutive(x, return_inverse=False, return_counts=False):
    flat = x.reshape(-1)
    starts = np.r_[True, flat[1:] != flat[:-1]] if flat.size else np.zeros(0, bool)
    out = flat[starts]
    extras = []
    if return_inverse:
        extras.append((np.cumsum(starts) - 1).astype(_I64))
    if return_counts:
        extras.append(np.diff(np.r_[np.flatnonzero(starts), flat.size]).astype(_I64))
    return [out] + extras if extras else out


def _masked_scatter(x, mask, value):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    out = np.array(np.broadcast_to(x, shape))
    full = np.broadcast_to(mask, shape)
    out[full] = value.reshape(-1)[:full.sum()]
    return out


def _searchsorted(sequence, values, right=False):
    side = "right" if right else "left"
    if sequence.ndim == 1:
        return np.searchsorted(sequence, values, side).astype(_I64)
    rows = [np.searchsorted(s, v, side) for s, v in zip(sequence.reshape(-1, sequence.shape[-1]),
                                                        values.reshape(-1, values.shape[-1]))]
    return np.array(rows, _I64).reshape(values.shape)


def _index_fill(x, index, axis, value):
    out = np.array(x)
    where = [slice(None)] * x.ndim
    where[axis] = index
    out[tuple(where)] = value
    return out


def _take(x, index, mode="raise"):
    return np.take(x.reshape(-1), index, mode=mode)


def _select_scatter(x, values, axis, index):
    out = np.array(x)
    where = [slice(None)] * x.ndim
    where[axis] = index
    out[tuple(where)] = values
    return out


def _slice_scatter(x, value, axes, starts, ends, strides):
    out = np.array(x)
    where = [slice(None)] * x.ndim
    for axis, start, end, stride in zip(axes, starts, ends, strides):
        where[axis] = slice(start, end, stride)
    out[tuple(where)] = value
    return out


def _diagonal_scatter(x, y, offset=0, axis1=0, axis2=1):
    out = np.array(x)
    positions = np.diagonal(np.arange(x.size).reshape(x.shape), offset, axis1, axis2)
    out.reshape(-1)[positions] = y
    return out


def _scatter_reduce(x, dim, index, src, reduce="sum", include_self=True):
    out = np.array(x, dtype=np.float64 if x.dtype.kind == "f" else x.dtype)
    sent = {}
    for where in np.ndindex(*index.shape):
        target = list(where)
        target[dim] = index[where]
        sent.setdefault(tuple(target), []).append(src[where])
    for target, values in sent.items():
        values = ([x[target]] if include_self else []) + values
        if reduce == "sum":
            out[target] = np.sum(values)
        elif reduce == "prod":
            out[target] = np.prod(values)
        elif reduce == "mean":
            out[target] = np.sum(values) / len(values)
        else:
            out[target] = np.min(values) if reduce == "amin" else np.max(values)
    return out.astype(x.dtype)


def _multiplex(a, b, index):
    return np.where(index == 1, b, a)


def _shard_index(x, index_num, nshards, shard_id, ignore_value=-1):
    size = -(-index_num // nshards)
    return np.where(x // size == shard_id, x % size, ignore_value).astype(x.dtype)


def _baddbmm(input, x, y, beta=1.0, alpha=1.0):
    if input.ndim == 2:                     # one row per batch, as in Paddle
        input = input[:, None, :]
    return (beta * input + alpha * np.matmul(x, y)).astype(x.dtype)


def _same(fn):
    """A reference whose result keeps the dtype of its first operand (numpy's scalar rules
    would widen it)."""
    return lambda x, *args, **kwargs: np.asarray(fn(x, *args, **kwargs)).astype(x.dtype)


# --------------------------------------------------------------------- samples
_SORTED = np.array([[-1.5, -0.5, 0.0, 0.75, 1.5], [-1.0, -0.25, 0.5, 1.0, 1.75]])
_BOUNDARIES = np.array([-1.0, 0.0, 0.5, 1.5])
_ALONG = np.array([[0, 1, 0], [1, 1, 0]])
_PERMUTED = np.array([[0, 1, 1], [1, 0, 0]])       # each target of [2, 3] reached once
_MASK = np.array([[True, False, True], [False, True, True]])
_PICK = np.array([[1], [0], [1]])

ENTRIES = [
    # ---------------------------------------------------------- unique values
    OpInfo("unique", _unique, samples((T((2, 3)),), (T((0,)),)), dtypes=NUMBERS,
           domain=(-3, 3), differentiable=False, static=False,
           call=Call(A("x", f23, "real_tensor"), K("axis", _value(0), "int_axis_or_none"),
                     K("dtype", _value("int32"), "dtype"))),
    OpInfo("unique", _unique, samples(((T((3, 4)),), {"return_index": True,
                                                      "return_inverse": True,
                                                      "return_counts": True})),
           dtypes=NUMBERS, domain=(-3, 3), differentiable=False, static=False, variant="all"),
    OpInfo("unique_consecutive", _unique_consecutive, samples(
        (T((8,)),), ((T((2, 5)),), {"return_inverse": True, "return_counts": True})),
           dtypes=NUMBERS, domain=(-1, 1), differentiable=False, static=False,
           call=Call(A("x", f23, "real_tensor"), K("axis", _value(0), "int_axis_or_none"),
                     K("dtype", _value("int32"), "dtype"))),
    OpInfo("argwhere", lambda x: np.argwhere(x).astype(_I64), samples((T((2, 3)),), (T((4,)),)),
           dtypes=INTS + ("bool",), domain=(-1, 1), differentiable=False, static=False,
           call=Call(A("input", f23, "tensor"),
                     extra=[("a 0-d tensor", {"input": lambda env: pylayer.ones([])},
                             "input")])),
    # ------------------------------------------------------- sorted sequences
    OpInfo("searchsorted", _searchsorted, samples(
        (_SORTED, T((2, 3))), ((_SORTED[0], T((4,))), {"right": True}), (_SORTED[1], T(()))),
           differentiable=False,
           call=Call(A("sorted_sequence", lambda env: pylayer.to_tensor([1.0, 2.0, 3.0]),
                       "real_tensor"),
                     A("values", f23, "real_tensor"),
                     K("side", _value("right"), "str_or_none"),
                     extra=[("leading dimensions that differ",
                             {"sorted_sequence": lambda env: pylayer.ones([3, 2])},
                             ("sorted_sequence", "values"))])),
    OpInfo("bucketize", lambda x, s, right=False: np.searchsorted(
        s, x, "right" if right else "left").astype(_I64),
           samples((T((2, 3)), _BOUNDARIES), ((T((5,)), _BOUNDARIES), {"right": True})),
           differentiable=False,
           call=Call(A("x", f23, "real_tensor"),
                     A("sorted_sequence", lambda env: pylayer.to_tensor([1.0, 2.0]),
                       "real_tensor"),
                     extra=[("a 2-D sequence",
                             {"sorted_sequence": lambda env: pylayer.ones([2, 2])},
                             "sorted_sequence")])),
    OpInfo("isin", lambda x, test_x, **kw: np.isin(x, test_x, **kw), samples(
        (T((2, 3)), T((4,))), ((T((3,)), T((2,))), {"invert": True})),
           dtypes=NUMBERS, domain=(-3, 3), differentiable=False,
           call=Call(A("x", i23, "real_tensor"), A("test_x", i23, "real_tensor"),
                     extra=[("an int x with float test values",
                             {"test_x": lambda env: pylayer.ones([2])}, ("x", "test_x"))])),
    OpInfo("shard_index", _shard_index, samples(
        (np.array([[16], [1], [19]]), 20, 2, 0), (np.array([[[3], [9]]]), 10, 3, 1, 7)),
           differentiable=False,
           call=Call(A("input", lambda env: pylayer.to_tensor([[1], [5]]), "int_tensor"),
                     A("index_num", _value(10), "count"), A("nshards", _value(2), "count"),
                     A("shard_id", _value(1), "count"),
                     extra=[("a shard past nshards", {"shard_id": _value(2)}, "shard_id"),
                            ("a value past index_num", {"index_num": _value(3)},
                             ("input", "index_num"))])),
    # ------------------------------------------------------------- placing
    OpInfo("masked_scatter", _masked_scatter, samples(
        (T((2, 3)), _MASK, T((5,))), (T((2, 3)), _MASK[1], T((2, 4))), (T((3,)), _MASK, T((4,)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("mask", lambda env: pylayer.to_tensor(_MASK),
                                               "tensor"),
                     A("value", f23, "tensor"),
                     extra=[("too few values", {"value": lambda env: pylayer.ones([2])},
                             "value"),
                            ("a float mask", {"mask": f23}, "mask")])),
    OpInfo("index_fill", _index_fill, samples(
        (T((2, 3)), np.array([0, 2, 0]), 1, -1.5), (T((3, 2)), np.array([-1]), 0, 2)),
           dtypes=NUMBERS,
           call=Call(A("x", f23, "tensor"), A("index", _value([0, 1]), "index"),
                     A("axis", _value(1), "int_axis"), A("value", _value(2.0), "number"))),
    OpInfo("take", _take, samples(
        (T((2, 3)), np.array([[0, 5], [-1, 2]])), (T((2, 3)), np.array([7, -8, 1]), "wrap"),
        ((T((4,)), np.array([9, -9, 2, 2])), {"mode": "clip"})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("index", _value([0, 5]), "index"),
                     K("mode", _value("raise"), "str"),
                     extra=[("an unknown mode", {"mode": _value("nearest")}, "mode")])),
    OpInfo("take_along_dim", np.take_along_axis, samples(
        (T((2, 3)), _ALONG, 0), (T((2, 3)), np.array([[2], [0]]), 1)),
           dtypes=NUMBERS,
           call=Call(A("arr", f23, "tensor"), A("indices", _value([[0], [1]]), "index"),
                     A("axis", _value(1), "int_axis"))),
    OpInfo("select_scatter", _select_scatter, samples(
        (T((2, 3)), T((2,)), 1, -1), (T((3, 2, 2)), T((2, 2)), 0, 1)),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("values", lambda env: pylayer.ones([2]), "tensor"),
                     A("axis", _value(1), "int_axis"), A("index", _value(0), "int"),
                     extra=[("an index out of range", {"index": _value(3)}, "index"),
                            ("values of the wrong shape",
                             {"values": lambda env: pylayer.ones([3])}, "values")])),
    OpInfo("slice_scatter", _slice_scatter, samples(
        (T((2, 4)), T((2, 2)), [1], [0], [4], [2]),
        (T((3, 4)), T((2, 2)), [0, 1], [0, -3], [3, 100], [2, 2]),
        (T((2, 4)), T((2, 2)), [1], [3], [0], [-2])),
           dtypes=NUMBERS,
           call=Call(A("x", f23, "tensor"), A("value", lambda env: pylayer.ones([2, 2]),
                                               "tensor"),
                     A("axes", _value([1]), "int_list"), A("starts", _value([0]), "int_list"),
                     A("ends", _value([3]), "int_list"), A("strides", _value([2]), "int_list"),
                     extra=[("a zero stride", {"strides": _value([0])}, "strides"),
                            ("a value of the wrong shape",
                             {"value": lambda env: pylayer.ones([2, 3])}, "value")])),
    OpInfo("diagonal_scatter", _diagonal_scatter, samples(
        (T((2, 3)), T((2,)), 1), (T((3, 3)), T((2,)), -1), (T((2, 3, 2)), T((3, 2)), 0, 0, 2)),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("y", lambda env: pylayer.ones([2]), "tensor"),
                     K("offset", _value(0), "int"), K("axis1", _value(0), "int_axis"),
                     K("axis2", _value(1), "int_axis"),
                     extra=[("y of the wrong shape", {"y": lambda env: pylayer.ones([3])}, "y"),
                            ("the same axis twice", {"axis2": _value(0)},
                             ("axis1", "axis2"))])),
    # ---------------------------------------------------------- scatter along
    OpInfo("scatter_add", lambda x, dim, index, src: _scatter_reduce(x, dim, index, src),
           samples((T((2, 3)), 0, _ALONG, T((2, 3))), (T((2, 3)), 1, np.array([[0], [2]]),
                                                          T((2, 3)))),
           dtypes=NUMBERS,
           call=Call(A("input", f23, "tensor"), A("dim", _value(1), "int_axis"),
                     A("index", _value([[0], [1]]), "index"), A("src", f23, "tensor"),
                     extra=[("an index larger than src",
                             {"index": _value([[0, 1, 2, 0]])}, "index")])),
    *[OpInfo("scatter_reduce", _scatter_reduce, samples(
        (T((2, 3)), 0, _ALONG, T((2, 3)), reduce),
        ((T((2, 3)), 0, _ALONG, T((2, 3)), reduce), {"include_self": False}),
        (T((2, 3)), 1, np.array([[0], [2]]), T((2, 3)), reduce)),
              dtypes=FLOATS, domain=(0.5, 2.0), variant="" if reduce == "sum" else reduce,
              call=Call(A("input", f23, "tensor"), A("dim", _value(1), "int_axis"),
                        A("index", _value([[0], [1]]), "index"), A("src", f23, "tensor"),
                        A("reduce", _value("amax"), "str"),
                        extra=[("an unknown reduction", {"reduce": _value("max")},
                                "reduce")]) if reduce == "sum" else None)
      for reduce in ("sum", "prod", "mean", "amin", "amax")],
    OpInfo("scatter_reduce", _scatter_reduce, samples(
        (T((2, 3)), 0, _PERMUTED, T((2, 3)), "prod")), dtypes=FLOATS, variant="prod_signs"),
    OpInfo("multiplex", _multiplex, samples((T((3, 2)), T((3, 2)), _PICK)),
           op=lambda a, b, index: pylayer.multiplex([a, b], index), dtypes=NUMBERS,
           call=Call(A("inputs", lambda env: [pylayer.ones([2, 2]), pylayer.zeros([2, 2])],
                       "tensors"),
                     A("index", _value([[1], [0]]), "index"),
                     extra=[("an index out of range", {"index": _value([[2], [0]])}, "index"),
                            ("one input", {"inputs": lambda env: [pylayer.ones([2, 2])]},
                             "inputs")])),
    # -------------------------------------------------- products (ops/linalg.py)
    OpInfo("mm", np.matmul, samples((T((2, 3)), T((3, 4))), (T((2, 2, 3)), T((3, 2)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("input", f23, "tensor"), A("mat2", lambda env: pylayer.ones([3, 2]),
                                                   "tensor"),
                     extra=[("inner sizes that differ",
                             {"mat2": lambda env: pylayer.ones([2, 2])}, ("input", "mat2"))])),
    OpInfo("mv", np.matmul, samples((T((2, 3)), T((3,)))), dtypes=FLOATS + COMPLEX,
           call=Call(A("x", f23, "inexact_tensor"), A("vec", lambda env: pylayer.ones([3]),
                                                       "inexact_tensor"),
                     extra=[("a vector of the wrong size",
                             {"vec": lambda env: pylayer.ones([2])}, ("x", "vec"))])),
    OpInfo("baddbmm", _baddbmm, samples(
        (T((2, 3, 4)), T((2, 3, 2)), T((2, 2, 4))),
        ((T((2, 1, 4)), T((2, 3, 2)), T((2, 2, 4))), {"beta": 0.5, "alpha": 2.0}),
        (T((2, 4)), T((2, 3, 2)), T((2, 2, 4)))),
           call=Call(A("input", lambda env: pylayer.ones([1, 2, 2]), "float_tensor"),
                     A("x", lambda env: pylayer.ones([1, 2, 3]), "float_tensor"),
                     A("y", lambda env: pylayer.ones([1, 3, 2]), "float_tensor"),
                     K("beta", _value(0.5), "number"), K("alpha", _value(2.0), "number"),
                     extra=[("an input that does not broadcast",
                             {"input": lambda env: pylayer.ones([3, 2, 2])}, "input")])),
    OpInfo("outer", lambda x, y: np.outer(x, y), samples((T((3,)), T((2,))), (T((2, 2)), T(())),
                                                         (T((0,)), T((2,)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                     K("out", _value(None), "out_tensor"),
                     extra=[("an int y beside a float x", {"y": i23}, ("x", "y"))])),
    OpInfo("ger", lambda x, y: np.outer(x, y), samples((T((3,)), T((2,)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                     K("out", _value(None), "out_tensor"))),
    OpInfo("inner", _same(np.inner), samples((T((3, 2)), T((4, 2))), (T((2,)), T((2,))),
                                             (T(()), T((2, 3))), (T((2, 1, 3)), T((3,)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                     extra=[("last dimensions that differ",
                             {"y": lambda env: pylayer.ones([2])}, ("x", "y"))])),
    OpInfo("kron", _same(np.kron), samples((T((2, 2)), T((1, 3))), (T((2,)), T((2, 2))),
                                           (T(()), T((3,)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                     extra=[("operands of two dtypes",
                             {"y": lambda env: pylayer.ones([2], "float64")}, ("x", "y"))])),
    OpInfo("tensordot", _same(lambda x, y, axes=2: np.tensordot(x, y, axes)), samples(
        (T((2, 3, 4)), T((3, 4, 2))), ((T((2, 3)), T((3, 2))), {"axes": 1}),
        ((T((2, 3, 4)), T((4, 3, 2))), {"axes": [[1, 2], [1, 0]]}),
        ((T((2,)), T((3,))), {"axes": 0})),
           dtypes=NUMBERS + COMPLEX, smooth=bounded(30),
           call=Call(A("x", lambda env: pylayer.ones([2, 3]), "tensor"),
                     A("y", lambda env: pylayer.ones([3, 2]), "tensor"),
                     K("axes", _value(1), "int"),
                     extra=[("axes whose sizes differ", {"axes": _value([[0], [0]])},
                             "axes")])),
    OpInfo("cross", lambda x, y, axis=9: np.cross(
        x, y, axis=axis if axis != 9 else x.shape.index(3)).astype(x.dtype),
           samples((T((2, 3)), T((2, 3))), ((T((3, 2)), T((3, 2))), {"axis": 0}),
                   ((T((2, 3, 3)), T((2, 3, 3))), {"axis": -1})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                     K("axis", _value(1), "int_axis"),
                     extra=[("an axis of size 2", {"axis": _value(0)}, "axis"),
                            ("shapes that differ", {"y": lambda env: pylayer.ones([1, 3])},
                             ("x", "y"))])),
]
