# The pool of large buffers for op results: see _buffers.pyx.

# Arrays of this many bytes or more are large: their memory is pooled.
cdef enum:
    POOL_MIN_BYTES = 256 * 1024

cdef class Block:
    cdef object raw

cdef object buffer_like(object array)
cdef object buffer_for(object array, object other)
