"""The layers of ``paddle.static.nn`` (besides ``fc``), on top of the functional ops.

Each call makes new parameters in the default main program (initialised by
the startup program) named as Paddle names them, ``<prefix>.w_0``,
``<prefix>.b_0``..., where the prefix is ``name`` or ``<layer>_<n>``.
"""
import itertools
import math

from pylayer.extend import Tensor, check_int, check_number, check_str, describe
from pylayer.nn.initializer import Constant, Normal
from pylayer.nn.param import ParamAttr
from pylayer.static._program import _parameter
from pylayer.static._record import record_op
from pylayer.static._variable import Variable, public_api

__all__ = ["conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose", "batch_norm",
           "layer_norm", "group_norm", "instance_norm", "embedding", "prelu",
           "bilinear_tensor_product", "spectral_norm", "row_conv", "sparse_embedding", "nce",
           "activation_of",
           "static_input"]

_counters = {}


def _prefix(layer, name):
    if name is not None:
        return check_str(name, layer, "name")
    counter = _counters.setdefault(layer, itertools.count())
    return f"{layer}_{next(counter)}"


def static_input(value, fn, arg="input"):
    """``value`` when it is a Variable; a clear error for a Tensor or anything else."""
    if isinstance(value, Tensor):
        raise RuntimeError(f"static.nn.{fn} builds a static program from Variables, but got a "
                           f"Tensor; call pylayer.enable_static() and use paddle.static.data "
                           f"(for Tensors use the layers of pylayer.nn)")
    if not isinstance(value, Variable):
        raise TypeError(f"{fn}(): argument '{arg}' must be a Variable, got {describe(value)}")
    return value


def activation_of(name, fn, arg="act"):
    """The pylayer activation function called ``name`` (None for None)."""
    import pylayer
    check_str(name, fn, arg, allow_none=True)
    if name is None:
        return None
    found = getattr(pylayer.nn.functional, name, None) or getattr(pylayer, name, None)
    if name.startswith("_") or not callable(found):
        raise ValueError(f"{fn}(): unknown activation {name!r}; use the name of a pylayer "
                         f"activation such as 'relu', 'tanh', 'sigmoid' or 'softmax'")
    return found


def _act(out, activation):
    return out if activation is None else activation(out)


def _sizes(value, n, fn, arg):
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] * n
    if isinstance(value, (list, tuple)) and len(value) == n and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return list(value)
    raise TypeError(f"{fn}(): argument '{arg}' must be an int or a list of {n} ints, "
                    f"got {describe(value)}")


def _channels(x, channel_last, fn):
    c = x.shape[-1] if channel_last else x.shape[1]
    if c < 0:
        raise ValueError(f"{fn}(): the channel dimension of input '{x.name}' (shape "
                         f"{x.shape}) must be known")
    return c


def _groups(groups, channels, fn):
    groups = 1 if groups is None else check_int(groups, fn, "groups", minimum=1)
    if channels % groups:
        raise ValueError(f"{fn}(): the input's {channels} channels must be divisible by "
                         f"groups={groups}")
    return groups


def _conv_input(nd, input, num_filters, act, data_format, fn):
    """What a static convolution checks first: the input Variable of ``nd + 2`` dimensions,
    the activation, the filter count and the layout; its channels and whether they are last."""
    x = static_input(input, fn)
    activation = activation_of(act, fn)
    if x.ndim != nd + 2:
        raise ValueError(f"{fn}(): argument 'input' must have {nd + 2} dimensions, got shape "
                         f"{x.shape}")
    num_filters = check_int(num_filters, fn, "num_filters", minimum=1)
    formats = ("NCHW", "NHWC") if nd == 2 else ("NCDHW", "NDHWC")
    if data_format not in formats:
        raise ValueError(f"{fn}(): argument 'data_format' must be one of {list(formats)}, "
                         f"got {describe(data_format)}")
    channel_last = data_format[-1] == "C"
    return x, activation, num_filters, channel_last, _channels(x, channel_last, fn)


