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


# ------------------------------------------------------- the further losses
X22 = [[0.3, -1.2], [2.0, 0.5]]
SIGNS = [[1.0, -1.0], [-1.0, 1.0]]


def close(tensor, values, rtol=1e-5):
    np.testing.assert_allclose(tensor.numpy(), values, rtol=rtol, atol=1e-7)


def test_margin_hinge_soft_margin_as_paddle():
    close(F.margin_ranking_loss(t([[1.0, 2.0], [3.0, -1.0]]), t([[2.0, 1.0], [0.5, 0.0]]),
                                t(SIGNS), margin=0.5, reduction="none"), [[1.5, 1.5], [3.0, 1.5]])
    close(F.hinge_embedding_loss(t(X22), t(SIGNS), reduction="none"), [[0.3, 2.2], [0.0, 0.5]])
    # labels other than 1 and -1 cost nothing
    close(F.hinge_embedding_loss(t(X22), t([[1.0, 0.0], [2.0, 1.0]]), reduction="none"),
          [[0.3, 0.0], [0.0, 0.5]])
    close(F.soft_margin_loss(t(X22), t(SIGNS), reduction="none"),
          [[0.55435526, 0.26328245], [2.126928, 0.474077]])
    close(F.square_error_cost(t(X22), t(SIGNS)), [[0.49, 0.04], [9.0, 0.25]])


def test_log_loss_and_multi_label_soft_margin_as_paddle():
    p, y = t([[0.0], [1.0], [0.5]]), t([[1.0], [0.0], [1.0]])
    close(F.log_loss(p, y), [[9.2103405], [9.2103405], [0.69294715]])
    close(F.log_loss(p, y, epsilon=0.1), [[2.3025851], [2.3025851], [0.5108256]])
    labels = t([[1.0, 0.0], [0.0, 1.0]])
    close(F.multi_label_soft_margin_loss(t(X22), labels, reduction="none"),
          [0.40881884, 1.3005025])
    close(F.multi_label_soft_margin_loss(t(X22), labels, weight=t([1.0, 2.0]), reduction="none"),
          [0.5404601, 1.537541])


def test_cosine_embedding_as_paddle():
    x1, x2 = t([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]]), t([[2.0, 1.0, 0.0], [-1.0, 0.0, 1.0]])
    close(F.cosine_embedding_loss(x1, x2, pylayer.to_tensor([1, -1]), margin=0.1,
                                  reduction="none"), [0.5219085, 0.0])
    close(F.cosine_embedding_loss(pylayer.zeros([1, 3]), x2[:1], pylayer.to_tensor([1]),
                                  reduction="none"), [1.0])
    assert F.cosine_embedding_loss(t([1.0, 2.0]), t([2.0, 1.0]), pylayer.to_tensor([1])).item() \
        == pytest.approx(0.2, rel=1e-6)


def test_poisson_and_gaussian_nll_as_paddle():
    x, y = t([0.5, 1.0, 2.0]), t([1.0, 0.0, 3.0])
    close(F.poisson_nll_loss(x, y, reduction="none"), [1.1487212, 2.7182817, 1.3890562])
    close(F.poisson_nll_loss(x, y, log_input=False, reduction="none"),
          [1.1931472, 1.0, -0.07944155])
    close(F.poisson_nll_loss(x, y, full=True, reduction="none"), [1.1487212, 2.7182817, 3.1531377])
    with pytest.raises(ValueError, match="'epsilon' must be positive"):
        F.poisson_nll_loss(x, y, epsilon=0.0)
    # the variance is raised to epsilon (1e-6)
    close(F.gaussian_nll_loss(x, y, t([0.5, 1.0, 1e-9]), reduction="none"),
          [-9.657359e-02, 0.5, 4.999931e+05])
    close(F.gaussian_nll_loss(x, y, t([0.5, 1.0, 2.0]), full=True, reduction="none"),
          [0.8223649, 1.4189385, 1.5155121])
    # a variance without the last axis, or with it of size 1
    assert F.gaussian_nll_loss(pylayer.ones([2, 3]), pylayer.ones([2, 3]),
                               pylayer.ones([2])).item() == 0.0
    assert F.gaussian_nll_loss(pylayer.ones([2, 3]), pylayer.ones([2, 3]),
                               pylayer.ones([2, 1])).item() == 0.0
    with pytest.raises(ValueError, match="'variance' must not be negative"):
        F.gaussian_nll_loss(pylayer.ones([2]), pylayer.ones([2]), -pylayer.ones([2]))


def test_gaussian_nll_variance_gets_a_gradient():
    # Paddle 3.3.1 gives the variance no gradient (it clamps it out of the graph); as
    # PyTorch does, the floor moves the value only and the gradient passes
    v = t([0.05, 2.0], "float64", grad=True)
    F.gaussian_nll_loss(t([0.5, 1.0], "float64"), t([1.0, 0.0], "float64"), v, epsilon=0.1,
                        reduction="sum").backward()
    used = np.array([0.1, 2.0])       # 0.05 is raised to epsilon
    np.testing.assert_allclose(v.grad.numpy(), 0.5 * (1 / used - np.array([0.25, 1.0]) / used ** 2))


