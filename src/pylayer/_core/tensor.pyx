"""The Tensor type and its operators, dtypes, the per-thread gradient mode."""
import weakref

import numpy as np

cimport cython
cimport numpy as cnp
from pylayer._kernels.buffers cimport Block, buffer_for
from cpython.object cimport PyObject_TypeCheck, PyTypeObject

from cpython.ref cimport PyObject, Py_CLEAR, Py_INCREF, Py_REFCNT
from pylayer._core.tensor_methods import CPU, PYLAYER_SPELLING, ufunc_refusal
from pylayer._core.size import Size
from pylayer._core.tensor_methods import METHODS as PYTHON_METHODS

from pylayer._kernels.dtypes import (BFLOAT16, BY_NUMPY, DTYPE_NAMES, convert_dtype, is_floating,
                                    supported_array)

cdef extern from "Python.h":
    unsigned long Py_TPFLAGS_IMMUTABLETYPE
    object PyObject_GenericGetDict(object obj, void *context)
    void Py_SET_TYPE(object obj, PyTypeObject *kind)

cnp.import_array()

__all__ = ["Tensor", "is_grad_enabled", "set_grad_enabled_flag", "to_array"]


# ---------------------------------------------------------------- grad mode
cdef extern from *:
    """
    static _Thread_local int pylayer_grad_off = 0;
    """
    int pylayer_grad_off


cdef bint grad_enabled() noexcept:
    return not pylayer_grad_off


def is_grad_enabled():
    """Whether operations in this thread record a graph for backward.

    >>> import pylayer
    >>> pylayer.is_grad_enabled()
    True
    """
    return not pylayer_grad_off


cdef bint set_grad_mode(bint enabled) noexcept:
    global pylayer_grad_off
    cdef bint previous = not pylayer_grad_off
    pylayer_grad_off = not enabled
    return previous


def set_grad_enabled_flag(bint enabled):
    """Set this thread's gradient mode and return the previous one."""
    return set_grad_mode(enabled)


# ------------------------------------------------------------ conversions
cdef object _plain(object array, str fn, str arg):
    """An ndarray as a plain ndarray: a subclass is viewed as its base class; a masked
    array, whose mask would be lost, is refused."""
    if cnp.PyArray_CheckExact(array):
        return array
    if isinstance(array, np.ma.MaskedArray):
        raise TypeError(f"{fn}(): argument '{arg}' is a numpy masked array; its mask would be "
                        f"lost: pass array.filled(value) or np.asarray(array) explicitly")
    return array.view(np.ndarray)


cdef object checked_array(object array, str fn, str arg):
    """``array`` as a Tensor may store it: a plain ndarray (see _plain) of a supported
    dtype."""
    if not cnp.PyArray_Check(array):
        raise TypeError(f"{fn}(): argument '{arg}' must be a numpy array, got "
                        f"{type(array).__name__}")
    array = _plain(array, fn, arg)
    if array.dtype not in BY_NUMPY:
        raise TypeError(f"{fn}(): argument '{arg}' must hold one of {DTYPE_NAMES}, got "
                        f"data of numpy dtype {array.dtype}")
    if not cnp.PyArray_ISALIGNED(<cnp.ndarray>array):
        array = array.copy()        # compiled loops read aligned elements only
    return array


# bfloat16's dtype number, which numpy gives ml_dtypes' type when it registers it
cdef int BFLOAT16_NUMBER = BFLOAT16.num


cdef object result_array(object array, str fn, str arg):
    """An op's result as a Tensor may store it: a supported ndarray passes untouched,
    a numpy scalar becomes a 0-d array, anything else goes through checked_array."""
    cdef int typenum
    if (cnp.PyArray_CheckExact(array) and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray>array)
            and cnp.PyArray_ISALIGNED(<cnp.ndarray>array)):
        typenum = cnp.PyArray_TYPE(<cnp.ndarray>array)
        if typenum in (cnp.NPY_FLOAT, cnp.NPY_DOUBLE, cnp.NPY_BOOL, cnp.NPY_INT64,
                       cnp.NPY_INT32, cnp.NPY_FLOAT16, cnp.NPY_UINT8, cnp.NPY_INT8, cnp.NPY_INT16,
                       cnp.NPY_CFLOAT, cnp.NPY_CDOUBLE) or typenum == BFLOAT16_NUMBER:
            return array
    elif isinstance(array, np.generic):
        array = np.asarray(array)       # numpy reductions may hand back scalars
    return checked_array(array, fn, arg)


