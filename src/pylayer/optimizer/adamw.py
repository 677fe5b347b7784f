"""AdamW: Adam with decoupled weight decay."""
import numpy as np

from pylayer.extend import Tensor, check_number
from pylayer.optimizer.adam import Adam
from pylayer.optimizer.optimizer import _attr

__all__ = ["AdamW"]


class AdamW(Adam):
    """Adam whose weight decay is decoupled from the gradient, in Paddle's form.
    At each step, for a parameter that decays (every parameter, or those whose
    name ``apply_decay_param_fun`` accepts)::

        param = param * (1 - lr * weight_decay)

    and then the ``Adam`` update of ``param`` with ``lr``; ``lr`` is the
    learning rate times ``lr_ratio(param)`` when ``lr_ratio`` is given. The
    decay never enters the moments. A parameter's own ``regularizer`` still
    adds its term to the gradient. The state per parameter is Adam's:
    ``moment1``, ``moment2`` (and ``moment2_max``), ``beta1_pow`` and
    ``beta2_pow``.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.AdamW(learning_rate=0.1, parameters=[w], weight_decay=0.5)
    >>> (w * 3.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(6)
    array([0.85])
    """

    _GROUP_SETTINGS = {"beta1": ("_beta1",), "beta2": ("_beta2",), "epsilon": ("_epsilon",),
                       "lazy_mode": (), "weight_decay": ("_coeff", "_weight_decay")}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=0.01, use_lowprecision_moment=False,
                 lr_ratio=None, apply_decay_param_fun=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, amsgrad=False, name=None):
        if isinstance(weight_decay, Tensor):
            weight_decay = weight_decay.item()
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float, np.number)):
            raise TypeError(f"AdamW(): argument 'weight_decay' must be an int, float or "
                            f"Tensor (the decoupled decay coefficient), "
                            f"got {type(weight_decay).__name__}")
        for arg, fn in (("lr_ratio", lr_ratio), ("apply_decay_param_fun", apply_decay_param_fun)):
            if fn is not None and not callable(fn):
                raise TypeError(f"AdamW(): argument '{arg}' must be callable or None, "
                                f"got {type(fn).__name__}")
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, None, grad_clip,
                         lazy_mode, multi_precision, False, amsgrad, name)
        self._coeff = _attr(weight_decay)
        self._weight_decay = self._coeff
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun
        self._current = None

    def _group_regularizer(self, weight_decay):
        # A group's weight_decay is AdamW's decoupled coefficient, never an L2 term.
        return None

    def _settings(self):
        return {**super()._settings(), "lr_ratio": self._lr_ratio,
                "apply_decay_param_fun": self._apply_decay_param_fun}

    def _state_for(self, param):
        self._current = param
        return super()._state_for(param)

    def _update_array(self, param, grad, state, lr):
        current, self._current = self._current, None
        if current is not None and self._lr_ratio is not None:
            lr = lr * check_number(self._lr_ratio(current), "AdamW", "lr_ratio(param)")
        decay = None
        if current is not None and (self._apply_decay_param_fun is None
                                    or self._apply_decay_param_fun(current.name)):
            ct = np.float64 if param.dtype == np.float64 else np.float32
            decay = ct(1) - ct(lr) * ct(self._coeff)
        self._adam_update(param, grad, state, lr, decay)
