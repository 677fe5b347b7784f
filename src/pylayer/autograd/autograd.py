"""``jacobian`` and ``hessian``: lazily evaluated derivative matrices, as in Paddle.

A :class:`Jacobian` computes nothing when it is made. Indexing it (``J[:]``,
``J[1]``, ``J[:, 2]``) computes the rows it needs, one ``grad`` call per row
of the flattened ``ys``, and caches them. Rows are computed with
``create_graph=True``, so the result is itself differentiable: a
:class:`Hessian` is the Jacobian of the gradient. Both go through PyLayers,
the Hessian through their (differentiable) backward.

Shapes: without a batch axis, ``ys`` and ``xs`` are 0-D or 1-D and ``J`` has
shape ``ys.shape + xs.shape`` (``[M, N]``, ``[N]``, ``[M]`` or ``[]``). With
``batch_axis=0`` they are ``[B]`` or ``[B, n]`` and ``J`` has shape
``[B, M, N]`` (without the M or N of a 1-D ``ys`` or ``xs``); the batch
entries are assumed independent, as in Paddle.
"""
import builtins
from collections.abc import Sequence

import numpy as np

from pylayer._core.tensor import Tensor, make_tensor
from pylayer.autograd.functional import grad
from pylayer.ops.creation import zeros_like
from pylayer.ops.manipulation import stack

__all__ = ["jacobian", "hessian", "Jacobian", "Hessian"]


def _is_sequence(value):
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, Tensor))


def _tensor(value, fn, arg):
    if isinstance(value, Jacobian):
        return value._as_ys()
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' must be a Tensor or a tuple of Tensors, "
                        f"got {type(value).__name__}")
    return value


def _check_batch_axis(batch_axis, fn):
    if batch_axis is not None and (not isinstance(batch_axis, int) or batch_axis != 0
                                   or isinstance(batch_axis, bool)):
        raise ValueError(f"{fn}(): argument 'batch_axis' must be None or 0, got {batch_axis!r}")
    return batch_axis is not None


