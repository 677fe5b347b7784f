"""Random sampling: the distributions Paddle draws from, in-place fills with random values, random permutations and the generator state.
"""

__all__ = []
