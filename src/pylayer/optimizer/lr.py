"""Learning-rate schedules: ``LRScheduler`` and the schedules built on it.

A scheduler is given to an optimizer as its ``learning_rate``; the
optimizer then reads ``scheduler()`` (the current rate) at every update, and
``scheduler.step()`` moves to the next epoch (or step, as the training loop
decides). This works in static mode too: the update ops read the rate when
the program runs, so calling ``step()`` between ``Executor.run`` calls
changes the rate of the next run.

>>> import pylayer
>>> sched = pylayer.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
>>> layer = pylayer.nn.Linear(2, 1)
>>> opt = pylayer.optimizer.SGD(learning_rate=sched, parameters=layer.parameters())
>>> rates = []
>>> for epoch in range(4):
...     rates.append(opt.get_lr())
...     sched.step()
>>> [round(r, 4) for r in rates]
[0.5, 0.5, 0.05, 0.05]
"""
import math

import numpy as np

from pylayer.extend import (Tensor, check_callable, check_choice, check_int, check_number,
                            describe, public_settings_repr)

__all__ = ["LRScheduler", "StepDecay", "CosineAnnealingDecay", "LinearWarmup", "LambdaDecay",
           "ExponentialDecay", "NaturalExpDecay", "InverseTimeDecay", "MultiStepDecay",
           "PiecewiseDecay", "PolynomialDecay", "NoamDecay", "MultiplicativeDecay", "LinearLR",
           "CosineAnnealingWarmRestarts", "OneCycleLR", "CyclicLR", "ReduceOnPlateau"]


class LRScheduler:
    """Base of the schedules: subclasses define :meth:`get_lr` from ``last_epoch``
    (the base class itself keeps ``learning_rate`` constant).

    ``last_epoch`` counts the calls of :meth:`step`; the constructor makes
    the first one, so a new scheduler is at epoch 0 (or ``last_epoch + 1``).
    ``scheduler()`` and ``last_lr`` give the current rate.

    >>> import pylayer
    >>> class Halving(pylayer.optimizer.lr.LRScheduler):
    ...     def get_lr(self):
    ...         return self.base_lr * 0.5 ** self.last_epoch
    >>> sched = Halving(learning_rate=1.0)
    >>> sched(), sched.step(), sched()
    (1.0, None, 0.5)
    """

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        cls = type(self).__name__
        self.base_lr = check_number(learning_rate, cls, "learning_rate", minimum=0.0)
        self.last_epoch = check_int(last_epoch, cls, "last_epoch", minimum=-1)
        self.last_lr = self.base_lr
        self.verbose = bool(verbose)
        self.step()

    __repr__ = public_settings_repr

    def __call__(self):
        """The current learning rate."""
        return self.last_lr

    def get_lr(self):
        """The learning rate of epoch ``last_epoch``; subclasses define it."""
        return self.base_lr

    def step(self, epoch=None):
        """Move to the next epoch, or to ``epoch`` when given, and update the rate."""
        if epoch is None:
            self.last_epoch += 1
        else:
            self.last_epoch = check_int(epoch, "step", "epoch", minimum=0)
        self.last_lr = float(self.get_lr())
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")

    def state_dict(self):
        """``{'last_epoch': ..., 'last_lr': ...}``, for :meth:`set_state_dict`."""
        return {"last_epoch": self.last_epoch, "last_lr": self.last_lr}

    def set_state_dict(self, state_dict):
        """Restore what :meth:`state_dict` returned."""
        if not isinstance(state_dict, dict) or not {"last_epoch", "last_lr"} <= set(state_dict):
            raise TypeError(f"set_state_dict(): argument 'state_dict' must be a dict with "
                            f"'last_epoch' and 'last_lr' (what state_dict() returned), got "
                            f"{describe(state_dict)}")
        self.last_epoch = check_int(state_dict["last_epoch"], "set_state_dict", "state_dict",
                                    minimum=-1)
        self.last_lr = check_number(state_dict["last_lr"], "set_state_dict", "state_dict")