def to_array(data, dtype=None, str fn="to_tensor", str arg="data"):
    """``data`` as an ndarray of a supported dtype (no copy when it already is one).

    Errors are TypeError or ValueError naming ``fn`` and ``arg``. A subclass of
    ndarray comes back as a plain ndarray; a masked array is refused.

    >>> to_array([1.0, 2.0]).dtype
    dtype('float32')
    """
    if isinstance(data, Tensor):
        data = (<Tensor>data)._array
    elif isinstance(data, np.ndarray):
        data = _plain(data, fn, arg)
    elif isinstance(data, (list, tuple)) and any(isinstance(item, Tensor) for item in data):
        data = [(<Tensor>item)._array if isinstance(item, Tensor) else item for item in data]
    return supported_array(data, dtype, fn, arg)


# ------------------------------------------------------------------ Tensor
@cython.freelist(64)
cdef class VersionCounter:
    """How many in-place changes a tensor's data has had (shared with saved copies).
    Only the tensor changes it."""


cdef dict _functions = {}     # what Tensor calls, by name: set by install()
cdef object _engine_backward = None
cdef long _name_counter = 0


cdef object _arithmetic_not_installed(int op, object x, object y):
    raise RuntimeError("Tensor arithmetic is not ready: import pylayer (its ops install it)")


# The arithmetic behind + - * / (installed by pylayer.ops.arithmetic): a C call, no lookup.
cdef arithmetic_fn _arithmetic = _arithmetic_not_installed


cdef void install_arithmetic(arithmetic_fn fn) noexcept:
    global _arithmetic
    _arithmetic = fn


def install(dict functions not None, backward_function, view_history):
    """Give the core what it calls: ``functions`` (``{name: function}``, the ops Tensor's
    own code and the engine call, ``pylayer._methods.tensor_functions``),
    ``backward_function(tensor, grad_tensor, retain_graph)`` (from
    pylayer.autograd.functional) and ``view_history(view)``, which remakes a stale
    view's history (``pylayer._core.views.remake_history``). Done once by
    pylayer/__init__, which also sets Tensor's methods and operators as class
    attributes (``pylayer._methods.install``)."""
    global _functions, _engine_backward, _remake_history
    if _engine_backward is not None:
        raise RuntimeError("tensor.install(): Tensor's functions are installed once, by "
                           "importing pylayer")
    for name, function in (("backward_function", backward_function),
                           ("view_history", view_history)):
        if not callable(function):
            raise TypeError(f"tensor.install(): argument '{name}' must be callable")
    _functions = functions
    _engine_backward = backward_function
    _remake_history = view_history


cdef object installed(str name):
    """The installed function ``name`` (an op the core calls: ``add``, ``cast``, ...)."""
    function = _functions.get(name)
    if function is None:
        raise RuntimeError(f"pylayer's core needs the op {name!r}, which is installed by "
                           f"importing pylayer")
    return function


cdef object _deferred_type = None   # pylayer.static.Variable, once static is imported


def defer_operators_to(cls):
    """Make Tensor's arithmetic operators return NotImplemented for instances of
    ``cls``, so that its reflected operators run (``tensor + variable`` records into a
    static Program). Called by the dispatcher when ``pylayer.static`` registers."""
    global _deferred_type
    if not isinstance(cls, type):
        raise TypeError(f"defer_operators_to(): argument 'cls' must be a class, got "
                        f"{type(cls).__name__}")
    _deferred_type = cls


cdef inline bint defers_to(object other):
    """Whether an arithmetic operator returns NotImplemented for ``other``."""
    cdef object kind = type(other)
    if kind is Tensor or kind is float or kind is int or _deferred_type is None:
        return False
    return PyObject_TypeCheck(other, <PyTypeObject*>_deferred_type)


