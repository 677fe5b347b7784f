"""Paddle's ``paddle.framework.io_utils`` questions about a variable: is it a parameter, is
it persistable (saved with a model)."""
from pylayer import Tensor
from pylayer.extend import describe
from pylayer.nn import Parameter as _DynamicParameter
from pylayer.static import Parameter, Variable

__all__ = ["is_parameter", "is_persistable"]


def is_parameter(var):
    """Whether ``var`` is a parameter: one of a layer (or :func:`pylayer.create_parameter`)
    in dynamic mode, or a :class:`pylayer.static.Parameter` of a Program. Anything else,
    a plain Tensor included, is not one.

    >>> import pylayer
    >>> pylayer.framework.is_parameter(pylayer.nn.Linear(2, 3).weight)
    True
    >>> pylayer.framework.is_parameter(pylayer.ones([2]))
    False
    """
    return isinstance(var, (_DynamicParameter, Parameter))


def is_persistable(var):
    """Whether ``var``, a Tensor or a static Variable, is persistable: kept from one run
    to the next and saved with the model (every parameter is).

    >>> import pylayer
    >>> pylayer.framework.is_persistable(pylayer.nn.Linear(2, 3).bias)
    True
    >>> pylayer.framework.is_persistable(pylayer.ones([2]))
    False
    """
    if not isinstance(var, (Tensor, Variable)):
        raise TypeError(f"is_persistable(): argument 'var' must be a Tensor or a static "
                        f"Variable, got {describe(var)}")
    return bool(var.persistable)
