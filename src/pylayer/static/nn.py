"""``paddle.static.nn``: layers and control flow for static programs."""
import itertools

from pylayer.extend import Tensor, check_count, check_int, check_str
from pylayer.ops.shape import assign
from pylayer.static._program import _parameter
from pylayer.static._record import record_op
from pylayer.static._variable import Variable
from pylayer.static._py_func import py_func
from pylayer.static._control_flow import case, cond, switch_case, while_loop
from pylayer.static._layers import (batch_norm, bilinear_tensor_product, conv2d,
                                    conv2d_transpose, conv3d, conv3d_transpose, embedding,
                                    group_norm, instance_norm, layer_norm, prelu, row_conv,
                                    spectral_norm)
from pylayer.static._layers import nce, sparse_embedding
from pylayer.static._layers import _channels, _groups, _prefix, _sizes, static_input
from pylayer.nn.initializer import Normal
from pylayer.static._variable import public_api

__all__ = ["fc", "py_func", "static_pylayer", "cond", "while_loop", "case", "switch_case",
           "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose", "batch_norm",
           "layer_norm", "group_norm", "instance_norm", "embedding", "prelu",
           "bilinear_tensor_product", "spectral_norm", "row_conv"]
__all__ += ["sparse_embedding", "nce"]
__all__ += ["deform_conv2d"]

_fc_counter = itertools.count()


def _activation(name):
    import pylayer
    check_str(name, "fc", "activation", allow_none=True)
    if name is None:
        return None
    fn = getattr(pylayer.nn.functional, name, None) or getattr(pylayer, name, None)
    if name.startswith("_") or not callable(fn):
        raise ValueError(f"fc(): unknown activation {name!r}; use the name of a pylayer "
                         f"activation such as 'relu', 'tanh', 'sigmoid' or 'softmax'")
    return fn


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None,
       name=None):
    """A fully connected layer: ``activation(x @ W + b)`` with new parameters W and b.

    ``x`` (or each Variable of a list, whose products are summed) is seen as
    a matrix whose rows are its first ``num_flatten_dims`` dimensions. The
    parameters are named ``<name>.w_0`` and ``<name>.b_0`` (``fc_N`` by
    default) and initialised by the startup program: Xavier-uniform weights
    and zero biases unless ``weight_attr`` / ``bias_attr`` say otherwise;
    ``bias_attr=False`` leaves the bias out.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 3], "float32")
    ...     one = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0))
    ...     y = paddle.static.nn.fc(x, size=2, weight_attr=one, name="demo_fc")
    >>> y.shape
    [-1, 2]
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"x": np.ones([1, 3], "float32")}, fetch_list=[y])
    [array([[3., 3.]], dtype=float32)]
    >>> paddle.disable_static()
    """
    import pylayer
    inputs = list(x) if isinstance(x, (list, tuple)) else [x]
    if any(isinstance(item, Tensor) for item in inputs):
        raise RuntimeError("static.nn.fc builds a static program from Variables, but got a "
                           "Tensor; call pylayer.enable_static() and use paddle.static.data "
                           "(for Tensors use nn.Linear)")
    for i, item in enumerate(inputs):
        if not isinstance(item, Variable):
            raise TypeError(f"fc(): argument 'x' must be a Variable or a list of Variables, "
                            f"item {i} is {type(item).__name__}")
    size = check_int(size, "fc", "size", minimum=1)
    num_flatten_dims = check_int(num_flatten_dims, "fc", "num_flatten_dims", minimum=1)
    check_str(name, "fc", "name", allow_none=True)
    activation = _activation(activation)
    weight_attrs = list(weight_attr) if isinstance(weight_attr, (list, tuple)) \
        else [weight_attr] * len(inputs)
    if len(weight_attrs) != len(inputs):
        raise ValueError(f"fc(): {len(weight_attrs)} weight_attr entries for {len(inputs)} inputs")
    prefix = name or f"fc_{next(_fc_counter)}"
    total = None
    for i, (item, attr) in enumerate(zip(inputs, weight_attrs)):
        shape = item.shape
        if len(shape) <= num_flatten_dims:
            raise ValueError(f"fc(): input '{item.name}' has shape {shape}, which needs more than "
                             f"num_flatten_dims={num_flatten_dims} dimensions")
        features = 1
        for d in shape[num_flatten_dims:]:
            if d < 0:
                raise ValueError(f"fc(): input '{item.name}' has shape {shape}; the dimensions "
                                 f"after num_flatten_dims must be known")
            features *= d
        check_count(features * size, "fc", "size")
        weight = _parameter([features, size], item.dtype, attr=attr,
                            default_name=f"{prefix}.w_{i}")
        if len(shape) > num_flatten_dims + 1:
            item = pylayer.reshape(item, [0] * num_flatten_dims + [features])
        product = pylayer.matmul(item, weight)
        total = product if total is None else pylayer.add(total, product)
    if bias_attr is not False:
        bias = _parameter([size], inputs[0].dtype, attr=bias_attr, is_bias=True,
                          default_name=f"{prefix}.b_0")
        total = pylayer.add(total, bias)
    if activation is not None:
        total = activation(total)
    return total


