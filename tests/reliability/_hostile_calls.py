"""How to call every public callable of pylayer with valid arguments, and what each argument is.

``CALLS`` maps each public function or class (the object itself) to a
:class:`Call`: its valid arguments, each tagged with a *kind*. The walker in
``test_hostile_input.py`` replaces one argument at a time by every hostile
value of its kind (``HOSTILE``) and by the extra cases of the entry
(mismatched shapes, out-of-range values), and expects a ``TypeError`` or
``ValueError`` that names the function and that argument.

``METHODS`` does the same for the public methods of public classes, with a
``setup`` that makes the object. ``EXEMPT`` lists, with a reason, the public
methods whose arguments have nothing to corrupt (``*args`` pass-throughs,
boolean flags).

Argument values are factories ``lambda env: value`` (fresh objects for each
call); ``env`` is what the entry's ``setup`` put there (a graph, a layer...).
A kind of ``None`` means the argument accepts anything; boolean flags are
such arguments (any value counts by its truth, as in Python).
"""
import io

import numpy as np

import pylayer
from pylayer import autograd, demo, nn, optimizer, static
from pylayer.autograd import graph
from pylayer.nn import functional as F
from pylayer.nn import initializer
from pylayer.ops.inplace import inplace


# ------------------------------------------------------------ hostile values
def _value(v):
    return lambda env: v


STRING = ("a string", lambda env: "spam")
NONE = ("None", lambda env: None)
DICT = ("a dict", lambda env: {"a": 1})
RAGGED = ("a ragged nested list", lambda env: [[1.0, 2.0], [3.0]])
OBJECTS = ("an object array", lambda env: np.array([object(), object()], dtype=object))
COMPLEX = ("a complex array", lambda env: np.array([1 + 2j, 3j]))
INT_TENSOR = ("an integer tensor", lambda env: pylayer.to_tensor([[1, 2, 3], [4, 5, 6]]))
BOOL_TENSOR = ("a bool tensor", lambda env: pylayer.to_tensor([[True, False, True]] * 2))
FLOAT_TENSOR = ("a float tensor", lambda env: pylayer.ones([2, 3]))
FLOAT = ("a float", lambda env: 1.5)
INT = ("an int", lambda env: 3)
NEGATIVE = ("a negative int", lambda env: -3)
HUGE = ("a huge int", lambda env: 2 ** 62)
BEYOND_INT64 = ("an int beyond int64", lambda env: 2 ** 64)
LIST_WITH_STRING = ("a list holding a string", lambda env: [2, "a"])
LIST_WITH_FLOAT = ("a list holding a float", lambda env: [2.5, 1])
NEGATIVE_SIZE = ("a negative size", lambda env: [2, -3])
HUGE_SHAPE = ("a huge shape", lambda env: [2 ** 40, 2 ** 40])
AXIS_OUT_OF_RANGE = ("an axis out of range", lambda env: 7)
AXES_WITH_STRING = ("a list holding a string", lambda env: [0, "a"])
UNKNOWN_DTYPE = ("an unknown dtype name", lambda env: "float17")
FLOAT_DTYPE_OBJECT = ("a number as dtype", lambda env: 3.5)
NEGATIVE_FLOAT = ("a negative number", lambda env: -0.5)

HOSTILE = {
    "tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, COMPLEX],
    "tensor_or_none": [STRING, DICT, RAGGED, OBJECTS, COMPLEX],
    "float_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, COMPLEX, INT_TENSOR, BOOL_TENSOR],
    # float-only math, which computes integer tensors in float32 as Paddle does
    "math_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, COMPLEX, BOOL_TENSOR],
    "int_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, FLOAT_TENSOR],
    "out_tensor": [STRING, DICT, INT],
    "tensors": [STRING, NONE, DICT, ("a list holding a string", lambda env: ["spam"]),
                ("an empty list", lambda env: [])],
    "shape": [STRING, NONE, DICT, LIST_WITH_STRING, LIST_WITH_FLOAT, NEGATIVE_SIZE, HUGE_SHAPE],
    "target_shape": [STRING, NONE, DICT, LIST_WITH_STRING, LIST_WITH_FLOAT,
                     ("a size below -1", lambda env: [2, -3])],
    "axis": [STRING, DICT, FLOAT, AXIS_OUT_OF_RANGE, AXES_WITH_STRING, BEYOND_INT64],
    "axis_setting": [STRING, DICT, FLOAT, AXES_WITH_STRING],   # no tensor yet: any int may do
    "int_axis": [STRING, NONE, DICT, FLOAT, AXIS_OUT_OF_RANGE, BEYOND_INT64],
    "int_axis_or_none": [STRING, DICT, FLOAT, AXIS_OUT_OF_RANGE],
    "int": [STRING, NONE, DICT, FLOAT, BEYOND_INT64],
    "size": [STRING, NONE, DICT, FLOAT, NEGATIVE, HUGE, BEYOND_INT64],
    "size_or_none": [STRING, DICT, FLOAT, NEGATIVE, HUGE, BEYOND_INT64],
    "count": [STRING, NONE, DICT, FLOAT, NEGATIVE, BEYOND_INT64],
    "number": [STRING, NONE, DICT],
    "number_or_none": [STRING, DICT],
    "non_negative": [STRING, NONE, DICT, NEGATIVE_FLOAT],
    "non_negative_or_none": [STRING, DICT, NEGATIVE_FLOAT],
    "probability": [STRING, NONE, DICT, NEGATIVE_FLOAT, ("a number above 1", lambda env: 1.5)],
    "dtype": [UNKNOWN_DTYPE, DICT, FLOAT_DTYPE_OBJECT],
    "dtype_required": [UNKNOWN_DTYPE, DICT, FLOAT_DTYPE_OBJECT, NONE],
    "callable": [STRING, NONE, INT],
    "callable_or_none": [STRING, INT],
    "str": [NONE, DICT, INT],
    "str_or_none": [DICT, INT],
    "reduction": [("an unknown reduction", lambda env: "average"), NONE, INT],
    "param_attr": [INT, DICT, ("a list", lambda env: [1])],
    "initializer_or_none": [STRING, INT, ("a function", lambda env: np.zeros)],
    "layer": [STRING, NONE, INT, ("a function", lambda env: pylayer.tanh)],
    "layer_or_none": [STRING, INT, ("a function", lambda env: pylayer.tanh)],
    "parameter_or_none": [STRING, INT, ("a plain Tensor", lambda env: pylayer.ones([1]))],
    "shape_or_none": [STRING, DICT, LIST_WITH_STRING, LIST_WITH_FLOAT, NEGATIVE_SIZE, HUGE_SHAPE],
    "program": [STRING, NONE, INT],
    "program_or_none": [STRING, INT],
    "graph_tensors": [STRING, NONE, DICT, ("a list holding a string", lambda env: ["spam"])],
    "grads_or_none": [STRING, DICT, ("a list holding a string", lambda env: ["spam"])],
    "parameters": [STRING, INT, ("a list holding a string", lambda env: ["spam"])],
    "params_grads": [STRING, NONE, INT, ("a list holding a string", lambda env: ["spam"])],
    "state_dict": [STRING, NONE, INT, ("a list", lambda env: [1, 2])],
    "dict_or_none": [STRING, INT, ("a list", lambda env: [1, 2])],
    "index": [STRING, NONE, DICT, FLOAT_TENSOR, ("an index out of range", lambda env: [0, 9])],
    "sections": [STRING, NONE, DICT, ("zero parts", lambda env: 0),
                 ("parts that do not divide the axis", lambda env: 4),
                 ("sections that do not add up", lambda env: [1, 5])],
    "repeats": [STRING, NONE, DICT, ("a negative count", lambda env: [-1, 2]),
                ("a list holding a float", lambda env: [2.5]),
                ("counts too large to allocate", lambda env: [2 ** 40, 2 ** 40])],
    "int_list": [STRING, NONE, DICT, LIST_WITH_STRING, LIST_WITH_FLOAT],
    "count_or_none": [STRING, DICT, FLOAT, NEGATIVE],
    "perm": [STRING, NONE, DICT, ("a short permutation", lambda env: [0]),
             ("a repeated axis", lambda env: [0, 0]), ("an axis out of range", lambda env: [0, 5])],
    "variable": [STRING, NONE, INT, ("a Tensor", lambda env: pylayer.ones([2]))],
    # static.nn's inputs: a Tensor there is use in dynamic mode, a RuntimeError that
    # tests/static checks (test_nn.py, test_static_pylayer.py, test_py_func.py)
    "static_input": [STRING, NONE, INT],
    "variables_or_none": [STRING, INT, ("a list holding a string", lambda env: ["spam"])],
    "feed": [STRING, INT, ("a list", lambda env: [1, 2])],
    "batch_axis": [STRING, DICT, FLOAT, ("an axis other than 0", lambda env: 1)],
    "variables_list": [STRING, NONE, INT, ("a list holding a string", lambda env: ["spam"])],
    "savable": [("a layer", lambda env: nn.Linear(2, 2)), ("a function", lambda env: np.zeros),
                OBJECTS, COMPLEX, ("a list holding a layer", lambda env: [nn.Linear(2, 2)])],
    "path": [NONE, INT, DICT],
    "existing_path": [NONE, INT, DICT, ("a missing file", lambda env: "/nonexistent/m.pdparams")],
    "protocol": [STRING, ("protocol 1", lambda env: 1), ("protocol 9", lambda env: 9)],
    "device": [NONE, INT, ("a GPU", lambda env: "gpu"), ("a numbered GPU", lambda env: "gpu:0"),
               ("CUDA", lambda env: "cuda"), ("an unknown device", lambda env: "tpu")],
    "fetch_list": [STRING, INT, ("a list holding an int", lambda env: [3])],
}


