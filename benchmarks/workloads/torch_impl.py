"""The workloads in PyTorch: ``autograd.Function`` for custom ops, built-ins otherwise.

The worker has already called ``torch.set_num_threads(1)``.
"""
import time

import numpy as np

from workloads import Bench


def _data(shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, size=shape).astype("float32")


def _tanh_function(torch):
    class Tanh(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = torch.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensors
            return dy * (1 - y * y)

    return Tanh


def _tanh_chain_step(torch, n_ops, width):
    tanh_fn = _tanh_function(torch)
    data = _data([width])

    def step():
        x = torch.tensor(data, requires_grad=True)
        y = x
        for _ in range(n_ops):
            y = tanh_fn.apply(y)
        y.sum().backward()
        return x.grad

    return step


def function_tanh_chain(torch, case, sizes):
    return Bench(units=sizes["chain"], step=_tanh_chain_step(torch, sizes["chain"], sizes["width"]))


def function_tanh_chain_big(torch, case, sizes):
    step = _tanh_chain_step(torch, sizes["big_chain"], sizes["big_width"])
    return Bench(units=sizes["big_chain"], step=step)


def builtin_chain(torch, case, sizes):
    data = _data([sizes["width"]])
    n_ops = sizes["chain"]

    def step():
        x = torch.tensor(data, requires_grad=True)
        y = x
        for _ in range(n_ops):
            y = torch.tanh(y) * 0.5 + y
        y.sum().backward()
        return x.grad

    return Bench(units=n_ops, step=step)


def mlp_step(torch, case, sizes):
    batch, d_in, d_hidden, d_out = sizes["mlp"]
    torch.manual_seed(0)
    fc1 = torch.nn.Linear(d_in, d_hidden)
    fc2 = torch.nn.Linear(d_hidden, d_out)
    opt = torch.optim.SGD(list(fc1.parameters()) + list(fc2.parameters()), lr=0.01)
    x = torch.tensor(_data([batch, d_in]))
    label = torch.tensor(np.random.default_rng(1).integers(0, d_out, batch).astype("int64"))
    relu = torch.nn.functional.relu
    cross_entropy = torch.nn.functional.cross_entropy

    def step():
        loss = cross_entropy(fc2(relu(fc1(x))), label)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)


def multiply_chain(torch, case, sizes):
    data = _data([sizes["width"]])
    ones = np.ones([sizes["width"]], dtype="float32")
    n_ops = sizes["chain"]

    def chain():
        x = torch.tensor(data, requires_grad=True)
        w = torch.tensor(ones, requires_grad=True)
        y = x
        for _ in range(n_ops):
            y = torch.mul(y, w)
        y.sum().backward()
        return x.grad

    if case == "plain":
        return Bench(units=n_ops, step=chain)

    def identity(t):
        return t

    def step_with_hooks():
        with torch.autograd.graph.saved_tensors_hooks(identity, identity):
            return chain()

    return Bench(units=n_ops, step=step_with_hooks)


def long_chain_backward(torch, case, sizes):
    n_ops = sizes["long_chain"] if case == "100k" else sizes["short_chain"]
    data = _data([sizes["width"]])

    def timed_step():
        x = torch.tensor(data, requires_grad=True)
        y = x
        for _ in range(n_ops):
            y = torch.tanh(y)
        loss = y.sum()
        del y
        start = time.perf_counter()
        loss.backward()
        return time.perf_counter() - start

    return Bench(units=1, timed_step=timed_step)


def small_cnn_step(torch, case, sizes):
    batch, channels, size, classes = sizes["cnn"]
    torch.manual_seed(0)
    nn, F = torch.nn, torch.nn.functional
    conv1, bn = nn.Conv2d(channels, 16, 3, padding=1), nn.BatchNorm2d(16)
    conv2, fc = nn.Conv2d(16, 32, 3, padding=1), nn.Linear(32 * (size // 4) ** 2, classes)
    params = [p for layer in (conv1, bn, conv2, fc) for p in layer.parameters()]
    opt = torch.optim.SGD(params, lr=0.01)
    x = torch.tensor(_data([batch, channels, size, size]))
    label = torch.tensor(np.random.default_rng(1).integers(0, classes, batch).astype("int64"))

    def step():
        h = F.max_pool2d(F.relu(bn(conv1(x))), 2)
        h = F.max_pool2d(F.relu(conv2(h)), 2)
        loss = F.cross_entropy(fc(h.reshape(batch, -1)), label)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)


def conv2d_alone(torch, case, sizes):
    batch, channels, size, out_channels = sizes["conv"][case]
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(channels, out_channels, 3, padding=1)
    x = torch.tensor(_data([batch, channels, size, size]))

    def step():
        conv(x).mean().backward()
        conv.zero_grad()

    return Bench(units=1, step=step)


def attention_step(torch, case, sizes):
    batch, length, width = sizes["attention"]
    torch.manual_seed(0)
    nn, F = torch.nn, torch.nn.functional
    norm = nn.LayerNorm(width)
    q_proj, k_proj, v_proj = nn.Linear(width, width), nn.Linear(width, width), \
        nn.Linear(width, width)
    params = [p for layer in (norm, q_proj, k_proj, v_proj) for p in layer.parameters()]
    opt = torch.optim.SGD(params, lr=0.01)
    x = torch.tensor(_data([batch, length, width]))
    scale = 1.0 / width ** 0.5

    def step():
        h = norm(x)
        q, k, v = q_proj(h), k_proj(h), v_proj(h)
        weights = F.softmax(torch.matmul(q, k.transpose(-1, -2)) * scale, dim=-1)
        loss = torch.matmul(weights, v).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)


def lstm_step(torch, case, sizes):
    batch, steps, features, hidden = sizes["lstm"]
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(features, hidden, batch_first=True)
    x = torch.tensor(_data([batch, steps, features]))

    def step():
        outputs, _ = lstm(x)
        outputs.mean().backward()
        lstm.zero_grad()

    return Bench(units=1, step=step)
