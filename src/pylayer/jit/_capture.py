"""Capturing a Python function into a static Program, and running the Program.

A function is run once with :class:`~pylayer.static.Variable` stand-ins for
its Tensor inputs, in static mode, inside a fresh Program: every public op it
calls records itself (``pylayer.ops.dispatch``), a ``PyLayer.apply`` becomes
one operator, and Tensors it reads (a Layer's parameters and buffers) stay in
the operators' arguments by reference, so a run sees their current values.
A run fills the program's slots with the call's Tensors and replays the
operators through the Executor's compiled plan, with autograd on when it is
on outside: gradients reach the parameters exactly as in dynamic mode.
"""
import contextlib
import logging
import os
import sys
import traceback

import numpy as np

import pylayer
from pylayer.extend import Tensor
from pylayer.ops import dispatch
from pylayer.static import Program, Variable, data, program_guard
from pylayer.static.input_spec import InputSpec
from pylayer.static.replay import ProgramReplay

__all__ = []

logger = logging.getLogger("pylayer.jit")
_settings = {"code_level": 0, "verbosity": 0, "code_stdout": False, "verbosity_stdout": False}

_PACKAGE = os.path.dirname(os.path.abspath(pylayer.__file__))
# The Variable methods that refuse to give a value while a program is built.
_VALUE_METHODS = {"_no_value", "__bool__", "__float__", "__int__", "__len__", "__iter__",
                  "__index__"}


def log(level, message, setting, stdout):
    if _settings[setting] >= level:
        logger.info(message)
        if _settings[stdout]:
            print(message)


@contextlib.contextmanager
def _static_mode():
    was_dynamic = dispatch.in_dynamic_mode()
    dispatch.enable_static()
    try:
        yield
    finally:
        if was_dynamic:
            dispatch.disable_static()


def _user_frame(frames, index):
    """The frame of the user's code that made frame ``index`` happen."""
    for frame in reversed(frames[:index]):
        if not os.path.abspath(frame.filename).startswith(_PACKAGE + os.sep):
            return frame
    return frames[index - 1] if index else frames[0]


def value_error(exc, fn_name):
    """A TypeError naming the line when ``exc`` comes from reading a Variable's value
    (Python control flow on a tensor), else None."""
    frames = traceback.extract_tb(exc.__traceback__)
    variable_file = os.path.abspath(sys.modules[Variable.__module__].__file__)
    for index, frame in enumerate(frames):
        if os.path.abspath(frame.filename) == variable_file and frame.name in _VALUE_METHODS:
            where = _user_frame(frames, index)
            code = f": `{where.line}`" if where.line else ""
            return TypeError(
                f"to_static(): {fn_name} uses the value of a tensor in Python at "
                f"{where.filename}, line {where.lineno}{code}. While the function "
                f"is captured its tensors have no values, so Python control flow (if, while, "
                f"for, and/or/not) and conversions (bool, int, float, len, .numpy(), "
                f".item()) on a tensor cannot be captured; write it with tensor ops "
                f"(paddle.where, a mask, paddle.static.nn.cond), or run the function "
                f"without to_static")
    return None


class ConcreteProgram:
    """One captured program: the Program, its input Variables (one per Tensor
    input), and its outputs (the function's result with Variables in it)."""

    def __init__(self, main_program, inputs, outputs, function):
        self.main_program = main_program
        self.inputs = inputs
        self.outputs = outputs
        self.function = function
        self._block = main_program.global_block()
        self._replay = ProgramReplay(main_program, inputs, outputs)

    def __repr__(self):
        return (f"ConcreteProgram(function={getattr(self.function, '__qualname__', '?')}, "
                f"inputs={[v.name for v in self.inputs]}, "
                f"ops={len(self._block.ops)})")

    def run(self, tensors):
        """The function's result for the input Tensors ``tensors`` (in input order)."""
        return self._replay.run(tensors)


def capture(function, specs, args, kwargs, name):
    """Run ``function`` on Variables; ``specs`` holds ``(shape, dtype, stop_gradient,
    name)`` for each Tensor found by ``flatten`` in ``args``/``kwargs``, whose places
    hold ``_Slot`` markers."""
    program = Program()
    inputs = []
    with program_guard(program, Program()):
        for i, (shape, dtype, stop_gradient, var_name) in enumerate(specs):
            if not var_name or var_name in program.global_block().vars:
                var_name = f"input_{i}"
            var = data(var_name, list(shape), dtype)
            var._stop_gradient = stop_gradient
            inputs.append(var)
        call_args = fill(args, inputs)
        call_kwargs = fill(kwargs, inputs)
        try:
            with _static_mode(), np.errstate(all="ignore"):
                outputs = function(*call_args, **call_kwargs)
        except TypeError as exc:
            better = value_error(exc, name)
            if better is not None:
                raise better from exc
            raise
    concrete = ConcreteProgram(program, inputs, outputs, function)
    log(1, f"to_static: captured {name} for inputs "
           f"{[(list(s[0]), s[1].name) for s in specs]}", "verbosity", "verbosity_stdout")
    log(1, f"to_static: the program of {name}:\n{program}", "code_level", "code_stdout")
    return concrete


class _Slot:
    """Where the i-th Tensor input sits in a call's arguments."""
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def flatten(value, found):
    """``value`` with each Tensor (or InputSpec) replaced by a _Slot; they go to
    ``found``."""
    if isinstance(value, (Tensor, InputSpec)):
        found.append(value)
        return _Slot(len(found) - 1)
    if isinstance(value, list):
        return [flatten(v, found) for v in value]
    if isinstance(value, tuple):
        return tuple(flatten(v, found) for v in value)
    if isinstance(value, dict):
        return {k: flatten(v, found) for k, v in value.items()}
    return value


def fill(value, items):
    """``value`` with each _Slot replaced by ``items[slot.index]``."""
    if isinstance(value, _Slot):
        return items[value.index]
    if isinstance(value, list):
        return [fill(v, items) for v in value]
    if isinstance(value, tuple):
        return tuple(fill(v, items) for v in value)
    if isinstance(value, dict):
        return {k: fill(v, items) for k, v in value.items()}
    return value


def hashable(value):
    """A cache-key form of the non-Tensor arguments (compared by value)."""
    if isinstance(value, _Slot):
        return ("slot", value.index)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(hashable(v) for v in value)
    if isinstance(value, dict):
        return ("dict",) + tuple((k, hashable(v)) for k, v in value.items())
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    try:
        hash(value)
    except TypeError:
        return ("object", id(value))
    return (type(value).__name__, value)
