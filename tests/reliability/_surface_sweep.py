"""Walk the internal surface of one compiled module with hostile values (run as a script).

``python _surface_sweep.py pylayer._core.graph`` calls every function of the module and
every method of every type it defines (private and dunder ones included:
anything ``dir()`` shows), assigns every attribute, and copies, pickles and
``__setstate__``s every instance, with wrong types, None, huge and negative
ints and objects of the other compiled types; after each batch it uses what
it attacked (backward through a graph, repr, garbage collection), so that a
broken invariant shows. Python exceptions are expected and ignored: only a
crash (a signal) or a wrong gradient counts, and the parent test fails on
either. Before each call the script prints what it is about to do to stderr,
so the last line of a crashed child names the culprit.
"""
import copy
import gc
import importlib
import inspect
import pickle
import resource
import sys
import weakref

import numpy as np

import pylayer as paddle
from pylayer.autograd import PyLayer, saved_tensors_hooks


class _Layer(PyLayer):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y, x + y

    @staticmethod
    def backward(ctx, da, db):
        x, y = ctx.saved_tensor()
        return da * y + db, da * x + db


def specimens():
    """Live objects of every kind the core makes: tensors, nodes, saved tensors, a
    PyLayer context, a pooled array's block, a version counter, dtypes."""
    x = paddle.to_tensor(np.linspace(-1, 1, 6).reshape(2, 3), stop_gradient=False)
    y = paddle.to_tensor(np.full((2, 3), 0.5), stop_gradient=False)
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        hooked = paddle.multiply(x, y)
    a, b = _Layer.apply(x, y)
    parts = paddle.split(x * 1.0, 3, axis=1)
    big = paddle.tanh(paddle.full([512, 512], 0.5))
    found = {
        "tensor": x, "leaf": y, "output": paddle.tanh(x), "hooked": hooked, "pylayer": a,
        "part": parts[1], "big": big, "node": paddle.tanh(x).grad_fn,
        "multi_node": parts[0].grad_fn, "layer_node": a.grad_fn, "ctx": a.grad_fn.attrs[0],
        "array": np.ones(3), "block": big.numpy().base, "dtype": paddle.float32,
        "counter": x.version_counter(), "place": x.place, "dispatched": paddle.tanh,
        "record": paddle.tanh.__wrapped__ and a.grad_fn.op,
    }
    saved = getattr(hooked.grad_fn, "saved", None)
    if saved is not None:
        found["saved"] = saved[0] if isinstance(saved, tuple) else saved
    return found


HOSTILE_SCALARS = [None, 0, -1, 1, 2 ** 63, -2 ** 63 - 1, 2 ** 31, 10 ** 30, 1.5, float("nan"),
                   "x", b"", (), [], {}, object(), (None,) * 30, [0] * 5, ("str",)]


def hostile_values(objects):
    return HOSTILE_SCALARS + list(objects.values())


def reset_modes():
    """Undo what the private functions may legitimately switch: grad mode, anomaly
    detection, static mode, the autocast hook, this thread's saved-tensor hooks."""
    from pylayer import static
    from pylayer._core import graph as _graph
    from pylayer.ops import dispatch
    dispatch.register_static(static.Variable, static.record_op)
    dispatch.register_autocast(None)
    from pylayer._core import tensor
    tensor.set_grad_enabled_flag(True)
    _graph.set_anomaly_enabled(False)
    paddle.disable_static()
    while _graph.current_saved_tensors_hooks() is not None:
        _graph.pop_saved_tensors_hooks()


def say(*parts):
    print(*parts, file=sys.stderr, flush=True)


def attempt(fn, *args):
    try:
        return fn(*args)
    except BaseException as exc:  # noqa: BLE001 - every Python error is an acceptable answer
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        return None


def exercise(objects):
    """Use what was attacked: every crash that waits for a later use shows here."""
    x, y = objects["tensor"], objects["leaf"]
    for name in ("output", "hooked", "pylayer", "part", "big"):
        t = objects[name]
        attempt(lambda: repr(t))
        attempt(lambda: paddle.grad(t.sum(), [x, y], retain_graph=True, allow_unused=True))
    attempt(lambda: (paddle.tanh(paddle.full([512, 512], 0.25)) * 2.0).numpy().sum())
    gc.collect()


