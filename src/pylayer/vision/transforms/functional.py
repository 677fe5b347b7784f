"""Paddle's ``paddle.vision.transforms.functional``: image operations on a
``numpy.ndarray`` (``H x W x C`` or ``H x W``, interpolated as Paddle's OpenCV
backend does), a pylayer ``Tensor`` (``C x H x W``, built from pylayer ops, so a
gradient flows through) or a ``PIL.Image`` (when Pillow is installed: the image
goes through the numpy path and comes back as an image).

>>> import numpy as np
>>> from pylayer.vision.transforms import functional as F
>>> img = np.zeros((4, 6, 3), dtype="uint8")
>>> F.resize(img, (2, 3)).shape
(2, 3, 3)
"""
import math
import numbers
import sys

import numpy as np

import pylayer
import pylayer.nn.functional as nnf
from pylayer.extend import Tensor, describe
from pylayer.vision.transforms import _cv

__all__ = ["to_tensor", "normalize", "resize", "crop", "center_crop", "pad", "hflip", "vflip",
           "rotate", "affine", "perspective", "erase", "to_grayscale", "adjust_brightness",
           "adjust_contrast", "adjust_saturation", "adjust_hue"]

_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "area", "lanczos")
_WARP_INTERPOLATIONS = ("nearest", "bilinear", "bicubic")
_PADDING_MODES = ("constant", "edge", "reflect", "symmetric")
_GRAY_WEIGHTS = (0.2989, 0.5870, 0.1140)


def _pil_image():
    """Pillow's ``Image`` module when Pillow is already imported (an image of it can
    only exist then), else None."""
    return sys.modules.get("PIL.Image")


def _is_pil(img):
    module = _pil_image()
    return module is not None and isinstance(img, module.Image)


def _kind(img, fn, arg="img"):
    """``'tensor'``, ``'numpy'`` or ``'pil'``; TypeError for anything else."""
    if isinstance(img, Tensor):
        if img.ndim not in (3, 4):
            raise ValueError(f"{fn}(): argument '{arg}' must be a Tensor image of 3 or 4 "
                             f"dimensions (C x H x W or N x C x H x W), got {img.ndim} "
                             f"dimensions")
        return "tensor"
    if isinstance(img, np.ndarray):
        if img.ndim not in (2, 3):
            raise TypeError(f"{fn}(): argument '{arg}' must be a numpy.ndarray image of 2 or 3 "
                            f"dimensions (H x W x C), got {img.ndim} dimensions")
        if not (np.issubdtype(img.dtype, np.number) or img.dtype == np.bool_):
            raise TypeError(f"{fn}(): argument '{arg}' must hold numbers, got dtype {img.dtype}")
        return "numpy"
    if _is_pil(img):
        return "pil"
    raise TypeError(f"{fn}(): argument '{arg}' must be a PIL Image, a numpy.ndarray of 2 or 3 "
                    f"dimensions or a Tensor, got {type(img).__name__}")


def _through_numpy(img, fn, *args):
    """Run the numpy path on a PIL image and give an image back (one channel as an
    ``'L'`` image)."""
    out = fn(np.asarray(img), *args)
    if out.ndim == 3 and out.shape[2] == 1:
        out = out[:, :, 0]
    return _pil_image().fromarray(np.ascontiguousarray(out))


def _size(value, fn, arg, allow_int=True):
    """(height, width) from an int or a pair of ints."""
    if allow_int and isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = (int(value), int(value))
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int or a list/tuple of 2 ints "
                        f"(height, width), got {describe(value)}")
    if min(value) <= 0:
        raise ValueError(f"{fn}(): argument '{arg}' must be positive, got {list(value)}")
    return int(value[0]), int(value[1])


def _choice(value, fn, arg, choices):
    if not isinstance(value, str):
        raise TypeError(f"{fn}(): argument '{arg}' must be a str, one of {list(choices)}, "
                        f"got {describe(value)}")
    if value.lower() not in choices:
        raise ValueError(f"{fn}(): argument '{arg}' must be one of {list(choices)}, "
                         f"got {value!r}")
    return value.lower()


