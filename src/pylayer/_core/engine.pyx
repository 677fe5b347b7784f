"""The backward engine: running the graph that ``_graph`` records.

Backward needs no dependency count: a node's sequence number is larger than
those of the nodes it consumes, so a pass runs the nodes it reaches from a
heap in decreasing sequence order, and by the time a node comes out, every
node that feeds it a gradient has run. It never recurses.

Everything one pass knows lives in the pass (``_Pass``), never on the shared
graph: which nodes it reached, and the gradients summed for each so far. So
a backward started inside another one (from a hook or a PyLayer's backward),
or two threads running backward over one graph with ``retain_graph=True``,
cannot see each other's state.

Gradients that fan in are summed by HIPS autograd's rule: the first gradient
is kept as it came, the second makes a new array for the sum (a ``_Sum``), and
later ones are added into that array in place. A ``_Sum`` is the only memory a
pass ever writes into: it made that array, and no user code has seen it,
because a sum is unwrapped when its node runs or its leaf is reached.
"""
import threading

import numpy as np

cimport cython
cimport numpy as cnp
from libc.string cimport memset
from operator import attrgetter

from pylayer._core.gradient_link import GRADIENT_LINK
from pylayer._kernels.loops cimport ADDITION, small_add_into, small_binary
from pylayer._kernels.buffers cimport buffer_like, pooled_new
from pylayer._kernels.dtypes import is_floating
from pylayer._core.tensor cimport (Tensor, wrap, grad_enabled, set_grad_mode, elementwise,
                                   has_no_data, installed, refresh_view)
from pylayer._core.tensor import unmade_tensor_error, hooked_leaves
from pylayer._core.graph cimport (GradNode, Op, RetainedGrad, SavedTensor, anomaly_enabled,
                                  link_edges, make_output, next_seq, raise_released, run_rules)

cnp.import_array()

__all__ = ["run_backward"]


# ----------------------------------------------------------------- sums
@cython.final
@cython.no_gc
cdef class _Sum:
    """A fan-in sum the running pass allocated; the pass may add into it in place."""
    cdef Tensor tensor


cdef inline _Sum _new_sum(object array):
    cdef _Sum s = _Sum.__new__(_Sum)
    s.tensor = wrap(array, True)
    return s


cdef inline object _gradient(object entry):
    """The gradient a buffer entry holds (a Tensor, or None)."""
    if type(entry) is _Sum:
        return (<_Sum>entry).tensor
    return entry


cdef object _sum_arrays(object a, object b):
    """A new array a + b (one C loop for small arrays of one float layout)."""
    out = small_binary(ADDITION, a, b)
    if out is None:
        out = np.asarray(elementwise(ADDITION, a, b))    # numpy adds 0-d arrays into a scalar
    return out


cdef inline bint _alike(Tensor a, Tensor b):
    return (cnp.PyArray_TYPE(<cnp.ndarray>a._array) == cnp.PyArray_TYPE(<cnp.ndarray>b._array)
            and cnp.PyArray_SAMESHAPE(<cnp.ndarray>a._array, <cnp.ndarray>b._array))


cdef object _accumulate(object entry, Tensor g, bint create_graph, dict zeros):
    """A buffer entry (None, a gradient, or a _Sum) plus the gradient ``g``. ``zeros``
    (None: no such) holds the pass's link zeros (``_link_zeros``) by id: adding one to
    a gradient of its shape and dtype gives that gradient, with no recorded add."""
    cdef Tensor current
    cdef cnp.ndarray acc
    if entry is None:
        return g
    if zeros is not None:
        if id(g) in zeros and _alike(<Tensor>_gradient(entry), g):
            return entry
        if type(entry) is not _Sum and id(entry) in zeros and _alike(<Tensor>entry, g):
            return g
    if create_graph:
        return installed("add")(_gradient(entry), g)        # recorded, so it can be differentiated
    if type(entry) is _Sum:
        acc = <cnp.ndarray>(<_Sum>entry).tensor._array
        if (cnp.PyArray_SAMESHAPE(acc, <cnp.ndarray>g._array)
                and cnp.PyArray_CanCastSafely(cnp.PyArray_TYPE(<cnp.ndarray>g._array),
                                              cnp.PyArray_TYPE(acc))):
            if not small_add_into(acc, g._array):
                np.add(acc, g._array, out=acc, casting="unsafe")
            return entry
        current = (<_Sum>entry).tensor
    else:
        current = <Tensor>entry
    return _new_sum(_sum_arrays(current._array, g._array))


