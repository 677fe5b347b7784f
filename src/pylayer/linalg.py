"""Paddle's ``paddle.linalg``: norms, inverses and solves, decompositions (Cholesky, LU, QR, SVD, eigen), least squares and matrix functions, batched over leading dimensions, with gradients where Paddle has them.

The ops live in ``pylayer.ops.decomposition`` (and ``matmul`` in ``pylayer.ops.linalg``);
those that Paddle also has at the top level (``matmul``, ``matrix_transpose``,
``vecdot``) are the same functions as ``pylayer.<name>``. ``inverse`` is not a name of
``paddle.linalg``: it is the function behind ``Tensor.inverse``.
"""
from pylayer.ops.decomposition import (  # noqa: F401 - the namespace's names
    cholesky, cholesky_inverse, cholesky_solve, cond, corrcoef, cov, cross, det, diagonal, eig,
    eigh, eigvals, eigvalsh, householder_product, inv, inverse, lstsq, lu, lu_solve, lu_unpack,
    matrix_exp, matrix_norm, matrix_power, matrix_rank, matrix_transpose, multi_dot, norm, ormqr,
    pca_lowrank, pinv, qr, slogdet, solve, svd, svd_lowrank, svdvals, triangular_solve, vecdot,
    vector_norm)
from pylayer.ops.linalg import matmul  # noqa: F401

__all__ = ["cholesky", "cholesky_inverse", "cholesky_solve", "cond", "corrcoef", "cov", "cross",
           "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "householder_product", "inv",
           "lstsq", "lu", "lu_solve", "lu_unpack", "matmul", "matrix_exp", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot", "norm", "ormqr",
           "pca_lowrank", "pinv", "qr", "slogdet", "solve", "svd", "svd_lowrank", "svdvals",
           "triangular_solve", "vecdot", "vector_norm"]

# Tensor methods of Paddle that are no name of paddle.linalg (see pylayer/__init__.py).
TENSOR_ONLY = ["inverse"]
