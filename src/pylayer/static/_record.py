"""Recording ops into the current Program (static mode).

A public op called with a Variable among its arguments hands itself (the
unwrapped function) and its arguments to :func:`record_op`, which
``pylayer.static`` registers with ``pylayer.ops.dispatch``. The call is
stored in the current block as an :class:`~pylayer.static.Operator`.

Output shapes and dtypes are found at build time by running the op once on
small stand-in tensors; a ``-1`` dimension is tried with two different sizes
and stays ``-1`` in every output dimension that changes with it.
"""
import contextlib
import inspect
import threading

import numpy as np

from pylayer.autograd import set_grad_enabled
from pylayer.extend import Tensor, make_tensor
from pylayer.static._program import create_parameter, default_main_program, parameters_of
from pylayer.static._variable import Variable, public_api, substitute, variables_in

__all__ = []

# Sizes tried for -1 dimensions when inferring output shapes: two different
# sizes with many divisors, so that reshapes like [4, -1] still work.
_TRIAL_SIZES = (6, 12)


_computing = threading.local()     # .depth: program runs and trial runs under way


@contextlib.contextmanager
def computing():
    """Within it (an Executor's run, an op's trial run), the Python code of ops runs on
    Tensors: a creation op called without Variables computes its tensor instead of
    adding an operator to the Program."""
    _computing.depth = getattr(_computing, "depth", 0) + 1
    try:
        yield
    finally:
        _computing.depth -= 1


def _dynamic_create_parameter():
    from pylayer.nn import param
    return param.create_parameter.__wrapped__


@contextlib.contextmanager
def _random_streams_kept():
    """Leave pylayer's and numpy's random streams as they were (for trial runs)."""
    from pylayer.ops.creation import get_rng
    rng = get_rng()
    state = rng.bit_generator.state
    np_state = np.random.get_state()
    try:
        yield
    finally:
        rng.bit_generator.state = state
        np.random.set_state(np_state)


def _stand_in(var, size, int_fill=0, regular=False):
    shape = [size if d < 0 else d for d in var._shape]
    np_dtype = var._dtype.np_dtype
    if not (var._dtype.is_floating_point or var._dtype.is_complex):
        return make_tensor(np.full(shape, int_fill, np_dtype))
    values = np.full(shape, 0.5, np_dtype)
    if regular and len(shape) >= 2:
        values = values + np.eye(shape[-2], shape[-1], dtype=np_dtype)
    # Floating stand-ins need a gradient, so that the trial shows which
    # outputs are differentiable; an op output rather than a leaf, so that
    # in-place ops (``x[0] = v``) accept them.
    return public_api().assign(make_tensor(values, False))


def _read_only(array):
    view = array.view()
    view.flags.writeable = False
    return view


def _private(value, arrays, made):
    """``value`` with each Tensor in it replaced by a Tensor of its own over
    ``arrays(tensor's array)`` (one for each Tensor, kept in ``made``): an op that
    gives an argument a new array (batch norm's running statistics) gives it to that
    Tensor only."""
    if isinstance(value, Tensor):
        own = made.get(id(value))
        if own is None:
            own = made[id(value)] = make_tensor(arrays(value._array), value.stop_gradient)
        return own
    if isinstance(value, list):
        return [_private(v, arrays, made) for v in value]
    if isinstance(value, tuple):
        return tuple(_private(v, arrays, made) for v in value)
    if isinstance(value, dict):
        return {k: _private(v, arrays, made) for k, v in value.items()}
    return value


def _trial_call(fn, args, kwargs, stand_ins):
    """``fn`` called with the stand-ins for the Variables and Tensors of their own for
    the Tensors, so that a trial changes no tensor of the caller's: first over
    read-only views of their arrays (no copy); when that fails (the op writes into an
    argument, ``output=``), over copies."""
    try:
        return _call_with(fn, args, kwargs, stand_ins, _read_only)
    except Exception:
        return _call_with(fn, args, kwargs, stand_ins, np.array)


def _call_with(fn, args, kwargs, stand_ins, arrays):
    made = {}
    return fn(*substitute(_private(args, arrays, made), stand_ins),
              **substitute(_private(kwargs, arrays, made), stand_ins))


