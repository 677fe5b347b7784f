"""Devices: pylayer computes on the CPU, with numpy; and its pool of large buffers.

``set_device('cpu')`` and ``get_device()`` let Paddle code that selects a
device run unchanged; asking for a GPU (``'gpu'``, ``'gpu:0'``, ``'cuda'``)
is an error that says so, rather than silently computing on the CPU.

``memory_stats()``, ``empty_cache()`` and ``set_pool_limit()`` show and
control the pool from which ops take the arrays of their large results
(see ``pylayer._kernels.buffers``).
"""
from pylayer._kernels.buffers import empty_cache, memory_stats, set_pool_limit
from pylayer._core.tensor_methods import CPU, CPUPlace  # noqa: F401 - the class static exports

__all__ = ["set_device", "get_device", "is_compiled_with_cuda", "device_count",
           "memory_stats", "empty_cache", "set_pool_limit"]

_CPU_NAMES = ("cpu", "cpu:0")
_ACCELERATORS = ("gpu", "cuda", "xpu", "npu", "dcu", "ipu", "mlu")


def set_device(device):
    """Select the device for new tensors; pylayer has only ``'cpu'``. Returns the place.

    >>> import pylayer as paddle
    >>> paddle.set_device('cpu')
    Place(cpu)
    >>> paddle.set_device('gpu:0')
    Traceback (most recent call last):
    ...
    ValueError: set_device(): argument 'device' is 'gpu:0', but pylayer runs on the CPU only (numpy); use set_device('cpu')
    """
    if not isinstance(device, str):
        raise TypeError(f"set_device(): argument 'device' must be a str such as 'cpu', "
                        f"got {type(device).__name__}")
    name = device.strip().lower()
    if name in _CPU_NAMES:
        return CPU
    if name.split(":")[0] in _ACCELERATORS:
        raise ValueError(f"set_device(): argument 'device' is {device!r}, but pylayer runs "
                         f"on the CPU only (numpy); use set_device('cpu')")
    raise ValueError(f"set_device(): argument 'device' must be 'cpu', got {device!r}")


def get_device():
    """The current device: always ``'cpu'``.

    >>> import pylayer as paddle
    >>> paddle.get_device()
    'cpu'
    """
    return "cpu"


def is_compiled_with_cuda():
    """Whether pylayer can use CUDA GPUs: never.

    >>> import pylayer as paddle
    >>> paddle.is_compiled_with_cuda()
    False
    """
    return False


def device_count():
    """The number of GPUs pylayer can use: 0.

    >>> import pylayer as paddle
    >>> paddle.device.device_count()
    0
    """
    return 0
