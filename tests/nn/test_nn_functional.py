"""nn.functional beyond what the op database checks for every op (tests/ops/opinfo.py:
forward against its numpy reference, gradcheck, gradgradcheck, static mode): saved
tensors, dtypes, stability, the random ops, the cross-entropy rules and errors."""
import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer.autograd import gradcheck, gradgradcheck

from references import cross_entropy as np_cross_entropy
from references import log_softmax as np_log_softmax

RNG = np.random.default_rng(5)


def leaf(shape, dtype="float64", scale=1.0):
    return pylayer.to_tensor(RNG.standard_normal(shape) * scale, dtype=dtype, stop_gradient=False)


def check_grads(fn, *inputs):
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_reused_fused_kernels():
    assert F.relu(pylayer.to_tensor([-1.0, 1.0], stop_gradient=False)).grad_fn.name() == "ReluGradNode"
    assert F.sigmoid is pylayer.sigmoid and F.tanh is pylayer.tanh


@pytest.mark.parametrize("fn", [F.gelu, F.softmax, F.log_softmax,
                                lambda t: F.leaky_relu(t, 0.3)])
def test_activation_float32_0d_and_empty(fn):
    x32 = pylayer.to_tensor(RNG.standard_normal([2, 3]), dtype="float32", stop_gradient=False)
    out = fn(x32)
    assert out.dtype == "float32"
    out.sum().backward()
    assert x32.grad.dtype == "float32"
    assert fn(pylayer.to_tensor(0.5, dtype="float64")).shape == []
    check_grads(fn, leaf([]))
    assert fn(pylayer.zeros([0, 3])).shape == [0, 3]


def test_gelu_saves_input_and_leaky_relu_saves_input():
    x = leaf([3])
    seen = []
    with pylayer.autograd.saved_tensors_hooks(lambda t: seen.append(t) or t, lambda t: t):
        F.gelu(x)
        F.leaky_relu(x)
    assert len(seen) == 2 and all(t is x for t in seen)


def test_softmax_is_stable_and_sums_to_one():
    x = pylayer.to_tensor([[1000.0, 1000.0, -1000.0]])
    np.testing.assert_allclose(F.softmax(x).numpy(), [[0.5, 0.5, 0.0]])
    np.testing.assert_allclose(F.log_softmax(x).numpy()[0, :2], [-np.log(2)] * 2, rtol=1e-6)
    y = F.softmax(leaf([4, 5]), axis=-1)
    np.testing.assert_allclose(y.numpy().sum(-1), np.ones(4))


def test_softmax_dtype_argument():
    x = pylayer.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    y = F.softmax(x, dtype="float64")
    assert y.dtype == "float64"
    y[0].backward()
    assert x.grad.dtype == "float32"


def test_activation_errors():
    with pytest.raises(TypeError, match="floating-point"):
        F.gelu(pylayer.to_tensor([1, 2]))
    with pytest.raises(ValueError, match="axis"):
        F.softmax(pylayer.zeros([2, 2]), axis=2)


# ---------------------------------------------------------------- dropout
def test_dropout_mask_scaling_and_gradient():
    pylayer.seed(7)
    x = pylayer.to_tensor(np.ones([2000]), stop_gradient=False)
    y = F.dropout(x, p=0.25)
    values = np.unique(y.numpy())
    np.testing.assert_allclose(values, [0.0, 1 / 0.75])
    assert 0.7 < (y.numpy() > 0).mean() < 0.8
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.numpy())


def test_dropout_uses_the_seeded_stream():
    x = pylayer.ones([50])
    pylayer.seed(3)
    a = F.dropout(x, 0.5).numpy()
    pylayer.seed(3)
    np.testing.assert_array_equal(F.dropout(x, 0.5).numpy(), a)


def test_dropout_gradcheck_with_fixed_mask():
    x = leaf([3, 4])

    def f(t):
        pylayer.seed(1)
        return F.dropout(t, 0.4)

    check_grads(f, x)


