"""Matrix decompositions and matrix functions: the ops of ``paddle.linalg``.

Every op works on the last two dimensions of its input and batches over the
leading ones. The factorizations (``cholesky``, ``qr``, ``svd``, ``eigh``,
``eig``, ``lu``) and ``inv``, ``det``, ``slogdet``, ``solve``, ``pinv``,
``matrix_exp`` and the triangular solve are records with the standard gradient
formulas, written with pylayer ops so that they can be differentiated again; the
rest (norms, ``cond``, ``cov``, ``matrix_power``, the Cholesky and LU solves,
``householder_product``, ...) are compositions of recorded ops.

Gradients through eigenvectors or singular vectors divide by differences of
eigenvalues (squared singular values): where two of them are equal the result is
not finite, unless no gradient reached the vectors (``eigvalsh``, ``svdvals``),
as in PyTorch.
"""
import math

import numpy as np

from pylayer._core.graph import Op, make_output, make_outputs
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops._arguments import (check_axis, check_choice, check_dtype, check_int,
                                    check_number, describe)
from pylayer.ops._operands import as_tensor_arg, conjugate, unbroadcast
from pylayer.ops.arithmetic import add, divide, multiply, scale, subtract
from pylayer.ops.complex import imag, real
from pylayer.ops.creation import get_rng
from pylayer.ops.linalg import matmul
from pylayer.ops.manipulation import concat, stack, unstack
from pylayer.ops.math import abs as _abs, pow as _pow, sqrt
from pylayer.ops.reduction import max as _max, min as _min, prod, sum as _sum
from pylayer.ops.shape import cast, reshape, squeeze, transpose, unsqueeze
from pylayer.ops.dispatch import op

# Paddle's top-level names among them; the rest live in ``pylayer.linalg``.
__all__ = ["matrix_transpose", "vecdot"]

_FLOATS = ("float32", "float64")
_INEXACT = _FLOATS + ("complex64", "complex128")


# ------------------------------------------------------------------ helpers
def _matrix(x, fn, arg="x", position=1, complex_too=True, square=False):
    """``x`` as a float32/float64 (or complex) Tensor of at least two dimensions."""
    x = as_tensor_arg(x, fn, arg, position)
    allowed = _INEXACT if complex_too else _FLOATS
    if x.dtype.name not in allowed:
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a Tensor of "
                        f"dtype {', '.join(allowed[:-1])} or {allowed[-1]}, got dtype "
                        f"{x.dtype.name}")
    if x.ndim < 2:
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must be a matrix or "
                         f"a batch of matrices (at least 2 dimensions), got shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must be a square "
                         f"matrix or a batch of square matrices [..., N, N], got shape "
                         f"{x.shape}")
    return x


def _same_dtype(fn, x, y, x_arg="x", y_arg="y"):
    if x.dtype != y.dtype:
        raise TypeError(f"{fn}(): arguments '{x_arg}' and '{y_arg}' must have the same dtype, "
                        f"got {x.dtype.name} and {y.dtype.name}")


def _batch_shape(fn, x, y):
    try:
        return np.broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]))
    except ValueError:
        raise ValueError(f"{fn}(): the batch dimensions of x {x.shape[:-2]} and y "
                         f"{y.shape[:-2]} do not broadcast together") from None


def _is_complex(x):
    return x.dtype.name in ("complex64", "complex128")


def _real_dtype(array):
    return np.float32 if array.dtype in (np.float32, np.complex64) else np.float64


def _const(array):
    array = np.asarray(array)
    return make_tensor(array if array.flags.c_contiguous else array.copy())


def _mT(x):
    perm = list(range(x.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return transpose(x, perm)


def _mH(x):
    return conjugate(_mT(x))


def _band(x, k, lower):
    """``x`` with the entries outside the lower (upper) triangle from diagonal ``k`` zeroed."""
    m, n = x.shape[-2:]
    mask = np.tril(np.ones((m, n)), k) if lower else np.triu(np.ones((m, n)), k)
    return multiply(x, _const(mask.astype(x.numpy().dtype)))


def _eye(n, like):
    return _const(np.eye(n, dtype=like.numpy().dtype))


def _diag(x):
    """The main diagonal of square matrices ``x``."""
    return _sum(multiply(x, _eye(x.shape[-1], x)), axis=-1)


def _diag_embed(v, like=None):
    """Square matrices with ``v`` on the diagonal."""
    return multiply(unsqueeze(v, -1), _eye(v.shape[-1], v if like is None else like))


def _as_dtype_of(x, like):
    return x if x.dtype == like.dtype else cast(x, like.dtype)


def _unbroadcast_matrix(g, shape):
    return g if tuple(g.shape) == tuple(shape) else unbroadcast(g, tuple(shape))


# ------------------------------------------------------------ matrix_transpose
@op(method=True)
def matrix_transpose(x, name=None):
    """Swap the last two dimensions of ``x`` (a batch of matrices).

    >>> import pylayer
    >>> pylayer.matrix_transpose(pylayer.ones([2, 3, 4])).shape
    [2, 4, 3]
    """
    x = as_tensor_arg(x, "matrix_transpose", "x", 1)
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose(): argument 'x' (position 1) must have at least 2 "
                         f"dimensions, got shape {x.shape}")
    return _mT(x)


# ------------------------------------------------------------------- vecdot
@op
def vecdot(x, y, axis=-1, name=None):
    """``sum(conj(x) * y, axis)``: the dot product of vectors along ``axis``; ``x`` and ``y``
    broadcast against each other.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> pylayer.vecdot(x, pylayer.to_tensor([1.0, 1.0])).numpy()
    array([3., 7.], dtype=float32)
    """
    x = as_tensor_arg(x, "vecdot", "x", 1)
    y = as_tensor_arg(y, "vecdot", "y", 2)
    for arg, t in (("x", x), ("y", y)):
        if t.dtype.name == "bool" or t.dtype.name in ("float16", "bfloat16"):
            raise TypeError(f"vecdot(): argument '{arg}' must be a Tensor of dtype int32, "
                            f"int64, float32, float64, complex64 or complex128, got dtype "
                            f"{t.dtype.name}")
    try:
        shape = np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        raise ValueError(f"vecdot(): x of shape {x.shape} and y of shape {y.shape} do not "
                         f"broadcast together") from None
    axis = check_axis(axis, len(shape), "vecdot")
    if len(shape) == 0:
        raise ValueError("vecdot(): x and y must have at least one dimension")
    return _sum(multiply(conjugate(x), y), axis=axis)


# ---------------------------------------------------------------------- inv
INV = Op("inv", keeps=("out",),
         vjp=(lambda g, out: scale(matmul(matmul(_mH(out), g), _mH(out)), -1.0),))


def _singular(fn, arg="x"):
    return ValueError(f"{fn}(): argument '{arg}' is singular (not invertible): a matrix of it "
                      f"has a zero pivot")


def _inv(x, fn="inv"):
    try:
        out = np.linalg.inv(x.numpy())
    except np.linalg.LinAlgError:
        raise _singular(fn) from None
    return make_output(INV, out, (x,))


@op
def inv(x, name=None):
    """The inverse of a square matrix (or of each matrix of a batch).

    A singular matrix is a ``ValueError``. The gradient is
    ``-inv(x)^H @ g @ inv(x)^H``.

    >>> import pylayer
    >>> pylayer.linalg.inv(pylayer.to_tensor([[2.0, 0.0], [0.0, 4.0]])).numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)
    """
    return _inv(_matrix(x, "inv", square=True))


@op(method=True)
def inverse(x, name=None):
    """The inverse of a square matrix, as :func:`pylayer.linalg.inv` (``x.inverse()``). It is
    no name of ``paddle.linalg``: it is the function behind ``Tensor.inverse``.

    >>> import pylayer
    >>> pylayer.to_tensor([[4.0]]).inverse().numpy()
    array([[0.25]], dtype=float32)
    """
    return _inv(_matrix(x, "inverse", square=True), "inverse")


# ---------------------------------------------------------------------- det
def _invertible(a):
    """Per matrix of ``a``: whether it is safely invertible."""
    if a.size == 0:
        return np.ones(a.shape[:-2], bool)
    s = np.linalg.svd(a, compute_uv=False)
    return s[..., -1] > s[..., 0] * a.shape[-1] * np.finfo(s.dtype).eps


def _det_vjp(g, x, out):
    """g * conj(cofactor matrix): conj(det) * inv(x)^H where x is invertible, else from the
    SVD x = U S V^H, whose cofactors are det(U) det(V^H) U diag(prod of the other s) V^H."""
    scaled = unsqueeze(unsqueeze(multiply(g, conjugate(out)), -1), -1)
    if np.all(_invertible(x.numpy())):
        return multiply(scaled, _mH(_inv(x, "det")))
    u, s, vh = _svd(x, False, "det")
    n = s.shape[-1]
    others = add(multiply(unsqueeze(s, -2), _const(1 - np.eye(n, dtype=s.numpy().dtype))),
                 _const(np.eye(n, dtype=s.numpy().dtype)))
    adjugate_s = prod(others, axis=-1)
    phase = multiply(_det(u), _det(vh))
    cof = matmul(multiply(u, _as_dtype_of(unsqueeze(adjugate_s, -2), u)), vh)
    g_phase = unsqueeze(unsqueeze(multiply(g, conjugate(phase)), -1), -1)
    return multiply(g_phase, cof)


DET = Op("det", keeps=("x", "out"), vjp=(_det_vjp,))


def _det(x):
    return make_output(DET, np.asarray(np.linalg.det(x.numpy())), (x,))


@op
def det(x, name=None):
    """The determinant of a square matrix (or of each matrix of a batch).

    The gradient is ``g * conj(det) * inv(x)^H``; at a singular matrix it is the
    (conjugated) cofactor matrix, computed from the SVD.

    >>> import pylayer
    >>> round(float(pylayer.linalg.det(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]]))), 4)
    -2.0
    """
    return _det(_matrix(x, "det", square=True))


# ------------------------------------------------------------------ slogdet
def _slogdet_vjp(g, x, out):
    """Only the log of |det| and, for complex x, the phase carry a gradient: with
    t = tr(inv(x) dx), d log|det| = Re t and d sign = i sign Im t."""
    a = x.numpy()
    ok = _invertible(a)[..., None, None]
    if not np.all(ok):
        # NaN for the singular matrices (as Paddle), the rule for the others.
        eye = np.eye(a.shape[-1], dtype=a.dtype)
        safe = add(multiply(x, _const(ok.astype(a.dtype))), _const((~ok) * eye))
        return multiply(_slogdet_vjp(g, safe, out), _const(np.where(ok, 1.0, np.nan)
                                                           .astype(a.dtype)))
    g_sign, g_log = unstack(g, axis=0)
    if _is_complex(x):
        sign, _ = unstack(out, axis=0)
        coeff = subtract(_as_dtype_of(real(g_log), x),
                         multiply(_const(np.asarray(1j, a.dtype)),
                                  _as_dtype_of(imag(multiply(conjugate(g_sign), sign)), x)))
    else:
        coeff = g_log
    return multiply(unsqueeze(unsqueeze(coeff, -1), -1), _mH(_inv(x, "slogdet")))


SLOGDET = Op("slogdet", keeps=("x", "out"), vjp=(_slogdet_vjp,))


@op(method=True)
def slogdet(x, name=None):
    """Sign and natural log of the absolute determinant, stacked in one tensor of shape
    ``[2, *batch]``: ``out[0]`` is the sign (a unit complex number for complex ``x``),
    ``out[1]`` the log. A singular matrix gives sign 0 and log ``-inf`` (its gradient is
    NaN, as in Paddle).

    >>> import pylayer
    >>> pylayer.linalg.slogdet(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy().round(4)
    array([-1.    ,  0.6931], dtype=float32)
    """
    x = _matrix(x, "slogdet", square=True)
    sign, log = np.linalg.slogdet(x.numpy())
    out = np.stack([np.asarray(sign), np.asarray(log).astype(np.asarray(sign).dtype)])
    return make_output(SLOGDET, out.astype(x.numpy().dtype), (x,))


# -------------------------------------------------------------------- solve
def _solve_vjp(g, x, out, x_shape, y_shape, needs_input_grad):
    gy = _solve(_mH(x), g)
    gx = None
    if needs_input_grad[0]:
        gx = _unbroadcast_matrix(scale(matmul(gy, _mH(out)), -1.0), x_shape)
    return gx, _unbroadcast_matrix(gy, y_shape) if needs_input_grad[1] else None


SOLVE = Op("solve", inputs=("x", "y"), keeps=("x", "out"), attrs=("x_shape", "y_shape"),
           vjp=_solve_vjp)


def _solve(x, y, fn="solve"):
    batch = _batch_shape(fn, x, y)
    a = np.broadcast_to(x.numpy(), batch + tuple(x.shape[-2:]))
    b = np.broadcast_to(y.numpy(), batch + tuple(y.shape[-2:]))
    try:
        out = np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        raise _singular(fn) from None
    return make_output(SOLVE, out, (x, y), (tuple(x.shape), tuple(y.shape)))


@op(method=True)
def solve(x, y, left=True, name=None, *, out=None):
    """Solve ``x @ out = y`` (``out @ x = y`` with ``left=False``) for square ``x``.

    ``y`` is a batch of matrices ``[..., N, K]`` or, with ``left=True``, a vector
    ``[N]``; batch dimensions broadcast. A singular ``x`` is a ``ValueError``.
    Gradients reach both ``x`` and ``y``.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[3.0, 1.0], [1.0, 2.0]])
    >>> pylayer.linalg.solve(a, pylayer.to_tensor([9.0, 8.0])).numpy()
    array([2., 3.], dtype=float32)
    """
    fn = "solve"
    x = _matrix(x, fn, square=True)
    y = as_tensor_arg(y, fn, "y", 2)
    _same_dtype(fn, x, y)
    n = x.shape[-1]
    if y.ndim == 1 and left:
        if y.shape[0] != n:
            raise ValueError(f"solve(): x of shape {x.shape} and the vector y of shape "
                             f"{y.shape} do not fit x @ out = y")
        result = squeeze(_solve(x, unsqueeze(y, -1)), -1)
    else:
        if y.ndim < 2 or y.shape[-2 if left else -1] != n:
            equation = "x @ out = y" if left else "out @ x = y"
            raise ValueError(f"solve(): x of shape {x.shape} and y of shape {y.shape} do not "
                             f"fit {equation}")
        result = _solve(x, y) if left else _mT(_solve(_mT(x), _mT(y)))
    return _into(out, result, fn)


def _into(out, result, fn):
    if out is None:
        return result
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be a Tensor or None, got "
                        f"{describe(out)}")
    out._set_array_inplace(result.numpy())
    return out


