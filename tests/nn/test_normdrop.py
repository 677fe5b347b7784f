"""The normalization and dropout additions: Paddle's observed values, the layers'
parameters, statistics and modes, the random masks, and the weight_norm /
spectral_norm reparameterisations.

The files ``tests/nn/data/norm_*`` were saved by the scratch Paddle 3.3.1 (CPU):
``norm_stack`` is ``Sequential(BatchNorm(3, act='relu'), InstanceNorm1D(3),
LocalResponseNorm(3, alpha=0.5, data_format='NCL'), BatchNorm1D(3))`` with every
state entry drawn from U(0.5, 1.5) (numpy seed 7; Paddle has no CPU kernel for
SyncBatchNorm, whose keys are BatchNorm1D's), its input, its outputs in evaluation
and in training, and its state after the training call; ``norm_hooks`` is
``Sequential(weight_norm(Linear(4, 3)), spectral_norm(Linear(3, 2),
n_power_iterations=2))`` (paddle.seed(7)) with its outputs in training and
evaluation and its state after the training call; ``norm_batch3d`` is one training
call of ``BatchNorm3D(2, momentum=0.6, data_format='NDHWC')``; ``norm_spectral`` is
``SpectralNorm([3, 4], dim=1, power_iters=2)`` (paddle.seed(0)): its starting
``weight_u``/``weight_v``, a weight, the output and Paddle's gradient.
"""
import pathlib
import warnings

import numpy as np
import pytest

import pylayer
import pylayer.nn as nn
import pylayer.nn.functional as F
from pylayer.nn.utils import remove_weight_norm, spectral_norm, weight_norm

DATA = pathlib.Path(__file__).parent / "data"
X24 = np.arange(24, dtype="float32").reshape(2, 3, 4)


# ------------------------------------------------------------ Paddle's values
def test_local_response_norm_matches_paddle():
    x = pylayer.to_tensor(X24)
    np.testing.assert_allclose(F.local_response_norm(x, 3, alpha=0.1).numpy()[0, :, 0],
                               [0.0, 1.509581, 3.019162], rtol=1e-6)
    np.testing.assert_allclose(
        F.local_response_norm(x, 2, alpha=0.1, data_format="NLC").numpy()[0, 0],
        [0.0, 0.96406883, 1.6917939, 2.0606692], rtol=1e-6)
    x4 = pylayer.to_tensor(np.arange(48, dtype="float32").reshape(2, 3, 2, 4) / 10)
    np.testing.assert_allclose(F.local_response_norm(x4, 2, alpha=0.1).numpy()[0, :, 0, 0],
                               [0.0, 0.78132236, 1.4314511], rtol=1e-6)
    # a window wider than the channels: the padding only adds zeros
    np.testing.assert_allclose(
        F.local_response_norm(pylayer.to_tensor(X24 / 5), 7, alpha=0.3).numpy()[0, :, 1],
        [0.176268, 0.88133997, 1.586412], rtol=1e-6)
    with pytest.raises(ValueError, match="local_response_norm"):
        F.local_response_norm(pylayer.ones([2, 3]), 3)
    with pytest.raises(ValueError, match="size"):
        F.local_response_norm(pylayer.ones([1, 2, 2]), 2 ** 62)


def test_normalize_matches_paddle():
    x = pylayer.to_tensor(X24)
    np.testing.assert_allclose(F.normalize(x, p=1, axis=-1).numpy()[0, 0],
                               [0.0, 1 / 6, 1 / 3, 0.5], rtol=1e-6)
    np.testing.assert_allclose(F.normalize(x, p=float("inf"), axis=1).numpy()[0, :, 1],
                               [0.11111111, 0.5555556, 1.0], rtol=1e-6)
    np.testing.assert_allclose(F.normalize(x, p=0.5, axis=1).numpy()[0, :, 0],
                               [0.0, 0.17157285, 0.3431457], rtol=1e-6)
    np.testing.assert_allclose(F.normalize(pylayer.to_tensor([[1.0, -2.0, 2.0]]), p=3).numpy(),
                               [[0.3889111, -0.7778222, 0.7778222]], rtol=1e-6)
    assert F.normalize(pylayer.to_tensor([[0.0, 0.0]])).numpy().tolist() == [[0.0, 0.0]]


def test_normalize_writes_out():
    out = pylayer.zeros([2])
    assert F.normalize(pylayer.to_tensor([3.0, 4.0]), axis=0, out=out) is out
    np.testing.assert_allclose(out.numpy(), [0.6, 0.8])


