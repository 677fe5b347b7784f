"""Random compositions of ops: forward against numpy, backward against central differences.

Hypothesis draws a start shape (0-d, empty and broadcastable shapes included)
and then a chain of ops, each picked among those whose domain the current
values satisfy (``log`` only on positive values, ``abs`` only away from its
kink, ...). Binary ops bring in a new leaf whose shape broadcasts against the
current value; leaves are C-ordered, Fortran-ordered or strided views, and
layout ops (transpose, flip, slicing, broadcast) hand non-contiguous arrays
to the ops after them. The chain is replayed on float64 tensors and compared
with the same chain on numpy arrays; ``gradcheck`` compares its backward with
central differences, and ``gradgradcheck`` its double backward.
"""
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck

from _reliability import LAYOUTS, draw_array, fuzz, shapes, stored_as, view

_erf = np.vectorize(math.erf, otypes=[np.float64])


class Op:
    """One step of a chain: a pylayer function and its numpy twin.

    ``accepts(v)`` says whether the op is smooth enough around the values
    ``v`` for central differences; ``draw(data, v, leaf)`` draws the op's
    parameters (``leaf(shape, low, high)`` adds an input and returns its
    index). ``run(lib, v, params, leaves)`` applies it with ``lib`` being
    ``pylayer`` or the numpy twin table.
    """

    def __init__(self, name, run, accepts=lambda v: True, draw=lambda data, v, leaf: None):
        self.name = name
        self.run = run
        self.accepts = accepts
        self.draw = draw

    def __repr__(self):
        return self.name


def _min_abs(v):
    return np.abs(v).min() if v.size else np.inf


def _bounded(limit):
    return lambda v: v.size == 0 or np.abs(v).max() < limit


def _positive(low):
    return lambda v: v.size == 0 or v.min() > low


def _axis_param(data, v, allow_none=True):
    choices = list(range(-v.ndim, v.ndim)) + ([None] if allow_none else [])
    return data.draw(st.sampled_from(choices)) if choices else None


def _reduced_count(v, axis):
    if axis is None:
        return v.size
    return v.shape[axis]


def _gap_to_second(v, axis):
    """Smallest distance between the extreme and the runner-up along ``axis``."""
    rows = v.reshape(1, -1) if axis is None else np.moveaxis(v, axis, -1)
    if rows.shape[-1] < 2 or rows.size == 0:
        return np.inf
    s = np.sort(rows, axis=-1)
    return min(np.min(s[..., -1] - s[..., -2]), np.min(s[..., 1] - s[..., 0]))


def _broadcast_shape(data, shape):
    """A shape that broadcasts against ``shape`` (leading dims dropped, dims set to 1)."""
    drop = data.draw(st.integers(0, len(shape)))
    kept = list(shape[drop:])
    for i in range(len(kept)):
        if data.draw(st.booleans()):
            kept[i] = 1
    return tuple(kept)


# ------------------------------------------------------------------ unary
def _unary(name, fn, np_fn, accepts=lambda v: True):
    return Op(name, lambda lib, v, p, leaves: (fn(v) if lib is pylayer else np_fn(v)),
              accepts)


