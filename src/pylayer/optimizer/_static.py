"""An optimizer in a static program: ``minimize`` of a Variable loss appends the
backward ops and an update op that runs the optimizer's dynamic-mode update."""
import numpy as np

from pylayer.extend import make_tensor
from pylayer.static import Variable, append_backward, default_startup_program

__all__ = []


class _OptimizerStep:
    """Run time of an update op: the optimizer's own dynamic-mode update.

    Each parameter's value is copied into a Tensor that carries the
    parameter's name and settings, and ``optimizer._apply_gradients`` updates
    it (clipping, weight decay, the learning-rate factor and the optimizer's
    accumulators, exactly as ``step()`` does in dynamic mode).
    """

    def __init__(self, optimizer, params):
        self.optimizer = optimizer
        self.meta = [(p.name, p.regularizer, p.learning_rate) for p in params]
        self.__name__ = type(optimizer).__name__.lower()

    def __call__(self, *tensors):
        n = len(self.meta)
        pairs = []
        for (name, regularizer, learning_rate), p, g in zip(self.meta, tensors[:n], tensors[n:]):
            value = make_tensor(np.array(p.numpy(), copy=True), False)
            value.name = name
            value.regularizer = regularizer
            value.optimize_attr = {"learning_rate": learning_rate}
            pairs.append((value, g))
        self.optimizer._apply_gradients(pairs)
        return [value for value, _ in pairs]


class _ResetOptimizerState:
    """Startup op: forget the optimizer's accumulators of these parameters."""

    def __init__(self, optimizer, names):
        self.optimizer = optimizer
        self.names = list(names)
        self.__name__ = f"reset_{type(optimizer).__name__.lower()}_state"

    def __call__(self):
        accumulators = getattr(self.optimizer, "_accumulators", {})
        for name in self.names:
            accumulators.pop(name, None)


def minimize(optimizer, loss, parameters=None, no_grad_set=None, startup_program=None):
    """Append backward and update ops for ``optimizer``; returns (ops, params_grads).

    An optimizer's ``minimize`` calls it when ``loss`` is a Variable. The update
    op runs the optimizer's dynamic-mode update on the parameters' values in the
    scope, so static and dynamic training give the same numbers; running the
    startup program again also resets the optimizer's accumulators (Adam's
    moments).
    """
    if not isinstance(loss, Variable):
        raise TypeError(f"{type(optimizer).__name__}.minimize: loss must be a Variable in "
                        f"static mode, got {type(loss).__name__}")
    if not callable(getattr(optimizer, "_apply_gradients", None)):
        raise TypeError(f"minimize: {type(optimizer).__name__} is not a pylayer optimizer "
                        f"(it has no _apply_gradients)")
    block = loss.block
    if parameters is not None:
        parameters = list(parameters)
        if not all(isinstance(p, (Variable, str)) for p in parameters):
            parameters = None   # dynamic-mode parameters mean nothing in a program
    params_grads = append_backward(loss, parameters, no_grad_set)
    if not params_grads:
        return [], params_grads
    params = [p for p, _ in params_grads]
    startup = startup_program if startup_program is not None else default_startup_program()
    reset = _ResetOptimizerState(optimizer, [p.name for p in params])
    startup.global_block().append_op(reset.__name__, reset, (), {}, [], [], [], [],
                                     role="init")
    update = _OptimizerStep(optimizer, params)
    args = params + [g for _, g in params_grads]
    op = block.append_op(update.__name__, update, args, {}, args, params,
                         list(range(len(params))), [False] * len(params), role="optimize")
    return [op], params_grads
