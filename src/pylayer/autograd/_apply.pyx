"""The compiled half of PyLayer: ``apply``, and the backward of a PyLayer node.

``PyLayer`` and ``PyLayerContext`` (``py_layer.py``) are plain Python classes;
every ``apply`` call runs through here. A call keeps its bookkeeping in its
context, whose compiled base :class:`ContextBase` has a typed field for each
item: the input slots and which of them need a gradient, the outputs' shapes
and dtypes, what ``save_for_backward`` got, and once the node exists the
packed saved tensors and a weak reference to the node. The node holds the
context; nothing holds the node but its outputs, so a graph is freed as soon
as nothing uses it.

The common call (positional Tensor inputs, one Tensor output, no marks)
takes a path without per-call lists or dicts; everything else takes the
general path, which fills the same fields.
"""
cimport cython
from cpython.ref cimport PyObject, Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.weakref cimport PyWeakref_NewRef, PyWeakref_GetObject

import numpy as np

from pylayer.ops._reduction import unbroadcast
from pylayer.ops._shape import cast, reshape
from pylayer._graph import pop_saved_tensors_hooks, push_saved_tensors_hooks
from pylayer._graph cimport (GradNode, SavedTensor, innermost_saved_hooks, new_grad_node,
                             save_tensor)
from pylayer._tensor cimport Tensor, grad_enabled, has_shape, set_grad_mode, wrap
from pylayer.ops.dispatch cimport is_variable, record

cdef extern from "Python.h":
    # value NULL deletes the attribute.
    int PyObject_GenericSetAttr(object obj, object name, PyObject *value) except -1

__all__ = ["ContextBase", "apply", "node_backward", "node_of", "unpack_saved"]

cdef class ContextBase:
    """The compiled storage under ``PyLayerContext``: the bookkeeping of one ``apply`` call.

    ``PyLayerContext`` (a Python class) derives from it; user attributes
    (``ctx.scale = 2``) go to the instance dict, which is only made when one
    is set.

    >>> from pylayer.autograd import PyLayerContext
    >>> ctx = PyLayerContext()
    >>> ctx._node_ref is None, ctx._materialize_grads
    (True, True)
    """
    cdef public object _layer                # the PyLayer subclass
    cdef public tuple _needs                 # per input slot: does it need a gradient
    cdef public object _spans                # None: slot i is input i; else int or list per slot
    cdef public tuple _input_shapes          # per flat input
    cdef public object _output_slots         # None: one Tensor output; else int or list per slot
    cdef public tuple _output_meta           # per flat output: (shape, dtype); None for one output
    cdef public object _output_dtype         # the dtype of a single output
    cdef public tuple _output_shape          # the shape of a single output
    cdef public object _saved                # what save_for_backward got, until packed
    cdef public object _saved_hooks          # the hook pair active when it was called
    cdef public object _packed               # what the node keeps (once _node_ref is set)
    cdef public object _node_ref             # weak reference to the node; None: no node
    cdef public tuple _not_inplace
    cdef public tuple _non_differentiable
    cdef public bint _materialize_grads
    cdef public bint _grad_in_dtype_consistent
    cdef public dict _tensor_attrs           # Tensors the user set as attributes (ctx.y = y)
    cdef public dict _held_outputs           # attributes that were outputs: (array, index)
    cdef dict __dict__
    cdef object __weakref__

    def __cinit__(self):
        self._materialize_grads = True
        self._grad_in_dtype_consistent = True
        self._not_inplace = ()
        self._non_differentiable = ()
        self._needs = ()

    def __setattr__(self, name, value):
        # A Tensor set as an attribute is kept apart from the instance dict, so that
        # apply can hold an output kept this way without a cycle (see _hold_outputs).
        if self._tensor_attrs is not None:
            self._tensor_attrs.pop(name, None)
        if self._held_outputs is not None:
            self._held_outputs.pop(name, None)
        if isinstance(value, Tensor) and not name.startswith("__"):
            if self._tensor_attrs is None:
                self._tensor_attrs = {}
            self._tensor_attrs[name] = value
            return
        PyObject_GenericSetAttr(self, name, <PyObject*>value)

    def __delattr__(self, name):
        if self._tensor_attrs is not None and name in self._tensor_attrs:
            del self._tensor_attrs[name]
        elif self._held_outputs is not None and name in self._held_outputs:
            del self._held_outputs[name]
        else:
            PyObject_GenericSetAttr(self, name, NULL)

    def _node_name(self):
        """``GradNodePyLayer_<layer>``, the name errors use."""
        return getattr(self._layer, "_node_op_name", "GradNodePyLayer_PyLayer")


