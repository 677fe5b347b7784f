# The arithmetic ops unwrapped (no dispatch by argument type), for compiled code that
# has already dispatched: gradient rules and the forwards of other ops.
cdef object add_op(object x, object y)
cdef object subtract_op(object x, object y)
cdef object multiply_op(object x, object y)
cdef object divide_op(object x, object y)
cdef object neg_op(object x)
cdef object zero_gradient(object g, object shape)
