"""``to_static`` and the switches around it."""
import functools
import types
import weakref

from pylayer.amp.auto_cast import state_key as _amp_state
from pylayer.extend import Tensor, describe
from pylayer.jit import _capture
from pylayer.nn import Layer
from pylayer.ops.dispatch import has_static_variable
from pylayer.static.input_spec import InputSpec

__all__ = ["to_static", "not_to_static", "ignore_module", "enable_to_static",
           "set_code_level", "set_verbosity", "StaticFunction"]

_state = {"enabled": True}
_ignored_modules = []
_NOT_TO_STATIC = "_pylayer_not_to_static"


def _check_specs(input_spec, fn):
    if input_spec is None:
        return None
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"{fn}(): argument 'input_spec' must be a list or tuple of InputSpec "
                        f"(or Tensors), got {describe(input_spec)}")
    return [InputSpec.from_tensor(s) if isinstance(s, Tensor) else s for s in input_spec]


class StaticFunction:
    """A function (or a Layer's ``forward``) that runs as a captured static program.

    The first call with a new input signature (the shapes, dtypes and
    ``stop_gradient`` of the Tensor arguments, the other arguments' values,
    and the Layer's training mode) runs the Python code once on Variables
    and keeps the Program it records; later calls with that signature run
    the Program. An ``input_spec`` dimension of None accepts any size.
    """

    def __init__(self, function, input_spec=None, instance=None):
        self._function = function
        self._input_spec = input_spec
        self._instance = instance
        self._programs = {}
        self._by_exact = {}     # a call of Tensors only: its exact signature -> program
        self._last = None
        self._bound = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, function)

    def __get__(self, instance, owner=None):
        if instance is None or self._instance is not None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = self._bound[instance] = StaticFunction(self._function, self._input_spec,
                                                           instance)
        return bound

    @property
    def dygraph_function(self):
        """The Python function that is captured."""
        if self._instance is not None:
            return types.MethodType(self._function, self._instance)
        return self._function

    @property
    def concrete_program(self):
        """The ConcreteProgram of the latest call (``.main_program`` is its Program)."""
        if self._last is None:
            if self._input_spec is None:
                raise ValueError(f"to_static(): {self.__qualname__} has not been called yet "
                                 f"and has no input_spec, so there is no program")
            return self.get_concrete_program(*self._input_spec)
        return self._last

    @property
    def main_program(self):
        return self.concrete_program.main_program

    @property
    def program_cache(self):
        """The captured programs, one per input signature."""
        return dict(self._programs)

    def get_traced_count(self):
        """How many programs have been captured."""
        return len(self._programs)

    def rollback(self):
        """Undo ``to_static``: the Python function (for a Layer's forward, the Layer's
        own ``forward`` comes back)."""
        if self._instance is not None and self._instance.__dict__.get("forward") is self:
            del self._instance.__dict__["forward"]
        return self.dygraph_function

    def _signature(self, args, kwargs):
        tensors = []
        arg_tree = _capture.flatten(args, tensors)
        n_positional = len(tensors)
        kwarg_tree = _capture.flatten(kwargs, tensors)
        specs = []
        positional_specs = self._spec_for_positionals(args)
        for i, t in enumerate(tensors):
            shape, name = tuple(t.shape), t.name
            spec = positional_specs.get(i) if i < n_positional else None
            if spec is not None:
                if len(spec.shape) != len(shape) or any(
                        d >= 0 and d != n for d, n in zip(spec.shape, shape)):
                    raise ValueError(f"to_static(): {self.__qualname__} got a Tensor of shape "
                                     f"{list(shape)} where its input_spec says "
                                     f"{list(spec.shape)} (-1 matches any size)")
                shape, name = spec.shape, spec.name
            specs.append((shape, t.dtype, bool(t.stop_gradient), name))
        training = getattr(self._instance, "training", None)
        key = (tuple((s[0], s[1].name, s[2]) for s in specs), _capture.hashable(arg_tree),
               _capture.hashable(kwarg_tree), training, _amp_state())
        return key, specs, arg_tree, kwarg_tree, tensors

    def _spec_for_positionals(self, args):
        """{index of a Tensor among the flattened positional arguments: its InputSpec}."""
        if not self._input_spec:
            return {}
        found = {}
        count = [0]

        def walk(arg, spec):
            if isinstance(arg, Tensor):
                if isinstance(spec, InputSpec):
                    found[count[0]] = spec
                count[0] += 1
            elif isinstance(arg, (list, tuple)):
                for i, item in enumerate(arg):
                    walk(item, spec[i] if isinstance(spec, (list, tuple)) and i < len(spec)
                         else None)
            elif isinstance(arg, dict):
                for k, item in arg.items():
                    walk(item, spec.get(k) if isinstance(spec, dict) else None)

        for i, arg in enumerate(args):
            walk(arg, self._input_spec[i] if i < len(self._input_spec) else None)
        return found

    def get_concrete_program(self, *args, **kwargs):
        """The ConcreteProgram for these arguments (InputSpecs or Tensors), captured
        now if it was not before."""
        specs, found = [], []
        tree_args = _capture.flatten(args, found)
        tree_kwargs = _capture.flatten(kwargs, found)
        for item in found:
            spec = item if isinstance(item, InputSpec) else InputSpec.from_tensor(item)
            specs.append((spec.shape, spec.dtype, spec.stop_gradient, spec.name))
        training = getattr(self._instance, "training", None)
        key = (tuple((s[0], s[1].name, s[2]) for s in specs), _capture.hashable(tree_args),
               _capture.hashable(tree_kwargs), training, _amp_state())
        return self._program_for(key, specs, tree_args, tree_kwargs)

    def _program_for(self, key, specs, arg_tree, kwarg_tree):
        concrete = self._programs.get(key)
        if concrete is None:
            concrete = _capture.capture(self.dygraph_function, specs, arg_tree, kwarg_tree,
                                        self.__qualname__)
            self._programs[key] = concrete
        self._last = concrete
        return concrete

    def __call__(self, *args, **kwargs):
        if not _state["enabled"] or has_static_variable(*args, **kwargs):
            return self.dygraph_function(*args, **kwargs)
        exact = None
        if not kwargs and all(isinstance(a, Tensor) for a in args):
            exact = (tuple((a._array.shape, a._array.dtype, a.stop_gradient) for a in args),
                     getattr(self._instance, "training", None), _amp_state())
            concrete = self._by_exact.get(exact)
            if concrete is not None:
                self._last = concrete
                return concrete.run(args)
        key, specs, arg_tree, kwarg_tree, tensors = self._signature(args, kwargs)
        concrete = self._program_for(key, specs, arg_tree, kwarg_tree)
        if exact is not None:
            self._by_exact[exact] = concrete
        return concrete.run(tensors)

    def __repr__(self):
        return f"<StaticFunction {self.__qualname__}>"