cdef tuple _UFUNCS = (np.add, np.subtract, np.multiply, np.true_divide)


cdef object elementwise(int op, object xa, object ya, object out=None):
    """numpy's ``xa (op) ya`` (0 add, 1 subtract, 2 multiply, 3 divide), into ``out`` if
    given, else into a pooled buffer when one fits; division by zero gives inf/nan
    without a warning, as in every pylayer op."""
    if out is None:
        out = buffer_for(xa, ya) if cnp.PyArray_Check(xa) else buffer_for(ya, xa)
        if out is not None and op == 3 and not is_floating(out.dtype):
            out = None          # int / int is float: not the operand's dtype
    if op != 3:
        return _UFUNCS[op](xa, ya, out=out)
    with np.errstate(divide="ignore", invalid="ignore"):  # ~1 us: division only
        return np.true_divide(xa, ya, out=out)


cdef bint has_shape(object array, tuple shape):
    """``array.shape == shape`` without building the shape tuple."""
    cdef Py_ssize_t i, ndim = cnp.PyArray_NDIM(<cnp.ndarray>array)
    cdef cnp.npy_intp *dims = cnp.PyArray_DIMS(<cnp.ndarray>array)
    if ndim != len(shape):
        return False
    for i in range(ndim):
        item = shape[i]
        if type(item) is not int or dims[i] != <cnp.npy_intp>item:
            return False
    return True


# The data of a tensor whose __init__ has not run (a subclass's __init__ that skipped
# Tensor.__init__, ``Tensor.__new__``): empty float32, as PyTorch's ``Tensor()`` is, so
# compiled code never meets a tensor without an array.
cdef object NO_DATA = np.zeros([0], np.float32)
NO_DATA.flags.writeable = False


cdef bint has_no_data(Tensor t) noexcept:
    """Whether ``t``'s __init__ never ran (user code handed back such a tensor)."""
    return t._array is NO_DATA


def unmade_tensor_error(value, str what):
    """The TypeError for a value user code handed back (``what`` says which: "the
    gradient that the tensor hook 'f' returned", ...) when it is a Tensor whose
    __init__ never ran; None for any other value.

    >>> unmade_tensor_error(Tensor.__new__(Tensor), "the gradient") is not None
    True
    """
    if not isinstance(value, Tensor) or not has_no_data(<Tensor>value):
        return None
    return TypeError(f"{what} is a {type(value).__name__} whose __init__ did not call "
                     f"Tensor.__init__, so it holds no data: call super().__init__(data) in "
                     f"the subclass's __init__, or return a Tensor made by an op")


cdef Tensor wrap(object array, bint stop_gradient=True):
    cdef Tensor t = Tensor.__new__(Tensor)
    t._array = array
    t._stop_gradient = stop_gradient
    return t


cdef void make_alias(Tensor out, Tensor source, bint differentiable):
    """Make ``out``, whose array views ``source``'s memory, an alias of it: one base and
    one version counter for all of them. A differentiable view's history is remade
    from its base's after the memory changes in place (see refresh_view)."""
    out._vc = source.shared_counter()
    if not differentiable:
        # No reference to the source: a detached copy must not keep its graph alive.
        out._view_version = -1
        return
    out._base = source._base if source._base is not None else source
    out._view_version = out._vc.value if source._view_version >= 0 else -1


def view_kind(Tensor t not None):
    """``"view"`` for a differentiable view (``x[0]``, ``x.reshape(...)``), ``"alias"``
    for another tensor that shares memory and version with others (``x.detach()``, a
    view of it), None for a tensor with memory of its own."""
    if t._base is None:
        return "alias" if t._view_version < 0 else None
    return "view" if t._view_version >= 0 else "alias"


def mark_view_current(Tensor t not None):
    """Record that view ``t``'s history was just made from its base's current state."""
    if t._base is not None and t._view_version >= 0:
        t._view_version = t._vc.value


# The leaves that were handed a hook list (see Tensor._hook_list): id -> a weak
# reference whose callback removes the entry when the leaf dies. The engine delivers
# leaves' gradients during its node loop only while there is one, and asks on every
# backward, so this is a plain dict (a WeakSet would also compare Tensors with ==,
# which they answer elementwise).
hooked_leaves = {}


