"""The padding, resampling and pairwise layers and functions (issue 34): the values the
scratch Paddle 3.3.1 gave for the same calls (recorded here), reprs, aliases, errors,
and a small model that trains and round-trips through save/load. The op database
(tests/ops/opinfo_spatial2.py) checks the forwards against numpy and the gradients."""
import pathlib

import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer import nn

DATA = pathlib.Path(__file__).parent / "data"


def t(values, dtype="float32", grad=False):
    return pylayer.to_tensor(np.asarray(values, dtype), stop_gradient=not grad)


# ------------------------------------------------------------------- padding
def test_circular_pad_wraps_as_in_paddle_even_beyond_the_size():
    x = pylayer.arange(12, dtype="float32").reshape([1, 1, 3, 4])
    assert F.pad(x, [1, 2, 1, 0], mode="circular").numpy()[0, 0].tolist() == [
        [11, 8, 9, 10, 11, 8, 9], [3, 0, 1, 2, 3, 0, 1], [7, 4, 5, 6, 7, 4, 5],
        [11, 8, 9, 10, 11, 8, 9]]
    assert F.pad(x, [5, 0, 0, 0], mode="circular").shape == [1, 1, 3, 9]


def test_pad_of_5d_input_pads_depth_height_and_width():
    x5 = pylayer.ones([1, 1, 2, 3, 4])
    assert F.pad(x5, [1, 0, 0, 1, 1, 0], mode="reflect").shape == [1, 1, 3, 4, 5]


@pytest.mark.parametrize("cls, args, text", [
    (nn.Pad2D, (1,), "Pad2D(padding=[1, 1, 1, 1], mode=constant, value=0.0, "
                     "data_format=NCHW)"),
    (nn.ZeroPad2D, ([1, 0, 0, 1],), "ZeroPad2D(padding=[1, 0, 0, 1], mode=constant, "
                                    "value=0.0, data_format=NCHW)"),
    (nn.ConstantPad1D, (2, 3.0), "ConstantPad1D(padding=[2, 2], mode=constant, value=3.0, "
                                 "data_format=NCL)"),
    (nn.ReflectionPad3D, (1,), "ReflectionPad3D(padding=[1, 1, 1, 1, 1, 1], mode=reflect, "
                               "value=0.0, data_format=NCDHW)"),
    (nn.CircularPad2D, (1,), "CircularPad2D(padding=[1, 1, 1, 1], mode=circular, value=0.0, "
                             "data_format=NCHW)"),
    (nn.Flatten, (), "Flatten()"),
    (nn.Unflatten, (1, [2, 3]), "Unflatten(axis=1, shape=[2, 3])"),
    (nn.Bilinear, (2, 3, 4), "Bilinear(in1_features=2, in2_features=3, out_features=4, "
                             "dtype=float32)"),
    (nn.CosineSimilarity, (), "CosineSimilarity(axis=1, eps=1e-08)"),
    (nn.PairwiseDistance, (), "PairwiseDistance(p=2.0)"),
    (nn.PixelUnshuffle, (2, "NHWC"), "PixelUnshuffle(downscale_factor=2, data_format=NHWC)"),
    (nn.ChannelShuffle, (2,), "ChannelShuffle(groups=2)"),
])
def test_reprs_are_paddles(cls, args, text):
    assert repr(cls(*args)) == text


def test_reprs_of_the_resampling_layers_are_paddles():
    assert repr(nn.Upsample(scale_factor=2)) == (
        "Upsample(scale_factor=2, mode=nearest, align_corners=False, align_mode=0, "
        "data_format=None)")
    assert repr(nn.UpsamplingNearest2D(size=[3, 4])) == \
        "UpsamplingNearest2D(size=[3, 4], data_format=NCHW)"
    assert repr(nn.PairwiseDistance(p=1.0, epsilon=1e-3, keepdim=True)) == \
        "PairwiseDistance(p=1.0, epsilon=0.001, keepdim=True)"


