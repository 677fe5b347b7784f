"""The scatter and index family (ops/scatter.py): Paddle 3.3.1's observed outcomes,
repeated indices, refusals, gradients, in-place forms and Tensor methods.

The generic checks (numpy reference, gradcheck, gradgradcheck, static vs dynamic)
are the entries of tests/ops/opinfo.py; the cases here are one rule each. Where
pylayer differs from Paddle on purpose the test says so, and the migration guide
lists it ("Where pylayer differs from Paddle").
"""
import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(3)


def leaf(data, dtype="float32"):
    return pylayer.to_tensor(data, dtype=dtype, stop_gradient=False)


def ints(data, dtype="int64"):
    return pylayer.to_tensor(data, dtype=dtype)


def weights(*shape):
    """Distinct weights for a weighted sum, so that every gradient entry is visible."""
    return pylayer.arange(int(np.prod(shape)), dtype="float32").reshape(list(shape))


def grads(out, *inputs):
    """Gradients of ``(out * weights).sum()`` with respect to ``inputs``, as lists."""
    return [g.numpy().tolist() for g in pylayer.grad((out * weights(*out.shape)).sum(), inputs)]


def check_grads(fn, *shapes):
    inputs = tuple(pylayer.to_tensor(RNG.standard_normal(s), dtype="float64",
                                     stop_gradient=False) for s in shapes)
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


ROWS3 = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
UPDATES4 = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]]


# ------------------------------------------------------------------ scatter
def test_scatter_overwrite_with_repeats_the_last_update_wins():
    # Paddle 3.3.1: [[3, 3], [4, 4], [1, 1]]: row 1 gets the later of its two updates.
    out = pylayer.scatter(pylayer.to_tensor(ROWS3), ints([2, 1, 0, 1]),
                          pylayer.to_tensor(UPDATES4))
    assert out.numpy().tolist() == [[3.0, 3.0], [4.0, 4.0], [1.0, 1.0]]


def test_scatter_without_overwrite_zeroes_the_rows_then_adds():
    # Paddle 3.3.1: [[3, 3], [6, 6], [1, 1]]: row 1 is 2 + 4, its old value dropped.
    out = pylayer.scatter(pylayer.to_tensor(ROWS3), ints([2, 1, 0, 1]),
                          pylayer.to_tensor(UPDATES4), overwrite=False)
    assert out.numpy().tolist() == [[3.0, 3.0], [6.0, 6.0], [1.0, 1.0]]


def test_scatter_gradient_goes_only_to_the_update_that_won():
    # Paddle 3.3.1 gives the overwritten update [2, 2] the gradient of row 1 too
    # ([[5, 6], [3, 4], [1, 2], [3, 4]]), which is not the derivative: pylayer gives
    # it zero (migration guide). x gets nothing at the written rows, as in Paddle.
    x, u = leaf(ROWS3), leaf(UPDATES4)
    gx, gu = grads(pylayer.scatter(x, ints([2, 1, 0, 1]), u), x, u)
    assert gx == [[0.0, 0.0]] * 3
    assert gu == [[4.0, 5.0], [0.0, 0.0], [0.0, 1.0], [2.0, 3.0]]
    check_grads(lambda x, u: pylayer.scatter(x, ints([2, 1, 0, 1]), u), (3, 2), (4, 2))


def test_scatter_gradients_without_overwrite_and_to_rows_not_written():
    # Paddle 3.3.1: every update gets its row's gradient; x keeps it off the written rows.
    x, u = leaf([[1.0, 1.0]] * 4), leaf([[9.0, 9.0], [8.0, 8.0]])
    gx, gu = grads(pylayer.scatter(x, ints([1, 1]), u, overwrite=False), x, u)
    assert gx == [[0.0, 1.0], [0.0, 0.0], [4.0, 5.0], [6.0, 7.0]]
    assert gu == [[2.0, 3.0], [2.0, 3.0]]