cpdef object node_of(ContextBase ctx):
    """The node recorded for a context, or None (not built, or already freed).

    >>> import pylayer as paddle
    >>> from pylayer.autograd._apply import node_of
    >>> class Keep(paddle.autograd.PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         return x * 2
    ...     @staticmethod
    ...     def backward(ctx, dy):
    ...         print(node_of(ctx).name())
    ...         return dy * 2
    >>> Keep.apply(paddle.to_tensor([1.0], stop_gradient=False)).backward()
    GradNodePyLayer_Keep
    """
    if ctx._node_ref is None:
        return None
    return <object>PyWeakref_GetObject(ctx._node_ref)


# ------------------------------------------------------------------- apply
# needs_input_grad of one or two Tensor inputs, shared instead of made per call.
cdef tuple _NEEDS_1 = ((False,), (True,))
cdef tuple _NEEDS_2 = ((False, False), (False, True), (True, False), (True, True))


def apply(cls, *args, **kwargs):
    """Run the layer: call ``forward`` and, if an input needs a gradient, record the node.

    Positional and keyword arguments are passed to ``forward`` as given;
    Tensor arguments (and lists/tuples holding Tensors) are the input
    slots, in call order. Returns what ``forward`` returned.

    >>> import pylayer as paddle
    >>> from pylayer.autograd import PyLayer
    >>> class Mul(PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x, y):
    ...         ctx.save_for_backward(x, y)
    ...         return x * y
    ...     @staticmethod
    ...     def backward(ctx, dz):
    ...         x, y = ctx.saved_tensor()
    ...         return dz * y, dz * x
    >>> a = paddle.to_tensor([2.0], stop_gradient=False)
    >>> b = paddle.to_tensor([5.0], stop_gradient=False)
    >>> Mul.apply(a, y=b).backward()
    >>> a.grad.numpy(), b.grad.numpy()
    (array([5.], dtype=float32), array([2.], dtype=float32))
    """
    cdef ContextBase ctx
    cdef tuple inputs
    cdef bint previous
    ctx = ContextBase.__new__(cls._context_class)
    ctx._layer = cls
    inputs = _gather_inputs(ctx, args + tuple(kwargs.values()) if kwargs else args,
                            grad_enabled())
    if inputs is None:      # a static Variable among the arguments: add the call to its program
        return record(cls.apply, args, kwargs)
    previous = set_grad_mode(False)
    try:
        returned = cls.forward(ctx, *args, **kwargs)
    finally:
        set_grad_mode(previous)
    return _record(cls, ctx, inputs, returned)


cdef tuple _gather_inputs(ContextBase ctx, tuple values, bint recording):
    """Set the input slots of ``ctx``; return the flat tuple of input Tensors, or None
    when a static Variable is among ``values`` (or inside a list or tuple of them)."""
    cdef Py_ssize_t i, n = len(values)
    cdef tuple needs
    for value in values:
        if not isinstance(value, Tensor):
            return _gather_inputs_general(ctx, values, recording)
    if n == 1:
        ctx._needs = _NEEDS_1[recording and not (<Tensor>values[0]).stop_gradient]
    elif n == 2:
        ctx._needs = _NEEDS_2[2 * (recording and not (<Tensor>values[0]).stop_gradient)
                              + (recording and not (<Tensor>values[1]).stop_gradient)]
    else:
        needs = PyTuple_New(n)
        for i in range(n):
            flag = recording and not (<Tensor>values[i]).stop_gradient
            Py_INCREF(flag)
            PyTuple_SET_ITEM(needs, i, flag)
        ctx._needs = needs
    return values