def write_through(object tensor, object writer, object first, object op):
    """Call ``writer(first, array, op)`` on the memory of ``tensor`` and count it as
    an in-place change of the tensor (and its aliases), when a foreign writer such as
    MPI may fill that memory as it is: a float (not 16-bit) or integer dtype, C order,
    writable, aligned, native byte order. Returns False, having called nothing,
    otherwise. The cheap path of ``distributed.all_reduce``."""
    if not isinstance(tensor, Tensor):
        return False
    cdef Tensor t = <Tensor>tensor
    cdef cnp.ndarray array = <cnp.ndarray>t._array
    cdef int typenum = cnp.PyArray_TYPE(array)
    if not (typenum == cnp.NPY_FLOAT32 or typenum == cnp.NPY_FLOAT64
            or typenum == cnp.NPY_INT64 or typenum == cnp.NPY_INT32
            or typenum == cnp.NPY_INT16 or typenum == cnp.NPY_INT8
            or typenum == cnp.NPY_UINT8):
        return False
    if not (cnp.PyArray_IS_C_CONTIGUOUS(array) and cnp.PyArray_ISWRITEABLE(array)
            and cnp.PyArray_ISALIGNED(array) and cnp.PyArray_ISNOTSWAPPED(array)):
        return False
    writer(first, array, op)
    t.bump_version()
    return True


cdef int refresh_view(Tensor t) except -1:
    """Remake a differentiable view's history when its memory changed in place since
    it was made (through its base or another view): it is then a view of the base's
    new state. Cheap when nothing changed."""
    if t._base is None or t._view_version < 0 or t._view_version == t._vc.value:
        return 0
    if _remake_history is None:
        raise RuntimeError("pylayer's core needs pylayer._core.views, which importing "
                           "pylayer installs")
    _remake_history(t)
    t._view_version = t._vc.value
    return 0


cdef object _remake_history = None


