"""Argument checks shared by the Python ops, layers and optimizers.

Each check returns the value in a normal form, or raises ``TypeError`` (wrong
type) or ``ValueError`` (right type, wrong value) with a message of the form
``fn(): argument 'arg' must be ..., got ...``.
"""
import numpy as np

from pylayer._tensor import Tensor, convert_dtype

__all__ = []

#: The largest number of elements a tensor may be asked to have.
MAX_ELEMENTS = 2 ** 40
INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1

_KIND_WORDS = {"f": "floating-point", "iu": "integer", "biuf": "bool or numeric"}


def describe(value):
    """How an offending value is shown: numbers and strings by value, the rest by type."""
    if isinstance(value, (bool, int, float, str, np.number)) or value is None:
        return repr(value)
    return type(value).__name__


def check_dtype(dtype, fn, arg="dtype", kinds="biuf", allow_none=True):
    """The numpy dtype that ``dtype`` names (None stays None when allowed)."""
    if dtype is None:
        if allow_none:
            return None
        raise TypeError(f"{fn}(): argument '{arg}' must be a dtype such as 'float32', got None")
    np_dtype = convert_dtype(dtype, fn, arg)
    if np_dtype.kind not in kinds:
        raise ValueError(f"{fn}(): argument '{arg}' must be a {_KIND_WORDS.get(kinds, kinds)} "
                         f"dtype, got {np_dtype}")
    return np_dtype


def check_int(value, fn, arg, minimum=None, allow_none=False):
    """``value`` as an int (a one-element integer Tensor counts), at least ``minimum``."""
    if value is None and allow_none:
        return None
    if isinstance(value, Tensor) and value.size == 1 and value.dtype.np_dtype.kind in "iu":
        value = value.item()
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int"
                        f"{' or None' if allow_none else ''}, got {describe(value)}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{fn}(): argument '{arg}' must be at least {minimum}, got {value}")
    if not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"{fn}(): argument '{arg}' must fit in int64 "
                         f"([{INT64_MIN}, {INT64_MAX}]), got {value}")
    return int(value)


def check_number(value, fn, arg, minimum=None, maximum=None, allow_none=False):
    """``value`` as a Python float (a one-element Tensor counts), within the bounds."""
    if value is None and allow_none:
        return None
    if isinstance(value, Tensor) and value.size == 1:
        value = value.item()
    if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(
            value, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a number"
                        f"{' or None' if allow_none else ''}, got {describe(value)}")
    value = float(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{fn}(): argument '{arg}' must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{fn}(): argument '{arg}' must be at most {maximum}, got {value}")
    return value


def check_choice(value, fn, arg, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{fn}(): argument '{arg}' must be one of {list(choices)}, "
                         f"got {describe(value)}")
    return value


def check_str(value, fn, arg, allow_none=False):
    if value is None and allow_none:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{fn}(): argument '{arg}' must be a str"
                        f"{' or None' if allow_none else ''}, got {describe(value)}")
    return value


def check_callable(value, fn, arg, allow_none=False):
    if value is None and allow_none:
        return None
    if not callable(value):
        raise TypeError(f"{fn}(): argument '{arg}' must be callable"
                        f"{' or None' if allow_none else ''}, got {describe(value)}")
    return value


def check_count(count, fn, arg):
    """Refuse a tensor of ``count`` elements, too many to allocate."""
    if count > MAX_ELEMENTS:
        raise ValueError(f"{fn}(): argument '{arg}' asks for {count} elements, more than the "
                         f"{MAX_ELEMENTS} a tensor may have")
