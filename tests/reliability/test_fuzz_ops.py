"""Random compositions of ops: forward against numpy, backward against central differences.

Hypothesis draws a start shape (0-d, empty and broadcastable shapes included) and then a
chain of ops, each picked among those that are smooth at the current values (``log`` only on
positive values, ``abs`` only away from its kink, ...). Each op takes its function, its
numpy reference and where it is smooth from its entry in the op database
(``tests/ops/opinfo.py``). Binary ops bring in a new leaf whose shape broadcasts against the
current value; leaves are C-ordered, Fortran-ordered or strided views, and layout ops
(transpose, flip, slicing, broadcast) hand non-contiguous arrays to the ops after them. The
chain is replayed on float64 tensors and compared with the same chain on numpy arrays;
``gradcheck`` compares its backward with central differences, and ``gradgradcheck`` its
double backward.
"""
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck

from _reliability import LAYOUTS, draw_array, fuzz, shapes, stored_as, view

from opinfo import OPS, T, away_from_integers

ENTRIES = {info.id: info for info in OPS}
OP_FUNCTIONS = {info.op for info in OPS}


def _fixed(fn, array):
    """A fixed input (an index, a mask): a Tensor for the op, the array for its reference."""
    return pylayer.to_tensor(array) if fn in OP_FUNCTIONS else array


class Op:
    """One step of a chain: a pylayer function and its numpy twin.

    ``accepts(v)`` says whether the op is smooth enough around the values
    ``v`` for central differences; ``draw(data, v, leaf)`` draws the op's
    parameters (``leaf(shape, low, high)`` adds an input and returns its
    index). ``run(lib, v, params, leaves)`` applies it with ``lib`` being
    ``pylayer`` or ``np`` (the numpy reference).
    """

    def __init__(self, name, run, accepts=lambda v: True, draw=lambda data, v, leaf: None):
        self.name = name
        self.run = run
        self.accepts = accepts
        self.draw = draw

    def __repr__(self):
        return self.name


def _entry_op(name, run, accepts=lambda v: True, draw=lambda data, v, leaf: None, entry=None):
    """A chain op from the OpInfo entry ``entry`` (default ``name``): ``run(fn, v, params,
    leaves)`` gets the op or its numpy reference; the op applies only where the entry says
    it is smooth and ``accepts`` (a condition on shapes or on the fuzzer's parameters)."""
    info = ENTRIES[entry or name]
    return Op(name, lambda lib, v, p, leaves: run(info.op if lib is pylayer else info.ref,
                                                  v, p, leaves),
              lambda v: info.accepts(v) and accepts(v), draw)


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


def _has_dims(v):
    return v.ndim >= 1


# ------------------------------------------------------------------ unary
def _unary(name, accepts=lambda v: True):
    return _entry_op(name, lambda fn, v, p, leaves: fn(v), accepts)


UNARY = [_unary(name) for name in (
    "tanh", "sigmoid", "sin", "cos", "exp", "neg", "square", "erf", "log", "sqrt", "rsqrt",
    "log1p", "reciprocal", "abs", "tan")] + [
    _entry_op("method_pow", lambda fn, v, p, leaves: v ** 2 if fn is pylayer.square else fn(v),
              entry="square"),
    _entry_op("pow", lambda fn, v, p, leaves: fn(v, p),
              draw=lambda data, v, leaf: data.draw(st.sampled_from([0.5, 2.0, 3, -1.5]))),
    _entry_op("scale", lambda fn, v, p, leaves: fn(v, scale=p[0], bias=p[1],
                                                   bias_after_scale=p[2]),
              draw=lambda data, v, leaf: (data.draw(st.sampled_from([-2.0, 0.5, 3.0])),
                                          data.draw(st.sampled_from([0.0, 1.5])),
                                          data.draw(st.booleans()))),
    _entry_op("clip", lambda fn, v, p, leaves: fn(v, p[0], p[1]),
              draw=lambda data, v, leaf: _clip_bounds(data, v)),
]


def _clip_bounds(data, v):
    low = data.draw(st.sampled_from([-1.0, -0.25, 0.1]))
    high = low + data.draw(st.sampled_from([0.5, 1.5]))
    assume(v.size == 0 or np.abs(v - low).min() > 1e-3 and np.abs(v - high).min() > 1e-3)
    return low, high


