"""Activation recompute: run a block without keeping its intermediate tensors, and run
it again during backward to get them, with the random streams of the first run."""
import inspect
import warnings

import pylayer
from pylayer.autograd import PyLayer, once_differentiable, saved_tensors_hooks
from pylayer.distributed.fleet.layers.mpu.random import get_rng_state_tracker
from pylayer.nn import Layer, Sequential

__all__ = []


class CustomStatesManager:
    """Extra state that :func:`recompute` saves before a block and restores for its
    recomputation (besides the random streams): a pair of functions, each set once."""

    def __init__(self):
        self.custom_get_state_func = None
        self.custom_set_state_func = None

    def set_custom_get_state_func(self, custom_get_state_func):
        if self.custom_get_state_func is not None:
            raise RuntimeError("The custom_state_manager does not support duplicate settings.")
        self.custom_get_state_func = custom_get_state_func

    def set_custom_set_state_func(self, custom_set_state_func):
        if self.custom_set_state_func is not None:
            raise RuntimeError("The custom_state_manager does not support duplicate settings.")
        self.custom_set_state_func = custom_set_state_func


custom_state_manager = CustomStatesManager()


class _States:
    """The random streams (global and the tensor-parallel tracker's) and the custom
    state at one moment, and a ``with`` block that runs under them."""

    def __init__(self, preserve):
        self.preserve = preserve
        if preserve:
            self.rng = pylayer.get_rng_state()
            self.tracker = get_rng_state_tracker().get_states_tracker()
        get_state = custom_state_manager.custom_get_state_func
        self.custom = get_state() if get_state is not None else None

    def __enter__(self):
        set_state = custom_state_manager.custom_set_state_func
        if self.preserve:
            self.saved = (pylayer.get_rng_state(), get_rng_state_tracker().get_states_tracker())
            pylayer.set_rng_state(self.rng)
            get_rng_state_tracker().set_states_tracker(self.tracker)
        if set_state is not None:
            self.saved_custom = custom_state_manager.custom_get_state_func()
            set_state(self.custom)
        return self

    def __exit__(self, *exc_info):
        if self.preserve:
            pylayer.set_rng_state(self.saved[0])
            get_rng_state_tracker().set_states_tracker(self.saved[1])
        if custom_state_manager.custom_set_state_func is not None:
            custom_state_manager.custom_set_state_func(self.saved_custom)
        return False


def _tensors(values):
    return [v for v in values if isinstance(v, pylayer.Tensor)]


class _Recompute(PyLayer):
    @staticmethod
    def forward(ctx, function, preserve, *args):
        ctx.function = function
        ctx.states = _States(preserve)
        ctx.positions = [i for i, a in enumerate(args) if isinstance(a, pylayer.Tensor)]
        ctx.others = [None if isinstance(a, pylayer.Tensor) else a for a in args]
        # Whether each input takes a gradient is decided now: a saved-tensor hook may
        # hand backward a detached copy.
        ctx.wants_grad = [not args[p].stop_gradient for p in ctx.positions]
        ctx.save_for_backward(*_tensors(args))
        outputs = function(*args)
        single = not isinstance(outputs, (tuple, list))
        ctx.single = single
        return outputs

    @staticmethod
    @once_differentiable
    def backward(ctx, *grads):
        # The block runs again and its own backward gives the gradients: they are not
        # differentiable again (as PyTorch's reentrant checkpoint).
        args = list(ctx.others)
        saved = ctx.saved_tensor()
        for position, tensor, wants in zip(ctx.positions, saved, ctx.wants_grad):
            copy = tensor.detach()
            copy.stop_gradient = not wants
            args[position] = copy
        with ctx.states, pylayer.enable_grad():
            outputs = ctx.function(*args)
        outputs = _tensors([outputs] if ctx.single else list(outputs))
        roots, seeds = [], []
        for out, grad in zip(outputs, grads):
            if isinstance(out, pylayer.Tensor) and not out.stop_gradient and grad is not None:
                roots.append(out)
                seeds.append(grad)
        if roots:
            pylayer.autograd.backward(roots, seeds)
        return tuple(args[p].grad if not args[p].stop_gradient else None
                     for p in ctx.positions)


def _flatten_arguments(function, args, kwargs):
    """The positional arguments of ``function`` for ``args`` and ``kwargs`` (the
    keyword arguments bound to their places, defaults filled in)."""
    signature = inspect.signature(function.forward if isinstance(function, Layer) else function)
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    flat = []
    for value, parameter in zip(bound.arguments.values(), signature.parameters.values()):
        if parameter.kind == parameter.VAR_POSITIONAL:
            flat.extend(value)
        elif parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            flat.append(value)
        elif parameter.kind == parameter.VAR_KEYWORD:
            flat.extend(value.values())
        else:
            raise ValueError("recompute(): keyword-only arguments of the function are not "
                             "supported with use_reentrant=True; pass use_reentrant=False")
    return flat


