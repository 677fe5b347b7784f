"""``backward`` and ``grad``: the user-facing entry points of the engine."""
from __future__ import annotations

import threading
from typing import Literal, Optional, Sequence, Union, overload

import numpy as np

from pylayer._kernels.dtypes import holds_numbers
from pylayer._core.engine import run_backward
from pylayer._core.tensor import Tensor, make_tensor, to_array

__all__ = ["backward", "grad"]   # tensor_backward is Tensor.backward


def _as_tensor_list(value, fn, arg):
    items = [value] if isinstance(value, Tensor) else value
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a Tensor or a list of Tensors, "
                        f"got {type(value).__name__}")
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            raise TypeError(f"{fn}(): argument '{arg}' item {i} must be a Tensor, "
                            f"got {type(item).__name__}")
    return list(items)


def _as_grad_list(value, outputs, fn, arg):
    """One starting gradient (a Tensor of the output's shape, or None) per output."""
    if value is None:
        return [None] * len(outputs)
    items = [value] if isinstance(value, (Tensor, np.ndarray)) else value
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a Tensor, a list of Tensors or None, "
                        f"got {type(value).__name__}")
    if len(items) != len(outputs):
        raise ValueError(f"{fn}(): argument '{arg}' has {len(items)} entries, but there are "
                         f"{len(outputs)} tensors to differentiate; pass one gradient (or "
                         f"None) per tensor")
    return [_checked_grad(item, out, i, fn, arg) for i, (item, out) in enumerate(zip(items, outputs))]


def _checked_grad(g, output, i, fn, arg):
    if g is None:
        return None
    if isinstance(g, np.ndarray):
        g = make_tensor(to_array(g, None, fn, arg))
    if not isinstance(g, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' item {i} must be a Tensor or None, "
                        f"got {type(g).__name__}")
    kind = g.numpy().dtype
    if not holds_numbers(kind):
        raise TypeError(f"{fn}(): argument '{arg}' must hold numbers, got data of numpy "
                        f"dtype {kind}")
    if kind.kind == "c" and output.numpy().dtype.kind != "c":
        raise TypeError(f"{fn}(): argument '{arg}' item {i} is a complex gradient "
                        f"({g.dtype.name}) for a real tensor ({output.dtype.name}); a real "
                        f"tensor's gradient is real")
    if g.numpy().shape != output.numpy().shape:
        # As Paddle: a [1] gradient for a 0-D output (and the like) is taken as is.
        if _without_ones(g.shape) != _without_ones(output.shape):
            raise ValueError(f"{fn}(): argument '{arg}' has a gradient of shape {g.shape} for "
                             f"a tensor of shape {output.shape}; they must match, or differ "
                             f"only by dimensions of size 1")
        g = g.reshape(output.shape)
    return g


def _without_ones(shape):
    return [d for d in shape if d != 1]


# Per thread, one list of queued callbacks per backward pass in progress (a backward
# started from a hook inside another has its own).
_passes = threading.local()


def queue_callback(callback):
    """Run ``callback()`` when the backward pass in progress (``backward`` or
    ``Tensor.backward``; called from a gradient hook) has finished, after every
    gradient has been added to the leaves' ``.grad``. Callbacks run in the order they
    were queued, only when the pass succeeded; one queued by a callback runs too.
    Returns False, queueing nothing, outside such a pass (in ``grad``, which fills
    no ``.grad``, or outside backward).

    >>> import pylayer
    >>> from pylayer.autograd.functional import queue_callback
    >>> x = pylayer.to_tensor([2.0], stop_gradient=False)
    >>> seen = []
    >>> _ = x.register_hook(lambda g: queue_callback(lambda: seen.append(x.grad.item())) and None)
    >>> (x * 3).sum().backward()
    >>> seen
    [3.0]
    """
    if not callable(callback):
        raise TypeError(f"queue_callback(): argument 'callback' (position 1) must be callable, "
                        f"got {type(callback).__name__}")
    stack = getattr(_passes, "stack", None)
    if not stack or stack[-1] is None:
        return False
    stack[-1].append(callback)
    return True


def _accumulating_backward(tensors, grads, retain_graph):
    """run_backward into the leaves' .grad, then the callbacks queued during it."""
    stack = _passes.__dict__.setdefault("stack", [])
    queued = []
    stack.append(queued)
    try:
        run_backward(tensors, grads, retain_graph)
    finally:
        stack.pop()
    i = 0
    stack.append(queued)            # a callback may queue another
    try:
        while i < len(queued):
            queued[i]()
            i += 1
    finally:
        stack.pop()


