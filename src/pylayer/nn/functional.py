"""Functional forms of the nn layers: activations and losses here, the other ops from
their areas in ``pylayer.ops``.

``relu``, ``sigmoid`` and ``tanh`` are the fused hot ops of
``ops/_elementwise.pyx``. The other activations record their own node, whose
backward is written with pylayer ops so that double backward works.
"""
import math
import warnings

import numpy as np

from pylayer._kernels import loops as _kernels
from pylayer._core.graph import make_output_legacy
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer.ops import _elementwise
from pylayer.ops._arguments import check_axis, check_dtype, check_int, check_number, float_tensor
from pylayer.ops._elementwise import add, divide, exp, log, multiply, neg, square, subtract
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.dispatch import op
from pylayer.ops.elementwise import erf, sigmoid, tanh
from pylayer.ops.linalg import matmul
from pylayer.ops.reduction import mean, sum as reduce_sum
from pylayer.ops.shape import cast, reshape

__all__ = ["relu", "leaky_relu", "gelu", "hardtanh", "sigmoid", "tanh", "softmax", "log_softmax",
           "dropout", "mse_loss", "cross_entropy", "linear", "conv1d", "conv2d",
           "conv1d_transpose", "conv2d_transpose", "pad", "interpolate", "pixel_shuffle",
           "one_hot", "embedding", "layer_norm", "batch_norm", "group_norm", "max_pool1d",
           "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d"]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction, fn):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{fn}(): argument 'reduction' must be one of {_REDUCTIONS}, "
                         f"got {reduction!r}")


def _reduce(loss, reduction):
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return reduce_sum(loss)
    return loss


# ------------------------------------------------------------ activations
relu = op(_elementwise.relu)  # compiled; its own docstring has the example


def _leaky_relu_bw(node, g):
    x = node.saved_tensors()[0]
    slope = np.where(x.numpy() > 0, 1, node.attrs).astype(g.numpy().dtype)
    return (multiply(g, make_tensor(slope)),)


@op
def leaky_relu(x, negative_slope=0.01, name=None):
    """``x`` where positive, ``negative_slope * x`` elsewhere; saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.leaky_relu(pylayer.to_tensor([-2.0, 3.0]), 0.5).numpy()
    array([-1.,  3.], dtype=float32)
    """
    x = float_tensor(x, "leaky_relu")
    negative_slope = check_number(negative_slope, "leaky_relu", "negative_slope")
    a = x.numpy()
    out = np.where(a > 0, a, a * negative_slope).astype(a.dtype)
    return make_output_legacy(out, (x,), "leaky_relu", _leaky_relu_bw, save=(x,),
                       attrs=float(negative_slope))


def _hardtanh_bw(node, g):
    x = node.saved_tensors()[0]
    low, high = node.attrs
    a = x.numpy()
    return (multiply(g, make_tensor(((a > low) & (a < high)).astype(g.numpy().dtype))),)


@op
def hardtanh(x, min=-1.0, max=1.0, name=None):
    """``x`` clipped to ``[min, max]``; the gradient passes only strictly inside, as in Paddle.

    Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.hardtanh(pylayer.to_tensor([-2.0, 0.5, 3.0])).numpy()
    array([-1. ,  0.5,  1. ], dtype=float32)
    """
    x = float_tensor(x, "hardtanh")
    low = check_number(min, "hardtanh", "min")
    high = check_number(max, "hardtanh", "max")
    if low > high:
        raise ValueError(f"hardtanh(): argument 'min' ({low}) must not exceed 'max' ({high})")
    a = x.numpy()
    return make_output_legacy(np.clip(a, low, high).astype(a.dtype, copy=False), (x,), "hardtanh",
                       _hardtanh_bw, save=(x,), attrs=(low, high))


_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TANH_SCALE = math.sqrt(2.0 / math.pi)
_TANH_CUBIC = 0.044715


