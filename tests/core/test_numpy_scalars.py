"""numpy scalars and lists of them become tensors of the dtypes Paddle 3.3.1 gives
(observed with ``paddle.to_tensor``): a scalar alone keeps its numpy dtype; inside
a list, floats of any width follow the float32 default and int32 becomes int64."""
import numpy as np
import pytest

import pylayer as paddle

SCALARS = [
    (np.float64(1.5), "float64"), (np.float32(1.5), "float32"), (np.float16(1.5), "float16"),
    (np.int64(3), "int64"), (np.int32(3), "int32"), (np.int16(3), "int16"),
    (np.int8(3), "int8"), (np.uint8(3), "uint8"), (np.bool_(True), "bool"),
]

LISTS = [
    ([np.float64(1.5), np.float64(2.0)], "float32"), ([np.float64(1.5), 2.0], "float32"),
    ([2.0, np.float64(1.5)], "float32"), ([np.float32(1.5), np.float64(2.0)], "float32"),
    ([np.float16(1.0)], "float32"), ([[np.float64(1)], [np.float64(2)]], "float32"),
    ((np.float64(1.5),), "float32"), ([np.int32(1), np.int32(2)], "int64"),
    ([np.int32(1), 2], "int64"), ([1, np.int32(2)], "int64"), ([np.int8(1), np.int16(2)], "int16"),
    ([np.uint8(1)], "uint8"), ([np.bool_(True), np.bool_(False)], "bool"),
    ([np.bool_(True), np.int32(2)], "int64"), ([np.int32(1), 2.5], "float32"),
    ([np.float64(1.5), 2], "float32"),
]


@pytest.mark.parametrize("value,dtype", SCALARS, ids=lambda v: repr(v))
def test_a_numpy_scalar_keeps_its_dtype(value, dtype):
    t = paddle.to_tensor(value)
    assert t.dtype == getattr(paddle, dtype) and t.shape == []
    assert t.item() == value


def test_a_float64_scalar_keeps_its_precision():
    assert paddle.to_tensor(np.float64(0.1)).item() == 0.1


@pytest.mark.parametrize("value,dtype", LISTS, ids=lambda v: repr(v))
def test_lists_of_numpy_scalars_follow_the_list_defaults(value, dtype):
    assert paddle.to_tensor(value).dtype == getattr(paddle, dtype)


def test_a_requested_dtype_wins_over_the_scalars_own():
    assert paddle.to_tensor(np.float64(1.5), dtype="float32").dtype == paddle.float32
    assert paddle.to_tensor([np.int32(1)], dtype="int32").dtype == paddle.int32


@pytest.mark.parametrize("scalar", [np.float64(2.0), np.int32(2), np.float32(2.0)])
def test_numpy_scalars_in_arithmetic_do_not_change_a_float32_tensor(scalar):
    # Paddle: float32 tensor * np.float64 scalar stays float32, like a Python number.
    assert (paddle.ones([2]) * scalar).dtype == paddle.float32
    assert paddle.full([2], scalar).dtype == paddle.float32
