"""Neural-network building blocks: ``Layer``, common layers, losses, initializers.

>>> import pylayer
>>> model = pylayer.nn.Sequential(pylayer.nn.Linear(2, 3), pylayer.nn.Tanh())
>>> len(model.parameters())
2
"""
from pylayer.nn import functional, initializer
from pylayer.nn.activation import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from pylayer.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from pylayer.nn.common import Dropout, Linear, Sequential
from pylayer.nn.layer import Layer
from pylayer.nn.loss import CrossEntropyLoss, MSELoss
from pylayer.nn.param import Parameter

__all__ = ["Layer", "Parameter", "Linear", "Dropout", "Sequential", "ReLU", "LeakyReLU", "GELU",
           "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "MSELoss", "CrossEntropyLoss",
           "ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm", "functional",
           "initializer"]