class _StaticPyLayerOp:
    """Run time of one static_pylayer: ``forward_fn`` on Tensors, as a PyLayer whose
    backward is ``backward_fn``; without one, under no_grad (no gradient flows)."""
    __name__ = "static_pylayer"

    def __init__(self, forward_fn, backward_fn):
        from pylayer.autograd import PyLayer
        self.forward_fn = forward_fn
        self.custom = None
        if backward_fn is not None:
            self.custom = type("static_pylayer", (PyLayer,), {
                "forward": staticmethod(lambda ctx, *xs: _as_outputs(_run(forward_fn, xs))),
                "backward": staticmethod(lambda ctx, *grads: backward_fn(*grads))})

    def __call__(self, *inputs):
        from pylayer.autograd import no_grad
        if self.custom is not None:
            outputs = self.custom.apply(*inputs)
        else:
            with no_grad():
                outputs = _run(self.forward_fn, inputs)
        return list(outputs) if isinstance(outputs, (list, tuple)) else outputs


def _run(forward_fn, inputs):
    """``forward_fn(*inputs)``, where an output that is one of the inputs (an identity
    forward) becomes a copy: the operator's outputs are its own, as in Paddle."""
    returned = forward_fn(*inputs)
    if isinstance(returned, (list, tuple)):
        return type(returned)(_own(item, inputs) for item in returned)
    return _own(returned, inputs)


def _own(output, inputs):
    return assign(output) if any(output is x for x in inputs) else output


def _as_outputs(returned):
    """A PyLayer's forward result: a Tensor or a tuple of Tensors."""
    return tuple(returned) if isinstance(returned, list) else returned


def static_pylayer(forward_fn, inputs, backward_fn=None, name=None):
    """Add a custom operator to the static program: the counterpart of ``PyLayer``.

    ``forward_fn(*inputs)`` is written with pylayer ops and returns a
    Variable or a list of them; it is recorded as one operator whose
    outputs this function returns (one Variable, or a list; an input
    returned unchanged becomes a new output). With ``backward_fn``,
    gradients (``static.gradients``, ``append_backward``) go through it: it
    receives one gradient per output and returns one per input (None for an
    input without one). Without ``backward_fn`` the operator has no
    gradient, so, as in Paddle, every input must have
    ``stop_gradient=True`` (``ValueError`` otherwise). Static mode only (in
    dynamic mode use ``PyLayer``).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     x.stop_gradient = False
    ...     y = paddle.static.nn.static_pylayer(lambda a: paddle.exp(a), [x],
    ...                                         backward_fn=lambda dy: 2 * dy)
    ...     (dx,) = paddle.static.gradients(paddle.sum(y), x)
    >>> paddle.static.Executor().run(main, feed={"x": np.zeros([1, 2], "float32")},
    ...                              fetch_list=[y, dx])
    [array([[1., 1.]], dtype=float32), array([[2., 2.]], dtype=float32)]
    >>> paddle.disable_static()
    """
    if isinstance(inputs, (list, tuple)) and any(isinstance(item, Tensor) for item in inputs):
        raise RuntimeError("static_pylayer builds a static program from Variables, but got a "
                           "Tensor: it is for static-graph mode (pylayer.enable_static()); "
                           "for Tensors use pylayer.autograd.PyLayer")
    if not callable(forward_fn):
        raise TypeError(f"static_pylayer(): argument 'forward_fn' must be callable, "
                        f"got {type(forward_fn).__name__}")
    if backward_fn is not None and not callable(backward_fn):
        raise TypeError(f"static_pylayer(): argument 'backward_fn' must be callable or None, "
                        f"got {type(backward_fn).__name__}")
    check_str(name, "static_pylayer", "name", allow_none=True)
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"static_pylayer(): argument 'inputs' must be a list of Variables, "
                        f"got {type(inputs).__name__}")
    for i, item in enumerate(inputs):
        if not isinstance(item, Variable):
            raise TypeError(f"static_pylayer(): argument 'inputs' item {i} must be a "
                            f"Variable, got {type(item).__name__}")
        if backward_fn is None and not item.stop_gradient:
            raise ValueError(f"static_pylayer(): input '{item.name}' has stop_gradient=False, "
                             f"but without backward_fn no gradient flows through forward_fn; "
                             f"pass a backward_fn, or set stop_gradient=True on the input (as "
                             f"Paddle requires)")
    return record_op(_StaticPyLayerOp(forward_fn, backward_fn), *inputs, name=name)


