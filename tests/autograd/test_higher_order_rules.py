"""The double-backward steps' shortcuts (benchmarks 13-15): tanh's curvature as one
op (its result equals the three products it replaces, its own rules differentiate
again), the engine's link zeros (adding one records nothing; a node only zeros
reach runs no rules, yet inputs still get Paddle's zeros), and leaky ReLU's
np.where-free forms (the same values at every edge)."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd.gradcheck import gradcheck, gradgradcheck
from pylayer.ops.math import _tanh_curvature


def _nth_derivative(fn, x, n):
    """d^n/dx^n of sum(fn(x)) elementwise, by nested grad with create_graph."""
    y = fn(x)
    for _ in range(n):
        (y,) = paddle.grad(y.sum(), x, create_graph=True)
    return y


def test_tanh_third_and_fourth_derivatives():
    values = np.linspace(-2.0, 2.0, 9)
    x = paddle.to_tensor(values, stop_gradient=False)
    t = np.tanh(values)
    third = -2 * (1 - t * t) * (1 - 3 * t * t)
    fourth = 8 * t * (1 - t * t) * (2 - 3 * t * t)
    np.testing.assert_allclose(_nth_derivative(paddle.tanh, x, 3).numpy(), third, rtol=1e-12,
                               atol=1e-14)
    np.testing.assert_allclose(_nth_derivative(paddle.tanh, x, 4).numpy(), fourth, rtol=1e-12,
                               atol=1e-14)


def test_tanh_second_derivative_is_one_curvature_node():
    x = paddle.to_tensor([0.3, -0.7], stop_gradient=False)
    (first,) = paddle.grad(paddle.tanh(x).sum(), x, create_graph=True)
    (second,) = paddle.grad(first.sum(), x, create_graph=True)
    names = set()
    stack = [second.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node.name() in names:
            continue
        names.add(node.name())
        stack.extend(edge for edge, _ in node.next_functions)
    assert "TanhCurvatureGradNode" in names
    assert "MultiplyGradNode" not in names


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_tanh_curvature_rounds_as_the_three_products(dtype):
    rng = np.random.default_rng(0)
    y, dy, gg = (rng.standard_normal((7, 5)).astype(dtype) for _ in range(3))
    out = _tanh_curvature(*(paddle.to_tensor(v) for v in (y, dy, gg))).numpy()
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(out, (gg * dy) * (y * np.asarray(-2.0, dtype)))


def test_tanh_curvature_gradients():
    rng = np.random.default_rng(1)
    inputs = [paddle.to_tensor(rng.standard_normal((3, 4)), stop_gradient=False)
              for _ in range(3)]
    assert gradcheck(_tanh_curvature, inputs)
    assert gradgradcheck(_tanh_curvature, inputs)


def test_tanh_curvature_of_mixed_shapes_takes_the_products():
    a = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    b = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    c = paddle.to_tensor([[0.5], [1.5]], stop_gradient=False)
    out = _tanh_curvature(a, b, c)
    np.testing.assert_allclose(out.numpy(), -2 * a.numpy() * b.numpy() * c.numpy())
    (ga,) = paddle.grad(out.sum(), a)
    np.testing.assert_allclose(ga.numpy(), (-2 * b.numpy() * c.numpy()).sum(0, keepdims=True))


def test_a_link_zero_adds_no_node():
    # gx = w * ones depends on x through its kept-input link (zeros); x's second
    # gradient meets that zero and the real gradient gx: the sum is the real one,
    # with no recorded add of the zeros.
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    (gx,) = paddle.grad((x * w).sum(), x, create_graph=True)
    (h,) = paddle.grad((gx * x).sum(), x, create_graph=True)
    np.testing.assert_array_equal(h.numpy(), [3.0, 4.0])
    assert h.grad_fn.name() == "MultiplyGradNode"
    (hw,) = paddle.grad(h.sum(), w)
    np.testing.assert_array_equal(hw.numpy(), [1.0, 1.0])


def test_link_zeros_still_reach_an_input_alone():
    # Paddle's rule kept: a gradient differentiated again gives its kept inputs
    # zeros, not None, also when nothing else reaches them.
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    (gx,) = paddle.grad(x * y, [x], create_graph=True)
    found = paddle.grad(gx.sum(), [x, y], allow_unused=True)
    np.testing.assert_array_equal(found[0].numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(found[1].numpy(), [1.0, 1.0])


@pytest.mark.parametrize("slope", [0.0, 1e-50, 0.01, 0.2, 1.0, 1.5, -0.3, float("nan")])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_leaky_relu_values_and_slopes_at_edges(slope, dtype):
    # The fast forms (max(x, s x) and max(mask, s)) give np.where's values exactly.
    values = np.array([-np.inf, -2.5, -1e-45, -0.0, 0.0, 1e-45, 0.7, np.inf, np.nan], dtype)
    x = paddle.to_tensor(values, stop_gradient=False)
    y = paddle.nn.functional.leaky_relu(x, slope)
    with np.errstate(invalid="ignore", under="ignore"):
        expected = np.where(values > 0, values, values * slope).astype(dtype)
    np.testing.assert_array_equal(y.numpy(), expected)
    assert np.array_equal(np.signbit(y.numpy()), np.signbit(expected))
    g = np.linspace(-2.0, 2.0, values.size).astype(dtype)
    (gx,) = paddle.grad(y, x, paddle.to_tensor(g))
    np.testing.assert_array_equal(gx.numpy(), g * np.where(values > 0, 1, slope).astype(dtype))


def test_a_subgraph_only_zeros_reach_runs_no_rules_and_keeps_paddle_zeros():
    # A gradient penalty through a leaky ReLU: the forward layers of the inner grad
    # are reached only by kept-input link zeros. Their rules no longer run, but the
    # input still gets zeros (Paddle's rule), and the weights their real gradients.
    rng = np.random.default_rng(3)
    w1 = paddle.to_tensor(rng.standard_normal((3, 4)), stop_gradient=False)
    w2 = paddle.to_tensor(rng.standard_normal((4, 1)), stop_gradient=False)
    x = paddle.to_tensor(rng.standard_normal((5, 3)), stop_gradient=False)
    h = paddle.nn.functional.leaky_relu(paddle.matmul(x, w1), 0.2)
    (gx,) = paddle.grad(paddle.matmul(h, w2).sum(), x, create_graph=True)
    (gx * gx).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((5, 3)))
    slopes = np.where(x.numpy() @ w1.numpy() > 0, 1.0, 0.2)
    inner = slopes * w2.numpy().T                      # d h @ w2 / d (x @ w1)
    expected_w2 = 2 * ((inner @ w1.numpy().T) @ w1.numpy() * slopes).sum(0)[:, None]
    np.testing.assert_allclose(w2.grad.numpy(), expected_w2, rtol=1e-12)


def test_zero_only_node_still_checks_saved_versions():
    x = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
    w = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    h = paddle.exp(x)
    (gh,) = paddle.grad((h * w).sum(), h, create_graph=True)
    with paddle.no_grad():
        h.add_(paddle.ones([2]))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        gh.sum().backward()
