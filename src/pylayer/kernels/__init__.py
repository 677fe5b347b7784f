"""Compiled array loops for the layers: they take arrays and fill arrays.

The kernels know nothing of tensors or of the graph. Each entry point
checks the shapes, strides and sizes it is given, at the door, against
each other; the loops behind it then index only what the checks proved
(a debug build, ``PYLAYER_CYTHON_DEBUG=1``, checks every index again).

* :mod:`pylayer.kernels.conv` lowers a convolution to matrix products:
  ``im2col`` gathers the windows of an input into a column buffer and
  ``col2im`` sums a column buffer back (its adjoint).
* :mod:`pylayer.kernels.pool` runs max and average pooling and their
  adjoints.
* :mod:`pylayer.kernels.norm` normalizes per channel (batch normalization)
  or per row (layer normalization), and computes the gradients.
"""
__all__ = []
