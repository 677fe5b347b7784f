"""copy, deepcopy and pickle of Tensors, Parameters, Layers and optimizers; set_value;
devices (pylayer is CPU-only)."""
import copy
import pickle

import numpy as np
import pytest

import pylayer
from pylayer import nn


def named_leaf():
    t = pylayer.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    t.name = "my_tensor"
    return t


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_a_tensor_copy_keeps_values_dtype_flags_and_name(how):
    t = named_leaf()
    c = {"copy": copy.copy, "deepcopy": copy.deepcopy,
         "pickle": lambda v: pickle.loads(pickle.dumps(v))}[how](t)
    assert type(c) is pylayer.Tensor and c is not t
    assert c.numpy().tolist() == [1.0, 2.0] and c.dtype == "float64"
    assert c.stop_gradient is False and c.name == "my_tensor" and c.is_leaf


def test_a_deep_copy_shares_no_data_and_no_graph():
    t = named_leaf()
    (t * t).sum().backward()
    c = copy.deepcopy(t)
    assert not np.shares_memory(c.numpy(), t.numpy())
    assert c.grad is None               # as in Paddle: a copy starts without a gradient
    c.numpy()[0] = 7.0
    assert t.numpy()[0] == 1.0
    (c * 3.0).sum().backward()
    assert c.grad.numpy().tolist() == [3.0, 3.0] and t.grad.numpy().tolist() == [2.0, 4.0]
    out = copy.deepcopy(t * 2.0)        # a non-leaf copies to a leaf with the same flags
    assert out.is_leaf and not out.stop_gradient and out.numpy().tolist() == [2.0, 4.0]


def test_a_shallow_copy_has_data_of_its_own_as_in_paddle():
    # Paddle 3.3.1's copy.copy copies the data too; a copy that shared it would be a
    # second leaf over one array (issue 18).
    t = named_leaf()
    assert not np.shares_memory(copy.copy(t).numpy(), t.numpy())


@pytest.mark.parametrize("how", [copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))],
                         ids=["deepcopy", "pickle"])
def test_a_parameter_copy_keeps_its_class_and_settings(how):
    w = pylayer.create_parameter([2, 2], "float32", attr=pylayer.ParamAttr(
        name="w_copy", learning_rate=0.5, regularizer=0.01, need_clip=False))
    c = how(w)
    assert isinstance(c, nn.Parameter) and c.name == "w_copy" and c.trainable
    assert c.optimize_attr == {"learning_rate": 0.5} and c.regularizer == 0.01
    assert c.need_clip is False and not np.shares_memory(c.numpy(), w.numpy())
    np.testing.assert_array_equal(c.numpy(), w.numpy())


@pytest.mark.parametrize("how", [copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))],
                         ids=["deepcopy", "pickle"])
def test_a_layer_copy_is_independent_and_computes_the_same(how):
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    c = how(model)
    x = pylayer.ones([2, 3])
    np.testing.assert_array_equal(c(x).numpy(), model(x).numpy())
    assert [p.name for p in c.parameters()] == [p.name for p in model.parameters()]
    for mine, theirs in zip(c.parameters(), model.parameters()):
        assert mine is not theirs and not np.shares_memory(mine.numpy(), theirs.numpy())
    with pylayer.no_grad():
        c[0].weight.set_value(np.zeros([3, 4], "float32"))
    assert not np.all(model[0].weight.numpy() == 0)


def test_an_optimizer_copied_with_its_model_keeps_its_state():
    model = nn.Linear(2, 1)
    opt = pylayer.optimizer.Adam(learning_rate=0.1, parameters=model.parameters())
    model(pylayer.ones([1, 2])).sum().backward()
    opt.step()
    opt.clear_grad(set_to_zero=False)
    model_copy, opt_copy = copy.deepcopy((model, opt))
    assert opt_copy._parameter_list[0] is model_copy.weight
    np.testing.assert_array_equal(opt_copy.state_dict()[f"{model.weight.name}_moment1_0"].numpy(),
                                  opt.state_dict()[f"{model.weight.name}_moment1_0"].numpy())
    for net, optimizer in ((model, opt), (model_copy, opt_copy)):
        net(pylayer.ones([1, 2])).sum().backward()
        optimizer.step()
    np.testing.assert_array_equal(model_copy.weight.numpy(), model.weight.numpy())
    restored = pickle.loads(pickle.dumps(opt))
    assert restored.get_lr() == 0.1


def test_set_value_works_on_a_trainable_parameter_outside_the_graph():
    w = nn.Linear(2, 3).weight
    assert w.trainable
    version = w.inplace_version
    w.set_value(np.ones([2, 3], "float32"))
    assert w.numpy().tolist() == [[1.0] * 3] * 2 and w.trainable and w.is_leaf
    assert w.inplace_version > version
    w.set_value(pylayer.full([2, 3], 2.0))
    assert w.numpy()[0, 0] == 2.0
    with pytest.raises(ValueError, match=r"set_value.*\[3\].*\[2, 3\]"):
        w.set_value(np.ones([3], "float32"))


# -------------------------------------------------------------------- devices
def test_cpu_is_the_device():
    place = pylayer.set_device("cpu")
    assert repr(place) == "Place(cpu)" and place.is_cpu_place()
    assert pylayer.get_device() == "cpu" and pylayer.device.get_device() == "cpu"
    assert pylayer.is_compiled_with_cuda() is False and pylayer.device.device_count() == 0
    assert pylayer.device.set_device is pylayer.set_device


@pytest.mark.parametrize("name", ["gpu", "gpu:0", "cuda", "GPU:1", "xpu"])
def test_asking_for_a_gpu_says_pylayer_runs_on_the_cpu(name):
    with pytest.raises(ValueError, match=r"set_device\(\).*'device'.*CPU only"):
        pylayer.set_device(name)
    assert pylayer.get_device() == "cpu"


def test_is_tensor():
    assert pylayer.is_tensor(pylayer.ones([1])) and pylayer.is_tensor(nn.Linear(1, 1).weight)
    assert not pylayer.is_tensor(np.ones(1)) and not pylayer.is_tensor([1.0])
