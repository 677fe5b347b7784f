"""The special functions against SciPy over wide ranges (float64 and float32), and the
rules the op database cannot express: Paddle 3.3.1's observed values at poles and
edges, its dtype rules and argument errors, and where pylayer departs from it."""
import numpy as np
import pytest
import scipy.special as sp

import pylayer

RNG = np.random.default_rng(33)
WIDE = np.concatenate([RNG.uniform(-30, 30, 4000), np.exp(RNG.uniform(-700, 700, 2000)),
                       -np.exp(RNG.uniform(-30, 30, 1000)), RNG.uniform(0, 3, 2000)])


def f64(values):
    return pylayer.to_tensor(np.asarray(values, dtype=np.float64))


def relative_error(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(all="ignore"):
        # Results near the subnormal range hold fewer digits: compared in absolute terms.
        error = np.abs(got - want) / np.maximum(np.abs(want), 1e-290)
    return np.where(same, 0.0, error)


def values_of(fn, x, *args):
    return fn(f64(x), *args).numpy()


# ------------------------------------------------------------ accuracy, float64
def test_lgamma_to_1e13_away_from_its_negative_roots():
    error = relative_error(values_of(pylayer.lgamma, WIDE), sp.gammaln(WIDE))
    value = np.abs(sp.gammaln(WIDE))
    assert error[value > 1e-2].max() < 2e-13
    # Near a root on the negative axis the reflection formula leaves an absolute error.
    assert (error * value)[value <= 1e-2].max() < 1e-13


def test_lgamma_keeps_its_relative_accuracy_near_1_and_2():
    # SciPy loses digits here (4e-4 relative at 2 - 1e-12), so the references are
    # 17-digit values from 50-digit arithmetic.
    x = [1 + 1e-10, 1 - 1e-7, 2 + 1e-12, 2 - 1e-8, 1.501, 1e-300]
    want = [-5.772157125783244e-11, 5.7721574684441928e-8, 4.2282192087238457e-13,
            -4.2278432930433731e-9, -0.12074528039824047, 690.7755278982137]
    np.testing.assert_allclose(values_of(pylayer.lgamma, x), want, rtol=2e-15)


def test_digamma_to_1e12():
    error = relative_error(values_of(pylayer.digamma, WIDE), sp.psi(WIDE))
    assert error[WIDE > 0].max() < 1e-13
    assert error.max() < 1e-12


def test_digamma_keeps_its_relative_accuracy_at_its_positive_root():
    # Values from 50-digit arithmetic: the doubles on either side of the root, and two
    # points near it.
    x = [1.4616321449683622, 1.4616321449683625, 1.46163, 1.5]
    want = [-9.2412655217294275e-17, 1.2245374622004069e-16, -2.0756283887224572e-6,
            0.036489973978576521]
    np.testing.assert_allclose(values_of(pylayer.digamma, x), want, rtol=1e-14)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 10, 20])
def test_polygamma_to_1e13_and_1e11_below_0(n):
    x = WIDE[np.abs(WIDE) < 1e6]
    with np.errstate(over="ignore"):
        want = sp.polygamma(n, x)
    error = relative_error(values_of(pylayer.polygamma, x, n), want)
    assert error[x > 1e-30].max() < 1e-13
    assert error.max() < 1e-11          # the reflection formula, for x < 0


def test_polygamma_of_a_high_order_below_0_sums_the_terms_near_the_poles():
    x = np.concatenate([RNG.uniform(-30, 0, 1000), -np.exp(RNG.uniform(0, 10, 100))])
    with np.errstate(over="ignore"):
        want = sp.polygamma(100, x)
    kept = np.isfinite(want)
    error = relative_error(values_of(pylayer.polygamma, x, 100), want)
    assert error[kept].max() < 1e-11
    # A huge order gives the overflowed value at once.
    np.testing.assert_array_equal(values_of(pylayer.polygamma, [1.0, 50.0], 2 ** 62),
                                  [-np.inf, -np.inf])


