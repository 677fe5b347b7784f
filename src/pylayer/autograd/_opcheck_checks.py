"""The ten checks of :func:`pylayer.autograd.opcheck`, and the runs of the layer they need.

Every call of the layer gets fresh copies of the inputs, made by a recorded op
from the same leaves, so one check cannot disturb another, and a forward that
changes its inputs is still checkable. The layer runs through a subclass
whose ``backward`` notes what the user's ``backward`` received and returned
(before pylayer checks and adapts the gradients), and the random streams of
pylayer, numpy and Python are reset before each call, so that a random op
draws the same numbers every time. Each check returns an entry
``(name, verdict, reason, evidence, fix)``.
"""
import collections
import inspect
import random
import traceback
import warnings
from typing import NamedTuple

import numpy as np

from pylayer._kernels.dtypes import is_inexact
from pylayer._core.tensor import Tensor
from pylayer.autograd.functional import grad
from pylayer.autograd.grad_mode import enable_grad, no_grad
from pylayer.autograd.gradcheck import _find_mismatch, _first_derivative
from pylayer.autograd.py_layer import PyLayer, once_differentiable
from pylayer.autograd.saved_hooks import saved_tensors_hooks
from pylayer.ops.creation import get_rng, to_tensor
from pylayer.ops.manipulation import concat
from pylayer.ops.shape import assign, cast, reshape

CHECKS = ("gradient", "double backward", "missing output gradients", "gradient contract",
          "inputs left unchanged", "non-differentiable outputs", "saved tensors",
          "backward twice", "determinism", "no_grad")
VERDICTS = ("pass", "note", "skip", "fail")
# eps, atol and rtol for a layer that computes in a dtype coarser than float64.
_COARSE_TOLERANCES = {"float32": (1e-3, 1e-3, 1e-2), "float16": (1e-2, 5e-2, 5e-2)}
# The checks that need a backward pass through the layer.
_BACKWARD_CHECKS = ("gradient", "double backward", "missing output gradients",
                    "gradient contract", "saved tensors", "backward twice")


# What one check found (``OpcheckEntry`` is the public form).
Entry = collections.namedtuple("Entry", "name verdict reason evidence fix", defaults=("", ""))


def _describe_value(value):
    return value.__name__ if isinstance(value, type) else type(value).__name__


# --------------------------------------------------------------- the arguments
class _Leaf(NamedTuple):
    """Where a Tensor stood among the arguments: leaf number ``index``."""
    index: int


class _Sequence(NamedTuple):
    """A list or tuple argument that holds Tensors (one input slot)."""
    kind: type
    items: list


class _Slot(NamedTuple):
    name: str
    leaves: list          # leaf numbers of its Tensors
    is_list: bool


class Arguments:
    """The example arguments, each Tensor replaced by a leaf: a copy made once (float64
    for a float Tensor) with the original's stop_gradient. ``copies()`` gives each call
    its own inputs, made from the leaves by a recorded op, so gradients reach the leaves."""

    def __init__(self, layer, args, kwargs):
        self.leaves, self.names, self.slots, self.notes = [], [], [], []
        self.given_dtypes = []      # per leaf: the dtype of the Tensor it copies
        self._seen = {}
        names = _positional_names(layer, len(args))
        self.args = [self._template(value, name) for value, name in zip(args, names)]
        self.kwargs = {key: self._template(value, key) for key, value in kwargs.items()}
        self.targets = [leaf for leaf in self.leaves
                        if not leaf.stop_gradient and leaf.dtype.is_floating_point]

    def _template(self, value, name):
        if isinstance(value, Tensor):
            leaf = self._leaf(value, name)
            self.slots.append(_Slot(name, [leaf.index], False))
            return leaf
        if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
            items = [self._leaf(v, f"{name}[{j}]") if isinstance(v, Tensor) else v
                     for j, v in enumerate(value)]
            self.slots.append(_Slot(name, [i.index for i in items if isinstance(i, _Leaf)],
                                    True))
            return _Sequence(list if isinstance(value, list) else tuple, items)
        self.notes.append(f"{name}: {_short_repr(value)}")
        return value

    def _leaf(self, tensor, name):
        if id(tensor) in self._seen:
            return self._seen[id(tensor)]
        array = tensor.numpy()
        as_float64 = tensor.dtype.is_floating_point and array.dtype != np.float64
        leaf = to_tensor(array.astype(np.float64) if tensor.dtype.is_floating_point
                         else array.copy())
        leaf.stop_gradient = tensor.stop_gradient
        self.notes.append(f"{name}: {tensor.dtype.name}{list(array.shape)}"
                          + (" as float64" if as_float64 else ""))
        self.leaves.append(leaf)
        self.names.append(name)
        self.given_dtypes.append(tensor.dtype)
        self._seen[id(tensor)] = _Leaf(len(self.leaves) - 1)
        return self._seen[id(tensor)]

    def copies(self):
        """Fresh inputs for one call, one per leaf."""
        with enable_grad():
            return [assign(leaf) for leaf in self.leaves]

    def build(self, copies):
        """The ``(args, kwargs)`` of a call on ``copies``."""
        def fill(value):
            if isinstance(value, _Leaf):
                return copies[value.index]
            if isinstance(value, _Sequence):
                return value.kind(fill(item) for item in value.items)
            return value
        return tuple(fill(v) for v in self.args), {k: fill(v) for k, v in self.kwargs.items()}

    def describe(self):
        return ", ".join(self.notes)

    def target_name(self, j):
        return self.names[next(i for i, leaf in enumerate(self.leaves)
                               if leaf is self.targets[j])]


