"""Discrete Fourier transforms (``pylayer.fft``) and the short-time Fourier transform
(``pylayer.signal``).

Every transform is one of three ops over a set of axes, computed with ``numpy.fft``:
complex to complex (``fft``, ``ifft`` and their 2-D and n-D forms), real to the half
spectrum (``rfft*``) and half spectrum to real (``irfft*``); the Hermitian transforms
are these with a conjugate (``hfft*`` is ``irfft*`` of the conjugate with the other
normalization, ``ihfft*`` the conjugate of ``rfft*``). ``norm`` scales the forward
transform by 1 (``"backward"``), ``1/sqrt(n)`` (``"ortho"``) or ``1/n``
(``"forward"``), and the inverse by the rest.

Gradients follow Paddle's complex convention (``dL/da + i dL/db`` for ``z = a + ib``):
the gradient of a transform is the adjoint transform with the other normalization,
with the zero padding or cropping of ``n``/``s`` undone, the real part taken for a real
input, and, for the half-spectrum inverse, the bins that stand for two bins of the full
spectrum counted twice. The rules are written with these ops, so they differentiate
again.
"""
import math

import numpy as np

from pylayer._kernels import dtypes
from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._arguments import (check_choice, check_count, check_dtype, check_int,
                                    check_number, describe)
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.arithmetic import multiply
from pylayer.ops.complex import conj, real
from pylayer.ops.dispatch import op
from pylayer.ops.manipulation import concat, roll, slice as slice_op
from pylayer.ops.shape import cast

__all__ = []

FFT_NAMES = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2",
             "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn",
             "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_ONE_AXIS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_NORMS = ("backward", "ortho", "forward")
_OTHER_NORM = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


# ------------------------------------------------------------------ arguments
def _operand(x, fn, real_only):
    """``x`` as a float32/float64 (or, unless ``real_only``, complex) Tensor; integer
    tensors are computed in float32, as in Paddle."""
    x = as_tensor_arg(x, fn, "x", 1)
    dtype = x.numpy().dtype
    if dtypes.is_integer(dtype) and not dtypes.is_bool(dtype):
        return cast(x, "float32")
    allowed = dtype in _COMPLEX_OF or (not real_only and dtype in _COMPLEX_OF.values())
    if not allowed:
        kinds = "float32 or float64" if real_only else "float32, float64, complex64 or complex128"
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a {kinds} (or integer) "
                        f"Tensor, got dtype {x.dtype.name}")
    return x


def _length(n, fn, arg="n"):
    if n is None:
        return None
    n = check_int(n, fn, arg)
    if n < 1:
        raise ValueError(f"{fn}(): argument '{arg}' must be a positive length, got {n}")
    return n


def _int_list(value, fn, arg, count=None):
    if isinstance(value, Tensor):
        value = value.numpy().tolist()
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a list or tuple of ints, got "
                        f"{describe(value)}")
    if count is not None and len(value) != count:
        raise ValueError(f"{fn}(): argument '{arg}' must hold {count} ints, got {len(value)}")
    return [check_int(v, fn, arg) for v in value]


def _axes(values, ndim, fn):
    axes = []
    for axis in values:
        if not -ndim <= axis < ndim:
            raise ValueError(f"{fn}(): argument 'axes': axis {axis} is out of range for a "
                             f"tensor of rank {ndim} (expected {-ndim} <= axis < {ndim})")
        axes.append(axis % ndim)
    if len(set(axes)) != len(axes):
        raise ValueError(f"{fn}(): argument 'axes' must not repeat an axis, got {values}")
    return tuple(axes)


def _plan_1d(x, n, axis, norm, fn):
    norm = check_choice(norm, fn, "norm", _NORMS)
    n = _length(n, fn)
    axis = check_int(axis, fn, "axis")
    if x.ndim == 0:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least one dimension, "
                         f"got a 0-D Tensor")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"{fn}(): argument 'axis': axis {axis} is out of range for a tensor of "
                         f"rank {x.ndim} (expected {-x.ndim} <= axis < {x.ndim})")
    return (axis % x.ndim,), (None if n is None else n,), norm


