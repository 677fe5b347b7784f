"""The op database entries of building and reshaping (``pylayer/ops/assembly.py``)."""
import itertools

import numpy as np

import pylayer

from opinfo import BOOL, COMPLEX, NUMBERS, OpInfo, T, samples
from _hostile_values import A, K, Call, _value, f23

ALL = NUMBERS + BOOL + COMPLEX


def _list_op(name):
    return lambda *xs, **kw: getattr(pylayer, name)(list(xs), **kw)


def _tensors_call(extra=()):
    return Call(A("x", lambda env: [f23(), f23()], "tensors"), extra=list(extra))


def _diag_embed(x, offset=0, dim1=-2, dim2=-1):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n), x.dtype)
    rows = np.arange(x.shape[-1]) + max(-offset, 0)
    out[..., rows, rows + offset] = x
    return np.moveaxis(out, (-2, -1), (dim1 % (x.ndim + 1), dim2 % (x.ndim + 1))) \
        if (dim1, dim2) != (-2, -1) else out


def _block_diag(*xs):
    xs = [np.atleast_2d(x) for x in xs]
    out = np.zeros((sum(x.shape[0] for x in xs), sum(x.shape[1] for x in xs)), xs[0].dtype)
    r = c = 0
    for x in xs:
        out[r:r + x.shape[0], c:c + x.shape[1]] = x
        r, c = r + x.shape[0], c + x.shape[1]
    return out


def _combinations(x, r=2, with_replacement=False):
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    return np.array([[x[i] for i in c] for c in pick(range(len(x)), r)], x.dtype).reshape(-1, r)


def _unfold(x, axis, size, step):
    windows = np.lib.stride_tricks.sliding_window_view(x, size, axis)
    return np.take(windows, np.arange(0, windows.shape[axis], step), axis)


def _as_strided(x, shape, stride, offset=0):
    flat = np.ascontiguousarray(x).reshape(-1)
    index = offset + sum(np.arange(n).reshape([-1 if i == d else 1 for i in range(len(shape))])
                         * s for d, (n, s) in enumerate(zip(shape, stride)))
    return flat[index]


def _moveaxis(x, source, destination):
    return np.moveaxis(x, source, destination)


def _meshgrid(*xs, indexing="ij"):
    return list(np.meshgrid(*xs, indexing=indexing))


