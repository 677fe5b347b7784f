"""State after errors: a failure anywhere leaves the process as it was, and its graph can be freed.

Each failing action runs from several starting states (recording on or off,
an outer saved-tensor hook pair or none, anomaly detection on or off) and
must leave grad mode, the hook stack, the anomaly flag, the disabled-hooks
message and the static/dynamic switch exactly as they were. Where a graph
was built, it must be collectable afterwards (weak references die once the
output and the exception are dropped).
"""
import gc
import weakref
from contextlib import ExitStack, contextmanager

import numpy as np
import pytest

import pylayer
from pylayer import static
from pylayer._core import graph as _graph
from pylayer.autograd import PyLayer, detect_anomaly, saved_tensors_hooks
from pylayer.autograd import saved_hooks


class Boom(Exception):
    """The error the failing actions raise."""


def snapshot():
    return (pylayer.is_grad_enabled(), _graph.current_saved_tensors_hooks(),
            _graph.is_anomaly_enabled(), saved_hooks.disabled_message(), pylayer.in_dynamic_mode())


STARTS = {
    "plain": (True, False, False),
    "no_grad": (False, False, False),
    "outer_hooks": (True, True, False),
    "anomaly": (True, False, True),
    "no_grad+hooks+anomaly": (False, True, True),
}


@contextmanager
def starting_state(name):
    grad, hooks, anomaly = STARTS[name]
    with ExitStack() as stack:
        if hooks:
            stack.enter_context(saved_tensors_hooks(lambda t: t, lambda t: t))
        if anomaly:
            stack.enter_context(detect_anomaly())
        stack.enter_context(pylayer.set_grad_enabled(grad))
        yield


def fails_and_restores(action):
    """Run ``action`` (which must raise Boom) and check the state it leaves."""
    before = snapshot()
    with pytest.raises(Boom):
        action()
    assert snapshot() == before


def collected(ref):
    gc.collect()
    return ref() is None


def leaf():
    return pylayer.to_tensor([0.5, -1.0, 2.0], dtype="float64", stop_gradient=False)


# ------------------------------------------------------------ PyLayers
contexts = []


class FailsInForward(PyLayer):
    @staticmethod
    def forward(ctx, x):
        contexts.append(weakref.ref(ctx))
        ctx.save_for_backward(x)
        with pylayer.no_grad():
            raise Boom("forward")

    @staticmethod
    def backward(ctx, dy):
        return dy


