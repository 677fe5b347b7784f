"""The op database's entries of ``pylayer.fft`` and ``pylayer.signal``.

The references are numpy.fft's transforms, computed in the precision pylayer computes
in (integers as float32); numpy has no n-D Hermitian transforms, so those are written
as it writes the 1-D ones (``hfft`` is ``irfft`` of the conjugate with the other
normalization, ``ihfft`` the conjugate of ``rfft`` with it).
"""
import numpy as np

import pylayer

from opinfo import COMPLEX, FLOATS, INTS, OpInfo, T, samples
from _hostile_values import A, K, Call, _value, f23

_OTHER = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
_PRECISE = {"float32": (1e-5, 1e-5), "complex64": (1e-5, 1e-5)}


def _inexact(x):
    return x.astype(np.float32) if x.dtype.kind in "iu" else x


def _complex_dtype(x):
    return np.result_type(x.dtype, np.complex64)


def _real_dtype(x):
    return np.dtype(_complex_dtype(x).char.lower())


def _ref(transform, result):
    """A reference from a numpy.fft function, its result in pylayer's dtype."""
    def ref(x, *args, **kwargs):
        x = _inexact(x)
        dtype = _complex_dtype(x) if result == "complex" else _real_dtype(x)
        return transform(x, *args, **kwargs).astype(dtype)
    return ref


def _named(fn, axes_name):
    """numpy's keywords for Paddle's (``axis``/``axes``, ``n``/``s``)."""
    def call(x, n=None, axis=None, norm="backward", s=None, axes=None):
        lengths = n if axes_name == "axis" else s
        where = axis if axes_name == "axis" else axes
        if where is None and axes_name == "axis":
            where = -1
        elif where is None and lengths is not None:
            where = list(range(x.ndim - len(lengths), x.ndim))
        return fn(x, lengths, where, norm)
    return call


def _hfftn(x, s, axes, norm):
    return np.fft.irfftn(np.conj(x), s, axes, _OTHER[norm])


def _ihfftn(x, s, axes, norm):
    return np.conj(np.fft.rfftn(x, s, axes, _OTHER[norm]))


def _fft2_default(fn):
    return lambda x, s, axes, norm: fn(x, s, (-2, -1) if axes is None else axes, norm)


ONE_AXIS = samples((T((5,)),), ((T((2, 4)),), {"n": 6, "axis": 0, "norm": "ortho"}),
                   ((T((3, 4)),), {"n": 3, "norm": "forward"}))
HALF_ONE_AXIS = samples((T((5,)),), ((T((2, 4)),), {"n": 5, "axis": 0, "norm": "ortho"}),
                        ((T((3, 4)),), {"n": 8, "norm": "forward"}))
TWO_AXES = samples((T((3, 4)),), ((T((2, 3, 4)),), {"s": [3, 2], "axes": [0, 2], "norm": "ortho"}),
                   ((T((3, 4)),), {"s": [2, 6], "norm": "forward"}))
N_AXES = samples((T((3, 4)),), ((T((2, 3, 4)),), {"s": [3, 5], "norm": "ortho"}),
                 ((T((2, 3, 4)),), {"axes": [0, 1], "norm": "forward"}),
                 ((T((2, 3, 4)),), {"s": [3, 2, 5], "axes": [2, 0, 1]}))


def _one_axis_call(kind):
    return Call(A("x", f23, kind), K("n", _value(4), "size_or_none"),
                K("axis", _value(-1), "int_axis"), K("norm", _value("ortho"), "reduction"))


def _two_axes_call(kind):
    return Call(A("x", f23, kind), K("s", _value([2, 4]), "shape_or_none"),
                K("axes", _value([0, 1]), "int_list"), K("norm", _value("ortho"), "reduction"),
                extra=[("one axis", {"axes": _value([1])}, "axes"),
                       ("a repeated axis", {"axes": _value([1, 1])}, "axes")])


def _n_axes_call(kind):
    return Call(A("x", f23, kind), K("s", _value([2, 4]), "shape_or_none"),
                K("axes", _value([0, 1]), "axis"), K("norm", _value("ortho"), "reduction"),
                extra=[("s and axes of other lengths", {"axes": _value([1])}, ("s", "axes"))])


