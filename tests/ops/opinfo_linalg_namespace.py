"""The op database entries of ``pylayer.linalg`` (its names are written ``linalg.<name>``).

Inputs are uniform in [-2, 2]; an op that needs a special matrix builds it from the
input inside ``op`` and its reference does the same in numpy: ``x @ x^T + 3 I`` for a
positive-definite one, ``x + x^H`` for a Hermitian one, ``x + 3 I`` for a triangular
factor with a safe diagonal. Singular vectors and eigenvectors are compared (and
differentiated) through their moduli, which do not depend on the phase LAPACK picks.
The low-rank SVD and PCA seed pylayer's random stream and keep full rank, where the
result does not depend on the random draw.
"""
import numpy as np
import scipy.linalg

import pylayer
from pylayer import linalg as L

from opinfo import COMPLEX, FLOATS, INTS, OpInfo, T, samples
from _hostile_values import A, K, Call, _value, f22, f23, f3

_TOL = {"float32": (1e-4, 1e-5), "float64": (1e-9, 1e-11), "complex64": (1e-4, 1e-5),
        "complex128": (1e-9, 1e-11)}
_INEXACT = FLOATS + COMPLEX


def _sq(env=None):
    return pylayer.to_tensor([[2.0, 1.0], [1.0, 3.0]])


def _col(env=None):
    return pylayer.to_tensor([[1.0], [2.0]])


def _call(*extra_args, extra=(), kind="inexact_tensor", first=_sq):
    return Call(A("x", first, kind), *extra_args, extra=extra)


NOT_SQUARE = ("a matrix that is not square", {"x": lambda env: f23()}, "x")
A_VECTOR = ("a vector", {"x": lambda env: f3()}, "x")


# ------------------------------------------------------- building special inputs
def _eye_t(x):
    return pylayer.eye(x.shape[-1], dtype=x.dtype)


def _spd(x):
    return pylayer.matmul(x, x, transpose_y=True) + 3.0 * _eye_t(x)


def _spd_np(x):
    return x @ np.swapaxes(x, -1, -2) + 3.0 * np.eye(x.shape[-1], dtype=x.dtype)


def _herm(x):
    return x + pylayer.conj(L.matrix_transpose(x))


def _herm_np(x):
    return x + np.conj(np.swapaxes(x, -1, -2))


def _factor(y):
    return y + 3.0 * _eye_t(y)


def _factor_np(y):
    return y + 3.0 * np.eye(y.shape[-1], dtype=y.dtype)


def _moduli(outputs):
    return tuple(pylayer.abs(t) if t.dtype.name.startswith("complex") or t.ndim >= 2 else t
                 for t in outputs)


def _moduli_np(outputs):
    return [np.abs(o) if np.iscomplexobj(o) or o.ndim >= 2 else o for o in outputs]


# ---------------------------------------------------------------- references
def _solve_ref(x, y, left=True):
    if left:
        return np.linalg.solve(x, y[..., None])[..., 0] if y.ndim == 1 else np.linalg.solve(x, y)
    return np.swapaxes(np.linalg.solve(np.swapaxes(x, -1, -2), np.swapaxes(y, -1, -2)), -1, -2)


def _triangular_ref(x, y, upper=True, transpose=False, unitriangular=False):
    a = np.triu(x) if upper else np.tril(x)
    if unitriangular:
        eye = np.eye(a.shape[-1], dtype=a.dtype)
        a = a * (1 - eye) + eye
    if transpose:
        a = np.swapaxes(a, -1, -2)
    return np.linalg.solve(np.broadcast_to(a, np.broadcast_shapes(a.shape[:-2], y.shape[:-2])
                                           + a.shape[-2:]), y).astype(x.dtype)


def _cholesky_ref(x, upper=False):
    lower = np.linalg.cholesky(_spd_np(x))
    return np.swapaxes(lower, -1, -2) if upper else lower


def _cholesky_solve_ref(x, y, upper=False):
    f = _factor_np(y)
    f = np.triu(f) if upper else np.tril(f)
    a = np.conj(np.swapaxes(f, -1, -2)) @ f if upper else f @ np.conj(np.swapaxes(f, -1, -2))
    return np.linalg.solve(a, x)


