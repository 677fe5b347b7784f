"""Transforms of random variables: invertible maps with their log-det-Jacobians."""
import math

import numpy as np

import pylayer
from pylayer._core.tensor import Tensor
from pylayer.ops._arguments import describe

__all__ = ["Transform", "AbsTransform", "AffineTransform", "ChainTransform", "ExpTransform",
           "IndependentTransform", "PowerTransform", "ReshapeTransform", "SigmoidTransform",
           "SoftmaxTransform", "StackTransform", "StickBreakingTransform", "TanhTransform"]


def _tensor(value, fn, arg, position=1):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a Tensor, got "
                        f"{describe(value)}")
    if not value.dtype.name.startswith(("float", "bfloat")):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a float "
                        f"Tensor, got dtype {value.dtype.name}")
    return value


def _shape(value, fn, arg="shape"):
    if not isinstance(value, (list, tuple)) or any(
            not isinstance(s, (int, np.integer)) or isinstance(s, bool) for s in value):
        raise TypeError(f"{fn}(): argument '{arg}' (position 1) must be a list or tuple of "
                        f"ints, got {describe(value)}")
    if any(s < 0 for s in value):
        raise ValueError(f"{fn}(): argument '{arg}' (position 1) must hold sizes >= 0, got "
                         f"{list(value)}")
    return tuple(int(s) for s in value)


def _sum_rightmost(x, count):
    return x.sum(axis=list(range(-count, 0))) if count > 0 else x


class Transform:
    """The base class of the transforms: a map ``y = f(x)`` with its inverse, the log of
    the absolute determinant of its Jacobian (``forward_log_det_jacobian``), and how it
    changes shapes. Calling a transform on a :class:`~pylayer.distribution.Distribution`
    gives the :class:`~pylayer.distribution.TransformedDistribution`; on another transform,
    their :class:`ChainTransform` (this one applied last); on a Tensor, ``forward``.

    >>> import pylayer
    >>> t = pylayer.distribution.ExpTransform()
    >>> t.forward(pylayer.to_tensor([0.0, 1.0])).numpy().round(4)
    array([1.    , 2.7183], dtype=float32)
    """

    _domain_rank = 0
    _codomain_rank = 0

    def __init__(self):
        super().__init__()

    def __repr__(self):
        arguments = ", ".join(f"{name}={value!r}" for name, value in self._arguments().items())
        return f"{type(self).__name__}({arguments})"

    def _arguments(self):
        return {}

    def __call__(self, input):
        from pylayer.distribution._base import Distribution
        from pylayer.distribution.transformed import TransformedDistribution
        if isinstance(input, Distribution):
            return TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([input, self])
        return self.forward(input)

    def forward(self, x):
        """``y = f(x)``.

        >>> import pylayer
        >>> pylayer.distribution.TanhTransform().forward(pylayer.to_tensor(0.0)).item()
        0.0
        """
        return self._forward(_tensor(x, f"{type(self).__name__}.forward", "x"))

    def inverse(self, y):
        """``x = f^-1(y)``.

        >>> import pylayer
        >>> pylayer.distribution.ExpTransform().inverse(pylayer.to_tensor(1.0)).item()
        0.0
        """
        return self._inverse(_tensor(y, f"{type(self).__name__}.inverse", "y"))

    def forward_log_det_jacobian(self, x):
        """``log |det J_f(x)|``, summed over the transform's event axes.

        >>> import pylayer
        >>> t = pylayer.distribution.ExpTransform()
        >>> t.forward_log_det_jacobian(pylayer.to_tensor(2.0)).item()
        2.0
        """
        x = _tensor(x, f"{type(self).__name__}.forward_log_det_jacobian", "x")
        return self._forward_log_det_jacobian(x)

    def inverse_log_det_jacobian(self, y):
        """``log |det J_{f^-1}(y)|``, minus the forward one at ``f^-1(y)``.

        >>> import pylayer
        >>> t = pylayer.distribution.ExpTransform()
        >>> round(t.inverse_log_det_jacobian(pylayer.to_tensor(2.0)).item(), 4)
        -0.6931
        """
        y = _tensor(y, f"{type(self).__name__}.inverse_log_det_jacobian", "y")
        return self._inverse_log_det_jacobian(y)

    def forward_shape(self, shape):
        """The shape of ``forward(x)`` for ``x`` of ``shape``.

        >>> import pylayer
        >>> pylayer.distribution.StickBreakingTransform().forward_shape([2, 3])
        (2, 4)
        """
        fn = f"{type(self).__name__}.forward_shape"
        shape = _shape(shape, fn)
        if len(shape) < self._domain_rank:
            raise ValueError(f"{fn}(): argument 'shape' (position 1) needs at least "
                             f"{self._domain_rank} axes, got {list(shape)}")
        return self._forward_shape(shape)

    def inverse_shape(self, shape):
        """The shape of ``inverse(y)`` for ``y`` of ``shape``.

        >>> import pylayer
        >>> pylayer.distribution.StickBreakingTransform().inverse_shape([2, 4])
        (2, 3)
        """
        fn = f"{type(self).__name__}.inverse_shape"
        shape = _shape(shape, fn)
        if len(shape) < self._codomain_rank:
            raise ValueError(f"{fn}(): argument 'shape' (position 1) needs at least "
                             f"{self._codomain_rank} axes, got {list(shape)}")
        return self._inverse_shape(shape)

    def _forward(self, x):
        raise NotImplementedError(f"{type(self).__name__} has no forward")

    def _inverse(self, y):
        raise NotImplementedError(f"{type(self).__name__} has no inverse")

    def _forward_log_det_jacobian(self, x):
        raise NotImplementedError(f"{type(self).__name__} has no log-det-Jacobian")

    def _inverse_log_det_jacobian(self, y):
        return -self._forward_log_det_jacobian(self._inverse(y))

    def _forward_shape(self, shape):
        return shape

    def _inverse_shape(self, shape):
        return shape


