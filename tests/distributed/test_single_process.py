"""pylayer.distributed in one process (world size 1, no mpiexec): the same API, each
operation doing what it does for one process, and its argument errors."""
import subprocess
import sys

import numpy as np
import pytest

import pylayer
import pylayer.distributed as dist


@pytest.fixture(autouse=True)
def world():
    """Each test starts the world of one process and ends it (Paddle's collectives need
    init_parallel_env first)."""
    yield dist.init_parallel_env()
    dist.destroy_process_group()


def test_before_init_parallel_env_the_collectives_refuse_as_paddles():
    dist.destroy_process_group()
    x = pylayer.ones([2])
    for call in (lambda: dist.all_reduce(x), lambda: dist.barrier(), lambda: dist.broadcast(x, 0),
                 lambda: dist.new_group([0]), lambda: dist.get_backend()):
        with pytest.raises(RuntimeError, match="the global group is not initialized: call "
                                               r"pylayer.distributed.init_parallel_env\(\)"):
            call()
    assert dist.get_group(0) is None                 # Paddle's get_group: None
    assert (dist.get_rank(), dist.get_world_size()) == (0, 1)
    assert not dist.is_initialized()
    pylayer.DataParallel(pylayer.nn.Linear(2, 2))   # one process: no init needed, as Paddle's


def test_the_world_of_one_process_and_the_launcher_variables(monkeypatch):
    group = dist.init_parallel_env()
    assert dist.is_initialized() and dist.is_available()
    assert (dist.get_rank(), dist.get_world_size(), group.nranks) == (0, 1, 1)
    assert dist.get_backend() == "MPI"
    import os
    assert os.environ["PADDLE_TRAINER_ID"] == "0" and os.environ["PADDLE_TRAINERS_NUM"] == "1"
    env = dist.ParallelEnv()
    assert (env.rank, env.world_size, env.nranks, env.local_rank, env.device_id) == (0, 1, 1, 0, 0)
    assert env.current_endpoint == env.trainer_endpoints[0]
    dist.destroy_process_group()
    assert not dist.is_initialized()
    # before the environment is started, the launcher's variables are read
    monkeypatch.setenv("PADDLE_TRAINER_ID", "3")
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "4")
    assert (dist.get_rank(), dist.get_world_size()) == (3, 4)


def test_groups():
    g = dist.new_group([0])
    assert dist.get_group(g.id) is g and g.get_group_rank(0) == 0 and g.get_group_rank(5) == -1
    assert (g.get_global_rank(0), g.get_global_rank(1)) == (0, -1)
    dist.barrier(g)
    dist.destroy_process_group(g)
    with pytest.raises(RuntimeError, match="barrier.*destroyed"):
        dist.barrier(g)
    with pytest.raises(ValueError, match=r"new_group\(\): argument 'ranks'.*outside"):
        dist.new_group([0, 1])
    with pytest.raises(TypeError, match=r"new_group\(\): argument 'ranks'"):
        dist.new_group("0")
    assert dist.get_group(99) is None
    with pytest.raises(TypeError, match=r"get_group\(\): argument 'id'"):
        dist.get_group("0")


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16", "complex64", "int64", "bool"])
def test_collectives_of_one_process(dtype):
    x = pylayer.to_tensor(np.arange(6).reshape(2, 3) % 2, dtype=dtype)
    before = x.numpy().copy()
    view = x[1]
    version = x.inplace_version
    for op in (dist.ReduceOp.SUM, dist.ReduceOp.PROD) + (
            () if dtype == "complex64" else (dist.ReduceOp.MAX, dist.ReduceOp.MIN)):
        assert dist.all_reduce(x, op).wait()
    assert x.inplace_version > version            # an in-place change, as in Paddle
    np.testing.assert_array_equal(x.numpy(), before)
    np.testing.assert_array_equal(view.numpy(), before[1])
    dist.broadcast(x, 0)
    dist.reduce(x, 0)
    out = []
    dist.all_gather(out, x)
    np.testing.assert_array_equal(out[0].numpy(), before)
    assert out[0].dtype == x.dtype
    y = pylayer.zeros([2, 3], dtype=dtype)
    dist.scatter(y, [x], src=0)
    np.testing.assert_array_equal(y.numpy(), before)
    y = pylayer.zeros([2, 3], dtype=dtype)
    dist.alltoall_single(y, x)
    np.testing.assert_array_equal(y.numpy(), before)


def test_object_collectives_of_one_process():
    out = [None]
    dist.all_gather_object(out, {"a": 1})
    assert out == [None, {"a": 1}]             # appended, as Paddle's
    objects = [1, "two"]
    dist.broadcast_object_list(objects, 0)
    assert objects == [1, "two"]
    out = []
    dist.scatter_object_list(out, [[5]], 0)
    assert out == [[5]]


