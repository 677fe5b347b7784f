"""Run under mpiexec by test_mpi_fleet in test_fleet.py (2 or 4 processes): fleet's
hybrid groups, each tensor-parallel layer and mp_ops PyLayer, each sequence-parallel
PyLayer and layer, a tensor-parallel MLP trained 5 steps, recompute under tensor
parallelism, and the guide's gather/reduce-scatter PyLayer, against the same
computation on the whole tensors in one process (computed here in every process).
The model-parallel degree is 2; with 4 processes the data-parallel degree is 2.
Exits 0 when everything agrees."""
import numpy as np

import pylayer
import pylayer.distributed as dist
import pylayer.nn.functional as F
from pylayer.autograd import PyLayer, once_differentiable
from pylayer.distributed import fleet
from pylayer.distributed.fleet.layers.mpu import mp_ops
from pylayer.distributed.fleet.meta_parallel import (ColumnParallelLinear, ParallelCrossEntropy,
                                                     RowParallelLinear, VocabParallelEmbedding,
                                                     get_rng_state_tracker)
from pylayer.distributed.fleet.utils import hybrid_parallel_util, recompute
from pylayer.distributed.fleet.utils import sequence_parallel_utils as sp

MP = 2


def close(a, b, what):
    a = a.numpy() if isinstance(a, pylayer.Tensor) else np.asarray(a)
    b = b.numpy() if isinstance(b, pylayer.Tensor) else np.asarray(b)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=what)


def tensor(array, grad=True):
    t = pylayer.to_tensor(np.asarray(array, dtype="float32"))
    t.stop_gradient = not grad
    return t


