"""pylayer.distributed.fleet in one process (world size 1), with Paddle 3.3.1's observed
behaviour; ``test_fleet_under_mpiexec`` runs mpi_fleet.py on 2 and 4 processes."""
import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

import pylayer
import pylayer.distributed as dist
import pylayer.nn.functional as F
from pylayer.autograd import saved_tensors_hooks
from pylayer.distributed import fleet
from pylayer.distributed.fleet.layers.mpu import mp_ops
from pylayer.distributed.fleet.meta_parallel import (ColumnParallelLinear, ParallelCrossEntropy,
                                                     RowParallelLinear, VocabParallelEmbedding,
                                                     get_rng_state_tracker)
from pylayer.distributed.fleet.recompute import recompute_hybrid, recompute_sequential
from pylayer.distributed.fleet.utils import recompute
from pylayer.distributed.fleet.utils import sequence_parallel_utils as sp

HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def one_process_fleet():
    fleet.init(is_collective=True)
    yield
    pylayer.disable_static()


# ------------------------------------------------------------------ strategy
def test_strategy_defaults_are_paddles():
    s = fleet.DistributedStrategy()
    h = s.hybrid_configs
    assert [h[k] for k in ("dp_degree", "mp_degree", "pp_degree", "sharding_degree",
                           "sep_degree", "cp_degree", "ep_degree")] == [-1, 1, 1, 1, 1, 1, 1]
    assert s.hybrid_parallel_order == ["dp", "pp", "sharding", "sep", "cp", "mp"]
    assert h["mp_configs"].mp_async_allreduce is False and h["mp_configs"]["sync_param"]
    assert s.recompute is False and s.amp is False and s.find_unused_parameters is False
    assert s.recompute_configs == {"checkpoints": [], "enable_offload": False,
                                   "checkpoint_shape": [], "enable_tuning": False,
                                   "refined_ops_patterns": []}
    assert s.tensor_parallel_configs == {"tensor_parallel_degree": 1, "tensor_init_seed": -1}
    assert s.fuse_grad_size_in_MB == 32 and s.sync_param_name == ["embedding", "layer_norm",
                                                                  ".b_"]


def test_strategy_assignments_merge_and_validate_as_paddles():
    s = fleet.DistributedStrategy()
    s.hybrid_configs = {"mp_degree": 2, "mp_configs": {"mp_async_allreduce": True},
                        "order": ["dp", "sharding", "pp", "sep", "cp", "mp"]}
    assert s.hybrid_configs["mp_degree"] == 2 and s.hybrid_configs["dp_degree"] == -1
    assert s.hybrid_configs["mp_configs"].mp_async_allreduce is True
    assert s.hybrid_parallel_order == ["dp", "sharding", "pp", "sep", "cp", "mp"]
    s.hybrid_configs = {"mp_degree": -5}            # Paddle checks the sign at fleet.init
    assert s.hybrid_configs["mp_degree"] == -5
    s.recompute_configs = {"checkpoints": ["a"]}
    assert s.recompute_configs["checkpoints"] == ["a"]
    assert s.recompute_configs["enable_offload"] is False
    with pytest.raises(ValueError, match="bogus"):
        s.hybrid_configs = {"bogus": 1}             # Paddle: "key:bogus not in hybrid_configs"
    with pytest.raises(TypeError, match="dp_degree"):
        s.hybrid_configs = {"dp_degree": "a"}
    with pytest.raises(TypeError):
        s.hybrid_configs = 3
    with pytest.raises(ValueError, match="bad"):
        s.recompute_configs = {"bad": 1}
    with pytest.raises(TypeError, match="no_such is not a attribute of DistributedStrategy"):
        s.no_such = 1
    with pytest.warns(UserWarning, match="find_unused_parameters should have value of bool"):
        s.find_unused_parameters = "x"
    assert s.find_unused_parameters is False        # Paddle warns and keeps the old value
    s.amp = True
    assert s.amp is True


