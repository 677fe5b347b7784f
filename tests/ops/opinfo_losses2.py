"""Op-database entries of the last losses (``softmax_with_cross_entropy``,
``margin_cross_entropy``, ``ctc_loss``; ``pylayer.ops.loss``).

The references are written here in numpy: CTC by the plain forward recursion over
the extended label sequence, one sample and one time step at a time (the op runs the
alpha-beta method vectorized). ``ctc_loss`` has no double backward (refused, as Paddle
has none). Paddle's observed values and the refusals are in
``tests/nn/test_losses_last.py``.
"""
import numpy as np

import pylayer
from pylayer.nn import functional as F

from opinfo import OpInfo, T, samples
from _hostile_values import A, K, Call, _value, f23


def _log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _swce(logits, label, soft_label=False, ignore_index=-100, axis=-1):
    logp = _log_softmax(logits.astype(np.float64), axis)
    if soft_label:
        loss = -(label * logp).sum(axis=axis, keepdims=True)
    else:
        picked = np.take_along_axis(logp, np.where(label == ignore_index, 0, label), axis)
        loss = np.where(label == ignore_index, 0.0, -picked)
    return loss.astype(logits.dtype)


def _margin_ce(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0,
               reduction="mean"):
    x = logits.astype(np.float64).copy()
    rows, label = np.arange(x.shape[0]), label.reshape(-1)
    x[rows, label] = np.cos(margin1 * np.arccos(x[rows, label]) + margin2) - margin3
    loss = -_log_softmax(x * scale)[rows, label][:, None]
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return np.asarray(loss).astype(logits.dtype)


def _ctc_one(logp, labels, blank):
    ext = [blank]
    for c in labels:
        ext += [int(c), blank]
    alpha = np.full(len(ext), -np.inf)
    alpha[0] = logp[0, ext[0]]
    if len(ext) > 1:
        alpha[1] = logp[0, ext[1]]
    for t in range(1, logp.shape[0]):
        prev = alpha.copy()
        for s in range(len(ext)):
            total = prev[s]
            if s >= 1:
                total = np.logaddexp(total, prev[s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                total = np.logaddexp(total, prev[s - 2])
            alpha[s] = total + logp[t, ext[s]]
    return -(np.logaddexp(alpha[-1], alpha[-2]) if len(ext) > 1 else alpha[-1])


def _ctc(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
         norm_by_times=False, zero_infinity=False):
    logp = _log_softmax(log_probs.astype(np.float64))
    losses = np.array([_ctc_one(logp[:input_lengths[b], b], labels[b, :label_lengths[b]], blank)
                       for b in range(log_probs.shape[1])])
    if zero_infinity:
        losses = np.where(np.isinf(losses), 0.0, losses)
    if reduction == "mean":
        losses = (losses / label_lengths).mean()
    elif reduction == "sum":
        losses = losses.sum()
    return np.asarray(losses).astype(log_probs.dtype)


_LABELS = np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]], dtype=np.int32)
_INPUT_LENGTHS = np.array([6, 5, 3])
_LABEL_LENGTHS = np.array([3, 2, 1])

