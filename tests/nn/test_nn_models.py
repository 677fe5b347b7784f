"""Convolutions, normalization, pooling, padding, resizing, embeddings, containers
and hooks: numpy references, Paddle 3.3.1's recorded outcomes, and
gradcheck/gradgradcheck in float64."""
import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer import nn
from pylayer.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(2)


def leaf(*shape):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype="float64", stop_gradient=False)


def check_grads(fn, *inputs):
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def conv2d_reference(x, w, stride, pads, dilation, groups):
    """Direct loops: out[n, o, i, j] = sum over the window of the group."""
    x = np.pad(x, [(0, 0), (0, 0), pads[0], pads[1]])
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    per_group = o // groups
    for oc in range(o):
        g = oc // per_group
        for i in range(oh):
            for j in range(ow):
                rows = i * stride[0] + np.arange(kh) * dilation[0]
                cols = j * stride[1] + np.arange(kw) * dilation[1]
                patch = x[:, g * cg:(g + 1) * cg][:, :, rows][:, :, :, cols]
                out[:, oc, i, j] = (patch * w[oc]).sum(axis=(1, 2, 3))
    return out


# ---------------------------------------------------------------- convolution
@pytest.mark.parametrize("stride,padding,pads,dilation,groups", [
    (1, 0, [(0, 0), (0, 0)], 1, 1),
    (2, 1, [(1, 1), (1, 1)], 1, 1),
    ([1, 2], [1, 0, 2, 1], [(1, 0), (2, 1)], [2, 1], 1),
    (1, [[0, 0], [0, 0], [1, 1], [0, 2]], [(1, 1), (0, 2)], 1, 2),
])
def test_conv2d_matches_direct_loops_with_grads(stride, padding, pads, dilation, groups):
    x, w, b = leaf(2, 4, 6, 5), leaf(6, 4 // groups, 3, 2), leaf(6)
    s = stride if isinstance(stride, list) else [stride] * 2
    d = dilation if isinstance(dilation, list) else [dilation] * 2
    out = F.conv2d(x, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups)
    want = conv2d_reference(x.numpy(), w.numpy(), s, pads, d, groups) + b.numpy()[:, None, None]
    np.testing.assert_allclose(out.numpy(), want, atol=1e-12)
    small = (leaf(1, 2, 4, 3), leaf(2, 2 // groups, 2, 2), leaf(2))
    check_grads(lambda *t: F.conv2d(*t, stride=stride, padding=padding, dilation=dilation,
                                    groups=groups), *small)


def test_conv2d_padding_results_recorded_from_paddle():
    x = pylayer.arange(25, dtype="float32").reshape([1, 1, 5, 5])
    w = pylayer.ones([1, 1, 2, 2])
    assert F.conv2d(x, w, padding="same").numpy()[0, 0, 0].tolist() == [12, 16, 20, 24, 13]
    assert F.conv2d(x, w, padding=[1, 0]).shape == [1, 1, 6, 4]
    assert F.conv2d(x, w, padding=[1, 0, 0, 1]).numpy()[0, 0, 0].tolist() == [1, 3, 5, 7, 4]
    nhwc = F.conv2d(x.reshape([1, 5, 5, 1]), w, data_format="NHWC")
    assert nhwc.shape == [1, 4, 4, 1]
    np.testing.assert_array_equal(nhwc.numpy()[..., 0], F.conv2d(x, w).numpy()[:, 0])


def test_conv1d_results_recorded_from_paddle_and_grads():
    x = pylayer.arange(10, dtype="float32").reshape([1, 1, 10])
    w = pylayer.ones([1, 1, 3])
    assert F.conv1d(x, w, padding=[1, 2]).numpy()[0, 0].tolist() == [
        1, 3, 6, 9, 12, 15, 18, 21, 24, 17, 9]
    # 'same' ignores the dilation, as in Paddle 3.3.1
    assert F.conv1d(x, w, padding="same", stride=3, dilation=2).numpy()[0, 0].tolist() == [
        1, 9, 18, 17]
    assert F.conv1d(x, w, padding="valid", stride=3).numpy()[0, 0].tolist() == [3, 12, 21]
    check_grads(lambda a, b: F.conv1d(a, b, stride=2, padding=1, data_format="NLC"),
                leaf(2, 7, 3), leaf(4, 3, 3))


@pytest.mark.parametrize("call,match", [
    (lambda: F.conv2d(pylayer.ones([1, 1, 5, 5]), pylayer.ones([2, 1, 2, 2]), groups=2),
     "groups"),
    (lambda: F.conv2d(pylayer.ones([1, 1, 2, 2]), pylayer.ones([1, 1, 3, 3])), "kernel"),
    (lambda: F.conv2d(pylayer.ones([1, 1, 5]), pylayer.ones([1, 1, 3, 3])), "'x'"),
    (lambda: F.conv2d(pylayer.ones([1, 1, 5, 5]), pylayer.ones([1, 1, 3, 3]), padding="full"),
     "'padding'"),
    (lambda: F.conv2d(pylayer.ones([1, 1, 5, 5]), pylayer.ones([1, 1, 3, 3]), stride=0),
     "'stride'"),
])
def test_conv_refusals(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_conv_layers_initialize_like_paddle_and_pad_with_modes():
    conv = nn.Conv2D(4, 6, 3)
    assert conv.weight.shape == [6, 4, 3, 3] and list(conv.state_dict()) == ["weight", "bias"]
    assert abs(conv.weight.numpy().std() - (2.0 / 36) ** 0.5) < 0.05
    assert not conv.bias.numpy().any()
    reflect = nn.Conv1D(1, 1, 3, padding=1, padding_mode="reflect", bias_attr=False)
    x = pylayer.to_tensor([[[1.0, 2.0, 3.0]]])
    want = F.conv1d(F.pad(x, [1, 1], mode="reflect"), reflect.weight)
    np.testing.assert_allclose(reflect(x).numpy(), want.numpy())
    assert reflect.bias is None


# ---------------------------------------------------------------------- pad
def test_pad_orderings_recorded_from_paddle():
    x = pylayer.arange(12, dtype="float32").reshape([1, 1, 3, 4])
    assert F.pad(x, [1, 0, 0, 2]).shape == [1, 1, 5, 5]
    assert F.pad(x, [1, 0, 0, 0, 0, 0, 0, 1]).shape == [2, 1, 3, 5]
    from_right = F.pad(x, [1, 0, 0, 0, 0, 0, 0, 1], pad_from_left_axis=False)
    assert from_right.numpy()[0, 0, 0].tolist() == [0, 0, 1, 2, 3]
    assert F.pad(x, [1, 1, 1, 1], mode="reflect").numpy()[0, 0, 0].tolist() == [
        5, 4, 5, 6, 7, 6]
    assert F.pad(x, [2, 1, 0, 0], mode="replicate").numpy()[0, 0, 0].tolist() == [
        0, 0, 0, 1, 2, 3, 3]
    assert F.pad(x, [2, 1], value=5.0).numpy()[0, 0, 0].tolist() == [5, 5, 0, 1, 2, 3, 5]
    assert F.pad(x, [1, 1, 0, 0], data_format="NHWC").shape == [1, 1, 5, 4]
    with pytest.raises(ValueError, match="pad.*'pad'"):
        F.pad(x, [1, 1], mode="reflect")
    with pytest.raises(ValueError, match="pad.*reflect"):
        F.pad(x, [4, 0, 0, 0], mode="reflect")


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate"])
def test_pad_grads(mode):
    check_grads(lambda t: F.pad(t, [2, 1, 1, 2], mode=mode), leaf(1, 2, 3, 4))
    want = np.pad(np.arange(4.0), (2, 1), {"constant": "constant", "reflect": "reflect",
                                             "replicate": "edge"}[mode])
    got = F.pad(pylayer.to_tensor([[np.arange(4.0)]]), [2, 1], mode=mode)
    np.testing.assert_array_equal(got.numpy()[0, 0], want)


# ---------------------------------------------------------------- interpolate
def test_interpolate_results_recorded_from_paddle():
    x = pylayer.arange(12, dtype="float32").reshape([1, 1, 3, 4])
    assert F.interpolate(x, size=[5, 6]).numpy()[0, 0, :, 1].tolist() == [0, 0, 4, 4, 8]
    bilinear = F.interpolate(x, size=[5, 6], mode="bilinear").numpy()[0, 0]
    np.testing.assert_allclose(bilinear[1, :3], [1.6, 2.1, 2.7667], atol=1e-4)
    corners = F.interpolate(x, size=[5, 6], mode="bilinear", align_corners=True).numpy()[0, 0]
    np.testing.assert_allclose(corners[1, :3], [2.0, 2.6, 3.2], atol=1e-4)
    mode1 = F.interpolate(x, size=[5, 6], mode="bilinear", align_mode=1).numpy()[0, 0]
    np.testing.assert_allclose(mode1[1, :3], [2.4, 3.0667, 3.7333], atol=1e-4)
    scaled = F.interpolate(x, scale_factor=[1.5, 0.5], mode="bilinear").numpy()[0, 0]
    np.testing.assert_allclose(scaled[:, 0], [0.5, 2.5, 5.1667, 7.8333], atol=1e-4)
    with pytest.raises(ValueError, match="interpolate.*align_corners"):
        F.interpolate(x, size=[5, 6], align_corners=True)


@pytest.mark.parametrize("kwargs", [dict(size=[5, 3]), dict(scale_factor=2),
                                    dict(size=[5, 3], mode="bilinear"),
                                    dict(size=[2, 7], mode="bilinear", align_corners=True),
                                    dict(scale_factor=[1.5, 0.5], mode="bilinear", align_mode=1),
                                    dict(size=[4, 4], mode="bilinear", data_format="NHWC")])
def test_interpolate_grads(kwargs):
    check_grads(lambda t: F.interpolate(t, **kwargs), leaf(1, 2, 3, 4))


# ------------------------------------------------------------ normalization
def test_layer_norm_matches_numpy_with_grads():
    x, w, b = leaf(2, 3, 4), leaf(3, 4), leaf(3, 4)
    a = x.numpy()
    mu = a.mean(axis=(1, 2), keepdims=True)
    want = (a - mu) / np.sqrt(a.var(axis=(1, 2), keepdims=True) + 1e-5) * w.numpy() + b.numpy()
    np.testing.assert_allclose(F.layer_norm(x, [3, 4], w, b).numpy(), want, atol=1e-12)
    check_grads(lambda *t: F.layer_norm(t[0], 4, t[1], t[2]), leaf(2, 4), leaf(4), leaf(4))
    with pytest.raises(ValueError, match="layer_norm.*normalized_shape"):
        F.layer_norm(x, [3])


def test_batch_norm_statistics_recorded_from_paddle():
    bn = nn.BatchNorm1D(2)
    x = pylayer.to_tensor([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]])
    out = bn(x)
    np.testing.assert_allclose(out.numpy()[:, 0], [-1.2247, 0.0, 1.2247], atol=1e-4)
    np.testing.assert_allclose(bn._mean.numpy(), [0.3, 0.3], atol=1e-6)
    np.testing.assert_allclose(bn._variance.numpy(), [1.1666667, 1.3666667], atol=1e-6)
    bn.eval()
    np.testing.assert_allclose(bn(x).numpy()[:, 1], [1.4542, 4.8758, 0.5988], atol=1e-4)
    bn2 = nn.BatchNorm2D(2, momentum=0.5)
    bn2(pylayer.arange(16, dtype="float32").reshape([2, 2, 2, 2]))
    np.testing.assert_allclose(bn2._mean.numpy(), [2.75, 4.75])
    np.testing.assert_allclose(bn2._variance.numpy(), [9.125, 9.125])
    assert list(bn2.state_dict()) == ["weight", "bias", "_mean", "_variance"]


def test_batch_norm_grads_in_training_and_eval():
    mean, var = pylayer.zeros([3], "float64"), pylayer.ones([3], "float64")
    check_grads(lambda x, w, b: F.batch_norm(x, mean, var, w, b, training=True),
                leaf(4, 3, 2), leaf(3), leaf(3))
    check_grads(lambda x, w: F.batch_norm(x, mean, var, w, training=False, data_format="NHWC"),
                leaf(2, 2, 2, 3), leaf(3))
    frozen = pylayer.to_tensor([1.0, 2.0, 3.0], dtype="float64")
    F.batch_norm(leaf(4, 3), frozen, var, training=True, use_global_stats=True)
    assert frozen.numpy().tolist() == [1.0, 2.0, 3.0]


def test_batch_norm_layer_rank_check():
    with pytest.raises(ValueError, match="BatchNorm2D.*rank 4"):
        nn.BatchNorm2D(2)(pylayer.ones([2, 2]))


def test_group_norm_matches_numpy_with_grads():
    x = leaf(2, 4, 3)
    grouped = x.numpy().reshape(2, 2, 6)
    want = ((grouped - grouped.mean(-1, keepdims=True))
            / np.sqrt(grouped.var(-1, keepdims=True) + 1e-5)).reshape(2, 4, 3)
    np.testing.assert_allclose(F.group_norm(x, 2).numpy(), want, atol=1e-12)
    check_grads(lambda t, w, b: F.group_norm(t, 2, weight=w, bias=b), x, leaf(4), leaf(4))
    check_grads(lambda t: F.group_norm(t, 2, data_format="NHWC"), leaf(1, 2, 2, 4))
    layer = nn.GroupNorm(2, 4)
    assert list(layer.state_dict()) == ["weight", "bias"]
    with pytest.raises(ValueError, match="GroupNorm"):
        nn.GroupNorm(3, 4)


# -------------------------------------------------------------------- pooling
def test_adaptive_avg_pool_bins_recorded_from_paddle_with_grads():
    x1 = pylayer.arange(5, dtype="float32").reshape([1, 1, 5])
    assert F.adaptive_avg_pool1d(x1, 3).numpy()[0, 0].tolist() == [0.5, 2.0, 3.5]
    x2 = pylayer.arange(25, dtype="float32").reshape([1, 1, 5, 5])
    assert F.adaptive_avg_pool2d(x2, [2, 3]).numpy()[0, 0].tolist() == [
        [5.5, 7.0, 8.5], [15.5, 17.0, 18.5]]
    assert F.adaptive_avg_pool2d(x2, [None, 3]).shape == [1, 1, 5, 3]
    check_grads(lambda t: F.adaptive_avg_pool2d(t, [2, 3]), leaf(2, 2, 5, 4))
    check_grads(lambda t: F.adaptive_avg_pool1d(t, 2), leaf(2, 2, 5))
    assert nn.AdaptiveAvgPool2D(1, data_format="NHWC")(pylayer.ones([2, 4, 4, 3])).shape == [
        2, 1, 1, 3]


def test_adaptive_avg_pool_to_dividing_sizes_gives_a_gradient_in_the_input_layout():
    # Bins of equal size are a mean over each bin: its gradient is a C-ordered array,
    # where pooling by averaging matrices gave a transposed view (slow in what follows)
    x = leaf(2, 3, 4, 6)
    for size, fmt in ((1, "NCHW"), ([2, 3], "NCHW"), ([3, 2], "NHWC")):
        seen = []
        y = x * 1.0
        y.register_hook(lambda g: seen.append(g.numpy()))
        out = F.adaptive_avg_pool2d(y, size, data_format=fmt)
        (out * pylayer.arange(out.size, dtype="float64").reshape(out.shape)).sum().backward()
        assert seen[0].flags.c_contiguous
        check_grads(lambda t: F.adaptive_avg_pool2d(t, size, data_format=fmt), leaf(2, 3, 4, 6))
    a = np.arange(48.0).reshape(1, 1, 4, 12)
    np.testing.assert_allclose(F.adaptive_avg_pool2d(pylayer.to_tensor(a), [2, 3]).numpy(),
                               a.reshape(1, 1, 2, 2, 3, 4).mean(axis=(3, 5)))


# ------------------------------------------------------- shuffle and one-hot
def test_pixel_shuffle_and_its_grads():
    x = pylayer.arange(8, dtype="float32").reshape([1, 4, 1, 2])
    assert F.pixel_shuffle(x, 2).numpy()[0, 0].tolist() == [[0, 2, 1, 3], [4, 6, 5, 7]]
    check_grads(lambda t: F.pixel_shuffle(t, 2), leaf(1, 8, 2, 3))
    with pytest.raises(ValueError, match="pixel_shuffle"):
        F.pixel_shuffle(pylayer.ones([1, 3, 2, 2]), 2)


def test_one_hot_recorded_from_paddle():
    assert F.one_hot(pylayer.to_tensor([[1], [2]]), 3).shape == [2, 1, 3]
    assert F.one_hot(pylayer.to_tensor([1, 0, 3]), -1).shape == [3, 4]
    assert F.one_hot(pylayer.to_tensor([1, 0, 3]), 4).dtype == pylayer.float32
    with pytest.raises(ValueError, match="one_hot.*'x'"):
        F.one_hot(pylayer.to_tensor([1, 0, 4]), 4)


# ------------------------------------------------------------------ embedding
def test_embedding_padding_idx_reads_zeros_and_gets_no_gradient_as_in_paddle():
    weight = pylayer.ones([5, 3], dtype="float64")
    weight.stop_gradient = False
    out = F.embedding(pylayer.to_tensor([1, 2, 1]), weight, padding_idx=1)
    assert out.numpy().tolist() == [[0.0] * 3, [1.0] * 3, [0.0] * 3]
    out.sum().backward()
    assert weight.grad.numpy()[:, 0].tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]
    check_grads(lambda w: F.embedding(pylayer.to_tensor([[0, 3], [3, 4]]), w, padding_idx=-1),
                leaf(5, 2))
    with pytest.raises(ValueError, match="embedding.*'x'"):
        F.embedding(pylayer.to_tensor([5]), weight)
    layer = nn.Embedding(5, 3, padding_idx=1)
    assert not layer.weight.numpy()[1].any() and layer.weight.numpy()[0].any()


# ------------------------------------------------------------ small layers
def test_hardtanh_gradient_is_zero_at_the_bounds_as_in_paddle():
    x = pylayer.to_tensor([-1.0, 0.0, 1.0, 2.0], stop_gradient=False)
    F.hardtanh(x).sum().backward()
    assert x.grad.numpy().tolist() == [0.0, 1.0, 0.0, 0.0]
    check_grads(lambda t: F.hardtanh(t, -0.5, 0.5), leaf(6))
    assert nn.Hardtanh(0.0, 6.0)(pylayer.to_tensor([7.0])).numpy().tolist() == [6.0]


def test_layer_list_behaves_as_a_list_of_registered_layers():
    blocks = nn.LayerList([nn.Linear(2, 2), nn.Tanh()])
    blocks.append(nn.Linear(2, 1))
    blocks.insert(0, nn.ReLU())
    assert [type(b).__name__ for b in blocks] == ["ReLU", "Linear", "Tanh", "Linear"]
    assert [name for name, _ in blocks.named_sublayers()] == ["0", "1", "2", "3"]
    assert len(blocks.parameters()) == 4 and len(blocks[1:]) == 3
    del blocks[0]
    assert type(blocks[0]).__name__ == "Linear" and len(blocks) == 3
    blocks[2] = nn.Identity()
    assert isinstance(blocks[-1], nn.Identity)
    with pytest.raises(TypeError, match="LayerList"):
        blocks.append(pylayer.tanh)
    with pytest.raises(IndexError, match="LayerList"):
        blocks[5]


def test_forward_hooks_change_inputs_and_outputs_until_removed():
    layer = nn.Linear(2, 2, bias_attr=False)
    calls = []
    pre = layer.register_forward_pre_hook(lambda l, inputs: (inputs[0] * 2,))
    post = layer.register_forward_post_hook(lambda l, inputs, out: calls.append(
        inputs[0].numpy().tolist()))
    first = layer.register_forward_pre_hook(lambda l, inputs: calls.append("first"),
                                            prepend=True)
    x = pylayer.ones([1, 2])
    np.testing.assert_allclose(layer(x).numpy(), 2 * x.numpy() @ layer.weight.numpy())
    assert calls == ["first", [[2.0, 2.0]]]
    for handle in (pre, post, first):
        handle.remove()
    handle_again = pre.remove()
    assert handle_again is None
    np.testing.assert_allclose(layer(x).numpy(), x.numpy() @ layer.weight.numpy())
    assert len(calls) == 2
    with pytest.raises(TypeError, match="register_forward_pre_hook.*'hook'"):
        layer.register_forward_pre_hook("not a function")


@pytest.mark.parametrize("build", [
    lambda x: F.conv2d(x, pylayer.ones([2, 1, 2, 2]), padding=1),
    lambda x: F.pad(x, [1, 0, 0, 1], mode="replicate"),
    lambda x: F.interpolate(x, size=[3, 5], mode="bilinear"),
    lambda x: F.layer_norm(x, 4),
    lambda x: F.adaptive_avg_pool2d(x, [2, 1]),
    lambda x: F.hardtanh(x, 0.0, 5.0),
])
def test_functional_forms_record_into_a_static_program(build):
    from pylayer import static
    data = np.arange(12.0, dtype="float32").reshape(1, 1, 3, 4)
    want = build(pylayer.to_tensor(data)).numpy()
    pylayer.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            x = static.data("x", [1, 1, 3, 4], "float32")
            y = build(x)
        (got,) = static.Executor().run(main, feed={"x": data}, fetch_list=[y])
    finally:
        pylayer.disable_static()
    np.testing.assert_allclose(got, want, rtol=1e-6)
