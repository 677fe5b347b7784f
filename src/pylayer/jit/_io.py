"""``jit.save`` and ``jit.load``: a captured program in pylayer's own file format.

``save(layer, path)`` writes two files:

* ``path.json``, the program: a JSON object ``{"format": "pylayer.jit.program",
  "version": 1, "inputs": [...], "params": [...], "ops": [...], "outputs": ...}``.
  Each input is ``{"name", "shape" (-1 for a size known only at run time),
  "dtype", "stop_gradient"}``; each parameter ``{"name", "shape", "dtype",
  "trainable"}``. Each op is ``{"fn": "module:name", "args": [...], "kwargs":
  {...}, "outputs": [names], "out_index": [None or int]}``, where ``fn`` names a
  public op of pylayer (a module under ``pylayer``) and argument values are
  JSON values, or objects tagged by one key: ``{"var": name}`` (a variable),
  ``{"tensor": name}`` (a parameter or constant), ``{"tuple": [...]}``,
  ``{"dict": [[key, value], ...]}``, ``{"dtype": name}``, ``{"slice": [start,
  stop, step]}``, ``{"float": "nan" | "inf" | "-inf"}``, ``{"ellipsis": 0}``.
* ``path.pdiparams``, the parameters and constants, written by
  :func:`pylayer.save` (a pickle of numpy arrays that :func:`pylayer.load` reads
  without executing anything).

A ``PyLayer`` in the program is saved as the ops of its ``forward`` (a saved
model is for inference; its custom backward is not saved).

Paddle's inference engine cannot read these files, and pylayer cannot read
Paddle's: Paddle's program file describes Paddle's C++ operators by their
registered names and attributes, while pylayer's ops are Python functions with
their own argument conventions, so the file stores references to those
functions; only pylayer can load it.
"""
import importlib
import json
import math
import os
import types

import numpy as np

import pylayer
from pylayer.autograd import PyLayer
from pylayer.extend import DType, Tensor, describe, write_atomically
from pylayer.jit import _capture
from pylayer.jit._api import StaticFunction, _check_specs
from pylayer.nn import Layer
from pylayer.nn.initializer import Constant
from pylayer.static import Program, Variable, data, program_guard
from pylayer.static.replay import record_op, substitute, variables_in

__all__ = ["save", "load", "TranslatedLayer"]

FORMAT = "pylayer.jit.program"
VERSION = 1


# ------------------------------------------------------------------ saving
def _is_pylayer_apply(fn):
    return (isinstance(fn, types.MethodType) and isinstance(fn.__self__, type)
            and issubclass(fn.__self__, PyLayer) and fn.__name__ == "apply")


class _SaveContext:
    """The ``ctx`` a PyLayer's forward gets when it is saved as its ops."""

    def save_for_backward(self, *tensors):
        self._saved = tensors

    def saved_tensor(self):
        return getattr(self, "_saved", ())

    saved_tensors = property(saved_tensor)

    def mark_not_inplace(self, *tensors):
        pass

    def mark_non_differentiable(self, *tensors):
        pass

    def set_materialize_grads(self, value):
        pass


def _inlined(concrete):
    """A copy of ``concrete``'s program where each PyLayer is the ops of its forward."""
    ops = concrete.main_program.global_block().ops
    if not any(_is_pylayer_apply(op.fn) for op in ops):
        return concrete
    program = Program()
    mapping = {}
    with program_guard(program, Program()), _capture._static_mode():
        inputs = []
        for var in concrete.inputs:
            new = data(var.name, var.shape, var.dtype)
            mapping[id(var)] = new
            inputs.append(new)
        for op in ops:
            args = substitute(op.args, mapping)
            kwargs = substitute(op.kwargs, mapping)
            if _is_pylayer_apply(op.fn):
                result = op.fn.__self__.forward(_SaveContext(), *args, **kwargs)
            else:
                result = record_op(op.fn, *args, **kwargs)
            results = result if isinstance(result, (list, tuple)) else [result]
            for var, index in zip(op.outputs, op.out_index):
                mapping[id(var)] = result if index is None else results[index]
    outputs = substitute(concrete.outputs, mapping)
    return _capture.ConcreteProgram(program, inputs, outputs, concrete.function)


