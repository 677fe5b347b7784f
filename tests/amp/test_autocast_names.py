"""The PyTorch-style autocast names Paddle 3.3.1 has at top level: ``paddle.autocast``,
``is_autocast_enabled``, ``get_autocast_dtype``, ``get_autocast_cpu_dtype`` and
``get_autocast_gpu_dtype``, over pylayer.amp's state. Paddle's behaviour was observed on
its CPU build, which ignores auto_cast (``is_autocast_enabled()`` stays False there);
pylayer computes in bfloat16 on the CPU, as Paddle does on a device that has it."""
import inspect
import warnings

import pytest

import pylayer


def test_the_names_are_paddle_amps_objects():
    for name in ("is_autocast_enabled", "get_autocast_dtype", "get_autocast_cpu_dtype",
                 "get_autocast_gpu_dtype"):
        assert getattr(pylayer, name) is getattr(pylayer.amp, name)
    # In Paddle the three dtype queries are one function.
    assert pylayer.get_autocast_cpu_dtype is pylayer.get_autocast_dtype
    assert pylayer.get_autocast_gpu_dtype is pylayer.get_autocast_dtype
    assert "autocast" not in pylayer.amp.__all__          # paddle.amp has no autocast
    assert list(inspect.signature(pylayer.autocast).parameters) == [
        "device_type", "dtype", "enabled", "cache_enabled"]
    assert inspect.signature(pylayer.autocast).parameters["device_type"].default \
        is inspect.Parameter.empty


def test_outside_any_auto_cast():
    assert pylayer.is_autocast_enabled() is False
    assert pylayer.get_autocast_dtype() == "float16"      # Paddle's default, a str
    assert pylayer.get_autocast_gpu_dtype("gpu") == "float16"   # device_type is ignored


def test_autocast_is_auto_cast_at_o1():
    x, w = pylayer.ones([2, 3]), pylayer.ones([3, 4])
    with pylayer.autocast("cpu", dtype=pylayer.bfloat16):
        assert pylayer.is_autocast_enabled("cuda") is True
        assert pylayer.get_autocast_dtype() == "bfloat16"
        assert pylayer.get_autocast_cpu_dtype() == "bfloat16"
        assert pylayer.matmul(x, w).dtype == pylayer.bfloat16
        assert pylayer.exp(x).dtype == pylayer.float32
    assert pylayer.is_autocast_enabled() is False
    with pylayer.autocast(None, dtype="bfloat16", enabled=False):
        assert pylayer.is_autocast_enabled() is False
        assert pylayer.matmul(x, w).dtype == pylayer.float32
    with pylayer.amp.auto_cast(dtype="bfloat16"):
        with pylayer.autocast("cpu", dtype="bfloat16", enabled=False):   # nests
            assert pylayer.is_autocast_enabled() is False
        assert pylayer.is_autocast_enabled() is True


def test_float16_warns_and_changes_nothing_as_paddle_does_on_a_cpu():
    with pytest.warns(UserWarning, match="float16"):
        with pylayer.autocast("cpu"):
            assert pylayer.is_autocast_enabled() is False
            assert pylayer.get_autocast_dtype() == "float16"


def test_bad_arguments():
    with pytest.raises(TypeError, match="device_type"):
        pylayer.autocast()
    with pytest.raises(ValueError, match=r"autocast\(\).*'float16' or 'bfloat16'.*float32"):
        pylayer.autocast("cpu", dtype="float32")
    with pytest.raises(TypeError, match=r"autocast\(\): argument 'dtype'.*int"):
        pylayer.autocast("cpu", dtype=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Paddle raises KeyError here (a bug); disabled, any dtype is fine.
        with pylayer.autocast("cpu", dtype="float32", enabled=False):
            assert pylayer.is_autocast_enabled() is False