def _gelu_bw(node, g):
    x = node.saved_tensors()[0]
    if node.attrs:  # tanh approximation: 0.5 x (1 + tanh(u)), u = c (x + k x^3)
        x2 = square(x)
        t = tanh(multiply(x, add(multiply(x2, _TANH_SCALE * _TANH_CUBIC), _TANH_SCALE)))
        du = add(multiply(x2, 3 * _TANH_SCALE * _TANH_CUBIC), _TANH_SCALE)
        slope = add(multiply(add(t, 1.0), 0.5),
                    multiply(multiply(x, 0.5), multiply(subtract(1.0, square(t)), du)))
    else:  # Phi(x) + x * phi(x)
        cdf = multiply(add(erf(multiply(x, _SQRT_HALF)), 1.0), 0.5)
        pdf = multiply(exp(multiply(square(x), -0.5)), _INV_SQRT_2PI)
        slope = add(cdf, multiply(x, pdf))
    return (multiply(g, slope),)


@op
def gelu(x, approximate=False, name=None):
    """Gaussian error linear unit ``x * Phi(x)``; ``approximate=True`` uses the tanh form.

    Saves ``x``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.gelu(pylayer.to_tensor([0.0, 1.0], dtype='float64')).numpy().round(6)
    array([0.      , 0.841345])
    """
    x = float_tensor(x, "gelu")
    a = x.numpy()
    if approximate:
        out = 0.5 * a * (1.0 + np.tanh(_TANH_SCALE * (a + _TANH_CUBIC * a ** 3)))
    else:
        out = 0.5 * a * (1.0 + erf(make_tensor(a * _SQRT_HALF)).numpy())
    return make_output_legacy(out.astype(a.dtype, copy=False), (x,), "gelu", _gelu_bw, save=(x,),
                       attrs=bool(approximate))


def _softmax_input(x, axis, dtype, fn):
    x = float_tensor(x, fn)
    if dtype is not None:
        x = cast(x, check_dtype(dtype, fn, kinds="f"))
    axis = check_axis(axis, x.ndim, fn)
    return x, (axis if x.ndim else None)   # numpy reduces a 0-d array over axis None


def _shifted(a, axis):
    """``a`` minus its max along ``axis``, so that exp cannot overflow."""
    with np.errstate(invalid="ignore"):
        return a - np.max(a, axis=axis, keepdims=True, initial=-np.inf)


def _softmax_bw(node, g):
    y = node.saved_tensors()[0]
    return (multiply(y, subtract(g, reduce_sum(multiply(g, y), axis=node.attrs, keepdim=True))),)


