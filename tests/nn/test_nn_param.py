"""ParamAttr, create_parameter, Parameter and the initializers."""
import numpy as np
import pytest

import pylayer
from pylayer import static
from pylayer.ops import dispatch
from pylayer.static._record import record_op
from pylayer.nn import initializer as I
from pylayer.nn.param import Parameter, parameter_spec


def test_param_module_exports_exactly_two_names():
    assert pylayer.nn.param.__all__ == ["ParamAttr", "create_parameter"]
    assert pylayer.create_parameter is pylayer.nn.param.create_parameter
    assert pylayer.ParamAttr is pylayer.nn.param.ParamAttr


def test_create_parameter_is_a_trainable_leaf():
    w = pylayer.create_parameter([3, 4], "float64")
    assert isinstance(w, Parameter) and isinstance(w, pylayer.Tensor)
    assert w.shape == [3, 4] and w.dtype == "float64"
    assert not w.stop_gradient and w.is_leaf and w.trainable and w.persistable
    assert w.name.startswith("create_parameter_") and w.name.endswith(".w_0")
    (w * w).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), 2 * w.numpy())
    assert repr(w).startswith("Parameter containing:\nTensor(shape=[3, 4]")


def test_default_initializers_weight_xavier_bias_zero():
    pylayer.seed(3)
    w = pylayer.create_parameter([20, 30], "float32")
    limit = np.sqrt(6 / 50)
    assert np.abs(w.numpy()).max() <= limit and np.abs(w.numpy()).max() > 0.8 * limit
    b = pylayer.create_parameter([5], "float32", is_bias=True)
    np.testing.assert_array_equal(b.numpy(), np.zeros(5, np.float32))


def test_initializer_priority_and_names():
    attr = pylayer.ParamAttr(name="w_custom", initializer=I.Constant(3.0), learning_rate=0.5)
    w = pylayer.create_parameter([2], "float32", name="ignored", attr=attr,
                                 default_initializer=I.Constant(7.0))
    assert w.name == "w_custom"
    np.testing.assert_array_equal(w.numpy(), [3.0, 3.0])
    assert w.optimize_attr["learning_rate"] == 0.5
    v = pylayer.create_parameter([2], "float32", name="given",
                                 default_initializer=I.Constant(7.0))
    assert v.name == "given"
    np.testing.assert_array_equal(v.numpy(), [7.0, 7.0])


def test_trainable_false_and_stop_gradient_link():
    w = pylayer.create_parameter([2], "float32", attr=pylayer.ParamAttr(trainable=False))
    assert w.stop_gradient and not w.trainable
    w.trainable = True
    assert not w.stop_gradient


def test_seed_makes_parameters_repeat():
    pylayer.seed(11)
    a = pylayer.create_parameter([4], "float32", default_initializer=I.Normal()).numpy()
    pylayer.seed(11)
    b = pylayer.create_parameter([4], "float32", default_initializer=I.Normal()).numpy()
    np.testing.assert_array_equal(a, b)


def test_param_attr_conversions_and_errors():
    assert pylayer.ParamAttr._to_attr(None).name is None
    assert pylayer.ParamAttr._to_attr("n").name == "n"
    assert isinstance(pylayer.ParamAttr._to_attr(I.Constant(1.0)).initializer, I.Constant)
    assert pylayer.ParamAttr._to_attr(False) is False
    with pytest.raises(TypeError, match="initializer"):
        pylayer.ParamAttr(initializer="zeros")
    with pytest.raises(ValueError, match="learning_rate"):
        pylayer.ParamAttr(learning_rate=-1)
    with pytest.raises(TypeError, match="shape"):
        pylayer.create_parameter([2.5], "float32")
    with pytest.raises(TypeError, match="dtype"):
        pylayer.create_parameter([2], "uint32")


def test_static_mode_hands_create_parameter_to_the_static_recorder():
    calls = []
    dispatch.register_static(static.Variable, lambda fn, *a, **k: calls.append((fn, a, k)) or "v")
    pylayer.enable_static()
    try:
        layer_weight = pylayer.nn.Linear(2, 3).weight
    finally:
        pylayer.disable_static()
        dispatch.register_static(static.Variable, record_op)
    assert layer_weight == "v"
    fn, args, kwargs = calls[0]
    assert fn is pylayer.create_parameter.__wrapped__ and args == ([2, 3], "float32")
    spec = parameter_spec(*args, **kwargs)
    assert spec.name.endswith(".w_0") and isinstance(spec.initializer, I.XavierUniform)
    assert spec.initializer.generate(spec.shape, spec.dtype).shape == (2, 3)


# ------------------------------------------------------------ initializers
def test_constant_normal_uniform_statistics():
    pylayer.seed(0)
    np.testing.assert_array_equal(I.Constant(2).generate([2, 2], "float64"), np.full([2, 2], 2.0))
    n = I.Normal(mean=1.0, std=2.0).generate([20000], "float64")
    assert abs(n.mean() - 1.0) < 0.05 and abs(n.std() - 2.0) < 0.05
    u = I.Uniform(-3.0, -1.0).generate([20000], "float32")
    assert u.dtype == np.float32 and u.min() >= -3.0 and u.max() < -1.0
    assert abs(u.mean() + 2.0) < 0.05


def test_xavier_uniform_limits_and_fans():
    pylayer.seed(0)
    w = I.XavierUniform().generate([300, 100], "float64")
    limit = np.sqrt(6.0 / 400)
    assert np.abs(w).max() <= limit and np.abs(w).max() > 0.99 * limit
    conv = I.XavierUniform(gain=2.0).generate([8, 4, 3, 3], "float64")
    assert np.abs(conv).max() <= 2.0 * np.sqrt(6.0 / ((4 + 8) * 9))
    fixed = I.XavierUniform(fan_in=1, fan_out=1).generate([1000], "float64")
    assert np.abs(fixed).max() > 1.5


def test_initializer_call_fills_in_place():
    w = pylayer.create_parameter([3], "float32")
    array = w.numpy()
    I.Constant(4.0)(w)
    assert w.numpy() is array and w.inplace_version == 1
    np.testing.assert_array_equal(array, [4.0, 4.0, 4.0])


def test_initializer_argument_errors():
    with pytest.raises(ValueError, match="std"):
        I.Normal(std=-1.0)
    with pytest.raises(ValueError, match="high"):
        I.Uniform(1.0, 0.0)
    with pytest.raises(TypeError, match="value"):
        I.Constant("a")