# ---------------------------------------------------------- the pass
@cython.final
@cython.no_gc
@cython.freelist(64)
cdef class _Slot:
    """A node a pass has reached, and the gradients that reached it so far: one entry
    (None, a gradient or a _Sum) for a node with one output, else a list with one
    entry per output."""
    cdef GradNode node
    cdef unsigned long long seq
    cdef object buffer
    cdef bint pending                  # in the pass's ``pending`` (may be met again)


@cython.final
cdef class _Pass:
    """One backward pass: the nodes it reached and what has reached each.

    ``ready`` is a heap of the reached nodes' slots, newest node first. A node
    that another edge may reach again (one used more than once, or a root) is
    also found through ``pending``, from the node to its slot, until it runs; a
    node used once is reached once, so its slot needs no lookup. A node never
    comes back once it has run: every node still to come is older."""
    cdef bint create_graph
    cdef list ready                    # the heap of slots in ready[:n_ready] (see _push_ready)
    cdef Py_ssize_t n_ready
    cdef tuple roots                   # the root nodes
    cdef dict pending
    cdef dict zeros                    # id -> the link zeros made so far (None: none)

    cdef inline bint may_meet_again(self, GradNode node):
        if node.uses > 1:
            return True
        for root in self.roots:
            if root is node:
                return True
        return False

    cdef void enter(self, GradNode node, Py_ssize_t index, object g) except *:
        """Reach ``node`` and add ``g`` (a Tensor or None) to the gradient of its output
        ``index``."""
        cdef _Slot slot
        cdef list per_output
        cdef bint again = self.may_meet_again(node)
        if index < 0 or index >= node.n_outputs:
            raise IndexError(f"{node.name()} has {node.n_outputs} output(s); a gradient for "
                             f"output {index} cannot reach it")
        if again:
            found = self.pending.get(node)
            if found is not None:
                slot = <_Slot>found
                if g is not None:
                    if node.n_outputs == 1:
                        slot.buffer = _accumulate(slot.buffer, <Tensor>g, self.create_graph,
                                                  self.zeros)
                    else:
                        per_output = <list>slot.buffer
                        per_output[index] = _accumulate(per_output[index], <Tensor>g,
                                                        self.create_graph, self.zeros)
                return
        slot = _Slot.__new__(_Slot)
        slot.node = node
        slot.seq = node.seq
        if node.n_outputs == 1:
            slot.buffer = g
        else:
            per_output = [None] * node.n_outputs
            per_output[index] = g
            slot.buffer = per_output
        _push_ready(self, slot)
        if again:
            self.pending[node] = slot
            slot.pending = True

    cdef object take(self, _Slot slot):
        """The gradients that reached the slot's node, every _Sum unwrapped (user code
        may see them from now on); the pass no longer looks the node up."""
        cdef Py_ssize_t i
        entry_value = slot.buffer
        slot.buffer = None
        if slot.pending:
            del self.pending[slot.node]
        if slot.node.n_outputs == 1:
            return _gradient(entry_value)
        for i in range(slot.node.n_outputs):
            (<list>entry_value)[i] = _gradient((<list>entry_value)[i])
        return entry_value


cdef _Pass _open_pass(bint create_graph):
    cdef _Pass p = _Pass.__new__(_Pass)
    p.create_graph = create_graph
    p.ready = []
    p.pending = {}
    return p


# The ready queue: a binary heap of slots in ``p.ready[:p.n_ready]``, newest node (largest
# seq) first. The list never shrinks during a pass (a popped place holds None), so a chain,
# where the heap goes from one slot to none at every node, does not free and regrow it.
# Every index below lies in [0, p.n_ready) by the loop conditions, and p.n_ready <=
# len(p.ready) (only these two functions change either), so Cython need not check them.
@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _push_ready(_Pass p, _Slot slot) except *:
    cdef list heap = p.ready
    cdef Py_ssize_t i = p.n_ready, parent
    if i == len(heap):
        heap.append(slot)
    p.n_ready = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if (<_Slot>heap[parent]).seq >= slot.seq:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = slot


