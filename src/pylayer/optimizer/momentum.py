"""Momentum: gradient descent with a velocity, optionally Nesterov's."""
import numpy as np

from pylayer.extend import check_number
from pylayer.optimizer.optimizer import Optimizer, _attr
from pylayer.regularizer import L2Decay

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """Gradient descent with momentum, in Paddle's form::

        velocity = momentum * velocity + grad
        param = param - lr * velocity                           # plain
        param = param - lr * (grad + momentum * velocity)       # use_nesterov=True

    ``weight_decay`` (a number means ``L2Decay`` of it) or the parameter's
    regularizer adds its term to ``grad`` first. The state per parameter is
    ``velocity``. ``multi_precision`` and ``use_multi_tensor`` are accepted for
    compatibility; ``rescale_grad`` multiplies the gradient.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[w])
    >>> for _ in range(2):
    ...     (w * 3.0).sum().backward(); opt.step(); opt.clear_grad()
    >>> w.numpy().round(6)
    array([0.13])
    """

    _GROUP_SETTINGS = {"momentum": ("_momentum",), "use_nesterov": ("_use_nesterov",),
                       "rescale_grad": ("_rescale_grad",)}

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False,
                 weight_decay=None, grad_clip=None, multi_precision=False, rescale_grad=1.0,
                 use_multi_tensor=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.regularization = self._group_regularizer(self.regularization)
        for group in self._param_groups or ():
            group["regularizer"] = self._group_regularizer(group["regularizer"])
        self._momentum = _attr(check_number(momentum, "Momentum", "momentum"))
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = check_number(rescale_grad, "Momentum", "rescale_grad")

    def _group_regularizer(self, weight_decay):
        regularizer = super()._group_regularizer(weight_decay)
        if isinstance(regularizer, L2Decay):
            # Paddle fuses an L2 decay into its kernel, as a float32 attribute.
            regularizer = L2Decay(_attr(regularizer._coeff))
        return regularizer

    def _settings(self):
        return {"momentum": self._momentum, "use_nesterov": self._use_nesterov}

    def _update_array(self, param, grad, state, lr):
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            state["velocity"] = np.zeros_like(param)
        mu, lr = ct(self._momentum), ct(lr)
        if self._rescale_grad != 1:
            grad = grad * ct(self._rescale_grad)
        velocity = state["velocity"]
        velocity *= mu
        velocity += grad
        if self._use_nesterov:
            param -= ((grad + mu * velocity) * lr).astype(param.dtype, copy=False)
        else:
            param -= (lr * velocity).astype(param.dtype, copy=False)
