"""Paddle's ``paddle.nn.functional``: the functional forms of the layers.

Each function is the op of its area in ``pylayer.ops`` under its Paddle name
(``F.relu is pylayer.ops.activation.relu``); this module defines none of its own.
"""
from pylayer.ops.activation import (gelu, hardtanh, leaky_relu, log_softmax, relu, sigmoid,
                                    softmax)
from pylayer.ops.convolution import conv1d, conv1d_transpose, conv2d, conv2d_transpose
from pylayer.ops.dropout import dropout
from pylayer.ops.embedding import embedding, one_hot
from pylayer.ops.linear import linear
from pylayer.ops.loss import cross_entropy, mse_loss
from pylayer.ops.math import tanh, tanh_
from pylayer.ops.nonlinear import (celu, elu, elu_, glu, gumbel_softmax, hardshrink, hardsigmoid,
                                   hardswish, hardtanh_, leaky_relu_, log_sigmoid, logsigmoid,
                                   maxout, mish, prelu, relu6, relu_, rrelu, selu, silu, softmax_,
                                   softplus, softshrink, softsign, swiglu, swish, tanhshrink,
                                   thresholded_relu, thresholded_relu_)
from pylayer.ops.normalization import batch_norm, group_norm, layer_norm
from pylayer.ops.pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool1d,
                                 avg_pool2d, max_pool1d, max_pool2d)
from pylayer.ops.spatial import interpolate, pad, pixel_shuffle

__all__ = ["relu", "leaky_relu", "gelu", "hardtanh", "sigmoid", "tanh", "softmax", "log_softmax",
           "dropout", "mse_loss", "cross_entropy", "linear", "conv1d", "conv2d",
           "conv1d_transpose", "conv2d_transpose", "pad", "interpolate", "pixel_shuffle",
           "one_hot", "embedding", "layer_norm", "batch_norm", "group_norm", "max_pool1d",
           "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d", "relu6", "elu", "elu_", "selu", "celu", "silu",
           "swish", "mish", "hardswish", "hardsigmoid", "softplus", "softsign", "softshrink",
           "hardshrink", "tanhshrink", "thresholded_relu", "thresholded_relu_", "log_sigmoid",
           "glu", "prelu", "relu_", "leaky_relu_", "hardtanh_", "softmax_", "tanh_",
           "maxout", "rrelu", "swiglu", "gumbel_softmax", "logsigmoid"]
