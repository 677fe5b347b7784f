"""pylayer.amp: auto_cast by Paddle's operator lists, GradScaler, decorate.

The GradScaler values were recorded from Paddle 3.3.1 (CPU wheel) with its scaler
constructed as on a GPU (Paddle's CPU build disables the scaler: "AmpScaler can only be
enabled on CUDAPlace..."), a [2] float32 parameter of ones, SGD(0.5), init_loss_scaling=8,
incr_ratio=2, decr_ratio=0.25, incr_every_n_steps=2, decr_every_n_nan_or_inf=2, and the
losses (w * [f, 2]).sum() for the factors f below.
"""
import threading
import warnings

import numpy as np
import pytest

import pylayer
from pylayer import amp

F = pylayer.nn.functional


def bf16(shape):
    return pylayer.randn(shape).astype("bfloat16")


# ---------------------------------------------------------------- auto_cast
def test_white_black_and_gray_ops_in_o1():
    x, w = pylayer.randn([4, 3]), pylayer.randn([3, 5])
    with amp.auto_cast(dtype="bfloat16"):
        y = pylayer.matmul(x, w)              # white
        e = pylayer.exp(y)                    # black: cast up
        r = F.relu(y)                         # gray, all bfloat16: stays
        s = pylayer.add(y, x.sum())           # gray, a float32 input: float32
        m = x @ w                             # the operator is matmul too
        t = pylayer.tanh(x)                   # gray, float32
        c = F.cross_entropy(y, pylayer.to_tensor([0, 1, 2, 0]))
    assert [v.dtype for v in (y, e, r, s, m, t, c)] == [
        pylayer.bfloat16, pylayer.float32, pylayer.bfloat16, pylayer.float32,
        pylayer.bfloat16, pylayer.float32, pylayer.float32]
    assert pylayer.matmul(x, w).dtype == pylayer.float32       # outside: nothing changes


def test_linear_and_conv_layers_run_in_bfloat16_and_gradients_reach_float32_parameters():
    lin = pylayer.nn.Linear(3, 2)
    conv = pylayer.nn.Conv2D(1, 2, 3, bias_attr=False)
    conv_b = pylayer.nn.Conv2D(1, 2, 3)
    x = pylayer.randn([1, 1, 5, 5])
    with amp.auto_cast(dtype="bfloat16"):
        a = lin(pylayer.randn([4, 3]))
        b = conv(x)
        c = conv_b(x)             # Paddle adds the float32 bias apart: a gray op, float32
    assert (a.dtype, b.dtype, c.dtype) == (pylayer.bfloat16, pylayer.bfloat16, pylayer.float32)
    (a.astype("float32").sum() + b.astype("float32").sum() + c.sum()).backward()
    for p in (lin.weight, lin.bias, conv.weight, conv_b.weight, conv_b.bias):
        assert p.grad is not None and p.grad.dtype == pylayer.float32
    ref = F.conv2d(x.astype("bfloat16").astype("float32"),
                   conv.weight.astype("bfloat16").astype("float32"))
    np.testing.assert_array_equal(b.numpy(), ref.astype("bfloat16").numpy())


def test_custom_lists_levels_and_promotion():
    x = pylayer.randn([2, 2])
    with amp.auto_cast(dtype="bfloat16", custom_black_list={"matmul_v2"}):
        assert pylayer.matmul(x, x).dtype == pylayer.float32
    with amp.auto_cast(dtype="bfloat16", custom_white_list={"elementwise_add", "exp"}):
        assert pylayer.add(x, x).dtype == pylayer.bfloat16
        assert pylayer.exp(x).dtype == pylayer.bfloat16
    xb = x.astype("bfloat16")
    with amp.auto_cast(dtype="bfloat16", level="OD"):
        assert pylayer.matmul(x, x).dtype == pylayer.bfloat16
        assert F.relu(xb).dtype == pylayer.float32          # OD: off the white list, float32
    with amp.auto_cast(dtype="bfloat16", level="O2"):
        assert pylayer.add(xb, x).dtype == pylayer.float32   # promoted
        assert F.relu(xb).dtype == pylayer.bfloat16
    with amp.auto_cast(dtype="bfloat16", level="O2", use_promote=False):
        assert pylayer.add(xb, x).dtype == pylayer.bfloat16
        assert pylayer.tanh(x).dtype == pylayer.bfloat16
        assert pylayer.mean(xb).dtype == pylayer.bfloat16   # black at O1 only
        assert F.interpolate(xb.reshape([1, 1, 2, 2]), scale_factor=2).dtype == pylayer.float32
    with amp.auto_cast(dtype="bfloat16", level="O0"):
        assert pylayer.matmul(x, x).dtype == pylayer.float32
        assert not amp.is_autocast_enabled()
    with amp.auto_cast(enable=False, dtype="bfloat16"):
        assert pylayer.matmul(x, x).dtype == pylayer.float32