UNARY = [
    _unary("tanh", pylayer.tanh, np.tanh),
    _unary("sigmoid", pylayer.sigmoid, lambda v: 1 / (1 + np.exp(-v)), _bounded(30)),
    _unary("sin", pylayer.sin, np.sin),
    _unary("cos", pylayer.cos, np.cos),
    _unary("exp", pylayer.exp, np.exp, _bounded(4)),
    _unary("neg", pylayer.neg, np.negative),
    _unary("square", pylayer.square, np.square, _bounded(30)),
    _unary("erf", pylayer.erf, _erf, _bounded(5)),
    _unary("log", pylayer.log, np.log, _positive(0.1)),
    _unary("sqrt", pylayer.sqrt, np.sqrt, _positive(0.1)),
    _unary("rsqrt", pylayer.rsqrt, lambda v: 1 / np.sqrt(v), _positive(0.1)),
    _unary("log1p", pylayer.log1p, np.log1p, _positive(-0.9)),
    _unary("reciprocal", pylayer.reciprocal, np.reciprocal, lambda v: _min_abs(v) > 0.2),
    _unary("abs", pylayer.abs, np.abs, lambda v: _min_abs(v) > 1e-3),
    _unary("tan", pylayer.tan, np.tan, _bounded(1.2)),
    _unary("method_pow", lambda t: t ** 2, lambda v: v ** 2, _bounded(30)),
    Op("pow", lambda lib, v, p, leaves: (pylayer.pow(v, p) if lib is pylayer
                                         else np.power(v, p)),
       _positive(0.1), lambda data, v, leaf: data.draw(st.sampled_from([0.5, 2.0, 3, -1.5]))),
    Op("scale", lambda lib, v, p, leaves: (
        pylayer.scale(v, scale=p[0], bias=p[1], bias_after_scale=p[2]) if lib is pylayer
        else (v * p[0] + p[1] if p[2] else (v + p[1]) * p[0])),
       _bounded(30), lambda data, v, leaf: (data.draw(st.sampled_from([-2.0, 0.5, 3.0])),
                                            data.draw(st.sampled_from([0.0, 1.5])),
                                            data.draw(st.booleans()))),
    Op("clip", lambda lib, v, p, leaves: (pylayer.clip(v, p[0], p[1]) if lib is pylayer
                                          else np.clip(v, p[0], p[1])),
       draw=lambda data, v, leaf: _clip_bounds(data, v)),
]


def _clip_bounds(data, v):
    low = data.draw(st.sampled_from([-1.0, -0.25, 0.1]))
    high = low + data.draw(st.sampled_from([0.5, 1.5]))
    assume(v.size == 0 or np.abs(v - low).min() > 1e-3 and np.abs(v - high).min() > 1e-3)
    return low, high


# ----------------------------------------------------------------- binary
def _leaf_operand(data, v, leaf, low=-2.0, high=2.0):
    return leaf(_broadcast_shape(data, v.shape), low, high)


def _binary(name, fn, np_fn, low=-2.0, high=2.0, accepts=lambda v: True, check=None):
    def run(lib, v, index, leaves):
        other = leaves[index]
        return fn(v, other) if lib is pylayer else np_fn(v, other)

    def draw(data, v, leaf):
        index = leaf(_broadcast_shape(data, v.shape), low, high)
        if check is not None:
            check(v, index)
        return index
    return Op(name, run, accepts, draw)


_LEAF_VALUES = {}   # index -> numpy value, filled while a chain is drawn (for checks)


def _apart(v, index):
    """maximum/minimum: no ties (their derivative jumps there)."""
    other = _LEAF_VALUES[index]
    assume(np.broadcast_to(np.abs(v - other), np.broadcast_shapes(v.shape, other.shape)).size
           == 0 or np.abs(v - other).min() > 1e-3)


BINARY = [
    _binary("add", pylayer.add, np.add),
    _binary("subtract", pylayer.subtract, np.subtract),
    _binary("multiply", pylayer.multiply, np.multiply, accepts=_bounded(30)),
    _binary("divide", pylayer.divide, np.divide, 0.5, 2.0, accepts=_bounded(30)),
    _binary("operator_rsub", lambda a, b: b - a, lambda a, b: b - a),
    _binary("pow_tensor", pylayer.pow, np.power, -1.5, 1.5, accepts=_positive(0.1)),
    _binary("maximum", pylayer.maximum, np.maximum, check=_apart),
    _binary("minimum", pylayer.minimum, np.minimum, check=_apart),
]


def _matmul_draw(data, v, leaf):
    k = data.draw(st.integers(0, 3))
    if v.ndim == 1:
        shape = data.draw(st.sampled_from([(v.shape[0],), (v.shape[0], k)]))
    else:
        batch = _broadcast_shape(data, v.shape[:-2])
        shape = batch + (v.shape[-1], k)
    return leaf(shape, -1.0, 1.0)