def test_init_checks_degrees_against_the_world():
    s = fleet.DistributedStrategy()
    s.hybrid_configs = {"mp_degree": 2}
    with pytest.raises(ValueError, match="make 2 processes, but the job has 1"):
        fleet.init(is_collective=True, strategy=s)
    s.hybrid_configs = {"mp_degree": -1}
    with pytest.raises(ValueError, match="mp_degree'\\] should be greater or equal to 0"):
        fleet.init(is_collective=True, strategy=s)
    s.hybrid_configs = {"mp_degree": 0}             # 0 counts as 1, as in Paddle
    assert fleet.init(is_collective=True, strategy=s) is fleet.fleet
    with pytest.raises(TypeError, match="strategy"):
        fleet.init(is_collective=True, strategy={"mp_degree": 1})
    with pytest.raises(ValueError, match="is_collective"):     # Paddle's type
        fleet.init(is_collective=1)
    with pytest.raises(ValueError, match="role_maker"):
        fleet.init(role_maker="worker")
    s.hybrid_configs = {"mp_degree": 1}
    fleet.init(is_collective=True, strategy=s)
    s.hybrid_configs = {"mp_degree": 5}                       # init kept a copy
    assert fleet.fleet._user_defined_strategy.hybrid_configs["mp_degree"] == 1


# ------------------------------------------------------------------ topology and groups
def test_communicate_topology_is_row_major_with_the_first_axis_outermost():
    topo = fleet.CommunicateTopology(["data", "pipe", "sharding", "sep", "model"],
                                     [2, 1, 1, 1, 2])
    assert topo.world_size() == 4
    assert topo.get_rank(data=1, pipe=0, sharding=0, sep=0, model=0) == 2
    assert tuple(topo.get_coord(3)) == (1, 0, 0, 0, 1)
    assert topo.get_axis_list("data", 0) == [0, 1]
    assert topo.get_comm_list("model") == [[0, 1], [2, 3]]
    assert topo.get_comm_list("data") == [[0, 2], [1, 3]]
    assert topo.get_fused_ranks(["data", "model"]) == [[0, 1, 2, 3]]
    assert topo.get_rank_from_stage(3, data=0) == 1
    assert fleet.CommunicateTopology().get_hybrid_group_names() == \
        ["data", "pipe", "sharding", "sep", "context", "model"]
    with pytest.raises(ValueError, match="same length"):
        fleet.CommunicateTopology(["data"], [1, 2])
    with pytest.raises(ValueError, match="axis_name"):
        topo.get_dim("expert")


def test_hybrid_communicate_group_at_world_size_one():
    hcg = fleet.get_hybrid_communicate_group()
    assert isinstance(hcg, fleet.HybridCommunicateGroup)
    assert (hcg.get_data_parallel_rank(), hcg.get_data_parallel_world_size(),
            hcg.get_model_parallel_rank(), hcg.get_model_parallel_world_size(),
            hcg.get_sharding_parallel_rank(), hcg.get_sharding_parallel_world_size(),
            hcg.get_pipe_parallel_world_size(), hcg.get_stage_id(),
            hcg.get_global_rank()) == (0, 1, 0, 1, 0, 1, 1, 0, 0)
    for group in (hcg.get_data_parallel_group(), hcg.get_model_parallel_group(),
                  hcg.get_pipe_parallel_group(), hcg.get_sharding_parallel_group(),
                  hcg.get_check_parallel_group()):
        assert isinstance(group, dist.Group) and group.ranks == [0]
    assert hcg.get_data_parallel_group_src_rank() == 0
    assert hcg.get_parallel_mode() is None          # Paddle: no mode at world size 1
    with pytest.raises(AssertionError, match="sep not exist"):
        hcg.get_sep_parallel_group()
    assert fleet.get_hybrid_parallel_topology().get_hybrid_group_names() == \
        ["data", "pipe", "sharding", "sep", "context", "model"]
    assert dist.ParallelMode.TENSOR_PARALLEL == 1 and dist.ParallelMode.SEGMENT_PARALLEL == 4


