"""Selecting and placing: unique values, searching sorted tensors, masked and indexed scatters and fills, and the other index-driven ops.
"""

__all__ = []
