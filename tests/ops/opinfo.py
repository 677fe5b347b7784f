"""The op database: one declarative entry per public op, walked by the generic op tests.

Each :class:`OpInfo` says how to call one op and what to expect of it:

``samples``
    :class:`Sample` records: positional inputs and keyword arguments. A positional
    input is ``T(shape)``, a Tensor of the dtype under test whose values come from the
    entry's ``domain`` (or the ``T``'s own ``low``/``high``, e.g. a divisor away from
    zero); or a numpy array, passed as a fixed Tensor that takes no gradient (an index,
    a mask, a condition); or any other value (a number, a shape, an equation), passed
    as it is.
``ref``
    The numpy reference (most live in ``references.py``), called with the same inputs as
    numpy arrays and the same keyword arguments. It returns an array, or a list of arrays
    for ops with several outputs.
``dtypes``
    The dtypes the forward test runs in. Gradients are checked in float64 when the
    entry has a float dtype, and in complex128 when it has a complex one
    (``gradient_dtypes``); a complex ``T`` draws its real and imaginary parts from the
    domain.
``differentiable`` / ``second_order``
    Run ``pylayer.autograd.gradcheck`` / ``gradgradcheck`` on every sample.
``static``
    Build the op into a static Program and check that it gives the numbers of
    dynamic mode.
``elementwise``
    The fuzz test draws random shapes for it (broadcast against each other for
    binary ops) and random values from its domain.
``smooth``
    Where the op is finite and smooth enough for central differences, as a
    predicate on an array of values: ``tests/reliability/test_fuzz_ops.py`` applies
    the op in a random chain only to values it accepts. ``INSIDE_DOMAIN`` and
    ``ABOVE_DOMAIN`` derive it from ``domain``; the default accepts every value.
``known_failures``
    Checks the op fails today, keyed ``"static"`` or ``"static-int64"`` (a check,
    or a check in one dtype), each with the reason. They run as strict xfails, so
    the fix of the op makes them fail until the key is removed.

``call``
    The hostile-input spec: a ``Call`` (``tests/reliability/_hostile_values.py``) of
    valid, kind-tagged arguments that ``tests/reliability/test_hostile_input.py``
    corrupts one at a time. Exactly one entry of each op carries it (the one without
    a ``variant``); ``_hostile_calls.CALLS`` takes it from there.

``tests/ops/test_opinfo.py`` walks :data:`OPS` for the forward, gradcheck,
gradgradcheck, static-vs-dynamic and fuzz tests; ``tests/reliability/test_fuzz_ops.py``
chains the ops with their references and domains from here.

To add an op: append one ``OpInfo`` to :data:`OPS` (its ``name`` is the public name
in ``pylayer`` or ``pylayer.nn.functional``, or dotted for a namespace such as
``fft.rfft``; ``op`` defaults to that function). Give it samples whose values keep it smooth for central differences
(positive for ``log``, apart for ``max``), the numpy reference, its dtypes, its flags
and its hostile-input ``call``. A public function of ``pylayer``, ``pylayer.nn.functional`` or one of the
namespaces walked by test_opinfo.py that is not in the database must be in
:data:`NOT_IN_DATABASE` with the reason;
tests that check one specific rule (edge values, error messages, Paddle's numerics,
dtype promotion) stay in the op's own test file.
"""
import dataclasses
import functools
from typing import Callable

import numpy as np

import pylayer
from pylayer.nn import functional as F

import references as refs

from _hostile_values import (A, K, MISMATCH, Call, _chw, _ncl, _value, b23, binary_call, c23,
                             f3, f23, i23, reduce_call, unary_call)

FLOATS = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
INTS = ("int32", "int64")
NUMBERS = FLOATS + INTS
BOOL = ("bool",)


@dataclasses.dataclass(frozen=True)
class T:
    """A Tensor input of the dtype under test, drawn from [low, high] (default: the
    entry's domain)."""
    shape: tuple
    low: float = None
    high: float = None


@dataclasses.dataclass(frozen=True)
class Sample:
    args: tuple
    kwargs: dict = dataclasses.field(default_factory=dict)

    def __repr__(self):
        parts = [f"T{list(a.shape)}" if isinstance(a, T) else
                 f"array{list(a.shape)}" if isinstance(a, np.ndarray) else repr(a)
                 for a in self.args]
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return "(" + ", ".join(parts) + ")"


# ------------------------------------------ where an op is smooth (``smooth``)
INSIDE_DOMAIN = "inside the domain"
ABOVE_DOMAIN = "above the low end of the domain"


def inside(low, high):
    return lambda v: low < v.min() and v.max() < high


def above(low):
    return lambda v: v.min() > low


def bounded(limit):
    return lambda v: np.abs(v).max() < limit


def away_from_zero(gap=1e-3):
    """Away from the kink (or pole) at 0."""
    return lambda v: np.abs(v).min() > gap


def away_from_integers(offset=0.0):
    """Away from the jumps at ``n + offset`` (floor at integers, round at halves)."""
    return lambda v: np.abs(v - offset - np.round(v - offset)).min() > 1e-3


@dataclasses.dataclass(frozen=True)
class OpInfo:
    name: str
    ref: Callable
    samples: tuple
    dtypes: tuple = FLOATS
    domain: tuple = (-2.0, 2.0)
    differentiable: bool = True
    second_order: bool = True
    static: bool = True
    elementwise: bool = False
    variant: str = ""
    op: Callable = None
    # (rtol, atol) per dtype where the defaults in TOLERANCE are too tight.
    tolerance: dict = dataclasses.field(default_factory=dict)
    known_failures: dict = dataclasses.field(default_factory=dict)
    call: Call = None
    smooth: Callable = None

    def __post_init__(self):
        if self.smooth is INSIDE_DOMAIN:
            object.__setattr__(self, "smooth", inside(*self.domain))
        elif self.smooth is ABOVE_DOMAIN:
            object.__setattr__(self, "smooth", above(self.domain[0]))
        if not self.differentiable:
            object.__setattr__(self, "second_order", False)
        if self.op is None:
            object.__setattr__(self, "op", self.public)

    def accepts(self, values):
        """Whether the op is smooth at every one of ``values`` (see ``smooth``)."""
        return self.smooth is None or values.size == 0 or bool(self.smooth(values))

    @property
    def public(self):
        """The public function the entry calls (``op`` may wrap it); a dotted name is one
        of a namespace of pylayer (``fft.rfft``)."""
        if "." in self.name:
            space, name = self.name.rsplit(".", 1)
            return getattr(functools.reduce(getattr, space.split("."), pylayer), name)
        return getattr(pylayer, self.name, None) or getattr(F, self.name)

    @property
    def id(self):
        return f"{self.name}.{self.variant}" if self.variant else self.name

    @property
    def arity(self):
        """How many ``T`` inputs the first sample has (1 or 2 for elementwise ops)."""
        return sum(isinstance(a, T) for a in self.samples[0].args)

    @property
    def gradient_dtypes(self):
        """The dtypes gradcheck and gradgradcheck run in: float64 and/or complex128."""
        return tuple(dtype for dtype, kinds in (("float64", FLOATS), ("complex128", COMPLEX))
                     if set(kinds) & set(self.dtypes))

    def tolerance_for(self, dtype):
        return self.tolerance.get(dtype, TOLERANCE[dtype])

    def known_failure(self, check, dtype=None):
        """The reason ``check`` (in ``dtype``) fails today, or None."""
        return self.known_failures.get(f"{check}-{dtype}", self.known_failures.get(check))


TOLERANCE = {"float16": (1e-3, 1e-3), "float32": (1e-6, 1e-7), "float64": (1e-13, 1e-13),
             "complex64": (1e-5, 1e-6), "complex128": (1e-12, 1e-12),
             "int32": (0, 0), "int64": (0, 0), "bool": (0, 0)}


def samples(*specs):
    """Samples from tuples ``(args...)`` or ``((args...), {kwargs})``."""
    out = []
    for spec in specs:
        if isinstance(spec, Sample):
            out.append(spec)
        elif len(spec) == 2 and isinstance(spec[0], tuple) and isinstance(spec[1], dict):
            out.append(Sample(spec[0], spec[1]))
        else:
            out.append(Sample(tuple(spec)))
    return tuple(out)


# ----------------------------------------------------------- shared sample sets
UNARY_SHAPES = samples((T(()),), (T((5,)),), (T((2, 3)),), (T((0, 3)),))
BROADCAST = samples((T((2, 3)), T((2, 3))), (T((2, 3)), T((3,))), (T((2, 1)), T((1, 3))),
                    (T(()), T((2, 2))), (T((0, 3)), T((3,))), (T((2, 3)), 2))
