"""Run under mpiexec by test_mpi.py: 20 steps of DataParallel on the processes, each on
its part of every batch, give the parameters that one process reaches on the whole
batches (computed here in each process as the reference). Exits 0 when they agree."""
import numpy as np

import pylayer
import pylayer.distributed as dist


def model():
    pylayer.seed(5)
    return pylayer.nn.Sequential(pylayer.nn.Linear(4, 8), pylayer.nn.Tanh(),
                                 pylayer.nn.Linear(8, 1))


def train(net, batches, part=None, accumulate=False):
    optimizer = pylayer.optimizer.SGD(0.1, parameters=net.parameters())
    for x, y in batches:
        if part is not None:
            x, y = x[part], y[part]
        if accumulate and isinstance(net, dist.DataParallel):
            # half of the local batch under no_sync, the other half synchronised
            half = len(x) // 2
            with net.no_sync():
                (((net(pylayer.to_tensor(x[:half])) - pylayer.to_tensor(y[:half])) ** 2)
                 .sum() / len(x)).backward()
            (((net(pylayer.to_tensor(x[half:])) - pylayer.to_tensor(y[half:])) ** 2)
             .sum() / len(x)).backward()
        else:
            loss = ((net(pylayer.to_tensor(x)) - pylayer.to_tensor(y)) ** 2).mean()
            loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    return [p.numpy().copy() for p in net.parameters()]


def main():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    rng = np.random.default_rng(0)
    batches = [(rng.standard_normal((4 * n, 4)).astype("float32"),
                rng.standard_normal((4 * n, 1)).astype("float32")) for _ in range(20)]
    reference = train(model(), batches)
    part = slice(4 * rank, 4 * rank + 4)
    pylayer.seed(100 + rank)          # different initial parameters: DataParallel copies rank 0's
    local = pylayer.nn.Sequential(pylayer.nn.Linear(4, 8), pylayer.nn.Tanh(),
                                  pylayer.nn.Linear(8, 1))
    if rank == 0:
        local.set_state_dict(model().state_dict())
    for accumulate in (False, True):
        net = model() if accumulate else local
        parallel = dist.DataParallel(net)
        assert list(parallel.state_dict()) == list(net.state_dict())
        got = train(parallel, batches, part, accumulate)
        for a, b in zip(got, reference):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    print(f"rank {rank} of {n}: DataParallel equals one process", flush=True)


if __name__ == "__main__":
    main()
