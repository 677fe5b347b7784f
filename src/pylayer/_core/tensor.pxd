from cpython.ref cimport PyObject


cdef class VersionCounter:
    cdef readonly long value


# Fields that compiled code trusts are read-only from Python: a program that
# could assign them could crash the process. They change through the checked
# methods below and _graph.set_history.
cdef class Tensor:
    cdef readonly object _array        # the numpy storage: always an exact, supported ndarray
                                       # (NO_DATA until __init__ or wrap gives it one)
    cdef bint _stop_gradient         # see the stop_gradient property
    cdef readonly object _grad         # Tensor or None (leaves only); set through .grad
    cdef readonly object _node         # GradNode that produced this tensor, or None
    cdef readonly Py_ssize_t _out_index  # which output of _node this tensor is
    cdef readonly long _version        # bumped by every in-place change
    cdef VersionCounter _vc            # shared with saved copies, made on demand
    cdef object _name
    cdef readonly list _hooks          # gradient hooks of a leaf, or None
    # The leaf's .grad was assigned by the user (so clear_grad must not zero it in place).
    cdef bint _grad_from_user
    # The instance dict (tp_dictoffset), made by the first attribute a program sets: a
    # Tensor an op makes has none (Cython's own __dict__ would make one per tensor).
    cdef PyObject *_attributes
    cdef object __weakref__

    cdef void bump_version(self)
    cdef VersionCounter shared_counter(self)


cdef Tensor wrap(object array, bint stop_gradient=*)
cdef bint has_no_data(Tensor t) noexcept
cdef bint grad_enabled() noexcept
cdef bint set_grad_mode(bint enabled) noexcept
cdef object checked_array(object array, str fn, str arg)
cdef object result_array(object array, str fn, str arg)
cdef bint has_shape(object array, tuple shape)
cdef object elementwise(int op, object xa, object ya, object out=*)
cdef object installed(str name)

# x (op) y for op 0 add, 1 subtract, 2 multiply, 3 divide; pylayer.ops.arithmetic installs it.
ctypedef object (*arithmetic_fn)(int op, object x, object y)
cdef void install_arithmetic(arithmetic_fn fn) noexcept
