"""opcheck: each of its ten checks flags a PyLayer that breaks exactly its rule, correct
PyLayers pass every check, and the report reads as a table with evidence and fixes."""
import pathlib
import random
import runpy
import time

import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import OpcheckEntry, OpcheckReport, PyLayer, once_differentiable, opcheck
from pylayer.autograd._opcheck_checks import CHECKS, _sum_down


def leaf(shape=(3, 4), seed=1, dtype="float64"):
    values = np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)
    return paddle.to_tensor(values, stop_gradient=False)


def failed(report):
    return [entry.name for entry in report.failures]


# ------------------------------------------------------------------ correct layers
class Tanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


class MulAdd(PyLayer):
    """Two inputs, a number, a keyword Tensor, two outputs, an index output marked."""

    @staticmethod
    def forward(ctx, x, y, scale, bias=None):
        ctx.save_for_backward(x, y)
        ctx.scale = scale
        index = paddle.argmax(x)
        ctx.mark_non_differentiable(index)
        return x * y * scale, x + bias, index

    @staticmethod
    def backward(ctx, d_product, d_sum, d_index):
        x, y = ctx.saved_tensor()
        return (d_product * y * ctx.scale + d_sum, d_product * x * ctx.scale,
                d_sum.sum(axis=0))


class SumList(PyLayer):
    @staticmethod
    def forward(ctx, items):
        return items[0] * 2 + items[1]

    @staticmethod
    def backward(ctx, dy):
        return [dy * 2, dy]


class MaybeNone(PyLayer):
    """set_materialize_grads(False), handled: a None gradient counts as zeros."""

    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, d2, d3):
        total = paddle.zeros_like(d2 if d2 is not None else d3)
        if d2 is not None:
            total = total + d2 * 2
        if d3 is not None:
            total = total + d3 * 3
        return total


class Passthrough(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, dy):
        return dy


class Gather(PyLayer):
    """An integer input that needs no gradient may go without a value, as in Paddle."""

    @staticmethod
    def forward(ctx, x, index):
        ctx.save_for_backward(index)
        ctx.rows = x.shape[0]
        return paddle.gather(x, index)

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        index, = ctx.saved_tensor()
        dx = np.zeros([ctx.rows] + dy.shape[1:])
        np.add.at(dx, index.numpy(), dy.numpy())
        return paddle.to_tensor(dx)


