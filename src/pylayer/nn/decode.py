"""Decoding loops: the ``Decoder`` protocol, ``BeamSearchDecoder`` (beam search around a
recurrent cell) and ``dynamic_decode``, which runs a decoder step by step until every
sequence has finished.

A decoder's states and outputs may be tensors or nested lists, tuples, named tuples and
dicts of tensors; the loop maps over them leaf by leaf. Everything is composed of
recorded ops, so scores keep their gradient to the cell's weights.
"""
import warnings
from typing import NamedTuple

import numpy as np

from pylayer.extend import (Tensor, check_callable, check_int, get_default_dtype,
                            public_settings_repr, settings_repr)
from pylayer.nn import functional as F
from pylayer.ops.arithmetic import add, floor_divide, remainder
from pylayer.ops.compare import equal, logical_not, logical_or
from pylayer.ops.creation import arange, full, to_tensor, zeros_like
from pylayer.ops.manipulation import stack, tile
from pylayer.ops.math import where
from pylayer.ops.reduction import all as reduce_all
from pylayer.ops.scatter import gather_nd
from pylayer.ops.search import topk
from pylayer.ops.shape import cast, reshape, transpose, unsqueeze

__all__ = ["Decoder", "BeamSearchDecoder", "dynamic_decode"]

_KINF = 1e9


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def _map_structure(fn, *structures):
    """``fn`` applied leaf by leaf to structures of one shape; lists, tuples, named
    tuples and dicts keep their type."""
    first = structures[0]
    if isinstance(first, dict):
        return type(first)((key, _map_structure(fn, *(s[key] for s in structures)))
                           for key in first)
    if isinstance(first, (list, tuple)):
        if len({len(s) for s in structures}) != 1:
            raise ValueError(f"the structures do not match: {len(first)} items against "
                             f"{[len(s) for s in structures[1:]]}")
        mapped = [_map_structure(fn, *items) for items in zip(*structures)]
        if _is_namedtuple(first):
            return type(first)(*mapped)
        return type(first)(mapped)
    return fn(*structures)


