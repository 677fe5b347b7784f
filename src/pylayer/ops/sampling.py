"""Random sampling: the distributions Paddle draws from, in-place fills with random values, random permutations and the generator state.

Every draw comes from the one numpy Generator behind ``pylayer.seed`` (``get_rng``),
so ``pylayer.seed(0)`` (or ``manual_seed(0)``) makes a program repeatable, and
``get_rng_state``/``set_rng_state`` (or a :class:`Generator`'s ``get_state`` and
``set_state``) replay a stretch of it. Samples are not differentiable; as in Paddle,
``poisson`` and the in-place fills record a gradient of zero for their input, so a
graph through them gives zeros rather than nothing.
"""
import math

import numpy as np

from pylayer._kernels import dtypes
from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops import creation
from pylayer.ops._arguments import (check_count, check_dtype, check_int, check_number,
                                    describe, shape_arg)
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.declaration import declare
from pylayer.ops.dispatch import op
from pylayer.ops.inplace import inplace

__all__ = ["multinomial", "poisson", "randperm", "standard_normal", "standard_gamma",
           "binomial", "log_normal", "rand_like", "randn_like", "randint_like", "normal_",
           "cauchy_", "geometric_", "log_normal_", "bernoulli_", "Generator",
           "get_rng_state", "set_rng_state", "manual_seed"]

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _rng():
    return creation.get_rng()


def _float_tensor(x, fn, arg="x", position=1):
    """A float32 or float64 Tensor, the dtypes Paddle's sampling kernels take."""
    x = as_tensor_arg(x, fn, arg, position)
    if x.numpy().dtype not in _FLOATS:
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a float32 or "
                        f"float64 Tensor, got dtype {x.dtype.name}")
    return x


def _zeros_like(g):
    return make_tensor(np.zeros(g.shape, g.numpy().dtype))


_ZERO_GRADIENT_RECORDS = {}


def _with_zero_gradient(name, values, x):
    """``values`` recorded as the op ``name`` of ``x`` whose gradient is zero (a sample
    does not move with the parameters it was drawn from), as Paddle records it."""
    record = _ZERO_GRADIENT_RECORDS.get(name)
    if record is None:
        record = _ZERO_GRADIENT_RECORDS[name] = Op(name, vjp=(_zeros_like,))
    return make_output(record, values, (x,))


# ------------------------------------------------------------ distributions
@op(method=True)
def multinomial(x, num_samples=1, replacement=False, name=None):
    """Draw ``num_samples`` category indices from the weights in ``x`` (one row, or a
    batch of rows ``[batch, categories]``).

    The weights need not sum to 1, but must be non-negative with a positive sum.
    Without ``replacement`` a category is drawn at most once, so each row needs at
    least ``num_samples`` positive weights. The result is int64, ``[...,
    num_samples]``.

    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> pylayer.multinomial(pylayer.to_tensor([0.0, 1.0, 0.0]), 1).numpy()
    array([1])
    """
    fn = "multinomial"
    x = _float_tensor(x, fn)
    if x.ndim not in (1, 2):
        raise ValueError(f"{fn}(): argument 'x' (position 1) must be 1-D or 2-D, got "
                         f"{x.ndim}-D")
    num_samples = check_int(num_samples, fn, "num_samples", minimum=1)
    weights = x.numpy().astype(np.float64).reshape(-1, x.shape[-1])
    if not np.all(weights >= 0) or not np.all(np.isfinite(weights)):
        raise ValueError(f"{fn}(): argument 'x' must hold finite non-negative weights")
    totals = weights.sum(axis=1)
    if np.any(totals <= 0):
        raise ValueError(f"{fn}(): argument 'x' must have a positive sum in every row")
    rows, categories = weights.shape
    if not replacement and np.any((weights > 0).sum(axis=1) < num_samples):
        raise ValueError(f"{fn}(): without replacement, 'num_samples' ({num_samples}) must not "
                         f"exceed the number of positive weights of a row")
    check_count(rows * num_samples, fn, "num_samples", np.int64)
    rng = _rng()
    if replacement:
        # Inverse transform over every row at once: row r's cumulative weights lie in
        # [r, r + 1], and so do its uniform draws.
        # The edges from a row's last positive weight on are exactly r + 1, so rounding
        # can never reach a zero weight after it.
        starts = np.arange(rows)[:, None]
        edges = np.cumsum(weights / totals[:, None], axis=1) + starts
        last = categories - 1 - np.argmax(weights[:, ::-1] > 0, axis=1)
        edges = np.where(np.arange(categories) >= last[:, None], starts + 1.0, edges)
        draws = rng.random((rows, num_samples)) + starts
        found = np.searchsorted(edges.ravel(), draws.ravel(), side="right")
        out = found.reshape(rows, num_samples) - starts * categories
    else:
        # The first num_samples of exponential arrival times scaled by the weights:
        # sequential draws without replacement.
        with np.errstate(divide="ignore"):
            keys = rng.exponential(size=weights.shape) / weights
        out = np.argsort(keys, axis=1, kind="stable")[:, :num_samples]
    return make_tensor(out.reshape(x.shape[:-1] + [num_samples]).astype(np.int64))


