"""Paddle's ``paddle.framework``: saving and loading checkpoints (:mod:`pylayer.framework.io`)."""
from pylayer.framework.io import async_save, clear_async_save_task_queue, load, save

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue"]
