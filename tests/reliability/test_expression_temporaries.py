"""``+ - * /`` write into an operand only when it is proven a temporary of the running
expression (pylayer._temporaries): the running frame executes that very BINARY_OP on
that very stack operand, and nothing else refers to it.

The borrowed-reference attacks (argument unpacking, partial, bound methods, starmap)
are in test_exact_shortcuts.py; these tests check that the shortcut is taken where it
is proven, and that no other holder of the memory (a name, a view, a numpy array, an
object array, a saved tensor) ever sees a changed value. They run under the
AddressSanitizer build too (.ci/run), which reads the frames the proof reads.
"""
import functools
import operator
import platform
import sys

import numpy as np
import pytest

import pylayer as paddle
from pylayer import device
from pylayer._temporaries import binary_op_stack_depths, proof_available, stack_depths

N = 1 << 18                 # 1 MB of float32: a large array


def _data(seed, dtype="float32"):
    return np.random.default_rng(seed).uniform(0.5, 1.5, N).astype(dtype)


def _new_arrays(fn):
    """How many large arrays ``fn()`` asked for (pool hits + misses), and its result."""
    before = device.memory_stats()
    result = fn()
    after = device.memory_stats()
    return (after["hits"] + after["misses"]) - (before["hits"] + before["misses"]), result


needs_proof = pytest.mark.skipif(not proof_available(),
                                 reason="the frame proof exists on CPython 3.11 only")


def test_the_proof_is_on_where_the_interpreter_allows_it():
    on_cpython_311 = (platform.python_implementation() == "CPython"
                      and sys.version_info[:2] == (3, 11))
    assert proof_available() is on_cpython_311


@needs_proof
def test_a_chain_of_temporaries_uses_one_new_array_like_numpy():
    y, dy = paddle.to_tensor(_data(0)), paddle.to_tensor(_data(1))
    count, result = _new_arrays(lambda: dy * (1 - y * y))
    assert count == 1
    np.testing.assert_array_equal(result.numpy(), _data(1) * (1 - _data(0) * _data(0)))


@needs_proof
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("expression, new_arrays", [
    (lambda a, b: (a * 2.0) + b, 1),
    (lambda a, b: b + (a * 2.0), 1),
    (lambda a, b: (a * 2.0) - b, 1),
    (lambda a, b: b - (a * 2.0), 1),
    (lambda a, b: (a + 1.0) * b, 1),
    (lambda a, b: b * (a + 1.0), 1),
    (lambda a, b: (a + 1.0) / b, 1),
    (lambda a, b: b / (a + 1.0), 1),
    (lambda a, b: 3 - (a * b), 1),
    (lambda a, b: 2.0 / (a + b), 1),
    (lambda a, b: ((a + b) * (a - b)) / 4, 2),
])
def test_results_written_into_temporaries_are_numpys(expression, new_arrays, dtype):
    a_np, b_np = _data(2, dtype), _data(3, dtype)
    a, b = paddle.to_tensor(a_np), paddle.to_tensor(b_np)
    count, result = _new_arrays(lambda: expression(a, b))
    assert count == new_arrays
    np.testing.assert_array_equal(result.numpy(), expression(a_np, b_np))
    assert result.dtype == dtype
    np.testing.assert_array_equal(a.numpy(), a_np)      # the named operands never change
    np.testing.assert_array_equal(b.numpy(), b_np)


@needs_proof
def test_temporaries_are_proven_in_every_kind_of_frame():
    a = paddle.to_tensor(_data(4))
    expected = (_data(4) * 2.0) + 1.0

    def in_a_function():
        return (a * 2.0) + 1.0

    def in_an_exception_handler():
        try:
            raise KeyError
        except KeyError:
            return (a * 2.0) + 1.0

    def in_a_generator():
        yield (a * 2.0) + 1.0

    def in_a_with_block():
        with paddle.no_grad():
            return (a * 2.0) + 1.0

    def as_a_call_argument():
        return paddle.add(0.0, (a * 2.0) + 1.0)

    # (a * 2.0) is a new array and + 1.0 writes into it; paddle.add(0.0, ...) is a
    # call, not an operator, so it makes one more.
    for name, run, new_arrays in [
            ("function", in_a_function, 1), ("handler", in_an_exception_handler, 1),
            ("generator", lambda: next(in_a_generator()), 1),
            ("comprehension", lambda: [(a * 2.0) + 1.0 for _ in range(1)][0], 1),
            ("with", in_a_with_block, 1), ("call argument", as_a_call_argument, 2)]:
        count, result = _new_arrays(run)
        assert count == new_arrays, name
        np.testing.assert_array_equal(result.numpy(), expected, err_msg=name)


def test_a_named_operand_is_never_written_into():
    a = paddle.to_tensor(_data(5))
    t = a * 2.0
    result = t + 1.0
    np.testing.assert_array_equal(t.numpy(), _data(5) * 2.0)
    np.testing.assert_array_equal(result.numpy(), _data(5) * 2.0 + 1.0)


def test_memory_a_numpy_array_shares_is_never_written_into():
    user = _data(6)
    result = paddle.Tensor(user) + 1.0
    np.testing.assert_array_equal(user, _data(6))
    np.testing.assert_array_equal(result.numpy(), _data(6) + 1.0)


