"""Paddle's ``paddle.vision.transforms``: image preprocessing for datasets, as
functions (:mod:`pylayer.vision.transforms.functional`) and as transform objects
that a ``Compose`` chains.

Images are ``numpy.ndarray`` (``H x W x C`` or ``H x W``, ``uint8`` or float),
pylayer Tensors (``C x H x W``) or, when Pillow is installed, ``PIL.Image``
images; each function gives back the kind it was given (``to_tensor`` and
``ToTensor`` give a Tensor).

>>> import numpy as np
>>> from pylayer.vision.transforms import Compose, Normalize, ToTensor
>>> transform = Compose([ToTensor(), Normalize(mean=[0.5] * 3, std=[0.5] * 3)])
>>> out = transform(np.full((2, 2, 3), 255, dtype="uint8"))
>>> out.shape, float(out.max())
([3, 2, 2], 1.0)
"""
from pylayer.vision.transforms import functional
from pylayer.vision.transforms.functional import (adjust_brightness, adjust_contrast, adjust_hue,
                                                  affine, center_crop, crop, erase, hflip,
                                                  normalize, pad, perspective, resize, rotate,
                                                  to_grayscale, to_tensor, vflip)
from pylayer.vision.transforms.transforms import (BaseTransform, BrightnessTransform, CenterCrop,
                                                  ColorJitter, Compose, ContrastTransform,
                                                  Grayscale, HueTransform, Normalize, Pad,
                                                  RandomAffine, RandomCrop, RandomErasing,
                                                  RandomHorizontalFlip, RandomPerspective,
                                                  RandomResizedCrop, RandomRotation,
                                                  RandomVerticalFlip, Resize,
                                                  SaturationTransform, ToTensor, Transpose)

__all__ = ["BaseTransform", "Compose", "Resize", "RandomResizedCrop", "CenterCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip", "Transpose", "Normalize",
           "BrightnessTransform", "SaturationTransform", "ContrastTransform", "HueTransform",
           "ColorJitter", "RandomCrop", "Pad", "RandomAffine", "RandomRotation",
           "RandomPerspective", "Grayscale", "ToTensor", "RandomErasing", "to_tensor", "hflip",
           "vflip", "resize", "pad", "affine", "rotate", "perspective", "to_grayscale", "crop",
           "center_crop", "adjust_brightness", "adjust_contrast", "adjust_hue", "normalize",
           "erase"]