class StepDecay(LRScheduler):
    """``learning_rate * gamma ** (epoch // step_size)``; ``gamma`` must be below 1.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.1)
    >>> sched.step(5)
    >>> round(sched(), 6)
    0.005
    """

    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        self.step_size = check_int(step_size, "StepDecay", "step_size", minimum=1)
        self.gamma = check_number(gamma, "StepDecay", "gamma")
        if self.gamma >= 1.0:
            raise ValueError(f"StepDecay(): argument 'gamma' must be below 1.0, got {gamma}")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class CosineAnnealingDecay(LRScheduler):
    """``eta_min + (learning_rate - eta_min) * (1 + cos(pi * epoch / T_max)) / 2``.

    The rate falls to ``eta_min`` at epoch ``T_max`` and then rises again
    (the cosine is periodic), as in Paddle.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.CosineAnnealingDecay(1.0, T_max=4, eta_min=0.1)
    >>> rates = []
    >>> for _ in range(5):
    ...     rates.append(round(sched(), 4)); sched.step()
    >>> rates
    [1.0, 0.8682, 0.55, 0.2318, 0.1]
    """

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        self.T_max = check_int(T_max, "CosineAnnealingDecay", "T_max", minimum=1)
        self.eta_min = check_number(eta_min, "CosineAnnealingDecay", "eta_min")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * (
            1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class LinearWarmup(LRScheduler):
    """Rise linearly from ``start_lr`` to ``end_lr`` over ``warmup_steps``, then follow
    ``learning_rate`` (a number, or a scheduler that is stepped from then on).

    >>> import pylayer
    >>> lr = pylayer.optimizer.lr
    >>> sched = lr.LinearWarmup(lr.StepDecay(0.5, 1, 0.5), warmup_steps=2, start_lr=0.1,
    ...                         end_lr=0.5)
    >>> rates = []
    >>> for _ in range(5):
    ...     rates.append(round(sched(), 4)); sched.step()
    >>> rates
    [0.1, 0.3, 0.5, 0.25, 0.125]
    """

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1,
                 verbose=False):
        fn = "LinearWarmup"
        if isinstance(learning_rate, LRScheduler):
            self.learning_rate = learning_rate
        else:
            self.learning_rate = check_number(learning_rate, fn, "learning_rate", minimum=0.0)
        self.warmup_steps = check_int(warmup_steps, fn, "warmup_steps", minimum=1)
        self.start_lr = check_number(start_lr, fn, "start_lr")
        self.end_lr = check_number(end_lr, fn, "end_lr")
        base = self.learning_rate() if isinstance(learning_rate, LRScheduler) else \
            self.learning_rate
        super().__init__(base, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            return self.start_lr + (self.end_lr - self.start_lr) * (
                self.last_epoch / self.warmup_steps)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate

    def state_dict(self):
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        super().set_state_dict(state_dict)
        if isinstance(self.learning_rate, LRScheduler) and "LinearWarmup_LR" in state_dict:
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])


class LambdaDecay(LRScheduler):
    """``learning_rate * lr_lambda(epoch)``.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.LambdaDecay(0.5, lambda epoch: 0.9 ** epoch)
    >>> sched.step(); sched.step()
    >>> round(sched(), 4)
    0.405
    """

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        self.lr_lambda = check_callable(lr_lambda, "LambdaDecay", "lr_lambda")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        factor = self.lr_lambda(self.last_epoch)
        return self.base_lr * check_number(factor, "LambdaDecay", "lr_lambda")


class ExponentialDecay(LRScheduler):
    """``learning_rate * gamma ** epoch``; ``gamma`` must be in (0, 1).

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.ExponentialDecay(0.5, gamma=0.9)
    >>> sched.step(2)
    >>> round(sched(), 6)
    0.405
    """

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = check_number(gamma, "ExponentialDecay", "gamma")
        if not 0.0 < self.gamma < 1.0:
            raise ValueError(f"ExponentialDecay(): argument 'gamma' must be in (0, 1) so that "
                             f"the rate decays, got {gamma}")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** self.last_epoch


