"""Inputs given as integer ids: ``one_hot`` and ``embedding``.

Both are built from recorded ops (``take`` of the weight's rows, ``multiply``
by the mask of padding ids), which give the gradients.
"""
import numpy as np

from pylayer._kernels.dtypes import is_floating, is_integer
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._arguments import check_count, check_int
from pylayer.ops.arithmetic import multiply
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.dispatch import op
from pylayer.ops.indexing import take

__all__ = ["one_hot", "embedding"]


def _ids(x, fn, limit):
    """The integer array of ``x``, every id in ``[0, limit)`` (ValueError otherwise)."""
    x = as_tensor_arg(x, fn, "x", 1)
    ids = x.numpy()
    if not is_integer(ids.dtype):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be an integer Tensor, got "
                        f"dtype {x.dtype.name}")
    if ids.size and limit is not None and (ids.min() < 0 or ids.max() >= limit):
        raise ValueError(f"{fn}(): argument 'x' must hold ids in [0, {limit}), got values "
                         f"from {ids.min()} to {ids.max()}")
    return ids


@op
def one_hot(x, num_classes, name=None):
    """float32 vectors with a 1 at each id of ``x``: shape ``x.shape + [num_classes]``.

    ``num_classes=-1`` takes the largest id plus one. Ids outside
    ``[0, num_classes)`` are a ``ValueError``, as in Paddle.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.one_hot(pylayer.to_tensor([1, 0, 3]), 4).numpy()
    array([[0., 1., 0., 0.],
           [1., 0., 0., 0.],
           [0., 0., 0., 1.]], dtype=float32)
    """
    fn = "one_hot"
    num_classes = check_int(num_classes, fn, "num_classes", minimum=-1)
    if num_classes == -1:
        ids = _ids(x, fn, None)
        num_classes = int(ids.max()) + 1 if ids.size else 0
    if num_classes == 0:
        raise ValueError(f"{fn}(): argument 'num_classes' must be positive (or -1 with some "
                         f"ids), got {num_classes}")
    ids = _ids(x, fn, num_classes)
    check_count(ids.size * num_classes, fn, "num_classes", np.float32)
    out = np.zeros(ids.shape + (num_classes,), dtype=np.float32)
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return make_tensor(out)


@op
def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    """Rows of ``weight`` ``[num, dim]`` at the ids of ``x``: shape ``x.shape + [dim]``.

    Ids outside ``[0, num)`` are a ``ValueError``. Where an id equals
    ``padding_idx`` (negative counts from the end) the output is zeros and no
    gradient reaches ``weight``, as in Paddle. ``sparse`` is accepted and
    ignored (gradients are dense); ``max_norm`` and ``scale_grad_by_freq``
    are not supported (a ``ValueError`` unless left at their defaults).

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> w = pylayer.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    >>> F.embedding(pylayer.to_tensor([2, 0, 0]), w, padding_idx=0).numpy()
    array([[3., 3.],
           [0., 0.],
           [0., 0.]], dtype=float32)
    """
    fn = "embedding"
    if not isinstance(weight, Tensor) or weight.ndim != 2 or not is_floating(weight.numpy().dtype):
        raise TypeError(f"{fn}(): argument 'weight' must be a 2-D floating-point Tensor "
                        f"[num, dim], got " + (f"shape {weight.shape} and dtype "
                                               f"{weight.dtype.name}" if isinstance(weight, Tensor)
                                               else type(weight).__name__))
    count = weight.shape[0]
    padding_idx = check_embedding_arguments(padding_idx, count, max_norm, scale_grad_by_freq, fn)
    ids = _ids(x, fn, count)
    out = take(weight, (ids,), True, fn)
    if padding_idx is None:
        return out
    keep = (ids != padding_idx)[..., None].astype(weight.numpy().dtype)
    return multiply(out, make_tensor(keep))


def check_embedding_arguments(padding_idx, count, max_norm, scale_grad_by_freq, fn):
    """Check embedding's settings (for ``embedding`` and ``Embedding``) for a table of
    ``count`` rows; returns ``padding_idx`` counted from 0 (or None)."""
    if max_norm is not None:
        raise ValueError(f"{fn}(): argument 'max_norm' is not supported by pylayer (rows are "
                         f"never renormalized); leave it None")
    if scale_grad_by_freq:
        raise ValueError(f"{fn}(): argument 'scale_grad_by_freq' is not supported by pylayer; "
                         f"leave it False")
    if padding_idx is None:
        return None
    padding_idx = check_int(padding_idx, fn, "padding_idx")
    if not -count <= padding_idx < count:
        raise ValueError(f"{fn}(): argument 'padding_idx' must be in [{-count}, {count}), got "
                         f"{padding_idx}")
    return padding_idx % count
