"""``pylayer.summary``: Paddle's table of a network's layers, output shapes and
parameter counts, printed, with the totals returned as a dict."""
import math
import numbers
from collections import OrderedDict

import numpy as np

import pylayer
from pylayer import nn
from pylayer.extend import Tensor, check_count, check_dtype

__all__ = ["summary"]


def _spec_shape(item):
    """The shape of an InputSpec-like object (anything with a ``shape`` and a ``dtype``)."""
    if not isinstance(item, (tuple, list, Tensor, numbers.Number)) and hasattr(item, "shape") \
            and hasattr(item, "dtype"):
        return tuple(item.shape)
    return None


def _normal_size(input_size):
    """``input_size`` as a tuple (one input) or a list of tuples, as Paddle normalizes it."""
    if _spec_shape(input_size) is not None:
        return _spec_shape(input_size)
    if isinstance(input_size, numbers.Integral) and not isinstance(input_size, bool):
        return (input_size,)
    if isinstance(input_size, list):
        items = []
        for i, item in enumerate(input_size):
            if isinstance(item, numbers.Integral) and not isinstance(item, bool):
                item = (item,)
            if _spec_shape(item) is not None:
                item = _spec_shape(item)
            if not isinstance(item, tuple):
                raise TypeError(f"summary(): argument 'input_size' must be a tuple, an InputSpec "
                                f"or a list of them, got {type(item).__name__} at index {i}")
            items.append(item)
        return items
    if isinstance(input_size, tuple):
        return input_size
    raise TypeError(f"summary(): argument 'input_size' must be an int, a tuple, an InputSpec or "
                    f"a list of them, got {type(input_size).__name__}")


def _is_shape(size):
    return isinstance(size, (list, tuple)) and \
        not any(isinstance(item, (list, tuple)) for item in size)


def _checked(size):
    """Each shape with its one unknown (None or -1) batch dimension set to 1."""
    if not _is_shape(size):
        return [_checked(item) for item in size]
    unknown = 0
    shape = []
    for item in size:
        if item is None or (isinstance(item, numbers.Number) and item == -1):
            unknown += 1
            if unknown > 1:
                raise ValueError(f"summary(): argument 'input_size': Option input_size only the "
                                 f"dim of batch_size can be None or -1, got {tuple(size)}")
            item = 1
        elif not isinstance(item, numbers.Integral) or isinstance(item, bool):
            raise TypeError(f"summary(): argument 'input_size' must hold ints, None or -1, "
                            f"got {type(item).__name__}")
        elif item <= 0:
            raise ValueError(f"summary(): argument 'input_size': Expected element in input size "
                             f"greater than zero, but got {item}")
        shape.append(int(item))
    check_count(math.prod(shape), "summary", "input_size", "float32")
    return tuple(shape)


def _all_numbers(items):
    return all(isinstance(item, numbers.Number) for item in items)


def _dtypes_for(size, dtype):
    if _all_numbers(size):
        return [dtype]
    return [_dtypes_for(item, dtype) for item in size]


def _build_input(size, dtypes):
    if _all_numbers(size):
        dtype = dtypes[0] if isinstance(dtypes, (list, tuple)) else dtypes
        return pylayer.cast(pylayer.rand(list(size)), dtype)
    return [_build_input(item, dtype) for item, dtype in zip(size, dtypes)]


def _input_shapes(inputs):
    if isinstance(inputs, Tensor):
        return list(inputs.shape)
    if isinstance(inputs, (list, tuple)):
        return [_input_shapes(item) for item in inputs]
    return None


def _output_shape(output):
    if isinstance(output, (list, tuple)):
        return [_output_shape(item) for item in output]
    if hasattr(output, "shape"):
        return list(output.shape)
    return []


def _counted(layer):
    """The tensors Paddle counts as the layer's parameters: its own parameters and, for
    pylayer's built-in layers, the persistable buffers that Paddle makes non-trainable
    parameters (a batch norm's running mean and variance)."""
    tensors = [(param, not param.stop_gradient and getattr(param, "trainable", True))
               for param in layer._parameters.values() if param is not None]
    if type(layer).__module__.startswith("pylayer."):
        tensors += [(buffer, False) for name, buffer in layer._buffers.items()
                    if buffer is not None and name not in layer._non_persistable_buffers]
    return tensors


def _record(table, layer, inputs, output):
    class_name = type(layer).__name__
    try:
        index = int(layer._full_name.split("_")[-1])
    except ValueError:
        index = len(table)
    row = OrderedDict()
    row["input_shape"] = _input_shapes(inputs)
    row["output_shape"] = _output_shape(output)
    row["trainable_params"] = 0
    params = 0
    trainable_seen = False
    for tensor, trainable in _counted(layer):
        count = np.prod(tensor.shape)
        params += count
        if trainable:
            row["trainable_params"] += count
            row["trainable"] = True
            trainable_seen = True
        elif not trainable_seen:
            row["trainable"] = False
    row["nb_params"] = params
    table[f"{class_name}-{index + 1}"] = row


def _widths(table):
    width = {"layer_width": 15, "input_shape_width": 20, "output_shape_width": 20,
             "params_width": 15, "table_width": 75}
    for key, row in table.items():
        width["output_shape_width"] = max(width["output_shape_width"],
                                          len(str(row["output_shape"])))
        width["input_shape_width"] = max(width["input_shape_width"], len(str(row["input_shape"])))
        width["layer_width"] = max(width["layer_width"], len(str(key)))
        width["params_width"] = max(width["params_width"], len(str(row["nb_params"])))
    columns = sum(v for k, v in width.items() if k != "table_width")
    width["table_width"] = max(width["table_width"], columns + 5)
    return width


