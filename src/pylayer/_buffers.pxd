# The pool of large buffers that died: see _buffers.pyx.
from cpython.object cimport PyObject

cdef bint pool_on
cdef Py_ssize_t POOL_MIN_BYTES

cdef object buffer_like(object array)
cdef object buffer_for(object array, object other)
cdef void keep_if_unreachable(PyObject *array) noexcept
