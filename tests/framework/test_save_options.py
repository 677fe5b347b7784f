"""save's options as in Paddle 3.3.1: use_binary_format, pickle_protocol, async_save;
and the error types Paddle gives for what cannot be saved.

The expected bytes of the binary format are the files Paddle 3.3.1 writes
for the same tensors (``paddle.save(t, path, use_binary_format=True)``).
"""
import io
import pickle
import threading

import numpy as np
import pytest

import pylayer
from pylayer import nn

# paddle.save(paddle.arange(6, dtype='float64').reshape([2, 3]), p, use_binary_format=True)
PADDLE_FLOAT64_2X3 = bytes.fromhex(
    "000000000000000000000000000000000600000008061002100300000000000000000000000000"
    "00f03f0000000000000040000000000000084000000000000010400000000000001440")
# ... of paddle.to_tensor(3.0) and of paddle.zeros([2, 0, 3])
PADDLE_FLOAT32_SCALAR = bytes.fromhex("0000000000000000000000000000000002000000080500004040")
PADDLE_FLOAT32_EMPTY = bytes.fromhex("00000000000000000000000000000000080000000805100210001003")
# Paddle's data type codes, as its files show them for pylayer's dtypes.
PADDLE_CODES = {"bool": 0, "int16": 1, "int32": 2, "int64": 3, "float16": 4, "float32": 5,
                "float64": 6, "uint8": 20, "int8": 21}


def saved(obj, **configs):
    buffer = io.BytesIO()
    pylayer.save(obj, buffer, **configs)
    return buffer.getvalue()


# ------------------------------------------------------------ error types
def test_a_path_that_is_not_a_file_is_a_value_error_as_in_paddle(tmp_path):
    with pytest.raises(ValueError, match=r"save\(\): argument 'path' must be a file name.*int"):
        pylayer.save(4, 3)
    with pytest.raises(ValueError, match=r"save\(\): argument 'path'.*float"):
        pylayer.save(pylayer.ones([1]), 3.5)


@pytest.mark.parametrize("obj, where", [
    ((nn.Linear(1, 1), nn.Linear(1, 1)), r"\[0\]"),
    ([{"head": nn.Linear(1, 1)}], r"\[0\]\['head'\]"),
    (nn.Sequential(nn.Linear(1, 1)), "the top level"),
], ids=["tuple of layers", "nested", "a layer"])
def test_a_layer_anywhere_in_obj_is_a_value_error_as_in_paddle(tmp_path, obj, where):
    with pytest.raises(ValueError, match=rf"save\(\).*holds a Layer .* at {where}.*state_dict"):
        pylayer.save(obj, tmp_path / "layers.pdparams")
    assert not list(tmp_path.iterdir())


# ------------------------------------------------------ use_binary_format
def test_the_binary_format_is_byte_for_byte_paddles():
    x = pylayer.arange(6, dtype="float64").reshape([2, 3])
    assert saved(x, use_binary_format=True) == PADDLE_FLOAT64_2X3
    assert saved(pylayer.to_tensor(3.0), use_binary_format=True) == PADDLE_FLOAT32_SCALAR
    assert saved(pylayer.zeros([2, 0, 3]), use_binary_format=True) == PADDLE_FLOAT32_EMPTY


@pytest.mark.parametrize("dtype, code", PADDLE_CODES.items())
def test_each_dtype_has_paddles_code_and_round_trips(dtype, code):
    values = pylayer.to_tensor(np.array([[1, 0, 1]]).astype(dtype))
    data = saved(values, use_binary_format=True)
    assert data[20:23] == bytes([0x08, code, 0x10])     # description: data type, then dims
    loaded = pylayer.load(io.BytesIO(data))
    assert loaded.dtype == values.dtype and loaded.stop_gradient
    np.testing.assert_array_equal(loaded.numpy(), values.numpy())


def test_paddles_binary_files_load_as_tensors_or_arrays(tmp_path):
    path = tmp_path / "t.bin"
    path.write_bytes(PADDLE_FLOAT64_2X3)
    loaded = pylayer.load(str(path))
    assert isinstance(loaded, pylayer.Tensor) and loaded.dtype == pylayer.float64
    np.testing.assert_array_equal(loaded.numpy(), np.arange(6.0).reshape(2, 3))
    scalar = pylayer.load(io.BytesIO(PADDLE_FLOAT32_SCALAR), return_numpy=True)
    assert type(scalar) is np.ndarray and scalar.shape == () and scalar == 3.0
    assert pylayer.load(io.BytesIO(PADDLE_FLOAT32_EMPTY)).shape == [2, 0, 3]


def test_the_binary_format_holds_one_tensor_and_wants_a_bool():
    with pytest.raises(NotImplementedError, match=r"save\(\): use_binary_format=True writes "
                                                  r"one Tensor, got dict"):
        saved({"w": pylayer.ones([1])}, use_binary_format=True)
    with pytest.raises(TypeError, match=r"save\(\): argument 'use_binary_format' must be a "
                                        r"bool, got int"):
        saved(pylayer.ones([1]), use_binary_format=1)


