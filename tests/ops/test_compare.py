"""pylayer.ops.compare beyond what the op database checks for every op
(tests/ops/opinfo.py): NaN, broadcasting, dtypes, and the logical and bitwise ops."""
import numpy as np
import pytest

import pylayer

from math_helpers import leaf, non_contiguous, rand


# -------------------------------------------------------------- comparisons
COMPARISONS = [
    ("equal", pylayer.equal, np.equal, lambda x, y: x == y),
    ("not_equal", pylayer.not_equal, np.not_equal, lambda x, y: x != y),
    ("less_than", pylayer.less_than, np.less, lambda x, y: x < y),
    ("less_equal", pylayer.less_equal, np.less_equal, lambda x, y: x <= y),
    ("greater_than", pylayer.greater_than, np.greater, lambda x, y: x > y),
    ("greater_equal", pylayer.greater_equal, np.greater_equal, lambda x, y: x >= y),
]


@pytest.mark.parametrize("name, op, ref, operator", COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_comparisons_match_numpy_and_return_bool_without_graph(name, op, ref, operator):
    a = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    b = np.array([2.0, 2.0, 2.0])
    x = leaf(a)
    for out in (op(x, pylayer.to_tensor(b, dtype="float64")), operator(x, pylayer.to_tensor(b, dtype="float64"))):
        assert out.dtype == "bool"
        assert out.stop_gradient and out.grad_fn is None
        np.testing.assert_array_equal(out.numpy(), ref(a, b))
    np.testing.assert_array_equal(operator(x, 2).numpy(), ref(a, 2))
    np.testing.assert_array_equal(operator(2.0, x).numpy(), ref(2.0, a))
    np.testing.assert_array_equal(op(pylayer.to_tensor([1, 2, 3]), 2).numpy(),
                                  ref(np.array([1, 2, 3]), 2))
    np.testing.assert_array_equal(op(pylayer.to_tensor([np.nan]), np.nan).numpy(),
                                  ref(np.array([np.nan]), np.nan))


@pytest.mark.parametrize("name, op, ref, operator", COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_comparisons_on_zero_d_empty_and_strided(name, op, ref, operator):
    assert op(pylayer.to_tensor(1.0), 1.0).shape == []
    assert op(pylayer.zeros([0, 2]), 0.0).shape == [0, 2]
    a, b = rand(3, 4), rand(3, 4)
    np.testing.assert_array_equal(op(non_contiguous(a), non_contiguous(b)).numpy(), ref(a, b))


@pytest.mark.parametrize("name, op, ref, operator", COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_comparison_errors(name, op, ref, operator):
    with pytest.raises(ValueError, match=rf"{name}\(\).*\[2\].*\[3\].*broadcast"):
        op(pylayer.ones([2]), pylayer.ones([3]))
    with pytest.raises(TypeError, match=rf"{name}\(\).*'y'.*position 2.*NoneType"):
        op(pylayer.ones([2]), None)


def test_equal_all():
    x = pylayer.to_tensor([1, 2])
    assert pylayer.equal_all(x, pylayer.to_tensor([1, 2])).numpy()
    assert not pylayer.equal_all(x, pylayer.to_tensor([1, 3])).numpy()
    assert not pylayer.equal_all(x, pylayer.to_tensor([[1, 2]])).numpy()
    assert not pylayer.equal_all(pylayer.to_tensor([np.nan]), pylayer.to_tensor([np.nan])).numpy()
    out = pylayer.equal_all(pylayer.zeros([0]), pylayer.zeros([0]))
    assert out.shape == [] and out.dtype == "bool" and out.numpy()


def test_isclose_and_allclose():
    a = pylayer.to_tensor([1.0, 2.0, np.nan], dtype="float64")
    b = pylayer.to_tensor([1.0 + 1e-9, 2.1, np.nan], dtype="float64")
    np.testing.assert_array_equal(pylayer.isclose(a, b).numpy(), [True, False, False])
    np.testing.assert_array_equal(pylayer.isclose(a, b, equal_nan=True).numpy(),
                                  [True, False, True])
    np.testing.assert_array_equal(pylayer.isclose(a, b, rtol=0.1, equal_nan=True).numpy(),
                                  [True, True, True])
    close = pylayer.allclose(a, b, rtol=0.1, equal_nan=True)
    assert close.shape == [] and close.dtype == "bool" and close.numpy()
    assert not pylayer.allclose(a, b).numpy()
    assert pylayer.allclose(pylayer.ones([2, 3]), pylayer.ones([3])).numpy()
    assert pylayer.isclose(pylayer.ones([2, 3]), 1.0).shape == [2, 3]


def test_isclose_and_allclose_errors():
    x = pylayer.ones([2])
    with pytest.raises(TypeError, match=r"allclose\(\).*'rtol'.*str"):
        pylayer.allclose(x, x, rtol="0.1")
    with pytest.raises(ValueError, match=r"isclose\(\).*'atol'.*non-negative"):
        pylayer.isclose(x, x, atol=-1.0)
    with pytest.raises(ValueError, match=r"allclose\(\).*\[2\].*\[3\]"):
        pylayer.allclose(x, pylayer.ones([3]))


# --------------------------------------------------------------------- logic
LOGICAL = [("logical_and", pylayer.logical_and, np.logical_and, lambda x, y: x & y),
           ("logical_or", pylayer.logical_or, np.logical_or, lambda x, y: x | y),
           ("logical_xor", pylayer.logical_xor, np.logical_xor, lambda x, y: x ^ y)]


@pytest.mark.parametrize("name, op, ref, operator", LOGICAL, ids=[l[0] for l in LOGICAL])
def test_logical_binary_ops(name, op, ref, operator):
    a = np.array([[True, True, False, False]])
    b = np.array([[True], [False]])
    for out in (op(pylayer.to_tensor(a), pylayer.to_tensor(b)),
                operator(pylayer.to_tensor(a), pylayer.to_tensor(b))):
        assert out.dtype == "bool" and out.stop_gradient
        np.testing.assert_array_equal(out.numpy(), ref(a, b))
    np.testing.assert_array_equal(op(pylayer.to_tensor([0.0, 2.0]), 1).numpy(),
                                  ref(np.array([0.0, 2.0]), 1))
    assert op(pylayer.to_tensor(True), False).shape == []
    target = pylayer.zeros([2], "bool")
    version = target.inplace_version
    result = op(pylayer.to_tensor([True, False]), True, out=target)
    assert result is target and target.inplace_version == version + 1
    np.testing.assert_array_equal(target.numpy(), ref(np.array([True, False]), True))
    with pytest.raises(ValueError, match=rf"{name}\(\).*broadcast"):
        op(pylayer.ones([2]), pylayer.ones([3]))
    with pytest.raises(TypeError, match=rf"{name}\(\).*'out'"):
        op(pylayer.ones([2]), pylayer.ones([2]), out=[0, 0])


def test_logical_not_and_invert_operator():
    t = pylayer.to_tensor([True, False])
    np.testing.assert_array_equal(pylayer.logical_not(t).numpy(), [False, True])
    np.testing.assert_array_equal((~t).numpy(), [False, True])
    np.testing.assert_array_equal(pylayer.logical_not(pylayer.to_tensor([0.0, 3.0])).numpy(),
                                  [True, False])
    assert pylayer.logical_not(pylayer.to_tensor(False)).shape == []


CLASSIFIERS = [("isnan", pylayer.isnan, np.isnan), ("isinf", pylayer.isinf, np.isinf),
               ("isfinite", pylayer.isfinite, np.isfinite)]


@pytest.mark.parametrize("name, op, ref", CLASSIFIERS, ids=[c[0] for c in CLASSIFIERS])
def test_classifiers(name, op, ref):
    a = np.array([1.0, np.nan, np.inf, -np.inf, 0.0])
    for dtype in ("float16", "float32", "float64"):
        out = op(pylayer.to_tensor(a, dtype=dtype))
        assert out.dtype == "bool" and out.stop_gradient
        np.testing.assert_array_equal(out.numpy(), ref(a))
    ints = op(pylayer.to_tensor([[1, 2]]))
    assert ints.shape == [1, 2] and ints.dtype == "bool"
    np.testing.assert_array_equal(ints.numpy(), ref(np.array([[1.0, 2.0]])))
    np.testing.assert_array_equal(op(pylayer.to_tensor([True])).numpy(), ref(np.array([1.0])))
    assert op(pylayer.to_tensor(np.nan)).shape == []
    b = np.array([[1.0, np.nan], [np.inf, 2.0]])
    np.testing.assert_array_equal(op(non_contiguous(b)).numpy(), ref(b))