@cython.boundscheck(False)
@cython.wraparound(False)
cdef _Slot _pop_ready(_Pass p):
    cdef list heap = p.ready
    cdef Py_ssize_t n = p.n_ready - 1, i = 0, child
    cdef _Slot top = <_Slot>heap[0]
    cdef _Slot last = <_Slot>heap[n]
    heap[n] = None
    p.n_ready = n
    if n == 0:
        return top
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and (<_Slot>heap[child + 1]).seq > (<_Slot>heap[child]).seq:
            child += 1
        if (<_Slot>heap[child]).seq <= last.seq:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = last
    return top


# --------------------------------------------------------- user code
cdef object _run_hooks(list hooks, object g):
    """Run gradient hooks in the order they were registered; a hook may replace the
    gradient. A retained gradient takes the gradient as it is at its place in
    that order, as Paddle's does."""
    cdef Tensor owner
    for hook in list(hooks):
        if type(hook) is RetainedGrad:
            owner = (<RetainedGrad>hook).owner()
            if owner is not None:
                owner._grad = wrap((<Tensor>g)._array, True)
            continue
        result = hook(g)
        if result is not None:
            if not isinstance(result, Tensor):
                raise TypeError(f"a tensor hook must return a Tensor or None, "
                                f"got {type(result).__name__}")
            if has_no_data(<Tensor>result):
                raise unmade_tensor_error(result, f"the gradient that the tensor hook "
                                                  f"{getattr(hook, '__qualname__', hook)!r} "
                                                  f"returned")
            if (<Tensor>result)._array.shape != (<Tensor>g)._array.shape:
                # It would broadcast in the rules after it: a silently wrong gradient.
                raise RuntimeError(f"the tensor hook {getattr(hook, '__qualname__', hook)!r} "
                                   f"returned a gradient of shape "
                                   f"{list((<Tensor>result)._array.shape)} for a gradient "
                                   f"of shape {list((<Tensor>g)._array.shape)}; a hook may "
                                   f"change the gradient's values, not its shape")
            g = result
    return g


cdef object _zeros(object shape, object dtype):
    """``np.zeros(shape, dtype)``, on pooled memory when large (zeroed by memset: numpy's
    ``fill(0)`` runs a strided copy loop; a pooled array is C-contiguous, of a numeric
    dtype whose zero is all zero bytes)."""
    array = pooled_new(shape, <cnp.dtype>dtype) if isinstance(dtype, cnp.dtype) else None
    if array is None:
        return np.zeros(shape, dtype)
    memset(cnp.PyArray_DATA(<cnp.ndarray>array), 0, cnp.PyArray_NBYTES(<cnp.ndarray>array))
    return array


cdef object _zeros_for(GradNode node, Py_ssize_t index):
    shape, dtype = node.out_meta[index]
    return wrap(_zeros(shape, dtype), True)


cdef object _observe(GradNode node, object grads, dict capture_nodes, dict captured):
    """Run the output hooks (and retained gradients), and note the gradients that
    ``grad()`` asked for. ``grads`` is as ``_Pass.take`` gives it; returns it in the
    same form, with the hooks' results.

    An output of a built-in op with several outputs that got no gradient shows
    its hooks zeros (the gradient it contributes), as Paddle does."""
    cdef bint single = node.n_outputs == 1
    cdef list per_output = [grads] if single else <list>grads
    cdef Py_ssize_t index
    if node._output_hooks:
        for key, hooks in list(node._output_hooks.items()):
            index = key
            if not hooks or not 0 <= index < node.n_outputs:
                continue
            if not isinstance(hooks, list):
                raise TypeError(f"{node.name()}: the hooks of output {index} must be a list")
            g = per_output[index]
            if g is None and not single and not node.op.user_code:
                g = _zeros_for(node, index)
            if g is not None:
                per_output[index] = _run_hooks(<list>hooks, g)
    if capture_nodes is not None:
        indices = capture_nodes.get(node)
        if indices is not None:
            for key in indices:
                captured[(node, key)] = per_output[<Py_ssize_t>key]
    return per_output[0] if single else per_output


cdef object _nan_check(GradNode node, object results):
    for r in results:
        if isinstance(r, Tensor) and is_floating((<Tensor>r)._array.dtype) \
                and np.isnan((<Tensor>r)._array).any():
            raise RuntimeError(
                f"anomaly detected: {node.name()} returned NaN values in its gradient.\n"
                f"The forward call that created this node:\n{node.creation_stack}")


