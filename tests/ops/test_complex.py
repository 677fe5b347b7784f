"""Complex dtypes as Paddle 3.3.1 has them: creation, promotion, the complex ops,
refusals, and gradients in Paddle's convention, which PyTorch shares (for a real loss
L, the gradient of z = a + ib is dL/da + i dL/db). Each rule here was observed on
Paddle; the op database (opinfo.py) checks every op that takes complex tensors against
numpy and by gradcheck and gradgradcheck in complex128."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.autograd import PyLayer, gradcheck, gradgradcheck

Z = np.array([1 + 2j, -0.5 + 0.3j])
W = np.array([0.7 - 1.1j, 2 + 0.5j])
WEIGHTS = np.array([0.3 + 0.9j, -1.2 + 0.4j])    # the real loss real(sum(out * WEIGHTS))


def leaf(values, dtype=None):
    return paddle.to_tensor(values, dtype=dtype, stop_gradient=False)


def real_loss(out):
    return paddle.real(out * paddle.to_tensor(WEIGHTS)).sum()


def message(call):
    with pytest.raises((TypeError, ValueError)) as info:
        call()
    return str(info.value)


# ------------------------------------------------------------------ creation
@pytest.mark.parametrize("data, dtype", [
    (1 + 2j, "complex64"), ([1 + 2j, 3], "complex64"), (np.array([1 + 2j]), "complex128"),
    (np.array([1 + 2j], np.complex64), "complex64"), (np.complex128(1 + 2j), "complex128"),
    ([np.complex64(1j), 2], "complex64")])
def test_to_tensor_gives_complex_data_paddles_dtypes(data, dtype):
    assert paddle.to_tensor(data).dtype == dtype


def test_to_tensor_makes_numbers_complex_on_request_and_refuses_to_drop_imaginary_parts():
    z = paddle.to_tensor([1, 2], dtype="complex64")
    assert z.dtype == paddle.complex64 and z.numpy().tolist() == [1 + 0j, 2 + 0j]
    # Paddle drops the imaginary part here; pylayer refuses (migration guide).
    assert "cannot hold" in message(lambda: paddle.to_tensor([1 + 2j], dtype="float32"))


def test_complex_builds_from_two_parts_of_one_float_dtype_with_broadcasting():
    z = paddle.complex(paddle.to_tensor([[1.0], [2.0]]), paddle.to_tensor([3.0, 4.0]))
    assert z.dtype == paddle.complex64
    np.testing.assert_array_equal(z.numpy(), [[1 + 3j, 1 + 4j], [2 + 3j, 2 + 4j]])
    z64 = paddle.complex(paddle.ones([2], "float64"), paddle.zeros([2], "float64"))
    assert z64.dtype == paddle.complex128
    assert message(lambda: paddle.complex(paddle.ones([2]), paddle.ones([2], "float64"))) == (
        "complex(): arguments 'real' and 'imag' must both be float32 or both float64, got "
        "float32 and float64")
    assert message(lambda: paddle.complex(paddle.to_tensor([1]), paddle.to_tensor([2]))) \
        .startswith("complex(): argument 'real' (position 1) must be a floating-point Tensor")


def test_creation_ops_and_astype_take_complex_dtypes():
    assert paddle.zeros([2], "complex64").numpy().tolist() == [0j, 0j]
    assert paddle.ones([2], "complex128").dtype == paddle.complex128
    assert paddle.full([2], 1 + 2j, "complex64").numpy().tolist() == [1 + 2j, 1 + 2j]
    assert paddle.full([2], 1 + 2j).dtype == paddle.complex128      # as Paddle
    assert "cannot hold" in message(lambda: paddle.full([2], 1j, "float32"))
    assert paddle.to_tensor([1.0, 2.0]).astype("complex64").dtype == paddle.complex64
    # A complex tensor cast to a real dtype keeps its real part; to bool, whether it is 0.
    assert paddle.to_tensor([1 + 2j]).astype("float32").numpy().tolist() == [1.0]
    assert paddle.to_tensor([1j, 0]).astype("bool").numpy().tolist() == [True, False]
    assert paddle.zeros_like(paddle.to_tensor([1j])).dtype == paddle.complex64


def test_complex_dtypes_are_named_like_paddles():
    assert repr(paddle.complex64) == "pylayer.complex64" and paddle.complex128 == "complex128"
    assert paddle.complex64.is_complex and not paddle.complex64.is_floating_point
    assert paddle.is_complex(paddle.to_tensor([1j])) and not paddle.to_tensor([1.0]).is_complex()
    assert complex(paddle.to_tensor(1 + 2j)) == 1 + 2j
    assert paddle.to_tensor([1 + 2j]).item() == 1 + 2j


# ----------------------------------------------------------------- promotion
C64, C128 = np.array([1 + 2j], np.complex64), np.array([1 + 2j], np.complex128)


@pytest.mark.parametrize("x, y, expected", [
    (C64, np.array([1.0], np.float32), "complex64"), (C64, np.array([1.0]), "complex128"),
    (C128, np.array([1.0], np.float32), "complex128"), (C64, C128, "complex128"),
    (C64, np.array([1]), "complex64"), (np.array([1.0], np.float16), C64, "complex64"),
    (np.array([1.0], np.float32), 1j, "complex64"), (np.array([1.0]), 1j, "complex128"),
    (np.array([1]), 1j, "complex64"), (C64, 2, "complex64"), (C64, 2.5, "complex64")])
@pytest.mark.parametrize("op", [paddle.add, paddle.subtract, paddle.multiply, paddle.divide])
def test_complex_promotion_is_paddles(op, x, y, expected):
    as_operand = (lambda v: paddle.to_tensor(v) if isinstance(v, np.ndarray) else v)
    assert op(as_operand(x), as_operand(y)).dtype == expected


def test_matmul_of_int64_and_complex64_is_complex64():
    out = paddle.matmul(paddle.to_tensor([[1, 2]]), paddle.to_tensor([[1j], [1]], "complex64"))
    assert out.dtype == paddle.complex64 and out.numpy().tolist() == [[2 + 1j]]


# ---------------------------------------------------------------- the ops
def test_real_imag_conj_angle_as_real_and_as_complex_give_paddles_values():
    z = paddle.to_tensor([1 + 2j, -3 - 1j])
    assert paddle.real(z).numpy().tolist() == [1.0, -3.0] and z.real().dtype == paddle.float32
    assert paddle.imag(z).numpy().tolist() == [2.0, -1.0]
    assert paddle.conj(z).numpy().tolist() == [1 - 2j, -3 + 1j]
    assert paddle.conj(paddle.to_tensor([1, -2])).numpy().tolist() == [1, -2]    # real: a copy
    np.testing.assert_allclose(paddle.angle(z).numpy(), [1.1071488, -2.8198421], rtol=1e-6)
    np.testing.assert_allclose(paddle.angle(paddle.to_tensor([1.0, -2.0])).numpy(),
                               [0.0, np.pi], rtol=1e-7)
    assert paddle.as_real(z).numpy().tolist() == [[1.0, 2.0], [-3.0, -1.0]]
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], "float64")
    assert paddle.as_complex(x).dtype == paddle.complex128
    assert paddle.as_complex(x).numpy().tolist() == [1 + 2j, 3 + 4j]
    assert x.as_complex().as_real().numpy().tolist() == x.numpy().tolist()


def test_the_parts_of_a_complex_tensor_are_new_memory():
    z = paddle.to_tensor([1 + 2j])
    part = paddle.real(z)
    part[0] = 5.0
    assert z.numpy().tolist() == [1 + 2j]


@pytest.mark.parametrize("call, expected", [
    (lambda: paddle.real(paddle.to_tensor([1.0])),
     "real(): argument 'x' (position 1) must be a complex Tensor (complex64 or complex128), "
     "got dtype float32"),
    (lambda: paddle.as_real(paddle.to_tensor([1])),
     "as_real(): argument 'x' (position 1) must be a complex Tensor (complex64 or complex128), "
     "got dtype int64"),
    (lambda: paddle.as_complex(paddle.ones([2, 3])),
     "as_complex(): argument 'x' (position 1) must have a last dimension of size 2 (the real "
     "and imaginary parts), got shape [2, 3]"),
    (lambda: paddle.as_complex(paddle.to_tensor([[1, 2]])),
     "as_complex(): argument 'x' (position 1) must be a floating-point Tensor, got dtype int64"),
    (lambda: paddle.angle(paddle.to_tensor([1])),
     "angle(): argument 'x' (position 1) must be a floating-point or complex Tensor, got dtype "
     "int64")])
def test_the_complex_ops_refuse_what_paddle_refuses(call, expected):
    assert message(call) == expected


def test_math_reductions_and_matrix_products_take_complex_tensors():
    z = paddle.to_tensor([1 + 2j, 3 - 1j])
    np.testing.assert_allclose(paddle.exp(z).numpy(), np.exp(z.numpy()), rtol=1e-6)
    assert paddle.abs(paddle.to_tensor([3 + 4j])).numpy().tolist() == [5.0]
    assert paddle.abs(z).dtype == paddle.float32
    assert paddle.sum(z).item() == 4 + 1j and paddle.mean(z).item() == 2 + 0.5j
    assert paddle.prod(z).item() == 5 + 5j
    assert paddle.cumsum(z, 0).numpy().tolist() == [1 + 2j, 4 + 1j]
    assert paddle.sum(z, dtype="complex128").dtype == paddle.complex128
    m = paddle.to_tensor([[1 + 2j]])
    assert paddle.matmul(m, paddle.to_tensor([[1j]])).numpy().tolist() == [[-2 + 1j]]
    assert paddle.einsum("i,i->", z, z).item() == (1 + 2j) ** 2 + (3 - 1j) ** 2
    assert (z == paddle.to_tensor([1 + 2j, 3])).numpy().tolist() == [True, False]
    assert paddle.isfinite(paddle.to_tensor([1j, complex("inf")])).numpy().tolist() == [True,
                                                                                        False]


def test_indexing_and_manipulation_keep_complex_values():
    z = paddle.to_tensor([[1 + 2j, 3j], [1, -1j]])
    assert z[1, 1].item() == -1j and z[:, 0].numpy().tolist() == [1 + 2j, 1]
    assert paddle.concat([z, z]).shape == [4, 2] and paddle.stack([z, z]).dtype == z.dtype
    assert paddle.transpose(z, [1, 0]).numpy().tolist() == [[1 + 2j, 1], [3j, -1j]]
    z[0, 0] = 5
    z[1] = paddle.to_tensor([2 + 2j, 0])
    assert z.numpy().tolist() == [[5, 3j], [2 + 2j, 0]]
    assert paddle.where(paddle.to_tensor([True, False]), paddle.to_tensor([1j, 2j]),
                        paddle.to_tensor([1.0, 2.0])).numpy().tolist() == [1j, 2]


def test_tensors_of_two_dtypes_are_not_joined():
    assert "same dtype" in message(lambda: paddle.concat([paddle.to_tensor([1j]),
                                                          paddle.to_tensor([1.0])]))


def test_a_complex_value_is_not_written_into_a_real_tensor():
    x = paddle.to_tensor([1.0, 3.0])
    assert message(lambda: x.__setitem__(0, 5 + 1j)) == (
        "setitem: a complex value (complex128) cannot be written into a tensor of dtype "
        "float32: cast the tensor to a complex dtype first")
    assert x.numpy().tolist() == [1.0, 3.0] and x.inplace_version == 0


# --------------------------------------------------------- refused operations
C = paddle.to_tensor([1 + 2j, 1j])


@pytest.mark.parametrize("fn, call", [
    ("less_than", lambda: C < paddle.to_tensor([1j, 1])),
    ("greater_equal", lambda: paddle.greater_equal(C, C)),
    ("maximum", lambda: paddle.maximum(C, C)),
    ("minimum", lambda: paddle.minimum(C, C)),
    ("remainder", lambda: paddle.remainder(C, C)),
    ("floor_divide", lambda: paddle.floor_divide(C, C))])
def test_binary_ops_that_order_numbers_refuse_complex_operands(fn, call):
    assert message(call) == (f"{fn}(): argument 'x' must be real: {fn} is not defined for "
                             f"complex numbers, got complex64")


def test_a_complex_python_number_is_refused_by_name_too():
    assert message(lambda: paddle.maximum(paddle.ones([2]), 1j)) == (
        "maximum(): argument 'y' must be real: maximum is not defined for complex numbers, "
        "got complex")


@pytest.mark.parametrize("fn, call", [
    ("max", lambda: paddle.max(C)), ("min", lambda: paddle.min(C)),
    ("argmax", lambda: paddle.argmax(C)), ("relu", lambda: paddle.nn.functional.relu(C)),
    ("floor", lambda: paddle.floor(C)), ("ceil", lambda: paddle.ceil(C)),
    ("round", lambda: paddle.round(C)), ("sign", lambda: paddle.sign(C)),
    ("clip", lambda: paddle.clip(C, 0, 1))])
def test_unary_ops_that_order_numbers_refuse_complex_tensors(fn, call):
    assert message(call) == (f"{fn}(): argument 'x' (position 1) must be a real Tensor: {fn} is "
                             f"not defined for complex numbers, got dtype complex64")


@pytest.mark.parametrize("fn", ["rsqrt", "erf", "logsumexp", "std", "var"])
def test_math_paddle_does_not_define_for_complex_numbers_is_refused(fn):
    assert message(lambda: getattr(paddle, fn)(C)).startswith(
        f"{fn}(): argument 'x' (position 1) must be a floating-point Tensor")


# ------------------------------------------------------------------ gradients
def grads(make_out, *values):
    """The gradients of real_loss(make_out(*leaves)) for leaves made from values."""
    leaves = [leaf(v) for v in values]
    return [g.numpy() for g in paddle.grad([real_loss(make_out(*leaves))], leaves)]


def test_gradients_are_the_conjugate_of_the_derivative_times_the_output_gradient():
    # Observed on Paddle 3.3.1 and PyTorch 2.13 alike: for out = f(z) holomorphic, the
    # gradient is conj(f'(z)) * g, with g = conj(WEIGHTS) the gradient of the loss.
    g = np.conj(WEIGHTS)
    cases = [(paddle.exp, np.exp(Z)), (paddle.log, 1 / Z), (paddle.sqrt, 0.5 / np.sqrt(Z)),
             (paddle.square, 2 * Z), (paddle.reciprocal, -1 / Z ** 2),
             (paddle.tanh, 1 - np.tanh(Z) ** 2), (paddle.sin, np.cos(Z)),
             (paddle.cos, -np.sin(Z)), (paddle.tan, 1 / np.cos(Z) ** 2),
             (paddle.sigmoid, np.exp(-Z) / (1 + np.exp(-Z)) ** 2), (paddle.log1p, 1 / (1 + Z)),
             (lambda z: paddle.pow(z, 3.0), 3 * Z ** 2)]
    for op, derivative in cases:
        (dz,) = grads(op, Z)
        np.testing.assert_allclose(dz, g * np.conj(derivative), rtol=1e-12, err_msg=str(op))


def test_products_take_the_conjugate_of_the_other_factor():
    g = np.conj(WEIGHTS)
    dz, dw = grads(paddle.multiply, Z, W)
    np.testing.assert_allclose(dz, g * np.conj(W), rtol=1e-12)
    np.testing.assert_allclose(dw, g * np.conj(Z), rtol=1e-12)
    dz, dw = grads(paddle.divide, Z, W)
    np.testing.assert_allclose(dz, g / np.conj(W), rtol=1e-12)
    np.testing.assert_allclose(dw, -g * np.conj(Z / W ** 2), rtol=1e-12)
    (dz,) = grads(lambda z: z * (2 - 1j), Z)
    np.testing.assert_allclose(dz, g * (2 + 1j), rtol=1e-12)


def test_matmul_gradients_are_products_with_conjugate_transposes():
    m = np.array([[1 + 2j, 0.5 - 1j], [0.3j, -1 + 0.1j]])
    n = np.array([[0.2 - 1j, 1], [1j, -0.5 + 0.5j]])
    g = np.conj(np.stack([WEIGHTS, WEIGHTS]))
    dm, dn = grads(paddle.matmul, m, n)
    np.testing.assert_allclose(dm, g @ n.conj().T, rtol=1e-12)
    np.testing.assert_allclose(dn, m.conj().T @ g, rtol=1e-12)


def test_modulus_phase_and_parts_send_real_gradients_back_as_paddle_does():
    weights = np.array([0.3, -1.2])
    for op, expected in [(paddle.abs, weights * Z / np.abs(Z)),
                         (paddle.angle, weights * 1j / np.conj(Z)),
                         (paddle.real, weights + 0j), (paddle.imag, 1j * weights)]:
        z = leaf(Z)
        (op(z) * paddle.to_tensor(weights)).sum().backward()
        np.testing.assert_allclose(z.grad.numpy(), expected, rtol=1e-12, err_msg=str(op))


def test_a_real_input_of_a_complex_result_gets_the_real_part_of_its_gradient():
    r = np.array([0.6, -1.3])
    g = np.conj(WEIGHTS)
    for op, expected in [(paddle.add, g.real), (paddle.multiply, (g * np.conj(W)).real),
                         (paddle.divide, (g / np.conj(W)).real)]:
        dr, _ = grads(op, r, W)
        assert dr.dtype == np.float64
        np.testing.assert_allclose(dr, expected, rtol=1e-12, err_msg=str(op))
    (dr,) = grads(lambda x: (1 + 1j) - x, r)
    np.testing.assert_allclose(dr, -g.real, rtol=1e-12)
    (dr,) = grads(lambda x: x.astype("complex128"), r)
    np.testing.assert_allclose(dr, g.real, rtol=1e-12)
    re, im = grads(paddle.complex, r, np.array([0.2, 0.9]))
    np.testing.assert_allclose(re, g.real, rtol=1e-12)
    np.testing.assert_allclose(im, g.imag, rtol=1e-12)


def test_backward_of_a_complex_tensor_differentiates_its_real_part():
    # Paddle seeds a complex output with ones: the gradient of its real part.
    z = leaf(Z)
    (z * z).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), np.conj(2 * Z), rtol=1e-12)


def test_a_real_tensor_takes_no_complex_gradient():
    x = leaf([1.0, 2.0])
    assert message(lambda: paddle.grad([x * 2.0], [x], grad_outputs=[paddle.to_tensor(
        [1j, 1j])])) == ("grad(): argument 'grad_outputs' item 0 is a complex gradient "
                         "(complex64) for a real tensor (float32); a real tensor's gradient "
                         "is real")


def test_a_value_written_into_a_complex_tensor_gets_the_real_part_of_its_gradient():
    value = leaf([0.5, 2.0], "float64")
    z = paddle.to_tensor(Z) * 1.0
    z[0] = value[0]
    real_loss(z).backward()
    np.testing.assert_allclose(value.grad.numpy(), [np.conj(WEIGHTS[0]).real, 0.0])


# -------------------------------------------------------------- gradcheck
def test_gradcheck_and_gradgradcheck_take_complex_inputs():
    z, w = leaf(Z), leaf(W)
    assert gradcheck(lambda a, b: paddle.exp(a) * b, (z, w))
    assert gradgradcheck(lambda a, b: paddle.exp(a) * b, (z, w))
    assert gradcheck(paddle.abs, z) and gradcheck(paddle.real, z)
    assert gradcheck(paddle.complex, (leaf([0.5, 1.0], "float64"), leaf([2.0, -1.0], "float64")))


class NotConjugated(PyLayer):
    """exp whose backward forgets the conjugate: wrong for complex inputs."""

    @staticmethod
    def forward(ctx, z):
        out = paddle.exp(z)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensor()
        return g * out


def test_gradcheck_catches_a_gradient_in_another_convention():
    with pytest.raises(paddle.autograd.GradcheckError, match=r"\(real part\)|\(imaginary part\)"):
        gradcheck(NotConjugated.apply, leaf(Z))
    assert gradcheck(NotConjugated.apply, leaf([0.5, -1.0], "float64"))     # real: right


# --------------------------------------- complex PyLayers from Paddle-ecosystem code
class ComplexPow(PyLayer):
    """A NeRF encoder's complex power: its backward returns conjugate gradients."""

    @staticmethod
    def forward(ctx, z, n):
        ctx.save_for_backward(z)
        ctx.n = n
        return paddle.pow(z, n)

    @staticmethod
    def backward(ctx, g):
        (z,) = ctx.saved_tensor()
        return g * paddle.conj(ctx.n * paddle.pow(z, ctx.n - 1))


