"""The graph: what an op is (its record, :class:`Op`), what a node is, and how an op
records one.

An op is declared once, as an ``Op``: its name, the names of its inputs, outputs
and attributes, what its gradient rules keep (by name), and the rules themselves
(one vector-Jacobian product per input).
Calling the op records a GradNode holding the record, one edge per input (the
producing node, the leaf itself, or None), the attribute values, and the kept
tensors as SavedTensors that are version-checked (or packed by this thread's
innermost saved-tensor hooks). A node's sequence number is larger than those of
the nodes it consumes, the order that ``engine`` runs backward in. A rule reads what
was kept by name: the names of its parameters after the output gradient
(``lambda g, out: ...``) say which kept values and attributes it receives.
"""
import traceback
import weakref

import numpy as np

cimport cython
cimport numpy as cnp
from pylayer._core.tensor cimport (Tensor, wrap, grad_enabled, has_no_data, set_grad_mode,
                                   result_array, current_version, refresh_view, make_alias)
from pylayer._core.tensor import unmade_tensor_error
from pylayer._core.records import check_outputs, describe, node_name, refuse_call
from pylayer._core import records
from pylayer._core.graph_walk import next_functions

cnp.import_array()

__all__ = ["Op", "GradNode", "SavedTensor", "make_output", "make_outputs",
           "new_node", "set_history", "push_saved_tensors_hooks", "pop_saved_tensors_hooks",
           "current_saved_tensors_hooks", "save_tensor", "set_anomaly_enabled",
           "is_anomaly_enabled"]

cdef unsigned long long _next_seq = 0


cdef unsigned long long next_seq() noexcept:
    """The sequence number the next node gets (a node is newer than this if its
    seq is at least it)."""
    return _next_seq
# The slot a rule reads needs_input_grad from (records.py numbers the slots).
cdef Py_ssize_t NEEDS_INPUT_GRAD = records.NEEDS_INPUT_GRAD

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

    >>> from pylayer._core import graph
    >>> previous = graph.set_anomaly_enabled(True)
    >>> graph.set_anomaly_enabled(previous)
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

cdef extern from "Python.h":
    object PyObject_Vectorcall(object callable, PyObject **args, size_t nargsf, PyObject *kwnames)

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
        current = self.counter.value if self.counter is not None else \
            current_version(<Tensor>self.tensor)
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
            elif has_no_data(<Tensor>value):
                raise unmade_tensor_error(value, "the value that unpack_hook returned")
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
    """Keep ``t`` for backward, through the innermost saved-tensor hooks if any."""
    cdef SavedTensor s
    if t is None:
        raise TypeError("save_tensor(): argument 't' must be a Tensor, got None")
    s = SavedTensor.__new__(SavedTensor)
    s.output_index = output_index
    s.version = current_version(t)
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


