"""Run under mpiexec by test_mpi.py: the ``stream`` forms against their definitions,
with tensors where lists go, on the world and on a group of the even ranks. Exits 0
when all hold."""
import numpy as np
import pytest

import pylayer
import pylayer.distributed as dist
from pylayer.distributed import stream


def rows(rank, n_rows=2):
    return (np.arange(n_rows * 3).reshape(n_rows, 3) + 10 * rank).astype("float32")


def check(group, ranks):
    me = dist.get_rank()
    n, mine = len(ranks), ranks.index(me)
    everyone = [rows(r) for r in ranks]

    x = pylayer.to_tensor(rows(me))
    stream.all_reduce(x, group=group, use_calc_stream=True)
    np.testing.assert_array_equal(x.numpy(), np.sum(everyone, 0))

    out = pylayer.zeros([2 * n, 3])
    stream.all_gather(out, pylayer.to_tensor(rows(me)), group=group)
    np.testing.assert_array_equal(out.numpy(), np.concatenate(everyone))
    out = pylayer.zeros([n])
    stream.all_gather(out, pylayer.to_tensor(float(me)), group=group)   # 0-D: stacked
    np.testing.assert_array_equal(out.numpy(), np.array(ranks, "float32"))
    gathered = []
    stream.all_gather(gathered, pylayer.to_tensor(rows(me)), group=group, sync_op=False).wait()
    np.testing.assert_array_equal(np.stack([t.numpy() for t in gathered]), np.stack(everyone))

    # reduce_scatter from one tensor: process i gets the sum of everyone's i-th rows
    whole = np.concatenate([rows(me, 1) + k for k in range(n)])
    out = pylayer.zeros([1, 3])
    stream.reduce_scatter(out, pylayer.to_tensor(whole), group=group)
    np.testing.assert_array_equal(out.numpy(), sum(rows(r, 1) + mine for r in ranks))

    # scatter from one tensor on the source
    out = pylayer.zeros([2, 3])
    stream.scatter(out, pylayer.to_tensor(np.concatenate(everyone)), src=ranks[0], group=group)
    np.testing.assert_array_equal(out.numpy(), everyone[mine])

    # alltoall with tensors: part j of process i goes to process j
    sent = np.concatenate([rows(me, 1) + 100 * j for j in range(n)])
    out = pylayer.zeros([n, 3])
    stream.alltoall(out, pylayer.to_tensor(sent), group=group)
    np.testing.assert_array_equal(out.numpy(),
                                  np.concatenate([rows(r, 1) + 100 * mine for r in ranks]))
    outs = []
    stream.alltoall(outs, [pylayer.to_tensor(rows(me, 1) + 100 * j) for j in range(n)],
                    group=group)
    np.testing.assert_array_equal(np.concatenate([t.numpy() for t in outs]), out.numpy())
    out = pylayer.zeros([n, 3])
    stream.alltoall_single(out, pylayer.to_tensor(sent), [1] * n, [1] * n, group=group)
    np.testing.assert_array_equal(out.numpy(),
                                  np.concatenate([rows(r, 1) + 100 * mine for r in ranks]))

    x = pylayer.to_tensor(rows(me))
    stream.broadcast(x, src=ranks[-1], group=group)
    np.testing.assert_array_equal(x.numpy(), everyone[-1])
    x = pylayer.to_tensor(rows(me))
    stream.reduce(x, dst=ranks[0], op=dist.ReduceOp.MAX, group=group)
    np.testing.assert_array_equal(x.numpy(), everyone[-1] if mine == 0 else everyone[mine])
    listed = [] if mine == 0 else None
    stream.gather(pylayer.to_tensor(rows(me)), listed, dst=ranks[0], group=group)
    if mine == 0:
        np.testing.assert_array_equal(np.stack([t.numpy() for t in listed]), np.stack(everyone))

    # send/recv around the ring of the group
    right, left = ranks[(mine + 1) % n], ranks[(mine - 1) % n]
    task = stream.send(pylayer.to_tensor(rows(me)), dst=right, group=group, sync_op=False)
    got = pylayer.zeros([2, 3])
    stream.recv(got, src=left, group=group)
    task.wait()
    np.testing.assert_array_equal(got.numpy(), rows(left))

    with pytest.raises(RuntimeError, match="use_calc_stream can only be True with sync_op"):
        stream.all_reduce(x, group=group, sync_op=False, use_calc_stream=True)
    with pytest.raises(ValueError, match="divisible"):
        stream.reduce_scatter(out, pylayer.to_tensor(1.0), group=group)


def main():
    dist.init_parallel_env()
    n = dist.get_world_size()
    check(None, list(range(n)))
    evens = list(range(0, n, 2))
    group = dist.new_group(evens)
    if dist.get_rank() in evens:
        check(group, evens)
    else:
        assert stream.all_reduce(pylayer.ones([1]), group=group) is None
        with pytest.raises(RuntimeError, match="not a member"):
            stream.all_gather([], pylayer.ones([1]), group=group)
    dist.barrier()
    # A group shut down refuses collectives until it is restarted (a new communicator).
    dist.shutdown_process_group()
    if dist.get_rank() in evens:
        with pytest.raises(RuntimeError, match="was shut down"):
            dist.all_reduce(pylayer.ones([1]), group=group)
    dist.all_reduce(pylayer.ones([1]))              # the world is left alone
    dist.restart_process_group()
    if dist.get_rank() in evens:
        x = pylayer.ones([1])
        dist.all_reduce(x, group=group)
        assert x.item() == len(evens)
    dist.shutdown_process_group(dist.get_group(0))       # the world itself, on every rank
    with pytest.raises(RuntimeError, match="was shut down"):
        dist.all_reduce(pylayer.ones([1]))
    dist.restart_process_group(dist.get_group(0))
    x = pylayer.ones([1])
    dist.all_reduce(x)
    assert x.item() == n
    print(f"rank {dist.get_rank()}: every stream form holds", flush=True)


if __name__ == "__main__":
    main()
