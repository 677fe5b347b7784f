"""Control flow in static programs: ``cond``, ``while_loop``, ``case``, ``switch_case``.

In a static program a branch or a loop body is recorded once into a sub-block
of the Program. The block it was built in gets one operator whose inputs are
the predicate (or the loop variables) and every outer Variable the sub-blocks
read; at run time that operator runs the ops of the chosen sub-block on
Tensors, by variable name. Gradients go through it as through any op: the
forward replay records what the sub-block ops computed.

In dynamic mode the functions run the branches and the loop eagerly.
"""
from functools import partial

from pylayer.extend import Tensor, check_str, describe
from pylayer.static._array import array_variable
from pylayer.static._program import default_main_program
from pylayer.static._variable import Variable, public_api

__all__ = ["cond", "while_loop", "case", "switch_case", "run_block"]


# ------------------------------------------------------------ sub-blocks
def _bind(value, env):
    if isinstance(value, Variable):
        return env[value.name]
    if isinstance(value, list):
        return [_bind(v, env) for v in value]
    if isinstance(value, tuple):
        return tuple(_bind(v, env) for v in value)
    if isinstance(value, dict):
        return {k: _bind(v, env) for k, v in value.items()}
    return value


def run_block(block, env):
    """Run the ops of ``block`` on the Tensors of ``env`` (a dict from variable names),
    storing what each op writes back into ``env``."""
    for op in block.ops:
        result = op.fn(*_bind(op.args, env), **_bind(op.kwargs, env))
        for var, index in zip(op.outputs, op.out_index):
            env[var.name] = result if index is None else result[index]
    return env


def _free_names(blocks, outputs, provided=()):
    """Outer Variables that ``blocks`` read before writing them, in order of first use,
    together with outputs that are outer Variables returned as they are."""
    free = {}
    for block in blocks:
        made = set(provided)
        for op in block.ops:
            for var in op.inputs:
                if var.name not in made and var.block is not block:
                    free.setdefault(var.name, var)
            made.update(v.name for v in op.outputs)
    for var in outputs:
        if var.block not in blocks and var.name not in provided:
            free.setdefault(var.name, var)
    return list(free.values())


def _carried(blocks, free):
    """The outer Variables among ``free`` that ops of ``blocks`` write (such as an array
    written inside a loop body): the control-flow op hands their new values out."""
    free_names = {v.name for v in free}
    written = {}
    for block in blocks:
        for op in block.ops:
            for var in op.outputs:
                if var.name in free_names:
                    written.setdefault(var.name, var)
    return list(written.values())


def _like(block, name, source, shape, stop_gradient):
    """A new Variable of ``block`` for an output like ``source`` (an array stays one)."""
    if source.kind == "array":
        return array_variable(block, name, source.dtype, getattr(source, "element_shape", None),
                              stop_gradient)
    var = Variable(block, name, shape, source.dtype, stop_gradient=stop_gradient, kind="tmp")
    block.vars[name] = var
    return var


def _flatten(value, fn, what):
    """The Variables of a branch result (None, a Variable, or nested lists/tuples of them)
    and a function that rebuilds the same structure from a list of items."""
    if value is None:
        return [], lambda items: None
    if isinstance(value, Variable):
        return [value], lambda items: items[0]
    if isinstance(value, (list, tuple)):
        parts = [_flatten(v, fn, what) for v in value]
        flat = [v for p, _ in parts for v in p]
        sizes = [len(p) for p, _ in parts]
        kind = type(value)

        def rebuild(items):
            out, start = [], 0
            for (_, build), size in zip(parts, sizes):
                out.append(build(items[start:start + size]))
                start += size
            return out if kind is list else tuple(out)
        return flat, rebuild
    raise TypeError(f"{fn}(): {what} must return Variables (or a list/tuple of them, or "
                    f"None), got {describe(value)}")


def _structure(value):
    if isinstance(value, (list, tuple)):
        return (type(value) is list, tuple(_structure(v) for v in value))
    return value is None


def _merged_shape(a, b):
    if len(a) != len(b):
        return None
    return [x if x == y else -1 for x, y in zip(a, b)]


