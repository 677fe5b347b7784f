"""RAdam: Adam with the variance of its adaptive rate rectified."""
import numpy as np

from pylayer.extend import check_number
from pylayer.optimizer.optimizer import Optimizer, _attr

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam in Paddle's form. At step ``t``, with ``rho_inf = 2 / (1 - beta2) - 1``::

        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad ** 2
        rho_t = rho_inf - 2 * t * beta2 ** t / (1 - beta2 ** t)
        m_hat = m / (1 - beta1 ** t)
        if rho_t > 5:
            r = sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            param = param - lr * m_hat * r * sqrt(1 - beta2 ** t) / (sqrt(v) + epsilon)
        else:
            param = param - lr * m_hat

    ``weight_decay`` (a number means ``L2Decay`` of it) or the parameter's
    regularizer adds its term to ``grad`` first. The state per parameter is
    ``beta1_pow``, ``beta2_pow``, ``rho`` (``t * beta2 ** t / (1 - beta2 ** t)``),
    ``moment1`` and ``moment2``, each of the parameter's shape as in Paddle.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.RAdam(learning_rate=0.1, parameters=[w])
    >>> (w * 3.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(4)
    array([0.7])
    """

    _GROUP_SETTINGS = {"beta1": ("_beta1",), "beta2": ("_beta2",), "epsilon": ("_epsilon",)}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        settings = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon}
        for arg, value in settings.items():
            settings[arg] = check_number(value, "RAdam", arg)
        for arg in ("beta1", "beta2"):
            if not 0 <= settings[arg] < 1:
                raise ValueError(f"RAdam(): argument '{arg}' must be in [0, 1), "
                                 f"got {settings[arg]}")
        if settings["epsilon"] < 0:
            raise ValueError(f"RAdam(): argument 'epsilon' must be non-negative, "
                             f"got {settings['epsilon']}")
        self._beta1, self._beta2, self._epsilon = (
            _attr(settings[arg]) for arg in ("beta1", "beta2", "epsilon"))

    def _settings(self):
        return {"beta1": self._beta1, "beta2": self._beta2, "epsilon": self._epsilon}

    def _update_array(self, param, grad, state, lr):
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            for key in ("beta1_pow", "beta2_pow", "rho"):
                state[key] = np.ones_like(param)
            state["moment1"] = np.zeros_like(param)
            state["moment2"] = np.zeros_like(param)
        one, two = ct(1), ct(2)
        beta1, beta2 = ct(self._beta1), ct(self._beta2)
        beta1_pow, beta2_pow, rho = state["beta1_pow"], state["beta2_pow"], state["rho"]
        # t * beta2 ** t / (1 - beta2 ** t) from its value at t - 1
        rho *= beta2 * (one - beta2_pow)
        beta1_pow *= beta1
        beta2_pow *= beta2
        rho += beta2_pow
        rho /= one - beta2_pow
        m, v = state["moment1"], state["moment2"]
        m *= beta1
        m += (one - beta1) * grad
        v *= beta2
        v += (one - beta2) * np.square(grad)
        rho_inf = two / (one - beta2) - one
        rho_t = rho_inf - two * rho
        m_hat = m / (one - beta1_pow)
        with np.errstate(invalid="ignore", divide="ignore"):
            rect = np.sqrt((rho_t - 4) * (rho_t - two) * rho_inf
                           / ((rho_inf - 4) * (rho_inf - two) * rho_t))
            adaptive = np.sqrt(one - beta2_pow) / (np.sqrt(v) + ct(self._epsilon))
        step = np.where(rho_t > 5, m_hat * rect * adaptive, m_hat)
        step *= ct(lr)
        param -= step.astype(param.dtype, copy=False)
