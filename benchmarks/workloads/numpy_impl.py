"""Hand-written numpy references: forward loops that keep what backward needs,
and backward loops with the gradient formulas written out. No graph, no nodes:
the floor an autograd library's overhead is measured against."""
import numpy as np

from workloads import Bench


def _data(shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, size=shape).astype("float32")


def _tanh_chain_step(n_ops, width):
    data = _data([width])

    def step():
        y = data
        saved = []
        for _ in range(n_ops):
            y = np.tanh(y)
            saved.append(y)
        y.sum()
        g = np.ones_like(y)
        for out in reversed(saved):
            g = g * (1 - out * out)
        return g

    return step


def tanh_chain(np_module, case, sizes):
    return Bench(units=sizes["chain"], step=_tanh_chain_step(sizes["chain"], sizes["width"]))


def tanh_chain_big(np_module, case, sizes):
    return Bench(units=sizes["big_chain"],
                 step=_tanh_chain_step(sizes["big_chain"], sizes["big_width"]))


def builtin_chain(np_module, case, sizes):
    data = _data([sizes["width"]])
    n_ops = sizes["chain"]

    def step():
        y = data
        saved = []
        for _ in range(n_ops):
            t = np.tanh(y)
            saved.append(t)
            y = t * 0.5 + y
        y.sum()
        g = np.ones_like(y)
        for t in reversed(saved):
            g = g * (0.5 * (1 - t * t)) + g
        return g

    return Bench(units=n_ops, step=step)


def mlp_step(np_module, case, sizes):
    batch, d_in, d_hidden, d_out = sizes["mlp"]
    rng = np.random.default_rng(0)
    bound1, bound2 = 1 / np.sqrt(d_in), 1 / np.sqrt(d_hidden)
    params = [rng.uniform(-bound1, bound1, (d_in, d_hidden)).astype("float32"),
              np.zeros(d_hidden, "float32"),
              rng.uniform(-bound2, bound2, (d_hidden, d_out)).astype("float32"),
              np.zeros(d_out, "float32")]
    x = _data([batch, d_in])
    label = np.random.default_rng(1).integers(0, d_out, batch)
    rows = np.arange(batch)
    lr = np.float32(0.01)

    def step():
        w1, b1, w2, b2 = params
        pre = x @ w1 + b1
        hidden = np.maximum(pre, 0)
        logits = hidden @ w2 + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        probs = exp / exp.sum(axis=1, keepdims=True)
        loss = -np.log(probs[rows, label]).mean()
        g_logits = probs
        g_logits[rows, label] -= 1
        g_logits /= batch
        g_w2 = hidden.T @ g_logits
        g_b2 = g_logits.sum(axis=0)
        g_hidden = g_logits @ w2.T
        g_hidden[pre <= 0] = 0
        g_w1 = x.T @ g_hidden
        g_b1 = g_hidden.sum(axis=0)
        for p, g in zip(params, (g_w1, g_b1, g_w2, g_b2)):
            p -= lr * g
        return loss

    return Bench(units=1, step=step)