def test_integer_float64_and_cast_are_left_alone():
    i = pylayer.to_tensor([[1, 2], [3, 4]])
    d = pylayer.randn([2, 2], dtype="float64")
    with amp.auto_cast(dtype="bfloat16"):
        assert pylayer.matmul(i, i).dtype == pylayer.int64
        assert pylayer.matmul(d, d).dtype == pylayer.float64
        assert pylayer.cast(pylayer.ones([1]), "float32").dtype == pylayer.float32


def test_float16_on_the_cpu_warns_and_changes_nothing_as_paddle_does():
    x = pylayer.randn([2, 2])
    with pytest.warns(UserWarning, match="float16 is not supported on the CPU"):
        with amp.auto_cast():
            y = pylayer.matmul(x, x)
            assert not amp.is_autocast_enabled()
            assert amp.get_autocast_dtype() == "float16"
    assert y.dtype == pylayer.float32


def test_state_queries_and_nesting():
    assert (amp.is_autocast_enabled(), amp.get_autocast_dtype()) == (False, "float16")
    with amp.auto_cast(dtype="bfloat16"):
        assert (amp.is_autocast_enabled(), amp.get_autocast_dtype()) == (True, "bfloat16")
        assert amp.get_autocast_cpu_dtype() == amp.get_autocast_gpu_dtype() == "bfloat16"
        with amp.auto_cast(enable=False):
            assert not amp.is_autocast_enabled()
        assert amp.is_autocast_enabled()
    assert not amp.is_autocast_enabled()
    assert amp.is_bfloat16_supported() and not amp.is_float16_supported()
    assert amp.is_bfloat16_supported("cpu") and not amp.is_float16_supported("cpu:0")


def test_the_state_is_per_thread():
    seen = []
    with amp.auto_cast(dtype="bfloat16"):
        worker = threading.Thread(target=lambda: seen.append(
            (amp.is_autocast_enabled(), pylayer.matmul(pylayer.ones([2, 2]),
                                                       pylayer.ones([2, 2])).dtype)))
        worker.start()
        worker.join()
    assert seen == [(False, pylayer.float32)]


def test_bad_arguments():
    with pytest.raises(ValueError, match="level should be O0, OD, O1 or O2"):
        amp.auto_cast(level="O3")
    with pytest.raises(ValueError, match="dtype should be 'float16' or 'bfloat16'"):
        amp.auto_cast(dtype="float32")
    with pytest.raises(ValueError, match="overlap"):
        amp.auto_cast(custom_white_list={"exp"}, custom_black_list=["exp"])
    with pytest.raises(TypeError, match="custom_white_list"):
        amp.auto_cast(custom_white_list="exp")
    with pytest.raises(ValueError, match="should be 'cpu'"):
        amp.is_bfloat16_supported("gpu:0")
    with pytest.raises(TypeError, match="device"):
        amp.is_float16_supported(3)
    assert not amp.is_autocast_enabled()


def test_an_o1_model_loss_matches_float32_within_bfloat16_tolerance():
    pylayer.seed(3)
    model = pylayer.nn.Sequential(pylayer.nn.Linear(8, 16), pylayer.nn.ReLU(),
                                  pylayer.nn.Linear(16, 4))
    x = pylayer.randn([32, 8])
    label = pylayer.randint(0, 4, [32])
    full = F.cross_entropy(model(x), label)
    with amp.auto_cast(dtype="bfloat16"):
        mixed = F.cross_entropy(model(x), label)
    assert mixed.dtype == pylayer.float32
    np.testing.assert_allclose(mixed.item(), full.item(), rtol=2 ** -7 * 4)
    mixed.backward()
    grads = [p.grad.numpy().copy() for p in model.parameters()]
    model.clear_gradients()
    full.backward()
    for g, p in zip(grads, model.parameters()):
        np.testing.assert_allclose(g, p.grad.numpy(), atol=0.05 * np.abs(p.grad.numpy()).max())


