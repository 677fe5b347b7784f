"""Paddle 3.3.1's observed behaviour of the elementwise ops of issue 33 that the op
database cannot express: dtype rules, values at domain edges, gradient conventions,
errors, in-place forms and the PyTorch-style aliases. Where Paddle is wrong the test
says so and checks what PyTorch does."""
import math

import numpy as np
import pytest

import pylayer
from pylayer._methods import build


def f64(values, stop_gradient=False):
    return pylayer.to_tensor(np.asarray(values, dtype=np.float64), stop_gradient=stop_gradient)


def gradients(fn, *values):
    """(forward values, [gradient of each input]) of ``fn(...).sum()`` in float64."""
    inputs = [f64(v) for v in values]
    out = fn(*inputs)
    grads = pylayer.grad(out, inputs, grad_outputs=pylayer.ones_like(out), allow_unused=True)
    return out.numpy(), [None if g is None else g.numpy() for g in grads]


inf, nan = math.inf, math.nan


# ---------------------------------------------------------------- dtype rules
@pytest.mark.parametrize("name", ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh",
                                  "sinh", "expm1", "log2", "log10", "logit", "stanh",
                                  "deg2rad", "rad2deg"])
def test_integers_are_computed_in_float32_and_bools_refused(name):
    fn = getattr(pylayer, name)
    for dtype in ("int32", "int64", "uint8"):
        assert fn(pylayer.to_tensor([1, 2], dtype=dtype)).dtype == pylayer.float32
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'x'"):
        fn(pylayer.to_tensor([True, False]))


@pytest.mark.parametrize("name", ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh",
                                  "sinh", "expm1", "log2", "log10", "stanh", "sinc", "sgn",
                                  "deg2rad", "rad2deg"])
def test_complex_tensors_keep_their_dtype(name):
    for dtype in ("complex64", "complex128"):
        x = pylayer.to_tensor([0.5 + 0.25j, 0.3 - 0.1j], dtype=dtype)
        assert getattr(pylayer, name)(x).dtype == dtype


@pytest.mark.parametrize("name", ["logit", "trunc", "frac", "signbit", "isneginf", "isposinf",
                                  "hypot", "nextafter", "logaddexp", "atan2", "frexp",
                                  "nan_to_num"])
def test_complex_tensors_are_refused_where_paddle_refuses_them(name):
    fn = getattr(pylayer, name)
    x = pylayer.to_tensor([1 + 1j])
    with pytest.raises(TypeError, match=rf"{name}\(\)"):
        fn(x, x) if name in ("hypot", "nextafter", "logaddexp", "atan2") else fn(x)


def test_atan2_computes_integers_in_float64_as_paddle_does():
    out = pylayer.atan2(pylayer.to_tensor([1], dtype="int32"), pylayer.to_tensor([2]))
    assert out.dtype == pylayer.float64
    np.testing.assert_allclose(out.numpy(), [0.4636476090008061])
    x = pylayer.to_tensor([0.0, 0.0, 1.0, -0.0], dtype="float64")
    y = pylayer.to_tensor([0.0, -0.0, 0.0, -1.0], dtype="float64")
    np.testing.assert_allclose(pylayer.atan2(x, y).numpy(), [0, math.pi, math.pi / 2, -math.pi])


def test_binary_float_math_keeps_a_half_precision_dtype():
    for dtype in ("float16", "bfloat16"):
        x = pylayer.to_tensor([0.5, 1.0]).astype(dtype)
        assert pylayer.atan2(x, x).dtype == dtype and pylayer.atan2(x, 2.0).dtype == dtype
        assert pylayer.logaddexp(1.0, x).dtype == dtype


def test_integer_exact_ops_keep_the_integer_dtype():
    x = pylayer.to_tensor([3, -2], dtype="int32")
    assert pylayer.trunc(x).dtype == pylayer.int32
    assert pylayer.frac(x).numpy().tolist() == [0, 0] and pylayer.frac(x).dtype == pylayer.int32
    assert pylayer.copysign(pylayer.to_tensor([1, -2]), pylayer.to_tensor([-1, 3])).numpy() \
        .tolist() == [-1, 2]
    assert pylayer.copysign(pylayer.to_tensor([1, 2]), -1.0).dtype == pylayer.int64
    booleans = pylayer.copysign(pylayer.to_tensor([True, False]), pylayer.to_tensor([True, True]))
    assert booleans.dtype == pylayer.bool and booleans.numpy().tolist() == [True, False]
    assert pylayer.fmax(pylayer.to_tensor([1, 5]), pylayer.to_tensor([3, 2])).dtype == pylayer.int64
    assert pylayer.heaviside(pylayer.to_tensor([-1, 0, 4]), pylayer.to_tensor([7])).numpy() \
        .tolist() == [0, 7, 1]


