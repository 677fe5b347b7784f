"""pylayer's dtypes (:class:`DType`, ``float32`` ...) and what kind of numbers a numpy dtype
holds, in one place.

numpy's ``dtype.kind`` does not say it for every dtype pylayer has: ``bfloat16``
(from ``ml_dtypes``, the numpy extension that provides it) is of kind ``'V'``,
like raw bytes, although it is a floating-point type. Every test of what a dtype
holds goes through these functions instead.

>>> import numpy as np
>>> is_floating(BFLOAT16), is_floating(np.dtype("int64")), kind_of(BFLOAT16)
(True, False, 'f')
"""
import math

import ml_dtypes
import numpy as np

__all__ = ["BFLOAT16", "kind_of", "is_bool", "is_integer", "is_floating", "is_complex",
           "is_inexact", "is_real", "holds_numbers", "DType", "bool_", "uint8", "int8", "int16",
           "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex64",
           "complex128", "convert_dtype", "dtype_of", "supported_array", "number_in",
           "get_default_dtype", "set_default_dtype", "default_float", "default_complex",
           "iinfo", "finfo"]

#: numpy's dtype of bfloat16 (8 exponent bits, 7 mantissa bits), from ml_dtypes.
BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


def kind_of(dtype):
    """numpy's kind letter of ``dtype``, with bfloat16 a float (``'f'``): ``'b'`` bool,
    ``'i'``/``'u'`` signed/unsigned integer, ``'f'`` floating point, ``'c'`` complex.

    >>> kind_of(np.dtype("float16")), kind_of(np.dtype("uint8"))
    ('f', 'u')
    """
    return "f" if dtype == BFLOAT16 else dtype.kind


def is_bool(dtype):
    """``bool``.

    >>> is_bool(np.dtype(bool))
    True
    """
    return dtype.kind == "b"


def is_integer(dtype):
    """A signed or unsigned integer dtype (not bool).

    >>> is_integer(np.dtype("int32")), is_integer(np.dtype(bool))
    (True, False)
    """
    return dtype.kind in "iu"


def is_floating(dtype):
    """A real floating-point dtype: float16, bfloat16, float32, float64 (and wider).

    >>> is_floating(np.dtype("float16")), is_floating(np.dtype("complex64"))
    (True, False)
    """
    return dtype.kind == "f" or dtype == BFLOAT16


def is_complex(dtype):
    """complex64 or complex128 (or wider).

    >>> is_complex(np.dtype("complex64"))
    True
    """
    return dtype.kind == "c"


def is_inexact(dtype):
    """Floating point or complex: a dtype that gradients flow through.

    >>> is_inexact(BFLOAT16), is_inexact(np.dtype("int64"))
    (True, False)
    """
    return is_floating(dtype) or is_complex(dtype)


def is_real(dtype):
    """Bool, integer or floating point: numbers that have an order (not complex).

    >>> is_real(np.dtype(bool)), is_real(np.dtype("complex64"))
    (True, False)
    """
    return dtype.kind in "biuf" or dtype == BFLOAT16


def holds_numbers(dtype):
    """Bool, integer, floating point or complex: data a Tensor can hold (in these or
    other widths), unlike strings, objects, dates or raw bytes.

    >>> holds_numbers(np.dtype("complex128")), holds_numbers(np.dtype("M8[D]"))
    (True, False)
    """
    return dtype.kind in "biufc" or dtype == BFLOAT16


