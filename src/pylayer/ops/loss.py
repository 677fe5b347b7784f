"""Losses: ``mse_loss``, ``cross_entropy``, ``binary_cross_entropy`` (with logits too),
``nll_loss``, ``l1_loss``, ``smooth_l1_loss`` and ``kl_div`` (``pylayer.nn.functional``
makes them public under its name). All but ``cross_entropy`` and
``binary_cross_entropy`` are compositions of recorded ops.

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

from pylayer._core.graph import Op, make_output, needs_grad
from pylayer._core.tensor import Tensor, is_grad_enabled, make_tensor
from pylayer._kernels import loops
from pylayer._kernels.conv import pooled_empty
from pylayer.ops._arguments import check_axis, check_count, check_int, check_number, float_tensor
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.creation import get_rng
from pylayer.ops.reduction import mean, sum as reduce_sum
from pylayer.ops.shape import cast, reshape, unsqueeze
from pylayer.ops.activation import log_softmax, log_softmax_array, relu, sigmoid, softmax
from pylayer.ops.arithmetic import add, divide, maximum, minimum, multiply, neg, subtract
from pylayer.ops.elementwise import logaddexp
from pylayer.ops.dispatch import op
from pylayer.ops.linalg import matmul
from pylayer.ops.math import abs as _abs, exp, log, log1p, pow as _pow, sqrt, square, where

__all__ = ["mse_loss", "cross_entropy", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "nll_loss", "l1_loss", "smooth_l1_loss",
           "kl_div", "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
           "soft_margin_loss", "square_error_cost", "log_loss", "multi_label_soft_margin_loss",
           "poisson_nll_loss", "gaussian_nll_loss", "sigmoid_focal_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "multi_margin_loss", "label_smooth",
           "dice_loss", "npair_loss", "multi_label_margin_loss"]

_REDUCTIONS = ("mean", "sum", "none")


def check_reduction(reduction, fn, allowed=_REDUCTIONS):
    if reduction not in allowed:
        raise ValueError(f"{fn}(): argument 'reduction' must be one of {allowed}, "
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
    probs = pooled_empty(a.shape, a.dtype)
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
    out = pooled_empty(probs.shape, probs.dtype)
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


# ------------------------------------------------- the other losses
def _reduce(loss, reduction):
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return reduce_sum(loss)
    return loss


def _class_weights(weight, classes, fn):
    if weight is not None and weight.shape != [classes]:
        raise ValueError(f"{fn}(): argument 'weight' must have one entry per class "
                         f"([{classes}]), got shape {weight.shape}")
    return weight


def _factor(value, fn, arg, position, like):
    """An optional weight Tensor, in ``like``'s dtype."""
    if value is None:
        return None
    value = as_tensor_arg(value, fn, arg, position)
    if value.numpy().dtype.kind not in "iuf":
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a real "
                        f"Tensor, got dtype {value.dtype.name}")
    return value if value.numpy().dtype == like.numpy().dtype else cast(value, like.dtype)


def _pair(input, label, fn, first="input", second="label"):
    input = float_tensor(input, fn, first)
    label = float_tensor(label, fn, second, 2)
    if label.numpy().dtype != input.numpy().dtype:
        label = cast(label, input.dtype)
    return input, label


def _bce_grad(g, input, label):
    x = input
    denominator = maximum(multiply(x, subtract(1.0, x)), make_tensor(
        np.array(1e-12, x.numpy().dtype)))
    return multiply(g, divide(subtract(x, label), denominator))


def _bce_label_grad(g, input, label):
    floor = make_tensor(np.array(-100, input.numpy().dtype))
    with np.errstate(divide="ignore"):
        logs = subtract(maximum(log1p(neg(input)), floor), maximum(log(input), floor))
    return multiply(g, logs)


# Elementwise binary cross entropy with Paddle's clamping: each log at least -100, and
# in the gradient x * (1 - x) at least 1e-12.
BINARY_CROSS_ENTROPY = Op("binary_cross_entropy", inputs=("input", "label"),
                          keeps=("input", "label"), vjp=(_bce_grad, _bce_label_grad))


@op
def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    """Binary cross entropy between probabilities ``input`` and targets ``label``.

    ``-(label * log(input) + (1 - label) * log(1 - input))`` with each log
    clamped at -100, as in Paddle, so an input of exactly 0 or 1 costs at
    most 100; the gradient divides by ``input * (1 - input)`` kept at least
    ``1e-12``. ``input`` must lie in ``[0, 1]`` and have the label's shape;
    ``weight`` multiplies each loss (broadcasting).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> p = pylayer.to_tensor([0.5, 0.0])
    >>> F.binary_cross_entropy(p, pylayer.to_tensor([1.0, 1.0]), reduction='none').numpy()
    array([  0.6931472, 100.       ], dtype=float32)
    """
    check_reduction(reduction, "binary_cross_entropy")
    input, label = _pair(input, label, "binary_cross_entropy")
    weight = _factor(weight, "binary_cross_entropy", "weight", 3, input)
    if input.shape != label.shape:
        raise ValueError(f"binary_cross_entropy(): 'input' of shape {input.shape} and "
                         f"'label' of shape {label.shape} must have the same shape")
    a, y = input.numpy(), label.numpy()
    if ((a < 0) | (a > 1)).any():
        raise ValueError("binary_cross_entropy(): argument 'input' must lie in [0, 1], got "
                         f"{a[(a < 0) | (a > 1)].ravel()[:5].tolist()}")
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = -(y * np.maximum(np.log(a), -100) + (1 - y) * np.maximum(np.log1p(-a), -100))
    loss = make_output(BINARY_CROSS_ENTROPY, loss.astype(a.dtype, copy=False),
                       (input, label), ())
    if weight is not None:
        loss = multiply(loss, weight)
    return _reduce(loss, reduction)


@op
def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    """Binary cross entropy of ``sigmoid(logit)`` against ``label``, computed stably.

    ``(1 - label) * logit + (1 + (pos_weight - 1) * label) * log(1 + exp(-logit))``,
    times ``weight``: large logits cost their size rather than overflowing.
    ``pos_weight`` (one factor per class, broadcasting over the last axis)
    weighs the positive term.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> logit = pylayer.to_tensor([0.0, 100.0])
    >>> F.binary_cross_entropy_with_logits(logit, pylayer.to_tensor([1.0, 0.0]),
    ...                                    reduction='none').numpy()
    array([  0.6931472, 100.       ], dtype=float32)
    """
    fn = "binary_cross_entropy_with_logits"
    check_reduction(reduction, fn)
    logit, label = _pair(logit, label, fn, "logit")
    weight = _factor(weight, fn, "weight", 3, logit)
    pos_weight = _factor(pos_weight, fn, "pos_weight", 5, logit)
    if logit.shape != label.shape:
        raise ValueError(f"{fn}(): 'logit' of shape {logit.shape} and 'label' of shape "
                         f"{label.shape} must have the same shape")
    softplus_neg = logaddexp(make_tensor(np.zeros((), logit.numpy().dtype)), neg(logit))
    if pos_weight is not None:
        softplus_neg = multiply(add(multiply(subtract(pos_weight, 1.0), label), 1.0),
                                softplus_neg)
    loss = add(multiply(subtract(1.0, label), logit), softplus_neg)
    if weight is not None:
        loss = multiply(loss, weight)
    return _reduce(loss, reduction)


@op
def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):
    """Negative log likelihood: ``-input[n, label[n], ...]`` for log-probabilities ``input``.

    ``input`` is ``[N, C]`` or ``[N, C, d1, ...]`` with classes on axis 1;
    ``label`` holds integer classes shaped ``[N]`` or ``[N, d1, ...]``.
    ``weight`` gives each class a factor; labels equal to ``ignore_index``
    count for nothing, and the mean divides by the sum of the weights used.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> logp = pylayer.log(pylayer.to_tensor([[0.25, 0.75], [0.5, 0.5]]))
    >>> round(F.nll_loss(logp, pylayer.to_tensor([1, 0])).item(), 4)
    0.4904
    """
    fn = "nll_loss"
    check_reduction(reduction, fn)
    ignore_index = check_int(ignore_index, fn, "ignore_index")
    input = float_tensor(input, fn, "input")
    label = as_tensor_arg(label, fn, "label", 2)
    weight = _factor(weight, fn, "weight", 3, input)
    if input.ndim < 2:
        raise ValueError(f"{fn}(): argument 'input' must have 2 or more dimensions "
                         f"([N, C, ...]), got shape {input.shape}")
    lab = np.array(label.numpy(), copy=True)
    if lab.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'label' (position 2) must be an integer Tensor, "
                        f"got dtype {label.dtype.name}")
    shape = input.shape[:1] + input.shape[2:]
    if input.ndim == 2 and list(lab.shape) == [input.shape[0], 1]:
        lab = lab.reshape(-1)
    if list(lab.shape) != shape:
        raise ValueError(f"{fn}(): argument 'label' must have shape {shape} for 'input' of "
                         f"shape {input.shape}, got {label.shape}")
    classes = input.shape[1]
    _class_weights(weight, classes, fn)
    kept = lab != ignore_index
    wrong = kept & ((lab < 0) | (lab >= classes))
    if wrong.any():
        raise IndexError(f"{fn}(): labels must lie in [0, {classes}) (or equal "
                         f"ignore_index={ignore_index}), got {lab[wrong].ravel()[:5].tolist()}")
    dtype = input.numpy().dtype
    safe = np.where(kept, lab, 0)
    w = np.ones(classes, dtype) if weight is None else weight.numpy()
    row_weights = np.where(kept, w[safe], 0).astype(dtype)
    positions = np.arange(classes).reshape([1, classes] + [1] * (input.ndim - 2))
    picks = (positions == np.expand_dims(safe, 1)) * -np.expand_dims(row_weights, 1)
    loss = reduce_sum(multiply(input, make_tensor(picks.astype(dtype))), axis=1)
    if reduction == "none":
        return loss
    total = reduce_sum(loss)
    if reduction == "sum":
        return total
    return divide(total, make_tensor(np.asarray(row_weights.sum(), dtype)))


