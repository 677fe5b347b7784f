"""The edges ``grad_fn.next_functions`` shows of a recorded graph, in plain Python.
(The walk that prunes a ``grad(inputs=...)`` pass is compiled: ``engine.pyx``.)

>>> import pylayer as paddle
>>> x = paddle.to_tensor([1.0], stop_gradient=False)
>>> [name for name, _ in [(f.name(), i) for f, i in (x * x.exp()).grad_fn.next_functions]]
['AccumulateGrad', 'ExpGradNode']
"""
from pylayer._core.tensor import Tensor

__all__ = []


class AccumulateGrad:
    """Stands for a leaf in ``grad_fn.next_functions``."""
    __slots__ = ("variable",)

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        return "AccumulateGrad"

    @property
    def next_functions(self):
        return ()

    def __repr__(self):
        return "<AccumulateGrad>"


def next_functions(node):
    """``node.next_functions``: per input, (the node, its output index) the gradient
    goes to, ``(AccumulateGrad(leaf), 0)`` for a leaf, ``(None, 0)`` for none.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([1.0], stop_gradient=False)
    >>> next_functions((paddle.tanh(x) * x).grad_fn)
    ((<TanhGradNode>, 0), (<AccumulateGrad>, 0))
    """
    return tuple([(AccumulateGrad(child), 0) if isinstance(child, Tensor) else (child, index)
                  for child, index in zip(node.next_nodes, node.next_indices)])
