"""pylayer.save / pylayer.load: Paddle's checkpoint format, and a loader that runs no code.

The files in Paddle's format are written here with plain ``pickle`` (what
``paddle.save`` writes, checked against Paddle 3.3.1: a state dict is a
dict of key -> numpy array plus a ``StructuredToParameterName@@`` table of
key -> tensor name; any other Tensor is the tuple ``(name, array)``), so
these tests need no Paddle.
"""
import io
import os
import pickle
from collections import OrderedDict

import numpy as np
import pytest

import pylayer
from pylayer import nn

NAME_TABLE = "StructuredToParameterName@@"


def mlp():
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))


def inputs():
    return pylayer.to_tensor(np.linspace(-1, 1, 15).reshape(5, 3).astype("float32"))


def trained(model, steps=3):
    opt = pylayer.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    for _ in range(steps):
        model(inputs()).sum().backward()
        opt.step()
        opt.clear_grad()
    return opt


# ------------------------------------------------------------ round trips
def test_a_saved_state_dict_restores_a_models_outputs_exactly(tmp_path):
    model = mlp()
    trained(model)
    path = tmp_path / "ckpt" / "model.pdparams"     # a missing directory is made
    pylayer.save(model.state_dict(), str(path))
    fresh = mlp()
    missing, unexpected = fresh.set_state_dict(pylayer.load(str(path)))
    assert missing == [] and unexpected == []
    np.testing.assert_array_equal(fresh(inputs()).numpy(), model(inputs()).numpy())


def test_the_state_dict_file_is_paddles_format(tmp_path):
    model = mlp()
    path = tmp_path / "m.pdparams"
    pylayer.save(model.state_dict(), path)
    with open(path, "rb") as f:
        raw = pickle.load(f)
    state = model.state_dict()
    assert type(raw) is dict and set(raw) == set(state) | {NAME_TABLE}
    assert raw[NAME_TABLE] == {k: v.name for k, v in state.items()}
    for key, value in state.items():
        assert type(raw[key]) is np.ndarray
        np.testing.assert_array_equal(raw[key], value.numpy())
    assert open(path, "rb").read(2) == b"\x80\x04"      # pickle protocol 4, as Paddle's


def test_a_paddle_state_dict_file_loads_into_a_model(tmp_path):
    rng = np.random.default_rng(0)
    arrays = {"0.weight": rng.standard_normal((3, 4)).astype("float32"),
              "0.bias": rng.standard_normal(4).astype("float32"),
              "2.weight": rng.standard_normal((4, 2)).astype("float32"),
              "2.bias": rng.standard_normal(2).astype("float32")}
    written = dict(arrays)
    written[NAME_TABLE] = {"0.weight": "linear_9.w_0", "0.bias": "linear_9.b_0",
                           "2.weight": "linear_10.w_0", "2.bias": "linear_10.b_0"}
    path = tmp_path / "paddle.pdparams"
    with open(path, "wb") as f:
        pickle.dump(written, f, protocol=4)
    loaded = pylayer.load(str(path))
    assert set(loaded) == set(arrays)
    assert loaded["0.weight"].name == "linear_9.w_0" and loaded["0.weight"].stop_gradient
    model = mlp()
    model.set_state_dict(loaded)
    x = inputs().numpy()
    expected = np.tanh(x @ arrays["0.weight"] + arrays["0.bias"]) @ arrays["2.weight"] \
        + arrays["2.bias"]
    np.testing.assert_allclose(model(inputs()).numpy(), expected, rtol=1e-6)
    kept = pylayer.load(str(path), keep_name_table=True)
    assert kept[NAME_TABLE] == written[NAME_TABLE]
    as_numpy = pylayer.load(str(path), return_numpy=True)
    assert type(as_numpy["2.bias"]) is np.ndarray


def test_an_optimizer_state_dict_round_trips_and_continues_training(tmp_path):
    model = mlp()
    opt = trained(model)
    pylayer.save(model.state_dict(), tmp_path / "m.pdparams")
    pylayer.save(opt.state_dict(), tmp_path / "m.pdopt")
    with open(tmp_path / "m.pdopt", "rb") as f:
        raw = pickle.load(f)
    weight = model[0].weight.name
    assert raw[f"{weight}_moment1_0"].shape == (3, 4)
    assert raw[f"{weight}_beta1_pow_acc_0"].shape == (1,)
    assert raw[NAME_TABLE][f"{weight}_moment1_0"] == f"{weight}_moment1_0"
    # A second process would rebuild the same names; here the restored model
    # keeps the original's parameters' names.
    restored = mlp()
    for mine, theirs in zip(restored.parameters(), model.parameters()):
        mine.name = theirs.name
    restored.set_state_dict(pylayer.load(tmp_path / "m.pdparams"))
    restored_opt = pylayer.optimizer.Adam(learning_rate=0.01, parameters=restored.parameters())
    restored_opt.set_state_dict(pylayer.load(tmp_path / "m.pdopt"))
    for net, optimizer in ((model, opt), (restored, restored_opt)):
        net(inputs()).sum().backward()
        optimizer.step()
    # The powers of beta are stored in the parameters' dtype (float32), as
    # Paddle stores them, so the next step agrees to float32 precision.
    np.testing.assert_allclose(restored(inputs()).numpy(), model(inputs()).numpy(), rtol=1e-5,
                               atol=1e-6)


