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

from pylayer.nn.transformer import (MultiHeadAttention, Transformer, TransformerDecoder,  # noqa: E402
                                    TransformerDecoderLayer, TransformerEncoder,
                                    TransformerEncoderLayer)

__all__ += ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder",
            "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]
from pylayer.nn.rnn import (BiRNN, GRU, GRUCell, LSTM, LSTMCell, RNN, RNNCellBase, SimpleRNN,
                            SimpleRNNCell)

__all__ += ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN",
            "LSTM", "GRU"]
from pylayer.nn.dropout import AlphaDropout, Dropout2D, Dropout3D, FeatureAlphaDropout
from pylayer.nn.norm import (BatchNorm, BatchNorm3D, InstanceNorm1D, InstanceNorm2D,
                             InstanceNorm3D, LocalResponseNorm, SpectralNorm, SyncBatchNorm)

__all__ += ["BatchNorm", "BatchNorm3D", "SyncBatchNorm", "InstanceNorm1D", "InstanceNorm2D",
            "InstanceNorm3D", "LocalResponseNorm", "SpectralNorm", "Dropout2D", "Dropout3D",
            "AlphaDropout", "FeatureAlphaDropout"]
from pylayer.nn.padding import (CircularPad1D, CircularPad1d, CircularPad2D,  # noqa: E402
                                CircularPad2d, CircularPad3D, CircularPad3d, ConstantPad1D,
                                ConstantPad1d, ConstantPad2D, ConstantPad2d, ConstantPad3D,
                                ConstantPad3d, Pad1D, Pad2D, Pad3D, ReflectionPad1D,
                                ReflectionPad1d, ReflectionPad2D, ReflectionPad2d,
                                ReflectionPad3D, ReflectionPad3d, ReplicationPad1D,
                                ReplicationPad1d, ReplicationPad2D, ReplicationPad2d,
                                ReplicationPad3D, ReplicationPad3d, ZeroPad1D, ZeroPad1d,
                                ZeroPad2D, ZeroPad2d, ZeroPad3D, ZeroPad3d)
from pylayer.nn.spatial import (Bilinear, ChannelShuffle, CosineSimilarity,  # noqa: E402
                                Flatten, PairwiseDistance, PixelUnshuffle, Unflatten, Upsample,
                                UpsamplingBilinear2D, UpsamplingBilinear2d, UpsamplingNearest2D,
                                UpsamplingNearest2d)

__all__ += ["Pad1D", "Pad2D", "Pad3D", "ZeroPad1D", "ZeroPad2D", "ZeroPad3D", "ConstantPad1D",
            "ConstantPad2D", "ConstantPad3D", "ReflectionPad1D", "ReflectionPad2D",
            "ReflectionPad3D", "ReplicationPad1D", "ReplicationPad2D", "ReplicationPad3D",
            "CircularPad1D", "CircularPad2D", "CircularPad3D", "ZeroPad1d", "ZeroPad2d",
            "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
            "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
            "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d",
            "Flatten", "Unflatten", "Upsample", "UpsamplingNearest2D", "UpsamplingBilinear2D",
            "UpsamplingNearest2d", "UpsamplingBilinear2d", "Bilinear", "CosineSimilarity",
            "PairwiseDistance", "PixelUnshuffle", "ChannelShuffle"]
from pylayer.nn.container import LayerDict, ParameterDict, ParameterList
from pylayer.nn.loss import AdaptiveLogSoftmaxWithLoss, CTCLoss, HSigmoidLoss, RNNTLoss
from pylayer.nn import utils

Module = Layer
ModuleList = LayerList
ModuleDict = LayerDict

__all__ += ["LayerDict", "ParameterList", "ParameterDict", "Module", "ModuleList",
            "ModuleDict", "utils", "CTCLoss", "AdaptiveLogSoftmaxWithLoss",
            "HSigmoidLoss", "RNNTLoss"]
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
from pylayer.nn.decode import BeamSearchDecoder, dynamic_decode  # noqa: E402

__all__ += ["BeamSearchDecoder", "dynamic_decode"]
