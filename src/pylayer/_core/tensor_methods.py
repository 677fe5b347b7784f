"""Tensor's methods that need no compiled code: how a tensor prints, turns into Python
values and takes part in Python's protocols, its gradient hooks, and its place.

``pylayer._core.tensor`` makes them class attributes of ``Tensor`` when it is
imported (``METHODS``). They read a tensor through its read-only fields and
change nothing that compiled code trusts: a hook is added to the list that
Tensor's compiled ``_hook_list`` hands out.
"""
import numpy as np

from pylayer._kernels.dtypes import is_floating, is_integer

__all__ = []


class CPUPlace:
    """The only device pylayer runs on: the ``place`` of every tensor (public as
    ``pylayer.CPUPlace`` and ``pylayer.static.CPUPlace``).

    >>> CPUPlace() == CPU, CPU
    (True, Place(cpu))
    """
    __slots__ = ()

    def __repr__(self):
        return "Place(cpu)"

    def __eq__(self, other):
        if isinstance(other, CPUPlace):
            return True
        is_cpu_place = getattr(other, "is_cpu_place", None)
        return callable(is_cpu_place) and is_cpu_place() is True

    def __hash__(self):
        return 0

    def is_cpu_place(self):
        return True


CPU = CPUPlace()


# ------------------------------------------------------------------ printing
# pylayer.set_printoptions changes these (None for sci_mode: numpy's choice).
PRINT_OPTIONS = {"precision": 8, "threshold": 1000, "edgeitems": 3, "sci_mode": None,
                 "linewidth": 80}


def _repr(self):
    """``Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,`` and the
    values on the next lines, as Paddle prints them."""
    arr = self._array
    prefix = "       "
    if arr.size == 0:
        body = "[]"
    else:
        # numpy writes 1.999e+03 once the largest value shown is 1000 times the
        # smallest; whole-number floats print as 1999. instead, as in Paddle. Past
        # 1000 items numpy shows 3 at each end of every axis: only those are read.
        options = PRINT_OPTIONS
        edge, threshold = options["edgeitems"], options["threshold"]
        whole, formatter = False, None
        if is_floating(arr.dtype):
            shown = arr if arr.size <= threshold else arr[np.ix_(*[
                np.r_[0:edge, n - edge:n] if n > 2 * edge else np.arange(n)
                for n in arr.shape])]
            finite = shown[np.isfinite(shown)]
            whole = bool(np.array_equal(finite, np.trunc(finite)))
            if options["sci_mode"]:
                digits = options["precision"]
                formatter = {"float_kind": lambda v: f"{v:.{digits}e}"}
            elif options["sci_mode"] is False:
                whole = True
        body = np.array2string(arr, separator=", ", prefix=prefix,
                               max_line_width=options["linewidth"], threshold=threshold,
                               edgeitems=edge, precision=options["precision"],
                               suppress_small=whole, formatter=formatter)
    return (f"Tensor(shape={list(arr.shape)}, dtype={self.dtype.name}, "
            f"place={CPU!r}, stop_gradient={bool(self.stop_gradient)},\n"
            f"{prefix}{body})")


def _format(self, spec):
    if self._array.ndim == 0:
        return format(self._array.item(), spec)
    return repr(self) if not spec else format(str(self), spec)


# ------------------------------------------------------------ Python values
def item(self, *index):
    """The value at ``index`` (every index an int), or the only value, as a Python number."""
    if index:
        for i, value in enumerate(index):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise TypeError(f"item(): argument 'index' {i} must be an int, "
                                f"got {type(value).__name__}")
        try:
            return self._array.item(*index)
        except OverflowError:
            raise ValueError(f"item(): argument 'index' {index} is out of the range of "
                             f"int64") from None
    if self._array.size != 1:
        raise ValueError(f"item() needs a tensor with exactly one element, "
                         f"this one has shape {list(self._array.shape)}")
    return self._array.item()


def tolist(self):
    """The values as nested Python lists."""
    return self._array.tolist()