cdef tuple _gather_inputs_general(ContextBase ctx, tuple values, bint recording):
    """Input slots when some argument is not a Tensor: lists of Tensors, or other values;
    None when one is a static Variable."""
    cdef list tensors = [], spans = [], needs = []
    for value in values:
        if isinstance(value, Tensor):
            spans.append(len(tensors))
            tensors.append(value)
            needs.append(recording and not (<Tensor>value).stop_gradient)
        elif is_variable(value):
            return None
        elif isinstance(value, (list, tuple)):
            if any(is_variable(item) for item in value):
                return None
            items = [item for item in value if isinstance(item, Tensor)]
            if items:
                spans.append(list(range(len(tensors), len(tensors) + len(items))))
                tensors.extend(items)
                needs.append(recording and any(not (<Tensor>t).stop_gradient for t in items))
    ctx._spans = spans
    ctx._needs = tuple(needs)
    return tuple(tensors)


cdef inline bint _is_one_of(item, tuple items):
    for other in items:
        if other is item:
            return True
    return False


cdef bint _any_true(tuple flags):
    for flag in flags:
        if flag:
            return True
    return False


cdef object _record(cls, ContextBase ctx, tuple inputs, returned):
    """Wire what ``forward`` returned to a new node, when one is needed."""
    cdef Tensor out
    cdef GradNode node
    if (not isinstance(returned, Tensor) or ctx._not_inplace or ctx._non_differentiable
            or _is_one_of(returned, inputs)):
        return _record_general(cls, ctx, inputs, _Outputs(returned))
    if not _any_true(ctx._needs):
        return returned
    out = <Tensor>returned
    ctx._output_dtype = out._array.dtype
    ctx._output_shape = out._array.shape
    if ctx._tensor_attrs is not None:
        _hold_outputs_weakly(ctx, [out], ())
    node = _new_layer_node(cls, ctx, inputs, 1)
    _pack_saved(ctx, (out,), ())
    out._node = node
    out._out_index = 0
    out.stop_gradient = False
    return out


cdef GradNode _new_layer_node(cls, ContextBase ctx, tuple inputs, Py_ssize_t n_outputs):
    cdef GradNode node = new_grad_node(inputs, cls._node_op_name, node_backward, ctx)
    node.n_outputs = n_outputs
    node.multi_output = n_outputs > 1
    node.runs_user_code = True
    node.runs_without_grads = True     # its backward may have effects users rely on
    ctx._node_ref = PyWeakref_NewRef(node, None)
    if len(inputs) == 1:
        ctx._input_shapes = ((<Tensor>inputs[0])._array.shape,)
    else:
        ctx._input_shapes = tuple([(<Tensor>t)._array.shape for t in inputs])
    return node


cdef object _record_general(cls, ContextBase ctx, tuple inputs, _Outputs outputs):
    """_record for several outputs, outputs that are inputs, and marked outputs."""
    cdef GradNode node
    cdef Py_ssize_t k
    if not outputs.tensors:
        raise ValueError(f"{cls.__name__}.forward returned {type(outputs.returned).__name__}, "
                         f"but at least one output of PyLayer.forward must be a Tensor")
    build = _any_true(ctx._needs)
    in_place, skipped = [], ()
    if ctx._not_inplace or ctx._non_differentiable or _shares_an_object(inputs, outputs.tensors):
        in_place, skipped = _sort_outputs(cls, ctx, inputs, outputs, build)
    if not build:
        return outputs.result()

    ctx._output_slots = outputs.slots
    ctx._output_meta = tuple([((<Tensor>t)._array.shape, (<Tensor>t)._array.dtype)
                              for t in outputs.tensors])
    if ctx._tensor_attrs is not None:
        _hold_outputs_weakly(ctx, outputs.tensors, skipped)
    node = _new_layer_node(cls, ctx, inputs, len(outputs.tensors))
    node.multi_output = True
    for t in in_place:
        (<Tensor>t)._set_array_inplace((<Tensor>t)._array)
    _pack_saved(ctx, outputs.tensors, skipped)
    for k, t in enumerate(outputs.tensors):
        if k in skipped:
            (<Tensor>t).stop_gradient = True
        else:
            (<Tensor>t)._node = node
            (<Tensor>t)._out_index = k
            (<Tensor>t).stop_gradient = False
    return outputs.result()


