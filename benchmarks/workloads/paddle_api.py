"""Workloads written once against Paddle's API.

Every function takes the library module as ``paddle``: the same code runs with
``import paddle`` and with ``import pylayer as paddle``. A feature pylayer does
not have yet surfaces as an AttributeError or NotImplementedError while the
benchmark is built, and the worker reports it as "not available yet".
"""
import time

import numpy as np

from workloads import Bench


def _data(shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, size=shape).astype("float32")


def _tanh_layer(paddle):
    class Tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensor()
            return dy * (1 - y * y)

    return Tanh


def _tanh_chain_step(paddle, n_ops, width):
    tanh_layer = _tanh_layer(paddle)
    data = _data([width])

    def step():
        x = paddle.to_tensor(data, stop_gradient=False)
        y = x
        for _ in range(n_ops):
            y = tanh_layer.apply(y)
        y.sum().backward()
        return x.grad

    return step


def pylayer_tanh_chain(paddle, case, sizes):
    """(1) A chain of PyLayer tanh ops that save their output, forward and backward."""
    return Bench(units=sizes["chain"], step=_tanh_chain_step(paddle, sizes["chain"], sizes["width"]))


def pylayer_tanh_chain_big(paddle, case, sizes):
    """(3) The same chain on a large tensor: throughput, not overhead."""
    step = _tanh_chain_step(paddle, sizes["big_chain"], sizes["big_width"])
    return Bench(units=sizes["big_chain"], step=step)


def builtin_chain(paddle, case, sizes):
    """(2) ``y = tanh(y) * 0.5 + y`` with built-in ops; the unit is one statement."""
    data = _data([sizes["width"]])
    n_ops = sizes["chain"]

    def step():
        x = paddle.to_tensor(data, stop_gradient=False)
        y = x
        for _ in range(n_ops):
            y = paddle.tanh(y) * 0.5 + y
        y.sum().backward()
        return x.grad

    return Bench(units=n_ops, step=step)


def mlp_step(paddle, case, sizes):
    """(4) One SGD training step of a two-layer ReLU MLP with softmax cross-entropy."""
    batch, d_in, d_hidden, d_out = sizes["mlp"]
    paddle.seed(0)
    fc1 = paddle.nn.Linear(d_in, d_hidden)
    fc2 = paddle.nn.Linear(d_hidden, d_out)
    opt = paddle.optimizer.SGD(learning_rate=0.01,
                               parameters=fc1.parameters() + fc2.parameters())
    x = paddle.to_tensor(_data([batch, d_in]))
    label = paddle.to_tensor(np.random.default_rng(1).integers(0, d_out, batch).astype("int64"))
    relu = paddle.nn.functional.relu
    cross_entropy = paddle.nn.functional.cross_entropy

    def step():
        loss = cross_entropy(fc2(relu(fc1(x))), label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)


def multiply_chain(paddle, case, sizes):
    """(5) A chain of ``multiply`` (two saved tensors each), with or without identity hooks."""
    data = _data([sizes["width"]])
    ones = np.ones([sizes["width"]], dtype="float32")
    n_ops = sizes["chain"]

    def chain():
        x = paddle.to_tensor(data, stop_gradient=False)
        w = paddle.to_tensor(ones, stop_gradient=False)
        y = x
        for _ in range(n_ops):
            y = paddle.multiply(y, w)
        y.sum().backward()
        return x.grad

    if case == "plain":
        return Bench(units=n_ops, step=chain)

    def identity(t):
        return t

    def step_with_hooks():
        with paddle.autograd.saved_tensors_hooks(identity, identity):
            return chain()

    return Bench(units=n_ops, step=step_with_hooks)


def long_chain_backward(paddle, case, sizes):
    """(6) Time of one backward through a chain of tanh ops; building it is not timed."""
    n_ops = sizes["long_chain"] if case == "100k" else sizes["short_chain"]
    data = _data([sizes["width"]])

    def timed_step():
        x = paddle.to_tensor(data, stop_gradient=False)
        y = x
        for _ in range(n_ops):
            y = paddle.tanh(y)
        loss = y.sum()
        del y
        start = time.perf_counter()
        loss.backward()
        return time.perf_counter() - start

    return Bench(units=1, timed_step=timed_step)


