"""The base classes of the distributions and the argument helpers they share."""
import math

import numpy as np

import pylayer
from pylayer._core.tensor import Tensor
from pylayer.ops._arguments import check_count, describe

__all__ = ["Distribution", "ExponentialFamily"]

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _float_dtype(dtype):
    return dtype.name in _FLOATS


# Paddle's conversions of parameters differ by class: these refuse a Python int, these
# compute a float64 numpy array in float32, and these make a Python number a [1] tensor.
_INTS_REFUSED = {"Exponential", "Gamma", "Chi2", "StudentT", "Bernoulli"}
_NUMPY_AS_FLOAT32 = {"Exponential", "Gamma", "Chi2", "StudentT", "Bernoulli", "Laplace",
                     "Cauchy", "Gumbel", "Geometric", "Beta", "Binomial", "ContinuousBernoulli",
                     "Poisson"}
_NUMBERS_AS_1D = {"Poisson", "ContinuousBernoulli"}


def parameters(fn, **values):
    """The parameters ``values`` (name -> number, list, array or Tensor) of the class
    ``fn`` as float Tensors broadcast together, in the order given. A Tensor keeps its
    float dtype (an integer one becomes float32); numbers and lists become float32, a
    float64 numpy array float64 (float32 for some classes, as in Paddle); the others
    follow the widest float Tensor among them."""
    tensors, position = {}, 1
    for name, value in values.items():
        if fn in _INTS_REFUSED and isinstance(value, (int, np.integer)) \
                and not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be a float, "
                            f"a list, a numpy array or a Tensor, got the int {value}")
        tensor = _parameter(value, fn, name, position)
        if fn in _NUMPY_AS_FLOAT32 and isinstance(value, np.ndarray):
            tensor = tensor.astype("float32")
        if fn in _NUMBERS_AS_1D and isinstance(value, (int, float, np.number)):
            tensor = tensor.reshape([1])
        tensors[name] = tensor
        position += 1
    widest = max((t.dtype for t in tensors.values()), key=lambda d: np.dtype(d.name).itemsize
                 if d.name != "bfloat16" else 2)
    cast = [t if t.dtype == widest else t.astype(widest) for t in tensors.values()]
    try:
        shape = np.broadcast_shapes(*(tuple(t.shape) for t in cast))
    except ValueError:
        raise ValueError(f"{fn}(): the parameters {', '.join(tensors)} must broadcast together, "
                         f"got shapes {', '.join(str(list(t.shape)) for t in cast)}") from None
    return [t if tuple(t.shape) == shape else pylayer.broadcast_to(t, list(shape)) for t in cast]


def _parameter(value, fn, name, position):
    if isinstance(value, Tensor):
        if value.dtype.name in ("bool", "complex64", "complex128") or \
                not (_float_dtype(value.dtype) or value.dtype.name.startswith(("int", "uint"))):
            raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be a float "
                            f"Tensor, got dtype {value.dtype.name}")
        return value if _float_dtype(value.dtype) else value.astype("float32")
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.number, np.ndarray, list, tuple)):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be a float, a "
                        f"list, a numpy array or a Tensor, got {describe(value)}")
    try:
        array = np.asarray(value)
    except ValueError:
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be a rectangular "
                        f"list of numbers, got a ragged list") from None
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must hold real "
                        f"numbers, got an array of {array.dtype}")
    dtype = "float64" if isinstance(value, np.ndarray) and array.dtype == np.float64 \
        else "float32"
    return pylayer.to_tensor(array.astype(dtype))


def value_tensor(value, fn, dtype, arg="value"):
    """``value`` (a Tensor, number or list) as a Tensor of the distribution's ``dtype``."""
    if isinstance(value, Tensor):
        if value.dtype.name in ("complex64", "complex128"):
            raise TypeError(f"{fn}(): argument '{arg}' (position 1) must be a real Tensor, got "
                            f"dtype {value.dtype.name}")
        return value if value.dtype == dtype else value.astype(dtype)
    if isinstance(value, (bool, int, float, np.number, np.ndarray, list, tuple)):
        try:
            array = np.asarray(value)
        except ValueError:
            array = None
        if array is not None and array.dtype.kind in "biuf":
            return pylayer.to_tensor(array.astype(dtype.name if dtype.name != "bfloat16"
                                                  else "float32")).astype(dtype)
    raise TypeError(f"{fn}(): argument '{arg}' (position 1) must be a Tensor, a number or a "
                    f"list of numbers, got {describe(value)}")