cdef void _hold_outputs_weakly(ContextBase ctx, list tensors, skipped) except *:
    """Take outputs that ``forward`` kept as plain ctx attributes (``ctx.y = y``) out of ctx.

    The node holds ctx and each output holds the node, so ``ctx.y`` would close
    a cycle that only the cyclic collector frees. ctx keeps their data
    instead, and reading ``ctx.y`` gives a tensor linked to the node again.
    """
    cdef dict attributes = ctx._tensor_attrs
    cdef dict held = None
    cdef Py_ssize_t k
    for name, value in attributes.items():
        if isinstance(value, Tensor):
            for k in range(len(tensors)):
                if tensors[k] is value and k not in skipped:
                    if held is None:
                        held = {}
                    held[name] = ((<Tensor>value)._array, k)
    if held:
        for name in held:
            del attributes[name]
        ctx._held_outputs = held


cdef bint _shares_an_object(tuple inputs, list tensors):
    """Whether an output is an input, or appears twice among the outputs."""
    ids = [id(t) for t in tensors]
    return len(set(ids)) < len(ids) or not set(ids).isdisjoint([id(t) for t in inputs])


cdef tuple _sort_outputs(cls, ContextBase ctx, tuple inputs, _Outputs outputs, bint build):
    """Apply mark_not_inplace / mark_non_differentiable and find in-place outputs.

    Returns the outputs changed in place and the flat indices of the
    non-differentiable ones.
    """
    input_ids = {id(t) for t in inputs}
    not_inplace = {id(t) for t in ctx._not_inplace}
    non_differentiable = {id(t) for t in ctx._non_differentiable}
    ctx._not_inplace = ctx._non_differentiable = ()  # no references to outputs from ctx
    in_place, skipped, seen = [], set(), set()
    for k, t in enumerate(list(outputs.tensors)):
        if id(t) in non_differentiable:
            skipped.add(k)
        if id(t) in seen or (id(t) in input_ids and id(t) in not_inplace):
            # A new Tensor object shares the data; the original keeps its history.
            outputs.replace(k, wrap((<Tensor>t)._array, True))
        elif id(t) in input_ids:
            if build and (<Tensor>t)._node is None and not (<Tensor>t).stop_gradient:
                raise ValueError(
                    f"{cls.__name__}.forward returned its input (output {k}) in place, but that "
                    f"input is a leaf tensor that needs a gradient (stop_gradient=False), which "
                    f"cannot be changed in place; return a new tensor, or call "
                    f"ctx.mark_not_inplace on it")
            in_place.append(t)
        seen.add(id(t))
    return in_place, skipped


