"""Optimizers (placeholder until the optimizer work of issue 2 lands)."""
__all__ = []
