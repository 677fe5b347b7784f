"""``DataLoader``: batches of a dataset as Tensors, made in this process or by
worker processes (``num_workers > 0``), in the sampler's order either way."""
import itertools
import multiprocessing
import numbers
import queue
import random
import sys
import traceback
from collections.abc import Mapping, Sequence

import numpy as np

import pylayer
from pylayer.extend import Tensor, check_int, make_tensor
from pylayer.io import _transport
from pylayer.io.dataset import Dataset, IterableDataset
from pylayer.io.sampler import BatchSampler, check_bool

__all__ = ["DataLoader", "get_worker_info"]


# ------------------------------------------------------------ batching
def default_collate_fn(batch):
    """Samples stacked field by field: numpy arrays and numbers into one numpy array,
    Tensors by :func:`pylayer.stack`, dicts key by key, lists and tuples position by
    position (as a list); strings stay a list."""
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if isinstance(sample, Tensor):
        return pylayer.stack(batch, axis=0)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([s[key] for s in batch]) for key in sample}
    if isinstance(sample, Sequence):
        if any(len(s) != len(sample) for s in batch):
            raise RuntimeError("DataLoader: the samples of a batch have different numbers "
                               "of fields")
        return [default_collate_fn(list(fields)) for fields in zip(*batch)]
    raise TypeError(f"DataLoader: a sample may hold Tensors, numpy arrays, numbers, "
                    f"strings, dicts and lists of them; got {type(sample).__name__} (give a "
                    f"collate_fn for other data)")


def as_tensor(array):
    """A numpy array of numbers as a Tensor on the same memory; anything else as is."""
    if isinstance(array, np.ndarray) and (array.dtype.kind in "biufc"):
        return make_tensor(array)
    return array


def to_tensors(value):
    """Every numpy array in ``value`` (nested in lists, tuples and dicts) made a Tensor."""
    if isinstance(value, np.ndarray):
        return as_tensor(value)
    if isinstance(value, (list, tuple)):
        return type(value)(to_tensors(v) for v in value) if isinstance(value, list) \
            else tuple(to_tensors(v) for v in value)
    if isinstance(value, dict):
        return {k: to_tensors(v) for k, v in value.items()}
    return value


class _Fetcher:
    """Turns what the sampler gives (a batch of indices; for an iterable dataset, how
    many samples) into a collated batch."""

    def __init__(self, dataset, batch_size, collate_fn, drop_last):
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.collate_fn = collate_fn
        self.iterator = iter(dataset) if isinstance(dataset, IterableDataset) else None

    def fetch(self, indices):
        """The batch for ``indices`` (ignored for an iterable dataset); StopIteration at
        the end of an iterable dataset."""
        if self.iterator is not None:
            if self.batch_size is None:
                return next(self.iterator)
            samples = list(itertools.islice(self.iterator, self.batch_size))
            if not samples or (self.drop_last and len(samples) < self.batch_size):
                raise StopIteration
            return self.collate_fn(samples)
        if self.batch_size is None:
            return self.dataset[indices]
        return self.collate_fn([self.dataset[i] for i in indices])


