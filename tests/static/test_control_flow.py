"""Static control flow (``static.nn.cond``, ``while_loop``, ``case``, ``switch_case``).

``PADDLE`` holds what Paddle 3.3.1 (CPU) gives for the program built in
``_program()``: the same program was built and run with the scratch Paddle
(``paddle.enable_static()``, ``paddle.static.Executor().run``) for each feed
``x = sign * arange(6).reshape(2, 3) / 10`` and ``k``, and the fetched arrays
were rounded to 8 decimals and pasted here. Paddle returns None for the
gradient of a while loop's result with respect to a Variable the body reads
from outside the loop (``x`` in ``acc``); pylayer computes it (as PyTorch
would), checked against the closed form 3 x**2 below.
"""
import numpy as np
import pytest

import pylayer as paddle

PADDLE = {
    (1, 0): {
        'y': [[0.30000001, 0.30000001, 0.30000001], [1.20000005, 1.20000005, 1.20000005]],
        'gx': [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]],
        'gw': [[0.10000001, 0.10000001, 0.10000001], [0.16666667, 0.16666667, 0.16666667], [0.23333335, 0.23333335, 0.23333335]],
        'acc': [[0.0, 0.001, 0.008], [0.027, 0.064, 0.125]],
        'sc': [[1.0, 1.10000002, 1.20000005], [1.29999995, 1.39999998, 1.5]],
        'c': [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],
        'acc3': [[0.0, 1e-08, 2.56e-06], [6.561e-05, 0.00065536, 0.00390625]],
        'gx3': [[0.0, 8e-07, 0.0001024], [0.0017496, 0.0131072, 0.0625]],
    },
    (1, 1): {
        'y': [[0.30000001, 0.30000001, 0.30000001], [1.20000005, 1.20000005, 1.20000005]],
        'gx': [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]],
        'gw': [[0.10000001, 0.10000001, 0.10000001], [0.16666667, 0.16666667, 0.16666667], [0.23333335, 0.23333335, 0.23333335]],
        'acc': [[0.0, 0.001, 0.008], [0.027, 0.064, 0.125]],
        'sc': [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
        'c': [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],
        'acc3': [[0.0, 1e-08, 2.56e-06], [6.561e-05, 0.00065536, 0.00390625]],
        'gx3': [[0.0, 8e-07, 0.0001024], [0.0017496, 0.0131072, 0.0625]],
    },
    (1, 2): {
        'y': [[0.30000001, 0.30000001, 0.30000001], [1.20000005, 1.20000005, 1.20000005]],
        'gx': [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]],
        'gw': [[0.10000001, 0.10000001, 0.10000001], [0.16666667, 0.16666667, 0.16666667], [0.23333335, 0.23333335, 0.23333335]],
        'acc': [[0.0, 0.001, 0.008], [0.027, 0.064, 0.125]],
        'sc': [[0.0, 0.30000001, 0.60000002], [0.90000004, 1.20000005, 1.5]],
        'c': [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],
        'acc3': [[0.0, 1e-08, 2.56e-06], [6.561e-05, 0.00065536, 0.00390625]],
        'gx3': [[0.0, 8e-07, 0.0001024], [0.0017496, 0.0131072, 0.0625]],
    },
    (-1, 0): {
        'y': [[-4.5, -4.59966803, -4.6973753], [-4.79131269, -4.87994909, -4.9621172]],
        'gx': [[0.16666667, 0.16501105, 0.16017383], [0.15252283, 0.14260647, 0.13107462]],
        'gw': [[-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0]],
        'acc': [[-0.0, -0.001, -0.008], [-0.027, -0.064, -0.125]],
        'sc': [[1.0, 0.89999998, 0.80000001], [0.69999999, 0.60000002, 0.5]],
        'c': [[-1.0, -1.10000002, -1.20000005], [-1.29999995, -1.39999998, -1.5]],
        'acc3': [[0.0, 1e-08, 2.56e-06], [6.561e-05, 0.00065536, 0.00390625]],
        'gx3': [[0.0, -8e-07, -0.0001024], [-0.0017496, -0.0131072, -0.0625]],
    },
    (-1, 1): {
        'y': [[-4.5, -4.59966803, -4.6973753], [-4.79131269, -4.87994909, -4.9621172]],
        'gx': [[0.16666667, 0.16501105, 0.16017383], [0.15252283, 0.14260647, 0.13107462]],
        'gw': [[-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0]],
        'acc': [[-0.0, -0.001, -0.008], [-0.027, -0.064, -0.125]],
        'sc': [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
        'c': [[-1.0, -1.10000002, -1.20000005], [-1.29999995, -1.39999998, -1.5]],
        'acc3': [[0.0, 1e-08, 2.56e-06], [6.561e-05, 0.00065536, 0.00390625]],
        'gx3': [[0.0, -8e-07, -0.0001024], [-0.0017496, -0.0131072, -0.0625]],
    },
    (-1, 2): {
        'y': [[-4.5, -4.59966803, -4.6973753], [-4.79131269, -4.87994909, -4.9621172]],
        'gx': [[0.16666667, 0.16501105, 0.16017383], [0.15252283, 0.14260647, 0.13107462]],
        'gw': [[-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0]],
        'acc': [[-0.0, -0.001, -0.008], [-0.027, -0.064, -0.125]],
        'sc': [[0.0, -0.30000001, -0.60000002], [-0.90000004, -1.20000005, -1.5]],
        'c': [[-1.0, -1.10000002, -1.20000005], [-1.29999995, -1.39999998, -1.5]],
        'acc3': [[0.0, 1e-08, 2.56e-06], [6.561e-05, 0.00065536, 0.00390625]],
        'gx3': [[0.0, -8e-07, -0.0001024], [-0.0017496, -0.0131072, -0.0625]],
    },
}

