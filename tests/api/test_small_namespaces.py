"""The small namespaces real programs import: ``pylayer.framework``, ``pylayer.device``,
``pylayer.utils``, ``pylayer.incubate`` (segment reductions, graph message passing),
``pylayer.LazyGuard`` and ``pylayer.conv3d``; each rule as Paddle 3.3.1 (CPU) showed it."""
import warnings

import numpy as np
import pytest

import pylayer
import pylayer.device as device
import pylayer.framework as framework
import pylayer.utils as utils
from pylayer import incubate


# ------------------------------------------------------------------ framework
@pytest.mark.parametrize("name", ["CPUPlace", "ParamAttr", "disable_signal_handler",
                                  "disable_static", "enable_static", "get_default_dtype",
                                  "grad", "in_dynamic_mode", "no_grad", "seed",
                                  "set_default_dtype"])
def test_framework_reexports_are_the_top_level_objects(name):
    # Paddle: paddle.framework.no_grad is paddle.no_grad, and so on for each.
    assert getattr(framework, name) is getattr(pylayer, name)
    assert name in framework.__all__ and name in dir(framework)


def test_framework_static_classes_are_pylayer_static_ones():
    assert framework.Program is pylayer.static.Program
    assert framework.Block is pylayer.static.Block
    assert framework.Parameter is pylayer.static.Parameter
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        framework.nothing


def test_is_parameter_and_is_persistable():
    layer = pylayer.nn.Linear(2, 3)
    # Paddle: True for a layer's weight, False for a plain tensor or a non-tensor.
    assert framework.is_parameter(layer.weight) is True
    assert framework.is_parameter(pylayer.ones([1])) is False
    assert framework.is_parameter(1) is False
    assert framework.is_persistable(layer.bias) is True
    assert framework.is_persistable(pylayer.ones([1])) is False
    with pytest.raises(TypeError, match=r"is_persistable\(\): argument 'var'"):
        framework.is_persistable(1)


# ------------------------------------------------------------------ device
def test_device_queries_answer_as_paddles_cpu_build():
    assert device.get_all_device_type() == [] and device.get_available_device() == []
    assert device.is_available() is False
    assert device.get_cudnn_version() is None
    assert device.is_bf16_supported() is True and device.is_bf16_supported(False) is True
    assert [device.is_compiled_with_cinn(), device.is_compiled_with_ipu(),
            device.is_compiled_with_rocm(), device.is_compiled_with_xpu(),
            device.is_compiled_with_custom_device("npu")] == [False] * 5
    assert device.is_compiled_with_distribute() is True
    with pytest.raises(TypeError, match="device_type"):
        device.is_compiled_with_custom_device(3)


def test_typed_tensor_factories_are_the_top_level_ones():
    for name in ("FloatTensor", "DoubleTensor", "IntTensor", "LongTensor", "BoolTensor",
                 "ByteTensor", "CharTensor", "ShortTensor", "HalfTensor", "BFloat16Tensor"):
        assert getattr(device, name) is getattr(pylayer, name)


@pytest.mark.parametrize("value", ["cpu", 0, None, pylayer.CPUPlace(), " CPU "])
def test_device_context_accepts_the_cpu(value):
    with device.device(value) as entered:
        assert entered is None and pylayer.get_device() == "cpu"
    assert pylayer.get_device() == "cpu"


@pytest.mark.parametrize("value,error,match", [
    (1, ValueError, "only has index 0"), ("gpu:0", ValueError, "CPU only"),
    ("xx", ValueError, "must be 'cpu'"), (1.5, TypeError, "must be a str")])
def test_device_context_refuses_other_devices(value, error, match):
    with pytest.raises(error, match=match):
        device.device(value)


def test_device_guard():
    with device.device_guard("cpu"):
        assert pylayer.ones([1]).place == pylayer.CPUPlace()
    device.device_guard(pylayer.CPUPlace())
    # Paddle refuses a non-str, non-place device with ValueError.
    for bad in (0, None):
        with pytest.raises(ValueError, match="device_guard"):
            device.device_guard(bad)
    with pytest.raises(ValueError, match="CPU only"):
        device.device_guard("gpu")