@op
def softmax(x, axis=-1, dtype=None, name=None):
    """``exp(x) / sum(exp(x))`` along ``axis``, computed without overflow; saves its output.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.softmax(pylayer.to_tensor([0.0, 0.0])).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    x, axis = _softmax_input(x, axis, dtype, "softmax")
    e = np.exp(_shifted(x.numpy(), axis))
    out = e / np.sum(e, axis=axis, keepdims=True)
    return make_output_legacy(out, (x,), "softmax", _softmax_bw, save_output=True, attrs=axis)


def _log_softmax_bw(node, g):
    y = node.saved_tensors()[0]
    return (subtract(g, multiply(exp(y), reduce_sum(g, axis=node.attrs, keepdim=True))),)


@op
def log_softmax(x, axis=-1, dtype=None, name=None):
    """``log(softmax(x))`` along ``axis``, computed stably; saves its output.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.log_softmax(pylayer.to_tensor([1000.0, 1000.0])).numpy()
    array([-0.6931472, -0.6931472], dtype=float32)
    """
    x, axis = _softmax_input(x, axis, dtype, "log_softmax")
    shifted = _shifted(x.numpy(), axis)
    # An empty axis sums to 0, whose log (-inf) meets no element of the empty result.
    with np.errstate(divide="ignore"):
        out = shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return make_output_legacy(out, (x,), "log_softmax", _log_softmax_bw, save_output=True, attrs=axis)


# ----------------------------------------------------------------- losses
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
    _check_reduction(reduction, "mse_loss")
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
    return _reduce(square(subtract(input, label)), reduction)


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


def _one_hot(lab, kept, classes, axis, dtype):
    """One-hot rows along ``axis`` for the kept labels, zero rows for the ignored ones."""
    positions = np.arange(classes).reshape([classes if i == axis else 1 for i in range(lab.ndim)])
    return (positions == np.where(kept, lab, -1)).astype(dtype)


def _hard_targets(input, label, axis, ignore_index, label_smoothing):
    """One-hot targets (zero rows for ignored labels) and the mask of kept samples."""
    a = input.numpy()
    lab, kept = _hard_labels(a, label, axis, ignore_index)
    classes = a.shape[axis]
    onehot = _one_hot(lab, kept, classes, axis, a.dtype)
    if label_smoothing:
        onehot = onehot * (1.0 - label_smoothing) + kept * (label_smoothing / classes)
    return onehot.astype(a.dtype), lab, kept


def check_cross_entropy_arguments(weight, ignore_index, reduction, axis, label_smoothing, fn):
    """Check cross entropy's settings (for ``cross_entropy`` and ``CrossEntropyLoss``).

    Returns ``weight`` as a float Tensor (or None).
    """
    _check_reduction(reduction, fn)
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



@op
def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Softmax cross entropy between logits ``input`` and ``label``, through ``log_softmax``.

    Hard labels are integer class indices shaped like ``input`` without
    ``axis`` (``[N]``) or with it of size 1 (``[N, 1]``); samples whose label
    equals ``ignore_index`` count for nothing. Soft labels
    (``soft_label=True``) are probabilities shaped like ``input``.
    ``weight`` gives each class a factor; the mean then divides by the sum
    of the weights used. With ``reduction='none'`` hard labels give one loss
    per label, in the label's shape (``[N]`` for labels ``[N]``, ``[N, 1]``
    for ``[N, 1]``), and soft labels keep ``axis`` with size 1, as in Paddle. ``use_softmax=False`` takes ``input`` as
    probabilities already.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> logits = pylayer.to_tensor([[0.0, 0.0], [0.0, 0.0]])
    >>> round(F.cross_entropy(logits, pylayer.to_tensor([0, 1])).item(), 4)
    0.6931
    """
    weight = check_cross_entropy_arguments(weight, ignore_index, reduction, axis,
                                           label_smoothing, "cross_entropy")
    input = float_tensor(input, "cross_entropy", "input")
    label = as_tensor_arg(label, "cross_entropy", "label", 2)
    if input.ndim == 0:
        raise ValueError("cross_entropy(): argument 'input' must have a class axis")
    axis = check_axis(axis, input.ndim, "cross_entropy")
    dtype = input.numpy().dtype
    class_weight = None
    if weight is not None:
        class_weight = weight.numpy().astype(dtype)
        if class_weight.shape != (input.shape[axis],):
            raise ValueError(f"cross_entropy(): 'weight' must have one entry per class "
                             f"({input.shape[axis]}), got shape {list(class_weight.shape)}")
    if not soft_label and use_softmax and class_weight is None and not label_smoothing:
        return _softmax_cross_entropy(input, label, axis, ignore_index, reduction)
    log_probs = log_softmax(input, axis) if use_softmax else log(input)
    if soft_label:
        if label.shape != input.shape:
            raise ValueError(f"cross_entropy(): soft labels must have the input's shape "
                             f"{input.shape}, got {label.shape}")
        target = label
        if label_smoothing:
            target = add(multiply(target, 1.0 - label_smoothing),
                         label_smoothing / input.shape[axis])
        sample_weight = None
        if class_weight is not None:
            shape = [-1 if i == axis else 1 for i in range(input.ndim)]
            sample_weight = np.sum(target.numpy() * class_weight.reshape(shape), axis=axis,
                                   keepdims=True)
        kept_count = None
    else:
        onehot, lab, kept = _hard_targets(input, label, axis, ignore_index, label_smoothing)
        target = make_tensor(onehot)
        sample_weight = None
        if class_weight is not None:
            sample_weight = np.where(kept, class_weight[np.where(kept, lab, 0)], 0).astype(dtype)
        kept_count = float(kept.sum())
    loss = neg(reduce_sum(multiply(log_probs, target), axis=axis, keepdim=True))
    if sample_weight is not None:
        loss = multiply(loss, make_tensor(sample_weight))
    if reduction == "none":
        # Hard labels give one loss per label, in the label's shape (as Paddle).
        return loss if soft_label else reshape(loss, label.shape)
    total = reduce_sum(loss)
    if reduction == "sum":
        return total
    if sample_weight is not None:
        return divide(total, float(sample_weight.sum()))
    if kept_count is not None:
        return divide(total, kept_count)
    return mean(loss)