def test_erfinv_to_1e14_up_to_the_last_double_below_1():
    u = np.concatenate([RNG.uniform(-1, 1, 5000), 1 - np.geomspace(1.2e-16, 0.5, 2000),
                        -1 + np.geomspace(1.2e-16, 0.5, 2000), np.geomspace(1e-300, 1, 500)])
    assert relative_error(values_of(pylayer.erfinv, u), sp.erfinv(u)).max() < 1e-14


@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e"])
def test_bessel_to_1e14(name):
    x = np.concatenate([RNG.uniform(-50, 50, 4000), np.geomspace(1e-300, 700, 2000),
                        -np.geomspace(1e-10, 1e5, 500)])
    want = getattr(sp, name)(x)
    assert relative_error(values_of(getattr(pylayer, name), x), want).max() < 1e-14


@pytest.mark.parametrize("decades", [(-3, 1), (0, 2), (1, 3), (3, 5)])
def test_incomplete_gammas_to_1e11(decades):
    a = 10 ** RNG.uniform(*decades, 3000)
    y = a * np.exp(RNG.normal(0, 1, 3000) * (1 / np.sqrt(a) + 0.3))
    p = pylayer.gammainc(f64(a), f64(y)).numpy()
    q = pylayer.gammaincc(f64(a), f64(y)).numpy()
    # Both are computed directly where they are small: neither loses digits as 1 - other.
    # The tolerances are SciPy's own error (pylayer stays within 2e-13 of 50-digit values).
    tolerance = {-3: 5e-13, 0: 5e-13, 1: 3e-12, 3: 2e-11}[decades[0]]
    assert relative_error(p, sp.gammainc(a, y)).max() < tolerance
    assert relative_error(q, sp.gammaincc(a, y)).max() < tolerance


def test_upper_incomplete_gamma_keeps_its_digits_for_a_tiny_shape():
    # Q is small here and 1 - P would keep only a few digits of it (values from 50-digit
    # arithmetic).
    q = pylayer.gammaincc(f64([1e-6, 0.01]), f64([0.021046542335164918, 1.0])).numpy()
    np.testing.assert_allclose(q, [3.304734987092741e-6, 0.0022162346232279903], rtol=1e-14)


def test_incomplete_gammas_of_a_huge_shape_use_the_uniform_expansion():
    a = np.full(5, 1e8)
    y = a + 1e4 * np.array([-0.1, -1e-4, 0.0, 1e-4, 0.1])
    assert relative_error(pylayer.gammainc(f64(a), f64(y)).numpy(), sp.gammainc(a, y)).max() \
        < 1e-12
    assert relative_error(pylayer.gammaincc(f64(a), f64(y)).numpy(),
                          sp.gammaincc(a, y)).max() < 1e-12
    # In the tails SciPy is off (4e-6 at the first point): 17-digit values from 60-digit
    # arithmetic.
    p = pylayer.gammainc(f64([1e6, 1e5]), f64([995000.0, 99051.31670194949])).numpy()
    np.testing.assert_allclose(p, [2.7495803592700708e-7, 0.0013127698795992456], rtol=1e-13)
    q = pylayer.gammaincc(f64([2e5]), f64([201341.64078649986])).numpy()
    np.testing.assert_allclose(q, [0.0013764460879487003], rtol=1e-13)


# ----------------------------------------------------------------- float32
@pytest.mark.parametrize("name, ref, low, high", [
    ("lgamma", sp.gammaln, 0.01, 50), ("digamma", sp.psi, 0.01, 50), ("erfinv", sp.erfinv, -1, 1),
    ("i0", sp.i0, -20, 20), ("i0e", sp.i0e, -100, 100), ("i1", sp.i1, -20, 20),
    ("i1e", sp.i1e, -100, 100)])
