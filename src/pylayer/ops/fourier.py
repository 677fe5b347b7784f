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
from pylayer.ops.arithmetic import divide, multiply
from pylayer.ops.complex import conj, real
from pylayer.ops.dispatch import op
from pylayer.ops.indexing import scatter_add, take
from pylayer.ops.manipulation import concat, flip, roll, slice as slice_op
from pylayer.ops.shape import broadcast_to, cast, squeeze, transpose, unsqueeze

__all__ = []

_ONE_AXIS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_NORMS = ("backward", "ortho", "forward")
_OTHER_NORM = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


def _real_of(dtype):
    """The real dtype of a float or complex dtype (float32 for complex64)."""
    return np.dtype(_COMPLEX_OF.get(dtype, dtype).char.lower())


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
    real_dtype = _real_of(a.dtype)
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
def _complex_transform(x, plan, forward):
    axes, lengths, norm = plan
    return _c2c(x, axes, _sizes(x, axes, lengths), norm, forward)


def _real_transform(x, plan, inverse_hermitian):
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
            return make_tensor(np.zeros(shape, _real_of(x.numpy().dtype)))
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
        return _complex_transform(x, plan, kind == "fft")
    if kind in ("rfft", "ihfft"):
        return _real_transform(x, plan, kind == "ihfft")
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
    check_count(n, fn, "n", np.float64)
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


# ------------------------------------------------------ short-time transforms
def _signal_operand(x, fn, arg, position):
    """A float32/float64/complex Tensor (integers as float32)."""
    x = as_tensor_arg(x, fn, arg, position)
    dtype = x.numpy().dtype
    if dtypes.is_integer(dtype) and not dtypes.is_bool(dtype):
        return cast(x, "float32")
    if dtype not in _COMPLEX_OF and dtype not in _COMPLEX_OF.values():
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a float32, "
                        f"float64, complex64 or complex128 (or integer) Tensor, got dtype "
                        f"{x.dtype.name}")
    return x


def _window(window, win_length, n_fft, dtype, fn):
    """The window as a Tensor of ``n_fft`` values, zero-padded on both sides (ones of
    ``dtype`` when None)."""
    if window is None:
        window = make_tensor(np.ones(win_length, dtype))
    else:
        window = _signal_operand(window, fn, "window", 5)
        if window.ndim != 1 or window.shape[0] != win_length:
            raise ValueError(f"{fn}(): argument 'window' must be a 1-D Tensor of win_length "
                             f"({win_length}) values, got shape {list(window.shape)}")
    left = (n_fft - win_length) // 2
    return _fit(concat([make_tensor(np.zeros(left, window.numpy().dtype)), window])
                if left else window, (0,), (n_fft,))


def _frame_lengths(n_fft, hop_length, win_length, fn):
    n_fft = check_int(n_fft, fn, "n_fft")
    if n_fft < 1:
        raise ValueError(f"{fn}(): argument 'n_fft' must be positive, got {n_fft}")
    hop_length = n_fft // 4 if hop_length is None else check_int(hop_length, fn, "hop_length")
    if hop_length < 1:
        raise ValueError(f"{fn}(): argument 'hop_length' must be positive, got {hop_length}")
    win_length = n_fft if win_length is None else check_int(win_length, fn, "win_length")
    if not 0 < win_length <= n_fft:
        raise ValueError(f"{fn}(): argument 'win_length' must be in (0, n_fft ({n_fft})], got "
                         f"{win_length}")
    return n_fft, hop_length, win_length


def _frame_index(n_frames, n_fft, hop_length):
    """``x[:, index]`` is ``x``'s frames, ``[batch, frame, offset]``."""
    starts = np.arange(n_frames)[:, None] * hop_length
    return (slice(None), starts + np.arange(n_fft)[None, :])


