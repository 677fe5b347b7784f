"""In-place updates: the ``*_`` methods and ``x[index] = value``.

An in-place op computes its result out of place, then writes it into the
tensor's own memory, so that every view and alias of that memory sees it, and
bumps the version they all share. While a graph is recorded the tensor also
takes the result's place in the graph; a view's base gets its history remade
(``pylayer._core.views``), so gradients see the write wherever they come from.
"""
import inspect

import numpy as np

from pylayer._kernels.dtypes import dtype_of, kind_of

from pylayer._core import views
from pylayer._core.graph import needs_grad, set_history
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops.dispatch import has_static_variable

__all__ = ["inplace"]


def inplace_twin(fn, takes_dtype=False):
    """``fn``'s in-place twin: ``twin(x, ...)`` stores ``fn(x, ...)`` in ``x`` itself
    (through :func:`inplace`), in x's dtype, or with ``takes_dtype=True`` in the result's
    (``cast_``). An area defines Paddle's function-level twins with it
    (``abs_ = inplace_twin(abs)``); the ``x.<name>_`` methods that have none are made
    with it too.

    >>> import pylayer as paddle
    >>> from pylayer import extend
    >>> x = paddle.to_tensor([-1.0, 2.0])
    >>> extend.inplace_twin(paddle.abs)(x) is x, x.numpy()
    (True, array([1., 2.], dtype=float32))
    """
    if not callable(fn):
        raise TypeError(f"inplace_twin(): argument 'fn' must be callable, got "
                        f"{type(fn).__name__}")

    name = fn.__name__
    called = f"{name}()"
    try:
        first = next(iter(inspect.signature(fn).parameters), "x")
    except (TypeError, ValueError):
        first = "x"

    def twin(x, *args, **kwargs):
        if not isinstance(x, Tensor) and not has_static_variable(x):
            raise TypeError(f"{name}_(): argument '{first}' (position 1) must be a Tensor, got "
                            f"{type(x).__name__}")
        try:
            return _inplace(x, fn, args, kwargs, takes_dtype)
        except Exception as error:
            # The op names itself in its argument errors; the user called the twin.
            text = error.args[0] if error.args else None
            for prefix in (called, f"in-place {name}:"):
                if isinstance(text, str) and text.startswith(prefix):
                    rest = text[len(prefix):]
                    error.args = (f"{name}_()" + (":" if prefix.endswith(":") else "")
                                  + rest,) + error.args[1:]
                    break
            raise
    twin.__name__ = twin.__qualname__ = fn.__name__ + "_"
    twin.__doc__ = f"In-place version of :func:`pylayer.{fn.__name__}`."
    twin.__wrapped__ = twin.__pylayer_inplace_of__ = fn
    return twin


def twin_of(value):
    """The op ``value`` is the in-place twin of (made by :func:`inplace_twin`), or None.

    >>> import pylayer
    >>> twin_of(pylayer.abs_) is pylayer.abs, twin_of(pylayer.abs)
    (True, None)
    """
    return getattr(value, "__pylayer_inplace_of__", None) if callable(value) else None


def _snapshot(x):
    """A new Tensor with a copy of x's current data and x's place in the graph: what an
    op recorded in place reads (and may keep for backward) while x is overwritten."""
    snapshot = make_tensor(np.array(x.numpy(), copy=True), x.stop_gradient)
    set_history(snapshot, x.grad_fn, x._out_index)
    return snapshot


def refuse_leaf(x, recording, what):
    """A leaf that needs a gradient, or a view of one, cannot be changed in place while
    recording."""
    if not recording:
        return
    if x.is_leaf and not x.stop_gradient and x._base is None:
        raise ValueError(f"{what}: a leaf tensor that needs a gradient (stop_gradient=False) "
                         f"cannot be changed in place; change it under pylayer.no_grad() "
                         f"or change a copy")
    base = x._base
    if base is not None and base.is_leaf and not base.stop_gradient and _differentiable(x):
        raise ValueError(f"{what}: x is a view of a leaf tensor that needs a gradient "
                         f"(stop_gradient=False), which cannot be changed in place; change "
                         f"it under pylayer.no_grad() or change a copy")


def _differentiable(x):
    return x._base is not None and views.is_differentiable_view(x)


