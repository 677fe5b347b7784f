"""The last top-level names of ``paddle``: conversions between tensors, arrays,
lists and DLPack capsules (``as_tensor``, ``asarray``, ``from_numpy``, ``tolist``,
``from_dlpack``, ``to_dlpack``, ``clone``), the complex views ``view_as_complex`` /
``view_as_real`` and ``polar``, ``logspace`` and Paddle's deprecated ``range`` (end
inclusive), the shape queries ``rank`` / ``shape``, ``where_``, the compatible
``softmax(input, dim)``, the reader decorator ``batch``, ``set_printoptions``,
``check_shape`` and the legacy tensor type names (``FloatTensor``, ...).
"""
import numpy as np

from pylayer._kernels import dtypes
from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer._core.tensor_methods import PRINT_OPTIONS
from pylayer.ops._arguments import (check_axis, check_callable, check_count, check_dtype,
                                    check_int, check_str,
                                    describe)
from pylayer.ops._operands import as_tensor_arg, float_tensor
from pylayer.ops.activation import softmax as _softmax
from pylayer.ops.arithmetic import multiply
from pylayer.ops.complex import complex as _complex
from pylayer.ops.creation import to_tensor
from pylayer.ops.declaration import declare
from pylayer.ops.dispatch import has_static_variable, in_dynamic_mode, op
from pylayer.ops.inplace import inplace
from pylayer.ops.math import cos, sin, where

__all__ = ["as_tensor", "asarray", "from_numpy", "tolist", "from_dlpack", "to_dlpack", "clone",
           "view_as_complex", "view_as_real", "polar", "logspace", "range", "rank", "shape",
           "where_", "softmax", "batch", "set_printoptions", "disable_signal_handler",
           "check_shape", "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor",
           "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor"]

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


# ------------------------------------------------------------ conversions
def _refuse_device(device, fn):
    if device is not None and str(device).lower() not in ("cpu", "place(cpu)"):
        raise ValueError(f"{fn}(): argument 'device' must be the CPU (None, 'cpu' or "
                         f"CPUPlace()), got {device!r}")


def _tensor(value, fn, arg):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' (position 1) must be a Tensor, got "
                        f"{describe(value)}")
    return value


def _bool_arg(value, fn, arg):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a bool, got {describe(value)}")
    return bool(value)


def _renamed(error, old, new):
    """``error`` again, with ``old`` (the function that raised it) spelled ``new``."""
    text = str(error)
    for before, after in zip(old, new):
        text = text.replace(before, after)
    return type(error)(text)


def _converted(data, dtype, requires_grad, fn, arg):
    if isinstance(data, Tensor):
        data = data._array
    try:
        return to_tensor(data, dtype=dtype, stop_gradient=not requires_grad)
    except (TypeError, ValueError) as error:
        raise _renamed(error, ("to_tensor()", "'data'"), (f"{fn}()", f"'{arg}'")) from None


@declare
def as_tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """``data`` (a Tensor, an array, a number or nested sequences) as a new Tensor.

    As Paddle does, the result never shares memory with ``data``; a Python float
    becomes the default float dtype, a Python int int64. ``requires_grad=True``
    gives a tensor with ``stop_gradient=False``. Only the CPU is a ``device``.

    >>> import pylayer
    >>> t = pylayer.as_tensor([1, 2], dtype="float64", requires_grad=True)
    >>> t.dtype, t.stop_gradient
    (pylayer.float64, False)
    """
    _refuse_device(device, "as_tensor")
    requires_grad = _bool_arg(requires_grad, "as_tensor", "requires_grad")
    _bool_arg(pin_memory, "as_tensor", "pin_memory")
    return _converted(data, dtype, requires_grad, "as_tensor", "data")