def test_sigmoid_focal_loss_as_paddle():
    logit, label = t([[0.3, -1.0], [2.0, 0.0]]), t([[1.0, 0.0], [0.0, 1.0]])
    close(F.sigmoid_focal_loss(logit, label, reduction="none"),
          [[0.02509832, 0.01699354], [1.2375585, 0.0433217]])
    assert F.sigmoid_focal_loss(logit, label).item() == pytest.approx(1.322972, rel=1e-6)
    assert F.sigmoid_focal_loss(logit, label, normalizer=t([2.0])).item() == pytest.approx(
        0.661486, rel=1e-6)


def test_triplets_and_multi_margin_as_paddle():
    a, p, n = t([[1.0, 2.0], [0.0, 1.0]]), t([[1.5, 2.0], [0.0, 0.0]]), t([[0.0, 0.0], [0.0, 1.2]])
    close(F.triplet_margin_loss(a, p, n, reduction="none"), [0.0, 1.8000019])
    close(F.triplet_margin_loss(a, p, n, swap=True, reduction="none"), [0.0, 1.8000019])
    close(F.triplet_margin_loss(a, p, n, p=1.0, epsilon=0.0, reduction="none"), [0.0, 1.8])
    close(F.triplet_margin_with_distance_loss(a, p, n, reduction="none"), [0.0, 1.8000019])
    with pytest.raises(TypeError, match="'distance_function' must be callable"):
        F.triplet_margin_with_distance_loss(a, p, n, distance_function="l2")
    x, label = t([[0.1, 0.2, 0.9], [0.5, 0.3, 0.1]]), pylayer.to_tensor([2, 0])
    close(F.multi_margin_loss(x, label, reduction="none"), [0.16666666, 0.46666667])
    close(F.multi_margin_loss(x, label, p=2, margin=0.5, weight=t([1.0, 2.0, 3.0]),
                              reduction="none"), [0.0, 0.03333333])
    with pytest.raises(IndexError, match=r"multi_margin_loss\(\): labels must lie in \[0, 3\)"):
        F.multi_margin_loss(x, pylayer.to_tensor([3, 0]))


