"""pylayer: a NumPy-backed autograd library with PaddlePaddle's custom-operator API.

``import pylayer as paddle`` runs code written for ``paddle.autograd.PyLayer``.

>>> import pylayer as paddle
>>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
>>> y = paddle.tanh(x).sum()
>>> y.backward()
>>> x.grad.shape
[2]
"""
try:
    import pylayer._core.engine  # noqa: F401
    import pylayer._kernels.loops  # noqa: F401
    import pylayer.ops.activation, pylayer.ops.arithmetic, pylayer.ops.math  # noqa: F401,E401
    import pylayer.ops.linalg, pylayer.ops.reduction, pylayer.ops.shape  # noqa: F401,E401
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError(
        "pylayer's compiled core is missing or stale ({}). Build it with "
        "`pip install .` (or `pip install -e .` for development) from the project "
        "root; a C compiler and Cython are needed.".format(exc)) from exc

from pylayer._core.tensor import Tensor, is_grad_enabled
from pylayer._kernels.dtypes import (DType, bool_, bfloat16, complex64, complex128, float16,
                                     float32, float64, int8, int16, int32, int64, uint8)
from pylayer._kernels.dtypes import convert_dtype as _convert_dtype
from pylayer._kernels.dtypes import finfo, get_default_dtype, iinfo, set_default_dtype
from pylayer._kernels.dtypes import DType as dtype
from pylayer._core.size import Size
from pylayer.ops.creation import *  # noqa: F401,F403
import pylayer.ops.creation as _creation
from pylayer.ops.arithmetic import *  # noqa: F401,F403
import pylayer.ops.arithmetic as _arithmetic
from pylayer.ops.math import *  # noqa: F401,F403
import pylayer.ops.math as _math
from pylayer.ops.activation import sigmoid
from pylayer.ops.reduction import *  # noqa: F401,F403
import pylayer.ops.reduction as _reduction_ops
from pylayer.ops.shape import *  # noqa: F401,F403
import pylayer.ops.shape as _shape_ops
from pylayer.ops.compare import *  # noqa: F401,F403
import pylayer.ops.compare as _compare
from pylayer.ops.manipulation import *  # noqa: F401,F403
import pylayer.ops.manipulation as _manipulation
from pylayer.ops.linalg import *  # noqa: F401,F403
import pylayer.ops.linalg as _linalg_ops
from pylayer.ops.search import *  # noqa: F401,F403
import pylayer.ops.search as _search
from pylayer.ops.scatter import *  # noqa: F401,F403
import pylayer.ops.scatter as _scatter
from pylayer.ops.complex import *  # noqa: F401,F403,A004 - complex is Paddle's name
import pylayer.ops.complex as _complex_ops
from pylayer.ops.elementwise import *  # noqa: F401,F403
import pylayer.ops.elementwise as _elementwise
from pylayer.ops.special import *  # noqa: F401,F403
import pylayer.ops.special as _special
from pylayer.ops.statistics import *  # noqa: F401,F403
import pylayer.ops.statistics as _statistics
from pylayer.ops.assembly import *  # noqa: F401,F403
import pylayer.ops.assembly as _assembly
from pylayer.ops.selection import *  # noqa: F401,F403
import pylayer.ops.selection as _selection
from pylayer.ops.sampling import *  # noqa: F401,F403
import pylayer.ops.sampling as _sampling
from pylayer.ops.decomposition import *  # noqa: F401,F403
import pylayer.ops.decomposition as _decomposition
from pylayer.ops.conversion import *  # noqa: F401,F403,A004 - range is Paddle's name
import pylayer.ops.conversion as _conversion
from pylayer.ops.inplace import inplace
from pylayer.ops.indexing import getitem, setitem
from pylayer import autograd
from pylayer.autograd import grad, no_grad, enable_grad, set_grad_enabled
from pylayer import fft, incubate, linalg, nn, optimizer, signal, static
from pylayer.nn.param import *  # noqa: F401,F403 - create_parameter, ParamAttr
# functional names Paddle also has at top level (the same objects)
from pylayer.nn.functional import adaptive_avg_pool1d, conv1d, conv2d, group_norm, layer_norm
import pylayer.nn.param as _param
from pylayer.static import enable_static, disable_static, in_dynamic_mode, CPUPlace
from pylayer import _methods, compat, device, extend, framework, version
from pylayer.compat import install_as_paddle
from pylayer.device import set_device, get_device, is_compiled_with_cuda
from pylayer.framework import (async_save, clear_async_save_task_queue, get_flags, load, save,
                               set_flags)

import math as _math_module
import sys as _sys

bool = bool_  # noqa: A001 - Paddle's spelling of the boolean dtype
# Paddle's other names of dtypes (paddle.uint16 is bfloat16, by Paddle's old convention)
float = float32  # noqa: A001
double, half, cfloat, cdouble, uint16 = float64, float16, complex64, complex128, bfloat16
e, pi, inf, nan, newaxis = _math_module.e, _math_module.pi, _math_module.inf, _math_module.nan, None

__version__ = version.full_version

