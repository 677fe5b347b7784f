"""Seed 002: the PyLayer page, one test per code example."""
import numpy as np


def _tanh_grad(data, upstream):
    return upstream * (1 - np.tanh(data) ** 2)


def test_class_example(capsys):
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    # Inherit from PyLayer
    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x, func1, func2=paddle.square):
            # ctx is a context object that store some objects for backward.
            ctx.func = func2
            y = func1(x)
            # Pass tensors to backward.
            ctx.save_for_backward(y)
            return y

        @staticmethod
        # forward has only one output, so there is only one gradient in the input of backward.
        def backward(ctx, dy):
            # Get the tensors passed by forward.
            y, = ctx.saved_tensor()
            grad = dy * (1 - ctx.func(y))
            # forward has only one input, so only one gradient tensor is returned.
            return grad


    data = paddle.randn([2, 3], dtype="float64")
    data.stop_gradient = False
    z = cus_tanh.apply(data, func1=paddle.tanh)
    z.mean().backward()

    print(data.grad)

    np.testing.assert_allclose(data.grad.numpy(), _tanh_grad(data.numpy(), 1 / 6))
    printed = capsys.readouterr().out
    assert printed.startswith("Tensor(shape=[2, 3], dtype=float64")
    assert "stop_gradient=True" in printed


def test_forward_example():
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            # Pass tensors to backward.
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            # Get the tensors passed by forward.
            y, = ctx.saved_tensor()
            grad = dy * (1 - paddle.square(y))
            return grad

    x = paddle.to_tensor([0.5, -2.0], dtype="float64", stop_gradient=False)
    y = cus_tanh.apply(x)
    np.testing.assert_allclose(y.numpy(), np.tanh([0.5, -2.0]))
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), _tanh_grad(np.array([0.5, -2.0]), 1.0))


def test_backward_example():
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            # Pass tensors to backward.
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            # Get the tensors passed by forward.
            y, = ctx.saved_tensor()
            grad = dy * (1 - paddle.square(y))
            return grad

    x = paddle.to_tensor([[0.1, 0.2], [1.5, -0.4]], dtype="float64", stop_gradient=False)
    (dx,) = paddle.grad(cus_tanh.apply(x), x, grad_outputs=paddle.full([2, 2], 3.0, "float64"))
    np.testing.assert_allclose(dx.numpy(), _tanh_grad(x.numpy(), 3.0))
    assert paddle.autograd.gradcheck(cus_tanh.apply, x)


def test_apply_example():
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x, func1, func2=paddle.square):
            ctx.func = func2
            y = func1(x)
            # Pass tensors to backward.
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            # Get the tensors passed by forward.
            y, = ctx.saved_tensor()
            grad = dy * (1 - ctx.func(y))
            return grad


    data = paddle.randn([2, 3], dtype="float64")
    data.stop_gradient = False
    # run custom Layer.
    z = cus_tanh.apply(data, func1=paddle.tanh)

    np.testing.assert_allclose(z.numpy(), np.tanh(data.numpy()))
    assert not z.stop_gradient and z.grad_fn.name() == "GradNodePyLayer_cus_tanh"
    z.sum().backward()
    np.testing.assert_allclose(data.grad.numpy(), _tanh_grad(data.numpy(), 1.0))