class AbsTransform(Transform):
    """``y = |x|``. It is not one-to-one: ``inverse(y)`` gives the pair ``(-y, y)`` and
    ``inverse_log_det_jacobian`` the pair of zeros, as in Paddle.

    >>> import pylayer
    >>> t = pylayer.distribution.AbsTransform()
    >>> [v.numpy() for v in t.inverse(pylayer.to_tensor([2.0]))]
    [array([-2.], dtype=float32), array([2.], dtype=float32)]
    """

    def _forward(self, x):
        return pylayer.abs(x)

    def _inverse(self, y):
        return -y, y * 1

    def _inverse_log_det_jacobian(self, y):
        zero = pylayer.zeros_like(y)
        return zero, zero


class AffineTransform(Transform):
    """``y = loc + scale * x`` with Tensors ``loc`` and ``scale``.

    >>> import pylayer
    >>> t = pylayer.distribution.AffineTransform(pylayer.to_tensor(1.0), pylayer.to_tensor(2.0))
    >>> t.forward(pylayer.to_tensor([0.0, 1.0])).numpy()
    array([1., 3.], dtype=float32)
    """

    def __init__(self, loc, scale):
        self._loc = _tensor(loc, "AffineTransform", "loc", 1)
        self._scale = _tensor(scale, "AffineTransform", "scale", 2)
        super().__init__()

    @property
    def loc(self):
        """The shift."""
        return self._loc

    @property
    def scale(self):
        """The scale."""
        return self._scale

    def _arguments(self):
        return {"loc": self._loc, "scale": self._scale}

    def _forward(self, x):
        return self._loc + self._scale * x

    def _inverse(self, y):
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x):
        return pylayer.log(pylayer.abs(self._scale)) + pylayer.zeros_like(x)

    def _forward_shape(self, shape):
        return tuple(np.broadcast_shapes(shape, tuple(self._loc.shape), tuple(self._scale.shape)))

    _inverse_shape = _forward_shape


class ChainTransform(Transform):
    """The composition of ``transforms``, applied in order (the first one first).

    >>> import pylayer
    >>> D = pylayer.distribution
    >>> double = D.AffineTransform(pylayer.to_tensor(0.0), pylayer.to_tensor(2.0))
    >>> t = D.ChainTransform([double, D.ExpTransform()])
    >>> round(t.forward(pylayer.to_tensor(1.0)).item(), 4)
    7.3891
    """

    def __init__(self, transforms):
        if not isinstance(transforms, (list, tuple)) or not all(
                isinstance(t, Transform) for t in transforms):
            raise TypeError(f"ChainTransform(): argument 'transforms' (position 1) must be a "
                            f"list of Transforms, got {describe(transforms)}")
        self.transforms = list(transforms)
        rank = 0
        for t in reversed(self.transforms):
            rank = t._domain_rank + max(rank - t._codomain_rank, 0)
        self._domain_rank = rank
        rank = 0
        for t in self.transforms:
            rank = t._codomain_rank + max(rank - t._domain_rank, 0)
        self._codomain_rank = rank
        super().__init__()

    def _arguments(self):
        return {"transforms": self.transforms}

    def _forward(self, x):
        for t in self.transforms:
            x = t._forward(x)
        return x

    def _inverse(self, y):
        for t in reversed(self.transforms):
            y = t._inverse(y)
        return y

    def _forward_log_det_jacobian(self, x):
        if not self.transforms:
            return pylayer.zeros_like(x)
        total, rank = 0.0, self._domain_rank
        for t in self.transforms:
            total = total + _sum_rightmost(t._forward_log_det_jacobian(x),
                                           rank - t._domain_rank)
            rank += t._codomain_rank - t._domain_rank
            x = t._forward(x)
        return total

    def _forward_shape(self, shape):
        for t in self.transforms:
            shape = t._forward_shape(shape)
        return shape

    def _inverse_shape(self, shape):
        for t in reversed(self.transforms):
            shape = t._inverse_shape(shape)
        return shape


