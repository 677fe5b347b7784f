"""Statistics and cumulative ops: norms and distances, nan-aware reductions, medians, quantiles, modes, cumulative products, maxima and log-sum-exp, differences and the trapezoid rule.
"""

__all__ = []
