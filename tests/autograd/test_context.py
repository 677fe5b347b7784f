"""PyLayerContext: saved tensors, needs_input_grad, saved_tensors (paddle-behavior.md §4)."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import PyLayer


def leaf(values):
    return paddle.to_tensor(np.asarray(values, dtype="float64"), stop_gradient=False)


class Saver(PyLayer):
    """forward saves what Saver.save(x, y) returns; backward records saved_tensor()."""

    @staticmethod
    def forward(ctx, x):
        y = x * 2
        to_save = Saver.save(x, y)
        if to_save is not None:
            ctx.save_for_backward(*to_save)
        return y

    @staticmethod
    def backward(ctx, dy):
        Saver.got = ctx.saved_tensor()
        Saver.got_property = ctx.saved_tensors
        return dy * 2


def run_saver(save):
    Saver.save = staticmethod(save)
    x = leaf([1.0, 2.0])
    Saver.apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
    return x


def test_saved_tensor_is_none_and_saved_tensors_empty_when_nothing_was_saved():
    run_saver(lambda x, y: None)
    assert Saver.got is None and Saver.got_property == ()


def test_saved_tensor_gives_the_saved_input_objects_back():
    other = paddle.ones([3])
    x = run_saver(lambda x, y: (x, other))
    assert Saver.got[0] is x and Saver.got[1] is other
    assert isinstance(Saver.got, tuple)
    assert Saver.got_property[0] is x


def test_a_saved_output_comes_back_with_its_data_and_its_place_in_the_graph():
    run_saver(lambda x, y: (y,))
    (y,) = Saver.got
    np.testing.assert_array_equal(y.numpy(), [2.0, 4.0])
    assert y.grad_fn.name() == "GradNodePyLayer_Saver" and not y.stop_gradient


def test_the_last_save_for_backward_call_wins():
    class Twice(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, x)
            ctx.save_for_backward(x * 5)
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            (five_x,) = ctx.saved_tensor()
            return dy * five_x

    x = leaf([1.0, 2.0])
    Twice.apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [5.0, 10.0])


def test_none_lists_and_non_tensors_can_be_saved():
    a, b = paddle.ones([1]), paddle.zeros([1])
    run_saver(lambda x, y: (None, [a, b], (a,), 3, "name"))
    assert Saver.got[0] is None
    assert isinstance(Saver.got[1], list) and Saver.got[1][0] is a and Saver.got[1][1] is b
    assert Saver.got[2] == (a,) and isinstance(Saver.got[2], tuple)
    assert Saver.got[3:] == (3, "name")


def test_saved_tensor_can_be_called_in_forward_and_several_times_in_backward():
    class Again(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            assert ctx.saved_tensor()[0] is x
            return x * 3

        @staticmethod
        def backward(ctx, dy):
            first, second = ctx.saved_tensor(), ctx.saved_tensor()
            assert first[0] is second[0]
            return dy * 3

    x = leaf([1.0])
    Again.apply(x).backward()
    assert x.grad.item() == 3.0


def test_changing_a_saved_input_in_place_before_backward_names_the_layer():
    x = leaf([1.0, 2.0])
    Saver.save = staticmethod(lambda x, y: (x, y))
    a = x * 1
    out = Saver.apply(a)
    a.add_(paddle.ones([2], dtype="float64"))
    with pytest.raises(RuntimeError, match=r"GradNodePyLayer_Saver.*modified by an inplace"):
        out.sum().backward()


def test_changing_a_saved_output_in_place_before_backward_names_the_layer():
    x = leaf([1.0, 2.0])
    Saver.save = staticmethod(lambda x, y: (y,))
    y = Saver.apply(x)
    with paddle.no_grad():
        y.add_(paddle.ones([2], dtype="float64"))
    with pytest.raises(RuntimeError, match=r"GradNodePyLayer_Saver.*modified by an inplace"):
        y.sum().backward()


def test_needs_input_grad_has_one_bool_per_input_slot():
    seen = []

    class Look(PyLayer):
        @staticmethod
        def forward(ctx, *args):
            seen.append(ctx.needs_input_grad)
            return args[0] * 1

        @staticmethod
        def backward(ctx, dy):
            return (dy,) + (None,) * (len(ctx.needs_input_grad) - 1)

    x, frozen = leaf([1.0]), paddle.ones([1])
    Look.apply(x, frozen, 7, [frozen, x], [frozen], "text")
    assert seen[-1] == (True, False, True, False)
    with paddle.no_grad():
        Look.apply(x, x)
    assert seen[-1] == (False, False)


def test_saved_tensors_is_read_only():
    class Try(PyLayer):
        @staticmethod
        def forward(ctx, x):
            with pytest.raises(AttributeError):
                ctx.saved_tensors = (x,)
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return dy

    Try.apply(leaf([1.0]))


def test_saved_tensor_after_the_graph_is_freed_is_a_clear_error():
    kept = []

    class Keep(PyLayer):
        @staticmethod
        def forward(ctx, x):
            kept.append(ctx)
            ctx.save_for_backward(x)
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = leaf([1.0])
    out = Keep.apply(x)
    out.backward()
    with pytest.raises(RuntimeError, match="retain_graph"):
        kept[0].saved_tensor()
    Keep.apply(x)       # output dropped at once: its node is gone
    with pytest.raises(RuntimeError, match=r"GradNodePyLayer_Keep.*freed"):
        kept[1].saved_tensor()