def _number(value, fn, arg, minimum=None, maximum=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{fn}(): argument '{arg}' must be a number, got {describe(value)}")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"{fn}(): argument '{arg}' must be a number, got nan")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        bounds = f"in [{minimum}, {maximum}]" if maximum is not None else f"at least {minimum}"
        raise ValueError(f"{fn}(): argument '{arg}' must be {bounds}, got {value}")
    return value


def _int(value, fn, arg, minimum=None, maximum=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int, got {describe(value)}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{fn}(): argument '{arg}' must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{fn}(): argument '{arg}' must be at most {maximum} (the image's "
                         f"extent), got {value}")
    return int(value)


def _extent(img, kind):
    """(height, width) of an image of ``kind``."""
    return tuple(img.shape[-2:]) if kind == "tensor" else np.asarray(img).shape[:2]


def _fill(fill, fn):
    if isinstance(fill, bool) or not isinstance(fill, (numbers.Real, list, tuple)) or (
            isinstance(fill, (list, tuple)) and not all(
                isinstance(v, numbers.Real) and not isinstance(v, bool) for v in fill)):
        raise TypeError(f"{fn}(): argument 'fill' must be a number or a list/tuple of numbers, "
                        f"got {describe(fill)}")
    return fill


def _points(value, fn, arg):
    try:
        array = np.asarray(value, dtype=np.float64) if isinstance(value, (list, tuple)) else None
    except (TypeError, ValueError):
        array = None
    if array is None or array.shape != (4, 2):
        raise ValueError(f"{fn}(): argument '{arg}' must be 4 points [x, y], got "
                         f"{describe(value) if array is None else list(array.shape)}")
    return array


def _as_float(img):
    """A float Tensor image and the dtype to give back."""
    return (img, None) if img.dtype.is_floating_point else (img.astype("float32"), img.dtype)


def _restore(out, dtype):
    return out if dtype is None else out.round().astype(dtype)


def to_tensor(pic, data_format="CHW"):
    """Convert a ``numpy.ndarray`` image (``H x W x C`` or ``H x W``) or a PIL image to
    a Tensor, ``C x H x W`` (``data_format='CHW'``) or ``H x W x C``. A ``uint8``
    image becomes ``float32`` in [0, 1]; other dtypes keep their values. A Tensor is
    given back as it is (transposed to ``H x W x C`` for ``'HWC'``).

    >>> import numpy as np
    >>> from pylayer.vision.transforms import to_tensor
    >>> t = to_tensor(np.full((2, 3, 3), 255, dtype="uint8"))
    >>> t.shape, t.dtype, float(t.max())
    ([3, 2, 3], pylayer.float32, 1.0)
    """
    kind = _kind(pic, "to_tensor", "pic")
    data_format = _choice(data_format, "to_tensor", "data_format", ("chw", "hwc"))
    if kind == "tensor":
        return pic if data_format == "chw" else pic.transpose((1, 2, 0))
    array = np.asarray(pic)
    if array.ndim == 2:
        array = array[:, :, None]
    if data_format == "chw":
        array = array.transpose(2, 0, 1)
    if array.dtype == np.uint8:
        return pylayer.to_tensor(array.astype(np.float32) / np.float32(255.0))
    return pylayer.to_tensor(np.ascontiguousarray(array))


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    """``(img - mean) / std`` per channel. ``data_format`` says where the channel axis
    is (``'CHW'`` or ``'HWC'``); ``to_rgb`` reverses the channels of a numpy image
    first. A numpy (or PIL) image gives a ``float32`` array, a Tensor a Tensor.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import normalize
    >>> img = np.full((2, 2, 3), 100, dtype="uint8")
    >>> normalize(img, [100, 50, 0], [1, 2, 4], data_format="HWC")[0, 0]
    array([ 0., 25., 25.], dtype=float32)
    """
    kind = _kind(img, "normalize")
    data_format = _choice(data_format, "normalize", "data_format", ("chw", "hwc"))
    for arg, value in (("mean", mean), ("std", std)):
        ok = isinstance(value, numbers.Real) or (isinstance(value, (list, tuple)) and all(
            isinstance(v, numbers.Real) for v in value))
        if not ok or isinstance(value, bool):
            raise TypeError(f"normalize(): argument '{arg}' must be a number or a list/tuple of "
                            f"numbers, got {describe(value)}")
    shape = (-1, 1, 1) if data_format == "chw" else (1, 1, -1)
    mean = np.asarray(mean, np.float32).reshape(shape)
    std = np.asarray(std, np.float32).reshape(shape)
    if np.any(std == 0):
        raise ValueError("normalize(): argument 'std' must not hold 0")
    if kind == "tensor":
        if img.ndim not in (3, 4):
            raise ValueError(f"normalize(): argument 'img' must be a 3-D or 4-D Tensor image, "
                             f"got {img.ndim} dimensions")
        if not img.dtype.is_floating_point:
            img = img.astype("float32")
        return (img - pylayer.to_tensor(mean, dtype=img.dtype)) / pylayer.to_tensor(
            std, dtype=img.dtype)
    array = np.asarray(img).astype(np.float32) if kind == "pil" else img
    if to_rgb:
        array = array[..., ::-1]
    channels = array.shape[0 if data_format == "chw" else -1] if array.ndim == 3 else 1
    if mean.size not in (1, channels) or std.size not in (1, channels):
        raise ValueError(f"normalize(): arguments 'mean' and 'std' must have 1 or {channels} "
                         f"values (the image's channels), got {mean.size} and {std.size}")
    return (array - mean) / std


def _resize_numpy(img, size, interpolation):
    h, w = img.shape[:2]
    if isinstance(size, int):
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        oh, ow = (int(size * h / w), size) if w < h else (size, int(size * w / h))
    else:
        oh, ow = size
    return _cv.resize(img, oh, ow, interpolation)


def resize(img, size, interpolation="bilinear"):
    """Resize an image to ``size``: ``(height, width)``, or an int for the shorter
    side (the other keeps the aspect ratio). ``interpolation`` is ``'nearest'``,
    ``'bilinear'``, ``'bicubic'``, ``'area'`` or ``'lanczos'`` (numpy images, as
    OpenCV computes them); a Tensor takes the modes of ``nn.functional.interpolate``.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import resize
    >>> resize(np.zeros((4, 8, 3), dtype="uint8"), 2).shape
    (2, 4, 3)
    """
    kind = _kind(img, "resize")
    size = _int(size, "resize", "size", 1) if isinstance(size, numbers.Integral) and not \
        isinstance(size, bool) else _size(size, "resize", "size", allow_int=False)
    interpolation = _choice(interpolation, "resize", "interpolation", _INTERPOLATIONS)
    if kind == "pil":
        return _through_numpy(img, _resize_numpy, size, interpolation)
    if kind == "numpy":
        return _resize_numpy(img, size, interpolation)
    h, w = img.shape[-2:]
    if isinstance(size, int):
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        size = (int(size * h / w), size) if w < h else (size, int(size * w / h))
    if interpolation == "lanczos":
        raise ValueError("resize(): argument 'interpolation' 'lanczos' is for numpy and PIL "
                         "images; a Tensor takes 'nearest', 'bilinear', 'bicubic' or 'area'")
    x, dtype = _as_float(img)
    out = nnf.interpolate(x if x.ndim == 4 else x.unsqueeze(0), size=list(size),
                          mode=interpolation, data_format="NCHW")
    return _restore(out if x.ndim == 4 else out.squeeze(0), dtype)


def crop(img, top, left, height, width):
    """The ``height x width`` box of an image whose top-left corner is at
    ``(top, left)``.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import crop
    >>> crop(np.arange(16).reshape(4, 4), 1, 2, 2, 2).tolist()
    [[6, 7], [10, 11]]
    """
    kind = _kind(img, "crop")
    h, w = _extent(img, kind)
    top, left = _int(top, "crop", "top", 0, h - 1), _int(left, "crop", "left", 0, w - 1)
    height, width = _int(height, "crop", "height", 1), _int(width, "crop", "width", 1)
    if kind == "pil":
        return _through_numpy(img, lambda a: a[top:top + height, left:left + width])
    if kind == "numpy":
        return img[top:top + height, left:left + width]
    return img[..., top:top + height, left:left + width]


def center_crop(img, output_size):
    """The central ``output_size`` box (an int or ``(height, width)``) of an image.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import center_crop
    >>> center_crop(np.arange(16).reshape(4, 4), 2).tolist()
    [[5, 6], [9, 10]]
    """
    kind = _kind(img, "center_crop")
    th, tw = _size(output_size, "center_crop", "output_size")
    h, w = _extent(img, kind)
    if th > h or tw > w:
        raise ValueError(f"center_crop(): argument 'output_size' {[th, tw]} is larger than the "
                         f"image ({h} x {w})")
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def _padding(padding, fn):
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        padding = (padding,) * 4
    elif isinstance(padding, (list, tuple)) and all(
            isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in padding):
        if len(padding) not in (2, 4):
            raise ValueError(f"{fn}(): argument 'padding' must be an int or a list/tuple of 2 "
                             f"or 4 ints, got {len(padding)} values")
        if len(padding) == 2:
            padding = (padding[0], padding[1], padding[0], padding[1])
    else:
        raise TypeError(f"{fn}(): argument 'padding' must be an int or a list/tuple of 2 or 4 "
                        f"ints, got {describe(padding)}")
    if min(padding) < 0:
        raise ValueError(f"{fn}(): argument 'padding' must not be negative, got {list(padding)}")
    return tuple(int(p) for p in padding)


def _pad_tensor(img, left, top, right, bottom, fill, mode):
    h, w = img.shape[-2:]
    if mode != "constant":
        if mode == "reflect" and (max(top, bottom) >= h or max(left, right) >= w):
            raise ValueError(f"pad(): 'reflect' padding must be smaller than the image "
                             f"({h} x {w}), got {[left, top, right, bottom]}")
        np_mode = {"edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}[mode]
        rows = np.pad(np.arange(h), (top, bottom), mode=np_mode)
        cols = np.pad(np.arange(w), (left, right), mode=np_mode)
        out = pylayer.index_select(img, pylayer.to_tensor(rows), axis=-2)
        return pylayer.index_select(out, pylayer.to_tensor(cols), axis=-1)
    x, dtype = _as_float(img)
    batch = x if x.ndim == 4 else x.unsqueeze(0)
    out = nnf.pad(batch, [left, right, top, bottom], mode="constant", value=0.0,
                  data_format="NCHW")
    out = out if x.ndim == 4 else out.squeeze(0)
    border = np.ones((h + top + bottom, w + left + right), np.float32)
    border[top:top + h, left:left + w] = 0
    values = _cv.fill_values(fill, img.shape[-3], "pad").reshape(-1, 1, 1)
    out = out + pylayer.to_tensor((border * values).astype(np.float32), dtype=out.dtype)
    return _restore(out, dtype)


def pad(img, padding, fill=0, padding_mode="constant"):
    """Pad an image on each side. ``padding`` is an int (all sides), ``(left/right,
    top/bottom)`` or ``(left, top, right, bottom)``; ``padding_mode`` is
    ``'constant'`` (``fill``: a number or one per channel), ``'edge'``,
    ``'reflect'`` (mirror without the edge) or ``'symmetric'`` (with it).

    >>> import numpy as np
    >>> from pylayer.vision.transforms import pad
    >>> pad(np.array([[1, 2, 3]]), (2, 0), padding_mode="reflect").tolist()
    [[3, 2, 1, 2, 3, 2, 1]]
    """
    kind = _kind(img, "pad")
    left, top, right, bottom = _padding(padding, "pad")
    fill = _fill(fill, "pad")
    mode = _choice(padding_mode, "pad", "padding_mode", _PADDING_MODES)
    if kind == "tensor":
        return _pad_tensor(img, left, top, right, bottom, fill, mode)
    array = np.asarray(img)
    if mode == "reflect" and (max(top, bottom) >= array.shape[0] or
                              max(left, right) >= array.shape[1]):
        raise ValueError(f"pad(): 'reflect' padding must be smaller than the image "
                         f"({array.shape[0]} x {array.shape[1]}), got {[left, top, right, bottom]}")
    if kind == "pil":
        return _through_numpy(img, _cv.pad, left, top, right, bottom, fill, mode, "pad")
    return _cv.pad(img, left, top, right, bottom, fill, mode, "pad")


def hflip(img):
    """Flip an image left to right.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import hflip
    >>> hflip(np.array([[1, 2, 3]])).tolist()
    [[3, 2, 1]]
    """
    kind = _kind(img, "hflip")
    if kind == "tensor":
        return pylayer.flip(img, axis=[-1])
    if kind == "pil":
        return _through_numpy(img, lambda a: np.ascontiguousarray(a[:, ::-1]))
    return np.ascontiguousarray(img[:, ::-1])


def vflip(img):
    """Flip an image top to bottom.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import vflip
    >>> vflip(np.array([[1], [2]])).tolist()
    [[2], [1]]
    """
    kind = _kind(img, "vflip")
    if kind == "tensor":
        return pylayer.flip(img, axis=[-2])
    if kind == "pil":
        return _through_numpy(img, lambda a: np.ascontiguousarray(a[::-1]))
    return np.ascontiguousarray(img[::-1])


def _tensor_warp(img, theta, ow, oh, mode, fill, fn):
    """Sample a ``C x H x W`` Tensor on the grid that ``theta`` (2x3, output pixel
    centre to source point, both measured from the image centre) gives, the fill
    colour outside."""
    if mode not in ("nearest", "bilinear"):
        raise ValueError(f"{fn}(): argument 'interpolation' must be 'nearest' or 'bilinear' "
                         f"for a Tensor image, got {mode!r}")
    h, w = img.shape[-2:]
    ys, xs = np.mgrid[0:oh, 0:ow].astype(np.float64)
    xs, ys = xs - ow * 0.5 + 0.5, ys - oh * 0.5 + 0.5
    theta = np.asarray(theta, np.float64).reshape(2, 3)
    gx = (theta[0, 0] * xs + theta[0, 1] * ys + theta[0, 2]) / (0.5 * w)
    gy = (theta[1, 0] * xs + theta[1, 1] * ys + theta[1, 2]) / (0.5 * h)
    return _sample(img, gx, gy, mode, fill)


def _sample(img, gx, gy, mode, fill):
    x, dtype = _as_float(img)
    squeeze = x.ndim == 3
    if squeeze:
        x = x.unsqueeze(0)
    n, c = x.shape[:2]
    grid = pylayer.to_tensor(np.stack([gx, gy], -1)[None].repeat(n, 0), dtype=x.dtype)
    x = pylayer.concat([x, pylayer.ones([n, 1] + x.shape[2:], dtype=x.dtype)], axis=1)
    out = nnf.grid_sample(x, grid, mode=mode, padding_mode="zeros", align_corners=False)
    mask, out = out[:, -1:], out[:, :-1]
    values = pylayer.to_tensor(_cv.fill_values(fill, c, "fill").reshape(1, c, 1, 1),
                               dtype=x.dtype)
    if mode == "nearest":
        outside = (mask < 0.5).astype(x.dtype)
        out = out * (1.0 - outside) + outside * values
    else:
        out = out * mask + (1.0 - mask) * values
    return _restore(out.squeeze(0) if squeeze else out, dtype)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    """Rotate an image by ``angle`` degrees counter-clockwise about ``center``
    (``(x, y)``; default the image centre). ``expand`` enlarges the output to hold
    the whole rotated image; ``fill`` colours what lies outside the source.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import rotate
    >>> rotate(np.array([[0, 1], [0, 0]], dtype="uint8"), 90, center=(0.5, 0.5)).tolist()
    [[1, 0], [0, 0]]
    """
    kind = _kind(img, "rotate")
    angle = _number(angle, "rotate", "angle")
    interpolation = _choice(interpolation, "rotate", "interpolation", _WARP_INTERPOLATIONS)
    if not isinstance(expand, (bool, np.bool_)):
        raise TypeError(f"rotate(): argument 'expand' must be a bool, got {describe(expand)}")
    if center is not None:
        center = _points_pair(center, "rotate", "center")
    fill = _fill(fill, "rotate")
    if kind == "pil":
        return _through_numpy(img, _rotate_numpy, angle, interpolation, expand, center, fill)
    if kind == "numpy":
        return _rotate_numpy(img, angle, interpolation, expand, center, fill)
    h, w = img.shape[-2:]
    a = math.radians(-angle % 360)
    cx, cy = (0.0, 0.0) if center is None else (center[0] - w * 0.5, center[1] - h * 0.5)
    cos, sin = math.cos(a), math.sin(a)
    theta = np.array([[cos, sin, cx - cos * cx - sin * cy], [-sin, cos, cy + sin * cx - cos * cy]])
    ow, oh = w, h
    if expand:
        corners = np.array([[-0.5 * w, -0.5 * h, 1], [-0.5 * w, 0.5 * h, 1],
                            [0.5 * w, 0.5 * h, 1], [0.5 * w, -0.5 * h, 1]]) @ theta.T
        ow, oh = (int(v) for v in np.ceil(corners.max(0)) - np.floor(corners.min(0)))
    return _tensor_warp(img, theta, ow, oh, interpolation, fill, "rotate")


def _points_pair(value, fn, arg):
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a list/tuple of 2 numbers, got "
                        f"{describe(value)}")
    return float(value[0]), float(value[1])


def _rotate_numpy(img, angle, interpolation, expand, center, fill):
    h, w = img.shape[:2]
    if center is None:
        center = (w / 2.0, h / 2.0)
    matrix = _cv.rotation_matrix(center, angle, 1.0)
    if expand:
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64)
        moved = corners @ _cv.rotation_matrix(center, angle, 1.0).T
        nw = math.ceil(round(moved[:, 0].max(), 9)) - math.floor(round(moved[:, 0].min(), 9))
        nh = math.ceil(round(moved[:, 1].max(), 9)) - math.floor(round(moved[:, 1].min(), 9))
        matrix[0, 2] += (nw - w) * 0.5
        matrix[1, 2] += (nh - h) * 0.5
        w, h = int(nw), int(nh)
    sx, sy = _cv.affine_sources(_cv.invert_affine(matrix), h, w)
    return _cv.warp(img, sx, sy, interpolation, fill, "rotate")


def _affine_inverse(center, angle, translate, scale, shear):
    """The 2x3 matrix from an output point to its source point (Paddle's convention:
    rotate, shear, scale about ``center``, then translate)."""
    rot, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    m = np.array([d, -b, 0.0, -c, a, 0.0]) / scale
    cx, cy = center
    tx, ty = translate
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m.reshape(2, 3)


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    """Rotate by ``angle`` degrees clockwise, shear by ``shear`` degrees (a number
    or ``(x, y)``), scale by ``scale`` about ``center`` (default the image centre),
    then move by ``translate`` pixels ``(x, y)``.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import affine
    >>> affine(np.array([[1, 2, 3]], dtype="uint8"), 0, (1, 0), 1.0, 0).tolist()
    [[0, 1, 2]]
    """
    kind = _kind(img, "affine")
    angle = _number(angle, "affine", "angle")
    translate = _points_pair(translate, "affine", "translate")
    scale = _number(scale, "affine", "scale")
    if scale <= 0:
        raise ValueError(f"affine(): argument 'scale' must be positive, got {scale}")
    if isinstance(shear, numbers.Real) and not isinstance(shear, bool):
        shear = (float(shear), 0.0)
    elif isinstance(shear, (list, tuple)) and len(shear) == 1:
        shear = (shear[0], shear[0])
    shear = _points_pair(shear, "affine", "shear")
    interpolation = _choice(interpolation, "affine", "interpolation", _WARP_INTERPOLATIONS)
    fill = _fill(fill, "affine")
    if center is not None:
        center = _points_pair(center, "affine", "center")
    if kind == "tensor":
        h, w = img.shape[-2:]
        centre = (0.0, 0.0) if center is None else (center[0] - w * 0.5, center[1] - h * 0.5)
        theta = _affine_inverse(centre, angle, translate, scale, shear)
        return _tensor_warp(img, theta, w, h, interpolation, fill, "affine")

    def run(array):
        h, w = array.shape[:2]
        centre = (w * 0.5, h * 0.5) if center is None else center
        inverse = _affine_inverse(centre, angle, translate, scale, shear)
        sx, sy = _cv.affine_sources(inverse, h, w)
        return _cv.warp(array, sx, sy, interpolation, fill, "affine")
    return _through_numpy(img, run) if kind == "pil" else run(img)


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    """Warp an image so that the four ``startpoints`` (``[x, y]`` each: top-left,
    top-right, bottom-right, bottom-left) land on the ``endpoints``.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import perspective
    >>> corners = [[0, 0], [2, 0], [2, 2], [0, 2]]
    >>> img = np.arange(9, dtype="uint8").reshape(3, 3)
    >>> bool((perspective(img, corners, corners) == img).all())
    True
    """
    kind = _kind(img, "perspective")
    start = _points(startpoints, "perspective", "startpoints")
    end = _points(endpoints, "perspective", "endpoints")
    interpolation = _choice(interpolation, "perspective", "interpolation", _WARP_INTERPOLATIONS)
    fill = _fill(fill, "perspective")
    try:
        forward = _cv.perspective_matrix(start, end)
        backward = _cv.perspective_matrix(end, start)
    except np.linalg.LinAlgError:
        raise ValueError("perspective(): the points must be 4 corners of which no 3 lie on a "
                         "line") from None
    if kind == "tensor":
        h, w = img.shape[-2:]
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64) + 0.5
        den = backward[2, 0] * xs + backward[2, 1] * ys + 1.0
        gx = (backward[0, 0] * xs + backward[0, 1] * ys + backward[0, 2]) / den / (0.5 * w) - 1
        gy = (backward[1, 0] * xs + backward[1, 1] * ys + backward[1, 2]) / den / (0.5 * h) - 1
        return _sample(img, gx, gy, interpolation, fill)

    def run(array):
        h, w = array.shape[:2]
        inverse = np.linalg.inv(forward)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            den = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
            sx = (inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]) / den
            sy = (inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]) / den
        return _cv.warp(array, sx, sy, interpolation, fill, "perspective")
    return _through_numpy(img, run) if kind == "pil" else run(img)


