cpdef object unbroadcast(object g, object shape)
cpdef object expand_grad(g, shape, axes, keepdim)
cdef object unbroadcast_like(object g, object x)
