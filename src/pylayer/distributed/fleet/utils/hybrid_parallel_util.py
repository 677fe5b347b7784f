"""Helpers of hybrid-parallel training loops written by hand (Paddle's
``fleet.utils.hybrid_parallel_util``): making the replicated parameters equal over a
group, averaging gradients over the data-parallel group, and giving every process of
a model-parallel group the same input batch."""
import pylayer
import pylayer.distributed as dist
from pylayer.nn import Layer

__all__ = []


def _check_model_and_hcg(model, hcg, what):
    from pylayer.distributed.fleet.base.topology import HybridCommunicateGroup
    if not isinstance(model, Layer):
        raise TypeError(f"{what}(): argument 'model' (position 1) must be a Layer, got "
                        f"{type(model).__name__}")
    if not isinstance(hcg, HybridCommunicateGroup):
        raise TypeError(f"{what}(): argument 'hcg' (position 2) must be the "
                        f"HybridCommunicateGroup of fleet.init, got {type(hcg).__name__}")


def _sync_params_buffers(model, group, src_rank, is_model_parallel):
    if group is None or group.nranks <= 1:
        return
    with pylayer.no_grad():
        for tensor in list(model.parameters()) + list(model.buffers()):
            if is_model_parallel and getattr(tensor, "is_distributed", False):
                continue
            if getattr(tensor, "no_sync", False):
                continue
            dist.broadcast(tensor, src_rank, group=group)


def broadcast_mp_parameters(model, hcg, fuse_params=True):
    """Give every process of the model-parallel group its first process's values of
    ``model``'s parameters and buffers that are not split (``is_distributed`` False).
    ``fuse_params`` is accepted (they are sent one by one).

    >>> import pylayer
    >>> from pylayer.distributed import fleet
    >>> from pylayer.distributed.fleet.utils.hybrid_parallel_util import broadcast_mp_parameters
    >>> hcg = fleet.init(is_collective=True).get_hybrid_communicate_group()
    >>> broadcast_mp_parameters(pylayer.nn.Linear(2, 2), hcg)
    """
    _check_model_and_hcg(model, hcg, "broadcast_mp_parameters")
    _sync_params_buffers(model, hcg.get_model_parallel_group(),
                         hcg.get_model_parallel_group_src_rank(), True)


def broadcast_dp_parameters(model, hcg, fuse_params=True):
    """Give every process of the data-parallel group its first process's values of all
    of ``model``'s parameters and buffers.

    >>> import pylayer
    >>> from pylayer.distributed import fleet
    >>> from pylayer.distributed.fleet.utils.hybrid_parallel_util import broadcast_dp_parameters
    >>> hcg = fleet.init(is_collective=True).get_hybrid_communicate_group()
    >>> broadcast_dp_parameters(pylayer.nn.Linear(2, 2), hcg)
    """
    _check_model_and_hcg(model, hcg, "broadcast_dp_parameters")
    _sync_params_buffers(model, hcg.get_data_parallel_group(),
                         hcg.get_data_parallel_group_src_rank(), False)


def broadcast_sharding_parameters(model, hcg, fuse_params=True):
    """As :func:`broadcast_dp_parameters`, over the sharding group.

    >>> import pylayer
    >>> from pylayer.distributed import fleet
    >>> from pylayer.distributed.fleet.utils.hybrid_parallel_util import (
    ...     broadcast_sharding_parameters)
    >>> hcg = fleet.init(is_collective=True).get_hybrid_communicate_group()
    >>> broadcast_sharding_parameters(pylayer.nn.Linear(2, 2), hcg)
    """
    _check_model_and_hcg(model, hcg, "broadcast_sharding_parameters")
    _sync_params_buffers(model, hcg.get_sharding_parallel_group(),
                         hcg.get_sharding_parallel_group_src_rank(), False)


def broadcast_sep_parameters(model, hcg, fuse_params=True):
    """As :func:`broadcast_dp_parameters`, over the sep group (sep degree above 1).

    >>> import pylayer
    >>> from pylayer.distributed import fleet
    >>> from pylayer.distributed.fleet.utils.hybrid_parallel_util import broadcast_sep_parameters
    >>> hcg = fleet.init(is_collective=True).get_hybrid_communicate_group()
    >>> broadcast_sep_parameters(pylayer.nn.Linear(2, 2), hcg)
    Traceback (most recent call last):
    ...
    AssertionError: HybridCommunicateGroup.get_sep_parallel_group(): sep not exist (the sep degree is 1)
    """
    _check_model_and_hcg(model, hcg, "broadcast_sep_parameters")
    _sync_params_buffers(model, hcg.get_sep_parallel_group(),
                         hcg.get_sep_parallel_group_src_rank(), False)


