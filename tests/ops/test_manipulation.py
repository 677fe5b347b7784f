"""Manipulation ops, beyond what the op database checks for every op
(tests/ops/opinfo.py): special sizes, partial gradients, node names and errors,
with backward and double backward by central differences."""
import numpy as np
import pytest

import pylayer
from pylayer._core.tensor import make_tensor
from pylayer.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(0)


def leaf(shape, dtype="float64"):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype=dtype, stop_gradient=False)


def check_grads(fn, *inputs):
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def first(outputs):
    """The outputs of a list, weighted and joined, so every output's gradient matters."""
    return pylayer.concat([pylayer.flatten(o * float(i + 1)) for i, o in enumerate(outputs)])


# ----------------------------------------------------------------- flatten
@pytest.mark.parametrize("start,stop,shape", [(0, -1, [24]), (1, 2, [2, 12]), (1, 1, [2, 3, 4]),
                                              (-2, -1, [2, 12])])
def test_flatten_forward_and_grads(start, stop, shape):
    x = leaf([2, 3, 4])
    out = pylayer.flatten(x, start, stop)
    assert out.shape == shape
    np.testing.assert_array_equal(out.numpy(), x.numpy().reshape(shape))
    assert out.grad_fn.name() == "FlattenGradNode"
    check_grads(lambda t: pylayer.flatten(t, start, stop), x)


def test_flatten_0d_and_empty():
    assert pylayer.flatten(pylayer.to_tensor(3.0)).shape == [1]
    x = leaf([2, 0, 3])
    out = pylayer.flatten(x, 1)
    assert out.shape == [2, 0]
    out.sum().backward()
    assert x.grad.shape == [2, 0, 3]


def test_flatten_rejects_reversed_axes():
    with pytest.raises(ValueError, match="flatten"):
        pylayer.flatten(pylayer.zeros([2, 3]), 1, 0)


# ---------------------------------------------------------------- squeeze
def test_squeeze_all_and_listed():
    x = leaf([1, 3, 1, 2])
    assert pylayer.squeeze(x).shape == [3, 2]
    assert pylayer.squeeze(x, axis=[0, -2]).shape == [3, 2]
    assert pylayer.squeeze(x, axis=1).shape == [1, 3, 1, 2]  # size 3: left alone
    check_grads(lambda t: pylayer.squeeze(t, 2), x)


def test_squeeze_axis_out_of_range():
    with pytest.raises(ValueError, match="squeeze"):
        pylayer.squeeze(pylayer.zeros([1, 2]), axis=5)


def test_unsqueeze_sequential_insertion():
    x = leaf([5, 10])
    assert pylayer.unsqueeze(x, [0, 2]).shape == [1, 5, 1, 10]
    assert pylayer.unsqueeze(x, -1).shape == [5, 10, 1]
    assert pylayer.unsqueeze(pylayer.to_tensor(1.0), 0).shape == [1]
    assert pylayer.unsqueeze(x, pylayer.to_tensor([1])).shape == [5, 1, 10]
    check_grads(lambda t: pylayer.unsqueeze(t, [0, -1]), x)


def test_unsqueeze_empty_backward():
    x = leaf([0, 2])
    y = pylayer.unsqueeze(x, 0)
    assert y.shape == [1, 0, 2]
    y.sum().backward()
    assert x.grad.shape == [0, 2]


def test_unsqueeze_rejects_bad_axis():
    with pytest.raises(ValueError, match="unsqueeze"):
        pylayer.unsqueeze(pylayer.zeros([2]), 3)
    with pytest.raises(TypeError, match="unsqueeze"):
        pylayer.unsqueeze(pylayer.zeros([2]), 1.5)


# ---------------------------------------------------------- concat / stack
def test_concat_forward_and_grads():
    a, b, c = leaf([2, 3]), leaf([1, 3]), leaf([4, 3])
    out = pylayer.concat([a, b, c])
    np.testing.assert_array_equal(out.numpy(), np.concatenate([a.numpy(), b.numpy(), c.numpy()]))
    check_grads(lambda x, y, z: pylayer.concat([x, y, z], axis=0) * 2.0, a, b, c)
    d = leaf([2, 2])
    check_grads(lambda x, y: pylayer.concat([x, y], axis=-1), a, d)


def test_concat_partial_grad_and_tensor_axis():
    a = leaf([2, 2])
    b = pylayer.ones([2, 2], dtype="float64")
    out = pylayer.concat([b, a], axis=pylayer.to_tensor(1))
    out.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.ones([2, 2]))
    assert b.grad is None


