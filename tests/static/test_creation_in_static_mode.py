"""In static mode the creation ops record into the Program being built, as in Paddle 3.3.1:
``paddle.full`` inside ``program_guard`` gives a Variable of the program, computed at
each run (a random one draws anew), which other ops and static_pylayer take."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.static import Variable

# (call, shape, dtype) as Paddle 3.3.1 gives them inside program_guard in static mode.
CREATIONS = [
    (lambda: paddle.full([2, 3], 1.5), [2, 3], paddle.float32),
    (lambda: paddle.zeros([2]), [2], paddle.float32),
    (lambda: paddle.ones([2], "int64"), [2], paddle.int64),
    (lambda: paddle.arange(4), [4], paddle.int64),
    (lambda: paddle.eye(2), [2, 2], paddle.float32),
    (lambda: paddle.rand([2]), [2], paddle.float32),
    (lambda: paddle.randn([2]), [2], paddle.float32),
    (lambda: paddle.randint(0, 5, [3]), [3], paddle.int64),
    (lambda: paddle.uniform([2]), [2], paddle.float32),
    (lambda: paddle.normal(shape=[2]), [2], paddle.float32),
    (lambda: paddle.empty([2]), [2], paddle.float32),
    (lambda: paddle.to_tensor([1.0, 2.0]), [2], paddle.float32),
    (lambda: paddle.linspace(0, 1, 3), [3], paddle.float32),
]


@pytest.fixture
def static():
    paddle.enable_static()
    yield paddle.static.Program(), paddle.static.Program()
    paddle.disable_static()


def run(main, fetch, **feed):
    return paddle.static.Executor(paddle.CPUPlace()).run(main, feed=feed, fetch_list=fetch)


@pytest.mark.parametrize("make, shape, dtype", CREATIONS,
                         ids=[str(i) for i in range(len(CREATIONS))])
def test_a_creation_op_gives_a_variable_of_the_program(static, make, shape, dtype):
    main, startup = static
    with paddle.static.program_guard(main, startup):
        made = make()
    assert isinstance(made, Variable) and made.block.program is main
    assert (made.shape, made.dtype, made.stop_gradient) == (shape, dtype, True)
    value, = run(main, [made])
    assert list(value.shape) == shape


def test_a_constant_of_the_program_computes_and_combines_with_data(static):
    main, startup = static
    with paddle.static.program_guard(main, startup):
        f = paddle.full([2, 3], 1.5)
        x = paddle.static.data("x", [2, 3], "float32")
        y = x * f
        a = paddle.arange(4)
    got_f, got_y, got_a = run(main, [f, y, a], x=np.ones([2, 3], "float32"))
    np.testing.assert_array_equal(got_f, np.full([2, 3], 1.5))
    np.testing.assert_array_equal(got_y, np.full([2, 3], 1.5))
    np.testing.assert_array_equal(got_a, [0, 1, 2, 3])


def test_static_pylayer_takes_a_created_constant(static):
    main, startup = static
    with paddle.static.program_guard(main, startup):
        f = paddle.full([2, 3], 1.5)
        out = paddle.static.nn.static_pylayer(lambda a: a * 2, [f])
    assert isinstance(out, Variable)
    np.testing.assert_array_equal(run(main, [out])[0], np.full([2, 3], 3.0))


def test_a_random_creation_draws_anew_at_each_run(static):
    main, startup = static
    with paddle.static.program_guard(main, startup):
        r = paddle.rand([8])
    first, = run(main, [r])
    second, = run(main, [r])
    assert not np.array_equal(first, second)
    assert ((0 <= first) & (first < 1)).all()


def test_outside_program_guard_the_default_program_records():
    paddle.enable_static()
    try:
        made = paddle.full([1], 2.0)
        assert isinstance(made, Variable)
        assert made.block.program is paddle.static.default_main_program()
    finally:
        paddle.disable_static()


def test_in_dynamic_mode_program_guard_changes_nothing():
    with paddle.static.program_guard(paddle.static.Program()):
        made = paddle.full([1], 2.0)
    assert isinstance(made, paddle.Tensor) and made.numpy().tolist() == [2.0]


def test_ops_run_by_a_program_make_tensors(static):
    # Python code that runs when the program runs (a static_pylayer's forward, a
    # py_func) makes Tensors: the creation op is part of the operator's computation.
    main, startup = static
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2], "float32")
        out = paddle.static.nn.static_pylayer(lambda a: a * paddle.full([2], 3.0), [x])
    assert [op.type for op in main.global_block().ops] == ["static_pylayer"]
    np.testing.assert_array_equal(run(main, [out], x=np.ones(2, "float32"))[0], [3.0, 3.0])


def test_a_tensors_set_value_in_static_mode_still_sets_it(static):
    t = paddle.Tensor(np.ones(2, "float32"))
    t.set_value([3.0, 4.0])
    assert isinstance(t, paddle.Tensor) and t.numpy().tolist() == [3.0, 4.0]
