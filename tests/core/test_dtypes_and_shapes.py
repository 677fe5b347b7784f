"""Paddle's dtype and shape API: the default dtype, dtype names and limits,
``paddle.Size``, and the Tensor methods that convert a tensor or tell about its
memory. The values are Paddle 3.3.1's, observed."""
import pickle

import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck


@pytest.fixture(autouse=True)
def default_dtype_restored():
    yield
    pylayer.set_default_dtype("float32")


# ------------------------------------------------------------------ Size
def test_a_shape_equals_the_tuple_and_the_list_of_its_sizes():
    shape = pylayer.ones([2, 3]).shape
    assert shape == (2, 3) and shape == [2, 3] and not shape != (2, 3)
    assert shape != (2, 4) and shape != (2, 3, 1)
    assert isinstance(shape, list) and isinstance(shape, pylayer.Size)
    assert pylayer.ones([]).shape == () and pylayer.ones([]).shape == []


def test_slices_sums_and_repeats_of_a_size_are_sizes():
    shape = pylayer.Size([2, 3])
    for made in (shape[1:], shape + [4], shape + (4,), [1] + shape, shape * 2):
        assert type(made) is pylayer.Size
    assert shape + (4,) == (2, 3, 4) and shape.numel() == 6 and pylayer.Size().numel() == 1
    assert type(shape[0]) is int
    assert pickle.loads(pickle.dumps(shape)) == (2, 3)
    with pytest.raises(TypeError):
        hash(shape)


def test_ops_take_a_size_wherever_they_take_a_shape():
    x = pylayer.ones([2, 3])
    assert pylayer.zeros(x.shape).shape == (2, 3)
    assert pylayer.reshape(x, x.shape[::-1]).shape == (3, 2)
    assert pylayer.nn.functional.max_pool2d(pylayer.ones([1, 1, 4, 4]),
                                            kernel_size=pylayer.Size([2, 2])).shape == (1, 1, 2, 2)
    assert pylayer.extend.unbroadcast(pylayer.ones([3, 2]), x.shape[:1]).shape == [2]


# ------------------------------------------------------------ dtype names
def test_the_dtype_name_float_is_float64_as_in_numpy_and_paddle():
    assert pylayer.ones([1], dtype="float").dtype == pylayer.float64
    assert pylayer.ones([1], dtype=float).dtype == pylayer.float64
    assert pylayer.to_tensor([1, 2]).astype("float").dtype == pylayer.float64
    assert pylayer.float is pylayer.float32      # but the attribute is float32, as Paddle's


def test_paddles_other_dtype_names_and_constants():
    assert (pylayer.double, pylayer.half, pylayer.cfloat, pylayer.cdouble) == (
        pylayer.float64, pylayer.float16, pylayer.complex64, pylayer.complex128)
    assert pylayer.uint16 is pylayer.bfloat16
    assert pylayer.dtype is pylayer.DType and isinstance(pylayer.float32, pylayer.dtype)
    assert (pylayer.e, pylayer.pi, pylayer.inf) == (np.e, np.pi, np.inf)
    assert np.isnan(pylayer.nan) and pylayer.newaxis is None
    assert pylayer.ones([2])[pylayer.newaxis].shape == [1, 2]


@pytest.mark.parametrize("name, limits", [
    ("int8", (-128, 127, 8)), ("uint8", (0, 255, 8)), ("int32", (-2 ** 31, 2 ** 31 - 1, 32)),
    ("int64", (-2 ** 63, 2 ** 63 - 1, 64))])
def test_iinfo(name, limits):
    info = pylayer.iinfo(name)
    assert (info.min, info.max, info.bits, info.dtype) == limits + (name,)
    assert repr(pylayer.iinfo("int32")) == \
        "pylayer.iinfo(min=-2147483648, max=2147483647, bits=32, dtype=int32)"


@pytest.mark.parametrize("name, eps, resolution, bits", [
    ("float16", 0.0009765625, 0.001, 16), ("bfloat16", 0.0078125, 0.01, 16),
    ("float32", 1.1920928955078125e-07, 1e-06, 32), ("float64", 2.220446049250313e-16, 1e-15, 64),
    ("complex64", 1.1920928955078125e-07, 1e-06, 32)])
def test_finfo_as_paddle_reports_it(name, eps, resolution, bits):
    info = pylayer.finfo(getattr(pylayer, name))
    assert (info.eps, info.resolution, info.bits) == (eps, resolution, bits)
    assert info.tiny == info.smallest_normal > 0 and info.min == -info.max


def test_limits_of_the_wrong_kind_are_refused():
    with pytest.raises(TypeError, match=r"iinfo\(\): argument 'dtype' must be an integer"):
        pylayer.iinfo("float32")
    with pytest.raises(TypeError, match=r"finfo\(\): argument 'dtype' must be a floating"):
        pylayer.finfo("int64")


