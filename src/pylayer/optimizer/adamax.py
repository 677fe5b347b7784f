"""Adamax: Adam with the infinity norm in place of the second moment."""
import numpy as np

from pylayer.extend import check_number
from pylayer.optimizer.optimizer import Optimizer, _attr

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax in Paddle's form. At step ``t``::

        moment = beta1 * moment + (1 - beta1) * grad
        inf_norm = maximum(beta2 * inf_norm + epsilon, abs(grad))
        param = param - lr / (1 - beta1 ** t) * moment / inf_norm

    ``weight_decay`` (a number means ``L2Decay`` of it) or the parameter's
    regularizer adds its term to ``grad`` first. The state per parameter is
    ``moment``, ``inf_norm`` and ``beta1_pow``.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.Adamax(learning_rate=0.1, parameters=[w])
    >>> (w * 3.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(6)
    array([0.9])
    """

    _GROUP_SETTINGS = {"beta2": ("_beta2",), "epsilon": ("_epsilon",),
                       "beta1": ("_beta1_init", "_beta1")}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        # beta1 ** t is kept with beta1 itself, the moment uses its float32 attribute.
        self._beta1_init = check_number(beta1, "Adamax", "beta1")
        self._beta1 = _attr(self._beta1_init)
        self._beta2 = _attr(check_number(beta2, "Adamax", "beta2"))
        self._epsilon = _attr(check_number(epsilon, "Adamax", "epsilon"))
        for arg, value in (("beta1", self._beta1_init), ("beta2", self._beta2)):
            if not 0 <= value < 1:
                raise ValueError(f"Adamax(): argument '{arg}' must be in [0, 1), got {value}")
        if self._epsilon < 0:
            raise ValueError(f"Adamax(): argument 'epsilon' must be non-negative, got {epsilon}")

    def _settings(self):
        return {"beta1": self._beta1, "beta2": self._beta2, "epsilon": self._epsilon}

    def _update_array(self, param, grad, state, lr):
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            state["moment"] = np.zeros_like(param)
            state["inf_norm"] = np.zeros_like(param)
            state["beta1_pow"] = float(ct(self._beta1_init))
        one, beta1, beta2 = ct(1), ct(self._beta1), ct(self._beta2)
        beta1_pow = ct(state["beta1_pow"])
        moment, inf_norm = state["moment"], state["inf_norm"]
        moment *= beta1
        moment += (one - beta1) * grad
        inf_norm *= beta2
        inf_norm += ct(self._epsilon)
        np.maximum(inf_norm, np.abs(grad), out=inf_norm)
        step = moment / inf_norm
        step *= ct(lr) / (one - beta1_pow)
        param -= step.astype(param.dtype, copy=False)
        state["beta1_pow"] = float(beta1_pow * ct(self._beta1_init))
