"""``Optimizer``: the shared machinery of SGD and Adam.

``step()`` collects ``(param, grad)`` for the trainable parameters that have
a gradient, clips the gradients (``grad_clip``), adds weight decay (the
parameter's ``regularizer``, else the optimizer's ``weight_decay``: an
``L1Decay`` or ``L2Decay`` of :mod:`pylayer.regularizer`, a number meaning
``L2Decay`` of it), and then writes
each update into the parameter's own array, bumping its version. Updates
work on numpy arrays under ``no_grad``: they are never recorded.

Subclasses implement ``_update_array(param, grad, state, lr)``: it changes
the ndarray ``param`` in place from ``grad``, the per-parameter dict
``state`` (its accumulators) and the learning rate ``lr`` (already
multiplied by the parameter's ``learning_rate`` factor).

``parameters`` may also be a list of parameter groups, dicts as Paddle takes
them: ``{'params': [...], 'learning_rate': 0.1, 'weight_decay': ...,
'grad_clip': ..., <a setting of the optimizer such as 'beta1'>: ...}``. As in
Paddle, a group's ``learning_rate`` multiplies the optimizer's (default 1.0)
and takes the place of the parameters' own factor, its ``weight_decay``
(default: the optimizer's) takes the place of their regularizer, and the
settings a subclass lists in ``_GROUP_SETTINGS`` apply to the group's
parameters only; other keys are ignored, as in Paddle.
"""
import warnings

import numpy as np

from pylayer.extend import Summary, Tensor, check_number, make_tensor, settings_repr
from pylayer.autograd import no_grad
from pylayer.ops.dispatch import in_dynamic_mode
from pylayer.static import Variable
from pylayer.optimizer._static import minimize as static_minimize
from pylayer.optimizer.lr import LRScheduler
from pylayer.regularizer import L2Decay, WeightDecayRegularizer, as_regularizer

__all__ = ["Optimizer"]


def _attr(value):
    """A hyperparameter as Paddle's kernels receive it: a float32 attribute, so that
    float64 updates use its float32 rounding (``momentum=0.9`` is 0.8999999762)."""
    return float(np.float32(value))