# ------------------------------------------------------------------ records
@cython.final
cdef class Op:
    """The record of an op: its name, its inputs, outputs and attributes, what its
    gradient rules keep, and the rules. Declared once per op, next to its forward.

    ``inputs``: the names of the inputs, in the order the forward passes them to
    :func:`make_output` (None: any number, for ops whose one rule handles all).
    ``outputs``: the names of the outputs. A single name may be given as a string.
    ``attrs``: the names of the values the forward passes besides tensors (shapes,
    axes, numbers), in the order it passes them.
    ``keeps``: the names, among inputs and outputs, of the values the rules read;
    a kept tensor is saved (version-checked, or packed by saved-tensor hooks), a
    kept number is kept as it is.
    ``vjp``: the rules: one per input (None for an input that gets no gradient),
    each returning that input's gradient; or one rule that returns a tuple with
    one gradient (or None) per input. A rule takes the output gradient first (for
    an op with ``multi_output``, a list with one entry, None where none arrived,
    per output), then, by the names of its parameters, what it reads: kept
    values, attributes, and ``needs_input_grad`` (per input, whether its
    gradient is needed).
    ``user_code``: the rules run user code (a PyLayer's backward), which also runs
    when no gradient reached the node.

    >>> import pylayer as paddle
    >>> from pylayer._core.graph import Op, make_output
    >>> CUBE = Op("cube", keeps=("x",), vjp=(lambda g, x: g * 3.0 * x * x,))
    >>> x = paddle.to_tensor([2.0], stop_gradient=False)
    >>> y = make_output(CUBE, x.numpy() ** 3, (x,))
    >>> y.backward()
    >>> x.grad.numpy(), y.grad_fn.name()
    (array([12.], dtype=float32), 'CubeGradNode')
    """

    def __cinit__(self, name, inputs="x", outputs="out", keeps=(), attrs=(),
                  vjp=None, bint multi_output=False, bint user_code=False,
                  bint view=False):
        cdef Py_ssize_t i, source
        cdef tuple sources
        self.name, self.inputs, self.outputs, self.keeps, self.attrs, sources, self._reads = \
            describe(name, inputs, outputs, keeps, attrs, vjp)
        self.vjp = vjp
        self.per_input = isinstance(vjp, tuple)
        self.multi_output = multi_output
        self.user_code = user_code
        self.view = view
        self.n_inputs = -1 if self.inputs is None else len(self.inputs)
        self.n_attrs = len(self.attrs)
        self.n_kept = len(self.keeps)
        # What the compiled code below indexes with, checked whatever describe() said.
        if self.n_kept > MAX_KEPT:
            raise ValueError(f"Op({name!r}): its rules may keep at most {MAX_KEPT} values, "
                             f"got {self.n_kept}")
        if len(sources) != self.n_kept or len(self._reads) != (len(vjp) if self.per_input else 1):
            raise RuntimeError(f"Op({name!r}): its description does not fit its declaration")
        for i in range(self.n_kept):
            source = sources[i]
            if not -len(self.outputs) <= source < max(self.n_inputs, 0):
                raise RuntimeError(f"Op({name!r}): kept value {i} has no source {source}")
            self._keep_source[i] = source
        for reads in self._reads:
            if reads is not None and type(reads) is not tuple:
                raise RuntimeError(f"Op({name!r}): its rules' reads must be tuples")

    def __init__(self, name, inputs="x", outputs="out", keeps=(), attrs=(), vjp=None,
                 multi_output=False, user_code=False, view=False):
        pass            # __cinit__ set every field, once: a record does not change

    def node_name(self):
        """The name of the op's nodes: ``TanhGradNode``, or a custom op's full name."""
        return node_name(self.name)

    def __repr__(self):
        return (f"Op({self.name!r}, inputs={self.inputs}, outputs={self.outputs}, "
                f"keeps={self.keeps}, attrs={self.attrs})")


cdef object _call_rule(object rule, tuple reads, object g, tuple values, GradNode node,
                       tuple wanted):
    """``rule(g, <what it reads>)``, the values looked up by the slots in ``reads``. The
    values are borrowed from ``values`` and the node's attributes, which outlive the
    call; ``needs`` holds the one value made here (``wanted``, or per input whether it
    has an edge)."""
    cdef PyObject *args[1 + MAX_READS]
    cdef Py_ssize_t i, n = len(reads), slot
    cdef tuple attrs = <tuple?>node.attrs
    needs = None
    if n > MAX_READS:
        raise ValueError(f"{node.name()}: a rule may read at most {MAX_READS} values")
    args[0] = <PyObject*>g
    for i in range(n):
        slot = reads[i]
        if slot == NEEDS_INPUT_GRAD:
            needs = wanted if wanted is not None else node.needs_input_grad
            args[1 + i] = <PyObject*>needs
        elif slot >= 0:
            args[1 + i] = <PyObject*>values[slot]
        else:
            args[1 + i] = <PyObject*>attrs[-1 - slot]
    return PyObject_Vectorcall(rule, args, 1 + n, NULL)


