"""Programs, blocks and operators: what static mode builds.

A :class:`Program` holds one :class:`Block`: its Variables and the ordered
:class:`Operator` records of the calls made while it was the default main
program (see :func:`program_guard`). An Operator keeps the function and the
arguments as given, with Variable placeholders among them; the Executor
replays it by calling the same function on Tensors.
"""
import contextlib
from collections.abc import Sequence
from typing import Any, Optional
import inspect
import itertools
import weakref

import numpy as np

from pylayer.extend import Tensor, check_callable, check_int, check_str, describe, make_tensor
from pylayer.nn.initializer import Initializer, XavierUniform
from pylayer.static._variable import (Parameter, Variable, as_dtype, as_shape,
                                      check_block, substitute)

__all__ = ["Program", "Block", "Operator", "program_guard", "default_main_program",
           "default_startup_program", "data", "create_parameter", "name_scope"]


# ---------------------------------------------------------------- Operator
class Operator:
    """One recorded call: ``fn(*args, **kwargs)`` with Variables among the arguments.

    ``outputs`` are the Variables the call writes; ``out_index`` says where
    each comes from in the result (None: the result itself; i: ``result[i]``).
    ``differentiable[i]`` says whether gradients flow from output i to the
    inputs. ``role`` is "forward", "backward", "optimize" or "init".

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [2], "float32")
    ...     y = paddle.exp(x)
    >>> op = main.global_block().ops[0]
    >>> op.type, [v.name for v in op.inputs], [v.name for v in op.outputs]
    ('exp', ['x'], ['exp_0.tmp_0'])
    >>> paddle.disable_static()
    """

    def __init__(self, block, type, fn, args, kwargs, inputs, outputs, out_index,
                 differentiable, role="forward", write_only=()):
        self.block = check_block(block, "Operator")
        self.type = check_str(type, "Operator", "type")
        self.fn = check_callable(fn, "Operator", "fn")
        self.args = tuple(_sequence(args, "args"))
        if not isinstance(kwargs, dict):
            raise TypeError(f"Operator(): argument 'kwargs' must be a dict, "
                            f"got {describe(kwargs)}")
        self.kwargs = dict(kwargs)
        self.inputs = _sequence(inputs, "inputs", Variable)
        self.outputs = _sequence(outputs, "outputs", Variable)
        self.out_index = _sequence(out_index, "out_index")
        self.differentiable = _sequence(differentiable, "differentiable")
        self.write_only = _sequence(write_only, "write_only", Variable)  # ``output=`` arguments
        for arg, values in (("out_index", self.out_index),
                            ("differentiable", self.differentiable)):
            if len(values) != len(self.outputs):
                raise ValueError(f"Operator(): argument '{arg}' needs one entry per output "
                                 f"({len(self.outputs)}), got {len(values)}")
        if role not in _ROLES:
            raise ValueError(f"Operator(): argument 'role' must be one of {list(_ROLES)}, "
                             f"got {describe(role)}")
        self.role = role
        self.namescope = "/" + "".join(f"{n}/" for n in _name_scopes)

    @property
    def input_arg_names(self):
        return [v.name for v in self.inputs]

    @property
    def output_arg_names(self):
        return [v.name for v in self.outputs]

    def __repr__(self):
        return f"<Operator {self._describe()}>"

    def _describe(self):
        args = [_show(a) for a in self.args]
        args += [f"{k}={_show(v)}" for k, v in trimmed_kwargs(self.fn, self.kwargs).items()]
        outs = ", ".join(v.name for v in self.outputs) or "()"
        return f"{outs} = {self.type}({', '.join(args)})"


_ROLES = ("forward", "backward", "optimize", "init")
_name_scopes = []


@contextlib.contextmanager
def _named(prefix):
    _name_scopes.append(prefix)
    try:
        yield
    finally:
        _name_scopes.pop()


