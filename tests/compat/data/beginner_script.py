"""The training loop of docs/en/guides/train_a_model.rst as one Paddle script.

It prints one line per training step (``step <n> <loss>``), the held-out
accuracy, and the loss and accuracy of the same model trained by paddle.Model.
"""
import numpy as np
import paddle


class Blobs(paddle.io.Dataset):
    def __init__(self, n, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, 4)).astype("float32")
        self.y = (self.x[:, 0] + self.x[:, 1] > 0).astype("int64")[:, None]

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


class ClipGrad(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, dy):
        return paddle.clip(dy, -0.5, 0.5)


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 16)
        self.fc2 = paddle.nn.Linear(16, 2)

    def forward(self, x):
        h = paddle.nn.functional.relu(self.fc1(x))
        return self.fc2(ClipGrad.apply(h))


def make_net():
    net = Net()
    rng = np.random.default_rng(42)
    for p in net.parameters():
        p.set_value(rng.normal(scale=0.5, size=p.shape).astype("float32"))
    return net


paddle.seed(0)
train_data, test_data = Blobs(64, seed=0), Blobs(32, seed=1)
train_loader = paddle.io.DataLoader(train_data, batch_size=16, shuffle=False)
model = make_net()
optimizer = paddle.optimizer.AdamW(learning_rate=0.05, parameters=model.parameters())
loss_fn = paddle.nn.CrossEntropyLoss()
step = 0
for epoch in range(3):
    for x, y in train_loader:
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        print("step", step, float(loss))
        step += 1

model.eval()
metric = paddle.metric.Accuracy()
for x, y in paddle.io.DataLoader(test_data, batch_size=16):
    metric.update(metric.compute(model(x), y))
print("accuracy", float(metric.accumulate()))

net = make_net()
trainer = paddle.Model(net)
trainer.prepare(paddle.optimizer.AdamW(learning_rate=0.05, parameters=net.parameters()),
                paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
trainer.fit(train_data, epochs=3, batch_size=16, shuffle=False, verbose=0)
result = trainer.evaluate(test_data, batch_size=16, verbose=0)
print("model", float(result["loss"][0]), float(result["acc"]))
