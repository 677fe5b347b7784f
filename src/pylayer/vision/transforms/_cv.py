"""The numpy kernels behind ``pylayer.vision.transforms`` for ``numpy.ndarray`` images
(``H x W x C`` or ``H x W``), interpolating as Paddle's OpenCV backend does.

Resizing is separable: one weight matrix per axis (``out x in``), applied with two
matrix products. For ``uint8`` images the weights are fixed-point numbers with 11
fractional bits and the result is rounded from 22 bits, as OpenCV's resize does.
Warps (rotate, affine, perspective) map each output pixel back to a source point
(pixel centres at integer coordinates) and read the image padded with the fill
colour outside, interpolating in floating point as OpenCV 5 does.
"""
import math

import numpy as np

__all__ = []

_BITS = 11
_ONE = 1 << _BITS
_CUBIC_A = -0.75


def hwc(img):
    """``img`` as ``H x W x C`` and whether it was ``H x W``."""
    return (img[:, :, None], True) if img.ndim == 2 else (img, False)


def finish(out, dtype, flat):
    """``out`` (float) cast back to ``dtype``: integers rounded half to even and
    saturated; ``flat`` drops the channel axis again."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    out = out.astype(dtype, copy=False)
    return out[:, :, 0] if flat else out


def _cubic(t):
    t = np.abs(t)
    a = _CUBIC_A
    return np.where(t <= 1, ((a + 2) * t - (a + 3)) * t * t + 1,
                    np.where(t < 2, ((a * t - 5 * a) * t + 8 * a) * t - 4 * a, 0.0))


def _lanczos4(d):
    x = np.pi * d
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(np.abs(d) < 1e-12, 1.0, np.sin(x) * np.sin(x / 4) / (x * x / 4))
    return w


def axis_weights(n_in, n_out, mode):
    """The ``n_out x n_in`` matrix that resizes one axis as OpenCV's ``mode`` does."""
    scale = n_in / n_out
    x = np.arange(n_out)
    w = np.zeros((n_out, n_in))
    if mode == "nearest":
        w[x, np.minimum(np.floor(x * scale).astype(np.int64), n_in - 1)] = 1.0
        return w
    if mode == "area":
        start, stop = x * scale, (x + 1) * scale
        cols = np.arange(n_in)
        cover = np.minimum(stop[:, None], cols + 1) - np.maximum(start[:, None], cols)
        return np.clip(cover, 0, None) / scale
    if mode == "area_linear":
        i0 = np.floor(x * scale).astype(np.int64)
        f = (x + 1) - (i0 + 1) / scale
        f = np.where(f <= 0, 0.0, f - np.floor(f))
    else:
        f = (x + 0.5) * scale - 0.5
        i0 = np.floor(f).astype(np.int64)
        f = f - i0
    if mode in ("bilinear", "area_linear"):
        low, high = i0 < 0, i0 >= n_in - 1
        f = np.where(low | high, 0.0, f)
        i0 = np.clip(i0, 0, n_in - 1)
        taps, weights = np.stack([i0, i0 + 1], 1), np.stack([1 - f, f], 1)
    elif mode == "bicubic":
        offsets = np.arange(-1, 3)
        taps = i0[:, None] + offsets
        weights = _cubic(f[:, None] - offsets)
    else:                                   # lanczos: 8 taps, normalised
        offsets = np.arange(-3, 5)
        taps = i0[:, None] + offsets
        weights = _lanczos4(f[:, None] - offsets)
        weights = weights / weights.sum(1, keepdims=True)
    rows = np.broadcast_to(x[:, None], taps.shape)
    np.add.at(w, (rows, np.clip(taps, 0, n_in - 1)), weights)
    return w


def _columns(x, weights):
    """``x`` (``h x w x c``) with its columns mixed by ``weights`` (``ow x w``): one
    matrix product."""
    h, w, c = x.shape
    out = x.transpose(0, 2, 1).reshape(h * c, w) @ weights.T
    return out.reshape(h, c, -1).transpose(0, 2, 1)


def _rows(x, weights):
    """``x`` (``h x w x c``) with its rows mixed by ``weights`` (``oh x h``)."""
    h, w, c = x.shape
    return (weights @ x.reshape(h, w * c)).reshape(-1, w, c)