def test_ldexp_result_dtype_follows_paddle():
    def dtype(a, b):
        return pylayer.ldexp(pylayer.to_tensor([2, 3], dtype=a), pylayer.to_tensor([1, 2], dtype=b)).dtype
    assert dtype("int64", "float32") == pylayer.float32
    assert dtype("int32", "int64") == pylayer.float32
    assert dtype("float32", "int64") == pylayer.float32
    assert dtype("float32", "float64") == pylayer.float64
    assert dtype("float64", "int32") == pylayer.float64
    assert pylayer.ldexp(pylayer.to_tensor([1, 2]), pylayer.to_tensor([3, 4])).numpy().tolist() \
        == [8.0, 32.0]


def test_true_divide_makes_integers_float32_and_takes_pytorchs_names():
    out = pylayer.true_divide(pylayer.to_tensor([1, 2]), pylayer.to_tensor([2, 4]))
    assert out.dtype == pylayer.float32 and out.numpy().tolist() == [0.5, 0.5]
    assert pylayer.true_divide(input=f64([1.0]), other=f64([2.0])).numpy().tolist() == [0.5]
    with pytest.raises(TypeError, match=r"true_divide\(\): argument 'input'"):
        pylayer.true_divide(pylayer.to_tensor([True]), pylayer.to_tensor([1.0]))


@pytest.mark.parametrize("name", ["sinc", "sgn", "nextafter", "frexp", "lerp"])
def test_integer_tensors_are_refused_where_paddle_refuses_them(name):
    x = pylayer.to_tensor([1, 2])
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'x'"):
        if name == "nextafter":
            pylayer.nextafter(x, x)
        elif name == "lerp":
            pylayer.lerp(x, x, 0.5)
        else:
            getattr(pylayer, name)(x)


def test_nan_to_num_takes_only_floating_point_tensors():
    with pytest.raises(TypeError, match=r"nan_to_num\(\): argument 'x'"):
        pylayer.nan_to_num(pylayer.to_tensor([1]))


# ----------------------------------------------------- values at domain edges
def test_inverse_trigonometric_gradients_at_the_domain_edges():
    out, (g,) = gradients(pylayer.acos, [1.0, -1.0, 0.5, 2.0])
    np.testing.assert_allclose(out, [0, math.pi, math.acos(0.5), nan])
    np.testing.assert_allclose(g, [-inf, -inf, -1 / math.sqrt(0.75), nan])
    _, (g,) = gradients(pylayer.asin, [1.0, -1.0, 0.5])
    np.testing.assert_allclose(g, [inf, inf, 1 / math.sqrt(0.75)])
    out, (g,) = gradients(pylayer.acosh, [1.0, 0.5, 2.0])
    np.testing.assert_allclose(out, [0, nan, math.acosh(2)])
    np.testing.assert_allclose(g, [inf, nan, 1 / math.sqrt(3)])
    out, (g,) = gradients(pylayer.atanh, [1.0, -1.0, 0.5, 2.0])
    np.testing.assert_allclose(out, [inf, -inf, math.atanh(0.5), nan])
    np.testing.assert_allclose(g, [inf, inf, 4 / 3, -1 / 3])


def test_complex_inverse_functions_take_numpys_branches():
    np.testing.assert_allclose(pylayer.acos(pylayer.to_tensor([2 + 1j], dtype="complex128")).numpy(),
                               [0.5073563 - 1.46935174j], rtol=1e-7)
    np.testing.assert_allclose(pylayer.atanh(pylayer.to_tensor([2 + 1j], dtype="complex128")).numpy(),
                               [0.40235948 + 1.33897252j], rtol=1e-7)
    np.testing.assert_allclose(pylayer.acosh(pylayer.to_tensor([-2 + 0j], dtype="complex128")).numpy(),
                               [1.3169579 + 3.14159265j], rtol=1e-7)


