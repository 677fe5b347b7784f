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
from pylayer.ops.loss import (binary_cross_entropy, binary_cross_entropy_with_logits,
                              cosine_embedding_loss, cross_entropy, dice_loss,
                              gaussian_nll_loss, hinge_embedding_loss, kl_div, l1_loss,
                              label_smooth, log_loss, margin_ranking_loss, mse_loss,
                              multi_label_margin_loss, multi_label_soft_margin_loss,
                              multi_margin_loss, nll_loss, npair_loss, poisson_nll_loss,
                              sigmoid_focal_loss, smooth_l1_loss,
                              soft_margin_loss, square_error_cost, triplet_margin_loss,
                              triplet_margin_with_distance_loss)
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
           "dropout", "mse_loss", "cross_entropy", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "nll_loss", "l1_loss", "smooth_l1_loss", "kl_div",
           "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
           "soft_margin_loss", "square_error_cost", "log_loss", "multi_label_soft_margin_loss",
           "poisson_nll_loss", "gaussian_nll_loss", "sigmoid_focal_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "multi_margin_loss", "label_smooth",
           "dice_loss", "npair_loss", "multi_label_margin_loss",
           "linear", "conv1d", "conv2d", "conv1d_transpose", "conv2d_transpose", "pad",
           "interpolate", "pixel_shuffle",
           "one_hot", "embedding", "layer_norm", "batch_norm", "group_norm", "max_pool1d",
           "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d", "relu6", "elu", "elu_", "selu", "celu", "silu",
           "swish", "mish", "hardswish", "hardsigmoid", "softplus", "softsign", "softshrink",
           "hardshrink", "tanhshrink", "thresholded_relu", "thresholded_relu_", "log_sigmoid",
           "glu", "prelu", "relu_", "leaky_relu_", "hardtanh_", "softmax_", "tanh_",
           "maxout", "rrelu", "swiglu", "gumbel_softmax", "logsigmoid"]

from pylayer.ops.attention import scaled_dot_product_attention, sequence_mask  # noqa: E402

__all__ += ["scaled_dot_product_attention", "sequence_mask"]
from pylayer.ops.dropout import (alpha_dropout, dropout1d, dropout2d, dropout3d,
                                 feature_alpha_dropout)
from pylayer.ops.normalization import instance_norm, local_response_norm, normalize, rms_norm

__all__ += ["instance_norm", "local_response_norm", "rms_norm", "normalize", "dropout1d",
            "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]
from pylayer.ops.spatial import (bilinear, channel_shuffle, cosine_similarity,  # noqa: E402
                                 pairwise_distance, pixel_unshuffle, temporal_shift, upsample,
                                 zeropad2d)

__all__ += ["zeropad2d", "upsample", "pixel_unshuffle", "channel_shuffle", "temporal_shift",
            "cosine_similarity", "pairwise_distance", "bilinear"]
from pylayer.ops.sampling_grid import affine_grid, gather_tree, grid_sample  # noqa: E402

__all__ += ["affine_grid", "grid_sample", "gather_tree"]
from pylayer.ops.loss import ctc_loss, margin_cross_entropy, softmax_with_cross_entropy

__all__ += ["ctc_loss", "margin_cross_entropy", "softmax_with_cross_entropy"]
from pylayer.ops.loss import adaptive_log_softmax_with_loss

__all__ += ["adaptive_log_softmax_with_loss"]
from pylayer.ops.loss import hsigmoid_loss

__all__ += ["hsigmoid_loss"]
from pylayer.ops.loss import rnnt_loss

__all__ += ["rnnt_loss"]
from pylayer.ops.convolution import conv3d, conv3d_transpose  # noqa: E402
from pylayer.ops.folding import fold, unfold  # noqa: E402
from pylayer.ops.pooling import (adaptive_avg_pool3d, adaptive_max_pool1d,  # noqa: E402
                                 adaptive_max_pool2d, adaptive_max_pool3d, avg_pool3d,
                                 fractional_max_pool2d, fractional_max_pool3d, lp_pool1d, lp_pool2d, max_pool3d, max_unpool1d,
                                 max_unpool2d, max_unpool3d)

__all__ += ["conv3d", "conv3d_transpose", "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d",
            "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
            "max_unpool1d", "max_unpool2d", "max_unpool3d", "lp_pool1d", "lp_pool2d", "fold",
            "unfold", "fractional_max_pool2d", "fractional_max_pool3d"]
from pylayer.ops.loss import class_center_sample  # noqa: E402

__all__ += ["class_center_sample"]
