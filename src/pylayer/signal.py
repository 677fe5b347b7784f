"""Paddle's ``paddle.signal``: the short-time Fourier transform and its inverse.
"""

__all__ = []