def _input_megabytes(size):
    if _all_numbers(size):
        return abs(np.prod(size) * 4.0 / (1024 ** 2.0))
    return sum(_input_megabytes(item) for item in size)


def _table(net, input_size, dtypes, input):
    if not isinstance(dtypes, (list, tuple)):
        dtypes = _dtypes_for(input_size, "float32" if dtypes is None else dtypes)
    table = OrderedDict()
    hooks = []
    depth = len(net.sublayers())
    for layer in net.sublayers(include_self=True):
        if not isinstance(layer, (nn.Sequential, nn.LayerList)) and \
                (layer is not net or depth < 1):
            hooks.append(layer.register_forward_post_hook(
                lambda layer, inputs, output: _record(table, layer, inputs, output)))
    if isinstance(input_size, tuple):
        input_size = [input_size]
    try:
        with pylayer.no_grad():
            if input is not None:
                net(input)
            else:
                net(*_build_input(input_size, dtypes))
    finally:
        for hook in hooks:
            hook.remove()

    width = _widths(table)
    line = "{:^{}} {:^{}} {:^{}} {:^{}}"
    text = "-" * width["table_width"] + "\n"
    text += line.format("Layer (type)", width["layer_width"], "Input Shape",
                        width["input_shape_width"], "Output Shape", width["output_shape_width"],
                        "Param #", width["params_width"]) + "\n"
    text += "=" * width["table_width"] + "\n"
    total_params = total_output = trainable_params = 0
    for key, row in table.items():
        text += line.format(key, width["layer_width"], str(row["input_shape"]),
                            width["input_shape_width"], str(row["output_shape"]),
                            width["output_shape_width"], f"{row['nb_params']:,}",
                            width["params_width"]) + "\n"
        total_params += row["nb_params"]
        try:
            total_output += np.sum(np.prod(row["output_shape"], axis=-1))
        except ValueError:
            for shape in row["output_shape"]:
                total_output += np.sum(np.prod(shape, axis=-1))
        if row.get("trainable"):
            trainable_params += row["trainable_params"]
    input_mb = _input_megabytes(input_size)
    output_mb = abs(2.0 * total_output * 4.0 / (1024 ** 2.0))
    params_mb = abs(total_params * 4.0 / (1024 ** 2.0))
    text += "=" * width["table_width"] + "\n"
    text += f"Total params: {total_params:,}\n"
    text += f"Trainable params: {trainable_params:,}\n"
    text += f"Non-trainable params: {total_params - trainable_params:,}\n"
    text += "-" * width["table_width"] + "\n"
    text += f"Input size (MB): {input_mb:0.2f}\n"
    text += f"Forward/backward pass size (MB): {output_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {params_mb + output_mb + input_mb:0.2f}\n"
    text += "-" * width["table_width"] + "\n"
    return text, {"total_params": total_params, "trainable_params": trainable_params}


def summary(net, input_size=None, dtypes=None, input=None):
    """Print a table of ``net``'s layers (``Conv2D-1``, ...) with their input and
    output shapes and parameter counts, then the totals and Paddle's size
    estimates in MB; return ``{'total_params': n, 'trainable_params': m}``.

    The network runs once in eval mode (restored afterwards) on random inputs
    of ``input_size`` (a tuple for one input, a list of tuples for several; the
    batch dimension may be None or -1, taken as 1) and ``dtypes`` (default
    float32), or on ``input`` (a Tensor, a list or a dict, passed as the one
    argument). Containers (``Sequential``, ``LayerList``) and the network itself
    get no row when it has sub-layers. A batch norm's running mean and variance
    count as non-trainable parameters, as in Paddle.

    >>> import pylayer
    >>> net = pylayer.nn.Sequential(pylayer.nn.Linear(4, 3), pylayer.nn.ReLU())
    >>> info = pylayer.summary(net, (1, 4))  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    ---------------------------------------------------------------------------
     Layer (type)       Input Shape          Output Shape         Param #
    ===========================================================================
       Linear-...          [[1, 4]]              [1, 3]              15
        ReLU-...            [[1, 3]]              [1, 3]               0
    ===========================================================================
    Total params: 15
    Trainable params: 15
    Non-trainable params: 0
    ...
    >>> info
    {'total_params': np.int64(15), 'trainable_params': np.int64(15)}
    """
    if not isinstance(net, nn.Layer):
        raise TypeError(f"summary(): argument 'net' must be a pylayer.nn.Layer, got "
                        f"{type(net).__name__}")
    if input_size is None and input is None:
        raise ValueError("summary(): input_size and input cannot be None at the same time")
    if dtypes is not None and not isinstance(dtypes, (list, tuple)):
        check_dtype(dtypes, "summary", "dtypes")
    if input_size is None:
        if isinstance(input, Tensor):
            input_size = tuple(input.shape)
        elif isinstance(input, (list, tuple)) and all(isinstance(x, Tensor) for x in input):
            input_size = [tuple(x.shape) for x in input]
        elif isinstance(input, dict) and all(isinstance(x, Tensor) for x in input.values()):
            input_size = [tuple(x.shape) for x in input.values()]
        else:
            raise TypeError("summary(): argument 'input': Input is not tensor, list, tuple and "
                            "dict, unable to determine input_size, please input input_size; got "
                            f"{type(input).__name__}")
    input_size = _checked(_normal_size(input_size))
    training = net.training
    if training:
        net.eval()
    try:
        text, totals = _table(net, input_size, dtypes, input)
    finally:
        if training:
            net.train()
    print(text)
    return totals
