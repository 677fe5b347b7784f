"""Paddle's ``paddle.callbacks``: the hooks of :class:`pylayer.Model`'s training loop
(see :mod:`pylayer.hapi.callbacks`).

Paddle's ``VisualDL`` and ``WandbCallback`` are not applicable: they write to the
VisualDL and Weights & Biases services through their client packages, which are
not pylayer's dependencies. Asking for them raises an ``AttributeError`` that
says so; a :class:`Callback` subclass logging ``logs`` does the same job with
any logger.
"""
from pylayer.hapi.callbacks import (Callback, EarlyStopping, LRScheduler, ModelCheckpoint,
                                    ProgBarLogger, ReduceLROnPlateau)

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "LRScheduler", "EarlyStopping",
           "ReduceLROnPlateau"]

_NOT_APPLICABLE = {
    "VisualDL": "it writes VisualDL's log format through the visualdl package",
    "WandbCallback": "it starts a Weights & Biases run through the wandb client",
}


def __getattr__(name):
    if name in _NOT_APPLICABLE:
        raise AttributeError(
            f"module 'pylayer.callbacks' has no attribute {name!r}: Paddle's "
            f"paddle.callbacks.{name} is not applicable to pylayer: {_NOT_APPLICABLE[name]}, "
            f"which pylayer does not depend on; subclass pylayer.callbacks.Callback and log the "
            f"'logs' of on_train_batch_end and on_eval_end with the logger of your choice",
            name=name)
    raise AttributeError(f"module 'pylayer.callbacks' has no attribute {name!r}", name=name)