class NumpyExp(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return paddle.to_tensor(dy.numpy() * y.numpy())


class Dropout(PyLayer):
    @staticmethod
    def forward(ctx, x):
        mask = paddle.cast(paddle.rand(x.shape) > 0.5, x.dtype) * 2
        ctx.save_for_backward(mask)
        return x * mask

    @staticmethod
    def backward(ctx, dy):
        mask, = ctx.saved_tensor()
        return dy * mask


class HalfPrecision(PyLayer):
    """Computes in float32 whatever it gets: checked with float32 tolerances."""

    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(paddle.cast(x, "float32"))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


CORRECT = [
    (Tanh, (leaf(),), None),
    (MulAdd, (leaf(), leaf(seed=2), 0.5), {"bias": leaf((4,), seed=3)}),
    (SumList, ([leaf((2,)), leaf((2,), seed=2)],), None),
    (MaybeNone, (leaf(),), None),
    (Passthrough, (leaf(),), None),
    (Gather, (leaf((4, 3)), paddle.to_tensor([0, 2, 2])), None),
    (NumpyExp, (leaf(),), None),
    (Dropout, (leaf(),), None),
    (HalfPrecision, (leaf(),), None),
]


@pytest.mark.parametrize("layer,args,kwargs", CORRECT, ids=[c[0].__name__ for c in CORRECT])
def test_a_correct_layer_passes_every_check(layer, args, kwargs):
    report = opcheck(layer, args, kwargs)
    assert report.ok, str(report)
    assert [entry.name for entry in report.entries] == list(CHECKS)
    assert {entry.verdict for entry in report.entries} <= {"pass", "note"}
    report.assert_ok()


def test_a_once_differentiable_backward_is_a_note_not_a_failure():
    entry = opcheck(NumpyExp, (leaf(),))["double backward"]
    assert (entry.verdict, entry.reason) == ("note", "backward is once_differentiable")


def test_a_random_op_is_reported_as_random_and_checked_with_the_seed_fixed():
    report = opcheck(Dropout, (leaf(),))
    assert report["determinism"].verdict == "note"
    assert report["determinism"].reason == "random: checked with the seed fixed"
    assert report["gradient"].verdict == report["double backward"].verdict == "pass"


def test_a_layer_computing_in_float32_is_checked_with_float32_tolerances_and_says_so():
    entry = opcheck(HalfPrecision, (leaf(),))["gradient"]
    assert entry.verdict == "pass"
    assert "the output is float32, so central differences used eps=0.001" in entry.evidence


def test_float_inputs_are_checked_as_float64_copies_and_the_report_says_so():
    x32 = leaf(dtype="float32")
    report = opcheck(Tanh, (x32,))
    assert report.inputs == "x: float32[3, 4] as float64"
    assert str(report).splitlines()[:2] == ["opcheck of Tanh: ok",
                                            "inputs: x: float32[3, 4] as float64"]
    assert opcheck(Tanh, (leaf(),)).inputs == "x: float64[3, 4]"


def test_the_callers_inputs_and_random_streams_are_left_as_they_were():
    x = leaf(dtype="float32")
    before = x.numpy().copy()
    paddle.seed(7)
    np.random.seed(7)
    random.seed(7)
    opcheck(Dropout, (x,))
    after = (paddle.rand([3]).numpy(), np.random.rand(3), random.random())
    paddle.seed(7)
    np.random.seed(7)
    random.seed(7)
    assert np.array_equal(after[0], paddle.rand([3]).numpy())
    assert np.array_equal(after[1], np.random.rand(3)) and after[2] == random.random()
    assert np.array_equal(x.numpy(), before) and x.grad is None and not x.stop_gradient
    assert x.dtype == paddle.float32


# ------------------------------------------------------------------ broken layers
class WrongFormula(PyLayer):
    """gradient: tanh' written as 1 - tanh(x) instead of 1 - tanh(x)^2."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return paddle.tanh(x)

    @staticmethod
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        return dy * (1 - paddle.tanh(x))


class SavedApart(PyLayer):
    """double backward: saves a tanh computed apart, so the second derivative misses a term."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(paddle.tanh(x))
        return paddle.tanh(x)

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


class NumpyBackward(PyLayer):
    """double backward: a numpy backward without @once_differentiable."""

    @staticmethod
    def forward(ctx, x):
        y = paddle.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return paddle.to_tensor(dy.numpy() * y.numpy())


class NoneUnhandled(PyLayer):
    """missing output gradients: set_materialize_grads(False), then None * 2."""

    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, d2, d3):
        return d2 * 2 + d3 * 3


class NoneSkips(PyLayer):
    """missing output gradients: a None gradient makes backward give up."""

    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, d2, d3):
        if d2 is None or d3 is None:
            return None
        return d2 * 2 + d3 * 3


class ForgetsNone(PyLayer):
    """gradient contract: two float inputs, one gradient returned."""

    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(scale)
        return x * scale

    @staticmethod
    def backward(ctx, dy):
        scale, = ctx.saved_tensor()
        return dy * scale


class KeepsSizeOneAxis(PyLayer):
    """gradient contract: a [3, 1, 4] gradient for a [3, 4] input."""

    @staticmethod
    def forward(ctx, x):
        return x.sum()

    @staticmethod
    def backward(ctx, dy):
        return paddle.ones([3, 1, 4], dtype="float64") * dy


class AddBias(PyLayer):
    """gradient contract: the bias gets the [3, 4] gradient of the broadcast sum."""

    @staticmethod
    def forward(ctx, bias, x):
        return x + bias

    @staticmethod
    def backward(ctx, dy):
        return dy, dy


