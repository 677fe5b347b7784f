"""Paddle's ``paddle.callbacks``: the hooks of :class:`pylayer.Model`'s training loop
(see :mod:`pylayer.hapi.callbacks`)."""
from pylayer.hapi.callbacks import (Callback, EarlyStopping, LRScheduler, ModelCheckpoint,
                                    ProgBarLogger, ReduceLROnPlateau, VisualDL, WandbCallback)

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler",
           "EarlyStopping", "ReduceLROnPlateau", "WandbCallback"]