class _CondOp:
    """Run time of a ``cond``: the ops of one branch block, picked by the predicate."""
    __name__ = "cond"

    def __init__(self, free, branches, outputs, carried=()):
        self.free = free                    # names of the inputs after the predicate
        self.branches = branches            # (true block, names), (false block, names)
        self.outputs = outputs
        self.carried = list(carried)        # outer variables the branches write

    def __call__(self, pred, *values):
        block, names = self.branches[0 if bool(pred.numpy().reshape(-1)[0]) else 1]
        env = run_block(block, dict(zip(self.free, values)))
        return [_own(env[name], values) for name in names + self.carried]


def _own(tensor, inputs):
    """An output of a control-flow op that is one of its inputs is a copy of it."""
    if isinstance(tensor, list):
        return list(tensor)
    if any(tensor is x for x in inputs):
        return public_api().assign(tensor)
    return tensor


def _check_pred(pred, fn, arg):
    if not isinstance(pred, (Variable, Tensor)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a bool Tensor of one element, "
                        f"got {describe(pred)}")
    if isinstance(pred, Variable) and pred.dtype.name != "bool":
        raise TypeError(f"{fn}(): argument '{arg}' must be a bool Tensor, got dtype "
                        f"{pred.dtype.name}")
    if isinstance(pred, Variable):
        size = 1
        for d in pred.shape:
            size *= d
        if size != 1 and -1 not in pred.shape:
            raise ValueError(f"{fn}(): argument '{arg}' must hold one element, got shape "
                             f"{pred.shape}")
    elif pred.size != 1:
        raise ValueError(f"{fn}(): argument '{arg}' must hold one element, got shape "
                         f"{pred.shape}")


def _check_fn(value, fn, arg):
    if value is not None and not callable(value):
        raise TypeError(f"{fn}(): argument '{arg}' must be callable or None, "
                        f"got {describe(value)}")


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """``true_fn()`` if ``pred`` is true, else ``false_fn()``.

    ``pred`` is a bool Tensor of one element. In a static program both
    functions are recorded, each into a sub-block, and the Executor runs the
    one the predicate picks each time; they must return the same structure
    of Variables (same dtypes; a size that differs becomes ``-1``), or both
    None. Gradients flow through the branch that ran. In dynamic mode the
    chosen function is called at once (a missing one gives None).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [1], "float32")
    ...     y = paddle.static.nn.cond(x > 0, lambda: x * 2.0, lambda: -x)
    >>> exe = paddle.static.Executor()
    >>> [exe.run(main, feed={"x": np.array([v], "float32")}, fetch_list=[y])[0]
    ...  for v in (3.0, -5.0)]
    [array([6.], dtype=float32), array([5.], dtype=float32)]
    >>> paddle.disable_static()
    """
    _check_pred(pred, "cond", "pred")
    _check_fn(true_fn, "cond", "true_fn")
    _check_fn(false_fn, "cond", "false_fn")
    check_str(name, "cond", "name", allow_none=True)
    if not isinstance(pred, Variable):
        chosen = true_fn if bool(pred.item()) else false_fn
        return None if chosen is None else chosen()
    program = default_main_program()
    if pred.block.program is not program:
        raise ValueError(f"cond(): argument 'pred' ('{pred.name}') belongs to another Program "
                         f"than the one being built")
    results = []
    for branch in (true_fn, false_fn):
        with program._sub_block() as block:
            returned = branch() if branch is not None else None
        results.append((block, returned))
    (true_block, true_out), (false_block, false_out) = results
    if (true_out is None) != (false_out is None):
        which = "true_fn" if true_out is None else "false_fn"
        raise ValueError(f"cond(): {which} returns None while the other branch returns "
                         f"Variables; both must return the same structure")
    true_vars, rebuild = _flatten(true_out, "cond", "true_fn")
    false_vars, _ = _flatten(false_out, "cond", "false_fn")
    if _structure(true_out) != _structure(false_out) or len(true_vars) != len(false_vars):
        raise ValueError(f"cond(): true_fn and false_fn must return the same structure, got "
                         f"{len(true_vars)} and {len(false_vars)} Variables")
    block = program.current_block()
    outputs = []
    for i, (a, b) in enumerate(zip(true_vars, false_vars)):
        if a.dtype != b.dtype:
            raise TypeError(f"cond(): output {i} of true_fn has dtype {a.dtype.name}, but "
                            f"false_fn's has {b.dtype.name}; both branches must agree")
        shape = _merged_shape(a.shape, b.shape)
        if shape is None:
            raise ValueError(f"cond(): output {i} of true_fn has shape {a.shape}, but "
                             f"false_fn's has {b.shape}; both must have as many dimensions")
        var_name = program._unique_name("cond") + ".tmp_0"
        outputs.append(_like(block, var_name, a, shape, a.stop_gradient and b.stop_gradient))
    free = [v for v in _free_names([true_block, false_block], true_vars + false_vars)
            if v.name != pred.name]
    carried = _carried([true_block, false_block], free)
    fn = _CondOp([v.name for v in free], [(true_block, [v.name for v in true_vars]),
                                          (false_block, [v.name for v in false_vars])],
                 [v.name for v in outputs], [v.name for v in carried])
    written = outputs + carried
    floating = [o.dtype.is_floating_point or o.dtype.is_complex for o in written]
    block.append_op("cond", fn, [pred, *free], {}, [pred, *free], written,
                    list(range(len(written))), floating)
    return rebuild(outputs)