class ExpTransform(Transform):
    """``y = exp(x)``.

    >>> import pylayer
    >>> pylayer.distribution.ExpTransform().inverse(pylayer.to_tensor([1.0])).numpy()
    array([0.], dtype=float32)
    """

    def _forward(self, x):
        return pylayer.exp(x)

    def _inverse(self, y):
        return pylayer.log(y)

    def _forward_log_det_jacobian(self, x):
        return x * 1


class IndependentTransform(Transform):
    """``base`` with its rightmost ``reinterpreted_batch_rank`` batch axes taken as event
    axes: the log-det-Jacobian is summed over them.

    >>> import pylayer
    >>> D = pylayer.distribution
    >>> t = D.IndependentTransform(D.ExpTransform(), 1)
    >>> t.forward_log_det_jacobian(pylayer.to_tensor([[1.0, 2.0]])).numpy()
    array([3.], dtype=float32)
    """

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Transform):
            raise TypeError(f"IndependentTransform(): argument 'base' (position 1) must be a "
                            f"Transform, got {describe(base)}")
        rank = reinterpreted_batch_rank
        if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)):
            raise TypeError(f"IndependentTransform(): argument 'reinterpreted_batch_rank' "
                            f"(position 2) must be an int, got {describe(rank)}")
        if rank <= 0:
            raise ValueError(f"IndependentTransform(): argument 'reinterpreted_batch_rank' "
                             f"(position 2) must be positive, got {rank}")
        self._base, self._rank = base, int(rank)
        self._domain_rank = base._domain_rank + self._rank
        self._codomain_rank = base._codomain_rank + self._rank
        super().__init__()

    def _arguments(self):
        return {"base": self._base, "reinterpreted_batch_rank": self._rank}

    def _forward(self, x):
        if x.ndim < self._domain_rank:
            raise ValueError(f"IndependentTransform.forward(): argument 'x' needs at least "
                             f"{self._domain_rank} axes, got shape {list(x.shape)}")
        return self._base._forward(x)

    def _inverse(self, y):
        return self._base._inverse(y)

    def _forward_log_det_jacobian(self, x):
        return _sum_rightmost(self._base._forward_log_det_jacobian(x), self._rank)

    def _forward_shape(self, shape):
        return self._base._forward_shape(shape)

    def _inverse_shape(self, shape):
        return self._base._inverse_shape(shape)


class PowerTransform(Transform):
    """``y = x ** power`` on positive ``x``, with a Tensor ``power``.

    >>> import pylayer
    >>> t = pylayer.distribution.PowerTransform(pylayer.to_tensor(2.0))
    >>> t.forward(pylayer.to_tensor([3.0])).numpy()
    array([9.], dtype=float32)
    """

    def __init__(self, power):
        self._power = _tensor(power, "PowerTransform", "power")
        super().__init__()

    @property
    def power(self):
        """The exponent."""
        return self._power

    def _arguments(self):
        return {"power": self._power}

    def _forward(self, x):
        return pylayer.pow(x, self._power)

    def _inverse(self, y):
        return pylayer.pow(y, 1 / self._power)

    def _forward_log_det_jacobian(self, x):
        return pylayer.log(pylayer.abs(self._power * pylayer.pow(x, self._power - 1)))

    def _forward_shape(self, shape):
        return tuple(np.broadcast_shapes(shape, tuple(self._power.shape)))

    _inverse_shape = _forward_shape


