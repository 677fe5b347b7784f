"""Sampling an image at arbitrary points: ``affine_grid`` builds the points of an
affine transform, ``grid_sample`` reads the image there; and ``gather_tree``,
which walks beam-search parents back from the last step.

``grid_sample`` is a composition of recorded ops: each coordinate is the
grid's value scaled to pixels and, for the padding modes, mapped piecewise
linearly (``slope * coordinate + offset``, the slope and offset read from the
values); the corners are gathered with ``take`` and mixed with weights that
are recorded functions of the coordinates. So the gradients reach both the
image and the grid, and can be differentiated again.
"""
import math

import numpy as np

from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._arguments import check_choice, check_count, check_ints, float_tensor
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.arithmetic import add, multiply, subtract
from pylayer.ops.dispatch import op
from pylayer.ops.indexing import take
from pylayer.ops.linalg import matmul
from pylayer.ops.shape import reshape, transpose, unsqueeze

__all__ = ["affine_grid", "grid_sample", "gather_tree"]


# --------------------------------------------------------------- affine_grid
def _base_axis(size, align_corners):
    """The normalized positions of the ``size`` pixel centres of one axis."""
    positions = np.linspace(-1.0, 1.0, size) if size > 1 else np.zeros(size)
    return positions if align_corners else positions * (size - 1) / size


@op
def affine_grid(theta, out_shape, align_corners=True, name=None):
    """The sampling grid of the affine maps ``theta`` for :func:`grid_sample`.

    ``theta`` is ``[N, 2, 3]`` for images (``out_shape`` ``[N, C, H, W]``, the
    grid ``[N, H, W, 2]``) or ``[N, 3, 4]`` for volumes (``out_shape``
    ``[N, C, D, H, W]``, the grid ``[N, D, H, W, 3]``). Each output pixel's
    normalized position ``(x, y[, z], 1)`` goes through ``theta``; with
    ``align_corners=True`` -1 and 1 are the centres of the corner pixels, else
    their outer edges. The batch size is the one of ``theta``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> theta = pylayer.to_tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.5]]])
    >>> F.affine_grid(theta, [1, 1, 2, 2]).numpy()[0]
    array([[[-1. , -0.5],
            [ 1. , -0.5]],
    <BLANKLINE>
           [[-1. ,  1.5],
            [ 1. ,  1.5]]], dtype=float32)
    """
    fn = "affine_grid"
    theta = float_tensor(theta, fn, "theta", 1)
    if isinstance(out_shape, Tensor):
        out_shape = out_shape.numpy().tolist()
    out_shape = check_ints(out_shape, fn, "out_shape")
    if len(out_shape) not in (4, 5) or min(out_shape) < 1:
        raise ValueError(f"{fn}(): argument 'out_shape' must hold 4 or 5 positive ints, got "
                         f"{out_shape}")
    dims = len(out_shape) - 2
    if theta.ndim != 3 or theta.shape[1:] != [dims, dims + 1]:
        raise ValueError(f"{fn}(): argument 'theta' must be [N, {dims}, {dims + 1}] for an "
                         f"out_shape of {len(out_shape)} values, got shape {theta.shape}")
    sizes = out_shape[2:]
    count = math.prod(sizes)
    dtype = theta.numpy().dtype
    # The result and the homogeneous positions it is made from.
    check_count((theta.shape[0] * dims + dims + 1) * count, fn, "out_shape", dtype)
    # (x, y[, z]) run over the last, the second last[, the third last] axis.
    base = np.empty((*sizes, dims + 1), dtype)
    for k, size in enumerate(sizes[::-1]):
        shape = [1] * dims
        shape[dims - 1 - k] = size
        base[..., k] = _base_axis(size, bool(align_corners)).reshape(shape)
    base[..., dims] = 1.0
    grid = matmul(make_tensor(base.reshape(1, count, dims + 1)), transpose(theta, [0, 2, 1]))
    return reshape(grid, [theta.shape[0], *sizes, dims])


# --------------------------------------------------------------- grid_sample
def _pixel_coordinate(g, size, padding_mode, align_corners):
    """The normalized coordinates ``g`` in pixels, mapped by the padding mode."""
    if align_corners:
        c = multiply(add(g, 1.0), (size - 1) / 2.0)
    else:
        c = subtract(multiply(add(g, 1.0), size / 2.0), 0.5)
    if padding_mode == "zeros":
        return c
    v = c.numpy().astype(np.float64)
    if padding_mode == "reflection":
        low, span = (0.0, size - 1.0) if align_corners else (-0.5, float(size))
        if span <= 0:
            mapped, slope = np.zeros_like(v), np.zeros_like(v)
        else:
            shifted = np.abs(v - low)
            flips = np.floor(shifted / span)
            extra = shifted - flips * span
            even = np.mod(flips, 2) == 0
            mapped = low + np.where(even, extra, span - extra)
            slope = np.where(v < low, -1.0, 1.0) * np.where(even, 1.0, -1.0)
        v, before = mapped, slope
    else:
        before = np.ones_like(v)
    inside = (v >= 0) & (v <= size - 1)
    slope = np.where(inside, before, 0.0)
    mapped = np.clip(v, 0, size - 1)
    dtype = c.numpy().dtype
    return add(multiply(c, make_tensor(slope.astype(dtype))),
               make_tensor((mapped - slope * c.numpy()).astype(dtype)))


