"""The plan's array path: programs of elementwise float math without gradients run as
numpy calls into buffers allocated once, with exactly the results of the same ops in
dynamic mode; the plan is remade when the program changes."""
import threading

import numpy as np
import pytest

import pylayer as paddle
from pylayer.static._array_plan import BINARY, UNARY
from pylayer.static._executor import _plan_of

EDGES = np.array([0.0, -0.0, 1.5, -2.25, 1e-30, 88.0, 1e30, -1e30, np.inf, -np.inf, np.nan,
                  3.0e38, -700.0, 710.0, 0.5, 2.0])


def dynamic(fn, *arrays):
    return fn(*[paddle.to_tensor(a) for a in arrays]).numpy()


UNARY_OPS = [paddle.tanh, paddle.exp, paddle.sqrt, paddle.neg, paddle.square, paddle.sin,
             paddle.cos]
BINARY_OPS = [paddle.add, paddle.subtract, paddle.multiply, paddle.divide]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", UNARY_OPS + BINARY_OPS, ids=lambda f: f.__name__)
def test_each_resolved_op_gives_what_it_gives_in_dynamic_mode(static, exe, dtype, fn):
    values = [EDGES.astype(dtype), np.roll(EDGES, 5).astype(dtype)]
    arity = 2 if fn in BINARY_OPS else 1
    inputs = [paddle.static.data(name, [EDGES.size], dtype) for name in "ab"[:arity]]
    out = fn(*inputs)
    assert _plan_of(static[0]).arrays is not None
    feed = dict(zip("ab"[:arity], values))
    paddle.disable_static()
    want = dynamic(fn, *values[:arity])
    paddle.enable_static()
    for _ in range(2):                      # the second run reuses the buffers
        (got,) = exe.run(feed=feed, fetch_list=[out])
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_the_table_covers_the_ops_the_tests_check():
    assert len(UNARY) == len(UNARY_OPS) and len(BINARY) == len(BINARY_OPS)


def test_a_chain_reuses_its_buffers_and_hands_out_copies(static, exe):
    x = paddle.static.data("x", [8], "float32")
    y = x
    for _ in range(5):
        y = paddle.tanh(y) * y
    first = exe.run(feed={"x": np.full(8, 0.5, "float32")}, fetch_list=[y])[0]
    kept = first.copy()
    second = exe.run(feed={"x": np.full(8, 2.0, "float32")}, fetch_list=[y])[0]
    np.testing.assert_array_equal(first, kept)          # not overwritten by the next run
    assert not np.array_equal(first, second)
    first[:] = 7                                         # the caller's to change
    np.testing.assert_array_equal(exe.run(feed={"x": np.full(8, 2.0, "float32")},
                                          fetch_list=[y])[0], second)


def test_unknown_sizes_are_computed_into_fresh_arrays(static, exe):
    x = paddle.static.data("x", [-1, 3], "float64")
    y = paddle.exp(paddle.neg(x))
    assert _plan_of(static[0]).arrays is not None
    for rows in (1, 4):
        data = np.arange(rows * 3, dtype="float64").reshape(rows, 3)
        np.testing.assert_array_equal(exe.run(feed={"x": data}, fetch_list=[y])[0],
                                      np.exp(-data))


@pytest.mark.parametrize("build", [
    lambda x, y: paddle.nn.functional.sigmoid(x),      # no numpy step of its own
    lambda x, y: x + y,                                 # broadcasting [4] with [1]
    lambda x, y: paddle.tanh(x).reshape([2, 2]),        # a reshape
    lambda x, y: x * 2.0,                               # a number operand
])
def test_other_programs_keep_the_general_path(static, exe, build):
    x = paddle.static.data("x", [4], "float32")
    y = paddle.static.data("y", [1], "float32")
    out = build(x, y)
    assert _plan_of(static[0]).arrays is None
    feed = {"x": np.linspace(-1, 1, 4).astype("float32"), "y": np.ones(1, "float32")}
    paddle.disable_static()
    want = build(paddle.to_tensor(feed["x"]), paddle.to_tensor(feed["y"])).numpy()
    paddle.enable_static()
    np.testing.assert_array_equal(exe.run(feed=feed, fetch_list=[out])[0], want)


def test_the_plan_is_remade_when_the_program_changes(static, exe):
    main = static[0]
    x = paddle.static.data("x", [3], "float32")
    y = paddle.tanh(x)
    feed = {"x": np.array([0.0, 1.0, 2.0], "float32")}
    np.testing.assert_allclose(exe.run(feed=feed, fetch_list=[y])[0], np.tanh(feed["x"]))
    plan = _plan_of(main)
    z = paddle.exp(y)                                   # one more op: a new plan
    np.testing.assert_allclose(exe.run(feed=feed, fetch_list=[z])[0],
                               np.exp(np.tanh(feed["x"])), rtol=1e-6)
    assert _plan_of(main) is not plan and len(_plan_of(main).arrays.fresh) == 2
    x.stop_gradient = False                             # gradients now: the general path
    grads = paddle.static.gradients([z], [x])
    assert _plan_of(main).arrays is None
    got, grad = exe.run(feed=feed, fetch_list=[z, grads[0]])
    np.testing.assert_allclose(got, np.exp(np.tanh(feed["x"])), rtol=1e-6)
    t = np.tanh(feed["x"])
    np.testing.assert_allclose(grad, np.exp(t) * (1 - t * t), rtol=1e-5)


def test_runs_in_threads_at_once_each_get_their_own_results(static, exe):
    x = paddle.static.data("x", [64], "float64")
    y = x
    for _ in range(50):
        y = paddle.sin(y) + x
    program = static[0]
    results, errors = {}, []

    def worker(k):
        try:
            data = np.full(64, k / 10.0)
            for _ in range(20):
                results[k] = exe.run(program, feed={"x": data}, fetch_list=[y])[0]
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(4):
        want = np.full(64, k / 10.0)
        value = want
        for _ in range(50):
            value = np.sin(value) + want
        np.testing.assert_array_equal(results[k], value)