ENTRIES = [
    OpInfo("add_n", lambda *xs: sum(xs[1:], xs[0]), samples((T((2, 3)), T((2, 3)), T((2, 3))),
                                                         (T((3,)),)),
           dtypes=NUMBERS + COMPLEX, op=_list_op("add_n"),
           call=Call(A("inputs", lambda env: [f23(), f23()], "tensors"),
                     extra=[("shapes that differ",
                             {"inputs": lambda env: [f23(), pylayer.ones([3])]}, "inputs")])),
    OpInfo("cat", lambda *xs, axis=0: np.concatenate(xs, axis),
           samples(((T((2, 3)), T((2, 1))), {"axis": 1})), dtypes=ALL, op=_list_op("cat"),
           call=_tensors_call()),
    OpInfo("concatenate", lambda *xs, axis=0: np.concatenate(xs, axis),
           samples((T((2, 3)), T((1, 3)))), dtypes=ALL, op=_list_op("concatenate"),
           call=_tensors_call()),
    OpInfo("diag", lambda x, offset=0, padding_value=0:
           np.diag(x, offset) + (padding_value * (1 - np.abs(np.sign(np.diag(np.ones_like(x),
                                                                             offset))))
                                 if x.ndim == 1 else 0),
           samples((T((3,)),), ((T((3,)),), {"offset": -1, "padding_value": 2}),
                   ((T((3, 4)),), {"offset": 1}), ((T((3, 4)),), {"offset": -2})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("offset", _value(1), "int"),
                     K("padding_value", _value(0), "number"))),
    OpInfo("diag_embed", _diag_embed,
           samples((T((2, 3)),), ((T((3,)),), {"offset": 1}),
                   ((T((2, 3)),), {"offset": -1, "dim1": 0, "dim2": 2})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("input", f23, "tensor"), K("offset", _value(0), "int"),
                     K("dim1", _value(-2), "int_axis"), K("dim2", _value(-1), "int_axis"))),
    OpInfo("diagflat", lambda x, offset=0: np.diagflat(x, offset),
           samples((T((2, 2)),), ((T((3,)),), {"offset": -1}), (T(()),)),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("offset", _value(0), "int"))),
    OpInfo("diagonal", lambda x, offset=0, axis1=0, axis2=1: np.diagonal(x, offset, axis1, axis2),
           samples((T((3, 4)),), ((T((2, 3, 4)),), {"offset": 1, "axis1": 2, "axis2": 0}),
                   ((T((3, 4)),), {"offset": -2})),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), K("offset", _value(0), "int"),
                     K("axis1", _value(0), "int_axis"), K("axis2", _value(1), "int_axis"))),
    OpInfo("tril", lambda x, diagonal=0: np.tril(x, diagonal),
           samples((T((3, 4)),), ((T((2, 3, 3)),), {"diagonal": -1})), dtypes=ALL,
           call=Call(A("x", f23, "tensor"), K("diagonal", _value(0), "int"))),
    OpInfo("triu", lambda x, diagonal=0: np.triu(x, diagonal),
           samples((T((3, 4)),), ((T((2, 3, 3)),), {"diagonal": 1})), dtypes=ALL,
           call=Call(A("x", f23, "tensor"), K("diagonal", _value(0), "int"))),
    OpInfo("block_diag", _block_diag, samples((T((2, 3)), T((1,)), T(()), T((2, 1)))),
           dtypes=ALL, op=_list_op("block_diag"),
           call=Call(A("inputs", lambda env: [f23(), f23()], "tensors"))),
    OpInfo("cartesian_prod",
           lambda *xs: np.stack(np.meshgrid(*xs, indexing="ij"), -1).reshape(-1, len(xs)),
           samples((T((2,)), T((3,))), (T((2,)), T((1,)), T((2,)))), dtypes=ALL,
           op=_list_op("cartesian_prod"),
           call=Call(A("x", lambda env: [pylayer.ones([2]), pylayer.ones([3])], "tensors"))),
    OpInfo("combinations", _combinations,
           samples((T((4,)),), ((T((3,)),), {"r": 3, "with_replacement": True}),
                   ((T((3,)),), {"r": 1})),
           dtypes=ALL,
           call=Call(A("x", lambda env: pylayer.ones([3]), "tensor"), K("r", _value(2), "count"))),
    OpInfo("atleast_1d", np.atleast_1d, samples((T(()),), (T((2, 3)),)), dtypes=ALL,
           call=Call(A("inputs", f23, "tensor"))),
    OpInfo("atleast_2d", np.atleast_2d, samples((T(()),), (T((3,)),)), dtypes=ALL,
           call=Call(A("inputs", f23, "tensor"))),
    OpInfo("atleast_3d", np.atleast_3d, samples((T(()),), (T((3,)),), (T((2, 3)),)),
           dtypes=ALL, call=Call(A("inputs", f23, "tensor"))),
    OpInfo("hstack", lambda *xs: np.hstack(xs), samples((T((2, 3)), T((2, 1))), (T((2,)), T(()))),
           dtypes=ALL, op=_list_op("hstack"), call=_tensors_call()),
    OpInfo("vstack", lambda *xs: np.vstack(xs), samples((T((2, 3)), T((1, 3))), (T((3,)), T((3,)))),
           dtypes=ALL, op=_list_op("vstack"), call=_tensors_call()),
    OpInfo("row_stack", lambda *xs: np.vstack(xs), samples((T((2, 3)), T((1, 3)))),
           dtypes=ALL, op=_list_op("row_stack")),
    OpInfo("dstack", lambda *xs: np.dstack(xs), samples((T((2, 3)), T((2, 3))), (T((3,)), T((3,)))),
           dtypes=ALL, op=_list_op("dstack"), call=_tensors_call()),
    OpInfo("column_stack", lambda *xs: np.column_stack(xs),
           samples((T((3,)), T((3, 2))), (T(()), T(()))), dtypes=ALL,
           op=_list_op("column_stack"), call=_tensors_call()),
    OpInfo("tensor_split", lambda x, n, axis=0: np.array_split(x, n, axis),
           samples((T((7,)), 3), ((T((2, 5)), [1, 3]), {"axis": 1}), (T((4,)), [3, 1])),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("num_or_indices", _value(2), "count"),
                     K("axis", _value(1), "int_axis"))),
    OpInfo("hsplit", lambda x, n: np.array_split(x, n, 0 if x.ndim == 1 else 1),
           samples((T((2, 6)), [1, 4]), (T((5,)), 2)), dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("num_or_indices", _value(3), "count"))),
    OpInfo("vsplit", lambda x, n: np.array_split(x, n, 0), samples((T((4, 2)), 2)), dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("num_or_indices", _value(2), "count"))),
    OpInfo("dsplit", lambda x, n: np.array_split(x, n, 2), samples((T((1, 2, 6)), [2, 5])),
           dtypes=ALL,
           call=Call(A("x", lambda env: pylayer.ones([1, 2, 4]), "tensor"),
                     A("num_or_indices", _value(2), "count"))),
    OpInfo("rot90", lambda x, k=1, axes=(0, 1): np.rot90(x, k, axes),
           samples((T((2, 3)),), ((T((2, 3, 4)),), {"k": -1, "axes": [2, 0]}),
                   ((T((2, 3)),), {"k": 2}), ((T((2, 3)),), {"k": 4})),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), K("k", _value(1), "int"),
                     K("axes", _value([0, 1]), "perm"))),
    OpInfo("repeat_interleave", lambda x, repeats, axis=None: np.repeat(x, repeats, axis),
           samples((T((2, 3)), 2), ((T((2, 3)), np.array([1, 0, 2])), {"axis": 1})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("repeats", _value(2), "count"),
                     K("axis", _value(1), "int_axis_or_none"))),
    OpInfo("moveaxis", _moveaxis, samples((T((2, 3, 4)), 0, -1), (T((2, 3, 4)), [0, 1], [2, 0])),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("source", _value(0), "int_axis"),
                     A("destination", _value(1), "int_axis"))),
    # (the two-int form, swapaxes(x, 0, 2), is tested in test_assembly.py)
    OpInfo("swapaxes", lambda x, perm: np.transpose(x, perm), samples((T((2, 3, 4)), [2, 1, 0])),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("perm", _value([1, 0]), "perm"))),
    OpInfo("swapdims", lambda x, perm: np.transpose(x, perm), samples((T((2, 3)), [1, 0])),
           dtypes=ALL),
    OpInfo("permute", lambda x, dims: np.transpose(x, dims), samples((T((2, 3, 4)), [2, 0, 1])),
           dtypes=ALL,
           call=Call(A("input", f23, "tensor"), A("dims", _value([1, 0]), "perm"))),
    OpInfo("t", lambda x: x.T, samples((T((2, 3)),), (T((3,)),), (T(()),)), dtypes=ALL,
           call=Call(A("input", f23, "tensor"))),
    OpInfo("narrow", lambda x, dim, start, length: np.take(
        x, np.arange(start % x.shape[dim], start % x.shape[dim] + length), dim),
           samples((T((4, 3)), 0, 1, 2), (T((2, 5)), 1, -3, 3)), dtypes=ALL,
           call=Call(A("input", f23, "tensor"), A("dim", _value(1), "int_axis"),
                     A("start", _value(0), "int"), A("length", _value(2), "count"))),
    OpInfo("ravel", np.ravel, samples((T((2, 3)),), (T(()),)), dtypes=ALL,
           call=Call(A("input", f23, "tensor"))),
    OpInfo("unbind", lambda x, axis=0: list(np.moveaxis(x, axis, 0)),
           samples((T((3, 2)),), ((T((2, 3)),), {"axis": 1})), dtypes=ALL,
           call=Call(A("input", f23, "tensor"), K("axis", _value(1), "int_axis"))),
    OpInfo("unflatten", lambda x, axis, shape: x.reshape(
        x.shape[:axis % x.ndim] + tuple(shape) + x.shape[axis % x.ndim + 1:]),
           samples((T((2, 6)), 1, [3, 2]), (T((6,)), -1, [2, 3])), dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("axis", _value(1), "int_axis"),
                     A("shape", _value([3, 1]), "sizes"))),
    OpInfo("vander",
           lambda x, n=None, increasing=False: np.vander(x, n, increasing).astype(x.dtype),
           samples((T((3,)),), ((T((4,)),), {"n": 2, "increasing": True}),
                   ((T((2,)),), {"n": 4})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", lambda env: pylayer.ones([3]), "tensor"),
                     K("n", _value(3), "size_or_none"))),
    OpInfo("meshgrid", _meshgrid,
           samples((T((2,)), T((3,))), ((T((2,)), T((3,)), T((1,))), {"indexing": "xy"})),
           dtypes=ALL,
           call=Call(A("args", lambda env: [pylayer.ones([2]), pylayer.ones([3])], "tensors"))),
    OpInfo("as_strided", _as_strided,
           samples((T((2, 3)), [2, 2], [1, 2], 1), (T((6,)), [3, 2], [1, 1]),
                   (T((4,)), [2], [3])),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("shape", _value([2, 2]), "shape"),
                     A("stride", _value([1, 1]), "int_list"), K("offset", _value(0), "count"))),
    OpInfo("view", lambda x, shape: x.reshape(shape), samples((T((2, 3)), [3, 2]), (T((6,)), -1)),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("shape_or_dtype", _value([3, 2]), "target_shape"))),
    OpInfo("view_as", lambda x, other: x.reshape(other.shape),
           samples((T((2, 3)), np.zeros((3, 2))),), dtypes=ALL,
           call=Call(A("x", f23, "tensor"),
                     A("other", lambda env: pylayer.ones([3, 2]), "tensor"))),
    OpInfo("unfold", _unfold,
           samples((T((7,)), 0, 3, 2), (T((3, 5)), 1, 2, 1), (T((3, 4)), 0, 3, 3)),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("axis", _value(1), "int_axis"),
                     A("size", _value(2), "count"), A("step", _value(1), "count"))),
    OpInfo("broadcast_tensors", lambda *xs: list(np.broadcast_arrays(*xs)),
           samples((T((2, 1)), T((3,))), (T((2, 3)), T((2, 3)))), dtypes=ALL,
           op=_list_op("broadcast_tensors"),
           call=Call(A("input", lambda env: [f23(), pylayer.ones([3])], "tensors"),
                     extra=[("shapes that do not broadcast",
                             {"input": lambda env: [f23(), pylayer.ones([4])]}, "input")])),
    OpInfo("reverse", lambda x, axis: np.flip(x, axis), samples((T((2, 3)), [0, 1]), (T((3,)), 0)),
           dtypes=ALL),
    OpInfo("crop", lambda x, shape=None, offsets=None: x[tuple(
        slice(o, o + (s if s != -1 else n - o)) for o, s, n in zip(
            offsets or [0] * x.ndim, shape or x.shape, x.shape))],
           samples(((T((3, 4)),), {"shape": [2, 2], "offsets": [1, 1]}),
                   ((T((3, 4)),), {"shape": [-1, 3], "offsets": [1, 0]}), (T((2, 2)),)),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), K("shape", _value([1, 2]), "shape_or_none"),
                     K("offsets", _value([1, 0]), "shape_or_none"))),
    OpInfo("strided_slice", lambda x, axes, starts, ends, strides: x[tuple(
        slice(starts[axes.index(d)], ends[axes.index(d)], strides[axes.index(d)])
        if d in axes else slice(None) for d in range(x.ndim))],
           samples((T((10,)), [0], [1], [8], [2]), (T((3, 4)), [1, 0], [3, 0], [0, 2], [-1, 1])),
           dtypes=ALL,
           call=Call(A("x", f23, "tensor"), A("axes", _value([1]), "int_list"),
                     A("starts", _value([0]), "int_list"), A("ends", _value([2]), "int_list"),
                     A("strides", _value([1]), "int_list"))),
    OpInfo("tril_indices", lambda row, col, offset=0: np.stack(np.tril_indices(row, offset, col)),
           samples((4, 3, -1), (3, 3)), dtypes=("int64",), differentiable=False, static=False,
           call=Call(A("row", _value(3), "count"), A("col", _value(3), "count"),
                     K("offset", _value(0), "int"), K("dtype", _value("int64"), "dtype"))),
    OpInfo("triu_indices", lambda row, col=None, offset=0:
           np.stack(np.triu_indices(row, offset, col)),
           samples((3,), ((4, 3), {"offset": 1})), dtypes=("int64",), differentiable=False,
           static=False,
           call=Call(A("row", _value(3), "count"), K("col", _value(3), "count_or_none"),
                     K("offset", _value(0), "int"), K("dtype", _value("int64"), "dtype"))),
]

NOT_IN_DATABASE = {
    "broadcast_shape": "works on shapes, not tensors (tests/ops/test_assembly.py)",
    "broadcast_shapes": "works on shapes, not tensors (tests/ops/test_assembly.py)",
    "tril_": "the in-place twin of tril (tests/ops/test_assembly.py)",
    "triu_": "the in-place twin of triu (tests/ops/test_assembly.py)",
    "t_": "the in-place twin of t (tests/ops/test_assembly.py)",
}
