from typing import Any, Optional

from pylayer._core.graph import GradNode

class ContextBase:
    _layer: Any
    _needs: tuple
    _spans: Optional[list]
    _input_shapes: tuple
    _output_slots: Optional[list]
    _output_meta: Optional[tuple]
    _output_dtype: Any
    _saved: Any
    _saved_hooks: Optional[tuple]
    _packed: Any
    _node_ref: Any
    _not_inplace: tuple
    _non_differentiable: tuple
    _materialize_grads: bool
    _grad_in_dtype_consistent: bool
    _tensor_attrs: Optional[dict]
    _held_outputs: Optional[dict]
    def _node_name(self) -> str: ...

def apply(cls: type, *args: Any, **kwargs: Any) -> Any: ...
def node_of(ctx: ContextBase) -> Optional[GradNode]: ...
def unpack_saved(ctx: ContextBase) -> Any: ...
def node_backward(node: GradNode, grads: Any) -> Any: ...
