"""What a gradient computed with ``create_graph=True`` depends on.

As in Paddle, where an op's gradient op consumes the inputs the op kept, such a
gradient depends on those inputs even where its formula does not use them:
differentiating it again gives them a gradient (zeros there), not none. The
engine calls :func:`link_to_kept_inputs` with a node's rule results while it
records its backward. A gradient the rule made gets the extra edges on its own
node, so its ``grad_fn`` is the op that made it; one the rule did not make (it
handed back a tensor it was given) is wrapped in a ``gradient_link`` node.

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

from pylayer._core.graph import GradNode, Op, link_inputs, make_output
from pylayer._core.tensor import Tensor, make_tensor

__all__ = []


def _link_rule(g, like):
    return (g,) + tuple(make_tensor(np.zeros(shape, dtype)) for shape, dtype in like)


GRADIENT_LINK = Op("gradient_link", inputs=None, attrs=("like",), vjp=_link_rule)


def link_to_kept_inputs(op, values, results, since):
    """``results`` (one gradient or None per input of an ``op`` node), each gradient
    that needs one made to also depend on the inputs the node kept (``values``, in
    the order of ``op.keeps``) that need a gradient. ``since``: the sequence number
    of the first node the rules may have made."""
    kept = tuple(value for name, value in zip(op.keeps, values)
                 if op.inputs is not None and name in op.inputs
                 and isinstance(value, Tensor) and not value.stop_gradient)
    if not kept:
        return results
    linked = []
    out = []
    for g in results:
        if not isinstance(g, Tensor) or g.stop_gradient:
            out.append(g)
            continue
        node = g.grad_fn
        if isinstance(node, GradNode) and node.seq >= since and not node.op.user_code:
            if not any(node is seen for seen in linked):
                link_inputs(node, kept)
                linked.append(node)
            out.append(g)
        else:
            like = tuple((t._array.shape, t._array.dtype) for t in kept)
            out.append(make_output(GRADIENT_LINK, g._array, (g,) + kept, (like,)))
    return tuple(out)