REDUCE_AXES = samples(
    (T((2, 3, 4)),), ((T((2, 3, 4)),), {"axis": 1}), ((T((2, 3, 4)),), {"axis": (0, 1, 2)}),
    ((T((2, 3, 4)),), {"axis": 0, "keepdim": True}),
    ((T((2, 3, 4)),), {"axis": -1, "keepdim": True}),
    ((T((2, 3, 4)),), {"axis": [0, 2]}), ((T((2, 3, 4)),), {"axis": [], "keepdim": True}),
    (T(()),))
BIASED = samples(((T((2, 3, 4)),), {"axis": 0, "unbiased": False}))
ARG_AXES = samples((T((2, 3, 4)),), ((T((2, 3, 4)),), {"axis": 1}),
                   ((T((3, 4)),), {"keepdim": True}),
                   ((T((2, 3)),), {"axis": -1, "keepdim": True}))
POSITIVE = (0.3, 3.0)


def _unary(name, ref, domain=(-2.0, 2.0), dtypes=FLOATS, **flags):
    return OpInfo(name, ref, UNARY_SHAPES, dtypes=dtypes, domain=domain, elementwise=True,
                  **flags)


def _binary(name, ref, dtypes=NUMBERS, sample_set=BROADCAST, **flags):
    return OpInfo(name, ref, sample_set, dtypes=dtypes, elementwise=True, **flags)


def _comparison(name, ref, dtypes=NUMBERS + BOOL, **flags):
    return OpInfo(name, ref, BROADCAST, dtypes=dtypes, differentiable=False, elementwise=True,
                  **flags)


def _divisor_samples(low=0.5, high=2.0):
    """BROADCAST with the second input kept away from zero."""
    return tuple(Sample((s.args[0], T(s.args[1].shape, low, high) if isinstance(s.args[1], T)
                         else s.args[1])) for s in BROADCAST)


_INDEX = np.array([2, 0, 2, 1])
_ALONG = np.array([[0, 2, 1], [1, 0, 2]])           # a permutation in every row: no duplicates
_REPEATED_ALONG = np.random.default_rng(0).integers(0, 4, size=(3, 5, 2))  # repeats add up
_MASK = np.array([[True, False, True], [False, False, True]])
_SPECIALS = np.array([1.0, np.nan, np.inf, -np.inf, 0.0, -2.5])
# Static mode infers output shapes by running the op on zero-filled stand-ins, and an
# integer division by those zeros raises.

_ROWS = np.array([2, 1, 0, 1])                      # row 1 written twice: the last write wins
_COORDINATES = np.array([[0, 1], [1, 0], [0, 1]])   # [0, 1] twice

# prod's gradient is prod / x: its second derivative cancels two terms of size 1/x, which
# loses every digit when |x| is tiny (not a wrong rule).
def _small_and_not_tiny(v):
    return bounded(3)(v) and np.all((v == 0) | (np.abs(v) > 1e-2))