@op
def l1_loss(input, label, reduction="mean", name=None):
    """Absolute error ``|input - label|``, averaged (default), summed or kept.

    ``input`` and ``label`` broadcast against each other, as in Paddle.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.l1_loss(pylayer.to_tensor([1.0, -3.0]), pylayer.to_tensor([0.0, 0.0])).numpy()
    array(2., dtype=float32)
    """
    check_reduction(reduction, "l1_loss")
    input, label = _pair(input, label, "l1_loss")
    return _reduce(_abs(subtract(input, label)), reduction)


@op
def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True, name=None):
    """Huber loss of ``d = input - label`` (the default), or smooth L1 loss.

    With ``is_huber=True``: ``0.5 * d ** 2`` where ``|d| < delta``, else
    ``delta * (|d| - 0.5 * delta)``. With ``is_huber=False``: ``0.5 * d ** 2 / delta``
    where ``|d| < delta``, else ``|d| - 0.5 * delta``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([0.5, 3.0])
    >>> F.smooth_l1_loss(x, pylayer.to_tensor([0.0, 0.0]), reduction='none').numpy()
    array([0.125, 2.5  ], dtype=float32)
    """
    fn = "smooth_l1_loss"
    check_reduction(reduction, fn)
    delta = check_number(delta, fn, "delta")
    if not delta > 0:
        raise ValueError(f"{fn}(): argument 'delta' must be positive, got {delta}")
    input, label = _pair(input, label, fn)
    d = subtract(input, label)
    size = _abs(d)
    small = multiply(square(d), 0.5 if is_huber else 0.5 / delta)
    large = subtract(size, 0.5 * delta)
    if is_huber:
        large = multiply(large, delta)
    inside = make_tensor(size.numpy() < delta)
    return _reduce(where(inside, small, large), reduction)


@op
def kl_div(input, label, reduction="mean", log_target=False, name=None):
    """Kullback-Leibler divergence terms ``label * (log(label) - input)``.

    ``input`` holds log-probabilities; ``label`` probabilities (terms where
    it is not positive are 0, as in Paddle) or, with ``log_target=True``,
    log-probabilities (``exp(label) * (label - input)``). ``'batchmean'``
    divides the sum by the size of the first axis; ``'mean'`` averages
    every term.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> logp = pylayer.log(pylayer.to_tensor([[0.5, 0.5]]))
    >>> round(F.kl_div(logp, pylayer.to_tensor([[0.25, 0.75]]), 'batchmean').item(), 4)
    0.1308
    """
    fn = "kl_div"
    check_reduction(reduction, fn, _REDUCTIONS + ("batchmean",))
    input, label = _pair(input, label, fn)
    if log_target:
        loss = multiply(exp(label), subtract(label, input))
    else:
        positive = make_tensor(label.numpy() > 0)
        one = make_tensor(np.ones((), input.numpy().dtype))
        terms = multiply(label, subtract(log(where(positive, label, one)), input))
        loss = where(positive, terms, make_tensor(np.zeros((), input.numpy().dtype)))
    if reduction == "batchmean":
        total = reduce_sum(loss)
        return divide(total, float(loss.shape[0])) if loss.ndim else total
    return _reduce(loss, reduction)


# ------------------------------------------------ margins and embeddings
def _softplus(x):
    """``log(1 + exp(x))``, stably."""
    return logaddexp(make_tensor(np.zeros((), x.numpy().dtype)), x)


def _mask(condition, like):
    return make_tensor(np.asarray(condition, like.numpy().dtype))


@op
def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):
    """Ranking loss ``max(0, -label * (input - other) + margin)``.

    ``label`` is 1 where ``input`` should rank higher than ``other`` and -1
    where lower; the three broadcast against each other.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.margin_ranking_loss(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor([2.0, 1.0]),
    ...                       pylayer.to_tensor([1.0, 1.0]), reduction='none').numpy()
    array([1., 0.], dtype=float32)
    """
    fn = "margin_ranking_loss"
    check_reduction(reduction, fn)
    margin = check_number(margin, fn, "margin")
    input, other = _pair(input, other, fn, second="other")
    label = float_tensor(label, fn, "label", 3)
    if label.numpy().dtype != input.numpy().dtype:
        label = cast(label, input.dtype)
    return _reduce(relu(add(multiply(neg(label), subtract(input, other)), margin)), reduction)


@op
def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):
    """Hinge embedding loss: ``input`` where ``label`` is 1, ``max(0, margin - input)``
    where it is -1 (and 0 for any other label, as in Paddle).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.hinge_embedding_loss(pylayer.to_tensor([0.3, -1.2]), pylayer.to_tensor([1.0, -1.0]),
    ...                        reduction='none').numpy()
    array([0.3, 2.2], dtype=float32)
    """
    fn = "hinge_embedding_loss"
    check_reduction(reduction, fn)
    margin = check_number(margin, fn, "margin")
    input = float_tensor(input, fn, "input")
    label = as_tensor_arg(label, fn, "label", 2)
    lab = label.numpy()
    if lab.dtype.kind not in "iuf":
        raise TypeError(f"{fn}(): argument 'label' (position 2) must be a real Tensor, "
                        f"got dtype {label.dtype.name}")
    loss = add(multiply(input, _mask(lab == 1, input)),
               multiply(relu(subtract(margin, input)), _mask(lab == -1, input)))
    return _reduce(loss, reduction)


@op
def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """Cosine embedding loss of rows ``input1`` and ``input2`` (``[N, D]`` or ``[D]``):
    ``1 - cos`` where ``label`` is 1, ``max(0, cos - margin)`` where it is -1.

    The cosine divides by ``sqrt((|input1|^2 + 1e-11) * (|input2|^2 + 1e-11))``,
    so a zero row has cosine 0.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> a = pylayer.to_tensor([[1.0, 2.0]])
    >>> b = pylayer.to_tensor([[2.0, 1.0]])
    >>> round(F.cosine_embedding_loss(a, b, pylayer.to_tensor([1])).item(), 4)
    0.2
    """
    fn = "cosine_embedding_loss"
    check_reduction(reduction, fn)
    margin = check_number(margin, fn, "margin")
    input1, input2 = _pair(input1, input2, fn, "input1", "input2")
    label = as_tensor_arg(label, fn, "label", 3)
    if input1.shape != input2.shape or input1.ndim not in (1, 2):
        raise ValueError(f"{fn}(): 'input1' and 'input2' must have one shape [N, D] or [D], "
                         f"got {input1.shape} and {input2.shape}")
    rows = input1.shape[0] if input1.ndim == 2 else 1
    lab = label.numpy()
    if lab.dtype.kind not in "iuf" or lab.size != rows or lab.ndim > 1:
        raise ValueError(f"{fn}(): argument 'label' must hold one real label per row "
                         f"([{rows}]), got shape {label.shape} of {label.dtype.name}")
    products = reduce_sum(multiply(input1, input2), axis=-1)
    squares1 = add(reduce_sum(square(input1), axis=-1), 1e-11)
    squares2 = add(reduce_sum(square(input2), axis=-1), 1e-11)
    cos = divide(products, sqrt(multiply(squares1, squares2)))
    lab = lab.reshape(cos.shape)
    loss = add(multiply(subtract(1.0, cos), _mask(lab == 1, cos)),
               multiply(relu(subtract(cos, margin)), _mask(lab == -1, cos)))
    return _reduce(loss, reduction)


@op
def soft_margin_loss(input, label, reduction="mean", name=None):
    """Two-class logistic loss ``log(1 + exp(-label * input))`` for labels 1 and -1.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> round(F.soft_margin_loss(pylayer.to_tensor([0.0]), pylayer.to_tensor([1.0])).item(), 4)
    0.6931
    """
    check_reduction(reduction, "soft_margin_loss")
    input, label = _pair(input, label, "soft_margin_loss")
    return _reduce(_softplus(neg(multiply(label, input))), reduction)


@op
def square_error_cost(input, label):
    """The elementwise squared error ``(input - label) ** 2``, not reduced.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.square_error_cost(pylayer.to_tensor([1.0, 3.0]), pylayer.to_tensor([0.0, 1.0])).numpy()
    array([1., 4.], dtype=float32)
    """
    input, label = _pair(input, label, "square_error_cost")
    return square(subtract(input, label))


