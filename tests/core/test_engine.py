"""The backward engine: graph shapes, accumulation, retain_graph, hooks, versions."""
import sys
import threading

import numpy as np
import pytest

import pylayer as paddle


def leaf(values, dtype="float64"):
    return paddle.to_tensor(values, dtype=dtype, stop_gradient=False)


def test_node_only_when_an_input_needs_grad():
    a, b = paddle.ones([2]), paddle.ones([2])
    c = a * b
    assert c.stop_gradient and c.grad_fn is None
    b.stop_gradient = False
    d = a * b
    assert not d.stop_gradient and d.grad_fn is not None and not d.is_leaf


def test_grad_fn_introspection():
    x = leaf([1.0])
    y = paddle.tanh(x) * x
    assert y.grad_fn.name() == "MultiplyGradNode"
    (first, i0), (second, i1) = y.grad_fn.next_functions
    assert first.name() == "TanhGradNode" and i0 == 0
    assert second.name() == "AccumulateGrad" and second.variable is x
    assert first.next_functions[0][0].variable is x


def test_diamond_graph_sums_both_paths():
    x = leaf([0.3, -0.7])
    a = paddle.tanh(x)
    y = a * a + paddle.exp(a)
    y.sum().backward()
    t = np.tanh(x.numpy())
    expected = (2 * t + np.exp(t)) * (1 - t * t)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-12)


def test_same_tensor_used_twice():
    x = leaf([3.0])
    (x * x).backward()
    assert x.grad.numpy()[0] == 6.0
    y = leaf([2.0])
    (y + y + y).backward()
    assert y.grad.numpy()[0] == 3.0


def test_grads_do_not_alias_between_leaves():
    x, y = leaf([1.0]), leaf([1.0])
    (x + y).backward()
    assert not np.shares_memory(x.grad.numpy(), y.grad.numpy())
    x.grad.numpy()[0] = 100
    assert y.grad.numpy()[0] == 1.0


class _Returns(paddle.autograd.PyLayer):
    """Backward returns a new gradient and tells where its data lives (an int, no reference)."""
    addresses = []
    keep = []

    @staticmethod
    def forward(ctx, x, keep_it):
        ctx.keep_it = keep_it
        return x * 1

    @staticmethod
    def backward(ctx, dy):
        g = dy * 2
        _Returns.addresses.append(g.numpy().ctypes.data)
        _Returns.keep.extend(g for _ in range(ctx.keep_it))
        return g


def test_a_gradient_a_pylayer_returned_is_copied_into_the_leaf():
    # What a PyLayer's backward returns was visible to user code: the leaf gets a
    # copy, and a later backward makes a new .grad instead of writing into it.
    x = leaf([1.0, 2.0])
    _Returns.addresses.clear()
    _Returns.apply(x, 0).sum().backward()
    first = x.grad
    assert first.numpy().ctypes.data != _Returns.addresses[-1]
    (_Returns.apply(x, 0) * 1).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0] and first.tolist() == [2.0, 2.0]


def test_a_gradient_someone_else_holds_is_never_written_into():
    x = leaf([1.0, 2.0])
    _Returns.keep.clear()
    _Returns.apply(x, 1).sum().backward()             # backward keeps what it returns
    kept = _Returns.keep[0]
    assert x.grad.numpy().ctypes.data != kept.numpy().ctypes.data
    _Returns.apply(x, 0).sum().backward()
    assert kept.tolist() == [2.0, 2.0] and x.grad.tolist() == [4.0, 4.0]
    seen = []
    z = leaf([1.0])
    z.register_hook(lambda g: seen.append(g))         # a leaf hook may keep the gradient
    (z * 3).backward()
    (z * 3).backward()
    assert seen[0].tolist() == [3.0] and z.grad.tolist() == [6.0]


def test_multiple_roots_and_outputs():
    x = leaf([1.0, 2.0])
    a, b = x * 2, x * 3
    paddle.autograd.backward([a.sum(), b.sum()])
    np.testing.assert_array_equal(x.grad.numpy(), [5.0, 5.0])


