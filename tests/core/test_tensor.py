"""The Tensor surface: attributes, conversions, repr, operators, dtypes."""
import numpy as np
import pytest

import pylayer as paddle


def test_defaults_and_attributes():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.stop_gradient is True
    assert x.shape == [2, 3] and isinstance(x.shape, list)
    assert x.ndim == 2 and x.size == 6 and len(x) == 2
    assert x.dtype == paddle.float32 and x.dtype == "float32"
    assert "float32" == x.dtype and paddle.float32 == x.dtype
    assert x.dtype != "float64"
    assert repr(x.place) == "Place(cpu)"
    assert x.grad is None and x.is_leaf and x.grad_fn is None
    assert x.inplace_version == 0
    assert isinstance(x.name, str) and x.name == x.name


def test_python_number_defaults_follow_paddle():
    assert paddle.to_tensor(1.5).dtype == paddle.float32
    assert paddle.to_tensor(3).dtype == paddle.int64
    assert paddle.to_tensor(True).dtype == paddle.bool
    assert paddle.to_tensor([1.0, 2.0]).dtype == "float32"
    assert paddle.to_tensor(np.zeros(2)).dtype == paddle.float64
    for maker in (paddle.randn, paddle.ones, paddle.zeros, paddle.rand):
        assert maker([2]).dtype == paddle.float32


@pytest.mark.parametrize("name", ["bool", "uint8", "int32", "int64", "float16", "float32",
                                  "float64"])
def test_dtype_names_and_constants_agree(name):
    t = paddle.zeros([2], dtype=name)
    constant = getattr(paddle, name)
    assert t.dtype == constant and t.dtype == name and constant == name
    assert paddle.cast(t, constant).dtype == name


def test_unsupported_dtype_is_a_type_error():
    with pytest.raises(TypeError,
                       match="zeros\\(\\): argument 'dtype' must be a dtype.*got 'uint32'"):
        paddle.zeros([2], dtype="uint32")


def test_conversions():
    x = paddle.to_tensor([[1, 2], [3, 4]], dtype="float64")
    assert isinstance(x.numpy(), np.ndarray)
    assert x.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert np.asarray(x).dtype == np.float64
    assert paddle.to_tensor(7.0).item() == 7.0
    assert float(paddle.to_tensor([2.5])) == 2.5
    with pytest.raises(ValueError, match="exactly one element"):
        x.item()
    assert bool(paddle.to_tensor([1]))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    with pytest.raises(TypeError, match="0-d"):
        len(paddle.to_tensor(1.0))


def test_to_tensor_copies_and_rejects_bad_data():
    a = np.ones(3)
    t = paddle.to_tensor(a)
    a[0] = 5
    assert t.numpy()[0] == 1
    for bad in ("abc", None, {"a": 1}):
        with pytest.raises(TypeError, match="to_tensor"):
            paddle.to_tensor(bad)
    with pytest.raises(ValueError, match="ragged"):
        paddle.to_tensor([[1, 2], [3]])
    with pytest.raises(TypeError, match="numpy dtype object"):
        paddle.to_tensor(np.array([object()]))


def test_repr_follows_paddle_format():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype="float64")
    assert repr(x) == ("Tensor(shape=[2, 3], dtype=float64, place=Place(cpu), stop_gradient=True,\n"
                       "       [[1., 2., 3.],\n"
                       "        [4., 5., 6.]])")
    s = paddle.to_tensor(1.0, stop_gradient=False)
    assert repr(s) == ("Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=False,\n"
                       "       1.)")


def test_detach_and_clone():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    d = y.detach()
    assert d.stop_gradient and d.grad_fn is None and np.shares_memory(d.numpy(), y.numpy())
    c = y.clone()
    assert not c.stop_gradient and c.grad_fn is not None
    assert not np.shares_memory(c.numpy(), y.numpy())
    c.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_astype_is_differentiable():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x.astype("float64")
    assert y.dtype == paddle.float64
    (y * y).sum().backward()
    assert x.grad.dtype == paddle.float32
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])


def test_operators_with_scalars_on_both_sides():
    x = paddle.to_tensor([1.0, 2.0])
    np.testing.assert_allclose((x + 1).numpy(), [2, 3])
    np.testing.assert_allclose((1 + x).numpy(), [2, 3])
    np.testing.assert_allclose((x - 1).numpy(), [0, 1])
    np.testing.assert_allclose((3 - x).numpy(), [2, 1])
    np.testing.assert_allclose((x * 2).numpy(), [2, 4])
    np.testing.assert_allclose((2 * x).numpy(), [2, 4])
    np.testing.assert_allclose((x / 2).numpy(), [0.5, 1])
    np.testing.assert_allclose((2 / x).numpy(), [2, 1])
    np.testing.assert_allclose((-x).numpy(), [-1, -2])
    np.testing.assert_allclose((np.float64(2.0) * x).numpy(), [2, 4])
    assert (x * 2).dtype == paddle.float32
    m = paddle.to_tensor([[1.0, 2.0]])
    np.testing.assert_allclose((m @ m.T).numpy(), [[5.0]])


