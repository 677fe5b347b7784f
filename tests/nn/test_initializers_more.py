"""The initializers of ``paddle.nn.initializer`` beyond the first four, with the
values Paddle 3.3.1 gives (observed: gains, bounds, the Dirac and Orthogonal
structure, the precedence of ``set_global_initializer``)."""
import math

import numpy as np
import pytest

import pylayer
from pylayer.nn import initializer as I


@pytest.fixture(autouse=True)
def no_global_initializer():
    yield
    I.set_global_initializer(None)


@pytest.mark.parametrize("nonlinearity, param, gain", [
    ("sigmoid", None, 1.0), ("linear", None, 1.0), ("conv2d", None, 1.0),
    ("conv_transpose2d", None, 1.0), ("tanh", None, 5 / 3), ("relu", None, math.sqrt(2)),
    ("selu", None, 0.75), ("leaky_relu", None, 1.4141428569978354),
    ("leaky_relu", 0.2, 1.3867504905630728)])
def test_calculate_gain_as_paddle(nonlinearity, param, gain):
    assert I.calculate_gain(nonlinearity, param) == pytest.approx(gain, rel=1e-15)


def test_calculate_gain_refuses_an_unknown_nonlinearity():
    with pytest.raises(ValueError, match="calculate_gain"):
        I.calculate_gain("swishy")


def test_kaiming_bounds_and_spread_as_paddle():
    pylayer.seed(0)
    w = I.KaimingUniform().generate([400, 600], "float64")
    assert abs(w).max() <= math.sqrt(6 / 400) and abs(w).max() > 0.99 * math.sqrt(6 / 400)
    w = I.KaimingUniform(fan_in=10, negative_slope=0.5, nonlinearity="leaky_relu") \
        .generate([400, 600], "float64")
    assert abs(w).max() == pytest.approx(0.692820323027551, rel=1e-3)
    w = I.KaimingNormal(mode="fan_out").generate([300, 500], "float64")
    assert w.std() == pytest.approx(math.sqrt(2 / 500), rel=0.02)
    w = I.XavierNormal().generate([300, 500], "float64")
    assert w.std() == pytest.approx(math.sqrt(2 / 800), rel=0.02)


def test_truncated_normal_keeps_to_its_absolute_bounds():
    w = I.TruncatedNormal(mean=1.0, std=2.0, a=-1.0, b=3.0).generate([2000, 60], "float64")
    assert w.min() >= -1.0 and w.max() <= 3.0 and abs(w.mean() - 1.0) < 0.05
    with pytest.raises(ValueError, match="TruncatedNormal"):
        I.TruncatedNormal(a=1.0, b=0.0)


def test_orthogonal_rows_or_columns_are_orthonormal_times_the_gain():
    w = I.Orthogonal(gain=2.0).generate([3, 5], "float64")
    np.testing.assert_allclose(w @ w.T, 4 * np.eye(3), atol=1e-12)
    w = I.Orthogonal().generate([6, 2, 1], "float64").reshape(6, 2)
    np.testing.assert_allclose(w.T @ w, np.eye(2), atol=1e-12)


def test_dirac_makes_a_convolution_the_identity():
    w = I.Dirac(groups=2).generate([4, 2, 3, 3], "float64")
    np.testing.assert_array_equal(w[:, :, 1, 1], [[1, 0], [0, 1], [1, 0], [0, 1]])
    assert w.sum() == 4
    conv = pylayer.nn.Conv2D(2, 2, 3, padding=1, bias_attr=False,
                             weight_attr=pylayer.ParamAttr(initializer=I.Dirac()))
    x = pylayer.randn([1, 2, 4, 4])
    np.testing.assert_allclose(conv(x).numpy(), x.numpy(), atol=1e-6)


def test_bilinear_is_the_outer_product_of_interpolation_weights():
    # Paddle 3.3.1 divides with '/' where it means '//' and gives a lopsided kernel
    # (first row [0.0625, 0.28125, 0.375, 0.15625]); this is the kernel it intends.
    w = I.Bilinear().generate([1, 1, 4, 4], "float64")[0, 0]
    np.testing.assert_allclose(w[0], [0.0625, 0.1875, 0.1875, 0.0625])
    np.testing.assert_allclose(w, w.T)


def test_assign_copies_a_value_of_the_parameters_shape():
    w = pylayer.create_parameter([2, 2], "float64",
                                 default_initializer=I.Assign(np.array([[1.0, 2.0], [3.0, 4.0]])))
    assert w.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(ValueError, match=r"Assign\(\): the value has shape \[2\]"):
        pylayer.create_parameter([3], "float64", default_initializer=I.Assign([1.0, 2.0]))


def test_a_global_initializer_gives_way_to_param_attr_only():
    I.set_global_initializer(I.Constant(0.5), I.Constant(-1.0))
    layer = pylayer.nn.Linear(2, 1)
    assert layer.weight.numpy().ravel().tolist() == [0.5, 0.5]
    assert layer.bias.numpy().tolist() == [-1.0]
    own = pylayer.nn.Linear(2, 1, weight_attr=pylayer.ParamAttr(initializer=I.Constant(3.0)))
    assert own.weight.numpy().ravel().tolist() == [3.0, 3.0]
    I.set_global_initializer(None)
    assert pylayer.nn.Linear(2, 1).bias.numpy().tolist() == [0.0]
    with pytest.raises(TypeError, match="set_global_initializer"):
        I.set_global_initializer("xavier")