@op
def poisson(x, name=None):
    """Poisson samples, each with the rate in ``x`` (float32 or float64, non-negative).

    The result has the dtype of ``x``; its gradient to ``x`` is zero, as in Paddle.

    >>> import pylayer
    >>> pylayer.poisson(pylayer.to_tensor([0.0, 0.0])).numpy()
    array([0., 0.], dtype=float32)
    """
    x = _float_tensor(x, "poisson")
    a = x.numpy()
    if not np.all(a >= 0) or not np.all(np.isfinite(a)):
        raise ValueError("poisson(): argument 'x' must hold finite non-negative rates")
    return _with_zero_gradient("poisson", _rng().poisson(a).astype(a.dtype), x)


@op(records_without_variables=True)
def randperm(n, dtype="int64", name=None):
    """A random permutation of ``0, 1, ..., n - 1`` (int64 by default; int32, float32
    and float64 too).

    >>> import pylayer
    >>> sorted(pylayer.randperm(4).tolist())
    [0, 1, 2, 3]
    """
    n = check_int(n, "randperm", "n", minimum=0)
    np_dtype = check_dtype(dtype, "randperm", kinds="iuf", allow_none=False)
    check_count(n, "randperm", "n", np.int64)
    return make_tensor(_rng().permutation(n).astype(np_dtype))


@op(records_without_variables=True)
def standard_normal(shape, dtype=None, name=None):
    """Samples of the standard normal distribution (float32 by default).

    A complex dtype draws the real and imaginary parts each with variance 1/2, so
    that the samples have variance 1.

    >>> import pylayer
    >>> pylayer.standard_normal([2, 3]).shape
    [2, 3]
    """
    np_dtype = check_dtype("float32" if dtype is None else dtype, "standard_normal",
                           kinds="fc", allow_none=False)
    dims = shape_arg(shape, "standard_normal", "shape", 0)
    check_count(math.prod(dims), "standard_normal", "shape", np.complex128)
    rng = _rng()
    if dtypes.is_complex(np_dtype):
        values = (rng.standard_normal(dims) + 1j * rng.standard_normal(dims)) / np.sqrt(2.0)
    else:
        values = rng.standard_normal(dims)
    return make_tensor(values.astype(np_dtype))


