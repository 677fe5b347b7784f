"""How a worker's batch reaches the loader: numbers, strings and containers by
pickle; every numpy array of at least ``SHARED_BYTES`` (a Tensor's too) through a file
of shared memory (``/dev/shm``) that the worker writes once and the loader maps,
without a copy and without pickling the data, then unlinks (the mapping keeps the
memory until the array is freed). Elsewhere, or with ``use_shared_memory=False``,
arrays travel by pickle."""
import mmap
import os
import secrets

import numpy as np

from pylayer.extend import Tensor

__all__ = []

SHARED_BYTES = 1 << 14
_SHM = "/dev/shm"


class _Shared:
    """An array left in a shared-memory file: its path, dtype and shape."""
    __slots__ = ("path", "dtype", "shape")

    def __init__(self, path, dtype, shape):
        self.path, self.dtype, self.shape = path, dtype, shape


class _FromTensor:
    """A Tensor's array (sent as such, made a Tensor again by the loader)."""
    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array


def shared_memory_available():
    return os.path.isdir(_SHM) and os.access(_SHM, os.W_OK)


def _share(array):
    array = np.ascontiguousarray(array)
    path = os.path.join(_SHM, f"pylayer-io-{os.getpid()}-{secrets.token_hex(8)}")
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
    try:
        os.ftruncate(fd, array.nbytes)
        with mmap.mmap(fd, array.nbytes) as region:
            np.frombuffer(region, array.dtype, array.size)[...] = array.reshape(-1)
    except BaseException:
        os.unlink(path)
        raise
    finally:
        os.close(fd)
    return _Shared(path, array.dtype, array.shape)


def _unshare(shared):
    fd = os.open(shared.path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        region = mmap.mmap(fd, size, prot=mmap.PROT_READ | mmap.PROT_WRITE,
                           flags=mmap.MAP_PRIVATE) if size else None
    finally:
        os.close(fd)
        os.unlink(shared.path)
    if region is None:
        return np.empty(shared.shape, shared.dtype)
    return np.frombuffer(region, shared.dtype).reshape(shared.shape)


def pack(value, shared):
    """``value`` ready to send: Tensors marked, large arrays in shared memory."""
    if isinstance(value, Tensor):
        return _FromTensor(pack(value.numpy(), shared))
    if isinstance(value, np.ndarray):
        if shared and value.nbytes >= SHARED_BYTES and value.dtype.hasobject is False:
            return _share(value)
        return value
    if isinstance(value, tuple):
        return tuple(pack(v, shared) for v in value)
    if isinstance(value, list):
        return [pack(v, shared) for v in value]
    if isinstance(value, dict):
        return {k: pack(v, shared) for k, v in value.items()}
    return value


def unpack(value):
    """What :func:`pack` sent, with its arrays back (a Tensor's as a Tensor)."""
    if isinstance(value, _FromTensor):
        from pylayer.io.dataloader import as_tensor
        return as_tensor(unpack(value.array))
    if isinstance(value, _Shared):
        return _unshare(value)
    if isinstance(value, tuple):
        return tuple(unpack(v) for v in value)
    if isinstance(value, list):
        return [unpack(v) for v in value]
    if isinstance(value, dict):
        return {k: unpack(v) for k, v in value.items()}
    return value


def discard(value):
    """Unlink the shared-memory files of a packed value that will not be unpacked."""
    if isinstance(value, _FromTensor):
        discard(value.array)
    elif isinstance(value, _Shared):
        try:
            os.unlink(value.path)
        except OSError:
            pass
    elif isinstance(value, (tuple, list)):
        for v in value:
            discard(v)
    elif isinstance(value, dict):
        for v in value.values():
            discard(v)
