"""Tensor methods that are not ops of their own: dtype conversions (``x.float()``,
``x.to('float64')``), new tensors like ``x`` (``x.new_zeros``), gradient switches
(``x.requires_grad_()``) and what Paddle's Tensor tells about its memory
(``strides``, ``element_size``, ``is_contiguous`` ...). ``pylayer/__init__.py``
installs ``METHODS`` on Tensor with the declared methods.

>>> import pylayer
>>> x = pylayer.to_tensor([[1, 2], [3, 4]])
>>> x.float().dtype, x.T.is_contiguous(), x.T.strides
(pylayer.float32, False, [1, 2])
"""
import numpy as np

import pylayer
from pylayer._core.tensor import Tensor
from pylayer._kernels.dtypes import DType, dtype_of
from pylayer.ops.inplace import inplace

__all__ = []


def _converter(dtype_name):
    target = getattr(pylayer, dtype_name) if dtype_name != "bool" else pylayer.bool_

    def convert(self):
        # Paddle returns the tensor itself when it already has the dtype.
        return self if self.dtype == target else pylayer.cast(self, target)
    convert.__name__ = convert.__qualname__ = dtype_name
    convert.__doc__ = (f"``x`` cast to {target.name} (recorded, so gradients flow back), or "
                       f"``x`` itself when it already is {target.name}.")
    return convert


# Paddle's Tensor.<name>() casts: the dtype each names.
CONVERSIONS = {"bool": "bool", "uint8": "uint8", "byte": "uint8", "int8": "int8", "char": "int8",
               "int16": "int16", "short": "int16", "int32": "int32", "int": "int32",
               "int64": "int64", "long": "int64", "float16": "float16", "half": "float16",
               "bfloat16": "bfloat16", "float32": "float32", "float": "float32",
               "float64": "float64", "double": "float64", "complex64": "complex64",
               "cfloat": "complex64", "complex128": "complex128", "cdouble": "complex128"}


def to(self, *args, **kwargs):
    """``x`` in another dtype (and on the CPU, the only device): ``x.to('float64')``,
    ``x.to(pylayer.int32)``, ``x.to('cpu')``, ``x.to('cpu', 'float64')``,
    ``x.to(other=y)`` (y's dtype), ``x.to(dtype=..., copy=True)``. ``blocking`` and
    ``non_blocking`` are accepted and change nothing. A new dtype is a recorded cast;
    the same dtype gives ``x`` itself (a copy with ``copy=True``).

    >>> import pylayer
    >>> pylayer.ones([2]).to("cpu", "float64").dtype
    pylayer.float64
    """
    known = {"device", "dtype", "other", "copy", "blocking", "non_blocking"}
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise TypeError(f"Tensor.to(): unexpected keyword argument {unknown[0]!r}")
    dtype = kwargs.get("dtype")
    other = kwargs.get("other")
    for position, value in enumerate(args, 1):
        if isinstance(value, Tensor):
            other = value
        elif isinstance(value, (DType, np.dtype, type)) or (
                isinstance(value, str) and not _is_device(value)):
            dtype = value
        elif isinstance(value, bool) or value is None:
            continue        # blocking / copy given by position
        elif not (isinstance(value, str) or _is_place(value)):
            raise TypeError(f"Tensor.to(): argument {position} must be a dtype, a device "
                            f"or a Tensor, got {type(value).__name__}")
    if kwargs.get("device") is not None and not _is_device_like(kwargs["device"]):
        raise ValueError(f"Tensor.to(): argument 'device' must be the CPU (pylayer runs on "
                         f"the CPU only), got {kwargs['device']!r}")
    for value in args:
        if isinstance(value, str) and _is_device(value) and not value.startswith("cpu"):
            raise ValueError(f"Tensor.to(): argument 'device' must be the CPU (pylayer runs "
                             f"on the CPU only), got {value!r}")
    if other is not None:
        if not isinstance(other, Tensor):
            raise TypeError(f"Tensor.to(): argument 'other' must be a Tensor, got "
                            f"{type(other).__name__}")
        dtype = other.dtype
    if dtype is None or dtype_of(pylayer._convert_dtype(dtype, "Tensor.to")) == self.dtype:
        return pylayer.assign(self) if kwargs.get("copy") else self
    return pylayer.cast(self, dtype)


