"""Dispatch by argument type: the one place that decides whether a call runs or is recorded.

An op called with a static ``Variable`` among its arguments (positional, by
keyword, or inside a list, tuple or dict argument) is recorded into the current
Program; an op called with Tensors runs, whatever the mode. No op body tests
a mode: the public ops are wrapped with :func:`op`. ``pylayer.static``
registers the Variable type and its recording function here when it is
imported (:func:`register_static`); the core never imports it.

Static mode (``enable_static``) is kept here and matters only to the few
calls that create state, such as ``create_parameter``, wrapped with
``records_without_variables=True``: in static mode they make a part of the
Program even without a Variable argument.

The wrapper is compiled because it runs on every public op call. It is a
``cdef class`` with ``__call__`` and ``__get__``: CPython packs the arguments
into a tuple and a dict (and a Tensor method call into a bound method), about
2 % of a ``[64]`` op chain's instructions. It scans the arguments with exact
type tests and a C subtype check. Code that has already dispatched (gradient
rules, the compiled ops' calls to each other, Tensor's ``+ - * /``) calls the
unwrapped functions.
"""
import functools

cimport cython
from cpython.dict cimport PyDict_Check
from cpython.list cimport PyList_Check
from cpython.object cimport PyObject_TypeCheck, PyTypeObject
from cpython.tuple cimport PyTuple_Check

from pylayer._core.tensor import defer_operators_to
from pylayer.ops.declaration import declare

cdef extern from "Python.h":
    object PyMethod_New(object function, object self)

__all__ = []

cdef object _variable_type = None   # pylayer.static.Variable, once registered
cdef object _record_op = None       # pylayer.static's record_op(fn, *args, **kwargs)
cdef bint _static_mode = False      # between enable_static() and disable_static()
cdef object _autocast = None        # pylayer.amp's hook while an auto_cast block is open


def register_static(variable_type, record_op):
    """Called once by ``pylayer.static``: the Variable type, and the function that
    records ``record_op(fn, *args, **kwargs)`` into the current Program."""
    global _variable_type, _record_op
    if not isinstance(variable_type, type):
        raise TypeError(f"register_static(): argument 'variable_type' must be a class, "
                        f"got {type(variable_type).__name__}")
    if not callable(record_op):
        raise TypeError(f"register_static(): argument 'record_op' must be callable, "
                        f"got {type(record_op).__name__}")
    _variable_type = variable_type
    _record_op = record_op
    defer_operators_to(variable_type)


def register_autocast(hook):
    """Called by ``pylayer.amp``: while ``hook`` is not None, every public op call that
    runs (records nothing) is ``hook(op, fn, args, kwargs)`` instead of ``fn(*args,
    **kwargs)``, so that ops inside ``auto_cast`` cast their inputs. ``None`` removes it:
    outside ``auto_cast`` an op pays one pointer test."""
    global _autocast
    if hook is not None and not callable(hook):
        raise TypeError(f"register_autocast(): argument 'hook' must be callable or None, "
                        f"got {type(hook).__name__}")
    _autocast = hook


cdef bint is_variable(object value):
    return (_variable_type is not None
            and PyObject_TypeCheck(value, <PyTypeObject*>_variable_type))


# How deep into nested lists, tuples and dicts an argument is searched for Variables:
# numpy's own limit on dimensions. Deeper nesting (or a list that contains itself) is
# not searched further; the op's own argument check then refuses it.
cdef int MAX_NESTING = 64


cdef bint _holds_variable(object value, int depth) except -1:
    # C type checks (a Tensor costs a walk of its two-class MRO): isinstance() costs more.
    if PyObject_TypeCheck(value, <PyTypeObject*>_variable_type):
        return True
    if depth >= MAX_NESTING:
        return False
    if PyList_Check(value) or PyTuple_Check(value):
        for item in value:
            if _holds_variable(item, depth + 1):
                return True
    elif PyDict_Check(value):
        for item in (<dict>value).values():
            if _holds_variable(item, depth + 1):
                return True
    return False


cdef bint holds_variable(tuple args, dict kwargs) except -1:
    """Whether a Variable is among the arguments, or inside a list, tuple or dict
    argument (up to MAX_NESTING levels deep), as ``pylayer.static`` finds them to
    record the call."""
    if _variable_type is None:
        return False
    for value in args:
        if _holds_variable(value, 0):
            return True
    if kwargs:
        for value in kwargs.values():
            if _holds_variable(value, 0):
                return True
    return False


