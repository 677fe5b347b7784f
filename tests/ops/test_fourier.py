"""pylayer.fft and pylayer.signal: Paddle's dtype rules, edge cases and errors, and
gradients against Paddle 3.3.1's numbers (the op database checks the values against
numpy and the gradients by central differences)."""
import numpy as np
import pytest

import pylayer
from pylayer import fft, signal


def tensor(values, dtype="float64", stop_gradient=True):
    return pylayer.to_tensor(values, dtype=dtype, stop_gradient=stop_gradient)


# ---------------------------------------------------------------- dtypes
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "ihfft"])
def test_integer_input_is_computed_in_float32(name):
    out = getattr(fft, name)(pylayer.to_tensor([1, 2, 3, 4], dtype="int32"))
    assert out.dtype == pylayer.complex64


@pytest.mark.parametrize("name", ["irfft", "hfft"])
def test_integer_input_of_a_real_result_gives_float32(name):
    # Paddle 3.3.1 fails here (no fft_c2r kernel for float32); PyTorch computes it.
    assert getattr(fft, name)(pylayer.to_tensor([1, 2, 3])).dtype == pylayer.float32


@pytest.mark.parametrize("dtype, out", [("float32", "complex64"), ("float64", "complex128"),
                                        ("complex64", "complex64")])
def test_the_precision_is_kept(dtype, out):
    assert fft.fft(pylayer.ones([3], dtype=dtype)).dtype == getattr(pylayer, out)


def test_a_real_tensor_is_accepted_as_a_half_spectrum():
    assert fft.irfft(pylayer.to_tensor([1.0, 2.0, 3.0])).numpy().tolist() == [2.0, -0.5, 0.0,
                                                                              -0.5]


@pytest.mark.parametrize("name, x", [("fft", pylayer.to_tensor([True, False])),
                                     ("fft", pylayer.ones([2], dtype="float16")),
                                     ("rfft", pylayer.to_tensor([1j, 2.0])),
                                     ("ihfftn", pylayer.to_tensor([[1j, 2.0]]))])
def test_dtypes_paddle_has_no_kernel_for_are_refused(name, x):
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'x'"):
        getattr(fft, name)(x)


# ------------------------------------------------------------ edge cases
def test_an_empty_signal_gives_an_empty_spectrum():
    out = fft.fft(pylayer.zeros([0]))
    assert out.shape == [0] and out.dtype == pylayer.complex64


def test_irfft_of_one_frequency_is_empty_as_in_paddle():
    assert fft.irfft(pylayer.to_tensor([1.0 + 0j])).shape == [0]


def test_n_crops_and_pads():
    x = pylayer.to_tensor([1.0, 2.0])
    assert fft.fft(x, n=1).numpy().tolist() == [1.0]
    assert fft.fft(x, n=5).shape == [5]


def test_fftn_with_s_only_transforms_the_last_axes():
    assert fft.fftn(pylayer.ones([2, 3, 4]), s=[3, 3]).shape == [2, 3, 3]


def test_fftshift_rolls_a_1d_tensor():
    # Paddle 3.3.1 raises SystemError from roll for 1-D input; numpy rolls by n // 2.
    assert fft.fftshift(pylayer.arange(5)).numpy().tolist() == [3, 4, 0, 1, 2]
    assert fft.ifftshift(pylayer.arange(5)).numpy().tolist() == [2, 3, 4, 0, 1]


def test_fftshift_of_2d_matches_paddle():
    x = pylayer.arange(6).reshape([2, 3])
    assert fft.fftshift(x).numpy().tolist() == [[5, 3, 4], [2, 0, 1]]
    assert fft.fftshift(x, axes=1).numpy().tolist() == [[2, 0, 1], [5, 3, 4]]


