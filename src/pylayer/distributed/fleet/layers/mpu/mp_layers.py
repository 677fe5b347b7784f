"""The tensor-parallel layers (Paddle's ``mpu.mp_layers``): each process of the
model-parallel group holds one part of the weight and the layers' collectives make the
result that of the whole layer."""
import pylayer
import pylayer.distributed as dist
import pylayer.nn.functional as F
from pylayer.distributed.fleet.layers.mpu import mp_ops
from pylayer.extend import MAX_ELEMENTS
from pylayer.distributed.fleet.layers.mpu.random import get_rng_state_tracker
from pylayer.nn import Layer
from pylayer.nn.initializer import Constant

__all__ = ["VocabParallelEmbedding", "ColumnParallelLinear", "RowParallelLinear",
           "ParallelCrossEntropy"]


def _mp_group(mp_group, what):
    """``(group, world_size, rank)`` of ``mp_group``, or of the model-parallel group of
    fleet.init's topology where it is None."""
    if mp_group is not None:
        if not isinstance(mp_group, dist.Group):
            raise TypeError(f"{what}: argument 'mp_group' must be a Group (from "
                            f"pylayer.distributed.new_group) or None, got "
                            f"{type(mp_group).__name__}")
        return mp_group, mp_group.nranks, mp_group.rank
    from pylayer.distributed import fleet
    hcg = fleet.fleet._hcg
    if hcg is None:
        if dist.get_world_size() > 1:
            raise RuntimeError(f"{what}: call fleet.init(is_collective=True, strategy=...) "
                               f"first, or give 'mp_group'")
        return None, 1, 0
    return (hcg.get_model_parallel_group(), hcg.get_model_parallel_world_size(),
            hcg.get_model_parallel_rank())


def _check_size(value, what, name, position):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what}: argument '{name}' (position {position}) must be an int, "
                        f"got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{what}: argument '{name}' (position {position}) must be positive, "
                         f"got {value}")


def _check_elements(rows, columns, what):
    if rows * columns > MAX_ELEMENTS:
        raise ValueError(f"{what}: arguments 'in_features'/'num_embeddings' and "
                         f"'out_features'/'embedding_dim' ask for {rows * columns} elements, "
                         f"more than the {MAX_ELEMENTS} a tensor may have")


def _divisible(size, parts, what, name):
    if size % parts:
        raise ValueError(f"{what}: argument '{name}' ({size}) must be divisible by the "
                         f"model-parallel degree ({parts})")
    return size // parts


def _mark(parameter, is_mp, axis):
    parameter.is_distributed = is_mp
    if is_mp:
        parameter.split_axis = axis


def _create(layer, is_mp, **kwargs):
    if is_mp:
        tracker = get_rng_state_tracker()
        if "model_parallel_rng" in tracker.states_:
            with tracker.rng_state():
                return layer.create_parameter(**kwargs)
    return layer.create_parameter(**kwargs)