def name_scope(prefix=None):
    """Group the operators built inside under ``prefix`` (their ``namescope``, as
    ``"/outer/inner/"``), for reading a printed program; nesting adds levels.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [2], "float32")
    ...     with paddle.static.name_scope("encoder"):
    ...         y = paddle.exp(x)
    >>> main.global_block().ops[0].namescope
    '/encoder/'
    >>> paddle.disable_static()
    """
    check_str(prefix, "name_scope", "prefix", allow_none=True)
    return _named(prefix or "")


def _sequence(value, arg, item_type=None):
    """``value`` (a list or tuple) as a new list, each item an ``item_type`` when given."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"Operator(): argument '{arg}' must be a list or tuple, "
                        f"got {describe(value)}")
    if item_type is not None:
        for i, item in enumerate(value):
            if not isinstance(item, item_type):
                raise TypeError(f"Operator(): argument '{arg}' item {i} must be a "
                                f"{item_type.__name__}, got {describe(item)}")
    return list(value)


def _show(value):
    if isinstance(value, Variable):
        return value.name
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_show(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    if isinstance(value, Tensor):
        return f"<Tensor {value.dtype.name}{value.shape}>"
    if callable(value):
        return getattr(value, "__name__", type(value).__name__)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# ------------------------------------------------------------------- Block
class Block:
    """The variables and the ordered operators of a Program.

    Block 0 is the global block; control flow (``static.nn.cond``,
    ``while_loop``) records its branches and loop bodies into sub-blocks,
    whose ``parent_idx`` is the block they were built in.

    >>> import pylayer as paddle
    >>> prog = paddle.static.Program()
    >>> block = prog.global_block()
    >>> v = block.create_var(name="v", dtype="float32", shape=[2])
    >>> block.var("v") is v, block.ops
    (True, [])
    """

    def __init__(self, program, idx=0, parent_idx=-1):
        if not isinstance(program, Program):
            raise TypeError(f"Block(): argument 'program' must be a Program, "
                            f"got {describe(program)}")
        self.program = program
        self.idx = check_int(idx, "Block", "idx", minimum=0)
        self.parent_idx = check_int(parent_idx, "Block", "parent_idx", minimum=-1)
        self.vars = {}
        self.ops = []

    def __repr__(self):
        return f"<Block {self.idx}: {len(self.vars)} vars, {len(self.ops)} ops>"

    def var(self, name):
        """The Variable called ``name`` here or in an enclosing block; ValueError when
        there is none."""
        check_str(name, "Block.var", "name")
        block, found = self, None
        while found is None and block is not None:
            found = block.vars.get(name)
            block = self.program.blocks[block.parent_idx] if block.parent_idx >= 0 else None
        if found is None:
            raise ValueError(f"Block.var(): block {self.idx} has no variable named {name!r}")
        return found

    def has_var(self, name):
        return check_str(name, "Block.has_var", "name") in self.vars

    def all_parameters(self):
        return [v for v in self.vars.values() if isinstance(v, Parameter)]

    def create_var(self, name: Optional[str] = None, dtype: Any = None,
                   shape: Optional[Sequence[Optional[int]]] = None, persistable: bool = False,
                   stop_gradient: bool = False, **ignored: Any) -> Variable:
        """Make a Variable in this block (an existing name returns that Variable).

        >>> import pylayer as paddle
        >>> prog = paddle.static.Program()
        >>> v = prog.current_block().create_var(name="out", dtype="float32", shape=[-1, 4])
        >>> v.name, v.shape
        ('out', [-1, 4])
        """
        fn = "Block.create_var"
        dims = as_shape(shape, fn)
        dtype = as_dtype(dtype, fn)
        if name is None:
            name = self.program._unique_name("_generated_var")
        check_str(name, fn, "name")
        existing = self.vars.get(name)
        if existing is not None:
            if dims is not None and existing._shape is not None and dims != existing._shape:
                raise ValueError(f"{fn}(): variable {name!r} already exists with shape "
                                 f"{existing._shape}, not {dims}")
            return existing
        var = Variable(self, name, dims, dtype, stop_gradient=stop_gradient,
                       persistable=persistable)
        return self._add_var(var)

    def create_parameter(self, name, shape, dtype, initializer, trainable=True,
                         learning_rate=1.0, regularizer=None, startup_program=None):
        """Make a Parameter here and the op that initialises it in the startup program.

        A Parameter of the same name, shape and dtype is shared: it is returned.
        ``initializer`` None means ``XavierUniform()``.
        """
        fn = "Block.create_parameter"
        check_str(name, fn, "name")
        dims = as_shape(shape, fn, unknown=False, allow_none=False)
        dtype = as_dtype(dtype, fn)
        if initializer is None:
            initializer = XavierUniform()
        elif not isinstance(initializer, Initializer):
            raise TypeError(f"{fn}(): argument 'initializer' must be an Initializer or None, "
                            f"got {describe(initializer)}")
        if startup_program is not None and not isinstance(startup_program, Program):
            raise TypeError(f"{fn}(): argument 'startup_program' must be a Program or None, "
                            f"got {describe(startup_program)}")
        existing = self.vars.get(name)
        if existing is not None:
            if isinstance(existing, Parameter) and existing._shape == dims \
                    and existing.dtype == dtype:
                return existing
            raise ValueError(f"{fn}(): {name!r} already exists as {existing._describe()}")
        param = Parameter(self, name, dims, dtype, initializer, trainable, learning_rate,
                          regularizer)
        self._add_var(param)
        startup = startup_program if startup_program is not None else default_startup_program()
        startup.global_block()._append_init(param, _ParamInit(initializer, param.shape,
                                                              param.dtype))
        return param

    def _add_var(self, var):
        self.vars[var.name] = var
        self.program._bump()
        return var

    def _append_init(self, like, init_fn):
        """In a startup program: a persistable twin of ``like`` set by ``init_fn()``."""
        var = self.vars.get(like.name)
        if var is None:
            var = self._add_var(Variable(self, like.name, like.shape, like.dtype,
                                         stop_gradient=True, persistable=True, kind="var"))
        return self.append_op(init_fn.__name__, init_fn, (), {}, [], [var], [None],
                              [False], role="init")

    def append_op(self, type, fn, args, kwargs, inputs, outputs, out_index, differentiable,
                  role="forward", write_only=()):
        op = Operator(self, type, fn, args, kwargs, inputs, outputs, out_index,
                      differentiable, role, write_only)
        self.ops.append(op)
        for var in outputs:
            var.op = op
        self.program._bump()
        return op


class _ParamInit:
    """The startup op of a parameter: fresh values from its initializer."""

    def __init__(self, initializer, shape, dtype):
        self.initializer = initializer
        self.shape = list(shape)
        self.dtype = dtype
        self.__name__ = type(initializer).__name__

    def __call__(self):
        array = np.asarray(self.initializer.generate(self.shape, self.dtype.np_dtype),
                           dtype=self.dtype.np_dtype)
        if list(array.shape) != self.shape:
            raise ValueError(f"initializer {self.__name__} made an array of shape "
                             f"{list(array.shape)} for a parameter of shape {self.shape}")
        return make_tensor(array)


# ----------------------------------------------------------------- Program
class Program:
    """A list of operators over named variables, run by :class:`Executor`.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [2], "float32")
    ...     y = paddle.tanh(x)
    >>> print(main)
    Program (1 block)
    block 0 variables:
      x: float32[2] (data)
      tanh_0.tmp_0: float32[2] (tmp)
    block 0 operators:
      0: tanh_0.tmp_0 = tanh(x)
    >>> paddle.disable_static()
    """

    def __init__(self) -> None:
        self.blocks = [Block(self, 0)]
        self._current = 0
        self._version = 0
        self._names = {}
        self.random_seed = 0

    def _bump(self):
        self._version += 1

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_plan", None)        # the Executor's cache: rebuilt when needed
        return state

    def _unique_name(self, prefix):
        n = self._names.get(prefix, 0)
        name = f"{prefix}_{n}"
        while name in self.blocks[0].vars:
            n += 1
            name = f"{prefix}_{n}"
        self._names[prefix] = n + 1
        return name

    def global_block(self) -> "Block":
        return self.blocks[0]

    def current_block(self) -> "Block":
        return self.blocks[self._current]

    @contextlib.contextmanager
    def _sub_block(self):
        """A new block, child of the current one, that ops are recorded into inside."""
        block = Block(self, len(self.blocks), self._current)
        self.blocks.append(block)
        self._bump()
        previous, self._current = self._current, block.idx
        try:
            yield block
        finally:
            self._current = previous

    def block(self, index: int) -> "Block":
        index = check_int(index, "Program.block", "index", minimum=0)
        if index >= len(self.blocks):
            raise ValueError(f"Program.block(): argument 'index' must be below the number of "
                             f"blocks ({len(self.blocks)}), got {index}")
        return self.blocks[index]

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    def list_vars(self):
        return iter(list(self.blocks[0].vars.values()))

    def all_parameters(self):
        return self.blocks[0].all_parameters()

    def clone(self, for_test: bool = False) -> "Program":
        """A copy with its own Variables; ``for_test=True`` also drops backward and
        optimizer ops and runs ops that take ``training`` in evaluation mode."""
        copy = Program()
        copy._names = dict(self._names)
        copy.random_seed = self.random_seed
        source, target = self.blocks[0], copy.blocks[0]
        mapping = {}
        for name, var in source.vars.items():
            if isinstance(var, Parameter):
                new = Parameter(target, name, var._shape, var._dtype, var.initializer,
                                var.trainable, var.learning_rate, var.regularizer)
            else:
                new = Variable(target, name, var._shape, var._dtype, var._stop_gradient,
                               var.persistable, var.kind)
                new._stop_set = var._stop_set
            mapping[id(var)] = new
            target.vars[name] = new
        for op in source.ops:
            if for_test and op.role in ("backward", "optimize"):
                continue
            kwargs = substitute(op.kwargs, mapping)
            if for_test and "training" in parameters_of(op.fn):
                kwargs["training"] = False
            target.append_op(op.type, op.fn, substitute(op.args, mapping), kwargs,
                             [mapping[id(v)] for v in op.inputs],
                             [mapping[id(v)] for v in op.outputs], op.out_index,
                             op.differentiable, op.role, [mapping[id(v)] for v in op.write_only])
        if for_test:
            used = {v.name for op in target.ops for v in itertools.chain(op.inputs, op.outputs)}
            for name, var in list(target.vars.items()):
                if var.kind == "grad" and name not in used:
                    del target.vars[name]
        return copy

    def __str__(self):
        count = len(self.blocks)
        lines = [f"Program ({count} block{'s' if count > 1 else ''})"]
        for block in self.blocks:
            parent = f" (in block {block.parent_idx})" if block.parent_idx >= 0 else ""
            lines.append(f"block {block.idx}{parent} variables:")
            lines += [f"  {v._describe()}" for v in block.vars.values()]
            lines.append(f"block {block.idx} operators:")
            lines += [f"  {i}: {op._describe()}" for i, op in enumerate(block.ops)]
        return "\n".join(lines)

    def to_string(self, throw_on_error=False, with_details=False):
        return str(self)

    def __repr__(self):
        block = self.blocks[0]
        return f"<Program: {len(block.vars)} vars, {len(block.ops)} ops>"


_default_main = Program()
_default_startup = Program()


def default_main_program():
    """The Program that ops are added to (see :func:`program_guard`).

    >>> import pylayer as paddle
    >>> isinstance(paddle.static.default_main_program(), paddle.static.Program)
    True
    """
    return _default_main


def default_startup_program():
    """The Program that holds parameter initialisation.

    >>> import pylayer as paddle
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     paddle.static.default_startup_program() is startup
    True
    """
    return _default_startup


def program_guard(main_program: Program,
                  startup_program: Optional[Program] = None
                  ) -> contextlib.AbstractContextManager[None]:
    """Make ``main_program`` (and ``startup_program``) the defaults inside the block.

    >>> import pylayer as paddle
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     paddle.static.default_main_program() is main
    True
    """
    if not isinstance(main_program, Program):
        raise TypeError(f"program_guard(): argument 'main_program' must be a Program, "
                        f"got {describe(main_program)}")
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(f"program_guard(): argument 'startup_program' must be a Program or "
                        f"None, got {describe(startup_program)}")
    return _programs_in_use(main_program, startup_program)


@contextlib.contextmanager
def _programs_in_use(main_program, startup_program):
    global _default_main, _default_startup
    previous = _default_main, _default_startup
    _default_main = main_program
    if startup_program is not None:
        _default_startup = startup_program
    try:
        yield
    finally:
        _default_main, _default_startup = previous


def data(name: str, shape: Sequence[Optional[int]], dtype: Any = None,
         lod_level: int = 0) -> Variable:
    """Declare an input of the default main program, fed by name at run time.

    ``-1`` or ``None`` marks a dimension known only when the data is fed.

    >>> import pylayer as paddle
    >>> with paddle.static.program_guard(paddle.static.Program()):
    ...     images = paddle.static.data(name="images", shape=[None, 784], dtype="float32")
    >>> images.shape, images.stop_gradient
    ([-1, 784], True)
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"data(): argument 'name' must be a non-empty str, got {describe(name)}")
    if shape is None:
        raise TypeError(f"data(): argument 'shape' is required (a list of ints, -1 or None "
                        f"for sizes known only when fed), got None for {name!r}")
    dims = as_shape(shape, "data")
    dtype = as_dtype(dtype, "data")
    block = default_main_program().global_block()
    existing = block.vars.get(name)
    if existing is not None:
        if existing.kind != "data" or existing._shape != dims or existing.dtype != dtype:
            raise ValueError(f"data: a variable named {name!r} already exists in the program "
                             f"({existing._describe()})")
        return existing
    return block._add_var(Variable(block, name, dims, dtype, stop_gradient=True, kind="data"))


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """A Parameter of the default main program, initialised by the startup program.

    The arguments mean what they mean to ``pylayer.create_parameter`` (which
    comes here in static mode): ``attr`` is a ``ParamAttr``, a name, an
    initializer or None; weights default to Xavier-uniform, biases to zeros.

    >>> import pylayer as paddle
    >>> with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
    ...     w = paddle.static.create_parameter([3, 2], "float32", name="w")
    >>> w.name, w.shape, w.trainable, w.persistable
    ('w', [3, 2], True, True)
    """
    return _parameter(shape, dtype, name, attr, is_bias, default_initializer)


