"""Paddle's ``paddle.io``: datasets, samplers and the ``DataLoader`` that batches
them, in this process or in worker processes.

>>> import numpy as np
>>> import pylayer
>>> from pylayer.io import DataLoader, TensorDataset
>>> data = TensorDataset([pylayer.arange(6, dtype="float32").reshape([3, 2]),
...                       pylayer.to_tensor([0, 1, 0])])
>>> [x.shape for x, y in DataLoader(data, batch_size=2)]
[[2, 2], [1, 2]]
"""
from pylayer.io.dataloader import DataLoader, get_worker_info
from pylayer.io.dataset import (ChainDataset, ComposeDataset, ConcatDataset, Dataset,
                                IterableDataset, Subset, TensorDataset, random_split)
from pylayer.io.sampler import (BatchSampler, DistributedBatchSampler, RandomSampler, Sampler,
                                SequenceSampler, SubsetRandomSampler, WeightedRandomSampler)

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "ConcatDataset", "Subset", "random_split", "Sampler", "SequenceSampler",
           "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler", "BatchSampler",
           "DistributedBatchSampler", "DataLoader", "get_worker_info"]