class VocabParallelEmbedding(Layer):
    """An embedding whose vocabulary is split in rows among the model-parallel group:
    each process holds ``num_embeddings / world_size`` rows (``weight``, with
    ``is_distributed`` and ``split_axis=0`` where the group has several processes),
    looks up the ids of its part and the parts are summed. ``mp_group`` defaults to the
    model-parallel group of :func:`fleet.init <pylayer.distributed.fleet.init>`.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.meta_parallel import VocabParallelEmbedding
    >>> emb = VocabParallelEmbedding(10, 4)
    >>> emb(pylayer.to_tensor([[1, 2]])).shape, emb.weight.shape
    ([1, 2, 4], [10, 4])
    """

    def __init__(self, num_embeddings, embedding_dim, weight_attr=None, mp_group=None,
                 name=None):
        super().__init__()
        what = "VocabParallelEmbedding()"
        _check_size(num_embeddings, what, "num_embeddings", 1)
        _check_size(embedding_dim, what, "embedding_dim", 2)
        self.model_parallel_group, self.world_size, self.rank = _mp_group(mp_group, what)
        self.origin_num_embeddings = num_embeddings
        self.is_mp = self.world_size > 1
        per_part = _divisible(num_embeddings, self.world_size, what, "num_embeddings")
        _check_elements(per_part, embedding_dim, what)
        self.vocab_start_index = self.rank * per_part
        self._dtype = pylayer.get_default_dtype()
        self._size = [per_part, embedding_dim]
        self._weight_attr = weight_attr
        self._name = name
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.weight = _create(self, self.is_mp, attr=weight_attr, shape=self._size,
                              dtype=self._dtype, is_bias=False)
        _mark(self.weight, self.is_mp, 0)

    def forward(self, x):
        if not self.is_mp:
            return F.embedding(x, weight=self.weight, name=self._name)
        part = mp_ops._c_lookup_table(self.weight, x, start_index=self.vocab_start_index,
                                      vocab_size=self.num_embeddings, name=self._name)
        return mp_ops._mp_allreduce(part, group=self.model_parallel_group)


class ColumnParallelLinear(Layer):
    """A linear layer whose weight ``[in_features, out_features]`` is split in columns
    among the model-parallel group: each process holds ``out_features / world_size``
    columns of ``weight`` (and of ``bias`` where ``has_bias``; the bias starts at 0)
    and computes those outputs; with ``gather_output`` the parts are gathered into the
    whole output, else each process keeps its part (for a :class:`RowParallelLinear`
    with ``input_is_parallel=True`` after it). The input's gradient is summed over the
    group in backward. ``fuse_matmul_bias`` is accepted (there is no fused kernel on
    CPU).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.meta_parallel import ColumnParallelLinear
    >>> layer = ColumnParallelLinear(4, 6, has_bias=True)
    >>> layer(pylayer.ones([2, 4])).shape, layer.weight.shape, layer.bias.shape
    ([2, 6], [4, 6], [6])
    """

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=None,
                 gather_output=True, fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        what = "ColumnParallelLinear()"
        _check_size(in_features, what, "in_features", 1)
        _check_size(out_features, what, "out_features", 2)
        self.model_parallel_group, self.world_size, _ = _mp_group(mp_group, what)
        self._name = name
        self.is_mp = self.world_size > 1
        self.gather_output = bool(gather_output)
        self.in_features = in_features
        self.out_features = out_features
        self.output_size_per_partition = _divisible(out_features, self.world_size, what,
                                                    "out_features")
        _check_elements(in_features, self.output_size_per_partition, what)
        self._weight_attr = weight_attr
        self._dtype = pylayer.get_default_dtype()
        self.weight = _create(self, self.is_mp, shape=[in_features,
                                                       self.output_size_per_partition],
                              attr=weight_attr, dtype=self._dtype, is_bias=False)
        _mark(self.weight, self.is_mp, 1)
        if has_bias:
            self.bias = self.create_parameter(shape=[self.output_size_per_partition],
                                              attr=Constant(value=0.0), dtype=self._dtype,
                                              is_bias=True)
            _mark(self.bias, self.is_mp, 0)
        else:
            self.bias = None
        self.fuse_matmul_bias = fuse_matmul_bias

    def forward(self, x):
        if self.is_mp:
            x = mp_ops._c_identity(x, group=self.model_parallel_group)
        out = F.linear(x, self.weight, self.bias, name=self._name)
        if self.gather_output and self.is_mp:
            out = mp_ops._c_concat(out, group=self.model_parallel_group)
        return out


