"""The workloads in PyTorch: ``autograd.Function`` for custom ops, built-ins otherwise.

The worker has already called ``torch.set_num_threads(1)``.
"""
import time

import numpy as np

from workloads import Bench, weights


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


# The model steps of issue 34 (workloads 11-17): the models of paddle_api.py, their
# parameters set from ``weights.value`` under the same names (a linear weight transposed:
# PyTorch keeps [out, in], Paddle [in, out]).

def _assign(torch, named_parameters, std_of, transposed=()):
    with torch.no_grad():
        for name, param in named_parameters:
            shape = list(param.shape)[::-1] if name in transposed else list(param.shape)
            array = weights.value(name, shape, std_of(name, shape))
            param.copy_(torch.from_numpy(array.T.copy() if name in transposed else array))


def _linear_weight_names(torch, named_modules):
    return {f"{name}.weight" for name, module in named_modules
            if isinstance(module, torch.nn.Linear)}


def gpt_step(torch, case, sizes):
    """Explicit attention (matmul, additive causal mask, softmax) in case "main";
    ``F.scaled_dot_product_attention(is_causal=True)`` in case "sdpa"."""
    vocab, width, heads, length, batch, n_layers = sizes["gpt"]
    nn, F = torch.nn, torch.nn.functional
    head_width = width // heads
    scale = 1.0 / head_width ** 0.5
    mask = torch.from_numpy(weights.causal_mask(length))
    fused = case == "sdpa"

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.fc, self.out = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

        def forward(self, x):
            b = x.shape[0]
            qkv = self.qkv(self.ln1(x)).reshape(b, length, 3, heads, head_width)
            q, k, v = qkv.permute(2, 0, 3, 1, 4)
            if fused:
                y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            else:
                scores = torch.matmul(q, k.transpose(-1, -2)) * scale + mask
                y = torch.matmul(F.softmax(scores, dim=-1), v)
            x = x + self.proj(y.transpose(1, 2).reshape(b, length, width))
            return x + self.out(F.gelu(self.fc(self.ln2(x))))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, width)
            self.pos = nn.Parameter(torch.zeros(length, width))
            self.blocks = nn.ModuleList([Block() for _ in range(n_layers)])
            self.lnf = nn.LayerNorm(width)
            self.head = nn.Linear(width, vocab)

        def forward(self, tokens):
            x = self.tok(tokens) + self.pos
            for block in self.blocks:
                x = block(x)
            return self.head(self.lnf(x))

    model = GPT()
    _assign(torch, model.named_parameters(), lambda name, shape: 0.02,
            _linear_weight_names(torch, model.named_modules()))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    tokens = torch.from_numpy(weights.labels([batch, length + 1], vocab))
    inputs, targets = tokens[:, :-1].contiguous(), tokens[:, 1:].reshape(-1)

    def step():
        loss = F.cross_entropy(model(inputs).reshape(batch * length, vocab), targets)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)


def resnet_step(torch, case, sizes):
    batch, channels, size, n_blocks, classes = sizes["resnet"]
    nn, F = torch.nn, torch.nn.functional

    class BasicBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(channels)
            self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(channels)

        def forward(self, x):
            y = F.relu(self.bn1(self.conv1(x)))
            return F.relu(self.bn2(self.conv2(y)) + x)

    class ResNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(*[BasicBlock() for _ in range(n_blocks)])
            self.fc = nn.Linear(channels, classes)

        def forward(self, x):
            return self.fc(F.adaptive_avg_pool2d(self.blocks(x), 1).reshape(x.shape[0], channels))

    model = ResNet()
    _assign(torch, model.named_parameters(),
            lambda name, shape: weights.fan_in_std(shape, 2 ** 0.5 if len(shape) == 4 else 1),
            _linear_weight_names(torch, model.named_modules()))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.from_numpy(weights.data([batch, channels, size, size]))
    label = torch.from_numpy(weights.labels([batch], classes))

    def step():
        loss = F.cross_entropy(model(x), label)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)


def _mlp_layers(torch, widths):
    """Linear layers named fc0, fc1, ... with weights from ``weights.value``."""
    layers = [torch.nn.Linear(a, b) for a, b in zip(widths, widths[1:])]
    named = [(f"fc{i}.{name}", p) for i, layer in enumerate(layers)
             for name, p in layer.named_parameters()]
    _assign(torch, named, lambda name, shape: weights.fan_in_std(shape),
            {f"fc{i}.weight" for i in range(len(layers))})
    return layers, [p for _, p in named]


