"""``pylayer.MmapStorage`` (Paddle's ``paddle.MmapStorage``).

Paddle 3.3.1's example (a [4, 5] float32 ``tofile`` dump read back whole with
``get_slice(dtype, 0, a.size)``) gives the array back; there its ``start`` and
``stop`` agree with element indices. Past that Paddle takes ``start`` as a byte
offset and can read beyond the mapping; pylayer counts elements throughout.
"""
import numpy as np
import pytest

import pylayer


@pytest.fixture
def dump(tmp_path):
    path = tmp_path / "test.pp"
    np.arange(20, dtype="float32").reshape(4, 5).tofile(path)
    return path


def test_paddles_example_reads_the_array_back(dump):
    storage = pylayer.MmapStorage(str(dump), 80)
    whole = storage.get_slice(dtype=pylayer.float32, start=0, stop=20).reshape([4, 5])
    np.testing.assert_array_equal(whole.numpy(), np.arange(20, dtype="float32").reshape(4, 5))


def test_slices_count_elements_of_the_dtype(dump):
    storage = pylayer.MmapStorage(dump, 80)
    np.testing.assert_array_equal(storage.get_slice("float32", 5, 10).numpy(),
                                  np.arange(5, 10, dtype="float32"))
    np.testing.assert_array_equal(storage.get_slice("float32", 1, -1, 6).numpy(), [1, 7, 13, 19])
    assert storage.get_slice().shape == [80] and storage.get_slice().dtype == pylayer.uint8
    part = pylayer.MmapStorage(dump, 8).get_slice("float32")
    np.testing.assert_array_equal(part.numpy(), [0, 1])


def test_the_slice_is_a_copy_that_outlives_the_file(dump):
    part = pylayer.MmapStorage(dump, 80).get_slice("float32", 0, 2)
    np.zeros(20, "float32").tofile(dump)
    np.testing.assert_array_equal(part.numpy(), [0, 1])
    part[0] = 5.0          # writable, as any Tensor
    assert part.numpy()[0] == 5.0


def test_reading_beyond_the_mapping_is_refused(dump):
    storage = pylayer.MmapStorage(dump, 80)
    with pytest.raises(ValueError, match="get_slice.*'stop' is 21, beyond the 20"):
        storage.get_slice("float32", 10, 21)
    with pytest.raises(ValueError, match="MmapStorage.*'nbytes'.*holds 80 bytes"):
        pylayer.MmapStorage(dump, 81)
    with pytest.raises(TypeError, match="MmapStorage.*'filename'"):
        pylayer.MmapStorage(3, 8)
