"""The ``Embedding`` layer (its functional form is in :mod:`pylayer.ops.embedding`)."""
from pylayer.extend import MAX_ELEMENTS, Tensor, check_int
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops.embedding import check_embedding_arguments, embedding

__all__ = ["Embedding"]


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
        self._num_embeddings = check_int(num_embeddings, fn, "num_embeddings", minimum=1)
        self._embedding_dim = check_int(embedding_dim, fn, "embedding_dim", minimum=1)
        if self._num_embeddings * self._embedding_dim > MAX_ELEMENTS:
            raise ValueError(f"{fn}(): num_embeddings * embedding_dim is more than the "
                             f"{MAX_ELEMENTS} elements a tensor may have")
        self._padding_idx = check_embedding_arguments(padding_idx, self._num_embeddings,
                                                      max_norm, False, fn)
        self._sparse = sparse
        self.weight = self.create_parameter(
            [self._num_embeddings, self._embedding_dim],
            attr=ParamAttr._to_attr(weight_attr, fn, "weight_attr"))
        if sparse and isinstance(self.weight, Tensor):
            self.weight.sparse_gradient = True      # optimizers read it (Adam's decay)
        if self._padding_idx is not None and isinstance(self.weight, Tensor):
            with_zero_row = self.weight.numpy().copy()
            with_zero_row[self._padding_idx] = 0
            self.weight._set_array_inplace(with_zero_row)

    def forward(self, x):
        return embedding(x, self.weight, self._padding_idx, sparse=self._sparse)

    def extra_repr(self):
        return f"{self._num_embeddings}, {self._embedding_dim}, padding_idx={self._padding_idx}"