def test_worker_queries_and_role_makers():
    assert (fleet.worker_index(), fleet.worker_num(), fleet.is_first_worker(),
            fleet.is_worker(), fleet.is_server(), fleet.server_num()) == (0, 1, True, True,
                                                                          False, 0)
    assert fleet.worker_endpoints(to_string=True) == ",".join(fleet.worker_endpoints())
    fleet.barrier_worker()
    assert fleet.Role.WORKER == 1 and fleet.Role.SERVER == 2 and fleet.Role.COORDINATOR == 5
    role = fleet.UserDefinedRoleMaker(is_collective=True, current_id=1, role=fleet.Role.WORKER,
                                      worker_num=2,
                                      worker_endpoints=["127.0.0.1:1", "127.0.0.1:2"])
    job = fleet.Fleet().init(role_maker=role, is_collective=True)
    assert (job.worker_index(), job.worker_num(), job.is_first_worker()) == (1, 2, False)
    # Paddle's shard: contiguous blocks, the first workers taking the remainder
    assert fleet.util.get_file_shard(["a", "b", "c", "d", "e"]) == ["d", "e"]
    with pytest.raises(TypeError, match="should be a list of file"):
        fleet.util.get_file_shard("a")
    with pytest.raises(ValueError, match="Role.WORKER"):
        fleet.UserDefinedRoleMaker(role=fleet.Role.SERVER)


def test_util_returns_its_input_at_world_size_one_as_paddles():
    assert fleet.util.all_reduce(3, "max") == 3
    assert fleet.util.all_reduce([1.0, 2.0]) == [1.0, 2.0]
    assert fleet.util.all_gather(5) == 5
    assert fleet.util.barrier() is None
    with pytest.raises(ValueError, match="mode"):
        fleet.util.all_reduce([1], "bad")


def test_distributed_model_and_optimizer_in_one_process():
    model = pylayer.nn.Linear(2, 2)
    assert fleet.distributed_model(model) is model  # Paddle 3.3.1 fails here (NoPipelineParallel)
    opt = pylayer.optimizer.SGD(0.1, parameters=model.parameters())
    assert fleet.distributed_optimizer(opt) is opt
    with pytest.raises(TypeError, match="Layer"):
        fleet.distributed_model("model")
    with pytest.raises(TypeError, match="Optimizer"):
        fleet.distributed_optimizer(model)


# ------------------------------------------------------------------ tensor-parallel layers
def test_parallel_layers_at_world_size_one_are_the_plain_layers():
    col = ColumnParallelLinear(4, 6, has_bias=True)
    row = RowParallelLinear(6, 3)
    emb = VocabParallelEmbedding(10, 4)
    assert [p.is_distributed for p in (col.weight, col.bias, row.weight, row.bias,
                                       emb.weight)] == [False] * 5
    assert ColumnParallelLinear(4, 6).bias is None      # has_bias=None: no bias, as Paddle's
    model = pylayer.nn.Sequential(col, row)
    assert list(model.state_dict()) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    assert repr(col) == "ColumnParallelLinear()"        # Paddle's repr shows no arguments
    x = pylayer.randn([5, 4])
    np.testing.assert_allclose(model(x).numpy(),
                               (x.numpy() @ col.weight.numpy() + col.bias.numpy())
                               @ row.weight.numpy() + row.bias.numpy(), rtol=1e-5)
    ids = pylayer.to_tensor([[1, 9]])
    np.testing.assert_array_equal(emb(ids).numpy(), emb.weight.numpy()[[[1, 9]]])
    logits, label = pylayer.randn([3, 5]), pylayer.to_tensor([[0], [4], [2]])
    np.testing.assert_allclose(ParallelCrossEntropy()(logits, label).numpy(),
                               F.cross_entropy(logits, label, reduction="none").numpy(),
                               rtol=1e-6)
    with pytest.raises(ValueError, match="divisible"):
        VocabParallelEmbedding(9, 4, mp_group=_two_rank_group_stand_in())
    with pytest.raises(TypeError, match="mp_group"):
        RowParallelLinear(4, 2, mp_group="group")


