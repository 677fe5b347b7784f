"""Rprop: steps of a per-element size that grows or shrinks with the gradient's sign."""
import numpy as np

from pylayer.extend import check_number, describe
from pylayer.optimizer.lr import LRScheduler
from pylayer.optimizer.optimizer import Optimizer

__all__ = ["Rprop"]


def _pair(value, arg):
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise TypeError(f"Rprop(): argument '{arg}' must be a pair of numbers, "
                        f"got {describe(value)}")
    return tuple(check_number(v, "Rprop", arg) for v in value)


class Rprop(Optimizer):
    """Resilient backpropagation, in Paddle's form. Each element has its own step
    size, starting at ``learning_rate``; at each step, with ``etas = (eta_minus,
    eta_plus)`` and ``learning_rate_range = (low, high)``::

        where grad * prev > 0: size = min(size * eta_plus, high)
        where grad * prev < 0: size = max(size * eta_minus, low), and grad = 0
        param = param - sign(grad) * size
        prev = grad

    It needs ``0 < low <= learning_rate <= high`` and
    ``0 < eta_minus < 1 < eta_plus``. The state per parameter is ``prevs`` and
    ``learning_rates``. ``multi_precision`` is accepted for compatibility.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.Rprop(learning_rate=0.1, parameters=[w])
    >>> for _ in range(2):
    ...     (w * 3.0).sum().backward(); opt.step(); opt.clear_grad()
    >>> w.numpy().round(6)
    array([0.78])
    """

    def __init__(self, learning_rate=0.001, learning_rate_range=(1e-5, 50), parameters=None,
                 etas=(0.5, 1.2), grad_clip=None, multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._learning_rate_range = _pair(learning_rate_range, "learning_rate_range")
        self._etas = _pair(etas, "etas")
        low, high = self._learning_rate_range
        start = low if isinstance(self._learning_rate, LRScheduler) else self._learning_rate
        if not 0.0 < low <= start <= high:
            raise ValueError(f"Rprop(): arguments 'learning_rate' and 'learning_rate_range' "
                             f"must satisfy 0 < learning_rate_range[0] <= learning_rate <= "
                             f"learning_rate_range[1], got {learning_rate} and "
                             f"{tuple(learning_rate_range)}")
        if not 0.0 < self._etas[0] < 1.0 < self._etas[1]:
            raise ValueError(f"Rprop(): argument 'etas' must satisfy 0 < etas[0] < 1 < etas[1], "
                             f"got {tuple(etas)}")

    def _settings(self):
        return {"learning_rate_range": self._learning_rate_range, "etas": self._etas}

    def _update_array(self, param, grad, state, lr):
        if not state:
            state["prevs"] = np.zeros_like(param)
            # Paddle starts every step size at the optimizer's learning rate, without
            # the parameter's (or its group's) learning_rate factor.
            state["learning_rates"] = np.full_like(param, self.get_lr())
        dtype = param.dtype
        (low, high), (eta_minus, eta_plus) = self._learning_rate_range, self._etas
        prevs, sizes = state["prevs"], state["learning_rates"]
        agreement = np.sign(grad * prevs)
        grows, shrinks = agreement > 0, agreement < 0
        sizes[grows] = np.minimum(sizes[grows] * dtype.type(eta_plus), dtype.type(high))
        sizes[shrinks] = np.maximum(sizes[shrinks] * dtype.type(eta_minus), dtype.type(low))
        grad = np.where(shrinks, dtype.type(0), grad)
        param -= (np.sign(grad) * sizes).astype(dtype, copy=False)
        prevs[...] = grad