def test_synchronize_on_the_cpu_returns_at_once():
    # Paddle 3.3.1's CPU build raises TypeError("device should be gpu, xpu, ") here even for
    # the current device; pylayer's work is always done, so it returns (as torch.cpu does).
    assert device.synchronize() is None
    assert device.synchronize("cpu") is None
    with pytest.raises(ValueError):
        device.synchronize("gpu:0")


def test_rng_state_is_one_state_and_restores_the_stream():
    state = device.get_rng_state()
    assert not isinstance(state, list)       # paddle.get_rng_state gives a list
    a = pylayer.rand([3]).numpy()
    device.set_rng_state(state)
    np.testing.assert_array_equal(pylayer.rand([3]).numpy(), a)
    with pytest.raises(TypeError, match="new_state"):
        device.set_rng_state(pylayer.get_rng_state())


def test_manual_seed_returns_none_and_seeds_the_stream():
    assert device.manual_seed(3) is None
    a = pylayer.rand([2]).numpy()
    pylayer.seed(3)
    np.testing.assert_array_equal(pylayer.rand([2]).numpy(), a)
    with pytest.raises(ValueError, match="seed"):
        device.manual_seed(-1)


# ------------------------------------------------------------------ utils
def test_deprecated_warns_edits_the_docstring_and_refuses_at_level_2():
    @utils.deprecated(update_to="paddle.bar", since="2.0", reason="old", level=1)
    def foo(x):
        """Doc of foo."""
        return x + 1

    assert foo.__doc__.startswith("\n\nWarning:\n    API ")
    assert foo.__doc__.endswith("Reason: old\n\nDoc of foo.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert foo(1) == 2
    assert caught[0].category is utils.VisibleDeprecationWarning
    assert issubclass(utils.VisibleDeprecationWarning, UserWarning)
    assert 'is deprecated since 2.0, and will be removed in future versions. Please use ' \
           '"paddle.bar" instead.' in str(caught[0].message)

    @utils.deprecated(level=2)
    def bar():
        pass

    with pytest.raises(RuntimeError, match="has been deprecated"):
        bar()


def test_deprecated_is_silent_before_its_version_and_at_level_0():
    @utils.deprecated(since="9.0", level=1)
    def later():
        return 3

    @utils.deprecated()
    def quiet():
        return 4

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert later() == 3 and quiet() == 4


def test_deprecated_checks_its_settings():
    with pytest.raises(ValueError, match="level"):
        utils.deprecated(level=3)
    with pytest.raises(ValueError, match="update_to"):
        utils.deprecated(update_to="torch.x")
    with pytest.raises(TypeError, match="since"):
        utils.deprecated(since=1)


def test_require_version_against_the_api_version_pylayer_follows():
    assert utils.require_version("2.0") is None
    assert utils.require_version("2.0", "3.3.1") is None
    with pytest.raises(RuntimeError, match="4.0 or newer"):
        utils.require_version("4.0")
    with pytest.raises(RuntimeError, match=r"in \[2.0, 3.0\]"):
        utils.require_version("2.0", "3.0")
    with pytest.raises(TypeError, match="min_version"):
        utils.require_version(1)
    with pytest.raises(ValueError, match="min_version"):
        utils.require_version("2.x")
    with pytest.raises(TypeError, match="max_version"):
        utils.require_version("2.0", 3)


def test_try_import():
    import json
    assert utils.try_import("json") is json
    with pytest.raises(ImportError, match=r"pip install no_such_pkg_xyz`"):
        utils.try_import("no_such_pkg_xyz.sub")
    if not _importable("cv2"):
        with pytest.raises(ImportError, match="opencv-python"):
            utils.try_import("cv2")
    with pytest.raises(ImportError, match="^custom message$"):
        utils.try_import("no_such_pkg_xyz", "custom message")


def _importable(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def test_run_check_trains_and_reports(capsys):
    utils.run_check()
    out = capsys.readouterr().out
    assert "pylayer works well on 1 CPU." in out and "installed successfully" in out
    assert pylayer.in_dynamic_mode()


# ------------------------------------------------------------------ LazyGuard, conv3d
def test_lazy_guard_builds_ready_layers_and_conv3d_is_the_functional_one():
    with pylayer.LazyGuard() as entered:
        layer = pylayer.nn.Linear(3, 4)
    assert entered is None
    assert list(layer.state_dict()) == ["weight", "bias"]
    assert layer(pylayer.ones([2, 3])).shape == [2, 4]
    assert pylayer.conv3d is pylayer.nn.functional.conv3d


# ------------------------------------------------------------------ incubate
X_ROWS = [[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
WEIGHTS = np.arange(9, dtype="float32").reshape(3, 3)

# Paddle 3.3.1: ids [0, 0, 2, 2], loss sum(out * arange(9).reshape(3, 3)).
SEGMENTS = {
    "segment_sum": ([[4, 4, 4], [0, 0, 0], [11, 13, 15]],
                    [[0, 1, 2], [0, 1, 2], [6, 7, 8], [6, 7, 8]]),
    "segment_mean": ([[2, 2, 2], [0, 0, 0], [5.5, 6.5, 7.5]],
                     [[0, 0.5, 1], [0, 0.5, 1], [3, 3.5, 4], [3, 3.5, 4]]),
    "segment_max": ([[3, 2, 3], [0, 0, 0], [7, 8, 9]],
                    [[0, 1, 2], [0, 1, 0], [0, 0, 0], [6, 7, 8]]),
    "segment_min": ([[1, 2, 1], [0, 0, 0], [4, 5, 6]],
                    [[0, 1, 0], [0, 1, 2], [6, 7, 8], [0, 0, 0]]),
}


@pytest.mark.parametrize("name", sorted(SEGMENTS))
def test_segment_values_and_gradients_are_paddles(name):
    x = pylayer.to_tensor(X_ROWS, stop_gradient=False)
    out = getattr(incubate, name)(x, pylayer.to_tensor([0, 0, 2, 2]))
    (out * pylayer.to_tensor(WEIGHTS)).sum().backward()
    expected, grad = SEGMENTS[name]
    np.testing.assert_array_equal(out.numpy(), np.array(expected, "float32"))
    np.testing.assert_array_equal(x.grad.numpy(), np.array(grad, "float32"))


def test_segment_ties_each_get_the_whole_gradient():
    x = pylayer.to_tensor([1.0, 1.0, 2.0], stop_gradient=False)
    incubate.segment_max(x, pylayer.to_tensor([0, 0, 1])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0, 1.0])


def test_segment_integers_and_shapes():
    ids = pylayer.to_tensor([0, 0, 1])
    assert incubate.segment_mean(pylayer.to_tensor([1, 2, 4]), ids).numpy().tolist() == [1, 4]
    assert incubate.segment_mean(pylayer.to_tensor([-1, -2, 4]), ids).numpy().tolist() == [-1, 4]
    assert incubate.segment_sum(pylayer.to_tensor([1, 2, 3]), ids).dtype == pylayer.int64
    # ids of shape [n, 1] are accepted, as in Paddle; int32 ids too
    out = incubate.segment_sum(pylayer.to_tensor(X_ROWS), pylayer.to_tensor([[0], [0], [1], [1]]))
    np.testing.assert_array_equal(out.numpy(), [[4, 4, 4], [11, 13, 15]])
    assert incubate.segment_max(pylayer.ones([0, 3]),
                                pylayer.to_tensor([], dtype="int64")).shape == [0, 3]


@pytest.mark.parametrize("data,ids,error,match", [
    (X_ROWS, [2, 0, 0, 1], ValueError, "sorted"),
    (X_ROWS, [0, 0, 1], ValueError, "one id per row"),
    (X_ROWS, [[0, 0], [1, 1]], ValueError, "1-D"),
    (X_ROWS, [-1, 0, 1, 1], ValueError, ">= 0"),
    ([1.0, 2.0], np.array([0.0, 1.0], "float32"), TypeError, "int32 or int64"),
    (np.array([True, False]), [0, 1], TypeError, "float16, float32"),
])
def test_segment_refusals(data, ids, error, match):
    with pytest.raises(error, match=r"segment_sum\(\): argument '.*" + match):
        incubate.segment_sum(pylayer.to_tensor(data), pylayer.to_tensor(ids))


SEND_RECV = {   # Paddle 3.3.1: src [0, 1, 2, 0], dst [1, 2, 1, 0]
    "sum": ([[0, 2, 3], [2, 8, 10], [1, 4, 5]], [[3, 5, 7], [6, 7, 8], [3, 4, 5]]),
    "mean": ([[0, 2, 3], [1, 4, 5], [1, 4, 5]], [[1.5, 3, 4.5], [6, 7, 8], [1.5, 2, 2.5]]),
    "max": ([[0, 2, 3], [2, 6, 7], [1, 4, 5]], [[0, 1, 2], [6, 7, 8], [3, 4, 5]]),
    "min": ([[0, 2, 3], [0, 2, 3], [1, 4, 5]], [[3, 5, 7], [6, 7, 8], [0, 0, 0]]),
}


@pytest.mark.parametrize("pool", sorted(SEND_RECV))
def test_graph_send_recv_values_and_gradients_are_paddles(pool):
    x = pylayer.to_tensor([[0.0, 2, 3], [1, 4, 5], [2, 6, 7]], stop_gradient=False)
    out = incubate.graph_send_recv(x, pylayer.to_tensor([0, 1, 2, 0]),
                                   pylayer.to_tensor([1, 2, 1, 0]), pool_type=pool)
    (out * pylayer.to_tensor(WEIGHTS)).sum().backward()
    expected, grad = SEND_RECV[pool]
    np.testing.assert_array_equal(out.numpy(), np.array(expected, "float32"))
    np.testing.assert_array_equal(x.grad.numpy(), np.array(grad, "float32"))


def test_graph_send_recv_out_size_and_edges():
    x = pylayer.to_tensor([[0.0, 2, 3], [1, 4, 5], [2, 6, 7]])
    src, dst = pylayer.to_tensor([0, 1, 2, 0]), pylayer.to_tensor([1, 2, 1, 0])
    assert incubate.graph_send_recv(x, src, dst, out_size=5).shape == [5, 3]
    assert incubate.graph_send_recv(x, src, dst, out_size=pylayer.to_tensor(4)).shape == [4, 3]
    for size in (0, -1, None):            # not positive: as many rows as x
        assert incubate.graph_send_recv(x, src, dst, out_size=size).shape == [3, 3]
    empty = pylayer.to_tensor([], dtype="int64")
    assert incubate.graph_send_recv(x, empty, empty).numpy().tolist() == [[0.0] * 3] * 3
    ints = pylayer.to_tensor([[-3], [-1]], dtype="int64")
    assert incubate.graph_send_recv(ints, pylayer.to_tensor([0, 1]), pylayer.to_tensor([0, 0]),
                                    pool_type="mean").numpy().tolist() == [[-2], [0]]
    # a sender reused by two receivers gets both gradients (max)
    y = pylayer.to_tensor([[1.0], [2.0]], stop_gradient=False)
    incubate.graph_send_recv(y, pylayer.to_tensor([0, 0]), pylayer.to_tensor([0, 1]),
                             pool_type="max").sum().backward()
    assert y.grad.numpy().tolist() == [[2.0], [0.0]]


def test_graph_send_recv_refusals():
    x = pylayer.to_tensor([[0.0, 2, 3], [1, 4, 5], [2, 6, 7]])
    src, dst = pylayer.to_tensor([0, 1, 2, 0]), pylayer.to_tensor([1, 2, 1, 0])
    with pytest.raises(ValueError, match="pool_type"):
        incubate.graph_send_recv(x, src, dst, pool_type="SUM")      # Paddle: lower case only
    with pytest.raises(IndexError, match="dst_index"):
        incubate.graph_send_recv(x, src, dst, out_size=1)
    with pytest.raises(IndexError, match="src_index"):
        incubate.graph_send_recv(x, pylayer.to_tensor([0, 1, 5, 0]), dst)
    with pytest.raises(ValueError, match="same length"):
        incubate.graph_send_recv(x, src, pylayer.to_tensor([0, 1, 1]))
    with pytest.raises(TypeError, match="float32, float64, int32 or int64"):
        incubate.graph_send_recv(x.astype("float16"), src, dst)


# ------------------------------------------------------------------ incubate.autograd (static)
@pytest.mark.parametrize("name", ["grad", "forward_grad", "enable_prim", "disable_prim"])
def test_incubate_autograd_static_functions_refuse_dynamic_mode(name):
    # Paddle: "... is only supported in static graph mode" (an AssertionError there).
    x = pylayer.ones([2])
    args = {"grad": (x, x), "forward_grad": (x, x)}.get(name, ())
    with pytest.raises(RuntimeError, match=f"{name}\\(\\) works in static graph mode only"):
        getattr(incubate.autograd, name)(*args)


def test_incubate_autograd_grad_and_forward_grad_in_static_mode():
    ag = incubate.autograd
    pylayer.enable_static()
    try:
        ag.disable_prim()
        main = pylayer.static.Program()
        with pylayer.static.program_guard(main):
            x = pylayer.static.data("x", [2], "float32")
            x.stop_gradient = False
            w = pylayer.static.data("w", [2, 3], "float32")
            w.stop_gradient = False
            y = pylayer.tanh(x) * x
            z = pylayer.matmul(pylayer.reshape(x, [1, 2]), w)
            single, listed = ag.grad(y, x), ag.grad([y], [x])
            with pytest.raises(RuntimeError, match="enable_prim"):
                ag.forward_grad(y, x)
            ag.enable_prim()
            assert ag.prim_enabled() is True
            tangent = ag.forward_grad(y, x)
            products = ag.forward_grad([z], [x, w], [pylayer.ones([2]), pylayer.ones([2, 3])])
            ag.disable_prim()
        assert isinstance(listed, list) and not isinstance(single, list)
        xv, wv = np.array([0.5, 1.0], "float32"), np.arange(6, dtype="float32").reshape(2, 3)
        got = pylayer.static.Executor().run(main, feed={"x": xv, "w": wv},
                                            fetch_list=[single, listed[0], tangent, products[0]])
    finally:
        pylayer.disable_static()
    derivative = np.tanh(xv) + xv * (1 - np.tanh(xv) ** 2)
    for found in got[:3]:
        np.testing.assert_allclose(found, derivative, rtol=1e-6)
    np.testing.assert_allclose(got[3], [np.ones(2) @ wv + xv @ np.ones((2, 3))], rtol=1e-6)


# ------------------------------------------------------------------ incubate graph sampling
ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_sample_neighbors_keeps_every_neighbour_up_to_the_size_as_paddle(dtype):
    # Paddle 3.3.1, sample_size=2 (no node has more): [3, 7, 9, 7, 0, 9, 1], [2, 2, 2, 1],
    # eids [0, 1, 11, 12, 2, 3, 4]. (Its default sample_size=-1 aborts the process there.)
    row, colptr = pylayer.to_tensor(ROW, dtype=dtype), pylayer.to_tensor(COLPTR, dtype=dtype)
    nodes, eids = pylayer.to_tensor([0, 8, 1, 2], dtype=dtype), pylayer.arange(13, dtype=dtype)
    for size in (2, 5, -1):
        out, count, ids = incubate.graph_sample_neighbors(row, colptr, nodes, eids=eids,
                                                          sample_size=size, return_eids=True)
        assert out.numpy().tolist() == [3, 7, 9, 7, 0, 9, 1] and out.dtype == row.dtype
        assert count.numpy().tolist() == [2, 2, 2, 1] and count.dtype == row.dtype
        assert ids.numpy().tolist() == [0, 1, 11, 12, 2, 3, 4]
    out, count = incubate.graph_sample_neighbors(row, colptr, nodes, sample_size=0)
    assert out.numpy().tolist() == [] and count.numpy().tolist() == [0, 0, 0, 0]


def test_sample_neighbors_draws_reproducibly_from_the_neighbours():
    row, colptr = pylayer.to_tensor(ROW), pylayer.to_tensor(COLPTR)
    nodes = pylayer.to_tensor([0, 8, 1, 2, 5])
    pylayer.seed(4)
    out, count = incubate.graph_sample_neighbors(row, colptr, nodes, sample_size=1)
    assert count.numpy().tolist() == [1] * 5
    for node, picked in zip([0, 8, 1, 2, 5], out.numpy().tolist()):
        assert picked in ROW[COLPTR[node]:COLPTR[node + 1]]
    pylayer.seed(4)
    again, _ = incubate.graph_sample_neighbors(row, colptr, nodes, sample_size=1)
    assert again.numpy().tolist() == out.numpy().tolist()


def test_sample_neighbors_refusals():
    row, colptr = pylayer.to_tensor(ROW), pylayer.to_tensor(COLPTR)
    with pytest.raises(ValueError, match="'eids' must be given"):
        incubate.graph_sample_neighbors(row, colptr, pylayer.to_tensor([0]), return_eids=True)
    with pytest.raises(ValueError, match="'perm_buffer' must be given"):
        incubate.graph_sample_neighbors(row, colptr, pylayer.to_tensor([0]),
                                        flag_perm_buffer=True)
    # Paddle reads past colptr for node 20 and returns garbage; pylayer refuses.
    with pytest.raises(ValueError, match="input_nodes"):
        incubate.graph_sample_neighbors(row, colptr, pylayer.to_tensor([20]), sample_size=2)


def test_reindex_is_paddles():
    x = pylayer.to_tensor([0, 1, 2])
    neighbors = pylayer.to_tensor([8, 9, 0, 4, 7, 6, 7])
    count = pylayer.to_tensor([2, 3, 2], dtype="int32")
    src, dst, nodes = incubate.graph_reindex(x, neighbors, count)
    assert src.numpy().tolist() == [3, 4, 0, 5, 6, 7, 6]
    assert dst.numpy().tolist() == [0, 0, 1, 1, 1, 2, 2]
    assert nodes.numpy().tolist() == [0, 1, 2, 8, 9, 4, 7, 6]
    # a repeated node of x keeps its place in the nodes and takes its last number
    src, dst, nodes = incubate.graph_reindex(pylayer.to_tensor([5, 5, 1]), neighbors, count)
    assert src.numpy().tolist() == [3, 4, 5, 6, 7, 8, 7]
    assert dst.numpy().tolist() == [1, 1, 1, 1, 1, 2, 2]
    assert nodes.numpy().tolist() == [5, 5, 1, 8, 9, 0, 4, 7, 6]
    ints = incubate.graph_reindex(x.astype("int32"), neighbors.astype("int32"), count)
    assert all(t.dtype == pylayer.int32 for t in ints)
    with pytest.raises(ValueError, match="value_buffer"):
        incubate.graph_reindex(x, neighbors, count, flag_buffer_hashtable=True)
    # Paddle accepts counts that do not add up and reads past them; pylayer refuses.
    with pytest.raises(ValueError, match="count"):
        incubate.graph_reindex(x, neighbors, pylayer.to_tensor([2, 3, 1], dtype="int32"))


def test_khop_sampler_hops_and_renumbers():
    row, colptr = pylayer.to_tensor(ROW), pylayer.to_tensor(COLPTR)
    src, dst, nodes, inputs, eids = incubate.graph_khop_sampler(
        row, colptr, pylayer.to_tensor([0, 2]), [-1, -1], sorted_eids=pylayer.arange(13),
        return_eids=True)
    # hop 1: 0 <- 3, 7; 2 <- 1.  hop 2 (frontier 3, 7, 1): 3 <- 4; 7 <- (none); 1 <- 0, 9
    assert nodes.numpy().tolist() == [0, 2, 3, 7, 1, 4, 9]
    assert inputs.numpy().tolist() == [0, 1]
    assert src.shape == [6, 1] and dst.shape == [6, 1]
    assert src.numpy().ravel().tolist() == [2, 3, 4, 5, 0, 6]
    assert dst.numpy().ravel().tolist() == [0, 0, 1, 2, 4, 4]
    assert eids.numpy().ravel().tolist() == [0, 1, 4, 5, 2, 3]
    with pytest.raises(ValueError, match="sorted_eids"):
        incubate.graph_khop_sampler(row, colptr, pylayer.to_tensor([0]), [-1], return_eids=True)


def test_reprs():
    assert repr(pylayer.LazyGuard()) == "LazyGuard()"
    assert repr(device.device("cpu")) == "device(Place(cpu))"
    assert repr(device.device_guard("cpu")) == "device_guard(Place(cpu))"
