"""Losses: ``mse_loss`` and ``cross_entropy`` (``pylayer.nn.functional`` makes them
public under its name).

``cross_entropy`` is one op for every case (hard or soft labels, class weights,
``ignore_index``, label smoothing, any axis, each reduction, with or without the
softmax): one node whose rule is written with pylayer ops, so that
``create_graph=True`` records it. Where its input is a C-contiguous float
``[N, C]`` with integer labels and no smoothing, the softmax and the losses run in
one fused C loop (``pylayer._kernels.loops.softmax_cross_entropy``), as does the
gradient when it is not to be differentiated again; in the other layouts that
gradient reuses the forward's softmax.
"""
import warnings

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer._kernels import loops
from pylayer.ops._arguments import check_axis, check_int, check_number, float_tensor
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.reduction import mean, sum as reduce_sum
from pylayer.ops.shape import cast, reshape
from pylayer.ops.activation import log_softmax, log_softmax_array, softmax
from pylayer.ops.arithmetic import add, divide, multiply, neg, subtract
from pylayer.ops.dispatch import op
from pylayer.ops.math import log, square

__all__ = ["mse_loss", "cross_entropy"]

_REDUCTIONS = ("mean", "sum", "none")


def check_reduction(reduction, fn):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{fn}(): argument 'reduction' must be one of {_REDUCTIONS}, "
                         f"got {reduction!r}")


# ------------------------------------------------------------- mse_loss
@op
def mse_loss(input, label, reduction="mean", name=None):
    """Squared error ``(input - label) ** 2``, averaged (default), summed or kept.

    ``input`` and ``label`` broadcast against each other, as in Paddle: an
    input of shape ``[4]`` and a label of shape ``[4, 1]`` give 16 squared
    errors. As that is usually a mistake (a ``[N, 1]`` prediction against a
    ``[N]`` label), a ``UserWarning`` says so whenever the label makes the
    loss larger than the input.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.mse_loss(pylayer.to_tensor([1.0, 3.0]), pylayer.to_tensor([0.0, 0.0])).numpy()
    array(5., dtype=float32)
    """
    check_reduction(reduction, "mse_loss")
    input = float_tensor(input, "mse_loss", "input")
    label = float_tensor(label, "mse_loss", "label", 2)
    try:
        shape = list(np.broadcast_shapes(tuple(input.shape), tuple(label.shape)))
    except ValueError:
        raise ValueError(f"mse_loss(): argument 'label' of shape {label.shape} does not "
                         f"broadcast with 'input' of shape {input.shape}") from None
    if shape != input.shape:
        warnings.warn(f"mse_loss(): 'input' of shape {input.shape} and 'label' of shape "
                      f"{label.shape} broadcast to a loss of shape {shape}, every input "
                      f"against every label (as in Paddle); reshape one of them if that is "
                      f"not meant", UserWarning, stacklevel=2)
    loss = square(subtract(input, label))
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return reduce_sum(loss)
    return loss


# -------------------------------------------------------- cross_entropy
def check_cross_entropy_arguments(weight, ignore_index, reduction, axis, label_smoothing, fn):
    """Check cross entropy's settings (for ``cross_entropy`` and ``CrossEntropyLoss``).

    Returns ``weight`` as a float Tensor (or None).

    >>> check_cross_entropy_arguments(None, -100, "mean", -1, 0.0, "f") is None
    True
    """
    check_reduction(reduction, fn)
    check_int(ignore_index, fn, "ignore_index")
    check_int(axis, fn, "axis")
    check_number(label_smoothing, fn, "label_smoothing", minimum=0.0, maximum=1.0)
    if weight is None:
        return None
    weight = as_tensor_arg(weight, fn, "weight", 3)
    if weight.numpy().dtype.kind not in "iuf":
        raise TypeError(f"{fn}(): argument 'weight' (position 3) must be a numeric Tensor, got "
                        f"dtype {weight.dtype.name}")
    return weight


