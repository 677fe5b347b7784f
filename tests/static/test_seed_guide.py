"""Seed 004, static-graph half: the guide's ``py_func`` examples, one test per example.

Each example's code is kept as the guide writes it (only ``import paddle``
becomes ``import pylayer as paddle``); what follows it in a test runs the
program and checks the numbers.
"""
import inspect

import numpy as np

FEED = np.random.default_rng(4).standard_normal([2, 28, 28]).astype("float32")


def _run(paddle, fetch_list, feed=None, program=None):
    exe = paddle.static.Executor(paddle.static.CPUPlace())
    return exe.run(program or paddle.static.default_main_program(),
                   feed={"input": FEED} if feed is None else feed, fetch_list=fetch_list)


def test_py_func_interface_sketch():
    def py_func(func, x, out, backward_func=None, skip_vars_in_backward_input=None):
        pass

    def unannotated(fn):  # the sketch's names, kinds and defaults; pylayer adds types
        signature = inspect.signature(fn)
        return signature.replace(
            parameters=[p.replace(annotation=p.empty) for p in signature.parameters.values()],
            return_annotation=signature.empty)

    import pylayer as paddle
    assert unannotated(paddle.static.nn.py_func) == inspect.signature(py_func)
    assert unannotated(paddle.static.py_func) == inspect.signature(py_func)


def test_forward_and_backward_function_examples(capsys):
    import numpy as np

    # 前向函数 1：模拟 tanh 激活函数
    def tanh(x):
        # 可以直接将 Tensor 作为 np.tanh 的输入参数
        return np.tanh(x)

    # 前向函数 2：将两个 2-D Tenosr 相加，输入多个 Tensor 以 list[Tensor]或 tuple(Tensor)形式
    def element_wise_add(x, y):
        # 必须先手动将 Tensor 转换为 numpy 数组，否则无法支持 numpy 的 shape 操作
        x = np.array(x)
        y = np.array(y)

        if x.shape != y.shape:
            raise AssertionError("the shape of inputs must be the same!")

        result = np.zeros(x.shape, dtype='int32')
        for i in range(len(x)):
            for j in range(len(x[0])):
                result[i][j] = x[i][j] + y[i][j]

        return result

    # 前向函数 3：可用于调试正在运行的网络（打印值）
    def debug_func(x):
        # 可以直接将 Tensor 作为 print 的输入参数
        print(x)

    # 前向函数 1 对应的反向函数，默认的输入顺序为：x、out、out 的梯度
    def tanh_grad(x, y, dy):
        # 必须先手动将 Tensor 转换为 numpy 数组，否则"+/-"等操作无法使用
        return np.array(dy) * (1 - np.square(np.array(y)))

    import pylayer as paddle
    paddle.enable_static()
    block = paddle.static.default_main_program().current_block()
    x = paddle.static.data(name="x", shape=[2, 3], dtype="float32")
    x.stop_gradient = False
    a = paddle.static.data(name="a", shape=[2, 3], dtype="int32")
    b = paddle.static.data(name="b", shape=[2, 3], dtype="int32")
    y = block.create_var(name="y", dtype="float32", shape=[2, 3])
    total = block.create_var(name="total", dtype="int32", shape=[2, 3])
    paddle.static.nn.py_func(func=tanh, x=x, out=y, backward_func=tanh_grad)
    paddle.static.nn.py_func(func=element_wise_add, x=[a, b], out=total)
    paddle.static.nn.py_func(func=debug_func, x=a, out=None)
    dx, = paddle.static.gradients(paddle.sum(y), x)

    xv = np.array([[0.0, 0.5, -1.0], [2.0, -0.25, 1.0]], "float32")
    av = np.array([[1, 2, 3], [4, 5, 6]], "int32")
    bv = np.array([[10, 20, 30], [40, 50, 60]], "int32")
    got_y, got_total, got_dx = _run(paddle, [y, total, dx], {"x": xv, "a": av, "b": bv})
    np.testing.assert_allclose(got_y, np.tanh(xv), rtol=1e-6)
    assert got_total.dtype == np.int32
    np.testing.assert_array_equal(got_total, av + bv)
    np.testing.assert_allclose(got_dx, 1 - np.tanh(xv) ** 2, rtol=1e-6)
    assert capsys.readouterr().out == str(av) + "\n"


