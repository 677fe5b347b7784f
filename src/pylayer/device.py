"""Where tensors live (the CPU), and the pool of large buffers that ops reuse.

>>> import pylayer
>>> pylayer.device.memory_stats()["enabled"]
True
"""
from pylayer._buffers import empty_cache, memory_stats, set_pool_limit

__all__ = ["memory_stats", "empty_cache", "set_pool_limit"]
