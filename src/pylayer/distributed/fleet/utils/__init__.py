"""Paddle's ``paddle.distributed.fleet.utils``: :func:`recompute`, the sequence-parallel
utilities (``sequence_parallel_utils``) and the helpers of hand-written hybrid-parallel
training loops (``hybrid_parallel_util``)."""
from pylayer.distributed.fleet.recompute.recompute import recompute
from pylayer.distributed.fleet.utils import (hybrid_parallel_util,  # noqa: F401
                                            sequence_parallel_utils)

__all__ = ["recompute"]
