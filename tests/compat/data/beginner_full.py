"""A beginner's training script, written the way Paddle's tutorials write one.

A ``paddle.io.Dataset`` read by a ``DataLoader`` with two worker processes, an
``nn.Layer`` with a custom ``PyLayer`` inside, ``AdamW``, ``paddle.metric.Accuracy``,
``paddle.amp.auto_cast``, ``paddle.save``/``paddle.load`` of the model's and the
optimizer's state and a resumed step, ``paddle.jit.to_static`` on the model,
``paddle.jit.save`` and ``paddle.jit.load`` with inference on the loaded layer.
The weights are set from numpy and nothing is shuffled, so every framework that
runs it sees the same numbers. Each printed line is a label and numbers.
"""
import os
import tempfile
import warnings

import numpy as np
import paddle
import paddle.nn.functional as F
from paddle.autograd import PyLayer
from paddle.io import DataLoader, Dataset
from paddle.static import InputSpec


class Blobs(Dataset):
    def __init__(self, n, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, 4)).astype("float32")
        self.y = (self.x[:, 0] - 0.5 * self.x[:, 2] > 0).astype("int64")[:, None]

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


class ClippedTanh(PyLayer):
    """tanh forward; its gradient clipped to [-0.3, 0.3] backward."""

    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return paddle.clip(dy * (1 - paddle.square(y)), -0.3, 0.3)


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 16)
        self.fc2 = paddle.nn.Linear(16, 2)

    def forward(self, x):
        return self.fc2(ClippedTanh.apply(self.fc1(x)))


def make_net():
    net = Net()
    rng = np.random.default_rng(42)
    for p in net.parameters():
        p.set_value(rng.normal(scale=0.5, size=p.shape).astype("float32"))
    return net


def make_optimizer(net):
    return paddle.optimizer.AdamW(learning_rate=0.05, parameters=net.parameters(),
                                  weight_decay=0.01)


def train_step(model, optimizer, x, y):
    # The tutorials' mixed precision: auto_cast's default dtype, float16.
    with paddle.amp.auto_cast(level="O1"):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    optimizer.clear_grad()
    return logits, loss


def main():
    warnings.simplefilter("ignore")      # auto_cast's float16 on a CPU warns
    paddle.seed(0)
    train_data, test_data = Blobs(64, seed=0), Blobs(32, seed=1)
    train_loader = DataLoader(train_data, batch_size=16, shuffle=False, num_workers=2)
    model = make_net()
    optimizer = make_optimizer(model)
    metric = paddle.metric.Accuracy()
    step = 0
    for epoch in range(2):
        model.train()
        for x, y in train_loader:
            logits, loss = train_step(model, optimizer, x, y)
            metric.update(metric.compute(logits, y))
            print("step", step, float(loss))
            step += 1
        print("epoch", epoch, float(metric.accumulate()))
        metric.reset()

    x_test = paddle.to_tensor(test_data.x)
    y_test = paddle.to_tensor(test_data.y)
    with tempfile.TemporaryDirectory() as tmp:
        paddle.save(model.state_dict(), os.path.join(tmp, "model.pdparams"))
        paddle.save(optimizer.state_dict(), os.path.join(tmp, "model.pdopt"))
        x, y = next(iter(train_loader))
        train_step(model, optimizer, x, y)
        model.eval()
        print("continued", float(F.cross_entropy(model(x_test), y_test)))
        # Back to the saved state, as a resumed run starts: the same step again.
        model.set_state_dict(paddle.load(os.path.join(tmp, "model.pdparams")))
        optimizer.set_state_dict(paddle.load(os.path.join(tmp, "model.pdopt")))
        model.train()
        train_step(model, optimizer, x, y)
        model.eval()
        print("resumed", float(F.cross_entropy(model(x_test), y_test)))

        static_model = paddle.jit.to_static(
            model, input_spec=[InputSpec(shape=[None, 4], dtype="float32", name="x")])
        static_logits = static_model(x_test)
        print("to_static", float(F.cross_entropy(static_logits, y_test)),
              float(paddle.metric.accuracy(F.softmax(static_logits), y_test)))
        path = os.path.join(tmp, "inference", "net")
        paddle.jit.save(static_model, path)
        loaded = paddle.jit.load(path)
        loaded.eval()
        loaded_logits = loaded(x_test[:5])
        print("jit_load", *np.asarray(loaded_logits).ravel().tolist())

    # bfloat16 mixed precision with a loss scaler: the trained model on the test
    # data, then a fresh model trained for one epoch.
    with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
        loss = F.cross_entropy(model(x_test), y_test)
    print("amp_eval", float(loss.astype("float32")))
    model = make_net()
    optimizer = make_optimizer(model)
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
    for step, (x, y) in enumerate(train_loader):
        with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
            loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.clear_grad()
        print("amp_step", step, float(loss.astype("float32")))
    model.eval()
    print("amp_trained", float(F.cross_entropy(model(x_test), y_test)))

if __name__ == "__main__":
    main()