@op
def log_loss(input, label, epsilon=0.0001, name=None):
    """Negative log likelihood of probabilities ``input``, elementwise:
    ``-label * log(input + epsilon) - (1 - label) * log(1 - input + epsilon)``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.log_loss(pylayer.to_tensor([[0.5]]), pylayer.to_tensor([[1.0]])).numpy().round(4)
    array([[0.6929]], dtype=float32)
    """
    epsilon = check_number(epsilon, "log_loss", "epsilon")
    input, label = _pair(input, label, "log_loss")
    return subtract(neg(multiply(label, log(add(input, epsilon)))),
                    multiply(subtract(1.0, label), log(add(subtract(1.0, input), epsilon))))


@op
def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):
    """Multi-label logistic loss of ``input`` ``[N, C]`` against 0/1 ``label``: per sample
    the mean over the classes of ``-(y log sigmoid(x) + (1 - y) log sigmoid(-x))``, times
    ``weight``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[0.0, 0.0]])
    >>> round(F.multi_label_soft_margin_loss(x, pylayer.to_tensor([[1.0, 0.0]])).item(), 4)
    0.6931
    """
    fn = "multi_label_soft_margin_loss"
    check_reduction(reduction, fn)
    input, label = _pair(input, label, fn)
    weight = _factor(weight, fn, "weight", 3, input)
    if input.shape != label.shape:
        raise ValueError(f"{fn}(): 'input' of shape {input.shape} and 'label' of shape "
                         f"{label.shape} must have the same shape")
    loss = add(multiply(label, _softplus(neg(input))),
               multiply(subtract(1.0, label), _softplus(input)))
    if weight is not None:
        loss = multiply(loss, weight)
    return _reduce(mean(loss, axis=-1), reduction)


@op
def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-08,
                     reduction="mean", name=None):
    """Negative log likelihood of a Poisson distribution with rate ``exp(input)``
    (``log_input=True``) or ``input``.

    ``exp(input) - label * input``, or ``input - label * log(input + epsilon)``;
    ``full=True`` adds Stirling's ``label * log(label) - label + 0.5 * log(2 pi label)``
    where ``label > 1``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> round(F.poisson_nll_loss(pylayer.to_tensor([0.0]), pylayer.to_tensor([1.0])).item(), 4)
    1.0
    """
    fn = "poisson_nll_loss"
    check_reduction(reduction, fn)
    epsilon = check_number(epsilon, fn, "epsilon")
    if not epsilon > 0:
        raise ValueError(f"{fn}(): argument 'epsilon' must be positive, got {epsilon}")
    input, label = _pair(input, label, fn)
    if log_input:
        loss = subtract(exp(input), multiply(label, input))
    else:
        loss = subtract(input, multiply(label, log(add(input, epsilon))))
    if full:
        y = label.numpy()
        safe = np.where(y > 1, y, 1)
        stirling = np.where(y > 1, safe * np.log(safe) - safe + 0.5 * np.log(2 * np.pi * safe),
                            0)
        loss = add(loss, make_tensor(stirling.astype(y.dtype, copy=False)))
    return _reduce(loss, reduction)


@op
def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-06, reduction="mean",
                      name=None):
    """Negative log likelihood of ``label`` under normal distributions of mean ``input``
    and ``variance``: ``0.5 * (log(v) + (input - label) ** 2 / v)``, ``v`` the variance
    raised to at least ``epsilon``; ``full=True`` adds ``0.5 * log(2 pi)``.

    ``variance`` has the input's shape, or lacks (or has of size 1) its last axis.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([0.5, 1.0])
    >>> F.gaussian_nll_loss(x, pylayer.to_tensor([1.0, 0.0]), pylayer.to_tensor([1.0, 1.0]),
    ...                     reduction='none').numpy()
    array([0.125, 0.5  ], dtype=float32)
    """
    fn = "gaussian_nll_loss"
    check_reduction(reduction, fn)
    epsilon = check_number(epsilon, fn, "epsilon")
    input, label = _pair(input, label, fn)
    variance = float_tensor(variance, fn, "variance", 3)
    if variance.numpy().dtype != input.numpy().dtype:
        variance = cast(variance, input.dtype)
    if input.ndim and variance.shape == input.shape[:-1]:
        variance = unsqueeze(variance, -1)
    try:
        np.broadcast_shapes(tuple(input.shape), tuple(variance.shape))
    except ValueError:
        raise ValueError(f"{fn}(): 'variance' of shape {variance.shape} does not fit 'input' "
                         f"of shape {input.shape}") from None
    v = variance.numpy()
    if (v < 0).any():
        raise ValueError(f"{fn}(): argument 'variance' must not be negative, got "
                         f"{v[v < 0].ravel()[:5].tolist()}")
    # the floor moves the value only: the gradient passes to the variance unchanged
    variance = add(variance, make_tensor(np.maximum(v, epsilon) - v))
    loss = multiply(add(log(variance), divide(square(subtract(input, label)), variance)), 0.5)
    if full:
        loss = add(loss, 0.5 * np.log(2 * np.pi))
    return _reduce(loss, reduction)


@op
def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum",
                       name=None):
    """Focal loss: the binary cross entropy of ``sigmoid(logit)`` weighed by
    ``alpha_t * (1 - p_t) ** gamma``, divided by ``normalizer`` (a one-element
    Tensor) when given, and summed by default.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> loss = F.sigmoid_focal_loss(pylayer.to_tensor([0.0]), pylayer.to_tensor([1.0]))
    >>> round(loss.item(), 4)
    0.0433
    """
    fn = "sigmoid_focal_loss"
    check_reduction(reduction, fn)
    alpha = check_number(alpha, fn, "alpha")
    gamma = check_number(gamma, fn, "gamma")
    logit, label = _pair(logit, label, fn, "logit")
    if normalizer is not None:
        normalizer = _factor(normalizer, fn, "normalizer", 3, logit)
        if normalizer.size != 1:
            raise ValueError(f"{fn}(): argument 'normalizer' must have one element, got "
                             f"shape {normalizer.shape}")
    p = sigmoid(logit)
    p_t = add(multiply(p, label), multiply(subtract(1.0, p), subtract(1.0, label)))
    alpha_t = add(multiply(label, alpha), multiply(subtract(1.0, label), 1.0 - alpha))
    ce = binary_cross_entropy_with_logits(logit, label, reduction="none")
    loss = multiply(multiply(ce, alpha_t), _pow(subtract(1.0, p_t), gamma))
    if normalizer is not None:
        loss = divide(loss, reshape(normalizer, []))
    return _reduce(loss, reduction)


def _distance(a, b, p, epsilon):
    """The ``p``-norm of ``a - b + epsilon`` along the last axis."""
    d = add(subtract(a, b), epsilon)
    if p == 2:
        return sqrt(reduce_sum(square(d), axis=-1))
    return _pow(reduce_sum(_pow(_abs(d), p), axis=-1), 1.0 / p)


def _triplet(fn, input, positive, negative, distance, margin, swap, reduction):
    check_reduction(reduction, fn)
    margin = check_number(margin, fn, "margin")
    input = float_tensor(input, fn, "input")
    positive = float_tensor(positive, fn, "positive", 2)
    negative = float_tensor(negative, fn, "negative", 3)
    if not (input.shape == positive.shape == negative.shape):
        raise ValueError(f"{fn}(): 'input', 'positive' and 'negative' must have one shape, "
                         f"got {input.shape}, {positive.shape} and {negative.shape}")
    to_positive = distance(input, positive)
    to_negative = distance(input, negative)
    if swap:
        to_negative = minimum(to_negative, distance(positive, negative))
    return _reduce(relu(add(subtract(to_positive, to_negative), margin)), reduction)


@op
def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-06, swap=False,
                        reduction="mean", name=None):
    """Triplet loss ``max(0, d(input, positive) - d(input, negative) + margin)`` with
    ``d(a, b)`` the ``p``-norm of ``a - b + epsilon`` along the last axis.

    ``swap=True`` uses ``min(d(input, negative), d(positive, negative))`` as the
    negative distance.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> a = pylayer.to_tensor([[0.0, 1.0]])
    >>> round(F.triplet_margin_loss(a, pylayer.to_tensor([[0.0, 0.0]]),
    ...                             pylayer.to_tensor([[0.0, 1.2]])).item(), 4)
    1.8
    """
    fn = "triplet_margin_loss"
    p = check_number(p, fn, "p")
    if not p > 0:
        raise ValueError(f"{fn}(): argument 'p' must be positive, got {p}")
    epsilon = check_number(epsilon, fn, "epsilon")
    return _triplet(fn, input, positive, negative, lambda a, b: _distance(a, b, p, epsilon),
                    margin, swap, reduction)