def test_scatter_index_forms_paddle_accepts():
    x = pylayer.to_tensor(ROWS3)
    nine = pylayer.to_tensor([[9.0, 9.0]])
    # Paddle 3.3.1: a negative index counts from the end, int32 works, a 0-d index
    # takes updates of x.shape[1:].
    assert pylayer.scatter(x, ints([-1]), nine).numpy().tolist()[2] == [9.0, 9.0]
    assert pylayer.scatter(x, ints([1], "int32"), nine).numpy().tolist()[1] == [9.0, 9.0]
    assert pylayer.scatter(x, ints(1), pylayer.to_tensor([9.0, 9.0])).numpy().tolist()[1] == [
        9.0, 9.0]
    same = pylayer.scatter(x, ints([], "int64"), pylayer.zeros([0, 2]))
    assert same.numpy().tolist() == ROWS3
    assert pylayer.scatter(ints([[1, 2], [3, 4]]), ints([1]), ints([[9, 9]])).dtype == \
        pylayer.int64


@pytest.mark.parametrize("index,updates,error,words", [
    ([3], [[9.0, 9.0]], IndexError, r"index 3, outside the valid range \[-3, 3\)"),
    ([-4], [[9.0, 9.0]], IndexError, "index -4"),
    ([1.0], [[9.0, 9.0]], TypeError, "'index'.*int32 or int64"),
    ([[1]], [[9.0, 9.0]], ValueError, "'index'.*0-d or 1-D"),
    ([1], [[9.0, 9.0, 9.0]], ValueError, r"'updates' must have shape \[1, 2\]"),
    # Paddle 3.3.1 silently writes the first of the two rows: refused here.
    ([1], [[9.0, 9.0], [8.0, 8.0]], ValueError, "'updates'"),
])
def test_scatter_refusals(index, updates, error, words):
    with pytest.raises(error, match="scatter\\(\\): .*" + words):
        pylayer.scatter(pylayer.to_tensor(ROWS3), pylayer.to_tensor(index),
                        pylayer.to_tensor(updates))


def test_scatter_updates_of_another_dtype_are_refused():
    # Paddle 3.3.1: an error (ValueError) for int updates into a float x.
    with pytest.raises(TypeError, match="scatter\\(\\): argument 'updates'.*float32.*int64"):
        pylayer.scatter(pylayer.to_tensor(ROWS3), ints([1]), ints([[9, 9]]))


def test_scatter_checks_every_index_before_writing():
    x = pylayer.to_tensor(ROWS3)
    with pytest.raises(IndexError):
        pylayer.scatter(x, ints([0, 7]), pylayer.ones([2, 2]))
    assert x.numpy().tolist() == ROWS3 and x.inplace_version == 0


def test_scatter_keeps_its_own_copy_of_the_index():
    index = ints([0, 1])
    x, u = leaf(ROWS3), leaf([[5.0, 5.0], [6.0, 6.0]])
    out = pylayer.scatter(x, index, u)
    index.numpy()[:] = 2           # the caller changes its index after the forward
    (out * weights(3, 2)).sum().backward()
    assert u.grad.numpy().tolist() == [[0.0, 1.0], [2.0, 3.0]]


# -------------------------------------------------------- in-place and methods
def test_scatter_in_place_writes_the_tensor_and_bumps_its_version():
    # Paddle 3.3.1: x.scatter_ returns x itself, written.
    x = pylayer.to_tensor([1.0, 2.0])
    assert x.scatter_(ints([0]), pylayer.to_tensor([5.0])) is x
    assert x.numpy().tolist() == [5.0, 2.0] and x.inplace_version == 1


@pytest.mark.parametrize("method,args", [
    ("scatter_", (ints([0]), pylayer.to_tensor([5.0]))),
    ("index_add_", (ints([0]), 0, pylayer.to_tensor([5.0]))),
    ("index_put_", ((ints([0]),), pylayer.to_tensor([5.0]))),
])
def test_in_place_forms_refuse_a_leaf_that_needs_a_gradient(method, args):
    # Paddle 3.3.1: "Leaf Var ... that doesn't stop gradient can't use inplace strategy".
    x = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match="leaf tensor"):
        getattr(x, method)(*args)
    assert x.numpy().tolist() == [1.0, 2.0] and x.inplace_version == 0


def test_in_place_forms_on_a_graph_pass_gradients_through():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    v = leaf([[10.0, 20.0]])
    y = x * 1.0
    y.index_add_(ints([1]), 0, v)
    y.index_put_((ints([0]), ints([0])), pylayer.to_tensor([7.0]))
    assert y.numpy().tolist() == [[7.0, 2.0], [13.0, 24.0]] and y.inplace_version == 2
    gx, gv = grads(y, x, v)
    assert gx == [[0.0, 1.0], [2.0, 3.0]] and gv == [[2.0, 3.0]]


