"""Normalization layers: ``LayerNorm``, the batch normalizations (``BatchNorm1D``/``2D``/``3D``,
the older ``BatchNorm`` and ``SyncBatchNorm``), ``GroupNorm``, ``InstanceNorm1D``/``2D``/``3D``,
``LocalResponseNorm`` and ``SpectralNorm``.

Each holds its weight and bias (and a batch normalization its running
statistics) and calls its functional form in :mod:`pylayer.ops.normalization`.
"""
import numpy as np

from pylayer.extend import (Tensor, as_tensor_arg, check_choice, check_count, check_dtype,
                            check_int, check_ints, check_number, float_tensor)
from pylayer.nn import functional as F
from pylayer.nn.initializer import Constant, Normal
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.autograd.grad_mode import no_grad
from pylayer.autograd.py_layer import PyLayer
from pylayer.ops.creation import to_tensor
from pylayer.ops.arithmetic import divide
from pylayer.ops.dispatch import has_static_variable
from pylayer.ops.linalg import dot, mv
from pylayer.ops.normalization import (batch_norm, group_norm, instance_norm, layer_norm,
                                       local_response_norm)

__all__ = ["LayerNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "BatchNorm",
           "SyncBatchNorm", "GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D",
           "LocalResponseNorm", "SpectralNorm"]


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


class _BatchNorm(Layer):
    _formats = ()
    _ranks = ()

    def __init__(self, num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                 use_global_stats, name=None):
        fn = type(self).__name__
        super().__init__(name_scope=fn.lower().replace("norm", "_norm"))
        num_features = check_int(num_features, fn, "num_features", minimum=1)
        check_count(num_features, fn, "num_features")
        self._momentum = check_number(momentum, fn, "momentum", minimum=0.0, maximum=1.0)
        self._epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
        self._data_format = check_choice(data_format, fn, "data_format", list(self._formats))
        self._use_global_stats = use_global_stats
        self._num_features = num_features
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        self.weight = self.create_parameter(
            [num_features], attr=ParamAttr._to_attr(weight_attr, fn, "weight_attr"),
            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(
            [num_features], attr=ParamAttr._to_attr(bias_attr, fn, "bias_attr"), is_bias=True)
        dtype = self._dtype
        self.register_buffer("_mean", Tensor(np.zeros([num_features]), dtype=dtype))
        self.register_buffer("_variance", Tensor(np.ones([num_features]), dtype=dtype))

    def forward(self, input):
        # A Tensor, or a static Variable (a program being built, jit.to_static) as it is;
        # anything else, a list holding a Variable too, is converted or refused.
        if isinstance(input, (list, tuple, dict)) or not has_static_variable(input):
            input = as_tensor_arg(input, type(self).__name__, "input", 1)
        if input.ndim not in self._ranks:
            raise ValueError(f"{type(self).__name__}: argument 'input' must have rank "
                             f"{' or '.join(map(str, self._ranks))}, got shape {input.shape}")
        return batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                          training=self.training, momentum=self._momentum,
                          epsilon=self._epsilon, data_format=self._data_format,
                          use_global_stats=self._use_global_stats)

    def extra_repr(self):
        text = (f"num_features={self._num_features}, momentum={self._momentum}, "
                f"epsilon={self._epsilon}")
        if self._data_format != "NCHW":
            text += f", data_format={self._data_format}"
        if self._name is not None:
            text += f", name={self._name}"
        return text


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
                         use_global_stats, name)


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
                         use_global_stats, name)


