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

from pylayer.extend import check_callable, check_int, check_number, describe, public_settings_repr

__all__ = ["LRScheduler", "StepDecay", "CosineAnnealingDecay", "LinearWarmup", "LambdaDecay"]


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