class NaturalExpDecay(LRScheduler):
    """``learning_rate * exp(-gamma * epoch)``; ``gamma`` must be positive.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.NaturalExpDecay(0.5, gamma=0.5)
    >>> sched.step(2)
    >>> round(sched(), 6)
    0.18394
    """

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = check_number(gamma, "NaturalExpDecay", "gamma")
        if not self.gamma > 0.0:
            raise ValueError(f"NaturalExpDecay(): argument 'gamma' must be positive so that "
                             f"the rate decays, got {gamma}")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """``learning_rate / (1 + gamma * epoch)``.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.InverseTimeDecay(0.5, gamma=0.5)
    >>> sched.step(2)
    >>> sched()
    0.25
    """

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = check_number(gamma, "InverseTimeDecay", "gamma")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class MultiStepDecay(LRScheduler):
    """``learning_rate * gamma ** k`` after the ``k``-th of the increasing ``milestones``;
    ``gamma`` must be below 1.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.MultiStepDecay(0.5, milestones=[2, 4], gamma=0.5)
    >>> rates = []
    >>> for _ in range(6):
    ...     rates.append(sched()); sched.step()
    >>> rates
    [0.5, 0.5, 0.25, 0.25, 0.125, 0.125]
    """

    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        fn = "MultiStepDecay"
        if not isinstance(milestones, (list, tuple)):
            raise TypeError(f"{fn}(): argument 'milestones' must be a list or tuple of ints, "
                            f"got {describe(milestones)}")
        self.milestones = [check_int(m, fn, "milestones") for m in milestones]
        if any(a >= b for a, b in zip(self.milestones, self.milestones[1:])):
            raise ValueError(f"{fn}(): argument 'milestones' must be increasing, "
                             f"got {list(milestones)}")
        self.gamma = check_number(gamma, fn, "gamma")
        if self.gamma >= 1.0:
            raise ValueError(f"{fn}(): argument 'gamma' must be below 1.0, got {gamma}")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        passed = sum(1 for m in self.milestones if self.last_epoch >= m)
        return self.base_lr * self.gamma ** passed


class PiecewiseDecay(LRScheduler):
    """``values[i]`` while the epoch is below ``boundaries[i]`` (and the first such
    ``i``), then ``values[-1]``; ``values`` has one more item than ``boundaries``.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.PiecewiseDecay(boundaries=[2, 4], values=[1.0, 0.5, 0.1])
    >>> rates = []
    >>> for _ in range(5):
    ...     rates.append(sched()); sched.step()
    >>> rates
    [1.0, 1.0, 0.5, 0.5, 0.1]
    """

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        fn = "PiecewiseDecay"
        for arg, seq in (("boundaries", boundaries), ("values", values)):
            if not isinstance(seq, (list, tuple)):
                raise TypeError(f"{fn}(): argument '{arg}' must be a list or tuple, "
                                f"got {describe(seq)}")
        self.boundaries = [check_number(b, fn, "boundaries") for b in boundaries]
        self.values = [check_number(v, fn, "values") for v in values]
        if not self.boundaries:
            raise ValueError(f"{fn}(): argument 'boundaries' must not be empty")
        if len(self.values) <= len(self.boundaries):
            raise ValueError(f"{fn}(): argument 'values' must have one more item than "
                             f"'boundaries' ({len(self.boundaries) + 1}), got {len(self.values)}")
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        for boundary, value in zip(self.boundaries, self.values):
            if self.last_epoch < boundary:
                return value
        return self.values[-1]


