"""How to call every public callable of pylayer with valid arguments, and what each argument is.

``CALLS`` maps each public function or class (the object itself) to a
:class:`Call`; the calls of the ops come from their entries in the op database
(``tests/ops/opinfo.py``), the rest (classes, layers, optimizers, creation, ...) are
here. A Call gives its valid arguments, each tagged with a *kind*. The walker in
``test_hostile_input.py`` replaces one argument at a time by every hostile
value of its kind (``HOSTILE``) and by the extra cases of the entry
(mismatched shapes, out-of-range values), and expects a ``TypeError`` or
``ValueError`` that names the function and that argument.

``_hostile_methods.py`` does the same for the public methods of public
classes; ``_hostile_values.py`` holds the hostile values and the building
blocks.

Argument values are factories ``lambda env: value`` (fresh objects for each
call); ``env`` is what the entry's ``setup`` put there (a graph, a layer...).
A kind of ``None`` means the argument accepts anything; boolean flags are
such arguments (any value counts by its truth, as in Python).
"""
import io
import os

import numpy as np

import pylayer
from pylayer import (autograd, demo, extend, incubate, io as data_io, metric, nn, optimizer,
                     regularizer, static)
from pylayer.autograd import graph
from pylayer.nn import initializer
from pylayer.ops.inplace import inplace, twin_of

from _hostile_values import (_value, A, K, Call, f23, f3, _graph, _saved_buffer, _static_net,
                             SGD_CALL, _Identity)
from opinfo import OPS

# The ops: each OpInfo entry of tests/ops/opinfo.py carries its op's call.
CALLS = {info.public: info.call for info in OPS if info.call is not None}
# An in-place twin (pylayer.abs_, pylayer.nn.functional.elu_) is called as its op is.
CALLS.update({fn: CALLS[twin_of(fn)] for space in (pylayer, pylayer.nn.functional)
              for fn in (getattr(space, name) for name in space.__all__)
              if twin_of(fn) in CALLS})
CALLS.update({
    # ------------------------------------------- shapes (ops/assembly.py)
    pylayer.broadcast_shape: Call(A("x_shape", _value([2, 1]), "int_list"),
                                  A("y_shape", _value([1, 3]), "int_list")),
    pylayer.broadcast_shapes: Call(A("shapes", _value([2, 1]), "int_list")),
    pylayer.t_: Call(A("input", f23, "tensor")),
    # ---------------------------------------------------- the framework
    pylayer.Tensor: Call(A("data", _value([[1.0, 2.0]]), "tensor_or_none"),
                         K("dtype", _value("float64"), "dtype")),
    pylayer.DType: Call(A("name", _value("float32"), "str"),
                        A("np_dtype", _value("float32"), "dtype_required")),
    pylayer.grad: Call(A("outputs", lambda env: env["y"], "graph_tensors"),
                       A("inputs", lambda env: env["x"], "graph_tensors"),
                       K("grad_outputs", _value(None), "grads_or_none"), setup=_graph,
                       extra=[("a gradient of the wrong shape",
                               {"grad_outputs": lambda env: [pylayer.ones([3])]},
                               "grad_outputs")]),
    pylayer.get_default_dtype: Call(),
    pylayer.set_default_dtype: Call(A("d", _value("float32"), "dtype")),
    pylayer.iinfo: Call(A("dtype", _value("int32"), "dtype")),
    pylayer.finfo: Call(A("dtype", _value("float32"), "dtype")),
    pylayer.Size: Call(A("iterable", _value([2, 3]), None)),
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
    incubate.autograd.vjp: Call(A("func", _value(pylayer.tanh), "callable"),
                                A("xs", f23, "graph_tensors"),
                                K("v", _value(None), "grads_or_none")),
    incubate.autograd.jvp: Call(A("func", _value(pylayer.tanh), "callable"),
                                A("xs", f23, "graph_tensors"),
                                K("v", _value(None), "grads_or_none")),
    incubate.autograd.Jacobian: Call(A("func", _value(pylayer.tanh), "callable"),
                                     A("xs", f23, "graph_tensors"),
                                     K("is_batched", _value(False), None)),
    incubate.autograd.Hessian: Call(A("func", _value(pylayer.sum), "callable"),
                                    A("xs", f23, "graph_tensors"),
                                    K("is_batched", _value(False), None)),
    # ------------------------------------------------- persistence, devices
    pylayer.save: Call(A("obj", f23, "savable"), A("path", lambda env: io.BytesIO(), "path"),
                       K("protocol", _value(4), "protocol")),
    pylayer.load: Call(A("path", lambda env: _saved_buffer(), "existing_path")),
    pylayer.async_save: Call(A("obj", f23, "savable"),
                             A("path", lambda env: io.BytesIO(), "path"),
                             K("protocol", _value(4), "protocol")),
    pylayer.clear_async_save_task_queue: Call(),
    pylayer.set_flags: Call(A("flags", _value({"FLAGS_call_stack_level": 1}), "state_dict")),
    pylayer.get_flags: Call(A("flags", _value("FLAGS_call_stack_level"), "str")),
    pylayer.install_as_paddle: Call(),
    pylayer.set_device: Call(A("device", _value("cpu"), "device")),
    pylayer.get_device: Call(), pylayer.is_compiled_with_cuda: Call(),
    pylayer.device.device_count: Call(),
    pylayer.device.memory_stats: Call(), pylayer.device.empty_cache: Call(),
    pylayer.device.set_pool_limit: Call(A("limit_bytes", _value(256 * 2 ** 20), "count")),
    pylayer.is_tensor: Call(A("x", f23, None)),
    pylayer.is_complex: Call(A("x", f23, "tensor_only")),
    # -------------------------------------------------------- creation
    pylayer.to_tensor: Call(A("data", _value([[1.0, 2.0]]), "tensor"),
                            K("dtype", _value("float64"), "dtype")),
    pylayer.zeros: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("int64"), "dtype")),
    pylayer.ones: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("int64"), "dtype")),
    pylayer.empty: Call(A("shape", _value([2, 3]), "shape"), K("dtype", _value("int64"), "dtype")),
    pylayer.full: Call(A("shape", _value([2, 3]), "shape"), A("fill_value", _value(7.0), "number"),
                       K("dtype", _value("float64"), "dtype")),
    pylayer.empty_like: Call(A("x", f23, "tensor"), K("dtype", _value("int64"), "dtype")),
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
    # -------------------------------------------- random sampling (ops/sampling.py)
    pylayer.multinomial: Call(A("x", lambda env: pylayer.to_tensor([0.2, 0.3, 0.5]),
                                "float_tensor"),
                              K("num_samples", _value(2), "size"),
                              K("replacement", _value(False), None),
                              extra=[("a negative weight",
                                      {"x": lambda env: pylayer.to_tensor([-0.5, 1.0])}, "x"),
                                     ("more draws than categories",
                                      {"num_samples": _value(4)}, "num_samples")]),
    pylayer.poisson: Call(A("x", f23, "float_tensor"),
                          extra=[("a negative rate",
                                  {"x": lambda env: pylayer.to_tensor([-1.0])}, "x")]),
    pylayer.randperm: Call(A("n", _value(5), "size"), K("dtype", _value("int32"), "dtype"),
                           extra=[("a bool dtype", {"dtype": _value("bool")}, "dtype")]),
    pylayer.standard_normal: Call(A("shape", _value([2, 3]), "shape"),
                                  K("dtype", _value("float64"), "dtype"),
                                  extra=[("an integer dtype", {"dtype": _value("int64")},
                                          "dtype")]),
    pylayer.standard_gamma: Call(A("x", f23, "float_tensor")),
    pylayer.binomial: Call(A("count", lambda env: pylayer.to_tensor([3, 5]), "tensor"),
                           A("prob", lambda env: pylayer.to_tensor([0.5, 0.25]), "float_tensor"),
                           extra=[("a probability above 1",
                                   {"prob": lambda env: pylayer.to_tensor([1.5, 0.5])}, "prob"),
                                  ("a negative count",
                                   {"count": lambda env: pylayer.to_tensor([-1, 2])}, "count"),
                                  ("shapes that do not broadcast",
                                   {"prob": lambda env: pylayer.to_tensor([0.5, 0.5, 0.5])},
                                   ("count", "prob"))]),
    pylayer.log_normal: Call(K("mean", _value(1.0), "number"), K("std", _value(2.0), "number"),
                             K("shape", _value([2, 3]), "shape_or_none")),
    pylayer.rand_like: Call(A("input", f23, "tensor"), K("dtype", _value("float64"), "dtype"),
                            extra=[("an integer dtype", {"dtype": _value("int64")}, "dtype")]),
    pylayer.randn_like: Call(A("x", f23, "tensor"), K("dtype", _value("float64"), "dtype"),
                             extra=[("an integer dtype", {"dtype": _value("int64")}, "dtype")]),
    pylayer.randint_like: Call(A("x", f23, "tensor"), A("low", _value(0), "int"),
                               A("high", _value(5), "int"), K("dtype", _value("int32"), "dtype"),
                               extra=[("high not above low", {"high": _value(0)},
                                       ("low", "high"))]),
    pylayer.normal_: Call(A("x", lambda env: pylayer.zeros([2, 3]), "tensor_only"),
                          K("mean", _value(1.0), "number"), K("std", _value(2.0), "number"),
                          extra=[("an integer x", {"x": lambda env: pylayer.zeros([2], "int64")},
                                  "x")]),
    pylayer.cauchy_: Call(A("x", lambda env: pylayer.zeros([2, 3]), "tensor_only"),
                          K("loc", _value(1.0), "number"), K("scale", _value(2.0), "number")),
    pylayer.geometric_: Call(A("x", lambda env: pylayer.zeros([2, 3]), "tensor_only"),
                             A("probs", _value(0.5), "probability"),
                             extra=[("a probability of 0", {"probs": _value(0.0)}, "probs")]),
    pylayer.log_normal_: Call(A("x", lambda env: pylayer.zeros([2, 3]), "tensor_only"),
                              K("mean", _value(1.0), "number"), K("std", _value(2.0), "number")),
    pylayer.bernoulli_: Call(A("x", lambda env: pylayer.zeros([2, 3]), "tensor_only"),
                             K("p", _value(0.5), "probability"),
                             extra=[("probabilities that do not broadcast",
                                     {"p": lambda env: pylayer.to_tensor([0.5, 0.5])}, "p")]),
    pylayer.Generator: Call(K("device", _value(None), "str_or_none"),
                            extra=[("a GPU", {"device": _value("gpu")}, "device")]),
    pylayer.get_rng_state: Call(K("device", _value(None), "str_or_none")),
    pylayer.set_rng_state: Call(A("state_list", lambda env: pylayer.get_rng_state(),
                                  "state_dict"),
                                K("device", _value(None), "str_or_none")),
    pylayer.manual_seed: Call(A("seed", _value(7), "int")),
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
    autograd.opcheck: Call(A("layer", _value(_Identity), "layer"),
                           A("args", lambda env: (pylayer.to_tensor(
                               [0.5, -1.0], dtype="float64", stop_gradient=False),),
                             "graph_tensors"),
                           K("kwargs", _value(None), "dict_or_none"),
                           K("eps", _value(1e-6), "non_negative"),
                           K("atol", _value(1e-5), "non_negative"),
                           K("rtol", _value(1e-3), "non_negative"),
                           extra=[("no input that needs a gradient",
                                   {"args": lambda env: (pylayer.ones([2]),)}, "args"),
                                  ("eps of zero", {"eps": _value(0.0)}, "eps")]),
    autograd.OpcheckReport: Call(A("layer", _value(_Identity), "layer"),
                                 A("inputs", _value("x: float64[2]"), "str"),
                                 A("entries", lambda env: [autograd.OpcheckEntry(
                                     "gradient", "pass", "fine")], "params_grads")),
    autograd.OpcheckEntry: Call(A("name", _value("gradient"), "str"),
                                A("verdict", _value("pass"), "str"),
                                A("reason", _value("fine"), "str"),
                                A("evidence", _value(""), "str"), A("fix", _value(""), "str"),
                                extra=[("an unknown check", {"name": _value("speed")}, "name"),
                                       ("an unknown verdict", {"verdict": _value("maybe")},
                                        "verdict")]),
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
    # the loss layers check their reduction when built, the rest when called
    nn.BCELoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.BCEWithLogitsLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.NLLLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.L1Loss: Call(K("reduction", _value("sum"), "reduction")),
    nn.SmoothL1Loss: Call(K("reduction", _value("sum"), "reduction")),
    nn.KLDivLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.MarginRankingLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.HingeEmbeddingLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.CosineEmbeddingLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.SoftMarginLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.MultiLabelSoftMarginLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.PoissonNLLLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.GaussianNLLLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.TripletMarginLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.TripletMarginWithDistanceLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.MultiMarginLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.MultiLabelMarginLoss: Call(K("reduction", _value("sum"), "reduction")),
    nn.ClipGradByValue: Call(A("max", _value(1.0), "number"), K("min", _value(-1.0),
                                                               "number_or_none"),
                             extra=[("min above max", {"min": _value(2.0)}, ("min", "max"))]),
    nn.ClipGradByNorm: Call(A("clip_norm", _value(1.0), "non_negative")),
    nn.ClipGradByGlobalNorm: Call(A("clip_norm", _value(1.0), "non_negative"),
                                  K("group_name", _value("g"), "str")),
    initializer.Initializer: Call(),
    initializer.Constant: Call(K("value", _value(2.0), "number")),
    initializer.Normal: Call(K("mean", _value(0.0), "number"), K("std", _value(2.0),
                                                                 "non_negative")),
    initializer.Uniform: Call(K("low", _value(-2.0), "number"), K("high", _value(2.0), "number"),
                              extra=[("high below low", {"high": _value(-3.0)}, ("low", "high"))]),
    initializer.XavierUniform: Call(K("fan_in", _value(None), "non_negative_or_none"),
                                    K("fan_out", _value(None), "non_negative_or_none"),
                                    K("gain", _value(1.0), "non_negative")),
    initializer.XavierNormal: Call(K("fan_in", _value(None), "non_negative_or_none"),
                                   K("fan_out", _value(None), "non_negative_or_none"),
                                   K("gain", _value(1.0), "non_negative")),
    initializer.KaimingNormal: Call(K("fan_in", _value(None), "non_negative_or_none"),
                                    K("negative_slope", _value(0.0), "number"),
                                    K("nonlinearity", _value("relu"), "reduction"),
                                    K("mode", _value("fan_in"), "reduction")),
    initializer.KaimingUniform: Call(K("fan_in", _value(None), "non_negative_or_none"),
                                     K("negative_slope", _value(0.0), "number"),
                                     K("nonlinearity", _value("relu"), "reduction"),
                                     K("mode", _value("fan_in"), "reduction")),
    initializer.TruncatedNormal: Call(K("mean", _value(0.0), "number"),
                                      K("std", _value(1.0), "non_negative"),
                                      K("a", _value(-2.0), "number"), K("b", _value(2.0), "number"),
                                      extra=[("b below a", {"b": _value(-3.0)}, ("a", "b"))]),
    initializer.Orthogonal: Call(K("gain", _value(1.0), "number")),
    initializer.Dirac: Call(K("groups", _value(1), "int")),
    initializer.Assign: Call(A("value", _value([1.0, 2.0]), None)),
    initializer.Bilinear: Call(),
    initializer.calculate_gain: Call(A("nonlinearity", _value("tanh"), "reduction")),
    initializer.set_global_initializer: Call(A("weight_init", _value(None), None),
                                             K("bias_init", _value(None), None)),
    # --------------------------------------------------------- optimizer
    optimizer.Optimizer: SGD_CALL,
    optimizer.SGD: SGD_CALL,
    optimizer.Adam: Call(K("learning_rate", _value(0.1), "non_negative"),
                         K("beta1", _value(0.9), "probability"),
                         K("beta2", _value(0.99), "probability"),
                         K("epsilon", _value(1e-8), "non_negative"),
                         K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                         K("weight_decay", _value(None), "number_or_none")),
    optimizer.AdamW: Call(K("learning_rate", _value(0.1), "non_negative"),
                          K("beta1", _value(0.9), "probability"),
                          K("beta2", _value(0.99), "probability"),
                          K("epsilon", _value(1e-8), "non_negative"),
                          K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                          K("weight_decay", _value(0.01), "number"),
                          K("lr_ratio", _value(None), "callable_or_none"),
                          K("apply_decay_param_fun", _value(None), "callable_or_none")),
    optimizer.Adamax: Call(K("learning_rate", _value(0.1), "non_negative"),
                           K("beta1", _value(0.9), "probability"),
                           K("beta2", _value(0.99), "probability"),
                           K("epsilon", _value(1e-8), "non_negative"),
                           K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                           K("weight_decay", _value(None), "number_or_none")),
    optimizer.NAdam: Call(K("learning_rate", _value(0.1), "non_negative"),
                          K("beta1", _value(0.9), "probability"),
                          K("beta2", _value(0.99), "probability"),
                          K("epsilon", _value(1e-8), "non_negative"),
                          K("momentum_decay", _value(0.004), "non_negative"),
                          K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                          K("weight_decay", _value(None), "number_or_none")),
    optimizer.RAdam: Call(K("learning_rate", _value(0.1), "non_negative"),
                          K("beta1", _value(0.9), "probability"),
                          K("beta2", _value(0.99), "probability"),
                          K("epsilon", _value(1e-8), "non_negative"),
                          K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                          K("weight_decay", _value(None), "number_or_none")),
    optimizer.Lamb: Call(K("learning_rate", _value(0.1), "non_negative"),
                         K("lamb_weight_decay", _value(0.01), "number"),
                         K("beta1", _value(0.9), "number"),
                         K("beta2", _value(0.99), "number"),
                         K("epsilon", _value(1e-6), "number"),
                         K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                         K("exclude_from_weight_decay_fn", _value(None), "callable_or_none")),
    optimizer.Rprop: Call(K("learning_rate", _value(0.1), "non_negative"),
                          K("learning_rate_range", _value((1e-5, 50)), "shape"),
                          K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                          K("etas", _value((0.5, 1.2)), "shape"),
                          K("grad_clip", _value(None), "callable_or_none")),
    optimizer.ASGD: Call(K("learning_rate", _value(0.1), "non_negative"),
                         K("batch_num", _value(2), "count"),
                         K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                         K("weight_decay", _value(None), "number_or_none"),
                         K("grad_clip", _value(None), "callable_or_none"),
                         extra=[("a batch_num of zero", {"batch_num": _value(0)}, "batch_num")]),
    optimizer.Momentum: Call(K("learning_rate", _value(0.1), "non_negative"),
                             K("momentum", _value(0.9), "number"),
                             K("parameters", lambda env: nn.Linear(3, 2).parameters(),
                               "parameters"),
                             K("weight_decay", _value(None), "number_or_none"),
                             K("grad_clip", _value(None), "callable_or_none"),
                             K("rescale_grad", _value(1.0), "number")),
    optimizer.RMSProp: Call(K("learning_rate", _value(0.1), "non_negative"),
                            K("rho", _value(0.95), "non_negative"),
                            K("epsilon", _value(1e-6), "non_negative"),
                            K("momentum", _value(0.0), "non_negative"),
                            K("parameters", lambda env: nn.Linear(3, 2).parameters(),
                              "parameters"),
                            K("weight_decay", _value(None), "number_or_none")),
    optimizer.Adagrad: Call(K("learning_rate", _value(0.1), "non_negative"),
                            K("epsilon", _value(1e-6), "number"),
                            K("parameters", lambda env: nn.Linear(3, 2).parameters(),
                              "parameters"),
                            K("weight_decay", _value(None), "number_or_none"),
                            K("initial_accumulator_value", _value(0.0), "number")),
    optimizer.Adadelta: Call(K("learning_rate", _value(0.1), "non_negative"),
                             K("epsilon", _value(1e-6), "number"),
                             K("rho", _value(0.95), "number"),
                             K("parameters", lambda env: nn.Linear(3, 2).parameters(),
                               "parameters"),
                             K("weight_decay", _value(None), "number_or_none")),
    regularizer.L1Decay: Call(A("coeff", _value(0.1), "number"),
                              extra=[("an infinite coefficient", {"coeff": _value(float("inf"))},
                                      "coeff")]),
    regularizer.L2Decay: Call(A("coeff", _value(0.1), "number"),
                              extra=[("a NaN coefficient", {"coeff": _value(float("nan"))},
                                      "coeff")]),
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
})

