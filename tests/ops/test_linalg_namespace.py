"""pylayer.linalg: the rules the op database cannot express. Paddle 3.3.1's observed
values and conventions (return layouts, dtypes, errors), what happens at repeated
singular values and eigenvalues, and the places where pylayer follows PyTorch because
Paddle is wrong (each says so)."""
import numpy as np
import pytest

import pylayer
from pylayer import linalg as L


def t(value, dtype="float64", grad=False):
    return pylayer.to_tensor(np.asarray(value), dtype=dtype, stop_gradient=not grad)


def grad_of(loss, x):
    (g,) = pylayer.grad(loss, x)
    return g.numpy()


# Paddle's examples below use numpy.random.default_rng(0).standard_normal((3, 3)).
A0 = np.random.default_rng(0).standard_normal((3, 3))


# ------------------------------------------------------------ namespaces, methods
def test_the_namespace_holds_paddles_39_names():
    assert len(L.__all__) == 39
    assert L.matmul is pylayer.matmul
    assert L.matrix_transpose is pylayer.matrix_transpose and L.vecdot is pylayer.vecdot


@pytest.mark.parametrize("name", ["cholesky", "cholesky_inverse", "cholesky_solve", "cond",
                                  "corrcoef", "cov", "eig", "eigvals", "eigvalsh",
                                  "householder_product", "lstsq", "lu", "lu_unpack",
                                  "matrix_power", "multi_dot", "ormqr", "pca_lowrank", "pinv",
                                  "qr", "slogdet", "solve", "svd_lowrank", "matrix_transpose"])
def test_tensor_methods_are_the_linalg_functions_where_paddle_has_them(name):
    assert pylayer.tensor_methods()[name] is getattr(L, name)


@pytest.mark.parametrize("name", ["det", "inv", "svd", "eigh", "matrix_exp", "matrix_rank",
                                  "triangular_solve", "svdvals", "lu_solve", "vector_norm",
                                  "matrix_norm"])
def test_no_tensor_method_where_paddle_has_none(name):
    assert name not in pylayer.tensor_methods()
    assert name not in pylayer.__all__


def test_tensor_inverse_is_the_inverse():
    x = t([[2.0, 1.0], [1.0, 1.0]])
    np.testing.assert_allclose(x.inverse().numpy(), [[1.0, -1.0], [-1.0, 2.0]])


# ------------------------------------------------------------- det, slogdet, inv
def test_slogdet_stacks_sign_and_log_in_one_tensor():
    out = L.slogdet(t(A0))
    np.testing.assert_allclose(out.numpy(), [1.0, -0.81358670], atol=1e-8)
    assert L.slogdet(t(np.ones((2, 3, 3)))).shape == [2, 2]
    z = L.slogdet(t(A0 + 1j * A0, "complex128")).numpy()
    np.testing.assert_allclose(z, [-0.70710678 + 0.70710678j, 0.22613407], atol=1e-8)


def test_slogdet_of_a_singular_matrix_is_minus_inf_with_a_nan_gradient():
    x = t([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], grad=True)
    out = L.slogdet(x)
    np.testing.assert_array_equal(out.numpy(), [0.0, -np.inf])
    assert np.isnan(grad_of(out[1], x)).all()          # as in Paddle
    # In a batch, only the singular matrix gets NaN.
    x = t(np.stack([np.ones((2, 2)), [[2.0, 0.0], [0.0, 4.0]]]), grad=True)
    g = grad_of(L.slogdet(x)[1].sum(), x)
    assert np.isnan(g[0]).all()
    np.testing.assert_allclose(g[1], [[0.5, 0.0], [0.0, 0.25]])


def test_det_gradient_at_a_singular_matrix_is_the_cofactor_matrix():
    # Paddle 3.3.1 gives zeros here (wrong: the cofactors of a rank-2 matrix are not all
    # zero); pylayer gives the cofactors, as PyTorch does.
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    x = t(a, grad=True)
    cofactors = np.array([[np.linalg.det(np.delete(np.delete(a, i, 0), j, 1)) * (-1) ** (i + j)
                           for j in range(3)] for i in range(3)])
    np.testing.assert_allclose(grad_of(L.det(x), x), cofactors, atol=1e-12)