def _plan_nd(x, s, axes, norm, fn, count=None):
    """``(axes, lengths, norm)``; a length is None where ``s`` gives none (the input's)."""
    norm = check_choice(norm, fn, "norm", _NORMS)
    if count is not None and axes is None:
        raise TypeError(f"{fn}(): argument 'axes' must be a list or tuple of {count} ints, "
                        f"got None")
    s = None if s is None else [_length(v, fn, "s") for v in _int_list(s, fn, "s", count)]
    axes = None if axes is None else _int_list(axes, fn, "axes", count)
    if axes is None:
        if s is not None and len(s) > x.ndim:
            raise ValueError(f"{fn}(): argument 's' has {len(s)} lengths, more than the "
                             f"{x.ndim} dimensions of x")
        axes = list(range(x.ndim - (x.ndim if s is None else len(s)), x.ndim))
    elif s is not None and len(s) != len(axes):
        raise ValueError(f"{fn}(): arguments 's' and 'axes' must have the same length, got "
                         f"{len(s)} and {len(axes)}")
    if not axes:
        raise ValueError(f"{fn}(): there must be at least one axis to transform (x has shape "
                         f"{list(x.shape)})")
    return _axes(axes, x.ndim, fn), tuple(s) if s is not None else (None,) * len(axes), norm


def _sizes(x, axes, lengths):
    return tuple(x.shape[a] if n is None else n for a, n in zip(axes, lengths))


# -------------------------------------------------------------- the three ops
def _fit(t, axes, sizes):
    """``t`` cropped or padded with zeros along ``axes`` to ``sizes`` (recorded ops)."""
    for axis, size in zip(axes, sizes):
        have = t.shape[axis]
        if have > size:
            t = slice_op(t, [axis], [0], [size])
        elif have < size:
            shape = list(t.shape)
            shape[axis] = size - have
            t = concat([t, make_tensor(np.zeros(shape, t.numpy().dtype))], axis=axis)
    return t


def _empty_or(compute, shape, dtype):
    """numpy.fft refuses lengths of 0; Paddle gives an empty result."""
    if 0 in shape:
        return np.zeros(shape, dtype)
    return compute()


def _c2c_vjp(g, axes, sizes, norm, forward, x_sizes, x_real):
    grad = _fit(_c2c(g, axes, sizes, _OTHER_NORM[norm], not forward), axes, x_sizes)
    return real(grad) if x_real else grad


C2C = Op("fft_c2c", attrs=("axes", "sizes", "norm", "forward", "x_sizes", "x_real"),
         vjp=(_c2c_vjp,))


def _c2c(x, axes, sizes, norm, forward):
    """The complex transform of ``x`` (real or complex) over ``axes``, of lengths ``sizes``."""
    a = x.numpy()
    dtype = _COMPLEX_OF.get(a.dtype, a.dtype)
    shape = list(a.shape)
    for axis, size in zip(axes, sizes):
        shape[axis] = size
    transform = np.fft.fftn if forward else np.fft.ifftn
    out = _empty_or(lambda: transform(a, sizes, axes, norm), shape, dtype).astype(dtype, copy=False)
    x_sizes = tuple(a.shape[axis] for axis in axes)
    return make_output(C2C, out, (x,), (axes, sizes, norm, forward, x_sizes,
                                          not dtypes.is_complex(a.dtype)))


def _r2c_vjp(g, axes, sizes, norm, x_sizes):
    full = _fit(g, axes[-1:], sizes[-1:])
    return _fit(real(_c2c(full, axes, sizes, _OTHER_NORM[norm], False)), axes, x_sizes)


R2C = Op("fft_r2c", attrs=("axes", "sizes", "norm", "x_sizes"), vjp=(_r2c_vjp,))


def _r2c(x, axes, sizes, norm):
    """The half spectrum of the real ``x`` over ``axes`` (the last one halved)."""
    a = x.numpy()
    shape = list(a.shape)
    for axis, size in zip(axes, sizes):
        shape[axis] = size
    shape[axes[-1]] = sizes[-1] // 2 + 1
    out = _empty_or(lambda: np.fft.rfftn(a, sizes, axes, norm), shape, _COMPLEX_OF[a.dtype])
    x_sizes = tuple(a.shape[axis] for axis in axes)
    return make_output(R2C, out.astype(_COMPLEX_OF[a.dtype], copy=False), (x,),
                       (axes, sizes, norm, x_sizes))


