"""More elementwise math: inverse trigonometric and hyperbolic functions, exponents and logarithms in other bases, rounding, sign and float-bit functions, integer functions, and the PyTorch-style aliases Paddle 3 added.
"""

__all__ = []
