"""Datasets: map-style (``__getitem__`` and ``__len__``) and iterable ones, and the
ways to combine and split them."""
import bisect
import math
import warnings

import pylayer
from pylayer.extend import Tensor, check_int

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "ConcatDataset", "Subset", "random_split"]


class Dataset:
    """A map-style dataset: a subclass gives ``__getitem__(index)`` (one sample) and
    ``__len__``.

    >>> import numpy as np
    >>> from pylayer.io import Dataset
    >>> class Squares(Dataset):
    ...     def __getitem__(self, i):
    ...         return np.float32(i * i)
    ...     def __len__(self):
    ...         return 4
    >>> Squares()[3], len(Squares())
    (np.float32(9.0), 4)
    """

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} does not implement __getitem__()")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement __len__()")

    def __repr__(self):
        return f"{type(self).__name__}()"


class IterableDataset(Dataset):
    """A dataset read as a stream: a subclass gives ``__iter__``. In worker processes
    every worker runs the whole ``__iter__`` unless it splits the stream itself by
    :func:`get_worker_info`.

    >>> from pylayer.io import IterableDataset
    >>> class Count(IterableDataset):
    ...     def __iter__(self):
    ...         yield from range(3)
    >>> list(Count())
    [0, 1, 2]
    """

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement __iter__()")

    def __getitem__(self, index):
        raise TypeError(f"{type(self).__name__} is an IterableDataset: it has no "
                        f"__getitem__; iterate over it")

    def __len__(self):
        raise TypeError(f"{type(self).__name__} is an IterableDataset: it has no __len__")


def _datasets(datasets, fn, kind=Dataset):
    if not isinstance(datasets, (list, tuple)) and not hasattr(datasets, "__iter__"):
        raise TypeError(f"{fn}(): argument 'datasets' must be a list of datasets, got "
                        f"{type(datasets).__name__}")
    datasets = list(datasets)
    if not datasets:
        raise ValueError(f"{fn}(): argument 'datasets' must not be empty")
    return datasets


class TensorDataset(Dataset):
    """Samples are the rows of the given tensors (equal first dimensions): sample ``i``
    is the tuple of each tensor's ``[i]``.

    >>> import pylayer
    >>> from pylayer.io import TensorDataset
    >>> d = TensorDataset([pylayer.to_tensor([[1, 2], [3, 4]]), pylayer.to_tensor([5, 6])])
    >>> [t.numpy().tolist() for t in d[1]], len(d)
    ([[3, 4], 6], 2)
    """

    def __init__(self, tensors):
        if not isinstance(tensors, (list, tuple)) or not tensors:
            raise TypeError(f"TensorDataset(): argument 'tensors' must be a non-empty list of "
                            f"Tensors, got {type(tensors).__name__}")
        for i, t in enumerate(tensors):
            if not isinstance(t, Tensor):
                raise TypeError(f"TensorDataset(): argument 'tensors' item {i} must be a "
                                f"Tensor, got {type(t).__name__}")
            if t.ndim == 0 or t.shape[0] != tensors[0].shape[0]:
                raise ValueError(f"TensorDataset(): every tensor must have the first "
                                 f"dimension of the first ({tensors[0].shape}), item {i} has "
                                 f"shape {t.shape}")
        self.tensors = list(tensors)

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class ComposeDataset(Dataset):
    """Datasets of one length side by side: sample ``i`` is the fields of every
    dataset's sample ``i``, joined in one tuple.

    >>> from pylayer.io import ComposeDataset
    >>> ComposeDataset([[(1, 2), (3, 4)], [(5,), (6,)]])[1]
    (3, 4, 6)
    """

    def __init__(self, datasets):
        self.datasets = _datasets(datasets, "ComposeDataset")
        for i, d in enumerate(self.datasets):
            if isinstance(d, IterableDataset):
                raise TypeError(f"ComposeDataset(): dataset {i} is an IterableDataset; "
                                f"ComposeDataset joins map-style datasets")
            if len(d) != len(self.datasets[0]):
                raise ValueError(f"ComposeDataset(): every dataset must have the length of "
                                 f"the first ({len(self.datasets[0])}), dataset {i} has "
                                 f"{len(d)}")

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, index):
        fields = []
        for d in self.datasets:
            sample = d[index]
            fields.extend(sample if isinstance(sample, (list, tuple)) else [sample])
        return tuple(fields)


