"""The backward engine: running the graph that ``_graph`` records.

Backward needs no dependency count: a node's sequence number is larger than
those of the nodes it consumes, so it runs the nodes it reaches from a heap in
decreasing sequence order, and by the time a node comes out, every node that
feeds it a gradient has run. Gradients that fan in to a node are summed in a
per-node buffer. It never recurses.
"""
import threading

import numpy as np

cimport numpy as cnp
from pylayer._kernels cimport SMALL_ARRAY, binary_loop, add_into_loop, check_spans
from pylayer._tensor cimport (Tensor, wrap, set_grad_mode, has_unshared_array, refcount,
                             elementwise)
from pylayer._buffers cimport buffer_like
from pylayer._graph cimport GradNode, anomaly_enabled, raise_released

cnp.import_array()

__all__ = ["run_backward"]


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
        raise_released(node)
    try:
        if node.n_outputs == 1 and not node.multi_output:
            results = node.backward_fn(node, grads)
        elif node.n_outputs == 1:
            results = node.backward_fn(node, [grads])
        else:
            results = node.backward_fn(node, grads)
    except Exception as exc:
        if anomaly_enabled() and node.creation_stack:
            exc.add_note(f"The forward call that created {node.name()}:\n{node.creation_stack}")
        raise
    if anomaly_enabled():
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
            raise_released(<GradNode>t._node)
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