# ------------------------------------------------------------- workers
class WorkerInfo:
    """What :func:`get_worker_info` tells a worker: its ``id``, ``num_workers``, its copy
    of the ``dataset`` and the ``seed`` it was given. Read-only."""
    __slots__ = ("id", "num_workers", "dataset", "seed")

    def __init__(self, id, num_workers, dataset, seed):
        for name, value in (("id", id), ("num_workers", num_workers), ("dataset", dataset),
                            ("seed", seed)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("WorkerInfo is read-only")

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


_worker_info = None


def get_worker_info():
    """In a DataLoader worker process, its :class:`WorkerInfo` (so that an
    IterableDataset can split its stream among the workers); None elsewhere.

    >>> from pylayer.io import get_worker_info
    >>> print(get_worker_info())
    None
    """
    return _worker_info


class _WorkerFailure:
    """An exception a worker raised, sent to the loader to raise again."""

    def __init__(self, worker_id, error):
        self.worker_id = worker_id
        self.kind = type(error)
        self.text = "".join(traceback.format_exception(error))

    def reraise(self):
        message = (f"DataLoader worker {self.worker_id} raised {self.kind.__name__}:\n"
                   f"{self.text}")
        try:
            error = self.kind(message)
        except Exception:  # noqa: BLE001 - an exception type that takes other arguments
            error = RuntimeError(message)
        raise error


_END = "end of the iterable dataset"


def _worker_loop(dataset, fetcher_args, index_queue, result_queue, worker_id, num_workers,
                 seed, init_fn, shared):
    """A worker: fetch the batch of each ``(batch_id, indices)`` it is given, until None."""
    global _worker_info
    try:
        random.seed(seed + worker_id)
        pylayer.seed(seed + worker_id)
        np.random.seed(np.random.SeedSequence([worker_id, seed]).generate_state(4))
        _worker_info = WorkerInfo(worker_id, num_workers, dataset, seed)
        if init_fn is not None:
            init_fn(worker_id)
        fetcher = _Fetcher(dataset, *fetcher_args)
    except Exception as error:  # noqa: BLE001 - reported to the loader
        result_queue.put((None, _WorkerFailure(worker_id, error)))
        return
    while True:
        try:
            task = index_queue.get()
        except (EOFError, OSError):
            return
        if task is None:
            return
        batch_id, indices = task
        try:
            result = _transport.pack(fetcher.fetch(indices), shared)
        except StopIteration:
            result = _END
        except Exception as error:  # noqa: BLE001 - reported to the loader
            result = _WorkerFailure(worker_id, error)
        result_queue.put((batch_id, result))


def _start_method_context():
    """Workers are forked on Linux, as Paddle and PyTorch fork theirs there: a dataset, a
    ``collate_fn`` or a ``worker_init_fn`` defined in a script needs no pickling and the
    script no ``if __name__ == "__main__"`` guard (Python 3.14 makes ``forkserver`` the
    default, which would need both). Elsewhere (macOS, Windows) the platform's default,
    ``spawn``. Python 3.12+ warns about forking a process with threads, and numpy's
    OpenBLAS keeps a pool of them; OpenBLAS stops its threads around ``fork``, and this
    module's own (the queues' feeders) end before the next workers start (``close``)."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


class _WorkerPool:
    """``num_workers`` processes, each with its own queue of tasks, one queue of results."""

    def __init__(self, loader):
        context = _start_method_context()
        self.loader = loader
        self.shared = loader.use_shared_memory and _transport.shared_memory_available()
        self.results = context.Queue()
        self.tasks = []
        self.processes = []
        seed = int(np.random.randint(0, 2 ** 31 - 1))
        fetcher_args = (loader.batch_size if loader._batch_sampler is not None
                        or isinstance(loader.dataset, IterableDataset) else None,
                        loader.collate_fn, loader.drop_last)
        for worker_id in range(loader.num_workers):
            tasks = context.Queue()
            process = context.Process(
                target=_worker_loop, daemon=True,
                args=(loader.dataset, fetcher_args, tasks, self.results, worker_id,
                      loader.num_workers, seed, loader.worker_init_fn, self.shared))
            process.start()
            self.tasks.append(tasks)
            self.processes.append(process)

    def get(self, timeout):
        """The next ``(batch_id, result)``; a clear error when a worker died or nothing
        came within ``timeout`` seconds (0: wait as long as the workers live)."""
        waited = 0.0
        while True:
            try:
                return self.results.get(timeout=0.1)
            except queue.Empty:
                waited += 0.1
            dead = [(i, p.exitcode) for i, p in enumerate(self.processes)
                    if not p.is_alive()]
            if dead:
                i, code = dead[0]
                self.close()
                raise RuntimeError(f"DataLoader worker {i} exited unexpectedly (exit code "
                                   f"{code}); if it was killed for memory, lower "
                                   f"num_workers or the batch size")
            if timeout and waited >= timeout:
                self.close()
                raise RuntimeError(f"DataLoader: no batch came from the workers within "
                                   f"timeout={timeout} seconds")

    def close(self):
        for tasks, process in zip(self.tasks, self.processes):
            if process.is_alive():
                try:
                    tasks.put(None)
                except (OSError, ValueError):
                    pass
        for process in self.processes:
            process.join(timeout=2)
            if process.is_alive():
                process.terminate()
                process.join(timeout=2)
        while True:
            try:
                _, result = self.results.get_nowait()
            except (queue.Empty, OSError, EOFError, ValueError):
                break
            _transport.discard(result)
        for tasks in self.tasks + [self.results]:    # their feeder threads end here
            tasks.close()
            tasks.join_thread()
        self.processes = []


class _MultiProcessIterator:
    """Keeps ``prefetch_factor`` tasks per worker in flight, dealt in turn, and gives
    the results in the order of the tasks."""

    def __init__(self, loader, pool):
        self.loader, self.pool = loader, pool
        self.waiting = {}
        self.next_task = 0
        self.next_result = 0
        self.live = list(range(loader.num_workers))   # workers whose stream has not ended
        self.assigned = {}                            # task id -> worker id
        self.sampler = iter(loader._index_source())
        self.done = False
        for _ in range(loader.prefetch_factor * loader.num_workers):
            if not self._send():
                break

    def _send(self):
        if not self.live:
            return False
        try:
            indices = next(self.sampler)
        except StopIteration:
            return False
        worker = self.live[self.next_task % len(self.live)]
        self.pool.tasks[worker].put((self.next_task, indices))
        self.assigned[self.next_task] = worker
        self.next_task += 1
        return True

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            if self.done or self.next_result >= self.next_task:
                self._finish()
                raise StopIteration
            if self.next_result in self.waiting:
                result = self.waiting.pop(self.next_result)
                worker = self.assigned.pop(self.next_result)
                self.next_result += 1
                if isinstance(result, _WorkerFailure):
                    self._finish(force=True)
                    result.reraise()
                if isinstance(result, str) and result == _END:
                    if worker in self.live:
                        self.live.remove(worker)
                    continue
                self._send()
                return to_tensors(_transport.unpack(result))
            batch_id, result = self.pool.get(self.loader.timeout)
            if batch_id is None:
                self._finish(force=True)
                result.reraise()
            self.waiting[batch_id] = result

    def _finish(self, force=False):
        self.done = True
        for result in self.waiting.values():
            _transport.discard(result)
        self.waiting.clear()
        if force or not self.loader.persistent_workers:
            self.loader._close_pool()

    def __del__(self):
        if not self.done:
            self._finish()


class _NextBatches:
    """For an iterable dataset: a task is 'the next batch' (no indices)."""

    def __iter__(self):
        return itertools.repeat(None)


# ------------------------------------------------------------- the loader
class DataLoader:
    """Iterates over ``dataset`` in batches: lists of Tensors (a sample's fields
    stacked; dicts stay dicts; strings stay lists).

    The batches come from ``batch_sampler``, or from ``batch_size``, ``shuffle`` and
    ``drop_last`` (``batch_size=None``: one sample at a time, unbatched). An
    :class:`IterableDataset` is read in order, ``batch_size`` samples a batch.
    ``collate_fn`` turns a list of samples into a batch (numpy arrays in the result
    become Tensors). With ``num_workers > 0``, worker processes load the batches
    (each with ``worker_init_fn(worker_id)`` run first, and a seed of its own), keep
    ``prefetch_factor`` batches each in flight, and give them back in order; large
    arrays cross through shared memory (``use_shared_memory``). A worker's exception
    is raised again here with its traceback; a worker that dies, or ``timeout``
    seconds without a batch, is a ``RuntimeError``. ``persistent_workers=True`` keeps
    the workers between passes. ``feed_list``, ``places``, ``return_list``,
    ``use_buffer_reader`` and ``reader_buffer_size`` are accepted for Paddle's sake
    (one CPU place; lists are returned).

    >>> import numpy as np
    >>> from pylayer.io import DataLoader
    >>> loader = DataLoader([(np.float32(i), i) for i in range(5)], batch_size=2)
    >>> [y.numpy().tolist() for x, y in loader], len(loader)
    ([[0, 1], [2, 3], [4]], 3)
    """

    def __init__(self, dataset, feed_list=None, places=None, return_list=True,
                 batch_sampler=None, batch_size=1, shuffle=False, drop_last=False,
                 collate_fn=None, num_workers=0, use_buffer_reader=True,
                 reader_buffer_size=2, prefetch_factor=2, use_shared_memory=True, timeout=0,
                 worker_init_fn=None, persistent_workers=False):
        fn = "DataLoader"
        self._pool = None
        self.dataset = dataset
        self.return_list = return_list
        self.num_workers = check_int(num_workers, fn, "num_workers", minimum=0)
        self.prefetch_factor = check_int(prefetch_factor, fn, "prefetch_factor", minimum=1)
        self.timeout = check_int(timeout, fn, "timeout", minimum=0)
        self.use_shared_memory = check_bool(use_shared_memory, fn, "use_shared_memory")
        self.persistent_workers = check_bool(persistent_workers, fn, "persistent_workers")
        if worker_init_fn is not None and not callable(worker_init_fn):
            raise TypeError(f"{fn}(): argument 'worker_init_fn' must be callable, got "
                            f"{type(worker_init_fn).__name__}")
        if collate_fn is not None and not callable(collate_fn):
            raise TypeError(f"{fn}(): argument 'collate_fn' must be callable, got "
                            f"{type(collate_fn).__name__}")
        self.worker_init_fn = worker_init_fn
        self.drop_last = check_bool(drop_last, fn, "drop_last")
        iterable = isinstance(dataset, IterableDataset)
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError(f"{fn}(): 'batch_sampler' decides the batches: leave "
                                 f"batch_size, shuffle and drop_last at their defaults")
            if iterable:
                raise ValueError(f"{fn}(): an IterableDataset takes no 'batch_sampler'")
            self.batch_size = getattr(batch_sampler, "batch_size", None)
            self._batch_sampler = batch_sampler
        elif batch_size is None:
            if drop_last or shuffle:
                raise ValueError(f"{fn}(): batch_size=None gives single samples: shuffle "
                                 f"and drop_last do not apply")
            self.batch_size = None
            self._batch_sampler = None if iterable else BatchSampler(dataset, batch_size=1)
        else:
            self.batch_size = check_int(batch_size, fn, "batch_size", minimum=1)
            if iterable:
                if shuffle:
                    raise ValueError(f"{fn}(): an IterableDataset cannot be shuffled")
                self._batch_sampler = None
            else:
                self._batch_sampler = BatchSampler(dataset, shuffle=check_bool(
                    shuffle, fn, "shuffle"), batch_size=self.batch_size, drop_last=drop_last)
        self.collate_fn = collate_fn or default_collate_fn
        self._unbatched = batch_size is None and batch_sampler is None

    @property
    def batch_sampler(self):
        """The sampler of the batches' indices (None for an iterable dataset)."""
        return self._batch_sampler

    def _index_source(self):
        if self._batch_sampler is None:
            return _NextBatches()
        if self._unbatched:
            return (indices[0] for indices in self._batch_sampler)
        return self._batch_sampler

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            raise TypeError("DataLoader: the length of an IterableDataset is not known")
        return len(self._batch_sampler)

    def __iter__(self):
        if self.num_workers == 0:
            return self._single_process()
        if self._pool is None:
            self._pool = _WorkerPool(self)
        return _MultiProcessIterator(self, self._pool)

    def __call__(self):
        return self.__iter__()

    def _single_process(self):
        fetcher = _Fetcher(self.dataset, self.batch_size, self.collate_fn, self.drop_last)
        for indices in self._index_source():
            try:
                batch = fetcher.fetch(indices)
            except StopIteration:
                return
            yield to_tensors(batch)

    def _close_pool(self):
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def __del__(self):
        self._close_pool()

    def __repr__(self):
        return (f"DataLoader(batch_size={self.batch_size}, num_workers={self.num_workers}, "
                f"drop_last={self.drop_last})")