def test_the_new_ops_are_tensor_methods():
    x = pylayer.to_tensor([[1.0, 0.0], [0.0, 3.0]])
    assert x.nonzero().numpy().tolist() == [[0, 0], [1, 1]]
    assert x.masked_select(x > 0).numpy().tolist() == [1.0, 3.0]
    assert x.gather_nd(ints([[1, 1]])).numpy().tolist() == [3.0]
    assert x.index_sample(ints([[1], [0]])).numpy().tolist() == [[0.0], [0.0]]
    assert ints([[1]]).scatter_nd(pylayer.to_tensor([2.0]), [3]).numpy().tolist() == [
        0.0, 2.0, 0.0]
    assert ints([1, 1]).bincount().numpy().tolist() == [0, 2]
    assert x.histogram(bins=2, min=0, max=4).numpy().tolist() == [3, 1]
    for name in ("scatter", "scatter_nd_add", "index_add", "index_put"):
        assert getattr(pylayer.Tensor, name) is getattr(pylayer, name)


# ------------------------------------------------- scatter_nd, scatter_nd_add
def test_scatter_nd_adds_repeated_coordinates():
    # Paddle 3.3.1: [0, 3, 0, 3, 0] and, with partial coordinates, whole rows.
    assert pylayer.scatter_nd(ints([[1], [1], [3]]), pylayer.to_tensor([1.0, 2.0, 3.0]),
                              [5]).numpy().tolist() == [0.0, 3.0, 0.0, 3.0, 0.0]
    out = pylayer.scatter_nd(ints([[0, 1], [1, 0], [0, 1]]),
                             pylayer.to_tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]]), [2, 2, 3])
    assert out.numpy().tolist() == [[[0, 0, 0], [8, 10, 12]], [[4, 5, 6], [0, 0, 0]]]
    assert pylayer.scatter_nd(ints([[-1]]), pylayer.to_tensor([1.0]), [3]).numpy().tolist() == [
        0.0, 0.0, 1.0]
    assert pylayer.scatter_nd(ints([[1]]), ints([1]), [3]).dtype == pylayer.int64


def test_scatter_nd_with_empty_coordinates_adds_every_update_to_the_whole_tensor():
    # Paddle 3.3.1 returns a [2, 2] tensor here (the updates, unsummed) for shape [2];
    # an index of shape [2, 0] selects the whole tensor twice: pylayer sums (guide).
    out = pylayer.scatter_nd(pylayer.zeros([2, 0], "int64"),
                             pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]]), [2])
    assert out.numpy().tolist() == [4.0, 6.0]


def test_scatter_nd_add_results_and_gradients():
    # Paddle 3.3.1: [[1, 1], [5, 7], [1, 1]]; x's gradient passes whole, each update
    # gets its row's.
    x, u = leaf([[1.0, 1.0]] * 3), leaf([[1.0, 2.0], [3.0, 4.0]])
    out = pylayer.scatter_nd_add(x, ints([[1], [1]]), u)
    assert out.numpy().tolist() == [[1.0, 1.0], [5.0, 7.0], [1.0, 1.0]]
    gx, gu = grads(out, x, u)
    assert gx == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]] and gu == [[2.0, 3.0], [2.0, 3.0]]
    check_grads(lambda x, u: pylayer.scatter_nd_add(x, ints([[0, 1], [0, 1]]), u),
                (2, 2, 3), (2, 3))


@pytest.mark.parametrize("index,updates,error,words", [
    ([[3]], [5.0], IndexError, r"index 3, outside the valid range \[-3, 3\) of dimension 0"),
    ([[-4]], [5.0], IndexError, "index -4"),
    ([[1, 0]], [5.0], ValueError, r"last dimension of 'index' \(2\)"),
    ([[1]], [1.0, 2.0], ValueError, r"'updates' must have shape \[1\]"),
    ([[0.5]], [5.0], TypeError, "'index'"),
])
def test_scatter_nd_add_refusals(index, updates, error, words):
    with pytest.raises(error, match="scatter_nd_add\\(\\): .*" + words):
        pylayer.scatter_nd_add(pylayer.ones([3]), pylayer.to_tensor(index),
                               pylayer.to_tensor(updates))


def test_scatter_nd_refuses_a_bad_shape():
    with pytest.raises(ValueError, match="scatter_nd\\(\\): argument 'shape'"):
        pylayer.scatter_nd(ints([[1]]), pylayer.to_tensor([1.0]), [-3])


