"""Devices: pylayer computes on the CPU, with numpy; and its pool of large buffers.

``set_device('cpu')`` and ``get_device()`` let Paddle code that selects a
device run unchanged; asking for a GPU (``'gpu'``, ``'gpu:0'``, ``'cuda'``)
is an error that says so, rather than silently computing on the CPU.

``memory_stats()``, ``empty_cache()`` and ``set_pool_limit()`` show and
control the pool from which ops take the arrays of their large results
(see ``pylayer._kernels.buffers``).

The questions Paddle programs ask about the build (``is_compiled_with_xpu()``,
``get_cudnn_version()``, ...) get the answers of a CPU build; the context managers
:class:`device` and :class:`device_guard` accept the CPU; the random state functions
work on pylayer's one generator (:class:`pylayer.Generator`); and the typed-tensor
factories (``FloatTensor``, ...) are pylayer's top-level ones.
"""
from pylayer._kernels.buffers import empty_cache, memory_stats, set_pool_limit
from pylayer._core.tensor_methods import CPU, CPUPlace  # noqa: F401 - the class static exports
from pylayer.ops._arguments import check_int, describe
from pylayer.ops.conversion import (BFloat16Tensor, BoolTensor, ByteTensor, CharTensor,
                                    DoubleTensor, FloatTensor, HalfTensor, IntTensor,
                                    LongTensor, ShortTensor)
from pylayer.ops.sampling import Generator, GeneratorState

__all__ = ["set_device", "get_device", "is_compiled_with_cuda", "device_count",
           "memory_stats", "empty_cache", "set_pool_limit",
           "device", "device_guard", "get_all_device_type", "get_available_device",
           "is_available", "synchronize", "get_rng_state", "set_rng_state", "manual_seed",
           "is_compiled_with_cinn", "is_compiled_with_custom_device",
           "is_compiled_with_distribute", "is_compiled_with_ipu", "is_compiled_with_rocm",
           "is_compiled_with_xpu", "get_cudnn_version", "is_bf16_supported",
           "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor",
           "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor"]

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


def _cpu_place(value, fn, arg="device"):
    """The CPU place for a device given as a str (``set_device``'s), a CPUPlace, or None
    (the current device); a GPU or an unknown device is an error."""
    if value is None or isinstance(value, CPUPlace):
        return CPU
    if isinstance(value, str):
        name = value.strip().lower()
        if name in _CPU_NAMES:
            return CPU
        if name.split(":")[0] in _ACCELERATORS:
            raise ValueError(f"{fn}(): argument '{arg}' is {value!r}, but pylayer runs on the "
                             f"CPU only (numpy); use 'cpu'")
        raise ValueError(f"{fn}(): argument '{arg}' must be 'cpu', got {value!r}")
    raise TypeError(f"{fn}(): argument '{arg}' must be a str such as 'cpu', a CPUPlace or "
                    f"None, got {describe(value)}")


class device:
    """A context manager that selects a device for its block and restores the previous
    one after: ``'cpu'``, a CPUPlace, ``0`` (the index of the CPU) or None (the current
    device). Other indices, as in Paddle's CPU build, and GPUs are errors.

    >>> import pylayer as paddle
    >>> with paddle.device.device('cpu'):
    ...     paddle.ones([2]).place
    Place(cpu)
    >>> paddle.device.device(1)
    Traceback (most recent call last):
    ...
    ValueError: device(): argument 'device' is the index 1, but the CPU device only has index 0
    """

    def __init__(self, device=None):
        if isinstance(device, int) and not isinstance(device, bool):
            if device != 0:
                raise ValueError(f"device(): argument 'device' is the index {device}, but the "
                                 f"CPU device only has index 0")
            device = None
        self.place = _cpu_place(device, "device")
        self._previous = None

    def __repr__(self):
        return f"device({self.place!r})"

    def __enter__(self):
        self._previous = get_device()
        set_device("cpu")

    def __exit__(self, exc_type, exc_value, traceback):
        set_device(self._previous)
        return False


class device_guard:
    """A context manager that runs its block on the device ``device``, a str or a place;
    on pylayer that is the CPU (``'cpu'`` or a CPUPlace), where everything runs anyway.

    >>> import pylayer as paddle
    >>> with paddle.device.device_guard('cpu'):
    ...     paddle.zeros([1]).place
    Place(cpu)
    """

    def __init__(self, device):
        if not isinstance(device, (str, CPUPlace)):
            raise ValueError(f"device_guard(): argument 'device' must be a str such as 'cpu' "
                             f"or a place, got {describe(device)}")
        self._target_place = _cpu_place(device, "device_guard")

    def __repr__(self):
        return f"device_guard({self._target_place!r})"

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, traceback):
        return None


