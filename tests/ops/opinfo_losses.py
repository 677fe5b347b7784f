"""Op-database entries of the losses of ``pylayer.nn.functional`` beyond ``mse_loss`` and
``cross_entropy`` (``pylayer.ops.loss``).

Samples keep away from the kinks (``|d| = delta`` of ``smooth_l1_loss``, ``d = 0`` of
``l1_loss``) by drawing from a domain where hitting them has probability zero, and
``binary_cross_entropy`` away from its clamped ends 0 and 1. Paddle's edge values
(the clamping, ignored labels, non-positive targets) are in
``tests/nn/test_losses_more.py``.
"""
import numpy as np

import pylayer
from pylayer.nn import functional as F

from opinfo import OpInfo, T, samples
from _hostile_values import A, K, Call, _value, f23


def _reduce(loss, reduction="mean"):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _typed(fn):
    def ref(x, *args, **kwargs):
        return np.asarray(fn(x, *args, **kwargs)).astype(x.dtype)
    return ref


@_typed
def _bce(x, y, weight=None, reduction="mean"):
    loss = -(y * np.log(x) + (1 - y) * np.log(1 - x))
    return _reduce(loss if weight is None else loss * weight, reduction)


@_typed
def _bce_logits(x, y, weight=None, reduction="mean", pos_weight=None):
    p = 1 / (1 + np.exp(-x))
    positive = 1.0 if pos_weight is None else pos_weight
    loss = -(positive * y * np.log(p) + (1 - y) * np.log(1 - p))
    return _reduce(loss if weight is None else loss * weight, reduction)


@_typed
def _nll(x, label, weight=None, ignore_index=-100, reduction="mean"):
    w = np.ones(x.shape[1]) if weight is None else weight
    kept = label != ignore_index
    safe = np.where(kept, label, 0)
    picked = np.take_along_axis(x, np.expand_dims(safe, 1), 1).squeeze(1)
    weights = np.where(kept, w[safe], 0.0)
    loss = -picked * weights
    if reduction == "mean":
        return loss.sum() / weights.sum()
    return _reduce(loss, reduction)


@_typed
def _l1(x, y, reduction="mean"):
    return _reduce(np.abs(x - y), reduction)


@_typed
def _smooth_l1(x, y, reduction="mean", delta=1.0, is_huber=True):
    d = np.abs(x - y)
    if is_huber:
        loss = np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    else:
        loss = np.where(d < delta, 0.5 * d * d / delta, d - 0.5 * delta)
    return _reduce(loss, reduction)


@_typed
def _kl(x, y, reduction="mean", log_target=False):
    loss = np.exp(y) * (y - x) if log_target else y * (np.log(y) - x)
    if reduction == "batchmean":
        return loss.sum() / x.shape[0]
    return _reduce(loss, reduction)


_PROBABILITY = dict(tolerance={"float32": (1e-5, 1e-6)})

