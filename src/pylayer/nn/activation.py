"""Activation layers: thin wrappers over :mod:`pylayer.nn.functional`."""
from pylayer.nn import functional as F
from pylayer.nn.layer import Layer
from pylayer.extend import Tensor, check_count, check_int, check_number
from pylayer.nn.initializer import Constant
from pylayer.nn.param import ParamAttr

__all__ = ["ReLU", "LeakyReLU", "GELU", "Hardtanh", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
           "ReLU6", "ELU", "SELU", "CELU", "Silu", "SiLU", "Swish", "Mish", "Hardswish",
           "Hardsigmoid", "Softplus", "Softsign", "Softshrink", "Hardshrink", "Tanhshrink",
           "ThresholdedReLU", "LogSigmoid", "GLU", "Softmax2D", "PReLU",
           "RReLU", "Maxout"]


class ReLU(Layer):
    """``max(x, 0)``.

    >>> import pylayer
    >>> pylayer.nn.ReLU()(pylayer.to_tensor([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.relu(x)

    def extra_repr(self):
        return _with_name("", self._name)


class LeakyReLU(Layer):
    """``x`` where positive, ``negative_slope * x`` elsewhere.

    >>> import pylayer
    >>> pylayer.nn.LeakyReLU(0.1)(pylayer.to_tensor([-1.0])).numpy()
    array([-0.1], dtype=float32)
    """

    def __init__(self, negative_slope=0.01, name=None):
        super().__init__()
        self._name = name
        self.negative_slope = check_number(negative_slope, "LeakyReLU", "negative_slope")

    def forward(self, x):
        return F.leaky_relu(x, self.negative_slope)

    def extra_repr(self):
        return _with_name(f"negative_slope={self.negative_slope}", self._name)


class Hardtanh(Layer):
    """``x`` clipped to ``[min, max]``; see :func:`pylayer.nn.functional.hardtanh`.

    >>> import pylayer
    >>> pylayer.nn.Hardtanh(0.0, 6.0)(pylayer.to_tensor([-1.0, 7.0])).numpy()
    array([0., 6.], dtype=float32)
    """

    def __init__(self, min=-1.0, max=1.0, name=None):
        super().__init__()
        self._name = name
        self.min = check_number(min, "Hardtanh", "min")
        self.max = check_number(max, "Hardtanh", "max")
        if self.min > self.max:
            raise ValueError(f"Hardtanh(): argument 'min' ({self.min}) must not exceed 'max' "
                             f"({self.max})")

    def forward(self, x):
        return F.hardtanh(x, self.min, self.max)

    def extra_repr(self):
        return _with_name(f"min={self.min}, max={self.max}", self._name)


class GELU(Layer):
    """Gaussian error linear unit (``approximate=True``: the tanh form).

    >>> import pylayer
    >>> pylayer.nn.GELU()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """

    def __init__(self, approximate=False, name=None):
        super().__init__()
        self._name = name
        self.approximate = approximate

    def forward(self, x):
        return F.gelu(x, self.approximate)

    def extra_repr(self):
        return _with_name(f"approximate={self.approximate}", self._name)


class Sigmoid(Layer):
    """``1 / (1 + exp(-x))``.

    >>> import pylayer
    >>> pylayer.nn.Sigmoid()(pylayer.to_tensor([0.0])).numpy()
    array([0.5], dtype=float32)
    """

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.sigmoid(x)

    def extra_repr(self):
        return _with_name("", self._name)


class Tanh(Layer):
    """Hyperbolic tangent.

    >>> import pylayer
    >>> pylayer.nn.Tanh()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.tanh(x)

    def extra_repr(self):
        return _with_name("", self._name)


class Softmax(Layer):
    """Softmax along ``axis``.

    >>> import pylayer
    >>> pylayer.nn.Softmax()(pylayer.to_tensor([1.0, 1.0])).numpy()
    array([0.5, 0.5], dtype=float32)
    """

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._name = name
        self.axis = check_int(axis, "Softmax", "axis")

    def forward(self, x):
        return F.softmax(x, self.axis)

    def extra_repr(self):
        return _with_name(f"axis={self.axis}", self._name)


