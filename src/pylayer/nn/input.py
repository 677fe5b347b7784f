"""Inputs given as integer ids: ``one_hot``, ``embedding`` and the ``Embedding`` layer."""
import numpy as np

from pylayer._core.tensor import Tensor, make_tensor
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops._arguments import MAX_ELEMENTS, check_count, check_int
from pylayer.ops.arithmetic import multiply
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.dispatch import op
from pylayer.ops.indexing import take

__all__ = ["one_hot", "embedding", "Embedding"]


def _ids(x, fn, limit):
    """The integer array of ``x``, every id in ``[0, limit)`` (ValueError otherwise)."""
    x = as_tensor_arg(x, fn, "x", 1)
    ids = x.numpy()
    if ids.dtype.kind not in "iu":
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
    check_count(ids.size * num_classes, fn, "num_classes")
    return make_tensor(np.eye(num_classes, dtype=np.float32)[ids])


def _refuse_max_norm(max_norm, scale_grad_by_freq, fn):
    if max_norm is not None:
        raise ValueError(f"{fn}(): argument 'max_norm' is not supported by pylayer (rows are "
                         f"never renormalized); leave it None")
    if scale_grad_by_freq:
        raise ValueError(f"{fn}(): argument 'scale_grad_by_freq' is not supported by pylayer; "
                         f"leave it False")


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
    _refuse_max_norm(max_norm, scale_grad_by_freq, fn)
    if not isinstance(weight, Tensor) or weight.ndim != 2 or weight.numpy().dtype.kind != "f":
        raise TypeError(f"{fn}(): argument 'weight' must be a 2-D floating-point Tensor "
                        f"[num, dim], got " + (f"shape {weight.shape} and dtype "
                                               f"{weight.dtype.name}" if isinstance(weight, Tensor)
                                               else type(weight).__name__))
    count = weight.shape[0]
    ids = _ids(x, fn, count)
    out = take(weight, (ids,), True, fn)
    if padding_idx is None:
        return out
    padding_idx = _padding_index(padding_idx, count, fn)
    keep = (ids != padding_idx)[..., None].astype(weight.numpy().dtype)
    return multiply(out, make_tensor(keep))


def _padding_index(padding_idx, count, fn):
    padding_idx = check_int(padding_idx, fn, "padding_idx")
    if not -count <= padding_idx < count:
        raise ValueError(f"{fn}(): argument 'padding_idx' must be in [{-count}, {count}), got "
                         f"{padding_idx}")
    return padding_idx % count


class Embedding(Layer):
    """A learned table of ``num_embeddings`` vectors of size ``embedding_dim``.

    The weight starts from ``XavierUniform``, as in Paddle; the row at
    ``padding_idx`` starts at zeros, reads as zeros and gets no gradient
    (see :func:`pylayer.nn.functional.embedding`).

    >>> import pylayer
    >>> emb = pylayer.nn.Embedding(10, 4, padding_idx=0)
    >>> out = emb(pylayer.to_tensor([[0, 3]]))
    >>> out.shape, out.numpy()[0, 0].tolist()
    ([1, 2, 4], [0.0, 0.0, 0.0, 0.0])
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, *, sparse=False, weight_attr=None, name=None):
        super().__init__()
        fn = "Embedding"
        _refuse_max_norm(max_norm, False, fn)
        self._num_embeddings = check_int(num_embeddings, fn, "num_embeddings", minimum=1)
        self._embedding_dim = check_int(embedding_dim, fn, "embedding_dim", minimum=1)
        if self._num_embeddings * self._embedding_dim > MAX_ELEMENTS:
            raise ValueError(f"{fn}(): num_embeddings * embedding_dim is more than the "
                             f"{MAX_ELEMENTS} elements a tensor may have")
        self._padding_idx = None if padding_idx is None else _padding_index(
            padding_idx, self._num_embeddings, fn)
        self._sparse = sparse
        self.weight = self.create_parameter(
            [self._num_embeddings, self._embedding_dim],
            attr=ParamAttr._to_attr(weight_attr, fn, "weight_attr"))
        if self._padding_idx is not None and isinstance(self.weight, Tensor):
            with_zero_row = self.weight.numpy().copy()
            with_zero_row[self._padding_idx] = 0
            self.weight._set_array_inplace(with_zero_row)

    def forward(self, x):
        return embedding(x, self.weight, self._padding_idx, sparse=self._sparse)

    def extra_repr(self):
        return f"{self._num_embeddings}, {self._embedding_dim}, padding_idx={self._padding_idx}"
