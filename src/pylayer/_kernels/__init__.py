"""Compiled array loops: fused elementwise kernels. They know nothing of the graph."""
__all__ = []