def test_o1_training_falls_and_stays_close_to_float32():
    def train(mixed):
        pylayer.seed(0)
        model = pylayer.nn.Sequential(pylayer.nn.Linear(4, 8), pylayer.nn.Tanh(),
                                      pylayer.nn.Linear(8, 1))
        opt = pylayer.optimizer.Adam(0.05, parameters=model.parameters())
        x = pylayer.randn([64, 4])
        y = (x.sum(axis=1, keepdim=True) > 0).astype("float32")
        losses = []
        for _ in range(30):
            with amp.auto_cast(enable=mixed, dtype="bfloat16"):
                loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(loss.item())
        return losses
    full, mixed = train(False), train(True)
    assert mixed[-1] < mixed[0] / 2
    assert abs(mixed[-1] - full[-1]) < 0.05


# ---------------------------------------------------------------- GradScaler
FACTORS = [1.0, np.inf, 1.0, 1.0, np.nan, np.inf, 1.0, 1.0, 1.0]
# per step: scaled loss, w after the step, scale after the step, incr_count, decr_count
PADDLE = [
    (24.0, [0.5, 0.0], 8.0, 1, 0), (np.inf, [0.5, 0.0], 8.0, 0, 1),
    (4.0, [0.0, -1.0], 8.0, 1, 0), (-16.0, [-0.5, -2.0], 16.0, 0, 0),
    (np.nan, [-0.5, -2.0], 16.0, 0, 1), (-np.inf, [-0.5, -2.0], 4.0, 0, 0),
    (-18.0, [-1.0, -3.0], 4.0, 1, 0), (-28.0, [-1.5, -4.0], 8.0, 0, 0),
    (-76.0, [-2.0, -5.0], 8.0, 1, 0)]


def test_the_scaler_skips_inf_steps_and_adjusts_its_scale_as_paddle_does(capsys):
    w = pylayer.create_parameter([2], "float32",
                                 default_initializer=pylayer.nn.initializer.Constant(1.0))
    opt = pylayer.optimizer.SGD(0.5, parameters=[w])
    scaler = amp.GradScaler(init_loss_scaling=8.0, incr_ratio=2.0, decr_ratio=0.25,
                            incr_every_n_steps=2, decr_every_n_nan_or_inf=2)
    with pytest.warns(UserWarning):
        with amp.auto_cast():     # float16: no effect on the CPU, but the scaler is for it
            pass
    for i, (f, expected) in enumerate(zip(FACTORS, PADDLE)):
        loss = (w * pylayer.to_tensor([f, 2.0])).sum()
        scaled = scaler.scale(loss)
        assert scaled.shape == [1]
        scaled.backward()
        if i % 2:
            scaler.step(opt)
            scaler.update()
        else:
            scaler.minimize(opt, scaled)
        opt.clear_grad()
        state = scaler.state_dict()
        got = (scaled.item(), w.numpy().tolist(), float(state["scale"][0]),
               state["incr_count"], state["decr_count"])
        np.testing.assert_equal(got, expected)
    assert "Found inf or nan, current scale is: 16.0, decrease to: 16.0*0.25" in \
        capsys.readouterr().out


