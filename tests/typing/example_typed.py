"""A typed program written against pylayer's public API, checked by mypy in
strict mode (``python -m mypy``; the settings are in pyproject.toml) and run
by the tests: the annotations it relies on must be the package's real ones."""
import os
import tempfile
from typing import Any, Optional

import numpy as np

import pylayer as paddle
from pylayer import Tensor
from pylayer.autograd import PyLayer, PyLayerContext, saved_tensors_hooks


class Cube(PyLayer):
    """x ** 3 with a hand-written backward."""

    @staticmethod
    def forward(ctx: PyLayerContext, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx: PyLayerContext, dy: Tensor) -> Tensor:
        x: Tensor = ctx.saved_tensor()[0]
        return dy * 3 * x * x


def pack(tensor: Tensor) -> np.ndarray:
    return tensor.numpy().copy()


def unpack(array: Any) -> Tensor:
    return paddle.to_tensor(array)


def creation() -> list[Tensor]:
    made: list[Tensor] = [
        paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64", stop_gradient=False),
        paddle.to_tensor(np.arange(3)), paddle.to_tensor(2.5),
        paddle.zeros([2, 3]), paddle.ones((2,), dtype=paddle.float64), paddle.full([2], 7),
        paddle.empty([1]), paddle.arange(5), paddle.arange(0.0, 1.0, 0.25, dtype="float32"),
        paddle.linspace(0, 1, 5), paddle.eye(3), paddle.rand([2]), paddle.randn([2]),
        paddle.randint(0, 10, [3]), paddle.uniform([2], min=0.0, max=2.0),
        paddle.normal(0.0, 1.0, [2]),
    ]
    made.append(paddle.zeros_like(made[0]))
    made.append(paddle.full_like(made[0], 0.5))
    made.append(paddle.bernoulli(paddle.full([4], 0.5)))
    generator: np.random.Generator = paddle.seed(0)
    assert generator is paddle.get_rng()
    return made


def gradients() -> Optional[Tensor]:
    x = paddle.to_tensor([0.5, 1.5], dtype="float64", stop_gradient=False)
    with saved_tensors_hooks(pack, unpack) as hooks:
        y = Cube.apply(x)
    assert isinstance(hooks, saved_tensors_hooks)
    dx: list[Tensor] = paddle.grad(y, x, retain_graph=True)
    maybe: list[Optional[Tensor]] = paddle.grad(y, [x], allow_unused=True)
    assert np.allclose(dx[0].numpy(), 3 * x.numpy() ** 2)
    assert paddle.autograd.gradcheck(Cube.apply, x)
    return maybe[0]


def static_program() -> np.ndarray:
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [2], "float32")
            y = main.current_block().create_var(name="y", dtype="float32", shape=[2])
            same = paddle.static.py_func(func=np.square, x=x, out=y)
            assert same is y
        got, = paddle.static.Executor().run(main, feed={"x": np.array([1, 3], "float32")},
                                            fetch_list=[y])
        return np.asarray(got)
    finally:
        paddle.disable_static()


def save_and_load() -> Tensor:
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "tensor.pdtensor")
        paddle.save(paddle.ones([2]), path)
        loaded = paddle.load(path)
    assert isinstance(loaded, Tensor)
    return loaded


def main() -> None:
    assert len(creation()) == 19
    assert gradients() is not None
    assert static_program().tolist() == [1.0, 9.0]
    assert save_and_load().shape == [2]


if __name__ == "__main__":
    main()
    print("the typed example ran")