class BatchNorm3D(_BatchNorm):
    """Batch normalization of ``[N, C, D, H, W]`` input (``'NCDHW'`` or ``'NDHWC'``).

    See :class:`BatchNorm1D` for the statistics and the modes.

    >>> import pylayer
    >>> bn = pylayer.nn.BatchNorm3D(2)
    >>> bn(pylayer.rand([2, 2, 3, 3, 3])).shape, list(bn.state_dict())
    ([2, 2, 3, 3, 3], ['weight', 'bias', '_mean', '_variance'])
    """
    _formats = ("NCDHW", "NDHWC")
    _ranks = (5,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class _SyncBatchNormFunction(PyLayer):
    """Batch normalization with the statistics of the whole batch, spread over the
    processes of ``group``: forward all-reduces one buffer [sums, sums of squares,
    count] per channel, backward one [sums of dy, sums of dy * x_hat]. The weight's
    and bias's gradients are this process's (DataParallel averages them). Forward
    appends the batch's mean and biased variance to the list ``batch``."""

    @staticmethod
    def forward(ctx, x, weight, bias, epsilon, channel_last, group, batch):
        import pylayer.distributed as dist
        a = x.numpy()
        axis = a.ndim - 1 if channel_last else 1
        axes = tuple(i for i in range(a.ndim) if i != axis)
        shape = [1] * a.ndim
        shape[axis] = a.shape[axis]
        wide = a.astype(np.float64)
        local = np.concatenate([wide.sum(axes), (wide * wide).sum(axes),
                                [a.size // a.shape[axis]]])
        total = to_tensor(local)
        dist.all_reduce(total, group=group)
        total = total.numpy()
        channels = a.shape[axis]
        count = total[-1]
        if count <= 1:
            raise ValueError(f"SyncBatchNorm: expected more than 1 value per channel over "
                             f"the processes in training, got input of shape {list(a.shape)}")
        mean = total[:channels] / count
        var = np.maximum(total[channels:2 * channels] / count - mean * mean, 0.0)
        invstd = 1.0 / np.sqrt(var + epsilon)
        x_hat = (wide - mean.reshape(shape)) * invstd.reshape(shape)
        w = weight.numpy().astype(np.float64).reshape(shape)
        y = x_hat * w + bias.numpy().astype(np.float64).reshape(shape)
        ctx.saved = (x_hat, invstd.reshape(shape), w, count, axes, shape, group,
                     x.dtype, weight.dtype)
        batch.extend([mean, var])
        return to_tensor(y.astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        import pylayer.distributed as dist
        x_hat, invstd, w, count, axes, shape, group, x_dtype, w_dtype = ctx.saved
        g = dy.numpy().astype(np.float64)
        sum_dy = g.sum(axes)
        sum_dy_x_hat = (g * x_hat).sum(axes)
        total = to_tensor(np.concatenate([sum_dy, sum_dy_x_hat]))
        dist.all_reduce(total, group=group)
        all_dy, all_dy_x_hat = np.split(total.numpy(), 2)
        dx = w * invstd * (g - all_dy.reshape(shape) / count
                           - x_hat * all_dy_x_hat.reshape(shape) / count)
        return (to_tensor(dx).astype(x_dtype), to_tensor(sum_dy_x_hat).astype(w_dtype),
                to_tensor(sum_dy).astype(w_dtype))


class SyncBatchNorm(_BatchNorm):
    """Batch normalization with the statistics of the whole batch over the processes
    (:mod:`pylayer.distributed`): in training, each channel's sum, sum of squares
    and count are all-reduced over the world (one all-reduce per call), and in
    backward the sums of the output gradient and of its product with the
    normalized input; the running statistics (``_mean``, ``_variance``) are updated
    with the whole batch's mean and biased variance, the same in every process.
    In one process (or in evaluation) it is :class:`BatchNorm2D` for input of any
    rank from 2 to 5. The weight's and bias's gradients are each process's own
    (:class:`~pylayer.distributed.DataParallel` averages them).

    ``data_format`` is one of ``'NC'``, ``'NCL'``, ``'NCHW'``, ``'NCDHW'``
    (channels on axis 1) or ``'NLC'``, ``'NHWC'``, ``'NDHWC'`` (channels last).

    >>> import pylayer
    >>> bn = pylayer.nn.SyncBatchNorm(2)
    >>> bn(pylayer.to_tensor([[1.0, 2.0], [3.0, 6.0]])).numpy().round(4)
    array([[-1., -1.],
           [ 1.,  1.]], dtype=float32)
    """
    _formats = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")
    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         False, name)

    def forward(self, x):
        import pylayer.distributed as dist
        x = as_tensor_arg(x, "SyncBatchNorm", "x", 1)
        if x.ndim not in self._ranks:
            raise ValueError(f"SyncBatchNorm: argument 'x' must have rank 2 to 5, got shape "
                             f"{x.shape}")
        channel_last = not self._data_format.startswith("NC")
        if self.training and dist.is_initialized() and dist.get_world_size() > 1:
            return _sync_batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                                    self._momentum, self._epsilon, channel_last)
        return batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                          training=self.training, momentum=self._momentum,
                          epsilon=self._epsilon, data_format="NHWC" if channel_last else "NCHW")

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """``layer`` with each batch normalization in it (``BatchNorm1D``/``2D``/``3D``)
        replaced by a ``SyncBatchNorm`` that shares its parameters and statistics.

        >>> import pylayer
        >>> model = pylayer.nn.Sequential(pylayer.nn.Linear(3, 2), pylayer.nn.BatchNorm1D(2))
        >>> model = pylayer.nn.SyncBatchNorm.convert_sync_batchnorm(model)
        >>> type(model[1]).__name__
        'SyncBatchNorm'
        """
        if not isinstance(layer, Layer):
            raise TypeError(f"convert_sync_batchnorm(): argument 'layer' must be a Layer, got "
                            f"{type(layer).__name__}")
        converted = layer
        if isinstance(layer, _BatchNorm):
            attrs = []
            for attr in (layer._weight_attr, layer._bias_attr):
                if isinstance(attr, ParamAttr) and attr.name is not None:
                    attr.name += "_sync"
                attrs.append(attr)
            converted = cls(layer._num_features, layer._momentum, layer._epsilon, *attrs,
                            layer._data_format, layer._name)
            if layer.weight is not None and layer.bias is not None:
                converted.weight, converted.bias = layer.weight, layer.bias
            converted._mean, converted._variance = layer._mean, layer._variance
        for name, sublayer in list(layer.named_children()):
            replacement = cls.convert_sync_batchnorm(sublayer)
            if replacement is not sublayer:
                converted._sub_layers[name] = replacement    # in place: the order stays
        return converted


def _sync_batch_norm(x, running_mean, running_var, weight, bias, momentum, epsilon,
                     channel_last, group=None):
    """SyncBatchNorm's training step over the processes of ``group`` (the world by
    default): the normalized ``x`` (recorded for backward), the running statistics
    updated in place."""
    channels = x.shape[-1 if channel_last else 1]
    if channels != running_mean.shape[0]:
        raise ValueError(f"SyncBatchNorm: argument 'x' has {channels} channels, but the "
                         f"layer has {running_mean.shape[0]} features")
    if weight is None:
        weight = to_tensor(np.ones(channels, x.numpy().dtype))
    if bias is None:
        bias = to_tensor(np.zeros(channels, x.numpy().dtype))
    batch = []                      # forward puts the batch's mean and variance here
    y = _SyncBatchNormFunction.apply(x, weight, bias, epsilon, channel_last, group, batch)
    mean, var = batch
    with no_grad():
        for stat, batch in ((running_mean, mean), (running_var, var)):
            old = stat.numpy()
            stat._set_array_inplace((momentum * old + (1.0 - momentum) * batch).astype(
                old.dtype))
    return y


class BatchNorm(Layer):
    """The older batch normalization layer, for input of rank 2 to 5.

    ``data_layout`` is ``'NCHW'`` (channels on axis 1) or ``'NHWC'`` (channels
    last). ``is_test=True`` starts the layer in evaluation mode; in evaluation
    the running statistics ``_mean`` and ``_variance`` are used, unless
    ``trainable_statistics`` (then the batch's, which also update them, as in
    training). ``act`` names an activation of :mod:`pylayer.nn.functional`
    applied to the result. ``param_attr`` is the weight's attribute; ``dtype``
    that of the parameters and statistics (``'float16'`` gives float32);
    ``moving_mean_name`` and ``moving_variance_name`` name the statistics.
    ``in_place`` and ``do_model_average_for_mean_and_var`` have no effect here,
    as in Paddle's dynamic mode.

    >>> import pylayer
    >>> bn = pylayer.nn.BatchNorm(2, act='relu')
    >>> bn(pylayer.to_tensor([[1.0, 2.0], [3.0, 6.0]])).numpy().round(4)
    array([[0., 0.],
           [1., 1.]], dtype=float32)
    >>> list(bn.state_dict())
    ['weight', 'bias', '_mean', '_variance']
    """

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05,
                 param_attr=None, bias_attr=None, dtype="float32", data_layout="NCHW",
                 in_place=False, moving_mean_name=None, moving_variance_name=None,
                 do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        fn = "BatchNorm"
        num_channels = check_int(num_channels, fn, "num_channels", minimum=1)
        check_count(num_channels, fn, "num_channels")
        dtype = check_dtype(dtype, fn, "dtype", kinds="f", allow_none=False)
        dtype = "float32" if dtype == np.float16 else str(np.dtype(dtype))
        super().__init__(name_scope="batch_norm", dtype=dtype)
        if act is not None and not callable(getattr(F, str(act), None)):
            raise ValueError(f"{fn}(): argument 'act' must name an activation of "
                             f"pylayer.nn.functional, got {act!r}")
        self._act = act
        self._momentum = check_number(momentum, fn, "momentum", minimum=0.0, maximum=1.0)
        self._epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
        self._data_layout = check_choice(data_layout, fn, "data_layout", ["NCHW", "NHWC"])
        self._in_place = in_place
        self._is_test = bool(is_test)
        self._use_global_stats = bool(use_global_stats)
        self._trainable_statistics = bool(trainable_statistics)
        self.weight = self.create_parameter(
            [num_channels], attr=ParamAttr._to_attr(param_attr, fn, "param_attr"),
            dtype=dtype, default_initializer=Constant(1.0))
        self.bias = self.create_parameter(
            [num_channels], attr=ParamAttr._to_attr(bias_attr, fn, "bias_attr"), dtype=dtype,
            is_bias=True)
        for buffer, value, label in (("_mean", 0.0, moving_mean_name),
                                     ("_variance", 1.0, moving_variance_name)):
            stat = Tensor(np.full([num_channels], value), dtype=dtype)
            if label is not None:
                stat.name = label
            self.register_buffer(buffer, stat)
        self.training = not self._is_test

    def forward(self, input):
        input = as_tensor_arg(input, "BatchNorm", "input", 1)
        if not 2 <= input.ndim <= 5:
            raise ValueError(f"BatchNorm: argument 'input' must have rank 2 to 5, got shape "
                             f"{input.shape}")
        out = batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                         training=self.training or self._trainable_statistics,
                         momentum=self._momentum, epsilon=self._epsilon,
                         data_format=self._data_layout, use_global_stats=self._use_global_stats)
        return out if self._act is None else getattr(F, self._act)(out)


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


class _InstanceNorm(Layer):
    _rank_text = ""

    def __init__(self, num_features, epsilon, momentum, weight_attr, bias_attr, data_format):
        fn = type(self).__name__
        super().__init__(name_scope="instance_norm")
        num_features = check_int(num_features, fn, "num_features", minimum=1)
        check_count(num_features, fn, "num_features")
        self._epsilon = check_number(epsilon, fn, "epsilon", minimum=0.0)
        self._momentum = check_number(momentum, fn, "momentum")
        self._data_format = check_choice(data_format, fn, "data_format",
                                         ["NC", "NCL", "NCHW", "NCDHW"])
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError(f"{fn}(): weight_attr and bias_attr must be False together, got "
                             f"{weight_attr!r} and {bias_attr!r}")
        self._num_features = num_features
        self.scale = self.create_parameter(
            [num_features], attr=ParamAttr._to_attr(weight_attr, fn, "weight_attr"),
            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(
            [num_features], attr=ParamAttr._to_attr(bias_attr, fn, "bias_attr"), is_bias=True)

    def forward(self, input):
        fn = type(self).__name__
        input = as_tensor_arg(input, fn, "input", 1)
        if input.ndim not in self._ranks:
            raise ValueError(f"{fn}: argument 'input' must have {self._rank_text} dimensions, "
                             f"got shape {input.shape}")
        return instance_norm(input, weight=self.scale, bias=self.bias,
                             momentum=self._momentum, eps=self._epsilon,
                             data_format=self._data_format)

    def extra_repr(self):
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNorm):
    """Instance normalization of ``[N, C, L]`` (or ``[N, C]``) input: each channel of each
    sample normalized over its length, then scaled by ``scale`` (ones) and shifted by
    ``bias`` (zeros), one per channel.

    ``weight_attr=False`` and ``bias_attr=False`` (both together) leave them
    out. ``momentum`` is kept for Paddle's signature and, as there, unused.

    >>> import pylayer
    >>> norm = pylayer.nn.InstanceNorm1D(2)
    >>> norm(pylayer.to_tensor([[[1.0, 3.0], [0.0, 4.0]]])).numpy().round(4)
    array([[[-1.,  1.],
            [-1.,  1.]]], dtype=float32)
    >>> list(norm.state_dict())
    ['scale', 'bias']
    """
    _ranks = (2, 3)
    _rank_text = "2 or 3"

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCL", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class InstanceNorm2D(_InstanceNorm):
    """Instance normalization of ``[N, C, H, W]`` input; see :class:`InstanceNorm1D`.

    >>> import pylayer
    >>> norm = pylayer.nn.InstanceNorm2D(3)
    >>> out = norm(pylayer.rand([2, 3, 4, 4]))
    >>> bool(abs(out.numpy().mean(axis=(2, 3))).max() < 1e-5)
    True
    """
    _ranks = (4,)
    _rank_text = "4"

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class InstanceNorm3D(_InstanceNorm):
    """Instance normalization of ``[N, C, D, H, W]`` input; see :class:`InstanceNorm1D`.

    >>> import pylayer
    >>> pylayer.nn.InstanceNorm3D(2)(pylayer.rand([1, 2, 2, 2, 2])).shape
    [1, 2, 2, 2, 2]
    """
    _ranks = (5,)
    _rank_text = "5"

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class LocalResponseNorm(Layer):
    """:func:`pylayer.nn.functional.local_response_norm` as a layer.

    >>> import pylayer
    >>> lrn = pylayer.nn.LocalResponseNorm(3, alpha=0.1)
    >>> lrn(pylayer.to_tensor([[[0.0], [4.0], [8.0]]])).numpy().ravel().round(4)
    array([0.    , 1.5096, 3.0192], dtype=float32)
    """

    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        fn = "LocalResponseNorm"
        super().__init__()
        self.size = check_int(size, fn, "size", minimum=1)
        self.alpha = check_number(alpha, fn, "alpha")
        self.beta = check_number(beta, fn, "beta")
        self.k = check_number(k, fn, "k")
        self.data_format = check_choice(data_format, fn, "data_format",
                                        ["NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC"])
        self.name = name

    def forward(self, input):
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k,
                                   self.data_format)

    def extra_repr(self):
        text = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            text += f", data_format={self.data_format}"
        if self.name is not None:
            text += f", name={self.name}"
        return text


