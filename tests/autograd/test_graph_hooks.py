"""pylayer.autograd.graph: save_on_disk, save_as, disable_saved_tensors_hooks."""
import gc
import os
import tracemalloc

import numpy as np
import pytest

import pylayer as paddle
from pylayer._core.graph import current_saved_tensors_hooks
from pylayer.autograd import PyLayer, saved_tensors_hooks
from pylayer.autograd.graph import disable_saved_tensors_hooks, save_as, save_on_disk


def leaf(values, dtype="float64"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


def npy_files(directory):
    return sorted(name for name in os.listdir(directory) if name.endswith(".npy"))


class Mul(PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, dy):
        a, b = ctx.saved_tensor()
        return dy * b, dy * a


# ------------------------------------------------------------------ save_on_disk
def test_save_on_disk_writes_npy_files_into_the_directory_and_removes_them_after_backward(tmp_path):
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    with save_on_disk(tmp_path) as hooks:
        assert isinstance(hooks, saved_tensors_hooks)
        y = Mul.apply(a, b) + paddle.tanh(a)
    files = npy_files(tmp_path)
    assert len(files) == 3                           # a, b, and tanh's output
    contents = sorted(np.load(tmp_path / name).tolist() for name in files)
    expected = sorted([[1.0, 2.0], [3.0, 4.0], np.tanh([1.0, 2.0]).tolist()])
    np.testing.assert_allclose(contents, expected)
    y.sum().backward()
    assert npy_files(tmp_path) == [] and tmp_path.exists()
    np.testing.assert_allclose(a.grad.numpy(), [3.0, 4.0] + (1 - np.tanh([1.0, 2.0]) ** 2))
    np.testing.assert_allclose(b.grad.numpy(), [1.0, 2.0])


def test_save_on_disk_keeps_files_while_the_graph_is_retained_then_removes_them(tmp_path):
    x = leaf([0.5])
    with save_on_disk(tmp_path):
        y = paddle.tanh(paddle.tanh(x))
    y.backward(retain_graph=True)
    assert len(npy_files(tmp_path)) == 2
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (1 - np.tanh(np.tanh(0.5)) ** 2)
                               * (1 - np.tanh(0.5) ** 2))
    assert npy_files(tmp_path) == []

    with save_on_disk(tmp_path):
        y = paddle.tanh(x)
    assert len(npy_files(tmp_path)) == 1
    del y                                       # the graph is dropped without a backward
    assert npy_files(tmp_path) == []


def test_save_on_disk_makes_a_temporary_directory_and_removes_it_when_no_longer_needed():
    x = leaf([0.5, 1.5])
    hooks = save_on_disk()
    with hooks:
        y = paddle.exp(x)
    directory = hooks._spill.path
    assert len(npy_files(directory)) == 1
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.5, 1.5]))
    assert npy_files(directory) == []
    del hooks, y
    gc.collect()
    assert not os.path.exists(directory)


def test_save_on_disk_rejects_a_directory_that_is_not_a_path():
    with pytest.raises(TypeError, match="directory.*path.*int"):
        save_on_disk(3)


def _deep_chain_peak(make_hooks, depth=40, size=50_000):
    x = paddle.to_tensor(np.linspace(-1, 1, size), stop_gradient=False)
    gc.collect()
    paddle.device.empty_cache()        # measure from an empty buffer pool
    tracemalloc.start()
    try:
        with make_hooks():
            y = x
            for _ in range(depth):
                y = paddle.tanh(y)
        y.sum().backward()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, x.grad.numpy()


class _no_hooks:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_deep_chain_under_save_on_disk_peaks_at_less_than_half_the_memory(tmp_path):
    plain_peak, plain_grad = _deep_chain_peak(_no_hooks)
    disk_peak, disk_grad = _deep_chain_peak(lambda: save_on_disk(tmp_path))
    np.testing.assert_array_equal(disk_grad, plain_grad)
    assert plain_peak > 40 * 50_000 * 8           # every tanh output is kept in memory
    assert disk_peak < plain_peak / 2, (disk_peak, plain_peak)
    assert npy_files(tmp_path) == []


