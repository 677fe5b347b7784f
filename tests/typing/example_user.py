"""A typical user script, untyped as most are: pyright (basedpyright, standard mode)
must find nothing wrong in it (tests/typing/test_pyright.py), and it runs."""
import pylayer as paddle
from pylayer import nn
from pylayer.autograd import PyLayer


class Square(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 2.0 * x * dy


class Net(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x: paddle.Tensor) -> paddle.Tensor:
        h = paddle.tanh(self.fc1(x))
        return self.fc2(Square.apply(h))


paddle.seed(0)
net = Net()
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=net.parameters())
x = paddle.randn([16, 4])
y = paddle.to_tensor([[1.0]] * 16)
for step in range(3):
    loss = paddle.mean((net(x) - y) ** 2)
    loss.backward()
    opt.step()
    opt.clear_grad()
    print(step, float(loss), loss.item())
z = paddle.zeros([2, 3]).exp().sum(axis=1).abs_()
w = paddle.add(z, paddle.ones([2])).numpy()
print(paddle.matmul(x, x.T).shape, w, paddle.concat([z, z]).reshape([2, 2]))
