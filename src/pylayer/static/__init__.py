"""Static-graph mode: build a Program once, run it many times with an Executor.

After ``pylayer.enable_static()`` the public ops record themselves into the
current Program instead of computing; :class:`Executor` replays them with
the same code as dynamic mode, so both modes give the same numbers.

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
from pylayer import _state
from pylayer.static import nn
from pylayer.static._backward import append_backward, gradients, minimize
from pylayer.static._executor import CPUPlace, Executor, Scope, global_scope, scope_guard
from pylayer.static._program import (Block, Operator, Program, create_parameter, data,
                                     default_main_program, default_startup_program,
                                     program_guard)
from pylayer.static._record import record_op
from pylayer.static._variable import Parameter, Variable
from pylayer.static._py_func import py_func

__all__ = ["enable_static", "disable_static", "in_dynamic_mode", "Program", "Block",
           "Variable", "Parameter", "Operator", "program_guard", "default_main_program",
           "default_startup_program", "data", "create_parameter", "Executor", "CPUPlace",
           "Scope", "global_scope", "scope_guard", "gradients", "append_backward", "py_func",
           "nn"]

_state.static_call = record_op
_state.static_minimize = minimize


def enable_static():
    """Switch to static mode: ops add operators to the current Program.

    >>> import pylayer as paddle
    >>> paddle.enable_static(); paddle.in_dynamic_mode()
    False
    >>> paddle.disable_static(); paddle.in_dynamic_mode()
    True
    """
    _state.set_static_mode(True)


def disable_static(place=None):
    """Switch back to dynamic mode (ops compute at once).

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> paddle.disable_static()
    >>> paddle.tanh(paddle.zeros([1])).numpy()
    array([0.], dtype=float32)
    """
    _state.set_static_mode(False)


def in_dynamic_mode():
    """True unless static mode is on.

    >>> import pylayer as paddle
    >>> paddle.in_dynamic_mode()
    True
    """
    return not _state.static_mode
