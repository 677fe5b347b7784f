"""Paddle's ``paddle.framework``: saving and loading checkpoints (:mod:`pylayer.framework.io`)
and Paddle's global flags (:mod:`pylayer.framework.flags`)."""
from pylayer.framework.flags import get_flags, set_flags
from pylayer.framework.io import async_save, clear_async_save_task_queue, load, save

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue", "set_flags",
           "get_flags"]
