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

from pylayer.nn.container import LayerDict, ParameterDict, ParameterList
from pylayer.nn.loss import AdaptiveLogSoftmaxWithLoss, CTCLoss, HSigmoidLoss, RNNTLoss
from pylayer.nn import utils

Module = Layer
ModuleList = LayerList
ModuleDict = LayerDict

__all__ += ["LayerDict", "ParameterList", "ParameterDict", "Module", "ModuleList",
            "ModuleDict", "utils", "CTCLoss", "AdaptiveLogSoftmaxWithLoss",
            "HSigmoidLoss", "RNNTLoss"]
