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
    cdef long _version                 # in-place changes, while the tensor has no _vc
    cdef VersionCounter _vc            # shared with views and saved copies, made on demand
    # The tensor whose memory this one views (a view of a view names the first one), or
    # None. _view_version: the shared version when a differentiable view's history
    # was last made; -1 for an alias that is not differentiable (detach).
    cdef readonly object _base
    cdef long _view_version
    cdef object _name
    cdef readonly list _hooks          # gradient hooks of a leaf, or None
    # The leaf's .grad was assigned by the user (so clear_grad must not zero it in place).
    cdef bint _grad_from_user
    # The instance dict (tp_dictoffset), made by the first attribute a program sets: a
    # Tensor an op makes has none (Cython's own __dict__ would make one per tensor).
    cdef PyObject *_attributes
    cdef object __weakref__

    cdef void bump_version(self)
    cdef void _leave_memory(self)
    cdef VersionCounter shared_counter(self)


cdef inline long current_version(Tensor t):
    """How many in-place changes ``t``'s memory has had (through ``t`` or any alias)."""
    return t._vc.value if t._vc is not None else t._version


cdef int refresh_view(Tensor t) except -1
cdef void make_alias(Tensor out, Tensor source, bint differentiable)


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
