"""pylayer.ops.arithmetic and pylayer.ops.math beyond what the op database checks for every op
(tests/ops/opinfo.py: forward against numpy, gradcheck, gradgradcheck, static mode):
edge values, NaN, non-contiguous inputs, dtype rules and argument errors."""
import math

import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck

from math_helpers import (RNG, assert_silent, grad_of, leaf, non_contiguous, rand, saved_by,
                          through_transpose)
from opinfo import OPS
from references import erf


# --------------------------------------------------- floating-point unary ops
FLOAT_UNARY = [(info.name, info.op, info.ref, info.domain) for info in OPS
               if info.name in ("log1p", "rsqrt", "sin", "cos", "tan", "erf", "reciprocal")]
FLOAT_UNARY_IDS = [u[0] for u in FLOAT_UNARY]


@pytest.mark.parametrize("name, op, ref, domain", FLOAT_UNARY, ids=FLOAT_UNARY_IDS)
@pytest.mark.parametrize("data", [[True, False]], ids=["bool"])
def test_float_unary_refuses_bool_tensors(name, op, ref, domain, data):
    x = pylayer.to_tensor(data)
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'x' \(position 1\) must be a "
                                        rf"floating-point (or complex )?Tensor.*got dtype {x.dtype.name}"):
        op(x)


@pytest.mark.parametrize("name, op, ref, domain", FLOAT_UNARY, ids=FLOAT_UNARY_IDS)
def test_float_unary_rejects_non_tensor_objects(name, op, ref, domain):
    with pytest.raises(TypeError, match=rf"{name}\(\).*'x'.*got str"):
        op("1.0")


def test_float_unary_accepts_float16():
    a = np.array([0.25, 0.5], np.float16)
    for op, ref in ((pylayer.sin, np.sin), (pylayer.erf, erf)):
        out = op(pylayer.to_tensor(a))
        assert out.dtype == "float16"
        np.testing.assert_allclose(out.numpy(), ref(a.astype(np.float64)), rtol=1e-3)


def test_out_of_domain_values_give_nan_and_inf_silently():
    def run():
        return (pylayer.log1p(pylayer.to_tensor([-2.0, -1.0])).numpy(),
                pylayer.rsqrt(pylayer.to_tensor([-1.0, 0.0])).numpy(),
                pylayer.reciprocal(pylayer.to_tensor([0.0])).numpy(),
                pylayer.tan(pylayer.to_tensor([np.inf])).numpy())
    log1p, rsqrt, reciprocal, tan = assert_silent(run)
    assert np.isnan(log1p[0]) and log1p[1] == -np.inf
    assert np.isnan(rsqrt[0]) and rsqrt[1] == np.inf
    assert reciprocal[0] == np.inf
    assert np.isnan(tan[0])


def test_nan_propagates_through_every_elementwise_op():
    nan = pylayer.to_tensor([np.nan])
    for op in (pylayer.log1p, pylayer.rsqrt, pylayer.sin, pylayer.cos, pylayer.tan,
               pylayer.erf, pylayer.reciprocal, pylayer.abs, pylayer.sign, pylayer.floor,
               pylayer.ceil, pylayer.round):
        assert np.isnan(op(nan).numpy()[0]), op.__name__


def test_float_unary_saved_tensors():
    x = leaf(rand(3, low=0.5, high=1.5))
    for op in (pylayer.sin, pylayer.cos, pylayer.tan, pylayer.erf, pylayer.log1p):
        assert saved_by(lambda: op(x)) == [id(x)], op.__name__
    for op in (pylayer.rsqrt, pylayer.reciprocal):
        assert saved_by(lambda: op(x)) == ["output"], op.__name__


# ---------------------------------------------------------------------- erf
def test_erf_accuracy_against_math_erf_on_a_dense_grid():
    grid = np.concatenate([np.linspace(-7, 7, 200001), np.linspace(-1.01, 1.01, 20001),
                           np.geomspace(1e-300, 1e-2, 2001)])
    out = pylayer.erf(pylayer.to_tensor(grid, dtype="float64")).numpy()
    expected = erf(grid)
    assert np.max(np.abs(out - expected)) < 2e-15
    small = (np.abs(grid) < 1e-2) & (grid != 0)
    relative = np.abs(out[small] - expected[small]) / np.abs(expected[small])
    assert np.max(relative) < 1e-15


