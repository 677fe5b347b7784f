"""Paddle's ``paddle.MmapStorage``: the bytes of a file mapped into memory, read as Tensors."""
import mmap
import os

import numpy as np

from pylayer.extend import check_dtype, check_int, describe, make_tensor

__all__ = ["MmapStorage"]


class MmapStorage:
    """The first ``nbytes`` bytes of the file ``filename`` (a ``.safetensors`` shard, a
    raw array dump), mapped read-only; :meth:`get_slice` reads elements of a dtype
    from them into a Tensor.

    >>> import os, tempfile, numpy as np, pylayer
    >>> path = os.path.join(tempfile.mkdtemp(), "weights.bin")
    >>> pylayer.extend.write_atomically(path, np.arange(6, dtype="float32").tobytes())
    >>> storage = pylayer.MmapStorage(path, 24)
    >>> storage.get_slice("float32", 1, 4).numpy()
    array([1., 2., 3.], dtype=float32)
    """

    def __init__(self, filename, nbytes):
        fn = "MmapStorage"
        if not isinstance(filename, (str, os.PathLike)):
            raise TypeError(f"{fn}(): argument 'filename' (position 1) must be a path, "
                            f"got {describe(filename)}")
        check_int(nbytes, fn, "nbytes", minimum=1)
        with open(filename, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if nbytes > size:
                raise ValueError(f"{fn}(): argument 'nbytes' (position 2) is {nbytes}, but "
                                 f"{os.fspath(filename)!r} holds {size} bytes")
            self._map = mmap.mmap(file.fileno(), nbytes, access=mmap.ACCESS_READ)
        self._nbytes = int(nbytes)

    def __repr__(self):
        return f"MmapStorage(nbytes={self._nbytes})"

    def get_slice(self, dtype="uint8", start=0, stop=-1, step=1):
        """Elements ``start:stop:step`` of the mapped bytes read as ``dtype``, as a new
        1-D Tensor (a copy: it stays valid after the file changes). ``stop=-1`` reads to
        the end; ``start`` and ``stop`` count elements of ``dtype`` (Paddle 3.3.1 takes
        ``start`` as a byte offset and reads past the mapping: see the migration guide).

        >>> import os, tempfile, numpy as np, pylayer
        >>> path = os.path.join(tempfile.mkdtemp(), "ids.bin")
        >>> pylayer.extend.write_atomically(path, np.arange(5, dtype="int64").tobytes())
        >>> pylayer.MmapStorage(path, 40).get_slice("int64", step=2).numpy()
        array([0, 2, 4])
        """
        fn = "MmapStorage.get_slice"
        dtype = np.dtype(check_dtype(dtype, fn, "dtype", allow_none=False))
        check_int(start, fn, "start", minimum=0)
        check_int(stop, fn, "stop", minimum=-1)
        check_int(step, fn, "step", minimum=1)
        count = self._nbytes // dtype.itemsize
        stop = count if stop == -1 else stop
        for name, value in (("start", start), ("stop", stop)):
            if value > count:
                raise ValueError(f"{fn}(): argument '{name}' is {value}, beyond the {count} "
                                 f"elements of {dtype.name} that the {self._nbytes} mapped "
                                 f"bytes hold")
        elements = np.frombuffer(self._map, dtype=dtype, count=count)
        return make_tensor(np.array(elements[start:stop:step], copy=True))
