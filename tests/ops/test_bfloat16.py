"""bfloat16 as Paddle 3.3.1 has it: the dtype and its names, conversions, type
promotion, float32 accumulation in sums and matrix products, gradients in each
input's dtype, and ERNIE's gate, which casts gradients back to its inputs' dtypes.
numpy has no bfloat16; the ml_dtypes package (a dependency) gives numpy one."""
import ml_dtypes
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import PyLayer


def bf16(values):
    return paddle.to_tensor(values, dtype="bfloat16")


def as_float(x):
    return x.astype("float32").numpy().tolist()


def test_bfloat16_is_a_floating_point_dtype_with_paddles_names():
    x = bf16([1.0])
    assert x.dtype == paddle.bfloat16 == "bfloat16" and repr(x.dtype) == "pylayer.bfloat16"
    assert paddle.bfloat16.is_floating_point and not paddle.bfloat16.is_complex
    assert x.numpy().dtype == ml_dtypes.bfloat16
    assert paddle.to_tensor([1.0]).astype(ml_dtypes.bfloat16).dtype == paddle.bfloat16


def test_values_round_to_bfloat16_as_in_paddle():
    assert as_float(bf16([1.5, 2.3])) == [1.5, 2.296875]
    assert as_float(paddle.to_tensor([1.5, 2.3]).astype("bfloat16")) == [1.5, 2.296875]
    assert as_float(paddle.full([2], 1.1, "bfloat16")) == [1.1015625, 1.1015625]
    assert paddle.zeros([2], "bfloat16").dtype == paddle.bfloat16
    assert bf16([1.5]).astype("float16").dtype == paddle.float16


@pytest.mark.parametrize("make, expected", [
    (lambda: bf16([1.5]) + paddle.to_tensor([1.0]), "float32"),
    (lambda: paddle.to_tensor([1.0]) + bf16([1.5]), "float32"),
    (lambda: bf16([1.5]) + paddle.to_tensor([1.0], "float64"), "float64"),
    (lambda: bf16([1.5]) + paddle.to_tensor([1.0], "float16"), "float32"),
    (lambda: bf16([1.5]) * 2.5, "bfloat16"),
    (lambda: 2 * bf16([1.5]), "bfloat16"),
    (lambda: bf16([1.5]) / 3, "bfloat16"),
    (lambda: bf16([1.5]) + paddle.to_tensor([1j]), "complex64"),
    (lambda: paddle.matmul(bf16([[1.0]]), paddle.to_tensor([[2.0]])), "float32")])
def test_bfloat16_promotes_as_in_paddle(make, expected):
    assert make().dtype == expected


def test_bfloat16_with_an_integer_tensor_stays_bfloat16():
    # Paddle refuses the pair (TypeError); pylayer treats bfloat16 as it treats the other
    # floats, which an integer tensor does not widen (the migration guide lists it).
    assert (bf16([1.5]) + paddle.to_tensor([1])).dtype == paddle.bfloat16
    assert (paddle.to_tensor([3], "int32") * bf16([1.5])).dtype == paddle.bfloat16


def test_sums_and_matrix_products_accumulate_in_float32_as_paddle_does():
    # bfloat16 has 8 bits of precision: adding 0.1 to 32 in bfloat16 leaves 32, where
    # numpy's own sum stops. Paddle (and pylayer) add in float32 and round once.
    tenths = bf16(np.full(1000, 0.1))
    assert np.sum(tenths.numpy()) == 32                       # numpy, in bfloat16
    assert paddle.sum(tenths).dtype == paddle.bfloat16
    assert paddle.sum(tenths).astype("float32").item() == 100.0   # Paddle's result
    assert paddle.mean(tenths).astype("float32").item() == 0.10009765625
    assert as_float(paddle.cumsum(tenths, 0)[-1:]) == [100.0]
    matmul = paddle.matmul(bf16([[0.1] * 300]), bf16([[1.0]] * 300))
    assert matmul.dtype == paddle.bfloat16 and as_float(matmul) == [[30.0]]
    assert paddle.einsum("i,i->", tenths, bf16(np.ones(1000))).astype("float32").item() == 100.0
    assert paddle.sum(tenths, dtype="float32").dtype == paddle.float32


def test_elementwise_math_rounds_the_float32_result():
    x = np.array([0.5, 1.0, 2.0], np.float32)
    for op in (paddle.exp, paddle.tanh, paddle.sqrt, paddle.log):
        got = op(bf16(x))
        assert got.dtype == paddle.bfloat16
        expected = op(paddle.to_tensor(x)).numpy().astype(ml_dtypes.bfloat16)
        np.testing.assert_array_equal(got.numpy(), expected, err_msg=str(op))


def test_gradients_come_back_in_each_inputs_dtype():
    x = bf16([1.5, 2.0])
    x.stop_gradient = False
    (x * x).sum().backward()
    assert x.grad.dtype == paddle.bfloat16 and as_float(x.grad) == [3.0, 4.0]
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = bf16([1.5, 2.0])
    y.stop_gradient = False
    (y + w).sum().backward()
    assert y.grad.dtype == paddle.bfloat16 and w.grad.dtype == paddle.float32
    v = paddle.to_tensor([1.5, 2.0], stop_gradient=False)
    (v.astype("bfloat16") * 3.0).sum().backward()
    assert v.grad.dtype == paddle.float32 and v.grad.numpy().tolist() == [3.0, 3.0]


class GateCast(PyLayer):
    """ERNIE's MoE gate: computes in float32 and casts each gradient back to its input's
    dtype, for inputs in float32, float64 and bfloat16."""

    @staticmethod
    def forward(ctx, *inputs):
        ctx.dtypes = [x.dtype for x in inputs]
        return tuple(x.astype("float32") * 2.0 for x in inputs)

    @staticmethod
    def backward(ctx, *grads):
        return tuple((g * 2.0).astype(dtype) for g, dtype in zip(grads, ctx.dtypes))


def test_ernies_gate_casts_gradients_back_to_float32_float64_and_bfloat16():
    xs = [paddle.to_tensor([1.5, -2.0], dtype=d, stop_gradient=False)
          for d in ("float32", "float64", "bfloat16")]
    outs = GateCast.apply(*xs)
    assert [o.dtype for o in outs] == ["float32"] * 3
    sum((o * paddle.to_tensor([0.5, 3.0])).sum() for o in outs).backward()
    # Paddle 3.3.1 gives each gradient its input's dtype and these values.
    for x in xs:
        assert x.grad.dtype == x.dtype and as_float(x.grad) == [1.0, 6.0]


def test_bfloat16_is_refused_where_floats_are_by_name():
    with pytest.raises(TypeError, match=r"floor_divide\(\): argument 'x'"):
        paddle.floor_divide(paddle.to_tensor([1 + 1j]), bf16([1.0]))
    with pytest.raises(ValueError, match=r"randint\(\): argument 'dtype' must be an integer "
                                         r"dtype, got bfloat16"):
        paddle.randint(0, 3, [2], dtype="bfloat16")


def test_an_sgd_step_updates_a_bfloat16_parameter_in_its_dtype():
    w = paddle.create_parameter([2], "bfloat16",
                                default_initializer=paddle.nn.initializer.Constant(1.5))
    optimizer = paddle.optimizer.SGD(learning_rate=0.25, parameters=[w])
    (w * w).sum().backward()
    optimizer.step()
    assert w.dtype == paddle.bfloat16 and as_float(w) == [0.75, 0.75]
