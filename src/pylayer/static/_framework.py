"""Programs, blocks, variables and operators: what static mode builds.

In static mode every public op hands itself and its arguments to
:func:`record_op` (installed as ``pylayer._state.static_call``). The call is
stored in the current block as an :class:`Operator` holding the function and
the arguments as given, with :class:`Variable` placeholders among them. The
Executor later replays the operator by calling the same function on Tensors.

Output shapes and dtypes are found at build time by running the op once on
small stand-in tensors; a ``-1`` dimension is tried with two different sizes
and stays ``-1`` in every output dimension that changes with it.
"""
import contextlib
import inspect
import itertools
import math
import weakref

import numpy as np

from pylayer import _state
from pylayer._tensor import DType, Tensor, dtype_of, make_tensor, set_grad_enabled_flag
from pylayer.nn.initializer import Initializer, XavierUniform
from pylayer.ops._arguments import (check_callable, check_count, check_dtype, check_int,
                                    check_number, check_str, describe)

__all__ = ["Program", "Block", "Variable", "Parameter", "Operator", "program_guard",
           "default_main_program", "default_startup_program", "data", "create_parameter"]

# Sizes tried for -1 dimensions when inferring output shapes: two different
# sizes with many divisors, so that reshapes like [4, -1] still work.
_TRIAL_SIZES = (6, 12)

def _api():
    import pylayer
    return pylayer


def _dynamic_create_parameter():
    from pylayer.nn import param
    return param.create_parameter


# ---------------------------------------------------------------- Variable
class Variable:
    """A named placeholder in a Program: a shape (``-1`` for unknown), a dtype, no value.

    Its Python operators add ops to the program; the value appears only when
    an Executor runs the program and fetches it.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> with paddle.static.program_guard(paddle.static.Program()):
    ...     x = paddle.static.data("x", [-1, 3], "float32")
    ...     y = x * 2.0 + 1.0
    >>> y.shape, y.dtype
    ([-1, 3], pylayer.float32)
    >>> paddle.disable_static()
    """
    __array_ufunc__ = None
    __array_priority__ = 1000

    def __init__(self, block, name, shape, dtype, stop_gradient=False, persistable=False,
                 kind="var"):
        fn = type(self).__name__
        self.block = _check_block(block, fn)
        self.name = check_str(name, fn, "name")
        self._shape = _as_shape(shape, fn)
        self._dtype = _as_dtype(dtype, fn)
        self._stop_gradient = bool(stop_gradient)
        self._stop_set = False        # the user set stop_gradient on an op output
        self.persistable = bool(persistable)
        self.kind = kind              # "data", "var", "tmp", "parameter" or "grad"
        self.op = None                # the Operator that last writes this variable

    @property
    def shape(self):
        """The dimensions as a list; ``-1`` where unknown until run time."""
        return None if self._shape is None else list(self._shape)

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def stop_gradient(self):
        """When True, no gradient flows into this variable."""
        return self._stop_gradient

    @stop_gradient.setter
    def stop_gradient(self, value):
        self._stop_gradient = bool(value)
        self._stop_set = True
        self.block.program._bump()

    @property
    def program(self):
        return self.block.program

    def __repr__(self):
        shape = "unknown" if self._shape is None else self._shape
        return (f"Variable(name={self.name}, shape={shape}, dtype={self._dtype.name}, "
                f"stop_gradient={self._stop_gradient})")

    def _describe(self):
        shape = "?" if self._shape is None else self._shape
        flags = [self.kind]
        if self.persistable and self.kind != "parameter":
            flags.append("persistable")
        if not self._stop_gradient:
            flags.append("needs grad")
        return f"{self.name}: {self._dtype.name}{shape} ({', '.join(flags)})"

    # ------------------------------------------------ no value at build time
    def _no_value(self, *args, **kwargs):
        raise TypeError(f"Variable '{self.name}' has no value while the program is being "
                        f"built; fetch it with Executor.run(..., fetch_list=[{self.name!r}])")

    numpy = item = tolist = __array__ = _no_value

    def __bool__(self):
        self._no_value()

    def __float__(self):
        self._no_value()

    def __int__(self):
        self._no_value()

    def __len__(self):
        if not self._shape or self._shape[0] < 0:
            raise TypeError(f"len() of Variable '{self.name}' with shape {self._shape}: "
                            f"the first dimension is not known at build time")
        return self._shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __hash__(self):
        return id(self)

    # ---------------------------------------------- methods and operators
    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        fn = _api().tensor_methods().get(name)
        if fn is None:
            raise AttributeError(f"'Variable' object has no attribute {name!r}")
        return fn.__get__(self)

    def astype(self, dtype):
        check_dtype(dtype, "Variable.astype", allow_none=False)
        return _api().cast(self, dtype)

    def clone(self):
        return _api().assign(self)

    @property
    def T(self):
        return _api().transpose(self, list(range(len(self._shape)))[::-1])

    def __getitem__(self, index):
        return _api().getitem(self, index)

    def __setitem__(self, index, value):
        _api().setitem(self, index, value)

    def __add__(self, other):
        return _api().add(self, other)

    def __radd__(self, other):
        return _api().add(other, self)

    def __sub__(self, other):
        return _api().subtract(self, other)

    def __rsub__(self, other):
        return _api().subtract(other, self)

    def __mul__(self, other):
        return _api().multiply(self, other)

    def __rmul__(self, other):
        return _api().multiply(other, self)

    def __truediv__(self, other):
        return _api().divide(self, other)

    def __rtruediv__(self, other):
        return _api().divide(other, self)

    def __floordiv__(self, other):
        return _api().floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _api().floor_divide(other, self)

    def __mod__(self, other):
        return _api().remainder(self, other)

    def __rmod__(self, other):
        return _api().remainder(other, self)

    def __pow__(self, other):
        return _api().pow(self, other)

    def __rpow__(self, other):
        return _api().pow(other, self)

    def __matmul__(self, other):
        return _api().matmul(self, other)

    def __rmatmul__(self, other):
        return _api().matmul(other, self)

    def __neg__(self):
        return _api().neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _api().abs(self)

    def __invert__(self):
        return _api().logical_not(self)

    def __eq__(self, other):
        return _api().equal(self, other)

    def __ne__(self, other):
        return _api().not_equal(self, other)

    def __lt__(self, other):
        return _api().less_than(self, other)

    def __le__(self, other):
        return _api().less_equal(self, other)

    def __gt__(self, other):
        return _api().greater_than(self, other)

    def __ge__(self, other):
        return _api().greater_equal(self, other)