class PolynomialDecay(LRScheduler):
    """``(learning_rate - end_lr) * (1 - epoch / decay_steps) ** power + end_lr``.

    Without ``cycle`` the epoch stops at ``decay_steps`` (the rate stays at
    ``end_lr``); with ``cycle`` the horizon grows to the next multiple of
    ``decay_steps``, so the rate jumps up and decays again.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.PolynomialDecay(0.5, decay_steps=4, end_lr=0.1)
    >>> rates = []
    >>> for _ in range(6):
    ...     rates.append(round(sched(), 6)); sched.step()
    >>> rates
    [0.5, 0.4, 0.3, 0.2, 0.1, 0.1]
    """

    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False,
                 last_epoch=-1, verbose=False):
        fn = "PolynomialDecay"
        self.decay_steps = check_int(decay_steps, fn, "decay_steps", minimum=1)
        self.end_lr = check_number(end_lr, fn, "end_lr")
        self.power = check_number(power, fn, "power")
        if not self.power > 0.0:
            raise ValueError(f"{fn}(): argument 'power' must be positive, got {power}")
        self.cycle = bool(cycle)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch, horizon = self.last_epoch, self.decay_steps
        if self.cycle:
            horizon *= max(1, math.ceil(epoch / self.decay_steps))
        else:
            epoch = min(epoch, horizon)
        return (self.base_lr - self.end_lr) * (1 - epoch / horizon) ** self.power + self.end_lr


class NoamDecay(LRScheduler):
    """The schedule of the Transformer paper:
    ``learning_rate * d_model ** -0.5 * min(epoch ** -0.5, epoch * warmup_steps ** -1.5)``
    (the first term is 1 at epoch 0).

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.NoamDecay(d_model=16, warmup_steps=4)
    >>> rates = []
    >>> for _ in range(6):
    ...     rates.append(round(sched(), 6)); sched.step()
    >>> rates
    [0.0, 0.03125, 0.0625, 0.09375, 0.125, 0.111803]
    """

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        self.d_model = check_number(d_model, "NoamDecay", "d_model")
        if not self.d_model > 0:
            raise ValueError(f"NoamDecay(): argument 'd_model' must be positive, got {d_model}")
        self.warmup_steps = check_number(warmup_steps, "NoamDecay", "warmup_steps")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        decay = 1 if self.last_epoch == 0 else self.last_epoch ** -0.5
        warmup = self.warmup_steps ** -1.5 * self.last_epoch
        return self.base_lr * self.d_model ** -0.5 * min(decay, warmup)


class MultiplicativeDecay(LRScheduler):
    """``learning_rate`` times ``lr_lambda(e)`` for every epoch ``e`` from 1 to the
    current one.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.MultiplicativeDecay(0.5, lambda epoch: 0.5)
    >>> sched.step(3)
    >>> sched()
    0.0625
    """

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        self.lr_lambda = check_callable(lr_lambda, "MultiplicativeDecay", "lr_lambda")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        rate = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            rate *= check_number(self.lr_lambda(epoch), "MultiplicativeDecay", "lr_lambda")
        return rate