def test_atan2_and_hypot_gradients_are_nan_at_the_origin():
    _, (gx, gy) = gradients(pylayer.atan2, [0.0, 1.0, -0.0], [0.0, 0.0, -1.0])
    np.testing.assert_allclose(gx, [nan, 0, -1])
    np.testing.assert_allclose(gy, [nan, -1, 0])
    out, (gx, gy) = gradients(pylayer.hypot, [3.0, 0.0, -3.0], [4.0, 0.0, 4.0])
    np.testing.assert_allclose(out, [5, 0, 5])
    np.testing.assert_allclose(gx, [0.6, nan, -0.6])
    np.testing.assert_allclose(gy, [0.8, nan, 0.8])


def test_logarithms_at_zero_and_below():
    out, (g,) = gradients(pylayer.log2, [0.0, -1.0, 8.0])
    np.testing.assert_allclose(out, [-inf, nan, 3])
    np.testing.assert_allclose(g, [inf, -1 / math.log(2), 1 / (8 * math.log(2))])
    assert pylayer.log10(pylayer.to_tensor([100.0])).numpy().tolist() == [2.0]
    out, (g,) = gradients(pylayer.expm1, [1e-10, 1.0])
    np.testing.assert_allclose(out, [1e-10, math.e - 1])
    np.testing.assert_allclose(g, [1, math.e])


def test_logit_without_eps():
    out, (g,) = gradients(pylayer.logit, [0.0, 1.0, 0.5, -0.5, 1.5])
    np.testing.assert_allclose(out, [-inf, inf, 0, nan, nan])
    np.testing.assert_allclose(g, [inf, inf, 4, nan, nan])
    out, (g,) = gradients(lambda x: pylayer.logit(x, eps=-1.0), [0.0, 1.0, 0.5, -0.5])
    np.testing.assert_allclose(out, [-inf, inf, 0, nan])      # a negative eps is no eps
    np.testing.assert_allclose(g, [inf, inf, 4, nan])


def test_logit_with_eps_limits_x_and_passes_the_gradient_at_the_bounds():
    out, (g,) = gradients(lambda x: pylayer.logit(x, eps=0.1),
                          [0.0, 1.0, 0.05, 0.1, 0.5, 0.9, -0.5, 1.5])
    edge = math.log(0.1 / 0.9)
    np.testing.assert_allclose(out, [edge, -edge, edge, edge, 0, -edge, edge, -edge])
    np.testing.assert_allclose(g, [0, 0, 0, 1 / 0.09, 4, 1 / 0.09, 0, 0])
    out, (g,) = gradients(lambda x: pylayer.logit(x, eps=0.6), [0.0, 1.0, 0.5])
    np.testing.assert_allclose(out, [math.log(1.5)] * 3)
    np.testing.assert_allclose(g, [0, 0, 0])


def test_logaddexp_of_infinities_follows_numpy_not_paddle():
    # Paddle 3.3.1 gives NaN for both; numpy and PyTorch give -inf and inf.
    out, (gx, gy) = gradients(pylayer.logaddexp, [1.0, -inf, inf], [2.0, -inf, inf])
    np.testing.assert_allclose(out, [math.log(math.e + math.e ** 2), -inf, inf])
    np.testing.assert_allclose(gx[0], 1 / (1 + math.e))
    np.testing.assert_allclose(gy[0], math.e / (1 + math.e))


def test_frac_and_trunc():
    out, (g,) = gradients(pylayer.frac, [-1.5, 2.25, -0.0, inf])
    np.testing.assert_allclose(out, [-0.5, 0.25, 0, nan])
    np.testing.assert_allclose(g, [1, 1, 1, 1])
    out, (g,) = gradients(pylayer.trunc, [-1.5, 2.5])
    np.testing.assert_allclose(out, [-1, 2])
    np.testing.assert_allclose(g, [0, 0])
    assert pylayer.trunc(input=pylayer.to_tensor([1.5])).numpy().tolist() == [1.0]
    with pytest.raises(TypeError, match=r"frac\(\): argument 'x'"):
        pylayer.frac(pylayer.to_tensor([True]))


