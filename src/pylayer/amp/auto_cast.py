"""``auto_cast`` and ``decorate``: automatic mixed precision on the CPU.

Inside ``auto_cast`` every public op that runs goes through one hook of
``pylayer.ops.dispatch`` (``register_autocast``), which decides the precision
of the op from Paddle's lists (:mod:`pylayer.amp.amp_lists`), by Paddle's
operator names, and casts the op's floating inputs (float32, float16,
bfloat16; never float64, integers or booleans) with recorded casts, so that
gradients flow back to the float32 parameters in float32:

* white-list ops (``matmul``, ``linear``, ``conv2d``, ``einsum``...) run in
  the low precision;
* black-list ops (``exp``, ``softmax``, ``cross_entropy``, ``mean``,
  ``layer_norm``...) run in float32;
* the others follow their inputs: float32 when one of them is float32 (the
  low-precision ones are cast up), the low precision otherwise. At ``OD``
  they run in float32; at ``O2`` with ``use_promote=False`` they run in the
  low precision.

As in Paddle, the casting state is per thread, ``cast`` and in-place ops are
never cast, and Python's ``+ - * /`` on Tensors (which do not pass through
the op dispatch) follow numpy's promotion, which gives the same dtype as the
gray-op rule. The CPU supports bfloat16 (``is_bfloat16_supported()``) but not
float16: ``auto_cast(dtype='float16')``, Paddle's default, warns and changes
nothing, as Paddle does on a CPU. Where pylayer's kernel has no bfloat16
(the convolutions), the op computes as a bfloat16 kernel does: operands
rounded to bfloat16, float32 arithmetic, the result rounded to bfloat16.

A ``to_static`` function called inside ``auto_cast`` is captured with the
casts recorded (a parameter is cast at each run, and its gradient flows back
in float32), one program per auto_cast state, so it computes as its dynamic
form does.
"""
import contextlib
import functools
import inspect
import threading
import warnings

import pylayer
from pylayer.autograd import no_grad
from pylayer.extend import Tensor
from pylayer.ops.dispatch import register_autocast
from pylayer.static import Variable
from pylayer.static._record import record_op
from pylayer.amp.amp_lists import black_list, white_list

__all__ = ["auto_cast", "autocast", "decorate", "is_autocast_enabled", "get_autocast_dtype",
           "get_autocast_cpu_dtype", "get_autocast_gpu_dtype"]

_LOW = ("float16", "bfloat16")
_FLOATS = ("float32", "float16", "bfloat16")

# pylayer's op names whose Paddle operator type differs (the names the lists use).
_OP_TYPE = {
    "add": "elementwise_add", "subtract": "elementwise_sub", "multiply": "elementwise_mul",
    "divide": "elementwise_div", "true_divide": "elementwise_div",
    "floor_divide": "elementwise_floordiv", "remainder": "elementwise_mod",
    "maximum": "elementwise_max", "minimum": "elementwise_min", "fmax": "elementwise_fmax",
    "fmin": "elementwise_fmin", "sum": "reduce_sum", "mean": "reduce_mean",
    "prod": "reduce_prod", "max": "reduce_max", "min": "reduce_min", "amax": "reduce_amax",
    "amin": "reduce_amin", "all": "reduce_all", "any": "reduce_any", "matmul": "matmul_v2",
    "mm": "matmul_v2", "linear": "linear_v2", "conv1d": "conv2d",
    "embedding": "lookup_table_v2", "cross_entropy": "softmax_with_cross_entropy",
    "binary_cross_entropy_with_logits": "sigmoid_cross_entropy_with_logits",
    "smooth_l1_loss": "huber_loss", "tanhshrink": "tanh_shrink",
    "scaled_dot_product_attention": "flash_attn"}

# Never cast: the cast itself and ops that write into an operand.
_NO_AMP = frozenset({"cast", "assign", "setitem", "increment", "create_parameter"})

# Only their first input follows the rules (scale, bias and statistics stay as they are).
_FIRST_INPUT_ONLY = frozenset({"batch_norm", "layer_norm"})

# pylayer's kernels of these take no bfloat16: they compute as a bfloat16 kernel does.
_FLOAT32_KERNELS = frozenset({"conv1d", "conv2d", "conv3d", "conv1d_transpose",
                              "conv2d_transpose", "conv3d_transpose"})