def _reflect(x, pad):
    """``x`` (batch, length) with ``pad`` values mirrored at each end (recorded)."""
    length = x.shape[-1]
    left = flip(slice_op(x, [1], [1], [pad + 1]), [1])
    right = flip(slice_op(x, [1], [length - pad - 1], [length - 1]), [1])
    return concat([left, x, right], axis=1)


def _last_two_swapped(x):
    return transpose(x, [0, 2, 1])


@op
def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, name=None):
    """The short-time Fourier transform: the Fourier transform of each window of ``x``.

    ``x`` is a signal ``[length]`` or a batch ``[batch, length]`` (float, integer
    or complex). Frames of ``n_fft`` values start every ``hop_length`` (default
    ``n_fft // 4``) values; each is multiplied by ``window`` (``win_length`` values,
    default ones, zero-padded to ``n_fft`` on both sides). With ``center`` the signal
    is first padded by ``n_fft // 2`` at each end (``pad_mode`` ``"reflect"`` or
    ``"constant"``). ``normalized`` scales by ``1/sqrt(n_fft)``; ``onesided`` (the
    default for real input and window) keeps the ``n_fft // 2 + 1`` non-negative
    frequencies. The result is ``[..., frequencies, frames]``, complex.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    >>> pylayer.signal.stft(x, 4, hop_length=2, center=False).numpy()
    array([[10.+0.j, 18.+0.j],
           [-2.+2.j, -2.+2.j],
           [-2.+0.j, -2.+0.j]], dtype=complex64)
    """
    fn = "stft"
    x = _signal_operand(x, fn, "x", 1)
    if x.ndim not in (1, 2):
        raise ValueError(f"{fn}(): argument 'x' (position 1) must be a 1-D or 2-D Tensor, got "
                         f"{x.ndim}-D")
    n_fft, hop_length, win_length = _frame_lengths(n_fft, hop_length, win_length, fn)
    if n_fft > x.shape[-1]:
        raise ValueError(f"{fn}(): argument 'n_fft' must be in (0, the signal length "
                         f"({x.shape[-1]})], got {n_fft}")
    pad_mode = check_choice(pad_mode, fn, "pad_mode", ("reflect", "constant"))
    if onesided is not None and not isinstance(onesided, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument 'onesided' must be a bool or None, got "
                        f"{describe(onesided)}")
    window = _window(window, win_length, n_fft, x.numpy().dtype, fn)
    signal = unsqueeze(x, 0) if x.ndim == 1 else x
    if center:
        pad = n_fft // 2
        if pad_mode == "reflect" and pad:
            signal = _reflect(signal, pad)
        elif pad:
            zeros = make_tensor(np.zeros((signal.shape[0], pad), signal.numpy().dtype))
            signal = concat([zeros, signal, zeros], axis=1)
    n_frames = 1 + (signal.shape[1] - n_fft) // hop_length
    check_count(signal.shape[0] * n_frames * n_fft, fn, "n_fft", np.complex128)
    frames = multiply(take(signal, _frame_index(n_frames, n_fft, hop_length), True, "frame"),
                      window)
    is_complex_frames = dtypes.is_complex(frames.numpy().dtype)
    if onesided is None:
        onesided = not is_complex_frames
    if onesided and is_complex_frames:
        raise ValueError(f"{fn}(): argument 'onesided' must be False when x or window is "
                         f"complex")
    norm = "ortho" if normalized else "backward"
    if onesided:
        spectrum = _r2c(frames, (2,), (n_fft,), norm)
    else:
        spectrum = _c2c(frames, (2,), (n_fft,), norm, True)
    spectrum = _last_two_swapped(spectrum)
    return squeeze(spectrum, [0]) if x.ndim == 1 else spectrum


