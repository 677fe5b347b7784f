"""Argument checks shared by the Python ops, layers and optimizers.

Each check returns the value in a normal form, or raises ``TypeError`` (wrong
type) or ``ValueError`` (right type, wrong value) with a message of the form
``fn(): argument 'arg' must be ..., got ...``: ``fn`` and ``arg`` are the labels
of the function and the argument being checked. The settings of a check
(bounds, choices, a rank) are checked too, in the check's own name.
"""
import os

import numpy as np

from pylayer._kernels.dtypes import convert_dtype, is_bool, is_complex, is_integer, kind_of
from pylayer._core.tensor import Tensor
from pylayer.ops._operands import (as_tensor_arg, float_tensor,  # noqa: F401 - compiled, shared
                                   real_tensor)

__all__ = []

try:
    import resource
except ImportError:             # Windows
    resource = None

#: The largest number of elements a tensor may be asked to have.
MAX_ELEMENTS = 2 ** 40
INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1
#: The room under an address-space limit that :func:`memory_limit` keeps back: an array
#: taking all of it could not be allocated (the allocator rounds it up to whole pages and
#: adds its own header), nor the op's small arrays beside it.
ADDRESS_SPACE_RESERVE = 2 ** 26

_KIND_WORDS = {"f": "floating-point", "iu": "integer", "biuf": "bool or real numeric",
               "biufc": "bool or numeric", "fc": "floating-point or complex"}


def describe(value):
    """How an offending value is shown: numbers and strings by value, the rest by type.

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.describe(3), extend.describe([1])
    ('3', 'list')
    """
    if isinstance(value, (bool, int, float, str, np.number)) or value is None:
        return repr(value)
    return type(value).__name__


def shape_arg(shape, fn, arg="shape", minimum=-1):
    """A list of ints from a list/tuple/Tensor/int argument, each at least ``minimum``.

    >>> shape_arg((2, 3), "zeros", minimum=0)
    [2, 3]
    """
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a list or tuple of ints, "
                        f"got {type(shape).__name__}")
    result = []
    for s in shape:
        if isinstance(s, Tensor) and s.size == 1:
            s = s.item()
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"{fn}(): argument '{arg}' must hold ints, got {type(s).__name__}")
        if s < minimum:
            raise ValueError(f"{fn}(): argument '{arg}' holds {s}, but its entries must be "
                             f"at least {minimum}")
        result.append(int(s))
    return result


def broadcast_error(fn, xa, ya):
    """The error for operands of ``fn`` (arrays or numbers) that do not broadcast together.

    >>> broadcast_error("add", [1, 2], [1, 2, 3])
    ValueError('add(): x of shape [2] and y of shape [3] cannot be broadcast together')
    """
    return ValueError(f"{fn}(): x of shape {list(np.shape(xa))} and y of shape "
                      f"{list(np.shape(ya))} cannot be broadcast together")


def refuse_complex(fn, xa, ya):
    """Refuse complex operands (arrays or numbers) ``xa`` and ``ya`` of ``fn``, an op that
    orders its operands (comparisons, extremes, rounding divisions).

    >>> refuse_complex("max", 1.0, 2j)
    Traceback (most recent call last):
      ...
    TypeError: max(): argument 'y' must be real: max is not defined for complex numbers, got complex
    """
    for arg, value in (("x", xa), ("y", ya)):
        if isinstance(value, np.ndarray) and is_complex(value.dtype) \
                or isinstance(value, (complex, np.complexfloating)):
            dtype = value.dtype if isinstance(value, np.ndarray) else type(value).__name__
            raise TypeError(f"{fn}(): argument '{arg}' must be real: {fn} is not defined for "
                            f"complex numbers, got {dtype}")


def _is_number(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_))


def _check_bound(checker, name, value):
    if value is not None and not _is_number(value):
        raise TypeError(f"{checker}(): argument {name!r} must be a number or None, got "
                        f"{describe(value)}")


def _check_rank(checker, ndim):
    if type(ndim) is not int or ndim < 0:
        raise TypeError(f"{checker}(): argument 'ndim' must be a rank (an int >= 0), got "
                        f"{describe(ndim)}")


