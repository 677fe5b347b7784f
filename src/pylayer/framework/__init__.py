"""Paddle's ``paddle.framework``: saving and loading checkpoints (:mod:`pylayer.framework.io`),
Paddle's global flags (:mod:`pylayer.framework.flags`), and, as in Paddle, the same objects
as the top-level ``pylayer`` names of the execution mode, gradients, seeds and dtypes, and
the static-graph classes of :mod:`pylayer.static`."""
import importlib

from pylayer.framework.flags import get_flags, set_flags
from pylayer.framework.io import async_save, clear_async_save_task_queue, load, save

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue", "set_flags",
           "get_flags"]

# pylayer imports this package while it initialises itself, before the names below exist:
# they are looked up on first use (the same objects as pylayer's).
_REEXPORTS = {
    "pylayer": ("CPUPlace", "ParamAttr", "disable_signal_handler", "disable_static",
                "enable_static", "get_default_dtype", "grad", "in_dynamic_mode", "no_grad",
                "seed", "set_default_dtype"),
    "pylayer.static": ("Block", "Parameter", "Program"),
    "pylayer.framework.io_utils": ("is_parameter", "is_persistable"),
}
_SOURCE = {name: module for module, names in _REEXPORTS.items() for name in names}
__all__ += sorted(_SOURCE)


def __getattr__(name):
    if name not in _SOURCE:
        raise AttributeError(f"module 'pylayer.framework' has no attribute {name!r}")
    value = getattr(importlib.import_module(_SOURCE[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_SOURCE))