@cython.freelist(256)
cdef class Tensor:
    """A multi-dimensional array that can record operations for backward.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> (x * x).sum().backward()
    >>> x.grad.numpy()
    array([2., 4.], dtype=float32)
    """
    __array_priority__ = 1000

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # numpy's binary operators on an ndarray and a Tensor run the op the Tensor's
        # operator runs (``array + x`` is ``add(array, x)``); any other use of a ufunc
        # on a Tensor is refused with what to call instead.
        name = PYLAYER_SPELLING.get(ufunc.__name__, ufunc.__name__)
        if method == "__call__" and not kwargs and len(inputs) == 2 and name in _functions:
            return _functions[name](*inputs)
        raise TypeError(ufunc_refusal(type(self), ufunc, method, kwargs))

    def __cinit__(self):
        self._array = NO_DATA
        self._stop_gradient = True
        self._out_index = 0

    def __dealloc__(self):
        Py_CLEAR(self._attributes)
        # A chain of tensors linked through .grad is freed one link at a time, not by
        # recursion (which a long chain would take past the C stack). Chains through
        # the graph, attributes and hooks pass through tuples, dicts and lists, which
        # CPython frees flat already; a Python subclass is freed flat by CPython too.
        cdef object link = self._grad
        cdef object following
        self._grad = None
        while type(link) is Tensor and Py_REFCNT(link) == 1:
            following = (<Tensor>link)._grad
            (<Tensor>link)._grad = None
            link = following          # frees the previous link, which holds no .grad now
            following = None

    @property
    def __dict__(self):
        """The tensor's own attributes (``t.note = 1``), as Paddle's tensors take them."""
        return PyObject_GenericGetDict(self, NULL)

    def __init__(self, data=None, dtype=None, place=None, stop_gradient=True):
        if self._array is not NO_DATA:
            # Swapping the data of a tensor that a node may have saved would change a
            # gradient without the version check seeing it.
            raise RuntimeError("Tensor.__init__() runs once, when the tensor is made; to "
                               "change a tensor's values use set_value() or copy_()")
        self._array = to_array(np.zeros([0], np.float32) if data is None else data, dtype,
                               type(self).__name__, "data")
        self._stop_gradient = stop_gradient

    cdef void bump_version(self):
        # Through the shared counter when there is one: every alias of the memory sees it.
        if self._vc is not None:
            self._vc.value += 1
        else:
            self._version += 1

    cdef VersionCounter shared_counter(self):
        # cdef, not cpdef: a cpdef method of a type with a __dict__ looks itself
        # up on every call to find Python overrides.
        cdef VersionCounter counter
        if self._vc is None:
            counter = VersionCounter.__new__(VersionCounter)
            counter.value = self._version
            self._vc = counter
        return self._vc

    def version_counter(self):
        return self.shared_counter()

    # ---------------------------------------------------------- attributes
    @property
    def stop_gradient(self):
        """Whether no gradient is computed for this tensor (True for a new tensor)."""
        refresh_view(self)
        return self._stop_gradient

    @stop_gradient.setter
    def stop_gradient(self, value):
        self._stop_gradient = value

    @property
    def shape(self):
        return Size(self._array.shape)

    @property
    def ndim(self):
        return self._array.ndim

    @property
    def size(self):
        return self._array.size

    @property
    def dtype(self):
        return BY_NUMPY[self._array.dtype]

    @property
    def place(self):
        return CPU

    @property
    def name(self):
        global _name_counter
        if self._name is None:
            self._name = f"generated_tensor_{_name_counter}"
            _name_counter += 1
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"Tensor.grad must be a Tensor or None, got {type(value).__name__}")
        if value is not None and (<Tensor>value)._array.shape != self._array.shape:
            raise ValueError(f"Tensor.grad must have the tensor's shape {list(self._array.shape)}, "
                             f"got {list((<Tensor>value)._array.shape)}")
        self._grad = value
        self._grad_from_user = value is not None

    @property
    def is_leaf(self):
        return self._node is None

    @property
    def grad_fn(self):
        refresh_view(self)
        return self._node

    @property
    def inplace_version(self):
        """How many in-place changes the tensor's memory has had, through this tensor or
        any view or alias of it (they share one counter).

        >>> import pylayer
        >>> x = pylayer.zeros([2, 2])
        >>> row = x[0]
        >>> row.fill_(1.0).inplace_version, x.inplace_version
        (1, 1)
        """
        return current_version(self)

    @property
    def T(self):
        return _functions["transpose"](self, list(range(self._array.ndim))[::-1])

    @property
    def data(self):
        return self.detach()

    # ------------------------------------------------------------ plumbing
    def numpy(self):
        """The data as a numpy array (shares memory with the tensor)."""
        return self._array

    def detach(self):
        """A new tensor sharing the data, cut off the graph (stop_gradient=True).

        The two are aliases: an in-place change of either is seen by the other and
        counts in the version both share.

        >>> import pylayer
        >>> x = pylayer.ones([2])
        >>> x.detach().scale_(3.0).numpy(), x.numpy(), x.inplace_version
        (array([3., 3.], dtype=float32), array([3., 3.], dtype=float32), 1)
        """
        cdef Tensor alias = wrap(self._array, True)
        make_alias(alias, self, False)
        return alias

    def detach_(self):
        self._node = None
        self._stop_gradient = True
        return self

    def clone(self):
        return _functions["assign"](self)

    def astype(self, dtype):
        if dtype is None:
            raise TypeError("astype(): argument 'dtype' (position 1) must be a dtype such as "
                            "'float32', got None")
        return _functions["cast"](self, convert_dtype(dtype, "astype"))

    def backward(self, grad_tensor=None, retain_graph=False):
        """Compute gradients of this tensor w.r.t. graph leaves (accumulated in ``.grad``)."""
        _engine_backward(self, grad_tensor, retain_graph)

    def _hook_list(self):
        """The list this tensor's gradient hooks go to: a leaf's own, else its output's
        on its node (see register_hook)."""
        if self._node is None:
            if self._hooks is None:
                self._hooks = []
            key = id(self)
            hooked_leaves[key] = weakref.ref(
                self, lambda _, key=key, leaves=hooked_leaves: leaves.pop(key, None))
            return self._hooks
        return self._node.output_hooks(self._out_index)

    def clear_grad(self, set_to_zero=True):
        """Zero the gradient (the default, as in Paddle), or drop it with ``set_to_zero=False``.

        A gradient the engine made keeps its Tensor object, which gets new zeros
        (whoever holds ``x.grad`` sees them, as in Paddle); one the user assigned
        is replaced by a zeros tensor instead.
        """
        cdef Tensor grad = self._grad
        if set_to_zero and grad is not None:
            # np.zeros, a C function: np.zeros_like is a Python one, 4x slower on a [64]
            zeros = np.zeros(grad._array.shape, grad._array.dtype)
            if not self._grad_from_user:
                # New zeros, not zeros written: the gradient's memory may be shared.
                grad._array = zeros
                grad.bump_version()
            else:
                self._grad = wrap(zeros)
                self._grad_from_user = False
        else:
            self._grad = None
            self._grad_from_user = False

    clear_gradient = clear_grad

    def _set_array_inplace(self, array):
        """Make the tensor hold ``array``'s values as an in-place change (bumps the version
        it shares with its aliases). With the same shape and dtype, into writable memory,
        the values are written into the tensor's own memory, so that every view sees
        them; otherwise the tensor takes ``array`` itself, and stops being an alias unless
        ``array`` is a view of its memory (a new shape: ``reshape_``)."""
        array = checked_array(array, "Tensor._set_array_inplace", "array")
        current = self._array
        if array is not current:
            if (array.shape == current.shape and array.dtype == current.dtype
                    and current.flags.writeable):
                np.copyto(current, array)
            else:
                if array.dtype != current.dtype or (
                        current.size and not np.may_share_memory(array, current)):
                    self._leave_memory()      # else: a new shape over the same memory
                self._array = array
        self.bump_version()

    cdef void _leave_memory(self):
        """The tensor gets memory of its own: no base, a counter of its own."""
        if self._vc is None:
            return
        self._version = current_version(self)
        self._base = None
        self._vc = None
        self._view_version = 0

    def _exchange_array(self, array):
        """Put ``array`` (same shape and dtype) in place of the data without a version
        change, and return the previous array (for gradcheck's perturbations)."""
        array = checked_array(array, "Tensor._exchange_array", "array")
        if array.shape != self._array.shape or array.dtype != self._array.dtype:
            raise ValueError(f"Tensor._exchange_array(): argument 'array' must have shape "
                             f"{list(self._array.shape)} and dtype {self._array.dtype}, got "
                             f"{list(array.shape)} and {array.dtype}")
        previous, self._array = self._array, array
        return previous

    def __hash__(self):
        return id(self)

    def __getitem__(self, index):
        return _functions["getitem"](self, index)

    def __setitem__(self, index, value):
        _functions["setitem"](self, index, value)

    # ------------------------------------------------------------ operators
    def __add__(self, other):
        if defers_to(other):
            return NotImplemented
        return _arithmetic(0, self, other)

    def __radd__(self, other):
        return _arithmetic(0, other, self)

    def __sub__(self, other):
        if defers_to(other):
            return NotImplemented
        return _arithmetic(1, self, other)

    def __rsub__(self, other):
        return _arithmetic(1, other, self)

    def __mul__(self, other):
        if defers_to(other):
            return NotImplemented
        return _arithmetic(2, self, other)

    def __rmul__(self, other):
        return _arithmetic(2, other, self)

    def __truediv__(self, other):
        if defers_to(other):
            return NotImplemented
        return _arithmetic(3, self, other)

    def __rtruediv__(self, other):
        return _arithmetic(3, other, self)