def _is_device(text):
    return text.split(":")[0] in ("cpu", "gpu", "cuda", "xpu", "npu", "ipu", "mlu")


def _is_place(value):
    return callable(getattr(value, "is_cpu_place", None))


def _is_device_like(value):
    if isinstance(value, str):
        return value.startswith("cpu")
    return _is_place(value) and value.is_cpu_place()


def type_as(self, other):
    """``x`` in ``other``'s dtype (see :meth:`to`).

    >>> import pylayer
    >>> pylayer.ones([1]).type_as(pylayer.ones([1], "int32")).dtype
    pylayer.int32
    """
    if not isinstance(other, Tensor):
        raise TypeError(f"Tensor.type_as(): argument 'other' must be a Tensor, got "
                        f"{type(other).__name__}")
    return to(self, dtype=other.dtype)


def _new(fill):
    def new(self, size, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
        made = fill(size, self.dtype if dtype is None else dtype)
        made.stop_gradient = not requires_grad
        return made
    return new


new_zeros = _new(lambda size, dtype: pylayer.zeros(size, dtype))
new_ones = _new(lambda size, dtype: pylayer.ones(size, dtype))
new_empty = _new(lambda size, dtype: pylayer.empty(size, dtype))
new_zeros.__doc__ = """Zeros of shape ``size``, in x's dtype unless ``dtype`` is given.

    >>> import pylayer
    >>> pylayer.ones([2], "int32").new_zeros([3]).numpy()
    array([0, 0, 0], dtype=int32)
    """
new_ones.__doc__ = "Ones of shape ``size``, in x's dtype unless ``dtype`` is given."
new_empty.__doc__ = "An uninitialised tensor of shape ``size``, in x's dtype unless given."


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False,
             pin_memory=False):
    """A tensor of shape ``size`` filled with ``fill_value``, in x's dtype unless
    ``dtype`` is given.

    >>> import pylayer
    >>> pylayer.ones([1]).new_full([2], 3).numpy()
    array([3., 3.], dtype=float32)
    """
    made = pylayer.full(size, fill_value, self.dtype if dtype is None else dtype)
    made.stop_gradient = not requires_grad
    return made


def requires_grad_(self, requires_grad=True):
    """Switch gradients on (or off) for ``x`` (Paddle: ``stop_gradient = not
    requires_grad``); returns ``x``.

    >>> import pylayer
    >>> x = pylayer.ones([1]).requires_grad_(); x.stop_gradient
    False
    """
    self.stop_gradient = not bool(requires_grad)
    return self


def _requires_grad(self):
    return not self.stop_gradient


def _set_requires_grad(self, value):
    self.stop_gradient = not bool(value)


def element_size(self):
    """Bytes per element.

    >>> import pylayer
    >>> pylayer.ones([1], "float64").element_size()
    8
    """
    return self._array.itemsize


def _strides(self):
    # in elements, as Paddle counts them
    itemsize = self._array.itemsize
    return [stride // itemsize for stride in self._array.strides]


def stride(self, dim=None):
    """The step, in elements, between neighbours along each dimension (or ``dim``).

    >>> import pylayer
    >>> pylayer.ones([2, 3]).stride(), pylayer.ones([2, 3]).stride(0)
    ([3, 1], 3)
    """
    strides = _strides(self)
    if dim is None:
        return strides
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"Tensor.stride(): argument 'dim' must be an int, got "
                        f"{type(dim).__name__}")
    if not -len(strides) <= dim < len(strides):
        raise IndexError(f"Tensor.stride(): argument 'dim' must be in "
                         f"[{-len(strides)}, {len(strides)}), got {dim}")
    return strides[dim]


def get_strides(self):
    """The strides in elements (as ``strides``)."""
    return _strides(self)


def is_contiguous(self):
    """Whether the elements lie in memory row after row, without gaps.

    >>> import pylayer
    >>> x = pylayer.ones([2, 3]); x.is_contiguous(), x.T.is_contiguous()
    (True, False)
    """
    return bool(self._array.flags.c_contiguous)


def contiguous(self):
    """``x`` itself when contiguous, else a contiguous copy (recorded).

    >>> import pylayer
    >>> pylayer.ones([2, 3]).T.contiguous().is_contiguous()
    True
    """
    return self if self._array.flags.c_contiguous else pylayer.assign(self)