def test_unscale_then_step_and_the_order_rules():
    w = pylayer.create_parameter([1], "float32",
                                 default_initializer=pylayer.nn.initializer.Constant(1.0))
    opt = pylayer.optimizer.SGD(1.0, parameters=[w])
    scaler = amp.GradScaler(init_loss_scaling=4.0)
    with pytest.warns(UserWarning):
        with amp.auto_cast():
            pass
    scaler.scale((w * 3.0).sum()).backward()
    scaler.unscale_(opt)
    assert w.grad.numpy().tolist() == [3.0]
    with pytest.raises(RuntimeError, match="already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    assert w.numpy().tolist() == [-2.0]
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(opt)
    with pytest.raises(RuntimeError, match="after step"):
        scaler.unscale_(opt)
    scaler.update()
    with pytest.raises(TypeError, match="optimizer"):
        scaler.step("sgd")


def test_scaler_settings_and_state_dict_round_trip():
    scaler = amp.GradScaler(init_loss_scaling=1024, incr_every_n_steps=1000)
    assert scaler.is_enable() and scaler.is_use_dynamic_loss_scaling()
    assert (scaler.get_init_loss_scaling(), scaler.get_incr_ratio(), scaler.get_decr_ratio(),
            scaler.get_incr_every_n_steps(), scaler.get_decr_every_n_nan_or_inf()) == \
        (1024, 2.0, 0.5, 1000, 1)
    scaler.set_init_loss_scaling(512)
    scaler.set_incr_ratio(3.0)
    scaler.set_decr_ratio(0.1)
    scaler.set_incr_every_n_steps(10)
    scaler.set_decr_every_n_nan_or_inf(3)
    state = scaler.state_dict()
    assert state["scale"].tolist() == [512.0] and state["incr_ratio"] == 3.0
    other = amp.GradScaler()
    other.load_state_dict(state)
    assert other.state_dict()["decr_every_n_nan_or_inf"] == 3
    assert other.get_init_loss_scaling() == 512.0
    with pytest.raises(RuntimeError, match="empty"):
        other.load_state_dict({})
    with pytest.raises(ValueError, match="incr_ratio must be > 1.0"):
        scaler.set_incr_ratio(0.5)
    with pytest.raises(ValueError, match="decr_ratio must be < 1.0"):
        amp.GradScaler(decr_ratio=2.0)
    disabled = amp.GradScaler(enable=False)
    loss = pylayer.ones([])
    assert disabled.scale(loss) is loss and disabled.state_dict() == {}


def test_a_scaler_outside_float16_auto_cast_turns_itself_off_as_paddle_does():
    with amp.auto_cast(dtype="bfloat16"):
        pass
    scaler = amp.GradScaler()
    loss = pylayer.ones([])
    with pytest.warns(UserWarning, match="not recommended to use dynamic loss scaling for "
                                         "bfloat16"):
        assert scaler.scale(loss) is loss
    assert not scaler.is_enable() and scaler.get_init_loss_scaling() == 1.0


# ---------------------------------------------------------------- decorate
def test_o2_decorate_keeps_float32_master_weights():
    pylayer.seed(1)
    model = pylayer.nn.Sequential(pylayer.nn.Linear(4, 4), pylayer.nn.BatchNorm1D(4),
                                  pylayer.nn.Linear(4, 1))
    opt = pylayer.optimizer.Adam(0.01, parameters=model.parameters())
    start = model[0].weight.numpy().copy()
    model, opt = amp.decorate(model, opt, level="O2", dtype="bfloat16")
    assert model[0].weight.dtype == pylayer.bfloat16
    assert model[1].weight.dtype == pylayer.float32          # BatchNorm keeps float32
    x = pylayer.randn([8, 4])
    losses = []
    for _ in range(3):
        with amp.auto_cast(level="O2", dtype="bfloat16"):
            loss = model(x).astype("float32").square().mean()
        loss.backward()
        assert model[0].weight.grad.dtype == pylayer.bfloat16
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    state = opt.state_dict()
    master = state["master_weights"][model[0].weight.name]
    assert master.dtype == pylayer.float32 and master.name.endswith("_fp32_master_0")
    np.testing.assert_array_equal(model[0].weight.numpy(),
                                  master.numpy().astype(model[0].weight.numpy().dtype))
    assert not np.array_equal(master.numpy(), start.astype("float32"))
    # the master weights hold updates smaller than a bfloat16 step
    assert state[f"{model[0].weight.name}_moment1_0"].dtype == pylayer.float32
    fresh = pylayer.optimizer.Adam(0.01, parameters=model.parameters())
    fresh._multi_precision = True
    fresh.set_state_dict(state)
    assert fresh.state_dict()["master_weights"][model[0].weight.name].numpy().tolist() == \
        master.numpy().tolist()


def test_decorate_o1_float16_and_bad_arguments():
    model = pylayer.nn.Linear(2, 2)
    assert amp.decorate(model) is model
    assert amp.decorate(model, level="O2").weight.dtype == pylayer.float32   # no float16 here
    with pytest.raises(ValueError, match="level should be O1 or O2"):
        amp.decorate(model, level="O3")
    with pytest.raises(ValueError, match="dtype only support float16 or bfloat16"):
        amp.decorate(model, dtype="float32")
    with pytest.raises(TypeError, match="models must be either a single model"):
        amp.decorate("model", level="O2", dtype="bfloat16")
    with pytest.raises(TypeError, match="excluded_layers"):
        amp.decorate(model, level="O2", dtype="bfloat16", excluded_layers=3)
    assert model.weight.dtype == pylayer.float32
    kept = pylayer.nn.Linear(2, 2)
    models = amp.decorate([model, kept], level="O2", dtype="bfloat16",
                          excluded_layers=pylayer.nn.Linear)
    assert [m.weight.dtype for m in models] == [pylayer.float32, pylayer.float32]
    amp.decorate(model, level="O2", dtype="bfloat16", excluded_layers=[kept])
    assert (model.weight.dtype, kept.weight.dtype) == (pylayer.bfloat16, pylayer.float32)


def test_save_dtype_casts_the_state_dict_only(tmp_path):
    model = amp.decorate(pylayer.nn.Linear(2, 2), level="O2", dtype="bfloat16",
                         save_dtype="float32")
    assert model.weight.dtype == pylayer.bfloat16
    state = model.state_dict()
    assert state["weight"].dtype == pylayer.float32
    pylayer.save(state, str(tmp_path / "m.pdparams"))
    loaded = pylayer.load(str(tmp_path / "m.pdparams"))
    np.testing.assert_array_equal(np.asarray(loaded["weight"].numpy(), dtype=np.float32),
                                  model.weight.numpy().astype(np.float32))


def test_the_paddle_names():
    assert sorted(amp.__all__) == sorted([
        "GradScaler", "auto_cast", "decorate", "get_autocast_cpu_dtype", "get_autocast_dtype",
        "get_autocast_gpu_dtype", "is_autocast_enabled", "is_bfloat16_supported",
        "is_float16_supported"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        import pylayer.amp.amp_lists as lists
    assert lists.white_list()["bfloat16"]["O1"] >= {"matmul_v2", "conv2d", "linear_v2"}


def test_an_error_inside_the_block_restores_the_state_and_a_decorator_works():
    x = pylayer.randn([2, 2])
    with pytest.raises(RuntimeError, match="inside"):
        with amp.auto_cast(dtype="bfloat16"):
            raise RuntimeError("inside")
    assert not amp.is_autocast_enabled()
    assert pylayer.matmul(x, x).dtype == pylayer.float32

    @amp.auto_cast(dtype="bfloat16")
    def product(a):
        return pylayer.matmul(a, a)
    assert [product(x).dtype, product(x).dtype] == [pylayer.bfloat16, pylayer.bfloat16]
    assert pylayer.matmul(x, x).dtype == pylayer.float32


def test_a_paddle_script_runs_unchanged(tmp_path):
    import subprocess
    import sys
    script = tmp_path / "train.py"
    script.write_text(
        "import warnings\n"
        "import paddle\n"
        "warnings.simplefilter('ignore')\n"
        "model = paddle.nn.Conv2D(3, 2, 3, bias_attr=False)\n"
        "opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=model.parameters())\n"
        "scaler = paddle.amp.GradScaler(init_loss_scaling=1024)\n"
        "data = paddle.rand([4, 3, 8, 8])\n"
        "with paddle.amp.auto_cast(custom_black_list={'reduce_mean'}):\n"
        "    loss = paddle.mean(model(data))\n"
        "scaled = scaler.scale(loss)\n"
        "scaled.backward()\n"
        "scaler.minimize(opt, scaled)\n"
        "opt.clear_grad()\n"
        "with paddle.amp.auto_cast(dtype='bfloat16'):\n"
        "    print(model(data).dtype, scaler.state_dict()['incr_count'])\n")
    out = subprocess.run([sys.executable, "-m", "pylayer", "run", str(script)],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "pylayer.bfloat16 1"
