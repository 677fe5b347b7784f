"""take_along_axis, put_along_axis(_), expand_as, masked_fill, Tensor.set_ and
setitem's size-1 rule: Paddle 3.3.1's outcomes, numpy, and gradients."""
import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(1)


def leaf(*shape):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype="float64", stop_gradient=False)


def check_grads(fn, *inputs):
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def grid():
    return pylayer.arange(12, dtype="float32").reshape([3, 4])


def ints(data):
    return pylayer.to_tensor(data)


# ---------------------------------------------------------- take_along_axis
def test_take_along_axis_results_recorded_from_paddle():
    x = grid()
    assert pylayer.take_along_axis(x, ints([[0], [2], [1]]), 1).numpy().tolist() == [
        [0.0], [6.0], [9.0]]
    assert pylayer.take_along_axis(x, ints([[0, 1]]), 0, broadcast=False).numpy().tolist() == [
        [0.0, 5.0]]
    assert pylayer.take_along_axis(x, ints([[-1]]), 1).numpy().tolist() == [[3.0], [7.0], [11.0]]
    # arr broadcasts to the indices off the axis, too
    assert pylayer.take_along_axis(x[:1], ints([[0], [1], [2]]), 1).numpy().tolist() == [
        [0.0], [1.0], [2.0]]


@pytest.mark.parametrize("index,axis,error", [([[0, 1]], 0, ValueError), ([0, 1], 0, ValueError),
                                              ([[5]], 1, IndexError), ([[0.5]], 1, TypeError)])
def test_take_along_axis_refusals_as_paddle(index, axis, error):
    with pytest.raises(error, match="take_along_axis"):
        pylayer.take_along_axis(grid(), pylayer.to_tensor(index), axis)


def test_take_along_axis_is_a_tensor_method():
    assert grid().take_along_axis(ints([[1]]), 1).numpy().tolist() == [[1.0], [5.0], [9.0]]


