"""Paddle's transform classes: each is a callable object holding its settings, that
applies a function of :mod:`pylayer.vision.transforms.functional` to an image (or,
with ``keys``, to the image among the parts of a sample). Random ones draw from
pylayer's global generator, so ``pylayer.seed`` repeats them.

>>> import numpy as np
>>> from pylayer.vision.transforms import Compose, Normalize, ToTensor
>>> t = Compose([ToTensor(), Normalize(mean=0.5, std=0.5)])
>>> t(np.zeros((2, 2, 3), dtype="uint8")).shape
[3, 2, 2]
"""
import math
import numbers

import numpy as np

import pylayer
from pylayer.extend import Tensor, describe
from pylayer.vision.transforms import functional as F

__all__ = ["BaseTransform", "Compose", "ToTensor", "Normalize", "Resize", "RandomResizedCrop",
           "CenterCrop", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip",
           "Transpose", "Pad", "RandomRotation", "RandomAffine", "RandomPerspective",
           "RandomErasing", "Grayscale", "ColorJitter", "BrightnessTransform",
           "ContrastTransform", "SaturationTransform", "HueTransform"]

_KEYS = ("image", "coords", "boxes", "mask")


def _uniform(low, high):
    return float(pylayer.get_rng().uniform(low, high))


def _randint(low, high):
    """An int in ``[low, high]`` (both ends included)."""
    return int(pylayer.get_rng().integers(low, high + 1))


def _image_size(img, fn):
    """(width, height) of an image."""
    if isinstance(img, Tensor):
        return img.shape[-1], img.shape[-2]
    if isinstance(img, np.ndarray):
        return img.shape[1], img.shape[0]
    if F._is_pil(img):
        return img.size
    raise TypeError(f"{fn}: the image must be a PIL Image, a numpy.ndarray or a Tensor, got "
                    f"{type(img).__name__}")


def _probability(value, cls, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{cls}(): argument '{arg}' must be a number in [0, 1], got "
                        f"{describe(value)}")
    if not 0 <= value <= 1:
        raise ValueError(f"{cls}(): argument '{arg}' must be in [0, 1], got {value}")
    return float(value)


def _range(value, cls, arg, positive=False):
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{cls}(): argument '{arg}' must be a list/tuple of 2 numbers "
                        f"(min, max), got {describe(value)}")
    if value[0] > value[1] or (positive and value[0] <= 0) or value[0] < 0:
        raise ValueError(f"{cls}(): argument '{arg}' must be (min, max) with 0 "
                         f"{'<' if positive else '<='} min <= max, got {list(value)}")
    return tuple(float(v) for v in value)


def _settings(obj, names):
    return ", ".join(f"{name}={getattr(obj, name)!r}" for name in names)


class Compose:
    """Apply ``transforms`` one after another.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import CenterCrop, Compose, Resize
    >>> Compose([Resize(8), CenterCrop(4)])(np.zeros((16, 20, 3), "uint8")).shape
    (4, 4, 3)
    """

    def __init__(self, transforms):
        if not isinstance(transforms, (list, tuple)) or not all(callable(t) for t in transforms):
            raise TypeError(f"Compose(): argument 'transforms' must be a list/tuple of callables, "
                            f"got {describe(transforms)}")
        self.transforms = transforms

    def __call__(self, data):
        for transform in self.transforms:
            data = transform(data)
        return data

    def __repr__(self):
        lines = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({lines}\n)"


