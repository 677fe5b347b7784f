# What the gradient rules of other compiled modules call.
cpdef object unbroadcast(object g, object shape)
cdef object unbroadcast_like(object g, object x)
cpdef object expand_grad(g, shape, axes, keepdim)
cpdef list kept_shape(object shape, object axes)
cpdef object reduced_count(object shape, object axes)