def test_backward_function_without_x():
    def tanh_grad_without_x(y, dy):
        return np.array(dy) * (1 - np.square(np.array(y)))

    y = np.tanh(np.array([0.5, -2.0]))
    np.testing.assert_allclose(tanh_grad_without_x(y, np.ones(2)), 1 - y ** 2)


def test_step_two_create_the_output_variable():
    import pylayer as paddle

    paddle.enable_static()

    def create_tmp_var(program, name, dtype, shape):
        return program.current_block().create_var(name=name, dtype=dtype, shape=shape)

    in_var = paddle.static.data(name='input', dtype='float32', shape=[-1, 28, 28])

    # 手动创建前向输出变量
    out_var = create_tmp_var(paddle.static.default_main_program(), name='output', dtype='float32', shape=[-1, 28, 28])

    assert (in_var.name, in_var.shape, in_var.dtype) == ("input", [-1, 28, 28], "float32")
    assert (out_var.name, out_var.shape, out_var.dtype) == ("output", [-1, 28, 28], "float32")
    block = paddle.static.default_main_program().current_block()
    assert block.var("input") is in_var and block.var("output") is out_var


def _step_two(paddle):
    """The guide's step two, as written, for the step-three tests."""
    paddle.enable_static()

    def create_tmp_var(program, name, dtype, shape):
        return program.current_block().create_var(name=name, dtype=dtype, shape=shape)

    in_var = paddle.static.data(name='input', dtype='float32', shape=[-1, 28, 28])

    # 手动创建前向输出变量
    out_var = create_tmp_var(paddle.static.default_main_program(), name='output', dtype='float32', shape=[-1, 28, 28])
    return in_var, out_var


def test_step_three_py_func_with_tanh_grad():
    import pylayer as paddle

    def tanh(x):
        return np.tanh(x)

    def tanh_grad(x, y, dy):
        return np.array(dy) * (1 - np.square(np.array(y)))

    in_var, out_var = _step_two(paddle)

    paddle.static.nn.py_func(func=tanh, x=in_var, out=out_var, backward_func=tanh_grad)

    in_var.stop_gradient = False
    loss = paddle.mean(out_var)
    d_in, = paddle.static.gradients(loss, in_var)
    got_out, got_loss, got_grad = _run(paddle, [out_var, loss, d_in])
    np.testing.assert_allclose(got_out, np.tanh(FEED), rtol=1e-6)
    np.testing.assert_allclose(got_loss, np.tanh(FEED).mean(), rtol=1e-5)
    np.testing.assert_allclose(got_grad, (1 - np.tanh(FEED) ** 2) / FEED.size, rtol=1e-5)


def test_step_three_py_func_skipping_x():
    import pylayer as paddle

    def tanh(x):
        return np.tanh(x)

    def tanh_grad_without_x(y, dy):
        return np.array(dy) * (1 - np.square(np.array(y)))

    in_var, out_var = _step_two(paddle)

    paddle.static.nn.py_func(func=tanh, x=in_var, out=out_var, backward_func=tanh_grad_without_x,
        skip_vars_in_backward_input=in_var)

    in_var.stop_gradient = False
    d_in, = paddle.static.gradients(paddle.sum(out_var * 2.0), in_var)
    got_out, got_grad = _run(paddle, [out_var, d_in])
    np.testing.assert_allclose(got_out, np.tanh(FEED), rtol=1e-6)
    np.testing.assert_allclose(got_grad, 2 * (1 - np.tanh(FEED) ** 2), rtol=1e-5)
