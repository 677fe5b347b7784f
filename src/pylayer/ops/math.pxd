# The math ops unwrapped (no dispatch by argument type), for compiled code that has
# already dispatched: gradient rules and the forwards of other ops.
cdef object tanh_op(object x)
cdef object exp_op(object x)
cdef object log_op(object x)
cdef object square_op(object x)
cdef object erf_op(object x)
cdef object erf_array(object a)
