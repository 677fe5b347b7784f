"""Random compositions of PyLayers: forward against numpy, backward against central differences.

The catalog holds PyLayers of every kind the API allows: saving inputs or
outputs with ``save_for_backward``, keeping tensors as plain ``ctx``
attributes, taking a list input, returning several outputs with one marked
non-differentiable, nesting (a forward or backward that calls another
PyLayer and built-in ops), saving under its own ``saved_tensors_hooks``, and
a numpy backward under ``once_differentiable``. Hypothesis chains them with
built-in ops, optionally inside an outer ``saved_tensors_hooks`` block, and
checks the chain like the op chains of ``test_fuzz_ops``.
"""
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import pylayer
from pylayer.autograd import (PyLayer, gradcheck, gradgradcheck, once_differentiable,
                              saved_tensors_hooks)

from _reliability import LAYOUTS, draw_array, fuzz, shapes, stored_as, view


# ----------------------------------------------------------------- layers
class Tanh(PyLayer):
    """Saves its output."""

    @staticmethod
    def forward(ctx, x):
        y = pylayer.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - y * y)


class Mul(PyLayer):
    """Saves both inputs (same shape)."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        return dz * y, dz * x


class ScaleByAttribute(PyLayer):
    """Keeps its input as a ctx attribute instead of saving it: y = factor * x**2."""

    @staticmethod
    def forward(ctx, x, factor):
        ctx.x = x
        ctx.factor = factor
        return x * x * factor

    @staticmethod
    def backward(ctx, dy):
        return dy * ctx.x * (2 * ctx.factor)


class NestedExpTanh(PyLayer):
    """y = exp(tanh(x)); forward calls Tanh.apply, backward calls Mul.apply and Tanh."""

    @staticmethod
    def forward(ctx, x):
        t = Tanh.apply(x)
        y = pylayer.exp(t)
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, y = ctx.saved_tensor()
        t = Tanh.apply(x)
        return Mul.apply(dy * y, 1 - t * t)


class ListSum(PyLayer):
    """forward(ctx, [a, b]) = a * b + a; the list is one input slot."""

    @staticmethod
    def forward(ctx, pair):
        a, b = pair
        ctx.save_for_backward(a, b)
        return a * b + a

    @staticmethod
    def backward(ctx, dz):
        a, b = ctx.saved_tensor()
        return [dz * (b + 1), dz * a]


class SinCosIndex(PyLayer):
    """Three outputs: sin x, cos x and a non-differentiable sign tensor."""

    @staticmethod
    def forward(ctx, x):
        index = pylayer.sign(x)
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(x)
        return pylayer.sin(x), pylayer.cos(x), index

    @staticmethod
    def backward(ctx, dsin, dcos, dindex):
        x, = ctx.saved_tensor()
        return dsin * pylayer.cos(x) - dcos * pylayer.sin(x)


class SquareUnderOwnHooks(PyLayer):
    """Saves its input under a numpy round-trip hook declared inside forward."""

    @staticmethod
    def forward(ctx, x):
        with saved_tensors_hooks(lambda t: t.numpy().copy(), pylayer.to_tensor):
            ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        return 2 * x * dy


class NumpyCube(PyLayer):
    """A numpy backward, so first order only."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        return pylayer.to_tensor(3 * x.numpy() ** 2 * dy.numpy())


class Step:
    """A chain step: ``run(v, other)`` in pylayer and ``reference(v, other)`` in numpy.

    ``other`` is the value of a second leaf of the same shape when
    ``needs_other``; ``second_order`` says whether double backward applies.
    """

    def __init__(self, name, run, reference, needs_other=False, second_order=True,
                 accepts=lambda v: True):
        self.name = name
        self.run = run
        self.reference = reference
        self.needs_other = needs_other
        self.second_order = second_order
        self.accepts = accepts

    def __repr__(self):
        return self.name


def _bounded(limit):
    return lambda v: v.size == 0 or np.abs(v).max() < limit