class Parameter(Variable):
    """A trainable, persistable Variable; the startup program gives it its first value.

    Its value lives in the Scope between runs, under its name.

    >>> import pylayer as paddle
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     w = paddle.static.create_parameter([2, 2], "float32", name="w_param_demo")
    >>> isinstance(w, paddle.static.Parameter), w.persistable, w.trainable
    (True, True, True)
    >>> [p.name for p in main.all_parameters()]
    ['w_param_demo']
    """

    def __init__(self, block, name, shape, dtype, initializer=None, trainable=True,
                 learning_rate=1.0, regularizer=None):
        fn = type(self).__name__
        shape = _as_shape(shape, fn, unknown=False, allow_none=False)
        if initializer is not None and not isinstance(initializer, Initializer):
            raise TypeError(f"{fn}(): argument 'initializer' must be an Initializer or None, "
                            f"got {describe(initializer)}")
        super().__init__(block, name, shape, dtype, stop_gradient=not trainable,
                         persistable=True, kind="parameter")
        self.initializer = initializer
        self.learning_rate = check_number(learning_rate, fn, "learning_rate", minimum=0)
        self.regularizer = regularizer

    @property
    def trainable(self):
        return not self._stop_gradient

    @property
    def optimize_attr(self):
        return {"learning_rate": self.learning_rate}

    @trainable.setter
    def trainable(self, value):
        self.stop_gradient = not value


def _as_dtype(dtype, fn):
    """The DType that ``dtype`` names (None means float32)."""
    if isinstance(dtype, DType):
        return dtype
    return dtype_of(check_dtype("float32" if dtype is None else dtype, fn))


