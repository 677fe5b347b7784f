"""Walking a recorded graph in plain Python: which nodes a backward pass that returns
the gradients of given inputs must run (those whose backward can reach one of the
inputs: ``engine.run_backward`` asks when ``inputs`` are given, ``pylayer.grad``),
and the edges ``grad_fn.next_functions`` shows.

>>> import pylayer as paddle
>>> x = paddle.to_tensor([1.0], stop_gradient=False)
>>> w = paddle.to_tensor([2.0], stop_gradient=False)
>>> y = x * w + w.exp()
>>> sorted(node.name() for node in nodes_leading_to([y.grad_fn], [x], {}))
['AddGradNode', 'MultiplyGradNode']
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


def nodes_leading_to(roots, inputs, capture_nodes):
    """The nodes reachable from the nodes ``roots`` (None for a leaf root) whose backward
    reaches a leaf of ``inputs`` or an output ``capture_nodes`` asks for (``{node:
    [output index, ...]}``).

    A node's inputs come from nodes with smaller sequence numbers, so visiting the
    reachable nodes in increasing sequence order settles each one in a single
    pass: all its children were decided before it.
    """
    leaf_ids = {id(t) for t in inputs if isinstance(t, Tensor) and t.is_leaf}
    needed, seen, order = set(), set(), []
    stack = [node for node in roots if node is not None]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        stack.extend(child for child in node.next_nodes
                     if child is not None and not isinstance(child, Tensor) and child not in seen)
    order.sort(key=lambda node: node.seq)
    for node in order:
        for child, index in zip(node.next_nodes, node.next_indices):
            if isinstance(child, Tensor):
                hit = id(child) in leaf_ids
            else:
                hit = child in needed or index in capture_nodes.get(child, ())
            if hit:
                needed.add(node)
                break
    return needed
