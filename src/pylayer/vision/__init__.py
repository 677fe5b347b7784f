"""Paddle's ``paddle.vision``: pylayer has its image transforms,
:mod:`pylayer.vision.transforms`. Paddle's models, datasets and detection ops
(``paddle.vision.models``, ``datasets``, ``ops``, ...) are not part of pylayer.

>>> import pylayer
>>> from pylayer.vision.transforms import ToTensor
>>> pylayer.vision.transforms.ToTensor is ToTensor is pylayer.vision.ToTensor
True
"""
from pylayer.vision import transforms
# Paddle's paddle.vision reaches its transforms as attributes too (paddle.vision.ToTensor)
from pylayer.vision.transforms import *  # noqa: F401,F403

__all__ = ["transforms"]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(f"module 'pylayer.vision' has no attribute {name!r}", name=name)
    raise AttributeError(f"module 'pylayer.vision' has no attribute {name!r}: pylayer has "
                         f"Paddle's paddle.vision.transforms only (paddle.vision.{name} is not "
                         f"part of pylayer); pylayer's migration guide "
                         f"(docs/en/guides/migration.rst) says what to use instead", name=name)
