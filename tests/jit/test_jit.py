"""paddle.jit: to_static on functions and Layers, InputSpec, jit.save/jit.load."""
import json
import math
import os

import numpy as np
import pytest

import pylayer as paddle
import pylayer.nn.functional as F
from pylayer.autograd import PyLayer
from pylayer.static import InputSpec


@pytest.fixture(autouse=True)
def to_static_on():
    yield
    paddle.jit.enable_to_static(True)
    assert paddle.in_dynamic_mode()


def _mlp(seed=0):
    paddle.seed(seed)
    return paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(),
                                paddle.nn.Linear(8, 3))


class Doubled(PyLayer):
    """A PyLayer whose backward is deliberately not the forward's derivative."""

    @staticmethod
    def forward(ctx, x, scale=1.0):
        return paddle.tanh(x) * scale

    @staticmethod
    def backward(ctx, dy):
        return dy * 2.0


# ---------------------------------------------------------------- InputSpec
def test_input_spec_matches_paddle():
    spec = InputSpec([None, 3], "float32", "x")
    assert repr(spec) == ("InputSpec(shape=(-1, 3), dtype=pylayer.float32, name=x, "
                          "stop_gradient=False)")
    assert spec.batch(4).shape == (4, -1, 3)
    assert spec.batch([2]).shape == (2, -1, 3)
    assert InputSpec([4, 3]).unbatch().shape == (3,)
    assert InputSpec([None]) == InputSpec([-1])
    assert InputSpec([2]) != InputSpec([2], stop_gradient=True)
    assert hash(InputSpec([2, 3])) == hash(InputSpec([2, 3]))
    t = paddle.ones([2, 3], dtype="float64")
    assert InputSpec.from_tensor(t, name="a").shape == (2, 3)
    assert InputSpec.from_tensor(t).dtype == paddle.float64
    assert InputSpec.from_numpy(np.zeros([5], "int64"), name="n").dtype == paddle.int64


@pytest.mark.parametrize("call, error", [
    (lambda: InputSpec(3), TypeError),
    (lambda: InputSpec([2.5]), TypeError),
    (lambda: InputSpec([2], "foo"), TypeError),
    (lambda: InputSpec([]).unbatch(), ValueError),
    (lambda: InputSpec([2]).batch(2.5), TypeError),
    (lambda: InputSpec([2]).batch(None), TypeError),
    (lambda: InputSpec([2]).batch([2, 3]), ValueError),
    (lambda: InputSpec.from_tensor(np.zeros(2)), TypeError),
    (lambda: InputSpec.from_numpy([1, 2]), TypeError),
])
def test_input_spec_errors(call, error):
    with pytest.raises(error, match="InputSpec"):
        call()


# ------------------------------------------------------------ to_static
def test_function_gives_the_dynamic_values_and_caches_per_signature():
    def f(x, y, power=2):
        return paddle.tanh(x) ** power + y.sum()

    g = paddle.jit.to_static(f)
    x, y = paddle.randn([3, 2]), paddle.randn([4])
    np.testing.assert_allclose(g(x, y).numpy(), f(x, y).numpy(), rtol=1e-6)
    g(paddle.randn([3, 2]), paddle.randn([4]))
    assert g.get_traced_count() == 1
    g(paddle.randn([5, 2]), y)                              # new shape: new program
    np.testing.assert_allclose(g(x, y, power=3).numpy(), f(x, y, 3).numpy(), rtol=1e-6)
    assert g.get_traced_count() == 3
    assert isinstance(g.concrete_program.main_program, paddle.static.Program)


def test_input_spec_none_dimension_gives_one_program_for_all_batch_sizes():
    net = paddle.jit.to_static(_mlp(), input_spec=[InputSpec([None, 4], "float32")])
    for batch in (1, 5, 7):
        x = paddle.randn([batch, 4])
        assert net(x).shape == [batch, 3]
    assert net.forward.get_traced_count() == 1
    assert net.forward.main_program.global_block().var("input_0").shape == [-1, 4]
    with pytest.raises(ValueError, match="input_spec"):
        net(paddle.randn([2, 5]))