def erase(img, i, j, h, w, v, inplace=False):
    """Set the ``h x w`` box at row ``i``, column ``j`` of an image to ``v`` (a value,
    an array or a Tensor that broadcasts to the box). ``inplace`` writes into
    ``img`` itself; otherwise a copy is changed.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import erase
    >>> erase(np.ones((2, 3), dtype="uint8"), 0, 1, 1, 2, 0).tolist()
    [[1, 0, 0], [1, 1, 1]]
    """
    kind = _kind(img, "erase")
    height, width = _extent(img, kind)
    i, j = _int(i, "erase", "i", 0, height), _int(j, "erase", "j", 0, width)
    h, w = _int(h, "erase", "h", 0, height - i), _int(w, "erase", "w", 0, width - j)
    if not isinstance(inplace, (bool, np.bool_)):
        raise TypeError(f"erase(): argument 'inplace' must be a bool, got {describe(inplace)}")
    if isinstance(v, Tensor) and kind != "tensor":
        v = v.numpy()
    if not isinstance(v, (numbers.Number, np.ndarray, Tensor, list, tuple)) or isinstance(v, bool):
        raise TypeError(f"erase(): argument 'v' must be a number, an array or a Tensor, got "
                        f"{describe(v)}")
    if kind == "tensor":
        out = img if inplace else img.clone()
        out[..., i:i + h, j:j + w] = v
        return out
    if kind == "pil":
        return _through_numpy(img, lambda a: erase(a.copy(), i, j, h, w, v, True))
    out = img if inplace else img.copy()
    try:
        out[i:i + h, j:j + w, ...] = v
    except ValueError as error:
        raise ValueError(f"erase(): argument 'v' does not fit the box of {h} x {w}: {error}") \
            from None
    return out