class LinearLR(LRScheduler):
    """``learning_rate`` times a factor going linearly from ``start_factor`` (in (0, 1])
    to ``end_factor`` (in [0, 1]) over ``total_steps`` epochs, then staying there.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.LinearLR(0.5, total_steps=4, start_factor=0.2)
    >>> rates = []
    >>> for _ in range(6):
    ...     rates.append(round(sched(), 6)); sched.step()
    >>> rates
    [0.1, 0.2, 0.3, 0.4, 0.5, 0.5]
    """

    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0,
                 last_epoch=-1, verbose=False):
        fn = "LinearLR"
        self.total_steps = check_int(total_steps, fn, "total_steps", minimum=1)
        self.start_factor = check_number(start_factor, fn, "start_factor")
        self.end_factor = check_number(end_factor, fn, "end_factor")
        if not 0 < self.start_factor <= 1:
            raise ValueError(f"{fn}(): argument 'start_factor' must be in (0, 1], "
                             f"got {start_factor}")
        if not 0 <= self.end_factor <= 1:
            raise ValueError(f"{fn}(): argument 'end_factor' must be in [0, 1], got {end_factor}")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        done = min(self.last_epoch, self.total_steps) / self.total_steps
        return self.base_lr * (self.start_factor + (self.end_factor - self.start_factor) * done)


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from ``learning_rate`` to ``eta_min`` over ``T_0`` epochs, then
    restarting, each period ``T_mult`` times the previous one:
    ``eta_min + (learning_rate - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2``.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.CosineAnnealingWarmRestarts(1.0, T_0=2, T_mult=2)
    >>> rates = []
    >>> for _ in range(7):
    ...     rates.append(round(sched(), 4)); sched.step()
    >>> rates
    [1.0, 0.5, 1.0, 0.8536, 0.5, 0.1464, 1.0]
    """

    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        fn = "CosineAnnealingWarmRestarts"
        self.T_0 = check_int(T_0, fn, "T_0", minimum=1)
        self.T_i = self.T_0
        self.T_mult = check_int(T_mult, fn, "T_mult", minimum=1)
        self.eta_min = check_number(eta_min, fn, "eta_min")
        self.T_cur = check_int(last_epoch, fn, "last_epoch", minimum=-1)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * (
            1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch=None):
        """Move to the next epoch, or to ``epoch``, restarting the cosine at each period's end."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        else:
            epoch = check_int(epoch, "step", "epoch", minimum=0)
            if epoch < self.T_0:
                self.T_i, self.T_cur = self.T_0, epoch
            elif self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                # the period that holds epoch: T_0 * (T_mult ** n - 1) / (T_mult - 1) <= epoch
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        self.last_epoch = epoch
        self.last_lr = float(self.get_lr())
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")


class OneCycleLR(LRScheduler):
    """The one-cycle policy over ``total_steps`` steps: from
    ``max_learning_rate / divide_factor`` up to ``max_learning_rate`` during the
    first ``phase_pct`` of the steps, then down to ``end_learning_rate``; with
    ``three_phase``, down to the initial rate over as many steps first, then to
    ``end_learning_rate``. ``anneal_strategy`` is ``'cos'`` or ``'linear'``.
    Stepping beyond ``total_steps`` is a ``ValueError``.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.OneCycleLR(1.0, total_steps=5, phase_pct=0.4,
    ...     anneal_strategy='linear', end_learning_rate=0.0)
    >>> rates = []
    >>> for _ in range(5):
    ...     rates.append(round(sched(), 6)); sched.step()
    >>> rates
    [0.04, 1.0, 0.666667, 0.333333, 0.0]
    """

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0,
                 end_learning_rate=0.0001, phase_pct=0.3, anneal_strategy='cos',
                 three_phase=False, last_epoch=-1, verbose=False):
        fn = "OneCycleLR"
        top = check_number(max_learning_rate, fn, "max_learning_rate", minimum=0.0)
        end = check_number(end_learning_rate, fn, "end_learning_rate", minimum=0.0)
        self.total_steps = check_int(total_steps, fn, "total_steps", minimum=1)
        phase_pct = check_number(phase_pct, fn, "phase_pct", minimum=0.0, maximum=1.0)
        divide_factor = check_number(divide_factor, fn, "divide_factor")
        self.anneal_strategy = check_choice(anneal_strategy, fn, "anneal_strategy",
                                            ("cos", "linear"))
        self.three_phase = bool(three_phase)
        start = top / divide_factor
        last = self.total_steps - 1
        if self.three_phase:
            if phase_pct >= 0.5:
                raise ValueError(f"{fn}(): argument 'phase_pct' must be below 0.5 with "
                                 f"three_phase=True, got {phase_pct}")
            up, down = phase_pct * self.total_steps - 1, 2 * phase_pct * self.total_steps - 2
            self._phases = [(0, up, start, top), (up, down, top, start), (down, last, start, end)]
        else:
            up = phase_pct * self.total_steps - 1
            self._phases = [(0, up, start, top), (up, last, top, end)]
        super().__init__(start, last_epoch, verbose)

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"OneCycleLR: stepped to {step}, beyond its total_steps "
                             f"({self.total_steps})")
        for i, (begin, end, high, low) in enumerate(self._phases):
            if step <= end or i == len(self._phases) - 1:
                pct = (step - begin) / (end - begin)
                if self.anneal_strategy == "cos":
                    return low + (high - low) / 2.0 * (math.cos(math.pi * pct) + 1)
                return (low - high) * pct + high