def _positional_names(layer, count):
    """Names of forward's parameters for ``count`` positional arguments (after ctx)."""
    try:
        parameters = list(inspect.signature(layer.forward).parameters.values())[1:]
    except (TypeError, ValueError):
        parameters = []
    names = []
    for i in range(count):
        if i < len(parameters) and parameters[i].kind in (parameters[i].POSITIONAL_ONLY,
                                                         parameters[i].POSITIONAL_OR_KEYWORD):
            names.append(parameters[i].name)
        else:
            names.append(f"args[{i}]")
    return names


def _short_repr(value):
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def _flat_outputs(returned):
    """``[(label, Tensor)]`` for every Tensor output, in the order backward gets them."""
    if isinstance(returned, Tensor):
        return [("the output", returned)]
    found = []
    for i, item in enumerate(returned if isinstance(returned, (tuple, list)) else ()):
        if isinstance(item, Tensor):
            found.append((f"output {i}", item))
        elif isinstance(item, (tuple, list)):
            found += [(f"output {i}[{j}]", t) for j, t in enumerate(item)
                      if isinstance(t, Tensor)]
    return found


def _tensors_in(value):
    """The Tensors of what backward returned (a Tensor, or a tuple or list holding them)."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for item in value for t in _tensors_in(item)]
    return []


def _flat_values(values):
    """The gradients ``backward`` received, flat (a list slot gives a list)."""
    flat = []
    for value in values:
        flat += list(value) if isinstance(value, (list, tuple)) else [value]
    return flat


class RandomStreams:
    """pylayer's, numpy's and Python's random streams as they were; ``restore()`` puts
    them back, so that a random op draws the same numbers on every call."""

    def __init__(self):
        self._pylayer = get_rng().bit_generator.state
        self._numpy = np.random.get_state()
        self._python = random.getstate()

    def restore(self):
        get_rng().bit_generator.state = self._pylayer
        np.random.set_state(self._numpy)
        random.setstate(self._python)


class _Run:
    """One call of the layer: the inputs it got, what it returned, its Tensor outputs."""

    def __init__(self, copies, returned):
        self.copies = copies
        self.returned = returned
        self.outputs = _flat_outputs(returned)


class _BackwardCall:
    """What the user's backward received, and returned or raised, in one call."""

    def __init__(self, grads):
        self.grads = grads
        self.result = self.error = None


class _NoGradient(PyLayer):
    """An identity whose backward gives no gradient: the layer behind it gets none."""

    @staticmethod
    def forward(ctx, x):
        return assign(x)

    @staticmethod
    def backward(ctx, dy):
        return (None,)


_ONCE_DIFFERENTIABLE_CODE = once_differentiable(lambda ctx: None).__code__


def _is_once_differentiable(layer):
    return getattr(layer.backward, "__code__", None) is _ONCE_DIFFERENTIABLE_CODE


def _error_text(error, where=True):
    """``TypeError: message (file.py:12, in backward)``: the error and, with ``where``,
    the innermost frame it was raised in."""
    frames = traceback.extract_tb(error.__traceback__) if where else None
    place = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}, in " \
            f"{frames[-1].name})" if frames else ""
    return f"{type(error).__name__}: {error}{place}"


