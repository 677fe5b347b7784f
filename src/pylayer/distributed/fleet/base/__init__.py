"""Paddle's ``paddle.distributed.fleet.base``: the hybrid-parallel topology
(``base.topology``), which real programs import from there."""
from pylayer.distributed.fleet.base import topology  # noqa: F401

__all__ = []