class ReshapeTransform(Transform):
    """Reshape the event from ``in_event_shape`` to ``out_event_shape`` (the same number
    of elements); the log-det-Jacobian is 0.

    >>> import pylayer
    >>> t = pylayer.distribution.ReshapeTransform((2, 3), (3, 2))
    >>> t.forward(pylayer.ones([4, 2, 3])).shape
    [4, 3, 2]
    """

    def __init__(self, in_event_shape, out_event_shape):
        self._in = _shape(in_event_shape, "ReshapeTransform", "in_event_shape")
        self._out = _shape(out_event_shape, "ReshapeTransform", "out_event_shape")
        if math.prod(self._in) != math.prod(self._out):
            raise ValueError(f"ReshapeTransform(): 'in_event_shape' {list(self._in)} and "
                             f"'out_event_shape' {list(self._out)} must hold the same number "
                             f"of elements")
        self._domain_rank, self._codomain_rank = len(self._in), len(self._out)
        super().__init__()

    @property
    def in_event_shape(self):
        """The event shape before the transform."""
        return self._in

    @property
    def out_event_shape(self):
        """The event shape after the transform."""
        return self._out

    def _arguments(self):
        return {"in_event_shape": self._in, "out_event_shape": self._out}

    def _split(self, shape, event, fn, arg):
        if tuple(shape[len(shape) - len(event):]) != event or len(shape) < len(event):
            raise ValueError(f"{fn}(): argument '{arg}' must end with the event shape "
                             f"{list(event)}, got {list(shape)}")
        return list(shape[:len(shape) - len(event)])

    def _forward(self, x):
        batch = self._split(x.shape, self._in, "ReshapeTransform.forward", "x")
        return x.reshape(batch + list(self._out))

    def _inverse(self, y):
        batch = self._split(y.shape, self._out, "ReshapeTransform.inverse", "y")
        return y.reshape(batch + list(self._in))

    def _forward_log_det_jacobian(self, x):
        batch = self._split(x.shape, self._in, "ReshapeTransform.forward_log_det_jacobian", "x")
        return pylayer.zeros(batch, x.dtype)

    def _inverse_log_det_jacobian(self, y):
        batch = self._split(y.shape, self._out, "ReshapeTransform.inverse_log_det_jacobian",
                            "y")
        return pylayer.zeros(batch, y.dtype)

    def _forward_shape(self, shape):
        return tuple(self._split(shape, self._in, "ReshapeTransform.forward_shape", "shape")) \
            + self._out

    def _inverse_shape(self, shape):
        return tuple(self._split(shape, self._out, "ReshapeTransform.inverse_shape", "shape")) \
            + self._in


class SigmoidTransform(Transform):
    """``y = sigmoid(x)``, onto ``(0, 1)``.

    >>> import pylayer
    >>> pylayer.distribution.SigmoidTransform().forward(pylayer.to_tensor([0.0])).numpy()
    array([0.5], dtype=float32)
    """

    def _forward(self, x):
        return pylayer.sigmoid(x)

    def _inverse(self, y):
        return pylayer.log(y) - pylayer.log1p(-y)

    def _forward_log_det_jacobian(self, x):
        softplus = pylayer.nn.functional.softplus
        return -softplus(-x) - softplus(x)


class SoftmaxTransform(Transform):
    """``y = softmax(x)`` over the last axis. It is not one-to-one: ``inverse`` gives
    ``log(y)`` (one of the preimages) and it has no log-det-Jacobian.

    >>> import pylayer
    >>> t = pylayer.distribution.SoftmaxTransform()
    >>> t.forward(pylayer.to_tensor([0.0, 0.0])).numpy()
    array([0.5, 0.5], dtype=float32)
    """

    _domain_rank = 1
    _codomain_rank = 1

    def _forward(self, x):
        if x.ndim < 1:
            raise ValueError("SoftmaxTransform.forward(): argument 'x' needs at least 1 axis, "
                             "got a 0-D tensor")
        return pylayer.nn.functional.softmax(x, axis=-1)

    def _inverse(self, y):
        return pylayer.log(y)


