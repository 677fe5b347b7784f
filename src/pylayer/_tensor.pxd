cdef extern from "Python.h":
    # Through a void*, so that reading a count takes no reference of its own.
    Py_ssize_t refcount "Py_REFCNT"(void *obj)


cdef class VersionCounter:
    cdef public long value


# Fields that compiled code trusts are read-only from Python: a program that
# could assign them could crash the process. They change through the checked
# methods below and _graph.set_history.
cdef class Tensor:
    cdef readonly object _array        # the numpy storage: always an exact, supported ndarray
    cdef public bint stop_gradient
    cdef readonly object _grad         # Tensor or None (leaves only); set through .grad
    cdef readonly object _node         # GradNode that produced this tensor, or None
    cdef readonly Py_ssize_t _out_index  # which output of _node this tensor is
    cdef readonly long _version        # bumped by every in-place change
    cdef object _vc                    # VersionCounter shared with saved copies, made on demand
    cdef public object _name
    cdef readonly list _hooks          # gradient hooks of a leaf, or None
    cdef public bint _retain_grads
    # The backward pass that allocated this gradient and showed it to no user
    # code (0: none; the engine's SEEN: user code has had it). Only that pass
    # may write into it.
    cdef unsigned long long _grad_pass
    # The leaf's .grad was assigned by the user (so clear_grad must not zero it in place).
    cdef bint _grad_from_user
    cdef dict __dict__
    cdef object __weakref__

    cdef void bump_version(self)
    cdef VersionCounter shared_counter(self)


cdef Tensor wrap(object array, bint stop_gradient=*)
cdef bint grad_enabled() noexcept
cdef bint set_grad_mode(bint enabled) noexcept
cdef bint has_unshared_array(Tensor t)
cdef object checked_array(object array, str fn, str arg)
cdef bint has_shape(object array, tuple shape)
cdef object elementwise(int op, object xa, object ya, object out=*)

# x (op) y for op 0 add, 1 subtract, 2 multiply, 3 divide; sole_references says which
# operands only the caller refers to (bit 0: x, bit 1: y). pylayer.ops._elementwise installs it.
ctypedef object (*arithmetic_fn)(int op, object x, object y, int sole_references)
cdef void install_arithmetic(arithmetic_fn fn) noexcept
