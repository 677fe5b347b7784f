"""An operator's result never goes into the memory of an operand (issue 18, part 2).

pylayer once wrote ``a * b`` into an operand it believed was a temporary of the
running expression. Each test is a case where that belief was wrong: the
operand's memory was still reachable, and a holder saw the result. Results now
always go to new memory (or to pooled memory nothing can reach).
"""
import functools
import operator
import sys
import threading
import time
import weakref

import numpy as np

import pylayer as paddle

LARGE = [512, 512]          # 1 MB of float32: above every size threshold
N = 1 << 18                 # 1 MB of float32: a large array


def _data(seed, dtype="float32"):
    return np.random.default_rng(seed).uniform(0.5, 1.5, N).astype(dtype)


def test_a_leaf_made_inside_an_expression_keeps_its_value_in_the_graph():
    arr = np.ones(LARGE, np.float32)
    y = paddle.to_tensor(arr, stop_gradient=False) * 3.0
    leaf = y.grad_fn.next_functions[0][0].variable
    assert float(leaf.numpy().max()) == 1.0
    assert not np.shares_memory(leaf.numpy(), y.numpy())


class Recorded(paddle.Tensor):
    """A Tensor subclass that shows its data when it dies."""
    seen = []

    def __del__(self):
        Recorded.seen.append(float(self.numpy().max()))


def test_a_tensor_subclass_used_as_a_temporary_is_never_written_into():
    Recorded.seen.clear()
    result = Recorded(np.ones(LARGE, np.float32)) * 5.0
    assert Recorded.seen == [1.0]
    assert float(result.numpy().max()) == 5.0


def test_an_operand_a_profiler_holds_during_the_operator_keeps_its_value():
    # A memory monitor: weak references to the tensors it has seen, made strong
    # whenever a function is called (pylayer once called one inside ``+``, after it
    # had counted the operand's references and before it wrote into the operand).
    seen, held = [], []

    def monitor(frame, event, arg):
        for value in list(frame.f_locals.values()):
            if isinstance(value, paddle.Tensor):
                seen.append(weakref.ref(value))
        if event in ("call", "c_call"):
            held.extend(ref() for ref in seen if ref() is not None)

    def make():
        made = paddle.full(LARGE, 5.0)
        return made

    def expression():
        return make() + 1.0

    expression()
    sys.setprofile(monitor)
    try:
        result = expression()
    finally:
        sys.setprofile(None)
    assert float(result.numpy().max()) == 6.0
    assert all(float(t.numpy().max()) == 5.0 for t in held if t is not result)


def test_an_operand_another_thread_watches_never_changes():
    stop = threading.Event()
    changed = []
    watched = []            # weak references: the watcher holds a tensor only to read it

    def watch():
        while not stop.is_set():
            for ref in list(watched):
                tensor = ref()
                if tensor is not None and float(tensor.numpy()[-1, -1]) != 5.0:
                    changed.append(float(tensor.numpy()[-1, -1]))
                del tensor

    def make():
        t = paddle.full(LARGE, 5.0)
        watched.append(weakref.ref(t))
        return t

    thread = threading.Thread(target=watch)
    thread.start()
    try:
        deadline = time.perf_counter() + 0.5
        while time.perf_counter() < deadline and not changed:
            make() + 1.0
            del watched[:-4]
    finally:
        stop.set()
        thread.join()
    assert changed == []


def test_a_named_operand_is_never_written_into():
    a = paddle.to_tensor(_data(5))
    t = a * 2.0
    result = t + 1.0
    np.testing.assert_array_equal(t.numpy(), _data(5) * 2.0)
    np.testing.assert_array_equal(result.numpy(), _data(5) * 2.0 + 1.0)


def test_memory_a_numpy_array_shares_is_never_written_into():
    user = _data(6)
    result = paddle.Tensor(user) + 1.0
    np.testing.assert_array_equal(user, _data(6))
    np.testing.assert_array_equal(result.numpy(), _data(6) + 1.0)


def test_a_temporary_held_inside_an_object_array_is_never_written_into():
    # numpy's object loop calls the operator with a reference borrowed from the array.
    boxes = np.empty(1, dtype=object)
    boxes[0] = paddle.to_tensor(_data(7))
    doubled = boxes * 2.0
    np.testing.assert_array_equal(boxes[0].numpy(), _data(7))
    np.testing.assert_array_equal(doubled[0].numpy(), _data(7) * 2.0)


def test_a_temporary_whose_array_is_shared_is_never_written_into():
    kept = []

    def shared(keep):
        t = paddle.to_tensor(_data(8))
        kept.append(keep(t.numpy()))         # the array, or a view of it, lives on
        return t

    for keep in (lambda a: a, lambda a: a[::2]):
        result = shared(keep) * 2.0
        np.testing.assert_array_equal(result.numpy(), _data(8) * 2.0)
    np.testing.assert_array_equal(kept[0], _data(8))
    np.testing.assert_array_equal(kept[1], _data(8)[::2])


def test_operands_of_a_reduction_over_operators_are_never_written_into():
    a, b = paddle.to_tensor(_data(11)), paddle.to_tensor(_data(12))
    total = functools.reduce(operator.add, [a, b, a])
    np.testing.assert_array_equal(total.numpy(), _data(11) + _data(12) + _data(11))
    np.testing.assert_array_equal(a.numpy(), _data(11))


def test_operands_an_op_keeps_for_backward_are_never_written_into():
    x = paddle.to_tensor(_data(9), stop_gradient=False)
    # multiply keeps both tensor operands; tanh keeps its output.
    loss = ((x * 2.0) * (x * 3.0)).sum() + (paddle.tanh(x) * 2.0).sum()
    loss.backward()
    x_np = _data(9).astype("float64")
    expected = 12.0 * x_np + 2.0 * (1 - np.tanh(x_np) ** 2)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-5)


def test_gradients_through_expressions_with_temporaries_match_central_differences():
    # gradcheck perturbs one element at a time, too slow for a large array: compare
    # the directional derivative along a random direction instead (float64).
    rng = np.random.default_rng(10)
    x_np, direction = rng.uniform(0.5, 1.5, N // 4), rng.standard_normal(N // 4)

    def f(x):
        return (((x * 2.0) + 1.0) * ((x - 3.0) / (x + 2.0)) - (1 - x * x)).sum()

    x = paddle.to_tensor(x_np, stop_gradient=False)
    f(x).backward()
    eps = 1e-6
    numeric = (float(f(paddle.to_tensor(x_np + eps * direction)))
               - float(f(paddle.to_tensor(x_np - eps * direction)))) / (2 * eps)
    assert np.isclose(float(x.grad.numpy() @ direction), numeric, rtol=1e-6)
