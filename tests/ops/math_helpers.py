"""Helpers shared by the tests of the op areas (test_core_ops, test_elementwise, test_opinfo,
test_reduction, test_compare, test_math_contract): random data, leaves, strided views,
warning checks."""
import warnings

import numpy as np

import pylayer
from pylayer._core import graph as _graph

RNG = np.random.default_rng(7)


def rand(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, size=shape)


def leaf(array, dtype="float64"):
    """A float tensor that needs a gradient."""
    return pylayer.to_tensor(np.asarray(array), dtype=dtype, stop_gradient=False)


def non_contiguous(array):
    """A tensor holding ``array``'s values through a transposed (strided) view."""
    array = np.asarray(array)
    perm = list(range(array.ndim))[::-1]
    view = pylayer.transpose(pylayer.to_tensor(np.ascontiguousarray(np.transpose(array, perm))),
                             perm)
    assert not view.numpy().flags.c_contiguous
    return view


def through_transpose(fn, array):
    """(function of a leaf, leaf) where the leaf reaches ``fn`` as a strided view."""
    base = leaf(np.ascontiguousarray(np.asarray(array).T))
    return (lambda t: fn(pylayer.transpose(t, list(range(t.ndim))[::-1]))), base


def grad_of(fn, *inputs):
    out = fn(*inputs)
    out.sum().backward()
    return [t.grad.numpy() if t.grad is not None else None for t in inputs]


def assert_silent(fn):
    """Run fn with every warning turned into an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn()


def saved_by(make):
    """What an op packs for backward: input ids, or "output" for its own result."""
    packed = []

    def pack(t):
        packed.append(t)
        return t

    _graph.push_saved_tensors_hooks(pack, lambda t: t)
    try:
        out = make()
    finally:
        _graph.pop_saved_tensors_hooks()
    return ["output" if np.shares_memory(t.numpy(), out.numpy()) else id(t) for t in packed]