def _where_draw(data, v, leaf):
    condition = data.draw(st.lists(st.booleans(), min_size=max(v.size, 1), max_size=max(v.size, 1)))
    return np.array(condition[:v.size], dtype=bool).reshape(v.shape), leaf(v.shape[1:], -1.0, 1.0)


def _concat_draw(data, v, leaf):
    axis = data.draw(st.integers(0, v.ndim - 1))
    shape = list(v.shape)
    shape[axis] = data.draw(st.integers(0, 2))
    return axis, leaf(tuple(shape))


STRUCTURED = [
    Op("matmul", lambda lib, v, p, leaves: (pylayer.matmul(v, leaves[p]) if lib is pylayer
                                            else np.matmul(v, leaves[p])),
       lambda v: v.ndim >= 1 and _bounded(30)(v), _matmul_draw),
    Op("where", lambda lib, v, p, leaves: (
        pylayer.where(pylayer.to_tensor(p[0]), v, leaves[p[1]]) if lib is pylayer
        else np.where(p[0], v, leaves[p[1]])), draw=_where_draw),
    Op("concat", lambda lib, v, p, leaves: (
        pylayer.concat([v, leaves[p[1]]], axis=p[0]) if lib is pylayer
        else np.concatenate([v, leaves[p[1]]], axis=p[0])),
       lambda v: v.ndim >= 1, _concat_draw),
    Op("stack", lambda lib, v, p, leaves: (
        pylayer.stack([leaves[p[1]], v], axis=p[0]) if lib is pylayer
        else np.stack([leaves[p[1]], v], axis=p[0])),
       draw=lambda data, v, leaf: (data.draw(st.integers(-v.ndim - 1, v.ndim)),
                                   leaf(v.shape))),
]


# ------------------------------------------------------------- reductions
def _reduction(name, fn, np_fn, accepts=lambda v: True, valid=lambda v, axis: True):
    def draw(data, v, leaf):
        axis = _axis_param(data, v)
        keepdim = data.draw(st.booleans())
        assume(valid(v, axis))
        return axis, keepdim

    def run(lib, v, p, leaves):
        axis, keepdim = p
        if lib is pylayer:
            return fn(v, axis=axis, keepdim=keepdim)
        return np_fn(v, axis=axis, keepdims=keepdim)
    return Op(name, run, accepts, draw)


def _np_logsumexp(v, axis, keepdims):
    peak = np.max(v, axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)  # an infinite peak: the sum says it all
    out = np.log(np.sum(np.exp(v - peak), axis=axis, keepdims=True)) + peak
    return out if keepdims else np.squeeze(out, axis=axis)


REDUCTIONS = [
    _reduction("sum", pylayer.sum, np.sum),
    _reduction("mean", pylayer.mean, np.mean,
               valid=lambda v, axis: _reduced_count(v, axis) > 0 and v.size > 0),
    _reduction("max", pylayer.max, np.max,
               valid=lambda v, axis: v.size > 0 and _gap_to_second(v, axis) > 1e-3),
    _reduction("min", pylayer.min, np.min,
               valid=lambda v, axis: v.size > 0 and _gap_to_second(v, axis) > 1e-3),
    # prod's gradient is prod / x: its second derivative cancels two terms of
    # size 1/x, which loses every digit when |x| is tiny (not a wrong rule).
    _reduction("prod", pylayer.prod, np.prod,
               lambda v: _bounded(3)(v) and np.all((v == 0) | (np.abs(v) > 1e-2))),
    _reduction("logsumexp", pylayer.logsumexp, _np_logsumexp, _bounded(30),
               valid=lambda v, axis: v.size > 0),
    _reduction("var", lambda v, axis, keepdim: pylayer.var(v, axis, keepdim=keepdim),
               lambda v, axis, keepdims: np.var(v, axis=axis, ddof=1, keepdims=keepdims),
               _bounded(30), valid=lambda v, axis: _reduced_count(v, axis) > 1
               and v.size > 0),
    _reduction("std", lambda v, axis, keepdim: pylayer.std(v, axis, keepdim=keepdim),
               lambda v, axis, keepdims: np.std(v, axis=axis, ddof=1, keepdims=keepdims),
               _bounded(30), valid=lambda v, axis: _reduced_count(v, axis) > 1
               and v.size > 0 and np.var(v, axis=axis, ddof=1).min() > 1e-3),
    Op("cumsum", lambda lib, v, axis, leaves: (
        pylayer.cumsum(v, axis=axis) if lib is pylayer
        else np.cumsum(v, axis=axis)), draw=lambda data, v, leaf: _axis_param(data, v)),
]