def to_grayscale(img, num_output_channels=1):
    """The luma of an RGB image (ITU-R 601 weights), with 1 or 3 (equal) channels.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import to_grayscale
    >>> to_grayscale(np.full((1, 1, 3), 100, dtype="uint8")).tolist()
    [[[100]]]
    """
    kind = _kind(img, "to_grayscale")
    channels = _int(num_output_channels, "to_grayscale", "num_output_channels")
    if channels not in (1, 3):
        raise ValueError(f"to_grayscale(): argument 'num_output_channels' must be 1 or 3, "
                         f"got {channels}")
    if kind == "tensor":
        _channels(img, "to_grayscale", (3,), axis=-3)
        x, dtype = _as_float(img)
        weights = pylayer.to_tensor(np.asarray(_GRAY_WEIGHTS, np.float32).reshape(3, 1, 1),
                                    dtype=x.dtype)
        out = (x * weights).sum(axis=-3, keepdim=True)
        shape = list(out.shape)
        shape[-3] = channels
        return _restore(out.expand(shape), dtype)

    def run(array):
        _channels(array, "to_grayscale", (3,), axis=-1)
        luma = _cv.gray(array)[:, :, None]
        return np.repeat(luma, channels, axis=2) if channels == 3 else luma
    return _through_numpy(img, run) if kind == "pil" else run(img)


