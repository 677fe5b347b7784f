"""Tensor indexing: differentiable getitem and in-place setitem."""
__all__ = []


def getitem(x, index):
    raise NotImplementedError("indexing is not built yet")


def setitem(x, index, value):
    raise NotImplementedError("indexing is not built yet")
