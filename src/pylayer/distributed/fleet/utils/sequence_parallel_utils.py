"""Sequence parallelism (Paddle's ``fleet.utils.sequence_parallel_utils``): between the
tensor-parallel layers, activations are split along their first axis (the sequence)
among the model-parallel group instead of repeated in every process. The PyLayers move
between the two forms; parameters used on the split activations (layer norms, the bias
of :class:`RowSequenceParallelLinear`) get their gradients summed over the group by the
hooks of :func:`register_sequence_parallel_allreduce_hooks`."""
import pylayer
import pylayer.distributed as dist
from pylayer.autograd import PyLayer
from pylayer.distributed.fleet.layers.mpu.mp_layers import (ColumnParallelLinear,
                                                           RowParallelLinear)

__all__ = []


def _mp_group(group=None):
    if group is not None:
        return group
    from pylayer.distributed import fleet
    hcg = fleet.fleet._hcg
    if hcg is None:
        if dist.get_world_size() > 1:
            raise RuntimeError("sequence parallel: call fleet.init(is_collective=True, "
                               "strategy=...) first")
        return dist.init_parallel_env()
    return hcg.get_model_parallel_group()


def _check(input, what):
    if not isinstance(input, (pylayer.Tensor, pylayer.static.Variable)):
        raise TypeError(f"{what}: argument 'input' (position 1) must be a Tensor, got "
                        f"{type(input).__name__}")
    if input.ndim == 0:
        raise ValueError(f"{what}: argument 'input' (position 1) must have a sequence axis "
                         f"(axis 0), got a 0-d Tensor")


def _divisible(input, group, what):
    if input.shape[0] % group.nranks:
        raise ValueError(f"{what}: Input sequence length {input.shape[0]} can't be divided "
                         f"exactly by sequence parallelism {group.nranks}")
    return input.shape[0] // group.nranks


def scatter(input, group=None):
    """This process's part of ``input`` along axis 0 (the model-parallel rank-th of
    ``nranks`` equal parts).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils import sequence_parallel_utils as sp
    >>> sp.scatter(pylayer.ones([4, 2])).shape
    [4, 2]
    """
    _check(input, "scatter()")
    group = _mp_group(group)
    size = _divisible(input, group, "scatter()")
    return input[group.rank * size:(group.rank + 1) * size].clone()


def all_gather(input, group=None):
    """The parts of every process of the model-parallel group concatenated along axis 0.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils import sequence_parallel_utils as sp
    >>> sp.all_gather(pylayer.ones([4, 2])).shape
    [4, 2]
    """
    _check(input, "all_gather()")
    group = _mp_group(group)
    if group.nranks == 1:
        return input.clone()
    parts = []
    dist.all_gather(parts, input, group=group)
    return pylayer.concat(parts, axis=0)


def reduce_scatter(input, group=None):
    """The sum of ``input`` over the model-parallel group, of which this process keeps
    its part along axis 0.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils import sequence_parallel_utils as sp
    >>> sp.reduce_scatter(pylayer.ones([4, 2])).shape
    [4, 2]
    """
    _check(input, "reduce_scatter()")
    group = _mp_group(group)
    size = _divisible(input, group, "reduce_scatter()")
    if group.nranks == 1:
        return input.clone()
    out = pylayer.empty([size] + input.shape[1:], dtype=input.dtype)
    dist.reduce_scatter(out, list(pylayer.split(input, group.nranks, axis=0)), group=group)
    return out


class ScatterOp(PyLayer):
    """Forward :func:`scatter` (keep this process's part of the sequence), backward
    :func:`all_gather` of the gradient parts.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils.sequence_parallel_utils import ScatterOp
    >>> x = pylayer.ones([4, 2]); x.stop_gradient = False
    >>> ScatterOp.apply(x).sum().backward()
    >>> x.grad.shape
    [4, 2]
    """

    @staticmethod
    def forward(ctx, input, group=None):
        ctx.group = _mp_group(group)
        return scatter(input, ctx.group)

    @staticmethod
    def backward(ctx, grad):
        return all_gather(grad, ctx.group)