def _channels(img, fn, allowed, axis):
    count = img.shape[axis] if img.ndim >= 3 else 1
    if count not in allowed:
        raise ValueError(f"{fn}(): argument 'img' must have {' or '.join(map(str, allowed))} "
                         f"channels, got {count}")
    return count


def _blend(img, target, ratio):
    """``target + ratio * (img - target)``, clipped to the image's range, in its dtype
    (an integer result truncated, as a cast does)."""
    x, dtype = _as_float(img)
    out = (target + ratio * (x - target)).clip(0.0, 1.0 if dtype is None else 255.0)
    return out if dtype is None else out.astype(dtype)


def _factor(value, fn, arg):
    return _number(value, fn, arg, minimum=0.0)


def adjust_brightness(img, brightness_factor):
    """Scale an image's brightness: 0 gives black, 1 the image, 2 twice as bright. A
    numpy image is read as ``uint8``.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import adjust_brightness
    >>> adjust_brightness(np.array([[10, 200]], dtype="uint8"), 1.5).tolist()
    [[15, 255]]
    """
    kind = _kind(img, "adjust_brightness")
    factor = _factor(brightness_factor, "adjust_brightness", "brightness_factor")
    if kind == "tensor":
        _channels(img, "adjust_brightness", (1, 3), axis=-3)
        return _blend(img, 0.0, factor)
    table = np.clip(np.arange(256) * factor, 0, 255).astype(np.uint8)
    run = lambda array: table[np.asarray(array).astype(np.uint8)]  # noqa: E731
    return _through_numpy(img, run) if kind == "pil" else run(img)


