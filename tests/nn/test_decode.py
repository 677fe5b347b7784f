"""``nn.BeamSearchDecoder``, ``nn.dynamic_decode``, the ``Decoder`` protocol
(``pylayer.nn.decode``) and ``nn.functional.class_center_sample``.

``data/decode_gru.*`` and ``data/decode_lstm.*`` were made with Paddle 3.3.1 (CPU) by::

    paddle.seed(7); np.random.seed(7)
    V, E, H, B, K = 7, 4, 5, 2, 3
    class Model(paddle.nn.Layer):          # embedding, cell, output
        def __init__(self, kind):
            super().__init__()
            self.embedding = Embedding(V, E)
            self.cell = GRUCell(E, H) if kind == "gru" else LSTMCell(E, H)
            self.output = Linear(H, V)
    for kind in ("gru", "lstm"):
        m = Model(kind)
        for p in m.parameters():
            p.set_value((np.random.randn(*p.shape) * 1.5).astype("float32"))
        h0 = np.random.randn(B, H).astype("float32")
        c0 = np.random.randn(B, H).astype("float32")
        dec = BeamSearchDecoder(m.cell, start_token=0, end_token=1, beam_size=K,
                                embedding_fn=m.embedding, output_fn=m.output)
        inits = (paddle.to_tensor(h0) if kind == "gru"
                 else [paddle.to_tensor(h0), paddle.to_tensor(c0)])
        ids, states, lengths = dynamic_decode(dec, inits=inits, max_step_num=6,
                                              return_length=True)
        paddle.save(m.state_dict(), f"decode_{kind}.pdparams")
        cs = [states.cell_states] if kind == "gru" else states.cell_states
        np.savez(f"decode_{kind}.npz", h0=h0, c0=c0, ids=ids.numpy(),
                 log_probs=states.log_probs.numpy(), finished=states.finished.numpy(),
                 lengths=lengths.numpy(), state_lengths=states.lengths.numpy(),
                 cell_states=np.stack([c.numpy() for c in cs]))
"""
import pathlib
import warnings

import numpy as np
import pytest

import pylayer
from pylayer import nn
from pylayer.nn import functional as F
from pylayer.nn.decode import Decoder

DATA = pathlib.Path(__file__).parent / "data"
V, E, H, B, K = 7, 4, 5, 2, 3


class _Model(nn.Layer):
    def __init__(self, kind):
        super().__init__()
        self.embedding = nn.Embedding(V, E)
        self.cell = nn.GRUCell(E, H) if kind == "gru" else nn.LSTMCell(E, H)
        self.output = nn.Linear(H, V)


def _paddle_case(kind):
    model = _Model(kind)
    model.set_state_dict(pylayer.load(str(DATA / f"decode_{kind}.pdparams")))
    ref = np.load(DATA / f"decode_{kind}.npz")
    decoder = nn.BeamSearchDecoder(model.cell, start_token=0, end_token=1, beam_size=K,
                                   embedding_fn=model.embedding, output_fn=model.output)
    h0 = pylayer.to_tensor(ref["h0"])
    inits = h0 if kind == "gru" else [h0, pylayer.to_tensor(ref["c0"])]
    return model, decoder, inits, ref


@pytest.mark.parametrize("kind", ["gru", "lstm"])
def test_beam_search_gives_paddles_ids_scores_and_lengths(kind):
    _, decoder, inits, ref = _paddle_case(kind)
    ids, states, lengths = nn.dynamic_decode(decoder, inits=inits, max_step_num=6,
                                             return_length=True)
    assert isinstance(states, nn.BeamSearchDecoder.StateWrapper)
    assert (ids.dtype, lengths.dtype, states.log_probs.dtype) == (
        pylayer.int64, pylayer.int64, pylayer.float32)
    np.testing.assert_array_equal(ids.numpy(), ref["ids"])
    np.testing.assert_allclose(states.log_probs.numpy(), ref["log_probs"], rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_array_equal(lengths.numpy(), ref["lengths"])
    np.testing.assert_array_equal(states.lengths.numpy(), ref["state_lengths"])
    np.testing.assert_array_equal(states.finished.numpy(), ref["finished"])
    cells = [states.cell_states] if kind == "gru" else states.cell_states
    np.testing.assert_allclose(np.stack([c.numpy() for c in cells]), ref["cell_states"],
                               rtol=1e-5, atol=1e-5)


def test_max_step_num_allows_one_step_more_and_time_major_layout():
    # Paddle stops after step max_step_num: max_step_num=6 gave 7 steps above.
    _, decoder, inits, ref = _paddle_case("gru")
    ids, states = nn.dynamic_decode(decoder, inits, max_step_num=2, output_time_major=True)
    assert ids.shape == [3, B, K]
    outputs = nn.dynamic_decode(decoder, inits, max_step_num=0)
    assert len(outputs) == 2 and outputs[0].shape == [B, 1, K]


def test_scores_carry_gradients_to_the_weights():
    model, decoder, inits, _ = _paddle_case("lstm")
    _, states = nn.dynamic_decode(decoder, inits, max_step_num=2)
    states.log_probs[:, 0].sum().backward()
    for param in (model.cell.weight_hh, model.output.weight, model.embedding.weight):
        assert param.grad is not None and np.abs(param.grad.numpy()).sum() > 0


def test_tile_beam_merge_with_batch_repeats_each_entry_in_a_row():
    x = pylayer.to_tensor(np.arange(12.0).reshape(2, 3, 2))
    tiled = nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 3)
    np.testing.assert_array_equal(tiled.numpy(), np.repeat(x.numpy(), 3, axis=0))
    assert nn.BeamSearchDecoder.tile_beam_merge_with_batch(
        pylayer.to_tensor([[1, 2], [3, 4]]), 2).tolist() == [[1, 2], [1, 2], [3, 4], [3, 4]]


