"""paddle.io: datasets, samplers and DataLoader, in one process and with workers.

The expected orders and dtypes were observed on Paddle 3.3.1 (CPU): the shuffles draw
from numpy's global generator as Paddle's do, so a seed gives Paddle's order."""
import os
import signal

import numpy as np
import pytest

import pylayer
from pylayer.io import (BatchSampler, ChainDataset, ComposeDataset, ConcatDataset, DataLoader,
                        Dataset, DistributedBatchSampler, IterableDataset, RandomSampler,
                        SequenceSampler, Subset, SubsetRandomSampler, TensorDataset,
                        WeightedRandomSampler, get_worker_info, random_split)


class Mixed(Dataset):
    """Samples of every kind the default collate handles."""

    def __init__(self, n=10):
        self.n = n

    def __getitem__(self, i):
        return np.full([2], i, np.float32), i, float(i), {"a": np.int32(i), "s": f"x{i}"}

    def __len__(self):
        return self.n


class Big(Dataset):
    def __getitem__(self, i):
        return np.full([64, 64], i, np.float32), i

    def __len__(self):
        return 7


class Fails(Dataset):
    def __getitem__(self, i):
        if i == 3:
            raise KeyError(f"no sample {i}")
        return np.float32(i)

    def __len__(self):
        return 6


class Dies(Dataset):
    def __getitem__(self, i):
        if i == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return np.float32(i)

    def __len__(self):
        return 6


class Stream(IterableDataset):
    """0..6, split among the workers by get_worker_info."""

    def __iter__(self):
        info = get_worker_info()
        first, step = (info.id, info.num_workers) if info is not None else (0, 1)
        for i in range(first, 7, step):
            yield np.array([i], np.float32)


def labels(loader):
    return [batch[1].numpy().tolist() for batch in loader]


# ------------------------------------------------------------- one process
def test_default_collate_gives_paddles_kinds_and_dtypes():
    x, i, f, d = next(iter(DataLoader(Mixed(), batch_size=4)))
    assert (x.dtype, x.shape) == (pylayer.float32, [4, 2])
    assert (i.dtype, i.shape) == (pylayer.int64, [4])
    assert f.dtype == pylayer.float64
    assert d["a"].dtype == pylayer.int32 and d["s"] == ["x0", "x1", "x2", "x3"]


def test_batches_lengths_and_drop_last():
    assert labels(DataLoader(Mixed(), batch_size=4)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert len(DataLoader(Mixed(), batch_size=4)) == 3
    assert len(DataLoader(Mixed(), batch_size=4, drop_last=True)) == 2
    assert labels(DataLoader(Mixed(), batch_size=4, drop_last=True)) == [[0, 1, 2, 3],
                                                                           [4, 5, 6, 7]]


def test_batch_size_none_gives_single_samples_with_arrays_as_tensors():
    sample = next(iter(DataLoader(Mixed(), batch_size=None)))
    assert [type(v).__name__ for v in sample] == ["Tensor", "int", "float", "dict"]


def test_a_shuffle_draws_paddles_order_from_numpys_seed():
    np.random.seed(3)
    assert list(RandomSampler(range(10))) == [5, 4, 1, 2, 9, 6, 7, 0, 3, 8]
    np.random.seed(3)
    assert labels(DataLoader(Mixed(), batch_size=4, shuffle=True)) == [[5, 4, 1, 2],
                                                                         [9, 6, 7, 0], [3, 8]]


def test_distributed_batch_sampler_deals_batches_as_paddle_does():
    sampler = DistributedBatchSampler(Mixed(10), batch_size=2, num_replicas=3, rank=1)
    assert list(sampler) == [[2, 3], [8, 9]] and len(sampler) == 2
    shuffled = DistributedBatchSampler(Mixed(10), batch_size=2, num_replicas=3, rank=1,
                                       shuffle=True)
    shuffled.set_epoch(2)
    assert list(shuffled) == [[4, 7], [2, 6]]
    every = [i for rank in range(3) for batch in DistributedBatchSampler(
        Mixed(10), batch_size=2, num_replicas=3, rank=rank) for i in batch]
    assert sorted(every) == sorted(list(range(10)) + [0, 1])


def test_distributed_batch_sampler_reads_the_launchers_variables(monkeypatch):
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "2")
    monkeypatch.setenv("PADDLE_TRAINER_ID", "1")
    sampler = DistributedBatchSampler(range(8), batch_size=2)
    assert (sampler.nranks, sampler.local_rank, list(sampler)) == (2, 1, [[2, 3], [6, 7]])


