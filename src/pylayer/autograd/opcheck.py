"""Check a custom PyLayer against the rules of writing one, in one call: ``opcheck``.

``opcheck(MyLayer, args)`` runs ``MyLayer.apply`` on copies of the example
inputs (float Tensors as float64 copies) and reports ten checks, each with a
verdict, the evidence and what to change; the checks themselves are in
``_opcheck_checks``. ``python -m pylayer check module:Class --input
"float64[3,4]"`` runs it from the shell (``_command_line``).
"""
import argparse
import ast
import importlib
import importlib.util
import re
import sys
import textwrap

import numpy as np

from pylayer._kernels.dtypes import is_bool, is_floating, is_integer
from pylayer._core.tensor import Tensor
from pylayer.autograd._opcheck_checks import (CHECKS, VERDICTS, Arguments, Checker, Entry,
                                              RandomStreams, _describe_value)
from pylayer.autograd.py_layer import PyLayer
from pylayer.ops.creation import to_tensor
from pylayer.ops.dispatch import in_dynamic_mode

__all__ = ["opcheck", "OpcheckReport", "OpcheckEntry"]


class OpcheckEntry(Entry):
    """One check of an :class:`OpcheckReport`: a named tuple
    ``(name, verdict, reason, evidence, fix)``.

    ``verdict`` is ``"pass"``, ``"fail"``, ``"note"`` (not a failure, but worth
    knowing: a random op, a once-differentiable backward) or ``"skip"`` (the
    check could not run; ``reason`` says why).

    >>> from pylayer.autograd import OpcheckEntry
    >>> entry = OpcheckEntry("gradient", "pass", "backward matches central differences")
    >>> entry.verdict, entry.fix
    ('pass', '')
    """
    __slots__ = ()

    def __new__(cls, name, verdict, reason, evidence="", fix=""):
        for argument, value in (("name", name), ("verdict", verdict), ("reason", reason),
                                ("evidence", evidence), ("fix", fix)):
            if not isinstance(value, str):
                raise TypeError(f"OpcheckEntry(): argument '{argument}' must be a str, "
                                f"got {type(value).__name__}")
        for argument, value, allowed in (("name", name, CHECKS), ("verdict", verdict, VERDICTS)):
            if value not in allowed:
                raise ValueError(f"OpcheckEntry(): argument '{argument}' must be one of "
                                 f"{', '.join(map(repr, allowed))}, got {value!r}")
        return super().__new__(cls, name, verdict, reason, evidence, fix)


class OpcheckReport:
    """What :func:`opcheck` found: one :class:`OpcheckEntry` per check.

    ``str(report)`` is a table (check, verdict, reason) followed by the
    evidence and the fix of every failure and note; ``report["gradient"]``
    is one entry.

    >>> import pylayer
    >>> from pylayer.autograd import OpcheckEntry, OpcheckReport
    >>> report = OpcheckReport(pylayer.autograd.PyLayer, "x: float64[2]",
    ...                        [OpcheckEntry("gradient", "fail", "it differs")])
    >>> report.ok, [entry.name for entry in report.failures]
    (False, ['gradient'])
    """

    __slots__ = ("layer", "inputs", "entries")

    def __init__(self, layer, inputs, entries):
        if not (isinstance(layer, type) and issubclass(layer, PyLayer)):
            raise TypeError(f"OpcheckReport(): argument 'layer' (position 1) must be a PyLayer "
                            f"subclass, got {_describe_value(layer)}")
        if not isinstance(inputs, str):
            raise TypeError(f"OpcheckReport(): argument 'inputs' (position 2) must be a str, "
                            f"got {type(inputs).__name__}")
        if not isinstance(entries, (list, tuple)) or \
                not all(isinstance(entry, OpcheckEntry) for entry in entries):
            raise TypeError(f"OpcheckReport(): argument 'entries' (position 3) must be a list "
                            f"of OpcheckEntry, got {_describe_value(entries)}")
        self.layer = layer
        self.inputs = inputs
        self.entries = tuple(entries)

    def __getitem__(self, name):
        for entry in self.entries:
            if entry.name == name:
                return entry
        raise KeyError(f"OpcheckReport has no check {name!r}; the checks are "
                       f"{', '.join(entry.name for entry in self.entries)}")

    @property
    def ok(self):
        """True when no check failed (notes and skips are not failures).

        >>> import pylayer
        >>> from pylayer.autograd import OpcheckReport
        >>> OpcheckReport(pylayer.autograd.PyLayer, "", []).ok
        True
        """
        return not self.failures

    @property
    def failures(self):
        """The entries whose verdict is ``"fail"``, as a tuple.

        >>> import pylayer
        >>> from pylayer.autograd import OpcheckReport
        >>> OpcheckReport(pylayer.autograd.PyLayer, "", []).failures
        ()
        """
        return tuple(entry for entry in self.entries if entry.verdict == "fail")

    def assert_ok(self):
        """Raise one AssertionError that lists every failure (with its evidence and fix).

        >>> import pylayer
        >>> from pylayer.autograd import OpcheckEntry, OpcheckReport
        >>> report = OpcheckReport(pylayer.autograd.PyLayer, "x: float64[2]",
        ...     [OpcheckEntry("no_grad", "fail", "records", "it did", "don't")])
        >>> try:
        ...     report.assert_ok()
        ... except AssertionError as error:
        ...     print(error)
        opcheck of PyLayer: 1 check failed
        inputs: x: float64[2]
        no_grad: records
          it did
          to change: don't
        """
        if self.failures:
            raise AssertionError("\n".join([self._title()] +
                                           [_details(entry) for entry in self.failures]))

    def _title(self):
        """``opcheck of MyLayer: ok`` and the inputs it was checked on, wrapped."""
        failed = len(self.failures)
        verdict = f"{failed} check{'s' if failed > 1 else ''} failed" if failed else "ok"
        lines = [f"opcheck of {self.layer.__name__}: {verdict}", "inputs:"]
        # One item per input; a comma inside brackets belongs to a shape.
        for item in re.split(r", (?![^\[]*\])", self.inputs) if self.inputs else ["none"]:
            if len(lines[-1]) + len(item) + 2 > 79:
                lines[-1] += ","
                lines.append(" ")
            lines[-1] += ("," if lines[-1] not in ("inputs:", " ") else "") + " " + item
        return "\n".join(lines)

    def __str__(self):
        rows = [("check", "verdict", "reason")] + \
            [(entry.name, entry.verdict, entry.reason) for entry in self.entries]
        widths = [max(len(row[i]) for row in rows) for i in range(2)]
        lines = [self._title()] + [f"{name:<{widths[0]}}  {verdict:<{widths[1]}}  {reason}"
                                   for name, verdict, reason in rows]
        lines += [_details(entry) for entry in self.entries
                  if entry.verdict in ("fail", "note")]
        return "\n".join(lines)

    def __repr__(self):
        return (f"<OpcheckReport of {self.layer.__name__}: {len(self.entries)} checks, "
                f"{len(self.failures)} failed>")


