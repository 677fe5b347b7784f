from typing import Optional, Sequence

from pylayer._core.tensor import Tensor

def run_backward(tensors: list, grad_tensors: list,
                 retain_graph: bool = ..., create_graph: bool = ...,
                 inputs: Optional[Sequence[Tensor]] = ..., allow_unused: bool = ...,
                 blocked: Optional[Sequence[Tensor]] = ...) -> Optional[list]: ...
