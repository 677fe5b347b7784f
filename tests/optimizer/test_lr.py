"""Learning-rate schedulers: Paddle 3.3.1's sequences, use by SGD and Adam in
dynamic and static mode, state dicts and argument checks."""
import numpy as np
import pytest

import pylayer
from pylayer.optimizer import lr


def rates(scheduler, count):
    found = []
    for _ in range(count):
        found.append(round(scheduler(), 5))
        scheduler.step()
    return found


def test_sequences_recorded_from_paddle():
    assert rates(lr.StepDecay(0.5, step_size=2, gamma=0.1), 5) == [0.5, 0.5, 0.05, 0.05, 0.005]
    assert rates(lr.CosineAnnealingDecay(1.0, T_max=4, eta_min=0.1), 10) == [
        1.0, 0.8682, 0.55, 0.2318, 0.1, 0.2318, 0.55, 0.8682, 1.0, 0.8682]
    assert rates(lr.LinearWarmup(0.5, warmup_steps=3, start_lr=0.0, end_lr=0.5), 5) == [
        0.0, 0.16667, 0.33333, 0.5, 0.5]
    assert rates(lr.LinearWarmup(lr.StepDecay(0.5, 1, 0.5), warmup_steps=2, start_lr=0.1,
                                 end_lr=0.5), 6) == [0.1, 0.3, 0.5, 0.25, 0.125, 0.0625]
    assert rates(lr.LambdaDecay(0.5, lambda e: 0.9 ** e), 4) == [0.5, 0.45, 0.405, 0.3645]


def test_step_to_an_epoch_and_state_dict_round_trip():
    sched = lr.StepDecay(0.5, step_size=2)
    sched.step(5)
    assert sched.last_epoch == 5 and round(sched(), 6) == 0.005
    state = sched.state_dict()
    assert set(state) == {"last_epoch", "last_lr"}
    other = lr.StepDecay(0.5, step_size=2)
    other.set_state_dict(state)
    assert other.last_epoch == 5 and other() == sched()
    warm = lr.LinearWarmup(lr.StepDecay(0.5, 1), 2, 0.0, 0.5)
    for _ in range(4):
        warm.step()
    copy = lr.LinearWarmup(lr.StepDecay(0.5, 1), 2, 0.0, 0.5)
    copy.set_state_dict(warm.state_dict())
    assert copy.learning_rate.last_epoch == warm.learning_rate.last_epoch == 2


def test_base_class_keeps_the_rate_constant():
    sched = lr.LRScheduler(0.3)
    sched.step(7)
    assert sched() == 0.3 and sched.last_epoch == 7


@pytest.mark.parametrize("make,match", [
    (lambda: lr.StepDecay(0.5, step_size=0), "step_size"),
    (lambda: lr.StepDecay(0.5, step_size=2, gamma=1.0), "gamma"),
    (lambda: lr.CosineAnnealingDecay(0.5, T_max=0), "T_max"),
    (lambda: lr.LambdaDecay(0.5, 3), "lr_lambda"),
    (lambda: lr.LinearWarmup("fast", 2, 0.0, 0.5), "learning_rate"),
    (lambda: lr.StepDecay(-0.5, step_size=2), "learning_rate"),
])
def test_argument_checks(make, match):
    with pytest.raises((TypeError, ValueError), match=match):
        make()


@pytest.mark.parametrize("optimizer", [pylayer.optimizer.SGD, pylayer.optimizer.Adam])
def test_optimizers_use_the_scheduler_rate_at_each_step(optimizer):
    sched = lr.StepDecay(0.5, step_size=1, gamma=0.5)
    w = pylayer.create_parameter([1], "float64", default_initializer=pylayer.nn.initializer
                                 .Constant(0.0))
    opt = optimizer(learning_rate=sched, parameters=[w])
    moves = []
    for _ in range(3):
        assert opt.get_lr() == sched()
        before = w.numpy().copy()
        (w * 1.0).sum().backward()
        opt.step()
        opt.clear_grad()
        moves.append(float(before[0] - w.numpy()[0]))
        sched.step()
    # SGD moves by lr * 1; Adam by lr * (m_hat / sqrt(v_hat)) = lr for a constant gradient
    np.testing.assert_allclose(moves, [0.5, 0.25, 0.125], rtol=1e-6)
    with pytest.raises(RuntimeError, match="LRScheduler"):
        opt.set_lr(0.1)
    state = opt.state_dict()
    assert state["LR_Scheduler"] == sched.state_dict()
    fresh = lr.StepDecay(0.5, step_size=1, gamma=0.5)
    optimizer(learning_rate=fresh, parameters=[w]).set_state_dict(state)
    assert fresh.last_epoch == 3