# ---------------------------------------------------------------- layout
def _perm_draw(data, v, leaf):
    return data.draw(st.permutations(list(range(v.ndim))))


def _slice_draw(data, v, leaf):
    index = []
    for size in v.shape:
        start = data.draw(st.integers(0, size))
        step = data.draw(st.sampled_from([1, 2, -1]))
        index.append(slice(start, None, step) if step > 0 else slice(None, None, -1))
    return tuple(index)


def _reshape_draw(data, v, leaf):
    if 0 in v.shape:  # a 0 in the target shape means "keep this dim" (Paddle's rule)
        return [-1]
    return data.draw(st.sampled_from([[-1], list(v.shape[::-1]), [1] + list(v.shape)]))


def _squeezable(v):
    return 1 in v.shape


LAYOUT = [
    Op("transpose", lambda lib, v, p, leaves: (pylayer.transpose(v, p) if lib is pylayer
                                               else np.transpose(v, p)), draw=_perm_draw),
    Op("T", lambda lib, v, p, leaves: v.T),
    Op("getitem", lambda lib, v, p, leaves: v[p], draw=_slice_draw),
    Op("reshape", lambda lib, v, p, leaves: (pylayer.reshape(v, p) if lib is pylayer
                                             else np.reshape(v, p)),
       lambda v: v.size > 0 or v.ndim > 0, _reshape_draw),
    Op("flatten", lambda lib, v, p, leaves: (pylayer.flatten(v) if lib is pylayer
                                             else v.reshape(-1))),
    Op("unsqueeze", lambda lib, v, p, leaves: (pylayer.unsqueeze(v, p) if lib is pylayer
                                               else np.expand_dims(v, p)),
       draw=lambda data, v, leaf: data.draw(st.integers(-v.ndim - 1, v.ndim))),
    Op("squeeze", lambda lib, v, p, leaves: (pylayer.squeeze(v) if lib is pylayer
                                             else np.squeeze(v)), _squeezable),
    Op("broadcast_to", lambda lib, v, p, leaves: (
        pylayer.broadcast_to(v, [2] + list(v.shape)) if lib is pylayer
        else np.broadcast_to(v, (2,) + v.shape))),
    Op("flip", lambda lib, v, p, leaves: (pylayer.flip(v, p) if lib is pylayer
                                          else np.flip(v, p)),
       lambda v: v.ndim >= 1, lambda data, v, leaf: [data.draw(st.integers(0, v.ndim - 1))]),
    Op("roll", lambda lib, v, p, leaves: (pylayer.roll(v, p[0], p[1]) if lib is pylayer
                                          else np.roll(v, p[0], p[1])),
       lambda v: v.ndim >= 1,
       lambda data, v, leaf: (data.draw(st.integers(-3, 3)),
                              data.draw(st.integers(0, v.ndim - 1)))),
    Op("tile", lambda lib, v, p, leaves: (pylayer.tile(v, p) if lib is pylayer
                                          else np.tile(v, p)),
       draw=lambda data, v, leaf: data.draw(st.lists(st.integers(1, 2), min_size=1,
                                                     max_size=2))),
    Op("split_take", lambda lib, v, p, leaves: (
        pylayer.split(v, p[0], axis=p[1])[p[2]] if lib is pylayer
        else np.split(v, np.cumsum(p[0])[:-1], axis=p[1])[p[2]]),
       lambda v: v.ndim >= 1 and v.shape[0] >= 2,
       lambda data, v, leaf: ([1, v.shape[0] - 1], 0, data.draw(st.integers(0, 1)))),
]

