"""Calls that the annotations must refuse: mypy has to report an error on every
line marked ``# error: <code>`` and nowhere else (tests/typing/test_types.py)."""
from typing import Optional

import numpy as np

import pylayer as paddle
from pylayer import Tensor
from pylayer.autograd import saved_tensors_hooks

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
text: str = paddle.to_tensor([1.0])  # error: assignment
paddle.to_tensor([1.0], stop_gradient="no")  # error: arg-type
paddle.zeros([2], dtype=3.5)  # error: arg-type
paddle.ones("2, 3")  # error: arg-type
paddle.arange("10")  # error: arg-type
paddle.full([2], fill_value="seven")  # error: arg-type
saved_tensors_hooks(1, 2)  # error: arg-type
count: int = paddle.seed(0)  # error: assignment
gradients: list[Tensor] = paddle.grad(x.sum(), x, allow_unused=True)  # error: assignment
maybe: list[Optional[Tensor]] = paddle.grad(x.sum(), x)  # error: assignment
paddle.grad(x.sum(), np.ones(2))  # error: call-overload
paddle.static.py_func(np.square, x=x, out=None)  # error: arg-type