def test_copysign_reads_the_sign_bit_and_gives_y_a_zero_gradient():
    out, (gx, gy) = gradients(pylayer.copysign, [1.0, -2.0, 0.0, 3.0, 0.0],
                              [-1.0, 1.0, -1.0, -0.0, 2.0])
    np.testing.assert_array_equal(out, [-1, 2, -0.0, -3, 0])
    assert np.signbit(out[2]) and not np.signbit(out[4])
    np.testing.assert_array_equal(gx, [-1, -1, 0, -1, 0])
    np.testing.assert_array_equal(gy, [0, 0, 0, 0, 0])
    np.testing.assert_array_equal(pylayer.copysign(f64([1.0, 2.0]), -1.0).numpy(), [-1, -2])


def test_ldexp_gradients():
    out, (gx,) = gradients(lambda x: pylayer.ldexp(x, pylayer.to_tensor([1, 2, -1])),
                           [1.5, 2.0, 3.0])
    np.testing.assert_array_equal(out, [3, 8, 1.5])
    np.testing.assert_array_equal(gx, [2, 4, 0.5])
    _, (gx, gy) = gradients(pylayer.ldexp, [1.5, 2.0, 3.0], [1.0, 2.0, -1.0])
    np.testing.assert_allclose(gy, [3 * math.log(2), 8 * math.log(2), 1.5 * math.log(2)])


def test_frexp_splits_into_mantissa_and_exponent():
    mantissa, exponent = pylayer.frexp(f64([8.0, -0.3, 0.0], stop_gradient=True))
    np.testing.assert_allclose(mantissa.numpy(), [0.5, -0.6, 0])
    np.testing.assert_array_equal(exponent.numpy(), [4, -1, 0])
    assert exponent.dtype == pylayer.float64
    m32, e32 = pylayer.frexp(pylayer.to_tensor([8.0, -0.3]))
    assert m32.dtype == e32.dtype == pylayer.float32
    x = f64([8.0, -0.3])
    mantissa, exponent = pylayer.frexp(x)
    assert exponent.stop_gradient
    np.testing.assert_allclose(pylayer.grad(mantissa.sum(), x)[0].numpy(), [0.0625, 2.0])
    # numpy's (and C's) convention for inf and NaN: themselves, exponent 0 (Paddle: 1, NaN)
    mantissa, exponent = pylayer.frexp(f64([inf, nan], stop_gradient=True))
    np.testing.assert_array_equal(mantissa.numpy(), [inf, nan])
    np.testing.assert_array_equal(exponent.numpy(), [0, 0])


def test_nextafter_steps_one_ulp_and_records_no_graph():
    out = pylayer.nextafter(pylayer.to_tensor([1.0]), pylayer.to_tensor([2.0]))
    assert out.numpy().tolist() == [np.nextafter(np.float32(1), np.float32(2))]
    x = f64([1.0, 0.0])
    out = pylayer.nextafter(x, f64([2.0, -1.0]))
    assert out.stop_gradient and out.grad_fn is None
    np.testing.assert_array_equal(out.numpy(), [1 + 2 ** -52, -5e-324])


def test_gcd_and_lcm():
    x, y = pylayer.to_tensor([12, -18, 0, 0, 7]), pylayer.to_tensor([8, 12, 5, 0, -3])
    assert pylayer.gcd(x, y).numpy().tolist() == [4, 6, 5, 0, 1]
    assert pylayer.lcm(x, y).numpy().tolist() == [24, 36, 0, 0, 21]
    assert pylayer.gcd(pylayer.to_tensor([[12], [6]]), pylayer.to_tensor([8, 9])).numpy() \
        .tolist() == [[4, 3], [2, 3]]
    a, b = f64([-1.5, 2.0, 0.0], True), f64([0.5, -3.0, 0.0], True)
    np.testing.assert_array_equal(pylayer.gcd(a, b).numpy(), [0.5, 1, 0])
    np.testing.assert_array_equal(pylayer.lcm(a, b).numpy(), [1.5, 6, 0])
    with pytest.raises(TypeError, match=r"gcd\(\): argument 'x'"):
        pylayer.gcd(pylayer.to_tensor([True]), pylayer.to_tensor([True]))


