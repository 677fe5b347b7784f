"""``Layer``: the base of every model, holding parameters, buffers and sub-layers."""
import copy
import re
import warnings
from collections import OrderedDict

import numpy as np

from pylayer.extend import Tensor, check_dtype, check_str, get_default_dtype, settings_repr
from pylayer.autograd import no_grad
from pylayer.nn import param as param_module
from pylayer.nn.param import ParamAttr, unique_name

__all__ = ["Layer", "HookRemoveHelper"]


def _is_parameter(value):
    return getattr(type(value), "_is_parameter", False)


def _snake(name):
    """Paddle's name prefix of a layer class: ``ReLU`` -> ``re_lu``, ``Conv2D`` -> ``conv2d``."""
    words = re.sub(r"(?<=.)([A-Z][a-z]+)", r"_\1", name)
    return re.sub(r"(?<=[a-z])([A-Z])", r"_\1", words).lower()


class HookRemoveHelper:
    """The handle a hook registration returns: ``remove()`` unregisters the hook.

    >>> import pylayer
    >>> layer = pylayer.nn.Identity()
    >>> handle = layer.register_forward_post_hook(lambda layer, inputs, output: output * 2)
    >>> layer(pylayer.ones([1])).numpy()
    array([2.], dtype=float32)
    >>> handle.remove()
    >>> layer(pylayer.ones([1])).numpy()
    array([1.], dtype=float32)
    """

    _next_id = 0

    def __init__(self, hooks):
        self._hooks = hooks
        self._hook_id = HookRemoveHelper._next_id
        HookRemoveHelper._next_id += 1

    def remove(self):
        """Unregister the hook; removing it again does nothing."""
        self._hooks.pop(self._hook_id, None)

    def __repr__(self):
        return settings_repr(self, {"hook_id": self._hook_id,
                                    "registered": self._hook_id in self._hooks})


def _add_hook(hooks, hook, prepend, fn):
    if not callable(hook):
        raise TypeError(f"{fn}(): argument 'hook' must be callable, got "
                        f"{type(hook).__name__}")
    handle = HookRemoveHelper(hooks)
    hooks[handle._hook_id] = hook
    if prepend:
        hooks.move_to_end(handle._hook_id, last=False)
    return handle