class Arg:
    """An argument of a valid call: its name, a factory of its value, and its kind."""

    def __init__(self, name, make, kind, keyword=False):
        self.name = name
        self.make = make
        self.kind = kind
        self.keyword = keyword


def A(name, make, kind):
    """A positional argument."""
    return Arg(name, make, kind)


def K(name, make, kind):
    """A keyword argument."""
    return Arg(name, make, kind, keyword=True)


class Call:
    """A valid call and its extra hostile cases.

    ``extra`` holds ``(label, {arg name: factory}, blamed)``: the arguments to
    replace, and the argument name(s) the error must mention. ``static``
    runs the call in static mode, in fresh programs. ``setup(env)`` adds to
    ``env`` what the factories need; for methods it also sets ``env['self']``.
    """

    def __init__(self, *args, extra=(), static=False, setup=None, names=(), aliases=None):
        self.args = args
        self.extra = extra
        self.static = static
        self.setup = setup
        self.names = names              # other function names the message may use
        self.aliases = aliases or {}    # argument name -> other names the message may use


# ------------------------------------------------------------ valid values
def f23(env=None):
    return pylayer.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def f22(env=None):
    return pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])


def f3(env=None):
    return pylayer.to_tensor([1.0, 2.0, 3.0])


def i23(env=None):
    return pylayer.to_tensor([[1, 2, 3], [4, 5, 6]])


def b23(env=None):
    return pylayer.to_tensor([[True, False, True], [False, True, True]])


MISMATCH = ("shapes that do not broadcast", {"y": lambda env: pylayer.ones([4])}, ("x", "y"))


def _binary(kind="tensor", extra=(MISMATCH,)):
    return Call(A("x", f23, kind), A("y", f23, kind), extra=extra)


def _unary(kind="tensor"):
    return Call(A("x", f23, kind))


def _reduce(kind="tensor", axis_kind="axis"):
    return Call(A("x", f23, kind), K("axis", _value(1), axis_kind))


def _graph(env):
    x = pylayer.to_tensor([1.0, 2.0], stop_gradient=False)
    env.update(x=x, y=(x * x).sum())


def _saved_buffer():
    buffer = io.BytesIO()
    pylayer.save(nn.Linear(3, 2).state_dict(), buffer)
    buffer.seek(0)
    return buffer


def _layer(env):
    env["self"] = nn.Linear(3, 2)


def _optimizer(cls, **kwargs):
    def setup(env):
        layer = nn.Linear(3, 2)
        layer(f23()).sum().backward()
        env.update(layer=layer, self=cls(parameters=layer.parameters(), **kwargs))
    return setup


def _program(env):
    env["self"] = static.Program()


def _block(env):
    env["self"] = static.Program().global_block()


def _static_net(env):
    x = static.data("x", [2, 3], "float32")
    w = static.create_parameter([3, 1], "float32")
    env.update(x=x, w=w, y=pylayer.matmul(x, w), loss=pylayer.mean(pylayer.matmul(x, w)))


class _Identity(autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, dy):
        return dy


SGD_CALL = Call(K("learning_rate", _value(0.1), "non_negative"),
                K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                K("weight_decay", _value(None), "number_or_none"),
                K("grad_clip", _value(None), "callable_or_none"))