# ------------------------------------------------------------------ save_as
def test_save_as_stores_floating_tensors_in_the_given_dtype_and_restores_theirs():
    hooks = save_as("float16")
    third = paddle.to_tensor([1 / 3], dtype="float64")
    packed = hooks.pack_hook(third)
    assert packed[0].dtype == np.float16
    restored = hooks.unpack_hook(packed)
    assert restored.dtype == "float64"
    assert restored.item() == float(np.float16(1 / 3))

    counts = paddle.to_tensor([7], dtype="int64")
    assert hooks.unpack_hook(hooks.pack_hook(counts)).numpy().tolist() == [7]
    assert hooks.pack_hook(counts)[0].dtype == np.int64


def test_save_as_gradients_come_from_the_rounded_values():
    x = leaf([1 / 3, 2 / 3])
    with save_as(paddle.float16):
        y = x * x
    y.sum().backward()
    expected = 2 * np.float16([1 / 3, 2 / 3]).astype(np.float64)
    np.testing.assert_array_equal(x.grad.numpy(), expected)
    assert x.grad.dtype == "float64"
    assert not np.array_equal(x.grad.numpy(), 2 * np.array([1 / 3, 2 / 3]))


def test_save_as_needs_a_floating_dtype():
    with pytest.raises(ValueError, match="floating-point.*int32"):
        save_as("int32")
    with pytest.raises(TypeError):
        save_as("complex")


# ------------------------------------------------------------------ disable_saved_tensors_hooks
def test_disable_saved_tensors_hooks_refuses_hooks_inside_the_block_with_the_message():
    with disable_saved_tensors_hooks("no hooks in this feature"):
        with pytest.raises(RuntimeError, match="^no hooks in this feature$"):
            with save_on_disk():
                pass
        with pytest.raises(RuntimeError, match="no hooks in this feature"):
            with saved_tensors_hooks(lambda t: t, lambda p: p):
                pass
        assert current_saved_tensors_hooks() is None
        x = leaf([1.0])
        paddle.tanh(x).backward()            # ops work as usual
    with saved_tensors_hooks(lambda t: t, lambda p: p):   # allowed again afterwards
        assert current_saved_tensors_hooks() is not None


def test_disable_saved_tensors_hooks_refuses_to_start_while_hooks_are_active():
    with saved_tensors_hooks(lambda t: t, lambda p: p):
        with pytest.raises(RuntimeError, match="feature X cannot run under hooks"):
            with disable_saved_tensors_hooks("feature X cannot run under hooks"):
                pass


def test_nested_disable_blocks_restore_the_outer_message():
    with disable_saved_tensors_hooks("outer"):
        with disable_saved_tensors_hooks("inner"):
            with pytest.raises(RuntimeError, match="inner"):
                with save_as("float16"):
                    pass
        with pytest.raises(RuntimeError, match="outer"):
            with save_as("float16"):
                pass
    assert not disable_saved_tensors_hooks("probe").is_active()


def test_disable_saved_tensors_hooks_needs_a_string_message():
    with pytest.raises(TypeError, match="error_message.*str.*int"):
        disable_saved_tensors_hooks(5)


def test_ready_made_hooks_accept_a_saved_none():
    import pylayer as paddle
    from pylayer.autograd import PyLayer
    from pylayer.autograd.graph import save_as, save_on_disk

    class KeepsNone(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, None)
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            x, nothing = ctx.saved_tensor()
            assert nothing is None
            return dy * 2

    for hooks in (save_on_disk(), save_as("float16")):
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        with hooks:
            y = KeepsNone.apply(x)
        y.sum().backward()
        assert x.grad.numpy().tolist() == [2.0, 2.0]