def test_lower_case_names_are_the_same_classes_as_in_paddle():
    for prefix in ("ZeroPad", "ConstantPad", "ReflectionPad", "ReplicationPad", "CircularPad"):
        for dims in (1, 2, 3):
            assert getattr(nn, f"{prefix}{dims}d") is getattr(nn, f"{prefix}{dims}D")
    assert nn.UpsamplingBilinear2d is nn.UpsamplingBilinear2D
    assert nn.UpsamplingNearest2d is nn.UpsamplingNearest2D


def test_padding_layers_pad_as_their_mode_says():
    x = pylayer.to_tensor([[[1.0, 2.0, 3.0]]])
    assert nn.ReflectionPad1D([2, 1])(x).numpy().ravel().tolist() == [3, 2, 1, 2, 3, 2]
    assert nn.ReplicationPad1D(1)(x).numpy().ravel().tolist() == [1, 1, 2, 3, 3]
    assert nn.CircularPad1D(1)(x).numpy().ravel().tolist() == [3, 1, 2, 3, 1]
    assert nn.ConstantPad1D(1, 9.0)(x).numpy().ravel().tolist() == [9, 1, 2, 3, 9]
    assert nn.ZeroPad1D([0, 2])(x).numpy().ravel().tolist() == [1, 2, 3, 0, 0]
    assert nn.Pad1D(1, data_format="NLC")(pylayer.ones([1, 2, 3])).shape == [1, 4, 3]
    assert nn.Pad2D(pylayer.to_tensor([1, 0, 0, 1]))(pylayer.ones([1, 1, 2, 2])).shape == \
        [1, 1, 3, 3]
    assert nn.ZeroPad3D(1, data_format="NDHWC")(pylayer.ones([1, 2, 2, 2, 3])).shape == \
        [1, 4, 4, 4, 3]


def test_padding_layers_refuse_bad_settings():
    with pytest.raises(ValueError, match="Pad2D.*mode"):
        nn.Pad2D(1, mode="bogus")
    with pytest.raises(ValueError, match="ZeroPad2D.*data_format"):
        nn.ZeroPad2D(1, data_format="NCL")
    with pytest.raises(ValueError, match="Pad2D.*padding"):
        nn.Pad2D(-1)
    with pytest.raises(ValueError, match="reflect"):
        nn.ReflectionPad1D(3)(pylayer.ones([1, 2, 3]))


# ---------------------------------------------------------------- resampling
def test_upsampling_layers_match_paddle():
    x = pylayer.arange(6, dtype="float32").reshape([1, 1, 2, 3])
    # UpsamplingBilinear2D aligns the corners
    np.testing.assert_allclose(nn.UpsamplingBilinear2D(scale_factor=2)(x).numpy()[0, 0, 1],
                               [1.0, 1.4, 1.8, 2.2, 2.6, 3.0], rtol=1e-6)
    assert nn.UpsamplingNearest2D(size=[3, 4])(x).numpy()[0, 0].tolist() == [
        [0, 0, 1, 2], [0, 0, 1, 2], [3, 3, 4, 5]]
    assert F.upsample(x, scale_factor=2, mode="bilinear").numpy()[0, 0, 1].tolist() == [
        0.75, 1.0, 1.5, 2.0, 2.5, 2.75]
    assert nn.Upsample(scale_factor=2, mode="bilinear")(x).shape == [1, 1, 4, 6]


def test_interpolate_resizes_3d_and_5d_input_as_paddle():
    line = pylayer.arange(3, dtype="float32").reshape([1, 1, 3])
    assert F.upsample(line, scale_factor=2, mode="linear", data_format="NCW").numpy().ravel()\
        .tolist() == [0.0, 0.25, 0.75, 1.25, 1.75, 2.0]
    cube = pylayer.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
    assert F.upsample(cube, size=[3, 3, 3], mode="trilinear", align_corners=True)\
        .numpy()[0, 0, 1].tolist() == [[2.0, 2.5, 3.0], [3.0, 3.5, 4.0], [4.0, 4.5, 5.0]]
    assert F.interpolate(cube, scale_factor=1.5).shape == [1, 1, 3, 3, 3]
    with pytest.raises(ValueError, match="interpolate.*'linear'.*3-D"):
        F.interpolate(pylayer.ones([1, 1, 2, 3]), size=[3, 4], mode="linear")
    with pytest.raises(ValueError, match="upsample.*'nearest'.*4-D or 5-D"):
        F.upsample(line, size=[5])