def _first_difference(first, second, names):
    """``the gradient of x differs by up to 0.5``: the first pair of Tensors (or Nones)
    that differ, or '' when all are equal."""
    for name, a, b in zip(names, first, second):
        if (a is None) != (b is None):
            return f"{name} is None in one case and a Tensor in the other"
        if a is None:
            continue
        x, y = a.numpy(), b.numpy()
        if x.shape != y.shape or x.dtype != y.dtype:
            return f"{name} is {x.dtype}{list(x.shape)} then {y.dtype}{list(y.shape)}"
        if not np.array_equal(x, y, equal_nan=is_inexact(x.dtype)):
            if is_inexact(x.dtype):
                gap = float(np.nanmax(np.abs(x.astype(np.float64) - y.astype(np.float64))))
                return f"{name} differs by up to {gap:.3g}"
            return f"{name} differs"
    return ""


# ----------------------------------------------------------------- the checks
class Checker:
    """Runs the ten checks on one layer; ``entries()`` returns them in CHECKS order."""

    def __init__(self, layer, arguments, streams, tolerances):
        self.layer, self.arguments, self.streams = layer, arguments, streams
        self.tolerances = tolerances
        self.observed = None      # a list while backward calls are being noted
        self.warned = []          # what the last observed action warned
        self.random = True        # until determinism shows otherwise: reset the streams
        self.spy = self._spy_class()

    def _spy_class(self):
        layer, checker = self.layer, self

        def backward(ctx, *grads):
            if checker.observed is None:
                return layer.backward(ctx, *grads)
            call = _BackwardCall(grads)
            checker.observed.append(call)
            try:
                call.result = layer.backward(ctx, *grads)
            except Exception as error:
                call.error = error
                raise
            return call.result

        namespace = {"backward": staticmethod(backward), "__module__": layer.__module__,
                     "__qualname__": layer.__qualname__, "__doc__": layer.__doc__}
        return type(layer)(layer.__name__, (layer,), namespace)

    # ---------------------------------------------------------------- calls
    def run(self, fixed=True):
        copies = self.arguments.copies()
        args, kwargs = self.arguments.build(copies)
        if fixed and self.random:
            self.streams.restore()
        return _Run(copies, self.spy.apply(*args, **kwargs))

    def gradients(self, run, weights=None, create_graph=False):
        outputs = [run.outputs[k][1] for k in self.differentiable]
        return grad(outputs, self.arguments.targets,
                    grad_outputs=self.weights if weights is None else weights,
                    retain_graph=True, create_graph=create_graph, allow_unused=True)

    def observe(self, action):
        """Run ``action()``; return (its result or None, its error or None, backward calls).
        What it warns is kept in ``self.warned`` for the report, not shown."""
        self.observed = []
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                return action(), None, self.observed
            except Exception as error:
                return None, error, self.observed
            finally:
                self.observed = None
                self.warned = [str(w.message) for w in warned]

    def function(self):
        """The layer as a function of the targets, for gradcheck: one float64 Tensor, its
        differentiable outputs flattened and joined, so that backward gets a gradient
        (zeros at least) for every output, as in any backward pass that reaches them all."""
        def apply(*targets):
            outputs = self.run().outputs
            if len(outputs) != self.n_outputs:
                raise RuntimeError(f"{self.layer.__name__}.forward returned {len(outputs)} "
                                   f"Tensors this time, {self.n_outputs} the first time")
            return concat([cast(reshape(outputs[k][1], [-1]), "float64")
                           for k in self.differentiable])
        apply.__qualname__ = f"{self.layer.__name__}.apply"
        return apply

    def target_label(self, position, index):
        return f"{self.arguments.target_name(position)}{_at(index)}"

    def gradient_names(self):
        return [f"the gradient of {self.arguments.target_name(j)}"
                for j in range(len(self.arguments.targets))]

    def output_label(self, row):
        """The output element that row ``row`` of a Jacobian stands for."""
        return _element_label(row, [self.outputs[k] for k in self.differentiable])

    # ---------------------------------------------------------------- driver
    def entries(self):
        try:
            base = self.run()
        except Exception as error:
            error.add_note(f"opcheck: {self.layer.__name__}.apply raised on the example "
                           f"inputs ({self.arguments.describe()}), so nothing could be checked")
            raise
        self.outputs, self.n_outputs = base.outputs, len(base.outputs)
        self.differentiable = [k for k, (_, t) in enumerate(base.outputs)
                               if t.dtype.is_floating_point and not t.stop_gradient]
        rng = np.random.default_rng(0)
        self.weights = [to_tensor(rng.standard_normal(self.outputs[k][1].shape).astype(
            self.outputs[k][1].numpy().dtype)) for k in self.differentiable]
        found = {"inputs left unchanged": self.inputs_left_unchanged(base),
                 "non-differentiable outputs": self.non_differentiable_outputs(base),
                 "determinism": self.determinism(),
                 "no_grad": self.no_grad()}
        found.update(self.backward_checks(base))
        return [found[name] for name in CHECKS]

    def backward_checks(self, base):
        if not self.differentiable:
            return {name: Entry(name, "skip", "not run: no differentiable output")
                    for name in _BACKWARD_CHECKS}
        first, error, calls = self.observe(lambda: self.gradients(base))
        if error is not None:
            root = self.backward_error(error, calls[-1] if calls else None)
            found = {name: Entry(name, "skip", "not run: backward raises")
                     for name in _BACKWARD_CHECKS}
            found[root.name] = root
            return found
        if not calls:
            return {name: Entry(name, "skip", "not run: backward was not called")
                    for name in _BACKWARD_CHECKS}
        self.precision = self.coarsest_precision(calls[-1].result)
        gradient = self.gradient()
        return {"gradient contract": self.gradient_contract(calls[-1].result, None),
                "backward twice": self.backward_twice(base, first),
                "gradient": gradient,
                "double backward": self.double_backward() if gradient.verdict == "pass" else
                Entry("double backward", "skip",
                      "not run: the gradient is wrong"),
                "missing output gradients": self.missing_output_gradients(),
                "saved tensors": self.saved_tensors(first)}

    def backward_error(self, error, call):
        """The entry to blame for a backward pass that raised."""
        if call is not None and call.error is None:
            return self.gradient_contract(call.result, error)
        if call is not None and any(g is None for g in _flat_values(call.grads)):
            absent = [self.outputs[k][0] for k, g in enumerate(_flat_values(call.grads))
                      if g is None]
            return Entry(
                "missing output gradients", "fail", "backward raises on a None gradient",
                f"backward received None for {', '.join(absent)} (the layer calls "
                f"ctx.set_materialize_grads(False)) and raised {_error_text(error)}",
                "treat a None gradient as zeros (if dy is None: ...), or keep "
                "set_materialize_grads(True) so that absent gradients arrive as zeros")
        return Entry("gradient", "fail", "backward raises",
                     f"the backward pass raised {_error_text(error)}",
                     "fix the error in backward")

    # ---------------------------------------------------------------- 1, 2
    def coarsest_precision(self, result):
        """``(note, (eps, atol, rtol))`` for the numerical checks: the given tolerances, or
        wider ones when the layer computes below float64 (a float32 output, a float16
        gradient), which central differences cannot check to float64 precision."""
        found = [(f"{label} is", t.dtype.name) for label, t in
                 (self.outputs[k] for k in self.differentiable)]
        found += [("backward's result is", t.dtype.name) for t in _tensors_in(result)
                  if t.dtype.is_floating_point]
        coarse = [(what, dtype) for what, dtype in found if dtype in _COARSE_TOLERANCES]
        if not coarse:
            return "", self.tolerances
        what, dtype = max(coarse, key=lambda item: _COARSE_TOLERANCES[item[1]][0])
        eps, atol, rtol = (max(given, wide) for given, wide in
                           zip(self.tolerances, _COARSE_TOLERANCES[dtype]))
        return (f"{what} {dtype}, so central differences used eps={eps:g}, atol={atol:g}, "
                f"rtol={rtol:g}: below float64 they cannot be checked more closely"), \
            (eps, atol, rtol)

    def gradient(self):
        note, (eps, atol, rtol) = self.precision
        try:
            mismatch = _find_mismatch(self.function(), tuple(self.arguments.targets),
                                      eps, atol, rtol)
        except Exception as error:
            return Entry("gradient", "fail", "checking the gradient raises",
                         _error_text(error), "fix the error in backward")
        names = ", ".join(self.arguments.target_name(j)
                          for j in range(len(self.arguments.targets)))
        if mismatch is None:
            return Entry("gradient", "pass", "backward matches central differences",
                         "\n".join(filter(None, (f"checked the gradients of {names}", note))))
        evidence = (f"the derivative of {self.output_label(mismatch.output)} with respect to "
                    f"{self.target_label(mismatch.input, mismatch.index)} is "
                    f"{mismatch.analytical:.6g} by backward but {mismatch.numerical:.6g} by "
                    f"central differences")
        return Entry("gradient", "fail", "backward differs from central differences",
                     "\n".join(filter(None, (evidence, note))),
                     f"correct the gradient that backward returns for "
                     f"{self.arguments.target_name(mismatch.input)}")

    def double_backward(self):
        name = "double backward"
        if _is_once_differentiable(self.layer):
            return Entry(name, "note", "backward is once_differentiable",
                         "a second derivative through it raises RuntimeError, as the "
                         "decorator declares")
        note, (eps, atol, rtol) = self.precision
        function = self.function()
        targets = tuple(self.arguments.targets)
        weights = [to_tensor(np.concatenate([w.numpy().reshape(-1).astype(np.float64)
                                             for w in self.weights]), stop_gradient=False)]
        try:
            first_derivative, all_args = _first_derivative(function, targets, weights)
            mismatch = _find_mismatch(first_derivative, all_args, eps, atol, rtol)
            if mismatch is None:
                return Entry(name, "pass", "second derivatives match the numbers",
                             note)
            gradients = grad(function(*targets), list(targets), grad_outputs=weights,
                             create_graph=True, allow_unused=True)
        except Exception as error:
            return Entry(name, "fail", "differentiating backward raises",
                         _error_text(error),
                         "write backward with differentiable pylayer ops, or decorate "
                         "it with @once_differentiable")
        if mismatch.input < len(targets):
            wrt = self.target_label(mismatch.input, mismatch.index)
        else:
            wrt = f"the gradient of {self.output_label(mismatch.element)}"
        results = [(f"the gradient of {self.arguments.target_name(j)}", g)
                   for j, g in enumerate(gradients) if g is not None]
        numbers = (f"the derivative of {_element_label(mismatch.output, results)} with "
                   f"respect to {wrt} is {mismatch.analytical:.6g} by double backward but "
                   f"{mismatch.numerical:.6g} by central differences"
                   + (f"\n{note}" if note else ""))
        if any(g is not None and g.grad_fn is None for g in gradients):
            return Entry(
                name, "fail", "backward is not differentiable",
                "with create_graph=True, the gradient backward returns is not connected to "
                "the graph (computed outside pylayer's ops, with numpy?), so second "
                f"derivatives through it are silently wrong: {numbers}",
                "decorate backward with @once_differentiable so that a second derivative "
                "raises, or write it with differentiable pylayer ops")
        return Entry(
            name, "fail", "wrong second derivative", numbers,
            "compute backward from tensors connected to the inputs: the saved inputs or "
            "outputs, not values computed apart in forward")

    # ---------------------------------------------------------------- 3
    def missing_output_gradients(self):
        name, received = "missing output gradients", []
        for position, k in enumerate(self.differentiable):
            label = self.outputs[k][0]
            blocked = self.run()
            outputs = [_NoGradient.apply(t) if j == k else t
                       for j, t in ((j, blocked.outputs[j][1]) for j in self.differentiable)]
            got, error, calls = self.observe(lambda: grad(
                outputs, self.arguments.targets, grad_outputs=self.weights,
                retain_graph=False, allow_unused=True))
            arrived = _flat_values(calls[-1].grads)[k] if calls else None
            what = "None" if arrived is None else "zeros"
            received.append(f"{label}: {what}")
            if error is not None:
                return Entry(
                    name, "fail", "backward raises on an absent gradient",
                    f"backward received {what} for {label} and raised {_error_text(error)}",
                    "treat a None gradient as zeros (if dy is None: ...)" if arrived is None
                    else "make backward work when an output's gradient is zeros")
            weights = list(self.weights)
            weights[position] = to_tensor(np.zeros_like(weights[position].numpy()))
            want = self.gradients(self.run(), weights)
            difference = _first_difference(got, want, self.gradient_names())
            if difference:
                warned = "".join(f"\npylayer warned: {text}" for text in self.warned)
                return Entry(
                    name, "fail", "an absent gradient differs from zeros",
                    f"with no gradient for {label}, backward received {what}; compared with "
                    f"explicit zeros, {difference}{warned}",
                    "an absent gradient must count as zeros: treat None like zeros")
        return Entry(name, "pass", "an absent gradient acts as zeros",
                     f"backward received {', '.join(received)}")

    # ---------------------------------------------------------------- 4
    def gradient_contract(self, result, error):
        outputs_bits = min(_bits(self.outputs[k][1].dtype) for k in self.differentiable)
        problems = _contract_problems(result, self.arguments, outputs_bits)
        if error is not None:
            rejected = f"pylayer rejected it: {_error_text(error, where=False)}"
            problems = problems or [("backward's result is rejected", "", "see the error")]
            reason, evidence, fix = problems[0]
            problems[0] = (reason, "\n".join(filter(None, (evidence, rejected))), fix)
        if not problems:
            return Entry("gradient contract", "pass",
                         "one gradient of the right shape per input")
        return Entry("gradient contract", "fail", problems[0][0],
                     "\n".join(evidence for _, evidence, _ in problems),
                     "; ".join(dict.fromkeys(fix for _, _, fix in problems)))

    # ---------------------------------------------------------------- 5, 6
    def inputs_left_unchanged(self, base):
        name = "inputs left unchanged"
        leaves, names = self.arguments.leaves, self.arguments.names
        changed = [names[i] for i, (leaf, copy) in enumerate(zip(leaves, base.copies))
                   if _first_difference([leaf], [copy], [""])]
        returned = [(label, names[i]) for label, t in base.outputs
                    for i, copy in enumerate(base.copies) if t is copy]
        if changed:
            return Entry(
                name, "fail", f"forward changes {changed[0]} in place",
                f"after forward, the values of {', '.join(changed)} differ from before",
                "leave the inputs as they are: compute into a new tensor (x + 1, not "
                "x.add_(1))")
        if returned:
            label, input_name = returned[0]
            return Entry(
                name, "fail", f"forward returns {input_name} unmarked",
                f"forward returned {input_name} itself as {label} without "
                f"ctx.mark_not_inplace({input_name}), so pylayer and Paddle count it as "
                f"changed in place: its version is bumped and its history moves to this node",
                f"call ctx.mark_not_inplace({input_name}) in forward")
        return Entry(name, "pass", "forward leaves its inputs as they were")

    def non_differentiable_outputs(self, base):
        name = "non-differentiable outputs"
        discrete = [(label, t) for label, t in base.outputs if not t.dtype.is_floating_point]
        unmarked = [f"{label} ({t.dtype.name})" for label, t in discrete if not t.stop_gradient]
        if unmarked:
            return Entry(
                name, "fail", f"{unmarked[0].split(' (')[0]} is not marked",
                f"{', '.join(unmarked)} cannot have a gradient, but "
                f"{'is' if len(unmarked) == 1 else 'are'} not marked non-differentiable",
                "call ctx.mark_non_differentiable(...) on the integer and bool outputs in "
                "forward")
        return Entry(name, "pass", "integer and bool outputs are marked" if discrete
                     else "no integer or bool output")

    # ---------------------------------------------------------------- 7, 8
    def saved_tensors(self, first):
        name, packed = "saved tensors", []

        def pack(tensor):
            packed.append(tensor)
            return None if tensor is None else to_tensor(np.array(tensor.numpy(), copy=True))

        with saved_tensors_hooks(pack, lambda copy: copy):
            run = self.run()
        for tensor in run.copies + [t for _, t in run.outputs]:
            _overwrite(tensor.numpy())
        try:
            got = self.gradients(run)
        except Exception as error:
            return Entry(name, "fail", "backward raises under saved-tensor hooks",
                         _error_text(error), "save tensors with ctx.save_for_backward")
        difference = _first_difference(first, got, self.gradient_names())
        if difference:
            return Entry(
                name, "fail", "backward uses tensors it did not save",
                f"with saved tensors packed as copies by saved_tensors_hooks, and the inputs "
                f"and outputs overwritten after forward, {difference}: backward reads a "
                f"tensor that save_for_backward did not keep (a ctx attribute?), which also "
                f"escapes save_on_disk and recomputation",
                "keep every tensor backward needs with ctx.save_for_backward(...) and read it "
                "with ctx.saved_tensor(); keep only non-Tensor values as ctx attributes")
        return Entry(name, "pass", "backward reads only what it saved",
                     f"{_count(len(packed), 'saved tensor')} went through copying hooks")

    def backward_twice(self, base, first):
        name = "backward twice"
        try:
            second = self.gradients(base)
        except Exception as error:
            return Entry(name, "fail", "a second backward raises", _error_text(error),
                         "leave ctx and the saved tensors unchanged in backward")
        difference = _first_difference(first, second, self.gradient_names())
        if difference:
            return Entry(
                name, "fail", "a second backward gives other gradients",
                f"with retain_graph=True, a second backward through the same graph gives "
                f"other gradients: {difference}",
                "leave ctx and the saved tensors unchanged in backward: compute into new "
                "tensors and local variables")
        return Entry(name, "pass", "a second backward gives the same gradients")

    # ---------------------------------------------------------------- 9, 10
    def determinism(self):
        name = "determinism"
        labels = [label for label, _ in self.outputs]
        self.streams.restore()
        once, again = self.run(fixed=False), self.run(fixed=False)
        difference = _first_difference([t for _, t in once.outputs],
                                       [t for _, t in again.outputs], labels)
        if not difference:
            self.random = False     # the draws, if any, do not reach the outputs
            return Entry(name, "pass", "two forwards give identical outputs")
        seeded = [[t for _, t in self.run().outputs] for _ in range(2)]
        if not _first_difference(*seeded, labels):
            return Entry(
                name, "note", "random: checked with the seed fixed",
                f"two forwards differ ({difference}), but not with the random state of "
                f"pylayer, numpy and Python reset before each, as every other check ran")
        return Entry(
            name, "fail", "outputs differ even with the seed fixed",
            f"two forwards on the same inputs differ ({difference}), even with the random "
            f"state of pylayer, numpy and Python reset before each",
            "draw random numbers from pylayer's random functions (or numpy's global ones), "
            "which pylayer.seed repeats, and keep no state between calls")

    def no_grad(self):
        name, packed = "no_grad", []
        copies = self.arguments.copies()
        args, kwargs = self.arguments.build(copies)
        self.streams.restore()
        try:
            with saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t), no_grad():
                outputs = _flat_outputs(self.spy.apply(*args, **kwargs))
        except Exception as error:
            return Entry(name, "fail", "forward raises under no_grad",
                         _error_text(error), "make forward work under no_grad")
        recorded = [label for label, t in outputs if not any(t is c for c in copies)
                    and (not t.stop_gradient or t.grad_fn is not None)]
        if recorded or packed:
            evidence = []
            if recorded:
                evidence.append(f"under no_grad, {', '.join(recorded)} came out with a "
                                f"graph (stop_gradient=False)")
            if packed:
                evidence.append(f"{_count(len(packed), 'tensor')} saved for a backward")
            return Entry(
                name, "fail", "the call records a graph under no_grad", "\n".join(evidence),
                "do not turn recording on inside forward (enable_grad, "
                "set_grad_enabled(True)): apply records the call itself")
        return Entry(name, "pass", "nothing is recorded under no_grad")


