"""The losses of ``pylayer.nn.functional`` and their layers: Paddle 3.3.1's observed values
on edge cases, its reduction and weighting rules, errors, and a small model trained with
each layer. The generic checks (forward against numpy, gradients) are in
``tests/ops/opinfo_losses.py``."""
import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer import nn


def t(values, dtype="float32", grad=False):
    x = pylayer.to_tensor(np.array(values, dtype=dtype))
    x.stop_gradient = not grad
    return x


# ------------------------------------------------------------ binary_cross_entropy
def test_bce_clamps_each_log_at_minus_100_as_paddle():
    x = t([0.0, 1.0, 0.5, 1e-20], grad=True)
    loss = F.binary_cross_entropy(x, t([1.0, 0.0, 0.5, 1.0]), reduction="none")
    np.testing.assert_allclose(loss.numpy(), [100.0, 100.0, 0.6931472, 46.0517], rtol=1e-6)
    loss.sum().backward()      # Paddle: (x - y) / max(x (1 - x), 1e-12)
    np.testing.assert_allclose(x.grad.numpy(), [-1e12, 1e12, 0.0, -1e12], rtol=1e-6)
    tiny = F.binary_cross_entropy(t([1e-30, 1 - 1e-8]), t([1.0, 0.0]), reduction="none")
    np.testing.assert_allclose(tiny.numpy(), [69.07755, 100.0], rtol=1e-6)


def test_bce_weight_and_float64():
    loss = F.binary_cross_entropy(t([[0.3, 0.6]]), t([[1.0, 0.0]]), weight=t([2.0, 3.0]),
                                  reduction="none")
    np.testing.assert_allclose(loss.numpy(), [[2.4079456, 2.7488725]], rtol=1e-6)
    out = F.binary_cross_entropy(t([0.0, 1.0, 0.5], "float64"), t([1.0, 0.0, 0.5], "float64"),
                                 reduction="none")
    assert out.dtype == pylayer.float64
    np.testing.assert_allclose(out.numpy(), [100.0, 100.0, np.log(2)], rtol=1e-12)


def test_bce_rejects_input_outside_0_1_and_other_shapes():
    with pytest.raises(ValueError, match=r"binary_cross_entropy\(\).*'input'.*\[0, 1\]"):
        F.binary_cross_entropy(t([1.5]), t([1.0]))
    with pytest.raises(ValueError, match="same shape"):
        F.binary_cross_entropy(t([0.3, 0.6]), t([[1.0], [0.0]]))


def test_bce_with_logits_weight_pos_weight_and_large_logits():
    loss = F.binary_cross_entropy_with_logits(
        t([[1.0, -2.0, 3.0]]), t([[1.0, 0.0, 1.0]]), weight=t([1.0, 2.0, 3.0]),
        pos_weight=t([2.0, 1.0, 0.5]), reduction="none")
    np.testing.assert_allclose(loss.numpy(), [[0.6265233, 0.25385618, 0.072881]], rtol=1e-5)
    big = F.binary_cross_entropy_with_logits(t([100.0, -100.0]), t([0.0, 1.0]),
                                             reduction="none")
    np.testing.assert_allclose(big.numpy(), [100.0, 100.0])
    weighted = F.binary_cross_entropy_with_logits(t([100.0, -100.0]), t([0.0, 1.0]),
                                                  pos_weight=t([3.0, 3.0]), reduction="none")
    np.testing.assert_allclose(weighted.numpy(), [100.0, 300.0])


def test_bce_with_logits_gradient_at_zero_is_sigmoid_minus_label():
    x = t([0.0, 0.0], "float64", grad=True)
    F.binary_cross_entropy_with_logits(x, t([1.0, 0.0], "float64"), reduction="sum").backward()
    np.testing.assert_allclose(x.grad.numpy(), [-0.5, 0.5])


# ------------------------------------------------------------------------ nll_loss
LOGP = np.log(np.array([[.2, .3, .5], [.1, .6, .3], [.3, .3, .4]], "float32"))