@declare
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """``obj`` as a Tensor, the array-API spelling of :func:`as_tensor`.

    The result is a new Tensor with its own memory (also with ``copy=None`` or
    ``copy=False``, as in Paddle, where a Tensor given is copied too).

    >>> import pylayer
    >>> pylayer.asarray([1.0, 2.0], dtype="float64").numpy()
    array([1., 2.])
    """
    if copy is not None:
        _bool_arg(copy, "asarray", "copy")
    _refuse_device(device, "asarray")
    requires_grad = _bool_arg(requires_grad, "asarray", "requires_grad")
    return _converted(obj, dtype, requires_grad, "asarray", "obj")


@declare
def from_numpy(ndarray):
    """A Tensor with the values and dtype of the numpy array ``ndarray``.

    As in Paddle 3.3.1 the values are copied: later changes to ``ndarray`` do
    not reach the tensor.

    >>> import numpy as np
    >>> import pylayer
    >>> pylayer.from_numpy(np.array([1, 2], dtype=np.int16)).dtype
    pylayer.int16
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy(): argument 'ndarray' (position 1) must be a "
                        f"numpy.ndarray, got {describe(ndarray)}")
    return _converted(ndarray, None, False, "from_numpy", "ndarray")


@declare
def tolist(x):
    """The values of ``x`` as nested Python lists (a Python number for a 0-D tensor).

    >>> import pylayer
    >>> pylayer.tolist(pylayer.to_tensor([[1, 2], [3, 4]]))
    [[1, 2], [3, 4]]
    """
    return as_tensor_arg(x, "tolist", "x", 1)._array.tolist()


@declare
def to_dlpack(x):
    """A DLPack capsule of ``x``'s memory, for another array library to read.

    >>> import numpy as np
    >>> import pylayer
    >>> capsule = pylayer.to_dlpack(pylayer.to_tensor([1.0, 2.0]))
    >>> type(capsule).__name__
    'PyCapsule'
    """
    x = as_tensor_arg(x, "to_dlpack", "x", 1)
    try:
        return x._array.__dlpack__()
    except (TypeError, BufferError) as error:
        raise TypeError(f"to_dlpack(): a {x.dtype.name} Tensor cannot be exported through "
                        f"DLPack ({error})") from None


class _Capsule:
    """A bare DLPack capsule as an object that numpy's ``from_dlpack`` accepts."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, **_):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)      # kDLCPU, device 0


@declare
def from_dlpack(dlpack, *, device=None, copy=None):
    """A Tensor from a DLPack capsule or an object with ``__dlpack__`` (a numpy array,
    another library's CPU tensor).

    The tensor shares the producer's memory unless ``copy=True``.

    >>> import numpy as np
    >>> import pylayer
    >>> a = np.arange(3.0)
    >>> t = pylayer.from_dlpack(a)
    >>> a[0] = 7.0
    >>> t.numpy()
    array([7., 1., 2.])
    """
    _refuse_device(device, "from_dlpack")
    if copy is not None:
        _bool_arg(copy, "from_dlpack", "copy")
    source = dlpack
    if type(dlpack).__name__ == "PyCapsule":
        source = _Capsule(dlpack)
    elif not hasattr(dlpack, "__dlpack__"):
        raise TypeError(f"from_dlpack(): argument 'dlpack' (position 1) must be a DLPack "
                        f"capsule or an object with __dlpack__, got {describe(dlpack)}")
    if isinstance(dlpack, Tensor):
        source = dlpack._array
    try:
        array = np.from_dlpack(source)
    except (TypeError, BufferError, RuntimeError) as error:
        raise TypeError(f"from_dlpack(): cannot read argument 'dlpack' ({error})") from None
    return make_tensor(np.array(array) if copy else array)


@op
def clone(x, name=None):
    """A copy of ``x`` that stays on the graph (its gradient flows back to ``x``).

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> y = pylayer.clone(x)
    >>> y.stop_gradient, y.numpy()
    (False, array([1., 2.], dtype=float32))
    """
    return _tensor(x, "clone", "x").clone()


# -------------------------------------------------------- complex views
def _view_as_real_back(g):
    return view_as_complex(g)


def _view_as_complex_back(g):
    return view_as_real(g)


VIEW_AS_COMPLEX = Op("view_as_complex", vjp=(_view_as_complex_back,), view=True)
VIEW_AS_REAL = Op("view_as_real", vjp=(_view_as_real_back,), view=True)