# What the rules cast: Tensors, and the Variables of a program being captured by to_static.
_OPERANDS = (Tensor, Variable)

_local = threading.local()
_lock = threading.Lock()
_open_blocks = 0        # auto_cast blocks open in any thread: the hook is installed while > 0
_last_dtype = ["float32"]   # the dtype of the latest auto_cast (GradScaler reads it)


class _State:
    __slots__ = ("level", "dtype", "white", "black", "use_promote", "key")

    def __init__(self, level, dtype, white, black, use_promote):
        self.level, self.dtype = level, dtype
        self.white, self.black, self.use_promote = white, black, use_promote
        self.key = (level, dtype, frozenset(white), frozenset(black), use_promote)


def _current():
    return getattr(_local, "state", None)


def state_key():
    """What decides how ops run under the auto_cast in effect (None outside one):
    ``to_static`` captures one program per value."""
    state = _current()
    return None if state is None else state.key


def _op_type(name, fn, args, kwargs):
    """The Paddle operator type of one call of the pylayer op ``name``."""
    if name == "max_pool2d":
        bound = _bind(fn, args, kwargs)
        return "max_pool2d_with_index" if bound.get("return_mask") else "pool2d"
    if name in ("interpolate", "upsample"):
        mode = str(_bind(fn, args, kwargs).get("mode", "nearest")).lower()
        return f"{mode}_interp_v2"
    return _OP_TYPE.get(name, name)


@functools.lru_cache(maxsize=None)
def _signature(fn):
    return inspect.signature(fn)


def _bind(fn, args, kwargs):
    try:
        bound = _signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {}
    bound.apply_defaults()
    return bound.arguments


def _float_inputs(name, args, kwargs):
    """The floating Tensors among the arguments (one level into lists and tuples)."""
    found = []
    values = list(args[:1]) if name in _FIRST_INPUT_ONLY else list(args) + list(kwargs.values())
    if name in _FIRST_INPUT_ONLY and not args and "x" in kwargs:
        values = [kwargs["x"]]
    for value in values:
        items = value if isinstance(value, (list, tuple)) else (value,)
        for item in items:
            if isinstance(item, _OPERANDS) and item.dtype.name in _FLOATS:
                found.append(item)
    return found


def _destination(state, op_type, inputs):
    """The dtype name the op runs in, by Paddle's rules."""
    if not state.use_promote:
        return "float32" if op_type in state.black else state.dtype
    if op_type in state.white:
        return state.dtype
    if op_type in state.black or state.level == "OD":
        return "float32"
    return "float32" if any(t.dtype.name == "float32" for t in inputs) else state.dtype


def _cast_arguments(name, args, kwargs, dtype, cast):
    """The arguments with their floating Tensors (those the rules cover) cast to ``dtype``."""
    def convert(value):
        if isinstance(value, _OPERANDS):
            name_ = value.dtype.name
            return cast(value, dtype) if name_ in _FLOATS and name_ != dtype else value
        if isinstance(value, (list, tuple)) and any(isinstance(v, _OPERANDS) for v in value):
            return type(value)(convert(v) for v in value)
        return value
    if name in _FIRST_INPUT_ONLY:
        if args:
            return (convert(args[0]),) + tuple(args[1:]), kwargs
        return args, {k: convert(v) if k == "x" else v for k, v in kwargs.items()}
    return tuple(convert(v) for v in args), {k: convert(v) for k, v in kwargs.items()}


def _in_float32_kernel(fn, args, kwargs, dtype, run):
    """A convolution in ``dtype`` on a kernel without it: the operands rounded to
    ``dtype``, float32 arithmetic, the result rounded; a bias is added afterwards,
    as Paddle's separate bias add (a gray op) does."""
    bound = _bind(fn, args, kwargs)
    if not bound:                       # the op's own check says what is wrong
        return fn(*args, **kwargs)
    bias = bound.get("bias")
    for arg in ("x", "weight"):
        value = bound.get(arg)
        if isinstance(value, _OPERANDS) and value.dtype.name in _FLOATS:
            bound[arg] = run(pylayer.cast, run(pylayer.cast, value, dtype), "float32")
    bound["bias"] = None
    out = run(pylayer.cast, fn(**bound), dtype)
    if bias is None:
        return out
    channels_first = str(bound.get("data_format", "NC")).upper().startswith("NC")
    shape = [1] * len(out.shape)
    shape[1 if channels_first else -1] = -1
    return run(pylayer.add, out, run(pylayer.reshape, bias, shape))


