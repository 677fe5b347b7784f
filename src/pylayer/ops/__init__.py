"""Op definitions in Python, grouped by area; the hot ops are compiled next to their area (``_elementwise.pyx``, ``_reduction.pyx``, ``_shape.pyx``, ``_linalg.pyx``)."""
__all__ = []