def test_decorator_forms_and_layer_method():
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 2)

        @paddle.jit.to_static(input_spec=[InputSpec([None, 4])])
        def forward(self, x):
            return F.relu(self.fc(x))

    a, b = Net(), Net()
    x = paddle.randn([3, 4])
    np.testing.assert_allclose(a(x).numpy(), F.relu(a.fc(x)).numpy())
    np.testing.assert_allclose(b(x).numpy(), F.relu(b.fc(x)).numpy())
    assert a.forward is not b.forward

    @paddle.jit.to_static
    def h(x):
        return x * 3.0
    assert isinstance(h, paddle.jit.StaticFunction)
    np.testing.assert_allclose(h(paddle.ones([2])).numpy(), [3.0, 3.0])


def test_gradients_equal_the_dynamic_ones():
    net, ref = _mlp(), _mlp()
    x, label = paddle.randn([6, 4]), paddle.to_tensor([0, 1, 2, 0, 1, 2])
    paddle.jit.to_static(net)
    F.cross_entropy(net(x), label).backward()
    F.cross_entropy(ref(x), label).backward()
    for p, q in zip(net.parameters(), ref.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-6)


def test_training_through_to_static_lowers_the_loss():
    net = paddle.jit.to_static(_mlp(), input_spec=[InputSpec([None, 4])])
    opt = paddle.optimizer.Adam(0.05, parameters=net.parameters())
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal([32, 4]).astype("float32"))
    label = paddle.to_tensor((rng.standard_normal(32) > 0).astype("int64"))
    losses = []
    for _ in range(30):
        loss = F.cross_entropy(net(x), label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    assert net.forward.get_traced_count() == 1


def test_pylayer_is_captured_with_its_backward():
    @paddle.jit.to_static
    def f(x):
        return Doubled.apply(x, scale=3.0)

    x = paddle.randn([3])
    x.stop_gradient = False
    y = f(x)
    np.testing.assert_allclose(y.numpy(), np.tanh(x.numpy()) * 3.0, rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0, 2.0])
    assert [op.type for op in f.main_program.global_block().ops] == ["apply"]


def test_control_flow_on_a_tensor_value_names_the_line():
    @paddle.jit.to_static
    def f(x):
        if x.sum() > 0:          # the line the error names
            return x
        return -x

    line = f.__wrapped__.__code__.co_firstlineno + 2
    with pytest.raises(TypeError) as info:
        f(paddle.ones([2]))
    message = str(info.value)
    assert f"line {line}" in message and "if x.sum() > 0:" in message
    assert os.path.basename(__file__) in message


def test_random_ops_draw_anew_on_each_run():
    @paddle.jit.to_static
    def noisy(x):
        return x + paddle.rand([3])

    a, b = noisy(paddle.zeros([3])), noisy(paddle.zeros([3]))
    assert not np.array_equal(a.numpy(), b.numpy())


def test_train_and_eval_modes_have_programs_of_their_own():
    paddle.seed(0)
    net = paddle.jit.to_static(paddle.nn.Sequential(paddle.nn.Dropout(0.5)))
    x = paddle.ones([200])
    assert (net(x).numpy() == 0).any()
    net.eval()
    np.testing.assert_array_equal(net(x).numpy(), x.numpy())
    assert net.forward.get_traced_count() == 2


def test_switches():
    calls = []

    def f(x):
        calls.append(1)
        return x + 1

    g = paddle.jit.to_static(f)
    g(paddle.ones([1]))
    g(paddle.ones([1]))
    assert len(calls) == 1                 # captured once, then replayed
    paddle.jit.enable_to_static(False)
    g(paddle.ones([1]))
    assert len(calls) == 2                 # runs the Python code
    paddle.jit.enable_to_static(True)
    with pytest.raises(TypeError, match="enable_to_static_bool"):
        paddle.jit.enable_to_static(1)

    @paddle.jit.not_to_static
    def plain(x):
        return x
    assert paddle.jit.to_static(plain) is plain
    with pytest.raises(TypeError, match="list of modules"):
        paddle.jit.ignore_module(math)
    paddle.jit.ignore_module([math])
    assert paddle.jit.to_static(math.sqrt) is math.sqrt