def _conv(nd, input, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
          bias_attr, act, name, data_format):
    pl = public_api()
    fn = f"conv{nd}d"
    x, activation, num_filters, _, channels = _conv_input(nd, input, num_filters, act,
                                                          data_format, fn)
    groups = _groups(groups, channels, fn)
    if num_filters % groups:
        raise ValueError(f"{fn}(): num_filters={num_filters} must be divisible by "
                         f"groups={groups}")
    kernel = _sizes(filter_size, nd, fn, "filter_size")
    std = (2.0 / (math.prod(kernel) * channels)) ** 0.5
    prefix = _prefix(fn, name)
    weight = _parameter([num_filters, channels // groups, *kernel], x.dtype, attr=param_attr,
                        default_initializer=Normal(0.0, std), default_name=f"{prefix}.w_0")
    bias = None
    if bias_attr is not False:
        bias = _parameter([num_filters], x.dtype, attr=bias_attr, is_bias=True,
                          default_name=f"{prefix}.b_0")
    conv = getattr(pl.nn.functional, fn)
    out = conv(x, weight, bias, stride=stride, padding=padding, dilation=dilation,
               groups=groups, data_format=data_format)
    return _act(out, activation)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCHW"):
    """A 2-D convolution layer with new filter (and bias) parameters.

    The filter has shape ``[num_filters, C / groups, kh, kw]`` and starts
    from ``Normal(0, sqrt(2 / (kh * kw * C)))`` unless ``param_attr`` says
    otherwise; ``bias_attr=False`` leaves the bias out; ``act`` names an
    activation applied last. ``use_cudnn`` is accepted and ignored (CPU).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 3, 8, 8], "float32")
    ...     y = paddle.static.nn.conv2d(x, num_filters=4, filter_size=3, padding=1, act="relu")
    >>> y.shape, sorted(p.name for p in main.all_parameters())[0][-4:]
    ([-1, 4, 8, 8], '.b_0')
    >>> paddle.disable_static()
    """
    return _conv(2, input, num_filters, filter_size, stride, padding, dilation, groups,
                 param_attr, bias_attr, act, name, data_format)


def conv3d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCDHW"):
    """A 3-D convolution layer with new filter (and bias) parameters (see :func:`conv2d`).

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
    ...     x = paddle.static.data("x", [-1, 2, 4, 4, 4], "float32")
    ...     y = paddle.static.nn.conv3d(x, num_filters=3, filter_size=2)
    >>> y.shape
    [-1, 3, 3, 3, 3]
    >>> paddle.disable_static()
    """
    return _conv(3, input, num_filters, filter_size, stride, padding, dilation, groups,
                 param_attr, bias_attr, act, name, data_format)


def _conv_transpose(nd, input, num_filters, output_size, filter_size, padding, stride,
                    dilation, groups, param_attr, bias_attr, act, name, data_format):
    pl = public_api()
    fn = f"conv{nd}d_transpose"
    x, activation, num_filters, channel_last, channels = _conv_input(
        nd, input, num_filters, act, data_format, fn)
    groups = _groups(groups, channels, fn)
    if filter_size is None:
        if output_size is None:
            raise ValueError(f"{fn}(): give filter_size or output_size")
        if isinstance(padding, str):
            raise ValueError(f"{fn}(): output_size without filter_size needs a numeric padding")
        out_sizes = _sizes(output_size, nd, fn, "output_size")
        strides = _sizes(stride, nd, fn, "stride")
        pads = _sizes(padding, nd, fn, "padding")
        dilations = _sizes(dilation, nd, fn, "dilation")
        spatial = x.shape[1:-1] if channel_last else x.shape[2:]
        if any(d < 0 for d in spatial):
            raise ValueError(f"{fn}(): finding filter_size from output_size needs the input's "
                             f"spatial sizes, got shape {x.shape}")
        kernel = [(o - (i - 1) * s + 2 * p - 1) // d + 1
                  for o, i, s, p, d in zip(out_sizes, spatial, strides, pads, dilations)]
    else:
        kernel = _sizes(filter_size, nd, fn, "filter_size")
    prefix = _prefix(fn, name)
    weight = _parameter([channels, num_filters // groups, *kernel], x.dtype, attr=param_attr,
                        default_name=f"{prefix}.w_0")
    bias = None
    if bias_attr is not False:
        bias = _parameter([num_filters], x.dtype, attr=bias_attr, is_bias=True,
                          default_name=f"{prefix}.b_0")
    conv = getattr(pl.nn.functional, fn)
    out = conv(x, weight, bias, stride=stride, padding=padding, dilation=dilation,
               groups=groups, output_size=output_size if filter_size is not None else None,
               data_format=data_format)
    return _act(out, activation)


def conv2d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None, data_format="NCHW"):
    """A 2-D transposed convolution layer with new filter (and bias) parameters.

    The filter has shape ``[C, num_filters / groups, kh, kw]``. Without
    ``filter_size`` it is found from ``output_size``.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
    ...     x = paddle.static.data("x", [-1, 3, 5, 5], "float32")
    ...     y = paddle.static.nn.conv2d_transpose(x, num_filters=2, filter_size=3)
    >>> y.shape
    [-1, 2, 7, 7]
    >>> paddle.disable_static()
    """
    return _conv_transpose(2, input, num_filters, output_size, filter_size, padding, stride,
                           dilation, groups, param_attr, bias_attr, act, name, data_format)


def conv3d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None, data_format="NCDHW"):
    """A 3-D transposed convolution layer (see :func:`conv2d_transpose`).

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
    ...     x = paddle.static.data("x", [-1, 2, 3, 3, 3], "float32")
    ...     y = paddle.static.nn.conv3d_transpose(x, num_filters=2, filter_size=2)
    >>> y.shape
    [-1, 2, 4, 4, 4]
    >>> paddle.disable_static()
    """
    return _conv_transpose(3, input, num_filters, output_size, filter_size, padding, stride,
                           dilation, groups, param_attr, bias_attr, act, name, data_format)