cdef object _call_backward(_Pass p, GradNode node, object grads, tuple wanted):
    """Run one node's backward and check that it returned one gradient per input (the
    loop checks each). ``grads`` is the gradient itself for a node with one output,
    else a list; ``wanted`` (None: all) the inputs whose gradients the pass needs."""
    cdef Py_ssize_t n = len(node.next_nodes)
    cdef tuple values = ()
    cdef unsigned long long since = next_seq()
    try:
        if node.released:
            raise_released(node)
        if node.saved:
            values = node.saved_tensors()
        results = run_rules(node, [grads] if node.n_outputs == 1 and node.op.multi_output
                            else grads, values, wanted)
    except Exception as exc:
        if anomaly_enabled() and node.creation_stack:
            exc.add_note(f"The forward call that created {node.name()}:\n{node.creation_stack}")
        raise
    if node.linked and isinstance(results, (tuple, list)) and len(results) == n - len(node.linked):
        results = tuple(results) + _link_zeros(p, node, wanted, n - len(node.linked))
    if not isinstance(results, (tuple, list)) or len(results) != n:
        raise RuntimeError(f"{node.name()}: backward returned {results!r}, expected "
                           f"{n} gradient(s)")
    if node.op.n_kept and grad_enabled():
        results = _link_to_kept_inputs(node.op, values, results, since)
    if anomaly_enabled():
        _nan_check(node, results)
    return results


cdef tuple _link_zeros(_Pass p, GradNode node, tuple wanted, Py_ssize_t first):
    """The gradients of a node's linked edges (from edge ``first`` on): zeros, None for
    an edge the pass does not need (``wanted``). The pass notes them (``p.zeros``) so
    that adding one to another gradient records nothing."""
    cdef list out = []
    cdef Py_ssize_t i = first
    for shape, dtype in node.linked:
        out.append(None if wanted is not None and not wanted[i] else _new_zero(p, shape, dtype))
        i += 1
    return tuple(out)


cdef Tensor _new_zero(_Pass p, object shape, object dtype):
    """A new zero gradient (its own memory: it may reach the caller) noted as one."""
    cdef Tensor z = wrap(_zeros(shape, dtype), True)
    if p.zeros is None:
        p.zeros = {}
    p.zeros[id(z)] = z
    return z


cdef bint _only_zeros(_Pass p, object grads):
    """Whether every gradient that reached a node is a link zero (or none)."""
    if p.zeros is None or grads is None:
        return False
    if isinstance(grads, Tensor):
        return id(grads) in p.zeros
    for g in <list>grads:
        if g is not None and id(g) not in p.zeros:
            return False
    return True


cdef object _zero_results(_Pass p, GradNode node, tuple wanted):
    """The results of a node that only zeros reached, without running its rules: a zero
    (of the input's shape and dtype) per input whose rule the pass would run, None
    for the others. Rules are linear in the gradient, so they would give zeros too
    (this is the work the kept-input links would otherwise cause: whole subgraphs
    run on zeros). None when an input's shape is not known without running it: the
    node then runs as usual."""
    cdef Op op = node.op
    cdef tuple nexts = node.next_nodes
    cdef tuple rules, saved
    cdef Py_ssize_t i, k, n = len(nexts), n_rules
    cdef list out
    cdef SavedTensor kept
    if op.user_code or not op.per_input or node.released or node.saved is None and op.n_kept:
        return None
    rules = <tuple>op.vjp
    n_rules = n - (len(node.linked) if node.linked else 0)
    if n_rules != len(rules):
        return None
    saved = node.saved if node.saved is not None else ()
    out = [None] * n
    for i in range(n):
        child = nexts[i]
        if child is None or (wanted is not None and not wanted[i]):
            continue
        if i >= n_rules:
            shape, dtype = node.linked[i - n_rules]
        elif rules[i] is None:
            continue
        elif isinstance(child, Tensor):
            shape, dtype = (<Tensor>child)._array.shape, (<Tensor>child)._array.dtype
        else:
            shape = None
            for k in range(min(op.n_kept, len(saved))):
                if op._keep_source[k] == i and isinstance(saved[k], SavedTensor):
                    kept = <SavedTensor>saved[k]
                    if not kept.hooked and isinstance(kept.tensor, Tensor):
                        shape = (<Tensor>kept.tensor)._array.shape
                        dtype = (<Tensor>kept.tensor)._array.dtype
                    break
            if shape is None:
                return None
        out[i] = _new_zero(p, shape, dtype)
    if op.n_kept:
        node.saved_tensors()        # the version checks the rules' run would make
    return tuple(out)


