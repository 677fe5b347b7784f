"""Compiled array loops: they take arrays and fill arrays, and know nothing of tensors
or of the graph.

Each entry point checks the shapes, strides and sizes it is given, at the door,
against each other; the loops behind it then index only what the checks proved
(a debug build, ``PYLAYER_CYTHON_DEBUG=1``, checks every index again).

* :mod:`pylayer._kernels.loops`: fused elementwise loops (arithmetic, the
  gradients of tanh, sigmoid and relu, softmax cross entropy) over raw buffers.
* :mod:`pylayer._kernels.conv` lowers a convolution to matrix products:
  ``im2col`` gathers the windows of an input into a column buffer and
  ``col2im`` sums a column buffer back (its adjoint).
* :mod:`pylayer._kernels.pool` runs max and average pooling and their adjoints.
* :mod:`pylayer._kernels.norm` normalizes per channel (batch normalization) or
  per row (layer normalization), and computes the gradients.
"""
__all__ = []
