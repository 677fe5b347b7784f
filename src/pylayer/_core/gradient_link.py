"""What a gradient computed with ``create_graph=True`` depends on.

As in Paddle, where an op's gradient op consumes the inputs the op kept, such a
gradient depends on those inputs even where its formula does not use them:
differentiating it again gives them a gradient (zeros there), not none. The
engine links a node's rule results while it records its backward
(``_link_to_kept_inputs`` in ``engine.pyx``; this module holds the record of the link
node). A gradient the rule made gets the extra edges on its own
node, so its ``grad_fn`` is the op that made it; one the rule did not make (it
handed back a tensor it was given) is wrapped in a ``gradient_link`` node.
A later pass carries those zeros cheaply: adding one to another gradient records
nothing, none is made for an edge the pass does not need, and a node that only
zeros reach runs no rules (it passes zeros on).

>>> import pylayer as paddle
>>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
>>> y = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
>>> (gx,) = paddle.grad(x * y, [x], create_graph=True)
>>> gx.grad_fn.name()
'MultiplyGradNode'
>>> paddle.grad(gx.sum(), [x, y], allow_unused=True)[0].numpy()
array([0., 0.], dtype=float32)
"""
import numpy as np

from pylayer._core.graph import Op
from pylayer._core.tensor import make_tensor

__all__ = []


def _link_rule(g, like):
    return (g,) + tuple(make_tensor(np.zeros(shape, dtype)) for shape, dtype in like)


GRADIENT_LINK = Op("gradient_link", inputs=None, attrs=("like",), vjp=_link_rule)