CALLS = {
    # ------------------------------------------------------- core ops
    pylayer.Tensor: Call(A("data", _value([[1.0, 2.0]]), "tensor_or_none"),
                         K("dtype", _value("float64"), "dtype")),
    pylayer.DType: Call(A("name", _value("float32"), "str"),
                        A("np_dtype", _value("float32"), "dtype_required")),
    pylayer.add: _binary(), pylayer.subtract: _binary(), pylayer.multiply: _binary(),
    pylayer.divide: _binary(), pylayer.neg: _unary(),
    pylayer.scale: Call(A("x", f23, "tensor"), K("scale", _value(2.0), "number"),
                        K("bias", _value(1.0), "number")),
    pylayer.tanh: _unary("math_tensor"), pylayer.exp: _unary("math_tensor"),
    pylayer.log: _unary("math_tensor"), pylayer.sigmoid: _unary("math_tensor"),
    pylayer.square: _unary(), pylayer.sqrt: _unary("math_tensor"),
    pylayer.matmul: Call(A("x", f23, "tensor"), A("y", lambda env: pylayer.ones([3, 2]), "tensor"),
                         extra=[("inner sizes that differ", {"y": lambda env: pylayer.ones([2, 2])},
                                 ("x", "y"))]),
    pylayer.sum: Call(A("x", f23, "tensor"), K("axis", _value(1), "axis"),
                      K("dtype", _value("float64"), "dtype")),
    pylayer.mean: _reduce("float_tensor"),
    pylayer.reshape: Call(A("x", f23, "tensor"), A("shape", _value([3, 2]), "target_shape"),
                          extra=[("a shape of another size", {"shape": _value([4, 4])},
                                  "shape")]),
    pylayer.broadcast_to: Call(A("x", f3, "tensor"), A("shape", _value([2, 3]), "target_shape"),
                               extra=[("a shape it cannot broadcast to",
                                       {"shape": _value([2, 4])}, "shape")]),
    pylayer.expand: Call(A("x", f3, "tensor"), A("shape", _value([2, 3]), "target_shape"),
                         extra=[("a shape it cannot broadcast to",
                                 {"shape": _value([2, 4])}, "shape")]),
    pylayer.cast: Call(A("x", f23, "tensor"), A("dtype", _value("float64"), "dtype_required")),
    pylayer.assign: Call(A("x", f23, "tensor"), K("output", lambda env: pylayer.zeros([2, 3]),
                                                   "out_tensor")),
    pylayer.transpose: Call(A("x", f23, "tensor"), A("perm", _value([1, 0]), "perm")),
    pylayer.grad: Call(A("outputs", lambda env: env["y"], "graph_tensors"),
                       A("inputs", lambda env: env["x"], "graph_tensors"),
                       K("grad_outputs", _value(None), "grads_or_none"), setup=_graph,
                       extra=[("a gradient of the wrong shape",
                               {"grad_outputs": lambda env: [pylayer.ones([3])]},
                               "grad_outputs")]),
    pylayer.no_grad: Call(), pylayer.enable_grad: Call(),
    pylayer.set_grad_enabled: Call(A("mode", _value(True), None)),
    pylayer.is_grad_enabled: Call(),
    pylayer.enable_static: Call(), pylayer.disable_static: Call(K("place", _value(None), None)),
    pylayer.in_dynamic_mode: Call(),
    autograd.jacobian: Call(A("ys", lambda env: env["x"] * env["x"], "graph_tensors"),
                            A("xs", lambda env: env["x"], "graph_tensors"),
                            K("batch_axis", _value(None), "batch_axis"), setup=_graph),
    autograd.hessian: Call(A("ys", lambda env: env["y"], "graph_tensors"),
                           A("xs", lambda env: env["x"], "graph_tensors"),
                           K("batch_axis", _value(None), "batch_axis"), setup=_graph),
    autograd.Jacobian: Call(A("ys", lambda env: env["x"] * env["x"], "graph_tensors"),
                            A("xs", lambda env: env["x"], "graph_tensors"), setup=_graph,
                            names=("jacobian",)),
    autograd.Hessian: Call(A("ys", lambda env: env["x"] * env["x"], "graph_tensors"),
                           A("xs", lambda env: env["x"], "graph_tensors"), setup=_graph,
                           names=("jacobian",)),
    # ------------------------------------------------- persistence, devices
    pylayer.save: Call(A("obj", f23, "savable"), A("path", lambda env: io.BytesIO(), "path"),
                       K("protocol", _value(4), "protocol")),
    pylayer.load: Call(A("path", lambda env: _saved_buffer(), "existing_path")),
    pylayer.set_device: Call(A("device", _value("cpu"), "device")),
    pylayer.get_device: Call(), pylayer.is_compiled_with_cuda: Call(),
    pylayer.device.device_count: Call(),
    pylayer.device.memory_stats: Call(), pylayer.device.empty_cache: Call(),
    pylayer.device.set_pool_limit: Call(A("limit_bytes", _value(256 * 2 ** 20), "count")),
    pylayer.is_tensor: Call(A("x", f23, None)),
    # -------------------------------------------------------- creation
    pylayer.to_tensor: Call(A("data", _value([[1.0, 2.0]]), "tensor"),
                            K("dtype", _value("float64"), "dtype")),
    pylayer.zeros: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("int64"), "dtype")),
    pylayer.ones: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("int64"), "dtype")),
    pylayer.empty: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("int64"), "dtype")),
    pylayer.full: Call(A("shape", _value([2, 3]), "shape"), A("fill_value", _value(7.0), "number"),
                       K("dtype", _value("float64"), "dtype")),
    pylayer.zeros_like: Call(A("x", f23, "tensor"), K("dtype", _value("int64"), "dtype")),
    pylayer.ones_like: Call(A("x", f23, "tensor"), K("dtype", _value("int64"), "dtype")),
    pylayer.empty_like: Call(A("x", f23, "tensor"), K("dtype", _value("int64"), "dtype")),
    pylayer.full_like: Call(A("x", f23, "tensor"), A("fill_value", _value(2.0), "number"),
                            K("dtype", _value("float64"), "dtype")),
    pylayer.arange: Call(A("start", _value(0), "number"), A("end", _value(5), "number_or_none"),
                         A("step", _value(1), "number"), K("dtype", _value("int64"), "dtype"),
                         extra=[("a zero step", {"step": _value(0)}, "step"),
                                ("a range too large to allocate",
                                 {"end": _value(2 ** 62)}, "end")]),
    pylayer.linspace: Call(A("start", _value(0.0), "number"), A("stop", _value(1.0), "number"),
                           A("num", _value(5), "size"), K("dtype", _value("float64"), "dtype")),
    pylayer.eye: Call(A("num_rows", _value(2), "size"), A("num_columns", _value(3), "size_or_none"),
                      K("dtype", _value("float64"), "dtype")),
    pylayer.rand: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("float64"), "dtype"),
                       extra=[("an integer dtype", {"dtype": _value("int64")}, "dtype")]),
    pylayer.randn: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("float64"), "dtype"),
                        extra=[("an integer dtype", {"dtype": _value("int64")}, "dtype")]),
    pylayer.randint: Call(A("low", _value(0), "int"), A("high", _value(5), "int"),
                          A("shape", _value([2, 3]), "shape"), K("dtype", _value("int32"), "dtype"),
                          extra=[("high not above low", {"high": _value(0)}, ("low", "high")),
                                 ("a float dtype", {"dtype": _value("float32")}, "dtype")]),
    pylayer.uniform: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("float64"), "dtype"),
                          K("min", _value(-2.0), "number"), K("max", _value(2.0), "number"),
                          K("seed", _value(3), "int"),
                          extra=[("min above max", {"min": _value(3.0)}, ("min", "max")),
                                 ("an integer dtype", {"dtype": _value("int64")}, "dtype")]),
    pylayer.normal: Call(K("mean", _value(1.0), "number"), K("std", _value(2.0), "non_negative"),
                         K("shape", _value([2, 3]), "shape_or_none")),
    pylayer.seed: Call(A("value", _value(7), "int")),
    pylayer.get_rng: Call(),
    # ------------------------------------------------------------ math
    pylayer.pow: _binary(), pylayer.log1p: _unary("math_tensor"),
    pylayer.rsqrt: _unary("math_tensor"), pylayer.abs: _unary(), pylayer.sign: _unary(),
    pylayer.sin: _unary("math_tensor"), pylayer.cos: _unary("math_tensor"),
    pylayer.tan: _unary("math_tensor"), pylayer.erf: _unary("math_tensor"),
    pylayer.maximum: _binary(), pylayer.minimum: _binary(),
    pylayer.clip: Call(A("x", f23, "tensor"), A("min", _value(1.5), "number_or_none"),
                       A("max", _value(4.5), "number_or_none"),
                       extra=[("min above max", {"min": _value(5.0)}, ("min", "max"))]),
    pylayer.floor: _unary(), pylayer.ceil: _unary(),
    pylayer.round: Call(A("x", f23, "tensor"), K("decimals", _value(1), "int")),
    pylayer.reciprocal: _unary("math_tensor"),
    pylayer.dot: Call(A("x", f3, "tensor"), A("y", f3, "tensor"),
                      extra=[("shapes that differ", {"y": lambda env: pylayer.ones([4])},
                              ("x", "y"))]),
    pylayer.max: _reduce(), pylayer.min: _reduce(),
    pylayer.prod: Call(A("x", f23, "tensor"), K("axis", _value(1), "axis"),
                       K("dtype", _value("float64"), "dtype")),
    pylayer.var: _reduce("float_tensor"), pylayer.std: _reduce("math_tensor"),
    pylayer.logsumexp: _reduce("math_tensor"),
    pylayer.cumsum: Call(A("x", f23, "tensor"), K("axis", _value(1), "int_axis_or_none"),
                         K("dtype", _value("float64"), "dtype")),
    pylayer.argmax: Call(A("x", f23, "tensor"), K("axis", _value(1), "int_axis_or_none"),
                         K("dtype", _value("int32"), "dtype_required"),
                         extra=[("a float dtype", {"dtype": _value("float32")}, "dtype")]),
    pylayer.argmin: Call(A("x", f23, "tensor"), K("axis", _value(1), "int_axis_or_none"),
                         K("dtype", _value("int32"), "dtype_required"),
                         extra=[("a float dtype", {"dtype": _value("float32")}, "dtype")]),
    pylayer.all: _reduce(), pylayer.any: _reduce(),
    pylayer.equal: _binary(), pylayer.not_equal: _binary(), pylayer.less_than: _binary(),
    pylayer.less_equal: _binary(), pylayer.greater_than: _binary(),
    pylayer.greater_equal: _binary(), pylayer.equal_all: _binary(extra=()),
    pylayer.allclose: Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                           K("rtol", _value(1e-3), "non_negative"),
                           K("atol", _value(1e-3), "non_negative"), extra=[MISMATCH]),
    pylayer.isclose: Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                          K("rtol", _value(1e-3), "non_negative"),
                          K("atol", _value(1e-3), "non_negative"), extra=[MISMATCH]),
    pylayer.where: Call(A("condition", b23, "tensor"), A("x", f23, "tensor_or_none"),
                        A("y", f23, "tensor_or_none"),
                        extra=[("only x given", {"y": _value(None)}, ("x", "y")),
                               ("shapes that do not broadcast",
                                {"y": lambda env: pylayer.ones([4])}, ("condition", "x", "y"))]),
    pylayer.floor_divide: _binary(), pylayer.remainder: _binary(),
    pylayer.logical_and: Call(A("x", b23, "tensor"), A("y", b23, "tensor"),
                              K("out", _value(None), "out_tensor"), extra=[MISMATCH]),
    pylayer.logical_or: Call(A("x", b23, "tensor"), A("y", b23, "tensor"),
                             K("out", _value(None), "out_tensor"), extra=[MISMATCH]),
    pylayer.logical_xor: Call(A("x", b23, "tensor"), A("y", b23, "tensor"),
                              K("out", _value(None), "out_tensor"), extra=[MISMATCH]),
    pylayer.logical_not: Call(A("x", b23, "tensor"), K("out", _value(None), "out_tensor")),
    pylayer.bitwise_and: Call(A("x", i23, "int_tensor"), A("y", i23, "int_tensor"),
                              K("out", _value(None), "out_tensor"), extra=[MISMATCH]),
    pylayer.bitwise_or: Call(A("x", i23, "int_tensor"), A("y", i23, "int_tensor"),
                             K("out", _value(None), "out_tensor"), extra=[MISMATCH]),
    pylayer.bitwise_xor: Call(A("x", i23, "int_tensor"), A("y", i23, "int_tensor"),
                              K("out", _value(None), "out_tensor"), extra=[MISMATCH]),
    pylayer.bitwise_not: Call(A("x", i23, "int_tensor"), K("out", _value(None), "out_tensor")),
    pylayer.isnan: _unary(), pylayer.isinf: _unary(), pylayer.isfinite: _unary(),
    # ---------------------------------------------------- manipulation
    pylayer.flatten: Call(A("x", f23, "tensor"), K("start_axis", _value(0), "int_axis"),
                          K("stop_axis", _value(1), "int_axis")),
    pylayer.squeeze: Call(A("x", lambda env: pylayer.ones([2, 1, 3]), "tensor"),
                          K("axis", _value(1), "axis")),
    pylayer.unsqueeze: Call(A("x", f23, "tensor"), A("axis", _value(1), "int_axis")),
    pylayer.concat: Call(A("x", lambda env: [f23(), f23()], "tensors"),
                         K("axis", _value(1), "int_axis"),
                         extra=[("shapes that differ off the axis",
                                 {"x": lambda env: [f23(), pylayer.ones([3, 3])]}, "x")]),
    pylayer.stack: Call(A("x", lambda env: [f23(), f23()], "tensors"),
                        K("axis", _value(1), "int_axis"),
                        extra=[("shapes that differ", {"x": lambda env: [f23(), f3()]}, "x")]),
    pylayer.unstack: Call(A("x", f23, "tensor"), K("axis", _value(1), "int_axis"),
                          K("num", _value(None), "size_or_none")),
    pylayer.split: Call(A("x", f23, "tensor"), A("num_or_sections", _value(3), "sections"),
                        K("axis", _value(1), "int_axis")),
    pylayer.chunk: Call(A("x", f23, "tensor"), A("chunks", _value(3), "sections"),
                        K("axis", _value(1), "int_axis")),
    pylayer.tile: Call(A("x", f23, "tensor"), A("repeat_times", _value([2, 1]), "repeats")),
    pylayer.gather: Call(A("x", f23, "tensor"), A("index", _value([1, 0]), "index"),
                         K("axis", _value(0), "int_axis_or_none")),
    pylayer.index_select: Call(A("x", f23, "tensor"), A("index", _value([1, 0]), "index"),
                               K("axis", _value(0), "int_axis")),
    pylayer.slice: Call(A("x", f23, "tensor"), A("axes", _value([1]), "int_list"),
                        A("starts", _value([0]), "int_list"), A("ends", _value([2]), "int_list"),
                        extra=[("an axis out of range", {"axes": _value([7])}, "axes"),
                               ("lists of different lengths", {"starts": _value([0, 1])},
                                ("axes", "starts", "ends"))]),
    pylayer.flip: Call(A("x", f23, "tensor"), A("axis", _value([1]), "axis")),
    pylayer.numel: Call(A("x", f23, "tensor")),
    pylayer.roll: Call(A("x", f23, "tensor"), A("shifts", _value(1), "int_list"),
                       K("axis", _value(1), "axis")),
    # ------------------------------------------------------ parameters
    pylayer.ParamAttr: Call(K("name", _value("w"), "str_or_none"),
                            K("initializer", lambda env: initializer.Constant(1.0),
                              "initializer_or_none"),
                            K("learning_rate", _value(0.5), "non_negative"),
                            K("regularizer", _value(None), "number_or_none")),
    pylayer.create_parameter: Call(A("shape", _value([2, 3]), "shape"),
                                   A("dtype", _value("float32"), "dtype"),
                                   K("attr", _value(None), "param_attr"),
                                   K("default_initializer", _value(None),
                                     "initializer_or_none")),
    inplace: Call(A("x", f23, "tensor"), A("op", _value(pylayer.exp), "callable")),
    # ---------------------------------------------------------- autograd
    autograd.backward: Call(A("tensors", lambda env: [env["y"]], "graph_tensors"),
                            K("grad_tensors", _value(None), "grads_or_none"), setup=_graph,
                            extra=[("a gradient of the wrong shape",
                                    {"grad_tensors": lambda env: [pylayer.ones([3])]},
                                    "grad_tensors")]),
    autograd.gradcheck: Call(A("func", _value(pylayer.tanh), "callable"),
                             A("inputs", lambda env: pylayer.to_tensor(
                                 [0.5], dtype="float64", stop_gradient=False), "graph_tensors"),
                             K("eps", _value(1e-6), "non_negative"),
                             K("atol", _value(1e-5), "non_negative"),
                             K("rtol", _value(1e-3), "non_negative")),
    autograd.gradgradcheck: Call(A("func", _value(pylayer.tanh), "callable"),
                                 A("inputs", lambda env: pylayer.to_tensor(
                                     [0.5], dtype="float64", stop_gradient=False),
                                   "graph_tensors"),
                                 K("grad_outputs", _value(None), "grads_or_none"),
                                 K("eps", _value(1e-6), "non_negative")),
    autograd.GradcheckError: Call(A("message", _value("text"), None)),
    autograd.PyLayer: Call(), autograd.PyLayerContext: Call(),
    autograd.once_differentiable: Call(A("backward", _value(lambda ctx, dy: dy), "callable")),
    autograd.saved_tensors_hooks: Call(A("pack_hook", _value(lambda t: t), "callable"),
                                       A("unpack_hook", _value(lambda t: t), "callable")),
    autograd.detect_anomaly: Call(),
    autograd.anomaly.is_anomaly_enabled: Call(),
    graph.save_on_disk: Call(K("directory", _value(None), "str_or_none")),
    graph.save_as: Call(A("dtype", _value("float16"), "dtype_required"),
                        extra=[("an integer dtype", {"dtype": _value("int32")}, "dtype")]),
    graph.disable_saved_tensors_hooks: Call(A("error_message", _value("no hooks here"), "str")),
    # -------------------------------------------------------------- demo
    demo.Swish: Call(),
    demo.make_spirals: Call(A("points_per_class", _value(5), "size"),
                            A("classes", _value(2), "size"), A("seed", _value(0), "int")),
    demo.MLP: Call(A("inputs", _value(2), "size"), A("hidden", _value(4), "size"),
                   A("classes", _value(3), "size")),
    demo.main: Call(K("epochs", _value(1), "count"), K("batch_size", _value(300), "size"),
                    K("out", lambda env: io.StringIO(), None),
                    extra=[("a zero batch size", {"batch_size": _value(0)}, "batch_size")]),
    # ---------------------------------------------------------------- nn
    nn.Layer: Call(K("name_scope", _value("block"), "str_or_none"),
                   K("dtype", _value("float64"), "dtype")),
    nn.Parameter: Call(A("data", _value([1.0, 2.0]), "tensor_or_none"),
                       K("dtype", _value("float64"), "dtype")),
    nn.Linear: Call(A("in_features", _value(3), "size"), A("out_features", _value(2), "size"),
                    K("weight_attr", _value(None), "param_attr"),
                    K("bias_attr", _value(None), "param_attr")),
    nn.Dropout: Call(K("p", _value(0.5), "probability"), K("axis", _value(None), "axis_setting"),
                     K("mode", _value("downscale_in_infer"), "reduction")),
    nn.Sequential: Call(A("layers", lambda env: nn.ReLU(), "layer")),
    nn.ReLU: Call(), nn.Sigmoid: Call(), nn.Tanh: Call(),
    nn.LeakyReLU: Call(K("negative_slope", _value(0.1), "number")),
    nn.GELU: Call(K("approximate", _value(True), None)),
    nn.Softmax: Call(K("axis", _value(0), "int")),
    nn.LogSoftmax: Call(K("axis", _value(0), "int")),
    nn.MSELoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.CrossEntropyLoss: Call(K("weight", _value(None), "tensor_or_none"),
                              K("ignore_index", _value(-100), "int"),
                              K("reduction", _value("sum"), "reduction"),
                              K("axis", _value(-1), "int"),
                              K("label_smoothing", _value(0.1), "probability")),
    nn.ClipGradByValue: Call(A("max", _value(1.0), "number"), K("min", _value(-1.0),
                                                               "number_or_none"),
                             extra=[("min above max", {"min": _value(2.0)}, ("min", "max"))]),
    nn.ClipGradByNorm: Call(A("clip_norm", _value(1.0), "non_negative")),
    nn.ClipGradByGlobalNorm: Call(A("clip_norm", _value(1.0), "non_negative"),
                                  K("group_name", _value("g"), "str")),
    F.relu: _unary(), F.gelu: Call(A("x", f23, "float_tensor")),
    F.leaky_relu: Call(A("x", f23, "float_tensor"), K("negative_slope", _value(0.1), "number")),
    F.softmax: Call(A("x", f23, "float_tensor"), K("axis", _value(0), "int_axis"),
                    K("dtype", _value("float64"), "dtype")),
    F.log_softmax: Call(A("x", f23, "float_tensor"), K("axis", _value(0), "int_axis"),
                        K("dtype", _value("float64"), "dtype")),
    F.dropout: Call(A("x", f23, "float_tensor"), K("p", _value(0.5), "probability"),
                    K("axis", _value(None), "axis"),
                    K("mode", _value("upscale_in_train"), "reduction")),
    F.mse_loss: Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                     K("reduction", _value("sum"), "reduction"),
                     extra=[("shapes that differ", {"label": lambda env: pylayer.ones([4])},
                             ("input", "label"))]),
    F.cross_entropy: Call(A("input", f23, "float_tensor"),
                          A("label", lambda env: pylayer.to_tensor([2, 0]), "int_tensor"),
                          K("weight", _value(None), "tensor_or_none"),
                          K("reduction", _value("sum"), "reduction"),
                          K("axis", _value(-1), "int_axis"),
                          K("label_smoothing", _value(0.1), "probability"),
                          extra=[("a label out of range",
                                  {"label": lambda env: pylayer.to_tensor([5, 0])}, "label"),
                                 ("a label of the wrong length",
                                  {"label": lambda env: pylayer.to_tensor([1, 0, 2])}, "label")]),
    F.linear: Call(A("x", f23, "float_tensor"),
                   A("weight", lambda env: pylayer.ones([3, 2]), "float_tensor"),
                   K("bias", lambda env: pylayer.ones([2]), "tensor_or_none"),
                   extra=[("a weight that does not fit x",
                           {"weight": lambda env: pylayer.ones([4, 2])}, ("x", "weight")),
                          ("a bias that does not fit",
                           {"bias": lambda env: pylayer.ones([3])}, "bias")]),
    initializer.Initializer: Call(),
    initializer.Constant: Call(K("value", _value(2.0), "number")),
    initializer.Normal: Call(K("mean", _value(0.0), "number"), K("std", _value(2.0),
                                                                 "non_negative")),
    initializer.Uniform: Call(K("low", _value(-2.0), "number"), K("high", _value(2.0), "number"),
                              extra=[("high below low", {"high": _value(-3.0)}, ("low", "high"))]),
    initializer.XavierUniform: Call(K("fan_in", _value(None), "non_negative_or_none"),
                                    K("fan_out", _value(None), "non_negative_or_none"),
                                    K("gain", _value(1.0), "non_negative")),
    # --------------------------------------------------------- optimizer
    optimizer.Optimizer: SGD_CALL,
    optimizer.SGD: SGD_CALL,
    optimizer.Adam: Call(K("learning_rate", _value(0.1), "non_negative"),
                         K("beta1", _value(0.9), "probability"),
                         K("beta2", _value(0.99), "probability"),
                         K("epsilon", _value(1e-8), "non_negative"),
                         K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                         K("weight_decay", _value(None), "number_or_none")),
    # ------------------------------------------------------------ static
    static.Program: Call(),
    static.Block: Call(A("program", lambda env: static.Program(), "program"),
                       K("idx", _value(0), "int")),
    # shape=None makes a shapeless Variable, as Block.create_var(shape=None) does (documented)
    static.Variable: Call(A("block", lambda env: static.Program().global_block(), "program"),
                          A("name", _value("v"), "str"),
                          A("shape", _value([2, 3]), "shape_or_none"),
                          A("dtype", _value("float32"), "dtype")),
    static.Parameter: Call(A("block", lambda env: static.Program().global_block(), "program"),
                           A("name", _value("w"), "str"), A("shape", _value([2, 3]), "shape"),
                           A("dtype", _value("float32"), "dtype")),
    static.Operator: Call(A("block", lambda env: static.Program().global_block(), "program"),
                          A("type", _value("tanh"), "str"), A("fn", _value(pylayer.tanh),
                                                              "callable"),
                          A("args", _value(()), None), A("kwargs", _value({}), None),
                          A("inputs", _value([]), None), A("outputs", _value([]), None),
                          A("out_index", _value([]), None),
                          A("differentiable", _value([]), None)),
    static.program_guard: Call(A("main_program", lambda env: static.Program(), "program"),
                               K("startup_program", lambda env: static.Program(),
                                 "program_or_none")),
    static.default_main_program: Call(), static.default_startup_program: Call(),
    static.data: Call(A("name", _value("feed_x"), "str"), A("shape", _value([-1, 3]),
                                                            "target_shape"),
                      K("dtype", _value("float32"), "dtype"), static=True),
    static.create_parameter: Call(A("shape", _value([2, 3]), "shape"),
                                  A("dtype", _value("float32"), "dtype"),
                                  K("attr", _value(None), "param_attr"), static=True),
    static.Executor: Call(K("place", lambda env: static.CPUPlace(), None)),
    static.CPUPlace: Call(), static.Scope: Call(), static.global_scope: Call(),
    static.scope_guard: Call(A("scope", lambda env: static.Scope(), "program")),
    static.gradients: Call(A("targets", lambda env: env["loss"], "variable"),
                           A("inputs", lambda env: env["w"], "variable"), static=True,
                           setup=_static_net),
    static.append_backward: Call(A("loss", lambda env: env["loss"], "variable"),
                                 K("parameter_list", _value(None), "variables_or_none"),
                                 static=True, setup=_static_net),
    static.py_func: Call(A("func", _value(np.tanh), "callable"),
                         A("x", lambda env: env["x"], "variables_or_none"),
                         A("out", lambda env: static.default_main_program().current_block()
                           .create_var(dtype="float32", shape=[2, 3]), "variables_or_none"),
                         K("backward_func", _value(None), "callable_or_none"),
                         static=True, setup=_static_net),
    static.nn.static_pylayer: Call(A("forward_fn", _value(pylayer.exp), "callable"),
                                   A("inputs", lambda env: [env["x"]], "variables_list"),
                                   K("backward_fn", _value(None), "callable_or_none"),
                                   static=True, setup=_static_net),
    static.nn.fc: Call(A("x", lambda env: env["x"], "static_input"), A("size", _value(4), "size"),
                       K("activation", _value("relu"), "str_or_none"), static=True,
                       setup=_static_net),
}
CALLS[nn.functional.sigmoid] = CALLS[pylayer.sigmoid]
CALLS[nn.functional.tanh] = CALLS[pylayer.tanh]