def _half_weights(n, axis, ndim, dtype):
    """How many bins of the full spectrum each bin of the half one stands for: 2, but 1
    for the zero frequency and (n even) the Nyquist one; shaped to broadcast on ``axis``."""
    weights = np.full(n // 2 + 1, 2.0, dtype)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    shape = [1] * ndim
    shape[axis] = weights.size
    return make_tensor(weights.reshape(shape))


def _c2r_vjp(g, axes, sizes, norm, x_sizes, x_real):
    half = _r2c(g, axes, sizes, _OTHER_NORM[norm])
    half = multiply(half, _half_weights(sizes[-1], axes[-1], g.ndim, g.numpy().dtype))
    grad = _fit(half, axes, x_sizes)
    return real(grad) if x_real else grad


C2R = Op("fft_c2r", attrs=("axes", "sizes", "norm", "x_sizes", "x_real"), vjp=(_c2r_vjp,))


def _c2r(x, axes, sizes, norm):
    """The real signal whose half spectrum over ``axes`` is ``x`` (real or complex)."""
    a = x.numpy()
    complex_dtype = _COMPLEX_OF.get(a.dtype, a.dtype)
    real_dtype = np.dtype(complex_dtype.char.lower())
    shape = list(a.shape)
    for axis, size in zip(axes, sizes):
        shape[axis] = size
    out = _empty_or(lambda: np.fft.irfftn(a, sizes, axes, norm), shape, real_dtype)
    x_sizes = tuple(a.shape[axis] for axis in axes)
    return make_output(C2R, out.astype(real_dtype, copy=False), (x,),
                       (axes, sizes, norm, x_sizes, not dtypes.is_complex(a.dtype)))


def _half_sizes(x, axes, lengths):
    """The output lengths of a half-spectrum inverse: the last one ``2 * (m - 1)``."""
    sizes = list(_sizes(x, axes, lengths))
    if lengths[-1] is None:
        sizes[-1] = 2 * (x.shape[axes[-1]] - 1)
    return tuple(sizes)


# ------------------------------------------------------------- the transforms
def _complex_transform(x, plan, forward, fn):
    axes, lengths, norm = plan
    return _c2c(x, axes, _sizes(x, axes, lengths), norm, forward)


def _real_transform(x, plan, inverse_hermitian, fn):
    axes, lengths, norm = plan
    if inverse_hermitian:
        return conj(_r2c(x, axes, _sizes(x, axes, lengths), _OTHER_NORM[norm]))
    return _r2c(x, axes, _sizes(x, axes, lengths), norm)


def _half_inverse(x, plan, hermitian, fn):
    axes, lengths, norm = plan
    sizes = _half_sizes(x, axes, lengths)
    if sizes[-1] < 1:
        if lengths[-1] is None and x.shape[axes[-1]] == 1:
            shape = list(x.shape)
            for axis, size in zip(axes, sizes):
                shape[axis] = size
            a = x.numpy()
            return make_tensor(np.zeros(shape, np.dtype(_COMPLEX_OF.get(a.dtype, a.dtype)
                                                        .char.lower())))
        raise ValueError(f"{fn}(): the output length must be positive, got {sizes[-1]}")
    if hermitian:
        x, norm = conj(x), _OTHER_NORM[norm]
    return _c2r(x, axes, sizes, norm)


def _one_dim(x, n, axis, norm, fn, kind):
    x = _operand(x, fn, real_only=kind in ("rfft", "ihfft"))
    return _dispatch(x, _plan_1d(x, n, axis, norm, fn), fn, kind)


def _two_dim(x, s, axes, norm, fn, kind):
    x = _operand(x, fn, real_only=kind in ("rfft", "ihfft"))
    return _dispatch(x, _plan_nd(x, s, axes, norm, fn, count=2), fn, kind)


def _n_dim(x, s, axes, norm, fn, kind):
    x = _operand(x, fn, real_only=kind in ("rfft", "ihfft"))
    return _dispatch(x, _plan_nd(x, s, axes, norm, fn), fn, kind)


def _dispatch(x, plan, fn, kind):
    axes, lengths, _ = plan
    shape = list(x.shape)
    for axis, size in zip(axes, lengths):
        shape[axis] = shape[axis] if size is None else size
    check_count(math.prod(shape), fn, "n" if fn in _ONE_AXIS else "s", np.complex128)
    if kind in ("fft", "ifft"):
        return _complex_transform(x, plan, kind == "fft", fn)
    if kind in ("rfft", "ihfft"):
        return _real_transform(x, plan, kind == "ihfft", fn)
    return _half_inverse(x, plan, kind == "hfft", fn)


# ---------------------------------------------------------------- one axis
@op
def fft(x, n=None, axis=-1, norm="backward", name=None):
    """The discrete Fourier transform of ``x`` along ``axis``.

    ``n`` crops or pads ``x`` with zeros to that length first; ``norm`` is
    ``"backward"`` (no scaling), ``"ortho"`` (``1/sqrt(n)``) or ``"forward"``
    (``1/n``). Real input gives complex64 (float32, integers) or complex128
    (float64); complex input keeps its dtype.

    >>> import pylayer
    >>> pylayer.fft.fft(pylayer.to_tensor([1.0, 2.0, 3.0, 4.0])).numpy()
    array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j], dtype=complex64)
    """
    return _one_dim(x, n, axis, norm, "fft", "fft")


@op
def ifft(x, n=None, axis=-1, norm="backward", name=None):
    """The inverse discrete Fourier transform of ``x`` along ``axis``.

    With ``norm="backward"`` the result is scaled by ``1/n``; ``n`` and the
    dtypes are as in :func:`fft`.

    >>> import pylayer
    >>> pylayer.fft.ifft(pylayer.to_tensor([4.0, 0.0, 0.0, 0.0])).numpy()
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex64)
    """
    return _one_dim(x, n, axis, norm, "ifft", "ifft")


@op
def rfft(x, n=None, axis=-1, norm="backward", name=None):
    """The Fourier transform of the real ``x`` along ``axis``: the ``n // 2 + 1``
    non-negative frequencies (the others are their conjugates).

    ``x`` is float32, float64 or an integer tensor; complex input is refused.

    >>> import pylayer
    >>> pylayer.fft.rfft(pylayer.to_tensor([1.0, 2.0, 3.0, 4.0])).numpy()
    array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex64)
    """
    return _one_dim(x, n, axis, norm, "rfft", "rfft")


@op
def irfft(x, n=None, axis=-1, norm="backward", name=None):
    """The inverse of :func:`rfft`: the real signal of length ``n`` (by default
    ``2 * (m - 1)`` for ``m`` frequencies) whose non-negative frequencies are ``x``.

    complex64 gives float32 and complex128 float64; the imaginary parts of the
    zero (and, for even ``n``, the highest) frequency are ignored.

    >>> import pylayer
    >>> pylayer.fft.irfft(pylayer.to_tensor([10.0 + 0j, -2 + 2j, -2])).numpy()
    array([1., 2., 3., 4.], dtype=float32)
    """
    return _one_dim(x, n, axis, norm, "irfft", "irfft")


@op
def hfft(x, n=None, axis=-1, norm="backward", name=None):
    """The Fourier transform of a signal with Hermitian symmetry given by its first
    half ``x``: a real result of length ``n`` (by default ``2 * (m - 1)``).

    >>> import pylayer
    >>> pylayer.fft.hfft(pylayer.to_tensor([1.0 + 0j, 2, 3])).numpy()
    array([ 8., -2.,  0., -2.], dtype=float32)
    """
    return _one_dim(x, n, axis, norm, "hfft", "hfft")


@op
def ihfft(x, n=None, axis=-1, norm="backward", name=None):
    """The inverse of :func:`hfft`: the first ``n // 2 + 1`` values of the inverse
    Fourier transform of the real ``x`` (scaled by ``1/n`` with ``norm="backward"``).

    >>> import pylayer
    >>> pylayer.fft.ihfft(pylayer.to_tensor([1.0, 2.0, 3.0, 4.0])).numpy()
    array([ 2.5-0.j , -0.5-0.5j, -0.5-0.j ], dtype=complex64)
    """
    return _one_dim(x, n, axis, norm, "ihfft", "ihfft")


# ------------------------------------------------------------------- two axes
@op
def fft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-D discrete Fourier transform over ``axes`` (two ints).

    ``s`` (two lengths) crops or pads ``x`` along those axes first.

    >>> import pylayer
    >>> pylayer.fft.fft2(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy()
    array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]], dtype=complex64)
    """
    return _two_dim(x, s, axes, norm, "fft2", "fft")


@op
def ifft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-D inverse discrete Fourier transform over ``axes``.

    >>> import pylayer
    >>> pylayer.fft.ifft2(pylayer.to_tensor([[4.0, 0.0], [0.0, 0.0]])).numpy()
    array([[1.+0.j, 1.+0.j],
           [1.+0.j, 1.+0.j]], dtype=complex64)
    """
    return _two_dim(x, s, axes, norm, "ifft2", "ifft")


