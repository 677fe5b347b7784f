"""Op definitions in Python, grouped by area; the hot ops live in ``pylayer._ops``."""
__all__ = []