def _softmax_cross_entropy(input, label, axis, ignore_index, reduction):
    """cross_entropy with hard labels, no weights and no smoothing, as one graph node.

    The same loss as the composed ops of cross_entropy, at a fraction of the
    cost: one node whose backward is ``(softmax(input) - onehot) * dloss``. A
    C-contiguous float [N, C] input with int64 labels runs a fused C loop.
    """
    a = input.numpy()
    lab = np.array(label.numpy(), copy=True)      # kept for backward: the caller's may change
    probs = None
    if (a.ndim == 2 and axis == 1 and a.dtype in _KERNEL_DTYPES and a.flags.c_contiguous
            and lab.dtype == np.int64 and lab.shape in ((a.shape[0],), (a.shape[0], 1))):
        lab = np.ascontiguousarray(lab.reshape(-1, 1))
        losses = np.empty((a.shape[0], 1), a.dtype)
        probs = np.empty_like(a)
        if _kernels.softmax_cross_entropy(a, lab.reshape(-1), ignore_index, losses.reshape(-1),
                                          probs) >= 0:
            _hard_labels(a, label, axis, ignore_index)  # raises the error for that label
        kept = lab != ignore_index
    else:
        lab, kept = _hard_labels(a, label, axis, ignore_index)
        shifted = _shifted(a, axis)
        picked = np.take_along_axis(shifted, np.where(kept, lab, 0), axis)
        losses = np.log(np.exp(shifted).sum(axis=axis, keepdims=True)) - picked
        losses = np.where(kept, losses, 0).astype(a.dtype)
    weights = kept.astype(a.dtype)           # d(out)/d(loss of each sample)
    out = losses.reshape(label.shape)        # one loss per label, in its shape (as Paddle)
    if reduction != "none":
        out = losses.sum()
        if reduction == "mean":
            count = kept.sum()
            with np.errstate(divide="ignore", invalid="ignore"):
                out = out / count
                weights = weights / count
    out = np.asarray(out, dtype=a.dtype)
    return make_output_legacy(out, (input,), "softmax_cross_entropy", _softmax_cross_entropy_bw,
                       save=(input,), attrs=(axis, lab, kept, weights, probs, ignore_index))


_KERNEL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _softmax_cross_entropy_bw(node, g):
    x = node.saved_tensors()[0]        # also checks that x was not changed in place
    axis, lab, kept, weights, probs, ignore_index = node.attrs
    if g.ndim:                         # reduction='none': g has the label's shape
        g = reshape(g, list(weights.shape))
    if probs is not None and not is_grad_enabled():
        factors = np.ascontiguousarray((g.numpy() * weights).reshape(-1), dtype=probs.dtype)
        out = np.empty_like(probs)
        if _kernels.softmax_cross_entropy_backward(probs, lab.reshape(-1), factors,
                                                   ignore_index, out) >= 0:
            raise IndexError("cross_entropy backward: a label is out of range")
        return (make_tensor(out),)
    onehot = make_tensor(_one_hot(lab, kept, x.shape[axis], axis, x.numpy().dtype))
    return (multiply(subtract(softmax(x, axis), onehot), multiply(g, make_tensor(weights))),)


# The areas of ops hold the rest of the functional forms.
from pylayer.ops.convolution import (conv1d, conv1d_transpose, conv2d,  # noqa: E402
                                     conv2d_transpose)
from pylayer.ops.dropout import dropout  # noqa: E402
from pylayer.ops.embedding import embedding, one_hot  # noqa: E402
from pylayer.ops.linear import linear  # noqa: E402
from pylayer.ops.normalization import batch_norm, group_norm, layer_norm  # noqa: E402
from pylayer.ops.pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d,  # noqa: E402
                                 avg_pool1d, avg_pool2d, max_pool1d, max_pool2d)
from pylayer.ops.spatial import interpolate, pad, pixel_shuffle  # noqa: E402