def test_batch_sampler_from_a_sampler_or_a_dataset():
    assert list(BatchSampler(range(5), batch_size=2)) == [[0, 1], [2, 3], [4]]
    assert list(BatchSampler(sampler=SequenceSampler(range(5)), batch_size=2,
                             drop_last=True)) == [[0, 1], [2, 3]]
    loader = DataLoader(Mixed(), batch_sampler=BatchSampler(sampler=[9, 0, 4], batch_size=2))
    assert labels(loader) == [[9, 0], [4]]


def test_weighted_and_subset_random_samplers():
    np.random.seed(0)
    drawn = list(WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 200))
    assert set(drawn) == {1, 3} and drawn.count(3) > drawn.count(1)
    assert len(WeightedRandomSampler(np.ones((2, 3)), 4)) == 8
    assert sorted(WeightedRandomSampler([1.0, 1.0, 1.0], 3, replacement=False)) == [0, 1, 2]
    assert sorted(SubsetRandomSampler([4, 7, 9])) == [4, 7, 9]


def test_datasets_combine_and_split():
    tensors = TensorDataset([pylayer.arange(6).reshape([3, 2]), pylayer.arange(3)])
    assert len(tensors) == 3 and tensors[1][0].numpy().tolist() == [2, 3]
    assert ComposeDataset([[(1, 2), (3, 4)], [5, 6]])[1] == (3, 4, 6)
    assert [float(v[0]) for v in ChainDataset([Stream(), Stream()])][6:8] == [6.0, 0.0]
    concat = ConcatDataset([[0, 1], [2, 3, 4]])
    assert [concat[i] for i in (0, 2, 4, -1, -5)] == [0, 2, 4, 4, 0]
    assert Subset(["a", "b", "c"], [2, 0])[0] == "c"
    pylayer.seed(5)
    first = [list(p) for p in random_split(range(10), [3, 7])]
    pylayer.seed(5)
    assert [list(p) for p in random_split(range(10), [0.3, 0.7])] == first
    assert sorted(first[0] + first[1]) == list(range(10)) and len(first[0]) == 3


def test_an_iterable_dataset_is_read_in_order_in_batches():
    assert [b.numpy().ravel().tolist() for b in DataLoader(Stream(), batch_size=2)] == \
        [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0]]
    assert [b.numpy().ravel().tolist() for b in DataLoader(Stream(), batch_size=2,
                                                           drop_last=True)][-1] == [4.0, 5.0]
    with pytest.raises(TypeError, match="IterableDataset"):
        len(DataLoader(Stream(), batch_size=2))


@pytest.mark.parametrize("call, kind, words", [
    (lambda: DataLoader(Mixed(), batch_size=0), ValueError, "batch_size"),
    (lambda: DataLoader(Mixed(), num_workers=-1), ValueError, "num_workers"),
    (lambda: DataLoader(Mixed(), shuffle="yes"), TypeError, "shuffle"),
    (lambda: DataLoader(Mixed(), collate_fn=3), TypeError, "collate_fn"),
    (lambda: DataLoader(Stream(), shuffle=True), ValueError, "IterableDataset"),
    (lambda: DataLoader(Mixed(), batch_sampler=BatchSampler(range(3)), batch_size=2),
     ValueError, "batch_sampler"),
    (lambda: BatchSampler(), ValueError, "dataset"),
    (lambda: BatchSampler(sampler=[1], shuffle=True), ValueError, "shuffle"),
    (lambda: RandomSampler(range(3), num_samples=5), ValueError, "num_samples"),
    (lambda: RandomSampler(range(3), replacement=1), TypeError, "replacement"),
    (lambda: list(WeightedRandomSampler([-1.0, 2.0], 2)), ValueError, "weights"),
    (lambda: list(WeightedRandomSampler([0.0, 2.0], 2, replacement=False)), ValueError,
     "replacement"),
    (lambda: SubsetRandomSampler([]), ValueError, "indices"),
    (lambda: DistributedBatchSampler(range(4), 2, num_replicas=2, rank=2), ValueError, "rank"),
    (lambda: TensorDataset([pylayer.ones([2]), pylayer.ones([3])]), ValueError, "first"),
    (lambda: ConcatDataset([[1]])[1], IndexError, "out of range"),
    (lambda: random_split(range(4), [1, 2]), ValueError, "add up"),
    (lambda: next(iter(DataLoader([object()], batch_size=1))), TypeError, "collate_fn"),
])
def test_bad_arguments_name_what_is_wrong(call, kind, words):
    with pytest.raises(kind, match=words):
        call()