@op
def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean", name=None):
    """Triplet loss with a given ``distance_function(a, b)`` (by default the
    Euclidean distance of ``a - b + 1e-6`` along the last axis).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> a = pylayer.to_tensor([[0.0, 1.0]])
    >>> far = lambda x, y: pylayer.abs(x - y).sum(-1)
    >>> F.triplet_margin_with_distance_loss(a, pylayer.to_tensor([[0.0, 0.0]]),
    ...     pylayer.to_tensor([[0.0, 1.5]]), distance_function=far).item()
    1.5
    """
    fn = "triplet_margin_with_distance_loss"
    if distance_function is None:
        distance = lambda a, b: _distance(a, b, 2, 1e-6)  # noqa: E731
    elif callable(distance_function):
        distance = distance_function
    else:
        raise TypeError(f"{fn}(): argument 'distance_function' must be callable or None, got "
                        f"{type(distance_function).__name__}")
    return _triplet(fn, input, positive, negative, distance, margin, swap, reduction)


@op
def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean", name=None):
    """Multi-class hinge loss of ``input`` ``[N, C]`` at classes ``label`` ``[N]``: per
    sample ``sum over j != y of max(0, margin - x[y] + x[j]) ** p / C``, times
    ``weight[y]``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[0.1, 0.2, 0.9]])
    >>> round(F.multi_margin_loss(x, pylayer.to_tensor([2])).item(), 4)
    0.1667
    """
    fn = "multi_margin_loss"
    check_reduction(reduction, fn)
    p = check_int(p, fn, "p", minimum=1)
    margin = check_number(margin, fn, "margin")
    input = float_tensor(input, fn, "input")
    label = as_tensor_arg(label, fn, "label", 2)
    weight = _factor(weight, fn, "weight", 5, input)
    lab = label.numpy()
    if input.ndim != 2:
        raise ValueError(f"{fn}(): argument 'input' must be [N, C], got shape {input.shape}")
    if lab.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'label' (position 2) must be an integer Tensor, "
                        f"got dtype {label.dtype.name}")
    lab = lab.reshape(-1)
    classes = input.shape[1]
    _class_weights(weight, classes, fn)
    if lab.shape[0] != input.shape[0]:
        raise ValueError(f"{fn}(): argument 'label' must have one class per row "
                         f"([{input.shape[0]}]), got shape {label.shape}")
    if ((lab < 0) | (lab >= classes)).any():
        raise IndexError(f"{fn}(): labels must lie in [0, {classes}), got "
                         f"{lab[(lab < 0) | (lab >= classes)][:5].tolist()}")
    onehot = np.arange(classes) == lab[:, None]
    picked = reduce_sum(multiply(input, _mask(onehot, input)), axis=1, keepdim=True)
    terms = relu(add(subtract(input, picked), margin))
    if p != 1:
        terms = _pow(terms, float(p))
    loss = divide(reduce_sum(multiply(terms, _mask(~onehot, input)), axis=1), float(classes))
    if weight is not None:
        loss = multiply(loss, make_tensor(weight.numpy()[lab]))
    return _reduce(loss, reduction)


@op
def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    """Smoothed labels ``(1 - epsilon) * label + epsilon * prior``; the prior is uniform
    over the last axis unless ``prior_dist`` is given.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.label_smooth(pylayer.to_tensor([[0.0, 1.0]]), epsilon=0.2).numpy().round(4)
    array([[0.1, 0.9]], dtype=float32)
    """
    fn = "label_smooth"
    epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0, maximum=1.0)
    label = float_tensor(label, fn, "label")
    if label.ndim == 0:
        raise ValueError(f"{fn}(): argument 'label' must have a class axis")
    smoothed = multiply(label, 1.0 - epsilon)
    if prior_dist is None:
        return add(smoothed, epsilon / label.shape[-1])
    prior = float_tensor(prior_dist, fn, "prior_dist", 2)
    if prior.numpy().dtype != label.numpy().dtype:
        prior = cast(prior, label.dtype)
    return add(smoothed, multiply(prior, epsilon))


@op
def dice_loss(input, label, epsilon=1e-05, name=None):
    """Dice loss of probabilities ``input`` ``[N, ..., C]`` against integer classes
    ``label`` ``[N, ..., 1]``: per sample ``1 - 2 |X Y| / (|X| + |Y| + epsilon)``,
    averaged over the samples.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> probs = pylayer.to_tensor([[[0.2, 0.8], [0.6, 0.4]]])
    >>> round(F.dice_loss(probs, pylayer.to_tensor([[[1], [0]]])).item(), 4)
    0.3
    """
    fn = "dice_loss"
    epsilon = check_number(epsilon, fn, "epsilon")
    input = float_tensor(input, fn, "input")
    label = as_tensor_arg(label, fn, "label", 2)
    lab = label.numpy()
    if lab.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'label' (position 2) must be an integer Tensor, "
                        f"got dtype {label.dtype.name}")
    if input.ndim < 2 or list(lab.shape) != input.shape[:-1] + [1]:
        raise ValueError(f"{fn}(): argument 'label' must have shape {input.shape[:-1] + [1]} "
                         f"for 'input' of shape {input.shape}, got {label.shape}")
    classes = input.shape[-1]
    if ((lab < 0) | (lab >= classes)).any():
        raise IndexError(f"{fn}(): labels must lie in [0, {classes}), got "
                         f"{lab[(lab < 0) | (lab >= classes)].ravel()[:5].tolist()}")
    onehot = _mask(np.arange(classes) == lab, input)
    axes = list(range(1, input.ndim))
    inter = reduce_sum(multiply(input, onehot), axis=axes)
    total = add(reduce_sum(input, axis=axes), reduce_sum(onehot, axis=axes))
    return mean(subtract(1.0, divide(multiply(inter, 2.0), add(total, epsilon))))


@op
def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """N-pair loss: softmax cross entropy of the similarities ``anchor @ positive.T``
    against the targets spread evenly over the rows of equal label, plus
    ``l2_reg * 0.25 *`` the mean squared norms of ``anchor`` and ``positive``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> a = pylayer.to_tensor([[1.0, 0.0], [0.0, 1.0]])
    >>> round(F.npair_loss(a, a, pylayer.to_tensor([0.0, 1.0]), l2_reg=0.0).item(), 4)
    0.3133
    """
    fn = "npair_loss"
    l2_reg = check_number(l2_reg, fn, "l2_reg")
    anchor = float_tensor(anchor, fn, "anchor")
    positive = float_tensor(positive, fn, "positive", 2)
    labels = as_tensor_arg(labels, fn, "labels", 3)
    if anchor.ndim != 2 or anchor.shape != positive.shape:
        raise ValueError(f"{fn}(): 'anchor' and 'positive' must have one shape [N, D], got "
                         f"{anchor.shape} and {positive.shape}")
    lab = labels.numpy().reshape(-1)
    if lab.shape[0] != anchor.shape[0]:
        raise ValueError(f"{fn}(): argument 'labels' must hold one label per row "
                         f"([{anchor.shape[0]}]), got shape {labels.shape}")
    same = (lab[:, None] == lab[None, :]).astype(anchor.numpy().dtype)
    targets = same / same.sum(axis=1, keepdims=True)
    l2 = add(mean(reduce_sum(square(anchor), axis=1)), mean(reduce_sum(square(positive), axis=1)))
    similarity = matmul(anchor, positive, transpose_y=True)
    rows = neg(reduce_sum(multiply(log_softmax(similarity, -1), make_tensor(targets)), axis=1,
                          keepdim=True))
    cross = mean(reduce_sum(multiply(rows, make_tensor(targets)), axis=0))
    return add(multiply(l2, 0.25 * l2_reg), cross)


@op
def multi_label_margin_loss(input, label, reduction="mean", name=None):
    """Multi-label hinge loss of ``input`` ``[N, C]``: each row of ``label`` lists its
    target classes, ended by the first -1; per sample the sum over targets ``j`` and
    other classes ``i`` of ``max(0, 1 - (x[j] - x[i]))``, divided by ``C``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[0.1, 0.2, 0.4, 0.8]])
    >>> round(F.multi_label_margin_loss(x, pylayer.to_tensor([[3, 0, -1, 1]])).item(), 4)
    0.85
    """
    fn = "multi_label_margin_loss"
    check_reduction(reduction, fn)
    input = float_tensor(input, fn, "input")
    label = as_tensor_arg(label, fn, "label", 2)
    lab = label.numpy()
    if input.ndim != 2:
        raise ValueError(f"{fn}(): argument 'input' must be [N, C], got shape {input.shape}")
    if lab.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'label' (position 2) must be an integer Tensor, "
                        f"got dtype {label.dtype.name}")
    if list(lab.shape) != input.shape:
        raise ValueError(f"{fn}(): argument 'label' must have the input's shape "
                         f"{input.shape}, got {label.shape}")
    classes = input.shape[1]
    if ((lab < -1) | (lab >= classes)).any():
        raise IndexError(f"{fn}(): labels must lie in [-1, {classes}), got "
                         f"{lab[(lab < -1) | (lab >= classes)].ravel()[:5].tolist()}")
    listed = np.cumsum(lab == -1, axis=1) == 0        # the labels before the first -1
    target = np.zeros(lab.shape, bool)
    rows = np.broadcast_to(np.arange(lab.shape[0])[:, None], lab.shape)
    target[rows[listed], lab[listed]] = True
    pairs = _mask(target[:, :, None] & ~target[:, None, :], input)
    gaps = relu(add(subtract(unsqueeze(input, 1), unsqueeze(input, 2)), 1.0))
    loss = divide(reduce_sum(multiply(gaps, pairs), axis=[1, 2]), float(classes))
    return _reduce(loss, reduction)