def jacobian_hessian(torch, case, sizes):
    """Case "main": ``torch.autograd.functional.jacobian`` row by row (one backward per
    output of the batch-summed function, as Paddle's batched Jacobian does); case "func":
    ``torch.func`` (``vmap`` of ``jacrev`` and of ``hessian``)."""
    batch, d_in, hidden, d_out = sizes["jacobian"]
    layers, _ = _mlp_layers(torch, [d_in, hidden, d_out])
    for layer in layers:
        layer.requires_grad_(False)

    def mlp(x):
        return layers[1](torch.tanh(layers[0](x)))

    x = torch.from_numpy(weights.data([batch, d_in]))
    if case == "func":
        jac_fn = torch.func.vmap(torch.func.jacrev(mlp))
        hess_fn = torch.func.vmap(torch.func.hessian(lambda row: mlp(row).sum()))
        return Bench(units=1, step=lambda: (jac_fn(x), hess_fn(x)))
    functional = torch.autograd.functional

    def summed_gradient(x):
        x = x if x.requires_grad else x.requires_grad_()
        return torch.autograd.grad(mlp(x).sum(), x, create_graph=True)[0].sum(0)

    def step():
        jac = functional.jacobian(lambda x: mlp(x).sum(0), x).permute(1, 0, 2)
        hess = functional.jacobian(summed_gradient, x, create_graph=False).permute(1, 0, 2)
        return jac, hess

    return Bench(units=1, step=step)


def wgan_gp_step(torch, case, sizes):
    batch, dim, hidden = sizes["wgan"]
    F = torch.nn.functional
    layers, params = _mlp_layers(torch, [dim, hidden, hidden, 1])
    opt = torch.optim.Adam(params, lr=1e-4, betas=(0.5, 0.9))
    real = torch.from_numpy(weights.data([batch, dim], seed=2))
    fake = torch.from_numpy(weights.data([batch, dim], seed=3))
    eps = torch.from_numpy(np.random.default_rng(4).uniform(size=(batch, 1)).astype("float32"))

    def critic(x):
        for layer in layers[:-1]:
            x = F.leaky_relu(layer(x), 0.2)
        return layers[-1](x)

    def step():
        mixed = (eps * real + (1 - eps) * fake).requires_grad_()
        grad, = torch.autograd.grad(critic(mixed).sum(), mixed, create_graph=True)
        norm = torch.sqrt((grad * grad).sum(dim=1) + 1e-12)
        penalty = ((norm - 1) ** 2).mean()
        loss = critic(fake).mean() - critic(real).mean() + 10.0 * penalty
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)


def pinn_step(torch, case, sizes):
    points, hidden, depth = sizes["pinn"]
    layers, params = _mlp_layers(torch, [2] + [hidden] * depth + [1])
    opt = torch.optim.Adam(params, lr=1e-3)
    xy_data = weights.data([points, 2], seed=5)
    rhs = torch.from_numpy(np.sin(np.pi * xy_data).prod(axis=1).astype("float32"))

    def mlp(x):
        for layer in layers[:-1]:
            x = torch.tanh(layer(x))
        return layers[-1](x)

    def step():
        xy = torch.from_numpy(xy_data).requires_grad_()
        first, = torch.autograd.grad(mlp(xy).sum(), xy, create_graph=True)
        u_xx = torch.autograd.grad(first[:, 0].sum(), xy, create_graph=True)[0][:, 0]
        u_yy = torch.autograd.grad(first[:, 1].sum(), xy, create_graph=True)[0][:, 1]
        loss = ((u_xx + u_yy - rhs) ** 2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)


def _functions(torch):
    class Linear(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, weight, bias):
            ctx.save_for_backward(x, weight)
            return torch.addmm(bias, x, weight.t())

        @staticmethod
        def backward(ctx, dy):
            x, weight = ctx.saved_tensors
            dx = dy @ weight if ctx.needs_input_grad[0] else None
            return dx, dy.t() @ x, dy.sum(0)

    class ReLU(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = torch.relu(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensors
            return dy * (y > 0).to(dy.dtype)

    return Linear, ReLU


def pylayer_mlp_step(torch, case, sizes):
    """The linear layers and ReLUs as ``autograd.Function``s."""
    batch, *widths = sizes["pylayer_mlp"]
    linear, relu = _functions(torch)
    layers, params = _mlp_layers(torch, widths)
    opt = torch.optim.SGD(params, lr=0.01)
    x = torch.from_numpy(weights.data([batch, widths[0]]))
    label = torch.from_numpy(weights.labels([batch], widths[-1]))

    def step():
        h = x
        for layer in layers[:-1]:
            h = relu.apply(linear.apply(h, layer.weight, layer.bias))
        logits = linear.apply(h, layers[-1].weight, layers[-1].bias)
        loss = torch.nn.functional.cross_entropy(logits, label)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)


def lstm_step(torch, case, sizes):
    batch, steps, d_in, hidden = sizes["lstm"]
    lstm = torch.nn.LSTM(d_in, hidden, batch_first=True)
    _assign(torch, lstm.named_parameters(), lambda name, shape: 0.5 / hidden ** 0.5)
    opt = torch.optim.SGD(lstm.parameters(), lr=0.01)
    x = torch.from_numpy(weights.data([batch, steps, d_in]))
    target = torch.from_numpy(weights.data([batch, steps, hidden], seed=6))

    def step():
        out, _ = lstm(x)
        loss = torch.nn.functional.mse_loss(out, target)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return Bench(units=1, step=step)
