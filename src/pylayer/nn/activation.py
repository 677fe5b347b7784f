"""Activation layers: thin wrappers over :mod:`pylayer.nn.functional`."""
from pylayer.nn import functional as F
from pylayer.nn.layer import Layer
from pylayer.extend import check_int, check_number

__all__ = ["ReLU", "LeakyReLU", "GELU", "Hardtanh", "Sigmoid", "Tanh", "Softmax", "LogSoftmax"]


class ReLU(Layer):
    """``max(x, 0)``.

    >>> import pylayer
    >>> pylayer.nn.ReLU()(pylayer.to_tensor([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return F.relu(x)


class LeakyReLU(Layer):
    """``x`` where positive, ``negative_slope * x`` elsewhere.

    >>> import pylayer
    >>> pylayer.nn.LeakyReLU(0.1)(pylayer.to_tensor([-1.0])).numpy()
    array([-0.1], dtype=float32)
    """

    def __init__(self, negative_slope=0.01, name=None):
        super().__init__()
        self.negative_slope = check_number(negative_slope, "LeakyReLU", "negative_slope")

    def forward(self, x):
        return F.leaky_relu(x, self.negative_slope)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}"


class Hardtanh(Layer):
    """``x`` clipped to ``[min, max]``; see :func:`pylayer.nn.functional.hardtanh`.

    >>> import pylayer
    >>> pylayer.nn.Hardtanh(0.0, 6.0)(pylayer.to_tensor([-1.0, 7.0])).numpy()
    array([0., 6.], dtype=float32)
    """

    def __init__(self, min=-1.0, max=1.0, name=None):
        super().__init__()
        self.min = check_number(min, "Hardtanh", "min")
        self.max = check_number(max, "Hardtanh", "max")
        if self.min > self.max:
            raise ValueError(f"Hardtanh(): argument 'min' ({self.min}) must not exceed 'max' "
                             f"({self.max})")

    def forward(self, x):
        return F.hardtanh(x, self.min, self.max)

    def extra_repr(self):
        return f"min={self.min}, max={self.max}"


class GELU(Layer):
    """Gaussian error linear unit (``approximate=True``: the tanh form).

    >>> import pylayer
    >>> pylayer.nn.GELU()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """

    def __init__(self, approximate=False, name=None):
        super().__init__()
        self.approximate = approximate

    def forward(self, x):
        return F.gelu(x, self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate}"


class Sigmoid(Layer):
    """``1 / (1 + exp(-x))``.

    >>> import pylayer
    >>> pylayer.nn.Sigmoid()(pylayer.to_tensor([0.0])).numpy()
    array([0.5], dtype=float32)
    """

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return F.sigmoid(x)


class Tanh(Layer):
    """Hyperbolic tangent.

    >>> import pylayer
    >>> pylayer.nn.Tanh()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return F.tanh(x)


class Softmax(Layer):
    """Softmax along ``axis``.

    >>> import pylayer
    >>> pylayer.nn.Softmax()(pylayer.to_tensor([1.0, 1.0])).numpy()
    array([0.5, 0.5], dtype=float32)
    """

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self.axis = check_int(axis, "Softmax", "axis")

    def forward(self, x):
        return F.softmax(x, self.axis)

    def extra_repr(self):
        return f"axis={self.axis}"


class LogSoftmax(Layer):
    """Log of the softmax along ``axis``, computed stably.

    >>> import pylayer
    >>> pylayer.nn.LogSoftmax()(pylayer.to_tensor([0.0, 0.0])).numpy().round(4)
    array([-0.6931, -0.6931], dtype=float32)
    """

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self.axis = check_int(axis, "LogSoftmax", "axis")

    def forward(self, x):
        return F.log_softmax(x, self.axis)

    def extra_repr(self):
        return f"axis={self.axis}"