def test_erf_special_values():
    values = [0.0, -0.0, 1.0, -1.0, 6.0, -6.0, 30.0, np.inf, -np.inf, np.nan]
    out = pylayer.erf(pylayer.to_tensor(values, dtype="float64")).numpy()
    np.testing.assert_array_equal(out[[0, 6, 7, 8]], [0.0, 1.0, 1.0, -1.0])
    assert np.signbit(out[1])
    assert out[2] == pytest.approx(math.erf(1.0), abs=1e-16)
    assert out[3] == -out[2]
    assert out[4] == 1.0 and out[5] == -1.0
    assert np.isnan(out[9])


def test_erf_is_odd_and_monotone():
    a = np.linspace(0, 8, 5001)
    out = pylayer.erf(pylayer.to_tensor(a, dtype="float64")).numpy()
    neg = pylayer.erf(pylayer.to_tensor(-a, dtype="float64")).numpy()
    np.testing.assert_array_equal(neg, -out)
    assert np.all(np.diff(out) >= 0)


def test_erf_gradient_is_the_gaussian_density():
    a = rand(7, low=-3, high=3)
    (g,) = grad_of(pylayer.erf, leaf(a))
    np.testing.assert_allclose(g, 2 / np.sqrt(np.pi) * np.exp(-a * a), rtol=1e-14)


# --------------------------------------------------------------- abs / sign
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_abs_and_sign_forward(dtype):
    a = np.array([-3, -1, 0, 2, 5]).astype(dtype)
    t = pylayer.to_tensor(a)
    np.testing.assert_array_equal(pylayer.abs(t).numpy(), np.abs(a))
    np.testing.assert_array_equal(pylayer.sign(t).numpy(), np.sign(a))
    assert pylayer.abs(t).dtype == dtype and pylayer.sign(t).dtype == dtype


def test_abs_gradient_is_sign_and_zero_at_zero():
    x = leaf([-2.0, 0.0, 3.0])
    (g,) = grad_of(pylayer.abs, x)
    np.testing.assert_array_equal(g, [-1.0, 0.0, 1.0])
    y = leaf(rand(2, 3, low=0.2, high=2) * np.sign(rand(2, 3)))
    assert gradcheck(pylayer.abs, y)
    assert gradgradcheck(pylayer.abs, y)


def test_abs_and_sign_on_zero_d_empty_and_strided_inputs():
    assert pylayer.abs(pylayer.to_tensor(-2.5)).numpy() == 2.5
    assert pylayer.abs(pylayer.to_tensor(-2.5)).shape == []
    assert pylayer.sign(pylayer.zeros([0, 2])).shape == [0, 2]
    a = rand(3, 4)
    np.testing.assert_array_equal(pylayer.abs(non_contiguous(a)).numpy(), np.abs(a))


def test_abs_and_sign_refuse_bool():
    for op in (pylayer.abs, pylayer.sign):
        with pytest.raises(TypeError, match=rf"{op.__name__}\(\).*numeric Tensor.*bool"):
            op(pylayer.to_tensor([True]))


# ------------------------------------------------------------------ rounding
def test_floor_and_ceil_match_numpy():
    a = np.array([-2.5, -1.0, -0.2, 0.0, 0.7, 1.5])
    np.testing.assert_array_equal(pylayer.floor(pylayer.to_tensor(a)).numpy(),
                                  np.floor(a).astype(np.float32))
    np.testing.assert_array_equal(pylayer.ceil(pylayer.to_tensor(a, dtype="float64")).numpy(),
                                  np.ceil(a))


def test_round_goes_half_to_even():
    a = np.array([-2.5, -1.5, -0.5, -0.2, 0.5, 1.5, 2.5, 0.49999999999999994, 2.4])
    out = pylayer.round(pylayer.to_tensor(a, dtype="float64")).numpy()
    np.testing.assert_array_equal(out, [-2, -2, -0.0, -0.0, 0, 2, 2, 0, 2])
    assert np.signbit(out[2]) and np.signbit(out[3])


