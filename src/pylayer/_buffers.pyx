"""A bounded pool of the large buffers of tensors that died, for later op results.

With glibc's default settings, every fresh multi-megabyte array is mapped and
faulted in again, which costs more than the arithmetic written into it. So
when a Tensor dies holding the only reference to a large, C-contiguous array
that owns its memory, the array goes to this pool, keyed by its size in
bytes, and the large-array paths of the ops write their results into a pooled
array of the right size instead of allocating (PyTorch's and CuPy's caching
allocators do the same for device memory).

Ownership is proven, not guessed: the array is pooled from the dying Tensor's
own deallocation, when the Tensor held the only reference (no view, no
``numpy()`` result, no saved tensor, no buffer export, no weak reference), so
handing it out again is exactly as safe as freeing it. Memory a user still
holds is never reused.

``PYLAYER_BUFFER_POOL=0`` turns the pool off; ``PYLAYER_BUFFER_POOL_MB`` sets
its cap (default 256 MB). ``pylayer.device`` exposes the statistics.
"""
import os

import numpy as np

cimport numpy as cnp
from cpython.object cimport PyObject, PyTypeObject

cnp.import_array()

__all__ = ["memory_stats", "empty_cache", "set_pool_limit"]

cdef extern from "Python.h":
    Py_ssize_t Py_REFCNT(PyObject *obj)
    PyTypeObject *Py_TYPE(PyObject *obj)

cdef extern from *:
    """
    /* The object's weak-reference list: a weakref to the array could bring it back. */
    static int pylayer_has_weakrefs(PyObject *obj) {
        Py_ssize_t offset = Py_TYPE(obj)->tp_weaklistoffset;
        return offset > 0 && *(PyObject **)((char *)obj + offset) != NULL;
    }
    """
    bint has_weakrefs "pylayer_has_weakrefs"(PyObject *obj)

cdef Py_ssize_t POOL_MIN_BYTES = 256 * 1024
cdef bint pool_on = os.environ.get("PYLAYER_BUFFER_POOL", "1") not in ("0", "", "off", "false")
cdef Py_ssize_t _limit = int(float(os.environ.get("PYLAYER_BUFFER_POOL_MB", "256")) * 2 ** 20)
cdef dict _free = {}               # nbytes -> list of pooled arrays
# Data addresses of the arrays the pool allocated for op results. Only those
# are taken back: the pool holds the working set of the ops, not every large
# array that dies (one loaded by a saved-tensor hook, say). A stale address is
# harmless: it decides what is worth keeping, never whether keeping is safe.
cdef set _born = set()
cdef Py_ssize_t BORN_MAX = 4096
cdef Py_ssize_t _pooled_bytes = 0
cdef unsigned long long _hits = 0, _misses = 0, _kept = 0, _dropped = 0


cdef inline bint _plain_and_whole(object array):
    """An exact ndarray owning its aligned, writeable, C-contiguous memory."""
    return (cnp.PyArray_CheckExact(array)
            and cnp.PyArray_BASE(<cnp.ndarray>array) == NULL
            and cnp.PyArray_CHKFLAGS(<cnp.ndarray>array,
                                     cnp.NPY_ARRAY_OWNDATA | cnp.NPY_ARRAY_WRITEABLE
                                     | cnp.NPY_ARRAY_ALIGNED | cnp.NPY_ARRAY_C_CONTIGUOUS))


cdef void keep_if_unreachable(PyObject *array) noexcept:
    """Called by a dying Tensor with its array (a borrowed pointer to the field the
    Tensor is about to release): pool it if nothing else can reach it.

    Only the Tensor refers to it (a count of one), no weak reference can bring
    it back, and it is large enough to be worth it and fits under the cap.
    """
    global _pooled_bytes, _kept, _dropped
    cdef Py_ssize_t nbytes
    if (not pool_on or _free is None or Py_REFCNT(array) != 1
            or not cnp.PyArray_Check(<object>array)):
        return
    nbytes = cnp.PyArray_NBYTES(<cnp.ndarray>array)
    if (nbytes < POOL_MIN_BYTES or has_weakrefs(array) or not _plain_and_whole(<object>array)
            or <Py_ssize_t>cnp.PyArray_DATA(<cnp.ndarray>array) not in _born):
        return
    if _pooled_bytes + nbytes > _limit:
        _born.discard(<Py_ssize_t>cnp.PyArray_DATA(<cnp.ndarray>array))
        _dropped += 1
        return
    bucket = _free.get(nbytes)
    if bucket is None:
        _free[nbytes] = [<object>array]
    else:
        (<list>bucket).append(<object>array)
    _pooled_bytes += nbytes
    _kept += 1


cdef object _take(cnp.ndarray like):
    """An array shaped and typed like ``like`` that nothing else refers to: a pooled one
    if one of that size is free, else a new one the pool will take back."""
    global _pooled_bytes, _hits, _misses
    cdef Py_ssize_t nbytes = cnp.PyArray_NBYTES(like)
    cdef list bucket = _free.get(nbytes)
    if not bucket:
        _misses += 1
        block = cnp.PyArray_EMPTY(cnp.PyArray_NDIM(like), cnp.PyArray_DIMS(like),
                                  cnp.PyArray_TYPE(like), 0)
        if len(_born) >= BORN_MAX:
            _born.clear()
        _born.add(<Py_ssize_t>cnp.PyArray_DATA(<cnp.ndarray>block))
        return block
    block = bucket.pop()
    _pooled_bytes -= nbytes
    _hits += 1
    if (cnp.PyArray_TYPE(<cnp.ndarray>block) == cnp.PyArray_TYPE(like)
            and cnp.PyArray_SAMESHAPE(<cnp.ndarray>block, like)):
        return block
    # Another shape or dtype of the same size: a view; when its Tensor dies the
    # view is not pooled (it does not own its memory) and the block is freed.
    return block.view((<object>like).dtype).reshape((<object>like).shape)


cdef object buffer_like(object array):
    """Where to write a new result shaped and typed like ``array``: a pooled array,
    or None to let numpy allocate."""
    if not pool_on or not cnp.PyArray_Check(array) \
            or cnp.PyArray_NBYTES(<cnp.ndarray>array) < POOL_MIN_BYTES:
        return None
    return _take(<cnp.ndarray>array)


cdef object buffer_for(object array, object other):
    """Where to write ``array (op) other`` for an elementwise op: a pooled array when
    the result is sure to be shaped and typed like ``array`` (``other`` an array of the
    same shape and dtype, or a Python number with a float ``array``), else None."""
    cdef int kind
    if not pool_on or not cnp.PyArray_Check(array) \
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
    not find a free buffer of their size (the pool then made one);
    ``kept``/``dropped``: dying buffers it made that it took back, or let go
    because it was full; ``enabled``.

    >>> import pylayer
    >>> sorted(pylayer.device.memory_stats())[:3]
    ['dropped', 'enabled', 'hits']
    """
    return {"enabled": bool(pool_on), "pooled_bytes": _pooled_bytes,
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
    for bucket in _free.values():
        for block in bucket:
            _born.discard(<Py_ssize_t>cnp.PyArray_DATA(<cnp.ndarray>block))
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
