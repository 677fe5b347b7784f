"""A bounded pool of large buffers for the results of ops.

With glibc's default settings, every fresh multi-megabyte array is mapped and
faulted in again, which costs more than the arithmetic written into it; and
the heap that holds smaller arrays is trimmed whenever a step frees its graph,
so the next step grows it and faults it in again (a network's activations of
32 KB and up: 520 page faults a step of a three-layer PINN on [256, 64]). So
the large-array paths of the ops write their results into arrays whose
memory comes from this pool, and that memory goes back to the pool, keyed by
its size in bytes, for the next result of that size (PyTorch's and CuPy's
caching allocators do the same for device memory).

Ownership is proven by numpy's own reference chain, not guessed: a pooled
array's memory is kept by a ``Block``, the array's base object. Every array
that uses that memory (the result, its views, ``numpy()`` results, buffer
exports) refers to the Block, directly or through its base, so the Block
dies, and gives the memory back, only when nothing can reach the memory any
more: exactly when numpy would have freed it. Memory a user still holds is
never reused.

``PYLAYER_BUFFER_POOL=0`` turns the pool off; ``PYLAYER_BUFFER_POOL_MB`` sets
its cap (default 256 MB). ``pylayer.device`` exposes the statistics.
"""
import os

import numpy as np

cimport numpy as cnp
from cpython.pyport cimport PY_SSIZE_T_MAX

cnp.import_array()

__all__ = ["memory_stats", "empty_cache", "set_pool_limit"]


def _limit_from_environment():
    """The pool's cap in bytes from ``PYLAYER_BUFFER_POOL_MB`` (default 256): a finite
    number of megabytes in [0, 2**40); anything else stops the import with a
    ValueError that names the variable."""
    text = os.environ.get("PYLAYER_BUFFER_POOL_MB", "256")
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = float("nan")
    if not 0 <= megabytes < 2 ** 40:         # also false for nan
        raise ValueError(f"the environment variable PYLAYER_BUFFER_POOL_MB must be a number of "
                         f"megabytes in [0, 2**40), got {text!r}")
    return int(megabytes * 2 ** 20)


cdef bint _pool_on = os.environ.get("PYLAYER_BUFFER_POOL", "1") not in ("0", "", "off", "false")
cdef Py_ssize_t _limit = _limit_from_environment()
cdef dict _free = {}               # nbytes -> list of free memory (1-D uint8 arrays)
cdef Py_ssize_t _pooled_bytes = 0
cdef unsigned long long _hits = 0, _misses = 0, _kept = 0, _dropped = 0


cdef class Block:
    """The base object of a pooled array: keeps its memory (``raw``, a 1-D uint8 array)
    while any array uses it, and gives it back to the pool when the last one dies."""

    def __dealloc__(self):
        global _pooled_bytes, _kept, _dropped
        cdef Py_ssize_t nbytes
        if self.raw is None or _free is None:        # (interpreter shutdown)
            return
        nbytes = cnp.PyArray_NBYTES(<cnp.ndarray>self.raw)
        if not _pool_on or _pooled_bytes + nbytes > _limit:
            _dropped += 1
            return
        bucket = _free.get(nbytes)
        if bucket is None:
            _free[nbytes] = [self.raw]
        else:
            (<list>bucket).append(self.raw)
        _pooled_bytes += nbytes
        _kept += 1


cdef Block _block(Py_ssize_t nbytes):
    """A Block holding ``nbytes`` of memory: free memory of that size, or new."""
    global _pooled_bytes, _hits, _misses
    cdef cnp.npy_intp size = nbytes
    cdef list bucket = _free.get(nbytes)
    cdef Block block = Block.__new__(Block)
    if bucket:
        block.raw = bucket.pop()
        _pooled_bytes -= nbytes
        _hits += 1
    else:
        block.raw = cnp.PyArray_EMPTY(1, &size, cnp.NPY_UINT8, 0)
        _misses += 1
    return block


cdef object _on_block(Block block, int nd, cnp.npy_intp* dims, int typenum):
    """A C-contiguous array of ``dims`` and ``typenum`` on the memory of ``block``, whose
    size the caller made ``dims``' product times the item size."""
    array = cnp.PyArray_SimpleNewFromData(nd, dims, typenum,
                                          cnp.PyArray_DATA(<cnp.ndarray>block.raw))
    cnp.set_array_base(array, block)
    return array


cdef object _take(cnp.ndarray like):
    """A new C-contiguous array shaped and typed like ``like``, on pooled memory."""
    return _on_block(_block(cnp.PyArray_NBYTES(like)), cnp.PyArray_NDIM(like),
                     cnp.PyArray_DIMS(like), cnp.PyArray_TYPE(like))


