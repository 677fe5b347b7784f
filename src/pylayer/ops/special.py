"""Special functions: log-gamma, digamma and polygamma, the inverse error function, modified Bessel functions and the regularized incomplete gamma functions, computed with numpy alone.
"""

__all__ = []
