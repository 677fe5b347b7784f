"""The compiled ``matmul`` and its gradient rule (``ops/linalg.py`` makes it public)."""
import numpy as np

from pylayer._graph cimport GradNode, make_output
from pylayer._tensor cimport Tensor
from pylayer.ops._operands cimport tensor_arg
from pylayer.ops._reduction cimport unbroadcast
from pylayer.ops._shape cimport reshape_exact

__all__ = ["matmul"]


def _matmul_bw(GradNode node not None, g):
    x, y = node.saved_tensors()
    tx, ty = node.attrs
    xs = (<Tensor>x)._array.shape
    ys = (<Tensor>y)._array.shape
    gs = (<Tensor>g)._array.shape
    # Work with matrices: a vector x is a row [1, k], a vector y a column [k, 1].
    a = reshape_exact(x, (1,) + xs) if len(xs) == 1 else x
    b = reshape_exact(y, ys + (1,)) if len(ys) == 1 else y
    if len(xs) == 1 and len(ys) == 1:
        g = reshape_exact(g, (1, 1))
    elif len(xs) == 1:
        g = reshape_exact(g, gs[:-1] + (1,) + gs[-1:])
    elif len(ys) == 1:
        g = reshape_exact(g, gs + (1,))
    gx = gy = None
    if node.needs_input_grad[0]:
        if tx:
            gx = matmul(b, g, transpose_x=ty, transpose_y=True)
        else:
            gx = matmul(g, b, transpose_y=not ty)
        gx = reshape_exact(unbroadcast(gx, (<Tensor>a)._array.shape), xs)
    if node.needs_input_grad[1]:
        if ty:
            gy = matmul(g, a, transpose_x=True, transpose_y=tx)
        else:
            gy = matmul(a, g, transpose_x=not tx)
        gy = reshape_exact(unbroadcast(gy, (<Tensor>b)._array.shape), ys)
    return (gx, gy)


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    """Matrix product with numpy's broadcasting of batch dimensions.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, 2.0]])
    >>> pylayer.matmul(a, a, transpose_y=True).numpy()
    array([[5.]], dtype=float32)
    """
    x = tensor_arg(x, "matmul", "x", 1)
    y = tensor_arg(y, "matmul", "y", 2)
    a = (<Tensor>x)._array
    b = (<Tensor>y)._array
    if transpose_x and a.ndim > 1:
        a = np.swapaxes(a, -1, -2)
    if transpose_y and b.ndim > 1:
        b = np.swapaxes(b, -1, -2)
    try:
        out = np.matmul(a, b)
    except ValueError:
        raise ValueError(f"matmul(): x of shape {list((<Tensor>x)._array.shape)} and y of shape "
                         f"{list((<Tensor>y)._array.shape)} do not fit a matrix product: the "
                         f"last dimension of x must equal the first matrix dimension of y "
                         f"(transpose_x={transpose_x}, transpose_y={transpose_y})") from None
    return make_output(out, (x, y), "matmul", _matmul_bw, (x, y), False, (bool(transpose_x and a.ndim > 1), bool(transpose_y and b.ndim > 1)))