# --------------------------------------------------------- triangular_solve
def _triangular_vjp(g, x, out, upper, x_shape, y_shape, needs_input_grad):
    gy = _triangular(conjugate(x), g, upper, True)
    gx = None
    if needs_input_grad[0]:
        gx = _band(scale(matmul(gy, _mH(out)), -1.0), 0, not upper)
        gx = _unbroadcast_matrix(gx, x_shape)
    return gx, _unbroadcast_matrix(gy, y_shape) if needs_input_grad[1] else None


TRIANGULAR = Op("triangular_solve", inputs=("x", "y"), keeps=("x", "out"),
                attrs=("upper", "x_shape", "y_shape"), vjp=_triangular_vjp)


def _substitute(a, b, upper):
    """Solve a @ out = b for triangular a by substitution, one row at a time (vectorized
    over the batch and the columns of b); a zero pivot gives inf or NaN, as in Paddle."""
    n = a.shape[-1]
    out = np.zeros(b.shape, np.result_type(a, b))
    with np.errstate(all="ignore"):
        for i in (range(n - 1, -1, -1) if upper else range(n)):
            done = slice(i + 1, n) if upper else slice(0, i)
            s = np.einsum("...j,...jk->...k", a[..., i, done], out[..., done, :])
            out[..., i, :] = (b[..., i, :] - s) / a[..., i, i, None]
    return out


def _triangular(x, y, upper, transpose):
    """``op(tri(x))^-1 @ y``: the triangle of ``x`` (``upper`` or lower), transposed when
    ``transpose``; the strict other triangle of ``x`` is never read."""
    batch = _batch_shape("triangular_solve", x, y)
    a = np.broadcast_to(x.numpy(), batch + tuple(x.shape[-2:]))
    b = np.broadcast_to(y.numpy(), batch + tuple(y.shape[-2:]))
    if transpose:
        a = np.swapaxes(a, -1, -2)
    out = _substitute(a, b, upper != transpose)
    if not transpose:
        return make_output(TRIANGULAR, out, (x, y), (upper, tuple(x.shape), tuple(y.shape)))
    return make_output(TRIANGULAR_T, out, (x, y), (upper, tuple(x.shape), tuple(y.shape)))


def _triangular_t_vjp(g, x, out, upper, x_shape, y_shape, needs_input_grad):
    gy = _triangular(conjugate(x), g, upper, False)
    gx = None
    if needs_input_grad[0]:
        gx = _band(scale(matmul(out, _mH(gy)), -1.0), 0, not upper)
        gx = _unbroadcast_matrix(conjugate(gx), x_shape)
    return gx, _unbroadcast_matrix(gy, y_shape) if needs_input_grad[1] else None


TRIANGULAR_T = Op("triangular_solve", inputs=("x", "y"), keeps=("x", "out"),
                  attrs=("upper", "x_shape", "y_shape"), vjp=_triangular_t_vjp)


@op
def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """Solve ``op(x) @ out = y`` for a triangular ``x`` (its upper triangle with
    ``upper=True``, else its lower one; the other triangle is not read), where ``op``
    transposes when ``transpose=True``. With ``unitriangular=True`` the diagonal is taken
    as ones. ``y`` is ``[..., N, K]``; batch dimensions broadcast. A zero on the diagonal
    gives ``inf``/``nan``, as in Paddle. Gradients reach ``x`` (its triangle) and ``y``.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[2.0, 1.0], [0.0, 4.0]])
    >>> pylayer.linalg.triangular_solve(a, pylayer.to_tensor([[4.0], [8.0]])).numpy()
    array([[1.],
           [2.]], dtype=float32)
    """
    fn = "triangular_solve"
    x = _matrix(x, fn, square=True)
    y = _matrix(y, fn, "y", 2)
    _same_dtype(fn, x, y)
    if y.shape[-2] != x.shape[-1]:
        raise ValueError(f"triangular_solve(): x of shape {x.shape} and y of shape {y.shape} "
                         f"do not fit x @ out = y (y must have {x.shape[-1]} rows)")
    upper, transpose, unitriangular = bool(upper), bool(transpose), bool(unitriangular)
    if unitriangular:
        x = add(_band(x, 1, False) if upper else _band(x, -1, True), _eye(x.shape[-1], x))
    return _triangular(x, y, upper, transpose)


# ----------------------------------------------------------------- cholesky
def _cholesky_vjp(g, out, upper):
    """Symmetric: with L the factor, P the lower triangle of L^T gL with its diagonal
    halved and S = L^-T P L^-1, the gradient is (S + S^T) / 2."""
    lower = _mT(out) if upper else out
    g_lower = _mT(g) if upper else g
    phi = _band(matmul(_mT(lower), g_lower), 0, True)
    phi = subtract(phi, scale(_diag_embed(_diag(phi)), 0.5))
    left = _triangular(lower, phi, False, True)
    s = _mT(_triangular(lower, _mT(left), False, True))
    return scale(add(s, _mT(s)), 0.5)


CHOLESKY = Op("cholesky", keeps=("out",), attrs=("upper",), vjp=(_cholesky_vjp,))


@op(method=True)
def cholesky(x, upper=False, name=None):
    """The Cholesky factor of a symmetric positive-definite matrix: lower ``L`` with
    ``x = L @ L^T`` (upper ``U = L^T`` with ``upper=True``). Only the lower triangle
    of ``x`` is read. A matrix that is not positive definite is a ``ValueError``. The
    gradient is symmetric, as in Paddle.

    >>> import pylayer
    >>> pylayer.linalg.cholesky(pylayer.to_tensor([[4.0, 2.0], [2.0, 5.0]])).numpy()
    array([[2., 0.],
           [1., 2.]], dtype=float32)
    """
    x = _matrix(x, "cholesky", complex_too=False, square=True)
    try:
        lower = np.linalg.cholesky(x.numpy())
    except np.linalg.LinAlgError:
        raise ValueError("cholesky(): argument 'x' (position 1) must be positive definite: "
                         "the Cholesky decomposition of one of its matrices failed") from None
    out = np.swapaxes(lower, -1, -2).copy() if upper else lower
    return make_output(CHOLESKY, out, (x,), (bool(upper),))