# ------------------------------------------------ conversions (ops/conversion.py)
CALLS.update({
    pylayer.as_tensor: Call(A("data", _value([1.0, 2.0]), "tensor"),
                            K("dtype", _value("float64"), "dtype")),
    pylayer.asarray: Call(A("obj", _value([1.0, 2.0]), "tensor"),
                          K("dtype", _value("float64"), "dtype")),
    pylayer.from_numpy: Call(A("ndarray", lambda env: np.ones(2), "ndarray")),
    pylayer.tolist: Call(A("x", f23, "tensor")),
    pylayer.to_dlpack: Call(A("x", f23, "tensor")),
    pylayer.from_dlpack: Call(A("dlpack", lambda env: np.ones(2), "dlpack")),
    pylayer.logspace: Call(A("start", _value(0.0), "number"), A("stop", _value(1.0), "number"),
                           A("num", _value(5), "size"), K("dtype", _value("float64"), "dtype")),
    pylayer.range: Call(A("start", _value(0.0), "number"), A("end", _value(1.0), "number_or_none"),
                        A("step", _value(0.25), "number"), K("dtype", _value("float64"), "dtype")),
    pylayer.where_: Call(A("condition", lambda env: pylayer.ones([2, 3]) > 0.5, "tensor"),
                         A("x", f23, "tensor_only"), A("y", f23, "tensor")),
    pylayer.batch: Call(A("reader", _value(lambda: iter([1, 2, 3])), "callable"),
                        A("batch_size", _value(2), "positive_int")),
    # the default precision: a valid call must not change how later tests print
    pylayer.set_printoptions: Call(K("precision", _value(8), "count_or_none"),
                                   K("linewidth", _value(80), "count_or_none")),
    pylayer.disable_signal_handler: Call(),
    pylayer.check_shape: Call(A("shape", _value([2, 3]), "int_list"),
                              A("op_name", _value("reshape"), "str"), static=True),
    **{getattr(pylayer, name): Call(A("data", _value([1.0, 2.0]), "tensor_or_none"))
       for name in ("BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor",
                    "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor")},
    **{getattr(pylayer.version, name): Call() for name in pylayer.version.__all__
       if callable(getattr(pylayer.version, name))},
})


CALLS.update({
    pylayer.bernoulli: Call(A("x", lambda env: pylayer.full([2, 3], 0.5), "float_tensor"),
                            K("p", _value(None), "number_or_none"),
                            extra=[("a probability above 1", {"p": _value(1.5)}, "p")]),
    nn.Conv1D: Call(A("in_channels", _value(2), "size"), A("out_channels", _value(2), "size"),
                    A("kernel_size", _value(3), "size"), K("stride", _value(1), "count"),
                    K("padding_mode", _value("zeros"), "reduction")),
    nn.Conv2D: Call(A("in_channels", _value(2), "size"), A("out_channels", _value(2), "size"),
                    A("kernel_size", _value(3), "size"), K("groups", _value(2), "size"),
                    K("data_format", _value("NCHW"), "reduction")),
    nn.Conv1DTranspose: Call(A("in_channels", _value(2), "size"),
                             A("out_channels", _value(2), "size"),
                             A("kernel_size", _value(3), "size"), K("stride", _value(2), "count"),
                             K("output_padding", _value(1), "count")),
    nn.Conv2DTranspose: Call(A("in_channels", _value(2), "size"),
                             A("out_channels", _value(2), "size"),
                             A("kernel_size", _value(3), "size"), K("groups", _value(2), "size"),
                             K("data_format", _value("NCHW"), "reduction")),
    nn.MaxPool1D: Call(A("kernel_size", _value(2), "size"),
                       K("stride", _value(1), "count_or_none")),
    nn.MaxPool2D: Call(A("kernel_size", _value(2), "size"), K("padding", _value(1), "count"),
                       K("data_format", _value("NCHW"), "reduction")),
    nn.AvgPool1D: Call(A("kernel_size", _value(2), "size"), K("padding", _value(1), "count")),
    nn.AvgPool2D: Call(A("kernel_size", _value(2), "size"),
                       K("stride", _value(1), "count_or_none"),
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
    nn.ReLU6: Call(), nn.Swish: Call(), nn.Mish: Call(), nn.Hardswish: Call(),
    nn.Hardsigmoid: Call(), nn.Softsign: Call(), nn.Tanhshrink: Call(), nn.LogSigmoid: Call(),
    nn.Softmax2D: Call(),
    nn.ELU: Call(K("alpha", _value(0.5), "number")),
    nn.CELU: Call(K("alpha", _value(0.5), "number")),
    nn.SELU: Call(K("scale", _value(1.5), "number"), K("alpha", _value(1.0), "number")),
    nn.Silu: Call(K("inplace", _value(False), None)),
    nn.Softplus: Call(K("beta", _value(2.0), "number"), K("threshold", _value(10.0), "number")),
    nn.Softshrink: Call(K("threshold", _value(0.3), "number")),
    nn.Hardshrink: Call(K("threshold", _value(0.3), "number")),
    nn.ThresholdedReLU: Call(K("threshold", _value(0.5), "number"),
                             K("value", _value(0.0), "number")),
    nn.GLU: Call(K("axis", _value(0), "int")),
    nn.Maxout: Call(A("groups", _value(2), "int"), K("axis", _value(1), "int")),
    nn.RReLU: Call(K("lower", _value(0.1), "number"), K("upper", _value(0.3), "number")),
    nn.PReLU: Call(K("num_parameters", _value(3), "size"), K("init", _value(0.1), "number"),
                   K("weight_attr", _value(None), "param_attr")),
    nn.Identity: Call(), nn.HookRemoveHelper: Call(A("hooks", lambda env: {}, None)),
    nn.LayerList: Call(A("sublayers", lambda env: [nn.ReLU()], "parameters")),
    nn.PixelShuffle: Call(A("upscale_factor", _value(2), "size"),
                          K("data_format", _value("NCHW"), "reduction")),
    nn.AdaptiveAvgPool1D: Call(A("output_size", _value(2), "size")),
    nn.AdaptiveAvgPool2D: Call(A("output_size", _value(2), "size"),
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
    optimizer.lr.ExponentialDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                        A("gamma", _value(0.9), "probability")),
    optimizer.lr.NaturalExpDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                       A("gamma", _value(0.5), "non_negative")),
    optimizer.lr.InverseTimeDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                        A("gamma", _value(0.5), "number")),
    optimizer.lr.MultiStepDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                      A("milestones", _value([2, 4]), "parameters"),
                                      K("gamma", _value(0.5), "number")),
    optimizer.lr.PiecewiseDecay: Call(A("boundaries", _value([2, 4]), "parameters"),
                                      A("values", _value([1.0, 0.5, 0.1]), "parameters")),
    optimizer.lr.PolynomialDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                       A("decay_steps", _value(4), "count"),
                                       K("end_lr", _value(0.1), "number"),
                                       K("power", _value(1.0), "non_negative")),
    optimizer.lr.NoamDecay: Call(A("d_model", _value(16), "non_negative"),
                                 A("warmup_steps", _value(4), "number"),
                                 K("learning_rate", _value(1.0), "non_negative")),
    optimizer.lr.MultiplicativeDecay: Call(A("learning_rate", _value(0.5), "non_negative"),
                                           A("lr_lambda", _value(lambda epoch: 0.5),
                                             "callable")),
    optimizer.lr.LinearLR: Call(A("learning_rate", _value(0.5), "non_negative"),
                                A("total_steps", _value(4), "count"),
                                K("start_factor", _value(0.5), "probability"),
                                K("end_factor", _value(1.0), "probability")),
    optimizer.lr.CosineAnnealingWarmRestarts: Call(
        A("learning_rate", _value(0.5), "non_negative"), A("T_0", _value(3), "count"),
        K("T_mult", _value(2), "count"), K("eta_min", _value(0.0), "number")),
    optimizer.lr.OneCycleLR: Call(A("max_learning_rate", _value(1.0), "non_negative"),
                                  A("total_steps", _value(10), "count"),
                                  K("divide_factor", _value(25.0), "number"),
                                  K("end_learning_rate", _value(1e-4), "non_negative"),
                                  K("phase_pct", _value(0.3), "probability"),
                                  K("anneal_strategy", _value("cos"), "reduction")),
    optimizer.lr.CyclicLR: Call(A("base_learning_rate", _value(0.1), "non_negative"),
                                A("max_learning_rate", _value(1.0), "non_negative"),
                                A("step_size_up", _value(2), "count"),
                                K("step_size_down", _value(None), "number_or_none"),
                                K("mode", _value("triangular"), "reduction"),
                                K("exp_gamma", _value(1.0), "number"),
                                K("scale_fn", _value(None), "callable_or_none"),
                                extra=[("a step_size_down of zero",
                                        {"step_size_down": _value(0)}, "step_size_down")]),
    optimizer.lr.ReduceOnPlateau: Call(A("learning_rate", _value(1.0), "non_negative"),
                                       K("mode", _value("min"), "reduction"),
                                       K("factor", _value(0.5), "number"),
                                       K("patience", _value(2), "count"),
                                       K("threshold", _value(1e-4), "number"),
                                       K("threshold_mode", _value("rel"), "reduction"),
                                       K("cooldown", _value(0), "count"),
                                       K("min_lr", _value(0.0), "number"),
                                       K("epsilon", _value(1e-8), "number")),
})


