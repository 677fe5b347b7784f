"""Run under mpiexec by test_mpi.py: every collective against its definition, in every
dtype, on the world and on a group of the even ranks. Exits 0 when all hold."""
import numpy as np

import pylayer
import pylayer.distributed as dist

DTYPES = ["float32", "float64", "float16", "bfloat16", "int32", "int64", "uint8", "bool",
          "complex64", "complex128"]


def value(rank, dtype, shape=(2, 3)):
    """Rank's tensor: distinct per rank and element, exact in every dtype."""
    base = np.arange(np.prod(shape)).reshape(shape) % 5 + rank + 1
    if dtype == "bool":
        return pylayer.to_tensor((base + rank) % 2 == 0)
    if dtype.startswith("complex"):
        return pylayer.to_tensor(base + 1j * (base - rank), dtype=dtype)
    return pylayer.to_tensor(base, dtype=dtype)


def same(tensor, expected, what):
    got = tensor.numpy().astype(np.complex128 if np.iscomplexobj(expected) else np.float64)
    want = np.asarray(expected).astype(got.dtype)
    if not np.array_equal(got, want):
        raise AssertionError(f"{what}: rank {dist.get_rank()} got {got.tolist()}, "
                             f"expected {want.tolist()}")


def check(group, ranks):
    me = dist.get_rank()
    n = len(ranks)
    mine = ranks.index(me)
    for dtype in DTYPES:
        everyone = [value(r, dtype).numpy() for r in ranks]
        ops = [(dist.ReduceOp.SUM, lambda a: np.sum(a, 0) if a[0].dtype != bool else np.any(a, 0))]
        if not dtype.startswith("complex"):
            ops += [(dist.ReduceOp.MAX, lambda a: np.max(a, 0)),
                    (dist.ReduceOp.MIN, lambda a: np.min(a, 0))]
        if dtype in ("float32", "float64", "int64"):
            ops += [(dist.ReduceOp.PROD, lambda a: np.prod(a, 0))]
        if dtype in ("float32", "float64"):
            ops += [(dist.ReduceOp.AVG, lambda a: np.mean(a, 0))]
        for op, definition in ops:
            expected = definition(np.stack(everyone))
            for sync in (True, False):
                x = value(me, dtype)
                view = x[0]
                version = x.inplace_version
                task = dist.all_reduce(x, op, group=group, sync_op=sync)
                task.wait()
                same(x, expected, f"all_reduce {dtype} op {op} sync {sync}")
                same(view, expected[0], f"all_reduce {dtype}: a view sees the write")
                assert x.inplace_version > version, "all_reduce bumps the version"
            x = value(me, dtype)
            dist.reduce(x, dst=ranks[-1], op=op, group=group)
            same(x, expected if mine == n - 1 else everyone[mine], f"reduce {dtype} {op}")
            out = pylayer.zeros([3], dtype=dtype)
            parts = [pylayer.to_tensor(np.roll(value(me, dtype).numpy()[0], i)) for i in range(n)]
            dist.reduce_scatter(out, parts, op=op, group=group)
            rolled = np.stack([np.roll(e[0], mine) for e in everyone])
            same(out, definition(rolled), f"reduce_scatter {dtype} {op}")
        for sync in (True, False):
            x = value(me, dtype)
            dist.broadcast(x, src=ranks[0], group=group, sync_op=sync).wait()
            same(x, everyone[0], f"broadcast {dtype}")
        strided = pylayer.to_tensor(value(me, dtype).numpy().T.copy()).t()  # not contiguous
        dist.broadcast(strided, src=ranks[-1], group=group)
        same(strided, everyone[-1], f"broadcast into a strided tensor {dtype}")
        strided = pylayer.to_tensor(value(me, dtype).numpy().T.copy()).t()
        dist.all_reduce(strided, group=group)
        same(strided, ops[0][1](np.stack(everyone)), f"all_reduce of a strided tensor {dtype}")
        gathered = []
        dist.all_gather(gathered, value(me, dtype), group=group)
        for got, want in zip(gathered, everyone):
            same(got, want, f"all_gather {dtype}")
        assert len(gathered) == n
        given = [pylayer.zeros([2, 3], dtype=dtype) for _ in ranks]
        dist.all_gather(given, value(me, dtype), group=group)
        for got, want in zip(given, everyone):
            same(got, want, f"all_gather into a list {dtype}")
        gathered = []
        dist.gather(value(me, dtype), gathered, dst=ranks[0], group=group)
        if mine == 0:
            for got, want in zip(gathered, everyone):
                same(got, want, f"gather {dtype}")
        else:
            assert gathered == []
        out = pylayer.zeros([2, 3], dtype=dtype)
        source = [value(r, dtype) for r in ranks]
        dist.scatter(out, source if mine == 0 else None, src=ranks[0], group=group)
        same(out, everyone[mine], f"scatter {dtype}")
        sent = [pylayer.to_tensor(value(me, dtype).numpy()[j % 2]) for j in range(n)]
        received = []
        dist.alltoall(received, sent, group=group)
        for i, got in enumerate(received):
            same(got, everyone[i][mine % 2], f"alltoall {dtype}")
        rows = np.concatenate([value(me, dtype).numpy()] * n)          # 2n rows
        out = pylayer.zeros([2 * n, 3], dtype=dtype)
        dist.alltoall_single(out, pylayer.to_tensor(rows), group=group)
        same(out, np.concatenate([e for e in everyone]), f"alltoall_single {dtype}")
        # uneven splits: rank i sends i+1 rows to every process
        sizes = [mine + 1] * n
        rows = np.concatenate([np.full((mine + 1, 3), mine)] * n).astype(
            value(0, dtype).numpy().dtype)
        out = pylayer.zeros([sum(i + 1 for i in range(n)), 3], dtype=dtype)
        dist.alltoall_single(out, pylayer.to_tensor(rows), sizes,
                             [i + 1 for i in range(n)], group=group)
        same(out, np.concatenate([np.full((i + 1, 3), i) for i in range(n)]).astype(
            rows.dtype), f"alltoall_single uneven {dtype}")
        # point to point in a ring
        after, before = ranks[(mine + 1) % n], ranks[(mine - 1) % n]
        out = pylayer.zeros([2, 3], dtype=dtype)
        if mine % 2 == 0:
            dist.send(value(me, dtype), dst=after, group=group)
            dist.recv(out, src=before, group=group)
        else:
            dist.recv(out, src=before, group=group)
            dist.send(value(me, dtype), dst=after, group=group)
        same(out, everyone[(mine - 1) % n], f"send/recv {dtype}")
        out = pylayer.zeros([2, 3], dtype=dtype)
        tasks = [dist.isend(value(me, dtype), after, group=group),
                 dist.irecv(out, before, group=group)]
        for task in tasks:
            task.wait()
        same(out, everyone[(mine - 1) % n], f"isend/irecv {dtype}")
        out = pylayer.zeros([2, 3], dtype=dtype)
        ops = [dist.P2POp(dist.irecv, out, before, group),           # receives first: no
               dist.P2POp(dist.isend, value(me, dtype), after, group)]  # deadlock in a batch
        for task in dist.batch_isend_irecv(ops):
            task.wait()
        same(out, everyone[(mine - 1) % n], f"batch_isend_irecv {dtype}")
    objects = []
    dist.all_gather_object(objects, {"rank": me}, group=group)
    assert objects == [{"rank": r} for r in ranks], objects
    objects = [me, "x"] if mine == 0 else [None]
    dist.broadcast_object_list(objects, src=ranks[0], group=group)
    assert objects == [ranks[0], "x"], objects
    out = []
    dist.scatter_object_list(out, [[r] for r in ranks] if mine == 0 else None, src=ranks[0],
                             group=group)
    assert out == [[me]], out
    if mine == 0:
        dist.send_object_list([{"from": me}, 3], dst=ranks[1], group=group)
    elif mine == 1:
        got = [None, None]
        dist.recv_object_list(got, src=ranks[0], group=group)
        assert got == [{"from": ranks[0]}, 3], got
    dist.barrier(group)


