"""pylayer.incubate.autograd: vjp, jvp, Jacobian and Hessian with Paddle's conventions.

The expected values are Paddle 3.3.1's for the same calls; the matrices are
also checked against central differences in float64.
"""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.incubate import autograd as ia

X = [[1.0, 2.0], [3.0, 4.0]]
Y = [1.0, -1.0]


def values(result):
    """Nested tuples of lists, for comparing structure and numbers at once."""
    if isinstance(result, (tuple, list)):
        return type(result)(values(r) for r in result)
    return result.numpy().tolist()


def matmul_self(a):
    return paddle.matmul(a, a)


# ------------------------------------------------------------------ vjp
def test_vjp_of_one_input_and_one_output():
    x = paddle.to_tensor(X)
    ys, result = ia.vjp(matmul_self, x)
    assert values(ys) == [[7.0, 10.0], [15.0, 22.0]]
    assert values(result) == [[7.0, 11.0], [9.0, 13.0]]
    assert not result.stop_gradient and x.stop_gradient    # xs themselves are untouched
    _, seeded = ia.vjp(matmul_self, x, paddle.to_tensor([[1.0, 0.0], [0.0, 0.0]]))
    assert values(seeded) == [[2.0, 3.0], [2.0, 0.0]]


def test_vjp_gives_a_tuple_for_a_sequence_of_inputs_and_zeros_where_unused():
    y = paddle.to_tensor(Y)
    for xs in ([y, y * 2], (y, y * 2)):
        ys, result = ia.vjp(lambda a, b: a * b, xs)
        assert values(ys) == [2.0, 2.0] and values(result) == ([2.0, -2.0], [1.0, -1.0])
    _, single = ia.vjp(lambda a: a * 3, [y])
    assert values(single) == ([3.0, 3.0],)
    _, unused = ia.vjp(lambda a, b: a * 3, [y, y])
    assert values(unused) == ([3.0, 3.0], [0.0, 0.0])
    ys, constant = ia.vjp(lambda a: paddle.ones([2]), y)
    assert ys.stop_gradient and values(constant) == [0.0, 0.0]


def test_vjp_of_several_outputs_takes_one_seed_each():
    y = paddle.to_tensor(Y)
    ys, result = ia.vjp(lambda a: (a * 2, a.sum()), y)
    assert values(ys) == ([2.0, -2.0], 0.0) and values(result) == [3.0, 3.0]
    _, seeded = ia.vjp(lambda a: (a * 2, a.sum()), y, [paddle.ones([2]), paddle.to_tensor(3.0)])
    assert values(seeded) == [5.0, 5.0]


# ------------------------------------------------------------------ jvp
def test_jvp_of_one_input_and_one_output():
    x = paddle.to_tensor(X)
    ys, result = ia.jvp(matmul_self, x)
    assert values(ys) == [[7.0, 10.0], [15.0, 22.0]]
    assert values(result) == [[7.0, 9.0], [11.0, 13.0]]
    _, seeded = ia.jvp(matmul_self, x, paddle.to_tensor([[1.0, 0.0], [0.0, 0.0]]))
    assert values(seeded) == [[2.0, 2.0], [3.0, 0.0]]


def test_jvp_sums_over_inputs_and_gives_a_tuple_for_several_outputs():
    y = paddle.to_tensor(Y)
    _, result = ia.jvp(lambda a, b: a * b, [y, y * 2])
    assert values(result) == [3.0, -3.0]
    _, both = ia.jvp(lambda a: (a * 2, a.sum()), y)
    assert values(both) == ([2.0, 2.0], 2.0)
    _, unused = ia.jvp(lambda a, b: a * 3, [y, y])
    assert values(unused) == [3.0, 3.0]
    _, constant = ia.jvp(lambda a: paddle.ones([2]), y)
    assert values(constant) == [0.0, 0.0]


@pytest.mark.parametrize("fn", [ia.vjp, ia.jvp], ids=["vjp", "jvp"])
def test_seeds_of_the_wrong_count_or_shape_are_runtime_errors_as_in_paddle(fn):
    y = paddle.to_tensor(Y)
    name = fn.__name__
    with pytest.raises(RuntimeError, match=rf"{name}\(\): argument 'v' item 0 has shape \[3\]"):
        fn(lambda a: a * 3, y, paddle.ones([3]))
    with pytest.raises(RuntimeError, match=rf"{name}\(\): argument 'v' has 2 tensors"):
        fn(lambda a: a * 3, y, [paddle.ones([2]), paddle.ones([2])])


