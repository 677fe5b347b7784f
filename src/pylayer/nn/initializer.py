"""Parameter initializers: Paddle's 14 names of ``paddle.nn.initializer``.

An initializer makes a parameter's starting values. ``generate(shape, dtype)``
returns a new numpy array (static mode's startup program uses that);
calling the initializer on a parameter, ``init(param)``, fills it in place.
Random initializers draw from pylayer's global stream, so ``pylayer.seed``
makes them repeat.
"""
import math

import numpy as np

from pylayer.extend import (Tensor, check_choice, check_dtype, check_int, check_number,
                            public_settings_repr)
from pylayer.autograd import no_grad
from pylayer.ops import creation

__all__ = ["Initializer", "Constant", "Normal", "Uniform", "XavierUniform", "XavierNormal",
           "KaimingNormal", "KaimingUniform", "TruncatedNormal", "Orthogonal", "Dirac",
           "Assign", "Bilinear", "calculate_gain", "set_global_initializer"]


class Initializer:
    """Base class: subclasses implement ``generate(shape, dtype)``.

    >>> import numpy as np
    >>> from pylayer.nn.initializer import Initializer
    >>> class Arange(Initializer):
    ...     def generate(self, shape, dtype):
    ...         return np.arange(np.prod(shape)).reshape(shape).astype(dtype)
    >>> import pylayer
    >>> pylayer.create_parameter([3], 'float32', default_initializer=Arange()).numpy()
    array([0., 1., 2.], dtype=float32)
    """

    def generate(self, shape, dtype):
        """A new array of ``shape`` and numpy ``dtype`` holding initial values."""
        raise NotImplementedError(f"{type(self).__name__} does not implement generate()")

    def _checked(self, shape, dtype):
        """``generate``'s arguments as a list of sizes and a numpy dtype."""
        fn = f"{type(self).__name__}.generate"
        return creation._shape(shape, fn), check_dtype(dtype, fn, allow_none=False)

    def __call__(self, param, block=None):
        """Fill ``param`` in place (bumps its version) and return it."""
        with no_grad():
            param.set_value(self.generate(param.shape, param.numpy().dtype))
        return param

    def __repr__(self):
        return public_settings_repr(self)


class Constant(Initializer):
    """Every element equals ``value``.

    >>> from pylayer.nn.initializer import Constant
    >>> Constant(0.5).generate([2], 'float32')
    array([0.5, 0.5], dtype=float32)
    """

    def __init__(self, value=0.0):
        self.value = check_number(value, "Constant", "value")

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        return np.full(shape, self.value, dtype)


class Normal(Initializer):
    """Samples from a normal distribution with ``mean`` and standard deviation ``std``.

    >>> import pylayer
    >>> from pylayer.nn.initializer import Normal
    >>> _ = pylayer.seed(0)
    >>> Normal(mean=1.0, std=0.0).generate([2], 'float64')
    array([1., 1.])
    """

    def __init__(self, mean=0.0, std=1.0, name=None):
        self.mean = check_number(mean, "Normal", "mean")
        self.std = check_number(std, "Normal", "std")
        if self.std < 0:
            raise ValueError(f"Normal(): argument 'std' must be non-negative, got {std}")

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        return creation.get_rng().normal(self.mean, self.std, shape).astype(dtype)


class Uniform(Initializer):
    """Samples drawn uniformly from ``[low, high)``.

    >>> import pylayer
    >>> from pylayer.nn.initializer import Uniform
    >>> values = Uniform(-0.1, 0.1).generate([100], 'float32')
    >>> bool((abs(values) <= 0.1).all())
    True
    """

    def __init__(self, low=-1.0, high=1.0, name=None):
        self.low = check_number(low, "Uniform", "low")
        self.high = check_number(high, "Uniform", "high")
        if self.high < self.low:
            raise ValueError(f"Uniform(): 'high' ({high}) must not be below 'low' ({low})")

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        return creation.get_rng().uniform(self.low, self.high, shape).astype(dtype)


def compute_fans(shape):
    """(fan_in, fan_out) as Paddle counts them: ``[in, out]`` for a matrix,
    ``[out_channels, in_channels, *kernel]`` for a convolution filter."""
    shape = list(shape)
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[2:]))
    return shape[1] * receptive, shape[0] * receptive