cdef object pooled_new(object shape, cnp.dtype dtype):
    """A new C-contiguous array of ``shape`` (a tuple or list of ints) and ``dtype`` on
    pooled memory, or None when it is small, the pool is off, the dtype is not a
    native-order number or bool, or the shape is not one this path takes (more than 32
    dimensions, a negative, non-integer or too large size: the caller's numpy then
    says what is wrong)."""
    cdef cnp.npy_intp dims[32]
    cdef Py_ssize_t nbytes = dtype.itemsize, size
    cdef int nd = 0
    if not _pool_on or not (type(shape) is tuple or type(shape) is list) or len(shape) > 32 \
            or not (cnp.PyTypeNum_ISNUMBER(dtype.type_num)
                    or cnp.PyTypeNum_ISBOOL(dtype.type_num)) \
            or not cnp.PyDataType_ISNOTSWAPPED(dtype) or nbytes <= 0:
        return None
    for item in shape:
        if type(item) is not int:
            return None
        if not 0 <= item <= PY_SSIZE_T_MAX:
            return None
        size = item
        if size and nbytes > PY_SSIZE_T_MAX // size:
            return None
        nbytes *= size
        dims[nd] = size
        nd += 1
    if nbytes < POOL_MIN_BYTES:
        return None
    return _on_block(_block(nbytes), nd, dims, dtype.type_num)


cdef object buffer_like(object array):
    """Where to write a new result shaped and typed like ``array``: a pooled array,
    or None to let numpy allocate."""
    if not _pool_on or not cnp.PyArray_Check(array) \
            or cnp.PyArray_NBYTES(<cnp.ndarray>array) < POOL_MIN_BYTES:
        return None
    return _take(<cnp.ndarray>array)


cdef object buffer_for(object array, object other):
    """Where to write ``array (op) other`` for an elementwise op: a pooled array when
    the result is sure to be shaped and typed like ``array`` (``other`` an array of the
    same shape and dtype, or a Python number with a float ``array``), else None."""
    cdef int kind
    if not _pool_on or not cnp.PyArray_Check(array) \
            or cnp.PyArray_NBYTES(<cnp.ndarray>array) < POOL_MIN_BYTES:
        return None
    kind = cnp.PyArray_TYPE(<cnp.ndarray>array)
    if cnp.PyArray_Check(other):
        if (cnp.PyArray_TYPE(<cnp.ndarray>other) != kind
                or not cnp.PyArray_SAMESHAPE(<cnp.ndarray>other, <cnp.ndarray>array)):
            return None
    elif not ((type(other) is float or type(other) is int)
              and (kind == cnp.NPY_FLOAT32 or kind == cnp.NPY_FLOAT64)):
        return None
    return _take(<cnp.ndarray>array)


def memory_stats():
    """What the pool of large buffers holds and has done, as a dict.

    ``pooled_bytes``/``pooled_buffers``: held now, ready for reuse;
    ``limit_bytes``: the cap; ``hits``/``misses``: op results that did or did
    not find free memory of their size (the pool then made some);
    ``kept``/``dropped``: memory that came back when the last array using it
    died, or was let go because the pool was full; ``enabled``.

    >>> import pylayer as paddle
    >>> stats = paddle.device.memory_stats()
    >>> stats["enabled"], stats["limit_bytes"] > 0
    (True, True)
    """
    return {"enabled": bool(_pool_on), "pooled_bytes": _pooled_bytes,
            "pooled_buffers": sum(len(b) for b in _free.values()), "limit_bytes": _limit,
            "hits": _hits, "misses": _misses, "kept": _kept, "dropped": _dropped}


def empty_cache():
    """Free every buffer the pool holds (the counters stay).

    >>> import pylayer
    >>> pylayer.device.empty_cache()
    >>> pylayer.device.memory_stats()["pooled_bytes"]
    0
    """
    global _pooled_bytes
    _free.clear()
    _pooled_bytes = 0


def set_pool_limit(limit_bytes):
    """Cap the bytes the pool may hold (0 keeps nothing); returns the previous cap.
    Buffers held above a lower cap are freed.

    >>> import pylayer
    >>> previous = pylayer.device.set_pool_limit(64 * 2 ** 20)
    >>> pylayer.device.set_pool_limit(previous)
    67108864
    """
    global _limit
    if not isinstance(limit_bytes, (int, np.integer)) or isinstance(limit_bytes, bool):
        raise TypeError(f"set_pool_limit(): argument 'limit_bytes' must be an int, got "
                        f"{type(limit_bytes).__name__}")
    if not 0 <= limit_bytes < 2 ** 63:
        raise ValueError(f"set_pool_limit(): argument 'limit_bytes' must lie in [0, 2**63), "
                         f"got {limit_bytes!r}")
    previous = _limit
    _limit = int(limit_bytes)
    if _pooled_bytes > _limit:
        empty_cache()
    return previous
