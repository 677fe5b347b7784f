"""``pylayer.flops``: Paddle's count of a network's floating-point operations per layer."""
import math

import numpy as np

import pylayer
from pylayer import nn, static
from pylayer.extend import check_count, check_ints
from pylayer.hapi.summary import _counted

__all__ = ["flops"]

_BUFFERS = ("total_ops", "total_params", "input_shape", "output_shape")


def _numel(tensor):
    return int(np.prod(tensor.shape))


def _count_conv(layer, inputs, output):
    kernel = int(np.prod(layer.weight.shape[2:]))
    per_output = inputs[0].shape[1] / layer._groups * kernel + (layer.bias is not None)
    layer.total_ops += abs(int(_numel(output) * per_output))


def _count_bn(layer, inputs, output):
    layer.total_ops += 2 * _numel(inputs[0])


def _count_zero(layer, inputs, output):
    layer.total_ops += 0


def _count_leaky_relu(layer, inputs, output):
    layer.total_ops += _numel(inputs[0])


def _count_linear(layer, inputs, output):
    layer.total_ops += layer.weight.shape[0] * _numel(output)


def _count_avgpool(layer, inputs, output):
    layer.total_ops += _numel(output)


def _count_adaptive_avgpool(layer, inputs, output):
    kernel = np.array(inputs[0].shape[2:]) // np.array(output.shape[2:])
    layer.total_ops += int((np.prod(kernel) + 1) * _numel(output))


_COUNTS = {
    nn.Conv1D: _count_conv, nn.Conv2D: _count_conv, nn.Conv3D: _count_conv,
    nn.Conv1DTranspose: _count_conv, nn.Conv2DTranspose: _count_conv,
    nn.Conv3DTranspose: _count_conv, nn.BatchNorm2D: _count_bn, nn.BatchNorm: _count_bn,
    nn.ReLU: _count_zero, nn.ReLU6: _count_zero, nn.LeakyReLU: _count_leaky_relu,
    nn.Linear: _count_linear, nn.Dropout: _count_zero, nn.AvgPool1D: _count_avgpool,
    nn.AvgPool2D: _count_avgpool, nn.AvgPool3D: _count_avgpool,
    nn.AdaptiveAvgPool1D: _count_adaptive_avgpool, nn.AdaptiveAvgPool2D: _count_adaptive_avgpool,
    nn.AdaptiveAvgPool3D: _count_adaptive_avgpool,
}


def _record_io(layer, inputs, output):
    ours = {id(layer._buffers.get(name)) for name in _BUFFERS}
    layer.total_params += sum(int(np.prod(t.shape)) for t, _ in _counted(layer)
                              if id(t) not in ours)
    first = output[0] if isinstance(output, (list, tuple)) else output
    layer.register_buffer("input_shape", pylayer.to_tensor(list(inputs[0].shape)))
    layer.register_buffer("output_shape", pylayer.to_tensor(list(first.shape)))


def _table(rows):
    heads = ["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"]
    widths = [max([len(head)] + [len(str(row[i])) for row in rows]) for i, head in enumerate(heads)]
    shelf = "".join("+" + "-" * (width + 2) for width in widths) + "+"
    lines = [shelf]
    for row in [heads, None] + rows + [None]:
        lines.append(shelf if row is None else
                     "".join("|" + str(cell).center(width + 2)
                             for cell, width in zip(row, widths)) + "|")
    return "\n".join(lines)


def flops(net, input_size, custom_ops=None, print_detail=False):
    """Count the floating-point operations of ``net`` on one random input of
    ``input_size`` (run once in eval mode, without gradients), print
    ``Total Flops: n     Total Params: m`` and return n.

    Each leaf layer (one without sub-layers) is counted by Paddle's rule for
    its type: convolutions (output elements times the input channels per
    group times the kernel size, plus one for the bias), ``Linear`` (input
    features times output elements), ``BatchNorm2D``/``BatchNorm`` (two per
    input element), ``LeakyReLU`` (one per element), average pooling (one per
    output element), adaptive average pooling (the window plus one per output
    element); ``ReLU``, ``ReLU6`` and ``Dropout`` count zero, and other types
    count zero with a printed note. ``custom_ops`` maps a layer type to a
    function ``fn(layer, inputs, output)`` that adds to ``layer.total_ops``.
    A line is printed per type counted; ``print_detail`` also prints a table
    per layer. A static ``Program`` is not supported yet.

    >>> import pylayer
    >>> net = pylayer.nn.Sequential(pylayer.nn.Linear(4, 3), pylayer.nn.ReLU())
    >>> n = pylayer.flops(net, [2, 4])  # doctest: +ELLIPSIS
    <class 'pylayer.nn...Linear'>'s flops has been counted
    <class 'pylayer.nn...ReLU'>'s flops has been counted
    Total Flops: 24     Total Params: 15
    >>> n
    24
    """
    if isinstance(net, static.Program):
        raise NotImplementedError("flops(): counting the operations of a static Program is not "
                                  "supported yet; pass the pylayer.nn.Layer instead")
    if not isinstance(net, nn.Layer):
        raise TypeError(f"flops(): argument 'net' must be a pylayer.nn.Layer, got "
                        f"{type(net).__name__}")
    shape = check_ints(input_size, "flops", "input_size")
    if any(size <= 0 for size in shape):
        raise ValueError(f"flops(): argument 'input_size' must hold positive sizes, got {shape}")
    check_count(math.prod(shape), "flops", "input_size", "float32")
    if custom_ops is None:
        custom_ops = {}
    if not isinstance(custom_ops, dict) or not all(
            isinstance(key, type) and callable(fn) for key, fn in custom_ops.items()):
        raise TypeError(f"flops(): argument 'custom_ops' must be a dict from layer types to "
                        f"functions, got {type(custom_ops).__name__}")
    leaves = [layer for layer in net.sublayers(include_self=True) if not layer.children()]
    seen, handles = set(), []
    training = net.training
    try:
        for layer in leaves:
            kind = type(layer)
            count = custom_ops.get(kind, _COUNTS.get(kind))
            if kind not in seen:
                if kind in custom_ops:
                    print(f"Customize Function has been applied to {kind}")
                elif count is not None:
                    print(f"{kind}'s flops has been counted")
                else:
                    print(f"Cannot find suitable count function for {kind}. Treat it as zero "
                          f"FLOPs.")
                seen.add(kind)
            layer.register_buffer("total_ops", pylayer.zeros([1], dtype="int64"))
            layer.register_buffer("total_params", pylayer.zeros([1], dtype="int64"))
            if count is not None:
                handles.append(layer.register_forward_post_hook(count))
            handles.append(layer.register_forward_post_hook(_record_io))
        net.eval()
        with pylayer.no_grad():
            net(pylayer.randn(shape))
        rows = [[layer.full_name(), layer.input_shape.tolist(), layer.output_shape.tolist(),
                 int(layer.total_params.item()), int(layer.total_ops.item())]
                for layer in leaves if "input_shape" in layer._buffers]
    finally:
        if training:
            net.train()
        for handle in handles:
            handle.remove()
        for layer in leaves:
            for name in _BUFFERS:
                layer._buffers.pop(name, None)
    if print_detail:
        print(_table(rows))
    total_ops = sum(row[4] for row in rows)
    print(f"Total Flops: {total_ops}     Total Params: {sum(row[3] for row in rows)}")
    return total_ops
