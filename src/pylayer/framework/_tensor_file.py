"""Paddle's binary file of one tensor: ``save(tensor, path, use_binary_format=True)``.

The layout, as Paddle 3.3.1 writes it (all integers little-endian):

* ``uint32`` format version, 0;
* ``uint64`` number of LoD levels, 0 for a tensor (LoD is Paddle's old
  sequence-length table, which pylayer does not have);
* ``uint32`` tensor version, 0; ``int32`` size of the description;
* the description, a protocol-buffer message: field 1 (varint) the data
  type (:data:`DATA_TYPES`), field 2 (varint, repeated) the dimensions;
* the elements, C order, little-endian.

:func:`decode` checks every count against the bytes present before making
anything, and says what is wrong with a ``ValueError`` naming the file.
"""
import math
import struct

import numpy as np

from pylayer.framework import _reader

__all__ = []

# Paddle's codes of the data types pylayer's Tensors hold.
DATA_TYPES = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32",
              6: "float64", 20: "uint8", 21: "int8"}
_CODES = {np.dtype(name): code for code, name in DATA_TYPES.items()}
_HEADER = struct.Struct("<IQIi")       # version, LoD levels, tensor version, description size
MAGIC = bytes(4)                       # a pickle never starts with a zero byte


def _varint(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def encode(array):
    """The file's bytes for one numpy array."""
    code = _CODES.get(array.dtype.newbyteorder("="))
    if code is None:
        raise TypeError(f"save(): use_binary_format=True cannot write dtype {array.dtype}")
    description = b"\x08" + _varint(code) + b"".join(b"\x10" + _varint(d) for d in array.shape)
    data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
    return _HEADER.pack(0, 0, 0, len(description)) + description + data


class _Malformed(ValueError):
    pass


def _read_varint(data, at):
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise _Malformed("its tensor description ends inside a number")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at, shift = at + 1, shift + 7
        if not byte & 0x80:
            return value, at


def _description(data):
    """``(data type code, dims)`` from the protocol-buffer message."""
    code, dims, at = None, [], 0
    while at < len(data):
        key, at = _read_varint(data, at)
        field, wire = key >> 3, key & 7
        if field == 1 and wire == 0:
            code, at = _read_varint(data, at)
        elif field == 2 and wire == 0:
            dim, at = _read_varint(data, at)
            dims.append(dim)
        elif field == 2 and wire == 2:          # the packed form of the same field
            size, at = _read_varint(data, at)
            end = at + size
            if end > len(data):
                raise _Malformed("its packed dimensions run past the description")
            while at < end:
                dim, at = _read_varint(data, at)
                dims.append(dim)
        else:
            raise _Malformed(f"its tensor description has a field {field} (wire type {wire}) "
                             f"that Paddle does not write")
    if code is None:
        raise _Malformed("its tensor description has no data type")
    return code, dims


def decode(data, source):
    """The numpy array in ``data``, the bytes of a binary tensor file."""
    try:
        if len(data) < _HEADER.size:
            raise _Malformed(f"it is {len(data)} bytes long, shorter than the header")
        version, lod_levels, tensor_version, size = _HEADER.unpack_from(data)
        if version or tensor_version:
            raise _Malformed(f"its format versions are {version} and {tensor_version}, not 0")
        if lod_levels:
            raise _Malformed(f"it has {lod_levels} LoD levels; pylayer reads plain tensors "
                             f"(no LoD)")
        if not 0 <= size <= len(data) - _HEADER.size:
            raise _Malformed(f"its tensor description claims {size} bytes")
        code, dims = _description(data[_HEADER.size:_HEADER.size + size])
        if code not in DATA_TYPES:
            raise _Malformed(f"its data type code {code} is none of pylayer's dtypes "
                             f"({', '.join(DATA_TYPES.values())})")
        if len(dims) > 32 or any(d >= 2 ** 63 for d in dims):
            raise _Malformed(f"its shape {dims} is not a tensor's")
        dtype = np.dtype(DATA_TYPES[code]).newbyteorder("<")
        body = memoryview(data)[_HEADER.size + size:]
        needed = math.prod(dims) * dtype.itemsize
        if needed != len(body):
            raise _Malformed(f"it declares a {DATA_TYPES[code]} tensor of shape {dims} "
                             f"({needed} bytes) but holds {len(body)} bytes of data")
        if not _reader.addressable(dims, dtype.itemsize):   # empty, with sizes too large
            raise _Malformed(f"it declares a {DATA_TYPES[code]} tensor of shape {dims}, "
                             f"larger than any array can be")
        return np.frombuffer(body, dtype).reshape(dims).astype(dtype.newbyteorder("="))
    except _Malformed as error:
        raise ValueError(f"load(): {source} is not a tensor file pylayer reads: "
                         f"{error}") from None
