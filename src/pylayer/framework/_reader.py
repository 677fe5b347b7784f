"""Reading checkpoint bytes that nobody vouches for: pickles of numpy arrays and containers.

A checkpoint file is a parser's input, not a program. The unpickler here
hands the file none of numpy's own constructors: each name the
``.pdparams`` / ``.pdopt`` format needs stands for a builder of this
module, which checks its arguments before anything is made.

* ``numpy.dtype(name, ...)`` gives a dtype only for a name of
  :data:`DTYPES`; its pickled state may choose the byte order and nothing
  else (no fields, sizes or flags from the file).
* ``_reconstruct`` and its state (protocols 2 to 4), or ``_frombuffer``
  (protocol 5), give an array only once the shape and dtype are checked
  against the bytes actually present in the file: no array is allocated
  for data the file does not hold.
* ``multiarray.scalar`` gives a numpy number from exactly ``itemsize``
  bytes; ``_codecs.encode`` gives bytes from a latin-1 string.
* Plain containers (``tuple``, ``list``, ``dict``, ``OrderedDict``,
  ``set``, ``frozenset``) are themselves.

Any other name, a malformed argument or state, a truncated file or a value
of another type in the result is a ``pickle.UnpicklingError`` that names
the file. The whole file is read into memory first, so no length written
in the file makes the reader allocate more than the file's size.
"""
import collections
import io
import math
import pickle
import reprlib
import sys

import numpy as np

__all__ = []

# What a checkpoint's arrays may hold: the dtypes of pylayer's Tensors, by the
# names numpy pickles them with.
DTYPES = {"b1": "bool", "u1": "uint8", "i1": "int8", "i2": "int16", "i4": "int32",
          "i8": "int64", "f2": "float16", "f4": "float32", "f8": "float64"}
_BYTE_ORDERS = {1: ("|",), 2: ("<", ">", "="), 4: ("<", ">", "="), 8: ("<", ">", "=")}
_MAX_DIMS = 32
_PLAIN_SCALARS = (type(None), bool, int, float, str, bytes, np.bool_, np.number)


class _Refused(pickle.UnpicklingError):
    """What the file asks for is not part of a checkpoint (the message says why)."""


class _DType:
    """``numpy.dtype(name)`` from the file: a dtype of :data:`DTYPES`, whose byte order
    the pickled state may set."""
    __slots__ = ("dtype", "_built")

    def __init__(self, name, align=False, copy=True):
        if not isinstance(name, str) or name not in DTYPES:
            raise _Refused(f"it asks for numpy dtype {name!r}; a checkpoint holds "
                           f"{', '.join(DTYPES.values())} data only")
        self.dtype = np.dtype(name)
        self._built = False

    def __setstate__(self, state):
        # numpy writes (3, byte order, None, None, None, -1, -1, 0) for these dtypes.
        if self._built or not (isinstance(state, tuple) and len(state) == 8
                               and state[0] == 3 and state[2:] == (None, None, None, -1, -1, 0)
                               and state[1] in _BYTE_ORDERS[self.dtype.itemsize]):
            raise _Refused(f"it gives numpy dtype {DTYPES[self.dtype.str[1:]]} the state "
                           f"{_short(state)}, which no checkpoint has")
        self.dtype = self.dtype.newbyteorder(state[1]) if state[1] in "<>" else self.dtype
        self._built = True


class _Array:
    """``_reconstruct(ndarray, (0,), b'b')`` from the file: an array once its state is
    checked (``__setstate__``, which the file's BUILD calls)."""
    __slots__ = ("array",)

    def __init__(self):
        self.array = None

    def __setstate__(self, state):
        if self.array is not None:
            raise _Refused("it gives one array two states")
        if not isinstance(state, tuple) or len(state) not in (4, 5) or \
                (len(state) == 5 and state[0] != 1):
            raise _Refused(f"it gives an array the state {_short(state)}; numpy writes "
                           f"(1, shape, dtype, is_fortran, data)")
        shape, dtype, fortran, data = state[-4:]
        if not isinstance(dtype, _DType):
            raise _Refused(f"it gives an array the dtype {_short(dtype)}")
        self.array = _array_from_bytes(data, dtype.dtype, shape, fortran)


def addressable(shape, itemsize):
    """Whether an array of ``shape`` and ``itemsize`` can exist: numpy refuses one whose
    nonzero sizes multiply (with the item size) past the largest index, even when
    another size is 0 and it would hold nothing."""
    return math.prod(d for d in shape if d) * itemsize <= sys.maxsize


def _array_from_bytes(data, dtype, shape, fortran):
    """The array of ``shape`` in ``data``, after checking that ``data`` holds exactly it."""
    if not (isinstance(shape, tuple) and len(shape) <= _MAX_DIMS
            and all(type(d) is int and d >= 0 for d in shape)):
        raise _Refused(f"it gives an array the shape {_short(shape)}; a shape is a tuple "
                       f"of at most {_MAX_DIMS} sizes, each 0 or more")
    if isinstance(data, str):       # a Python 2 string, read as latin-1 (as Paddle reads)
        data = data.encode("latin1")
    elif isinstance(data, bytearray):   # protocol 5 writes an array's data so
        data = bytes(data)
    if not isinstance(data, bytes) or type(fortran) is not bool:
        raise _Refused("it gives an array data that is not bytes (or an order that is "
                       "not a bool)")
    needed = math.prod(shape) * dtype.itemsize
    if needed != len(data):
        raise _Refused(f"it declares an array of shape {list(shape)} and dtype "
                       f"{dtype.name} ({needed} bytes) but holds {len(data)} bytes for it")
    if not addressable(shape, dtype.itemsize):      # empty, with sizes no array may have
        raise _Refused(f"it declares an array of shape {list(shape)} and dtype {dtype.name}, "
                       f"larger than any array can be")
    flat = np.frombuffer(data, dtype)
    return flat.reshape(shape, order="F" if fortran else "C").astype(dtype.newbyteorder("="))


