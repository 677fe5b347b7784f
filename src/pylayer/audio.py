"""Paddle's ``paddle.audio`` file functions: reading and writing 16-bit PCM WAV files,
as Paddle's default ``wave_backend`` does, with the standard library's ``wave``.

Paddle's feature extractors and datasets of this namespace are not part of pylayer.
"""
import io
import os
import wave

import numpy as np

from pylayer.extend import Tensor, check_int, describe, make_tensor, write_atomically

__all__ = ["load", "info", "save"]

_SCALE = 2 ** 15


class AudioInfo:
    """What :func:`info` reads from a WAV file's header."""

    def __init__(self, sample_rate, num_samples, num_channels, bits_per_sample, encoding):
        self.sample_rate = sample_rate
        self.num_samples = num_samples
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding

    def __repr__(self):
        return (f"AudioInfo(sample_rate={self.sample_rate}, num_samples={self.num_samples}, "
                f"num_channels={self.num_channels}, bits_per_sample={self.bits_per_sample}, "
                f"encoding={self.encoding!r})")


def _source(filepath, fn, readable_file):
    if isinstance(filepath, (str, os.PathLike)) or (readable_file and hasattr(filepath, "read")):
        return filepath
    expected = "a path or a binary file" if readable_file else "a path"
    raise TypeError(f"{fn}(): argument 'filepath' (position 1) must be {expected}, "
                    f"got {describe(filepath)}")


def _open(filepath, fn):
    try:
        reader = wave.open(os.fspath(filepath) if isinstance(filepath, os.PathLike) else filepath,
                           "rb")
    except (wave.Error, EOFError) as error:
        raise ValueError(f"{fn}(): {filepath!r} is not a WAV file pylayer can read "
                         f"(16-bit PCM): {error}") from None
    if reader.getsampwidth() != 2:
        bits = reader.getsampwidth() * 8
        reader.close()
        raise ValueError(f"{fn}(): {filepath!r} holds {bits}-bit samples; pylayer, as Paddle's "
                         f"wave backend, reads 16-bit PCM WAV only")
    return reader


def info(filepath):
    """The sample rate, length, channel count and encoding of a 16-bit PCM WAV file, as
    an ``AudioInfo`` (fields ``sample_rate``, ``num_samples``, ``num_channels``,
    ``bits_per_sample``, ``encoding``).

    >>> import os, tempfile, pylayer
    >>> path = os.path.join(tempfile.mkdtemp(), "tone.wav")
    >>> pylayer.audio.save(path, pylayer.zeros([2, 80]), 8000)
    >>> pylayer.audio.info(path)
    AudioInfo(sample_rate=8000, num_samples=80, num_channels=2, bits_per_sample=16, encoding='PCM_S')
    """
    with _open(_source(filepath, "info", True), "info") as reader:
        return AudioInfo(reader.getframerate(), reader.getnframes(), reader.getnchannels(),
                         16, "PCM_S")


def load(filepath, frame_offset=0, num_frames=-1, normalize=True, channels_first=True):
    """Read a 16-bit PCM WAV file: ``(waveform, sample_rate)``.

    ``waveform`` is float32, ``[channels, frames]`` (``[frames, channels]`` with
    ``channels_first=False``), scaled to [-1, 1) by ``2**15`` with ``normalize``, else
    the raw sample values; ``frame_offset`` frames are skipped and ``num_frames`` read
    (``-1``: to the end).

    >>> import os, tempfile, pylayer
    >>> path = os.path.join(tempfile.mkdtemp(), "tone.wav")
    >>> pylayer.audio.save(path, pylayer.to_tensor([[0.0, 0.5, -0.5, 0.25]]), 8000)
    >>> waveform, rate = pylayer.audio.load(path)
    >>> waveform.numpy(), rate
    (array([[ 0.  ,  0.5 , -0.5 ,  0.25]], dtype=float32), 8000)
    """
    fn = "load"
    source = _source(filepath, fn, False)
    check_int(frame_offset, fn, "frame_offset", minimum=0)
    check_int(num_frames, fn, "num_frames", minimum=-1)
    with _open(source, fn) as reader:
        total, channels = reader.getnframes(), reader.getnchannels()
        if frame_offset > total:
            raise ValueError(f"{fn}(): argument 'frame_offset' must be at most the file's "
                             f"{total} frames, got {frame_offset}")
        reader.setpos(frame_offset)
        wanted = total - frame_offset if num_frames == -1 else min(num_frames, total - frame_offset)
        samples = np.frombuffer(reader.readframes(wanted), "<i2").reshape(-1, channels)
        rate = reader.getframerate()
    waveform = samples.astype(np.float32)
    if normalize:
        waveform /= _SCALE
    if channels_first:
        waveform = np.ascontiguousarray(waveform.T)
    return make_tensor(waveform), rate