def _leaves(structure):
    if isinstance(structure, dict):
        return [leaf for key in structure for leaf in _leaves(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in _leaves(item)]
    return [structure]


class Decoder:
    """The protocol ``dynamic_decode`` drives: ``initialize(inits)`` gives the first
    inputs, the states and the finished flags; ``step(time, inputs, states, **kwargs)``
    gives ``(outputs, next_states, next_inputs, finished)``; ``finalize(outputs,
    final_states, sequence_lengths)`` (optional) revises the stacked outputs and the
    last states. A subclass implements the first two; the base raises
    ``NotImplementedError``.

    >>> import pylayer
    >>> class Count(pylayer.nn.decode.Decoder):
    ...     def initialize(self, inits):
    ...         return inits, pylayer.zeros([2]), pylayer.to_tensor([False, False])
    ...     def step(self, time, inputs, states, **kwargs):
    ...         states = states + 1
    ...         return states * inputs, states, inputs, states >= pylayer.to_tensor([1., 3.])
    >>> outputs, states = pylayer.nn.dynamic_decode(Count(), pylayer.to_tensor([1., 2.]))
    >>> outputs.numpy().tolist()
    [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]
    """

    def __repr__(self):
        return public_settings_repr(self)

    def initialize(self, inits):
        """Called once before the loop with ``inits`` of ``dynamic_decode``; returns
        ``(initial_inputs, initial_states, finished)``, ``finished`` a bool tensor."""
        raise NotImplementedError(f"{type(self).__name__} does not implement initialize")

    def step(self, time, inputs, states, **kwargs):
        """One decoding step at ``time`` (an int64 tensor of shape ``[1]``); returns
        ``(outputs, next_states, next_inputs, finished)``."""
        raise NotImplementedError(f"{type(self).__name__} does not implement step")

    def finalize(self, outputs, final_states, sequence_lengths):
        """Called once after the loop, if implemented, with every step's outputs
        stacked on a leading time axis; returns ``(final_outputs, final_states)``."""
        raise NotImplementedError(f"{type(self).__name__} does not implement finalize")

    @property
    def tracks_own_finished(self):
        """``False``: ``dynamic_decode`` keeps an entry finished once it has finished
        (a logical OR with the flags of ``step``)."""
        return False


class BeamSearchDecoder(Decoder):
    """Beam search around ``cell``: each step feeds the ``beam_size`` best sequences
    of every batch entry through the cell, adds the log-probabilities of the next
    token (after ``output_fn``) to the sequences' scores, and keeps the
    ``beam_size`` best of all continuations. Decoding starts from ``start_token``;
    a beam that emits ``end_token`` is finished and keeps its score. ``embedding_fn``
    turns the chosen ids into the cell's next inputs.

    The cell's states are tiled to ``[batch_size * beam_size, ...]``; any other
    tensor the cell uses per batch entry must be tiled the same way with
    :meth:`tile_beam_merge_with_batch`.

    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> cell = pylayer.nn.GRUCell(4, 8)
    >>> decoder = pylayer.nn.BeamSearchDecoder(
    ...     cell, start_token=0, end_token=1, beam_size=3,
    ...     embedding_fn=pylayer.nn.Embedding(10, 4), output_fn=pylayer.nn.Linear(8, 10))
    >>> ids, states = pylayer.nn.dynamic_decode(
    ...     decoder, inits=cell.get_initial_states(pylayer.ones([2, 4])), max_step_num=4)
    >>> ids.shape[0], ids.shape[2], ids.shape[1] <= 5, states.log_probs.shape
    (2, 3, True, [2, 3])
    """

    class OutputWrapper(NamedTuple):
        """The outputs of one step: ``scores``, ``predicted_ids`` and ``parent_ids``
        (the beam each chosen id continues), each ``[batch_size, beam_size]``."""
        scores: Tensor
        predicted_ids: Tensor
        parent_ids: Tensor

    class StateWrapper(NamedTuple):
        """The states of the search: the cell's ``cell_states``, the beams'
        ``log_probs``, ``finished`` flags and ``lengths``."""
        cell_states: Tensor
        log_probs: Tensor
        finished: Tensor
        lengths: Tensor

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None,
                 output_fn=None):
        cls = "BeamSearchDecoder"
        self.cell = check_callable(cell, cls, "cell")
        self.start_token = check_int(start_token, cls, "start_token", minimum=0)
        self.end_token = check_int(end_token, cls, "end_token", minimum=0)
        self.beam_size = check_int(beam_size, cls, "beam_size", minimum=1)
        self.embedding_fn = check_callable(embedding_fn, cls, "embedding_fn", allow_none=True)
        self.output_fn = check_callable(output_fn, cls, "output_fn", allow_none=True)

    def __repr__(self):
        return settings_repr(self, {name: getattr(self, name) for name in (
            "cell", "start_token", "end_token", "beam_size", "embedding_fn", "output_fn")})

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        """Repeat each batch entry of ``x`` (``[batch_size, ...]``) ``beam_size`` times
        in a row: ``[batch_size * beam_size, ...]`` holding ``x[0], x[0], ...,
        x[1], x[1], ...``.

        >>> import pylayer
        >>> x = pylayer.to_tensor([[1, 2], [3, 4]])
        >>> pylayer.nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 2).tolist()
        [[1, 2], [1, 2], [3, 4], [3, 4]]
        """
        fn = "tile_beam_merge_with_batch"
        if not isinstance(x, Tensor):
            raise TypeError(f"{fn}(): argument 'x' (position 1) must be a Tensor, got "
                            f"{type(x).__name__}")
        if x.ndim < 1:
            raise ValueError(f"{fn}(): argument 'x' (position 1) must have a batch "
                             f"dimension, got a 0-D tensor")
        beam_size = check_int(beam_size, fn, "beam_size", minimum=1)
        repeats = [1] * (x.ndim + 1)
        repeats[1] = beam_size
        tiled = tile(unsqueeze(x, [1]), repeats)
        return reshape(tiled, [x.shape[0] * beam_size] + list(x.shape[1:]))

    def _split_batch_beams(self, x):
        return reshape(x, [-1, self.beam_size] + list(x.shape[1:]))

    def _merge_batch_beams(self, x):
        return reshape(x, [-1] + list(x.shape[2:]))

    def _expand_to_beam_size(self, x):
        repeats = [1] * (x.ndim + 1)
        repeats[1] = self.beam_size
        return tile(unsqueeze(x, [1]), repeats)

    def _mask_probs(self, probs, finished):
        """A finished beam puts all its mass on ``end_token``: log-probability 0
        there and ``-1e9`` elsewhere; the others keep ``probs``."""
        vocab = probs.shape[-1]
        noend = np.full(vocab, -_KINF)
        noend[self.end_token] = 0.0
        return where(unsqueeze(finished, [2]), cast(to_tensor(noend), probs.dtype), probs)

    def _gather(self, x, indices, batch_size):
        """``x[b, indices[b, k]]`` for ``x`` of shape ``[batch_size, beam, ...]``."""
        rows = tile(unsqueeze(arange(0, batch_size, 1, dtype=indices.dtype), [1]),
                    [1, indices.shape[1]])
        return gather_nd(x, stack([rows, indices], axis=2))

    def initialize(self, initial_cell_states):
        """The first inputs (``start_token`` for every beam, through
        ``embedding_fn``), the states (cell states tiled to ``[batch_size,
        beam_size, ...]``, log-probabilities 0 for the first beam and ``-1e9`` for
        the others, nothing finished, lengths 0) and the finished flags."""
        leaves = _leaves(initial_cell_states)
        if not leaves or not all(isinstance(leaf, Tensor) and leaf.ndim >= 1
                                 for leaf in leaves):
            raise TypeError("BeamSearchDecoder.initialize(): argument 'initial_cell_states' "
                            "must be a Tensor or a structure of Tensors with a batch "
                            f"dimension, got {initial_cell_states!r}")
        self.batch_size = leaves[0].shape[0]
        cell_states = _map_structure(self._expand_to_beam_size, initial_cell_states)
        ids = full([self.batch_size, self.beam_size], self.start_token, dtype="int64")
        first = np.array([0.0] + [-_KINF] * (self.beam_size - 1),
                         dtype="float64" if get_default_dtype() == "float64" else "float32")
        log_probs = tile(to_tensor(first[None, :]), [self.batch_size, 1])
        finished = full([self.batch_size, self.beam_size], False, dtype="bool")
        lengths = zeros_like(ids)
        inputs = self.embedding_fn(ids) if self.embedding_fn is not None else ids
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        vocab = logits.shape[-1]
        if not 0 <= self.end_token < vocab:
            raise ValueError(f"BeamSearchDecoder: end_token {self.end_token} is not a class "
                             f"of the cell's output (vocabulary size {vocab})")
        step_log_probs = self._mask_probs(F.log_softmax(logits, axis=-1), beam_state.finished)
        log_probs = add(step_log_probs, unsqueeze(beam_state.log_probs, [2]))
        flat = reshape(log_probs, [-1, self.beam_size * vocab])
        top_scores, top_indices = topk(flat, self.beam_size)
        beam_indices = floor_divide(top_indices, full([1], vocab, dtype=top_indices.dtype))
        token_indices = remainder(top_indices, full([1], vocab, dtype=top_indices.dtype))
        batch = self.batch_size
        next_log_probs = self._gather(flat, top_indices, batch)
        next_cell_states = _map_structure(lambda s: self._gather(s, beam_indices, batch),
                                          next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices, batch)
        next_lengths = self._gather(beam_state.lengths, beam_indices, batch)
        next_lengths = next_lengths + cast(logical_not(next_finished), next_lengths.dtype)
        next_finished = logical_or(next_finished,
                                   equal(token_indices, full([1], self.end_token,
                                                             dtype=token_indices.dtype)))
        return (self.OutputWrapper(top_scores, token_indices, beam_indices),
                self.StateWrapper(next_cell_states, next_log_probs, next_finished,
                                  next_lengths))

    def step(self, time, inputs, states, **kwargs):
        """One step of the search: the cell (with ``kwargs``) on the merged beams,
        ``output_fn`` on its output, then the choice of the best continuations.
        Returns ``(OutputWrapper, StateWrapper, next_inputs, finished)``."""
        inputs = _map_structure(self._merge_batch_beams, inputs)
        cell_states = _map_structure(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map_structure(self._split_batch_beams, cell_outputs)
        next_cell_states = _map_structure(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        output, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        ids = output.predicted_ids
        ids.stop_gradient = True
        next_inputs = self.embedding_fn(ids) if self.embedding_fn is not None else ids
        return output, state, next_inputs, state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        """Follow the parents back from the last step (``gather_tree``): the whole
        sequence of every final beam, ``[time, batch_size, beam_size]``."""
        ids = F.gather_tree(outputs.predicted_ids, outputs.parent_ids)
        return cast(ids, outputs.predicted_ids.dtype), final_states

    @property
    def tracks_own_finished(self):
        """``True``: beams are reordered each step, so the decoder's own finished
        flags are the ones to use."""
        return True


def _keep_finished(state, new_state, finished):
    """``new_state`` where the entry has not finished, ``state`` where it has."""
    mask = reshape(finished, list(finished.shape) + [1] * (state.ndim - finished.ndim))
    return where(mask, state, new_state)


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False,
                   impute_finished=False, is_test=False, return_length=False, **kwargs):
    """Run ``decoder``: ``initialize(inits)``, then ``step`` (with ``kwargs``) until
    every entry has finished or after step ``max_step_num`` (so at most
    ``max_step_num + 1`` steps), then ``finalize`` when the decoder implements it.

    Returns ``(final_outputs, final_states)``, and the sequence lengths too with
    ``return_length=True``. The outputs of all steps are stacked batch-major
    (``[batch, time, ...]``) or, with ``output_time_major=True``, time-major. With
    ``impute_finished=True`` (for decoders that do not track their own finished
    flags) a finished entry keeps its last states. ``is_test`` changes nothing.

    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> cell = pylayer.nn.GRUCell(4, 8)
    >>> decoder = pylayer.nn.BeamSearchDecoder(
    ...     cell, start_token=0, end_token=1, beam_size=2,
    ...     embedding_fn=pylayer.nn.Embedding(6, 4), output_fn=pylayer.nn.Linear(8, 6))
    >>> ids, states, lengths = pylayer.nn.dynamic_decode(
    ...     decoder, cell.get_initial_states(pylayer.ones([3, 4])), max_step_num=5,
    ...     return_length=True)
    >>> len(ids.shape), ids.shape[0], ids.shape[2], lengths.shape
    (3, 3, 2, [3, 2])
    """
    fn = "dynamic_decode"
    for method in ("initialize", "step"):
        if not callable(getattr(decoder, method, None)):
            raise TypeError(f"{fn}(): argument 'decoder' (position 1) must be a Decoder "
                            f"(with initialize and step), got {type(decoder).__name__}")
    if max_step_num is not None:
        max_step_num = check_int(max_step_num, fn, "max_step_num", minimum=0)
    output_time_major, impute_finished = bool(output_time_major), bool(impute_finished)
    return_length = bool(return_length)

    inputs, states, finished = decoder.initialize(inits)
    if not isinstance(finished, Tensor) or finished.dtype != "bool":
        raise TypeError(f"{fn}(): the decoder's initialize must return bool finished "
                        f"flags, got {finished!r}")
    own_finished = getattr(decoder, "tracks_own_finished", False)
    lengths = zeros_like(finished, dtype="int64")
    steps = []
    time = full([1], 0, dtype="int64")
    while not reduce_all(finished).item():
        outputs, next_states, next_inputs, next_finished = decoder.step(
            time, inputs, states, **kwargs)
        if own_finished:
            if not hasattr(next_states, "lengths"):
                warnings.warn(f"{fn}(): the decoder's states have no 'lengths', so the "
                              f"returned sequence lengths are all zeros")
            next_lengths = getattr(next_states, "lengths", lengths)
        else:
            next_finished = logical_or(next_finished, finished)
            next_lengths = lengths + cast(logical_not(finished), lengths.dtype)
            if impute_finished:
                next_states = _map_structure(
                    lambda old, new: _keep_finished(old, new, finished), states, next_states)
        steps.append(outputs)
        inputs, states, finished, lengths = next_inputs, next_states, next_finished, next_lengths
        time = time + 1
        if max_step_num is not None and len(steps) > max_step_num:
            break
    if not steps:
        raise ValueError(f"{fn}(): every entry is finished before the first step, so there "
                         f"is no output")
    final_outputs = _map_structure(lambda *per_step: stack(list(per_step), axis=0), *steps)
    final_states = states
    try:
        final_outputs, final_states = decoder.finalize(final_outputs, final_states, lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        final_outputs = _map_structure(
            lambda x: transpose(x, [1, 0] + list(range(2, x.ndim))), final_outputs)
    if return_length:
        return final_outputs, final_states, lengths
    return final_outputs, final_states