ENTRIES = [
    OpInfo("softmax_with_cross_entropy", _swce, samples(
        (T((4, 3)), np.array([[0], [2], [1], [2]])),
        ((T((4, 3)), np.array([[0], [-100], [1], [2]])), {}),
        ((T((3, 4)), np.array([[0, 2, 1, 2]])), {"axis": 0, "ignore_index": 1}),
        ((T((2, 3)), T((2, 3), 0.0, 1.0)), {"soft_label": True})),
        call=Call(A("logits", f23, "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([[2], [0]]), "tensor"),
                  K("soft_label", _value(False), None),
                  K("ignore_index", _value(-100), "int"),
                  K("axis", _value(-1), "int_axis"),
                  extra=[("a label of the wrong rank",
                          {"label": lambda env: pylayer.to_tensor([2, 0])}, "label")])),
    OpInfo("margin_cross_entropy", _margin_ce, samples(
        (T((4, 5)), np.array([1, 0, 4, 2])),
        ((T((3, 4)), np.array([[3], [0], [1]])), {"reduction": "sum", "scale": 2.0}),
        ((T((3, 4)), np.array([2, 0, 1])),
         {"margin1": 1.35, "margin2": 0.0, "margin3": 0.2, "scale": 4.0, "reduction": None})),
        domain=(-0.9, 0.9), tolerance={"float32": (1e-4, 1e-4)},
        call=Call(A("logits", lambda env: pylayer.full([2, 3], 0.5), "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([2, 0]), "int_tensor"),
                  K("margin1", _value(1.0), "number"), K("margin2", _value(0.5), "number"),
                  K("margin3", _value(0.0), "number"), K("scale", _value(8.0), "number"),
                  K("reduction", _value("sum"), None),
                  extra=[("a label out of range",
                          {"label": lambda env: pylayer.to_tensor([3, 0])}, "label"),
                         ("an unknown reduction", {"reduction": _value("average")},
                          "reduction")])),
    OpInfo("ctc_loss", _ctc, samples(
        (T((6, 3, 5)), _LABELS, _INPUT_LENGTHS, _LABEL_LENGTHS),
        ((T((6, 3, 5)), _LABELS, _INPUT_LENGTHS, _LABEL_LENGTHS), {"reduction": "none"}),
        ((T((6, 3, 5)), _LABELS, _INPUT_LENGTHS, _LABEL_LENGTHS), {"reduction": "sum"}),
        ((T((6, 3, 5)), np.array([[1, 1, 2], [0, 1, 0], [4, 0, 0]], np.int32), _INPUT_LENGTHS,
          _LABEL_LENGTHS), {"blank": 3, "reduction": "none"})),
        second_order=False,
        call=Call(A("log_probs", lambda env: pylayer.zeros([4, 2, 3]), "float_tensor"),
                  A("labels", lambda env: pylayer.to_tensor([[1, 2], [2, 0]], dtype="int32"),
                    "int_tensor"),
                  A("input_lengths", lambda env: pylayer.to_tensor([4, 3]), "int_tensor"),
                  A("label_lengths", lambda env: pylayer.to_tensor([2, 1]), "int_tensor"),
                  K("blank", _value(0), "int"), K("reduction", _value("sum"), "reduction"),
                  extra=[("a blank among the labels",
                          {"labels": lambda env: pylayer.to_tensor([[0, 2], [2, 0]],
                                                                   dtype="int32")}, "labels"),
                         ("an input length beyond the time steps",
                          {"input_lengths": lambda env: pylayer.to_tensor([5, 3])},
                          "input_lengths"),
                         ("a label length beyond the labels",
                          {"label_lengths": lambda env: pylayer.to_tensor([3, 1])},
                          "label_lengths")])),
]


def _adaptive(input, label, head_weight, proj, out, cutoffs):
    x = input.astype(np.float64)
    head = _log_softmax(x @ head_weight)
    tail = _log_softmax((x @ proj) @ out)
    short = cutoffs[0]
    output = np.array([head[n, y] if y < short else head[n, short] + tail[n, y - short]
                       for n, y in enumerate(label)])
    return [output.astype(input.dtype), np.asarray(-output.mean()).astype(input.dtype)]


def _adaptive_op(input, label, head_weight, proj, out, cutoffs):
    return F.adaptive_log_softmax_with_loss(input, label, head_weight, [[proj, out]], cutoffs)


ENTRIES.append(
    OpInfo("adaptive_log_softmax_with_loss", _adaptive, samples(
        (T((5, 4)), np.array([0, 3, 1, 4, 2]), T((4, 3)), T((4, 2)), T((2, 3)), [2, 5]),
        (T((3, 4)), np.array([1, 0, 1]), T((4, 3)), T((4, 2)), T((2, 3)), [2, 5])),
        op=_adaptive_op,
        call=Call(A("input", lambda env: pylayer.ones([2, 4]), "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([0, 3]), "int_tensor"),
                  A("head_weight", lambda env: pylayer.zeros([4, 3]), "float_tensor"),
                  A("tail_weights", lambda env: [[pylayer.zeros([4, 2]), pylayer.zeros([2, 2])]],
                    "tensors"),
                  A("cutoffs", _value([2, 4]), "int_list"),
                  extra=[("a label beyond the classes",
                          {"label": lambda env: pylayer.to_tensor([0, 4])}, "label"),
                         ("a head of the wrong width",
                          {"head_weight": lambda env: pylayer.zeros([4, 4])}, "head_weight")])))


def _hsigmoid(input, label, num_classes, weight, bias=None):
    x = input.astype(np.float64)
    width = (num_classes - 1).bit_length()
    out = []
    for n, c in enumerate(label.reshape(-1)):
        code = int(c) + num_classes
        total = 0.0
        for j in range(width):
            if j < int(np.floor(np.log2(code))):
                node, bit = (code >> (j + 1)) - 1, (code >> j) & 1
                z = x[n] @ weight[node] + (bias[node, 0] if bias is not None else 0.0)
                z = np.clip(z, -40, 40)
            else:
                z, bit = 0.0, 0
            total += np.logaddexp(0.0, z) - bit * z
        out.append([total])
    return np.array(out).astype(input.dtype)


ENTRIES.append(
    OpInfo("hsigmoid_loss", _hsigmoid, samples(
        (T((4, 3)), np.array([0, 5, 3, 2]), 6, T((5, 3)), T((5, 1))),
        (T((3, 2)), np.array([[1], [0], [2]]), 3, T((2, 2)))),
        call=Call(A("input", f23, "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([0, 3]), "int_tensor"),
                  A("num_classes", _value(4), "int"),
                  A("weight", lambda env: pylayer.zeros([3, 3]), "float_tensor"),
                  K("bias", _value(None), "tensor_or_none"),
                  extra=[("a label beyond the classes",
                          {"label": lambda env: pylayer.to_tensor([0, 4])}, "label"),
                         ("a weight of the wrong width",
                          {"weight": lambda env: pylayer.zeros([3, 2])}, "weight")])))


def _rnnt_one(lp, labels, T, U, blank):
    alpha = np.full((T, U + 1), -np.inf)
    alpha[0, 0] = 0.0
    for t in range(T):
        for u in range(U + 1):
            if t == 0 and u == 0:
                continue
            total = -np.inf
            if t > 0:
                total = np.logaddexp(total, alpha[t - 1, u] + lp[t - 1, u, blank])
            if u > 0:
                total = np.logaddexp(total, alpha[t, u - 1] + lp[t, u - 1, labels[u - 1]])
            alpha[t, u] = total
    return -(alpha[T - 1, U] + lp[T - 1, U, blank])


def _rnnt(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001,
          reduction="mean"):
    x = input.astype(np.float64)
    losses = np.array([_rnnt_one(x[b], label[b], input_lengths[b], label_lengths[b], blank)
                       for b in range(x.shape[0])])
    if reduction == "mean":
        losses = losses.mean()
    elif reduction == "sum":
        losses = losses.sum()
    return np.asarray(losses).astype(input.dtype)


_RNNT_LABELS = np.array([[1, 2, 3], [4, 1, 0]], dtype=np.int32)
_RNNT_LENGTHS = (np.array([4, 3], dtype=np.int32), np.array([3, 2], dtype=np.int32))

ENTRIES.append(
    OpInfo("rnnt_loss", _rnnt, samples(
        ((T((2, 4, 4, 5)), _RNNT_LABELS, *_RNNT_LENGTHS), {"fastemit_lambda": 0.0}),
        ((T((2, 4, 4, 5)), _RNNT_LABELS, *_RNNT_LENGTHS),
         {"reduction": "none", "fastemit_lambda": 0.0})),
        domain=(-3.0, -0.1), second_order=False,
        call=Call(A("input", lambda env: pylayer.full([1, 2, 2, 3], -1.1), "float_tensor"),
                  A("label", lambda env: pylayer.to_tensor([[1]], dtype="int32"), "int_tensor"),
                  A("input_lengths", lambda env: pylayer.to_tensor([2], dtype="int32"),
                    "int_tensor"),
                  A("label_lengths", lambda env: pylayer.to_tensor([1], dtype="int32"),
                    "int_tensor"),
                  K("blank", _value(0), "int"), K("fastemit_lambda", _value(0.0), "number"),
                  K("reduction", _value("sum"), "reduction"),
                  extra=[("a blank among the labels",
                          {"label": lambda env: pylayer.to_tensor([[0]], dtype="int32")},
                          "label")])))
