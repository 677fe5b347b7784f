"""PyLayer.apply and the backward of its node (paddle-behavior.md sections 2 and 3)."""
import gc
import weakref

import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import Function, PyLayer, PyLayerContext


def leaf(values, dtype="float64"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


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


class Scale(PyLayer):
    """y = x * 2 with an honest backward: the workhorse of the slot tests."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


# ------------------------------------------------------------- namespace
def test_names_are_exported_where_paddle_and_pytorch_users_look():
    import pylayer.autograd.py_layer as module
    assert paddle.autograd.PyLayer is module.PyLayer is PyLayer
    assert paddle.autograd.PyLayerContext is module.PyLayerContext
    assert Function is PyLayer
    for name in ("PyLayer", "PyLayerContext", "Function", "once_differentiable",
                 "saved_tensors_hooks", "detect_anomaly"):
        assert name in paddle.autograd.__all__
    for name in ("backward", "grad", "gradcheck", "gradgradcheck", "no_grad"):
        assert name in paddle.autograd.__all__


# ------------------------------------------------------------------ the context
def test_each_apply_gets_a_fresh_context_of_a_class_derived_for_the_layer():
    seen = []

    class Keep(PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen.append(ctx)
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = leaf([1.0])
    Keep.apply(x)
    Keep.apply(x)
    Scale.apply(x)
    assert seen[0] is not seen[1]
    assert type(seen[0]) is type(seen[1])
    assert isinstance(seen[0], PyLayerContext) and type(seen[0]) is not PyLayerContext
    assert type(seen[0]) is not Scale._context_class
    assert type(seen[0])._forward_cls is Keep


def test_context_attributes_survive_to_backward():
    class Power(PyLayer):
        @staticmethod
        def forward(ctx, x, n):
            ctx.n = n
            ctx.note = {"made": "in forward"}
            ctx.save_for_backward(x)
            return x ** n

        @staticmethod
        def backward(ctx, dy):
            assert ctx.note == {"made": "in forward"}
            x, = ctx.saved_tensor()
            return dy * ctx.n * x ** (ctx.n - 1)

    x = leaf([2.0, 3.0])
    Power.apply(x, 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [12.0, 27.0])


def test_apply_works_on_an_instance():
    x = leaf([1.0, 2.0])
    Scale().apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


# ------------------------------------------------------------------ input slots
class Probe(PyLayer):
    """Records what forward saw; backward returns a gradient per slot from ctx.answer."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        ctx.answer = kwargs.pop("answer")
        Probe.seen = (args, kwargs, ctx.needs_input_grad)
        for value in (*args, *kwargs.values()):
            for item in (value if isinstance(value, (list, tuple)) else [value]):
                if isinstance(item, paddle.Tensor):
                    return item * 1

    @staticmethod
    def backward(ctx, dy):
        return ctx.answer(dy)


def test_keyword_tensors_are_slots_in_the_order_the_caller_passed_them():
    class AB(PyLayer):
        @staticmethod
        def forward(ctx, x, a=None, b=None):
            return x + a * 2 + b * 3

        @staticmethod
        def backward(ctx, dy):
            return dy * 10, dy * 20, dy * 30   # x, then b (passed first), then a

    x, a, b = leaf([1.0]), leaf([1.0]), leaf([1.0])
    AB.apply(x, b=b, a=a).backward()
    assert (x.grad.item(), b.grad.item(), a.grad.item()) == (10.0, 20.0, 30.0)


def test_non_tensor_arguments_are_passed_through_and_have_no_slot():
    x, y = leaf([1.0]), leaf([2.0])
    func = paddle.tanh
    out = Probe.apply(x, 3, "text", None, func, [1, 2], y=y, flag=True,
                      answer=lambda dy: (dy * 5, dy * 7))
    args, kwargs, needs = Probe.seen
    assert args[1:] == (3, "text", None, func, [1, 2]) and args[0] is x
    assert kwargs == {"y": y, "flag": True}
    assert needs == (True, True)          # only x and y are slots
    out.backward()
    assert (x.grad.item(), y.grad.item()) == (5.0, 7.0)


def test_a_list_or_tuple_holding_tensors_is_one_slot_whose_gradient_is_a_list():
    class SumList(PyLayer):
        @staticmethod
        def forward(ctx, x, items, scale):
            ctx.scale = scale
            return x + items[0] * scale + items[2] * scale

        @staticmethod
        def backward(ctx, dy):
            return dy, [dy * ctx.scale, dy * ctx.scale * 10]

    x, a, b = leaf([1.0]), leaf([1.0]), leaf([1.0])
    SumList.apply(x, [a, "skip me", b], 2.0).backward()
    assert (x.grad.item(), a.grad.item(), b.grad.item()) == (1.0, 2.0, 20.0)

    x, a, b = leaf([1.0]), leaf([1.0]), leaf([1.0])
    SumList.apply(x, (a, 0, b), 3.0).backward()
    assert (a.grad.item(), b.grad.item()) == (3.0, 30.0)


def test_list_slot_gradient_may_hold_none_and_items_that_need_no_gradient_are_skipped():
    x, a = leaf([1.0]), leaf([1.0])
    frozen = paddle.ones([1])
    out = Probe.apply([a, frozen], x, answer=lambda dy: ([None, None], dy))
    assert Probe.seen[2] == (True, True)
    out.backward()
    assert a.grad is None and frozen.grad is None and x.grad.item() == 1.0


def test_list_slot_gradient_must_be_a_list_of_the_right_length():
    a, b = leaf([1.0]), leaf([1.0])
    with pytest.raises(ValueError, match=r"GradNodePyLayer_Probe.*list of 2 Tensors.*position 0"):
        Probe.apply([a, b], answer=lambda dy: dy).backward()
    with pytest.raises(ValueError, match=r"list of 2 gradients.*list of length 1"):
        Probe.apply([a, b], answer=lambda dy: ([dy],)).backward()


def test_one_tensor_in_several_slots_gets_the_sum_of_its_gradients():
    x = leaf([1.0, 1.0])
    Probe.apply(x, x, [x], answer=lambda dy: (dy * 1, dy * 2, [dy * 4])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [7.0, 7.0])


# ------------------------------------------------------------------ forward
def test_forward_runs_with_recording_off_and_its_errors_propagate_unchanged():
    class Inside(PyLayer):
        @staticmethod
        def forward(ctx, x):
            Inside.recording = paddle.is_grad_enabled()
            Inside.made = x * 3
            return Inside.made

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = leaf([1.0])
    y = Inside.apply(x)
    assert Inside.recording is False
    assert Inside.made is y and y.grad_fn.name() == "GradNodePyLayer_Inside"

    class Broken(PyLayer):
        @staticmethod
        def forward(ctx, x):
            raise KeyError("no such key")

        @staticmethod
        def backward(ctx, dy):
            return dy

    with pytest.raises(KeyError) as info:
        Broken.apply(x)
    assert info.value.args == ("no such key",)
    assert paddle.is_grad_enabled()


def test_outputs_keep_the_container_forward_returned_and_non_tensors_pass_through():
    class Many(PyLayer):
        @staticmethod
        def forward(ctx, x, kind):
            a, b = x * 2, x * 3
            if kind == "tuple":
                return a, 5, None, "helloworld", b
            if kind == "list":
                Many.returned = [a, 5, b]
                return Many.returned
            return a

        @staticmethod
        def backward(ctx, da, db=None):
            return da * 2 + (db * 3 if db is not None else 0)

    x = leaf([1.0])
    out = Many.apply(x, "tuple")
    assert isinstance(out, tuple) and out[1:4] == (5, None, "helloworld")
    (out[0] + out[4]).backward()
    assert x.grad.item() == 5.0

    out = Many.apply(x, "list")
    assert out is Many.returned and out[1] == 5
    assert not out[0].stop_gradient and not out[2].stop_gradient

    single = Many.apply(x, "single")
    assert isinstance(single, paddle.Tensor) and not single.stop_gradient


def test_a_forward_without_tensor_output_is_a_value_error():
    class NoTensor(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x.shape, 3

        @staticmethod
        def backward(ctx, dy):
            return dy

    with pytest.raises(ValueError, match="at least one output of PyLayer.forward must be a Tensor"):
        NoTensor.apply(leaf([1.0]))


def test_a_list_output_slot_gets_a_list_of_gradients():
    class Split(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1, [x * 2, "label", x * 3]

        @staticmethod
        def backward(ctx, d0, parts):
            Split.parts = parts
            return d0 + parts[0] * 2 + parts[1] * 3

    x = leaf([1.0])
    first, (second, label, third) = Split.apply(x)
    assert label == "label"
    (first + second * 10).backward()
    assert isinstance(Split.parts, list) and len(Split.parts) == 2
    assert Split.parts[0].item() == 10.0 and Split.parts[1].item() == 0.0
    assert x.grad.item() == 21.0


def test_no_node_when_no_input_needs_a_gradient_or_recording_is_off():
    calls = []

    class Count(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, dz):
            calls.append(1)
            return dz, dz

    frozen = paddle.ones([2])
    out = Count.apply(frozen, paddle.ones([2]))
    assert out.stop_gradient and out.grad_fn is None
    out.sum().backward()
    with paddle.no_grad():
        out = Count.apply(leaf([1.0, 1.0]), frozen)
    assert out.stop_gradient and out.grad_fn is None
    assert calls == []

    out = Count.apply(leaf([1.0, 1.0]), frozen.detach())  # one input needs a gradient
    assert not out.stop_gradient and out.grad_fn.name() == "GradNodePyLayer_Count"


def test_the_node_links_to_the_inputs_that_need_gradients():
    x = leaf([1.0])
    upstream = paddle.tanh(x)
    y = Probe.apply(upstream, paddle.ones([1]), answer=lambda dy: (dy, None))
    (first, _), (second, _) = y.grad_fn.next_functions
    assert first is upstream.grad_fn and second is None


# ------------------------------------------------------------------ in-place outputs
class AddOneInPlace(PyLayer):
    @staticmethod
    def forward(ctx, x):
        x.add_(paddle.ones_like(x))
        return x

    @staticmethod
    def backward(ctx, dy):
        return dy * 5


def test_an_input_returned_in_place_has_its_version_bumped_and_its_history_moved():
    x = leaf([1.0, 2.0])
    y = paddle.tanh(x) * 1
    before = y.inplace_version
    out = AddOneInPlace.apply(y)
    assert out is y
    assert y.inplace_version > before + 1   # the add_ inside forward, then apply's bump
    assert y.grad_fn.name() == "GradNodePyLayer_AddOneInPlace"
    np.testing.assert_allclose(y.numpy(), np.tanh([1.0, 2.0]) + 1)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 5 * (1 - np.tanh([1.0, 2.0]) ** 2))


def test_no_version_bump_when_no_node_is_built():
    class Same(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = paddle.ones([2])
    assert Same.apply(x) is x and x.inplace_version == 0


def test_a_leaf_that_needs_a_gradient_cannot_be_returned_in_place():
    x = leaf([1.0])
    with pytest.raises(ValueError, match=r"AddOneInPlace.*leaf tensor.*stop_gradient=False"):
        AddOneInPlace.apply(x)
    assert x.is_leaf and x.grad_fn is None


def test_mark_not_inplace_gives_a_new_connected_tensor_and_keeps_the_input_as_it_was():
    class Pass(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy * 3

    x = leaf([1.0, 2.0])
    y = Pass.apply(x)
    assert y is not x and x.is_leaf and x.inplace_version == 0
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    assert y.grad_fn.name() == "GradNodePyLayer_Pass"
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])

    upstream = paddle.exp(leaf([0.0]))
    node_before = upstream.grad_fn
    z = Pass.apply(upstream)
    assert upstream.grad_fn is node_before and z.grad_fn is not node_before


def test_the_same_output_twice_gives_two_connected_tensors():
    class Twice(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            return y, y

        @staticmethod
        def backward(ctx, d1, d2):
            return d1 * 2 + d2 * 20

    x = leaf([1.0])
    a, b = Twice.apply(x)
    assert a is not b and a.grad_fn is b.grad_fn
    (a + b).backward()
    assert x.grad.item() == 22.0


# ------------------------------------------------------------------ mark_non_differentiable
def test_non_differentiable_outputs_stop_gradient_but_keep_their_slot():
    received = []

    class ArgMax(PyLayer):
        @staticmethod
        def forward(ctx, x):
            index = paddle.to_tensor(np.argmax(x.numpy(), axis=-1))
            ctx.mark_non_differentiable(index)
            return x * 1, index

        @staticmethod
        def backward(ctx, dy, dindex):
            received.append(dindex)
            return dy

    x = leaf([[1.0, 3.0, 2.0]])
    y, index = ArgMax.apply(x)
    assert index.stop_gradient and not y.stop_gradient and index.grad_fn is None
    y.sum().backward()
    np.testing.assert_array_equal(received[0].numpy(), [0])
    assert received[0].dtype == "int64" and received[0].shape == [1]


def test_backward_from_the_only_output_when_it_is_non_differentiable_does_nothing():
    calls = []

    class Frozen(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.mark_non_differentiable(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            calls.append(dy)
            return dy

    x = leaf([1.0])
    Frozen.apply(x).sum().backward()
    assert calls == [] and x.grad is None


# ------------------------------------------------------------------ incoming gradients
class TwoOut(PyLayer):
    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        return x * 2, paddle.cast(x, "float32") * 3

    @staticmethod
    def backward(ctx, d1, d2):
        TwoOut.received = (d1, d2)
        return d1 * 2


def test_outputs_without_gradient_receive_zeros_shaped_and_typed_like_them():
    x = leaf([[1.0, 2.0]])
    TwoOut.apply(x, True)[0].sum().backward()
    d1, d2 = TwoOut.received
    assert d2.shape == [1, 2] and d2.dtype == "float32"
    np.testing.assert_array_equal(d2.numpy(), [[0.0, 0.0]])
    np.testing.assert_array_equal(x.grad.numpy(), [[2.0, 2.0]])


def test_without_materialization_missing_gradients_are_none():
    x = leaf([[1.0, 2.0]])
    TwoOut.apply(x, False)[0].sum().backward()
    assert TwoOut.received[1] is None


def test_incoming_gradients_are_cast_to_the_output_dtype_unless_disabled():
    class Keep32(PyLayer):
        @staticmethod
        def forward(ctx, x, consistent):
            ctx.set_grad_in_dtype_consistent(consistent)
            return paddle.cast(x, "float32")

        @staticmethod
        def backward(ctx, dy):
            Keep32.dtype = dy.dtype
            return paddle.cast(dy, "float64")

    x = leaf([1.0])
    Keep32.apply(x, True).backward(paddle.ones([1], dtype="float64"))
    assert Keep32.dtype == "float32"
    Keep32.apply(x, False).backward(paddle.ones([1], dtype="float64"))
    assert Keep32.dtype == "float64"


def test_backward_runs_with_recording_off_unless_create_graph():
    class Mode(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, dy):
            Mode.recording = paddle.is_grad_enabled()
            x, = ctx.saved_tensor()
            return 2 * x * dy

    x = leaf([3.0])
    Mode.apply(x).backward()
    assert Mode.recording is False
    (g,) = paddle.grad(Mode.apply(x), x, create_graph=True)
    assert Mode.recording is True and not g.stop_gradient


# ------------------------------------------------------------------ backward's return value
class Pair(PyLayer):
    """Two tensor inputs; backward returns whatever Pair.reply(dy) gives."""

    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, dz):
        return Pair.reply(dz)


def run_pair(reply, y_needs_grad=True):
    Pair.reply = staticmethod(reply)
    x = leaf([1.0, 2.0])
    y = leaf([3.0, 4.0]) if y_needs_grad else paddle.to_tensor([3.0, 4.0], dtype="float64")
    Pair.apply(x, y).sum().backward()
    return x, y


def test_more_gradients_than_inputs_is_a_value_error():
    with pytest.raises(ValueError, match=r"GradNodePyLayer_Pair.*should be 2, but received 3"):
        run_pair(lambda dz: (dz, dz, dz))


def test_a_gradient_for_an_input_with_stop_gradient_is_a_value_error_naming_the_position():
    with pytest.raises(ValueError,
                       match=r"GradNodePyLayer_Pair.*None at position 1.*stop_gradient=True"):
        run_pair(lambda dz: (dz, dz), y_needs_grad=False)


def test_a_missing_gradient_is_fine_only_for_inputs_that_need_none():
    x, _ = run_pair(lambda dz: dz, y_needs_grad=False)
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])
    with pytest.raises(ValueError, match=r"GradNodePyLayer_Pair.*no gradient at position 1"):
        run_pair(lambda dz: dz)
    with pytest.raises(ValueError, match=r"no gradient at position 1"), \
            pytest.warns(UserWarning, match=r"GradNodePyLayer_Pair: backward returned None"):
        run_pair(lambda dz: None)


def test_none_means_no_gradient_and_leaves_grad_untouched():
    x, y = run_pair(lambda dz: (None, dz * 4))
    assert x.grad is None
    np.testing.assert_array_equal(y.grad.numpy(), [4.0, 4.0])


def test_only_a_tuple_is_unpacked_and_other_values_are_value_errors():
    with pytest.raises(ValueError,
                       match=r"GradNodePyLayer_Pair: backward returned a list.*return a tuple"):
        run_pair(lambda dz: [dz, dz])
    with pytest.raises(ValueError, match=r"Tensor or None at position 1.*int"):
        run_pair(lambda dz: (dz, 3))
    with pytest.raises(ValueError, match=r"Tensor or None at position 0.*str"):
        run_pair(lambda dz: ("grad", dz))
    with pytest.raises(ValueError, match=r"Tensor or None at position 0.*ndarray"):
        run_pair(lambda dz: (dz.numpy(), dz))


def test_a_gradient_of_the_wrong_shape_is_a_value_error():
    with pytest.raises(ValueError, match=r"GradNodePyLayer_Pair.*shape \[1\] at position 1.*\[2\]"):
        run_pair(lambda dz: (dz, paddle.ones([1], dtype="float64")))


def test_a_tuple_with_one_tensor_per_input_is_used():
    x, y = run_pair(lambda dz: (dz * 2, dz * 3))
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(y.grad.numpy(), [3.0, 3.0])


# ------------------------------------------------------------------ errors in backward
class CustomError(Exception):
    pass


def test_an_error_in_backward_keeps_its_type_and_message_and_names_the_layer():
    def boom(dz):
        raise CustomError("the user's message")

    with pytest.raises(CustomError, match=r"GradNodePyLayer_Pair.*the user's message") as info:
        run_pair(boom)
    assert len(info.value.args) == 1


def test_a_failed_assertion_in_backward_names_the_layer():
    def check(dz):
        assert dz is None

    with pytest.raises(AssertionError, match="in backward of GradNodePyLayer_Pair"):
        run_pair(check)


def test_an_error_with_structured_arguments_is_chained_to_a_runtime_error():
    def boom(dz):
        raise CustomError("disk", 42)

    with pytest.raises(RuntimeError, match=r"GradNodePyLayer_Pair.*CustomError.*disk") as info:
        run_pair(boom)
    assert isinstance(info.value.__cause__, CustomError)
    assert info.value.__cause__.args == ("disk", 42)


def test_missing_forward_or_backward_is_not_implemented():
    class NoForward(PyLayer):
        @staticmethod
        def backward(ctx, dy):
            return dy

    class NoBackward(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with pytest.raises(NotImplementedError, match="NoForward"):
        NoForward.apply(leaf([1.0]))
    with pytest.raises(NotImplementedError, match="PyLayer"):
        PyLayer.apply(leaf([1.0]))
    y = NoBackward.apply(leaf([1.0]))      # fine until backward reaches it
    with pytest.raises(NotImplementedError, match="NoBackward.*backward"):
        y.backward()


# ------------------------------------------------------------------ graph reuse and higher order
def test_retain_graph_lets_backward_run_twice_through_a_pylayer():
    x = leaf([0.5, -1.0])
    y = Tanh.apply(x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (1 - np.tanh([0.5, -1.0]) ** 2))
    with pytest.raises(RuntimeError, match="retain_graph"):
        y.backward()


def test_double_backward_through_a_pylayer():
    data = np.array([0.5, -1.0, 2.0])
    x = leaf(data)
    (g,) = paddle.grad(Tanh.apply(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), 1 - np.tanh(data) ** 2)
    (gg,) = paddle.grad(g.sum(), x)
    y = np.tanh(data)
    np.testing.assert_allclose(gg.numpy(), -2 * y * (1 - y ** 2))


def test_gradcheck_and_gradgradcheck_pass_on_apply():
    x = leaf([[0.3, -0.7], [1.2, 0.05]])
    assert paddle.autograd.gradcheck(Tanh.apply, x)
    assert paddle.autograd.gradgradcheck(Tanh.apply, x)


def test_gradcheck_reports_the_input_and_element_of_a_wrong_backward():
    class Wrong(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, dz):
            x, y = ctx.saved_tensor()
            gy = dz * x
            gy.numpy()[1] += 1.0             # wrong in element 1 of input 1 only
            return dz * y, gy

    x, y = leaf([1.0, 2.0, 3.0]), leaf([4.0, 5.0, 6.0])
    with pytest.raises(paddle.autograd.GradcheckError,
                       match=r"with respect to input 1 \(element 1\b"):
        paddle.autograd.gradcheck(Wrong.apply, (x, y))


# ------------------------------------------------------------------ freeing the graph
def test_context_and_saved_tensors_are_freed_after_backward_without_cycles():
    contexts = []

    class Watch(PyLayer):
        @staticmethod
        def forward(ctx, x):
            contexts.append(weakref.ref(ctx))
            y = paddle.tanh(x)
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, dy):
            x, y = ctx.saved_tensor()
            return dy * (1 - y * y)

    gc.collect()
    gc.disable()
    try:
        x = leaf(np.ones(4))
        y = Watch.apply(x)
        assert contexts[0]() is not None
        y.sum().backward()
        assert contexts[0]() is None            # released by backward, freed by refcount
        out = Watch.apply(x)
        node = weakref.ref(out.grad_fn)
        del out
        assert contexts[1]() is None and node() is None   # no cycle ctx <-> node <-> output
    finally:
        gc.enable()


def test_the_context_does_not_keep_marked_tensors_alive():
    class Marks(PyLayer):
        @staticmethod
        def forward(ctx, x):
            index = paddle.zeros([1])
            ctx.mark_non_differentiable(index)
            ctx.mark_not_inplace(x)
            return x * 2, index

        @staticmethod
        def backward(ctx, dy, dindex):
            return dy * 2

    x = leaf([1.0])
    y, index = Marks.apply(x)
    gone = weakref.ref(index)
    del index
    assert gone() is None and y.grad_fn is not None


def test_a_pylayer_records_into_a_static_program_and_its_backward_is_used():
    calls = []

    class CountedTanh(Tanh):
        @staticmethod
        def backward(ctx, dy):
            calls.append(1)
            return Tanh.backward(ctx, dy)

    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [-1, 2], "float64")
            x.stop_gradient = False
            y = CountedTanh.apply(x)
            (gx,) = paddle.static.gradients([paddle.sum(y)], [x])
        data = np.array([[0.5, -1.0]])
        out, grad = paddle.static.Executor(paddle.static.CPUPlace()).run(
            main, feed={"x": data}, fetch_list=[y, gx])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, np.tanh(data))
    np.testing.assert_allclose(grad, 1 - np.tanh(data) ** 2)
    assert calls