@op
def standard_gamma(x, name=None):
    """Samples of the gamma distribution with unit scale and the shapes (alphas) in
    ``x`` (float32 or float64); the result has the dtype of ``x``.

    A shape of 0 or below gives the dtype's smallest normal number, as in Paddle.

    >>> import pylayer
    >>> bool((pylayer.standard_gamma(pylayer.to_tensor([1.0, 2.0])).numpy() > 0).all())
    True
    """
    x = _float_tensor(x, "standard_gamma")
    a = x.numpy()
    if np.isnan(a).any() or np.isinf(a).any():
        raise ValueError("standard_gamma(): argument 'x' must hold finite shapes")
    values = _rng().standard_gamma(np.maximum(a, 0.0)).astype(a.dtype)
    return make_tensor(np.maximum(values, np.finfo(a.dtype).tiny))


@op
def binomial(count, prob, name=None):
    """The number of successes in ``count`` trials, each a success with probability
    ``prob``; the two Tensors broadcast, and the result is int64.

    ``count`` is an integer or float Tensor of non-negative counts (floats are cut to
    integers), ``prob`` a float Tensor of probabilities in ``[0, 1]``.

    >>> import pylayer
    >>> pylayer.binomial(pylayer.to_tensor([3, 5]), pylayer.to_tensor([1.0, 0.0])).numpy()
    array([3, 0])
    """
    fn = "binomial"
    if not isinstance(count, Tensor):
        raise TypeError(f"{fn}(): argument 'count' (position 1) must be a Tensor, got "
                        f"{describe(count)}")
    if not isinstance(prob, Tensor):
        raise TypeError(f"{fn}(): argument 'prob' (position 2) must be a Tensor, got "
                        f"{describe(prob)}")
    n, p = count.numpy(), prob.numpy()
    if dtypes.is_bool(n.dtype) or dtypes.is_complex(n.dtype) or not dtypes.holds_numbers(n.dtype):
        raise TypeError(f"{fn}(): argument 'count' (position 1) must be an integer or float "
                        f"Tensor, got dtype {count.dtype.name}")
    if p.dtype not in _FLOATS:
        raise TypeError(f"{fn}(): argument 'prob' (position 2) must be a float32 or float64 "
                        f"Tensor, got dtype {prob.dtype.name}")
    try:
        shape = np.broadcast_shapes(n.shape, p.shape)
    except ValueError:
        raise ValueError(f"{fn}(): count of shape {list(n.shape)} and prob of shape "
                         f"{list(p.shape)} cannot be broadcast together") from None
    if not np.all(n >= 0) or not np.all(np.isfinite(n)):
        raise ValueError(f"{fn}(): argument 'count' must hold finite non-negative counts")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError(f"{fn}(): argument 'prob' must hold probabilities in [0, 1]")
    check_count(math.prod(shape), fn, "count", np.int64)
    draws = _rng().binomial(np.broadcast_to(n.astype(np.int64), shape),
                            np.broadcast_to(p, shape))
    return make_tensor(np.asarray(draws, np.int64).reshape(shape))


def _mean_std(mean, std, fn):
    """Numbers, or the arrays of float Tensors; and the result dtype (float32 for
    numbers, else the Tensors' promoted dtype)."""
    values, dtype = [], None
    for arg, value in (("mean", mean), ("std", std)):
        if isinstance(value, Tensor):
            if value.numpy().dtype not in _FLOATS:
                raise TypeError(f"{fn}(): argument '{arg}' must be a number or a float32 or "
                                f"float64 Tensor, got dtype {value.dtype.name}")
            a = value.numpy()
            dtype = a.dtype if dtype is None else np.promote_types(dtype, a.dtype)
            values.append(a)
        else:
            values.append(check_number(value, fn, arg))
    return values, np.dtype(np.float32) if dtype is None else dtype