def test_round_with_decimals():
    a = np.array([1.25, -1.35, 123.456])
    out = pylayer.round(pylayer.to_tensor(a, dtype="float64"), decimals=1).numpy()
    np.testing.assert_allclose(out, [1.2, -1.4, 123.5])
    ints = pylayer.round(pylayer.to_tensor([1234, -1250, 49]), decimals=-2)
    assert ints.dtype == "int64"
    assert ints.numpy().tolist() == [1200, -1200, 0]


@pytest.mark.parametrize("op", [pylayer.floor, pylayer.ceil, pylayer.round])
def test_rounding_keeps_integers_and_shapes(op):
    ints = pylayer.to_tensor([[3, -4]], dtype="int32")
    out = op(ints)
    assert out.dtype == "int32" and out.numpy().tolist() == [[3, -4]]
    assert op(pylayer.to_tensor(2.5)).shape == []
    assert op(pylayer.zeros([2, 0])).shape == [2, 0]
    a = rand(3, 4) * 10
    np.testing.assert_array_equal(op(non_contiguous(a)).numpy(),
                                  op(pylayer.to_tensor(a)).numpy())


@pytest.mark.parametrize("op", [pylayer.floor, pylayer.ceil, pylayer.round, pylayer.sign])
def test_piecewise_constant_ops_have_a_zero_gradient(op):
    x = leaf(rand(2, 3))
    y = op(x)
    assert not y.stop_gradient
    (g,) = grad_of(op, x)
    np.testing.assert_array_equal(g, np.zeros((2, 3)))
    assert gradcheck(op, leaf([0.3, 1.7, -2.2]))


def test_round_rejects_bad_decimals_and_bool_input():
    with pytest.raises(TypeError, match=r"round\(\).*'decimals'.*got float"):
        pylayer.round(pylayer.ones([1]), decimals=1.5)
    with pytest.raises(TypeError, match=r"floor\(\).*bool"):
        pylayer.floor(pylayer.to_tensor([True]))


# ---------------------------------------------------------------------- pow
POW_CASES = [
    ("tensor ** number", lambda x, y: pylayer.pow(x, 3), ((2, 3), None)),
    ("tensor ** fraction", lambda x, y: pylayer.pow(x, 0.5), ((4,), None)),
    ("tensor ** negative", lambda x, y: pylayer.pow(x, -2.0), ((4,), None)),
    ("tensor ** tensor", pylayer.pow, ((2, 3), (2, 3))),
    ("tensor ** broadcast tensor", pylayer.pow, ((2, 3), (3,))),
    ("broadcast tensor ** tensor", pylayer.pow, ((3, 1), (1, 2))),
    ("0-d ** tensor", pylayer.pow, ((), (4,))),
    ("number ** tensor", lambda x, y: pylayer.pow(2.0, y), (None, (2, 3))),
    ("operator **", lambda x, y: x ** y, ((2, 2), (2,))),
    ("operator rpow", lambda x, y: 3 ** y, (None, (3,))),
]


@pytest.mark.parametrize("label, fn, shapes", POW_CASES, ids=[c[0] for c in POW_CASES])
def test_pow_forward_and_gradients(label, fn, shapes):
    x = leaf(rand(*shapes[0], low=0.5, high=2.0)) if shapes[0] is not None else None
    y = leaf(rand(*shapes[1], low=-1.5, high=2.0)) if shapes[1] is not None else None
    out = fn(x, y)
    xs = x.numpy() if x is not None else None
    ys = y.numpy() if y is not None else None
    expected = {"tensor ** number": lambda: xs ** 3, "tensor ** fraction": lambda: xs ** 0.5,
                "tensor ** negative": lambda: xs ** -2.0, "number ** tensor": lambda: 2.0 ** ys,
                "operator rpow": lambda: 3 ** ys}.get(label, lambda: xs ** ys)()
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-13)
    inputs = tuple(t for t in (x, y) if t is not None)
    call = (lambda *ts: fn(*ts)) if len(inputs) == 2 else \
        ((lambda t: fn(t, None)) if x is not None else (lambda t: fn(None, t)))
    assert gradcheck(call, inputs)
    assert gradgradcheck(call, inputs)