class RowParallelLinear(Layer):
    """A linear layer whose weight ``[in_features, out_features]`` is split in rows
    among the model-parallel group: each process holds ``in_features / world_size`` rows
    of ``weight`` and multiplies its part of the input's last axis (the part a
    :class:`ColumnParallelLinear` without ``gather_output`` gives, with
    ``input_is_parallel=True``; else the input is split here); the products are summed
    over the group and the whole ``bias`` (``has_bias``, starting at 0; the same in
    every process) is added.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.meta_parallel import RowParallelLinear
    >>> layer = RowParallelLinear(4, 6)
    >>> layer(pylayer.ones([2, 4])).shape, layer.weight.shape, layer.bias.shape
    ([2, 6], [4, 6], [6])
    """

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=True,
                 input_is_parallel=False, fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        what = "RowParallelLinear()"
        _check_size(in_features, what, "in_features", 1)
        _check_size(out_features, what, "out_features", 2)
        self.in_features = in_features
        self.out_features = out_features
        self.input_is_parallel = bool(input_is_parallel)
        self._weight_attr = weight_attr
        self._dtype = pylayer.get_default_dtype()
        self._name = name
        self.model_parallel_group, self.world_size, self.rank = _mp_group(mp_group, what)
        self.is_mp = self.world_size > 1
        self.input_size_per_partition = _divisible(in_features, self.world_size, what,
                                                   "in_features")
        _check_elements(self.input_size_per_partition, out_features, what)
        self.weight = _create(self, self.is_mp, shape=[self.input_size_per_partition,
                                                       out_features],
                              attr=weight_attr, dtype=self._dtype, is_bias=False)
        _mark(self.weight, self.is_mp, 0)
        if has_bias:
            self.bias = self.create_parameter(shape=[out_features], attr=Constant(value=0.0),
                                              dtype=self._dtype, is_bias=True)
            self.bias.is_distributed = False
        else:
            self.bias = None
        self.fuse_matmul_bias = fuse_matmul_bias

    def forward(self, x):
        if not self.is_mp:
            return F.linear(x, self.weight, self.bias, name=self._name)
        if not self.input_is_parallel:
            x = mp_ops._c_split(x, group=self.model_parallel_group)
        out = mp_ops._mp_allreduce(F.linear(x, self.weight, name=self._name),
                                   group=self.model_parallel_group)
        return out + self.bias if self.bias is not None else out


class ParallelCrossEntropy(Layer):
    """Softmax cross entropy of logits whose last axis (the vocabulary) is split among
    the model-parallel group (the output of a :class:`ColumnParallelLinear` without
    ``gather_output``); ``label`` holds ids of the whole vocabulary. The loss is per
    example, with a trailing axis of 1 (0 where the label is ``ignore_index``).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.meta_parallel import ParallelCrossEntropy
    >>> loss = ParallelCrossEntropy()(pylayer.zeros([2, 4]), pylayer.to_tensor([[0], [3]]))
    >>> loss.shape
    [2, 1]
    """

    def __init__(self, mp_group=None, name=None, ignore_index=-100):
        super().__init__()
        what = "ParallelCrossEntropy()"
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError(f"{what}: argument 'ignore_index' (position 3) must be an int, "
                            f"got {type(ignore_index).__name__}")
        if not -2 ** 63 <= ignore_index < 2 ** 63:
            raise ValueError(f"{what}: argument 'ignore_index' (position 3) must fit in int64, "
                             f"got {ignore_index}")
        self.name = name
        self.model_parallel_group, self.world_size, self.rank = _mp_group(mp_group, what)
        self.is_mp = self.world_size > 1
        self.ignore_index = ignore_index

    def forward(self, input, label):
        for name, value in (("input", input), ("label", label)):
            if not isinstance(value, pylayer.Tensor):
                raise TypeError(f"ParallelCrossEntropy.forward(): argument '{name}' must be a "
                                f"Tensor, got {type(value).__name__}")
        if not self.is_mp:
            if label.ndim == input.ndim - 1:
                label = label.unsqueeze(-1)
            return F.cross_entropy(input, label, reduction="none",
                                   ignore_index=self.ignore_index)
        return mp_ops._c_softmax_with_cross_entropy(input, label,
                                                    group=self.model_parallel_group,
                                                    ignore_index=self.ignore_index)
