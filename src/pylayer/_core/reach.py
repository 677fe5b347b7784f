"""Which nodes a backward pass that returns the gradients of given inputs must run:
those whose backward can reach one of the inputs. ``engine.run_backward`` asks it
when ``inputs`` are given (``pylayer.grad``); every other node is skipped.

>>> import pylayer as paddle
>>> x = paddle.to_tensor([1.0], stop_gradient=False)
>>> w = paddle.to_tensor([2.0], stop_gradient=False)
>>> y = x * w + w.exp()
>>> sorted(node.name() for node in nodes_leading_to([y.grad_fn], [x], {}))
['AddGradNode', 'MultiplyGradNode']
"""
from pylayer._core.graph import GradNode
from pylayer._core.tensor import Tensor

__all__ = []


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
    stack = [node for node in roots if isinstance(node, GradNode)]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        stack.extend(child for child in node.next_nodes
                     if isinstance(child, GradNode) and child not in seen)
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
