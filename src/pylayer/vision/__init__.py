"""Paddle's ``paddle.vision``: pylayer has its image transforms,
:mod:`pylayer.vision.transforms`, and the deformable convolution of
:mod:`pylayer.vision.ops`. Paddle's models and datasets
(``paddle.vision.models``, ``datasets``, ...) are not part of pylayer.

>>> import pylayer
>>> from pylayer.vision.transforms import ToTensor
>>> pylayer.vision.transforms.ToTensor is ToTensor is pylayer.vision.ToTensor
True
"""
from pylayer.vision import ops, transforms
# Paddle's paddle.vision reaches its transforms as attributes too (paddle.vision.ToTensor)
from pylayer.vision.transforms import *  # noqa: F401,F403

__all__ = ["transforms", "ops"]