@op(records_without_variables=True)
def log_normal(mean=1.0, std=2.0, shape=None, name=None):
    """Samples whose logarithm is normal with ``mean`` and ``std``.

    ``mean`` and ``std`` are numbers, or Tensors that broadcast together and give the
    shape and dtype of the result (``shape`` is then ignored). With numbers the
    result is float32, of ``shape`` (``[1]`` when None).

    >>> import pylayer
    >>> pylayer.log_normal(0.0, 0.0, [2]).numpy()
    array([1., 1.], dtype=float32)
    """
    fn = "log_normal"
    (m, s), dtype = _mean_std(mean, std, fn)
    if isinstance(m, np.ndarray) or isinstance(s, np.ndarray):
        try:
            dims = list(np.broadcast_shapes(np.shape(m), np.shape(s)))
        except ValueError:
            raise ValueError(f"{fn}(): mean of shape {list(np.shape(m))} and std of shape "
                             f"{list(np.shape(s))} cannot be broadcast together") from None
    else:
        dims = shape_arg([1] if shape is None else shape, fn, "shape", 0)
    check_count(math.prod(dims), fn, "shape", np.float64)
    values = np.exp(m + np.abs(s) * _rng().standard_normal(dims))
    return make_tensor(np.asarray(values).astype(dtype))


def _like_dtype(x, dtype, fn, kinds, arg="x"):
    x = as_tensor_arg(x, fn, arg, 1)
    np_dtype = x.numpy().dtype if dtype is None else check_dtype(dtype, fn, kinds=kinds)
    if dtypes.kind_of(np_dtype) not in kinds:
        raise TypeError(f"{fn}(): the result dtype must be "
                        f"{'floating-point' if kinds == 'f' else 'numeric'}; {arg} is "
                        f"{x.dtype.name}, so give a dtype such as 'float32'")
    return x, np_dtype


@op
def rand_like(input, name=None, *, dtype=None):
    """Uniform samples in ``[0, 1)`` with the shape of ``input`` and its dtype (or
    ``dtype``), which must be floating-point.

    >>> import pylayer
    >>> pylayer.rand_like(pylayer.ones([2, 2], dtype="float64")).dtype
    pylayer.float64
    """
    x, np_dtype = _like_dtype(input, dtype, "rand_like", "f", "input")
    return make_tensor(_rng().random(x.shape).astype(np_dtype))


@op
def randn_like(x, dtype=None, name=None):
    """Standard normal samples with the shape of ``x`` and its dtype (or ``dtype``),
    which must be floating-point.

    >>> import pylayer
    >>> pylayer.randn_like(pylayer.ones([3])).shape
    [3]
    """
    x, np_dtype = _like_dtype(x, dtype, "randn_like", "f")
    return make_tensor(_rng().standard_normal(x.shape).astype(np_dtype))


@op
def randint_like(x, low=0, high=None, dtype=None, name=None):
    """Integers drawn uniformly from ``[low, high)`` (``[0, low)`` without ``high``),
    with the shape of ``x``, in its dtype (or ``dtype``; a float dtype holds whole
    numbers).

    >>> import pylayer
    >>> pylayer.randint_like(pylayer.ones([3]), 1, 2).numpy()
    array([1., 1., 1.], dtype=float32)
    """
    fn = "randint_like"
    x, np_dtype = _like_dtype(x, dtype, fn, "biuf")
    low = check_int(low, fn, "low")
    high = check_int(high, fn, "high", allow_none=True)
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError(f"{fn}(): 'high' ({high}) must be greater than 'low' ({low})")
    return make_tensor(_rng().integers(low, high, x.shape).astype(np_dtype))


# ---------------------------------------------------------- in-place fills
def _fill_target(x, fn, kinds="f"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a Tensor, got "
                        f"{describe(x)}")
    if dtypes.kind_of(x.numpy().dtype) not in kinds or x.numpy().dtype.itemsize < 4:
        words = "float32, float64, complex64 or complex128" if "c" in kinds else \
            "float32 or float64"
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a {words} Tensor, got "
                        f"dtype {x.dtype.name}")
    return x


def _fill(x, fn, values):
    """Store ``values`` (an array of x's shape) in ``x``, recorded with a zero gradient."""
    values = np.asarray(values).astype(x.numpy().dtype)

    def draw(source):
        return _with_zero_gradient(fn, values, source)
    draw.__name__ = fn
    return inplace(x, draw)