def test_rollback_restores_the_layer_forward():
    net = paddle.jit.to_static(_mlp())
    assert isinstance(net.forward, paddle.jit.StaticFunction)
    net.forward.rollback()
    assert not isinstance(net.forward, paddle.jit.StaticFunction)


def test_to_static_argument_errors():
    with pytest.raises(TypeError, match="input_spec"):
        paddle.jit.to_static(lambda x: x, input_spec=InputSpec([2]))
    with pytest.raises(TypeError, match="function"):
        paddle.jit.to_static(3)
    with pytest.raises(TypeError, match="unexpected"):
        paddle.jit.to_static(lambda x: x, bogus=1)
    with pytest.raises(TypeError, match="level"):
        paddle.jit.set_code_level("high")
    with pytest.raises(TypeError, match="also_to_stdout"):
        paddle.jit.set_verbosity(1, also_to_stdout=1)


def test_code_level_prints_the_captured_program(capsys):
    paddle.jit.set_code_level(1, also_to_stdout=True)
    try:
        paddle.jit.to_static(lambda x: paddle.exp(x))(paddle.ones([2]))
    finally:
        paddle.jit.set_code_level(0)
    assert "exp(" in capsys.readouterr().out


# ----------------------------------------------------------- save and load
class _WithPyLayer(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 6)
        self.fc2 = paddle.nn.Linear(6, 2)

    def forward(self, x):
        h = Doubled.apply(self.fc1(x), scale=2.0)
        return self.fc2(h)[:, :1], F.softmax(h, axis=-1)


def test_save_and_load_round_trip(tmp_path):
    paddle.seed(1)
    net = paddle.jit.to_static(_WithPyLayer(), input_spec=[InputSpec([None, 4], name="x")])
    x = paddle.randn([5, 4])
    expected = net(x)
    path = str(tmp_path / "model" / "net")
    paddle.jit.save(net, path)
    assert sorted(os.listdir(tmp_path / "model")) == ["net.json", "net.pdiparams"]
    saved = json.loads((tmp_path / "model" / "net.json").read_text())
    assert saved["format"] == "pylayer.jit.program"
    assert saved["inputs"] == [{"name": "x", "shape": [-1, 4], "dtype": "float32",
                                "stop_gradient": True}]
    loaded = paddle.jit.load(path)
    assert isinstance(loaded, paddle.jit.TranslatedLayer)
    assert list(loaded.state_dict()) == ["param_0", "param_1", "param_2", "param_3"]
    got = loaded(x)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    got = loaded(paddle.randn([2, 4]))      # any batch size
    assert got[0].shape == [2, 1]
    again = str(tmp_path / "again")
    paddle.jit.save(loaded, again)
    np.testing.assert_allclose(paddle.jit.load(again)(x)[0].numpy(), expected[0].numpy(),
                               rtol=1e-6)


