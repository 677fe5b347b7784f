"""Tensor indexing: getitem (basic and advanced, differentiable) and in-place setitem."""
import numpy as np
import pytest

import pylayer
from pylayer._core.tensor import make_tensor
from pylayer.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(1)


def leaf(shape, dtype="float64"):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype=dtype, stop_gradient=False)


def check_grads(fn, *inputs):
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


BASIC = [
    (1,), (-1,), (slice(1, 3),), (slice(None, None, -1),), (slice(3, 0, -2),),
    (None,), (Ellipsis, 1), (1, None, slice(None), -2), (slice(None), Ellipsis, slice(1, None, 2)),
    (slice(5, 9),),  # empty
]


@pytest.mark.parametrize("index", BASIC, ids=repr)
def test_basic_indexing(index):
    x = leaf([4, 3, 5])
    out = x[index]
    np.testing.assert_array_equal(out.numpy(), x.numpy()[index])
    check_grads(lambda t: t[index], x)


ADVANCED = [
    ([0, 2, 2],),
    (np.array([[1, 0], [3, 3]]),),
    (slice(None), [2, 0, 2]),
    ([1, 1], slice(None), [0, 4]),
    (Ellipsis, np.array([4, 4, 4])),
    (None, [0, 3], 1),
]


@pytest.mark.parametrize("index", ADVANCED, ids=repr)
def test_advanced_indexing(index):
    x = leaf([4, 3, 5])
    out = x[index]
    np.testing.assert_array_equal(out.numpy(), x.numpy()[index])
    check_grads(lambda t: t[index], x)


def test_repeated_indices_add_up():
    x = pylayer.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    x[pylayer.to_tensor([2, 0, 2, 2])].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 0.0, 3.0])


def test_tensor_index_and_bool_mask():
    x = leaf([3, 4])
    mask = x.numpy() > 0
    out = x[pylayer.to_tensor(mask)]
    np.testing.assert_array_equal(out.numpy(), x.numpy()[mask])
    check_grads(lambda t: t[pylayer.to_tensor(mask)], x)
    rows = pylayer.to_tensor([True, False, True])
    np.testing.assert_array_equal(x[rows].numpy(), x.numpy()[[0, 2]])
    check_grads(lambda t: t[rows, 1:], x)
    out = x[pylayer.to_tensor([2, 0])]
    np.testing.assert_array_equal(out.numpy(), x.numpy()[[2, 0]])


def test_0d_tensor():
    x = leaf([])
    check_grads(lambda t: t[None], x)
    check_grads(lambda t: t[...], x)
    assert x[...].shape == []
    y = leaf([3])
    out = y[1]
    assert out.shape == [] and isinstance(out.numpy(), np.ndarray)
    check_grads(lambda t: t[pylayer.to_tensor(2)], y)


def test_empty_results_and_empty_input():
    x = leaf([3, 2])
    assert x[[]].shape == [0, 2]
    (x[[]].sum() + x.sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones([3, 2]))
    e = leaf([0, 2])
    assert e[:, 1].shape == [0]
    e[:, 1].sum().backward()
    assert e.grad.shape == [0, 2]


def test_non_contiguous_and_float32():
    base = RNG.standard_normal([6, 4]).astype(np.float32)
    x = make_tensor(base[::2, ::-1], stop_gradient=False)
    out = x[1:, [0, 0]]
    np.testing.assert_array_equal(out.numpy(), base[::2, ::-1][1:, [0, 0]])
    out.sum().backward()
    assert x.grad.dtype == "float32"
    np.testing.assert_array_equal(x.grad.numpy()[:, 0], [0, 2, 2])


def test_getitem_errors():
    x = pylayer.zeros([2, 3])
    with pytest.raises(IndexError, match="getitem"):
        x[5]
    with pytest.raises(IndexError, match="integers or booleans"):
        x[pylayer.to_tensor([0.5])]
    with pytest.raises(IndexError, match="getitem"):
        x["a"]