# ---------------------------------------------------------------- gather_nd
def test_gather_nd_results_recorded_from_paddle():
    x = pylayer.arange(24, dtype="float32").reshape([2, 3, 4])
    assert pylayer.gather_nd(x, ints([[0, 1], [1, 2]])).numpy().tolist() == [
        [4, 5, 6, 7], [20, 21, 22, 23]]
    assert pylayer.gather_nd(x, ints([[0, 1, 3]])).numpy().tolist() == [7.0]
    assert pylayer.gather_nd(x, ints([1, 2])).shape == [4]
    assert pylayer.gather_nd(x, ints([[-1]])).shape == [1, 3, 4]
    assert pylayer.gather_nd(x, pylayer.zeros([2, 0], "int64")).shape == [2, 2, 3, 4]


def test_gather_nd_and_index_put_with_one_coordinate_tuple():
    # A 1-D index is one coordinate tuple: the result is a copy, not a view of x.
    x = pylayer.arange(6, dtype="float32").reshape([3, 2])
    row = pylayer.gather_nd(x, ints([1]))
    row.numpy()[0] = 99.0
    assert x.numpy().tolist()[1] == [2.0, 3.0] and row.shape == [2]
    assert pylayer.scatter_nd_add(pylayer.ones([3, 2]), ints([1]), pylayer.to_tensor(
        [5.0, 6.0])).numpy().tolist() == [[1.0, 1.0], [6.0, 7.0], [1.0, 1.0]]
    # Paddle 3.3.1 refuses index tensors that are all 0-d (ValueError); numpy's rule
    # (one position) is kept here (guide).
    assert pylayer.index_put(pylayer.zeros([2, 2]), (ints(1), ints(0)), pylayer.to_tensor(3.0)
                             ).numpy().tolist() == [[0.0, 0.0], [3.0, 0.0]]


def test_gather_nd_gradient_adds_up_at_repeated_coordinates():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    (g,) = grads(pylayer.gather_nd(x, ints([[1, 0], [1, 0], [0, 1]])), x)
    assert g == [[0.0, 2.0], [1.0, 0.0]]


def test_gather_nd_refusals():
    # Paddle 3.3.1: a coordinate out of range is a ValueError there; an IndexError here,
    # as for every position out of range in pylayer.
    x = pylayer.ones([2, 3])
    with pytest.raises(IndexError, match=r"gather_nd\(\): argument 'index' holds the index 2"):
        pylayer.gather_nd(x, ints([[2]]))
    with pytest.raises(ValueError, match="gather_nd"):
        pylayer.gather_nd(x, ints([[1, 2, 0]]))


# ------------------------------------------------------------- index_sample
def test_index_sample_results_and_gradient():
    # Paddle 3.3.1: [[1, 1, 4], [6, 7, 7]], gradient [[2, 0, 0, 1], [0, 1, 2, 0]].
    x = leaf([[1.0, 2, 3, 4], [5, 6, 7, 8]])
    out = pylayer.index_sample(x, ints([[0, 0, 3], [1, 2, 2]]))
    assert out.numpy().tolist() == [[1.0, 1.0, 4.0], [6.0, 7.0, 7.0]]
    out.sum().backward()
    assert x.grad.numpy().tolist() == [[2.0, 0.0, 0.0, 1.0], [0.0, 1.0, 2.0, 0.0]]
    assert pylayer.index_sample(ints([[1, 2]]), ints([[1]], "int32")).numpy().tolist() == [[2]]


@pytest.mark.parametrize("x_shape,index,error", [
    ([2, 4], [[-1], [0]], IndexError),     # Paddle 3.3.1: negative indices are refused
    ([2, 4], [[4], [0]], IndexError),
    ([2, 4], [[1]], ValueError),           # rows differ
    ([2], [1], ValueError),                # not 2-D
])
def test_index_sample_refusals(x_shape, index, error):
    with pytest.raises(error, match="index_sample"):
        pylayer.index_sample(pylayer.ones(x_shape), ints(index))


