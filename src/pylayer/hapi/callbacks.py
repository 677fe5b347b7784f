"""Paddle's ``paddle.callbacks``: the hooks :class:`pylayer.Model` calls during
``fit``, ``evaluate`` and ``predict``.

A :class:`Callback` receives ``on_train_begin`` / ``on_epoch_begin`` /
``on_train_batch_begin`` / ``on_train_batch_end`` / ``on_epoch_end`` /
``on_eval_begin`` / ... / ``on_train_end`` with a ``logs`` dict (the loss of the
last batch, the metrics accumulated so far, ``step`` and ``batch_size``).
``Model.fit`` always adds a :class:`ProgBarLogger` (when ``verbose``), a
:class:`ModelCheckpoint` and an :class:`LRScheduler` unless one is given.
"""
import numbers
import os
import shutil
import sys
import time
import warnings

import numpy as np

from pylayer.extend import check_int, check_number, check_str, settings_repr
from pylayer.optimizer.lr import LRScheduler as _Schedule

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "LRScheduler", "EarlyStopping",
           "ReduceLROnPlateau"]

def _format_value(value):
    """A logged value as the progress bar shows it (4 decimals, or 4 significant in e form)."""
    if isinstance(value, np.ndarray) and value.size == 1 and \
            value.dtype in (np.float32, np.float64):
        value = value.item()
    if isinstance(value, (float, np.floating)):
        return f"{value:.4f}" if abs(value) > 1e-3 else f"{value:.4e}"
    return f"{value}"


class _ProgressBar:
    """The line Paddle prints per step: ``step 2/3 [===>...] - loss: 0.6019 - ETA: 0s - 40ms/step``
    (``verbose=1``, redrawn in place) or ``step 2/3 - loss: 0.6019 - 40ms/step`` (2 and 3)."""

    def __init__(self, num=None, verbose=1, name="step"):
        if isinstance(num, int) and num <= 0:
            raise TypeError("num should be None or integer (> 0)")
        columns = shutil.get_terminal_size().columns
        columns = columns if columns > 0 else 80
        self._num = num
        self._width = min(30, min(int(columns * 0.6), columns - 50))
        self._verbose = verbose
        self._name = name
        self._total_width = 0
        self._start = time.time()
        self._in_place = os.name == "posix" or getattr(sys.stdout, "isatty", lambda: False)()

    def _rate(self, current):
        per_step = (time.time() - self._start) / current if current else 0
        if per_step >= 1 or per_step == 0:
            return per_step, f" - {per_step:.0f}s/{self._name}"
        if per_step >= 1e-3:
            return per_step, f" - {per_step * 1e3:.0f}ms/{self._name}"
        return per_step, f" - {per_step * 1e6:.0f}us/{self._name}"

    @staticmethod
    def _values(values):
        text = ""
        for key, value in values:
            text += f" - {key}:"
            for item in (value if isinstance(value, list) else [value]):
                text += f" {_format_value(item)}"
        return text

    def _count(self, current):
        if self._num:
            digits = int(np.log10(self._num)) + 1
            return f"{self._name} {current:{digits}d}/{self._num}"
        return f"{self._name} {current:3}"

    def update(self, current, values=()):
        per_step, rate = self._rate(current)
        out = sys.stdout
        if self._verbose != 1:
            out.write(self._count(current) + self._values(values) + rate + "\n")
            out.flush()
            return
        previous = self._total_width
        out.write("\b" * previous + "\r" if self._in_place else "\n")
        bar = self._count(current)
        if self._num is not None:
            filled = int(self._width * current / self._num)
            bar += " ["
            if filled > 0:
                bar += "=" * (filled - 1) + (">" if current < self._num else "=")
            bar += "." * (self._width - filled) + "]"
        info = self._values(values)
        if self._num is not None and current < self._num:
            eta = int(per_step * (self._num - current))
            if eta > 3600:
                info += f" - ETA: {eta // 3600}:{(eta % 3600) // 60:02}:{eta % 60:02}"
            elif eta > 60:
                info += f" - ETA: {eta // 60}:{eta % 60:02}"
            else:
                info += f" - ETA: {eta}s"
        info += rate
        self._total_width = len(bar) + len(info)
        if previous > self._total_width:
            info += " " * (previous - self._total_width)
        if self._num is None or current >= self._num:
            info += "\n"
        out.write(bar + info)
        out.flush()