def _two_rank_group_stand_in():
    return dist.Group(0, 10 ** 6, [0, 1])


def test_parallel_layers_train_and_round_trip_through_save(tmp_path):
    pylayer.seed(0)
    model = pylayer.nn.Sequential(ColumnParallelLinear(3, 8, has_bias=True,
                                                       gather_output=False),
                                  pylayer.nn.Tanh(),
                                  RowParallelLinear(8, 1, input_is_parallel=True))
    opt = fleet.distributed_optimizer(pylayer.optimizer.Adam(0.05,
                                                             parameters=model.parameters()))
    model = fleet.distributed_model(model)
    x = pylayer.randn([32, 3])
    y = (x.sum(axis=1, keepdim=True) > 0).astype("float32")
    losses = []
    for _ in range(30):
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
    pylayer.save(model.state_dict(), str(tmp_path / "tp.pdparams"))
    again = pylayer.nn.Sequential(ColumnParallelLinear(3, 8, has_bias=True,
                                                       gather_output=False),
                                  pylayer.nn.Tanh(),
                                  RowParallelLinear(8, 1, input_is_parallel=True))
    again.set_state_dict(pylayer.load(str(tmp_path / "tp.pdparams")))
    np.testing.assert_array_equal(again(x).numpy(), model(x).numpy())


def test_mp_ops_in_one_process():
    x = pylayer.randn([2, 4])
    x.stop_gradient = False
    y = mp_ops._c_concat(mp_ops._c_split(mp_ops._c_identity(x)))
    y = mp_ops._mp_allreduce(y)
    (y * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full([2, 4], 3, "float32"))
    table = pylayer.to_tensor([[1.0, 1.0], [2.0, 2.0]])
    table.stop_gradient = False
    out = mp_ops._c_lookup_table(table, pylayer.to_tensor([0, 3, 4]), start_index=3)
    np.testing.assert_array_equal(out.numpy(), [[0, 0], [1, 1], [2, 2]])
    out.sum().backward()
    np.testing.assert_array_equal(table.grad.numpy(), [[1, 1], [1, 1]])
    logits = pylayer.randn([3, 4])
    logits.stop_gradient = False
    label = pylayer.to_tensor([1, -100, 3])
    loss = mp_ops._c_softmax_with_cross_entropy(logits, label)
    assert loss.shape == [3, 1] and loss.numpy()[1, 0] == 0
    ref = logits.detach()
    ref.stop_gradient = False
    F.cross_entropy(ref, label.unsqueeze(-1), reduction="none").sum().backward()
    loss.sum().backward()
    np.testing.assert_allclose(logits.grad.numpy(), ref.grad.numpy(), rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="ReduceOp.SUM"):
        mp_ops._mp_allreduce(x, op=dist.ReduceOp.MAX)
    with pytest.raises(TypeError, match="_c_split\\(\\): argument 'tensor'"):
        mp_ops._c_split([1.0])


def test_split_is_for_static_mode_as_paddles():
    with pytest.raises(ValueError, match="cannot be used in dynamic graph mode"):
        dist.split(pylayer.ones([2, 3]), (3, 4), "linear")
    with pytest.raises(ValueError, match="operation"):
        dist.split(pylayer.ones([2, 3]), (3, 4), "conv")
    with pytest.raises(ValueError, match="two elements"):
        dist.split(pylayer.ones([2, 3]), (3, 4, 5), "linear")
    pylayer.enable_static()
    main, startup = pylayer.static.Program(), pylayer.static.Program()
    with pylayer.static.program_guard(main, startup):
        ids = pylayer.static.data("ids", [-1], "int64")
        out = dist.split(ids, (6, 2), "embedding", num_partitions=1)
    exe = pylayer.static.Executor()
    exe.run(startup)
    got, = exe.run(main, feed={"ids": np.array([0, 5])}, fetch_list=[out])
    assert got.shape == (2, 2)