cdef object run_rules(GradNode node, object grads, tuple values, tuple wanted=None):
    """Run the node's gradient rules on what it kept (``values``, unpacked): one
    gradient (or None) per input. ``grads`` is the output's gradient, or a list per
    output for an op with ``multi_output``. ``wanted`` (None: every input with an edge)
    says per input whether the pass needs its gradient; the rules of the others do not
    run."""
    cdef Op op = node.op
    cdef Py_ssize_t i, n
    cdef tuple results, rules
    if not op.per_input:
        return _call_rule(op.vjp, <tuple?>op._reads[0], grads, values, node, wanted)
    rules = <tuple>op.vjp
    n = len(node.next_nodes) - (len(node.linked) if node.linked else 0)
    if len(rules) != n:
        raise RuntimeError(f"{node.name()}: {n} inputs but {len(rules)} rules")
    results = PyTuple_New(n)
    for i in range(n):
        rule = rules[i]
        g = None
        if rule is not None and node.next_nodes[i] is not None and (
                wanted is None or wanted[i]):
            g = _call_rule(rule, <tuple?>op._reads[i], grads, values, node, None)
        Py_INCREF(g)
        PyTuple_SET_ITEM(results, i, g)
    return results


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


cdef raise_released(GradNode node):
    raise RuntimeError(
        f"trying to run backward through {node.name()} a second time, but its saved "
        f"tensors were freed after the first backward. Pass retain_graph=True to the "
        f"first backward() or grad() call if you need to run backward twice.")


@cython.freelist(64)
cdef class GradNode:
    """One recorded call of an op: its record, where its gradients go, what it kept."""

    def name(self):
        """``TanhGradNode`` for built-in ops; custom ops give their full name."""
        return self.op.node_name() if self.op is not None else "GradNode"

    def __repr__(self):
        return f"<{self.name()}>"

    @property
    def needs_input_grad(self):
        """Per input: whether its gradient is needed (a rule may return None for the rest)."""
        return tuple([edge is not None for edge in self.next_nodes])

    @property
    def next_functions(self):
        """Per input: (the node its gradient goes to, that node's output), as PyTorch
        shows a graph; a leaf stands as an ``AccumulateGrad``."""
        return next_functions(self)

    cpdef tuple saved_tensors(self):
        """What the node kept, unpacked (runs unpack hooks, checks versions)."""
        cdef Py_ssize_t i, n
        cdef tuple result
        if self.released:
            raise_released(self)
        if self.saved is None:
            return ()
        n = len(self.saved)
        result = PyTuple_New(n)
        for i in range(n):
            item = self.saved[i]
            if isinstance(item, SavedTensor):
                item = (<SavedTensor>item).unpack(self)
            Py_INCREF(item)
            PyTuple_SET_ITEM(result, i, item)
        return result

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


def _caller_stack():
    """The Python stack of the call that records a node, without pylayer's own frames at
    its end (an op of a plain-Python area would otherwise end it inside the library);
    compiled frames do not show."""
    frames = traceback.extract_stack()
    while len(frames) > 1 and _PACKAGE_DIR in frames[-1].filename:
        frames.pop()
    return "".join(traceback.format_list(frames))


_PACKAGE_DIR = __file__.rsplit("_core", 1)[0]


cdef GradNode new_grad_node(Op op, tuple inputs, tuple attrs):
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
            if t._base is not None:
                refresh_view(t)
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
    node.op = op
    node.attrs = attrs
    node.n_outputs = 1
    node.seq = _next_seq
    _next_seq += 1
    if _anomaly:
        node.creation_stack = _caller_stack()
    return node


cdef inline bint _needs_grad(tuple inputs) except -1:
    if not grad_enabled():
        return False
    for item in inputs:
        if isinstance(item, Tensor):
            if (<Tensor>item)._base is not None:
                refresh_view(<Tensor>item)
            if not (<Tensor>item)._stop_gradient:
                return True
    return False


cdef inline void _mark_view(Tensor out, object inputs):
    """A view op's output that shares its first input's memory is an alias of it."""
    cdef Tensor source
    if len(inputs) and isinstance(inputs[0], Tensor):
        source = <Tensor>inputs[0]
        if _within(out._array, source._array):
            make_alias(out, source, True)


cdef bint _within(object view, object base):
    """Whether ndarray ``view``'s first element lies in ``base``'s memory."""
    cdef cnp.ndarray b = <cnp.ndarray>base
    cdef char *start = <char*>cnp.PyArray_DATA(b)
    cdef char *low = start
    cdef char *high = start
    cdef char *first = <char*>cnp.PyArray_DATA(<cnp.ndarray>view)
    cdef Py_ssize_t i, reach
    if cnp.PyArray_SIZE(b) == 0 or cnp.PyArray_SIZE(<cnp.ndarray>view) == 0:
        return False
    for i in range(cnp.PyArray_NDIM(b)):
        reach = (cnp.PyArray_DIM(b, i) - 1) * cnp.PyArray_STRIDE(b, i)
        if reach < 0:
            low += reach
        else:
            high += reach
    return low <= first < high + cnp.PyArray_ITEMSIZE(b)


