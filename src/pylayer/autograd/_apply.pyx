"""The compiled half of PyLayer: ``apply``, and the backward of a PyLayer node.

``PyLayer`` and ``PyLayerContext`` (``py_layer.py``) are plain Python classes;
every ``apply`` call runs through here. A call keeps its bookkeeping in its
context, whose compiled base :class:`ContextBase` has a private field for
each item: the input slots and which of them need a gradient, the outputs'
shapes and dtypes, what ``save_for_backward`` got and, once the node exists,
the packed saved tensors and a weak reference to the node. Python cannot
reach those fields: ``PyLayerContext``'s methods change them through the
checked functions of this module. The node holds the context; nothing holds
the node but its outputs, so a graph is freed as soon as nothing uses it.
"""
import warnings

import numpy as np

cimport cython
from cpython.ref cimport PyObject, Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.weakref cimport PyWeakref_NewRef, PyWeakref_GetObject

from pylayer.autograd._layer_io import Outputs, name_the_layer, spread_gradients
from pylayer.ops.shape import cast
from pylayer._core.graph import pop_saved_tensors_hooks, push_saved_tensors_hooks
from pylayer._core.graph cimport (GradNode, Op, SavedTensor, innermost_saved_hooks, new_grad_node,
                             save_tensor)
from pylayer._core.tensor cimport (Tensor, grad_enabled, has_no_data, has_shape, refresh_view,
                                   set_grad_mode, wrap)
from pylayer.ops.dispatch cimport is_variable, record

cdef extern from "Python.h":
    # value NULL deletes the attribute.
    int PyObject_GenericSetAttr(object obj, object name, PyObject *value) except -1

__all__ = ["ContextBase", "apply", "layer_vjp", "node_of", "unpack_saved", "save",
           "mark", "set_flag", "needs_input_grad", "tensor_attribute"]


cdef class ContextBase:
    """The compiled storage under ``PyLayerContext``: the bookkeeping of one ``apply`` call.

    ``PyLayerContext`` (a Python class) derives from it; user attributes
    (``ctx.scale = 2``) go to the instance dict, which is only made when one
    is set.

    >>> from pylayer.autograd import PyLayerContext
    >>> needs_input_grad(PyLayerContext())
    ()
    """
    cdef object _layer                # the PyLayer subclass
    cdef tuple _needs                 # per input slot: does it need a gradient
    cdef list _spans                  # per input slot: a flat input index, or a list of them
    cdef tuple _input_shapes          # per flat input
    cdef list _output_slots           # per output slot: a flat output index, or a list of them
    cdef tuple _output_meta           # per flat output: (shape, dtype)
    cdef tuple _saved                 # what save_for_backward got, until packed
    cdef object _saved_hooks          # the hook pair active when it was called, or None
    cdef object _packed               # what the node keeps: a tuple like _saved, packed
    cdef object _node_ref             # weak reference to the node; None: no node
    cdef tuple _not_inplace
    cdef tuple _non_differentiable
    cdef bint _materialize_grads
    cdef bint _grad_in_dtype_consistent
    cdef dict _tensor_attrs           # Tensors the user set as attributes (ctx.y = y)
    cdef dict _held_outputs           # attributes that were outputs: name -> (array, index)
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
        # apply can hold an output kept this way without a cycle (see _hold_outputs_weakly).
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be a str, got {type(name).__name__}")
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

    cdef str node_name(self):
        """``GradNodePyLayer_<layer>``, the name errors use."""
        op = getattr(self._layer, "_op", None)
        return op.name if isinstance(op, Op) else "GradNodePyLayer_PyLayer"


# --------------------------------------------- what PyLayerContext's methods change
def save(ContextBase ctx not None, tuple tensors):
    """``ctx.save_for_backward(*tensors)``: keep them (the last call wins) with this
    thread's innermost saved-tensor hooks, which pack them when the node is made."""
    ctx._saved = tensors
    ctx._saved_hooks = innermost_saved_hooks()


