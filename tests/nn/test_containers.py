"""Containers (LayerList, LayerDict, ParameterList, ParameterDict, Sequential) and nn.utils,
checked against what Paddle 3.3.1 does (values observed in the scratch Paddle)."""
import os

import numpy as np
import pytest

import pylayer
from pylayer import nn
from pylayer.nn import utils

DATA = os.path.join(os.path.dirname(__file__), "data")


def param(shape, value=None):
    p = pylayer.create_parameter(shape, "float32")
    if value is not None:
        p.set_value(np.asarray(value, dtype="float32"))
    return p


class Net(nn.Layer):
    """The model of ``data/containers.pdparams`` (same structure, same forward)."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.LayerList([nn.Linear(3, 4), nn.Linear(4, 4)])
        self.heads = nn.LayerDict({"out": nn.Linear(4, 2)})
        self.scales = nn.ParameterList([param([4]) for _ in range(2)])
        self.extra = nn.ParameterDict({"shift": param([2])})
        self.seq = nn.Sequential(nn.Tanh(), nn.Linear(2, 2))

    def forward(self, x):
        for block, scale in zip(self.blocks, self.scales):
            x = nn.functional.relu(block(x)) * scale
        return self.seq(self.heads["out"](x) + self.extra["shift"])


PADDLE_KEYS = ["blocks.0.weight", "blocks.0.bias", "blocks.1.weight", "blocks.1.bias",
               "heads.out.weight", "heads.out.bias", "scales.0", "scales.1", "extra.shift",
               "seq.1.weight", "seq.1.bias"]


def test_state_dict_keys_are_paddles():
    assert list(Net().state_dict()) == PADDLE_KEYS


def test_loads_a_state_dict_saved_by_paddle_and_gives_its_output():
    # containers.pdparams and containers.npz were written by the scratch Paddle 3.3.1:
    # paddle.seed(7); the same Net; x = RandomState(0).randn(5, 3) as float32;
    # paddle.save(net.state_dict(), ...); np.savez(..., x=x, y=net(x)).
    net = Net()
    missing, unexpected = net.set_state_dict(pylayer.load(os.path.join(DATA,
                                                                       "containers.pdparams")))
    assert missing == [] and unexpected == []
    data = np.load(os.path.join(DATA, "containers.npz"))
    np.testing.assert_allclose(net(pylayer.to_tensor(data["x"])).numpy(), data["y"],
                               rtol=1e-5, atol=1e-6)


def test_a_model_of_containers_trains_and_round_trips(tmp_path):
    pylayer.seed(3)
    net = Net()
    rng = np.random.RandomState(1)
    x = pylayer.to_tensor(rng.randn(16, 3).astype("float32"))
    y = pylayer.to_tensor(rng.randn(16, 2).astype("float32"))
    opt = pylayer.optimizer.Adam(learning_rate=0.05, parameters=net.parameters())
    assert len(net.parameters()) == 11
    losses = []
    for _ in range(30):
        loss = nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.7 * losses[0]
    path = str(tmp_path / "net.pdparams")
    pylayer.save(net.state_dict(), path)
    other = Net()
    other.set_state_dict(pylayer.load(path))
    np.testing.assert_array_equal(other(x).numpy(), net(x).numpy())


def test_torch_style_aliases_are_paddles_classes():
    assert nn.Module is nn.Layer and nn.ModuleList is nn.LayerList
    assert nn.ModuleDict is nn.LayerDict


# ------------------------------------------------------------------- LayerList
def test_layer_list_slicing_pop_add_and_renumbering():
    a, b, c = nn.ReLU(), nn.Tanh(), nn.Sigmoid()
    layers = nn.LayerList([a, b, c])
    part = layers[1:]
    assert isinstance(part, nn.LayerList) and list(part) == [b, c]
    assert list(part._sub_layers) == ["0", "1"]
    assert layers.pop(0) is a and list(layers) == [b, c]
    assert list(layers._sub_layers) == ["0", "1"]
    both = layers + [a]
    assert isinstance(both, nn.LayerList) and list(both) == [b, c, a] and len(layers) == 2
    layers += [a]
    assert list(layers) == [b, c, a]
    layers.insert(-1, nn.ReLU6())
    assert [type(l).__name__ for l in layers] == ["Tanh", "Sigmoid", "ReLU6", "ReLU"]
    assert layers.insert(4, a) is None and layers[4] is a
    popped = layers.pop(slice(0, 2))
    assert list(popped) == [b, c] and len(layers) == 3
    del layers[0]
    assert list(layers._sub_layers) == ["0", "1"]
    layers[-1] = b
    assert layers[1] is b
    assert "0" not in dir(layers)


def test_layer_list_refusals():
    layers = nn.LayerList([nn.ReLU()])
    with pytest.raises(IndexError, match=r"range \[-1, 1\)"):
        layers[3]
    with pytest.raises(IndexError, match=r"insert.*\[-1, 1\]"):
        layers.insert(5, nn.ReLU())
    with pytest.raises(TypeError, match="LayerList.append.*sublayer"):
        layers.append(3)
    with pytest.raises(TypeError, match="LayerList.*item 1"):
        nn.LayerList([nn.ReLU(), 3])
    with pytest.raises(TypeError, match="LayerList.*index"):
        layers["a"]
    assert len(layers) == 1


# ------------------------------------------------------------------- LayerDict
def test_layer_dict_is_a_dict_of_layers():
    lin, act = nn.Linear(2, 2), nn.ReLU()
    d = nn.LayerDict([("lin", lin), ("act", act)])
    assert list(d) == ["lin", "act"] and "act" in d and len(d) == 2
    assert list(d.keys()) == ["lin", "act"] and list(d.values()) == [lin, act]
    assert list(d.items()) == [("lin", lin), ("act", act)]
    assert d.pop("act") is act and list(d) == ["lin"]
    d["act"] = act
    d.update(nn.LayerDict({"x": nn.Tanh()}))
    assert list(d) == ["lin", "act", "x"]
    del d["x"]
    assert list(d.state_dict()) == ["lin.weight", "lin.bias"]
    d.clear()
    assert len(d) == 0 and d.parameters() == []
    with pytest.raises(KeyError):
        d["missing"]
    with pytest.raises(ValueError, match="item 0.*pair"):
        d.update([("a",)])
    with pytest.raises(TypeError, match="sublayers"):
        nn.LayerDict(3)
    with pytest.raises(NotImplementedError):
        d(pylayer.ones([1]))


# --------------------------------------------------------- ParameterList / Dict
def test_parameter_list():
    p0, p1 = param([2], [1, 2]), param([3])
    plist = nn.ParameterList([p0])
    assert plist.append(p1) is plist
    assert list(plist) == [p0, p1] and plist[-1] is p1 and len(plist) == 2
    assert list(plist.state_dict()) == ["0", "1"] and plist.parameters() == [p0, p1]
    plist[0] = pylayer.to_tensor([5.0, 6.0])      # Paddle assigns the value in place
    assert plist[0] is p0
    np.testing.assert_array_equal(p0.numpy(), [5.0, 6.0])
    assert repr(plist) == "ParameterList()"
    with pytest.raises(TypeError, match="Parameter"):
        plist.append(pylayer.ones([2]))
    with pytest.raises(TypeError, match="Parameter"):
        nn.ParameterList([pylayer.ones([2])])
    with pytest.raises(TypeError, match="Tensor"):
        plist[0] = 3
    with pytest.raises(ValueError, match="shape"):
        plist[0] = pylayer.ones([3])
    with pytest.raises(IndexError):
        plist[2]


def test_parameter_dict():
    a, b = param([1]), param([2])
    pdict = nn.ParameterDict([("a", a)])
    pdict["b"] = b
    assert list(pdict) == ["a", "b"] and pdict["b"] is b and "a" in pdict
    assert list(pdict.state_dict()) == ["a", "b"]
    copy = nn.ParameterDict(pdict)
    assert list(copy) == ["a", "b"] and copy["a"] is a
    with pytest.raises(TypeError, match="Parameter"):
        pdict["c"] = pylayer.ones([1])
    with pytest.raises(ValueError, match="item 0.*pair"):
        pdict.update([("x",)])
    with pytest.raises(KeyError):
        pdict["zz"]
    assert not hasattr(pdict, "keys")      # Paddle's ParameterDict has no keys()


# ------------------------------------------------------------------ Sequential
def test_sequential_as_paddle():
    l0, act, l2 = nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1)
    model = nn.Sequential(l0, act, l2)
    part = model[1:]
    assert isinstance(part, nn.Sequential) and list(part._sub_layers) == ["0", "1"]
    assert model["1"] is act and model[-1] is l2
    assert model.insert(1, nn.Tanh()) is model
    assert list(model.state_dict()) == ["0.weight", "0.bias", "3.weight", "3.bias"]
    assert model.append(nn.Sigmoid()) is model and model.extend([nn.ReLU()]) is model
    assert len(model) == 6
    new = nn.Linear(1, 2)
    model[0] = new
    assert model[0] is new and list(model._sub_layers)[0] == "0"
    del model[2]                         # by name, no renumbering, as in Paddle
    assert list(model._sub_layers) == ["0", "1", "3", "4", "5"]
    assert model(pylayer.ones([3, 1])).shape == [3, 1]
    named = nn.Sequential(("a", nn.ReLU()), ("b", nn.Tanh()))
    assert list(named[0:1]._sub_layers) == ["0"]
    named.insert(1, nn.Sigmoid())
    assert list(named._sub_layers) == ["a", "2", "b"]


def test_sequential_refusals():
    model = nn.Sequential(nn.ReLU())
    with pytest.raises(IndexError):
        model[1]
    with pytest.raises(IndexError):
        model[-2]
    with pytest.raises(KeyError):
        model["x"]
    with pytest.raises(KeyError):
        del model["9"]
    with pytest.raises(IndexError, match="index"):
        model.insert(3, nn.ReLU())
    with pytest.raises(TypeError, match="module"):
        model.insert(0, 3)
    with pytest.raises(TypeError, match="module"):
        model.append(3)
    with pytest.raises(TypeError, match="Layer"):
        model[0] = 3
    assert len(model) == 1


# ------------------------------------------------------------------ nn.utils
def _two_with_gradients():
    a, b, c = param([2, 2], [[1, -2], [0, 3]]), param([3], [0.5, 0, -4]), param([1])
    ((a * a).sum() * 0.5 + (b * b * b).sum()).backward()
    return a, b, c


@pytest.mark.parametrize("norm_type, total, a_grad, b_grad", [
    # Paddle 3.3.1's results for the same parameters and max_norm=1.5
    (2, 48.151455, [0.03115171, -0.06230341, 0.0, 0.09345512], [0.02336378, 0.0, 1.4952819]),
    (1, 54.75, [0.02739726, -0.05479452, 0.0, 0.08219178], [0.02054795, 0.0, 1.3150685]),
    (0, 2.0, [0.74999964, -1.4999993, 0.0, 2.249999], [0.56249976, 0.0, 35.999985]),
    (float("inf"), 48.0, [0.03125, -0.0625, 0.0, 0.09375], [0.0234375, 0.0, 1.5]),
])
def test_clip_grad_norm_matches_paddle(norm_type, total, a_grad, b_grad):
    a, b, c = _two_with_gradients()
    out = utils.clip_grad_norm_([a, b, c], 1.5, norm_type=norm_type)
    assert out.shape == [] and out.dtype == pylayer.float32 and out.stop_gradient
    np.testing.assert_allclose(float(out), total, rtol=1e-6)
    np.testing.assert_allclose(a.grad.numpy().ravel(), a_grad, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(b.grad.numpy(), b_grad, rtol=1e-5, atol=1e-7)
    assert c.grad is None


def test_clip_grad_norm_edges():
    a, b, _ = _two_with_gradients()
    before = a.grad.numpy().copy()
    utils.clip_grad_norm_([a, b], 1e9)
    np.testing.assert_allclose(a.grad.numpy(), before)
    assert float(utils.clip_grad_norm_([param([1])], 1.0)) == 0.0
    a.grad.set_value(np.array([[np.inf, 1], [1, 1]], "float32"))
    with pytest.raises(RuntimeError, match="non-finite"):
        utils.clip_grad_norm_([a], 1.0, error_if_nonfinite=True)
    assert np.isinf(a.grad.numpy()[0, 0])           # nothing changed
    with pytest.raises(ValueError, match="norm_type"):
        utils.clip_grad_norm_([a], 1.0, norm_type=3)


def test_clip_grad_value_matches_paddle():
    a, b, c = _two_with_gradients()
    assert utils.clip_grad_value_([a, b, c], 1.5) is None
    np.testing.assert_array_equal(a.grad.numpy().ravel(), [1, -1.5, 0, 1.5])
    np.testing.assert_array_equal(b.grad.numpy(), [0.75, 0, 1.5])
    with pytest.raises(ValueError, match="clip_value"):
        utils.clip_grad_value_(a, -1)


def test_parameters_to_vector_and_back():
    a, b, c = param([2, 2], [[1, 2], [3, 4]]), param([3], [5, 6, 7]), param([1], [8])
    vec = utils.parameters_to_vector((a, b, c))
    np.testing.assert_array_equal(vec.numpy(), np.arange(1, 9))
    assert vec.stop_gradient is False and vec.grad_fn is None
    utils.vector_to_parameters(pylayer.arange(10, dtype="float32"), [a, b, c])
    np.testing.assert_array_equal(a.numpy(), [[0, 1], [2, 3]])
    np.testing.assert_array_equal(c.numpy(), [7])
    assert a.shape == [2, 2]
    with pytest.raises(ValueError, match="fewer"):
        utils.vector_to_parameters(pylayer.ones([3]), [a, b, c])
    with pytest.raises(ValueError, match="1-D"):
        utils.vector_to_parameters(pylayer.ones([2, 4]), [a, b, c])
    with pytest.raises(TypeError, match="dtype"):
        utils.parameters_to_vector([a, pylayer.create_parameter([1], "float64")])
    np.testing.assert_array_equal(c.numpy(), [7])