def test_fftfreq_dtypes_and_edges():
    assert fft.fftfreq(5, dtype="int64").dtype == pylayer.float32     # as Paddle
    assert fft.fftfreq(5, dtype="float64").dtype == pylayer.float64
    assert fft.fftfreq(-1).shape == [0]
    np.testing.assert_allclose(fft.fftfreq(4, pylayer.to_tensor(2.0)).numpy(),
                               [0.0, 0.125, -0.25, -0.125])
    np.testing.assert_allclose(fft.rfftfreq(4, d=0.1).numpy(), [0.0, 2.5, 5.0], rtol=1e-6)


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize("call, error, text", [
    (lambda: fft.fft(pylayer.to_tensor(1.0)), ValueError, "at least one dimension"),
    (lambda: fft.fft(pylayer.ones([2]), n=0), ValueError, "'n' must be a positive"),
    (lambda: fft.fft(pylayer.ones([2]), axis=1), ValueError, "'axis'"),
    (lambda: fft.fft(pylayer.ones([2]), norm=None), ValueError, "'norm'"),
    (lambda: fft.fft(pylayer.ones([2]), n=2.5), TypeError, "'n'"),
    (lambda: fft.fft2(pylayer.ones([2])), ValueError, "'axes'"),
    (lambda: fft.fft2(pylayer.ones([2, 3, 4]), axes=[0, 1, 2]), ValueError, "'axes'"),
    (lambda: fft.fft2(pylayer.ones([2, 3]), s=[3]), ValueError, "'s'"),
    (lambda: fft.fftn(pylayer.ones([2, 2]), axes=[0, 0]), ValueError, "repeat"),
    (lambda: fft.fftn(pylayer.ones([2, 3, 4]), s=[3, 3], axes=[0]), ValueError, "same length"),
    (lambda: fft.fftn(pylayer.ones([2, 3]), axes=[]), ValueError, "at least one axis"),
    (lambda: fft.fftn(pylayer.to_tensor(2.0)), ValueError, "at least one axis"),
    (lambda: fft.fftfreq(0), ValueError, "must not be 0"),
    (lambda: fft.fftfreq(4, 0), ValueError, "must not be 0"),
    (lambda: fft.fftfreq(2.5), TypeError, "'n'"),
    (lambda: fft.fftfreq(4, dtype="complex64"), ValueError, "'dtype'"),
])
def test_errors_name_the_function_and_argument(call, error, text):
    with pytest.raises(error, match=text):
        call()


# -------------------------------------------------------------- gradients
def test_rfft_gradient_matches_paddle():
    x = tensor([1.0, 2.0, 3.0, 5.0], stop_gradient=False)
    pylayer.abs(fft.rfft(x)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [-0.5547001962252291, 1.1679497056621564,
                                                0.5547001962252291, 2.8320502943378436])


def test_irfft_gradient_counts_the_mirrored_bins_twice_as_paddle():
    z = tensor([1 + 1j, 2 - 1j, 0.5 + 2j], "complex128", stop_gradient=False)
    (fft.irfft(z) ** 2).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [0.5, 2 - 1j, 0.25])


def test_hfft_gradient_matches_paddle():
    z = tensor([1 + 1j, 2 - 1j, 0.5 + 2j], "complex128", stop_gradient=False)
    (fft.hfft(z, n=5) * tensor([1.0, 2, 3, 4, 5])).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [15, -5 - 6.881909602355867j,
                                                -5 - 1.6245984811645318j])


def test_a_transform_differentiates_twice():
    x = tensor([0.5, -1.0, 2.0, 0.25], stop_gradient=False)
    assert pylayer.autograd.gradgradcheck(
        lambda t: pylayer.abs(fft.rfft(t, n=6, norm="ortho")) ** 2, (x,))


# ----------------------------------------------------------------- signal
def test_stft_shapes_and_dtypes_as_paddle():
    x = pylayer.to_tensor(np.arange(16, dtype="float32"))
    assert signal.stft(x, 8).shape == [5, 9]
    assert signal.stft(pylayer.ones([2, 16]), 8).shape == [2, 5, 9]
    assert signal.stft(x, 8, hop_length=4, center=False).shape == [5, 3]
    assert signal.stft(x, 4, hop_length=4, center=False, onesided=False).shape == [4, 4]
    assert signal.stft(pylayer.arange(16), 4).dtype == pylayer.complex64
    assert signal.stft(x, 4, window=pylayer.ones([4], dtype="float64")).dtype == \
        pylayer.complex128


