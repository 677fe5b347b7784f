"""Op records of the shape, reduction, linalg, manipulation, indexing and search areas:
every node their ops record is a record declared once (a module constant of
``pylayer.ops``, or the pair ``index_records`` makes per op that reads ``x[index]``),
not one made on the fly, and node names follow the op, not the helper it shares."""
import importlib
import pkgutil

import numpy as np
import pytest

import pylayer
from pylayer._core.graph import Op
from pylayer.autograd import gradcheck, gradgradcheck
from pylayer.ops import indexing

from opinfo import OPS, T

AREAS = {"pylayer.ops.shape", "pylayer.ops.reduction", "pylayer.ops.linalg",
         "pylayer.ops.manipulation", "pylayer.ops.indexing", "pylayer.ops.search"}
# Ops of these areas written with another area's op, which records their node.
COMPOSED = {"masked_fill": "where"}


def declared_records():
    """Every Op that a module of pylayer.ops holds as a module constant."""
    found = set()
    for info in pkgutil.iter_modules(pylayer.ops.__path__, "pylayer.ops."):
        module = importlib.import_module(info.name)
        found |= {id(value) for value in vars(module).values() if isinstance(value, Op)}
    return found


def area_entries():
    for info in OPS:
        public = getattr(pylayer, info.name, info.op)
        module = getattr(getattr(public, "__wrapped__", public), "__module__", "")
        if module in AREAS and info.differentiable and info.name not in COMPOSED:
            yield pytest.param(info, id=info.id)


def inputs_of(sample):
    rng = np.random.default_rng(0)
    return [pylayer.to_tensor(rng.uniform(0.5, 1.5, a.shape), dtype="float64",
                              stop_gradient=False) if isinstance(a, T) else
            pylayer.to_tensor(a) if isinstance(a, np.ndarray) else a for a in sample.args]


def nodes_of(outputs):
    """The nodes of the graph that made ``outputs``."""
    seen, stack = {}, [out.grad_fn for out in outputs if out.grad_fn is not None]
    while stack:
        node = stack.pop()
        if id(node) not in seen and hasattr(node, "op"):
            seen[id(node)] = node
            stack.extend(child for child, _ in node.next_functions if child is not None)
    return list(seen.values())


@pytest.mark.parametrize("info", list(area_entries()))
def test_every_node_of_an_area_op_is_a_declared_record(info):
    declared = declared_records()
    for sample in info.samples:
        outputs = info.op(*inputs_of(sample), **sample.kwargs)
        nodes = nodes_of(outputs if isinstance(outputs, (list, tuple)) else [outputs])
        assert nodes, f"{info.id}{sample} recorded no node"
        made_per_name = {id(r) for pair in indexing._INDEX_RECORDS.values() for r in pair}
        for node in nodes:
            assert id(node.op) in declared | made_per_name, \
                f"{info.id}{sample}: its node {node.name()} records {node.op!r}, which no " \
                f"module declares"


def test_index_records_are_made_once_per_name():
    read, added = indexing.index_records("gather")
    assert indexing.index_records("gather") == (read, added)
    assert (read.name, added.name) == ("gather", "gather_grad")
    x = pylayer.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = pylayer.gather(x, pylayer.to_tensor([2, 0]))
    assert y.grad_fn.op is read and y.grad_fn.name() == "GatherGradNode"


@pytest.mark.parametrize("call, name", [
    (lambda x: pylayer.reshape(x, [4]), "ReshapeGradNode"),
    (lambda x: pylayer.flatten(x), "FlattenGradNode"),
    (lambda x: pylayer.squeeze(pylayer.unsqueeze(x, 0), 0), "SqueezeGradNode"),
    (lambda x: pylayer.unsqueeze(x, 0), "UnsqueezeGradNode"),
    (lambda x: pylayer.broadcast_to(x, [3, 2, 2]), "BroadcastToGradNode"),
    (lambda x: pylayer.expand(x, [3, 2, 2]), "ExpandGradNode"),
    (lambda x: pylayer.expand_as(x, pylayer.zeros([3, 2, 2])), "BroadcastToGradNode"),
])
def test_shape_ops_that_share_a_rule_keep_their_own_node_names(call, name):
    x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    out = call(x)
    assert out.grad_fn.name() == name
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full((2, 2), out.size / 4))


def test_shape_ops_record_a_node_even_when_the_shape_does_not_change():
    x = pylayer.to_tensor([1.0, 2.0], stop_gradient=False)
    for out in (pylayer.flatten(x), pylayer.squeeze(x), pylayer.reshape(x, [2]),
                pylayer.broadcast_to(x, [2])):
        assert out is not x and out.grad_fn is not None


def test_einsum_of_more_operands_than_a_record_keeps():
    """Nine operands (a record keeps at most eight values): contracted two at a time."""
    rng = np.random.default_rng(1)
    operands = [pylayer.to_tensor(rng.uniform(-1, 1, (2, 2)), dtype="float64",
                                  stop_gradient=False) for _ in range(9)]
    equation = "ab,bc,cd,de,ef,fg,gh,hi,ij->aj"
    out = pylayer.einsum(equation, *operands)
    np.testing.assert_allclose(out.numpy(), np.einsum(equation, *[t.numpy() for t in operands]),
                               rtol=1e-12)
    fn = lambda *ts: pylayer.einsum(equation, *ts)
    assert gradcheck(fn, operands)
    assert gradgradcheck(fn, operands)


def test_einsum_keeps_a_letter_shared_by_later_operands_and_the_output():
    a, b, c = (pylayer.to_tensor(np.arange(1.0, 7.0).reshape(2, 3), dtype="float64",
                                 stop_gradient=False) for _ in range(3))
    equation = "ij,ij,ik->jk"   # i joins all three; j is in the output too
    fn = lambda *ts: pylayer.einsum(equation, *ts)
    np.testing.assert_allclose(fn(a, b, c).numpy(),
                               np.einsum(equation, a.numpy(), b.numpy(), c.numpy()))
    assert gradcheck(fn, (a, b, c)) and gradgradcheck(fn, (a, b, c))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_split_pieces_without_a_gradient_count_as_zeros_of_their_own_size(dtype):
    x = pylayer.to_tensor(np.arange(12.0).reshape(6, 2), dtype=dtype, stop_gradient=False)
    first, middle, last = pylayer.split(x, [1, 3, 2])
    (middle * 2.0).sum().backward()
    expected = np.zeros((6, 2), dtype)
    expected[1:4] = 2.0
    np.testing.assert_array_equal(x.grad.numpy(), expected)
    assert x.grad.dtype == dtype
    leaf = pylayer.to_tensor(np.arange(12.0).reshape(6, 2), dtype="float64", stop_gradient=False)
    assert gradgradcheck(lambda t: pylayer.split(t, [1, 3, 2])[2] ** 2, leaf)