@op
def rfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-D Fourier transform of the real ``x``, halved along the last of ``axes``.

    >>> import pylayer
    >>> pylayer.fft.rfft2(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy()
    array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]], dtype=complex64)
    """
    return _two_dim(x, s, axes, norm, "rfft2", "rfft")


@op
def irfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The inverse of :func:`rfft2`: a real result, ``s[-1]`` (by default
    ``2 * (m - 1)``) long along the last of ``axes``.

    >>> import pylayer
    >>> pylayer.fft.irfft2(pylayer.to_tensor([[4.0 + 0j, 0.0], [0.0, 0.0]])).numpy()
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    return _two_dim(x, s, axes, norm, "irfft2", "irfft")


@op
def hfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-D Fourier transform of a Hermitian-symmetric signal given by its half
    ``x`` (halved along the last of ``axes``); the result is real.

    >>> import pylayer
    >>> pylayer.fft.hfft2(pylayer.to_tensor([[1.0 + 0j, 0.0], [0.0, 0.0]])).numpy()
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    return _two_dim(x, s, axes, norm, "hfft2", "hfft")


@op
def ihfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The inverse of :func:`hfft2`: the half (along the last of ``axes``) of the
    2-D inverse Fourier transform of the real ``x``.

    >>> import pylayer
    >>> pylayer.fft.ihfft2(pylayer.to_tensor([[1.0, 1.0], [1.0, 1.0]])).numpy()
    array([[1.-0.j, 0.-0.j],
           [0.-0.j, 0.-0.j]], dtype=complex64)
    """
    return _two_dim(x, s, axes, norm, "ihfft2", "ihfft")


