cpdef object unbroadcast(object g, tuple shape)
cpdef object expand_grad(g, shape, axes, keepdim)
cdef object unbroadcast_like(object g, object x)
