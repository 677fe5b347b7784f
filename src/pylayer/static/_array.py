"""Tensor arrays: ``create_array``, ``array_write``, ``array_read``, ``array_length``.

In dynamic mode an array is a Python list of Tensors, as in Paddle. In a
static program it is a Variable of kind ``"array"`` whose value at run time
is such a list; ``array_write`` records an op that writes a new list into the
same Variable (so a loop body can grow it), and gradients flow from what
``array_read`` returns to what was written.
"""
from pylayer.extend import Tensor, describe
from pylayer.ops.dispatch import in_dynamic_mode
from pylayer.static._program import default_main_program
from pylayer.static._variable import Variable, as_dtype, public_api

__all__ = ["create_array", "array_write", "array_read", "array_length", "array_variable"]


def array_variable(block, name, dtype, element=None, stop_gradient=True):
    """A Variable of kind "array" in ``block``; ``element`` is the shape of its items
    when known (the shape of what ``array_read`` returns)."""
    var = Variable(block, name, [-1], dtype, stop_gradient=stop_gradient, kind="array")
    var.element_shape = None if element is None else list(element)
    block.vars[name] = var
    return var


def _merge_element(var, shape):
    old = getattr(var, "element_shape", None)
    if old is None:
        var.element_shape = list(shape)
    elif len(old) != len(shape):
        var.element_shape = [-1] * len(old)
    else:
        var.element_shape = [a if a == b else -1 for a, b in zip(old, shape)]


def _new_array(*items):
    return list(items)


_new_array.__name__ = "create_array"


def _array_write(x, i, array):
    index = int(i.numpy().reshape(-1)[0])
    if not 0 <= index <= len(array):
        raise IndexError(f"array_write(): index {index} is out of range for an array of "
                         f"length {len(array)} (write at most one past the end)")
    written = list(array)
    if index < len(written):
        written[index] = x
    else:
        written.append(x)
    return written


_array_write.__name__ = "array_write"


def _array_read(array, i):
    index = int(i.numpy().reshape(-1)[0])
    if not -len(array) <= index < len(array):
        raise IndexError(f"array_read(): index {index} is out of range for an array of "
                         f"length {len(array)}")
    return public_api().assign(array[index])


_array_read.__name__ = "array_read"


def _array_length(array):
    return public_api().full([1], len(array), "int64")


_array_length.__name__ = "array_length"


def _check_index(i, fn):
    if not isinstance(i, (Tensor, Variable)):
        raise TypeError(f"{fn}(): argument 'i' must be an integer Tensor of shape [1], "
                        f"got {describe(i)}")
    if list(i.shape) != [1]:
        raise ValueError(f"{fn}(): argument 'i' must have shape [1], got {list(i.shape)}")
    if i.dtype.is_floating_point or i.dtype.is_complex or i.dtype.name == "bool":
        raise TypeError(f"{fn}(): argument 'i' must be an integer Tensor, got dtype "
                        f"{i.dtype.name}")


def _check_array(array, fn, static):
    if static:
        if not isinstance(array, Variable) or array.kind != "array":
            raise TypeError(f"{fn}(): argument 'array' must be an array made by create_array "
                            f"(in a static program), got {describe(array)}")
    elif not isinstance(array, list):
        raise TypeError(f"{fn}(): argument 'array' must be a list of Tensors in dynamic "
                        f"mode, got {describe(array)}")


def create_array(dtype, initialized_list=None):
    """A new tensor array of ``dtype``, holding the Tensors of ``initialized_list``.

    In dynamic mode it is a Python list; in a static program, a Variable that
    :func:`array_write`, :func:`array_read` and :func:`array_length` use.

    >>> import pylayer as paddle
    >>> arr = paddle.static.create_array("float32", [paddle.ones([2])])
    >>> type(arr), len(arr)
    (<class 'list'>, 1)
    """
    dtype = as_dtype(dtype, "create_array")
    items = []
    if initialized_list is not None:
        if not isinstance(initialized_list, (list, tuple)):
            raise TypeError(f"create_array(): argument 'initialized_list' must be a list or "
                            f"tuple, got {describe(initialized_list)}")
        items = list(initialized_list)
    for n, item in enumerate(items):
        if not isinstance(item, (Tensor, Variable)):
            raise TypeError(f"create_array(): argument 'initialized_list' item {n} must be a "
                            f"Tensor, got {describe(item)}")
    if in_dynamic_mode() and not any(isinstance(v, Variable) for v in items):
        return items
    block = default_main_program().current_block()
    array = array_variable(block, block.program._unique_name("array") + ".out", dtype,
                           stop_gradient=all(v.stop_gradient for v in items))
    for item in items:
        _merge_element(array, item.shape)
    floating = dtype.is_floating_point or dtype.is_complex
    block.append_op("create_array", _new_array, items, {}, items, [array], [None],
                    [floating])
    return array