def test_det_of_an_empty_matrix_is_one():
    np.testing.assert_array_equal(L.det(t(np.zeros((2, 0, 0)))).numpy(), [1.0, 1.0])


@pytest.mark.parametrize("fn", [L.inv, lambda x: L.solve(x, t(np.ones((3, 1))))])
def test_a_singular_matrix_is_a_value_error(fn):
    with pytest.raises(ValueError, match=r"(inv|solve)\(\): argument 'x' is singular"):
        fn(t(np.ones((3, 3))))


def test_integer_and_half_matrices_are_refused():
    with pytest.raises(TypeError, match=r"inv\(\): argument 'x' .* got dtype int64"):
        L.inv(t(np.eye(2), "int64"))
    with pytest.raises(TypeError, match=r"det\(\): argument 'x' .* got dtype float16"):
        L.det(t(np.eye(2), "float16"))


# ------------------------------------------------------------------- solves
def test_solve_takes_a_vector_and_broadcasts_batches():
    np.testing.assert_allclose(L.solve(t(A0), t(np.ones(3))).numpy(),
                               [1.90261027, -0.80433332, 1.02202514], atol=1e-8)
    assert L.solve(t(np.eye(3)), t(np.ones((4, 3, 2)))).shape == [4, 3, 2]
    np.testing.assert_allclose(L.solve(t(A0), t(np.ones((2, 3))), left=False).numpy()[0],
                               [3.10810056, -1.58227604, 0.59447756], atol=1e-8)
    with pytest.raises(ValueError, match="solve"):
        L.solve(t(A0), t(np.ones(3)), left=False)


def test_solve_out_receives_the_result():
    out = pylayer.zeros([2])
    result = L.solve(t(np.eye(2)), t([1.0, 2.0]), out=out)
    assert result is out
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0])


def test_triangular_solve_with_a_zero_pivot_gives_inf_and_nan_as_paddle():
    out = L.triangular_solve(t(np.zeros((2, 2))), t(np.ones((2, 1)))).numpy()
    assert np.isnan(out[0, 0]) and np.isinf(out[1, 0])


def test_triangular_solve_reads_one_triangle_and_its_gradient_stays_there():
    x = t(A0, grad=True)
    out = L.triangular_solve(x, t(np.ones((3, 2))), unitriangular=True)
    np.testing.assert_allclose(grad_of(out.sum(), x),
                               [[0.0, -1.27680989, -2.0], [0.0, 0.0, -2.26420973],
                                [0.0, 0.0, 0.0]], atol=1e-8)        # Paddle's numbers


# ----------------------------------------------------------------- cholesky
S0 = A0 @ A0.T + np.eye(3)


def test_cholesky_reads_the_lower_triangle_and_its_gradient_is_symmetric_as_paddle():
    x = t(S0 + np.triu(np.ones((3, 3)), 1) * 0.1, grad=True)
    factor = L.cholesky(x)
    np.testing.assert_allclose(factor.numpy(), np.linalg.cholesky(S0), atol=1e-12)
    np.testing.assert_allclose(grad_of(factor.sum(), x),
                               [[0.42924802, 0.42812084, 0.37380790],
                                [0.42812084, 0.63738369, 0.53017845],
                                [0.37380790, 0.53017845, 0.25769673]], atol=1e-7)


def test_cholesky_of_a_matrix_that_is_not_positive_definite_is_a_value_error():
    with pytest.raises(ValueError, match=r"cholesky\(\): argument 'x' .* positive definite"):
        L.cholesky(t(-np.eye(3)))
    with pytest.raises(TypeError, match="cholesky"):
        L.cholesky(t(np.eye(2), "complex128"))               # Paddle has no complex kernel


def test_cholesky_solve_and_inverse_gradients_match_paddle():
    factor = np.linalg.cholesky(S0)
    y = t(factor, grad=True)
    out = L.cholesky_solve(t(np.ones((3, 2))), y)
    np.testing.assert_allclose(out.numpy()[:, 0], np.linalg.solve(S0, np.ones(3)), atol=1e-12)
    assert np.allclose(np.triu(grad_of(out.sum(), y), 1), 0)    # the triangle only
    y = t(factor, grad=True)
    g = grad_of(L.cholesky_inverse(y).sum(), y)
    assert not np.allclose(np.triu(g, 1), 0)                    # the whole factor, as Paddle