def test_nll_loss_paddle_values():
    x, label = t(LOGP), pylayer.to_tensor([2, 1, 0])
    assert F.nll_loss(x, label).item() == pytest.approx(0.80264854, rel=1e-6)
    assert F.nll_loss(x, label, weight=t([1.0, 2.0, 3.0])).item() == pytest.approx(
        0.71751094, rel=1e-6)
    ignored = F.nll_loss(x, label, ignore_index=1, reduction="none")
    np.testing.assert_allclose(ignored.numpy(), [0.6931472, 0.0, 1.2039728], rtol=1e-6)
    assert not np.signbit(ignored.numpy()).any()
    # the mean divides by the weight of the labels kept
    assert F.nll_loss(x, label, ignore_index=1).item() == pytest.approx(0.94856, rel=1e-5)
    # a [N, 1] label counts as [N]
    assert F.nll_loss(x, pylayer.to_tensor([[2], [1], [0]])).item() == pytest.approx(
        0.80264854, rel=1e-6)


def test_nll_loss_spatial_shape_and_errors():
    x = pylayer.randn([2, 3, 4, 5])
    assert F.nll_loss(x, pylayer.randint(0, 3, [2, 4, 5]), reduction="none").shape == [2, 4, 5]
    with pytest.raises(ValueError, match="2 or more dimensions"):
        F.nll_loss(t([0.1, 0.2]), pylayer.to_tensor([0]))
    with pytest.raises(IndexError, match=r"nll_loss\(\): labels must lie in \[0, 3\)"):
        F.nll_loss(t(LOGP), pylayer.to_tensor([3, 1, 0]))
    with pytest.raises(TypeError, match="'label'.*integer"):
        F.nll_loss(t(LOGP), t([2.0, 1.0, 0.0]))


# ------------------------------------------------------------ l1 and smooth l1
def test_l1_loss_broadcasts_as_paddle():
    out = F.l1_loss(t([1.0, 2.0]), t([[0.0], [3.0]]), reduction="none")
    np.testing.assert_allclose(out.numpy(), [[1.0, 2.0], [2.0, 1.0]])