def check_groups(n):
    hcg = fleet.get_hybrid_communicate_group()
    rank = dist.get_rank()
    assert hcg.get_global_rank() == rank
    assert hcg.get_model_parallel_world_size() == MP
    assert hcg.get_data_parallel_world_size() == n // MP
    assert hcg.get_model_parallel_rank() == rank % MP
    assert hcg.get_data_parallel_rank() == rank // MP
    # Paddle's axis order: dp outermost, mp innermost
    assert hcg.get_model_parallel_group().ranks == [rank // MP * MP + i for i in range(MP)]
    assert hcg.get_data_parallel_group().ranks == list(range(rank % MP, n, MP))
    assert hcg.get_model_parallel_group_src_rank() == rank // MP * MP
    assert hcg.get_pipe_parallel_group().ranks == [rank]
    assert hcg.get_check_parallel_group().ranks == \
        hcg.topology().get_axis_list("data", hcg.get_data_parallel_rank())
    assert hcg.get_parallel_mode() == dist.ParallelMode.TENSOR_PARALLEL
    x = pylayer.to_tensor([float(rank)])
    dist.all_reduce(x, group=hcg.get_model_parallel_group())
    assert x.item() == sum(hcg.get_model_parallel_group().ranks)
    assert fleet.worker_num() == n and fleet.worker_index() == rank
    assert fleet.util.all_gather(rank) == list(range(n))
    assert fleet.util.all_reduce([rank, 1], "sum").tolist() == [n * (n - 1) // 2, n]


def check_mp_ops(group):
    r = group.rank
    rng = np.random.default_rng(1)
    full = rng.standard_normal((3, 4)).astype("float32")
    up = rng.standard_normal((3, 4)).astype("float32")
    part = slice(2 * r, 2 * r + 2)
    # _c_split: my columns; gradient gathered back
    x = tensor(full)
    y = mp_ops._c_split(x, group=group)
    close(y, full[:, part], "_c_split forward")
    (y * tensor(up[:, part], False)).sum().backward()
    summed = np.zeros_like(full)
    summed[:, part] = up[:, part]
    total = pylayer.to_tensor(summed)
    dist.all_reduce(total, group=group)
    close(x.grad, total, "_c_split backward")
    # _c_concat: gather columns; gradient: my columns
    x = tensor(full[:, part])
    y = mp_ops._c_concat(x, group=group)
    close(y, full, "_c_concat forward")
    (y * tensor(up, False)).sum().backward()
    close(x.grad, up[:, part], "_c_concat backward")
    # _c_identity: identity; gradient summed
    x = tensor(full)
    y = mp_ops._c_identity(x, group=group)
    close(y, full, "_c_identity forward")
    (y * tensor(up * (r + 1), False)).sum().backward()
    close(x.grad, up * sum(i + 1 for i in range(group.nranks)), "_c_identity backward")
    # _mp_allreduce: sum; gradient passes
    x = tensor(full * (r + 1))
    y = mp_ops._mp_allreduce(x, group=group)
    close(y, full * 3, "_mp_allreduce forward")
    (y * tensor(up, False)).sum().backward()
    close(x.grad, up, "_mp_allreduce backward")


def reference_grads(make, x_value, up):
    layer = make()
    x = tensor(x_value)
    (layer(x) * tensor(up, False)).sum().backward()
    return layer, x


def check_layers(group):
    r = group.rank
    rng = np.random.default_rng(2)
    w = rng.standard_normal((6, 4)).astype("float32")
    b = rng.standard_normal(4).astype("float32")
    xv = rng.standard_normal((5, 6)).astype("float32")
    up = rng.standard_normal((5, 4)).astype("float32")

    def whole():
        layer = pylayer.nn.Linear(6, 4)
        layer.weight.set_value(w)
        layer.bias.set_value(b)
        return layer
    ref, rx = reference_grads(whole, xv, up)
    out_ref = ref(tensor(xv))
    cols = slice(2 * r, 2 * r + 2)
    rows = slice(3 * r, 3 * r + 3)
    for gather in (True, False):
        layer = ColumnParallelLinear(6, 4, has_bias=True, gather_output=gather)
        assert layer.weight.shape == [6, 2] and layer.weight.is_distributed
        assert layer.weight.split_axis == 1 and layer.bias.is_distributed
        layer.weight.set_value(w[:, cols])
        layer.bias.set_value(b[cols])
        x = tensor(xv)
        y = layer(x)
        close(y, out_ref if gather else out_ref.numpy()[:, cols], "ColumnParallelLinear")
        (y * tensor(up if gather else up[:, cols], False)).sum().backward()
        close(layer.weight.grad, ref.weight.grad.numpy()[:, cols], "Column weight grad")
        close(layer.bias.grad, ref.bias.grad.numpy()[cols], "Column bias grad")
        close(x.grad, rx.grad, "Column input grad")
    for parallel in (False, True):
        layer = RowParallelLinear(6, 4, input_is_parallel=parallel)
        assert layer.weight.shape == [3, 4] and layer.weight.is_distributed
        assert layer.bias.shape == [4] and not layer.bias.is_distributed
        layer.weight.set_value(w[rows])
        layer.bias.set_value(b)
        x = tensor(xv[:, rows] if parallel else xv)
        y = layer(x)
        close(y, out_ref, "RowParallelLinear")
        (y * tensor(up, False)).sum().backward()
        close(layer.weight.grad, ref.weight.grad.numpy()[rows], "Row weight grad")
        close(layer.bias.grad, ref.bias.grad, "Row bias grad")
        close(x.grad, rx.grad.numpy()[:, rows] if parallel else rx.grad, "Row input grad")
    # VocabParallelEmbedding: 8 ids, 4 per process
    table = rng.standard_normal((8, 3)).astype("float32")
    ids = pylayer.to_tensor(np.array([[0, 5, 7], [3, 4, 5]], dtype="int64"))
    up = rng.standard_normal((2, 3, 3)).astype("float32")
    emb = VocabParallelEmbedding(8, 3)
    assert emb.weight.shape == [4, 3] and emb.weight.split_axis == 0
    emb.weight.set_value(table[4 * r:4 * r + 4])
    whole_emb = pylayer.nn.Embedding(8, 3)
    whole_emb.weight.set_value(table)
    y = emb(ids)
    close(y, whole_emb(ids), "VocabParallelEmbedding")
    (y * tensor(up, False)).sum().backward()
    (whole_emb(ids) * tensor(up, False)).sum().backward()
    close(emb.weight.grad, whole_emb.weight.grad.numpy()[4 * r:4 * r + 4], "embedding grad")
    # ParallelCrossEntropy over 6 classes, 3 per process, one label ignored
    logits = rng.standard_normal((4, 6)).astype("float32")
    label = pylayer.to_tensor(np.array([[0], [5], [-100], [3]], dtype="int64"))
    x = tensor(logits[:, 3 * r:3 * r + 3])
    loss = ParallelCrossEntropy()(x, label)
    whole_x = tensor(logits)
    ref_loss = F.cross_entropy(whole_x, label, reduction="none")
    close(loss, ref_loss, "ParallelCrossEntropy")
    weights = tensor([[1.0], [2.0], [3.0], [4.0]], False)
    (loss * weights).sum().backward()
    (ref_loss * weights).sum().backward()
    close(x.grad, whole_x.grad.numpy()[:, 3 * r:3 * r + 3], "ParallelCrossEntropy grad")


def check_sequence_parallel(group):
    r, n = group.rank, group.nranks
    rng = np.random.default_rng(3)
    full = rng.standard_normal((4, 2, 3)).astype("float32")
    up = rng.standard_normal((4, 2, 3)).astype("float32")
    mine = slice(2 * r, 2 * r + 2)
    x = tensor(full)
    y = sp.ScatterOp.apply(x)
    close(y, full[mine], "ScatterOp")
    (y * tensor(up[mine], False)).sum().backward()
    expected = np.zeros_like(full)
    expected[mine] = up[mine]
    gathered = pylayer.to_tensor(expected)
    dist.all_reduce(gathered, group=group)
    close(x.grad, gathered, "ScatterOp backward")
    x = tensor(full[mine])
    y = sp.GatherOp.apply(x)
    close(y, full, "GatherOp")
    (y * tensor(up, False)).sum().backward()
    close(x.grad, up[mine], "GatherOp backward")
    x = tensor(full[mine])
    y = sp.AllGatherOp.apply(x)
    close(y, full, "AllGatherOp")
    (y * tensor(up * (r + 1), False)).sum().backward()
    close(x.grad, up[mine] * sum(range(1, n + 1)), "AllGatherOp backward")
    x = tensor(full * (r + 1))
    y = sp.ReduceScatterOp.apply(x)
    close(y, full[mine] * sum(range(1, n + 1)), "ReduceScatterOp")
    (y * tensor(up[mine], False)).sum().backward()
    close(x.grad, gathered, "ReduceScatterOp backward")
    # a sequence-parallel MLP block: seq-split input -> Column -> Row -> seq-split output
    w1 = rng.standard_normal((3, 4)).astype("float32")
    w2 = rng.standard_normal((4, 3)).astype("float32")
    b2 = rng.standard_normal(3).astype("float32")
    col = sp.ColumnSequenceParallelLinear(3, 4, has_bias=False, gather_output=False)
    row = sp.RowSequenceParallelLinear(4, 3, input_is_parallel=True)
    col.weight.set_value(w1[:, 2 * r:2 * r + 2])
    row.weight.set_value(w2[2 * r:2 * r + 2])
    row.bias.set_value(b2)
    assert sp.is_sequence_parallel_parameter(row.bias)
    block = pylayer.nn.Sequential(col, pylayer.nn.ReLU(), row)
    sp.register_sequence_parallel_allreduce_hooks(block, 1, False)
    x = tensor(full[mine])
    y = block(x)
    ref = pylayer.nn.Sequential(pylayer.nn.Linear(3, 4, bias_attr=False), pylayer.nn.ReLU(),
                                pylayer.nn.Linear(4, 3))
    ref[0].weight.set_value(w1)
    ref[2].weight.set_value(w2)
    ref[2].bias.set_value(b2)
    rx = tensor(full)
    ry = ref(rx)
    close(y, ry.numpy()[mine], "sequence-parallel block")
    (y * tensor(up[mine], False)).sum().backward()
    (ry * tensor(up, False)).sum().backward()
    close(x.grad, rx.grad.numpy()[mine], "sequence-parallel input grad")
    close(col.weight.grad, ref[0].weight.grad.numpy()[:, 2 * r:2 * r + 2], "seq column grad")
    close(row.weight.grad, ref[2].weight.grad.numpy()[2 * r:2 * r + 2], "seq row grad")
    close(row.bias.grad, ref[2].bias.grad, "seq bias grad (hooks)")


class AllGatherSequence(PyLayer):
    """The guide's example (docs/en/guides/distributed.rst, "Tensor and sequence
    parallel, recompute"), as written there."""

    @staticmethod
    def forward(ctx, part, group):
        ctx.group = group
        parts = []
        dist.all_gather(parts, part, group=group)
        return pylayer.concat(parts, axis=0)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        n = ctx.group.nranks
        mine = pylayer.empty([grad.shape[0] // n] + grad.shape[1:], dtype=grad.dtype)
        dist.reduce_scatter(mine, list(pylayer.split(grad, n, axis=0)), group=ctx.group)
        return mine


def check_guide_pylayer(group):
    for group in (group, dist.get_group(0)):
        r, n = group.rank, group.nranks
        x = tensor(np.full((2, 3), r, dtype="float32"))
        y = AllGatherSequence.apply(x, group)
        close(y, np.repeat(np.arange(n, dtype="float32"), 2)[:, None].repeat(3, 1),
              "the guide's PyLayer")
        (y * (r + 1)).sum().backward()
        close(x.grad, np.full((2, 3), sum(range(1, n + 1)), "float32"),
              "the guide's PyLayer backward")


def mlp(hidden_parallel):
    if hidden_parallel:
        return pylayer.nn.Sequential(ColumnParallelLinear(4, 8, has_bias=True,
                                                          gather_output=False),
                                     pylayer.nn.Tanh(),
                                     RowParallelLinear(8, 2, input_is_parallel=True))
    return pylayer.nn.Sequential(pylayer.nn.Linear(4, 8), pylayer.nn.Tanh(),
                                 pylayer.nn.Linear(8, 2))


def check_training(n):
    hcg = fleet.get_hybrid_communicate_group()
    r = hcg.get_model_parallel_rank()
    dp, dp_rank = hcg.get_data_parallel_world_size(), hcg.get_data_parallel_rank()
    rng = np.random.default_rng(4)
    w1 = rng.standard_normal((4, 8)).astype("float32") * 0.5
    b1 = rng.standard_normal(8).astype("float32") * 0.1
    w2 = rng.standard_normal((8, 2)).astype("float32") * 0.5
    b2 = rng.standard_normal(2).astype("float32") * 0.1
    batches = [(rng.standard_normal((4 * dp, 4)).astype("float32"),
                rng.standard_normal((4 * dp, 2)).astype("float32")) for _ in range(5)]
    ref = mlp(False)
    for p, v in zip(ref.parameters(), (w1, b1, w2, b2)):
        p.set_value(v)
    clip = pylayer.nn.ClipGradByGlobalNorm(0.5)
    opt = pylayer.optimizer.SGD(0.1, parameters=ref.parameters(), grad_clip=clip)
    for x, y in batches:
        F.mse_loss(ref(pylayer.to_tensor(x)), pylayer.to_tensor(y)).backward()
        opt.step()
        opt.clear_grad()
    cols = slice(4 * r, 4 * r + 4)
    net = mlp(True)
    pylayer.seed(50 + dist.get_rank())       # the replicated bias differs until synchronised
    net[2].bias.set_value(pylayer.randn([2]))
    if r == 0:
        net[2].bias.set_value(b2)
    for p, v in zip(net.parameters(), (w1[:, cols], b1[cols], w2[cols], None)):
        if v is not None:
            p.set_value(v)
    model = fleet.distributed_model(net)
    close(net[2].bias, b2, "distributed_model synchronises the replicated parameters")
    opt = fleet.distributed_optimizer(pylayer.optimizer.SGD(
        0.1, parameters=model.parameters(), grad_clip=pylayer.nn.ClipGradByGlobalNorm(0.5)))
    losses = []
    for x, y in batches:
        part = slice(4 * dp_rank, 4 * dp_rank + 4)
        loss = F.mse_loss(model(pylayer.to_tensor(x[part])), pylayer.to_tensor(y[part]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    close(net[0].weight, ref[0].weight.numpy()[:, cols], "trained column weight")
    close(net[0].bias, ref[0].bias.numpy()[cols], "trained column bias")
    close(net[2].weight, ref[2].weight.numpy()[cols], "trained row weight")
    close(net[2].bias, ref[2].bias, "trained row bias")


def check_recompute():
    hcg = fleet.get_hybrid_communicate_group()
    r = hcg.get_model_parallel_rank()
    rng = np.random.default_rng(5)
    w1 = rng.standard_normal((4, 8)).astype("float32")
    w2 = rng.standard_normal((8, 4)).astype("float32")
    xv = rng.standard_normal((3, 4)).astype("float32")

    class Block(pylayer.nn.Layer):
        def __init__(self):
            super().__init__()
            self.col = ColumnParallelLinear(4, 8, gather_output=False)
            self.row = RowParallelLinear(8, 4, input_is_parallel=True, has_bias=False)
            self.col.weight.set_value(w1[:, 4 * r:4 * r + 4])
            self.row.weight.set_value(w2[4 * r:4 * r + 4])

        def forward(self, x):
            h = pylayer.tanh(self.col(x))
            with get_rng_state_tracker().rng_state():     # per-rank dropout stream
                h = F.dropout(h, 0.5)
            return self.row(h)

    results = []
    for how in ("plain", True, False):
        block = Block()
        tracker = get_rng_state_tracker()
        tracker.reset()
        tracker.add("model_parallel_rng", 1000 + r)
        pylayer.seed(9)
        x = tensor(xv)
        y = block(x) if how == "plain" else recompute(block, x, use_reentrant=how)
        y.sum().backward()
        results.append((y.numpy(), x.grad.numpy(), block.col.weight.grad.numpy(),
                        block.row.weight.grad.numpy()))
    for other in results[1:]:
        for a, b in zip(results[0], other):
            close(a, b, "recompute under tensor parallelism")


def check_hand_written_data_parallel(n):
    """fused_allreduce_gradients averages over the data-parallel group, and
    broadcast_input_data gives the model-parallel group its first process's batch."""
    hcg = fleet.get_hybrid_communicate_group()
    dp, dp_rank = hcg.get_data_parallel_world_size(), hcg.get_data_parallel_rank()
    x = tensor(np.full((2, 3), dist.get_rank(), dtype="float32"), False)
    label = [dist.get_rank()]
    (x,), kwargs = hybrid_parallel_util.broadcast_input_data(hcg, x, label=label)
    first = hcg.get_model_parallel_group_src_rank()
    close(x, np.full((2, 3), first, "float32"), "broadcast_input_data tensor")
    assert kwargs == {"label": [first]}
    if dp == 1:
        return
    rng = np.random.default_rng(6)
    batch = rng.standard_normal((4 * dp, 3)).astype("float32")
    pylayer.seed(1)
    layer = pylayer.nn.Linear(3, 2)
    whole = pylayer.nn.Linear(3, 2)
    whole.set_state_dict(layer.state_dict())
    (whole(tensor(batch, False)) ** 2).mean().backward()
    (layer(tensor(batch[4 * dp_rank:4 * dp_rank + 4], False)) ** 2).mean().backward()
    hybrid_parallel_util.fused_allreduce_gradients(list(layer.parameters()), hcg)
    for a, b in zip(layer.parameters(), whole.parameters()):
        close(a.grad, b.grad, "fused_allreduce_gradients")


def check_pipeline_is_refused(n):
    strategy = fleet.DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": n // 2, "mp_degree": 1, "pp_degree": 2}
    fleet.init(is_collective=True, strategy=strategy)
    hcg = fleet.get_hybrid_communicate_group()
    assert hcg.get_parallel_mode() == dist.ParallelMode.PIPELINE_PARALLEL
    assert hcg.get_pipe_parallel_group().ranks == list(range(dist.get_rank() // 2 * 2,
                                                             dist.get_rank() // 2 * 2 + 2))
    try:
        fleet.distributed_model(pylayer.nn.Linear(2, 2))
    except NotImplementedError as error:
        assert "no pipeline schedule" in str(error)
    else:
        raise AssertionError("pp_degree > 1 was not refused")
    strategy = fleet.DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": n // 2, "mp_degree": 1, "sep_degree": 2}
    fleet.init(is_collective=True, strategy=strategy)
    hcg = fleet.get_hybrid_communicate_group()
    rank = dist.get_rank()
    assert hcg.get_parallel_mode() == dist.ParallelMode.SEGMENT_PARALLEL
    assert hcg.get_sep_parallel_group().ranks == [rank // 2 * 2, rank // 2 * 2 + 1]
    assert hcg.get_dp_sep_parallel_group().ranks == list(range(n))
    layer = pylayer.nn.Linear(1, 1, bias_attr=False)
    layer.weight.set_value(np.ones((1, 1), "float32"))
    (layer(tensor([[float(rank + 1)]], False))).sum().backward()
    hybrid_parallel_util.fused_allreduce_gradients(list(layer.parameters()), hcg)
    # summed over dp and sep, divided by the dp degree only (Paddle's rule)
    close(layer.weight.grad, [[n * (n + 1) / 2 / (n // 2)]], "fused_allreduce_gradients sep")
    strategy = fleet.DistributedStrategy()           # dp_degree -1: all processes
    fleet.init(is_collective=True, strategy=strategy)
    model = fleet.distributed_model(pylayer.nn.Linear(2, 2))
    assert isinstance(model, dist.DataParallel)
    assert fleet.get_hybrid_communicate_group().get_parallel_mode() == \
        dist.ParallelMode.DATA_PARALLEL


def main():
    dist.init_parallel_env()
    n = dist.get_world_size()
    strategy = fleet.DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": n // MP, "mp_degree": MP, "pp_degree": 1}
    fleet.init(is_collective=True, strategy=strategy)
    check_groups(n)
    group = fleet.get_hybrid_communicate_group().get_model_parallel_group()
    check_mp_ops(group)
    check_layers(group)
    check_sequence_parallel(group)
    check_guide_pylayer(group)
    check_training(n)
    check_recompute()
    check_hand_written_data_parallel(n)
    check_pipeline_is_refused(n)
    print(f"rank {dist.get_rank()} of {n}: fleet equals one process", flush=True)


if __name__ == "__main__":
    main()