def _as_shape(shape, fn, unknown=True, allow_none=True):
    """``shape`` as a list of ints. With ``unknown``, -1 or None marks a size known
    only at run time; ``allow_none`` lets the whole shape be None (not known yet)."""
    if shape is None and allow_none:
        return None
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = [shape]
    sizes = "ints (-1 or None for unknown)" if unknown else "non-negative ints"
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{fn}(): argument 'shape' must be a list or tuple of {sizes}, "
                        f"got {describe(shape)}")
    dims = []
    for d in shape:
        if d is None and unknown:
            d = -1
        if not isinstance(d, (int, np.integer)) or isinstance(d, (bool, np.bool_)):
            raise TypeError(f"{fn}(): argument 'shape' must hold {sizes}, got "
                            f"{describe(d)} in {list(shape)}")
        if d < (-1 if unknown else 0):
            raise ValueError(f"{fn}(): argument 'shape' must hold {sizes}, got {list(shape)}")
        dims.append(int(d))
    check_count(math.prod(d for d in dims if d >= 0), fn, "shape")
    return dims


def _check_block(block, fn):
    if not isinstance(block, Block):
        raise TypeError(f"{fn}(): argument 'block' must be a Block, got {describe(block)}")
    return block


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
        self.block = _check_block(block, "Operator")
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
    """The variables and the ordered operators of a Program (pylayer has one block).

    >>> import pylayer as paddle
    >>> prog = paddle.static.Program()
    >>> block = prog.global_block()
    >>> v = block.create_var(name="v", dtype="float32", shape=[2])
    >>> block.var("v") is v, block.ops
    (True, [])
    """

    def __init__(self, program, idx=0):
        if not isinstance(program, Program):
            raise TypeError(f"Block(): argument 'program' must be a Program, "
                            f"got {describe(program)}")
        self.program = program
        self.idx = check_int(idx, "Block", "idx", minimum=0)
        self.vars = {}
        self.ops = []

    def __repr__(self):
        return f"<Block {self.idx}: {len(self.vars)} vars, {len(self.ops)} ops>"

    def var(self, name):
        """The Variable called ``name``; ValueError when there is none."""
        found = self.vars.get(check_str(name, "Block.var", "name"))
        if found is None:
            raise ValueError(f"Block.var(): block {self.idx} has no variable named {name!r}")
        return found

    def has_var(self, name):
        return check_str(name, "Block.has_var", "name") in self.vars

    def all_parameters(self):
        return [v for v in self.vars.values() if isinstance(v, Parameter)]

    def create_var(self, name=None, dtype=None, shape=None, persistable=False,
                   stop_gradient=False, **ignored):
        """Make a Variable in this block (an existing name returns that Variable).

        >>> import pylayer as paddle
        >>> prog = paddle.static.Program()
        >>> v = prog.current_block().create_var(name="out", dtype="float32", shape=[-1, 4])
        >>> v.name, v.shape
        ('out', [-1, 4])
        """
        fn = "Block.create_var"
        dims = _as_shape(shape, fn)
        dtype = _as_dtype(dtype, fn)
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
        dims = _as_shape(shape, fn, unknown=False, allow_none=False)
        dtype = _as_dtype(dtype, fn)
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

    def __init__(self):
        self.blocks = [Block(self, 0)]
        self._version = 0
        self._names = {}
        self.random_seed = 0

    def _bump(self):
        self._version += 1

    def _unique_name(self, prefix):
        n = self._names.get(prefix, 0)
        name = f"{prefix}_{n}"
        while name in self.blocks[0].vars:
            n += 1
            name = f"{prefix}_{n}"
        self._names[prefix] = n + 1
        return name

    def global_block(self):
        return self.blocks[0]

    def current_block(self):
        return self.blocks[0]

    def block(self, index):
        index = check_int(index, "Program.block", "index", minimum=0)
        if index >= len(self.blocks):
            raise ValueError(f"Program.block(): argument 'index' must be below the number of "
                             f"blocks ({len(self.blocks)}), got {index}")
        return self.blocks[index]

    @property
    def num_blocks(self):
        return len(self.blocks)

    def list_vars(self):
        return iter(list(self.blocks[0].vars.values()))

    def all_parameters(self):
        return self.blocks[0].all_parameters()

    def clone(self, for_test=False):
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
            kwargs = _substitute(op.kwargs, mapping)
            if for_test and "training" in _parameters(op.fn):
                kwargs["training"] = False
            target.append_op(op.type, op.fn, _substitute(op.args, mapping), kwargs,
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
        block = self.blocks[0]
        lines = [f"Program ({len(self.blocks)} block)", "block 0 variables:"]
        lines += [f"  {v._describe()}" for v in block.vars.values()]
        lines.append("block 0 operators:")
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


def program_guard(main_program, startup_program=None):
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


def data(name, shape, dtype=None, lod_level=0):
    """Declare an input of the default main program, fed by name at run time.

    ``-1`` or ``None`` marks a dimension known only when the data is fed.

    >>> import pylayer as paddle
    >>> with paddle.static.program_guard(paddle.static.Program()):
    ...     x = paddle.static.data(name="x", shape=[None, 784], dtype="float32")
    >>> x.shape, x.stop_gradient
    ([-1, 784], True)
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"data(): argument 'name' must be a non-empty str, got {describe(name)}")
    if shape is None:
        raise TypeError(f"data(): argument 'shape' is required (a list of ints, -1 or None "
                        f"for sizes known only when fed), got None for {name!r}")
    dims = _as_shape(shape, "data")
    dtype = _as_dtype(dtype, "data")
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
    ...     w = paddle.static.create_parameter([3, 2], "float32", name="w_demo")
    >>> w.name, w.shape, w.trainable
    ('w_demo', [3, 2], True)
    """
    return _parameter(shape, dtype, name, attr, is_bias, default_initializer)


def _parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None,
               default_name=None):
    from pylayer.nn.param import parameter_spec
    spec = parameter_spec(shape, dtype, name, attr, is_bias, default_initializer)
    named = name is not None or isinstance(attr, str) or getattr(attr, "name", None)
    return default_main_program().global_block().create_parameter(
        spec.name if named or default_name is None else default_name, spec.shape,
        spec.dtype, spec.initializer, spec.trainable, spec.learning_rate, spec.regularizer)


