"""NAdam: Adam with Nesterov momentum."""
import numpy as np

from pylayer.extend import check_number
from pylayer.optimizer.optimizer import Optimizer, _attr

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam in Paddle's form. At step ``t``, with ``psi = momentum_decay``::

        mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * psi))
        mu_next = beta1 * (1 - 0.5 * 0.96 ** ((t + 1) * psi))
        mu_product = mu_product * mu_t
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad ** 2
        denom = sqrt(v / (1 - beta2 ** t)) + epsilon
        param = param - lr * (1 - mu_t) / (1 - mu_product) * grad / denom
                      - lr * mu_next / (1 - mu_product * mu_next) * m / denom

    ``weight_decay`` (a number means ``L2Decay`` of it) or the parameter's
    regularizer adds its term to ``grad`` first. The state per parameter is
    ``momentum_decay_pow`` (``0.96 ** t``), ``beta2_pow``, ``mu_product``,
    ``moment1`` and ``moment2``, each of the parameter's shape as in Paddle.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.NAdam(learning_rate=0.1, parameters=[w])
    >>> (w * 3.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(4)
    array([0.8944])
    """

    _GROUP_SETTINGS = {"beta1": ("_beta1",), "beta2": ("_beta2",), "epsilon": ("_epsilon",),
                       "momentum_decay": ("_momentum_decay",)}

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 momentum_decay=0.004, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        settings = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon,
                    "momentum_decay": momentum_decay}
        for arg, value in settings.items():
            settings[arg] = check_number(value, "NAdam", arg)
        for arg in ("beta1", "beta2"):
            if not 0 <= settings[arg] < 1:
                raise ValueError(f"NAdam(): argument '{arg}' must be in [0, 1), "
                                 f"got {settings[arg]}")
        for arg in ("epsilon", "momentum_decay"):
            if settings[arg] < 0:
                raise ValueError(f"NAdam(): argument '{arg}' must be non-negative, "
                                 f"got {settings[arg]}")
        self._beta1, self._beta2, self._epsilon, self._momentum_decay = (
            _attr(settings[arg]) for arg in ("beta1", "beta2", "epsilon", "momentum_decay"))

    def _settings(self):
        return {"beta1": self._beta1, "beta2": self._beta2, "epsilon": self._epsilon,
                "momentum_decay": self._momentum_decay}

    def _update_array(self, param, grad, state, lr):
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            for key in ("momentum_decay_pow", "beta2_pow", "mu_product"):
                state[key] = np.ones_like(param)
            state["moment1"] = np.zeros_like(param)
            state["moment2"] = np.zeros_like(param)
        one, half = ct(1), ct(0.5)
        beta1, beta2, psi = ct(self._beta1), ct(self._beta2), ct(self._momentum_decay)
        decay_pow, beta2_pow, mu_product = (state[k] for k in
                                            ("momentum_decay_pow", "beta2_pow", "mu_product"))
        decay_pow *= ct(0.96)
        beta2_pow *= beta2
        mu_t = beta1 * (one - half * decay_pow ** psi)
        mu_next = beta1 * (one - half * (decay_pow * ct(0.96)) ** psi)
        mu_product *= mu_t
        m, v = state["moment1"], state["moment2"]
        m *= beta1
        m += (one - beta1) * grad
        v *= beta2
        v += (one - beta2) * np.square(grad)
        denom = np.sqrt(v / (one - beta2_pow)) + ct(self._epsilon)
        step = (one - mu_t) / (one - mu_product) * grad
        step += mu_next / (one - mu_product * mu_next) * m
        step *= ct(lr)
        step /= denom
        param -= step.astype(param.dtype, copy=False)