def _fixed(attr, name, value, trainable=True):
    """A ParamAttr for a parameter named ``name`` that starts at ``value`` by default."""
    if isinstance(attr, ParamAttr):
        return attr
    return ParamAttr(name=name, initializer=Constant(value), trainable=trainable)


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
               bias_attr=None, data_layout="NCHW", in_place=False, name=None,
               moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, use_global_stats=False):
    """Batch normalization with new scale, bias and moving statistics.

    Parameters: ``<prefix>.w_0`` (scale, ones), ``.b_0`` (bias, zeros), and
    the non-trainable moving mean ``.w_1`` (zeros) and variance ``.w_2``
    (ones), or ``moving_mean_name`` / ``moving_variance_name``. In training
    (``is_test=False``) each run normalizes with the batch's statistics and
    updates the moving ones: ``moving = momentum * moving + (1 - momentum) *
    batch``.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.batch_norm(x, name="bn_demo")
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"x": np.array([[1., 2.], [3., 6.]], "float32")},
    ...         fetch_list=[y, "bn_demo.w_1"])[1]
    array([0.2, 0.4], dtype=float32)
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "batch_norm"
    x = static_input(input, fn)
    activation = activation_of(act, fn)
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"batch_norm(): argument 'data_layout' must be 'NCHW' or 'NHWC', "
                         f"got {describe(data_layout)}")
    check_number(momentum, fn, "momentum")
    check_number(epsilon, fn, "epsilon")
    channels = _channels(x, data_layout == "NHWC" and x.ndim > 2, fn)
    prefix = _prefix(fn, name)
    dtype = "float32" if x.dtype.name in ("float16", "bfloat16") else x.dtype
    scale = _parameter([channels], dtype, attr=param_attr,
                       default_initializer=Constant(1.0), default_name=f"{prefix}.w_0")
    bias = _parameter([channels], dtype, attr=bias_attr, is_bias=True,
                      default_name=f"{prefix}.b_0")
    mean = _parameter([channels], dtype, attr=_fixed(
        None, moving_mean_name or f"{prefix}.w_1", 0.0, trainable=False))
    variance = _parameter([channels], dtype, attr=_fixed(
        None, moving_variance_name or f"{prefix}.w_2", 1.0, trainable=False))
    data_format = data_layout if x.ndim == 4 else ("NC" if x.ndim == 2 else
                                                   ("NCL" if data_layout == "NCHW" else "NLC")
                                                   if x.ndim == 3 else
                                                   ("NCDHW" if data_layout == "NCHW"
                                                    else "NDHWC"))
    settings = dict(momentum=momentum, epsilon=epsilon, data_format=data_format,
                    use_global_stats=use_global_stats or None)
    if is_test:
        out = pl.nn.functional.batch_norm(x, mean, variance, scale, bias, training=False,
                                          **settings)
    else:
        out = record_op(_batch_norm_training, x, mean, variance, scale, bias, **settings)[0]
    return _act(out, activation)


def _batch_norm_training(x, mean, variance, scale, bias, **settings):
    """Batch normalization in training mode, with the moving statistics it updates in
    place among its results (so that a program writes them back to the scope)."""
    out = public_api().nn.functional.batch_norm(x, mean, variance, scale, bias, training=True,
                                                **settings)
    return [out, mean, variance]


_batch_norm_training.__name__ = "batch_norm"


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05,
               param_attr=None, bias_attr=None, act=None, name=None):
    """Layer normalization over the dimensions from ``begin_norm_axis`` on.

    The scale (``<prefix>.w_0``, ones) and the bias (``.b_0``, zeros) are
    flat, with one entry per normalized element; ``scale=False`` /
    ``shift=False`` leave them out.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.layer_norm(x)
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"x": np.array([[1., 3.]], "float32")}, fetch_list=[y])[0].round(3)
    array([[-1.,  1.]], dtype=float32)
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "layer_norm"
    x = static_input(input, fn)
    activation = activation_of(act, fn)
    begin = check_int(begin_norm_axis, fn, "begin_norm_axis")
    if not 0 < begin < x.ndim:
        raise ValueError(f"layer_norm(): argument 'begin_norm_axis' must be in [1, {x.ndim}) "
                         f"for an input of shape {x.shape}, got {begin}")
    normalized = x.shape[begin:]
    if any(d < 0 for d in normalized):
        raise ValueError(f"layer_norm(): the dimensions from begin_norm_axis on must be known, "
                         f"got shape {x.shape}")
    check_number(epsilon, fn, "epsilon")
    prefix = _prefix(fn, name)
    size = math.prod(normalized)
    weight = bias = None
    if scale:
        weight = _parameter([size], x.dtype, attr=param_attr,
                            default_initializer=Constant(1.0), default_name=f"{prefix}.w_0")
        weight = pl.reshape(weight, normalized)
    if shift:
        bias = _parameter([size], x.dtype, attr=bias_attr, is_bias=True,
                          default_name=f"{prefix}.b_0")
        bias = pl.reshape(bias, normalized)
    out = pl.nn.functional.layer_norm(x, normalized, weight, bias, epsilon)
    return _act(out, activation)


