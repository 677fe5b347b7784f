"""Tensor creation: from data, filled, ranges and random streams.

The functions that make a tensor from no tensor are wrapped with
``op(records_without_variables=True)``: in static mode they add an operator
to the Program being built and return its Variable, as Paddle's do, so a
constant or random tensor made inside ``program_guard`` is part of the
program (a random one draws new values on each run).
"""
from __future__ import annotations

import functools
import math
from typing import Any, Callable, Optional, TypeVar, Union, cast

import numpy as np

from pylayer._kernels.dtypes import (default_float, holds_numbers, is_complex, is_floating,
                                     number_in)
from pylayer._core.tensor import Tensor, make_tensor, to_array
from pylayer._typing import DTypeLike, Number, ShapeLike, TensorData
from pylayer.ops._arguments import (MAX_ELEMENTS, check_count, check_dtype, check_int,
                                    check_number, describe)
from pylayer.ops._arguments import shape_arg
from pylayer.ops.dispatch import op

__all__ = ["to_tensor", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
           "full_like", "empty_like", "arange", "linspace", "eye", "rand", "randn",
           "randint", "uniform", "normal", "bernoulli", "seed", "get_rng"]

_rng = np.random.default_rng()


def seed(value: int) -> np.random.Generator:
    """Reset the global random stream so later random tensors repeat.

    >>> import pylayer
    >>> _ = pylayer.seed(42)
    >>> a = pylayer.rand([3])
    >>> _ = pylayer.seed(42)
    >>> bool((pylayer.rand([3]) == a).all())
    True
    """
    global _rng
    _rng = np.random.default_rng(check_int(value, "seed", "value", minimum=0))
    return _rng


def get_rng() -> np.random.Generator:
    """The numpy Generator behind pylayer's random functions.

    >>> import pylayer
    >>> _ = pylayer.seed(3)
    >>> type(pylayer.get_rng()).__name__
    'Generator'
    """
    return _rng


def _shape(shape, fn, dtype=None):
    """Non-negative sizes, refusing shapes too large to allocate in ``dtype`` (that of the
    largest array the function makes; None: too many elements only)."""
    dims = shape_arg(shape, fn, "shape", 0)
    check_count(math.prod(dims), fn, "shape", dtype)
    return dims


def _dtype(dtype, fn, default=None, kinds="biufc"):
    """The numpy dtype of ``dtype``; without one, ``default`` or else the default float."""
    if dtype is None:
        return default_float() if default is None else check_dtype(default, fn, kinds=kinds)
    return check_dtype(dtype, fn, kinds=kinds)


_F = TypeVar("_F", bound=Callable[..., Any])


