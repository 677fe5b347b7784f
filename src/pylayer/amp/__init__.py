"""``pylayer.amp``: automatic mixed precision, as ``paddle.amp``.

``auto_cast`` runs ops in bfloat16 by Paddle's white and black operator
lists, ``GradScaler`` scales the loss and skips steps whose gradients hold an
inf or a nan, and ``decorate`` (level ``O2``) casts a model's parameters and
gives its optimizers float32 master weights.

>>> import pylayer
>>> pylayer.amp.is_bfloat16_supported(), pylayer.amp.is_float16_supported()
(True, False)
"""
from pylayer.amp import amp_lists
from pylayer.amp.auto_cast import (auto_cast, decorate, get_autocast_cpu_dtype,
                                   get_autocast_dtype, get_autocast_gpu_dtype,
                                   is_autocast_enabled)
from pylayer.amp.grad_scaler import GradScaler

__all__ = ["auto_cast", "GradScaler", "decorate", "is_float16_supported",
           "is_bfloat16_supported", "is_autocast_enabled", "get_autocast_dtype",
           "get_autocast_cpu_dtype", "get_autocast_gpu_dtype"]


def _device(device, fn):
    if device is None:
        return "cpu"
    if not isinstance(device, str):
        raise TypeError(f"{fn}(): argument 'device' must be a str such as 'cpu', or None, "
                        f"got {type(device).__name__}")
    kind = device.split(":")[0].lower()
    if kind != "cpu":
        raise ValueError(f"{fn}(): the device should be 'cpu' (pylayer runs on the CPU "
                         f"only), got {device!r}")
    return kind


def is_float16_supported(device=None):
    """Whether mixed precision in float16 runs on ``device`` (the CPU: no, as in Paddle).

    >>> import pylayer
    >>> pylayer.amp.is_float16_supported()
    False
    """
    _device(device, "is_float16_supported")
    return False


def is_bfloat16_supported(device=None):
    """Whether mixed precision in bfloat16 runs on ``device`` (the CPU: yes, as in Paddle).

    >>> import pylayer
    >>> pylayer.amp.is_bfloat16_supported('cpu')
    True
    """
    _device(device, "is_bfloat16_supported")
    return True