def test_a_loader_feeds_a_model_whose_loss_falls():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)
    loader = DataLoader(TensorDataset([pylayer.to_tensor(x), pylayer.to_tensor(y)]),
                        batch_size=16, shuffle=True)
    model = pylayer.nn.Linear(3, 1)
    opt = pylayer.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    losses = []
    for _ in range(5):
        for xb, yb in loader:
            loss = pylayer.nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
    assert losses[-1] < 0.01 * losses[0]


# ----------------------------------------------------------------- workers
def test_workers_give_the_batches_of_one_process_in_order():
    assert labels(DataLoader(Mixed(), batch_size=3, num_workers=2)) == \
        labels(DataLoader(Mixed(), batch_size=3))


def test_large_arrays_cross_through_shared_memory_and_leave_no_file():
    before = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    batches = list(DataLoader(Big(), batch_size=2, num_workers=2))
    assert [float(b[0].numpy().mean()) for b in batches] == [0.5, 2.5, 4.5, 6.0]
    batches[0][0].numpy()[...] = -1.0                  # the batch is the user's to write
    assert float(batches[0][0].numpy().sum()) == -2 * 64 * 64
    after = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    assert not {name for name in after - before if name.startswith("pylayer-io-")}


def test_a_workers_exception_is_raised_again_with_its_traceback():
    with pytest.raises(KeyError, match=r"(?s)worker \d raised KeyError.*no sample 3"):
        list(DataLoader(Fails(), batch_size=2, num_workers=2))


def test_a_worker_that_dies_is_a_clear_error_not_a_hang():
    with pytest.raises(RuntimeError, match="exited unexpectedly"):
        list(DataLoader(Dies(), batch_size=2, num_workers=2))


def test_workers_split_an_iterable_dataset_by_their_info():
    seen = [v for b in DataLoader(Stream(), batch_size=2, num_workers=2)
            for v in b.numpy().ravel().tolist()]
    assert sorted(seen) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_worker_init_fn_runs_in_each_worker_and_persistent_workers_stay():
    loader = DataLoader(WorkerIds(), batch_size=1, num_workers=2, persistent_workers=True,
                        worker_init_fn=_remember_worker)
    first = sorted({int(b.numpy()[0]) for b in loader})
    pool = loader._pool
    second = sorted({int(b.numpy()[0]) for b in loader})
    assert first == second == [100, 101] and loader._pool is pool
    loader._close_pool()


_started = []


def _remember_worker(worker_id):
    _started.append(worker_id + 100)


class WorkerIds(Dataset):
    def __getitem__(self, i):
        return np.int64(_started[-1])

    def __len__(self):
        return 6


def test_workers_are_forked_on_linux_and_leave_no_thread_behind():
    import sys
    import threading
    from pylayer.io.dataloader import _start_method_context
    if sys.platform.startswith("linux"):       # scripts need no main guard, as in Paddle
        assert _start_method_context().get_start_method() == "fork"
    before = {t.ident for t in threading.enumerate()}
    for _ in range(2):                          # a second epoch forks with no feeder alive
        assert labels(DataLoader(Mixed(), batch_size=3, num_workers=2)) == \
            labels(DataLoader(Mixed(), batch_size=3))
    assert {t.ident for t in threading.enumerate()} - before == set()
