"""The op database's entry of ``pylayer.text.viterbi_decode``.

The reference scores every tag sequence of each batch row by brute force (the
sizes are small), so it shares nothing with the op's dynamic programming; it adds
the transitions as Paddle 3.3.1 does (the start tag's row first, the stop tag's row
last) and scores a length-0 sequence as Paddle does (the start of its first step).
"""
import itertools

import numpy as np

import pylayer

from opinfo import FLOATS, OpInfo, T, samples
from _hostile_values import A, K, Call, _value


def _viterbi_ref(potentials, transitions, lengths, include_bos_eos_tag=True):
    batch, _, tags = potentials.shape
    longest = int(lengths.max()) if batch else 0
    start = transitions[-1] if include_bos_eos_tag else np.zeros(tags)
    stop = transitions[-2] if include_bos_eos_tag else np.zeros(tags)
    scores = np.zeros(batch, potentials.dtype)
    paths = np.zeros((batch, longest), np.int64)
    for b, n in enumerate(lengths):
        if n == 0:
            scores[b] = (potentials[b, 0] + start).max()
            continue
        best, best_path = -np.inf, None
        for path in itertools.product(range(tags), repeat=int(n)):
            score = start[path[0]] + stop[path[-1]] + sum(
                potentials[b, t, tag] for t, tag in enumerate(path)) + sum(
                transitions[a, c] for a, c in zip(path, path[1:]))
            if score > best:
                best, best_path = score, path
        scores[b] = best
        paths[b, :n] = best_path
    return [scores, paths]


_LENGTHS = np.array([4, 2, 1, 3])

ENTRIES = [
    OpInfo("text.viterbi_decode", _viterbi_ref,
           samples((T((4, 4, 3)), T((3, 3)), _LENGTHS),
                   (T((4, 4, 3)), T((3, 3)), _LENGTHS, False),
                   (T((2, 3, 4)), T((4, 4)), np.array([0, 2]), True),
                   (T((3, 2, 2)), T((2, 2)), np.array([2, 2, 1]).astype(np.int32), False)),
           dtypes=FLOATS, differentiable=False, static=False,
           tolerance={"float32": (1e-6, 1e-6)},
           call=Call(A("potentials", lambda env: pylayer.rand([2, 3, 3]), "float_tensor"),
                     A("transition_params", lambda env: pylayer.rand([3, 3]), "float_tensor"),
                     A("lengths", lambda env: pylayer.to_tensor([3, 1]), "int_tensor"),
                     K("include_bos_eos_tag", _value(True), None),
                     extra=[("a length beyond the sequence",
                             {"lengths": lambda env: pylayer.to_tensor([4, 1])}, "lengths"),
                            ("transitions of another size",
                             {"transition_params": lambda env: pylayer.rand([2, 2])},
                             "transition_params"),
                            ("2-D potentials",
                             {"potentials": lambda env: pylayer.rand([3, 3])}, "potentials"),
                            ("transitions of another dtype",
                             {"transition_params": lambda env: pylayer.rand([3, 3], "float64")},
                             "transition_params"),
                            ("a string flag",
                             {"include_bos_eos_tag": _value("yes")}, "include_bos_eos_tag")])),
]