def test_float32_results_are_the_float64_ones_rounded(name, ref, low, high):
    x = RNG.uniform(low, high, 1000).astype(np.float32)
    out = getattr(pylayer, name)(pylayer.to_tensor(x))
    assert out.dtype == pylayer.float32
    np.testing.assert_allclose(out.numpy(), ref(x.astype(np.float64)).astype(np.float32),
                               rtol=2e-7)


# --------------------------------------------- Paddle 3.3.1's edge values
EDGES = [-np.inf, -3.0, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan]


def test_lgamma_is_inf_at_the_poles_and_at_minus_inf_as_in_paddle():
    np.testing.assert_array_equal(values_of(pylayer.lgamma, EDGES),
                                  [np.inf, np.inf, np.inf, np.inf, np.inf, 0.0, np.inf, np.nan])
    np.testing.assert_array_equal(values_of(pylayer.gammaln, EDGES),
                                  values_of(pylayer.lgamma, EDGES))


def test_digamma_edges_as_in_paddle():
    np.testing.assert_allclose(values_of(pylayer.digamma, EDGES),
                               [np.nan, np.nan, np.nan, np.inf, -np.inf, -0.5772156649015329,
                                np.inf, np.nan], rtol=1e-15)


def test_polygamma_poles_take_the_sign_of_their_order_as_in_paddle():
    np.testing.assert_array_equal(values_of(pylayer.polygamma, [-np.inf, -2.0, 0.0], 1),
                                  [np.inf] * 3)
    np.testing.assert_array_equal(values_of(pylayer.polygamma, [-np.inf, -2.0, -0.0], 2),
                                  [-np.inf] * 3)
    np.testing.assert_array_equal(values_of(pylayer.polygamma, [1.5, -0.5], 0),
                                  values_of(pylayer.digamma, [1.5, -0.5]))


def test_erfinv_is_infinite_at_plus_minus_1_as_in_paddle():
    np.testing.assert_array_equal(values_of(pylayer.erfinv, [-1.0, 1.0, -0.0, np.nan]),
                                  [-np.inf, np.inf, -0.0, np.nan])


def test_bessel_values_at_zero_and_large_arguments_as_in_paddle():
    np.testing.assert_array_equal(values_of(pylayer.i0, [0.0]), [1.0])
    np.testing.assert_array_equal(values_of(pylayer.i1e, [-np.inf, np.inf]), [-0.0, 0.0])
    assert values_of(pylayer.i0e, [1e300])[0] == pytest.approx(3.989422804014327e-151,
                                                               rel=1e-14)
    assert values_of(pylayer.i0, [1e10])[0] == np.inf


def test_incomplete_gamma_edges_as_in_paddle():
    p = pylayer.gammainc(f64([1.0, 1e-300, 0.5]), f64([0.0, 1.0, 1e-300])).numpy()
    np.testing.assert_allclose(p, [0.0, 1.0, 0.0], atol=1e-149)
    q = pylayer.gammaincc(f64([1.0, 1e-300]), f64([0.0, 1.0])).numpy()
    np.testing.assert_allclose(q, [1.0, 2.1938393439552394e-301], rtol=1e-12)


def test_gradients_at_the_edges_as_in_paddle():
    for name, x, want in [("lgamma", [0.0], [-np.inf]), ("i1", [0.0], [0.5]),
                          ("i1e", [0.0], [0.5]), ("erfinv", [1.0], [np.inf])]:
        t = pylayer.to_tensor(x, dtype="float64", stop_gradient=False)
        getattr(pylayer, name)(t).sum().backward()
        np.testing.assert_array_equal(t.grad.numpy(), want)


def test_only_y_gets_a_gradient_from_the_incomplete_gammas_as_in_paddle():
    x = pylayer.to_tensor([1.5, 2.0], dtype="float64", stop_gradient=False)
    y = pylayer.to_tensor([0.5, 3.0], dtype="float64", stop_gradient=False)
    for fn, sign in ((pylayer.gammainc, 1.0), (pylayer.gammaincc, -1.0)):
        gx, gy = pylayer.grad(fn(x, y).sum(), [x, y], allow_unused=True)
        assert gx is None
        np.testing.assert_allclose(gy.numpy(), sign * np.array([0.48394145, 0.14936121]),
                                   rtol=1e-7)


