"""Gradients in static programs: ``gradients`` and ``append_backward``.

A gradient op is one step of the program. When the Executor runs a program
that has one, the forward ops are replayed with gradient recording on, and
the gradient op runs the dynamic backward engine over what they recorded.
Which inputs get a gradient Variable (and which get None) is decided at
build time from the ops' differentiable outputs and the variables'
``stop_gradient`` flags.
"""
import numpy as np

from pylayer.autograd import grad
from pylayer.extend import describe, make_tensor
from pylayer.static._variable import Variable

__all__ = ["gradients", "append_backward"]

_GRAPH_ROLES = ("forward", "backward")


def _variable_list(value, fn, arg, allow_none_items=False):
    items = [value] if isinstance(value, Variable) else value
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"{fn}: argument '{arg}' must be a Variable or a list of Variables, "
                        f"got {type(value).__name__}")
    for i, item in enumerate(items):
        if item is None and allow_none_items:
            continue
        if not isinstance(item, Variable):
            raise TypeError(f"{fn}: argument '{arg}' item {i} must be a Variable, "
                            f"got {type(item).__name__}")
    return list(items)


def _names_of(no_grad_set, fn):
    if no_grad_set is None:
        return set()
    if isinstance(no_grad_set, (Variable, str)):
        no_grad_set = [no_grad_set]
    names = set()
    for item in no_grad_set:
        if isinstance(item, Variable):
            names.add(item.name)
        elif isinstance(item, str):
            names.add(item)
        else:
            raise TypeError(f"{fn}: no_grad_set must hold Variables or names, "
                            f"got {type(item).__name__}")
    return names


def _leaves(block):
    written = {v.name for op in block.ops if op.role in _GRAPH_ROLES for v in op.outputs}
    return [v for name, v in block.vars.items() if name not in written]


def _needing_grad(block, blocked):
    """Names of the variables that gradients can flow into."""
    needs = {v.name for v in _leaves(block) if not v.stop_gradient and v.name not in blocked}
    for op in block.ops:
        if op.role not in _GRAPH_ROLES or not any(v.name in needs for v in op.inputs):
            continue
        for var, flows in zip(op.outputs, op.differentiable):
            if flows and var.name not in blocked and not (var._stop_set and var.stop_gradient):
                needs.add(var.name)
    return needs


def _reaches(block, source, targets, needs):
    """Whether a differentiable path leads from ``source`` to one of ``targets``."""
    if source.name not in needs:
        return False
    deps = {source.name}
    for op in block.ops:
        if op.role not in _GRAPH_ROLES or not any(v.name in deps for v in op.inputs):
            continue
        for var, flows in zip(op.outputs, op.differentiable):
            if flows and var.name in needs:
                deps.add(var.name)
    return any(t.name in deps for t in targets)


def _ancestors(block, targets):
    """Names of the variables that ``targets`` are computed from (themselves included)."""
    found = {t.name for t in targets}
    for op in reversed(block.ops):
        if any(v.name in found for v in op.outputs):
            found.update(v.name for v in op.inputs)
    return found


class _GradientOp:
    """Run time of a gradient op: the dynamic engine over the replayed forward ops."""
    __name__ = "gradients"

    def __init__(self, n_targets, n_inputs, target_grad_mask, n_blocked):
        self.n_targets = n_targets
        self.n_inputs = n_inputs
        self.target_grad_mask = target_grad_mask   # per target: a gradient Variable given?
        self.n_blocked = n_blocked
        self.create_graph = False                 # set when a later gradient op needs it

    def __call__(self, *tensors):
        nt, ni = self.n_targets, self.n_inputs
        targets = list(tensors[:nt])
        inputs = list(tensors[nt:nt + ni])
        given = iter(tensors[nt + ni:len(tensors) - self.n_blocked])
        blocked = list(tensors[len(tensors) - self.n_blocked:])
        target_grads = [next(given) if has else None for has in self.target_grad_mask]
        live = [(t, g) for t, g in zip(targets, target_grads) if not t.stop_gradient]
        wanted = [x for x in inputs if not x.stop_gradient]
        found = {}
        if live and wanted:
            found = dict(zip(map(id, wanted), grad(
                [t for t, _ in live], wanted, [g for _, g in live], retain_graph=True,
                create_graph=self.create_graph, allow_unused=True, no_grad_vars=blocked)))
        grads = []
        for x in inputs:
            g = found.get(id(x))
            if g is None:
                g = make_tensor(np.zeros_like(x.numpy()))
            elif g.numpy().dtype != x.numpy().dtype:
                g = make_tensor(g.numpy().astype(x.numpy().dtype))
            grads.append(g)
        return grads