def test_label_smooth_dice_npair_as_paddle():
    close(F.label_smooth(t([[0.0, 1.0, 0.0]]), epsilon=0.1),
          [[0.03333334, 0.93333334, 0.03333334]])
    close(F.label_smooth(t([[0.0, 1.0, 0.0]]), prior_dist=t([[0.2, 0.3, 0.5]]), epsilon=0.1),
          [[0.02, 0.93, 0.05]])
    with pytest.raises(ValueError, match="label_smooth"):
        F.label_smooth(t([[0.0, 1.0, 0.0]]), epsilon=1.5)
    assert F.dice_loss(t([[[0.2, 0.8], [0.6, 0.4]]]), pylayer.to_tensor([[[1], [0]]])).item() \
        == pytest.approx(0.30000168, rel=1e-6)
    assert F.dice_loss(t([[0.2, 0.8]]), pylayer.to_tensor([[1]])).item() == pytest.approx(
        0.20000398, rel=1e-6)
    anchor, positive = t([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), t([[0.9, 0.1], [0.2, 0.8],
                                                                   [1.0, 0.5]])
    labels = t([0.0, 1.0, 0.0])
    assert F.npair_loss(anchor, positive, labels).item() == pytest.approx(0.91975147, rel=1e-6)
    assert F.npair_loss(anchor, positive, labels, l2_reg=0.0).item() == pytest.approx(
        0.9186265, rel=1e-6)


def test_further_layers_pass_their_settings():
    x, y, s = t(X22), t([[1.0, 0.0], [0.0, 1.0]]), t(SIGNS)
    assert nn.MarginRankingLoss(0.5, "sum")(x, y, s).item() == pytest.approx(
        F.margin_ranking_loss(x, y, s, 0.5, "sum").item())
    assert nn.HingeEmbeddingLoss(2.0, "sum")(x, s).item() == pytest.approx(
        F.hinge_embedding_loss(x, s, 2.0, "sum").item())
    lab = pylayer.to_tensor([1, -1])
    assert nn.CosineEmbeddingLoss(0.2, "sum")(x, y, lab).item() == pytest.approx(
        F.cosine_embedding_loss(x, y, lab, 0.2, "sum").item())
    assert nn.SoftMarginLoss("sum")(x, s).item() == pytest.approx(
        F.soft_margin_loss(x, s, "sum").item())
    assert nn.MultiLabelSoftMarginLoss(t([1.0, 2.0]), "sum")(x, y).item() == pytest.approx(
        F.multi_label_soft_margin_loss(x, y, t([1.0, 2.0]), "sum").item())
    assert nn.PoissonNLLLoss(False, True, 1e-3, "sum")(t([[0.5, 1.0]]), t([[2.0, 3.0]])).item() \
        == pytest.approx(F.poisson_nll_loss(t([[0.5, 1.0]]), t([[2.0, 3.0]]), False, True,
                                            1e-3, "sum").item())
    assert nn.GaussianNLLLoss(True, 1e-3, "sum")(x, y, t([0.1, 0.2])).item() == pytest.approx(
        F.gaussian_nll_loss(x, y, t([0.1, 0.2]), True, 1e-3, "sum").item())
    assert nn.TripletMarginLoss(0.5, 1.0, 0.0, True, "sum")(x, y, s).item() == pytest.approx(
        F.triplet_margin_loss(x, y, s, 0.5, 1.0, 0.0, True, "sum").item())
    dist = lambda a, b: pylayer.abs(a - b).sum(-1)  # noqa: E731
    assert nn.TripletMarginWithDistanceLoss(dist, 0.5, True, "sum")(x, y, s).item() == \
        pytest.approx(F.triplet_margin_with_distance_loss(x, y, s, dist, 0.5, True, "sum").item())
    assert nn.MultiMarginLoss(2, 0.5, t([1.0, 3.0]), "sum")(x, pylayer.to_tensor([1, 0])).item() \
        == pytest.approx(F.multi_margin_loss(x, pylayer.to_tensor([1, 0]), 2, 0.5, t([1.0, 3.0]),
                                             "sum").item())
    for cls in (nn.MarginRankingLoss, nn.HingeEmbeddingLoss, nn.CosineEmbeddingLoss,
                nn.SoftMarginLoss, nn.MultiLabelSoftMarginLoss, nn.PoissonNLLLoss,
                nn.GaussianNLLLoss, nn.TripletMarginLoss, nn.TripletMarginWithDistanceLoss,
                nn.MultiMarginLoss):
        with pytest.raises(ValueError, match=cls.__name__ + r"\(\): argument 'reduction'"):
            cls(reduction="average")


def test_an_embedding_learns_with_the_triplet_loss():
    rng = np.random.default_rng(2)
    anchors = rng.normal(size=(16, 4)).astype("float32")
    positives = anchors + 0.1 * rng.normal(size=(16, 4)).astype("float32")
    negatives = rng.normal(size=(16, 4)).astype("float32")
    pylayer.seed(0)
    embed = nn.Linear(4, 3)
    loss_fn = nn.TripletMarginLoss(margin=2.0)
    opt = pylayer.optimizer.SGD(learning_rate=0.05, parameters=embed.parameters())
    first = None
    for _ in range(80):
        loss = loss_fn(embed(pylayer.to_tensor(anchors)), embed(pylayer.to_tensor(positives)),
                       embed(pylayer.to_tensor(negatives)))
        first = loss.item() if first is None else first
        loss.backward()
        opt.step()
        opt.clear_grad()
    assert loss.item() < 0.5 * first


def test_multi_label_margin_loss_as_paddle():
    x = t([[0.1, 0.2, 0.4, 0.8], [0.5, -0.3, 0.2, 0.9]], grad=True)
    label = pylayer.to_tensor([[3, 0, -1, 1], [1, 2, 3, -1]])   # targets end at the first -1
    loss = F.multi_label_margin_loss(x, label, reduction="none")
    close(loss, [0.85, 0.925])
    loss.sum().backward()
    close(x.grad, [[-0.5, 0.5, 0.5, -0.5], [0.75, -0.25, -0.25, -0.25]])
    # every class a target, or none: no pairs
    close(F.multi_label_margin_loss(x, pylayer.to_tensor([[3, 0, 1, 2], [-1, 2, 3, 1]]),
                                    reduction="none"), [0.0, 0.0])
    assert nn.MultiLabelMarginLoss("sum")(x, label).item() == pytest.approx(1.775, rel=1e-6)
    with pytest.raises(ValueError, match=r"multi_label_margin_loss\(\): argument 'input'"):
        F.multi_label_margin_loss(t([0.1, 0.2, 0.4]), pylayer.to_tensor([2, -1, 0]))
    with pytest.raises(IndexError, match=r"labels must lie in \[-1, 4\)"):
        F.multi_label_margin_loss(x, pylayer.to_tensor([[4, 0, -1, 1], [1, 2, 3, -1]]))


def test_class_weights_must_have_one_entry_per_class():
    with pytest.raises(ValueError, match=r"nll_loss\(\): argument 'weight' must have one entry"):
        F.nll_loss(t(LOGP), pylayer.to_tensor([2, 1, 0]), weight=t([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"multi_margin_loss\(\): argument 'weight'"):
        F.multi_margin_loss(t(LOGP), pylayer.to_tensor([2, 1, 0]), weight=t([1.0, 2.0, 3.0, 4.0]))