OPS = [
    # ------------------- hot ops (ops/arithmetic.pyx, math.py, activation.pyx ...)
    _binary("add", np.add, dtypes=NUMBERS + COMPLEX, call=binary_call()),
    _binary("subtract", np.subtract, dtypes=NUMBERS + COMPLEX, call=binary_call()),
    _binary("multiply", np.multiply, dtypes=NUMBERS + COMPLEX, call=binary_call(),
            smooth=bounded(30)),
    _binary("divide", np.divide, dtypes=FLOATS + COMPLEX, sample_set=_divisor_samples(),
            call=binary_call(), smooth=bounded(30)),
    _unary("neg", np.negative, dtypes=NUMBERS + COMPLEX, call=unary_call()),
    _unary("tanh", np.tanh, dtypes=FLOATS + COMPLEX, call=unary_call("math_tensor")),
    _unary("exp", np.exp, dtypes=FLOATS + COMPLEX, call=unary_call("math_tensor"),
           smooth=bounded(4)),
    _unary("log", np.log, domain=POSITIVE, dtypes=FLOATS + COMPLEX,
           call=unary_call("math_tensor"), smooth=ABOVE_DOMAIN),
    _unary("sigmoid", lambda x: 1 / (1 + np.exp(-x)), domain=(-4.0, 4.0),
           dtypes=FLOATS + COMPLEX, call=unary_call("math_tensor"), smooth=bounded(30)),
    _unary("square", np.square, dtypes=NUMBERS + COMPLEX, call=unary_call(), smooth=bounded(30)),
    _unary("sqrt", np.sqrt, domain=POSITIVE, dtypes=FLOATS + COMPLEX,
           call=unary_call("math_tensor"), smooth=ABOVE_DOMAIN),
    _unary("relu", lambda x: np.maximum(x, 0).astype(x.dtype), op=F.relu,
           call=unary_call("real_tensor"), smooth=away_from_zero()),
    OpInfo("scale", refs.scale, samples(
        (T((2, 3)),), ((T((2, 3)),), {"scale": 2.5, "bias": 1.0}),
        ((T((2, 3)),), {"scale": -0.5, "bias": 1.0, "bias_after_scale": False})),
           call=Call(A("x", f23, "tensor"), K("scale", _value(2.0), "number"),
                     K("bias", _value(1.0), "number")), smooth=bounded(30)),
    # --------------------------------------------------------------- elementwise
    OpInfo("pow", np.power, samples((T((2, 3)), 2.0), (T((2, 3)), -1.5), (T((2, 3)), 3),
                                    (T((2, 3)), T((2, 3), -1.5, 1.5)),
                                    (T((2, 3)), T((3,), 0.5, 2.0))),
           domain=(0.5, 2.0), dtypes=FLOATS + COMPLEX, elementwise=True, call=binary_call(),
           smooth=ABOVE_DOMAIN),
    _unary("reciprocal", np.reciprocal, domain=POSITIVE, dtypes=FLOATS + COMPLEX,
           call=unary_call("math_tensor"), smooth=away_from_zero(0.2)),
    _unary("rsqrt", lambda x: 1 / np.sqrt(x), domain=POSITIVE, call=unary_call("real_math_tensor"),
           smooth=ABOVE_DOMAIN),
    _unary("log1p", np.log1p, domain=(-0.5, 2.0), dtypes=FLOATS + COMPLEX,
           call=unary_call("math_tensor"), smooth=ABOVE_DOMAIN),
    _unary("sin", np.sin, domain=(-3.0, 3.0), dtypes=FLOATS + COMPLEX,
           call=unary_call("math_tensor")),
    _unary("cos", np.cos, domain=(-3.0, 3.0), dtypes=FLOATS + COMPLEX,
           call=unary_call("math_tensor")),
    _unary("tan", np.tan, domain=(-1.2, 1.2), dtypes=FLOATS + COMPLEX,
           call=unary_call("math_tensor"), smooth=INSIDE_DOMAIN),
    _unary("erf", lambda x: refs.erf(x).astype(x.dtype), domain=(-3.0, 3.0),
           call=unary_call("real_math_tensor"), smooth=bounded(5)),
    _unary("abs", np.abs, dtypes=NUMBERS + COMPLEX, call=unary_call(), smooth=away_from_zero()),
    _unary("sign", np.sign, dtypes=NUMBERS, call=unary_call("real_tensor"),
           smooth=away_from_zero()),
    _unary("floor", np.floor, dtypes=NUMBERS, domain=(-3.0, 3.0), call=unary_call("real_tensor"),
           smooth=away_from_integers()),
    _unary("ceil", np.ceil, dtypes=NUMBERS, domain=(-3.0, 3.0), call=unary_call("real_tensor")),
    _unary("round", np.round, dtypes=NUMBERS, domain=(-3.0, 3.0),
           call=Call(A("x", f23, "real_tensor"), K("decimals", _value(1), "int")),
           smooth=away_from_integers(0.5)),
    OpInfo("round", lambda x, decimals: np.round(x, decimals),
           samples(((T((2, 3)),), {"decimals": 1})),
           variant="decimals"),
    _binary("maximum", np.maximum, call=binary_call("real_tensor")),
    _binary("minimum", np.minimum, call=binary_call("real_tensor")),
    OpInfo("clip", refs.clip, samples(
        ((T((2, 3)),), {"min": -0.5, "max": 0.7}), ((T((4,)),), {"min": 0.1}),
        ((T((4,)),), {"max": 1}), (T(()), -1.0, 1.0)),
           dtypes=NUMBERS, domain=(-3.0, 3.0),
           call=Call(A("x", f23, "real_tensor"), A("min", _value(1.5), "number_or_none"),
                     A("max", _value(4.5), "number_or_none"),
                     extra=[("min above max", {"min": _value(5.0)}, ("min", "max"))])),
    OpInfo("where", np.where, samples((_MASK, T((2, 3)), T((2, 3))), (_MASK, T((2, 3)), T((3,))),
                                      (np.array([True, False, True]), T((2, 3)), T((2, 1)))),
           dtypes=FLOATS + COMPLEX,
           call=Call(A("condition", b23, "tensor"), A("x", f23, "tensor_or_none"),
                     A("y", f23, "tensor_or_none"),
                     extra=[("only x given", {"y": _value(None)}, ("x", "y")),
                            ("shapes that do not broadcast",
                             {"y": lambda env: pylayer.ones([4])}, ("condition", "x", "y"))])),
    _binary("floor_divide", np.floor_divide, dtypes=INTS, sample_set=_divisor_samples(1, 3),
            differentiable=False, call=binary_call("real_tensor")),
    _binary("remainder", np.remainder, sample_set=_divisor_samples(0.7, 2.0), domain=(0.1, 5.0),
            call=binary_call("real_tensor")),
    # -------------------------------------------- reductions (ops/reduction.pyx)
    OpInfo("sum", refs.reduction(np.sum), REDUCE_AXES, dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("axis", _value(1), "axis"),
                     K("dtype", _value("float64"), "dtype"))),
    OpInfo("mean", refs.reduction(np.mean), REDUCE_AXES, dtypes=FLOATS + COMPLEX,
           call=reduce_call("inexact_tensor")),
    # ------------------------------- activations and losses (pylayer.nn.functional)
    OpInfo("leaky_relu", lambda x, negative_slope=0.01: np.where(x > 0, x, negative_slope * x),
           samples((T((2, 3)),), ((T((2, 3)),), {"negative_slope": 0.3}), (T(()),)),
           op=F.leaky_relu,
           call=Call(A("x", f23, "float_tensor"), K("negative_slope", _value(0.1), "number")),
           smooth=away_from_zero()),
    OpInfo("hardtanh", lambda x, min=-1.0, max=1.0: np.clip(x, min, max),
           samples((T((2, 3)),), ((T((2, 3)),), {"min": -0.5, "max": 1.5})), op=F.hardtanh,
           call=Call(A("x", f23, "float_tensor"), K("min", _value(-2.0), "number"),
                     K("max", _value(2.0), "number"))),
    OpInfo("gelu", refs.gelu, samples((T((2, 3)),), ((T((2, 3)),), {"approximate": True}),
                                  (T(()),)),
           op=F.gelu, tolerance={"float32": (1e-6, 1e-6)}, call=Call(A("x", f23, "float_tensor")),
           smooth=bounded(5)),
    OpInfo("nn.functional.softmax", lambda x, axis=-1: np.exp(refs.log_softmax(x, axis)),
           samples((T((2, 3)),), ((T((2, 3, 4)),), {"axis": 1}), (T((0, 3)),)),
           call=Call(A("x", f23, "float_tensor"), K("axis", _value(0), "int_axis"),
                     K("dtype", _value("float64"), "dtype")), smooth=bounded(30)),
    OpInfo("log_softmax", refs.log_softmax,
           samples((T((2, 3)),), ((T((2, 3, 4)),), {"axis": 0}), (T((0, 3)),)),
           op=F.log_softmax,
           call=Call(A("x", f23, "float_tensor"), K("axis", _value(0), "int_axis"),
                     K("dtype", _value("float64"), "dtype")), smooth=bounded(30)),
    OpInfo("mse_loss", refs.mse_loss, samples(
        (T((2, 3)), T((2, 3))), ((T((4,)), T((4,))), {"reduction": "sum"}),
        ((T((2, 3)), T((2, 3))), {"reduction": "none"})), op=F.mse_loss,
           call=Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                     K("reduction", _value("sum"), "reduction"),
                     extra=[("shapes that differ", {"label": lambda env: pylayer.ones([4])},
                             ("input", "label"))])),
    OpInfo("cross_entropy", refs.cross_entropy, samples(
        (T((4, 3)), np.array([0, 2, 1, 2])),
        ((T((4, 3)), np.array([[0], [2], [-100], [1]])), {"reduction": "sum"}),
        ((T((4, 3)), np.array([0, 2, 1, 1])),
         {"weight": np.array([0.5, 1.0, 2.0]), "label_smoothing": 0.2}),
        ((T((2, 3, 4)), np.array([[0, 2, 1, 0], [1, 1, 2, 0]])), {"axis": 1, "reduction": "none"}),
        ((T((4, 3)), T((4, 3), 0.1, 1.0)),
         {"soft_label": True, "weight": np.array([0.5, 1.0, 2.0])})),
           op=F.cross_entropy, tolerance={"float32": (1e-5, 1e-6)},
           call=Call(A("input", f23, "float_tensor"),
                     A("label", lambda env: pylayer.to_tensor([2, 0]), "int_tensor"),
                     K("weight", _value(None), "tensor_or_none"),
                     K("reduction", _value("sum"), "reduction"),
                     K("axis", _value(-1), "int_axis"),
                     K("label_smoothing", _value(0.1), "probability"),
                     extra=[("a label out of range",
                             {"label": lambda env: pylayer.to_tensor([5, 0])}, "label"),
                            ("a label of the wrong length",
                             {"label": lambda env: pylayer.to_tensor([1, 0, 2])}, "label")])),
    OpInfo("cross_entropy", refs.cross_entropy, samples(
        ((T((4, 3)), np.array([0, 2, 1, 2])), {"use_softmax": False}),
        ((T((4, 3)), T((4, 3), 0.1, 1.0)), {"use_softmax": False, "soft_label": True})),
           domain=POSITIVE, op=F.cross_entropy, variant="probabilities",
           tolerance={"float32": (1e-5, 1e-6)}),
    # ----------------------------------------------------------------- reductions
    OpInfo("max", refs.reduction(np.max), REDUCE_AXES, dtypes=NUMBERS,
           call=reduce_call("real_tensor")),
    OpInfo("min", refs.reduction(np.min), REDUCE_AXES, dtypes=NUMBERS,
           call=reduce_call("real_tensor")),
    OpInfo("prod", refs.same_dtype(refs.reduction(np.prod)), REDUCE_AXES,
           dtypes=NUMBERS + COMPLEX,
           domain=(-1.5, 1.5),
           call=Call(A("x", f23, "tensor"), K("axis", _value(1), "axis"),
                     K("dtype", _value("float64"), "dtype")), smooth=_small_and_not_tiny),
    OpInfo("var", refs.var, REDUCE_AXES[:-1] + BIASED, call=reduce_call("float_tensor"),
           smooth=bounded(30)),
    OpInfo("std", refs.std, REDUCE_AXES[:-1] + BIASED, call=reduce_call("real_math_tensor"),
           smooth=bounded(30)),
    OpInfo("logsumexp", refs.logsumexp, REDUCE_AXES, call=reduce_call("real_math_tensor"),
           smooth=bounded(30)),
    OpInfo("cumsum", refs.cumsum, samples((T((2, 3, 4)),), ((T((2, 3, 4)),), {"axis": 1}),
                                      ((T((2, 3)),), {"axis": -1}), (T((0,)),)),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("axis", _value(1), "int_axis_or_none"),
                     K("dtype", _value("float64"), "dtype"))),
    OpInfo("argmax", refs.arg_extreme(np.argmax), ARG_AXES,
           dtypes=NUMBERS, domain=(-100.0, 100.0), differentiable=False,
           call=Call(A("x", f23, "real_tensor"), K("axis", _value(1), "int_axis_or_none"),
                     K("dtype", _value("int32"), "dtype_required"),
                     extra=[("a float dtype", {"dtype": _value("float32")}, "dtype")])),
    OpInfo("argmin", refs.arg_extreme(np.argmin), ARG_AXES,
           dtypes=NUMBERS, domain=(-100.0, 100.0), differentiable=False,
           call=Call(A("x", f23, "real_tensor"), K("axis", _value(1), "int_axis_or_none"),
                     K("dtype", _value("int32"), "dtype_required"),
                     extra=[("a float dtype", {"dtype": _value("float32")}, "dtype")])),
    OpInfo("all", refs.reduction(np.all), REDUCE_AXES, dtypes=BOOL + NUMBERS, domain=(0.0, 1.0),
           differentiable=False, call=reduce_call()),
    OpInfo("any", refs.reduction(np.any), REDUCE_AXES, dtypes=BOOL + NUMBERS, domain=(0.0, 1.0),
           differentiable=False, call=reduce_call()),
    # ------------------------------------------------------ comparison and logic
    _comparison("equal", np.equal, dtypes=NUMBERS + BOOL + COMPLEX, call=binary_call()),
    _comparison("not_equal", np.not_equal, dtypes=NUMBERS + BOOL + COMPLEX, call=binary_call()),
    _comparison("less_than", np.less, call=binary_call("real_tensor")),
    _comparison("less_equal", np.less_equal, call=binary_call("real_tensor")),
    _comparison("greater_than", np.greater, call=binary_call("real_tensor")),
    _comparison("greater_equal", np.greater_equal, call=binary_call("real_tensor")),
    OpInfo("equal_all", refs.equal_all, samples((T((2, 3)), T((2, 3))), (T((2, 3)), T((3,)))),
           dtypes=NUMBERS + BOOL, domain=(0.0, 1.0), differentiable=False,
           call=binary_call(extra=())),
    OpInfo("isclose", np.isclose, samples((T((2, 3)), T((2, 3))),
                                          ((T((2, 3)), T((3,))), {"rtol": 0.5, "atol": 0.5}),
                                          ((_SPECIALS, _SPECIALS), {"equal_nan": True})),
           dtypes=FLOATS, differentiable=False,
           call=Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                     K("rtol", _value(1e-3), "non_negative"),
                     K("atol", _value(1e-3), "non_negative"), extra=[MISMATCH])),
    OpInfo("allclose", refs.allclose, samples((T((2, 3)), T((2, 3))),
                                          ((T((2, 3)), T((3,))), {"rtol": 10.0, "atol": 10.0}),
                                          ((_SPECIALS, _SPECIALS), {"equal_nan": True})),
           dtypes=FLOATS, differentiable=False,
           call=Call(A("x", f23, "tensor"), A("y", f23, "tensor"),
                     K("rtol", _value(1e-3), "non_negative"),
                     K("atol", _value(1e-3), "non_negative"), extra=[MISMATCH])),
    _comparison("logical_and", np.logical_and,
                call=Call(A("x", b23, "tensor"), A("y", b23, "tensor"),
                          K("out", _value(None), "out_tensor"), extra=[MISMATCH])),
    _comparison("logical_or", np.logical_or,
                call=Call(A("x", b23, "tensor"), A("y", b23, "tensor"),
                          K("out", _value(None), "out_tensor"), extra=[MISMATCH])),
    _comparison("logical_xor", np.logical_xor,
                call=Call(A("x", b23, "tensor"), A("y", b23, "tensor"),
                          K("out", _value(None), "out_tensor"), extra=[MISMATCH])),
    _unary("logical_not", np.logical_not, dtypes=BOOL + NUMBERS, differentiable=False,
           call=Call(A("x", b23, "tensor"), K("out", _value(None), "out_tensor"))),
    _binary("bitwise_and", np.bitwise_and, dtypes=INTS + BOOL, differentiable=False,
            call=Call(A("x", i23, "int_tensor"), A("y", i23, "int_tensor"),
                      K("out", _value(None), "out_tensor"), extra=[MISMATCH])),
    _binary("bitwise_or", np.bitwise_or, dtypes=INTS + BOOL, differentiable=False,
            call=Call(A("x", i23, "int_tensor"), A("y", i23, "int_tensor"),
                      K("out", _value(None), "out_tensor"), extra=[MISMATCH])),
    _binary("bitwise_xor", np.bitwise_xor, dtypes=INTS + BOOL, differentiable=False,
            call=Call(A("x", i23, "int_tensor"), A("y", i23, "int_tensor"),
                      K("out", _value(None), "out_tensor"), extra=[MISMATCH])),
    _unary("bitwise_not", np.invert, dtypes=INTS + BOOL, differentiable=False,
           call=Call(A("x", i23, "int_tensor"), K("out", _value(None), "out_tensor"))),
    OpInfo("isnan", np.isnan, samples((T((2, 3)),), (_SPECIALS,)), dtypes=FLOATS + COMPLEX,
           differentiable=False,
           call=unary_call()),
    OpInfo("isinf", np.isinf, samples((T((2, 3)),), (_SPECIALS,)), dtypes=FLOATS + COMPLEX,
           differentiable=False,
           call=unary_call()),
    OpInfo("isfinite", np.isfinite, samples((T((2, 3)),), (_SPECIALS,)), dtypes=FLOATS + COMPLEX,
           differentiable=False,
           call=unary_call()),
    # --------------------------------------------------- linalg (ops/linalg.pyx)
    OpInfo("matmul", refs.matmul, samples(
        (T((3,)), T((3,))), (T((3,)), T((3, 2))), (T((2, 3)), T((3,))), (T((2, 3)), T((3, 4))),
        (T((5, 2, 3)), T((3, 4))), (T((2, 1, 2, 3)), T((5, 3, 2))), (T((3,)), T((4, 3, 2))),
        (T((4, 2, 3)), T((3,))),
        ((T((3, 2)), T((4, 3))), {"transpose_x": True, "transpose_y": True}),
        (T((0, 3)), T((3, 2)))), dtypes=FLOATS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("y", lambda env: pylayer.ones([3, 2]), "tensor"),
                     extra=[("inner sizes that differ", {"y": lambda env: pylayer.ones([2, 2])},
                             ("x", "y"))]), smooth=bounded(30)),
    OpInfo("addmm", refs.addmm, samples(
        (T((3, 2)), T((3, 4)), T((4, 2))),
        *(((T(shape), T((3, 4)), T((4, 2))), {"beta": 0.5, "alpha": 2.0})
          for shape in [(3, 2), (2,), (1,), (3, 1)])),
           call=Call(A("input", lambda env: pylayer.ones([2, 2]), "inexact_tensor"),
                     A("x", f23, "inexact_tensor"),
                     A("y", lambda env: pylayer.ones([3, 2]), "inexact_tensor"),
                     K("beta", _value(0.5), "number"), K("alpha", _value(2.0), "number"),
                     extra=[("an input that does not broadcast",
                             {"input": lambda env: pylayer.ones([3])}, "input")])),
    OpInfo("bmm", np.matmul, samples((T((2, 3, 4)), T((2, 4, 5)))), dtypes=FLOATS + COMPLEX,
           call=Call(A("x", lambda env: pylayer.ones([2, 2, 3]), "inexact_tensor"),
                     A("y", lambda env: pylayer.ones([2, 3, 2]), "inexact_tensor"),
                     extra=[("batches that differ", {"y": lambda env: pylayer.ones([3, 3, 2])},
                             ("x", "y"))])),
    OpInfo("dot", refs.same_dtype(lambda x, y: np.sum(x * y, axis=-1)),
           samples((T((3,)), T((3,))), (T((4, 3)), T((4, 3))), (T((0,)), T((0,))),
                   (T((2, 0)), T((2, 0)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f3, "tensor"), A("y", f3, "tensor"),
                     extra=[("shapes that differ", {"y": lambda env: pylayer.ones([4])},
                             ("x", "y"))]), smooth=bounded(30)),
    OpInfo("einsum", np.einsum, samples(*(
        (equation, *(T(shape) for shape in shapes)) for equation, shapes in [
            ("ij,jk->ik", [(3, 4), (4, 2)]), ("ij,jk", [(3, 4), (4, 2)]), ("ii->i", [(3, 3)]),
            ("ii", [(3, 3)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]),
            ("...j,j->...", [(2, 3, 4), (4,)]), ("ij,ij->", [(2, 3), (2, 3)]),
            ("i,j->ij", [(2,), (3,)]), ("ijk->kj", [(2, 3, 4)]), ("iij->j", [(3, 3, 2)]),
            ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("i...->...", [(2, 3, 4)]),
            ("bhqd,bhkd->bhqk", [(1, 2, 3, 4), (1, 2, 5, 4)])])), dtypes=FLOATS + COMPLEX,
           call=Call(A("equation", _value("ij->ji"), "str"),
                     A("operands", f23, "inexact_tensor"),
                     extra=[("an equation that does not fit",
                             {"equation": _value("ijk->k")}, "equation")])),
    # ----------------------------------------------------- shape (ops/shape.pyx)
    OpInfo("reshape", np.reshape, samples((T((2, 3, 4)), [4, 6]), (T((2, 3)), [-1]),
                                          (T(()), [1, 1]), (T((0, 4)), [-1, 2])),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("shape", _value([3, 2]), "target_shape"),
                     extra=[("a shape of another size", {"shape": _value([4, 4])},
                             "shape")])),
    OpInfo("broadcast_to", np.broadcast_to, samples((T((3, 1)), [2, 3, 4]), (T(()), [2])),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f3, "tensor"), A("shape", _value([2, 3]), "target_shape"),
                     extra=[("a shape it cannot broadcast to",
                             {"shape": _value([2, 4])}, "shape")])),
    OpInfo("expand", np.broadcast_to, samples((T((3, 1)), [2, 3, 4]), (T((1,)), [3])),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f3, "tensor"), A("shape", _value([2, 3]), "target_shape"),
                     extra=[("a shape it cannot broadcast to",
                             {"shape": _value([2, 4])}, "shape")])),
    OpInfo("cast", lambda x, dtype: x.astype(dtype), samples(((T((2, 3)),), {"dtype": "float64"})),
           dtypes=NUMBERS + BOOL,
           call=Call(A("x", f23, "tensor"), A("dtype", _value("float64"), "dtype_required"))),
    # Central differences through a float32 result are too coarse for gradcheck;
    # test_core_ops.py checks that the gradient comes back in the input's dtype.
    OpInfo("cast", lambda x, dtype: x.astype(dtype), samples(((T((2, 3)),), {"dtype": "float32"})),
           dtypes=NUMBERS + BOOL, differentiable=False, variant="to_float32"),
    OpInfo("cast", lambda x, dtype: x.astype(dtype), samples(((T((2, 3)),), {"dtype": "int64"})),
           dtypes=NUMBERS, differentiable=False, variant="to_int"),
    OpInfo("cast", lambda x, dtype: x.astype(dtype),
           samples(((T((2, 3)),), {"dtype": "complex128"})), dtypes=FLOATS + COMPLEX,
           variant="to_complex"),
    # A complex tensor cast to a real dtype keeps its real part.
    OpInfo("cast", lambda x, dtype: x.real.astype(dtype),
           samples(((T((2, 3)),), {"dtype": "float64"})), dtypes=COMPLEX,
           variant="complex_to_real"),
    OpInfo("assign", np.copy, samples((T((2, 3)),), (T(()),)), dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("output", lambda env: pylayer.zeros([2, 3]),
                                               "out_tensor"))),
    OpInfo("transpose", np.transpose, samples((T((2, 3, 4)), [1, 0, 2]), (T((2, 3, 4)), [2, 0, 1]),
                                              (T((2, 3, 4)), [-1, 0, 1]), (T((2, 3)), [1, 0])),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("perm", _value([1, 0]), "perm"))),
    OpInfo("flatten", refs.flatten, samples((T((2, 3, 4)),), (T(()),),
                                        ((T((2, 3, 4)),), {"start_axis": 1}),
                                        ((T((2, 3, 4)),), {"start_axis": 0, "stop_axis": 1})),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("start_axis", _value(0), "int_axis"),
                     K("stop_axis", _value(1), "int_axis"))),
    OpInfo("squeeze", refs.squeeze, samples((T((1, 3, 1)),), ((T((1, 3, 1)),), {"axis": 0}),
                                        ((T((1, 3, 1)),), {"axis": [0, 1]})),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", lambda env: pylayer.ones([2, 1, 3]), "tensor"),
                     K("axis", _value(1), "axis"))),
    OpInfo("unsqueeze", refs.unsqueeze, samples((T((2, 3)), 0), (T((2, 3)), -1), (T(()), 0)),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("axis", _value(1), "int_axis"))),
    OpInfo("expand_as", lambda x, y: np.broadcast_to(x, y.shape),
           samples((T((3, 1)), np.zeros((2, 3, 4))), (T(()), np.zeros((2,)))),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f3, "tensor"), A("y", f23, "tensor"),
                     extra=[("a shape that does not broadcast",
                             {"y": lambda env: pylayer.ones([3, 2])}, ("x", "y"))])),
    # -------------------------------------------------------------- manipulation
    OpInfo("concat", lambda *xs, axis=0: np.concatenate(xs, axis), samples(
        (T((2, 3)), T((1, 3))), ((T((2, 3)), T((2, 2)), T((2, 1))), {"axis": 1})),
           dtypes=NUMBERS + BOOL + COMPLEX,
           op=lambda *xs, axis=0: pylayer.concat(list(xs), axis=axis),
           call=Call(A("x", lambda env: [f23(), f23()], "tensors"),
                     K("axis", _value(1), "int_axis"),
                     extra=[("shapes that differ off the axis",
                             {"x": lambda env: [f23(), pylayer.ones([3, 3])]}, "x")])),
    OpInfo("stack", lambda *xs, axis=0: np.stack(xs, axis), samples(
        (T((2, 3)), T((2, 3))), ((T((2, 3)), T((2, 3))), {"axis": 1}),
        ((T((2, 3)), T((2, 3))), {"axis": -1}), (T(()), T(()))),
           dtypes=NUMBERS + BOOL + COMPLEX,
           op=lambda *xs, axis=0: pylayer.stack(list(xs), axis=axis),
           call=Call(A("x", lambda env: [f23(), f23()], "tensors"),
                     K("axis", _value(1), "int_axis"),
                     extra=[("shapes that differ", {"x": lambda env: [f23(), f3()]}, "x")])),
    OpInfo("unstack", lambda x, axis=0: list(np.moveaxis(x, axis, 0)), samples(
        (T((3, 2)),), ((T((2, 3)),), {"axis": 1})), dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), K("axis", _value(1), "int_axis"),
                     K("num", _value(None), "size_or_none"))),
    OpInfo("split", refs.split, samples((T((4, 3)), 2), ((T((2, 5)), [2, 3]), {"axis": 1})),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("num_or_sections", _value(3), "sections"),
                     K("axis", _value(1), "int_axis"))),
    OpInfo("chunk", lambda x, chunks, axis=0: np.split(x, chunks, axis),
           samples((T((4, 3)), 2), ((T((2, 6)), 3), {"axis": 1})), dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("chunks", _value(3), "sections"),
                     K("axis", _value(1), "int_axis"))),
    OpInfo("tile", np.tile, samples((T((2, 3)), [2, 1]), (T((3,)), [2, 2]), (T((2, 3)), [3]),
                                    (T(()), [3]), (T((2, 1)), [1, 1])),
           dtypes=FLOATS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("repeat_times", _value([2, 1]), "repeats"))),
    OpInfo("gather", lambda x, index, axis=0: np.take(x, index, axis),
           samples((T((3, 2)), _INDEX), ((T((2, 3)), _INDEX[:2]), {"axis": 1})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("index", _value([1, 0]), "index"),
                     K("axis", _value(0), "int_axis_or_none"))),
    OpInfo("index_select", lambda x, index, axis=0: np.take(x, index, axis),
           samples((T((3, 2)), _INDEX), ((T((2, 3)), _INDEX), {"axis": 1})),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("index", _value([1, 0]), "index"),
                     K("axis", _value(0), "int_axis"))),
    OpInfo("slice", refs.slice_along, samples((T((3, 4)), [0], [1], [3]),
                                    (T((3, 4)), [0, 1], [0, -3], [2, 10])),
           dtypes=FLOATS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("axes", _value([1]), "int_list"),
                     A("starts", _value([0]), "int_list"), A("ends", _value([2]), "int_list"),
                     extra=[("an axis out of range", {"axes": _value([7])}, "axes"),
                            ("lists of different lengths", {"starts": _value([0, 1])},
                             ("axes", "starts", "ends"))])),
    OpInfo("flip", lambda x, axis: np.flip(x, axis),
           samples((T((2, 3)), 0), (T((2, 3, 2)), [0, 2])),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("axis", _value([1]), "axis"))),
    OpInfo("roll", lambda x, shifts, axis=None: np.roll(x, shifts, axis), samples(
        (T((2, 3)), 1), ((T((2, 3)), -7)), ((T((2, 3)), [1, -2]), {"axis": [0, 1]}),
        ((T((3, 4)), 3), {"axis": 1})),
           dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("shifts", _value(1), "int_list"),
                     K("axis", _value(1), "axis"))),
    OpInfo("numel", refs.numel, samples((T((2, 3)),), (T(()),)), dtypes=NUMBERS + BOOL + COMPLEX,
           differentiable=False, call=Call(A("x", f23, "tensor"))),
    OpInfo("take_along_axis", np.take_along_axis, samples(
        (T((2, 3)), _ALONG, 1), (T((3, 3)), _ALONG, 0), (T((3, 4, 2)), _REPEATED_ALONG, 1)),
           dtypes=FLOATS + COMPLEX,
           call=Call(A("arr", f23, "tensor"),
                     A("indices", _value([[0], [1]]), "index"),
                     A("axis", _value(1), "int_axis"))),
    OpInfo("put_along_axis", refs.put_along_axis, samples((T((2, 3)), _ALONG, T((2, 3)), 1),
                                                      (T((2, 3)), _ALONG[:, :1], 9.0, 1)),
           call=Call(A("arr", f23, "tensor"),
                     A("indices", _value([[0], [1]]), "index"),
                     A("values", _value(1.0), "number"),
                     A("axis", _value(1), "int_axis"),
                     K("reduce", _value("add"), "reduction"))),
    OpInfo("masked_fill", refs.masked_fill,
           samples((T((2, 3)), _MASK, 0.5), (T((2, 3)), _MASK[0], -1.0)),
           dtypes=NUMBERS + COMPLEX,
           call=Call(A("x", f23, "tensor"), A("mask", b23, "tensor"),
                     A("value", _value(0.0), "number"),
                     extra=[("a mask that does not broadcast",
                             {"mask": lambda env: pylayer.to_tensor([True, False])},
                             "mask")])),
    # -------------------------------------------------- complex (ops/complex.py)
    OpInfo("complex", lambda real, imag: real + 1j * imag,
           samples((T((2, 3)), T((2, 3))), (T((2, 1)), T((3,))), (T(()), T((2,)))),
           call=Call(A("real", f23, "float_tensor"), A("imag", f23, "float_tensor"),
                     extra=[("shapes that do not broadcast",
                             {"imag": lambda env: pylayer.ones([4])}, ("real", "imag")),
                            ("parts of two dtypes",
                             {"imag": lambda env: pylayer.ones([2, 3], "float64")},
                             ("real", "imag"))])),
    OpInfo("real", np.real, UNARY_SHAPES, dtypes=COMPLEX,
           call=Call(A("x", c23, "complex_tensor"))),
    OpInfo("imag", np.imag, UNARY_SHAPES, dtypes=COMPLEX,
           call=Call(A("x", c23, "complex_tensor"))),
    OpInfo("conj", np.conj, UNARY_SHAPES, dtypes=NUMBERS + COMPLEX, call=unary_call()),
    OpInfo("angle", np.angle, UNARY_SHAPES, dtypes=FLOATS + COMPLEX,
           call=Call(A("x", c23, "inexact_tensor")), smooth=away_from_zero()),
    OpInfo("as_complex", lambda x: x[..., 0] + 1j * x[..., 1],
           samples((T((3, 2)),), (T((2, 3, 2)),), (T((2,)),)),
           call=Call(A("x", lambda env: pylayer.ones([3, 2]), "float_tensor"),
                     extra=[("a last dimension other than 2", {"x": f23}, "x")])),
    OpInfo("as_real", lambda x: np.stack([x.real, x.imag], axis=-1), UNARY_SHAPES,
           dtypes=COMPLEX, call=Call(A("x", c23, "complex_tensor"))),
    # ------------------------------------------------------------ creation from a Tensor
    OpInfo("zeros_like", np.zeros_like, samples((T((2, 3)),), (T(()),)),
           dtypes=NUMBERS + BOOL + COMPLEX,
           differentiable=False,
           call=Call(A("x", f23, "tensor"), K("dtype", _value("int64"), "dtype"))),
    OpInfo("ones_like", np.ones_like, samples((T((2, 3)),), (T(()),)),
           dtypes=NUMBERS + BOOL + COMPLEX,
           differentiable=False,
           call=Call(A("x", f23, "tensor"), K("dtype", _value("int64"), "dtype"))),
    OpInfo("full_like", lambda x, fill_value: np.full_like(x, fill_value),
           samples((T((2, 3)), 2), (T(()), 0)), dtypes=NUMBERS, differentiable=False,
           call=Call(A("x", f23, "tensor"), A("fill_value", _value(2.0), "number"),
                     K("dtype", _value("float64"), "dtype"))),
    # --------------------------------------------------------------------- search
    OpInfo("argsort", refs.argsort,
           samples((T((2, 4)),), ((T((3, 2)),), {"axis": 0, "descending": True})),
           dtypes=NUMBERS, domain=(-100.0, 100.0), differentiable=False,
           call=Call(A("x", f23, "tensor"), K("axis", _value(0), "int_axis"))),
    OpInfo("sort", refs.sort, samples((T((2, 4)),),
                                      ((T((3, 2)),), {"axis": 0, "descending": True})),
           call=Call(A("x", f23, "tensor"), K("axis", _value(0), "int_axis"))),
    OpInfo("topk", refs.topk, samples((T((2, 5)), 2),
                                      ((T((4, 3)), 3), {"axis": 0, "largest": False})),
           call=Call(A("x", f23, "tensor"), A("k", _value(2), "size"),
                     K("axis", _value(1), "int_axis_or_none"))),
    # ------------------------------------------ scatter and index (ops/scatter.py)
    OpInfo("scatter", refs.scatter, samples(
        (T((3, 2)), _ROWS, T((4, 2))), ((T((4, 2)), _ROWS[:3], T((3, 2))), {"overwrite": False}),
        (T((3,)), np.array(1), T(()))), dtypes=NUMBERS,
           call=Call(A("x", f23, "tensor"), A("index", _value([1, 0]), "index"),
                     A("updates", f23, "tensor"), K("overwrite", _value(False), None),
                     extra=[("updates of the wrong shape",
                             {"updates": lambda env: pylayer.ones([3, 3])}, "updates"),
                            ("updates of another dtype",
                             {"updates": lambda env: pylayer.ones([2, 3], "float64")},
                             "updates")])),
    OpInfo("scatter_nd", lambda index, updates, shape: refs.scatter_nd_add(
        np.zeros(shape, updates.dtype), index, updates), samples(
        (np.array([[1], [1], [3]]), T((3, 2)), [5, 2]), (_COORDINATES, T((3,)), [2, 2])),
           dtypes=NUMBERS,
           call=Call(A("index", _value([[1], [0]]), "index"),
                     A("updates", f23, "tensor"), A("shape", _value([2, 3]), "shape"),
                     extra=[("coordinates deeper than the shape",
                             {"index": _value([[1, 0, 0]])}, "index")])),
    OpInfo("scatter_nd_add", refs.scatter_nd_add, samples(
        (T((3, 2)), np.array([[1], [1]]), T((2, 2))), (T((2, 2, 3)), _COORDINATES, T((3, 3)))),
           dtypes=NUMBERS,
           call=Call(A("x", f23, "tensor"), A("index", _value([[1], [0]]), "index"),
                     A("updates", f23, "tensor"),
                     extra=[("updates of the wrong shape",
                             {"updates": lambda env: pylayer.ones([2])},
                             "updates")])),
    OpInfo("gather_nd", lambda x, index: x[tuple(np.moveaxis(index, -1, 0))], samples(
        (T((2, 3, 4)), np.array([[0, 1], [1, -1], [0, 1]])), (T((3, 2)), np.array([[2], [0]]))),
           dtypes=NUMBERS,
           call=Call(A("x", f23, "tensor"), A("index", _value([[1], [0]]), "index"),
                     extra=[("a 0-d index", {"index": _value(1)}, "index")])),
    OpInfo("index_sample", lambda x, index: np.take_along_axis(x, index, 1),
           samples((T((2, 4)), np.array([[0, 0, 3], [1, 2, 2]]))), dtypes=NUMBERS,
           call=Call(A("x", f23, "tensor"), A("index", _value([[2, 0], [1, 1]]),
                                               "index"),
                     extra=[("a negative index", {"index": _value([[-1], [0]])},
                             "index")])),
    OpInfo("index_add", refs.index_add, samples(
        (T((3, 2)), np.array([0, 2, 0]), 0, T((3, 2))),
        ((T((2, 3)), np.array([1, -2]), 1, T((2, 2))), {"alpha": 2})), dtypes=NUMBERS,
           call=Call(A("x", f23, "tensor"), A("index", _value([1, 0]), "index"),
                     A("axis", _value(0), "int_axis"), A("value", f23, "tensor"),
                     K("alpha", _value(2.0), "number"),
                     extra=[("a value that would need broadcasting",
                             {"value": lambda env: pylayer.ones([3])}, "value")])),
    OpInfo("index_put", refs.index_put, samples(
        (T((3, 3)), (np.array([0, 1, 0]), np.array([1, 2, 1])), T((3,))),
        ((T((3, 3)), (np.array([0, 2, 0]),), T((3,))), {"accumulate": True}),
        (T((2, 3)), (np.array([True, False]),), T((1,)))), dtypes=NUMBERS,
           call=Call(A("x", f23, "tensor"),
                     A("indices", lambda env: (pylayer.to_tensor([1, 0]),), "tensors"),
                     A("value", lambda env: pylayer.ones([3]), "tensor"),
                     K("accumulate", _value(True), None),
                     extra=[("a float index tensor",
                             {"indices": lambda env: (pylayer.ones([2]),)}, "indices"),
                            ("a value that does not broadcast",
                             {"value": lambda env: pylayer.ones([2])}, "value")])),
    OpInfo("masked_select", refs.masked_select, samples(
        (T((2, 3)), _MASK), (T((2, 3)), _MASK[1]), (T((3,)), _MASK)),
           dtypes=NUMBERS + BOOL, static=False,
           call=Call(A("x", f23, "tensor"), A("mask", b23, "tensor"),
                     extra=[("a float mask", {"mask": f23}, "mask"),
                            ("a mask that does not broadcast",
                             {"mask": lambda env: pylayer.to_tensor([True, False])},
                             "mask")])),
    OpInfo("nonzero", lambda x: np.argwhere(x).astype(np.int64),
           samples((T((2, 3)),), (T((4,)),)), dtypes=NUMBERS + BOOL, differentiable=False,
           static=False,
           call=Call(A("x", f23, "tensor"), K("as_tuple", _value(True), None),
                     extra=[("a 0-d tensor", {"x": lambda env: pylayer.ones([])}, "x")])),
    OpInfo("nonzero", lambda x, as_tuple: [c.astype(np.int64) for c in np.nonzero(x)],
           samples(((T((2, 3)),), {"as_tuple": True})), dtypes=NUMBERS + BOOL,
           differentiable=False, static=False, variant="as_tuple"),
    OpInfo("bincount", lambda x, weights, minlength=0: np.bincount(
        x, weights, minlength).astype(weights.dtype), samples(
        (np.array([1, 1, 3]), T((3,))), ((np.array([0, 4]), T((2,))), {"minlength": 7})),
           static=False,
           call=Call(A("x", _value([1, 1, 3]), "int_tensor"),
                     K("weights", lambda env: pylayer.ones([3]), "tensor_or_none"),
                     K("minlength", _value(2), "count"),
                     extra=[("a negative value", {"x": _value([1, -1, 3])}, "x"),
                            ("weights of another shape",
                             {"weights": lambda env: pylayer.ones([2])}, "weights"),
                            ("a huge minlength", {"minlength": _value(2 ** 62)},
                             "minlength")])),
    OpInfo("histogram", refs.histogram, samples(
        ((T((2, 3)),), {"bins": 4, "min": -2.0, "max": 2.0}), ((T((5,)),), {"bins": 3})),
           dtypes=NUMBERS, differentiable=False,
           call=Call(A("input", f23, "tensor"), K("bins", _value(4), "size"),
                     K("min", _value(0.0), "number"), K("max", _value(2.0), "number"),
                     K("weight", f23, "tensor_or_none"), K("density", _value(True), None),
                     extra=[("max below min", {"min": _value(3.0)}, ("min", "max")),
                            ("a bool input",
                             {"input": lambda env: pylayer.to_tensor([True])}, "input")])),
]

