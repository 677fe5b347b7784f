"""Paddle 3.3.1's observed behaviour of the 3-D convolutions and the poolings added with
them, beyond what the op database (``tests/ops/opinfo_convpool3d.py``) checks: masks,
edge values, fractional bins, errors, the layers (reprs, parameters, aliases) and a
model trained, saved and loaded, and one saved by Paddle."""
import os

import numpy as np
import pytest

import pylayer
import pylayer.nn as nn
import pylayer.nn.functional as F

DATA = os.path.join(os.path.dirname(__file__), "data")
FLT_MAX = float(np.finfo(np.float32).max)


def t(values, dtype="float32"):
    return pylayer.to_tensor(np.asarray(values, dtype))


# ------------------------------------------------------------------ max pooling 3-D
def test_max_pool3d_ceil_mode_windows_past_the_input_give_minus_flt_max_and_mask_minus_1():
    x = pylayer.arange(18, dtype="float32").reshape([1, 1, 2, 3, 3])
    out, mask = F.max_pool3d(x, 2, stride=2, padding=1, ceil_mode=True, return_mask=True)
    assert mask.dtype == pylayer.int32
    np.testing.assert_array_equal(mask.numpy()[0, 0], [[[0, 2, -1], [6, 8, -1], [-1, -1, -1]],
                                                        [[9, 11, -1], [15, 17, -1],
                                                         [-1, -1, -1]]])
    np.testing.assert_array_equal(out.numpy()[0, 0, 0, 0], [0.0, 2.0, -FLT_MAX])


def test_max_pool3d_gradient_on_ties_goes_to_the_first_element():
    x = pylayer.ones([1, 1, 3, 3, 3])
    x.stop_gradient = False
    F.max_pool3d(x, 2, stride=1).sum().backward()
    expected = np.zeros(27)
    expected[[0, 1, 3, 4, 9, 10, 12, 13]] = 1.0       # Paddle's gradient
    np.testing.assert_array_equal(x.grad.numpy().ravel(), expected)


def test_max_pools_skip_nan():
    out, mask = F.max_pool3d(t([[[[[1.0, np.nan]]]]]), [1, 1, 2], return_mask=True)
    assert (out.item(), mask.item()) == (1.0, 0)
    out, mask = F.adaptive_max_pool2d(t([[[[np.nan, 1.0], [2.0, np.nan]]]]), 1,
                                      return_mask=True)
    assert (out.item(), mask.item()) == (2.0, 2)


def test_max_pool3d_return_mask_needs_channel_first():
    with pytest.raises(ValueError, match="max_pool3d.*return_mask.*NCDHW"):
        F.max_pool3d(pylayer.ones([1, 2, 2, 2, 1]), 2, return_mask=True, data_format="NDHWC")


def test_max_pool3d_channel_last_matches_channel_first():
    x = pylayer.rand([2, 3, 4, 5, 6])
    first = F.max_pool3d(x, [2, 3, 2], stride=[1, 2, 2], padding=1)
    last = F.max_pool3d(x.transpose([0, 2, 3, 4, 1]), [2, 3, 2], stride=[1, 2, 2], padding=1,
                        data_format="NDHWC")
    np.testing.assert_array_equal(last.numpy(), first.numpy().transpose(0, 2, 3, 4, 1))


# ------------------------------------------------------------------ average pooling 3-D
_CUBE = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2)


def test_avg_pool3d_inclusive_exclusive_and_divisor_override_as_paddle():
    x = pylayer.to_tensor(_CUBE)
    inclusive = F.avg_pool3d(x, 2, stride=1, padding=1, exclusive=False).numpy()[0, 0]
    np.testing.assert_allclose(inclusive[1], [[0.5, 1.25, 0.75], [1.5, 3.5, 2.0],
                                              [1.0, 2.25, 1.25]])
    exclusive = F.avg_pool3d(x, 2, stride=1, padding=1).numpy()[0, 0]
    np.testing.assert_allclose(exclusive[0], [[0.0, 0.5, 1.0], [1.0, 1.5, 2.0],
                                              [2.0, 2.5, 3.0]])
    override = F.avg_pool3d(x, 2, stride=1, padding=1, divisor_override=3).numpy()[0, 0]
    np.testing.assert_allclose(override[0, 0], [0.0, 4 / 3, 8 / 3], rtol=1e-6)