def test_bicubic_and_area_modes_as_paddle():
    x = pylayer.arange(6, dtype="float32").reshape([1, 1, 2, 3])
    np.testing.assert_allclose(F.interpolate(x, size=[3, 4], mode="bicubic").numpy()[0, 0], [
        [-0.33219409, 0.26936865, 1.20979869, 1.81136143],
        [1.42822266, 2.02978516, 2.97021484, 3.57177734],
        [3.18863893, 3.79020166, 4.73063135, 5.33219385]], rtol=1e-6, atol=1e-6)
    assert F.interpolate(x, size=[3, 4], mode="area").numpy()[0, 0].tolist() == [
        [0.0, 0.5, 1.5, 2.0], [1.5, 2.0, 3.0, 3.5], [3.0, 3.5, 4.5, 5.0]]
    assert F.interpolate(pylayer.ones([1, 2, 5]), size=[4], mode="area").shape == [1, 2, 4]
    with pytest.raises(ValueError, match="interpolate.*'area'.*size"):
        F.interpolate(x, scale_factor=0.5, mode="area")
    with pytest.raises(ValueError, match="interpolate.*'bicubic'.*4-D"):
        F.interpolate(pylayer.ones([1, 1, 3]), size=[4], mode="bicubic")


def test_recompute_scale_factor_samples_by_the_output_size():
    x = pylayer.arange(6, dtype="float32").reshape([1, 1, 2, 3])
    np.testing.assert_allclose(
        F.interpolate(x, scale_factor=1.7, mode="bilinear", recompute_scale_factor=True)
        .numpy()[0, 0, 1], [1.5, 1.9, 2.5, 3.1, 3.5], rtol=1e-6)
    np.testing.assert_allclose(
        F.interpolate(x, scale_factor=1.7, mode="bilinear").numpy()[0, 0, 1],
        [1.1470589, 1.5294120, 2.1176474, 2.7058825, 3.1470589], rtol=1e-6)


# ---------------------------------------------------------------- rearranging
def test_pixel_unshuffle_and_channel_shuffle_as_paddle():
    x = pylayer.arange(16, dtype="float32").reshape([1, 1, 4, 4])
    assert F.pixel_unshuffle(x, 2).numpy().reshape(4, 4).tolist() == [
        [0, 2, 8, 10], [1, 3, 9, 11], [4, 6, 12, 14], [5, 7, 13, 15]]
    c = pylayer.arange(6, dtype="float32")
    assert F.channel_shuffle(c.reshape([1, 6, 1, 1]), 3).numpy().ravel().tolist() == \
        [0, 2, 4, 1, 3, 5]
    assert F.channel_shuffle(c.reshape([1, 1, 1, 6]), 3, "NHWC").numpy().ravel().tolist() == \
        [0, 2, 4, 1, 3, 5]
    with pytest.raises(ValueError, match="pixel_unshuffle.*downscale_factor"):
        F.pixel_unshuffle(pylayer.ones([1, 1, 3, 4]), 2)
    with pytest.raises(ValueError, match="channel_shuffle.*groups"):
        F.channel_shuffle(pylayer.ones([1, 5, 3, 4]), 2)
    # Paddle has float kernels only
    with pytest.raises(TypeError, match="pixel_unshuffle"):
        F.pixel_unshuffle(pylayer.ones([1, 1, 4, 4], dtype="int32"), 2)