def _reference(fn, where):
    """``"module:name"`` of a public pylayer op, checked to lead back to ``fn``."""
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if module and name and (module == "pylayer" or module.startswith("pylayer.")):
        found = getattr(importlib.import_module(module), name, None)
        if found is fn or getattr(found, "__wrapped__", None) is fn:
            return f"{module}:{name}"
    raise ValueError(f"jit.save(): {where} calls {fn!r}, which is not a public op of "
                     f"pylayer; pylayer's program format stores only references to "
                     f"pylayer's ops")


class _Encoder:
    def __init__(self, names):
        self.names = names          # id(Tensor) -> name in the parameters file
        self.tensors = {}           # name -> Tensor

    def tensor(self, value):
        name = self.names.get(id(value))
        if name is None:
            name = f"constant_{len(self.tensors)}"
            self.names[id(value)] = name
        self.tensors[name] = value
        return {"tensor": name}

    def __call__(self, value, where):
        if isinstance(value, Variable):
            return {"var": value.name}
        if isinstance(value, Tensor):
            return self.tensor(value)
        if value is None or isinstance(value, (bool, int, str)):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else {"float": repr(value)}
        if isinstance(value, list):
            return [self(v, where) for v in value]
        if isinstance(value, tuple):
            return {"tuple": [self(v, where) for v in value]}
        if isinstance(value, dict):
            return {"dict": [[self(k, where), self(v, where)] for k, v in value.items()]}
        if isinstance(value, DType):
            return {"dtype": value.name}
        if isinstance(value, np.dtype):
            return {"dtype": value.name}
        if isinstance(value, np.generic):
            return self(value.item(), where)
        if isinstance(value, np.ndarray):
            return self.tensor(pylayer.to_tensor(value))
        if isinstance(value, slice):
            return {"slice": [self(value.start, where), self(value.stop, where),
                              self(value.step, where)]}
        if value is Ellipsis:
            return {"ellipsis": 0}
        if callable(value):
            return {"fn": _reference(getattr(value, "__wrapped__", value), where)}
        raise ValueError(f"jit.save(): {where} has an argument of type "
                         f"{type(value).__name__}, which pylayer's program format cannot store")


def _concrete_of(layer, input_spec):
    if isinstance(layer, TranslatedLayer) and input_spec is None:
        return layer._concrete
    forward = layer.forward if isinstance(layer, Layer) else layer
    if isinstance(layer, Layer) and not isinstance(forward, StaticFunction):
        forward = StaticFunction(type(layer).forward, None, layer)
    elif not isinstance(forward, StaticFunction):
        if not callable(forward):
            raise TypeError(f"jit.save(): argument 'layer' must be a Layer or a function, "
                            f"got {describe(layer)}")
        forward = StaticFunction(forward)
    specs = _check_specs(input_spec, "jit.save")
    if specs is not None:
        return forward.get_concrete_program(*specs)
    if forward._last is None:
        if forward._input_spec is None:
            raise ValueError("jit.save(): the layer's forward has not been run through "
                             "to_static and no input_spec is given, so its inputs are "
                             "unknown; pass input_spec=[InputSpec(...), ...]")
        return forward.get_concrete_program(*forward._input_spec)
    return forward._last


def save(layer, path, input_spec=None, **configs):
    """Save a Layer (or function) as a captured program: ``path.json`` (the program,
    pylayer's own format) and ``path.pdiparams`` (its parameters).

    The program is the one ``to_static`` captured for the latest call, or
    the one captured now for ``input_spec`` (a list of InputSpec or Tensors).
    Read it back with :func:`load`. The files are pylayer's own: Paddle's
    inference engine cannot read them (Paddle's program file names Paddle's
    C++ operators; pylayer's program names pylayer's Python ops).

    >>> import os, tempfile
    >>> import pylayer as paddle
    >>> from pylayer.static import InputSpec
    >>> net = paddle.nn.Linear(3, 2)
    >>> path = os.path.join(tempfile.mkdtemp(), "linear")
    >>> paddle.jit.save(net, path, input_spec=[InputSpec([None, 3], "float32")])
    >>> sorted(os.listdir(os.path.dirname(path)))
    ['linear.json', 'linear.pdiparams']
    """
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise TypeError(f"jit.save(): argument 'path' must be a non-empty path, "
                        f"got {describe(path)}")
    unknown = sorted(set(configs) - {"output_spec", "combine_params", "clip_extra",
                                     "skip_forward", "input_names_after_prune"})
    if unknown:
        raise TypeError(f"jit.save(): unexpected keyword argument(s) {unknown}")
    concrete = _inlined(_concrete_of(layer, input_spec))
    names = {}
    if isinstance(layer, Layer):
        for i, p in enumerate(layer.parameters()):
            names[id(p)] = f"param_{i}"
    encode = _Encoder(names)
    ops = []
    for index, op in enumerate(concrete.main_program.global_block().ops):
        where = f"op {index} ({op.type})"
        ops.append({"fn": _reference(op.fn, where),
                    "args": [encode(a, where) for a in op.args],
                    "kwargs": {k: encode(v, where) for k, v in op.kwargs.items()},
                    "outputs": [v.name for v in op.outputs],
                    "shapes": [v.shape for v in op.outputs],
                    "dtypes": [v.dtype.name for v in op.outputs],
                    "out_index": list(op.out_index)})
    program = {
        "format": FORMAT, "version": VERSION,
        "inputs": [{"name": v.name, "shape": v.shape, "dtype": v.dtype.name,
                    "stop_gradient": v.stop_gradient} for v in concrete.inputs],
        "params": [{"name": n, "shape": list(t.shape), "dtype": t.dtype.name,
                    "trainable": not t.stop_gradient and n.startswith("param_")}
                   for n, t in encode.tensors.items()],
        "ops": ops,
        "outputs": encode(concrete.outputs, "the result"),
    }
    path = os.fspath(path)
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    pylayer.save({n: t.detach() for n, t in encode.tensors.items()}, path + ".pdiparams")
    write_atomically(path + ".json", json.dumps(program).encode("utf-8"))