cdef tuple _link_to_kept_inputs(Op op, tuple values, object results,
                                unsigned long long since):
    """``results`` (one gradient or None per input of an ``op`` node, recorded with
    create_graph), each gradient made to also depend on the inputs the node kept
    (``values``, in the order of ``op.keeps``) that need a gradient, as Paddle's
    gradient ops do (see pylayer._core.gradient_link). ``since``: the sequence number
    of the first node the rules may have made."""
    cdef list kept = []
    cdef list linked = []
    cdef list out = []
    cdef tuple kept_inputs
    cdef Py_ssize_t i
    cdef GradNode made
    if op.inputs is None:
        return tuple(results)
    for i in range(min(op.n_kept, len(values))):
        value = values[i]
        if (op._keep_source[i] >= 0 and isinstance(value, Tensor)
                and not (<Tensor>value)._stop_gradient):
            kept.append(value)
    if not kept:
        return tuple(results)
    kept_inputs = tuple(kept)
    for g in results:
        if not isinstance(g, Tensor) or (<Tensor>g)._stop_gradient:
            out.append(g)
            continue
        node = (<Tensor>g)._node
        if isinstance(node, GradNode) and (<GradNode>node).seq >= since \
                and not (<GradNode>node).op.user_code:
            made = <GradNode>node
            for seen in linked:
                if seen is made:
                    break
            else:
                link_edges(made, kept_inputs)
                linked.append(made)
            out.append(g)
        else:
            like = tuple([((<Tensor>t)._array.shape, (<Tensor>t)._array.dtype) for t in kept])
            out.append(make_output(GRADIENT_LINK, (<Tensor>g)._array, (g,) + kept_inputs,
                                   (like,)))
    return tuple(out)


_by_sequence = attrgetter("seq")


cdef set _input_leaves(object inputs):
    """The ids of the leaves among ``inputs``."""
    cdef set leaf_ids = set()
    for t in inputs:
        if isinstance(t, Tensor) and (<Tensor>t)._node is None:
            leaf_ids.add(id(t))
    return leaf_ids


cdef tuple _wanted_inputs(GradNode node, set needed, set leaf_ids, dict capture_nodes):
    """Per input of ``node`` (a node the pass must run): whether its gradient leads to
    one of the inputs (a needed node, an input leaf, or an output asked for)."""
    cdef tuple children = node.next_nodes
    cdef tuple indices = node.next_indices
    cdef Py_ssize_t i, n = len(children)
    cdef list flags = [False] * n
    for i in range(n):
        child = children[i]
        if child is None:
            continue
        if isinstance(child, Tensor):
            flags[i] = id(child) in leaf_ids
        else:
            flags[i] = child in needed or (child in capture_nodes
                                           and indices[i] in capture_nodes[child])
    return tuple(flags)


cdef set _nodes_leading_to(list roots, set leaf_ids, dict capture_nodes):
    """The nodes reachable from the nodes ``roots`` (None for a leaf root) whose backward
    reaches a leaf of ``inputs`` or an output ``capture_nodes`` asks for (``{node:
    [output index, ...]}``): the nodes a ``grad(inputs=...)`` must run.

    A node's inputs come from nodes with smaller sequence numbers, so visiting the
    reachable nodes in increasing sequence order settles each one in a single
    pass: all its children were decided before it."""
    cdef set needed = set()
    cdef set seen = set()
    cdef list order = []
    cdef list stack = [node for node in roots if node is not None]
    cdef GradNode node
    cdef tuple children, indices
    cdef Py_ssize_t i
    cdef bint hit
    while stack:
        node = <GradNode>stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        for child in node.next_nodes:
            if isinstance(child, GradNode) and child not in seen:
                stack.append(child)
    order.sort(key=_by_sequence)
    for node in order:
        children = node.next_nodes
        indices = node.next_indices
        for i in range(len(children)):
            child = children[i]
            if child is None:
                continue
            if isinstance(child, Tensor):
                hit = id(child) in leaf_ids
            else:
                hit = child in needed or (capture_nodes and child in capture_nodes
                                          and indices[i] in capture_nodes[child])
            if hit:
                needed.add(node)
                break
    return needed


cdef bint _any_gradient(object grads):
    if grads is None:
        return False
    if isinstance(grads, Tensor):
        return True
    for g in <list>grads:
        if g is not None:
            return True
    return False