class Callback:
    """The base of the callbacks: every hook does nothing; a subclass overrides
    the ones it needs. ``self.model`` is the :class:`pylayer.Model` and
    ``self.params`` a dict with ``batch_size``, ``epochs``, ``steps``,
    ``verbose`` and ``metrics`` (the names logged: ``loss`` and each metric's).

    >>> import pylayer
    >>> class Epochs(pylayer.callbacks.Callback):
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         print("epoch", epoch, "ended, loss", round(logs["loss"][0], 1))
    >>> Epochs().on_epoch_end(0, {"loss": [0.52]})
    epoch 0 ended, loss 0.5
    """

    def __init__(self):
        self.model = None
        self.params = {}

    def _settings(self):
        return {}

    def __repr__(self):
        return settings_repr(self, self._settings())

    def set_params(self, params):
        """Keep the run's settings (a dict) as ``self.params``."""
        if not isinstance(params, dict):
            raise TypeError(f"set_params(): argument 'params' must be a dict, got "
                            f"{type(params).__name__}")
        self.params = params

    def set_model(self, model):
        """Keep the :class:`pylayer.Model` the callback serves as ``self.model``."""
        self.model = model

    def on_train_begin(self, logs=None):
        """Called once when ``fit`` starts."""

    def on_train_end(self, logs=None):
        """Called once when ``fit`` ends, with the last epoch's logs."""

    def on_eval_begin(self, logs=None):
        """Called when an evaluation starts; ``logs`` has ``steps`` and ``metrics``."""

    def on_eval_end(self, logs=None):
        """Called when an evaluation ends, with its loss and metrics."""

    def on_predict_begin(self, logs=None):
        """Called when ``predict`` starts; ``logs`` has ``steps``."""

    def on_predict_end(self, logs=None):
        """Called when ``predict`` ends."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of each training epoch (``epoch`` counts from 0)."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of each training epoch, with its logs."""

    def on_train_batch_begin(self, step, logs=None):
        """Called before each training step."""

    def on_train_batch_end(self, step, logs=None):
        """Called after each training step, with its loss and the metrics so far."""

    def on_eval_batch_begin(self, step, logs=None):
        """Called before each evaluation step."""

    def on_eval_batch_end(self, step, logs=None):
        """Called after each evaluation step."""

    def on_predict_batch_begin(self, step, logs=None):
        """Called before each prediction step."""

    def on_predict_batch_end(self, step, logs=None):
        """Called after each prediction step."""


class _CallbackList:
    """The callbacks of one run, called in order."""

    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params):
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model):
        for callback in self.callbacks:
            callback.set_model(model)

    def _call(self, name, *args):
        for callback in self.callbacks:
            getattr(callback, name)(*args)

    def on_begin(self, mode, logs=None):
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode, logs=None):
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode, step, logs=None):
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode, step, logs=None):
        self._call(f"on_{mode}_batch_end", step, logs)


def _callback_list(fn, callbacks, model, epochs=None, steps=None, log_freq=2, verbose=2,
                   save_freq=1, save_dir=None, metrics=None):
    """The callbacks of a run as Paddle arranges them: a ProgBarLogger first (when
    ``verbose`` and none is given), then the user's, a ModelCheckpoint and an
    LRScheduler unless given."""
    given = callbacks if isinstance(callbacks, (list, tuple)) else \
        ([] if callbacks is None else [callbacks])
    for i, callback in enumerate(given):
        if not isinstance(callback, Callback):
            raise TypeError(f"{fn}(): argument 'callbacks' must be a Callback or a list of "
                            f"Callbacks, got {type(callback).__name__}"
                            + (f" at index {i}" if isinstance(callbacks, (list, tuple)) else ""))
    chosen = list(given)
    if verbose and not any(isinstance(c, ProgBarLogger) for c in chosen):
        chosen.insert(0, ProgBarLogger(log_freq, verbose=verbose))
    if not any(isinstance(c, ModelCheckpoint) for c in chosen):
        chosen.append(ModelCheckpoint(save_freq, save_dir))
    for callback in chosen:
        if isinstance(callback, EarlyStopping):
            callback.save_dir = save_dir
    if not any(isinstance(c, LRScheduler) for c in chosen):
        chosen.append(LRScheduler())
    result = _CallbackList(chosen)
    result.set_model(model)
    result.set_params({"batch_size": None, "epochs": epochs, "steps": steps,
                       "verbose": verbose, "metrics": list(metrics or [])})
    return result


