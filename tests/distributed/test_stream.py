"""The argument rules of ``pylayer.distributed.stream`` (Paddle's), in one process."""
import pytest

import pylayer
import pylayer.distributed as dist
from pylayer.distributed import stream


@pytest.fixture(autouse=True)
def world():
    dist.init_parallel_env()


@pytest.mark.parametrize("call", [
    lambda: stream.all_reduce(pylayer.ones([1]), sync_op=False, use_calc_stream=True),
    lambda: stream.broadcast(pylayer.ones([1]), 0, sync_op=False, use_calc_stream=True),
    lambda: stream.send(pylayer.ones([1]), 0, sync_op=False, use_calc_stream=True),
    lambda: stream.all_gather([], pylayer.ones([1]), sync_op=False, use_calc_stream=True),
])
def test_use_calc_stream_needs_sync_op(call):
    with pytest.raises(RuntimeError, match="use_calc_stream can only be True with sync_op=True"):
        call()


def test_alltoall_takes_two_tensors_or_two_lists():
    with pytest.raises(RuntimeError, match="must both be tensors or both lists"):
        stream.alltoall([], pylayer.ones([1]))
    with pytest.raises(RuntimeError, match="output 'out_tensor_or_tensor_list' must be given"):
        stream.alltoall(None, [pylayer.ones([1])])
    with pytest.raises(RuntimeError, match="input list 'in_tensor_or_tensor_list' is empty"):
        stream.alltoall([], [])
    assert stream.all_to_all is stream.alltoall


def test_all_gather_into_one_tensor_checks_its_shape():
    with pytest.raises(ValueError, match=r"must have the shape \[2, 3\]"):
        stream.all_gather(pylayer.zeros([3, 3]), pylayer.ones([2, 3]))
    with pytest.raises(TypeError, match="argument 'use_calc_stream' must be a bool"):
        stream.all_reduce(pylayer.ones([1]), use_calc_stream="yes")


def test_the_names_are_paddles():
    assert sorted(stream.__all__) == sorted(
        ["all_gather", "all_reduce", "all_to_all", "alltoall", "alltoall_single", "broadcast",
         "gather", "recv", "reduce", "reduce_scatter", "scatter", "send"])