# ----------------------------------------------------------------- binary
def _second_input_range(info):
    """The range of the entry's second Tensor input (a divisor away from zero...)."""
    for sample in info.samples:
        second = sample.args[1] if len(sample.args) > 1 else None
        if isinstance(second, T) and second.low is not None:
            return second.low, second.high
    return info.domain


def _binary(name, check=None, entry=None, reflected=False):
    """``op(v, leaf)`` (``op(leaf, v)`` if ``reflected``), the leaf drawn from the range
    of the entry's second input."""
    low, high = _second_input_range(ENTRIES[entry or name])

    def run(fn, v, index, leaves):
        return fn(leaves[index], v) if reflected else fn(v, leaves[index])

    def draw(data, v, leaf):
        index = leaf(_broadcast_shape(data, v.shape), low, high)
        if check is not None:
            check(v, index)
        return index
    return _entry_op(name, run, draw=draw, entry=entry)


_LEAF_VALUES = {}   # index -> numpy value, filled while a chain is drawn (for checks)


def _apart(v, index):
    """maximum/minimum: no ties (their derivative jumps there)."""
    other = _LEAF_VALUES[index]
    assume(np.broadcast_to(np.abs(v - other), np.broadcast_shapes(v.shape, other.shape)).size
           == 0 or np.abs(v - other).min() > 1e-3)


BINARY = [
    _binary("add"), _binary("subtract"), _binary("multiply"), _binary("divide"),
    _binary("operator_rsub", entry="subtract", reflected=True),
    _binary("pow_tensor", entry="pow"),
    _binary("maximum", check=_apart), _binary("minimum", check=_apart),
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
    _entry_op("matmul", lambda fn, v, p, leaves: fn(v, leaves[p]), _has_dims, _matmul_draw),
    _entry_op("where", lambda fn, v, p, leaves: fn(_fixed(fn, p[0]), v, leaves[p[1]]),
              draw=_where_draw),
    # the entries call concat and stack with the inputs as positional arguments
    _entry_op("concat", lambda fn, v, p, leaves: fn(v, leaves[p[1]], axis=p[0]), _has_dims,
              _concat_draw),
    _entry_op("stack", lambda fn, v, p, leaves: fn(leaves[p[1]], v, axis=p[0]),
              draw=lambda data, v, leaf: (data.draw(st.integers(-v.ndim - 1, v.ndim)),
                                          leaf(v.shape))),
]


# ------------------------------------------------------------- reductions
def _reduction(name, valid=lambda v, axis: True):
    """A reduction over an axis (or all of them) that ``valid`` accepts for ``v``."""
    def draw(data, v, leaf):
        axes = [axis for axis in list(range(-v.ndim, v.ndim)) + [None] if valid(v, axis)]
        assume(axes)
        return data.draw(st.sampled_from(axes)), data.draw(st.booleans())

    return _entry_op(name, lambda fn, v, p, leaves: fn(v, axis=p[0], keepdim=p[1]),
                     draw=draw)


def _has_a_runner_up(v, axis):
    return v.size > 0 and _gap_to_second(v, axis) > 1e-3