def group_norm(input, groups, epsilon=1e-05, param_attr=None, bias_attr=None, act=None,
               data_layout="NCHW", name=None):
    """Group normalization: the channels in ``groups`` groups, each normalized alone.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
    ...     x = paddle.static.data("x", [-1, 4, 3, 3], "float32")
    ...     y = paddle.static.nn.group_norm(x, groups=2)
    >>> y.shape
    [-1, 4, 3, 3]
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "group_norm"
    x = static_input(input, fn)
    activation = activation_of(act, fn)
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"group_norm(): argument 'data_layout' must be 'NCHW' or 'NHWC', "
                         f"got {describe(data_layout)}")
    channels = _channels(x, data_layout == "NHWC", fn)
    groups = check_int(groups, fn, "groups", minimum=1)
    if channels % groups:
        raise ValueError(f"group_norm(): the input's {channels} channels must be divisible by "
                         f"groups={groups}")
    prefix = _prefix(fn, name)
    weight = bias = None
    if param_attr is not False:
        weight = _parameter([channels], x.dtype, attr=param_attr,
                            default_initializer=Constant(1.0), default_name=f"{prefix}.w_0")
    if bias_attr is not False:
        bias = _parameter([channels], x.dtype, attr=bias_attr, is_bias=True,
                          default_name=f"{prefix}.b_0")
    out = pl.nn.functional.group_norm(x, groups, epsilon, weight, bias,
                                      data_format=data_layout if x.ndim == 4 else
                                      ("NCL" if data_layout == "NCHW" else "NLC")
                                      if x.ndim == 3 else data_layout)
    return _act(out, activation)


def instance_norm(input, epsilon=1e-05, param_attr=None, bias_attr=None, name=None):
    """Instance normalization (each sample's channel normalized over its spatial dims).

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
    ...     x = paddle.static.data("x", [-1, 3, 4, 4], "float32")
    ...     y = paddle.static.nn.instance_norm(x)
    >>> y.shape
    [-1, 3, 4, 4]
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "instance_norm"
    x = static_input(input, fn)
    if x.ndim < 3:
        raise ValueError(f"instance_norm(): argument 'input' must have at least 3 dimensions, "
                         f"got shape {x.shape}")
    channels = _channels(x, False, fn)
    check_number(epsilon, fn, "epsilon")
    prefix = _prefix(fn, name)
    weight = bias = None
    if not (param_attr is False and bias_attr is False):
        weight = _parameter([channels], x.dtype, attr=param_attr or None,
                            default_initializer=Constant(1.0), default_name=f"{prefix}.w_0")
        bias = _parameter([channels], x.dtype, attr=bias_attr or None, is_bias=True,
                          default_name=f"{prefix}.b_0")
    formats = {3: "NCL", 4: "NCHW", 5: "NCDHW"}
    out = pl.nn.functional.instance_norm(x, weight=weight, bias=bias, eps=epsilon,
                                         data_format=formats.get(x.ndim, "NCHW"))
    return out


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None,
              param_attr=None, dtype="float32"):
    """Rows of a new ``size = [vocabulary, width]`` table, looked up by the ids in ``input``.

    ``padding_idx`` (negative counts from the end) is a row that reads as
    zeros and gets no gradient. ``is_sparse`` / ``is_distributed`` are
    accepted and change nothing on the CPU.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     ids = paddle.static.data("ids", [-1, 3], "int64")
    ...     emb = paddle.static.nn.embedding(ids, size=[10, 4], padding_idx=0)
    >>> emb.shape
    [-1, 3, 4]
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "embedding"
    x = static_input(input, fn)
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise TypeError(f"embedding(): argument 'size' must be [vocabulary size, embedding "
                        f"width], got {describe(size)}")
    rows = check_int(size[0], fn, "size[0]", minimum=1)
    width = check_int(size[1], fn, "size[1]", minimum=1)
    if padding_idx is not None:
        padding_idx = check_int(padding_idx, fn, "padding_idx")
        if not -rows <= padding_idx < rows:
            raise ValueError(f"embedding(): argument 'padding_idx' must be in [{-rows}, "
                             f"{rows}), got {padding_idx}")
        padding_idx %= rows
    weight = _parameter([rows, width], dtype, attr=param_attr,
                        default_name=f"{_prefix(fn, None)}.w_0")
    return pl.nn.functional.embedding(x, weight, padding_idx=padding_idx)


def prelu(x, mode, param_attr=None, data_format="NCHW", name=None):
    """PReLU: ``x`` where positive, ``alpha * x`` elsewhere, with a new ``alpha`` (0.25).

    ``mode`` is ``'all'`` (one alpha), ``'channel'`` (one per channel,
    stored as ``[1, C, 1, 1]``) or ``'element'`` (one per element of a
    sample).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.prelu(x, "all")
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"x": np.array([[-4., 4.]], "float32")}, fetch_list=[y])
    [array([[-1.,  4.]], dtype=float32)]
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "prelu"
    x = static_input(x, fn, "x")
    if mode not in ("all", "channel", "element"):
        raise ValueError(f"prelu(): argument 'mode' must be 'all', 'channel' or 'element', "
                         f"got {describe(mode)}")
    formats = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")
    if data_format not in formats:
        raise ValueError(f"prelu(): argument 'data_format' must be one of {list(formats)}, "
                         f"got {describe(data_format)}")
    channel_last = data_format[1] != "C"
    if mode == "all":
        shape = [1]
    elif mode == "channel":
        if x.ndim < 2:
            raise ValueError(f"prelu(): mode 'channel' needs an input of 2 or more "
                             f"dimensions, got shape {x.shape}")
        c = _channels(x, channel_last, fn)
        shape = [1, 1, 1, c] if channel_last else [1, c, 1, 1]
    else:
        if any(d < 0 for d in x.shape[1:]):
            raise ValueError(f"prelu(): mode 'element' needs the sizes after the first, got "
                             f"shape {x.shape}")
        shape = [1, *x.shape[1:]]
    alpha = _parameter(shape, x.dtype, attr=param_attr, default_initializer=Constant(0.25),
                       default_name=f"{_prefix(fn, name)}.w_0")
    if mode == "channel":
        c = shape[-1] if channel_last else shape[1]
        alpha = pl.reshape(alpha, [1] * (x.ndim - 1) + [c] if channel_last
                           else [1, c] + [1] * (x.ndim - 2))
    return pl.where(x > 0, x, alpha * x)


