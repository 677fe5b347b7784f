"""Normalization layers: ``LayerNorm``, ``BatchNorm1D``, ``BatchNorm2D``, ``GroupNorm``.

Each holds its weight and bias (and a batch normalization its running
statistics) and calls its functional form in :mod:`pylayer.ops.normalization`.
"""
import numpy as np

from pylayer.extend import (Tensor, as_tensor_arg, check_choice, check_count, check_int,
                            check_ints, check_number)
from pylayer.nn.initializer import Constant
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops.normalization import batch_norm, group_norm, layer_norm

__all__ = ["LayerNorm", "BatchNorm1D", "BatchNorm2D", "GroupNorm"]


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
