# How the compiled ops read their arguments, and the gradients of the activations
# from their outputs. The inline helpers are compiled into each module that
# cimports them.
cimport numpy as cnp

from pylayer._kernels.buffers cimport buffer_for, buffer_like
from pylayer._core.tensor cimport Tensor

cpdef object as_tensor_arg(object value, object fn, object arg, object position)
cpdef object float_tensor(object value, object fn, object arg=*, object position=*,
                          bint integers_as_float32=*, bint complex_too=*)
cpdef object real_tensor(object value, object fn, object arg=*, object position=*)
cpdef object operand(object value, str fn, str arg, int position)
cpdef tuple operands(object x, object y, str fn, int position=*)
cdef int check_fits(object number, object other, str fn, str arg, int position) except -1
cpdef tuple shape_of(object x)
cdef object float32_unless_float64(object out, tuple operands)
cpdef bint is_bfloat16_array(object a)
cpdef object accumulating(object a)
cpdef bint holds_complex(object a)
cpdef object unbroadcast(object g, object shape)
cdef object unbroadcast_like(object g, object x)
cpdef object real_part_if(object g, bint real_input)
cpdef object conjugate(object x)


cdef inline object tensor_arg(object value, object fn, object arg, object position):
    """as_tensor_arg without a Python call when value already is a Tensor."""
    if type(value) is Tensor:
        return value
    return as_tensor_arg(value, fn, arg, position)


cdef inline bint is_float64_array(object a):
    return cnp.PyArray_Check(a) and cnp.PyArray_TYPE(<cnp.ndarray>a) == cnp.NPY_FLOAT64


cdef inline bint is_double_array(object a):
    """A float64 or complex128 array: what makes a complex result complex128."""
    if not cnp.PyArray_Check(a):
        return False
    t = cnp.PyArray_TYPE(<cnp.ndarray>a)
    return t == cnp.NPY_FLOAT64 or t == cnp.NPY_COMPLEX128


cdef inline bint is_complex_array(object a):
    if not cnp.PyArray_Check(a):
        return False
    t = cnp.PyArray_TYPE(<cnp.ndarray>a)
    return t == cnp.NPY_COMPLEX64 or t == cnp.NPY_COMPLEX128


cdef inline int type_number(object result):
    """The dtype number of an array or numpy scalar (what numpy hands back for 0-d
    operands), -1 for anything else."""
    if cnp.PyArray_Check(result):
        return cnp.PyArray_TYPE(<cnp.ndarray>result)
    if isinstance(result, cnp.generic):
        return (<cnp.dtype>result.dtype).type_num
    return -1


cdef inline bint is_complex_result(object result):
    """A complex array or numpy scalar: an op's complex result, before make_output."""
    t = type_number(result)
    return t == cnp.NPY_COMPLEX64 or t == cnp.NPY_COMPLEX128


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


cdef inline object operand_of(object value, str fn, str arg, int position):
    """operand without a Python call when value already is a Tensor."""
    if type(value) is Tensor:
        return (<Tensor>value)._array
    return operand(value, fn, arg, position)


cdef inline int check_numbers(object xa, object ya, str fn, int position) except -1:
    """What ``operands`` checks, for callers that read the operands with operand_of: a
    Python int outside 0..127 against the other operand's dtype."""
    if isinstance(ya, int) and not 0 <= ya <= 127:
        check_fits(ya, xa, fn, "y", position + 1)
    elif isinstance(xa, int) and not 0 <= xa <= 127:
        check_fits(xa, ya, fn, "x", position)
    return 0
