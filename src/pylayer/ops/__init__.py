"""The ops, grouped by area: one module per area is the single home of each op and its
gradient rules (``arithmetic``, ``math``, ``activation``, ``loss``, ``shape``,
``reduction``, ``linalg``, ``manipulation``, ...); an area is compiled (``.pyx``) or
plain Python as a whole."""
__all__ = []