ENTRIES = [
    OpInfo("binary_cross_entropy", _bce, samples(
        (T((2, 3)), T((2, 3))),
        ((T((4,)), T((4,))), {"reduction": "sum"}),
        ((T((2, 3)), T((2, 3))), {"weight": np.array([0.5, 1.0, 2.0]), "reduction": "none"})),
        domain=(0.05, 0.95), op=F.binary_cross_entropy, **_PROBABILITY,
        call=Call(A("input", lambda env: pylayer.full([2, 3], 0.5), "float_tensor"),
                  A("label", f23, "float_tensor"),
                  K("weight", _value(None), "tensor_or_none"),
                  K("reduction", _value("sum"), "reduction"),
                  extra=[("an input above 1", {"input": lambda env: pylayer.full([2, 3], 1.5)},
                          "input")])),
    OpInfo("binary_cross_entropy_with_logits", _bce_logits, samples(
        (T((2, 3)), T((2, 3), 0.0, 1.0)),
        ((T((4,)), T((4,), 0.0, 1.0)), {"reduction": "sum"}),
        ((T((2, 3)), T((2, 3), 0.0, 1.0)),
         {"weight": np.array([0.5, 1.0, 2.0]), "pos_weight": np.array([2.0, 1.0, 0.5]),
          "reduction": "none"})),
        domain=(-3.0, 3.0), op=F.binary_cross_entropy_with_logits, **_PROBABILITY,
        call=Call(A("logit", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  K("weight", _value(None), "tensor_or_none"),
                  K("reduction", _value("sum"), "reduction"),
                  K("pos_weight", _value(None), "tensor_or_none"))),
    OpInfo("nll_loss", _nll, samples(
        (T((4, 3)), np.array([0, 2, 1, 2])),
        ((T((4, 3)), np.array([0, 2, -100, 1])), {"reduction": "sum"}),
        ((T((4, 3)), np.array([0, 2, 1, 1])),
         {"weight": np.array([0.5, 1.0, 2.0]), "ignore_index": 2}),
        ((T((2, 3, 4)), np.array([[0, 2, 1, 0], [1, 1, 2, 0]])), {"reduction": "none"})),
        domain=(-3.0, -0.1), op=F.nll_loss, **_PROBABILITY,
        call=Call(A("input", f23, "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([2, 0]), "int_tensor"),
                  K("weight", _value(None), "tensor_or_none"),
                  K("ignore_index", _value(-100), "int"),
                  K("reduction", _value("sum"), "reduction"),
                  extra=[("a label out of range",
                          {"label": lambda env: pylayer.to_tensor([5, 0])}, "label")])),
    OpInfo("l1_loss", _l1, samples(
        (T((2, 3)), T((2, 3))), ((T((4,)), T((4,))), {"reduction": "sum"}),
        ((T((2, 3)), T((2, 3))), {"reduction": "none"})),
        op=F.l1_loss,
        call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("smooth_l1_loss", _smooth_l1, samples(
        (T((2, 3)), T((2, 3))), ((T((4,)), T((4,))), {"reduction": "sum", "delta": 0.7}),
        ((T((2, 3)), T((2, 3))), {"reduction": "none", "delta": 1.5, "is_huber": False})),
        op=F.smooth_l1_loss,
        call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  K("reduction", _value("sum"), "reduction"),
                  K("delta", _value(1.0), "number"))),
    OpInfo("kl_div", _kl, samples(
        (T((2, 3)), T((2, 3), 0.1, 1.0)),
        ((T((4,)), T((4,), 0.1, 1.0)), {"reduction": "sum"}),
        ((T((2, 3)), T((2, 3), 0.1, 1.0)), {"reduction": "batchmean"}),
        ((T((2, 3)), T((2, 3), -2.0, 0.0)), {"reduction": "none", "log_target": True})),
        op=F.kl_div, **_PROBABILITY,
        call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  K("reduction", _value("sum"), "reduction"))),
]


def _softplus(x):
    return np.logaddexp(0, x)


@_typed
def _margin_ranking(x, other, label, margin=0.0, reduction="mean"):
    return _reduce(np.maximum(0, -label * (x - other) + margin), reduction)


@_typed
def _hinge(x, label, margin=1.0, reduction="mean"):
    return _reduce(np.where(label == 1, x, 0) + np.where(label == -1, np.maximum(0, margin - x),
                                                         0), reduction)


@_typed
def _cosine(a, b, label, margin=0.0, reduction="mean"):
    cos = (a * b).sum(-1) / np.sqrt(((a * a).sum(-1) + 1e-11) * ((b * b).sum(-1) + 1e-11))
    return _reduce(np.where(label == 1, 1 - cos, np.where(label == -1,
                                                          np.maximum(0, cos - margin), 0)),
                   reduction)


@_typed
def _soft_margin(x, y, reduction="mean"):
    return _reduce(_softplus(-y * x), reduction)


@_typed
def _square_error(x, y):
    return (x - y) ** 2


@_typed
def _log_loss(x, y, epsilon=1e-4):
    return -y * np.log(x + epsilon) - (1 - y) * np.log(1 - x + epsilon)


@_typed
def _multi_label(x, y, weight=None, reduction="mean"):
    loss = y * _softplus(-x) + (1 - y) * _softplus(x)
    return _reduce((loss if weight is None else loss * weight).mean(-1), reduction)


@_typed
def _poisson(x, y, log_input=True, full=False, epsilon=1e-8, reduction="mean"):
    loss = np.exp(x) - y * x if log_input else x - y * np.log(x + epsilon)
    if full:
        safe = np.where(y > 1, y, 1)
        loss = loss + np.where(y > 1, safe * np.log(safe) - safe + 0.5 * np.log(2 * np.pi * safe),
                               0)
    return _reduce(loss, reduction)


@_typed
def _gaussian(x, y, v, full=False, epsilon=1e-6, reduction="mean"):
    if v.shape == x.shape[:-1]:
        v = v[..., None]
    v = np.maximum(v, epsilon)
    loss = 0.5 * (np.log(v) + (x - y) ** 2 / v) + (0.5 * np.log(2 * np.pi) if full else 0)
    return _reduce(loss, reduction)


@_typed
def _focal(x, y, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum"):
    p = 1 / (1 + np.exp(-x))
    ce = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    p_t = p * y + (1 - p) * (1 - y)
    loss = ce * (alpha * y + (1 - alpha) * (1 - y)) * (1 - p_t) ** gamma
    if normalizer is not None:
        loss = loss / normalizer.reshape(())
    return _reduce(loss, reduction)


def _norm(d, p):
    return (np.abs(d) ** p).sum(-1) ** (1.0 / p)


@_typed
def _triplet(a, pos, neg, margin=1.0, p=2, epsilon=1e-6, swap=False, reduction="mean"):
    d_pos, d_neg = _norm(a - pos + epsilon, p), _norm(a - neg + epsilon, p)
    if swap:
        d_neg = np.minimum(d_neg, _norm(pos - neg + epsilon, p))
    return _reduce(np.maximum(0, d_pos - d_neg + margin), reduction)


@_typed
def _triplet_distance(a, pos, neg, margin=1.0, swap=False, reduction="mean"):
    return _triplet(a, pos, neg, margin, 2, 1e-6, swap, reduction)


@_typed
def _multi_margin(x, label, p=1, margin=1.0, weight=None, reduction="mean"):
    picked = np.take_along_axis(x, label[:, None], 1)
    terms = np.maximum(0, margin - picked + x) ** p
    terms[np.arange(len(label)), label] = 0
    loss = terms.sum(1) / x.shape[1]
    if weight is not None:
        loss = loss * weight[label]
    return _reduce(loss, reduction)


@_typed
def _label_smooth(label, prior_dist=None, epsilon=0.1):
    prior = 1.0 / label.shape[-1] if prior_dist is None else prior_dist
    return (1 - epsilon) * label + epsilon * prior


@_typed
def _dice(x, label, epsilon=1e-5):
    onehot = (np.arange(x.shape[-1]) == label).astype(x.dtype)
    axes = tuple(range(1, x.ndim))
    inter = (x * onehot).sum(axes)
    return (1 - 2 * inter / (x.sum(axes) + onehot.sum(axes) + epsilon)).mean()


@_typed
def _npair(anchor, positive, labels, l2_reg=0.002):
    same = (labels[:, None] == labels[None, :]).astype(float)
    targets = same / same.sum(1, keepdims=True)
    s = anchor @ positive.T
    log_p = s - np.log(np.exp(s).sum(1, keepdims=True))
    rows = -(targets * log_p).sum(1, keepdims=True)
    l2 = (anchor ** 2).sum(1).mean() + (positive ** 2).sum(1).mean()
    return 0.25 * l2_reg * l2 + (targets * rows).sum(0).mean()


_SIGNS = np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])

