"""The pool of large dead buffers: reused only when nothing can reach them, bounded, switchable."""
import subprocess
import sys
import textwrap
import weakref

import numpy as np
import pytest

import pylayer as paddle
from pylayer import device
from pylayer._kernels.buffers import Block

SHAPE = [512, 512]          # 1 MB of float32: above the pool's minimum size
SMALL = [256, 64]           # 64 KB of float32: a layer's activations, pooled too


@pytest.fixture(autouse=True)
def empty_pool():
    device.empty_cache()
    yield
    device.empty_cache()


def address(t):
    return t.numpy().ctypes.data


def dead_buffer_address(shape=SHAPE):
    """Let an op's large result die, and return where its data was."""
    t = paddle.tanh(paddle.zeros(shape))
    where = address(t)
    del t
    return where


@pytest.mark.parametrize("shape", [SHAPE, SMALL], ids=["1 MB", "64 KB"])
def test_a_dead_tensors_buffer_holds_the_next_result_of_its_size(shape):
    where = dead_buffer_address(shape)
    before = device.memory_stats()
    result = paddle.tanh(paddle.zeros(shape))
    assert address(result) == where
    assert device.memory_stats()["hits"] == before["hits"] + 1
    np.testing.assert_array_equal(result.numpy(), 0.0)


def test_results_of_every_pooled_path_are_right():
    rng = np.random.default_rng(0)
    a = rng.uniform(0.5, 1.5, SHAPE).astype("float32")
    b = rng.uniform(0.5, 1.5, SHAPE).astype("float32")
    checks = [(lambda x, y: x + y, a + b), (lambda x, y: x - y, a - b),
              (lambda x, y: x * y, a * b), (lambda x, y: x / y, a / b),
              (lambda x, y: 2.0 - x, 2.0 - a), (lambda x, y: paddle.tanh(x), np.tanh(a)),
              (lambda x, y: paddle.exp(x), np.exp(a)), (lambda x, y: paddle.log(x), np.log(a)),
              (lambda x, y: paddle.sqrt(x), np.sqrt(a)), (lambda x, y: -x, -a),
              (lambda x, y: paddle.nn.functional.relu(x - y), np.maximum(a - b, 0))]
    for op, expected in checks:
        for _ in range(3):
            dead_buffer_address()
            result = op(paddle.to_tensor(a), paddle.to_tensor(b))
            np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6)
    assert device.memory_stats()["hits"] > 0


def test_relu_of_a_large_integer_tensor_keeps_its_dtype():
    x = paddle.to_tensor(np.arange(-2 ** 17, 2 ** 17, dtype="int32"))   # 1 MB
    out = paddle.nn.functional.relu(x)
    assert out.numpy().dtype == np.int32
    np.testing.assert_array_equal(out.numpy(), np.maximum(x.numpy(), 0))


@pytest.mark.parametrize("shape", [SHAPE, SMALL], ids=["1 MB", "64 KB"])
def test_an_array_the_user_holds_is_never_reused(shape):
    t = paddle.exp(paddle.zeros(shape))
    held = t.numpy()
    del t
    for _ in range(3):
        paddle.tanh(paddle.zeros(shape))
    np.testing.assert_array_equal(held, 1.0)


@pytest.mark.parametrize("keep", [lambda a: a[::2], lambda a: a.reshape(-1), lambda a: a.T,
                                  memoryview, lambda a: np.frombuffer(a, np.float32)],
                         ids=["strided view", "reshaped view", "transpose", "memoryview",
                              "frombuffer"])
@pytest.mark.parametrize("shape", [SHAPE, SMALL], ids=["1 MB", "64 KB"])
def test_memory_reachable_through_a_view_is_never_reused(keep, shape):
    t = paddle.exp(paddle.zeros(shape))
    view = keep(t.numpy())
    del t
    for _ in range(3):
        paddle.tanh(paddle.zeros(shape))
    np.testing.assert_array_equal(np.asarray(view), 1.0)


def test_memory_returns_only_when_the_last_array_using_it_is_gone():
    t = paddle.exp(paddle.zeros(SHAPE))
    array = t.numpy()
    ref = weakref.ref(array)
    kept = device.memory_stats()["kept"]
    del t
    assert device.memory_stats()["kept"] == kept       # the array still uses it
    del array
    assert ref() is None and device.memory_stats()["kept"] == kept + 1


def test_tensors_sharing_an_array_keep_it_out_of_the_pool():
    t = paddle.exp(paddle.zeros(SHAPE))
    other = t.detach()
    del t
    for _ in range(3):
        paddle.tanh(paddle.zeros(SHAPE))
    np.testing.assert_array_equal(other.numpy(), 1.0)


@pytest.mark.parametrize("shape", [SHAPE, SMALL], ids=["1 MB", "64 KB"])
def test_saved_outputs_stay_intact_until_backward_and_return_to_the_pool_after(shape):
    x = paddle.to_tensor(np.full(shape, 0.5, np.float32), stop_gradient=False)
    y = paddle.tanh(x)
    expected = 1 - np.tanh(np.float32(0.5)) ** 2
    loss = y.sum()
    del y
    for _ in range(3):
        paddle.exp(paddle.zeros(shape))      # would take the saved output if it were free
    kept = device.memory_stats()["kept"]
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6)
    del loss
    assert device.memory_stats()["kept"] > kept