def bilinear_tensor_product(x, y, size, act=None, name=None, param_attr=None,
                            bias_attr=None):
    """``out[:, k] = x W_k y^T + b_k`` with a new weight ``[size, Dx, Dy]`` and bias ``[1, size]``.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
    ...     a = paddle.static.data("a", [-1, 3], "float32")
    ...     b = paddle.static.data("b", [-1, 4], "float32")
    ...     out = paddle.static.nn.bilinear_tensor_product(a, b, size=5)
    >>> out.shape
    [-1, 5]
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "bilinear_tensor_product"
    x = static_input(x, fn, "x")
    y = static_input(y, fn, "y")
    activation = activation_of(act, fn)
    size = check_int(size, fn, "size", minimum=1)
    if x.ndim != 2 or y.ndim != 2 or x.shape[1] < 0 or y.shape[1] < 0:
        raise ValueError(f"bilinear_tensor_product(): x and y must be 2-D with known widths, "
                         f"got shapes {x.shape} and {y.shape}")
    prefix = _prefix(fn, name)
    weight = _parameter([size, x.shape[1], y.shape[1]], x.dtype, attr=param_attr,
                        default_name=f"{prefix}.w_0")
    bias = None
    if bias_attr is not False:
        bias = _parameter([1, size], x.dtype, attr=bias_attr, is_bias=True,
                          default_name=f"{prefix}.b_0")
    return _act(pl.nn.functional.bilinear(x, y, weight, bias), activation)


def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    """``weight`` divided by its largest singular value, estimated by power iteration.

    ``weight`` is seen as a matrix with rows along ``dim``; the vectors
    ``u`` (``<prefix>.w_0``) and ``v`` (``.w_1``) start from a standard
    normal and take ``power_iters`` steps each run (no gradient flows
    through them).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     w = paddle.static.data("w", [2, 2], "float32")
    ...     out = paddle.static.nn.spectral_norm(w, power_iters=20)
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"w": np.diag([4., 2.]).astype("float32")},
    ...         fetch_list=[out])[0].round(4)
    array([[1. , 0. ],
           [0. , 0.5]], dtype=float32)
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "spectral_norm"
    w = static_input(weight, fn, "weight")
    dim = check_int(dim, fn, "dim")
    if w.ndim < 2 or not 0 <= dim < w.ndim:
        raise ValueError(f"spectral_norm(): argument 'dim' must be in [0, {w.ndim}) for a "
                         f"weight of 2 or more dimensions, got dim={dim} and shape {w.shape}")
    if any(d < 0 for d in w.shape):
        raise ValueError(f"spectral_norm(): the weight's shape must be known, got {w.shape}")
    power_iters = check_int(power_iters, fn, "power_iters", minimum=0)
    check_number(eps, fn, "eps")
    h = w.shape[dim]
    width = math.prod(w.shape) // h
    prefix = _prefix(fn, name)
    u = _parameter([h], w.dtype, default_initializer=Normal(0.0, 1.0),
                   default_name=f"{prefix}.w_0")
    v = _parameter([width], w.dtype, default_initializer=Normal(0.0, 1.0),
                   default_name=f"{prefix}.w_1")
    order = [dim] + [i for i in range(w.ndim) if i != dim]
    matrix = pl.reshape(pl.transpose(w, order), [h, width])
    fixed = _constant(matrix)
    u, v = _constant(u), _constant(v)
    for _ in range(power_iters):
        v = pl.matmul(u, fixed)
        v = v / (pl.norm(v) + eps)
        u = pl.matmul(fixed, v)
        u = u / (pl.norm(u) + eps)
    sigma = pl.sum(_constant(u) * pl.matmul(matrix, _constant(v)))
    return w / sigma


def _constant(var):
    """A copy of ``var`` that gradients do not flow through."""
    copy = public_api().assign(var)
    copy.stop_gradient = True
    return copy