class LogSoftmax(Layer):
    """Log of the softmax along ``axis``, computed stably.

    >>> import pylayer
    >>> pylayer.nn.LogSoftmax()(pylayer.to_tensor([0.0, 0.0])).numpy().round(4)
    array([-0.6931, -0.6931], dtype=float32)
    """

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._name = name
        self.axis = check_int(axis, "LogSoftmax", "axis")

    def forward(self, x):
        return F.log_softmax(x, self.axis)

    def extra_repr(self):
        return _with_name(f"axis={self.axis}", self._name)


def _with_name(settings, name):
    """Paddle's extra_repr: the settings, then ``name=...`` when one was given."""
    parts = [settings] if settings else []
    if name:
        parts.append(f"name={name}")
    return ", ".join(parts)


class _Plain(Layer):
    """An activation layer without settings: ``forward(x)`` is ``_FUNCTION(x)``."""

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return type(self)._FUNCTION(x)

    def extra_repr(self):
        return _with_name("", self._name)


class ReLU6(_Plain):
    """``min(max(x, 0), 6)``; see :func:`pylayer.nn.functional.relu6`.

    >>> import pylayer
    >>> pylayer.nn.ReLU6()(pylayer.to_tensor([-1.0, 8.0])).numpy()
    array([0., 6.], dtype=float32)
    """
    _FUNCTION = staticmethod(F.relu6)


class Swish(_Plain):
    """``x * sigmoid(x)``; see :func:`pylayer.nn.functional.swish`.

    >>> import pylayer
    >>> pylayer.nn.Swish()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """
    _FUNCTION = staticmethod(F.swish)


class Mish(_Plain):
    """``x * tanh(softplus(x))``; see :func:`pylayer.nn.functional.mish`.

    >>> import pylayer
    >>> pylayer.nn.Mish()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """
    _FUNCTION = staticmethod(F.mish)


class Hardswish(_Plain):
    """``x * min(max(x + 3, 0), 6) / 6``; see :func:`pylayer.nn.functional.hardswish`.

    >>> import pylayer
    >>> pylayer.nn.Hardswish()(pylayer.to_tensor([-4.0, 4.0])).numpy()
    array([-0.,  4.], dtype=float32)
    """
    _FUNCTION = staticmethod(F.hardswish)


class Hardsigmoid(_Plain):
    """``min(max(x / 6 + 0.5, 0), 1)`` (Paddle's layer fixes slope and offset); see
    :func:`pylayer.nn.functional.hardsigmoid`.

    >>> import pylayer
    >>> pylayer.nn.Hardsigmoid()(pylayer.to_tensor([0.0, 4.0])).numpy()
    array([0.5, 1. ], dtype=float32)
    """
    _FUNCTION = staticmethod(F.hardsigmoid)


class Softsign(_Plain):
    """``x / (1 + |x|)``; see :func:`pylayer.nn.functional.softsign`.

    >>> import pylayer
    >>> pylayer.nn.Softsign()(pylayer.to_tensor([1.0])).numpy()
    array([0.5], dtype=float32)
    """
    _FUNCTION = staticmethod(F.softsign)


class Tanhshrink(_Plain):
    """``x - tanh(x)``; see :func:`pylayer.nn.functional.tanhshrink`.

    >>> import pylayer
    >>> pylayer.nn.Tanhshrink()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """
    _FUNCTION = staticmethod(F.tanhshrink)


class LogSigmoid(_Plain):
    """``log(sigmoid(x))``; see :func:`pylayer.nn.functional.log_sigmoid`.

    >>> import pylayer
    >>> pylayer.nn.LogSigmoid()(pylayer.to_tensor([-100.0])).numpy()
    array([-100.], dtype=float32)
    """
    _FUNCTION = staticmethod(F.log_sigmoid)


class Silu(Layer):
    """``x * sigmoid(x)``, written into ``x`` with ``inplace=True``; also named ``SiLU``.

    >>> import pylayer
    >>> pylayer.nn.SiLU()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """

    def __init__(self, inplace=False, name=None):
        super().__init__()
        self._inplace = bool(inplace)
        self._name = name

    def forward(self, x):
        return F.silu(x, self._inplace)

    def extra_repr(self):
        return _with_name(f"inplace={self._inplace}", self._name)


SiLU = Silu