def test_second_derivatives_exist_where_paddle_has_none():
    x = pylayer.to_tensor([0.3, 1.7, -0.5], dtype="float64", stop_gradient=False)
    g, = pylayer.grad(pylayer.lgamma(x).sum(), [x], create_graph=True)
    gg, = pylayer.grad(g.sum(), [x])
    np.testing.assert_allclose(gg.numpy(), sp.polygamma(1, [0.3, 1.7, -0.5]), rtol=1e-13)


# ------------------------------------------------------------------ dtypes
@pytest.mark.parametrize("name", ["lgamma", "digamma", "erfinv", "i0", "i0e", "i1", "i1e"])
def test_integers_are_computed_in_float32_as_in_paddle(name):
    out = getattr(pylayer, name)(pylayer.to_tensor([1, 2]))
    assert out.dtype == pylayer.float32
    assert pylayer.polygamma(pylayer.to_tensor([1, 2]), 1).dtype == pylayer.float32


@pytest.mark.parametrize("call", [
    lambda x: pylayer.gammaln(x), lambda x: pylayer.multigammaln(x, 2),
    lambda x: pylayer.gammainc(x, x), lambda x: pylayer.gammaincc(x, x)])
def test_integers_are_refused_where_paddle_refuses_them(call):
    with pytest.raises(TypeError, match="must be a floating-point Tensor, got dtype int64"):
        call(pylayer.to_tensor([1, 2]))


@pytest.mark.parametrize("name", ["lgamma", "digamma", "erfinv", "i0", "i1e"])
def test_bool_and_complex_are_refused(name):
    for value in ([True], [1 + 1j]):
        with pytest.raises(TypeError, match=rf"^{name}\(\): argument 'x' \(position 1\)"):
            getattr(pylayer, name)(pylayer.to_tensor(value))


def test_mixed_float_widths_give_the_wider_dtype():
    out = pylayer.gammainc(pylayer.to_tensor([1.0]), f64([2.0]))
    assert out.dtype == pylayer.float64


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("n, error, text", [
    (-1, ValueError, "must be at least 0, got -1"), (1.5, TypeError, "must be an int"),
    (2.0, TypeError, "must be an int"), (True, TypeError, "must be an int"),
    (None, TypeError, "must be an int")])
def test_polygamma_order_is_a_non_negative_int(n, error, text):
    with pytest.raises(error, match=rf"polygamma\(\): argument 'n' {text}"):
        pylayer.polygamma(f64([1.0]), n)


@pytest.mark.parametrize("p, error", [(0, ValueError), (-1, ValueError), (1.5, TypeError)])
def test_multigammaln_dimension_is_a_positive_int(p, error):
    with pytest.raises(error, match=r"multigammaln\(\): argument 'p'"):
        pylayer.multigammaln(f64([2.5]), p)


@pytest.mark.parametrize("x, y, arg", [([-1.0], [1.0], "x"), ([1.0], [-1.0], "y"),
                                       ([np.nan], [1.0], "x"), ([1.0], [np.nan], "y")])
def test_incomplete_gammas_refuse_negative_or_nan_arguments_as_paddle_does(x, y, arg):
    for fn in (pylayer.gammainc, pylayer.gammaincc):
        with pytest.raises(ValueError, match=rf"{fn.__name__}\(\): argument '{arg}' .* "
                                             r"greater than or equal to 0"):
            fn(f64(x), f64(y))


def test_a_failed_in_place_call_changes_nothing():
    x = f64([1.0, 2.0])
    with pytest.raises(ValueError, match=r"^polygamma_\(\): argument 'n'"):
        pylayer.polygamma_(x, -1)
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])
    assert x.inplace_version == 0


