"""Adam: adaptive moment estimation."""
import numpy as np

from pylayer.extend import adam_update, check_number
from pylayer.optimizer.optimizer import Optimizer

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam with bias correction, in Paddle's form. At step ``t``::

        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad ** 2
        lr_t = lr * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        param = param - lr_t * m / (sqrt(v) + epsilon * sqrt(1 - beta2 ** t))

    which equals ``lr * m_hat / (sqrt(v_hat) + epsilon)`` with the
    bias-corrected moments. With ``amsgrad=True``, ``v`` in the denominator
    is replaced by its running maximum. ``weight_decay`` (a number means
    ``L2Decay`` of it, adding ``weight_decay * param``) or the parameter's
    regularizer adds its term to ``grad`` before the moments are updated (not
    AdamW's decoupled decay). The state per parameter is ``moment1``, ``moment2``
    (and ``moment2_max``), ``beta1_pow`` and ``beta2_pow``. ``lazy_mode``,
    ``multi_precision`` and ``use_multi_tensor`` are accepted for
    compatibility; gradients are always dense here.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.Adam(learning_rate=0.1, parameters=[w])
    >>> (w * 3.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(6)
    array([0.9])
    """

    _GROUP_SETTINGS = {"beta1": ("_beta1",), "beta2": ("_beta2",), "epsilon": ("_epsilon",),
                       "lazy_mode": ()}

    _decays_sparse_gradients = False

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, use_multi_tensor=False, amsgrad=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        cls = type(self).__name__
        self._beta1 = check_number(beta1, cls, "beta1")
        self._beta2 = check_number(beta2, cls, "beta2")
        self._epsilon = check_number(epsilon, cls, "epsilon")
        for arg, value in (("beta1", self._beta1), ("beta2", self._beta2)):
            if not 0 <= value < 1:
                raise ValueError(f"{cls}(): argument '{arg}' must be in [0, 1), got {value}")
        if self._epsilon < 0:
            raise ValueError(f"{cls}(): argument 'epsilon' must be non-negative, got {epsilon}")
        self._amsgrad = bool(amsgrad)

    def _settings(self):
        return {"beta1": self._beta1, "beta2": self._beta2, "epsilon": self._epsilon,
                "amsgrad": self._amsgrad}

    def _update_array(self, param, grad, state, lr):
        self._adam_update(param, grad, state, lr, None)

    def _adam_update(self, param, grad, state, lr, decay):
        # As Paddle's kernel: the scalars in the parameter's precision (float32 for
        # float32 and narrower), and lr * (m / (sqrt(v) + eps)) in that order; the
        # parameter first multiplied by ``decay`` (AdamW's) unless it is None. One
        # compiled pass for float32/float64 arrays, numpy's passes otherwise, with
        # the same roundings.
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            state["moment1"] = np.zeros_like(param)
            state["moment2"] = np.zeros_like(param)
            if self._amsgrad:
                state["moment2_max"] = np.zeros_like(param)
            state["beta1_pow"] = float(ct(self._beta1))
            state["beta2_pow"] = float(ct(self._beta2))
        one, beta1, beta2 = ct(1), ct(self._beta1), ct(self._beta2)
        beta1_pow, beta2_pow = ct(state["beta1_pow"]), ct(state["beta2_pow"])
        m, v = state["moment1"], state["moment2"]
        v_max = state["moment2_max"] if self._amsgrad else None
        correction = np.sqrt(one - beta2_pow)
        lr_t = ct(lr) * correction / (one - beta1_pow)
        epsilon = ct(self._epsilon) * correction
        if not adam_update(param, grad, m, v, v_max, float(lr_t), float(beta1), float(beta2),
                           float(epsilon), 1.0 if decay is None else float(decay)):
            if decay is not None:
                param *= decay
            m *= beta1
            m += (one - beta1) * grad
            v *= beta2
            v += (one - beta2) * np.square(grad)
            if v_max is not None:
                np.maximum(v_max, v, out=v_max)
                v = v_max
            step = m / (np.sqrt(v) + epsilon)
            step *= lr_t
            param -= step.astype(param.dtype, copy=False)
        state["beta1_pow"] = float(beta1_pow * beta1)
        state["beta2_pow"] = float(beta2_pow * beta2)
