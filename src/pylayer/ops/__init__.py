"""The ops, grouped by area: one module per area is the single home of each op and its
gradient rules (``arithmetic``, ``math``, ``activation``, ``loss``, ...); an area is
compiled (``.pyx``) or plain Python as a whole. The compiled shape, reduction and
matrix ops are ``_shape.pyx``, ``_reduction.pyx`` and ``_linalg.pyx``."""
__all__ = []
