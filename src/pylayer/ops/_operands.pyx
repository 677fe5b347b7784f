"""How the compiled ops read their arguments on the hot path: a Tensor, a
floating-point Tensor, a number kept as a weak scalar; and Paddle's float32 default.
The Python ops use the same functions (``ops/_arguments.py`` and ``ops/_common.py``
re-export them), so each rule exists once; the checks that need no compiled code
(shapes, refusals, messages) are ``_arguments.py``'s.
"""
import importlib

import numpy as np
cimport numpy as cnp

from pylayer._core.graph cimport make_output
from pylayer._core.tensor cimport Tensor, has_shape, wrap
from pylayer._kernels.loops cimport (check_spans, data_of, empty_like, fusable,
                                     is_float_array, is_single, relu_backward_loop, same_layout,
                                     sigmoid_backward_loop, tanh_backward_loop)
from pylayer._core.size import Size
from pylayer._kernels.dtypes import BFLOAT16, is_complex, is_floating, is_integer, number_in
from pylayer._core.size import Size
from pylayer._core.tensor import to_array

cnp.import_array()

__all__ = ["as_tensor_arg", "float_tensor", "real_tensor", "operand", "operands", "shape_of",
           "float32_default", "accumulating", "is_bfloat16_array", "holds_complex", "unbroadcast",
           "real_part_if", "conjugate", "unbroadcast_to", "pooled_ufunc", "unary_forward",
           "tanh_rule", "tanh_gradient"]


cpdef object as_tensor_arg(object value, object fn, object arg, object position):
    """Accept a Tensor, a number, a numpy array or a nested list as an op argument.
    ``fn``, ``arg`` and ``position`` only label the error (the function, the argument's
    name and its place in the call).

    >>> import pylayer
    >>> from pylayer import extend
    >>> extend.as_tensor_arg([1, 2], "f", "x", 1).shape
    [2]
    """
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, complex, np.ndarray, np.generic, list, tuple)):
        return wrap(to_array(value, None, str(fn), str(arg)))
    raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a Tensor or a "
                    f"number, got {type(value).__name__}")


cpdef object float_tensor(object value, object fn, object arg="x", object position=1,
                          bint integers_as_float32=False, bint complex_too=False):
    """``value`` as a floating-point Tensor (or a complex one, with ``complex_too``).
    With ``integers_as_float32`` an integer tensor is computed in float32 (Paddle's
    default float); otherwise it is refused.

    >>> import pylayer as paddle
    >>> from pylayer import extend
    >>> extend.float_tensor(paddle.to_tensor([1, 2]), "f", integers_as_float32=True).dtype
    pylayer.float32
    """
    cdef Tensor x = <Tensor>tensor_arg(value, fn, arg, position)
    if is_float_array(x._array):
        return x
    dtype = x._array.dtype
    if is_floating(dtype) or (complex_too and is_complex(dtype)):
        return x
    if is_integer(dtype) and integers_as_float32:
        return x.astype("float32")     # the cast op (installed into Tensor), recorded
    floats = "floating-point or complex" if complex_too else "floating-point"
    accepted = ""
    if integers_as_float32:
        names = "float16, bfloat16, float32, float64, complex64 or complex128" if complex_too \
            else "float16, bfloat16, float32 or float64"
        accepted = f" ({names}) or an integer Tensor"
    raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a {floats} "
                    f"Tensor{accepted}, got dtype {x.dtype.name}")


cpdef object real_tensor(object value, object fn, object arg="x", object position=1):
    """``value`` as a Tensor of real numbers or bools: a complex one is refused, for the
    ops that make no sense on complex numbers (orderings, extremes, rounding).

    >>> real_tensor([1.5], "floor").dtype
    pylayer.float32
    """
    cdef Tensor x = <Tensor>tensor_arg(value, fn, arg, position)
    if is_complex_array(x._array):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a real "
                        f"Tensor: {fn} is not defined for complex numbers, got dtype "
                        f"{x.dtype.name}")
    return x


cpdef object operand(object value, str fn, str arg, int position):
    """Tensor -> its array; a Python number stays a number (numpy's weak promotion)."""
    if isinstance(value, Tensor):
        return (<Tensor>value)._array
    if isinstance(value, (int, float, complex)) and not isinstance(value, bool):
        return value
    return (<Tensor>as_tensor_arg(value, fn, arg, position))._array


cdef object _INT64_MIN = -2 ** 63
cdef object _INT64_MAX = 2 ** 63 - 1


