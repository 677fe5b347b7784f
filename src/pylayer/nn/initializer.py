"""Parameter initializers: Constant, Normal, Uniform, XavierUniform.

An initializer makes a parameter's starting values. ``generate(shape, dtype)``
returns a new numpy array (static mode's startup program uses that);
calling the initializer on a parameter, ``init(param)``, fills it in place.
Random initializers draw from pylayer's global stream, so ``pylayer.seed``
makes them repeat.
"""
import numpy as np

from pylayer.extend import check_dtype, check_number, public_settings_repr
from pylayer.autograd import no_grad
from pylayer.ops import creation

__all__ = ["Initializer", "Constant", "Normal", "Uniform", "XavierUniform"]


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


class XavierUniform(Initializer):
    """Glorot's uniform initializer: ``U(-limit, limit)`` with
    ``limit = gain * sqrt(6 / (fan_in + fan_out))``; the fans come from the
    shape unless given.

    >>> import pylayer
    >>> from pylayer.nn.initializer import XavierUniform
    >>> w = XavierUniform().generate([3, 5], 'float32')
    >>> bool((abs(w) <= (6 / 8) ** 0.5).all())
    True
    """

    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self.fan_in = check_number(fan_in, "XavierUniform", "fan_in", minimum=0, allow_none=True)
        self.fan_out = check_number(fan_out, "XavierUniform", "fan_out", minimum=0,
                                    allow_none=True)
        self.gain = check_number(gain, "XavierUniform", "gain", minimum=0)

    def generate(self, shape, dtype):
        shape, dtype = self._checked(shape, dtype)
        fan_in, fan_out = compute_fans(shape)
        fan_in = fan_in if self.fan_in is None else self.fan_in
        fan_out = fan_out if self.fan_out is None else self.fan_out
        total = fan_in + fan_out
        limit = self.gain * np.sqrt(6.0 / total) if total > 0 else 0.0
        return creation.get_rng().uniform(-limit, limit, shape).astype(dtype)