class GatherOp(PyLayer):
    """Forward :func:`all_gather` of the sequence parts, backward :func:`scatter` (each
    process keeps its part of the gradient, which every process holds whole).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils.sequence_parallel_utils import GatherOp
    >>> GatherOp.apply(pylayer.ones([2, 3])).shape
    [2, 3]
    """

    @staticmethod
    def forward(ctx, input, group=None):
        ctx.group = _mp_group(group)
        return all_gather(input, ctx.group)

    @staticmethod
    def backward(ctx, grad):
        return scatter(grad, ctx.group)


class AllGatherOp(PyLayer):
    """Forward :func:`all_gather` of the sequence parts, backward :func:`reduce_scatter`
    of the gradient (each process computed a different gradient of the whole sequence:
    they are summed and each keeps its part). The input of a column-parallel layer in
    sequence parallelism.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils.sequence_parallel_utils import AllGatherOp
    >>> AllGatherOp.apply(pylayer.ones([2, 3])).shape
    [2, 3]
    """

    @staticmethod
    def forward(ctx, input, group=None):
        ctx.group = _mp_group(group)
        return all_gather(input, ctx.group)

    @staticmethod
    def backward(ctx, grad):
        return reduce_scatter(grad, ctx.group)


class ReduceScatterOp(PyLayer):
    """Forward :func:`reduce_scatter` (sum the processes' partial results and keep this
    process's part of the sequence), backward :func:`all_gather` of the gradient parts.
    The output of a row-parallel layer in sequence parallelism.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils.sequence_parallel_utils import ReduceScatterOp
    >>> ReduceScatterOp.apply(pylayer.ones([2, 3])).shape
    [2, 3]
    """

    @staticmethod
    def forward(ctx, input, group=None):
        ctx.group = _mp_group(group)
        return reduce_scatter(input, ctx.group)

    @staticmethod
    def backward(ctx, grad):
        return all_gather(grad, ctx.group)


def mark_as_sequence_parallel_parameter(parameter):
    """Mark ``parameter`` as used on sequence-split activations: its gradient is summed
    over the model-parallel group by :func:`register_sequence_parallel_allreduce_hooks`.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils import sequence_parallel_utils as sp
    >>> norm = pylayer.nn.LayerNorm(4)
    >>> sp.mark_as_sequence_parallel_parameter(norm.weight)
    >>> sp.is_sequence_parallel_parameter(norm.weight), sp.is_sequence_parallel_parameter(norm.bias)
    (True, False)
    """
    if not isinstance(parameter, pylayer.Tensor):
        raise TypeError(f"mark_as_sequence_parallel_parameter(): argument 'parameter' "
                        f"(position 1) must be a Parameter, got {type(parameter).__name__}")
    parameter.sequence_parallel = True


def is_sequence_parallel_parameter(parameter):
    """Whether ``parameter`` was marked by :func:`mark_as_sequence_parallel_parameter`.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils import sequence_parallel_utils as sp
    >>> sp.is_sequence_parallel_parameter(pylayer.nn.Linear(2, 2).weight)
    False
    """
    return getattr(parameter, "sequence_parallel", False)


