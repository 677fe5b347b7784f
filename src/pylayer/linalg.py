"""Paddle's ``paddle.linalg``: norms, inverses and solves, decompositions (Cholesky, LU, QR, SVD, eigen), least squares and matrix functions, batched over leading dimensions, with gradients where Paddle has them.
"""

__all__ = []
