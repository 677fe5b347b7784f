"""What an op record declares, checked and worked out once, when the record is made.

:class:`pylayer._core.graph.Op` calls :func:`describe` with its arguments and keeps
what it returns; the graph then reads a kept value or attribute by a slot number
instead of a name. ``Op`` checks again the few numbers its compiled code indexes
with, so nothing returned here is trusted blindly.

>>> describe("cube", "x", "out", ("x",), (), (lambda g, x: g * 3.0 * x * x,))
('cube', ('x',), ('out',), ('x',), (), (0,), ((0,),))
"""
import inspect

__all__ = []

# The slot of needs_input_grad, which no kept value or attribute has.
NEEDS_INPUT_GRAD = -1000000


def names_text(names):
    """``x, y`` for error messages, or ``nothing``."""
    return ", ".join(names) if names else "nothing"


def node_name(op_name):
    """The name of an op's nodes: ``TanhGradNode``, or a custom op's full name.

    >>> node_name("log_softmax"), node_name("GradNodePyLayer_Tanh")
    ('LogSoftmaxGradNode', 'GradNodePyLayer_Tanh')
    """
    if op_name[:1].isupper():
        return op_name
    return "".join(part[:1].upper() + part[1:] for part in op_name.split("_")) + "GradNode"


def _names(op_name, arg, value, none_allowed):
    """Names given as a tuple, or one name as a string (None for any number of inputs)."""
    if value is None and none_allowed:
        return None
    if isinstance(value, str):
        value = (value,)
    if not isinstance(value, tuple):
        raise TypeError(f"Op({op_name!r}): argument {arg!r} must be a name or a tuple of names"
                        f"{' or None' if none_allowed else ''}, got {type(value).__name__}")
    for item in value:
        if not isinstance(item, str) or not item.isidentifier():
            raise ValueError(f"Op({op_name!r}): argument {arg!r} must hold names "
                             f"(identifiers), got {item!r}")
    return value


def _reads(op_name, rule, slots):
    """The slots of what a rule reads: the names of its parameters after the first (the
    output gradient), each a kept value, an attribute or ``needs_input_grad``."""
    try:
        params = list(inspect.signature(rule).parameters.values())
    except (TypeError, ValueError):
        raise TypeError(f"Op({op_name!r}): argument 'vjp' holds {rule!r}; a rule must be a "
                        f"function whose parameters name what it reads") from None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if not params or params[0].kind not in positional:
        raise TypeError(f"Op({op_name!r}): argument 'vjp' holds {rule!r}, which takes no "
                        f"gradient; a rule takes the output gradient first, then the values "
                        f"it reads by name")
    for param in params[1:]:
        if param.kind not in positional or param.name not in slots:
            raise ValueError(f"Op({op_name!r}): argument 'vjp' has a rule reading "
                             f"{param.name!r}, none of what the op keeps or its attributes "
                             f"({', '.join(sorted(slots))})")
    return tuple([slots[param.name] for param in params[1:]])


def describe(name, inputs, outputs, keeps, attrs, vjp):
    """Check an op's declaration; return ``(name, inputs, outputs, keeps, attrs, sources,
    reads)``: the names as tuples (``inputs`` None for any number), per kept name its
    source (an input's position, or ``-1 - k`` for output k), and per rule the slots
    it reads (a kept value's index, ``-1 - i`` for attribute i, NEEDS_INPUT_GRAD), or
    None for an input without a rule."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"Op(): argument 'name' must be a non-empty str, got "
                        f"{type(name).__name__}")
    inputs = _names(name, "inputs", inputs, True)
    outputs = _names(name, "outputs", outputs, False)
    keeps = _names(name, "keeps", keeps, False)
    attrs = _names(name, "attrs", attrs, False)
    names = (inputs or ()) + outputs + attrs
    if len(set(names)) != len(names) or "needs_input_grad" in names:
        raise ValueError(f"Op({name!r}): the names of inputs, outputs and attributes must "
                         f"differ (and none be 'needs_input_grad'), got {names}")
    sources = []
    for item in keeps:
        if inputs is not None and item in inputs:
            sources.append(inputs.index(item))
        elif item in outputs:
            sources.append(-1 - outputs.index(item))
        else:
            raise ValueError(f"Op({name!r}): argument 'keeps' may name only its inputs "
                             f"({names_text(inputs or ())}) or outputs "
                             f"({names_text(outputs)}), not {item!r}")
    slots = {"needs_input_grad": NEEDS_INPUT_GRAD}
    slots.update({item: i for i, item in enumerate(keeps)})
    slots.update({item: -1 - i for i, item in enumerate(attrs)})
    if isinstance(vjp, tuple):
        if inputs is None or len(vjp) != len(inputs):
            raise ValueError(f"Op({name!r}): argument 'vjp' must give one rule (or None) per "
                             f"input ({names_text(inputs or ())}), got {len(vjp)}")
        rules = vjp
    elif callable(vjp):
        rules = (vjp,)
    else:
        raise TypeError(f"Op({name!r}): argument 'vjp' must be one rule per input (a "
                        f"tuple) or one rule for all inputs, got {type(vjp).__name__}")
    reads = tuple([None if rule is None else _reads(name, rule, slots) for rule in rules])
    return name, inputs, outputs, keeps, attrs, tuple(sources), reads


def check_outputs(fn, op, count):
    """Refuse ``count`` outputs made by ``fn`` (``make_output``: one, ``make_outputs``: one
    per array) for the record ``op``: a record that names several outputs takes exactly
    that many, one without ``multi_output`` takes one (its rules get one gradient), a
    ``multi_output`` record of one name takes any number.

    >>> from pylayer._core.graph import Op
    >>> check_outputs("make_outputs", Op("double", vjp=(None,)), 2)
    Traceback (most recent call last):
      ...
    ValueError: make_outputs(): argument 'arrays': double declares 1 output (out) and is not multi_output, got 2 arrays
    """
    declared = len(op.outputs)
    if count == declared or (op.multi_output and declared == 1):
        return
    names = f"{declared} output{'s' if declared > 1 else ''} ({names_text(op.outputs)})"
    if fn == "make_output":
        raise ValueError(f"make_output(): argument 'op': {op.name} declares {names}: make "
                         f"them with make_outputs")
    single = "" if op.multi_output else " and is not multi_output"
    raise ValueError(f"{fn}(): argument 'arrays': {op.name} declares {names}{single}, got "
                     f"{count} arrays")


def refuse_call(fn, op, inputs, attrs):
    """Raise the error of a call of ``fn`` (``make_output``...) with an ``Op`` whose
    ``inputs`` or ``attrs`` do not fit: not tuples, or not as many as the record names.

    >>> from pylayer._core.graph import Op
    >>> refuse_call("make_output", Op("double", vjp=(None,)), (), ())
    Traceback (most recent call last):
      ...
    ValueError: make_output(): argument 'inputs': double takes 1 input(s) (x) and 0 attribute(s) (nothing), got 0 and 0
    """
    for arg, value in (("inputs", inputs), ("attrs", attrs)):
        if type(value) is not tuple:
            raise TypeError(f"{fn}(): argument {arg!r} must be a tuple, got "
                            f"{type(value).__name__}")
    expected = op.inputs or ()
    arg = "inputs" if op.inputs is not None and len(inputs) != len(expected) else "attrs"
    raise ValueError(f"{fn}(): argument {arg!r}: {op.name} takes {len(expected)} input(s) "
                     f"({names_text(expected)}) and {len(op.attrs)} attribute(s) "
                     f"({names_text(op.attrs)}), got {len(inputs)} and {len(attrs)}")