# Python code may add or replace Tensor's methods (``pylayer.Tensor.view = my_view``, as
# ported Paddle code does), but Tensor is a compiled type, which Python keeps
# immutable. Its metaclass lets such assignments through one at a time, with the
# immutable flag lifted only while type.__setattr__ stores the attribute and updates
# the C slots. Attributes of the type itself (__name__, __bases__, ...) stay refused:
# assigning them would write fields a compiled type does not have.
_TYPE_ATTRIBUTES = frozenset([name for name, attribute in vars(type).items()
                              if hasattr(type(attribute), "__set__")] + ["__class__"])


cdef int _set_class_attribute(object cls, str name, object value, bint delete) except -1:
    cdef PyTypeObject *raw = <PyTypeObject*>cls
    cdef bint immutable = (raw.tp_flags & Py_TPFLAGS_IMMUTABLETYPE) != 0
    if immutable and name in _TYPE_ATTRIBUTES:
        raise TypeError(f"cannot {'delete' if delete else 'set'} {name!r} of the class "
                        f"{cls.__name__}: only its methods and other attributes may change")
    previous = cls.__dict__.get(name)  # freed after the flag is back, should it run code
    raw.tp_flags &= ~Py_TPFLAGS_IMMUTABLETYPE
    try:
        if delete:
            type.__delattr__(cls, name)
        else:
            type.__setattr__(cls, name, value)
    finally:
        if immutable:
            raw.tp_flags |= Py_TPFLAGS_IMMUTABLETYPE
    return 0