def deform_conv2d(x, offset, mask, num_filters, filter_size, stride=1, padding=0, dilation=1,
                  groups=1, deformable_groups=1, im2col_step=1, weight_attr=None,
                  bias_attr=None, name=None):
    """A deformable 2-D convolution layer (``pylayer.vision.ops.deform_conv2d``) with new
    filter (and bias) parameters; DCNv2 with a ``mask`` Variable, DCNv1 with ``mask=None``.

    ``x`` is ``[N, C, H, W]``, ``offset`` ``[N, 2 * deformable_groups * kh * kw,
    H_out, W_out]`` and ``mask`` ``[N, deformable_groups * kh * kw, H_out, W_out]``.
    The filter ``[num_filters, C / groups, kh, kw]`` starts from
    ``Normal(0, sqrt(2 / (kh * kw * C)))`` unless ``weight_attr`` says otherwise, the
    bias at zeros (none with ``bias_attr=False``); they are named
    ``<name>.w_0`` / ``<name>.b_0`` (``deformable_conv_N`` by default).
    ``im2col_step`` (a batching hint of Paddle's kernel) is checked and has no effect.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2, 4, 4], "float32")
    ...     offset = paddle.static.data("offset", [-1, 18, 4, 4], "float32")
    ...     mask = paddle.static.data("mask", [-1, 9, 4, 4], "float32")
    ...     y = paddle.static.nn.deform_conv2d(x, offset, mask, num_filters=3,
    ...                                        filter_size=3, padding=1, name="dcn")
    >>> y.shape, [p.name for p in main.all_parameters()]
    ([-1, 3, 4, 4], ['dcn.w_0', 'dcn.b_0'])
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> feed = {"x": np.ones([1, 2, 4, 4], "float32"),
    ...         "offset": np.zeros([1, 18, 4, 4], "float32"),
    ...         "mask": np.ones([1, 9, 4, 4], "float32")}
    >>> exe.run(main, feed=feed, fetch_list=[y])[0].shape
    (1, 3, 4, 4)
    >>> paddle.disable_static()
    """
    fn = "deform_conv2d"
    x = static_input(x, fn, "x")
    offset = static_input(offset, fn, "offset")
    if mask is not None:
        mask = static_input(mask, fn, "mask")
    if x.ndim != 4:
        raise ValueError(f"{fn}(): argument 'x' must have 4 dimensions [N, C, H, W], got "
                         f"shape {x.shape}")
    num_filters = check_int(num_filters, fn, "num_filters", minimum=1)
    check_int(im2col_step, fn, "im2col_step", minimum=1)
    check_str(name, fn, "name", allow_none=True)
    if weight_attr is False:
        raise ValueError(f"{fn}(): argument 'weight_attr' must not be False: the layer needs "
                         f"its filter")
    channels = _channels(x, False, fn)
    groups = _groups(groups, channels, fn)
    kernel = _sizes(filter_size, 2, fn, "filter_size")
    std = (2.0 / (kernel[0] * kernel[1] * channels)) ** 0.5
    prefix = _prefix("deformable_conv", name)
    weight = _parameter([num_filters, channels // groups, *kernel], x.dtype, attr=weight_attr,
                        default_initializer=Normal(0.0, std), default_name=f"{prefix}.w_0")
    bias = None
    if bias_attr is not False:
        bias = _parameter([num_filters], x.dtype, attr=bias_attr, is_bias=True,
                          default_name=f"{prefix}.b_0")
    return public_api().vision.ops.deform_conv2d(x, offset, weight, bias, stride, padding,
                                                 dilation, deformable_groups, groups, mask)