# ------------------------------------------------------- pylayer.extend
def _cube_op(env=None):
    return extend.Op("cube", keeps=("x",), vjp=(lambda g, x: g * 3.0 * x * x,))


def _pair_op(env=None):
    return extend.Op("pair", multi_output=True, outputs=("a", "b"), vjp=lambda gs: gs[0])


def _read_only_ones(env=None):
    ones = np.ones(3)
    ones.setflags(write=False)
    return ones


def _checker(value_kind, value, *settings, arg="n"):
    """A Call for a check: ``value`` is checked on behalf of a function 'f' and its
    argument ``arg``; the labels accept anything, the check's own settings are checked."""
    return Call(A("value", _value(value), value_kind), A("fn", _value("f"), None),
                A("arg", _value(arg), None), *settings, names=("f",),
                aliases={"value": (arg,)})


CALLS.update({
    extend.Op: Call(A("name", _value("cube"), "str"), K("inputs", _value("x"), "names_or_none"),
                    K("outputs", _value("out"), "names"), K("keeps", _value(("x",)), "names"),
                    K("attrs", _value(()), "names"),
                    K("vjp", _value((lambda g, x: g * 3.0 * x * x,)), "rules"),
                    extra=[("a rule reading what the op does not keep",
                            {"vjp": _value((lambda g, y: g,))}, "vjp"),
                           ("keeping neither an input nor an output",
                            {"keeps": _value(("z",))}, "keeps"),
                           ("as many rules as inputs plus one",
                            {"vjp": _value((None, None))}, "vjp")]),
    extend.make_output: Call(A("op", _cube_op, "op"),
                             A("array", lambda env: np.ones(3, dtype=np.float32), "result_array"),
                             A("inputs", lambda env: (f3(),), "input_tuple"),
                             K("attrs", _value(()), "attr_tuple")),
    extend.make_outputs: Call(A("op", _pair_op, "op"),
                              A("arrays", lambda env: [np.ones(2), np.ones(2)], "result_arrays"),
                              A("inputs", lambda env: (f3(),), "input_tuple"),
                              K("attrs", _value(()), "attr_tuple"),
                              K("non_differentiable", _value((1,)), "output_indices")),
    extend.needs_grad: Call(A("inputs", f3, None)),
    extend.op: Call(A("fn", _value(lambda x: x), "callable_or_none")),
    extend.declare: Call(A("fn", _value(lambda x: x), "callable_or_none"),
                         K("method", _value(True), None)),
    extend.inplace_twin: Call(A("fn", _value(pylayer.abs), "callable")),
    extend.make_tensor: Call(A("array", lambda env: np.ones(2), "result_array"),
                             K("stop_gradient", _value(True), None)),
    extend.unbroadcast: Call(A("g", f23, "tensor"), A("shape", _value((3,)), "shape_tuple")),
    extend.as_tensor_arg: Call(A("value", f3, "tensor"), A("fn", _value("f"), None),
                               A("arg", _value("x"), None), A("position", _value(1), None),
                               names=("f",), aliases={"value": ("x",)}),
    extend.float_tensor: Call(A("value", f3, "float_tensor"), A("fn", _value("f"), None),
                              names=("f",), aliases={"value": ("x",)}),
    extend.numeric_tensor: Call(A("value", f3, "math_tensor"), A("fn", _value("f"), None),
                                names=("f",), aliases={"value": ("x",)}),
    extend.check_int: _checker("int", 3, K("minimum", _value(1), "bound")),
    extend.check_ints: _checker("int_list", [2, 3], arg="shape"),
    extend.check_number: _checker("number", 0.5, K("minimum", _value(0.0), "bound"),
                                  K("maximum", _value(1.0), "bound")),
    extend.check_str: _checker("str", "NCHW", arg="data_format"),
    extend.check_choice: _checker("reduction", "sum", A("choices", _value(("mean", "sum")),
                                                        "choices"), arg="reduction"),
    extend.check_callable: _checker("callable", len, arg="hook"),
    extend.check_count: Call(A("count", _value(6), "element_count"),
                             A("fn", _value("f"), None), A("arg", _value("shape"), None)),
    extend.check_dtype: Call(A("dtype", _value("float32"), "dtype"),
                             A("fn", _value("f"), None), K("kinds", _value("f"), "kinds"),
                             names=("f",)),
    extend.check_axis: Call(A("value", _value(-1), "int"), A("ndim", _value(3), "rank"),
                            A("fn", _value("f"), None), names=("f",),
                            aliases={"value": ("axis",)}),
    extend.check_axes: Call(A("axis", _value([2, 0]), "axis"), A("ndim", _value(3), "rank"),
                            A("fn", _value("f"), None), names=("f",)),
    extend.window_sizes: Call(A("value", _value([1, 2]), "int_list"),
                              A("count", _value(2), "dimensions"), A("fn", _value("f"), None),
                              A("arg", _value("stride"), None), K("minimum", _value(1), "count"),
                              names=("f",), aliases={"value": ("stride",)},
                              extra=[("a size below the minimum", {"value": _value([0, 1])},
                                      "value")]),
    extend.window_padding: Call(A("padding", _value("same"), "int_list"),
                                A("count", _value(2), "dimensions"),
                                A("in_sizes", _value([5, 5]), "sizes"),
                                A("kernel", _value([2, 2]), "sizes"),
                                A("stride", _value([1, 1]), "sizes"),
                                A("channel_last", _value(False), None),
                                A("fn", _value("f"), None), names=("f",),
                                extra=[("a zero stride", {"stride": _value([1, 0])}, "stride"),
                                       ("an unknown padding name",
                                        {"padding": _value("full")}, "padding")]),
    extend.operator_method: Call(A("dunder", _value("__radd__"), "str"),
                                 A("lookup", _value(lambda name: len), "callable"),
                                 extra=[("an unknown operator", {"dunder": _value("__spam__")},
                                         "dunder")]),
    extend.axpy: Call(A("alpha", _value(2.0), "number"), A("x", lambda env: np.ones(3), "array"),
                      A("y", lambda env: np.ones(3), "array"),
                      extra=[("arrays of two shapes", {"y": lambda env: np.ones(2)}, ("x", "y")),
                             ("a read-only y", {"y": _read_only_ones}, "y")]),
    extend.adam_update: Call(*(A(arg, lambda env: np.ones(3), "array")
                               for arg in ("param", "grad", "moment1", "moment2")),
                             A("moment2_max", _value(None), None),
                             *(A(arg, _value(value), "number") for arg, value in
                               (("lr", 0.1), ("beta1", 0.9), ("beta2", 0.999),
                                ("epsilon", 1e-8), ("decay", 1.0))),
                             extra=[("arrays of two shapes", {"grad": lambda env: np.ones(2)},
                                     "grad"),
                                    ("a read-only param", {"param": _read_only_ones}, "param")]),
    extend.describe: Call(A("value", _value(3), None)),
    extend.settings_repr: Call(A("obj", _value(1.0), None),
                               A("settings", _value({"max": 1.0}), "settings")),
    extend.public_settings_repr: Call(A("obj", lambda env: optimizer.lr.StepDecay(0.5, 2),
                                        "with_attributes")),
    extend.Summary: Call(A("text", _value("<4 Tensors>"), "str")),
})

# ------------------------------------------------------------------ 3-D convolution, pooling
CALLS.update({
    nn.Conv3D: Call(A("in_channels", _value(2), "size"), A("out_channels", _value(2), "size"),
                    A("kernel_size", _value(3), "size"), K("groups", _value(2), "size"),
                    K("padding_mode", _value("zeros"), "reduction"),
                    K("data_format", _value("NCDHW"), "reduction")),
    nn.Conv3DTranspose: Call(A("in_channels", _value(2), "size"),
                             A("out_channels", _value(2), "size"),
                             A("kernel_size", _value(3), "size"), K("stride", _value(2), "count"),
                             K("output_padding", _value(1), "count"),
                             K("data_format", _value("NCDHW"), "reduction")),
    nn.MaxPool3D: Call(A("kernel_size", _value(2), "size"), K("padding", _value(1), "count"),
                       K("data_format", _value("NCDHW"), "reduction")),
    nn.AvgPool3D: Call(A("kernel_size", _value(2), "size"),
                       K("stride", _value(1), "count_or_none"),
                       K("data_format", _value("NCDHW"), "reduction")),
    nn.AdaptiveAvgPool3D: Call(A("output_size", _value(2), "size"),
                               K("data_format", _value("NCDHW"), "reduction")),
    nn.AdaptiveMaxPool1D: Call(A("output_size", _value(2), "size")),
    nn.AdaptiveMaxPool2D: Call(A("output_size", _value(2), "size")),
    nn.AdaptiveMaxPool3D: Call(A("output_size", _value(2), "size")),
    nn.MaxUnPool1D: Call(A("kernel_size", _value(2), "size"),
                         K("stride", _value(None), "count_or_none"),
                         K("data_format", _value("NCL"), "reduction")),
    nn.MaxUnPool2D: Call(A("kernel_size", _value(2), "size"), K("padding", _value(0), "count"),
                         K("data_format", _value("NCHW"), "reduction")),
    nn.MaxUnPool3D: Call(A("kernel_size", _value(2), "size"),
                         K("data_format", _value("NCDHW"), "reduction")),
    nn.LPPool1D: Call(A("norm_type", _value(2.0), "number"), A("kernel_size", _value(2), "size"),
                      K("data_format", _value("NCL"), "reduction")),
    nn.LPPool2D: Call(A("norm_type", _value(2.0), "number"), A("kernel_size", _value(2), "size"),
                      K("padding", _value(1), "count"),
                      K("data_format", _value("NCHW"), "reduction")),
    nn.FractionalMaxPool2D: Call(A("output_size", _value(2), "size"),
                                 K("kernel_size", _value(None), "count_or_none")),
    nn.FractionalMaxPool3D: Call(A("output_size", _value(2), "size"),
                                 K("random_u", _value(0.5), "number_or_none")),
    nn.Fold: Call(A("output_sizes", _value(4), "size"), A("kernel_sizes", _value(2), "size"),
                  K("paddings", _value(0), "count"), K("strides", _value(1), "size")),
    nn.Unfold: Call(A("kernel_sizes", _value(2), "size"), K("dilations", _value(1), "size"),
                    K("paddings", _value(0), "count")),
})

# ------------------------------------------------------------------ metric
CALLS.update({
    # ------------------------------------------------------------- paddle.io
    data_io.Dataset: Call(),
    data_io.IterableDataset: Call(),
    data_io.TensorDataset: Call(A("tensors", lambda env: [pylayer.ones([2, 3])], "tensors")),
    data_io.ComposeDataset: Call(A("datasets", _value([[1, 2], [3, 4]]), None)),
    data_io.ChainDataset: Call(A("datasets", _value([[1, 2], [3]]), None)),
    data_io.ConcatDataset: Call(A("datasets", _value([[1, 2], [3]]), None)),
    data_io.Subset: Call(A("dataset", _value([1, 2, 3]), None), A("indices", _value([2]), None)),
    data_io.random_split: Call(A("dataset", _value(range(4)), None),
                               A("lengths", _value([1, 3]), "int_list")),
    data_io.Sampler: Call(K("data_source", _value(None), None)),
    data_io.SequenceSampler: Call(A("data_source", _value(range(3)), None)),
    data_io.RandomSampler: Call(A("data_source", _value(range(4)), None),
                                K("num_samples", _value(2), "count_or_none")),
    data_io.WeightedRandomSampler: Call(A("weights", _value([1.0, 2.0]), None),
                                        A("num_samples", _value(2), "positive_int")),
    data_io.SubsetRandomSampler: Call(A("indices", _value([1, 3]), None)),
    data_io.BatchSampler: Call(A("dataset", _value(range(4)), None),
                               K("batch_size", _value(2), "positive_int")),
    data_io.DistributedBatchSampler: Call(A("dataset", _value(range(4)), None),
                                          A("batch_size", _value(2), "positive_int"),
                                          K("num_replicas", _value(2), "count_or_none"),
                                          K("rank", _value(0), "count_or_none")),
    data_io.DataLoader: Call(A("dataset", _value([1.0, 2.0, 3.0]), None),
                             K("batch_size", _value(2), "count_or_none"),
                             K("collate_fn", _value(None), "callable_or_none"),
                             K("num_workers", _value(0), "count"),
                             K("prefetch_factor", _value(2), "positive_int"),
                             K("timeout", _value(0), "count"),
                             K("worker_init_fn", _value(None), "callable_or_none")),
    data_io.get_worker_info: Call(),
    metric.Metric: Call(),
    metric.Accuracy: Call(K("topk", _value((1, 2)), None), K("name", _value(None), "str_or_none")),
    metric.Precision: Call(K("name", _value("precision"), "str")),
    metric.Recall: Call(K("name", _value("recall"), "str")),
    metric.Auc: Call(K("curve", _value("ROC"), "reduction"), K("num_thresholds", _value(15), "count"),
                     K("name", _value("auc"), "str")),
    metric.accuracy: Call(A("input", lambda env: pylayer.ones([2, 3]), "tensor"),
                          A("label", lambda env: pylayer.to_tensor([[0], [1]]), "tensor"),
                          K("k", _value(1), "count")),
})