# --------------------------------------------------------- recording ops
def _walk_variables(value, found):
    if isinstance(value, Variable):
        if id(value) not in found:
            found[id(value)] = value
    elif isinstance(value, (list, tuple)):
        for item in value:
            _walk_variables(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _walk_variables(item, found)


def variables_in(*values):
    """The distinct Variables inside ``values`` (lists, tuples, dicts), in order."""
    found = {}
    for value in values:
        _walk_variables(value, found)
    return list(found.values())


def _substitute(value, mapping):
    """``value`` with each Variable replaced by ``mapping[id(variable)]``."""
    if isinstance(value, Variable):
        return mapping[id(value)]
    if isinstance(value, list):
        return [_substitute(v, mapping) for v in value]
    if isinstance(value, tuple):
        return tuple(_substitute(v, mapping) for v in value)
    if isinstance(value, dict):
        return {k: _substitute(v, mapping) for k, v in value.items()}
    return value


_signatures = weakref.WeakKeyDictionary()


def _parameters(fn):
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
    params = _parameters(fn)
    kept = {}
    for key, value in kwargs.items():
        param = params.get(key)
        if param is not None and _same_as_default(value, param.default):
            continue
        kept[key] = value
    return kept


@contextlib.contextmanager
def dynamic_mode():
    """Run ops for real inside the block (static mode off), restoring the mode after."""
    previous = _state.set_static_mode(False)
    try:
        yield
    finally:
        _state.set_static_mode(previous)


@contextlib.contextmanager
def _random_streams_kept():
    """Leave pylayer's and numpy's random streams as they were (for trial runs)."""
    from pylayer.ops.creation import get_rng
    rng = get_rng()
    state = rng.bit_generator.state
    np_state = np.random.get_state()
    try:
        yield
    finally:
        rng.bit_generator.state = state
        np.random.set_state(np_state)


def _stand_in(var, size):
    shape = [size if d < 0 else d for d in var._shape]
    np_dtype = var._dtype.np_dtype
    if np_dtype.kind not in "fc":
        return make_tensor(np.zeros(shape, np_dtype))
    # Floating stand-ins need a gradient, so that the trial shows which
    # outputs are differentiable; an op output rather than a leaf, so that
    # in-place ops (``x[0] = v``) accept them.
    return _api().assign(make_tensor(np.full(shape, 0.5, np_dtype), False))


def _trial(fn, args, kwargs, variables, size):
    stand_ins = {id(v): _stand_in(v, size) for v in variables}
    result = fn(*_substitute(args, stand_ins), **_substitute(kwargs, stand_ins))
    return result, stand_ins


def _infer(fn, args, kwargs, variables):
    """Run ``fn`` on stand-ins: (result, stand-ins, result of a second size or None)."""
    unknown = any(d < 0 for v in variables for d in v._shape)
    previous_grad = set_grad_enabled_flag(True)
    try:
        with dynamic_mode(), _random_streams_kept(), np.errstate(all="ignore"):
            first, stand_ins = _trial(fn, args, kwargs, variables, _TRIAL_SIZES[0])
            second = None
            if unknown:
                second, _ = _trial(fn, args, kwargs, variables, _TRIAL_SIZES[1])
    except Exception as exc:
        shapes = ", ".join(f"{v.name}: {v._shape}" for v in variables)
        note = f"while adding {getattr(fn, '__name__', fn)} to a static program (inputs {shapes}"
        if unknown:
            note += f"; -1 dimensions were tried as {_TRIAL_SIZES[0]}"
        exc.add_note(note + ")")
        raise
    finally:
        set_grad_enabled_flag(previous_grad)
    return first, stand_ins, second


def _merged_shape(a, b):
    if b is None:
        return list(a.shape)
    sa, sb = list(a.shape), list(b.shape)
    if len(sa) != len(sb):
        return [-1] * len(sa)
    return [x if x == y else -1 for x, y in zip(sa, sb)]


def record_op(fn, *args, **kwargs):
    """Add ``fn(*args, **kwargs)`` to the current block; return its output Variables.

    This is ``pylayer._state.static_call``. A call without Variables among
    its arguments is computed at once and its result returned as a constant.
    """
    if fn is _dynamic_create_parameter():
        return create_parameter(*args, **kwargs)
    name = kwargs.pop("name", None) if "name" in kwargs else None
    variables = variables_in(args, kwargs)
    if not variables:
        with dynamic_mode():
            return fn(*args, **kwargs)
    program = default_main_program()
    block = program.current_block()
    op_type = getattr(fn, "__name__", type(fn).__name__)
    for v in variables:
        if v.block.program is not program:
            raise ValueError(f"{op_type}: Variable '{v.name}' belongs to another Program "
                             f"than the one being built; build ops inside the program_guard "
                             f"of the program that holds their inputs")
        if v._shape is None:
            raise ValueError(f"{op_type}: Variable '{v.name}' has no shape; give it one "
                             f"when creating it (create_var(..., shape=[...]))")
    result, stand_ins, second = _infer(fn, args, kwargs, variables)
    by_stand_in = {id(t): v for v, t in zip(variables, stand_ins.values())}
    needs_grad = any(not v._stop_gradient for v in variables)
    op_id = program._unique_name(op_type) if name is None else None

    outputs, out_index, differentiable = [], [], []

    def bind(tensor, other, index):
        existing = by_stand_in.get(id(tensor))
        if existing is not None:
            # The op hands back one of its inputs: unchanged (nothing to
            # record for it), or written in place (like assign's ``output``).
            if tensor.inplace_version:
                outputs.append(existing)
                differentiable.append(True)
                out_index.append(index)
            return existing
        if name is not None and name not in block.vars and not outputs:
            var_name = name
        elif op_id is not None:
            var_name = f"{op_id}.tmp_{len(outputs)}"
        else:
            var_name = program._unique_name(name)
        grad_flows = not tensor.stop_gradient
        var = Variable(block, var_name, _merged_shape(tensor, other), tensor.dtype,
                       stop_gradient=not (grad_flows and needs_grad), kind="tmp")
        block.vars[var_name] = var
        outputs.append(var)
        differentiable.append(grad_flows)
        out_index.append(index)
        return var

    if isinstance(result, Tensor):
        value = bind(result, second, None)
    elif isinstance(result, (list, tuple)) and any(isinstance(r, Tensor) for r in result):
        items = [bind(r, second[i] if second is not None else None, i)
                 if isinstance(r, Tensor) else r for i, r in enumerate(result)]
        value = type(result)(items) if isinstance(result, list) else tuple(items)
    else:
        return result
    if outputs:
        block.append_op(op_type, fn, args, kwargs, variables, outputs, out_index,
                        differentiable, write_only=_write_only(fn, args, kwargs))
    return value


def _write_only(fn, args, kwargs):
    """Variables given as a call's ``output``/``out`` argument: written, not read."""
    names = [n for n in ("output", "out") if n in _parameters(fn)]
    if not names:
        return []
    try:
        bound = inspect.signature(fn).bind_partial(*args, **kwargs).arguments
    except TypeError:
        return []
    return [bound[n] for n in names if isinstance(bound.get(n), Variable)]
