cdef bint is_variable(object value)
cdef bint holds_variable(tuple args, dict kwargs) except -1
cdef object record(object fn, tuple args, dict kwargs)