@op(method=True)
def view_as_complex(input):
    """A float tensor whose last dimension has size 2 (real, imaginary) seen as a
    complex one, sharing its memory: float32 gives complex64, float64 complex128.

    >>> import pylayer
    >>> r = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> c = pylayer.view_as_complex(r)
    >>> r[0, 0] = 10.0
    >>> c.numpy()
    array([10.+2.j,  3.+4.j], dtype=complex64)
    """
    x = float_tensor(input, "view_as_complex", "input", 1)
    a = x._array
    if a.dtype not in _COMPLEX_OF:
        raise TypeError(f"view_as_complex(): argument 'input' (position 1) must be a float32 "
                        f"or float64 Tensor, got dtype {x.dtype.name}")
    if a.ndim == 0 or a.shape[-1] != 2:
        raise ValueError(f"view_as_complex(): argument 'input' (position 1) must have a last "
                         f"dimension of size 2 (the real and imaginary parts), got shape "
                         f"{list(a.shape)}")
    if a.strides[-1] != a.itemsize:
        a = np.ascontiguousarray(a)
    out = a.view(_COMPLEX_OF[a.dtype])[..., 0]
    return make_output(VIEW_AS_COMPLEX, out, (x,))


@op(method=True)
def view_as_real(input):
    """A complex tensor seen as a float one with a last dimension of size 2 (real,
    imaginary), sharing its memory: complex64 gives float32, complex128 float64.

    >>> import pylayer
    >>> pylayer.view_as_real(pylayer.to_tensor([1 + 2j, 3 - 1j])).numpy()
    array([[ 1.,  2.],
           [ 3., -1.]], dtype=float32)
    """
    x = as_tensor_arg(input, "view_as_real", "input", 1)
    a = x._array
    if not dtypes.is_complex(a.dtype):
        raise TypeError(f"view_as_real(): argument 'input' (position 1) must be a complex64 "
                        f"or complex128 Tensor, got dtype {x.dtype.name}")
    out = a[..., np.newaxis].view(a.real.dtype)
    return make_output(VIEW_AS_REAL, out, (x,))


@op(method=True)
def polar(abs, angle, name=None, *, out=None):  # noqa: A002 - Paddle's parameter name
    """The complex tensor ``abs * (cos(angle) + 1j * sin(angle))`` from a magnitude and
    an angle (float32 or float64 Tensors of one dtype, broadcast together).

    >>> import pylayer
    >>> z = pylayer.polar(pylayer.to_tensor([2.0]), pylayer.to_tensor([0.0]))
    >>> z.dtype, z.numpy()
    (pylayer.complex64, array([2.+0.j], dtype=complex64))
    """
    magnitude = float_tensor(abs, "polar", "abs", 1)
    angle = float_tensor(angle, "polar", "angle", 2)
    if magnitude.dtype != angle.dtype:
        raise TypeError(f"polar(): arguments 'abs' and 'angle' must have one dtype, got "
                        f"{magnitude.dtype.name} and {angle.dtype.name}")
    result = _complex(multiply(magnitude, cos(angle)), multiply(magnitude, sin(angle)))
    if out is not None:
        return _into(out, result, "polar")
    return result


def _into(out, result, fn):
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be a Tensor, got {describe(out)}")
    if out.shape != result.shape or out.dtype != result.dtype:
        raise ValueError(f"{fn}(): argument 'out' must have shape {result.shape} and dtype "
                         f"{result.dtype.name}, got shape {out.shape} and dtype "
                         f"{out.dtype.name}")
    return inplace(out, lambda _: result)


# ------------------------------------------------------------ sequences
def _scalar(value, fn, arg):
    if isinstance(value, Tensor):
        if value._array.size != 1:
            raise ValueError(f"{fn}(): argument '{arg}' must be a number or a Tensor with one "
                             f"element, got shape {value.shape}")
        value = value._array.reshape(()).item()
    if not isinstance(value, (int, float, np.number)) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a number, got {describe(value)}")
    return value