def _gradient_name(block, var):
    name = f"{var.name}@GRAD"
    n = 1
    while name in block.vars:
        name = f"{var.name}@GRAD_{n}"
        n += 1
    return name


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """Add ops computing d(sum of targets)/d(input) for each input; returns Variables.

    An input that no target depends on through differentiable ops (or that
    has ``stop_gradient=True``) gets None. ``target_gradients`` weights each
    target (ones by default).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [3], "float32")
    ...     x.stop_gradient = False
    ...     y = paddle.sum(x * x)
    ...     (dx,) = paddle.static.gradients(y, x)
    >>> dx.name
    'x@GRAD'
    >>> paddle.static.Executor().run(main, feed={"x": np.array([1, 2, 3], "float32")},
    ...                              fetch_list=[dx])
    [array([2., 4., 6.], dtype=float32)]
    >>> paddle.disable_static()
    """
    targets = _variable_list(targets, "gradients", "targets")
    inputs = _variable_list(inputs, "gradients", "inputs")
    if not targets:
        raise ValueError("gradients: targets is empty")
    if target_gradients is None:
        target_gradients = [None] * len(targets)
    else:
        target_gradients = _variable_list(target_gradients, "gradients", "target_gradients",
                                          allow_none_items=True)
        if len(target_gradients) != len(targets):
            raise ValueError(f"gradients: {len(target_gradients)} target_gradients for "
                             f"{len(targets)} targets; give one (or None) per target")
    program = targets[0].block.program
    for v in targets + inputs + [g for g in target_gradients if g is not None]:
        if v.block.program is not program:
            raise ValueError(f"gradients: Variable '{v.name}' belongs to another program "
                             f"than the targets")
    for t, g in zip(targets, target_gradients):
        if g is not None and g.shape != t.shape:
            raise ValueError(f"gradients: target_gradients entry '{g.name}' has shape "
                             f"{g.shape}, but target '{t.name}' has shape {t.shape}")
    block = program.global_block()
    blocked_names = _names_of(no_grad_set, "gradients")
    needs = _needing_grad(block, blocked_names)
    wanted = [x for x in inputs if _reaches(block, x, targets, needs)]
    if not wanted:
        return [None] * len(inputs)
    # An earlier gradient op whose results lead to these targets must record
    # its own backward, so that this one can differentiate through it.
    upstream = _ancestors(block, targets)
    for op in block.ops:
        if op.role == "backward" and any(v.name in upstream for v in op.outputs):
            op.fn.create_graph = True
    blocked = [v for name, v in block.vars.items()
               if name in blocked_names or (v._stop_set and v.stop_gradient and v.op is not None)]
    grad_vars = {}
    for x in wanted:
        name = _gradient_name(block, x)
        var = Variable(block, name, x.shape, x.dtype, stop_gradient=False, kind="grad")
        block.vars[name] = var
        grad_vars[id(x)] = var
    given = [g for g in target_gradients if g is not None]
    fn = _GradientOp(len(targets), len(wanted), [g is not None for g in target_gradients],
                     len(blocked))
    args = targets + wanted + given + blocked
    distinct = list({id(v): v for v in args}.values())
    outputs = [grad_vars[id(x)] for x in wanted]
    block.append_op("gradients", fn, args, {}, distinct, outputs, list(range(len(outputs))),
                    [True] * len(outputs), role="backward")
    return [grad_vars.get(id(x)) for x in inputs]


def _parameters_of(block, parameter_list, fn):
    if parameter_list is None:
        return [p for p in block.all_parameters() if p.trainable]
    if not isinstance(parameter_list, (list, tuple)):
        raise TypeError(f"{fn}(): argument 'parameter_list' must be a list or tuple of "
                        f"Parameters or names, or None, got {describe(parameter_list)}")
    params = []
    for i, item in enumerate(parameter_list):
        if isinstance(item, str):
            found = block.vars.get(item)
            if found is None:
                raise ValueError(f"{fn}(): argument 'parameter_list' item {i} names {item!r}, "
                                 f"which is not a variable of the loss's program")
            item = found
        if not isinstance(item, Variable):
            raise TypeError(f"{fn}(): argument 'parameter_list' must hold Parameters or "
                            f"names, item {i} is {describe(item)}")
        params.append(item)
    return params


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None):
    """Add the gradient ops of ``loss``; returns ``[(parameter, gradient), ...]``.

    Gradient Variables are named ``<parameter name>@GRAD``. Parameters that
    ``loss`` does not depend on, or listed in ``no_grad_set``, are left out.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     w = paddle.static.create_parameter([2, 1], "float32", name="w_ab_demo",
    ...                                        is_bias=True)
    ...     loss = paddle.mean(paddle.matmul(x, w))
    ...     [(param, grad)] = paddle.static.append_backward(loss)
    >>> param.name, grad.name
    ('w_ab_demo', 'w_ab_demo@GRAD')
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"x": np.array([[1, 2], [3, 4]], "float32")}, fetch_list=[grad])
    [array([[2.],
           [3.]], dtype=float32)]
    >>> paddle.disable_static()
    """
    if not isinstance(loss, Variable):
        raise TypeError(f"append_backward(): argument 'loss' must be a Variable, "
                        f"got {describe(loss)}")
    block = loss.block
    params = _parameters_of(block, parameter_list, "append_backward")
    skipped = _names_of(no_grad_set, "append_backward")
    params = [p for p in params if p.name not in skipped]
    if not params:
        return []
    grads = gradients([loss], params, no_grad_set=no_grad_set)
    return [(p, g) for p, g in zip(params, grads) if g is not None]
