# What the gradient rules of other compiled modules call (the arithmetic ops, shape, linalg).
cpdef object unbroadcast(object g, object shape)
cdef object unbroadcast_like(object g, object x)
cpdef object real_part_if(object g, bint real_input)
cpdef object conjugate(object x)
