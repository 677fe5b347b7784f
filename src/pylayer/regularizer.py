"""Weight-decay regularizers: ``L1Decay`` and ``L2Decay``.

An optimizer's ``weight_decay`` or a parameter's ``ParamAttr(regularizer=...)``
takes one; the parameter's own regularizer takes precedence over the
optimizer's. At each step, after gradient clipping, the optimizer adds the
decay term to the gradient: ``grad + coeff * param`` (L2) or
``grad + coeff * sign(param)`` (L1). A number given as ``weight_decay``
means ``L2Decay`` of that coefficient.

>>> import pylayer
>>> from pylayer.regularizer import L2Decay
>>> layer = pylayer.nn.Linear(2, 1)
>>> opt = pylayer.optimizer.SGD(0.1, parameters=layer.parameters(), weight_decay=L2Decay(1e-4))
>>> layer(pylayer.ones([3, 2])).sum().backward(); opt.step(); opt.clear_grad()
"""
import numpy as np

from pylayer.extend import Tensor, check_number

__all__ = ["L1Decay", "L2Decay"]


class WeightDecayRegularizer:
    """Base class of :class:`L1Decay` and :class:`L2Decay`: a coefficient and the
    decay term it adds to a parameter's gradient."""

    def __init__(self, coeff=0.0):
        self._coeff = check_number(coeff, type(self).__name__, "coeff")
        if not np.isfinite(self._coeff):
            raise ValueError(f"{type(self).__name__}(): argument 'coeff' must be a finite "
                             f"number, got {self._coeff}")

    @property
    def coeff(self):
        """The regularization coefficient (a float)."""
        return self._coeff

    def _term(self, param):
        raise NotImplementedError

    def _decayed(self, grad, param):
        """``grad`` plus the decay term of the array ``param``: a new array (``grad``
        is not written into); ``grad`` itself when the coefficient is zero."""
        if not self._coeff:
            return grad
        term = self._term(param)
        term += grad
        return term

    def _tensor_term(self, param):
        raise NotImplementedError

    def __call__(self, param, grad=None, block=None):
        """The decay term of ``param`` (a Tensor of its shape and dtype, recorded, so
        differentiable), which the optimizer adds to the gradient; ``grad`` and ``block``
        are accepted as in Paddle and not used."""
        if not isinstance(param, Tensor):
            raise TypeError(f"{type(self).__name__}(): argument 'param' must be a Tensor, "
                            f"got {type(param).__name__}")
        return self._tensor_term(param)

    def __str__(self):
        return f"{type(self).__name__}, coeff={self._coeff:f}"

    def __repr__(self):
        return f"{type(self).__name__}(coeff={self._coeff!r})"

    def __reduce__(self):
        return type(self), (self._coeff,)


class L1Decay(WeightDecayRegularizer):
    """L1 weight decay: the optimizer adds ``coeff * sign(param)`` to the gradient
    (the gradient of ``coeff * sum(abs(param))``).

    >>> import pylayer
    >>> from pylayer.regularizer import L1Decay
    >>> reg = L1Decay(0.5)
    >>> print(reg)
    L1Decay, coeff=0.500000
    >>> reg(pylayer.to_tensor([-2.0, 0.0, 3.0])).numpy()   # the term added to the gradient
    array([-0.5,  0. ,  0.5], dtype=float32)
    """

    def _term(self, param):
        term = np.sign(param)
        term *= self._coeff
        return term

    def _tensor_term(self, param):
        return param.sign() * self._coeff


class L2Decay(WeightDecayRegularizer):
    """L2 weight decay: the optimizer adds ``coeff * param`` to the gradient (the
    gradient of ``0.5 * coeff * sum(param ** 2)``).

    >>> import pylayer
    >>> from pylayer.regularizer import L2Decay
    >>> w = pylayer.create_parameter([2], 'float64', is_bias=True,
    ...     attr=pylayer.ParamAttr(regularizer=L2Decay(0.5)))
    >>> with pylayer.no_grad():
    ...     _ = w.set_value([1.0, -2.0])
    >>> opt = pylayer.optimizer.SGD(learning_rate=0.1, parameters=[w])
    >>> w.sum().backward(); opt.step()
    >>> w.numpy()   # w - 0.1 * (1 + 0.5 * w)
    array([ 0.85, -2.  ])
    """

    def _term(self, param):
        return np.multiply(param, self._coeff)

    def _tensor_term(self, param):
        return param * self._coeff


def as_regularizer(value):
    """``value`` as a regularizer: None stays None, a number is ``L2Decay(value)``."""
    if value is None or isinstance(value, WeightDecayRegularizer):
        return value
    return L2Decay(value)
