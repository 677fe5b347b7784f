"""The graph and the backward engine.

A GradNode is made for each recorded op, with a sequence number larger than
those of the nodes it consumes. Backward therefore needs no dependency
count: it runs the nodes it reaches from a heap in decreasing sequence order,
and by the time a node comes out, every node that feeds it a gradient has run.
Gradients that fan in to a node are summed in a per-node buffer. It never
recurses.
"""
import threading
import traceback

import numpy as np

cimport cython
cimport numpy as cnp
from pylayer._kernels cimport SMALL_ARRAY, binary_loop, add_into_loop, check_spans
from pylayer._tensor cimport (Tensor, VersionCounter, wrap, grad_enabled, set_grad_mode,
                             has_unshared_array, refcount, elementwise)
from pylayer._buffers cimport buffer_like

cnp.import_array()

__all__ = ["GradNode", "SavedTensor", "make_output", "make_outputs", "run_backward",
           "set_history", "push_saved_tensors_hooks", "pop_saved_tensors_hooks",
           "current_saved_tensors_hooks", "save_tensor", "set_anomaly_enabled",
           "is_anomaly_enabled"]

cdef unsigned long long _next_seq = 0

cdef extern from *:
    """
    static _Thread_local int pylayer_anomaly = 0;
    """
    # Per thread, like grad mode: detect_anomaly in one thread leaves others alone.
    int _anomaly "pylayer_anomaly"


def set_anomaly_enabled(bint enabled):
    """Record forward stacks and check backward results for NaN; returns the previous flag.

    >>> from pylayer import _engine
    >>> previous = _engine.set_anomaly_enabled(True)
    >>> _engine.set_anomaly_enabled(previous)
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
from cpython.ref cimport PyObject, Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

cdef extern from *:
    """
    static _Thread_local int pylayer_hook_depth = 0;
    static _Thread_local PyObject *pylayer_innermost_hooks = NULL;
    """
    int pylayer_hook_depth
    # Borrowed: the tuple on top of this thread's stack, which keeps it alive.
    PyObject *pylayer_innermost_hooks

_hook_state = threading.local()


cdef void _sync_innermost(list stack):
    global pylayer_hook_depth, pylayer_innermost_hooks
    pylayer_hook_depth = len(stack)
    pylayer_innermost_hooks = <PyObject*>stack[-1] if stack else NULL


def push_saved_tensors_hooks(pack_hook, unpack_hook):
    """Make (pack_hook, unpack_hook) the innermost pair of this thread."""
    stack = getattr(_hook_state, "stack", None)
    if stack is None:
        stack = _hook_state.stack = []
    stack.append((pack_hook, unpack_hook))
    _sync_innermost(stack)


def pop_saved_tensors_hooks():
    """Remove this thread's innermost pair."""
    stack = _hook_state.stack
    stack.pop()
    _sync_innermost(stack)


def current_saved_tensors_hooks():
    """The innermost (pack_hook, unpack_hook) pair of this thread, or None."""
    return innermost_saved_hooks()


cdef object innermost_saved_hooks():
    if pylayer_hook_depth == 0:
        return None
    return <tuple>pylayer_innermost_hooks


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
            _raise_released(node)
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

    def get(self, node):
        return self.unpack(node)


cpdef SavedTensor save_tensor(Tensor t, Py_ssize_t output_index=-1):
    """Keep ``t`` for backward, through the innermost saved-tensor hooks if any."""
    cdef SavedTensor s = SavedTensor.__new__(SavedTensor)
    s.output_index = output_index
    s.version = t._version
    if pylayer_hook_depth:
        pack_hook, s.unpack_hook = <tuple>pylayer_innermost_hooks
        s.hooked = True
        s.counter = t.shared_counter()
        if output_index < 0 and not t.stop_gradient:
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


