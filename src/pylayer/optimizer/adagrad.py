"""Adagrad: gradient scaled by the root of the accumulated squares."""
import numpy as np

from pylayer.extend import check_number
from pylayer.optimizer.optimizer import Optimizer, _attr

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad in Paddle's form::

        moment = moment + grad ** 2
        param = param - lr * grad / (sqrt(moment) + epsilon)

    with ``moment`` starting at ``initial_accumulator_value``.
    ``weight_decay`` (a number means ``L2Decay`` of it) or the parameter's
    regularizer adds its term to ``grad`` first. The state per parameter is
    ``moment``.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.Adagrad(learning_rate=0.1, epsilon=0.0, parameters=[w])
    >>> (w * 3.0).sum().backward()
    >>> opt.step()
    >>> w.numpy().round(6)
    array([0.9])
    """

    _GROUP_SETTINGS = {"epsilon": ("_epsilon",), "initial_accumulator_value": ("_initial",)}

    def __init__(self, learning_rate, epsilon=1e-06, parameters=None, weight_decay=None,
                 grad_clip=None, name=None, initial_accumulator_value=0.0):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = _attr(check_number(epsilon, "Adagrad", "epsilon"))
        self._initial = check_number(initial_accumulator_value, "Adagrad",
                                     "initial_accumulator_value")

    def _settings(self):
        return {"epsilon": self._epsilon, "initial_accumulator_value": self._initial}

    def _update_array(self, param, grad, state, lr):
        ct = np.float64 if param.dtype == np.float64 else np.float32
        if not state:
            state["moment"] = np.full_like(param, self._initial)
        moment = state["moment"]
        moment += np.square(grad)
        step = grad / (np.sqrt(moment) + ct(self._epsilon))
        step *= ct(lr)
        param -= step.astype(param.dtype, copy=False)