# ------------------------------------------------------------------ methods
INPUT_IS_X = {"input": ("x",)}  # a layer's forward hands its input to a functional's x

METHODS = {
    (pylayer.Tensor, "item"): Call(A("index", _value(1), "int"), setup=lambda env: env.update(
        self=f23())),
    (pylayer.Tensor, "astype"): Call(A("dtype", _value("float64"), "dtype_required"),
                                     setup=lambda env: env.update(self=f23())),
    (pylayer.Tensor, "backward"): Call(A("grad_tensor", _value(None), "tensor_or_none"),
                                       setup=lambda env: (_graph(env),
                                                          env.update(self=env["x"] * 2)),
                                       extra=[("a gradient of the wrong shape",
                                               {"grad_tensor": lambda env: pylayer.ones([3])},
                                               "grad_tensor")]),
    (pylayer.Tensor, "register_hook"): Call(A("hook", _value(lambda g: g), "callable"),
                                            setup=lambda env: (_graph(env),
                                                               env.update(self=env["x"]))),
    (nn.Layer, "add_sublayer"): Call(A("name", _value("inner"), "str"),
                                     A("sublayer", lambda env: nn.ReLU(), "layer_or_none"),
                                     setup=_layer),
    (nn.Layer, "add_parameter"): Call(A("name", _value("scale"), "str"),
                                      A("parameter", lambda env: pylayer.create_parameter(
                                          [1], "float32"), "parameter_or_none"),
                                      setup=_layer),
    (nn.Layer, "register_buffer"): Call(A("name", _value("running"), "str"),
                                        A("tensor", f3, "tensor_or_none"), setup=_layer),
    (nn.Layer, "create_parameter"): Call(A("shape", _value([2, 3]), "shape"),
                                         K("attr", _value(None), "param_attr"),
                                         K("dtype", _value("float64"), "dtype"), setup=_layer),
    (nn.Layer, "set_state_dict"): Call(A("state_dict", lambda env: env["self"].state_dict(),
                                         "state_dict"), setup=_layer),
    (nn.Layer, "set_dict"): Call(A("state_dict", lambda env: env["self"].state_dict(),
                                   "state_dict"), setup=_layer, names=("set_state_dict",)),
    (nn.Layer, "load_dict"): Call(A("state_dict", lambda env: env["self"].state_dict(),
                                    "state_dict"), setup=_layer, names=("set_state_dict",)),
    (nn.Layer, "named_sublayers"): Call(K("prefix", _value("p"), "str"), setup=_layer),
    (nn.Layer, "named_parameters"): Call(K("prefix", _value("p"), "str"), setup=_layer),
    (nn.Layer, "named_buffers"): Call(K("prefix", _value("p"), "str"), setup=_layer),
    (nn.Layer, "state_dict"): Call(K("destination", _value(None), "dict_or_none"),
                                   K("structured_name_prefix", _value("p."), "str"),
                                   setup=_layer),
    (nn.Linear, "forward"): Call(A("input", f23, "float_tensor"), setup=_layer,
                                 names=("linear",), aliases=INPUT_IS_X,
                                 extra=[("an input of the wrong width",
                                         {"input": lambda env: pylayer.ones([2, 4])}, "input")]),
    (nn.Dropout, "forward"): Call(A("input", f23, "float_tensor"), names=("dropout",),
                                  aliases=INPUT_IS_X,
                                  setup=lambda env: env.update(self=nn.Dropout(0.5))),
    (nn.Sequential, "forward"): Call(A("input", f23, "float_tensor"), names=("linear",),
                                     aliases=INPUT_IS_X,
                                     setup=lambda env: env.update(self=nn.Sequential(
                                         nn.Linear(3, 2), nn.Tanh()))),
    (nn.ReLU, "forward"): Call(A("x", f23, "tensor"), names=("relu",), setup=lambda env: env.update(
        self=nn.ReLU())),
    (nn.LeakyReLU, "forward"): Call(A("x", f23, "float_tensor"), names=("leaky_relu",), setup=lambda env: env.update(
        self=nn.LeakyReLU())),
    (nn.GELU, "forward"): Call(A("x", f23, "float_tensor"), names=("gelu",), setup=lambda env: env.update(
        self=nn.GELU())),
    (nn.Sigmoid, "forward"): Call(A("x", f23, "math_tensor"), names=("sigmoid",), setup=lambda env: env.update(
        self=nn.Sigmoid())),
    (nn.Tanh, "forward"): Call(A("x", f23, "math_tensor"), names=("tanh",), setup=lambda env: env.update(
        self=nn.Tanh())),
    (nn.Softmax, "forward"): Call(A("x", f23, "float_tensor"), names=("softmax",), setup=lambda env: env.update(
        self=nn.Softmax())),
    (nn.LogSoftmax, "forward"): Call(A("x", f23, "float_tensor"), names=("log_softmax",),
                                     setup=lambda env: env.update(
        self=nn.LogSoftmax())),
    (nn.MSELoss, "forward"): Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                                  names=("mse_loss",),
                                  setup=lambda env: env.update(self=nn.MSELoss())),
    (nn.CrossEntropyLoss, "forward"): Call(
        A("input", f23, "float_tensor"), A("label", lambda env: pylayer.to_tensor([2, 0]),
                                           "int_tensor"), names=("cross_entropy",),
        setup=lambda env: env.update(self=nn.CrossEntropyLoss())),
    (demo.MLP, "forward"): Call(A("x", lambda env: pylayer.ones([4, 2]), "float_tensor"),
                                names=("linear",),
                                setup=lambda env: env.update(self=demo.MLP(2, 4, 3))),
    (optimizer.Optimizer, "set_lr"): Call(A("value", _value(0.5), "non_negative"),
                                          setup=_optimizer(optimizer.SGD)),
    (optimizer.Optimizer, "minimize"): Call(
        A("loss", lambda env: env["layer"](f23()).sum(), "tensor"),
        setup=_optimizer(optimizer.SGD)),
    (optimizer.Optimizer, "set_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"),
        setup=_optimizer(optimizer.Adam)),
    (static.Program, "block"): Call(A("index", _value(0), "int"), setup=_program),
    (static.Program, "clone"): Call(K("for_test", _value(True), None), setup=_program),
    (static.Block, "var"): Call(A("name", _value("v"), "str"), setup=lambda env: (
        _block(env), env["self"].create_var(name="v", shape=[1], dtype="float32"))),
    (static.Block, "has_var"): Call(A("name", _value("v"), "str"), setup=_block),
    (static.Block, "create_var"): Call(K("name", _value("v2"), "str_or_none"),
                                       K("dtype", _value("float32"), "dtype"),
                                       K("shape", _value([2, 3]), "shape_or_none"),
                                       setup=_block),
    (static.Block, "create_parameter"): Call(
        A("name", _value("w9"), "str"), A("shape", _value([2, 3]), "shape"),
        A("dtype", _value("float32"), "dtype"),
        A("initializer", lambda env: initializer.Constant(1.0), "initializer_or_none"),
        setup=_block),
    (static.Variable, "astype"): Call(A("dtype", _value("float64"), "dtype_required"),
                                      static=True, setup=lambda env: (
                                          _static_net(env), env.update(self=env["x"]))),
    (static.Executor, "run"): Call(
        A("program", lambda env: env["main"], "program_or_none"),
        K("feed", lambda env: {"x": np.ones([2, 3], "float32")}, "feed"),
        K("fetch_list", lambda env: [env["y"]], "fetch_list"),
        setup=lambda env: _executor(env),
        extra=[("a feed of the wrong shape", {"feed": lambda env: {"x": np.ones([4], "float32")}},
                "feed"),
               ("a feed for an unknown variable",
                {"feed": lambda env: {"nope": np.ones([2, 3], "float32")}}, "feed")]),
    (static.Scope, "find_var"): Call(A("name", _value("v"), "str"),
                                     setup=lambda env: env.update(self=static.Scope())),
    (static.Scope, "var"): Call(A("name", _value("v"), "str"),
                                setup=lambda env: env.update(self=static.Scope())),
    (initializer.Constant, "generate"): Call(A("shape", _value([2, 3]), "shape"),
                                             A("dtype", _value("float32"), "dtype_required"),
                                             setup=lambda env: env.update(
                                                 self=initializer.Constant(1.0))),
    (initializer.Normal, "generate"): Call(A("shape", _value([2, 3]), "shape"),
                                           A("dtype", _value("float32"), "dtype_required"),
                                           setup=lambda env: env.update(
                                               self=initializer.Normal())),
    (initializer.Uniform, "generate"): Call(A("shape", _value([2, 3]), "shape"),
                                            A("dtype", _value("float32"), "dtype_required"),
                                            setup=lambda env: env.update(
                                                self=initializer.Uniform())),
    (initializer.XavierUniform, "generate"): Call(A("shape", _value([2, 3]), "shape"),
                                                  A("dtype", _value("float32"), "dtype_required"),
                                                  setup=lambda env: env.update(
                                                      self=initializer.XavierUniform())),
}


