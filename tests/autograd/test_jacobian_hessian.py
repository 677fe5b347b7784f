"""paddle.autograd.jacobian / hessian: lazy Jacobian and Hessian objects (Paddle 3.3.1's shapes,
indexing and errors), through PyLayers too."""
import numpy as np
import pytest

import pylayer
from pylayer.autograd import Hessian, Jacobian, PyLayer, hessian, jacobian


def leaf(data):
    return pylayer.to_tensor(data, dtype="float64", stop_gradient=False)


def numeric_jacobian(fn, x, eps=1e-6):
    """d fn(x) / d x by central differences, as a [M, N] array (float64)."""
    x = np.asarray(x, dtype=np.float64)
    columns = []
    for j in range(x.size):
        step = np.zeros_like(x)
        step.flat[j] = eps
        columns.append((np.ravel(fn(x + step)) - np.ravel(fn(x - step))) / (2 * eps))
    return np.stack(columns, axis=-1)


class CountingCube(PyLayer):
    """x**3 with a differentiable backward, counting its backward calls."""
    calls = 0

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        CountingCube.calls += 1
        (x,) = ctx.saved_tensor()
        return 3.0 * x * x * g


def test_jacobian_values_shape_and_slices():
    x = leaf([1.0, 2.0, 3.0])
    y = pylayer.stack([x[0] * x[1], pylayer.sin(x[2]), x.sum()])
    J = jacobian(y, x)
    assert isinstance(J, Jacobian) and J.shape == [3, 3]
    expected = numeric_jacobian(lambda a: [a[0] * a[1], np.sin(a[2]), a.sum()], x.numpy())
    np.testing.assert_allclose(J[:].numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(J[1].numpy(), expected[1], rtol=1e-6)
    np.testing.assert_allclose(J[:, 2].numpy(), expected[:, 2], rtol=1e-6)
    np.testing.assert_allclose(J[-1, 0:2].numpy(), expected[-1, 0:2], rtol=1e-6)
    np.testing.assert_allclose(J[::2].numpy(), expected[::2], rtol=1e-6)
    np.testing.assert_allclose(J.numpy(), expected, rtol=1e-6)     # any attribute evaluates
    np.testing.assert_allclose((J * 2.0).numpy(), 2 * expected, rtol=1e-6)


def test_rows_are_computed_only_when_indexed_and_only_once():
    CountingCube.calls = 0
    x = leaf([1.0, 2.0, 3.0])
    J = jacobian(CountingCube.apply(x), x)
    assert CountingCube.calls == 0
    assert J[1].numpy().tolist() == [0.0, 12.0, 0.0]
    assert CountingCube.calls == 1
    J[1, 1]
    J[0:2]
    assert CountingCube.calls == 2         # row 1 came from the cache
    np.testing.assert_allclose(J[:].numpy(), np.diag(3 * x.numpy() ** 2))


@pytest.mark.parametrize("ys_shape, xs_shape, expected", [
    ([], [3], [3]), ([2], [], [2]), ([], [], []), ([2], [3], [2, 3])])
def test_shapes_without_a_batch_axis(ys_shape, xs_shape, expected):
    x = leaf(np.arange(1.0, 1.0 + np.prod(xs_shape, dtype=int)).reshape(xs_shape))
    y = (x.sum() * pylayer.ones(ys_shape, "float64")) if ys_shape else x.sum() * x.sum()
    J = jacobian(y, x)
    assert J.shape == expected
    assert list(J.numpy().shape) == expected        # Paddle: the 0-D case evaluates whole


def test_a_0d_jacobian_cannot_be_indexed():
    x = leaf(2.0)
    J = jacobian(x * x, x)
    assert J.numpy() == 4.0
    with pytest.raises(IndexError, match="0-D"):
        J[0]


def test_batch_axis_zero():
    x = leaf(np.arange(6.0).reshape(2, 3))
    J = jacobian(x * x, x, batch_axis=0)
    assert J.shape == [2, 3, 3] and J[:].shape == [2, 3, 3] and J[0].shape == [3, 3]
    np.testing.assert_allclose(J[1].numpy(), np.diag(2 * x.numpy()[1]))
    np.testing.assert_allclose(J[:, 1, :].numpy(), [[0, 2, 0], [0, 8, 0]])
    v = leaf([1.0, 2.0])
    Jv = jacobian(v * 3.0, v, batch_axis=0)
    assert Jv.shape == [2] and Jv[:].numpy().tolist() == [3.0, 3.0]


def test_tuples_give_nested_tuples():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0, 5.0])
    Js = jacobian((a * 2.0, b.sum()), (a, b))
    assert isinstance(Js, tuple) and all(isinstance(row, tuple) for row in Js)
    assert [[j.shape for j in row] for row in Js] == [[[2, 2], [2, 3]], [[2], [3]]]
    np.testing.assert_array_equal(Js[0][1][:].numpy(), np.zeros((2, 3)))   # unused: zeros
    np.testing.assert_array_equal(Js[1][1][:].numpy(), [1.0, 1.0, 1.0])
    single = jacobian(a * 2.0, [a, b])
    assert isinstance(single, tuple) and [j.shape for j in single] == [[2, 2], [2, 3]]


