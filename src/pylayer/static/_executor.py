"""Running programs: Executor, Scope and CPUPlace.

The Executor turns a Program into a plan once per program version: every
variable gets a slot in a list, and every operator becomes a step that knows
which argument positions take which slots. A run fills the slots from the
feed and the scope, then calls each op's own function (the same code as
dynamic mode) with static mode switched off; or, for a program of
elementwise float math without gradients, the numpy function each op
resolves to, on raw arrays (see ``_array_plan``).
"""
import contextlib
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np

from pylayer.autograd import set_grad_enabled
from pylayer.device import CPUPlace
from pylayer.extend import (Tensor, check_str, describe, make_tensor, public_settings_repr,
                            settings_repr)
from pylayer.static._array_plan import ArrayPlan
from pylayer.static._program import Program, default_main_program, trimmed_kwargs
from pylayer.static._record import computing
from pylayer.static._variable import Variable, variables_in

__all__ = ["Executor", "Scope", "global_scope", "scope_guard", "CPUPlace"]


# ------------------------------------------------------------------ Scope
class _ScopeTensor:
    """The value held for one variable in a Scope (``np.array(t)`` reads it)."""

    def __init__(self, scope, name):
        self._scope = scope
        self._name = name

    def __array__(self, dtype=None, copy=None):
        value = self._scope._values.get(self._name)
        if value is None:
            raise ValueError(f"variable {self._name!r} has no value in the scope yet")
        return value if dtype is None else value.astype(dtype)

    def set(self, value, place=None):
        self._scope._values[self._name] = np.array(value, copy=True)

    def shape(self):
        return list(np.asarray(self).shape)


class _ScopeVar:
    def __init__(self, scope, name):
        self._tensor = _ScopeTensor(scope, name)

    def get_tensor(self):
        return self._tensor


class Scope:
    """Where persistable variables (parameters, optimizer state) keep their values.

    >>> import pylayer as paddle
    >>> scope = paddle.static.Scope()
    >>> scope.find_var("w") is None
    True
    """

    def __init__(self):
        self._values = {}

    def find_var(self, name):
        """A handle on ``name``'s value (``.get_tensor()``), or None if it has none."""
        if check_str(name, "Scope.find_var", "name") not in self._values:
            return None
        return _ScopeVar(self, name)

    def var(self, name):
        """A handle on ``name``'s value, made empty when the scope has none yet."""
        self._values.setdefault(check_str(name, "Scope.var", "name"), None)
        return _ScopeVar(self, name)

    def local_var_names(self):
        return list(self._values)

    def __repr__(self):
        return settings_repr(self, {"variables": self.local_var_names()})


_current_scope = Scope()


def global_scope():
    """The Scope that :meth:`Executor.run` uses unless told otherwise.

    >>> import pylayer as paddle
    >>> isinstance(paddle.static.global_scope(), paddle.static.Scope)
    True
    """
    return _current_scope


def scope_guard(scope):
    """Make ``scope`` the global scope inside the block.

    >>> import numpy as np
    >>> import pylayer as paddle
    >>> exe = paddle.static.Executor(paddle.CPUPlace())
    >>> scope = paddle.static.Scope()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     b = paddle.static.create_parameter([2], "float32", name="b", is_bias=True)
    >>> with paddle.static.scope_guard(scope):
    ...     _ = exe.run(startup)
    >>> np.array(scope.find_var("b").get_tensor())
    array([0., 0.], dtype=float32)
    """
    if not isinstance(scope, Scope):
        raise TypeError(f"scope_guard(): argument 'scope' must be a Scope, "
                        f"got {describe(scope)}")
    return _scope_in_use(scope)


@contextlib.contextmanager
def _scope_in_use(scope):
    global _current_scope
    previous = _current_scope
    _current_scope = scope
    try:
        yield
    finally:
        _current_scope = previous


# ------------------------------------------------------------------- plan
class _Deferred:
    """An op whose Variables sit inside lists or keywords: binds them from the slots."""

    def __init__(self, fn, args, kwargs, slots):
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.slots = slots

    def _bind(self, value, env):
        if isinstance(value, Variable):
            return env[self.slots[value.name]]
        if isinstance(value, list):
            return [self._bind(v, env) for v in value]
        if isinstance(value, tuple):
            return tuple(self._bind(v, env) for v in value)
        if isinstance(value, dict):
            return {k: self._bind(v, env) for k, v in value.items()}
        return value

    def __call__(self, env):
        return self.fn(*self._bind(self.args, env), **self._bind(self.kwargs, env))