def test_avg_pool3d_valid_padding_refuses_ceil_mode():
    with pytest.raises(ValueError, match="avg_pool3d.*VALID"):
        F.avg_pool3d(pylayer.ones([1, 1, 3, 4, 4]), 2, padding="VALID", ceil_mode=True)


# ------------------------------------------------------------------ lp pooling
def test_lp_pool_negative_window_sums_give_nan():
    out = F.lp_pool1d(t([[[-2.0, 1.0, -1.0, 3.0]]]), 3, 2).numpy().ravel()
    assert np.isnan(out[0])
    np.testing.assert_allclose(out[1], 26 ** (1 / 3), rtol=1e-6)
    np.testing.assert_allclose(F.lp_pool1d(t([[[-2.0, 1.0, -1.0, 3.0]]]), 2, 2).numpy().ravel(),
                               [5 ** 0.5, 10 ** 0.5], rtol=1e-6)


def test_lp_pool_refuses_integer_input():
    with pytest.raises(TypeError, match="lp_pool1d.*'x'"):
        F.lp_pool1d(t([[[2, 1, 1, 3]]], "int64"), 2, 2)


# ------------------------------------------------------------------ unpooling
def test_max_unpool_repeated_positions_keep_the_last_element():
    out = F.max_unpool1d(t([[[1.0, 2.0]]]), t([[[0, 0]]], "int32"), 2)
    np.testing.assert_array_equal(out.numpy(), [[[2.0, 0.0, 0.0, 0.0]]])


def test_max_unpool_output_size_spatial_or_full():
    x, indices = t([[[1.0, 2.0]]]), t([[[0, 3]]], "int32")
    expected = [[[1.0, 0.0, 0.0, 2.0, 0.0]]]
    np.testing.assert_array_equal(F.max_unpool1d(x, indices, 2, output_size=[1, 1, 5]).numpy(),
                                  expected)
    # Paddle 3.3.1 misplaces a spatial [5] (a ValueError); PyTorch takes it, as pylayer does
    np.testing.assert_array_equal(F.max_unpool1d(x, indices, 2, output_size=[5]).numpy(),
                                  expected)
    with pytest.raises(ValueError, match="max_unpool1d.*output_size"):
        F.max_unpool1d(x, indices, 2, output_size=[6])


def test_max_unpool_refuses_positions_outside_the_output():
    with pytest.raises(ValueError, match="max_unpool1d.*indices.*4"):
        F.max_unpool1d(t([[[1.0, 2.0]]]), t([[[0, 4]]], "int32"), 2)
    # Paddle 3.3.1 corrupts its heap on a negative position (malloc abort)
    with pytest.raises(ValueError, match="max_unpool1d.*indices.*-1"):
        F.max_unpool1d(t([[[1.0, 2.0]]]), t([[[0, -1]]], "int32"), 2)


def test_max_unpool_refuses_float_indices_and_channel_last():
    with pytest.raises(ValueError, match="max_unpool1d.*indices.*int32 or int64"):
        F.max_unpool1d(t([[[1.0, 2.0]]]), t([[[0.0, 1.0]]]), 2)
    with pytest.raises(ValueError, match="max_unpool2d.*data_format"):
        F.max_unpool2d(pylayer.ones([1, 1, 2, 2]), pylayer.zeros([1, 1, 2, 2], "int32"), 2,
                       data_format="NHWC")


