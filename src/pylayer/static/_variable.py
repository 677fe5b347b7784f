"""Variables: the named, valueless placeholders that a static Program is built from.

A :class:`Variable` has a shape (``-1`` where the size is known only at run
time) and a dtype. Its Python operators call the public ops, which record
themselves into the current Program because a Variable is among their
arguments (see ``pylayer.ops.dispatch``). A
:class:`Parameter` is a trainable, persistable Variable whose first value
comes from the startup program.
"""
import math

import numpy as np

from pylayer.extend import (OPERATORS, DType, check_count, check_dtype, check_number, check_str,
                            describe, operator_method)
from pylayer.nn.initializer import Initializer

__all__ = ["Variable", "Parameter"]


def public_api():
    """The ``pylayer`` package, whose ops a Variable's operators call (imported
    late: the package imports this module while it loads)."""
    import pylayer
    return pylayer


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
        self.block = check_block(block, fn)
        self.name = check_str(name, fn, "name")
        self._shape = as_shape(shape, fn)
        self._dtype = as_dtype(dtype, fn)
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
        fn = public_api().tensor_methods().get(name)
        if fn is None:
            raise AttributeError(f"'Variable' object has no attribute {name!r}")
        return fn.__get__(self)

    def astype(self, dtype):
        check_dtype(dtype, "Variable.astype", allow_none=False)
        return public_api().cast(self, dtype)

    def clone(self):
        return public_api().assign(self)

    @property
    def T(self):
        return public_api().transpose(self, list(range(len(self._shape)))[::-1])

    def __getitem__(self, index):
        return public_api().getitem(self, index)

    def __setitem__(self, index, value):
        public_api().setitem(self, index, value)

    def __pos__(self):
        return self


def _api_function(name):
    return getattr(public_api(), name)


# The same operators as Tensor, from the one table of pylayer._methods.
for _dunder in OPERATORS:
    setattr(Variable, _dunder, operator_method(_dunder, _api_function))


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
        shape = as_shape(shape, fn, unknown=False, allow_none=False)
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


def as_dtype(dtype, fn):
    """The DType that ``dtype`` names (None means float32)."""
    if isinstance(dtype, DType):
        return dtype
    np_dtype = check_dtype("float32" if dtype is None else dtype, fn)
    return DType(np_dtype.name, np_dtype)


def as_shape(shape, fn, unknown=True, allow_none=True):
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


def check_block(block, fn):
    from pylayer.static._program import Block   # a Block holds Variables: imported late
    if not isinstance(block, Block):
        raise TypeError(f"{fn}(): argument 'block' must be a Block, got {describe(block)}")
    return block


# ------------------------------------------------ Variables among arguments
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


def substitute(value, mapping):
    """``value`` with each Variable replaced by ``mapping[id(variable)]``."""
    if isinstance(value, Variable):
        return mapping[id(value)]
    if isinstance(value, list):
        return [substitute(v, mapping) for v in value]
    if isinstance(value, tuple):
        return tuple(substitute(v, mapping) for v in value)
    if isinstance(value, dict):
        return {k: substitute(v, mapping) for k, v in value.items()}
    return value
