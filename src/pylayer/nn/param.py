"""Parameters: ``ParamAttr`` describes one, ``create_parameter`` makes one.

A :class:`Parameter` is a leaf Tensor with ``stop_gradient=False``, a name,
``trainable`` (the opposite of ``stop_gradient``) and the per-parameter
settings the optimizers read (``optimize_attr['learning_rate']``,
``regularizer``, ``need_clip``).

Static mode: ``create_parameter`` is wrapped with
``pylayer.ops.dispatch.op(..., records_without_variables=True)``, so in static
mode the call goes to ``pylayer.static``, which makes a Parameter of the
Program instead. :func:`parameter_spec` resolves the same arguments to a
name, an initializer and the settings, so static mode can make its own
parameter variable and fill it with ``spec.initializer.generate(shape, dtype)``.
"""
import itertools
from collections import defaultdict, namedtuple

import numpy as np

from pylayer.extend import Tensor, check_count, check_dtype, get_default_dtype
from pylayer.ops.dispatch import op
from pylayer.nn.initializer import Constant, Initializer, XavierUniform, global_initializer
from pylayer.regularizer import WeightDecayRegularizer

__all__ = ["ParamAttr", "create_parameter"]

_name_counters = defaultdict(itertools.count)


def unique_name(prefix):
    """``prefix_0``, ``prefix_1``, ...: a new name on each call with the same prefix."""
    return f"{prefix}_{next(_name_counters[prefix])}"


class ParamAttr:
    """How to create a parameter: its name, initializer, learning-rate factor, and more.

    ``learning_rate`` multiplies the optimizer's rate for this parameter;
    ``regularizer`` (an ``L1Decay`` or ``L2Decay`` of :mod:`pylayer.regularizer`,
    or a number meaning ``L2Decay`` of it) takes the place of the optimizer's
    ``weight_decay`` for this parameter; ``need_clip=False`` exempts it
    from gradient clipping; ``trainable=False`` makes ``stop_gradient=True``.

    >>> import pylayer
    >>> attr = pylayer.ParamAttr(name="w", initializer=pylayer.nn.initializer.Constant(2.0))
    >>> w = pylayer.create_parameter([2], "float32", attr=attr)
    >>> w.name, w.numpy()
    ('w', array([2., 2.], dtype=float32))
    """

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, do_model_average=True, need_clip=True):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"ParamAttr(): argument 'name' must be a str or None, "
                            f"got {type(name).__name__}")
        if initializer is not None and not isinstance(initializer, Initializer):
            raise TypeError(f"ParamAttr(): argument 'initializer' must be an Initializer or "
                            f"None, got {type(initializer).__name__}")
        if not isinstance(learning_rate, (int, float)) or isinstance(learning_rate, bool) \
                or learning_rate < 0:
            raise ValueError(f"ParamAttr(): argument 'learning_rate' must be a non-negative "
                             f"number, got {learning_rate!r}")
        if regularizer is not None and not isinstance(regularizer, WeightDecayRegularizer) \
                and (not isinstance(regularizer, (int, float)) or isinstance(regularizer, bool)):
            raise TypeError(f"ParamAttr(): argument 'regularizer' must be an L1Decay or "
                            f"L2Decay, a number (an L2 coefficient) or None, "
                            f"got {type(regularizer).__name__}")
        self.name = name
        self.initializer = initializer
        self.learning_rate = float(learning_rate)
        self.regularizer = regularizer
        self.trainable = bool(trainable)
        self.do_model_average = bool(do_model_average)
        self.need_clip = bool(need_clip)

    @staticmethod
    def _to_attr(arg, fn="create_parameter", name="attr"):
        """None, a name, an Initializer, True or a ParamAttr -> ParamAttr; False stays False.

        ``fn`` and ``name`` are the function and argument that an error names.
        """
        if arg is None or arg is True:
            return ParamAttr()
        if arg is False or isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        raise TypeError(f"{fn}(): argument '{name}' must be a ParamAttr, a name, an "
                        f"Initializer, a bool or None, got {type(arg).__name__}")

    def __repr__(self):
        return (f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, "
                f"learning_rate={self.learning_rate}, trainable={self.trainable})")


class Parameter(Tensor):
    """A trainable leaf tensor owned by a layer or made by :func:`create_parameter`.

    >>> import pylayer
    >>> w = pylayer.nn.Linear(2, 3).weight
    >>> isinstance(w, pylayer.nn.Parameter), w.trainable, w.is_leaf
    (True, True, True)
    """

    _is_parameter = True  # Layer registers any value whose class says this
    # Whether tensor parallelism split it across processes (set by fleet's layers), as Paddle's.
    is_distributed = False

    @property
    def trainable(self):
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value):
        self.stop_gradient = not value

    @property
    def persistable(self):
        return True

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__


ParamSpec = namedtuple("ParamSpec", "name shape dtype initializer trainable learning_rate "
                                    "regularizer need_clip do_model_average")


def parameter_spec(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """Resolve ``create_parameter``'s arguments to a :data:`ParamSpec`.

    The initializer is the attr's, else ``default_initializer``, else
    ``Constant(0.0)`` for a bias and ``XavierUniform()`` for a weight.
    """
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    if not isinstance(shape, (list, tuple)) or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s >= 0 for s in shape):
        raise TypeError(f"create_parameter(): argument 'shape' must be a list of non-negative "
                        f"ints, got {shape!r}")
    check_count(int(np.prod([int(s) for s in shape], dtype=np.float64)), "create_parameter",
                "shape")
    attr = ParamAttr(name=name) if attr is None else ParamAttr._to_attr(attr)
    if attr is False:
        raise ValueError("create_parameter(): argument 'attr' must not be False")
    if default_initializer is not None and not isinstance(default_initializer, Initializer):
        raise TypeError(f"create_parameter(): argument 'default_initializer' must be an "
                        f"Initializer, got {type(default_initializer).__name__}")
    initializer = attr.initializer or global_initializer(is_bias) or default_initializer or (
        Constant(0.0) if is_bias else XavierUniform())
    return ParamSpec(name=attr.name or unique_name("create_parameter") + (".b_0" if is_bias
                                                                             else ".w_0"),
                     shape=[int(s) for s in shape],
                     dtype=check_dtype(dtype or get_default_dtype(), "create_parameter"),
                     initializer=initializer, trainable=attr.trainable,
                     learning_rate=attr.learning_rate, regularizer=attr.regularizer,
                     need_clip=attr.need_clip, do_model_average=attr.do_model_average)


def make_parameter(spec):
    """A new :class:`Parameter` holding ``spec.initializer``'s values."""
    param = Parameter.__new__(Parameter)
    Tensor.__init__(param, spec.initializer.generate(spec.shape, spec.dtype))
    param.stop_gradient = not spec.trainable
    param.name = spec.name
    param.optimize_attr = {"learning_rate": spec.learning_rate}
    param.regularizer = spec.regularizer
    param.need_clip = spec.need_clip
    param.do_model_average = spec.do_model_average
    return param


@op(records_without_variables=True)
def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """Make a trainable :class:`Parameter` of ``shape`` and ``dtype``.

    ``name`` is used when ``attr`` is None. Weights start from
    ``XavierUniform`` and biases from zeros unless ``attr.initializer`` or
    ``default_initializer`` says otherwise.

    >>> import pylayer
    >>> b = pylayer.create_parameter([3], "float32", is_bias=True)
    >>> b.stop_gradient, b.is_leaf, b.numpy()
    (False, True, array([0., 0., 0.], dtype=float32))
    """
    return make_parameter(parameter_spec(shape, dtype, name, attr, is_bias, default_initializer))