def test_heaviside_of_nan_is_zero_and_only_y_gets_a_gradient_where_x_is_zero():
    out, (gx, gy) = gradients(pylayer.heaviside, [-1.0, 0.0, 2.0, nan], [0.5, 0.7, 0.3, 0.2])
    np.testing.assert_array_equal(out, [0, 0.7, 1, 0])
    np.testing.assert_array_equal(gx, [0, 0, 0, 0])
    np.testing.assert_array_equal(gy, [0, 1, 0, 0])


def test_fmax_and_fmin_gradients_with_ties_and_nans():
    x, y = [1.0, 2.0, nan, nan, 3.0], [1.0, 1.0, 1.0, nan, nan]
    out, (gx, gy) = gradients(pylayer.fmax, x, y)
    np.testing.assert_array_equal(out, [1, 2, 1, nan, 3])
    np.testing.assert_array_equal(gx, [1, 1, 0, 1, 1])
    np.testing.assert_array_equal(gy, [0, 0, 1, 0, 0])
    out, (gx, gy) = gradients(pylayer.fmin, x, y)
    np.testing.assert_array_equal(out, [1, 1, 1, nan, 3])
    np.testing.assert_array_equal(gx, [1, 0, 0, 1, 1])
    np.testing.assert_array_equal(gy, [0, 1, 1, 0, 0])


def test_signbit_sees_negative_zero_and_negative_nan():
    x = pylayer.to_tensor(np.array([-0.0, 0.0, -1.0, nan, -nan]))
    assert pylayer.signbit(x).numpy().tolist() == [True, False, True, False, True]
    assert pylayer.signbit(pylayer.to_tensor([-1, 0, 3], dtype="int32")).numpy().tolist() \
        == [True, False, False]


def test_sgn_of_complex_numbers_and_its_gradient():
    out, (g,) = gradients(pylayer.sgn, [-2.0, 0.0, 3.0])
    np.testing.assert_array_equal(out, [-1, 0, 1])
    np.testing.assert_array_equal(g, [0, 0, 0])
    x = pylayer.to_tensor([3 + 4j, 0j, 1j], dtype="complex128", stop_gradient=False)
    out = pylayer.sgn(x)
    np.testing.assert_allclose(out.numpy(), [0.6 + 0.8j, 0, 1j])
    (g,) = pylayer.grad(out.sum(), x)
    # Paddle gives NaN at 0; PyTorch gives 0.
    np.testing.assert_allclose(g.numpy(), [0.128 - 0.096j, 0, 1])


def test_deg2rad_and_rad2deg():
    out, (g,) = gradients(pylayer.deg2rad, [180.0])
    np.testing.assert_allclose(out, [math.pi])
    np.testing.assert_allclose(g, [math.pi / 180])
    np.testing.assert_allclose(pylayer.rad2deg(pylayer.to_tensor([1, 3], dtype="int32")).numpy(),
                               [57.29578, 171.88734], rtol=1e-6)


def test_nan_to_num_defaults_limits_and_gradient():
    out, (g,) = gradients(pylayer.nan_to_num, [nan, inf, -inf, 1.0])
    big = np.finfo(np.float64).max
    np.testing.assert_array_equal(out, [0, big, -big, 1])
    np.testing.assert_array_equal(g, [0, 0, 0, 1])
    x = pylayer.to_tensor([nan, inf, -inf, 1.0])
    big = np.finfo(np.float32).max
    np.testing.assert_array_equal(pylayer.nan_to_num(x).numpy(), [0, big, -big, 1])
    np.testing.assert_array_equal(
        pylayer.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-3.0).numpy(), [1, 2, -3, 1])
    with pytest.raises(ValueError, match=r"nan_to_num\(\): argument 'posinf'"):
        pylayer.nan_to_num(x, posinf=1e40)