# ---------------------------------------------------------------- index_add
def test_index_add_results_recorded_from_paddle():
    x = pylayer.ones([3, 2])
    value = pylayer.to_tensor([[1.0, 2], [3, 4], [5, 6]])
    assert pylayer.index_add(x, ints([0, 2, 0]), 0, value).numpy().tolist() == [
        [7.0, 9.0], [1.0, 1.0], [4.0, 5.0]]
    assert pylayer.index_add(x, ints([1, 1]), 1, value[:, :2]).numpy().tolist() == [
        [1.0, 4.0], [1.0, 8.0], [1.0, 12.0]]
    assert pylayer.index_add(x, ints([1]), 0, value[:1], alpha=3).numpy().tolist()[1] == [
        4.0, 7.0]
    assert pylayer.index_add(x, ints([-1]), -1, value[:, :1]).numpy().tolist() == [
        [1.0, 2.0], [1.0, 4.0], [1.0, 6.0]]
    assert pylayer.index_add(ints([1, 1]), ints([1]), 0, ints([5])).numpy().tolist() == [1, 6]


def test_index_add_gradients_scale_by_alpha():
    # Paddle 3.3.1: x gets the gradient whole, value alpha times its row's.
    x, v = leaf([[1.0, 1.0]] * 3), leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    gx, gv = grads(pylayer.index_add(x, ints([0, 2, 0]), 0, v, alpha=2), x, v)
    assert gx == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert gv == [[0.0, 2.0], [8.0, 10.0], [0.0, 2.0]]
    check_grads(lambda x, v: pylayer.index_add(x, ints([1, 1]), 1, v, alpha=0.5),
                (2, 3), (2, 2))


@pytest.mark.parametrize("index,axis,value,error", [
    ([3], 0, [[1.0, 2.0]], IndexError),
    ([[1]], 0, [[1.0, 2.0]], ValueError),          # the index must be 1-D
    ([1], 0, [[1.0, 2.0, 3.0]], ValueError),       # no broadcasting, as in Paddle
    ([1], 0, [1.0], ValueError),
    ([1], 2, [[1.0, 2.0]], ValueError),            # axis out of range
])
def test_index_add_refusals(index, axis, value, error):
    with pytest.raises(error, match="index_add"):
        pylayer.index_add(pylayer.ones([3, 2]), ints(index), axis, pylayer.to_tensor(value))


# ---------------------------------------------------------------- index_put
def test_index_put_results_recorded_from_paddle():
    x = pylayer.zeros([3, 3])
    rows, cols = ints([0, 1, 0]), ints([1, 2, 1])
    v = pylayer.to_tensor([1.0, 2.0, 3.0])
    assert pylayer.index_put(x, (rows, cols), v).numpy().tolist() == [
        [0, 3, 0], [0, 0, 2], [0, 0, 0]]
    assert pylayer.index_put(x, (rows, cols), v, accumulate=True).numpy().tolist() == [
        [0, 4, 0], [0, 0, 2], [0, 0, 0]]
    # a value broadcasts; one index tensor selects whole rows; bool masks; lists of indices
    assert pylayer.index_put(x, (ints([0, 1]), ints([1, 2])), pylayer.to_tensor(5.0)).numpy(
        ).tolist() == [[0, 5, 0], [0, 0, 5], [0, 0, 0]]
    assert pylayer.index_put(x, (ints([0, 2]),), pylayer.to_tensor([[1.0, 2, 3], [4, 5, 6]])
                             ).numpy().tolist() == [[1, 2, 3], [0, 0, 0], [4, 5, 6]]
    assert pylayer.index_put(x, (pylayer.to_tensor([True, False, True]),),
                             pylayer.to_tensor([7.0])).numpy().tolist() == [
        [7, 7, 7], [0, 0, 0], [7, 7, 7]]
    assert pylayer.index_put(x, (pylayer.eye(3).astype("bool"),),
                             pylayer.to_tensor([7.0, 8, 9])).numpy().tolist() == [
        [7, 0, 0], [0, 8, 0], [0, 0, 9]]
    assert pylayer.index_put(x, [ints([[0], [1]]), ints([1, 2])], pylayer.to_tensor([1.0, 2])
                             ).numpy().tolist() == [[0, 1, 2], [0, 1, 2], [0, 0, 0]]
    assert pylayer.index_put(x, (ints([-1], "int32"), ints([0])), pylayer.to_tensor([1.0])
                             ).numpy().tolist()[2] == [1, 0, 0]


