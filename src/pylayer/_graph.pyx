"""The graph: what a node is, and how an op records one.

Each recorded op gets a GradNode holding its gradient rule, one edge per input
(the producing node, the leaf itself, or None) and the tensors its rule needs,
kept as SavedTensors that are version-checked (or packed by this thread's
innermost saved-tensor hooks). Its sequence number is larger than those of the
nodes it consumes, the order that ``_engine`` runs backward in.
"""
import traceback
import weakref

import numpy as np

cimport cython
cimport numpy as cnp
from pylayer._tensor cimport Tensor, wrap, grad_enabled, set_grad_mode

cnp.import_array()

__all__ = ["GradNode", "SavedTensor", "make_output", "make_outputs", "set_history",
           "push_saved_tensors_hooks", "pop_saved_tensors_hooks",
           "current_saved_tensors_hooks", "save_tensor", "set_anomaly_enabled",
           "is_anomaly_enabled"]

cdef unsigned long long _next_seq = 0

cdef extern from *:
    """
    static _Thread_local int pylayer_anomaly = 0;
    """
    # Per thread, like grad mode: detect_anomaly in one thread leaves others alone.
    int _anomaly "pylayer_anomaly"


cdef bint anomaly_enabled() noexcept:
    return _anomaly


def set_anomaly_enabled(bint enabled):
    """Record forward stacks and check backward results for NaN; returns the previous flag.

    >>> from pylayer import _graph
    >>> previous = _graph.set_anomaly_enabled(True)
    >>> _graph.set_anomaly_enabled(previous)
    True
    """
    global _anomaly
    previous = bool(_anomaly)
    _anomaly = enabled
    return previous


def is_anomaly_enabled():
    """Whether anomaly detection is on (see ``pylayer.autograd.detect_anomaly``).

    >>> from pylayer.autograd.anomaly import is_anomaly_enabled
    >>> is_anomaly_enabled()
    False
    """
    return bool(_anomaly)


# --------------------------------------------------- saved-tensor hooks
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

cdef extern from *:
    """
    static _Thread_local PyObject *pylayer_saved_hooks = NULL;
    """
    # This thread's innermost saved-tensor hooks, a strong reference to the tuple
    # (pack_hook, unpack_hook, the enclosing entry or None), or NULL for none.
    # Only the functions below change it; no Python object can reach it.
    PyObject *pylayer_saved_hooks


def push_saved_tensors_hooks(pack_hook, unpack_hook):
    """Make (pack_hook, unpack_hook) the innermost pair of this thread.

    >>> push_saved_tensors_hooks(print, print)
    >>> current_saved_tensors_hooks() == (print, print)
    True
    >>> pop_saved_tensors_hooks()
    """
    global pylayer_saved_hooks
    if not (callable(pack_hook) and callable(unpack_hook)):
        raise TypeError(f"push_saved_tensors_hooks(): both hooks must be callable, got "
                        f"{type(pack_hook).__name__} and {type(unpack_hook).__name__}")
    outer = <object>pylayer_saved_hooks if pylayer_saved_hooks != NULL else None
    entry = (pack_hook, unpack_hook, outer)
    Py_INCREF(entry)
    Py_XDECREF(pylayer_saved_hooks)   # now held by entry
    pylayer_saved_hooks = <PyObject*>entry


def pop_saved_tensors_hooks():
    """Remove this thread's innermost pair (an error when there is none)."""
    global pylayer_saved_hooks
    if pylayer_saved_hooks == NULL:
        raise RuntimeError("pop_saved_tensors_hooks(): this thread has no saved-tensor hooks")
    entry = <tuple>pylayer_saved_hooks
    outer = entry[2]
    if outer is None:
        pylayer_saved_hooks = NULL
    else:
        Py_INCREF(outer)
        pylayer_saved_hooks = <PyObject*>outer
    Py_XDECREF(<PyObject*>entry)    # the reference the thread held; ``entry`` keeps its own


def current_saved_tensors_hooks():
    """The innermost (pack_hook, unpack_hook) pair of this thread, or None.

    >>> print(current_saved_tensors_hooks())
    None
    """
    return innermost_saved_hooks()


cdef object innermost_saved_hooks():
    if pylayer_saved_hooks == NULL:
        return None
    return (<tuple>pylayer_saved_hooks)[:2]