class ApplyUnitary(PyLayer):
    """A quantum circuit's gate on a state vector of amplitudes."""

    @staticmethod
    def forward(ctx, u, psi):
        ctx.save_for_backward(u, psi)
        return paddle.matmul(u, psi)

    @staticmethod
    def backward(ctx, g):
        u, psi = ctx.saved_tensor()
        gu = paddle.matmul(g.unsqueeze(-1), paddle.conj(psi).unsqueeze(0))
        return gu, paddle.matmul(paddle.conj(u).T, g)


def test_a_complex_power_pylayer_built_from_real_parts_runs_as_on_paddle():
    re, im = leaf([0.5, -1.2], "float64"), leaf([0.8, 0.3], "float64")
    w = ComplexPow.apply(paddle.complex(re, im), 3)
    ((paddle.abs(w) ** 2).sum() + paddle.real(w).sum()).backward()
    # Paddle 3.3.1 gives these gradients for the same code (and so does pow itself).
    np.testing.assert_allclose(re.grad.numpy(), [1.2063, -12.80448], rtol=1e-12)
    np.testing.assert_allclose(im.grad.numpy(), [1.40208, 6.37362], rtol=1e-12)
    assert gradcheck(lambda z: ComplexPow.apply(z, 3), leaf(Z))


def test_a_quantum_amplitude_pylayer_runs_as_on_paddle():
    theta = leaf(0.7, "float64")
    c, s = paddle.cos(theta / 2), paddle.sin(theta / 2)
    u = paddle.stack([paddle.stack([c, -s]), paddle.stack([s, c])]).astype("complex128")
    u = u * paddle.to_tensor(np.array([[1, 1j], [1j, 1]]))
    psi = leaf(np.array([0.6, 0.8j]))
    probabilities = paddle.abs(ApplyUnitary.apply(u, psi)) ** 2
    (probabilities * paddle.to_tensor([1.0, -1.0], "float64")).sum().backward()
    # Paddle 3.3.1 gives these for the same code; the built-in matmul agrees.
    np.testing.assert_allclose(theta.grad.numpy(), 0.18038095242655347, rtol=1e-12)
    np.testing.assert_allclose(psi.grad.numpy(), [0.9178106247413861, -1.2237474996551816j],
                               rtol=1e-12)
    assert gradcheck(ApplyUnitary.apply, (leaf(np.array([[1, 1j], [0.5, 2 - 1j]])), leaf(Z)))