def _reconstruct(cls, shape, typecode):
    if cls is not _NDARRAY or shape != (0,) or typecode not in (b"b", "b"):
        raise _Refused("it rebuilds an array in a way numpy never writes")
    return _Array()


def _frombuffer(data, dtype, shape, order):
    if not isinstance(dtype, _DType) or order not in ("C", "F"):
        raise _Refused(f"it rebuilds an array of dtype {_short(dtype)} and order "
                       f"{_short(order)} from a buffer")
    return _array_from_bytes(data, dtype.dtype, shape, order == "F")


def _scalar(dtype, data):
    if not isinstance(dtype, _DType):
        raise _Refused(f"it asks for a numpy number of dtype {_short(dtype)}")
    return _array_from_bytes(data, dtype.dtype, (), False)[()]


def _latin1(text, encoding):
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise _Refused("it encodes text other than latin-1 bytes")
    return text.encode("latin1")


class _Name:
    """One name the file may ask for: calls its builder; has no state of its own."""
    __slots__ = ("_label", "_build")

    def __init__(self, label, build):
        object.__setattr__(self, "_label", label)
        object.__setattr__(self, "_build", build)

    def __call__(self, *args):
        return self._build(*args)

    def __setstate__(self, state):
        raise _Refused(f"it gives {self._label} a state")

    def __setattr__(self, name, value):
        raise _Refused(f"it sets {name!r} on {self._label}")

    def __repr__(self):
        return self._label


_NDARRAY = _Name("numpy.ndarray", None)
_NAMES = {("numpy", "ndarray"): _NDARRAY,
          ("numpy", "dtype"): _Name("numpy.dtype", _DType),
          ("_codecs", "encode"): _Name("_codecs.encode", _latin1),
          ("collections", "OrderedDict"): collections.OrderedDict}
for _builtins in ("builtins", "__builtin__"):       # protocol 2 writes Python 2's name
    for _container in (tuple, list, dict, set, frozenset):
        _NAMES[_builtins, _container.__name__] = _container
for _core in ("numpy.core.multiarray", "numpy._core.multiarray"):
    _NAMES[_core, "_reconstruct"] = _Name(f"{_core}._reconstruct", _reconstruct)
    _NAMES[_core, "scalar"] = _Name(f"{_core}.scalar", _scalar)
for _numeric in ("numpy.core.numeric", "numpy._core.numeric"):
    _NAMES[_numeric, "_frombuffer"] = _Name(f"{_numeric}._frombuffer", _frombuffer)


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        found = _NAMES.get((module, name))
        if found is None:
            raise _Refused(f"it asks for {module}.{name}, which a checkpoint does not need; "
                           f"pylayer.load only rebuilds numpy arrays, numbers, strings and "
                           f"lists, tuples and dicts, and never runs code from a file")
        return found


def _short(value):
    return reprlib.repr(value)     # bounded, however large the value


# ------------------------------------------------------------ the result
class _Plain:
    """The unpickled value with arrays in place of their builders: containers are
    copied once each (shared and cyclic references stay shared), anything that is
    not an array, a number, a string or a container is refused."""

    def __init__(self):
        self._done = {}

    def __call__(self, value):
        key = id(value)
        if key in self._done:
            return self._done[key][1]
        if isinstance(value, _Array):
            if value.array is None:
                raise _Refused("it declares an array without giving its data")
            return self._keep(value, value.array)
        if isinstance(value, (np.ndarray, *_PLAIN_SCALARS)):     # only builders make these
            return value
        if isinstance(value, list):
            result = self._keep(value, [])
            result.extend(self(item) for item in value)
            return result
        if isinstance(value, dict):
            result = self._keep(value, type(value)())
            for k, item in value.items():
                result[self._key(k)] = self(item)
            return result
        if isinstance(value, tuple):
            return self._keep(value, tuple(self(item) for item in value))
        if isinstance(value, (set, frozenset)):
            return self._keep(value, type(value)(self._key(item) for item in value))
        kind = value._label if isinstance(value, _Name) else "a numpy dtype" \
            if isinstance(value, _DType) else f"a {type(value).__name__}"
        raise _Refused(f"its result holds {kind}, which is not part of a checkpoint")

    def _keep(self, original, result):
        self._done[id(original)] = (original, result)     # the original stays alive
        return result

    def _key(self, key):
        result = self(key)
        if isinstance(result, np.ndarray) or (isinstance(result, tuple) and any(
                isinstance(item, np.ndarray) for item in result)):
            raise _Refused("it uses an array as a dict key or set item")
        return result


def read(data, source):
    """The object pickled in ``data`` (bytes), its arrays as numpy arrays.

    ``source`` names the file in errors.
    """
    try:
        return _Plain()(_Unpickler(io.BytesIO(data), encoding="latin1").load())
    except _Refused as error:
        raise pickle.UnpicklingError(f"load(): {source} is not a checkpoint pylayer reads: "
                                     f"{error}") from None
    except RecursionError:
        raise pickle.UnpicklingError(f"load(): {source} nests containers too deeply to be "
                                     f"a checkpoint") from None
    except Exception as error:      # any other malformed input: truncated, wrong opcodes...
        raise pickle.UnpicklingError(f"load(): {source} is not a checkpoint pylayer reads "
                                     f"({type(error).__name__}: {error})") from None