# Written in the forms type checkers read (PEP 561 libraries: a literal list, then
# ``+= module.__all__``), so that ``from pylayer import grad`` counts as exported.
__all__ = ["Tensor", "DType", "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
           "float64", "bfloat16", "complex64", "complex128", "grad", "no_grad",
           "enable_grad", "set_grad_enabled", "is_grad_enabled", "autograd", "incubate", "nn",
           "linalg", "fft", "signal", "version",
           "optimizer", "static", "enable_static", "disable_static", "in_dynamic_mode",
           "CPUPlace", "device", "extend", "framework", "compat", "install_as_paddle", "set_device",
           "get_device", "is_compiled_with_cuda", "save", "load", "async_save",
           "clear_async_save_task_queue", "set_flags", "get_flags", "is_tensor",
           "get_default_dtype", "set_default_dtype", "iinfo", "finfo", "dtype", "Size",
           "float", "double", "half", "cfloat", "cdouble", "uint16",
           "e", "pi", "inf", "nan", "newaxis"]
__all__ += _creation.__all__
__all__ += _arithmetic.__all__
__all__ += _math.__all__
__all__ += ["sigmoid"]
__all__ += _reduction_ops.__all__
__all__ += _shape_ops.__all__
__all__ += _compare.__all__
__all__ += _manipulation.__all__
__all__ += _linalg_ops.__all__
__all__ += _search.__all__
__all__ += _scatter.__all__
__all__ += _complex_ops.__all__
__all__ += _param.__all__
__all__ += _elementwise.__all__
__all__ += _special.__all__
__all__ += _statistics.__all__
__all__ += _assembly.__all__
__all__ += _selection.__all__
__all__ += _sampling.__all__
__all__ += _decomposition.__all__
__all__ += _conversion.__all__
__all__ += ["adaptive_avg_pool1d", "conv1d", "conv2d", "group_norm", "layer_norm"]


def __dir__():
    """What ``dir(pylayer)`` and tab completion offer: the public names (the
    subpackages users import, ``autograd``, ``nn``, ... among them) and the module's
    dunders. Helpers such as ``getitem`` or ``ops`` stay importable, unlisted."""
    return sorted(set(__all__) | {name for name in globals() if name.startswith("__")})


def __getattr__(name):
    # Only names pylayer lacks get here: Paddle's namespaces name the migration guide.
    raise compat._missing_attribute(_sys.modules[__name__], name)


def tensor_methods():
    """Functions that ``Tensor`` exposes as methods (``x.exp()``, ``x.add_(y)``, ...),
    as the table in ``pylayer._methods`` lists them.

    >>> import pylayer as paddle
    >>> paddle.tensor_methods()["exp"] is paddle.exp
    True
    """
    return _TENSOR_METHODS


def _zero_(x):
    return inplace(x, lambda t: zeros_like(t))


def _fill_(x, value):
    return inplace(x, lambda t: full_like(t, value))


def is_tensor(x):
    """Whether ``x`` is a pylayer Tensor (a Parameter is one too).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.is_tensor(paddle.ones([1])), paddle.is_tensor(np.ones(1))
    (True, False)
    """
    return isinstance(x, Tensor)


def _set_value(x, value):
    # Outside the graph, as in Paddle: a trainable parameter may be set too. The value
    # is made without dispatch: in static mode to_tensor would record it.
    value = to_tensor.__wrapped__(value, dtype=x.dtype)
    if value.shape != x.shape:
        raise ValueError(f"set_value: shape {value.shape} does not match the tensor's {x.shape}")
    with no_grad():
        return inplace(x, lambda t: assign(value))


def _put_along_axis_(arr, indices, values, axis, reduce="assign", include_self=True,
                     broadcast=True):
    return inplace(arr, put_along_axis, indices, values, axis, reduce=reduce,
                   include_self=include_self, broadcast=broadcast)


def _gradient(x):
    # Paddle's older spelling of ``x.grad.numpy()``: a copy, or None without a gradient.
    grad = x.grad
    return None if grad is None else grad.numpy().copy()


_EXTRA_METHODS = {"zero_": _zero_, "fill_": _fill_, "set_value": _set_value,
                  "gradient": _gradient,
                  "copy_": lambda x, src, *a: _set_value(x, src),
                  "put_along_axis_": _put_along_axis_, "set_": _manipulation.set_,
                  "repeat": _assembly.repeat, "split_with_sizes": _assembly.split_with_sizes,
                  "uniform_": _sampling.uniform_, "exponential_": _sampling.exponential_,
                  "fill_diagonal_": _selection.fill_diagonal_,
                  "fill_diagonal_tensor": _selection.fill_diagonal_tensor,
                  "fill_diagonal_tensor_": _selection.fill_diagonal_tensor_}

from pylayer import _tensor_extras  # noqa: E402 - reads the namespace above
_EXTRA_METHODS.update(_tensor_extras.METHODS)
# Paddle's Tensor has methods for names of paddle.linalg that paddle lacks (x.cholesky()):
# they are declared in pylayer.linalg; a name of both namespaces is the top-level function.
_TENSOR_METHODS = _methods.build({**vars(linalg), **globals()},
                                 __all__ + linalg.__all__ + linalg.TENSOR_ONLY, _EXTRA_METHODS)
_TENSOR_FUNCTIONS = _methods.tensor_functions(globals())
_core.tensor.install(_TENSOR_FUNCTIONS, autograd.functional.tensor_backward,
                     _core.views.remake_history)
_methods.install(Tensor, _TENSOR_METHODS, _methods.bound_operators(_TENSOR_FUNCTIONS))