def test_a_64_kb_product_takes_pooled_memory_that_a_held_product_keeps():
    rng = np.random.default_rng(1)
    a = paddle.to_tensor(rng.standard_normal((256, 32)).astype("float32"))
    b = paddle.to_tensor(rng.standard_normal((32, 64)).astype("float32"))
    expected = a.numpy() @ b.numpy()
    held = paddle.matmul(a, b).numpy()               # [256, 64] float32: 64 KB
    assert isinstance(held.base, Block)
    where = address(paddle.matmul(a, b))             # dies at once: back to the pool
    hits = device.memory_stats()["hits"]
    again = paddle.matmul(a, b)
    assert address(again) == where != held.ctypes.data
    assert device.memory_stats()["hits"] == hits + 1
    np.testing.assert_allclose(again.numpy(), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(held, expected, rtol=1e-5, atol=1e-5)


def leave_dead_sevens(shape, count=4):
    """Give the pool dead memory of ``shape``'s float32 size that holds sevens, not zeros."""
    sevens = [paddle.exp(paddle.full(shape, float(np.log(7.0)))) for _ in range(count)]
    del sevens


@pytest.mark.parametrize("shape", [SHAPE, SMALL], ids=["1 MB", "64 KB"])
def test_activation_gradients_on_reused_memory_are_numpys(shape):
    rng = np.random.default_rng(2)
    a = rng.uniform(-2, 2, shape).astype("float32")
    g = rng.uniform(-1, 1, shape).astype("float32")
    x = paddle.to_tensor(a, stop_gradient=False)
    rules = [(paddle.tanh, lambda y: g * (1 - y * y)),
             (paddle.nn.functional.sigmoid, lambda y: g * y * (1 - y)),
             (paddle.nn.functional.relu, lambda y: np.where(y > 0, g, 0).astype("float32"))]
    for forward, gradient in rules:
        y = forward(x)
        leave_dead_sevens(shape)
        (gx,) = paddle.grad(y, x, paddle.to_tensor(g))
        np.testing.assert_array_equal(gx.numpy(), gradient(y.numpy()))


@pytest.mark.parametrize("shape", [SHAPE, SMALL], ids=["1 MB", "64 KB"])
def test_tanhs_second_derivative_on_reused_memory_is_right(shape):
    rng = np.random.default_rng(3)
    a = rng.uniform(-2, 2, shape).astype("float32")
    x = paddle.to_tensor(a, stop_gradient=False)
    (gx,) = paddle.grad(paddle.tanh(x).sum(), x, create_graph=True)
    leave_dead_sevens(shape)
    (second,) = paddle.grad(gx.sum(), x)
    y = np.tanh(a)
    np.testing.assert_allclose(second.numpy(), -2 * y * (1 - y * y), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [SHAPE, SMALL], ids=["1 MB", "64 KB"])
def test_link_zeros_on_reused_memory_are_zeros(shape):
    # Paddle's rule: a gradient differentiated again gives its kept inputs zeros.
    x = paddle.to_tensor(np.ones(shape, np.float32), stop_gradient=False)
    y = paddle.to_tensor(np.full(shape, 3.0, np.float32), stop_gradient=False)
    (gx,) = paddle.grad(x * y, [x], create_graph=True)
    leave_dead_sevens(shape)
    hits = device.memory_stats()["hits"]
    found = paddle.grad(gx.sum(), [x, y], allow_unused=True)
    assert device.memory_stats()["hits"] > hits
    np.testing.assert_array_equal(found[0].numpy(), 0.0)
    np.testing.assert_array_equal(found[1].numpy(), 1.0)


def test_small_arrays_are_not_pooled():
    kept = device.memory_stats()["kept"]
    t = paddle.ones([8])
    del t
    assert device.memory_stats()["kept"] == kept


def test_only_memory_the_pool_gave_out_comes_back():
    made_outside = paddle.to_tensor(np.ones(SHAPE, np.float32))
    kept = device.memory_stats()["kept"]
    del made_outside
    assert device.memory_stats()["kept"] == kept
    op_result = paddle.exp(paddle.zeros(SHAPE))
    del op_result
    assert device.memory_stats()["kept"] == kept + 1


def test_the_cap_bounds_what_the_pool_holds_and_empty_cache_frees_it():
    previous = device.set_pool_limit(2 * 2 ** 20)
    try:
        tensors = [paddle.tanh(t) for t in [paddle.zeros(SHAPE) for _ in range(4)]]
        del tensors
        stats = device.memory_stats()
        assert stats["pooled_bytes"] <= 2 * 2 ** 20 and stats["dropped"] >= 2
        device.empty_cache()
        assert device.memory_stats()["pooled_bytes"] == 0
    finally:
        device.set_pool_limit(previous)
    with pytest.raises(ValueError, match="set_pool_limit"):
        device.set_pool_limit(-1)


def test_the_environment_switch_turns_the_pool_off():
    code = textwrap.dedent("""
        import pylayer
        t = pylayer.ones([512, 512]); where = t.numpy().ctypes.data; del t
        r = pylayer.tanh(pylayer.zeros([512, 512]))
        stats = pylayer.device.memory_stats()
        print(stats["enabled"], stats["kept"], stats["hits"])
        """)
    env = {"PYLAYER_BUFFER_POOL": "0", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "0", "0"]