cdef _raise_released(GradNode node):
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
            _raise_released(self)
        if self.saved is None:
            return ()
        if type(self.saved) is SavedTensor:
            return ((<SavedTensor>self.saved).unpack(self),)
        return tuple([(<SavedTensor>s).unpack(self) if s is not None else None
                      for s in <tuple>self.saved])

    def output_hooks(self, Py_ssize_t index):
        if self._output_hooks is None:
            self._output_hooks = {}
        return self._output_hooks.setdefault(index, [])

    def retain_output(self, Py_ssize_t index, Tensor tensor):
        import weakref
        if self._retained is None:
            self._retained = {}
        self._retained[index] = weakref.ref(tensor)

    def release(self):
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
            if not t.stop_gradient:
                if t._node is None:
                    edge = t
                else:
                    edge = t._node
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
        if isinstance(item, Tensor) and not (<Tensor>item).stop_gradient:
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
        saved = [save_tensor(<Tensor>t) for t in save]
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
        node.saved = tuple([save_tensor(<Tensor>s) for s in save])
    outs = []
    for i, a in enumerate(arrays):
        t = wrap(a, i in non_differentiable)
        if i not in non_differentiable:
            t._node = node
            t._out_index = i
        outs.append(t)
    return outs


def set_history(Tensor t, node, Py_ssize_t index=0):
    """Make ``t`` output ``index`` of ``node`` (or a tensor without history when
    ``node`` is None): the one way code outside the engine edits the graph."""
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


def attach_node(GradNode node, Tensor t, Py_ssize_t index):
    """Make ``t`` output ``index`` of ``node``, needing a gradient."""
    set_history(t, node, index)
    t.stop_gradient = False


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
        node.next_nodes = edges_first_from.next_nodes + node.next_nodes
        node.next_indices = edges_first_from.next_indices + node.next_indices
    return node


# ------------------------------------------------------------- backward
# Who may write into a gradient: only the pass that allocated it, and only
# while no user code has seen it. Each pass has a stamp; a gradient the pass
# made (a fan-in sum, a cast, the default ones) or adopted (an unshared
# result of a built-in rule) carries it in ``_grad_pass``. A gradient handed
# to a hook, to a node's backward or to the user is marked SEEN for good, and
# when a pass ends its stamp is never used again: a leaf's ``.grad``, a
# ``grad()`` result or a ``grad_tensors`` argument is never written into.
# Adoption counts references only among objects no user code ever received,
# so no reference held outside the engine (borrowed or not) can exist.
cdef unsigned long long SEEN = 0xFFFFFFFFFFFFFFFF
cdef inline bint _same_float_layout(object a, object b):
    cdef int kind
    if not (cnp.PyArray_Check(a) and cnp.PyArray_Check(b)):
        return False
    kind = cnp.PyArray_TYPE(<cnp.ndarray>a)
    return ((kind == cnp.NPY_FLOAT32 or kind == cnp.NPY_FLOAT64)
            and cnp.PyArray_SIZE(<cnp.ndarray>a) <= SMALL_ARRAY
            and kind == cnp.PyArray_TYPE(<cnp.ndarray>b)
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>a)
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>b)
            and cnp.PyArray_SAMESHAPE(<cnp.ndarray>a, <cnp.ndarray>b))