def _probabilities(p, x, fn, arg, low_open=False):
    """``p`` (a number or a Tensor that broadcasts to x) as an array of x's shape."""
    if isinstance(p, Tensor) and p.ndim > 0:
        values = p.numpy()
        try:
            values = np.broadcast_to(values, x.shape)
        except ValueError:
            raise ValueError(f"{fn}(): argument '{arg}' of shape {list(values.shape)} does not "
                             f"broadcast to x's shape {list(x.shape)}") from None
    else:
        values = np.full(x.shape, check_number(p, fn, arg))
    low_ok = values > 0 if low_open else values >= 0
    if not np.all(low_ok & (values <= 1)):
        interval = "(0, 1]" if low_open else "[0, 1]"
        raise ValueError(f"{fn}(): argument '{arg}' must hold probabilities in {interval}")
    return values


@declare(method=True)
def normal_(x, mean=0.0, std=1.0, name=None):
    """Fill ``x`` in place with normal samples of ``mean`` and ``std``; returns ``x``.

    ``x`` is float32, float64 or complex; for a complex ``x`` the real and
    imaginary parts each get half the variance, around a complex ``mean``. Also
    the method ``x.normal_()``.

    >>> import pylayer
    >>> x = pylayer.zeros([3])
    >>> x.normal_(mean=2.0, std=0.0).numpy()
    array([2., 2., 2.], dtype=float32)
    """
    fn = "normal_"
    x = _fill_target(x, fn, "fc")
    if isinstance(mean, (complex, np.complexfloating)):
        if not dtypes.is_complex(x.numpy().dtype):
            raise TypeError(f"{fn}(): argument 'mean' may be complex only for a complex x, "
                            f"got {mean!r}")
    else:
        mean = check_number(mean, fn, "mean")
    std = abs(check_number(std, fn, "std"))
    rng = _rng()
    if dtypes.is_complex(x.numpy().dtype):
        noise = (rng.standard_normal(x.shape) + 1j * rng.standard_normal(x.shape)) / np.sqrt(2)
    else:
        noise = rng.standard_normal(x.shape)
    return _fill(x, fn, mean + std * noise)


def uniform_(x, min=0, max=1.0, seed=0, name=None):
    """Fill ``x`` (float32 or float64) in place with uniform samples in ``[min,
    max)``; returns ``x``. A nonzero ``seed`` draws from a generator of its own,
    so the same seed gives the same values. Paddle has it only as a Tensor method.

    >>> import pylayer
    >>> x = pylayer.zeros([4])
    >>> bool(((x.uniform_(2.0, 3.0).numpy() >= 2.0) & (x.numpy() < 3.0)).all())
    True
    """
    fn = "uniform_"
    x = _fill_target(x, fn)
    low, high = check_number(min, fn, "min"), check_number(max, fn, "max")
    if not low < high:
        raise ValueError(f"{fn}(): 'min' ({low}) must be less than 'max' ({high})")
    seed = check_int(seed, fn, "seed", minimum=0)
    rng = np.random.default_rng(seed) if seed else _rng()
    return _fill(x, fn, rng.uniform(low, high, x.shape))


def exponential_(x, lam=1.0, name=None):
    """Fill ``x`` (float32 or float64) in place with exponential samples of rate
    ``lam`` (positive); returns ``x``. Paddle has it only as a Tensor method.

    >>> import pylayer
    >>> bool((pylayer.zeros([4]).exponential_(2.0).numpy() >= 0).all())
    True
    """
    fn = "exponential_"
    x = _fill_target(x, fn)
    lam = check_number(lam, fn, "lam")
    if not lam > 0:
        raise ValueError(f"{fn}(): argument 'lam' must be positive, got {lam}")
    return _fill(x, fn, _rng().exponential(1.0 / lam, x.shape))