# ------------------------------------------------------------------ recompute
def dropout_block():
    pylayer.seed(3)
    return pylayer.nn.Sequential(pylayer.nn.Linear(4, 16), pylayer.nn.ReLU(),
                                 pylayer.nn.Dropout(0.5), pylayer.nn.Linear(16, 16),
                                 pylayer.nn.Tanh(), pylayer.nn.Linear(16, 4))


def run_block(how, preserve=True):
    block = dropout_block()
    x = pylayer.to_tensor(np.random.default_rng(0).standard_normal((6, 4)).astype("float32"))
    x.stop_gradient = False
    pylayer.seed(11)
    if how == "plain":
        y = block(x)
    else:
        y = recompute(block, x, use_reentrant=how, preserve_rng_state=preserve)
    pylayer.randn([3])                  # the stream moves on before backward
    y.sum().backward()
    return [y.numpy(), x.grad.numpy()] + [p.grad.numpy() for p in block.parameters()]


@pytest.mark.parametrize("reentrant", [True, False])
def test_recompute_gives_the_plain_gradients_with_the_same_dropout_mask(reentrant):
    plain = run_block("plain")
    for a, b in zip(plain, run_block(reentrant)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    other = run_block(reentrant, preserve=False)
    assert not all(np.allclose(a, b) for a, b in zip(plain[1:], other[1:]))


def count_saved(how):
    block = dropout_block()
    x = pylayer.randn([6, 4])
    x.stop_gradient = False
    kept = []

    def pack(t):
        kept.append(t)
        return t
    with saved_tensors_hooks(pack, lambda t: t):
        y = block(x) if how == "plain" else recompute(block, x, use_reentrant=how)
    y.sum().backward()
    return len(kept)


@pytest.mark.parametrize("reentrant", [True, False])
def test_recompute_keeps_fewer_tensors(reentrant):
    assert count_saved(reentrant) < count_saved("plain") // 2


def test_recompute_passes_keyword_arguments():
    def f(x, scale=1.0, shift=0.0):
        return x * scale + shift

    def g(x, *, shift=0.0):
        return x + shift
    x = pylayer.ones([2])
    x.stop_gradient = False
    recompute(f, x, scale=3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3, 3])
    x.clear_grad()
    y = recompute(g, x, shift=1.0, use_reentrant=False)
    y.sum().backward()
    np.testing.assert_array_equal(y.numpy(), [2, 2])
    np.testing.assert_array_equal(x.grad.numpy(), [1, 1])
    with pytest.raises(ValueError, match="keyword-only"):       # Paddle's rule
        recompute(g, x)
    with pytest.warns(UserWarning, match="None of the inputs to current recompute block"):
        recompute(f, pylayer.ones([2]))
    with pytest.raises(TypeError, match="use_reentrant"):
        recompute(f, x, use_reentrant="yes")


def test_recompute_sequential_and_hybrid():
    model = dropout_block()
    x = pylayer.randn([6, 4])
    x.stop_gradient = False
    pylayer.seed(5)
    plain = model(x)
    plain.sum().backward()
    grads = [p.grad.numpy().copy() for p in model.parameters()]
    model.clear_gradients()
    pylayer.seed(5)
    y = recompute_sequential({"segments": 3, "preserve_rng_state": True}, model, x)
    y.sum().backward()
    np.testing.assert_allclose(y.numpy(), plain.numpy(), rtol=1e-6)
    for a, p in zip(grads, model.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), a, rtol=1e-6, atol=1e-7)
    group = fleet.get_hybrid_communicate_group().get_model_parallel_group()
    model.clear_gradients()
    pylayer.seed(5)
    recompute_hybrid({"mp_group": group, "offload": False, "partition": True},
                     model, x).sum().backward()
    for a, p in zip(grads, model.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), a, rtol=1e-6, atol=1e-7)
    with pytest.raises(ValueError, match="mp_group"):
        recompute_hybrid({}, model, x)


