"""Parameters: ParamAttr and create_parameter (placeholder until the nn work lands)."""
__all__ = []