class Jacobian:
    """The Jacobian of ``ys`` with respect to ``xs``, evaluated row by row when indexed.

    Made by :func:`jacobian`. ``J.shape`` is its shape; ``J[...]`` (ints and
    slices) evaluates and returns a Tensor; any other attribute or an
    arithmetic operator evaluates the whole matrix first (``J.numpy()``).

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> J = paddle.autograd.jacobian(x * x, x)
    >>> J.shape, J[1].numpy()
    ([2, 2], array([0., 4.], dtype=float32))
    """

    def __init__(self, ys, xs, is_batched=False):
        ys = _tensor(ys, "jacobian", "ys")
        xs = _tensor(xs, "jacobian", "xs")
        ranks = (1, 2) if is_batched else (0, 1)
        for arg, t in (("xs", xs), ("ys", ys)):
            if t.ndim not in ranks:
                how = "with batch_axis=0" if is_batched else \
                    "without batch_axis (pass batch_axis=0 for a batch of vectors)"
                raise ValueError(f"jacobian(): {arg} must be {ranks[0]}-D or {ranks[1]}-D "
                                 f"{how}, got shape {t.shape}")
        if xs.stop_gradient:
            raise ValueError("jacobian(): xs has stop_gradient=True, so nothing can be "
                             "differentiated with respect to it; set xs.stop_gradient = False "
                             "before computing ys")
        if is_batched and ys.shape[0] != xs.shape[0]:
            raise ValueError(f"jacobian(): with batch_axis=0, ys and xs need the same batch "
                             f"size, got shapes {ys.shape} and {xs.shape}")
        self._xs = xs
        self._batched = is_batched
        self._ys_dims = ys.ndim
        self._xs_dims = xs.ndim
        self._flat_ys = ys.reshape([ys.shape[0], -1] if is_batched else [-1])
        lead = ys.shape[:1] if is_batched else []
        self.shape = lead + ys.shape[len(lead):len(lead) + 1] + xs.shape[len(lead):len(lead) + 1]
        self._rows = {}

    def _row(self, i):
        """d ys_flat[i] / d xs, flattened to [N] (or [B, N] with a batch axis)."""
        row = self._rows.get(i)
        if row is None:
            ys = self._flat_ys
            found = None
            if not ys.stop_gradient:
                # The gradient of ys[..., i] is the backward of ys from a one-hot
                # gradient: no indexing node, and no scatter of its gradient.
                onehot = np.zeros(ys._array.shape, ys._array.dtype)
                onehot[..., i] = 1
                (found,) = grad(ys, self._xs, make_tensor(onehot), create_graph=True,
                                allow_unused=True)
            found = zeros_like(self._xs) if found is None else found
            if found.ndim != (2 if self._batched else 1):
                found = found.reshape([found.shape[0], -1] if self._batched else [-1])
            row = self._rows[i] = found
        return row

    def _inner_index(self, index):
        """``index`` on ``shape`` as an index on the full [(B,) M, N] form."""
        if not self.shape:
            raise IndexError("Jacobian: a 0-D Jacobian (0-D ys and xs) cannot be indexed; "
                             "use J.numpy() or J.item()")
        index = index if isinstance(index, tuple) else (index,)
        if len(index) > len(self.shape):
            raise IndexError(f"Jacobian: too many indices ({len(index)}) for shape {self.shape}")
        index = index + (builtins.slice(None),) * (len(self.shape) - len(index))
        for i, (item, size) in enumerate(zip(index, self.shape)):
            if isinstance(item, builtins.slice):
                continue
            if not isinstance(item, int) or isinstance(item, bool):
                raise TypeError(f"Jacobian: indices must be ints or slices, got "
                                f"{type(item).__name__}")
            if not -size <= item < size:
                raise IndexError(f"Jacobian: index {item} is out of range for axis {i} of "
                                 f"size {size}")
        items = list(index)
        # A 0-D (or, batched, 1-D) ys or xs has no axis of its own: take its only entry.
        if self._batched:
            batch, rest = items[:1], items[1:]
            ys_part = [rest.pop(0)] if self._ys_dims == 2 else [0]
            xs_part = rest if self._xs_dims == 2 else [0]
            return tuple(batch + ys_part + xs_part)
        ys_part = [items.pop(0)] if self._ys_dims == 1 else [0]
        xs_part = items if self._xs_dims == 1 else [0]
        return tuple(ys_part + xs_part)

    def __getitem__(self, index):
        inner = self._inner_index(index)
        lazy_axis = 1 if self._batched else 0
        size = self._flat_ys.shape[lazy_axis]
        wanted = inner[lazy_axis]
        if isinstance(wanted, int):
            return self._row(wanted % size)[inner[:lazy_axis] + inner[lazy_axis + 1:]]
        rows = [self._row(i) for i in range(*wanted.indices(size))]
        if not rows:    # an empty selection: nothing to differentiate
            full = self._flat_ys.shape + [self._row(0).shape[-1]]
            return make_tensor(np.zeros(full, self._row(0).numpy().dtype)[inner])
        matrix = stack(rows, axis=lazy_axis)
        rest = inner[:lazy_axis] + inner[lazy_axis + 1:]
        if all(item == builtins.slice(None) for item in rest):
            return matrix       # every row, whole: no indexing node to differentiate through
        return matrix[inner[:lazy_axis] + (builtins.slice(None),) + inner[lazy_axis + 1:]]

    def _evaluate_all(self):
        if not self.shape:
            return self._row(0).reshape([])
        return self[:]

    def _as_ys(self):
        """The whole matrix as the ``ys`` of another Jacobian (a Hessian's inner one),
        never shown to the user: when ys has no axis of its own and xs has one, the
        only row itself (no indexing node whose backward each outer row would run)."""
        if self.shape and (self._ys_dims, self._xs_dims) == ((1, 2) if self._batched
                                                             else (0, 1)):
            return self._row(0)
        return self._evaluate_all()

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)

    def __repr__(self):
        return f"<{type(self).__name__} of shape {self.shape} ({len(self._rows)} rows computed)>"