class ListNotTuple(PyLayer):
    """gradient contract: a list is one value, not one per input."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        return [dz * y, dz * x]


class ScalesInPlace(PyLayer):
    """inputs left unchanged: forward scales its input in place."""

    @staticmethod
    def forward(ctx, x):
        y = x * 2
        x.scale_(3.0)
        return y

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


class ReturnsItsInput(PyLayer):
    """inputs left unchanged: returns its input without mark_not_inplace."""

    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, dy):
        return dy


class UnmarkedIndex(PyLayer):
    """non-differentiable outputs: an int64 argmax output, not marked."""

    @staticmethod
    def forward(ctx, x):
        return x * 2, paddle.argmax(x)

    @staticmethod
    def backward(ctx, dy, d_index):
        return dy * 2


class StashesInput(PyLayer):
    """saved tensors: ctx.x = x instead of save_for_backward."""

    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x * x

    @staticmethod
    def backward(ctx, dy):
        return 2 * ctx.x * dy


class StashesOutput(PyLayer):
    """saved tensors: ctx.y = y instead of save_for_backward."""

    @staticmethod
    def forward(ctx, x):
        ctx.y = paddle.tanh(x)
        return ctx.y

    @staticmethod
    def backward(ctx, dy):
        return dy * (1 - paddle.square(ctx.y))


class Anneals(PyLayer):
    """backward twice: backward halves a factor kept on ctx."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.factor = 1.0
        return (x * x).sum()

    @staticmethod
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        gradient = 2 * x * dy * ctx.factor
        ctx.factor = ctx.factor / 2
        return gradient


class Ticket(PyLayer):
    """determinism: a marked output drawn from the clock, which no seed repeats."""

    @staticmethod
    def forward(ctx, x):
        ticket = paddle.to_tensor(time.perf_counter_ns())
        ctx.mark_non_differentiable(ticket)
        return x * 2, ticket

    @staticmethod
    def backward(ctx, dy, d_ticket):
        return dy * 2


WEIGHT = paddle.to_tensor(np.linspace(0.5, 1.5, 12).reshape(3, 4), stop_gradient=False)


class RecordsItself(PyLayer):
    """no_grad: forward turns recording back on and multiplies by a weight."""

    @staticmethod
    def forward(ctx, x):
        with paddle.enable_grad():
            return x * WEIGHT

    @staticmethod
    def backward(ctx, dy):
        return dy * WEIGHT


BROKEN = [
    ("gradient", WrongFormula, (leaf(),)),
    ("double backward", SavedApart, (leaf(),)),
    ("double backward", NumpyBackward, (leaf(),)),
    ("missing output gradients", NoneUnhandled, (leaf(),)),
    ("missing output gradients", NoneSkips, (leaf(),)),
    ("gradient contract", ForgetsNone, (leaf(), paddle.to_tensor(np.full([3, 4], 2.0)))),
    ("gradient contract", KeepsSizeOneAxis, (leaf(),)),
    ("gradient contract", AddBias, (leaf((4,)), leaf())),
    ("gradient contract", ListNotTuple, (leaf(), leaf(seed=2))),
    ("inputs left unchanged", ScalesInPlace, (leaf(),)),
    ("inputs left unchanged", ReturnsItsInput, (leaf(),)),
    ("non-differentiable outputs", UnmarkedIndex, (leaf(),)),
    ("saved tensors", StashesInput, (leaf(),)),
    ("saved tensors", StashesOutput, (leaf(),)),
    ("backward twice", Anneals, (leaf(),)),
    ("determinism", Ticket, (leaf(),)),
    ("no_grad", RecordsItself, (leaf(),)),
]


def test_every_check_has_a_layer_that_breaks_it():
    assert sorted({check for check, _, _ in BROKEN}) == sorted(CHECKS)


@pytest.mark.parametrize("check,layer,args", BROKEN, ids=[b[1].__name__ for b in BROKEN])
def test_a_layer_that_breaks_one_rule_is_flagged_by_that_check_alone(check, layer, args):
    report = opcheck(layer, args)
    assert failed(report) == [check], str(report)
    entry = report[check]
    assert entry.evidence and entry.fix, entry
    assert not report.ok
    with pytest.raises(AssertionError) as caught:
        report.assert_ok()
    assert f"{check}: {entry.reason}" in str(caught.value)