# ----------------------------------------------------------------- loading
def _resolve(reference, source):
    module, _, name = str(reference).partition(":")
    if not (module == "pylayer" or module.startswith("pylayer.")) or not name:
        raise ValueError(f"jit.load(): {source} names {reference!r}, which is not an op of "
                         f"pylayer")
    found = getattr(importlib.import_module(module), name, None)
    if found is None or not callable(found):
        raise ValueError(f"jit.load(): {source} names {reference!r}, which this version of "
                         f"pylayer does not have")
    return getattr(found, "__wrapped__", found)


class _Decoder:
    def __init__(self, variables, tensors, source):
        self.variables = variables
        self.tensors = tensors
        self.source = source

    def __call__(self, value):
        if isinstance(value, list):
            return [self(v) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) != 1:
            raise ValueError(f"jit.load(): {self.source} holds an unknown value {value!r}")
        (tag, item), = value.items()
        if tag == "var":
            return self.variables[item]
        if tag == "tensor":
            return self.tensors[item]
        if tag == "tuple":
            return tuple(self(v) for v in item)
        if tag == "dict":
            return {self(k): self(v) for k, v in item}
        if tag == "dtype":
            return item
        if tag == "float":
            return float(item)
        if tag == "slice":
            return slice(*(self(v) for v in item))
        if tag == "ellipsis":
            return Ellipsis
        if tag == "fn":
            return _resolve(item, self.source)
        raise ValueError(f"jit.load(): {self.source} holds an unknown value tag {tag!r}")


class TranslatedLayer(Layer):
    """A Layer loaded by :func:`jit.load`: its parameters (``param_0``, ...) and the
    saved program, which its ``forward`` runs. It can be trained further and saved
    again.

    >>> import os, tempfile
    >>> import pylayer as paddle
    >>> from pylayer.static import InputSpec
    >>> path = os.path.join(tempfile.mkdtemp(), "model")
    >>> paddle.jit.save(paddle.nn.Linear(3, 2), path, [InputSpec([None, 3])])
    >>> loaded = paddle.jit.load(path)
    >>> loaded(paddle.ones([4, 3])).shape
    [4, 2]
    """

    def __init__(self):
        super().__init__()
        self._concrete = None

    def program(self, method_name="forward"):
        """The loaded static Program (of ``forward``, the one method saved)."""
        if method_name != "forward":
            raise ValueError(f"TranslatedLayer.program(): argument 'method_name' must be "
                             f"'forward' (the saved method), got {describe(method_name)}")
        return self._concrete.main_program

    def forward(self, *inputs):
        expected = self._concrete.inputs
        if len(inputs) != len(expected):
            raise TypeError(f"TranslatedLayer.forward(): argument 'inputs' must be "
                            f"{len(expected)} Tensor(s), the saved program's inputs, "
                            f"got {len(inputs)}")
        for i, (value, var) in enumerate(zip(inputs, expected)):
            if not isinstance(value, Tensor):
                raise TypeError(f"TranslatedLayer.forward(): argument 'inputs' item {i} must "
                                f"be a Tensor, "
                                f"got {describe(value)}")
            if value.dtype != var.dtype:
                raise TypeError(f"TranslatedLayer.forward(): argument 'inputs' item {i} "
                                f"({var.name!r}) must have dtype {var.dtype.name}, got {value.dtype.name}")
            shape = list(value.shape)
            if len(shape) != len(var.shape) or any(
                    d >= 0 and d != n for d, n in zip(var.shape, shape)):
                raise ValueError(f"TranslatedLayer.forward(): argument 'inputs' item {i} "
                                 f"({var.name!r}) must have shape {var.shape} (-1 matches any size), got {shape}")
        return self._concrete.run(list(inputs))