@op
def istft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=True, length=None, return_complex=False, name=None):
    """The inverse of :func:`stft`: the signal from its short-time Fourier transform.

    ``x`` is ``[frequencies, frames]`` or ``[batch, frequencies, frames]``, with
    ``n_fft // 2 + 1`` frequencies when ``onesided`` and ``n_fft`` otherwise. Each
    frame is transformed back, multiplied by the window, and the frames are added
    where they overlap, then divided by the sum of the squared windows there (which
    must not vanish: the NOLA condition). ``center`` drops the ``n_fft // 2`` values
    :func:`stft` padded at each end; ``length`` cuts (or pads with zeros) the result
    to that length. ``return_complex`` (with ``onesided=False``) gives a complex
    signal; otherwise it is real.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    >>> spectrum = pylayer.signal.stft(x, 4, hop_length=1)
    >>> pylayer.signal.istft(spectrum, 4, hop_length=1).numpy()
    array([1., 2., 3., 4., 5., 6., 7., 8.], dtype=float32)
    """
    fn = "istft"
    x = _signal_operand(x, fn, "x", 1)
    if x.ndim not in (2, 3):
        raise ValueError(f"{fn}(): argument 'x' (position 1) must be a 2-D or 3-D Tensor "
                         f"[..., frequencies, frames], got {x.ndim}-D")
    n_fft, hop_length, win_length = _frame_lengths(n_fft, hop_length, win_length, fn)
    if hop_length > win_length:
        raise ValueError(f"{fn}(): argument 'hop_length' must be in (0, win_length "
                         f"({win_length})], got {hop_length}")
    if x.size == 0:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must not be empty, got shape "
                         f"{list(x.shape)}")
    bins = n_fft // 2 + 1 if onesided else n_fft
    if x.shape[-2] != bins:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have {bins} frequencies "
                         f"(n_fft{' // 2 + 1' if onesided else ''}) with onesided="
                         f"{bool(onesided)}, got {x.shape[-2]}")
    length = None if length is None else check_int(length, fn, "length")
    if length is not None and length < 1:
        raise ValueError(f"{fn}(): argument 'length' must be positive, got {length}")
    if length is not None:
        check_count(length * (x.size // (x.shape[-1] * x.shape[-2])), fn, "length",
                    np.complex128)
    if return_complex and onesided:
        raise ValueError(f"{fn}(): argument 'onesided' must be False with return_complex=True")
    real_dtype = _real_of(x.numpy().dtype)
    window = _window(window, win_length, n_fft, real_dtype, fn)
    if dtypes.is_complex(window.numpy().dtype) and not return_complex:
        raise ValueError(f"{fn}(): argument 'window' must be real when return_complex is False")
    spectrum = _last_two_swapped(unsqueeze(x, 0) if x.ndim == 2 else x)
    norm = "ortho" if normalized else "backward"
    if return_complex:
        frames = _c2c(spectrum, (2,), (n_fft,), norm, False)
    else:
        if not onesided:
            spectrum = slice_op(spectrum, [2], [0], [n_fft // 2 + 1])
        frames = _c2r(spectrum, (2,), (n_fft,), norm)
    frames = multiply(frames, window)
    batch, n_frames = frames.shape[0], frames.shape[1]
    total = n_fft + hop_length * (n_frames - 1)
    index = _frame_index(n_frames, n_fft, hop_length)
    signal = scatter_add(frames, (batch, total), index, True, "frame")
    squares = broadcast_to(multiply(window, window), [1, n_frames, n_fft])
    envelope = scatter_add(squares, (1, total), index, True, "frame")
    start = n_fft // 2 if center else 0
    stop = total - start if length is None else min(start + length, total)
    signal = slice_op(signal, [1], [start], [stop])
    envelope = slice_op(envelope, [1], [start], [stop])
    if envelope.size and np.abs(envelope.numpy()).min() < 1e-11:
        raise ValueError(f"{fn}(): the windows overlap-add to zero somewhere (the nonzero "
                         f"overlap-add, NOLA, condition fails): choose another window or "
                         f"hop_length")
    signal = divide(signal, envelope)
    if length is not None and signal.shape[1] < length:
        signal = _fit(signal, (1,), (length,))
    return squeeze(signal, [0]) if x.ndim == 2 else signal