def row_conv(input, future_context_size, param_attr=None, act=None):
    """Lookahead convolution over time: ``out[t] = sum_k input[t + k] * W[k]`` for ``k``
    from 0 to ``future_context_size`` (steps past the end count as zeros).

    ``input`` is ``[batch, time, features]`` (or ``[time, features]``, one
    sequence); the new filter ``W`` (``row_conv_N.w_0``, Xavier-uniform) has
    shape ``[future_context_size + 1, features]``.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 3, 1], "float32")
    ...     ones = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0))
    ...     y = paddle.static.nn.row_conv(x, future_context_size=1, param_attr=ones)
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"x": np.array([[[1.], [2.], [3.]]], "float32")},
    ...         fetch_list=[y])[0].reshape(-1)
    array([3., 5., 3.], dtype=float32)
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "row_conv"
    x = static_input(input, fn)
    activation = activation_of(act, fn)
    context = check_int(future_context_size, fn, "future_context_size", minimum=0)
    if x.ndim not in (2, 3) or x.shape[-1] < 0:
        raise ValueError(f"row_conv(): argument 'input' must be [batch, time, features] or "
                         f"[time, features] with known features, got shape {x.shape}")
    weight = _parameter([context + 1, x.shape[-1]], x.dtype, attr=param_attr,
                        default_name=f"{_prefix(fn, None)}.w_0")
    axis = x.ndim - 2
    step = x[:, :1] if axis == 1 else x[:1]
    padded = pl.concat([x] + [pl.zeros_like(step)] * context, axis=axis) if context else x
    out = None
    for k in range(context + 1):
        end = k - context if k < context else None
        window = padded[:, k:end] if axis == 1 else padded[k:end]
        term = window * weight[k]
        out = term if out is None else out + term
    return _act(out, activation)


_TABLE_CLASSES = ("CommonSparseTable", "SSDSparseTable", "MemorySparseTable")
_ENTRIES = ("ProbabilityEntry", "CountFilterEntry", "ShowClickEntry")


def sparse_embedding(input, size, padding_idx=None, is_test=False, entry=None,
                     table_class="MemorySparseTable", param_attr=None, dtype="float32",
                     slot=None):
    """Rows of a new ``size = [vocabulary, width]`` table picked by int64 ids.

    The parameter-server embedding; on the CPU it is a plain lookup whose
    output replaces the last dimension (1) of ``input`` by ``width``.
    ``padding_idx`` (negative counts from the end) is a row that reads as
    zeros and gets no gradient; one outside the table pads nothing.
    ``entry`` and ``table_class`` are checked; they, ``is_test`` and
    ``slot`` change nothing here. Works on Variables and, as in Paddle, on Tensors.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     ids = paddle.static.data("ids", [-1, 1], "int64")
    ...     emb = paddle.static.nn.sparse_embedding(ids, size=[10, 4])
    >>> emb.shape
    [-1, 4]
    >>> paddle.disable_static()
    """
    pl = public_api()
    fn = "sparse_embedding"
    dynamic = isinstance(input, Tensor)
    if not dynamic and not isinstance(input, Variable):
        raise TypeError(f"{fn}(): argument 'input' must be a Variable or a Tensor, got "
                        f"{describe(input)}")
    if str(input.dtype).rpartition(".")[2] != "int64":
        raise (ValueError if dynamic else TypeError)(
            f"{fn}(): argument 'input' must hold int64 ids, got {input.dtype}")
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise ValueError(f"{fn}(): argument 'size' must be [vocabulary size, embedding width], "
                         f"got {describe(size)}")
    rows = check_int(size[0], fn, "size[0]", minimum=1)
    width = check_int(size[1], fn, "size[1]", minimum=1)
    dtype_name = str(dtype).rpartition(".")[2]
    if dtype_name not in ("float32", "float64"):
        raise TypeError(f"{fn}(): argument 'dtype' must be 'float32' or 'float64', got "
                        f"{dtype!r}")
    shape = list(input.shape)
    if not shape or shape[-1] != 1:
        raise ValueError(f"{fn}(): the last dimension of 'input' must be 1, got shape {shape}")
    if all(d >= 0 for d in shape) and math.prod(shape) == 0:
        raise ValueError(f"{fn}(): argument 'input' must not be empty, got shape {shape}")
    if padding_idx is not None:
        padding_idx = check_int(padding_idx, fn, "padding_idx")
        if padding_idx < 0:
            padding_idx += rows
        if not 0 <= padding_idx < rows:
            padding_idx = None
    if entry is not None and type(entry).__name__ not in _ENTRIES:
        raise ValueError(f"{fn}(): argument 'entry' must be a ProbabilityEntry, "
                         f"CountFilterEntry or ShowClickEntry, got {describe(entry)}")
    if table_class not in _TABLE_CLASSES:
        raise ValueError(f"{fn}(): argument 'table_class' must be one of "
                         f"{', '.join(_TABLE_CLASSES)}, got {table_class!r}")
    if slot is not None:
        check_int(slot, fn, "slot")
    if dynamic:
        weight = pl.create_parameter([rows, width], dtype_name, attr=param_attr)
    else:
        weight = _parameter([rows, width], dtype_name, attr=param_attr,
                            default_name=f"{_prefix(fn, None)}.w_0")
    ids = pl.squeeze(input, axis=-1)
    return pl.nn.functional.embedding(ids, weight, padding_idx=padding_idx)


# ------------------------------------------------------------------------ nce
_MT_N, _MT_M = 312, 156
_MT_MASK = (1 << 64) - 1


def _mt19937_64(seed, count):
    """The first ``count`` outputs of the 64-bit Mersenne Twister seeded with ``seed``
    (C++'s ``std::mt19937_64``, the engine of Paddle's samplers)."""
    import numpy as np
    state = [seed & _MT_MASK]
    for i in range(1, _MT_N):
        prev = state[-1]
        state.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & _MT_MASK)
    mt = np.array(state, dtype=np.uint64)
    upper, lower = np.uint64(0xFFFFFFFF80000000), np.uint64(0x7FFFFFFF)
    matrix = np.uint64(0xB5026F5AA96619E9)
    blocks = []
    for _ in range(-(-count // _MT_N)):
        # the twist in three slices, each needing only words already final
        for lo, hi in ((0, _MT_N - _MT_M), (_MT_N - _MT_M, _MT_N - 1), (_MT_N - 1, _MT_N)):
            k = np.arange(lo, hi)
            y = (mt[k] & upper) | (mt[(k + 1) % _MT_N] & lower)
            mt[k] = mt[(k + _MT_M) % _MT_N] ^ (y >> np.uint64(1)) ^ \
                np.where(y & np.uint64(1), matrix, np.uint64(0))
        y = mt.copy()
        y ^= (y >> np.uint64(29)) & np.uint64(0x5555555555555555)
        y ^= (y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
        y ^= (y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
        y ^= y >> np.uint64(43)
        blocks.append(y)
    return np.concatenate(blocks)[:count]


def _uniform_ints(words, high):
    """C++ ``uniform_int_distribution(0, high)`` on 64-bit words: each accepted word
    scaled down (a word past the last whole multiple is skipped)."""
    import numpy as np
    scaling = _MT_MASK // (high + 1)
    keep = words < np.uint64((high + 1) * scaling)
    return (words[keep] // np.uint64(scaling)).astype(np.int64), keep


def _unit_reals(words):
    """C++ ``uniform_real_distribution(0, 1)`` of doubles on 64-bit words."""
    import numpy as np
    reals = words.astype(np.float64) / 2.0 ** 64
    return np.minimum(reals, np.nextafter(1.0, 0.0))


def _nce_samples(count, sampler, classes, seed, tables):
    """``count`` negative classes drawn as Paddle's CPU nce kernel draws them."""
    import numpy as np
    high = classes - 1
    if sampler == "uniform":
        words = _mt19937_64(seed, count + 8)
        while True:
            picked, _ = _uniform_ints(words, high)
            if len(picked) >= count:
                return picked[:count]
            words = _mt19937_64(seed, 2 * len(words))
    if sampler == "log_uniform":
        reals = _unit_reals(_mt19937_64(seed, count))
        return (np.exp(reals * math.log(classes)).astype(np.int64) - 1) % high
    _, alias, alias_probs = tables
    words = _mt19937_64(seed, 2 * count)
    index, keep = _uniform_ints(words[0::2], high)
    if not keep.all():                       # a skipped word shifts the pairs: walk them
        index, reals, at = [], [], 0
        words = _mt19937_64(seed, 4 * count + 8)
        while len(index) < count:
            picked, accepted = _uniform_ints(words[at:at + 1], high)
            at += 1
            if accepted[0]:
                index.append(picked[0])
                reals.append(_unit_reals(words[at:at + 1])[0])
                at += 1
        index, reals = np.array(index, dtype=np.int64), np.array(reals)
    else:
        reals = _unit_reals(words[1::2])
    swapped = (reals > alias_probs[index]) & (alias[index] != -1)
    return np.where(swapped, alias[index], index)