def sample_shape(shape, fn, trailing=(), dtype="float32"):
    """The sample shape ``shape`` (a list or tuple of ints >= 0) as a tuple, after checking
    that ``shape + trailing`` elements can be allocated."""
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{fn}(): argument 'shape' (position 1) must be a list or tuple of "
                        f"ints, got {describe(shape)}")
    for size in shape:
        if not isinstance(size, (int, np.integer)) or isinstance(size, (bool, np.bool_)):
            raise TypeError(f"{fn}(): argument 'shape' (position 1) must hold ints, got "
                            f"{describe(size)}")
        if size < 0:
            raise ValueError(f"{fn}(): argument 'shape' (position 1) holds {size}, but sizes "
                             f"must be at least 0")
    shape = tuple(int(s) for s in shape)
    check_count(math.prod(shape + tuple(trailing)), fn, "shape", dtype)
    return shape


def log_normalizer_and_gradient(d):
    """The natural parameters of the exponential-family distribution ``d``, its log
    normalizer there and the normalizer's gradient, all on the graph of ``d``'s parameters
    (the gradient is taken through zero offsets, so that it differentiates again)."""
    offsets = [pylayer.zeros_like(p) for p in d._natural_parameters]
    for offset in offsets:
        offset.stop_gradient = False
    with pylayer.enable_grad():
        natural = [p + offset for p, offset in zip(d._natural_parameters, offsets)]
        log_norm = d._log_normalizer(*natural)
        grads = pylayer.grad(log_norm.sum(), offsets, create_graph=True)
    return natural, log_norm, grads


class Distribution:
    """The base class of the probability distributions.

    A distribution has a ``batch_shape`` (independent, differently parameterised copies)
    and an ``event_shape`` (the shape of one draw). Subclasses give the statistics and the
    methods they support; the others raise ``NotImplementedError``.

    >>> import pylayer
    >>> from pylayer.distribution import Distribution
    >>> d = Distribution(batch_shape=[2], event_shape=[3])
    >>> d.batch_shape, d.event_shape
    ((2,), (3,))
    """

    def __init__(self, batch_shape=(), event_shape=()):
        self._batch_shape = self._shape_argument(batch_shape, "batch_shape", 1)
        self._event_shape = self._shape_argument(event_shape, "event_shape", 2)
        super().__init__()

    def _shape_argument(self, shape, arg, position):
        fn = type(self).__name__
        if not isinstance(shape, (list, tuple)) or any(
                not isinstance(s, (int, np.integer)) or isinstance(s, bool) for s in shape):
            raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a list or "
                            f"tuple of ints, got {describe(shape)}")
        if any(s < 0 for s in shape):
            raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must hold sizes "
                             f">= 0, got {list(shape)}")
        return tuple(int(s) for s in shape)

    @property
    def batch_shape(self):
        """The shape of the batch of distributions, a tuple."""
        return self._batch_shape

    @property
    def event_shape(self):
        """The shape of one event (one draw of one distribution), a tuple."""
        return self._event_shape

    @property
    def mean(self):
        """The mean, shaped ``batch_shape + event_shape``."""
        raise NotImplementedError(f"{type(self).__name__} has no mean")

    @property
    def variance(self):
        """The variance, shaped ``batch_shape + event_shape``."""
        raise NotImplementedError(f"{type(self).__name__} has no variance")

    @property
    def stddev(self):
        """The standard deviation, the square root of the variance."""
        return pylayer.sqrt(self.variance)

    @property
    def _dtype(self):
        return pylayer.float32

    def _extend(self, shape):
        return tuple(shape) + self._batch_shape + self._event_shape

    def sample(self, shape=()):
        """Draw samples shaped ``shape + batch_shape + event_shape``, out of the graph
        (no gradient flows to the parameters; use :meth:`rsample` for that).

        >>> import pylayer
        >>> pylayer.seed(1) and None
        >>> pylayer.distribution.Normal(0.0, 1.0).sample([3]).shape
        [3]
        """
        fn = f"{type(self).__name__}.sample"
        shape = sample_shape(shape, fn, self._batch_shape + self._event_shape,
                             self._dtype.name if self._dtype.name != "bfloat16" else "float32")
        with pylayer.no_grad():
            return self._sample(shape).detach()

    def _sample(self, shape):
        return self._rsample(shape)

    def rsample(self, shape=()):
        """Draw reparameterised samples, shaped ``shape + batch_shape + event_shape``:
        functions of the parameters and of parameter-free noise, so gradients flow to the
        parameters.

        >>> import pylayer
        >>> loc = pylayer.to_tensor([0.5], stop_gradient=False)
        >>> x = pylayer.distribution.Normal(loc, pylayer.to_tensor([1.0])).rsample([4])
        >>> x.sum().backward(); loc.grad.numpy()
        array([4.], dtype=float32)
        """
        fn = f"{type(self).__name__}.rsample"
        shape = sample_shape(shape, fn, self._batch_shape + self._event_shape,
                             self._dtype.name if self._dtype.name != "bfloat16" else "float32")
        return self._rsample(shape)

    def _rsample(self, shape):
        raise NotImplementedError(f"{type(self).__name__} has no reparameterised sampling")

    def entropy(self):
        """The entropy, shaped ``batch_shape``."""
        return self._entropy()

    def _entropy(self):
        raise NotImplementedError(f"{type(self).__name__} has no entropy")

    def log_prob(self, value):
        """The log of the probability density (or mass) at ``value``.

        >>> import pylayer
        >>> d = pylayer.distribution.Normal(0.0, 1.0)
        >>> round(float(d.log_prob(pylayer.to_tensor(0.0))), 4)
        -0.9189
        """
        return self._log_prob(value_tensor(value, f"{type(self).__name__}.log_prob",
                                           self._dtype))

    def _log_prob(self, value):
        raise NotImplementedError(f"{type(self).__name__} has no log_prob")

    def prob(self, value):
        """The probability density (or mass) at ``value``, ``exp(log_prob(value))``.

        >>> import pylayer
        >>> d = pylayer.distribution.Uniform(0.0, 4.0)
        >>> float(d.prob(pylayer.to_tensor(1.0)))
        0.25
        """
        return pylayer.exp(self._log_prob(value_tensor(value, f"{type(self).__name__}.prob",
                                                       self._dtype)))

    def probs(self, value):
        """The probability density (or mass) at ``value``; the same as :meth:`prob`.

        >>> import pylayer
        >>> d = pylayer.distribution.Uniform(0.0, 2.0)
        >>> float(d.probs(pylayer.to_tensor(1.0)))
        0.5
        """
        return pylayer.exp(self._log_prob(value_tensor(value, f"{type(self).__name__}.probs",
                                                       self._dtype)))

    def cdf(self, value):
        """The cumulative distribution function at ``value``.

        >>> import pylayer
        >>> d = pylayer.distribution.Exponential(pylayer.to_tensor(1.0))
        >>> round(float(d.cdf(pylayer.to_tensor(1.0))), 4)
        0.6321
        """
        return self._cdf(value_tensor(value, f"{type(self).__name__}.cdf", self._dtype))

    def _cdf(self, value):
        raise NotImplementedError(f"{type(self).__name__} has no cdf")

    def icdf(self, value):
        """The inverse of the cumulative distribution function at the probability ``value``.

        >>> import pylayer
        >>> d = pylayer.distribution.Laplace(0.0, 1.0)
        >>> float(d.icdf(pylayer.to_tensor(0.5)))
        0.0
        """
        return self._icdf(value_tensor(value, f"{type(self).__name__}.icdf", self._dtype))

    def _icdf(self, value):
        raise NotImplementedError(f"{type(self).__name__} has no icdf")

    def kl_divergence(self, other):
        """The Kullback-Leibler divergence ``KL(self || other)``, shaped ``batch_shape``
        (see :func:`pylayer.distribution.kl_divergence`).

        >>> import pylayer
        >>> p = pylayer.distribution.Normal(0.0, 1.0)
        >>> float(p.kl_divergence(pylayer.distribution.Normal(0.0, 1.0)))
        0.0
        """
        from pylayer.distribution.kl import _divergence
        return _divergence(self, other, f"{type(self).__name__}.kl_divergence", "other")

    def __repr__(self):
        return f"{type(self).__name__}(batch_shape={list(self._batch_shape)}, " \
               f"event_shape={list(self._event_shape)})"


