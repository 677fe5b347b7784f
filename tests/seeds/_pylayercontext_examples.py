"""The code examples of the PyLayerContext page (seeds 000 and 001 carry the same ones).

Each function runs one example unchanged except for the import, then
returns what the test needs to check the gradients it produced.
"""
import numpy as np


def example_class(monkeypatch):
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            # ctx is a object of PyLayerContext.
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            # ctx is a object of PyLayerContext.
            y, = ctx.saved_tensor()
            grad = dy * (1 - paddle.square(y))
            return grad

    return cus_tanh


def example_save_for_backward(monkeypatch):
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            # ctx is a context object that store some objects for backward.
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

    return cus_tanh


# The saved_tensor() example is the same code as the save_for_backward one.
example_saved_tensor = example_save_for_backward


def example_mark_not_inplace(monkeypatch):
    import pylayer as paddle

    class Exp(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            out = grad_output.exp()
            return out

    x = paddle.randn((1, 1))
    x.stop_gradient = False
    attn_layers = []
    for idx in range(0, 2):
        attn_layers.append(Exp())

    for step in range(0, 2):
        a = x
        for j in range(0,2):
            a = attn_layers[j].apply(x)
        a.backward()
    return x, a


def example_mark_non_differentiable(monkeypatch):
    monkeypatch.setenv('FLAGS_enable_eager_mode', '1')  # undone after the test
    import os
    os.environ['FLAGS_enable_eager_mode'] = '1'
    import pylayer as paddle
    from pylayer.autograd import PyLayer
    import numpy as np

    class Tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x + x
            b = x + x + x
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            assert np.equal(grad_a.numpy(), paddle.zeros([1]).numpy())
            assert np.equal(grad_b.numpy(), paddle.ones([1], dtype="float64").numpy())
            return grad_b

    x = paddle.ones([1], dtype="float64")
    x.stop_gradient = False
    a, b = Tanh.apply(x)
    b.sum().backward()
    return x, a, b


def example_set_materialize_grads(monkeypatch):
    monkeypatch.setenv('FLAGS_enable_eager_mode', '1')
    import os
    os.environ['FLAGS_enable_eager_mode'] = '1'
    import pylayer as paddle
    from pylayer.autograd import PyLayer
    import numpy as np

    class Tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x+x+x, x+x

        @staticmethod
        def backward(ctx, grad, grad2):
            assert np.equal(grad2.numpy(), paddle.zeros([1]).numpy())
            return grad

    class Tanh2(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x+x+x, x+x

        @staticmethod
        def backward(ctx, grad, grad2):
            assert grad2==None
            return grad

    x = paddle.ones([1], dtype="float64")
    x.stop_gradient = False
    Tanh.apply(x)[0].backward()

    x2 = paddle.ones([1], dtype="float64")
    x2.stop_gradient = False
    Tanh2.apply(x2)[0].backward()
    return x, x2


# ----------------------------------------------------- checks shared by 000 and 001
def check_tanh_layer(layer):
    """Apply a cus_tanh class from an example and check its gradient and output."""
    import pylayer as paddle
    data = np.array([[-1.5, 0.0, 0.3], [0.7, 2.0, -0.2]])
    x = paddle.to_tensor(data, dtype="float64", stop_gradient=False)
    y = layer.apply(x)
    np.testing.assert_allclose(y.numpy(), np.tanh(data))
    assert y.grad_fn.name() == f"GradNodePyLayer_{layer.__name__}"
    upstream = np.arange(6.0).reshape(2, 3)
    (y * paddle.to_tensor(upstream)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), upstream * (1 - np.tanh(data) ** 2))
    assert paddle.autograd.gradcheck(layer.apply, paddle.to_tensor(data, stop_gradient=False))


def check_mark_not_inplace(x, a):
    # Two steps, each one backward from a layer whose backward gives exp(ones) = e.
    np.testing.assert_allclose(x.grad.numpy(), [[2 * np.e]], rtol=1e-6)
    assert a is not x and x.is_leaf and x.grad_fn is None
    assert a.grad_fn.name() == "GradNodePyLayer_Exp"
    np.testing.assert_array_equal(a.numpy(), x.numpy())


def check_mark_non_differentiable(x, a, b):
    np.testing.assert_array_equal(x.grad.numpy(), [1.0])   # backward returned grad_b = ones
    assert a.stop_gradient and not b.stop_gradient
    np.testing.assert_array_equal(a.numpy(), [2.0])
    np.testing.assert_array_equal(b.numpy(), [3.0])


def check_set_materialize_grads(x, x2):
    np.testing.assert_array_equal(x.grad.numpy(), [1.0])
    np.testing.assert_array_equal(x2.grad.numpy(), [1.0])
    assert x.grad.dtype == "float64" and x2.grad.dtype == "float64"
