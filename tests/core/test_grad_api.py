"""pylayer.grad / autograd.backward, double backward and gradcheck."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import GradcheckError, gradcheck, gradgradcheck
from pylayer.extend import Op, make_output


def leaf(values):
    return paddle.to_tensor(values, dtype="float64", stop_gradient=False)


def test_grad_returns_a_list_and_leaves_grad_untouched():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    result = paddle.grad(y, x)
    assert isinstance(result, list) and len(result) == 1
    np.testing.assert_array_equal(result[0].numpy(), [2.0, 4.0])
    assert x.grad is None


def test_grad_of_intermediate_tensor():
    x = leaf([1.0, 2.0])
    a = x * 3
    y = (a * a).sum()
    (ga,) = paddle.grad(y, a)
    np.testing.assert_array_equal(ga.numpy(), 2 * a.numpy())


def test_unused_input_needs_allow_unused():
    x, z = leaf([1.0]), leaf([1.0])
    y = x * 2
    with pytest.raises(ValueError, match="allow_unused=True"):
        paddle.grad(y, [x, z], retain_graph=True)
    gx, gz = paddle.grad(y, [x, z], allow_unused=True)
    assert gz is None and gx.numpy()[0] == 2.0


def test_create_graph_gives_differentiable_gradients():
    x = leaf([0.5])
    y = x * x * x
    (dx,) = paddle.grad(y, x, create_graph=True)
    assert not dx.stop_gradient
    np.testing.assert_allclose(dx.numpy(), 3 * 0.25)
    (ddx,) = paddle.grad(dx, x)
    np.testing.assert_allclose(ddx.numpy(), 6 * 0.5)


def test_double_backward_into_grad_attribute():
    x = leaf([0.5])
    y = paddle.tanh(x)
    (dx,) = paddle.grad(y, x, create_graph=True)
    dx.backward()
    t = np.tanh(0.5)
    np.testing.assert_allclose(x.grad.numpy(), -2 * t * (1 - t * t))


def test_grad_outputs_and_validation():
    x = leaf([1.0, 2.0])
    y = x * 2
    (g,) = paddle.grad(y, x, grad_outputs=paddle.to_tensor([1.0, 3.0], dtype="float64"))
    np.testing.assert_array_equal(g.numpy(), [2.0, 6.0])
    with pytest.raises(TypeError, match="grad\\(\\): argument 'inputs' item 0 must be a Tensor"):
        paddle.grad(y, [3])
    with pytest.raises(ValueError, match="stop_gradient=True"):
        paddle.grad(y, paddle.ones([2]))


def test_no_grad_vars_cut_the_graph():
    x = leaf([2.0])
    y = x * x
    z = y * x
    (g,) = paddle.grad(z, x, no_grad_vars=[y])
    assert g.numpy()[0] == 4.0


def test_gradcheck_passes_and_reports_mismatch():
    x = leaf([0.3, -0.4])
    assert gradcheck(lambda t: paddle.tanh(t) * t, x)
    assert gradgradcheck(lambda t: paddle.tanh(t) * t, x)

    def wrong(t):
        # Forward says 2*t, but backward is the identity: detach half the graph.
        return t + t.detach()

    with pytest.raises(GradcheckError, match="input 0 \\(element 0"):
        gradcheck(wrong, x)
    assert gradcheck(wrong, x, raise_exception=False) is False


def test_gradcheck_needs_a_differentiable_input():
    with pytest.raises(ValueError, match="nothing to check"):
        gradcheck(paddle.tanh, paddle.ones([2], dtype="float64"))


# ------------------------------------------------ only the gradients that lead to inputs
def _counting_product():
    """``x * w`` whose two rules count their calls, and read needs_input_grad."""
    calls = {"x": 0, "w": 0}

    def rule_x(g, w):
        calls["x"] += 1
        return g * w

    def rule_w(g, x):
        calls["w"] += 1
        return g * x

    record = Op("counted_product", inputs=("x", "w"), keeps=("x", "w"), vjp=(rule_x, rule_w))

    def product(x, w):
        return make_output(record, x.numpy() * w.numpy(), (x, w))
    return product, calls


def test_grad_runs_no_rule_whose_gradient_reaches_no_input():
    """grad(y, x) through x * w needs w's rule nowhere (issue 34: the rules of every
    layer's weights ran and were thrown away, 17 % of a jacobian step)."""
    product, calls = _counting_product()
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    h = product(paddle.tanh(product(x, w)), w)
    (gx,) = paddle.grad(h.sum(), x)
    assert calls == {"x": 2, "w": 0}
    t = np.tanh(np.array([3.0, 8.0]))
    np.testing.assert_allclose(gx.numpy(), np.array([3.0, 4.0]) ** 2 * (1 - t * t), rtol=1e-12)
    product(x, w).sum().backward()
    assert calls == {"x": 3, "w": 1} and w.grad.numpy().tolist() == [1.0, 2.0]


def test_a_single_rule_reads_which_inputs_a_grad_wants():
    seen = []
    record = Op("two_in", inputs=("x", "w"), keeps=(),
                vjp=lambda g, needs_input_grad: (seen.append(needs_input_grad) or
                                                 (g if needs_input_grad[0] else None,
                                                  g if needs_input_grad[1] else None)))
    x = paddle.to_tensor([1.0], stop_gradient=False)
    w = paddle.to_tensor([2.0], stop_gradient=False)
    y = make_output(record, x.numpy() + w.numpy(), (x, w))
    paddle.grad(y, w, retain_graph=True)
    y.backward()
    assert seen == [(False, True), (True, True)]
