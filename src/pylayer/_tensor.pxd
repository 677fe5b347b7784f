cdef extern from "Python.h":
    # Through a void*, so that reading a count takes no reference of its own.
    Py_ssize_t refcount "Py_REFCNT"(void *obj)


cdef class VersionCounter:
    cdef public long value


cdef class Tensor:
    cdef public object _array          # the numpy storage
    cdef public bint stop_gradient
    cdef public object _grad           # Tensor or None (leaves only)
    cdef public object _node           # GradNode that produced this tensor, or None
    cdef public Py_ssize_t _out_index  # which output of _node this tensor is
    cdef public long _version          # bumped by every in-place change
    cdef public object _vc             # VersionCounter shared with saved copies, made on demand
    cdef public object _name
    cdef public object _hooks          # gradient hooks of a leaf, or None
    cdef public bint _retain_grads
    cdef public bint _grad_owned       # True when the engine allocated _grad's array
    cdef dict __dict__
    cdef object __weakref__

    cdef void bump_version(self)
    cdef VersionCounter shared_counter(self)


cdef Tensor wrap(object array, bint stop_gradient=*)
cdef bint grad_enabled() noexcept
cdef bint set_grad_mode(bint enabled) noexcept
cdef bint static_mode_on() noexcept
cdef bint has_unshared_array(Tensor t)
cdef bint has_shape(object array, tuple shape)
cdef object elementwise(int op, object xa, object ya, object out=*)
