"""InputSpec: the shape, dtype and name of an input, without its values.

``pylayer.jit.to_static`` and ``pylayer.jit.save`` take InputSpecs to know
what a function's inputs look like; a ``None`` (or ``-1``) dimension is a
size known only when the captured program runs.
"""
import numpy as np

from pylayer.extend import Tensor, check_int, describe
from pylayer.static._variable import as_dtype, as_shape

__all__ = ["InputSpec"]


class InputSpec:
    """The shape, dtype, name and ``stop_gradient`` of an input, without values.

    ``shape`` is a list or tuple of ints; ``None`` or ``-1`` marks a size that
    may change from call to call (usually the batch).

    >>> import pylayer as paddle
    >>> from pylayer.static import InputSpec
    >>> spec = InputSpec([None, 784], "float32", "image")
    >>> spec
    InputSpec(shape=(-1, 784), dtype=pylayer.float32, name=image, stop_gradient=False)
    >>> spec.batch(16).shape
    (16, -1, 784)
    """

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        fn = "InputSpec"
        if not isinstance(shape, (list, tuple)):
            raise TypeError(f"{fn}(): argument 'shape' must be a list or tuple of ints "
                            f"(None or -1 for a size known only at run time), "
                            f"got {describe(shape)}")
        self.shape = tuple(as_shape(shape, fn, allow_none=False))
        self.dtype = as_dtype(dtype, fn)
        if name is not None and not isinstance(name, str):
            raise TypeError(f"{fn}(): argument 'name' must be a str or None, "
                            f"got {describe(name)}")
        self.name = name
        self.stop_gradient = bool(stop_gradient)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The InputSpec of ``tensor``: its shape and dtype, and its name unless
        ``name`` is given.

        >>> import pylayer as paddle
        >>> paddle.static.InputSpec.from_tensor(paddle.ones([2, 3]), name="x")
        InputSpec(shape=(2, 3), dtype=pylayer.float32, name=x, stop_gradient=False)
        """
        if not isinstance(tensor, Tensor):
            raise TypeError(f"InputSpec.from_tensor(): argument 'tensor' must be a Tensor, "
                            f"got {describe(tensor)}")
        return cls(tensor.shape, tensor.dtype, name if name is not None else tensor.name)

    @classmethod
    def from_numpy(cls, ndarray, name=None):
        """The InputSpec of a numpy array: its shape and dtype.

        >>> import numpy as np, pylayer as paddle
        >>> paddle.static.InputSpec.from_numpy(np.zeros([2, 3]), name="x")
        InputSpec(shape=(2, 3), dtype=pylayer.float64, name=x, stop_gradient=False)
        """
        if not isinstance(ndarray, np.ndarray):
            raise TypeError(f"InputSpec.from_numpy(): argument 'ndarray' must be a numpy "
                            f"array, got {describe(ndarray)}")
        return cls(ndarray.shape, ndarray.dtype, name)

    def batch(self, batch_size):
        """A copy with ``batch_size`` put in front of the shape (an int, or a list
        holding one int).

        >>> import pylayer as paddle
        >>> paddle.static.InputSpec([3]).batch(8).shape
        (8, 3)
        """
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 1:
                raise ValueError(f"InputSpec.batch(): argument 'batch_size' must be an int "
                                 f"or a list of one int, got {list(batch_size)}")
            batch_size = batch_size[0]
        check_int(batch_size, "InputSpec.batch", "batch_size", minimum=-1)
        return type(self)((int(batch_size),) + self.shape, self.dtype, self.name,
                          self.stop_gradient)

    def unbatch(self):
        """A copy without the first dimension.

        >>> import pylayer as paddle
        >>> paddle.static.InputSpec([8, 3]).unbatch().shape
        (3,)
        """
        if not self.shape:
            raise ValueError("InputSpec.unbatch(): the spec has shape (), so it has no "
                             "batch dimension to remove")
        return type(self)(self.shape[1:], self.dtype, self.name, self.stop_gradient)

    def _key(self):
        return (self.shape, self.dtype.name, self.name, self.stop_gradient)

    def __eq__(self, other):
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self):
        return hash((self.shape, self.dtype.name, self.stop_gradient))

    def __repr__(self):
        return (f"InputSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name}, "
                f"stop_gradient={self.stop_gradient})")