class ELU(Layer):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere; see
    :func:`pylayer.nn.functional.elu`.

    >>> import pylayer
    >>> pylayer.nn.ELU(0.5)(pylayer.to_tensor([2.0])).numpy()
    array([2.], dtype=float32)
    """

    def __init__(self, alpha=1.0, name=None):
        super().__init__()
        self._alpha = check_number(alpha, "ELU", "alpha")
        self._name = name

    def forward(self, x):
        return F.elu(x, self._alpha)

    def extra_repr(self):
        return _with_name(f"alpha={self._alpha}", self._name)


class CELU(Layer):
    """``max(x, 0) + min(alpha * (exp(x / alpha) - 1), 0)``; see
    :func:`pylayer.nn.functional.celu`.

    >>> import pylayer
    >>> pylayer.nn.CELU()(pylayer.to_tensor([2.0])).numpy()
    array([2.], dtype=float32)
    """

    def __init__(self, alpha=1.0, name=None):
        super().__init__()
        self._alpha = check_number(alpha, "CELU", "alpha")
        self._name = name

    def forward(self, x):
        return F.celu(x, self._alpha)

    def extra_repr(self):
        return _with_name(f"alpha={self._alpha}", self._name)


class SELU(Layer):
    """``scale * elu(x, alpha)``; see :func:`pylayer.nn.functional.selu`.

    >>> import pylayer
    >>> pylayer.nn.SELU()(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """

    def __init__(self, scale=1.0507009873554805, alpha=1.6732632423543772, name=None):
        super().__init__()
        self._scale = check_number(scale, "SELU", "scale")
        self._alpha = check_number(alpha, "SELU", "alpha")
        self._name = name

    def forward(self, x):
        return F.selu(x, self._scale, self._alpha)

    def extra_repr(self):
        return _with_name(f"scale={self._scale}, alpha={self._alpha}", self._name)


class Softplus(Layer):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``; see
    :func:`pylayer.nn.functional.softplus`.

    >>> import pylayer
    >>> pylayer.nn.Softplus()(pylayer.to_tensor([30.0])).numpy()
    array([30.], dtype=float32)
    """

    def __init__(self, beta=1, threshold=20, name=None):
        super().__init__()
        check_number(beta, "Softplus", "beta")
        check_number(threshold, "Softplus", "threshold")
        self._beta = beta
        self._threshold = threshold
        self._name = name

    def forward(self, x):
        return F.softplus(x, self._beta, self._threshold)

    def extra_repr(self):
        return _with_name(f"beta={self._beta}, threshold={self._threshold}", self._name)


class _Threshold(Layer):
    """A layer of one ``threshold`` setting: ``forward(x)`` is ``_FUNCTION(x, threshold)``."""

    def __init__(self, threshold=0.5, name=None):
        super().__init__()
        self._threshold = check_number(threshold, type(self).__name__, "threshold")
        self._name = name

    def forward(self, x):
        return type(self)._FUNCTION(x, self._threshold)

    def extra_repr(self):
        return _with_name(f"threshold={self._threshold}", self._name)


class Softshrink(_Threshold):
    """Shrinks ``x`` towards 0 by ``threshold``; see :func:`pylayer.nn.functional.softshrink`.

    >>> import pylayer
    >>> pylayer.nn.Softshrink()(pylayer.to_tensor([1.0])).numpy()
    array([0.5], dtype=float32)
    """
    _FUNCTION = staticmethod(F.softshrink)


class Hardshrink(_Threshold):
    """``x`` where ``|x| >= threshold``, else 0; see :func:`pylayer.nn.functional.hardshrink`.

    >>> import pylayer
    >>> pylayer.nn.Hardshrink()(pylayer.to_tensor([0.2, 1.0])).numpy()
    array([0., 1.], dtype=float32)
    """
    _FUNCTION = staticmethod(F.hardshrink)


class ThresholdedReLU(Layer):
    """``x`` where ``x > threshold``, else ``value``; see
    :func:`pylayer.nn.functional.thresholded_relu`.

    >>> import pylayer
    >>> pylayer.nn.ThresholdedReLU()(pylayer.to_tensor([0.5, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """

    def __init__(self, threshold=1.0, value=0.0, name=None):
        super().__init__()
        self._threshold = check_number(threshold, "ThresholdedReLU", "threshold")
        self._value = check_number(value, "ThresholdedReLU", "value")
        self._name = name

    def forward(self, x):
        return F.thresholded_relu(x, self._threshold, self._value)

    def extra_repr(self):
        return _with_name(f"threshold={self._threshold}, value={self._value}", self._name)


class GLU(Layer):
    """Gated linear unit along ``axis``; see :func:`pylayer.nn.functional.glu`.

    >>> import pylayer
    >>> pylayer.nn.GLU()(pylayer.to_tensor([[1.0, 0.0]])).numpy()
    array([[0.5]], dtype=float32)
    """

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = check_int(axis, "GLU", "axis")
        self._name = name

    def forward(self, x):
        return F.glu(x, self._axis)

    def extra_repr(self):
        return _with_name(f"axis={self._axis}", self._name)


class Softmax2D(Layer):
    """Softmax over the channels (axis -3) of a 3-D ``[C, H, W]`` or 4-D ``[N, C, H, W]``
    tensor.

    >>> import pylayer
    >>> pylayer.nn.Softmax2D()(pylayer.zeros([2, 1, 1])).numpy().ravel()
    array([0.5, 0.5], dtype=float32)
    """

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        if not isinstance(x, Tensor) or x.ndim not in (3, 4):
            got = f"{x.ndim}-D Tensor" if isinstance(x, Tensor) else type(x).__name__
            raise ValueError(f"Softmax2D(): argument 'x' must be a 3-D or 4-D Tensor, got {got}")
        return F.softmax(x, axis=-3)

    def extra_repr(self):
        return _with_name("", self._name)


class PReLU(Layer):
    """``x`` where positive, ``weight * x`` elsewhere, with ``num_parameters`` learnt
    slopes (1, or one per channel) starting at ``init``; the parameter is ``_weight``
    (state_dict key ``_weight``), as in Paddle. See :func:`pylayer.nn.functional.prelu`.

    >>> import pylayer
    >>> layer = pylayer.nn.PReLU()
    >>> layer(pylayer.to_tensor([-4.0, 2.0])).numpy()
    array([-1.,  2.], dtype=float32)
    """

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW",
                 name=None):
        super().__init__()
        self._num_parameters = check_int(num_parameters, "PReLU", "num_parameters")
        if self._num_parameters < 1:
            raise ValueError(f"PReLU(): argument 'num_parameters' must be positive, got "
                             f"{self._num_parameters}")
        check_count(self._num_parameters, "PReLU", "num_parameters")
        self._init = check_number(init, "PReLU", "init")
        self._data_format = data_format
        self._name = name
        self._weight = self.create_parameter(
            [self._num_parameters], attr=ParamAttr._to_attr(weight_attr, "PReLU", "weight_attr"),
            default_initializer=Constant(self._init))

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self):
        return _with_name(f"num_parameters={self._num_parameters}, data_format="
                          f"{self._data_format}, init={self._init}, dtype={self._dtype}",
                          self._name)