# ------------------------------------------------------------------ attention and Transformers
CALLS.update({
    nn.MultiHeadAttention: Call(A("embed_dim", _value(8), "positive_int"),
                                A("num_heads", _value(2), "positive_int"),
                                K("dropout", _value(0.0), "probability"),
                                K("kdim", _value(4), "count_or_none"),
                                K("weight_attr", _value(None), "param_attr"),
                                K("bias_attr", _value(None), "param_attr"),
                                extra=[("heads that do not divide embed_dim",
                                        {"num_heads": _value(3)}, ("embed_dim", "num_heads"))]),
    nn.TransformerEncoderLayer: Call(A("d_model", _value(8), "positive_int"),
                                     A("nhead", _value(2), "positive_int"),
                                     A("dim_feedforward", _value(16), "positive_int"),
                                     K("dropout", _value(0.1), "probability"),
                                     K("activation", _value("relu"), "str"),
                                     K("weight_attr", _value(None), "param_attr"),
                                     K("bias_attr", _value(None), "param_attr")),
    nn.TransformerDecoderLayer: Call(A("d_model", _value(8), "positive_int"),
                                     A("nhead", _value(2), "positive_int"),
                                     A("dim_feedforward", _value(16), "positive_int"),
                                     K("dropout", _value(0.1), "probability"),
                                     K("activation", _value("gelu"), "str"),
                                     K("weight_attr", _value(None), "param_attr"),
                                     K("bias_attr", _value(None), "param_attr")),
    nn.TransformerEncoder: Call(A("encoder_layer",
                                  lambda env: nn.TransformerEncoderLayer(8, 2, 16), "layer"),
                                A("num_layers", _value(2), "positive_int"),
                                K("norm", lambda env: nn.LayerNorm(8), "layer_or_none")),
    nn.TransformerDecoder: Call(A("decoder_layer",
                                  lambda env: nn.TransformerDecoderLayer(8, 2, 16), "layer"),
                                A("num_layers", _value(2), "positive_int"),
                                K("norm", lambda env: nn.LayerNorm(8), "layer_or_none")),
    nn.Transformer: Call(K("d_model", _value(8), "positive_int"),
                         K("nhead", _value(2), "positive_int"),
                         K("num_encoder_layers", _value(1), "positive_int"),
                         K("num_decoder_layers", _value(1), "positive_int"),
                         K("dim_feedforward", _value(16), "positive_int"),
                         K("dropout", _value(0.1), "probability"),
                         K("custom_encoder", _value(None), "layer_or_none")),
})

# ------------------------------------------------------- recurrent layers (nn/rnn.py)
CALLS.update({
    nn.RNNCellBase: Call(),
    nn.SimpleRNNCell: Call(A("input_size", _value(3), "size"), A("hidden_size", _value(4), "size"),
                           K("activation", _value("relu"), "reduction"),
                           K("weight_ih_attr", _value(None), "param_attr")),
    nn.LSTMCell: Call(A("input_size", _value(3), "size"), A("hidden_size", _value(4), "size"),
                      K("bias_hh_attr", _value(None), "param_attr"),
                      K("proj_size", _value(2), "count"),
                      extra=[("a projection as wide as the hidden state",
                              {"proj_size": _value(4)}, "proj_size")]),
    nn.GRUCell: Call(A("input_size", _value(3), "size"), A("hidden_size", _value(4), "size"),
                     K("weight_hh_attr", _value(None), "param_attr")),
    nn.RNN: Call(A("cell", lambda env: nn.GRUCell(3, 4), "layer")),
    nn.BiRNN: Call(A("cell_fw", lambda env: nn.GRUCell(3, 4), "layer"),
                   A("cell_bw", lambda env: nn.GRUCell(3, 4), "layer"),
                   extra=[("cells of two input sizes", {"cell_bw": lambda env: nn.GRUCell(2, 4)},
                           ("cell_fw", "cell_bw"))]),
    nn.SimpleRNN: Call(A("input_size", _value(3), "size"), A("hidden_size", _value(4), "size"),
                       K("num_layers", _value(2), "size"),
                       K("direction", _value("bidirect"), "reduction"),
                       K("dropout", _value(0.5), "probability"),
                       K("activation", _value("relu"), "reduction")),
    nn.LSTM: Call(A("input_size", _value(3), "size"), A("hidden_size", _value(4), "size"),
                  K("num_layers", _value(2), "size"), K("proj_size", _value(2), "count"),
                  K("bias_ih_attr", _value(None), "param_attr")),
    nn.GRU: Call(A("input_size", _value(3), "size"), A("hidden_size", _value(4), "size"),
                 K("direction", _value("bidirectional"), "reduction"),
                 K("dropout", _value(0.0), "probability")),
})


# ------------------------------------------------ normalization and dropout layers (normdrop)
CALLS.update({
    nn.BatchNorm: Call(A("num_channels", _value(3), "size"), K("act", _value("relu"), "str_or_none"),
                       K("momentum", _value(0.9), "probability"),
                       K("data_layout", _value("NCHW"), "reduction"),
                       K("dtype", _value("float32"), "dtype_required")),
    nn.BatchNorm3D: Call(A("num_features", _value(3), "size"),
                         K("data_format", _value("NCDHW"), "reduction")),
    nn.SyncBatchNorm: Call(A("num_features", _value(3), "size"),
                           K("epsilon", _value(1e-5), "non_negative"),
                           K("data_format", _value("NCL"), "reduction")),
    nn.SyncBatchNorm.convert_sync_batchnorm: Call(
        A("layer", lambda env: nn.BatchNorm1D(2), "layer")),
    nn.InstanceNorm1D: Call(A("num_features", _value(3), "size"),
                            K("epsilon", _value(1e-5), "non_negative"),
                            K("data_format", _value("NCL"), "reduction")),
    nn.InstanceNorm2D: Call(A("num_features", _value(3), "size"),
                            K("momentum", _value(0.9), "number")),
    nn.InstanceNorm3D: Call(A("num_features", _value(3), "size"),
                            K("data_format", _value("NCDHW"), "reduction")),
    nn.LocalResponseNorm: Call(A("size", _value(3), "count"), K("alpha", _value(1e-4), "number"),
                               K("data_format", _value("NCL"), "reduction")),
    nn.SpectralNorm: Call(A("weight_shape", _value([2, 3]), "shape"), K("dim", _value(1), "int"),
                          K("power_iters", _value(1), "count"),
                          K("eps", _value(1e-12), "non_negative"),
                          extra=[("a dim beyond the weight", {"dim": _value(2)}, "dim")]),
    nn.Dropout2D: Call(K("p", _value(0.5), "probability"),
                       K("data_format", _value("NHWC"), "reduction")),
    nn.Dropout3D: Call(K("p", _value(0.5), "probability"),
                       K("data_format", _value("NDHWC"), "reduction")),
    nn.AlphaDropout: Call(K("p", _value(0.5), "probability")),
    nn.FeatureAlphaDropout: Call(K("p", _value(0.5), "probability")),
})


# ------------------------------------ padding, resampling and pairwise layers (spatial2)
_PAD_LAYERS = {1: (nn.Pad1D, nn.ZeroPad1D, nn.ConstantPad1D, nn.ReflectionPad1D,
                   nn.ReplicationPad1D, nn.CircularPad1D),
               2: (nn.Pad2D, nn.ZeroPad2D, nn.ConstantPad2D, nn.ReflectionPad2D,
                   nn.ReplicationPad2D, nn.CircularPad2D),
               3: (nn.Pad3D, nn.ZeroPad3D, nn.ConstantPad3D, nn.ReflectionPad3D,
                   nn.ReplicationPad3D, nn.CircularPad3D)}
_PAD_FORMATS = {1: "NCL", 2: "NCHW", 3: "NCDHW"}
for _dims, (_pad, _zero, _constant, *_fixed) in _PAD_LAYERS.items():
    _padding = A("padding", _value(1), "count")
    _format = K("data_format", _value(_PAD_FORMATS[_dims]), "reduction")
    CALLS[_pad] = Call(_padding, K("mode", _value("reflect"), "reduction"),
                       K("value", _value(0.0), "number"), _format)
    CALLS[_constant] = Call(_padding, A("value", _value(1.0), "number"), _format)
    for _cls in (_zero, *_fixed):
        CALLS[_cls] = Call(_padding, _format)
CALLS.update({
    nn.Flatten: Call(K("start_axis", _value(1), "int"), K("stop_axis", _value(-1), "int")),
    nn.Unflatten: Call(A("axis", _value(1), "int"), A("shape", _value([2, 3]), "int_list")),
    nn.Upsample: Call(K("size", _value([4, 4]), None), K("mode", _value("nearest"), None)),
    nn.UpsamplingNearest2D: Call(K("scale_factor", _value(2), None)),
    nn.UpsamplingBilinear2D: Call(K("scale_factor", _value(2), None)),
    nn.Bilinear: Call(A("in1_features", _value(3), "size"), A("in2_features", _value(2), "size"),
                      A("out_features", _value(4), "size"),
                      K("weight_attr", _value(None), "param_attr")),
    nn.CosineSimilarity: Call(K("axis", _value(1), "int"), K("eps", _value(1e-8), "number")),
    nn.PairwiseDistance: Call(K("p", _value(2.0), "number"),
                              K("epsilon", _value(1e-6), "number")),
    nn.PixelUnshuffle: Call(A("downscale_factor", _value(2), "size"),
                            K("data_format", _value("NCHW"), "reduction")),
    nn.ChannelShuffle: Call(A("groups", _value(2), "size"),
                            K("data_format", _value("NCHW"), "reduction")),
})


# ------------------------------------------------------------ distribution
from pylayer import distribution  # noqa: E402 - this block is the distribution area's own


def _d64(values):
    return lambda env: pylayer.to_tensor(np.asarray(values, dtype="float64"))


def _params(**values):
    """A distribution's tensor parameters, each a real tensor (hostile: strings, ragged
    lists, complex tensors...)."""
    return [A(name, _d64(v), "real_tensor") for name, v in values.items()]