@op(records_without_variables=True)
def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """``num`` values ``base ** e`` for ``e`` evenly spaced from ``start`` to ``stop``
    inclusive (default dtype: the default float; an integer dtype truncates).

    >>> import pylayer
    >>> pylayer.logspace(0, 2, 3).numpy()
    array([  1.,  10., 100.], dtype=float32)
    """
    start = _scalar(start, "logspace", "start")
    stop = _scalar(stop, "logspace", "stop")
    num = _scalar(num, "logspace", "num")
    num = check_int(num, "logspace", "num", minimum=1)
    check_count(num, "logspace", "num", np.float64)
    base = _scalar(base, "logspace", "base")
    np_dtype = (dtypes.default_float() if dtype is None
                else check_dtype(dtype, "logspace", kinds="iuf"))
    values = np.logspace(start, stop, num, base=base)
    return make_tensor(values.astype(np_dtype))


@op(records_without_variables=True)
def range(start=0, end=None, step=1, dtype=None, *, out=None, device=None,  # noqa: A001
          requires_grad=False, name=None):
    """Values from ``start`` to ``end`` **inclusive** in steps of ``step`` (Paddle's
    deprecated ``range``; :func:`arange` excludes ``end``). With one number it is
    the end and the start is 0; the default dtype is the default float.

    >>> import pylayer
    >>> pylayer.range(0, 1, 0.25).numpy()
    array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float32)
    """
    if end is None:
        start, end = 0, start
    start = _scalar(start, "range", "start")
    end = _scalar(end, "range", "end")
    step = _scalar(step, "range", "step")
    if step == 0:
        raise ValueError("range(): argument 'step' must not be 0")
    _refuse_device(device, "range")
    requires_grad = _bool_arg(requires_grad, "range", "requires_grad")
    np_dtype = (dtypes.default_float() if dtype is None
                else check_dtype(dtype, "range", kinds="iuf"))
    count = max(int(np.floor((end - start) / step)) + 1, 0)
    check_count(count, "range", "end", np.float64)
    result = make_tensor((start + step * np.arange(count)).astype(np_dtype), not requires_grad)
    if out is not None:
        return _into(out, result, "range")
    return result


# ----------------------------------------------------------- shape queries
@op(method=True)
def rank(input):
    """The number of dimensions of ``input``, as a 0-D int32 Tensor.

    >>> import pylayer
    >>> pylayer.rank(pylayer.ones([2, 3])).item()
    2
    """
    x = _tensor(input, "rank", "input")
    return make_tensor(np.array(x._array.ndim, dtype=np.int32))


@op
def shape(input):
    """The shape of ``input`` as a 1-D int64 Tensor.

    >>> import pylayer
    >>> pylayer.shape(pylayer.ones([2, 3])).numpy()
    array([2, 3])
    """
    x = _tensor(input, "shape", "input")
    return make_tensor(np.array(x._array.shape, dtype=np.int64))


