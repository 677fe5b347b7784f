"""Recompute in tensor-parallel programs (Paddle's ``recompute_hybrid``)."""
import pylayer.distributed as dist
from pylayer.distributed.fleet.recompute.recompute import recompute

__all__ = []


def recompute_hybrid(ctx, function, *args, **kwargs):
    """:func:`recompute` for tensor-parallel programs: ``ctx`` holds ``mp_group`` (the
    model-parallel group, required), ``offload`` and ``partition`` (Paddle keeps the
    block's inputs on the host, or split over ``mp_group``; on pylayer the inputs stay
    whole, in memory, with the same results) and ``preserve_rng_state`` (default True).
    The block's random streams, the tensor-parallel ones included, are replayed.

    >>> import pylayer, pylayer.distributed as dist
    >>> from pylayer.distributed.fleet.recompute import recompute_hybrid
    >>> group = dist.init_parallel_env()
    >>> x = pylayer.ones([2]); x.stop_gradient = False
    >>> recompute_hybrid({"mp_group": group}, lambda t: t * 2, x).sum().backward()
    >>> x.grad.numpy()
    array([2., 2.], dtype=float32)
    """
    if not isinstance(ctx, dict):
        raise TypeError(f"recompute_hybrid(): argument 'ctx' (position 1) must be a dict, got "
                        f"{type(ctx).__name__}")
    group = ctx.get("mp_group", None)
    if not isinstance(group, dist.Group):
        raise ValueError(f"recompute_hybrid(): ctx['mp_group'] must be the model-parallel "
                         f"Group, got {type(group).__name__}")
    for key in ("offload", "partition"):
        if not isinstance(ctx.get(key, False), bool):
            raise TypeError(f"recompute_hybrid(): ctx[{key!r}] must be a bool, got "
                            f"{type(ctx[key]).__name__}")
    kwargs.pop("use_reentrant", None)
    return recompute(function, *args, preserve_rng_state=ctx.get("preserve_rng_state", True),
                     use_reentrant=True, **kwargs)
