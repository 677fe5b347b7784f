"""Hand-written numpy references: forward loops that keep what backward needs,
and backward loops with the gradient formulas written out. No graph, no nodes:
the floor an autograd library's overhead is measured against."""
import numpy as np

from workloads import Bench, weights


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


def conv2d_alone(np_module, case, sizes):
    """Conv2D 3x3, padding 1: im2col by a sliding-window view, one batched matmul forward
    and one for the weight gradient (the input needs no gradient)."""
    batch, channels, size, out_channels = sizes["conv"][case]
    rng = np.random.default_rng(0)
    weight = (rng.standard_normal((out_channels, channels * 9)) * 0.1).astype("float32")
    bias = np.zeros(out_channels, "float32")
    x = _data([batch, channels, size, size])

    def step():
        padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
        col = windows.transpose(0, 1, 4, 5, 2, 3).reshape(batch, channels * 9, size * size)
        out = np.matmul(weight, col) + bias[:, None]
        loss = out.mean()
        g = np.full(out.shape, 1.0 / out.size, "float32")
        g_weight = np.matmul(g, col.transpose(0, 2, 1)).sum(axis=0)
        g_bias = g.sum(axis=(0, 2))
        return loss, g_weight, g_bias

    return Bench(units=1, step=step)


def attention_step(np_module, case, sizes):
    """LayerNorm, q/k/v projections, softmax(q k^T / sqrt(d)) v, mean: forward, the
    backward written out, and the SGD update."""
    batch, length, width = sizes["attention"]
    rng = np.random.default_rng(0)
    bound = (6 / (2 * width)) ** 0.5
    params = {"gamma": np.ones(width, "float32"), "beta": np.zeros(width, "float32")}
    for name in "qkv":
        params["w" + name] = rng.uniform(-bound, bound, (width, width)).astype("float32")
        params["b" + name] = np.zeros(width, "float32")
    x = _data([batch, length, width])
    scale = np.float32(1.0 / width ** 0.5)
    lr = np.float32(0.01)

    def step():
        p = params
        centred = x - x.mean(axis=-1, keepdims=True)
        rstd = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + 1e-5)
        xhat = centred * rstd
        h = xhat * p["gamma"] + p["beta"]
        q, k, v = (h @ p["w" + n] + p["b" + n] for n in "qkv")
        scores = (q @ k.transpose(0, 2, 1)) * scale
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs = e / e.sum(axis=-1, keepdims=True)
        out = probs @ v
        loss = out.mean()
        g_out = np.full(out.shape, 1.0 / out.size, "float32")
        g_probs = g_out @ v.transpose(0, 2, 1)
        g_v = probs.transpose(0, 2, 1) @ g_out
        g_scores = probs * (g_probs - (g_probs * probs).sum(axis=-1, keepdims=True)) * scale
        g_q, g_k = g_scores @ k, g_scores.transpose(0, 2, 1) @ q
        flat_h = h.reshape(-1, width)
        grads = {}
        g_h = 0
        for n, g in (("q", g_q), ("k", g_k), ("v", g_v)):
            flat_g = g.reshape(-1, width)
            grads["w" + n] = flat_h.T @ flat_g
            grads["b" + n] = flat_g.sum(axis=0)
            g_h = g_h + g @ p["w" + n].T
        grads["gamma"] = (g_h * xhat).sum(axis=(0, 1))
        grads["beta"] = g_h.sum(axis=(0, 1))
        for name, g in grads.items():
            p[name] -= lr * g
        return loss

    return Bench(units=1, step=step)


def resnet_step(np_module, case, sizes):
    """(12) Case "blas": the matrix products of the ResNet step's 3x3 convolutions alone,
    as pylayer runs them: per convolution and sample, one forward product and one
    weight-gradient product on the sample's im2col buffer (rows padded as pylayer pads
    them), and an input-gradient product
    for every convolution but the first (its input is data). The floor of any step of
    im2col products on numpy's BLAS."""
    batch, channels, size, n_blocks, classes = sizes["resnet"]
    pixels, rows = size * size, channels * 9
    weight = np.ones((channels, rows), "float32")
    pad = 16 if pixels * 4 % 512 == 0 else 0        # pylayer's padded rows
    col = np.ones((rows, pixels + pad), "float32")[:, :pixels]
    dy = np.ones((batch, channels, pixels), "float32")
    out = np.empty((batch, channels, pixels), "float32")
    d_col = np.empty((rows, pixels + pad), "float32")[:, :pixels]
    convolutions = 2 * n_blocks

    def step():
        for index in range(convolutions):
            for sample in range(batch):
                np.matmul(weight, col, out=out[sample])
                np.matmul(col, dy[sample].T)
                if index:
                    np.matmul(weight.T, dy[sample], out=d_col)

    return Bench(units=1, step=step)


def mlp_products(np_module, case, sizes):
    """(18) Case "blas": the matrix products of workload 4's step alone (2 forward, 3
    backward: no gradient of the input), the floor of any implementation of the step,
    captured or not."""
    batch, d_in, d_hidden, d_out = sizes["mlp"]
    x = _data([batch, d_in])
    w1 = np.ones((d_in, d_hidden), "float32")
    w2 = np.ones((d_hidden, d_out), "float32")
    hidden, g_hidden = np.ones((batch, d_hidden), "float32"), np.ones((batch, d_hidden), "float32")
    g_logits = np.ones((batch, d_out), "float32")

    def step():
        x @ w1
        hidden @ w2
        hidden.T @ g_logits
        g_logits @ w2.T
        x.T @ g_hidden

    return Bench(units=1, step=step)


def pylayer_mlp_step(np_module, case, sizes):
    """(16) Case "main": the MLP step by hand (forward, backward with the formulas of the
    PyLayers, softmax cross-entropy, SGD). Case "blas": only its matrix products, the
    floor of any implementation (3 forward, 5 backward: no gradient of the input)."""
    batch, *widths = sizes["pylayer_mlp"]
    params = []
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        params.append(weights.value(f"fc{i}.weight", [a, b], weights.fan_in_std([a, b])))
        params.append(weights.value(f"fc{i}.bias", [b], 1.0))
    x = weights.data([batch, widths[0]])
    label = weights.labels([batch], widths[-1])
    rows = np.arange(batch)
    lr = np.float32(0.01)
    n_layers = len(params) // 2

    if case == "blas":
        hiddens = [x] + [np.ones((batch, w), "float32") for w in widths[1:-1]]
        g_out = [np.ones((batch, w), "float32") for w in widths[1:]]

        def blas_step():
            for i in range(n_layers):
                hiddens[i] @ params[2 * i]
                hiddens[i].T @ g_out[i]
                if i:
                    g_out[i] @ params[2 * i].T

        return Bench(units=1, step=blas_step)

    def step():
        inputs, h = [], x
        for i in range(n_layers):
            inputs.append(h)
            h = h @ params[2 * i] + params[2 * i + 1]
            if i < n_layers - 1:
                h = np.maximum(h, 0)
        shifted = h - h.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        probs = exp / exp.sum(axis=1, keepdims=True)
        loss = -np.log(probs[rows, label]).mean()
        g = probs
        g[rows, label] -= 1
        g /= batch
        grads = [None] * len(params)
        for i in reversed(range(n_layers)):
            grads[2 * i] = inputs[i].T @ g
            grads[2 * i + 1] = g.sum(axis=0)
            if i:
                g = (g @ params[2 * i].T) * (inputs[i] > 0)
        for p, grad in zip(params, grads):
            p -= lr * grad
        return loss

    return Bench(units=1, step=step)