@op(method=True)
def cholesky_solve(x, y, upper=False, name=None):
    """Solve ``A @ out = x`` where ``y`` is the Cholesky factor of ``A`` (lower, ``A = y @
    y^H``, or upper with ``upper=True``, ``A = y^H @ y``). ``x`` is ``[..., N, K]``; batch
    dimensions broadcast. Written with triangular solves, so gradients reach ``x`` and the
    factor's triangle.

    >>> import pylayer
    >>> factor = pylayer.to_tensor([[2.0, 0.0], [1.0, 2.0]])
    >>> pylayer.linalg.cholesky_solve(pylayer.to_tensor([[6.0], [7.0]]), factor).numpy()
    array([[1.],
           [1.]], dtype=float32)
    """
    fn = "cholesky_solve"
    x = _matrix(x, fn)
    y = _matrix(y, fn, "y", 2, square=True)
    _same_dtype(fn, x, y)
    if x.shape[-2] != y.shape[-1]:
        raise ValueError(f"cholesky_solve(): x of shape {x.shape} must have as many rows as "
                         f"the factor y of shape {y.shape} has columns")
    if upper:
        return _triangular(y, _triangular(conjugate(y), x, True, True), True, False)
    return _triangular(conjugate(y), _triangular(y, x, False, False), False, True)


@op(method=True)
def cholesky_inverse(x, upper=False, name=None):
    """The inverse of ``A`` from its Cholesky factor ``x`` (``A = x @ x^H``, or ``x^H @ x``
    with ``upper=True``). Computed as ``inv(A)`` from the whole of ``x``, so the gradient
    reaches every entry of ``x``, as in Paddle.

    >>> import pylayer
    >>> factor = pylayer.to_tensor([[2.0, 0.0], [0.0, 0.5]])
    >>> pylayer.linalg.cholesky_inverse(factor).numpy()
    array([[0.25, 0.  ],
           [0.  , 4.  ]], dtype=float32)
    """
    x = _matrix(x, "cholesky_inverse", square=True)
    a = matmul(_mH(x), x) if upper else matmul(x, _mH(x))
    return _inv(a, "cholesky_inverse")


# ----------------------------------------------------------------------- qr
def _copy_lower(m):
    """The Hermitian matrix with the strict lower triangle of ``m`` and the real part of
    its diagonal."""
    lower = _band(m, -1, True)
    d = _diag(m)
    if _is_complex(m):
        d = _as_dtype_of(real(d), m)
    return add(add(lower, _mH(lower)), _diag_embed(d, m))


def _qr_tall(q, r, gq, gr):
    """The gradient of A = QR (Q [M, N] orthonormal columns, R [N, N] upper)."""
    m = subtract(matmul(r, _mH(gr)), matmul(_mH(gq), q))
    b = add(gq, matmul(q, _copy_lower(m)))
    return _mH(_triangular(r, _mH(b), True, False))


def _qr_vjp(grads, q, r, mode, shape):
    if mode == "r":
        raise ValueError("qr(): the gradient of qr is not defined with mode='r': it depends "
                         "on Q, which mode='r' does not compute")
    m, n = shape[-2:]
    if mode == "complete" and m > n:
        raise ValueError(f"qr(): the gradient of qr is not defined with mode='complete' when "
                         f"the matrices have more rows than columns ({m} > {n})")
    gq = grads[0] if grads[0] is not None else _const(np.zeros(q.shape, q.numpy().dtype))
    gr = grads[1] if grads[1] is not None else _const(np.zeros(r.shape, r.numpy().dtype))
    if m >= n:
        return _qr_tall(q, r, gq, gr)
    # A = [X | Y] with X = QU square: Y = QV only moves V.
    u, v = r[..., :, :m], r[..., :, m:]
    gu, gv = gr[..., :, :m], gr[..., :, m:]
    gx = _qr_tall(q, u, add(gq, matmul(matmul(q, v), _mH(gv))), gu)
    return concat([gx, matmul(q, gv)], axis=-1)


QR = Op("qr", outputs=("q", "r"), keeps=("q", "r"), attrs=("mode", "shape"), vjp=(_qr_vjp,))
QR_R = Op("qr", outputs=("r",), attrs=("mode", "shape"),
          vjp=(lambda g, mode, shape: _qr_vjp(None, None, None, mode, shape),))


@op(method=True)
def qr(x, mode="reduced", name=None):
    """The QR decomposition ``x = Q @ R`` (Q with orthonormal columns, R upper triangular).

    ``mode="reduced"`` gives Q ``[..., M, K]`` and R ``[..., K, N]`` (``K = min(M, N)``),
    ``"complete"`` Q ``[..., M, M]`` and R ``[..., M, N]``, ``"r"`` only R. Gradients
    follow the standard formula; as in Paddle they are not defined with ``mode="r"``, nor
    with ``"complete"`` when ``M > N`` (a ``ValueError`` in backward).

    >>> import pylayer
    >>> q, r = pylayer.linalg.qr(pylayer.to_tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> (q @ r).numpy().round(4)
    array([[3., 1.],
           [4., 2.]], dtype=float32)
    """
    x = _matrix(x, "qr")
    mode = check_choice(mode, "qr", "mode", ("reduced", "complete", "r"))
    attrs = (mode, tuple(x.shape))
    if mode == "r":
        r = np.linalg.qr(x.numpy(), mode="r")
        return make_output(QR_R, np.ascontiguousarray(r), (x,), attrs)
    q, r = np.linalg.qr(x.numpy(), mode=mode)
    return tuple(make_outputs(QR, [q, r], (x,), attrs))


# ---------------------------------------------------------------------- svd
def _svd_vjp(grads, u, s, vh, full_matrices):
    """The standard SVD gradient (with K = min(M, N) singular vectors): off the diagonal
    it divides by s_j^2 - s_i^2, so it is not finite at repeated singular values unless
    only s received a gradient."""
    gu, gs, gvh = grads
    m, n = u.shape[-2], vh.shape[-1]
    k = s.shape[-1]
    if full_matrices:
        u, vh = u[..., :, :k], vh[..., :k, :]
        gu = None if gu is None else gu[..., :, :k]
        gvh = None if gvh is None else gvh[..., :k, :]
    sc = _as_dtype_of(s, u)
    if gu is None and gvh is None:
        inner = _diag_embed(_as_dtype_of(gs, u), u) if gs is not None else None
        return matmul(matmul(u, inner), vh) if inner is not None else None
    s_row, s_col = unsqueeze(sc, -2), unsqueeze(sc, -1)
    squares = multiply(s, s)
    off = _const(1 - np.eye(k, dtype=s.numpy().dtype))
    gap = subtract(unsqueeze(squares, -2), unsqueeze(squares, -1))
    gap = add(multiply(gap, off), _const(np.eye(k, dtype=s.numpy().dtype)))
    inner = None
    if gu is not None:
        j = matmul(_mH(u), gu)
        inner = multiply(subtract(j, _mH(j)), s_row)
    if gvh is not None:
        kk = matmul(vh, _mH(gvh))
        term = multiply(s_col, subtract(kk, _mH(kk)))
        inner = term if inner is None else add(inner, term)
    inner = multiply(divide(inner, _as_dtype_of(gap, u)), _as_dtype_of(off, u))
    if gs is not None:
        inner = add(inner, _diag_embed(_as_dtype_of(gs, u), u))
    if _is_complex(u) and gu is not None:
        phase = divide(_as_dtype_of(imag(_diag(j)), u), sc)
        inner = add(inner, _diag_embed(multiply(phase, _const(np.asarray(1j, u.numpy().dtype))),
                                       u))
    ga = matmul(matmul(u, inner), vh)
    if gu is not None and m > k:
        scaled = divide(gu, s_row)
        ga = add(ga, matmul(subtract(scaled, matmul(u, matmul(_mH(u), scaled))), vh))
    if gvh is not None and n > k:
        scaled = divide(gvh, s_col)
        ga = add(ga, matmul(u, subtract(scaled, matmul(matmul(scaled, _mH(vh)), vh))))
    return ga


SVD = Op("svd", outputs=("u", "s", "vh"), keeps=("u", "s", "vh"), attrs=("full_matrices",),
         vjp=(_svd_vjp,))


def _svd(x, full_matrices, fn):
    try:
        u, s, vh = np.linalg.svd(x.numpy(), full_matrices=bool(full_matrices))
    except np.linalg.LinAlgError:
        raise ValueError(f"{fn}(): the SVD of argument 'x' did not converge") from None
    return tuple(make_outputs(SVD, [u, s, vh], (x,), (bool(full_matrices),)))


@op
def svd(x, full_matrices=False, name=None, *, out=None):
    """The singular value decomposition ``x = U @ diag(S) @ VH``: U ``[..., M, K]``, S
    ``[..., K]`` (descending, real), VH ``[..., K, N]`` (V conjugate-transposed), with
    ``K = min(M, N)``; ``full_matrices=True`` gives U ``[..., M, M]`` and VH ``[..., N, N]``.

    Gradients follow the standard formula (the extra columns of full matrices receive
    none). They divide by the differences of squared singular values: where two singular
    values are equal and U or VH received a gradient, the gradient is not finite (NaN),
    as in Paddle and PyTorch. For complex ``x`` the loss must not depend on the phase of
    the singular vectors.

    >>> import pylayer
    >>> u, s, vh = pylayer.linalg.svd(pylayer.to_tensor([[3.0, 0.0], [0.0, -2.0]]))
    >>> s.numpy()
    array([3., 2.], dtype=float32)
    """
    x = _matrix(x, "svd")
    result = _svd(x, full_matrices, "svd")
    if out is None:
        return result
    if not isinstance(out, (list, tuple)) or len(out) != 3:
        raise TypeError(f"svd(): argument 'out' must be a tuple of three Tensors or None, "
                        f"got {describe(out)}")
    return tuple(_into(o, r, "svd") for o, r in zip(out, result))


@op
def svdvals(x, name=None):
    """The singular values of ``x`` in descending order, ``[..., min(M, N)]``. Their
    gradient ``U @ diag(g) @ VH`` is finite at repeated singular values too.

    >>> import pylayer
    >>> pylayer.linalg.svdvals(pylayer.to_tensor([[0.0, 2.0], [1.0, 0.0]])).numpy()
    array([2., 1.], dtype=float32)
    """
    return _svd(_matrix(x, "svdvals"), False, "svdvals")[1]


