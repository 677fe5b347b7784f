"""Lamb: Adam's step scaled layer-wise by the trust ratio of norms."""
import numpy as np

from pylayer.extend import check_callable, check_number
from pylayer.optimizer.optimizer import Optimizer, _attr

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """Lamb in Paddle's form. At step ``t``::

        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad ** 2
        r = (m / (1 - beta1 ** t)) / (sqrt(v / (1 - beta2 ** t)) + epsilon)
            + lamb_weight_decay * param
        ratio = norm(param) / norm(r)     (1 when either norm is 0)
        param = param - lr * ratio * r

    A parameter for which ``exclude_from_weight_decay_fn(param)`` is true has
    no decay term, and then ``ratio`` is 1 unless ``always_adapt``. The state
    per parameter is ``moment1``, ``moment2``, ``beta1_pow`` and ``beta2_pow``.
    ``multi_precision`` is accepted for compatibility.

    >>> import pylayer
    >>> w = pylayer.create_parameter([2], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.Lamb(learning_rate=0.1, lamb_weight_decay=0.0, parameters=[w])
    >>> (w * 3.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(4)
    array([0.9, 0.9])
    """

    _GROUP_SETTINGS = {"epsilon": ("_epsilon",), "lamb_weight_decay": ("_lamb_weight_decay",),
                       "exclude_from_weight_decay_fn": ("_exclude_from_weight_decay_fn",),
                       "beta1": ("_beta1", "_beta1_pow_start"),
                       "beta2": ("_beta2", "_beta2_pow_start")}

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999,
                 epsilon=1e-06, parameters=None, grad_clip=None,
                 exclude_from_weight_decay_fn=None, multi_precision=False, always_adapt=False,
                 name=None):
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        settings = {"lamb_weight_decay": lamb_weight_decay, "beta1": beta1, "beta2": beta2,
                    "epsilon": epsilon}
        for arg, value in settings.items():
            settings[arg] = check_number(value, "Lamb", arg)
        # The powers of beta start at beta itself; the kernel's attributes are float32.
        self._beta1_pow_start, self._beta2_pow_start = settings["beta1"], settings["beta2"]
        self._lamb_weight_decay, self._beta1, self._beta2, self._epsilon = (
            _attr(settings[arg]) for arg in ("lamb_weight_decay", "beta1", "beta2", "epsilon"))
        self._exclude_from_weight_decay_fn = check_callable(
            exclude_from_weight_decay_fn, "Lamb", "exclude_from_weight_decay_fn", allow_none=True)
        self.always_adapt = bool(always_adapt)
        self._current = None

    def _settings(self):
        return {"lamb_weight_decay": self._lamb_weight_decay, "beta1": self._beta1,
                "beta2": self._beta2, "epsilon": self._epsilon,
                "always_adapt": self.always_adapt}

    def _state_for(self, param):
        self._current = param
        return super()._state_for(param)

    def _update_array(self, param, grad, state, lr):
        current, self._current = self._current, None
        decay = self._lamb_weight_decay
        if current is not None and self._exclude_from_weight_decay_fn is not None \
                and self._exclude_from_weight_decay_fn(current):
            decay = 0.0
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            state["moment1"] = np.zeros_like(param)
            state["moment2"] = np.zeros_like(param)
            state["beta1_pow"] = float(ct(self._beta1_pow_start))
            state["beta2_pow"] = float(ct(self._beta2_pow_start))
        one, beta1, beta2 = ct(1), ct(self._beta1), ct(self._beta2)
        beta1_pow, beta2_pow = ct(state["beta1_pow"]), ct(state["beta2_pow"])
        m, v = state["moment1"], state["moment2"]
        m *= beta1
        m += (one - beta1) * grad
        v *= beta2
        v += (one - beta2) * np.square(grad)
        trust = (m / (one - beta1_pow)) / (np.sqrt(v / (one - beta2_pow)) + ct(self._epsilon))
        trust += ct(decay) * param
        ratio = one
        if decay != 0 or self.always_adapt:
            p_norm, t_norm = np.linalg.norm(param), np.linalg.norm(trust)
            if p_norm > 0 and t_norm > 0:
                ratio = p_norm / t_norm
        trust *= ct(lr) * ratio
        param -= trust.astype(param.dtype, copy=False)
        state["beta1_pow"] = float(beta1_pow * beta1)
        state["beta2_pow"] = float(beta2_pow * beta2)