# ------------------------------------------------- the last losses (issue 34)
def _integer_labels(label, fn, position, classes=None):
    """``label`` as an integer Tensor whose entries lie in ``[0, classes)`` when given."""
    label = as_tensor_arg(label, fn, "label", position)
    values = label.numpy()
    if values.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'label' (position {position}) must be an integer "
                        f"tensor, got {label.dtype}")
    if classes is not None and values.size and (values.min() < 0 or values.max() >= classes):
        raise ValueError(f"{fn}(): argument 'label' (position {position}) must hold class "
                         f"indices in [0, {classes}), got values in [{values.min()}, "
                         f"{values.max()}]")
    return label


@op
def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """Softmax cross entropy per sample, without reduction (Paddle's older form of
    :func:`cross_entropy`).

    ``label`` has the rank of ``logits``: class indices with size 1 along
    ``axis`` (an ignored index gives a loss of 0), or probabilities
    (``soft_label=True``) shaped like ``logits``. The loss keeps ``axis`` with
    size 1. ``return_softmax=True`` also returns the softmax of ``logits``.
    ``numeric_stable_mode`` is accepted for compatibility (always stable).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> logits = pylayer.to_tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]])
    >>> F.softmax_with_cross_entropy(logits, pylayer.to_tensor([[2], [0]])).numpy().round(4)
    array([[1.9644],
           [2.9708]], dtype=float32)
    """
    fn = "softmax_with_cross_entropy"
    logits = float_tensor(logits, fn, "logits", 1)
    if logits.ndim == 0:
        raise ValueError(f"{fn}(): argument 'logits' (position 1) must have a class axis, "
                         f"got a 0-D tensor")
    axis = check_axis(axis, logits.ndim, fn)
    label = as_tensor_arg(label, fn, "label", 2)
    if label.ndim != logits.ndim:
        raise ValueError(f"{fn}(): argument 'label' (position 2) must have the rank of "
                         f"'logits' ({logits.ndim}), got shape {label.shape}")
    if not soft_label:
        label = _integer_labels(label, fn, 2)
        expected = logits.shape[:axis] + [1] + logits.shape[axis + 1:]
        if label.shape != expected:
            raise ValueError(f"{fn}(): argument 'label' (position 2) must have shape "
                             f"{expected} (size 1 along axis {axis}), got {label.shape}")
    loss = cross_entropy(logits, label, soft_label=bool(soft_label),
                         ignore_index=check_int(ignore_index, fn, "ignore_index"),
                         reduction="none", axis=axis)
    if return_softmax:
        return loss, softmax(logits, axis)
    return loss


@op
def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0,
                         group=None, return_softmax=False, reduction="mean"):
    """The additive/multiplicative angular margin loss of ArcFace, CosFace and
    SphereFace, on one process.

    ``logits`` ``[N, C]`` are cosines (of normalized features and weights). For
    the label's class the cosine ``cos(t)`` becomes
    ``cos(margin1 * t + margin2) - margin3``; then all are multiplied by
    ``scale`` and a softmax cross entropy gives the loss (``[N, 1]`` with
    ``reduction=None`` or ``'none'``). ``return_softmax=True`` also returns the
    softmax of the changed logits. ``group`` must be None or False (one
    process). Paddle 3.3.1 has no CPU kernel for it; this follows its
    definition.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> cosines = pylayer.to_tensor([[-0.5956, 0.3280, 0.8028, 0.0014]], dtype='float64')
    >>> F.margin_cross_entropy(cosines, pylayer.to_tensor([1]), reduction=None).numpy().round(2)
    array([[61.94]])
    """
    fn = "margin_cross_entropy"
    if reduction not in ("mean", "sum", "none", None):
        raise ValueError(f"{fn}(): argument 'reduction' must be 'mean', 'sum', 'none' or None, "
                         f"got {reduction!r}")
    if group is not None and group is not False:
        raise ValueError(f"{fn}(): argument 'group' must be None or False (pylayer runs on one "
                         f"process), got {group!r}")
    logits = float_tensor(logits, fn, "logits", 1)
    if logits.ndim != 2 or logits.shape[-1] == 0:
        raise ValueError(f"{fn}(): argument 'logits' (position 1) must be [N, C] with C > 0, "
                         f"got shape {logits.shape}")
    label = _integer_labels(label, fn, 2, logits.shape[-1])
    if label.ndim == 2 and label.shape[1] == 1:
        label = reshape(label, [-1])
    if label.shape != logits.shape[:1]:
        raise ValueError(f"{fn}(): argument 'label' (position 2) must have shape "
                         f"[{logits.shape[0]}] or [{logits.shape[0]}, 1], got {label.shape}")
    m1, m2, m3, s = (check_number(v, fn, arg) for v, arg in
                     ((margin1, "margin1"), (margin2, "margin2"), (margin3, "margin3"),
                      (scale, "scale")))
    from pylayer.ops.elementwise import acos
    from pylayer.ops.math import cos
    mask = np.zeros(logits.shape, dtype=bool)
    mask[np.arange(logits.shape[0]), label.numpy()] = True
    mask = make_tensor(mask)
    target = subtract(cos(add(multiply(acos(logits), m1), m2)), m3)
    changed = multiply(where(mask, target, logits), s)
    loss = cross_entropy(changed, reshape(label, [-1, 1]), reduction="none")
    if reduction == "mean":
        loss = mean(loss)
    elif reduction == "sum":
        loss = reduce_sum(loss)
    if return_softmax:
        return loss, softmax(changed, -1)
    return loss


__all__ += ["softmax_with_cross_entropy", "margin_cross_entropy"]


# ------------------------------------------------- CTC
def _refuse_double_backward(name):
    def rule(g, needs_input_grad):
        raise RuntimeError(f"{name}(): its gradient cannot be differentiated again (no double "
                           f"backward, as in Paddle); call backward without create_graph=True")
    return rule


CTC_LOSS_GRAD = Op("ctc_loss_grad", inputs=("grad_out", "log_probs"),
                   vjp=_refuse_double_backward("ctc_loss"))


def _ctc_vjp(g, log_probs, occupancy):
    # d loss_b / d log_probs[t, b, c] = -(posterior of class c at time t), computed in
    # the forward; a node of its own refuses to be differentiated again.
    array = -occupancy * g.numpy().astype(occupancy.dtype)[None, :, None]
    return make_output(CTC_LOSS_GRAD, array, (g, log_probs))


CTC_LOSS = Op("ctc_loss", inputs=("log_probs",), keeps=("log_probs",), attrs=("occupancy",),
              vjp=(_ctc_vjp,))


def _ctc_forward_backward(lp, labels, input_lengths, label_lengths, blank, want_grad):
    """Negative log-likelihoods ``[B]`` of the label sequences under the normalized
    log-probabilities ``lp`` ``[T, B, C]``, and (when ``want_grad``) the posterior
    occupancy of each class ``[T, B, C]`` (the alpha-beta method, in log space)."""
    T, B, C = lp.shape
    S = 2 * labels.shape[1] + 1
    ext = np.full((B, S), blank, dtype=np.int64)
    ext[:, 1::2] = labels
    s_index = np.arange(S)
    valid = s_index[None, :] < (2 * label_lengths + 1)[:, None]                  # [B, S]
    skip = np.zeros((B, S), dtype=bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    emit = lp[:, np.arange(B)[:, None], ext]                                       # [T, B, S]
    emit = np.where(valid[None], emit, -np.inf)
    neg = np.full((B, 1), -np.inf)
    alpha = np.full((T, B, S), -np.inf)
    alpha[0, :, 0] = emit[0, :, 0]
    alpha[0, :, 1] = np.where(label_lengths > 0, emit[0, :, 1], -np.inf) if S > 1 else 0
    with np.errstate(invalid="ignore"):
        for t in range(1, T):
            prev = alpha[t - 1]
            one = np.concatenate([neg, prev[:, :-1]], axis=1)
            two = np.where(skip, np.concatenate([neg, neg, prev[:, :-2]], axis=1)[:, :S], -np.inf)
            alpha[t] = np.logaddexp(np.logaddexp(prev, one), two) + emit[t]
    last = alpha[input_lengths - 1, np.arange(B)]                                 # [B, S]
    end = 2 * label_lengths
    log_p = np.logaddexp(last[np.arange(B), end],
                         np.where(end > 0, last[np.arange(B), np.maximum(end - 1, 0)], -np.inf))
    if not want_grad:
        return -log_p, None
    # beta_t(s): the log-probability of completing the labels from (t, s), after t
    start = np.full((B, S), -np.inf)
    has_labels = end > 0
    start[np.arange(B)[has_labels], end[has_labels] - 1] = 0.0
    start[np.arange(B), end] = 0.0
    beta = np.full((T, B, S), -np.inf)
    beta[T - 1] = start
    with np.errstate(invalid="ignore"):
        for t in range(T - 2, -1, -1):
            nxt = beta[t + 1] + emit[t + 1]
            one = np.concatenate([nxt[:, 1:], neg], axis=1)
            two = np.concatenate([nxt[:, 2:], neg, neg], axis=1)[:, :S]
            two = np.where(np.concatenate([skip[:, 2:], np.zeros((B, 2), bool)], axis=1)[:, :S],
                           two, -np.inf)
            step = np.logaddexp(np.logaddexp(nxt, one), two)
            beta[t] = np.where((t < input_lengths - 1)[:, None], step, start)
    live = (np.arange(T)[:, None] < input_lengths[None, :])[:, :, None]           # [T, B, 1]
    finite = np.isfinite(log_p)
    with np.errstate(invalid="ignore", over="ignore"):
        post = np.exp(alpha + beta - np.where(finite, log_p, 0.0)[None, :, None])
    post = np.where(live & finite[None, :, None], post, 0.0)
    post = np.nan_to_num(post, nan=0.0)
    occupancy = np.zeros((T, B, C))
    one_hot = np.zeros((B, S, C))
    one_hot[np.arange(B)[:, None], s_index[None, :], ext] = 1.0
    np.einsum("tbs,bsc->tbc", post, one_hot, out=occupancy)
    return -log_p, occupancy


def _length_tensor(value, fn, arg, position, batch, upper):
    value = as_tensor_arg(value, fn, arg, position)
    array = value.numpy()
    if array.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be an integer "
                        f"tensor, got {value.dtype}")
    if array.shape != (batch,):
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must have shape "
                         f"[{batch}], got {value.shape}")
    if array.size and (array.min() < 0 or array.max() > upper):
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must hold lengths "
                         f"in [0, {upper}], got values in [{array.min()}, {array.max()}]")
    return array.astype(np.int64)


