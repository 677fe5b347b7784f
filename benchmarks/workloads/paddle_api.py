"""Workloads written once against Paddle's API.

Every function takes the library module as ``paddle``: the same code runs with
``import paddle`` and with ``import pylayer as paddle``. A feature pylayer does
not have yet surfaces as an AttributeError or NotImplementedError while the
benchmark is built, and the worker reports it as "not available yet".
"""
import time

import numpy as np

from workloads import Bench, weights


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


def _training_step(loss_of, opt, x, label):
    def step():
        loss = loss_of(x, label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def _mlp(paddle, sizes):
    """The MLP of workload 4: its loss function of (x, label), optimizer and data."""
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

    def loss_of(x, label):
        return cross_entropy(fc2(relu(fc1(x))), label)

    return loss_of, opt, x, label


def mlp_step(paddle, case, sizes):
    """(4) One SGD training step of a two-layer ReLU MLP with softmax cross-entropy."""
    return Bench(units=1, step=_training_step(*_mlp(paddle, sizes)))


def _to_static_step(paddle, case, model):
    loss_of, opt, x, label = model
    if case == "static":
        loss_of = paddle.jit.to_static(loss_of)
    return Bench(units=1, step=_training_step(loss_of, opt, x, label))


def mlp_to_static(paddle, case, sizes):
    """(18) Workload 4's step with its forward and loss under ``jit.to_static`` (``static``)
    or as Python (``dynamic``)."""
    return _to_static_step(paddle, case, _mlp(paddle, sizes))


def small_cnn_to_static(paddle, case, sizes):
    """(19) Workload 8's step with its forward and loss under ``jit.to_static`` (``static``)
    or as Python (``dynamic``)."""
    return _to_static_step(paddle, case, _small_cnn(paddle, sizes))


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


def _small_cnn(paddle, sizes):
    """The CNN of workload 8: its loss function of (x, label), optimizer and data."""
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

    def loss_of(x, label):
        h = F.max_pool2d(F.relu(bn(conv1(x))), 2)
        h = F.max_pool2d(F.relu(conv2(h)), 2)
        return F.cross_entropy(fc(h.reshape([batch, -1])), label)

    return loss_of, opt, x, label


def small_cnn_step(paddle, case, sizes):
    """(8) One SGD step of a small CNN: Conv-BN-ReLU-pool, Conv-ReLU-pool, Linear, CE."""
    return Bench(units=1, step=_training_step(*_small_cnn(paddle, sizes)))


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


# The model steps of issue 34 (workloads 11-17). Each model's parameters are set from
# ``weights.value`` by name, so every library starts from the same weights.

def _assign(paddle, named_parameters, std_of):
    for name, param in named_parameters:
        shape = list(param.shape)
        param.set_value(weights.value(name, shape, std_of(name, shape)))


def _gpt_model(paddle, sizes):
    vocab, width, heads, length, _, n_layers = sizes["gpt"]
    nn, F = paddle.nn, paddle.nn.functional
    head_width = width // heads
    scale = 1.0 / head_width ** 0.5

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.fc, self.out = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

        def forward(self, x, mask):
            batch = x.shape[0]
            qkv = self.qkv(self.ln1(x)).reshape([batch, length, 3, heads, head_width])
            qkv = qkv.transpose([2, 0, 3, 1, 4])
            q, k, v = qkv[0], qkv[1], qkv[2]
            scores = paddle.matmul(q, k, transpose_y=True) * scale + mask
            y = paddle.matmul(F.softmax(scores, axis=-1), v)
            x = x + self.proj(y.transpose([0, 2, 1, 3]).reshape([batch, length, width]))
            return x + self.out(F.gelu(self.fc(self.ln2(x))))

    class GPT(nn.Layer):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, width)
            self.pos = self.create_parameter([length, width])
            self.blocks = nn.LayerList([Block() for _ in range(n_layers)])
            self.lnf = nn.LayerNorm(width)
            self.head = nn.Linear(width, vocab)

        def forward(self, tokens, mask):
            x = self.tok(tokens) + self.pos
            for block in self.blocks:
                x = block(x, mask)
            return self.head(self.lnf(x))

    return GPT()


