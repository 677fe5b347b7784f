"""Seed 003: the saved_tensors_hooks page, one test per code example."""
import numpy as np


def test_example1_builtin_multiply(capsys):
    # Example1
    import pylayer as paddle

    def pack_hook(x):
        print("Packing", x)
        return x.numpy()

    def unpack_hook(x):
        print("UnPacking", x)
        return paddle.to_tensor(x)

    a = paddle.ones([3,3])
    b = paddle.ones([3,3]) * 2
    a.stop_gradient = False
    b.stop_gradient = False
    with paddle.autograd.saved_tensors_hooks(pack_hook, unpack_hook):
        y = paddle.multiply(a, b)
    y.sum().backward()

    printed = capsys.readouterr().out
    assert printed.count("Packing Tensor(shape=[3, 3]") == 2     # multiply saves a and b
    assert printed.count("UnPacking [[") == 2                     # the packed numpy arrays
    np.testing.assert_array_equal(a.grad.numpy(), np.full((3, 3), 2.0))
    np.testing.assert_array_equal(b.grad.numpy(), np.ones((3, 3)))


def test_example2_pylayer(capsys):
    # Example2
    import pylayer as paddle
    from pylayer.autograd import PyLayer

    class cus_multiply(PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            y = paddle.multiply(a, b)
            ctx.save_for_backward(a, b)
            return y

        @staticmethod
        def backward(ctx, dy):
            a,b = ctx.saved_tensor()
            grad_a = dy * a
            grad_b = dy * b
            return grad_a, grad_b

    def pack_hook(x):
        print("Packing", x)
        return x.numpy()

    def unpack_hook(x):
        print("UnPacking", x)
        return paddle.to_tensor(x)

    a = paddle.ones([3,3])
    b = paddle.ones([3,3]) * 2
    a.stop_gradient = False
    b.stop_gradient = False
    with paddle.autograd.saved_tensors_hooks(pack_hook, unpack_hook):
        y = cus_multiply.apply(a, b)
    y.sum().backward()

    printed = capsys.readouterr().out
    # Only save_for_backward packs: the multiply inside forward records nothing.
    assert printed.count("Packing Tensor(shape=[3, 3]") == 2
    assert printed.count("UnPacking [[") == 2
    # The example's backward gives a the gradient dy * a and b the gradient dy * b.
    np.testing.assert_array_equal(a.grad.numpy(), np.ones((3, 3)))
    np.testing.assert_array_equal(b.grad.numpy(), np.full((3, 3), 2.0))
