"""Normalization: ``layer_norm``, ``batch_norm``, ``group_norm`` and their layers.

Each normalizes with ``(x - mean) / sqrt(var + epsilon)``, the variance
being the biased one (divided by the count), then scales by ``weight`` and
shifts by ``bias``. Layer normalization and batch normalization in training
are one recorded op each (:func:`normalize_affine`): numpy computes the
statistics once, and the gradient is the closed form below, written with
recorded ops when it must be differentiated again. Group normalization and
the normalization by running statistics are written with recorded ops.
"""
import numpy as np

from pylayer._core.graph import make_output_legacy
from pylayer._core.tensor import Tensor, is_grad_enabled, make_tensor
from pylayer._kernels import norm as norm_kernels
from pylayer._kernels.conv import pooled_empty
from pylayer.nn.initializer import Constant
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops._arguments import (check_choice, check_count, check_int, check_ints,
                                    check_number, float_tensor)
from pylayer.ops.arithmetic import add, multiply, subtract
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops._reduction import mean, sum as reduce_sum
from pylayer.ops._shape import reshape
from pylayer.ops.dispatch import op
from pylayer.ops.math import rsqrt, square

__all__ = ["layer_norm", "batch_norm", "group_norm", "LayerNorm", "BatchNorm1D", "BatchNorm2D",
           "GroupNorm"]


def _statistics(x, axes, epsilon):
    """``x - mean`` and ``1 / sqrt(var + epsilon)`` over ``axes`` (biased variance),
    with recorded ops."""
    centred = subtract(x, mean(x, axis=axes, keepdim=True))
    return centred, rsqrt(add(mean(square(centred), axis=axes, keepdim=True), epsilon))


def _normalize(x, axes, epsilon):
    """``(x - mean) / sqrt(var + epsilon)`` over ``axes`` (biased variance)."""
    return multiply(*_statistics(x, axes, epsilon))


def _check_affine(weight, bias, shape, fn):
    """Refuse a weight or bias that is not a Tensor of ``prod(shape)`` elements."""
    for arg, t in (("weight", weight), ("bias", bias)):
        if t is not None and (not isinstance(t, Tensor)
                              or int(np.prod(t.shape)) != int(np.prod(shape))):
            raise ValueError(f"{fn}(): argument '{arg}' must be a Tensor of "
                             f"{int(np.prod(shape))} elements, got "
                             f"{t.shape if isinstance(t, Tensor) else type(t).__name__}")


def _affine(y, weight, bias, shape, fn):
    """``y * weight + bias``, each reshaped to ``shape`` (either may be None)."""
    _check_affine(weight, bias, shape, fn)
    if weight is not None:
        y = multiply(y, reshape(weight, shape))
    if bias is not None:
        y = add(y, reshape(bias, shape))
    return y


# ------------------------------------------------ one op: normalize and affine
_COMPUTE = {np.dtype(np.float32): np.float32, np.dtype(np.float64): np.float64}


def normalize_affine(x, weight, bias, axes, epsilon, shape, fn):
    """``(x - mean) / sqrt(var + epsilon) * weight + bias`` over ``axes`` as one recorded
    op; ``weight`` and ``bias`` (either may be None) are reshaped to ``shape``, which
    broadcasts against ``x``. ``axes`` are the last ones (layer normalization: the
    weight runs along them) or all but one (batch normalization: one weight per
    channel). Returns the output and the batch mean and (biased) variance as arrays of
    the statistics' size."""
    _check_affine(weight, bias, shape, fn)
    a = x.numpy()
    dtype = _COMPUTE.get(a.dtype, np.float32)               # float16 in float32
    layout = _layout(a.shape, axes)
    out = pooled_empty(a.shape, dtype)
    mean = np.empty(layout[1][0 if layout[0] == "rows" else 1])
    rstd = np.empty_like(mean)
    params = _parameters(weight, bias, layout, dtype)
    forward = norm_kernels.row_forward if layout[0] == "rows" else norm_kernels.channel_forward
    forward(np.ascontiguousarray(a, dtype).reshape(layout[1]), *params, float(epsilon),
            out.reshape(layout[1]), mean, rstd)
    save = (x,) if weight is None else (x, weight)
    y = make_output_legacy(out.astype(a.dtype, copy=False), (x, weight, bias), fn,
                    _normalize_affine_bw, save=save,
                    attrs=(tuple(axes), epsilon, shape, layout, mean, rstd,
                           None if bias is None else bias.shape))
    return y, mean, 1.0 / (rstd * rstd) - epsilon


