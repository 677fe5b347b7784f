"""Layer registration, modes, state dicts, Linear, Sequential and the small layers."""
import numpy as np
import pytest

import pylayer
from pylayer import nn
from pylayer.nn import initializer as I


class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.scale = self.create_parameter([1], default_initializer=I.Constant(2.0))
        self.head = nn.Sequential(nn.Tanh(), nn.Linear(4, 2, bias_attr=False))
        self.register_buffer("steps", pylayer.zeros([1]))
        self.register_buffer("cache", pylayer.zeros([1]), persistable=False)
        self.note = "plain attribute"

    def forward(self, x):
        return self.head(self.fc(x) * self.scale)


def test_registration_by_assignment():
    block = Block()
    names = [n for n, _ in block.named_parameters()]
    assert names == ["scale", "fc.weight", "fc.bias", "head.1.weight"]
    assert len(block.parameters()) == 4
    assert block.parameters(include_sublayers=False) == [block.scale]
    assert [n for n, _ in block.named_sublayers()] == ["fc", "head", "head.0", "head.1"]
    assert [type(c).__name__ for c in block.children()] == ["Linear", "Sequential"]
    assert block.note == "plain attribute"
    assert "fc" not in block.__dict__ and "scale" not in block.__dict__
    assert block.head[1].bias is None
    assert [n for n, _ in block.named_buffers()] == ["steps", "cache"]


def test_shared_parameter_is_listed_once():
    block = nn.Layer()
    fc = nn.Linear(2, 2)
    block.a = fc
    block.b = fc
    block.w = fc.weight
    assert len(block.parameters()) == 2


def test_reassignment_rules():
    block = Block()
    block.scale = None
    assert block.scale is None and "scale" not in [n for n, _ in block.named_parameters()]
    with pytest.raises(TypeError, match="registered Layer"):
        block.fc = 3
    block.fc = nn.Linear(3, 4)
    del block.fc
    with pytest.raises(AttributeError, match="fc"):
        block.fc


def test_assignment_before_init_fails():
    class Bad(nn.Layer):
        def __init__(self):
            self.w = pylayer.create_parameter([1], "float32")

    with pytest.raises(AttributeError, match="super"):
        Bad()


def test_call_runs_forward_and_train_eval():
    block = Block()
    out = block(pylayer.ones([5, 3]))
    assert out.shape == [5, 2]
    assert block.training and block.head[0].training
    block.eval()
    assert not block.training and not block.fc.training and not block.head[1].training
    block.train()
    assert block.head[0].training
    with pytest.raises(NotImplementedError):
        nn.Layer()(1)


def test_state_dict_round_trip():
    pylayer.seed(0)
    a, b = Block(), Block()
    state = a.state_dict()
    assert list(state) == ["scale", "steps", "fc.weight", "fc.bias", "head.1.weight"]
    assert state["fc.weight"] is a.fc.weight
    weight_array = b.fc.weight.numpy()
    missing, unexpected = b.set_state_dict({k: v.numpy() for k, v in state.items()})
    assert missing == [] and unexpected == []
    for key, value in b.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), state[key].numpy())
    assert b.fc.weight.numpy() is weight_array and b.fc.weight.inplace_version == 1
    assert b.fc.weight.is_leaf and not b.fc.weight.stop_gradient
    np.testing.assert_array_equal(b(pylayer.ones([1, 3])).numpy(), a(pylayer.ones([1, 3])).numpy())


def test_set_state_dict_reports_missing_unexpected_and_shape_mismatch():
    block = Block()
    state = {k: v for k, v in block.state_dict().items()}
    before = block.scale.numpy().copy()
    state["scale"] = np.zeros([2])
    del state["steps"]
    state["extra"] = np.zeros([1])
    with pytest.warns(UserWarning):
        missing, unexpected = block.set_state_dict(state)
    assert sorted(missing) == ["scale", "steps"] and unexpected == ["extra"]
    np.testing.assert_array_equal(block.scale.numpy(), before)


def test_set_state_dict_by_tensor_name():
    a, b = nn.Linear(2, 2), nn.Linear(2, 2)
    values = {b.weight.name: a.weight.numpy(), b.bias.name: np.ones(2)}
    b.set_state_dict(values, use_structured_name=False)
    np.testing.assert_array_equal(b.weight.numpy(), a.weight.numpy())
    np.testing.assert_array_equal(b.bias.numpy(), np.ones(2))


