"""What a gradient computed with ``create_graph=True`` depends on.

As in Paddle, where an op's gradient op consumes the inputs the op kept, such a
gradient depends on those inputs even where its formula does not use them:
differentiating it again gives them a gradient (zeros there), not none. The
engine calls :func:`link_to_kept_inputs` with a node's rule results while it
records its backward.

>>> import pylayer as paddle
>>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
>>> y = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
>>> (gx,) = paddle.grad(x * y, [x], create_graph=True)
>>> gx.grad_fn.name()
'GradientLinkGradNode'
>>> paddle.grad(gx.sum(), [x, y], allow_unused=True)[0].numpy()
array([0., 0.], dtype=float32)
"""
import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor

__all__ = []


def _link_rule(g, like):
    return (g,) + tuple(make_tensor(np.zeros(shape, dtype)) for shape, dtype in like)


GRADIENT_LINK = Op("gradient_link", inputs=None, attrs=("like",), vjp=_link_rule)


def link_to_kept_inputs(op, values, results):
    """``results`` (one gradient or None per input of an ``op`` node), each gradient
    that needs one given a node that also depends on the inputs the node kept
    (``values``, in the order of ``op.keeps``) that need a gradient."""
    kept = tuple(value for name, value in zip(op.keeps, values)
                 if op.inputs is not None and name in op.inputs
                 and isinstance(value, Tensor) and not value.stop_gradient)
    if not kept:
        return results
    like = tuple((t._array.shape, t._array.dtype) for t in kept)
    return tuple(make_output(GRADIENT_LINK, g._array, (g,) + kept, (like,))
                 if isinstance(g, Tensor) and not g.stop_gradient else g for g in results)
