"""A plan's array path: programs of elementwise float math run as numpy calls.

When no op of a program records gradients and every op is one of the
elementwise functions below, on float32 or float64 Variables, the plan
resolves each op once to its numpy ufunc, the function the op itself runs,
and a run is a flat loop of ``ufunc(input, ..., buffer)`` calls on the raw
arrays: no argument checks, no Tensors, no dispatch. Each output whose shape
is fixed (no -1) is written into a buffer allocated once with the plan; the
values that leave a run (fetched, or written back to the scope) are copied
out of them. A run that finds the buffers in use by another (a thread, or a
run inside a run) computes into fresh arrays instead.

The ufuncs are called as the ops call them, under ``np.errstate(all='ignore')``
(every op below silences the warnings its inputs can raise), so a run gives
exactly what the same ops give in dynamic mode; a test compares them.
"""
import collections
import threading

import numpy as np

import pylayer
from pylayer.extend import make_tensor
from pylayer.static._program import trimmed_kwargs
from pylayer.static._variable import Variable

__all__ = []


def _raw(fn):
    """The function the dispatcher records for the public op ``fn``."""
    return getattr(fn, "__wrapped__", fn)


# The functions that a Program records, and the ufunc each computes with on a float
# array (or on two float arrays of the same dtype and shape).
UNARY = {_raw(pylayer.tanh): np.tanh, _raw(pylayer.exp): np.exp,
         _raw(pylayer.sqrt): np.sqrt, _raw(pylayer.neg): np.negative,
         _raw(pylayer.square): np.square, _raw(pylayer.sin): np.sin,
         _raw(pylayer.cos): np.cos}
BINARY = {_raw(pylayer.add): np.add, _raw(pylayer.subtract): np.subtract,
          _raw(pylayer.multiply): np.multiply, _raw(pylayer.divide): np.divide}
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _fixed(var):
    return var._shape is not None and all(d >= 0 for d in var._shape)


def _resolve(op, slots, written):
    """``(ufunc, input slots, output slot, buffer shape and dtype or None)`` for ``op``,
    or None when it has no array step."""
    if op.role != "forward" or trimmed_kwargs(op.fn, op.kwargs) or len(op.outputs) != 1 \
            or op.out_index[0] is not None:
        return None
    args, out = op.args, op.outputs[0]
    table = UNARY if len(args) == 1 else BINARY if len(args) == 2 else {}
    ufunc = table.get(op.fn)
    if ufunc is None or not all(isinstance(a, Variable) for a in args):
        return None
    dtypes = {a.dtype.np_dtype for a in args} | {out.dtype.np_dtype}
    if len(dtypes) != 1 or dtypes.pop() not in _FLOATS:
        return None
    if written[out.name] != 1 or any(a.name == out.name for a in args):
        return None                     # a variable written twice keeps the general path
    if len(args) == 2 and not (_fixed(args[0]) and args[0]._shape == args[1]._shape):
        return None                     # broadcasting stays with the ops
    buffer = (tuple(out._shape), out.dtype.np_dtype) if _fixed(out) else None
    return ufunc, tuple(slots[a.name] for a in args), slots[out.name], buffer


class ArrayPlan:
    """The array steps of a program, or None from :meth:`compile` when it has none."""

    @classmethod
    def compile(cls, ops, slots, record_grad):
        if record_grad or not ops:
            return None
        written = collections.Counter(v.name for op in ops for v in op.outputs)
        resolved = [_resolve(op, slots, written) for op in ops]
        if any(step is None for step in resolved):
            return None
        return cls(resolved)

    def __init__(self, resolved):
        outputs = {out for _, _, out, _ in resolved}
        self.inputs = sorted({s for _, ins, _, _ in resolved for s in ins} - outputs)
        self.outputs = outputs
        # (ufunc, first input, second input or -1, output, buffer or None)
        self.fresh = [(ufunc, ins[0], ins[1] if len(ins) == 2 else -1, out, None)
                      for ufunc, ins, out, _ in resolved]
        self.pooled = [(ufunc, a, b, out, None if spec is None else np.empty(*spec))
                       for (ufunc, a, b, out, _), (_, _, _, spec) in zip(self.fresh, resolved)]
        self._in_use = threading.Lock()

    def run(self, env, keep):
        """Compute every step into ``env`` (a list of slots holding Tensors for the
        inputs); the slots in ``keep`` hold Tensors of their own afterwards."""
        for slot in self.inputs:
            env[slot] = env[slot].numpy()
        pooled = self._in_use.acquire(blocking=False)
        try:
            with np.errstate(all="ignore"):
                for ufunc, a, b, out, buffer in (self.pooled if pooled else self.fresh):
                    if b < 0:
                        env[out] = ufunc(env[a]) if buffer is None else ufunc(env[a], buffer)
                    else:
                        env[out] = ufunc(env[a], env[b]) if buffer is None \
                            else ufunc(env[a], env[b], buffer)
            for slot in keep:           # out of the buffers before the next run reuses them
                if env[slot].__class__ is np.ndarray:
                    env[slot] = make_tensor(np.array(env[slot]))
        finally:
            if pooled:
                self._in_use.release()