def test_max_unpool2d_inverts_max_pool2d_and_its_gradient_gathers():
    x = pylayer.rand([2, 3, 4, 6])
    out, mask = F.max_pool2d(x, 2, return_mask=True)
    out.stop_gradient = False
    restored = F.max_unpool2d(out, mask, 2)
    kept = restored.numpy() != 0
    np.testing.assert_array_equal(restored.numpy()[kept], x.numpy()[kept])
    weights = np.arange(24, dtype=np.float32)
    (restored * pylayer.to_tensor(weights.reshape(1, 1, 4, 6))).sum().backward()
    np.testing.assert_array_equal(out.grad.numpy(), weights[mask.numpy()])


# ------------------------------------------------------------------ fractional max pooling
def test_fractional_max_pool2d_bins_of_paddle_documentation_example():
    x = t([[[[2.0, 4.0, 3.0, 1.0, 5.0, 2.0, 3.0]]]])
    out, mask = F.fractional_max_pool2d(x, [1, 5], random_u=0.3, return_mask=True)
    np.testing.assert_array_equal(out.numpy().ravel(), [2.0, 4.0, 1.0, 5.0, 3.0])
    np.testing.assert_array_equal(mask.numpy().ravel(), [0, 1, 3, 4, 6])


def test_fractional_max_pool_more_bins_than_input_leave_an_empty_bin():
    x = pylayer.arange(7, dtype="float32").reshape([1, 1, 1, 7])
    out, mask = F.fractional_max_pool2d(x, [1, 8], random_u=0.5, return_mask=True)
    np.testing.assert_array_equal(mask.numpy().ravel(), [0, 1, 2, 3, -1, 4, 5, 6])
    assert out.numpy().ravel()[4] == -FLT_MAX


def test_fractional_max_pool_kernel_bins():
    x = pylayer.arange(7, dtype="float32").reshape([1, 1, 1, 7])
    out = F.fractional_max_pool2d(x, [1, 3], kernel_size=[1, 5], random_u=0.5)
    np.testing.assert_array_equal(out.numpy().ravel(), [4.0, 5.0, 6.0])
    out = F.fractional_max_pool2d(x, 1, kernel_size=[1, 3], random_u=0.5)
    assert out.item() == 2.0
    with pytest.raises(ValueError, match="fractional_max_pool2d.*kernel_size"):
        F.fractional_max_pool2d(x, [1, 5], kernel_size=[1, 9], random_u=0.5)


@pytest.mark.parametrize("u", [0.0, 1.0, 1.5, -0.2])
def test_fractional_max_pool_random_u_lies_in_the_open_unit_interval(u):
    with pytest.raises(ValueError, match="fractional_max_pool2d.*random_u"):
        F.fractional_max_pool2d(pylayer.ones([1, 1, 4, 4]), 2, random_u=u)


def test_fractional_max_pool_draws_random_u_from_the_seed():
    x = pylayer.rand([1, 1, 9, 9])
    pylayer.seed(5)
    first = F.fractional_max_pool2d(x, 4, return_mask=True)[1].numpy()
    pylayer.seed(5)
    np.testing.assert_array_equal(F.fractional_max_pool2d(x, 4, return_mask=True)[1].numpy(),
                                  first)


# ------------------------------------------------------------------ fold / unfold
def test_fold_takes_complex_columns():
    columns = pylayer.to_tensor(np.full((1, 4, 4), 1 + 2j, np.complex64))
    out = F.fold(columns, [3, 3], 2)
    assert out.dtype == pylayer.complex64
    np.testing.assert_array_equal(out.numpy()[0, 0], (1 + 2j) * np.array(
        [[1, 2, 1], [2, 4, 2], [1, 2, 1]]))


def test_fold_refuses_columns_that_are_not_the_blocks():
    with pytest.raises(ValueError, match="fold.*12 blocks"):
        F.fold(pylayer.ones([2, 12, 12]), [5, 6], 2)
    with pytest.raises(ValueError, match="fold.*divide"):
        F.fold(pylayer.ones([2, 10, 20]), [5, 6], 2)