# ------------------------------------------------------------- pylayer's dtypes
class DType:
    """A tensor data type; equal to its name and to the numpy dtype. Immutable.

    >>> import pylayer
    >>> pylayer.float32 == 'float32', pylayer.float32 == np.float32
    (True, True)
    """
    __slots__ = ("name", "np_dtype")

    def __new__(cls, name, np_dtype):
        if not isinstance(name, str):
            raise TypeError(f"DType(): argument 'name' (position 1) must be a str, "
                            f"got {type(name).__name__}")
        if np_dtype is None or not isinstance(np_dtype, (str, type, np.dtype)):
            raise TypeError(f"DType(): argument 'np_dtype' (position 2) must be a numpy dtype "
                            f"or its name, got {type(np_dtype).__name__}")
        try:
            np_dtype = np.dtype(np_dtype)
        except TypeError as exc:
            raise TypeError(f"DType(): argument 'np_dtype' (position 2) is not a numpy dtype: "
                            f"{exc}") from None
        self = super().__new__(cls)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "np_dtype", np_dtype)
        return self

    def __setattr__(self, name, value):
        raise AttributeError(f"a DType cannot change: {self.name}.{name} is fixed")

    __delattr__ = __setattr__

    def __eq__(self, other):
        if isinstance(other, DType):
            return self.name == other.name
        if isinstance(other, str):
            return other == self.name or (other == "bool_" and self.name == "bool")
        try:
            return np.dtype(other) == self.np_dtype
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "pylayer." + self.name

    __str__ = __repr__

    def __reduce__(self):
        return (DType, (self.name, self.np_dtype))

    @property
    def is_floating_point(self):
        """A real floating-point dtype (complex ones are not, as in Paddle)."""
        return is_floating(self.np_dtype)

    @property
    def is_complex(self):
        return is_complex(self.np_dtype)


bool_ = DType("bool", np.bool_)
uint8 = DType("uint8", np.uint8)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
float16 = DType("float16", np.float16)
bfloat16 = DType("bfloat16", BFLOAT16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)

BY_NUMPY = {d.np_dtype: d for d in (bool_, uint8, int8, int16, int32, int64,
                                     float16, bfloat16, float32, float64, complex64, complex128)}
BY_NAME = {d.name: d for d in BY_NUMPY.values()}
CANONICAL_NAMES = frozenset(BY_NAME)
BY_NAME["bool_"] = bool_
BY_NAME["float"] = float64        # as numpy's np.dtype("float"), and Paddle's
BY_NAME["int"] = int64

# The dtype a Python float becomes when no dtype is given (Paddle's default dtype).
_default_float = float32
_DEFAULT_CHOICES = (float16, bfloat16, float32, float64)


def get_default_dtype():
    """The name of the dtype Python floats become when no dtype is given ('float32'
    unless :func:`set_default_dtype` changed it).

    >>> get_default_dtype()
    'float32'
    """
    return _default_float.name


def set_default_dtype(d):
    """Make ``d`` (float16, bfloat16, float32 or float64, as a name, a pylayer dtype or
    a numpy type) the dtype of Python floats, of the creation functions and of new
    layers' parameters when no dtype is given; complex numbers become complex128 under
    float64 and complex64 otherwise.

    >>> set_default_dtype("float64"); get_default_dtype()
    'float64'
    >>> set_default_dtype("float32")
    """
    global _default_float
    try:
        np_dtype = convert_dtype(d, "set_default_dtype", "d")
    except TypeError:
        np_dtype = None
    found = BY_NUMPY.get(np_dtype)
    if all(found is not choice for choice in _DEFAULT_CHOICES) or (
            isinstance(d, str) and d not in CANONICAL_NAMES):
        shown = repr(d) if isinstance(d, (str, np.dtype, type)) else type(d).__name__
        raise TypeError(f"set_default_dtype(): argument 'd' must be float16, bfloat16, "
                        f"float32 or float64, got {shown}")
    _default_float = found


def default_float():
    """The numpy dtype of the default float (see :func:`set_default_dtype`).

    >>> default_float()
    dtype('float32')
    """
    return _default_float.np_dtype


def default_complex():
    """The numpy dtype of a complex number given without a dtype: complex128 under the
    default float64, else complex64.

    >>> default_complex()
    dtype('complex64')
    """
    return np.dtype(np.complex128 if _default_float is float64 else np.complex64)


DTYPE_NAMES = ("bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, "
               "complex64 or complex128")


