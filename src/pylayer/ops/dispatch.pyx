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

The wrapper is compiled because it runs on every public op call: about
70 ns on a ``[64]`` ``tanh`` (about 450 ns unwrapped), where a Python closure
costs about 200 ns. It scans the arguments with exact type tests and a C
subtype check. Code that has already dispatched (gradient rules, the compiled
ops' calls to each other, Tensor's ``+ - * /``) calls the unwrapped functions.
"""
import functools

from cpython.dict cimport PyDict_Check
from cpython.list cimport PyList_Check
from cpython.object cimport PyObject_TypeCheck, PyTypeObject
from cpython.tuple cimport PyTuple_Check

from pylayer._core.tensor import defer_operators_to

__all__ = []

cdef object _variable_type = None   # pylayer.static.Variable, once registered
cdef object _record_op = None       # pylayer.static's record_op(fn, *args, **kwargs)
cdef bint _static_mode = False      # between enable_static() and disable_static()


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


cdef extern from *:
    """
    /* A public op as Python sees it: calling it checks the arguments for a static
       Variable (the record path) and otherwise calls the op with the same argument
       vector, allocating nothing. As a class attribute it binds like a function (it
       is a method descriptor), so a Tensor method is one call. */
    typedef struct {
        PyObject_HEAD
        PyObject *fn;                 /* the op itself */
        PyObject *dict;               /* __wrapped__, __name__, __doc__, ... */
        int records_without_variables;
        vectorcallfunc vectorcall;
    } pylayer_DispatchedOp;

    static int (*pylayer_holds_variable)(PyObject *value, int depth) = NULL;
    static PyObject *(*pylayer_record)(PyObject *fn, PyObject *args, PyObject *kwargs) = NULL;
    static int pylayer_static_mode = 0;

    static PyObject *pylayer_record_call(pylayer_DispatchedOp *op, PyObject *const *args,
                                         Py_ssize_t n, PyObject *kwnames) {
        Py_ssize_t i, nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
        PyObject *tuple = PyTuple_New(n), *kwargs = PyDict_New(), *result = NULL;
        if (tuple == NULL || kwargs == NULL) goto done;
        for (i = 0; i < n; i++) { Py_INCREF(args[i]); PyTuple_SET_ITEM(tuple, i, args[i]); }
        for (i = 0; i < nk; i++)
            if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[n + i]) < 0) goto done;
        result = pylayer_record(op->fn, tuple, kwargs);
    done:
        Py_XDECREF(tuple);
        Py_XDECREF(kwargs);
        return result;
    }

    static PyObject *pylayer_dispatched_call(PyObject *self, PyObject *const *args,
                                             size_t nargsf, PyObject *kwnames) {
        pylayer_DispatchedOp *op = (pylayer_DispatchedOp *)self;
        Py_ssize_t i, n = PyVectorcall_NARGS(nargsf);
        Py_ssize_t total = n + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
        if (op->records_without_variables && pylayer_static_mode)
            return pylayer_record_call(op, args, n, kwnames);
        for (i = 0; i < total; i++) {
            int found = pylayer_holds_variable(args[i], 0);
            if (found < 0) return NULL;
            if (found) return pylayer_record_call(op, args, n, kwnames);
        }
        return PyObject_Vectorcall(op->fn, args, nargsf, kwnames);
    }

    static PyObject *pylayer_dispatched_get(PyObject *self, PyObject *obj, PyObject *type) {
        if (obj == NULL || obj == Py_None) { Py_INCREF(self); return self; }
        return PyMethod_New(self, obj);
    }

    static PyObject *pylayer_dispatched_repr(PyObject *self) {
        PyObject *name = PyObject_GetAttrString(self, "__qualname__"), *text;
        if (name == NULL) { PyErr_Clear(); return PyUnicode_FromString("<pylayer op>"); }
        text = PyUnicode_FromFormat("<pylayer op %S>", name);
        Py_DECREF(name);
        return text;
    }

    static int pylayer_dispatched_traverse(PyObject *self, visitproc visit, void *arg) {
        pylayer_DispatchedOp *op = (pylayer_DispatchedOp *)self;
        Py_VISIT(op->fn);
        Py_VISIT(op->dict);
        return 0;
    }

    static int pylayer_dispatched_clear(PyObject *self) {
        pylayer_DispatchedOp *op = (pylayer_DispatchedOp *)self;
        Py_CLEAR(op->fn);
        Py_CLEAR(op->dict);
        return 0;
    }

    static void pylayer_dispatched_dealloc(PyObject *self) {
        PyObject_GC_UnTrack(self);
        pylayer_dispatched_clear(self);
        PyObject_GC_Del(self);
    }

    static PyGetSetDef pylayer_dispatched_getset[] = {
        {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
        {NULL, NULL, NULL, NULL, NULL}
    };

    static PyTypeObject pylayer_DispatchedOpType = {
        PyVarObject_HEAD_INIT(NULL, 0)
        .tp_name = "pylayer.ops.dispatch.DispatchedOp",
        .tp_basicsize = sizeof(pylayer_DispatchedOp),
        .tp_dealloc = pylayer_dispatched_dealloc,
        .tp_vectorcall_offset = offsetof(pylayer_DispatchedOp, vectorcall),
        .tp_repr = pylayer_dispatched_repr,
        .tp_call = PyVectorcall_Call,
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
                    | Py_TPFLAGS_METHOD_DESCRIPTOR,
        .tp_traverse = pylayer_dispatched_traverse,
        .tp_clear = pylayer_dispatched_clear,
        .tp_getset = pylayer_dispatched_getset,
        .tp_descr_get = pylayer_dispatched_get,
        .tp_dictoffset = offsetof(pylayer_DispatchedOp, dict),
    };

    static PyObject *pylayer_dispatch_ready(void) {
        if (PyType_Ready(&pylayer_DispatchedOpType) < 0) return NULL;
        Py_INCREF(&pylayer_DispatchedOpType);
        return (PyObject *)&pylayer_DispatchedOpType;
    }

    static PyObject *pylayer_new_dispatched(PyObject *fn, int records_without_variables) {
        pylayer_DispatchedOp *op;
        if (!PyCallable_Check(fn)) {
            PyErr_Format(PyExc_TypeError, "op(): argument 'fn' must be callable, got %.100s",
                         Py_TYPE(fn)->tp_name);
            return NULL;
        }
        op = PyObject_GC_New(pylayer_DispatchedOp, &pylayer_DispatchedOpType);
        if (op == NULL) return NULL;
        Py_INCREF(fn);
        op->fn = fn;
        op->dict = NULL;
        op->records_without_variables = records_without_variables;
        op->vectorcall = pylayer_dispatched_call;
        PyObject_GC_Track((PyObject *)op);
        return (PyObject *)op;
    }
    """
    ctypedef int (*holds_fn)(object value, int depth) except -1
    ctypedef object (*record_fn)(object fn, object args, object kwargs)
    holds_fn pylayer_holds_variable
    record_fn pylayer_record
    bint pylayer_static_mode
    object pylayer_dispatch_ready()
    object pylayer_new_dispatched(object fn, int records_without_variables)


cdef int _holds_any(object value, int depth) except -1:
    """One argument of a dispatched call: is it, or does it hold, a Variable?"""
    if _variable_type is None:
        return 0
    return _holds_variable(value, depth)


cdef object _record_call(object fn, object args, object kwargs):
    return record(fn, <tuple?>args, <dict?>kwargs)


pylayer_holds_variable = _holds_any
pylayer_record = _record_call
#: The type of the public ops (``type(pylayer.tanh)``): made only by :func:`op`.
DispatchedOp = pylayer_dispatch_ready()


def op(fn=None, *, records_without_variables=False):
    """Wrap the public op ``fn``: recorded when a Variable is among its arguments,
    run otherwise. ``records_without_variables=True`` also records every call made
    in static mode (for calls that create state, like ``create_parameter``).
    Usable as ``@op`` or ``@op(records_without_variables=True)``.

    The wrapper keeps ``fn``'s name, docstring and signature (``__wrapped__``),
    and binds as a method when it is a class attribute.

    >>> import pylayer as paddle
    >>> from pylayer.ops.dispatch import op
    >>> def double(x):
    ...     return x * 2.0
    >>> double = op(double)
    >>> double(paddle.ones([2])).numpy()
    array([2., 2.], dtype=float32)
    >>> double.__wrapped__.__name__, double
    ('double', <pylayer op double>)
    """
    if fn is None:
        return functools.partial(op, records_without_variables=records_without_variables)
    wrapper = pylayer_new_dispatched(fn, bool(records_without_variables))
    return functools.update_wrapper(wrapper, fn)


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
    global _static_mode, pylayer_static_mode
    _static_mode = True
    pylayer_static_mode = True


def disable_static(place=None):
    """Switch back to dynamic mode.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> paddle.disable_static()
    >>> paddle.tanh(paddle.zeros([1])).numpy()
    array([0.], dtype=float32)
    """
    global _static_mode, pylayer_static_mode
    _static_mode = False
    pylayer_static_mode = False


def in_dynamic_mode():
    """True unless static mode is on.

    >>> import pylayer as paddle
    >>> paddle.in_dynamic_mode()
    True
    """
    return not _static_mode