def _bool(self):
    if self._array.size != 1:
        raise ValueError(f"the truth value of a tensor with {self._array.size} elements "
                         f"is ambiguous; use .any() or .all()")
    return bool(self._array)


def _index(self):
    if not is_integer(self._array.dtype):
        raise TypeError("only integer tensors can be used as an index")
    return int(item(self))


def _len(self):
    if self._array.ndim == 0:
        raise TypeError("len() of a 0-d tensor")
    return self._array.shape[0]


def _iter(self):
    if self._array.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    for i in range(self._array.shape[0]):
        yield self[i]


def _array_protocol(self, dtype=None, copy=None):
    if dtype is not None:
        return self._array.astype(dtype, copy=False)
    return self._array


def _float(self):
    return float(item(self))


def _complex(self):
    return complex(item(self))


def _int(self):
    return int(item(self))


def dim(self):
    """The number of dimensions (``ndim``)."""
    return self._array.ndim


def cpu(self):
    """The tensor itself: its data already is in the computer's memory."""
    return self


def cuda(self, *args, **kwargs):
    raise RuntimeError("pylayer runs on the CPU only")


def _pos(self):
    return self


# ---------------------------------------------------------------- gradient hooks
def register_hook(self, hook):
    """Call ``hook(grad)`` when this tensor's gradient is computed.

    The hook may return a Tensor to replace the gradient. Returns a handle
    whose ``remove()`` unregisters the hook.
    """
    if not callable(hook):
        raise TypeError(f"register_hook(): argument 'hook' (position 1) must be a callable "
                        f"taking the gradient, got {type(hook).__name__}")
    if self.stop_gradient:
        raise RuntimeError("cannot register a hook on a tensor with stop_gradient=True")
    hooks = self._hook_list()
    hooks.append(hook)
    return _HookHandle(hooks, hook)


def retain_grads(self):
    """Keep ``.grad`` on this non-leaf tensor after backward: the gradient as it is
    at this point among the tensor's hooks (hooks registered later do not change
    it, ones registered before do), as in Paddle."""
    if self.grad_fn is not None:
        self.grad_fn.retain_output(self._out_index, self)


class _HookHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""
    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks, hook):
        self._hooks = hooks
        self._hook = hook

    def remove(self):
        """Unregister the hook; True the first time, False when it was already removed."""
        for i, hook in enumerate(self._hooks):
            if hook is self._hook:
                del self._hooks[i]
                return True
        return False


# ------------------------------------------------------------------- numpy
# numpy's names of the functions that pylayer spells otherwise
PYLAYER_SPELLING = {"absolute": "abs", "negative": "neg", "power": "pow",
                    "true_divide": "divide", "invert": "bitwise_not", "less": "less_than",
                    "greater": "greater_than"}


def ufunc_refusal(cls, ufunc, method, kwargs):
    """The message of the TypeError for a numpy ufunc used on a Tensor of class ``cls``."""
    name = ufunc.__name__
    called = f"numpy.{name}" + ("" if method == "__call__" else f".{method}")
    spelled = PYLAYER_SPELLING.get(name, name)
    if method != "__call__":
        advice = f"ufunc methods such as {method} are not recorded for autograd"
    elif "out" in kwargs:
        advice = "a Tensor's values cannot be written into a numpy array this way"
    elif callable(getattr(cls, spelled, None)):
        advice = (f"call pylayer.{spelled}(...) or the method x.{spelled}(...), which "
                  f"records the op for autograd")
    else:
        advice = "pylayer has no op of that name"
    return (f"{called}() does not take a pylayer Tensor ({advice}); use x.numpy() for "
            f"the Tensor's numpy array, which autograd does not follow")


METHODS = {
    "__repr__": _repr, "__str__": _repr, "__format__": _format,
    "item": item, "tolist": tolist,
    "__bool__": _bool, "__float__": _float, "__complex__": _complex, "__int__": _int, "__index__": _index,
    "__len__": _len, "__iter__": _iter, "__array__": _array_protocol, "__pos__": _pos,
    "dim": dim, "cpu": cpu, "cuda": cuda,
    "register_hook": register_hook, "retain_grads": retain_grads,
}