def load(path, **configs):
    """Load what :func:`save` wrote at ``path`` as a :class:`TranslatedLayer`.

    Only references to pylayer's own ops are followed; nothing else in the
    files is executed.

    >>> import os, tempfile
    >>> import pylayer as paddle
    >>> from pylayer.static import InputSpec
    >>> path = os.path.join(tempfile.mkdtemp(), "tanh")
    >>> paddle.jit.save(paddle.nn.Tanh(), path, [InputSpec([2])])
    >>> paddle.jit.load(path)(paddle.zeros([2])).numpy()
    array([0., 0.], dtype=float32)
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"jit.load(): argument 'path' must be a path, got {describe(path)}")
    unknown = sorted(set(configs) - {"model_filename", "params_filename"})
    if unknown:
        raise TypeError(f"jit.load(): unexpected keyword argument(s) {unknown}")
    path = os.fspath(path)
    program_file = path + ".json"
    if not os.path.isfile(program_file):
        raise ValueError(f"jit.load(): no saved program at {program_file!r} (jit.save "
                         f"writes <path>.json and <path>.pdiparams)")
    with open(program_file, encoding="utf-8") as f:
        try:
            saved = json.load(f)
        except json.JSONDecodeError as exc:
            raise ValueError(f"jit.load(): {program_file!r} is not a saved program: "
                             f"{exc}") from None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise ValueError(f"jit.load(): {program_file!r} is not a pylayer program (Paddle's "
                         f"own saved models cannot be read by pylayer)")
    if saved.get("version") != VERSION:
        raise ValueError(f"jit.load(): {program_file!r} has format version "
                         f"{saved.get('version')!r}; this pylayer reads version {VERSION}")
    arrays = pylayer.load(path + ".pdiparams", return_numpy=True) if saved["params"] else {}
    layer_params = {}
    tensors = {}
    loaded = TranslatedLayer()
    for item in saved["params"]:
        array = np.asarray(arrays[item["name"]])
        if item["name"].startswith("param_"):
            p = loaded.create_parameter(list(array.shape), dtype=item["dtype"],
                                        default_initializer=Constant(0.0))
            p.set_value(array)
            p.stop_gradient = not item["trainable"]
            loaded.add_parameter(item["name"], p)
            layer_params[item["name"]] = p
            tensors[item["name"]] = p
        else:
            t = pylayer.to_tensor(array)
            loaded.register_buffer(item["name"], t)
            tensors[item["name"]] = t
    program = Program()
    block = program.global_block()
    variables = {}
    with program_guard(program, Program()):
        inputs = []
        for item in saved["inputs"]:
            var = data(item["name"], item["shape"], item["dtype"])
            var._stop_gradient = bool(item["stop_gradient"])
            variables[var.name] = var
            inputs.append(var)
        for index, op in enumerate(saved["ops"]):
            decode = _Decoder(variables, tensors, f"{program_file!r} op {index}")
            fn = _resolve(op["fn"], decode.source)
            args = decode(op["args"])
            kwargs = {k: decode(v) for k, v in op["kwargs"].items()}
            outputs = []
            for name, shape, dtype in zip(op["outputs"], op["shapes"], op["dtypes"]):
                var = variables.get(name)
                if var is None:
                    var = variables[name] = block._add_var(
                        Variable(block, name, shape, dtype, kind="tmp"))
                outputs.append(var)
            block.append_op(fn.__name__, fn, args, kwargs, variables_in(args, kwargs),
                            outputs, op["out_index"], [True] * len(outputs))
        outputs = _Decoder(variables, tensors, f"{program_file!r} outputs")(saved["outputs"])
    loaded._concrete = _capture.ConcreteProgram(program, inputs, outputs, None)
    return loaded
