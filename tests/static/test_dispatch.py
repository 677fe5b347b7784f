"""Dispatch by argument type (pylayer.ops.dispatch): a call with a static Variable among
its arguments is recorded into that Variable's Program, in either mode; a call on
Tensors runs, in either mode; and only the dispatcher knows the static-mode flag."""
import inspect
import operator
import pathlib
import re

import numpy as np
import pytest

import pylayer as paddle
from pylayer import _methods
from pylayer.autograd import PyLayer
from pylayer.nn import functional as F
from pylayer.ops import arithmetic, linalg, manipulation, math, reduction, shape
from pylayer.ops.dispatch import op
from pylayer.static import Variable

SOURCE = pathlib.Path(__file__).resolve().parents[2] / "src" / "pylayer"
DISPATCHER = SOURCE / "ops" / "dispatch.pyx"
# The flag, its old compiled copy and the hooks that pylayer.static used to install.
FLAG = re.compile(r"\bstatic_mode\b|static_mode_on|set_static_flag|static_call|"
                  r"\b_state\.static_minimize|\bpylayer\._state\b|from pylayer import _state")

A = np.array([[3.0, 4.0], [5.0, 6.0]])
B = np.array([[1.0, 2.0], [2.0, 3.0]])


@pytest.fixture(params=["static mode", "dynamic mode"])
def mode(request):
    """Both modes: with Variables among its arguments an op records in either."""
    if request.param == "static mode":
        paddle.enable_static()
    yield request.param


def eager(array):
    """A Tensor made without an op: in static mode a creation op such as to_tensor
    records into the Program, as in Paddle."""
    return paddle.Tensor(np.asarray(array))


def run(program, fetch, **feed):
    exe = paddle.static.Executor(paddle.CPUPlace())
    return exe.run(program, feed=feed, fetch_list=fetch)


def variables(*names, shape=(2, 2), dtype="float64"):
    return [paddle.static.data(name, list(shape), dtype) for name in names]


