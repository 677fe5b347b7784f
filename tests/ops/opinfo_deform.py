"""The op database's entries of the deformable convolution,
``vision.ops.deform_conv2d`` (DCNv1, and DCNv2 with a mask).

The reference is a plain loop over every output pixel and kernel tap, written for
these tests in float64: it reads the image bilinearly at the tap's regular position
plus its offset (corners outside the image, and points on or beyond the ring of
pixels around it, read zero), scales by the mask and sums with the filter.

The offsets are drawn so that no sampled point lies within the central-difference
step of a pixel row or column, where bilinear reading has a kink."""
import numpy as np

import pylayer

from opinfo import OpInfo, T, samples
from _hostile_values import A, K, Call, _value

_SUMS = {"float32": (1e-5, 1e-6)}


def _pair(v):
    return list(v) if isinstance(v, (list, tuple)) else [v, v]


def _read(image, y, x):
    """``image`` ([H, W]) bilinearly at (y, x); zero outside."""
    h, w = image.shape
    if not (-1 < y < h and -1 < x < w):
        return 0.0
    y0, x0 = int(np.floor(y)), int(np.floor(x))
    total = 0.0
    for yy, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for xx, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if 0 <= yy < h and 0 <= xx < w:
                total += wy * wx * image[yy, xx]
    return total


def deform_conv2d_reference(x, offset, weight, bias=None, stride=1, padding=0, dilation=1,
                            deformable_groups=1, groups=1, mask=None):
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    n, c, h, w = x.shape
    c_out, c_group, kh, kw = weight.shape
    ho, wo = offset.shape[2:]
    per_dg = c // deformable_groups
    columns = np.zeros((n, c, kh, kw, ho, wo))
    for b in range(n):
        for ch in range(c):
            g = ch // per_dg
            for i in range(kh):
                for j in range(kw):
                    k = i * kw + j
                    for oy in range(ho):
                        for ox in range(wo):
                            y = oy * sh - ph + i * dh + offset[b, 2 * (g * kh * kw + k), oy, ox]
                            xp = ox * sw - pw + j * dw + offset[b, 2 * (g * kh * kw + k) + 1,
                                                                oy, ox]
                            value = _read(x[b, ch].astype(np.float64), y, xp)
                            if mask is not None:
                                value *= mask[b, g * kh * kw + k, oy, ox]
                            columns[b, ch, i, j, oy, ox] = value
    out = np.zeros((n, c_out, ho, wo))
    per_group = c_out // groups
    for o in range(c_out):
        g = o // per_group
        cols = columns[:, g * c_group:(g + 1) * c_group]
        out[:, o] = np.einsum("bcijyx,cij->byx", cols, weight[o].astype(np.float64))
        if bias is not None:
            out[:, o] += bias[o]
    return out.astype(x.dtype)


ENTRIES = [
    OpInfo("vision.ops.deform_conv2d", deform_conv2d_reference, samples(
        (T((1, 2, 3, 3)), T((1, 18, 1, 1), -1.9, 1.9), T((1, 2, 3, 3))),
        ((T((1, 2, 3, 3)), T((1, 8, 2, 2), -1.4, 1.4), T((2, 2, 2, 2)), T((2,))),
         {"padding": 1, "stride": 2}),
        # the mask is the tenth positional parameter
        (T((1, 2, 3, 3)), T((1, 8, 2, 2), -1.4, 1.4), T((2, 2, 2, 2)), T((2,)), 2, 1, 1, 1, 1,
         T((1, 4, 2, 2), 0.2, 1.0)),
        (T((2, 4, 4, 3)), T((2, 24, 2, 2), -1.9, 1.9), T((2, 2, 2, 3)), None, (1, 2), (0, 1),
         (2, 1), 2, 2, T((2, 12, 2, 2), -1.0, 1.0))), tolerance=_SUMS,
           call=Call(A("x", lambda env: pylayer.ones([1, 2, 3, 3]), "float_tensor"),
                     A("offset", lambda env: pylayer.zeros([1, 8, 2, 2]), "float_tensor"),
                     A("weight", lambda env: pylayer.ones([1, 2, 2, 2]), "float_tensor"),
                     K("bias", lambda env: pylayer.ones([1]), "tensor_or_none"),
                     K("stride", _value(1), "size"), K("padding", _value(0), "size"),
                     K("dilation", _value(1), "size"),
                     K("deformable_groups", _value(1), "positive_int"),
                     K("groups", _value(1), "positive_int"),
                     K("mask", lambda env: pylayer.ones([1, 4, 2, 2]), "tensor_or_none"))),
]