cdef int check_fits(object number, object other, str fn, str arg, int position) except -1:
    """Refuse a Python int that the dtype numpy computes it in next to the array ``other``
    (its dtype; int64 for bools) cannot hold."""
    if not cnp.PyArray_Check(other):
        return 0
    t = cnp.PyArray_TYPE(<cnp.ndarray>other)
    if (t == cnp.NPY_INT64 or t == cnp.NPY_FLOAT32 or t == cnp.NPY_FLOAT64
            or t == cnp.NPY_COMPLEX64 or t == cnp.NPY_COMPLEX128) \
            and _INT64_MIN <= number <= _INT64_MAX:
        return 0            # the common cases, without a numpy call
    dtype = (<cnp.ndarray>other).dtype
    number_in(number, np.int64 if t == cnp.NPY_BOOL else dtype, fn, arg, position)
    return 0


cpdef tuple operands(object x, object y, str fn, int position=1):
    """``operand`` of ``x`` and ``y``, the operands of the binary op ``fn`` (at
    ``position`` and the next), with a Python int checked against the other's dtype:
    ``add(int64 tensor, 2 ** 63)`` raises ValueError naming add and y.

    >>> import pylayer
    >>> operands(pylayer.to_tensor([1, 2]), 3, "add")
    (array([1, 2]), 3)
    """
    xa = operand_of(x, fn, "x", position)
    ya = operand_of(y, fn, "y", position + 1)
    check_numbers(xa, ya, fn, position)
    return xa, ya


cpdef bint holds_complex(object a):
    """Whether ``a`` is a complex64 or complex128 array (the Python areas' is_complex_array).

    >>> import numpy as np
    >>> holds_complex(np.ones(2, np.complex64)), holds_complex(1j)
    (True, False)
    """
    return is_complex_array(a)


cpdef tuple shape_of(object x):
    """A Tensor's shape; a number counts as 0-d."""
    return (<Tensor>x)._array.shape if isinstance(x, Tensor) else ()


cdef int BFLOAT16_NUMBER = BFLOAT16.num


cpdef bint is_bfloat16_array(object a):
    """Whether ``a`` is a bfloat16 array.

    >>> import numpy as np
    >>> is_bfloat16_array(np.ones(2, np.float32))
    False
    """
    return cnp.PyArray_Check(a) and cnp.PyArray_TYPE(<cnp.ndarray>a) == BFLOAT16_NUMBER


cpdef object accumulating(object a):
    """The array ``a``, or for bfloat16 a float32 copy: sums, means, products and matrix
    products of bfloat16 accumulate in float32 and round their result once, as Paddle's
    kernels do (numpy, adding in bfloat16, stops growing a long sum early).

    >>> import numpy as np
    >>> accumulating(np.ones(2, np.float32)).dtype
    dtype('float32')
    """
    return a.astype(np.float32) if is_bfloat16_array(a) else a


cdef bint _bfloat16_leads(tuple operands):
    """Whether an operand is a bfloat16 array and none an array of another floating-point
    or complex dtype: then the result is bfloat16, as in Paddle (numpy, which leaves
    bfloat16 to ml_dtypes, gives float32 for bfloat16 times a Python float)."""
    cdef bint found = False
    cdef int t
    for value in operands:
        if cnp.PyArray_Check(value):
            t = cnp.PyArray_TYPE(<cnp.ndarray>value)
            if t == BFLOAT16_NUMBER:
                found = True
            elif (t == cnp.NPY_FLOAT32 or t == cnp.NPY_FLOAT64 or t == cnp.NPY_FLOAT16
                  or t == cnp.NPY_COMPLEX64 or t == cnp.NPY_COMPLEX128):
                return False
    return found


cdef object float32_unless_float64(object out, tuple operands):
    """``out`` in Paddle's result dtype: made float32 when numpy gave float64 although no
    operand is a float64 array (integers with a Python float, integers divided, int64
    with float32), Paddle's default float. Likewise complex128 becomes complex64 unless
    an operand is a float64 or complex128 array (int64 with complex64, float32 with a
    Python complex number), and a float result is bfloat16 when a bfloat16 array meets
    only numbers, integers or bools."""
    cdef int typenum = type_number(out)
    if (typenum == cnp.NPY_FLOAT32 or typenum == cnp.NPY_FLOAT64) and _bfloat16_leads(operands):
        return out.astype(BFLOAT16)
    if typenum == cnp.NPY_FLOAT64:
        for value in operands:
            if is_float64_array(value):
                return out
        return out.astype(np.float32)
    if typenum == cnp.NPY_COMPLEX128:
        for value in operands:
            if is_double_array(value):
                return out
        return out.astype(np.complex64)
    return out


def float32_default(out, *operands):
    """float64 only when some operand is a float64 array; else Paddle's float32 (and
    complex64 for complex128, unless an operand is float64 or complex128).

    >>> import numpy as np
    >>> float32_default(np.ones(2) / 2, np.arange(2), 2.0).dtype
    dtype('float32')
    """
    return float32_unless_float64(out, operands)