def test_argument_errors_name_the_function_and_the_argument():
    x = pylayer.ones([2])
    with pytest.raises(TypeError, match=r"all_reduce\(\): argument 'tensor' must be a Tensor"):
        dist.all_reduce([1.0])
    with pytest.raises(ValueError, match=r"all_reduce\(\): argument 'op'"):
        dist.all_reduce(x, op=9)
    with pytest.raises(TypeError, match=r"all_reduce\(\): complex tensors have no MAX"):
        dist.all_reduce(pylayer.ones([2], dtype="complex64"), dist.ReduceOp.MAX)
    with pytest.raises(TypeError, match=r"broadcast\(\): argument 'sync_op' must be a bool"):
        dist.broadcast(x, 0, sync_op="yes")
    with pytest.raises(ValueError, match=r"broadcast\(\): argument 'src' is rank 1"):
        dist.broadcast(x, 1)
    with pytest.raises(TypeError, match=r"all_gather\(\): argument 'tensor_list'"):
        dist.all_gather(None, x)
    with pytest.raises(ValueError, match=r"all_gather\(\): argument 'tensor_list' has 2"):
        dist.all_gather([x, x], x)
    with pytest.raises(ValueError, match=r"reduce_scatter\(\): argument 'tensor_list' holds"):
        dist.reduce_scatter(x, [pylayer.ones([3])])
    with pytest.raises(ValueError, match=r"alltoall_single\(\): argument 'in_split_sizes'"):
        dist.alltoall_single(x, x, [3])
    lonely = dist.new_group([0])
    with pytest.raises(RuntimeError, match=r"recv\(\): nothing was sent to receive"):
        dist.recv(x, 0, group=lonely)
    dist.send(pylayer.ones([3]), 0, group=lonely)
    with pytest.raises(ValueError, match=r"irecv\(\): the message \(shape \[3\], float32\) "
                                         r"does not fit"):
        dist.irecv(x, 0, group=lonely)
    with pytest.raises(ValueError, match=r"recv_object_list\(\): give 'src' or "
                                         r"'src_in_group', not both"):
        dist.recv_object_list([None], 0, src_in_group=0)
    with pytest.raises(ValueError, match=r"send_object_list\(\): argument 'object_list' "
                                         r"cannot be empty"):
        dist.send_object_list([])
    lonely = dist.new_group([0])
    dist.send_object_list([1, 2], group=lonely)          # to rank 0 by default
    with pytest.raises(ValueError, match=r"recv_object_list\(\): 2 objects were sent"):
        dist.recv_object_list([None], group=lonely)
    before = x.numpy().copy()
    with pytest.raises(ValueError, match=r"all_reduce\(\): the tensor's memory cannot be written"):
        dist.all_reduce(pylayer.ones([1]).expand([3]))
    np.testing.assert_array_equal(x.numpy(), before)


def test_data_parallel_in_one_process_trains_and_saves_under_the_layer_keys(tmp_path):
    pylayer.seed(1)
    net = pylayer.nn.Sequential(pylayer.nn.Linear(3, 4), pylayer.nn.ReLU(), pylayer.nn.Linear(4, 1))
    model = pylayer.DataParallel(net)
    assert pylayer.DataParallel is dist.DataParallel
    optimizer = pylayer.optimizer.Adam(0.05, parameters=model.parameters())
    x = pylayer.randn([16, 3])
    y = x.sum(axis=1, keepdim=True)
    losses = []
    for _ in range(30):
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(loss.item())
    assert losses[-1] < losses[0] / 2
    assert list(model.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    pylayer.save(model.state_dict(), str(tmp_path / "m.pdparams"))
    again = pylayer.DataParallel(pylayer.nn.Sequential(
        pylayer.nn.Linear(3, 4), pylayer.nn.ReLU(), pylayer.nn.Linear(4, 1)))
    again.set_state_dict(pylayer.load(str(tmp_path / "m.pdparams")))
    np.testing.assert_allclose(again(x).numpy(), model(x).numpy())
    with pytest.raises(TypeError, match=r"DataParallel\(\): argument 'layers'"):
        dist.DataParallel(object())


def test_paddle_distributed_after_install_as_paddle():
    code = ("import pylayer; pylayer.install_as_paddle(); import paddle.distributed as d; "
            "import paddle; print(d.get_world_size(), paddle.DataParallel.__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.split() == ["1", "DataParallel"], done.stderr


def test_the_launcher_command():
    import importlib
    launch = importlib.import_module("pylayer.distributed.launch")
    line = launch.command(["--nproc_per_node", "2", "--nnodes", "2", "--hostfile", "hosts",
                           "--mpiexec", "mpiexec", "train.py", "--epochs", "3"])
    assert line[:3] == ["mpiexec", "-n", "4"]
    assert line[line.index("-f") + 1] == "hosts" and line[line.index("-ppn") + 1] == "2"
    assert line[-3:] == ["train.py", "--epochs", "3"]
    line = launch.command(["--as_paddle", "--mpiexec", "mpiexec", "--nproc_per_node", "1",
                           "train.py"])
    assert line[-4:] == ["-m", "pylayer", "run", "train.py"]


def test_under_mpiexec_without_mpi4py_the_error_says_what_to_install():
    import os
    environment = dict(os.environ, PMI_RANK="0", PMI_SIZE="2")
    # mpi4py made unimportable in the child, so the test runs where it is installed too
    code = ("import sys; sys.modules['mpi4py'] = None\n"
            "import pylayer.distributed as d; d.init_parallel_env()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=environment)
    assert done.returncode != 0
    assert "started by mpiexec with 2 processes, but mpi4py is not installed" in done.stderr
    assert 'pip install "pylayer-autograd[distributed]"' in done.stderr


def test_launch_is_a_function_as_in_paddle_and_the_launcher_still_runs():
    import pylayer.distributed as dist
    assert callable(dist.launch) and dist.launch.__name__ == "launch"
    done = subprocess.run([sys.executable, "-m", "pylayer.distributed.launch", "--dry_run",
                           "--mpiexec", "mpiexec", "--nproc_per_node", "2", "train.py"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.split()[:3] == ["mpiexec", "-n", "2"]