def resize(img, oh, ow, mode):
    """``img`` resized to ``oh x ow``: each row first (its columns mixed), then each
    column; a ``uint8`` image in fixed point (a bilinear column pass rounds each of its two
    terms as OpenCV's vectorised code does)."""
    img, flat = hwc(img)
    h, w, c = img.shape
    if mode == "area" and (oh > h or ow > w):
        mode = "area_linear"        # OpenCV's area mode shrinks; growing is a linear blend
    wy, wx = axis_weights(h, oh, mode), axis_weights(w, ow, mode)
    if mode == "nearest":
        return finish(img[np.argmax(wy, 1)][:, np.argmax(wx, 1)], img.dtype, flat)
    if img.dtype == np.uint8 and mode in ("bilinear", "bicubic", "lanczos", "area_linear"):
        # integers held exactly in float64, so the matrix products are exact
        wy, wx = np.rint(wy * _ONE), np.rint(wx * _ONE)
        rows = _columns(img.astype(np.float64), wx).astype(np.int64)
        if mode in ("bilinear", "area_linear"):
            wy = wy.astype(np.int64)
            first = np.argmax(wy != 0, axis=1)
            last = h - 1 - np.argmax(wy[:, ::-1] != 0, axis=1)
            b0 = wy[np.arange(oh), first]
            b1 = np.where(last != first, wy[np.arange(oh), last], 0)
            out = (((b0[:, None, None] * (rows[first] >> 4)) >> 16)
                   + ((b1[:, None, None] * (rows[last] >> 4)) >> 16) + 2) >> 2
        else:
            out = (_rows(rows.astype(np.float64), wy).astype(np.int64)
                   + (1 << (2 * _BITS - 1))) >> (2 * _BITS)
        return finish(out, img.dtype, flat)
    single = img.dtype == np.float32 or (img.dtype == np.uint8 and mode == "area")
    work = np.float32 if single else np.float64        # OpenCV's accumulators
    out = _rows(_columns(img.astype(work), wx.astype(work)), wy.astype(work))
    if img.dtype == np.uint8 and mode == "area" and (h, w) == (2 * oh, 2 * ow):
        out = np.floor(out + 0.5)       # OpenCV's 2x2 box average rounds halves up
    return finish(out, img.dtype, flat)


def fill_values(fill, channels, fn):
    """The fill colour, one value per channel: a number fills every channel, a
    sequence gives them in order (the first ones, or the first repeated for one)."""
    values = np.atleast_1d(np.asarray(fill, dtype=np.float64)).ravel()
    if values.size == 1:
        return np.repeat(values, channels)
    if values.size < channels:
        raise ValueError(f"{fn}(): argument 'fill' has {values.size} values, but the image "
                         f"has {channels} channels")
    return values[:channels]


