"""Building and reshaping: joining, stacking and splitting, diagonals and triangles, Kronecker, outer and inner products, axes moved and tensors viewed anew.
"""

__all__ = []