# --------------------------------------------------------------------- eigh
def _eigh_vjp(grads, w, v):
    """V (diag(gw) + F o (V^H gV)) V^H with F_ij = 1 / (w_j - w_i), made Hermitian as in
    Paddle; without a gradient on V it is V diag(gw) V^H (finite at repeated eigenvalues)."""
    gw, gv = grads
    n = w.shape[-1]
    inner = None if gw is None else _diag_embed(_as_dtype_of(gw, v), v)
    if gv is not None:
        eye = np.eye(n, dtype=w.numpy().dtype)
        gap = add(multiply(subtract(unsqueeze(w, -2), unsqueeze(w, -1)), _const(1 - eye)),
                  _const(eye))
        term = multiply(divide(matmul(_mH(v), gv), _as_dtype_of(gap, v)),
                        _as_dtype_of(_const(1 - eye), v))
        inner = term if inner is None else add(inner, term)
    ga = matmul(matmul(v, inner), _mH(v))
    return scale(add(ga, _mH(ga)), 0.5)


EIGH = Op("eigh", outputs=("w", "v"), keeps=("w", "v"), vjp=(_eigh_vjp,))


def _eigh(x, uplo, fn):
    uplo = check_choice(uplo, fn, "UPLO", ("L", "U"))
    try:
        w, v = np.linalg.eigh(x.numpy(), UPLO=uplo)
    except np.linalg.LinAlgError:
        raise ValueError(f"{fn}(): the eigendecomposition of argument 'x' did not "
                         f"converge") from None
    return tuple(make_outputs(EIGH, [w, v], (x,)))


@op
def eigh(x, UPLO="L", name=None):
    """Eigenvalues (ascending, real) and orthonormal eigenvectors (columns) of a Hermitian
    matrix, read from its lower (``UPLO="L"``) or upper (``"U"``) triangle.

    The gradient is Hermitian, as in Paddle. It divides by differences of eigenvalues:
    at a repeated eigenvalue it is NaN when the eigenvectors received a gradient; with
    a gradient on the eigenvalues alone it is finite (Paddle 3.3.1 gives NaN there).

    >>> import pylayer
    >>> w, v = pylayer.linalg.eigh(pylayer.to_tensor([[2.0, 1.0], [1.0, 2.0]]))
    >>> w.numpy()
    array([1., 3.], dtype=float32)
    """
    return _eigh(_matrix(x, "eigh", square=True), UPLO, "eigh")


@op(method=True)
def eigvalsh(x, UPLO="L", name=None):
    """The eigenvalues of a Hermitian matrix in ascending order (see :func:`eigh`); their
    gradient ``V diag(g) V^H`` is finite at repeated eigenvalues too.

    >>> import pylayer
    >>> pylayer.linalg.eigvalsh(pylayer.to_tensor([[2.0, 1.0], [1.0, 2.0]])).numpy()
    array([1., 3.], dtype=float32)
    """
    return _eigh(_matrix(x, "eigvalsh", square=True), UPLO, "eigvalsh")[0]


# ---------------------------------------------------------------------- eig
def _complex_dtype(array):
    return np.complex64 if array.dtype in (np.float32, np.complex64) else np.complex128


def _eig_vjp(grads, x, w, v):
    """V^-H (diag(gw) + (V^H gV - V^H V diag(Re(diag(V^H gV)))) / conj(w_j - w_i)) V^H,
    for eigenvectors of unit norm; the real part for a real x."""
    gw, gv = grads
    n = w.shape[-1]
    eye = np.eye(n, dtype=v.numpy().dtype)
    inner = None if gw is None else _diag_embed(gw, v)
    if gv is not None:
        vhgv = matmul(_mH(v), gv)
        d = _as_dtype_of(real(_diag(vhgv)), v)
        term = subtract(vhgv, matmul(matmul(_mH(v), v), _diag_embed(d, v)))
        gap = add(multiply(subtract(unsqueeze(w, -2), unsqueeze(w, -1)), _const(1 - eye)),
                  _const(eye))
        term = multiply(divide(term, conjugate(gap)), _const(1 - eye))
        inner = term if inner is None else add(inner, term)
    ga = _solve(_mH(v), matmul(inner, _mH(v)), "eig")
    return ga if _is_complex(x) else real(ga)


EIG = Op("eig", outputs=("w", "v"), keeps=("x", "w", "v"), vjp=(_eig_vjp,))


def _eig(x, fn):
    a = x.numpy()
    try:
        w, v = np.linalg.eig(a)
    except np.linalg.LinAlgError:
        raise ValueError(f"{fn}(): the eigendecomposition of argument 'x' did not "
                         f"converge") from None
    dtype = _complex_dtype(a)
    return tuple(make_outputs(EIG, [w.astype(dtype), v.astype(dtype)], (x,)))


@op(method=True)
def eig(x, name=None):
    """Eigenvalues and eigenvectors (columns of unit norm) of a general square matrix,
    both complex (complex64 for float32 and complex64 input), in LAPACK's order.

    Gradients follow the standard formula; they are not finite at repeated eigenvalues,
    and the loss must not depend on the phase of the eigenvectors.

    >>> import pylayer
    >>> w, v = pylayer.linalg.eig(pylayer.to_tensor([[2.0, 0.0], [0.0, 3.0]]))
    >>> w.numpy()
    array([2.+0.j, 3.+0.j], dtype=complex64)
    """
    return _eig(_matrix(x, "eig", square=True), "eig")


@op(method=True)
def eigvals(x, name=None):
    """The eigenvalues of a general square matrix, complex, in LAPACK's order (see
    :func:`eig`). Unlike Paddle, they carry a gradient.

    >>> import pylayer
    >>> pylayer.linalg.eigvals(pylayer.to_tensor([[0.0, 1.0], [-1.0, 0.0]])).numpy()
    array([0.+1.j, 0.-1.j], dtype=complex64)
    """
    return _eig(_matrix(x, "eigvals", square=True), "eigvals")[0]


# ----------------------------------------------------------------------- lu
def _lu_arrays(a, pivot):
    """Packed LU with partial pivoting (Doolittle, one column at a time, vectorized over
    the batch): (LU, 1-based int32 pivots, int32 infos)."""
    m, n = a.shape[-2:]
    k = min(m, n)
    flat = a.reshape((-1, m, n)).copy()
    count = flat.shape[0]
    rows = np.arange(count)
    pivots = np.tile(np.arange(k, dtype=np.int32), (count, 1))
    infos = np.zeros(count, np.int32)
    with np.errstate(all="ignore"):
        for j in range(k):
            if pivot:
                column = flat[:, j:, j]
                size = np.abs(column.real) + np.abs(column.imag) if column.dtype.kind == "c" \
                    else np.abs(column)                     # LAPACK's choice for complex
                p = j + np.argmax(size, axis=1)
                pivots[:, j] = p
                swapped = flat[rows, p].copy()
                flat[rows, p] = flat[:, j]
                flat[:, j] = swapped
            d = flat[:, j, j]
            zero = d == 0
            infos[(infos == 0) & zero] = j + 1
            flat[:, j + 1:, j] /= np.where(zero, 1, d)[:, None]
            flat[:, j + 1:, j + 1:] -= flat[:, j + 1:, j, None] * flat[:, j, None, j + 1:]
    batch = a.shape[:-2]
    return flat.reshape(a.shape), (pivots + 1).reshape(batch + (k,)), infos.reshape(batch)


def _permutation(pivots, m, dtype):
    """P with A = P @ L @ U from LAPACK's 1-based row interchanges ``pivots``."""
    batch = pivots.shape[:-1]
    flat = pivots.reshape((-1, pivots.shape[-1])) - 1
    count = flat.shape[0]
    perm = np.tile(np.arange(m), (count, 1))
    rows = np.arange(count)
    for j in range(flat.shape[1]):
        p = flat[:, j]
        swapped = perm[rows, p].copy()
        perm[rows, p] = perm[:, j]
        perm[:, j] = swapped
    p_t = np.eye(m, dtype=dtype)[perm]          # P^T: row i of P^T A is row perm[i] of A
    return np.swapaxes(p_t, -1, -2).reshape(batch + (m, m))


def _lu_square(l, u, gl, gu):
    """The gradient of A' = L U (square, unit lower L): L^-H (tril(L^H gL, -1) +
    triu(gU U^H)) U^-H."""
    inner = add(_band(matmul(_mH(l), gl), -1, True), _band(matmul(gu, _mH(u)), 0, False))
    left = _triangular(conjugate(l), inner, False, True)
    return _mH(_triangular(u, _mH(left), True, False))


def _lu_vjp(grads, lu, pivots_matrix, shape):
    g = grads[0]
    m, n = shape[-2:]
    k = min(m, n)
    if m == n:
        l = add(_band(lu, -1, True), _eye(m, lu))
        ga = _lu_square(l, _band(lu, 0, False), _band(g, -1, True), _band(g, 0, False))
    elif m < n:
        l = add(_band(lu[..., :, :m], -1, True), _eye(m, lu))
        u1, u2 = _band(lu[..., :, :m], 0, False), lu[..., :, m:]
        gl = _band(g[..., :, :m], -1, True)
        gu1, gu2 = _band(g[..., :, :m], 0, False), g[..., :, m:]
        # U2 = L^-1 P^T A2
        g_a2 = _triangular(conjugate(l), gu2, False, True)
        gl = subtract(gl, _band(matmul(g_a2, _mH(u2)), -1, True))
        ga = concat([_lu_square(l, u1, gl, gu1), g_a2], axis=-1)
    else:
        l1 = add(_band(lu[..., :k, :], -1, True), _eye(k, lu))
        l2, u = lu[..., k:, :], _band(lu[..., :k, :], 0, False)
        gl1, gl2 = _band(g[..., :k, :], -1, True), g[..., k:, :]
        gu = _band(g[..., :k, :], 0, False)
        # L2 = A2' U^-1
        g_a2 = _mH(_triangular(u, _mH(gl2), True, False))
        gu = subtract(gu, _band(matmul(_mH(l2), g_a2), 0, False))
        ga = concat([_lu_square(l1, u, gl1, gu), g_a2], axis=-2)
    return matmul(_const(pivots_matrix), ga)


LU = Op("lu", outputs=("lu", "pivots", "infos"), keeps=("lu",),
        attrs=("pivots_matrix", "shape"), vjp=(_lu_vjp,))