# ---------------------------------------------------------- run_backward
# Accumulation into leaves is one step for all threads: a pass reads a
# leaf's .grad and stores the sum, and numpy releases the GIL in between.
_leaf_lock = threading.Lock()


def run_backward(list tensors, list grad_tensors, bint retain_graph=False,
                 bint create_graph=False, inputs=None, bint allow_unused=False,
                 blocked=None):
    """Backpropagate from ``tensors`` (with one gradient Tensor or None each; the callers
    in ``pylayer.autograd.functional`` check shapes).

    Without ``inputs``: accumulate into the ``.grad`` of the leaves. With
    ``inputs``: return their gradients in a list and leave every ``.grad``
    untouched. No gradient flows through the tensors in ``blocked``.

    The steps: the roots' gradients, the nodes that can reach ``inputs`` (only
    with ``inputs``) or the edges into each leaf (without), the node loop, which
    delivers each leaf's gradient as soon as it is complete, and the delivery to
    the caller.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([3.0], stop_gradient=False)
    >>> run_backward([x * x], [None], inputs=[x])[0].numpy()
    array([6.], dtype=float32)
    """
    cdef Tensor t
    cdef dict leaf_grads = {}
    cdef dict leaf_objs = {}
    cdef dict captured = None
    cdef dict capture_nodes = None
    cdef set needed = None
    cdef set leaf_ids = None
    cdef set cut = None
    cdef dict leaf_edges = None
    cdef _Pass p

    if len(tensors) != len(grad_tensors):
        raise ValueError(f"run_backward(): {len(tensors)} tensors but {len(grad_tensors)} "
                         f"gradients; pass one gradient (or None) per tensor")
    for item in tensors:
        refresh_view(<Tensor?>item)
    if inputs is not None:
        captured = {}
        capture_nodes = {}
        for item in inputs:
            t = <Tensor?>item
            refresh_view(t)
            if t._node is not None:
                capture_nodes.setdefault(t._node, []).append(t._out_index)

    if blocked:
        cut = set()
        for item in blocked:
            t = <Tensor?>item
            cut.add((t._node, t._out_index) if t._node is not None else id(t))

    p = _open_pass(create_graph)
    roots = _roots(tensors, grad_tensors, create_graph)
    p.roots = tuple([(<Tensor>t)._node for t, g in roots if (<Tensor>t)._node is not None])
    if inputs is not None:
        leaf_ids = _input_leaves(inputs)
        needed = _nodes_leading_to([(<Tensor>t)._node for t, g in roots], leaf_ids,
                                   capture_nodes)
    elif hooked_leaves:
        # Only a hook sees when a leaf's gradient arrives, so the walk that lets a leaf
        # be delivered as soon as it is complete is made only while a hooked leaf lives.
        leaf_edges = _leaf_edge_counts(p.roots)
    for t, g in roots:
        if t._node is None:
            _leaf_add(leaf_grads, leaf_objs, t, g, create_graph, None)
        else:
            p.enter(<GradNode>t._node, t._out_index, g)
    previous_mode = set_grad_mode(create_graph)
    try:
        _node_loop(p, retain_graph, needed, leaf_ids, cut, capture_nodes, captured,
                   leaf_grads, leaf_objs, leaf_edges, previous_mode)
    finally:
        set_grad_mode(previous_mode)

    if inputs is None:
        _deliver_to_leaves(leaf_grads, leaf_objs, create_graph)   # the roots that are leaves
        return None
    found = []
    for item in inputs:
        t = <Tensor>item
        if t._node is None:
            g = _gradient(leaf_grads.get(id(t)))
            if g is not None and t._hooks:
                g = _run_hooks(t._hooks, g)
        else:
            g = captured.get((t._node, t._out_index))
        if g is not None:
            g = _in_dtype_of(t, <Tensor>g, create_graph)
            if not create_graph:
                g = wrap((<Tensor>g)._array, True)   # the caller's own Tensor object
        found.append(g)
    return found


cdef list _roots(list tensors, list grad_tensors, bint create_graph):
    """``[(tensor, starting gradient)]`` for the roots that need a gradient."""
    cdef Tensor t
    cdef list roots = []
    for item, g in zip(tensors, grad_tensors):
        t = <Tensor?>item
        if t._stop_gradient:
            continue
        g = _root_grad(t, g, create_graph)
        if t._node is not None and (<GradNode>t._node).released:
            raise_released(<GradNode>t._node)
        roots.append((t, g))
    return roots