def test_temporal_shift_as_paddle():
    x = pylayer.arange(32, dtype="float32").reshape([4, 8, 1, 1])
    expected = [[0, 0, 10, 11, 4, 5, 6, 7], [0, 1, 0, 0, 12, 13, 14, 15],
                [0, 0, 26, 27, 20, 21, 22, 23], [16, 17, 0, 0, 28, 29, 30, 31]]
    assert F.temporal_shift(x, 2).numpy()[:, :, 0, 0].tolist() == expected
    assert F.temporal_shift(x, 2, 0.3).numpy()[:, :, 0, 0].tolist() == expected
    last = x.reshape([4, 1, 1, 8])
    assert F.temporal_shift(last, 2, data_format="NHWC").numpy()[:, 0, 0].tolist() == expected
    for ratio in (0.5, 0.0, -0.1):
        with pytest.raises(ValueError, match="temporal_shift.*shift_ratio"):
            F.temporal_shift(x, 2, ratio)
    with pytest.raises(ValueError, match="temporal_shift.*seg_num"):
        F.temporal_shift(pylayer.ones([3, 4, 1, 1]), 2)
    with pytest.raises(ValueError, match="temporal_shift.*4-D"):
        F.temporal_shift(pylayer.ones([4, 4, 1]), 2)


# ------------------------------------------------------------------ pairwise
def test_cosine_similarity_of_a_zero_vector_is_zero_with_paddles_gradient():
    x1 = t([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]])
    x2 = t([[0.0, 0.0, 0.0], [1.0, 0.0, 3.0]])
    np.testing.assert_allclose(F.cosine_similarity(x1, x2).numpy(), [0.0, 0.8451542],
                               rtol=1e-6)
    a = t([[0.0, 0.0, 0.0]], grad=True)
    F.cosine_similarity(a, pylayer.ones([1, 3])).backward()
    np.testing.assert_allclose(a.grad.numpy(), [[1e8, 1e8, 1e8]], rtol=1e-6)
    assert F.cosine_similarity(pylayer.ones([2, 3]), pylayer.ones([1, 3])).shape == [2]
    with pytest.raises(TypeError, match="cosine_similarity"):
        F.cosine_similarity(pylayer.ones([2, 3], dtype="int32"),
                            pylayer.ones([2, 3], dtype="int32"))


def test_pairwise_distance_adds_epsilon_to_the_difference_as_paddle():
    x = t([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]])
    y = t([[0.0, 0.0, 0.0], [1.0, 0.0, 3.0]])
    np.testing.assert_allclose(F.pairwise_distance(x, y).numpy(), [1.7320508e-06, 2.000001],
                               rtol=1e-6)
    assert F.pairwise_distance(x, y, p=0).numpy().tolist() == [3.0, 3.0]
    np.testing.assert_allclose(F.pairwise_distance(x, y, p=float("inf")).numpy(),
                               [1e-6, 2.000001], rtol=1e-6)
    np.testing.assert_allclose(F.pairwise_distance(x, y, p=float("-inf")).numpy(),
                               [1e-6, 1e-6], rtol=1e-6)
    np.testing.assert_allclose(F.pairwise_distance(x, y, p=1).numpy(), [3e-6, 2.000003],
                               rtol=1e-6)
    assert F.pairwise_distance(x, y, keepdim=True).shape == [2, 1]
    assert F.pairwise_distance(pylayer.ones([3]), pylayer.zeros([3])).shape == []
    a = t([[1.0, 2.0, 3.0]], grad=True)
    F.pairwise_distance(a, t([[1.0, 2.0, 3.0]])).backward()
    np.testing.assert_allclose(a.grad.numpy(), [[0.57735026] * 3], rtol=1e-6)


def test_bilinear_wants_paddles_shapes():
    out = F.bilinear(pylayer.ones([2, 3]), pylayer.ones([2, 2]), pylayer.ones([4, 3, 2]),
                     pylayer.ones([1, 4]))
    assert out.numpy().tolist() == [[7.0] * 4] * 2
    with pytest.raises(ValueError, match="bilinear.*bias"):
        F.bilinear(pylayer.ones([2, 3]), pylayer.ones([2, 2]), pylayer.ones([4, 3, 2]),
                   pylayer.ones([4]))
    with pytest.raises(ValueError, match="bilinear"):
        F.bilinear(pylayer.ones([2, 3]), pylayer.ones([2, 3]), pylayer.ones([4, 3, 2]))