# --------------------------------------------------------------------- n axes
@op
def fftn(x, s=None, axes=None, norm="backward", name=None):
    """The n-D discrete Fourier transform over ``axes`` (by default all of them, or
    the last ``len(s)``), cropped or padded to the lengths ``s`` first.

    >>> import pylayer
    >>> pylayer.fft.fftn(pylayer.ones([2, 2])).numpy()
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]], dtype=complex64)
    """
    return _n_dim(x, s, axes, norm, "fftn", "fft")


@op
def ifftn(x, s=None, axes=None, norm="backward", name=None):
    """The n-D inverse discrete Fourier transform over ``axes``.

    >>> import pylayer
    >>> pylayer.fft.ifftn(pylayer.ones([2, 2])).numpy()
    array([[1.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]], dtype=complex64)
    """
    return _n_dim(x, s, axes, norm, "ifftn", "ifft")


@op
def rfftn(x, s=None, axes=None, norm="backward", name=None):
    """The n-D Fourier transform of the real ``x``, halved along the last of ``axes``.

    >>> import pylayer
    >>> pylayer.fft.rfftn(pylayer.ones([2, 4])).numpy()
    array([[8.+0.j, 0.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j, 0.+0.j]], dtype=complex64)
    """
    return _n_dim(x, s, axes, norm, "rfftn", "rfft")


@op
def irfftn(x, s=None, axes=None, norm="backward", name=None):
    """The inverse of :func:`rfftn`: a real result, ``s[-1]`` (by default
    ``2 * (m - 1)``) long along the last of ``axes``.

    >>> import pylayer
    >>> pylayer.fft.irfftn(pylayer.to_tensor([[8.0 + 0j, 0, 0], [0, 0, 0]])).numpy()
    array([[1., 1., 1., 1.],
           [1., 1., 1., 1.]], dtype=float32)
    """
    return _n_dim(x, s, axes, norm, "irfftn", "irfft")


