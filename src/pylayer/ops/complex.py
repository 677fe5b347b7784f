"""Complex numbers: ``complex`` (a tensor from its real and imaginary parts),
``real``, ``imag``, ``conj``, ``angle``, ``as_complex``, ``as_real`` and ``is_complex``.

Gradients follow Paddle's convention for a real loss ``L``, which PyTorch shares:
the gradient of a complex tensor ``z = a + ib`` is ``dL/da + i dL/db`` (twice the
conjugate Wirtinger derivative), so a step against it lowers ``L``. A holomorphic
op's rule multiplies by the conjugate of its derivative (``exp``'s is
``g * conj(exp(z))``); a real input of an op whose result is complex receives the
real part of its gradient. Each op is declared as a record next to its forward,
and its rules are written with ops, so double backward works.
"""
import numpy as np

from pylayer._kernels import dtypes
from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._arguments import float_tensor, numeric_tensor
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.arithmetic import divide, multiply
from pylayer.ops.compare import equal
from pylayer.ops.declaration import declare
from pylayer.ops.dispatch import op
from pylayer.ops.math import where
from pylayer.ops.reduction import unbroadcast
from pylayer.ops.shape import cast

__all__ = ["complex", "real", "imag", "conj", "angle", "as_complex", "as_real", "is_complex"]

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


def _complex_tensor(x, fn):
    x = as_tensor_arg(x, fn, "x", 1)
    if not dtypes.is_complex(x.numpy().dtype):
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a complex Tensor "
                        f"(complex64 or complex128), got dtype {x.dtype.name}")
    return x


def _as_complex_gradient(g, dtype):
    """A real gradient as the complex dtype of the input it goes to (recorded)."""
    return cast(g, dtype)


# --------------------------------------------------------------- complex
COMPLEX = Op("complex", inputs=("real", "imag"), attrs=("real_shape", "imag_shape"),
             vjp=(lambda g, real_shape: unbroadcast(real(g), real_shape),
                  lambda g, imag_shape: unbroadcast(imag(g), imag_shape)))


@op
def complex(real, imag, name=None):
    """The complex tensor ``real + 1j * imag``, broadcasting the two parts.

    ``real`` and ``imag`` are float32 (giving complex64) or float64 (giving
    complex128) Tensors of one dtype. Their gradients are the real and the
    imaginary part of the result's gradient.

    >>> import pylayer
    >>> z = pylayer.complex(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor([0.5, -1.0]))
    >>> z.dtype, z.numpy()
    (pylayer.complex64, array([1.+0.5j, 2.-1.j ], dtype=complex64))
    """
    real = float_tensor(real, "complex", "real", 1)
    imag = float_tensor(imag, "complex", "imag", 2)
    ra, ia = real.numpy(), imag.numpy()
    if ra.dtype != ia.dtype or ra.dtype not in _COMPLEX_OF:
        raise TypeError(f"complex(): arguments 'real' and 'imag' must both be float32 or both "
                        f"float64, got {real.dtype.name} and {imag.dtype.name}")
    try:
        shape = np.broadcast_shapes(ra.shape, ia.shape)
    except ValueError:
        raise ValueError(f"complex(): real of shape {list(ra.shape)} and imag of shape "
                         f"{list(ia.shape)} cannot be broadcast together") from None
    out = np.empty(shape, _COMPLEX_OF[ra.dtype])
    out.real = ra
    out.imag = ia
    return make_output(COMPLEX, out, (real, imag), (ra.shape, ia.shape))


# ------------------------------------------------------------ real, imag
REAL = Op("real", attrs=("x_dtype",), vjp=(lambda g, x_dtype: _as_complex_gradient(g, x_dtype),))
IMAG = Op("imag", attrs=("x_dtype",),
          vjp=(lambda g, x_dtype: multiply(_as_complex_gradient(g, x_dtype), 1j),))


@op(method=True)
def real(x, name=None):
    """The real part of a complex tensor, as a new float tensor (float32 for complex64).

    Its gradient is the incoming gradient as a complex number with no imaginary
    part. A real tensor is refused, as in Paddle.

    >>> import pylayer
    >>> pylayer.real(pylayer.to_tensor([1 + 2j, -3 - 1j])).numpy()
    array([ 1., -3.], dtype=float32)
    """
    x = _complex_tensor(x, "real")
    a = x.numpy()
    return make_output(REAL, np.array(a.real, copy=True), (x,), (a.dtype,))


@op(method=True)
def imag(x, name=None):
    """The imaginary part of a complex tensor, as a new float tensor.

    Its gradient is ``1j`` times the incoming gradient. A real tensor is
    refused, as in Paddle.

    >>> import pylayer
    >>> pylayer.imag(pylayer.to_tensor([1 + 2j, -3 - 1j])).numpy()
    array([ 2., -1.], dtype=float32)
    """
    x = _complex_tensor(x, "imag")
    a = x.numpy()
    return make_output(IMAG, np.array(a.imag, copy=True), (x,), (a.dtype,))