def test_dropout_modes_axis_and_edges():
    x = pylayer.ones([4, 6])
    assert F.dropout(x, 0.0) is x
    assert (F.dropout(x, 1.0).numpy() == 0).all()
    np.testing.assert_array_equal(F.dropout(x, 0.3, training=False, mode="downscale_in_infer")
                                  .numpy(), np.full([4, 6], 0.7, np.float32))
    train = F.dropout(x, 0.5, mode="downscale_in_infer").numpy()
    assert set(np.unique(train)) <= {0.0, 1.0}
    rows = F.dropout(x, 0.5, axis=0).numpy()
    assert all(len(set(r)) == 1 for r in rows)  # one decision per row
    with pytest.raises(ValueError, match="'p'"):
        F.dropout(x, 1.5)
    with pytest.raises(ValueError, match="mode"):
        F.dropout(x, 0.5, mode="other")


# ----------------------------------------------------------------- losses
@pytest.mark.parametrize("label_shape", [[6], [6, 1]])
def test_cross_entropy_hard_labels_vs_numpy(label_shape):
    logits = leaf([6, 4], scale=3.0)
    labels = RNG.integers(0, 4, 6)
    label = pylayer.to_tensor(labels.reshape(label_shape))
    losses = np_cross_entropy(logits.numpy(), labels, reduction="none")
    np.testing.assert_allclose(F.cross_entropy(logits, label).numpy(), losses.mean(), rtol=1e-12)
    np.testing.assert_allclose(F.cross_entropy(logits, label, reduction="sum").numpy(),
                               losses.sum(), rtol=1e-12)
    none = F.cross_entropy(logits, label, reduction="none")
    assert none.shape == label_shape                    # the label's shape, as in Paddle
    np.testing.assert_allclose(none.numpy().reshape(-1), losses, rtol=1e-12)
    check_grads(lambda t: F.cross_entropy(t, label), logits)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_fused_loop_and_numpy_agree(reduction):
    """Every cross entropy is one node. Hard labels of a C-contiguous [N, C] float input
    (no smoothing) run the fused C loop, the other layouts numpy: both must give the
    same losses and gradients, with or without class weights."""
    labels = np.array([0, 2, -100, 1, 2])
    values = RNG.standard_normal([5, 3]) * 3
    for weight in (None, np.array([0.5, 1.0, 2.0])):
        losses, grads = [], []
        for logits, label in [
                (pylayer.to_tensor(values, stop_gradient=False),
                 pylayer.to_tensor(labels)),                                   # C loop
                (pylayer.to_tensor(values[:, :, None], stop_gradient=False),
                 pylayer.to_tensor(labels[:, None].astype("int32")))]:        # numpy
            loss = F.cross_entropy(logits, label, weight=weight, reduction=reduction, axis=1)
            assert loss.grad_fn.name() == "CrossEntropyGradNode"
            assert loss.grad_fn.next_functions[0][0].variable is logits     # one node
            losses.append(loss.numpy().reshape(-1))
            grads.append(pylayer.grad(loss.sum(), logits)[0].numpy().reshape(5, 3))
            check_grads(lambda t: F.cross_entropy(t, label, weight=weight, reduction=reduction,
                                                  axis=1), logits)
        np.testing.assert_allclose(losses[0], losses[1], rtol=1e-12)
        np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-15)
    float32 = pylayer.to_tensor(RNG.standard_normal([4, 3]).astype("float32"), stop_gradient=False)
    loss = F.cross_entropy(float32, pylayer.to_tensor([0, 1, 2, 0]))
    loss.backward()
    assert loss.dtype == pylayer.float32 and float32.grad.dtype == pylayer.float32


def test_cross_entropy_weight_and_ignore_index():
    logits = leaf([5, 3])
    labels = np.array([0, 2, -100, 1, 2])
    weight = np.array([0.2, 1.0, 3.0])
    label = pylayer.to_tensor(labels)
    out = F.cross_entropy(logits, label, weight=pylayer.to_tensor(weight))
    np.testing.assert_allclose(out.numpy(), np_cross_entropy(logits.numpy(), labels, weight),
                               rtol=1e-12)
    plain = np_cross_entropy(logits.numpy(), labels, reduction="none")
    np.testing.assert_allclose(F.cross_entropy(logits, label).numpy(), plain.sum() / 4,
                               rtol=1e-12)
    check_grads(lambda t: F.cross_entropy(t, label, weight=weight), logits)