@op
def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True,
                name=None):
    """Sample ``x`` at the points of ``grid``.

    ``x`` is ``[N, C, H, W]`` with ``grid`` ``[N, H_out, W_out, 2]``, or
    ``[N, C, D, H, W]`` with ``grid`` ``[N, D_out, H_out, W_out, 3]``; the grid
    holds ``(x, y[, z])`` positions normalized to ``[-1, 1]`` (with
    ``align_corners=True`` the centres of the corner pixels, else their outer
    edges). ``mode`` ``'bilinear'`` mixes the neighbouring pixels, ``'nearest'``
    takes the closest. Points outside read zeros (``padding_mode='zeros'``),
    the edge pixels (``'border'``) or the image mirrored at its edges
    (``'reflection'``). The gradient reaches ``x`` and, in mode
    ``'bilinear'``, ``grid``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
    >>> F.grid_sample(x, pylayer.to_tensor([[[[0.0, 0.0], [1.0, -1.0]]]])).numpy()
    array([[[[1.5, 1. ]]]], dtype=float32)
    """
    fn = "grid_sample"
    x = float_tensor(x, fn, "x", 1)
    grid = float_tensor(grid, fn, "grid", 2)
    check_choice(mode, fn, "mode", ["bilinear", "nearest"])
    check_choice(padding_mode, fn, "padding_mode", ["zeros", "border", "reflection"])
    if x.ndim not in (4, 5):
        raise ValueError(f"{fn}(): argument 'x' must be 4-D or 5-D, got shape {x.shape}")
    dims = x.ndim - 2
    if grid.ndim != x.ndim or grid.shape[-1] != dims or grid.shape[0] != x.shape[0]:
        raise ValueError(f"{fn}(): argument 'grid' must be [{x.shape[0]}, "
                         f"{', '.join(['...'] * dims)}, {dims}] for x of shape {x.shape}, "
                         f"got shape {grid.shape}")
    if x.dtype != grid.dtype:
        raise TypeError(f"{fn}(): x and grid must have one dtype, got {x.dtype} and "
                        f"{grid.dtype}")
    n, c = x.shape[:2]
    sizes = x.shape[2:]
    out_points = grid.shape[1:-1]
    check_count(n * c * math.prod(out_points), fn, "grid", x.numpy().dtype)
    # Channels last, so that one gather per corner gives [N, *out_points, C].
    image = transpose(x, [0, *range(2, x.ndim), 1])
    batch = np.arange(n).reshape((n,) + (1,) * dims)
    # The grid's last axis holds (x, y[, z]): the spatial axes from the last.
    coords = [_pixel_coordinate(take(grid, (Ellipsis, dims - 1 - axis), False, fn),
                                sizes[axis], padding_mode, bool(align_corners))
              for axis in range(dims)]
    if mode == "nearest":
        index = [np.rint(cd.numpy()).astype(np.intp) for cd in coords]
        # A weight of 1 that still depends on the grid: its gradient is a Tensor of
        # zeros, as in Paddle, not None.
        corners = [(index, add(multiply(coords[0], 0.0), 1.0))]
    else:
        low = [np.floor(cd.numpy()).astype(np.intp) for cd in coords]
        upper = [subtract(cd, make_tensor(lo.astype(cd.numpy().dtype)))
                 for cd, lo in zip(coords, low)]
        lower = [subtract(1.0, u) for u in upper]
        corners = []
        for offsets in np.ndindex(*(2,) * dims):
            index = [lo + o for lo, o in zip(low, offsets)]
            weight = None
            for axis, o in enumerate(offsets):
                w = upper[axis] if o else lower[axis]
                weight = w if weight is None else multiply(weight, w)
            corners.append((index, weight))
    out = None
    dtype = x.numpy().dtype
    for index, weight in corners:
        valid = np.ones(index[0].shape, bool)
        for axis, i in enumerate(index):
            valid &= (i >= 0) & (i < sizes[axis])
        clipped = tuple(np.clip(i, 0, s - 1) for i, s in zip(index, sizes))
        values = take(image, (batch, *clipped), True, fn)
        weight = multiply(weight, make_tensor(valid.astype(dtype)))
        term = multiply(values, unsqueeze(weight, -1))
        out = term if out is None else add(out, term)
    return transpose(out, [0, x.ndim - 1, *range(1, x.ndim - 1)])


# --------------------------------------------------------------- gather_tree
@op
def gather_tree(ids, parents):
    """The full sequences of a beam search: ``ids`` and ``parents`` are
    ``[max_time, batch, beam]``; from the last step back, each beam follows its
    parent and collects the ids on the way.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> ids = pylayer.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
    >>> parents = pylayer.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
    >>> F.gather_tree(ids, parents).numpy().tolist()
    [[[2, 2], [1, 6]], [[3, 3], [6, 1]], [[0, 1], [9, 0]]]
    """
    fn = "gather_tree"
    ids = as_tensor_arg(ids, fn, "ids", 1)
    parents = as_tensor_arg(parents, fn, "parents", 2)
    for arg, t in (("ids", ids), ("parents", parents)):
        if t.dtype not in ("int32", "int64"):
            raise TypeError(f"{fn}(): argument '{arg}' must be an int32 or int64 tensor, got "
                            f"{t.dtype}")
    if ids.ndim != 3 or parents.shape != ids.shape:
        raise ValueError(f"{fn}(): ids and parents must be 3-D [max_time, batch, beam] of one "
                         f"shape, got {ids.shape} and {parents.shape}")
    a, p = ids.numpy(), parents.numpy()
    beam = a.shape[2]
    if p.size and (p.min() < 0 or p.max() >= beam):
        raise ValueError(f"{fn}(): argument 'parents' must hold beams in [0, {beam}), got "
                         f"values in [{p.min()}, {p.max()}]")
    out = np.empty_like(a)
    if a.shape[0]:
        out[-1] = a[-1]
        parent = p[-1]
        for step in range(a.shape[0] - 2, -1, -1):
            out[step] = np.take_along_axis(a[step], parent, axis=1)
            parent = np.take_along_axis(p[step], parent, axis=1)
    return make_tensor(out)