def _compile_op(op, slots):
    """A step ``(fn, args_template, substitutions, kwargs, out)`` for the run loop.

    ``substitutions`` is a tuple of (argument position, slot) pairs, a lone
    slot for a call ``fn(x)``, or None when ``fn`` is a _Deferred that binds
    its own arguments. ``out`` is a slot, (slot, index) pairs, or None.
    """
    kwargs = trimmed_kwargs(op.fn, op.kwargs)
    nested = variables_in(kwargs) or any(
        not isinstance(a, Variable) and variables_in(a) for a in op.args)
    if nested:
        fn, template, subs, kwargs = _Deferred(op.fn, op.args, kwargs, slots), None, None, None
    else:
        fn = op.fn
        template = [None if isinstance(a, Variable) else a for a in op.args]
        subs = tuple((i, slots[a.name]) for i, a in enumerate(op.args)
                     if isinstance(a, Variable))
        if len(op.args) == 1 and subs and not kwargs:
            subs = subs[0][1]       # the common case f(x): just the slot
    if not op.outputs:
        out = None
    elif len(op.outputs) == 1 and op.out_index[0] is None:
        out = slots[op.outputs[0].name]
    else:
        out = tuple((slots[v.name], i) for v, i in zip(op.outputs, op.out_index))
    return (fn, template, subs, kwargs, out)


class _Plan:
    """Everything about a program version that does not depend on the feed."""

    def __init__(self, program):
        block = program.global_block()
        self.version = program._version
        self.slots = {name: i for i, name in enumerate(block.vars)}
        self.size = len(self.slots)
        self.vars = block.vars
        self.ops = list(block.ops)
        self.record_grad = any(op.role == "backward" for op in self.ops)
        # A variable is computed when an op writes it before any op reads it;
        # every other variable can be fed, and must be when an op reads it.
        self.required, self.loaded = [], []
        seen, computed = set(), set()
        for op in self.ops:
            write_only = {v.name for v in op.write_only}
            for var in op.inputs:
                if var.name in seen or var.name in write_only:
                    continue
                seen.add(var.name)
                target = self.loaded if var.persistable or var.kind == "global" \
                    else self.required
                target.append((var.name, self.slots[var.name], var))
            for var in op.outputs:
                if var.name not in seen:
                    seen.add(var.name)
                    computed.add(var.name)
        self.feedable = {name: (self.slots[name], var) for name, var in block.vars.items()
                         if name not in computed}
        written = {v.name for op in self.ops for v in op.outputs}
        self.write_back = [(name, self.slots[name]) for name in sorted(written)
                           if block.vars[name].persistable or block.vars[name].kind == "global"]
        self.steps = [_compile_op(op, self.slots) for op in self.ops]
        self.arrays = ArrayPlan.compile(self.ops, self.slots, self.record_grad)


def _plan_of(program):
    plan = getattr(program, "_plan", None)
    if plan is None or plan.version != program._version:
        plan = program._plan = _Plan(program)
    return plan


# --------------------------------------------------------------- Executor
def _feed_tensor(var, value, stop_gradient):
    expected = var.dtype.np_dtype
    if isinstance(value, Tensor):
        array = value.numpy()
    elif isinstance(value, np.ndarray):
        array = value
    elif isinstance(value, (list, tuple, int, float, bool, np.generic)):
        array = np.asarray(value, dtype=expected)
    else:
        raise TypeError(f"Executor.run: the feed for {var.name!r} must be a numpy array, a "
                        f"Tensor or a nested list, got {type(value).__name__}")
    if array.dtype != expected:
        raise TypeError(f"Executor.run: the feed for {var.name!r} has dtype {array.dtype}, "
                        f"but the variable is declared as {var.dtype.name}")
    shape = var._shape
    if shape is not None and (array.ndim != len(shape) or any(
            d >= 0 and d != n for d, n in zip(shape, array.shape))):
        raise ValueError(f"Executor.run: the feed for {var.name!r} has shape "
                         f"{list(array.shape)}, but the variable is declared with shape "
                         f"{shape} (-1 matches any size)")
    return make_tensor(read_only(array), stop_gradient)


def read_only(array):
    """A view that ops cannot write into (fed arrays and scope values stay intact)."""
    view = array.view()
    view.flags.writeable = False
    return view


def _fetch_name(item, program, position):
    if isinstance(item, Variable):
        if item.block.program is not program and item.name not in program.global_block().vars:
            raise ValueError(f"Executor.run: fetch_list item {position} (Variable "
                             f"{item.name!r}) belongs to another program")
        return item.name
    if isinstance(item, str):
        return item
    raise TypeError(f"Executor.run: fetch_list item {position} must be a Variable or a "
                    f"variable name, got {type(item).__name__}")


def _run_steps(plan, env):
    step = None
    try:
        for step in plan.steps:
            fn, template, subs, kwargs, out = step
            if subs.__class__ is int:
                result = fn(env[subs])
            elif subs is None:
                result = fn(env)
            else:
                args = template.copy()
                for position, slot in subs:
                    args[position] = env[slot]
                result = fn(*args, **kwargs) if kwargs else fn(*args)
            if out.__class__ is int:
                env[out] = result
            elif out is not None:
                for slot, index in out:
                    env[slot] = result[index]
    except Exception as exc:
        index = next(i for i, s in enumerate(plan.steps) if s is step)
        op = plan.ops[index]
        if op.role == "forward" and op.type != "py_func":
            exc.add_note(f"while running op {index} of the program: {op._describe()}")
        raise


