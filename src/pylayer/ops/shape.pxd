# The shape ops gradient rules call from other compiled modules.
cpdef object reshape_exact(object x, tuple shape)
cpdef object broadcast_exact(object x, tuple shape)
