"""Paddle's ``paddle.incubate``: the part pylayer has, :mod:`pylayer.incubate.autograd`
(``vjp``, ``jvp``, ``Jacobian``, ``Hessian`` in dynamic mode)."""
from pylayer.incubate import autograd

__all__ = ["autograd"]