def get_all_device_type():
    """The types of the accelerators pylayer can use, as Paddle's CPU build answers:
    none (the CPU is not listed).

    >>> import pylayer as paddle
    >>> paddle.device.get_all_device_type()
    []
    """
    return []


def get_available_device():
    """The accelerators available, as Paddle's CPU build answers: none.

    >>> import pylayer as paddle
    >>> paddle.device.get_available_device()
    []
    """
    return []


def is_available():
    """Whether any accelerator (GPU, XPU, custom device) is available: no.

    >>> import pylayer as paddle
    >>> paddle.device.is_available()
    False
    """
    return device_count() >= 1


def synchronize(device=None):
    """Wait until the work queued on ``device`` is done. pylayer finishes each op when it
    is called, so on the CPU (``None``, ``'cpu'``, a CPUPlace) there is nothing to wait
    for; a GPU is an error.

    >>> import pylayer as paddle
    >>> paddle.device.synchronize()
    """
    _cpu_place(device, "synchronize")


def get_rng_state(device=None):
    """The position of the CPU's random stream (one state, where :func:`pylayer.get_rng_state`
    gives a list), for :func:`set_rng_state`.

    >>> import pylayer as paddle
    >>> state = paddle.device.get_rng_state()
    >>> a = paddle.rand([2]).numpy()
    >>> paddle.device.set_rng_state(state)
    >>> bool((a == paddle.rand([2]).numpy()).all())
    True
    """
    _cpu_place(device, "get_rng_state")
    return Generator().get_state()


def set_rng_state(new_state, device=None):
    """Move the CPU's random stream to a state from :func:`get_rng_state`.

    >>> import pylayer as paddle
    >>> paddle.device.set_rng_state(paddle.device.get_rng_state())
    """
    _cpu_place(device, "set_rng_state")
    if not isinstance(new_state, GeneratorState):
        raise TypeError(f"set_rng_state(): argument 'new_state' must be a state from "
                        f"pylayer.device.get_rng_state(), got {describe(new_state)}")
    Generator().set_state(new_state)


def manual_seed(seed):
    """Restart the random stream from ``seed`` (an int >= 0), as :func:`pylayer.seed` does;
    returns None.

    >>> import pylayer as paddle
    >>> paddle.device.manual_seed(3); a = paddle.rand([2]).numpy()
    >>> paddle.device.manual_seed(3); bool((a == paddle.rand([2]).numpy()).all())
    True
    """
    Generator().manual_seed(check_int(seed, "manual_seed", "seed", minimum=0))


def is_compiled_with_cinn():
    """Whether pylayer has Paddle's CINN compiler: no.

    >>> import pylayer as paddle
    >>> paddle.device.is_compiled_with_cinn()
    False
    """
    return False


def is_compiled_with_custom_device(device_type):
    """Whether pylayer supports the custom device ``device_type`` (such as ``'npu'``): no.

    >>> import pylayer as paddle
    >>> paddle.device.is_compiled_with_custom_device('npu')
    False
    """
    if not isinstance(device_type, str):
        raise TypeError(f"is_compiled_with_custom_device(): argument 'device_type' must be a "
                        f"str such as 'npu', got {describe(device_type)}")
    return False


def is_compiled_with_distribute():
    """Whether pylayer can train over several processes (:mod:`pylayer.distributed`,
    on MPI): yes, as Paddle's CPU build answers.

    >>> import pylayer as paddle
    >>> paddle.device.is_compiled_with_distribute()
    True
    """
    return True


def is_compiled_with_ipu():
    """Whether pylayer supports Graphcore IPUs: no.

    >>> import pylayer as paddle
    >>> paddle.device.is_compiled_with_ipu()
    False
    """
    return False


def is_compiled_with_rocm():
    """Whether pylayer supports AMD GPUs through ROCm: no.

    >>> import pylayer as paddle
    >>> paddle.device.is_compiled_with_rocm()
    False
    """
    return False


def is_compiled_with_xpu():
    """Whether pylayer supports Kunlun XPUs: no.

    >>> import pylayer as paddle
    >>> paddle.device.is_compiled_with_xpu()
    False
    """
    return False


def get_cudnn_version():
    """The version of cuDNN pylayer uses: None, as on Paddle's CPU build (no cuDNN).

    >>> import pylayer as paddle
    >>> print(paddle.device.get_cudnn_version())
    None
    """
    return None


def is_bf16_supported(including_emulation=True):
    """Whether the current device computes in bfloat16: yes, pylayer's CPU does (numpy with
    ml_dtypes), as Paddle's CPU build answers.

    >>> import pylayer as paddle
    >>> paddle.device.is_bf16_supported()
    True
    """
    return True