def check_gradients_still_right():
    """A fresh graph still gives the right gradient (no state left corrupted)."""
    x = paddle.to_tensor([0.3, -0.7], dtype="float64", stop_gradient=False)
    (gx,) = paddle.grad((paddle.tanh(x) * x).sum(), x)
    t = np.tanh(np.array([0.3, -0.7]))
    expected = t + np.array([0.3, -0.7]) * (1 - t * t)
    if not np.allclose(gx.numpy(), expected, rtol=1e-12):
        say("WRONG GRADIENT", gx.numpy(), expected)
        sys.exit(3)


def argument_lists(fn, values, objects):
    """Argument lists for ``fn``: every arity up to its parameter count filled with one
    hostile value, and each position in turn hostile with live objects elsewhere."""
    try:
        count = len([p for p in inspect.signature(fn).parameters.values()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
    except (TypeError, ValueError):
        count = 3
    count = min(count, 6)
    plausible = [objects["tensor"], objects["node"], objects["tensor"], (objects["tensor"],),
                 0, None]
    for arity in range(count + 1):
        for value in values:
            yield (value,) * arity
    for position in range(count):
        for value in values:
            args = list(plausible[:count])
            args[position] = value
            yield tuple(args)


def sweep_callable(label, fn, objects):
    values = hostile_values(objects)
    for args in argument_lists(fn, values, objects):
        say("call", label, [type(a).__name__ for a in args])
        attempt(fn, *args)
        reset_modes()
    exercise(objects)


def sweep_instance(label, instance, objects):
    values = hostile_values(objects)
    for name in dir(instance):
        if name in ("__class__", "__del__", "__dealloc__"):
            continue
        attribute = attempt(getattr, instance, name)
        if callable(attribute):
            sweep_callable(f"{label}.{name}", attribute, objects)
        for value in values:
            say("assign", label, name, type(value).__name__)
            attempt(setattr, instance, name, value)
        reset_modes()
        exercise(objects)
    for action in (copy.copy, copy.deepcopy, pickle.dumps, lambda o: o.__reduce_ex__(2),
                   lambda o: o.__reduce__()):
        say("copy", label, getattr(action, "__name__", "reduce"))
        attempt(action, instance)
        exercise(objects)
    for state in (("str",), (None,) * 30, None, {}):
        say("setstate", label, type(state).__name__)
        attempt(lambda: instance.__setstate_cython__(state))
        attempt(lambda: instance.__setstate__(state))
        exercise(objects)


def sweep(module_name):
    module = importlib.import_module(module_name)
    for name in sorted(dir(module)):
        value = getattr(module, name)
        defined_here = getattr(value, "__module__", None) == module_name
        if inspect.isclass(value) and defined_here:
            objects = specimens()
            for kind, instance in objects.items():
                if type(instance) is value:
                    sweep_instance(f"{name}({kind})", instance, objects)
            bare = attempt(value.__new__, value)
            if bare is not None:
                sweep_instance(f"{name}(bare)", bare, objects)
            sweep_callable(name, value, objects)
        elif callable(value) and defined_here:
            objects = specimens()
            sweep_callable(name, value, objects)
        check_gradients_still_right()
    # The state a module keeps at its top level is reachable too.
    for name in sorted(dir(module)):
        objects = specimens()
        for replacement in hostile_values(objects)[:8]:
            say("rebind", name, type(replacement).__name__)
            original = getattr(module, name)
            attempt(setattr, module, name, replacement)
            exercise(objects)
            attempt(setattr, module, name, original)
    say("done", module_name)


def limit_address_space(extra=2 ** 31):
    """Let the process grow by ``extra`` bytes only: a hostile size that is legal but
    huge (``bins=2 ** 31``) then ends in MemoryError, not in the machine's OOM killer."""
    with open("/proc/self/statm") as statm:
        mapped = int(statm.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (mapped + extra, resource.RLIM_INFINITY))


if __name__ == "__main__":
    limit_address_space()
    sweep(sys.argv[1])
    check_gradients_still_right()