def adjust_contrast(img, contrast_factor):
    """Scale an image's contrast: 0 gives a flat grey, 1 the image. A numpy image is
    read as ``uint8`` and stretched about 74 (Paddle's OpenCV backend); a Tensor
    about the mean of its luma.

    >>> import numpy as np
    >>> from pylayer.vision.transforms import adjust_contrast
    >>> adjust_contrast(np.array([[74, 100]], dtype="uint8"), 2.0).tolist()
    [[74, 126]]
    """
    kind = _kind(img, "adjust_contrast")
    factor = _factor(contrast_factor, "adjust_contrast", "contrast_factor")
    if kind == "tensor":
        channels = _channels(img, "adjust_contrast", (1, 3), axis=-3)
        x, _ = _as_float(img)
        gray = x if channels == 1 else to_grayscale(x)
        return _blend(img, gray.mean(axis=[-3, -2, -1], keepdim=True), factor)
    table = np.clip((np.arange(256) - 74) * factor + 74, 0, 255).astype(np.uint8)
    run = lambda array: table[np.asarray(array).astype(np.uint8)]  # noqa: E731
    return _through_numpy(img, run) if kind == "pil" else run(img)


def adjust_saturation(img, saturation_factor):
    """Scale an image's colour saturation: 0 gives its grey, 1 the image. A numpy
    image is blended with its grey by a factor drawn uniformly from
    ``[max(0, 1 - saturation_factor), 1 + saturation_factor]`` (Paddle's OpenCV
    backend).

    >>> import pylayer
    >>> from pylayer.vision.transforms.functional import adjust_saturation
    >>> img = pylayer.to_tensor([[[0.2]], [[0.4]], [[0.6]]])
    >>> [round(v, 3) for v in adjust_saturation(img, 0.0).numpy().ravel().tolist()]
    [0.363, 0.363, 0.363]
    """
    kind = _kind(img, "adjust_saturation")
    factor = _factor(saturation_factor, "adjust_saturation", "saturation_factor")
    if kind == "tensor":
        if _channels(img, "adjust_saturation", (1, 3), axis=-3) == 1:
            return img
        x, _ = _as_float(img)
        return _blend(img, to_grayscale(x), factor)

    def run(array):
        _channels(array, "adjust_saturation", (3,), axis=-1)
        alpha = pylayer.get_rng().uniform(max(0.0, 1.0 - factor), 1.0 + factor)
        work = array.astype(np.float32)
        gray = (0.114 * work[..., 0] + 0.587 * work[..., 1] + 0.299 * work[..., 2])[..., None]
        return (work * alpha + gray * (1 - alpha)).clip(0, 255).astype(array.dtype)
    return _through_numpy(img, run) if kind == "pil" else run(img)