# ---------------------------------------------------------------------- qr
def test_qr_modes_and_shapes():
    b = np.ones((4, 3)) + np.eye(4, 3)
    q, r = L.qr(t(b))
    assert (q.shape, r.shape) == ([4, 3], [3, 3])
    q, r = L.qr(t(b), mode="complete")
    assert (q.shape, r.shape) == ([4, 4], [4, 3])
    assert L.qr(t(b), mode="r").shape == [3, 3]
    with pytest.raises(ValueError, match=r"qr\(\): argument 'mode'"):
        L.qr(t(b), mode="full")


def test_qr_gradient_is_refused_where_paddle_refuses_it():
    x = t(np.ones((4, 3)) + np.eye(4, 3), grad=True)
    with pytest.raises(ValueError, match="mode='r'"):
        L.qr(x, mode="r").sum().backward()
    with pytest.raises(ValueError, match="mode='complete'"):
        L.qr(x, mode="complete")[0].sum().backward()


def test_qr_of_a_wide_matrix_has_a_gradient():
    # Paddle 3.3.1 crashes (segmentation fault) here; pylayer follows PyTorch.
    x = t(np.random.default_rng(4).standard_normal((3, 4)), grad=True)
    assert pylayer.autograd.gradcheck(lambda a: L.qr(a), (x,))


# ----------------------------------------------------- repeated values: svd, eigh
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_svd_gradient_at_repeated_singular_values():
    x = t(np.eye(3), grad=True)
    u, s, vh = L.svd(x)
    assert np.isnan(grad_of(u.sum(), x)).all()                   # as Paddle and PyTorch
    x = t(np.eye(3), grad=True)
    np.testing.assert_array_equal(grad_of(L.svd(x)[1].sum(), x), np.eye(3))
    x = t(np.eye(3), grad=True)
    np.testing.assert_array_equal(grad_of(L.svdvals(x).sum(), x), np.eye(3))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_eigh_gradient_at_repeated_eigenvalues():
    x = t(np.eye(3), grad=True)
    assert np.isnan(grad_of(L.eigh(x)[1].sum(), x)).all()
    # The eigenvalues alone have a finite gradient (Paddle 3.3.1 gives NaN: its rule
    # divides by the gaps even when the eigenvectors got no gradient; PyTorch's does not).
    x = t(np.eye(3), grad=True)
    np.testing.assert_allclose(grad_of(L.eigh(x)[0].sum(), x), np.eye(3), atol=1e-12)
    x = t(np.eye(3), grad=True)
    np.testing.assert_allclose(grad_of(L.eigvalsh(x).sum(), x), np.eye(3), atol=1e-12)


def test_eigh_gradient_is_hermitian_as_paddle():
    x = t(A0, grad=True)
    w, v = L.eigh(x)
    np.testing.assert_allclose(grad_of(v.sum() + w.sum(), x),
                               [[1.36328411, 0.01324863, 0.09662990],
                                [0.01324863, 1.01052300, -0.29453159],
                                [0.09662990, -0.29453159, 0.62619288]], atol=1e-7)
    np.testing.assert_allclose(L.eigh(t(A0), UPLO="U")[0].numpy(),
                               [-1.25427478, -0.33687991, 0.47748031], atol=1e-7)


def test_svd_full_matrices_gradient_ignores_the_extra_columns():
    x = t(np.arange(12.0).reshape(4, 3) ** 0.5, grad=True)
    u, s, vh = L.svd(x, full_matrices=True)
    assert (u.shape, vh.shape) == ([4, 4], [3, 3])
    g_full = grad_of(u[:, :3].sum() + s.sum(), x)
    x2 = t(np.arange(12.0).reshape(4, 3) ** 0.5, grad=True)
    u2, s2, _ = L.svd(x2)
    np.testing.assert_allclose(g_full, grad_of(u2.sum() + s2.sum(), x2), atol=1e-12)


def test_eig_results_are_complex_and_eigvals_has_a_gradient():
    w, v = L.eig(t(A0, "float32"))
    assert (w.dtype, v.dtype) == (pylayer.complex64, pylayer.complex64)
    x = t(A0, grad=True)
    np.testing.assert_allclose(grad_of(pylayer.real(L.eig(x)[0]).sum(), x), np.eye(3),
                               atol=1e-12)                      # Paddle's value
    # Paddle's eigvals records no gradient; pylayer's does (as PyTorch's).
    x = t(A0, grad=True)
    np.testing.assert_allclose(grad_of(pylayer.real(L.eigvals(x)).sum(), x), np.eye(3),
                               atol=1e-12)