def _evaluated_operator(name):
    def operator(self, other):
        other = other._evaluate_all() if isinstance(other, Jacobian) else other
        return getattr(self._evaluate_all(), name)(other)
    operator.__name__ = name
    return operator


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__pow__", "__mod__", "__floordiv__",
              "__matmul__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(Jacobian, _name, _evaluated_operator(_name))


class Hessian(Jacobian):
    """The Hessian of a scalar ``ys``: the Jacobian of its gradient. Made by :func:`hessian`.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> H = paddle.autograd.hessian((x * x * x).sum(), x)
    >>> H[:].numpy()
    array([[ 6.,  0.],
           [ 0., 12.]], dtype=float32)
    """


def jacobian(ys, xs, batch_axis=None):
    """The Jacobian of ``ys`` with respect to ``xs`` as a lazy :class:`Jacobian`.

    ``ys`` and ``xs`` are Tensors or tuples (lists) of Tensors; tuples give
    tuples of Jacobians, nested ``[i][j]`` for ``ys[i]`` and ``xs[j]``.
    Without ``batch_axis``, each must be 0-D or 1-D (``ValueError``
    otherwise); with ``batch_axis=0`` the first axis is a batch and each is
    1-D or 2-D. ``xs`` need ``stop_gradient=False``.

    >>> import pylayer
    >>> import pylayer as paddle
    >>> x = pylayer.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    >>> J = paddle.autograd.jacobian(x * x, x)
    >>> J.shape
    [3, 3]
    >>> J[1].numpy()
    array([0., 4., 0.], dtype=float32)
    >>> J[:, 2].numpy()
    array([0., 0., 6.], dtype=float32)
    >>> xb = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    >>> paddle.autograd.jacobian(xb * xb, xb, batch_axis=0).shape
    [2, 2, 2]
    """
    batched = _check_batch_axis(batch_axis, "jacobian")
    if _is_sequence(ys):
        return tuple(jacobian(y, xs, batch_axis) for y in ys)
    if _is_sequence(xs):
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def _as_hessian(found):
    if isinstance(found, tuple):
        return tuple(_as_hessian(item) for item in found)
    found.__class__ = Hessian
    return found


def hessian(ys, xs, batch_axis=None):
    """The Hessian of a one-element ``ys`` with respect to ``xs`` as a lazy :class:`Hessian`.

    Without ``batch_axis``, ``ys`` must have one element and ``xs`` be 0-D
    or 1-D: for ``xs`` of shape ``[N]`` the Hessian is ``[N, N]``. With
    ``batch_axis=0``, ``ys`` holds one value per batch entry (``[B]`` or
    ``[B, 1]``) and the Hessian is ``[B, N, N]``. A tuple ``xs`` gives a
    tuple of tuples: ``H[i][j]`` is the block for ``xs[i]`` and ``xs[j]``.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> y = paddle.to_tensor([3.0], stop_gradient=False)
    >>> H = paddle.autograd.hessian((x * x).sum() * y.sum(), (x, y))
    >>> H[0][1][:].numpy()
    array([[2.],
           [4.]], dtype=float32)
    """
    batched = _check_batch_axis(batch_axis, "hessian")
    ys = _tensor(ys, "hessian", "ys")
    for x in (xs if _is_sequence(xs) else [xs]):
        _tensor(x, "hessian", "xs")
    if batched:
        if ys.ndim == 0:    # IndexError, as in Paddle: there is no batch axis to index
            raise IndexError(f"hessian(): with batch_axis=0, ys needs a batch axis (shape [B] "
                             f"or [B, 1]), got a 0-D ys")
        if ys.size != ys.shape[0]:
            raise ValueError(f"hessian(): with batch_axis=0, ys must hold one value per batch "
                             f"entry (shape [B] or [B, 1]), got shape {ys.shape}")
        ys = ys.reshape([-1])
    else:
        if ys.size != 1:
            raise ValueError(f"hessian(): ys must have exactly one element without "
                             f"batch_axis, got shape {ys.shape}")
        ys = ys.reshape([])
    gradients = jacobian(ys, xs, batch_axis)
    if isinstance(gradients, tuple):
        return _as_hessian(tuple(jacobian(g, xs, batch_axis) for g in gradients))
    return _as_hessian(jacobian(gradients, xs, batch_axis))