def gpt_step(paddle, case, sizes):
    """(11) One AdamW step of a 2-layer GPT; attention written with matmul and a masked
    softmax (an additive causal mask), the exact GELU, next-token cross-entropy."""
    vocab, width, heads, length, batch, _ = sizes["gpt"]
    model = _gpt_model(paddle, sizes)
    _assign(paddle, model.named_parameters(), lambda name, shape: 0.02)
    opt = paddle.optimizer.AdamW(learning_rate=1e-3, parameters=model.parameters(),
                                 weight_decay=0.01)
    tokens = weights.labels([batch, length + 1], vocab)
    inputs, targets = paddle.to_tensor(tokens[:, :-1]), paddle.to_tensor(tokens[:, 1:].reshape(-1))
    mask = paddle.to_tensor(weights.causal_mask(length))
    cross_entropy = paddle.nn.functional.cross_entropy

    def step():
        logits = model(inputs, mask)
        loss = cross_entropy(logits.reshape([batch * length, vocab]), targets)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)


def resnet_step(paddle, case, sizes):
    """(12) One SGD-momentum step of basic residual blocks (conv3x3-BN-ReLU-conv3x3-BN,
    identity shortcut, ReLU), global average pool, Linear, cross-entropy."""
    batch, channels, size, n_blocks, classes = sizes["resnet"]
    nn, F = paddle.nn, paddle.nn.functional

    class BasicBlock(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2D(channels, channels, 3, padding=1, bias_attr=False)
            self.bn1 = nn.BatchNorm2D(channels)
            self.conv2 = nn.Conv2D(channels, channels, 3, padding=1, bias_attr=False)
            self.bn2 = nn.BatchNorm2D(channels)

        def forward(self, x):
            y = F.relu(self.bn1(self.conv1(x)))
            return F.relu(self.bn2(self.conv2(y)) + x)

    class ResNet(nn.Layer):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(*[BasicBlock() for _ in range(n_blocks)])
            self.fc = nn.Linear(channels, classes)

        def forward(self, x):
            h = F.adaptive_avg_pool2d(self.blocks(x), 1)
            return self.fc(h.reshape([x.shape[0], channels]))

    model = ResNet()
    _assign(paddle, model.named_parameters(),
            lambda name, shape: weights.fan_in_std(shape, 2 ** 0.5 if len(shape) == 4 else 1))
    opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9,
                                    parameters=model.parameters())
    x = paddle.to_tensor(weights.data([batch, channels, size, size]))
    label = paddle.to_tensor(weights.labels([batch], classes))

    def step():
        loss = F.cross_entropy(model(x), label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)


def _tanh_mlp(paddle, sizes_list, prefix):
    """Linear layers with tanh between them, as a function, and its named parameters."""
    layers = [paddle.nn.Linear(a, b) for a, b in zip(sizes_list, sizes_list[1:])]
    named = [(f"{prefix}{i}.{name}", p) for i, layer in enumerate(layers)
             for name, p in layer.named_parameters()]

    def forward(x):
        for layer in layers[:-1]:
            x = paddle.tanh(layer(x))
        return layers[-1](x)

    return forward, named


def jacobian_hessian(paddle, case, sizes):
    """(13) The batched Jacobian [B, out, in] of a tanh MLP and the batched Hessian
    [B, in, in] of its outputs' sum, by ``paddle.autograd.jacobian``/``hessian``
    (one backward per row)."""
    batch, d_in, hidden, d_out = sizes["jacobian"]
    mlp, named = _tanh_mlp(paddle, [d_in, hidden, d_out], "fc")
    _assign(paddle, named, lambda name, shape: weights.fan_in_std(shape))
    data = weights.data([batch, d_in])

    def step():
        x = paddle.to_tensor(data, stop_gradient=False)
        jac = paddle.autograd.jacobian(mlp(x), x, batch_axis=0)[:]
        hess = paddle.autograd.hessian(mlp(x).sum(axis=-1), x, batch_axis=0)[:]
        return jac, hess

    return Bench(units=1, step=step)