class GatherSequence(pylayer.autograd.PyLayer):
    """The guide's sequence-parallel PyLayer: all_gather forward, reduce_scatter backward."""

    @staticmethod
    def forward(ctx, part):
        parts = []
        dist.all_gather(parts, part)
        return pylayer.concat(parts, axis=0)

    @staticmethod
    def backward(ctx, grad):
        n = dist.get_world_size()
        mine = pylayer.zeros([grad.shape[0] // n] + grad.shape[1:], dtype=grad.dtype)
        dist.reduce_scatter(mine, list(pylayer.split(grad, n, axis=0)))
        return mine


def check_pylayer():
    """Forward: the whole sequence; backward: each process's part of the gradient of the
    sum over processes of the same loss, as one process computes it on the whole."""
    me, n = dist.get_rank(), dist.get_world_size()
    rng = np.random.default_rng(1)
    whole = rng.standard_normal((2 * n, 3))
    weight = pylayer.to_tensor(rng.standard_normal((2 * n, 3)))
    part = pylayer.to_tensor(whole[2 * me:2 * me + 2], stop_gradient=False)
    gathered = GatherSequence.apply(part)
    same(gathered, whole, "GatherSequence forward")
    (pylayer.tanh(gathered) * weight).sum().backward()
    reference = pylayer.to_tensor(whole, stop_gradient=False)
    (pylayer.tanh(reference) * weight).sum().backward()
    expected = n * reference.grad.numpy()[2 * me:2 * me + 2]
    np.testing.assert_allclose(part.grad.numpy(), expected, rtol=1e-12)


def main():
    world = dist.init_parallel_env()
    n = dist.get_world_size()
    assert n > 1 and world.nranks == n
    import os
    assert os.environ["PADDLE_TRAINER_ID"] == str(dist.get_rank())
    assert os.environ["PADDLE_TRAINERS_NUM"] == str(n)
    assert dist.ParallelEnv().rank == dist.get_rank()
    check(None, list(range(n)))
    check_pylayer()
    evens = [r for r in range(n) if r % 2 == 0]
    reverse = list(reversed(range(n)))
    group_evens = dist.new_group(evens)
    group_reverse = dist.new_group(reverse)
    if len(evens) > 1 and dist.get_rank() in evens:
        check(group_evens, evens)
    check(group_reverse, reverse)
    if dist.get_rank() not in evens:
        assert group_evens.rank == -1 and not group_evens.is_member()
    dist.barrier()
    print(f"rank {dist.get_rank()} of {n}: all collectives hold", flush=True)


if __name__ == "__main__":
    main()
