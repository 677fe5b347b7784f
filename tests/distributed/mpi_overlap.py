"""Run under mpiexec by test_overlap.py: DataParallel's reductions start during backward.
A parameter's gradient is delivered (its hooks run) as soon as it is complete, so by
the time the oldest node of the step runs (a PyLayer on the input, older than every
layer), every bucket has been launched, and the averaged gradients are still right.
Exits 0 when all hold."""
import numpy as np

import pylayer
import pylayer.distributed as dist
from pylayer.autograd import PyLayer

launched = []


class Watch(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, dy):
        launched.append(reducer.next_bucket)
        return dy


dist.init_parallel_env()
rank, world = dist.get_rank(), dist.get_world_size()
pylayer.seed(3)
net = pylayer.nn.Sequential(pylayer.nn.Linear(4, 8), pylayer.nn.Tanh(), pylayer.nn.Linear(8, 1))
parallel = dist.DataParallel(net, comm_buffer_size=1e-6, last_comm_buffer_size=1e-6)
reducer = parallel._reducer
x_all = np.random.default_rng(0).standard_normal((2 * world, 4)).astype("float32")
x = pylayer.to_tensor(x_all[2 * rank:2 * rank + 2], stop_gradient=False)
loss = parallel(Watch.apply(x)).sum() / 2          # DataParallel averages over processes
loss.backward()
assert len(reducer.buckets) > 1
assert launched == [len(reducer.buckets)], (launched, len(reducer.buckets))

pylayer.seed(3)
alone = pylayer.nn.Sequential(pylayer.nn.Linear(4, 8), pylayer.nn.Tanh(), pylayer.nn.Linear(8, 1))
(alone(pylayer.to_tensor(x_all)).sum() / (2 * world)).backward()
for p, q in zip(net.parameters(), alone.parameters()):
    np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5, atol=1e-6)
print("reductions overlap backward", flush=True)