# ------------------------------------------------------------- selections
@declare(method=True)
def where_(condition, x=None, y=None, name=None):
    """:func:`where` stored in ``x`` itself: ``x`` keeps its values where ``condition``
    holds and takes ``y``'s elsewhere; returns ``x``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, -2.0, 3.0])
    >>> pylayer.where_(x > 0, x, pylayer.zeros([3])) is x, x.numpy()
    (True, array([1., 0., 3.], dtype=float32))
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"where_(): argument 'x' (position 2) must be a Tensor (the result "
                        f"is stored in it), got {describe(x)}")
    if y is None:
        raise ValueError("where_(): argument 'y' (position 3) must be given")
    try:
        return inplace(x, lambda x: where(condition, x, y))
    except (TypeError, ValueError) as error:
        raise _renamed(error, ("where()",), ("where_()",)) from None


@op(method=True)
def softmax(input, dim=None, dtype=None, *, out=None):
    """Softmax of ``input`` along ``dim``, in PyTorch's spelling.

    Without ``dim``, a tensor of 0, 1 or 3 dimensions takes it along dimension
    0, any other along dimension 1 (as Paddle and PyTorch do).
    :func:`pylayer.nn.functional.softmax` is the same with ``axis``.

    >>> import pylayer
    >>> pylayer.softmax(pylayer.to_tensor([[1.0, 1.0], [0.0, 0.0]])).numpy()
    array([[0.5, 0.5],
           [0.5, 0.5]], dtype=float32)
    """
    x = float_tensor(input, "softmax", "input", 1)
    ndim = x._array.ndim
    if dim is None:
        dim = 0 if ndim in (0, 1, 3) else 1
    else:
        dim = check_axis(dim, max(ndim, 1), "softmax", "dim")
    result = _softmax(x, axis=dim, dtype=dtype)
    if out is not None:
        return _into(out, result, "softmax")
    return result


# ------------------------------------------------------------------ readers
def batch(reader, batch_size, drop_last=False):
    """A reader that groups the items of ``reader`` (a function returning an
    iterable) into lists of ``batch_size``; the last shorter list is dropped
    with ``drop_last=True``.

    >>> import pylayer
    >>> def reader():
    ...     yield from [0, 1, 2, 3, 4]
    >>> list(pylayer.batch(reader, 2)())
    [[0, 1], [2, 3], [4]]
    """
    check_callable(reader, "batch", "reader")
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, float, np.number)):
        raise TypeError(f"batch(): argument 'batch_size' (position 2) must be a positive "
                        f"integer, got {describe(batch_size)}")
    if int(batch_size) != batch_size or batch_size <= 0:
        raise ValueError(f"batch(): batch_size should be a positive integer value, but got "
                         f"batch_size={batch_size}")
    size = int(batch_size)
    drop_last = _bool_arg(drop_last, "batch", "drop_last")

    def batch_reader():
        group = []
        for item in reader():
            group.append(item)
            if len(group) == size:
                yield group
                group = []
        if group and not drop_last:
            yield group

    return batch_reader


# ------------------------------------------------------------ process level
def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None,
                     linewidth=None):
    """Set how Tensors print: ``precision`` digits after the point (default 8),
    ``threshold`` elements before a summary with ``...`` (default 1000),
    ``edgeitems`` shown at each end of a summarised dimension (default 3),
    ``sci_mode`` to force scientific notation, and ``linewidth`` characters per
    line (default 80). A None leaves that option as it is.

    >>> import pylayer
    >>> pylayer.set_printoptions(precision=2)
    >>> print(pylayer.to_tensor([1.0 / 3.0]))
    Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True,
           [0.33])
    >>> pylayer.set_printoptions(precision=8)
    """
    for arg, value in (("precision", precision), ("threshold", threshold),
                       ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            check_int(value, "set_printoptions", arg, minimum=0)
    if sci_mode is not None:
        _bool_arg(sci_mode, "set_printoptions", "sci_mode")
    given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems,
             "linewidth": linewidth}
    PRINT_OPTIONS.update({key: value for key, value in given.items() if value is not None})
    if sci_mode is not None:
        PRINT_OPTIONS["sci_mode"] = sci_mode


def disable_signal_handler():
    """Paddle's switch that removes its own handlers of fatal signals (installed
    to print a C++ traceback). pylayer installs none, so there is nothing to
    remove: it returns None.

    >>> import pylayer
    >>> pylayer.disable_signal_handler()
    """
    return None


def check_shape(shape, op_name, expected_shape_type=None, expected_element_type=None,
                expected_tensor_dtype=("int32", "int64")):
    """Check a ``shape`` argument of the op ``op_name`` while a static program is built:
    a list or tuple of ints or int32/int64 Variables, or such a Variable (the
    defaults of ``expected_shape_type`` and ``expected_element_type``, which may
    name other types). As in Paddle, nothing is checked in dynamic mode (the op
    checks its arguments).

    >>> import pylayer
    >>> pylayer.check_shape([2, 3], "reshape")
    >>> pylayer.enable_static()
    >>> try:
    ...     pylayer.check_shape([2, "a"], "reshape")
    ... except TypeError as error:
    ...     print(error)
    check_shape(): every element of argument 'shape' of reshape() must be int or Variable, got str
    >>> pylayer.disable_static()
    """
    check_str(op_name, "check_shape", "op_name")
    if in_dynamic_mode():
        return None

    def variable(value):
        return not isinstance(value, (list, tuple, dict)) and has_static_variable(value)

    def accepted(value, types, default):
        if types is None:
            return default(value)
        return isinstance(value, types) and not isinstance(value, bool)

    def names(types, default):
        if types is None:
            return default
        types = types if isinstance(types, tuple) else (types,)
        return " or ".join(t.__name__ for t in types)

    def check_dtype_of(value, what):
        if expected_tensor_dtype is not None and variable(value):
            name = str(dtypes.convert_dtype(value.dtype))
            if name not in expected_tensor_dtype:
                raise TypeError(f"check_shape(): {what} of {op_name}() must have dtype "
                                f"{' or '.join(expected_tensor_dtype)}, got {name}")

    if not accepted(shape, expected_shape_type,
                    lambda v: isinstance(v, (list, tuple)) or variable(v)):
        raise TypeError(f"check_shape(): argument 'shape' of {op_name}() must be "
                        f"{names(expected_shape_type, 'list or tuple or Variable')}, got "
                        f"{type(shape).__name__}")
    if variable(shape):
        check_dtype_of(shape, "argument 'shape'")
        return None
    for item in shape:
        if not accepted(item, expected_element_type,
                        lambda v: (isinstance(v, (int, np.integer)) and not isinstance(v, bool))
                        or variable(v)):
            raise TypeError(f"check_shape(): every element of argument 'shape' of {op_name}() "
                            f"must be {names(expected_element_type, 'int or Variable')}, got "
                            f"{type(item).__name__}")
        check_dtype_of(item, "an element of argument 'shape'")
    return None


# ------------------------------------------------------ legacy tensor types
class _LegacyTensorType:
    """A legacy tensor type name (``paddle.FloatTensor``): calling it makes a Tensor
    of its dtype, as PyTorch's do; no Tensor is an instance of it (as in Paddle)."""
    _dtype = None

    def __new__(cls, *args, device=None):
        fn = cls.__name__
        _refuse_device(device, fn)
        if not args:
            return make_tensor(np.empty((0,), dtypes.convert_dtype(cls._dtype)))
        if all(isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_))
               for a in args):
            from pylayer.ops.creation import zeros
            return zeros(list(args), dtype=cls._dtype)
        if len(args) > 1:
            raise TypeError(f"{fn}(): takes sizes (ints) or one sequence of data, got "
                            f"{len(args)} arguments")
        return _converted(args[0], cls._dtype, False, fn, "data")


