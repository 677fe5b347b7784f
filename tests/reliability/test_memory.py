"""Memory: backward frees what it no longer needs, graphs hold no cycles, training does not grow.

Cycles are checked with the cyclic collector off: an object that is only
freed by ``gc.collect()`` was part of a cycle, and ``gc.collect()`` returns
how many such objects it found.
"""
import gc
import tracemalloc
import weakref
from contextlib import contextmanager

import numpy as np
import pytest

import pylayer
from pylayer.autograd import PyLayer, once_differentiable, saved_tensors_hooks
from pylayer.demo import MLP


@contextmanager
def collector_off():
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def cyclic_garbage():
    """How many unreachable objects the cyclic collector finds now."""
    return gc.collect()


def leaf(values=(1.0, 2.0, 3.0)):
    return pylayer.to_tensor(list(values), dtype="float64", stop_gradient=False)


# ------------------------------------------------------------- layers
class SavesInputAndOutput(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = pylayer.tanh(x)
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, y = ctx.saved_tensor()
        return dy * (1 - y * y)


class KeepsTensorsOnCtx(PyLayer):
    """Keeps its input, an intermediate and its output as plain ctx attributes."""

    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        ctx.doubled = x * 2
        y = ctx.doubled * x
        ctx.y = y
        return y

    @staticmethod
    def backward(ctx, dy):
        assert float((ctx.y - ctx.doubled * ctx.x).abs().max()) == 0
        return dy * 4 * ctx.x


class TwoOutputsOneMarked(PyLayer):
    @staticmethod
    def forward(ctx, x):
        index = pylayer.zeros([1])
        ctx.mark_non_differentiable(index)
        ctx.mark_not_inplace(x)
        return x, index

    @staticmethod
    def backward(ctx, dy, dindex):
        return dy


class NumpyBackward(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        return pylayer.to_tensor(2 * x.numpy() * dy.numpy())


LAYERS = [SavesInputAndOutput, KeepsTensorsOnCtx, TwoOutputsOneMarked, NumpyBackward]


def apply_once(layer, x):
    out = layer.apply(x)
    return out[0] if isinstance(out, tuple) else out


# -------------------------------------------------------------- tests
def test_backward_frees_the_saved_intermediates_of_builtin_ops():
    with collector_off():
        x = leaf()
        hidden = x * 3          # saved by multiply and by tanh's input chain
        out = pylayer.tanh(hidden * hidden).sum()
        watched = weakref.ref(hidden)
        del hidden
        assert watched() is not None, "the graph keeps what backward will need"
        out.backward()
        assert watched() is None, "backward without retain_graph freed the saved tensor"
        del out
        assert cyclic_garbage() == 0


def test_retain_graph_keeps_saved_tensors_until_the_graph_is_dropped():
    with collector_off():
        x = leaf()
        hidden = x * 3
        out = (hidden * hidden).sum()
        watched = weakref.ref(hidden)
        del hidden
        out.backward(retain_graph=True)
        assert watched() is not None
        out.backward()
        del out
        assert watched() is None
        assert cyclic_garbage() == 0
    np.testing.assert_allclose(x.grad.numpy(), 2 * 18 * x.numpy())


@pytest.mark.parametrize("layer", LAYERS, ids=lambda c: c.__name__)
def test_backward_frees_the_pylayer_context_and_its_tensors(layer):
    with collector_off():
        x = leaf()
        hidden = x * 1.5
        out = apply_once(layer, hidden)
        context = weakref.ref(out.grad_fn.attrs[0])
        watched = weakref.ref(hidden)
        del hidden
        out.sum().backward()
        assert context() is None, "the context outlived the backward that used it"
        assert watched() is None, "a tensor the context kept outlived the backward"
        assert out.numpy() is not None   # the output itself is still usable
        del out
        assert cyclic_garbage() == 0


@pytest.mark.parametrize("layer", LAYERS, ids=lambda c: c.__name__)
def test_a_graph_that_never_runs_backward_is_freed_by_reference_counting(layer):
    with collector_off():
        x = leaf()
        out = apply_once(layer, x * 1.5)
        node = weakref.ref(out.grad_fn)
        context = weakref.ref(out.grad_fn.attrs[0])
        del out
        assert node() is None and context() is None, "context, node and outputs form a cycle"
        assert cyclic_garbage() == 0


def test_a_context_attribute_holding_the_output_gives_it_back_linked_to_the_graph():
    x = leaf()
    y = KeepsTensorsOnCtx.apply(x)
    (dx,) = pylayer.grad(y.sum(), [x], create_graph=True)
    np.testing.assert_allclose(dx.numpy(), 4 * x.numpy())
    (ddx,) = pylayer.grad(dx.sum(), [x])
    np.testing.assert_allclose(ddx.numpy(), [4.0, 4.0, 4.0])


def test_saved_tensor_hooks_and_their_packed_values_are_freed_after_backward():
    packed = []

    def pack(t):
        box = {"array": t.numpy().copy()}
        packed.append(weakref.ref(pack_marker := Marker()))
        box["marker"] = pack_marker
        return box

    def unpack(box):
        return pylayer.to_tensor(box["array"])

    with collector_off():
        x = leaf()
        with saved_tensors_hooks(pack, unpack):
            out = SavesInputAndOutput.apply(x * 2) * x
        assert packed and all(ref() is not None for ref in packed)
        out.sum().backward()
        assert all(ref() is None for ref in packed), "packed values outlived backward"
        del out
        assert cyclic_garbage() == 0


class Marker:
    """A weak-referenceable object stored in packed values."""


def test_double_backward_graphs_are_freed_too():
    with collector_off():
        x = leaf()
        y = SavesInputAndOutput.apply(x) * pylayer.exp(x)
        (dx,) = pylayer.grad(y.sum(), [x], create_graph=True)
        node = weakref.ref(dx.grad_fn)
        dx.sum().backward()
        del y, dx
        assert node() is None
        assert cyclic_garbage() == 0


@pytest.mark.slow
def test_five_thousand_training_steps_of_the_demo_model_do_not_grow_memory():
    pylayer.seed(0)
    model = MLP(2, 8, 3)
    optimizer = pylayer.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    rng = np.random.default_rng(0)
    features = pylayer.to_tensor(rng.standard_normal((4, 2)).astype("float32"))
    labels = pylayer.to_tensor(rng.integers(0, 3, 4))

    def train(steps):
        for _ in range(steps):
            loss = pylayer.nn.functional.cross_entropy(model(features), labels)
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
        return loss

    first = train(1000).item()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        last = train(4000).item()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert last < first, "the model trained"
    assert grown < 64 * 1024, f"memory grew by {grown} bytes over 4,000 steps"


@pytest.mark.slow
def test_running_a_static_program_with_py_func_many_times_does_not_grow_memory():
    main, startup = pylayer.static.Program(), pylayer.static.Program()
    pylayer.enable_static()
    try:
        with pylayer.static.program_guard(main, startup):
            x = pylayer.static.data("x", [-1, 3], "float32")
            x.stop_gradient = False
            out = main.current_block().create_var(name="out", dtype="float32", shape=[-1, 3])
            pylayer.static.py_func(np.tanh, x, out,
                                   backward_func=lambda x, y, dy: dy * (1 - y * y))
            loss = pylayer.mean(pylayer.static.nn.fc(out, 4))
            pylayer.optimizer.SGD(0.1).minimize(loss)
        executor = pylayer.static.Executor()
        executor.run(startup)
        feed = {"x": np.ones([2, 3], "float32")}

        def run(times):
            for _ in range(times):
                value, = executor.run(main, feed=feed, fetch_list=[loss])
            return float(value)

        first = run(300)
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            last = run(1500)
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
    finally:
        pylayer.disable_static()
    assert last < first, "the program trained"
    assert grown < 64 * 1024, f"memory grew by {grown} bytes over 1,500 runs"
