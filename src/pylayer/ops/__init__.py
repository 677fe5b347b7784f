"""The ops, one module per area (``shape``, ``reduction``, ``linalg``, ``manipulation``, ...); an area is compiled (``.pyx``) or plain Python as a whole."""
__all__ = []