def test_concat_errors():
    with pytest.raises(ValueError, match="concat"):
        pylayer.concat([pylayer.zeros([2, 3]), pylayer.zeros([2, 2])])
    with pytest.raises(TypeError, match="dtype"):
        pylayer.concat([pylayer.zeros([2]), pylayer.zeros([2], dtype="float64")])
    with pytest.raises(ValueError, match="at least one"):
        pylayer.concat([])
    with pytest.raises(TypeError, match="list or tuple"):
        pylayer.concat(pylayer.zeros([2]))


def test_stack_0d_and_shape_error():
    s = pylayer.stack([pylayer.to_tensor(1.0), pylayer.to_tensor(2.0)])
    np.testing.assert_array_equal(s.numpy(), np.array([1.0, 2.0], np.float32))
    x = leaf([])
    check_grads(lambda t: pylayer.stack([t, t * 3.0]), x)
    with pytest.raises(ValueError, match="same shape"):
        pylayer.stack([pylayer.zeros([2]), pylayer.zeros([3])])


def test_unstack_forward_and_grads():
    x = leaf([2, 3])
    parts = pylayer.unstack(x, axis=1)
    assert len(parts) == 3 and parts[0].shape == [2]
    np.testing.assert_array_equal(parts[2].numpy(), x.numpy()[:, 2])
    check_grads(lambda t: first(pylayer.unstack(t, axis=1)), x)
    check_grads(lambda t: pylayer.unstack(t)[1], x)  # the unused output counts as zeros


# ----------------------------------------------------------- split / chunk
def test_split_equal_and_sections():
    x = leaf([6, 4])
    parts = pylayer.split(x, 3)
    assert [p.shape for p in parts] == [[2, 4]] * 3
    parts = pylayer.split(x, [1, -1, 2], axis=0)
    assert [p.shape for p in parts] == [[1, 4], [3, 4], [2, 4]]
    np.testing.assert_array_equal(parts[1].numpy(), x.numpy()[1:4])
    assert [p.shape for p in pylayer.split(x, pylayer.to_tensor([1, 3]), axis=1)] == [[6, 1], [6, 3]]
    check_grads(lambda t: first(pylayer.split(t, [1, -1, 2])), x)
    check_grads(lambda t: pylayer.split(t, 2, axis=-1)[0], x)


def test_split_errors():
    with pytest.raises(ValueError, match="divided"):
        pylayer.split(pylayer.zeros([5]), 2)
    with pytest.raises(ValueError, match="add up"):
        pylayer.split(pylayer.zeros([5]), [2, 2])
    with pytest.raises(ValueError, match="at most one -1"):
        pylayer.split(pylayer.zeros([5]), [-1, -1])


def test_split_with_empty_section():
    x = leaf([3])
    parts = pylayer.split(x, [0, 3])
    assert parts[0].shape == [0]
    check_grads(lambda t: first(pylayer.split(t, [0, 3])), x)


def test_chunk():
    x = leaf([2, 6])
    parts = pylayer.chunk(x, 3, axis=1)
    assert [p.shape for p in parts] == [[2, 2]] * 3
    np.testing.assert_array_equal(parts[2].numpy(), x.numpy()[:, 4:])
    check_grads(lambda t: first(pylayer.chunk(t, 2, axis=-1)), x)
    with pytest.raises(ValueError, match="chunk"):
        pylayer.chunk(x, 4, axis=1)


# ------------------------------------------------------------------- tile
def test_tile_int_and_errors():
    np.testing.assert_array_equal(pylayer.tile(pylayer.to_tensor([[1, 2]]), (2, 2)).numpy(),
                                  np.tile([[1, 2]], (2, 2)))
    with pytest.raises(ValueError, match="non-negative"):
        pylayer.tile(pylayer.zeros([2]), [-1])


# --------------------------------------------------------- gather / select
def test_gather_repeated_indices():
    x = leaf([4, 3])
    idx = pylayer.to_tensor([3, 0, 3, 3])
    out = pylayer.gather(x, idx)
    np.testing.assert_array_equal(out.numpy(), x.numpy()[[3, 0, 3, 3]])
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy()[:, 0], [1.0, 0.0, 0.0, 3.0])
    check_grads(lambda t: pylayer.square(pylayer.gather(t, idx)), x)
    check_grads(lambda t: pylayer.gather(t, [2, 2, 0], axis=1), x)