def needs_grad(*inputs):
    """True when an op on ``inputs`` would be recorded (grad mode on, some input needs a gradient).

    >>> import pylayer as paddle
    >>> from pylayer.extend import needs_grad
    >>> needs_grad(paddle.ones([1])), needs_grad(paddle.to_tensor([1.0], stop_gradient=False))
    (False, True)
    """
    return _needs_grad(inputs)


cdef inline int _check_call(str fn, object op, object inputs, object attrs) except -1:
    if type(op) is not Op:
        raise TypeError(f"{fn}(): argument 'op' must be an Op, got {type(op).__name__}")
    if type(inputs) is not tuple or type(attrs) is not tuple \
            or ((<Op>op).n_inputs >= 0 and len(<tuple>inputs) != (<Op>op).n_inputs) \
            or len(<tuple>attrs) != (<Op>op).n_attrs:
        refuse_call(fn, op, inputs, attrs)
    return 0


cdef tuple _keep(Op op, tuple inputs, list outputs):
    """What the node keeps, in the order of ``op.keeps``: tensors saved, numbers as they are."""
    cdef Py_ssize_t i, n = op.n_kept
    cdef Py_ssize_t source
    cdef tuple kept = PyTuple_New(n)
    for i in range(n):
        source = op._keep_source[i]
        if source >= 0:
            value = inputs[source]
            if isinstance(value, Tensor):
                value = save_tensor(<Tensor>value, -1)
        else:
            value = outputs[-1 - source]
            if isinstance(value, Tensor):
                value = save_tensor(<Tensor>value, -1 - source)
        Py_INCREF(value)
        PyTuple_SET_ITEM(kept, i, value)
    return kept


cpdef Tensor make_output(object op, object array, object inputs, object attrs=()):
    """Wrap an op's result and, when a gradient is needed, record its node: ``inputs``
    and ``attrs`` in the order its record ``op`` names them. The record must name one
    output (several: :func:`make_outputs`).

    >>> import pylayer as paddle
    >>> from pylayer import extend
    >>> CUBE = extend.Op("cube", keeps=("x",), vjp=(lambda g, x: g * 3.0 * x * x,))
    >>> x = paddle.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    >>> y = extend.make_output(CUBE, x.numpy() ** 3, (x,))
    >>> y.sum().backward()
    >>> x.grad.numpy()
    array([ 3., 12.])
    """
    cdef Tensor out
    cdef GradNode node
    _check_call("make_output", op, inputs, attrs)
    if len((<Op>op).outputs) != 1:
        check_outputs("make_output", op, 1)
    array = result_array(array, "make_output", "array")
    if not _needs_grad(inputs):
        out = wrap(array, True)
    else:
        out = wrap(array, False)
        node = new_grad_node(op, inputs, attrs)
        if (<Op>op).keeps:
            node.saved = _keep(op, inputs, [out])
        out._node = node
    if (<Op>op).view:
        _mark_view(out, inputs)
    return out