cdef object _root_grad(Tensor t, object g, bint create_graph):
    """The starting gradient for ``t``: ones by default, else ``g`` (a Tensor of t's shape).

    A boolean or integer gradient is cast to ``t``'s dtype, so that several
    root gradients sum as numbers (bools would OR, ints truncate). A float one
    of another precision is kept, as Paddle does (a PyLayer's
    ``set_grad_in_dtype_consistent(False)`` sees it)."""
    if g is None:
        ones = np.empty_like(t._array)
        ones.fill(1)
        return wrap(ones, True)
    if not isinstance(g, Tensor):
        raise TypeError(f"run_backward(): a starting gradient must be a Tensor or None, "
                        f"got {type(g).__name__}")
    if has_no_data(<Tensor>g):
        raise unmade_tensor_error(g, "run_backward(): a starting gradient (grad_tensor or "
                                     "grad_outputs)")
    if not is_floating((<Tensor>g)._array.dtype) and (<Tensor>g)._array.dtype != t._array.dtype:
        if create_graph:
            return installed("cast")(g, t._array.dtype)
        return wrap((<Tensor>g)._array.astype(t._array.dtype), True)
    return g


cdef object _in_dtype_of(Tensor t, Tensor g, bint create_graph):
    """A gradient has its input's dtype, like a leaf's .grad (Paddle does so too)."""
    if g._array.dtype == t._array.dtype:
        return g
    if create_graph:
        return installed("cast")(g, t._array.dtype)
    return wrap(g._array.astype(t._array.dtype), True)


cdef void _node_loop(_Pass p, bint retain_graph, set needed, set leaf_ids, set cut,
                     dict capture_nodes, dict captured, dict leaf_grads,
                     dict leaf_objs, dict leaf_edges, bint previous_mode) except *:
    """Run the reached nodes, newest first, passing each one's results on. With
    ``needed`` (a grad(inputs=...) pass), only those nodes run, and only the rules of
    their inputs that lead on to an input. With ``leaf_edges`` (a pass into the
    leaves' ``.grad``, see ``_leaf_edge_counts``), a leaf's gradient is delivered as
    soon as the last edge into it has passed, its hooks running in grad mode
    ``previous_mode`` (the caller's)."""
    cdef GradNode node
    cdef _Slot slot
    cdef Py_ssize_t i, n, remaining
    cdef tuple nexts, indices
    while p.n_ready:
        slot = _pop_ready(p)
        node = slot.node
        grads = p.take(slot)
        if node._output_hooks or capture_nodes is not None:
            grads = _observe(node, grads, capture_nodes, captured)
        nexts = node.next_nodes
        indices = node.next_indices
        n = len(nexts)
        results = None
        if needed is None or node in needed:
            if _any_gradient(grads) or node.op.user_code:
                wanted = None if needed is None else _wanted_inputs(node, needed, leaf_ids,
                                                                    capture_nodes)
                if _only_zeros(p, grads):
                    results = _zero_results(p, node, wanted)
                if results is None:
                    results = _call_backward(p, node, grads, wanted)
                grads = None  # free incoming gradients now: their memory is reused hot
            if not retain_graph:
                node.release()
        for i in range(n):
            child = nexts[i]
            if child is None:
                continue
            g = results[i] if results is not None else None
            if g is not None and (not isinstance(g, Tensor) or has_no_data(<Tensor>g)):
                if isinstance(g, Tensor):
                    raise unmade_tensor_error(g, f"gradient {i} that {node.name()}'s backward "
                                                f"returned")
                raise TypeError(f"{node.name()}: backward returned a {type(g).__name__} as "
                                f"gradient {i}, expected a Tensor or None")
            if cut is not None and g is not None and (
                    id(child) in cut if isinstance(child, Tensor)
                    else (child, indices[i]) in cut):
                g = None
            if isinstance(child, GradNode):
                # Entered even without a gradient, so that it is released too.
                p.enter(<GradNode>child, indices[i], g)
            elif leaf_edges is not None and id(child) in leaf_edges:
                key = id(child)
                if g is not None:
                    _leaf_add(leaf_grads, leaf_objs, <Tensor>child, g, p.create_graph, p.zeros)
                remaining = <Py_ssize_t>leaf_edges[key] - 1
                if remaining:
                    leaf_edges[key] = remaining
                else:
                    del leaf_edges[key]
                    entry = leaf_grads.pop(key, None)
                    if entry is not None:
                        g = None
                        _deliver(<Tensor>child, entry, p.create_graph, previous_mode)
                        entry = None
            elif g is not None:
                if leaf_ids is None or id(child) in leaf_ids:
                    _leaf_add(leaf_grads, leaf_objs, <Tensor>child, g, p.create_graph, p.zeros)
        g = results = None