def test_loaded_layer_trains(tmp_path):
    path = str(tmp_path / "mlp")
    paddle.jit.save(_mlp(), path, input_spec=[InputSpec([None, 4])])
    loaded = paddle.jit.load(path)
    opt = paddle.optimizer.SGD(0.1, parameters=loaded.parameters())
    x, label = paddle.randn([16, 4]), paddle.to_tensor(np.arange(16) % 3)
    first = None
    for _ in range(20):
        loss = F.cross_entropy(loaded(x), label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        first = float(loss) if first is None else first
    assert float(loss) < first


def test_save_needs_a_signature_and_load_checks_files(tmp_path):
    with pytest.raises(ValueError, match="input_spec"):
        paddle.jit.save(_mlp(), str(tmp_path / "m"))
    with pytest.raises(ValueError, match="no saved program"):
        paddle.jit.load(str(tmp_path / "missing"))
    (tmp_path / "paddle.json").write_text(json.dumps({"program": {}}))
    with pytest.raises(ValueError, match="not a pylayer program"):
        paddle.jit.load(str(tmp_path / "paddle"))
    (tmp_path / "evil.json").write_text(json.dumps({
        "format": "pylayer.jit.program", "version": 1, "inputs": [], "params": [],
        "ops": [{"fn": "os:system", "args": ["true"], "kwargs": {}, "outputs": [],
                 "shapes": [], "dtypes": [], "out_index": []}], "outputs": None}))
    with pytest.raises(ValueError, match="not an op of pylayer"):
        paddle.jit.load(str(tmp_path / "evil"))


def test_translated_layer_checks_its_inputs(tmp_path):
    path = str(tmp_path / "m")
    paddle.jit.save(_mlp(), path, input_spec=[InputSpec([None, 4])])
    loaded = paddle.jit.load(path)
    with pytest.raises(TypeError, match="1 Tensor"):
        loaded(paddle.ones([1, 4]), paddle.ones([1, 4]))
    with pytest.raises(TypeError, match="dtype float32"):
        loaded(paddle.ones([1, 4], dtype="float64"))
    with pytest.raises(ValueError, match="shape"):
        loaded(paddle.ones([1, 5]))
    assert isinstance(loaded.program(), paddle.static.Program)


def test_a_cnn_with_batch_norm_matches_dynamic_mode_step_for_step():
    def make():
        paddle.seed(3)
        return paddle.nn.Sequential(
            paddle.nn.Conv2D(1, 4, 3, padding=1), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU(),
            paddle.nn.MaxPool2D(2), paddle.nn.Flatten(), paddle.nn.Linear(16, 3))

    dynamic = make()
    static = paddle.jit.to_static(make(), input_spec=[InputSpec([None, 1, 4, 4])])
    opts = [paddle.optimizer.SGD(0.1, parameters=m.parameters()) for m in (dynamic, static)]
    x, label = paddle.randn([6, 1, 4, 4]), paddle.to_tensor([0, 1, 2, 0, 1, 2])
    for _ in range(3):
        losses = []
        for model, opt in zip((dynamic, static), opts):
            loss = F.cross_entropy(model(x), label)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        assert losses[0] == pytest.approx(losses[1], rel=1e-5)
    # the running statistics were updated once per step, not by the capture
    np.testing.assert_allclose(static[1]._mean.numpy(), dynamic[1]._mean.numpy(), rtol=1e-5)
    dynamic.eval()
    static.eval()
    np.testing.assert_allclose(static(x).numpy(), dynamic(x).numpy(), rtol=1e-5, atol=1e-6)


def test_nested_to_static_is_captured_inline():
    inner = paddle.jit.to_static(paddle.nn.Linear(3, 3))

    @paddle.jit.to_static
    def outer(x):
        return paddle.tanh(inner(x))

    x = paddle.ones([2, 3])
    expected = paddle.tanh(inner.forward.dygraph_function(x))
    np.testing.assert_allclose(outer(x).numpy(), expected.numpy(), rtol=1e-6)
    assert [op.type for op in outer.main_program.global_block().ops] == ["linear", "tanh"]


def test_a_function_closing_over_batch_norm_updates_its_statistics_once_per_call():
    bn, reference = paddle.nn.BatchNorm1D(2), paddle.nn.BatchNorm1D(2)

    @paddle.jit.to_static
    def normalized(x):
        return bn(x)

    x = paddle.to_tensor([[1.0, 2.0], [3.0, 6.0]])
    for _ in range(2):
        normalized(x)
        reference(x)
    np.testing.assert_allclose(bn._mean.numpy(), reference._mean.numpy(), rtol=1e-6)


# ------------------------------------------------------ against Paddle 3.3.1
class _PaddleTanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


class _PaddleNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 8)
        self.fc2 = paddle.nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(_PaddleTanh.apply(self.fc1(x)))