class RReLU(Layer):
    """``x`` where non-negative, ``slope * x`` elsewhere: in training mode random slopes
    from ``[lower, upper)``, in evaluation mode ``(lower + upper) / 2``; see
    :func:`pylayer.nn.functional.rrelu`.

    >>> import pylayer
    >>> layer = pylayer.nn.RReLU(0.2, 0.4)
    >>> _ = layer.eval()
    >>> layer(pylayer.to_tensor([-1.0, 2.0])).numpy()
    array([-0.3,  2. ], dtype=float32)
    """

    def __init__(self, lower=0.125, upper=0.3333333333333333, name=None):
        super().__init__()
        self._lower = check_number(lower, "RReLU", "lower")
        self._upper = check_number(upper, "RReLU", "upper")
        self._name = name

    def forward(self, x):
        return F.rrelu(x, self._lower, self._upper, training=self.training)

    def extra_repr(self):
        return _with_name(f"lower={self._lower}, upper={self._upper}, training="
                          f"{self.training}, dtype={self._dtype}", self._name)


class Maxout(Layer):
    """The maximum over each run of ``groups`` consecutive channels; see
    :func:`pylayer.nn.functional.maxout`.

    >>> import pylayer
    >>> pylayer.nn.Maxout(2)(pylayer.ones([1, 4, 2, 2])).shape
    [1, 2, 2, 2]
    """

    def __init__(self, groups, axis=1, name=None):
        super().__init__()
        self._groups = check_int(groups, "Maxout", "groups")
        self._axis = check_int(axis, "Maxout", "axis")
        self._name = name

    def forward(self, x):
        return F.maxout(x, self._groups, self._axis)

    def extra_repr(self):
        return _with_name(f"groups={self._groups}, axis={self._axis}", self._name)
