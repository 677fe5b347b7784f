"""Paddle's ``paddle.distributed.fleet.utils``: :func:`recompute` and the sequence-parallel
utilities (``sequence_parallel_utils``)."""
from pylayer.distributed.fleet.recompute.recompute import recompute
from pylayer.distributed.fleet.utils import sequence_parallel_utils  # noqa: F401

__all__ = ["recompute"]
