"""``GradScaler``: dynamic loss scaling with inf/nan checks.

The loss is multiplied by the scale before backward; before the optimizer
steps, the gradients are divided by it and checked: a step whose gradients
hold an inf or a nan is skipped. With dynamic scaling, the scale is
multiplied by ``decr_ratio`` after every ``decr_every_n_nan_or_inf`` such
steps (counted while they follow each other) and by ``incr_ratio`` after
``incr_every_n_steps`` finite steps in a row, as Paddle's scaler does.
"""
import enum
import warnings
from collections import defaultdict

import numpy as np

import pylayer
from pylayer.extend import Tensor, check_number, settings_repr
from pylayer.autograd import no_grad
from pylayer.amp.auto_cast import _last_dtype

__all__ = ["GradScaler"]


class OptimizerState(enum.Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh():
    return {"state": OptimizerState.INIT}


class GradScaler:
    """Scale the loss, unscale and check the gradients, skip steps with inf or nan.

    >>> import warnings
    >>> import pylayer
    >>> model = pylayer.nn.Linear(2, 1)
    >>> opt = pylayer.optimizer.SGD(0.1, parameters=model.parameters())
    >>> scaler = pylayer.amp.GradScaler(init_loss_scaling=1024)
    >>> with warnings.catch_warnings():     # float16 changes nothing on the CPU, and says so
    ...     warnings.simplefilter("ignore")
    ...     with pylayer.amp.auto_cast():
    ...         loss = model(pylayer.ones([4, 2])).mean()
    >>> scaled = scaler.scale(loss)
    >>> scaled.backward()
    >>> scaler.step(opt); scaler.update(); opt.clear_grad()
    >>> float(scaled) / float(loss), scaler.is_enable()
    (1024.0, True)
    """

    def __init__(self, enable=True, init_loss_scaling=65536.0, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=2000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True):
        fn = "GradScaler"
        self._enable = bool(enable)
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._scale = None
        self._found_inf = False
        self._cache_found_inf = None
        self._optimizer_states = defaultdict(_fresh)
        if not self._enable:
            return
        check_number(init_loss_scaling, fn, "init_loss_scaling")
        incr_ratio = check_number(incr_ratio, fn, "incr_ratio")
        decr_ratio = check_number(decr_ratio, fn, "decr_ratio")
        if not incr_ratio > 1.0:
            raise ValueError(f"{fn}(): the incr_ratio must be > 1.0, got {incr_ratio}")
        if not decr_ratio < 1.0:
            raise ValueError(f"{fn}(): the decr_ratio must be < 1.0, got {decr_ratio}")
        incr_every_n_steps = self._count(incr_every_n_steps, fn, "incr_every_n_steps")
        decr_every_n_nan_or_inf = self._count(decr_every_n_nan_or_inf, fn,
                                              "decr_every_n_nan_or_inf")
        self._init_loss_scaling = init_loss_scaling
        self._incr_ratio = incr_ratio
        self._decr_ratio = decr_ratio
        self._incr_every_n_steps = incr_every_n_steps
        self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
        self._incr_count = 0
        self._decr_count = 0
        self._use_dynamic_loss_scaling = bool(use_dynamic_loss_scaling)
        self._scale = self._scale_tensor(init_loss_scaling)

    def __repr__(self):
        """``GradScaler(enable=True, scale=1024.0, ...)``: the settings and the current scale.

        >>> import pylayer
        >>> shown = repr(pylayer.amp.GradScaler(init_loss_scaling=1024))
        >>> shown[:52], shown[-30:]
        ('GradScaler(enable=True, scale=1024.0, incr_ratio=2.0', 'use_dynamic_loss_scaling=True)')
        >>> pylayer.amp.GradScaler(enable=False)
        GradScaler(enable=False)
        """
        if not self._enable:
            return settings_repr(self, {"enable": False})
        return settings_repr(self, {
            "enable": True, "scale": float(self._scale.numpy()[0]),
            "incr_ratio": self._incr_ratio, "decr_ratio": self._decr_ratio,
            "incr_every_n_steps": self._incr_every_n_steps,
            "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
            "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling})

    @staticmethod
    def _scale_tensor(value):
        return pylayer.to_tensor(np.array([value], dtype=np.float32))

    # ------------------------------------------------------------------ scaling
    def scale(self, var):
        """The Tensor times the loss scale (shape ``[1]`` for a 0-D loss, as in Paddle),
        or ``var`` itself when the scaler is disabled. As in Paddle, dynamic scaling is
        turned off (with a warning) when the latest ``auto_cast`` was not float16."""
        if not isinstance(var, Tensor):
            raise TypeError(f"GradScaler.scale(): argument 'var' must be a Tensor, got "
                            f"{type(var).__name__}")
        amp_dtype = _last_dtype[0]
        if self._enable and amp_dtype != "float16" and self._use_dynamic_loss_scaling:
            self._enable = False
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            warnings.warn(f"GradScaler.scale(): it is not recommended to use dynamic loss "
                          f"scaling for {amp_dtype}, so GradScaler is disabled",
                          UserWarning, stacklevel=2)
        if not self._enable:
            return var
        return var * self._scale

    def _check_optimizer(self, optimizer, method):
        if not isinstance(optimizer, pylayer.optimizer.Optimizer):
            raise TypeError(f"GradScaler.{method}(): argument 'optimizer' must be a "
                            f"pylayer.optimizer.Optimizer, got {type(optimizer).__name__}")

    def _grads(self, optimizer):
        params = optimizer._parameter_list or ()
        return [p for p in params if p.grad is not None]

    def _unscale(self, optimizer):
        if not self._enable:
            return
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since "
                               "the last update().")
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inverse = np.float32(1.0) / np.float32(self._scale.numpy()[0])
        found = False
        with no_grad():
            for param in self._grads(optimizer):
                grad = param.grad
                array = grad.numpy()
                wide = array.astype(np.float32)
                if not np.isfinite(wide).all():
                    found = True
                grad._set_array_inplace((wide * inverse).astype(array.dtype))
        self._found_inf = found
        state["state"] = OptimizerState.UNSCALED

    def unscale_(self, optimizer):
        """Divide the optimizer's parameters' gradients by the scale, in place, and note
        whether one holds an inf or a nan (that step is then skipped)."""
        self._check_optimizer(optimizer, "unscale_")
        return self._unscale(optimizer)

    def _update(self):
        if not self._enable:
            return
        if self._cache_found_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                current = float(self._scale.numpy()[0])
                print(f"Found inf or nan, current scale is: {current}, decrease to: "
                      f"{current}*{float(self._decr_ratio)}")
                self._scale = self._scale * np.float32(self._decr_ratio)
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                self._scale = self._scale * np.float32(self._incr_ratio)
                self._incr_count = 0

    def minimize(self, optimizer, *args, **kwargs):
        """Unscale (unless ``unscale_`` did), then ``optimizer.minimize(*args, **kwargs)``
        unless a gradient holds an inf or a nan, then update the scale. Returns what
        ``minimize`` returned (``(None, None)`` for a skipped step)."""
        self._check_optimizer(optimizer, "minimize")
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        if self._optimizer_states[id(optimizer)]["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        result = (None, None)
        if self._found_inf:
            self._cache_found_inf = True
        else:
            result = optimizer.minimize(*args, **kwargs)
            self._cache_found_inf = False
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = defaultdict(_fresh)
        return result

    def step(self, optimizer):
        """Unscale (unless ``unscale_`` did), then ``optimizer.step()`` unless a gradient
        holds an inf or a nan."""
        self._check_optimizer(optimizer, "step")
        if not self._enable:
            return optimizer.step()
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        if self._found_inf:
            self._cache_found_inf = True
        else:
            optimizer.step()
            self._cache_found_inf = False
        state["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = defaultdict(_fresh)

    def update(self):
        """Update the scale from the last step (dynamic scaling only)."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_fresh)

    # ------------------------------------------------------------------ settings
    def is_enable(self):
        """Whether loss scaling is on."""
        return self._enable

    def is_use_dynamic_loss_scaling(self):
        """Whether the scale changes with the steps."""
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self):
        """The initial loss scale."""
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling):
        """Set the initial loss scale, and the current scale to it."""
        check_number(new_init_loss_scaling, "set_init_loss_scaling", "new_init_loss_scaling")
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = self._scale_tensor(new_init_loss_scaling)

    def get_incr_ratio(self):
        """The factor that raises the scale."""
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio):
        """Set the factor that raises the scale (> 1)."""
        value = check_number(new_incr_ratio, "set_incr_ratio", "new_incr_ratio")
        if not value > 1.0:
            raise ValueError(f"set_incr_ratio(): the new_incr_ratio must be > 1.0, got {value}")
        self._incr_ratio = value

    def get_decr_ratio(self):
        """The factor that lowers the scale."""
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio):
        """Set the factor that lowers the scale (< 1)."""
        value = check_number(new_decr_ratio, "set_decr_ratio", "new_decr_ratio")
        if not value < 1.0:
            raise ValueError(f"set_decr_ratio(): the new_decr_ratio must be < 1.0, got {value}")
        self._decr_ratio = value

    def get_incr_every_n_steps(self):
        """How many finite steps in a row raise the scale."""
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps):
        """Set how many finite steps in a row raise the scale."""
        self._incr_every_n_steps = self._count(new_incr_every_n_steps, "set_incr_every_n_steps",
                                               "new_incr_every_n_steps")

    def get_decr_every_n_nan_or_inf(self):
        """How many steps with inf or nan in a row lower the scale."""
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf):
        """Set how many steps with inf or nan in a row lower the scale."""
        self._decr_every_n_nan_or_inf = self._count(
            new_decr_every_n_nan_or_inf, "set_decr_every_n_nan_or_inf",
            "new_decr_every_n_nan_or_inf")

    @staticmethod
    def _count(value, fn, arg):
        """A number of steps: an int of at least 1 (a count never reaches 0 or less)."""
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{fn}(): argument '{arg}' must be an int, got "
                            f"{type(value).__name__}")
        if value < 1:
            raise ValueError(f"{fn}(): argument '{arg}' must be at least 1, got {value}")
        return int(value)

    def state_dict(self):
        """The scaler's state (empty when disabled): ``scale`` (an array), the ratios,
        the step counts and counters, and ``use_dynamic_loss_scaling``."""
        if not self._enable:
            return {}
        return {"scale": self._scale.numpy(), "incr_ratio": self._incr_ratio,
                "decr_ratio": self._decr_ratio, "incr_every_n_steps": self._incr_every_n_steps,
                "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
                "incr_count": self._incr_count, "decr_count": self._decr_count,
                "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling}

    def load_state_dict(self, state_dict):
        """Restore what :meth:`state_dict` returned."""
        if not self._enable:
            return
        if not isinstance(state_dict, dict):
            raise TypeError(f"load_state_dict(): argument 'state_dict' must be a dict, got "
                            f"{type(state_dict).__name__}")
        if len(state_dict) == 0:
            raise RuntimeError("The input state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        keys = ("scale", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                "decr_every_n_nan_or_inf", "incr_count", "decr_count",
                "use_dynamic_loss_scaling")
        missing = [key for key in keys if key not in state_dict]
        if missing:
            raise KeyError(f"load_state_dict(): the state dict lacks {missing}")
        scale = state_dict["scale"]
        scale = np.asarray(scale.numpy() if isinstance(scale, Tensor) else scale)
        self._init_loss_scaling = float(scale.reshape(-1)[0])
        self._scale = self._scale_tensor(self._init_loss_scaling)
        self._incr_ratio = state_dict["incr_ratio"]
        self._decr_ratio = state_dict["decr_ratio"]
        self._incr_every_n_steps = state_dict["incr_every_n_steps"]
        self._decr_every_n_nan_or_inf = state_dict["decr_every_n_nan_or_inf"]
        self._incr_count = state_dict["incr_count"]
        self._decr_count = state_dict["decr_count"]
        self._use_dynamic_loss_scaling = state_dict["use_dynamic_loss_scaling"]