def _legacy_type(name, dtype):
    doc = f"""A {dtype} Tensor, PyTorch's way: ``{name}(data)`` converts nested lists,
    arrays or Tensors; ``{name}(2, 3)`` is a Tensor of zeros of shape [2, 3];
    ``{name}()`` an empty one. No Tensor is an instance of it, as in Paddle.

    >>> import pylayer
    >>> pylayer.{name}([1]).dtype, pylayer.{name}(2, 3).shape
    (pylayer.{dtype}, [2, 3])
    """
    return type(name, (_LegacyTensorType,), {"_dtype": dtype, "__doc__": doc,
                                             "__module__": __name__})


BFloat16Tensor = _legacy_type("BFloat16Tensor", "bfloat16")
BoolTensor = _legacy_type("BoolTensor", "bool")
ByteTensor = _legacy_type("ByteTensor", "uint8")
CharTensor = _legacy_type("CharTensor", "int8")
DoubleTensor = _legacy_type("DoubleTensor", "float64")
FloatTensor = _legacy_type("FloatTensor", "float32")
HalfTensor = _legacy_type("HalfTensor", "float16")
IntTensor = _legacy_type("IntTensor", "int32")
LongTensor = _legacy_type("LongTensor", "int64")
ShortTensor = _legacy_type("ShortTensor", "int16")