def _element_label(row, labelled):
    """``label[i, j]``: the element that flat row ``row`` stands for among the
    ``(label, Tensor)`` pairs, counted in order."""
    for label, tensor in labelled:
        if row < tensor.size:
            return f"{label}{_at(np.unravel_index(row, tensor.shape))}"
        row -= tensor.size
    return f"element {row}"


def _at(index):
    """`` at [1, 2]`` for an element of a Tensor ('' for a 0-D one)."""
    index = tuple(int(i) for i in index)
    return f" at [{', '.join(map(str, index))}]" if index else ""


def _overwrite(array):
    """Change every value of ``array`` in its own memory."""
    if not array.flags.writeable or array.size == 0:
        return
    if array.dtype == np.bool_:
        np.logical_not(array, out=array)
    elif is_inexact(array.dtype):
        array += 1 + np.abs(array)
    else:
        array += 1


# ------------------------------------------------------------ the gradient contract
def _sum_down(gradient, got, shape):
    """The code that sums ``gradient`` of shape ``got`` down to ``shape`` (it broadcasts)."""
    lead = len(got) - len(shape)
    code = gradient if lead == 0 else \
        f"{gradient}.sum(axis={lead - 1 if lead == 1 else list(range(lead))})"
    kept = [i for i, (s, g) in enumerate(zip(shape, got[lead:])) if s == 1 and g != 1]
    if kept:
        code += f".sum(axis={kept[0] if len(kept) == 1 else kept}, keepdim=True)"
    return code


