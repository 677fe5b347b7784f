"""Viterbi decoding of a linear-chain CRF's emissions (``pylayer.text``).

The best path through ``num_tags`` states is found one time step at a time for the
whole batch: ``alpha`` holds the best score ending in each tag, and each step keeps
the argmax of ``alpha + transitions`` as its back-pointer. With
``include_bos_eos_tag`` the last tag is the start tag, whose row of ``transitions``
is added before the first step, and the second-to-last the stop tag, whose row is
added after a sequence's last step (Paddle 3.3.1 adds the stop tag's row, not its
column, so that is what this does). No gradient, as in Paddle.
"""
import numpy as np

from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import describe
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops.dispatch import op

__all__ = []


def _checked(potentials, transition_params, lengths, fn):
    potentials = as_tensor_arg(potentials, fn, "potentials", 1)
    transition_params = as_tensor_arg(transition_params, fn, "transition_params", 2)
    lengths = as_tensor_arg(lengths, fn, "lengths", 3)
    emission, transitions, counts = (potentials.numpy(), transition_params.numpy(),
                                     lengths.numpy())
    if emission.dtype not in (np.float32, np.float64):
        raise TypeError(f"{fn}(): argument 'potentials' (position 1) must be float32 or "
                        f"float64, got {potentials.dtype}")
    if transitions.dtype != emission.dtype:
        raise TypeError(f"{fn}(): argument 'transition_params' (position 2) must have the "
                        f"dtype of 'potentials' ({potentials.dtype}), got "
                        f"{transition_params.dtype}")
    if counts.dtype.kind != "i":
        raise TypeError(f"{fn}(): argument 'lengths' (position 3) must be an integer tensor, "
                        f"got {lengths.dtype}")
    if emission.ndim != 3:
        raise ValueError(f"{fn}(): argument 'potentials' (position 1) must be 3-D "
                         f"[batch_size, sequence_length, num_tags], got shape {list(emission.shape)}")
    batch, steps, tags = emission.shape
    if transitions.shape != (tags, tags):
        raise ValueError(f"{fn}(): argument 'transition_params' (position 2) must have shape "
                         f"[{tags}, {tags}] (num_tags of 'potentials'), got "
                         f"{list(transitions.shape)}")
    if counts.shape != (batch,):
        raise ValueError(f"{fn}(): argument 'lengths' (position 3) must have shape [{batch}] "
                         f"(one length per sequence), got {list(counts.shape)}")
    if counts.size and (counts.min() < 0 or counts.max() > steps):
        raise ValueError(f"{fn}(): argument 'lengths' (position 3) must lie in [0, {steps}] "
                         f"(the sequence_length of 'potentials'), got {counts.tolist()}")
    return emission, transitions, counts.astype(np.int64)


@op
def viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True,
                   name=None):
    """The highest-scoring tag sequence of each sequence in a batch, and its score.

    ``potentials`` holds the emission scores, ``[batch_size, sequence_length,
    num_tags]`` (float32 or float64); ``transition_params[i, j]`` scores tag ``j``
    following tag ``i``; ``lengths`` (integers) gives each sequence's length. With
    ``include_bos_eos_tag`` the last tag is the start tag and the second-to-last the
    stop tag (their rows of ``transition_params`` score the first and the last step).
    Returns ``(scores, paths)``: ``scores`` ``[batch_size]`` in the dtype of
    ``potentials``, ``paths`` int64 ``[batch_size, max(lengths)]``, zero past each
    sequence's end. No gradient.

    >>> import pylayer
    >>> emission = pylayer.to_tensor([[[1.0, 0.0], [0.0, 2.0], [3.0, 0.0]]])
    >>> transition = pylayer.to_tensor([[0.0, 1.0], [1.0, 0.0]])
    >>> scores, path = pylayer.text.viterbi_decode(emission, transition,
    ...                                            pylayer.to_tensor([3]), False)
    >>> scores.numpy(), path.numpy()
    (array([8.], dtype=float32), array([[0, 1, 0]]))
    """
    fn = "viterbi_decode"
    emission, transitions, counts = _checked(potentials, transition_params, lengths, fn)
    if not isinstance(include_bos_eos_tag, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument 'include_bos_eos_tag' (position 4) must be a bool, "
                        f"got {describe(include_bos_eos_tag)}")
    batch, steps, tags = emission.shape
    if include_bos_eos_tag and tags < 2:
        raise ValueError(f"{fn}(): with include_bos_eos_tag there must be at least 2 tags "
                         f"(start and stop), got {tags}")
    longest = int(counts.max()) if batch else 0
    start = transitions[-1] if include_bos_eos_tag else 0
    stop = transitions[-2] if include_bos_eos_tag else 0
    # A sequence of length 0 scores, as in Paddle, the start of its first step.
    first = emission[:, 0] + start if steps else np.zeros((batch, tags), emission.dtype)
    alpha, final = first, np.where((counts == 0)[:, None], first, first + stop)
    pointers = np.zeros((max(longest - 1, 0), batch, tags), np.int64)
    for t in range(1, longest):
        candidates = alpha[:, :, None] + transitions
        pointers[t - 1] = candidates.argmax(axis=1)
        alpha = candidates.max(axis=1) + emission[:, t]
        final = np.where((t == counts - 1)[:, None], alpha + stop, final)
    scores = final.max(axis=1) if tags else np.zeros(batch, emission.dtype)
    best = final.argmax(axis=1) if tags else np.zeros(batch, np.int64)
    rows = np.arange(batch)
    paths = np.zeros((batch, longest), np.int64)
    for t in range(longest - 1, -1, -1):
        previous = pointers[t][rows, paths[:, t + 1]] if t + 1 < longest else best
        paths[:, t] = np.where(t < counts, np.where(t == counts - 1, best, previous), 0)
    return make_tensor(scores.astype(emission.dtype)), make_tensor(paths)
