"""The types the public API's annotations are written in (for type checkers and
``help()``; nothing here runs at call time)."""
from typing import Any, Sequence, Union

import numpy as np

from pylayer._core.tensor import Tensor
from pylayer._kernels.dtypes import DType

__all__ = []

# A Python or numpy number (to a type checker, bool is an int).
Number = Union[int, float, np.integer, np.floating]
# What a dtype argument takes: 'float32', pylayer.float32, numpy's np.float32 or a dtype.
DTypeLike = Union[str, DType, np.dtype, type]
# A shape: a size, a list or tuple of sizes (ints or one-element Tensors), or a 1-D Tensor.
ShapeLike = Union[int, Sequence[Union[int, Tensor]], Tensor]
# What to_tensor converts: a number, a nested list of numbers, an array or a Tensor.
TensorData = Union[Tensor, np.ndarray, Number, bool, np.bool_, Sequence[Any]]