def test_lerp_broadcasts_and_gives_a_tensor_weight_its_gradient():
    out, (gx, gy, gw) = gradients(pylayer.lerp, [1.0, 2.0], [3.0, 5.0], [0.5, 0.25])
    np.testing.assert_allclose(out, [2, 2.75])
    np.testing.assert_allclose(gx, [0.5, 0.75])
    np.testing.assert_allclose(gy, [0.5, 0.25])
    # Paddle 3.3.1 gives the weight no gradient; PyTorch gives y - x.
    np.testing.assert_allclose(gw, [2, 3])
    out, grads = gradients(pylayer.lerp, [[1.0], [2.0]], [3.0, 5.0, 6.0], [0.5])
    assert out.shape == (2, 3)
    np.testing.assert_allclose(grads[0], [[1.5], [1.5]])
    assert pylayer.lerp(f64([1.0]), f64([3.0]), 0.3).dtype == pylayer.float64
    with pytest.raises(ValueError, match=r"lerp\(\): x of shape \[3\], y of shape \[2\]"):
        pylayer.lerp(pylayer.ones([3]), pylayer.ones([2]), 0.3)


def test_stanh_and_sinc_values_and_gradients():
    out, (g,) = gradients(pylayer.stanh, [0.5, 1.0])
    np.testing.assert_allclose(out, [0.55424654, 1.00376697], rtol=1e-7)
    np.testing.assert_allclose(g, [1.02970615, 0.75624004], rtol=1e-7)
    out, (g,) = gradients(pylayer.sinc, [0.0, 0.5, 1.0])
    np.testing.assert_allclose(out, [1, 2 / math.pi, 0], atol=1e-16)
    np.testing.assert_allclose(g, [0, -4 / math.pi, -1])
    assert pylayer.sinc(pylayer.to_tensor([1.0])).numpy()[0] == np.float32(math.sin(math.pi) / math.pi)


# ------------------------------------------------------------------- predicates
def test_predicates():
    x = pylayer.to_tensor([-inf, inf, nan, 1.0])
    assert pylayer.isneginf(x).numpy().tolist() == [True, False, False, False]
    assert pylayer.isposinf(x).numpy().tolist() == [False, True, False, False]
    assert pylayer.isposinf(pylayer.to_tensor([1, 2])).numpy().tolist() == [False, False]
    with pytest.raises(TypeError, match=r"isneginf\(\): argument 'x'"):
        pylayer.isneginf(pylayer.to_tensor([True]))
    assert pylayer.isreal(pylayer.to_tensor([1 + 0j, 1 + 1j, complex(nan, 0)])).numpy() \
        .tolist() == [True, False, True]
    assert pylayer.isreal(pylayer.to_tensor([nan])).numpy().tolist() == [True]


def test_dtype_predicates_return_python_bools():
    kinds = {"float32": (True, False), "float16": (True, False), "int32": (False, True),
             "uint8": (False, True), "complex64": (False, False), "bool": (False, False)}
    for dtype, (floating, integer) in kinds.items():
        x = pylayer.to_tensor([1], dtype=dtype)
        assert pylayer.is_floating_point(x) is floating and x.is_floating_point() is floating
        assert pylayer.is_integer(x) is integer and x.is_integer() is integer
    with pytest.raises(TypeError, match=r"is_floating_point\(\): argument 'x'"):
        pylayer.is_floating_point([1.0])
    with pytest.raises(TypeError, match=r"is_integer\(\): argument 'x'"):
        pylayer.is_integer(1)


def test_is_empty_is_a_0d_bool_tensor():
    for shape, empty in (([0, 3], True), ([2], False), ([], False)):
        out = pylayer.is_empty(pylayer.zeros(shape))
        assert out.shape == [] and out.dtype == pylayer.bool and out.item() is empty


# ------------------------------------------------- identity, negation and increment
def test_positive_returns_x_itself_and_refuses_bools():
    x = pylayer.to_tensor([1.0, -2.0])
    assert pylayer.positive(x) is x
    assert not hasattr(pylayer.Tensor, "positive")
    for fn in (pylayer.positive, pylayer.negative):
        with pytest.raises(TypeError, match=rf"{fn.__name__}\(\): argument 'x'"):
            fn(pylayer.to_tensor([True]))
    _, (g,) = gradients(pylayer.negative, [1.0])
    assert g.tolist() == [-1.0]


