"""Optimizers that update parameters from their gradients: ``SGD`` and ``Adam``;
learning-rate schedules in :mod:`pylayer.optimizer.lr`.

>>> import pylayer
>>> layer = pylayer.nn.Linear(2, 1)
>>> opt = pylayer.optimizer.SGD(learning_rate=0.1, parameters=layer.parameters())
>>> loss = layer(pylayer.ones([4, 2])).mean()
>>> loss.backward(); opt.step(); opt.clear_grad()
"""
from pylayer.optimizer import lr
from pylayer.optimizer.adam import Adam
from pylayer.optimizer.optimizer import Optimizer
from pylayer.optimizer.sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "lr"]