def check_dtype(dtype, fn, arg="dtype", kinds="biufc", allow_none=True):
    """The numpy dtype that ``dtype`` names (None stays None when allowed), of one of the
    ``kinds`` (letters of ``pylayer._kernels.dtypes.kind_of``: bfloat16 is ``'f'``).

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.check_dtype("float32", "f")
    dtype('float32')
    """
    if dtype is None:
        if allow_none:
            return None
        raise TypeError(f"{fn}(): argument '{arg}' must be a dtype such as 'float32', got None")
    if not isinstance(kinds, str):
        raise TypeError(f"check_dtype(): argument 'kinds' must be a str of numpy dtype kinds "
                        f"such as 'f' or 'iu', got {describe(kinds)}")
    np_dtype = convert_dtype(dtype, fn, arg)
    if kind_of(np_dtype) not in kinds:
        words = _KIND_WORDS.get(kinds, kinds)
        article = "an" if words[0] in "aeiou" else "a"
        raise ValueError(f"{fn}(): argument '{arg}' must be {article} {words} dtype, got "
                         f"{np_dtype}")
    return np_dtype


def check_int(value, fn, arg, minimum=None, allow_none=False):
    """``value`` as an int (a one-element integer Tensor counts), at least ``minimum``.

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.check_int(3, "f", "n", minimum=1)
    3
    """
    if value is None and allow_none:
        return None
    if isinstance(value, Tensor):
        if value.size != 1 or not is_integer(value.dtype.np_dtype):
            raise TypeError(f"{fn}(): argument '{arg}' must be an int or a one-element integer "
                            f"Tensor, got a Tensor of shape {value.shape} and dtype "
                            f"{value.dtype.name}")
        value = value.item()
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int"
                        f"{' or None' if allow_none else ''}, got {describe(value)}")
    _check_bound("check_int", "minimum", minimum)
    if minimum is not None and value < minimum:
        raise ValueError(f"{fn}(): argument '{arg}' must be at least {minimum}, got {value}")
    if not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"{fn}(): argument '{arg}' must fit in int64 "
                         f"([{INT64_MIN}, {INT64_MAX}]), got {value}")
    return int(value)


def check_number(value, fn, arg, minimum=None, maximum=None, allow_none=False):
    """``value`` as a Python float (a one-element Tensor counts), within the bounds.

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.check_number(0.5, "f", "p", minimum=0.0, maximum=1.0)
    0.5
    """
    if value is None and allow_none:
        return None
    if isinstance(value, Tensor) and value.size == 1:
        value = value.item()
    if not _is_number(value):
        raise TypeError(f"{fn}(): argument '{arg}' must be a number"
                        f"{' or None' if allow_none else ''}, got {describe(value)}")
    _check_bound("check_number", "minimum", minimum)
    _check_bound("check_number", "maximum", maximum)
    value = float(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{fn}(): argument '{arg}' must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{fn}(): argument '{arg}' must be at most {maximum}, got {value}")
    return value


def check_choice(value, fn, arg, choices):
    """``value`` if it is one of the strings ``choices``, else ValueError.

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.check_choice("sum", "f", "reduction", ("mean", "sum"))
    'sum'
    """
    if not isinstance(choices, (tuple, list, frozenset, set)) or not all(
            isinstance(choice, str) for choice in choices):
        raise TypeError(f"check_choice(): argument 'choices' must be a tuple of str, got "
                        f"{describe(choices)}")
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{fn}(): argument '{arg}' must be one of {list(choices)}, "
                         f"got {describe(value)}")
    return value


def check_str(value, fn, arg, allow_none=False):
    """``value`` if it is a str (or None when ``allow_none``), else TypeError.

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.check_str("mean", "f", "reduction")
    'mean'
    """
    if value is None and allow_none:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{fn}(): argument '{arg}' must be a str"
                        f"{' or None' if allow_none else ''}, got {describe(value)}")
    return value


def check_callable(value, fn, arg, allow_none=False):
    """``value`` if it can be called (or is None when ``allow_none``), else TypeError.

    >>> from pylayer.extend import check_callable
    >>> check_callable(None, "f", "hook", allow_none=True) is None
    True
    """
    if value is None and allow_none:
        return None
    if not callable(value):
        raise TypeError(f"{fn}(): argument '{arg}' must be callable"
                        f"{' or None' if allow_none else ''}, got {describe(value)}")
    return value


def memory_limit():
    """The most bytes one new array of this process may take: the machine's memory, or less
    where an address-space limit (``RLIMIT_AS``) leaves less room (less
    ``ADDRESS_SPACE_RESERVE``); None where unknown.

    >>> memory_limit() is None or memory_limit() > 0
    True
    """
    try:
        limit = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        limit = None
    if resource is not None:
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            room = soft - _address_space() - ADDRESS_SPACE_RESERVE
            limit = room if limit is None else min(limit, room)
    return limit