def test_bilinear_loads_parameters_saved_by_paddle_and_gives_its_output():
    # tests/nn/data/bilinear.{pdparams,npz}: made with the scratch Paddle 3.3.1 by
    # paddle.seed(7); layer = paddle.nn.Bilinear(3, 2, 4); its bias set to
    # [[0.1, -0.2, 0.3, 0.05]]; paddle.save(layer.state_dict(), ...); x1, x2 from
    # np.random.seed(7) rand(2, 3), rand(2, 2) in float32, and out = layer(x1, x2).
    layer = nn.Bilinear(3, 2, 4)
    assert {k: v.shape for k, v in layer.state_dict().items()} == {"weight": [4, 3, 2],
                                                                   "bias": [1, 4]}
    layer.set_state_dict(pylayer.load(str(DATA / "bilinear.pdparams")))
    data = np.load(DATA / "bilinear.npz")
    out = layer(pylayer.to_tensor(data["x1"]), pylayer.to_tensor(data["x2"]))
    np.testing.assert_allclose(out.numpy(), data["out"], rtol=1e-6, atol=1e-7)


# --------------------------------------------------------------- grid sample
def _grid_case():
    rng = np.random.RandomState(0)
    x = t(rng.rand(1, 2, 3, 4), "float64", grad=True)
    grid = t([[[[-1.2, -1.0], [0.3, 0.1], [0.9, 1.3]], [[0.5, -0.7], [1.0, 1.0],
                                                       [-0.25, 0.6]]]], "float64", grad=True)
    return x, grid


# (mode, padding_mode, align_corners): Paddle's output, x's gradient (first 6), grid's
# gradient, each of out.sum(); None where Paddle has no gradient or it is left out.
_PADDLE_GRID_SAMPLE = {
    ("bilinear", "zeros", True): (
        [0.38417, 0.48033, 0.39782, 0.57715, 0.52889, 0.50863, 0.39763, 0.75063, 0.51287,
         0.29288, 0.78053, 0.78449], [0.7, 0.0, 0.525, 0.175, 0.0, 0.395],
        [1.67529, -0.47109, -0.34415, 0.02079, 0.05903, -1.30099, 0.20184, 0.6889, -1.96414,
         -1.30942, -0.09412, -0.25424]),
    ("bilinear", "zeros", False): (
        [0.02744, 0.52537, 0.01851, 0.54513, 0.13222, 0.40969, 0.0284, 0.74325, 0.02732,
         0.07513, 0.19513, 0.8025], [0.05, 0.0, 0.475, 0.475, 0.0, 0.1],
        [1.11686, 0.16753, 0.94514, -0.01728, -0.13094, -1.3749, -0.0794, 0.97936, -1.30942,
         -0.98207, 0.07453, -0.44387]),
    ("bilinear", "border", True): (
        [0.54881, 0.48033, 0.56832, 0.57715, 0.52889, 0.50863, 0.56804, 0.75063, 0.73267,
         0.29288, 0.78053, 0.78449], [1.0, 0.0, 0.525, 0.175, 0.0, 0.395],
        [0.0, -0.67298, -0.34415, 0.02079, 0.08433, 0.0, 0.20184, 0.6889, -1.96414,
         -1.30942, -0.09412, -0.25424]),
    ("bilinear", "border", False): (
        [0.54881, 0.52537, 0.52889, 0.57382, 0.52889, 0.40969, 0.56804, 0.74325, 0.78053,
         0.07908, 0.78053, 0.8025], [1.0, 0.0, 0.5, 0.5, 0.0, 0.1],
        [0.0, 0.0, 0.94514, -0.01728, 0.0, 0.0, -0.08357, 0.0, 0.0, 0.0, 0.07453, -0.44387]),
    # (Paddle's grid gradient at the point (1.0, 1.0), on the far edge, differs in sign:
    # a kink of the reflection, where either side's slope is a subgradient)
    ("bilinear", "reflection", True): (
        [0.59873, 0.48033, 0.64492, 0.57715, 0.52889, 0.50863, 0.67531, 0.75063, 0.76974,
         0.29288, 0.78053, 0.78449], [0.7, 0.3, 0.525, 0.175, 0.0, 0.395], None),
    ("bilinear", "reflection", False): (
        [0.54881, 0.52537, 0.52889, 0.57382, 0.52889, 0.40969, 0.56804, 0.74325, 0.78053,
         0.07908, 0.78053, 0.8025], [1.0, 0.0, 0.5, 0.5, 0.0, 0.1],
        [0.0, 0.0, 0.94514, -0.01728, 0.0, 0.0, -0.08357, 0.0, 0.0, 0.0, 0.07453, -0.44387]),
    ("nearest", "zeros", True): (
        [0.54881, 0.43759, 0.52889, 0.60276, 0.52889, 0.38344, 0.56804, 0.77816, 0.78053,
         0.07104, 0.78053, 0.79916], None, None),
    ("nearest", "zeros", False): (
        [0.0, 0.43759, 0.0, 0.60276, 0.0, 0.38344, 0.0, 0.77816, 0.0, 0.07104, 0.0, 0.79916],
        None, None),
    ("nearest", "reflection", False): (
        [0.54881, 0.43759, 0.52889, 0.60276, 0.52889, 0.38344, 0.56804, 0.77816, 0.78053,
         0.07104, 0.78053, 0.79916], None, None),
}