def test_index_put_gradients():
    # Paddle 3.3.1 gives the overwritten value 1.0 at [0, 1] the gradient too ([1, 5, 1]);
    # pylayer gives it zero (guide). Accumulated, every value gets its position's.
    x, v = leaf([[0.0] * 3] * 3), leaf([1.0, 2.0, 3.0])
    index = (ints([0, 1, 0]), ints([1, 2, 1]))
    gx, gv = grads(pylayer.index_put(x, index, v), x, v)
    assert gx == [[0, 0, 2], [3, 4, 0], [6, 7, 8]] and gv == [0.0, 5.0, 1.0]
    gx, gv = grads(pylayer.index_put(x, index, v, accumulate=True), x, v)
    assert gx == [[0, 1, 2], [3, 4, 5], [6, 7, 8]] and gv == [1.0, 5.0, 1.0]
    one = leaf([5.0])   # broadcast: the gradients of its positions add up (Paddle 3.3.1: 6)
    (g,) = grads(pylayer.index_put(pylayer.zeros([3, 3]), (ints([0, 1]), ints([1, 2])), one), one)
    assert g == [6.0]
    check_grads(lambda x, v: pylayer.index_put(x, index, v), (3, 3), (3,))


@pytest.mark.parametrize("indices,value,error", [
    # Paddle 3.3.1 silently writes nothing for [3, 0], and writes [0, 0] for three
    # indices into a 2-D x: both refused here (guide).
    ((ints([3]), ints([0])), [1.0], IndexError),
    ((ints([0]), ints([0]), ints([0])), [1.0], IndexError),
    ((pylayer.to_tensor([0.0]),), [1.0], TypeError),
    ((ints([0, 1]), ints([0, 1])), [1.0, 2.0, 3.0], ValueError),
    ((ints([0, 1]), ints([0, 1, 2])), [1.0], ValueError),
    ((pylayer.to_tensor([True, False]),), [1.0], IndexError),   # a mask of the wrong size
    ((pylayer.to_tensor(True),), [1.0], IndexError),            # a 0-d mask
    (ints([0]), [1.0], TypeError),                              # not a tuple or list
])
def test_index_put_refusals(indices, value, error):
    x = pylayer.zeros([3, 3])
    with pytest.raises(error, match="index_put"):
        pylayer.index_put(x, indices, pylayer.to_tensor(value))
    assert x.numpy().tolist() == [[0.0] * 3] * 3


def test_index_put_refuses_a_value_of_another_dtype():
    with pytest.raises(TypeError, match="index_put\\(\\): argument 'value'.*float32"):
        pylayer.index_put(pylayer.zeros([3, 3]), (ints([0]),), ints([1]))


# ------------------------------------------------------------- masked_select
def test_masked_select_results_recorded_from_paddle():
    x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert pylayer.masked_select(x, x > 1.5).numpy().tolist() == [2.0, 3.0, 4.0]
    assert pylayer.masked_select(x, pylayer.to_tensor([True, False])).numpy().tolist() == [
        1.0, 3.0]
    assert pylayer.masked_select(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor(
        [[True, False], [True, True]])).numpy().tolist() == [1.0, 1.0, 2.0]
    assert pylayer.masked_select(x, x > 10).shape == [0]
    assert pylayer.masked_select(pylayer.to_tensor(3.0), pylayer.to_tensor(True)).shape == [1]


def test_masked_select_gradient_sums_over_broadcasting():
    # Paddle 3.3.1: [12, 11] for x [1, 2] selected through a [2, 2] mask as [x0, x0, x1].
    x = leaf([1.0, 2.0])
    out = pylayer.masked_select(x, pylayer.to_tensor([[True, False], [True, True]]))
    (out * pylayer.to_tensor([5.0, 7.0, 11.0])).sum().backward()
    assert x.grad.numpy().tolist() == [12.0, 11.0]


def test_masked_select_refusals():
    x = pylayer.ones([2, 2])
    with pytest.raises(TypeError, match="masked_select\\(\\): argument 'mask'.*bool"):
        pylayer.masked_select(x, ints([[1, 0], [0, 1]]))
    with pytest.raises(ValueError, match="masked_select.*broadcast"):
        pylayer.masked_select(x, pylayer.to_tensor([True, False, True]))


