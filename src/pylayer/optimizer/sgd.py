"""Stochastic gradient descent."""
from pylayer.extend import axpy
from pylayer.optimizer.optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Plain gradient descent: ``param = param - lr * grad``.

    ``grad`` includes the decay term of the parameter's regularizer, else of
    ``weight_decay`` (a number means ``L2Decay`` of it: ``weight_decay * param``),
    and ``lr`` is multiplied by the parameter's ``learning_rate``
    factor from its ParamAttr.

    >>> import pylayer
    >>> w = pylayer.create_parameter([2], 'float32', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> opt = pylayer.optimizer.SGD(learning_rate=0.1, parameters=[w])
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w.numpy()
    array([0.8, 0.8], dtype=float32)
    """

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _update_array(self, param, grad, state, lr):
        axpy(-lr, grad, param)