def test_unfold_refuses_a_kernel_larger_than_the_input():
    with pytest.raises(ValueError, match="unfold.*blocks"):
        F.unfold(pylayer.ones([1, 1, 2, 2]), 3)


def test_fold_of_unfold_counts_the_blocks_over_each_element():
    x = pylayer.rand([1, 2, 5, 4])
    cover = F.fold(F.unfold(pylayer.ones([1, 2, 5, 4]), 2), [5, 4], 2)
    np.testing.assert_allclose(F.fold(F.unfold(x, 2), [5, 4], 2).numpy(),
                               x.numpy() * cover.numpy(), rtol=1e-6)


# ------------------------------------------------------------------ convolutions 3-D
def test_conv3d_transpose_output_size_range():
    x, w = pylayer.ones([1, 1, 2, 2, 2]), pylayer.ones([1, 1, 2, 2, 2])
    assert F.conv3d_transpose(x, w, stride=2, output_size=[5, 4, 4]).shape == [1, 1, 5, 4, 4]
    with pytest.raises(ValueError, match="conv3d_transpose.*output_size"):
        F.conv3d_transpose(x, w, stride=2, output_size=[6, 4, 4])


def test_conv3d_channel_last_matches_channel_first():
    x, w = pylayer.rand([2, 4, 3, 4, 5]), pylayer.rand([6, 2, 2, 3, 2])
    first = F.conv3d(x, w, stride=[1, 2, 1], padding="same", groups=2)
    last = F.conv3d(x.transpose([0, 2, 3, 4, 1]), w, stride=[1, 2, 1], padding="same",
                    groups=2, data_format="NDHWC")
    np.testing.assert_allclose(last.numpy(), first.numpy().transpose(0, 2, 3, 4, 1),
                               rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ layers
def test_pytorch_spellings_are_the_same_classes():
    assert nn.Conv1d is nn.Conv1D and nn.Conv2d is nn.Conv2D and nn.Conv3d is nn.Conv3D
    assert nn.AdaptiveMaxPool1d is nn.AdaptiveMaxPool1D
    assert nn.AdaptiveMaxPool2d is nn.AdaptiveMaxPool2D
    assert nn.AdaptiveMaxPool3d is nn.AdaptiveMaxPool3D
    assert nn.LPPool1d is nn.LPPool1D and nn.LPPool2d is nn.LPPool2D


@pytest.mark.parametrize("layer, text", [
    (lambda: nn.Conv3D(2, 4, 3, stride=2, padding=1),
     "Conv3D(2, 4, kernel_size=[3, 3, 3], stride=[2, 2, 2], padding=1, data_format=NCDHW)"),
    (lambda: nn.Conv3D(2, 4, [1, 2, 3], data_format="NDHWC", groups=2, dilation=2),
     "Conv3D(2, 4, kernel_size=[1, 2, 3], dilation=[2, 2, 2], groups=2, data_format=NDHWC)"),
    (lambda: nn.Conv3DTranspose(2, 4, 3, stride=2, output_padding=1),
     "Conv3DTranspose(2, 4, kernel_size=[3, 3, 3], stride=[2, 2, 2], output_padding=1, "
     "data_format=NCDHW)"),
    (lambda: nn.Conv2D(2, 3, 3), "Conv2D(2, 3, kernel_size=[3, 3], data_format=NCHW)"),
    (lambda: nn.MaxPool3D([1, 2, 2], stride=1, padding="SAME"),
     "MaxPool3D(kernel_size=[1, 2, 2], stride=1, padding=SAME)"),
    (lambda: nn.AvgPool3D(3, stride=2, padding=1), "AvgPool3D(kernel_size=3, stride=2, padding=1)"),
    (lambda: nn.AdaptiveAvgPool3D([2, None, 3]), "AdaptiveAvgPool3D(output_size=[2, None, 3])"),
    (lambda: nn.AdaptiveMaxPool2D([2, 3], return_mask=True),
     "AdaptiveMaxPool2D(output_size=[2, 3], return_mask=True)"),
    (lambda: nn.MaxUnPool2D(2, output_size=[3, 3]), "MaxUnPool2D(output_size=[3, 3])"),
    (lambda: nn.LPPool1D(2, 3), "LPPool1D(norm_type=2.0, kernel_size=3, stride=None, padding=0)"),
    (lambda: nn.FractionalMaxPool3D([2, 3, 4], kernel_size=2, return_mask=True),
     "FractionalMaxPool3D(output_size=[2, 3, 4], return_mask=True)"),
    (lambda: nn.Fold([4, 5], [2, 3], dilations=2, paddings=1, strides=2),
     "Fold(kernel_size=[2, 3], dilation=2, padding=1, stride=2)"),
    (lambda: nn.Unfold([2, 3], paddings=[1, 2]),
     "Unfold(kernel_size=[2, 3], dilation=1, padding=[1, 2], stride=1)"),
])
def test_layer_reprs_are_paddles(layer, text):
    assert repr(layer()) == text


def test_conv3d_bias_false_and_dtype():
    conv = nn.Conv3D(2, 4, 3, bias=False, dtype="float64", device="cpu")
    assert conv.bias is None and conv.weight.dtype == pylayer.float64
    assert list(conv.state_dict()) == ["weight"]
    with pytest.raises(TypeError, match="Conv3D.*bias"):
        nn.Conv3D(2, 4, 3, bias="yes")
    assert nn.Conv3DTranspose(2, 4, 3, groups=2).weight.shape == [2, 2, 3, 3, 3]


class _Net3D(nn.Layer):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv3D(2, 4, 3, padding=1), nn.ReLU(),
                                      nn.MaxPool3D(2), nn.Conv3DTranspose(4, 3, 2, stride=2),
                                      nn.AdaptiveAvgPool3D(2))
        self.head = nn.Linear(24, 1)

    def forward(self, x):
        return self.head(self.features(x).reshape([x.shape[0], -1]))