class ExponentialFamily(Distribution):
    """The base class of the exponential-family distributions, whose density is
    ``exp(<t(x), theta> - F(theta) + k(x))``. A subclass that gives its natural parameters
    (``_natural_parameters``), log normalizer (``_log_normalizer``) and carrier measure
    mean (``_mean_carrier_measure``) gets its entropy, and its KL divergence to another
    member of the same family, from the gradient of the log normalizer.

    >>> import pylayer
    >>> from pylayer.distribution import ExponentialFamily, Exponential
    >>> issubclass(Exponential, ExponentialFamily)
    True
    """

    @property
    def _natural_parameters(self):
        raise NotImplementedError(f"{type(self).__name__} gives no natural parameters")

    def _log_normalizer(self, *natural):
        raise NotImplementedError(f"{type(self).__name__} gives no log normalizer")

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError(f"{type(self).__name__} gives no carrier measure")

    def entropy(self):
        """The entropy, from the log normalizer ``F``: ``F(theta) - <theta, grad F(theta)>
        - E[k(x)]``.

        >>> import pylayer
        >>> d = pylayer.distribution.Exponential(pylayer.to_tensor(1.0))
        >>> round(float(d.entropy()), 4)
        1.0
        """
        try:
            return self._entropy()
        except NotImplementedError:
            pass
        natural, log_norm, grads = log_normalizer_and_gradient(self)
        result = log_norm - self._mean_carrier_measure
        for p, g in zip(natural, grads):
            result = result - p * g
        return result