# ----------------------------------------------------- indexing and nn
def _index_draw(data, v, leaf):
    sized = [i for i, size in enumerate(v.shape) if size]
    assume(sized)
    axis = data.draw(st.sampled_from(sized))
    index = data.draw(st.lists(st.integers(-v.shape[axis], v.shape[axis] - 1), max_size=4))
    return axis, np.array(index, dtype=np.int64)


def _has_items(v):
    return v.ndim >= 1 and v.shape[0] > 0


def _setitem_run(lib, v, p, leaves):
    """Write a leaf into a row of a copy of v (in place, recorded), then use the copy."""
    row, index = p
    if lib is pylayer:
        copy = v * 1.0
        copy[row] = leaves[index]
        return copy
    copy = np.array(v, dtype=np.float64)
    copy[row] = leaves[index]
    return copy


def _setitem_draw(data, v, leaf):
    return data.draw(st.integers(0, v.shape[0] - 1)), leaf(v.shape[1:])


def _softmax_run(fn, np_fn):
    return lambda lib, v, axis, leaves: fn(v, axis) if lib is pylayer else np_fn(v, axis)


def _np_softmax(v, axis):
    e = np.exp(v - v.max(axis=axis, keepdims=True, initial=-np.inf))
    return e / e.sum(axis=axis, keepdims=True)


def _np_gelu(v):
    return 0.5 * v * (1 + _erf(v / np.sqrt(2)))


def _linear_draw(data, v, leaf):
    k = data.draw(st.integers(1, 3))
    return leaf((v.shape[-1], k), -1.0, 1.0), leaf((k,), -1.0, 1.0)


def _away_from_integers(v):
    return v.size == 0 or np.abs(v - np.round(v)).min() > 1e-3


INDEXING_AND_NN = [
    Op("gather", lambda lib, v, p, leaves: (
        pylayer.gather(v, pylayer.to_tensor(p[1]), axis=p[0]) if lib is pylayer
        else np.take(v, p[1], axis=p[0])), _has_items, _index_draw),
    Op("index_select", lambda lib, v, p, leaves: (
        pylayer.index_select(v, pylayer.to_tensor(p[1]), axis=p[0]) if lib is pylayer
        else np.take(v, p[1], axis=p[0])), _has_items, _index_draw),
    Op("advanced_getitem", lambda lib, v, p, leaves: v[p[1]] if p[0] == 0 else v[..., p[1]],
       lambda v: _has_items(v) and v.shape[-1] > 0,
       lambda data, v, leaf: (data.draw(st.integers(0, 1)), np.array(
           data.draw(st.lists(st.integers(0, min(v.shape[0], v.shape[-1]) - 1), max_size=4)),
           dtype=np.int64))),
    Op("slice", lambda lib, v, p, leaves: (
        pylayer.slice(v, [0], [p[0]], [p[1]]) if lib is pylayer else v[p[0]:p[1]]),
       lambda v: v.ndim >= 1,
       lambda data, v, leaf: (data.draw(st.integers(0, v.shape[0])),
                              data.draw(st.integers(0, v.shape[0] + 1)))),
    Op("setitem", _setitem_run, _has_items, _setitem_draw),
    Op("softmax", _softmax_run(pylayer.nn.functional.softmax, _np_softmax),
       lambda v: v.ndim >= 1 and _bounded(30)(v),
       lambda data, v, leaf: data.draw(st.integers(-v.ndim, v.ndim - 1))),
    Op("log_softmax", _softmax_run(pylayer.nn.functional.log_softmax,
                                   lambda v, axis: np.log(_np_softmax(v, axis))),
       lambda v: v.ndim >= 1 and _bounded(30)(v),
       lambda data, v, leaf: data.draw(st.integers(-v.ndim, v.ndim - 1))),
    _unary("gelu", pylayer.nn.functional.gelu, _np_gelu, _bounded(5)),
    _unary("leaky_relu", lambda t: pylayer.nn.functional.leaky_relu(t, 0.2),
           lambda v: np.where(v > 0, v, 0.2 * v), lambda v: _min_abs(v) > 1e-3),
    _unary("relu", pylayer.nn.functional.relu, lambda v: np.maximum(v, 0),
           lambda v: _min_abs(v) > 1e-3),
    Op("linear", lambda lib, v, p, leaves: (
        pylayer.nn.functional.linear(v, leaves[p[0]], leaves[p[1]]) if lib is pylayer
        else v @ leaves[p[0]] + leaves[p[1]]),
       lambda v: v.ndim >= 1 and _bounded(30)(v), _linear_draw),
    Op("dot", lambda lib, v, p, leaves: (
        pylayer.dot(v, leaves[p]) if lib is pylayer else np.sum(v * leaves[p], axis=-1)),
       lambda v: v.ndim in (1, 2) and _bounded(30)(v),
       lambda data, v, leaf: leaf(v.shape, -1.0, 1.0)),
    _unary("floor", pylayer.floor, np.floor, _away_from_integers),
    _unary("round", pylayer.round, np.round, lambda v: _away_from_integers(v - 0.5)),
    _unary("sign", pylayer.sign, np.sign, lambda v: _min_abs(v) > 1e-3),
    Op("remainder", lambda lib, v, p, leaves: (
        pylayer.remainder(v, 0.75) if lib is pylayer else np.remainder(v, 0.75)),
       lambda v: _away_from_integers(v / 0.75)),
    Op("chunk_take", lambda lib, v, p, leaves: (
        pylayer.chunk(v, 2, axis=0)[p] if lib is pylayer else np.split(v, 2, axis=0)[p]),
       lambda v: v.ndim >= 1 and v.shape[0] % 2 == 0,
       lambda data, v, leaf: data.draw(st.integers(0, 1))),
    Op("unstack_take", lambda lib, v, p, leaves: (
        pylayer.unstack(v, axis=0)[p] if lib is pylayer else v[p]),
       _has_items, lambda data, v, leaf: data.draw(st.integers(0, v.shape[0] - 1))),
]