class StackTransform(Transform):
    """Apply ``transforms[i]`` to slice ``i`` along ``axis`` and stack the results.

    >>> import pylayer
    >>> D = pylayer.distribution
    >>> t = D.StackTransform([D.ExpTransform(), D.AbsTransform()], axis=1)
    >>> t.forward(pylayer.to_tensor([[0.0, -2.0]])).numpy()
    array([[1., 2.]], dtype=float32)
    """

    def __init__(self, transforms, axis=0):
        if not isinstance(transforms, (list, tuple)) or not transforms or not all(
                isinstance(t, Transform) for t in transforms):
            raise TypeError(f"StackTransform(): argument 'transforms' (position 1) must be a "
                            f"non-empty list of Transforms, got {describe(transforms)}")
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise TypeError(f"StackTransform(): argument 'axis' (position 2) must be an int, "
                            f"got {describe(axis)}")
        self._transforms, self._axis = list(transforms), int(axis)
        super().__init__()

    @property
    def transforms(self):
        """The transforms, one per slice."""
        return self._transforms

    @property
    def axis(self):
        """The axis along which the slices are taken."""
        return self._axis

    def _arguments(self):
        return {"transforms": self._transforms, "axis": self._axis}

    def _slices(self, x, fn, arg):
        if not -x.ndim <= self._axis < x.ndim or x.shape[self._axis] != len(self._transforms):
            raise ValueError(f"{fn}(): argument '{arg}' must have {len(self._transforms)} "
                             f"entries along axis {self._axis}, got shape {list(x.shape)}")
        return pylayer.unbind(x, self._axis)

    def _map(self, x, method, fn, arg):
        parts = self._slices(x, fn, arg)
        return pylayer.stack([getattr(t, method)(p) for t, p in zip(self._transforms, parts)],
                             axis=self._axis)

    def _forward(self, x):
        return self._map(x, "_forward", "StackTransform.forward", "x")

    def _inverse(self, y):
        return self._map(y, "_inverse", "StackTransform.inverse", "y")

    def _forward_log_det_jacobian(self, x):
        return self._map(x, "_forward_log_det_jacobian",
                         "StackTransform.forward_log_det_jacobian", "x")

    def _inverse_log_det_jacobian(self, y):
        return self._map(y, "_inverse_log_det_jacobian",
                         "StackTransform.inverse_log_det_jacobian", "y")


class StickBreakingTransform(Transform):
    """Map ``R^K`` onto the simplex of ``K + 1`` probabilities by stick breaking.

    >>> import pylayer
    >>> t = pylayer.distribution.StickBreakingTransform()
    >>> y = t.forward(pylayer.to_tensor([0.0, 0.0]))
    >>> y.shape, round(y.sum().item(), 4)
    ([3], 1.0)
    """

    _domain_rank = 1
    _codomain_rank = 1

    def _offset(self, k, dtype):
        return pylayer.log(pylayer.arange(k, 0, -1, dtype=dtype))

    def _forward(self, x):
        if x.ndim < 1:
            raise ValueError("StickBreakingTransform.forward(): argument 'x' needs at least 1 "
                             "axis, got a 0-D tensor")
        z = pylayer.sigmoid(x - self._offset(x.shape[-1], x.dtype))
        remaining = pylayer.cumprod(1 - z, dim=-1)
        pad = [0, 0] * (x.ndim - 1)
        return pylayer.nn.functional.pad(z, pad + [0, 1], value=1.0, pad_from_left_axis=True) \
            * pylayer.nn.functional.pad(remaining, pad + [1, 0], value=1.0,
                                        pad_from_left_axis=True)

    def _inverse(self, y):
        if y.ndim < 1 or y.shape[-1] < 1:
            raise ValueError("StickBreakingTransform.inverse(): argument 'y' needs a last "
                             "axis of at least one entry")
        head = y[..., :-1]
        k = head.shape[-1]
        remaining = 1 - pylayer.cumsum(head, axis=-1)
        previous = remaining + head
        z = head / previous
        return pylayer.log(z) - pylayer.log1p(-z) + self._offset(k, y.dtype)

    def _forward_log_det_jacobian(self, x):
        if x.ndim < 1:
            raise ValueError("StickBreakingTransform.forward_log_det_jacobian(): argument 'x' "
                             "needs at least 1 axis, got a 0-D tensor")
        shifted = x - self._offset(x.shape[-1], x.dtype)
        log_z = pylayer.nn.functional.log_sigmoid(shifted)
        return (log_z + pylayer.cumsum(log_z - shifted, axis=-1)).sum(axis=-1)

    def _forward_shape(self, shape):
        return shape[:-1] + (shape[-1] + 1,)

    def _inverse_shape(self, shape):
        return shape[:-1] + (shape[-1] - 1,)


class TanhTransform(Transform):
    """``y = tanh(x)``, onto ``(-1, 1)``.

    >>> import pylayer
    >>> t = pylayer.distribution.TanhTransform()
    >>> round(t.forward_log_det_jacobian(pylayer.to_tensor(0.0)).item(), 4)
    0.0
    """

    def _forward(self, x):
        return pylayer.tanh(x)

    def _inverse(self, y):
        return pylayer.atanh(y)

    def _forward_log_det_jacobian(self, x):
        return 2 * (math.log(2) - x - pylayer.nn.functional.softplus(-2 * x))
