# Proof that an operand of + - * / is a temporary of the running expression: see _temporaries.pyx.
cdef bint is_running_binary_op(object left, object right, int operation)
