"""``fleet.distributed_model`` and ``fleet.distributed_optimizer``: a model and its
optimizer prepared for the data- and tensor-parallel layout of :func:`fleet.init`."""
import numpy as np

import pylayer
import pylayer.distributed as dist
from pylayer.nn import Layer

__all__ = ["distributed_model", "distributed_optimizer"]


def _fleet():
    from pylayer.distributed.fleet._fleet import fleet
    return fleet


def _broadcast_replicated(model, group):
    """Copy the group's first process's values of the parameters and buffers that are
    not split (``is_distributed`` False) to the others."""
    if group is None or group.nranks <= 1:
        return
    source = group.ranks[0]
    with pylayer.no_grad():
        for tensor in list(model.parameters()) + list(model.buffers()):
            if not getattr(tensor, "is_distributed", False):
                dist.broadcast(tensor, source, group=group)


def distributed_model(model):
    """``model`` prepared for the layout of :func:`fleet.init`: in a job of one process
    the model itself; with a model-parallel degree above 1 the parameters that are not
    split are made equal over the model-parallel group (its first process's); with a
    data-parallel degree above 1 a :class:`pylayer.DataParallel` over the data-parallel
    group (gradients averaged over it in backward). A pipeline degree above 1 is a
    NotImplementedError (pylayer has no pipeline schedule), as are sharding and sep
    degrees above 1.

    >>> import pylayer
    >>> from pylayer.distributed import fleet
    >>> _ = fleet.init(is_collective=True)
    >>> model = pylayer.nn.Linear(2, 2)
    >>> fleet.distributed_model(model) is model
    True
    """
    if not isinstance(model, Layer):
        raise TypeError(f"fleet.distributed_model(): argument 'model' (position 1) must be a "
                        f"Layer, got {type(model).__name__}")
    fleet = _fleet()
    if dist.get_world_size() <= 1:
        return model
    fleet._check_initialized("distributed_model")
    hcg = fleet._hcg
    if hcg.get_pipe_parallel_world_size() > 1:
        raise NotImplementedError(
            "fleet.distributed_model(): pp_degree > 1 (pipeline parallel) is not supported: "
            "pylayer has no pipeline schedule (PipelineLayer, 1F1B); run such programs on "
            "Paddle, or use the data- and tensor-parallel degrees")
    for name, degree in (("sharding_degree", hcg.get_sharding_parallel_world_size()),
                         ("sep_degree", hcg.get_sep_parallel_world_size())):
        if degree > 1:
            raise NotImplementedError(
                f"fleet.distributed_model(): {name} > 1 is not supported by pylayer (its "
                f"fleet runs data- and tensor-parallel layouts); run such programs on Paddle")
    strategy = fleet._user_defined_strategy
    if hcg.get_model_parallel_world_size() > 1:
        _broadcast_replicated(model, hcg.get_model_parallel_group())
    if hcg.get_data_parallel_world_size() > 1:
        return dist.DataParallel(model, comm_buffer_size=strategy.fuse_grad_size_in_MB,
                                 last_comm_buffer_size=strategy.last_comm_group_size_MB,
                                 find_unused_parameters=strategy.find_unused_parameters,
                                 group=hcg.get_data_parallel_group())
    return model


class _HybridGlobalNormClip:
    """Clipping by the global norm of the gradients of a tensor-parallel model: the
    squares of the split parameters' gradients are summed over the model-parallel
    group, the replicated ones counted once."""

    def __init__(self, clip, group):
        self._clip = clip
        self._group = group
        self.clip_norm = clip.clip_norm

    def __call__(self, params_grads):
        kept = [(p, g) for p, g in params_grads if g is not None]
        needs = [getattr(p, "need_clip", True) for p, _ in kept]
        split = sum(float(np.sum(np.square(g.numpy(), dtype=np.float64)))
                    for (p, g), n in zip(kept, needs) if n and getattr(p, "is_distributed", False))
        whole = sum(float(np.sum(np.square(g.numpy(), dtype=np.float64)))
                    for (p, g), n in zip(kept, needs) if n and not getattr(p, "is_distributed", False))
        total = pylayer.to_tensor([split], dtype="float64")
        dist.all_reduce(total, group=self._group)
        norm = float(np.sqrt(total.item() + whole))
        scale = self.clip_norm / max(norm, self.clip_norm)
        return [(p, pylayer.to_tensor((g.numpy() * scale).astype(g.numpy().dtype))
                 if n else g) for (p, g), n in zip(kept, needs)]

    def __repr__(self):
        return f"{self._clip!r} (norm over the model-parallel group)"


def distributed_optimizer(optimizer, strategy=None):
    """``optimizer`` prepared for the layout of :func:`fleet.init` (the same object).
    The data-parallel average is taken by :func:`distributed_model`'s DataParallel; with
    a model-parallel degree above 1, clipping by global norm
    (:class:`pylayer.nn.ClipGradByGlobalNorm`) takes the norm of the whole model (the
    split parameters' parts summed over the model-parallel group). ``strategy``, where
    given, replaces the one of :func:`fleet.init`, as in Paddle.

    >>> import pylayer
    >>> from pylayer.distributed import fleet
    >>> _ = fleet.init(is_collective=True)
    >>> opt = pylayer.optimizer.SGD(0.1, parameters=pylayer.nn.Linear(2, 2).parameters())
    >>> fleet.distributed_optimizer(opt) is opt
    True
    """
    from pylayer.distributed.fleet._strategy import DistributedStrategy
    if not isinstance(optimizer, pylayer.optimizer.Optimizer):
        raise TypeError(f"fleet.distributed_optimizer(): argument 'optimizer' (position 1) "
                        f"must be an Optimizer, got {type(optimizer).__name__}")
    if strategy is not None and not isinstance(strategy, DistributedStrategy):
        raise TypeError(f"fleet.distributed_optimizer(): argument 'strategy' (position 2) must "
                        f"be a DistributedStrategy or None, got {type(strategy).__name__}")
    fleet = _fleet()
    if strategy is not None:
        fleet._user_defined_strategy = strategy
    hcg = fleet._hcg
    clip = getattr(optimizer, "_grad_clip", None)
    if hcg is not None and hcg.get_model_parallel_world_size() > 1 and \
            isinstance(clip, pylayer.nn.ClipGradByGlobalNorm):
        optimizer._grad_clip = _HybridGlobalNormClip(clip, hcg.get_model_parallel_group())
    return optimizer