def _executor(env):
    main, startup = static.Program(), static.Program()
    pylayer.enable_static()
    try:
        with static.program_guard(main, startup):
            _static_net(env)
    finally:
        pylayer.disable_static()
    executor = static.Executor()
    executor.run(startup)
    env.update(self=executor, main=main)


EXEMPT = {
    (pylayer.Tensor, "cuda"): "always refuses: pylayer runs on the CPU only",
    (pylayer.Tensor, "clear_grad"): "a boolean flag",
    (pylayer.Tensor, "clear_gradient"): "a boolean flag",
    (autograd.PyLayer, "forward"): "written by the user; the base one raises NotImplementedError",
    (autograd.PyLayer, "backward"): "written by the user; the base one raises NotImplementedError",
    (autograd.PyLayer, "apply"): "passes its arguments to the user's forward",
    (autograd.PyLayerContext, "save_for_backward"): "keeps any values; only Tensors are packed",
    (autograd.PyLayerContext, "mark_not_inplace"): "compares identities with the inputs",
    (autograd.PyLayerContext, "mark_non_differentiable"): "compares identities with the outputs",
    (autograd.PyLayerContext, "set_materialize_grads"): "a boolean flag",
    (autograd.PyLayerContext, "set_grad_in_dtype_consistent"): "a boolean flag",
    (demo.Swish, "forward"): "a PyLayer forward: its ops check their arguments",
    (demo.Swish, "backward"): "a PyLayer backward, called by the engine",
    (nn.Layer, "forward"): "the base one raises NotImplementedError",
    (nn.Layer, "sublayers"): "a boolean flag",
    (nn.Layer, "parameters"): "a boolean flag",
    (nn.Layer, "buffers"): "a boolean flag",
    (nn.Layer, "clear_gradients"): "a boolean flag",
    (initializer.Initializer, "generate"): "the base one raises NotImplementedError",
    (optimizer.Optimizer, "clear_grad"): "a boolean flag",
    (optimizer.Optimizer, "clear_gradients"): "a boolean flag",
    (static.Program, "to_string"): "boolean flags",
    (static.Block, "append_op"): "plumbing called by record_op with checked values",
    (static.Variable, "numpy"): "always refuses: a Variable has no value while building",
    (static.Variable, "item"): "always refuses: a Variable has no value while building",
    (static.Variable, "tolist"): "always refuses: a Variable has no value while building",
}


