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
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

from pylayer._core.graph import Op, attach_node, new_node
from pylayer._core.tensor import Tensor, make_tensor, set_grad_enabled_flag
from pylayer.autograd import _apply
from pylayer.autograd._apply import ContextBase, node_of, unpack_saved

__all__ = ["PyLayer", "PyLayerContext", "Function", "once_differentiable"]


# ------------------------------------------------------------------ context
class PyLayerContext(ContextBase):
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

    # The bookkeeping of the call is kept in typed fields of ContextBase;
    # user attributes (``ctx.scale = 2``) go to the instance dict.
    _forward_cls = None

    def __init__(self) -> None:
        # A context takes no arguments; apply() makes one per call without calling this.
        pass

    def save_for_backward(self, *tensors: Tensor | Sequence[Tensor | None] | None) -> None:
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
        _apply.save(self, tensors)

    def saved_tensor(self) -> Any:
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
        return unpack_saved(self)

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
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
        saved = unpack_saved(self)
        return () if saved is None else tuple(saved)

    @property
    def needs_input_grad(self) -> tuple[bool, ...]:
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
        return _apply.needs_input_grad(self)

    def mark_not_inplace(self, *tensors: Tensor) -> None:
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
        _apply.mark(self, "not_inplace", tensors)

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
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
        _apply.mark(self, "non_differentiable", tensors)

    def set_materialize_grads(self, value: bool) -> None:
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
        _apply.set_flag(self, "materialize_grads", bool(value))

    def set_grad_in_dtype_consistent(self, flag: bool) -> None:
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
        _apply.set_flag(self, "grad_in_dtype_consistent", bool(flag))

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes not found normally: Tensors set as attributes,
        # which the compiled base keeps apart (outputs among them as their data).
        try:
            return _apply.tensor_attribute(self, name)
        except AttributeError:
            pass
        hint = _PYTORCH_ONLY.get(name, "")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'{hint}")

    def __repr__(self) -> str:
        layer = getattr(type(self), "_forward_cls", None)
        return f"<PyLayerContext of {layer.__name__ if layer else 'PyLayer'}>"


# Context methods of torch.autograd.Function that Paddle's (and so pylayer's) lacks.
_PYTORCH_ONLY = {
    "mark_dirty": ("; pylayer has no mark_dirty (a PyTorch name): an output of forward that "
                   "is one of its inputs is taken as changed in place automatically (its "
                   "version is bumped); use ctx.mark_not_inplace to return it unchanged"),
    "save_for_forward": "; pylayer has no forward-mode autograd (a PyTorch name)",
    "set_materialize_grads_": "; did you mean set_materialize_grads?",
}


# ------------------------------------------------------------------ PyLayer
def _layer_op(name: str) -> Op:
    """The record of a PyLayer's nodes: any number of inputs, the context as its one
    attribute, and one rule for all inputs, which runs the layer's backward."""
    return Op(f"GradNodePyLayer_{name}", inputs=None, attrs=("ctx",), vjp=_apply.layer_vjp,
              user_code=True)


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

    _context_class: type[PyLayerContext] | None = None
    _op: Op

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._context_class = type(f"{cls.__name__}Context", (PyLayerContext,),
                                  {"_forward_cls": cls, "__module__": cls.__module__,
                                   "__qualname__": f"{cls.__qualname__}Context"})
        cls._op = _layer_op(cls.__name__)

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
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
    def backward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
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

    apply = classmethod(_apply.apply)

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"a PyLayer is not called as an object: use "
                        f"{type(self).__name__}.apply(...), which runs forward and records "
                        f"the node for backward")


PyLayer._context_class = PyLayerContext
PyLayer._op = _layer_op("PyLayer")

Function = PyLayer


def _layer_name(ctx: Any) -> str:
    cls = getattr(ctx, "_forward_cls", None)
    return cls.__name__ if cls is not None else "PyLayer"


# --------------------------------------------------------- once_differentiable
_Backward = TypeVar("_Backward", bound=Callable[..., Any])


def once_differentiable(backward: _Backward) -> _Backward:
    """Decorate a PyLayer's ``backward`` that cannot itself be differentiated.

    The backward runs with recording off. If the gradients it returns are
    later differentiated again (after ``create_graph=True``), a RuntimeError
    names the layer, instead of silently giving no second-order gradient.

    >>> import pylayer as paddle
    >>> from pylayer.autograd import PyLayer
    >>> from pylayer.autograd import once_differentiable
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
    def run_once(ctx: Any, *grads: Any) -> Any:
        previous = set_grad_enabled_flag(False)
        try:
            result = backward(ctx, *grads)
        finally:
            set_grad_enabled_flag(previous)
        node = node_of(ctx) if isinstance(ctx, PyLayerContext) else None
        if not previous or node is None:
            return result
        return _guard_second_order(node, grads, result)
    return run_once  # type: ignore[return-value]  # functools.wraps keeps the signature


def _tensors_in(value):
    """The Tensors of a gradient: itself, or the Tensor items of a list/tuple."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [item for item in value if isinstance(item, Tensor)]
    return []


def _guard_second_order(node, grads, result):
    """Connect the results to a node that refuses to be differentiated."""
    incoming = [t for g in grads for t in _tensors_in(g)]
    name = node.name()

    def refuse(second_grads):
        raise RuntimeError(
            f"{name}: its backward is decorated with once_differentiable, so it cannot be "
            f"differentiated a second time (a gradient computed with create_graph=True was "
            f"differentiated again); remove @once_differentiable and write backward with "
            f"differentiable pylayer ops to get higher-order gradients")

    values = list(result) if isinstance(result, tuple) else [result]
    count = sum(len(_tensors_in(v)) for v in values)
    guard = new_node(Op(f"OnceDifferentiable_{name}", inputs=None, vjp=refuse,
                        multi_output=True), tuple(incoming), (), count, node)
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