cdef class _Outputs:
    """What ``forward`` returned, and where each Tensor in it sits.

    ``slots`` has one entry per tensor output slot: a flat index (a Tensor) or
    a list of flat indices (a list/tuple holding Tensors). ``tensors`` is the
    flat list; ``replace(k, t)`` puts ``t`` where flat output ``k`` was.
    """
    cdef object returned
    cdef list items, tensors, places, slots

    def __init__(self, returned):
        self.returned = returned
        self.items = list(returned) if isinstance(returned, (tuple, list)) else [returned]
        self.tensors, self.places, self.slots = [], [], []
        for i, item in enumerate(self.items):
            if isinstance(item, Tensor):
                self.slots.append(len(self.tensors))
                self.tensors.append(item)
                self.places.append((i, None))
            elif isinstance(item, (list, tuple)):
                span = []
                for j, inner in enumerate(item):
                    if isinstance(inner, Tensor):
                        span.append(len(self.tensors))
                        self.tensors.append(inner)
                        self.places.append((i, j))
                if span:
                    self.slots.append(span)

    cdef replace(self, Py_ssize_t k, Tensor tensor):
        self.tensors[k] = tensor
        i, j = self.places[k]
        if j is None:
            self.items[i] = tensor
        elif isinstance(self.items[i], list):
            self.items[i][j] = tensor      # lists are updated in place, like the top level
        else:
            inner = list(self.items[i])
            inner[j] = tensor
            self.items[i] = tuple(inner)

    cdef result(self):
        """The object to hand back: same shape as what forward returned."""
        if isinstance(self.returned, list):
            self.returned[:] = self.items
            return self.returned
        if isinstance(self.returned, tuple):
            return tuple(self.items)
        return self.items[0]


# ------------------------------------------------------------- saved tensors
cdef class _PackedNone:
    """A ``None`` given to ``save_for_backward`` under hooks: what ``pack_hook(None)`` returned."""
    cdef object packed, unpack_hook

    def __init__(self, packed, unpack_hook):
        self.packed = packed
        self.unpack_hook = unpack_hook


cdef object _call_hook(hook, value):
    """Run a saved-tensor hook with recording off, as the engine does."""
    cdef bint previous = set_grad_mode(False)
    try:
        return hook(value)
    finally:
        set_grad_mode(previous)


cdef void _pack_saved(ContextBase ctx, tensors, skipped) except *:
    """Pack what save_for_backward got, under the hooks that were active when it was called.

    ``tensors`` are the node's outputs; ``skipped`` the indices of non-differentiable ones.
    """
    saved, hooks = ctx._saved, ctx._saved_hooks
    ctx._saved = ctx._saved_hooks = None
    if saved is None:
        return
    if hooks is None and len(tensors) == 1 and not skipped:
        ctx._packed = _pack_plain(<tuple>saved, tensors[0])
        if ctx._packed is not None:
            return
    # The node's own outputs are kept without their node (no cycle).
    attached = {id(t): k for k, t in enumerate(tensors) if k not in skipped}
    switch = hooks is not None and hooks != innermost_saved_hooks()
    if switch:
        push_saved_tensors_hooks(*hooks)
    try:
        ctx._packed = _pack(saved, attached, hooks)
    finally:
        if switch:
            pop_saved_tensors_hooks()


cdef object _pack_plain(tuple saved, output):
    """The common case of _pack: only Tensors saved, no hooks, one output (None otherwise)."""
    cdef Py_ssize_t i, n = len(saved)
    cdef tuple packed = PyTuple_New(n)
    for i in range(n):
        item = saved[i]
        if not isinstance(item, Tensor):
            return None
        s = save_tensor(<Tensor>item, 0 if item is output else -1)
        Py_INCREF(s)
        PyTuple_SET_ITEM(packed, i, s)
    return packed


cdef object _pack(item, dict attached, hooks):
    """Turn what was given to ``save_for_backward`` into what the node keeps.

    ``attached`` maps id() of the node's own outputs to their output index.
    """
    if isinstance(item, Tensor):
        # Under hooks the engine keeps the input's way back into the graph.
        return save_tensor(<Tensor>item, attached.get(id(item), -1))
    if item is None:
        return None if hooks is None else _PackedNone(_call_hook(hooks[0], None), hooks[1])
    if isinstance(item, list):
        return [_pack(i, attached, hooks) for i in item]
    if isinstance(item, tuple):
        return tuple([_pack(i, attached, hooks) for i in item])
    return item


