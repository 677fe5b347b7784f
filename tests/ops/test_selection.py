"""Selecting, placing and products: Paddle 3.3.1's observed results on the cases the op
database cannot express (edge values, dtype rules, duplicates, how gradients split), and
where pylayer departs from a Paddle bug (each such test says so)."""
import numpy as np
import pytest

import pylayer as paddle

t = paddle.to_tensor


def grads(fn, *values):
    """(output values, gradients of the inputs) of ``sum(fn(*inputs) * [1, 2, 3, ...])``
    in float64, as the Paddle runs that these numbers come from were made."""
    leaves = [t(np.array(v, dtype="float64"), stop_gradient=False) for v in values]
    out = fn(*leaves)
    weights = t(np.arange(1, out.size + 1, dtype="float64").reshape(out.shape))
    (out * weights).sum().backward()
    return out.numpy().tolist(), [None if x.grad is None else x.grad.numpy().tolist()
                                  for x in leaves]


# ------------------------------------------------------------------- unique
def test_unique_returns_index_inverse_and_counts_in_paddles_order():
    out, index, inverse, counts = paddle.unique(t([2, 3, 3, 1, 5, 3]), return_index=True,
                                                return_inverse=True, return_counts=True)
    assert out.tolist() == [1, 2, 3, 5] and index.tolist() == [3, 0, 1, 4]
    assert inverse.tolist() == [1, 2, 2, 0, 3, 2] and counts.tolist() == [1, 1, 3, 1]


def test_unique_keeps_nans_apart_sorts_always_and_flattens_the_inverse():
    assert str(paddle.unique(t([2.0, np.nan, 1.0, np.nan])).tolist()) == "[1.0, 2.0, nan, nan]"
    assert paddle.unique(t([3, 1, 2]), sorted=False).tolist() == [1, 2, 3]
    _, inverse = paddle.unique(t([[3, 1], [1, 2]]), return_inverse=True)
    assert inverse.tolist() == [2, 0, 0, 1]
    out, inverse = paddle.unique(t(3.0), return_inverse=True)
    assert out.shape == [1] and inverse.tolist() == [0]


def test_unique_dtype_applies_to_the_indices_and_must_be_an_int_dtype():
    out, index = paddle.unique(t([2, 1]), return_index=True, dtype="int32")
    assert out.dtype == "int64" and index.dtype == "int32"
    with pytest.raises(ValueError, match="dtype"):
        paddle.unique(t([1, 2]), return_inverse=True, dtype="float32")
    with pytest.raises(TypeError, match=r"unique\(\).*'x'"):
        paddle.unique(t([True, False]))


def test_unique_along_an_axis_and_its_result_takes_no_gradient():
    x = t([[2, 1, 3], [3, 0, 1], [2, 1, 3]])
    out, index, inverse, counts = paddle.unique(x, axis=0, return_index=True,
                                                return_inverse=True, return_counts=True)
    assert out.tolist() == [[2, 1, 3], [3, 0, 1]] and index.tolist() == [0, 1]
    assert inverse.tolist() == [0, 1, 0] and counts.tolist() == [2, 1]
    assert paddle.unique(t([1.0, 2.0, 2.0], stop_gradient=False)).stop_gradient


def test_unique_consecutive_runs_along_an_axis_and_nans():
    out, inverse, counts = paddle.unique_consecutive(
        t([[2, 1, 3], [2, 1, 3], [3, 0, 1], [2, 1, 3]]), axis=0, return_inverse=True,
        return_counts=True)
    assert out.tolist() == [[2, 1, 3], [3, 0, 1], [2, 1, 3]]
    assert inverse.tolist() == [0, 0, 1, 2] and counts.tolist() == [2, 1, 1]
    assert str(paddle.unique_consecutive(t([1.0, np.nan, np.nan, 2.0])).tolist()) == \
        "[1.0, nan, nan, 2.0]"
    out, inverse, counts = paddle.unique_consecutive(paddle.zeros([0]), return_inverse=True,
                                                     return_counts=True)
    assert out.shape == inverse.shape == counts.shape == [0]