@op(method=True)
def lu(x, pivot=True, get_infos=False, name=None):
    """The LU decomposition with partial pivoting, packed as LAPACK does: ``(LU, pivots)``
    or, with ``get_infos=True``, ``(LU, pivots, infos)``. ``LU`` ``[..., M, N]`` holds the
    unit lower L below the diagonal and U on and above it; ``pivots`` ``[..., min(M, N)]``
    are the 1-based row interchanges (int32); ``infos`` is 0 per matrix, or ``i`` when
    ``U[i-1, i-1]`` is zero. ``x = P @ L @ U`` with P, L, U from :func:`lu_unpack`.
    ``pivot=False`` factors without interchanges (the pivots are then ``1, 2, ...``).
    The gradient of ``LU`` reaches ``x``.

    >>> import pylayer
    >>> packed, pivots = pylayer.linalg.lu(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> pivots.numpy()
    array([2, 2], dtype=int32)
    """
    x = _matrix(x, "lu")
    a = x.numpy()
    packed, pivots, infos = _lu_arrays(a, bool(pivot))
    matrix = _permutation(pivots, a.shape[-2], a.dtype)
    outs = make_outputs(LU, [packed, pivots, infos], (x,), (matrix, tuple(x.shape)),
                        non_differentiable=(1, 2))
    return tuple(outs) if get_infos else (outs[0], outs[1])


def _pivots(y, fn, arg, position, lu_shape):
    y = as_tensor_arg(y, fn, arg, position)
    if y.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be an int32 or "
                        f"int64 Tensor of pivots, got dtype {y.dtype.name}")
    k = min(lu_shape[-2:])
    if tuple(y.shape) != tuple(lu_shape[:-2]) + (k,):
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must have shape "
                         f"{list(lu_shape[:-2]) + [k]} for an LU of shape {list(lu_shape)}, got "
                         f"{y.shape}")
    p = y.numpy()
    if p.size and (p.min() < 1 or p.max() > lu_shape[-2]):
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must hold 1-based "
                         f"row numbers from 1 to {lu_shape[-2]}")
    return p


@op(method=True)
def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """``(P, L, U)`` from the packed LU ``x`` and the pivots ``y`` of :func:`lu`: ``P``
    ``[..., M, M]``, ``L`` ``[..., M, K]`` (unit lower), ``U`` ``[..., K, N]``. With
    ``unpack_ludata=False`` L and U, with ``unpack_pivots=False`` P, are empty tensors.
    Gradients reach ``x`` through L and U.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> p, l, u = pylayer.linalg.lu_unpack(*pylayer.linalg.lu(a))
    >>> (p @ l @ u).numpy()
    array([[1., 2.],
           [3., 4.]], dtype=float32)
    """
    fn = "lu_unpack"
    x = _matrix(x, fn)
    pivots = _pivots(y, fn, "y", 2, x.shape)
    m, n = x.shape[-2:]
    k = min(m, n)
    empty = _const(np.zeros((0,), x.numpy().dtype))
    l = u = p = empty
    if unpack_ludata:
        l = add(_band(x[..., :, :k], -1, True), _const(np.eye(m, k, dtype=x.numpy().dtype)))
        u = _band(x[..., :k, :], 0, False)
    if unpack_pivots:
        p = _const(_permutation(pivots, m, x.numpy().dtype))
    return p, l, u


@op
def lu_solve(b, lu, pivots, trans="N", name=None):
    """Solve ``A @ out = b`` (``A^T`` with ``trans="T"``, ``A^H`` with ``"C"``) from the LU
    decomposition ``(lu, pivots)`` of ``A`` (see :func:`lu`). ``b`` is ``[..., N, K]``.
    Written with triangular solves: gradients reach ``b`` and ``lu``.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[3.0, 1.0], [1.0, 2.0]])
    >>> packed, pivots = pylayer.linalg.lu(a)
    >>> pylayer.linalg.lu_solve(pylayer.to_tensor([[9.0], [8.0]]), packed, pivots).numpy()
    array([[2.],
           [3.]], dtype=float32)
    """
    fn = "lu_solve"
    b = _matrix(b, fn, "b", 1)
    lu_t = _matrix(lu, fn, "lu", 2, square=True)
    _same_dtype(fn, b, lu_t, "b", "lu")
    p = _pivots(pivots, fn, "pivots", 3, lu_t.shape)
    trans = check_choice(trans, fn, "trans", ("N", "T", "C"))
    n = lu_t.shape[-1]
    if b.shape[-2] != n:
        raise ValueError(f"lu_solve(): b of shape {b.shape} must have {n} rows for an LU of "
                         f"shape {lu_t.shape}")
    matrix = _const(_permutation(p, n, lu_t.numpy().dtype))
    l = add(_band(lu_t, -1, True), _eye(n, lu_t))
    u = _band(lu_t, 0, False)
    if trans == "N":
        z = _triangular(l, matmul(_mT(matrix), b), False, False)
        return _triangular(u, z, True, False)
    if trans == "C":
        l, u = conjugate(l), conjugate(u)
    z = _triangular(u, b, True, True)
    return matmul(matrix, _triangular(l, z, False, True))


# --------------------------------------------------------------------- pinv
def _pinv_vjp(g, x, out):
    """-X^H g X^H + (I - A X) g^H X X^H + X^H X g^H (I - X A) for X = pinv(A), at
    constant rank."""
    m, n = x.shape[-2:]
    xh, gh = _mH(out), _mH(g)
    first = scale(matmul(matmul(xh, g), xh), -1.0)
    left = subtract(_eye(m, x), matmul(x, out))
    right = subtract(_eye(n, x), matmul(out, x))
    second = matmul(left, matmul(gh, matmul(out, xh)))
    third = matmul(matmul(matmul(xh, out), gh), right)
    return add(add(first, second), third)


PINV = Op("pinv", keeps=("x", "out"), vjp=(_pinv_vjp,))


def _pinv(x, rcond, hermitian, fn):
    a = x.numpy()
    if a.size == 0:
        return make_output(PINV, np.zeros(a.shape[:-2] + a.shape[:-3:-1], a.dtype), (x,))
    try:
        out = np.linalg.pinv(a, rcond=rcond, hermitian=bool(hermitian))
    except np.linalg.LinAlgError:
        raise ValueError(f"{fn}(): the SVD of argument 'x' did not converge") from None
    return make_output(PINV, out.astype(a.dtype), (x,))


def _cutoff(value, fn, arg, batch):
    """A number or a Tensor (broadcast over the batch) as an array for numpy."""
    if isinstance(value, Tensor):
        v = value.numpy()
        if v.dtype.kind not in "fiu":
            raise TypeError(f"{fn}(): argument '{arg}' must be a real number or Tensor, got "
                            f"dtype {value.dtype.name}")
        try:
            return np.broadcast_to(v.astype(np.float64), batch)
        except ValueError:
            raise ValueError(f"{fn}(): argument '{arg}' of shape {value.shape} does not "
                             f"broadcast to the batch shape {list(batch)}") from None
    return check_number(value, fn, arg, minimum=0.0)


@op(method=True)
def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """The Moore-Penrose pseudo-inverse ``[..., N, M]`` of ``x`` ``[..., M, N]``, from
    its SVD: singular values at most ``rcond`` times the largest count as zero
    (``rcond`` may be a Tensor, one value per matrix). ``hermitian=True`` uses the
    eigendecomposition of a Hermitian ``x``. The gradient is the standard one at
    constant rank.

    >>> import pylayer
    >>> pylayer.linalg.pinv(pylayer.to_tensor([[2.0, 0.0], [0.0, 0.0]])).numpy()
    array([[0.5, 0. ],
           [0. , 0. ]], dtype=float32)
    """
    x = _matrix(x, "pinv")
    rcond = _cutoff(rcond, "pinv", "rcond", tuple(x.shape[:-2]))
    return _pinv(x, rcond, hermitian, "pinv")


# -------------------------------------------------------------------- lstsq
@op(method=True)
def lstsq(x, y, rcond=None, driver=None, name=None):
    """The least-squares solution of ``x @ out = y``: ``(solution, residuals, rank,
    singular_values)``, as Paddle returns them.

    ``x`` is ``[..., M, N]`` and ``y`` ``[..., M, K]``. Singular values at most ``rcond``
    times the largest (default: machine epsilon times ``max(M, N)``) count as zero.
    ``driver`` is ``"gels"``, ``"gelsy"`` (the default), ``"gelsd"`` or ``"gelss"``: the
    solution is the same; ``residuals`` (the squared residual of each column) is given
    for ``gelsd`` and ``gelss`` when ``M > N`` and every matrix has full rank, and
    ``singular_values`` for ``gelsd`` and ``gelss`` (otherwise both are empty).
    ``rank`` is int32. Unlike Paddle, the solution carries a gradient (through the
    pseudo-inverse).

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> y = pylayer.to_tensor([[1.0], [2.0], [3.0]])
    >>> solution, residuals, rank, values = pylayer.linalg.lstsq(x, y)
    >>> solution.numpy().round(4)
    array([[1.],
           [2.]], dtype=float32)
    """
    fn = "lstsq"
    x = _matrix(x, fn)
    y = _matrix(y, fn, "y", 2)
    _same_dtype(fn, x, y)
    if driver is not None:
        driver = check_choice(driver, fn, "driver", ("gels", "gelsy", "gelsd", "gelss"))
    m, n = x.shape[-2:]
    if y.shape[-2] != m:
        raise ValueError(f"lstsq(): x of shape {x.shape} and y of shape {y.shape} must have "
                         f"the same number of rows")
    _batch_shape(fn, x, y)
    eps = np.finfo(_real_dtype(x.numpy())).eps
    rcond = eps * max(m, n) if rcond is None else check_number(rcond, fn, "rcond")
    values = np.linalg.svd(x.numpy(), compute_uv=False) if x.numpy().size else \
        np.zeros(tuple(x.shape[:-2]) + (0,), _real_dtype(x.numpy()))
    top = values[..., :1] if values.shape[-1] else values
    rank = np.sum(values > rcond * top, axis=-1).astype(np.int32)
    solution = matmul(_pinv(x, rcond, False, fn), y)
    real_dtype = _real_dtype(x.numpy())
    empty = _const(np.zeros((0,), real_dtype))
    residuals, singular = empty, empty
    if driver in ("gelsd", "gelss"):
        singular = _const(values.astype(real_dtype))
        if m > n and np.all(rank == n):
            modulus = _abs(subtract(matmul(x, solution), y))
            residuals = _sum(multiply(modulus, modulus), axis=-2)
    return solution, residuals, _const(np.asarray(rank)), singular


# ------------------------------------------------------------- matrix_power
@op(method=True)
def matrix_power(x, n, name=None):
    """``x`` to the integer power ``n`` (a batch of square matrices): repeated squaring,
    the inverse first for negative ``n``, the identity for ``n = 0``. Written with
    :func:`pylayer.matmul` and :func:`inv`, whose gradients it takes.

    >>> import pylayer
    >>> pylayer.linalg.matrix_power(pylayer.to_tensor([[1.0, 1.0], [0.0, 1.0]]), 3).numpy()
    array([[1., 3.],
           [0., 1.]], dtype=float32)
    """
    x = _matrix(x, "matrix_power", square=True)
    n = check_int(n, "matrix_power", "n")
    if n == 0:
        return _const(np.broadcast_to(np.eye(x.shape[-1], dtype=x.numpy().dtype),
                                      tuple(x.shape)).copy())
    base = _inv(x, "matrix_power") if n < 0 else x
    n = -n if n < 0 else n
    result = None
    while True:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if not n:
            return result
        base = matmul(base, base)