class FailsInBackward(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        with saved_tensors_hooks(lambda t: t, lambda t: t), pylayer.enable_grad():
            raise Boom("backward")


@pytest.mark.parametrize("start", STARTS)
def test_an_error_in_pylayer_forward(start):
    contexts.clear()
    with starting_state(start):
        x = leaf()
        fails_and_restores(lambda: FailsInForward.apply(x * 1.5))
    assert collected(contexts[0]), "the context of the failed forward is freed"


@pytest.mark.parametrize("start", STARTS)
def test_an_error_in_pylayer_backward(start):
    x = leaf()
    y = FailsInBackward.apply(x * 1.5).sum()
    node = weakref.ref(y.grad_fn)
    context = weakref.ref(y.grad_fn.next_functions[0][0].attrs[0])
    with starting_state(start):
        fails_and_restores(lambda: y.backward(retain_graph=True))
        fails_and_restores(lambda: pylayer.grad(y, [x], create_graph=True))
    assert x.grad is None, "a failed backward accumulates nothing"
    del y
    assert collected(node) and collected(context)
    check_the_engine_still_works()


def check_the_engine_still_works():
    x = leaf()
    (pylayer.tanh(x) * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.tanh(x.numpy()) + x.numpy()
                               * (1 - np.tanh(x.numpy()) ** 2))


# -------------------------------------------------------------- hooks
def failing_pack(t):
    raise Boom("pack")


def failing_unpack(packed):
    raise Boom("unpack")


class SavesItsInput(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 3

    @staticmethod
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        return dy * 3


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("op", [lambda x: x * x, SavesItsInput.apply],
                         ids=["builtin", "pylayer"])
def test_an_error_in_a_pack_hook(start, op):
    with starting_state(start):
        x = leaf()

        def action():
            with saved_tensors_hooks(failing_pack, lambda p: p), pylayer.enable_grad():
                op(x * 1.0)   # pack runs only when a node is recorded
        fails_and_restores(action)
    check_the_engine_still_works()


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("op", [lambda x: x * x, SavesItsInput.apply],
                         ids=["builtin", "pylayer"])
def test_an_error_in_an_unpack_hook(start, op):
    x = leaf()
    with saved_tensors_hooks(lambda t: t, failing_unpack):
        y = op(x * 1.0).sum()
    node = weakref.ref(y.grad_fn)
    with starting_state(start):
        fails_and_restores(lambda: y.backward())
    assert x.grad is None, "a failed backward accumulates nothing"
    del y
    assert collected(node)
    check_the_engine_still_works()


@pytest.mark.parametrize("start", STARTS)
def test_an_error_in_a_tensor_hook(start):
    x = leaf()
    hidden = x * 2
    hidden.register_hook(lambda g: (_ for _ in ()).throw(Boom("tensor hook")))
    y = pylayer.exp(hidden).sum()
    node = weakref.ref(y.grad_fn)
    with starting_state(start):
        fails_and_restores(lambda: y.backward())
    del y, hidden
    assert collected(node)


@pytest.mark.parametrize("start", STARTS)
def test_an_error_inside_mode_and_hook_blocks(start):
    def action():
        with pylayer.no_grad(), saved_tensors_hooks(lambda t: t, lambda t: t), \
                pylayer.enable_grad(), detect_anomaly(), pylayer.set_grad_enabled(False):
            raise Boom("block")
    with starting_state(start):
        fails_and_restores(action)


def test_an_anomaly_error_restores_the_anomaly_flag():
    class Nan(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return dy * float("nan")

    x = leaf()
    before = snapshot()
    with pytest.raises(RuntimeError, match="NaN"):
        with detect_anomaly():
            Nan.apply(x).sum().backward()
    assert snapshot() == before


# ------------------------------------------------------------ py_func
def failing_func(*arrays):
    raise Boom("py_func forward")


def failing_backward(*arrays):
    raise Boom("py_func backward")


@pytest.fixture
def programs():
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup), static.scope_guard(static.Scope()):
        yield main, startup
    pylayer.disable_static()


def build_py_func(func, backward_func):
    x = static.data("x", [2, 3], "float32")
    x.stop_gradient = False
    out = static.default_main_program().current_block().create_var(
        name="out", dtype="float32", shape=[2, 3])
    static.py_func(func, x, out, backward_func=backward_func)
    loss = pylayer.mean(out)
    return loss, static.gradients(loss, x)[0]


@pytest.mark.parametrize("start", ["plain", "no_grad", "outer_hooks"])
@pytest.mark.parametrize("failing", ["forward", "backward"])
def test_an_error_in_py_func_leaves_static_mode_on(programs, start, failing):
    main, _ = programs
    pylayer.enable_static()
    loss, dx = build_py_func(failing_func if failing == "forward" else np.tanh,
                             failing_backward)
    executor = static.Executor(static.CPUPlace())
    feed = {"x": np.ones([2, 3], "float32")}
    with starting_state(start):
        fails_and_restores(lambda: executor.run(main, feed=feed, fetch_list=[loss, dx]))
        assert not pylayer.in_dynamic_mode()
    pylayer.disable_static()
    check_the_engine_still_works()


def test_py_func_refused_for_a_tensor_leaves_dynamic_mode_on():
    before = snapshot()
    with pytest.raises(RuntimeError, match="enable_static"):
        static.py_func(np.tanh, pylayer.ones([2]), None)
    assert snapshot() == before and pylayer.in_dynamic_mode()