class ProgBarLogger(Callback):
    """Prints the progress of ``fit``, ``evaluate`` and ``predict`` as Paddle does:
    ``Epoch 1/2``, then every ``log_freq`` steps a line
    ``step 2/3 - loss: 0.6019 - acc: 0.5938 - 40ms/step`` (the loss of that step,
    the metrics averaged over the epoch so far). ``verbose``: 0 prints nothing,
    1 one bar redrawn in place, 2 a line per logged step, 3 also the reader and
    batch times and the samples per second.

    >>> import pylayer
    >>> logger = pylayer.callbacks.ProgBarLogger(log_freq=10, verbose=2)
    >>> logger.log_freq, logger.verbose
    (10, 2)
    """

    def __init__(self, log_freq=1, verbose=2):
        super().__init__()
        self.log_freq = check_int(log_freq, "ProgBarLogger", "log_freq", minimum=1)
        self.verbose = check_int(verbose, "ProgBarLogger", "verbose", minimum=0)
        self.epochs = None
        self.steps = None
        self.progbar = None

    def _settings(self):
        return {"log_freq": self.log_freq, "verbose": self.verbose}

    def _new_timer(self):
        return {"data_time": 0.0, "batch_time": 0.0, "count": 0, "samples": 0,
                "batch_start_time": time.time()}

    def _updates(self, logs, mode):
        logs = logs or {}
        values = [(k, logs[k]) for k in getattr(self, f"{mode}_metrics") if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            count = timer["count"] or 1.0
            samples = timer["samples"] or 1.0
            spent = timer["data_time"] + timer["batch_time"]
            values.append(("avg_reader_cost", f"{timer['data_time'] / count:.5f} sec"))
            values.append(("avg_batch_cost", f"{timer['batch_time'] / count:.5f} sec"))
            values.append(("ips", f"{samples / spent if spent else 0.0:.5f} samples/sec"))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, mode):
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, mode, logs, total):
        logs = logs or {}
        step = getattr(self, f"{mode}_step") + 1
        setattr(self, f"{mode}_step", step)
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += logs.get("batch_size", 1)
        if self.verbose and step % self.log_freq == 0 and (total is None or step < total):
            self._updates(logs, mode)
        timer["batch_start_time"] = time.time()
        return logs.get("batch_size", 1)

    def on_train_begin(self, logs=None):
        """Print the note on what the logged loss and metrics mean."""
        self.epochs = self.params.get("epochs")
        self.train_metrics = self.params.get("metrics", [])
        self._train_timer = self._new_timer()
        if self.verbose:
            print("The loss value printed in the log is the current step, and the metric is "
                  "the average value of previous steps.")

    def on_epoch_begin(self, epoch=None, logs=None):
        """Print ``Epoch i/n`` and start the epoch's bar."""
        self.steps = self.params.get("steps")
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self.verbose:
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = _ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def on_train_batch_begin(self, step, logs=None):
        """Time the data loading of the step."""
        self._batch_begin("train")

    def on_train_batch_end(self, step, logs=None):
        """Print the step's line every ``log_freq`` steps (the last step at the epoch's end)."""
        self._batch_end("train", logs, self.steps)

    def on_epoch_end(self, epoch, logs=None):
        """Print the epoch's last line."""
        if self.verbose and self.steps is not None:
            self._updates(logs, "train")

    def on_eval_begin(self, logs=None):
        """Print ``Eval begin...`` and start the evaluation's bar."""
        logs = logs or {}
        self.eval_steps = logs.get("steps")
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        self._eval_timer = self._new_timer()
        self.eval_progbar = _ProgressBar(num=self.eval_steps, verbose=self.verbose)
        if self.verbose:
            print("Eval begin...")
        self._eval_timer["batch_start_time"] = time.time()

    def on_eval_batch_begin(self, step, logs=None):
        """Time the data loading of the step."""
        self._batch_begin("eval")

    def on_eval_batch_end(self, step, logs=None):
        """Count the samples and print the step's line every ``log_freq`` steps."""
        self.evaled_samples += self._batch_end("eval", logs, self.eval_steps)

    def on_eval_end(self, logs=None):
        """Print the evaluation's last line and ``Eval samples: n``."""
        if self.verbose and self.eval_steps is not None:
            self._updates(logs, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_begin(self, logs=None):
        """Print ``Predict begin...`` and start the prediction's bar."""
        logs = logs or {}
        self.test_steps = logs.get("steps")
        self.test_metrics = logs.get("metrics", [])
        self.test_step = 0
        self.tested_samples = 0
        self._test_timer = self._new_timer()
        self.test_progbar = _ProgressBar(num=self.test_steps, verbose=self.verbose)
        if self.verbose:
            print("Predict begin...")
        self._test_timer["batch_start_time"] = time.time()

    def on_predict_batch_begin(self, step, logs=None):
        """Time the data loading of the step."""
        self._batch_begin("test")

    def on_predict_batch_end(self, step, logs=None):
        """Count the samples and print the step's line every ``log_freq`` steps."""
        self.tested_samples += self._batch_end("test", logs, self.test_steps)

    def on_predict_end(self, logs=None):
        """Print the last line and ``Predict samples: n``."""
        if self.verbose:
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves the model (``Model.save``) every ``save_freq`` epochs as
    ``save_dir/<epoch>`` and at the end of training as ``save_dir/final``;
    nothing is saved when ``save_dir`` is None.

    >>> import pylayer
    >>> checkpoint = pylayer.callbacks.ModelCheckpoint(save_freq=2, save_dir="ckpt")
    >>> checkpoint.save_freq, checkpoint.save_dir
    (2, 'ckpt')
    """

    def __init__(self, save_freq=1, save_dir=None):
        super().__init__()
        self.save_freq = check_int(save_freq, "ModelCheckpoint", "save_freq", minimum=1)
        self.save_dir = check_str(save_dir, "ModelCheckpoint", "save_dir", allow_none=True)

    def _settings(self):
        return {"save_freq": self.save_freq, "save_dir": self.save_dir}

    def _is_save(self):
        return self.model is not None and bool(self.save_dir)

    def on_epoch_begin(self, epoch=None, logs=None):
        """Remember the epoch."""
        self.epoch = epoch

    def on_epoch_end(self, epoch, logs=None):
        """Save ``save_dir/<epoch>`` every ``save_freq`` epochs."""
        if self._is_save() and self.epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs=None):
        """Save ``save_dir/final``."""
        if self._is_save():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


def _scheduler_of(model):
    optimizer = getattr(model, "_optimizer", None) if model is not None else None
    schedule = getattr(optimizer, "_learning_rate", None)
    return schedule if isinstance(schedule, _Schedule) else None


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate schedule (a
    :class:`pylayer.optimizer.lr.LRScheduler`) after every training step
    (``by_step=True``, the default) or after every epoch (``by_epoch=True``);
    does nothing when the learning rate is a number.

    >>> import pylayer
    >>> callback = pylayer.callbacks.LRScheduler(by_step=False, by_epoch=True)
    >>> callback.by_step, callback.by_epoch
    (False, True)
    """

    def __init__(self, by_step=True, by_epoch=False):
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step = bool(by_step)
        self.by_epoch = bool(by_epoch)

    def _settings(self):
        return {"by_step": self.by_step, "by_epoch": self.by_epoch}

    def on_epoch_end(self, epoch, logs=None):
        """Step the schedule when ``by_epoch``."""
        schedule = _scheduler_of(self.model)
        if self.by_epoch and schedule is not None:
            schedule.step()

    def on_train_batch_end(self, step, logs=None):
        """Step the schedule when ``by_step``."""
        schedule = _scheduler_of(self.model)
        if self.by_step and schedule is not None:
            schedule.step()


def _monitor_mode(fn, mode):
    if not isinstance(mode, str) or mode not in ("auto", "min", "max"):
        warnings.warn(f"{fn} mode {mode} is unknown, fallback to auto mode.")
        return "auto"
    return mode


def _current(logs, monitor, fn):
    """The monitored value of an evaluation's logs, or None (with Paddle's warning)."""
    if logs is None or monitor not in logs:
        warnings.warn(f"Monitor of {fn} should be loss or metric name.")
        return None
    current = logs[monitor]
    if isinstance(current, (list, tuple)):
        return current[0]
    return current if isinstance(current, numbers.Number) else None


class EarlyStopping(Callback):
    """Stops ``fit`` when the monitored value of the evaluation (``loss`` or a
    metric's name) has not improved by more than ``min_delta`` for ``patience``
    evaluations. ``mode`` ``'min'``/``'max'`` says which way is better;
    ``'auto'`` means larger is better when the name contains ``acc``. With
    ``save_best_model`` and ``fit``'s ``save_dir``, the best model is saved as
    ``save_dir/best_model``. ``baseline`` is the value to beat at the start.

    >>> import pylayer
    >>> stop = pylayer.callbacks.EarlyStopping(monitor="acc", patience=2)
    >>> stop.patience, stop.min_delta
    (2, 0.0)
    """

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0,
                 baseline=None, save_best_model=True):
        super().__init__()
        fn = "EarlyStopping"
        self.monitor = check_str(monitor, fn, "monitor")
        self.patience = check_int(patience, fn, "patience", minimum=0)
        self.verbose = check_int(verbose, fn, "verbose", minimum=0)
        self.baseline = check_number(baseline, fn, "baseline", allow_none=True)
        self.min_delta = abs(check_number(min_delta, fn, "min_delta"))
        self.save_best_model = bool(save_best_model)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_dir = None
        self.mode = _monitor_mode(fn, mode)
        greater = self.mode == "max" or (self.mode == "auto" and "acc" in self.monitor)
        self.monitor_op = np.greater if greater else np.less
        if not greater:
            self.min_delta *= -1

    def _settings(self):
        return {"monitor": self.monitor, "mode": self.mode, "patience": self.patience,
                "verbose": self.verbose, "min_delta": abs(self.min_delta),
                "baseline": self.baseline, "save_best_model": self.save_best_model}

    def on_train_begin(self, logs=None):
        """Reset the count of evaluations without improvement and the best value."""
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op is np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs=None):
        """Compare the evaluation with the best so far; stop training after ``patience``
        evaluations without improvement."""
        current = _current(logs, self.monitor, "EarlyStopping")
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    best = os.path.abspath(os.path.join(self.save_dir, "best_model"))
                    print(f"Best checkpoint has been saved at {best}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by ``factor`` (not below ``min_lr``) when the
    monitored value of the evaluation has not improved by ``min_delta`` for
    ``patience`` evaluations, then waits ``cooldown`` evaluations. The
    optimizer's learning rate must be a number (Paddle warns and does nothing for
    a schedule).

    >>> import pylayer
    >>> reduce = pylayer.callbacks.ReduceLROnPlateau(patience=3, factor=0.5)
    >>> reduce.factor, reduce.patience
    (0.5, 3)
    """

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        fn = "ReduceLROnPlateau"
        self.monitor = check_str(monitor, fn, "monitor")
        self.factor = check_number(factor, fn, "factor")
        if self.factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.min_lr = check_number(min_lr, fn, "min_lr")
        self.min_delta = check_number(min_delta, fn, "min_delta")
        self.patience = check_int(patience, fn, "patience", minimum=0)
        self.verbose = check_int(verbose, fn, "verbose", minimum=0)
        self.cooldown = check_int(cooldown, fn, "cooldown", minimum=0)
        self.mode = mode
        self.epoch = 0
        self._reset()

    def _settings(self):
        return {"monitor": self.monitor, "factor": self.factor, "patience": self.patience,
                "verbose": self.verbose, "mode": self.mode, "min_delta": self.min_delta,
                "cooldown": self.cooldown, "min_lr": self.min_lr}

    def _reset(self):
        self.mode = _monitor_mode("Learning rate reduction", self.mode)
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def in_cooldown(self):
        """Whether the callback is waiting after a reduction."""
        return self.cooldown_counter > 0

    def on_train_begin(self, logs=None):
        """Reset the best value and the counters."""
        self._reset()

    def on_eval_end(self, logs=None):
        """Compare the evaluation with the best so far; reduce the learning rate after
        ``patience`` evaluations without improvement."""
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.")
            return
        optimizer = getattr(self.model, "_optimizer", None)
        rate = getattr(optimizer, "_learning_rate", None)
        if not isinstance(rate, float):
            warnings.warn(f"Expected learning_rate be float, bug got {type(rate)}.")
            return
        current = _current(logs, self.monitor, "ReduceLROnPlateau")
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old = optimizer.get_lr()
                if old > np.float32(self.min_lr):
                    new = max(old * self.factor, self.min_lr)
                    optimizer.set_lr(new)
                    if self.verbose > 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning "
                              f"rate to {new}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1
