"""Optimizers that update parameters from their gradients: ``SGD``, ``Momentum``,
``Adam``, ``AdamW``, ``Adamax``, ``NAdam``, ``RAdam``, ``Lamb``, ``Adagrad``,
``Adadelta``, ``RMSProp``, ``Rprop`` and ``ASGD``;
learning-rate schedules in :mod:`pylayer.optimizer.lr`.

>>> import pylayer
>>> layer = pylayer.nn.Linear(2, 1)
>>> opt = pylayer.optimizer.SGD(learning_rate=0.1, parameters=layer.parameters())
>>> loss = layer(pylayer.ones([4, 2])).mean()
>>> loss.backward(); opt.step(); opt.clear_grad()
"""
from pylayer.optimizer import lr
from pylayer.optimizer.adadelta import Adadelta
from pylayer.optimizer.asgd import ASGD
from pylayer.optimizer.adagrad import Adagrad
from pylayer.optimizer.adam import Adam
from pylayer.optimizer.adamax import Adamax
from pylayer.optimizer.adamw import AdamW
from pylayer.optimizer.lamb import Lamb
from pylayer.optimizer.lbfgs import LBFGS
from pylayer.optimizer.momentum import Momentum
from pylayer.optimizer.nadam import NAdam
from pylayer.optimizer.optimizer import Optimizer
from pylayer.optimizer.radam import RAdam
from pylayer.optimizer.rmsprop import RMSProp
from pylayer.optimizer.rprop import Rprop
from pylayer.optimizer.sgd import SGD

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "Lamb",
           "Adagrad", "Adadelta", "RMSProp", "Rprop", "ASGD", "LBFGS",
           "lr"]