ALL_OPS = UNARY + BINARY + STRUCTURED + REDUCTIONS + LAYOUT + INDEXING_AND_NN


# ---------------------------------------------------------------- chains
def draw_chain(data, first, max_steps=4, ops=ALL_OPS):
    """Draw leaves and a chain of ops; return (stored leaves, layouts, steps, numpy result).

    Each leaf is kept C-contiguous and reaches the ops through a layout view
    (see ``_reliability.view``), so the ops meet Fortran-ordered and strided data.
    """
    leaves, layouts = [], []
    _LEAF_VALUES.clear()

    def leaf(shape, low=-2.0, high=2.0):
        leaves.append(draw_array(data, shape, low, high))
        layouts.append(data.draw(st.sampled_from(LAYOUTS)))
        _LEAF_VALUES[len(leaves) - 1] = leaves[-1]
        return len(leaves) - 1

    shape = data.draw(shapes())
    leaf(shape)
    if not first.accepts(leaves[0]):
        # Positive values away from 0, small enough for every op's domain.
        leaves[0] = _LEAF_VALUES[0] = draw_array(data, shape, 0.3, 1.5)
    value = leaves[0]
    steps = []
    for step in range(data.draw(st.integers(1, max_steps))):
        candidates = [op for op in ops if op.accepts(value)]
        op = first if step == 0 else data.draw(st.sampled_from(candidates))
        assume(op.accepts(value))
        params = op.draw(data, value, leaf)
        with np.errstate(all="ignore"):
            value = np.asarray(op.run(np, value, params, leaves), dtype=np.float64)
        steps.append((op, params))
    assume(np.isfinite(value).all() and (value.size == 0 or np.abs(value).max() < 1e6))
    return [stored_as(a, layout) for a, layout in zip(leaves, layouts)], layouts, steps, value


