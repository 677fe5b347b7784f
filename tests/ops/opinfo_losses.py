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