# ---------------------------------------------------------- one place for the flag
def test_only_the_dispatcher_mentions_the_static_flag():
    offenders = []
    for path in sorted(SOURCE.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd", ".pyi") or path == DISPATCHER:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FLAG.search(line):
                offenders.append(f"{path.relative_to(SOURCE)}:{number}: {line.strip()}")
    assert offenders == [], "only ops/dispatch.pyx may read or set the static-mode flag"
    assert "cdef bint _static_mode" in DISPATCHER.read_text(encoding="utf-8")


def test_the_mode_functions_live_in_the_dispatcher():
    from pylayer.ops import dispatch
    for name in ("enable_static", "disable_static", "in_dynamic_mode"):
        assert getattr(paddle, name) is getattr(paddle.static, name) is getattr(dispatch, name)


# ------------------------------------------------------------ records by type
# (the op's type, a call with the Variable or Tensor ``x``): compiled and Python ops,
# called through their area module, the package, nn.functional or as a method.
CALLS = [
    ("add", lambda x: arithmetic.add(eager(A), x)),
    ("tanh", lambda x: math.tanh(x)),
    ("sum", lambda x: reduction.sum(x, axis=0)),
    ("max", lambda x: reduction.max(x)),
    ("matmul", lambda x: linalg.matmul(eager(A), x)),
    ("transpose", lambda x: shape.transpose(x, [1, 0])),
    ("flip", lambda x: manipulation.flip(x, 0)),
    ("relu", lambda x: F.relu(x)),
    ("softmax", lambda x: F.softmax(x)),
    ("mean", lambda x: paddle.mean(x)),
    ("exp", lambda x: x.exp()),
]


@pytest.mark.parametrize("op_type,call", CALLS, ids=[c[0] for c in CALLS])
def test_an_op_with_a_variable_records_through_every_name(mode, op_type, call):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x, = variables("x")
        out = call(x)
    assert isinstance(out, Variable)
    assert [o.type for o in main.global_block().ops] == [op_type]
    got, = run(main, [out], x=B)
    np.testing.assert_allclose(got, call(eager(B)).numpy())


def test_a_variable_inside_a_list_argument_records(mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x, = variables("x")
        out = paddle.concat([eager(A), x], axis=0)
        summed = paddle.einsum("ij,ij->i", x, eager(A))
    assert [o.type for o in main.global_block().ops] == ["concat", "einsum"]
    got, total = run(main, [out, summed], x=B)
    np.testing.assert_array_equal(got, np.concatenate([A, B]))
    np.testing.assert_allclose(total, (A * B).sum(1))


def test_variables_are_found_wherever_pylayer_static_binds_them():
    from collections import namedtuple
    from pylayer.ops.dispatch import has_static_variable
    with paddle.static.program_guard(paddle.static.Program()):
        v, = variables("v")
    pair = namedtuple("Pair", "a b")
    for found in (v, [1.0, [paddle.ones([1]), (v,)]], {"weights": [v]}, pair(1, v)):
        assert has_static_variable(found) and has_static_variable(x=found)
    for absent in (paddle.ones([1]), [1.0, (2, [paddle.ones([1])])], {"v": 3}, "v", None):
        assert not has_static_variable(absent, key=absent)


def test_a_variable_given_by_keyword_records(mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x, y = variables("x", "y")
        out = paddle.where(eager(A > 4), x=x, y=y)
    got, = run(main, [out], x=A, y=B)
    np.testing.assert_array_equal(got, np.where(A > 4, A, B))


def test_a_tensor_method_with_a_variable_argument_records(mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x, = variables("x")
        out = eager(A).maximum(x)
    assert isinstance(out, Variable)
    got, = run(main, [out], x=B)
    np.testing.assert_array_equal(got, np.maximum(A, B))


def _operator(dunder):
    name = dunder.strip("_")
    return getattr(operator, name, None) or getattr(operator, name + "_")


BINARY = sorted(d for d, (_, how) in _methods.OPERATORS.items() if how == "forward")


@pytest.mark.parametrize("dunder", BINARY)
@pytest.mark.parametrize("tensor_side", ["left", "right"])
def test_an_operator_with_a_tensor_and_a_variable_operand_records(mode, dunder, tensor_side):
    name, _ = _methods.OPERATORS[dunder]
    dtype = "int64" if name.startswith("bitwise") else "float64"
    a, b = A.astype(dtype), B.astype(dtype)
    fn = _operator(dunder)
    expected = fn(eager(a), eager(b)).numpy()
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        v = paddle.static.data("v", [2, 2], dtype)
        out = fn(eager(a), v) if tensor_side == "left" else fn(v, eager(b))
    assert isinstance(out, Variable)
    assert [o.type for o in main.global_block().ops] == [name]
    got, = run(main, [out], v=b if tensor_side == "left" else a)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dunder", ["__add__", "__sub__", "__mul__", "__truediv__"])
def test_tensor_arithmetic_leaves_a_variable_operand_to_the_variable(dunder):
    with paddle.static.program_guard(paddle.static.Program()):
        v, = variables("v")
    assert getattr(paddle.ones([2, 2]), dunder)(v) is NotImplemented


def test_an_in_place_operator_with_a_variable_records_out_of_place(mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        v, = variables("v")
        t = eager(A)
        t += v
    assert isinstance(t, Variable)
    got, = run(main, [t], v=B)
    np.testing.assert_array_equal(got, A + B)


def test_a_pylayer_with_a_variable_records(mode):
    class Double(PyLayer):
        @staticmethod
        def forward(ctx, x, scale):
            return x * scale

        @staticmethod
        def backward(ctx, dy):
            return dy * 2.0

    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x, = variables("x")
        out = Double.apply(x, 2.0)
        listed = Double.apply([x][0], scale=3.0)
    assert isinstance(out, Variable) and isinstance(listed, Variable)
    got, tripled = run(main, [out, listed], x=B)
    np.testing.assert_array_equal(got, 2 * B)
    np.testing.assert_array_equal(tripled, 3 * B)


def test_a_name_given_by_position_names_the_output():
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x, = variables("x")
        out = paddle.tanh(x, "tanh_out")
    assert out.name == "tanh_out"
    got, = run(main, ["tanh_out"], x=B)
    np.testing.assert_allclose(got, np.tanh(B))


# --------------------------------------------------------------- runs on Tensors
def test_an_op_on_tensors_runs_at_once_in_static_mode():
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        out = paddle.tanh(eager(B)) + eager(A)
        method = eager(A).maximum(eager(B))
    assert isinstance(out, paddle.Tensor) and isinstance(method, paddle.Tensor)
    np.testing.assert_allclose(out.numpy(), np.tanh(B) + A)
    assert main.global_block().ops == []


def test_creation_calls_record_without_a_variable_in_static_mode_only():
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    with paddle.static.program_guard(main, startup):
        w = paddle.create_parameter([2], "float32", name="dispatch_w")
        t = paddle.ones([2])
    assert isinstance(w, paddle.static.Parameter) and isinstance(t, Variable)
    assert [o.type for o in main.global_block().ops] == ["ones"]
    paddle.disable_static()
    assert isinstance(paddle.create_parameter([2], "float32"), paddle.Tensor)
    assert isinstance(paddle.ones([2]), paddle.Tensor)


def test_a_py_func_runs_its_ops_on_tensors_without_leaving_static_mode(static):
    seen = []

    def forward(a):
        seen.append(paddle.in_dynamic_mode())
        return paddle.tanh(paddle.to_tensor(a)).numpy()

    main, _ = static
    x, = variables("x")
    y = main.current_block().create_var(name="y", dtype="float64", shape=[2, 2])
    paddle.static.py_func(forward, x, y)
    got, = run(main, [y], x=B)
    np.testing.assert_allclose(got, np.tanh(B))
    assert seen == [False]


# ------------------------------------------------------------------ the wrapper
def test_the_wrapper_keeps_name_doc_and_signature():
    for fn in (paddle.add, paddle.tanh, paddle.concat, F.relu, paddle.create_parameter):
        raw = fn.__wrapped__
        assert fn.__name__ == raw.__name__ and fn.__doc__ == raw.__doc__
        assert inspect.signature(fn) == inspect.signature(raw)
    assert paddle.add is arithmetic.add and paddle.sum is reduction.sum
    assert paddle.nn.functional.tanh is paddle.tanh


def test_op_used_as_a_decorator_with_the_option():
    @op(records_without_variables=True)
    def made(shape):
        """Doc."""
        return paddle.zeros(shape)

    assert made.__name__ == "made" and made.__doc__ == "Doc."
    assert made([2]).shape == [2]
