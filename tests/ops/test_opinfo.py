"""Every op of the database in opinfo.py: forward against its numpy reference in each
declared dtype, gradcheck and gradgradcheck in float64 and (for the ops that take
complex tensors) complex128, the same numbers in a static
Program as in dynamic mode, and a light fuzz over shapes and values for the
elementwise ops."""
import inspect
import math
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck
from pylayer.ops.inplace import twin_of

from math_helpers import non_contiguous, through_transpose
from opinfo import COMPLEX, NOT_IN_DATABASE, OPS, T, TOLERANCE

DIFFERENTIABLE = [info for info in OPS if info.differentiable]
SECOND_ORDER = [info for info in DIFFERENTIABLE if info.second_order]
STATIC = [info for info in OPS if info.static]
ELEMENTWISE = [info for info in OPS if info.elementwise]
FLOAT_UNARY = [info for info in ELEMENTWISE if len(info.samples[0].args) == 1
               and info.differentiable and "float32" in info.dtypes and not info.variant]


def cases(infos, check, per_dtype=False):
    """pytest parameters for ``check``: one per entry (or per entry and dtype), known
    failures marked as strict xfails."""
    params = []
    for info in infos:
        for dtype in info.dtypes if per_dtype else [None]:
            reason = info.known_failure(check, dtype)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            values = (info, dtype) if per_dtype else (info,)
            params.append(pytest.param(*values, marks=marks,
                                       id=f"{info.id}-{dtype}" if per_dtype else info.id))
    return params


def rng_for(info, dtype=""):
    """A generator seeded by the entry, so that every run draws the same values."""
    return np.random.default_rng(zlib.crc32(f"{info.id}/{dtype}".encode()))


def draw(spec, info, dtype, rng):
    """The numpy value of one ``T`` input."""
    low = info.domain[0] if spec.low is None else spec.low
    high = info.domain[1] if spec.high is None else spec.high
    kind = np.dtype(dtype).kind
    if kind == "b":
        values = rng.random(spec.shape) < 0.5
    elif kind in "iu":
        values = rng.integers(math.ceil(low), math.floor(high) + 1, size=spec.shape)
    elif kind == "c":
        values = rng.uniform(low, high, size=spec.shape) + 1j * rng.uniform(low, high,
                                                                          size=spec.shape)
    else:
        values = rng.uniform(low, high, size=spec.shape)
    return np.asarray(values, dtype=dtype)


def numpy_args(info, sample, dtype, rng):
    return [draw(a, info, dtype, rng) if isinstance(a, T) else a for a in sample.args]


def as_tensor(value, stop_gradient=True):
    return pylayer.to_tensor(value, dtype=str(value.dtype), stop_gradient=stop_gradient)


def tensor_args(args):
    return [as_tensor(a) if isinstance(a, np.ndarray) else a for a in args]


def as_list(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


def assert_matches(got, expected, dtype, info, sample):
    got, expected = as_list(got), [np.asarray(e) for e in as_list(expected)]
    assert len(got) == len(expected), f"{info.id}{sample}: {len(got)} outputs"
    rtol, atol = info.tolerance_for(dtype)
    for out, want in zip(got, expected):
        array = out.numpy()
        assert array.shape == want.shape, f"{info.id}{sample}: shape {array.shape}"
        assert array.dtype == want.dtype, f"{info.id}{sample}: dtype {array.dtype}"
        np.testing.assert_allclose(array, want, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"{info.id}{sample} in {dtype}")


# -------------------------------------------------------------------- forward
@pytest.mark.parametrize("info, dtype", cases(OPS, "forward", per_dtype=True))
def test_forward_matches_the_numpy_reference(info, dtype):
    rng = rng_for(info, dtype)
    for sample in info.samples:
        args = numpy_args(info, sample, dtype, rng)
        expected = info.ref(*args, **sample.kwargs)
        assert_matches(info.op(*tensor_args(args), **sample.kwargs), expected, dtype, info,
                       sample)


# ------------------------------------------------------------------ gradients
def differentiable_call(info, sample, rng, dtype="float64"):
    """(function of the leaves, leaves) for one sample, in ``dtype`` (float64 or complex128)."""
    args = tensor_args(numpy_args(info, sample, dtype, rng))
    positions = [i for i, a in enumerate(sample.args) if isinstance(a, T)]
    leaves = [args[i] for i in positions]
    for leaf in leaves:
        leaf.stop_gradient = False

    def call(*tensors):
        full = list(args)
        for i, t in zip(positions, tensors):
            full[i] = t
        return info.op(*full, **sample.kwargs)

    call.__qualname__ = f"{info.id}{sample}"
    return call, tuple(leaves)


def gradient_cases(infos, check):
    """pytest parameters for ``check``: one per entry and gradient dtype."""
    params = []
    for info in infos:
        for dtype in info.gradient_dtypes:
            reason = info.known_failure(check, dtype)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(info, dtype, marks=marks, id=f"{info.id}-{dtype}"))
    return params


