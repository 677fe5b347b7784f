"""What a contributor writing an op, a layer, an optimizer or a rule may import.

Everything here is stable and documented; everything else that starts with an
underscore may change. The layers (``nn``), ``static``, ``optimizer`` and
``framework`` import only from this module and from public names (a test
enforces it).

An op is declared once, as a record, next to its forward:

>>> import numpy as np
>>> import pylayer as paddle
>>> from pylayer.extend import Op, float_tensor, make_output, op, unbroadcast
>>> LOGADDEXP = Op(
...     "logaddexp", inputs=("x", "y"), keeps=("x", "y", "out"),
...     attrs=("x_shape", "y_shape"),
...     vjp=(lambda g, x, out, x_shape: unbroadcast(g * paddle.exp(x - out), x_shape),
...          lambda g, y, out, y_shape: unbroadcast(g * paddle.exp(y - out), y_shape)))
>>> @op
... def logaddexp(x, y, name=None):
...     x = float_tensor(x, "logaddexp", "x", 1, integers_as_float32=True)
...     y = float_tensor(y, "logaddexp", "y", 2, integers_as_float32=True)
...     out = np.logaddexp(x.numpy(), y.numpy())
...     return make_output(LOGADDEXP, out, (x, y), (x.shape, y.shape))
>>> a = paddle.to_tensor([[0.5, 1.0], [2.0, -1.0]], dtype="float64", stop_gradient=False)
>>> b = paddle.to_tensor([2.0, -1.0], dtype="float64", stop_gradient=False)
>>> paddle.autograd.gradcheck(logaddexp, (a, b)), paddle.autograd.gradgradcheck(logaddexp, (a, b))
(True, True)

``Op`` names the inputs, what the rules keep (inputs or outputs, saved and
version-checked) and the attributes the forward passes; a rule ``rule(g, ...)``
takes the output gradient and, by the names of its parameters, what it reads,
and returns the gradient of its input's shape (``unbroadcast`` sums a broadcast
one back).
``op`` makes a function a public op (a static ``Variable`` among its arguments
records the call into the current Program).
"""
from pylayer._core.graph import Op, make_output, make_outputs, needs_grad
from pylayer._core.tensor import Tensor, is_grad_enabled, make_tensor
from pylayer._kernels.dtypes import DType, get_default_dtype
from pylayer._kernels.loops import adam_update, axpy
from pylayer._methods import OPERATORS, operator_method
from pylayer._reprs import Summary, public_settings_repr, settings_repr
from pylayer.ops._arguments import (MAX_ELEMENTS, check_axes, check_axis, check_callable,
                                    check_choice, check_count, check_dtype, check_int,
                                    check_ints, check_number, check_str, describe,
                                    float_tensor, numeric_tensor)
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.reduction import unbroadcast
from pylayer.ops._window_args import window_padding, window_sizes
from pylayer.ops.declaration import declare
from pylayer.ops.dispatch import op
from pylayer.ops.inplace import inplace_twin

__all__ = [
    # ops: the record, recording, making a public op
    "Op", "make_output", "make_outputs", "needs_grad", "op", "declare", "inplace_twin",
    # tensors
    "Tensor", "DType", "make_tensor", "is_grad_enabled", "unbroadcast", "get_default_dtype",
    # arrays: an optimizer's in-place updates
    "axpy", "adam_update",
    # the operators of Tensor, for a class that behaves like one (static Variable)
    "OPERATORS", "operator_method",
    # arguments: each returns the value in a normal form or raises a TypeError or
    # ValueError naming the function and the argument
    "as_tensor_arg", "float_tensor", "numeric_tensor", "check_int", "check_ints",
    "check_number", "check_str", "check_choice", "check_callable", "check_count",
    "check_dtype", "check_axis", "check_axes", "describe", "MAX_ELEMENTS",
    # the window of a convolution or a pooling: sizes and padding in Paddle's forms
    "window_sizes", "window_padding",
    # how settings-like objects (optimizers, layers' helpers) show themselves
    "settings_repr", "public_settings_repr", "Summary",
    # files: the one writer, which replaces a file whole or leaves it as it was
    "write_atomically",
]


def write_atomically(path, data):
    """Put ``data`` (bytes) in the file ``path`` atomically (a temporary file, then a
    rename): the file holds the old contents or the new ones, never a part.

    >>> import os, tempfile
    >>> from pylayer import extend
    >>> path = os.path.join(tempfile.mkdtemp(), "blob")
    >>> extend.write_atomically(path, b"abc")
    >>> open(path, "rb").read()
    b'abc'
    """
    import os
    from pylayer.framework import _files     # late: pylayer.framework imports this module
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"write_atomically(): argument 'path' must be a file name, "
                        f"got {describe(path)}")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"write_atomically(): argument 'data' must be bytes, "
                        f"got {describe(data)}")
    _files.write_atomically(path, bytes(data))
