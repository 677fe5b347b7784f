"""Seed 004: the guide to custom Python operators, dynamic-graph part, one test per example.

(The static-graph ``py_func`` examples of the same guide belong to the
static-mode tests.)
"""
import inspect

import numpy as np
import pytest


def _parameters(function):
    """The names, kinds and defaults of a signature; annotations are pylayer's own."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def _tanh_grad(data, upstream):
    return upstream * (1 - np.tanh(data) ** 2)


def test_pylayer_interface_sketch():
    class PyLayer:
        @staticmethod
        def forward(ctx, *args, **kwargs):
            pass

        @staticmethod
        def backward(ctx, *args, **kwargs):
            pass

        @classmethod
        def apply(cls, *args, **kwargs):
            pass

    from pylayer.autograd import PyLayer as Real
    for name in ("forward", "backward"):
        assert isinstance(inspect.getattr_static(Real, name), staticmethod)
        assert _parameters(getattr(Real, name)) == _parameters(getattr(PyLayer, name))
    assert isinstance(inspect.getattr_static(Real, "apply"), classmethod)
    assert _parameters(Real.apply) == _parameters(PyLayer.apply)


def test_pylayercontext_interface_sketch():
    class PyLayerContext:
        def save_for_backward(self, *tensors):
            pass

        def saved_tensor(self):
            pass

    from pylayer.autograd import PyLayerContext as Real
    for name in ("save_for_backward", "saved_tensor"):
        assert _parameters(getattr(Real, name)) == _parameters(getattr(PyLayerContext, name))


def _define_cus_tanh():
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    # 通过创建`PyLayer`子类的方式实现动态图 Python Op
    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            # ctx 为 PyLayerContext 对象，可以把 y 从 forward 传递到 backward。
            ctx.save_for_backward(y)
            return y

        @staticmethod
        # 因为 forward 只有一个输出，因此除了 ctx 外，backward 只有一个输入。
        def backward(ctx, dy):
            # ctx 为 PyLayerContext 对象，saved_tensor 获取在 forward 时暂存的 y。
            y, = ctx.saved_tensor()
            # 调用 Paddle API 自定义反向计算
            grad = dy * (1 - paddle.square(y))
            # forward 只有一个 Tensor 输入，因此，backward 只有一个输出。
            return grad

    return cus_tanh


def test_step1_define_the_layer():
    import pylayer as paddle
    cus_tanh = _define_cus_tanh()
    x = paddle.to_tensor([-0.5, 0.25], dtype="float64", stop_gradient=False)
    cus_tanh.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), _tanh_grad(np.array([-0.5, 0.25]), 1.0))


def test_step2_apply(capsys):
    import pylayer as paddle
    cus_tanh = _define_cus_tanh()

    data = paddle.randn([2, 3], dtype="float32")
    data.stop_gradient = False
    # 通过 apply 运行这个 Python 算子
    z = cus_tanh.apply(data)
    z.mean().backward()

    print(data.grad)

    assert data.grad.dtype == "float32"
    np.testing.assert_allclose(data.grad.numpy(), _tanh_grad(data.numpy(), 1 / 6), rtol=1e-5)
    assert "shape=[2, 3], dtype=float32" in capsys.readouterr().out


def test_context_attributes_and_keyword_tensor():
    import pylayer as paddle
    from pylayer.autograd import PyLayer
    import numpy as np

    class tanh(PyLayer):
        @staticmethod
        def forward(ctx, x1, func1, func2=paddle.square):
            # 添加临时属性的方式传递 func2
            ctx.func = func2
            y1 = func1(x1)
            # 使用 save_for_backward 传递 y1
            ctx.save_for_backward(y1)
            return y1

        @staticmethod
        def backward(ctx, dy1):
            y1, = ctx.saved_tensor()
            # 获取 func2
            re1 = dy1 * (1 - ctx.func(y1))
            return re1

    input1 = paddle.randn([2, 3]).astype("float64")
    input2 = input1.detach().clone()
    input1.stop_gradient = False
    input2.stop_gradient = False
    z = tanh.apply(x1=input1, func1=paddle.tanh)

    # The keyword tensor x1 is the layer's input slot: z is on the graph.
    np.testing.assert_allclose(z.numpy(), np.tanh(input2.numpy()))
    z.sum().backward()
    np.testing.assert_allclose(input1.grad.numpy(), _tanh_grad(input2.numpy(), 1.0))
    # The same numbers as the built-in tanh on the copy.
    paddle.tanh(input2).sum().backward()
    np.testing.assert_allclose(input1.grad.numpy(), input2.grad.numpy())


def test_forward_needs_a_tensor_output_wrong_then_right(capsys):
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    # 错误示例
    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x1, x2):
            y = x1+x2
            # y.shape: 列表类型，非 Tensor,输出至少包含一个 Tensor
            return y.shape

        @staticmethod
        def backward(ctx, dy):
            return dy, dy

    data = paddle.randn([2, 3], dtype="float32")
    data.stop_gradient = False
    # 由于 forward 输出没有 Tensor 引发报错
    with pytest.raises(ValueError, match="at least one output of PyLayer.forward must be a Tensor"):
        z, y_shape = cus_tanh.apply(data, data)


    # 正确示例
    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x1, x2):
            y = x1+x2
            # y.shape: 列表类型，非 Tensor
            return y, y.shape

        @staticmethod
        def backward(ctx, dy):
            # forward 两个 Tensor 输入，因此，backward 有两个输出。
            return dy, dy

    data = paddle.randn([2, 3], dtype="float32")
    data.stop_gradient = False
    z, y_shape = cus_tanh.apply(data, data)
    z.mean().backward()

    print(data.grad)

    assert y_shape == [2, 3]
    # data fills both input slots, so both gradients add up: 2 * (1/6).
    np.testing.assert_allclose(data.grad.numpy(), np.full((2, 3), 2 / 6), rtol=1e-6)
    assert "shape=[2, 3]" in capsys.readouterr().out


def test_stop_gradient_input_gets_none():
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x1, x2):
            y = x1+x2
            return y

        @staticmethod
        def backward(ctx, dy):
            # x2.stop_gradient=True，其对应梯度需要返回 None
            return dy, None


    data1 = paddle.randn([2, 3], dtype="float32")
    data1.stop_gradient = False
    data2 = paddle.randn([2, 3], dtype="float32")
    z = cus_tanh.apply(data1, data2)
    fake_loss = z.mean()
    fake_loss.backward()
    print(data1.grad)

    np.testing.assert_allclose(data1.grad.numpy(), np.full((2, 3), 1 / 6), rtol=1e-6)
    assert data2.grad is None


def test_all_inputs_stop_gradient_backward_never_runs(capsys):
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x1, x2):
            y = x1+x2
            return y

        @staticmethod
        def backward(ctx, dy):
            return dy, None


    data1 = paddle.randn([2, 3], dtype="float32")
    data2 = paddle.randn([2, 3], dtype="float32")
    z = cus_tanh.apply(data1, data2)
    fake_loss = z.mean()
    fake_loss.backward()
    # 因为 data1.stop_gradient = True、data2.stop_gradient = True，所以 backward 不会被执行。
    print(data1.grad is None)

    assert capsys.readouterr().out == "True\n"
    assert z.stop_gradient and z.grad_fn is None          # no node: backward cannot run
    assert data2.grad is None