def _is_ignored(function):
    module = getattr(function, "__module__", None)
    return getattr(function, _NOT_TO_STATIC, False) or any(
        m.__name__ == module for m in _ignored_modules)


def to_static(function=None, input_spec=None, build_strategy=None, backend=None,
              **kwargs):
    """Run a function, or a Layer's ``forward``, as a captured static program.

    Usable as ``@to_static``, ``@to_static(input_spec=[...])`` or
    ``to_static(layer_or_function, input_spec)``; on a Layer, its ``forward``
    is replaced and the Layer is returned. The first call for each input
    signature runs the Python code once on Variables, recording every op
    it calls (and each ``PyLayer.apply`` as one operator) into a Program;
    later calls replay the Program, without the Python code around the ops.
    Gradients flow to the Layer's parameters as in dynamic mode, so a model
    trains through it. ``input_spec`` (a list of :class:`InputSpec`) gives
    the shapes, with None for a size that may change (one program for
    every batch size). Python control flow on a tensor's value cannot be
    captured: it raises a TypeError naming the line. ``build_strategy``,
    ``backend`` and ``full_graph`` are accepted for Paddle compatibility
    and change nothing.

    >>> import pylayer as paddle
    >>> from pylayer.static import InputSpec
    >>> net = paddle.jit.to_static(paddle.nn.Linear(3, 2),
    ...                            input_spec=[InputSpec([None, 3], "float32")])
    >>> net(paddle.ones([4, 3])).shape
    [4, 2]
    >>> @paddle.jit.to_static
    ... def scaled(x, factor=2.0):
    ...     return paddle.tanh(x) * factor
    >>> scaled(paddle.zeros([2])).numpy()
    array([0., 0.], dtype=float32)
    """
    unknown = sorted(set(kwargs) - {"full_graph", "property"})
    if unknown:
        raise TypeError(f"to_static(): unexpected keyword argument(s) {unknown}")
    specs = _check_specs(input_spec, "to_static")

    def decorate(target):
        if isinstance(target, Layer):
            forward = target.forward
            if isinstance(forward, StaticFunction):
                forward = forward.dygraph_function
            if _is_ignored(getattr(forward, "__func__", forward)):
                return target
            method = getattr(forward, "__func__", None)
            target.__dict__["forward"] = (StaticFunction(method, specs, target)
                                          if method is not None
                                          else StaticFunction(forward, specs))
            return target
        if isinstance(target, StaticFunction):
            return StaticFunction(target._function, specs or target._input_spec,
                                  target._instance)
        if not callable(target):
            raise TypeError(f"to_static(): argument 'function' must be a function or a "
                            f"Layer, got {describe(target)}")
        if _is_ignored(target):
            return target
        if isinstance(target, types.MethodType):
            return StaticFunction(target.__func__, specs, target.__self__)
        return StaticFunction(target, specs)

    if function is None:
        return decorate
    return decorate(function)