def evidence(layer, args, check):
    entry = opcheck(layer, args)[check]
    return entry.reason, entry.evidence, entry.fix


def test_gradient_names_the_output_and_input_elements_and_the_two_values():
    reason, text, fix = evidence(WrongFormula, (leaf((2,)),), "gradient")
    assert reason == "backward differs from central differences"
    assert text.startswith("the derivative of the output at [0] with respect to x at [0] is ")
    assert "by backward but" in text and text.endswith("by central differences")
    assert fix == "correct the gradient that backward returns for x"


def test_double_backward_tells_a_disconnected_backward_from_a_wrong_one():
    reason, text, fix = evidence(NumpyBackward, (leaf(),), "double backward")
    assert reason == "backward is not differentiable"
    assert "not connected to the graph" in text and "@once_differentiable" in fix
    reason, text, _ = evidence(SavedApart, (leaf(),), "double backward")
    assert reason == "wrong second derivative"
    assert "by double backward but" in text


def test_double_backward_is_not_run_when_the_first_derivative_is_wrong():
    entry = opcheck(WrongFormula, (leaf(),))["double backward"]
    assert (entry.verdict, entry.reason) == ("skip", "not run: the gradient is wrong")


def test_missing_output_gradients_says_what_backward_received():
    reason, text, fix = evidence(NoneUnhandled, (leaf(),), "missing output gradients")
    assert reason == "backward raises on an absent gradient"
    assert text.startswith("backward received None for output 0 and raised TypeError")
    assert fix == "treat a None gradient as zeros (if dy is None: ...)"
    reason, text, _ = evidence(NoneSkips, (leaf(),), "missing output gradients")
    assert reason == "an absent gradient differs from zeros"
    assert text == ("with no gradient for output 0, backward received None; compared with "
                    "explicit zeros, the gradient of x is None in one case and a Tensor in the "
                    "other\npylayer warned: GradNodePyLayer_NoneSkips: backward returned None "
                    "although gradients reached it, so no gradient reaches its inputs; if that "
                    "is meant, return (None,) (did backward forget its 'return'?)")
    assert opcheck(MaybeNone, (leaf(),))["missing output gradients"].evidence == \
        "backward received output 0: None, output 1: None"
    assert opcheck(Tanh, (leaf(),))["missing output gradients"].evidence == \
        "backward received the output: zeros"


def test_gradient_contract_explains_a_forgotten_none():
    reason, text, fix = evidence(ForgetsNone, (leaf(), paddle.to_tensor(np.ones([3, 4]))),
                                 "gradient contract")
    assert reason == "no gradient for scale"
    assert text == ("backward returned 1 value for 2 Tensor inputs, nothing for scale: pylayer "
                    "and Paddle accept that only while that input has stop_gradient=True, "
                    "PyTorch never")
    assert fix == "return None for the inputs without a gradient: return dx, None"


def test_gradient_contract_says_what_the_lenient_shape_rule_did_and_what_others_do():
    reason, text, fix = evidence(KeepsSizeOneAxis, (leaf(),), "gradient contract")
    assert reason == "wrong shape for x"
    assert text == ("backward returned a gradient of shape [3, 1, 4] for x of shape [3, 4]: "
                    "pylayer reshaped it to [3, 4], PyTorch refuses it, and Paddle passes it on "
                    "as it is (x.grad gets the shape [3, 1, 4])")
    assert fix == "return a gradient of x's shape: dx.reshape(x.shape)"
    _, text, fix = evidence(AddBias, (leaf((4,)), leaf()), "gradient contract")
    assert text == ("backward returned a gradient of shape [3, 4] for bias of shape [4]: "
                    "pylayer summed it to [4], PyTorch sums it down, and Paddle passes it on "
                    "as it is (bias.grad gets the shape [3, 4])")
    assert fix == "return a gradient of bias's shape: dbias.sum(axis=0)"