def _trial(fn, args, kwargs, variables, size):
    # Integer stand-ins are zeros (a valid index for any axis); the second try, for an
    # op that divides by them or refuses them (1-based pivots) or refuses a singular
    # matrix, has ones and floating matrices 0.5 + I (invertible, positive definite).
    for int_fill in (0, 1):
        stand_ins = {id(v): _stand_in(v, size, int_fill, regular=bool(int_fill))
                     for v in variables}
        try:
            result = _trial_call(fn, args, kwargs, stand_ins)
        except (ZeroDivisionError, ValueError):
            if int_fill:
                raise
            continue
        return result, stand_ins


def _other_values(fn, args, kwargs, variables):
    """The result with integer and bool stand-ins of another value (ones), or None
    when the op refuses them: where a result's size depends on such values (a
    shape, an axis, a count given as a Variable) the two results differ."""
    stand_ins = {id(v): _stand_in(v, _TRIAL_SIZES[0], 1) for v in variables}
    try:
        return _trial_call(fn, args, kwargs, stand_ins)
    except Exception:
        return None


def _infer(fn, args, kwargs, variables):
    """Run ``fn`` on stand-ins: (result, stand-ins, results of other sizes or values)."""
    unknown = any(d < 0 for v in variables for d in v._shape)
    valued = any(not (v._dtype.is_floating_point or v._dtype.is_complex) for v in variables)
    others = []
    try:
        with set_grad_enabled(True), _random_streams_kept(), np.errstate(all="ignore"), \
                computing():
            first, stand_ins = _trial(fn, args, kwargs, variables, _TRIAL_SIZES[0])
            if unknown:
                others.append(_trial(fn, args, kwargs, variables, _TRIAL_SIZES[1])[0])
            if valued:
                other = _other_values(fn, args, kwargs, variables)
                if other is not None:
                    others.append(other)
    except Exception as exc:
        shapes = ", ".join(f"{v.name}: {v._shape}" for v in variables)
        note = f"while adding {getattr(fn, '__name__', fn)} to a static program (inputs {shapes}"
        if unknown:
            note += f"; -1 dimensions were tried as {_TRIAL_SIZES[0]}"
        exc.add_note(note + ")")
        raise
    return first, stand_ins, others


def _merged_shape(a, others):
    shape = list(a.shape)
    for b in others:
        sb = list(b.shape) if isinstance(b, Tensor) else None
        if sb is None or len(sb) != len(shape):
            return [-1] * len(shape)
        shape = [x if x == y else -1 for x, y in zip(shape, sb)]
    return shape


def _item(result, index):
    """Output ``index`` of an op's result (None: the result itself), or None."""
    if index is None:
        return result
    if isinstance(result, (list, tuple)) and index < len(result):
        return result[index]
    return None


# ------------------------------------------- ops whose shapes come from values
def _reshape_rule(args, kwargs):
    """``reshape(x, shape)`` with Variables in ``shape``: the trial flattens instead
    (any values would do, and most are refused); each size given by a Variable is
    -1 in the output, and so is a -1 beside it (its size depends on the Variable's
    value); 0 copies the input's size, as at run time."""
    x = args[0] if args else kwargs.get("x")
    shape = args[1] if len(args) > 1 else kwargs.get("shape")
    if not isinstance(x, Variable) or not variables_in(shape):
        return None
    if isinstance(shape, Variable):
        if shape._shape is None or len(shape._shape) != 1 or shape._shape[0] < 0:
            return None
        dims = [-1] * shape._shape[0]
    elif isinstance(shape, (list, tuple)):
        dims = []
        for i, d in enumerate(shape):
            if isinstance(d, Variable):
                dims.append(-1)
            elif isinstance(d, (int, np.integer)) and d == 0 and i < len(x._shape):
                dims.append(x._shape[i])
            elif isinstance(d, (int, np.integer)):
                dims.append(int(d))
            else:
                return None
    else:
        return None
    rest = {k: v for k, v in kwargs.items() if k not in ("x", "shape")}
    return (x, [-1]), rest, dims


_SHAPE_RULES = {"reshape": _reshape_rule}