# A distribution or transform argument has the kind "layer" (strings, None, ints and
# functions are no such objects either), a list of transforms "variables_list" (an empty
# list is a valid chain).
CALLS.update({
    distribution.Distribution: Call(K("batch_shape", _value([2]), "int_list"),
                                    K("event_shape", _value([3]), "int_list")),
    distribution.ExponentialFamily: Call(K("batch_shape", _value([2]), "int_list"),
                                         K("event_shape", _value([]), "int_list")),
    distribution.Normal: Call(*_params(loc=[0.0, 1.0], scale=[1.0, 2.0]),
                              extra=[("parameters that do not broadcast",
                                      {"scale": _d64([1.0, 2.0, 3.0])}, ("loc", "scale"))]),
    distribution.Uniform: Call(*_params(low=[0.0], high=[1.0])),
    distribution.Exponential: Call(*_params(rate=[2.0])),
    distribution.Laplace: Call(*_params(loc=[0.0], scale=[1.0])),
    distribution.Cauchy: Call(*_params(loc=[0.0], scale=[1.0])),
    distribution.Gumbel: Call(*_params(loc=[0.0], scale=[1.0])),
    distribution.LogNormal: Call(*_params(loc=[0.0], scale=[1.0])),
    distribution.Gamma: Call(*_params(concentration=[2.0], rate=[1.0])),
    distribution.Chi2: Call(*_params(df=[3.0])),
    distribution.Beta: Call(*_params(alpha=[2.0], beta=[1.0])),
    distribution.StudentT: Call(*_params(df=[3.0], loc=[0.0], scale=[1.0])),
    distribution.ContinuousBernoulli: Call(
        *_params(probs=[0.3]), K("lims", _value((0.499, 0.501)), None),
        extra=[("limits out of order", {"lims": _value((0.6, 0.4))}, "lims"),
               ("limits that are no pair", {"lims": _value("ab")}, "lims")]),
    distribution.Bernoulli: Call(*_params(probs=[0.3])),
    distribution.Geometric: Call(*_params(probs=[0.3])),
    distribution.Poisson: Call(*_params(rate=[2.0])),
    distribution.Binomial: Call(*_params(total_count=[10.0], probs=[0.3]),
                                extra=[("a fractional count", {"total_count": _d64([2.5])},
                                        "total_count")]),
    distribution.Categorical: Call(*_params(logits=[0.1, 0.2, 0.7]),
                                   extra=[("a 0-D tensor", {"logits": _d64(1.0)}, "logits")]),
    distribution.Multinomial: Call(A("total_count", _value(5), "positive_int"),
                                   *_params(probs=[0.2, 0.8])),
    distribution.Dirichlet: Call(A("concentration", _d64([1.0, 2.0]), "tensor_only"),
                                 extra=[("a 0-D tensor", {"concentration": _d64(1.0)},
                                         "concentration")]),
    distribution.MultivariateNormal: Call(
        *_params(loc=[0.0, 1.0]), K("covariance_matrix", _d64([[2.0, 0.5], [0.5, 1.0]]),
                                    "real_tensor"),
        extra=[("a matrix of the wrong size", {"covariance_matrix": _d64(np.eye(3))},
                "covariance_matrix"),
               ("a matrix that is not positive definite",
                {"covariance_matrix": _d64(-np.eye(2))}, "covariance_matrix")]),
    distribution.LKJCholesky: Call(A("dim", _value(3), "positive_int"),
                                   *_params(concentration=2.0),
                                   A("sample_method", _value("onion"), "reduction"),
                                   extra=[("a dimension of 1", {"dim": _value(1)}, "dim")]),
    distribution.Independent: Call(
        A("base", lambda env: distribution.Normal(pylayer.zeros([2, 3]), pylayer.ones([2, 3])),
          "layer"), A("reinterpreted_batch_rank", _value(1), "positive_int"),
        extra=[("a rank beyond the batch", {"reinterpreted_batch_rank": _value(3)},
                "reinterpreted_batch_rank")]),
    distribution.TransformedDistribution: Call(
        A("base", lambda env: distribution.Normal(0.0, 1.0), "layer"),
        A("transforms", lambda env: [distribution.ExpTransform()], "variables_list")),
    distribution.kl_divergence: Call(A("p", lambda env: distribution.Normal(0.0, 1.0), "layer"),
                                     A("q", lambda env: distribution.Normal(1.0, 2.0), "layer")),
    distribution.register_kl: Call(A("cls_p", _value(distribution.Normal), "layer"),
                                   A("cls_q", _value(distribution.Normal), "layer")),
    distribution.Transform: Call(), distribution.AbsTransform: Call(),
    distribution.ExpTransform: Call(), distribution.SigmoidTransform: Call(),
    distribution.SoftmaxTransform: Call(), distribution.StickBreakingTransform: Call(),
    distribution.TanhTransform: Call(),
    distribution.AffineTransform: Call(A("loc", _d64(0.0), "tensor_only"),
                                       A("scale", _d64(2.0), "tensor_only")),
    distribution.PowerTransform: Call(A("power", _d64(2.0), "tensor_only")),
    distribution.ChainTransform: Call(
        A("transforms", lambda env: [distribution.ExpTransform()], "variables_list")),
    distribution.StackTransform: Call(
        A("transforms", lambda env: [distribution.ExpTransform()], "variables_list"),
        K("axis", _value(0), "axis_setting")),
    distribution.IndependentTransform: Call(
        A("base", lambda env: distribution.ExpTransform(), "layer"),
        A("reinterpreted_batch_rank", _value(1), "positive_int")),
    distribution.ReshapeTransform: Call(
        A("in_event_shape", _value((2, 3)), "int_list"),
        A("out_event_shape", _value((3, 2)), "int_list"),
        extra=[("shapes of different sizes", {"out_event_shape": _value((4,))},
                ("in_event_shape", "out_event_shape"))]),
})


# ------------------------------------------- containers and nn.utils (round 7)
def _with_gradients(env):
    layer = nn.Linear(3, 2)
    layer(f23()).sum().backward()
    env["layer"] = layer


CALLS.update({
    nn.LayerDict: Call(A("sublayers", lambda env: {"a": nn.ReLU()}, "parameters")),
    nn.ParameterList: Call(A("parameters", lambda env: [pylayer.create_parameter(
        [1], "float32")], "parameters")),
    nn.ParameterDict: Call(A("parameters", lambda env: {"a": pylayer.create_parameter(
        [1], "float32")}, "parameters")),
    nn.utils.weight_norm: Call(A("layer", lambda env: nn.Linear(3, 2), "layer"),
                               K("name", _value("weight"), "str"),
                               K("dim", _value(0), "int_axis_or_none")),
    nn.utils.remove_weight_norm: Call(A("layer", lambda env: nn.utils.weight_norm(
        nn.Linear(3, 2)), "layer"), K("name", _value("weight"), "str")),
    nn.utils.spectral_norm: Call(A("layer", lambda env: nn.Linear(3, 2), "layer"),
                                 K("name", _value("weight"), "str"),
                                 K("n_power_iterations", _value(1), "positive_int"),
                                 K("eps", _value(1e-12), "non_negative"),
                                 K("dim", _value(None), "int_axis_or_none")),
    nn.utils.clip_grad_norm_: Call(A("parameters", lambda env: env["layer"].parameters(),
                                     "parameters"),
                                   A("max_norm", _value(1.0), "number"),
                                   K("norm_type", _value(2.0), "number"),
                                   K("error_if_nonfinite", _value(False), None),
                                   setup=_with_gradients,
                                   extra=[("an unsupported norm", {"norm_type": _value(3)},
                                           "norm_type")]),
    nn.utils.clip_grad_value_: Call(A("parameters", lambda env: env["layer"].parameters(),
                                      "parameters"),
                                    A("clip_value", _value(1.0), "non_negative"),
                                    setup=_with_gradients),
    nn.utils.parameters_to_vector: Call(A("parameters", lambda env: nn.Linear(2, 2)
                                          .parameters(), "parameters"),
                                        extra=[("no parameters", {"parameters": _value([])},
                                                "parameters")]),
    nn.utils.vector_to_parameters: Call(A("vec", lambda env: pylayer.ones([6]), "tensor_only"),
                                        A("parameters", lambda env: nn.Linear(2, 2)
                                          .parameters(), "parameters"),
                                        extra=[("a short vector", {"vec": lambda env:
                                                                   pylayer.ones([5])}, "vec"),
                                               ("a 2-D vector", {"vec": lambda env:
                                                                 pylayer.ones([2, 3])}, "vec")]),
    nn.AdaptiveLogSoftmaxWithLoss: Call(A("in_features", _value(8), "positive_int"),
                                        A("n_classes", _value(10), "positive_int"),
                                        A("cutoffs", _value([3, 6]), "int_list"),
                                        K("div_value", _value(2.0), "number"),
                                        extra=[("a cutoff beyond the classes",
                                                {"cutoffs": _value([3, 10])}, "cutoffs")]),
    nn.HSigmoidLoss: Call(A("feature_size", _value(3), "positive_int"),
                          A("num_classes", _value(6), "positive_int")),
    nn.RNNTLoss: Call(K("blank", _value(0), "int"), K("fastemit_lambda", _value(0.001), "number"),
                      K("reduction", _value("sum"), "reduction")),
    nn.CTCLoss: Call(K("blank", _value(0), "int"), K("reduction", _value("sum"), "reduction")),
    optimizer.LBFGS: Call(K("learning_rate", _value(0.5), "non_negative"),
                          K("max_iter", _value(5), "count"),
                          K("max_eval", _value(None), "count_or_none"),
                          K("tolerance_grad", _value(1e-7), "number"),
                          K("tolerance_change", _value(1e-9), "number"),
                          K("history_size", _value(10), "count"),
                          K("line_search_fn", _value("strong_wolfe"), "str_or_none"),
                          K("parameters", lambda env: nn.Linear(3, 2).parameters(), "parameters"),
                          extra=[("an unknown line search", {"line_search_fn": _value("armijo")},
                                  "line_search_fn"),
                                 ("zero iterations", {"max_iter": _value(0)}, "max_iter")]),
})


# ------------------------------------------------------------------ nn.decode
def _beam_decoder(env=None):
    return nn.BeamSearchDecoder(nn.GRUCell(3, 4), 0, 1, 2, embedding_fn=nn.Embedding(5, 3),
                                output_fn=nn.Linear(4, 5))


def _beam_inits(env):
    return pylayer.zeros([2, 4])


CALLS.update({
    nn.decode.Decoder: Call(),
    nn.BeamSearchDecoder: Call(A("cell", lambda env: nn.GRUCell(3, 4), "callable"),
                               A("start_token", _value(0), "count"),
                               A("end_token", _value(1), "count"),
                               A("beam_size", _value(2), "positive_int"),
                               K("embedding_fn", lambda env: nn.Embedding(5, 3),
                                 "callable_or_none"),
                               K("output_fn", lambda env: nn.Linear(4, 5), "callable_or_none")),
    nn.dynamic_decode: Call(A("decoder", _beam_decoder, "layer"), A("inits", _beam_inits, None),
                            K("max_step_num", _value(3), "count_or_none"),
                            K("output_time_major", _value(False), None),
                            K("impute_finished", _value(False), None),
                            K("is_test", _value(False), None),
                            K("return_length", _value(True), None)),
})

# ------------------------------------------- the high-level API (hapi): Model, summary, callbacks
CALLS.update({
    pylayer.Model: Call(A("network", lambda env: nn.Linear(3, 2), "layer"),
                        A("inputs", _value(None), "dict_or_none"),
                        A("labels", _value(None), "dict_or_none")),
    pylayer.summary: Call(A("net", lambda env: nn.Linear(3, 2), "layer"),
                          A("input_size", _value((1, 3)), None),
                          A("dtypes", _value(None), "dtype"), A("input", _value(None), None),
                          extra=[("a string as input_size", {"input_size": _value("spam")},
                                  "input_size"),
                                 ("a negative size", {"input_size": _value((1, -3))},
                                  "input_size"),
                                 ("two unknown dimensions", {"input_size": _value((None, None))},
                                  "input_size"),
                                 ("a list holding a string", {"input_size": _value([(1, 3), "a"])},
                                  "input_size"),
                                 ("a float size", {"input_size": _value((1, 2.5))},
                                  "input_size")]),
    pylayer.flops: Call(A("net", lambda env: nn.Linear(3, 2), "layer"),
                        A("input_size", _value([2, 3]), "shape"),
                        A("custom_ops", _value(None), "dict_or_none"),
                        A("print_detail", _value(False), None)),
    pylayer.callbacks.Callback: Call(),
    pylayer.callbacks.ProgBarLogger: Call(A("log_freq", _value(1), "positive_int"),
                                          A("verbose", _value(2), "count")),
    pylayer.callbacks.ModelCheckpoint: Call(A("save_freq", _value(1), "positive_int"),
                                            A("save_dir", _value(None), "str_or_none")),
    pylayer.callbacks.LRScheduler: Call(A("by_step", _value(True), None),
                                        A("by_epoch", _value(False), None)),
    pylayer.callbacks.EarlyStopping: Call(
        A("monitor", _value("loss"), "str"), A("mode", _value("auto"), None),
        A("patience", _value(0), "count"), A("verbose", _value(1), "count"),
        A("min_delta", _value(0), "number"), A("baseline", _value(None), "number_or_none"),
        A("save_best_model", _value(True), None)),
    pylayer.callbacks.ReduceLROnPlateau: Call(
        A("monitor", _value("loss"), "str"), A("factor", _value(0.1), "number"),
        A("patience", _value(10), "count"), A("verbose", _value(1), "count"),
        A("mode", _value("auto"), None), A("min_delta", _value(1e-4), "number"),
        A("cooldown", _value(0), "count"), A("min_lr", _value(0), "number"),
        extra=[("a factor of 1", {"factor": _value(1.0)}, "factor")]),
})


# ------------------------------------------------------------------ pylayer.amp
from pylayer import amp  # noqa: E402

CALLS.update({
    amp.auto_cast: Call(K("enable", _value(True), None),
                        K("custom_white_list", _value({"exp"}), None),
                        K("custom_black_list", _value(["matmul_v2"]), None),
                        K("level", _value("O2"), "str"), K("dtype", _value("bfloat16"), "dtype"),
                        K("use_promote", _value(False), None),
                        extra=[("an unknown level", {"level": _value("O3")}, "level"),
                               ("a list given as a string", {"custom_white_list": _value("exp")},
                                "custom_white_list"),
                               ("a name on both lists", {"custom_black_list": _value(["exp"])},
                                "custom")]),
    amp.decorate: Call(A("models", lambda env: nn.Linear(2, 2), "layer"),
                       K("optimizers", _value(None), None), K("level", _value("O2"), "str"),
                       K("dtype", _value("bfloat16"), "dtype"),
                       K("save_dtype", _value("float32"), None),
                       K("excluded_layers", _value(nn.ReLU), None),
                       extra=[("an unknown level", {"level": _value("O3")}, "level"),
                              ("an unknown save dtype", {"save_dtype": _value("int8")},
                               "save_dtype"),
                              ("a number to exclude", {"excluded_layers": _value(3)},
                               "excluded_layers")]),
    amp.GradScaler: Call(K("enable", _value(True), None),
                         K("init_loss_scaling", _value(1024.0), "number"),
                         K("incr_ratio", _value(2.0), "number"),
                         K("decr_ratio", _value(0.5), "number"),
                         K("incr_every_n_steps", _value(10), "positive_int"),
                         K("decr_every_n_nan_or_inf", _value(2), "positive_int"),
                         K("use_dynamic_loss_scaling", _value(True), None),
                         extra=[("a ratio below 1", {"incr_ratio": _value(0.5)}, "incr_ratio"),
                                ("a ratio above 1", {"decr_ratio": _value(2.0)}, "decr_ratio")]),
    amp.is_float16_supported: Call(A("device", _value("cpu"), "str_or_none"),
                                   extra=[("another device", {"device": _value("gpu:0")},
                                           "device")]),
    amp.is_bfloat16_supported: Call(A("device", _value("cpu"), "str_or_none"),
                                    extra=[("another device", {"device": _value("gpu:0")},
                                            "device")]),
    amp.is_autocast_enabled: Call(A("device_type", _value(None), None)),
    amp.get_autocast_dtype: Call(A("device_type", _value(None), None)),
    pylayer.autocast: Call(A("device_type", _value("cpu"), None),
                           K("dtype", _value("bfloat16"), "dtype"),
                           K("enabled", _value(True), None), K("cache_enabled", _value(True), None)),
    amp.amp_lists.white_list: Call(),
    amp.amp_lists.black_list: Call(),
})