cdef object record(object fn, tuple args, dict kwargs):
    return _record_op(fn, *args, **kwargs)


def has_static_variable(*args, **kwargs):
    """Whether a static Variable is among the arguments (or inside a list, tuple or
    dict argument), for Python code that must treat such a call apart.

    >>> import pylayer as paddle
    >>> from pylayer.ops.dispatch import has_static_variable
    >>> has_static_variable(paddle.ones([1]), [2.0])
    False
    """
    return holds_variable(args, kwargs)


@cython.final
cdef class DispatchedOp:
    """A public op as Python sees it (``type(pylayer.tanh)``, made only by :func:`op`):
    calling it records the call when a static Variable is among the arguments and
    runs the op otherwise. As a class attribute it binds like a function, so it is
    also a Tensor method."""
    cdef object fn                      # the op itself
    cdef bint records_without_variables
    cdef object recording               # the recording of fn, made when auto_cast needs it
    cdef dict __dict__                  # __wrapped__, __name__, __doc__, ...

    def __call__(self, *args, **kwargs):
        if (self.records_without_variables and _static_mode) or holds_variable(args, kwargs):
            if _autocast is not None:   # to_static under auto_cast records the casts too
                return _autocast(self, self._recording(), args, kwargs)
            return record(self.fn, args, kwargs)
        if _autocast is not None:
            return _autocast(self, self.fn, args, kwargs)
        return self.fn(*args, **kwargs)

    cdef object _recording(self):
        """The op's recording, with the op's signature (the auto_cast hook binds it)."""
        if self.recording is None:
            fn = self.fn

            def recording(*args, **kwargs):
                return _record_op(fn, *args, **kwargs)

            self.recording = functools.update_wrapper(recording, fn)
        return self.recording

    def __get__(self, obj, kind):
        if obj is None:
            return self
        return PyMethod_New(self, obj)

    def __repr__(self):
        return f"<pylayer op {getattr(self, '__qualname__', '?')}>"


def op(fn=None, *, records_without_variables=False, method=False, inplace=False):
    """Wrap the public op ``fn``: recorded when a Variable is among its arguments,
    run otherwise. ``records_without_variables=True`` also records every call made
    in static mode (for calls that create state, like ``create_parameter``).
    ``method=True`` makes it a Tensor method, and ``inplace=True`` gives the method an
    in-place twin ``<name>_`` (see ``pylayer._methods.declare``). Usable as ``@op`` or
    ``@op(method=True, ...)``.

    The wrapper keeps ``fn``'s name, docstring and signature (``__wrapped__``),
    and binds as a method when it is a class attribute.

    >>> import pylayer as paddle
    >>> from pylayer.ops.dispatch import op
    >>> def double(x):
    ...     return x * 2.0
    >>> double = op(double, method=True)
    >>> double(paddle.ones([2])).numpy()
    array([2., 2.], dtype=float32)
    >>> double.__wrapped__.__name__, double
    ('double', <pylayer op double>)
    """
    if fn is None:
        return functools.partial(op, records_without_variables=records_without_variables,
                                 method=method, inplace=inplace)
    if not callable(fn):
        raise TypeError(f"op(): argument 'fn' must be callable, got {type(fn).__name__}")
    cdef DispatchedOp wrapper = DispatchedOp.__new__(DispatchedOp)
    wrapper.fn = fn
    wrapper.records_without_variables = bool(records_without_variables)
    functools.update_wrapper(wrapper, fn)
    if method or inplace:
        declare(wrapper, method=method, inplace=inplace)
    return wrapper


# ------------------------------------------------------------------ the mode
def enable_static():
    """Switch to static mode: ops on Variables add operators to the current Program,
    and ``create_parameter`` makes Parameters of it.

    >>> import pylayer as paddle
    >>> paddle.enable_static(); paddle.in_dynamic_mode()
    False
    >>> paddle.disable_static(); paddle.in_dynamic_mode()
    True
    """
    global _static_mode
    _static_mode = True


def disable_static(place=None):
    """Switch back to dynamic mode.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> paddle.disable_static()
    >>> paddle.tanh(paddle.zeros([1])).numpy()
    array([0.], dtype=float32)
    """
    global _static_mode
    _static_mode = False


def in_dynamic_mode():
    """True unless static mode is on.

    >>> import pylayer as paddle
    >>> paddle.in_dynamic_mode()
    True
    """
    return not _static_mode