def data_ptr(self):
    """The address of the first element (an int).

    >>> import pylayer
    >>> pylayer.ones([2]).data_ptr() > 0
    True
    """
    return int(self._array.__array_interface__["data"][0])


def _offset(self):
    # bytes from the start of the memory the tensor's array lives in
    array = self._array
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    return data_ptr(self) - int(root.__array_interface__["data"][0])


def is_same_shape(self, y):
    """Whether ``y`` has x's shape.

    >>> import pylayer
    >>> pylayer.ones([2]).is_same_shape(pylayer.zeros([2]))
    True
    """
    if not isinstance(y, Tensor):
        raise TypeError(f"Tensor.is_same_shape(): argument 'y' must be a Tensor, got "
                        f"{type(y).__name__}")
    return self._array.shape == y._array.shape


def ndimension(self):
    """The number of dimensions (``ndim``)."""
    return self._array.ndim


def apply(self, func):
    """``func(x)`` of a tensor that needs no gradient (Paddle refuses one that does).

    >>> import pylayer
    >>> pylayer.ones([2]).apply(lambda t: t * 2).numpy()
    array([2., 2.], dtype=float32)
    """
    _check_apply(self, func, "apply")
    return func(self)


def apply_(self, func):
    """Store ``func(x)`` in ``x`` (a tensor that needs no gradient); returns ``x``.

    >>> import pylayer
    >>> x = pylayer.ones([2]); _ = x.apply_(lambda t: t * 3); x.numpy()
    array([3., 3.], dtype=float32)
    """
    _check_apply(self, func, "apply_")
    return inplace(self, func)


def _check_apply(x, func, method):
    if not callable(func):
        raise TypeError(f"Tensor.{method}(): argument 'func' must be callable, got "
                        f"{type(func).__name__}")
    if not x.stop_gradient:
        raise RuntimeError(f"Tensor.{method}(): cannot apply a function to a tensor that "
                           f"needs a gradient (stop_gradient=False)")


def is_dense(self):
    """True: every pylayer tensor is dense."""
    return True


def _false(name):
    def check(self):
        return False
    check.__name__ = check.__qualname__ = name
    check.__doc__ = "False: pylayer tensors are dense, on the CPU."
    return check


def to_dense(self):
    """``x`` itself: it is dense already."""
    return self


def get_device(self):
    """-1, Paddle's answer for a tensor on the CPU (a GPU tensor gives its card's id).

    >>> import pylayer
    >>> pylayer.ones([2]).get_device()
    -1
    """
    return -1


def _persistable(self):
    return self.__dict__.get("_persistable", False)


def _set_persistable(self, value):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"persistable: the value must be a bool, got {type(value).__name__}")
    self.__dict__["_persistable"] = bool(value)


def _grad_(self):
    return self.grad


# the largest whole number each float dtype holds with all smaller ones: 2 ** digits
_FLOAT_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


def random_(self, from_=0, to=None, *, generator=None):
    """Fill ``x`` in place with random whole numbers in ``[from_, to)``; returns ``x``.

    With one number ``n`` the range is ``[0, n)``; with none it is ``[0, 2 **
    digits]`` for a float dtype (every whole number the dtype holds exactly) and
    ``[0, max]`` for an integer one, as in PyTorch and Paddle. A bool tensor gets
    False and True (Paddle fails there; PyTorch does this).

    >>> import pylayer
    >>> x = pylayer.zeros([6])
    >>> v = x.random_(0, 5).numpy()
    >>> bool(((v >= 0) & (v < 5) & (v == v.round())).all())
    True
    """
    from pylayer.ops import sampling
    from pylayer.ops._arguments import check_int, describe
    fn = "random_"
    if not isinstance(self, Tensor):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a Tensor, got "
                        f"{describe(self)}")
    name = self.dtype.name
    if name.startswith("complex"):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a real Tensor, got dtype "
                        f"{name}")
    if generator is not None and not isinstance(generator, sampling.Generator):
        raise TypeError(f"{fn}(): argument 'generator' must be a pylayer Generator or None, "
                        f"got {describe(generator)}")
    low = check_int(from_, fn, "from_")
    high = check_int(to, fn, "to", allow_none=True)
    if name == "bool":
        top = 1
    elif name in _FLOAT_DIGITS:
        top = 2 ** _FLOAT_DIGITS[name]
    else:
        top = int(np.iinfo(self.numpy().dtype).max)
    if high is None:
        low, high = (0, low) if low != 0 else (0, top + 1)
    if low >= high:
        raise ValueError(f"{fn}(): expects 'from' to be less than 'to', but got from={low} >= "
                         f"to={high}")
    bottom = 0 if name == "bool" or name in _FLOAT_DIGITS else \
        int(np.iinfo(self.numpy().dtype).min)
    if name in _FLOAT_DIGITS:
        bottom = -top
    if low < bottom or high - 1 > top:
        raise ValueError(f"{fn}(): [from, to) = [{low}, {high}) does not fit in a {name} "
                         f"Tensor ([{bottom}, {top}])")
    values = sampling._rng().integers(low, high, self.shape, endpoint=False)
    return sampling._fill(self, fn, values)