def _cholesky_inverse_ref(y, upper=False):
    f = _factor_np(y)
    a = np.conj(np.swapaxes(f, -1, -2)) @ f if upper else f @ np.conj(np.swapaxes(f, -1, -2))
    return np.linalg.inv(a)


def _qr_ref(x, mode="reduced"):
    return np.linalg.qr(x, mode=mode)


def _lu_ref(x):
    packed, pivots = scipy.linalg.lu_factor(x)
    return [packed.astype(x.dtype), (pivots + 1).astype(np.int32)]


def _lu_unpack_ref(x):
    p, lower, upper = scipy.linalg.lu(x)
    return [p.astype(x.dtype), lower.astype(x.dtype), upper.astype(x.dtype)]


def _lu_solve_ref(b, x, trans="N"):
    a = {"N": x, "T": np.swapaxes(x, -1, -2), "C": np.conj(np.swapaxes(x, -1, -2))}[trans]
    return np.linalg.solve(a, b)


def _lstsq_ref(x, y, rcond=None, driver=None):
    return np.linalg.pinv(x) @ y


def _vector_norm_ref(x, p=2.0, axis=None, keepdim=False):
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.linalg.vector_norm(x, ord=p, axis=axis, keepdims=keepdim).astype(
        np.abs(x).dtype)


def _matrix_norm_ref(x, p="fro", axis=(-2, -1), keepdim=False):
    return np.linalg.norm(x, ord=p, axis=tuple(axis), keepdims=keepdim).astype(np.abs(x).dtype)


def _norm_ref(x, p=None, axis=None, keepdim=False):
    real = np.abs(x).dtype
    if axis is None:
        if p == "nuc":
            return np.linalg.norm(x, "nuc").astype(real)
        return _vector_norm_ref(x, 2.0 if p in (None, "fro") else p, None, keepdim)
    if isinstance(axis, int) or len(axis) == 1:
        return _vector_norm_ref(x, 2.0 if p in (None, "fro") else p, axis, keepdim)
    return _matrix_norm_ref(x, 2 if p is None else p, axis, keepdim)


def _cross_ref(x, y, axis=9):
    if axis == 9:
        axis = list(x.shape).index(3)
    return np.cross(x, y, axis=axis)


def _reflectors_np(x, tau):
    m = x.shape[-2]
    q = np.eye(m, dtype=x.dtype)
    for i in range(tau.shape[-1]):
        v = np.zeros(m, dtype=x.dtype)
        v[i] = 1
        v[i + 1:] = x[i + 1:, i]
        q = q @ (np.eye(m, dtype=x.dtype) - tau[i] * np.outer(v, np.conj(v)))
    return q


def _householder_ref(x, tau):
    return _reflectors_np(x, tau)[:, :x.shape[-1]]


def _ormqr_ref(x, tau, y, left=True, transpose=False):
    q = _reflectors_np(x, tau)
    if transpose:
        q = np.conj(q.T)
    return q @ y if left else y @ q


def _widened(a):
    """Integer sums are int64, as Paddle's."""
    return a.astype(np.int64) if a.dtype.kind == "i" else a


def _cov_ref(x, rowvar=True, ddof=True):
    return np.cov(x, rowvar=rowvar, ddof=1 if ddof else 0).astype(x.dtype)


def _low_rank(fn):
    """The rank-min(M, N) approximation (exact) as S and U diag(S) V^H, with the random
    stream seeded, so that central differences see one function."""
    def call(x, **kw):
        pylayer.seed(0)
        u, s, v = fn(x, q=min(x.shape[-2:]), **kw)
        return s, pylayer.matmul(u * s.unsqueeze(-2), v, transpose_y=True)
    return call


def _low_rank_ref(x, center=False):
    if center:
        x = x - x.mean(axis=-2, keepdims=True)
    return [np.linalg.svd(x, compute_uv=False), x]


SQUARE = samples((T((3, 3)),), (T((2, 3, 3)),))
RECT = samples((T((3, 3)),), (T((2, 4, 3)),), (T((3, 5)),))