@op
def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
             norm_by_times=False, zero_infinity=False):
    """Connectionist temporal classification loss, as Paddle's (warp-ctc) ``ctc_loss``.

    ``log_probs`` ``[T, B, C]`` are unnormalized scores: a log-softmax over the
    classes is applied first, as Paddle does. ``labels`` ``[B, L]`` hold the
    label sequences (padded; class ``blank`` may not occur in them),
    ``input_lengths`` and ``label_lengths`` ``[B]`` the lengths used. Each
    sample's loss is the negative log-probability of all alignments of its
    labels (forward-backward recursion). ``reduction='mean'`` divides each loss
    by its label length, then averages; ``'sum'`` adds; ``'none'`` gives
    ``[B]``. ``norm_by_times=True`` divides each sample's gradient by its input
    length (the loss is unchanged). ``zero_infinity=True`` makes impossible
    alignments (infinite losses) count 0. The gradient is the alpha-beta
    posterior; it cannot be differentiated again.

    >>> import numpy as np
    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> scores = pylayer.to_tensor(np.zeros([3, 1, 3], 'float32'))
    >>> loss = F.ctc_loss(scores, pylayer.to_tensor([[1, 2]], dtype='int32'),
    ...                   pylayer.to_tensor([3]), pylayer.to_tensor([2]), reduction='none')
    >>> loss.numpy().round(4)          # -log(5 / 27): 5 alignments of probability 1/27
    array([1.6864], dtype=float32)
    """
    fn = "ctc_loss"
    check_reduction(reduction, fn)
    log_probs = float_tensor(log_probs, fn, "log_probs", 1)
    if log_probs.ndim != 3:
        raise ValueError(f"{fn}(): argument 'log_probs' (position 1) must be 3-D "
                         f"[max_logit_length, batch_size, num_classes + 1], got shape "
                         f"{log_probs.shape}")
    T, B, C = log_probs.shape
    labels = as_tensor_arg(labels, fn, "labels", 2)
    label_array = labels.numpy()
    if label_array.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'labels' (position 2) must be an integer tensor, "
                        f"got {labels.dtype}")
    if label_array.ndim != 2 or label_array.shape[0] != B:
        raise ValueError(f"{fn}(): argument 'labels' (position 2) must have shape "
                         f"[{B}, max_label_length], got {labels.shape}")
    blank = check_int(blank, fn, "blank")
    if not 0 <= blank < C:
        raise ValueError(f"{fn}(): argument 'blank' must be in [0, {C}), got {blank}")
    in_lengths = _length_tensor(input_lengths, fn, "input_lengths", 3, B, T)
    lab_lengths = _length_tensor(label_lengths, fn, "label_lengths", 4, B,
                                 label_array.shape[1])
    if B and in_lengths.min() < 1:
        raise ValueError(f"{fn}(): argument 'input_lengths' (position 3) must be at least 1, "
                         f"got {in_lengths.min()}")
    used = np.arange(label_array.shape[1])[None, :] < lab_lengths[:, None]
    if np.any(used & ((label_array < 0) | (label_array >= C) | (label_array == blank))):
        raise ValueError(f"{fn}(): argument 'labels' (position 2) must hold classes in "
                         f"[0, {C}) other than blank ({blank}) within the label lengths")
    normalized = log_softmax(log_probs, -1)
    lp = normalized.numpy().astype(np.float64)
    losses, occupancy = _ctc_forward_backward(
        lp, np.where(used, label_array, blank).astype(np.int64), in_lengths, lab_lengths,
        blank, needs_grad(normalized))
    if occupancy is not None and norm_by_times:
        occupancy = occupancy / in_lengths[None, :, None]
    dtype = normalized.numpy().dtype
    if occupancy is not None:
        occupancy = occupancy.astype(dtype)
    loss = make_output(CTC_LOSS, losses.astype(dtype), (normalized,), (occupancy,))
    if zero_infinity:
        loss = where(make_tensor(np.isinf(losses)), make_tensor(np.zeros(B, dtype)), loss)
    if reduction == "mean":
        return mean(divide(loss, make_tensor(lab_lengths.astype(dtype))))
    if reduction == "sum":
        return reduce_sum(loss)
    return loss


__all__ += ["ctc_loss"]


# ------------------------------------------------- adaptive log-softmax
def check_cutoffs(cutoffs, fn, n_classes=None):
    if isinstance(cutoffs, (str, bytes)) or not hasattr(cutoffs, "__iter__"):
        raise TypeError(f"{fn}(): argument 'cutoffs' must be a sequence of ints, got "
                        f"{type(cutoffs).__name__}")
    values = [int(c.item()) if isinstance(c, Tensor) else c for c in cutoffs]
    top = n_classes - 1 if n_classes is not None else None
    if not values or any(not isinstance(c, int) or isinstance(c, bool) for c in values) \
            or values != sorted(set(values)) or values[0] <= 0 \
            or (top is not None and values[-1] > top):
        bound = f" and at most n_classes - 1 ({top})" if top is not None else ""
        raise ValueError(f"{fn}(): argument 'cutoffs' must be unique positive ints in "
                         f"increasing order{bound}, got {list(cutoffs)}")
    return values


