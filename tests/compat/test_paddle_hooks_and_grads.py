"""Gradient hooks, retained gradients and unused outputs as in Paddle 3.3.1 (issue 20,
section 3, items 1, 2 and 5), each case as observed on Paddle 3.3.1."""
import numpy as np

import pylayer as paddle
from pylayer.autograd import PyLayer


def leaf(values):
    return paddle.to_tensor(values, stop_gradient=False)


def test_a_retained_gradient_is_taken_before_hooks_registered_after_it():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    y = x * 1.0
    y.retain_grads()
    y.register_hook(lambda g: g * 2)
    y.sum().backward()
    assert y.grad.numpy().tolist() == [1.0, 1.0, 1.0, 1.0]
    assert x.grad.numpy().tolist() == [2.0, 2.0, 2.0, 2.0]     # upstream gets the hooked one


def test_a_retained_gradient_is_taken_after_hooks_registered_before_it():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    y = x * 1.0
    y.register_hook(lambda g: g * 2)
    y.retain_grads()
    y.sum().backward()
    assert y.grad.numpy().tolist() == [2.0, 2.0, 2.0, 2.0]
    assert x.grad.numpy().tolist() == [2.0, 2.0, 2.0, 2.0]


def test_three_hooks_after_retain_grads_leave_grad_unhooked():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    y = x * 1.0
    y.retain_grads()
    for _ in range(3):
        y.register_hook(lambda g: g * 2)
    (y * paddle.to_tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    assert y.grad.numpy().tolist() == [1.0, 2.0, 3.0, 4.0]
    assert x.grad.numpy().tolist() == [8.0, 16.0, 24.0, 32.0]


def test_retain_grads_twice_keeps_one_place():
    x = leaf([1.0, 2.0])
    y = x * 1.0
    y.retain_grads()
    y.register_hook(lambda g: g * 2)
    y.retain_grads()
    y.sum().backward()
    assert y.grad.numpy().tolist() == [1.0, 1.0]


def test_removing_a_hook_twice_returns_true_then_false():
    x = leaf([1.0, 2.0])
    handle = x.register_hook(lambda g: g)
    assert handle.remove() is True
    assert handle.remove() is False
    y = x * 2.0
    handle = y.register_hook(lambda g: g * 3)
    assert handle.remove() is True and handle.remove() is False
    y.sum().backward()
    assert x.grad.numpy().tolist() == [2.0, 2.0]


def test_the_unused_output_of_split_gets_a_zero_gradient():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, b = paddle.split(x, 2)
    a.retain_grads()
    b.retain_grads()
    seen = []
    b.register_hook(lambda g: seen.append(g.numpy().tolist()))
    a.sum().backward()
    assert a.grad.numpy().tolist() == [1.0, 1.0]
    assert b.grad.numpy().tolist() == [0.0, 0.0]
    assert seen == [[0.0, 0.0]]
    assert x.grad.numpy().tolist() == [1.0, 1.0, 0.0, 0.0]


def test_an_unreached_single_output_and_an_unused_pylayer_output_keep_no_gradient():
    x = leaf([1.0, 2.0])
    y, z = x * 2.0, x * 3.0
    z.retain_grads()
    y.sum().backward()
    assert z.grad is None

    class Two(PyLayer):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0, a * 2.0

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + 2 * g2

    x = leaf([1.0, 2.0])
    p, q = Two.apply(x)
    q.retain_grads()
    p.sum().backward()
    assert q.grad is None
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])