def mark(ContextBase ctx not None, str which, tuple tensors):
    """``ctx.mark_not_inplace`` (``which="not_inplace"``) or
    ``ctx.mark_non_differentiable`` (``"non_differentiable"``)."""
    if which == "not_inplace":
        ctx._not_inplace = tensors
    elif which == "non_differentiable":
        ctx._non_differentiable = tensors
    else:
        raise ValueError(f"mark(): argument 'which' must be 'not_inplace' or "
                         f"'non_differentiable', got {which!r}")


def set_flag(ContextBase ctx not None, str which, bint value):
    """``ctx.set_materialize_grads`` (``"materialize_grads"``) or
    ``ctx.set_grad_in_dtype_consistent`` (``"grad_in_dtype_consistent"``)."""
    if which == "materialize_grads":
        ctx._materialize_grads = value
    elif which == "grad_in_dtype_consistent":
        ctx._grad_in_dtype_consistent = value
    else:
        raise ValueError(f"set_flag(): argument 'which' must be 'materialize_grads' or "
                         f"'grad_in_dtype_consistent', got {which!r}")


def needs_input_grad(ContextBase ctx not None):
    """``ctx.needs_input_grad``: per input slot of forward, whether it needs a gradient."""
    return ctx._needs


def tensor_attribute(ContextBase ctx not None, str name):
    """A Tensor the user set as ``ctx.<name>``. An output of forward kept that way is
    held as its data (no cycle through the node) and comes back linked to the node
    again, for double backward. AttributeError when there is none."""
    cdef Tensor tensor
    if ctx._tensor_attrs is not None and name in ctx._tensor_attrs:
        return ctx._tensor_attrs[name]
    if ctx._held_outputs is None or name not in ctx._held_outputs:
        raise AttributeError(name)
    array, index = ctx._held_outputs[name]
    tensor = wrap(array, True)
    node = node_of(ctx)
    if node is not None and 0 <= index < (<GradNode>node).n_outputs:
        tensor._node = node
        tensor._out_index = index
        tensor._stop_gradient = False
    return tensor