@op
def hfftn(x, s=None, axes=None, norm="backward", name=None):
    """The n-D Fourier transform of a Hermitian-symmetric signal given by its half
    ``x`` (halved along the last of ``axes``); the result is real.

    >>> import pylayer
    >>> pylayer.fft.hfftn(pylayer.ones([2, 3], dtype="complex64")).numpy()
    array([[8., 0., 0., 0.],
           [0., 0., 0., 0.]], dtype=float32)
    """
    return _n_dim(x, s, axes, norm, "hfftn", "hfft")


@op
def ihfftn(x, s=None, axes=None, norm="backward", name=None):
    """The inverse of :func:`hfftn`: the half (along the last of ``axes``) of the
    n-D inverse Fourier transform of the real ``x``.

    >>> import pylayer
    >>> pylayer.fft.ihfftn(pylayer.ones([2, 3])).numpy()
    array([[1.-0.j, 0.-0.j],
           [0.-0.j, 0.-0.j]], dtype=complex64)
    """
    return _n_dim(x, s, axes, norm, "ihfftn", "ihfft")


# ------------------------------------------------------ frequencies and shifts
def _frequencies(n, d, dtype, fn, half):
    n = check_int(n, fn, "n")
    d = check_number(d, fn, "d")
    if n == 0 or d == 0:
        raise ValueError(f"{fn}(): arguments 'n' and 'd' must not be 0, got n={n} and d={d}")
    np_dtype = check_dtype(dtype, fn, kinds="biuf")
    if np_dtype is None or not dtypes.is_floating(np_dtype):
        np_dtype = np.dtype(np.float32)       # integer dtypes give float32, as in Paddle
    if n < 0:
        return make_tensor(np.zeros(0, np_dtype))
    values = np.fft.rfftfreq(n, d) if half else np.fft.fftfreq(n, d)
    return make_tensor(values.astype(np_dtype))


@op(records_without_variables=True)
def fftfreq(n, d=1.0, dtype=None, name=None):
    """The sample frequencies of an ``n``-point transform with sample spacing ``d``:
    ``[0, 1, ..., ceil(n/2) - 1, -floor(n/2), ..., -1] / (d * n)``.

    float32 unless ``dtype`` is float64 (an integer ``dtype`` gives float32, as in
    Paddle).

    >>> import pylayer
    >>> pylayer.fft.fftfreq(4, d=0.5).numpy()
    array([ 0. ,  0.5, -1. , -0.5], dtype=float32)
    """
    return _frequencies(n, d, dtype, "fftfreq", False)


@op(records_without_variables=True)
def rfftfreq(n, d=1.0, dtype=None, name=None):
    """The non-negative sample frequencies of an ``n``-point real transform (those of
    :func:`rfft`): ``[0, 1, ..., n // 2] / (d * n)``.

    >>> import pylayer
    >>> pylayer.fft.rfftfreq(4, d=0.5).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    return _frequencies(n, d, dtype, "rfftfreq", True)


def _shift(x, axes, fn, inverse):
    x = as_tensor_arg(x, fn, "x", 1)
    if axes is None:
        axes = list(range(x.ndim))
    elif isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        axes = [axes]
    axes = _axes(_int_list(axes, fn, "axes"), x.ndim, fn) if x.ndim else ()
    if not axes:
        return roll(x, [0], None)
    shifts = [-(x.shape[a] // 2) if inverse else x.shape[a] // 2 for a in axes]
    return roll(x, shifts, list(axes))


@op
def fftshift(x, axes=None, name=None):
    """Move the zero frequency to the middle: roll each of ``axes`` (by default all) by
    half its length.

    >>> import pylayer
    >>> pylayer.fft.fftshift(pylayer.fft.fftfreq(5)).numpy()
    array([-0.4, -0.2,  0. ,  0.2,  0.4], dtype=float32)
    """
    return _shift(x, axes, "fftshift", False)


@op
def ifftshift(x, axes=None, name=None):
    """The inverse of :func:`fftshift`: the zero frequency back to the front.

    >>> import pylayer
    >>> pylayer.fft.ifftshift(pylayer.to_tensor([-2, -1, 0, 1, 2])).numpy()
    array([ 0,  1,  2, -2, -1])
    """
    return _shift(x, axes, "ifftshift", True)