def test_recompute_replays_the_tensor_parallel_stream():
    tracker = get_rng_state_tracker()
    tracker.reset()
    tracker.add("model_parallel_rng", 77)

    def block(x):
        with tracker.rng_state():
            return F.dropout(x, 0.5)
    x = pylayer.ones([64])
    x.stop_gradient = False
    y = recompute(block, x)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.numpy())


# ------------------------------------------------------------------ sequence parallel
def test_sequence_parallel_in_one_process():
    x = pylayer.randn([4, 2, 3])
    x.stop_gradient = False
    y = sp.ReduceScatterOp.apply(sp.AllGatherOp.apply(sp.GatherOp.apply(sp.ScatterOp.apply(x))))
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    (y * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full([4, 2, 3], 2, "float32"))
    norm = pylayer.nn.LayerNorm(3)
    sp.mark_as_sequence_parallel_parameter(norm.weight)
    assert sp.is_sequence_parallel_parameter(norm.weight)
    assert not sp.is_sequence_parallel_parameter(norm.bias)
    assert sp.register_sequence_parallel_allreduce_hooks(norm, 1, False) is None
    with pytest.raises(ValueError, match="tensor parallel degree must be greater than 1"):
        sp.ColumnSequenceParallelLinear(3, 4, gather_output=False)
    with pytest.raises(ValueError, match="input_is_parallel should be true"):
        sp.RowSequenceParallelLinear(4, 3)
    row = sp.RowSequenceParallelLinear(4, 3, input_is_parallel=True)
    assert row(pylayer.ones([2, 1, 4])).shape == [2, 1, 3]