def test_backward_with_explicit_gradient():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.backward(paddle.to_tensor([1.0, 10.0], dtype="float64"))
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 20.0])
    with pytest.raises(ValueError, match="shape \\[3\\]"):
        (x * 2).backward(paddle.ones([3], dtype="float64"))


def test_non_scalar_backward_starts_from_ones():
    x = leaf([1.0, 2.0])
    (x * 3).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_backward_on_tensor_without_graph_does_nothing():
    x = paddle.ones([2])
    x.backward()
    assert x.grad is None


def test_accumulation_across_calls():
    x = leaf([1.0])
    (x * 2).backward()
    (x * 3).backward()
    assert x.grad.numpy()[0] == 5.0
    assert x.grad.stop_gradient


def test_leaf_grad_cast_to_leaf_dtype():
    x = leaf([1.0], dtype="float32")
    (x.astype("float64") * paddle.to_tensor([2.0], dtype="float64")).backward()
    assert x.grad.dtype == paddle.float32


def test_second_backward_needs_retain_graph():
    x = leaf([1.0])
    y = paddle.tanh(x)
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (1 - np.tanh(1.0) ** 2))
    with pytest.raises(RuntimeError, match="retain_graph"):
        y.backward()
    z = x * 2 + 1
    z.backward()
    with pytest.raises(RuntimeError, match="retain_graph"):
        z.backward()


def test_deep_chain_does_not_recurse():
    x = leaf([1.0])
    y = x
    for _ in range(100_000):
        y = y * 1.0
    assert sys.getrecursionlimit() < 100_000
    y.backward()
    assert x.grad.numpy()[0] == 1.0


def test_ready_queue_runs_newest_first():
    order = []
    x = leaf([1.0])
    a = x * 2
    b = x * 3
    a.register_hook(lambda g: order.append("a"))
    b.register_hook(lambda g: order.append("b"))
    (a + b).backward()
    assert order == ["b", "a"]


def test_a_node_runs_after_every_node_that_feeds_it_even_when_made_in_between():
    """Nodes run in decreasing creation order; a node fed by several later nodes,
    some of them reached only through long branches, still gets the full sum."""
    x = leaf([1.0, 2.0])
    shared = x * 1.5
    long_branch = shared
    for _ in range(5):
        long_branch = long_branch * 1.0 + 0.0
    side = x * 0.0 + shared * 2.0
    total = (long_branch * 4.0 + side).sum()
    (gx,) = paddle.grad([total], [x], retain_graph=True)
    total.backward()
    np.testing.assert_allclose(gx.numpy(), [9.0, 9.0])     # 1.5 * (4 + 2)
    np.testing.assert_allclose(x.grad.numpy(), [9.0, 9.0])


def test_nodes_that_get_no_gradient_are_released_too():
    x = leaf([1.0])
    y = x * 2
    z = y * 3
    paddle.grad([z], [x], no_grad_vars=[y], allow_unused=True)
    with pytest.raises(RuntimeError, match="second time"):
        y.backward()                       # y's node was reached, without a gradient
    w = x * 2
    v = (w * 3).sum()
    v.backward(retain_graph=False)
    with pytest.raises(RuntimeError, match="second time"):
        w.backward()


def test_hooks_replace_and_remove():
    x = leaf([1.0, 2.0])
    y = x * 2
    handle = y.register_hook(lambda g: g * 10)
    y.sum().backward(retain_graph=True)
    np.testing.assert_array_equal(x.grad.numpy(), [20.0, 20.0])
    handle.remove()
    x.clear_grad()
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_leaf_hook_sees_the_total_gradient():
    x = leaf([1.0])
    seen = []
    x.register_hook(lambda g: seen.append(g.numpy().copy()))
    (x * 2 + x * 3).backward()
    assert len(seen) == 1 and seen[0][0] == 5.0


def test_hook_on_stop_gradient_tensor_is_refused():
    with pytest.raises(RuntimeError, match="stop_gradient=True"):
        paddle.ones([1]).register_hook(lambda g: g)


def test_retain_grads_keeps_non_leaf_grad():
    x = leaf([1.0, 2.0])
    y = x * 2
    z = y * 3
    y.retain_grads()
    z.sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [3.0, 3.0])
    assert z.grad is None