def _address_space():
    """The bytes of address space this process maps now (0 where unknown)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return 0


def _in_bytes(count):
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if count < 1024 or unit == "PiB":
            return f"{count} bytes" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1024


def check_count(count, fn, arg, dtype=None):
    """Refuse a tensor of ``count`` elements, too many to allocate: ``ValueError`` beyond
    ``MAX_ELEMENTS``, and, given its ``dtype``, ``MemoryError`` when it needs more bytes
    than :func:`memory_limit`. Ops call it for their result before allocating anything.

    >>> from pylayer.extend import check_count
    >>> check_count(6, "f", "shape", "float32")
    >>> check_count(2 ** 39, "f", "shape", "float32")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    MemoryError: f(): argument 'shape' asks for 549755813888 elements of float32 (2.0 TiB), ...
    """
    if not isinstance(count, (int, np.integer)) or isinstance(count, bool) or count < 0:
        raise TypeError(f"check_count(): argument 'count' must be a number of elements (an int "
                        f">= 0), got {describe(count)}")
    if count > MAX_ELEMENTS:
        raise ValueError(f"{fn}(): argument '{arg}' asks for {count} elements, more than the "
                         f"{MAX_ELEMENTS} a tensor may have")
    if dtype is None:
        return
    dtype = np.dtype(dtype)
    needed, limit = int(count) * dtype.itemsize, memory_limit()
    if limit is not None and needed > limit:
        raise MemoryError(f"{fn}(): argument '{arg}' asks for {count} elements of {dtype} "
                          f"({_in_bytes(needed)}), more than the {_in_bytes(max(limit, 0))} "
                          f"this process may allocate")


def check_ints(value, fn, arg):
    """An int, a list or tuple of ints (or one-element Tensors), or a 1-D Tensor, as a list.

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.check_ints((2, 3), "f", "shape")
    [2, 3]
    """
    if isinstance(value, Tensor) and value.ndim == 1:
        value = value.numpy().tolist()
    if isinstance(value, (list, tuple)):
        return [check_int(v, fn, arg) for v in value]
    return [check_int(value, fn, arg)]


def _axis_in_range(axis, ndim, fn, arg):
    """``axis`` in ``[0, max(ndim, 1))``; a 0-d tensor accepts 0 and -1."""
    size = max(ndim, 1)
    if not -size <= axis < size:
        raise ValueError(f"{fn}(): argument '{arg}': axis {axis} is out of range for a tensor "
                         f"of rank {ndim} (expected {-size} <= axis < {size})")
    return axis % size


def check_axis(value, ndim, fn, arg="axis"):
    """One axis (an int or a one-element integer Tensor) counted from 0.

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.check_axis(-1, 3, "f")
    2
    """
    _check_rank("check_axis", ndim)
    return _axis_in_range(check_int(value, fn, arg), ndim, fn, arg)


def check_axes(axis, ndim, fn, arg="axis"):
    """``axis`` (None, an int, a list of ints or a Tensor) as a sorted tuple of distinct
    axes, or None for all axes (also for a 0-d tensor).

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.check_axes([2, 0], 3, "f")
    (0, 2)
    """
    _check_rank("check_axes", ndim)
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = axis.numpy().tolist()
    items = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    if not items:
        return None
    axes = set()
    for item in items:
        if not isinstance(item, (int, np.integer)) or isinstance(item, (bool, np.bool_)):
            raise TypeError(f"{fn}(): argument '{arg}' must be an int or a list of ints, "
                            f"got {type(item).__name__}")
        axes.add(_axis_in_range(int(item), ndim, fn, arg))
    return None if ndim == 0 else tuple(sorted(axes))


def numeric_tensor(value, fn, arg="x", position=1, complex_too=False):
    """``value`` as a Tensor of a real numeric (not bool) dtype, or also a complex one
    with ``complex_too``.

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.numeric_tensor([1.5], "f").numpy()
    array([1.5], dtype=float32)
    """
    value = as_tensor_arg(value, fn, arg, position)
    if is_bool(value.numpy().dtype):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a numeric "
                        f"Tensor, got dtype bool")
    return value if complex_too else real_tensor(value, fn, arg, position)