@pytest.mark.parametrize("info, dtype", gradient_cases(DIFFERENTIABLE, "gradcheck"))
def test_gradcheck(info, dtype):
    rng = rng_for(info)
    for sample in info.samples:
        call, leaves = differentiable_call(info, sample, rng, dtype)
        assert gradcheck(call, leaves)


@pytest.mark.parametrize("info, dtype", gradient_cases(SECOND_ORDER, "gradgradcheck"))
def test_gradgradcheck(info, dtype):
    rng = rng_for(info)
    for sample in info.samples:
        call, leaves = differentiable_call(info, sample, rng, dtype)
        assert gradgradcheck(call, leaves)


# -------------------------------------------------------------- static mode
def run_static(info, sample, args):
    """Build the op into a fresh Program (tensor inputs as data) and run it."""
    feed = {}
    main, startup = pylayer.static.Program(), pylayer.static.Program()
    pylayer.enable_static()
    try:
        with pylayer.static.program_guard(main, startup), \
                pylayer.static.scope_guard(pylayer.static.Scope()):
            variables = []
            for i, a in enumerate(args):
                if isinstance(a, np.ndarray):
                    name = f"input{i}"
                    feed[name] = a
                    a = pylayer.static.data(name, list(a.shape), str(a.dtype))
                variables.append(a)
            outputs = as_list(info.op(*variables, **sample.kwargs))
            exe = pylayer.static.Executor(pylayer.CPUPlace())
            return exe.run(main, feed=feed, fetch_list=outputs)
    finally:
        pylayer.disable_static()


@pytest.mark.parametrize("info, dtype", cases(STATIC, "static", per_dtype=True))
def test_static_program_gives_the_numbers_of_dynamic_mode(info, dtype):
    rng = rng_for(info, dtype)
    for sample in info.samples:
        args = numpy_args(info, sample, dtype, rng)
        dynamic = [t.numpy() for t in as_list(info.op(*tensor_args(args), **sample.kwargs))]
        static = run_static(info, sample, args)
        assert len(static) == len(dynamic), f"{info.id}{sample}"
        for got, want in zip(static, dynamic):
            got = np.asarray(got)
            assert got.dtype == want.dtype, f"{info.id}{sample}: dtype {got.dtype}"
            np.testing.assert_array_equal(got, want, err_msg=f"{info.id}{sample}")


# ------------------------------------------- strided inputs, float32 gradients
@pytest.mark.parametrize("info", cases(FLOAT_UNARY, "strided"))
def test_unary_op_of_a_strided_view_matches_its_reference_and_central_differences(info):
    a = draw(T((3, 4)), info, "float64", rng_for(info, "strided"))
    rtol, atol = info.tolerance_for("float64")
    np.testing.assert_allclose(info.op(non_contiguous(a)).numpy(), info.ref(a), rtol=rtol,
                               atol=atol)
    fn, base = through_transpose(info.op, a)
    assert gradcheck(fn, base)
    if info.second_order:
        assert gradgradcheck(fn, base)