# ------------------------------------------------------------------ conj
CONJ = Op("conj", vjp=(lambda g: conj(g),))


@op(method=True)
def conj(x, name=None):
    """The complex conjugate, elementwise; a real tensor is copied as it is.

    Its gradient is the conjugate of the incoming gradient.

    >>> import pylayer
    >>> pylayer.conj(pylayer.to_tensor([1 + 2j, 3])).numpy()
    array([1.-2.j, 3.-0.j], dtype=complex64)
    """
    x = numeric_tensor(x, "conj", complex_too=True)
    return make_output(CONJ, np.conj(x.numpy()), (x,))


# ----------------------------------------------------------------- angle
def _angle_grad(g, x):
    """``g * 1j / conj(x)``: the gradient of the argument of ``x`` (0 where x is 0)."""
    turned = multiply(x, 1j)
    squared_norm = where(equal(x, 0), 1.0, multiply(x, conj(x)))
    return multiply(_as_complex_gradient(g, x.numpy().dtype), divide(turned, squared_norm))


ANGLE = Op("angle", keeps=("x",), vjp=(_angle_grad,))
ANGLE_OF_REAL = Op("angle", attrs=("x_shape",),
                   vjp=(lambda g, x_shape: make_tensor(np.zeros(x_shape, g.numpy().dtype)),))


@op(method=True)
def angle(x, name=None):
    """The argument (phase) of each element, in radians in ``(-pi, pi]``, as a float tensor.

    A real tensor gives 0 for elements ``>= 0`` and pi for negative ones, with
    a gradient of zero; integer tensors are refused, as in Paddle. For complex
    ``x`` the gradient is ``g * 1j / conj(x)`` (zero at 0). Saves a complex input.

    >>> import pylayer
    >>> pylayer.angle(pylayer.to_tensor([1j, -1.0 + 0j])).numpy()
    array([1.5707964, 3.1415927], dtype=float32)
    """
    x = float_tensor(x, "angle", complex_too=True)
    a = x.numpy()
    out = np.angle(a).astype(a.real.dtype, copy=False)
    if dtypes.is_complex(a.dtype):
        return make_output(ANGLE, out, (x,))
    return make_output(ANGLE_OF_REAL, out, (x,), (a.shape,))


# ------------------------------------------------------ as_complex, as_real
AS_COMPLEX = Op("as_complex", vjp=(lambda g: as_real(g),))
AS_REAL = Op("as_real", vjp=(lambda g: as_complex(g),))


@op(method=True)
def as_complex(x, name=None):
    """A float tensor whose last dimension has size 2 (real, imaginary) as a complex one.

    float32 gives complex64 and float64 complex128; the result has the shape
    of ``x`` without its last dimension, and new memory. The inverse of
    :func:`as_real`, which is its gradient.

    >>> import pylayer
    >>> pylayer.as_complex(pylayer.to_tensor([[1.0, 2.0], [3.0, -1.0]])).numpy()
    array([1.+2.j, 3.-1.j], dtype=complex64)
    """
    x = float_tensor(x, "as_complex")
    a = x.numpy()
    if a.dtype not in _COMPLEX_OF:
        raise TypeError(f"as_complex(): argument 'x' (position 1) must be a float32 or float64 "
                        f"Tensor, got dtype {x.dtype.name}")
    if a.ndim == 0 or a.shape[-1] != 2:
        raise ValueError(f"as_complex(): argument 'x' (position 1) must have a last dimension "
                         f"of size 2 (the real and imaginary parts), got shape {list(a.shape)}")
    out = np.empty(a.shape[:-1], _COMPLEX_OF[a.dtype])
    out.real = a[..., 0]
    out.imag = a[..., 1]
    return make_output(AS_COMPLEX, out, (x,))


@op(method=True)
def as_real(x, name=None):
    """A complex tensor as a float one with a last dimension of size 2 (real, imaginary).

    complex64 gives float32 and complex128 float64, in new memory. The
    inverse of :func:`as_complex`, which is its gradient.

    >>> import pylayer
    >>> pylayer.as_real(pylayer.to_tensor([1 + 2j, 3 - 1j])).numpy()
    array([[ 1.,  2.],
           [ 3., -1.]], dtype=float32)
    """
    x = _complex_tensor(x, "as_real")
    a = x.numpy()
    return make_output(AS_REAL, np.stack([a.real, a.imag], axis=-1), (x,))


@declare(method=True)
def is_complex(x):
    """Whether ``x`` is a complex Tensor (complex64 or complex128).

    >>> import pylayer
    >>> pylayer.is_complex(pylayer.to_tensor([1j])), pylayer.is_complex(pylayer.ones([1]))
    (True, False)
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"is_complex(): argument 'x' (position 1) must be a Tensor, "
                        f"got {type(x).__name__}")
    return x.dtype.is_complex