def test_broadcasting_and_promotion():
    a = paddle.ones([2, 1, 3], dtype="float32")
    b = paddle.ones([4, 1], dtype="float64")
    c = a + b
    assert c.shape == [2, 4, 3] and c.dtype == paddle.float64


def test_inplace_method_bumps_version_and_keeps_identity():
    x = paddle.ones([2])
    before = x.numpy()
    y = x
    x.add_(paddle.to_tensor(1.0))
    assert y is x and x.inplace_version == 1
    assert before is x.numpy()  # written into the same array
    np.testing.assert_array_equal(before, [2.0, 2.0])
    x.scale_(3)
    assert x.inplace_version == 2
    np.testing.assert_array_equal(x.numpy(), [6.0, 6.0])


def test_augmented_assignment_makes_a_new_tensor_as_in_paddle():
    x = paddle.ones([2])
    y = x
    x += 1
    x *= 3
    assert x is not y and y.inplace_version == 0
    np.testing.assert_array_equal(y.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(x.numpy(), [6.0, 6.0])


def test_inplace_on_leaf_that_needs_grad_is_refused():
    x = paddle.ones([2])
    x.stop_gradient = False
    with pytest.raises(ValueError, match="leaf tensor"):
        x.scale_(2)
    assert x.inplace_version == 0
    with paddle.no_grad():
        x.scale_(2)
    np.testing.assert_array_equal(x.numpy(), [2.0, 2.0])


def test_inplace_on_non_leaf_is_recorded():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 1
    y.multiply_(paddle.to_tensor(3.0))
    assert y.grad_fn.name() == "MultiplyGradNode"
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_methods_route_to_functions():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(x.sum().numpy(), 10.0)
    np.testing.assert_allclose(x.mean(axis=0).numpy(), [2.0, 3.0])
    assert x.reshape([4]).shape == [4]
    np.testing.assert_allclose(x.exp().numpy(), np.exp(x.numpy()))
    y = paddle.ones([2])
    y.scale_(3.0)
    assert y.inplace_version == 1 and y.tolist() == [3.0, 3.0]
    with pytest.raises(AttributeError, match="no attribute 'definitely_not_a_method'"):
        x.definitely_not_a_method


def test_grad_setter_and_clear_grad():
    x = paddle.to_tensor([1.0], stop_gradient=False)
    (x * 3).backward()
    assert x.grad.numpy()[0] == 3.0
    x.clear_grad(set_to_zero=False)
    assert x.grad is None
    (x * 3).backward()
    x.clear_grad(set_to_zero=True)
    assert x.grad.numpy()[0] == 0.0
    (x * 3).backward()
    assert x.grad.numpy()[0] == 3.0
    with pytest.raises(TypeError, match="grad must be a Tensor"):
        x.grad = 3


@pytest.mark.parametrize("method", ["clear_grad", "clear_gradient"])
def test_clear_grad_zeroes_by_default_as_paddle_does(method):
    # Paddle 3.3.1: x.clear_grad() and x.clear_gradient() leave zeros, not None.
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    getattr(x, method)()
    assert x.grad is None
    (x * 3).sum().backward()
    getattr(x, method)()
    assert x.grad.tolist() == [0.0, 0.0]
    getattr(x, method)(False)
    assert x.grad is None


def test_clear_grad_to_zero_zeroes_the_gradient_in_place_as_paddle_does():
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (w * 3).sum().backward()
    held = w.grad
    w.clear_grad(set_to_zero=True)
    assert held.tolist() == [0.0, 0.0] and w.grad.tolist() == [0.0, 0.0]
    (w * 3).sum().backward()
    assert w.grad.tolist() == [3.0, 3.0]
    # A gradient the engine did not allocate is replaced, never written into.
    mine = paddle.to_tensor([5.0, 5.0])
    w.grad = mine
    w.clear_grad(set_to_zero=True)
    assert mine.tolist() == [5.0, 5.0] and w.grad.tolist() == [0.0, 0.0]


def test_write_through_calls_the_writer_only_on_memory_it_may_fill():
    # The door of distributed.all_reduce's cheap path: a foreign (C) writer gets the
    # tensor's memory only when it is a real or integer dtype other than 16-bit floats,
    # C-ordered, writable, aligned and in native byte order; the write bumps the version
    # shared with the tensor's views.
    from pylayer._core.tensor import write_through
    calls = []

    def writer(first, array, op):
        calls.append((first, op))
        array[...] = 7

    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    view = x[0]
    version = x.inplace_version
    assert write_through(x, writer, "in place", "sum") is True
    assert calls == [("in place", "sum")] and x.inplace_version == version + 1
    np.testing.assert_array_equal(view.numpy(), [7, 7, 7])
    refused = [paddle.to_tensor(np.ones(3, dtype)) for dtype in
               ("float16", "bfloat16", "complex64", "bool")]
    refused.append(paddle.to_tensor(np.ones((3, 2), "float32")).t())      # not C order
    refused.append(paddle.ones([3]).expand([2, 3]))                       # read-only
    for tensor in refused + [np.ones(3, "float32"), None]:
        assert write_through(tensor, writer, None, None) is False
    assert len(calls) == 1