def test_cross_entropy_soft_labels_and_axis():
    logits = leaf([4, 3])
    probs = np.exp(np_log_softmax(RNG.standard_normal([4, 3])))
    soft = pylayer.to_tensor(probs)
    np.testing.assert_allclose(F.cross_entropy(logits, soft, soft_label=True).numpy(),
                               np_cross_entropy(logits.numpy(), probs, soft_label=True),
                               rtol=1e-12)
    check_grads(lambda t, s: F.cross_entropy(t, s, soft_label=True), logits,
                pylayer.to_tensor(probs, stop_gradient=False))
    channels_first = leaf([2, 3, 4])
    labels = RNG.integers(0, 3, [2, 4])
    ref = np_cross_entropy(channels_first.numpy(), labels, axis=1)
    out = F.cross_entropy(channels_first, pylayer.to_tensor(labels), axis=1)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12)


def test_cross_entropy_is_stable_for_large_logits():
    logits = pylayer.to_tensor([[1000.0, 0.0], [0.0, -1000.0]], stop_gradient=False)
    loss = F.cross_entropy(logits, pylayer.to_tensor([1, 1]))
    assert np.isfinite(loss.numpy()) and loss.item() == pytest.approx(1000.0, rel=1e-5)
    loss.backward()
    assert np.isfinite(logits.grad.numpy()).all()


def test_cross_entropy_label_smoothing_and_no_softmax():
    logits = leaf([3, 4])
    labels = np.array([1, 0, 3])
    eps = 0.1
    ref = np_cross_entropy(logits.numpy(), labels, label_smoothing=eps)
    out = F.cross_entropy(logits, pylayer.to_tensor(labels), label_smoothing=eps)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12)
    probs = pylayer.to_tensor(np.exp(np_log_softmax(logits.numpy())))
    direct = F.cross_entropy(probs, pylayer.to_tensor(labels), use_softmax=False)
    np.testing.assert_allclose(direct.numpy(), np_cross_entropy(logits.numpy(), labels),
                               rtol=1e-12)


def test_cross_entropy_errors():
    logits = pylayer.zeros([2, 3])
    with pytest.raises(IndexError, match=r"\[0, 3\)"):     # Paddle: IndexError
        F.cross_entropy(logits, pylayer.to_tensor([0, 3]))
    with pytest.raises(TypeError, match="integers"):
        F.cross_entropy(logits, pylayer.to_tensor([0.0, 1.0]))
    with pytest.raises(ValueError, match="does not fit"):
        F.cross_entropy(logits, pylayer.to_tensor([0, 1, 2]))
    with pytest.raises(ValueError, match="reduction"):
        F.cross_entropy(logits, pylayer.to_tensor([0, 1]), reduction="avg")
    with pytest.raises(ValueError, match="weight"):
        F.cross_entropy(logits, pylayer.to_tensor([0, 1]), weight=[1.0, 2.0])


def test_cross_entropy_without_reduction_has_the_labels_shape_as_in_paddle():
    # Paddle 3.3.1: labels [4] -> [4]; [4, 1] -> [4, 1]; axis=1 with labels [2, 5] -> [2, 5];
    # soft labels [4, 3] -> [4, 1].
    logits = pylayer.to_tensor(np.random.default_rng(0).normal(size=(4, 3)), stop_gradient=False)
    for label, shape in ((pylayer.to_tensor([0, 1, 2, 0]), [4]),
                         (pylayer.to_tensor([[0], [1], [2], [0]]), [4, 1])):
        for weight in (None, pylayer.to_tensor([1.0, 2.0, 3.0], dtype="float64")):
            loss = F.cross_entropy(logits, label, weight=weight, reduction="none")
            assert loss.shape == shape
            loss.sum().backward()
    x3 = pylayer.to_tensor(np.zeros((2, 3, 5)))
    assert F.cross_entropy(x3, pylayer.to_tensor(np.zeros((2, 5), np.int64)), axis=1,
                           reduction="none").shape == [2, 5]
    soft = F.softmax(pylayer.to_tensor(np.ones((4, 3))))
    assert F.cross_entropy(logits, soft, soft_label=True, reduction="none").shape == [4, 1]
