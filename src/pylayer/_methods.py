"""The Tensor methods, derived from the ops' declarations; read by ``Tensor``, the stubs and the docs.

An op declares what Paddle makes of it where it is defined, with ``op``
(``pylayer.ops.dispatch``) or, for a function that is not dispatched, with
``declare`` (``pylayer.ops.declaration``):

``method=True``
    ``x.<name>(...)`` is ``pylayer.<name>(x, ...)``, for every name the op has in
    ``pylayer.__all__`` (an alias such as ``clamp = clip`` is a method too).
``inplace=True``
    also ``x.<name>_(...)``, which stores the result in ``x`` itself (see
    ``pylayer.ops.inplace.inplace``). Where the area defines the function-level twin
    (``abs_ = inplace_twin(abs)``, as Paddle has ``paddle.abs_``), the method is
    that function.

:func:`build` collects the table from the ``pylayer`` namespace. The methods
that are no such function (``zero_``, ``set_value``, ``gradient``, ...) are
``_EXTRA_METHODS`` of ``pylayer/__init__.py``, given to :func:`build`.
"""
import inspect

from pylayer.ops.declaration import declared
from pylayer.ops.inplace import inplace_twin

__all__ = []


# The functions the core calls besides Tensor's methods: its operators' (OPERATORS)
# and these (the engine sums and casts gradients with add and cast under create_graph).
TENSOR_CALLS = ("assign", "cast", "getitem", "setitem", "transpose")


def tensor_functions(namespace):
    """``{name: function}`` of the functions Tensor's operators and own methods call."""
    names = {name for name, _ in OPERATORS.values()} | set(TENSOR_CALLS)
    return {name: namespace[name] for name in sorted(names)}


def build(namespace, names, extra):
    """``{method name: function}`` from the ``pylayer`` namespace, its public ``names``
    and the extra methods."""
    methods, with_inplace = declared(namespace, names)
    table = {name: namespace[name] for name in methods}
    for name in with_inplace:
        twin = namespace.get(name + "_")
        table[name + "_"] = twin if twin is not None else inplace_twin(namespace[name])
    for name in extra:
        if name in table:
            raise ValueError(f"build(): the extra method {name!r} is also a declared one")
    table.update(extra)
    return table


# Python's operators, for Tensor and static Variable alike:
# dunder -> (function of the pylayer namespace, how the operands are passed).
OPERATORS = {
    "__add__": ("add", "forward"), "__radd__": ("add", "reflected"),
    "__sub__": ("subtract", "forward"), "__rsub__": ("subtract", "reflected"),
    "__mul__": ("multiply", "forward"), "__rmul__": ("multiply", "reflected"),
    "__truediv__": ("divide", "forward"), "__rtruediv__": ("divide", "reflected"),
    "__floordiv__": ("floor_divide", "forward"), "__rfloordiv__": ("floor_divide", "reflected"),
    "__mod__": ("remainder", "forward"), "__rmod__": ("remainder", "reflected"),
    "__pow__": ("pow", "forward"), "__rpow__": ("pow", "reflected"),
    "__matmul__": ("matmul", "forward"), "__rmatmul__": ("matmul", "reflected"),
    "__and__": ("bitwise_and", "forward"), "__rand__": ("bitwise_and", "reflected"),
    "__or__": ("bitwise_or", "forward"), "__ror__": ("bitwise_or", "reflected"),
    "__xor__": ("bitwise_xor", "forward"), "__rxor__": ("bitwise_xor", "reflected"),
    "__eq__": ("equal", "forward"), "__ne__": ("not_equal", "forward"),
    "__lt__": ("less_than", "forward"), "__le__": ("less_equal", "forward"),
    "__gt__": ("greater_than", "forward"), "__ge__": ("greater_equal", "forward"),
    "__neg__": ("neg", "unary"), "__abs__": ("abs", "unary"),
    "__invert__": ("bitwise_not", "unary"),
}
# No augmented operator (``__iadd__`` ...), as in Paddle: ``a += b`` binds ``a`` to the
# new tensor ``a + b`` and leaves the old one alone; the ``*_`` methods write in place.


def bound_operators(functions):
    """``{dunder: function}`` for Tensor, from OPERATORS: an operator that passes the
    operands as they come is the op itself (it binds as a method); the others wrap it.

    >>> import pylayer
    >>> bound_operators(tensor_functions(vars(pylayer)))["__pow__"] is pylayer.pow
    True
    """
    table = {}
    for dunder, (name, how) in OPERATORS.items():
        if how in ("forward", "unary"):
            table[dunder] = functions[name]
        else:
            table[dunder] = operator_method(dunder, functions.__getitem__)
    return table