# Public functions of pylayer without an entry, and why. test_opinfo.py checks that
# every public function is in OPS or here.
_CREATION = ("makes a Tensor from shapes and numbers, with no Tensor input to compare "
             "against a reference (its doctests and the hostile-input table check it)")
_RANDOM = "draws random numbers: there is no numpy reference for its values"
_NOT_AN_OP = "not an op on Tensors"
NOT_IN_DATABASE = {
    **dict.fromkeys(["to_tensor", "zeros", "ones", "full", "empty", "arange", "linspace",
                     "eye"], _CREATION),
    "empty_like": "its values are undefined, so there is nothing to compare",
    **dict.fromkeys(["rand", "randn", "randint", "uniform", "normal", "bernoulli", "seed",
                     "get_rng"], _RANDOM),
    **dict.fromkeys(["grad", "is_grad_enabled", "enable_static", "disable_static",
                     "in_dynamic_mode", "set_device", "get_device", "is_compiled_with_cuda",
                     "save", "load", "is_tensor", "create_parameter", "async_save",
                     "clear_async_save_task_queue", "set_flags", "get_flags",
                     "install_as_paddle", "is_complex", "get_default_dtype",
                     "set_default_dtype"], _NOT_AN_OP),
}


_LABELS = np.array([[0, 2], [1, 0]], dtype=np.int64)
_STATS = (np.array([0.5, -0.25, 0.0], dtype=np.float32),
          np.array([1.5, 0.5, 2.0], dtype=np.float32))
