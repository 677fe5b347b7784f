"""Ready-made saved-tensor hooks: spill to disk, store in another dtype, or forbid hooks."""
import os
import shutil
import tempfile
import weakref

import numpy as np

from pylayer._kernels.dtypes import is_floating
from pylayer._core.graph import current_saved_tensors_hooks
from pylayer._reprs import settings_repr
from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import check_dtype
from pylayer.autograd.saved_hooks import (disabled_message, saved_tensors_hooks,
                                          set_disabled_message)

__all__ = ["saved_tensors_hooks", "save_on_disk", "save_as", "disable_saved_tensors_hooks"]


class _SpillDirectory:
    """A directory of spilled tensors; removed when nothing refers to it any more."""

    def __init__(self, directory):
        if directory is None:
            self.path = tempfile.mkdtemp(prefix="pylayer-saved-")
            weakref.finalize(self, shutil.rmtree, self.path, ignore_errors=True)
        else:
            os.makedirs(directory, exist_ok=True)
            self.path = directory


def _remove_file(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


class _SpilledTensor:
    """One tensor written to a ``.npy`` file; the file goes when this object goes."""

    def __init__(self, directory, array):
        self.directory = directory        # keeps the directory alive while files are in it
        handle, self.path = tempfile.mkstemp(suffix=".npy", dir=directory.path)
        with os.fdopen(handle, "wb") as stream:
            np.save(stream, array, allow_pickle=False)
        weakref.finalize(self, _remove_file, self.path)

    def load(self):
        return np.load(self.path, allow_pickle=False)


class save_on_disk(saved_tensors_hooks):
    """Write the tensors saved for backward to ``.npy`` files instead of keeping them in memory.

    Files go to ``directory`` (a new temporary directory when None, removed
    when no longer needed). Each file is deleted once the node that saved it
    is freed: after a backward without ``retain_graph``, or when the graph is
    dropped.

    >>> import pylayer as paddle
    >>> from pylayer.autograd.graph import save_on_disk
    >>> x = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
    >>> with save_on_disk():
    ...     y = paddle.tanh(paddle.tanh(x))
    >>> y.sum().backward()
    >>> x.grad.numpy().round(3)
    array([1.   , 0.247], dtype=float32)
    """

    def __init__(self, directory=None):
        if directory is not None and not isinstance(directory, (str, os.PathLike)):
            raise TypeError(f"save_on_disk(): argument 'directory' must be a path or None, "
                            f"got {type(directory).__name__}")
        self._directory = None if directory is None else os.fspath(directory)
        self._spill = None
        super().__init__(self._pack, self._unpack)

    def _pack(self, tensor):
        if tensor is None:  # a PyLayer may save None; hooks see it too
            return None
        if self._spill is None:
            self._spill = _SpillDirectory(self._directory)
        return _SpilledTensor(self._spill, tensor.numpy())

    @staticmethod
    def _unpack(spilled):
        return None if spilled is None else make_tensor(spilled.load())

    def __repr__(self):
        return settings_repr(self, {"directory": self._directory})


class save_as(saved_tensors_hooks):
    """Keep floating-point tensors saved for backward in another dtype, e.g. float16.

    They are converted back to their own dtype in backward, so gradients are
    computed from rounded values: a trade of precision for memory. Tensors of
    other kinds (integers, booleans) are kept as they are.

    >>> import pylayer as paddle
    >>> from pylayer.autograd.graph import save_as
    >>> x = paddle.to_tensor([1.0, 2.0], dtype='float64', stop_gradient=False)
    >>> with save_as('float16'):
    ...     y = x * x
    >>> y.sum().backward()
    >>> x.grad.numpy()
    array([2., 4.])
    """

    def __init__(self, dtype):
        self._dtype = check_dtype(dtype, "save_as", kinds="f", allow_none=False)
        super().__init__(self._pack, self._unpack)

    def _pack(self, tensor):
        if tensor is None:  # a PyLayer may save None; hooks see it too
            return None
        array = tensor.numpy()
        if not is_floating(array.dtype):
            return array, None
        return array.astype(self._dtype), array.dtype

    @staticmethod
    def _unpack(packed):
        if packed is None:
            return None
        array, dtype = packed
        return make_tensor(array if dtype is None else array.astype(dtype))

    def __repr__(self):
        return settings_repr(self, {"dtype": self._dtype.name})


class disable_saved_tensors_hooks:
    """Forbid saved-tensor hooks inside the block, for code that cannot work with them.

    Entering a ``saved_tensors_hooks`` block inside it, or entering it while
    hooks are active, raises ``RuntimeError(error_message)``.

    >>> import pylayer as paddle
    >>> from pylayer.autograd.graph import disable_saved_tensors_hooks, save_as
    >>> with disable_saved_tensors_hooks("hooks are not supported here"):
    ...     with save_as('float16'):
    ...         pass
    Traceback (most recent call last):
    ...
    RuntimeError: hooks are not supported here
    """

    def __init__(self, error_message):
        if not isinstance(error_message, str):
            raise TypeError(f"disable_saved_tensors_hooks(): argument 'error_message' must be "
                            f"a str, got {type(error_message).__name__}")
        self.error_message = error_message
        self._previous = []

    def __enter__(self):
        if current_saved_tensors_hooks() is not None:
            raise RuntimeError(self.error_message)
        self._previous.append(set_disabled_message(self.error_message))
        return self

    def __exit__(self, *exc_info):
        set_disabled_message(self._previous.pop())
        return False

    def __repr__(self):
        return settings_repr(self, {"error_message": self.error_message})

    def is_active(self):
        """Whether this thread is inside a ``disable_saved_tensors_hooks`` block.

        >>> from pylayer.autograd.graph import disable_saved_tensors_hooks
        >>> guard = disable_saved_tensors_hooks("no hooks")
        >>> with guard:
        ...     print(guard.is_active())
        True
        """
        return disabled_message() is not None