# ------------------------------------------------------------------ nonzero
def test_nonzero_results_recorded_from_paddle():
    x = pylayer.to_tensor([[1.0, 0.0], [0.0, 3.0]])
    out = pylayer.nonzero(x)
    assert out.numpy().tolist() == [[0, 0], [1, 1]] and out.dtype == pylayer.int64
    assert out.stop_gradient
    rows, cols = pylayer.nonzero(x, as_tuple=True)
    assert rows.numpy().tolist() == [0, 1] and cols.dtype == pylayer.int64
    assert pylayer.nonzero(pylayer.zeros([2, 3])).shape == [0, 2]
    assert pylayer.nonzero(pylayer.to_tensor([np.nan, 0.0])).numpy().tolist() == [[0]]
    assert [t.numpy().tolist() for t in pylayer.nonzero(ints([0, 1, 1]), as_tuple=True)] == [
        [1, 2]]


def test_nonzero_refuses_a_0d_tensor():
    # Paddle 3.3.1: ValueError (the condition must have at least one dimension).
    with pytest.raises(ValueError, match="nonzero\\(\\): argument 'x'.*0-d"):
        pylayer.nonzero(pylayer.to_tensor(3.0))


@pytest.mark.parametrize("call", [lambda x: pylayer.nonzero(x),
                                  lambda x: pylayer.masked_select(x, x > 0),
                                  lambda x: pylayer.bincount(pylayer.cast(x, "int64"))])
def test_value_dependent_shapes_are_refused_in_a_static_program(call):
    # Paddle 3.3.1 records them with a -1 size (bincount's size is x.max() + 1); pylayer's Program infers sizes from
    # stand-in values, which would be wrong here, so it refuses by name.
    main, startup = pylayer.static.Program(), pylayer.static.Program()
    pylayer.enable_static()
    try:
        with pylayer.static.program_guard(main, startup):
            x = pylayer.static.data("x", [3, 4], "float32")
            with pytest.raises(TypeError, match="static Program"):
                call(x)
    finally:
        pylayer.disable_static()


# ----------------------------------------------------------------- bincount
def test_bincount_results_and_dtypes_recorded_from_paddle():
    x = ints([1, 1, 3])
    out = pylayer.bincount(x)
    assert out.numpy().tolist() == [0, 2, 0, 1] and out.dtype == pylayer.int64
    assert pylayer.bincount(ints([1, 1, 3], "int32")).dtype == pylayer.int64
    assert pylayer.bincount(x, minlength=6).numpy().tolist() == [0, 2, 0, 1, 0, 0]
    assert pylayer.bincount(x, minlength=2).shape == [4]
    assert pylayer.bincount(x, minlength=ints(5)).shape == [5]
    assert pylayer.bincount(ints([], "int64"), minlength=3).numpy().tolist() == [0, 0, 0]
    weighted = pylayer.bincount(x, weights=pylayer.to_tensor([0.5, 1.0, 2.0]))
    assert weighted.numpy().tolist() == [0.0, 1.5, 0.0, 2.0] and weighted.dtype == pylayer.float32
    assert pylayer.bincount(x, weights=pylayer.to_tensor([0.5, 1, 2], "float64")).dtype == \
        pylayer.float64
    as_int = pylayer.bincount(x, weights=ints([1, 2, 3], "int32"))   # int weights: float64
    assert as_int.numpy().tolist() == [0.0, 3.0, 0.0, 3.0] and as_int.dtype == pylayer.float64


def test_bincount_gradient_reaches_float_weights():
    # Paddle 3.3.1 stops the gradient (the result has stop_gradient=True); the weighted
    # count is a sum of the weights, and pylayer differentiates it (guide).
    w = leaf([0.5, 1.0, 2.0])
    (g,) = grads(pylayer.bincount(ints([1, 1, 3]), weights=w), w)
    assert g == [1.0, 1.0, 3.0]


@pytest.mark.parametrize("kwargs,error,words", [
    ({"x": ints([1, -1])}, ValueError, "non-negative"),
    ({"x": pylayer.to_tensor([1.0])}, TypeError, "int32 or int64"),
    ({"x": ints([[1]])}, ValueError, "1-D"),
    ({"x": ints([1]), "minlength": -1}, ValueError, "'minlength'"),
    ({"x": ints([1, 2]), "weights": pylayer.to_tensor([1.0])}, ValueError, "'weights'"),
    ({"x": ints([1]), "weights": pylayer.to_tensor([True])}, TypeError, "'weights'"),
])
def test_bincount_refusals(kwargs, error, words):
    with pytest.raises(error, match="bincount\\(\\): .*" + words):
        pylayer.bincount(**kwargs)