def test_tensors_and_nested_containers_use_paddles_tuple_form():
    t = pylayer.to_tensor([1, 2])
    t.name = "counts"
    obj = [t, {"scale": pylayer.to_tensor(3.5), "n": 4, "tag": "x"}, (np.arange(2),)]
    buffer = io.BytesIO()
    pylayer.save(obj, buffer)
    raw = pickle.loads(buffer.getvalue())
    assert raw[0][0] == "counts" and raw[0][1].tolist() == [1, 2]
    assert raw[1]["n"] == 4 and raw[1]["tag"] == "x"
    buffer.seek(0)
    loaded = pylayer.load(buffer)
    assert loaded[0].name == "counts" and loaded[0].numpy().tolist() == [1, 2]
    assert loaded[1]["scale"].numpy() == np.float32(3.5) and loaded[1]["n"] == 4
    assert isinstance(loaded[2], tuple) and loaded[2][0].numpy().tolist() == [0, 1]


def test_a_single_tensor_written_by_paddle_loads_with_its_name():
    # paddle.save(tensor) pickles ``tuple((name, array))`` through builtins.tuple
    payload = pickle.dumps(_TupleOf(("w_0", np.ones((1, 2), "float32"))), protocol=4)
    loaded = pylayer.load(io.BytesIO(payload))
    assert isinstance(loaded, pylayer.Tensor) and loaded.name == "w_0"
    assert loaded.shape == [1, 2]


class _TupleOf:
    """Pickles as Paddle's tensors do: a call of ``tuple`` on ``(name, array)``."""

    def __init__(self, pair):
        self.pair = pair

    def __reduce__(self):
        return tuple, (self.pair,)


def test_an_ordered_state_dict_and_a_scheduler_entry_survive():
    state = OrderedDict([("w", pylayer.ones([2])), ("LR_Scheduler", {"last_epoch": 3})])
    buffer = io.BytesIO()
    pylayer.save(state, buffer)
    buffer.seek(0)
    loaded = pylayer.load(buffer)
    assert list(loaded) == ["w", "LR_Scheduler"] and loaded["LR_Scheduler"] == {"last_epoch": 3}


# ------------------------------------------------------- loading is safe
class _RunsCode:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (self.marker,)


def test_a_malicious_pickle_is_refused_without_running_it(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pdparams"
    with open(path, "wb") as f:
        pickle.dump({"w": np.ones(2), "x": _RunsCode(str(marker))}, f, protocol=4)
    with pytest.raises(pickle.UnpicklingError, match=r"load\(\).*(posix|os)\.mkdir"):
        pylayer.load(str(path))
    assert not marker.exists()


@pytest.mark.parametrize("payload, culprit", [
    (pickle.dumps(print), r"builtins\.print"),
    (pickle.dumps(nn.Linear), r"pylayer\.nn\.common\.Linear|Linear"),
    (b"cos\nsystem\n(S'echo hi'\ntR.", r"os\.system"),
])
def test_any_global_but_arrays_and_containers_is_refused(payload, culprit):
    with pytest.raises(pickle.UnpicklingError, match=rf"load\(\).*{culprit}.*never runs code"):
        pylayer.load(io.BytesIO(payload))


def test_object_arrays_are_refused():
    payload = pickle.dumps(np.array([1, "a"], dtype=object))
    with pytest.raises(pickle.UnpicklingError, match=r"load\(\).*numpy dtype 'O"):
        pylayer.load(io.BytesIO(payload))


# ----------------------------------------------------------- bad arguments
def test_save_refuses_what_the_format_cannot_hold(tmp_path):
    with pytest.raises(ValueError, match=r"save\(\).*'obj'.*Layer \(Linear\).*state_dict"):
        pylayer.save(nn.Linear(2, 2), tmp_path / "layer.pdparams")
    with pytest.raises(TypeError, match=r"save\(\).*'obj'.*function.*\[0\]\['f'\]"):
        pylayer.save([{"f": np.zeros}], tmp_path / "f.pd")
    with pytest.raises(ValueError, match=r"save\(\).*'protocol'"):
        pylayer.save(pylayer.ones([1]), tmp_path / "p.pd", protocol=5)
    with pytest.raises(ValueError, match=r"save\(\).*'path'.*got int"):
        pylayer.save(pylayer.ones([1]), 3)
    assert os.listdir(tmp_path) == []       # nothing written by a refused call


def test_load_names_a_missing_file():
    with pytest.raises(ValueError, match=r"load\(\).*'path'.*no file"):
        pylayer.load("/nonexistent/model.pdparams")
    with pytest.raises(TypeError, match=r"load\(\).*return_numpy"):
        pylayer.load(io.BytesIO(b""), model_filename="x")