def test_no_grad_context_decorator_and_threads():
    x = leaf([1.0])
    with paddle.no_grad():
        assert not paddle.is_grad_enabled()
        assert (x * 2).stop_gradient
        with paddle.enable_grad():
            assert not (x * 2).stop_gradient
    assert paddle.is_grad_enabled()

    @paddle.no_grad()
    def f(t):
        return t * 2
    assert f(x).stop_gradient
    assert paddle.is_grad_enabled()

    seen = []
    with paddle.no_grad():
        thread = threading.Thread(target=lambda: seen.append(paddle.is_grad_enabled()))
        thread.start()
        thread.join()
    assert seen == [True]

    with paddle.set_grad_enabled(False):
        assert (x * 2).stop_gradient
    assert paddle.is_grad_enabled()


def test_grad_mode_restored_after_exception():
    with pytest.raises(ZeroDivisionError):
        with paddle.no_grad():
            1 / 0
    assert paddle.is_grad_enabled()


def test_inplace_change_of_saved_tensor_is_detected():
    x = leaf([1.0, 2.0])
    a = x * 1
    y = a * a          # multiply saves both inputs
    with paddle.no_grad():
        a.add_(paddle.to_tensor(1.0))
    with pytest.raises(RuntimeError, match=r"MultiplyGradNode.*inplace.*version 1.*version 0"):
        y.sum().backward()


def test_inplace_change_of_saved_output_is_detected():
    x = leaf([0.5])
    y = paddle.tanh(x)  # tanh saves its output
    z = y * 2
    with paddle.no_grad():
        y.scale_(2)
    with pytest.raises(RuntimeError, match="TanhGradNode.*modified by an inplace operation"):
        z.backward()


def test_exception_in_backward_leaves_grad_mode_on():
    x = leaf([1.0])
    y = x * 2
    y.register_hook(lambda g: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        y.backward()
    assert paddle.is_grad_enabled()


def test_saved_tensors_are_freed_after_backward():
    import weakref
    x = leaf([1.0])
    a = x * 1
    y = a * a
    ref = weakref.ref(a)
    del a
    assert ref() is not None  # kept alive by y's node
    y.backward()
    assert ref() is None


def test_output_saved_without_reference_cycle():
    import gc
    import weakref
    x = leaf([1.0])
    y = paddle.tanh(x)
    ref = weakref.ref(y)
    gc.disable()
    try:
        del y
        assert ref() is None
    finally:
        gc.enable()


def test_double_backward_through_hooked_saved_inputs():
    # Hooks give back data without history; the engine must relink it to the
    # graph, or second derivatives silently vanish.
    x = leaf([3.0])
    a = x * 1
    with paddle.autograd.saved_tensors_hooks(lambda t: t.numpy(), paddle.to_tensor):
        y = x * x      # saves a leaf
        z = a * a      # saves a non-leaf
    for out in (y, z):
        (g,) = paddle.grad(out, x, create_graph=True)
        (gg,) = paddle.grad(g, x)
        assert gg.numpy()[0] == 2.0


@pytest.mark.parametrize("make", [
    lambda x: paddle.tanh(x),               # a compiled area
    lambda x: paddle.sum(x),                # plain-Python areas
    lambda x: paddle.reshape(x, [1, 1]),
    lambda x: paddle.matmul(x, x),
])
def test_anomaly_stack_names_the_line_that_made_the_op(make):
    x = leaf([1.0])
    with paddle.autograd.detect_anomaly():
        y = make(x)  # the line the stack must end with
    last = y.grad_fn.creation_stack.strip().splitlines()
    assert "paddle." in last[-1] and last[-2].rstrip().endswith("in <lambda>"), last[-4:]


def test_anomaly_mode_is_per_thread():
    seen = []
    with paddle.autograd.detect_anomaly():
        thread = threading.Thread(target=lambda: seen.append(paddle.autograd.anomaly.is_anomaly_enabled()))
        thread.start()
        thread.join()
        assert paddle.autograd.anomaly.is_anomaly_enabled()
    assert seen == [False]
    assert not paddle.autograd.anomaly.is_anomaly_enabled()