@cython.freelist(64)
cdef class SavedTensor:
    """A tensor kept for backward: held directly, or packed by a hook.

    It remembers the version the tensor had, so that backward can refuse a
    tensor that was changed in place after it was saved.
    """

    def __repr__(self):
        return f"<SavedTensor version={self.version} hooked={bool(self.hooked)}>"

    cdef object unpack(self, GradNode node):
        cdef Tensor result
        cdef long current
        if node.released:
            raise_released(node)
        current = self.counter.value if self.counter is not None else (<Tensor>self.tensor)._version
        if current != self.version:
            raise RuntimeError(
                f"one of the tensors saved by {node.name()} for backward has been modified "
                f"by an inplace operation: it is at version {current}, but was saved at "
                f"version {self.version}. Use an out-of-place op, or save a copy.")
        if self.hooked:
            previous = set_grad_mode(False)
            try:
                value = self.unpack_hook(self.packed)
            finally:
                set_grad_mode(previous)
            if cnp.PyArray_Check(value):
                value = wrap(value)
            elif not isinstance(value, Tensor):
                raise TypeError(f"unpack_hook must return a Tensor, got {type(value).__name__}")
        else:
            value = self.tensor
        if self.source is not None and grad_enabled():
            return self._relink(value)
        if self.output_index >= 0:
            # An op's own output is saved as its bare array (no cycle through
            # the node); give it back its place in the graph for double backward.
            if self.output_index >= node.n_outputs:
                raise RuntimeError(f"a tensor saved as output {self.output_index} cannot "
                                   f"belong to {node.name()}, which has {node.n_outputs} "
                                   f"output(s)")
            result = wrap(value if not self.hooked and not isinstance(value, Tensor)
                          else (<Tensor>value)._array, False)
            result._node = node
            result._out_index = self.output_index
            return result
        return value

    cdef object _relink(self, Tensor value):
        """A hooked input, reconnected to where it came from (double backward)."""
        cdef Tensor result
        if isinstance(self.source, Tensor):
            return self.source  # a leaf: its data passed the version check
        result = wrap(value._array, False)
        result._node = self.source
        result._out_index = self.source_index
        return result


cpdef SavedTensor save_tensor(Tensor t, Py_ssize_t output_index=-1):
    if t is None:
        raise TypeError("save_tensor(): argument 't' must be a Tensor, got None")
    """Keep ``t`` for backward, through the innermost saved-tensor hooks if any."""
    cdef SavedTensor s = SavedTensor.__new__(SavedTensor)
    s.output_index = output_index
    s.version = t._version
    if pylayer_saved_hooks != NULL:
        entry = <tuple>pylayer_saved_hooks   # held here: pack_hook may pop it
        pack_hook = entry[0]
        s.unpack_hook = entry[1]
        s.hooked = True
        s.counter = t.shared_counter()
        if output_index < 0 and not t._stop_gradient:
            # Keep the way back into the graph (not the data) for create_graph.
            s.source = t if t._node is None else t._node
            s.source_index = t._out_index
        previous = set_grad_mode(False)
        try:
            s.packed = pack_hook(t)
        finally:
            set_grad_mode(previous)
    elif output_index >= 0:
        s.counter = t.shared_counter()
        s.tensor = t._array
    else:
        s.tensor = t
    return s


# ------------------------------------------------------------------ nodes
@cython.final
cdef class RetainedGrad:
    """Stands among an output's hooks for a tensor whose ``.grad`` keeps the gradient
    (``Tensor.retain_grads``)."""

    def __init__(self, Tensor tensor not None):
        self.tensor = weakref.ref(tensor)

    cdef Tensor owner(self):
        """The tensor whose ``.grad`` takes the gradient, or None when it has died."""
        owner = self.tensor() if self.tensor is not None else None
        return owner if isinstance(owner, Tensor) else None


class AccumulateGrad:
    """Stands for a leaf in ``grad_fn.next_functions``."""
    __slots__ = ("variable",)

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        return "AccumulateGrad"

    @property
    def next_functions(self):
        return ()

    def __repr__(self):
        return "<AccumulateGrad>"


def _camel(name):
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