NAMES = ["y", "gx", "gw", "acc", "sc", "c", "acc3", "gx3"]


def _program():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        w = paddle.static.create_parameter(
            [3, 3], "float32", name="w",
            default_initializer=paddle.nn.initializer.Constant(0.5))
        s = paddle.sum(x)
        y = paddle.static.nn.cond(s > 0, lambda: paddle.matmul(x, w) * 2.0,
                                  lambda: paddle.tanh(x) - w.sum())
        gx, gw = paddle.static.gradients(paddle.mean(y), [x, w])
        i = paddle.full([1], 0, "int64")
        n = paddle.full([1], 3, "int64")
        _, acc = paddle.static.nn.while_loop(lambda i, a: i < n,
                                             lambda i, a: [i + 1, a * x],
                                             [i, paddle.ones([2, 3])])
        (gx2,) = paddle.static.gradients(paddle.sum(acc), [x])
        _, acc3 = paddle.static.nn.while_loop(lambda i, a: i < n,
                                              lambda i, a: [i + 1, a * a], [i, x * 1.0])
        (gx3,) = paddle.static.gradients(paddle.sum(acc3), [x])
        k = paddle.static.data("k", [1], "int32")
        sc = paddle.static.nn.switch_case(k, {0: lambda: x + 1, 2: lambda: x * 3},
                                          default=lambda: x * 0)
        c = paddle.static.nn.case([(s > 1, lambda: x * 10), (s > -1, lambda: x * 100)],
                                  default=lambda: x - 1)
    return main, startup, [y, gx, gw, acc, sc, c, acc3, gx3], gx2


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def test_program_matches_paddle(static_mode):
    main, startup, fetch, gx2 = _program()
    exe = paddle.static.Executor()
    exe.run(startup)
    xv = np.arange(6, dtype="float32").reshape(2, 3) / 10
    for (sign, k), expected in PADDLE.items():
        got = exe.run(main, feed={"x": sign * xv, "k": np.array([k], "int32")},
                      fetch_list=fetch + [gx2])
        for name, value in zip(NAMES, got):
            np.testing.assert_allclose(value, expected[name], rtol=1e-5, atol=1e-7,
                                       err_msg=f"{name} for sign={sign}, k={k}")
        np.testing.assert_allclose(got[-1], 3 * (sign * xv) ** 2, rtol=1e-5)


def test_branches_are_sub_blocks(static_mode):
    main, _, _, _ = _program()
    assert main.num_blocks > 1
    cond_op = next(op for op in main.global_block().ops if op.type == "cond")
    assert cond_op.inputs[0].dtype == paddle.bool
    assert {v.name for v in cond_op.inputs} >= {"x", "w"}
    assert all(b.parent_idx >= 0 for b in main.blocks[1:])
    assert "block 1 (in block 0)" in str(main)


