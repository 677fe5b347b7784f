# How the compiled ops read their arguments, and the gradients of the activations
# from their outputs. The inline helpers are compiled into each module that
# cimports them.
cimport numpy as cnp

from pylayer._kernels.buffers cimport buffer_like
from pylayer._core.tensor cimport Tensor

cpdef object as_tensor_arg(object value, object fn, object arg, object position)
cpdef object float_tensor(object value, object fn, object arg=*, object position=*,
                          bint integers_as_float32=*)
cpdef object operand(object value, str fn, str arg, int position)
cpdef tuple shape_of(object x)
cpdef list shape_arg(object shape, str fn, str arg=*, long minimum=*)
cpdef object broadcast_error(object fn, object xa, object ya)
cdef object float32_unless_float64(object out, tuple operands)


cdef inline object tensor_arg(object value, object fn, object arg, object position):
    """as_tensor_arg without a Python call when value already is a Tensor."""
    if type(value) is Tensor:
        return value
    return as_tensor_arg(value, fn, arg, position)


cdef inline bint is_float64_array(object a):
    return cnp.PyArray_Check(a) and cnp.PyArray_TYPE(<cnp.ndarray>a) == cnp.NPY_FLOAT64


cdef inline object pooled_unary(object ufunc, object a):
    """``ufunc(a)``, written into a pooled buffer when a large one of ``a``'s size is free."""
    buffer = buffer_like(a)
    return ufunc(a) if buffer is None else ufunc(a, out=buffer)


# The gradient of an activation from its output y and the output's gradient dy
# (output_gradient): one fused pass where the layout allows, numpy elsewhere.
cdef enum OutputGradient:
    TANH_GRADIENT           # dy * (1 - y * y)
    SIGMOID_GRADIENT        # dy * y * (1 - y)
    RELU_GRADIENT           # dy where y > 0, else 0


cdef object output_gradient(OutputGradient which, object y, object dy)