def test_a_temporary_held_inside_an_object_array_is_never_written_into():
    # numpy's object loop calls the operator with a reference borrowed from the
    # array, while the frame runs a BINARY_OP whose operands are the array and 2.0.
    boxes = np.empty(1, dtype=object)
    boxes[0] = paddle.to_tensor(_data(7))
    doubled = boxes * 2.0
    np.testing.assert_array_equal(boxes[0].numpy(), _data(7))
    np.testing.assert_array_equal(doubled[0].numpy(), _data(7) * 2.0)


def test_a_temporary_whose_array_is_shared_is_never_written_into():
    kept = []

    def shared(keep):
        t = paddle.to_tensor(_data(8))
        kept.append(keep(t.numpy()))         # the array, or a view of it, lives on
        return t

    for keep in (lambda a: a, lambda a: a[::2]):
        result = shared(keep) * 2.0
        np.testing.assert_array_equal(result.numpy(), _data(8) * 2.0)
    np.testing.assert_array_equal(kept[0], _data(8))
    np.testing.assert_array_equal(kept[1], _data(8)[::2])


def test_operands_of_a_reduction_over_operators_are_never_written_into():
    a, b = paddle.to_tensor(_data(11)), paddle.to_tensor(_data(12))
    total = functools.reduce(operator.add, [a, b, a])
    np.testing.assert_array_equal(total.numpy(), _data(11) + _data(12) + _data(11))
    np.testing.assert_array_equal(a.numpy(), _data(11))


def test_operands_an_op_keeps_for_backward_are_never_written_into():
    x = paddle.to_tensor(_data(9), stop_gradient=False)
    # multiply keeps both tensor operands; tanh keeps its output.
    loss = ((x * 2.0) * (x * 3.0)).sum() + (paddle.tanh(x) * 2.0).sum()
    loss.backward()
    x_np = _data(9).astype("float64")
    expected = 12.0 * x_np + 2.0 * (1 - np.tanh(x_np) ** 2)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-5)


def test_gradients_through_expressions_with_temporaries_match_central_differences():
    # gradcheck perturbs one element at a time, too slow for a large array: compare
    # the directional derivative along a random direction instead (float64).
    rng = np.random.default_rng(10)
    x_np, direction = rng.uniform(0.5, 1.5, N // 4), rng.standard_normal(N // 4)

    def f(x):
        return (((x * 2.0) + 1.0) * ((x - 3.0) / (x + 2.0)) - (1 - x * x)).sum()

    x = paddle.to_tensor(x_np, stop_gradient=False)
    f(x).backward()
    eps = 1e-6
    numeric = (float(f(paddle.to_tensor(x_np + eps * direction)))
               - float(f(paddle.to_tensor(x_np - eps * direction)))) / (2 * eps)
    assert np.isclose(float(x.grad.numpy() @ direction), numeric, rtol=1e-6)


def _code_objects(code):
    yield code
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            yield from _code_objects(const)


def test_stack_depths_reach_exactly_the_compilers_stack_size():
    # The walk trusts itself only where it finds the compiler's own co_stacksize:
    # across these modules (functions, generators, coroutines, comprehensions,
    # exception handlers) it must always find it.
    import argparse
    import asyncio.base_events
    import fractions
    import json.decoder
    import statistics
    import tarfile

    modules = (argparse, asyncio.base_events, fractions, json.decoder, statistics, tarfile)
    checked = untrusted = binary_ops = 0
    for module in modules:
        source = open(module.__file__, encoding="utf-8").read()
        for code in _code_objects(compile(source, module.__file__, "exec")):
            checked += 1
            untrusted += stack_depths(code) is None
            for depth, _ in binary_op_stack_depths(code).values():
                assert 2 <= depth <= code.co_stacksize, code.co_name
                binary_ops += 1
    assert untrusted == 0 and checked > 500 and binary_ops > 100


def test_a_walk_that_disagrees_with_the_compiler_is_not_trusted():
    def f(a, b):
        return a * (1 - b)
    shallow = f.__code__.replace(co_stacksize=f.__code__.co_stacksize + 1)
    assert stack_depths(shallow) is None
    assert binary_op_stack_depths(shallow) == {}


def test_stack_depths_of_a_known_function():
    def f(a, b):
        return a * (1 - b)
    depths = sorted(binary_op_stack_depths(f.__code__).values())
    assert [operation for _, operation in depths] == [5, 10]   # * then -
    assert [depth for depth, _ in depths] == [2, 3]


def test_temporaries_under_tracing_in_coroutines_and_threads_give_numpys_results():
    import asyncio
    import threading

    a_np = _data(13)
    a = paddle.to_tensor(a_np)
    expected = (a_np * 2.0 + 1.0) * (a_np - 3.0) / 2.0

    def expression():
        return (a * 2.0 + 1.0) * (a - 3.0) / 2.0

    async def in_a_coroutine():
        return expression()

    results = []
    sys.settrace(lambda *event: (lambda *line: None))
    try:
        results.append(expression())
    finally:
        sys.settrace(None)
    results.append(asyncio.run(in_a_coroutine()))

    def worker():
        for _ in range(20):
            results.append(expression())

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 82
    for result in results:
        np.testing.assert_array_equal(result.numpy(), expected)
    np.testing.assert_array_equal(a.numpy(), a_np)
