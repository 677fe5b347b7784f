"""The layers of fleet (Paddle's ``paddle.distributed.fleet.layers``)."""
from pylayer.distributed.fleet.layers import mpu  # noqa: F401

__all__ = []