def test_stft_normalized_values_match_paddle():
    x = pylayer.to_tensor(np.arange(16, dtype="float32"))
    out = signal.stft(x, 4, hop_length=4, center=False, normalized=True).numpy()
    np.testing.assert_allclose(out[0], [3, 11, 19, 27])
    np.testing.assert_allclose(out[1], [-1 + 1j] * 4)


def test_stft_of_a_complex_signal_is_two_sided():
    x = pylayer.to_tensor(np.arange(8) + 1j)
    out = signal.stft(x, 4, hop_length=4, center=False)
    assert out.shape == [4, 2] and out.dtype == pylayer.complex128
    with pytest.raises(ValueError, match="onesided"):
        signal.stft(x, 4, hop_length=4, center=False, onesided=True)


def test_stft_gradient_matches_paddle():
    s = tensor(np.sin(np.arange(10.0)), stop_gradient=False)
    pylayer.abs(signal.stft(s, 4, hop_length=2)).sum().backward()
    np.testing.assert_allclose(s.grad.numpy(), [
        -1.7922484963950633, 6.610198590591425, 2.6267615592399736, -0.059210434692219094,
        -3.1178367067195323, -3.5100125105542928, -2.698557274212148, 4.148523332744894,
        4.9818809180867705, 0.8105010219101937], rtol=1e-12)


def test_istft_inverts_stft():
    x = np.random.default_rng(0).standard_normal((2, 20))
    window = pylayer.to_tensor(np.hanning(10)[1:-1])
    spectrum = signal.stft(pylayer.to_tensor(x), 8, hop_length=2, window=window)
    back = signal.istft(spectrum, 8, hop_length=2, window=window, length=20)
    np.testing.assert_allclose(back.numpy(), x, atol=1e-12)


def test_istft_refuses_windows_that_do_not_overlap():
    window = pylayer.to_tensor(np.hanning(8))
    spectrum = signal.stft(pylayer.ones([16]), 8, hop_length=8, window=window)
    with pytest.raises(ValueError, match="NOLA"):
        signal.istft(spectrum, 8, hop_length=8, window=window)


def test_istft_pads_a_longer_length_with_zeros():
    # Paddle 3.3.1 returns fewer values than asked; PyTorch pads with zeros.
    spectrum = signal.stft(pylayer.ones([16]), 8, hop_length=2)
    out = signal.istft(spectrum, 8, hop_length=2, length=24)
    assert out.shape == [24] and out.numpy()[20:].tolist() == [0.0] * 4


@pytest.mark.parametrize("call, text", [
    (lambda: signal.stft(pylayer.ones([2, 2, 16]), 8), "1-D or 2-D"),
    (lambda: signal.stft(pylayer.ones([16]), 32), "'n_fft'"),
    (lambda: signal.stft(pylayer.ones([16]), 4, hop_length=0), "'hop_length'"),
    (lambda: signal.stft(pylayer.ones([16]), 4, win_length=8), "'win_length'"),
    (lambda: signal.stft(pylayer.ones([16]), 4, window=pylayer.ones([3])), "'window'"),
    (lambda: signal.stft(pylayer.ones([16]), 4, pad_mode="circular"), "'pad_mode'"),
    (lambda: signal.istft(pylayer.ones([9], dtype="complex64"), 8), "2-D or 3-D"),
    (lambda: signal.istft(pylayer.ones([4, 9], dtype="complex64"), 8), "frequencies"),
    (lambda: signal.istft(pylayer.ones([5, 9], dtype="complex64"), 8, return_complex=True),
     "'onesided'"),
])
def test_signal_errors(call, text):
    with pytest.raises(ValueError, match=text):
        call()