@pytest.mark.parametrize("fn", [ia.vjp, ia.jvp], ids=["vjp", "jvp"])
def test_arguments_of_the_wrong_type_are_type_errors(fn):
    y = paddle.to_tensor(Y)
    name = fn.__name__
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'func' must be callable"):
        fn(3, y)
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'xs' must be a Tensor.*float"):
        fn(lambda a: a, 3.0)
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'v' must be .* or None"):
        fn(lambda a: a, y, 3.0)
    with pytest.raises(TypeError, match=rf"{name}\(\): func must return a Tensor.*str"):
        fn(lambda a: "a", y)


# -------------------------------------------------------------- Jacobian
def test_jacobian_flattens_and_joins_inputs_and_outputs():
    x = paddle.to_tensor(X)
    J = ia.Jacobian(lambda a, b: paddle.matmul(a, b), [x, x])
    assert J.shape == (4, 8)
    assert values(J[:]) == [[1.0, 3.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0],
                            [2.0, 4.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0],
                            [0.0, 0.0, 1.0, 3.0, 3.0, 0.0, 4.0, 0.0],
                            [0.0, 0.0, 2.0, 4.0, 0.0, 3.0, 0.0, 4.0]]
    assert values(J[0, :]) == [1.0, 3.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0]
    assert values(J[:, 0]) == [1.0, 2.0, 0.0, 0.0]
    assert values(J[-1, 2]) == 2.0
    assert values(J[1:3, ::2]) == [[2.0, 0.0, 0.0, 0.0], [0.0, 1.0, 3.0, 4.0]]
    several = ia.Jacobian(lambda a: (a * 2, a.sum()), paddle.to_tensor(Y))
    assert several.shape == (3, 2)
    assert values(several[:]) == [[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]
    scalar = ia.Jacobian(lambda a: a.sum(), paddle.to_tensor(Y))
    assert scalar.shape == (1, 2) and values(scalar[:]) == [[1.0, 1.0]]


def test_a_batched_jacobian_keeps_the_batch_axis_first():
    xb = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    J = ia.Jacobian(lambda a: a * a, xb, is_batched=True)
    assert J.shape == (3, 2, 2)
    assert values(J[0]) == [[2.0, 0.0], [0.0, 4.0]]
    assert values(J[:, 1]) == [[0.0, 4.0], [0.0, 8.0], [0.0, 12.0]]
    assert values(J[:, :, 0]) == [[2.0, 0.0], [6.0, 0.0], [10.0, 0.0]]
    two = ia.Jacobian(lambda a, b: a * b, [xb, xb[:, :1]], is_batched=True)
    assert two.shape == (3, 2, 3)
    assert values(two[1]) == [[3.0, 0.0, 3.0], [0.0, 3.0, 4.0]]
    assert ia.Jacobian(lambda a: a * a, paddle.to_tensor(Y), is_batched=True).shape == (2, 1, 1)


def test_jacobian_indexing_errors_are_index_errors_as_in_paddle():
    J = ia.Jacobian(lambda a, b: paddle.matmul(a, b), [paddle.to_tensor(X)] * 2)
    with pytest.raises(IndexError, match="Ellipsis"):
        J[...]
    with pytest.raises(IndexError, match="index 5 is out of range"):
        J[5]
    with pytest.raises(IndexError, match="too many indices"):
        J[0, 0, 0]


def test_jacobian_refuses_bad_arguments():
    with pytest.raises(TypeError, match=r"Jacobian\(\): argument 'func' must be callable"):
        ia.Jacobian(3, paddle.to_tensor(Y))
    with pytest.raises(TypeError, match=r"Jacobian\(\): argument 'xs' must be a Tensor"):
        ia.Jacobian(lambda a: a, 3.0)
    with pytest.raises(ValueError, match=r"Jacobian\(\): with is_batched=True every input needs"):
        ia.Jacobian(lambda a: a, paddle.to_tensor(2.0), is_batched=True)
    with pytest.raises(ValueError, match=r"Jacobian\(\): with is_batched=True every output"):
        ia.Jacobian(lambda a: a.sum(), paddle.to_tensor(X), is_batched=True)


# --------------------------------------------------------------- Hessian
def test_hessian_of_one_and_of_two_inputs():
    H = ia.Hessian(lambda a: paddle.sum(a * a * a), paddle.to_tensor(X))
    assert H.shape == (4, 4)
    np.testing.assert_array_equal(H[:].numpy(), np.diag([6.0, 12.0, 18.0, 24.0]))
    assert isinstance(H.symbolic, ia.Jacobian)
    y = paddle.to_tensor(Y)
    two = ia.Hessian(lambda a, b: paddle.sum(a * b * b), [y, y])
    np.testing.assert_array_equal(two[:].numpy(), [[0, 0, 2, 0], [0, 0, 0, -2],
                                                   [2, 0, 2, 0], [0, -2, 0, -2]])
    shaped = ia.Hessian(lambda a: paddle.sum(a * a).reshape([1]), y)
    np.testing.assert_array_equal(shaped[:].numpy(), [[2.0, 0.0], [0.0, 2.0]])


@pytest.mark.parametrize("keepdim", [True, False])
def test_a_batched_hessian(keepdim):
    xb = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    H = ia.Hessian(lambda a: paddle.sum(a * a * a, axis=1, keepdim=keepdim), xb,
                   is_batched=True)
    assert H.shape == (3, 2, 2)
    np.testing.assert_array_equal(H[:].numpy(), [np.diag([6.0, 12.0]), np.diag([18.0, 24.0]),
                                                 np.diag([30.0, 36.0])])


def test_a_hessian_of_more_than_one_element_is_a_runtime_error_as_in_paddle():
    with pytest.raises(RuntimeError, match=r"Hessian\(\): func must return a Tensor of one "
                                           r"element.*shape \[2\]"):
        ia.Hessian(lambda a: a * a, paddle.to_tensor(Y))[:]


# ------------------------------------------------- against central differences
def numeric_jacobian(f, x, eps=1e-6):
    columns = []
    for i in range(x.size):
        step = np.zeros_like(x)
        step.flat[i] = eps
        columns.append((f(x + step) - f(x - step)).ravel() / (2 * eps))
    return np.stack(columns, axis=1)


def test_the_matrices_and_products_agree_with_central_differences():
    rng = np.random.default_rng(0)
    a0, b0 = rng.standard_normal([2, 3]), rng.standard_normal([3])

    def func(a, b):
        return paddle.tanh(paddle.matmul(a, b)) * b.sum(), paddle.exp(a).sum()

    def numpy_func(flat):
        a, b = flat[:6].reshape(2, 3), flat[6:]
        return np.concatenate([np.tanh(a @ b) * b.sum(), [np.exp(a).sum()]])

    flat = np.concatenate([a0.ravel(), b0])
    expected = numeric_jacobian(numpy_func, flat)
    xs = [paddle.to_tensor(a0), paddle.to_tensor(b0)]
    J = ia.Jacobian(func, xs)
    np.testing.assert_allclose(J[:].numpy(), expected, rtol=1e-6, atol=1e-8)
    v_out = [paddle.to_tensor(rng.standard_normal(2)), paddle.to_tensor(1.5)]
    _, (va, vb) = ia.vjp(func, xs, v_out)
    seed = np.concatenate([v_out[0].numpy(), [1.5]])
    np.testing.assert_allclose(np.concatenate([va.numpy().ravel(), vb.numpy()]),
                               seed @ expected, rtol=1e-6, atol=1e-8)
    v_in = [paddle.to_tensor(rng.standard_normal([2, 3])), paddle.to_tensor(rng.standard_normal(3))]
    _, (ja, jb) = ia.jvp(func, xs, v_in)
    direction = np.concatenate([v_in[0].numpy().ravel(), v_in[1].numpy()])
    np.testing.assert_allclose(np.concatenate([ja.numpy(), [jb.item()]]), expected @ direction,
                               rtol=1e-6, atol=1e-8)
    H = ia.Hessian(lambda a, b: func(a, b)[0].sum(), xs)

    def gradient(flat):
        return numeric_jacobian(lambda f: numpy_func(f)[:2].sum(keepdims=True), flat).ravel()

    np.testing.assert_allclose(H[:].numpy(), numeric_jacobian(gradient, flat, 1e-4),
                               rtol=1e-5, atol=1e-5)


# ------------------------------------- results stay in the caller's graph (issue 31, part 9)
# f(x) = sum(sin(x) * x**3), elementwise, so its derivatives have closed forms:
# f' = x**3 cos x + 3 x**2 sin x, f'' = -x**3 sin x + 6 x**2 cos x + 6 x sin x and
# f''' = -x**3 cos x - 9 x**2 sin x + 18 x cos x + 6 sin x.
X0 = np.array([0.5, -1.0, 2.0])


def f_sum(y):
    return paddle.sum(paddle.sin(y) * y ** 3)


def f_elementwise(y):
    return paddle.sin(y) * y ** 3


def first(x):
    return x ** 3 * np.cos(x) + 3 * x ** 2 * np.sin(x)


def second(x):
    return -x ** 3 * np.sin(x) + 6 * x ** 2 * np.cos(x) + 6 * x * np.sin(x)


def third(x):
    return -x ** 3 * np.cos(x) - 9 * x ** 2 * np.sin(x) + 18 * x * np.cos(x) + 6 * np.sin(x)


def leaf(values=X0, stop_gradient=False):
    return paddle.to_tensor(np.array(values, dtype="float64"), stop_gradient=stop_gradient)


@pytest.mark.parametrize("stop_gradient", [True, False])
def test_nested_jvp_gives_the_hessian_vector_product_and_third_order_terms(stop_gradient):
    x = leaf(stop_gradient=stop_gradient)
    v = paddle.to_tensor(np.array([1.0, 2.0, -0.5]))

    def directional(y):           # v . f'(y)
        return ia.jvp(f_sum, y, v)[1]

    def second_directional(y):    # v^T f''(y) v
        return ia.jvp(directional, y, v)[1]

    vn = v.numpy()
    np.testing.assert_allclose(directional(x).numpy(), (first(X0) * vn).sum(), rtol=1e-12)
    np.testing.assert_allclose(second_directional(x).numpy(), (second(X0) * vn ** 2).sum(),
                               rtol=1e-12)
    np.testing.assert_allclose(ia.jvp(second_directional, x, v)[1].numpy(),
                               (third(X0) * vn ** 3).sum(), rtol=1e-12)
    # The Hessian-vector product, a vector: jvp of the gradient, and vjp of the gradient.
    hvp = ia.jvp(lambda y: ia.vjp(f_sum, y)[1], x, v)[1]
    np.testing.assert_allclose(hvp.numpy(), second(X0) * vn, rtol=1e-12)
    hvp = ia.vjp(lambda y: ia.vjp(f_sum, y)[1], x, v)[1]
    np.testing.assert_allclose(hvp.numpy(), second(X0) * vn, rtol=1e-12)


def test_backward_through_vjp_and_jvp_reaches_the_callers_tensors():
    x = leaf()
    _, g = ia.vjp(f_sum, x)
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), second(X0), rtol=1e-12)
    x = leaf()
    _, d = ia.jvp(f_elementwise, x)        # d = f'(x) elementwise
    (d * d).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first(X0) * second(X0), rtol=1e-12)
    # The seed is differentiable too: jvp is linear in v.
    x, v = leaf(), leaf([1.0, 1.0, 1.0])
    _, d = ia.jvp(f_elementwise, x, v)
    d.sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), first(X0), rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), second(X0), rtol=1e-12)
    assert x.stop_gradient is False and x.grad_fn is None    # the caller's leaf stays a leaf