@pytest.mark.parametrize("data, message", [
    (PADDLE_FLOAT64_2X3[:-8], r"\(48 bytes\) but holds 40 bytes"),
    (PADDLE_FLOAT64_2X3 + b"\0", r"but holds 49 bytes"),
    (PADDLE_FLOAT32_SCALAR[:10], "shorter than the header"),
    (PADDLE_FLOAT32_SCALAR[:4] + b"\x01" + PADDLE_FLOAT32_SCALAR[5:], "1 LoD levels"),
    (PADDLE_FLOAT32_SCALAR[:20] + b"\x08\x16" + PADDLE_FLOAT32_SCALAR[22:],
     "data type code 22 is none of pylayer's dtypes"),
    (PADDLE_FLOAT32_SCALAR[:16] + b"\xff\xff\x00\x00" + PADDLE_FLOAT32_SCALAR[20:],
     "description claims 65535 bytes"),
    (PADDLE_FLOAT32_SCALAR[:16] + b"\x04\0\0\0\x08\x05\x10\xff" + PADDLE_FLOAT32_SCALAR[22:],
     "ends inside a number"),
    (PADDLE_FLOAT32_SCALAR[:16] + b"\x04\0\0\0\x08\x05\x18\x01" + PADDLE_FLOAT32_SCALAR[22:],
     "field 3"),
], ids=["short data", "extra byte", "short header", "lod", "bfloat16", "long description",
        "cut varint", "unknown field"])
def test_a_malformed_binary_file_is_a_value_error_naming_the_file(tmp_path, data, message):
    path = tmp_path / "bad.bin"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=rf"load\(\): '.*bad\.bin' is not a tensor file.*"
                                         rf"{message}"):
        pylayer.load(str(path))


# --------------------------------------------------------- pickle_protocol
def test_pickle_protocol_is_paddles_older_name_of_protocol():
    x = pylayer.ones([2])
    with pytest.warns(DeprecationWarning, match="'pickle_protocol' is Paddle's older name"):
        data = saved(x, protocol=4, pickle_protocol=2)
    assert data[:2] == b"\x80\x02"
    np.testing.assert_array_equal(pylayer.load(io.BytesIO(data)).numpy(), [1.0, 1.0])
    with pytest.raises(ValueError, match=r"save\(\): argument 'protocol' must be 2, 3 or 4"), \
            pytest.warns(DeprecationWarning):
        saved(x, pickle_protocol=5)


# -------------------------------------------------------------- async_save
def test_async_save_writes_the_values_of_the_call_and_load_waits_for_it(tmp_path):
    path = tmp_path / "sub" / "w.pdparams"
    w = pylayer.to_tensor([1.0, 2.0])
    started, release = threading.Event(), threading.Event()
    real_write = pylayer.framework.io._write

    def slow_write(data, target):
        started.set()
        release.wait(10)
        real_write(data, target)

    pylayer.framework.io._write = slow_write
    try:
        pylayer.async_save({"w": w}, str(path))
        assert started.wait(10) and not path.exists()     # written in the background
        w.set_value([5.0, 6.0])                          # training goes on
        threading.Timer(0.05, release.set).start()
        loaded = pylayer.load(str(path))                 # waits for the write
    finally:
        pylayer.framework.io._write = real_write
        release.set()
    np.testing.assert_array_equal(loaded["w"].numpy(), [1.0, 2.0])


def test_clear_async_save_task_queue_waits_and_reports_a_failed_write(tmp_path):
    buffer = io.BytesIO()
    pylayer.async_save(pylayer.ones([3]), buffer)
    pylayer.framework.async_save(pylayer.ones([1]), tmp_path / "b.pd", sync_other_task=True)
    pylayer.clear_async_save_task_queue()
    assert pickle.loads(buffer.getvalue())[1].tolist() == [1.0, 1.0, 1.0]
    assert (tmp_path / "b.pd").exists()
    (tmp_path / "taken").write_text("a file, not a directory")
    pylayer.async_save(pylayer.ones([1]), tmp_path / "taken" / "c.pd")
    with pytest.raises(RuntimeError, match=r"async_save\(\): writing '.*c\.pd' failed") as info:
        pylayer.framework.clear_async_save_task_queue()
    assert isinstance(info.value.__cause__, OSError)
    pylayer.clear_async_save_task_queue()           # reported once


def test_async_save_checks_its_arguments_at_the_call(tmp_path):
    with pytest.raises(TypeError, match=r"async_save\(\): argument 'obj' must be a Tensor or a "
                                        r"state dict, got list"):
        pylayer.async_save([pylayer.ones([1])], tmp_path / "l.pd")
    with pytest.raises(ValueError, match=r"async_save\(\): argument 'path'"):
        pylayer.async_save(pylayer.ones([1]), 7)
    with pytest.raises(TypeError, match=r"async_save\(\).*dtype uint16"):
        pylayer.async_save({"u": np.zeros(1, np.uint16)}, tmp_path / "u.pd")
    with pytest.warns(UserWarning, match=r"async_save\(\): keyword arguments \['foo'\] are "
                                         r"ignored"):
        pylayer.async_save(pylayer.ones([1]), tmp_path / "k.pd", foo=1)
    pylayer.clear_async_save_task_queue()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.pd"]
    made_before = pylayer.ones([1])
    pylayer.enable_static()
    try:
        with pytest.raises(ValueError, match=r"async_save\(\): static mode is not supported"):
            pylayer.async_save(made_before, tmp_path / "s.pd")
    finally:
        pylayer.disable_static()