def test_nested_cond_and_shapes(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [-1], "float32")
        inner = lambda: paddle.static.nn.cond(paddle.mean(x) > 10, lambda: x * 0, lambda: x + 1)
        y = paddle.static.nn.cond(paddle.mean(x) > 0, inner, lambda: paddle.concat([x, x]))
        assert y.shape == [-1]
        none = paddle.static.nn.cond(paddle.mean(x) > 0)
    assert none is None
    exe = paddle.static.Executor()
    np.testing.assert_array_equal(exe.run(main, feed={"x": np.array([1., 2.], "float32")},
                                          fetch_list=[y])[0], [2., 3.])
    np.testing.assert_array_equal(exe.run(main, feed={"x": np.array([-1.], "float32")},
                                          fetch_list=[y])[0], [-1., -1.])


def test_cond_returning_outer_variable_and_lists(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        a, b = paddle.static.nn.cond(x.sum() > 0, lambda: [x, x * 2], lambda: [x * 3, x])
    exe = paddle.static.Executor()
    got = exe.run(main, feed={"x": np.array([1., 2.], "float32")}, fetch_list=[a, b])
    np.testing.assert_array_equal(got[0], [1., 2.])
    np.testing.assert_array_equal(got[1], [2., 4.])


def test_static_errors(static_mode):
    with paddle.static.program_guard(paddle.static.Program()):
        x = paddle.static.data("x", [2], "float32")
        with pytest.raises(TypeError, match="cond.*'pred'.*bool"):
            paddle.static.nn.cond(x.sum(), lambda: x, lambda: x)
        with pytest.raises(ValueError, match="true_fn returns None"):
            paddle.static.nn.cond(x.sum() > 0, None, lambda: x)
        with pytest.raises(ValueError, match="same structure"):
            paddle.static.nn.cond(x.sum() > 0, lambda: [x, x], lambda: x)
        with pytest.raises(TypeError, match="dtype"):
            paddle.static.nn.cond(x.sum() > 0, lambda: x, lambda: paddle.cast(x, "int32"))
        with pytest.raises(TypeError, match="switch_case.*branch_index"):
            paddle.static.nn.switch_case(x, [lambda: x])
        with pytest.raises(ValueError, match="as many values"):
            paddle.static.nn.while_loop(lambda a: a.sum() < 3, lambda a: [a, a], [x])


def test_dynamic_mode_runs_eagerly():
    # Paddle: while_loop writes the final values into the given Tensors and returns
    # the same list; cond with a missing branch returns None; cond does not check
    # the predicate's dtype in dynamic mode.
    i = paddle.full([1], 0, "int64")
    t = paddle.to_tensor([1.0])
    loop_vars = [i, t]
    out = paddle.static.nn.while_loop(lambda i, t: i < 3, lambda i, t: [i + 1, t * 2],
                                      loop_vars)
    assert out is loop_vars and out[0] is i
    assert i.item() == 3 and t.item() == 8.0
    assert paddle.static.nn.cond(paddle.to_tensor(True), lambda: 1, None) == 1
    assert paddle.static.nn.cond(paddle.to_tensor(False), lambda: 1, None) is None
    assert paddle.static.nn.cond(paddle.to_tensor([1.0]), lambda: 1, lambda: 2) == 1
    x = paddle.to_tensor([0.25])
    assert paddle.static.nn.case([(x > 0.5, lambda: 1)]) == 1
    assert paddle.static.nn.switch_case(paddle.to_tensor([2]), [lambda: 0, lambda: 1]) == 1
    assert paddle.static.nn.switch_case(paddle.to_tensor([5]), [(1, lambda: "a"),
                                                              (3, lambda: "b")],
                                        default=lambda: "d") == "d"


def test_dynamic_gradient_through_cond():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.static.nn.cond(x.sum() > 0, lambda: (x * x).sum(), lambda: x.sum())
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_dynamic_errors():
    x = paddle.to_tensor([True, False])
    with pytest.raises(ValueError, match="cond.*one element"):
        paddle.static.nn.cond(x, lambda: 1, lambda: 2)
    with pytest.raises(ValueError, match="loop_vars.*empty"):
        paddle.static.nn.while_loop(lambda: True, lambda: [], [])
    with pytest.raises(TypeError, match="while_loop.*'cond'.*callable"):
        paddle.static.nn.while_loop(1, lambda i: i, [x])
    with pytest.raises(TypeError, match="case.*'default'.*callable"):
        paddle.static.nn.case([(paddle.to_tensor(True), lambda: 1)], default=3)
    with pytest.raises(TypeError, match="case.*tuple"):
        paddle.static.nn.case([[paddle.to_tensor(True), lambda: 1]])
    with pytest.raises(ValueError, match="key 1 appears more than once"):
        paddle.static.nn.switch_case(paddle.to_tensor([1]), [(1, lambda: 1), (1, lambda: 2)])
    with pytest.raises(TypeError, match="keys.*ints"):
        paddle.static.nn.switch_case(paddle.to_tensor([1]), {"a": lambda: 1})


# ------------------------------------------------------------ tensor arrays
def test_array_in_while_loop(static_mode):
    # Paddle 3.3.1 (PIR) gives last = [8, 16], length 4, i = 3 for this program; it
    # crashes when asked for the gradient, and its old IR returns [8, 16] for it,
    # where d mean((8 x)**2) / dx = 64 x = [64, 128] (what pylayer gives).
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        x.stop_gradient = False
        i = paddle.zeros([1], "int64")
        arr = paddle.static.create_array("float32")
        arr = paddle.static.array_write(x, i, arr)

        def body(i, arr):
            prev = paddle.static.array_read(arr, i)
            return [i + 1, paddle.static.array_write(prev * 2.0, i + 1, arr)]
        i2, arr2 = paddle.static.nn.while_loop(lambda i, arr: i < 3, body, [i, arr])
        last = paddle.static.array_read(arr2, i2)
        n = paddle.static.array_length(arr2)
        (g,) = paddle.static.gradients(paddle.mean(last * last), [x])
    assert last.shape == [2] and n.shape == [1] and n.dtype == paddle.int64
    got = paddle.static.Executor().run(main, feed={"x": np.array([1., 2.], "float32")},
                                       fetch_list=[last, n, i2, g, arr2])
    np.testing.assert_array_equal(got[0], [8., 16.])
    assert got[1].tolist() == [4] and got[2].tolist() == [3]
    np.testing.assert_allclose(got[3], [64., 128.])
    assert [a.tolist() for a in got[4]] == [[1., 2.], [2., 4.], [4., 8.], [8., 16.]]


def test_outer_array_written_in_loop_and_branch(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [1], "float32")
        arr = paddle.static.create_array("float32", [x])

        def body(i):
            paddle.static.array_write(x * paddle.cast(i, "float32"), i, arr)
            return [i + 1]
        (i,) = paddle.static.nn.while_loop(lambda i: i < 4, body, [paddle.ones([1], "int64")])

        def write_negative():
            paddle.static.array_write(-x, i, arr)
        paddle.static.nn.cond(paddle.mean(x) > 0, write_negative)
        n = paddle.static.array_length(arr)
    exe = paddle.static.Executor()
    got = exe.run(main, feed={"x": np.array([2.], "float32")}, fetch_list=[arr, n])
    assert [a.item() for a in got[0]] == [2., 2., 4., 6., -2.] and got[1].tolist() == [5]
    got = exe.run(main, feed={"x": np.array([-1.], "float32")}, fetch_list=[n])
    assert got[0].tolist() == [4]


def test_arrays_in_dynamic_mode():
    # Paddle: a list in dynamic mode; array_length gives an int
    arr = paddle.static.create_array("float32", [paddle.ones([2])])
    assert isinstance(arr, list)
    assert paddle.static.array_length(arr) == 1
    out = paddle.static.array_write(paddle.zeros([2]), paddle.to_tensor([1]), arr)
    assert out is arr and len(arr) == 2
    assert paddle.static.array_read(arr, paddle.to_tensor([0])).numpy().tolist() == [1., 1.]
    new = paddle.static.array_write(paddle.zeros([1]), paddle.to_tensor([0]))
    assert isinstance(new, list) and len(new) == 1


def test_array_errors():
    arr = paddle.static.create_array("float32")
    with pytest.raises(IndexError, match="array_write.*index 3"):
        paddle.static.array_write(paddle.ones([1]), paddle.to_tensor([3]), arr)
    with pytest.raises(IndexError, match="array_read.*index 0"):
        paddle.static.array_read(arr, paddle.to_tensor([0]))
    with pytest.raises(ValueError, match="array_write.*'i'.*shape \\[1\\]"):
        paddle.static.array_write(paddle.ones([1]), paddle.to_tensor([0, 1]), arr)
    with pytest.raises(TypeError, match="array_read.*'array'.*list"):
        paddle.static.array_read(paddle.ones([2]), paddle.to_tensor([0]))
    with pytest.raises(TypeError, match="create_array.*'initialized_list'"):
        paddle.static.create_array("float32", paddle.ones([2]))
    with pytest.raises(TypeError, match="array_length.*'array'"):
        paddle.static.array_length(3)
