"""The building blocks of the hostile-input tables: the hostile values of each kind
(``HOSTILE``), ``Call``/``A``/``K`` to describe a valid call and the kind of each
argument, and factories of valid arguments and set-ups.

The op database ``tests/ops/opinfo.py`` (the call of each op), ``_hostile_calls.py``
(the other public functions and classes) and ``_hostile_methods.py`` (public methods)
use them; ``test_hostile_input.py`` walks both tables.
"""
import io

import numpy as np

import pylayer
from pylayer import autograd, nn, optimizer, static


# ------------------------------------------------------------ hostile values
def _value(v):
    return lambda env: v


STRING = ("a string", lambda env: "spam")
NONE = ("None", lambda env: None)
DICT = ("a dict", lambda env: {"a": 1})
RAGGED = ("a ragged nested list", lambda env: [[1.0, 2.0], [3.0]])
OBJECTS = ("an object array", lambda env: np.array([object(), object()], dtype=object))
COMPLEX = ("a complex array", lambda env: np.array([1 + 2j, 3j]))
DATES = ("an array of dates", lambda env: np.array(["2024-01-01", "2024-02-01"], dtype="M8[D]"))
COMPLEX_TENSOR = ("a complex tensor", lambda env: pylayer.to_tensor([[1 + 2j, 3j, 1], [2, 1j, 0]]))
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
    "tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, DATES],
    "tensor_or_none": [STRING, DICT, RAGGED, OBJECTS, DATES],
    # ops that make no sense for complex numbers (orderings, rounding, extremes)
    "real_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, DATES, COMPLEX_TENSOR],
    "float_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, DATES, COMPLEX_TENSOR, INT_TENSOR,
                     BOOL_TENSOR],
    # floating-point or complex (mean, matrix products)
    "inexact_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, DATES, INT_TENSOR, BOOL_TENSOR],
    "complex_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, DATES, FLOAT_TENSOR, INT_TENSOR],
    # math that computes integer tensors in float32 as Paddle does (complex ones as they are)
    "math_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, DATES, BOOL_TENSOR],
    # the same for math Paddle does not define for complex numbers (rsqrt, erf, std...)
    "real_math_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, DATES, BOOL_TENSOR, COMPLEX_TENSOR],
    "int_tensor": [STRING, NONE, DICT, RAGGED, OBJECTS, FLOAT_TENSOR],
    "tensor_only": [STRING, NONE, DICT, FLOAT, ("a numpy array", lambda env: np.ones(2))],
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
    "positive_int": [STRING, NONE, DICT, FLOAT, NEGATIVE, ("zero", lambda env: 0)],
    "ndarray": [STRING, NONE, DICT, ("a list", lambda env: [1.0, 2.0]), FLOAT_TENSOR],
    "dlpack": [STRING, NONE, DICT, INT],
    "perm": [STRING, NONE, DICT, ("a short permutation", lambda env: [0]),
             ("a repeated axis", lambda env: [0, 0]), ("an axis out of range", lambda env: [0, 5])],
    # (a Tensor made without an op: in static mode a creation op records, as in Paddle)
    "variable": [STRING, NONE, INT, ("a Tensor", lambda env: pylayer.Tensor(np.ones(2)))],
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
    # pylayer.extend: what a contributor hands to the op machinery and the checks
    "op": [STRING, NONE, INT, ("a function", lambda env: pylayer.tanh)],
    "names": [NONE, INT, DICT, ("a tuple holding an int", lambda env: (1,)),
              ("a name that is no identifier", lambda env: "two words")],
    "names_or_none": [INT, DICT, ("a tuple holding an int", lambda env: (1,))],
    "rules": [STRING, NONE, INT, ("a tuple holding a string", lambda env: ("spam",)),
              ("a rule without a gradient parameter", lambda env: (lambda: None,))],
    "result_array": [STRING, NONE, DICT, OBJECTS, ("a list", lambda env: [1.0, 2.0]),
                     ("a string array", lambda env: np.array(["a", "b"])),
                     DATES],
    "result_arrays": [STRING, NONE, INT, ("an empty list", lambda env: []),
                      ("a list holding a string", lambda env: ["spam"])],
    "input_tuple": [STRING, NONE, ("a list", lambda env: [pylayer.ones([3])]),
                    ("one input too many", lambda env: (pylayer.ones([3]), pylayer.ones([3])))],
    "attr_tuple": [STRING, NONE, ("an attribute too many", lambda env: (1,))],
    "output_indices": [STRING, NONE, ("an index past the outputs", lambda env: (5,)),
                       ("a float index", lambda env: (0.5,))],
    "rank": [STRING, NONE, FLOAT, NEGATIVE],
    "bound": [STRING, DICT],
    "choices": [NONE, INT, ("a tuple holding an int", lambda env: (1,))],
    "kinds": [NONE, INT, DICT],
    "element_count": [STRING, NONE, FLOAT, NEGATIVE],
    "shape_tuple": [STRING, NONE, ("a list holding a string", lambda env: ["3"]),
                    ("a size it did not have", lambda env: (4,)),
                    ("a shape with -1", lambda env: (-1,))],
    "settings": [STRING, NONE, ("a list", lambda env: [1, 2])],
    "with_attributes": [STRING, NONE, INT],
    "dimensions": [STRING, NONE, DICT, FLOAT, NEGATIVE, HUGE, ("four dimensions", lambda env: 4)],
    "sizes": [STRING, NONE, DICT, LIST_WITH_STRING, LIST_WITH_FLOAT, NEGATIVE_SIZE,
              ("a size too many", lambda env: [2, 2, 2])],
    "array": [STRING, NONE, DICT, OBJECTS, DATES, ("a list", lambda env: [1.0, 2.0, 3.0]),
              ("a Tensor", lambda env: pylayer.ones([3]))],
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


def c23(env=None):
    return pylayer.to_tensor([[1 + 2j, 3j, 1], [2, 1j, -1 - 1j]])


def i23(env=None):
    return pylayer.to_tensor([[1, 2, 3], [4, 5, 6]])


def b23(env=None):
    return pylayer.to_tensor([[True, False, True], [False, True, True]])


MISMATCH = ("shapes that do not broadcast", {"y": lambda env: pylayer.ones([4])}, ("x", "y"))


def binary_call(kind="tensor", extra=(MISMATCH,)):
    return Call(A("x", f23, kind), A("y", f23, kind), extra=extra)


def unary_call(kind="tensor"):
    return Call(A("x", f23, kind))


def reduce_call(kind="tensor", axis_kind="axis"):
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


def _chw(env=None):
    return pylayer.ones([1, 2, 4, 4])


def _ncl(env=None):
    return pylayer.ones([1, 2, 5])


def _scheduler(env):
    env["self"] = optimizer.lr.StepDecay(0.5, step_size=2)


def _made(factory):
    return lambda env: env.update(self=factory())
