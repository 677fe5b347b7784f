"""Samplers: which sample indices, in which order (``Sampler``), and grouped in
batches (``BatchSampler``). The random ones draw from numpy's global generator as
Paddle's do, so ``numpy.random.seed`` repeats a shuffle (and gives Paddle's order)."""
import math
import os

import numpy as np

import pylayer
from pylayer.extend import Tensor, check_int

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "SubsetRandomSampler", "BatchSampler", "DistributedBatchSampler"]


def check_bool(value, fn, arg):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a bool, got {type(value).__name__}")
    return bool(value)


class Sampler:
    """The base of the samplers: a subclass gives ``__iter__`` (indices of
    ``data_source``) and usually ``__len__``.

    >>> from pylayer.io import Sampler
    >>> class Evens(Sampler):
    ...     def __iter__(self):
    ...         return iter(range(0, len(self.data_source), 2))
    >>> list(Evens(range(5)))
    [0, 2, 4]
    """

    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement __iter__()")

    def __repr__(self):
        return f"{type(self).__name__}()"


class SequenceSampler(Sampler):
    """The indices ``0, 1, ..., len(data_source) - 1`` in order.

    >>> from pylayer.io import SequenceSampler
    >>> list(SequenceSampler(range(3)))
    [0, 1, 2]
    """

    def __init__(self, data_source):
        super().__init__(data_source)

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """Indices of ``data_source`` in random order: a permutation of ``num_samples`` of
    them (all by default), or with ``replacement=True`` ``num_samples`` independent
    draws. A ``generator`` (an iterator of indices) replaces the draws: its first
    ``num_samples`` items are the indices.

    >>> import numpy as np
    >>> from pylayer.io import RandomSampler
    >>> np.random.seed(0)
    >>> sorted(RandomSampler(range(5)))
    [0, 1, 2, 3, 4]
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        super().__init__(data_source)
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler(): argument 'replacement' must be a bool, got "
                            f"{type(replacement).__name__}")
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        count = self.num_samples
        if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            raise ValueError(f"RandomSampler(): argument 'num_samples' must be a positive "
                             f"int, got {count!r}")
        if not replacement and count > len(data_source):
            raise ValueError(f"RandomSampler(): argument 'num_samples' ({count}) must not "
                             f"exceed the length of data_source ({len(data_source)}) "
                             f"without replacement")

    @property
    def num_samples(self):
        """How many indices an iteration gives."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        if self.generator is not None:
            for _ in range(self.num_samples):
                try:
                    yield next(self.generator)
                except StopIteration:
                    return
            return
        n = len(self.data_source)
        yield from np.random.choice(np.arange(n), self.num_samples,
                                    replace=self.replacement).tolist()

    def __len__(self):
        return self.num_samples