def write_result(x, result, recording, what, takes_dtype=False, resizes=False):
    """Make ``x`` hold ``result`` (a Tensor computed out of place from x's old value) in
    place: its values written into x's memory, cast to x's dtype (with ``takes_dtype``,
    x takes the result's dtype and new memory), the shared version bumped, and, when
    ``recording``, x's place in the graph taken from ``result`` (through its base's
    history when x is a view). A result of another shape becomes x's new shape
    (``reshape_``, ``transpose_``), written into x's memory when it has as many
    elements; one of another size only with ``resizes`` (an ``out=`` argument)."""
    target = x.numpy()
    values = result.numpy()
    if not takes_dtype:
        _refuse_what_x_cannot_hold(values, target, what, resizes)
    if takes_dtype and values.dtype != target.dtype:
        if x._base is not None:
            raise ValueError(f"{what}: x is a view of another tensor's memory, whose dtype "
                             f"cannot change in place")
        x._set_array_inplace(values if values.base is None else values.copy())
    elif values.shape != target.shape:
        if x._base is not None and not np.may_share_memory(values, target):
            raise ValueError(f"{what}: x is a view of another tensor's memory, whose shape "
                             f"cannot change in place (the result has shape "
                             f"{list(values.shape)}, x has {list(target.shape)})")
        if (values.size == target.size and target.flags.c_contiguous
                and target.flags.writeable):
            # Paddle's in-place shape ops keep the memory: its aliases see the new values.
            np.copyto(target.reshape(-1), values.reshape(-1), casting="unsafe")
            x._set_array_inplace(target.reshape(values.shape))
        else:
            x._set_array_inplace(values.astype(target.dtype))
    elif target.flags.writeable:
        np.copyto(target, values, casting="unsafe")
        x._set_array_inplace(target)
    elif x._base is not None:
        raise ValueError(f"{what}: x is a view whose memory cannot be written (made by "
                         f"expand or broadcast_to, where elements share memory); write into "
                         f"a copy (x.clone()) instead")
    else:
        x._set_array_inplace(values.astype(target.dtype))
    if not recording:
        return
    if _differentiable(x):
        views.rebase(x, result, what)
        return
    if result.numpy().dtype != x.numpy().dtype:
        from pylayer.ops.shape import cast     # the areas import this module first
        result = cast(result, x.dtype)
    set_history(x, result.grad_fn, result._out_index)
    x.stop_gradient = result.stop_gradient


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _refuse_what_x_cannot_hold(values, target, what, resizes):
    """An in-place result must fit x: as many elements (an in-place op does not broadcast
    x to a larger shape, as in Paddle), and numbers of x's kind or a narrower one (a
    float result is not truncated into an integer x, nor a complex one into a real x)."""
    if values.size != target.size and not resizes:
        raise ValueError(f"{what}: the result has shape {list(values.shape)}, which x of "
                         f"shape {list(target.shape)} cannot hold: an in-place op does not "
                         f"broadcast x; use the out-of-place op")
    if _KIND_RANK[kind_of(values.dtype)] > _KIND_RANK[kind_of(target.dtype)]:
        raise TypeError(f"{what}: the result is {dtype_of(values.dtype).name}, which x "
                        f"({dtype_of(target.dtype).name}) cannot hold without losing its "
                        f"values; cast x first or use the out-of-place op")


def take_over(x, result):
    """Make ``x`` hold ``result``'s own data and place in the graph (``set_``: x leaves
    the memory it shared with its views)."""
    x._set_array_inplace(result.numpy())
    set_history(x, result.grad_fn, result._out_index)
    x.stop_gradient = result.stop_gradient


def inplace(x, op, *args, **kwargs):
    """Apply ``op(x, *args)`` and store the result in ``x`` itself (bumps its version).

    The result is written into ``x``'s memory, which every view of ``x`` shares:
    they see the new values. When a graph is recorded ``x`` takes the result's
    place in it (a view's base too); a leaf that needs a gradient refuses.

    >>> import pylayer
    >>> from pylayer.ops.inplace import inplace
    >>> t = pylayer.to_tensor([1.0, 4.0])
    >>> _ = inplace(t, pylayer.sqrt)
    >>> t.numpy(), t.inplace_version
    (array([1., 2.], dtype=float32), 1)
    >>> _ = t.add_(pylayer.ones([2]))
    >>> t.numpy(), t.inplace_version
    (array([2., 3.], dtype=float32), 2)
    """
    if not callable(op):
        raise TypeError(f"inplace(): argument 'op' (position 2) must be callable, "
                        f"got {type(op).__name__}")
    return _inplace(x, op, args, kwargs, False)


def _inplace(x, op, args, kwargs, takes_dtype):
    if has_static_variable(x, *args, **kwargs):
        return op(x, *args, **kwargs)      # recorded out of place: a Variable has no storage
    name = getattr(op, "__name__", "op")
    if not isinstance(x, Tensor):
        raise TypeError(f"inplace(): argument 'x' (position 1) of the in-place {name} must be "
                        f"a Tensor, got {type(x).__name__}")
    recording = needs_grad(x, *args)
    what = f"in-place {name}"
    refuse_leaf(x, recording, what)
    source = _snapshot(x) if recording else x
    if recording:
        args = tuple(source if a is x else a for a in args)
    write_result(x, op(source, *args, **kwargs), recording, what, takes_dtype)
    return x