def convert_dtype(dtype, fn=None, arg="dtype"):
    """Return the numpy dtype for ``dtype`` (a DType, a name or a numpy dtype).

    ``None`` gives None. An unsupported value is a TypeError that names
    ``fn`` and ``arg`` when given.

    >>> convert_dtype('float32')
    dtype('float32')
    """
    if dtype is None:
        return None
    if isinstance(dtype, DType):
        return dtype.np_dtype
    if isinstance(dtype, str):
        found = BY_NAME.get(dtype)
        if found is not None:
            return found.np_dtype
    elif dtype is float:
        return np.dtype(np.float64)
    elif dtype is int:
        return np.dtype(np.int64)
    elif dtype is bool:
        return np.dtype(np.bool_)
    elif isinstance(dtype, (np.dtype, type)):
        try:
            np_dtype = np.dtype(dtype)
        except TypeError:
            np_dtype = None
        if np_dtype in BY_NUMPY:
            return np_dtype
    where = f"{fn}(): argument '{arg}' must be" if fn else "the dtype must be"
    shown = repr(dtype) if isinstance(dtype, (str, int, float, np.dtype, type)) \
        else type(dtype).__name__
    raise TypeError(f"{where} a dtype ({DTYPE_NAMES}, as a name, a pylayer dtype or a "
                    f"numpy dtype), got {shown}")


def dtype_of(np_dtype):
    """The pylayer dtype of a numpy dtype that a Tensor may hold.

    >>> dtype_of(np.dtype("float32"))
    pylayer.float32
    """
    return BY_NUMPY[np_dtype]


# ------------------------------------------------------ data a Tensor may hold
def supported_array(data, dtype=None, fn="to_tensor", arg="data"):
    """``data`` (an ndarray, a number or nested lists of numbers) as an ndarray of one of
    pylayer's dtypes: ``dtype`` if given, else Paddle's choice (see _from_python).
    Errors are TypeError or ValueError naming ``fn`` and ``arg``.

    >>> supported_array([1, 2]).dtype, supported_array(np.arange(2, dtype=np.uint16)).dtype
    (dtype('int64'), dtype('int64'))
    """
    target = convert_dtype(dtype, fn) if dtype is not None else None
    if isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, (bool, int, float, complex, np.generic, list, tuple)):
        arr = _from_python(data, target, fn, arg)
    else:
        raise TypeError(f"{fn}(): argument '{arg}' must be a Tensor, a numpy array, a number or "
                        f"a nested list of numbers, got {type(data).__name__}")
    if not holds_numbers(arr.dtype):
        raise TypeError(f"{fn}(): argument '{arg}' must hold numbers or booleans, got "
                        f"data of numpy dtype {arr.dtype}")
    if not (arr.dtype.isnative and arr.flags.aligned):
        # A copy in the machine's byte order, aligned, as compiled loops read it (a
        # big-endian float32 array is float32 data, not an unknown dtype).
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if target is not None:
        if is_complex(arr.dtype) and not is_complex(target):
            raise TypeError(f"{fn}(): argument '{arg}' holds complex numbers, which dtype "
                            f"{target.name} cannot hold: take .real or .imag first")
        return arr.astype(target, copy=False)
    if arr.dtype not in BY_NUMPY:
        arr = arr.astype(np.float64 if is_floating(arr.dtype) else
                         np.complex128 if is_complex(arr.dtype) else np.int64)
    return arr


def _from_python(data, target, fn, arg):
    """An ndarray from Python data: straight to ``target``, else as Paddle does it:
    a numpy scalar keeps its dtype; a float (and a list of floats of any width) is of
    the default dtype (float32 unless set_default_dtype changed it), a complex number
    (and a list holding one) of its complex dtype, an int (and a list of int32) int64."""
    try:
        if target is None:
            if isinstance(data, np.generic):
                return np.asarray(data)
            if isinstance(data, bool):
                return np.asarray(data, dtype=np.bool_)
            if isinstance(data, int):
                return np.asarray(data, dtype=np.int64)
            if isinstance(data, float):
                return np.asarray(data, dtype=_default_float.np_dtype)
            if isinstance(data, complex):
                return np.asarray(data, dtype=default_complex())
        arr = np.array(data, dtype=target)
    except OverflowError:
        raise ValueError(f"{fn}(): argument '{arg}' holds a number out of the range of "
                         f"{np.dtype(target or np.int64).name}: {_shown(data)}") from None
    except ValueError as exc:
        raise ValueError(f"{fn}(): argument '{arg}' must be a rectangular nested list of "
                         f"numbers, got a ragged or mixed sequence ({exc})") from None
    except TypeError as exc:
        raise TypeError(f"{fn}(): argument '{arg}' must hold numbers: {exc}") from None
    if target is None and is_floating(arr.dtype):
        arr = arr.astype(_default_float.np_dtype)
    elif target is None and is_complex(arr.dtype):
        arr = arr.astype(default_complex())
    elif target is None and arr.dtype == np.int32:
        arr = arr.astype(np.int64)
    return arr