def _bits(dtype):
    """The precision of a float dtype in bits (0 for any other dtype)."""
    return int(dtype.name[5:]) if dtype.name in ("float16", "float32", "float64") else 0


def _contract_problems(result, arguments, outputs_bits):
    """``[(reason, evidence, fix)]``: how backward's result breaks the gradient contract.
    ``outputs_bits`` is the precision of the coarsest differentiable output."""
    slots, leaves = arguments.slots, arguments.leaves
    names = [slot.name for slot in slots]
    if isinstance(result, list) and not (len(slots) == 1 and slots[0].is_list):
        return [("a list instead of a tuple",
                 f"backward returned a list for {_count(len(slots), 'Tensor input')} "
                 f"({', '.join(names)}); only a tuple is unpacked into one gradient per input",
                 f"return a tuple: return {', '.join('d' + n for n in names)}")]
    values = list(result) if isinstance(result, tuple) else [result]
    example = ", ".join(f"d{n}" if i < len(values) else "None" for i, n in enumerate(names))
    if len(values) > len(slots):
        return [("more gradients than inputs",
                 f"backward returned {len(values)} values, but forward has "
                 f"{_count(len(slots), 'Tensor input')} ({', '.join(names)})",
                 "return one gradient per Tensor input of forward (non-Tensor arguments get "
                 "none)")]
    problems = []
    # An integer or bool input that needs no gradient may go without a value, as Paddle
    # allows; a float one may need a gradient in another call.
    missing = [slot.name for slot in slots[len(values):]
               if any(leaves[i].dtype.is_floating_point or not leaves[i].stop_gradient
                      for i in slot.leaves)]
    if missing:
        problems.append((
            f"no gradient for {missing[0]}",
            f"backward returned {_count(len(values), 'value')} for {len(slots)} Tensor "
            f"inputs, nothing for {', '.join(missing)}: pylayer and Paddle accept that only "
            f"while {'that input has' if len(missing) == 1 else 'those inputs have'} "
            f"stop_gradient=True, PyTorch never",
            f"return None for the inputs without a gradient: return {example}"))
    for slot, value in zip(slots, values):
        if value is None:
            continue
        if all(leaves[i].stop_gradient for i in slot.leaves):
            problems.append((
                f"a gradient for {slot.name}",
                f"backward returned a gradient for {slot.name}, which has "
                f"stop_gradient=True: Paddle and pylayer refuse it",
                f"return None for {slot.name} when it needs no gradient"))
        elif slot.is_list:
            if not isinstance(value, (list, tuple)) or len(value) != len(slot.leaves):
                problems.append((
                    f"{slot.name} needs a list", f"{slot.name} is a list of "
                    f"{len(slot.leaves)} Tensors, but backward returned "
                    f"{_describe_value(value)} for it",
                    f"return a list of {len(slot.leaves)} gradients (or None) for "
                    f"{slot.name}"))
            else:
                problems += [p for i, item in zip(slot.leaves, value) if item is not None
                             for p in _tensor_problems(item, arguments.names[i], leaves[i],
                                                       arguments.given_dtypes[i], outputs_bits)]
        else:
            index = slot.leaves[0]
            problems += _tensor_problems(value, slot.name, leaves[index],
                                         arguments.given_dtypes[index], outputs_bits)
    return problems