def array_write(x, i, array=None):
    """Write ``x`` at position ``i`` (a [1] integer Tensor) of ``array``; returns the array.

    ``i`` may be at most the array's length (writing there appends). Without
    ``array`` a new one is made.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [2], "float32")
    ...     i = paddle.zeros([1], "int64")
    ...     arr = paddle.static.array_write(x, i)
    ...     arr = paddle.static.array_write(x * 2.0, i + 1, array=arr)
    ...     last = paddle.static.array_read(arr, i + 1)
    ...     n = paddle.static.array_length(arr)
    >>> paddle.static.Executor().run(main, feed={"x": np.array([1., 2.], "float32")},
    ...                              fetch_list=[last, n])
    [array([2., 4.], dtype=float32), array([2])]
    >>> paddle.disable_static()
    """
    if not isinstance(x, (Tensor, Variable)):
        raise TypeError(f"array_write(): argument 'x' must be a Tensor, got {describe(x)}")
    _check_index(i, "array_write")
    static = any(isinstance(v, Variable) for v in (x, i, array))
    if not static:
        if array is None:
            array = create_array(x.dtype)
        _check_array(array, "array_write", False)
        array[:] = _array_write(x, i, array)       # in place, as in Paddle
        return array
    if array is None:
        array = create_array(x.dtype)
    _check_array(array, "array_write", True)
    if array.dtype != x.dtype:
        raise TypeError(f"array_write(): the array holds {array.dtype.name}, but 'x' has "
                        f"dtype {x.dtype.name}")
    _merge_element(array, x.shape)
    if not x.stop_gradient:
        array._stop_gradient = False
    block = default_main_program().current_block()
    floating = x.dtype.is_floating_point or x.dtype.is_complex
    block.append_op("array_write", _array_write, [x, i, array], {}, [x, i, array], [array],
                    [None], [floating])
    return array


def array_read(array, i):
    """The Tensor at position ``i`` (a [1] integer Tensor) of ``array``.

    >>> import pylayer as paddle
    >>> arr = paddle.static.create_array("float32", [paddle.ones([2]), paddle.zeros([2])])
    >>> paddle.static.array_read(arr, paddle.to_tensor([1]))
    Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
           [0., 0.])
    """
    _check_index(i, "array_read")
    static = isinstance(array, Variable) or isinstance(i, Variable)
    _check_array(array, "array_read", static)
    if not static:
        index = int(i.item())
        if not -len(array) <= index < len(array):
            raise IndexError(f"array_read(): index {index} is out of range for an array of "
                             f"length {len(array)}")
        return array[index]
    block = default_main_program().current_block()
    name = block.program._unique_name("array_read") + ".tmp_0"
    shape = getattr(array, "element_shape", None)
    if shape is None:
        raise ValueError("array_read(): nothing has been written to the array yet, so the "
                         "shape of its items is unknown")
    out = Variable(block, name, shape, array.dtype, stop_gradient=array.stop_gradient,
                   kind="tmp")
    block.vars[name] = out
    floating = array.dtype.is_floating_point or array.dtype.is_complex
    block.append_op("array_read", _array_read, [array, i], {}, [array, i], [out], [None],
                    [floating])
    return out


def array_length(array):
    """The number of items of ``array``: an int in dynamic mode (as in Paddle), an
    int64 Variable of shape [1] in a static program.

    >>> import pylayer as paddle
    >>> paddle.static.array_length(paddle.static.create_array("float32", [paddle.ones([2])]))
    1
    """
    static = isinstance(array, Variable)
    _check_array(array, "array_length", static)
    if not static:
        return len(array)
    block = default_main_program().current_block()
    name = block.program._unique_name("array_length") + ".tmp_0"
    out = Variable(block, name, [1], "int64", stop_gradient=True, kind="tmp")
    block.vars[name] = out
    block.append_op("array_length", _array_length, [array], {}, [array], [out], [None],
                    [False])
    return out
