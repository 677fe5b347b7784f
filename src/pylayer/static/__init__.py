"""Static-graph mode: build a Program once, run it many times with an Executor.

A public op called with a :class:`Variable` among its arguments records
itself into the current Program instead of computing (see
``pylayer.ops.dispatch``); :class:`Executor` replays it with the same code
as dynamic mode, so both modes give the same numbers.

>>> import numpy as np, pylayer as paddle
>>> paddle.enable_static()
>>> main = paddle.static.Program()
>>> with paddle.static.program_guard(main):
...     x = paddle.static.data("x", [-1, 2], "float32")
...     y = paddle.tanh(x) * 2.0
>>> out, = paddle.static.Executor(paddle.CPUPlace()).run(
...     main, feed={"x": np.zeros([1, 2], "float32")}, fetch_list=[y])
>>> out
array([[0., 0.]], dtype=float32)
>>> paddle.disable_static()
"""
from pylayer.ops import dispatch
from pylayer.ops.dispatch import disable_static, enable_static, in_dynamic_mode
from pylayer.static import nn
from pylayer.static._backward import append_backward, gradients
from pylayer.static._executor import CPUPlace, Executor, Scope, global_scope, scope_guard
from pylayer.static._program import (Block, Operator, Program, create_parameter, data,
                                     default_main_program, default_startup_program,
                                     name_scope, program_guard)
from pylayer.static._record import record_op
from pylayer.static._variable import Parameter, Variable
from pylayer.static._py_func import py_func
from pylayer.static._compiled import BuildStrategy, CompiledProgram
from pylayer.static._array import array_length, array_read, array_write, create_array
from pylayer.static._io import (deserialize_persistables, deserialize_program, load,
                                load_from_file, load_inference_model, load_program_state,
                                normalize_program, save, save_inference_model, save_to_file,
                                serialize_persistables, serialize_program, set_program_state)
from pylayer.static._utilities import (ExponentialMovingAverage, Print, accuracy, auc,
                                       WeightNormParamAttr, cpu_places, create_global_var,
                                       ctr_metric_bundle, device_guard)

__all__ = ["enable_static", "disable_static", "in_dynamic_mode", "Program", "Block",
           "Variable", "Parameter", "Operator", "program_guard", "default_main_program",
           "default_startup_program", "data", "create_parameter", "Executor", "CPUPlace",
           "Scope", "global_scope", "scope_guard", "gradients", "append_backward", "py_func",
           "nn", "name_scope", "create_global_var", "cpu_places", "device_guard", "Print",
           "accuracy", "ExponentialMovingAverage", "save", "load", "load_program_state",
           "set_program_state", "normalize_program", "serialize_program",
           "deserialize_program", "serialize_persistables", "deserialize_persistables",
           "save_to_file", "load_from_file", "save_inference_model", "load_inference_model",
           "create_array", "array_write", "array_read", "array_length", "auc",
           "BuildStrategy", "CompiledProgram", "ctr_metric_bundle", "WeightNormParamAttr"]

dispatch.register_static(Variable, record_op)
from pylayer.static.input_spec import InputSpec  # noqa: E402
__all__ += ["InputSpec"]
