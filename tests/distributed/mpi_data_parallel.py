"""Run under mpiexec by test_mpi.py: 20 steps of DataParallel on the processes, each on
its part of every batch, give the parameters that one process reaches on the whole
batches (computed here in each process as the reference): with one bucket and with
one per parameter, with no_sync accumulation, with parameters that some steps leave
unused (find_unused_parameters=True). Gradients of float16 and bfloat16 parameters
are averaged; an unused parameter without find_unused_parameters is an error.
Exits 0 when all hold."""
import numpy as np
import pytest

import pylayer
import pylayer.distributed as dist


class Net(pylayer.nn.Layer):
    """Linear-Tanh-Linear, with a branch used on even steps only and a layer never used."""

    def __init__(self):
        super().__init__()
        self.first = pylayer.nn.Linear(4, 8)
        self.branch = pylayer.nn.Linear(8, 8)
        self.never = pylayer.nn.Linear(3, 3)
        self.last = pylayer.nn.Linear(8, 1)

    def forward(self, x, use_branch=False):
        h = pylayer.tanh(self.first(x))
        if use_branch:
            h = h + self.branch(h)
        return self.last(h)


def model(seed=5):
    pylayer.seed(seed)
    return Net()


def train(net, batches, part=None, accumulate=False, branches=False):
    optimizer = pylayer.optimizer.SGD(0.1, parameters=net.parameters())
    for step, (x, y) in enumerate(batches):
        use = branches and step % 2 == 0
        if part is not None:
            x, y = x[part], y[part]
        if accumulate and isinstance(net, dist.DataParallel):
            # half of the local batch under no_sync, the other half synchronised
            half = len(x) // 2
            with net.no_sync():
                (((net(pylayer.to_tensor(x[:half]), use) - pylayer.to_tensor(y[:half])) ** 2)
                 .sum() / len(x)).backward()
            (((net(pylayer.to_tensor(x[half:]), use) - pylayer.to_tensor(y[half:])) ** 2)
             .sum() / len(x)).backward()
        else:
            loss = ((net(pylayer.to_tensor(x), use) - pylayer.to_tensor(y)) ** 2).mean()
            loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    return [p.numpy().copy() for p in net.parameters()]


def check_average(dtype):
    """One backward of a model of ``dtype``: every gradient is the processes' average."""
    def linear():
        pylayer.seed(1)
        layer = pylayer.nn.Linear(3, 2)
        for p in layer.parameters():
            p.set_value(p.astype(dtype))
        return layer
    net = linear()
    parallel = dist.DataParallel(net, comm_buffer_size=1e-5, last_comm_buffer_size=1e-5)
    x = pylayer.to_tensor(np.arange(6.0).reshape(2, 3) + dist.get_rank(), dtype=dtype)
    parallel(x).sum().backward()
    alone = linear()
    grads = []
    for rank in range(dist.get_world_size()):
        alone.clear_gradients()
        alone(pylayer.to_tensor(np.arange(6.0).reshape(2, 3) + rank, dtype=dtype)).sum().backward()
        grads.append([p.grad.astype("float32").numpy() for p in alone.parameters()])
    for i, p in enumerate(net.parameters()):
        assert p.grad.dtype == p.dtype
        expected = np.mean([g[i] for g in grads], axis=0)
        np.testing.assert_allclose(p.grad.astype("float32").numpy(), expected, rtol=1e-2)


def main():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    rng = np.random.default_rng(0)
    batches = [(rng.standard_normal((4 * n, 4)).astype("float32"),
                rng.standard_normal((4 * n, 1)).astype("float32")) for _ in range(20)]
    part = slice(4 * rank, 4 * rank + 4)
    cases = [  # (no_sync accumulation, branch on even steps, DataParallel's arguments)
        (False, False, dict(find_unused_parameters=True)),
        (True, False, dict(find_unused_parameters=True)),
        (False, True, dict(find_unused_parameters=True)),
        (True, True, dict(find_unused_parameters=True, comm_buffer_size=1e-4,
                          last_comm_buffer_size=1e-5)),
    ]
    for accumulate, branches, arguments in cases:
        reference = train(model(), batches, branches=branches)
        net = model(100 + rank)       # different initial parameters: DataParallel copies rank 0's
        if rank == 0:
            net.set_state_dict(model().state_dict())
        parallel = dist.DataParallel(net, **arguments)
        if "comm_buffer_size" in arguments:
            assert len(parallel._reducer.buckets) > 3
        assert list(parallel.state_dict()) == list(net.state_dict())
        got = train(parallel, batches, part, accumulate, branches)
        for a, b in zip(got, reference):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    for dtype in ("float32", "float16", "bfloat16"):
        check_average(dtype)
    # An unused parameter without find_unused_parameters: an error, in every process.
    parallel = dist.DataParallel(model())
    with pytest.raises(RuntimeError, match=r"never\.weight, never\.bias.*find_unused_parameters"):
        parallel(pylayer.ones([2, 4])).sum().backward()
    # A frozen parameter is left alone (no gradient, no communication).
    frozen = model()
    frozen.never.weight.stop_gradient = True
    frozen.never.bias.stop_gradient = True
    parallel = dist.DataParallel(frozen)
    parallel(pylayer.full([2, 4], float(rank)), True).sum().backward()
    assert frozen.never.weight.grad is None
    print(f"rank {rank} of {n}: DataParallel equals one process", flush=True)


if __name__ == "__main__":
    main()