def test_to_static_training_gives_paddles_losses(tmp_path):
    """tests/jit/data/pylayer_mlp.pdparams and .npz were written by Paddle 3.3.1 (CPU)
    with this same model and PyLayer written in Paddle: ``paddle.seed(7)``, the new
    model's ``state_dict`` saved with ``paddle.save``; ``x`` (float32 [6, 4]) and
    ``label`` (int64 [6]) from ``np.random.default_rng(0)``; the model wrapped with
    ``paddle.jit.to_static(net, input_spec=[InputSpec([None, 4], "float32")],
    full_graph=True)``; ``out0``, its output for ``x``; ``losses``, the cross-entropy
    of four steps of ``SGD(0.5)`` taken through it."""
    data_dir = os.path.join(os.path.dirname(__file__), "data")
    recorded = np.load(os.path.join(data_dir, "pylayer_mlp.npz"))
    net = _PaddleNet()
    net.set_state_dict(paddle.load(os.path.join(data_dir, "pylayer_mlp.pdparams")))
    net = paddle.jit.to_static(net, input_spec=[InputSpec([None, 4], "float32")])
    x, label = paddle.to_tensor(recorded["x"]), paddle.to_tensor(recorded["label"])
    np.testing.assert_allclose(net(x).numpy(), recorded["out0"], rtol=1e-5, atol=1e-6)
    opt = paddle.optimizer.SGD(0.5, parameters=net.parameters())
    losses = []
    for _ in range(4):
        loss = F.cross_entropy(net(x), label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    np.testing.assert_allclose(losses, recorded["losses"], rtol=1e-5)
    path = str(tmp_path / "trained")
    paddle.jit.save(net, path)
    np.testing.assert_allclose(paddle.jit.load(path)(x).numpy(), net(x).numpy(), rtol=1e-6)


# ------------------------------------------------- capture writes into no tensor
class _Holder:
    """Keeps tensors out of the reach of a search of closures for Layers."""

    def __init__(self, **tensors):
        self.__dict__.update(tensors)


def test_capture_leaves_tensors_written_in_place_by_the_ops_unchanged():
    held = _Holder(mean=paddle.to_tensor([0.25, -1.0]), variance=paddle.to_tensor([2.0, 3.0]),
                   last=paddle.to_tensor([7.0, 8.0]))

    def normalized(x):
        paddle.assign(x.mean(axis=0), output=held.last)
        return F.batch_norm(x, held.mean, held.variance, training=True, momentum=0.5)

    static = paddle.jit.to_static(normalized)
    static.get_concrete_program(InputSpec([None, 2]))
    np.testing.assert_array_equal(held.mean.numpy(), [0.25, -1.0])
    np.testing.assert_array_equal(held.variance.numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(held.last.numpy(), [7.0, 8.0])
    # a run updates them once, as the function does in dynamic mode
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 6.0]])
    static(x)
    np.testing.assert_allclose(held.last.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(held.mean.numpy(), [0.5 * 0.25 + 0.5 * 2.0, 0.5 * -1.0 + 0.5 * 4.0])


def test_static_recording_writes_into_no_real_tensor():
    running = paddle.to_tensor([1.0, 1.0])
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            x = paddle.static.data("x", [-1, 2], "float32")
            paddle.assign(x.sum(axis=0), output=running)
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(running.numpy(), [1.0, 1.0])


def test_jit_imports_no_private_module_of_another_package():
    import ast
    import pathlib
    root = pathlib.Path(paddle.jit.__file__).parent
    private = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pylayer."):
                parts = node.module.split(".")
                if parts[1] == "jit":
                    continue
                if any(p.startswith("_") for p in parts[1:]) or any(
                        a.name.startswith("_") for a in node.names):
                    private.append(f"{path.name}:{node.lineno} {node.module}")
    assert private == []
