"""Proof that an operand of ``+ - * /`` is a temporary of the running expression.

In ``dy * (1 - y*y)`` the result of ``y*y`` is a temporary: after ``1 - ...``
has used it, nothing can reach it any more, so ``1 - ...`` may write its result
into that memory instead of a fresh array (numpy does the same for its own
arrays). A reference count of 1 alone does not prove this: C code passes
borrowed references (``operator.add(*pair)``, ``functools.partial``, bound
methods, ``itertools.starmap``), and the only reference may then belong to a
tuple the caller still holds.

The proof used here is exact. The running Python frame must be executing a
``BINARY_OP`` instruction of the same operation, the two operands must be the
very objects in that instruction's two stack slots (found from the stack depth
at that instruction, computed once per code object from its bytecode), and the
operand must have no other reference than its stack slot. Then the interpreter
itself is the caller, and it drops that reference as soon as the operation
returns. This is the check CPython 3.14 offers as
``PyUnstable_Object_IsUniqueReferencedTemporary``, with the slot positions and
the operation matched as well.

The frame is read through CPython 3.11's frame layout, so the proof exists on
CPython 3.11 only; elsewhere no operand is ever a temporary (results are then
always fresh arrays). An import-time self-test turns the proof off if the
layout does not behave as expected.
"""
import dis
import weakref

from cpython.ref cimport PyObject

__all__ = ["binary_op_stack_depths", "proof_available", "stack_depths"]

cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(PYPY_VERSION)
    #define PYLAYER_FRAME_PROOF 1
    /* CPython 3.11's _PyInterpreterFrame (Include/internal/pycore_frame.h): only the
       fields up to the locals-and-stack array are used. */
    typedef struct pylayer_frame_311 {
        PyObject *f_func;
        PyObject *f_globals;
        PyObject *f_builtins;
        PyObject *f_locals;
        PyCodeObject *f_code;
        PyObject *frame_obj;
        struct pylayer_frame_311 *previous;
        _Py_CODEUNIT *prev_instr;
        int stacktop;
        char is_entry;
        char owner;
        PyObject *localsplus[1];
    } pylayer_frame_311;

    /* The running frame's code, the index of the instruction it is executing and the
       bottom of its value stack; 0 if there is no Python frame. */
    static int pylayer_running_instruction(PyObject **code, Py_ssize_t *index,
                                           PyObject ***stack) {
        PyThreadState *ts = PyThreadState_Get();
        pylayer_frame_311 *frame;
        PyCodeObject *co;
        Py_ssize_t i;
        if (ts->cframe == NULL || ts->cframe->current_frame == NULL) return 0;
        frame = (pylayer_frame_311 *)ts->cframe->current_frame;
        co = frame->f_code;
        i = frame->prev_instr - (_Py_CODEUNIT *)co->co_code_adaptive;
        if (i < 0 || i >= Py_SIZE(co)) return 0;
        *code = (PyObject *)co;
        *index = i;
        *stack = frame->localsplus + co->co_nlocalsplus;
        return 1;
    }
    #else
    #define PYLAYER_FRAME_PROOF 0
    static int pylayer_running_instruction(PyObject **code, Py_ssize_t *index,
                                           PyObject ***stack) { return 0; }
    #endif
    """
    bint FRAME_PROOF "PYLAYER_FRAME_PROOF"
    bint running_instruction "pylayer_running_instruction"(PyObject **code, Py_ssize_t *index,
                                                           PyObject ***stack)
    Py_ssize_t refcount "Py_REFCNT"(void *obj)

cdef int _BINARY_OP = dis.opmap.get("BINARY_OP", -1)
cdef int _RETURN_GENERATOR = dis.opmap.get("RETURN_GENERATOR", -1)
cdef frozenset _JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)
cdef frozenset _NO_FALL_THROUGH = frozenset(
    dis.opmap[name] for name in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE", "JUMP_FORWARD",
                                 "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_ABSOLUTE",
                                 "JUMP") if name in dis.opmap)
cdef object _tables = weakref.WeakKeyDictionary()   # code object -> binary_op_stack_depths
cdef bint _proof_on = False


def stack_depths(code):
    """``{offset: stack depth before the instruction}`` for every instruction of ``code``
    that can run, from a walk of its bytecode (exception handlers included); None
    when the deepest stack the walk finds is not the compiler's own ``co_stacksize``,
    so that nothing is trusted about code the walk does not understand.

    >>> from pylayer._temporaries import stack_depths
    >>> sorted(stack_depths((lambda a, b: a * (1 - b)).__code__).values())
    [0, 0, 1, 1, 2, 2, 3]
    """
    instructions = {ins.offset: ins for ins in dis.get_instructions(code)}
    offsets = sorted(instructions)
    following = dict(zip(offsets, offsets[1:]))
    depth_at = {}
    deepest = 0
    todo = [(0, 0)]
    for entry in dis.Bytecode(code).exception_entries:
        todo.append((entry.target, entry.depth + (1 if entry.lasti else 0) + 1))
    while todo:
        offset, depth = todo.pop()
        while offset is not None and offset not in depth_at:
            depth_at[offset] = depth
            ins = instructions[offset]
            if ins.opcode in _JUMPS:
                target_depth = depth + dis.stack_effect(ins.opcode, ins.arg, jump=True)
                deepest = max(deepest, target_depth)
                todo.append((ins.argval, target_depth))
            if ins.opcode in _NO_FALL_THROUGH:
                break
            depth += _stack_effect(ins)
            deepest = max(deepest, depth)
            offset = following.get(offset)
    return depth_at if deepest == code.co_stacksize else None


def _stack_effect(ins):
    # A generator's frame starts after RETURN_GENERATOR with the first sent value
    # (None) on its stack, which the POP_TOP after it removes.
    if ins.opcode == _RETURN_GENERATOR:
        return 1
    return dis.stack_effect(ins.opcode, ins.arg, jump=False)


def binary_op_stack_depths(code):
    """``{instruction index: (stack depth before it, operation)}`` for the ``BINARY_OP``
    instructions of ``code`` (an index counts 2-byte code units, as the frame does);
    empty when :func:`stack_depths` does not trust its walk of ``code``.

    >>> from pylayer._temporaries import binary_op_stack_depths
    >>> binary_op_stack_depths((lambda a, b: a * (1 - b)).__code__)
    {4: (3, 10), 6: (2, 5)}
    """
    depth_at = stack_depths(code)
    if depth_at is None:
        return {}
    return {ins.offset // 2: (depth_at[ins.offset], ins.arg)
            for ins in dis.get_instructions(code)
            if ins.opcode == _BINARY_OP and ins.offset in depth_at}


cdef bint is_running_binary_op(object left, object right, int operation):
    """Whether the interpreter is executing ``left (operation) right`` as the
    ``BINARY_OP`` of its running frame, on exactly the objects in that instruction's
    stack slots. ``operation`` is BINARY_OP's argument: 0 add, 5 multiply,
    10 subtract, 11 true divide. An operand the operator receives with a reference
    count of 1 is then owned by the stack slot alone: a temporary."""
    cdef PyObject *code
    cdef PyObject **stack
    cdef Py_ssize_t index, depth
    if not _proof_on or not running_instruction(&code, &index, &stack):
        return False
    table = _tables.get(<object>code)
    if table is None:
        table = binary_op_stack_depths(<object>code)
        _tables[<object>code] = table
    entry = table.get(index)
    if entry is None or entry[1] != operation:
        return False
    depth = entry[0]
    return (depth >= 2 and stack[depth - 2] == <PyObject*>left
            and stack[depth - 1] == <PyObject*>right)


cdef class _Probe:
    """Records, for each ``*``, whether it was proven a temporary (an extension type,
    like Tensor, so that the operator reaches it the way it reaches Tensor)."""
    cdef public list seen

    def __mul__(self, other):
        self.seen.append(refcount(<void*>self) == 1 and is_running_binary_op(self, other, 5))
        return self

    def __rmul__(self, other):
        self.seen.append(refcount(<void*>self) == 1 and is_running_binary_op(other, self, 5))
        return self


_SELF_TEST = """
import operator
import numpy as np