def tensor_backward(tensor, grad_tensor=None, retain_graph=False):
    """``Tensor.backward``: the engine's backward from one tensor, its argument checked."""
    grads = _as_grad_list(None if grad_tensor is None else [grad_tensor], [tensor], "backward",
                          "grad_tensor")
    _accumulating_backward([tensor], grads, bool(retain_graph))


def backward(tensors, grad_tensors=None, retain_graph=False):
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of graph leaves.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> y1, y2 = (x * x).sum(), (3 * x).sum()
    >>> pylayer.autograd.backward([y1, y2])
    >>> x.grad.numpy()
    array([5., 7.], dtype=float32)
    """
    tensors = _as_tensor_list(tensors, "backward", "tensors")
    grads = _as_grad_list(grad_tensors, tensors, "backward", "grad_tensors")
    _accumulating_backward(tensors, grads, bool(retain_graph))


Tensors = Union[Tensor, Sequence[Tensor]]


# The types: a list of Tensors, holding None only where allow_unused=True let an input go unused.
@overload
def grad(outputs: Tensors, inputs: Tensors,
         grad_outputs: Union[Tensor, Sequence[Optional[Tensor]], None] = ...,
         retain_graph: Optional[bool] = ..., create_graph: bool = ..., only_inputs: bool = ...,
         allow_unused: Literal[False] = ..., no_grad_vars: Optional[Tensors] = ...
         ) -> list[Tensor]: ...
@overload
def grad(outputs: Tensors, inputs: Tensors,
         grad_outputs: Union[Tensor, Sequence[Optional[Tensor]], None] = ...,
         retain_graph: Optional[bool] = ..., create_graph: bool = ..., only_inputs: bool = ...,
         allow_unused: bool = ..., no_grad_vars: Optional[Tensors] = ...
         ) -> list[Optional[Tensor]]: ...
def grad(outputs: Tensors, inputs: Tensors,
         grad_outputs: Union[Tensor, Sequence[Optional[Tensor]], None] = None,
         retain_graph: Optional[bool] = None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: bool = False,
         no_grad_vars: Optional[Tensors] = None) -> list[Optional[Tensor]]:
    """Gradients of ``outputs`` with respect to ``inputs``, returned as a list.

    No ``.grad`` is changed. An input that the outputs do not depend on is an
    error unless ``allow_unused=True`` (then its entry is None). With
    ``create_graph=True`` the gradients are themselves differentiable.

    >>> import pylayer
    >>> x = pylayer.to_tensor([3.0], stop_gradient=False)
    >>> y = x ** 3
    >>> (dx,) = pylayer.grad(y, x, create_graph=True)
    >>> (ddx,) = pylayer.grad(dx, x)
    >>> dx.numpy(), ddx.numpy()
    (array([27.], dtype=float32), array([18.], dtype=float32))
    """
    outputs = _as_tensor_list(outputs, "grad", "outputs")
    inputs_list = _as_tensor_list(inputs, "grad", "inputs")
    grads = _as_grad_list(grad_outputs, outputs, "grad", "grad_outputs")
    if not only_inputs:
        raise ValueError("grad(): only_inputs=False is not supported (as in Paddle)")
    for i, t in enumerate(inputs_list):
        if t.stop_gradient:
            raise ValueError(f"grad(): input {i} has stop_gradient=True, so no gradient "
                             f"can be computed for it")
    blocked = _as_tensor_list(no_grad_vars, "grad", "no_grad_vars") if no_grad_vars is not None else []
    if retain_graph is None:
        retain_graph = create_graph
    stack = _passes.__dict__.setdefault("stack", [])
    stack.append(None)              # a grad() pass takes no callbacks
    try:
        found = run_backward(outputs, grads, bool(retain_graph), bool(create_graph),
                             inputs=inputs_list, allow_unused=bool(allow_unused),
                             blocked=blocked)
    finally:
        stack.pop()
    for i, g in enumerate(found):
        if g is None and not allow_unused:
            raise ValueError(f"grad(): input {i} is not used to compute the outputs, so it has "
                             f"no gradient; pass allow_unused=True to get None for it")
        if g is not None and create_graph:
            g.stop_gradient = False
    return found