def static_vs_dynamic(paddle, case, sizes):
    """(7) A forward chain of tanh ops run by ``Executor.run`` or op by op in dynamic mode."""
    n_ops = sizes["chain"]
    data = _data([sizes["width"]])
    if case == "dynamic":
        def step():
            y = paddle.to_tensor(data)
            for _ in range(n_ops):
                y = paddle.tanh(y)
            return y.numpy()

        return Bench(units=n_ops, step=step)

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [sizes["width"]], "float32")
        y = x
        for _ in range(n_ops):
            y = paddle.tanh(y)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = {"x": data}

    def step():
        return exe.run(main, feed=feed, fetch_list=[y])

    return Bench(units=n_ops, step=step)


def small_cnn_step(paddle, case, sizes):
    """(8) One SGD step of a small CNN: Conv-BN-ReLU-pool, Conv-ReLU-pool, Linear, CE."""
    batch, channels, size, classes = sizes["cnn"]
    paddle.seed(0)
    nn, F = paddle.nn, paddle.nn.functional
    conv1, bn = nn.Conv2D(channels, 16, 3, padding=1), nn.BatchNorm2D(16)
    conv2, fc = nn.Conv2D(16, 32, 3, padding=1), nn.Linear(32 * (size // 4) ** 2, classes)
    layers = [conv1, bn, conv2, fc]
    opt = paddle.optimizer.SGD(learning_rate=0.01,
                               parameters=[p for layer in layers for p in layer.parameters()])
    x = paddle.to_tensor(_data([batch, channels, size, size]))
    label = paddle.to_tensor(np.random.default_rng(1).integers(0, classes, batch).astype("int64"))

    def step():
        h = F.max_pool2d(F.relu(bn(conv1(x))), 2)
        h = F.max_pool2d(F.relu(conv2(h)), 2)
        loss = F.cross_entropy(fc(h.reshape([batch, -1])), label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)


def conv2d_alone(paddle, case, sizes):
    """(9) Conv2D(C, O, 3, padding=1) forward and backward (input without gradient)."""
    batch, channels, size, out_channels = sizes["conv"][case]
    paddle.seed(0)
    conv = paddle.nn.Conv2D(channels, out_channels, 3, padding=1)
    x = paddle.to_tensor(_data([batch, channels, size, size]))

    def step():
        conv(x).mean().backward()
        conv.clear_gradients(set_to_zero=False)

    return Bench(units=1, step=step)


def attention_step(paddle, case, sizes):
    """(10) One SGD step of an attention block: LayerNorm, q/k/v Linear, softmax(q k^T / sqrt(d)) v,
    mean."""
    batch, length, width = sizes["attention"]
    paddle.seed(0)
    nn, F = paddle.nn, paddle.nn.functional
    norm = nn.LayerNorm(width)
    q_proj, k_proj, v_proj = nn.Linear(width, width), nn.Linear(width, width), \
        nn.Linear(width, width)
    layers = [norm, q_proj, k_proj, v_proj]
    opt = paddle.optimizer.SGD(learning_rate=0.01,
                               parameters=[p for layer in layers for p in layer.parameters()])
    x = paddle.to_tensor(_data([batch, length, width]))
    scale = 1.0 / width ** 0.5

    def step():
        h = norm(x)
        q, k, v = q_proj(h), k_proj(h), v_proj(h)
        weights = F.softmax(paddle.matmul(q, k, transpose_y=True) * scale, axis=-1)
        loss = paddle.matmul(weights, v).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)


def lstm_step(paddle, case, sizes):
    """(11) A one-layer LSTM over a batch of sequences, forward and backward of the outputs'
    mean (input without gradient)."""
    batch, steps, features, hidden = sizes["lstm"]
    paddle.seed(0)
    lstm = paddle.nn.LSTM(features, hidden)
    x = paddle.to_tensor(_data([batch, steps, features]))

    def step():
        outputs, _ = lstm(x)
        outputs.mean().backward()
        lstm.clear_gradients(set_to_zero=False)

    return Bench(units=1, step=step)