# ------------------------------------------------------------- paddle.jit
def _saved_model(env):
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "model")
    pylayer.jit.save(nn.Linear(2, 2), path, [static.InputSpec([None, 2])])
    env["saved"] = path


def _model_path(env):
    import os
    import tempfile
    return os.path.join(tempfile.mkdtemp(), "model")


CALLS.update({
    pylayer.jit.to_static: Call(A("function", lambda env: (lambda x: x), "callable_or_none"),
                                K("input_spec", _value(None), "program_or_none")),
    pylayer.jit.not_to_static: Call(A("func", lambda env: (lambda x: x), "callable_or_none")),
    pylayer.jit.ignore_module: Call(A("modules", _value([io]), "program")),
    pylayer.jit.enable_to_static: Call(A("enable_to_static_bool", _value(True), "program")),
    pylayer.jit.set_code_level: Call(K("level", _value(0), "number")),
    pylayer.jit.set_verbosity: Call(K("level", _value(0), "number")),
    pylayer.jit.save: Call(A("layer", lambda env: nn.Linear(2, 2), "program"),
                           A("path", _model_path, "str"),
                           A("input_spec", lambda env: [static.InputSpec([None, 2])],
                             "program_or_none")),
    pylayer.jit.load: Call(A("path", lambda env: env["saved"], "str"), setup=_saved_model),
    pylayer.jit.TranslatedLayer: Call(),
    static.InputSpec: Call(A("shape", _value([None, 3]), "target_shape"),
                           A("dtype", _value("float32"), "dtype"),
                           A("name", _value("x"), "str_or_none")),
})


# ------------------------------------- static control flow, arrays, io, static.nn layers
def _static_images(env):
    _static_net(env)
    env.update(img=static.data("img", [2, 3, 4, 4], "float32"),
               vol=static.data("vol", [1, 2, 3, 3, 3], "float32"),
               ids=static.data("ids", [2, 3], "int64"),
               label=static.data("label", [2, 1], "int64"))


def _static_saved(env):
    import tempfile
    _static_net(env)
    exe = static.Executor()
    exe.run(static.default_startup_program())
    prefix = tempfile.mkdtemp() + "/model"
    program = static.default_main_program()
    static.save(program, prefix)
    static.save_inference_model(prefix + "_infer", [env["x"]], [env["y"]], exe)
    env.update(exe=exe, prefix=prefix, program=program,
               program_bytes=static.serialize_program([env["x"]], [env["y"]]),
               params_bytes=static.serialize_persistables([env["x"]], [env["y"]], exe))


def _zero_index(env):
    return pylayer.zeros([1], "int64")


CALLS.update({
    static.nn.cond: Call(A("pred", lambda env: pylayer.sum(env["x"]) > 0, None),
                         A("true_fn", lambda env: (lambda: env["x"] * 2), "callable_or_none"),
                         A("false_fn", lambda env: (lambda: env["x"]), "callable_or_none"),
                         static=True, setup=_static_net),
    static.nn.while_loop: Call(A("cond", _value(lambda i: i < 3), "callable"),
                               A("body", _value(lambda i: [i + 1]), "callable"),
                               A("loop_vars", lambda env: [_zero_index(env)], None),
                               static=True),
    static.nn.case: Call(A("pred_fn_pairs", lambda env: [(pylayer.sum(env["x"]) > 0,
                                                          lambda: env["x"])], None),
                         K("default", lambda env: (lambda: env["x"] * 2), "callable_or_none"),
                         static=True, setup=_static_net),
    static.nn.switch_case: Call(A("branch_index", _zero_index, None),
                                A("branch_fns", lambda env: {0: lambda: env["x"],
                                                             1: lambda: env["x"] * 2}, None),
                                K("default", _value(None), "callable_or_none"),
                                static=True, setup=_static_net),
    static.create_array: Call(A("dtype", _value("float32"), None),
                              K("initialized_list", _value(None), None)),
    static.array_write: Call(A("x", lambda env: env["x"], None), A("i", _zero_index, None),
                             K("array", _value(None), None), static=True, setup=_static_net),
    static.array_read: Call(A("array", lambda env: static.create_array("float32", [env["x"]]),
                              "program"), A("i", _zero_index, None),
                            static=True, setup=_static_net),
    static.array_length: Call(A("array", lambda env: static.create_array("float32",
                                                                         [env["x"]]),
                                "program"), static=True, setup=_static_net),
    static.create_global_var: Call(A("shape", _value([2]), None),
                                   A("value", _value(1.0), "number"),
                                   A("dtype", _value("float32"), None), static=True),
    static.cpu_places: Call(K("device_count", _value(2), "count_or_none")),
    static.device_guard: Call(K("device", _value("cpu"), "str_or_none")),
    static.name_scope: Call(K("prefix", _value("block"), "str_or_none")),
    static.Print: Call(A("input", lambda env: env["x"], "static_input"),
                       K("summarize", _value(4), "count_or_none"), static=True,
                       setup=_static_net),
    static.accuracy: Call(A("input", lambda env: env["y"] * env["x"], None),
                          A("label", lambda env: env["label"], None), static=True,
                          setup=_static_images),
    static.ExponentialMovingAverage: Call(K("decay", _value(0.9), "number"), static=True,
                                          setup=_static_net),
    static.save: Call(A("program", lambda env: env["program"], "program"),
                      A("model_path", lambda env: env["prefix"], "str"), static=True,
                      setup=_static_saved),
    static.load: Call(A("program", lambda env: env["program"], "program"),
                      A("model_path", lambda env: env["prefix"], "str"), static=True,
                      setup=_static_saved),
    static.load_program_state: Call(A("model_path", lambda env: env["prefix"], "str"),
                                    static=True, setup=_static_saved),
    static.set_program_state: Call(A("program", lambda env: env["program"], "program"),
                                   A("state_dict", lambda env: {}, "state_dict"),
                                   static=True, setup=_static_saved),
    static.normalize_program: Call(A("program", lambda env: env["program"], "program"),
                                   A("feed_vars", lambda env: [env["x"]], "variables_list"),
                                   A("fetch_vars", lambda env: [env["y"]], "variables_list"),
                                   static=True, setup=_static_saved),
    static.serialize_program: Call(A("feed_vars", lambda env: [env["x"]], "variables_list"),
                                   A("fetch_vars", lambda env: [env["y"]], "variables_list"),
                                   static=True, setup=_static_saved),
    static.serialize_persistables: Call(
        A("feed_vars", lambda env: [env["x"]], "variables_list"),
        A("fetch_vars", lambda env: [env["y"]], "variables_list"),
        A("executor", lambda env: env["exe"], None), static=True, setup=_static_saved),
    static.deserialize_program: Call(A("data", lambda env: env["program_bytes"], "program"),
                                     static=True, setup=_static_saved),
    static.deserialize_persistables: Call(
        A("program", lambda env: env["program"], "program"),
        A("data", lambda env: env["params_bytes"], "program"),
        A("executor", lambda env: env["exe"], None), static=True, setup=_static_saved),
    static.save_to_file: Call(A("path", lambda env: env["prefix"] + ".bin", "str"),
                              A("content", _value(b"abc"), "program"), static=True,
                              setup=_static_saved),
    static.load_from_file: Call(A("path", lambda env: env["prefix"] + ".pdparams", "str"),
                                static=True, setup=_static_saved),
    static.save_inference_model: Call(
        A("path_prefix", lambda env: env["prefix"] + "_more", "str"),
        A("feed_vars", lambda env: [env["x"]], "variables_list"),
        A("fetch_vars", lambda env: [env["y"]], "variables_list"),
        A("executor", lambda env: env["exe"], "program"), static=True, setup=_static_saved),
    static.load_inference_model: Call(
        A("path_prefix", lambda env: env["prefix"] + "_infer", "str"),
        A("executor", lambda env: env["exe"], "program"), static=True, setup=_static_saved),
    static.nn.conv2d: Call(A("input", lambda env: env["img"], "static_input"),
                           A("num_filters", _value(2), "positive_int"),
                           A("filter_size", _value(3), None), static=True,
                           setup=_static_images),
    static.nn.conv3d: Call(A("input", lambda env: env["vol"], "static_input"),
                           A("num_filters", _value(2), "positive_int"),
                           A("filter_size", _value(2), None), static=True,
                           setup=_static_images),
    static.nn.conv2d_transpose: Call(A("input", lambda env: env["img"], "static_input"),
                                     A("num_filters", _value(2), "positive_int"),
                                     K("filter_size", _value(3), None), static=True,
                                     setup=_static_images),
    static.nn.conv3d_transpose: Call(A("input", lambda env: env["vol"], "static_input"),
                                     A("num_filters", _value(2), "positive_int"),
                                     K("filter_size", _value(2), None), static=True,
                                     setup=_static_images),
    static.nn.batch_norm: Call(A("input", lambda env: env["img"], "static_input"),
                               K("momentum", _value(0.9), "number"), static=True,
                               setup=_static_images),
    static.nn.layer_norm: Call(A("input", lambda env: env["img"], "static_input"),
                               K("begin_norm_axis", _value(1), "int"), static=True,
                               setup=_static_images),
    static.nn.group_norm: Call(A("input", lambda env: env["img"], "static_input"),
                               A("groups", _value(3), "positive_int"), static=True,
                               setup=_static_images),
    static.nn.instance_norm: Call(A("input", lambda env: env["img"], "static_input"),
                                  K("epsilon", _value(1e-5), "number"), static=True,
                                  setup=_static_images),
    static.nn.embedding: Call(A("input", lambda env: env["ids"], "static_input"),
                              A("size", _value([10, 4]), None), static=True,
                              setup=_static_images),
    static.nn.prelu: Call(A("x", lambda env: env["img"], "static_input"),
                          A("mode", _value("channel"), None), static=True,
                          setup=_static_images),
    static.nn.bilinear_tensor_product: Call(A("x", lambda env: env["x"], "static_input"),
                                            A("y", lambda env: env["x"], "static_input"),
                                            A("size", _value(2), "positive_int"),
                                            static=True, setup=_static_images),
    static.nn.spectral_norm: Call(A("weight", lambda env: env["x"], "static_input"),
                                  K("power_iters", _value(2), "count"), static=True,
                                  setup=_static_images),
})
CALLS.update({
    static.auc: Call(A("input", lambda env: pylayer.nn.functional.softmax(env["y"] * env["x"]),
                       "static_input"),
                     A("label", lambda env: env["label"], "static_input"),
                     K("num_thresholds", _value(10), "positive_int"), static=True,
                     setup=_static_images),
})
CALLS.update({
    static.BuildStrategy: Call(),
    static.CompiledProgram: Call(A("program_or_graph", lambda env: static.Program(), "program"),
                                 K("build_strategy", _value(None), "program_or_none")),
})
CALLS.update({
    static.ctr_metric_bundle: Call(A("input", lambda env: env["y"], "static_input"),
                                   A("label", lambda env: env["y"] * 0.5, "static_input"),
                                   static=True, setup=_static_net),
})
CALLS.update({
    extend.write_atomically: Call(
        A("path", lambda env: __import__("tempfile").mkdtemp() + "/blob", "str"),
        A("data", _value(b"abc"), "str")),
})
CALLS.update({
    static.nn.row_conv: Call(A("input", lambda env: env["x"], "static_input"),
                             A("future_context_size", _value(1), "count"), static=True,
                             setup=_static_net),
})
CALLS.update({
    static.WeightNormParamAttr: Call(K("dim", _value(0), "axis_setting"),
                                     K("name", _value("wn"), "str_or_none")),
})
# pylayer.distributed (issue 35), called in a world of one process.
import pylayer.distributed as _dist                      # noqa: E402

_ONES = lambda env: pylayer.ones([2])                   # noqa: E731
_LIST = lambda env: []                                  # noqa: E731


def _SENT(env):
    """A tensor to receive into, after a message that fits it was sent."""
    _dist.send(pylayer.ones([2]), 0)
    return pylayer.zeros([2])


def _spawned():
    pass


def _SENT_OBJECTS(env):
    _dist.send_object_list([1], 0)
    return [None]