@declare(method=True)
def cauchy_(x, loc=0, scale=1, name=None):
    """Fill ``x`` (float32 or float64) in place with Cauchy samples of median ``loc``
    and half width ``scale``; returns ``x``. Also the method ``x.cauchy_()``.

    >>> import pylayer
    >>> pylayer.cauchy_(pylayer.zeros([2]), loc=1.0, scale=0.0).numpy()
    array([1., 1.], dtype=float32)
    """
    fn = "cauchy_"
    x = _fill_target(x, fn)
    loc, scale = check_number(loc, fn, "loc"), abs(check_number(scale, fn, "scale"))
    return _fill(x, fn, loc + scale * _rng().standard_cauchy(x.shape))


@declare(method=True)
def geometric_(x, probs, name=None):
    """Fill ``x`` (float32 or float64) in place with geometric samples: the number of
    trials up to the first success, each a success with probability ``probs`` (a
    number or a Tensor that broadcasts to ``x``, in ``(0, 1]``); returns ``x``.
    Also the method ``x.geometric_(probs)``.

    >>> import pylayer
    >>> pylayer.zeros([3]).geometric_(1.0).numpy()
    array([1., 1., 1.], dtype=float32)
    """
    fn = "geometric_"
    x = _fill_target(x, fn)
    p = _probabilities(probs, x, fn, "probs", low_open=True)
    return _fill(x, fn, _rng().geometric(p))


@declare(method=True)
def log_normal_(x, mean=1.0, std=2.0, name=None):
    """Fill ``x`` (float32 or float64) in place with samples whose logarithm is normal
    with ``mean`` and ``std``; returns ``x``. Also the method ``x.log_normal_()``.

    >>> import pylayer
    >>> pylayer.log_normal_(pylayer.zeros([2]), 0.0, 0.0).numpy()
    array([1., 1.], dtype=float32)
    """
    fn = "log_normal_"
    x = _fill_target(x, fn)
    mean, std = check_number(mean, fn, "mean"), abs(check_number(std, fn, "std"))
    return _fill(x, fn, np.exp(mean + std * _rng().standard_normal(x.shape)))


@declare(method=True)
def bernoulli_(x, p=0.5, name=None):
    """Fill ``x`` (float32 or float64) in place with 1 (probability ``p``) or 0; ``p``
    is a number or a Tensor that broadcasts to ``x``, in ``[0, 1]``. Returns ``x``;
    also the method ``x.bernoulli_()``.

    >>> import pylayer
    >>> pylayer.zeros([3]).bernoulli_(pylayer.to_tensor([0.0, 1.0, 1.0])).numpy()
    array([0., 1., 1.], dtype=float32)
    """
    fn = "bernoulli_"
    x = _fill_target(x, fn)
    chances = _probabilities(p, x, fn, "p")
    return _fill(x, fn, _rng().random(x.shape) < chances)


# ----------------------------------------------------------- the generator
class GeneratorState:
    """A saved position of the random stream (:meth:`Generator.get_state`)."""

    __slots__ = ("_state",)

    def __init__(self, state):
        self._state = state

    def __repr__(self):
        return f"GeneratorState({self._state['bit_generator']})"


def _check_device(device, fn):
    if device is None:
        return
    if not isinstance(device, str):
        raise TypeError(f"{fn}(): argument 'device' must be None or 'cpu', got "
                        f"{describe(device)}")
    if device.lower().split(":")[0] != "cpu":
        raise ValueError(f"{fn}(): argument 'device' must be 'cpu' (pylayer runs on the CPU), "
                         f"got {device!r}")