@op
def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, cutoffs,
                                   head_bias=None, name=None):
    """The log-probability of each ``label`` under an adaptive softmax, and the mean
    negative log-likelihood: ``(output, loss)``.

    Classes below ``cutoffs[0]`` are scored by the head
    (``input @ head_weight + head_bias``, one column per such class and one per
    cluster); the classes of cluster ``i`` (from ``cutoffs[i]`` to the next
    cutoff, the last one ending at the number of classes) add the head's
    log-probability of the cluster to their log-softmax within it, computed
    by ``input @ tail_weights[i][0] @ tail_weights[i][1]``. ``input`` is
    ``[N, in_features]`` with ``label`` ``[N]``, or ``[in_features]`` with a
    0-D ``label``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.ones([2, 4])
    >>> head = pylayer.zeros([4, 3])                 # 2 head classes + 1 cluster
    >>> tail = [[pylayer.zeros([4, 2]), pylayer.zeros([2, 2])]]
    >>> out, loss = F.adaptive_log_softmax_with_loss(x, pylayer.to_tensor([0, 3]), head,
    ...                                              tail, [2, 4])
    >>> out.numpy().round(4), round(float(loss), 4)
    (array([-1.0986, -1.7918], dtype=float32), 1.4452)
    """
    fn = "adaptive_log_softmax_with_loss"
    from pylayer.ops.linear import linear
    from pylayer.ops.manipulation import concat, gather, take_along_axis
    input = float_tensor(input, fn, "input", 1)
    label = as_tensor_arg(label, fn, "label", 2)
    if label.numpy().dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'label' (position 2) must be an integer tensor, "
                        f"got {label.dtype}")
    if label.ndim > 1 or input.ndim != label.ndim + 1:
        raise ValueError(f"{fn}(): 'input' and 'label' must be [N, in_features] and [N], or "
                         f"[in_features] and [], got shapes {input.shape} and {label.shape}")
    batched = label.ndim == 1
    if batched and input.shape[0] != label.shape[0]:
        raise ValueError(f"{fn}(): 'input' and 'label' must have the same batch size, got "
                         f"{input.shape[0]} and {label.shape[0]}")
    head_weight = float_tensor(head_weight, fn, "head_weight", 3)
    if isinstance(tail_weights, (str, bytes, dict)) or not hasattr(tail_weights, "__iter__") or any(
            not hasattr(pair, "__len__") or len(pair) != 2
            or not all(isinstance(w, Tensor) for w in pair) for pair in tail_weights):
        raise TypeError(f"{fn}(): argument 'tail_weights' (position 4) must be a list of "
                        f"[projection, output] weight pairs of Tensors")
    tail_weights = [list(pair) for pair in tail_weights]
    cutoffs = check_cutoffs(cutoffs, fn)
    if len(cutoffs) != len(tail_weights) + 1:
        raise ValueError(f"{fn}(): argument 'cutoffs' must hold one value per cluster of "
                         f"'tail_weights' plus the number of classes ({len(tail_weights) + 1} "
                         f"values), got {cutoffs}")
    if head_weight.shape != [input.shape[-1], cutoffs[0] + len(tail_weights)]:
        raise ValueError(f"{fn}(): argument 'head_weight' (position 3) must have shape "
                         f"[{input.shape[-1]}, {cutoffs[0] + len(tail_weights)}], got "
                         f"{head_weight.shape}")
    if not batched:
        input, label = reshape(input, [1, -1]), reshape(label, [1])
    labels = label.numpy().astype(np.int64)
    if labels.size and (labels.min() < 0 or labels.max() >= cutoffs[-1]):
        raise ValueError(f"{fn}(): argument 'label' (position 2) must hold classes in "
                         f"[0, {cutoffs[-1] - 1}], got values in [{labels.min()}, "
                         f"{labels.max()}]")
    head = log_softmax(linear(input, head_weight, head_bias), 1)
    columns = labels.copy()
    pieces, where_from = [], np.full(labels.shape, -1, dtype=np.int64)
    offset = 0
    for i, (low, high) in enumerate(zip(cutoffs, cutoffs[1:])):
        rows = np.nonzero((labels >= low) & (labels < high))[0]
        if rows.size == 0:
            continue
        columns[rows] = cutoffs[0] + i
        projected = linear(linear(gather(input, make_tensor(rows)), tail_weights[i][0]),
                           tail_weights[i][1])
        local = take_along_axis(log_softmax(projected, 1),
                                make_tensor((labels[rows] - low)[:, None]), 1)
        pieces.append(reshape(local, [-1]))
        where_from[rows] = offset + np.arange(rows.size)
        offset += rows.size
    output = reshape(take_along_axis(head, make_tensor(columns[:, None]), 1), [-1])
    if pieces:
        zero = make_tensor(np.zeros(1, dtype=input.numpy().dtype))
        tails = concat(pieces + [zero])
        output = add(output, gather(tails, make_tensor(np.where(where_from < 0, offset,
                                                                where_from))))
    loss = mean(neg(output))
    if not batched:
        output = reshape(output, [])
    return output, loss


__all__ += ["adaptive_log_softmax_with_loss"]


# ------------------------------------------------- hierarchical sigmoid
def _default_tree_paths(labels, num_classes):
    """The nodes and bits on the path of each class in Paddle's default complete binary
    tree (class ``c`` is the leaf ``c + num_classes``): ``[N, L]`` each, and the mask
    of the steps used."""
    codes = labels.astype(np.int64) + num_classes
    lengths = np.floor(np.log2(codes)).astype(np.int64)
    steps = (num_classes - 1).bit_length()       # Paddle's width: the longest path
    j = np.arange(steps)[None, :]
    used = j < lengths[:, None]
    nodes = np.where(used, (codes[:, None] >> (j + 1)) - 1, 0)
    bits = np.where(used, (codes[:, None] >> j) & 1, 0)
    return nodes, bits, used


@op
def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None,
                  path_code=None, is_sparse=False, name=None):
    """Hierarchical sigmoid loss: a binary logistic loss at each inner node on the path of
    the label in a tree of the classes, summed per sample (``[N, 1]``).

    With the default tree (no ``path_table``/``path_code``) the classes are the
    leaves of a complete binary tree of ``num_classes - 1`` inner nodes, as
    Paddle builds it; a custom tree gives per sample the nodes (``path_table``,
    ``-1`` past the end) and the bits (``path_code``) of its path. At a node
    ``k`` with bit ``c`` the loss is ``softplus(z) - c * z``, where
    ``z = input @ weight[k] + bias[k]`` clipped to ``[-40, 40]`` as Paddle
    does. As in Paddle, every step by which a path is shorter than the longest
    one (of the tree, or ``path_table``'s width) adds ``log 2``. ``is_sparse``
    is accepted for compatibility (gradients are dense).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.ones([1, 2])
    >>> loss = F.hsigmoid_loss(x, pylayer.to_tensor([1]), 4, pylayer.zeros([3, 2]))
    >>> loss.numpy().round(4)        # two nodes on the path, each log(2)
    array([[1.3863]], dtype=float32)
    """
    fn = "hsigmoid_loss"
    from pylayer.ops.manipulation import gather
    from pylayer.ops.nonlinear import softplus
    input = float_tensor(input, fn, "input", 1)
    if input.ndim != 2:
        raise ValueError(f"{fn}(): argument 'input' (position 1) must be [N, D], got shape "
                         f"{input.shape}")
    n, d = input.shape
    num_classes = check_int(num_classes, fn, "num_classes")
    custom = path_table is not None or path_code is not None
    if not custom and num_classes < 2:
        raise ValueError(f"{fn}(): argument 'num_classes' (position 3) must be at least 2, "
                         f"got {num_classes}")
    label = _integer_labels(label, fn, 2, None if custom else num_classes)
    if label.numpy().size != n:
        raise ValueError(f"{fn}(): argument 'label' (position 2) must hold one class per "
                         f"sample ([{n}] or [{n}, 1]), got shape {label.shape}")
    weight = float_tensor(weight, fn, "weight", 4)
    nodes_count = num_classes - 1 if not custom else num_classes
    if weight.ndim != 2 or weight.shape[1] != d:
        raise ValueError(f"{fn}(): argument 'weight' (position 4) must be [num_classes - 1, "
                         f"{d}], got shape {weight.shape}")
    if bias is not None:
        bias = float_tensor(bias, fn, "bias", 5)
        if bias.shape not in ([weight.shape[0], 1], [weight.shape[0]]):
            raise ValueError(f"{fn}(): argument 'bias' must be [{weight.shape[0]}, 1], got "
                             f"shape {bias.shape}")
    if custom:
        if path_table is None or path_code is None:
            raise ValueError(f"{fn}(): a custom tree needs both 'path_table' and 'path_code'")
        table = _integer_labels(path_table, fn, 6).numpy().astype(np.int64)
        code = _integer_labels(path_code, fn, 7).numpy().astype(np.int64)
        if table.ndim != 2 or table.shape[0] != n or code.shape != table.shape:
            raise ValueError(f"{fn}(): arguments 'path_table' and 'path_code' must both be "
                             f"[{n}, L], got shapes {list(table.shape)} and "
                             f"{list(code.shape)}")
        used = table >= 0
        if np.any(table[used] >= weight.shape[0]):
            raise ValueError(f"{fn}(): argument 'path_table' names nodes beyond the "
                             f"{weight.shape[0]} rows of 'weight'")
        nodes, bits = np.where(used, table, 0), np.where(used, code, 0)
    else:
        if weight.shape[0] != nodes_count:
            raise ValueError(f"{fn}(): argument 'weight' (position 4) must be "
                             f"[{nodes_count}, {d}] for {num_classes} classes, got shape "
                             f"{weight.shape}")
        nodes, bits, used = _default_tree_paths(label.numpy().reshape(-1), num_classes)
    steps = nodes.shape[1]
    dtype = input.numpy().dtype
    picked = reshape(gather(weight, make_tensor(nodes.reshape(-1))), [n, steps, d])
    z = reduce_sum(multiply(picked, unsqueeze(input, 1)), axis=-1)
    if bias is not None:
        z = add(z, reshape(gather(reshape(bias, [-1]), make_tensor(nodes.reshape(-1))),
                           [n, steps]))
    from pylayer.ops.math import clip
    # As Paddle's kernel: a step past the end of a path has z = 0 and adds softplus(0)
    # = log 2 to the loss (a constant: no gradient).
    z = multiply(clip(z, -40.0, 40.0), make_tensor(used.astype(dtype)))
    terms = subtract(softplus(z), multiply(z, make_tensor(bits.astype(dtype))))
    return reduce_sum(terms, axis=1, keepdim=True)


__all__ += ["hsigmoid_loss"]


# ------------------------------------------------- RNN-T
RNNT_LOSS_GRAD = Op("rnnt_loss_grad", inputs=("grad_out", "input"),
                    vjp=_refuse_double_backward("rnnt_loss"))


def _rnnt_vjp(g, input, gradient):
    array = gradient * g.numpy().astype(gradient.dtype)[:, None, None, None]
    return make_output(RNNT_LOSS_GRAD, array, (g, input))


RNNT_LOSS = Op("rnnt_loss", inputs=("input",), keeps=("input",), attrs=("gradient",),
               vjp=(_rnnt_vjp,))