class BaseTransform:
    """The base of the transforms: ``keys`` names the parts of a tuple input
    (``'image'``, ``'coords'``, ``'boxes'``, ``'mask'``); ``__call__`` applies
    ``_apply_<key>`` to each part (parts beyond the keys pass through) after
    ``_get_params`` has drawn the call's random settings into ``self.params``.
    A subclass defines ``_apply_image`` (and the others it supports).

    >>> import numpy as np
    >>> from pylayer.vision.transforms import BaseTransform
    >>> class AddOne(BaseTransform):
    ...     def _apply_image(self, image):
    ...         return image + 1
    >>> AddOne()(np.zeros(2))
    array([1., 1.])
    >>> AddOne(keys=["image", "mask"])((np.zeros(1), np.zeros(1), "label"))
    Traceback (most recent call last):
    ...
    NotImplementedError: AddOne: key 'mask' is not supported (no _apply_mask)
    """

    def __init__(self, keys=None):
        if keys is None:
            keys = ("image",)
        elif isinstance(keys, str) or not isinstance(keys, (list, tuple)):
            raise ValueError(f"{type(self).__name__}(): argument 'keys' must be a list/tuple of "
                             f"{list(_KEYS)}, got {describe(keys)}")
        for key in keys:
            if not isinstance(key, str):
                raise TypeError(f"{type(self).__name__}(): argument 'keys' must hold strings, "
                                f"got {describe(key)}")
            if self._get_apply(key) is None:
                raise NotImplementedError(f"{type(self).__name__}(): argument 'keys' holds "
                                          f"{key!r}, which is not one of {list(_KEYS)}")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs):
        return None

    def __call__(self, inputs):
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        self.params = self._get_params(inputs)
        outputs = [self._get_apply(key)(value) for key, value in zip(self.keys, inputs)]
        outputs.extend(inputs[len(self.keys):])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _get_apply(self, key):
        return getattr(self, f"_apply_{key}", None)

    def _unsupported(self, key):
        raise NotImplementedError(f"{type(self).__name__}: key {key!r} is not supported "
                                  f"(no _apply_{key})")

    def _apply_image(self, image):
        self._unsupported("image")

    def _apply_boxes(self, boxes):
        self._unsupported("boxes")

    def _apply_mask(self, mask):
        self._unsupported("mask")

    def _apply_coords(self, coords):
        self._unsupported("coords")

    def __repr__(self):
        return f"{type(self).__name__}({self.extra_repr()})"

    def extra_repr(self):
        """The settings that ``repr`` shows."""
        return ""


class ToTensor(BaseTransform):
    """Convert an image to a Tensor (see :func:`to_tensor`): ``uint8`` ``H x W x C``
    becomes ``float32`` ``C x H x W`` in [0, 1].

    >>> import numpy as np
    >>> from pylayer.vision.transforms import ToTensor
    >>> ToTensor()(np.zeros((4, 5, 3), dtype="uint8")).shape
    [3, 4, 5]
    """

    def __init__(self, data_format="CHW", keys=None):
        super().__init__(keys)
        F._choice(data_format, "ToTensor", "data_format", ("chw", "hwc"))
        self.data_format = data_format

    def _apply_image(self, img):
        return F.to_tensor(img, self.data_format)

    def extra_repr(self):
        return _settings(self, ["data_format"])


class Normalize(BaseTransform):
    """Normalise each channel: ``(img - mean) / std`` (see :func:`normalize`); a
    number for ``mean`` or ``std`` serves all three channels.

    >>> import pylayer
    >>> from pylayer.vision.transforms import Normalize
    >>> Normalize(mean=0.5, std=0.5)(pylayer.ones([3, 1, 1])).numpy().ravel().tolist()
    [1.0, 1.0, 1.0]
    """

    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None):
        super().__init__(keys)
        for arg, value in (("mean", mean), ("std", std)):
            if not (isinstance(value, numbers.Real) or isinstance(value, (list, tuple)) and all(
                    isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value)) \
                    or isinstance(value, bool):
                raise TypeError(f"Normalize(): argument '{arg}' must be a number or a list/tuple "
                                f"of numbers, got {describe(value)}")
        if isinstance(mean, numbers.Number):
            mean = [mean] * 3
        if isinstance(std, numbers.Number):
            std = [std] * 3
        F._choice(data_format, "Normalize", "data_format", ("chw", "hwc"))
        self.mean, self.std, self.data_format, self.to_rgb = mean, std, data_format, to_rgb

    def _apply_image(self, img):
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)

    def extra_repr(self):
        return _settings(self, ["mean", "std", "data_format", "to_rgb"])