# ---------------------------------------------------------------- histogram
@pytest.mark.parametrize("data,kwargs,expected", [
    ([1.0, 2, 1, 4], {"bins": 4, "min": 0, "max": 4}, [0, 2, 1, 1]),
    ([1.0, 2, 1, 4], {"bins": 3}, [2, 1, 1]),                      # the data's range
    ([-1.0, 2, 1, 5], {"bins": 4, "min": 0, "max": 4}, [0, 1, 1, 0]),  # outside: not counted
    ([0.0, 1.0, 2.0], {"bins": 2, "min": 0, "max": 2}, [1, 2]),     # the last bin holds max
    ([1.0, np.nan], {"bins": 2, "min": 0, "max": 2}, [0, 1]),
    # min == max (not only 0 == 0) takes the data's range, widened by 1 if it is a point
    ([0.6], {"bins": 4, "min": 1, "max": 1}, [0, 0, 1, 0]),
    ([3, 3], {"bins": 4}, [0, 0, 2, 0]),
    ([-1.0, 2, 3], {"bins": 3, "min": 0.5, "max": 0.5}, [1, 0, 2]),
    ([[1.0, 2], [1, 4]], {"bins": 4, "min": 0, "max": 4}, [0, 2, 1, 1]),
])
def test_histogram_counts_recorded_from_paddle(data, kwargs, expected):
    out = pylayer.histogram(pylayer.to_tensor(data), **kwargs)
    assert out.numpy().tolist() == expected and out.dtype == pylayer.int64


def test_histogram_weights_and_density_are_float32_as_in_paddle():
    x = pylayer.to_tensor([1.0, 2, 1, 4])
    weighted = pylayer.histogram(x, bins=4, min=0, max=4, weight=pylayer.to_tensor([1.0, 2, 3, 4]))
    assert weighted.numpy().tolist() == [0.0, 4.0, 2.0, 4.0] and weighted.dtype == pylayer.float32
    density = pylayer.histogram(x, bins=4, min=0, max=4, density=True)
    assert density.numpy().tolist() == [0.0, 0.5, 0.25, 0.25]
    both = pylayer.histogram(x, bins=4, min=0, max=4, weight=pylayer.to_tensor([1.0, 2, 3, 4]),
                             density=True)
    np.testing.assert_allclose(both.numpy(), [0.0, 0.4, 0.2, 0.4], rtol=1e-6)
    f64 = pylayer.to_tensor([1.0, 2.0], "float64")
    assert pylayer.histogram(f64, bins=2, min=0, max=4, weight=f64).dtype == pylayer.float32
    assert pylayer.histogram(f64, bins=2, min=0, max=4, density=True).dtype == pylayer.float32


def test_histogram_of_nothing_is_int64_zeros():
    # Paddle 3.3.1 gives float32 zeros for an empty float input (int64 for an empty int
    # one); pylayer keeps the counts' dtype (guide).
    out = pylayer.histogram(pylayer.to_tensor([], "float32"), bins=2, min=0, max=1)
    assert out.numpy().tolist() == [0, 0] and out.dtype == pylayer.int64


def test_histogram_takes_no_gradient():
    assert pylayer.histogram(leaf([1.0, 2.0]), bins=2).stop_gradient


@pytest.mark.parametrize("kwargs,error,words", [
    ({"min": 3, "max": 1}, ValueError, r"'max' \(1.0\) must be at least 'min' \(3.0\)"),
    ({"bins": 0}, ValueError, "'bins'"),
    ({"bins": 2.5}, TypeError, "'bins'"),
    ({"weight": pylayer.to_tensor([1, 2])}, TypeError, "'weight'"),
    ({"weight": pylayer.to_tensor([1.0])}, ValueError, "'weight'"),
])
def test_histogram_refusals(kwargs, error, words):
    with pytest.raises(error, match="histogram\\(\\): .*" + words):
        pylayer.histogram(pylayer.to_tensor([1.0, 2.0]), **kwargs)


def test_histogram_refuses_an_infinite_data_range_and_bool_input():
    # Paddle 3.3.1: ValueError for the first, no kernel for bool.
    with pytest.raises(ValueError, match="histogram.*not finite"):
        pylayer.histogram(pylayer.to_tensor([1.0, np.inf]), bins=2)
    with pytest.raises(TypeError, match="histogram\\(\\): argument 'input'"):
        pylayer.histogram(pylayer.to_tensor([True]), bins=2)
