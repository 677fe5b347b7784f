"""Paddle's optimizers of ``paddle.incubate``: :class:`LookAhead`, which wraps another
optimizer, and :class:`ModelAverage`, which keeps a running average of the parameters
to evaluate with. Both keep their state per parameter, under Paddle's state-dict keys."""
import contextlib

import numpy as np

from pylayer.autograd import no_grad
from pylayer.extend import Tensor, check_number, describe
from pylayer.optimizer import Optimizer

__all__ = ["LookAhead", "ModelAverage"]


class LookAhead(Optimizer):
    """Paddle's Lookahead: ``inner_optimizer`` updates the parameters (the fast weights)
    at every step, and every ``k`` steps they are pulled back towards slow weights::

        slow = param                                # after the first step
        param = slow = alpha * param + (1 - alpha) * slow      # every k-th step

    Only the parameters with a gradient take part, as in Paddle; a parameter whose
    first gradient arrives after the first step starts from slow weights of zeros,
    as in Paddle. The state per parameter is ``slow`` (``state_dict()`` keys such as
    ``linear_0.w_0_slow_0``); the count of steps is not saved, as in Paddle.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float64', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> sgd = pylayer.optimizer.SGD(learning_rate=0.1, parameters=[w])
    >>> opt = pylayer.incubate.LookAhead(sgd, alpha=0.5, k=2)
    >>> for _ in range(2):
    ...     (w * 2.0).sum().backward(); opt.step(); opt.clear_grad()
    >>> w.numpy().round(6)         # SGD gives 0.8, 0.6; pulled back half-way to 0.8
    array([0.7])
    """

    def __init__(self, inner_optimizer, alpha=0.5, k=5, name=None):
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError(f"LookAhead(): argument 'inner_optimizer' must be an optimizer of "
                            f"pylayer.optimizer, got {describe(inner_optimizer)}")
        alpha = check_number(alpha, "LookAhead", "alpha")
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"LookAhead(): argument 'alpha' must be in [0, 1], got {alpha}")
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise TypeError(f"LookAhead(): argument 'k' must be a positive int, got "
                            f"{describe(k)}")
        if k <= 0:
            raise ValueError(f"LookAhead(): argument 'k' must be a positive int, got {k}")
        if inner_optimizer._parameter_list is None:
            raise ValueError("LookAhead(): the inner optimizer has no parameters; make it with "
                             "parameters=model.parameters()")
        super().__init__(alpha, inner_optimizer._parameter_list, None, None, name)
        self.inner_optimizer = inner_optimizer
        self.alpha = alpha
        self.k = int(k)
        self.type = "lookahead"
        self._steps = 0

    def _settings(self):
        return {"alpha": self.alpha, "k": self.k}

    def _update_array(self, param, grad, state, lr):
        if "slow" not in state:
            state["slow"] = np.zeros_like(param)
        if self._steps == 1:
            state["slow"] = np.array(param, copy=True)
        if self._steps % self.k == 0:
            blended = (self.alpha * param + (1.0 - self.alpha) * state["slow"]).astype(
                param.dtype, copy=False)
            param[...] = blended
            state["slow"] = np.array(blended, copy=True)

    def step(self):
        """One step of the inner optimizer, then, every ``k`` steps, the pull towards the
        slow weights."""
        self.inner_optimizer.step()
        self._steps += 1
        self._apply_gradients(self._params_grads())

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """The inner optimizer's ``minimize`` (with the gradients already computed), then
        the Lookahead step; returns what the inner optimizer returned."""
        result = self.inner_optimizer.minimize(loss, startup_program, parameters, no_grad_set)
        self._steps += 1
        self._apply_gradients(self._params_grads(parameters, no_grad_set))
        return result


# Paddle moves the running sum into a second sum every this many updates, to keep the
# rounding of a long float32 sum small.
_FOLD_EVERY = 16384


