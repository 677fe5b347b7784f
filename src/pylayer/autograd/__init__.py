"""Automatic differentiation: backward, grad, grad modes, gradient checks, custom ops."""
from pylayer.autograd.functional import backward, grad
from pylayer.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from pylayer.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from pylayer.autograd.py_layer import Function, PyLayer, PyLayerContext, once_differentiable
from pylayer.autograd.saved_hooks import saved_tensors_hooks
from pylayer.autograd.anomaly import detect_anomaly
from pylayer.autograd.autograd import Hessian, Jacobian, hessian, jacobian
from pylayer.autograd.opcheck import OpcheckEntry, OpcheckReport, opcheck
from pylayer.autograd import graph, py_layer  # noqa: F401 - submodules, as in Paddle/PyTorch

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "gradcheck", "gradgradcheck", "GradcheckError",
           "PyLayer", "PyLayerContext", "Function", "once_differentiable",
           "saved_tensors_hooks", "detect_anomaly", "jacobian", "hessian", "Jacobian",
           "Hessian", "opcheck", "OpcheckReport", "OpcheckEntry"]