ENTRIES += [
    OpInfo("margin_ranking_loss", _margin_ranking, samples(
        (T((2, 3)), T((2, 3)), _SIGNS),
        ((T((2, 3)), T((2, 3)), _SIGNS), {"margin": 0.3, "reduction": "none"}),
        ((T((4,)), T((4,)), np.array([1.0, -1.0, -1.0, 1.0])), {"reduction": "sum"})),
        op=F.margin_ranking_loss,
        call=Call(A("input", f23, "float_tensor"), A("other", f23, "float_tensor"),
                  A("label", f23, "float_tensor"), K("margin", _value(0.1), "number"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("hinge_embedding_loss", _hinge, samples(
        (T((2, 3)), _SIGNS), ((T((2, 3)), _SIGNS), {"margin": 2.5, "reduction": "none"}),
        ((T((4,)), np.array([1.0, -1.0, -1.0, 1.0])), {"reduction": "sum"})),
        op=F.hinge_embedding_loss,
        call=Call(A("input", f23, "float_tensor"), A("label", f23, "real_tensor"),
                  K("margin", _value(1.0), "number"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("cosine_embedding_loss", _cosine, samples(
        (T((3, 4)), T((3, 4)), np.array([1, -1, 1])),
        ((T((3, 4)), T((3, 4)), np.array([-1, -1, 1])), {"margin": -0.5, "reduction": "none"}),
        ((T((4,)), T((4,)), np.array([1])), {"reduction": "sum"})),
        op=F.cosine_embedding_loss,
        call=Call(A("input1", f23, "float_tensor"), A("input2", f23, "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([1, -1]), "real_tensor"),
                  K("margin", _value(0.1), "number"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("soft_margin_loss", _soft_margin, samples(
        (T((2, 3)), _SIGNS), ((T((2, 3)), _SIGNS), {"reduction": "none"}),
        ((T((4,)), np.array([1.0, -1.0, -1.0, 1.0])), {"reduction": "sum"})),
        op=F.soft_margin_loss,
        call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("square_error_cost", _square_error, samples((T((2, 3)), T((2, 3))),
                                                      (T((4,)), T((4,)))),
           op=F.square_error_cost,
           call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"))),
    OpInfo("log_loss", _log_loss, samples(
        (T((4, 1)), T((4, 1))), ((T((2, 3)), T((2, 3))), {"epsilon": 0.01})),
        domain=(0.05, 0.95), op=F.log_loss,
        call=Call(A("input", lambda env: pylayer.full([2, 3], 0.5), "float_tensor"),
                  A("label", f23, "float_tensor"), K("epsilon", _value(1e-4), "number"))),
    OpInfo("multi_label_soft_margin_loss", _multi_label, samples(
        (T((2, 3)), np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])),
        ((T((2, 3)), np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])),
         {"weight": np.array([0.5, 1.0, 2.0]), "reduction": "none"})),
        op=F.multi_label_soft_margin_loss,
        call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  K("weight", _value(None), "tensor_or_none"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("poisson_nll_loss", _poisson, samples(
        (T((2, 3)), T((2, 3), 0.0, 3.0)),
        ((T((2, 3), 0.2, 2.0), T((2, 3), 0.0, 3.0)), {"log_input": False, "reduction": "none"}),
        ((T((4,)), np.array([0.5, 1.5, 2.0, 3.0])), {"full": True, "reduction": "sum"})),
        op=F.poisson_nll_loss, **_PROBABILITY,
        call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  K("epsilon", _value(1e-8), "number"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("gaussian_nll_loss", _gaussian, samples(
        (T((2, 3)), T((2, 3)), T((2, 3), 0.2, 2.0)),
        ((T((2, 3)), T((2, 3)), T((2,), 0.2, 2.0)), {"full": True, "reduction": "none"}),
        ((T((4,)), T((4,)), T((4,), 0.2, 2.0)), {"reduction": "sum"})),
        op=F.gaussian_nll_loss, **_PROBABILITY,
        call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  A("variance", lambda env: pylayer.ones([2, 3]), "float_tensor"),
                  K("epsilon", _value(1e-6), "number"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("sigmoid_focal_loss", _focal, samples(
        (T((2, 3)), np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])),
        ((T((2, 3)), np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])),
         {"normalizer": np.array([2.0]), "alpha": 0.5, "gamma": 1.5, "reduction": "mean"}),
        ((T((4,)), T((4,), 0.0, 1.0)), {"reduction": "none"})),
        op=F.sigmoid_focal_loss, **_PROBABILITY,
        call=Call(A("logit", f23, "float_tensor"), A("label", f23, "float_tensor"),
                  K("normalizer", _value(None), "tensor_or_none"),
                  K("alpha", _value(0.25), "number"), K("gamma", _value(2.0), "number"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("triplet_margin_loss", _triplet, samples(
        (T((3, 4)), T((3, 4)), T((3, 4))),
        ((T((3, 4)), T((3, 4)), T((3, 4))), {"p": 1.5, "swap": True, "reduction": "none"}),
        ((T((4,)), T((4,)), T((4,))), {"margin": 3.0, "reduction": "sum"})),
        op=F.triplet_margin_loss, **_PROBABILITY,
        call=Call(A("input", f23, "float_tensor"), A("positive", f23, "float_tensor"),
                  A("negative", f23, "float_tensor"), K("margin", _value(1.0), "number"),
                  K("p", _value(2), "number"), K("epsilon", _value(1e-6), "number"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("triplet_margin_with_distance_loss", _triplet_distance, samples(
        (T((3, 4)), T((3, 4)), T((3, 4))),
        ((T((3, 4)), T((3, 4)), T((3, 4))), {"swap": True, "reduction": "none"})),
        op=F.triplet_margin_with_distance_loss, **_PROBABILITY,
        call=Call(A("input", f23, "float_tensor"), A("positive", f23, "float_tensor"),
                  A("negative", f23, "float_tensor"),
                  K("distance_function", _value(None), "callable_or_none"),
                  K("margin", _value(1.0), "number"),
                  K("reduction", _value("sum"), "reduction"))),
    OpInfo("multi_margin_loss", _multi_margin, samples(
        (T((4, 3)), np.array([0, 2, 1, 2])),
        ((T((4, 3)), np.array([0, 2, 1, 1])),
         {"p": 2, "margin": 0.7, "weight": np.array([0.5, 1.0, 2.0]), "reduction": "none"})),
        op=F.multi_margin_loss,
        call=Call(A("input", f23, "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([2, 0]), "int_tensor"),
                  K("p", _value(1), "int"), K("margin", _value(1.0), "number"),
                  K("weight", _value(None), "tensor_or_none"),
                  K("reduction", _value("sum"), "reduction"),
                  extra=[("a label out of range",
                          {"label": lambda env: pylayer.to_tensor([5, 0])}, "label")])),
    OpInfo("label_smooth", _label_smooth, samples(
        (T((2, 3), 0.0, 1.0),), ((T((2, 3), 0.0, 1.0),), {"epsilon": 0.3}),
        ((T((2, 3), 0.0, 1.0), np.array([[0.2, 0.3, 0.5]])), {"epsilon": 0.2})),
        op=F.label_smooth,
        call=Call(A("label", f23, "float_tensor"), K("prior_dist", _value(None), "tensor_or_none"),
                  K("epsilon", _value(0.1), "probability"))),
    OpInfo("dice_loss", _dice, samples(
        (T((2, 3), 0.05, 1.0), np.array([[1], [2]])),
        ((T((2, 2, 3), 0.05, 1.0), np.array([[[0], [2]], [[1], [1]]])), {"epsilon": 0.1})),
        op=F.dice_loss, **_PROBABILITY,
        call=Call(A("input", f23, "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([[1], [0]]), "int_tensor"),
                  K("epsilon", _value(1e-5), "number"))),
    OpInfo("npair_loss", _npair, samples(
        (T((3, 2)), T((3, 2)), np.array([0.0, 1.0, 0.0])),
        ((T((4, 3)), T((4, 3)), np.array([1, 2, 3, 4])), {"l2_reg": 0.1})),
        op=F.npair_loss, **_PROBABILITY,
        call=Call(A("anchor", f23, "float_tensor"), A("positive", f23, "float_tensor"),
                  A("labels", lambda env: pylayer.to_tensor([0.0, 1.0]), "tensor"),
                  K("l2_reg", _value(0.002), "number"))),
]


@_typed
def _multi_label_margin(x, label, reduction="mean"):
    target = np.zeros(x.shape, bool)
    for n, row in enumerate(label):
        for c in row:
            if c == -1:
                break
            target[n, c] = True
    gaps = np.maximum(0, 1 - x[:, :, None] + x[:, None, :])
    loss = (gaps * (target[:, :, None] & ~target[:, None, :])).sum((1, 2)) / x.shape[1]
    return _reduce(loss, reduction)


ENTRIES.append(OpInfo(
    "multi_label_margin_loss", _multi_label_margin, samples(
        (T((2, 4)), np.array([[3, 0, -1, 1], [1, 2, 3, -1]])),
        ((T((3, 3)), np.array([[0, -1, 2], [2, 1, 0], [-1, 0, 1]])), {"reduction": "none"})),
    op=F.multi_label_margin_loss,
    call=Call(A("input", f23, "float_tensor"),
              A("label", lambda env: pylayer.to_tensor([[2, -1, 0], [0, 1, -1]]), "int_tensor"),
              K("reduction", _value("sum"), "reduction"),
              extra=[("a label out of range",
                      {"label": lambda env: pylayer.to_tensor([[5, -1, 0], [0, 1, -1]])},
                      "label")])))
