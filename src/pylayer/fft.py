"""Paddle's ``paddle.fft``: discrete Fourier transforms in one, two and n dimensions (complex, real and Hermitian), the sample frequencies and the shifts, with the three ``norm`` modes and gradients.
"""

__all__ = []