def _nce_probability(classes, sampler, sample_labels, probs):
    import numpy as np
    if sampler == "uniform":
        return np.full(sample_labels.shape, 1.0 / classes, dtype=np.float32)
    if sampler == "log_uniform":
        return (np.log((sample_labels + 2.0) / (sample_labels + 1.0))
                / math.log(classes)).astype(np.float32)
    return probs[sample_labels]


def _nce_cost(input, label, weight, bias, sample_weight, dist_probs, dist_alias,
              dist_alias_probs, num_total_classes=1, num_neg_samples=10, sampler="uniform",
              seed=0):
    """Paddle's nce op at run time: the true classes of each row and ``num_neg_samples``
    drawn ones, scored by ``sigmoid(x . w_c + b_c)`` against the sampler's noise."""
    import numpy as np
    pl = public_api()
    labels = label.numpy().astype(np.int64)
    rows, true = labels.shape
    tables = None if dist_probs is None else (dist_probs.numpy(), dist_alias.numpy(),
                                             dist_alias_probs.numpy())
    if seed == 0:
        seed = int(pl.randint(1, 2 ** 31 - 1, [1]).numpy()[0])
    negatives = _nce_samples(rows * num_neg_samples, sampler, num_total_classes, seed,
                             tables).reshape(rows, num_neg_samples)
    samples = np.concatenate([labels, negatives], axis=1)
    if samples.size and (samples.min() < 0 or samples.max() >= num_total_classes):
        raise ValueError(f"nce(): every label must be in [0, {num_total_classes}), got "
                         f"{int(samples.min() if samples.min() < 0 else samples.max())}")
    noise = _nce_probability(num_total_classes, sampler, samples,
                             None if tables is None else tables[0]) * np.float32(num_neg_samples)
    noise = noise.astype(input.numpy().dtype)
    index = pl.to_tensor(samples.reshape(-1))
    chosen = pl.gather(weight, index).reshape([rows, samples.shape[1], -1])
    logits = pl.sum(pl.unsqueeze(input, 1) * chosen, axis=-1)
    if bias is not None:
        logits = logits + pl.gather(bias, index).reshape([rows, samples.shape[1]])
    odds = pl.nn.functional.sigmoid(logits)
    cost = pl.log(odds + pl.to_tensor(noise)) - pl.concat(
        [pl.nn.functional.log_sigmoid(logits[:, :true]),
         pl.to_tensor(np.log(noise[:, true:]))], axis=1)
    if sample_weight is not None:
        cost = cost * sample_weight.reshape([rows, 1])
    return pl.sum(cost, axis=1, keepdim=True) / (num_neg_samples + 1)


_nce_cost.__name__ = "nce"