def pad(img, left, top, right, bottom, fill, mode, fn):
    """``img`` padded on each side; ``mode`` one of constant/edge/reflect/symmetric."""
    img, flat = hwc(img)
    if mode == "constant":
        h, w, c = img.shape
        out = np.empty((h + top + bottom, w + left + right, c), img.dtype)
        out[...] = finish(fill_values(fill, c, fn)[None, None, :], img.dtype, False)
        out[top:top + h, left:left + w] = img
    else:
        out = np.pad(img, ((top, bottom), (left, right), (0, 0)),
                     mode={"edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}[mode])
    return out[:, :, 0] if flat else out


def warp(img, sx, sy, mode, fill, fn):
    """The image sampled at the source points ``(sx, sy)`` (float arrays of the
    output's shape), the fill colour outside it, as OpenCV 5 samples: ``'nearest'``
    rounds the points in float32 (half to even), the others interpolate in float."""
    img, flat = hwc(img)
    h, w, c = img.shape
    margin = 3
    canvas = pad(img.astype(np.float64), margin, margin, margin, margin, fill, "constant", fn)
    last_row, last_col = h + 2 * margin - 1, w + 2 * margin - 1
    sx = np.clip(np.nan_to_num(sx, nan=-margin), -margin, w + margin)
    sy = np.clip(np.nan_to_num(sy, nan=-margin), -margin, h + margin)
    if mode == "nearest":
        ix = np.rint(sx.astype(np.float32)).astype(np.int64) + margin
        iy = np.rint(sy.astype(np.float32)).astype(np.int64) + margin
        return finish(canvas[np.clip(iy, 0, last_row), np.clip(ix, 0, last_col)], img.dtype, flat)
    ix, iy = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
    fx, fy = sx - ix, sy - iy
    if mode == "bilinear":
        offsets = np.arange(0, 2)
        wx, wy = np.stack([1 - fx, fx], -1), np.stack([1 - fy, fy], -1)
    else:
        offsets = np.arange(-1, 3)
        wx, wy = _cubic(fx[..., None] - offsets), _cubic(fy[..., None] - offsets)
    out = np.zeros(ix.shape + (c,))
    for a, oy in enumerate(offsets):          # 2 or 4 taps per axis, not per pixel
        rows = np.clip(iy + oy + margin, 0, last_row)
        for b, ox in enumerate(offsets):
            weight = wy[..., a] * wx[..., b]
            out += weight[..., None] * canvas[rows, np.clip(ix + ox + margin, 0, last_col)]
    return finish(out, img.dtype, flat)


def affine_sources(inverse, oh, ow):
    """Source points of an ``oh x ow`` output under the 2x3 ``inverse`` map (output
    point to source point)."""
    m = np.asarray(inverse, np.float64).reshape(2, 3)
    x, y = np.arange(ow, dtype=np.float64), np.arange(oh, dtype=np.float64)
    return (m[0, 0] * x[None, :] + (m[0, 1] * y + m[0, 2])[:, None],
            m[1, 0] * x[None, :] + (m[1, 1] * y + m[1, 2])[:, None])


def invert_affine(matrix):
    """The inverse of a forward 2x3 affine ``matrix``, as a 2x3 matrix."""
    full = np.vstack([np.asarray(matrix, np.float64).reshape(2, 3), [0, 0, 1]])
    return np.linalg.inv(full)[:2]


def rotation_matrix(center, angle, scale):
    """The forward 2x3 matrix rotating by ``angle`` degrees (counter-clockwise on the
    screen) and scaling about ``center``, as OpenCV's getRotationMatrix2D."""
    a = math.radians(angle)
    alpha, beta = scale * math.cos(a), scale * math.sin(a)
    cx, cy = center
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy],
                     [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def perspective_matrix(startpoints, endpoints):
    """The 3x3 homography taking the four ``startpoints`` to the ``endpoints``."""
    src = np.asarray(startpoints, np.float64)
    dst = np.asarray(endpoints, np.float64)
    a = np.zeros((8, 8))
    b = np.zeros(8)
    a[0::2, 0:2], a[0::2, 2] = src, 1
    a[1::2, 3:5], a[1::2, 5] = src, 1
    a[0::2, 6:8] = -src * dst[:, :1]
    a[1::2, 6:8] = -src * dst[:, 1:]
    b[0::2], b[1::2] = dst[:, 0], dst[:, 1]
    return np.append(np.linalg.solve(a, b), 1.0).reshape(3, 3)


def gray(img):
    """Luma of an RGB ``uint8`` or float image (ITU-R 601 weights), ``H x W``;
    ``uint8`` in OpenCV's 15-bit fixed point."""
    r, g, b = (img[..., k].astype(np.int64 if img.dtype == np.uint8 else np.float64)
               for k in range(3))
    if img.dtype == np.uint8:
        return ((r * 9798 + g * 19235 + b * 3735 + (1 << 14)) >> 15).astype(np.uint8)
    return (0.299 * r + 0.587 * g + 0.114 * b).astype(img.dtype)


def shift_hue(img, hue_factor):
    """An RGB ``uint8`` image with its hue turned by ``hue_factor`` of a full turn,
    through OpenCV's full-range 8-bit HSV (hue in 0..255, found with 12-bit fixed-point
    division tables; read back as 255 steps a turn, as OpenCV does)."""
    shift = 12
    rgb = img.astype(np.int64)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = rgb.max(-1)
    diff = v - rgb.min(-1)
    k = np.maximum(np.arange(256), 1)
    sdiv = np.rint((255 << shift) / k).astype(np.int64)
    hdiv = np.rint((256 << shift) / (6.0 * k)).astype(np.int64)
    sdiv[0] = hdiv[0] = 0
    s8 = (diff * sdiv[v] + (1 << (shift - 1))) >> shift
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * hdiv[diff] + (1 << (shift - 1))) >> shift
    h8 = np.where(h < 0, h + 256, h)
    h8 = (h8 + int(hue_factor * 255)) % 256
    hh = h8 * (6.0 / 255)           # OpenCV reads 8-bit full-range hue back over 0..255
    hh = np.where(hh >= 6, hh - 6, hh)
    sector = np.floor(hh).astype(np.int64)
    frac = hh - sector
    vv, ss = v / 255.0, s8 / 255.0
    p, q, t = vv * (1 - ss), vv * (1 - ss * frac), vv * (1 - ss * (1 - frac))
    out = np.stack([np.choose(sector, [vv, q, p, p, t, vv]),
                    np.choose(sector, [t, vv, vv, q, p, p]),
                    np.choose(sector, [p, p, t, vv, vv, q])], -1)
    return np.clip(np.rint(out * 255), 0, 255).astype(np.uint8)