def _weights_array(weights):
    if isinstance(weights, Tensor):
        weights = weights.numpy()
    try:
        weights = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"WeightedRandomSampler(): argument 'weights' must be a Tensor, a "
                        f"numpy array or a list of numbers, got "
                        f"{type(weights).__name__}") from error
    if weights.ndim not in (1, 2) or weights.shape[-1] == 0:
        raise ValueError(f"WeightedRandomSampler(): argument 'weights' must be 1-D or 2-D and "
                         f"not empty, got shape {list(weights.shape)}")
    rows = weights.reshape(-1, weights.shape[-1])
    if not np.isfinite(rows).all() or (rows < 0).any():
        raise ValueError("WeightedRandomSampler(): argument 'weights' must be finite and not "
                         "negative")
    if not ((rows > 0).sum(axis=1) > 0).all():
        raise ValueError("WeightedRandomSampler(): every row of 'weights' needs a positive "
                         "weight")
    return rows


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``
    (with ``replacement`` by default). 2-D weights draw for each row in turn.

    >>> import numpy as np
    >>> from pylayer.io import WeightedRandomSampler
    >>> np.random.seed(0)
    >>> list(WeightedRandomSampler([0.0, 0.0, 1.0], 3))
    [2, 2, 2]
    """

    def __init__(self, weights, num_samples, replacement=True):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) \
                or num_samples <= 0:
            raise ValueError(f"WeightedRandomSampler(): argument 'num_samples' must be a "
                             f"positive int, got {num_samples!r}")
        if not isinstance(replacement, bool):
            raise ValueError(f"WeightedRandomSampler(): argument 'replacement' must be a "
                             f"bool, got {type(replacement).__name__}")
        super().__init__(None)
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement

    def __iter__(self):
        rows = _weights_array(self.weights)
        if not self.replacement and ((rows > 0).sum(axis=1) < self.num_samples).any():
            raise ValueError(f"WeightedRandomSampler: without replacement each row needs "
                             f"at least num_samples ({self.num_samples}) positive weights")
        rows = rows / rows.sum(axis=1, keepdims=True)
        drawn = [np.random.choice(rows.shape[1], self.num_samples, self.replacement, row)
                 for row in rows]
        return iter(np.array(drawn).reshape(-1).tolist())

    def __len__(self):
        rows = _weights_array(self.weights)
        return self.num_samples * rows.shape[0]


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in random order (a :func:`pylayer.randperm` of them).

    >>> from pylayer.io import SubsetRandomSampler
    >>> sorted(SubsetRandomSampler([4, 7, 9]))
    [4, 7, 9]
    """

    def __init__(self, indices):
        if len(indices) == 0:
            raise ValueError("SubsetRandomSampler(): argument 'indices' must not be empty")
        super().__init__(None)
        self.indices = indices

    def __iter__(self):
        for i in pylayer.randperm(len(self.indices)).numpy().tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices: from ``sampler``, or from ``dataset`` in order
    (in random order with ``shuffle=True``); the last, shorter batch is kept unless
    ``drop_last``.

    >>> from pylayer.io import BatchSampler
    >>> list(BatchSampler(range(5), batch_size=2)), len(BatchSampler(range(5), batch_size=2))
    ([[0, 1], [2, 3], [4]], 3)
    """

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1,
                 drop_last=False):
        from pylayer.io.dataset import IterableDataset
        fn = type(self).__name__
        if dataset is None:
            if sampler is None:
                raise ValueError(f"{fn}(): give 'dataset' or 'sampler'")
            if not hasattr(sampler, "__iter__"):
                raise TypeError(f"{fn}(): argument 'sampler' must be a Sampler or an "
                                f"iterable of indices, got {type(sampler).__name__}")
            if shuffle:
                raise ValueError(f"{fn}(): 'shuffle' must be False when 'sampler' is given "
                                 f"(the sampler decides the order)")
            self.sampler = sampler
        else:
            if isinstance(dataset, IterableDataset):
                raise TypeError(f"{fn}(): argument 'dataset' must not be an "
                                f"IterableDataset (it has no indices)")
            if sampler is not None:
                raise ValueError(f"{fn}(): give 'dataset' or 'sampler', not both")
            check_bool(shuffle, fn, "shuffle")
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        self.batch_size = check_int(batch_size, fn, "batch_size", minimum=1)
        self.shuffle = shuffle
        self.drop_last = check_bool(drop_last, fn, "drop_last")

    def __iter__(self):
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        count = len(self.sampler)
        return count // self.batch_size if self.drop_last else \
            -(-count // self.batch_size)


def _launcher_value(name, default):
    value = os.environ.get(name)
    return default if value is None else int(value)


class DistributedBatchSampler(BatchSampler):
    """The batches of one of ``num_replicas`` processes (``rank``): the indices are
    padded by repeating from the start to a multiple of the process count, then dealt
    out one batch per process in turn (a last round of smaller batches is split
    evenly). ``shuffle=True`` permutes them by a generator seeded with the epoch, so
    every process draws the same permutation; the epoch advances after each pass, or
    is set by :meth:`set_epoch`. Without ``num_replicas``/``rank`` they are read from
    ``PADDLE_TRAINERS_NUM``/``PADDLE_TRAINER_ID`` (Paddle's launcher's variables),
    defaulting to one process.

    >>> from pylayer.io import DistributedBatchSampler
    >>> list(DistributedBatchSampler(range(10), batch_size=2, num_replicas=3, rank=1))
    [[2, 3], [8, 9]]
    """

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False,
                 drop_last=False):
        fn = "DistributedBatchSampler"
        self.dataset = dataset
        self.batch_size = check_int(batch_size, fn, "batch_size", minimum=1)
        self.shuffle = check_bool(shuffle, fn, "shuffle")
        self.drop_last = check_bool(drop_last, fn, "drop_last")
        self.nranks = (check_int(num_replicas, fn, "num_replicas", minimum=1)
                       if num_replicas is not None
                       else _launcher_value("PADDLE_TRAINERS_NUM", 1))
        self.local_rank = (check_int(rank, fn, "rank", minimum=0) if rank is not None
                           else _launcher_value("PADDLE_TRAINER_ID", 0))
        if self.local_rank >= self.nranks:
            raise ValueError(f"{fn}(): argument 'rank' ({self.local_rank}) must be below the "
                             f"number of processes ({self.nranks})")
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks
        self.sampler = None

    def _my_indices(self):
        n = len(self.dataset)
        indices = list(range(n))
        if n:
            indices = (indices * math.ceil(self.total_size / n))[:self.total_size]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks == 1:
            return indices
        round_size = self.batch_size * self.nranks
        tail = self.total_size % round_size
        mine = []
        for start in range(self.local_rank * self.batch_size, self.total_size - tail, round_size):
            mine.extend(indices[start:start + self.batch_size])
        share = tail // self.nranks
        last = indices[self.total_size - tail:]
        mine.extend(last[self.local_rank * share:(self.local_rank + 1) * share])
        return mine

    def __iter__(self):
        batch = []
        for index in self._my_indices():
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        return self.num_samples // self.batch_size if self.drop_last else \
            -(-self.num_samples // self.batch_size)

    def set_epoch(self, epoch):
        """Seed the next shuffle with ``epoch`` (call it before each epoch so that every
        process shuffles alike and each epoch differently)."""
        self.epoch = check_int(epoch, "DistributedBatchSampler.set_epoch", "epoch")