def _parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None,
               default_name=None):
    from pylayer.nn.param import parameter_spec
    from pylayer.static._utilities import WeightNormParamAttr, weight_normalized
    spec = parameter_spec(shape, dtype, name, attr, is_bias, default_initializer)
    named = name is not None or isinstance(attr, str) or getattr(attr, "name", None)
    block = default_main_program().global_block()
    final = spec.name if named or default_name is None else default_name
    if isinstance(attr, WeightNormParamAttr):
        return weight_normalized(block, final, spec, attr.dim)
    return block.create_parameter(final, spec.shape, spec.dtype, spec.initializer,
                                  spec.trainable, spec.learning_rate, spec.regularizer)


# ------------------------------------------------- keyword arguments of a call
_signatures = weakref.WeakKeyDictionary()


def parameters_of(fn):
    """The parameters of ``fn`` (empty when it has no readable signature)."""
    try:
        return _signatures[fn]
    except (KeyError, TypeError):
        pass
    try:
        found = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        found = {}
    try:
        _signatures[fn] = found
    except TypeError:       # not weakly referenceable: look it up each time
        pass
    return found


def _same_as_default(value, default):
    if value is default:
        return True
    return type(value) is type(default) and isinstance(value, (int, float, str)) \
        and value == default


def trimmed_kwargs(fn, kwargs):
    """Drop keyword arguments that only repeat the function's defaults (cheaper calls)."""
    if not kwargs:
        return {}
    params = parameters_of(fn)
    kept = {}
    for key, value in kwargs.items():
        param = params.get(key)
        if param is not None and _same_as_default(value, param.default):
            continue
        kept[key] = value
    return kept
