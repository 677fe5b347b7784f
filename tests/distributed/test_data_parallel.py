"""DataParallel's pieces that one process can check: the engine's end-of-backward
callback it relies on, and Paddle's grouping of parameters into buckets."""
import pytest

import pylayer
from pylayer.autograd.functional import queue_callback
from pylayer.distributed._parallel import _buckets, _reached_leaves


def test_a_queued_callback_runs_once_backward_has_filled_every_grad():
    x = pylayer.to_tensor([2.0], stop_gradient=False)
    y = pylayer.to_tensor([5.0], stop_gradient=False)
    seen = []

    def hook(g):
        assert queue_callback(lambda: seen.append((x.grad.item(), y.grad.item())))
    x.register_hook(hook)
    (x * y).sum().backward()
    assert seen == [(5.0, 2.0)]
    pylayer.autograd.backward([(x * 3).sum()])
    assert seen[-1] == (8.0, 2.0)


def test_callbacks_run_in_order_and_may_queue_more():
    x = pylayer.to_tensor([1.0], stop_gradient=False)
    order = []

    def second():
        order.append(2)
        queue_callback(lambda: order.append(3))
    x.register_hook(lambda g: queue_callback(lambda: order.append(1)) and
                    queue_callback(second) and None)
    (x * 2).sum().backward()
    assert order == [1, 2, 3]


def test_no_callback_outside_backward_nor_in_grad():
    x = pylayer.to_tensor([1.0], stop_gradient=False)
    assert queue_callback(print) is False
    answers = []
    x.register_hook(lambda g: answers.append(queue_callback(print)) and None)
    pylayer.grad((x * 2).sum(), x)
    assert answers == [False]
    with pytest.raises(TypeError, match=r"queue_callback\(\): argument 'callback'"):
        queue_callback(3)


def test_a_failed_backward_runs_no_callback():
    x = pylayer.to_tensor([1.0], stop_gradient=False)
    ran = []

    def hook(g):
        queue_callback(lambda: ran.append(1))
        raise ValueError("hook failed")
    x.register_hook(hook)
    with pytest.raises(ValueError, match="hook failed"):
        (x * 2).sum().backward()
    assert ran == []
    assert queue_callback(print) is False


def test_buckets_are_paddles():
    # Paddle 3.3.1: core.eager_assign_group_by_size on these tensors and limits gives
    # [[0, 1], [2, 6], [3, 4, 5, 7]] and, with the one limit of 1 MB,
    # [[0, 1], [2, 6], [3, 4, 5], [7]].
    sizes = [(100, "float32"), (300000, "float32"), (10, "float64"), (200000, "float32"),
             (50000, "float32"), (262144, "float32"), (5, "float64"), (400000, "float32")]
    tensors = [pylayer.zeros([n], dtype=d) for n, d in sizes]
    assert _buckets(tensors, [2 ** 20, 2 ** 21]) == [[0, 1], [2, 6], [3, 4, 5, 7]]
    assert _buckets(tensors, [2 ** 20]) == [[0, 1], [2, 6], [3, 4, 5], [7]]


def test_the_leaves_a_graph_reaches():
    a, b, c = (pylayer.to_tensor([1.0], stop_gradient=False) for _ in range(3))
    out = (a * b).exp() + b
    assert _reached_leaves([out]) == {id(a), id(b)}
    assert _reached_leaves([c.detach()]) == set()


def test_one_process_data_parallel_changes_no_gradient():
    layer = pylayer.nn.Linear(2, 1)
    parallel = pylayer.distributed.DataParallel(layer, find_unused_parameters=True)
    parallel(pylayer.ones([3, 2])).sum().backward()
    assert layer.weight.grad.numpy().ravel().tolist() == [3.0, 3.0]
    with pytest.raises(ValueError, match="comm_buffer_size"):
        pylayer.distributed.DataParallel(layer, comm_buffer_size=0)


def test_sync_batch_norm_step_passes_gradcheck_in_a_world_of_one():
    import numpy as np
    from pylayer.nn.norm import _sync_batch_norm
    pylayer.distributed.init_parallel_env()
    rng = np.random.default_rng(0)
    for shape, channel_last in (([4, 3, 2], False), ([3, 2, 2, 3], True)):
        x = pylayer.to_tensor(rng.random(shape), stop_gradient=False)
        w = pylayer.to_tensor(rng.random(shape[-1 if channel_last else 1]) + 0.5,
                              stop_gradient=False)
        b = pylayer.to_tensor(rng.random(w.shape[0]), stop_gradient=False)
        mean, var = pylayer.zeros(w.shape, "float64"), pylayer.ones(w.shape, "float64")

        def f(x, w, b):
            return _sync_batch_norm(x, mean, var, w, b, 0.9, 1e-5, channel_last)
        assert pylayer.autograd.gradcheck(f, (x, w, b))
        m2, v2 = pylayer.zeros(w.shape, "float64"), pylayer.ones(w.shape, "float64")
        mean._set_array_inplace(np.zeros(w.shape))
        var._set_array_inplace(np.ones(w.shape))
        want = pylayer.nn.functional.batch_norm(x, m2, v2, w, b, training=True,
                                                data_format="NHWC" if channel_last else "NCHW")
        np.testing.assert_allclose(f(x, w, b).numpy(), want.numpy(), atol=1e-12)
        np.testing.assert_allclose(mean.numpy(), m2.numpy(), atol=1e-12)
        np.testing.assert_allclose(var.numpy(), v2.numpy(), atol=1e-12)
