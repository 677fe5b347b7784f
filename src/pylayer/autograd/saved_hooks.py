"""``saved_tensors_hooks``: choose how the tensors kept for backward are stored."""
from __future__ import annotations

import threading
from typing import Any, Callable, Literal, Self, Union

import numpy as np

from pylayer._graph import pop_saved_tensors_hooks, push_saved_tensors_hooks
from pylayer._reprs import settings_repr
from pylayer._tensor import Tensor

__all__ = ["saved_tensors_hooks"]

_disabled = threading.local()


def disabled_message():
    """The message of the innermost ``disable_saved_tensors_hooks`` of this thread, or None."""
    return getattr(_disabled, "message", None)


def set_disabled_message(message):
    """Set this thread's message (None enables hooks again); returns the previous one."""
    previous = disabled_message()
    _disabled.message = message
    return previous


class saved_tensors_hooks:
    """Pack and unpack every tensor saved for backward inside the ``with`` block.

    Each time an op (a built-in one, or a PyLayer through
    ``ctx.save_for_backward``) keeps a tensor for backward while a node is
    recorded, ``pack_hook(tensor)`` is called and its result is stored instead;
    backward calls ``unpack_hook(packed)``, which must return a Tensor (or a
    numpy array) with the same content. Both run with gradient recording off.
    The hooks stay with each node, so backward may run after the block ends.
    Hooks are per thread, and blocks nest: the innermost pair wins.

    >>> import pylayer as paddle
    >>> def pack_hook(x):
    ...     print("Packing", x.shape)
    ...     return x.numpy()
    >>> def unpack_hook(x):
    ...     print("UnPacking", x.shape)
    ...     return paddle.to_tensor(x)
    >>> a = paddle.ones([3, 3]); a.stop_gradient = False
    >>> b = paddle.ones([3, 3]) * 2; b.stop_gradient = False
    >>> with paddle.autograd.saved_tensors_hooks(pack_hook, unpack_hook):
    ...     y = paddle.multiply(a, b)
    Packing [3, 3]
    Packing [3, 3]
    >>> y.sum().backward()
    UnPacking (3, 3)
    UnPacking (3, 3)
    >>> a.grad.numpy()[0]
    array([2., 2., 2.], dtype=float32)
    """

    def __init__(self, pack_hook: Callable[[Tensor], Any],
                 unpack_hook: Callable[[Any], Union[Tensor, np.ndarray]]) -> None:
        for arg, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(hook):
                raise TypeError(f"saved_tensors_hooks(): argument '{arg}' must be callable, "
                                f"got {type(hook).__name__}")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> Self:
        message = disabled_message()
        if message is not None:
            raise RuntimeError(message)
        push_saved_tensors_hooks(self.pack_hook, self.unpack_hook)
        return self

    def __exit__(self, *exc_info: object) -> Literal[False]:
        pop_saved_tensors_hooks()
        return False

    def __repr__(self) -> str:
        """``saved_tensors_hooks(pack_hook=pack, unpack_hook=unpack)``."""
        return settings_repr(self, {"pack_hook": self.pack_hook, "unpack_hook": self.unpack_hook})