def not_to_static(func=None):
    """Mark ``func`` to run as Python: ``to_static`` leaves it as it is.

    >>> import pylayer as paddle
    >>> @paddle.jit.not_to_static
    ... def helper(x):
    ...     return x + 1
    >>> paddle.jit.to_static(helper) is helper
    True
    """
    if func is None:
        return not_to_static
    if not callable(func):
        raise TypeError(f"not_to_static(): argument 'func' must be callable, "
                        f"got {describe(func)}")
    setattr(getattr(func, "__func__", func), _NOT_TO_STATIC, True)
    return func


def ignore_module(modules):
    """Leave the functions of ``modules`` (a list of modules) as Python:
    ``to_static`` returns them unchanged.

    >>> import math
    >>> import pylayer as paddle
    >>> paddle.jit.ignore_module([math])
    """
    if not isinstance(modules, list) or not all(
            isinstance(m, types.ModuleType) for m in modules):
        raise TypeError(f"ignore_module(): argument 'modules' must be a list of modules, "
                        f"got {describe(modules)}")
    for m in modules:
        if m not in _ignored_modules:
            _ignored_modules.append(m)


def enable_to_static(enable_to_static_bool):
    """Turn every ``to_static`` function on (True) or off (False: they run their Python
    code as in dynamic mode).

    >>> import pylayer as paddle
    >>> paddle.jit.enable_to_static(False)
    >>> paddle.jit.enable_to_static(True)
    """
    if not isinstance(enable_to_static_bool, bool):
        raise TypeError(f"enable_to_static(): argument 'enable_to_static_bool' must be a "
                        f"bool, got {describe(enable_to_static_bool)}")
    _state["enabled"] = enable_to_static_bool


def _log_setting(fn, level, also_to_stdout):
    if not isinstance(level, int) or isinstance(level, bool):
        raise TypeError(f"{fn}(): argument 'level' must be an int, got {describe(level)}")
    if not isinstance(also_to_stdout, bool):
        raise TypeError(f"{fn}(): argument 'also_to_stdout' must be a bool, "
                        f"got {describe(also_to_stdout)}")


def set_code_level(level=100, also_to_stdout=False):
    """Log each captured Program (logger ``pylayer.jit``, and print it with
    ``also_to_stdout``) when ``level`` is above 0.

    >>> import pylayer as paddle
    >>> paddle.jit.set_code_level(0)
    """
    _log_setting("set_code_level", level, also_to_stdout)
    _capture._settings.update(code_level=level, code_stdout=also_to_stdout)


def set_verbosity(level=0, also_to_stdout=False):
    """Log each capture and its input signature (logger ``pylayer.jit``) when
    ``level`` is above 0.

    >>> import pylayer as paddle
    >>> paddle.jit.set_verbosity(0)
    """
    _log_setting("set_verbosity", level, also_to_stdout)
    _capture._settings.update(verbosity=level, verbosity_stdout=also_to_stdout)