cdef raise_released(GradNode node):
    raise RuntimeError(
        f"trying to run backward through {node.name()} a second time, but its saved "
        f"tensors were freed after the first backward. Pass retain_graph=True to the "
        f"first backward() or grad() call if you need to run backward twice.")


@cython.freelist(64)
cdef class GradNode:
    """One recorded op in the graph: what backward runs for it, and where its gradients go."""

    def name(self):
        """``TanhGradNode`` for built-in ops; custom ops give their full name."""
        if self.op_name[:1].isupper():
            return self.op_name
        return _camel(self.op_name) + "GradNode"

    def __repr__(self):
        return f"<{self.name()}>"

    @property
    def needs_input_grad(self):
        """Per input: whether its gradient is needed (a rule may return None for the rest)."""
        return tuple([edge is not None for edge in self.next_nodes])

    @property
    def next_functions(self):
        result = []
        for node, index in zip(self.next_nodes, self.next_indices):
            if isinstance(node, Tensor):
                result.append((AccumulateGrad(node), 0))
            else:
                result.append((node, index))
        return tuple(result)

    cpdef tuple saved_tensors(self):
        """Unpack every saved tensor (runs unpack hooks, checks versions)."""
        cdef Py_ssize_t i, n
        cdef tuple result
        if self.released:
            raise_released(self)
        if self.saved is None:
            return ()
        if type(self.saved) is SavedTensor:
            return ((<SavedTensor>self.saved).unpack(self),)
        return tuple([(<SavedTensor>s).unpack(self) if s is not None else None
                      for s in <tuple>self.saved])

    def output_hooks(self, Py_ssize_t index):
        """The gradient hooks of output ``index`` (a list backward runs in order)."""
        if not 0 <= index < self.n_outputs:
            raise IndexError(f"{self.name()} has {self.n_outputs} output(s), not {index + 1}")
        if self._output_hooks is None:
            self._output_hooks = {}
        return self._output_hooks.setdefault(index, [])

    def retain_output(self, Py_ssize_t index, Tensor tensor not None):
        """Keep output ``index``'s gradient in ``tensor.grad``, taken at this point of the
        output's hooks (hooks registered later do not change it), as Paddle does."""
        hooks = self.output_hooks(index)
        for hook in hooks:
            if type(hook) is RetainedGrad and (<RetainedGrad>hook).owner() is tensor:
                return
        hooks.append(RetainedGrad(tensor))

    cpdef release(self):
        """Free what backward needed; a later backward through this node fails."""
        self.saved = None
        self.attrs = None
        self.released = True


# next_indices of nodes whose inputs are all output 0 of their producers (most
# nodes): shared instead of one tuple per node.
cdef tuple _ZERO_INDICES = tuple([(0,) * n for n in range(5)])


cdef GradNode new_grad_node(tuple inputs, str op_name, object backward_fn, object attrs):
    global _next_seq
    cdef GradNode node = GradNode.__new__(GradNode)
    cdef Py_ssize_t n = len(inputs)
    cdef tuple nexts = PyTuple_New(n)
    cdef list indices = None
    cdef Py_ssize_t i
    cdef Tensor t
    for i in range(n):
        item = inputs[i]
        edge = None
        if isinstance(item, Tensor):
            t = <Tensor>item
            if not t._stop_gradient:
                if t._node is None:
                    edge = t
                else:
                    edge = t._node
                    (<GradNode>edge).uses += 1
                    if t._out_index != 0:
                        if indices is None:
                            indices = [0] * n
                        indices[i] = t._out_index
        Py_INCREF(edge)
        PyTuple_SET_ITEM(nexts, i, edge)
    node.next_nodes = nexts
    if indices is not None:
        node.next_indices = tuple(indices)
    elif n < 5:
        node.next_indices = <tuple>_ZERO_INDICES[n]
    else:
        node.next_indices = (0,) * n
    node.backward_fn = backward_fn
    node.op_name = op_name
    node.attrs = attrs
    node.n_outputs = 1
    node.seq = _next_seq
    _next_seq += 1
    if _anomaly:
        node.creation_stack = "".join(traceback.format_stack())  # compiled frames do not show
    return node


cdef inline bint _needs_grad(tuple inputs):
    if not grad_enabled():
        return False
    for item in inputs:
        if isinstance(item, Tensor) and not (<Tensor>item)._stop_gradient:
            return True
    return False


