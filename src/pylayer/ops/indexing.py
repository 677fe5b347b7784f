"""Tensor indexing: differentiable ``x[index]`` and in-place ``x[index] = value``.

Both follow numpy's rules: ints, slices (any step), ``None``, ``Ellipsis``
give basic indexing; int or bool arrays, lists and Tensors give advanced
indexing. The gradient of a read scatters back into zeros, adding up where an
advanced index repeats a position (``np.add.at``).

``take`` and ``scatter_add`` are the two primitives behind ``getitem`` and
the index-based ops (``slice``, ``gather``, ``index_select``, ...): each one's
gradient rule is the other, so every order of derivative is recorded. Each op
that reads ``x[index]`` has a record of its own, named after it, made by
:func:`index_records` the first time it is used.
"""
import numpy as np

from pylayer._kernels.dtypes import holds_numbers, is_bool, is_complex, is_integer
from pylayer._core.graph import Op, make_output, needs_grad
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops.arithmetic import multiply
from pylayer.ops.dispatch import op
from pylayer.ops.inplace import refuse_leaf, write_result
from pylayer.ops.reduction import unbroadcast
from pylayer.ops.shape import cast, reshape_exact

__all__ = []


def normalize_index(index, fn):
    """``index`` as a tuple numpy accepts, and whether it holds an advanced part.

    Index arrays are private copies: backward keeps them, and the caller's
    tensor or array may change after the forward.
    """
    items = index if isinstance(index, tuple) else (index,)
    normalized = []
    advanced = False
    for item in items:
        if isinstance(item, Tensor):
            item = item.numpy()
        elif isinstance(item, list):
            item = np.asarray(item) if len(item) else np.zeros([0], np.int64)
        if isinstance(item, np.ndarray):
            item = np.array(item, copy=True)
            if not (is_integer(item.dtype) or is_bool(item.dtype)):
                raise IndexError(f"{fn}: index arrays and tensors must hold integers or "
                                 f"booleans, got dtype {item.dtype}")
            advanced = True
        elif isinstance(item, (bool, np.bool_)):
            advanced = True
        elif not (item is None or item is Ellipsis or isinstance(item, (slice, int, np.integer))):
            raise IndexError(f"{fn}: an index must be an int, slice, None, Ellipsis, a list, a "
                             f"numpy array or a Tensor of ints or booleans, got "
                             f"{type(item).__name__}")
        normalized.append(item)
    return tuple(normalized), advanced


def _index_array(a, index, fn):
    try:
        out = a[index]
        if not isinstance(out, np.ndarray):
            # numpy gives a scalar copy for one element; a 0-d view with Ellipsis
            out = a[index + (Ellipsis,)] if Ellipsis not in index else np.asarray(out)
        return out
    except IndexError as exc:
        raise IndexError(f"{fn}: {exc} (tensor shape {list(a.shape)})") from None


_INDEX_RECORDS = {}
# The ops that read ``x[index]`` with basic indexing, whose result views x's memory.
BASIC_INDEX_OPS = frozenset(["getitem", "slice"])


def index_records(op_name):
    """The records of the op ``op_name`` that reads ``x[index]`` and of its gradient,
    ``<op_name>_grad``, which adds ``g`` at the index into zeros: each one's rule is
    the other. One pair per name, made the first time the name is used.

    >>> [record.name for record in index_records("gather")]
    ['gather', 'gather_grad']
    """
    records = _INDEX_RECORDS.get(op_name)
    if records is None:
        read = Op(op_name, attrs=("x_shape", "index", "advanced"),
                  vjp=(lambda g, x_shape, index, advanced:
                       scatter_add(g, x_shape, index, advanced, op_name),),
                  view=op_name in BASIC_INDEX_OPS)
        added = Op(op_name + "_grad", attrs=("index", "advanced"),
                   vjp=(lambda g, index, advanced: take(g, index, advanced, op_name),))
        records = _INDEX_RECORDS[op_name] = (read, added)
    return records


def take(x, index, advanced, op_name):
    """``x[index]`` for a normalized index, recorded as the op ``op_name``; saves nothing."""
    a = x.numpy()
    out = _index_array(a, index, op_name)
    return make_output(index_records(op_name)[0], out, (x,), (a.shape, index, advanced))


def scatter_add(g, shape, index, advanced, op_name):
    """Zeros of ``shape`` with ``g`` added at ``index`` (repeated positions add up),
    recorded as the gradient of the op ``op_name``."""
    ga = g.numpy()
    out = np.zeros(shape, ga.dtype)
    if advanced:
        np.add.at(out, index, ga)
    else:
        out[index] = ga
    return make_output(index_records(op_name)[1], out, (g,), (index, advanced))


@op
def getitem(x, index):
    """``x[index]`` with numpy's basic and advanced indexing, differentiable.

    Basic indexing returns a view of ``x``'s data, as numpy does. The backward
    scatters the gradient into zeros shaped like ``x``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    >>> y = x[[0, 0], 1]
    >>> y.numpy()
    array([2., 2.], dtype=float32)
    >>> y.sum().backward()
    >>> x.grad.numpy()
    array([[0., 2.],
           [0., 0.]], dtype=float32)
    """
    index, advanced = normalize_index(index, "getitem")
    return take(x, index, advanced, "getitem")


def _set_value_x_vjp(g, index):
    """The old ``x`` gets the gradient of the positions that were not written."""
    keep = np.ones(g.numpy().shape, g.numpy().dtype)
    keep[index] = 0
    return multiply(g, make_tensor(keep))