# --------------------------------------------------------------- matrix_exp
def _expm_array(a):
    """exp(a) by scaling and squaring with the (6, 6) Pade approximant (error below
    float64's epsilon once the scaled 1-norm is at most 1/2), in float64."""
    work = a.astype(np.float64)
    if work.size == 0:
        return work
    norm = float(np.max(np.sum(np.abs(work), axis=-2)))
    squarings = max(0, int(math.ceil(math.log2(norm / 0.5)))) if norm > 0.5 else 0
    work = work / 2.0 ** squarings
    q = 6
    coeffs = [1.0]
    for k in range(1, q + 1):
        coeffs.append(coeffs[-1] * (q - k + 1) / (k * (2 * q - k + 1)))
    eye = np.broadcast_to(np.eye(a.shape[-1]), work.shape)
    numerator, denominator = eye * coeffs[0], eye * coeffs[0]
    power = eye
    for k in range(1, q + 1):
        power = power @ work
        numerator = numerator + coeffs[k] * power
        denominator = denominator + (-1) ** k * coeffs[k] * power
    result = np.linalg.solve(denominator, numerator)
    for _ in range(squarings):
        result = result @ result
    return result


def _matrix_exp_vjp(g, x):
    """The top right block of exp([[x^T, g], [0, x^T]])."""
    n = x.shape[-1]
    xt = _mT(x)
    zeros = _const(np.zeros(tuple(x.shape), x.numpy().dtype))
    block = concat([concat([xt, g], axis=-1), concat([zeros, xt], axis=-1)], axis=-2)
    return _matrix_exp(block)[..., :n, n:]


MATRIX_EXP = Op("matrix_exp", keeps=("x",), vjp=(_matrix_exp_vjp,))


def _matrix_exp(x):
    return make_output(MATRIX_EXP, _expm_array(x.numpy()).astype(x.numpy().dtype), (x,))


@op
def matrix_exp(x, name=None):
    """The matrix exponential of a square matrix (float32 or float64, as in Paddle), by
    scaling and squaring with a Pade approximant. Its gradient is again a matrix
    exponential (of a block matrix), so it can be differentiated again.

    >>> import pylayer
    >>> pylayer.linalg.matrix_exp(pylayer.to_tensor([[0.0, 1.0], [0.0, 0.0]])).numpy()
    array([[1., 1.],
           [0., 1.]], dtype=float32)
    """
    return _matrix_exp(_matrix(x, "matrix_exp", complex_too=False, square=True))


# -------------------------------------------------------------- matrix_rank
@op
def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None, name=None):
    """The number of singular values above a tolerance, int64, per matrix: above ``tol``
    when it is given (a number or a Tensor, one per matrix), else above ``max(atol,
    rtol * largest singular value)``, where ``rtol`` defaults to machine epsilon times
    ``max(M, N)`` when neither is given (0 when only ``atol`` is). ``hermitian=True``
    takes the absolute eigenvalues instead. No gradient.

    >>> import pylayer
    >>> pylayer.linalg.matrix_rank(pylayer.to_tensor([[1.0, 2.0], [2.0, 4.0]])).numpy()
    array(1)
    """
    fn = "matrix_rank"
    x = _matrix(x, fn)
    a = x.numpy()
    batch = tuple(x.shape[:-2])
    if a.size == 0:
        values = np.zeros(batch + (0,), _real_dtype(a))
    elif hermitian:
        values = np.abs(np.linalg.eigvalsh(a))
    else:
        values = np.linalg.svd(a, compute_uv=False)
    top = values.max(axis=-1) if values.shape[-1] else np.zeros(batch)
    if tol is not None:
        cutoff = _cutoff(tol, fn, "tol", batch)
    else:
        atol_v = 0.0 if atol is None else _cutoff(atol, fn, "atol", batch)
        if rtol is None:
            rtol_v = np.finfo(_real_dtype(a)).eps * max(x.shape[-2:]) if atol is None else 0.0
        else:
            rtol_v = _cutoff(rtol, fn, "rtol", batch)
        cutoff = np.maximum(atol_v, rtol_v * top)
    rank = np.sum(values > np.asarray(cutoff)[..., None], axis=-1)
    return _const(np.asarray(rank, np.int64))


# -------------------------------------------------------------------- norms
def _inexact(x, fn, arg="x", position=1):
    x = as_tensor_arg(x, fn, arg, position)
    if x.dtype.name not in _INEXACT:
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a Tensor of "
                        f"dtype float32, float64, complex64 or complex128, got dtype "
                        f"{x.dtype.name}")
    return x


def _vector_norm_vjp(g, x, out, p, kept_shape):
    """g * x |x|^(p-2) / norm^(p-1) (0 where x or the norm is 0); for p = +-inf the
    gradient goes whole to every entry of the largest (smallest) modulus, as in Paddle."""
    a = x.numpy()
    g = reshape(g, kept_shape)
    norm = reshape(out, kept_shape)
    modulus = _abs(x)
    zero = np.abs(a) == 0
    safe_modulus = add(modulus, _const(zero.astype(modulus.numpy().dtype)))
    unit = divide(x, _as_dtype_of(safe_modulus, x))
    if p == 0:
        return _const(np.zeros(a.shape, a.dtype))
    if math.isinf(p):
        hit = (np.abs(a) == norm.numpy()) & ~zero
        return multiply(multiply(_as_dtype_of(g, x), unit), _const(hit.astype(a.dtype)))
    n = norm.numpy()
    safe_norm = add(norm, _const((n == 0).astype(n.dtype)))
    weight = multiply(g, _const((~zero & (n != 0)).astype(n.dtype)))
    if p != 1:
        ratio = divide(add(modulus, _const(zero.astype(n.dtype))), safe_norm)
        weight = multiply(weight, _pow(ratio, p - 1.0))
    return multiply(_as_dtype_of(weight, x), unit)


VECTOR_NORM = Op("vector_norm", keeps=("x", "out"), attrs=("p", "kept_shape"),
                 vjp=(_vector_norm_vjp,))


def _vector_norm(x, p, axes, keepdim):
    """The p-norm of ``x`` over ``axes`` (a tuple; None: all)."""
    a = np.abs(x.numpy())
    axes = tuple(range(a.ndim)) if axes is None else axes
    with np.errstate(all="ignore"):
        if p == 0:
            out = np.sum(a != 0, axis=axes, keepdims=True).astype(a.dtype)
        elif math.isinf(p):
            reduce = np.max if p > 0 else np.min
            out = reduce(a, axis=axes, keepdims=True) if a.size else \
                np.zeros(tuple(1 if i in axes else d for i, d in enumerate(a.shape)), a.dtype)
        elif p == 2:
            out = np.sqrt(np.sum(a * a, axis=axes, keepdims=True))
        else:
            out = np.sum(a ** p, axis=axes, keepdims=True) ** (1.0 / p)
    kept = out.shape
    if not keepdim:
        out = out.reshape([d for i, d in enumerate(a.shape) if i not in axes])
    return make_output(VECTOR_NORM, np.asarray(out, a.dtype), (x,), (float(p), kept))


def _norm_order(p, fn):
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise ValueError(f"{fn}(): argument 'p' must be a number (int, float or +-inf), got "
                         f"{describe(p)}")
    return float(p)


def _axes_list(axis, ndim, fn):
    items = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    axes = [check_axis(a, ndim, fn) for a in items]
    if len(set(axes)) != len(axes):
        raise ValueError(f"{fn}(): argument 'axis' must name distinct axes, got {axis}")
    return axes


def _with_dtype(x, dtype, fn):
    """``x`` cast to ``dtype`` first, when one is given."""
    dtype = check_dtype(dtype, fn, kinds="fc")
    return x if dtype is None else cast(as_tensor_arg(x, fn, "x", 1), dtype)


@op
def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None, *, dtype=None, out=None):
    """The vector p-norm of ``x`` over ``axis`` (an int, a list of ints, or None for all
    elements): ``sum(|x|^p)^(1/p)``, the largest (``p=inf``) or smallest (``-inf``)
    modulus, or the number of non-zero entries (``p=0``). Real result, also for complex
    ``x``. ``dtype`` casts ``x`` first. The gradient is 0 where the norm is 0, as in
    Paddle; for ``p=inf`` every entry of the largest modulus gets the whole gradient.

    >>> import pylayer
    >>> pylayer.linalg.vector_norm(pylayer.to_tensor([3.0, -4.0])).numpy()
    array(5., dtype=float32)
    """
    fn = "vector_norm"
    x = _inexact(_with_dtype(x, dtype, fn), fn)
    p = _norm_order(p, fn)
    axes = None if axis is None else tuple(sorted(_axes_list(axis, max(x.ndim, 1), fn)))
    if x.ndim == 0:
        axes = None
    return _into(out, _vector_norm(x, p, axes, bool(keepdim)), fn)


_MATRIX_ORDERS = ("fro", "nuc", 1.0, -1.0, 2.0, -2.0, math.inf, -math.inf)


def _matrix_norm(x, p, axes, keepdim, fn):
    if p == "fro":
        return _vector_norm(x, 2.0, tuple(sorted(axes)), keepdim)
    row, col = axes
    if p in ("nuc", 2.0, -2.0):
        rest = [i for i in range(x.ndim) if i not in axes]
        moved = transpose(x, rest + [row, col])
        values = _svd(moved, False, fn)[1]
        result = _sum(values, axis=-1) if p == "nuc" else \
            (_max if p == 2.0 else _min)(values, axis=-1)
        if keepdim:
            for i in sorted(axes):
                result = unsqueeze(result, i)
        return result
    # 1: largest column sum (over the rows axis); inf: largest row sum.
    summed, extreme = (row, col) if abs(p) == 1.0 else (col, row)
    sums = _sum(_abs(x), axis=summed, keepdim=True)
    result = (_max if p > 0 else _min)(sums, axis=extreme, keepdim=True)
    return result if keepdim else squeeze(result, sorted(axes))


def _matrix_order(p, fn):
    if isinstance(p, str):
        if p in ("fro", "nuc"):
            return p
    elif not isinstance(p, bool) and isinstance(p, (int, float, np.integer, np.floating)) \
            and float(p) in _MATRIX_ORDERS:
        return float(p)
    raise ValueError(f"{fn}(): argument 'p' must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf "
                     f"for a matrix norm, got {describe(p)}")