def needs_grad(*inputs):
    """True when an op on ``inputs`` would be recorded (grad mode on, some input needs a gradient)."""
    return _needs_grad(inputs)


cpdef Tensor make_output(object array, tuple inputs, str op_name, object backward_fn,
                         tuple save=(), bint save_output=False, object attrs=None):
    """Wrap an op's result and, when gradients are needed, record its node.

    ``save`` lists input tensors the backward will need; ``save_output``
    keeps the result too. ``backward_fn(node, grad)`` returns one gradient
    per entry of ``inputs``.
    """
    cdef Tensor out
    cdef GradNode node
    if not cnp.PyArray_Check(array):
        array = np.asarray(array)  # numpy reductions may hand back scalars
    if not _needs_grad(inputs):
        return wrap(array, True)
    out = wrap(array, False)
    node = new_grad_node(inputs, op_name, backward_fn, attrs)
    if save_output and not save:
        node.saved = save_tensor(out, 0)   # one saved tensor: no tuple around it
    elif save or save_output:
        saved = [save_tensor(<Tensor?>t) for t in save]
        if save_output:
            saved.append(save_tensor(out, 0))
        node.saved = tuple(saved)
    out._node = node
    return out


def make_outputs(arrays, tuple inputs, str op_name, object backward_fn, tuple save=(),
                 object attrs=None, tuple non_differentiable=()):
    """Like make_output for an op with several outputs; backward_fn gets a tuple of grads."""
    cdef GradNode node
    cdef Tensor t
    arrays = [a if cnp.PyArray_Check(a) else np.asarray(a) for a in arrays]
    if not _needs_grad(inputs):
        return [wrap(a, True) for a in arrays]
    node = new_grad_node(inputs, op_name, backward_fn, attrs)
    node.multi_output = True
    node.n_outputs = len(arrays)
    node.out_meta = tuple((a.shape, a.dtype) for a in arrays)
    if save:
        node.saved = tuple([save_tensor(<Tensor?>s) for s in save])
    outs = []
    for i, a in enumerate(arrays):
        t = wrap(a, i in non_differentiable)
        if i not in non_differentiable:
            t._node = node
            t._out_index = i
        outs.append(t)
    return outs


def set_history(Tensor t not None, node, Py_ssize_t index=0):
    """Make ``t`` output ``index`` of ``node`` (or a tensor without history when
    ``node`` is None): the one way code outside _graph edits the graph."""
    if node is None:
        t._node = None
        t._out_index = 0
        return
    if not isinstance(node, GradNode):
        raise TypeError(f"set_history(): argument 'node' must be a GradNode or None, "
                        f"got {type(node).__name__}")
    if not 0 <= index < (<GradNode>node).n_outputs:
        raise ValueError(f"set_history(): argument 'index' must lie in "
                         f"[0, {(<GradNode>node).n_outputs}), got {index}")
    t._node = node
    t._out_index = index


def attach_node(GradNode node not None, Tensor t not None, Py_ssize_t index):
    """Make ``t`` output ``index`` of ``node``, needing a gradient."""
    set_history(t, node, index)
    t._stop_gradient = False


def new_node(tuple inputs, str op_name, backward_fn, attrs=None, Py_ssize_t n_outputs=1,
             bint multi_output=True, GradNode edges_first_from=None):
    """A bare node for custom ops (PyLayer) that attach outputs themselves.

    Its backward is user code. ``edges_first_from`` puts that node's edges
    before the ones of ``inputs`` (its backward returns gradients for both).
    """
    if n_outputs < 1:
        raise ValueError(f"new_node(): argument 'n_outputs' must be at least 1, got {n_outputs}")
    cdef GradNode node = new_grad_node(inputs, op_name, backward_fn, attrs)
    node.n_outputs = n_outputs
    node.multi_output = multi_output
    node.runs_user_code = True
    if edges_first_from is not None:
        for edge in edges_first_from.next_nodes:
            if isinstance(edge, GradNode):
                (<GradNode>edge).uses += 1
        node.next_nodes = edges_first_from.next_nodes + node.next_nodes
        node.next_indices = edges_first_from.next_indices + node.next_indices
    return node
