"""``pylayer.text``: Viterbi decoding against values recorded from Paddle 3.3.1.

PADDLE holds what ``paddle.text.viterbi_decode`` returned (CPU build) for the
emissions and transitions below, drawn with ``numpy.random.default_rng(0)``: scores,
then paths. They pin down Paddle's conventions the documentation leaves open: the stop
tag's row (not column) of the transitions scores the last step, a path is as long as
the longest sequence and zero past each sequence's end, and a sequence of length 0
scores the start of its first step.
"""
import numpy as np
import pytest

import pylayer

RNG = np.random.default_rng(0)
POTENTIALS = RNG.standard_normal((3, 5, 4)).astype("float32")
TRANSITIONS = RNG.standard_normal((4, 4)).astype("float32")

PADDLE = {
    ((5, 3, 1), True): ([7.884057998657227, 3.4754178524017334, 3.2199156284332275],
                        [[0, 2, 3, 2, 3], [2, 0, 2, 0, 0], [2, 0, 0, 0, 0]]),
    ((5, 3, 1), False): ([6.258223533630371, 3.328652858734131, 1.5139237642288208],
                         [[3, 2, 3, 2, 3], [1, 0, 2, 0, 0], [1, 0, 0, 0, 0]]),
    ((2, 3, 1), True): ([4.7768874168396, 3.4754178524017334, 3.2199156284332275],
                        [[2, 3, 0], [2, 0, 2], [2, 0, 0]]),
    ((2, 3, 1), False): ([3.2309114933013916, 3.328652858734131, 1.5139237642288208],
                         [[3, 2, 0], [1, 0, 2], [1, 0, 0]]),
    ((0, 2, 1), True): ([2.4624340534210205, 3.3269920349121094, 3.2199156284332275],
                        [[0, 0], [2, 0], [2, 0]]),
    ((0, 2, 1), False): ([0.6404226422309875, 2.598903179168701, 1.5139237642288208],
                         [[0, 0], [1, 0], [1, 0]]),
}


@pytest.mark.parametrize("lengths, bos_eos", sorted(PADDLE))
def test_viterbi_decode_gives_paddles_scores_and_paths(lengths, bos_eos):
    scores, paths = pylayer.text.viterbi_decode(
        pylayer.to_tensor(POTENTIALS), pylayer.to_tensor(TRANSITIONS),
        pylayer.to_tensor(np.array(lengths, "int64")), bos_eos)
    expected_scores, expected_paths = PADDLE[lengths, bos_eos]
    assert scores.dtype == pylayer.float32 and paths.dtype == pylayer.int64
    np.testing.assert_allclose(scores.numpy(), expected_scores, rtol=1e-6)
    np.testing.assert_array_equal(paths.numpy(), expected_paths)


def test_the_decoder_layer_is_the_function_with_fixed_transitions():
    transitions = pylayer.to_tensor(TRANSITIONS)
    decoder = pylayer.text.ViterbiDecoder(transitions, include_bos_eos_tag=False)
    assert decoder.transitions is transitions and decoder.state_dict() == {}
    assert repr(decoder) == "ViterbiDecoder()"
    scores, paths = decoder(pylayer.to_tensor(POTENTIALS), pylayer.to_tensor([5, 3, 1]))
    np.testing.assert_allclose(scores.numpy(), PADDLE[(5, 3, 1), False][0], rtol=1e-6)
    np.testing.assert_array_equal(paths.numpy(), PADDLE[(5, 3, 1), False][1])


def test_decoding_takes_no_gradient():
    potentials = pylayer.to_tensor(POTENTIALS, stop_gradient=False)
    scores, paths = pylayer.text.viterbi_decode(potentials, pylayer.to_tensor(TRANSITIONS),
                                                pylayer.to_tensor([5, 3, 1]))
    assert scores.stop_gradient and paths.stop_gradient


def test_lengths_beyond_the_sequence_are_refused():
    with pytest.raises(ValueError, match="viterbi_decode.*'lengths'.*must lie in"):
        pylayer.text.viterbi_decode(pylayer.to_tensor(POTENTIALS),
                                    pylayer.to_tensor(TRANSITIONS), pylayer.to_tensor([7, 2, 1]))