def test_instance_norm_uses_the_input_statistics_only():
    """Paddle's dynamic mode ignores the running statistics and never updates them."""
    x = pylayer.to_tensor(X24)
    mean, var = pylayer.zeros([3]), pylayer.ones([3])
    out = F.instance_norm(x, running_mean=mean, running_var=var, use_input_stats=False,
                          data_format="NCL")
    np.testing.assert_allclose(out.numpy()[0, 0], [-1.3416355, -0.44721183, 0.44721183,
                                                   1.3416355], rtol=1e-5)
    assert mean.numpy().tolist() == [0, 0, 0] and var.numpy().tolist() == [1, 1, 1]
    # [N, C]: each value is its own instance, so the result is 0 (then the bias)
    two_d = F.instance_norm(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]]), data_format="NC")
    assert two_d.numpy().tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_rms_norm_returns_the_output_and_the_inverse_rms_of_each_row():
    x = pylayer.to_tensor(X24)
    out, invvar = F.rms_norm(x, [4], weight=pylayer.full([4], 2.0))
    rms = np.sqrt((X24 ** 2).mean(-1) + 1e-5)
    np.testing.assert_allclose(out.numpy(), 2 * X24 / rms[..., None], rtol=1e-6)
    assert invvar.shape == [6] and invvar.dtype == pylayer.float32
    np.testing.assert_allclose(invvar.numpy(), 1 / rms.ravel(), rtol=1e-6)
    assert F.rms_norm(x.astype("float64"), 4)[1].dtype == pylayer.float64
    with pytest.raises(ValueError, match="rms_norm"):
        F.rms_norm(x, [3])


# ------------------------------------------------------------------ dropouts
def test_dropout2d_and_3d_drop_whole_channels():
    pylayer.seed(1)
    y = F.dropout2d(pylayer.ones([4, 6, 3, 2]), p=0.5).numpy()
    per_channel = y.reshape(4, 6, -1)
    assert (per_channel == per_channel[..., :1]).all()
    assert set(np.unique(y)) == {0.0, 2.0}
    y = F.dropout3d(pylayer.ones([3, 2, 2, 2, 5]), p=0.5, data_format="NDHWC").numpy()
    assert (y == y[:, :1, :1, :1, :]).all()
    x = pylayer.ones([1, 2, 2, 2])
    assert F.dropout2d(x, training=False) is x
    with pytest.raises(ValueError, match="dropout2d"):
        F.dropout2d(pylayer.ones([2, 3, 4]))


def test_dropout1d_draws_once_per_channel_for_the_whole_batch():
    """As Paddle: dropout1d is dropout along axis 1 only."""
    pylayer.seed(2)
    y = F.dropout1d(pylayer.ones([5, 8, 3]), p=0.5).numpy()
    assert (y == y[:1, :, :1]).all() and set(np.unique(y)) == {0.0, 2.0}
    assert F.dropout1d(pylayer.ones([8, 3]), p=0.5).shape == [8, 3]
    with pytest.raises(RuntimeError, match="dropout1d"):
        F.dropout1d(pylayer.ones([1, 2, 3, 4]))
    x = pylayer.ones([2, 3])
    with pytest.warns(UserWarning, match="inplace"):
        F.dropout1d(x, p=0.5, inplace=True)
    assert x.numpy().tolist() == [[1.0] * 3] * 2


def test_alpha_dropout_keeps_mean_and_variance():
    pylayer.seed(3)
    y = F.alpha_dropout(pylayer.randn([200000]), p=0.3).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02


def test_alpha_dropout_values_as_paddle():
    pylayer.seed(4)
    y = F.feature_alpha_dropout(pylayer.ones([4, 3, 2]), p=0.5).numpy()
    np.testing.assert_allclose(np.unique(y), [-0.7791938, 1.6655989], rtol=1e-6)
    assert (y == y[:, :, :1]).all()
    assert F.alpha_dropout(pylayer.ones([3]), p=1.0).numpy().tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="feature_alpha_dropout"):
        F.feature_alpha_dropout(pylayer.ones([3]))
    with pytest.raises(TypeError, match="alpha_dropout"):
        F.alpha_dropout(pylayer.ones([3]), p="0.5")


