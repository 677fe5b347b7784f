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