def test_smooth_l1_is_huber_by_default():
    x, zero = t([0.0, 0.5, 3.0, -3.0]), t([0.0, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(F.smooth_l1_loss(x, zero, reduction="none").numpy(),
                               [0.0, 0.125, 2.5, 2.5])
    np.testing.assert_allclose(F.smooth_l1_loss(x, zero, reduction="none", delta=2.0).numpy(),
                               [0.0, 0.125, 4.0, 4.0])
    np.testing.assert_allclose(
        F.smooth_l1_loss(x, zero, reduction="none", delta=2.0, is_huber=False).numpy(),
        [0.0, 0.0625, 2.0, 2.0])
    with pytest.raises(ValueError, match="'delta' must be positive"):
        F.smooth_l1_loss(x, zero, delta=0.0)


# -------------------------------------------------------------------------- kl_div
def test_kl_div_reductions_and_targets_as_paddle():
    x, target = t([-1.0, -2.0, -0.5]), t([0.2, 0.0, 0.8])
    expected = {"mean": 0.0331992, "sum": 0.099597596, "batchmean": 0.0331992}
    for reduction, value in expected.items():
        assert F.kl_div(x, target, reduction=reduction).item() == pytest.approx(value, rel=1e-6)
    np.testing.assert_allclose(F.kl_div(x, target, reduction="none").numpy(),
                               [-0.12188759, 0.0, 0.22148518], rtol=1e-6)
    # a target that is not positive gives a term of 0
    np.testing.assert_allclose(F.kl_div(x, t([-1.0, 0.0, 1.0]), reduction="none").numpy(),
                               [0.0, 0.0, 0.5])
    logt = F.kl_div(x, pylayer.log(t([0.2, 0.1, 0.7])), reduction="none", log_target=True)
    np.testing.assert_allclose(logt.numpy(), [-0.12188758, -0.03025851, 0.10032752], rtol=1e-5)
    two = F.kl_div(t([[-1.0, -2.0], [-0.5, -3.0]]), t([[0.2, 0.8], [0.5, 0.5]]), "batchmean")
    assert two.item() == pytest.approx(1.1782253, rel=1e-6)


def test_kl_div_gradient_is_zero_where_the_target_is_not_positive():
    x = t([-1.0, -2.0, -0.5], grad=True)
    F.kl_div(x, t([0.2, 0.0, -0.8]), reduction="sum").backward()
    np.testing.assert_allclose(x.grad.numpy(), [-0.2, 0.0, 0.0])


@pytest.mark.parametrize("fn", [F.binary_cross_entropy, F.binary_cross_entropy_with_logits,
                                F.l1_loss, F.smooth_l1_loss, F.kl_div])
def test_unknown_reduction(fn):
    with pytest.raises(ValueError, match=fn.__name__ + r"\(\): argument 'reduction'"):
        fn(t([0.5]), t([0.5]), reduction="average")


# -------------------------------------------------------------------------- layers
def test_layers_pass_their_settings():
    x, y = t([[0.2, 0.7]]), t([[1.0, 0.0]])
    w = t([2.0, 1.0])
    assert nn.BCELoss(w, "sum")(x, y).item() == pytest.approx(
        F.binary_cross_entropy(x, y, w, "sum").item())
    assert nn.BCEWithLogitsLoss(w, "none", pos_weight=w)(x, y).numpy().tolist() == \
        F.binary_cross_entropy_with_logits(x, y, w, "none", w).numpy().tolist()
    label = pylayer.to_tensor([2, 1, 0])
    assert nn.NLLLoss(t([1.0, 2.0, 3.0]), 1)(t(LOGP), label).item() == pytest.approx(
        F.nll_loss(t(LOGP), label, t([1.0, 2.0, 3.0]), 1).item())
    assert nn.L1Loss("sum")(x, y).item() == pytest.approx(1.5)
    assert nn.SmoothL1Loss("sum", 0.5, False)(x, y).item() == pytest.approx(
        F.smooth_l1_loss(x, y, "sum", 0.5, False).item())
    assert nn.KLDivLoss("batchmean", True)(x, y).item() == pytest.approx(
        F.kl_div(x, y, "batchmean", True).item())


@pytest.mark.parametrize("cls", [nn.BCELoss, nn.BCEWithLogitsLoss, nn.NLLLoss, nn.L1Loss,
                                 nn.SmoothL1Loss, nn.KLDivLoss])
def test_layers_reject_an_unknown_reduction_when_built(cls):
    with pytest.raises(ValueError, match=cls.__name__ + r"\(\): argument 'reduction'"):
        cls(reduction="average")


def _train(model, loss_fn, x, y, steps=60, lr=0.5):
    opt = pylayer.optimizer.SGD(learning_rate=lr, parameters=model.parameters())
    losses = []
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    return losses


def test_a_small_classifier_learns_with_each_classification_loss():
    rng = np.random.default_rng(0)
    points = rng.normal(size=(32, 2)).astype("float32")
    positive = (points[:, 0] + points[:, 1] > 0)
    x = pylayer.to_tensor(points)
    pylayer.seed(0)
    logits = nn.Linear(2, 1)
    losses = _train(logits, nn.BCEWithLogitsLoss(), x, pylayer.to_tensor(
        positive[:, None].astype("float32")))
    assert losses[-1] < 0.3 * losses[0]
    probs = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
    losses = _train(probs, nn.BCELoss(), x, pylayer.to_tensor(
        positive[:, None].astype("float32")))
    assert losses[-1] < 0.5 * losses[0]
    classes = nn.Sequential(nn.Linear(2, 2), nn.LogSoftmax())
    losses = _train(classes, nn.NLLLoss(), x, pylayer.to_tensor(positive.astype("int64")))
    assert losses[-1] < 0.5 * losses[0]


@pytest.mark.parametrize("loss_fn", [nn.L1Loss(), nn.SmoothL1Loss()])
def test_a_small_regression_learns(loss_fn):
    rng = np.random.default_rng(1)
    points = rng.normal(size=(32, 3)).astype("float32")
    target = points @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3
    pylayer.seed(0)
    model = nn.Linear(3, 1)
    losses = _train(model, loss_fn, pylayer.to_tensor(points), pylayer.to_tensor(target),
                    steps=200, lr=0.1)
    assert losses[-1] < 0.2 * losses[0]