def test_increment_adds_in_place_and_keeps_the_dtype():
    x = pylayer.to_tensor([1.0])
    assert pylayer.increment(x) is x and x.numpy().tolist() == [2.0]
    assert x.inplace_version == 1
    n = pylayer.to_tensor([1])
    assert pylayer.increment(n, 2.5).numpy().tolist() == [3] and n.dtype == pylayer.int64
    zero_d = pylayer.to_tensor(1.0)
    assert zero_d.increment(2.5).numpy().tolist() == 3.5
    with pytest.raises(ValueError, match=r"increment\(\): argument 'x' .* exactly one element"):
        pylayer.increment(pylayer.to_tensor([1.0, 2.0]))
    leaf = f64([1.0])
    y = leaf * 1.0
    pylayer.increment(y)
    (g,) = pylayer.grad(y.sum(), leaf)
    assert g.numpy().tolist() == [1.0]


# -------------------------------------------------------------------- shifts
def test_shifts_arithmetic_and_logical():
    x, y = pylayer.to_tensor([-8, 8]), pylayer.to_tensor([1, 2])
    assert pylayer.bitwise_left_shift(x, y).numpy().tolist() == [-16, 32]
    assert pylayer.bitwise_right_shift(x, y).numpy().tolist() == [-4, 2]
    assert pylayer.bitwise_left_shift(x, y, is_arithmetic=False).numpy().tolist() == [-16, 32]
    assert pylayer.bitwise_right_shift(x, y, is_arithmetic=False).numpy().tolist() \
        == [2 ** 63 - 4, 2]
    small = pylayer.to_tensor([-8, 8], dtype="int8")
    assert pylayer.bitwise_right_shift(small, pylayer.to_tensor([1, 2], dtype="int8"),
                                       is_arithmetic=False).numpy().tolist() == [124, 2]


def test_shifts_past_the_width_or_by_negative_amounts():
    ones = pylayer.to_tensor([1, 1])
    assert pylayer.bitwise_left_shift(ones, pylayer.to_tensor([63, 64])).numpy().tolist() \
        == [-2 ** 63, 0]
    x = pylayer.to_tensor([-8, 8])
    assert pylayer.bitwise_right_shift(x, pylayer.to_tensor([64, 70])).numpy().tolist() == [-1, 0]
    assert pylayer.bitwise_right_shift(x, pylayer.to_tensor([-1, 70]),
                                       is_arithmetic=False).numpy().tolist() == [0, 0]
    assert pylayer.bitwise_left_shift(pylayer.to_tensor([4, 4]),
                                      pylayer.to_tensor([-1, -2])).numpy().tolist() == [0, 0]
    assert pylayer.bitwise_right_shift(pylayer.to_tensor([4, -4]),
                                       pylayer.to_tensor([-1, -2])).numpy().tolist() == [0, -1]
    u8 = pylayer.to_tensor([200, 1], dtype="uint8")
    assert pylayer.bitwise_left_shift(u8, pylayer.to_tensor([1, 8], dtype="uint8")).numpy() \
        .tolist() == [144, 0]


def test_shifts_write_into_out_and_refuse_floats():
    out = pylayer.zeros([2], dtype="int64")
    result = pylayer.bitwise_left_shift(pylayer.to_tensor([1, 2]), pylayer.to_tensor([1, 1]),
                                        out=out)
    assert result is out and out.numpy().tolist() == [2, 4]
    with pytest.raises(TypeError, match=r"bitwise_left_shift\(\): argument 'x'"):
        pylayer.bitwise_left_shift(pylayer.to_tensor([1.0]), pylayer.to_tensor([1]))
    with pytest.raises(TypeError, match=r"bitwise_right_shift\(\): argument 'is_arithmetic'"):
        pylayer.bitwise_right_shift(pylayer.to_tensor([1]), 1, is_arithmetic="no")


# --------------------------------------------------- in-place forms and aliases
def test_in_place_forms_write_into_x():
    x = pylayer.to_tensor([1.0, 0.0])
    assert x.acos_() is x
    np.testing.assert_allclose(x.numpy(), [0, math.pi / 2], rtol=1e-7)
    y = pylayer.to_tensor([0.25])
    assert pylayer.logit_(y, eps=0.5) is y and y.numpy().tolist() == [0.0]
    z = pylayer.to_tensor([1.0, 2.0])
    z.lerp_(pylayer.to_tensor([3.0, 4.0]), 0.5)
    assert z.numpy().tolist() == [2.0, 3.0]
    with pytest.raises(TypeError, match=r"acos_\(\): argument 'x'"):
        pylayer.acos_(pylayer.to_tensor([True]))