cpdef object unpack_saved(ContextBase ctx):
    """What ``ctx.saved_tensor()`` returns: the saved tensors, unpacked (hooks run again).

    >>> from pylayer.autograd import PyLayerContext
    >>> from pylayer.autograd._apply import unpack_saved
    >>> print(unpack_saved(PyLayerContext()))   # nothing saved
    None
    """
    cdef Py_ssize_t i, n
    cdef tuple packed, result
    if ctx._node_ref is None:
        return ctx._saved
    node = node_of(ctx)
    if node is None:
        raise RuntimeError(f"{ctx._node_name()}: the graph this context belongs to has been "
                           f"freed, so its saved tensors are gone")
    if type(ctx._packed) is tuple:
        packed = <tuple>ctx._packed
        n = len(packed)
        result = PyTuple_New(n)
        for i in range(n):
            item = packed[i]
            value = (<SavedTensor>item).unpack(<GradNode>node) if isinstance(item, SavedTensor) \
                else _unpack(item, <GradNode>node)
            Py_INCREF(value)
            PyTuple_SET_ITEM(result, i, value)
        return result
    return _unpack(ctx._packed, <GradNode>node)


cdef object _unpack(item, GradNode node):
    if isinstance(item, SavedTensor):
        return (<SavedTensor>item).unpack(node)
    if isinstance(item, _PackedNone):
        return _call_hook((<_PackedNone>item).unpack_hook, (<_PackedNone>item).packed)
    if isinstance(item, list):
        return [_unpack(i, node) for i in item]
    if isinstance(item, tuple):
        return tuple([_unpack(i, node) for i in item])
    return item


# ----------------------------------------------------------------- backward
def node_backward(GradNode node, grads):
    """backward_fn of a PyLayer node: one gradient (or None) per input tensor.

    ``grads`` is the gradient of the output for a node with one output, and
    the list of the outputs' gradients (None where none arrived) otherwise.

    >>> import pylayer as paddle
    >>> from pylayer.autograd._apply import node_backward
    >>> class Double(paddle.autograd.PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         return x * 2
    ...     @staticmethod
    ...     def backward(ctx, dy):
    ...         return dy * 2
    >>> y = Double.apply(paddle.to_tensor([1.0], stop_gradient=False))
    >>> y.grad_fn.backward_fn is node_backward
    True
    """
    cdef ContextBase ctx = <ContextBase?>node.attrs
    cls = ctx._layer
    try:
        if ctx._output_slots is None:
            result = cls.backward(ctx, _single_grad(ctx, grads))
        else:
            result = cls.backward(ctx, *_per_slot(ctx, _incoming_grads(ctx, grads)))
    except Exception as exc:
        renamed = _name_the_layer(exc, node.name())
        if renamed is exc:
            raise
        raise renamed from exc
    if (ctx._spans is None and len(ctx._needs) == 1 and isinstance(result, Tensor)
            and ctx._needs[0] and has_shape((<Tensor>result)._array, ctx._input_shapes[0])):
        return (result,)
    return _input_grads(ctx, node, result)


cdef inline object _single_grad(ContextBase ctx, g):
    """The gradient of a single output: zeros (or None) when none arrived, as Paddle and
    PyTorch still run a PyLayer's backward then; cast to the output's dtype."""
    if g is None:
        if ctx._materialize_grads:
            return wrap(np.zeros(ctx._output_shape, ctx._output_dtype), True)
        return None
    if ctx._grad_in_dtype_consistent and (<Tensor>g)._array.dtype is not ctx._output_dtype \
            and (<Tensor>g)._array.dtype != ctx._output_dtype:
        return cast(g, ctx._output_dtype)
    return g


cdef list _incoming_grads(ContextBase ctx, grads):
    """Zeros (or None) for outputs that got no gradient; cast to each output's dtype."""
    cdef list prepared = []
    for g, (shape, dtype) in zip(grads, ctx._output_meta):
        if g is None:
            if ctx._materialize_grads:
                g = wrap(np.zeros(shape, dtype), True)
        elif ctx._grad_in_dtype_consistent and (<Tensor>g)._array.dtype != dtype:
            g = cast(g, dtype)
        prepared.append(g)
    return prepared