# ------------------------------------------------------------------ Paddle's import paths
def test_paddle_programs_reach_fleet_by_paddles_import_paths(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(
        "import paddle\n"
        "from paddle.distributed import fleet\n"
        "from paddle.distributed.fleet.layers.mpu import mp_ops\n"
        "from paddle.distributed.fleet.layers.mpu.mp_ops import _c_identity, _mp_allreduce\n"
        "from paddle.distributed.fleet.meta_parallel import ColumnParallelLinear\n"
        "from paddle.distributed.fleet.utils import recompute\n"
        "from paddle.distributed.fleet.recompute import recompute_sequential\n"
        "from paddle.distributed.fleet.utils.sequence_parallel_utils import ScatterOp\n"
        "from paddle.distributed import ParallelMode\n"
        "from paddle.distributed.fleet.base.topology import ParallelMode as Mode\n"
        "from paddle.distributed.fleet.utils.hybrid_parallel_util import "
        "fused_allreduce_gradients\n"
        "from paddle.distributed.fleet.recompute.recompute import recompute as r\n"
        "assert Mode is ParallelMode\n"
        "fleet.init(is_collective=True)\n"
        "layer = ColumnParallelLinear(2, 2, has_bias=True)\n"
        "x = paddle.ones([1, 2]); x.stop_gradient = False\n"
        "recompute(layer, x).sum().backward()\n"
        "print(paddle.__name__, x.grad.shape, ParallelMode.DATA_PARALLEL)\n")
    done = subprocess.run([sys.executable, "-m", "pylayer", "run", str(script)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pylayer [1, 2] 0"


# ------------------------------------------------------------------ across processes
@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
def test_fleet_under_mpiexec(n):
    sys.path.insert(0, str(HERE))
    from test_mpi import run
    done = run("mpi_fleet.py", n)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("fleet equals one process") == n


# ------------------------------------------------------------------ data generators
def test_multislot_generators_write_paddles_text_format(capsys):
    g = fleet.MultiSlotDataGenerator()
    assert g._gen_str([("words", [1926, 8, 17]), ("label", [1])]) == "3 1926 8 17 1 1\n"
    assert g._gen_str(zip(["words", "label"], [[0.5], [0]])) == "1 0.5 1 0\n"
    assert g._proto_info == [("words", "float"), ("label", "uint64")]
    with pytest.raises(ValueError, match="inconsistent"):
        g._gen_str([("words", [1])])
    with pytest.raises(ValueError, match="require<words>, get<x>"):
        g._gen_str([("x", [1]), ("label", [1])])
    with pytest.raises(ValueError, match="can not be empty"):
        fleet.MultiSlotDataGenerator()._gen_str([("words", [])])
    with pytest.raises(ValueError, match="must be in int or float"):
        fleet.MultiSlotDataGenerator()._gen_str([("words", ["a"])])
    with pytest.raises(ValueError, match="list or tuple"):
        g._gen_str("words")
    assert fleet.MultiSlotStringDataGenerator()._gen_str(
        [("words", ["1926", "08"]), ("label", ["1"])]) == "2 1926 08 1 1\n"

    class Generator(fleet.MultiSlotDataGenerator):
        def generate_sample(self, line):
            def each():
                for i in range(3):
                    yield [("a", [i]), ("b", [i * 1.5])]
            return each
    generator = Generator()
    generator.set_batch(2)
    generator.run_from_memory()
    assert capsys.readouterr().out == "1 0 1 0.0\n1 1 1 1.5\n1 2 1 3.0\n"
    with pytest.raises(NotImplementedError, match="rewrite this function"):
        fleet.MultiSlotDataGenerator().run_from_memory()


def test_a_tensor_parallel_model_saved_by_paddle_loads_and_gives_paddles_output():
    """tests/nn/data/fleet_tensor_parallel.{pdparams,npz} were made by Paddle 3.3.1 (CPU,
    one process): after fleet.init(is_collective=True) and paddle.seed(7), a model of
    VocabParallelEmbedding(10, 3), ColumnParallelLinear(3, 4, has_bias=True,
    gather_output=False), relu and RowParallelLinear(4, 2, input_is_parallel=True)
    applied to ``ids``; its state_dict saved with paddle.save and its output as ``out``."""
    class Net(pylayer.nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = VocabParallelEmbedding(10, 3)
            self.col = ColumnParallelLinear(3, 4, has_bias=True, gather_output=False)
            self.row = RowParallelLinear(4, 2, input_is_parallel=True)

        def forward(self, ids):
            return self.row(F.relu(self.col(self.emb(ids))))
    data = HERE.parent / "nn" / "data"
    net = Net()
    state = pylayer.load(str(data / "fleet_tensor_parallel.pdparams"))
    assert list(state) == list(net.state_dict())
    net.set_state_dict(state)
    saved = np.load(data / "fleet_tensor_parallel.npz")
    np.testing.assert_allclose(net(pylayer.to_tensor(saved["ids"])).numpy(), saved["out"],
                               rtol=1e-6)


def test_hybrid_parallel_util_in_one_process():
    from pylayer.distributed.fleet.utils import hybrid_parallel_util as hpu
    hcg = fleet.get_hybrid_communicate_group()
    layer = pylayer.nn.Linear(2, 1)
    layer(pylayer.ones([1, 2])).sum().backward()
    with pytest.raises(AssertionError, match="dp_enabled False; sep_enabled False"):
        hpu.fused_allreduce_gradients(list(layer.parameters()), hcg)     # Paddle's rule
    hpu.fused_allreduce_gradients(list(layer.parameters()), None)
    np.testing.assert_array_equal(layer.bias.grad.numpy(), [1.0])
    before = layer.weight.numpy().copy()
    hpu.broadcast_mp_parameters(layer, hcg)
    hpu.broadcast_dp_parameters(layer, hcg)
    np.testing.assert_array_equal(layer.weight.numpy(), before)
    x = pylayer.ones([2])
    inputs, kwargs = hpu.broadcast_input_data(hcg, x, [x, 3], mask={"m": x})
    assert inputs[0] is x and inputs[1][1] == 3 and kwargs["mask"]["m"] is x
    with pytest.raises(TypeError, match="'hcg'"):
        hpu.broadcast_input_data(None, x)
    with pytest.raises(TypeError, match="'model'"):
        hpu.broadcast_mp_parameters("model", hcg)