def _details(entry):
    """The entry's name and reason, then its evidence and fix, wrapped to 79 columns."""
    lines = [f"{entry.name}: {entry.reason}"]
    for line in entry.evidence.splitlines():
        lines.append(textwrap.fill(line, 79, initial_indent="  ", subsequent_indent="    "))
    if entry.fix:
        lines.append(textwrap.fill(entry.fix, 79, initial_indent="  to change: ",
                                   subsequent_indent="    "))
    return "\n".join(lines)


def opcheck(layer, args, kwargs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3):
    """Check the PyLayer subclass ``layer`` on example inputs; return an :class:`OpcheckReport`.

    Runs ``layer.apply(*args, **kwargs)`` on copies of the inputs (float
    Tensors as float64 copies) and checks: the gradient against central
    differences, the double backward, absent output gradients, the gradient
    contract, inputs left unchanged, non-differentiable outputs, saved
    tensors, a second backward, determinism and ``no_grad``. The inputs with
    ``stop_gradient=False`` are the ones whose gradients are checked; ``eps``,
    ``atol`` and ``rtol`` are those of :func:`gradcheck`. Random streams are
    left as they were.

    >>> import pylayer as paddle
    >>> from pylayer.autograd import PyLayer, opcheck
    >>> class Tanh(PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         y = paddle.tanh(x)
    ...         ctx.save_for_backward(y)
    ...         return y
    ...     @staticmethod
    ...     def backward(ctx, dy):
    ...         y, = ctx.saved_tensor()
    ...         return dy * (1 - paddle.square(y))
    >>> x = paddle.rand([3, 4]); x.stop_gradient = False
    >>> report = opcheck(Tanh, (x,))
    >>> report.ok
    True
    >>> report.assert_ok()
    """
    if not (isinstance(layer, type) and issubclass(layer, PyLayer)) or layer is PyLayer:
        raise TypeError(f"opcheck(): argument 'layer' (position 1) must be a subclass of "
                        f"pylayer.autograd.PyLayer, got {_describe_value(layer)}")
    if isinstance(args, Tensor):
        args = (args,)
    if not isinstance(args, (tuple, list)):
        raise TypeError(f"opcheck(): argument 'args' (position 2) must be a tuple of the "
                        f"arguments of {layer.__name__}.apply, got {type(args).__name__}")
    if kwargs is not None and not isinstance(kwargs, dict):
        raise TypeError(f"opcheck(): argument 'kwargs' (position 3) must be a dict or None, "
                        f"got {type(kwargs).__name__}")
    for name, value in (("eps", eps), ("atol", atol), ("rtol", rtol)):
        needed = "a positive" if name == "eps" else "a non-negative"
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"opcheck(): argument '{name}' must be {needed} number, "
                            f"got {type(value).__name__}")
        if value < 0 or (name == "eps" and value == 0):
            raise ValueError(f"opcheck(): argument '{name}' must be {needed} number, "
                             f"got {value!r}")
    if not in_dynamic_mode():
        raise RuntimeError("opcheck() runs in dynamic mode; call pylayer.disable_static() "
                           "first")
    arguments = Arguments(layer, tuple(args), dict(kwargs or {}))
    if not arguments.targets:
        raise ValueError(f"opcheck(): no float Tensor in argument 'args' or 'kwargs' has "
                         f"stop_gradient=False, so no gradient of {layer.__name__} can be "
                         f"checked; set stop_gradient=False on the inputs whose gradients "
                         f"backward computes")
    streams = RandomStreams()
    try:
        entries = Checker(layer, arguments, streams, (eps, atol, rtol)).entries()
    finally:
        streams.restore()
    return OpcheckReport(layer, arguments.describe(),
                         [OpcheckEntry(*entry) for entry in entries])