def _rgb_to_hsv(x):
    maxc, minc = x.max(axis=-3), x.min(axis=-3)
    delta = maxc - minc
    flat = delta == 0
    ones = pylayer.ones_like(maxc)
    s = delta / pylayer.where(flat, ones, maxc)
    r, g, b = x.unbind(axis=-3)
    div = pylayer.where(flat, ones, delta)
    rc, gc, bc = (maxc - r) / div, (maxc - g) / div, (maxc - b) / div
    is_r = (maxc == r).astype(x.dtype)
    is_g = ((maxc == g) & (maxc != r)).astype(x.dtype)
    is_b = ((maxc != r) & (maxc != g)).astype(x.dtype)
    h = (is_r * (bc - gc) + is_g * (rc - bc + 2.0) + is_b * (gc - rc + 4.0)) / 6.0 + 1.0
    return h - h.trunc(), s, maxc


def _hsv_to_rgb(h, s, v):
    f6 = h * 6.0
    i = pylayer.floor(f6)
    f = f6 - i
    sector = i.astype("int64") % 6
    p = (v * (1.0 - s)).clip(0.0, 1.0)
    q = (v * (1.0 - s * f)).clip(0.0, 1.0)
    t = (v * (1.0 - s * (1.0 - f))).clip(0.0, 1.0)
    choices = ((v, q, p, p, t, v), (t, v, v, q, p, p), (p, p, t, v, v, q))
    channels = []
    for options in choices:
        out = pylayer.zeros_like(v)
        for k, value in enumerate(options):
            out = out + (sector == k).astype(v.dtype) * value
        channels.append(out)
    return pylayer.stack(channels, axis=-3)