def test_initialize_tiles_states_and_starts_one_beam():
    decoder = nn.BeamSearchDecoder(nn.GRUCell(3, 4), start_token=2, end_token=1, beam_size=3)
    h = pylayer.to_tensor(np.arange(8.0, dtype="float32").reshape(2, 4))
    inputs, states, finished = decoder.initialize(h)
    assert inputs.tolist() == [[2, 2, 2], [2, 2, 2]] and inputs.dtype == pylayer.int64
    assert states.cell_states.shape == [2, 3, 4]
    np.testing.assert_array_equal(states.cell_states.numpy()[:, 1], h.numpy())
    assert states.log_probs.tolist() == [[0.0, -1e9, -1e9]] * 2
    assert not finished.numpy().any() and states.lengths.tolist() == [[0, 0, 0]] * 2


def test_default_float64_gives_float64_scores():
    pylayer.set_default_dtype("float64")
    try:
        cell = nn.GRUCell(3, 4)
        decoder = nn.BeamSearchDecoder(cell, 0, 1, 2, nn.Embedding(5, 3), nn.Linear(4, 5))
        ids, states = nn.dynamic_decode(decoder, cell.get_initial_states(pylayer.ones([2, 3])),
                                        max_step_num=2)
    finally:
        pylayer.set_default_dtype("float32")
    assert ids.dtype == pylayer.int64 and states.log_probs.dtype == pylayer.float64


def test_tracks_own_finished():
    assert Decoder().tracks_own_finished is False
    assert nn.BeamSearchDecoder(nn.GRUCell(2, 3), 0, 1, 2).tracks_own_finished is True


def test_the_base_decoder_raises_not_implemented():
    for call in (lambda d: d.initialize(None), lambda d: d.step(None, None, None),
                 lambda d: d.finalize(None, None, None)):
        with pytest.raises(NotImplementedError):
            call(Decoder())


class _Count(Decoder):
    """Entry i finishes at step i + 1; its state counts the steps."""

    def initialize(self, inits):
        return pylayer.zeros([3, 1]), pylayer.zeros([3, 1]), pylayer.to_tensor([False] * 3)

    def step(self, time, inputs, states, scale=10.0):
        states = states + 1
        finished = states[:, 0] >= pylayer.to_tensor([1.0, 2.0, 3.0])
        return states * scale, states, inputs, finished


def test_a_decoder_without_finalize_returns_the_stacked_outputs():
    outputs, states, lengths = nn.dynamic_decode(_Count(), return_length=True)
    assert outputs.shape == [3, 3, 1]
    assert outputs.numpy()[:, :, 0].tolist() == [[10.0, 20.0, 30.0]] * 3
    assert states.numpy()[:, 0].tolist() == [3.0, 3.0, 3.0]
    # the step that finishes an entry counts: Paddle's static graph gives [1, 2, 3]
    # (its dynamic mode gives [0, 1, 2], reading the finished flags after an in-place update)
    assert lengths.tolist() == [1, 2, 3]


def test_impute_finished_keeps_the_states_of_finished_entries():
    outputs, states = nn.dynamic_decode(_Count(), impute_finished=True)
    assert states.numpy()[:, 0].tolist() == [1.0, 2.0, 3.0]
    assert outputs.numpy()[:, :, 0].tolist() == [[10.0, 20.0, 20.0], [10.0, 20.0, 30.0],
                                                 [10.0, 20.0, 30.0]]


def test_keyword_arguments_reach_step():
    outputs, _ = nn.dynamic_decode(_Count(), max_step_num=0, scale=2.0)
    assert outputs.numpy()[:, 0, 0].tolist() == [2.0, 2.0, 2.0]