class ModelAverage(Optimizer):
    """Paddle's ModelAverage: after each step of the training optimizer, ``step()`` adds
    the parameters to running sums; :meth:`apply` sets them to the average over the
    recent updates (for evaluation) and :meth:`restore` puts the trained values back.

    The window restarts (the sums move to ``sum_3``, the count to
    ``old_num_accumulates``) once it holds at least ``min_average_window`` updates and
    at least ``min(max_average_window, num_updates * average_window_rate)``; the
    average is over that window and the current one. The state per parameter is
    ``sum_1``, ``sum_2``, ``sum_3``, ``restore``, ``num_accumulates``,
    ``old_num_accumulates`` and ``num_updates``, under Paddle's ``state_dict()`` keys.

    >>> import pylayer
    >>> w = pylayer.create_parameter([1], 'float32', default_initializer=pylayer.nn.initializer.Constant(1.0))
    >>> sgd = pylayer.optimizer.SGD(learning_rate=0.5, parameters=[w])
    >>> average = pylayer.incubate.ModelAverage(0.5, parameters=[w], min_average_window=2,
    ...                                         max_average_window=10)
    >>> for _ in range(3):
    ...     w.sum().backward(); sgd.step(); average.step(); sgd.clear_grad()
    >>> with average.apply():
    ...     print(w.numpy())           # the mean of 0.5, 0, -0.5
    [0.]
    >>> w.numpy()
    array([-0.5], dtype=float32)
    """

    def __init__(self, average_window_rate, parameters=None, min_average_window=10000,
                 max_average_window=10000, name=None):
        super().__init__(0.0, parameters, None, None, name)
        self.average_window = check_number(average_window_rate, "ModelAverage",
                                           "average_window_rate")
        for arg, value in (("min_average_window", min_average_window),
                           ("max_average_window", max_average_window)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"ModelAverage(): argument '{arg}' must be an int, got "
                                f"{describe(value)}")
        self.min_average_window = int(min_average_window)
        self.max_average_window = int(max_average_window)
        self.type = "average_accumulates"

    def _settings(self):
        return {"average_window_rate": self.average_window,
                "min_average_window": self.min_average_window,
                "max_average_window": self.max_average_window}

    @staticmethod
    def _fresh(param, state):
        for key in ("sum_1", "sum_2", "sum_3", "restore"):
            if key not in state:
                state[key] = np.zeros_like(param)
        for key in ("num_accumulates", "old_num_accumulates", "num_updates"):
            if key not in state:
                state[key] = np.zeros([1], dtype=np.int64)

    def _update_array(self, param, grad, state, lr):
        self._fresh(param, state)
        state["num_updates"] = state["num_updates"] + 1
        state["num_accumulates"] = state["num_accumulates"] + 1
        state["sum_1"] = state["sum_1"] + param
        updates, window = int(state["num_updates"][0]), int(state["num_accumulates"][0])
        if updates % _FOLD_EVERY == 0:
            state["sum_2"] = state["sum_2"] + state["sum_1"]
            state["sum_1"] = np.zeros_like(param)
        if window >= self.min_average_window and window >= min(
                self.max_average_window, updates * self.average_window):
            state["sum_3"] = state["sum_1"] + state["sum_2"]
            state["sum_1"] = np.zeros_like(param)
            state["sum_2"] = np.zeros_like(param)
            state["old_num_accumulates"] = state["num_accumulates"]
            state["num_accumulates"] = np.zeros([1], dtype=np.int64)

    def step(self):
        """Add the parameters that have a gradient to the running sums (the state of
        every parameter is created at the first step, as in Paddle)."""
        for param in self._parameters():
            self._fresh(param.numpy(), self._state_for(param))
        with no_grad():
            for param, _ in self._params_grads():
                self._update_array(param.numpy(), None, self._state_for(param), 0.0)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """The same as :meth:`step` (the gradients are already computed); returns None."""
        if not isinstance(loss, Tensor):
            raise TypeError(f"minimize(): argument 'loss' must be a Tensor, got "
                            f"{describe(loss)}")
        self.step()

    @contextlib.contextmanager
    def apply(self, executor=None, need_restore=True):
        """A context manager that sets every parameter to its average (computed in
        float32, as in Paddle) and, with ``need_restore`` (default), restores the trained
        values when the block ends. ``executor`` is for static mode and ignored here.
        A parameter that has no update yet averages 0 / 0 (NaN), as in Paddle."""
        with no_grad():
            for param in self._parameters():
                array = param.numpy()
                state = self._state_for(param)
                self._fresh(array, state)
                state["restore"] = np.array(array, copy=True)
                total = (state["sum_1"] + state["sum_2"] + state["sum_3"]).astype(np.float32)
                count = np.float32(state["num_accumulates"][0] +
                                   state["old_num_accumulates"][0])
                with np.errstate(divide="ignore", invalid="ignore"):
                    param._set_array_inplace((total / count).astype(array.dtype))
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor=None):
        """Put back the parameter values saved by :meth:`apply`."""
        with no_grad():
            for param in self._parameters():
                state = self._state_for(param)
                if "restore" in state:
                    param._set_array_inplace(np.array(state["restore"], copy=True))