def adjust_hue(img, hue_factor):
    """Turn an image's hue by ``hue_factor`` (in [-0.5, 0.5]) of a full turn. A numpy
    image is read as ``uint8`` and turned in OpenCV's 8-bit HSV with its channels
    taken as BGR (Paddle's OpenCV backend).

    >>> import pylayer
    >>> from pylayer.vision.transforms import adjust_hue
    >>> red = pylayer.to_tensor([[[1.0]], [[0.0]], [[0.0]]])
    >>> [round(v, 3) for v in adjust_hue(red, 1 / 3).numpy().ravel().tolist()]
    [0.0, 1.0, 0.0]
    """
    kind = _kind(img, "adjust_hue")
    factor = _number(hue_factor, "adjust_hue", "hue_factor", minimum=-0.5, maximum=0.5)
    if kind == "tensor":
        if _channels(img, "adjust_hue", (1, 3), axis=-3) == 1:
            return img
        scaled = img.dtype == pylayer.uint8
        x = img.astype("float32") / 255.0 if scaled else _as_float(img)[0]
        h, s, v = _rgb_to_hsv(x)
        h = h + factor
        out = _hsv_to_rgb(h - h.floor(), s, v)
        return (out * 255.0).astype(img.dtype) if scaled else out.astype(img.dtype)

    def run(array):
        _channels(array, "adjust_hue", (3,), axis=-1)
        bgr = np.asarray(array).astype(np.uint8)[..., ::-1]
        return _cv.shift_hue(bgr, factor)[..., ::-1].astype(array.dtype)
    return _through_numpy(img, run) if kind == "pil" else run(img)