def test_pow_gradient_edge_cases_are_finite():
    x = leaf([0.0, 2.0])
    (g,) = grad_of(lambda t: pylayer.pow(t, 0), x)
    np.testing.assert_array_equal(g, [0.0, 0.0])
    base, exponent = leaf([0.0, 0.0]), leaf([2.0, 0.0])
    gx, gy = grad_of(pylayer.pow, base, exponent)
    np.testing.assert_array_equal(gx, [0.0, 0.0])
    np.testing.assert_array_equal(gy, [0.0, 0.0])
    y = leaf([1.0, 2.0])
    (g,) = grad_of(lambda t: pylayer.pow(0.0, t), y)
    np.testing.assert_array_equal(g, [0.0, 0.0])


def test_pow_dtypes():
    ints = pylayer.to_tensor([1, 2, 3])
    assert pylayer.pow(ints, 2).dtype == "int64"
    assert pylayer.pow(ints, 2).numpy().tolist() == [1, 4, 9]
    root = pylayer.pow(ints, 0.5)
    assert root.dtype == "float32"
    np.testing.assert_allclose(root.numpy(), np.sqrt([1, 2, 3]), rtol=1e-6)
    assert pylayer.pow(pylayer.ones([2], "float32"), 2).dtype == "float32"
    assert pylayer.pow(pylayer.ones([2], "float16"), 2.5).dtype == "float16"
    assert pylayer.pow(pylayer.ones([2], "float32"), pylayer.ones([2], "float64")).dtype \
        == "float64"
    assert pylayer.pow(pylayer.ones([2], "float32"), pylayer.to_tensor([1, 2])).dtype \
        == "float32"


def test_pow_errors():
    with pytest.raises(ValueError, match=r"pow\(\).*negative integer power"):
        pylayer.pow(pylayer.to_tensor([2, 3]), -1)
    with pytest.raises(ValueError, match=r"pow\(\).*\[2\].*\[3\].*broadcast"):
        pylayer.pow(pylayer.ones([2]), pylayer.ones([3]))
    with pytest.raises(TypeError, match=r"pow\(\).*'y'.*position 2.*str"):
        pylayer.pow(pylayer.ones([2]), "2")


def test_pow_on_empty_and_strided_inputs():
    assert pylayer.pow(pylayer.zeros([0, 3]), 2).shape == [0, 3]
    a = rand(3, 4, low=0.5, high=2)
    np.testing.assert_allclose(pylayer.pow(non_contiguous(a), 3).numpy(), a ** 3, rtol=1e-6)
    fn, base = through_transpose(lambda t: pylayer.pow(t, 3), a)
    assert gradcheck(fn, base)


def test_pow_saves_its_tensor_inputs():
    x, y = leaf([1.0, 2.0]), leaf([2.0, 3.0])
    assert saved_by(lambda: pylayer.pow(x, 2)) == [id(x)]
    assert saved_by(lambda: pylayer.pow(x, y)) == [id(x), id(y)]


# -------------------------------------------------------- maximum / minimum
EXTREMES = [("maximum", pylayer.maximum, np.maximum), ("minimum", pylayer.minimum, np.minimum)]


@pytest.mark.parametrize("name, op, ref", EXTREMES, ids=[e[0] for e in EXTREMES])
def test_extremes_split_the_gradient_evenly_at_ties(name, op, ref):
    x, y = leaf([1.0, 2.0, 3.0]), leaf([1.0, 0.0, 5.0])
    gx, gy = grad_of(op, x, y)
    if name == "maximum":
        np.testing.assert_array_equal(gx, [0.5, 1.0, 0.0])
        np.testing.assert_array_equal(gy, [0.5, 0.0, 1.0])
    else:
        np.testing.assert_array_equal(gx, [0.5, 0.0, 1.0])
        np.testing.assert_array_equal(gy, [0.5, 1.0, 0.0])


@pytest.mark.parametrize("name, op, ref", EXTREMES, ids=[e[0] for e in EXTREMES])
def test_extremes_propagate_nan_and_route_its_gradient(name, op, ref):
    x, y = leaf([np.nan, 1.0]), leaf([1.0, np.nan])
    out = op(x, y)
    assert np.isnan(out.numpy()).all()
    gx, gy = grad_of(op, x, y)
    np.testing.assert_array_equal(gx, [1.0, 0.0])
    np.testing.assert_array_equal(gy, [0.0, 1.0])