class Resize(BaseTransform):
    """Resize to ``size`` (``(height, width)``, or an int for the shorter side) with
    ``interpolation`` (see :func:`resize`).

    >>> import numpy as np
    >>> from pylayer.vision.transforms import Resize
    >>> Resize((2, 3))(np.zeros((4, 6, 3), dtype="uint8")).shape
    (2, 3, 3)
    """

    def __init__(self, size, interpolation="bilinear", keys=None):
        super().__init__(keys)
        if isinstance(size, numbers.Integral) and not isinstance(size, bool):
            F._int(size, "Resize", "size", 1)
        else:
            F._size(size, "Resize", "size", allow_int=False)
        F._choice(interpolation, "Resize", "interpolation", F._INTERPOLATIONS)
        self.size, self.interpolation = size, interpolation

    def _apply_image(self, img):
        return F.resize(img, self.size, self.interpolation)

    def extra_repr(self):
        return _settings(self, ["size", "interpolation"])


class RandomResizedCrop(BaseTransform):
    """Crop a random box (its area a fraction in ``scale`` of the image's, its aspect
    ratio in ``ratio``, drawn log-uniformly), then resize it to ``size``.

    >>> import numpy as np, pylayer
    >>> from pylayer.vision.transforms import RandomResizedCrop
    >>> _ = pylayer.seed(0)
    >>> RandomResizedCrop(4)(np.zeros((10, 12, 3), dtype="uint8")).shape
    (4, 4, 3)
    """

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3),
                 interpolation="bilinear", keys=None):
        super().__init__(keys)
        self.size = F._size(size, "RandomResizedCrop", "size")
        self.scale = _range(scale, "RandomResizedCrop", "scale")
        self.ratio = _range(ratio, "RandomResizedCrop", "ratio", positive=True)
        F._choice(interpolation, "RandomResizedCrop", "interpolation", F._INTERPOLATIONS)
        self.interpolation = interpolation

    def _get_param(self, image, attempts=10):
        width, height = _image_size(image, "RandomResizedCrop")
        area = height * width
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(attempts):
            target = _uniform(*self.scale) * area
            aspect = math.exp(_uniform(*log_ratio))
            w = int(round(math.sqrt(target * aspect)))
            h = int(round(math.sqrt(target / aspect)))
            if 0 < w <= width and 0 < h <= height:
                return _randint(0, height - h), _randint(0, width - w), h, w
        in_ratio = width / height
        if in_ratio < min(self.ratio):
            w, h = width, int(round(width / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            w, h = int(round(height * max(self.ratio))), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img):
        i, j, h, w = self._get_param(img)
        return F.resize(F.crop(img, i, j, h, w), self.size, self.interpolation)

    def extra_repr(self):
        return _settings(self, ["size", "scale", "ratio", "interpolation"])


class CenterCrop(BaseTransform):
    """Crop the central ``size`` box (an int or ``(height, width)``).

    >>> import numpy as np
    >>> from pylayer.vision.transforms import CenterCrop
    >>> CenterCrop(2)(np.zeros((4, 4, 3), dtype="uint8")).shape
    (2, 2, 3)
    """

    def __init__(self, size, keys=None):
        super().__init__(keys)
        self.size = F._size(size, "CenterCrop", "size")

    def _apply_image(self, img):
        return F.center_crop(img, self.size)

    def extra_repr(self):
        return _settings(self, ["size"])


class RandomHorizontalFlip(BaseTransform):
    """Flip left to right with probability ``prob``.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import RandomHorizontalFlip
    >>> RandomHorizontalFlip(prob=1.0)(np.array([[1, 2]])).tolist()
    [[2, 1]]
    """

    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        self.prob = _probability(prob, "RandomHorizontalFlip", "prob")

    def _apply_image(self, img):
        return F.hflip(img) if _uniform(0.0, 1.0) < self.prob else img

    def extra_repr(self):
        return _settings(self, ["prob"])


class RandomVerticalFlip(BaseTransform):
    """Flip top to bottom with probability ``prob``.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import RandomVerticalFlip
    >>> RandomVerticalFlip(prob=1.0)(np.array([[1], [2]])).tolist()
    [[2], [1]]
    """

    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        self.prob = _probability(prob, "RandomVerticalFlip", "prob")

    def _apply_image(self, img):
        return F.vflip(img) if _uniform(0.0, 1.0) < self.prob else img

    def extra_repr(self):
        return _settings(self, ["prob"])


class Transpose(BaseTransform):
    """Permute an image's axes by ``order`` (default ``H x W x C`` to ``C x H x W``);
    a 2-D numpy image gains a channel axis first. Values and dtype stay.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import Transpose
    >>> Transpose()(np.zeros((4, 5, 3), dtype="uint8")).shape
    (3, 4, 5)
    """

    def __init__(self, order=(2, 0, 1), keys=None):
        super().__init__(keys)
        if not (isinstance(order, (list, tuple)) and all(
                isinstance(o, numbers.Integral) and not isinstance(o, bool) for o in order)):
            raise TypeError(f"Transpose(): argument 'order' must be a list/tuple of ints, got "
                            f"{describe(order)}")
        self.order = order

    def _apply_image(self, img):
        if isinstance(img, Tensor):
            return img.transpose(list(self.order))
        img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., None]
        if sorted(self.order) != list(range(img.ndim)):
            raise ValueError(f"Transpose: 'order' {list(self.order)} is not a permutation of the "
                             f"image's {img.ndim} axes")
        return img.transpose(self.order)

    def extra_repr(self):
        return _settings(self, ["order"])


