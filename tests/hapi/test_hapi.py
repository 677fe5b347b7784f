"""paddle.Model, paddle.summary and paddle.callbacks (issue 36, item 5).

The expected outputs (the summary table, the order of the callbacks, the progress
lines, the messages of the callbacks) were recorded from Paddle 3.3.1 (CPU) running
the same code with ``import paddle``; numbers that depend on the random weights or on
time are masked.
"""
import os
import re
import warnings

import numpy as np
import pytest

import pylayer
from pylayer import nn

# Paddle 3.3.1: paddle.summary(CNN(), (1, 1, 8, 8)) printed this and returned
# {'total_params': np.int64(706), 'trainable_params': np.int64(698)}.
CNN_TABLE = """\
---------------------------------------------------------------------------
 Layer (type)       Input Shape          Output Shape         Param #    
===========================================================================
   Conv2D-1        [[1, 1, 8, 8]]        [1, 4, 8, 8]           40       
 BatchNorm2D-1     [[1, 4, 8, 8]]        [1, 4, 8, 8]           16       
  MaxPool2D-1      [[1, 4, 8, 8]]        [1, 4, 4, 4]            0       
   Flatten-1       [[1, 4, 4, 4]]          [1, 64]               0       
   Linear-1          [[1, 64]]             [1, 10]              650      
===========================================================================
Total params: 706
Trainable params: 698
Non-trainable params: 8
---------------------------------------------------------------------------
Input size (MB): 0.00
Forward/backward pass size (MB): 0.00
Params size (MB): 0.00
Estimated Total Size (MB): 0.01
---------------------------------------------------------------------------

"""

# Paddle 3.3.1: the hooks a recording Callback received during
# fit(train, eval, batch_size=16, epochs=2) on 40 samples: (hook, epoch or step, logs keys).
_B = ["acc", "batch_size", "loss", "step"]
PADDLE_ORDER = [("on_train_begin", None), ("on_epoch_begin", 0, None),
                ("on_train_batch_begin", 0, []), ("on_train_batch_end", 0, _B)]
PADDLE_ORDER += [(f"on_train_batch_{w}", s, _B) for s in (1, 2) for w in ("begin", "end")]
PADDLE_ORDER += [("on_epoch_end", 0, _B), ("on_eval_begin", ["metrics", "steps"])]
PADDLE_ORDER += [(f"on_eval_batch_{w}", s, _B) for s in (0, 1, 2) for w in ("begin", "end")]
PADDLE_ORDER += [("on_eval_end", _B), ("on_epoch_begin", 1, None)]
PADDLE_ORDER += [(f"on_train_batch_{w}", s, _B) for s in (0, 1, 2) for w in ("begin", "end")]
PADDLE_ORDER += [("on_epoch_end", 1, _B), ("on_eval_begin", ["metrics", "steps"])]
PADDLE_ORDER += [(f"on_eval_batch_{w}", s, _B) for s in (0, 1, 2) for w in ("begin", "end")]
PADDLE_ORDER += [("on_eval_end", _B), ("on_train_end", _B)]
PADDLE_PARAMS = {"batch_size": None, "epochs": 2, "steps": 3, "verbose": 2,
                 "metrics": ["loss", "acc"]}


class CNN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2D(4)
        self.pool = nn.MaxPool2D(2)
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(4 * 4 * 4, 10))

    def forward(self, x):
        return self.fc(self.pool(nn.functional.relu(self.bn(self.conv(x)))))


def _data(n=40, seed=0):
    x = np.random.default_rng(seed).normal(size=(n, 4)).astype("float32")
    y = (x[:, :1] + x[:, 1:2] > 0).astype("int64")
    return x, y


class ArrayDataset(pylayer.io.Dataset):
    def __init__(self, n=40, seed=0):
        self.x, self.y = _data(n, seed)

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def _model(lr=0.05, optimizer=pylayer.optimizer.Adam):
    pylayer.seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    model = pylayer.Model(net)
    model.prepare(optimizer(lr, parameters=model.parameters()), nn.CrossEntropyLoss(),
                  pylayer.metric.Accuracy())
    return model


