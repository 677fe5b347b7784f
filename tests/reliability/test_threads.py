"""Threads: separate models train the same in parallel as one after the other; modes are per thread.

Models are built (and their random initial values drawn) in the main thread;
inside the threads each run draws its batches from its own numpy Generator,
so no random stream is shared. The interpreter is made to switch threads
very often while they run, to interleave their ops as much as possible.
"""
import sys
import threading
from contextlib import contextmanager

import numpy as np

import pylayer
from pylayer.autograd import saved_tensors_hooks
from pylayer.demo import MLP

STEPS = 150


@contextmanager
def frequent_thread_switches():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def run_in_threads(*functions):
    """Run the functions at once, each in its own thread; re-raise the first error."""
    errors = []
    start = threading.Barrier(len(functions))

    def wrap(function):
        def body():
            try:
                start.wait()
                function()
            except BaseException as error:  # noqa: BLE001 - reported in the main thread
                errors.append(error)
                start.abort()
        return body

    threads = [threading.Thread(target=wrap(f)) for f in functions]
    with frequent_thread_switches():
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]


class Run:
    """One training run: a model with given initial values, its own data stream."""

    def __init__(self, initial, data_seed, hooks, evaluate_under_no_grad):
        self.model = MLP(2, 8, 3)
        self.model.set_state_dict({k: v.copy() for k, v in initial.items()})
        self.optimizer = pylayer.optimizer.Adam(learning_rate=0.02,
                                                parameters=self.model.parameters())
        self.rng = np.random.default_rng(data_seed)
        self.hooks = hooks
        self.evaluate = evaluate_under_no_grad
        self.losses = []
        self.evaluations = []
        self.packed = 0

    def pack(self, t):
        self.packed += 1
        return t.numpy().copy()

    def step(self):
        x = pylayer.to_tensor(self.rng.standard_normal((8, 2)).astype("float32"))
        y = pylayer.to_tensor(self.rng.integers(0, 3, 8))
        loss = pylayer.nn.functional.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        self.optimizer.clear_grad()
        self.losses.append(loss.numpy().copy())

    def __call__(self):
        for i in range(STEPS):
            if self.hooks:
                with saved_tensors_hooks(self.pack, pylayer.to_tensor):
                    self.step()
            else:
                self.step()
            if self.evaluate and i % 10 == 0:
                with pylayer.no_grad():
                    out = self.model(pylayer.ones([2, 2]))
                assert out.stop_gradient and out.grad_fn is None
                self.evaluations.append(out.numpy().copy())
        assert pylayer.is_grad_enabled()

    def result(self):
        params = [p.numpy().copy() for p in self.model.parameters()]
        return self.losses, self.evaluations, params


def initial_states():
    pylayer.seed(11)
    states = []
    for _ in range(2):
        states.append({k: v.numpy().copy() for k, v in MLP(2, 8, 3).state_dict().items()})
    return states


def make_runs(states):
    return [Run(states[0], data_seed=1, hooks=True, evaluate_under_no_grad=False),
            Run(states[1], data_seed=2, hooks=False, evaluate_under_no_grad=True)]


def assert_same(first, second):
    for a, b in zip(first, second):
        assert len(a) == len(b)
        for u, v in zip(a, b):
            assert u.dtype == v.dtype and np.array_equal(u, v), "results differ bitwise"


def test_two_models_trained_in_parallel_match_training_them_one_after_the_other():
    states = initial_states()
    one_by_one = make_runs(states)
    for run in one_by_one:
        run()
    parallel = make_runs(states)
    run_in_threads(*parallel)
    for alone, together in zip(one_by_one, parallel):
        assert_same(alone.result(), together.result())
    assert parallel[0].packed > 0 and parallel[1].packed == 0, "hooks stayed in their thread"
    assert one_by_one[0].losses[-1] < one_by_one[0].losses[0]