# ------------------------------------------- issue 13, part 5: ops, nn, lr
def _chw(env=None):
    return pylayer.ones([1, 2, 4, 4])


def _ncl(env=None):
    return pylayer.ones([1, 2, 5])


def _scheduler(env):
    env["self"] = optimizer.lr.StepDecay(0.5, step_size=2)


def _made(factory):
    return lambda env: env.update(self=factory())


CALLS.update({
    pylayer.addmm: Call(A("input", lambda env: pylayer.ones([2]), "float_tensor"),
                        A("x", f23, "float_tensor"),
                        A("y", lambda env: pylayer.ones([3, 2]), "float_tensor"),
                        K("beta", _value(0.5), "number"), K("alpha", _value(2.0), "number"),
                        extra=[("an input that does not broadcast",
                                {"input": lambda env: pylayer.ones([3])}, "input")]),
    pylayer.bmm: Call(A("x", lambda env: pylayer.ones([2, 2, 3]), "float_tensor"),
                      A("y", lambda env: pylayer.ones([2, 3, 2]), "float_tensor"),
                      extra=[("batches that differ", {"y": lambda env: pylayer.ones([3, 3, 2])},
                              ("x", "y"))]),
    pylayer.einsum: Call(A("equation", _value("ij->ji"), "str"),
                         A("operands", f23, "float_tensor"),
                         extra=[("an equation that does not fit",
                                 {"equation": _value("ijk->k")}, "equation")]),
    pylayer.argsort: Call(A("x", f23, "tensor"), K("axis", _value(0), "int_axis")),
    pylayer.sort: Call(A("x", f23, "tensor"), K("axis", _value(0), "int_axis")),
    pylayer.topk: Call(A("x", f23, "tensor"), A("k", _value(2), "size"),
                       K("axis", _value(1), "int_axis_or_none")),
    pylayer.bernoulli: Call(A("x", lambda env: pylayer.full([2, 3], 0.5), "float_tensor"),
                            K("p", _value(None), "number_or_none"),
                            extra=[("a probability above 1", {"p": _value(1.5)}, "p")]),
    pylayer.take_along_axis: Call(A("arr", f23, "tensor"),
                                  A("indices", _value([[0], [1]]), "index"),
                                  A("axis", _value(1), "int_axis")),
    pylayer.put_along_axis: Call(A("arr", f23, "tensor"),
                                 A("indices", _value([[0], [1]]), "index"),
                                 A("values", _value(1.0), "number"),
                                 A("axis", _value(1), "int_axis"),
                                 K("reduce", _value("add"), "reduction")),
    pylayer.expand_as: Call(A("x", f3, "tensor"), A("y", f23, "tensor"),
                            extra=[("a shape that does not broadcast",
                                    {"y": lambda env: pylayer.ones([3, 2])}, ("x", "y"))]),
    pylayer.masked_fill: Call(A("x", f23, "tensor"), A("mask", b23, "tensor"),
                              A("value", _value(0.0), "number"),
                              extra=[("a mask that does not broadcast",
                                      {"mask": lambda env: pylayer.to_tensor([True, False])},
                                      "mask")]),
    nn.Conv1D: Call(A("in_channels", _value(2), "size"), A("out_channels", _value(2), "size"),
                    A("kernel_size", _value(3), "size"), K("stride", _value(1), "count"),
                    K("padding_mode", _value("zeros"), "reduction")),
    nn.Conv2D: Call(A("in_channels", _value(2), "size"), A("out_channels", _value(2), "size"),
                    A("kernel_size", _value(3), "size"), K("groups", _value(2), "size"),
                    K("data_format", _value("NCHW"), "reduction")),
    nn.LayerNorm: Call(A("normalized_shape", _value(3), "size"),
                       K("epsilon", _value(1e-5), "non_negative")),
    nn.BatchNorm1D: Call(A("num_features", _value(3), "size"),
                         K("momentum", _value(0.9), "probability")),
    nn.BatchNorm2D: Call(A("num_features", _value(3), "size"),
                         K("epsilon", _value(1e-5), "non_negative")),
    nn.GroupNorm: Call(A("num_groups", _value(2), "size"), A("num_channels", _value(4), "size"),
                       extra=[("channels that do not divide into groups",
                               {"num_channels": _value(3)}, ("num_groups", "num_channels"))]),
    nn.Embedding: Call(A("num_embeddings", _value(4), "size"),
                       A("embedding_dim", _value(3), "size"),
                       K("padding_idx", _value(0), "int_axis_or_none"),
                       extra=[("a padding index out of range", {"padding_idx": _value(9)},
                               "padding_idx")]),
    nn.Hardtanh: Call(K("min", _value(-2.0), "number"), K("max", _value(2.0), "number")),
    nn.Identity: Call(), nn.HookRemoveHelper: Call(A("hooks", lambda env: {}, None)),
    nn.LayerList: Call(A("sublayers", lambda env: [nn.ReLU()], "parameters")),
    nn.PixelShuffle: Call(A("upscale_factor", _value(2), "size"),
                          K("data_format", _value("NCHW"), "reduction")),
    nn.AdaptiveAvgPool1D: Call(A("output_size", _value(2), "size")),
    nn.AdaptiveAvgPool2D: Call(A("output_size", _value(2), "size"),
                               K("data_format", _value("NCHW"), "reduction")),
    F.hardtanh: Call(A("x", f23, "float_tensor"), K("min", _value(-2.0), "number"),
                     K("max", _value(2.0), "number")),
    F.conv1d: Call(A("x", _ncl, "float_tensor"),
                   A("weight", lambda env: pylayer.ones([3, 2, 2]), "float_tensor"),
                   K("stride", _value(1), "count"), K("groups", _value(1), "size")),
    F.conv2d: Call(A("x", _chw, "float_tensor"),
                   A("weight", lambda env: pylayer.ones([3, 2, 2, 2]), "float_tensor"),
                   K("bias", lambda env: pylayer.ones([3]), "tensor_or_none"),
                   K("dilation", _value(1), "size"),
                   K("data_format", _value("NCHW"), "reduction"),
                   extra=[("a bias of the wrong size", {"bias": lambda env: pylayer.ones([2])},
                           "bias")]),
    F.pad: Call(A("x", _chw, "tensor"), A("pad", _value([1, 1, 0, 0]), "int_list"),
                K("mode", _value("reflect"), "reduction"), K("value", _value(0.0), "number")),
    F.interpolate: Call(A("x", _chw, "float_tensor"), K("size", _value([3, 5]), "int_list"),
                        K("mode", _value("bilinear"), "reduction")),
    F.pixel_shuffle: Call(A("x", lambda env: pylayer.ones([1, 4, 2, 2]), "tensor"),
                          A("upscale_factor", _value(2), "size")),
    F.one_hot: Call(A("x", lambda env: pylayer.to_tensor([0, 2]), "int_tensor"),
                    A("num_classes", _value(3), "size")),
    F.embedding: Call(A("x", lambda env: pylayer.to_tensor([0, 2]), "int_tensor"),
                      A("weight", lambda env: pylayer.ones([3, 2]), "float_tensor"),
                      K("padding_idx", _value(None), "int_axis_or_none")),
    F.layer_norm: Call(A("x", f23, "float_tensor"), A("normalized_shape", _value(3), "int_list"),
                       K("epsilon", _value(1e-5), "non_negative")),
    F.batch_norm: Call(A("x", f23, "float_tensor"),
                       A("running_mean", lambda env: pylayer.zeros([3]), "tensor"),
                       A("running_var", lambda env: pylayer.ones([3]), "tensor"),
                       K("momentum", _value(0.9), "probability"),
                       K("data_format", _value("NC"), "reduction")),
    F.group_norm: Call(A("x", lambda env: pylayer.ones([2, 4, 3]), "float_tensor"),
                       A("num_groups", _value(2), "size"),
                       K("data_format", _value("NCL"), "reduction")),
    F.adaptive_avg_pool1d: Call(A("x", _ncl, "float_tensor"), A("output_size", _value(2),
                                                                  "size")),
    F.adaptive_avg_pool2d: Call(A("x", _chw, "float_tensor"),
                                A("output_size", _value(2), "size"),
                                K("data_format", _value("NCHW"), "reduction")),
    optimizer.lr.LRScheduler: Call(K("learning_rate", _value(0.1), "non_negative"),
                                   K("last_epoch", _value(-1), "int")),
    optimizer.lr.StepDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                 A("step_size", _value(2), "count"),
                                 K("gamma", _value(0.5), "number")),
    optimizer.lr.CosineAnnealingDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                            A("T_max", _value(4), "count"),
                                            K("eta_min", _value(0.0), "number")),
    optimizer.lr.LinearWarmup: Call(A("learning_rate", _value(0.5), "non_negative"),
                                    A("warmup_steps", _value(2), "count"),
                                    A("start_lr", _value(0.0), "number"),
                                    A("end_lr", _value(0.5), "number")),
    optimizer.lr.LambdaDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                   A("lr_lambda", _value(lambda epoch: 0.5), "callable")),
})