# ------------------------------------------------- where pylayer departs
def test_where_paddle_is_wrong_pylayer_gives_the_limits():
    # Paddle 3.3.1: i0(+-inf) and i1(+-inf) are nan, polygamma(n >= 1, inf) is nan,
    # polygamma(1, 1e300) is 0, erfinv outside [-1, 1] is +-inf, gammainc(0, y) is 0,
    # gammainc of an infinite argument is nan, and the gradient of i0e at 0 is -1 (one
    # side's slope).
    np.testing.assert_array_equal(values_of(pylayer.i0, [-np.inf, np.inf]), [np.inf, np.inf])
    np.testing.assert_array_equal(values_of(pylayer.i1, [-np.inf, np.inf]), [-np.inf, np.inf])
    np.testing.assert_array_equal(values_of(pylayer.polygamma, [np.inf], 1), [0.0])
    assert values_of(pylayer.polygamma, [1e300], 1)[0] == pytest.approx(1e-300, rel=1e-14)
    np.testing.assert_array_equal(values_of(pylayer.erfinv, [-1.5, 1.5]), [np.nan, np.nan])
    np.testing.assert_array_equal(pylayer.gammainc(f64([0.0, 0.0]), f64([1.0, 0.0])).numpy(),
                                  [1.0, np.nan])
    # Paddle: nan for an infinite argument; these are the limits (SciPy's values).
    x, y = f64([np.inf, 1.0, np.inf]), f64([1.0, np.inf, np.inf])
    np.testing.assert_array_equal(pylayer.gammainc(x, y).numpy(), [0.0, 1.0, np.nan])
    np.testing.assert_array_equal(pylayer.gammaincc(x, y).numpy(), [1.0, 0.0, np.nan])
    x = pylayer.to_tensor([0.0], dtype="float64", stop_gradient=False)
    pylayer.i0e(x).backward()
    assert x.grad.numpy()[0] == 0.0


def test_incomplete_gammas_broadcast_correctly():
    # Paddle 3.3.1 gives wrong numbers when x and y broadcast to a larger shape.
    x, y = np.array([1.0, 2.0, 3.0]), np.array([[1.0], [2.0]])
    np.testing.assert_allclose(pylayer.gammainc(f64(x), f64(y)).numpy(), sp.gammainc(x, y),
                               rtol=1e-14)
    with pytest.raises(ValueError, match=r"gammainc\(\): x of shape \[2\] and y of shape "
                                         r"\[3\] cannot be broadcast together"):
        pylayer.gammainc(f64([1.0, 2.0]), f64([1.0, 2.0, 3.0]))


# --------------------------------------------------------- methods, twins
def test_methods_and_in_place_twins_follow_paddle():
    for name in ["lgamma", "gammaln", "digamma", "polygamma", "erfinv", "i0", "gammainc",
                 "gammaincc", "multigammaln"]:
        assert hasattr(pylayer.Tensor, name + "_"), name
    for name in ["i0e", "i1", "i1e"]:
        assert hasattr(pylayer.Tensor, name) and not hasattr(pylayer.Tensor, name + "_")
    assert not hasattr(pylayer, "erfinv_")
    x = f64([0.5, -0.5])
    assert x.erfinv_() is x
    np.testing.assert_allclose(x.numpy(), sp.erfinv([0.5, -0.5]), rtol=1e-15)
    y = f64([1.5, 2.5])
    assert y.polygamma_(1) is y
    np.testing.assert_allclose(y.numpy(), sp.polygamma(1, [1.5, 2.5]), rtol=1e-14)
    z = f64([[2.0, 3.0]])
    pylayer.gammainc_(z, f64([1.0]))
    np.testing.assert_allclose(z.numpy(), sp.gammainc([[2.0, 3.0]], 1.0), rtol=1e-14)