@pytest.mark.parametrize("info", cases(FLOAT_UNARY, "float32-gradient"))
def test_unary_op_gives_a_float32_input_a_float32_gradient(info):
    x = as_tensor(draw(T((2, 3)), info, "float32", rng_for(info, "float32")),
                  stop_gradient=False)
    info.op(x).sum().backward()
    assert x.grad.dtype == "float32" and x.grad.shape == [2, 3]


# ---------------------------------------------------------------------- fuzz
@st.composite
def broadcast_shapes(draw_, arity):
    """``arity`` shapes (up to 3-d, sizes 0 to 3) that broadcast against each other."""
    full = draw_(st.lists(st.integers(0, 3), max_size=3))
    shapes = [tuple(full)]
    for _ in range(arity - 1):
        kept = full[draw_(st.integers(0, len(full))):]
        shapes.append(tuple(1 if draw_(st.booleans()) else d for d in kept))
    return draw_(st.permutations(shapes))


@pytest.mark.parametrize("info", cases(ELEMENTWISE, "fuzz"))
def test_fuzz_elementwise_over_shapes_and_values(info):
    template = info.samples[0]

    @settings(max_examples=8, deadline=None, database=None)
    @given(shapes=broadcast_shapes(info.arity), dtype=st.sampled_from(info.dtypes),
           seed=st.integers(0, 2 ** 32 - 1))
    def check(shapes, dtype, seed):
        rng = np.random.default_rng(seed)
        drawn = iter(shapes)
        sample = type(template)(tuple(T(next(drawn), a.low, a.high) if isinstance(a, T) else a
                                      for a in template.args), template.kwargs)
        args = numpy_args(info, sample, dtype, rng)
        assert_matches(info.op(*tensor_args(args), **sample.kwargs),
                       info.ref(*args, **sample.kwargs), dtype, info, sample)
        if info.differentiable and math.prod(shapes[0]) <= 12:
            call, leaves = differentiable_call(
                info, sample, rng, "complex128" if dtype in COMPLEX else "float64")
            assert gradcheck(call, leaves)

    check()


# ----------------------------------------------------------------- coverage
def public_functions():
    """{name: function} of the public functions of pylayer, pylayer.nn.functional,
    pylayer.linalg, pylayer.fft, pylayer.signal and pylayer.text (whose ops are pylayer.ops
    functions too)."""
    found = {}
    for module in (pylayer, pylayer.nn.functional, pylayer.linalg, pylayer.fft,
                   pylayer.signal, pylayer.text):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not inspect.isclass(obj) and not inspect.ismodule(obj):
                found[f"{module.__name__}.{name}"] = obj
    return found


def test_every_public_function_is_in_the_database_or_excused():
    covered = {info.public for info in OPS}
    excused = {pylayer.__name__ + "." + name for name in NOT_IN_DATABASE}
    functions = public_functions()
    missing = [name for name, fn in functions.items() if fn not in covered and name not in excused
               and twin_of(fn) not in covered]     # an in-place twin: its op's entry
    assert missing == [], "add an OpInfo (or a reason in NOT_IN_DATABASE) for these"
    assert covered.isdisjoint(functions[name] for name in excused & set(functions))
    assert excused <= set(functions), "stale NOT_IN_DATABASE names"


def test_every_entry_has_a_unique_id_a_dtype_and_samples():
    assert len({info.id for info in OPS}) == len(OPS)
    for info in OPS:
        assert info.samples and info.dtypes, info.id
        assert set(info.dtypes) <= set(TOLERANCE), info.id


def test_each_op_carries_its_hostile_call_once_on_the_entry_without_a_variant():
    carriers = [info.public for info in OPS if info.call is not None]
    assert len(carriers) == len(set(carriers)), "two entries of one op carry a call"
    assert {info.public for info in OPS} == set(carriers), "an op without a hostile call"
    assert all(info.variant == "" for info in OPS if info.call is not None)