class Layer:
    """A building block of models: subclass it and define ``forward``.

    Assigning a :class:`~pylayer.nn.param.Parameter` or a ``Layer`` to an
    attribute registers it, so ``parameters()`` and ``state_dict()`` find it.

    >>> import pylayer
    >>> class Affine(pylayer.nn.Layer):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.scale = self.create_parameter([1], default_initializer=pylayer.nn.initializer.Constant(2.0))
    ...         self.inner = pylayer.nn.Linear(1, 1)
    ...     def forward(self, x):
    ...         return self.inner(x) * self.scale
    >>> model = Affine()
    >>> [name for name, _ in model.named_parameters()]
    ['scale', 'inner.weight', 'inner.bias']
    >>> model(pylayer.ones([4, 1])).shape
    [4, 1]
    """

    def __init__(self, name_scope=None, dtype="float32"):
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_sub_layers", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistable_buffers", set())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_post_hooks", OrderedDict())
        check_str(name_scope, "Layer", "name_scope", allow_none=True)
        check_dtype(dtype, "Layer")
        self.training = True
        self._dtype = dtype
        self._full_name = unique_name(name_scope or _snake(type(self).__name__))

    # --------------------------------------------------------- registration
    def _registry(self, name):
        registry = self.__dict__.get(name)
        if registry is None:
            raise AttributeError(f"{type(self).__name__}: call super().__init__() before "
                                 f"assigning parameters or sub-layers")
        return registry

    def _forget(self, name, keep):
        """Drop ``name`` from every registry but ``keep`` (there it keeps its place)."""
        for key in ("_parameters", "_sub_layers", "_buffers"):
            if key != keep:
                self.__dict__.get(key, {}).pop(name, None)
        self.__dict__.pop(name, None)

    def __setattr__(self, name, value):
        if _is_parameter(value):
            registry = self._registry("_parameters")
            self._forget(name, "_parameters")
            registry[name] = value
        elif isinstance(value, Layer):
            registry = self._registry("_sub_layers")
            self._forget(name, "_sub_layers")
            registry[name] = value
        else:
            for key, kind in (("_parameters", "Parameter"), ("_sub_layers", "Layer")):
                registry = self.__dict__.get(key)
                if registry is not None and name in registry:
                    if value is not None:
                        raise TypeError(f"{type(self).__name__}.{name} is a registered "
                                        f"{kind}; assign a {kind} or None, got "
                                        f"{type(value).__name__}")
                    registry[name] = None
                    return
            buffers = self.__dict__.get("_buffers")
            if buffers is not None and name in buffers:
                if value is not None and not isinstance(value, Tensor):
                    raise TypeError(f"{type(self).__name__}.{name} is a registered buffer; "
                                    f"assign a Tensor or None, got {type(value).__name__}")
                buffers[name] = value
                return
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        for key in ("_parameters", "_sub_layers", "_buffers"):
            registry = self.__dict__.get(key)
            if registry is not None and name in registry:
                return registry[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for key in ("_parameters", "_sub_layers", "_buffers"):
            registry = self.__dict__.get(key)
            if registry is not None and name in registry:
                del registry[name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._sub_layers)
                      | set(self._buffers))

    def add_sublayer(self, name, sublayer):
        """Register ``sublayer`` under ``name`` and return it."""
        check_str(name, "add_sublayer", "name")
        if not isinstance(sublayer, Layer) and sublayer is not None:
            raise TypeError(f"add_sublayer(): argument 'sublayer' must be a Layer, "
                            f"got {type(sublayer).__name__}")
        self._forget(name, "_sub_layers")
        self._registry("_sub_layers")[name] = sublayer
        return sublayer

    def add_parameter(self, name, parameter):
        """Register ``parameter`` under ``name`` and return it."""
        check_str(name, "add_parameter", "name")
        if parameter is not None and not _is_parameter(parameter):
            raise TypeError(f"add_parameter(): argument 'parameter' must be a Parameter, "
                            f"got {type(parameter).__name__}")
        self._forget(name, "_parameters")
        self._registry("_parameters")[name] = parameter
        return parameter

    def register_buffer(self, name, tensor, persistable=True):
        """Keep ``tensor`` with the layer; a persistable buffer goes into ``state_dict``."""
        check_str(name, "register_buffer", "name")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"register_buffer(): argument 'tensor' must be a Tensor, "
                            f"got {type(tensor).__name__}")
        self._forget(name, "_buffers")
        self._registry("_buffers")[name] = tensor
        if persistable:
            self._non_persistable_buffers.discard(name)
        else:
            self._non_persistable_buffers.add(name)

    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False,
                         default_initializer=None):
        """Make a parameter named after this layer (``linear_0.w_0``); ``attr=False`` gives None.

        Goes through :func:`pylayer.create_parameter`, so static mode sees it.
        """
        attr = ParamAttr._to_attr(attr)
        if attr is False:
            return None
        if attr.name is None:
            attr = copy.copy(attr)
            attr.name = unique_name(f"{self._full_name}.{'b' if is_bias else 'w'}")
        # Paddle's layers make their parameters in the default dtype unless one was given.
        dtype = dtype or (self._dtype if self._dtype != "float32" else get_default_dtype())
        return param_module.create_parameter(shape, dtype, attr=attr,
                                             is_bias=is_bias,
                                             default_initializer=default_initializer)

    # -------------------------------------------------------------- walking
    def named_sublayers(self, prefix="", include_self=False, layers_set=None):
        """Yield ``(dotted_name, layer)`` for every sub-layer, each once."""
        check_str(prefix, "named_sublayers", "prefix")
        return self._walk_sublayers(prefix, include_self,
                                    set() if layers_set is None else layers_set)

    def _walk_sublayers(self, prefix, include_self, layers_set):
        if include_self and id(self) not in layers_set:
            layers_set.add(id(self))
            yield prefix, self
        for name, layer in self._sub_layers.items():
            if layer is None or id(layer) in layers_set:
                continue
            path = f"{prefix}.{name}" if prefix else name
            layers_set.add(id(layer))
            yield path, layer
            yield from layer._walk_sublayers(path, False, layers_set)

    def sublayers(self, include_self=False):
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self):
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self):
        return [layer for _, layer in self.named_children()]

    def _named_members(self, registry, prefix, include_sublayers):
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers \
            else [(prefix, self)]
        seen = set()
        for layer_prefix, layer in layers:
            for name, value in getattr(layer, registry).items():
                if value is None or id(value) in seen:
                    continue
                seen.add(id(value))
                yield (f"{layer_prefix}.{name}" if layer_prefix else name), value, layer, name

    def named_parameters(self, prefix="", include_sublayers=True):
        """Yield ``(dotted_name, parameter)`` for every parameter, each once."""
        check_str(prefix, "named_parameters", "prefix")
        return ((path, value) for path, value, _, _ in
                self._named_members("_parameters", prefix, include_sublayers))

    def parameters(self, include_sublayers=True):
        """All parameters of this layer and (by default) its sub-layers, as a list."""
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True):
        check_str(prefix, "named_buffers", "prefix")
        return ((path, value) for path, value, _, _ in
                self._named_members("_buffers", prefix, include_sublayers))

    def buffers(self, include_sublayers=True):
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    # ---------------------------------------------------------------- modes
    def train(self):
        """Training mode for this layer and its sub-layers (dropout active)."""
        for layer in self.sublayers(include_self=True):
            layer.training = True
        return self

    def eval(self):
        """Evaluation mode for this layer and its sub-layers (dropout off)."""
        for layer in self.sublayers(include_self=True):
            layer.training = False
        return self

    def clear_gradients(self, set_to_zero=True):
        for p in self.parameters():
            if p.trainable:
                p.clear_grad(set_to_zero)

    # ---------------------------------------------------------------- state
    def state_dict(self, destination=None, include_sublayers=True,
                   structured_name_prefix="", use_hook=True):
        """Parameters and persistable buffers by dotted name (the tensors themselves)."""
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"state_dict(): argument 'destination' must be a dict or None, "
                            f"got {type(destination).__name__}")
        check_str(structured_name_prefix, "state_dict", "structured_name_prefix")
        result = OrderedDict() if destination is None else destination
        result.update(self._state_items(structured_name_prefix, include_sublayers, set()))
        return result

    def _state_items(self, prefix, include_sublayers, ancestors):
        """Paddle's walk: this layer's parameters, then its persistable buffers, then each
        sub-layer under every name it has (a shared tensor once per name)."""
        for name, value in self._parameters.items():
            if value is not None:
                yield prefix + name, value
        for name, value in self._buffers.items():
            if value is not None and name not in self._non_persistable_buffers:
                yield prefix + name, value
        if not include_sublayers:
            return
        ancestors.add(id(self))
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in ancestors:
                yield from layer._state_items(f"{prefix}{name}.", True, ancestors)
        ancestors.discard(id(self))

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copy values from ``state_dict`` into this layer's tensors, in place.

        Keys are dotted names (or tensor names with ``use_structured_name=False``).
        A missing key or a shape mismatch is skipped with a warning. Returns
        ``(missing_keys, unexpected_keys)``.
        """
        if not isinstance(state_dict, dict):
            raise TypeError(f"set_state_dict(): argument 'state_dict' must be a dict of "
                            f"tensors or arrays, got {type(state_dict).__name__}")
        own = self.state_dict()
        keys = {path: (path if use_structured_name else t.name) for path, t in own.items()}
        missing = []
        for path, target in own.items():
            key = keys[path]
            if key not in state_dict:
                warnings.warn(f"set_state_dict: {key} is not in the given state dict; "
                              f"it keeps its current value")
                missing.append(key)
                continue
            value = state_dict[key]
            shape = list(np.shape(value.numpy() if isinstance(value, Tensor) else value))
            if shape != target.shape:
                warnings.warn(f"set_state_dict: skipped {key}: the given value has shape "
                              f"{shape}, but the layer expects {target.shape}")
                missing.append(key)
                continue
            with no_grad():
                target.set_value(value)
        used = set(keys.values())
        return missing, [k for k in state_dict if k not in used]

    set_dict = set_state_dict
    load_dict = set_state_dict

    # ----------------------------------------------------------------- call
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define forward()")

    def __call__(self, *inputs, **kwargs):
        if self._forward_pre_hooks:
            for hook in list(self._forward_pre_hooks.values()):
                result = hook(self, inputs)
                if result is not None:
                    inputs = result if isinstance(result, tuple) else (result,)
        outputs = self.forward(*inputs, **kwargs)
        if self._forward_post_hooks:
            for hook in list(self._forward_post_hooks.values()):
                result = hook(self, inputs, outputs)
                if result is not None:
                    outputs = result
        return outputs

    def register_forward_pre_hook(self, hook, *, prepend=False):
        """Call ``hook(layer, inputs)`` before each ``forward``; returns a removable handle.

        ``inputs`` is the tuple of positional inputs. A hook that returns
        something other than None replaces them (a non-tuple counts as one
        input). Hooks run in the order registered (``prepend=True`` puts
        this one first).

        >>> import pylayer
        >>> layer = pylayer.nn.Linear(2, 2)
        >>> handle = layer.register_forward_pre_hook(lambda layer, inputs: inputs[0] * 0)
        >>> float(layer(pylayer.ones([1, 2])).abs().sum() - layer.bias.abs().sum())
        0.0
        >>> handle.remove()
        """
        return _add_hook(self._forward_pre_hooks, hook, prepend, "register_forward_pre_hook")

    def register_forward_post_hook(self, hook, *, prepend=False):
        """Call ``hook(layer, inputs, output)`` after each ``forward``; returns a removable handle.

        A hook that returns something other than None replaces the output.

        >>> import pylayer
        >>> seen = []
        >>> layer = pylayer.nn.ReLU()
        >>> handle = layer.register_forward_post_hook(lambda l, i, o: seen.append(o.shape))
        >>> _ = layer(pylayer.ones([3]))
        >>> seen
        [[3]]
        """
        return _add_hook(self._forward_post_hooks, hook, prepend, "register_forward_post_hook")

    def full_name(self):
        """This layer's unique name, such as ``linear_0``."""
        return self._full_name

    def extra_repr(self):
        """Text shown inside this layer's repr; subclasses describe their settings."""
        return ""

    def __repr__(self):
        lines = [f"({name}): " + repr(layer).replace("\n", "\n  ")
                 for name, layer in self._sub_layers.items()]
        head = f"{type(self).__name__}({self.extra_repr()}"
        if not lines:
            return head + ")"
        return head + "\n  " + "\n  ".join(lines) + "\n)"