def _alias_tables(dist):
    """Walker's alias tables of ``dist`` built as Paddle builds them (the small and large
    classes paired in order), so that a seed draws the classes Paddle draws."""
    import numpy as np
    n = len(dist)
    alias_probs, alias = [0.0] * n, [0] * n
    bigs, littles = [], []
    for i, p in enumerate(dist):
        scaled = p * n
        if scaled > 1.0:
            bigs.append((i, scaled))
        elif scaled < 1.0:
            littles.append((i, scaled))
        else:
            alias_probs[i], alias[i] = scaled, -1
    while bigs and littles:
        (big, big_prob), (little, little_prob) = bigs.pop(0), littles.pop(0)
        alias_probs[little], alias[little] = little_prob, big
        left = big_prob + little_prob - 1
        if left > 1.0:
            bigs.append((big, left))
        elif left < 1.0:
            littles.append((big, left))
        else:
            alias_probs[big], alias[big] = left, -1
    for rest in (bigs, littles):
        if rest:
            alias_probs[rest[0][0]], alias[rest[0][0]] = 1.0, -1
    return (np.asarray(dist, dtype=np.float32), np.asarray(alias, dtype=np.int32),
            np.asarray(alias_probs, dtype=np.float32))


def nce(input, label, num_total_classes, sample_weight=None, param_attr=None, bias_attr=None,
        num_neg_samples=None, name=None, sampler="uniform", custom_dist=None, seed=0,
        is_sparse=False):
    """Noise-contrastive estimation loss of ``input`` for its true classes ``label``.

    For each row, the classes of ``label`` and ``num_neg_samples`` (10)
    classes drawn by ``sampler`` (``'uniform'``, ``'log_uniform'`` or
    ``'custom_dist'`` with the probabilities ``custom_dist``) are scored by
    ``o = sigmoid(x . w_c + b_c)`` with new parameters ``w`` of shape
    ``[num_total_classes, dim]`` and ``b`` of shape ``[num_total_classes,
    1]``; with the noise ``q = P(c) * num_neg_samples`` the cost is
    ``-log(o / (o + q))`` for a true class and ``-log(q / (o + q))`` for a
    drawn one, summed per row (times ``sample_weight``) and divided by
    ``num_neg_samples + 1``: shape ``[batch, 1]``. A nonzero ``seed`` draws
    the same classes at every run (those of Paddle's CPU kernel). Static
    mode only.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 4], "float32")
    ...     label = paddle.static.data("label", [-1, 1], "int64")
    ...     cost = paddle.static.nn.nce(x, label, num_total_classes=20, seed=1)
    >>> cost.shape
    [-1, 1]
    >>> paddle.disable_static()
    """
    import numpy as np
    pl = public_api()
    fn = "nce"
    if pl.in_dynamic_mode():
        raise AssertionError("nce() builds a static program and works in static mode only; "
                             "call pylayer.enable_static() first (as Paddle requires)")
    x = static_input(input, fn)
    label = static_input(label, fn, "label")
    if str(x.dtype).rpartition(".")[2] not in ("float32", "float64"):
        raise TypeError(f"{fn}(): argument 'input' must be float32 or float64, got {x.dtype}")
    if str(label.dtype).rpartition(".")[2] != "int64":
        raise TypeError(f"{fn}(): argument 'label' must be int64, got {label.dtype}")
    if x.ndim != 2:
        raise ValueError(f"{fn}(): argument 'input' must have 2 dimensions, got shape "
                         f"{x.shape}")
    if label.ndim != 2:
        raise ValueError(f"{fn}(): argument 'label' must have 2 dimensions [batch, true "
                         f"classes], got shape {label.shape}")
    if x.shape[1] < 0:
        raise ValueError(f"{fn}(): the last dimension of 'input' must be known, got shape "
                         f"{x.shape}")
    if sample_weight is not None:
        static_input(sample_weight, fn, "sample_weight")
    classes = check_int(num_total_classes, fn, "num_total_classes", minimum=2)
    negatives = 10 if num_neg_samples is None else check_int(
        num_neg_samples, fn, "num_neg_samples", minimum=1)
    seed = check_int(seed, fn, "seed", minimum=0)
    if sampler not in ("uniform", "log_uniform", "custom_dist"):
        raise ValueError(f"{fn}(): argument 'sampler' must be 'uniform', 'log_uniform' or "
                         f"'custom_dist', got {describe(sampler)}")
    prefix = _prefix(fn, name)
    tables = [None, None, None]
    if sampler == "custom_dist":
        if custom_dist is None:
            raise ValueError(f"{fn}(): sampler='custom_dist' needs custom_dist, the "
                             f"probabilities of the {classes} classes")
        try:
            dist = np.asarray(custom_dist, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{fn}(): argument 'custom_dist' must be a list of "
                            f"{classes} probabilities, got {describe(custom_dist)}") from None
        if dist.shape != (classes,) or not np.all(np.isfinite(dist)) or np.any(dist < 0):
            raise ValueError(f"{fn}(): argument 'custom_dist' must hold {classes} "
                             f"non-negative probabilities, got {describe(custom_dist)}")
        built = _alias_tables(dist.tolist())
    weight = _parameter([classes, x.shape[1]], x.dtype, attr=param_attr,
                        default_name=f"{prefix}.w_0")
    bias = None
    if bias_attr is not False:
        bias = _parameter([classes, 1], x.dtype, attr=bias_attr, is_bias=True,
                          default_name=f"{prefix}.b_0")
    if sampler == "custom_dist":
        for i, table in enumerate(built):
            tables[i] = _parameter(list(table.shape), str(table.dtype), attr=ParamAttr(
                initializer=pl.nn.initializer.Assign(table)), default_name=f"{prefix}.w_{i + 1}")
            tables[i].stop_gradient = True
    return record_op(_nce_cost, x, label, weight, bias, sample_weight, *tables,
                     num_total_classes=classes, num_neg_samples=negatives, sampler=sampler,
                     seed=seed)