def _check_value(value, name, center=1.0, bound=(0.0, float("inf")), clip_first_on_zero=True):
    """``[low, high]`` for a jitter amount (a number ``v`` means ``center -+ v``), or
    None when it changes nothing."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"argument '{name}' must not be negative when a single number, "
                             f"got {value}")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0.0)
    elif isinstance(value, (list, tuple)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"argument '{name}' must be (min, max) within {bound}, "
                             f"got {list(value)}")
        value = [float(v) for v in value]
    else:
        raise TypeError(f"argument '{name}' must be a number or a list/tuple of 2 numbers, "
                        f"got {describe(value)}")
    return None if value[0] == value[1] == center else value


class _Jitter(BaseTransform):
    _ARG, _CENTER, _BOUND, _CLIP = "value", 1.0, (0.0, float("inf")), True

    def __init__(self, value, keys=None):
        super().__init__(keys)
        try:
            self.value = _check_value(value, "value", self._CENTER, self._BOUND, self._CLIP)
        except (TypeError, ValueError) as error:
            raise type(error)(f"{type(self).__name__}(): {error}") from None

    def _apply_image(self, img):
        if self.value is None:
            return img
        return self._adjust(img, _uniform(self.value[0], self.value[1]))

    def extra_repr(self):
        return _settings(self, ["value"])


class BrightnessTransform(_Jitter):
    """Scale the brightness by a factor drawn from ``[max(0, 1 - value), 1 + value]``
    (or from ``value`` given as ``(min, max)``).

    >>> import numpy as np
    >>> from pylayer.vision.transforms import BrightnessTransform
    >>> BrightnessTransform(0.0)(np.array([[7]], dtype="uint8")).tolist()
    [[7]]
    """
    _adjust = staticmethod(F.adjust_brightness)


class ContrastTransform(_Jitter):
    """Scale the contrast by a factor drawn from ``[max(0, 1 - value), 1 + value]``.

    >>> import pylayer
    >>> from pylayer.vision.transforms import ContrastTransform
    >>> _ = pylayer.seed(1)
    >>> ContrastTransform(0.4)(pylayer.rand([3, 4, 4])).shape
    [3, 4, 4]
    """
    _adjust = staticmethod(F.adjust_contrast)


class SaturationTransform(_Jitter):
    """Scale the saturation by a factor drawn from ``[max(0, 1 - value), 1 + value]``.

    >>> import pylayer
    >>> from pylayer.vision.transforms import SaturationTransform
    >>> SaturationTransform(0.4)(pylayer.rand([3, 4, 4])).shape
    [3, 4, 4]
    """
    _adjust = staticmethod(F.adjust_saturation)


class HueTransform(_Jitter):
    """Turn the hue by a fraction drawn from ``[-value, value]`` (``value`` at most
    0.5), or from ``value`` given as ``(min, max)`` within [-0.5, 0.5].

    >>> import pylayer
    >>> from pylayer.vision.transforms import HueTransform
    >>> HueTransform(0.1)(pylayer.rand([3, 4, 4])).shape
    [3, 4, 4]
    """
    _CENTER, _BOUND, _CLIP = 0.0, (-0.5, 0.5), False
    _adjust = staticmethod(F.adjust_hue)

    def __init__(self, value, keys=None):
        if isinstance(value, numbers.Real) and not isinstance(value, bool) and value > 0.5:
            raise ValueError(f"HueTransform(): argument 'value' must be at most 0.5, got {value}")
        super().__init__(value, keys)


class ColorJitter(BaseTransform):
    """Jitter brightness, contrast, saturation and hue (each as its transform does),
    in a random order drawn per call.

    >>> import pylayer
    >>> from pylayer.vision.transforms import ColorJitter
    >>> _ = pylayer.seed(0)
    >>> ColorJitter(0.4, 0.4, 0.4, 0.1)(pylayer.rand([3, 4, 4])).shape
    [3, 4, 4]
    """

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None):
        super().__init__(keys)
        self._parts = []
        for arg, value, cls in (("brightness", brightness, BrightnessTransform),
                                ("contrast", contrast, ContrastTransform),
                                ("saturation", saturation, SaturationTransform),
                                ("hue", hue, HueTransform)):
            if value is None:
                continue
            try:
                self._parts.append(cls(value, self.keys))
            except (TypeError, ValueError) as error:
                raise type(error)(f"ColorJitter(): argument '{arg}': {error}") from None
        self.brightness, self.contrast, self.saturation, self.hue = (brightness, contrast,
                                                                     saturation, hue)

    def _apply_image(self, img):
        for k in pylayer.get_rng().permutation(len(self._parts)):
            img = self._parts[k]._apply_image(img)
        return img

    def extra_repr(self):
        return _settings(self, ["brightness", "contrast", "saturation", "hue"])


class RandomCrop(BaseTransform):
    """Crop a random ``size`` box, after padding by ``padding`` (see :func:`pad`) and,
    with ``pad_if_needed``, up to the size.

    >>> import numpy as np, pylayer
    >>> from pylayer.vision.transforms import RandomCrop
    >>> _ = pylayer.seed(0)
    >>> RandomCrop(4, padding=2)(np.zeros((4, 4, 3), dtype="uint8")).shape
    (4, 4, 3)
    """

    def __init__(self, size, padding=None, pad_if_needed=False, fill=0,
                 padding_mode="constant", keys=None):
        super().__init__(keys)
        self.size = F._size(size, "RandomCrop", "size")
        if padding is not None:
            F._padding(padding, "RandomCrop")
        F._fill(fill, "RandomCrop")
        F._choice(padding_mode, "RandomCrop", "padding_mode", F._PADDING_MODES)
        self.padding, self.pad_if_needed, self.fill, self.padding_mode = (
            padding, pad_if_needed, fill, padding_mode)

    def _apply_image(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        w, h = _image_size(img, "RandomCrop")
        th, tw = self.size
        if self.pad_if_needed and w < tw:
            img = F.pad(img, (tw - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < th:
            img = F.pad(img, (0, th - h), self.fill, self.padding_mode)
        w, h = _image_size(img, "RandomCrop")
        if h < th or w < tw:
            raise ValueError(f"RandomCrop: the crop size {[th, tw]} is larger than the image "
                             f"({h} x {w}); pad it (padding=..., pad_if_needed=True)")
        if (w, h) == (tw, th):
            return F.crop(img, 0, 0, h, w)
        return F.crop(img, _randint(0, h - th), _randint(0, w - tw), th, tw)

    def extra_repr(self):
        return _settings(self, ["size", "padding", "pad_if_needed", "fill", "padding_mode"])


class Pad(BaseTransform):
    """Pad by ``padding`` with ``fill`` or a mode (see :func:`pad`).

    >>> import numpy as np
    >>> from pylayer.vision.transforms import Pad
    >>> Pad(1)(np.zeros((2, 2, 3), dtype="uint8")).shape
    (4, 4, 3)
    """

    def __init__(self, padding, fill=0, padding_mode="constant", keys=None):
        F._padding(padding, "Pad")
        F._fill(fill, "Pad")
        F._choice(padding_mode, "Pad", "padding_mode", F._PADDING_MODES)
        super().__init__(keys)
        self.padding = tuple(padding) if isinstance(padding, list) else padding
        self.fill = tuple(fill) if isinstance(fill, list) else fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)

    def extra_repr(self):
        return _settings(self, ["padding", "fill", "padding_mode"])


def _degrees(value, cls, arg, sizes=(2,)):
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"{cls}(): argument '{arg}' must not be negative when a single "
                             f"number, got {value}")
        return [-float(value), float(value)]
    if not (isinstance(value, (list, tuple)) and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{cls}(): argument '{arg}' must be a number or a list/tuple of "
                        f"{' or '.join(map(str, sizes))} numbers, got {describe(value)}")
    if len(value) not in sizes:
        raise ValueError(f"{cls}(): argument '{arg}' must have {' or '.join(map(str, sizes))} "
                         f"values, got {len(value)}")
    return [float(v) for v in value]


class RandomRotation(BaseTransform):
    """Rotate by an angle drawn from ``[-degrees, degrees]`` (or ``degrees`` given as
    ``(min, max)``); the rest as :func:`rotate`.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import RandomRotation
    >>> RandomRotation(30)(np.zeros((8, 8, 3), dtype="uint8")).shape
    (8, 8, 3)
    """

    def __init__(self, degrees, interpolation="nearest", expand=False, center=None, fill=0,
                 keys=None):
        self.degrees = _degrees(degrees, "RandomRotation", "degrees")
        super().__init__(keys)
        F._choice(interpolation, "RandomRotation", "interpolation", F._WARP_INTERPOLATIONS)
        if center is not None:
            F._points_pair(center, "RandomRotation", "center")
        F._fill(fill, "RandomRotation")
        self.interpolation, self.expand, self.center, self.fill = (interpolation, expand,
                                                                   center, fill)

    def _apply_image(self, img):
        angle = _uniform(self.degrees[0], self.degrees[1])
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)

    def extra_repr(self):
        return _settings(self, ["degrees", "interpolation", "expand", "center", "fill"])


class RandomAffine(BaseTransform):
    """A random :func:`affine`: angle from ``degrees``, translation up to the
    fractions ``translate`` of the width and height, scale from ``scale``, shear from
    ``shear`` (a number, ``(min, max)`` along x or ``(xmin, xmax, ymin, ymax)``).

    >>> import numpy as np
    >>> from pylayer.vision.transforms import RandomAffine
    >>> RandomAffine(10, translate=(0.1, 0.1), scale=(0.9, 1.1))(
    ...     np.zeros((8, 8, 3), dtype="uint8")).shape
    (8, 8, 3)
    """

    def __init__(self, degrees, translate=None, scale=None, shear=None,
                 interpolation="nearest", fill=0, center=None, keys=None):
        self.degrees = _degrees(degrees, "RandomAffine", "degrees")
        super().__init__(keys)
        F._choice(interpolation, "RandomAffine", "interpolation", F._WARP_INTERPOLATIONS)
        self.interpolation = interpolation
        if translate is not None:
            translate = _degrees(translate, "RandomAffine", "translate") \
                if not isinstance(translate, numbers.Real) else translate
            if isinstance(translate, numbers.Real) or not all(0 <= t <= 1 for t in translate):
                raise ValueError(f"RandomAffine(): argument 'translate' must be 2 fractions in "
                                 f"[0, 1], got {describe(translate)}")
        self.translate = translate
        if scale is not None:
            scale = _range(scale, "RandomAffine", "scale", positive=True)
        self.scale = scale
        self.shear = None if shear is None else _degrees(shear, "RandomAffine", "shear", (2, 4))
        self.fill = 0 if fill is None else F._fill(fill, "RandomAffine")
        if center is not None:
            F._points_pair(center, "RandomAffine", "center")
        self.center = center

    def _get_param(self, img_size):
        angle = _uniform(self.degrees[0], self.degrees[1])
        if self.translate is not None:
            max_dx = float(self.translate[0] * img_size[0])
            max_dy = float(self.translate[1] * img_size[1])
            translations = (int(_uniform(-max_dx, max_dx)), int(_uniform(-max_dy, max_dy)))
        else:
            translations = (0, 0)
        scale = 1.0 if self.scale is None else _uniform(self.scale[0], self.scale[1])
        shear = [0.0, 0.0]
        if self.shear is not None:
            shear[0] = _uniform(self.shear[0], self.shear[1])
            if len(self.shear) == 4:
                shear[1] = _uniform(self.shear[2], self.shear[3])
        return angle, translations, scale, tuple(shear)

    def _apply_image(self, img):
        angle, translate, scale, shear = self._get_param(_image_size(img, "RandomAffine"))
        return F.affine(img, angle, translate, scale, shear, interpolation=self.interpolation,
                        fill=self.fill, center=self.center)

    def extra_repr(self):
        return _settings(self, ["degrees", "translate", "scale", "shear", "interpolation",
                                "fill", "center"])


class RandomPerspective(BaseTransform):
    """With probability ``prob``, a random :func:`perspective` that moves each corner
    inwards by up to ``distortion_scale`` of half the width and height.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import RandomPerspective
    >>> RandomPerspective(prob=1.0)(np.zeros((8, 8, 3), dtype="uint8")).shape
    (8, 8, 3)
    """

    def __init__(self, prob=0.5, distortion_scale=0.5, interpolation="nearest", fill=0,
                 keys=None):
        super().__init__(keys)
        self.prob = _probability(prob, "RandomPerspective", "prob")
        self.distortion_scale = _probability(distortion_scale, "RandomPerspective",
                                             "distortion_scale")
        F._choice(interpolation, "RandomPerspective", "interpolation", F._WARP_INTERPOLATIONS)
        self.interpolation, self.fill = interpolation, F._fill(fill, "RandomPerspective")

    def get_params(self, width, height, distortion_scale):
        """The four corners ``startpoints`` and where they move, ``endpoints``.

        >>> import pylayer
        >>> from pylayer.vision.transforms import RandomPerspective
        >>> start, end = RandomPerspective().get_params(8, 6, 0.0)
        >>> start == end
        True
        """
        width = F._int(width, "get_params", "width", 1)
        height = F._int(height, "get_params", "height", 1)
        distortion_scale = _probability(distortion_scale, "get_params", "distortion_scale")
        dx, dy = int(distortion_scale * (width // 2)), int(distortion_scale * (height // 2))
        left = lambda: int(_uniform(0, dx + 1))  # noqa: E731
        right = lambda: int(_uniform(width - dx - 1, width))  # noqa: E731
        top = lambda: int(_uniform(0, dy + 1))  # noqa: E731
        bottom = lambda: int(_uniform(height - dy - 1, height))  # noqa: E731
        topleft = [left(), top()]
        topright = [right(), top()]
        botright = [right(), bottom()]
        botleft = [left(), bottom()]
        start = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return start, [topleft, topright, botright, botleft]

    def _apply_image(self, img):
        width, height = _image_size(img, "RandomPerspective")
        if _uniform(0.0, 1.0) < self.prob:
            start, end = self.get_params(width, height, self.distortion_scale)
            return F.perspective(img, start, end, self.interpolation, self.fill)
        return img

    def extra_repr(self):
        return _settings(self, ["prob", "distortion_scale", "interpolation", "fill"])


class Grayscale(BaseTransform):
    """Convert to grey with ``num_output_channels`` (1 or 3) channels.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import Grayscale
    >>> Grayscale()(np.zeros((2, 2, 3), dtype="uint8")).shape
    (2, 2, 1)
    """

    def __init__(self, num_output_channels=1, keys=None):
        super().__init__(keys)
        if num_output_channels not in (1, 3) or isinstance(num_output_channels, bool):
            raise ValueError(f"Grayscale(): argument 'num_output_channels' must be 1 or 3, "
                             f"got {describe(num_output_channels)}")
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return F.to_grayscale(img, self.num_output_channels)

    def extra_repr(self):
        return _settings(self, ["num_output_channels"])


class RandomErasing(BaseTransform):
    """With probability ``prob``, set a random box (area a fraction in ``scale`` of
    the image's, aspect ratio in ``ratio``) to ``value``: a number, one per channel,
    or ``'random'`` (normal noise).

    >>> import pylayer
    >>> from pylayer.vision.transforms import RandomErasing
    >>> _ = pylayer.seed(0)
    >>> out = RandomErasing(prob=1.0)(pylayer.ones([3, 8, 8]))
    >>> bool((out == 0).any()), out.shape
    (True, [3, 8, 8])
    """

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 keys=None):
        super().__init__(keys)
        self.prob = _probability(prob, "RandomErasing", "prob")
        self.scale = _range(scale, "RandomErasing", "scale")
        if self.scale[1] > 1:
            raise ValueError(f"RandomErasing(): argument 'scale' must lie in [0, 1], got "
                             f"{list(scale)}")
        self.ratio = _range(ratio, "RandomErasing", "ratio", positive=True)
        if isinstance(value, str):
            if value != "random":
                raise ValueError(f"RandomErasing(): argument 'value' must be a number, a "
                                 f"list/tuple of 1 or 3 numbers or 'random', got {value!r}")
        elif isinstance(value, (list, tuple)):
            if len(value) not in (1, 3):
                raise ValueError(f"RandomErasing(): argument 'value' must have 1 or 3 values "
                                 f"(the image's channels), got {len(value)}")
        elif isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"RandomErasing(): argument 'value' must be a number, a list/tuple "
                            f"or 'random', got {describe(value)}")
        self.value, self.inplace = value, inplace

    def _get_param(self, img, value):
        tensor = isinstance(img, Tensor)
        array = img if tensor else np.asarray(img)
        if tensor:
            c, h, w = array.shape[-3:]
        else:
            h, w = array.shape[:2]
            c = array.shape[2] if array.ndim == 3 else 1
        rng = pylayer.get_rng()
        log_ratio = np.log(self.ratio)
        for _ in range(10):
            area = rng.uniform(*self.scale) * h * w
            aspect = np.exp(rng.uniform(*log_ratio))
            eh, ew = int(round(np.sqrt(area * aspect))), int(round(np.sqrt(area / aspect)))
            if eh >= h or ew >= w:
                continue
            if value is None:
                shape = [c, eh, ew] if tensor else [eh, ew, c][:array.ndim]
                v = rng.normal(size=shape)
                v = pylayer.to_tensor(v).astype(img.dtype) if tensor else v * 255
            elif tensor:
                v = pylayer.to_tensor(np.asarray(value, np.float64).reshape(-1, 1, 1)).astype(
                    img.dtype)
            else:
                v = np.asarray(value)[None, None, :] if array.ndim == 3 else np.asarray(value)[0]
            return int(rng.integers(0, h - eh + 1)), int(rng.integers(0, w - ew + 1)), eh, ew, v
        return None

    def _apply_image(self, img):
        if _uniform(0.0, 1.0) >= self.prob:
            return img
        if isinstance(self.value, str):
            value = None
        elif isinstance(self.value, numbers.Real):
            value = [self.value]
        else:
            value = self.value
        found = self._get_param(img, value)
        if found is None:
            return img
        return F.erase(img, *found, inplace=self.inplace)

    def extra_repr(self):
        return _settings(self, ["prob", "scale", "ratio", "value", "inplace"])