def test_a_decoder_tracking_its_own_finished_without_lengths_warns():
    class Own(_Count):
        tracks_own_finished = True

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, _, lengths = nn.dynamic_decode(Own(), return_length=True)
    assert any("lengths" in str(w.message) for w in caught)
    assert lengths.tolist() == [0, 0, 0]


def test_bad_arguments_are_refused():
    cell = nn.GRUCell(2, 3)
    with pytest.raises(ValueError, match="beam_size"):
        nn.BeamSearchDecoder(cell, 0, 1, 0)
    with pytest.raises(TypeError, match="cell"):
        nn.BeamSearchDecoder("gru", 0, 1, 2)
    with pytest.raises(TypeError, match="decoder"):
        nn.dynamic_decode(cell)
    with pytest.raises(ValueError, match="max_step_num"):
        nn.dynamic_decode(_Count(), max_step_num=-1)
    decoder = nn.BeamSearchDecoder(cell, 0, 5, 2, embedding_fn=nn.Embedding(4, 2),
                                   output_fn=nn.Linear(3, 4))
    with pytest.raises(ValueError, match="end_token"):   # Paddle: an IndexError deep inside
        nn.dynamic_decode(decoder, cell.get_initial_states(pylayer.ones([2, 2])))


# ------------------------------------------------------------- class_center_sample
def test_class_center_sample_keeps_positives_then_draws_distinct_negatives():
    label = pylayer.to_tensor([9, 3, 3, 7])
    pylayer.seed(1)
    remapped, centers = F.class_center_sample(label, 12, 8)
    c = centers.tolist()
    assert remapped.tolist() == [2, 0, 0, 1] and c[:3] == [3, 7, 9]
    assert len(c) == 8 and len(set(c)) == 8 and not {3, 7, 9} & set(c[3:])
    assert all(0 <= v < 12 for v in c) and centers.dtype == pylayer.int64
    pylayer.seed(1)
    assert F.class_center_sample(label, 12, 8)[1].tolist() == c
    everything = F.class_center_sample(label.astype("int32"), 12, 12)[1]
    assert sorted(everything.tolist()) == list(range(12)) and everything.dtype == pylayer.int32


def test_class_center_sample_keeps_every_positive_beyond_num_samples():
    remapped, centers = F.class_center_sample(pylayer.to_tensor([9, 3, 3, 7]), 12, 2)
    assert (remapped.tolist(), centers.tolist()) == ([2, 0, 0, 1], [3, 7, 9])
    assert remapped.stop_gradient and centers.stop_gradient


@pytest.mark.parametrize("label,num_classes,num_samples,error,match", [
    ([9, 3], 12, 13, ValueError, "num_samples"),
    ([[9, 3]], 12, 3, ValueError, "label"),
    (np.zeros(0, "int64"), 12, 3, ValueError, "label"),
    ([9, 3], 12, 0, ValueError, "num_samples"),
    ([9, 3], 0, 0, ValueError, "num_classes"),
    ([9.0, 3.0], 12, 3, TypeError, "label"),
    ([9, 3], 12.0, 3, TypeError, "num_classes"),
    ([13, 3], 12, 3, ValueError, "label"),   # Paddle returns the class 13 unchecked
])
def test_class_center_sample_refusals(label, num_classes, num_samples, error, match):
    with pytest.raises(error, match=match):
        F.class_center_sample(pylayer.to_tensor(label), num_classes, num_samples)


def test_class_center_sample_group_is_one_process_only():
    label = pylayer.to_tensor([1, 2])
    assert F.class_center_sample(label, 4, 2, group=False)[1].tolist() == [1, 2]
    with pytest.raises(ValueError, match="group"):
        F.class_center_sample(label, 4, 2, group=1)


def test_class_center_sample_draws_from_a_huge_class_range_without_listing_it():
    pylayer.seed(0)
    remapped, centers = F.class_center_sample(pylayer.to_tensor([5, 2 ** 40]), 2 ** 50, 6)
    c = centers.tolist()
    assert c[:2] == [5, 2 ** 40] and len(set(c)) == 6 and max(c) < 2 ** 50
    assert remapped.tolist() == [0, 1]


def test_reprs_show_the_settings():
    assert repr(Decoder()) == "Decoder()"
    decoder = nn.BeamSearchDecoder(nn.GRUCell(3, 4), 0, 1, 2)
    assert repr(decoder) == ("BeamSearchDecoder(cell=GRUCell(3, 4), start_token=0, end_token=1, "
                             "beam_size=2, embedding_fn=None, output_fn=None)")


def test_training_on_the_best_beam_score_raises_it():
    model, decoder, inits, _ = _paddle_case("gru")
    opt = pylayer.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    losses = []
    for _ in range(5):
        _, states = nn.dynamic_decode(decoder, inits, max_step_num=3)
        loss = -states.log_probs[:, 0].mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    assert losses[-1] < losses[0]