class _Xavier(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        kind = type(self).__name__
        self.fan_in = check_number(fan_in, kind, "fan_in", minimum=0, allow_none=True)
        self.fan_out = check_number(fan_out, kind, "fan_out", minimum=0, allow_none=True)
        self.gain = check_number(gain, kind, "gain", minimum=0)

    def _fans(self, shape):
        """fan_in + fan_out: from the shape unless given."""
        fan_in, fan_out = compute_fans(shape)
        return ((fan_in if self.fan_in is None else self.fan_in)
                + (fan_out if self.fan_out is None else self.fan_out))


class XavierUniform(_Xavier):
    """Glorot's uniform initializer: ``U(-limit, limit)`` with
    ``limit = gain * sqrt(6 / (fan_in + fan_out))``; the fans come from the
    shape unless given.

    >>> import pylayer
    >>> from pylayer.nn.initializer import XavierUniform
    >>> w = XavierUniform().generate([3, 5], 'float32')
    >>> bool((abs(w) <= (6 / 8) ** 0.5).all())
    True
    """

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        total = self._fans(shape)
        limit = self.gain * np.sqrt(6.0 / total) if total > 0 else 0.0
        return creation.get_rng().uniform(-limit, limit, shape).astype(dtype)


class XavierNormal(_Xavier):
    """Glorot's normal initializer: ``N(0, std)`` with
    ``std = gain * sqrt(2 / (fan_in + fan_out))``; the fans come from the shape unless
    given.

    >>> import pylayer
    >>> from pylayer.nn.initializer import XavierNormal
    >>> _ = pylayer.seed(0)
    >>> w = XavierNormal().generate([300, 500], 'float64')
    >>> round(float(w.std()), 2), round((2 / 800) ** 0.5, 2)
    (0.05, 0.05)
    """

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        total = self._fans(shape)
        std = self.gain * np.sqrt(2.0 / total) if total > 0 else 0.0
        return creation.get_rng().normal(0.0, std, shape).astype(dtype)


_GAINS = {"sigmoid": 1.0, "linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0,
          "conv_transpose1d": 1.0, "conv_transpose2d": 1.0, "conv_transpose3d": 1.0,
          "tanh": 5.0 / 3.0, "relu": math.sqrt(2.0), "selu": 3.0 / 4.0}


def calculate_gain(nonlinearity, param=None):
    """The gain Paddle recommends for a nonlinearity: 1 for linear maps, convolutions
    and sigmoid, 5/3 for tanh, sqrt(2) for relu, 3/4 for selu, and
    ``sqrt(2 / (1 + param ** 2))`` for leaky_relu (``param`` its slope, 0.01 by
    default).

    >>> from pylayer.nn.initializer import calculate_gain
    >>> calculate_gain('tanh'), round(calculate_gain('leaky_relu', 0.2), 6)
    (1.6666666666666667, 1.38675)
    """
    check_choice(nonlinearity, "calculate_gain", "nonlinearity",
                 tuple(_GAINS) + ("leaky_relu",))
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else check_number(param, "calculate_gain", "param")
        return math.sqrt(2.0 / (1.0 + slope ** 2))
    return _GAINS[nonlinearity]


class _Kaiming(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu", mode="fan_in"):
        name = type(self).__name__
        self.fan_in = check_number(fan_in, name, "fan_in", minimum=0, allow_none=True)
        self.negative_slope = check_number(negative_slope, name, "negative_slope")
        self.nonlinearity = check_choice(nonlinearity, name, "nonlinearity",
                                         tuple(_GAINS) + ("leaky_relu",))
        self.mode = check_choice(mode, name, "mode", ("fan_in", "fan_out"))

    def _scale(self, shape):
        """gain / sqrt(fan): the standard deviation of the normal form."""
        fan_in, fan_out = compute_fans(shape)
        fan = (fan_in if self.fan_in is None else self.fan_in) if self.mode == "fan_in" \
            else fan_out
        gain = calculate_gain(self.nonlinearity, self.negative_slope)
        return gain / math.sqrt(fan) if fan > 0 else 0.0


class KaimingNormal(_Kaiming):
    """He's normal initializer: ``N(0, gain / sqrt(fan))``, the gain of
    ``nonlinearity`` (with ``negative_slope`` for leaky_relu), the fan in (or out, with
    ``mode='fan_out'``) from the shape unless ``fan_in`` is given.

    >>> import pylayer
    >>> from pylayer.nn.initializer import KaimingNormal
    >>> _ = pylayer.seed(0)
    >>> round(float(KaimingNormal().generate([200, 300], 'float64').std()), 2)
    0.1
    """

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        return creation.get_rng().normal(0.0, self._scale(shape), shape).astype(dtype)


class KaimingUniform(_Kaiming):
    """He's uniform initializer: ``U(-limit, limit)`` with
    ``limit = gain * sqrt(3 / fan)`` (see :class:`KaimingNormal`).

    >>> from pylayer.nn.initializer import KaimingUniform
    >>> w = KaimingUniform().generate([400, 600], 'float64')
    >>> bool(abs(w).max() <= (6 / 400) ** 0.5)
    True
    """

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        limit = self._scale(shape) * math.sqrt(3.0)
        return creation.get_rng().uniform(-limit, limit, shape).astype(dtype)


class TruncatedNormal(Initializer):
    """``N(mean, std)`` restricted to ``[a, b]`` (absolute bounds, as in Paddle):
    values outside are drawn again.

    >>> import pylayer
    >>> from pylayer.nn.initializer import TruncatedNormal
    >>> w = TruncatedNormal(mean=1.0, std=2.0, a=-1.0, b=3.0).generate([1000], 'float64')
    >>> bool(w.min() >= -1.0 and w.max() <= 3.0)
    True
    """

    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, name=None):
        self.mean = check_number(mean, "TruncatedNormal", "mean")
        self.std = check_number(std, "TruncatedNormal", "std", minimum=0)
        self.a = check_number(a, "TruncatedNormal", "a")
        self.b = check_number(b, "TruncatedNormal", "b")
        if self.b < self.a:
            raise ValueError(f"TruncatedNormal(): 'b' ({b}) must not be below 'a' ({a})")

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        rng = creation.get_rng()
        out = rng.normal(self.mean, self.std, shape)
        outside = (out < self.a) | (out > self.b)
        for _ in range(100):            # each round keeps at least the mass inside [a, b]
            if not outside.any():
                break
            out[outside] = rng.normal(self.mean, self.std, int(outside.sum()))
            outside = (out < self.a) | (out > self.b)
        np.clip(out, self.a, self.b, out=out)      # a bound far in the tail
        return out.astype(dtype)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``: the shape flattened to ``[rows,
    columns]`` (the first dimension against the rest), whose rows (or columns, whichever
    are fewer) are orthonormal.

    >>> import numpy as np
    >>> from pylayer.nn.initializer import Orthogonal
    >>> w = Orthogonal(gain=2.0).generate([3, 5], 'float64')
    >>> np.allclose(w @ w.T, 4 * np.eye(3))
    True
    """

    def __init__(self, gain=1.0, name=None):
        self.gain = check_number(gain, "Orthogonal", "gain")

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        if len(shape) < 2:
            raise ValueError(f"Orthogonal.generate(): the shape must have at least 2 "
                             f"dimensions, got {shape}")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        flat = creation.get_rng().normal(0.0, 1.0, (max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))          # a uniform draw over orthogonal matrices
        if rows < cols:
            q = q.T
        return (self.gain * q).reshape(shape).astype(dtype)


class Dirac(Initializer):
    """The identity of a convolution: a filter ``[out, in, *kernel]`` whose output
    channel ``i`` of each of ``groups`` groups copies input channel ``i`` at the kernel's
    centre (zeros elsewhere), so the convolution returns its input.

    >>> from pylayer.nn.initializer import Dirac
    >>> Dirac().generate([2, 2, 3], 'float32')[:, :, 1]
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """

    def __init__(self, groups=1, name=None):
        self.groups = check_int(groups, "Dirac", "groups", minimum=1)

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        if not 3 <= len(shape) <= 5:
            raise ValueError(f"Dirac.generate(): the shape must be a 1-D, 2-D or 3-D "
                             f"convolution filter [out, in, *kernel], got {shape}")
        if shape[0] % self.groups:
            raise ValueError(f"Dirac(): the {shape[0]} output channels do not split into "
                             f"groups={self.groups}")
        out = np.zeros(shape, dtype)
        per_group = shape[0] // self.groups
        centre = tuple(size // 2 for size in shape[2:])
        for group in range(self.groups):
            for channel in range(min(per_group, shape[1])):
                out[(group * per_group + channel, channel) + centre] = 1
        return out


class Assign(Initializer):
    """The values of ``value`` (a numpy array, a nested list of numbers or a Tensor),
    whose shape must be the parameter's.

    >>> from pylayer.nn.initializer import Assign
    >>> Assign([[1.0, 2.0], [3.0, 4.0]]).generate([2, 2], 'float64')
    array([[1., 2.],
           [3., 4.]])
    """

    def __init__(self, value, name=None):
        if isinstance(value, Tensor):
            value = value.numpy()
        try:
            self.value = np.array(value, copy=True)
        except (TypeError, ValueError) as error:
            raise TypeError(f"Assign(): argument 'value' must be a numpy array, a nested "
                            f"list of numbers or a Tensor, got {type(value).__name__}") \
                from error
        if self.value.dtype == object or not (np.issubdtype(self.value.dtype, np.number)
                                              or self.value.dtype == np.bool_):
            raise TypeError(f"Assign(): argument 'value' must hold numbers, got "
                            f"{type(value).__name__}")

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        if list(self.value.shape) != shape:
            raise ValueError(f"Assign(): the value has shape {list(self.value.shape)}, the "
                             f"parameter {shape}")
        return self.value.astype(dtype)


class Bilinear(Initializer):
    """The kernel of bilinear upsampling for a transposed convolution's filter
    ``[C_out, C_in, K, K]``: every ``K x K`` slice is the outer product of the linear
    interpolation weights ``1 - |x / f - c|``, ``f = ceil(K / 2)``.

    >>> from pylayer.nn.initializer import Bilinear
    >>> Bilinear().generate([1, 1, 4, 4], 'float64')[0, 0, 0]
    array([0.0625, 0.1875, 0.1875, 0.0625])
    """

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        if len(shape) != 4 or shape[2] != shape[3]:
            raise ValueError(f"Bilinear.generate(): the shape must be a square 2-D filter "
                             f"[C_out, C_in, K, K], got {shape}")
        size = shape[3]
        factor = math.ceil(size / 2)
        centre = (2 * factor - 1 - factor % 2) / (2.0 * factor)
        weights = 1 - np.abs(np.arange(size) / factor - centre)
        return np.broadcast_to(np.outer(weights, weights), shape).astype(dtype)


# The initializers set_global_initializer chose: (weights, biases), None for each unset.
_GLOBAL = [None, None]


def set_global_initializer(weight_init, bias_init=None):
    """Make ``weight_init`` (and ``bias_init``) the initializers of every parameter
    created afterwards whose :class:`~pylayer.ParamAttr` names none (a layer's own
    default gives way to them, as in Paddle); ``None`` sets the default back.

    >>> import pylayer
    >>> from pylayer.nn.initializer import Constant, set_global_initializer
    >>> set_global_initializer(Constant(0.5), Constant(-1.0))
    >>> layer = pylayer.nn.Linear(2, 1)
    >>> layer.weight.numpy().ravel().tolist(), layer.bias.numpy().tolist()
    ([0.5, 0.5], [-1.0])
    >>> set_global_initializer(None)
    """
    for argument, value in (("weight_init", weight_init), ("bias_init", bias_init)):
        if value is not None and not isinstance(value, Initializer):
            raise TypeError(f"set_global_initializer(): argument {argument!r} must be an "
                            f"Initializer or None, got {type(value).__name__}")
    _GLOBAL[:] = [weight_init, bias_init]


def global_initializer(is_bias):
    """The initializer :func:`set_global_initializer` chose for weights or biases."""
    return _GLOBAL[1 if is_bias else 0]