def record_op(fn, *args, **kwargs):
    """Add ``fn(*args, **kwargs)`` to the current block; return its output Variables.

    ``pylayer.ops.dispatch`` calls it for an op with a Variable among its
    arguments, and in static mode for the calls that make a tensor from no
    tensor: ``create_parameter`` makes a Parameter of the Program, and a
    creation op (``full``, ``rand``, ``to_tensor``...) becomes an operator
    without inputs, computed at each run.
    """
    if fn is _dynamic_create_parameter():
        return create_parameter(*args, **kwargs)
    args, kwargs = _name_by_keyword(fn, args, kwargs)
    name = kwargs.pop("name", None)
    variables = variables_in(args, kwargs)
    if not variables and getattr(_computing, "depth", 0):
        return fn(*args, **kwargs)
    program = default_main_program()
    block = program.current_block()
    op_type = getattr(fn, "__name__", type(fn).__name__)
    for v in variables:
        if v.block.program is not program:
            raise ValueError(f"{op_type}: Variable '{v.name}' belongs to another Program "
                             f"than the one being built; build ops inside the program_guard "
                             f"of the program that holds their inputs")
        if v._shape is None:
            raise ValueError(f"{op_type}: Variable '{v.name}' has no shape; give it one "
                             f"when creating it (create_var(..., shape=[...]))")
    rule = _SHAPE_RULES.get(op_type)
    ruled = rule(args, kwargs) if rule is not None and getattr(
        fn, "__module__", "").startswith("pylayer.") else None
    if ruled is None:
        result, stand_ins, others = _infer(fn, args, kwargs, variables)
    else:
        trial_args, trial_kwargs, fixed_shape = ruled
        trial_vars = variables_in(trial_args, trial_kwargs)
        result, trial_stand_ins, others = _infer(fn, trial_args, trial_kwargs, trial_vars)
        stand_ins = {id(v): trial_stand_ins.get(id(v)) for v in variables}
        others = []
    by_stand_in = {id(t): v for v, t in zip(variables, stand_ins.values()) if t is not None}
    needs_grad = any(not v._stop_gradient for v in variables)
    op_id = program._unique_name(op_type) if name is None else None

    outputs, out_index, differentiable = [], [], []

    def bind(tensor, index):
        existing = by_stand_in.get(id(tensor))
        if existing is not None:
            # The op hands back one of its inputs: unchanged (nothing to
            # record for it), or written in place (like assign's ``output``).
            if tensor.inplace_version:
                outputs.append(existing)
                differentiable.append(True)
                out_index.append(index)
            return existing
        if name is not None and name not in block.vars and not outputs:
            var_name = name
        elif op_id is not None:
            var_name = f"{op_id}.tmp_{len(outputs)}"
        else:
            var_name = program._unique_name(name)
        grad_flows = not tensor.stop_gradient
        shape = fixed_shape if ruled is not None else _merged_shape(
            tensor, [_item(o, index) for o in others])
        var = Variable(block, var_name, shape, tensor.dtype,
                       stop_gradient=not (grad_flows and needs_grad), kind="tmp")
        block.vars[var_name] = var
        outputs.append(var)
        differentiable.append(grad_flows)
        out_index.append(index)
        return var

    if isinstance(result, Tensor):
        value = bind(result, None)
    elif isinstance(result, (list, tuple)) and any(isinstance(r, Tensor) for r in result):
        items = [bind(r, i) if isinstance(r, Tensor) else r for i, r in enumerate(result)]
        value = type(result)(items) if isinstance(result, list) else tuple(items)
    else:
        return result
    if outputs:
        block.append_op(op_type, fn, args, kwargs, variables, outputs, out_index,
                        differentiable, write_only=_write_only(fn, args, kwargs))
    return value


def _name_by_keyword(fn, args, kwargs):
    """The call with its ``name`` argument (the output Variable's name) passed by
    keyword, together with any positional argument after it."""
    params = list(parameters_of(fn).values())
    names = [p.name for p in params]
    if "name" in kwargs or "name" not in names:
        return args, dict(kwargs)
    position = names.index("name")
    if position >= len(args) or any(p.kind is p.VAR_POSITIONAL for p in params[:position]):
        return args, dict(kwargs)
    if not isinstance(args[position], (str, type(None))):
        return args, dict(kwargs)     # not a name: another call form, reshape(x, 2, 3, 4)
    return args[:position], {**dict(zip(names[position:], args[position:])), **kwargs}


def _write_only(fn, args, kwargs):
    """Variables given as a call's ``output``/``out`` argument: written, not read."""
    names = [n for n in ("output", "out") if n in parameters_of(fn)]
    if not names:
        return []
    try:
        bound = inspect.signature(fn).bind_partial(*args, **kwargs).arguments
    except TypeError:
        return []
    return [bound[n] for n in names if isinstance(bound.get(n), Variable)]
