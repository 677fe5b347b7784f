"""The distributed checkpoint (save_state_dict / load_state_dict) in one process: the
layout of Paddle's directory, the unique ids, the errors. The 2-process save is in
mpi_checkpoint.py (test_mpi.py)."""
import os
import pickle

import numpy as np
import pytest

import pylayer
import pylayer.distributed as dist


def model(seed):
    pylayer.seed(seed)
    return pylayer.nn.Linear(3, 2)


def test_round_trip_of_a_nested_state_dict(tmp_path):
    saved = model(1)
    step = pylayer.to_tensor([7], dtype="int64")
    dist.save_state_dict({"model": saved.state_dict(), "step": step}, tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["0.metadata", "0_0.distcp"]   # Paddle's names
    with open(tmp_path / "0_0.distcp", "rb") as stream:
        assert sorted(pickle.load(stream)) == ["model.bias", "model.weight", "step"]
    fresh, count = model(2), pylayer.zeros([1], dtype="int64")
    dist.load_state_dict({"model": fresh.state_dict(), "step": count}, tmp_path)
    np.testing.assert_array_equal(fresh.weight.numpy(), saved.weight.numpy())
    assert count.item() == 7


def test_a_save_without_id_replaces_the_latest_as_paddle_does(tmp_path):
    layer = model(1)
    dist.save_state_dict(layer.state_dict(), tmp_path)
    layer.weight.set_value(pylayer.full([3, 2], 5.0))
    dist.save_state_dict(layer.state_dict(), tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["0.metadata", "0_0.distcp"]
    dist.save_state_dict({"weight": pylayer.full([3, 2], 9.0)}, tmp_path, unique_id=3)
    target = {"weight": pylayer.zeros([3, 2])}
    dist.load_state_dict(target, tmp_path)                  # the highest id: 3
    assert target["weight"].numpy().max() == 9.0
    dist.load_state_dict(target, tmp_path, unique_id=0)
    assert target["weight"].numpy().max() == 5.0


def test_loading_casts_into_the_tensors_dtype_and_leaves_extra_keys(tmp_path):
    dist.save_state_dict({"w": pylayer.to_tensor([1.5, 2.5]), "other": pylayer.ones([1])},
                         tmp_path)
    target = {"w": pylayer.zeros([2], dtype="float64")}
    dist.load_state_dict(target, tmp_path)
    assert target["w"].dtype == pylayer.float64 and target["w"].numpy().tolist() == [1.5, 2.5]


def test_errors(tmp_path):
    dist.save_state_dict({"w": pylayer.ones([2, 3])}, tmp_path)
    with pytest.raises(KeyError, match=r"\['nope'\] are not in the checkpoint"):
        dist.load_state_dict({"nope": pylayer.zeros([1])}, tmp_path)
    with pytest.raises(ValueError, match=r"'w' has the shape \[3, 2\].*\[2, 3\] in the checkpoint"):
        dist.load_state_dict({"w": pylayer.zeros([3, 2])}, tmp_path)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        dist.load_state_dict({"w": pylayer.zeros([2, 3])}, tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="no checkpoint of unique_id 4"):
        dist.load_state_dict({"w": pylayer.zeros([2, 3])}, tmp_path, unique_id=4)
    with pytest.raises(TypeError, match=r"save_state_dict\(\): argument 'state_dict' holds a int"):
        dist.save_state_dict({"w": 3}, tmp_path)
    with pytest.raises(ValueError, match="argument 'safetensors' must be False"):
        dist.save_state_dict({"w": pylayer.ones([1])}, tmp_path, safetensors=True)
    with pytest.raises(ValueError, match="argument 'unique_id'"):
        dist.save_state_dict({"w": pylayer.ones([1])}, tmp_path, unique_id=-1)
    with pytest.raises(ValueError, match="'aoa_config'"):
        dist.load_state_dict({"w": pylayer.zeros([2, 3])}, tmp_path, aoa_config={"a": ["b"]})
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "0.metadata").write_bytes(pickle.dumps({"something": 1}))
    with pytest.raises(ValueError, match="not a pylayer checkpoint"):
        dist.load_state_dict({"w": pylayer.zeros([2, 3])}, tmp_path / "other")
    assert os.listdir(tmp_path / "other") == ["0.metadata"]


def test_a_failed_save_leaves_the_checkpoint_as_it_was(tmp_path, monkeypatch):
    import pylayer.distributed.checkpoint as checkpoint
    dist.save_state_dict({"w": pylayer.ones([2])}, tmp_path)
    before = {p: (tmp_path / p).read_bytes() for p in os.listdir(tmp_path)}

    def failing(data, protocol=None):
        raise OSError("disk full")
    monkeypatch.setattr(checkpoint.pickle, "dumps", failing)
    with pytest.raises(OSError, match="disk full"):
        dist.save_state_dict({"w": pylayer.zeros([2])}, tmp_path)
    assert {p: (tmp_path / p).read_bytes() for p in os.listdir(tmp_path)} == before