def _refuses_requires_grad(fn: _F) -> _F:
    """PyTorch's ``requires_grad=`` gets Paddle's spelling, ``stop_gradient``, in the error."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if "requires_grad" in kwargs:
            raise TypeError(f"{fn.__name__}() has no argument 'requires_grad': Paddle (and "
                            f"pylayer) say it the other way round, stop_gradient; "
                            f"requires_grad=True is stop_gradient=False, and "
                            f"requires_grad=False is the default, stop_gradient=True")
        return fn(*args, **kwargs)
    return cast(_F, call)


@op(records_without_variables=True)
@_refuses_requires_grad
def to_tensor(data: TensorData, dtype: Optional[DTypeLike] = None, place: Any = None,
              stop_gradient: bool = True) -> Tensor:
    """Make a Tensor from a number, nested list, numpy array or Tensor (always copies).

    Python floats become float32, complex numbers complex64 and ints int64, as in
    Paddle; a numpy array or scalar keeps its dtype.

    >>> import numpy as np
    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    >>> x.shape, x.dtype, x.stop_gradient
    ([2, 2], pylayer.float32, False)
    >>> pylayer.to_tensor(np.arange(3, dtype="int32")).dtype
    pylayer.int32
    >>> pylayer.to_tensor(7).dtype
    pylayer.int64
    """
    if data is None or isinstance(data, (str, bytes, dict, set)) or (
            isinstance(data, np.ndarray) and not holds_numbers(data.dtype)):
        raise TypeError(f"to_tensor(): argument 'data' (position 1) must be a number, a nested "
                        f"list of numbers, a numpy array of numbers or a Tensor, got "
                        f"{_data_type(data)}")
    np_dtype = _dtype(dtype, "to_tensor") if dtype is not None else None
    if np_dtype is not None and _plain_python(data):
        # Straight to the target dtype: through float32 first, 0.1 would not be 0.1 in float64.
        data = _exact_array(data)
    try:
        array = np.array(to_array(data, np_dtype), copy=True)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"to_tensor(): argument 'data' (position 1) could not be converted: "
                        f"{exc}") from None
    return make_tensor(array, bool(stop_gradient))


def _plain_python(data):
    if isinstance(data, (list, tuple)):
        return all(_plain_python(item) for item in data)
    return isinstance(data, (bool, int, float, complex))


def _exact_array(data):
    """Python numbers as an array at full precision; ragged data is left to to_array."""
    try:
        return np.array(data)
    except ValueError:
        return data


def _data_type(data):
    if isinstance(data, np.ndarray):
        return f"data of numpy dtype {data.dtype}"
    return type(data).__name__


@op(records_without_variables=True)
def zeros(shape: ShapeLike, dtype: Optional[DTypeLike] = None,
          name: Optional[str] = None) -> Tensor:
    """A tensor of zeros (float32 by default).

    >>> import pylayer
    >>> print(pylayer.zeros([2, 3]))
    Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[0., 0., 0.],
            [0., 0., 0.]])
    """
    np_dtype = _dtype(dtype, "zeros")
    return make_tensor(np.zeros(_shape(shape, "zeros", np_dtype), np_dtype))


@op(records_without_variables=True)
def ones(shape: ShapeLike, dtype: Optional[DTypeLike] = None,
         name: Optional[str] = None) -> Tensor:
    """A tensor of ones (float32 by default).

    >>> import pylayer
    >>> pylayer.ones([3], dtype='int64').numpy()
    array([1, 1, 1])
    """
    np_dtype = _dtype(dtype, "ones")
    return make_tensor(np.ones(_shape(shape, "ones", np_dtype), np_dtype))


@op(records_without_variables=True)
def full(shape: ShapeLike, fill_value: Union[Number, bool, Tensor],
         dtype: Optional[DTypeLike] = None, name: Optional[str] = None) -> Tensor:
    """A tensor filled with ``fill_value``.

    Without ``dtype`` the result is bool for a bool value, complex128 for a
    complex number (as in Paddle) and float32 (Paddle's default float) for any
    other number, integers included.

    >>> import pylayer
    >>> pylayer.full([2], 7).numpy()
    array([7., 7.], dtype=float32)
    >>> pylayer.full([2], 7, dtype='int64').numpy()
    array([7, 7])
    >>> pylayer.full([2], 0.5).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    fill_value = _fill_value(fill_value, "full")
    if dtype is None:
        dtype = "bool" if isinstance(fill_value, (bool, np.bool_)) else \
            "complex128" if isinstance(fill_value, (complex, np.complexfloating)) else None
    np_dtype = _dtype(dtype, "full")
    if not is_complex(np_dtype) and isinstance(fill_value, (complex, np.complexfloating)):
        raise TypeError(f"full(): argument 'fill_value' {fill_value!r} is complex, which dtype "
                        f"{np_dtype} cannot hold")
    fill = number_in(fill_value, np_dtype, "full", "fill_value")
    return make_tensor(np.full(_shape(shape, "full", np_dtype), fill, np_dtype))


def _fill_value(value, fn):
    if isinstance(value, Tensor):
        value = value.item()
    if not isinstance(value, (int, float, complex, bool, np.number, np.bool_)):
        raise TypeError(f"{fn}(): argument 'fill_value' must be a number, "
                        f"got {describe(value)}")
    return value


@op(records_without_variables=True)
def empty(shape: ShapeLike, dtype: Optional[DTypeLike] = None,
          name: Optional[str] = None) -> Tensor:
    """An uninitialised tensor.

    >>> import pylayer
    >>> pylayer.empty([2, 3]).shape
    [2, 3]
    """
    np_dtype = _dtype(dtype, "empty")
    return make_tensor(np.empty(_shape(shape, "empty", np_dtype), np_dtype))


def _like(x, fn, dtype):
    """The array of ``x`` and the dtype of the result (``dtype``, else x's), refusing a
    result too large to allocate (``x`` may be a broadcast view)."""
    if isinstance(x, Tensor):
        a = x.numpy()
    elif isinstance(x, np.ndarray) and holds_numbers(x.dtype):
        a = x
    else:
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a Tensor, got "
                        f"{_data_type(x)}")
    np_dtype = a.dtype if dtype is None else _dtype(dtype, fn)
    check_count(a.size, fn, "x", np_dtype)
    return a, np_dtype