def test_int_tensor_index_result_has_no_graph():
    x = pylayer.to_tensor([1, 2, 3])
    assert x[1:].stop_gradient
    np.testing.assert_array_equal(x[::-1].numpy(), [3, 2, 1])


# ---------------------------------------------------------------- setitem
def test_setitem_without_graph_writes_and_bumps_version():
    x = pylayer.zeros([2, 3])
    x[0, 1:] = 4.0
    assert x.inplace_version == 1
    x[pylayer.to_tensor([1, 1])] = pylayer.to_tensor([1.0, 2.0, 3.0])
    assert x.inplace_version == 2
    np.testing.assert_array_equal(x.numpy(), [[0, 4, 4], [1, 2, 3]])
    x[x.numpy() > 3] = 0
    np.testing.assert_array_equal(x.numpy(), [[0, 0, 0], [1, 2, 3]])


def test_setitem_read_only_array_is_copied():
    a = np.zeros(3)
    a.flags.writeable = False
    x = make_tensor(a)
    x[0] = 1.0
    np.testing.assert_array_equal(x.numpy(), [1.0, 0.0, 0.0])
    assert a[0] == 0.0


def test_setitem_refuses_leaf_needing_grad():
    x = pylayer.ones([3])
    x.stop_gradient = False
    with pytest.raises(ValueError, match="leaf"):
        x[0] = 2.0
    np.testing.assert_array_equal(x.numpy(), [1.0, 1.0, 1.0])
    assert x.inplace_version == 0
    with pylayer.no_grad():
        x[0] = 2.0
    np.testing.assert_array_equal(x.numpy(), [2.0, 1.0, 1.0])
    assert x.inplace_version == 1 and x.is_leaf


def test_setitem_gradients_for_old_value_and_value():
    a = leaf([3, 4])
    v = leaf([4])
    y = a * 1.0
    y[1] = v
    assert y.grad_fn.name() == "SetValueGradNode"
    assert y.inplace_version == 1
    (y * y).sum().backward()
    expected = 2 * a.numpy()
    expected[1] = 0
    np.testing.assert_allclose(a.grad.numpy(), expected)
    np.testing.assert_allclose(v.grad.numpy(), 2 * v.numpy())


def write(t, v, index):
    y = t * 1.0
    y[index] = v
    return y * y


@pytest.mark.parametrize("index,vshape", [((1,), [4]), ((slice(None), 2), [1]),
                                          (([0, 2], slice(1, 3)), [2]),
                                          ((slice(None, None, -2),), [1, 4]),
                                          ((Ellipsis, 0), [1, 3])])
def test_setitem_gradcheck(index, vshape):
    x = leaf([3, 4])
    v = leaf(vshape)
    check_grads(lambda t, u: write(t, u, index), x, v)


def test_setitem_value_with_extra_leading_dims():
    x = leaf([3])
    v = leaf([1, 3])
    check_grads(lambda t, u: write(t, u, slice(None)), x, v)


def test_setitem_value_only_needs_grad():
    x = pylayer.zeros([3], dtype="float64")
    v = pylayer.to_tensor(2.0, dtype="float64", stop_gradient=False)
    x[1:] = v
    assert not x.stop_gradient and not x.is_leaf
    x.sum().backward()
    assert v.grad.item() == 2.0


def test_setitem_value_gradient_cast_to_its_dtype():
    x = leaf([3], "float64")
    v = pylayer.to_tensor([1.0], dtype="float32", stop_gradient=False)
    y = x * 1.0
    y[0:1] = v
    y.sum().backward()
    assert v.grad.dtype == "float32" and v.grad.numpy()[0] == 1.0


def test_setitem_after_save_breaks_backward():
    x = leaf([3])
    y = pylayer.tanh(x)  # saves its output y
    y[0] = 0.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_setitem_errors():
    x = pylayer.zeros([2, 3])
    with pytest.raises(ValueError, match="setitem"):
        x[0] = pylayer.ones([4])
    with pytest.raises(IndexError, match="setitem"):
        x[3] = 1.0
    with pytest.raises(TypeError, match="setitem"):
        x[0] = "a"
    assert x.inplace_version == 0
