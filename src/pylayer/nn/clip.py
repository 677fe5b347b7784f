"""Gradient clipping for the optimizers' ``grad_clip`` argument.

Each clipper takes the optimizer's ``[(param, grad), ...]`` list and returns
a new one; parameters whose ``need_clip`` is False are passed through.
"""
import numpy as np

from pylayer.extend import check_number, check_str, make_tensor, public_settings_repr

__all__ = ["ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm"]


def _needs_clip(param):
    return getattr(param, "need_clip", True)


def _positive(value, cls, arg):
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{cls}(): argument '{arg}' must be a positive number, got {value!r}")
    return float(value)


class ClipGradByValue:
    """Clamp every gradient element into ``[min, max]`` (``min`` defaults to ``-max``).

    >>> import pylayer
    >>> clip = pylayer.nn.ClipGradByValue(1.0)
    >>> p = pylayer.create_parameter([2], 'float32')
    >>> clip([(p, pylayer.to_tensor([3.0, -0.5]))])[0][1].numpy()
    array([ 1. , -0.5], dtype=float32)
    """

    def __init__(self, max, min=None):
        self.max = check_number(max, "ClipGradByValue", "max")
        self.min = -self.max if min is None else check_number(min, "ClipGradByValue", "min")
        if self.min > self.max:
            raise ValueError(f"ClipGradByValue(): 'min' ({self.min}) must not exceed "
                             f"'max' ({self.max})")

    __repr__ = public_settings_repr

    def __call__(self, params_grads):
        return [(p, make_tensor(np.clip(g.numpy(), self.min, self.max)) if _needs_clip(p) else g)
                for p, g in _with_gradients(params_grads)]


class ClipGradByNorm:
    """Scale each gradient whose L2 norm exceeds ``clip_norm`` down to that norm.

    >>> import pylayer
    >>> clip = pylayer.nn.ClipGradByNorm(1.0)
    >>> p = pylayer.create_parameter([2], 'float32')
    >>> clip([(p, pylayer.to_tensor([3.0, 4.0]))])[0][1].numpy()
    array([0.6, 0.8], dtype=float32)
    """

    def __init__(self, clip_norm):
        self.clip_norm = _positive(clip_norm, "ClipGradByNorm", "clip_norm")

    __repr__ = public_settings_repr

    def _clip(self, g):
        norm = float(np.sqrt(np.sum(np.square(g, dtype=np.float64))))
        if norm <= self.clip_norm:
            return g
        return (g * (self.clip_norm / norm)).astype(g.dtype)

    def __call__(self, params_grads):
        return [(p, make_tensor(self._clip(g.numpy())) if _needs_clip(p) else g)
                for p, g in _with_gradients(params_grads)]


class ClipGradByGlobalNorm:
    """Scale all gradients by ``clip_norm / max(global_norm, clip_norm)``, where the
    global norm is the L2 norm of all clipped gradients together.

    >>> import pylayer
    >>> clip = pylayer.nn.ClipGradByGlobalNorm(1.0)
    >>> a, b = pylayer.create_parameter([1], 'float32'), pylayer.create_parameter([1], 'float32')
    >>> [g.numpy() for _, g in clip([(a, pylayer.to_tensor([3.0])), (b, pylayer.to_tensor([4.0]))])]
    [array([0.6], dtype=float32), array([0.8], dtype=float32)]
    """

    def __init__(self, clip_norm, group_name="default_group"):
        self.clip_norm = _positive(clip_norm, "ClipGradByGlobalNorm", "clip_norm")
        self.group_name = check_str(group_name, "ClipGradByGlobalNorm", "group_name")

    __repr__ = public_settings_repr

    def __call__(self, params_grads):
        params_grads = _with_gradients(params_grads)
        squares = [np.sum(np.square(g.numpy(), dtype=np.float64))
                   for p, g in params_grads if _needs_clip(p)]
        global_norm = float(np.sqrt(np.sum(squares))) if squares else 0.0
        scale = self.clip_norm / max(global_norm, self.clip_norm)
        return [(p, make_tensor((g.numpy() * scale).astype(g.numpy().dtype))
                 if _needs_clip(p) else g) for p, g in params_grads]


def _with_gradients(params_grads):
    """The pairs that have a gradient: a ``(param, None)`` pair is left out, as Paddle
    leaves it out of a clip's result."""
    return [(p, g) for p, g in params_grads if g is not None]
