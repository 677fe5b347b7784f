"""Dropout: ``dropout`` zeroes random elements, drawn from pylayer's seeded stream.

``dropout1d``/``dropout2d``/``dropout3d`` drop whole channels (one draw per
sample and channel); ``alpha_dropout`` and ``feature_alpha_dropout`` set the
dropped elements (or channels) to SELU's negative saturation and rescale so
that a standardized input keeps its mean and variance.

The op keeps its scaled mask, a Tensor it made itself, as a second input that
takes no gradient: the gradient is the output's gradient times the mask.
"""
import warnings

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops import creation
from pylayer.ops._arguments import (check_axis, check_choice, check_int, check_number,
                                    describe, float_tensor)
from pylayer.ops.arithmetic import add, multiply
from pylayer.ops.dispatch import op

__all__ = ["dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
           "feature_alpha_dropout"]


def check_dropout_arguments(p, axis, mode, fn):
    """Check dropout's settings (for ``dropout`` and ``Dropout``); returns ``p`` as a float."""
    p = check_number(p, fn, "p", minimum=0.0, maximum=1.0)
    check_choice(mode, fn, "mode", ("upscale_in_train", "downscale_in_infer"))
    for item in axis if isinstance(axis, (list, tuple)) else [axis]:
        if item is not None:
            check_int(item, fn, "axis")
    return p


DROPOUT = Op("dropout", inputs=("x", "mask"), keeps=("mask",),
             vjp=(lambda g, mask: multiply(g, mask), None))


@op
def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """Zero each element with probability ``p`` (drawn from pylayer's seeded stream).

    ``mode='upscale_in_train'`` scales the kept elements by ``1 / (1 - p)`` in
    training and returns ``x`` unchanged otherwise; ``'downscale_in_infer'``
    keeps them as they are in training and scales by ``1 - p`` otherwise.
    ``axis`` draws one decision per index along those axes only. Saves the
    scaled mask.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.ones([4])
    >>> F.dropout(x, p=0.0).numpy()
    array([1., 1., 1., 1.], dtype=float32)
    >>> F.dropout(x, p=0.5, training=False) is x
    True
    """
    p = check_dropout_arguments(p, axis, mode, "dropout")
    x = float_tensor(x, "dropout")
    if not training:
        return x if mode == "upscale_in_train" else multiply(x, 1.0 - p)
    if p == 0:
        return x
    a = x.numpy()
    shape = list(a.shape)
    if axis is not None:
        axes = {check_axis(v, a.ndim, "dropout") for v in (axis if isinstance(axis, (list, tuple))
                                                      else [axis])}
        shape = [s if i in axes else 1 for i, s in enumerate(shape)]
    keep = creation.get_rng().random(shape) >= p
    scale = 1.0 / (1.0 - p) if mode == "upscale_in_train" and p < 1 else 1.0
    mask = (keep * scale).astype(a.dtype)
    return make_output(DROPOUT, a * mask, (x, make_tensor(mask)))


def _channel_dropout(x, p, training, data_format, rank, formats, fn):
    """Dropout of whole channels of a ``rank``-dimensional ``x`` in one of ``formats``
    (channels first, then channels last)."""
    check_choice(data_format, fn, "data_format", formats)
    p = check_dropout_arguments(p, None, "upscale_in_train", fn)
    x = float_tensor(x, fn)
    if x.ndim != rank:
        raise ValueError(f"{fn}(): argument 'x' must have {rank} dimensions, got shape "
                         f"{x.shape}")
    return dropout(x, p, axis=[0, 1] if data_format == formats[0] else [0, rank - 1],
                   training=training)