@op
def zeros_like(x: Union[Tensor, np.ndarray], dtype: Optional[DTypeLike] = None,
               name: Optional[str] = None) -> Tensor:
    """Zeros with the shape (and by default the dtype) of ``x``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2, 3]])
    >>> pylayer.zeros_like(x).numpy()
    array([[0, 0, 0]])
    """
    a, np_dtype = _like(x, "zeros_like", dtype)
    return make_tensor(np.zeros(a.shape, np_dtype))


@op
def ones_like(x: Union[Tensor, np.ndarray], dtype: Optional[DTypeLike] = None,
              name: Optional[str] = None) -> Tensor:
    """Ones with the shape (and by default the dtype) of ``x``.

    >>> import pylayer
    >>> pylayer.ones_like(pylayer.zeros([2])).numpy()
    array([1., 1.], dtype=float32)
    """
    a, np_dtype = _like(x, "ones_like", dtype)
    return make_tensor(np.ones(a.shape, np_dtype))


@op
def full_like(x: Union[Tensor, np.ndarray], fill_value: Union[Number, bool, Tensor],
              dtype: Optional[DTypeLike] = None, name: Optional[str] = None) -> Tensor:
    """``fill_value`` with the shape (and by default the dtype) of ``x``.

    >>> import pylayer
    >>> pylayer.full_like(pylayer.zeros([2]), 3.0).numpy()
    array([3., 3.], dtype=float32)
    """
    a, np_dtype = _like(x, "full_like", dtype)
    fill = number_in(_fill_value(fill_value, "full_like"), np_dtype, "full_like", "fill_value")
    return make_tensor(np.full(a.shape, fill, np_dtype))


def empty_like(x: Union[Tensor, np.ndarray], dtype: Optional[DTypeLike] = None,
               name: Optional[str] = None) -> Tensor:
    """An uninitialised tensor shaped like ``x``.

    >>> import pylayer
    >>> pylayer.empty_like(pylayer.zeros([2])).shape
    [2]
    """
    a, np_dtype = _like(x, "empty_like", dtype)
    return make_tensor(np.empty(a.shape, np_dtype))


def _number(value, fn, arg):
    """A number, keeping ints as ints (arange's dtype depends on it)."""
    if isinstance(value, Tensor):
        value = value.item()
    if not isinstance(value, (int, float, np.number)) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a number, got {describe(value)}")
    return value