cpdef object node_of(ContextBase ctx):
    """The node recorded for a context, or None (not built, or already freed).

    >>> import pylayer as paddle
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
    if ctx is None:
        raise TypeError("node_of(): argument 'ctx' must be a PyLayer context, got None")
    if ctx._node_ref is None:
        return None
    return <object>PyWeakref_GetObject(ctx._node_ref)


# ------------------------------------------------------------------- apply
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


# needs_input_grad of one or two Tensor inputs, shared instead of made per call.
cdef tuple _NEEDS_1 = ((False,), (True,))
cdef tuple _NEEDS_2 = ((False, False), (False, True), (True, False), (True, True))


cdef tuple _gather_inputs(ContextBase ctx, tuple values, bint recording):
    """Set the input slots of ``ctx``; return the flat tuple of input Tensors, or None
    when a static Variable is among ``values`` (or inside a list or tuple of them).

    ``ctx._spans`` stays None while every slot is one Tensor (slot i is input i):
    when every value is a Tensor, ``values`` itself is the flat tuple."""
    cdef list tensors, needs
    cdef list spans = None
    cdef bint needs_grad
    cdef Py_ssize_t n = len(values)
    for value in values:
        if not isinstance(value, Tensor):
            break
    else:
        if n == 1:
            ctx._needs = _NEEDS_1[recording and not (<Tensor>values[0])._stop_gradient]
        elif n == 2:
            ctx._needs = _NEEDS_2[2 * (recording and not (<Tensor>values[0])._stop_gradient)
                                  + (recording and not (<Tensor>values[1])._stop_gradient)]
        else:
            ctx._needs = tuple([recording and not (<Tensor>v)._stop_gradient for v in values])
        return values
    tensors, needs = [], []
    for value in values:
        if isinstance(value, Tensor):
            if spans is not None:
                spans.append(len(tensors))
            tensors.append(value)
            refresh_view(<Tensor>value)
            needs.append(recording and not (<Tensor>value)._stop_gradient)
        elif is_variable(value):
            return None
        elif isinstance(value, (list, tuple)):
            span = []
            needs_grad = False
            for item in value:
                if isinstance(item, Tensor):
                    span.append(len(tensors))
                    tensors.append(item)
                    refresh_view(<Tensor>item)
                    needs_grad = needs_grad or (recording and not (<Tensor>item)._stop_gradient)
                elif is_variable(item):
                    return None
            if span:
                if spans is None:
                    spans = list(range(len(needs)))
                spans.append(span)
                needs.append(needs_grad)
    ctx._spans = spans
    ctx._needs = tuple(needs)
    return tuple(tensors)


cdef inline bint _is_one_of(item, tuple items):
    for other in items:
        if other is item:
            return True
    return False


cdef object _record(cls, ContextBase ctx, tuple inputs, returned):
    """Wire what ``forward`` returned to a new node, when one is needed."""
    cdef GradNode node
    cdef Py_ssize_t k, n
    outputs = None                      # where each output sits, unless forward returned one
    cdef list tensors
    cdef bint build = True in ctx._needs
    if isinstance(returned, Tensor):
        tensors = [returned]
    else:
        outputs = Outputs(returned)
        tensors = outputs.tensors
    n = len(tensors)
    if n == 0:
        raise ValueError(f"{cls.__name__}.forward returned {type(returned).__name__}, "
                         f"but at least one output of PyLayer.forward must be a Tensor")
    in_place, skipped = _sort_outputs(cls, ctx, inputs, tensors, outputs, build)
    if build:
        ctx._output_slots = outputs.slots if outputs is not None else None
        ctx._output_meta = tuple([((<Tensor>t)._array.shape, (<Tensor>t)._array.dtype)
                                  for t in tensors])
        if ctx._tensor_attrs is not None:
            _hold_outputs_weakly(ctx, tensors, skipped)
        node = new_grad_node(<Op?>cls._op, inputs, (ctx,))
        node.n_outputs = n
        ctx._node_ref = PyWeakref_NewRef(node, None)
        ctx._input_shapes = tuple([(<Tensor>t)._array.shape for t in inputs])
        for t in in_place:
            (<Tensor>t)._set_array_inplace((<Tensor>t)._array)
        if ctx._saved is not None:
            _pack_saved(ctx, tensors, skipped)
        for k in range(n):
            t = tensors[k]
            if skipped and k in skipped:
                (<Tensor>t)._stop_gradient = True
            else:
                (<Tensor>t)._node = node
                (<Tensor>t)._out_index = k
                (<Tensor>t)._stop_gradient = False
    return outputs.result() if outputs is not None else tensors[0]


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
        for k in range(len(tensors)):
            if tensors[k] is value and (not skipped or k not in skipped):
                if held is None:
                    held = {}
                held[name] = ((<Tensor>value)._array, k)
    if held:
        for name in held:
            del attributes[name]
        ctx._held_outputs = held


cdef tuple _sort_outputs(cls, ContextBase ctx, tuple inputs, list tensors, object outputs,
                         bint build):
    """Apply mark_not_inplace / mark_non_differentiable and find in-place outputs.

    Returns the outputs changed in place and the flat indices of the
    non-differentiable ones (None when there are none).
    """
    cdef Py_ssize_t k
    if not (ctx._not_inplace or ctx._non_differentiable or len(tensors) > 1
            or _is_one_of(tensors[0], inputs)):
        return (), None
    input_ids = {id(t) for t in inputs}
    not_inplace = {id(t) for t in ctx._not_inplace}
    non_differentiable = {id(t) for t in ctx._non_differentiable}
    ctx._not_inplace = ctx._non_differentiable = ()  # no references to outputs from ctx
    in_place, skipped, seen = [], set(), set()
    for k in range(len(tensors)):
        t = tensors[k]
        if id(t) in non_differentiable:
            skipped.add(k)
        if id(t) in seen or (id(t) in input_ids and id(t) in not_inplace):
            # A new Tensor object shares the data; the original keeps its history.
            fresh = wrap((<Tensor>t)._array, True)
            tensors[k] = fresh
            if outputs is not None:
                outputs.replace(k, fresh)
        elif id(t) in input_ids:
            if build and (<Tensor>t)._node is None and not (<Tensor>t)._stop_gradient:
                raise ValueError(
                    f"{cls.__name__}.forward returned its input (output {k}) in place, but that "
                    f"input is a leaf tensor that needs a gradient (stop_gradient=False), which "
                    f"cannot be changed in place; return a new tensor, or call "
                    f"ctx.mark_not_inplace on it")
            in_place.append(t)
        seen.add(id(t))
    return in_place, skipped


# ------------------------------------------------------------- saved tensors
@cython.final
cdef class _PackedNone:
    """A ``None`` given to ``save_for_backward`` under hooks: what ``pack_hook(None)`` returned."""
    cdef object packed, unpack_hook


cdef object _call_hook(hook, value):
    """Run a saved-tensor hook with recording off, as the engine does."""
    cdef bint previous = set_grad_mode(False)
    try:
        return hook(value)
    finally:
        set_grad_mode(previous)


cdef void _pack_saved(ContextBase ctx, list outputs, skipped) except *:
    """Pack what save_for_backward got, under the hooks that were active when it was called.

    ``outputs`` are the node's outputs; ``skipped`` the indices of non-differentiable
    ones (or None). The node's own outputs are kept without their node (no cycle).
    """
    saved, hooks = ctx._saved, ctx._saved_hooks
    ctx._saved = ctx._saved_hooks = None
    switch = hooks is not None and hooks != innermost_saved_hooks()
    if switch:
        push_saved_tensors_hooks(*hooks)
    try:
        ctx._packed = _pack(saved, outputs, skipped, hooks)
    finally:
        if switch:
            pop_saved_tensors_hooks()


cdef Py_ssize_t _output_index(object item, list outputs, skipped):
    """Which differentiable output of the node ``item`` is, or -1."""
    cdef Py_ssize_t k
    for k in range(len(outputs)):
        if outputs[k] is item and not (skipped and k in skipped):
            return k
    return -1


cdef object _pack(item, list outputs, skipped, hooks):
    """Turn what was given to ``save_for_backward`` into what the node keeps."""
    cdef _PackedNone none
    cdef Py_ssize_t i, n
    cdef tuple packed
    if isinstance(item, Tensor):
        # Under hooks the engine keeps the input's way back into the graph.
        return save_tensor(<Tensor>item, _output_index(item, outputs, skipped))
    if item is None:
        if hooks is None:
            return None
        none = _PackedNone.__new__(_PackedNone)
        none.packed = _call_hook(hooks[0], None)
        none.unpack_hook = hooks[1]
        return none
    if isinstance(item, tuple):
        n = len(<tuple>item)
        packed = PyTuple_New(n)
        for i in range(n):
            value = (<tuple>item)[i]
            if isinstance(value, Tensor):
                value = save_tensor(<Tensor>value, _output_index(value, outputs, skipped))
            else:
                value = _pack(value, outputs, skipped, hooks)
            Py_INCREF(value)
            PyTuple_SET_ITEM(packed, i, value)
        return packed
    if isinstance(item, list):
        return [_pack(element, outputs, skipped, hooks) for element in item]
    return item


cpdef object unpack_saved(ContextBase ctx):
    """What ``ctx.saved_tensor()`` returns: the saved tensors, unpacked (hooks run again).

    >>> from pylayer.autograd import PyLayerContext
    >>> print(unpack_saved(PyLayerContext()))   # nothing saved
    None
    """
    if ctx is None:
        raise TypeError("unpack_saved(): argument 'ctx' must be a PyLayer context, got None")
    if ctx._node_ref is None:
        return ctx._saved
    node = node_of(ctx)
    if node is None:
        raise RuntimeError(f"{ctx.node_name()}: the graph this context belongs to has been "
                           f"freed, so its saved tensors are gone")
    return _unpack(ctx._packed, <GradNode>node)


cdef object _unpack(item, GradNode node):
    cdef Py_ssize_t i, n
    cdef tuple result
    if isinstance(item, SavedTensor):
        return (<SavedTensor>item).unpack(node)
    if isinstance(item, tuple):
        n = len(<tuple>item)
        result = PyTuple_New(n)
        for i in range(n):
            value = (<tuple>item)[i]
            if isinstance(value, SavedTensor):
                value = (<SavedTensor>value).unpack(node)
            else:
                value = _unpack(value, node)
            Py_INCREF(value)
            PyTuple_SET_ITEM(result, i, value)
        return result
    if isinstance(item, _PackedNone):
        return _call_hook((<_PackedNone>item).unpack_hook, (<_PackedNone>item).packed)
    if isinstance(item, list):
        return [_unpack(element, node) for element in item]
    return item


# ----------------------------------------------------------------- backward
def layer_vjp(grads, ctx):
    """The gradient rule of every PyLayer's record: runs the layer's ``backward`` with the
    node's context ``ctx`` and returns one gradient (or None) per input tensor.

    ``grads`` is the gradient of the output for a node with one output, and the
    list of the outputs' gradients (None where none arrived) otherwise.

    >>> import pylayer as paddle
    >>> class Double(paddle.autograd.PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         return x * 2
    ...     @staticmethod
    ...     def backward(ctx, dy):
    ...         return dy * 2
    >>> y = Double.apply(paddle.to_tensor([1.0], stop_gradient=False))
    >>> y.grad_fn.op.vjp is layer_vjp, y.grad_fn.name()
    (True, 'GradNodePyLayer_Double')
    """
    if not isinstance(ctx, ContextBase):
        raise TypeError(f"layer_vjp(): argument 'ctx' must be the context of a PyLayer node, "
                        f"got {type(ctx).__name__}")
    return _layer_backward(grads, <ContextBase>ctx)


cdef object _layer_backward(grads, ContextBase ctx):
    cdef Py_ssize_t k, n
    cdef bint arrived
    cdef tuple incoming
    n = len(ctx._output_meta)
    cls = ctx._layer
    if n == 1:
        arrived = grads is not None
        incoming = None
        g = _incoming_grad(ctx, 0, grads)
    elif not isinstance(grads, list) or len(<list>grads) != n:
        raise TypeError(f"layer_vjp(): {ctx.node_name()} needs a list of {n} output gradients")
    else:
        arrived = False
        incoming = PyTuple_New(n)
        for k in range(n):
            g = (<list>grads)[k]
            arrived = arrived or g is not None
            g = _incoming_grad(ctx, k, g)
            Py_INCREF(g)
            PyTuple_SET_ITEM(incoming, k, g)
    try:
        if incoming is None:
            result = cls.backward(ctx, g)
        elif ctx._output_slots is None:
            result = cls.backward(ctx, *incoming)
        else:
            result = cls.backward(ctx, *[incoming[s] if isinstance(s, int) else
                                         [incoming[k] for k in s] for s in ctx._output_slots])
    except Exception as exc:
        renamed = name_the_layer(exc, ctx.node_name())
        if renamed is exc:
            raise
        raise renamed from exc
    if result is None and arrived and True in ctx._needs:
        warnings.warn(f"{ctx.node_name()}: backward returned None although gradients reached "
                      f"it, so no gradient reaches its inputs; if that is meant, return "
                      f"(None,) (did backward forget its 'return'?)", stacklevel=2)
    return _input_grads(ctx, result)


cdef object _incoming_grad(ContextBase ctx, Py_ssize_t k, object g):
    """Output ``k``'s gradient as backward receives it: zeros (or None) when none
    arrived, as Paddle and PyTorch still run a PyLayer's backward then; cast to the
    output's dtype."""
    shape, dtype = ctx._output_meta[k]
    if g is None:
        if ctx._materialize_grads:
            return wrap(np.zeros(shape, dtype), True)
        return None
    if not isinstance(g, Tensor):
        raise TypeError(f"{ctx.node_name()}: output gradient {k} is a {type(g).__name__}, "
                        f"not a Tensor")
    if ctx._grad_in_dtype_consistent and (<Tensor>g)._array.dtype is not dtype \
            and (<Tensor>g)._array.dtype != dtype:
        return cast(g, dtype)
    return g


cdef object _input_grads(ContextBase ctx, result):
    """What the user's backward returned, one gradient (or None) per flat input."""
    if (len(ctx._needs) == 1 and ctx._spans is None and ctx._needs[0]
            and isinstance(result, Tensor) and not has_no_data(<Tensor>result)
            and has_shape((<Tensor>result)._array, ctx._input_shapes[0])):
        return (result,)            # one input, one gradient of its shape: nothing to spread
    return spread_gradients(ctx.node_name(), ctx._needs, ctx._spans, ctx._input_shapes, result)