def register_sequence_parallel_allreduce_hooks(model, accumulation_steps,
                                               fuse_sequence_parallel_allreduce):
    """Sum the gradients of ``model``'s marked parameters over the model-parallel group
    in backward (nothing where the group has one process, ``accumulation_steps`` is not
    positive, or the environment is not initialised, as in Paddle). The sum is taken of
    each backward's gradient as it arrives, which over ``accumulation_steps`` steps
    gives the sum Paddle takes of the accumulated gradient; ``fuse_sequence_parallel_allreduce``
    is accepted (the parameters are reduced one by one).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils import sequence_parallel_utils as sp
    >>> sp.register_sequence_parallel_allreduce_hooks(pylayer.nn.LayerNorm(4), 1, False)
    """
    from pylayer.nn import Layer
    if not isinstance(model, Layer):
        raise TypeError(f"register_sequence_parallel_allreduce_hooks(): argument 'model' "
                        f"(position 1) must be a Layer, got {type(model).__name__}")
    if isinstance(accumulation_steps, bool) or not isinstance(accumulation_steps, int):
        raise TypeError(f"register_sequence_parallel_allreduce_hooks(): argument "
                        f"'accumulation_steps' (position 2) must be an int, got "
                        f"{type(accumulation_steps).__name__}")
    if accumulation_steps <= 0 or not dist.is_initialized():
        return
    group = _mp_group()
    if group.nranks <= 1:
        return

    def summed(grad):
        out = grad.clone()
        dist.all_reduce(out, group=group)
        return out
    for p in model.parameters():
        if is_sequence_parallel_parameter(p) and not p.stop_gradient:
            p.register_hook(summed)


def _sp_group(mp_group, what):
    from pylayer.distributed.fleet.layers.mpu.mp_layers import _mp_group as layer_group
    return layer_group(mp_group, what)


class ColumnSequenceParallelLinear(ColumnParallelLinear):
    """:class:`ColumnParallelLinear` on a sequence-split input: the parts of the
    sequence (axis 0) are gathered (:class:`AllGatherOp`) before the product; each
    process keeps its columns of the output (``gather_output`` must be False). Needs a
    model-parallel group of several processes, as in Paddle.
    """

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=None,
                 gather_output=True, fuse_matmul_bias=False, mp_group=None, name=None):
        what = "ColumnSequenceParallelLinear()"
        if _sp_group(mp_group, what)[1] <= 1:
            raise ValueError(f"{what}: tensor parallel degree must be greater than 1 in "
                             f"sequence parallel")
        if gather_output is not False:
            raise ValueError(f"{what}: argument 'gather_output' must be False (If "
                             f"sequence_parallel is True, gather_output is False)")
        super().__init__(in_features, out_features, weight_attr, has_bias, False,
                         fuse_matmul_bias, mp_group, name)

    def forward(self, x):
        x = AllGatherOp.apply(x, self.model_parallel_group)
        return pylayer.nn.functional.linear(x, self.weight, self.bias, name=self._name)


class RowSequenceParallelLinear(RowParallelLinear):
    """:class:`RowParallelLinear` whose output is left split along the sequence: the
    partial products are summed and scattered (:class:`ReduceScatterOp`), then the bias
    is added (it is marked as a sequence-parallel parameter). ``input_is_parallel`` must
    be True, as in Paddle.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils.sequence_parallel_utils import RowSequenceParallelLinear
    >>> layer = RowSequenceParallelLinear(4, 2, input_is_parallel=True)
    >>> layer(pylayer.ones([3, 1, 4])).shape
    [3, 1, 2]
    """

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=True,
                 input_is_parallel=False, fuse_matmul_bias=False, mp_group=None, name=None):
        what = "RowSequenceParallelLinear()"
        if input_is_parallel is not True:
            raise ValueError(f"{what}: argument 'input_is_parallel' must be True (If "
                             f"sequence_parallel is True, input_is_parallel should be true)")
        super().__init__(in_features, out_features, weight_attr, has_bias, True,
                         fuse_matmul_bias, mp_group, name)
        if self.is_mp and self.bias is not None:
            mark_as_sequence_parallel_parameter(self.bias)

    def forward(self, x):
        if not self.is_mp:
            return pylayer.nn.functional.linear(x, self.weight, self.bias, name=self._name)
        out = ReduceScatterOp.apply(pylayer.nn.functional.linear(x, self.weight,
                                                                 name=self._name),
                                    self.model_parallel_group)
        return out + self.bias if self.bias is not None else out