# ----------------------------------------------------------------------- lu
def test_lu_packs_like_lapack_with_one_based_int32_pivots():
    packed, pivots = L.lu(t([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(packed.numpy(), [[3.0, 4.0], [1 / 3, 2 / 3]])
    assert pivots.dtype == pylayer.int32 and pivots.numpy().tolist() == [2, 2]
    _, _, infos = L.lu(t(np.ones((2, 3, 3))), get_infos=True)
    assert infos.dtype == pylayer.int32 and infos.numpy().tolist() == [2, 2]
    _, _, infos = L.lu(t(np.eye(3)), get_infos=True)
    assert infos.shape == [] and int(infos) == 0
    assert [a.shape for a in L.lu(t(np.ones((3, 5))))] == [[3, 5], [3]]


def test_lu_without_pivoting():
    # Paddle's CPU kernel refuses pivot=False (its GPU one factors without interchanges).
    packed, pivots = L.lu(t([[2.0, 1.0], [4.0, 1.0]]), pivot=False)
    assert pivots.numpy().tolist() == [1, 2]
    np.testing.assert_allclose(packed.numpy(), [[2.0, 1.0], [2.0, -1.0]])


def test_lu_unpack_shapes_and_flags():
    x = t(np.arange(12.0).reshape(4, 3) ** 0.5)
    p, lower, upper = L.lu_unpack(*L.lu(x))
    assert (p.shape, lower.shape, upper.shape) == ([4, 4], [4, 3], [3, 3])
    np.testing.assert_allclose((p @ lower @ upper).numpy(), x.numpy(), atol=1e-12)
    p, lower, upper = L.lu_unpack(*L.lu(x), unpack_ludata=False, unpack_pivots=False)
    assert p.shape == lower.shape == upper.shape == [0]


def test_lu_solve_transposed_matches_paddle():
    packed, pivots = L.lu(t(A0))
    np.testing.assert_allclose(L.lu_solve(t(np.ones((3, 2))), packed, pivots, trans="T")
                               .numpy()[:, 0], [3.10810056, -1.58227604, 0.59447756], atol=1e-8)


# ------------------------------------------------------------ lstsq, rank, pinv
def test_lstsq_returns_paddles_four_results():
    b = np.random.default_rng(3).standard_normal((4, 3))
    y = np.ones((4, 2))
    solution, residuals, rank, values = L.lstsq(t(b), t(y))
    np.testing.assert_allclose(solution.numpy(), np.linalg.lstsq(b, y)[0], atol=1e-12)
    assert residuals.shape == [0] and values.shape == [0]
    assert rank.dtype == pylayer.int32 and rank.shape == [] and int(rank) == 3
    solution, residuals, rank, values = L.lstsq(t(b), t(y), driver="gelsd")
    np.testing.assert_allclose(residuals.numpy(), np.linalg.lstsq(b, y)[1], atol=1e-12)
    np.testing.assert_allclose(values.numpy(), np.linalg.svd(b, compute_uv=False), atol=1e-12)
    assert [r.dtype for r in L.lstsq(t(b, "float32"), t(y, "float32"))] == [
        pylayer.float32, pylayer.float32, pylayer.int32, pylayer.float32]


def test_lstsq_solution_has_a_gradient():
    # Paddle records none; pylayer's goes through the pseudo-inverse, as PyTorch's.
    x = t(np.random.default_rng(3).standard_normal((4, 3)), grad=True)
    assert pylayer.autograd.gradcheck(lambda a: L.lstsq(a, t(np.ones((4, 2))))[0], (x,))


def test_matrix_rank_tolerances():
    assert L.matrix_rank(t(np.ones((3, 3)))).dtype == pylayer.int64
    assert int(L.matrix_rank(t(np.ones((3, 3))))) == 1
    assert int(L.matrix_rank(t(A0), tol=1.0)) == 1
    assert int(L.matrix_rank(t(A0), atol=0.5, rtol=0.1)) == 2
    both = L.matrix_rank(t(np.stack([A0, A0])), tol=t([0.1, 2.0]))
    assert both.numpy().tolist() == [3, 0]                           # one tol per matrix


def test_pinv_rcond_may_be_a_tensor():
    b = np.random.default_rng(3).standard_normal((4, 3))
    np.testing.assert_allclose(L.pinv(t(b), rcond=t(0.5)).numpy(), np.linalg.pinv(b, 0.5),
                               atol=1e-12)


# -------------------------------------------------------------------- norms
X3 = np.random.default_rng(0).standard_normal((2, 3, 4))


def test_norm_with_two_axes_and_no_p_is_the_spectral_norm_as_paddle():
    got = L.norm(t(X3), axis=[0, 1]).numpy()
    np.testing.assert_allclose(got, np.linalg.norm(X3, 2, axis=(0, 1)), atol=1e-12)
    np.testing.assert_allclose(L.norm(t(X3), p="fro", axis=[0, 1]).numpy(),
                               np.linalg.norm(X3, "fro", axis=(0, 1)), atol=1e-12)


def test_norm_without_axis_flattens_except_for_nuc():
    b = np.random.default_rng(3).standard_normal((4, 3))
    np.testing.assert_allclose(L.norm(t(b), p=2).numpy(), np.linalg.norm(b.ravel()))
    np.testing.assert_allclose(L.norm(t(b), p=np.inf).numpy(), np.abs(b).max())
    np.testing.assert_allclose(L.norm(t(b), p="nuc").numpy(), np.linalg.norm(b, "nuc"))
    with pytest.raises(ValueError, match="nuc"):
        L.norm(t(X3), p="nuc")
    with pytest.raises(ValueError, match=r"norm\(\): argument 'p'"):
        L.norm(t(X3), p=3, axis=[0, 1])
    assert L.norm(t(b), p=2, keepdim=True).shape == [1, 1]
    assert L.norm(t(b), dtype="float32").dtype == pylayer.float32


def test_vector_and_matrix_norm_arguments():
    with pytest.raises(ValueError, match=r"vector_norm\(\): argument 'p'"):
        L.vector_norm(t(X3), p="fro")
    with pytest.raises(ValueError, match=r"matrix_norm\(\): argument 'axis'"):
        L.matrix_norm(t(X3), axis=1)
    with pytest.raises(TypeError, match="vector_norm"):
        L.vector_norm(t([1, 2], "int64"))                   # Paddle has no integer kernel
    # ... but casts first when given a dtype, also a bool tensor.
    assert float(L.vector_norm(t([1, 2, 2], "int64"), dtype="float64")) == 3.0
    assert float(L.norm(t([True, False], "bool"), dtype="float64")) == 1.0
    np.testing.assert_allclose(L.vector_norm(t([3 + 4j, 1], "complex128")).numpy(),
                               5.09901951, atol=1e-8)


def test_vector_norm_gradients_at_zero_and_at_ties():
    x = t(np.zeros(3), grad=True)
    np.testing.assert_array_equal(grad_of(L.vector_norm(x), x), [0.0, 0.0, 0.0])   # Paddle
    x = t([1.0, -1.0, 0.5], grad=True)
    np.testing.assert_array_equal(grad_of(L.vector_norm(x, p=np.inf), x), [1.0, -1.0, 0.0])
    # The count of non-zeros is piecewise constant: zero gradient (Paddle 3.3.1 gives ones).
    x = t([1.0, 0.0, 2.0], grad=True)
    np.testing.assert_array_equal(grad_of(L.vector_norm(x, p=0), x), [0.0, 0.0, 0.0])


def test_cond_orders():
    for p, want in [(None, 5.51917121530749), ("fro", 6.7040417664612715),
                    ("nuc", 14.256267999554158), (np.inf, 9.93670998545944),
                    (-np.inf, 1.709034389178471), (1, 6.651527474494436),
                    (-1, 1.2826930707135626), (-2, 0.18118662403994418)]:
        np.testing.assert_allclose(L.cond(t(A0), p=p).numpy(), want, rtol=1e-10)
    with pytest.raises(ValueError, match=r"cond\(\): argument 'p'"):
        L.cond(t(A0), p=3)
    with pytest.raises(ValueError, match="square"):
        L.cond(t(np.ones((4, 3))), p="fro")


# ----------------------------------------------------- statistics and products
def test_cov_and_corrcoef():
    b = np.random.default_rng(3).standard_normal((4, 3))
    assert L.cov(t(b[0])).shape == []
    w = dict(fweights=t(np.array([1, 2, 1]), "int64"), aweights=t([0.5, 1.0, 2.0]))
    np.testing.assert_allclose(L.cov(t(b), **w).numpy(),
                               np.cov(b, fweights=[1, 2, 1], aweights=[0.5, 1.0, 2.0]),
                               atol=1e-12)
    with pytest.raises(TypeError, match=r"cov\(\): argument 'x'"):
        L.cov(t([[1, 2, 3], [2, 2, 5]], "int64"))            # as Paddle: no integers
    with pytest.raises(TypeError, match=r"corrcoef\(\): argument 'x'"):
        L.corrcoef(t([[1, 2, 3], [2, 2, 5]], "int64"))


def test_multi_dot_vectors_at_the_ends():
    out = L.multi_dot([t(np.ones(3)), t(np.ones((3, 4))), t(np.ones(4))])
    assert out.shape == [] and float(out) == 12.0
    with pytest.raises(ValueError, match=r"multi_dot\(\): argument 'x'"):
        L.multi_dot([t(np.ones((2, 2)))])
    with pytest.raises(ValueError, match="multi_dot"):
        L.multi_dot([t(np.ones((2, 2))), t(np.ones((2, 2, 2)))])


def test_vecdot_conjugates_x():
    out = L.vecdot(t([1 + 1j, 2], "complex128"), t([1j, 1], "complex128"))
    assert complex(out) == 3 + 1j
    assert L.vecdot(t(np.ones((2, 3)), "int64"), t(np.ones(3), "int64")).dtype == pylayer.int64


def test_cross_default_axis_and_diagonal_default_axes():
    np.testing.assert_array_equal(L.cross(t(np.ones((3, 3))), t(np.eye(3))).numpy(),
                                  [[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert L.diagonal(t(X3)).shape == [4, 2]                 # axes 0 and 1, as Paddle
    with pytest.raises(ValueError, match="matrix_transpose"):
        L.matrix_transpose(t(np.ones(3)))


def test_householder_product_and_ormqr_take_a_tall_x_and_have_gradients():
    # Paddle 3.3.1's ormqr refuses an x that is not square, and the backward of both
    # fails (an in-place write it makes itself); pylayer follows PyTorch and LAPACK.
    rng = np.random.default_rng(1)
    x, tau = t(rng.standard_normal((4, 3)), grad=True), t([1.2, 0.5, 1.1], grad=True)
    q = L.householder_product(x, tau)
    full = L.ormqr(x, tau, t(np.eye(4)))
    np.testing.assert_allclose(full.numpy()[:, :3], q.numpy(), atol=1e-12)
    assert pylayer.autograd.gradcheck(lambda a, b: L.ormqr(a, b, t(np.ones((4, 2)))), (x, tau))


def test_matrix_exp_dtypes_as_paddle():
    with pytest.raises(TypeError, match=r"matrix_exp\(\): argument 'x'"):
        L.matrix_exp(t(np.eye(2), "complex128"))
    with pytest.raises(TypeError, match=r"matrix_exp\(\): argument 'x'"):
        L.matrix_exp(t(np.eye(2), "int64"))
    np.testing.assert_allclose(L.matrix_exp(t(A0)).numpy(),
                               [[1.5264, 0.1038, 0.5707], [0.2851, 0.6851, 0.2663],
                                [1.2378, 0.5632, 0.9008]], atol=1e-4)


def test_low_rank_defaults_and_the_random_stream():
    x = t(np.random.default_rng(2).standard_normal((5, 8)))
    assert [a.shape for a in L.svd_lowrank(x)] == [[5, 5], [5], [8, 5]]
    assert [a.shape for a in L.pca_lowrank(t(np.ones((5, 4))))] == [[5, 4], [4], [4, 4]]
    pylayer.seed(1)
    first = L.svd_lowrank(x, q=2, niter=0)[1].numpy()
    pylayer.seed(1)
    np.testing.assert_array_equal(L.svd_lowrank(x, q=2, niter=0)[1].numpy(), first)