def _without_reentrant(function, preserve, args, kwargs):
    """Run ``function`` keeping, instead of each tensor its ops save for backward, its
    position; the first unpack in backward runs the block again (same random streams)
    and hands out the tensors it saves, in the same order."""
    states = _States(preserve)
    recomputed = []
    state = {"count": 0, "done": False}

    def pack(tensor):
        state["count"] += 1
        return state["count"] - 1

    def unpack(index):
        if not state["done"]:
            def keep(tensor):
                recomputed.append(tensor)
                return len(recomputed) - 1

            with states, pylayer.enable_grad(), \
                    saved_tensors_hooks(keep, lambda i: recomputed[i]):
                function(*args, **kwargs)
            state["done"] = True
            if len(recomputed) != state["count"]:
                raise RuntimeError(
                    f"recompute(): the recomputation saved {len(recomputed)} tensors where "
                    f"the forward saved {state['count']}: the block must run the same ops "
                    f"both times")
        return recomputed[index]

    with saved_tensors_hooks(pack, unpack):
        return function(*args, **kwargs)


def recompute(function, *args, **kwargs):
    """Run ``function(*args, **kwargs)`` (a Layer or any callable) without keeping the
    tensors its ops save for backward, and run it again in backward to get them: memory
    for computation. ``preserve_rng_state`` (default True) makes the second run draw the
    same random numbers as the first (dropout keeps its mask; the tensor-parallel
    streams too); ``use_reentrant=True`` (default) runs the block inside a PyLayer (its
    keyword arguments are bound to their places; the gradients reach the parameters
    during the recomputation), ``use_reentrant=False`` records the block normally with
    saved-tensor hooks that keep nothing and recompute on first use. The other keyword
    arguments go to ``function``.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.utils import recompute
    >>> block = pylayer.nn.Sequential(pylayer.nn.Linear(3, 3), pylayer.nn.ReLU())
    >>> x = pylayer.ones([2, 3]); x.stop_gradient = False
    >>> y = recompute(block, x)
    >>> y.sum().backward()
    >>> block[0].weight.grad.shape, x.grad.shape
    ([3, 3], [2, 3])
    """
    preserve = kwargs.pop("preserve_rng_state", True)
    use_reentrant = kwargs.pop("use_reentrant", True)
    offload_indices = kwargs.pop("offload_indices", [])
    for name, value in (("preserve_rng_state", preserve), ("use_reentrant", use_reentrant)):
        if not isinstance(value, bool):
            raise TypeError(f"recompute(): argument '{name}' must be a bool, got "
                            f"{type(value).__name__}")
    if not isinstance(offload_indices, (list, tuple)):
        raise TypeError(f"recompute(): argument 'offload_indices' must be a list of ints, got "
                        f"{type(offload_indices).__name__}")
    if not callable(function):
        raise TypeError(f"recompute(): argument 'function' (position 1) must be a Layer or a "
                        f"callable, got {type(function).__name__}")
    if pylayer.is_grad_enabled():
        flags = [a.stop_gradient for a in _tensors(list(args) + list(kwargs.values()))]
        flags += [t.stop_gradient for a in args if type(a) is tuple for t in _tensors(a)]
        if all(flags):
            warnings.warn("[Recompute]: None of the inputs to current recompute block need "
                          "grad, therefore there is NO need to recompute this block in "
                          "backward !", stacklevel=2)
    if not use_reentrant:
        return _without_reentrant(function, preserve, args, kwargs)
    flat = _flatten_arguments(function, args, kwargs)
    return _Recompute.apply(function, preserve, *flat)


def recompute_sequential(ctx, functions, *args, **kwargs):
    """:func:`recompute` over the layers of ``functions`` (a Sequential or a list of
    callables) in ``ctx["segments"]`` (default 1) blocks, each recomputed alone except
    the last, which runs normally; ``ctx["preserve_rng_state"]`` (default True) as in
    :func:`recompute`. ``kwargs`` go to each recomputed block.

    >>> import pylayer
    >>> from pylayer.distributed.fleet.recompute import recompute_sequential
    >>> model = pylayer.nn.Sequential(pylayer.nn.Linear(2, 2), pylayer.nn.ReLU(),
    ...                               pylayer.nn.Linear(2, 1))
    >>> x = pylayer.ones([4, 2]); x.stop_gradient = False
    >>> y = recompute_sequential({"segments": 2}, model, x)
    >>> y.sum().backward()
    >>> y.shape, model[0].weight.grad.shape
    ([4, 1], [2, 2])
    """
    if not isinstance(ctx, dict):
        raise TypeError(f"recompute_sequential(): argument 'ctx' (position 1) must be a dict, "
                        f"got {type(ctx).__name__}")
    segments = ctx.get("segments", 1)
    preserve = ctx.get("preserve_rng_state", True)
    if isinstance(segments, bool) or not isinstance(segments, int) or segments < 1:
        raise ValueError(f"recompute_sequential(): ctx['segments'] must be a positive int, got "
                         f"{segments!r}")
    if isinstance(functions, Sequential):
        functions = list(functions.children())
    elif not isinstance(functions, (list, tuple)) or not all(map(callable, functions)):
        raise TypeError(f"recompute_sequential(): argument 'functions' (position 2) must be a "
                        f"Sequential or a list of callables, got {type(functions).__name__}")
    functions = list(functions)

    def run(begin, end):
        def block(value):
            for f in functions[begin:end + 1]:
                value = f(value)
            return value
        return block

    size = len(functions) // segments
    end = -1
    for begin in range(0, size * (segments - 1), size):
        end = begin + size - 1
        out = recompute(run(begin, end), *args, preserve_rng_state=preserve, **kwargs)
        args = out if isinstance(out, tuple) else (out,)
    return run(end + 1, len(functions) - 1)(*args)