def test_no_grad_in_one_thread_does_not_switch_recording_off_in_another():
    x = pylayer.ones([2])
    x.stop_gradient = False
    entered, checked = threading.Event(), threading.Event()
    seen = {}

    def quiet():
        with pylayer.no_grad():
            entered.set()
            assert checked.wait(10)
            seen["quiet"] = (pylayer.is_grad_enabled(), (x * 2).stop_gradient)

    def recording():
        assert entered.wait(10)
        seen["recording"] = (pylayer.is_grad_enabled(), (x * 2).stop_gradient)
        checked.set()

    run_in_threads(quiet, recording)
    assert seen == {"quiet": (False, True), "recording": (True, False)}
    assert pylayer.is_grad_enabled()


def test_saved_tensor_hooks_of_one_thread_do_not_pack_another_threads_tensors():
    x = pylayer.ones([2])
    x.stop_gradient = False
    entered, checked = threading.Event(), threading.Event()
    packed = {"hooked": 0, "plain": 0}

    def count(key):
        def pack(t):
            packed[key] += 1
            return t
        return pack

    def hooked():
        with saved_tensors_hooks(count("hooked"), lambda t: t):
            entered.set()
            assert checked.wait(10)
            (x * x).sum().backward()

    def plain():
        assert entered.wait(10)
        (x * x).sum().backward()   # multiply saves both inputs
        checked.set()

    run_in_threads(hooked, plain)
    assert packed == {"hooked": 2, "plain": 0}
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 4.0])


class _TakeTurnsInBackward(pylayer.autograd.PyLayer):
    """Identity whose backward makes two passes over one graph interleave in a fixed
    order: the first pass waits inside it until the second is inside it too, then
    finishes while the second waits, then the second finishes."""
    turns = None

    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, dy):
        first_inside, second_inside, first_done = _TakeTurnsInBackward.turns
        if not first_inside.is_set():
            first_inside.set()
            assert second_inside.wait(timeout=30)
        else:
            second_inside.set()
            assert first_done.wait(timeout=30)
        return dy * 1.0


def test_two_threads_running_backward_over_one_graph_both_get_the_right_gradient():
    # When the first pass waits in the PyLayer's backward, a gradient has already
    # reached the tanh node; the second pass then reaches the same node.
    x = pylayer.to_tensor([0.3, -0.7], dtype="float64", stop_gradient=False)
    y = pylayer.tanh(x)
    loss = (_TakeTurnsInBackward.apply(y) + y * 2.0).sum()
    expected = 3.0 * (1 - np.tanh(x.numpy()) ** 2)
    first_inside, second_inside, first_done = turns = (
        threading.Event(), threading.Event(), threading.Event())
    _TakeTurnsInBackward.turns = turns
    results = [None, None]

    def first():
        results[0] = pylayer.grad(loss, x, retain_graph=True)[0].numpy()
        first_done.set()

    def second():
        assert first_inside.wait(timeout=30)
        results[1] = pylayer.grad(loss, x, retain_graph=True)[0].numpy()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for result in results:
        np.testing.assert_allclose(result, expected, rtol=1e-12)


def test_a_second_thread_without_retain_graph_gets_the_freed_graph_error_not_a_number():
    x = pylayer.to_tensor([0.3, -0.7], dtype="float64", stop_gradient=False)
    y = pylayer.tanh(x)
    loss = (y * y).sum()
    expected = 2 * np.tanh(x.numpy()) * (1 - np.tanh(x.numpy()) ** 2)
    outcomes = []

    def backward():
        try:
            outcomes.append(pylayer.grad(loss, x)[0].numpy())
        except RuntimeError as exc:
            outcomes.append(str(exc))

    run_in_threads(backward, backward)
    numbers = [o for o in outcomes if not isinstance(o, str)]
    errors = [o for o in outcomes if isinstance(o, str)]
    assert len(numbers) >= 1
    for result in numbers:
        np.testing.assert_allclose(result, expected, rtol=1e-12)
    assert all("retain_graph" in text for text in errors)
