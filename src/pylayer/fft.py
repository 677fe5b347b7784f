"""Paddle's ``paddle.fft``: discrete Fourier transforms in one, two and n dimensions (complex, real and Hermitian), the sample frequencies and the shifts, with the three ``norm`` modes and gradients.
"""
from pylayer.ops.fourier import (fft, fft2, fftfreq, fftn, fftshift, hfft, hfft2, hfftn,  # noqa: F401
                                 ifft, ifft2, ifftn, ifftshift, ihfft, ihfft2, ihfftn, irfft,
                                 irfft2, irfftn, rfft, rfft2, rfftfreq, rfftn)
from pylayer.ops.fourier import FFT_NAMES as _NAMES

__all__ = list(_NAMES)