def number_in(value, dtype, fn, arg, position=None):
    """``value`` (a Python or numpy number) as a 0-d array of ``dtype``: the one place
    where an op turns a number into a numpy scalar of a given dtype. A number the dtype
    cannot hold (an int out of an integer dtype's range, a float that is not finite or
    out of it, an int too large for a float) raises ValueError naming ``fn`` and ``arg``,
    instead of numpy's bare OverflowError or a silent wrap-around.

    >>> number_in(7, np.int32, "f", "x").dtype
    dtype('int32')
    >>> number_in(2 ** 63, np.int64, "add", "y", 2)
    Traceback (most recent call last):
      ...
    ValueError: add(): argument 'y' (position 2) = 9223372036854775808 does not fit int64
    """
    dtype = np.dtype(dtype)
    number = value.item() if isinstance(value, np.generic) else value
    try:
        if isinstance(number, float) and is_integer(dtype):
            limits = np.iinfo(dtype)
            if not (math.isfinite(number) and limits.min <= number < limits.max + 1):
                raise OverflowError(number)
        return np.asarray(number, dtype=dtype)
    except OverflowError:
        where = "" if position is None else f" (position {position})"
        raise ValueError(f"{fn}(): argument '{arg}'{where} = {_shown(value)} does not fit "
                         f"{dtype.name}") from None


def _shown(data):
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


# ------------------------------------------------------------ limits of a dtype
class iinfo:  # noqa: N801 - Paddle's name
    """The limits of an integer dtype: ``min``, ``max``, ``bits`` and ``dtype`` (its
    name).

    >>> iinfo("int8")
    pylayer.iinfo(min=-128, max=127, bits=8, dtype=int8)
    """
    __slots__ = ("min", "max", "bits", "dtype")

    def __init__(self, dtype):
        np_dtype = convert_dtype(dtype, "iinfo")
        if not is_integer(np_dtype):
            raise TypeError(f"iinfo(): argument 'dtype' must be an integer dtype (uint8, "
                            f"int8, int16, int32 or int64), got {BY_NUMPY[np_dtype].name}")
        info = np.iinfo(np_dtype)
        self.min, self.max, self.bits = int(info.min), int(info.max), int(info.bits)
        self.dtype = BY_NUMPY[np_dtype].name

    def __repr__(self):
        return (f"pylayer.iinfo(min={self.min}, max={self.max}, bits={self.bits}, "
                f"dtype={self.dtype})")


class finfo:  # noqa: N801 - Paddle's name
    """The limits of a floating-point (or complex, by its parts) dtype: ``min``,
    ``max``, ``eps``, ``resolution``, ``smallest_normal`` (also ``tiny``), ``bits`` and
    ``dtype`` (its name).

    >>> f = finfo("float32"); f.eps, f.bits, f.dtype
    (1.1920928955078125e-07, 32, 'float32')
    """
    __slots__ = ("min", "max", "eps", "resolution", "smallest_normal", "tiny", "bits",
                 "dtype")

    def __init__(self, dtype):
        np_dtype = convert_dtype(dtype, "finfo")
        if not is_inexact(np_dtype):
            raise TypeError(f"finfo(): argument 'dtype' must be a floating-point or complex "
                            f"dtype, got {BY_NUMPY[np_dtype].name}")
        info = ml_dtypes.finfo(np_dtype)
        self.min, self.max, self.eps = float(info.min), float(info.max), float(info.eps)
        self.resolution = 10.0 ** -int(info.precision)
        self.smallest_normal = self.tiny = float(info.smallest_normal)
        self.bits = int(info.bits)
        self.dtype = np.dtype(info.dtype).name if np_dtype != BFLOAT16 else "bfloat16"

    def __repr__(self):
        return (f"pylayer.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"resolution={self.resolution:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})")