def resize_(self, shape, fill_zero=False, name=None):
    """Give ``x`` the shape ``shape`` in place, keeping its first values in row
    order; new places hold zeros (in Paddle they are undefined unless
    ``fill_zero=True``). Returns ``x``; a leaf that needs a gradient refuses.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, 2.0, 3.0, 4.0])
    >>> x.resize_([2, 3]).numpy()
    array([[1., 2., 3.],
           [4., 0., 0.]], dtype=float32)
    """
    from pylayer.ops._arguments import check_count, check_ints, describe
    fn = "resize_"
    if not isinstance(self, Tensor):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a Tensor, got "
                        f"{describe(self)}")
    dims = check_ints(shape, fn, "shape")
    if any(d < 0 for d in dims):
        raise ValueError(f"{fn}(): argument 'shape' must hold non-negative sizes, got {dims}")
    if not isinstance(fill_zero, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument 'fill_zero' must be a bool, got "
                        f"{describe(fill_zero)}")
    count = int(np.prod(dims, dtype=object))
    check_count(count, fn, "shape", self.numpy().dtype)
    flat = pylayer.reshape(self, [self.size])
    if count <= self.size:
        source = flat[:count]
    else:
        source = pylayer.concat([flat, pylayer.zeros([count - self.size], self.dtype)])
    from pylayer.ops.manipulation import set_
    try:
        return set_(self, source, shape=dims)
    except ValueError as error:
        raise ValueError(str(error).replace("set_", fn, 1)) from None


METHODS = {name: _converter(dtype) for name, dtype in CONVERSIONS.items()}
METHODS.update({
    "to": to, "type_as": type_as, "new_zeros": new_zeros, "new_ones": new_ones,
    "new_empty": new_empty, "new_full": new_full, "requires_grad_": requires_grad_,
    "requires_grad": property(_requires_grad, _set_requires_grad,
                              doc="Whether gradients flow to the tensor (not stop_gradient)."),
    "element_size": element_size,
    "itemsize": property(element_size, doc="Bytes per element."),
    "strides": property(_strides, doc="The strides in elements."),
    "stride": stride, "get_strides": get_strides, "is_contiguous": is_contiguous,
    "contiguous": contiguous, "data_ptr": data_ptr,
    "offset": property(_offset, doc="Bytes from the start of the tensor's memory."),
    "layout": property(lambda self: "NCHW", doc="Paddle's default data layout name."),
    "device": property(lambda self: "cpu", doc="'cpu': pylayer runs on the CPU only."),
    "is_cuda": property(lambda self: False, doc="False: pylayer runs on the CPU only."),
    "mT": property(lambda self: pylayer.transpose(self, list(range(self.ndim - 2)) +
                                                  [self.ndim - 1, self.ndim - 2]),
                   doc="The last two dimensions swapped."),
    "is_same_shape": is_same_shape, "ndimension": ndimension, "apply": apply,
    "apply_": apply_, "is_dense": is_dense, "to_dense": to_dense,
    "is_sparse": _false("is_sparse"), "is_sparse_coo": _false("is_sparse_coo"),
    "is_sparse_csr": _false("is_sparse_csr"), "is_selected_rows": _false("is_selected_rows"),
    "get_device": get_device, "is_tensor": lambda self: True,
    "persistable": property(_persistable, _set_persistable,
                            doc="Whether the tensor is kept across runs of a static program "
                                "(a flag; False unless set, True for a Parameter)."),
    "grad_": property(_grad_, doc="The gradient, as ``grad``."),
    "stft": pylayer.signal.stft, "istft": pylayer.signal.istft,
    "random_": random_, "resize_": resize_,
})