# ----------------------------------------------------------- put_along_axis
def test_put_along_axis_results_recorded_from_paddle():
    x = grid()
    idx = ints([[0], [2], [1]])
    assert pylayer.put_along_axis(x, idx, 99.0, 1).numpy().tolist() == [
        [99.0, 1.0, 2.0, 3.0], [4.0, 5.0, 99.0, 7.0], [8.0, 99.0, 10.0, 11.0]]
    twice = ints([[0, 0]])
    pair = pylayer.to_tensor([[1.0, 2.0]])
    assert pylayer.put_along_axis(x, twice, pair, 1, reduce="add").numpy()[:, 0].tolist() == [
        3.0, 7.0, 11.0]
    assert pylayer.put_along_axis(x, twice, pair, 1).numpy()[:, 0].tolist() == [2.0, 2.0, 2.0]
    assert pylayer.put_along_axis(x, twice, pair, 1, reduce="add",
                                  include_self=False).numpy()[:, 0].tolist() == [3.0, 3.0, 3.0]
    assert pylayer.put_along_axis(x, ints([[0, 1]]), 5.0, 1,
                                  broadcast=False).numpy()[0].tolist() == [5.0, 5.0, 2.0, 3.0]
    assert pylayer.put_along_axis(x, ints([[0, 1]]), pylayer.to_tensor([[1.0, 2.0, 3.0]]), 1,
                                  broadcast=False).numpy()[:2].tolist() == [
        [1.0, 2.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]
    assert x.numpy().tolist() == grid().numpy().tolist()  # not changed


def test_put_along_axis_in_place_method():
    x = grid()
    returned = x.put_along_axis_(ints([[0], [2], [1]]), 1.0, 1, reduce="add")
    assert returned is x and x.inplace_version == 1
    assert x.numpy().tolist() == [[1.0, 1.0, 2.0, 3.0], [4.0, 5.0, 7.0, 7.0],
                                  [8.0, 10.0, 10.0, 11.0]]


@pytest.mark.parametrize("reduce,include_self", [("add", True), ("add", False),
                                                 ("assign", True)])
def test_put_along_axis_grads_with_repeated_indices(reduce, include_self):
    x, values = leaf(3, 4), leaf(3, 3)
    idx = ints([[0, 0, 2], [1, 3, 1], [2, 2, 2]])
    fn = lambda a, v: pylayer.put_along_axis(a, idx, v, 1, reduce=reduce,  # noqa: E731
                                             include_self=include_self)
    want = x.numpy().copy()
    rows = np.arange(3)[:, None].repeat(3, 1)
    if reduce == "add":
        if not include_self:
            want[rows, idx.numpy()] = 0
        np.add.at(want, (rows, idx.numpy()), values.numpy())
    else:
        for i in range(3):
            for j in range(3):  # in C order: the last write wins
                want[i, idx.numpy()[i, j]] = values.numpy()[i, j]
    np.testing.assert_allclose(fn(x, values).numpy(), want)
    check_grads(fn, x, values)


def test_put_along_axis_values_broadcast_and_are_summed_back():
    x, values = leaf(3, 4), leaf(1, 2)
    check_grads(lambda a, v: pylayer.put_along_axis(a, ints([[0, 3]]), v, 1, reduce="add"),
                x, values)


def test_put_along_axis_refusals():
    with pytest.raises(ValueError, match="put_along_axis.*'reduce'"):
        pylayer.put_along_axis(grid(), ints([[0]]), 1.0, 1, reduce="median")
    with pytest.raises(ValueError, match="put_along_axis.*indices"):
        pylayer.put_along_axis(grid(), ints([[0], [1]]), 5.0, 1)
    with pytest.raises(ValueError, match="put_along_axis.*'values'"):
        pylayer.put_along_axis(grid(), ints([[0, 1]]), pylayer.ones([3]), 1)
    with pytest.raises(IndexError, match="put_along_axis"):
        pylayer.put_along_axis(grid(), ints([[4]]), 1.0, 1)


# ---------------------------------------------------------------- expand_as
def test_expand_as_forward_grads_and_errors():
    x = leaf(1, 3)
    y = pylayer.zeros([2, 4, 3])
    assert pylayer.expand_as(x, y).shape == [2, 4, 3]
    np.testing.assert_array_equal(x.expand_as(y).numpy(), np.broadcast_to(x.numpy(), [2, 4, 3]))
    check_grads(lambda t: pylayer.expand_as(t, y), x)
    with pytest.raises(ValueError, match="expand_as"):
        pylayer.expand_as(pylayer.ones([2, 4]), pylayer.ones([3, 4]))


# -------------------------------------------------------------- masked_fill
def test_masked_fill_results_recorded_from_paddle():
    x = grid()
    assert pylayer.masked_fill(x, x > 5, -1.0).numpy().tolist() == [
        [0.0, 1.0, 2.0, 3.0], [4.0, 5.0, -1.0, -1.0], [-1.0, -1.0, -1.0, -1.0]]
    row = pylayer.to_tensor([True, False, True, False])
    assert x.masked_fill(row, pylayer.to_tensor(7.0)).numpy()[0].tolist() == [7.0, 1.0, 7.0, 3.0]
    ints_out = pylayer.masked_fill(pylayer.arange(4), row, 2.5)
    assert ints_out.dtype == pylayer.int64 and ints_out.numpy().tolist() == [2, 1, 2, 3]
    assert pylayer.masked_fill(x, ints([1, 0, 1, 0]), 2.5).numpy()[0].tolist() == [
        2.5, 1.0, 2.5, 3.0]


def test_masked_fill_grads_reach_x_and_a_value_tensor():
    x, value = leaf(3, 4), leaf(1)
    mask = pylayer.to_tensor(RNG.random((3, 4)) > 0.5)
    check_grads(lambda a, v: pylayer.masked_fill(a, mask, v), x, value)


def test_masked_fill_in_place_and_errors():
    x = grid()
    x.masked_fill_(x < 2, 0.0)
    assert x.numpy()[0].tolist() == [0.0, 0.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="masked_fill.*'mask'"):
        pylayer.masked_fill(grid(), pylayer.to_tensor([True, False]), 0.0)
    with pytest.raises(TypeError, match="masked_fill.*'mask'"):
        pylayer.masked_fill(grid(), pylayer.ones([4]), 0.0)
    with pytest.raises(ValueError, match="masked_fill.*'value'"):
        pylayer.masked_fill(grid(), grid() > 1, pylayer.ones([2]))


# -------------------------------------------------------------- Tensor.set_
def test_set_takes_the_source_values_shape_and_dtype():
    x = pylayer.to_tensor([1.0, 2.0, 3.0])
    source = pylayer.to_tensor([[5, 6]])
    assert x.set_(source) is x
    assert x.shape == [1, 2] and x.dtype == pylayer.int64 and x.inplace_version == 1
    source[0, 0] = 9  # a copy: the source's later changes do not show
    assert x.numpy().tolist() == [[5, 6]]
    assert pylayer.ones([3]).set_().shape == [0]


def test_set_with_shape_stride_and_offset_in_elements():
    x = pylayer.zeros([1])
    x.set_(pylayer.arange(6, dtype="float32"), [2, 2], [1, 2], 1)
    assert x.numpy().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    with pytest.raises(ValueError, match="set_.*reach element 7"):
        x.set_(pylayer.arange(6, dtype="float32"), [2, 4])
    with pytest.raises(ValueError, match="set_"):
        x.set_(pylayer.arange(6, dtype="float32"), [2], [-1])


def test_set_passes_gradients_to_the_source_and_refuses_a_leaf():
    source = leaf(4)
    check_grads(lambda s: pylayer.zeros([1]).set_(s * 1.0, [2], [2], 1), source)
    with pytest.raises(ValueError, match="set_"):
        leaf(2).set_(pylayer.ones([2]))


# --------------------------------------------------- setitem size-1 values
def test_setitem_writes_a_shape_1_tensor_into_one_element():
    g = pylayer.zeros([3, 3])
    g[1, 1] = pylayer.to_tensor([5.0])
    assert g.numpy().tolist() == [[0.0, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]
    g[0] = pylayer.to_tensor([[[1.0], [2.0], [3.0]]])
    assert g.numpy()[0].tolist() == [1.0, 2.0, 3.0]


def test_setitem_size_1_value_gets_its_gradient_in_its_own_shape():
    def write(w):
        g = pylayer.zeros([3, 3], dtype="float64")
        for j in range(3):
            g[j, j] = w[j:j + 1] * float(j + 1)
        return g
    w = leaf(3)
    check_grads(write, w)
    check_grads(lambda v: _written(pylayer.zeros([2, 3], dtype="float64"), v), leaf(3, 1))


def _written(target, value):
    target[0] = value
    return target


def test_setitem_refuses_other_shapes_with_a_clear_error():
    g = pylayer.zeros([3, 3])
    with pytest.raises(ValueError, match=r"setitem.*shape \[2\].*\[3\]"):
        g[0] = pylayer.ones([2])
    with pytest.raises(ValueError, match="setitem"):
        g[0, 0] = pylayer.ones([2])
