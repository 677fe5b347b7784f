"""The ops of pylayer.ops.convolution, pooling, normalization, spatial, embedding, dropout
and linear are Op records: each call records a node of its op's record, named after the
public op, and keeps for backward exactly what its record names. (Each has an OpInfo entry:
tests/ops/test_opinfo.py checks every public function of pylayer.nn.functional.)"""
import pathlib

import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer.ops import (convolution, dropout, embedding, linear, normalization, pooling,
                         spatial)

SOURCE = pathlib.Path(__file__).resolve().parents[2] / "src" / "pylayer"


def leaf(*shape):
    data = np.random.default_rng(3).standard_normal(shape)
    return pylayer.to_tensor(data, dtype="float64", stop_gradient=False)


CALLS = [
    (lambda: F.conv1d(leaf(1, 2, 5), leaf(3, 2, 2)), convolution.CONV1D, "Conv1dGradNode"),
    (lambda: F.conv2d(leaf(1, 2, 4, 4), leaf(3, 2, 2, 2)), convolution.CONV2D,
     "Conv2dGradNode"),
    (lambda: F.conv1d_transpose(leaf(1, 2, 3), leaf(2, 1, 2)), convolution.CONV1D_TRANSPOSE,
     "Conv1dTransposeGradNode"),
    (lambda: F.conv2d_transpose(leaf(1, 2, 3, 3), leaf(2, 1, 2, 2)),
     convolution.CONV2D_TRANSPOSE, "Conv2dTransposeGradNode"),
    (lambda: F.max_pool1d(leaf(1, 1, 4), 2), pooling.MAX_POOL1D, "MaxPool1dGradNode"),
    (lambda: F.max_pool2d(leaf(1, 1, 4, 4), 2), pooling.MAX_POOL2D, "MaxPool2dGradNode"),
    (lambda: F.avg_pool1d(leaf(1, 1, 4), 2), pooling.AVG_POOL1D, "AvgPool1dGradNode"),
    (lambda: F.avg_pool2d(leaf(1, 1, 4, 4), 2), pooling.AVG_POOL2D, "AvgPool2dGradNode"),
    (lambda: F.layer_norm(leaf(2, 3), 3), normalization.LAYER_NORM, "LayerNormGradNode"),
    (lambda: F.batch_norm(leaf(4, 3), pylayer.zeros([3], "float64"), pylayer.ones([3], "float64"),
                          training=True), normalization.BATCH_NORM, "BatchNormGradNode"),
    (lambda: F.pad(leaf(1, 1, 3), [1, 1]), spatial.PAD, "PadGradNode"),
    (lambda: F.dropout(leaf(8), 0.5), dropout.DROPOUT, "DropoutGradNode"),
    (lambda: F.linear(leaf(2, 3), leaf(3, 4), leaf(4)), linear.LINEAR, "LinearGradNode"),
]


@pytest.mark.parametrize("call,record,node_name", CALLS, ids=[c[2] for c in CALLS])
def test_each_call_records_a_node_of_its_ops_record(call, record, node_name):
    node = call().grad_fn
    assert node.op is record
    assert node.name() == node_name


def test_the_gradient_of_a_convolution_is_a_transposed_convolution_of_the_same_rank():
    x, w = leaf(1, 2, 4, 4), leaf(3, 2, 2, 2)
    dx, = pylayer.grad(F.conv2d(x, w).sum(), x, create_graph=True)
    assert dx.grad_fn.op is convolution.CONV2D_TRANSPOSE


def test_dropout_keeps_its_mask_for_backward_through_the_saved_tensor_hooks():
    pylayer.seed(5)
    x = leaf(16)
    packed = []
    with pylayer.autograd.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        y = F.dropout(x, 0.5)
    mask, = packed
    assert mask is not x and mask.stop_gradient
    np.testing.assert_array_equal(mask.numpy(), np.where(y.numpy() != 0, 2.0, 0.0))
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), mask.numpy())


AREAS = [convolution, dropout, embedding, linear, normalization, pooling, spatial]
# nn/functional.py still holds the activations and losses that move to pylayer.ops
# with their own port; the rest of nn, static, optimizer and framework is done.
PORTED = sorted([f"ops/{m.__name__.rsplit('.', 1)[1]}.py" for m in AREAS] + [
    str(path.relative_to(SOURCE)) for package in ("nn", "static", "optimizer", "framework")
    for path in (SOURCE / package).glob("*.py") if path.name != "functional.py"])


@pytest.mark.parametrize("module", PORTED)
def test_the_ported_areas_record_only_through_op_records(module):
    text = (SOURCE / module).read_text(encoding="utf-8")
    for old in ("make_output_legacy", "make_outputs_legacy", "saved_operands", "number_attrs",
                "zero_grads", "node.", "saved_tensors()"):
        assert old not in text, f"{module} still uses {old}"