def _hook(op, fn, args, kwargs):
    """Runs every public op call while some thread has an ``auto_cast`` block open."""
    state = getattr(_local, "state", None)
    if state is None:
        return fn(*args, **kwargs)
    name = op.__name__
    if name in _NO_AMP or name.endswith("_"):
        return fn(*args, **kwargs)
    inputs = _float_inputs(name, args, kwargs)
    if not inputs:
        return fn(*args, **kwargs)
    dtype = _destination(state, _op_type(name, fn, args, kwargs), inputs)
    run = _run if fn is op.__wrapped__ else _record      # fn is the op's recording
    if dtype != "float32" and name in _FLOAT32_KERNELS:
        return _in_float32_kernel(fn, args, kwargs, dtype, run)
    if all(t.dtype.name == dtype for t in inputs):
        return fn(*args, **kwargs)
    args, kwargs = _cast_arguments(name, args, kwargs, dtype,
                                   lambda value, to: run(pylayer.cast, value, to))
    return fn(*args, **kwargs)


def _run(public_op, *args):
    return public_op(*args)


def _record(public_op, *args):
    """``public_op(*args)`` recorded into the program being captured, even when no
    Variable is among the arguments (a parameter is then cast at each run of the
    program, not once when it is captured)."""
    return record_op(public_op.__wrapped__, *args)


def _names(value, fn, arg):
    if value is None:
        return set()
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        raise TypeError(f"{fn}(): argument '{arg}' must be a set, list or tuple of operator "
                        f"names, got {type(value).__name__}")
    names = set()
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"{fn}(): argument '{arg}' must hold operator names (str), got "
                            f"an item of type {type(item).__name__}")
        names.add(item)
    return names


def _checked_dtype(dtype, fn):
    name = getattr(dtype, "name", dtype)
    if not isinstance(name, str):
        raise TypeError(f"{fn}(): argument 'dtype' must be 'float16' or 'bfloat16', got "
                        f"{type(dtype).__name__}")
    return name.lower()


def _device_supports(dtype):
    return dtype == "bfloat16"


def auto_cast(enable=True, custom_white_list=None, custom_black_list=None, level="O1",
              dtype="float16", use_promote=True):
    """A context in which ops run in mixed precision by Paddle's operator lists.

    >>> import pylayer
    >>> x, w = pylayer.ones([2, 3]), pylayer.ones([3, 4])
    >>> with pylayer.amp.auto_cast(dtype='bfloat16'):
    ...     y = pylayer.matmul(x, w)
    ...     z = pylayer.exp(y)
    >>> y.dtype, z.dtype
    (pylayer.bfloat16, pylayer.float32)
    """
    fn = "auto_cast"
    if not isinstance(level, str):
        raise TypeError(f"{fn}(): argument 'level' must be a str, got {type(level).__name__}")
    level = level.upper()
    if level not in ("O0", "OD", "O1", "O2"):
        raise ValueError(f"{fn}(): level should be O0, OD, O1 or O2, got {level!r}")
    dtype = _checked_dtype(dtype, fn)
    if enable and dtype not in _LOW:
        raise ValueError(f"{fn}(): if enable amp, dtype should be 'float16' or 'bfloat16', "
                         f"got {dtype!r}")
    white = _names(custom_white_list, fn, "custom_white_list")
    black = _names(custom_black_list, fn, "custom_black_list")
    if white & black:
        raise ValueError(f"{fn}(): custom white list overlap custom black list: "
                         f"{sorted(white & black)}")
    return _guard(bool(enable), white, black, level, dtype, bool(use_promote))