def test_errors_follow_paddle():
    x = leaf(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"jacobian\(\).*xs must be 0-D or 1-D.*batch_axis=0"):
        jacobian(x * 2.0, x)
    v = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match=r"jacobian\(\).*ys must be 0-D or 1-D"):
        jacobian(v.reshape([2, 1]), v)
    with pytest.raises(ValueError, match=r"jacobian\(\).*'batch_axis'.*1"):
        jacobian(v, v, batch_axis=1)
    with pytest.raises(ValueError, match=r"jacobian\(\).*stop_gradient=True"):
        jacobian(v * 2.0, pylayer.ones([2]))
    with pytest.raises(TypeError, match=r"Jacobian\(\).*'ys'.*list|ys"):
        jacobian("y", v)
    with pytest.raises(IndexError, match="out of range"):
        jacobian(v * 2.0, v)[5]
    with pytest.raises(ValueError, match=r"hessian\(\).*exactly one element.*\[2\]"):
        hessian(v * v, v)


def test_hessian_of_a_scalar():
    x = leaf([0.5, -1.0, 2.0])
    H = hessian(pylayer.sum(pylayer.sin(x) * x[0]), x)
    assert isinstance(H, Hessian) and H.shape == [3, 3]

    def gradient(a):
        return np.cos(a) * a[0] + np.eye(3)[0] * np.sin(a).sum()
    np.testing.assert_allclose(H[:].numpy(), numeric_jacobian(gradient, x.numpy()), rtol=1e-6,
                               atol=1e-8)
    np.testing.assert_allclose(H[:].numpy(), H[:].numpy().T, rtol=1e-12)


def test_hessian_goes_through_a_pylayer_differentiable_backward():
    x = leaf([1.0, 2.0])
    H = hessian(CountingCube.apply(x).sum(), x)
    np.testing.assert_allclose(H[:].numpy(), np.diag(6 * x.numpy()))


def test_hessian_with_tuples_and_with_a_batch_axis():
    a, b = leaf([1.0, 2.0]), leaf([3.0])
    H = hessian((a * a).sum() * b.sum(), (a, b))
    assert [[h.shape for h in row] for row in H] == [[[2, 2], [2, 1]], [[1, 2], [1, 1]]]
    assert all(isinstance(h, Hessian) for row in H for h in row)
    np.testing.assert_allclose(H[0][0][:].numpy(), 2 * 3.0 * np.eye(2))
    np.testing.assert_allclose(H[0][1][:].numpy(), [[2.0], [4.0]])
    x = leaf(np.arange(1.0, 7.0).reshape(2, 3))
    Hb = hessian((x * x * x).sum(axis=-1), x, batch_axis=0)
    assert Hb.shape == [2, 3, 3]
    np.testing.assert_allclose(Hb[1].numpy(), np.diag(6 * x.numpy()[1]))
    with pytest.raises(ValueError, match=r"hessian\(\).*one value per batch"):
        hessian(x * x, x, batch_axis=0)