# float32 sums in another order than the float64 references
_SUMS = {"float32": (1e-5, 1e-6)}

OPS += [
    OpInfo("conv1d", refs.as_1d(refs.conv2d), samples(
        (T((2, 2, 5)), T((3, 2, 3))), (T((1, 2, 6)), T((2, 2, 2)), T((2,))),
        ((T((1, 4, 5)), T((2, 2, 3))), {"stride": 2, "padding": 1, "groups": 2}),
        ((T((1, 1, 7)), T((1, 1, 3))), {"dilation": 2})),
           op=F.conv1d, tolerance=_SUMS,
           call=Call(A("x", _ncl, "float_tensor"),
                     A("weight", lambda env: pylayer.ones([3, 2, 2]), "float_tensor"),
                     K("stride", _value(1), "count"), K("groups", _value(1), "size"))),
    OpInfo("conv2d", refs.conv2d, samples(
        (T((2, 2, 4, 4)), T((3, 2, 3, 3))), (T((1, 2, 3, 3)), T((2, 2, 2, 2)), T((2,))),
        ((T((1, 4, 5, 4)), T((2, 2, 3, 2))), {"stride": [2, 1], "padding": 1, "groups": 2}),
        ((T((1, 1, 5, 5)), T((1, 1, 2, 2))), {"dilation": 2}),
        (T((1, 3, 2, 2)), T((2, 3, 1, 1)))), op=F.conv2d, tolerance=_SUMS,
           call=Call(A("x", _chw, "float_tensor"),
                     A("weight", lambda env: pylayer.ones([3, 2, 2, 2]), "float_tensor"),
                     K("bias", lambda env: pylayer.ones([3]), "tensor_or_none"),
                     K("dilation", _value(1), "size"),
                     K("data_format", _value("NCHW"), "reduction"),
                     extra=[("a bias of the wrong size", {"bias": lambda env: pylayer.ones([2])},
                             "bias")])),
    OpInfo("conv1d_transpose", refs.as_1d(refs.conv2d_transpose), samples(
        (T((2, 2, 3)), T((2, 3, 3))), (T((1, 2, 3)), T((2, 1, 2)), T((1,))),
        ((T((1, 4, 3)), T((4, 1, 3))),
         {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2})),
           op=F.conv1d_transpose, tolerance=_SUMS,
           call=Call(A("x", _ncl, "float_tensor"),
                     A("weight", lambda env: pylayer.ones([2, 3, 2]), "float_tensor"),
                     K("stride", _value(2), "count"),
                     K("output_padding", _value(1), "count"),
                     K("data_format", _value("NCL"), "reduction"),
                     extra=[("an output_padding not below the stride",
                             {"output_padding": _value(2)}, "output_padding")])),
    OpInfo("conv2d_transpose", refs.conv2d_transpose, samples(
        (T((1, 2, 3, 3)), T((2, 3, 2, 2))), (T((1, 2, 2, 2)), T((2, 1, 3, 3)), T((1,))),
        ((T((1, 2, 3, 2)), T((2, 2, 3, 3))), {"stride": 2, "padding": 1, "dilation": 2}),
        ((T((1, 4, 2, 2)), T((4, 1, 2, 2))), {"stride": 2, "output_padding": 1, "groups": 2})),
           op=F.conv2d_transpose, tolerance=_SUMS,
           call=Call(A("x", _chw, "float_tensor"),
                     A("weight", lambda env: pylayer.ones([2, 3, 2, 2]), "float_tensor"),
                     K("bias", lambda env: pylayer.ones([3]), "tensor_or_none"),
                     K("padding", _value(1), "count"), K("dilation", _value(1), "size"),
                     K("groups", _value(1), "size"),
                     K("output_size", _value(3), "count_or_none"),
                     extra=[("an output_size out of range",
                             {"output_size": _value([9, 9])}, "output_size"),
                            ("a weight for other channels",
                             {"weight": lambda env: pylayer.ones([3, 3, 2, 2])},
                             "weight")])),
    OpInfo("max_pool1d", refs.pool1d(refs.max_pool2d), samples(
        (T((2, 2, 6)), 2), ((T((1, 2, 5)), 3), {"stride": 1, "padding": 1})),
           op=F.max_pool1d,
           call=Call(A("x", _ncl, "float_tensor"), A("kernel_size", _value(2), "size"),
                     K("stride", _value(1), "count_or_none"), K("padding", _value(1), "count"))),
    OpInfo("max_pool2d", refs.max_pool2d, samples(
        (T((2, 2, 4, 4)), 2), ((T((1, 2, 5, 4)), 3), {"stride": [2, 1], "padding": 1})),
           op=F.max_pool2d,
           call=Call(A("x", _chw, "float_tensor"), A("kernel_size", _value(2), "size"),
                     K("padding", _value([1, 0]), "int_list"),
                     K("data_format", _value("NCHW"), "reduction"),
                     extra=[("a padding of the wrong length", {"padding": _value([1, 0, 1])},
                             "padding")])),
    OpInfo("avg_pool1d", refs.pool1d(refs.avg_pool2d), samples(
        (T((2, 2, 6)), 2), ((T((1, 2, 5)), 3), {"stride": 1, "padding": 1})),
           op=F.avg_pool1d,
           call=Call(A("x", _ncl, "float_tensor"), A("kernel_size", _value(2), "size"),
                     K("padding", _value(1), "count"))),
    OpInfo("avg_pool2d", refs.avg_pool2d, samples(
        (T((2, 2, 4, 4)), 2), ((T((1, 2, 5, 4)), 3), {"stride": [2, 1], "padding": 1})),
           op=F.avg_pool2d,
           call=Call(A("x", _chw, "float_tensor"), A("kernel_size", _value(2), "size"),
                     K("stride", _value(1), "count_or_none"),
                     K("padding", _value(0), "count"), K("ceil_mode", _value(False), None),
                     K("divisor_override", _value(2.0), "number_or_none"),
                     K("data_format", _value("NCHW"), "reduction"),
                     extra=[("'VALID' padding with ceil_mode",
                             {"padding": _value("VALID"), "ceil_mode": _value(True)},
                             ("padding", "ceil_mode"))])),
    OpInfo("adaptive_avg_pool1d", lambda x, output_size: refs.adaptive_avg_pool2d(
        x[:, :, None], (1, output_size))[:, :, 0], samples((T((2, 2, 7)), 3), (T((1, 2, 4)), 4),
                                                     (T((2, 2, 6)), 3)),
           op=F.adaptive_avg_pool1d,
           call=Call(A("x", _ncl, "float_tensor"), A("output_size", _value(2),
                                                       "size"))),
    OpInfo("adaptive_avg_pool2d", refs.adaptive_avg_pool2d, samples(
        (T((2, 2, 5, 4)), 2), (T((1, 2, 3, 5)), [2, 3]), (T((2, 2, 4, 6)), [2, 3]),
        (T((2, 3, 4, 4)), 1)), op=F.adaptive_avg_pool2d,
           call=Call(A("x", _chw, "float_tensor"),
                     A("output_size", _value(2), "size"),
                     K("data_format", _value("NCHW"), "reduction"))),
    OpInfo("layer_norm", refs.layer_norm, samples(
        (T((2, 3, 4)), [3, 4], T((3, 4)), T((3, 4))), (T((3, 5)), 5),
        ((T((2, 4)), [4]), {"epsilon": 0.1})), op=F.layer_norm, tolerance=_SUMS,
           call=Call(A("x", f23, "float_tensor"), A("normalized_shape", _value(3), "int_list"),
                     K("epsilon", _value(1e-5), "non_negative"))),
    OpInfo("batch_norm", refs.batch_norm, samples(
        (T((2, 3, 2, 2)), *_STATS, T((3,)), T((3,))), ((T((4, 3)), *_STATS), {"training": True}),
        ((T((2, 3, 3)), *_STATS, T((3,)), T((3,))), {"training": True, "epsilon": 0.1})),
           op=F.batch_norm, tolerance=_SUMS,
           call=Call(A("x", f23, "float_tensor"),
                     A("running_mean", lambda env: pylayer.zeros([3]), "tensor"),
                     A("running_var", lambda env: pylayer.ones([3]), "tensor"),
                     K("momentum", _value(0.9), "probability"),
                     K("data_format", _value("NC"), "reduction"))),
    OpInfo("group_norm", refs.group_norm, samples(
        (T((2, 4, 3)), 2), ((T((2, 6, 2, 2)), 3), {"weight": None, "epsilon": 0.1})),
           op=F.group_norm, tolerance=_SUMS,
           call=Call(A("x", lambda env: pylayer.ones([2, 4, 3]), "float_tensor"),
                     A("num_groups", _value(2), "size"),
                     K("data_format", _value("NCL"), "reduction"))),
    OpInfo("pad", refs.pad, samples(
        (T((1, 2, 3, 4)), [1, 2, 0, 1]), ((T((1, 2, 5)), [2, 1]), {"value": 0.5}),
        ((T((1, 2, 3, 4)), [1, 2, 2, 1]), {"mode": "reflect"}),
        ((T((1, 2, 3, 4)), [2, 0, 1, 3]), {"mode": "replicate"})), op=F.pad,
           call=Call(A("x", _chw, "tensor"), A("pad", _value([1, 1, 0, 0]), "int_list"),
                     K("mode", _value("reflect"), "reduction"), K("value", _value(0.0), "number"))),
    OpInfo("interpolate", refs.interpolate, samples(
        ((T((1, 2, 2, 3)),), {"scale_factor": 2}), ((T((1, 2, 4, 4)),), {"size": [2, 3]}),
        ((T((1, 2, 3, 2)),), {"size": [5, 4], "mode": "bilinear", "align_corners": True}),
        ((T((1, 2, 3, 4)),), {"size": [4, 6], "mode": "bilinear"})),
           op=F.interpolate, tolerance=_SUMS,
           call=Call(A("x", _chw, "float_tensor"), K("size", _value([3, 5]), "int_list"),
                     K("mode", _value("bilinear"), "reduction"))),
    OpInfo("pixel_shuffle", refs.pixel_shuffle, samples((T((1, 8, 2, 3)), 2), (T((2, 9, 1, 2)), 3)),
           op=F.pixel_shuffle,
           call=Call(A("x", lambda env: pylayer.ones([1, 4, 2, 2]), "tensor"),
                     A("upscale_factor", _value(2), "size"))),
    OpInfo("embedding", lambda x, weight: weight[x], samples((_LABELS, T((3, 4)))),
           op=F.embedding,
           call=Call(A("x", lambda env: pylayer.to_tensor([0, 2]), "int_tensor"),
                     A("weight", lambda env: pylayer.ones([3, 2]), "float_tensor"),
                     K("padding_idx", _value(None), "int_axis_or_none"))),
    OpInfo("one_hot", lambda x, num_classes: np.eye(num_classes, dtype=np.float32)[x],
           samples((T((2, 3), 0, 3), 4), (T((5,), 0, 2), 3)), dtypes=INTS, differentiable=False,
           op=F.one_hot,
           call=Call(A("x", lambda env: pylayer.to_tensor([0, 2]), "int_tensor"),
                     A("num_classes", _value(3), "size"))),
    OpInfo("dropout", refs.dropout, samples(
        ((T((2, 3)),), {"p": 0.0}), ((T((2, 3)),), {"p": 0.5, "training": False}),
        ((T((4,)),), {"p": 0.75, "training": False, "mode": "downscale_in_infer"})),
           op=F.dropout,
           call=Call(A("x", f23, "float_tensor"), K("p", _value(0.5), "probability"),
                     K("axis", _value(None), "axis"),
                     K("mode", _value("upscale_in_train"), "reduction"))),
    OpInfo("linear", refs.linear, samples((T((2, 3)), T((3, 4)), T((4,))), (T((3,)), T((3, 2))),
                                      (T((2, 2, 3)), T((3, 1)))), op=F.linear, tolerance=_SUMS,
           call=Call(A("x", f23, "float_tensor"),
                     A("weight", lambda env: pylayer.ones([3, 2]), "float_tensor"),
                     K("bias", lambda env: pylayer.ones([2]), "tensor_or_none"),
                     extra=[("a weight that does not fit x",
                             {"weight": lambda env: pylayer.ones([4, 2])}, ("x", "weight")),
                            ("a bias that does not fit",
                             {"bias": lambda env: pylayer.ones([3])}, "bias")]),
           smooth=bounded(30)),
]


# The families added later live in their own files, ``opinfo_<family>.py`` beside this
# one: each defines ENTRIES (a list of OpInfo) and may define NOT_IN_DATABASE (names with
# their reasons), importing what it needs from this module.
def _load_families():
    import importlib
    import pathlib
    for path in sorted(pathlib.Path(__file__).parent.glob("opinfo_*.py")):
        family = importlib.import_module(path.stem)
        OPS.extend(family.ENTRIES)
        NOT_IN_DATABASE.update(getattr(family, "NOT_IN_DATABASE", {}))


_load_families()