_DIST_CALLS = {
    _dist.DataParallel: Call(A("layers", lambda env: nn.Linear(2, 2), "layer")),
    _dist.ParallelEnv: Call(), _dist.ReduceOp: Call(),
    _dist.init_parallel_env: Call(), _dist.is_initialized: Call(),
    _dist.is_available: Call(), _dist.get_rank: Call(), _dist.get_world_size: Call(),
    _dist.get_backend: Call(), _dist.barrier: Call(), _dist.destroy_process_group: Call(),
    _dist.get_group: Call(A("id", _value(0), None)),
    _dist.new_group: Call(A("ranks", _value([0]), None)),
    _dist.all_reduce: Call(A("tensor", _ONES, "tensor_only")),
    _dist.reduce: Call(A("tensor", _ONES, "tensor_only"), A("dst", _value(0), "int")),
    _dist.broadcast: Call(A("tensor", _ONES, "tensor_only"), A("src", _value(0), "int")),
    _dist.all_gather: Call(A("tensor_list", _LIST, None), A("tensor", _ONES, "tensor_only")),
    _dist.all_gather_object: Call(A("object_list", _LIST, None), A("obj", _value(1), None)),
    _dist.broadcast_object_list: Call(A("object_list", lambda env: [1], None),
                                      A("src", _value(0), "int")),
    _dist.reduce_scatter: Call(A("tensor", _ONES, "tensor_only"),
                               A("tensor_list", lambda env: [pylayer.ones([2])], None)),
    _dist.scatter: Call(A("tensor", _ONES, "tensor_only"),
                        A("tensor_list", lambda env: [pylayer.ones([2])], None),
                        A("src", _value(0), "int")),
    _dist.scatter_object_list: Call(A("out_object_list", _LIST, None),
                                    A("in_object_list", lambda env: [1], None),
                                    A("src", _value(0), "int")),
    _dist.gather: Call(A("tensor", _ONES, "tensor_only"), A("gather_list", _LIST, None),
                       A("dst", _value(0), "int")),
    _dist.alltoall: Call(A("out_tensor_list", _LIST, None),
                         A("in_tensor_list", lambda env: [pylayer.ones([2])], None)),
    _dist.alltoall_single: Call(A("out_tensor", _ONES, "tensor_only"),
                                A("in_tensor", _ONES, "tensor_only")),
    _dist.wait: Call(A("tensor", _ONES, "tensor_only")),
    # point to point: a world of one sends to itself; a receive takes what was sent
    _dist.send: Call(A("tensor", _ONES, "tensor_only"), A("dst", _value(0), "int")),
    _dist.recv: Call(A("tensor", _SENT, "tensor_only"), A("src", _value(0), None)),
    _dist.isend: Call(A("tensor", _ONES, "tensor_only"), A("dst", _value(0), "int")),
    _dist.irecv: Call(A("tensor", _SENT, "tensor_only"), A("src", _value(0), None)),
    _dist.send_object_list: Call(A("object_list", lambda env: [1], None),
                                 A("dst", _value(0), None)),
    _dist.recv_object_list: Call(A("object_list", _SENT_OBJECTS, None),
                                 A("src", _value(0), None)),
    _dist.P2POp: Call(A("op", _value(_dist.isend), None), A("tensor", _ONES, "tensor_only"),
                      A("peer", _value(0), "int")),
    _dist.batch_isend_irecv: Call(A("p2p_op_list", lambda env: [
        _dist.P2POp(_dist.isend, pylayer.ones([2]), 0),
        _dist.P2POp(_dist.irecv, pylayer.zeros([2]), 0)], None)),
    _dist.spawn: Call(A("func", _value(_spawned), "callable"), K("nprocs", _value(1), None)),
}
# round 10 (ddp): the stream forms, process groups shut down, the checkpoint, launch
import pylayer.distributed.stream as _stream              # noqa: E402


def _launch_dry_run(env):
    """launch() reads the command line: a dry run prints the mpiexec command."""
    import sys
    sys.argv[1:] = ["--dry_run", "--mpiexec", "mpiexec", "--nproc_per_node", "1", "job.py"]


def _checkpoint(env):
    import tempfile
    _dist.init_parallel_env()
    env["path"] = tempfile.mkdtemp()
    _dist.save_state_dict({"w": pylayer.ones([2])}, env["path"])


_DIST_CALLS.update({
    _stream.all_reduce: Call(A("tensor", _ONES, "tensor_only")),
    _stream.all_gather: Call(A("tensor_or_tensor_list", _LIST, None),
                             A("tensor", _ONES, "tensor_only")),
    _stream.alltoall: Call(A("out_tensor_or_tensor_list", _LIST, None),
                           A("in_tensor_or_tensor_list", lambda env: [pylayer.ones([2])], None)),
    _stream.alltoall_single: Call(A("out_tensor", _ONES, "tensor_only"),
                                  A("in_tensor", _ONES, "tensor_only")),
    _stream.broadcast: Call(A("tensor", _ONES, "tensor_only"), A("src", _value(0), "int")),
    _stream.reduce: Call(A("tensor", _ONES, "tensor_only"), A("dst", _value(0), "int")),
    _stream.reduce_scatter: Call(A("tensor", _ONES, "tensor_only"),
                                 A("tensor_or_tensor_list", _ONES, None)),
    _stream.scatter: Call(A("tensor", _ONES, "tensor_only"),
                          A("tensor_or_tensor_list", _ONES, None), A("src", _value(0), "int")),
    _stream.gather: Call(A("tensor", _ONES, "tensor_only"), A("gather_list", _LIST, None),
                         A("dst", _value(0), "int")),
    _stream.send: Call(A("tensor", _ONES, "tensor_only"), A("dst", _value(0), "int")),
    _stream.recv: Call(A("tensor", _SENT, "tensor_only"), A("src", _value(0), None)),
    _dist.shutdown_process_group: Call(), _dist.restart_process_group: Call(),
})


def _start_world(env):
    """Paddle's collectives need init_parallel_env first (a world of one here)."""
    _dist.init_parallel_env()


for _call in _DIST_CALLS.values():
    _call.setup = _start_world
CALLS.update(_DIST_CALLS)
CALLS.update({
    _dist.launch: Call(setup=_launch_dry_run),
    _dist.save_state_dict: Call(A("state_dict", lambda env: {"w": pylayer.ones([2])}, None),
                                A("path", lambda env: env["path"], None), setup=_checkpoint),
    _dist.load_state_dict: Call(A("state_dict", lambda env: {"w": pylayer.zeros([2])}, None),
                                A("path", lambda env: env["path"], None), setup=_checkpoint),
})

# --------------------------------- static.nn.sparse_embedding and nce (staticnn3)
CALLS.update({
    static.nn.sparse_embedding: Call(A("input", lambda env: env["label"], "static_input"),
                                     A("size", _value([10, 4]), None),
                                     K("padding_idx", _value(0), None), static=True,
                                     setup=_static_images),
    static.nn.nce: Call(A("input", lambda env: env["x"], "static_input"),
                        A("label", lambda env: env["label"], "static_input"),
                        A("num_total_classes", _value(5), "positive_int"),
                        K("num_neg_samples", _value(3), "number_or_none"),
                        K("seed", _value(1), "count"), static=True, setup=_static_images),
})

# --------------------------------- pylayer.text and pylayer.audio
def _wav_path(env=None):
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "tone.wav")
    pylayer.audio.save(path, pylayer.zeros([1, 8]), 8000)
    return path


CALLS.update({
    pylayer.audio.info: Call(A("filepath", _wav_path, "path")),
    pylayer.audio.load: Call(A("filepath", _wav_path, "path"),
                             K("frame_offset", _value(0), "count"),
                             K("num_frames", _value(-1), "int"),
                             extra=[("an offset beyond the file", {"frame_offset": _value(9)},
                                     "frame_offset")]),
    pylayer.audio.save: Call(A("filepath", lambda env: os.path.join(env["dir"], "out.wav"), "path"),
                             A("src", lambda env: pylayer.zeros([1, 4]), "tensor_only"),
                             A("sample_rate", _value(8000), "positive_int"),
                             K("bits_per_sample", _value(16), None),
                             setup=lambda env: env.update(dir=__import__("tempfile").mkdtemp()),
                             extra=[("8-bit samples", {"bits_per_sample": _value(8)},
                                     "bits_per_sample"),
                                    ("a 1-D waveform", {"src": lambda env: pylayer.zeros([4])},
                                     "src")]),
    pylayer.text.ViterbiDecoder: Call(
        A("transitions", lambda env: pylayer.rand([3, 3]), "float_tensor"),
        K("include_bos_eos_tag", _value(True), None),
        extra=[("a non-square matrix", {"transitions": lambda env: pylayer.rand([3, 2])},
                "transitions"),
               ("a string flag", {"include_bos_eos_tag": _value("yes")},
                "include_bos_eos_tag")]),
})


# ------------- paddle.framework, paddle.device, paddle.utils, incubate, LazyGuard (breadth)
from pylayer import device as _device, framework as _framework, utils as _utils  # noqa: E402

_A_GPU = ("a GPU", {"device": _value("gpu")}, "device")
CALLS.update({
    pylayer.LazyGuard: Call(),
    _device.device: Call(K("device", _value("cpu"), None),
                         extra=[_A_GPU, ("an index other than 0", {"device": _value(2)}, "device"),
                                ("a float", {"device": _value(1.5)}, "device")]),
    _device.device_guard: Call(A("device", _value("cpu"), "device")),
    _device.get_all_device_type: Call(), _device.get_available_device: Call(),
    _device.get_cudnn_version: Call(), _device.is_available: Call(),
    _device.is_compiled_with_cinn: Call(), _device.is_compiled_with_distribute: Call(),
    _device.is_compiled_with_ipu: Call(), _device.is_compiled_with_rocm: Call(),
    _device.is_compiled_with_xpu: Call(),
    _device.is_compiled_with_custom_device: Call(A("device_type", _value("npu"), "str")),
    _device.is_bf16_supported: Call(K("including_emulation", _value(True), None)),
    _device.get_rng_state: Call(K("device", _value(None), None), extra=[_A_GPU]),
    _device.set_rng_state: Call(A("new_state", lambda env: _device.get_rng_state(), "state_dict"),
                                K("device", _value(None), None), extra=[_A_GPU]),
    _device.manual_seed: Call(A("seed", _value(3), "int")),
    _device.synchronize: Call(K("device", _value(None), None),
                              extra=[_A_GPU, ("an int", {"device": _value(3)}, "device")]),
    _framework.is_parameter: Call(A("var", lambda env: pylayer.ones([1]), None)),
    _framework.is_persistable: Call(A("var", lambda env: pylayer.ones([1]), None),
                                    extra=[("a string", {"var": _value("w")}, "var"),
                                           ("None", {"var": _value(None)}, "var")]),
    incubate.LookAhead: Call(
        A("inner_optimizer", lambda env: optimizer.SGD(
            0.1, parameters=nn.Linear(2, 2).parameters()), None),
        K("alpha", _value(0.5), "probability"), K("k", _value(2), "positive_int"),
        extra=[("None", {"inner_optimizer": _value(None)}, "inner_optimizer")]),
    incubate.ModelAverage: Call(
        A("average_window_rate", _value(0.15), "number"),
        K("parameters", lambda env: nn.Linear(2, 2).parameters(), "parameters"),
        K("min_average_window", _value(2), None), K("max_average_window", _value(4), None),
        extra=[("a window that is a string", {"min_average_window": _value("2")},
                "min_average_window"),
               ("a window that is a float", {"max_average_window": _value(4.5)},
                "max_average_window")]),
    _utils.deprecated: Call(K("update_to", _value("paddle.add"), "str"),
                            K("since", _value("2.0"), "str"), K("reason", _value(""), "str"),
                            K("level", _value(1), None),
                            extra=[("level 3", {"level": _value(3)}, "level"),
                                   ("a name outside paddle", {"update_to": _value("torch.add")},
                                    "update_to")]),
    _utils.require_version: Call(A("min_version", _value("2.0"), "str"),
                                 K("max_version", _value(None), "str_or_none"),
                                 extra=[("not a version", {"min_version": _value("2.x")},
                                         "min_version")]),
    _utils.run_check: Call(),
    incubate.autograd.grad: Call(A("outputs", lambda env: env["loss"], "variable"),
                                 A("inputs", lambda env: env["w"], "variable"),
                                 K("grad_outputs", _value(None), "variables_or_none"),
                                 static=True, setup=_static_net),
    incubate.autograd.forward_grad: Call(
        A("outputs", lambda env: env["loss"], "variable"),
        A("inputs", lambda env: env["w"], "variable"),
        K("grad_inputs", _value(None), "variables_or_none"), static=True,
        setup=lambda env: (_static_net(env), incubate.autograd.enable_prim())),
    incubate.graph_sample_neighbors: Call(
        A("row", lambda env: pylayer.to_tensor([1, 2, 0]), "int_tensor"),
        A("colptr", lambda env: pylayer.to_tensor([0, 2, 3, 3]), "int_tensor"),
        A("input_nodes", lambda env: pylayer.to_tensor([0, 1]), "int_tensor"),
        K("sample_size", _value(1), "count_or_none"), K("return_eids", _value(False), None),
        extra=[("a node out of range", {"input_nodes": lambda env: pylayer.to_tensor([5])},
                "input_nodes"),
               ("a colptr that does not end at the edges", {
                   "colptr": lambda env: pylayer.to_tensor([0, 1, 2, 2])}, "colptr"),
               ("return_eids without eids", {"return_eids": _value(True)}, "eids")]),
    incubate.graph_reindex: Call(
        A("x", lambda env: pylayer.to_tensor([0, 1]), "int_tensor"),
        A("neighbors", lambda env: pylayer.to_tensor([3, 0, 2]), "int_tensor"),
        A("count", lambda env: pylayer.to_tensor([2, 1], dtype="int32"), "int_tensor"),
        K("flag_buffer_hashtable", _value(False), None),
        extra=[("counts that do not add up", {
            "count": lambda env: pylayer.to_tensor([2, 2], dtype="int32")}, "count"),
               ("the hash table flag without buffers", {"flag_buffer_hashtable": _value(True)},
                ("value_buffer", "index_buffer"))]),
    incubate.graph_khop_sampler: Call(
        A("row", lambda env: pylayer.to_tensor([1, 2, 0]), "int_tensor"),
        A("colptr", lambda env: pylayer.to_tensor([0, 2, 3, 3]), "int_tensor"),
        A("input_nodes", lambda env: pylayer.to_tensor([0]), "int_tensor"),
        A("sample_sizes", _value([-1, 1]), "int_list"), K("return_eids", _value(False), None),
        extra=[("a node out of range", {"input_nodes": lambda env: pylayer.to_tensor([7])},
                "input_nodes"),
               ("a size below -1", {"sample_sizes": _value([-2])}, "sample_sizes"),
               ("return_eids without eids", {"return_eids": _value(True)}, "sorted_eids")]),
    incubate.autograd.enable_prim: Call(static=True),
    incubate.autograd.disable_prim: Call(static=True),
    _utils.try_import: Call(A("module_name", _value("json"), "str"),
                            K("err_msg", _value(None), "str_or_none")),
})
# ------------------------------- pylayer.distributed.fleet (issue 35), a world of one process
from pylayer.distributed import fleet as _fleet                         # noqa: E402
from pylayer.distributed.fleet import data_generator as _datagen       # noqa: E402
from pylayer.distributed.fleet.layers import mpu as _mpu               # noqa: E402