def autocast(device_type, dtype="float16", enabled=True, cache_enabled=True):
    """PyTorch's spelling of :func:`auto_cast`: ``auto_cast(enable=enabled,
    dtype=dtype)`` at level O1 with Paddle's lists. ``device_type`` (required, as in
    Paddle) and ``cache_enabled`` are accepted for compatibility and ignored.

    >>> import pylayer
    >>> x, w = pylayer.ones([2, 3]), pylayer.ones([3, 4])
    >>> with pylayer.autocast("cpu", dtype="bfloat16"):
    ...     print(pylayer.matmul(x, w).dtype, pylayer.is_autocast_enabled())
    pylayer.bfloat16 True
    """
    dtype = _checked_dtype(dtype, "autocast")
    if enabled and dtype not in _LOW:
        raise ValueError(f"autocast(): if enable amp, dtype should be 'float16' or "
                         f"'bfloat16', got {dtype!r}")
    return _guard(bool(enabled), set(), set(), "O1", dtype, True)


@contextlib.contextmanager
def _guard(enable, custom_white, custom_black, level, dtype, use_promote):
    global _open_blocks
    _last_dtype[0] = dtype
    if enable and not _device_supports(dtype):
        warnings.warn(f"auto_cast(): {dtype} is not supported on the CPU "
                      f"(pylayer.amp.is_float16_supported() is False), so auto_cast makes no "
                      f"effect; use dtype='bfloat16'", UserWarning, stacklevel=3)
        enable = False
    state = None
    if enable and level != "O0":
        white = set(white_list()[dtype][level])
        black = set(black_list()[dtype][level])
        white = (white - custom_black) | custom_white
        black = (black - custom_white) | custom_black
        state = _State(level, dtype, white, black, use_promote or level != "O2")
    previous = _current()
    _local.state = state
    with _lock:
        _open_blocks += 1
        register_autocast(_hook)
    try:
        yield
    finally:
        _local.state = previous
        with _lock:
            _open_blocks -= 1
            if _open_blocks == 0:
                register_autocast(None)


def is_autocast_enabled(device_type=None):
    """Whether ops of this thread run in mixed precision now (inside an enabled
    ``auto_cast`` whose level is not O0).

    >>> import pylayer
    >>> with pylayer.amp.auto_cast(dtype='bfloat16'):
    ...     print(pylayer.amp.is_autocast_enabled())
    True
    >>> pylayer.amp.is_autocast_enabled()
    False
    """
    return _current() is not None


def get_autocast_dtype(device_type=None):
    """The low-precision dtype of the ``auto_cast`` in effect, else ``'float16'``
    (Paddle's default).

    >>> import pylayer
    >>> with pylayer.amp.auto_cast(dtype='bfloat16'):
    ...     print(pylayer.amp.get_autocast_dtype())
    bfloat16
    >>> pylayer.amp.get_autocast_dtype()
    'float16'
    """
    state = _current()
    return "float16" if state is None else state.dtype


get_autocast_cpu_dtype = get_autocast_dtype
get_autocast_gpu_dtype = get_autocast_dtype


def _keeps_float32(layer, excluded_instances, excluded_types):
    norms = (pylayer.nn.BatchNorm, pylayer.nn.BatchNorm1D, pylayer.nn.BatchNorm2D,
             pylayer.nn.BatchNorm3D, pylayer.nn.SyncBatchNorm)
    return (id(layer) in excluded_instances or isinstance(layer, excluded_types)
            or isinstance(layer, norms))


def _excluded(excluded_layers, fn):
    message = (f"{fn}(): argument 'excluded_layers' must be either a nn.Layer instance/type "
               f"or a list of nn.Layer instances/types")
    if excluded_layers is None:
        items = []
    elif isinstance(excluded_layers, list):
        items = excluded_layers
    else:
        items = [excluded_layers]
    instances, types = set(), []
    for item in items:
        if isinstance(item, pylayer.nn.Layer):
            instances.update(id(layer) for layer in item.sublayers(include_self=True))
        elif isinstance(item, type) and issubclass(item, pylayer.nn.Layer):
            types.append(item)
        else:
            raise TypeError(f"{message}, got {type(item).__name__}")
    return instances, tuple(types)


def _cast_layer(layer, dtype):
    """Cast the layer's own floating parameters and buffers to ``dtype``, in place (the
    Parameter objects stay, so an optimizer made before keeps them)."""
    for registry in ("_parameters", "_buffers"):
        for tensor in layer.__dict__[registry].values():
            if tensor is not None and tensor.dtype.name in _FLOATS + ("float64",):
                with no_grad():
                    array = pylayer.cast(tensor, dtype).numpy()
                tensor._set_array_inplace(array)
                if tensor.grad is not None:
                    tensor.clear_grad(False)
    layer._dtype = dtype


