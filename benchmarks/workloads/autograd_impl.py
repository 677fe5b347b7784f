"""The workloads in HIPS autograd: a custom primitive with its own VJP for the
PyLayer-style chain, ``autograd.numpy`` for the built-in chain and the MLP."""
import time

import numpy as np

from workloads import Bench


def _data(shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, size=shape).astype("float32")


def primitive_tanh_chain(autograd, case, sizes):
    from autograd.extend import defvjp, primitive

    @primitive
    def tanh_op(x):
        return np.tanh(x)

    defvjp(tanh_op, lambda ans, x: lambda g: g * (1 - ans * ans))
    n_ops = sizes["chain"]

    def loss(x):
        y = x
        for _ in range(n_ops):
            y = tanh_op(y)
        return y.sum()

    gradient = autograd.grad(loss)
    data = _data([sizes["width"]])
    return Bench(units=n_ops, step=lambda: gradient(data))


def builtin_chain(autograd, case, sizes):
    import autograd.numpy as anp
    n_ops = sizes["chain"]

    def loss(x):
        y = x
        for _ in range(n_ops):
            y = anp.tanh(y) * 0.5 + y
        return anp.sum(y)

    gradient = autograd.grad(loss)
    data = _data([sizes["width"]])
    return Bench(units=n_ops, step=lambda: gradient(data))


def mlp_step(autograd, case, sizes):
    import autograd.numpy as anp
    batch, d_in, d_hidden, d_out = sizes["mlp"]
    rng = np.random.default_rng(0)
    bound1, bound2 = 1 / np.sqrt(d_in), 1 / np.sqrt(d_hidden)
    params = [rng.uniform(-bound1, bound1, (d_in, d_hidden)).astype("float32"),
              np.zeros(d_hidden, "float32"),
              rng.uniform(-bound2, bound2, (d_hidden, d_out)).astype("float32"),
              np.zeros(d_out, "float32")]
    x = _data([batch, d_in])
    one_hot = np.eye(d_out, dtype="float32")[np.random.default_rng(1).integers(0, d_out, batch)]

    def loss(p):
        w1, b1, w2, b2 = p
        logits = anp.dot(anp.maximum(anp.dot(x, w1) + b1, 0), w2) + b2
        shifted = logits - anp.max(logits, axis=1, keepdims=True)
        log_probs = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
        return -anp.sum(log_probs * one_hot) / batch

    gradient = autograd.grad(loss)

    def step():
        for p, g in zip(params, gradient(params)):
            p -= np.float32(0.01) * g

    return Bench(units=1, step=step)


def long_chain_backward(autograd, case, sizes):
    """``make_vjp`` traces the forward (not timed) and returns the backward."""
    import autograd.numpy as anp
    n_ops = sizes["long_chain"] if case == "100k" else sizes["short_chain"]
    data = _data([sizes["width"]])

    def loss(x):
        y = x
        for _ in range(n_ops):
            y = anp.tanh(y)
        return anp.sum(y)

    def timed_step():
        vjp, value = autograd.make_vjp(loss)(data)
        start = time.perf_counter()
        vjp(np.ones_like(value))
        return time.perf_counter() - start

    return Bench(units=1, timed_step=timed_step)