def _as_matrix(weight, dim):
    """``weight`` with axis ``dim`` moved first, as a matrix of that many rows."""
    if dim:
        weight = weight.transpose([dim] + [i for i in range(weight.ndim) if i != dim])
    return weight.reshape([weight.shape[0], -1])


def power_iteration(matrix, u, v, iterations, eps):
    """``u`` and ``v`` after ``iterations`` steps of the power iteration for the largest
    singular value of ``matrix`` (each step ``v = normalize(matrix^T u)``, then
    ``u = normalize(matrix v)``, dividing by the 2-norm plus ``eps``); no gradient."""
    with no_grad():
        matrix = matrix.detach()
        for _ in range(iterations):
            v = matrix.t().matmul(u.reshape([-1, 1])).reshape([-1])
            v = v / (v.norm() + eps)
            u = matrix.matmul(v.reshape([-1, 1])).reshape([-1])
            u = u / (u.norm() + eps)
    return u, v


class SpectralNorm(Layer):
    """Divide a weight (the input of ``forward``) by its largest singular value.

    The weight of shape ``weight_shape`` is seen as a matrix whose rows run along
    axis ``dim``; ``power_iters`` steps of the power iteration from the vectors
    ``weight_u`` and ``weight_v`` (parameters drawn from a standard normal, with
    ``stop_gradient`` set; as in Paddle, the iteration starts from them at each
    call and does not update them) estimate ``sigma = u^T W v``, and the result
    is ``W / sigma``, differentiable in ``W`` through ``sigma`` too.

    >>> import pylayer
    >>> sn = pylayer.nn.SpectralNorm([2, 3], power_iters=20)
    >>> w = pylayer.to_tensor([[3.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    >>> sn(w).numpy().round(4)
    array([[1.    , 0.    , 0.    ],
           [0.    , 0.3333, 0.    ]], dtype=float32)
    """

    def __init__(self, weight_shape, dim=0, power_iters=1, eps=1e-12, dtype="float32"):
        fn = "SpectralNorm"
        shape = check_ints(weight_shape, fn, "weight_shape")
        if not shape or min(shape) < 1:
            raise ValueError(f"{fn}(): argument 'weight_shape' must hold positive ints, got "
                             f"{shape}")
        dim = check_int(dim, fn, "dim")
        if not -len(shape) <= dim < len(shape):
            raise ValueError(f"{fn}(): argument 'dim' must be in [-{len(shape)}, "
                             f"{len(shape)}), got {dim}")
        dtype = check_dtype(dtype, fn, "dtype", kinds="f", allow_none=False)
        super().__init__(dtype=str(np.dtype(dtype)))
        self._weight_shape = shape
        self._dim = dim % len(shape)
        self._power_iters = check_int(power_iters, fn, "power_iters", minimum=0)
        self._eps = check_number(eps, fn, "eps", minimum=0.0)
        height = shape[self._dim]
        check_count(int(np.prod(shape, dtype=object)), fn, "weight_shape")
        width = int(np.prod(shape, dtype=object)) // height
        for size in (height, width):
            check_count(size, fn, "weight_shape", self._dtype)
        for label, size in (("weight_u", height), ("weight_v", width)):
            vector = self.create_parameter([size], attr=ParamAttr(),
                                           default_initializer=Normal(0.0, 1.0))
            vector.stop_gradient = True
            setattr(self, label, vector)

    def forward(self, x):
        x = float_tensor(x, "SpectralNorm", "x")
        if x.shape != self._weight_shape:
            raise ValueError(f"SpectralNorm: argument 'x' must have the shape "
                             f"{self._weight_shape}, got {x.shape}")
        matrix = _as_matrix(x, self._dim)
        u, v = power_iteration(matrix, self.weight_u.detach(), self.weight_v.detach(),
                               self._power_iters, self._eps)
        return divide(x, dot(u, mv(matrix, v)))