def _set_value_value_vjp(g, index, advanced, value_shape, written_shape, value_dtype):
    """The value gets the gradient of the positions it filled, summed over broadcasting."""
    grad = take(g, index, advanced, "getitem")
    lead = len(value_shape) - grad.ndim
    if lead > 0:  # numpy accepts extra leading 1-dims on the value
        grad = take(grad, (None,) * lead + (Ellipsis,), False, "getitem")
    grad = unbroadcast(grad, written_shape)
    if written_shape != value_shape:
        grad = reshape_exact(grad, value_shape)
    if grad.numpy().dtype != value_dtype:
        grad = cast(grad, value_dtype)
    return grad


SET_VALUE = Op("set_value", inputs=("x", "value"),
               attrs=("index", "advanced", "value_shape", "written_shape", "value_dtype"),
               vjp=(_set_value_x_vjp, _set_value_value_vjp))


@op
def setitem(x, index, value):
    """``x[index] = value`` in place: bumps ``x.inplace_version``.

    When a graph is recorded (grad mode on and ``x`` or ``value`` needs a
    gradient), ``x`` becomes the output of a ``set_value`` node: its gradient
    reaches the old ``x`` with zeros at the written positions, and ``value``
    gets the gradient of the positions it filled, summed over broadcasting.
    A leaf that needs a gradient cannot be written then (``ValueError``);
    under ``no_grad`` it can, which is how parameters are updated.

    The value broadcasts to the selected positions as in numpy; a value whose
    shape differs from theirs only by size-1 dimensions is reshaped to it
    (a shape-``[1]`` tensor written into one element, as Paddle allows).
    Any other shape is a ``ValueError``.

    >>> import pylayer
    >>> x = pylayer.zeros([3])
    >>> x[1:] = 5.0
    >>> x.numpy(), x.inplace_version
    (array([0., 5., 5.], dtype=float32), 1)
    >>> g = pylayer.zeros([2, 2])
    >>> g[1, 1] = pylayer.to_tensor([7.0])
    >>> g.numpy()
    array([[0., 0.],
           [0., 7.]], dtype=float32)
    """
    index, advanced = normalize_index(index, "setitem")
    value_tensor = value if isinstance(value, Tensor) else None
    value_array = value.numpy() if value_tensor is not None else np.asarray(value)
    if not holds_numbers(value_array.dtype):
        raise TypeError(f"setitem: the value must be a number, an array or a Tensor, "
                        f"got {type(value).__name__}")
    recording = needs_grad(x, value_tensor)
    refuse_leaf(x, recording, "setitem")
    target = x.numpy()
    if is_complex(value_array.dtype) and not is_complex(target.dtype):
        raise TypeError(f"setitem: a complex value ({value_array.dtype}) cannot be written "
                        f"into a tensor of dtype {x.dtype.name}: cast the tensor to a complex "
                        f"dtype first")
    if not recording and target.flags.writeable:
        _write(target, index, value_array)
        x._set_array_inplace(target)      # written in its memory: bump the version
        return x
    target = np.array(target, copy=True)
    written = _write(target, index, value_array)
    if recording:
        result = make_output(SET_VALUE, target, (x, value_tensor),
                             (index, advanced, value_array.shape, written.shape,
                              value_array.dtype))
    else:
        result = make_tensor(target)
    write_result(x, result, recording, "setitem")
    return x


def _write(target, index, value):
    """``target[index] = value``; returns the value as written (maybe reshaped)."""
    try:
        try:
            target[index] = value
            return value
        except ValueError:
            selected = target[index].shape
            if [s for s in value.shape if s != 1] != [s for s in selected if s != 1]:
                raise ValueError(f"setitem: a value of shape {list(value.shape)} cannot be "
                                 f"written into x{_describe(index)}, whose shape is "
                                 f"{list(selected)}: the value must broadcast to it or differ "
                                 f"from it only by size-1 dimensions") from None
            value = value.reshape(selected)
            target[index] = value
            return value
    except IndexError as exc:
        raise IndexError(f"setitem: {exc} (tensor shape {list(target.shape)})") from None


def _describe(index):
    return "[" + ", ".join(type(i).__name__ if isinstance(i, np.ndarray) else repr(i)
                           for i in index) + "]"


def _put_x_vjp(g, keep):
    """``x`` gets the gradient of the positions it kept (all when ``keep`` is None)."""
    return g if keep is None else multiply(g, make_tensor(keep.astype(g.numpy().dtype)))


def _put_values_vjp(g, index, winners):
    """Each value gets the gradient of its position (where it won, when written)."""
    grad = take(g, index, True, "take_along_axis")
    if winners is None:
        return grad
    return multiply(grad, make_tensor(winners.astype(g.numpy().dtype)))


PUT_ALONG_AXIS = Op("put_along_axis", inputs=("x", "values"), attrs=("index", "keep", "winners"),
                    vjp=(_put_x_vjp, _put_values_vjp))


def put(x, index, values, accumulate, keep_self):
    """A copy of ``x`` with ``values`` written (or added) at the advanced ``index``
    (``put_along_axis``).

    ``values`` has the index's shape and ``x``'s dtype. Written: where an
    index repeats, the last value in C order wins. Added: repeated positions
    add up, and ``keep_self=False`` first zeroes the positions written to.
    """
    a = x.numpy()
    v = values.numpy()
    out = np.array(a, copy=True)
    written = np.zeros(a.shape, bool)
    written[index] = True
    winners = None
    if accumulate:
        if not keep_self:
            out[written] = 0
        np.add.at(out, index, v)
    else:
        order = np.arange(v.size).reshape(v.shape)
        last = np.full(a.shape, -1)
        np.maximum.at(last, index, order)
        winners = last[index] == order
        out[tuple(i[winners] for i in np.broadcast_arrays(*index))] = v[winners]
    keep = None if accumulate and keep_self else ~written
    return make_output(PUT_ALONG_AXIS, out, (x, values), (index, keep, winners))