class CyclicLR(LRScheduler):
    """A rate cycling between ``base_learning_rate`` and ``max_learning_rate``: up over
    ``step_size_up`` steps, down over ``step_size_down`` (default the same). The
    amplitude is scaled by ``mode``: ``'triangular'`` (constant),
    ``'triangular2'`` (halved each cycle) or ``'exp_range'`` (``exp_gamma ** step``),
    or by ``scale_fn`` of the cycle number (``scale_mode='cycle'``, from 1) or of
    the step (``'iterations'``).

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=2, mode='triangular2')
    >>> rates = []
    >>> for _ in range(8):
    ...     rates.append(round(sched(), 6)); sched.step()
    >>> rates
    [0.1, 0.55, 1.0, 0.55, 0.1, 0.325, 0.55, 0.325]
    """

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None,
                 mode='triangular', exp_gamma=1.0, scale_fn=None, scale_mode='cycle',
                 last_epoch=-1, verbose=False):
        fn = "CyclicLR"
        self.max_lr = check_number(max_learning_rate, fn, "max_learning_rate", minimum=0.0)
        up = check_int(step_size_up, fn, "step_size_up", minimum=1)
        down = check_int(step_size_down, fn, "step_size_down", minimum=1, allow_none=True)
        down = up if down is None else down
        self.gamma = check_number(exp_gamma, fn, "exp_gamma")
        self.cycle_size = float(up + down)
        self.step_up_pct = up / self.cycle_size
        self.amplitude = self.max_lr - check_number(base_learning_rate, fn, "base_learning_rate",
                                                    minimum=0.0)
        self.scale_fn = check_callable(scale_fn, fn, "scale_fn", allow_none=True)
        if self.scale_fn is None:
            self.mode = check_choice(mode, fn, "mode", ("triangular", "triangular2", "exp_range"))
            self.scale_mode = "iterations" if self.mode == "exp_range" else "cycle"
        else:
            self.mode = mode
            self.scale_mode = check_choice(scale_mode, fn, "scale_mode", ("cycle", "iterations"))
        super().__init__(base_learning_rate, last_epoch, verbose)

    def _scale(self, x):
        if self.scale_fn is not None:
            return check_number(self.scale_fn(x), "CyclicLR", "scale_fn")
        if self.mode == "triangular2":
            return 1 / 2.0 ** (x - 1)
        if self.mode == "exp_range":
            return self.gamma ** x
        return 1.0

    def get_lr(self):
        steps = self.last_epoch
        cycle = 1 + steps // self.cycle_size
        pct = 1.0 + steps / self.cycle_size - cycle
        if pct <= self.step_up_pct:
            height = pct / self.step_up_pct
        else:
            height = (1 - pct) / (1 - self.step_up_pct)
        x = cycle if self.scale_mode == "cycle" else steps
        return self.base_lr + self.amplitude * height * self._scale(x)


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by ``factor`` (below 1) when a metric has not improved for
    more than ``patience`` calls of ``step(metrics)``, then wait ``cooldown`` calls.

    ``mode='min'`` wants the metric to fall, ``'max'`` to rise; an improvement must
    beat the best value by ``threshold``, relative (``threshold_mode='rel'``) or
    absolute (``'abs'``). The rate never goes below ``min_lr``, and a change smaller
    than ``epsilon`` is not made. Unlike the other schedules, ``step`` takes the
    metric (a number, or a one-element array or Tensor) and the scheduler starts at
    epoch 0. ``state_dict()`` also holds ``cooldown_counter``, ``best`` and
    ``num_bad_epochs``.

    >>> import pylayer
    >>> sched = pylayer.optimizer.lr.ReduceOnPlateau(1.0, patience=1, factor=0.5)
    >>> rates = []
    >>> for loss in [3.0, 2.0, 2.5, 2.5, 2.5, 1.0]:
    ...     sched.step(loss); rates.append(sched())
    >>> rates
    [1.0, 1.0, 1.0, 0.5, 0.5, 0.5]
    """

    def __init__(self, learning_rate, mode='min', factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode='rel', cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        fn = "ReduceOnPlateau"
        self.mode = check_choice(mode.lower() if isinstance(mode, str) else mode, fn, "mode",
                                 ("min", "max"))
        self.factor = check_number(factor, fn, "factor")
        if self.factor >= 1.0:
            raise ValueError(f"{fn}(): argument 'factor' must be below 1.0, got {factor}")
        self.threshold_mode = check_choice(
            threshold_mode.lower() if isinstance(threshold_mode, str) else threshold_mode, fn,
            "threshold_mode", ("rel", "abs"))
        self.base_lr = check_number(learning_rate, fn, "learning_rate", minimum=0.0)
        self.patience = check_int(patience, fn, "patience", minimum=0)
        self.threshold = check_number(threshold, fn, "threshold")
        self.cooldown = check_int(cooldown, fn, "cooldown", minimum=0)
        self.min_lr = check_number(min_lr, fn, "min_lr")
        self.epsilon = check_number(epsilon, fn, "epsilon")
        self.verbose = bool(verbose)
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        self.last_lr = self.base_lr
        self.last_epoch = 0

    def _better(self, current):
        if self.mode == "min":
            margin = self.best * self.threshold if self.threshold_mode == "rel" else self.threshold
            return current < self.best - margin
        margin = self.best * self.threshold if self.threshold_mode == "rel" else self.threshold
        return current > self.best + margin

    def step(self, metrics, epoch=None):
        """Take the epoch's metric and reduce the rate if it has stopped improving."""
        if isinstance(metrics, Tensor):
            metrics = metrics.numpy()
        if isinstance(metrics, np.ndarray):
            if metrics.size != 1:
                raise ValueError(f"step(): argument 'metrics' must hold one value (take the "
                                 f"mean first), got {metrics.size} values")
            metrics = metrics.reshape(()).item()
        metrics = check_number(metrics, "step", "metrics")
        self.last_epoch = (self.last_epoch + 1 if epoch is None
                           else check_int(epoch, "step", "epoch", minimum=0))
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._better(metrics):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            reduced = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - reduced > self.epsilon:
                self.last_lr = reduced
                if self.verbose:
                    print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate "
                          f"to {self.last_lr}.")

    def state_dict(self):
        """The base state and ``cooldown_counter``, ``best`` and ``num_bad_epochs``."""
        return {"cooldown_counter": self.cooldown_counter, "best": self.best,
                "num_bad_epochs": self.num_bad_epochs, **super().state_dict()}

    def set_state_dict(self, state_dict):
        """Restore what :meth:`state_dict` returned."""
        super().set_state_dict(state_dict)
        keys = ("cooldown_counter", "best", "num_bad_epochs")
        if not set(keys) <= set(state_dict):
            raise TypeError(f"set_state_dict(): argument 'state_dict' must also hold {keys} "
                            f"(what ReduceOnPlateau.state_dict() returned)")
        self.cooldown_counter = check_int(state_dict["cooldown_counter"], "set_state_dict",
                                          "state_dict", minimum=0)
        self.best = check_number(state_dict["best"], "set_state_dict", "state_dict",
                                 allow_none=True)
        self.num_bad_epochs = check_int(state_dict["num_bad_epochs"], "set_state_dict",
                                        "state_dict", minimum=0)