@pytest.mark.parametrize("name, op, ref", EXTREMES, ids=[e[0] for e in EXTREMES])
def test_extremes_with_numbers_integers_and_strided_inputs(name, op, ref):
    ints = pylayer.to_tensor([1, 5])
    assert op(ints, 3).dtype == "int64"
    assert op(ints, 3).numpy().tolist() == ref(np.array([1, 5]), 3).tolist()
    assert op(ints, 2.5).dtype == "float32"
    assert op(3.0, pylayer.to_tensor([1.0, 5.0])).numpy().tolist() == \
        ref(3.0, np.array([1.0, 5.0])).tolist()
    a, b = rand(3, 4), rand(3, 4)
    np.testing.assert_array_equal(op(non_contiguous(a), non_contiguous(b)).numpy(), ref(a, b))
    with pytest.raises(ValueError, match=rf"{name}\(\).*\[2\].*\[3\]"):
        op(pylayer.ones([2]), pylayer.ones([3]))


def test_extremes_save_both_inputs():
    x, y = leaf([1.0]), leaf([2.0])
    assert saved_by(lambda: pylayer.maximum(x, y)) == [id(x), id(y)]


# ---------------------------------------------------------------------- clip
def test_clip_forward_matches_numpy():
    a = rand(3, 4, low=-3, high=3)
    for lo, hi in ((-1.0, 1.0), (None, 0.5), (-0.5, None), (None, None), (1.0, 1.0)):
        out = pylayer.clip(pylayer.to_tensor(a, dtype="float64"), min=lo, max=hi)
        expected = np.clip(a, -np.inf if lo is None else lo, np.inf if hi is None else hi)
        np.testing.assert_array_equal(out.numpy(), expected)


def test_clip_gradient_passes_inside_the_bounds_and_at_them():
    x = leaf([-2.0, -1.0, 0.0, 1.0, 2.0])
    (g,) = grad_of(lambda t: pylayer.clip(t, -1.0, 1.0), x)
    np.testing.assert_array_equal(g, [0.0, 1.0, 1.0, 1.0, 0.0])
    y = leaf(rand(2, 5, low=-3, high=3))
    fn = lambda t: pylayer.clip(t, min=-1.0, max=1.5) * t
    assert gradcheck(fn, y)
    assert gradgradcheck(fn, y)


def test_clip_keeps_dtype_and_clips_integers_to_integers():
    ints = pylayer.to_tensor([-3, 0, 1, 2, 9], dtype="int32")
    out = pylayer.clip(ints, min=0.5, max=2.5)
    assert out.dtype == "int32"
    assert out.numpy().tolist() == [1, 1, 1, 2, 2]
    assert pylayer.clip(ints, min=-np.inf, max=np.inf).numpy().tolist() == [-3, 0, 1, 2, 9]
    assert pylayer.clip(pylayer.ones([2], "float32"), 0, 2).dtype == "float32"


def test_clip_accepts_tensor_bounds():
    a = np.array([[-2.0, 0.0, 3.0], [1.0, 5.0, -1.0]])
    one = pylayer.clip(pylayer.to_tensor(a), min=pylayer.to_tensor(-1.0),
                       max=pylayer.to_tensor([2.0]))
    np.testing.assert_array_equal(one.numpy(), np.clip(a, -1, 2).astype(np.float32))
    row_max = np.array([0.0, 1.0, 2.0])
    out = pylayer.clip(pylayer.to_tensor(a, dtype="float64"), max=pylayer.to_tensor(row_max))
    np.testing.assert_array_equal(out.numpy(), np.minimum(a, row_max))


def test_clip_zero_d_empty_strided_and_nan():
    assert pylayer.clip(pylayer.to_tensor(5.0), 0, 1).numpy() == 1.0
    assert pylayer.clip(pylayer.zeros([0, 2]), 0, 1).shape == [0, 2]
    a = rand(3, 4)
    np.testing.assert_array_equal(pylayer.clip(non_contiguous(a), -1, 1).numpy(),
                                  np.clip(a, -1, 1))
    assert np.isnan(pylayer.clip(pylayer.to_tensor([np.nan]), 0, 1).numpy()[0])