def make_outputs(op, arrays, inputs, attrs=(), non_differentiable=()):
    """Like make_output for an op with several outputs: one Tensor per array, as many as
    the record names (any number for a ``multi_output`` record of one name); the
    outputs at the indices ``non_differentiable`` get no gradient.

    >>> import pylayer as paddle
    >>> from pylayer import extend
    >>> HALVES = extend.Op("halves", multi_output=True,
    ...                    vjp=(lambda gs: paddle.concat([g if g is not None else paddle.zeros([1])
    ...                                                   for g in gs]),))
    >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> a, b = extend.make_outputs(HALVES, [x.numpy()[:1], x.numpy()[1:]], (x,))
    >>> a.backward()
    >>> x.grad.numpy()
    array([1., 0.], dtype=float32)
    """
    cdef GradNode node
    cdef Tensor t
    cdef Py_ssize_t i
    _check_call("make_outputs", op, inputs, attrs)
    if not isinstance(arrays, (list, tuple)) or not arrays:
        raise TypeError(f"make_outputs(): argument 'arrays' must be a non-empty list of arrays, "
                        f"got {type(arrays).__name__}")
    check_outputs("make_outputs", op, len(arrays))
    arrays = [result_array(a, "make_outputs", "arrays") for a in arrays]
    if not isinstance(non_differentiable, tuple) or any(
            type(i) is not int or not 0 <= i < len(arrays) for i in non_differentiable):
        raise TypeError(f"make_outputs(): argument 'non_differentiable' must be a tuple of "
                        f"output indices below {len(arrays)}, got {non_differentiable!r}")
    if not _needs_grad(inputs):
        return _marked(op, [wrap(a, True) for a in arrays], inputs)
    node = new_grad_node(op, inputs, attrs)
    node.n_outputs = len(arrays)
    node.out_meta = tuple([(a.shape, a.dtype) for a in arrays])
    outs = []
    for i, a in enumerate(arrays):
        t = wrap(a, i in non_differentiable)
        if i not in non_differentiable:
            t._node = node
            t._out_index = i
        outs.append(t)
    if op.keeps:
        node.saved = _keep(op, inputs, outs)
    return _marked(op, outs, inputs)


cdef list _marked(Op op, list outs, object inputs):
    """``outs``, each made an alias of the first input when ``op`` is a view op."""
    if op.view:
        for t in outs:
            _mark_view(<Tensor>t, inputs)
    return outs


def new_node(Op op not None, tuple inputs, tuple attrs=(), Py_ssize_t n_outputs=1,
             GradNode edges_first_from=None):
    """A node for ops that attach their outputs themselves (a PyLayer's, with
    :func:`set_history`). ``edges_first_from`` puts that node's edges before the ones
    of ``inputs`` (its rule returns gradients for both)."""
    cdef GradNode node
    if n_outputs < 1:
        raise ValueError(f"new_node(): argument 'n_outputs' must be at least 1, got {n_outputs}")
    _check_call("new_node", op, inputs, attrs)
    node = new_grad_node(op, inputs, attrs)
    node.n_outputs = n_outputs
    if edges_first_from is not None:
        for edge in edges_first_from.next_nodes:
            if isinstance(edge, GradNode):
                (<GradNode>edge).uses += 1
        node.next_nodes = edges_first_from.next_nodes + node.next_nodes
        node.next_indices = edges_first_from.next_indices + node.next_indices
    return node


def link_inputs(GradNode node not None, tuple tensors not None):
    """Give ``node`` an edge to each of ``tensors`` that needs a gradient, after its
    op's inputs, carrying zeros in backward (see pylayer._core.gradient_link)."""
    for item in tensors:
        if not isinstance(item, Tensor):
            raise TypeError(f"link_inputs(): argument 'tensors' must hold Tensors, got "
                            f"{type(item).__name__}")
    link_edges(node, tensors)


cdef link_edges(GradNode node, tuple tensors):
    """``link_inputs`` for ``tensors`` known to be Tensors."""
    cdef Tensor t
    cdef Py_ssize_t i, k = 0, n = len(tensors)
    cdef tuple edges, indices, meta
    if node.released:
        raise_released(node)
    for i in range(n):
        if not (<Tensor>tensors[i])._stop_gradient:
            k += 1
    edges = PyTuple_New(k)
    indices = PyTuple_New(k)
    meta = PyTuple_New(k)
    k = 0
    for i in range(n):
        t = <Tensor>tensors[i]
        if t._stop_gradient:
            continue
        edge = t if t._node is None else t._node
        if isinstance(edge, GradNode):
            (<GradNode>edge).uses += 1
        index = t._out_index
        shape_dtype = (t._array.shape, t._array.dtype)
        Py_INCREF(edge)
        PyTuple_SET_ITEM(edges, k, edge)
        Py_INCREF(index)
        PyTuple_SET_ITEM(indices, k, index)
        Py_INCREF(shape_dtype)
        PyTuple_SET_ITEM(meta, k, shape_dtype)
        k += 1
    node.next_nodes = node.next_nodes + edges
    node.next_indices = node.next_indices + indices
    node.linked = meta if node.linked is None else node.linked + meta


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
