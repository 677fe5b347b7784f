# The pool of large buffers for op results: see _buffers.pyx.
cdef class Block:
    cdef object raw

cdef object buffer_like(object array)
cdef object buffer_for(object array, object other)