def _hard_labels(a, label, axis, ignore_index):
    """Checked hard labels shaped like ``a`` with ``axis`` of size 1, and the mask of kept ones."""
    lab = np.array(label.numpy(), copy=True)      # kept for backward: the caller's may change
    if lab.dtype.kind not in "iu":
        raise TypeError(f"cross_entropy(): hard labels must be integers, got dtype {lab.dtype}; "
                        f"pass soft_label=True for probabilities")
    if lab.ndim == a.ndim - 1:
        lab = np.expand_dims(lab, axis)
    if lab.ndim != a.ndim or lab.shape[axis] != 1 or \
            lab.shape[:axis] + lab.shape[axis + 1:] != a.shape[:axis] + a.shape[axis + 1:]:
        raise ValueError(f"cross_entropy(): label of shape {list(label.shape)} does not fit "
                         f"input of shape {list(a.shape)} with axis {axis}; expected the "
                         f"input's shape without that axis, or with it of size 1")
    classes = a.shape[axis]
    kept = lab != ignore_index
    if ((lab < 0) | (lab >= classes))[kept].any():
        raise IndexError(f"cross_entropy(): labels must lie in [0, {classes}) "
                         f"(or equal ignore_index={ignore_index}), got "
                         f"{lab[kept & ((lab < 0) | (lab >= classes))].ravel()[:5].tolist()}")
    return lab, kept


def _hard_target(labels, kept, smoothing, classes, axis, dtype):
    """The target distribution of hard labels along ``axis``: one-hot rows mixed with the
    uniform one by ``smoothing``, zero rows for the ignored labels."""
    positions = np.arange(classes).reshape([classes if i == axis else 1
                                            for i in range(labels.ndim)])
    onehot = (positions == np.where(kept, labels, -1)).astype(dtype)
    if smoothing:
        onehot = onehot * (1.0 - smoothing) + kept * (smoothing / classes)
    return onehot.astype(dtype, copy=False)