cdef list _per_slot(ContextBase ctx, list grads):
    """The gradients as backward's arguments: one per output slot (a list for a list slot)."""
    return [grads[s] if isinstance(s, int) else [grads[k] for k in s]
            for s in ctx._output_slots]


cdef object _name_the_layer(exc, name):
    """Put the layer's name in front of an error raised by the user's backward.

    The exception keeps its type when its message is a plain string; otherwise
    it is chained to a RuntimeError that carries both.
    """
    prefix = f"in backward of {name}"
    if not exc.args:
        exc.args = (prefix,)
        return exc
    if len(exc.args) == 1 and isinstance(exc.args[0], str):
        exc.args = (f"{prefix}: {exc.args[0]}",)
        return exc
    return RuntimeError(f"{prefix}: {type(exc).__name__}: {exc}")


cdef list _input_grads(ContextBase ctx, GradNode node, result):
    """Check what the user's backward returned and spread it over the node's inputs."""
    cdef Py_ssize_t i, n_slots = len(ctx._needs)
    name = node.name()
    values = list(result) if isinstance(result, tuple) else [result]
    spans = ctx._spans if ctx._spans is not None else range(n_slots)
    if len(values) > n_slots:
        raise ValueError(
            f"{name}: backward returned {len(values)} gradients, but forward has "
            f"{n_slots} Tensor input(s); the number of gradients should be {n_slots}, "
            f"but received {len(values)}")
    flat = [None] * len(node.next_nodes)
    for i, span in enumerate(spans):
        needs = ctx._needs[i]
        if i >= len(values):
            if needs:
                raise ValueError(
                    f"{name}: backward returned no gradient at position {i}, but that input of "
                    f"forward needs one (stop_gradient=False); return a Tensor (or None for no "
                    f"gradient) at position {i}")
            continue
        value = values[i]
        if value is None:
            continue
        if not needs:
            raise ValueError(
                f"{name}: backward must return None at position {i}, because that input of "
                f"forward has stop_gradient=True, but it returned {type(value).__name__}")
        if isinstance(span, int):
            flat[span] = _checked(value, ctx._input_shapes[span], name, f"position {i}")
            continue
        if not isinstance(value, (list, tuple)) or len(value) != len(span):
            got = (f"{type(value).__name__} of length {len(value)}"
                   if isinstance(value, (list, tuple)) else type(value).__name__)
            raise ValueError(
                f"{name}: input {i} of forward is a list of {len(span)} Tensors, so backward "
                f"must return a list of {len(span)} gradients (or None) at position {i}, "
                f"but it returned {got}")
        for j, (k, item) in enumerate(zip(span, value)):
            if item is not None:
                flat[k] = _checked(item, ctx._input_shapes[k], name, f"position {i}, item {j}")
    return flat


cdef object _checked(value, tuple shape, name, where):
    """A gradient shaped like its input: one that differs only by size-1 dimensions is
    reshaped, one the input broadcasts to is summed down; anything else is an error."""
    if not isinstance(value, Tensor):
        raise ValueError(f"{name}: backward must return a Tensor or None at {where}, "
                         f"but it returned {type(value).__name__}")
    if has_shape((<Tensor>value)._array, shape):
        return value
    got = (<Tensor>value)._array.shape
    if [d for d in got if d != 1] == [d for d in shape if d != 1]:
        return reshape(value, list(shape))
    if len(got) >= len(shape) and all(s in (1, g) for s, g in zip(shape[::-1], got[::-1])):
        return unbroadcast(value, shape)
    raise ValueError(f"{name}: backward returned a gradient of shape {list(got)} at {where}, "
                     f"but that input of forward has shape {list(shape)}; a gradient may "
                     f"differ from it only by size-1 dimensions, or broadcast from it")