def _fresh_names():
    """Restart the layer-name counters, so a network's layers are Conv2D-1, Linear-1, ...
    as in a fresh Paddle process."""
    from pylayer.nn import param
    param._name_counters.clear()


# ------------------------------------------------------------------ summary
def test_summary_table_and_dict_equal_paddles_for_a_small_cnn(capsys):
    _fresh_names()
    net = CNN()
    info = pylayer.summary(net, (1, 1, 8, 8))
    assert capsys.readouterr().out == CNN_TABLE
    assert info == {"total_params": 706, "trainable_params": 698}
    assert type(info["total_params"]) is np.int64
    assert net.training            # restored after the run in eval mode


def test_summary_batch_dimension_none_and_input_and_several_inputs(capsys):
    _fresh_names()
    net = CNN()
    assert pylayer.summary(net, (None, 1, 8, 8)) == {"total_params": 706,
                                                     "trainable_params": 698}
    assert "[[1, 1, 8, 8]]" in capsys.readouterr().out

    class Two(nn.Layer):
        def __init__(self):
            super().__init__()
            self.a, self.b = nn.Linear(3, 2), nn.Linear(4, 2)

        def forward(self, x, y):
            return self.a(x) + self.b(y)
    assert pylayer.summary(Two(), [(1, 3), (1, 4)]) == {"total_params": 18,
                                                        "trainable_params": 18}
    seq = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 2))
    assert pylayer.summary(seq, input=pylayer.rand([1, 3]))["total_params"] == 14
    out = capsys.readouterr().out
    assert "Linear-" in out and "Sequential" not in out