cdef _leaf_add(dict leaf_grads, dict leaf_objs, Tensor leaf, Tensor g, bint create_graph,
               dict zeros):
    key = id(leaf)
    leaf_grads[key] = _accumulate(leaf_grads.get(key), g, create_graph, zeros)
    leaf_objs[key] = leaf


cdef dict _leaf_edge_counts(tuple roots):
    """Per leaf (by id) that the nodes reachable from ``roots`` feed: how many edges
    of those nodes lead into it. The loop reaches every such node and passes along
    every edge of each (with a gradient or None), so a leaf's count reaches zero
    exactly when its gradient is complete. A node used once (``uses``) that is not
    a root is met once, so only the others need remembering."""
    cdef dict counts = {}
    cdef set seen = set(roots)
    cdef list stack = list(seen)
    cdef bint several_roots = len(stack) > 1     # one root is no other root's child
    cdef GradNode node
    while stack:
        node = <GradNode>stack.pop()
        for child in node.next_nodes:
            if child is None:
                continue
            if isinstance(child, GradNode):
                if (<GradNode>child).uses > 1:
                    if child in seen:
                        continue
                    seen.add(child)
                elif several_roots and child in seen:         # a root
                    continue
                stack.append(child)
            else:
                key = id(child)
                counts[key] = counts.get(key, 0) + 1
    return counts


cdef _deliver(Tensor leaf, object entry, bint create_graph, bint mode):
    """Deliver one leaf's complete gradient during the node loop: its hooks, then its
    ``.grad``, as ``_deliver_to_leaves`` does, in grad mode ``mode``."""
    set_grad_mode(mode)
    try:
        if leaf._hooks:
            entry = _run_hooks(leaf._hooks, _gradient(entry))
        with _leaf_lock:
            _accumulate_leaf(leaf, entry, create_graph)
    finally:
        set_grad_mode(create_graph)


cdef _deliver_to_leaves(dict leaf_grads, dict leaf_objs, bint create_graph):
    """Run the leaves' hooks, then add every gradient to its leaf's ``.grad``."""
    cdef list deliveries = []
    cdef Tensor leaf
    for key, entry in leaf_grads.items():
        leaf = <Tensor>leaf_objs[key]
        if leaf._hooks:
            entry = _run_hooks(leaf._hooks, _gradient(entry))
        deliveries.append((leaf, entry))
    with _leaf_lock:
        for leaf, entry in deliveries:
            _accumulate_leaf(leaf, entry, create_graph)


cdef _accumulate_leaf(Tensor leaf, object entry, bint create_graph):
    """leaf.grad + the gradient ``entry`` (a Tensor, or a _Sum the pass made), in the
    leaf's dtype. A leaf's ``.grad`` owns its memory: a gradient the pass did not
    allocate (a rule's result, which a hook, another leaf or the user may also hold)
    is copied, and a later backward makes a new sum instead of writing into it."""
    cdef Tensor g = <Tensor>_gradient(entry)
    cdef bint owned = type(entry) is _Sum
    if g._array.shape != leaf._array.shape:
        raise RuntimeError(f"a gradient of shape {list(g._array.shape)} reached a leaf of "
                           f"shape {list(leaf._array.shape)}")
    if g._array.dtype != leaf._array.dtype:
        g = <Tensor>_in_dtype_of(leaf, g, create_graph)
        owned = not create_graph
    current = leaf._grad
    if create_graph:
        if current is not None:
            g = <Tensor?>installed("add")(current, g)
        leaf._grad = g
    elif current is not None:
        leaf._grad = wrap(_sum_arrays((<Tensor>current)._array, g._array), True)
    elif owned:
        leaf._grad = g
    else:
        copy = buffer_like(g._array)
        if copy is None:
            copy = np.array(g._array, copy=True)
        else:
            np.copyto(copy, g._array)
        leaf._grad = wrap(copy, True)
    leaf._grad_from_user = False
