"""``linear`` as one recorded op over all leading dimensions: the same results and
gradients as ``matmul`` + ``add``, numpy's closed form and the recorded rule for
create_graph, and the composed path where one op cannot hold (mixed dtypes, a
broadcast bias, a vector input)."""
import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(37)


def leaf(*shape, dtype="float64"):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype=dtype, stop_gradient=False)


@pytest.mark.parametrize("xshape", [(5, 4), (2, 3, 4), (2, 1, 3, 4)])
@pytest.mark.parametrize("with_bias", [True, False])
def test_one_op_matches_matmul_and_add(xshape, with_bias):
    x, w = leaf(*xshape), leaf(4, 3)
    b = leaf(3) if with_bias else None
    out = F.linear(x, w, b)
    assert out.grad_fn.name() == "LinearGradNode"
    want = pylayer.matmul(x, w) + b if with_bias else pylayer.matmul(x, w)
    np.testing.assert_allclose(out.numpy(), want.numpy(), atol=1e-12)
    g = pylayer.to_tensor(RNG.standard_normal(out.shape))
    inputs = [t for t in (x, w, b) if t is not None]
    fast = pylayer.grad(out, inputs, grad_outputs=g, retain_graph=True)
    recorded = pylayer.grad(out, inputs, grad_outputs=g, create_graph=True)
    reference = pylayer.grad(want, inputs, grad_outputs=g)
    for a, r, ref in zip(fast, recorded, reference):
        np.testing.assert_allclose(a.numpy(), ref.numpy(), atol=1e-12)
        np.testing.assert_allclose(r.numpy(), ref.numpy(), atol=1e-12)


def test_gradients_of_first_and_second_order_on_a_batch():
    inputs = (leaf(2, 3, 4), leaf(4, 2), leaf(2))
    assert gradcheck(F.linear, inputs)
    assert gradgradcheck(F.linear, inputs)


@pytest.mark.parametrize("x,w,b", [
    (lambda: leaf(3, 4, dtype="float32"), lambda: leaf(4, 2), lambda: leaf(2)),   # dtypes
    (lambda: leaf(3, 4), lambda: leaf(4, 2), lambda: leaf(1)),                     # broadcast
    (lambda: leaf(4), lambda: leaf(4, 2), lambda: leaf(2)),                        # a vector
])
def test_the_composed_path_where_one_op_cannot_hold(x, w, b):
    x, w, b = x(), w(), b()
    out = F.linear(x, w, b)
    np.testing.assert_allclose(out.numpy(), (pylayer.matmul(x, w) + b).numpy(), rtol=1e-6)
    assert out.grad_fn.name() == "AddGradNode"


def test_an_input_changed_in_place_is_refused_in_backward():
    h, w = leaf(2, 4) * 1.0, leaf(4, 3)
    y = F.linear(h, w)
    h.zero_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_outer_products_give_numpys_products(dtype):
    # A product whose inner dimension is 1 is computed elementwise (numpy's matmul is
    # slow at it): the same numbers, for linear (forward, gradients) and matmul
    x, w = leaf(6, 1, dtype=dtype), leaf(1, 5, dtype=dtype)
    out = F.linear(x, w)
    np.testing.assert_array_equal(out.numpy(), np.matmul(x.numpy(), w.numpy()))
    g = pylayer.to_tensor(RNG.standard_normal((6, 5)), dtype=dtype)
    gx, gw = pylayer.grad(out, [x, w], grad_outputs=g)
    np.testing.assert_allclose(gx.numpy(), g.numpy() @ w.numpy().T, rtol=1e-6)
    np.testing.assert_allclose(gw.numpy(), x.numpy().T @ g.numpy(), rtol=1e-6)
    a, b = leaf(3, 4, 1, dtype=dtype), leaf(1, 1, 7, dtype=dtype)
    got = pylayer.matmul(a, b)
    assert got.shape == [3, 4, 7]
    np.testing.assert_array_equal(got.numpy(), np.matmul(a.numpy(), b.numpy()))
    # linear's x-gradient of a one-output layer is the outer product of g and w
    x, w = leaf(6, 5, dtype=dtype), leaf(5, 1, dtype=dtype)
    g = pylayer.to_tensor(RNG.standard_normal((6, 1)), dtype=dtype)
    gx, = pylayer.grad(F.linear(x, w), [x], grad_outputs=g)
    np.testing.assert_array_equal(gx.numpy(), np.matmul(g.numpy(), w.numpy().T))
    assert gradcheck(lambda t, u: pylayer.matmul(t, u), (leaf(3, 1), leaf(1, 2)))
    assert gradgradcheck(lambda t, u: pylayer.matmul(t, u), (leaf(3, 1), leaf(1, 2)))