class TensorType(type):
    """The class of :class:`Tensor` (and of its subclasses): setting or deleting a class
    attribute reaches every instance, as for a Python class.

    >>> import pylayer
    >>> pylayer.Tensor.twice = lambda self: self * 2
    >>> pylayer.ones([2]).twice().numpy()
    array([2., 2.], dtype=float32)
    >>> del pylayer.Tensor.twice
    """
    __slots__ = ()

    def __setattr__(cls, name, value):
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be a str, got {type(name).__name__}")
        _set_class_attribute(cls, name, value, False)

    def __delattr__(cls, name):
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be a str, got {type(name).__name__}")
        _set_class_attribute(cls, name, None, True)


Py_INCREF(TensorType)                 # held by Tensor for as long as the process runs
Py_SET_TYPE(Tensor, <PyTypeObject*>TensorType)


# A tensor's instance dict is made when a program first sets an attribute: the type
# gets the dict's place (tp_dictoffset) and the garbage collector sees the dict.
cdef extern from *:
    """
    static Py_ssize_t pylayer_dict_offset = 0;
    static traverseproc pylayer_tensor_traverse = NULL;
    static inquiry pylayer_tensor_clear = NULL;
    static int pylayer_traverse_with_dict(PyObject *o, visitproc visit, void *arg) {
        Py_VISIT(*(PyObject **)((char *)o + pylayer_dict_offset));
        return pylayer_tensor_traverse ? pylayer_tensor_traverse(o, visit, arg) : 0;
    }
    static int pylayer_clear_with_dict(PyObject *o) {
        Py_CLEAR(*(PyObject **)((char *)o + pylayer_dict_offset));
        return pylayer_tensor_clear ? pylayer_tensor_clear(o) : 0;
    }
    static void pylayer_give_lazy_dict(PyTypeObject *type, Py_ssize_t offset) {
        pylayer_dict_offset = offset;
        pylayer_tensor_traverse = type->tp_traverse;
        pylayer_tensor_clear = type->tp_clear;
        type->tp_traverse = pylayer_traverse_with_dict;
        type->tp_clear = pylayer_clear_with_dict;
        type->tp_dictoffset = offset;
    }
    """
    void give_lazy_dict "pylayer_give_lazy_dict"(PyTypeObject *kind, Py_ssize_t offset)


cdef Py_ssize_t _attributes_offset():
    cdef Tensor probe = Tensor.__new__(Tensor)
    return <char*>&probe._attributes - <char*><PyObject*>probe


give_lazy_dict(<PyTypeObject*>Tensor, _attributes_offset())


for _name, _method in PYTHON_METHODS.items():
    _set_class_attribute(Tensor, _name, _method, False)


def make_tensor(array, bint stop_gradient=True):
    """Wrap an ndarray in a Tensor without copying (numpy scalars become 0-d arrays).

    >>> import pylayer
    >>> import numpy as np
    >>> from pylayer import extend
    >>> extend.make_tensor(np.ones(2)).dtype
    pylayer.float64
    """
    return wrap(result_array(array, "make_tensor", "array"), stop_gradient)