def _two_axes(axis, ndim, fn):
    if not isinstance(axis, (list, tuple)) or len(axis) != 2:
        raise ValueError(f"{fn}(): argument 'axis' must be a list of two axes for a matrix "
                         f"norm, got {describe(axis)}")
    if ndim < 2:
        raise ValueError(f"{fn}(): argument 'x' must have at least 2 dimensions for a "
                         f"matrix norm, got {ndim}")
    return _axes_list(axis, ndim, fn)


@op
def matrix_norm(x, p="fro", axis=[-2, -1], keepdim=False, name=None):  # noqa: B006 - Paddle's
    """The matrix norm of ``x`` over the two axes ``axis`` (rows, columns): ``"fro"``
    (Frobenius), ``"nuc"`` (sum of singular values), 2 / -2 (largest / smallest singular
    value), 1 / -1 (largest / smallest column sum of moduli), inf / -inf (largest /
    smallest row sum). Batched over the other axes.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> pylayer.linalg.matrix_norm(a, p=1).numpy()
    array(6., dtype=float32)
    """
    fn = "matrix_norm"
    x = _inexact(x, fn)
    p = _matrix_order(p, fn)
    axes = _two_axes(axis, x.ndim, fn)
    return _matrix_norm(x, p, axes, bool(keepdim), fn)


@op
def norm(x, p=None, axis=None, keepdim=False, out=None, dtype=None, name=None):
    """Paddle's ``paddle.linalg.norm``: a vector norm or a matrix norm.

    With ``axis=None`` the norm of all elements as one vector (``p`` None or ``"fro"``:
    2-norm), except ``p="nuc"``, the nuclear norm of a 2-D ``x``. With one axis (an int
    or a list of one), the vector p-norm along it. With two axes, the matrix norm over
    them (see :func:`matrix_norm`); ``p=None`` is then the 2-norm (largest singular
    value), as in Paddle. ``dtype`` casts ``x`` first.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[3.0, 0.0], [0.0, 4.0]])
    >>> pylayer.linalg.norm(a).numpy()
    array(5., dtype=float32)
    >>> pylayer.linalg.norm(a, p=2, axis=[0, 1]).numpy()
    array(4., dtype=float32)
    """
    fn = "norm"
    x = _inexact(_with_dtype(x, dtype, fn), fn)
    keepdim = bool(keepdim)
    if axis is None:
        if p == "nuc":
            if x.ndim != 2:
                raise ValueError(f"norm(): p='nuc' with axis=None needs a 2-D x, got shape "
                                 f"{x.shape}")
            result = _matrix_norm(x, "nuc", [0, 1], keepdim, fn)
        else:
            order = 2.0 if p in (None, "fro") else _norm_order(p, fn)
            result = _vector_norm(x, order, None, keepdim)
        return _into(out, result, fn)
    axes = _axes_list(axis, max(x.ndim, 1), fn)
    if len(axes) == 1:
        if p == "nuc":
            raise ValueError("norm(): p='nuc' needs two axes, got one")
        order = 2.0 if p in (None, "fro") else _norm_order(p, fn)
        result = _vector_norm(x, order, tuple(axes) if x.ndim else None, keepdim)
    elif len(axes) == 2:
        result = _matrix_norm(x, _matrix_order(2.0 if p is None else p, fn), axes, keepdim,
                              fn)
    else:
        raise ValueError(f"norm(): argument 'axis' must hold one or two axes, got {axis}")
    return _into(out, result, fn)


# --------------------------------------------------------------------- cond
@op(method=True)
def cond(x, p=None, name=None):
    """The condition number of ``x`` in the norm ``p``: for ``None`` or 2 (any shape) the
    ratio of the largest to the smallest singular value, for -2 its inverse; for
    ``"fro"``, ``"nuc"``, 1, -1, inf and -inf (square matrices only)
    ``norm(x) * norm(inv(x))``. Batched, with gradients.

    >>> import pylayer
    >>> pylayer.linalg.cond(pylayer.to_tensor([[2.0, 0.0], [0.0, 0.5]])).numpy()
    array(4., dtype=float32)
    """
    fn = "cond"
    x = _matrix(x, fn)
    if p is not None:
        try:
            p = _matrix_order(p, fn)
        except ValueError:
            raise ValueError(f"cond(): argument 'p' must be None, 'fro', 'nuc', 1, -1, 2, -2, "
                             f"inf or -inf, got {describe(p)}") from None
    if p in (None, 2.0, -2.0):
        values = _svd(x, False, fn)[1]
        big, small = _max(values, axis=-1), _min(values, axis=-1)
        return divide(small, big) if p == -2.0 else divide(big, small)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"cond(): p={p!r} needs square matrices, got shape {x.shape}")
    axes = [x.ndim - 2, x.ndim - 1]
    return multiply(_matrix_norm(x, p, axes, False, fn),
                    _matrix_norm(_inv(x, fn), p, axes, False, fn))


# --------------------------------------------------------------- cov, corrcoef
def _weights(value, fn, arg, count, integer):
    if value is None:
        return None
    value = as_tensor_arg(value, fn, arg, 0)
    kind = value.numpy().dtype.kind
    if (integer and kind not in "iu") or (not integer and kind not in "fiu"):
        raise TypeError(f"{fn}(): argument '{arg}' must be an {'integer' if integer else 'real'} "
                        f"Tensor, got dtype {value.dtype.name}")
    w = value.numpy()
    if w.ndim != 1 or w.shape[0] != count:
        raise ValueError(f"{fn}(): argument '{arg}' must be 1-D with one weight per "
                         f"observation ({count}), got shape {value.shape}")
    if np.any(w < 0):
        raise ValueError(f"{fn}(): argument '{arg}' must not hold negative weights")
    return w.astype(np.float64)


def _cov(x, rowvar, ddof, fweights, aweights, fn):
    x = _inexact(x, fn)
    if x.ndim not in (1, 2):
        raise ValueError(f"{fn}(): argument 'x' (position 1) must be 1-D or 2-D, got shape "
                         f"{x.shape}")
    obs = x if x.ndim == 1 else (x if rowvar else _mT(x))
    if obs.ndim == 1:
        obs = unsqueeze(obs, 0)
    count = obs.shape[1]
    fw = _weights(fweights, fn, "fweights", count, True)
    aw = _weights(aweights, fn, "aweights", count, False)
    w = None if fw is None and aw is None else \
        (np.ones(count) if fw is None else fw) * (1.0 if aw is None else aw)
    correction = 1.0 if ddof else 0.0
    real_dtype = _real_dtype(x.numpy())
    if w is None:
        mean = divide(_sum(obs, axis=1, keepdim=True), _const(np.asarray(count, real_dtype)))
        factor = count - correction
        weighted = None
    else:
        total = w.sum()
        wt = _const(w.astype(real_dtype))
        mean = divide(_sum(multiply(obs, wt), axis=1, keepdim=True),
                      _const(np.asarray(total, real_dtype)))
        if not ddof:
            factor = total
        elif aw is None:
            factor = total - correction
        else:
            factor = total - correction * (w * aw).sum() / total
        weighted = wt
    centered = subtract(obs, mean)
    left = centered if weighted is None else multiply(centered, weighted)
    c = divide(matmul(left, _mH(centered)), _const(np.asarray(factor, real_dtype)))
    return reshape(c, []) if x.ndim == 1 else c


@op(method=True)
def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """The covariance matrix of the variables in ``x`` (rows, or columns with
    ``rowvar=False``; a 1-D ``x`` is one variable, whose variance is a 0-d result).
    ``ddof=True`` divides by ``N - 1``, ``False`` by ``N``; ``fweights`` (integer
    frequencies) and ``aweights`` (real weights) weight the observations as numpy's
    ``cov`` does. Gradients reach ``x``.

    >>> import pylayer
    >>> pylayer.linalg.cov(pylayer.to_tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]])).numpy()
    array([[1., 2.],
           [2., 4.]], dtype=float32)
    """
    return _cov(x, rowvar, ddof, fweights, aweights, "cov")


@op(method=True)
def corrcoef(x, rowvar=True, name=None):
    """Pearson correlation coefficients of the variables in ``x`` (rows, or columns with
    ``rowvar=False``): the covariance divided by the product of the standard deviations.

    >>> import pylayer
    >>> pylayer.linalg.corrcoef(pylayer.to_tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])).numpy()
    array([[ 1., -1.],
           [-1.,  1.]], dtype=float32)
    """
    c = _cov(x, rowvar, True, None, None, "corrcoef")
    if c.ndim == 0:
        return divide(c, c)
    d = _diag(c)
    if _is_complex(c):
        d = real(d)
    std = _as_dtype_of(sqrt(d), c)
    return divide(divide(c, unsqueeze(std, -1)), unsqueeze(std, -2))


# ---------------------------------------------------------------- multi_dot
@op(method=True)
def multi_dot(x, name=None):
    """The product of a list of at least two matrices, the first of which may be a row
    vector (1-D) and the last a column vector (1-D); the others must be 2-D.

    >>> import pylayer
    >>> a = pylayer.ones([2, 3])
    >>> pylayer.linalg.multi_dot([a, pylayer.ones([3, 4]), pylayer.ones([4])]).numpy()
    array([12., 12.], dtype=float32)
    """
    fn = "multi_dot"
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"multi_dot(): argument 'x' (position 1) must be a list of Tensors, "
                        f"got {describe(x)}")
    if len(x) < 2:
        raise ValueError(f"multi_dot(): argument 'x' must hold at least two Tensors, got "
                         f"{len(x)}")
    tensors = []
    for i, t in enumerate(x):
        if not isinstance(t, Tensor):
            raise TypeError(f"multi_dot(): argument 'x' item {i} must be a Tensor, got "
                            f"{describe(t)}")
        tensors.append(_inexact(t, fn, f"x[{i}]"))
    for t in tensors[1:]:
        _same_dtype(fn, tensors[0], t, "x[0]", "x[i]")
    first_vector, last_vector = tensors[0].ndim == 1, tensors[-1].ndim == 1
    if first_vector:
        tensors[0] = unsqueeze(tensors[0], 0)
    if last_vector:
        tensors[-1] = unsqueeze(tensors[-1], -1)
    for i, t in enumerate(tensors):
        if t.ndim != 2:
            raise ValueError(f"multi_dot(): item {i} of argument 'x' must be 2-D (the first "
                             f"and the last may be 1-D), got shape {x[i].shape}")
    for i in range(1, len(tensors)):
        if tensors[i - 1].shape[1] != tensors[i].shape[0]:
            raise ValueError(f"multi_dot(): items {i - 1} and {i} of argument 'x' do not fit "
                             f"a matrix product: shapes {x[i - 1].shape} and {x[i].shape}")
    result = tensors[0]
    for t in tensors[1:]:
        result = matmul(result, t)
    if first_vector:
        result = squeeze(result, 0)
    if last_vector:
        result = squeeze(result, -1)
    return result