@pytest.mark.parametrize("setting", list(_PADDLE_GRID_SAMPLE))
def test_grid_sample_gives_paddles_values_and_gradients(setting):
    mode, padding_mode, align_corners = setting
    out_expected, x_grad, grid_grad = _PADDLE_GRID_SAMPLE[setting]
    x, grid = _grid_case()
    out = F.grid_sample(x, grid, mode=mode, padding_mode=padding_mode,
                        align_corners=align_corners)
    np.testing.assert_allclose(out.numpy().ravel(), out_expected, atol=1e-5)
    out.sum().backward()
    if x_grad is not None:
        np.testing.assert_allclose(x.grad.numpy().ravel()[:6], x_grad, atol=1e-5)
    if grid_grad is not None:
        np.testing.assert_allclose(grid.grad.numpy().ravel(), grid_grad, atol=1e-5)


def test_nearest_grid_sample_gives_the_grid_a_zero_gradient_as_paddle():
    x = pylayer.ones([1, 1, 3, 4])
    x.stop_gradient = False
    grid = t([[[[0.3, 0.2]]]], grad=True)
    F.grid_sample(x, grid, mode="nearest").sum().backward()
    assert grid.grad.numpy().tolist() == [[[[0.0, 0.0]]]]
    assert x.grad.numpy().ravel().tolist() == [0] * 6 + [1] + [0] * 5


def test_grid_sample_of_volumes_as_paddle():
    x = t((np.arange(24.0).reshape(1, 1, 2, 3, 4) / 10) ** 2, "float64")
    grid = t([[[[[-0.3, 0.5, 0.2], [0.9, -1.1, -0.6]]]]], "float64")
    np.testing.assert_allclose(F.grid_sample(x, grid, align_corners=False).numpy().ravel(),
                               [2.9902, 0.019845], rtol=1e-12)
    np.testing.assert_allclose(F.grid_sample(x, grid, padding_mode="reflection")
                               .numpy().ravel(), [2.4167, 0.5653], rtol=1e-12)
    np.testing.assert_allclose(F.grid_sample(x, grid, mode="nearest", align_corners=False)
                               .numpy().ravel(), [4.41, 0.0], rtol=1e-12)


def test_grid_sample_refuses_what_paddle_refuses():
    x, grid = _grid_case()
    with pytest.raises(ValueError, match="grid_sample.*mode"):
        F.grid_sample(x, grid, mode="bicubic")
    with pytest.raises(ValueError, match="grid_sample.*grid"):
        F.grid_sample(x, grid[..., :1])
    with pytest.raises(ValueError, match="grid_sample.*grid"):
        F.grid_sample(pylayer.ones([2, 2, 3, 4], dtype="float64"), grid)
    with pytest.raises(TypeError, match="grid_sample"):
        F.grid_sample(pylayer.ones([1, 2, 3, 4], dtype="int32"), grid)
    with pytest.raises(TypeError, match="grid_sample.*dtype"):
        F.grid_sample(pylayer.ones([1, 2, 3, 4]), grid)