def wgan_gp_step(paddle, case, sizes):
    """(14) One Adam step of a WGAN-GP critic: Wasserstein loss plus 10 x the gradient
    penalty on interpolates, whose input gradient is taken with create_graph=True
    (the step's backward is a double backward)."""
    batch, dim, hidden = sizes["wgan"]
    F = paddle.nn.functional
    layers = [paddle.nn.Linear(a, b) for a, b in ((dim, hidden), (hidden, hidden), (hidden, 1))]
    named = [(f"fc{i}.{name}", p) for i, layer in enumerate(layers)
             for name, p in layer.named_parameters()]
    _assign(paddle, named, lambda name, shape: weights.fan_in_std(shape))
    opt = paddle.optimizer.Adam(learning_rate=1e-4, beta1=0.5, beta2=0.9,
                                parameters=[p for _, p in named])
    real = paddle.to_tensor(weights.data([batch, dim], seed=2))
    fake = paddle.to_tensor(weights.data([batch, dim], seed=3))
    eps = paddle.to_tensor(np.random.default_rng(4).uniform(size=(batch, 1)).astype("float32"))

    def critic(x):
        for layer in layers[:-1]:
            x = F.leaky_relu(layer(x), 0.2)
        return layers[-1](x)

    def step():
        mixed = eps * real + (1 - eps) * fake
        mixed.stop_gradient = False
        grad, = paddle.grad(critic(mixed).sum(), mixed, create_graph=True)
        norm = paddle.sqrt((grad * grad).sum(axis=1) + 1e-12)
        penalty = ((norm - 1) ** 2).mean()
        loss = critic(fake).mean() - critic(real).mean() + 10.0 * penalty
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)


def pinn_step(paddle, case, sizes):
    """(15) One Adam step of a physics-informed network for the Poisson equation
    u_xx + u_yy = f on collocation points: the Laplacian by nested ``paddle.grad``
    (create_graph=True), the mean squared residual as the loss."""
    points, hidden, depth = sizes["pinn"]
    mlp, named = _tanh_mlp(paddle, [2] + [hidden] * depth + [1], "fc")
    _assign(paddle, named, lambda name, shape: weights.fan_in_std(shape))
    opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=[p for _, p in named])
    xy_data = weights.data([points, 2], seed=5)
    rhs = paddle.to_tensor(np.sin(np.pi * xy_data).prod(axis=1).astype("float32"))

    def step():
        xy = paddle.to_tensor(xy_data, stop_gradient=False)
        first, = paddle.grad(mlp(xy).sum(), xy, create_graph=True)
        u_xx = paddle.grad(first[:, 0].sum(), xy, create_graph=True)[0][:, 0]
        u_yy = paddle.grad(first[:, 1].sum(), xy, create_graph=True)[0][:, 1]
        loss = ((u_xx + u_yy - rhs) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)


def _pylayer_ops(paddle):
    class Linear(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, weight, bias):
            ctx.save_for_backward(x, weight)
            ctx.input_grad = not x.stop_gradient
            return paddle.matmul(x, weight) + bias

        @staticmethod
        def backward(ctx, dy):
            x, weight = ctx.saved_tensor()
            dx = paddle.matmul(dy, weight, transpose_y=True) if ctx.input_grad else None
            return dx, paddle.matmul(x, dy, transpose_x=True), dy.sum(axis=0)

    class ReLU(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.nn.functional.relu(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensor()
            return dy * (y > 0).astype(dy.dtype)

    return Linear, ReLU


def pylayer_mlp_step(paddle, case, sizes):
    """(16) One SGD step of an MLP whose linear layers and ReLUs are PyLayers (the
    linear's backward skips the input gradient where the input needs none)."""
    batch, *widths = sizes["pylayer_mlp"]
    linear, relu = _pylayer_ops(paddle)
    layers = [paddle.nn.Linear(a, b) for a, b in zip(widths, widths[1:])]
    named = [(f"fc{i}.{name}", p) for i, layer in enumerate(layers)
             for name, p in layer.named_parameters()]
    _assign(paddle, named, lambda name, shape: weights.fan_in_std(shape))
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=[p for _, p in named])
    x = paddle.to_tensor(weights.data([batch, widths[0]]))
    label = paddle.to_tensor(weights.labels([batch], widths[-1]))

    def step():
        h = x
        for layer in layers[:-1]:
            h = relu.apply(linear.apply(h, layer.weight, layer.bias))
        logits = linear.apply(h, layers[-1].weight, layers[-1].bias)
        loss = paddle.nn.functional.cross_entropy(logits, label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)


def lstm_step(paddle, case, sizes):
    """(17) One SGD step of a 1-layer ``nn.LSTM`` (batch-major input), the mean squared
    error of its outputs against a fixed target."""
    batch, steps, d_in, hidden = sizes["lstm"]
    lstm = paddle.nn.LSTM(d_in, hidden)
    _assign(paddle, lstm.named_parameters(), lambda name, shape: 0.5 / hidden ** 0.5)
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=lstm.parameters())
    x = paddle.to_tensor(weights.data([batch, steps, d_in]))
    target = paddle.to_tensor(weights.data([batch, steps, hidden], seed=6))

    def step():
        out, _ = lstm(x)
        loss = paddle.nn.functional.mse_loss(out, target)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return Bench(units=1, step=step)