def _forward(layer_factory, x, kind="float_tensor", names=(), arg="input"):
    return Call(A(arg, x, kind), names=names, aliases={"input": ("x",)},
                setup=_made(layer_factory))


METHODS.update({
    (nn.Conv1D, "forward"): _forward(lambda: nn.Conv1D(2, 2, 3), _ncl, names=("conv1d",),
                                     arg="x"),
    (nn.Conv2D, "forward"): _forward(lambda: nn.Conv2D(2, 2, 3), _chw, names=("conv2d",),
                                     arg="x"),
    (nn.LayerNorm, "forward"): _forward(lambda: nn.LayerNorm(3), f23, names=("layer_norm",)),
    (nn.GroupNorm, "forward"): _forward(lambda: nn.GroupNorm(2, 2), _chw,
                                        names=("group_norm",)),
    (nn.Embedding, "forward"): _forward(lambda: nn.Embedding(7, 2),
                                        lambda env: pylayer.to_tensor([0, 6]), "int_tensor",
                                        names=("embedding",), arg="x"),
    (nn.Hardtanh, "forward"): _forward(nn.Hardtanh, f23, names=("hardtanh",), arg="x"),
    (nn.Identity, "forward"): Call(A("input", f23, None), setup=_made(nn.Identity)),
    (nn.PixelShuffle, "forward"): _forward(lambda: nn.PixelShuffle(2),
                                           lambda env: pylayer.ones([1, 4, 2, 2]), "tensor",
                                           names=("pixel_shuffle",), arg="x"),
    (nn.AdaptiveAvgPool1D, "forward"): _forward(lambda: nn.AdaptiveAvgPool1D(2), _ncl,
                                                names=("adaptive_avg_pool1d",)),
    (nn.AdaptiveAvgPool2D, "forward"): _forward(lambda: nn.AdaptiveAvgPool2D(2), _chw,
                                                names=("adaptive_avg_pool2d",)),
    (nn.Layer, "register_forward_pre_hook"): Call(
        A("hook", _value(lambda layer, inputs: None), "callable"), setup=_layer),
    (nn.Layer, "register_forward_post_hook"): Call(
        A("hook", _value(lambda layer, inputs, output: None), "callable"), setup=_layer),
    (nn.LayerList, "append"): Call(A("sublayer", lambda env: nn.ReLU(), "layer"),
                                   setup=_made(nn.LayerList), names=("LayerList",)),
    (nn.LayerList, "insert"): Call(A("index", _value(0), "int"),
                                   A("sublayer", lambda env: nn.ReLU(), "layer"),
                                   setup=_made(nn.LayerList), names=("LayerList",)),
    (nn.LayerList, "extend"): Call(A("sublayers", lambda env: [nn.ReLU()], "parameters"),
                                   setup=_made(nn.LayerList), names=("LayerList",)),
    (optimizer.lr.LRScheduler, "step"): Call(K("epoch", _value(3), "count_or_none"),
                                             setup=_scheduler),
    (optimizer.lr.LRScheduler, "set_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"), setup=_scheduler),
    (optimizer.lr.LinearWarmup, "set_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"),
        setup=_made(lambda: optimizer.lr.LinearWarmup(0.5, 2, 0.0, 0.5))),
})