def test_a_small_3d_model_trains_and_round_trips_through_save_and_load(tmp_path):
    pylayer.seed(0)
    model = _Net3D()
    x = pylayer.rand([4, 2, 4, 4, 4])
    target = pylayer.rand([4, 1])
    opt = pylayer.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    losses = []
    for _ in range(20):
        loss = F.mse_loss(model(x), target)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    assert losses[-1] < losses[0] / 2
    path = str(tmp_path / "model.pdparams")
    pylayer.save(model.state_dict(), path)
    again = _Net3D()
    again.set_state_dict(pylayer.load(path))
    np.testing.assert_array_equal(again(x).numpy(), model(x).numpy())


class _PaddleNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3D(2, 3, 3, padding=1)
        self.pool = nn.MaxPool3D(2)
        self.up = nn.Conv3DTranspose(3, 2, 2, stride=2)

    def forward(self, x):
        return self.up(self.pool(self.conv(x)))


def test_loads_a_model_saved_by_paddle_and_gives_its_output():
    # convpool3d.pdparams and .npz were made with Paddle 3.3.1: the same three layers,
    # paddle.seed(7), x = default_rng(3).standard_normal((1, 2, 4, 4, 4)) in float32,
    # paddle.save(net.state_dict()) and np.savez(x=x, y=net(x)).
    net = _PaddleNet()
    state = pylayer.load(os.path.join(DATA, "convpool3d.pdparams"))
    assert sorted(state) == sorted(net.state_dict())
    net.set_state_dict(state)
    data = np.load(os.path.join(DATA, "convpool3d.npz"))
    np.testing.assert_allclose(net(pylayer.to_tensor(data["x"])).numpy(), data["y"],
                               rtol=1e-5, atol=1e-6)
