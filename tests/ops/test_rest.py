"""The last top-level names of Paddle 3.3.1 (``pylayer.ops.conversion``, ``pylayer.version``
and the Tensor-only extras), each rule as observed on Paddle: conversions copy,
``range`` includes its end, ``rank``/``shape`` are int32/int64 tensors, ``where_``
writes into ``x``, the top-level softmax takes PyTorch's ``dim`` with its legacy
default, the complex views share memory, ``batch`` groups a reader's items."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import gradcheck


# --------------------------------------------------------------- conversions
def test_from_numpy_and_as_tensor_copy_as_in_paddle():
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    t = paddle.from_numpy(a)
    u = paddle.as_tensor(a)
    a[0] = 9.0
    assert t.numpy().tolist() == [1.0, 2.0, 3.0] and u.numpy()[0] == 1.0
    assert t.dtype == paddle.float32 and t.stop_gradient


def test_from_numpy_keeps_the_dtype_and_refuses_other_containers():
    assert paddle.from_numpy(np.array([1, 2], dtype=np.int16)).dtype == paddle.int16
    with pytest.raises(TypeError, match=r"from_numpy\(\): argument 'ndarray'"):
        paddle.from_numpy([1, 2])


def test_as_tensor_dtypes_and_requires_grad():
    assert paddle.as_tensor(1.5).dtype == paddle.float32
    assert paddle.as_tensor(np.array([1, 2], dtype=np.int32)).dtype == paddle.int32
    t = paddle.as_tensor([1, 2], dtype="float64", requires_grad=True)
    assert t.dtype == paddle.float64 and not t.stop_gradient


def test_asarray_makes_a_new_tensor_even_from_a_tensor():
    x = paddle.to_tensor([1.0, 2.0])
    y = paddle.asarray(x)
    assert y is not x
    y[0] = 5.0
    assert x.numpy()[0] == 1.0
    assert paddle.asarray(np.float64(2)).dtype == paddle.float64


def test_tolist_gives_python_values():
    assert paddle.tolist(paddle.to_tensor([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert isinstance(paddle.tolist(paddle.to_tensor(3.0)), float)
    assert paddle.tolist(paddle.to_tensor([1 + 2j])) == [1 + 2j]
    assert paddle.tolist(paddle.ones([0])) == []


def test_dlpack_round_trip_shares_memory():
    a = np.arange(3.0)
    t = paddle.from_dlpack(a)
    a[0] = 7.0
    assert t.numpy()[0] == 7.0
    back = paddle.from_dlpack(paddle.to_dlpack(t))
    assert back.numpy().tolist() == [7.0, 1.0, 2.0]
    assert paddle.from_dlpack(a, copy=True).numpy() is not a


def test_clone_stays_on_the_graph():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (paddle.clone(x) * 3.0).sum().backward()
    assert x.grad.numpy().tolist() == [3.0, 3.0]


# ------------------------------------------------------------ sequences
def test_logspace():
    assert np.allclose(paddle.logspace(0, 2, 3).numpy(), [1.0, 10.0, 100.0])
    assert paddle.logspace(0, 2, 3).dtype == paddle.float32
    assert paddle.logspace(0, 2, 3, base=2, dtype="int64").numpy().tolist() == [1, 2, 4]
    t = paddle.logspace(paddle.to_tensor(0.0), paddle.to_tensor(1.0), 3)
    assert np.allclose(t.numpy(), [1.0, 10 ** 0.5, 10.0])
    with pytest.raises(ValueError, match="num"):
        paddle.logspace(0, 1, 0)


def test_range_includes_its_end():
    assert paddle.range(0, 5).numpy().tolist() == [0, 1, 2, 3, 4, 5]
    assert paddle.range(5).numpy().tolist() == [0, 1, 2, 3, 4, 5]
    assert paddle.range(0, 5, 2).numpy().tolist() == [0, 2, 4]
    assert paddle.range(1.5).numpy().tolist() == [0.0, 1.0]
    assert paddle.range(0, 1, 0.25).numpy().tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert paddle.range(0, 5).dtype == paddle.float32
    assert paddle.range(0, 5, dtype="int64").dtype == paddle.int64
    with pytest.raises(ValueError, match="step"):
        paddle.range(0, 5, 0)


# ------------------------------------------------------------ shape queries
def test_rank_and_shape_are_tensors():
    x = paddle.ones([2, 3])
    r = paddle.rank(x)
    assert r.dtype == paddle.int32 and r.shape == [] and r.item() == 2
    assert x.rank().item() == 2
    s = paddle.shape(x)
    assert s.dtype == paddle.int64 and s.numpy().tolist() == [2, 3]
    assert paddle.shape(paddle.to_tensor(3.0)).shape == [0]
    assert paddle.rank(paddle.to_tensor(3.0)).item() == 0


# --------------------------------------------------------------- where_
def test_where_writes_into_x():
    x = paddle.to_tensor([1.0, -2.0, 3.0])
    y = paddle.where_(x > 0, x, paddle.zeros([3]))
    assert y is x and x.numpy().tolist() == [1.0, 0.0, 3.0]
    assert x.inplace_version == 1


def test_where_and_where__are_methods_of_the_condition():
    c = paddle.to_tensor([True, False])
    x = paddle.to_tensor([1.0, 2.0])
    assert c.where(x, paddle.zeros([2])).numpy().tolist() == [1.0, 0.0]
    assert c.where_(x, paddle.zeros([2])) is x
    assert x.numpy().tolist() == [1.0, 0.0]


def test_where__refuses_a_y_that_is_missing_and_changes_nothing():
    x = paddle.to_tensor([1.0, 2.0])
    with pytest.raises(ValueError, match=r"where_\(\)"):
        paddle.where_(x > 0, x)
    with pytest.raises((TypeError, ValueError), match=r"where_\(\)"):
        paddle.where_(x > 0, x, "spam")
    assert x.numpy().tolist() == [1.0, 2.0] and x.inplace_version == 0


# --------------------------------------------------------------- softmax
def test_top_level_softmax_is_the_compatible_one():
    assert paddle.softmax is not paddle.nn.functional.softmax
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 5.0]])
    assert np.allclose(paddle.softmax(x).numpy().sum(1), 1.0)          # 2-D: dim 1
    cube = paddle.arange(8, dtype="float32").reshape([2, 2, 2])
    assert np.allclose(paddle.softmax(cube).numpy().sum(0), 1.0)       # 3-D: dim 0
    assert paddle.softmax(paddle.to_tensor(2.0)).item() == 1.0
    assert paddle.to_tensor([1.0, 2.0]).softmax(0).shape == [2]
    assert paddle.softmax(x, dtype="float64").dtype == paddle.float64


def test_softmax_out_receives_the_result():
    out = paddle.zeros([2])
    paddle.softmax(paddle.to_tensor([1.0, 2.0]), 0, out=out)
    assert np.allclose(out.numpy(), [0.26894143, 0.7310586])


def test_softmax_refuses_integers():
    with pytest.raises(TypeError, match=r"softmax\(\): argument 'input'"):
        paddle.softmax(paddle.to_tensor([1, 2]))


def test_top_level_functional_names_are_the_functional_objects():
    for name in ("conv1d", "conv2d", "group_norm", "layer_norm", "adaptive_avg_pool1d"):
        assert getattr(paddle, name) is getattr(paddle.nn.functional, name)


# ------------------------------------------------------------ complex
def test_view_as_complex_shares_memory():
    r = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    c = paddle.view_as_complex(r)
    r[0, 0] = 10.0
    assert c.numpy().tolist() == [10 + 2j, 3 + 4j]
    back = paddle.view_as_real(c)
    c[1] = paddle.to_tensor(5 + 6j, dtype="complex64")
    assert back.numpy().tolist() == [[10.0, 2.0], [5.0, 6.0]]


def test_view_as_complex_of_a_transposed_tensor_is_a_copy():
    r = paddle.to_tensor([[1.0, 3.0], [2.0, 4.0]]).T
    assert paddle.view_as_complex(r).numpy().tolist() == [1 + 2j, 3 + 4j]


def test_complex_views_refuse_wrong_input():
    with pytest.raises(ValueError, match="last dimension"):
        paddle.view_as_complex(paddle.ones([2, 3]))
    with pytest.raises(TypeError, match=r"view_as_complex\(\): argument 'input'"):
        paddle.view_as_complex(paddle.ones([2], dtype="int32"))
    with pytest.raises(TypeError, match=r"view_as_real\(\): argument 'input'"):
        paddle.view_as_real(paddle.ones([2]))


def test_view_as_complex_gradient_as_in_paddle():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    paddle.abs(paddle.view_as_complex(x)).sum().backward()
    assert np.allclose(x.grad.numpy(), [[0.44721359, 0.89442718], [0.6, 0.8]])


def test_polar_values_and_gradient_as_in_paddle():
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
    z = paddle.polar(a, b)
    assert z.dtype == paddle.complex64
    paddle.real(z).sum().backward()
    assert np.allclose(a.grad.numpy(), [0.87758261, 0.54030228])
    assert np.allclose(b.grad.numpy(), [-0.47942555, -1.68294191])
    assert paddle.to_tensor([2.0]).polar(paddle.to_tensor([0.0])).numpy().tolist() == [2 + 0j]
    with pytest.raises(TypeError, match=r"polar\(\): argument 'abs'"):
        paddle.polar(paddle.to_tensor([1, 2]), paddle.to_tensor([0.0, 1.0]))


def test_polar_double_backward():
    a = paddle.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    b = paddle.to_tensor([0.5, 1.0], dtype="float64", stop_gradient=False)
    assert gradcheck(lambda a, b: paddle.real(paddle.polar(a, b) ** 2), (a, b))


# ------------------------------------------------------------ readers
def reader():
    yield from [0, 1, 2, 3, 4]


def test_batch_groups_a_readers_items():
    assert list(paddle.batch(reader, 2)()) == [[0, 1], [2, 3], [4]]
    assert list(paddle.batch(reader, 2, drop_last=True)()) == [[0, 1], [2, 3]]
    assert list(paddle.batch(reader, 2.0)()) == [[0, 1], [2, 3], [4]]


@pytest.mark.parametrize("size", [0, -1, 2.5])
def test_batch_refuses_a_size_that_is_not_a_positive_integer(size):
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        paddle.batch(reader, size)


# ------------------------------------------------------------ process level
def test_set_printoptions_changes_the_repr():
    try:
        paddle.set_printoptions(precision=2)
        assert "[0.33]" in repr(paddle.to_tensor([1.0 / 3.0]))
        paddle.set_printoptions(sci_mode=True)
        assert "3.33e-01" in repr(paddle.to_tensor([1.0 / 3.0, 100.0]))
        paddle.set_printoptions(sci_mode=False, precision=8, threshold=5, edgeitems=1)
        assert "..." in repr(paddle.arange(10))
    finally:
        paddle.set_printoptions(precision=8, threshold=1000, edgeitems=3, linewidth=80)
        paddle._core.tensor_methods.PRINT_OPTIONS["sci_mode"] = None
    assert "..." not in repr(paddle.arange(10))


def test_set_printoptions_refuses_bad_values_and_changes_nothing():
    before = dict(paddle._core.tensor_methods.PRINT_OPTIONS)
    with pytest.raises(ValueError, match="precision"):
        paddle.set_printoptions(precision=-1)
    with pytest.raises(TypeError, match="sci_mode"):
        paddle.set_printoptions(sci_mode="yes")
    assert paddle._core.tensor_methods.PRINT_OPTIONS == before


def test_disable_signal_handler_returns_none():
    assert paddle.disable_signal_handler() is None


def test_version_module_in_paddles_form(capsys):
    v = paddle.version
    assert v.full_version == paddle.__version__ == ".".join([v.major, v.minor, v.patch])
    assert v.paddle_version == "3.3.1"
    assert (v.cuda(), v.cudnn(), v.nccl(), v.xpu(), v.hip(), v.cuda_archs()) == (
        "False", "False", "0", "False", None, [])
    v.show()
    shown = capsys.readouterr().out
    assert shown.startswith(f"full_version: {v.full_version}\n") and "cuda: False" in shown


# ------------------------------------------------------------ Tensor-only
def test_tensor_extras_as_in_paddle():
    t = paddle.ones([2])
    assert t.get_device() == -1 and t.is_tensor() and t.persistable is False
    t.persistable = True
    assert t.persistable is True
    with pytest.raises(TypeError, match="persistable"):
        t.persistable = 1
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 2.0).sum().backward()
    assert x.grad_.numpy().tolist() == [2.0, 2.0]
    assert paddle.ones([64]).stft(16).shape == [9, 17]


# ------------------------------------------------------------ legacy types
def test_legacy_tensor_types_make_tensors_of_their_dtype():
    assert paddle.FloatTensor([1, 2]).dtype == paddle.float32
    assert paddle.LongTensor([1.5]).numpy().tolist() == [1]
    assert paddle.LongTensor(2, 3).shape == [2, 3]
    assert paddle.BoolTensor([0, 1]).numpy().tolist() == [False, True]
    empty = paddle.FloatTensor()
    assert empty.shape == [0] and empty.dtype == paddle.float32
    assert paddle.FloatTensor((2,)).numpy().tolist() == [2.0]      # a tuple is data, as in Paddle
    kinds = {"BFloat16Tensor": "bfloat16", "ByteTensor": "uint8", "CharTensor": "int8",
             "ShortTensor": "int16", "IntTensor": "int32", "HalfTensor": "float16",
             "DoubleTensor": "float64"}
    for name, dtype in kinds.items():
        assert getattr(paddle, name)([1]).dtype == dtype


def test_no_tensor_is_an_instance_of_a_legacy_type():
    assert not isinstance(paddle.ones([1]), paddle.FloatTensor)
    assert not isinstance(paddle.FloatTensor([1.0]), paddle.FloatTensor)


def test_check_shape_checks_only_while_building_a_program():
    assert paddle.check_shape([2, "a"], "reshape") is None
    paddle.enable_static()
    try:
        paddle.check_shape([2, 3], "reshape")
        with pytest.raises(TypeError, match="reshape"):
            paddle.check_shape((2.5, 3), "reshape")
        with pytest.raises(TypeError, match="int32 or int64"):
            paddle.check_shape(paddle.static.data("s", [2], "float32"), "reshape")
    finally:
        paddle.disable_static()


# ------------------------------------------------------------ random_, resize_
def test_random__fills_whole_numbers_in_the_range():
    paddle.seed(0)
    x = paddle.zeros([50])
    assert x.random_(2, 5) is x
    v = x.numpy()
    assert set(v.tolist()) <= {2.0, 3.0, 4.0} and x.inplace_version == 1
    assert set(paddle.zeros([50], dtype="int32").random_(3).numpy().tolist()) <= {0, 1, 2}
    big = paddle.zeros([50]).random_().numpy()
    assert big.max() > 3 and big.max() <= 2 ** 24 and (big == big.round()).all()


def test_random__refuses_as_paddle_does():
    with pytest.raises(ValueError, match="less than 'to'"):
        paddle.zeros([2]).random_(5, 2)
    with pytest.raises(TypeError, match="from_"):
        paddle.zeros([2]).random_(2.5, 4)
    x = paddle.zeros([2], dtype="float32")
    x.stop_gradient = False
    with pytest.raises(ValueError, match="random_"):
        x.random_(0, 3)


def test_resize__keeps_the_first_values():
    x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    assert x.resize_([2, 3]) is x
    assert x.numpy().tolist() == [[1.0, 2.0, 3.0], [4.0, 0.0, 0.0]]
    x.resize_([3], fill_zero=True)
    assert x.numpy().tolist() == [1.0, 2.0, 3.0]


def test_resize__refuses_a_leaf_that_needs_a_gradient():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(ValueError, match="resize_"):
        x.resize_([3])
    assert x.shape == [2]