@pytest.mark.parametrize("is_batched", [False, True])
def test_backward_through_jacobian_and_hessian_reaches_the_callers_tensors(is_batched):
    x = leaf(X0.reshape([3, 1]) if is_batched else X0)
    J = ia.Jacobian(f_elementwise, x, is_batched=is_batched)
    J[:].sum().backward()
    np.testing.assert_allclose(x.grad.numpy().ravel(), second(X0), rtol=1e-12)
    x = leaf(X0.reshape([3, 1]) if is_batched else X0)
    H = ia.Hessian(f_elementwise if is_batched else f_sum, x, is_batched=is_batched)
    H[:].sum().backward()
    np.testing.assert_allclose(x.grad.numpy().ravel(), third(X0), rtol=1e-12)
    # Two inputs: each one's own gradient, through the joined matrix.
    a, b = leaf(), leaf([0.3, 0.2, 0.1])
    J = ia.Jacobian(lambda p, q: p * p * q, [a, b], is_batched=is_batched)
    J[:].sum().backward()      # the sum of 2 p q and p**2
    np.testing.assert_allclose(a.grad.numpy(), 2 * (a.numpy() + b.numpy()), rtol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), 2 * a.numpy(), rtol=1e-12)


def test_a_helmholtz_style_residual_trains_through_the_nested_jvp():
    # u(x) = w x**3, u'' = 6 w x; the residual u'' + k**2 u - s and its mean square,
    # as PaddleScience's Helmholtz equation builds it with nested jvp. The loss
    # depends on x both directly and through u'': its gradient has both terms.
    w = paddle.to_tensor(np.array(0.7), stop_gradient=False)
    x = leaf([0.2, -0.4, 0.9])
    ones = paddle.ones([3], dtype="float64")
    k2, s = 4.0, np.array([0.1, 0.0, -0.3])

    def u(y):
        return w * y ** 3

    u_xx = ia.jvp(lambda y: ia.jvp(u, y, ones)[1], x, ones)[1]
    residual = u_xx + k2 * u(x) - paddle.to_tensor(s)
    loss = (residual * residual).mean()
    loss.backward()
    xn, wn = x.numpy(), 0.7
    r = 6 * wn * xn + k2 * wn * xn ** 3 - s
    np.testing.assert_allclose(u_xx.numpy(), 6 * wn * xn, rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), 2 * r * (6 * wn + 3 * k2 * wn * xn ** 2) / 3,
                               rtol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), (2 * r * (6 * xn + k2 * xn ** 3)).mean(),
                               rtol=1e-12)
