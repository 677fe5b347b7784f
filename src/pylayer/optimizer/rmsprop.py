"""RMSProp: gradient scaled by a running root mean square."""
import numpy as np

from pylayer.extend import check_number
from pylayer.optimizer.optimizer import Optimizer, _attr

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    """RMSProp in Paddle's form (``epsilon`` inside the square root)::

        mean_square = rho * mean_square + (1 - rho) * grad ** 2
        mean_grad = rho * mean_grad + (1 - rho) * grad              # centered=True
        denom = mean_square - mean_grad ** 2 if centered else mean_square
        momentum_acc = momentum * momentum_acc + lr * grad / sqrt(denom + epsilon)
        param = param - momentum_acc

    ``weight_decay`` (a number means ``L2Decay`` of it) or the parameter's
    regularizer adds its term to ``grad`` first. The state per parameter is
    ``momentum``, ``mean_square`` and ``mean_grad`` (zeros unless centered).

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.RMSProp(learning_rate=0.1, rho=0.75, epsilon=0.0, parameters=[w])
    >>> (w * 3.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(6)
    array([0.8])
    """

    _GROUP_SETTINGS = {"rho": ("_rho",), "epsilon": ("_epsilon",), "momentum": ("_momentum",),
                       "centered": ("_centered",)}

    def __init__(self, learning_rate, rho=0.95, epsilon=1e-06, momentum=0.0, centered=False,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._rho = _attr(check_number(rho, "RMSProp", "rho"))
        self._epsilon = _attr(check_number(epsilon, "RMSProp", "epsilon"))
        self._momentum = _attr(check_number(momentum, "RMSProp", "momentum"))
        for arg, value in (("rho", self._rho), ("epsilon", self._epsilon),
                           ("momentum", self._momentum)):
            if value < 0:
                raise ValueError(f"RMSProp(): argument '{arg}' must be non-negative, got {value}")
        self._centered = bool(centered)

    def _settings(self):
        return {"rho": self._rho, "epsilon": self._epsilon, "momentum": self._momentum,
                "centered": self._centered}

    def _update_array(self, param, grad, state, lr):
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            state["momentum"] = np.zeros_like(param)
            state["mean_square"] = np.zeros_like(param)
            state["mean_grad"] = np.zeros_like(param)
        one, rho = ct(1), ct(self._rho)
        ms, mom = state["mean_square"], state["momentum"]
        ms *= rho
        ms += (one - rho) * np.square(grad)
        if self._centered:
            mg = state["mean_grad"]
            mg *= rho
            mg += (one - rho) * grad
            denom = ms - np.square(mg)
        else:
            denom = ms.copy()
        denom += ct(self._epsilon)
        mom *= ct(self._momentum)
        mom += ct(lr) * grad / np.sqrt(denom)
        param -= mom.astype(param.dtype, copy=False)
