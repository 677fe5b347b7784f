"""The core: Tensor, the graph, the backward engine and the pool of buffers.

It knows no op by name: what it calls (the arithmetic behind Tensor's operators, the
method table, backward) is installed into it by the package.
"""
__all__ = []