def _rnnt_sample(lp, labels, T, U, blank, emit_scale, want_grad):
    """The negative log-likelihood of one sample (``lp`` ``[T_max, U_max + 1, V]``
    log-probabilities, ``labels`` ``[U]``) and its gradient with respect to ``lp``.
    Along ``u`` the recursions are cumulative log-sums (``logaddexp.accumulate``)."""
    lp = lp[:T, :U + 1]
    blank_lp = lp[:, :, blank]                                           # [T, U+1]
    emit_lp = lp[:, np.arange(U), labels[:U]] if U else np.zeros((T, 0))  # [T, U]
    alpha = np.full((T, U + 1), -np.inf)
    prefix = np.concatenate([np.zeros((T, 1)), np.cumsum(emit_lp, axis=1)], axis=1)
    for t in range(T):
        entry = np.full(U + 1, -np.inf)
        if t == 0:
            entry[0] = 0.0
        else:
            entry = alpha[t - 1] + blank_lp[t - 1]
        alpha[t] = np.logaddexp.accumulate(entry - prefix[t]) + prefix[t]
    log_p = alpha[T - 1, U] + blank_lp[T - 1, U]
    if not want_grad:
        return -log_p, None
    beta = np.full((T + 1, U + 1), -np.inf)
    for t in range(T - 1, -1, -1):
        down = beta[t + 1] + blank_lp[t] if t < T - 1 else np.where(
            np.arange(U + 1) == U, blank_lp[t], -np.inf)
        # beta[t, u] = logaddexp(down[u], emit[t, u] + beta[t, u + 1]), from u = U down
        suffix = np.concatenate([np.cumsum(emit_lp[t][::-1])[::-1], [0.0]])
        beta[t] = np.logaddexp.accumulate((down - suffix)[::-1])[::-1] + suffix
    grad = np.zeros_like(lp)
    with np.errstate(invalid="ignore", over="ignore"):
        stay = np.where(np.arange(T)[:, None] < T - 1, beta[1:T + 1], 0.0)
        stay[T - 1, :U] = -np.inf
        grad[:, :, blank] = -np.exp(alpha + blank_lp + stay - log_p)
        if U:
            moved = -np.exp(alpha[:, :U] + emit_lp + beta[:T, 1:] - log_p) * emit_scale
            np.add.at(grad, (slice(None), np.arange(U), labels[:U]), moved)
    return -log_p, np.nan_to_num(grad)


@op
def rnnt_loss(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001,
              reduction="mean", name=None):
    """RNN transducer loss, as Paddle's (warp-transducer) ``rnnt_loss``.

    ``input`` ``[B, T, U + 1, V]`` holds log-probabilities (used as they are,
    as Paddle does), ``label`` ``[B, U]`` the label sequences, ``input_lengths``
    and ``label_lengths`` ``[B]`` the lengths used. Each sample's loss is the
    negative log-probability of all paths through the ``T x (U + 1)`` lattice
    that emit its labels and end with a blank. ``fastemit_lambda`` is FastEmit's
    regularization: the gradients of the label emissions are multiplied by
    ``1 + fastemit_lambda`` (the loss is unchanged). ``reduction='mean'``
    averages the losses. The gradient cannot be differentiated again.

    >>> import numpy as np
    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> logp = pylayer.to_tensor(np.log(np.full([1, 2, 2, 2], 0.5, 'float32')))
    >>> loss = F.rnnt_loss(logp, pylayer.to_tensor([[1]], dtype='int32'),
    ...                    pylayer.to_tensor([2], dtype='int32'),
    ...                    pylayer.to_tensor([1], dtype='int32'), reduction='none')
    >>> loss.numpy().round(4)        # two paths of probability 1/8
    array([1.3863], dtype=float32)
    """
    fn = "rnnt_loss"
    check_reduction(reduction, fn)
    input = float_tensor(input, fn, "input", 1)
    if input.ndim != 4:
        raise ValueError(f"{fn}(): argument 'input' (position 1) must be 4-D "
                         f"[batch, max_time, max_label + 1, classes], got shape {input.shape}")
    B, T, U1, V = input.shape
    label = as_tensor_arg(label, fn, "label", 2)
    labels = label.numpy()
    if labels.dtype.kind not in "iu":
        raise TypeError(f"{fn}(): argument 'label' (position 2) must be an integer tensor, "
                        f"got {label.dtype}")
    if labels.shape != (B, U1 - 1):
        raise ValueError(f"{fn}(): argument 'label' (position 2) must have shape "
                         f"[{B}, {U1 - 1}], got {label.shape}")
    blank = check_int(blank, fn, "blank")
    if not 0 <= blank < V:
        raise ValueError(f"{fn}(): argument 'blank' must be in [0, {V}), got {blank}")
    emit_scale = 1.0 + check_number(fastemit_lambda, fn, "fastemit_lambda")
    in_lengths = _length_tensor(input_lengths, fn, "input_lengths", 3, B, T)
    lab_lengths = _length_tensor(label_lengths, fn, "label_lengths", 4, B, U1 - 1)
    if B and in_lengths.min() < 1:
        raise ValueError(f"{fn}(): argument 'input_lengths' (position 3) must be at least 1, "
                         f"got {in_lengths.min()}")
    used = np.arange(U1 - 1)[None, :] < lab_lengths[:, None]
    if np.any(used & ((labels < 0) | (labels >= V) | (labels == blank))):
        raise ValueError(f"{fn}(): argument 'label' (position 2) must hold classes in "
                         f"[0, {V}) other than blank ({blank}) within the label lengths")
    lp = input.numpy().astype(np.float64)
    want = needs_grad(input)
    losses = np.zeros(B)
    gradient = np.zeros(lp.shape) if want else None
    for b in range(B):
        losses[b], grad = _rnnt_sample(lp[b], labels[b].astype(np.int64), int(in_lengths[b]),
                                       int(lab_lengths[b]), blank, emit_scale, want)
        if want:
            gradient[b, :in_lengths[b], :lab_lengths[b] + 1] = grad
    dtype = input.numpy().dtype
    loss = make_output(RNNT_LOSS, losses.astype(dtype), (input,),
                       (None if gradient is None else gradient.astype(dtype),))
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return reduce_sum(loss)
    return loss


__all__ += ["rnnt_loss"]


# -------------------------------------------------------- class_center_sample
@op
def class_center_sample(label, num_classes, num_samples, group=None):
    """Sample class centers for a partial softmax (PartialFC): every class present in
    ``label`` (a 1-D int32/int64 tensor of classes in ``[0, num_classes)``), in
    ascending order, then distinct classes drawn at random from the others until
    there are ``num_samples`` (all positives are kept when there are more).

    Returns ``(remapped_label, sampled_class_center)``: each label's position among
    the sampled centers, and the sampled classes, both of ``label``'s dtype. One
    process only: ``group`` is ``None`` or ``False``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> label = pylayer.to_tensor([9, 3, 3, 7])
    >>> remapped, centers = F.class_center_sample(label, num_classes=12, num_samples=6)
    >>> remapped.tolist(), centers.tolist()[:3], len(centers.tolist())
    ([2, 0, 0, 1], [3, 7, 9], 6)
    """
    fn = "class_center_sample"
    if not (group is None or group is False):
        raise ValueError(f"{fn}(): argument 'group' (position 4) must be None or False (one "
                         f"process), got {group!r}")
    label = as_tensor_arg(label, fn, "label", 1)
    if label.dtype not in ("int32", "int64"):
        raise TypeError(f"{fn}(): argument 'label' (position 1) must be an int32 or int64 "
                        f"tensor, got {label.dtype}")
    num_classes = check_int(num_classes, fn, "num_classes", minimum=1)
    num_samples = check_int(num_samples, fn, "num_samples", minimum=1)
    if num_samples > num_classes:
        raise ValueError(f"{fn}(): argument 'num_samples' (position 3) must be at most "
                         f"num_classes ({num_classes}), got {num_samples}")
    if label.ndim != 1:
        raise ValueError(f"{fn}(): argument 'label' (position 1) must be 1-D, got shape "
                         f"{label.shape}")
    if label.shape[0] == 0:
        raise ValueError(f"{fn}(): argument 'label' (position 1) must not be empty")
    labels = label.numpy()
    if labels.min() < 0 or labels.max() >= num_classes:
        raise ValueError(f"{fn}(): argument 'label' (position 1) must hold classes in "
                         f"[0, {num_classes}), got values in [{labels.min()}, {labels.max()}]")
    positives, remapped = np.unique(labels, return_inverse=True)
    missing = num_samples - positives.size
    centers = positives
    if missing > 0:
        check_count(num_samples, fn, "num_samples", labels.dtype)
        # k-th class not in ``positives`` = k + how many positives p_i have p_i - i <= k
        picked = get_rng().choice(num_classes - positives.size, size=missing, replace=False)
        skipped = np.searchsorted(positives - np.arange(positives.size), picked, side="right")
        centers = np.concatenate([positives, (picked + skipped).astype(labels.dtype)])
    return make_tensor(remapped.reshape(-1).astype(labels.dtype)), make_tensor(centers)


__all__ += ["class_center_sample"]
