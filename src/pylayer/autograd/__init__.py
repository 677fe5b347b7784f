"""Automatic differentiation: backward, grad, grad modes, gradient checks, custom ops."""
from pylayer.autograd.functional import backward, grad
from pylayer.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from pylayer.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "gradcheck", "gradgradcheck", "GradcheckError"]
