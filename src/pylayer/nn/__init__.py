"""Neural-network building blocks (placeholder until the nn work of issue 2 lands)."""
__all__ = []