def _layout(shape, axes):
    """How the kernels see ``x``: ``("rows", (R, D))`` when ``axes`` are the last ones,
    else ``("channels", (A, C, B))`` around the one axis left out."""
    ndim = len(shape)
    if list(axes) == list(range(ndim - len(axes), ndim)):
        width = int(np.prod(shape[ndim - len(axes):], dtype=np.int64))
        return "rows", (int(np.prod(shape, dtype=np.int64)) // max(width, 1), width)
    (channel,) = [i for i in range(ndim) if i not in axes]
    return "channels", (int(np.prod(shape[:channel], dtype=np.int64)), shape[channel],
                        int(np.prod(shape[channel + 1:], dtype=np.int64)))


def _parameters(weight, bias, layout, dtype):
    """The weight and bias as contiguous vectors along the parameter axis (ones and zeros
    for those left out)."""
    size = layout[1][1]
    return [np.ones(size, dtype) if weight is None
            else np.ascontiguousarray(weight.numpy().reshape(-1), dtype),
            np.zeros(size, dtype) if bias is None
            else np.ascontiguousarray(bias.numpy().reshape(-1), dtype)]


def _normalize_affine_bw(node, g):
    saved = node.saved_tensors()            # checks that x and weight were not changed
    x, weight = saved if len(saved) == 2 else (saved[0], None)
    axes, epsilon, shape, layout, mean, rstd, bias_shape = node.attrs
    needs = node.needs_input_grad
    if is_grad_enabled():                   # to be differentiated again: recorded ops
        return _normalize_affine_grads(x, weight, g, axes, epsilon, shape, bias_shape, needs)
    a = x.numpy()
    dtype = _COMPUTE.get(a.dtype, np.float32)
    dx = pooled_empty(a.shape, dtype)
    dweight, dbias = np.empty(layout[1][1]), np.empty(layout[1][1])
    backward = norm_kernels.row_backward if layout[0] == "rows" \
        else norm_kernels.channel_backward
    backward(np.ascontiguousarray(a, dtype).reshape(layout[1]),
             np.ascontiguousarray(g.numpy(), dtype).reshape(layout[1]), mean, rstd,
             _parameters(weight, None, layout, dtype)[0], dx.reshape(layout[1]), dweight,
             dbias)
    return (make_tensor(dx.astype(a.dtype, copy=False)) if needs[0] else None,
            make_tensor(dweight.astype(a.dtype).reshape(weight.shape)) if needs[1] else None,
            make_tensor(dbias.astype(a.dtype).reshape(bias_shape)) if needs[2] else None)


def _normalize_affine_grads(x, weight, g, axes, epsilon, shape, bias_shape, needs):
    """The gradients of normalize_affine written with recorded ops."""
    centred, rstd = _statistics(x, list(axes), epsilon)
    xhat = multiply(centred, rstd)
    d = g if weight is None else multiply(g, reshape(weight, shape))
    dx = dw = db = None
    if needs[0]:
        spread = multiply(xhat, mean(multiply(d, xhat), axis=list(axes), keepdim=True))
        dx = multiply(subtract(subtract(d, mean(d, axis=list(axes), keepdim=True)), spread),
                      rstd)
    sums = [i for i, size in enumerate(shape) if size == 1]
    if needs[1]:
        dw = reshape(reduce_sum(multiply(g, xhat), axis=sums), weight.shape)
    if needs[2]:
        db = reshape(reduce_sum(g, axis=sums), bias_shape)
    return dx, dw, db


# ---------------------------------------------------------------- layer norm
@op
def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalize over the last dimensions, those of ``normalized_shape``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.layer_norm(pylayer.to_tensor([[1.0, 2.0, 3.0]]), 3).numpy().round(4)
    array([[-1.2247,  0.    ,  1.2247]], dtype=float32)
    """
    fn = "layer_norm"
    x = float_tensor(x, fn)
    shape = check_ints(normalized_shape, fn, "normalized_shape")
    epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
    if not shape or x.shape[x.ndim - len(shape):] != shape or len(shape) > x.ndim:
        raise ValueError(f"{fn}(): argument 'normalized_shape' {shape} must be the last "
                         f"dimensions of x, whose shape is {x.shape}")
    axes = list(range(x.ndim - len(shape), x.ndim))
    return normalize_affine(x, weight, bias, axes, epsilon, [1] * (x.ndim - len(shape)) + shape,
                            fn)[0]


class LayerNorm(Layer):
    """Layer normalization with a learned ``weight`` (ones) and ``bias`` (zeros).

    ``weight_attr=False`` or ``bias_attr=False`` leaves that one out.

    >>> import pylayer
    >>> norm = pylayer.nn.LayerNorm(4)
    >>> out = norm(pylayer.arange(8, dtype='float32').reshape([2, 4]))
    >>> out.numpy().mean(axis=1).round(6), norm.weight.shape
    (array([0., 0.], dtype=float32), [4])
    """

    def __init__(self, normalized_shape, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 name=None):
        super().__init__(name_scope="layer_norm")
        self._normalized_shape = check_ints(normalized_shape, "LayerNorm", "normalized_shape")
        if min(self._normalized_shape + [1]) < 1 or not self._normalized_shape:
            raise ValueError(f"LayerNorm(): argument 'normalized_shape' must hold positive "
                             f"ints, got {self._normalized_shape}")
        check_count(int(np.prod(self._normalized_shape, dtype=np.float64)), "LayerNorm",
                    "normalized_shape")
        self._epsilon = check_number(epsilon, "LayerNorm", "epsilon", minimum=0.0)
        self.weight = self.create_parameter(
            self._normalized_shape, attr=ParamAttr._to_attr(weight_attr, "LayerNorm",
                                                            "weight_attr"),
            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(
            self._normalized_shape, attr=ParamAttr._to_attr(bias_attr, "LayerNorm", "bias_attr"),
            is_bias=True)

    def forward(self, input):
        return layer_norm(input, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


# ---------------------------------------------------------------- batch norm
def _channel_axis(x, data_format, fn):
    formats = ["NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"]
    check_choice(data_format, fn, "data_format", formats)
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' must have at least 2 dimensions, got shape "
                         f"{x.shape}")
    return 1 if data_format.startswith("NC") else x.ndim - 1


@op
def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.9, epsilon=1e-05, data_format="NCHW", use_global_stats=None,
               name=None):
    """Normalize each channel over the batch and the other dimensions.

    In training (and unless ``use_global_stats``) the statistics of the
    batch are used, and ``running_mean``/``running_var`` are updated in
    place as ``momentum * running + (1 - momentum) * batch`` (Paddle's
    convention; the batch variance is the biased one). Otherwise the
    running statistics are used. The channel axis is 1 for ``'NC...'``
    formats and the last one for ``'N...C'``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]])
    >>> mean, var = pylayer.zeros([2]), pylayer.ones([2])
    >>> F.batch_norm(x, mean, var, training=True).numpy().round(4)[:, 0]
    array([-1.2247,  0.    ,  1.2247], dtype=float32)
    >>> mean.numpy(), var.numpy().round(4)
    (array([0.3, 0.3], dtype=float32), array([1.1667, 1.3667], dtype=float32))
    """
    fn = "batch_norm"
    x = float_tensor(x, fn)
    axis = _channel_axis(x, data_format, fn)
    channels = x.shape[axis]
    for arg, t in (("running_mean", running_mean), ("running_var", running_var)):
        if not isinstance(t, Tensor) or t.shape != [channels]:
            raise ValueError(f"{fn}(): argument '{arg}' must be a Tensor of shape "
                             f"[{channels}], got "
                             f"{t.shape if isinstance(t, Tensor) else type(t).__name__}")
    momentum = check_number(momentum, fn, "momentum", minimum=0.0, maximum=1.0)
    epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
    axes = [i for i in range(x.ndim) if i != axis]
    shape = [channels if i == axis else 1 for i in range(x.ndim)]
    if training and not use_global_stats:
        y, batch_mean, batch_var = normalize_affine(x, weight, bias, axes, epsilon, shape, fn)
        for stat, batch in ((running_mean, batch_mean), (running_var, batch_var)):
            old = stat.numpy()
            stat._set_array_inplace((momentum * old + (1.0 - momentum) * batch).astype(
                old.dtype))
        return y
    centre = reshape(running_mean.detach().astype(x.dtype), shape)
    scale = rsqrt(add(reshape(running_var.detach().astype(x.dtype), shape), epsilon))
    return _affine(multiply(subtract(x, centre), scale), weight, bias, shape, fn)


class _BatchNorm(Layer):
    _formats = ()
    _ranks = ()

    def __init__(self, num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                 use_global_stats):
        fn = type(self).__name__
        super().__init__(name_scope=fn.lower().replace("norm", "_norm"))
        num_features = check_int(num_features, fn, "num_features", minimum=1)
        check_count(num_features, fn, "num_features")
        self._momentum = check_number(momentum, fn, "momentum", minimum=0.0, maximum=1.0)
        self._epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
        self._data_format = check_choice(data_format, fn, "data_format", list(self._formats))
        self._use_global_stats = use_global_stats
        self._num_features = num_features
        self.weight = self.create_parameter(
            [num_features], attr=ParamAttr._to_attr(weight_attr, fn, "weight_attr"),
            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(
            [num_features], attr=ParamAttr._to_attr(bias_attr, fn, "bias_attr"), is_bias=True)
        dtype = self._dtype
        self.register_buffer("_mean", Tensor(np.zeros([num_features]), dtype=dtype))
        self.register_buffer("_variance", Tensor(np.ones([num_features]), dtype=dtype))

    def forward(self, input):
        input = as_tensor_arg(input, type(self).__name__, "input", 1)
        if input.ndim not in self._ranks:
            raise ValueError(f"{type(self).__name__}: argument 'input' must have rank "
                             f"{' or '.join(map(str, self._ranks))}, got shape {input.shape}")
        return batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                          training=self.training, momentum=self._momentum,
                          epsilon=self._epsilon, data_format=self._data_format,
                          use_global_stats=self._use_global_stats)

    def extra_repr(self):
        return (f"num_features={self._num_features}, momentum={self._momentum}, "
                f"epsilon={self._epsilon}")


class BatchNorm1D(_BatchNorm):
    """Batch normalization of ``[N, C]`` or ``[N, C, L]`` input (``'NCL'`` or ``'NLC'``).

    In training mode it normalizes with the batch statistics and updates the
    buffers ``_mean`` (zeros at first) and ``_variance`` (ones) by
    ``momentum * running + (1 - momentum) * batch``; in evaluation mode
    (``layer.eval()``) or with ``use_global_stats=True`` it uses them.
    ``weight`` starts at ones and ``bias`` at zeros.

    >>> import pylayer
    >>> bn = pylayer.nn.BatchNorm1D(2)
    >>> _ = bn(pylayer.to_tensor([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]]))
    >>> bn._mean.numpy(), list(bn.state_dict())
    (array([0.3, 0.3], dtype=float32), ['weight', 'bias', '_mean', '_variance'])
    """
    _formats = ("NCL", "NLC", "NC")
    _ranks = (2, 3)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats)


class BatchNorm2D(_BatchNorm):
    """Batch normalization of ``[N, C, H, W]`` input (``'NCHW'`` or ``'NHWC'``).

    See :class:`BatchNorm1D` for the statistics and the modes.

    >>> import pylayer
    >>> bn = pylayer.nn.BatchNorm2D(2, momentum=0.5)
    >>> _ = bn(pylayer.arange(16, dtype='float32').reshape([2, 2, 2, 2]))
    >>> bn._mean.numpy(), bn._variance.numpy()
    (array([2.75, 4.75], dtype=float32), array([9.125, 9.125], dtype=float32))
    """
    _formats = ("NCHW", "NHWC")
    _ranks = (4,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats)


# ---------------------------------------------------------------- group norm
@op
def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
               name=None):
    """Normalize each of ``num_groups`` groups of channels of each sample.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> x = pylayer.arange(8, dtype='float32').reshape([1, 4, 2])
    >>> F.group_norm(x, 2, data_format='NCL').numpy().round(4)[0, :2]
    array([[-1.3416, -0.4472],
           [ 0.4472,  1.3416]], dtype=float32)
    """
    fn = "group_norm"
    x = float_tensor(x, fn)
    axis = _channel_axis(x, data_format, fn)
    groups = check_int(num_groups, fn, "num_groups", minimum=1)
    epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
    channels = x.shape[axis]
    if channels % groups:
        raise ValueError(f"{fn}(): the {channels} channels of x must divide into num_groups "
                         f"({groups}) groups")
    if axis != 1:
        x = x.transpose([0, axis] + list(range(1, axis)))
    y = reshape(_normalize(reshape(x, [x.shape[0], groups, -1]), [2], epsilon), x.shape)
    y = _affine(y, weight, bias, [channels] + [1] * (x.ndim - 2), fn)
    if axis != 1:
        y = y.transpose([0] + list(range(2, y.ndim)) + [1])
    return y


class GroupNorm(Layer):
    """Group normalization with a learned per-channel ``weight`` (ones) and ``bias`` (zeros).

    >>> import pylayer
    >>> norm = pylayer.nn.GroupNorm(num_groups=2, num_channels=4)
    >>> norm(pylayer.rand([3, 4, 5, 5])).shape
    [3, 4, 5, 5]
    """

    def __init__(self, num_groups, num_channels, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__(name_scope="group_norm")
        self._num_groups = check_int(num_groups, "GroupNorm", "num_groups", minimum=1)
        num_channels = check_int(num_channels, "GroupNorm", "num_channels", minimum=1)
        check_count(num_channels, "GroupNorm", "num_channels")
        if num_channels % self._num_groups:
            raise ValueError(f"GroupNorm(): num_channels ({num_channels}) must divide into "
                             f"num_groups ({self._num_groups}) groups")
        self._epsilon = check_number(epsilon, "GroupNorm", "epsilon", minimum=0.0)
        self._data_format = check_choice(data_format, "GroupNorm", "data_format",
                                         ["NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"])
        self.weight = self.create_parameter(
            [num_channels], attr=ParamAttr._to_attr(weight_attr, "GroupNorm", "weight_attr"),
            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(
            [num_channels], attr=ParamAttr._to_attr(bias_attr, "GroupNorm", "bias_attr"),
            is_bias=True)

    def forward(self, input):
        return group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias,
                          self._data_format)

    def extra_repr(self):
        return f"num_groups={self._num_groups}, epsilon={self._epsilon}"
