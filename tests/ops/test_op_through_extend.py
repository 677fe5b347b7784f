"""A new op written the way the architecture page tells a contributor to: one record
and one forward, through ``pylayer.extend`` alone, then its OpInfo entry, which gives
it every check the op database runs on pylayer's own ops (forward per dtype,
gradcheck, gradgradcheck, static against dynamic, fuzz over broadcast shapes)."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.extend import Op, float_tensor, make_output, op, unbroadcast

from opinfo import BROADCAST, FLOATS, OpInfo
from test_opinfo import (assert_matches, differentiable_call, numpy_args, rng_for,
                         run_static, tensor_args)

# ------------------------------------------------- the op: what a contributor writes
LOGADDEXP = Op(
    "logaddexp", inputs=("x", "y"), keeps=("x", "y", "out"), attrs=("x_shape", "y_shape"),
    vjp=(lambda g, x, out, x_shape: unbroadcast(g * paddle.exp(x - out), x_shape),
         lambda g, y, out, y_shape: unbroadcast(g * paddle.exp(y - out), y_shape)))


@op
def logaddexp(x, y, name=None):
    x = float_tensor(x, "logaddexp", "x", 1, integers_as_float32=True)
    y = float_tensor(y, "logaddexp", "y", 2, integers_as_float32=True)
    return make_output(LOGADDEXP, np.logaddexp(x.numpy(), y.numpy()), (x, y),
                       (tuple(x.shape), tuple(y.shape)))


# ----------------------------------------------------------- and its OpInfo line
INFO = OpInfo("logaddexp", np.logaddexp, BROADCAST, dtypes=FLOATS, elementwise=True,
              op=logaddexp)


@pytest.mark.parametrize("dtype", INFO.dtypes)
def test_forward_matches_numpy(dtype):
    rng = rng_for(INFO, dtype)
    for sample in INFO.samples:
        args = numpy_args(INFO, sample, dtype, rng)
        assert_matches(INFO.op(*tensor_args(args)), INFO.ref(*args), dtype, INFO, sample)


def test_first_and_second_derivatives_match_central_differences():
    rng = rng_for(INFO)
    for sample in INFO.samples:
        call, leaves = differentiable_call(INFO, sample, rng)
        assert paddle.autograd.gradcheck(call, leaves)
        assert paddle.autograd.gradgradcheck(call, leaves)


@pytest.mark.parametrize("dtype", INFO.dtypes)
def test_a_static_program_records_it_and_gives_the_dynamic_numbers(dtype):
    rng = rng_for(INFO, dtype)
    for sample in INFO.samples:
        args = numpy_args(INFO, sample, dtype, rng)
        dynamic = INFO.op(*tensor_args(args)).numpy()
        static, = run_static(INFO, sample, args)
        np.testing.assert_array_equal(static, dynamic)


def test_its_node_is_named_after_the_record_and_checks_what_it_saved():
    x = paddle.to_tensor([0.5, 1.0], dtype="float64", stop_gradient=False)
    h = x * 1.0
    out = logaddexp(h, paddle.to_tensor([2.0, -1.0], dtype="float64"))
    assert out.grad_fn.name() == "LogaddexpGradNode"
    h.add_(paddle.ones([2], dtype="float64"))
    with pytest.raises(RuntimeError, match="LogaddexpGradNode.*inplace"):
        out.sum().backward()


def test_bad_input_is_refused_in_the_ops_name():
    with pytest.raises(TypeError, match=r"logaddexp\(\).*'y'"):
        logaddexp(paddle.ones([2]), "two")
