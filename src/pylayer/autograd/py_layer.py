"""Custom operators written in Python: ``PyLayer``, its context, ``once_differentiable``.

A ``PyLayer`` subclass defines a static ``forward(ctx, ...)`` and
``backward(ctx, *grads)``; ``apply`` runs ``forward`` with recording off and,
when some input needs a gradient, records one graph node whose backward calls
the user's ``backward``. The context object (``ctx``) is the only thing the
node keeps: it holds the saved tensors (packed through the saved-tensor hooks
of this thread) but never the node or the output tensors, so that a graph is
freed as soon as nothing refers to it.
"""
import functools
import weakref

import numpy as np

from pylayer import _state
from pylayer._ops import cast
from pylayer._engine import (SavedTensor, attach_node, current_saved_tensors_hooks,
                             new_node, pop_saved_tensors_hooks,
                             push_saved_tensors_hooks, save_tensor)
from pylayer._tensor import Tensor, is_grad_enabled, make_tensor, set_grad_enabled_flag

__all__ = ["PyLayer", "PyLayerContext", "Function", "once_differentiable"]


# ------------------------------------------------------------------ helpers
def _tensors_in(value):
    """The Tensors of an argument or output: itself, or the Tensor items of a list/tuple."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [item for item in value if isinstance(item, Tensor)]
    return []


def _call_hook(hook, value):
    """Run a saved-tensor hook with recording off, as the engine does."""
    previous = set_grad_enabled_flag(False)
    try:
        return hook(value)
    finally:
        set_grad_enabled_flag(previous)


class _PackedNone:
    """A ``None`` given to ``save_for_backward`` under hooks: what ``pack_hook(None)`` returned."""
    __slots__ = ("packed", "unpack_hook")

    def __init__(self, packed, unpack_hook):
        self.packed = packed
        self.unpack_hook = unpack_hook

    def unpack(self):
        return _call_hook(self.unpack_hook, self.packed)


def _pack(item, attached, hooks):
    """Turn what was given to ``save_for_backward`` into what the node keeps.

    ``attached`` maps id() of the node's own outputs to their output index.
    """
    if isinstance(item, Tensor):
        index = attached.get(id(item), -1)
        # Under hooks the engine keeps the input's way back into the graph.
        return save_tensor(item, index)
    if item is None:
        return None if hooks is None else _PackedNone(_call_hook(hooks[0], None), hooks[1])
    if isinstance(item, list):
        return [_pack(i, attached, hooks) for i in item]
    if isinstance(item, tuple):
        return tuple([_pack(i, attached, hooks) for i in item])
    return item


def _pack_plain(saved, output):
    """The common case of _pack: only Tensors saved, no hooks, one output.

    Returns None when the case does not apply.
    """
    packed = []
    for item in saved:
        if not isinstance(item, Tensor):
            return None
        packed.append(save_tensor(item, 0 if item is output else -1))
    return tuple(packed)


def _unpack(item, node):
    if isinstance(item, SavedTensor):
        return item.get(node)
    if isinstance(item, _PackedNone):
        return item.unpack()
    if isinstance(item, list):
        return [_unpack(i, node) for i in item]
    if isinstance(item, tuple):
        return tuple([_unpack(i, node) for i in item])
    return item


# ------------------------------------------------------------------ context
_NOTHING = object()


class PyLayerContext:
    """The ``ctx`` object that a PyLayer's ``forward`` and ``backward`` receive.

    One is made per ``apply`` call (an instance of a class derived for each
    PyLayer subclass). It carries tensors from forward to backward through
    :meth:`save_for_backward`, and any other attribute set on it
    (``ctx.scale = 2``) survives to backward as well.

    >>> import pylayer as paddle
    >>> from pylayer.autograd import PyLayer
    >>> class Scale(PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x, factor):
    ...         ctx.factor = factor          # a plain attribute
    ...         return x * factor
    ...     @staticmethod
    ...     def backward(ctx, dy):
    ...         return dy * ctx.factor
    >>> x = paddle.ones([2]); x.stop_gradient = False
    >>> Scale.apply(x, 3.0).sum().backward()
    >>> x.grad.numpy()
    array([3., 3.], dtype=float32)
    """

    # Defaults, shadowed per instance when set (keeps making a context cheap).
    _forward_cls = None
    _saved = None               # what save_for_backward got (until packed)
    _saved_hooks = None         # the hook pair active when it was called
    _packed = _NOTHING          # what the node keeps once it is built
    _node_ref = None            # weakref to the node: no ctx <-> node cycle
    _not_inplace = ()
    _non_differentiable = ()
    _materialize_grads = True
    _grad_in_dtype_consistent = True
    _needs_input_grad = ()

    def save_for_backward(self, *tensors):
        """Keep ``tensors`` for ``backward``; call it in ``forward`` (the last call wins).

        Items may be Tensors, ``None`` or lists/tuples of Tensors. When a node
        is built, each is packed by the innermost ``saved_tensors_hooks`` of
        this thread, and its version is recorded: changing a saved tensor in
        place before backward makes :meth:`saved_tensor` raise RuntimeError.

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Tanh(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         y = paddle.tanh(x)
        ...         ctx.save_for_backward(y)
        ...         return y
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         y, = ctx.saved_tensor()
        ...         return dy * (1 - paddle.square(y))
        >>> x = paddle.zeros([2]); x.stop_gradient = False
        >>> Tanh.apply(x).sum().backward()
        >>> x.grad.numpy()
        array([1., 1.], dtype=float32)
        """
        self._saved = tensors
        self._saved_hooks = current_saved_tensors_hooks()

    def saved_tensor(self):
        """The tensors given to :meth:`save_for_backward`, as a tuple, or ``None`` if none were.

        Under ``saved_tensors_hooks`` every call runs the unpack hook again.

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Identity(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return x * 1
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         print(ctx.saved_tensor())
        ...         return dy
        >>> x = paddle.ones([1]); x.stop_gradient = False
        >>> Identity.apply(x).backward()
        None
        """
        if self._packed is _NOTHING:
            return self._saved
        node = self._node_ref()
        if node is None:
            raise RuntimeError(f"{self._node_name()}: the graph this context belongs to has been "
                               f"freed, so its saved tensors are gone")
        return _unpack(self._packed, node)

    @property
    def saved_tensors(self):
        """Like :meth:`saved_tensor`, but always a tuple (empty when nothing was saved).

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Square(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         x, = ctx.saved_tensors
        ...         return 2 * x * dy
        >>> x = paddle.to_tensor([3.0], stop_gradient=False)
        >>> Square.apply(x).backward()
        >>> x.grad.numpy()
        array([6.], dtype=float32)
        """
        saved = self.saved_tensor()
        return () if saved is None else tuple(saved)

    @property
    def needs_input_grad(self):
        """One bool per input slot of ``forward``: does that input need a gradient?

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Add(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x, y):
        ...         print(ctx.needs_input_grad)
        ...         return x + y
        ...     @staticmethod
        ...     def backward(ctx, dz):
        ...         return dz, None
        >>> x = paddle.ones([1]); x.stop_gradient = False
        >>> _ = Add.apply(x, paddle.ones([1]))
        (True, False)
        """
        return self._needs_input_grad

    def mark_not_inplace(self, *tensors):
        """Mark inputs that ``forward`` may return as they are, without changing them in place.

        ``apply`` then gives the caller a new Tensor (same data) carrying the
        node, and the input keeps its own history.

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Passthrough(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.mark_not_inplace(x)
        ...         return x
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         return dy * 2
        >>> x = paddle.ones([1]); x.stop_gradient = False
        >>> y = Passthrough.apply(x)
        >>> y is x, x.is_leaf
        (False, True)
        >>> y.backward()
        >>> x.grad.numpy()
        array([2.], dtype=float32)
        """
        self._not_inplace = tensors

    def mark_non_differentiable(self, *tensors):
        """Mark outputs of ``forward`` that need no gradient.

        They come out with ``stop_gradient=True``, but still have a slot in
        ``backward``'s arguments (zeros, or ``None`` without materialization).

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class WithIndex(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         index = paddle.zeros([1])
        ...         ctx.mark_non_differentiable(index)
        ...         return x * 2, index
        ...     @staticmethod
        ...     def backward(ctx, dy, dindex):
        ...         return dy * 2
        >>> x = paddle.ones([1]); x.stop_gradient = False
        >>> y, index = WithIndex.apply(x)
        >>> y.stop_gradient, index.stop_gradient
        (False, True)
        """
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """Whether outputs without a gradient get zeros in ``backward`` (True, the default) or None.

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Two(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.set_materialize_grads(False)
        ...         return x * 1, x * 2
        ...     @staticmethod
        ...     def backward(ctx, g1, g2):
        ...         print(g2)
        ...         return g1
        >>> x = paddle.ones([1]); x.stop_gradient = False
        >>> Two.apply(x)[0].backward()
        None
        """
        self._materialize_grads = bool(value)

    def set_grad_in_dtype_consistent(self, flag):
        """Whether incoming gradients are cast to the dtype of their output (True, the default).

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Half(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return paddle.cast(x, 'float16')
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         print(dy.dtype)
        ...         return paddle.cast(dy, 'float32')
        >>> x = paddle.ones([1]); x.stop_gradient = False
        >>> Half.apply(x).backward(paddle.ones([1], dtype='float64'))
        pylayer.float16
        """
        self._grad_in_dtype_consistent = bool(flag)

    def __getattr__(self, name):
        # Only reached for attributes not found normally: outputs kept as attributes.
        held = self.__dict__.get("_held_outputs")
        if held is None or name not in held:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        array, index = held[name]
        tensor = make_tensor(array)
        node = self._node_ref()
        if node is not None:
            attach_node(node, tensor, index)  # back in the graph, for double backward
        return tensor

    def _node_name(self):
        cls = self._forward_cls
        return f"GradNodePyLayer_{cls.__name__ if cls is not None else '?'}"


# ---------------------------------------------------------------- outputs
class _Outputs:
    """What ``forward`` returned, and where each Tensor in it sits.

    ``slots`` has one entry per tensor output slot: a flat index (a Tensor) or
    a list of flat indices (a list/tuple holding Tensors). ``tensors`` is the
    flat list; ``replace(k, t)`` puts ``t`` where flat output ``k`` was.
    """

    def __init__(self, returned):
        self.returned = returned
        if isinstance(returned, (tuple, list)):
            self.items = list(returned)
        else:
            self.items = [returned]
        self.tensors = []
        self.places = []       # per flat output: (item index, inner index or None)
        self.slots = []
        for i, item in enumerate(self.items):
            if isinstance(item, Tensor):
                self.slots.append(len(self.tensors))
                self._add(item, (i, None))
            elif isinstance(item, (list, tuple)) and _tensors_in(item):
                span = []
                for j, inner in enumerate(item):
                    if isinstance(inner, Tensor):
                        span.append(len(self.tensors))
                        self._add(inner, (i, j))
                self.slots.append(span)

    def _add(self, tensor, place):
        self.tensors.append(tensor)
        self.places.append(place)

    def replace(self, k, tensor):
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

    def result(self):
        """The object to hand back: same shape as what forward returned."""
        if isinstance(self.returned, list):
            self.returned[:] = self.items
            return self.returned
        if isinstance(self.returned, tuple):
            return tuple(self.items)
        return self.items[0]


# ------------------------------------------------------------------ PyLayer
class PyLayer:
    """Base class of custom operators whose forward and backward are written in Python.

    Subclass it with a static ``forward(ctx, *args, **kwargs)`` and a static
    ``backward(ctx, *grads)``, then call ``MyLayer.apply(...)``. ``backward``
    gets one gradient per Tensor output of ``forward`` and returns one
    gradient (or None) per Tensor input (a list/tuple argument holding
    Tensors is one input, whose gradient is a list).

    >>> import pylayer as paddle
    >>> from pylayer.autograd import PyLayer
    >>> class cus_tanh(PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         y = paddle.tanh(x)
    ...         ctx.save_for_backward(y)
    ...         return y
    ...     @staticmethod
    ...     def backward(ctx, dy):
    ...         y, = ctx.saved_tensor()
    ...         return dy * (1 - paddle.square(y))
    >>> x = paddle.to_tensor([0.0, 1.0], dtype='float64', stop_gradient=False)
    >>> cus_tanh.apply(x).sum().backward()
    >>> x.grad.numpy().round(4)
    array([1.  , 0.42])
    """

    _context_class = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._context_class = type(f"{cls.__name__}Context", (PyLayerContext,),
                                  {"_forward_cls": cls, "__module__": cls.__module__,
                                   "__qualname__": f"{cls.__qualname__}Context"})
        cls._node_op_name = f"GradNodePyLayer_{cls.__name__}"

    @staticmethod
    def forward(ctx, *args, **kwargs):
        """Compute the outputs; must be overridden. Runs with gradient recording off.

        Returns a Tensor, or a tuple/list holding at least one Tensor; other
        values are passed through to the caller.

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Double(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return x * 2, "a label"
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         return dy * 2
        >>> y, label = Double.apply(paddle.ones([1]))
        >>> y.numpy(), label
        (array([2.], dtype=float32), 'a label')
        """
        raise NotImplementedError(f"{_layer_name(ctx)} must define a static forward(ctx, ...)")

    @staticmethod
    def backward(ctx, *args, **kwargs):
        """Compute the input gradients from the output gradients; must be overridden.

        >>> import pylayer as paddle
        >>> from pylayer.autograd import PyLayer
        >>> class Cube(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x * x
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         x, = ctx.saved_tensor()
        ...         return 3 * x * x * dy
        >>> x = paddle.to_tensor([2.0], stop_gradient=False)
        >>> Cube.apply(x).backward()
        >>> x.grad.numpy()
        array([12.], dtype=float32)
        """
        raise NotImplementedError(f"{_layer_name(ctx)} must define a static backward(ctx, *grads)")

    @classmethod
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
        if _state.static_mode:
            return _state.static_call(cls.apply, *args, **kwargs)
        if cls.forward is PyLayer.forward:
            raise NotImplementedError(f"{cls.__name__} must define a static forward(ctx, ...) "
                                      f"to be applied")
        ctx = cls._context_class()
        inputs, spans, ctx._needs_input_grad = _gather_inputs((*args, *kwargs.values()),
                                                              is_grad_enabled())
        previous = set_grad_enabled_flag(False)
        try:
            returned = cls.forward(ctx, *args, **kwargs)
        finally:
            set_grad_enabled_flag(previous)
        return _finish_apply(cls, ctx, inputs, spans, _Outputs(returned))


Function = PyLayer


def _layer_name(ctx):
    cls = getattr(ctx, "_forward_cls", None)
    return cls.__name__ if cls is not None else "PyLayer"


def _gather_inputs(values, recording):
    """The input slots of a call.

    Returns the flat list of input Tensors, per slot its flat index (or the
    list of flat indices of a list slot), and per slot whether it needs a
    gradient.
    """
    tensors, spans, needs = [], [], []
    for value in values:
        if isinstance(value, Tensor):
            spans.append(len(tensors))
            tensors.append(value)
            needs.append(recording and not value.stop_gradient)
        elif isinstance(value, (list, tuple)):
            items = [item for item in value if isinstance(item, Tensor)]
            if items:
                spans.append(list(range(len(tensors), len(tensors) + len(items))))
                tensors.extend(items)
                needs.append(recording and any(not t.stop_gradient for t in items))
    return tensors, spans, tuple(needs)


def _finish_apply(cls, ctx, inputs, spans, outputs):
    """Wire the outputs of ``forward`` to a new node (when one is needed)."""
    if not outputs.tensors:
        raise ValueError(f"{cls.__name__}.forward returned {type(outputs.returned).__name__}, "
                         f"but at least one output of PyLayer.forward must be a Tensor")
    build = any(ctx._needs_input_grad)
    in_place, skipped = [], set()
    if ctx._not_inplace or ctx._non_differentiable or _shares_an_object(inputs, outputs.tensors):
        in_place, skipped = _sort_outputs(cls, ctx, inputs, outputs, build)

    if not build:
        return outputs.result()

    for value in ctx.__dict__.values():
        if isinstance(value, Tensor):
            _hold_outputs_weakly(ctx, outputs, skipped)
            break
    node = new_node(tuple(inputs), cls._node_op_name, _node_backward, ctx,
                    len(outputs.tensors), True)
    ctx._node_ref = weakref.ref(node)
    ctx._input_slots = spans
    ctx._input_shapes = tuple([t._array.shape for t in inputs])
    ctx._output_slots = outputs.slots
    ctx._output_meta = tuple([(t._array.shape, t._array.dtype) for t in outputs.tensors])
    for t in in_place:
        t._set_array_inplace(t.numpy())
    _pack_saved(ctx, outputs, skipped)
    for k, t in enumerate(outputs.tensors):
        if k in skipped:
            t.stop_gradient = True
        else:
            attach_node(node, t, k)
    return outputs.result()


def _hold_outputs_weakly(ctx, outputs, skipped):
    """Take outputs that ``forward`` kept as plain ctx attributes (``ctx.y = y``) out of ctx.

    The node holds ctx and each output holds the node, so ``ctx.y`` would close
    a cycle that only the cyclic collector frees. ctx keeps their data instead,
    and reading ``ctx.y`` gives a tensor linked to the node again.
    """
    held = None
    for name, value in ctx.__dict__.items():
        if isinstance(value, Tensor):
            for k, t in enumerate(outputs.tensors):
                if t is value and k not in skipped:
                    held = held or {}
                    held[name] = (value._array, k)
    if held:
        for name in held:
            del ctx.__dict__[name]
        ctx._held_outputs = held


def _shares_an_object(inputs, tensors):
    """Whether an output is an input, or appears twice among the outputs."""
    if len(tensors) == 1:
        only = tensors[0]
        return any(t is only for t in inputs)
    ids = [id(t) for t in tensors]
    return len(set(ids)) < len(ids) or not set(ids).isdisjoint(id(t) for t in inputs)


def _sort_outputs(cls, ctx, inputs, outputs, build):
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
            outputs.replace(k, make_tensor(t.numpy()))
        elif id(t) in input_ids:
            if build and t.is_leaf and not t.stop_gradient:
                raise ValueError(
                    f"{cls.__name__}.forward returned its input (output {k}) in place, but that "
                    f"input is a leaf tensor that needs a gradient (stop_gradient=False), which "
                    f"cannot be changed in place; return a new tensor, or call "
                    f"ctx.mark_not_inplace on it")
            in_place.append(t)
        seen.add(id(t))
    return in_place, skipped


def _pack_saved(ctx, outputs, skipped):
    """Pack what save_for_backward got, under the hooks that were active when it was called."""
    saved, hooks = ctx._saved, ctx._saved_hooks
    if saved is None:
        return
    ctx._saved = ctx._saved_hooks = None
    if hooks is None and len(outputs.tensors) == 1 and not skipped:
        ctx._packed = _pack_plain(saved, outputs.tensors[0])
        if ctx._packed is not None:
            return
    # The node's own outputs are kept without their node (no cycle).
    attached = {id(t): k for k, t in enumerate(outputs.tensors) if k not in skipped}
    switch = hooks is not None and hooks != current_saved_tensors_hooks()
    if switch:
        push_saved_tensors_hooks(*hooks)
    try:
        ctx._packed = _pack(saved, attached, hooks)
    finally:
        if switch:
            pop_saved_tensors_hooks()


# ----------------------------------------------------------------- backward
def _node_backward(node, grads):
    """backward_fn of a PyLayer node: one gradient (or None) per input tensor."""
    ctx = node.attrs
    cls = ctx._forward_cls
    grads = _incoming_grads(ctx, grads)
    per_slot = [grads[s] if isinstance(s, int) else [grads[k] for k in s]
                for s in ctx._output_slots]
    try:
        result = cls.backward(ctx, *per_slot)
    except Exception as exc:
        renamed = _name_the_layer(exc, node.name())
        if renamed is exc:
            raise
        raise renamed from exc
    return _input_grads(ctx, node, result)


def _incoming_grads(ctx, grads):
    """Zeros (or None) for outputs that got no gradient; cast to each output's dtype."""
    if len(grads) == 1:
        g = grads[0]
        if g is not None and g._array.dtype == ctx._output_meta[0][1]:
            return grads
    prepared = []
    for g, (shape, dtype) in zip(grads, ctx._output_meta):
        if g is None:
            if ctx._materialize_grads:
                g = make_tensor(np.zeros(shape, dtype))
        elif ctx._grad_in_dtype_consistent and g.numpy().dtype != dtype:
            g = cast(g, dtype)
        prepared.append(g)
    return prepared


def _name_the_layer(exc, name):
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


def _input_grads(ctx, node, result):
    """Check what the user's backward returned and spread it over the node's inputs."""
    name = node.name()
    values = list(result) if isinstance(result, tuple) else [result]
    spans = ctx._input_slots
    if len(values) > len(spans):
        raise ValueError(
            f"{name}: backward returned {len(values)} gradients, but forward has "
            f"{len(spans)} Tensor input(s); the number of gradients should be {len(spans)}, "
            f"but received {len(values)}")
    flat = [None] * len(node.next_nodes)
    for i, span in enumerate(spans):
        needs = ctx._needs_input_grad[i]
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


def _checked(value, shape, name, where):
    if not isinstance(value, Tensor):
        raise ValueError(f"{name}: backward must return a Tensor or None at {where}, "
                         f"but it returned {type(value).__name__}")
    if value.numpy().shape != shape:
        raise ValueError(f"{name}: backward returned a gradient of shape "
                         f"{list(value.numpy().shape)} at {where}, but that input of forward "
                         f"has shape {list(shape)}")
    return value


# --------------------------------------------------------- once_differentiable
def once_differentiable(backward):
    """Decorate a PyLayer's ``backward`` that cannot itself be differentiated.

    The backward runs with recording off. If the gradients it returns are
    later differentiated again (after ``create_graph=True``), a RuntimeError
    names the layer, instead of silently giving no second-order gradient.

    >>> import pylayer as paddle
    >>> from pylayer.autograd import PyLayer, once_differentiable
    >>> class NumpyExp(PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         y = paddle.exp(x)
    ...         ctx.save_for_backward(y)
    ...         return y
    ...     @staticmethod
    ...     @once_differentiable
    ...     def backward(ctx, dy):
    ...         y, = ctx.saved_tensor()
    ...         return paddle.to_tensor(dy.numpy() * y.numpy())
    >>> x = paddle.zeros([1]); x.stop_gradient = False
    >>> NumpyExp.apply(x).backward()
    >>> x.grad.numpy()
    array([1.], dtype=float32)
    """
    if not callable(backward):
        raise TypeError(f"once_differentiable(): argument 'backward' must be the backward "
                        f"function to decorate, got {type(backward).__name__}")

    @functools.wraps(backward)
    def run_once(ctx, *grads):
        previous = set_grad_enabled_flag(False)
        try:
            result = backward(ctx, *grads)
        finally:
            set_grad_enabled_flag(previous)
        node = ctx._node_ref() if isinstance(ctx, PyLayerContext) and ctx._node_ref else None
        if not previous or node is None:
            return result
        return _guard_second_order(node, grads, result)
    return run_once


def _guard_second_order(node, grads, result):
    """Connect the results to a node that refuses to be differentiated."""
    incoming = [t for g in grads for t in _tensors_in(g)]
    name = node.name()

    def refuse(guard, second_grads):
        raise RuntimeError(
            f"{name}: its backward is decorated with once_differentiable, so it cannot be "
            f"differentiated a second time (a gradient computed with create_graph=True was "
            f"differentiated again); remove @once_differentiable and write backward with "
            f"differentiable pylayer ops to get higher-order gradients")

    values = list(result) if isinstance(result, tuple) else [result]
    count = sum(len(_tensors_in(v)) for v in values)
    guard = new_node(tuple(incoming), f"OnceDifferentiable_{name}", refuse, n_outputs=count)
    guard.next_nodes = node.next_nodes + guard.next_nodes
    guard.next_indices = node.next_indices + guard.next_indices
    if all(edge is None for edge in guard.next_nodes):
        return result
    counter = iter(range(count))

    def connect(value):
        if isinstance(value, Tensor):
            fresh = make_tensor(value.numpy())
            attach_node(guard, fresh, next(counter))
            return fresh
        if isinstance(value, (list, tuple)):
            return type(value)(connect(v) if isinstance(v, Tensor) else v for v in value)
        return value

    connected = [connect(v) for v in values]
    return tuple(connected) if isinstance(result, tuple) else connected[0]
