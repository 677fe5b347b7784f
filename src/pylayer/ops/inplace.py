"""In-place updates: ``x += y`` and the ``*_`` methods."""
import numpy as np

from pylayer._core.graph import needs_grad, set_history
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops.dispatch import has_static_variable
from pylayer.ops.shape import cast

__all__ = ["inplace"]


def _alias(x):
    """A new Tensor object for x's current data and place in the graph."""
    alias = make_tensor(x.numpy(), x.stop_gradient)
    set_history(alias, x.grad_fn, x._out_index)
    return alias


def refuse_leaf(x, recording, what):
    """A leaf that needs a gradient cannot be changed in place while recording."""
    if recording and x.is_leaf and not x.stop_gradient:
        raise ValueError(f"{what}: a leaf tensor that needs a gradient (stop_gradient=False) "
                         f"cannot be changed in place; change it under pylayer.no_grad() "
                         f"or change a copy")


def take_over(x, result):
    """Make ``x`` hold ``result``'s data and place in the graph (an in-place change)."""
    x._set_array_inplace(result.numpy())
    set_history(x, result.grad_fn, result._out_index)
    x.stop_gradient = result.stop_gradient


def inplace(x, op, *args, **kwargs):
    """Apply ``op(x, *args)`` and store the result in ``x`` itself (bumps its version).

    Without a graph to record, the data is written into ``x``'s own array.
    With one, ``x`` takes the result's array and node, so backward sees the
    change; a leaf that needs a gradient refuses.

    >>> import pylayer
    >>> x = pylayer.ones([2]); x += 1
    >>> x.numpy(), x.inplace_version
    (array([2., 2.], dtype=float32), 1)
    """
    if not callable(op):
        raise TypeError(f"inplace(): argument 'op' (position 2) must be callable, "
                        f"got {type(op).__name__}")
    if has_static_variable(x, *args, **kwargs):
        return op(x, *args, **kwargs)      # recorded out of place: a Variable has no storage
    name = getattr(op, "__name__", "op")
    if not isinstance(x, Tensor):
        raise TypeError(f"inplace(): argument 'x' (position 1) of the in-place {name} must be "
                        f"a Tensor, got {type(x).__name__}")
    recording = needs_grad(x, *args)
    refuse_leaf(x, recording, f"in-place {name}")
    # When recording, the op reads an alias of the old value: x's own array is
    # replaced (not overwritten), so what the op saved stays valid.
    if recording:
        source = _alias(x)
        args = tuple(source if a is x else a for a in args)
    else:
        source = x
    result = op(source, *args, **kwargs)
    if recording:
        if result.numpy().dtype != x.numpy().dtype:
            result = cast(result, x.dtype)
        take_over(x, result)
    else:
        target = x.numpy()
        if np.shape(result.numpy()) != target.shape:
            raise ValueError(f"in-place {name}: the result has shape "
                             f"{list(np.shape(result.numpy()))}, which does not fit x's shape "
                             f"{list(target.shape)}")
        if target.flags.writeable:
            np.copyto(target, result.numpy(), casting="unsafe")
            x._set_array_inplace(target)
        else:
            x._set_array_inplace(result.numpy().astype(target.dtype))
    return x
