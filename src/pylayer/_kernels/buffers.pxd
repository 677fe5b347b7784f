# The pool of large buffers for op results: see buffers.pyx.
cimport numpy as cnp

# Arrays of this many bytes or more are large: their memory is pooled. Measured on
# PINN steps: from 64 KB, eight [256, 32] layers keep twice the page faults they keep
# from 32 KB; from 16 KB saves no more than from 32 KB.
cdef enum:
    POOL_MIN_BYTES = 32 * 1024

cdef class Block:
    cdef object raw

cdef object buffer_like(object array)
cdef object pooled_new(object shape, cnp.dtype dtype)
cdef object buffer_for(object array, object other)