class Executor:
    """Runs Programs on the CPU.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.mean(x * x)
    >>> exe = paddle.static.Executor(paddle.static.CPUPlace())
    >>> exe.run(main, feed={"x": np.array([[1, 2], [3, 4]], "float32")}, fetch_list=[y])
    [array(7.5, dtype=float32)]
    >>> paddle.disable_static()
    """

    def __init__(self, place: Any = None) -> None:
        self.place = place if place is not None else CPUPlace()

    __repr__ = public_settings_repr

    def close(self):
        """Nothing to release on the CPU; kept for Paddle compatibility."""

    def run(self, program: Optional[Program] = None,
            feed: Optional[Mapping[str, Any]] = None,
            fetch_list: Union[Variable, str, Sequence[Union[Variable, str]], None] = None,
            feed_var_name: str = "feed", fetch_var_name: str = "fetch", scope: Any = None,
            return_numpy: bool = True, use_program_cache: bool = False) -> list[Any]:
        """Run every op of ``program`` and return the values of ``fetch_list``.

        ``feed`` maps variable names to numpy arrays; ``fetch_list`` holds
        Variables or names. Returns a list of numpy arrays (Tensors when
        ``return_numpy`` is False).
        """
        if program is None:
            program = default_main_program()
        from pylayer.static._compiled import CompiledProgram
        if isinstance(program, CompiledProgram):
            program = program._program
        if not isinstance(program, Program):
            raise TypeError(f"Executor.run: program must be a Program, "
                            f"got {type(program).__name__}")
        if feed is None:
            feed = {}
        elif not isinstance(feed, dict):
            raise TypeError(f"Executor.run: feed must be a dict from variable names to "
                            f"arrays, got {type(feed).__name__}")
        if fetch_list is None:
            fetch_list = []
        elif isinstance(fetch_list, (Variable, str)):
            fetch_list = [fetch_list]
        elif not isinstance(fetch_list, (list, tuple)):
            raise TypeError(f"Executor.run(): argument 'fetch_list' must be a Variable, a "
                            f"variable name, or a list of them, got {describe(fetch_list)}")
        scope = scope if scope is not None else _current_scope
        plan = _plan_of(program)
        env = [None] * plan.size
        record = plan.record_grad

        for name, value in feed.items():
            if isinstance(name, Variable):
                name = name.name
            found = plan.feedable.get(name)
            if found is None:
                if name in plan.vars:
                    raise ValueError(f"Executor.run: {name!r} is computed by the program, so "
                                     f"it cannot be fed")
                inputs = sorted(n for n, (_, v) in plan.feedable.items() if not v.persistable)
                raise ValueError(f"Executor.run: the feed names {name!r}, which is not a "
                                 f"variable of the program; its inputs are {inputs}")
            slot, var = found
            env[slot] = _feed_tensor(var, value, not record or var.stop_gradient)
        for name, slot, var in plan.required:
            if env[slot] is None:
                raise ValueError(f"Executor.run: variable {name!r} is an input of the program "
                                 f"but was not fed; pass feed={{{name!r}: array}}")
        values = scope._values
        for name, slot, var in plan.loaded:
            if env[slot] is None:
                array = values.get(name)
                if array is None:
                    raise ValueError(f"Executor.run: persistable variable {name!r} has no "
                                     f"value in the scope; run the startup program first "
                                     f"(exe.run(paddle.static.default_startup_program()))")
                env[slot] = make_tensor(read_only(array), not record or var.stop_gradient)
        fetch_slots = []
        for i, item in enumerate(fetch_list):
            name = _fetch_name(item, program, i)
            slot = plan.slots.get(name)
            if slot is None:
                raise ValueError(f"Executor.run: cannot fetch {name!r} (argument "
                                 f"'fetch_list'): the program has no variable of that name")
            if env[slot] is None and plan.vars[name].persistable and name in values:
                env[slot] = make_tensor(read_only(values[name]))
            fetch_slots.append((name, slot))

        with set_grad_enabled(record):
            if plan.arrays is not None:
                plan.arrays.run(env, [slot for _, slot in fetch_slots + plan.write_back])
            else:
                with computing():
                    _run_steps(plan, env)

        for name, slot in plan.write_back:
            if env[slot] is not None:
                values[name] = env[slot].numpy()
        results = []
        for name, slot in fetch_slots:
            value = env[slot]
            if value is None:
                raise ValueError(f"Executor.run: cannot fetch {name!r}: no op of the program "
                                 f"computes it and it was not fed")
            if isinstance(value, list):          # a tensor array
                results.append([t.numpy() if return_numpy else t for t in value])
            elif return_numpy:
                array = value.numpy()
                results.append(array if array.flags.writeable else np.array(array))
            else:
                results.append(value)
        return results
