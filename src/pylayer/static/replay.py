"""What ``pylayer.jit`` builds on: recording calls into a Program, and replaying one.

``jit.to_static`` captures a function by calling it on Variables (each op records
itself with :func:`record_op`) and runs the Program it gets with a
:class:`ProgramReplay`: the captured inputs' slots take the call's Tensors and
the operators run through the Executor's plan, with autograd on when it is on
outside. This module is pylayer's own seam between ``static`` and ``jit`` (it
also hands ``jit`` :func:`record_op`, ``substitute``, ``variables_in`` and
``computing``), not part of Paddle's API, so it exports no public names.
"""
from pylayer.extend import is_grad_enabled
from pylayer.ops import dispatch
from pylayer.static._executor import _plan_of, _run_steps
from pylayer.static._record import computing, record_op
from pylayer.static._variable import Variable, substitute, variables_in

__all__ = []



class ProgramReplay:
    """Runs ``program`` on Tensors for its input Variables ``inputs``; a run returns
    ``outputs`` (a Variable, or lists, tuples and dicts holding Variables) with each
    Variable replaced by its value."""

    def __init__(self, program, inputs, outputs):
        self.program = program
        self.inputs = inputs
        self.outputs = outputs
        self._plan = None

    def _prepare(self, plan):
        slots = plan.slots
        names = {v.name for v in self.inputs}
        for name, _, _ in plan.required:
            if name not in names:
                raise ValueError(f"to_static(): the captured program reads {name!r}, which "
                                 f"is neither an input nor computed by the program")
        self._input_slots = [slots[v.name] for v in self.inputs]
        self._outputs = [(id(v), slots[v.name]) for v in variables_in(self.outputs)]
        self._keep = [slot for _, slot in self._outputs]
        self._single = slots[self.outputs.name] if isinstance(self.outputs, Variable) else None
        self._plan = plan

    def run(self, tensors):
        """The outputs' values for the input Tensors ``tensors`` (in input order)."""
        plan = _plan_of(self.program)
        if plan is not self._plan:
            self._prepare(plan)
        env = [None] * plan.size
        for slot, tensor in zip(self._input_slots, tensors):
            env[slot] = tensor
        if plan.arrays is not None and not is_grad_enabled():
            plan.arrays.run(env, self._keep)
        elif dispatch.in_dynamic_mode():
            _run_steps(plan, env)
        else:       # creation ops compute rather than record, as in an Executor's run
            with computing():
                _run_steps(plan, env)
        if self._single is not None:
            return env[self._single]
        return substitute(self.outputs, {key: env[slot] for key, slot in self._outputs})
