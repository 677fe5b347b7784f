"""``pylayer.audio``: 16-bit PCM WAV files as Paddle 3.3.1's wave backend reads and writes them.

``data/paddle_saved.wav`` was written by ``paddle.audio.save(path, x, 8000)`` (Paddle
3.3.1, CPU) with ``x = [[0.0, 0.5, -0.5, 0.75, -1.0, 0.25], [0.1, 0.2, 0.3, 0.4, 0.5,
0.6]]`` (float32); RAW is what ``paddle.audio.load(path, normalize=False)`` returned.
"""
import pathlib
import wave

import numpy as np
import pytest

import pylayer

PADDLE_SAVED = pathlib.Path(__file__).with_name("data") / "paddle_saved.wav"
RAW = [[0.0, 16384.0, -16384.0, 24576.0, -32768.0, 8192.0],
       [3276.0, 6553.0, 9830.0, 13107.0, 16384.0, 19660.0]]


def test_a_file_paddle_wrote_reads_as_paddle_reads_it():
    waveform, rate = pylayer.audio.load(PADDLE_SAVED, normalize=False)
    assert rate == 8000 and waveform.dtype == pylayer.float32
    np.testing.assert_array_equal(waveform.numpy(), RAW)
    part, _ = pylayer.audio.load(str(PADDLE_SAVED), frame_offset=1, num_frames=4,
                                 channels_first=False)
    np.testing.assert_array_equal(part.numpy(), np.array(RAW, np.float32)[:, 1:5].T / 2 ** 15)
    meta = pylayer.audio.info(PADDLE_SAVED)
    assert (meta.sample_rate, meta.num_samples, meta.num_channels, meta.bits_per_sample,
            meta.encoding) == (8000, 6, 2, 16, "PCM_S")


def test_saving_writes_paddles_bytes(tmp_path):
    x = pylayer.to_tensor(np.array(RAW, np.float32) / 2 ** 15)
    path = tmp_path / "mine.wav"
    pylayer.audio.save(str(path), x, 8000)
    assert path.read_bytes() == PADDLE_SAVED.read_bytes()
    pylayer.audio.save(tmp_path / "frames_first.wav", x.T, 8000, channels_first=False)
    assert (tmp_path / "frames_first.wav").read_bytes() == PADDLE_SAVED.read_bytes()


def test_full_scale_is_clipped_not_wrapped(tmp_path):
    # Paddle casts 1.0 * 2**15 to int16, which wraps to -32768: a full-scale peak
    # becomes its opposite. pylayer clips, as torchaudio does.
    path = tmp_path / "peak.wav"
    pylayer.audio.save(str(path), pylayer.to_tensor([[1.0, -1.0, 2.0]]), 8000)
    raw, _ = pylayer.audio.load(str(path), normalize=False)
    np.testing.assert_array_equal(raw.numpy(), [[32767, -32768, 32767]])


def test_float64_samples_are_scaled_too(tmp_path):
    path = tmp_path / "f64.wav"
    pylayer.audio.save(str(path), pylayer.to_tensor([[0.5]], dtype="float64"), 8000)
    assert pylayer.audio.load(str(path), normalize=False)[0].numpy().tolist() == [[16384.0]]


def test_other_encodings_are_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "x.wav"
    with pytest.raises(ValueError, match="save.*'bits_per_sample' must be 16"):
        pylayer.audio.save(str(path), pylayer.zeros([1, 4]), 8000, bits_per_sample=8)
    with pytest.raises(ValueError, match="save.*'encoding'"):
        pylayer.audio.save(str(path), pylayer.zeros([1, 4]), 8000, encoding="PCM_F")
    with pytest.raises(ValueError, match="save.*2-D"):
        pylayer.audio.save(str(path), pylayer.zeros([4]), 8000)
    assert not path.exists()


def test_a_file_that_is_not_16_bit_pcm_is_a_clear_error(tmp_path):
    path = tmp_path / "eight.wav"
    with wave.open(str(path), "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(1)
        writer.setframerate(8000)
        writer.writeframes(b"\x80\x80")
    with pytest.raises(ValueError, match="load.*8-bit samples"):
        pylayer.audio.load(str(path))
    (tmp_path / "text.wav").write_text("not a wav file")
    with pytest.raises(ValueError, match="info.*not a WAV file"):
        pylayer.audio.info(str(tmp_path / "text.wav"))