def _count(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _tensor_problems(value, name, leaf, given_dtype, outputs_bits):
    if not isinstance(value, Tensor):
        return [(f"not a Tensor for {name}",
                 f"backward returned {_describe_value(value)} for {name}",
                 f"return a Tensor for {name} (pylayer.to_tensor(...)) or None")]
    problems = []
    got, shape = list(value.shape), list(leaf.shape)
    if got != shape:
        reshaped = [d for d in got if d != 1] == [d for d in shape if d != 1]
        # The input broadcasts to the gradient: summing down restores the input's shape.
        summed = len(got) >= len(shape) and \
            all(s in (1, g) for s, g in zip(shape[::-1], got[::-1]))
        if reshaped or summed:
            problems.append((
                f"wrong shape for {name}",
                f"backward returned a gradient of shape {got} for {name} of shape {shape}: "
                f"pylayer {'reshaped' if reshaped else 'summed'} it to {shape}, PyTorch "
                f"{'sums it down' if summed else 'refuses it'}, and Paddle passes it on as "
                f"it is ({name}.grad gets the shape {got})",
                f"return a gradient of {name}'s shape: " + (
                    f"d{name}.reshape({name}.shape)" if reshaped else
                    _sum_down(f"d{name}", got, shape))))
        else:
            problems.append((
                f"wrong shape for {name}",
                f"backward returned a gradient of shape {got} for {name} of shape {shape}",
                f"return a gradient of {name}'s shape"))
    # pylayer, Paddle and PyTorch cast a gradient to its input's dtype; one coarser than
    # both the input as the caller gave it and the outputs lost precision on the way.
    if _bits(value.dtype) < min(_bits(given_dtype), outputs_bits):
        problems.append((
            f"wrong dtype for {name}",
            f"backward returned a {value.dtype.name} gradient for {name} "
            f"({given_dtype.name}), coarser than the input and the outputs: pylayer, Paddle "
            f"and PyTorch cast it back, after the precision was lost",
            f"compute the gradient of {name} in its dtype (give constants dtype={name}.dtype)"))
    return problems