cdef object output_gradient(OutputGradient which, object y, object dy):
    """The array of the gradient ``which`` from the output ``y`` and its gradient ``dy``
    (Tensors): by its fused loop where the layout allows, else by numpy."""
    ya = (<Tensor?>y)._array
    ga = (<Tensor?>dy)._array
    if which == RELU_GRADIENT:
        # The select loop beats np.where at every size; dy * (y > 0) would be faster
        # still, but turns a NaN upstream gradient into NaN where y <= 0.
        if same_layout(ya, ga):
            return _output_gradient_loop(which, ya, ga)
        return np.where(ya > 0, ga, 0).astype(ga.dtype, copy=False)
    if fusable(ya, ga):
        return _output_gradient_loop(which, ya, ga)
    out = buffer_for(ya, ga)
    if out is None:
        if which == TANH_GRADIENT:
            return ga * (1 - ya * ya)
        return ga * ya * (1 - ya)
    # numpy's passes of the expressions above, in their order, into pooled memory
    if which == TANH_GRADIENT:
        np.multiply(ya, ya, out=out)
        np.subtract(1, out, out=out)
        return np.multiply(ga, out, out=out)
    np.multiply(ga, ya, out=out)
    return np.multiply(out, np.subtract(1, ya, out=buffer_like(ya)), out=out)


cdef cnp.ndarray _output_gradient_loop(OutputGradient which, object y, object dy):
    """The gradient ``which`` by its fused loop. ``y`` and ``dy`` must have one layout
    (``same_layout``); the result is a new array of it."""
    pooled = buffer_like(y)
    cdef cnp.ndarray out = empty_like(y) if pooled is None else pooled
    cdef Py_ssize_t n = cnp.PyArray_SIZE(out)
    check_spans(out, y, dy)
    if is_single(y):
        if which == TANH_GRADIENT:
            tanh_backward_loop(<const float*>data_of(y), <const float*>data_of(dy),
                               <float*>data_of(out), n)
        elif which == SIGMOID_GRADIENT:
            sigmoid_backward_loop(<const float*>data_of(y), <const float*>data_of(dy),
                                  <float*>data_of(out), n)
        else:
            relu_backward_loop(<const float*>data_of(y), <const float*>data_of(dy),
                               <float*>data_of(out), n)
    elif which == TANH_GRADIENT:
        tanh_backward_loop(<const double*>data_of(y), <const double*>data_of(dy),
                           <double*>data_of(out), n)
    elif which == SIGMOID_GRADIENT:
        sigmoid_backward_loop(<const double*>data_of(y), <const double*>data_of(dy),
                              <double*>data_of(out), n)
    else:
        relu_backward_loop(<const double*>data_of(y), <const double*>data_of(dy),
                           <double*>data_of(out), n)
    return out


# ----------------------------------------- gradients back to an operand
# Every binary op's rule runs these, so their common case (shapes agree, real
# numbers) stays here, compiled; the sum that unbroadcasts is reduction's.
cpdef object unbroadcast(object g, object shape):
    """Sum a broadcast gradient back to ``shape`` (recorded, so it can be differentiated again).

    >>> import pylayer as paddle
    >>> from pylayer import extend
    >>> extend.unbroadcast(paddle.ones([3, 2]), (2,)).numpy()
    array([3., 3.], dtype=float32)
    """
    if not isinstance(g, Tensor):
        raise TypeError(f"unbroadcast(): argument 'g' must be a Tensor, got {type(g).__name__}")
    if type(shape) is not tuple:
        if type(shape) is not list and type(shape) is not Size:
            raise TypeError(f"unbroadcast(): argument 'shape' must be a tuple or list of "
                            f"ints, got {type(shape).__name__}")
        shape = tuple(shape)
    if has_shape((<Tensor>g)._array, shape):
        return g
    gshape = (<Tensor>g)._array.shape
    lead = len(gshape) - len(shape)
    if lead < 0:
        _refuse_target(gshape, shape)
    axes = list(range(lead))
    for i, size in enumerate(shape):
        if type(size) is not int or size not in (1, gshape[i + lead]):
            _refuse_target(gshape, shape)
        if size == 1 and gshape[i + lead] != 1:
            axes.append(i + lead)
    if axes:
        g = _area("reduction").sum_kept(g, tuple(axes))
    return _area("shape").reshape_exact(g, shape)


cdef int _refuse_target(tuple gshape, tuple shape) except -1:
    raise ValueError(f"unbroadcast(): argument 'shape' must be a shape that broadcasts to the "
                     f"gradient's {list(gshape)}, got {shape}")