def test_affine_grid_as_paddle():
    theta = t([[[1.0, 0.2, 0.1], [0.3, 0.9, -0.2]]])
    np.testing.assert_allclose(F.affine_grid(theta, [1, 1, 2, 3]).numpy()[0], [
        [[-1.1, -1.4], [-0.1, -1.1], [0.9, -0.8]], [[-0.7, 0.4], [0.3, 0.7], [1.3, 1.0]]],
        rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(F.affine_grid(theta, [1, 1, 2, 3], align_corners=False)
                               .numpy()[0], [
        [[-0.6666667, -0.85], [0.0, -0.65], [0.6666667, -0.45]],
        [[-0.4666667, 0.05], [0.2, 0.25], [0.8666667, 0.45]]], rtol=1e-6, atol=1e-7)
    theta3 = t(np.arange(12.0).reshape(1, 3, 4) / 10, "float64")
    np.testing.assert_allclose(
        F.affine_grid(theta3, [1, 1, 2, 2, 2], align_corners=False).numpy().ravel(),
        [0.15, -0.05, -0.25, 0.15, 0.35, 0.55, 0.25, 0.45, 0.65, 0.25, 0.85, 1.45, 0.35, 0.55,
         0.75, 0.35, 0.95, 1.55, 0.45, 1.05, 1.65, 0.45, 1.45, 2.45], atol=1e-12)
    # the batch is theta's; out_shape may be a Tensor
    assert F.affine_grid(theta, pylayer.to_tensor([2, 1, 2, 3])).shape == [1, 2, 3, 2]
    with pytest.raises(ValueError, match="affine_grid.*theta"):
        F.affine_grid(theta, [1, 1, 2, 2, 2])


def test_gather_tree_as_paddle():
    ids = pylayer.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
    parents = pylayer.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
    assert F.gather_tree(ids, parents).numpy().tolist() == [
        [[2, 2], [1, 6]], [[3, 3], [6, 1]], [[0, 1], [9, 0]]]
    assert F.gather_tree(ids.astype("int32"), parents.astype("int32")).dtype == pylayer.int32
    with pytest.raises(TypeError, match="gather_tree.*ids"):
        F.gather_tree(ids.astype("float32"), parents)
    with pytest.raises(ValueError, match="gather_tree.*parents"):
        F.gather_tree(ids, parents + 5)
    with pytest.raises(ValueError, match="gather_tree"):
        F.gather_tree(ids[:2], parents)


# -------------------------------------------------------------------- a model
def test_a_model_of_the_new_layers_trains_and_round_trips(tmp_path):
    pylayer.seed(3)
    model = nn.Sequential(nn.ReflectionPad2D(1), nn.Conv2D(1, 4, 3), nn.ChannelShuffle(2),
                          nn.PixelUnshuffle(2), nn.Upsample(scale_factor=0.5),
                          nn.Flatten(), nn.Unflatten(1, [4, -1]), nn.Flatten())
    head = nn.Bilinear(16, 3, 1)
    rng = np.random.RandomState(0)
    x = pylayer.to_tensor(rng.rand(8, 1, 4, 4).astype("float32"))
    side = pylayer.to_tensor(rng.rand(8, 3).astype("float32"))
    target = pylayer.to_tensor(rng.rand(8, 1).astype("float32"))
    params = model.parameters() + head.parameters()
    opt = pylayer.optimizer.Adam(learning_rate=0.01, parameters=params)
    losses = []
    for _ in range(30):
        loss = ((head(model(x), side) - target) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < losses[0] / 2
    path = str(tmp_path / "head.pdparams")
    pylayer.save(head.state_dict(), path)
    again = nn.Bilinear(16, 3, 1)
    again.set_state_dict(pylayer.load(path))
    features = model(x)
    np.testing.assert_array_equal(again(features, side).numpy(), head(features, side).numpy())