def _with_save_dtype(layer, save_dtype):
    plain = layer.state_dict

    def state_dict(*args, **kwargs):
        result = plain(*args, **kwargs)
        for key, value in result.items():
            if isinstance(value, Tensor) and value.dtype.name in _FLOATS + ("float64",):
                cast = pylayer.cast(value, save_dtype)
                cast.name = value.name
                result[key] = cast
        return result
    object.__setattr__(layer, "state_dict", state_dict)


def decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None,
             save_dtype=None, master_grad=False, excluded_layers=None):
    """Prepare models (and optimizers) for mixed precision. ``O1`` changes nothing;
    ``O2`` casts the parameters to ``dtype`` (BatchNorm and ``excluded_layers`` keep
    float32) and makes the optimizers keep float32 master weights (unless
    ``master_weight=False``), which they update and round to ``dtype`` after each step.

    >>> import pylayer
    >>> model = pylayer.nn.Linear(2, 2)
    >>> opt = pylayer.optimizer.SGD(0.1, parameters=model.parameters())
    >>> model, opt = pylayer.amp.decorate(model, opt, level='O2', dtype='bfloat16')
    >>> model.weight.dtype
    pylayer.bfloat16
    """
    fn = "decorate"
    if level not in ("O1", "O2"):
        raise ValueError(f"{fn}(): level should be O1 or O2, O1 represent AMP train mode, O2 "
                         f"represent Pure fp16 train mode; got {level!r}")
    dtype_name = getattr(dtype, "name", dtype)
    if dtype_name not in _LOW:
        raise ValueError(f"{fn}(): dtype only support float16 or bfloat16, got {dtype!r}")
    if save_dtype is not None and save_dtype not in ("float16", "bfloat16", "float32",
                                                     "float64"):
        raise ValueError(f"{fn}(): save_dtype can only be float16, bfloat16, float32 or "
                         f"float64, but your input save_dtype is {save_dtype!r}")

    def unchanged():
        return models if optimizers is None else (models, optimizers)
    if level == "O1" or not _device_supports(dtype_name):
        return unchanged()
    def one_or_list(value, kind, kind_name, plural, singular):
        """``(list of value, whether value was a list)``, each item a ``kind``."""
        if isinstance(value, kind):
            return [value], False
        if not isinstance(value, list):
            raise TypeError(f"{fn}(): {plural} must be either a single {singular} or a list "
                            f"of {plural}, got {type(value).__name__}")
        for item in value:
            if not isinstance(item, kind):
                raise RuntimeError(f"{fn}(): current train mode is pure {dtype_name}, "
                                   f"{plural} should be {kind_name}, but receive "
                                   f"{type(item).__name__}")
        return value, True

    model_list, models_is_list = one_or_list(models, pylayer.nn.Layer, "pylayer.nn.Layer",
                                                 "models", "model")
    optimizer_list, optimizers_is_list = [], False
    if optimizers is not None:
        optimizer_list, optimizers_is_list = one_or_list(
            optimizers, pylayer.optimizer.Optimizer, "pylayer.optimizer.Optimizer",
            "optimizers", "optimizer")
    if master_grad:
        raise ValueError(f"{fn}(): master_grad=True is not supported: a parameter's gradient "
                         f"always has the parameter's dtype in pylayer; the master weights "
                         f"(master_weight) already update in float32")
    instances, types = _excluded(excluded_layers, fn)
    for model in model_list:
        for layer in model.sublayers(include_self=True):
            if not _keeps_float32(layer, instances, types):
                _cast_layer(layer, dtype_name)
        if save_dtype is not None:
            for layer in model.sublayers(include_self=True):
                _with_save_dtype(layer, save_dtype)
    for opt in optimizer_list:
        opt._multi_precision = master_weight is not False
    if optimizers is None:
        return models
    result_models = model_list if models_is_list else model_list[0]
    return result_models, (optimizer_list if optimizers_is_list else optimizer_list[0])