def test_argwhere_refuses_a_0d_tensor_and_keeps_the_rank_when_empty():
    assert paddle.argwhere(t([0, 0])).shape == [0, 1]
    assert paddle.argwhere(t([True, False])).tolist() == [[0]]
    with pytest.raises(ValueError, match="argwhere"):
        paddle.argwhere(t(3))


# --------------------------------------------------------- sorted sequences
def test_searchsorted_sides_dtypes_nan_and_sorter():
    s = t([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
    v = t([[3, 6, 9], [3, 6, 9]])
    assert paddle.searchsorted(s, v, side="right").tolist() == [[2, 3, 5], [1, 3, 4]]
    assert paddle.searchsorted(s, v, out_int32=True).dtype == "int32"
    assert paddle.searchsorted(t([1, 3, 5]), v).tolist() == [[1, 3, 3], [1, 3, 3]]
    assert paddle.searchsorted(t([1.0, 3.0, 5.0]), t([2.0, np.nan])).tolist() == [1, 3]
    assert paddle.searchsorted(t([1, 3, 5]), t([2.5, 4.0])).tolist() == [1, 2]
    assert paddle.searchsorted(t([5, 1, 3]), t([2, 4]), sorter=t([1, 2, 0])).tolist() == [1, 2]
    assert paddle.searchsorted(t([1, 3, 5]), t(2)).shape == []
    with pytest.raises(ValueError, match="sorted_sequence"):
        paddle.searchsorted(s, t([[3], [4], [5]]))
    with pytest.raises(ValueError, match="side"):
        paddle.searchsorted(t([1.0]), t([1.0]), right=True, side="left")


def test_bucketize_takes_a_1d_sequence():
    x = t([[0, 8, 4, 16], [-1, 2, 8, 4]])
    assert paddle.bucketize(x, t([2, 4, 8, 16]), right=True).tolist() == [[0, 3, 2, 4],
                                                                          [0, 1, 3, 2]]
    assert x.bucketize(t([2, 4, 8, 16])).tolist() == [[0, 2, 1, 3], [0, 0, 2, 1]]
    with pytest.raises(ValueError, match="sorted_sequence"):
        paddle.bucketize(t([1, 2]), t([[2, 4]]))


def test_isin_promotes_only_between_floating_dtypes():
    assert paddle.isin(t([1.0, 2.0]), t([2.0], dtype="float64")).tolist() == [False, True]
    assert paddle.isin(t([1.0, 2.0]), t([2.0]), invert=True).tolist() == [True, False]
    assert paddle.isin(t([True, False]), t([True])).tolist() == [True, False]
    for other in (t([2], dtype="int32"), t([2.0])):
        with pytest.raises(TypeError, match="test_x"):
            paddle.isin(t([1, 2]), other)


def test_shard_index_as_paddle():
    assert paddle.shard_index(t([[16], [1]]), 20, 2, 1, ignore_value=-5).tolist() == [[6], [-5]]
    assert paddle.shard_index(t([[19], [7], [14]]), 20, 3, 2).tolist() == [[5], [-1], [0]]
    assert paddle.shard_index(t([[16]], dtype="int32"), 20, 2, 0).dtype == "int32"
    for args, arg in [((t([[-1]]), 20, 2, 0), "input"), ((t([[16]]), 13, 2, 2), "shard_id"),
                      ((t([16, 1]), 20, 2, 0), "input"), ((t([[26]]), 20, 2, 0), "input")]:
        with pytest.raises(ValueError, match=arg):
            paddle.shard_index(*args)


# ------------------------------------------------------------------ placing
def test_masked_scatter_gradients_and_broadcasting_as_paddle():
    mask = t([[True, False], [False, True]])
    assert grads(lambda x, v: paddle.masked_scatter(x, mask, v), [[1, 2], [3, 4]],
                 [10, 20, 30]) == ([[10, 2], [3, 20]], [[[0, 2], [3, 0]], [1, 4, 0]])
    out = paddle.masked_scatter(t([1.0, 2.0]), t([[True, False], [True, True]]),
                                t([5.0, 6.0, 7.0]))
    assert out.tolist() == [[5.0, 2.0], [6.0, 7.0]]


def test_masked_scatter_refuses_too_few_values_other_dtypes_and_non_bool_masks():
    # Paddle leaves the positions it has no value for unchanged, silently.
    with pytest.raises(ValueError, match="value"):
        paddle.masked_scatter(t([1.0, 2.0]), t([True, True]), t([5.0]))
    with pytest.raises(TypeError, match="value"):
        paddle.masked_scatter(t([1.0, 2.0]), t([True, True]), t([1, 2]))
    with pytest.raises(TypeError, match="mask"):
        paddle.masked_scatter(t([1.0, 2.0]), t([1, 0]), t([1.0, 2.0]))


def test_masked_scatter_in_place():
    x = t([1.0, 2.0])
    assert paddle.masked_scatter_(x, t([False, True]), t([9.0])) is x
    assert x.tolist() == [1.0, 9.0]
    x.masked_scatter_(t([True, False]), t([7.0]))
    assert x.tolist() == [7.0, 9.0]


def test_index_fill_converts_the_value_and_a_tensor_value_gets_the_gradient():
    assert paddle.index_fill(t([[1, 2, 3], [4, 5, 6]]), t([1]), 1, 2.7).tolist() == \
        [[1, 2, 3], [4, 2, 6]]
    assert paddle.index_fill(t([[1, 2, 3], [4, 5, 6]]), t([-1]), 1, 9).tolist() == \
        [[1, 2, 9], [4, 5, 9]]
    assert grads(lambda x: paddle.index_fill(x, t([0, 2, 0]), 1, -1.0), [[1, 2, 3], [4, 5, 6]]) \
        == ([[-1, 2, -1], [-1, 5, -1]], [[[0, 2, 0], [0, 5, 0]]])
    assert grads(lambda x, v: paddle.index_fill(x, t([1]), 1, v), [[1, 2, 3], [4, 5, 6]], 2.5)[1] \
        == [[[1, 0, 3], [4, 0, 6]], 7.0]
    x = t([True, False])
    assert x.index_fill_(t([1]), 0, True) is x and x.tolist() == [True, True]


def test_index_fill_refuses_an_index_out_of_range():
    # Paddle 3.3.1 corrupts its heap and aborts here.
    with pytest.raises(IndexError, match="index"):
        paddle.index_fill(t([[1.0, 2.0, 3.0]]), t([3]), 1, 1.0)


def test_take_modes_and_gradient():
    x = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert paddle.take(x, t([7, -8]), mode="wrap").tolist() == [2.0, 5.0]
    assert paddle.take(x, t([7, -8]), mode="clip").tolist() == [6.0, 1.0]
    assert paddle.take(x, t([1], dtype="int32")).tolist() == [2.0]
    assert grads(lambda x: paddle.take(x, t([0, 5, 0])), [[1, 2, 3], [4, 5, 6]])[1] == \
        [[[4, 0, 0], [0, 0, 2]]]
    with pytest.raises(TypeError, match="index"):
        paddle.take(x, t([1.0]))


@pytest.mark.parametrize("index", [6, -7])
def test_take_raises_index_error_on_both_sides(index):
    # Paddle raises ValueError for 6 and returns an arbitrary element for -7.
    with pytest.raises(IndexError, match="index"):
        paddle.take(paddle.ones([2, 3]), t([index]))


def test_take_along_dim_writes_into_out():
    out = paddle.zeros([1])
    result = paddle.take_along_dim(t([[1.0, 2.0], [3.0, 4.0]]), t([[1], [0]]), 1, out=out)
    assert result is out and out.tolist() == [[2.0], [3.0]]


def test_select_scatter_casts_values_and_refuses_an_index_out_of_range():
    x = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert paddle.select_scatter(x, t([1, 2]), 1, 0).tolist() == [[1.0, 2.0, 3.0],
                                                                    [2.0, 5.0, 6.0]]
    assert paddle.select_scatter(paddle.zeros([3]), t(5.0), 0, 1).tolist() == [0.0, 5.0, 0.0]
    # Paddle returns x unchanged for an index past the end.
    with pytest.raises(IndexError, match="index"):
        paddle.select_scatter(x, t([1.0, 2.0]), 1, 3)
    with pytest.raises(ValueError, match="values"):
        paddle.select_scatter(x, t([1.0]), 1, 0)


def test_slice_scatter_follows_pythons_slices():
    zeros = paddle.zeros([2, 4])
    ones = paddle.ones([2, 2])
    assert paddle.slice_scatter(zeros, ones, [1], [-3], [4], [2]).tolist() == [[0, 1, 0, 1]] * 2
    assert paddle.slice_scatter(zeros, ones, [1], [2], [100], [1]).tolist() == [[0, 0, 1, 1]] * 2
    assert paddle.slice_scatter(zeros, ones, [1], [3], [0], [-2]).tolist() == [[0, 1, 0, 1]] * 2
    assert grads(lambda x, v: paddle.slice_scatter(x, v, [1], [0], [3], [2]),
                 [[1, 2, 3], [4, 5, 6]], [[10, 20], [30, 40]])[1] == \
        [[[0, 2, 0], [0, 5, 0]], [[1, 3], [4, 6]]]
    with pytest.raises(ValueError, match="value"):
        paddle.slice_scatter(zeros, paddle.ones([2, 3]), [1], [0], [4], [2])


def test_diagonal_scatter_gives_y_its_gradient():
    # Paddle gives y no gradient; PyTorch gives it the diagonal's.
    out, (grad_x, grad_y) = grads(lambda x, y: paddle.diagonal_scatter(x, y, 0, 0, 2),
                                  np.arange(12).reshape(2, 3, 2),
                                  [[10, 20], [30, 40], [50, 60]])
    assert out == [[[10, 1], [30, 3], [50, 5]], [[6, 20], [8, 40], [10, 60]]]
    assert grad_x == [[[0, 2], [0, 4], [0, 6]], [[7, 0], [9, 0], [11, 0]]]
    assert grad_y == [[1, 8], [3, 10], [5, 12]]


def test_diagonal_scatter_casts_y_and_checks_its_shape_and_axes():
    # Paddle reads float64 y as float32 bytes.
    out = paddle.diagonal_scatter(paddle.zeros([2, 3]), paddle.ones([2], dtype="float64"))
    assert out.tolist() == [[1, 0, 0], [0, 1, 0]] and out.dtype == "float32"
    with pytest.raises(ValueError, match="y"):
        paddle.diagonal_scatter(paddle.zeros([2, 3]), paddle.ones([3]))
    with pytest.raises(ValueError, match="axis1"):
        paddle.diagonal_scatter(paddle.zeros([2, 3]), paddle.ones([2]), 0, 1, 1)


def test_fill_diagonal_tensor_methods():
    x = paddle.zeros([2, 3])
    assert x.fill_diagonal_tensor(t([1.0, 2.0]), offset=1).tolist() == [[0, 1, 0], [0, 0, 2]]
    assert x.tolist() == [[0, 0, 0], [0, 0, 0]]
    assert x.fill_diagonal_tensor_(t([1.0, 2.0])) is x and x.tolist() == [[1, 0, 0], [0, 2, 0]]
    with pytest.raises(ValueError, match="dim1"):
        x.fill_diagonal_tensor(t([1.0, 2.0]), 0, 1, 1)


@pytest.mark.parametrize("shape, kwargs, filled", [
    ([3, 4], {}, [(0, 0), (1, 1), (2, 2)]),
    ([3, 4], {"offset": 1}, [(0, 1), (1, 2), (2, 3)]),
    ([3, 4], {"offset": -1}, [(1, 0), (2, 1)]),
    ([7, 3], {}, [(0, 0), (1, 1), (2, 2)]),
    ([7, 3], {"wrap": True}, [(0, 0), (1, 1), (2, 2), (4, 0), (5, 1), (6, 2)]),
    ([7, 3], {"offset": 1, "wrap": True}, [(0, 1), (1, 2), (4, 1), (5, 2)]),
    ([2, 2, 3], {}, [(0, 0, 0), (1, 1, 1)]),
])
def test_fill_diagonal_places_as_paddle(shape, kwargs, filled):
    x = paddle.zeros(shape)
    assert x.fill_diagonal_(1.0, **kwargs) is x
    expected = np.zeros(shape, "float32")
    for position in filled:
        expected[position] = 1.0
    np.testing.assert_array_equal(x.numpy(), expected)


def test_fill_diagonal_converts_the_value_records_the_gradient_and_refuses_1d():
    assert t([[1, 2], [3, 4]]).fill_diagonal_(2.7).tolist() == [[2, 2], [3, 2]]
    a = t([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    b = a * 1.0
    b.fill_diagonal_(5.0)
    b.sum().backward()
    assert a.grad.tolist() == [[0.0, 1.0], [1.0, 0.0]]
    # Paddle dies of a floating-point exception here.
    with pytest.raises(ValueError, match="fill_diagonal_"):
        paddle.zeros([3]).fill_diagonal_(1.0)


# ---------------------------------------------------------- scatter along
def test_scatter_add_gradients():
    index = t([[0, 1, 0], [1, 1, 0]])
    assert grads(lambda x, s: paddle.scatter_add(x, 0, index, s), [[1, 2, 3], [4, 5, 6]],
                 [[10, 20, 30], [40, 50, 60]]) == (
        [[11, 2, 93], [44, 75, 6]], [[[1, 2, 3], [4, 5, 6]], [[1, 5, 3], [4, 5, 3]]])


def test_scatter_add_gives_src_a_gradient_of_its_own_shape():
    # Paddle's gradient of src has index's shape ([2, 1] here), not src's.
    out, (_, grad_src) = grads(lambda x, s: paddle.scatter_add(x, 1, t([[0], [2]]), s),
                               [[1, 2, 3], [4, 5, 6]], [[10, 20, 30], [40, 50, 60]])
    assert out == [[11, 2, 3], [4, 5, 46]] and grad_src == [[1, 0, 0], [6, 0, 0]]


def test_scatter_add_rules():
    assert paddle.scatter_add(paddle.zeros([2, 3]), 1, t([[-1]]), paddle.ones([2, 3])).tolist() \
        == [[0, 0, 1], [0, 0, 0]]
    assert paddle.scatter_add(t([[1, 2]]), 0, t([[0]]), t([[5, 6]])).tolist() == [[6, 2]]
    with pytest.raises(ValueError, match="index"):
        paddle.scatter_add(paddle.zeros([2, 3]), 1, t([[0, 1, 2, 0]]), paddle.ones([2, 3]))
    with pytest.raises(IndexError, match="index"):
        paddle.scatter_add(paddle.zeros([2, 3]), 1, t([[3]]), paddle.ones([2, 3]))
    with pytest.raises(TypeError, match="src"):
        paddle.scatter_add(paddle.zeros([2, 3]), 1, t([[0]]), paddle.ones([2, 3], "float64"))
    x = paddle.zeros([2])
    assert x.scatter_add_(0, t([1, 1]), t([1.0, 2.0])) is x and x.tolist() == [0.0, 3.0]


_X = [[1, 2, 3], [4, 5, 6]]
_SRC = [[10, 2, 3], [4, 5, 6]]


@pytest.mark.parametrize("reduce, include_self, out, grad_x, grad_src", [
    ("sum", False, [[10, 2, 9], [4, 7, 6]], [[0, 2, 0], [0, 0, 6]], [[1, 5, 3], [4, 5, 3]]),
    ("prod", True, [[10, 2, 54], [16, 50, 6]], [[10, 2, 54], [16, 50, 6]],
     [[1, 125, 54], [16, 50, 27]]),
    ("mean", True, [[5.5, 2, 4], [4, 4, 6]], [[0.5, 2, 1], [2, 5 / 3, 6]],
     [[0.5, 5 / 3, 1], [2, 5 / 3, 1]]),
    ("mean", False, [[10, 2, 4.5], [4, 3.5, 6]], [[0, 2, 0], [0, 0, 6]],
     [[1, 2.5, 1.5], [4, 2.5, 1.5]]),
    # Ties share the gradient evenly; an element of x left out by include_self=False still
    # counts among them (Paddle's and PyTorch's convention).
    ("amin", True, [[1, 2, 3], [4, 2, 6]], [[1, 2, 1.5], [2, 0, 6]], [[0, 5, 1.5], [2, 0, 0]]),
    ("amin", False, [[10, 2, 3], [4, 2, 6]], [[0, 2, 0], [0, 0, 6]], [[1, 5, 1.5], [2, 0, 0]]),
    ("amax", False, [[10, 2, 6], [4, 5, 6]], [[0, 2, 0], [0, 0, 6]], [[1, 0, 0], [2, 2.5, 3]]),
])
def test_scatter_reduce_values_and_gradients_as_paddle(reduce, include_self, out, grad_x,
                                                       grad_src):
    index = t([[0, 1, 0], [1, 1, 0]])
    got_out, (got_x, got_src) = grads(lambda x, s: paddle.scatter_reduce(
        x, 0, index, s, reduce, include_self=include_self), _X, _SRC)
    np.testing.assert_allclose(got_out, out)
    np.testing.assert_allclose(got_x, grad_x)
    np.testing.assert_allclose(got_src, grad_src)


def test_scatter_reduce_prod_gradient_at_a_zero_factor():
    # Paddle gives NaN to the zero factor; the product of the other factors is 2 * 3.
    assert grads(lambda x, s: paddle.scatter_reduce(x, 0, t([[0], [0]]), s, "prod"),
                 [[2]], [[0], [3]])[1] == [[[0.0]], [[6.0], [0.0]]]


def test_scatter_reduce_integer_mean_rounds_down_and_unknown_reductions_are_refused():
    assert paddle.scatter_reduce(t([[-2]]), 0, t([[0], [0]]), t([[-1], [-2]]), "mean").tolist() \
        == [[-2]]
    assert paddle.scatter_reduce(t([[5, 7]]), 0, t([[0], [0]]), t([[-1], [-2]]), "mean",
                                 include_self=False).tolist() == [[-2, 7]]
    assert paddle.scatter_reduce(t([[2, 3]]), 0, t([[0, 0]]), t([[4, 5]]), "prod").tolist() == \
        [[8, 15]]
    with pytest.raises(ValueError, match="reduce"):
        paddle.scatter_reduce(t([[2.0]]), 0, t([[0]]), t([[1.0]]), "max")


def test_multiplex_gradient_and_index_rules():
    index = t([[1], [0], [1]], dtype="int32")
    assert grads(lambda a, b: paddle.multiplex([a, b], index), [[1, 2], [3, 4], [5, 6]],
                 [[10, 20], [30, 40], [50, 60]]) == (
        [[10, 20], [3, 4], [50, 60]], [[[0, 0], [3, 4], [0, 0]], [[1, 2], [0, 0], [5, 6]]])
    # Paddle fails on an int64 index (its kernel reads int32); pylayer takes both.
    assert paddle.multiplex([t([[1.0]]), t([[2.0]])], t([[1]])).tolist() == [[2.0]]
    with pytest.raises(ValueError, match="index"):
        paddle.multiplex([t([[1.0]]), t([[2.0]])], t([1]))
    with pytest.raises(ValueError, match="inputs"):
        paddle.multiplex([t([1.0, 2.0]), t([3.0, 4.0])], t([[1], [0]]))
    with pytest.raises(TypeError, match="inputs"):
        paddle.multiplex([t([[1.0]])], t([[0]]))


# ----------------------------------------------------------------- products
def test_mm_and_mv_shapes_and_dtypes():
    assert paddle.mm(paddle.ones([2, 2, 3]), paddle.ones([3, 4])).shape == [2, 2, 4]
    assert paddle.mm(paddle.ones([3]), paddle.ones([3, 4])).shape == [4]
    assert paddle.mm(t([[1, 2]]), t([[1], [2]])).tolist() == [[5]]
    with pytest.raises(TypeError, match="mat2"):
        paddle.mm(t([[1.0, 2.0]]), t([[1.0], [2.0]], dtype="float64"))
    with pytest.raises(TypeError, match="mv"):
        paddle.mv(t([[1, 2]]), t([1, 2]))
    for x, vec in [(paddle.ones([2, 3, 4]), paddle.ones([4])), (paddle.ones([2, 3]),
                                                                paddle.ones([4]))]:
        with pytest.raises(ValueError, match="vec"):
            paddle.mv(x, vec)


def test_outer_and_ger_flatten_and_refuse_int_beside_float():
    assert paddle.ger(paddle.ones([2, 2]), paddle.ones([3])).shape == [4, 3]
    assert paddle.outer(t(2.0), t(3.0)).tolist() == [[6.0]]
    assert paddle.outer(t([1.0, 2.0]), t([1.0], dtype="float64")).dtype == "float64"
    assert paddle.ger(t([1, 2]), t([3])).tolist() == [[3], [6]]
    with pytest.raises(TypeError, match="outer"):
        paddle.outer(t([1, 2]), t([3.0]))
    out = paddle.zeros([1])
    assert paddle.ger(t([1.0, 2.0]), t([3.0]), out=out) is out and out.tolist() == [[3.0], [6.0]]


def test_inner_kron_and_tensordot_shapes():
    assert paddle.inner(t(2.0), t([3.0, 4.0])).tolist() == [6.0, 8.0]
    assert paddle.inner(t([2, 1]), t([3, 4])).tolist() == 10
    assert paddle.kron(paddle.ones([2]), paddle.ones([2, 2])).shape == [2, 4]
    assert paddle.kron(t(2.0), t([1.0, 2.0])).tolist() == [2.0, 4.0]
    x = paddle.ones([2, 3, 4])
    assert paddle.tensordot(x, paddle.ones([3, 4, 5])).shape == [2, 5]
    assert paddle.tensordot(x, paddle.ones([4, 3, 5]), axes=[[1, 2], [1, 0]]).shape == [2, 5]
    assert paddle.tensordot(x, paddle.ones([3, 4, 5]), axes=[[-1], [-2]]).shape == [2, 3, 3, 5]
    assert paddle.tensordot(x, paddle.ones([2, 3, 5]), axes=[0, 1]).shape == [4, 5]
    assert paddle.tensordot(x, paddle.ones([2, 3, 4]), axes=[[0, 1, 2], [0]]).shape == []
    assert paddle.tensordot(x, paddle.ones([2, 3, 5]), axes=t([0, 1])).shape == [4, 5]
    assert paddle.tensordot(paddle.ones([2, 1]), paddle.ones([3, 4]),
                            axes=[[1], [1]]).tolist() == [[4.0] * 3] * 2
    assert paddle.tensordot(paddle.ones([2]), paddle.ones([3]), axes=0).shape == [2, 3]
    with pytest.raises(ValueError, match="axes"):
        paddle.tensordot(x, paddle.ones([3, 4, 5]), axes=[1, 2])
    with pytest.raises(TypeError, match="y"):
        paddle.kron(t([1, 2]), t([1.0]))


def test_cross_default_axis_is_the_first_of_size_3():
    x = t([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]])
    y = t([[0.0, 1, 0], [0, 0, 1], [1, 0, 0]])
    assert paddle.cross(x, y).tolist() == [[0, 0, -1], [-1, 0, 0], [0, -1, 0]]
    assert paddle.cross(t([1, 2, 3]), t([3, 2, 1])).tolist() == [-4, 8, -4]
    with pytest.raises(ValueError, match="size 3"):
        paddle.cross(paddle.ones([2, 2]), paddle.ones([2, 2]))
    with pytest.raises(ValueError, match="shape"):
        paddle.cross(paddle.ones([2, 3]), paddle.ones([1, 3]))
    with pytest.raises(ValueError, match="axis"):
        paddle.cross(paddle.ones([3, 2]), paddle.ones([3, 2]), axis=1)


def test_baddbmm_input_shapes_and_in_place_forms():
    input = t([[1.0, 2.0], [3.0, 4.0]])
    out = paddle.baddbmm(input, paddle.zeros([2, 3, 2]), paddle.zeros([2, 2, 2]))
    assert out.tolist() == [[[1, 2]] * 3, [[3, 4]] * 3]
    assert grads(lambda i, a, b: paddle.baddbmm(i, a, b, beta=2.0, alpha=0.5), [[[1, 1]]],
                 [[[1, 2]]], [[[1, 0], [0, 1]]]) == (
        [[[2.5, 3.0]]], [[[[2, 4]]], [[[0.5, 1]]], [[[0.5, 1], [1, 2]]]])
    with pytest.raises(ValueError, match="input"):
        paddle.baddbmm(paddle.ones([2]), paddle.ones([3, 1, 2]), paddle.ones([3, 2, 2]))
    with pytest.raises(TypeError, match="input"):
        paddle.baddbmm(t([[[1]]]), t([[[1]]]), t([[[1]]]))
    x = paddle.ones([1, 1, 2])
    assert x.baddbmm_(paddle.ones([1, 1, 3]), paddle.ones([1, 3, 2])) is x
    assert x.tolist() == [[[4.0, 4.0]]]
    y = paddle.ones([1, 2])
    assert paddle.addmm_(y, paddle.ones([1, 3]), paddle.ones([3, 2])) is y
    assert y.tolist() == [[4.0, 4.0]] and y.addmm(y, paddle.ones([2, 2])).shape == [1, 2]


# ------------------------------------------------- index_put_ and index_add_
def test_index_put_and_index_add_in_place_as_paddle():
    x = t([1.0, 2.0, 3.0])
    assert paddle.index_put_(x, (t([True, False, True]),), t([5.0])) is x
    assert x.tolist() == [5.0, 2.0, 5.0]
    assert x.index_add_(t([0, 0]), 0, t([1.0, 2.0]), alpha=2) is x
    assert x.tolist() == [11.0, 2.0, 5.0]
    # Where index_put writes a position twice the last value wins; pylayer gives the
    # overwritten value no gradient (Paddle gives it the position's gradient too).
    assert grads(lambda x, v: paddle.index_put(x, (t([0, 1, 0]),), v), [1, 2, 3],
                 [10, 20, 30]) == ([30, 20, 3], [[0, 0, 3], [0, 2, 1]])
    with pytest.raises(TypeError, match="value"):
        paddle.index_put(t([1.0, 2.0]), (t([1]),), t([5]))


def test_index_add_refuses_a_float_alpha_for_an_integer_tensor():
    assert paddle.index_add(t([1, 2]), t([0]), 0, t([3]), alpha=2).tolist() == [7, 2]
    with pytest.raises(TypeError, match="alpha"):
        paddle.index_add(t([1, 2]), t([0]), 0, t([3]), alpha=1.5)