def test_a_rejected_gradient_is_the_root_and_the_checks_needing_backward_wait_for_it():
    report = opcheck(ListNotTuple, (leaf(), leaf(seed=2)))
    entry = report["gradient contract"]
    assert entry.reason == "a list instead of a tuple"
    assert "pylayer rejected it: ValueError" in entry.evidence
    assert entry.fix == "return a tuple: return dx, dy"
    for name in ("gradient", "double backward", "missing output gradients", "saved tensors",
                 "backward twice"):
        assert (report[name].verdict, report[name].reason) == ("skip", "not run: backward raises")


class ReturnsSomethingForAConstant(PyLayer):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, dz):
        return dz, dz


class ReturnsAnArray(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy.numpy() * 2


class ReturnsFloat16(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return paddle.cast(dy * 2, "float16")


@pytest.mark.parametrize("layer,args,reason", [
    (ReturnsSomethingForAConstant, (leaf(), paddle.to_tensor(np.ones([3, 4]))),
     "a gradient for y"),
    (ReturnsAnArray, (leaf(),), "not a Tensor for x"),
    (ReturnsFloat16, (leaf(),), "wrong dtype for x"),
])
def test_gradient_contract_flags_what_backward_must_not_return(layer, args, reason):
    report = opcheck(layer, args)
    assert "gradient contract" in failed(report)
    assert report["gradient contract"].reason == reason


def test_a_gradient_in_the_dtype_the_caller_gave_is_not_a_dtype_problem():
    class BackTo32(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return paddle.cast(dy * 2, "float32")

    assert opcheck(BackTo32, (leaf(dtype="float32"),))["gradient contract"].verdict == "pass"


@pytest.mark.parametrize("got,shape,code", [
    ([3, 4], [4], "dw.sum(axis=0)"), ([2, 3, 4], [4], "dw.sum(axis=[0, 1])"),
    ([3, 4], [3, 1], "dw.sum(axis=1, keepdim=True)"),
    ([5, 3, 4], [1, 4], "dw.sum(axis=0).sum(axis=0, keepdim=True)"),
])
def test_the_fix_for_a_broadcast_gradient_is_the_code_that_sums_it_down(got, shape, code):
    assert _sum_down("dw", got, shape) == code
    total = np.ones(got).sum(axis=tuple(range(len(got) - len(shape))))
    assert total.sum(axis=tuple(i for i, s in enumerate(shape) if s == 1),
                     keepdims=True).shape == tuple(shape)


def test_inputs_left_unchanged_points_to_mark_not_inplace():
    reason, text, fix = evidence(ReturnsItsInput, (leaf(),), "inputs left unchanged")
    assert reason == "forward returns x unmarked"
    assert "without ctx.mark_not_inplace(x)" in text
    assert fix == "call ctx.mark_not_inplace(x) in forward"
    reason, _, _ = evidence(ScalesInPlace, (leaf(),), "inputs left unchanged")
    assert reason == "forward changes x in place"


def test_non_differentiable_outputs_names_the_integer_output():
    reason, text, fix = evidence(UnmarkedIndex, (leaf(),), "non-differentiable outputs")
    assert (reason, text) == ("output 1 is not marked", "output 1 (int64) cannot have a "
                              "gradient, but is not marked non-differentiable")
    assert "ctx.mark_non_differentiable" in fix
    assert opcheck(MulAdd, (leaf(), leaf(seed=2), 0.5), {"bias": leaf((4,))})[
        "non-differentiable outputs"].reason == "integer and bool outputs are marked"


def test_saved_tensors_points_to_save_for_backward():
    reason, text, fix = evidence(StashesInput, (leaf(),), "saved tensors")
    assert reason == "backward uses tensors it did not save"
    assert "a ctx attribute?" in text and "save_on_disk" in text
    assert fix.startswith("keep every tensor backward needs with ctx.save_for_backward")


def test_no_grad_names_what_was_recorded():
    reason, text, fix = evidence(RecordsItself, (leaf(),), "no_grad")
    assert reason == "the call records a graph under no_grad"
    assert text.startswith("under no_grad, the output came out with a graph")
    assert "enable_grad" in fix


def test_determinism_failure_says_the_seed_was_fixed():
    reason, text, fix = evidence(Ticket, (leaf(),), "determinism")
    assert reason == "outputs differ even with the seed fixed"
    assert "(output 1 differs)" in text and "pylayer.seed" in fix


# ------------------------------------------------------------------ the report
def test_the_report_prints_a_table_then_the_evidence_of_failures_and_notes():
    text = str(opcheck(Dropout, (leaf(),)))
    lines = text.splitlines()
    assert lines[:2] == ["opcheck of Dropout: ok", "inputs: x: float64[3, 4]"]
    assert lines[2].split() == ["check", "verdict", "reason"]
    assert [line.split("  ")[0] for line in lines[3:13]] == list(CHECKS)
    assert lines[13] == "determinism: random: checked with the seed fixed"
    assert lines[14].startswith("  two forwards differ (the output differs by up to")
    assert all(len(line) <= 79 for line in lines), text
    assert lines[15].startswith("    ") and len(lines) == 17


def test_the_inputs_line_wraps_between_inputs_not_inside_a_shape():
    report = OpcheckReport(Tanh, ", ".join(f"x{i}: float32[3, 4] as float64" for i in range(3)),
                           [])
    assert str(report).splitlines()[1:] == [
        "inputs: x0: float32[3, 4] as float64, x1: float32[3, 4] as float64,",
        "  x2: float32[3, 4] as float64", "check  verdict  reason"]


def test_the_report_title_counts_failures_and_repr_is_short():
    report = opcheck(ForgetsNone, (leaf(), paddle.to_tensor(np.ones([3, 4]))))
    assert str(report).splitlines()[:2] == ["opcheck of ForgetsNone: 1 check failed",
                                            "inputs: x: float64[3, 4], scale: float64[3, 4]"]
    assert repr(report) == "<OpcheckReport of ForgetsNone: 10 checks, 1 failed>"


def test_assert_ok_lists_every_failure_in_one_assertion_error():
    report = OpcheckReport(Tanh, "x: float64[2]", [
        OpcheckEntry("gradient", "fail", "wrong", "backward gives 1", "fix it"),
        OpcheckEntry("no_grad", "fail", "records", "it records"),
        OpcheckEntry("determinism", "note", "random")])
    with pytest.raises(AssertionError) as caught:
        report.assert_ok()
    assert str(caught.value) == ("opcheck of Tanh: 2 checks failed\ninputs: x: float64[2]\n"
                                 "gradient: wrong\n  backward gives 1\n  to change: fix it\n"
                                 "no_grad: records\n  it records")
    assert [entry.name for entry in report.failures] == ["gradient", "no_grad"]


def test_an_unknown_check_name_is_a_key_error_listing_the_checks():
    with pytest.raises(KeyError, match="OpcheckReport has no check 'speed'; the checks are "
                                       "gradient, double backward"):
        opcheck(Tanh, (leaf(),))["speed"]


# ------------------------------------------------------------------ bad arguments
class NotALayer:
    pass


@pytest.mark.parametrize("call,error,message", [
    (lambda: opcheck(NotALayer, (leaf(),)), TypeError,
     "opcheck(): argument 'layer' (position 1) must be a subclass of pylayer.autograd.PyLayer, "
     "got NotALayer"),
    (lambda: opcheck(Tanh.apply, (leaf(),)), TypeError, "got method"),
    (lambda: opcheck(PyLayer, (leaf(),)), TypeError, "got PyLayer"),
    (lambda: opcheck(Tanh, {"x": 1}), TypeError,
     "opcheck(): argument 'args' (position 2) must be a tuple of the arguments of Tanh.apply, "
     "got dict"),
    (lambda: opcheck(Tanh, (leaf(),), [1]), TypeError,
     "opcheck(): argument 'kwargs' (position 3) must be a dict or None, got list"),
    (lambda: opcheck(Tanh, (paddle.ones([2]),)), ValueError,
     "opcheck(): no float Tensor in argument 'args' or 'kwargs' has stop_gradient=False, so no "
     "gradient of Tanh can be checked"),
    (lambda: opcheck(Tanh, (leaf(),), eps=0), ValueError,
     "opcheck(): argument 'eps' must be a positive number, got 0"),
    (lambda: opcheck(Tanh, (leaf(),), atol=-1.0), ValueError,
     "opcheck(): argument 'atol' must be a non-negative number, got -1.0"),
    (lambda: opcheck(Tanh, (leaf(),), rtol="0.1"), TypeError,
     "opcheck(): argument 'rtol' must be a non-negative number, got str"),
    (lambda: OpcheckReport("Tanh", "", []), TypeError,
     "OpcheckReport(): argument 'layer' (position 1) must be a PyLayer subclass, got str"),
    (lambda: OpcheckReport(Tanh, None, []), TypeError,
     "OpcheckReport(): argument 'inputs' (position 2) must be a str, got NoneType"),
    (lambda: OpcheckReport(Tanh, "", [("gradient", "pass", "ok")]), TypeError,
     "OpcheckReport(): argument 'entries' (position 3) must be a list of OpcheckEntry, got list"),
    (lambda: OpcheckEntry("gradient", "pass", 3), TypeError,
     "OpcheckEntry(): argument 'reason' must be a str, got int"),
    (lambda: OpcheckEntry("speed", "pass", "fast"), ValueError,
     "OpcheckEntry(): argument 'name' must be one of 'gradient', 'double backward'"),
    (lambda: OpcheckEntry("gradient", "maybe", "unsure"), ValueError,
     "OpcheckEntry(): argument 'verdict' must be one of 'pass', 'note', 'skip', 'fail', got "
     "'maybe'"),
])
def test_bad_arguments_get_a_clear_error(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert message in str(caught.value)


def test_a_single_tensor_is_taken_as_the_only_argument():
    assert opcheck(Tanh, leaf()).ok


def test_opcheck_refuses_static_mode():
    paddle.enable_static()
    try:
        with pytest.raises(RuntimeError, match=r"opcheck\(\) runs in dynamic mode; call "
                                               r"pylayer.disable_static\(\) first"):
            opcheck(Tanh, (leaf(),))
    finally:
        paddle.disable_static()


def test_a_forward_that_raises_on_the_inputs_raises_with_a_note():
    class Fails(PyLayer):
        @staticmethod
        def forward(ctx, x):
            raise ArithmeticError("no")

        @staticmethod
        def backward(ctx, dy):
            return dy

    with pytest.raises(ArithmeticError, match="no") as caught:
        opcheck(Fails, (leaf(dtype="float32"),))
    assert caught.value.__notes__ == [
        "opcheck: Fails.apply raised on the example inputs (x: float32[3, 4] as float64), so "
        "nothing could be checked"]


def test_a_layer_without_differentiable_outputs_skips_the_backward_checks():
    class Index(PyLayer):
        @staticmethod
        def forward(ctx, x):
            index = paddle.argmax(x)
            ctx.mark_non_differentiable(index)
            return index

        @staticmethod
        def backward(ctx, d_index):
            return None

    report = opcheck(Index, (leaf(),))
    assert report.ok and report["gradient"].verdict == "skip"
    assert report["gradient"].reason == "not run: no differentiable output"


def test_the_speed_benchmark_runs_at_a_tiny_size(capsys):
    """benchmarks/opcheck_speed.py measures opcheck on [16, 16]; here it only has to run."""
    script = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "opcheck_speed.py"
    runpy.run_path(str(script), run_name="opcheck_speed")["main"](["--size", "2", "--repeat",
                                                                   "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "opcheck of a tanh PyLayer over a float32 [2, 2] input, 1 runs"
    assert [line.split("median")[0].strip() for line in lines[1:]] == [
        "opcheck (ten checks)", "gradcheck alone", "gradgradcheck alone"]