cdef object unbroadcast_like(object g, object x):
    """The gradient ``g`` of a result made for the input ``x``: summed back to x's shape
    (without building shapes when they already agree), and its real part when x is
    real but the result complex."""
    if isinstance(x, Tensor):
        if is_complex_array((<Tensor?>g)._array) and not is_complex_array((<Tensor>x)._array):
            g = _area("complex").real(g)
        if cnp.PyArray_SAMESHAPE(<cnp.ndarray>(<Tensor?>g)._array,
                                 <cnp.ndarray>(<Tensor>x)._array):
            return g
    return unbroadcast(g, shape_of(x))


cpdef object real_part_if(object g, bint real_input):
    """For rules: the real part of the complex gradient ``g`` when it goes to a
    ``real_input`` (a real operand of an op whose result is complex), else ``g``.

    >>> import pylayer
    >>> real_part_if(pylayer.to_tensor([1 + 2j]), True).numpy()
    array([1.], dtype=float32)
    """
    if real_input and is_complex_array((<Tensor?>g)._array):
        return _area("complex").real(g)
    return g


cpdef object conjugate(object x):
    """For rules: the complex conjugate of ``x`` (a Tensor, recorded, or an array or a
    number); ``x`` itself when it is real.

    >>> import pylayer
    >>> conjugate(pylayer.to_tensor([1 + 2j])).numpy(), conjugate(2.0)
    (array([1.-2.j], dtype=complex64), 2.0)
    """
    if isinstance(x, Tensor):
        return _area("complex").conj(x) if is_complex_array((<Tensor>x)._array) else x
    if isinstance(x, complex):
        return x.conjugate()
    if isinstance(x, np.complexfloating) or is_complex_array(x):
        return np.conj(x)
    return x


cdef dict _areas = {}


cdef object _area(str name):
    """The op area ``pylayer.ops.<name>``, imported on first use (each imports this module)."""
    module = _areas.get(name)
    if module is None:
        module = _areas[name] = importlib.import_module("pylayer.ops." + name)
    return module


# ------------------------------------ what the Python areas' hot ops need compiled
def unbroadcast_to(g, x):
    """``g`` summed back to the shape of the input ``x`` (a Tensor or a number), its real
    part when ``x`` is real but ``g`` complex; no shapes are built when they agree.

    >>> import pylayer
    >>> unbroadcast_to(pylayer.ones([2, 3]), pylayer.ones([3])).numpy()
    array([2., 2., 2.], dtype=float32)
    """
    return unbroadcast_like(g, x)


def pooled_ufunc(ufunc, a):
    """``ufunc(a)``, written into a pooled buffer when a large one of ``a``'s size is free.

    >>> import numpy as np
    >>> pooled_ufunc(np.negative, np.ones(2))
    array([-1., -1.])
    """
    return pooled_unary(ufunc, a)


def unary_forward(record, complex_record, str fn, ufunc):
    """The compiled forward ``forward(x, name=None)`` of an elementwise op on floats whose
    ufunc warns of nothing (tanh): ``x`` taken as a float tensor (integers in float32,
    bool refused, complex kept), ``ufunc`` of its array in a pooled buffer, recorded with
    ``record``, or ``complex_record`` for a complex result. A Python area makes it its
    public op, so a call runs no Python frame.

    >>> import numpy as np, pylayer
    >>> from pylayer.ops.math import TANH, TANH_OF_COMPLEX
    >>> forward = unary_forward(TANH, TANH_OF_COMPLEX, "tanh", np.tanh)
    >>> forward(pylayer.to_tensor([0.0])).numpy()
    array([0.], dtype=float32)
    """
    def forward(x, name=None):
        x = float_tensor(x, fn, "x", 1, True, True)
        out = pooled_unary(ufunc, (<Tensor>x)._array)
        return make_output(complex_record if is_complex_result(out) else record, out, (x,))
    return forward


def tanh_rule(record):
    """The compiled rule ``rule(g, out)`` of tanh: ``g * (1 - out * out)`` in one pass,
    recorded with ``record`` (tanh's gradient op) on ``(out, g)``.

    >>> import pylayer
    >>> from pylayer.ops.math import TANH_GRAD
    >>> tanh_rule(TANH_GRAD)(pylayer.to_tensor([2.0]), pylayer.to_tensor([0.5])).numpy()
    array([1.5], dtype=float32)
    """
    def rule(g, out):
        return make_output(record, output_gradient(TANH_GRADIENT, out, g), (out, g))
    return rule


def tanh_gradient(record, y, dy):
    """``dy * (1 - y * y)`` in one pass (tanh's gradient from its output ``y``), recorded
    with ``record`` on the inputs ``(y, dy)``.

    >>> import pylayer
    >>> from pylayer.ops.math import TANH_GRAD
    >>> tanh_gradient(TANH_GRAD, pylayer.to_tensor([0.5]), pylayer.to_tensor([2.0])).numpy()
    array([1.5], dtype=float32)
    """
    return make_output(record, output_gradient(TANH_GRADIENT, y, dy), (y, dy))
