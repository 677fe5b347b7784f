"""Activation recompute (Paddle's ``paddle.distributed.fleet.recompute``)."""
from pylayer.distributed.fleet.recompute.recompute import (custom_state_manager, recompute,
                                                          recompute_sequential)
from pylayer.distributed.fleet.recompute.recompute_hybrid import recompute_hybrid

__all__ = []
