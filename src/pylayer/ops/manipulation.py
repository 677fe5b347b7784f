"""placeholder: filled in by the ops work of issue 2."""
__all__ = []
