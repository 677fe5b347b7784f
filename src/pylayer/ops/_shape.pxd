cpdef object reshape_exact(object x, tuple shape)