@op
def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of ``[N, C, L]`` (or ``[C, L]``) input with probability ``p``,
    scaling the kept ones by ``1 / (1 - p)`` in training.

    As in Paddle, one draw per channel serves all the samples of the batch, and
    ``inplace=True`` is accepted with a warning and ``input`` is left unchanged.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.dropout1d(pylayer.ones([1, 2, 3]), p=0.0).numpy()
    array([[[1., 1., 1.],
            [1., 1., 1.]]], dtype=float32)
    """
    fn = "dropout1d"
    p = check_dropout_arguments(p, None, "upscale_in_train", fn)
    x = float_tensor(input, fn, "input")
    if x.ndim not in (2, 3):
        raise RuntimeError(f"{fn}(): argument 'input' must have 2 or 3 dimensions, got shape "
                           f"{x.shape}")
    if not isinstance(inplace, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument 'inplace' must be a bool, got {describe(inplace)}")
    if inplace:
        warnings.warn("dropout1d(): inplace=True is not supported (as in Paddle) and is "
                      "ignored", stacklevel=2)
    if x.ndim == 2:
        return dropout(x.unsqueeze(0), p, axis=1, training=training).squeeze(0)
    return dropout(x, p, axis=1, training=training)


@op
def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    """Zero whole channels of ``[N, C, H, W]`` input (``'NCHW'`` or ``'NHWC'``) with
    probability ``p``, scaling the kept ones by ``1 / (1 - p)`` in training.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.dropout2d(pylayer.ones([1, 2, 1, 2]), p=0.5, training=False).numpy().ravel()
    array([1., 1., 1., 1.], dtype=float32)
    """
    return _channel_dropout(x, p, training, data_format, 4, ("NCHW", "NHWC"), "dropout2d")


@op
def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    """Zero whole channels of ``[N, C, D, H, W]`` input (``'NCDHW'`` or ``'NDHWC'``) with
    probability ``p``, scaling the kept ones by ``1 / (1 - p)`` in training.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.dropout3d(pylayer.ones([1, 2, 1, 1, 2]), p=0.0).numpy().ravel()
    array([1., 1., 1., 1.], dtype=float32)
    """
    return _channel_dropout(x, p, training, data_format, 5, ("NCDHW", "NDHWC"), "dropout3d")


# SELU's constants: the dropped value is its negative saturation -alpha * scale.
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _alpha_dropout(x, p, training, feature, fn):
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        raise TypeError(f"{fn}(): argument 'p' must be a float or int, got {describe(p)}")
    p = check_number(p, fn, "p", minimum=0.0, maximum=1.0)
    x = float_tensor(x, fn)
    if not training:
        return x
    if p == 1:
        return multiply(x, 0.0)
    if feature and x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' must have at least 2 dimensions, got shape "
                         f"{x.shape}")
    shape = x.shape[:2] + [1] * (x.ndim - 2) if feature else x.shape
    keep = creation.get_rng().random(shape) >= p
    saturation = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * saturation ** 2)) ** -0.5
    dtype = x.numpy().dtype
    shift = (a * saturation * ~keep - a * saturation * p).astype(dtype)
    return add(multiply(x, make_tensor((a * keep).astype(dtype))), make_tensor(shift))


@op
def alpha_dropout(x, p=0.5, training=True, name=None):
    """Dropout for SELU networks: each element is dropped with probability ``p`` to
    ``-alpha * scale`` of SELU, and the result is rescaled by ``a`` and shifted by
    ``b`` so that a zero-mean, unit-variance input keeps its mean and variance.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([1.0, -1.0])
    >>> F.alpha_dropout(x, p=0.0).numpy(), F.alpha_dropout(x, training=False) is x
    (array([ 1., -1.], dtype=float32), True)
    """
    return _alpha_dropout(x, p, training, False, "alpha_dropout")


@op
def feature_alpha_dropout(x, p=0.5, training=True, name=None):
    """:func:`alpha_dropout` of whole channels: one draw per sample and channel (axes
    0 and 1) of an input of at least 2 dimensions.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.feature_alpha_dropout(pylayer.ones([1, 2, 2]), p=0.0).numpy()
    array([[[1., 1.],
            [1., 1.]]], dtype=float32)
    """
    return _alpha_dropout(x, p, training, True, "feature_alpha_dropout")
