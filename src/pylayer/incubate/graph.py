"""Paddle's graph ops of ``paddle.incubate``: message passing (:func:`graph_send_recv`),
neighbour sampling on a CSC graph (:func:`graph_sample_neighbors`,
:func:`graph_khop_sampler`) and renumbering the sampled nodes (:func:`graph_reindex`).

In :func:`graph_send_recv` each edge ``i`` sends the row ``x[src_index[i]]`` to the node
``dst_index[i]``, and each node pools what it receives (sum, mean, max or min); a node
that receives nothing is zeros. Gradients go back along the edges: to the sender of each
message, divided by the receiver's count for ``mean``, and for ``max``/``min`` only from
the messages equal to the pooled value (every tied message gets the whole gradient, as
in Paddle).
"""
import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import as_tensor_arg, check_choice, describe
from pylayer.ops.arithmetic import divide, multiply
from pylayer.ops.creation import zeros_like
from pylayer.ops.dispatch import op
from pylayer.ops.manipulation import index_select
from pylayer.ops.scatter import index_add

__all__ = ["graph_send_recv"]

_POOLS = ("sum", "mean", "max", "min")
_X_DTYPES = ("float32", "float64", "int32", "int64")


def _messages_back(g_messages, x, src):
    """The gradient of ``x`` from the gradients of the messages: summed per sender."""
    return index_add(zeros_like(x), make_tensor(src), 0, g_messages)


def _send_recv_vjp(g, x, out, src, dst, pool, counts):
    g_messages = index_select(g, make_tensor(dst), axis=0)
    dtype = g.numpy().dtype
    if pool == "mean":
        per_message = counts[dst].reshape((-1,) + (1,) * (g_messages.ndim - 1))
        g_messages = divide(g_messages, make_tensor(per_message.astype(dtype)))
    elif pool in ("max", "min"):
        hit = x.numpy()[src] == out.numpy()[dst]
        g_messages = multiply(g_messages, make_tensor(hit.astype(dtype)))
    return _messages_back(g_messages, x, src)


SEND_RECV = Op("graph_send_recv", inputs=("x", "src_index", "dst_index"), keeps=("x", "out"),
               attrs=("src", "dst", "pool", "counts"), vjp=(_send_recv_vjp, None, None))


def _index(value, fn, arg, position):
    tensor = as_tensor_arg(value, fn, arg, position)
    a = tensor.numpy()
    if a.dtype not in (np.int32, np.int64):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a Tensor of "
                        f"dtype int32 or int64, got dtype {tensor.dtype}")
    if a.ndim not in (1, 2) or (a.ndim == 2 and a.shape[1] != 1):
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must be 1-D (or of "
                         f"shape [n, 1]), got shape {list(a.shape)}")
    return tensor, a.reshape(-1).astype(np.int64)


def _out_rows(out_size, default, fn):
    """Paddle's ``out_size``: None or a size <= 0 keeps ``x``'s number of rows."""
    if out_size is None:
        return default
    if hasattr(out_size, "numpy"):
        values = np.asarray(out_size.numpy())
        if values.size != 1 or values.dtype.kind not in "iu":
            raise TypeError(f"{fn}(): argument 'out_size' must be an int, a Tensor holding one "
                            f"int, or None, got a Tensor of shape {list(values.shape)} and "
                            f"dtype {values.dtype}")
        out_size = int(values.reshape(-1)[0])
    elif isinstance(out_size, bool) or not isinstance(out_size, (int, np.integer)):
        raise TypeError(f"{fn}(): argument 'out_size' must be an int, a Tensor holding one "
                        f"int, or None, got {describe(out_size)}")
    return int(out_size) if out_size > 0 else default


def _pool(a, src, dst, pool, rows):
    """Each node's pool of the rows ``a[src]`` sent to it, zeros where none arrives, and
    the number of messages each node received."""
    messages = a[src]
    counts = np.bincount(dst, minlength=rows)
    if pool in ("sum", "mean"):
        out = np.zeros((rows,) + a.shape[1:], dtype=a.dtype)
        np.add.at(out, dst, messages)
        if pool == "mean":
            divisor = np.maximum(counts, 1).reshape((rows,) + (1,) * (a.ndim - 1))
            if np.issubdtype(a.dtype, np.integer):
                out = np.sign(out) * (np.abs(out) // divisor)
            else:
                out = out / divisor
    else:
        ufunc = np.maximum if pool == "max" else np.minimum
        if np.issubdtype(a.dtype, np.integer):
            info = np.iinfo(a.dtype)
            start = info.min if pool == "max" else info.max
        else:
            start = -np.inf if pool == "max" else np.inf
        out = np.full((rows,) + a.shape[1:], start, dtype=a.dtype)
        ufunc.at(out, dst, messages)
        out[counts == 0] = 0
    return out.astype(a.dtype, copy=False), counts


@op
def graph_send_recv(x, src_index, dst_index, pool_type="sum", out_size=None, name=None):
    """Send the rows ``x[src_index[i]]`` along the edges to the nodes ``dst_index[i]`` and
    pool them at each node with ``pool_type`` (``'sum'``, ``'mean'``, ``'max'`` or
    ``'min'``); a node that receives nothing is zeros. The result has ``out_size`` rows,
    or as many as ``x`` when ``out_size`` is None or not positive.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[0.0, 2.0], [1.0, 4.0], [2.0, 6.0]])
    >>> src, dst = pylayer.to_tensor([0, 1, 2, 0]), pylayer.to_tensor([1, 2, 1, 0])
    >>> pylayer.incubate.graph_send_recv(x, src, dst, pool_type="sum").numpy()
    array([[0., 2.],
           [2., 8.],
           [1., 4.]], dtype=float32)
    """
    fn = "graph_send_recv"
    x = as_tensor_arg(x, fn, "x", 1)
    if str(x.dtype).split(".")[-1] not in _X_DTYPES:
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be a Tensor of dtype "
                        f"float32, float64, int32 or int64, got dtype {x.dtype}")
    a = x.numpy()
    if a.ndim == 0:
        raise ValueError(f"{fn}(): argument 'x' (position 1) must have at least one "
                         f"dimension (its rows are sent), got a 0-D Tensor")
    src_index, src = _index(src_index, fn, "src_index", 2)
    dst_index, dst = _index(dst_index, fn, "dst_index", 3)
    if src.size != dst.size:
        raise ValueError(f"{fn}(): arguments 'src_index' and 'dst_index' must have the same "
                         f"length (one entry per edge), got {src.size} and {dst.size}")
    pool = check_choice(pool_type, fn, "pool_type", _POOLS)
    rows = _out_rows(out_size, a.shape[0], fn)
    if src.size and (src.min() < 0 or src.max() >= a.shape[0]):
        raise IndexError(f"{fn}(): argument 'src_index' must hold rows of x, in [0, "
                         f"{a.shape[0]}), got {int(src.min() if src.min() < 0 else src.max())}")
    if dst.size and (dst.min() < 0 or dst.max() >= rows):
        raise IndexError(f"{fn}(): argument 'dst_index' must hold rows of the result, in [0, "
                         f"{rows}), got {int(dst.min() if dst.min() < 0 else dst.max())}")
    out, counts = _pool(a, src, dst, pool, rows)
    return make_output(SEND_RECV, out, (x, src_index, dst_index), (src, dst, pool, counts))
