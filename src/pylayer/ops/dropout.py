"""Dropout: ``dropout`` zeroes random elements, drawn from pylayer's seeded stream.

The op keeps its scaled mask, a Tensor it made itself, as a second input that
takes no gradient: the gradient is the output's gradient times the mask.
"""
from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops import creation
from pylayer.ops._arguments import check_axis, check_choice, check_int, check_number, float_tensor
from pylayer.ops.arithmetic import multiply
from pylayer.ops.dispatch import op

__all__ = ["dropout"]


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