# ------------------------------------------------------------- while_loop
class _WhileOp:
    """Run time of a ``while_loop``: the body block while the condition block says so."""
    __name__ = "while_loop"

    def __init__(self, n_loop, free, loop_names, cond_block, cond_name, body_block,
                 body_names, carried=()):
        self.carried = list(carried)        # outer variables the body writes
        self.n_loop = n_loop
        self.free = free
        self.loop_names = loop_names
        self.cond_block, self.cond_name = cond_block, cond_name
        self.body_block, self.body_names = body_block, body_names

    def __call__(self, *values):
        current = list(values[:self.n_loop])
        outer = dict(zip(self.free, values[self.n_loop:]))
        while True:
            env = run_block(self.cond_block, {**outer, **dict(zip(self.loop_names, current))})
            if not bool(env[self.cond_name].numpy().reshape(-1)[0]):
                break
            env = run_block(self.body_block, {**outer, **dict(zip(self.loop_names, current))})
            current = [env[name] for name in self.body_names]
            outer.update((name, env[name]) for name in self.carried)
        return [_own(t, values) for t in current + [outer[n] for n in self.carried]]


def _check_loop_cond(value, fn):
    if not isinstance(value, (Variable, Tensor)) or value.dtype.name != "bool":
        raise TypeError(f"{fn}(): cond must return a bool Tensor of one element, "
                        f"got {describe(value)}")
    _check_pred(value, fn, "cond")


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` is true.

    ``cond`` returns a bool Tensor of one element; ``body`` returns as many
    values as ``loop_vars`` holds. Returns the final loop variables as a
    list. In a static program the condition and the body are each recorded
    once into a sub-block and the Executor loops over them; gradients flow
    through every iteration. In dynamic mode the loop runs at once and, as
    in Paddle, each Tensor of ``loop_vars`` is overwritten with its final
    value (the returned list is ``loop_vars``).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     i = paddle.full([1], 0, "int64")
    ...     ten = paddle.full([1], 10, "int64")
    ...     i, ten = paddle.static.nn.while_loop(lambda i, n: i < n,
    ...                                          lambda i, n: [i + 1, n], [i, ten])
    >>> paddle.static.Executor().run(main, fetch_list=[i])
    [array([10])]
    >>> paddle.disable_static()
    """
    if not callable(cond):
        raise TypeError(f"while_loop(): argument 'cond' must be callable, got {describe(cond)}")
    if not callable(body):
        raise TypeError(f"while_loop(): argument 'body' must be callable, got {describe(body)}")
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError(f"while_loop(): argument 'loop_vars' must be a list or tuple, "
                        f"got {describe(loop_vars)}")
    if not loop_vars:
        raise ValueError("while_loop(): argument 'loop_vars' must not be empty")
    check_str(name, "while_loop", "name", allow_none=True)
    pre_cond = cond(*loop_vars)
    _check_loop_cond(pre_cond, "while_loop")
    if not isinstance(pre_cond, Variable):
        return _eager_loop(cond, body, loop_vars, pre_cond)
    for i, v in enumerate(loop_vars):
        if not isinstance(v, Variable):
            raise TypeError(f"while_loop(): argument 'loop_vars' item {i} must be a Variable "
                            f"in a static program, got {describe(v)}")
    program = default_main_program()
    outer = program.current_block()
    with program._sub_block() as body_block:
        places = []
        for v in loop_vars:
            places.append(_like(body_block, program._unique_name("loop_var"), v, v.shape,
                                v.stop_gradient))
        produced = body(*places)
        produced = list(produced) if isinstance(produced, (list, tuple)) else [produced]
    if len(produced) != len(loop_vars):
        raise ValueError(f"while_loop(): body must return as many values as loop_vars "
                         f"({len(loop_vars)}), got {len(produced)}")
    for i, (new, old) in enumerate(zip(produced, loop_vars)):
        if not isinstance(new, Variable):
            raise TypeError(f"while_loop(): body must return Variables, item {i} is "
                            f"{describe(new)}")
        if new.dtype != old.dtype:
            raise TypeError(f"while_loop(): body returns dtype {new.dtype.name} for loop "
                            f"variable {i}, which is {old.dtype.name}")
        if len(new.shape) != len(old.shape):
            raise ValueError(f"while_loop(): body returns shape {new.shape} for loop "
                             f"variable {i}, which has shape {old.shape}")
    with program._sub_block() as cond_block:
        for place in places:
            cond_block.vars[place.name] = place
        again = cond(*places)
        _check_loop_cond(again, "while_loop")
    loop_names = [p.name for p in places]
    free = _free_names([body_block, cond_block], produced + [again], provided=loop_names)
    free = [v for v in free if v.name not in loop_names]
    outputs = []
    for old, new in zip(loop_vars, produced):
        var_name = program._unique_name("while_loop") + ".tmp_0"
        outputs.append(_like(outer, var_name, old, _merged_shape(old.shape, new.shape),
                             old.stop_gradient and new.stop_gradient))
    carried = _carried([body_block], free)
    fn = _WhileOp(len(loop_vars), [v.name for v in free], loop_names, cond_block, again.name,
                  body_block, [v.name for v in produced], [v.name for v in carried])
    written = outputs + carried
    floating = [o.dtype.is_floating_point or o.dtype.is_complex for o in written]
    inputs = list(loop_vars) + free
    outer.append_op("while_loop", fn, inputs, {}, inputs, written,
                    list(range(len(written))), floating)
    return outputs


def _eager_loop(cond, body, loop_vars, pre_cond):
    current = list(loop_vars)
    go = bool(pre_cond.item())
    while go:
        produced = body(*current)
        produced = list(produced) if isinstance(produced, (list, tuple)) else [produced]
        if len(produced) != len(loop_vars):
            raise ValueError(f"while_loop(): body must return as many values as loop_vars "
                             f"({len(loop_vars)}), got {len(produced)}")
        current = produced
        again = cond(*current)
        _check_loop_cond(again, "while_loop")
        go = bool(again.item())
    assign = public_api().assign
    for i, (old, new) in enumerate(zip(loop_vars, current)):
        if isinstance(old, Tensor) and isinstance(new, Tensor):
            if new is not old:
                assign(new, output=old)
        elif isinstance(loop_vars, list):
            loop_vars[i] = new
    return loop_vars if isinstance(loop_vars, list) else list(loop_vars)


# ------------------------------------------------------- case, switch_case
def case(pred_fn_pairs, default=None, name=None):
    """The result of the first ``fn`` whose ``pred`` is true, else ``default()``.

    ``pred_fn_pairs`` is a list of ``(pred, fn)`` tuples, each ``pred`` a
    bool Tensor of one element. Without ``default`` the last pair's ``fn``
    is the default. Built from nested :func:`cond` calls.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([0.25])
    >>> paddle.static.nn.case([(x > 0.5, lambda: x * 10), (x > 0.2, lambda: x * 100)],
    ...                       default=lambda: x)
    Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True,
           [25.])
    """
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise TypeError(f"case(): argument 'pred_fn_pairs' must be a list or tuple of "
                        f"(pred, fn) tuples, got {describe(pred_fn_pairs)}")
    for i, pair in enumerate(pred_fn_pairs):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"case(): argument 'pred_fn_pairs' item {i} must be a (pred, fn) "
                            f"tuple, got {describe(pair)}")
        _check_pred(pair[0], "case", f"pred_fn_pairs[{i}][0]")
        if not callable(pair[1]):
            raise TypeError(f"case(): the fn of pred_fn_pairs item {i} must be callable, "
                            f"got {describe(pair[1])}")
    if not pred_fn_pairs:
        raise ValueError("case(): argument 'pred_fn_pairs' must not be empty")
    check_str(name, "case", "name", allow_none=True)
    pairs = list(pred_fn_pairs)
    if default is None:
        default = pairs.pop()[1]
    elif not callable(default):
        raise TypeError(f"case(): argument 'default' must be callable or None, "
                        f"got {describe(default)}")
    chosen = default
    for pred, fn in reversed(pairs):
        chosen = partial(cond, pred, fn, chosen)
    return chosen()


def switch_case(branch_index, branch_fns, default=None, name=None):
    """The result of the branch function whose key equals ``branch_index``.

    ``branch_index`` is an integer Tensor of one element; ``branch_fns`` is a
    dict ``{int: fn}``, a list of ``(int, fn)`` tuples, or a list of
    functions (keyed 0, 1, ...). Without ``default`` the function with the
    largest key is the default. Built from nested :func:`cond` calls.

    >>> import pylayer as paddle
    >>> index = paddle.to_tensor([1], dtype="int32")
    >>> paddle.static.nn.switch_case(index, {0: lambda: paddle.full([1], 5.0),
    ...                                      1: lambda: paddle.full([1], 7.0)})
    Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True,
           [7.])
    """
    pl = public_api()
    if not isinstance(branch_index, (Variable, Tensor)):
        raise TypeError(f"switch_case(): argument 'branch_index' must be an integer Tensor of "
                        f"one element, got {describe(branch_index)}")
    if isinstance(branch_index, Variable) and \
            branch_index.dtype.name not in ("uint8", "int32", "int64"):
        raise TypeError(f"switch_case(): argument 'branch_index' must have dtype uint8, int32 "
                        f"or int64, got {branch_index.dtype.name}")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError(f"switch_case(): argument 'branch_fns' must be a dict, list or tuple, "
                        f"got {describe(branch_fns)}")
    check_str(name, "switch_case", "name", allow_none=True)
    pairs = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if pairs and all(callable(fn) for fn in pairs):
        pairs = list(enumerate(pairs))
    keys = set()
    for i, pair in enumerate(pairs):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"switch_case(): argument 'branch_fns' item {i} must be an "
                            f"(int, fn) tuple, got {describe(pair)}")
        key, fn = pair
        if not isinstance(key, int) or isinstance(key, bool):
            raise TypeError(f"switch_case(): the keys of 'branch_fns' must be ints, "
                            f"got {describe(key)}")
        if key in keys:
            raise ValueError(f"switch_case(): the key {key} appears more than once in "
                             f"'branch_fns'")
        keys.add(key)
        if not callable(fn):
            raise TypeError(f"switch_case(): the function for key {key} must be callable, "
                            f"got {describe(fn)}")
    if not pairs:
        raise ValueError("switch_case(): argument 'branch_fns' must not be empty")
    pairs.sort(key=lambda p: p[0])
    if default is None:
        default = pairs.pop()[1]
    elif not callable(default):
        raise TypeError(f"switch_case(): argument 'default' must be callable or None, "
                        f"got {describe(default)}")
    index = branch_index if branch_index.dtype.name == "int64" \
        else pl.cast(branch_index, "int64")
    index = pl.reshape(index, [1])
    pred_fn_pairs = [(pl.equal(index, pl.full([1], key, "int64")), fn) for key, fn in pairs]
    if not pred_fn_pairs:
        return default()
    return case(pred_fn_pairs, default)
