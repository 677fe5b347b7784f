"""``py_func``: an operator of a static program written as Python functions on arrays."""
from __future__ import annotations

import inspect
from typing import Any, Callable, Optional, Sequence, TypeVar, Union

import numpy as np

from pylayer.extend import Op, Tensor, make_outputs, make_tensor, needs_grad
from pylayer.static._executor import read_only
from pylayer.static._program import default_main_program
from pylayer.static._variable import Variable

__all__ = ["py_func"]

Variables = Union[Variable, Sequence[Variable], None]
_Out = TypeVar("_Out", bound=Variables)


def _variables(value, arg):
    """None, a Variable, or a list/tuple of Variables -> a list."""
    if value is None:
        return []
    if isinstance(value, Variable):
        return [value]
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            if not isinstance(item, Variable):
                raise TypeError(f"py_func: argument '{arg}' item {i} must be a Variable, "
                                f"got {type(item).__name__}")
        return list(value)
    raise TypeError(f"py_func: argument '{arg}' must be a Variable, a list or tuple of "
                    f"Variables, or None, got {type(value).__name__}")


def _name_of(fn):
    return getattr(fn, "__name__", type(fn).__name__)


def _check_arguments(fn, role, count, order):
    """Refuse, when the program is built, a ``fn`` that cannot take the ``count``
    arguments it will get; ``order`` says what they are."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # no signature to read (some builtins): run time will say
        return
    try:
        signature.bind(*range(count))
    except TypeError as error:
        raise TypeError(f"py_func: {role} {_name_of(fn)!r} cannot take the {count} "
                        f"argument(s) it will be called with ({error}): {order}") from None


def _call(fn, role, received, arrays):
    """``fn(*arrays)``; writing into one of the read-only arrays gets a message
    saying so (numpy's own is "assignment destination is read-only")."""
    try:
        return fn(*arrays)
    except ValueError as error:
        if "read-only" not in str(error):
            raise
        raise ValueError(f"py_func: {role} {_name_of(fn)!r} wrote into a read-only array "
                         f"({error}): the {received} it receives are read-only views of "
                         f"the program's values; copy one before changing it "
                         f"(a = a.copy()) or compute a new array") from error


def _shape_fits(declared, actual):
    return len(declared) == len(actual) and all(d < 0 or d == n for d, n in zip(declared, actual))


class _PyFuncOp:
    """The run time of one py_func: call ``func`` on arrays, wire ``backward_func``."""
    __name__ = "py_func"

    def __init__(self, func, backward_func, inputs, outputs, skipped):
        self.func = func
        self.backward_func = backward_func
        self.in_names = [v.name for v in inputs]
        self.out_meta = [(v.name, v.shape, v.dtype.np_dtype) for v in outputs]
        skipped_ids = {id(v) for v in skipped}
        self.keep_inputs = [id(v) not in skipped_ids for v in inputs]
        self.keep_outputs = [id(v) not in skipped_ids for v in outputs]

    def _results(self, returned, count, fn, what):
        """``returned`` as a list of ``count`` values (a lone value counts as one)."""
        if count == 1 and not isinstance(returned, (list, tuple)):
            return [returned]
        if returned is None:
            items = []
        elif isinstance(returned, (list, tuple)):
            items = list(returned)
        else:
            items = [returned]
        if len(items) != count:
            raise ValueError(f"py_func: {_name_of(fn)} returned {len(items)} value(s), "
                             f"but there are {count} {what}")
        return items

    def _output_array(self, value, index):
        name, shape, dtype = self.out_meta[index]
        if value is None:
            raise ValueError(f"py_func: {_name_of(self.func)} returned None for output "
                             f"'{name}'")
        array = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
        if array.dtype != dtype:
            array = array.astype(dtype)
        if not _shape_fits(shape, array.shape):
            raise ValueError(f"py_func: {_name_of(self.func)} returned shape "
                             f"{list(array.shape)} for output '{name}', declared as {shape}")
        return array

    def __call__(self, *inputs):
        arrays = [read_only(t.numpy()) for t in inputs]
        returned = _call(self.func, "func", "inputs", arrays)
        if not self.out_meta:
            return []
        outs = [self._output_array(v, i) for i, v in
                enumerate(self._results(returned, len(self.out_meta), self.func, "outputs"))]
        if self.backward_func is None or not needs_grad(*inputs):
            return [make_tensor(a) for a in outs]
        # Copies: what backward_func receives cannot change with its tensors later.
        kept_inputs = [read_only(a.copy()) for a, keep in zip(arrays, self.keep_inputs)
                       if keep]
        kept_outputs = [read_only(a.copy()) for a, keep in zip(outs, self.keep_outputs)
                        if keep]
        return make_outputs(PY_FUNC, outs, tuple(inputs),
                            (self, kept_inputs, kept_outputs,
                             [(a.shape, a.dtype) for a in arrays],
                             [(a.shape, a.dtype) for a in outs]))

    def backward(self, grads, kept_inputs, kept_outputs, in_meta, out_meta, needs_input_grad):
        """The inputs' gradients from ``backward_func`` (None where not needed)."""
        # An output that received no gradient contributes zeros.
        out_grads = [np.zeros(shape, dtype) if g is None else read_only(g.numpy())
                     for g, (shape, dtype) in zip(grads, out_meta)]
        returned = _call(self.backward_func, "backward_func", "inputs, outputs and output "
                         "gradients", [*kept_inputs, *kept_outputs, *out_grads])
        values = self._results(returned, len(self.in_names), self.backward_func, "inputs")
        result = []
        for value, name, (shape, dtype), needed in zip(values, self.in_names, in_meta,
                                                       needs_input_grad):
            if value is None or not needed:
                result.append(None)
                continue
            array = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
            if array.shape != shape:
                raise ValueError(f"py_func: {_name_of(self.backward_func)} returned a "
                                 f"gradient of shape {list(array.shape)} for input '{name}', "
                                 f"whose shape is {list(shape)}")
            result.append(make_tensor(array.astype(dtype, copy=False)))
        return tuple(result)


def _py_func_vjp(grads, runner, kept_inputs, kept_outputs, in_meta, out_meta,
                 needs_input_grad):
    return runner.backward(grads, kept_inputs, kept_outputs, in_meta, out_meta,
                           needs_input_grad)


# One record for every py_func: its run time (``runner``) calls the backward_func the
# program was built with; the node keeps copies of the arrays backward_func receives.
PY_FUNC = Op("py_func", inputs=None, multi_output=True,
             attrs=("runner", "kept_inputs", "kept_outputs", "in_meta", "out_meta"),
             vjp=_py_func_vjp)


def _check_backward_arguments(backward_func, inputs, outputs, skipped):
    skipped_ids = {id(v) for v in skipped}
    kept_inputs = [v.name for v in inputs if id(v) not in skipped_ids]
    kept_outputs = [v.name for v in outputs if id(v) not in skipped_ids]
    order = (f"the inputs {kept_inputs}, then the outputs {kept_outputs}, then one "
             f"gradient per output ({len(outputs)}), in that order; the variables in "
             f"skip_vars_in_backward_input are left out of the inputs and outputs")
    _check_arguments(backward_func, "backward_func",
                     len(kept_inputs) + len(kept_outputs) + len(outputs), order)


def py_func(func: Callable[..., Any], x: Variables, out: _Out,
            backward_func: Optional[Callable[..., Any]] = None,
            skip_vars_in_backward_input: Variables = None) -> _Out:
    """Add an operator computed by the Python function ``func`` (static mode only).

    At run time ``func(*x)`` receives read-only numpy arrays and returns one
    array (or Tensor) per variable of ``out``, which the caller creates with
    a shape and dtype (``Block.create_var``); each result is converted to its
    variable's dtype and must fit its shape (``-1`` matches any size).
    Without outputs, ``func`` runs for its side effects and what it returns
    is ignored. ``backward_func`` receives the
    inputs, the outputs and the outputs' gradients (minus the variables in
    ``skip_vars_in_backward_input``) and returns one gradient per input,
    None where an input has none. Without ``backward_func`` no gradient
    flows through the op. Returns ``out``.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [2], "float32")
    ...     y = main.current_block().create_var(name="y", dtype="float32", shape=[2])
    ...     _ = paddle.static.py_func(func=lambda a: np.square(a), x=x, out=y)
    >>> paddle.static.Executor().run(main, feed={"x": np.array([1, 3], "float32")},
    ...                              fetch_list=[y])
    [array([1., 9.], dtype=float32)]
    >>> paddle.disable_static()
    """
    if any(isinstance(item, Tensor) for value in (x, out)
           for item in (value if isinstance(value, (list, tuple)) else [value])):
        raise RuntimeError("py_func builds a static program from Variables, but got a "
                           "Tensor: it only works in static-graph mode; call "
                           "pylayer.enable_static() (paddle.enable_static()) and build the "
                           "program from paddle.static.data")
    if not callable(func):
        raise TypeError(f"py_func: func must be callable, got {type(func).__name__}")
    if backward_func is not None and not callable(backward_func):
        raise TypeError(f"py_func: backward_func must be callable or None, "
                        f"got {type(backward_func).__name__}")
    inputs = _variables(x, "x")
    outputs = _variables(out, "out")
    skipped = _variables(skip_vars_in_backward_input, "skip_vars_in_backward_input")
    forward_ids = {id(v) for v in inputs + outputs}
    for v in skipped:
        if id(v) not in forward_ids:
            raise ValueError(f"py_func: skip_vars_in_backward_input holds '{v.name}', which is "
                             f"neither an input nor an output of this py_func; only forward "
                             f"inputs and outputs can be skipped")
    program = default_main_program()
    block = program.current_block()
    for v in inputs + outputs:
        if v.block.program is not program:
            raise ValueError(f"py_func: Variable '{v.name}' belongs to another program than "
                             f"the one being built")
    for v in outputs:
        if v.shape is None:
            raise ValueError(f"py_func: output Variable '{v.name}' has no shape; create it "
                             f"with a shape, e.g. block.create_var(name=..., dtype=..., "
                             f"shape=[...])")
        if v.op is not None or v.kind in ("data", "parameter"):
            raise ValueError(f"py_func: output Variable '{v.name}' is already computed by "
                             f"another op or fed; give py_func a fresh variable")
    _check_arguments(func, "func", len(inputs),
                     f"one array per variable of x, {[v.name for v in inputs]}")
    if backward_func is not None:
        _check_backward_arguments(backward_func, inputs, outputs, skipped)
    runner = _PyFuncOp(func, backward_func, inputs, outputs, skipped)
    differentiable = backward_func is not None
    needs = differentiable and any(not v.stop_gradient for v in inputs)
    for v in outputs:
        v._stop_gradient = not needs
    distinct = list({id(v): v for v in inputs}.values())
    block.append_op("py_func", runner, inputs, {}, distinct, outputs,
                    list(range(len(outputs))), [differentiable] * len(outputs))
    return out