# ----------------------------------------------------------- default dtype
def test_the_default_dtype_governs_floats_creation_and_parameters():
    assert pylayer.get_default_dtype() == "float32"
    pylayer.set_default_dtype("float64")
    assert pylayer.get_default_dtype() == "float64"
    made = [pylayer.to_tensor([1.5]), pylayer.to_tensor(2.5), pylayer.zeros([1]),
            pylayer.ones([1]), pylayer.full([1], 2), pylayer.full([1], 1.5), pylayer.empty([1]),
            pylayer.rand([1]), pylayer.randn([1]), pylayer.uniform([1]),
            pylayer.normal(shape=[1]), pylayer.arange(3.0), pylayer.linspace(0, 1, 3),
            pylayer.eye(2), pylayer.nn.Linear(2, 2).weight, pylayer.nn.Conv2D(1, 1, 3).weight,
            pylayer.create_parameter([1], None)]
    assert [t.dtype for t in made] == [pylayer.float64] * len(made)
    assert pylayer.to_tensor(1).dtype == pylayer.int64
    assert pylayer.to_tensor(1 + 2j).dtype == pylayer.complex128
    assert pylayer.to_tensor(np.float32(1.0)).dtype == pylayer.float32     # numpy keeps its own

    class Custom(pylayer.nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter([2])
    assert Custom().w.dtype == pylayer.float64
    pylayer.set_default_dtype(pylayer.float16)
    assert pylayer.to_tensor([1.0]).dtype == pylayer.float16
    assert pylayer.to_tensor(1 + 2j).dtype == pylayer.complex64


@pytest.mark.parametrize("refused", ["int32", "complex64", "float", None, 3, pylayer.int64])
def test_only_a_float_dtype_can_be_the_default_and_a_refusal_changes_nothing(refused):
    pylayer.set_default_dtype("float64")
    with pytest.raises(TypeError, match=r"set_default_dtype\(\): argument 'd' must be float16, "
                                        r"bfloat16, float32 or float64"):
        pylayer.set_default_dtype(refused)
    assert pylayer.get_default_dtype() == "float64"


# ---------------------------------------------------- Tensor conversions
def test_a_conversion_is_a_recorded_cast_or_the_tensor_itself():
    x = pylayer.to_tensor([1.5, -2.0], dtype="float64", stop_gradient=False)
    assert x.double() is x and x.float64() is x
    names = {"float": "float32", "half": "float16", "int": "int32", "long": "int64",
             "short": "int16", "char": "int8", "byte": "uint8", "bool": "bool",
             "bfloat16": "bfloat16", "cfloat": "complex64", "cdouble": "complex128"}
    for method, dtype in names.items():
        assert getattr(x, method)().dtype == dtype, method
    (x.float() * 3.0).sum().backward()
    assert x.grad.dtype == pylayer.float64 and x.grad.numpy().tolist() == [3.0, 3.0]
    assert gradcheck(lambda t: t.cdouble().real() * t, (x,))


def test_to_takes_a_dtype_a_device_a_tensor_or_keywords():
    x = pylayer.ones([2])
    assert x.to("float64").dtype == pylayer.float64
    assert x.to(pylayer.int32).dtype == pylayer.int32
    assert x.to("cpu") is x and x.to("cpu", "float64").dtype == pylayer.float64
    assert x.to(pylayer.ones([1], "int32")).dtype == pylayer.int32
    assert x.to(other=pylayer.ones([1], "int64")).dtype == pylayer.int64
    assert x.to(dtype="float32", copy=True) is not x
    assert x.to("float64", blocking=True).dtype == pylayer.float64
    assert x.type_as(pylayer.ones([1], "int16")).dtype == pylayer.int16
    with pytest.raises(ValueError, match="CPU"):
        x.to("gpu:0")
    with pytest.raises(TypeError, match=r"Tensor.to\(\): unexpected keyword argument 'shape'"):
        x.to(shape=[2])


def test_new_tensors_like_x():
    x = pylayer.ones([2], "int32")
    assert x.new_zeros([3]).dtype == pylayer.int32 and x.new_zeros([3]).shape == [3]
    assert x.new_ones([2], dtype="float64").numpy().tolist() == [1.0, 1.0]
    assert x.new_full([2], 7).numpy().tolist() == [7, 7]
    assert x.new_empty([4]).shape == [4]
    assert x.new_full([1], 1.0, requires_grad=True).stop_gradient is False


def test_requires_grad_is_not_stop_gradient():
    x = pylayer.ones([1])
    assert x.requires_grad is False
    assert x.requires_grad_() is x and x.stop_gradient is False and x.requires_grad
    x.requires_grad = False
    assert x.stop_gradient is True


def test_what_a_tensor_tells_about_its_memory():
    x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.strides == [2, 1] and x.T.strides == [1, 2] and x.get_strides() == [2, 1]
    assert x.stride() == [2, 1] and x.stride(0) == 2 and x.stride(-1) == 1
    assert x.is_contiguous() and not x.T.is_contiguous()
    assert x.contiguous() is x and x.T.contiguous().is_contiguous()
    assert x.element_size() == x.itemsize == 4 and x[1].offset == 8 and x.offset == 0
    assert x[1].data_ptr() == x.data_ptr() + 8
    assert x.ndimension() == 2 and x.mT.shape == [2, 2] and x.is_same_shape(pylayer.ones([2, 2]))
    assert (x.device, x.is_cuda, x.layout, x.is_dense(), x.is_sparse()) == (
        "cpu", False, "NCHW", True, False)
    with pytest.raises(IndexError, match=r"Tensor.stride\(\): argument 'dim'"):
        x.stride(2)


def test_apply_runs_a_function_on_a_tensor_without_gradient():
    x = pylayer.ones([2])
    assert x.apply(lambda t: t * 2).numpy().tolist() == [2.0, 2.0]
    assert x.apply_(lambda t: t * 3) is x and x.numpy().tolist() == [3.0, 3.0]
    x.stop_gradient = False
    with pytest.raises(RuntimeError, match="needs a gradient"):
        x.apply(lambda t: t)