# ------------------------------------------------------------------ the shell
def _command_line(argv):
    """``python -m pylayer check module:Class --input "float64[3,4]" ...``; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m pylayer check",
        description="Check a custom PyLayer with pylayer.autograd.opcheck on random inputs "
                    "and print the report. Exit status 0 when every check passes, 1 when "
                    "one fails, 2 for a usage error.")
    parser.add_argument("layer", metavar="module:Class",
                        help="the PyLayer subclass: an importable module (or a .py file) "
                             "and the class name")
    parser.add_argument("--input", action="append", default=[], metavar="SPEC",
                        help='one argument of apply, in order: a Tensor as "dtype[shape]" '
                             '(float64[3,4], int64[5], float32[] for 0-D; float Tensors get '
                             'stop_gradient=False, unless written float64[3,4]:stop_gradient), '
                             'or a Python literal (2.0, "sum"); name=SPEC passes it by '
                             'keyword')
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    parser.add_argument("--low", type=float, default=-1.0,
                        help="float inputs are uniform in [low, high) (default -1)")
    parser.add_argument("--high", type=float, default=1.0, help="(default 1)")
    options = parser.parse_args(argv)
    try:
        layer = _load_layer(options.layer)
        if options.low >= options.high:
            raise ValueError(f"--low ({options.low}) must be below --high ({options.high})")
        rng = np.random.default_rng(options.seed)
        args, kwargs = [], {}
        for spec in options.input:
            key, value = _parse_input(spec, rng, options.low, options.high)
            if key is None:
                args.append(value)
            else:
                kwargs[key] = value
    except (ImportError, AttributeError, ValueError, TypeError) as error:
        print(f"python -m pylayer check: {error}", file=sys.stderr)
        return 2
    try:
        report = opcheck(layer, tuple(args), kwargs)
    except ValueError as error:
        print(f"python -m pylayer check: {error}", file=sys.stderr)
        return 2
    print(report)
    return 0 if report.ok else 1


def _load_layer(target):
    module_name, _, qualname = target.partition(":")
    if not module_name or not qualname:
        raise ValueError(f"expected module:Class (or path/to/file.py:Class), got {target!r}")
    if module_name.endswith(".py"):
        spec = importlib.util.spec_from_file_location("_opcheck_target", module_name)
        if spec is None:
            raise ImportError(f"cannot load {module_name!r}")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except FileNotFoundError:
            raise ImportError(f"no file {module_name!r}") from None
    else:
        module = importlib.import_module(module_name)
    layer = module
    for part in qualname.split("."):
        if not hasattr(layer, part):
            raise AttributeError(f"{module_name} has no {qualname!r}")
        layer = getattr(layer, part)
    if not (isinstance(layer, type) and issubclass(layer, PyLayer)):
        raise TypeError(f"{target} is {_describe_value(layer)}, not a PyLayer subclass")
    return layer


def _parse_input(spec, rng, low, high):
    """``(keyword or None, value)`` of one --input: a random Tensor or a literal."""
    key, equals, rest = spec.partition("=")
    if equals and key.isidentifier():
        spec = rest
    else:
        key = None
    tensor_spec, colon, flag = spec.strip().partition("]:")
    constant = colon and flag == "stop_gradient"
    dtype, bracket, shape = (tensor_spec + "]" if constant else spec.strip()).partition("[")
    if bracket and shape.endswith("]") and dtype.replace("_", "").isalnum():
        try:
            dims = [int(d) for d in shape[:-1].split(",") if d.strip()]
            np_dtype = np.dtype(dtype)
        except (TypeError, ValueError):
            raise ValueError(f"--input {spec!r}: expected dtype[shape] such as "
                             f"float64[3,4]") from None
        if any(d < 0 for d in dims):
            raise ValueError(f"--input {spec!r}: dimensions must be non-negative")
        if is_floating(np_dtype):
            tensor = to_tensor(rng.uniform(low, high, dims).astype(np_dtype))
            tensor.stop_gradient = bool(constant)
        elif is_bool(np_dtype):
            tensor = to_tensor(rng.integers(0, 2, dims).astype(bool))
        elif is_integer(np_dtype):
            tensor = to_tensor(rng.integers(0, 10, dims).astype(np_dtype))
        else:
            raise ValueError(f"--input {spec!r}: dtype {dtype} is not supported")
        return key, tensor
    try:
        return key, ast.literal_eval(spec)
    except (ValueError, SyntaxError):
        raise ValueError(f"--input {spec!r}: expected dtype[shape] such as float64[3,4], or "
                         f"a Python literal") from None