def operator_method(dunder, lookup):
    """A Python method for ``dunder`` that calls ``lookup(function name)`` at call time
    (static Variable takes its operators this way; Tensor's compiled ones follow the
    same table, which tests/core/test_tensor_methods.py checks).

    >>> import pylayer
    >>> from pylayer import extend
    >>> radd = extend.operator_method("__radd__", lambda name: lambda x, y: (name, x, y))
    >>> radd("self", 1)
    ('add', 1, 'self')
    """
    if not isinstance(dunder, str):
        raise TypeError(f"operator_method(): argument 'dunder' must be a str, got "
                        f"{type(dunder).__name__}")
    if dunder not in OPERATORS:
        raise ValueError(f"operator_method(): argument 'dunder' must be an operator of "
                         f"OPERATORS such as '__add__', got {dunder!r}")
    if not callable(lookup):
        raise TypeError(f"operator_method(): argument 'lookup' must be callable, got "
                        f"{type(lookup).__name__}")
    name, how = OPERATORS[dunder]
    if how == "unary":
        def method(self):
            return lookup(name)(self)
    elif how == "reflected":
        def method(self, other):
            return lookup(name)(other, self)
    else:
        def method(self, other):
            return lookup(name)(self, other)
    method.__name__ = dunder
    return method


def install(cls, methods, operators):
    """Make the method table ``methods`` and the ``operators`` (``bound_operators``) class
    attributes of Tensor ``cls``, whose metaclass lets them through. An operator that
    Tensor compiles (its hot arithmetic, which follows OPERATORS too) stays compiled; a
    method may not hide anything Tensor has of its own."""
    own = set(vars(cls))
    for name in methods:
        if name in own:
            raise ValueError(f"install(): method {name!r} is Tensor's own; the method table "
                             f"must not list it")
    for name, function in methods.items():
        setattr(cls, name, function)
    for name, function in operators.items():
        if name not in own:
            setattr(cls, name, function)


# ----------------------------------------------------------------- the type stub
STUB = "_core/tensor.pyi"
STUB_BEGIN = "    # Generated by tools/write_stubs.py from pylayer._methods: the operators and\n"
STUB_HEADER = (STUB_BEGIN + "    # the method table, pylayer.<name>(self, ...) and <name>_ in place.\n")


def stub_parameters(function, skip_first=True):
    """The parameters of ``function`` as a stub writes them: ``self`` in place of the
    first with ``skip_first`` (a method), each typed ``Any``.

    >>> import pylayer
    >>> stub_parameters(pylayer.add)
    'self, y: Any, name: Any = ...'
    """
    parts, keyword_only = [], False
    params = list(inspect.signature(function).parameters.values())
    if skip_first:
        parts, params = ["self"], params[1:]
    for param in params:
        if param.kind is param.VAR_POSITIONAL:
            parts.append(f"*{param.name}: Any")
            keyword_only = True
            continue
        if param.kind is param.KEYWORD_ONLY and not keyword_only:
            parts.append("*")
            keyword_only = True
        if param.kind is param.VAR_KEYWORD:
            parts.append(f"**{param.name}: Any")
            continue
        default = "" if param.default is param.empty else " = ..."
        parts.append(f"{param.name}: Any{default}")
    return ", ".join(parts)


def tensor_stub(methods):
    """The generated part of class Tensor in ``_core/tensor.pyi``: its operators (from
    OPERATORS) and the methods of ``methods`` with their real parameters.

    >>> import pylayer
    >>> "    def exp(self, name: Any = ...) -> Any: ..." in tensor_stub(pylayer.tensor_methods())
    True
    """
    lines = [STUB_HEADER.rstrip("\n")]
    for dunder, (_, how) in sorted(OPERATORS.items()):
        other = "" if how == "unary" else ", other: Any"
        lines.append(f"    def {dunder}(self{other}) -> Tensor: ...")
    for name in sorted(methods):
        if isinstance(methods[name], property):
            lines.append(f"    @property\n    def {name}(self) -> Any: ...")
            continue
        line = f"    def {name}({stub_parameters(methods[name])}) -> Any: ..."
        if len(line) > 99:
            line = line.replace("(self, ", "(\n        self, ", 1).replace(", ", ",\n        ")
        lines.append(line)
    return "\n".join(lines) + "\n"