# -------------------------------------------------------------------- cross
@op
def cross(x, y, axis=9, name=None):
    """The cross product of 3-vectors along ``axis`` (the default 9 means the first axis of
    size 3). ``x`` and ``y`` have the same shape.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0, 0.0, 0.0])
    >>> pylayer.linalg.cross(x, pylayer.to_tensor([0.0, 1.0, 0.0])).numpy()
    array([0., 0., 1.], dtype=float32)
    """
    fn = "cross"
    x = as_tensor_arg(x, fn, "x", 1)
    y = as_tensor_arg(y, fn, "y", 2)
    if x.shape != y.shape:
        raise ValueError(f"cross(): x and y must have the same shape, got {x.shape} and "
                         f"{y.shape}")
    if x.dtype.name == "bool":
        raise TypeError("cross(): argument 'x' (position 1) must be a numeric Tensor, got "
                        "dtype bool")
    if check_int(axis, fn, "axis") == 9:
        sizes = [i for i, d in enumerate(x.shape) if d == 3]
        if not sizes:
            raise ValueError(f"cross(): x of shape {x.shape} has no axis of size 3")
        axis = sizes[0]
    else:
        axis = check_axis(axis, x.ndim, fn)
        if x.shape[axis] != 3:
            raise ValueError(f"cross(): axis {axis} of x (shape {x.shape}) must have size 3")
    x0, x1, x2 = unstack(x, axis)
    y0, y1, y2 = unstack(y, axis)
    return stack([subtract(multiply(x1, y2), multiply(x2, y1)),
                  subtract(multiply(x2, y0), multiply(x0, y2)),
                  subtract(multiply(x0, y1), multiply(x1, y0))], axis)


# ----------------------------------------------------------------- diagonal
@op
def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    """The diagonal of ``x`` over the axes ``axis1`` and ``axis2`` (above the main one for
    ``offset > 0``, below for ``offset < 0``): those axes are removed and the diagonal is
    the last axis. Gradients reach the diagonal entries.

    >>> import pylayer
    >>> pylayer.linalg.diagonal(pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy()
    array([1., 4.], dtype=float32)
    """
    fn = "diagonal"
    x = as_tensor_arg(x, fn, "x", 1)
    if x.ndim < 2:
        raise ValueError(f"diagonal(): argument 'x' (position 1) must have at least 2 "
                         f"dimensions, got shape {x.shape}")
    offset = check_int(offset, fn, "offset")
    a1 = check_axis(axis1, x.ndim, fn, "axis1")
    a2 = check_axis(axis2, x.ndim, fn, "axis2")
    if a1 == a2:
        raise ValueError(f"diagonal(): axis1 and axis2 must differ, got {axis1} and {axis2}")
    if x.dtype.name not in _INEXACT:
        return _const(np.diagonal(x.numpy(), offset, a1, a2))
    moved = transpose(x, [i for i in range(x.ndim) if i not in (a1, a2)] + [a1, a2])
    rows, cols = moved.shape[-2:]
    if offset >= 0:
        size = max(0, min(rows, cols - offset))
        square = moved[..., :size, offset:offset + size]
    else:
        size = max(0, min(rows + offset, cols))
        square = moved[..., -offset:-offset + size, :size]
    return _diag(square)


# ------------------------------------------------- householder_product, ormqr
def _reflectors(x, tau, fn):
    x = _matrix(x, fn)
    tau = _inexact(tau, fn, "tau", 2)
    _same_dtype(fn, x, tau, "x", "tau")
    m, n = x.shape[-2:]
    if tau.ndim < 1 or tuple(tau.shape[:-1]) != tuple(x.shape[:-2]) or tau.shape[-1] > n \
            or n > m:
        raise ValueError(f"{fn}(): x [..., M, N] with M >= N and tau [..., K] with K <= N and "
                         f"the same batch are needed, got x of shape {x.shape} and tau of "
                         f"shape {tau.shape}")
    k = tau.shape[-1]
    vectors = add(_band(x[..., :, :k], -1, True),
                  _const(np.eye(m, k, dtype=x.numpy().dtype)))
    return x, tau, vectors, k


def _reflect(target, vectors, tau, order, left, conjugate_tau):
    """Apply H_i = I - tau_i v_i v_i^H (or its adjoint) for i in ``order`` to ``target``."""
    for i in order:
        v = vectors[..., :, i:i + 1]
        t = unsqueeze(tau[..., i:i + 1], -1)
        if conjugate_tau:
            t = conjugate(t)
        if left:
            target = subtract(target, matmul(v, multiply(t, matmul(_mH(v), target))))
        else:
            target = subtract(target, multiply(t, matmul(matmul(target, v), _mH(v))))
    return target


@op(method=True)
def householder_product(x, tau, name=None):
    """The first N columns of ``Q = H_1 ... H_K`` from Householder reflectors: ``H_i = I -
    tau_i v_i v_i^H`` where ``v_i`` is column i of ``x`` below the diagonal with a 1 on it
    (as LAPACK's ``geqrf`` stores them). ``x`` is ``[..., M, N]`` (M >= N), ``tau``
    ``[..., K]`` (K <= N). Gradients reach ``x`` and ``tau``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 0.0], [1.0, 1.0]])
    >>> pylayer.linalg.householder_product(x, pylayer.to_tensor([1.0, 0.0])).numpy()
    array([[ 0., -1.],
           [-1.,  0.]], dtype=float32)
    """
    x, tau, vectors, k = _reflectors(x, tau, "householder_product")
    m, n = x.shape[-2:]
    identity = _const(np.broadcast_to(np.eye(m, n, dtype=x.numpy().dtype),
                                      tuple(x.shape)).copy())
    return _reflect(identity, vectors, tau, range(k - 1, -1, -1), True, False)


@op(method=True)
def ormqr(x, tau, y, left=True, transpose=False, name=None):
    """``Q @ y`` (``y @ Q`` with ``left=False``; ``Q^H`` with ``transpose=True``) for the
    ``M x M`` matrix ``Q = H_1 ... H_K`` of the Householder reflectors in ``x`` and
    ``tau`` (see :func:`householder_product`), without forming Q. ``y`` has M rows (M
    columns with ``left=False``). Gradients reach all three.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 0.0], [1.0, 1.0]])
    >>> pylayer.linalg.ormqr(x, pylayer.to_tensor([1.0, 0.0]), pylayer.eye(2)).numpy()
    array([[ 0., -1.],
           [-1.,  0.]], dtype=float32)
    """
    fn = "ormqr"
    x, tau, vectors, k = _reflectors(x, tau, fn)
    y = _matrix(y, fn, "y", 3)
    _same_dtype(fn, x, y, "x", "y")
    m = x.shape[-2]
    if y.shape[-2 if left else -1] != m:
        raise ValueError(f"ormqr(): y of shape {y.shape} must have {m} "
                         f"{'rows' if left else 'columns'} for reflectors of length {m}")
    forward = (left and not transpose) or (not left and transpose)
    order = range(k - 1, -1, -1) if forward else range(k)
    return _reflect(y, vectors, tau, order, bool(left), bool(transpose))


# ------------------------------------------------------- low-rank SVD and PCA
def _low_rank(x, q, niter, fn):
    n = x.shape[-1]
    omega = _const(get_rng().standard_normal(tuple(x.shape[:-2]) + (n, q))
                   .astype(x.numpy().dtype))
    basis = qr(matmul(x, omega))[0]
    for _ in range(niter):
        basis = qr(matmul(_mH(x), basis))[0]
        basis = qr(matmul(x, basis))[0]
    u, s, vh = _svd(matmul(_mH(basis), x), False, fn)
    return matmul(basis, u), s, _mH(vh)


def _rank_arg(q, x, fn):
    m, n = x.shape[-2:]
    if q is None:
        return min(6, m, n)
    q = check_int(q, fn, "q", minimum=0)
    if q > min(m, n):
        raise ValueError(f"{fn}(): argument 'q' must be at most min(M, N) = {min(m, n)}, got "
                         f"{q}")
    return q


@op(method=True)
def svd_lowrank(x, q=None, niter=2, M=None, name=None):
    """An approximate SVD of rank ``q`` (default ``min(6, M, N)``) of ``x - M`` by
    randomized subspace iteration (``niter`` power iterations): ``(U [..., M, q], S
    [..., q], V [..., N, q])`` with ``x - M ~ U diag(S) V^H``. Uses pylayer's random
    stream; written with recorded ops, so it has gradients.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[3.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    >>> u, s, v = pylayer.linalg.svd_lowrank(a, q=2)
    >>> s.numpy().round(4)
    array([3., 1.], dtype=float32)
    """
    fn = "svd_lowrank"
    x = _matrix(x, fn)
    q = _rank_arg(q, x, fn)
    niter = check_int(niter, fn, "niter", minimum=0)
    if M is not None:
        M = _inexact(M, fn, "M", 4)
        _same_dtype(fn, x, M, "x", "M")
        try:
            np.broadcast_shapes(tuple(M.shape), tuple(x.shape))
        except ValueError:
            raise ValueError(f"svd_lowrank(): M of shape {M.shape} does not broadcast to x "
                             f"of shape {x.shape}") from None
        x = subtract(x, M)
    return _low_rank(x, q, niter, fn)


@op(method=True)
def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """Principal component analysis of the rows of ``x`` (observations): the low-rank SVD
    (see :func:`svd_lowrank`) of ``x`` with its column means subtracted when ``center``.
    Returns ``(U, S, V)``; the principal directions are the columns of V.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    >>> u, s, v = pylayer.linalg.pca_lowrank(a, q=1)
    >>> s.numpy().round(4)
    array([2.], dtype=float32)
    """
    fn = "pca_lowrank"
    x = _matrix(x, fn)
    q = _rank_arg(q, x, fn)
    niter = check_int(niter, fn, "niter", minimum=0)
    if center:
        rows = x.shape[-2]
        x = subtract(x, divide(_sum(x, axis=-2, keepdim=True),
                               _const(np.asarray(rows, _real_dtype(x.numpy())))))
    return _low_rank(x, q, niter, fn)