class Generator:
    """The random generator that every random function draws from.

    ``Generator()`` is that one generator (as Paddle's ``paddle.Generator()`` gives
    the default generator of the device), so seeding it seeds ``pylayer.rand`` and
    the rest, as ``pylayer.seed`` does.

    >>> import pylayer
    >>> g = pylayer.Generator().manual_seed(3)
    >>> a = pylayer.rand([2]).numpy()
    >>> _ = g.manual_seed(3)
    >>> bool((a == pylayer.rand([2]).numpy()).all()), g.initial_seed()
    (True, 3)
    """

    _default = None

    def __new__(cls, device=None):
        _check_device(device, "Generator")
        if cls._default is None:
            cls._default = super().__new__(cls)
        return cls._default

    def __repr__(self):
        return f"Generator(device='cpu', initial_seed={self.initial_seed()})"

    def manual_seed(self, seed):
        """Restart the stream from ``seed`` (an int >= 0); returns the generator.

        >>> import pylayer
        >>> pylayer.Generator().manual_seed(5).initial_seed()
        5
        """
        creation.seed(check_int(seed, "manual_seed", "seed", minimum=0))
        return self

    def seed(self):
        """Restart the stream from a new seed drawn from the system's entropy; returns it.

        >>> import pylayer
        >>> g = pylayer.Generator()
        >>> g.seed() == g.initial_seed()
        True
        """
        value = int(np.random.SeedSequence().entropy % 2 ** 63)
        creation.seed(value)
        return value

    def initial_seed(self):
        """The seed the stream was last started from.

        >>> import pylayer
        >>> _ = pylayer.seed(11)
        >>> pylayer.Generator().initial_seed()
        11
        """
        return int(_rng().bit_generator.seed_seq.entropy)

    def get_state(self):
        """The stream's current position, for :meth:`set_state`.

        >>> import pylayer
        >>> g = pylayer.Generator()
        >>> state = g.get_state()
        >>> a = pylayer.rand([2]).numpy()
        >>> g.set_state(state)
        >>> bool((a == pylayer.rand([2]).numpy()).all())
        True
        """
        return GeneratorState(_rng().bit_generator.state)

    def set_state(self, state):
        """Move the stream back (or on) to a position from :meth:`get_state`.

        >>> import pylayer
        >>> g = pylayer.Generator()
        >>> g.set_state(g.get_state())
        """
        if not isinstance(state, GeneratorState):
            raise TypeError(f"set_state(): argument 'state' must be a GeneratorState from "
                            f"get_state(), got {describe(state)}")
        _rng().bit_generator.state = state._state


def get_rng_state(device=None):
    """The position of the random stream, as a list with one state (Paddle's form: one
    per device), for :func:`set_rng_state`.

    >>> import pylayer
    >>> states = pylayer.get_rng_state()
    >>> a = pylayer.randn([3]).numpy()
    >>> pylayer.set_rng_state(states)
    >>> bool((a == pylayer.randn([3]).numpy()).all())
    True
    """
    _check_device(device, "get_rng_state")
    return [Generator().get_state()]


def set_rng_state(state_list, device=None):
    """Move the random stream to a position from :func:`get_rng_state`.

    >>> import pylayer
    >>> pylayer.set_rng_state(pylayer.get_rng_state())
    """
    _check_device(device, "set_rng_state")
    if not isinstance(state_list, (list, tuple)) or not all(
            isinstance(s, GeneratorState) for s in state_list):
        raise TypeError(f"set_rng_state(): argument 'state_list' must be a list of states from "
                        f"get_rng_state(), got {describe(state_list)}")
    if len(state_list) != 1:
        raise ValueError(f"set_rng_state(): argument 'state_list' must hold one state (pylayer "
                         f"has one device), got {len(state_list)}")
    Generator().set_state(state_list[0])


def manual_seed(seed):
    """Restart the random stream from ``seed``, as :func:`pylayer.seed` does; returns the
    :class:`Generator`.

    >>> import pylayer
    >>> _ = pylayer.manual_seed(2); a = pylayer.rand([2]).numpy()
    >>> _ = pylayer.manual_seed(2); bool((a == pylayer.rand([2]).numpy()).all())
    True
    """
    return Generator().manual_seed(seed)