def _entries():
    entries = []
    complex_in = FLOATS + COMPLEX + INTS
    real_in = FLOATS + INTS
    one = [("fft", np.fft.fft, "complex", complex_in, ONE_AXIS),
           ("ifft", np.fft.ifft, "complex", complex_in, ONE_AXIS),
           ("rfft", np.fft.rfft, "complex", real_in, ONE_AXIS),
           ("irfft", np.fft.irfft, "real", complex_in, HALF_ONE_AXIS),
           ("hfft", np.fft.hfft, "real", complex_in, HALF_ONE_AXIS),
           ("ihfft", np.fft.ihfft, "complex", real_in, ONE_AXIS)]
    for name, fn, result, dtypes, sample_set in one:
        kind = "real_math_tensor" if dtypes == real_in else "math_tensor"
        entries.append(OpInfo(f"fft.{name}", _ref(_named(fn, "axis"), result), sample_set,
                              dtypes=dtypes, tolerance=_PRECISE, call=_one_axis_call(kind)))
    many = [("fftn", np.fft.fftn, "complex", complex_in),
            ("ifftn", np.fft.ifftn, "complex", complex_in),
            ("rfftn", np.fft.rfftn, "complex", real_in),
            ("irfftn", np.fft.irfftn, "real", complex_in),
            ("hfftn", _hfftn, "real", complex_in),
            ("ihfftn", _ihfftn, "complex", real_in)]
    for name, fn, result, dtypes in many:
        kind = "real_math_tensor" if dtypes == real_in else "math_tensor"
        entries.append(OpInfo(f"fft.{name}", _ref(_named(fn, "axes"), result), N_AXES,
                              dtypes=dtypes, tolerance=_PRECISE, call=_n_axes_call(kind)))
        two = name[:-1] + "2"
        entries.append(OpInfo(f"fft.{two}", _ref(_named(_fft2_default(fn), "axes"), result),
                              TWO_AXES, dtypes=dtypes, tolerance=_PRECISE,
                              call=_two_axes_call(kind)))
    return entries


def _frequencies(fn):
    def ref(n, d=1.0, dtype=None):
        return fn(n, d).astype(dtype or "float32")
    return ref


def _shift(fn):
    return lambda x, axes=None: fn(x, axes)


ENTRIES = _entries() + [
    OpInfo("fft.fftfreq", _frequencies(np.fft.fftfreq),
           samples((4,), (5, 0.5), ((6,), {"d": 2.0, "dtype": "float64"})),
           dtypes=("float32",), differentiable=False,
           call=Call(A("n", _value(4), "int"), K("d", _value(0.5), "number"),
                     K("dtype", _value("float64"), "dtype"),
                     extra=[("n of 0", {"n": _value(0)}, "n")])),
    OpInfo("fft.rfftfreq", _frequencies(np.fft.rfftfreq),
           samples((4,), (5, 0.5), ((6,), {"d": 2.0, "dtype": "float64"})),
           dtypes=("float32",), differentiable=False,
           call=Call(A("n", _value(4), "int"), K("d", _value(0.5), "number"),
                     K("dtype", _value("float64"), "dtype"),
                     extra=[("d of 0", {"d": _value(0.0)}, "d")])),
    OpInfo("fft.fftshift", _shift(np.fft.fftshift),
           samples((T((5,)),), (T((2, 3)),), ((T((2, 3, 4)),), {"axes": [0, 2]}),
                   ((T((4, 3)),), {"axes": 1})),
           dtypes=FLOATS + COMPLEX + INTS,
           call=Call(A("x", f23, "tensor"), K("axes", _value([0]), "axis"))),
    OpInfo("fft.ifftshift", _shift(np.fft.ifftshift),
           samples((T((5,)),), (T((2, 3)),), ((T((2, 3, 4)),), {"axes": [0, 2]}),
                   ((T((4, 3)),), {"axes": 1})),
           dtypes=FLOATS + COMPLEX + INTS,
           call=Call(A("x", f23, "tensor"), K("axes", _value([0]), "axis"))),
]