def test_alpha_dropout_gradient_is_the_kept_scale():
    pylayer.seed(5)
    x = pylayer.ones([1000], dtype="float64")
    x.stop_gradient = False
    y = F.alpha_dropout(x, p=0.2)
    y.sum().backward()
    p, saturation = 0.2, -1.6732632423543772 * 1.0507009873554805
    a = ((1 - p) * (1 + p * saturation ** 2)) ** -0.5
    kept = np.isclose(y.numpy(), a - a * saturation * p)
    np.testing.assert_allclose(x.grad.numpy(), np.where(kept, a, 0.0))


def test_dropout_layers():
    layer = nn.Dropout2D(p=0.5)
    assert repr(layer) == "Dropout2D(p=0.5, data_format=NCHW)"
    assert repr(nn.Dropout3D()) == "Dropout3D(p=0.5, data_format=NCDHW)"
    assert repr(nn.AlphaDropout(0.2)) == "AlphaDropout(p=0.2)"
    assert repr(nn.FeatureAlphaDropout(0.2)) == "FeatureAlphaDropout(p=0.2)"
    x = pylayer.ones([1, 2, 2, 2])
    assert (layer.eval()(x) == x).all()
    pylayer.seed(6)
    y = nn.FeatureAlphaDropout(0.5)(pylayer.ones([4, 3, 2])).numpy()
    assert (y == y[:, :, :1]).all()


# ---------------------------------------------------------------- the layers
def test_layer_stack_loads_paddle_state_and_gives_paddle_output():
    data = np.load(DATA / "norm_stack.npz")
    model = nn.Sequential(nn.BatchNorm(3, act="relu"), nn.InstanceNorm1D(3),
                          nn.LocalResponseNorm(3, alpha=0.5, data_format="NCL"),
                          nn.SyncBatchNorm(3, data_format="NCL"))
    state = pylayer.load(str(DATA / "norm_stack.pdparams"))
    assert sorted(model.state_dict()) == sorted(state)
    model.set_state_dict(state)
    model.eval()
    x = pylayer.to_tensor(data["x"])
    np.testing.assert_allclose(model(x).numpy(), data["eval_out"], rtol=1e-5, atol=1e-6)
    model.train()
    np.testing.assert_allclose(model(x).numpy(), data["train_out"], rtol=1e-5, atol=1e-6)
    for key, value in model.state_dict().items():
        np.testing.assert_allclose(value.numpy(), data["after_" + key.replace(".", "_")],
                                   rtol=1e-6)