REDUCTIONS = [
    _reduction("sum"),
    _reduction("mean", valid=lambda v, axis: _reduced_count(v, axis) > 0 and v.size > 0),
    _reduction("max", valid=_has_a_runner_up),
    _reduction("min", valid=_has_a_runner_up),
    _reduction("prod"),
    _reduction("logsumexp", valid=lambda v, axis: v.size > 0),
    _reduction("var", valid=lambda v, axis: _reduced_count(v, axis) > 1 and v.size > 0),
    _reduction("std", valid=lambda v, axis: _reduced_count(v, axis) > 1
               and v.size > 0 and np.var(v, axis=axis, ddof=1).min() > 1e-3),
    _entry_op("cumsum", lambda fn, v, axis, leaves: fn(v, axis=axis),
              draw=lambda data, v, leaf: _axis_param(data, v)),
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


def _with_params(name, accepts=lambda v: True, draw=lambda data, v, leaf: None):
    """``op(v, *params)``."""
    return _entry_op(name, lambda fn, v, p, leaves: fn(v, *p), accepts, draw)


LAYOUT = [
    _with_params("transpose", draw=lambda data, v, leaf: (_perm_draw(data, v, leaf),)),
    Op("T", lambda lib, v, p, leaves: v.T),
    Op("getitem", lambda lib, v, p, leaves: v[p], draw=_slice_draw),
    _with_params("reshape", lambda v: v.size > 0 or v.ndim > 0,
                 lambda data, v, leaf: (_reshape_draw(data, v, leaf),)),
    _with_params("flatten", draw=lambda data, v, leaf: ()),
    _with_params("unsqueeze", draw=lambda data, v, leaf: (data.draw(st.integers(-v.ndim - 1,
                                                                                 v.ndim)),)),
    _with_params("squeeze", _squeezable, lambda data, v, leaf: ()),
    _entry_op("broadcast_to", lambda fn, v, p, leaves: fn(v, [2] + list(v.shape))),
    _with_params("flip", _has_dims,
                 lambda data, v, leaf: ([data.draw(st.integers(0, v.ndim - 1))],)),
    _with_params("roll", _has_dims,
                 lambda data, v, leaf: (data.draw(st.integers(-3, 3)),
                                        data.draw(st.integers(0, v.ndim - 1)))),
    _with_params("tile", draw=lambda data, v, leaf: (
        data.draw(st.lists(st.integers(1, 2), min_size=1, max_size=2)),)),
    _entry_op("split_take", lambda fn, v, p, leaves: fn(v, p[0], axis=p[1])[p[2]],
              lambda v: v.ndim >= 1 and v.shape[0] >= 2,
              lambda data, v, leaf: ([1, v.shape[0] - 1], 0, data.draw(st.integers(0, 1))),
              entry="split"),
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


def _linear_draw(data, v, leaf):
    k = data.draw(st.integers(1, 3))
    return leaf((v.shape[-1], k), -1.0, 1.0), leaf((k,), -1.0, 1.0)


def _gather(name):
    return _entry_op(name, lambda fn, v, p, leaves: fn(v, _fixed(fn, p[1]), axis=p[0]), _has_items,
                     _index_draw)


def _along_axis(name):
    return _with_params(name, _has_dims,
                        lambda data, v, leaf: (data.draw(st.integers(-v.ndim, v.ndim - 1)),))


# remainder by the fuzzer's divisor jumps at its multiples
_DIVISOR = 0.75

INDEXING_AND_NN = [
    _gather("gather"), _gather("index_select"),
    Op("advanced_getitem", lambda lib, v, p, leaves: v[p[1]] if p[0] == 0 else v[..., p[1]],
       lambda v: _has_items(v) and v.shape[-1] > 0,
       lambda data, v, leaf: (data.draw(st.integers(0, 1)), np.array(
           data.draw(st.lists(st.integers(0, min(v.shape[0], v.shape[-1]) - 1), max_size=4)),
           dtype=np.int64))),
    _entry_op("slice", lambda fn, v, p, leaves: fn(v, [0], [p[0]], [p[1]]), _has_dims,
              lambda data, v, leaf: (data.draw(st.integers(0, v.shape[0])),
                                     data.draw(st.integers(0, v.shape[0] + 1)))),
    Op("setitem", _setitem_run, _has_items, _setitem_draw),
    _along_axis("softmax"), _along_axis("log_softmax"),
    _unary("gelu"),
    _entry_op("leaky_relu", lambda fn, v, p, leaves: fn(v, 0.2)),
    _unary("relu"),
    _entry_op("linear", lambda fn, v, p, leaves: fn(v, leaves[p[0]], leaves[p[1]]), _has_dims,
              _linear_draw),
    _entry_op("dot", lambda fn, v, p, leaves: fn(v, leaves[p]), lambda v: v.ndim in (1, 2),
              lambda data, v, leaf: leaf(v.shape, -1.0, 1.0)),
    _unary("floor"), _unary("round"), _unary("sign"),
    _entry_op("remainder", lambda fn, v, p, leaves: fn(v, _DIVISOR),
              lambda v: v.size == 0 or away_from_integers()(v / _DIVISOR)),
    _entry_op("chunk_take", lambda fn, v, p, leaves: fn(v, 2, axis=0)[p],
              lambda v: v.ndim >= 1 and v.shape[0] % 2 == 0,
              lambda data, v, leaf: data.draw(st.integers(0, 1)), entry="chunk"),
    _entry_op("unstack_take", lambda fn, v, p, leaves: fn(v, axis=0)[p], _has_items,
              lambda data, v, leaf: data.draw(st.integers(0, v.shape[0] - 1)),
              entry="unstack"),
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