def test_clear_gradients():
    layer = nn.Linear(2, 1)
    layer(pylayer.ones([1, 2])).sum().backward()
    layer.clear_gradients(set_to_zero=False)
    assert layer.weight.grad is None


# ----------------------------------------------------------------- Linear
def test_linear_forward_matches_numpy_and_param_names():
    pylayer.seed(1)
    layer = nn.Linear(4, 3)
    assert layer.weight.shape == [4, 3] and layer.bias.shape == [3]
    assert layer.weight.name.endswith(".w_0") and layer.bias.name.endswith(".b_0")
    assert layer.weight.name.split(".")[0] == layer.full_name()
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(3))
    assert np.abs(layer.weight.numpy()).max() <= np.sqrt(6 / 7)
    x = np.random.default_rng(0).standard_normal([5, 4]).astype(np.float32)
    out = layer(pylayer.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), x @ layer.weight.numpy() + layer.bias.numpy(),
                               rtol=1e-6)
    assert "in_features=4, out_features=3" in repr(layer)


def test_linear_gradients():
    layer = nn.Linear(3, 2, weight_attr=pylayer.ParamAttr(initializer=I.Normal()),
                      bias_attr=I.Constant(0.5))
    np.testing.assert_array_equal(layer.bias.numpy(), [0.5, 0.5])
    x = np.random.default_rng(1).standard_normal([4, 3]).astype(np.float32)
    g = np.random.default_rng(2).standard_normal([4, 2]).astype(np.float32)
    (layer(pylayer.to_tensor(x)) * pylayer.to_tensor(g)).sum().backward()
    np.testing.assert_allclose(layer.weight.grad.numpy(), x.T @ g, rtol=1e-5)
    np.testing.assert_allclose(layer.bias.grad.numpy(), g.sum(0), rtol=1e-5)


def test_linear_gradcheck_float64():
    w = pylayer.create_parameter([3, 2], "float64")
    b = pylayer.create_parameter([2], "float64", default_initializer=I.Normal())
    x = pylayer.to_tensor(np.random.default_rng(3).standard_normal([4, 3]), stop_gradient=False)
    f = pylayer.nn.functional.linear
    assert pylayer.autograd.gradcheck(f, (x, w, b))
    assert pylayer.autograd.gradgradcheck(f, (x, w, b))


def test_linear_argument_errors():
    with pytest.raises(ValueError, match="in_features"):
        nn.Linear(-1, 2)


# ------------------------------------------------------------- containers
def test_sequential_indexing_and_names():
    model = nn.Sequential(("first", nn.Linear(2, 3)), ("act", nn.ReLU()))
    assert [n for n, _ in model.named_parameters()] == ["first.weight", "first.bias"]
    assert isinstance(model[1], nn.ReLU) and len(model) == 2
    assert isinstance(model[:1], nn.Sequential) and len(model[:1]) == 1
    assert [type(m).__name__ for m in model] == ["Linear", "ReLU"]
    assert "(first): Linear(" in repr(model)


def test_dropout_layer_follows_mode():
    layer = nn.Dropout(0.5)
    x = pylayer.ones([1000])
    pylayer.seed(0)
    kept = (layer(x).numpy() > 0).mean()
    assert 0.4 < kept < 0.6
    layer.eval()
    assert layer(x) is x


@pytest.mark.parametrize("layer,fn", [
    (nn.ReLU(), lambda a: np.maximum(a, 0)),
    (nn.LeakyReLU(0.2), lambda a: np.where(a > 0, a, 0.2 * a)),
    (nn.Sigmoid(), lambda a: 1 / (1 + np.exp(-a))),
    (nn.Tanh(), np.tanh),
    (nn.Softmax(axis=0), lambda a: np.exp(a) / np.exp(a).sum(0)),
    (nn.LogSoftmax(), lambda a: a - np.log(np.exp(a).sum(-1, keepdims=True))),
    (nn.GELU(approximate=True),
     lambda a: 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)))),
])
def test_activation_layers(layer, fn):
    a = np.random.default_rng(4).standard_normal([3, 4])
    np.testing.assert_allclose(layer(pylayer.to_tensor(a, dtype="float64")).numpy(), fn(a),
                               rtol=1e-10, atol=1e-12)