def fresh(seen):
    probe = Probe()
    probe.seen = seen
    return probe

def temporary(seen):
    fresh(seen) * 2.0

def reflected_temporary(seen):
    2.0 * fresh(seen)

def in_a_generator(seen):
    yield fresh(seen) * 2.0

def in_an_exception_handler(seen):
    try:
        raise KeyError
    except KeyError:
        fresh(seen) * 2.0

def held(seen):
    probe = fresh(seen)
    probe * 2.0

def borrowed_from_a_tuple(seen):
    pair = (fresh(seen), 2.0)
    operator.mul(*pair)

def borrowed_inside_a_binary_op(seen):
    np.array([fresh(seen)], dtype=object) * 2.0
"""


cdef bint _self_test():
    """The proof recognises stack temporaries and refuses every borrowed reference."""
    global _proof_on
    if not FRAME_PROOF or _BINARY_OP < 0:
        return False
    _proof_on = True
    namespace = {"Probe": _Probe}
    exec(compile(_SELF_TEST, "<pylayer._temporaries self-test>", "exec"), namespace)
    expected = {"temporary": [True], "reflected_temporary": [True], "in_a_generator": [True],
                "in_an_exception_handler": [True], "held": [False],
                "borrowed_from_a_tuple": [False], "borrowed_inside_a_binary_op": [False]}
    for name, outcome in expected.items():
        seen = []
        result = namespace[name](seen)
        if name == "in_a_generator":
            next(result)
        if seen != outcome:
            _proof_on = False
    return _proof_on


_self_test()


def proof_available():
    """Whether this interpreter lets pylayer prove operands temporary (CPython 3.11).

    >>> from pylayer._temporaries import proof_available
    >>> proof_available() in (True, False)
    True
    """
    return _proof_on