class ChainDataset(IterableDataset):
    """Iterable datasets one after another.

    >>> from pylayer.io import ChainDataset
    >>> list(ChainDataset([range(2), range(3)]))
    [0, 1, 0, 1, 2]
    """

    def __init__(self, datasets):
        self.datasets = _datasets(datasets, "ChainDataset")
        for i, d in enumerate(self.datasets):
            if not hasattr(d, "__iter__"):
                raise TypeError(f"ChainDataset(): dataset {i} must be iterable, got "
                                f"{type(d).__name__}")

    def __iter__(self):
        for d in self.datasets:
            yield from d


class ConcatDataset(Dataset):
    """Map-style datasets one after another: index ``i`` runs through the first, then
    the second, ... Negative indices count from the end.

    >>> from pylayer.io import ConcatDataset
    >>> d = ConcatDataset([[0, 1], [2, 3, 4]])
    >>> len(d), d[3], d[-1], d.cumulative_sizes
    (5, 3, 4, [2, 5])
    """

    @staticmethod
    def cumsum(sequence):
        """The running totals of the lengths of ``sequence``'s datasets."""
        totals, total = [], 0
        for d in sequence:
            total += len(d)
            totals.append(total)
        return totals

    def __init__(self, datasets):
        self.datasets = _datasets(datasets, "ConcatDataset")
        for i, d in enumerate(self.datasets):
            if isinstance(d, IterableDataset):
                raise TypeError(f"ConcatDataset(): dataset {i} is an IterableDataset; use "
                                f"ChainDataset for those")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        index = check_int(index, "ConcatDataset.__getitem__", "index")
        if index < 0:
            if -index > len(self):
                raise IndexError(f"ConcatDataset: index {index} is out of range for "
                                 f"{len(self)} samples")
            index += len(self)
        if index >= len(self):
            raise IndexError(f"ConcatDataset: index {index} is out of range for {len(self)} "
                             f"samples")
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order.

    >>> from pylayer.io import Subset
    >>> s = Subset(["a", "b", "c", "d"], [3, 0])
    >>> s[0], len(s)
    ('d', 2)
    """

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, (list, tuple)):
            return [self.dataset[self.indices[i]] for i in index]
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """``dataset`` cut into non-overlapping :class:`Subset`\\ s of the given ``lengths``
    (counts summing to its length, or fractions summing to 1: the remainder of the
    rounding goes one by one to the first splits), drawn by a random permutation of
    :func:`pylayer.randperm` (so :func:`pylayer.seed` repeats it).

    >>> import pylayer
    >>> from pylayer.io import random_split
    >>> parts = random_split(range(10), [0.3, 0.7])
    >>> [len(p) for p in parts], sorted(list(parts[0]) + list(parts[1]))
    ([3, 7], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    """
    if not isinstance(lengths, (list, tuple)) or not lengths:
        raise TypeError(f"random_split(): argument 'lengths' must be a non-empty list of "
                        f"numbers, got {type(lengths).__name__}")
    for length in lengths:
        if isinstance(length, bool) or not isinstance(length, (int, float)):
            raise TypeError(f"random_split(): argument 'lengths' must hold counts or "
                            f"fractions, got {type(length).__name__}")
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, fraction in enumerate(lengths):
            if not 0 <= fraction <= 1:
                raise ValueError(f"random_split(): fraction {i} of 'lengths' ({fraction}) is "
                                 f"not between 0 and 1")
            counts.append(int(math.floor(n * fraction)))
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, count in enumerate(counts):
            if count == 0:
                warnings.warn(f"random_split(): split {i} is empty", stacklevel=2)
        lengths = counts
    lengths = [check_int(length, "random_split", "lengths", minimum=0) for length in lengths]
    if sum(lengths) != n:
        raise ValueError(f"random_split(): the lengths add up to {sum(lengths)}, not to the "
                         f"dataset's length {n}")
    order = pylayer.randperm(n).numpy().tolist()
    parts, start = [], 0
    for length in lengths:
        parts.append(Subset(dataset, order[start:start + length]))
        start += length
    return parts