@op(records_without_variables=True)
def arange(start: Union[Number, Tensor] = 0, end: Union[Number, Tensor, None] = None,
           step: Union[Number, Tensor] = 1, dtype: Optional[DTypeLike] = None,
           name: Optional[str] = None) -> Tensor:
    """Evenly spaced values in ``[start, end)``; int64 for ints, float32 for floats.

    >>> import pylayer
    >>> pylayer.arange(5).numpy()
    array([0, 1, 2, 3, 4])
    >>> pylayer.arange(1, 2, 0.25).numpy()
    array([1.  , 1.25, 1.5 , 1.75], dtype=float32)
    """
    start = _number(start, "arange", "start")
    if end is None:
        start, end = 0, start
    end = _number(end, "arange", "end")
    step = _number(step, "arange", "step")
    for arg, value in (("start", start), ("end", end), ("step", step)):
        if not np.isfinite(value):
            raise ValueError(f"arange(): argument '{arg}' must be a finite number, got {value!r}")
    if step == 0:
        raise ValueError("arange(): argument 'step' must not be 0")
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = "int64" if is_int else None
    np_dtype = _dtype(dtype, "arange", kinds="biuf")
    # The count as a float first: it may be inf (a tiny step over a huge range).
    if (float(end) - float(start)) / float(step) > MAX_ELEMENTS:
        raise ValueError(f"arange(): arguments 'start' {start!r}, 'end' {end!r} and 'step' "
                         f"{step!r} ask for more than the {MAX_ELEMENTS} elements a tensor "
                         f"may have")
    # numpy makes int64 or float64 values before the cast to the result's dtype
    check_count(max(0, int(np.ceil((float(end) - float(start)) / float(step)))), "arange", "end",
                np.float64)
    return make_tensor(np.arange(start, end, step).astype(np_dtype))


