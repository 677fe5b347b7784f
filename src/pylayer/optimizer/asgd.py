"""ASGD: stochastic average gradient over the last ``batch_num`` gradients."""
import numpy as np

from pylayer.extend import check_int
from pylayer.optimizer.optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """Stochastic average gradient, in Paddle's form. It keeps the last ``batch_num``
    gradients ``y`` and their sum ``d``; at step ``m`` (from 0)::

        i = m % batch_num
        d = d - y[i] + grad
        y[i] = grad
        param = param - lr * d / min(m + 1, batch_num)

    ``weight_decay`` (a number means ``L2Decay`` of it) or the parameter's
    regularizer adds its term to ``grad`` first. The state per parameter is
    ``d`` (the parameter's shape), ``y`` (``[batch_num, *shape]``) and ``m`` (the
    step count, an int64 Tensor of one element in the state dict).
    ``multi_precision`` is accepted for compatibility.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.ASGD(learning_rate=0.1, batch_num=2, parameters=[w])
    >>> for _ in range(2):
    ...     (w * 3.0).sum().backward(); opt.step(); opt.clear_grad()
    >>> w.numpy().round(6)
    array([0.4])
    """

    def __init__(self, learning_rate=0.001, batch_num=1, parameters=None, weight_decay=None,
                 grad_clip=None, multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._n = check_int(batch_num, "ASGD", "batch_num", minimum=1)

    def _settings(self):
        return {"batch_num": self._n}

    def _update_array(self, param, grad, state, lr):
        if not state:
            state["d"] = np.zeros_like(param)
            state["y"] = np.zeros((self._n,) + param.shape, dtype=param.dtype)
            state["m"] = np.zeros(1, dtype=np.int64)
        m = int(state["m"][0])
        d, ys = state["d"], state["y"]
        i = m % self._n
        d -= ys[i]
        d += grad
        ys[i] = grad
        step = d / param.dtype.type(min(m + 1, self._n))
        step *= param.dtype.type(lr)
        param -= step
        state["m"][0] = m + 1