def save(filepath, src, sample_rate, channels_first=True, encoding=None, bits_per_sample=16):
    """Write ``src`` (2-D: ``[channels, frames]``, or ``[frames, channels]`` with
    ``channels_first=False``) as a 16-bit PCM WAV file, atomically.

    Float samples are scaled by ``2**15`` and clipped to the 16-bit range (Paddle wraps
    1.0 around to -1.0); integer samples are written as they are and must fit 16 bits.

    >>> import os, tempfile, pylayer
    >>> path = os.path.join(tempfile.mkdtemp(), "tone.wav")
    >>> pylayer.audio.save(path, pylayer.to_tensor([[0.0, 1.0]]), 16000)
    >>> pylayer.audio.load(path, normalize=False)[0].numpy()
    array([[    0., 32767.]], dtype=float32)
    """
    fn = "save"
    path = _source(filepath, fn, False)
    if not isinstance(src, Tensor):
        raise TypeError(f"{fn}(): argument 'src' (position 2) must be a Tensor, "
                        f"got {describe(src)}")
    if src.ndim != 2:
        raise ValueError(f"{fn}(): argument 'src' (position 2) must be 2-D "
                         f"([channels, frames] or [frames, channels]), got shape {src.shape}")
    if src.shape[0 if channels_first else 1] == 0:
        raise ValueError(f"{fn}(): argument 'src' (position 2) has no channels "
                         f"(shape {src.shape})")
    check_int(sample_rate, fn, "sample_rate", minimum=1)
    if encoding not in (None, "PCM_S", "PCM_16"):
        raise ValueError(f"{fn}(): argument 'encoding' must be None or 'PCM_S' (16-bit PCM, "
                         f"the one encoding Paddle's wave backend writes), got {encoding!r}")
    if bits_per_sample not in (None, 16):
        raise ValueError(f"{fn}(): argument 'bits_per_sample' must be 16 (or None), "
                         f"got {bits_per_sample!r}")
    samples = src.numpy()
    if channels_first:
        samples = samples.T
    if samples.dtype.kind == "f" or samples.dtype == "bfloat16":
        samples = np.clip(samples.astype(np.float64) * _SCALE, -_SCALE, _SCALE - 1)
    elif samples.dtype.kind in "iub":
        if samples.size and (samples.min() < -_SCALE or samples.max() >= _SCALE):
            raise ValueError(f"{fn}(): integer samples of 'src' must fit 16 bits, got values "
                             f"in [{samples.min()}, {samples.max()}]")
    else:
        raise TypeError(f"{fn}(): argument 'src' (position 2) must hold real samples, "
                        f"got {src.dtype}")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as writer:
        writer.setnchannels(samples.shape[1])
        writer.setsampwidth(2)
        writer.setframerate(sample_rate)
        writer.writeframes(np.ascontiguousarray(samples.astype("<i2")).tobytes())
    write_atomically(os.fspath(path), buffer.getvalue())