def test_the_aliases_are_the_ops_paddle_makes_them():
    assert pylayer.clamp is pylayer.clip and pylayer.div is pylayer.divide
    assert pylayer.sub is pylayer.subtract and pylayer.mul is pylayer.multiply
    assert pylayer.mod is pylayer.remainder and pylayer.floor_mod is pylayer.remainder
    assert pylayer.less is pylayer.less_than and pylayer.bitwise_invert is pylayer.bitwise_not
    assert pylayer.div_ is pylayer.divide_ and pylayer.mod_ is pylayer.remainder_
    x, y = pylayer.to_tensor([1.0, 3.0]), pylayer.to_tensor([2.0, 2.0])
    for name, want in (("eq", [False, False]), ("ne", [True, True]), ("lt", [True, False]),
                       ("le", [True, False]), ("gt", [False, True]), ("ge", [False, True]),
                       ("greater", [False, True]), ("less", [True, False])):
        assert getattr(pylayer, name)(x, y).numpy().tolist() == want
        assert getattr(x, name)(y).numpy().tolist() == want
    assert x.clamp(min=2.0).numpy().tolist() == [2.0, 3.0]


def test_in_place_twins_exist_exactly_where_paddle_has_them():
    methods = build(vars(pylayer), pylayer.__all__, {})
    for name in ("clamp_", "mul_", "div_", "sub_", "less_", "mod_", "floor_mod_", "lerp_",
                 "acosh_", "bitwise_invert_", "trunc_"):
        assert name in methods, name
    for name in ("eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "true_divide_",
                 "negative_", "expm1_", "atan2_"):
        assert name not in methods, name
    assert hasattr(pylayer, "expm1_") and not hasattr(pylayer, "mul_")
    x = pylayer.to_tensor([4.0, 9.0])
    x.mul_(pylayer.to_tensor([2.0, 2.0])).clamp_(max=10.0)
    assert x.numpy().tolist() == [8.0, 10.0]


def test_divide_rounding_modes_and_subtract_alpha_as_in_paddle_3():
    x, y = pylayer.to_tensor([7.0, -7.0, 7.5]), pylayer.to_tensor([2.0, 2.0, -2.0])
    assert pylayer.div(x, y, rounding_mode="floor").numpy().tolist() == [3, -4, -4]
    assert pylayer.divide(x, y, rounding_mode="trunc").numpy().tolist() == [3, -3, -3]
    n = pylayer.to_tensor([7, -7, -2 ** 62 - 1])
    trunc = pylayer.divide(n, pylayer.to_tensor([2, 2, 1]), rounding_mode="trunc")
    assert trunc.dtype == pylayer.int64 and trunc.numpy().tolist() == [3, -3, -2 ** 62 - 1]
    assert pylayer.divide(n[:2], 2, rounding_mode="floor").numpy().tolist() == [3, -4]
    leaf = f64([7.0, -7.0])
    (g,) = pylayer.grad(pylayer.divide(leaf, 2.0, rounding_mode="floor").sum(), leaf)
    assert g.numpy().tolist() == [0, 0]
    z = pylayer.to_tensor([7.0, -7.0])
    z.div_(pylayer.to_tensor([2.0, 2.0]), rounding_mode="floor")
    assert z.numpy().tolist() == [3, -4]
    with pytest.raises(ZeroDivisionError, match=r"divide\(\)"):
        pylayer.divide(pylayer.to_tensor([1]), pylayer.to_tensor([0]), rounding_mode="trunc")
    with pytest.raises(ValueError, match=r"divide\(\): argument 'rounding_mode'"):
        pylayer.divide(x, y, rounding_mode="round")
    out, (gx, gy) = gradients(lambda a, b: pylayer.sub(a, b, alpha=2), [7.0, -7.0], [2.0, 2.0])
    assert out.tolist() == [3, -11] and gx.tolist() == [1, 1] and gy.tolist() == [-2, -2]
    assert pylayer.subtract(3.0, pylayer.to_tensor([1.0]), alpha=0.5).numpy().tolist() == [2.5]
    with pytest.raises(TypeError, match=r"subtract\(\): argument 'alpha'"):
        pylayer.subtract(x, y, alpha="2")
