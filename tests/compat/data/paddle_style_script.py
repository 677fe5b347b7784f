"""A script written for Paddle, run unchanged by tests/compat/test_run_command.py.

It runs on Paddle 3.3.1 too and prints the same lines there.
"""
import os
import sys
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import paddle.static as static
from paddle.autograd import PyLayer
from paddle.framework import load, save
from paddle.optimizer import SGD


class CusTanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


def train():
    constant = nn.initializer.Constant(0.5)
    model = nn.Linear(2, 1, weight_attr=paddle.ParamAttr(initializer=constant),
                      bias_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.0)))
    optimizer = SGD(learning_rate=0.1, parameters=model.parameters())
    x = paddle.to_tensor([[1.0, 2.0], [3.0, -1.0]])
    target = paddle.to_tensor([[1.0], [0.0]])
    for _ in range(3):
        loss = F.mse_loss(CusTanh.apply(model(x)), target)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    print(f"loss {loss.item():.4f}")
    path = os.path.join(tempfile.mkdtemp(), "model.pdparams")
    save(model.state_dict(), path)
    restored = nn.Linear(2, 1)
    restored.set_state_dict(load(path))
    print("restored", bool(paddle.allclose(restored(x), model(x))))


def static_program():
    paddle.enable_static()
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [-1, 2], "float32")
        y = paddle.sum(paddle.tanh(x) * 2.0)
    exe = static.Executor(paddle.CPUPlace())
    exe.run(startup)
    out, = exe.run(main, feed={"x": np.ones([1, 2], "float32")}, fetch_list=[y])
    paddle.disable_static()
    print(f"static {float(out):.4f}")


if __name__ == "__main__":
    paddle.seed(0)
    train()
    static_program()
    x = paddle.to_tensor([0.5], stop_gradient=False)
    (dx,) = paddle.autograd.grad(CusTanh.apply(x), x)
    print(f"grad {dx.item():.4f}")
    print("arguments", sys.argv[1:])
