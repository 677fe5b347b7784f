"""Paddle's ``paddle.text``: Viterbi decoding of a linear-chain CRF's emissions.

Paddle's corpus downloaders of this namespace (``Imdb``, ``WMT14``, ...) are not
part of pylayer; the coverage data says why.
"""
from pylayer.extend import float_tensor
from pylayer.nn import Layer
from pylayer.ops.viterbi import viterbi_decode

__all__ = ["viterbi_decode", "ViterbiDecoder"]


class ViterbiDecoder(Layer):
    """A layer that decodes with fixed transitions: ``decoder(potentials, lengths)`` is
    :func:`viterbi_decode` ``(potentials, transitions, lengths, include_bos_eos_tag)``.
    ``transitions`` is kept as given (not a parameter), as in Paddle.

    >>> import pylayer
    >>> decoder = pylayer.text.ViterbiDecoder(pylayer.to_tensor([[0.0, 1.0], [1.0, 0.0]]),
    ...                                       include_bos_eos_tag=False)
    >>> scores, path = decoder(pylayer.to_tensor([[[1.0, 0.0], [0.0, 2.0]]]),
    ...                        pylayer.to_tensor([2]))
    >>> path.numpy()
    array([[0, 1]])
    """

    def __init__(self, transitions, include_bos_eos_tag=True, name=None):
        super().__init__()
        transitions = float_tensor(transitions, "ViterbiDecoder", "transitions", 1)
        if transitions.ndim != 2 or transitions.shape[0] != transitions.shape[1]:
            raise ValueError(f"ViterbiDecoder(): argument 'transitions' (position 1) must be a "
                             f"square [num_tags, num_tags] tensor, got shape {transitions.shape}")
        if not isinstance(include_bos_eos_tag, bool):
            raise TypeError(f"ViterbiDecoder(): argument 'include_bos_eos_tag' (position 2) "
                            f"must be a bool, got {type(include_bos_eos_tag).__name__}")
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials, lengths):
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag,
                              self.name)