cdef object _sum_arrays(object a, object b):
    """A new array a + b (one C loop for the common same-layout float case)."""
    cdef cnp.ndarray out
    if not _same_float_layout(a, b):
        return elementwise(0, a, b)
    out = cnp.PyArray_EMPTY(cnp.PyArray_NDIM(<cnp.ndarray>a), cnp.PyArray_DIMS(<cnp.ndarray>a),
                            cnp.PyArray_TYPE(<cnp.ndarray>a), 0)
    check_spans(out, a, b)
    if cnp.PyArray_TYPE(<cnp.ndarray>a) == cnp.NPY_FLOAT32:
        binary_loop(0, <const float*>cnp.PyArray_DATA(<cnp.ndarray>a),
                    <const float*>cnp.PyArray_DATA(<cnp.ndarray>b),
                    <float*>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
    else:
        binary_loop(0, <const double*>cnp.PyArray_DATA(<cnp.ndarray>a),
                    <const double*>cnp.PyArray_DATA(<cnp.ndarray>b),
                    <double*>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
    return out


cdef void _add_arrays_into(object acc, object b) except *:
    """acc += b, where the running pass allocated acc and the shapes match."""
    if not _same_float_layout(acc, b):
        np.add(acc, b, out=acc, casting="unsafe")
        return
    check_spans(acc, acc, b)
    if cnp.PyArray_TYPE(<cnp.ndarray>acc) == cnp.NPY_FLOAT32:
        add_into_loop(<float*>cnp.PyArray_DATA(<cnp.ndarray>acc),
                      <const float*>cnp.PyArray_DATA(<cnp.ndarray>b), cnp.PyArray_SIZE(<cnp.ndarray>acc))
    else:
        add_into_loop(<double*>cnp.PyArray_DATA(<cnp.ndarray>acc),
                      <const double*>cnp.PyArray_DATA(<cnp.ndarray>b), cnp.PyArray_SIZE(<cnp.ndarray>acc))


cdef inline Tensor _pass_owned(object array, unsigned long long stamp):
    """A gradient the running pass made and may write into."""
    cdef Tensor t = wrap(array, True)
    t._grad_pass = stamp
    return t


cdef object _add_into(object buffer, object g, bint create_graph, unsigned long long stamp):
    """buffer + g: in place when the running pass owns ``buffer``, else a new gradient."""
    cdef Tensor tb = <Tensor>buffer
    if create_graph:
        from pylayer import add
        return add(buffer, g)
    if (tb._grad_pass == stamp
            and cnp.PyArray_SAMESHAPE(<cnp.ndarray>tb._array, <cnp.ndarray>(<Tensor>g)._array)
            and cnp.PyArray_CanCastSafely(cnp.PyArray_TYPE(<cnp.ndarray>(<Tensor>g)._array),
                                          cnp.PyArray_TYPE(<cnp.ndarray>tb._array))):
        _add_arrays_into(tb._array, (<Tensor>g)._array)
        return buffer
    return _pass_owned(_sum_arrays(tb._array, (<Tensor>g)._array), stamp)


cdef object _root_grad(Tensor t, object g, bint create_graph, unsigned long long stamp):
    """The starting gradient for ``t``: ones by default, else ``g`` (a Tensor of t's shape,
    which autograd.functional checked).

    A boolean or integer gradient is cast to ``t``'s dtype, so that several
    root gradients sum as numbers (bools would OR, ints truncate). A float one
    of another precision is kept, as Paddle does (a PyLayer's
    ``set_grad_in_dtype_consistent(False)`` sees it)."""
    if g is None:
        ones = buffer_like(t._array)
        if ones is None:
            return _pass_owned(np.ones_like(t._array), stamp)
        ones.fill(1)
        return _pass_owned(ones, stamp)
    (<Tensor>g)._grad_pass = SEEN                  # the caller's tensor
    if (<Tensor>g)._array.dtype.kind != "f" and (<Tensor>g)._array.dtype != t._array.dtype:
        if create_graph:
            from pylayer import cast
            return cast(g, t._array.dtype)
        return _pass_owned((<Tensor>g)._array.astype(t._array.dtype), stamp)
    return g


cdef object _apply_hooks(list hooks, object g):
    """Run gradient hooks; what they see or return is the user's from then on."""
    for hook in list(hooks):
        (<Tensor>g)._grad_pass = SEEN
        result = hook(g)
        if result is not None:
            if not isinstance(result, Tensor):
                raise TypeError(f"a tensor hook must return a Tensor or None, "
                                f"got {type(result).__name__}")
            g = result
    (<Tensor>g)._grad_pass = SEEN
    return g


cdef object _nan_check(GradNode node, object results):
    for r in results:
        if isinstance(r, Tensor) and (<Tensor>r)._array.dtype.kind == "f" \
                and np.isnan((<Tensor>r)._array).any():
            raise RuntimeError(
                f"anomaly detected: {node.name()} returned NaN values in its gradient.\n"
                f"The forward call that created this node:\n{node.creation_stack}")


cdef object _call_backward(GradNode node, object grads):
    """Run one node's backward and check what it returned.

    ``grads`` is the gradient itself for a node with one output, else a list.
    """
    if node.released:
        _raise_released(node)
    try:
        if node.n_outputs == 1 and not node.multi_output:
            results = node.backward_fn(node, grads)
        elif node.n_outputs == 1:
            results = node.backward_fn(node, [grads])
        else:
            results = node.backward_fn(node, grads)
    except Exception as exc:
        if _anomaly and node.creation_stack:
            exc.add_note(f"The forward call that created {node.name()}:\n{node.creation_stack}")
        raise
    if _anomaly:
        _nan_check(node, results)
    return results


cdef object _observe_grads(GradNode node, object grads, dict capture_nodes, dict captured):
    """Run the output hooks, fill retained ``.grad``s and captured gradients.

    ``grads`` is the node's buffer (the gradient itself for one output, else a
    list or None); returns it in the same form, with the hooks' results.
    """
    cdef bint single = node.n_outputs == 1
    cdef list per_output = [grads] if single else (
        <list>grads if grads is not None else [None] * node.n_outputs)
    if node._output_hooks:
        for index, hooks in node._output_hooks.items():
            if per_output[index] is not None and hooks:
                per_output[index] = _apply_hooks(hooks, per_output[index])
    if node._retained:
        for index, ref in node._retained.items():
            owner = ref()
            if owner is not None and per_output[index] is not None:
                (<Tensor>per_output[index])._grad_pass = SEEN
                (<Tensor>owner)._grad = per_output[index]
    if capture_nodes is not None and node in capture_nodes:
        for index in capture_nodes[node]:
            captured[(node, index)] = per_output[index]
    return per_output[0] if single else per_output


cdef bint _hand_over(object grads):
    """Whether any gradient arrived; those that did stop being the pass's to write
    into, since the node's backward may keep them."""
    cdef bint any_grad = False
    if grads is None:
        return False
    if isinstance(grads, Tensor):
        (<Tensor>grads)._grad_pass = SEEN
        return True
    for g in <list>grads:
        if g is not None:
            (<Tensor>g)._grad_pass = SEEN
            any_grad = True
    return any_grad


cdef inline void _adopt_if_unshared(Tensor g, unsigned long long stamp):
    """Own a built-in rule's result that nothing but the engine can reach: never seen
    by user code, held only by the results (the caller counted), its array ``g``'s alone."""
    if g._grad_pass != SEEN and g._node is None and has_unshared_array(g):
        g._grad_pass = stamp


# ---- passes: stamps, and backward started while another pass runs
cdef unsigned long long _next_stamp = 0
cdef set _running = set()        # stamps of the passes under way (any thread)


cdef class _Pass:
    """One backward pass: its stamp, its ready queue, and the buffers of the nodes
    it took over from a pass it runs inside of (a hook or a PyLayer backward
    that calls backward), which it gives back when it ends."""
    cdef unsigned long long stamp
    cdef bint create_graph
    cdef list ready
    cdef list borrowed

    cdef void enter(self, GradNode node):
        """Queue ``node`` (with an empty buffer) the first time this pass reaches it."""
        if node.visit == self.stamp:
            return
        if len(_running) > 1 and node.visit in _running:
            if self.borrowed is None:
                self.borrowed = []
            self.borrowed.append((node, node.visit, node.buffer))
        node.visit = self.stamp
        node.buffer = None
        _push_ready(self.ready, node)

    cdef void deposit(self, GradNode node, Py_ssize_t index, object g):
        """Add gradient g for output ``index`` of ``node`` to its buffer."""
        cdef list per_output
        if node.n_outputs == 1:
            node.buffer = g if node.buffer is None else _add_into(node.buffer, g,
                                                                 self.create_graph, self.stamp)
            return
        if node.buffer is None:
            node.buffer = [None] * node.n_outputs
        per_output = <list>node.buffer
        current = per_output[index]
        if current is None:
            per_output[index] = g
        else:
            per_output[index] = _add_into(current, g, self.create_graph, self.stamp)

    cdef void close(self):
        """Empty what this pass left queued, and give borrowed buffers back."""
        cdef GradNode node
        for node in self.ready:
            node.buffer = None
        if self.borrowed is not None:
            for node, visit, buffer in reversed(self.borrowed):
                node.visit = visit
                node.buffer = buffer
        _running.discard(self.stamp)


cdef _Pass _open_pass(bint create_graph):
    global _next_stamp
    cdef _Pass p = _Pass.__new__(_Pass)
    _next_stamp += 1
    p.stamp = _next_stamp
    p.create_graph = create_graph
    p.ready = []
    _running.add(p.stamp)
    return p


# The ready queue: a binary heap of nodes, newest (largest seq) first.
cdef void _push_ready(list heap, GradNode node):
    cdef Py_ssize_t i = len(heap), parent
    heap.append(node)
    while i > 0:
        parent = (i - 1) >> 1
        if (<GradNode>heap[parent]).seq >= node.seq:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = node


cdef GradNode _pop_ready(list heap):
    cdef GradNode top = <GradNode>heap[0]
    cdef GradNode last = <GradNode>heap.pop()
    cdef Py_ssize_t n = len(heap), i = 0, child
    if n == 0:
        return top
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and (<GradNode>heap[child + 1]).seq > (<GradNode>heap[child]).seq:
            child += 1
        if (<GradNode>heap[child]).seq <= last.seq:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = last
    return top


# Accumulation into leaves is one step for all threads: a pass reads a
# leaf's .grad and stores the sum, and numpy releases the GIL in between.
_leaf_lock = threading.Lock()


def run_backward(list tensors, list grad_tensors, bint retain_graph=False,
                 bint create_graph=False, inputs=None, bint allow_unused=False,
                 blocked=None):
    """Backpropagate from ``tensors`` (with one gradient or None each, checked by the
    callers in ``pylayer.autograd.functional``).

    Without ``inputs``: accumulate into the ``.grad`` of the leaves. With
    ``inputs``: return their gradients in a list and leave every ``.grad``
    untouched. No gradient flows through the tensors in ``blocked``.

    The steps: the roots' gradients, the nodes that can reach ``inputs`` (only
    with ``inputs``), the node loop, and the delivery to leaves or to the caller.
    A backward started inside another (from a hook or a PyLayer backward)
    borrows the buffers it meets and gives them back when it ends. One graph
    must not be backpropagated by two threads at the same time.
    """
    cdef Tensor t
    cdef dict leaf_grads = {}
    cdef dict leaf_objs = {}
    cdef dict captured = None
    cdef dict capture_nodes = None
    cdef set needed = None
    cdef set cut = None
    cdef _Pass p

    if inputs is not None:
        captured = {}
        capture_nodes = {}
        for item in inputs:
            t = <Tensor?>item
            if t._node is not None:
                capture_nodes.setdefault(t._node, []).append(t._out_index)

    if blocked:
        cut = set()
        for item in blocked:
            t = <Tensor?>item
            cut.add((t._node, t._out_index) if t._node is not None else id(t))

    p = _open_pass(create_graph)
    try:
        roots = _roots(tensors, grad_tensors, create_graph, p.stamp)
        if inputs is not None:
            needed = _nodes_leading_to(roots, inputs, capture_nodes)
        for t, g in roots:
            if t._node is None:
                _leaf_add(leaf_grads, leaf_objs, t, g, p)
            else:
                p.enter(<GradNode>t._node)
                p.deposit(<GradNode>t._node, t._out_index, g)
        previous_mode = set_grad_mode(create_graph)
        try:
            _node_loop(p, retain_graph, needed, cut, capture_nodes, captured, leaf_grads,
                       leaf_objs)
        finally:
            set_grad_mode(previous_mode)
    finally:
        p.close()

    if inputs is None:
        _deliver_to_leaves(leaf_grads, leaf_objs, create_graph, p.stamp)
        return None
    found = []
    for item in inputs:
        t = <Tensor>item
        if t._node is None:
            g = leaf_grads.get(id(t))
            if g is not None and t._hooks:
                g = _apply_hooks(t._hooks, g)
        else:
            g = captured.get((t._node, t._out_index))
        if g is not None and (<Tensor>g)._array.dtype != t._array.dtype:
            # A gradient has its input's dtype, like a leaf's .grad (Paddle does so too).
            if create_graph:
                from pylayer import cast
                g = cast(g, t._array.dtype)
            else:
                g = wrap((<Tensor>g)._array.astype(t._array.dtype), True)
        if g is not None:
            (<Tensor>g)._grad_pass = SEEN
        found.append(g)
    return found


cdef list _roots(list tensors, list grad_tensors, bint create_graph, unsigned long long stamp):
    """``[(tensor, starting gradient)]`` for the roots that need a gradient."""
    cdef Tensor t
    cdef list roots = []
    for item, g in zip(tensors, grad_tensors):
        t = <Tensor?>item
        if t.stop_gradient:
            continue
        g = _root_grad(t, g, create_graph, stamp)
        if t._node is not None and (<GradNode>t._node).released:
            _raise_released(<GradNode>t._node)
        roots.append((t, g))
    return roots


cdef void _node_loop(_Pass p, bint retain_graph, set needed, set cut, dict capture_nodes,
                     dict captured, dict leaf_grads, dict leaf_objs) except *:
    """Run the reached nodes, newest first, passing each one's results on."""
    cdef GradNode node, child
    cdef Py_ssize_t i, n
    cdef tuple nexts
    cdef list ready = p.ready
    cdef bint create_graph = p.create_graph
    while ready:
        node = _pop_ready(ready)
        grads = node.buffer
        node.buffer = None
        if node._output_hooks or node._retained or capture_nodes is not None:
            grads = _observe_grads(node, grads, capture_nodes, captured)
        nexts = node.next_nodes
        n = len(nexts)
        results = None
        if needed is None or node in needed:
            if _hand_over(grads) or node.runs_without_grads:
                if grads is None and node.n_outputs > 1:
                    grads = [None] * node.n_outputs
                results = _call_backward(node, grads)
                grads = None  # free incoming gradients now: their memory is reused hot
                if not isinstance(results, (tuple, list)) or len(results) != n:
                    raise RuntimeError(
                        f"{node.name()}: backward returned {results!r}, expected "
                        f"{n} gradient(s)")
            if not retain_graph:
                node.release()
        for i in range(n):
            child_obj = nexts[i]
            if child_obj is None:
                continue
            g = results[i] if results is not None else None
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(f"{node.name()}: backward returned a "
                                f"{type(g).__name__} as gradient {i}, expected a Tensor or None")
            if (g is not None and not create_graph and not node.runs_user_code
                    and refcount(<void*>g) == 2):
                _adopt_if_unshared(<Tensor>g, p.stamp)  # 2: ``results`` and ``g`` only
            if cut is not None and g is not None and (
                    id(child_obj) in cut if isinstance(child_obj, Tensor)
                    else (child_obj, node.next_indices[i]) in cut):
                g = None
            if isinstance(child_obj, GradNode):
                # Entered even without a gradient, so that it is released too.
                child = <GradNode>child_obj
                p.enter(child)
                if g is not None:
                    p.deposit(child, node.next_indices[i], g)
            elif g is not None:
                _leaf_add(leaf_grads, leaf_objs, <Tensor>child_obj, g, p)
        g = results = None


cdef set _nodes_leading_to(list roots, inputs, dict capture_nodes):
    """The nodes whose backward can reach one of ``inputs`` (so must run).

    A node's inputs come from nodes with smaller sequence numbers, so visiting
    the reachable nodes in increasing sequence order settles each one in a
    single pass: all its children were decided before it.
    """
    cdef set leaf_ids = {id(t) for t in inputs if (<Tensor>t)._node is None}
    cdef set needed = set()
    cdef set seen = set()
    cdef list order = [], stack = []
    cdef GradNode node
    for t, g in roots:
        if (<Tensor>t)._node is not None:
            stack.append((<Tensor>t)._node)
    while stack:
        node = <GradNode>stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        for child in node.next_nodes:
            if isinstance(child, GradNode) and child not in seen:
                stack.append(child)
    order.sort(key=_seq_of)
    for node in order:
        for i, child in enumerate(node.next_nodes):
            if child is None:
                continue
            if isinstance(child, Tensor):
                hit = id(child) in leaf_ids
            else:
                hit = child in needed or (child in capture_nodes and
                                          node.next_indices[i] in capture_nodes[child])
            if hit:
                needed.add(node)
                break
    return needed


def _seq_of(GradNode node):
    return node.seq


cdef _leaf_add(dict leaf_grads, dict leaf_objs, Tensor leaf, object g, _Pass p):
    key = id(leaf)
    existing = leaf_grads.get(key)
    if existing is None:
        leaf_grads[key] = g
        leaf_objs[key] = leaf
    else:
        leaf_grads[key] = _add_into(existing, g, p.create_graph, p.stamp)


cdef _deliver_to_leaves(dict leaf_grads, dict leaf_objs, bint create_graph,
                        unsigned long long stamp):
    """Run the leaves' hooks, then add every gradient to its leaf's ``.grad``."""
    cdef list deliveries = []
    cdef Tensor leaf
    for key, g in leaf_grads.items():
        leaf = <Tensor>leaf_objs[key]
        if leaf._hooks:
            g = _apply_hooks(leaf._hooks, g)
        deliveries.append((leaf, g))
    with _leaf_lock:
        for leaf, g in deliveries:
            _accumulate_leaf(leaf, g, create_graph, stamp)


cdef _accumulate_leaf(Tensor leaf, object g, bint create_graph, unsigned long long stamp):
    """leaf.grad + g, cast to the leaf's dtype, in a new array: a leaf's ``.grad`` is
    the user's once a pass has ended, so no pass writes into it."""
    cdef Tensor tg = <Tensor>g
    if tg._array.shape != leaf._array.shape:
        raise RuntimeError(f"a gradient of shape {list(tg._array.shape)} reached a leaf of "
                           f"shape {list(leaf._array.shape)}")
    if tg._array.dtype != leaf._array.dtype:
        if create_graph:
            from pylayer import cast
            tg = <Tensor>cast(g, leaf._array.dtype)
        else:
            tg = _pass_owned(tg._array.astype(leaf._array.dtype), stamp)
    current = leaf._grad
    if current is None:
        if create_graph or tg._grad_pass == stamp:
            result = tg
        else:
            copy = buffer_like(tg._array)
            if copy is None:
                copy = np.array(tg._array, copy=True)
            else:
                np.copyto(copy, tg._array)
            result = wrap(copy, True)
    elif create_graph:
        from pylayer import add
        result = add(current, tg)
    else:
        result = wrap(_sum_arrays((<Tensor>current)._array, tg._array), True)
    (<Tensor>result)._grad_pass = SEEN
    leaf._grad = result
    leaf._grad_from_user = False