def _log_probs(a, axis, use_softmax):
    if use_softmax:
        return log_softmax_array(a, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(a)


_KERNEL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _fused_rows(a, label, axis, ignore_index):
    """The fused loop's losses and softmax rows, or None where it does not apply: a
    C-contiguous float ``[N, C]`` over axis 1 with integer labels ``[N]`` or ``[N, 1]``.
    Returns ``(losses, labels, probs)``, losses and labels shaped ``[N, 1]``."""
    lab = label.numpy()
    if not (a.ndim == 2 and axis == 1 and a.dtype in _KERNEL_DTYPES and a.flags.c_contiguous
            and lab.dtype.kind in "iu" and np.can_cast(lab.dtype, np.int64)
            and lab.shape in ((a.shape[0],), (a.shape[0], 1))):
        return None
    labels = np.array(lab, dtype=np.int64).reshape(-1, 1)   # a copy, kept for backward
    losses = np.empty((a.shape[0], 1), a.dtype)
    probs = np.empty_like(a)
    if loops.softmax_cross_entropy(a, labels.reshape(-1), ignore_index, losses.reshape(-1),
                                   probs) >= 0:
        _hard_labels(a, label, axis, ignore_index)  # raises the error for that label
    return losses, labels, probs


def _divided(a, denominator):
    """``a / denominator``, with numpy's nan or inf and no warning where it is 0 (setting
    numpy's error state costs more than the division, so only then)."""
    if denominator:
        return a / denominator
    with np.errstate(divide="ignore", invalid="ignore"):
        return a / denominator


def _reduced(losses, denominator, reduction):
    """The (weighted) per-row ``losses`` reduced: kept, summed, or summed over ``denominator``."""
    if reduction == "none":
        return losses
    out = losses.sum()
    return _divided(out, denominator) if reduction == "mean" else out


def _reduce_rows(losses, row_weights, denominator, reduction):
    """The reduced loss of the (weighted) per-row ``losses``, and per row the factor
    d(loss)/d(row's unweighted loss): its weight, divided by ``denominator`` for the mean."""
    if reduction == "mean":
        row_weights = _divided(row_weights, denominator)
    return _reduced(losses, denominator, reduction), row_weights


def _hard_label_grad(g, input, axis, labels, kept, smoothing, row_weights, probs,
                     ignore_index, use_softmax):
    if g.ndim:                         # reduction='none': g has the label's shape
        g = reshape(g, list(row_weights.shape))
    if probs is not None and not is_grad_enabled():   # first order: the forward's softmax
        if (not smoothing and axis == 1 and probs.ndim == 2 and probs.dtype in _KERNEL_DTYPES
                and labels.dtype == np.int64):
            return _fused_grad(g, labels, row_weights, probs, ignore_index)
        probabilities = make_tensor(probs)
    elif use_softmax:
        probabilities = softmax(input, axis)
    a = input.numpy()
    target = make_tensor(_hard_target(labels, kept, smoothing, a.shape[axis], axis, a.dtype))
    factor = multiply(g, make_tensor(row_weights))
    if use_softmax:    # each kept row of the target sums to 1, and ignored rows weigh 0
        return multiply(subtract(probabilities, target), factor)
    return neg(multiply(divide(target, input), factor))


def _fused_grad(g, labels, row_weights, probs, ignore_index):
    """``(probs - onehot(labels)) * g * row_weights`` of ``[N, C]`` rows by the fused loop."""
    factors = np.ascontiguousarray((g.numpy() * row_weights).reshape(-1), dtype=probs.dtype)
    out = np.empty_like(probs)
    if loops.softmax_cross_entropy_backward(probs, np.ascontiguousarray(labels.reshape(-1)),
                                            factors, ignore_index, out) >= 0:
        raise IndexError("cross_entropy backward: a label is out of range")
    return make_tensor(out)


# Hard labels: integer classes, kept as a copy in the attributes, with the forward's
# softmax of the input (``probs``, None without softmax) for a first-order backward.
CROSS_ENTROPY = Op("cross_entropy", inputs=("input", "label"), keeps=("input",),
                   attrs=("axis", "labels", "kept", "smoothing", "row_weights", "probs",
                          "ignore_index", "use_softmax"),
                   vjp=(_hard_label_grad, None))


def _soft_row_factor(g, label, axis, class_weight, rows, reduction):
    """``g`` times d(loss)/d(each row's unweighted loss) for soft labels, written with
    ops: the row's weight (the target's mix of the class weights, which depends on the
    label), over the sum of the weights for the mean (over the row count without
    class weights)."""
    if class_weight is None:
        return multiply(g, 1.0 / rows) if reduction == "mean" else g
    weights = _soft_weights(label, axis, class_weight)
    if reduction == "mean":
        weights = divide(weights, reduce_sum(weights))
    return multiply(g, weights)


def _soft_weights(label, axis, class_weight):
    """Each row's weight: ``sum(target * class_weight)`` along ``axis``."""
    shape = [-1 if i == axis else 1 for i in range(label.ndim)]
    return reduce_sum(multiply(label, make_tensor(class_weight.reshape(shape))), axis=axis,
                      keepdim=True)


def _soft_input_grad(g, input, label, axis, class_weight, rows, reduction, use_softmax):
    factor = _soft_row_factor(g, label, axis, class_weight, rows, reduction)
    if use_softmax:
        mass = reduce_sum(label, axis=axis, keepdim=True)
        return multiply(subtract(multiply(softmax(input, axis), mass), label), factor)
    return neg(multiply(divide(label, input), factor))


def _soft_label_grad(g, input, label, axis, class_weight, rows, reduction, use_softmax):
    log_probs = log_softmax(input, axis) if use_softmax else log(input)
    grad = neg(multiply(log_probs, _soft_row_factor(g, label, axis, class_weight, rows,
                                                    reduction)))
    if class_weight is None:
        return grad
    # The label also sets each row's weight w = sum(label * W): d(w * L)/d(label) adds
    # W * L, and the mean's division by sum(w) subtracts W * (the loss) from that.
    losses = neg(reduce_sum(multiply(label, log_probs), axis=axis, keepdim=True))
    spread = losses
    weights = _soft_weights(label, axis, class_weight)
    if reduction == "mean":
        total = reduce_sum(weights)
        spread = divide(subtract(losses, divide(reduce_sum(multiply(weights, losses)), total)),
                        total)
    shape = [-1 if i == axis else 1 for i in range(label.ndim)]
    return add(grad, multiply(multiply(g, spread), make_tensor(class_weight.reshape(shape))))


# Soft labels: a distribution per sample, kept (it gets a gradient too, through the loss
# and, with class weights, through each sample's weight).
SOFT_LABEL_CROSS_ENTROPY = Op("cross_entropy", inputs=("input", "label"),
                              keeps=("input", "label"),
                              attrs=("axis", "class_weight", "rows", "reduction",
                                     "use_softmax"),
                              vjp=(_soft_input_grad, _soft_label_grad))


def _hard_label_loss(input, label, axis, class_weight, ignore_index, reduction, smoothing,
                     use_softmax):
    a = input.numpy()
    fused = _fused_rows(a, label, axis, ignore_index) if use_softmax and not smoothing else None
    if fused is not None:
        losses, labels, probs = fused
        kept = labels != ignore_index
    else:
        labels, kept = _hard_labels(a, label, axis, ignore_index)
        log_probs = _log_probs(a, axis, use_softmax)
        probs = np.exp(log_probs) if use_softmax else None   # for a first-order backward
        losses = -np.take_along_axis(log_probs, np.where(kept, labels, 0), axis)
        if smoothing:
            losses = (1.0 - smoothing) * losses - (smoothing / a.shape[axis]) * np.sum(
                log_probs, axis=axis, keepdims=True)
        losses = np.where(kept, losses, 0).astype(a.dtype, copy=False)
    if class_weight is None:                     # ignored rows have a loss of 0 already
        out, row_weights = _reduce_rows(losses, kept.astype(a.dtype),
                                        int(np.count_nonzero(kept)), reduction)
    else:
        weights = np.where(kept, class_weight[np.where(kept, labels, 0)], 0).astype(a.dtype)
        out, row_weights = _reduce_rows(losses * weights, weights, weights.sum(), reduction)
    if reduction == "none":
        out = out.reshape(label.shape)           # one loss per label, in its shape (as Paddle)
    return make_output(CROSS_ENTROPY, np.asarray(out, dtype=a.dtype), (input, label),
                       (axis, labels, kept, smoothing, row_weights, probs, ignore_index,
                        use_softmax))


def _soft_label_loss(input, label, axis, class_weight, reduction, smoothing, use_softmax):
    a = input.numpy()
    if label.shape != input.shape:
        raise ValueError(f"cross_entropy(): soft labels must have the input's shape "
                         f"{input.shape}, got {label.shape}")
    target = label if label.numpy().dtype == a.dtype else cast(label, a.dtype)
    if smoothing:
        target = add(multiply(target, 1.0 - smoothing), smoothing / a.shape[axis])
    t = target.numpy()
    with np.errstate(invalid="ignore"):
        losses = -np.sum(t * _log_probs(a, axis, use_softmax), axis=axis, keepdims=True)
    if class_weight is None:
        out = _reduced(losses, losses.size, reduction)
    else:
        shape = [-1 if i == axis else 1 for i in range(a.ndim)]
        weights = np.sum(t * class_weight.reshape(shape), axis=axis, keepdims=True)
        out = _reduced(losses * weights, weights.sum(), reduction)
    return make_output(SOFT_LABEL_CROSS_ENTROPY, np.asarray(out, dtype=a.dtype),
                       (input, target), (axis, class_weight, losses.size, reduction,
                                         use_softmax))


@op
def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Softmax cross entropy between logits ``input`` and ``label``, as one graph node.

    Hard labels are integer class indices shaped like ``input`` without
    ``axis`` (``[N]``) or with it of size 1 (``[N, 1]``); samples whose label
    equals ``ignore_index`` count for nothing. Soft labels
    (``soft_label=True``) are probabilities shaped like ``input``.
    ``weight`` gives each class a factor; the mean then divides by the sum
    of the weights used. With ``reduction='none'`` hard labels give one loss
    per label, in the label's shape (``[N]`` for labels ``[N]``, ``[N, 1]``
    for ``[N, 1]``), and soft labels keep ``axis`` with size 1, as in Paddle.
    ``use_softmax=False`` takes ``input`` as probabilities already.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> logits = pylayer.to_tensor([[2.0, 0.0], [0.0, 2.0]])
    >>> labels = pylayer.to_tensor([0, 0])
    >>> F.cross_entropy(logits, labels, reduction='none').numpy().round(4)
    array([0.1269, 2.1269], dtype=float32)
    >>> round(F.cross_entropy(logits, labels).item(), 4)
    1.1269
    """
    weight = check_cross_entropy_arguments(weight, ignore_index, reduction, axis,
                                           label_smoothing, "cross_entropy")
    input = float_tensor(input, "cross_entropy", "input")
    label = as_tensor_arg(label, "cross_entropy", "label", 2)
    if input.ndim == 0:
        raise ValueError("cross_entropy(): argument 'input' must have a class axis")
    axis = check_axis(axis, input.ndim, "cross_entropy")
    class_weight = None
    if weight is not None:
        class_weight = weight.numpy().astype(input.numpy().dtype)
        if class_weight.shape != (input.shape[axis],):
            raise ValueError(f"cross_entropy(): 'weight' must have one entry per class "
                             f"({input.shape[axis]}), got shape {list(class_weight.shape)}")
    smoothing = float(label_smoothing)
    use_softmax = bool(use_softmax)
    if soft_label:
        return _soft_label_loss(input, label, axis, class_weight, reduction, smoothing,
                                use_softmax)
    return _hard_label_loss(input, label, axis, class_weight, int(ignore_index), reduction,
                            smoothing, use_softmax)
