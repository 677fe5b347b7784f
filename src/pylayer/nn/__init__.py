"""Neural-network building blocks: ``Layer``, common layers, losses, initializers.

>>> import pylayer
>>> model = pylayer.nn.Sequential(pylayer.nn.Linear(2, 3), pylayer.nn.Tanh())
>>> len(model.parameters())
2
"""
from pylayer.nn import functional, initializer
from pylayer.nn.activation import (CELU, ELU, GELU, GLU, SELU, Hardshrink, Hardsigmoid,
                                   Hardswish, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax,
                                   Maxout, Mish, PReLU, ReLU, ReLU6, RReLU, Sigmoid, SiLU, Silu,
                                   Softmax, Softmax2D, Softplus, Softshrink, Softsign, Swish,
                                   Tanh, Tanhshrink, ThresholdedReLU)
from pylayer.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from pylayer.nn.common import Dropout, Identity, Linear, Sequential
from pylayer.nn.container import LayerList
from pylayer.nn.conv import Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose
from pylayer.nn.input import Embedding
from pylayer.nn.layer import HookRemoveHelper, Layer
from pylayer.nn.norm import BatchNorm1D, BatchNorm2D, GroupNorm, LayerNorm
from pylayer.nn.pooling import (AdaptiveAvgPool1D, AdaptiveAvgPool2D, AvgPool1D, AvgPool2D,
                                MaxPool1D, MaxPool2D)
from pylayer.nn.spatial import PixelShuffle
from pylayer.nn.loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss,
                             CrossEntropyLoss, GaussianNLLLoss, HingeEmbeddingLoss, KLDivLoss,
                             L1Loss, MarginRankingLoss, MSELoss, MultiLabelMarginLoss,
                             MultiLabelSoftMarginLoss,
                             MultiMarginLoss, NLLLoss, PoissonNLLLoss, SmoothL1Loss,
                             SoftMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss)
from pylayer.nn.param import Parameter

__all__ = ["Layer", "Parameter", "Linear", "Dropout", "Sequential", "ReLU", "LeakyReLU", "GELU",
           "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "MSELoss", "CrossEntropyLoss",
           "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "L1Loss", "SmoothL1Loss", "KLDivLoss",
           "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss", "SoftMarginLoss",
           "MultiLabelSoftMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "MultiMarginLoss", "MultiLabelMarginLoss",
           "ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm", "functional",
           "initializer", "Hardtanh", "Identity", "LayerList", "Conv1D", "Conv2D",
           "Conv1DTranspose", "Conv2DTranspose", "Embedding", "LayerNorm", "BatchNorm1D",
           "BatchNorm2D", "GroupNorm", "MaxPool1D", "MaxPool2D", "AvgPool1D", "AvgPool2D",
           "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "PixelShuffle", "HookRemoveHelper",
           "ReLU6", "ELU", "SELU", "CELU", "Silu", "SiLU", "Swish", "Mish", "Hardswish",
           "Hardsigmoid", "Softplus", "Softsign", "Softshrink", "Hardshrink", "Tanhshrink",
           "ThresholdedReLU", "LogSigmoid", "GLU", "Softmax2D", "PReLU",
           "RReLU", "Maxout"]

from pylayer.nn.conv import (Conv1d, Conv2d, Conv3D, Conv3d, Conv3DTranspose,  # noqa: E402
                             Fold, Unfold)
from pylayer.nn.pooling import (AdaptiveAvgPool3D, AdaptiveMaxPool1D,  # noqa: E402
                                AdaptiveMaxPool1d, AdaptiveMaxPool2D, AdaptiveMaxPool2d,
                                AdaptiveMaxPool3D, AdaptiveMaxPool3d, AvgPool3D,
                                FractionalMaxPool2D, FractionalMaxPool3D, LPPool1D,
                                LPPool1d, LPPool2D, LPPool2d, MaxPool3D, MaxUnPool1D,
                                MaxUnPool2D, MaxUnPool3D)

__all__ += ["Conv3D", "Conv3DTranspose", "Conv1d", "Conv2d", "Conv3d", "Fold", "Unfold",
            "MaxPool3D", "AvgPool3D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
            "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "MaxUnPool1D", "MaxUnPool2D",
            "MaxUnPool3D", "LPPool1D", "LPPool2D", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
            "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d", "FractionalMaxPool2D",
            "FractionalMaxPool3D"]