def _fleet_started(env):
    _fleet.init(is_collective=True)


def _needs_grad(env):
    x = f23()
    x.stop_gradient = False
    return x


def _static_ids(env):
    _fleet.init(is_collective=True)
    env["x"] = static.data("x", [-1, 3], "float32")


_FLEET_CALLS = {
    _dist.ParallelMode: Call(),
    _dist.split: Call(A("x", lambda env: env["x"], "static_input"),
                      A("size", _value((3, 4)), "int_list"),
                      A("operation", _value("linear"), "str"),
                      K("axis", _value(1), "int"), K("num_partitions", _value(1), "positive_int"),
                      static=True, setup=_static_ids),
    _fleet.CommunicateTopology: Call(A("hybrid_group_names", _value(["data", "model"]), "names"),
                                     A("dims", _value([1, 1]), "int_list")),
    _fleet.DistributedStrategy: Call(), _fleet.Fleet: Call(), _fleet.Role: Call(),
    _fleet.UtilBase: Call(),
    _fleet.HybridCommunicateGroup: Call(A("topology", lambda env: _fleet.CommunicateTopology(),
                                          "layer"), setup=_start_world),
    _fleet.PaddleCloudRoleMaker: Call(K("is_collective", _value(True), None)),
    _fleet.UserDefinedRoleMaker: Call(K("is_collective", _value(True), None),
                                      K("current_id", _value(0), "count"),
                                      K("worker_num", _value(1), "count_or_none")),
    _fleet.MultiSlotDataGenerator: Call(), _fleet.MultiSlotStringDataGenerator: Call(),
    _datagen.DataGenerator: Call(),
    _mpu.ColumnParallelLinear: Call(A("in_features", _value(3), "size"),
                                    A("out_features", _value(2), "size"),
                                    K("has_bias", _value(True), None), setup=_fleet_started),
    _mpu.RowParallelLinear: Call(A("in_features", _value(3), "size"),
                                 A("out_features", _value(2), "size"), setup=_fleet_started),
    _mpu.VocabParallelEmbedding: Call(A("num_embeddings", _value(6), "size"),
                                      A("embedding_dim", _value(2), "size"),
                                      setup=_fleet_started),
    _mpu.ParallelCrossEntropy: Call(K("ignore_index", _value(-100), "int"), setup=_fleet_started),
    _mpu.RNGStatesTracker: Call(), _mpu.get_rng_state_tracker: Call(),
    _mpu.model_parallel_random_seed: Call(A("seed", _value(5), "count_or_none"),
                                                   setup=_fleet_started),
    _mpu.dropout: Call(A("x", f23, "float_tensor"), K("p", _value(0.5), "probability")),
    _fleet.utils.recompute: Call(A("function", lambda env: nn.Linear(3, 2), "callable"),
                                 A("input", _needs_grad, None)),
}
CALLS.update(_FLEET_CALLS)
# ------------------------------------------ vision.transforms (pylayer/vision/transforms)
from pylayer.vision import transforms as _vt  # noqa: E402
from pylayer.vision.transforms import functional as _vf  # noqa: E402

_IMG = lambda env: np.arange(48, dtype=np.uint8).reshape(4, 4, 3)      # noqa: E731
_TIMG = lambda env: pylayer.rand([3, 4, 4])                            # noqa: E731
_CORNERS = lambda env: [[0, 0], [3, 0], [3, 3], [0, 3]]                # noqa: E731
_MOVED = lambda env: [[1, 0], [3, 1], [3, 3], [0, 2]]                  # noqa: E731
_STR = lambda value: K("interpolation", _value(value), "str")          # noqa: E731
CALLS.update({
    _vt.to_tensor: Call(A("pic", _IMG, "tensor"), K("data_format", _value("CHW"), "str")),
    _vt.normalize: Call(A("img", _IMG, "tensor"), A("mean", _value([1, 2, 3]), "number"),
                        A("std", _value([1, 2, 3]), "number"),
                        K("data_format", _value("HWC"), "str"), K("to_rgb", _value(False), None),
                        extra=[("a zero std", {"std": _value([1, 0, 1])}, "std")]),
    _vt.resize: Call(A("img", _IMG, "tensor"), A("size", _value(2), "positive_int"),
                     _STR("bilinear")),
    _vt.crop: Call(A("img", _IMG, "tensor"), A("top", _value(1), "count"),
                   A("left", _value(1), "count"), A("height", _value(2), "positive_int"),
                   A("width", _value(2), "positive_int")),
    _vt.center_crop: Call(A("img", _IMG, "tensor"), A("output_size", _value(2), "positive_int"),
                          extra=[("a box larger than the image", {"output_size": _value(9)},
                                  "output_size")]),
    _vt.pad: Call(A("img", _IMG, "tensor"), A("padding", _value([1, 2]), "int_list"),
                  K("fill", _value(0), "number"), K("padding_mode", _value("constant"), "str"),
                  extra=[("three paddings", {"padding": _value([1, 2, 3])}, "padding"),
                         ("reflecting past the image",
                          {"padding": _value(5), "padding_mode": _value("reflect")},
                          "padding")]),
    _vt.hflip: Call(A("img", _IMG, "tensor")),
    _vt.vflip: Call(A("img", _TIMG, "tensor")),
    _vt.rotate: Call(A("img", _IMG, "tensor"), A("angle", _value(30), "number"),
                     _STR("bilinear"), K("expand", _value(True), None),
                     K("center", _value((1, 2)), "number_or_none"),
                     K("fill", _value(0), "number")),
    _vt.affine: Call(A("img", _TIMG, "tensor"), A("angle", _value(30), "number"),
                     A("translate", _value((1, 0)), "number"), A("scale", _value(1.2), "number"),
                     A("shear", _value(5), "number"), _STR("nearest"),
                     K("fill", _value(0), "number"), K("center", _value(None), "number_or_none"),
                     extra=[("a zero scale", {"scale": _value(0.0)}, "scale")]),
    _vt.perspective: Call(A("img", _IMG, "tensor"), A("startpoints", _CORNERS, "number"),
                          A("endpoints", _MOVED, "number"), _STR("nearest"),
                          K("fill", _value(0), "number"),
                          extra=[("three points", {"endpoints": _value([[0, 0]] * 3)},
                                  "endpoints")]),
    _vt.erase: Call(A("img", _TIMG, "tensor"), A("i", _value(1), "count"),
                    A("j", _value(1), "count"), A("h", _value(2), "count"),
                    A("w", _value(2), "count"), A("v", _value(0.0), "number"),
                    K("inplace", _value(False), None)),
    _vt.to_grayscale: Call(A("img", _IMG, "tensor"),
                           K("num_output_channels", _value(3), "int")),
    _vt.adjust_brightness: Call(A("img", _IMG, "tensor"),
                                A("brightness_factor", _value(1.5), "non_negative")),
    _vt.adjust_contrast: Call(A("img", _TIMG, "tensor"),
                              A("contrast_factor", _value(1.5), "non_negative")),
    _vf.adjust_saturation: Call(A("img", _IMG, "tensor"),
                                A("saturation_factor", _value(1.5), "non_negative")),
    _vt.adjust_hue: Call(A("img", _IMG, "tensor"), A("hue_factor", _value(0.2), "number"),
                         extra=[("a factor above 0.5", {"hue_factor": _value(0.7)},
                                 "hue_factor")]),
    _vt.BaseTransform: Call(K("keys", _value(("image",)), "names_or_none")),
    _vt.Compose: Call(A("transforms", _value([_vt.hflip]), "callable")),
    _vt.ToTensor: Call(K("data_format", _value("HWC"), "str"),
                       K("keys", _value(None), "names_or_none")),
    _vt.Normalize: Call(K("mean", _value(0.5), "number"), K("std", _value([1, 2, 3]), "number"),
                        K("data_format", _value("CHW"), "str"), K("to_rgb", _value(False), None),
                        K("keys", _value(None), "names_or_none")),
    _vt.Resize: Call(A("size", _value(4), "positive_int"), _STR("bicubic"),
                     K("keys", _value(None), "names_or_none")),
    _vt.RandomResizedCrop: Call(A("size", _value(4), "positive_int"),
                                K("scale", _value((0.5, 1.0)), "number"),
                                K("ratio", _value((0.75, 1.25)), "number"), _STR("bilinear"),
                                K("keys", _value(None), "names_or_none"),
                                extra=[("a reversed scale", {"scale": _value((1.0, 0.5))},
                                        "scale")]),
    _vt.CenterCrop: Call(A("size", _value(4), "positive_int"),
                         K("keys", _value(None), "names_or_none")),
    _vt.RandomCrop: Call(A("size", _value(4), "positive_int"),
                         K("padding", _value(1), "count_or_none"),
                         K("pad_if_needed", _value(False), None), K("fill", _value(0), "number"),
                         K("padding_mode", _value("edge"), "str"),
                         K("keys", _value(None), "names_or_none")),
    _vt.RandomHorizontalFlip: Call(K("prob", _value(0.5), "probability"),
                                   K("keys", _value(None), "names_or_none")),
    _vt.RandomVerticalFlip: Call(K("prob", _value(0.5), "probability"),
                                 K("keys", _value(None), "names_or_none")),
    _vt.Transpose: Call(K("order", _value((2, 0, 1)), "int_list"),
                        K("keys", _value(None), "names_or_none")),
    _vt.Pad: Call(A("padding", _value(2), "int_list"), K("fill", _value((1, 2, 3)), "number"),
                  K("padding_mode", _value("symmetric"), "str"),
                  K("keys", _value(None), "names_or_none")),
    _vt.RandomRotation: Call(A("degrees", _value(30), "number"), _STR("nearest"),
                             K("expand", _value(False), None),
                             K("center", _value(None), "number_or_none"),
                             K("fill", _value(0), "number"),
                             K("keys", _value(None), "names_or_none")),
    _vt.RandomAffine: Call(A("degrees", _value((-10, 10)), "number"),
                           K("translate", _value((0.1, 0.1)), "number_or_none"),
                           K("scale", _value((0.9, 1.1)), "number_or_none"),
                           K("shear", _value(5), "number_or_none"), _STR("nearest"),
                           K("fill", _value(0), "number_or_none"),
                           K("center", _value(None), "number_or_none"),
                           K("keys", _value(None), "names_or_none"),
                           extra=[("a translation above 1", {"translate": _value((2, 0))},
                                   "translate")]),
    _vt.RandomPerspective: Call(K("prob", _value(0.5), "probability"),
                                K("distortion_scale", _value(0.5), "probability"),
                                _STR("nearest"), K("fill", _value(0), "number"),
                                K("keys", _value(None), "names_or_none")),
    _vt.RandomErasing: Call(K("prob", _value(0.5), "probability"),
                            K("scale", _value((0.02, 0.33)), "number"),
                            K("ratio", _value((0.3, 3.3)), "number"),
                            K("value", _value(0), "number"), K("inplace", _value(False), None),
                            K("keys", _value(None), "names_or_none")),
    _vt.Grayscale: Call(K("num_output_channels", _value(1), "int"),
                        K("keys", _value(None), "names_or_none")),
    _vt.ColorJitter: Call(K("brightness", _value(0.4), "non_negative_or_none"),
                          K("contrast", _value(0.4), "non_negative_or_none"),
                          K("saturation", _value(0.4), "non_negative_or_none"),
                          K("hue", _value(0.1), "non_negative_or_none"),
                          K("keys", _value(None), "names_or_none")),
    _vt.BrightnessTransform: Call(A("value", _value(0.4), "non_negative"),
                                  K("keys", _value(None), "names_or_none")),
    _vt.ContrastTransform: Call(A("value", _value(0.4), "non_negative"),
                                K("keys", _value(None), "names_or_none")),
    _vt.SaturationTransform: Call(A("value", _value(0.4), "non_negative"),
                                  K("keys", _value(None), "names_or_none")),
    _vt.HueTransform: Call(A("value", _value(0.1), "non_negative"),
                           K("keys", _value(None), "names_or_none"),
                           extra=[("a value above 0.5", {"value": _value(0.7)}, "value")]),
})

# --------------------------------- pylayer.MmapStorage
def _raw_dump(env=None):
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "dump.bin")
    np.arange(4, dtype="float32").tofile(path)
    return path


CALLS.update({
    pylayer.MmapStorage: Call(A("filename", _raw_dump, "path"),
                              A("nbytes", _value(16), "positive_int"),
                              extra=[("more bytes than the file holds", {"nbytes": _value(17)},
                                      "nbytes")]),
})

# --------------------------------- deformable convolution (pylayer.vision.ops, static.nn)
from pylayer.vision import ops as _vops  # noqa: E402


def _static_deform(env):
    _static_images(env)
    env.update(offset=static.data("offset", [2, 18, 2, 2], "float32"),
               mask=static.data("mask", [2, 9, 2, 2], "float32"))


CALLS.update({
    _vops.DeformConv2D: Call(A("in_channels", _value(2), "size"),
                             A("out_channels", _value(2), "size"),
                             A("kernel_size", _value(3), "size"),
                             K("stride", _value(1), "size"), K("padding", _value(1), "size"),
                             K("dilation", _value(1), "size"),
                             K("deformable_groups", _value(1), "positive_int"),
                             K("groups", _value(2), "positive_int"),
                             K("weight_attr", _value(None), "param_attr"),
                             K("bias_attr", _value(None), "param_attr")),
    static.nn.deform_conv2d: Call(A("x", lambda env: env["img"], "static_input"),
                                  A("offset", lambda env: env["offset"], "static_input"),
                                  A("mask", lambda env: env["mask"], "variables_or_none"),
                                  A("num_filters", _value(2), "positive_int"),
                                  A("filter_size", _value(3), None),
                                  K("im2col_step", _value(1), "positive_int"), static=True,
                                  setup=_static_deform),
})