def test_clip_errors():
    x = pylayer.ones([3])
    with pytest.raises(ValueError, match=r"clip\(\).*'min' must not exceed 'max'"):
        pylayer.clip(x, min=2.0, max=1.0)
    with pytest.raises(TypeError, match=r"clip\(\).*'min'.*position 2.*str"):
        pylayer.clip(x, min="0")
    with pytest.raises(ValueError, match=r"clip\(\).*'max'.*\[2\].*\[3\]"):
        pylayer.clip(x, max=pylayer.ones([2]))
    with pytest.raises(ValueError, match=r"clip\(\).*'max'.*NaN"):
        pylayer.clip(x, max=float("nan"))
    with pytest.raises(TypeError, match=r"clip\(\).*bool"):
        pylayer.clip(pylayer.to_tensor([True]), 0, 1)


def test_clip_saves_its_input():
    x = leaf([1.0, 2.0])
    assert saved_by(lambda: pylayer.clip(x, 0.0, 1.5)) == [id(x)]


# --------------------------------------------------------------------- where
@pytest.mark.parametrize("shapes", [((3,), (3,), (3,)), ((2, 3), (3,), (2, 1)),
                                    ((3,), (), (2, 3)), ((2, 1), (1, 3), ())], ids=str)
def test_where_forward_and_gradients(shapes):
    condition = RNG.uniform(size=shapes[0]) > 0.5
    a, b = rand(*shapes[1]), rand(*shapes[2])
    out = pylayer.where(pylayer.to_tensor(condition), pylayer.to_tensor(a, dtype="float64"),
                        pylayer.to_tensor(b, dtype="float64"))
    np.testing.assert_array_equal(out.numpy(), np.where(condition, a, b))
    cond = pylayer.to_tensor(condition)
    fn = lambda s, t: pylayer.where(cond, s, t)
    x, y = leaf(a), leaf(b)
    assert gradcheck(fn, (x, y))
    assert gradgradcheck(fn, (x, y))
    x.clear_grad(), y.clear_grad()
    gx, gy = grad_of(fn, x, y)
    assert gx.shape == a.shape and gy.shape == b.shape
    full = np.broadcast_to(condition, np.broadcast_shapes(condition.shape, a.shape, b.shape))
    assert gx.sum() + gy.sum() == pytest.approx(full.size)
    assert gx.sum() == pytest.approx(full.sum())


def test_where_with_numbers_keeps_the_tensor_dtype():
    cond = pylayer.to_tensor([True, False])
    assert pylayer.where(cond, pylayer.ones([2], "float32"), 0.0).dtype == "float32"
    assert pylayer.where(cond, 1.0, 0.0).dtype == "float32"
    assert pylayer.where(cond, 1, 0).dtype == "int64"
    assert pylayer.where(cond, 1, 0).numpy().tolist() == [1, 0]
    assert pylayer.where(cond, pylayer.ones([2], "float64"), 0).dtype == "float64"


def test_where_condition_forms():
    numeric = pylayer.where(pylayer.to_tensor([0, 2]), 1.0, -1.0)
    assert numeric.numpy().tolist() == [-1.0, 1.0]
    rows, cols = pylayer.where(pylayer.to_tensor([[True, False], [False, True]]))
    assert rows.dtype == "int64" and rows.shape == [2]
    assert rows.numpy().tolist() == [0, 1] and cols.numpy().tolist() == [0, 1]
    with pytest.raises(ValueError, match=r"where\(\).*'condition'.*0-D"):
        pylayer.where(pylayer.to_tensor(True))
    a = rand(3, 4)
    cond = non_contiguous(a > 0)
    np.testing.assert_array_equal(pylayer.where(cond, non_contiguous(a), 0.0).numpy(),
                                  np.where(a > 0, a, 0))
    assert pylayer.where(pylayer.zeros([0], "bool"), 1.0, 2.0).shape == [0]


def test_where_errors():
    cond = pylayer.to_tensor([True, False])
    with pytest.raises(ValueError, match=r"where\(\).*both 'x' and 'y'"):
        pylayer.where(cond, pylayer.ones([2]))
    with pytest.raises(ValueError, match=r"where\(\).*\[2\].*\[3\]"):
        pylayer.where(cond, pylayer.ones([3]), 0.0)
    with pytest.raises(TypeError, match=r"where\(\).*'condition'.*str"):
        pylayer.where("yes", 1.0, 0.0)


