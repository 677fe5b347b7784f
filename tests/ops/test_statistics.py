"""Statistics and cumulative ops: the rules the op database cannot express. The
expected numbers are Paddle 3.3.1's, observed on CPU (where pylayer departs from
Paddle on purpose the test says so)."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import gradcheck, gradgradcheck

NAN, INF = float("nan"), float("inf")


def t(values, dtype=None, grad=False):
    x = paddle.to_tensor(values, dtype=dtype) if dtype else paddle.to_tensor(values)
    x.stop_gradient = not grad
    return x


def grad_of(fn, values, weights=None):
    x = t(values, grad=True)
    out = fn(x)
    out = out[0] if isinstance(out, tuple) else out
    (out * (1.0 if weights is None else t(weights))).sum().backward()
    return x.grad.numpy()


A = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]


# ------------------------------------------------------------------------ norm
@pytest.mark.parametrize("kwargs, expected", [
    ({}, 9.539392),                                   # p=None: Frobenius / 2-norm
    ({"p": "nuc"}, 11.653785),
    ({"p": INF}, 6.0), ({"p": -INF}, 1.0),            # over every element
    ({"p": 0}, 6.0),                                  # the number of non-zeros
    ({"p": 1, "axis": [0, 1]}, 9.0), ({"p": -1, "axis": [0, 1]}, 5.0),  # column sums
    ({"p": INF, "axis": [0, 1]}, 15.0),               # row sums
    ({"p": 2, "axis": [0, 1]}, 9.225027), ({"p": -2, "axis": [0, 1]}, 2.428758),
    ({"p": 1, "axis": [1, 0]}, 15.0),                 # the order of the axes matters
])
def test_norm_matches_paddle(kwargs, expected):
    np.testing.assert_allclose(paddle.norm(t(A), **kwargs).numpy(), expected, rtol=1e-6)


def test_norm_shapes_and_dtypes():
    np.testing.assert_allclose(paddle.norm(t(A), axis=[]).numpy(), 9.539392)   # every axis
    assert paddle.norm(t(A), keepdim=True).shape == [1, 1]
    assert paddle.norm(t(A), p=2, axis=1, keepdim=True).shape == [2, 1]
    assert paddle.norm(t(A), dtype="float64").dtype == paddle.float64
    complex_norm = paddle.norm(t([3 + 4j, 1j]))
    assert complex_norm.dtype == paddle.float32
    np.testing.assert_allclose(complex_norm.numpy(), 5.0990195)
    x3 = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    np.testing.assert_allclose(paddle.norm(x3, p=2, axis=[0, 1, 2]).numpy(), 65.757126)


@pytest.mark.parametrize("kwargs, error", [
    ({"p": "inf"}, ValueError), ({"p": 3, "axis": [0, 1]}, ValueError),
    ({"p": 0, "axis": [0, 1]}, ValueError), ({"p": "nuc", "axis": 1}, ValueError),
    ({"p": "fro", "axis": [0, 1, 2]}, ValueError),
])
def test_norm_refuses_what_paddle_refuses(kwargs, error):
    with pytest.raises(error, match=r"norm\(\)"):
        paddle.norm(paddle.ones([2, 3, 4]) if "axis" in kwargs else t(A), **kwargs)


def test_norm_refuses_integer_tensors():
    with pytest.raises(TypeError, match=r"norm\(\): argument 'x'"):
        paddle.norm(t([1, 2]))
    with pytest.raises(TypeError, match=r"norm\(\): argument 'x'"):
        paddle.norm(t([1, 2]), dtype="float64")     # dtype casts a float x only


def test_norm_gradient_is_zero_where_the_norm_is_zero():
    np.testing.assert_array_equal(grad_of(paddle.norm, [0.0, 0.0, 0.0]), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(grad_of(lambda x: paddle.norm(x, p=0), [1.0, -2.0, 0.0]),
                                  [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(grad_of(lambda x: paddle.norm(x, p=1), [1.0, -2.0, 0.0]),
                                  [1.0, -1.0, 0.0])


def test_norm_p3_gradient_matches_paddle():
    np.testing.assert_allclose(grad_of(lambda x: paddle.norm(x, p=3), [1.0, -2.0, 0.5]),
                               [0.22900487, -0.9160195, 0.05725122], rtol=1e-6)


def test_norm_inf_gradient_is_split_among_ties():
    # Paddle gives each tie the whole gradient ([1, -1, 0]); pylayer shares it, as amax does.
    np.testing.assert_array_equal(
        grad_of(lambda x: paddle.norm(x, p=INF), [2.0, -2.0, 0.0]), [0.5, -0.5, 0.0])


def test_the_nuclear_norm_of_half_precision_is_decomposed_in_float32():
    for dtype in ("float16", "bfloat16"):
        x = t(A).astype(dtype)
        x.stop_gradient = False
        out = paddle.norm(x, p="nuc")
        out.backward()
        assert out.dtype == dtype and x.grad.dtype == dtype
        np.testing.assert_allclose(out.astype("float32").numpy(), 11.653785, rtol=1e-2)


def test_norm_out_receives_the_result():
    out = paddle.zeros([2])
    result = paddle.norm(t(A), p=1, axis=1, out=out)
    assert result is out
    np.testing.assert_array_equal(out.numpy(), [6.0, 15.0])


def test_the_nuclear_norm_refuses_a_second_derivative():
    x = t(A, grad=True)
    (g,) = paddle.grad([paddle.norm(x, p="nuc")], [x], create_graph=True)
    assert gradcheck(lambda y: paddle.norm(y, p="nuc"), (t(A, "float64", grad=True),))
    with pytest.raises(RuntimeError, match="second derivative"):
        paddle.grad([g.sum()], [x])


# ------------------------------------------------------------------------ dist
@pytest.mark.parametrize("p, expected", [(2, 10.908712), (1, 19.0), (0, 4.0), (INF, 9.0),
                                         (-INF, 0.0), (3, 9.615398), (0.5, 70.26349)])
def test_dist_matches_paddle(p, expected):
    np.testing.assert_allclose(paddle.dist(t(A), t([1.0, 0.0, 3.0]), p).numpy(), expected,
                               rtol=1e-6)


def test_dist_refuses_integers_and_shapes_that_do_not_broadcast():
    with pytest.raises(TypeError, match=r"dist\(\): argument 'x'"):
        paddle.dist(t([1, 2]), t([1, 2]))
    with pytest.raises(ValueError, match=r"dist\(\)"):
        paddle.dist(t(A), paddle.ones([4]))


# ---------------------------------------------------------------- amax, amin
def test_amax_and_amin_split_the_gradient_among_ties():
    np.testing.assert_allclose(
        grad_of(lambda x: paddle.amax(x, axis=1), [[2.0, 2.0, 1.0], [3.0, 3.0, 3.0]]),
        [[0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    np.testing.assert_allclose(grad_of(paddle.amin, [[2.0, 1.0, 1.0]]), [[0.0, 0.5, 0.5]])


def test_amax_keeps_integers_and_refuses_bool():
    assert paddle.amax(t([[1, 5], [4, 2]]), axis=1).numpy().tolist() == [5, 4]
    with pytest.raises(TypeError, match=r"amax\(\): argument 'x'"):
        paddle.amax(t([True, False]))


# ------------------------------------------------------------ nansum, nanmean
def test_nansum_and_nanmean_skip_nans():
    x = [[1.0, NAN], [NAN, NAN]]
    np.testing.assert_array_equal(paddle.nansum(t(x), axis=1).numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(paddle.nanmean(t(x), axis=1).numpy(), [1.0, NAN])
    np.testing.assert_array_equal(grad_of(lambda y: paddle.nanmean(y, axis=1), x),
                                  [[1.0, 0.0], [0.0, 0.0]])
    np.testing.assert_array_equal(grad_of(paddle.nansum, [1.0, NAN, 2.0]), [1.0, 0.0, 1.0])


def test_nansum_and_nanmean_dtypes():
    assert paddle.nansum(t([1, 2], "int32")).dtype == paddle.int64
    assert paddle.nansum(t(A), dtype="float64").dtype == paddle.float64
    mean = paddle.nanmean(t([[1, -2, 3], [4, 5, -6]]))
    assert mean.dtype == paddle.float32
    np.testing.assert_allclose(mean.numpy(), 0.8333333)
    np.testing.assert_allclose(paddle.nanmean(t([1 + 1j, 2])).numpy(), 1.5 + 0.5j)
    for fn in (paddle.nansum, paddle.nanmean):
        with pytest.raises(TypeError, match="bool"):
            fn(t([True]))


# ---------------------------------------------------------------------- median
B = [[3.0, 1.0, 2.0, 5.0], [4.0, 4.0, 1.0, 0.0]]
N = [[3.0, 1.0, 2.0, 5.0], [4.0, 4.0, 1.0, NAN]]


def test_median_modes_and_nan():
    np.testing.assert_array_equal(paddle.median(t(N), axis=1).numpy(), [2.5, NAN])
    values, indices = paddle.median(t(N), axis=1, mode="min")
    np.testing.assert_array_equal(values.numpy(), [2.0, NAN])
    assert indices.numpy().tolist() == [2, 3]           # the NaN's position
    assert not isinstance(paddle.median(t(B), mode="min"), tuple)   # no axis: values only
    values, indices = paddle.median(t(3.0), axis=0, mode="min")
    assert values.shape == [] and indices.numpy() == 0
    assert paddle.median(t(B), keepdim=True).shape == [1, 1]


def test_median_dtypes():
    assert paddle.median(t([1, 2, 3, 4])).numpy() == 2.5
    assert paddle.median(t([1, 2, 3, 4])).dtype == paddle.float32
    assert paddle.median(t([1, 2, 3, 4]), mode="min").dtype == paddle.int64
    assert paddle.median(t([True, False])).numpy() == 0.5
    assert paddle.median(t([1.0, 2.0], "float16")).dtype == paddle.float32
    assert paddle.median(t([1.0, 2.0], "float64")).dtype == paddle.float64


def test_median_gradient_follows_paddle():
    np.testing.assert_allclose(grad_of(lambda x: paddle.median(x, axis=1), B, [1.0, 2.0]),
                               [[0.5, 0.0, 0.5, 0.0], [1.0, 0.0, 1.0, 0.0]])
    # A median equal to both middle values is shared by every element equal to it.
    np.testing.assert_allclose(
        grad_of(lambda x: paddle.median(x, axis=1), [[3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 0.0]]),
        [[0.25, 0.25, 0.25, 0.25], [1 / 3, 1 / 3, 1 / 3, 0.0]])
    np.testing.assert_allclose(grad_of(lambda x: paddle.median(x, axis=1, mode="min"), B),
                               [[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 0.0]])
    np.testing.assert_allclose(grad_of(lambda x: paddle.median(x, axis=1),
                                       [[NAN, 4.0, 1.0, NAN]]), [[0.5, 0.0, 0.0, 0.5]])


def test_median_refuses_an_axis_list_and_an_unknown_mode():
    with pytest.raises(TypeError, match=r"median\(\): argument 'axis'"):
        paddle.median(t(B), axis=[0, 1])
    with pytest.raises(ValueError, match=r"median\(\): argument 'mode'"):
        paddle.median(t(B), mode="max")


def test_nanmedian_matches_paddle():
    np.testing.assert_array_equal(paddle.nanmedian(t(N)).numpy(), 3.0)
    np.testing.assert_array_equal(paddle.nanmedian(t(N), axis=1).numpy(), [2.5, 4.0])
    values, indices = paddle.nanmedian(t([[NAN, NAN], [1.0, 2.0]]), axis=1, mode="min")
    np.testing.assert_array_equal(values.numpy(), [NAN, 1.0])
    assert indices.numpy().tolist() == [-1, 0]
    x3 = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    np.testing.assert_array_equal(paddle.nanmedian(x3, axis=[0, 2]).numpy(), [7.5, 11.5, 15.5])
    assert not isinstance(paddle.nanmedian(x3, axis=[0, 2], mode="min"), tuple)
    np.testing.assert_allclose(grad_of(lambda x: paddle.nanmedian(x, axis=1),
                                       [[NAN, NAN], [1.0, 2.0]]), [[0.5, 0.5], [0.5, 0.5]])


def test_nanmedian_keeps_integers_truncating_the_average():
    assert paddle.nanmedian(t([1, 2, 3, 4])).numpy() == 2
    assert paddle.nanmedian(t([-3, -2])).numpy() == -2
    assert paddle.nanmedian(t([-4, 1])).numpy() == -1
    big = 2 ** 62 + 1                               # exact: no detour through float64
    assert paddle.nanmedian(t([big, big + 2])).numpy() == big + 1
    assert paddle.median(t([big, big + 2, 5]), mode="min").numpy() == big
    assert paddle.nanmedian(t([1, 2, 3, 4], "int32")).dtype == paddle.int32


# -------------------------------------------------------------------- quantile
def test_quantile_interpolations_match_paddle():
    x = t([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    q = [0.5, 0.1, 0.7]
    expected = {"linear": [3.5, 1.5, 4.5], "lower": [3.0, 1.0, 4.0], "higher": [4.0, 2.0, 5.0],
                "nearest": [3.0, 1.0, 5.0], "midpoint": [3.5, 1.5, 4.5]}
    for mode, want in expected.items():
        np.testing.assert_allclose(paddle.quantile(x, q, interpolation=mode).numpy(), want)


def test_quantile_shapes_q_forms_and_nan():
    assert paddle.quantile(t(B), [0.3, 0.5], axis=1, keepdim=True).shape == [2, 2, 1]
    assert paddle.quantile(t(B), t(0.3), axis=1).shape == [2]
    assert paddle.quantile(t(B), t([0.3, 0.5]), axis=1).shape == [2, 2]
    np.testing.assert_allclose(paddle.quantile(t(N), 0.3, axis=1).numpy(), [1.9, NAN])
    np.testing.assert_allclose(paddle.nanquantile(t(N), 0.3, axis=1).numpy(), [1.9, 2.8])
    np.testing.assert_array_equal(paddle.nanquantile(t([[NAN, NAN]]), 0.3, axis=1).numpy(),
                                  [NAN])


def test_quantile_gradient_follows_the_sorted_positions():
    np.testing.assert_allclose(
        grad_of(lambda x: paddle.quantile(x, [0.3, 0.5], axis=1), B),
        [[0.5, 0.1, 1.4, 0.0], [0.5, 0.0, 1.4, 0.1]], atol=1e-6)
    np.testing.assert_allclose(
        grad_of(lambda x: paddle.nanquantile(x, [0.3], axis=1), N),
        [[0.0, 0.1, 0.9, 0.0], [0.6, 0.0, 0.4, 0.0]], atol=1e-6)


@pytest.mark.parametrize("q, error", [(1.3, ValueError), ([], ValueError), ("a", TypeError)])
def test_quantile_refuses_bad_q(q, error):
    with pytest.raises(error, match=r"quantile\(\): argument 'q'"):
        paddle.quantile(t(B), q)


def test_quantile_refuses_integers():
    with pytest.raises(TypeError, match=r"quantile\(\): argument 'x'"):
        paddle.quantile(t([1, 2]), 0.5)


# ----------------------------------------------------------- mode, kthvalue
M = [[1.0, 2.0, 2.0, 3.0, 3.0], [5.0, 1.0, 1.0, 5.0, 0.0]]


def test_mode_takes_the_smallest_most_frequent_value_and_its_last_index():
    values, indices = paddle.mode(t(M))
    assert values.numpy().tolist() == [2.0, 1.0] and indices.numpy().tolist() == [2, 2]
    values, indices = paddle.mode(t(M), axis=0)
    assert values.numpy().tolist() == [1.0, 1.0, 1.0, 3.0, 0.0]
    assert indices.numpy().tolist() == [0, 1, 1, 0, 1]
    values, indices = paddle.mode(t([1.0, NAN, NAN]))      # each NaN is its own value
    assert values.numpy() == 1.0 and indices.numpy() == 0
    values, indices = paddle.mode(t(3.0))
    assert values.shape == [] and indices.numpy() == 0
    np.testing.assert_array_equal(grad_of(paddle.mode, M), [[0, 0, 1, 0, 0], [0, 0, 1, 0, 0]])


def test_kthvalue_matches_paddle():
    values, indices = paddle.kthvalue(t(M), 2)
    assert values.numpy().tolist() == [2.0, 1.0]
    assert indices.numpy()[0] == 1
    values, indices = paddle.kthvalue(t([1.0, NAN, 0.0]), 3)
    assert np.isnan(values.numpy()) and indices.numpy() == 1
    with pytest.raises(ValueError, match=r"kthvalue\(\): argument 'k'"):
        paddle.kthvalue(t(M), 6)
    with pytest.raises(ValueError, match=r"kthvalue\(\): argument 'k'"):
        paddle.kthvalue(t(M), 0)


def test_count_nonzero_counts_nan_and_gives_int64():
    counted = paddle.count_nonzero(t([[0.0, 1.0], [0.0, NAN]]), axis=1)
    assert counted.dtype == paddle.int64 and counted.numpy().tolist() == [1, 1]
    assert paddle.count_nonzero(t([[0.0, 1.0]]), axis=[0, 1], keepdim=True).shape == [1, 1]


# ------------------------------------------------------------------- cumprod
def test_cumprod_dtypes_and_shapes():
    assert paddle.cumprod(t(A)).shape == [6]
    assert paddle.cumprod(t(3.0)).shape == [1]
    assert paddle.cumprod(t(3.0), dim=0).shape == []
    assert paddle.cumprod(t([[1, 2]], "int32"), dim=1).dtype == paddle.int32
    assert paddle.cumprod(t([[1, 2]]), dim=1, dtype="float64").dtype == paddle.float64
    with pytest.raises(TypeError, match=r"cumprod\(\): argument 'x'"):
        paddle.cumprod(t([True]), dim=0)


def test_cumprod_gradient_is_exact_at_zeros():
    np.testing.assert_array_equal(
        grad_of(lambda x: paddle.cumprod(x, dim=1), [[2.0, 0.0, 3.0, 0.5], [1.0, 2.0, 0.0, 0.0]]),
        [[1.0, 11.0, 0.0, 0.0], [3.0, 1.0, 2.0, 0.0]])
    for values in ([[2.0, 0.0, 3.0], [0.0, 0.0, 2.0]], [[1.1, 0.0, 0.9, 0.0, 1.3, 0.0, 0.7]]):
        x = t(values, "float64", grad=True)
        assert gradcheck(lambda y: paddle.cumprod(y, dim=1), (x,))
        assert gradgradcheck(lambda y: paddle.cumprod(y, dim=1), (x,))


def test_cumprod_gradient_at_zeros_takes_linear_memory():
    x = t(np.where(np.arange(200000) % 7 == 0, 0.0, 1.0001), grad=True)
    paddle.cumprod(x, dim=0).sum().backward()      # an n-by-n table would be 320 GB
    assert x.grad.shape == [200000]


def test_cumprod_in_place():
    x = t(A)
    assert paddle.cumprod_(x, 1) is x and x.numpy().tolist()[1] == [4.0, 20.0, -120.0]
    x = t(A)
    assert x.cumprod_(dim=0) is x and x.numpy().tolist()[1] == [4.0, -10.0, -18.0]


# --------------------------------------------------------- cummax, cummin
C = [[1.0, 3.0, 2.0, 3.0, NAN, 0.0], [3.0, 3.0, 1.0, 5.0, 5.0, 2.0]]


def test_cummax_and_cummin_match_paddle():
    values, indices = paddle.cummax(t(C), axis=1)
    np.testing.assert_array_equal(values.numpy(), [[1, 3, 3, 3, NAN, NAN], [3, 3, 3, 5, 5, 5]])
    assert indices.numpy().tolist() == [[0, 1, 1, 3, 4, 4], [0, 1, 1, 3, 4, 4]]
    values, indices = paddle.cummin(t(C), axis=1)
    np.testing.assert_array_equal(values.numpy(), [[1, 1, 1, 1, NAN, NAN], [3, 3, 1, 1, 1, 1]])
    assert indices.numpy().tolist() == [[0, 0, 0, 0, 4, 4], [0, 1, 2, 2, 2, 2]]
    assert paddle.cummax(t(C), axis=1, dtype="int32")[1].dtype == paddle.int32
    assert paddle.cummax(t(3.0))[0].shape == [1]
    np.testing.assert_array_equal(
        grad_of(lambda x: paddle.cummax(x, axis=1), [[3.0, 3.0, 1.0, 5.0, 5.0, 2.0]]),
        [[1.0, 2.0, 0.0, 1.0, 2.0, 0.0]])


def test_cummax_refuses_a_float_index_dtype():
    with pytest.raises(ValueError, match=r"cummax\(\): argument 'dtype'"):
        paddle.cummax(t(C), dtype="float32")


# --------------------------------------------------------------- logcumsumexp
def test_logcumsumexp_matches_paddle():
    np.testing.assert_allclose(paddle.logcumsumexp(t(A), axis=1).numpy(),
                               [[1.0, 1.0485873, 3.1328452], [4.0, 5.3132615, 5.313274]],
                               rtol=1e-6)
    np.testing.assert_allclose(paddle.logcumsumexp(t([1000.0, 1000.0])).numpy(),
                               [1000.0, 1000.6931])
    assert paddle.logcumsumexp(t([[1, 2]]), axis=1).dtype == paddle.float32
    assert paddle.logcumsumexp(t(2.0)).shape == [1]
    np.testing.assert_allclose(grad_of(paddle.logcumsumexp, [1.0, 2.0, 3.0]),
                               [1.3589720, 0.9757869, 0.6652408], rtol=1e-6)


def test_logcumsumexp_of_a_run_of_minus_infinity_is_minus_infinity():
    # Paddle gives float32's lowest number; pylayer gives -inf, as PyTorch does.
    out = paddle.logcumsumexp(t([-INF, -INF, 1.0]))
    np.testing.assert_array_equal(out.numpy(), [-INF, -INF, 1.0])
    np.testing.assert_array_equal(grad_of(paddle.logcumsumexp, [-INF, -INF, 1.0]),
                                  [0.0, 0.0, 1.0])


# ----------------------------------------------------------------------- diff
def test_diff_matches_paddle():
    np.testing.assert_array_equal(paddle.diff(t(A)).numpy(), [[-3.0, 5.0], [1.0, -11.0]])
    np.testing.assert_array_equal(
        paddle.diff(t(A), prepend=t([[9.0], [9.0]]), append=t([[0.0], [1.0]])).numpy(),
        [[-8.0, -3.0, 5.0, -3.0], [-5.0, 1.0, -11.0, 7.0]])
    assert paddle.diff(t(A), n=5).shape == [2, 0]
    bools = paddle.diff(t([[True, False, True], [False, False, True]]))
    assert bools.dtype == paddle.bool_
    assert bools.numpy().tolist() == [[True, True], [False, True]]
    assert paddle.diff(t([[1, -2]])).dtype == paddle.int64


def test_diff_gradient_reaches_prepend():
    x, before = t(A, grad=True), t([[9.0], [9.0]], grad=True)
    paddle.diff(x, prepend=before).sum().backward()
    assert x.grad.numpy().tolist() == [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
    assert before.grad.numpy().tolist() == [[-1.0], [-1.0]]


def test_diff_work_is_bounded_by_the_axis_not_by_n():
    """Past the size of the axis every further difference is empty: a huge ``n`` records
    no more steps than the axis has elements (it looped ``n`` times, hanging on 2 ** 31)."""
    x = t([1.0, 4.0, 9.0], grad=True)
    out = paddle.diff(x, n=50)
    assert out.shape == [0]
    steps, node = 0, out.grad_fn
    while node is not None:
        steps += 1
        node = next((f for f, _ in node.next_functions if f is not None), None)
    assert steps <= 2 * 3 + 1   # a subtract and a slice per step


def test_diff_refuses_what_paddle_refuses():
    with pytest.raises(ValueError, match=r"diff\(\): argument 'n'"):
        paddle.diff(t(A), n=0)
    with pytest.raises(ValueError, match=r"diff\(\)"):
        paddle.diff(t(2.0))
    with pytest.raises(ValueError, match=r"diff\(\): argument 'prepend'"):
        paddle.diff(t(A), prepend=t([9.0]))
    with pytest.raises(TypeError, match=r"diff\(\): argument 'prepend'"):
        paddle.diff(t(A), prepend=t([[9], [9]]))


# ------------------------------------------------------------------ trapezoid
def test_trapezoid_matches_paddle():
    np.testing.assert_array_equal(paddle.trapezoid(t(A)).numpy(), [0.0, 4.0])
    np.testing.assert_array_equal(paddle.trapezoid(t(A), dx=0.5, axis=0).numpy(),
                                  [1.25, 0.75, -0.75])
    np.testing.assert_array_equal(paddle.trapezoid(t(A), x=t([0.0, 1.0, 3.0])).numpy(),
                                  [0.5, 3.5])
    np.testing.assert_array_equal(
        paddle.trapezoid(t(A), x=t([[0.0, 1.0, 3.0], [0.0, 2.0, 3.0]])).numpy(), [0.5, 8.5])
    np.testing.assert_array_equal(paddle.trapezoid(t([2.0])).numpy(), 0.0)
    np.testing.assert_array_equal(paddle.cumulative_trapezoid(t(A)).numpy(),
                                  [[-0.5, 0.0], [4.5, 4.0]])
    assert paddle.cumulative_trapezoid(t([2.0])).shape == [0]


def test_trapezoid_gradients_reach_y_and_x():
    y, x = t(A, grad=True), t([0.0, 1.0, 3.0], grad=True)
    paddle.trapezoid(y, x=x).sum().backward()
    assert y.grad.numpy().tolist() == [[0.5, 1.5, 1.0], [0.5, 1.5, 1.0]]
    assert x.grad.numpy().tolist() == [-4.0, 4.0, 0.0]


def test_trapezoid_refuses_x_and_dx_together_and_integers():
    with pytest.raises(ValueError, match=r"trapezoid\(\).*'x'.*'dx'"):
        paddle.trapezoid(t(A), x=t([0.0, 1.0, 3.0]), dx=1.0)
    with pytest.raises(TypeError, match=r"trapezoid\(\): argument 'y'"):
        paddle.trapezoid(t([1, 2]))
    with pytest.raises(ValueError, match=r"trapezoid\(\): argument 'x'"):
        paddle.trapezoid(t(A), x=t([0.0, 1.0]))     # Paddle ignores the mismatch


# ---------------------------------------------------------------- histograms
def test_histogram_bin_edges_matches_paddle():
    h = t([1.0, 2.0, 1.0, 5.0])
    assert paddle.histogram_bin_edges(h, bins=4).numpy().tolist() == [1, 2, 3, 4, 5]
    assert paddle.histogram_bin_edges(h, bins=4, min=0, max=10).numpy().tolist() == \
        [0, 2.5, 5, 7.5, 10]
    edges = paddle.histogram_bin_edges(t([1.0, 2.0, 5.0], "float64"), bins=3)
    assert edges.dtype == paddle.float32
    assert paddle.histogram_bin_edges(t([2.0, 2.0]), bins=2).numpy().tolist() == [1.5, 2, 2.5]
    assert paddle.histogram_bin_edges(t([1, 2, 5]), bins=4).dtype == paddle.float32
    with pytest.raises(ValueError, match=r"histogram_bin_edges\(\): argument 'max'"):
        paddle.histogram_bin_edges(h, bins=2, min=3)


def test_histogramdd_matches_paddle():
    points = t([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0]])
    hist, edges = paddle.histogramdd(points, bins=[3, 3])
    assert hist.numpy().tolist() == [[0, 1, 0], [1, 0, 0], [1, 0, 1]]
    np.testing.assert_allclose(edges[0].numpy(), [0.0, 0.6666667, 1.3333333, 2.0])
    hist, _ = paddle.histogramdd(points, bins=2, ranges=[0.0, 1.0, 0.0, 1.0])
    assert hist.numpy().tolist() == [[0, 1], [1, 0]]
    hist, _ = paddle.histogramdd(points, bins=2, density=True)
    assert hist.numpy().tolist() == [[0, 0.25], [0.5, 0.25]]
    hist, _ = paddle.histogramdd(points, bins=2, weights=t([1.0, 2.0, 3.0, 4.0]))
    assert hist.numpy().tolist() == [[0, 1], [5, 4]]
    hist, edges = paddle.histogramdd(points, bins=(t([0.0, 1.0, 2.0]), t([0.0, 0.5, 2.0])))
    assert hist.numpy().tolist() == [[0, 1], [2, 1]]
    hist, edges = paddle.histogramdd(t([[1.0, 1.0], [1.0, 1.0]]), bins=2)
    assert hist.numpy().tolist() == [[0, 0], [0, 2]] and edges[0].numpy().tolist() == [1, 1, 1]
    with pytest.raises(ValueError, match=r"histogramdd\(\): argument 'x'"):
        paddle.histogramdd(t([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"histogramdd\(\): argument 'weights'"):
        paddle.histogramdd(points, weights=t([1.0, 2.0, 3.0, 4.0], "float64"))


# ---------------------------------------------------------------- distances
P = [[0.0, 0.0], [1.0, 2.0], [3.0, -1.0]]
Q = [[1.0, 1.0], [0.0, 0.0]]


@pytest.mark.parametrize("p, expected", [
    (2.0, [[1.4142135, 0.0], [1.0, 2.236068], [2.828427, 3.1622777]]),
    (0.0, [[2.0, 0.0], [1.0, 2.0], [2.0, 2.0]]),
    (INF, [[1.0, 0.0], [1.0, 2.0], [2.0, 3.0]]),
    (0.5, [[4.0, 0.0], [1.0, 5.828428], [8.0, 7.464102]]),
])
def test_cdist_matches_paddle(p, expected):
    np.testing.assert_allclose(paddle.cdist(t(P), t(Q), p).numpy(), expected, rtol=1e-6)


def test_cdist_gradient_is_zero_at_a_zero_distance_and_batches_broadcast():
    np.testing.assert_allclose(grad_of(lambda x: paddle.cdist(x, t(Q)), P),
                               [[-0.70710677, -0.70710677], [0.4472136, 1.8944272],
                                [1.6557901, -1.0233345]], rtol=1e-6)
    assert paddle.cdist(paddle.ones([2, 3, 2]), paddle.ones([1, 4, 2])).shape == [2, 3, 4]
    with pytest.raises(ValueError, match=r"cdist\(\): argument 'p'"):
        paddle.cdist(t(P), t(Q), -1.0)
    with pytest.raises(ValueError, match=r"cdist\(\): argument 'compute_mode'"):
        paddle.cdist(t(P), t(Q), compute_mode="x")


def test_cdist_uses_a_matrix_product_for_many_rows_as_paddle_does():
    rng = np.random.default_rng(0)
    x = t(rng.standard_normal((2, 30, 3)), grad=True)
    y = t(rng.standard_normal((1, 4, 3)), grad=True)
    direct = paddle.cdist(x, y, compute_mode="donot_use_mm_for_euclid_dist")
    np.testing.assert_allclose(paddle.cdist(x, y).numpy(), direct.numpy(), atol=1e-12)
    assert gradcheck(paddle.cdist, (x, y)) and gradgradcheck(paddle.cdist, (x, y))
    # Paddle's matrix product gives NaN gradients at a zero distance; pylayer gives 0.
    np.testing.assert_array_equal(
        grad_of(lambda z: paddle.cdist(z, t(np.ones((2, 2)))), np.ones((30, 2))),
        np.zeros((30, 2)))


def test_pdist_matches_paddle():
    np.testing.assert_allclose(paddle.pdist(t(P)).numpy(), [2.236068, 3.1622777, 3.6055512],
                               rtol=1e-6)
    np.testing.assert_array_equal(paddle.pdist(t(P), 0.0).numpy(), [2.0, 2.0, 2.0])
    assert paddle.pdist(paddle.ones([1, 3])).shape == [0]
    np.testing.assert_allclose(grad_of(paddle.pdist, [[0.0, 0.0], [0.0, 0.0], [3.0, -1.0]]),
                               [[-0.9486833, 0.31622776], [-0.9486833, 0.31622776],
                                [1.8973666, -0.6324555]], rtol=1e-6)


# --------------------------------------------------------------------- renorm
R = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [0.1, 0.1, 0.1]]


def test_renorm_matches_paddle():
    np.testing.assert_allclose(paddle.renorm(t(R), 2.0, 0, 5.0).numpy()[1],
                               [2.2792115, 2.8490143, 3.4188173], rtol=1e-6)
    np.testing.assert_allclose(paddle.renorm(t(R), 1.0, -1, 5.0).numpy()[0],
                               [0.98039216, 1.4084507, 1.6483516], rtol=1e-6)
    np.testing.assert_allclose(grad_of(lambda x: paddle.renorm(x, 2.0, 0, 5.0), R)[1],
                               [0.12580061, 0.01480004, -0.09620053], rtol=1e-5)
    x = t(R)
    assert paddle.renorm_(x, 2.0, 0, 5.0) is x


def test_renorm_inf_scales_by_the_largest_size():
    # Paddle 3.3.1 leaves x unchanged for p=inf; pylayer scales, as PyTorch does.
    np.testing.assert_allclose(paddle.renorm(t([[1.0, -4.0], [0.5, 0.5]]), INF, 0, 2.0).numpy(),
                               [[0.5, -2.0], [0.5, 0.5]])


def test_renorm_refuses_a_non_positive_p():
    # Paddle's p=0 gives zeros (a 0-norm of inf), which is no renormalisation.
    with pytest.raises(ValueError, match=r"renorm\(\): argument 'p'"):
        paddle.renorm(t(R), 0.0, 0, 2.0)


# ---------------------------------------------------------- trace, reduce_as
def test_trace_matches_paddle():
    assert paddle.trace(t(A)).numpy() == 6.0
    assert paddle.trace(t(A), offset=1).numpy() == -8.0
    assert paddle.trace(t(A), offset=-1).numpy() == 4.0
    assert paddle.trace(t(A), offset=5).numpy() == 0.0
    x3 = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    assert paddle.trace(x3, axis1=1, axis2=2).numpy().tolist() == [15.0, 51.0]
    assert paddle.trace(x3, axis1=-1, axis2=0).numpy().tolist() == [13.0, 21.0, 29.0]
    assert paddle.trace(t([[1, 2], [3, 4]], "int32")).dtype == paddle.int32
    np.testing.assert_array_equal(grad_of(lambda x: paddle.trace(x, offset=1), A),
                                  [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    with pytest.raises(ValueError, match=r"trace\(\)"):
        paddle.trace(x3, axis1=1, axis2=1)
    with pytest.raises(TypeError, match=r"trace\(\): argument 'x'"):
        paddle.trace(t([[True]]))


def test_reduce_as_matches_paddle():
    x3 = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    assert paddle.reduce_as(x3, paddle.ones([3, 1])).numpy().tolist() == [[60.0], [92.0],
                                                                           [124.0]]
    assert paddle.reduce_as(t([[1, -2], [4, 5]], "int32"), paddle.ones([2])).dtype == paddle.int64
    assert paddle.reduce_as(t([[1, 2], [3, 4]], "int32"), paddle.ones([2, 2])).dtype == \
        paddle.int32
    assert paddle.reduce_as(t([[True, False]]), paddle.ones([2])).dtype == paddle.int64
    assert paddle.reduce_as(t(A), paddle.ones([])).numpy() == 5.0
    with pytest.raises(ValueError, match=r"reduce_as\(\): the shape of 'target'"):
        paddle.reduce_as(x3, paddle.ones([5]))
    x, target = t(A, grad=True), t([1.0, 1.0, 1.0], grad=True)
    (paddle.reduce_as(x, target) * t([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.numpy().tolist() == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    assert target.grad is None