def replay(steps, layouts):
    def chain(*stored):
        tensors = [view(t, layout) for t, layout in zip(stored, layouts)]
        value = tensors[0]
        for op, params in steps:
            value = op.run(pylayer, value, params, tensors)
        return value
    chain.__qualname__ = " -> ".join(op.name for op, _ in steps)
    return chain


def as_leaves(arrays, dtype="float64"):
    out = []
    for a in arrays:
        t = pylayer.Tensor(a.astype(dtype, copy=False) if dtype != "float64" else a)
        t.stop_gradient = False
        out.append(t)
    return out


@pytest.mark.parametrize("first", ALL_OPS, ids=repr)
@fuzz(8)
@given(data=st.data())
def test_chain_forward_matches_numpy_and_backward_matches_central_differences(first, data):
    leaves, layouts, steps, expected = draw_chain(data, first)
    chain = replay(steps, layouts)
    tensors = as_leaves(leaves)
    result = chain(*tensors)
    assert result.dtype == pylayer.float64
    assert result.shape == list(expected.shape)
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-9, atol=1e-12)
    assert gradcheck(chain, tensors, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("first", ALL_OPS, ids=repr)
@fuzz(3)
@given(data=st.data())
def test_chain_in_float32_keeps_float32_and_is_close(first, data):
    leaves, layouts, steps, expected = draw_chain(data, first)
    result = replay(steps, layouts)(*as_leaves(leaves, "float32"))
    assert result.dtype == pylayer.float32, [op.name for op, _ in steps]
    np.testing.assert_allclose(result.numpy(), expected, rtol=2e-4, atol=2e-4)


SECOND_ORDER = [op for op in ALL_OPS if op.name not in {
    "clip", "abs", "max", "min", "maximum", "minimum", "leaky_relu", "relu", "floor", "round",
    "sign", "remainder"}]


@pytest.mark.parametrize("first", SECOND_ORDER, ids=repr)
@fuzz(3)
@given(data=st.data())
def test_chain_double_backward_matches_central_differences(first, data):
    leaves, layouts, steps, _ = draw_chain(data, first, max_steps=3, ops=SECOND_ORDER)
    assume(sum(a.size for a in leaves) <= 24)
    assert gradgradcheck(replay(steps, layouts), as_leaves(leaves), atol=1e-4, rtol=1e-3)


@pytest.mark.parametrize("op", UNARY, ids=repr)
def test_unary_ops_propagate_nan_and_inf_like_numpy(op):
    values = np.array([np.nan, np.inf, -np.inf, 0.5, -0.5])
    x = pylayer.to_tensor(values, stop_gradient=False)
    params = {"pow": 2.0, "scale": (2.0, 1.0, True), "clip": (-1.0, 1.0)}.get(op.name)
    with np.errstate(all="ignore"):
        expected = op.run(np, values, params, [values])
        got = op.run(pylayer, x, params, [x])
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)  # NaN/inf where numpy has them


@pytest.mark.parametrize("op", BINARY, ids=repr)
def test_binary_ops_propagate_nan_and_inf_like_numpy(op):
    special = np.array([np.nan, np.inf, -np.inf, 0.5, -0.5, 2.0])
    x = pylayer.to_tensor(special[:, None] * np.ones(6), stop_gradient=False)
    y = pylayer.to_tensor(special[None, :] * np.ones((6, 1)))
    with np.errstate(all="ignore"):
        expected = op.run(np, x.numpy(), 1, [x.numpy(), y.numpy()])
        got = op.run(pylayer, x, 1, [x, y])
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize("op", [op for op in REDUCTIONS if op.name != "cumsum"], ids=repr)
def test_reductions_propagate_nan_and_inf_like_numpy(op):
    values = np.array([[np.nan, 1.0, 2.0], [np.inf, 1.0, 2.0], [-np.inf, 1.0, 2.0],
                       [np.inf, -np.inf, 2.0]])
    x = pylayer.to_tensor(values, stop_gradient=False)
    with np.errstate(all="ignore"):
        expected = op.run(np, values, (1, False), [values])
        got = op.run(pylayer, x, (1, False), [x])
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