@op(records_without_variables=True)
def linspace(start: Union[Number, Tensor], stop: Union[Number, Tensor],
             num: Union[int, Tensor], dtype: Optional[DTypeLike] = None,
             name: Optional[str] = None) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive.

    >>> import pylayer
    >>> pylayer.linspace(0, 1, 5).numpy()
    array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float32)
    """
    num = check_int(num, "linspace", "num", minimum=0)
    np_dtype = _dtype(dtype, "linspace", kinds="biuf")
    check_count(num, "linspace", "num", np.float64)     # numpy's float64 values, then the cast
    return make_tensor(np.linspace(_number(start, "linspace", "start"),
                                   _number(stop, "linspace", "stop"), num).astype(np_dtype))


@op(records_without_variables=True)
def eye(num_rows: Union[int, Tensor], num_columns: Union[int, Tensor, None] = None,
        dtype: Optional[DTypeLike] = None, name: Optional[str] = None) -> Tensor:
    """An identity matrix.

    >>> import pylayer
    >>> pylayer.eye(2, 3).numpy()
    array([[1., 0., 0.],
           [0., 1., 0.]], dtype=float32)
    """
    rows = check_int(num_rows, "eye", "num_rows", minimum=0)
    cols = check_int(num_columns, "eye", "num_columns", minimum=0, allow_none=True)
    cols = rows if cols is None else cols
    np_dtype = _dtype(dtype, "eye")
    check_count(rows, "eye", "num_rows")
    check_count(rows * cols, "eye", "num_columns", np_dtype)
    return make_tensor(np.eye(rows, cols, dtype=np_dtype))


@op(records_without_variables=True)
def rand(shape: ShapeLike, dtype: Optional[DTypeLike] = None,
         name: Optional[str] = None) -> Tensor:
    """Uniform samples in [0, 1).

    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> pylayer.rand([2, 2]).numpy()
    array([[0.6369617 , 0.26978672],
           [0.04097353, 0.01652764]], dtype=float32)
    """
    np_dtype = _dtype(dtype, "rand", kinds="f")
    dims = _shape(shape, "rand", np.float64)     # numpy draws float64 values, then the cast
    return make_tensor(_rng.random(dims).astype(np_dtype))


@op(records_without_variables=True)
def randn(shape: ShapeLike, dtype: Optional[DTypeLike] = None,
          name: Optional[str] = None) -> Tensor:
    """Standard normal samples.

    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> pylayer.randn([3]).numpy()
    array([ 0.12573022, -0.13210486,  0.64042264], dtype=float32)
    """
    np_dtype = _dtype(dtype, "randn", kinds="f")
    dims = _shape(shape, "randn", np.float64)
    return make_tensor(_rng.standard_normal(dims).astype(np_dtype))


@op(records_without_variables=True)
def randint(low: Union[int, Tensor] = 0, high: Union[int, Tensor, None] = None,
            shape: ShapeLike = (1,), dtype: Optional[DTypeLike] = None,
            name: Optional[str] = None) -> Tensor:
    """Integers drawn uniformly from ``[low, high)``.

    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> pylayer.randint(0, 10, [5]).numpy()
    array([8, 6, 5, 2, 3])
    """
    low = check_int(low, "randint", "low")
    high = check_int(high, "randint", "high", allow_none=True)
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError(f"randint(): 'high' ({high}) must be greater than 'low' ({low})")
    np_dtype = _dtype(dtype, "randint", "int64", kinds="iu")
    dims = _shape(shape, "randint", np.int64)
    return make_tensor(_rng.integers(low, high, dims).astype(np_dtype))


@op(records_without_variables=True)
def uniform(shape: ShapeLike, dtype: Optional[DTypeLike] = None,
            min: Union[Number, Tensor] = -1.0, max: Union[Number, Tensor] = 1.0,
            seed: Union[int, Tensor] = 0, name: Optional[str] = None) -> Tensor:
    """Uniform samples in ``[min, max)``.

    >>> import pylayer
    >>> pylayer.uniform([3], min=2.0, max=4.0, seed=7).numpy()
    array([3.250191 , 3.7944276, 3.5513713], dtype=float32)
    """
    low = check_number(min, "uniform", "min")
    high = check_number(max, "uniform", "max")
    if low > high:
        raise ValueError(f"uniform(): 'min' ({low}) must not exceed 'max' ({high})")
    seed = check_int(seed, "uniform", "seed", minimum=0)
    np_dtype = _dtype(dtype, "uniform", kinds="f")
    rng = np.random.default_rng(seed) if seed else _rng
    dims = _shape(shape, "uniform", np.float64)
    return make_tensor(rng.uniform(low, high, dims).astype(np_dtype))


@op
def bernoulli(x: Tensor, p: Optional[Number] = None, name: Optional[str] = None) -> Tensor:
    """Samples of 0 or 1, each 1 with the probability in ``x`` (or ``p`` for all).

    ``x`` is a floating-point Tensor of probabilities in ``[0, 1]``; the
    result has its shape and dtype and never needs a gradient. A number
    ``p`` replaces the probabilities of ``x`` (only its shape is used).

    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> pylayer.bernoulli(pylayer.to_tensor([0.0, 1.0, 1.0])).numpy()
    array([0., 1., 1.], dtype=float32)
    """
    if not isinstance(x, Tensor) or not is_floating(x.numpy().dtype):
        raise TypeError(f"bernoulli(): argument 'x' (position 1) must be a floating-point "
                        f"Tensor, got {describe(x) if not isinstance(x, Tensor) else x.dtype}")
    a = x.numpy()
    p = check_number(p, "bernoulli", "p", minimum=0.0, maximum=1.0, allow_none=True)
    chances = a if p is None else np.full(a.shape, p)
    if not np.all((chances >= 0) & (chances <= 1)):
        raise ValueError("bernoulli(): argument 'x' must hold probabilities in [0, 1], got "
                         "values outside (or NaN)")
    return make_tensor((_rng.random(a.shape) < chances).astype(a.dtype))


@op(records_without_variables=True)
def normal(mean: Union[Number, Tensor] = 0.0, std: Union[Number, Tensor] = 1.0,
           shape: Optional[ShapeLike] = None, name: Optional[str] = None) -> Tensor:
    """Normal samples with the given mean and standard deviation.

    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> pylayer.normal(mean=10.0, std=0.1, shape=[2]).numpy()
    array([10.012573,  9.98679 ], dtype=float32)
    """
    mean = check_number(mean, "normal", "mean")
    std = check_number(std, "normal", "std", minimum=0)
    shape = [1] if shape is None else shape
    dims = _shape(shape, "normal", np.float64)
    return make_tensor(_rng.normal(mean, std, dims).astype(default_float()))