# --------------------------------------------------------------- signal
def _stft_ref(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
              pad_mode="reflect", normalized=False, onesided=None):
    x = _inexact(x)
    hop_length = hop_length or n_fft // 4
    win_length = win_length or n_fft
    window = np.ones(win_length, x.dtype) if window is None else window
    left = (n_fft - win_length) // 2
    window = np.pad(window, (left, n_fft - win_length - left))
    batch = x.reshape(-1, x.shape[-1])
    if center:
        batch = np.pad(batch, ((0, 0), (n_fft // 2, n_fft // 2)), mode=pad_mode)
    frames = np.lib.stride_tricks.sliding_window_view(batch, n_fft, axis=1)[:, ::hop_length]
    frames = frames * window
    if onesided is None:
        onesided = not np.iscomplexobj(frames)
    norm = "ortho" if normalized else "backward"
    spectrum = (np.fft.rfft if onesided else np.fft.fft)(frames, axis=-1, norm=norm)
    spectrum = np.swapaxes(spectrum, 1, 2).astype(np.result_type(frames.dtype, np.complex64))
    return spectrum.reshape(x.shape[:-1] + spectrum.shape[1:])


def _istft_ref(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
               normalized=False, onesided=True, length=None, return_complex=False):
    hop_length = hop_length or n_fft // 4
    win_length = win_length or n_fft
    real = np.dtype(np.result_type(x.dtype, np.complex64).char.lower())
    window = np.ones(win_length, real) if window is None else window
    left = (n_fft - win_length) // 2
    window = np.pad(window, (left, n_fft - win_length - left))
    norm = "ortho" if normalized else "backward"
    spectrum = np.swapaxes(x.reshape((-1,) + x.shape[-2:]), 1, 2)
    if return_complex:
        frames = np.fft.ifft(spectrum, axis=-1, norm=norm)
    else:
        frames = np.fft.irfft(spectrum[..., :n_fft // 2 + 1], n_fft, axis=-1, norm=norm)
    frames = frames * window
    total = n_fft + hop_length * (frames.shape[1] - 1)
    signal = np.zeros((frames.shape[0], total), frames.dtype)
    envelope = np.zeros(total, window.dtype)
    for i in range(frames.shape[1]):
        signal[:, i * hop_length:i * hop_length + n_fft] += frames[:, i]
        envelope[i * hop_length:i * hop_length + n_fft] += window * window
    start = n_fft // 2 if center else 0
    stop = total - start if length is None else start + length
    signal = signal[:, start:stop] / envelope[start:stop]
    out_dtype = np.result_type(x.dtype, window.dtype, np.complex64)
    out_dtype = out_dtype if return_complex else out_dtype.char.lower()
    return signal.reshape(x.shape[:-2] + signal.shape[-1:]).astype(out_dtype)


_HANN = np.hanning(10)[1:-1]

ENTRIES += [
    OpInfo("signal.stft", _stft_ref, samples(
        (T((16,)), 8), ((T((2, 12)), 6), {"hop_length": 2, "pad_mode": "constant"}),
        ((T((14,)), 8), {"hop_length": 3, "window": _HANN, "normalized": True}),
        ((T((2, 12)), 6), {"hop_length": 2, "win_length": 4, "center": False,
                           "onesided": False})),
           dtypes=FLOATS + COMPLEX, tolerance=_PRECISE,
           call=Call(A("x", lambda env: pylayer.ones([16]), "math_tensor"),
                     A("n_fft", _value(8), "size"), K("hop_length", _value(2), "count_or_none"),
                     K("win_length", _value(6), "size_or_none"),
                     K("window", _value(None), "tensor_or_none"),
                     K("pad_mode", _value("constant"), "reduction"),
                     extra=[("n_fft longer than the signal", {"n_fft": _value(32)}, "n_fft"),
                            ("a window of the wrong length",
                             {"window": lambda env: pylayer.ones([3])}, "window")])),
    OpInfo("signal.istft", _istft_ref, samples(
        (T((5, 9)), 8), ((T((2, 5, 7)), 8), {"hop_length": 3, "window": _HANN}),
        ((T((8, 9)), 8), {"hop_length": 2, "onesided": False, "return_complex": True}),
        ((T((4, 9)), 6), {"hop_length": 2, "win_length": 5, "center": False, "length": 15,
                          "normalized": True})),
           dtypes=COMPLEX, tolerance=_PRECISE,
           call=Call(A("x", lambda env: pylayer.ones([5, 9], dtype="complex64"), "math_tensor"),
                     A("n_fft", _value(8), "size"), K("hop_length", _value(2), "size_or_none"),
                     K("length", _value(12), "size_or_none"),
                     K("return_complex", _value(False), None),
                     extra=[("the wrong number of frequencies", {"n_fft": _value(6)}, "x"),
                            ("return_complex with onesided",
                             {"return_complex": _value(True)}, ("onesided",))])),
]
