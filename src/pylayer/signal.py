"""Paddle's ``paddle.signal``: the short-time Fourier transform and its inverse.
"""
from pylayer.ops.fourier import istft, stft

__all__ = ["stft", "istft"]
