"""Adadelta: steps scaled by running averages of squared gradients and updates."""
import numpy as np

from pylayer.extend import check_number
from pylayer.optimizer.optimizer import Optimizer, _attr

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta in Paddle's form::

        avg_squared_grad = rho * avg_squared_grad + (1 - rho) * grad ** 2
        update = -sqrt((avg_squared_update + epsilon) / (avg_squared_grad + epsilon)) * grad
        avg_squared_update = rho * avg_squared_update + (1 - rho) * update ** 2
        param = param + lr * update

    ``weight_decay`` (a number means ``L2Decay`` of it) or the parameter's
    regularizer adds its term to ``grad`` first. The state per parameter is
    ``_avg_squared_grad`` and ``_avg_squared_update`` (Paddle's names).

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.Adadelta(learning_rate=1.0, epsilon=0.01, rho=0.0, parameters=[w])
    >>> (w * 1.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(6)
    array([0.900496])
    """

    _GROUP_SETTINGS = {"epsilon": ("_epsilon",), "rho": ("_rho",)}

    def __init__(self, learning_rate=0.001, epsilon=1e-06, rho=0.95, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = _attr(check_number(epsilon, "Adadelta", "epsilon"))
        self._rho = _attr(check_number(rho, "Adadelta", "rho"))

    def _settings(self):
        return {"epsilon": self._epsilon, "rho": self._rho}

    def _update_array(self, param, grad, state, lr):
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            state["_avg_squared_grad"] = np.zeros_like(param)
            state["_avg_squared_update"] = np.zeros_like(param)
        one, rho, eps = ct(1), ct(self._rho), ct(self._epsilon)
        sq_grad, sq_update = state["_avg_squared_grad"], state["_avg_squared_update"]
        sq_grad *= rho
        sq_grad += (one - rho) * np.square(grad)
        update = -np.sqrt((sq_update + eps) / (sq_grad + eps)) * grad
        sq_update *= rho
        sq_update += (one - rho) * np.square(update)
        param += (ct(lr) * update).astype(param.dtype, copy=False)