@pytest.mark.parametrize("size,message", [
    (None, "input_size and input cannot be None at the same time"),
    ((0, 3), "Expected element in input size greater than zero, but got 0"),
    ((None, None, 3), "only the dim of batch_size can be None or -1"),
])
def test_summary_refuses_what_paddle_refuses(size, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        pylayer.summary(nn.Linear(3, 2), size)


# ------------------------------------------------------------------ fit
def test_fit_makes_the_loss_fall_and_the_accuracy_rise():
    model = _model()
    data = ArrayDataset()
    before = model.evaluate(data, batch_size=40, verbose=0)
    model.fit(data, batch_size=8, epochs=8, verbose=0)
    after = model.evaluate(data, batch_size=40, verbose=0)
    assert after["loss"][0] < 0.5 * before["loss"][0]
    assert after["acc"] > before["acc"] and after["acc"] >= 0.9


def test_fit_takes_a_dataloader_and_a_tensor_dataset():
    x, y = _data()
    loader = pylayer.io.DataLoader(
        pylayer.io.TensorDataset([pylayer.to_tensor(x), pylayer.to_tensor(y)]),
        batch_size=8, shuffle=True)
    model = _model()
    model.fit(loader, loader, epochs=6, verbose=0)
    assert model.evaluate(loader, verbose=0)["acc"] >= 0.9


def test_callbacks_fire_in_paddles_order_with_paddles_params():
    events = []

    class Recorder(pylayer.callbacks.Callback):
        pass

    def hook(name):
        def record(self, *args):
            logs = args[-1] if args else None
            events.append((name, *args[:-1], sorted(logs) if isinstance(logs, dict) else logs))
        return record
    for name in [n for n in vars(pylayer.callbacks.Callback) if n.startswith("on_")]:
        setattr(Recorder, name, hook(name))
    recorder = Recorder()
    _model().fit(ArrayDataset(), ArrayDataset(), batch_size=16, epochs=2, verbose=0,
                 shuffle=False, callbacks=[recorder])
    assert events == PADDLE_ORDER
    assert recorder.params == dict(PADDLE_PARAMS, verbose=0)


def _masked(text):
    return re.sub(r"\d+\.\d+", "N", re.sub(r" - \d+(s|ms|us)/step", " - T/step", text))


def test_progress_lines_are_paddles_at_verbose_2(capsys):
    _model().fit(ArrayDataset(), ArrayDataset(), batch_size=16, epochs=1, log_freq=1,
                 shuffle=False)
    assert _masked(capsys.readouterr().out) == (
        "The loss value printed in the log is the current step, and the metric is the average "
        "value of previous steps.\nEpoch 1/1\n"
        "step 1/3 - loss: N - acc: N - T/step\n"
        "step 2/3 - loss: N - acc: N - T/step\n"
        "step 3/3 - loss: N - acc: N - T/step\n"
        "Eval begin...\n"
        "step 1/3 - loss: N - acc: N - T/step\n"
        "step 2/3 - loss: N - acc: N - T/step\n"
        "step 3/3 - loss: N - acc: N - T/step\n"
        "Eval samples: 40\n")


def test_progress_bar_is_redrawn_in_place_at_verbose_1(capsys):
    model = _model()
    model.predict(ArrayDataset(), batch_size=16)
    out = capsys.readouterr().out
    # Paddle 3.3.1 (log_freq 2 for predict): step 2 then step 3, each after backspaces
    # and a carriage return, the last one ending the line.
    assert out.startswith("Predict begin...\n\r")
    assert "step 2/3 [===================>..........] - ETA: 0s - " in out
    assert re.search(r"\x08+\rstep 3/3 \[=+\] - \d+(s|ms|us)/step *\n", out)
    assert out.endswith("Predict samples: 40\n")


def test_verbose_3_adds_the_reader_and_batch_costs(capsys):
    _model().fit(ArrayDataset(), batch_size=16, epochs=1, verbose=3, log_freq=2)
    lines = capsys.readouterr().out.splitlines()[2:]
    assert [re.sub(r"[\d.]+", "N", line) for line in lines] == [
        f"step N/N - loss: N - acc: N - avg_reader_cost: N sec - avg_batch_cost: N sec - "
        f"ips: N samples/sec - N{unit}/step" for unit in
        [re.search(r"(s|ms|us)/step$", line).group(1) for line in lines]]
    assert lines[0].startswith("step 2/3") and lines[1].startswith("step 3/3")


def test_evaluate_and_predict_results_have_paddles_form():
    model = _model()
    result = model.evaluate(ArrayDataset(), batch_size=16, verbose=0)
    assert list(result) == ["loss", "acc"]
    assert isinstance(result["loss"], list) and isinstance(result["loss"][0], float)
    out = model.predict(ArrayDataset(), batch_size=16, verbose=0)
    assert len(out) == 1 and isinstance(out[0], tuple) and len(out[0]) == 3
    assert [a.shape for a in out[0]] == [(16, 2), (16, 2), (8, 2)]
    stacked = model.predict(ArrayDataset(), batch_size=16, verbose=0, stack_outputs=True)
    assert stacked[0].shape == (40, 2)
    no_loss = pylayer.Model(nn.Linear(4, 2))
    no_loss.prepare(metrics=pylayer.metric.Accuracy())
    assert list(no_loss.evaluate(ArrayDataset(), batch_size=16, verbose=0)) == ["acc"]


def test_one_batch_steps():
    x, y = _data(8)
    model = _model()
    loss, metrics = model.train_batch([x], [y])
    assert loss[0].shape == () and loss[0].dtype == np.float32 and len(metrics) == 1
    assert len(model.eval_batch([x], [y])) == 2
    out = model.predict_batch(x)
    assert len(out) == 1 and out[0].shape == (8, 2)
    assert [spec.shape for spec in model._inputs] == [(8, 4)]   # inferred from the batch


def test_num_iters_stops_after_that_many_steps_as_paddle_does():
    seen = []

    class Steps(pylayer.callbacks.Callback):
        def on_train_batch_end(self, step, logs=None):
            seen.append(("batch", step))

        def on_epoch_end(self, epoch, logs=None):
            seen.append(("epoch end", epoch))
    steps = Steps()
    _model().fit(ArrayDataset(), batch_size=16, epochs=5, verbose=0, num_iters=4,
                 callbacks=[steps])
    # Paddle sets epochs to num_iters // steps + 1 and steps to min(num_iters, steps).
    assert (steps.params["epochs"], steps.params["steps"]) == (2, 3)
    assert seen == [("batch", 0), ("batch", 1), ("batch", 2), ("epoch end", 0), ("batch", 0),
                    ("epoch end", 1)]


def test_accumulate_grad_batches_steps_the_optimizer_every_n_batches():
    model = _model(optimizer=pylayer.optimizer.SGD)
    steps = []
    original = model._optimizer.minimize
    model._optimizer.minimize = lambda loss: (steps.append(1), original(loss))
    model.fit(ArrayDataset(), batch_size=8, epochs=1, verbose=0, accumulate_grad_batches=2)
    assert len(steps) == 3                 # 5 batches: after the 2nd, the 4th and the last


# ------------------------------------------------------------------ callbacks
def test_model_checkpoint_saves_every_save_freq_epochs_and_final(tmp_path, capsys):
    _model().fit(ArrayDataset(), batch_size=16, epochs=3, save_dir=str(tmp_path), save_freq=2,
                 verbose=0)
    assert sorted(os.listdir(tmp_path)) == ["0.pdopt", "0.pdparams", "2.pdopt", "2.pdparams",
                                           "final.pdopt", "final.pdparams"]
    assert capsys.readouterr().out.splitlines() == [
        f"save checkpoint at {tmp_path}/{name}" for name in ("0", "2", "final")]


def test_early_stopping_stops_and_saves_the_best_model(tmp_path, capsys):
    model = _model(lr=0.0, optimizer=pylayer.optimizer.SGD)
    model.fit(ArrayDataset(), ArrayDataset(), batch_size=16, epochs=4, verbose=0,
              save_dir=str(tmp_path), save_freq=10,
              callbacks=[pylayer.callbacks.EarlyStopping(patience=1)])
    assert capsys.readouterr().out.splitlines() == [
        f"save checkpoint at {tmp_path}/0", "Epoch 2: Early stopping.",
        f"Best checkpoint has been saved at {tmp_path}/best_model",
        f"save checkpoint at {tmp_path}/final"]
    assert sorted(os.listdir(tmp_path)) == ["0.pdparams", "best_model.pdparams",
                                           "final.pdparams"]
    model = _model(lr=0.0, optimizer=pylayer.optimizer.SGD)
    model.fit(ArrayDataset(), ArrayDataset(), batch_size=16, epochs=5, verbose=0, callbacks=[
        pylayer.callbacks.EarlyStopping("acc", patience=0, save_best_model=False)])
    assert capsys.readouterr().out == "Epoch 1: Early stopping.\n"


def test_early_stopping_without_eval_data_warns():
    with pytest.warns(UserWarning, match="EarlyStopping needs validation data"):
        _model().fit(ArrayDataset(), batch_size=40, verbose=0,
                     callbacks=pylayer.callbacks.EarlyStopping())


def test_reduce_lr_on_plateau_reduces_as_paddle_does(capsys):
    model = _model(lr=1e-9, optimizer=pylayer.optimizer.SGD)
    model.fit(ArrayDataset(), ArrayDataset(), batch_size=16, epochs=4, verbose=0,
              callbacks=[pylayer.callbacks.ReduceLROnPlateau(patience=1, factor=0.5)])
    assert capsys.readouterr().out == "".join(
        f"\nEpoch {e}: ReduceLROnPlateau reducing learning rate to {r}.\n"
        for e, r in ((2, "5e-10"), (3, "2.5e-10"), (4, "1.25e-10")))
    assert model._optimizer.get_lr() == 1.25e-10


def test_lr_scheduler_steps_by_step_or_by_epoch():
    def stepped(callbacks, epochs):
        pylayer.seed(0)
        model = pylayer.Model(nn.Linear(4, 2))
        schedule = pylayer.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
        model.prepare(pylayer.optimizer.SGD(schedule, parameters=model.parameters()),
                      nn.CrossEntropyLoss())
        model.fit(ArrayDataset(), batch_size=16, epochs=epochs, verbose=0, callbacks=callbacks)
        return model._optimizer.get_lr()
    assert stepped(None, 1) == 0.0125           # Paddle 3.3.1: three steps
    assert stepped([pylayer.callbacks.LRScheduler(by_step=False, by_epoch=True)], 2) == 0.025
    with pytest.raises(ValueError, match="by_step option is mutually exclusive with by_epoch"):
        pylayer.callbacks.LRScheduler(by_step=True, by_epoch=True)


def test_reduce_lr_on_plateau_refuses_a_factor_of_one():
    with pytest.raises(ValueError, match=re.escape("does not support a factor >= 1.0")):
        pylayer.callbacks.ReduceLROnPlateau(factor=1.0)


@pytest.mark.parametrize("name", ["VisualDL", "WandbCallback"])
def test_visualdl_and_wandb_are_not_applicable_with_the_reason(name):
    with pytest.raises(AttributeError, match=f"paddle.callbacks.{name} is not applicable"):
        getattr(pylayer.callbacks, name)


# ------------------------------------------------------------------ save / load
def test_save_load_round_trip_restores_parameters_and_optimizer(tmp_path):
    model = _model()
    model.fit(ArrayDataset(), batch_size=8, epochs=2, verbose=0)
    path = str(tmp_path / "ckpt" / "model")
    model.save(path)
    assert sorted(os.listdir(tmp_path / "ckpt")) == ["model.pdopt", "model.pdparams"]
    other = _model()
    other._optimizer = pylayer.optimizer.Adam(0.05, parameters=other.parameters())
    other.load(path + ".pdparams")
    for a, b in zip(model.parameters(), other.parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    for a, b in zip(model._optimizer.state_dict().values(),
                    other._optimizer.state_dict().values()):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    x, y = _data(8, seed=1)
    np.testing.assert_allclose(other.train_batch([x], [y])[0][0],
                               model.train_batch([x], [y])[0][0], rtol=1e-6)
    for a, b in zip(model.parameters(), other.parameters()):     # the same Adam step
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    assert pylayer.load(path + ".pdparams").keys() == model.network.state_dict().keys()


def test_load_mismatch_raises_or_skips_with_paddles_messages(tmp_path):
    path = str(tmp_path / "a")
    _model().save(path)
    bigger = pylayer.Model(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)))
    with pytest.raises(ValueError, match=re.escape(
            "2.weight receives a shape [8, 2], but the expected shape is [8, 3].")):
        bigger.load(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bigger.load(path, skip_mismatch=True)
    assert [str(w.message) for w in caught] == [
        "Skip loading for 2.weight. 2.weight receives a shape [8, 2], but the expected shape "
        "is [8, 3].",
        "Skip loading for 2.bias. 2.bias receives a shape [2], but the expected shape is [3]."]
    with pytest.raises(ValueError, match="Failed to load parameters"):
        bigger.load(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match=re.escape("Unknown postfix .abc")):
        bigger.load(path + ".abc")


def test_inference_save_is_refused_clearly(tmp_path):
    model = pylayer.Model(nn.Linear(4, 2))
    with pytest.raises(RuntimeError, match="Saving inference model needs 'inputs'"):
        model.save(str(tmp_path / "m"), training=False)
    model.predict_batch(np.ones((2, 4), "float32"))
    with pytest.raises(NotImplementedError, match="paddle.jit.save"):
        model.save(str(tmp_path / "m"), training=False)


# ------------------------------------------------------------------ errors and Paddle names
def test_prepare_and_fit_errors():
    model = pylayer.Model(nn.Linear(4, 2))
    with pytest.raises(TypeError, match="'loss' must be sub classes of `paddle.nn.Layer`"):
        model.prepare(loss=3)
    with pytest.raises(TypeError, match="int is not sub class of Metric"):
        model.prepare(metrics=[3])
    with pytest.raises(ValueError, match="The level of amp_configs should be 'O0', 'O1' or 'O2'"):
        model.prepare(amp_configs="O3")
    with pytest.raises(NotImplementedError, match="mixed precision"):
        model.prepare(amp_configs="O1")
    with pytest.raises(RuntimeError, match="call `model.prepare\\(\\)`"):
        model.fit(ArrayDataset())
    with pytest.raises(ValueError, match="train_data must be given"):
        _model().fit()


def test_paddle_names_resolve_after_install_as_paddle():
    import importlib
    import sys
    pylayer.install_as_paddle()
    callbacks = importlib.import_module("paddle.callbacks")
    assert callbacks.EarlyStopping is pylayer.callbacks.EarlyStopping
    assert importlib.import_module("paddle.hapi").Model is sys.modules["pylayer"].Model
    from pylayer._paddle_api import MODULES_NOT_IN_PYLAYER
    assert "hapi" not in MODULES_NOT_IN_PYLAYER and "callbacks" not in MODULES_NOT_IN_PYLAYER


def test_model_summary_uses_input_size_or_the_inferred_inputs(capsys):
    model = pylayer.Model(nn.Linear(3, 2))
    assert model.summary((1, 3)) == {"total_params": 8, "trainable_params": 8}
    with pytest.raises(ValueError, match="'input_size' or the model's 'inputs'"):
        model.summary()
    model.predict_batch(np.ones((5, 3), "float32"))
    assert model.summary()["total_params"] == 8
    assert "[[5, 3]]" in capsys.readouterr().out


def test_reprs_show_how_the_objects_were_made():
    model = pylayer.Model(nn.Linear(2, 2))
    assert repr(model) == "Model(network=Linear, optimizer=None, loss=None, metrics=[])"
    model.prepare(pylayer.optimizer.Adam(parameters=model.parameters()),
                  nn.functional.cross_entropy, pylayer.metric.Accuracy(topk=(1, 2)))
    assert repr(model) == ("Model(network=Linear, optimizer=Adam, loss=cross_entropy, "
                           "metrics=['acc_top1', 'acc_top2'])")
    assert repr(pylayer.callbacks.ProgBarLogger(5, 1)) == "ProgBarLogger(log_freq=5, verbose=1)"
    assert repr(pylayer.callbacks.EarlyStopping("acc", patience=2)) == (
        "EarlyStopping(monitor='acc', mode='auto', patience=2, verbose=1, min_delta=0.0, "
        "baseline=None, save_best_model=True)")
    assert repr(pylayer.callbacks.LRScheduler(False, True)) == \
        "LRScheduler(by_step=False, by_epoch=True)"


def test_a_checkpoint_saved_by_paddles_model_loads_and_continues_as_on_paddle():
    # data/paddle_mlp.{pdparams,pdopt,npz}: made with Paddle 3.3.1 (CPU) by
    #   paddle.seed(1); x = np.linspace(-1, 1, 48, dtype="float32").reshape(12, 4)
    #   y = (x[:, :1] + x[:, 1:2] > 0).astype("int64")
    #   a Sequential(Linear(4, 8), ReLU(), Linear(8, 2)) in paddle.Model with Adam(0.05) and
    #   CrossEntropyLoss, fit(batch_size=4, epochs=1, shuffle=False), Model.save(...);
    #   the npz holds x, y, predict_batch([x]) (pred), the loss of train_batch([x], [y])
    #   (loss) and predict_batch([x]) after that step (after).
    data = os.path.join(os.path.dirname(__file__), "data")
    recorded = np.load(os.path.join(data, "paddle_mlp.npz"))
    model = pylayer.Model(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
    model.prepare(pylayer.optimizer.Adam(0.05, parameters=model.parameters()),
                  nn.CrossEntropyLoss())
    model.load(os.path.join(data, "paddle_mlp"))
    np.testing.assert_allclose(model.predict_batch([recorded["x"]])[0], recorded["pred"],
                               rtol=1e-5, atol=1e-6)
    loss = model.train_batch([recorded["x"]], [recorded["y"]])[0]
    np.testing.assert_allclose(loss, recorded["loss"], rtol=1e-5)
    # The same Adam step as Paddle's: the optimizer state (moments, beta powers) was loaded.
    np.testing.assert_allclose(model.predict_batch([recorded["x"]])[0], recorded["after"],
                               rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ flops
FLOPS_TABLE = """\
+-----------------------+--------------+--------------+--------+-------+
|       Layer Name      | Input Shape  | Output Shape | Params | Flops |
+-----------------------+--------------+--------------+--------+-------+
|        conv2d_0       | [1, 1, 8, 8] | [1, 4, 8, 8] |   40   |  2560 |
|     batch_norm2d_0    | [1, 4, 8, 8] | [1, 4, 8, 8] |   16   |  512  |
|        re_lu_0        | [1, 4, 8, 8] | [1, 4, 8, 8] |   0    |   0   |
|      avg_pool2d_0     | [1, 4, 8, 8] | [1, 4, 4, 4] |   0    |   64  |
| adaptive_avg_pool2d_0 | [1, 4, 4, 4] | [1, 4, 2, 2] |   0    |   80  |
|       flatten_0       | [1, 4, 2, 2] |   [1, 16]    |   0    |   0   |
|        linear_0       |   [1, 16]    |   [1, 10]    |  170   |  160  |
|     leaky_re_lu_0     |   [1, 10]    |   [1, 10]    |   0    |   10  |
|       dropout_0       |   [1, 10]    |   [1, 10]    |   0    |   0   |
+-----------------------+--------------+--------------+--------+-------+
Total Flops: 3386     Total Params: 226
"""


class FlopsNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2D(4)
        self.relu = nn.ReLU()
        self.pool = nn.AvgPool2D(2)
        self.ap = nn.AdaptiveAvgPool2D(2)
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(16, 10), nn.LeakyReLU(), nn.Dropout())

    def forward(self, x):
        return self.fc(self.ap(self.pool(self.relu(self.bn(self.conv(x))))))


def test_flops_counts_as_paddles_code_does(capsys):
    # Paddle 3.3.1's paddle.flops raises TypeError (int() of a one-element array) before it
    # prints; this is what its code prints with that conversion fixed (the table's layer
    # names are each layer's full_name(), spelled by pylayer's naming, so they are masked).
    _fresh_names()
    net = FlopsNet()
    assert pylayer.flops(net, [1, 1, 8, 8], print_detail=True) == 3386
    out = capsys.readouterr().out.splitlines()
    assert [re.sub(r"<class '[\w.]+\.(\w+)'>", r"\1", line) for line in out[:9]] == [
        "Conv2D's flops has been counted", "BatchNorm2D's flops has been counted",
        "ReLU's flops has been counted", "AvgPool2D's flops has been counted",
        "AdaptiveAvgPool2D's flops has been counted",
        "Cannot find suitable count function for Flatten. Treat it as zero FLOPs.",
        "Linear's flops has been counted", "LeakyReLU's flops has been counted",
        "Dropout's flops has been counted"]

    def cells(line):
        return [cell.strip() for cell in line.split("|")[2:]]
    expected = FLOPS_TABLE.splitlines()
    assert [cells(line) for line in out[9:]] == [cells(line) for line in expected]
    assert out[-1] == expected[-1]
    assert net.training and not any(name in layer._buffers for layer in net.sublayers()
                                    for name in ("total_ops", "input_shape"))


def test_flops_custom_ops_and_a_single_layer(capsys):
    def count(layer, inputs, output):
        layer.total_ops += 7
    seq = nn.Sequential(nn.Linear(3, 2))
    assert pylayer.flops(seq, [2, 3]) == 12
    assert pylayer.flops(seq, [2, 3], custom_ops={nn.Linear: count}) == 7
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "Customize Function has been applied to <class 'pylayer.nn.common.Linear'>",
        "Total Flops: 7     Total Params: 8"]
    assert pylayer.flops(nn.Linear(3, 2), [2, 3]) == 12     # Paddle's code gives 0 here
    with pytest.raises(NotImplementedError, match="static Program"):
        pylayer.flops(pylayer.static.Program(), [2, 3])