def test_loss_layers():
    x = pylayer.to_tensor([[1.0, 2.0], [0.5, -1.0]])
    y = pylayer.to_tensor([[0.0, 2.0], [0.5, 1.0]])
    assert nn.MSELoss()(x, y).item() == pytest.approx(1.25)
    assert nn.MSELoss("sum")(x, y).item() == pytest.approx(5.0)
    ce = nn.CrossEntropyLoss(reduction="sum")(x, pylayer.to_tensor([1, 0]))
    expected = -np.log(np.exp(2) / (np.exp(1) + np.exp(2))) - np.log(np.exp(.5) / (np.exp(.5) + np.exp(-1)))
    assert ce.item() == pytest.approx(expected, rel=1e-6)
    with pytest.raises(ValueError, match="reduction"):
        nn.MSELoss("avg")


# Paddle 3.3.1's prefixes of layer names (``full_name()`` and so parameter and optimizer-state
# names), observed for these classes: words start at a capital followed by lower case, and an
# upper-case run after a lower-case letter; digits stay with what they follow.
PADDLE_NAME_PREFIXES = {
    "ReLU": "re_lu", "Conv2D": "conv2d", "Conv2DTranspose": "conv2d_transpose",
    "BCEWithLogitsLoss": "bce_with_logits_loss", "GRUCell": "gru_cell", "BiRNN": "bi_rnn",
    "GaussianNLLLoss": "gaussian_nll_loss", "AdaptiveAvgPool2D": "adaptive_avg_pool2d",
    "Linear": "linear", "MultiHeadAttention": "multi_head_attention", "GELU": "gelu",
    "MLP2Layer": "mlp2_layer", "HTTPServer": "http_server",
}


@pytest.mark.parametrize("class_name", sorted(PADDLE_NAME_PREFIXES))
def test_layer_names_take_paddles_prefix(class_name):
    layer_type = type(class_name, (nn.Layer,), {})
    assert layer_type().full_name().rsplit("_", 1)[0] == PADDLE_NAME_PREFIXES[class_name]


def test_a_relu_layers_parameter_names_follow_paddle():
    layer = nn.PReLU()
    assert layer.full_name().startswith("p_re_lu_")
    assert layer._weight.name == layer.full_name() + ".w_0"


def test_optimizer_state_keys_follow_paddles_layer_names():
    # Paddle 3.3.1 names Adam's state of a fresh PReLU's weight "p_re_lu_<n>.w_0_moment1_0",
    # so a .pdopt saved by Paddle loads by name.
    prelu = nn.PReLU()
    opt = pylayer.optimizer.Adam(parameters=prelu.parameters())
    prelu(pylayer.ones([1, 3])).sum().backward()
    opt.step()
    prefix = prelu.full_name()
    assert prefix.startswith("p_re_lu_")
    assert f"{prefix}.w_0_moment1_0" in opt.state_dict()


class _TiedModel(nn.Layer):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1D(2)
        self.register_buffer("own", pylayer.ones([1]))
        self.a = nn.Linear(2, 2)
        self.b = self.a
        self.c = nn.Linear(2, 2)
        self.c.weight = self.a.weight
        self.w = self.create_parameter([1])


def test_state_dict_walks_layers_as_paddle_does():
    # Paddle 3.3.1 lists, layer by layer, the parameters then the persistable buffers, then
    # each sub-layer under every name it has: a shared layer or parameter appears once per
    # name, so the keys of a Paddle-saved tied model all find their tensors.
    model = _TiedModel()
    assert list(model.state_dict()) == [
        "w", "own", "bn.weight", "bn.bias", "bn._mean", "bn._variance", "a.weight", "a.bias",
        "b.weight", "b.bias", "c.weight", "c.bias"]
    assert model.state_dict()["b.weight"] is model.state_dict()["c.weight"]
    assert list(model.state_dict(structured_name_prefix="p"))[:3] == ["pw", "pown", "pbn.weight"]
    assert list(model.state_dict(include_sublayers=False)) == ["w", "own"]
    assert [name for name, _ in model.named_parameters()] == [
        "w", "bn.weight", "bn.bias", "a.weight", "a.bias", "c.bias"]


def test_a_parameter_says_it_is_not_distributed_until_tensor_parallelism_splits_it():
    weight = nn.Linear(2, 2).weight
    assert weight.is_distributed is False
    weight.is_distributed = True
    assert weight.is_distributed is True and nn.Linear(2, 2).weight.is_distributed is False