def test_batch_norm_3d_matches_paddle():
    data = np.load(DATA / "norm_batch3d.npz")
    bn = nn.BatchNorm3D(2, momentum=0.6, data_format="NDHWC")
    np.testing.assert_allclose(bn(pylayer.to_tensor(data["x"])).numpy(), data["out"],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn._mean.numpy(), data["mean"], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(bn._variance.numpy(), data["variance"], rtol=1e-6)
    assert repr(bn) == "BatchNorm3D(num_features=2, momentum=0.6, epsilon=1e-05, " \
                       "data_format=NDHWC)"
    with pytest.raises(ValueError, match="BatchNorm3D"):
        bn(pylayer.ones([2, 2, 3]))


def test_old_batch_norm_modes():
    x = pylayer.to_tensor([[1.0, 2.0], [3.0, 6.0]])
    bn = nn.BatchNorm(2, is_test=True, trainable_statistics=True)
    assert not bn.training
    np.testing.assert_allclose(bn(x).numpy(), [[-0.999995, -0.99999875],
                                               [0.999995, 0.9999987]], rtol=1e-6)
    np.testing.assert_allclose(bn._mean.numpy(), [0.2, 0.4], rtol=1e-6)
    np.testing.assert_allclose(bn._variance.numpy(), [1.0, 1.3], rtol=1e-6)
    bn = nn.BatchNorm(2, use_global_stats=True)
    np.testing.assert_allclose(bn(x).numpy(), [[0.999995, 1.99999], [2.999985, 5.99997]],
                               rtol=1e-6)
    assert bn._mean.numpy().tolist() == [0.0, 0.0]
    bn = nn.BatchNorm(2, dtype="float64", moving_mean_name="mm")
    assert bn.weight.dtype == pylayer.float64 and bn._mean.dtype == pylayer.float64
    assert bn._mean.name == "mm" and repr(bn) == "BatchNorm()"
    with pytest.raises(ValueError, match="act"):
        nn.BatchNorm(2, act="nope")


def test_sync_batch_norm_is_batch_norm_in_one_process():
    x = pylayer.rand([4, 3, 5])
    sync, plain = nn.SyncBatchNorm(3, data_format="NCL"), nn.BatchNorm1D(3)
    np.testing.assert_allclose(sync(x).numpy(), plain(x).numpy())
    np.testing.assert_allclose(sync._mean.numpy(), plain._mean.numpy())
    assert repr(sync) == "SyncBatchNorm(num_features=3, momentum=0.9, epsilon=1e-05, " \
                         "data_format=NCL)"


def test_convert_sync_batchnorm_shares_parameters_and_statistics():
    model = nn.Sequential(nn.Linear(3, 4),
                          nn.BatchNorm1D(4, weight_attr=pylayer.ParamAttr(name="w1")))
    bn = model[1]
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert type(converted[1]) is nn.SyncBatchNorm
    assert converted[1].weight is bn.weight and converted[1]._mean is bn._mean
    assert converted[1].weight.name == "w1"
    assert repr(converted[1]) == "SyncBatchNorm(num_features=4, momentum=0.9, " \
                                 "epsilon=1e-05, data_format=NCL)"
    with pytest.raises(TypeError, match="convert_sync_batchnorm"):
        nn.SyncBatchNorm.convert_sync_batchnorm("spam")


def test_instance_norm_layers():
    norm = nn.InstanceNorm2D(3)
    assert list(norm.state_dict()) == ["scale", "bias"]
    assert repr(norm) == "InstanceNorm2D(num_features=3, epsilon=1e-05)"
    bare = nn.InstanceNorm1D(2, weight_attr=False, bias_attr=False)
    assert bare.scale is None and bare.bias is None and not bare.state_dict()
    with pytest.raises(ValueError, match="together"):
        nn.InstanceNorm1D(2, weight_attr=False)
    with pytest.raises(ValueError, match="InstanceNorm3D"):
        nn.InstanceNorm3D(2)(pylayer.ones([1, 2, 2, 2]))
    assert nn.InstanceNorm1D(2, data_format="NC")(pylayer.ones([3, 2])).shape == [3, 2]


def test_local_response_norm_layer_repr():
    assert repr(nn.LocalResponseNorm(3)) == \
        "LocalResponseNorm(size=3, alpha=0.0001, beta=0.75, k=1.0)"
    assert repr(nn.LocalResponseNorm(5, data_format="NCL")) == \
        "LocalResponseNorm(size=5, alpha=0.0001, beta=0.75, k=1.0, data_format=NCL)"


def test_spectral_norm_layer_matches_paddle_forward():
    data = np.load(DATA / "norm_spectral.npz")
    layer = nn.SpectralNorm([3, 4], dim=1, power_iters=2)
    assert list(layer.state_dict()) == ["weight_u", "weight_v"]
    assert all(p.stop_gradient for p in layer.parameters())
    layer.weight_u.set_value(data["u0"])
    layer.weight_v.set_value(data["v0"])
    w = pylayer.to_tensor(data["w"])
    np.testing.assert_allclose(layer(w).numpy(), data["y"], rtol=1e-5, atol=1e-7)
    assert layer.weight_u.numpy().tolist() == data["u0"].tolist()   # not advanced


def test_spectral_norm_layer_gradient_takes_u_and_v_as_constants():
    """Paddle's spectral_norm gradient is wrong (it matches neither this nor central
    differences of its own forward): pylayer differentiates W / (u^T W v) with u and v
    held, as PyTorch does."""
    data = np.load(DATA / "norm_spectral.npz")
    layer = nn.SpectralNorm([3, 4], dim=1, power_iters=2)
    layer.weight_u.set_value(data["u0"])
    layer.weight_v.set_value(data["v0"])
    w = pylayer.to_tensor(data["w"].astype("float64"), stop_gradient=False)
    g = np.linspace(-1, 1, 12).reshape(3, 4)
    (layer(w) * pylayer.to_tensor(g)).sum().backward()
    matrix, u, v = data["w"].astype(np.float64).T, data["u0"], data["v0"]
    for _ in range(2):
        v = matrix.T @ u
        v = v / (np.linalg.norm(v) + 1e-12)
        u = matrix @ v
        u = u / (np.linalg.norm(u) + 1e-12)
    sigma = u @ matrix @ v
    expected = g.T / sigma - np.outer(u, v) * (g.T * matrix).sum() / sigma ** 2
    np.testing.assert_allclose(w.grad.numpy(), expected.T, rtol=1e-5)


# ----------------------------------------------------------------- the hooks
def test_hooks_load_paddle_state_and_give_paddle_output():
    data = np.load(DATA / "norm_hooks.npz")
    model = nn.Sequential(weight_norm(nn.Linear(4, 3)),
                          spectral_norm(nn.Linear(3, 2), n_power_iterations=2))
    state = pylayer.load(str(DATA / "norm_hooks.pdparams"))
    assert list(model.state_dict()) == list(state)
    model.set_state_dict(state)
    x = pylayer.to_tensor(data["x"])
    np.testing.assert_allclose(model(x).numpy(), data["train_out"], rtol=1e-5, atol=1e-6)
    for key, value in model.state_dict().items():
        np.testing.assert_allclose(value.numpy(), data["after_" + key.replace(".", "_")],
                                   rtol=1e-5, atol=1e-7)
    model.eval()
    np.testing.assert_allclose(model(x).numpy(), data["eval_out"], rtol=1e-5, atol=1e-6)


def test_weight_norm_keeps_the_weight_and_round_trips():
    linear = nn.Linear(4, 3)
    before = linear.weight.numpy().copy()
    weight_norm(linear, dim=1)
    assert linear.weight_g.shape == [3]
    np.testing.assert_allclose(linear.weight.numpy(), before, rtol=1e-6)
    conv = weight_norm(nn.Conv2D(2, 3, 3), dim=None)
    assert conv.weight_g.shape == [] and list(conv.state_dict()) == ["bias", "weight_v",
                                                                    "weight_g"]
    with pytest.raises(RuntimeError, match="weight_norm"):
        weight_norm(conv, dim=None)
    with pytest.raises(ValueError, match="dim"):
        weight_norm(nn.Linear(2, 2), dim=2)
    remove_weight_norm(linear)
    assert sorted(linear.state_dict()) == ["bias", "weight"]
    np.testing.assert_allclose(linear.weight.numpy(), before, rtol=1e-6)
    with pytest.raises(ValueError, match="remove_weight_norm"):
        remove_weight_norm(nn.Linear(2, 2))


def test_spectral_norm_hook_advances_only_in_training():
    linear = spectral_norm(nn.Linear(4, 3))
    assert linear.weight_u.shape == [3] and linear.weight_v.shape == [4]   # dim 1 for Linear
    conv = spectral_norm(nn.Conv2D(2, 3, 3))
    assert conv.weight_u.shape == [3] and conv.weight_v.shape == [18]
    u = linear.weight_u.numpy().copy()
    linear.eval()
    linear(pylayer.ones([1, 4]))
    assert linear.weight_u.numpy().tolist() == u.tolist()
    linear.train()
    for _ in range(30):
        linear(pylayer.ones([1, 4]))
    assert np.linalg.svd(linear.weight.numpy())[1][0] == pytest.approx(1.0, rel=1e-4)
    with pytest.raises(RuntimeError, match="spectral_norm"):
        spectral_norm(linear)
    with pytest.raises(ValueError, match="n_power_iterations"):
        spectral_norm(nn.Linear(2, 2), n_power_iterations=0)


# --------------------------------------------------------- a model that trains
def test_small_model_trains_and_round_trips(tmp_path):
    pylayer.seed(0)
    model = nn.Sequential(
        nn.Conv2D(2, 4, 3, padding=1), nn.BatchNorm(4, act="relu"), nn.InstanceNorm2D(4),
        nn.LocalResponseNorm(3), nn.Dropout2D(0.1), nn.Conv2D(4, 2, 1),
        nn.SyncBatchNorm(2))
    weight_norm(model[5])
    optimizer = pylayer.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
    x, target = pylayer.randn([8, 2, 4, 4]), pylayer.randn([8, 2, 4, 4])
    losses = []
    for _ in range(30):
        loss = F.mse_loss(model(x), target)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.8 * losses[0]
    path = str(tmp_path / "model.pdparams")
    pylayer.save(model.state_dict(), path)
    model.eval()
    again = nn.Sequential(
        nn.Conv2D(2, 4, 3, padding=1), nn.BatchNorm(4, act="relu"), nn.InstanceNorm2D(4),
        nn.LocalResponseNorm(3), nn.Dropout2D(0.1), nn.Conv2D(4, 2, 1), nn.SyncBatchNorm(2))
    weight_norm(again[5])
    again.set_state_dict(pylayer.load(path))
    again.eval()
    np.testing.assert_allclose(again(x).numpy(), model(x).numpy(), rtol=1e-6)


def test_no_warning_from_the_plain_calls():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.dropout1d(pylayer.ones([2, 3]), p=0.5)