def fused_allreduce_gradients_with_group(parameter_list, group, bucket_size=128 * 1024 * 1024,
                                         scale=None):
    """Sum the gradients of ``parameter_list`` over ``group`` (the world where None),
    then multiply them by ``scale`` where given; parameters without a gradient are
    skipped. ``bucket_size`` is accepted (they are reduced one by one).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils.hybrid_parallel_util import (
    ...     fused_allreduce_gradients_with_group)
    >>> layer = pylayer.nn.Linear(2, 1)
    >>> layer(pylayer.ones([1, 2])).sum().backward()
    >>> fused_allreduce_gradients_with_group(layer.parameters(), None, scale=0.5)
    >>> layer.bias.grad.numpy()
    array([0.5], dtype=float32)
    """
    what = "fused_allreduce_gradients_with_group()"
    parameters = list(parameter_list) if not isinstance(parameter_list, (str, bytes)) else None
    if parameters is None or not all(isinstance(p, pylayer.Tensor) for p in parameters):
        raise TypeError(f"{what}: argument 'parameter_list' (position 1) must be a list of "
                        f"parameters, got {type(parameter_list).__name__}")
    if group is not None and not isinstance(group, dist.Group):
        raise TypeError(f"{what}: argument 'group' (position 2) must be a Group or None, got "
                        f"{type(group).__name__}")
    if scale is not None and (isinstance(scale, bool) or not isinstance(scale, (int, float))):
        raise TypeError(f"{what}: argument 'scale' (position 4) must be a number or None, got "
                        f"{type(scale).__name__}")
    if not dist.is_initialized():
        dist.init_parallel_env()
    with pylayer.no_grad():
        for p in parameters:
            grad = getattr(p, "main_grad", None)
            grad = p.grad if grad is None else grad
            if grad is None:
                continue
            summed = grad.clone()
            dist.all_reduce(summed, group=group)
            if scale is not None:
                summed = summed * scale
            grad.set_value(summed)


def fused_allreduce_gradients(parameter_list, hcg):
    """Average the gradients of ``parameter_list`` over the data-parallel group (summed
    over the sep group too where the sep degree is above 1, as in Paddle): what a
    training loop without :class:`pylayer.DataParallel` calls after backward. With
    ``hcg=None`` they are summed over the world. The data-parallel or sep degree must be
    above 1 (an AssertionError, as in Paddle).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils.hybrid_parallel_util import fused_allreduce_gradients
    >>> layer = pylayer.nn.Linear(2, 1)
    >>> layer(pylayer.ones([1, 2])).sum().backward()
    >>> fused_allreduce_gradients(list(layer.parameters()), None)
    >>> layer.bias.grad.numpy()
    array([1.], dtype=float32)
    """
    from pylayer.distributed.fleet.base.topology import HybridCommunicateGroup
    group, scale = None, None
    if hcg is not None:
        if not isinstance(hcg, HybridCommunicateGroup):
            raise TypeError(f"fused_allreduce_gradients(): argument 'hcg' (position 2) must be "
                            f"the HybridCommunicateGroup of fleet.init or None, got "
                            f"{type(hcg).__name__}")
        dp = hcg.get_data_parallel_world_size() > 1
        sep = hcg.get_sep_parallel_world_size() > 1
        if not (dp or sep):
            raise AssertionError(f"fused_allreduce_gradients(): dp_enabled {dp}; sep_enabled "
                                 f"{sep}: the data-parallel or sep degree must be above 1")
        scale = 1.0
        if dp:
            group = hcg.get_data_parallel_group()
            scale = scale / group.nranks
        if sep:
            group = hcg.get_sep_parallel_group() if group is None else \
                hcg.get_dp_sep_parallel_group()
    fused_allreduce_gradients_with_group(parameter_list, group, scale=scale)


def broadcast_input_data(hcg, *inputs, **kwargs):
    """Give every process of the model-parallel group its first process's input batch:
    tensors (nested in lists, tuples and dicts too) are overwritten in place, other
    values are replaced by the first process's in what is returned, ``(inputs,
    kwargs)``. Paddle runs it on GPUs only; here it runs on the CPU.

    >>> import pylayer
    >>> from pylayer.distributed import fleet
    >>> from pylayer.distributed.fleet.utils.hybrid_parallel_util import broadcast_input_data
    >>> hcg = fleet.init(is_collective=True).get_hybrid_communicate_group()
    >>> x = pylayer.ones([2])
    >>> broadcast_input_data(hcg, x, step=3)[1]
    {'step': 3}
    """
    from pylayer.distributed.fleet.base.topology import HybridCommunicateGroup
    if not isinstance(hcg, HybridCommunicateGroup):
        raise TypeError(f"broadcast_input_data(): argument 'hcg' (position 1) must be the "
                        f"HybridCommunicateGroup of fleet.init, got {type(hcg).__name__}")
    group = hcg.get_model_parallel_group()
    src = hcg.get_model_parallel_group_src_rank()

    def spread(value):
        if isinstance(value, pylayer.Tensor):
            if group.nranks > 1:
                with pylayer.no_grad():
                    dist.broadcast(value, src, group=group)
            return value
        if isinstance(value, dict):
            return {k: spread(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(spread(v) for v in value)
        if group.nranks > 1:
            holder = [value]
            dist.broadcast_object_list(holder, src, group=group)
            return holder[0]
        return value
    return spread(tuple(inputs)), spread(dict(kwargs))