class Optimizer:
    """Base class of the optimizers; see the module documentation for ``step()``.

    A subclass only writes the update of one parameter array:

    >>> import pylayer
    >>> class SignDescent(pylayer.optimizer.Optimizer):
    ...     def _update_array(self, param, grad, state, lr):
    ...         param -= lr * (grad > 0) - lr * (grad < 0)
    >>> w = pylayer.create_parameter([2], 'float64', is_bias=True)
    >>> opt = SignDescent(0.5, parameters=[w])
    >>> (w * pylayer.to_tensor([3.0, -2.0], dtype='float64')).sum().backward()
    >>> opt.step()
    >>> w.numpy()
    array([-0.5,  0.5])
    """

    # Whether weight decay may apply to a parameter with sparse gradients (Adam's may not).
    _decays_sparse_gradients = True

    def __init__(self, learning_rate, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        cls = type(self).__name__
        if learning_rate is None:
            raise ValueError(f"{cls}(): argument 'learning_rate' is not set: give a number or "
                             f"an LRScheduler, got None")
        if isinstance(learning_rate, LRScheduler):
            self._learning_rate = learning_rate
        else:
            self._learning_rate = check_number(learning_rate, cls, "learning_rate")
            if self._learning_rate < 0:
                raise ValueError(f"{cls}(): argument 'learning_rate' must be non-negative "
                                 f"or an LRScheduler, got {learning_rate}")
        groups = None
        if parameters is not None:
            if isinstance(parameters, (str, bytes, dict)) or not hasattr(parameters, "__iter__"):
                raise TypeError(f"{cls}(): argument 'parameters' must be a list of Tensors "
                                f"(model.parameters()) or of parameter groups (dicts), got "
                                f"{type(parameters).__name__}")
            parameters = list(parameters)
            if parameters and isinstance(parameters[0], dict):
                groups, parameters = parameters, []
            for i, p in enumerate(parameters):
                if not isinstance(p, Tensor) and not getattr(type(p), "_is_parameter", False):
                    raise TypeError(f"{cls}(): argument 'parameters' must hold Tensors, or "
                                    f"only parameter groups (dicts); item {i} is a "
                                    f"{type(p).__name__}")
        elif in_dynamic_mode():
            raise ValueError(f"{cls}(): argument 'parameters' is required in dynamic mode; "
                             f"pass model.parameters()")
        self._parameter_list = parameters
        if not isinstance(weight_decay, WeightDecayRegularizer):
            if isinstance(weight_decay, (str, bytes, dict, list, tuple)):
                raise TypeError(f"{cls}(): argument 'weight_decay' must be a number (an L2 "
                                f"coefficient), an L1Decay or L2Decay, or None, "
                                f"got {type(weight_decay).__name__}")
            weight_decay = check_number(weight_decay, cls, "weight_decay", allow_none=True)
        self._weight_decay = weight_decay
        self.regularization = as_regularizer(weight_decay)
        if grad_clip is not None and not callable(grad_clip):
            raise TypeError(f"{cls}(): argument 'grad_clip' must be a ClipGradBy* object, "
                            f"got {type(grad_clip).__name__}")
        self._grad_clip = grad_clip
        self._param_groups = None
        if groups is not None:
            self._param_groups = [self._checked_group(group, i, groups)
                                  for i, group in enumerate(groups)]
            self._parameter_list = [p for group in self._param_groups
                                    for p in group["params"]]
        self._name = name
        self._accumulators = {}

    # A parameter group may override these settings: {group key: the attributes it sets}.
    # The values are read from an optimizer made with the group's settings, so they are
    # checked and converted as the constructor does.
    _GROUP_SETTINGS = {}

    def _checked_group(self, group, index, groups):
        """One parameter group of ``parameters``, checked, in the form ``step()`` uses."""
        cls = type(self).__name__
        where = f"{cls}(): parameter group {index} of argument 'parameters'"
        if not isinstance(group, dict):
            raise TypeError(f"{cls}(): argument 'parameters' must hold only parameter groups "
                            f"(dicts) when its first item is one; item {index} is a "
                            f"{type(group).__name__}")
        if "params" not in group:
            raise ValueError(f"{where} has no 'params' (the list of its parameters)")
        params = group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, (set, frozenset)):
            raise TypeError(f"{where}: 'params' must be an ordered collection (a list), "
                            f"got a set")
        elif isinstance(params, (str, bytes, dict)) or not hasattr(params, "__iter__"):
            raise TypeError(f"{where}: 'params' must be a list of Tensors, got "
                            f"{type(params).__name__}")
        params = list(params)
        for i, p in enumerate(params):
            if not isinstance(p, Tensor):
                raise TypeError(f"{where}: item {i} of 'params' must be a Tensor, got "
                                f"{type(p).__name__}")
        earlier = {id(p) for g in groups[:index] if isinstance(g, dict)
                   for p in ([g["params"]] if isinstance(g.get("params"), Tensor)
                             else g.get("params", ()))}
        if any(id(p) in earlier for p in params) or len({id(p) for p in params}) < len(params):
            raise ValueError(f"{where}: some parameters appear in more than one parameter "
                             f"group (or twice in one)")
        rate = check_number(group.get("learning_rate", 1.0), cls, "learning_rate")
        if rate < 0:
            raise ValueError(f"{where}: 'learning_rate' must be non-negative, got {rate}")
        decay = group.get("weight_decay", self._weight_decay)
        if not isinstance(decay, WeightDecayRegularizer):
            if isinstance(decay, (str, bytes, dict, list, tuple)):
                raise TypeError(f"{where}: 'weight_decay' must be a number, an L1Decay or "
                                f"L2Decay, or None, got {type(decay).__name__}")
            decay = check_number(decay, cls, "weight_decay", allow_none=True)
        clip = group.get("grad_clip", self._grad_clip)
        if clip is not None and not callable(clip):
            raise TypeError(f"{where}: 'grad_clip' must be a ClipGradBy* object, got "
                            f"{type(clip).__name__}")
        settings = {key: value for key, value in group.items()
                    if key in type(self)._GROUP_SETTINGS}
        attrs = {}
        if settings:
            made = type(self)(learning_rate=1.0, parameters=[], **settings)
            attrs = {attr: getattr(made, attr) for key in settings
                     for attr in type(self)._GROUP_SETTINGS[key]}
        return {"params": params, "learning_rate": rate,
                "regularizer": self._group_regularizer(decay), "grad_clip": clip,
                "attrs": attrs}

    def _group_regularizer(self, weight_decay):
        """A group's ``weight_decay`` as the regularizer of its parameters."""
        return as_regularizer(weight_decay)

    def _settings(self):
        """What a subclass adds to the repr, beyond the settings every optimizer has."""
        return {}

    def __repr__(self):
        """``Adam(learning_rate=0.001, beta1=0.9, ..., parameters=<4 Tensors>)``."""
        params = self._parameter_list
        return settings_repr(self, {
            "learning_rate": self._learning_rate, **self._settings(),
            "weight_decay": self._weight_decay, "grad_clip": self._grad_clip,
            "parameters": None if params is None else Summary(
                f"<{len(params)} Tensor{'' if len(params) == 1 else 's'}>")})

    # ---------------------------------------------------------- learning rate
    def get_lr(self):
        """The current learning rate (a float); a scheduler's current rate if it has one."""
        if isinstance(self._learning_rate, LRScheduler):
            return self._learning_rate()
        return self._learning_rate

    def set_lr(self, value):
        """Change the learning rate used by the next steps (not with a scheduler)."""
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("set_lr(): the optimizer's learning rate is an LRScheduler; "
                               "change it with the scheduler's step()")
        value = check_number(value, "set_lr", "value")
        if value < 0:
            raise ValueError(f"set_lr(): argument 'value' must be non-negative, got {value}")
        self._learning_rate = value

    # ------------------------------------------------------------- updates
    def _state_for(self, param):
        """The accumulators of one parameter, keyed by its name."""
        return self._accumulators.setdefault(param.name, {})

    def _update_array(self, param, grad, state, lr):
        raise NotImplementedError(f"{type(self).__name__} does not implement _update_array()")

    def _parameters(self, parameters=None):
        params = self._parameter_list if parameters is None else list(parameters)
        if params is None:
            raise ValueError(f"{type(self).__name__}: there are no parameters to update; pass "
                             f"parameters=model.parameters() when making the optimizer")
        return params

    def _params_grads(self, parameters=None, no_grad_set=None):
        params = self._parameters(parameters)
        skip = set()
        for item in no_grad_set or ():
            skip.add(item if isinstance(item, str) else id(item))
        return [(p, p.grad) for p in params
                if not p.stop_gradient and p.grad is not None
                and id(p) not in skip and p.name not in skip]

    # Set by pylayer.amp.decorate(level='O2'): float16 and bfloat16 parameters are updated
    # through float32 copies (master weights), kept in _master_weights by parameter name.
    _multi_precision = False

    def _master_weight(self, param, array):
        """The float32 master copy of a float16 or bfloat16 parameter, when the optimizer
        keeps master weights; ``None`` otherwise."""
        if not self._multi_precision or array.dtype.name not in ("float16", "bfloat16"):
            return None
        masters = self.__dict__.setdefault("_master_weights", {})
        master = masters.get(param.name)
        if master is None or master.shape != array.shape:
            master = masters[param.name] = array.astype(np.float32)
        return master

    def _apply_gradients(self, params_grads, group=None):
        """Clip, decay and update: the body of ``step()`` (for one parameter group)."""
        regularization = self.regularization if group is None else group["regularizer"]
        if regularization is not None and not self._decays_sparse_gradients:
            for param, _ in params_grads:
                if getattr(param, "sparse_gradient", False):
                    raise RuntimeError(
                        f"{type(self).__name__}: weight_decay does not apply to {param.name}, "
                        f"a parameter with sparse gradients (an Embedding(sparse=True) "
                        f"weight), as in Paddle; set weight_decay=None")
        clip = self._grad_clip if group is None else group["grad_clip"]
        saved = {attr: getattr(self, attr) for attr in (group or {}).get("attrs", ())}
        try:
            if saved:
                for attr, value in group["attrs"].items():
                    setattr(self, attr, value)
            with no_grad():
                if clip is not None and params_grads:
                    params_grads = clip(params_grads)
                rate = self.get_lr()
                for param, grad in params_grads:
                    array = param.numpy()
                    master = self._master_weight(param, array)
                    work = array if master is None else master
                    g = grad.numpy().astype(work.dtype, copy=False)
                    if group is None:
                        regularizer = getattr(param, "regularizer", None)
                        if regularizer is None:
                            regularizer = self.regularization
                        elif not isinstance(regularizer, WeightDecayRegularizer):
                            regularizer = L2Decay(regularizer)
                        factor = getattr(param, "optimize_attr", {}).get("learning_rate", 1.0)
                    else:
                        regularizer, factor = group["regularizer"], group["learning_rate"]
                    if regularizer is not None:
                        g = regularizer._decayed(g, work)
                    if master is None and not array.flags.writeable:
                        work = np.array(array, copy=True)
                    self._update_array(work, g, self._state_for(param), rate * factor)
                    param._set_array_inplace(work if master is None
                                             else master.astype(array.dtype))
        finally:
            for attr, value in saved.items():
                setattr(self, attr, value)
        return params_grads

    def _apply_all(self, parameters=None, no_grad_set=None):
        """Update the parameters (each group with its settings); the ``(param, grad)``
        pairs before clipping."""
        if self._param_groups is None or parameters is not None:
            params_grads = self._params_grads(parameters, no_grad_set)
            self._apply_gradients(params_grads)
            return params_grads
        result = []
        for group in self._param_groups:
            params_grads = self._params_grads(group["params"], no_grad_set)
            self._apply_gradients(params_grads, group)
            result.extend(params_grads)
        return result

    def step(self):
        """Update every trainable parameter that has a gradient (in place)."""
        self._apply_all()

    def clear_grad(self, set_to_zero=True):
        """Reset the parameters' gradients: to zeros (default) or to None."""
        for p in self._parameter_list or ():
            if not p.stop_gradient:
                p.clear_grad(set_to_zero)

    clear_gradients = clear_grad

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Update with the gradients already computed; returns ``(optimize_ops, params_grads)``.

        As in Paddle's dynamic mode, ``minimize`` does not run backward: call
        ``loss.backward()`` first (a warning says so when no parameter has a
        gradient). For a static ``Variable`` loss it appends the backward and
        update ops to its program instead (``pylayer.static``).
        """
        if isinstance(loss, Variable):
            if self._param_groups is not None:
                raise ValueError(f"minimize(): {type(self).__name__} with parameter groups "
                                 f"updates in dynamic mode only; give a static program's "
                                 f"optimizer a list of parameters")
            return static_minimize(self, loss, parameters=parameters, no_grad_set=no_grad_set)
        if not isinstance(loss, Tensor):
            raise TypeError(f"minimize(): argument 'loss' must be a Tensor or a static Variable, "
                            f"got {type(loss).__name__}")
        params = self._parameters(parameters)
        if all(p.grad is None for p in params):
            warnings.warn("minimize(): no parameter has a gradient, so nothing is updated; call "
                          "loss.backward() before minimize(loss), which applies the gradients "
                          "already computed (as in Paddle's dynamic mode)", RuntimeWarning,
                          stacklevel=2)
        params_grads = self._apply_all(parameters, no_grad_set)
        return [], params_grads         # the gradients before clipping, as Paddle returns them

    # --------------------------------------------------------------- state
    def state_dict(self):
        """The accumulators as Tensors, keyed as Paddle keys them:
        ``<param name>_<accumulator>_0``, such as ``linear_0.w_0_moment1_0``
        and ``linear_0.w_0_beta1_pow_acc_0`` (a power of beta is a
        one-element Tensor)."""
        result = {}
        if isinstance(self._learning_rate, LRScheduler):
            result["LR_Scheduler"] = self._learning_rate.state_dict()
        for name, state in self._accumulators.items():
            dtype = next((v.dtype for v in state.values() if isinstance(v, np.ndarray)),
                         np.float32)
            for key, value in state.items():
                tensor = make_tensor(np.array(
                    value, dtype=value.dtype if isinstance(value, np.ndarray) else dtype,
                    copy=True, ndmin=1))
                tensor.name = f"{name}_{self._saved_name(key, value)}_0"
                result[tensor.name] = tensor
        masters = self.__dict__.get("_master_weights")
        if masters:
            result["master_weights"] = {}
            for name, master in masters.items():
                tensor = make_tensor(np.array(master, copy=True))
                tensor.name = f"{name}_fp32_master_0"
                result["master_weights"][name] = tensor
        return result

    @staticmethod
    def _saved_name(key, value):
        """A state entry's name in the state dict: a power of beta kept as a number
        (``beta1_pow``) is Paddle's one-element ``beta1_pow_acc``; arrays keep their key."""
        return f"{key}_acc" if key.endswith("_pow") and not isinstance(value, np.ndarray) else key

    def _accumulator_names(self):
        """The keys of the accumulators this optimizer keeps per parameter, as
        :meth:`state_dict` spells them (``moment1``, ``beta1_pow_acc``...): read from
        one update of a scratch parameter."""
        state = {}
        with np.errstate(all="ignore"):
            self._update_array(np.zeros(1), np.zeros(1), state, 0.0)
        return [self._saved_name(key, value) for key, value in state.items()]

    def _saved_accumulators(self, state_dict):
        """``{parameter name: {accumulator key: value}}`` of a state dict, in its order,
        and the keys that name no accumulator of this optimizer."""
        names = sorted(self._accumulator_names(), key=len, reverse=True)
        groups, unknown = {}, []
        for key, value in state_dict.items():
            if key == "LR_Scheduler" or not isinstance(value, (Tensor, np.ndarray)):
                continue
            name = next((n for n in names if key.endswith(f"_{n}_0")), None)
            if name is None:
                unknown.append(key)
                continue
            groups.setdefault(key[:-len(f"_{name}_0")], {})[name] = value
        return groups, unknown

    def set_state_dict(self, state_dict):
        """Restore what :meth:`state_dict` returned (or Paddle's optimizer state dict).

        The accumulators go to the parameters of the same names, as in Paddle. When
        some names are not among the parameters (a model rebuilt in the same process
        names its parameters anew), they go to the trainable parameters by position,
        as in PyTorch, provided the saved parameters are as many and of the same
        shapes; anything else is a ``ValueError`` naming the keys that match no
        parameter, and nothing is restored.

        >>> import pylayer
        >>> first = pylayer.nn.Linear(2, 1)
        >>> adam = pylayer.optimizer.Adam(parameters=first.parameters())
        >>> first(pylayer.ones([1, 2])).sum().backward(); adam.step()
        >>> rebuilt = pylayer.nn.Linear(2, 1)
        >>> again = pylayer.optimizer.Adam(parameters=rebuilt.parameters())
        >>> again.set_state_dict(adam.state_dict())
        >>> sorted(again.state_dict()) == sorted(k.replace(first.weight.name, rebuilt.weight.name)
        ...     .replace(first.bias.name, rebuilt.bias.name) for k in adam.state_dict())
        True
        """
        fn = "set_state_dict"
        if not isinstance(state_dict, dict):
            raise TypeError(f"{fn}(): argument 'state_dict' must be a dict (what "
                            f"state_dict() returned), got {type(state_dict).__name__}")
        masters = state_dict.get("master_weights")
        if masters is not None and not isinstance(masters, dict):
            raise TypeError(f"{fn}(): 'master_weights' must be a dict of parameter name to "
                            f"float32 Tensor, got {type(masters).__name__}")
        groups, unknown = self._saved_accumulators(state_dict)
        if unknown:
            raise ValueError(f"{fn}(): the keys {unknown} hold no accumulator of "
                             f"{type(self).__name__} (it keeps {self._accumulator_names()} "
                             f"per parameter); nothing was restored")
        params = list(self._parameter_list or ())
        by_name = {p.name: p for p in params}
        if all(name in by_name for name in groups):
            targets = [by_name[name] for name in groups]
        else:
            targets = [p for p in params if not p.stop_gradient]
            if not self._same_structure(groups, targets):
                missing = [f"{name}_{key}_0" for name, state in groups.items()
                           if name not in by_name for key in state]
                raise ValueError(
                    f"{fn}(): the keys {missing} name no parameter of this optimizer, and "
                    f"the saved state of {len(groups)} parameters does not match its "
                    f"{len(targets)} trainable parameters by position (count and shapes); "
                    f"nothing was restored")
        if masters:
            self._master_weights = {
                name: np.array(value.numpy() if isinstance(value, Tensor) else value,
                               dtype=np.float32, copy=True)
                for name, value in masters.items()}
        if isinstance(self._learning_rate, LRScheduler) and "LR_Scheduler" in state_dict:
            self._learning_rate.set_state_dict(state_dict["LR_Scheduler"])
        for param, state in zip(targets, groups.values()):
            for name, value in state.items():
                array = np.array(value.numpy() if isinstance(value, Tensor) else value,
                                 copy=True)
                if name.endswith("_pow_acc"):
                    self._state_for(param)[name[:-len("_acc")]] = float(array.reshape(()))
                else:
                    self._state_for(param)[name] = array

    def _same_structure(self, groups, params):
        """Whether the saved accumulators fit ``params`` in order: as many, each array
        of the shape this optimizer gives it for its parameter (read from one update
        of a scratch parameter of that shape; powers of beta are one-element)."""
        if len(groups) != len(params):
            return False
        for param, state in zip(params, groups.values()):
            fresh = {}
            with np.errstate(all="ignore"):
                self._update_array(np.zeros(param.shape), np.zeros(param.shape), fresh, 0.0)
            shapes = {self._saved_name(key, value): list(np.shape(value))
                      for key, value in fresh.items() if isinstance(value, np.ndarray)}
            for name, value in state.items():
                if name in shapes and list(np.shape(value)) != shapes[name]:
                    return False
        return True