def test_gather_0d_index_and_errors():
    x = leaf([4, 3])
    out = pylayer.gather(x, pylayer.to_tensor(2), axis=0)
    assert out.shape == [3]
    check_grads(lambda t: pylayer.gather(t, pylayer.to_tensor(1), axis=1), x)
    with pytest.raises(IndexError, match="outside"):
        pylayer.gather(x, pylayer.to_tensor([4]))
    with pytest.raises(TypeError, match="integers"):
        pylayer.gather(x, pylayer.to_tensor([0.5]))
    with pytest.raises(ValueError, match="rank"):
        pylayer.gather(x, pylayer.to_tensor([[0]]))


def test_index_select():
    x = leaf([2, 5])
    out = pylayer.index_select(x, pylayer.to_tensor([4, 1, 4]), axis=1)
    np.testing.assert_array_equal(out.numpy(), x.numpy()[:, [4, 1, 4]])
    assert out.grad_fn.name() == "IndexSelectGradNode"
    check_grads(lambda t: pylayer.index_select(t, pylayer.to_tensor([4, 1, 4]), axis=-1), x)
    empty = pylayer.index_select(x, pylayer.to_tensor(np.zeros([0], np.int64)), axis=0)
    assert empty.shape == [0, 5]
    check_grads(lambda t: pylayer.index_select(t, [], axis=0).sum() + t.sum(), x)


# ------------------------------------------------------------------ slice
def test_slice_forward_clamping_and_grads():
    x = leaf([4, 5, 6])
    out = pylayer.slice(x, axes=[0, 2], starts=[1, -4], ends=[100, -1])
    np.testing.assert_array_equal(out.numpy(), x.numpy()[1:100, :, -4:-1])
    assert pylayer.slice(x, [1], [4], [2]).shape == [4, 0, 6]
    check_grads(lambda t: pylayer.slice(t, [0, 2], [1, -4], [100, -1]), x)
    starts = pylayer.to_tensor([1])
    np.testing.assert_array_equal(pylayer.slice(x, [1], starts, [3]).numpy(), x.numpy()[:, 1:3])


def test_slice_length_mismatch():
    with pytest.raises(ValueError, match="same length"):
        pylayer.slice(pylayer.zeros([3]), [0], [0, 1], [2])


# ------------------------------------------------------------ flip / roll
def test_flip():
    x = leaf([2, 3, 4])
    np.testing.assert_array_equal(pylayer.flip(x, [0, -1]).numpy(), x.numpy()[::-1, :, ::-1])
    np.testing.assert_array_equal(pylayer.flip(x, 1).numpy(), x.numpy()[:, ::-1])
    check_grads(lambda t: pylayer.flip(t, [0, 2]), x)
    check_grads(lambda t: pylayer.flip(t, 0), leaf([]))


def test_roll_length_mismatch():
    with pytest.raises(ValueError, match="same length"):
        pylayer.roll(pylayer.zeros([2, 2]), [1, 1], 0)


# ----------------------------------------------------- dtypes and layouts
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float32_and_float64_gradients_keep_dtype(dtype):
    x = leaf([2, 4], dtype)
    parts = pylayer.split(pylayer.tile(pylayer.flip(x, 0), [1, 2]), 2, axis=1)
    (parts[0] * parts[1]).sum().backward()
    assert x.grad.dtype == dtype
    a = x.numpy()[::-1].astype(np.float64)
    np.testing.assert_allclose(x.grad.numpy(), 2 * a[::-1], rtol=1e-6)


def test_non_contiguous_input():
    base = RNG.standard_normal([4, 6])
    x = make_tensor(base[:, ::2], stop_gradient=False)
    assert not x.numpy().flags.c_contiguous
    np.testing.assert_array_equal(pylayer.flatten(x).numpy(), base[:, ::2].reshape(-1))
    check_grads(lambda t: pylayer.concat([pylayer.roll(t, 1, 0), t], axis=1), x)


def test_int_tensors_have_no_graph():
    x = pylayer.to_tensor([[1, 2], [3, 4]])
    out = pylayer.concat([x, x])
    assert out.stop_gradient and out.dtype == "int64"


def test_methods_on_tensor():
    x = pylayer.zeros([1, 2, 3])
    assert x.squeeze().shape == [2, 3]
    assert x.flatten().shape == [6]
    assert len(x.split(3, axis=2)) == 3