STEPS = [
    Step("Tanh", lambda v, o: Tanh.apply(v), lambda v, o: np.tanh(v)),
    Step("Mul", lambda v, o: Mul.apply(v, o), lambda v, o: v * o, needs_other=True,
         accepts=_bounded(30)),
    Step("ScaleByAttribute", lambda v, o: ScaleByAttribute.apply(v, 0.5),
         lambda v, o: 0.5 * v * v, accepts=_bounded(30)),
    Step("NestedExpTanh", lambda v, o: NestedExpTanh.apply(v), lambda v, o: np.exp(np.tanh(v))),
    Step("ListSum", lambda v, o: ListSum.apply([v, o]), lambda v, o: v * o + v,
         needs_other=True, accepts=_bounded(30)),
    Step("SinCosIndex_sin+cos", lambda v, o: _sum_first_two(SinCosIndex.apply(v)),
         lambda v, o: np.sin(v) + np.cos(v)),
    Step("SinCosIndex_cos", lambda v, o: SinCosIndex.apply(v)[1], lambda v, o: np.cos(v)),
    Step("SquareUnderOwnHooks", lambda v, o: SquareUnderOwnHooks.apply(v),
         lambda v, o: v * v, accepts=_bounded(30)),
    Step("NumpyCube", lambda v, o: NumpyCube.apply(v), lambda v, o: v ** 3,
         second_order=False, accepts=_bounded(5)),
    Step("builtin_sigmoid", lambda v, o: pylayer.sigmoid(v), lambda v, o: 1 / (1 + np.exp(-v)),
         accepts=_bounded(30)),
    Step("builtin_mul", lambda v, o: v * o, lambda v, o: v * o, needs_other=True,
         accepts=_bounded(30)),
    Step("builtin_transpose", lambda v, o: v.T, lambda v, o: v.T),
]


def _sum_first_two(outputs):
    sin, cos, index = outputs
    assert index.stop_gradient
    return sin + cos


class Hooks:
    """An outer saved_tensors_hooks pair that counts its calls."""

    def __init__(self, kind):
        self.kind = kind
        self.packed = self.unpacked = 0

    def pack(self, t):
        self.packed += 1
        if self.kind == "numpy":
            return t.numpy().copy()
        if self.kind == "box":
            return {"tensor": t}
        return t

    def unpack(self, packed):
        self.unpacked += 1
        if self.kind == "numpy":
            return pylayer.to_tensor(packed)
        if self.kind == "box":
            return packed["tensor"]
        return packed


def draw_chain(data, first, second_order):
    steps = STEPS if not second_order else [s for s in STEPS if s.second_order]
    shape = data.draw(shapes(min_dims=1 if first.name == "builtin_transpose" else 0))
    leaves = [draw_array(data, shape)]
    value = leaves[0]
    chain = []
    for position in range(data.draw(st.integers(1, 4))):
        step = first if position == 0 else data.draw(st.sampled_from(steps))
        assume(step.accepts(value))
        other = None
        if step.needs_other:
            leaves.append(draw_array(data, value.shape))
            other = leaves[-1]
        chain.append((step, len(leaves) - 1 if other is not None else None))
        value = step.reference(value, other)
    layouts = [data.draw(st.sampled_from(LAYOUTS)) for _ in leaves]
    hooks = data.draw(st.sampled_from([None, "identity", "numpy", "box"]))
    return [stored_as(a, k) for a, k in zip(leaves, layouts)], layouts, chain, hooks, value


def replay(chain, layouts, hooks):
    def run(*stored):
        tensors = [view(t, k) for t, k in zip(stored, layouts)]
        value = tensors[0]
        for step, other in chain:
            value = step.run(value, None if other is None else tensors[other])
        return value

    def run_under_hooks(*stored):
        if hooks is None:
            return run(*stored)
        with saved_tensors_hooks(hooks.pack, hooks.unpack):
            return run(*stored)
    run_under_hooks.__qualname__ = " -> ".join(step.name for step, _ in chain)
    return run_under_hooks


def as_leaves(arrays):
    tensors = [pylayer.to_tensor(a, dtype="float64") for a in arrays]
    for t in tensors:
        t.stop_gradient = False
    return tensors


@pytest.mark.parametrize("first", STEPS, ids=repr)
@fuzz(25)
@given(data=st.data())
def test_pylayer_chain_matches_numpy_and_central_differences(first, data):
    leaves, layouts, chain, hook_kind, expected = draw_chain(data, first, second_order=False)
    hooks = Hooks(hook_kind) if hook_kind else None
    func = replay(chain, layouts, hooks)
    tensors = as_leaves(leaves)
    result = func(*tensors)
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-10, atol=1e-12)
    assert gradcheck(func, tensors, atol=1e-5, rtol=1e-4)
    if hooks is not None and hooks.packed and result.size:
        assert hooks.unpacked > 0  # what was packed was read back through the hook


@pytest.mark.parametrize("first", [s for s in STEPS if s.second_order], ids=repr)
@fuzz(8)
@given(data=st.data())
def test_pylayer_chain_double_backward_matches_central_differences(first, data):
    leaves, layouts, chain, hook_kind, _ = draw_chain(data, first, second_order=True)
    assume(sum(a.size for a in leaves) <= 16)
    hooks = Hooks(hook_kind) if hook_kind else None
    assert gradgradcheck(replay(chain, layouts, hooks), as_leaves(leaves), atol=1e-4, rtol=1e-3)