ENTRIES = [
    # --------------------------------------------------------- inverses, solves
    OpInfo("linalg.inv", np.linalg.inv, SQUARE + samples((T((2, 0, 0)),)), dtypes=_INEXACT,
           tolerance=_TOL, call=_call(extra=[NOT_SQUARE, A_VECTOR])),
    OpInfo("linalg.det", np.linalg.det, SQUARE + samples((T((2, 2)),)), dtypes=_INEXACT,
           tolerance=_TOL, call=_call(extra=[NOT_SQUARE, A_VECTOR])),
    OpInfo("linalg.slogdet", lambda x: np.stack(np.linalg.slogdet(x)).astype(x.dtype), SQUARE,
           dtypes=_INEXACT, tolerance=_TOL, call=_call(extra=[NOT_SQUARE])),
    OpInfo("linalg.solve", _solve_ref, samples(
        (T((3, 3)), T((3, 2))), (T((2, 3, 3)), T((3, 1))), (T((3, 3)), T((2, 3, 2))),
        (T((3, 3)), T((3,))), ((T((3, 3)), T((2, 3))), {"left": False})),
           dtypes=_INEXACT, tolerance=_TOL,
           call=_call(A("y", _col, "tensor"),
                      extra=[NOT_SQUARE, ("a y that does not fit",
                                          {"y": lambda env: pylayer.ones([3, 1])}, ("x", "y")),
                             ("a y of another dtype",
                              {"y": lambda env: pylayer.ones([2, 1], dtype="float64")},
                              ("x", "y"))])),
    OpInfo("linalg.triangular_solve", _triangular_ref, samples(
        (T((3, 3)), T((3, 2))), ((T((2, 3, 3)), T((3, 2))), {"upper": False}),
        ((T((3, 3)), T((2, 3, 1))), {"transpose": True}),
        ((T((3, 3)), T((3, 2))), {"upper": False, "transpose": True, "unitriangular": True})),
           domain=(0.5, 2.0), dtypes=_INEXACT, tolerance=_TOL,
           call=_call(A("y", _col, "inexact_tensor"),
                      extra=[NOT_SQUARE, ("a y with other rows",
                                          {"y": lambda env: pylayer.ones([3, 1])}, ("x", "y"))])),
    # ------------------------------------------------------------------ cholesky
    OpInfo("linalg.cholesky", _cholesky_ref, samples((T((3, 3)),), (T((2, 3, 3)),),
                                                     ((T((3, 3)),), {"upper": True})),
           op=lambda x, **kw: L.cholesky(_spd(x), **kw), tolerance=_TOL,
           call=_call(kind="float_tensor", extra=[
               NOT_SQUARE, ("a matrix that is not positive definite",
                            {"x": lambda env: -_sq()}, "x")])),
    OpInfo("linalg.cholesky_solve", _cholesky_solve_ref, samples(
        (T((3, 2)), T((3, 3))), ((T((2, 3, 1)), T((3, 3))), {"upper": True})),
           op=lambda x, y, **kw: L.cholesky_solve(x, _factor(y), **kw), dtypes=_INEXACT,
           tolerance=_TOL,
           call=Call(A("x", _col, "inexact_tensor"), A("y", _sq, "inexact_tensor"),
                     extra=[("an x with other rows", {"x": lambda env: pylayer.ones([3, 1])},
                             ("x", "y"))])),
    OpInfo("linalg.cholesky_inverse", _cholesky_inverse_ref,
           samples((T((3, 3)),), ((T((2, 3, 3)),), {"upper": True})),
           op=lambda y, **kw: L.cholesky_inverse(_factor(y), **kw), dtypes=_INEXACT,
           tolerance=_TOL, call=_call(extra=[NOT_SQUARE])),
    # ------------------------------------------------------------ decompositions
    OpInfo("linalg.qr", _qr_ref, samples((T((3, 3)),), (T((2, 4, 3)),), (T((3, 5)),),
                                         ((T((3, 3)),), {"mode": "complete"})),
           dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("mode", _value("complete"), "str"),
                      extra=[("an unknown mode", {"mode": _value("full")}, "mode"),
                             A_VECTOR])),
    OpInfo("linalg.qr", _qr_ref, samples(((T((4, 3)),), {"mode": "r"})), dtypes=_INEXACT,
           tolerance=_TOL, differentiable=False, variant="r"),
    OpInfo("linalg.svd", lambda x, full_matrices=False: _moduli_np(
        np.linalg.svd(x, full_matrices=full_matrices)),
           RECT, op=lambda x, **kw: _moduli(L.svd(x, **kw)), dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("full_matrices", _value(True), None), extra=[A_VECTOR])),
    # The columns of U past min(M, N) are any orthonormal completion: no gradient.
    OpInfo("linalg.svd", lambda x: _moduli_np(np.linalg.svd(x))[1:],
           samples((T((4, 3)),), (T((2, 4, 3)),)), variant="full_matrices",
           op=lambda x: _moduli(L.svd(x, full_matrices=True))[1:], dtypes=_INEXACT,
           tolerance=_TOL),
    OpInfo("linalg.svdvals", lambda x: np.linalg.svd(x, compute_uv=False), RECT,
           dtypes=_INEXACT, tolerance=_TOL, call=_call(extra=[A_VECTOR])),
    OpInfo("linalg.eigh", lambda x, **kw: _moduli_np(np.linalg.eigh(_herm_np(x), **kw)),
           samples((T((3, 3)),), (T((2, 3, 3)),), ((T((3, 3)),), {"UPLO": "U"})),
           op=lambda x, **kw: _moduli(L.eigh(_herm(x), **kw)), dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("UPLO", _value("U"), "str"),
                      extra=[NOT_SQUARE, ("an unknown UPLO", {"UPLO": _value("X")}, "UPLO")])),
    OpInfo("linalg.eigvalsh", lambda x, **kw: np.linalg.eigvalsh(_herm_np(x), **kw),
           samples((T((3, 3)),), ((T((2, 3, 3)),), {"UPLO": "U"})),
           op=lambda x, **kw: L.eigvalsh(_herm(x), **kw), dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("UPLO", _value("U"), "str"), extra=[NOT_SQUARE])),
    OpInfo("linalg.eig", lambda x: _moduli_np([a.astype(np.result_type(x, np.complex64))
                                               for a in np.linalg.eig(x)]),
           SQUARE, op=lambda x: _moduli(L.eig(x)), dtypes=_INEXACT, tolerance=_TOL,
           call=_call(extra=[NOT_SQUARE])),
    OpInfo("linalg.eigvals",
           lambda x: np.linalg.eigvals(x).astype(np.result_type(x, np.complex64)), SQUARE,
           dtypes=_INEXACT, tolerance=_TOL, call=_call(extra=[NOT_SQUARE])),
    OpInfo("linalg.lu", _lu_ref, samples((T((3, 3)),), (T((2, 4, 3)),), (T((3, 5)),)),
           op=lambda x: L.lu(x), dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("pivot", _value(True), None), K("get_infos", _value(True), None),
                      extra=[A_VECTOR])),
    OpInfo("linalg.lu_unpack", _lu_unpack_ref, samples((T((3, 3)),), (T((4, 3)),), (T((3, 5)),)),
           op=lambda x: L.lu_unpack(*L.lu(x)), dtypes=_INEXACT, tolerance=_TOL,
           call=Call(A("x", _sq, "inexact_tensor"),
                     A("y", lambda env: pylayer.to_tensor([2, 2], dtype="int32"), "int_tensor"),
                     extra=[("pivots of the wrong shape",
                             {"y": lambda env: pylayer.to_tensor([1], dtype="int32")}, "y"),
                            ("a pivot out of range",
                             {"y": lambda env: pylayer.to_tensor([3, 2], dtype="int32")}, "y")])),
    OpInfo("linalg.lu_solve", _lu_solve_ref, samples(
        (T((3, 2)), T((3, 3))), ((T((2, 3, 1)), T((2, 3, 3))), {"trans": "T"}),
        ((T((3, 2)), T((3, 3))), {"trans": "C"})),
           op=lambda b, x, **kw: L.lu_solve(b, *L.lu(x), **kw), dtypes=_INEXACT, tolerance=_TOL,
           call=Call(A("b", _col, "inexact_tensor"), A("lu", _sq, "inexact_tensor"),
                     A("pivots", lambda env: pylayer.to_tensor([2, 2], dtype="int32"),
                       "int_tensor"),
                     K("trans", _value("T"), "str"),
                     extra=[("an unknown trans", {"trans": _value("X")}, "trans"),
                            ("a b with other rows", {"b": lambda env: pylayer.ones([3, 1])},
                             "b")])),
    OpInfo("linalg.householder_product", _householder_ref,
           samples((T((4, 3)), T((3,))), (T((3, 3)), T((2,)))), dtypes=_INEXACT,
           tolerance=_TOL,
           call=Call(A("x", lambda env: pylayer.ones([3, 2]), "inexact_tensor"),
                     A("tau", lambda env: pylayer.ones([2]), "inexact_tensor"),
                     extra=[("a tau too long", {"tau": lambda env: pylayer.ones([3])},
                             ("x", "tau"))])),
    OpInfo("linalg.ormqr", _ormqr_ref, samples(
        (T((4, 3)), T((3,)), T((4, 2))),
        ((T((3, 3)), T((2,)), T((2, 3))), {"left": False, "transpose": True}),
        ((T((3, 3)), T((3,)), T((3, 1))), {"transpose": True})), dtypes=_INEXACT,
           tolerance=_TOL,
           call=Call(A("x", lambda env: pylayer.ones([3, 2]), "inexact_tensor"),
                     A("tau", lambda env: pylayer.ones([2]), "inexact_tensor"),
                     A("y", lambda env: pylayer.ones([3, 1]), "inexact_tensor"),
                     K("left", _value(True), None), K("transpose", _value(False), None),
                     extra=[("a y with other rows", {"y": lambda env: pylayer.ones([2, 1])},
                             "y")])),
    # ------------------------------------------- pseudo-inverse, least squares, powers
    OpInfo("linalg.pinv", np.linalg.pinv, RECT, dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("rcond", _value(1e-10), "non_negative"),
                      K("hermitian", _value(False), None), extra=[A_VECTOR])),
    OpInfo("linalg.lstsq", _lstsq_ref, samples((T((4, 3)), T((4, 2))), (T((3, 3)), T((3, 1))),
                                               ((T((2, 4, 3)), T((2, 4, 2))),
                                                {"driver": "gelsd"})),
           op=lambda x, y, **kw: L.lstsq(x, y, **kw)[0], tolerance=_TOL,
           call=Call(A("x", _sq, "inexact_tensor"), A("y", _col, "inexact_tensor"),
                     K("driver", _value("gelsd"), "str_or_none"),
                     extra=[("an unknown driver", {"driver": _value("gesv")}, "driver"),
                            ("a y with other rows", {"y": lambda env: pylayer.ones([3, 1])},
                             ("x", "y"))])),
    OpInfo("linalg.matrix_power", lambda x, n: np.linalg.matrix_power(x, n), samples(
        (T((3, 3)), 3), (T((2, 3, 3)), 0), (T((3, 3)), -2), (T((2, 2)), 1)), dtypes=_INEXACT,
           tolerance=_TOL,
           call=_call(A("n", _value(2), "int"), extra=[NOT_SQUARE])),
    OpInfo("linalg.matrix_exp", lambda x: scipy.linalg.expm(x), samples(
        (T((3, 3)),), (T((2, 3, 3)),), (T((2, 2), -0.2, 0.2),)),
           tolerance={"float32": (1e-5, 1e-5), "float64": (1e-12, 1e-12)},
           call=_call(kind="float_tensor", extra=[NOT_SQUARE])),
    OpInfo("linalg.matrix_rank", lambda x, **kw: np.asarray(np.linalg.matrix_rank(
        _herm_np(x) if kw.get("hermitian") else x, **kw)),
           samples((T((3, 3)),), (T((2, 4, 3)),), ((T((3, 3)),), {"tol": 1.0}),
                   ((T((3, 3)),), {"hermitian": True})),
           op=lambda x, **kw: L.matrix_rank(_herm(x) if kw.get("hermitian") else x, **kw),
           dtypes=_INEXACT, differentiable=False,
           call=_call(K("tol", _value(None), "non_negative_or_none"),
                      K("atol", _value(0.5), "non_negative_or_none"),
                      K("rtol", _value(0.1), "non_negative_or_none"), extra=[A_VECTOR])),
    # ---------------------------------------------------------------- norms
    OpInfo("linalg.norm", _norm_ref, samples(
        (T((2, 3)),), ((T((2, 3, 4)),), {"p": 1}), ((T((2, 3)),), {"p": "nuc"}),
        ((T((2, 3, 4)),), {"axis": 1, "p": 3.0, "keepdim": True}),
        ((T((2, 3, 4)),), {"axis": [0, 2]}), ((T((2, 3, 4)),), {"axis": [2, 1], "p": "fro"}),
        ((T((2, 3, 4)),), {"axis": [0, 1], "p": float("inf")})),
           dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("p", _value("fro"), "str_or_none"), K("axis", _value([0, 1]), "axis"),
                      extra=[("an unknown order", {"p": _value("spectral")}, "p"),
                             ("three axes", {"x": lambda env: pylayer.ones([2, 2, 2]),
                                             "axis": _value([0, 1, 2])}, "axis")])),
    OpInfo("linalg.vector_norm", _vector_norm_ref, samples(
        (T((2, 3)),), ((T((2, 3, 4)),), {"p": 1.0, "axis": [0, 2]}),
        ((T((2, 3)),), {"p": float("inf"), "axis": 1, "keepdim": True}),
        ((T((2, 3)),), {"p": -float("inf")}), ((T((2, 3)),), {"p": 0.5, "axis": -1}),
        ((T((4,)),), {"p": 3.0}), (T(()),)),
           dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("p", _value(3.0), "number"), K("axis", _value(1), "axis"),
                      K("dtype", _value(None), "dtype"), first=f23)),
    OpInfo("linalg.vector_norm", _vector_norm_ref, samples(((T((2, 3)),), {"p": 0})),
           dtypes=_INEXACT, differentiable=False, variant="count"),
    OpInfo("linalg.matrix_norm", _matrix_norm_ref, samples(
        (T((2, 3)),), ((T((2, 3, 4)),), {"p": "nuc"}), ((T((3, 3)),), {"p": 2}),
        ((T((2, 3, 4)),), {"p": -2, "axis": [0, 2]}),
        ((T((2, 3, 4)),), {"p": 1, "axis": [2, 1], "keepdim": True}),
        ((T((3, 4)),), {"p": -1}), ((T((2, 3, 4)),), {"p": float("inf")}),
        ((T((3, 4)),), {"p": -float("inf")})), dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("p", _value("nuc"), "str"), K("axis", _value([0, 1]), "axis"),
                      extra=[("an order no matrix norm has", {"p": _value(3)}, "p"),
                             ("one axis", {"axis": _value([0])}, "axis")], first=f23)),
    OpInfo("linalg.cond", lambda x, p=None: np.linalg.cond(x, p), samples(
        (T((3, 3)),), ((T((2, 3, 3)),), {"p": "fro"}), ((T((3, 3)),), {"p": "nuc"}),
        ((T((3, 3)),), {"p": -2}), ((T((3, 3)),), {"p": 1}), ((T((3, 3)),), {"p": -1}),
        ((T((3, 3)),), {"p": float("inf")}), ((T((3, 3)),), {"p": -float("inf")}),
        (T((4, 3)),)), dtypes=_INEXACT,
           tolerance={**_TOL, "float32": (1e-3, 1e-4), "complex64": (1e-3, 1e-4)},
           call=_call(K("p", _value("fro"), "str_or_none"),
                      extra=[("an unknown order", {"p": _value(3)}, "p"),
                             ("p='fro' for a matrix that is not square",
                              {"x": lambda env: f23()}, ("x", "p"))])),
    # ------------------------------------------------------------ statistics
    OpInfo("linalg.cov", _cov_ref, samples(
        (T((3, 4)),), ((T((4, 3)),), {"rowvar": False}), ((T((3, 5)),), {"ddof": False}),
        (T((5,)),)), dtypes=_INEXACT, tolerance=_TOL,
           call=_call(K("fweights", _value(None), "tensor_or_none"),
                      K("aweights", _value(None), "tensor_or_none"),
                      extra=[("negative weights",
                              {"aweights": lambda env: pylayer.to_tensor([1.0, -1.0])},
                              "aweights"),
                             ("float frequencies",
                              {"fweights": lambda env: pylayer.to_tensor([1.0, 2.0])},
                              "fweights"),
                             ("weights of the wrong length",
                              {"fweights": lambda env: pylayer.to_tensor([1, 2, 3])},
                              "fweights"),
                             ("a 3-D x", {"x": lambda env: pylayer.ones([2, 2, 2])}, "x")])),
    OpInfo("linalg.corrcoef", lambda x, rowvar=True: np.corrcoef(x, rowvar=rowvar).astype(x.dtype),
           samples((T((3, 4)),), ((T((4, 3)),), {"rowvar": False})), dtypes=_INEXACT,
           tolerance=_TOL,
           call=_call(extra=[("a 3-D x", {"x": lambda env: pylayer.ones([2, 2, 2])}, "x")])),
    # ------------------------------------------------------- products and shapes
    OpInfo("linalg.multi_dot", lambda *xs: np.linalg.multi_dot(xs), samples(
        (T((2, 3)), T((3, 4))), (T((3,)), T((3, 4)), T((4, 2))),
        (T((2, 3)), T((3, 4)), T((4,)))),
           op=lambda *xs: L.multi_dot(list(xs)), dtypes=_INEXACT, tolerance=_TOL,
           call=Call(A("x", lambda env: [f22(), f22()], "tensors"),
                     extra=[("one tensor", {"x": lambda env: [f22()]}, "x"),
                            ("shapes that do not fit", {"x": lambda env: [f22(), f23(), f22()]},
                             "x")])),
    OpInfo("linalg.cross", _cross_ref, samples(
        (T((3, 2)), T((3, 2))), ((T((2, 3)), T((2, 3))), {"axis": 1}),
        ((T((4, 3)), T((4, 3))), {"axis": -1})), dtypes=_INEXACT + INTS,
           call=Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                     K("axis", _value(1), "int_axis"),
                     extra=[("shapes that differ", {"y": lambda env: pylayer.ones([3, 2])},
                             ("x", "y")),
                            ("an axis of size 2", {"axis": _value(0)}, "axis")])),
    OpInfo("linalg.diagonal", lambda x, offset=0, axis1=0, axis2=1:
           np.diagonal(x, offset, axis1, axis2).copy(), samples(
               (T((3, 4)),), ((T((2, 3, 4)),), {"offset": 1, "axis1": 2, "axis2": 1}),
               ((T((3, 4)),), {"offset": -2}), ((T((2, 3)),), {"offset": 5})),
           dtypes=_INEXACT + INTS,
           call=Call(A("x", f23, "tensor"), K("offset", _value(1), "int"),
                     K("axis1", _value(1), "int_axis"), K("axis2", _value(0), "int_axis"),
                     extra=[("the same axis twice", {"axis2": _value(1)}, ("axis1", "axis2")),
                            A_VECTOR])),
    OpInfo("linalg.vecdot", lambda x, y, axis=-1: _widened(np.vecdot(x, y, axis=axis)), samples(
        (T((2, 3)), T((2, 3))), (T((2, 3)), T((3,))), ((T((3, 2)), T((3, 1))), {"axis": 0})),
           dtypes=_INEXACT + INTS, tolerance=_TOL,
           call=Call(A("x", f23, "tensor"), A("y", f3, "tensor"), K("axis", _value(1), "int_axis"),
                     extra=[("shapes that do not broadcast",
                             {"y": lambda env: pylayer.ones([4])}, ("x", "y"))])),
    OpInfo("linalg.matrix_transpose", lambda x: np.swapaxes(x, -1, -2),
           samples((T((2, 3)),), (T((2, 3, 4)),)), dtypes=_INEXACT + INTS,
           call=Call(A("x", f23, "tensor"), extra=[A_VECTOR])),
    # ------------------------------------------------------------- random ones
    OpInfo("linalg.svd_lowrank", _low_rank_ref, samples((T((4, 3)),), (T((3, 5)),)),
           op=_low_rank(L.svd_lowrank), tolerance=_TOL,
           call=_call(K("q", _value(1), "size_or_none"), K("niter", _value(1), "count"),
                      K("M", _value(None), "tensor_or_none"),
                      extra=[("q above min(M, N)", {"q": _value(3)}, "q")])),
    OpInfo("linalg.pca_lowrank", lambda x: _low_rank_ref(x, True),
           samples((T((5, 3)),), (T((4, 3)),)), op=_low_rank(L.pca_lowrank), tolerance=_TOL,
           call=_call(K("q", _value(1), "size_or_none"), K("niter", _value(1), "count"),
                      extra=[("q above min(M, N)", {"q": _value(3)}, "q")])),
]
