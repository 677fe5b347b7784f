"""Run under mpiexec by test_mpi.py: SyncBatchNorm on the processes, each with its part
of a batch, equals BatchNorm on the whole batch in one process (computed here in each
process as the reference): the output, the input's gradient, the weight's and bias's
gradients (summed over the processes), the running statistics; channels first and
last, a model converted by convert_sync_batchnorm. Exits 0 when all hold."""
import numpy as np

import pylayer
import pylayer.distributed as dist


def check(shape, data_format, reference_layer):
    rank, n = dist.get_rank(), dist.get_world_size()
    rng = np.random.default_rng(3)
    whole = rng.standard_normal((2 * n,) + shape).astype("float32") * 3 + 1
    upstream = rng.standard_normal(whole.shape).astype("float32")
    part = slice(2 * rank, 2 * rank + 2)
    channels = shape[-1] if data_format[-1] == "C" else shape[0]

    reference = reference_layer(channels, data_format=data_format)
    x = pylayer.to_tensor(whole, stop_gradient=False)
    y = reference(x)
    (y * pylayer.to_tensor(upstream)).sum().backward()

    layer = pylayer.nn.SyncBatchNorm(channels, data_format=data_format)
    mine = pylayer.to_tensor(whole[part], stop_gradient=False)
    out = layer(mine)
    (out * pylayer.to_tensor(upstream[part])).sum().backward()
    np.testing.assert_allclose(out.numpy(), y.numpy()[part], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mine.grad.numpy(), x.grad.numpy()[part], rtol=1e-4, atol=1e-5)
    for got, want in ((layer.weight.grad, reference.weight.grad),
                      (layer.bias.grad, reference.bias.grad)):
        total = got.clone()
        dist.all_reduce(total)
        np.testing.assert_allclose(total.numpy(), want.numpy(), rtol=1e-4, atol=1e-4)
    for got, want in ((layer._mean, reference._mean), (layer._variance, reference._variance)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    layer.eval()
    reference.eval()
    np.testing.assert_allclose(layer(mine).numpy(), reference(x).numpy()[part], rtol=1e-5,
                               atol=1e-5)


def main():
    dist.init_parallel_env()
    check((3,), "NC", pylayer.nn.BatchNorm1D)
    check((3, 5), "NCL", pylayer.nn.BatchNorm1D)
    check((2, 3, 4), "NCHW", pylayer.nn.BatchNorm2D)
    check((3, 4, 2), "NHWC", pylayer.nn.BatchNorm2D)
    model = pylayer.nn.SyncBatchNorm.convert_sync_batchnorm(
        pylayer.nn.Sequential(pylayer.nn.Conv2D(2, 3, 1), pylayer.nn.BatchNorm2D(3)))
    assert isinstance(model[1], pylayer.nn.SyncBatchNorm)
    out = model(pylayer.ones([1, 2, 2, 2]) * (dist.get_rank() + 1))
    gathered = []
    dist.all_gather(gathered, model[1]._mean)
    assert all(np.array_equal(g.numpy(), gathered[0].numpy()) for g in gathered)
    assert out.shape == [1, 3, 2, 2]
    print(f"rank {dist.get_rank()} of {dist.get_world_size()}: SyncBatchNorm equals "
          f"BatchNorm on the whole batch", flush=True)


if __name__ == "__main__":
    main()