def test_where_saves_only_the_condition():
    cond = pylayer.to_tensor([True, False])
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    assert saved_by(lambda: pylayer.where(cond, x, y)) == [id(cond)]


# ---------------------------------------------- floor_divide and remainder
DIVISIONS = [("floor_divide", pylayer.floor_divide, np.floor_divide, lambda x, y: x // y),
             ("remainder", pylayer.remainder, np.remainder, lambda x, y: x % y)]


@pytest.mark.parametrize("name, op, ref, operator", DIVISIONS, ids=[d[0] for d in DIVISIONS])
def test_divisions_match_numpy_and_python(name, op, ref, operator):
    a = np.array([7, -7, 7, -7, 0])
    b = np.array([2, 2, -2, -2, 3])
    for out in (op(pylayer.to_tensor(a), pylayer.to_tensor(b)),
                operator(pylayer.to_tensor(a), pylayer.to_tensor(b))):
        assert out.dtype == "int64"
        assert out.numpy().tolist() == [operator(int(p), int(q)) for p, q in zip(a, b)]
    f = rand(2, 3) * 5
    g = rand(3, low=0.5, high=2) * np.array([1, -1, 1])
    out = op(pylayer.to_tensor(f, dtype="float64"), pylayer.to_tensor(g, dtype="float64"))
    np.testing.assert_allclose(out.numpy(), ref(f, g), rtol=1e-13, atol=1e-14)
    np.testing.assert_array_equal(operator(pylayer.to_tensor(a), 3).numpy(), ref(a, 3))
    np.testing.assert_array_equal(operator(20, pylayer.to_tensor([3, -6])).numpy(),
                                  ref(20, np.array([3, -6])))
    assert op(pylayer.to_tensor([7]), 2.0).dtype == "float32"
    assert op(pylayer.to_tensor(7.0), 2.0).shape == []
    assert op(pylayer.zeros([0]), 2.0).shape == [0]


@pytest.mark.parametrize("name, op, ref, operator", DIVISIONS, ids=[d[0] for d in DIVISIONS])
def test_integer_division_by_zero_raises_and_float_gives_nan(name, op, ref, operator):
    with pytest.raises(ZeroDivisionError, match=rf"{name}\(\).*division by zero"):
        op(pylayer.to_tensor([1, 2]), pylayer.to_tensor([1, 0]))
    with pytest.raises(ZeroDivisionError):
        operator(pylayer.to_tensor([1]), 0)
    out = assert_silent(lambda: op(pylayer.to_tensor([1.0, 0.0]), 0.0).numpy())
    expected = np.array([np.inf, np.nan]) if name == "floor_divide" else np.array([np.nan] * 2)
    np.testing.assert_array_equal(out, expected)


def test_floor_divide_has_a_zero_gradient():
    x, y = leaf([7.0, -3.5]), leaf([2.0, 1.5])
    gx, gy = grad_of(pylayer.floor_divide, x, y)
    np.testing.assert_array_equal(gx, [0.0, 0.0])
    np.testing.assert_array_equal(gy, [0.0, 0.0])
    gx, = grad_of(lambda t: pylayer.floor_divide(t, pylayer.ones([2, 2], "float64")), leaf([1.0, 2.0]))
    assert gx.shape == (2,)


def test_remainder_gradients():
    x = leaf(rand(2, 3, low=0.1, high=5))
    y = leaf(rand(3, low=0.7, high=1.3))
    assert gradcheck(pylayer.remainder, (x, y))
    assert gradgradcheck(pylayer.remainder, (x, y))
    gx, gy = grad_of(pylayer.remainder, leaf([7.5]), leaf([2.0]))
    assert gx.tolist() == [1.0] and gy.tolist() == [-3.0]
    assert gradcheck(lambda t: t % 1.5, leaf([0.2, 2.0, 4.0]))


def test_remainder_saves_both_inputs():
    x, y = leaf([1.0]), leaf([2.0])
    assert saved_by(lambda: pylayer.remainder(x, y)) == [id(x), id(y)]
