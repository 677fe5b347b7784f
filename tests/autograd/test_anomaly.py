"""detect_anomaly: forward stacks for NaN gradients and for errors in a PyLayer's backward."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import PyLayer, detect_anomaly
from pylayer.autograd.anomaly import is_anomaly_enabled


class NanBackward(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, dy):
        return dy * float("nan")


class FailingBackward(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, dy):
        raise ZeroDivisionError("division in backward")


def build_nan_layer_here(x):
    return NanBackward.apply(x)


def build_failing_layer_here(x):
    return FailingBackward.apply(x)


def test_a_nan_from_a_pylayer_backward_is_reported_with_the_forward_stack():
    x = paddle.ones([2]); x.stop_gradient = False
    with detect_anomaly():
        y = build_nan_layer_here(x)
        with pytest.raises(RuntimeError, match="GradNodePyLayer_NanBackward returned NaN") as info:
            y.sum().backward()
    message = str(info.value)
    assert "build_nan_layer_here" in message and "NanBackward.apply(x)" in message
    assert "py_layer.py" not in message          # the stack ends at the user's call


def test_without_anomaly_mode_nan_gradients_pass_silently():
    x = paddle.ones([2]); x.stop_gradient = False
    build_nan_layer_here(x).sum().backward()
    assert np.isnan(x.grad.numpy()).all()


def test_an_error_in_a_pylayer_backward_carries_the_forward_stack_as_a_note():
    x = paddle.ones([2]); x.stop_gradient = False
    with detect_anomaly():
        y = build_failing_layer_here(x)
    with detect_anomaly():
        with pytest.raises(ZeroDivisionError,
                           match="GradNodePyLayer_FailingBackward.*division in backward") as info:
            y.sum().backward()
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "GradNodePyLayer_FailingBackward" in notes
    assert "build_failing_layer_here" in notes and "FailingBackward.apply(x)" in notes


def test_without_anomaly_mode_errors_have_no_forward_stack():
    x = paddle.ones([2]); x.stop_gradient = False
    y = build_failing_layer_here(x)
    with pytest.raises(ZeroDivisionError) as info:
        y.sum().backward()
    assert not getattr(info.value, "__notes__", [])


def test_a_nan_from_a_builtin_op_is_reported():
    x = paddle.zeros([1]); x.stop_gradient = False
    with detect_anomaly():
        y = paddle.sqrt(x) * 0          # backward of sqrt at 0 computes 0 / 0
        with pytest.raises(RuntimeError, match="SqrtGradNode returned NaN"):
            y.backward()


def test_the_previous_mode_is_restored_also_after_an_error_and_nesting():
    assert not is_anomaly_enabled()
    with pytest.raises(KeyError):
        with detect_anomaly():
            assert is_anomaly_enabled()
            raise KeyError("x")
    assert not is_anomaly_enabled()
    guard = detect_anomaly()
    with guard:
        with guard:
            assert is_anomaly_enabled()
        assert is_anomaly_enabled()
    assert not is_anomaly_enabled()


def test_detect_anomaly_works_as_a_decorator():
    @detect_anomaly()
    def train_step(x):
        assert is_anomaly_enabled()
        return build_nan_layer_here(x).sum().backward()

    x = paddle.ones([1]); x.stop_gradient = False
    with pytest.raises(RuntimeError, match="NaN"):
        train_step(x)
    assert not is_anomaly_enabled()


def test_a_nan_in_a_bfloat16_gradient_is_reported_too():
    # numpy gives bfloat16 the kind of raw bytes: the check asks what the dtype holds.
    x = paddle.ones([2], "bfloat16"); x.stop_gradient = False
    with detect_anomaly():
        y = build_nan_layer_here(x)
        with pytest.raises(RuntimeError, match="GradNodePyLayer_NanBackward returned NaN"):
            y.sum().backward()
