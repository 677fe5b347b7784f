"""Paddle's graph ops of ``paddle.incubate``: message passing (:func:`graph_send_recv`),
neighbour sampling on a CSC graph (:func:`graph_sample_neighbors`,
:func:`graph_khop_sampler`) and renumbering the sampled nodes (:func:`graph_reindex`).

In :func:`graph_send_recv` each edge ``i`` sends the row ``x[src_index[i]]`` to the node
``dst_index[i]``, and each node pools what it receives (sum, mean, max or min); a node
that receives nothing is zeros. Gradients go back along the edges: to the sender of each
message, divided by the receiver's count for ``mean``, and for ``max``/``min`` only from
the messages equal to the pooled value (every tied message gets the whole gradient, as
in Paddle).

The graph of the samplers is in CSC form: the neighbours of node ``n`` are
``row[colptr[n]:colptr[n + 1]]`` (their edge ids ``eids`` at the same positions).
A node with at most ``sample_size`` neighbours (or ``sample_size=-1``) keeps them all,
in that order; otherwise ``sample_size`` of them are drawn without replacement from
pylayer's random stream (:func:`pylayer.seed`) and kept in CSC order, so the draw is
reproducible but is not Paddle's. In Paddle 3.3.1's CPU build the default
``sample_size=-1`` and ``graph_khop_sampler`` abort the process, and out-of-range
nodes or counts read past the arrays; pylayer computes the former and refuses the
latter.
"""
import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import make_tensor
from pylayer.ops._arguments import as_tensor_arg, check_choice, describe
from pylayer.ops.arithmetic import divide, multiply
from pylayer.ops.creation import get_rng, zeros_like
from pylayer.ops.dispatch import op
from pylayer.ops.manipulation import index_select
from pylayer.ops.scatter import index_add

__all__ = ["graph_send_recv", "graph_sample_neighbors", "graph_reindex", "graph_khop_sampler"]

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


def _int_tensor(value, fn, arg, position, allow_none=False):
    """A 1-D int32 or int64 Tensor argument and its array (None stays None)."""
    if value is None and allow_none:
        return None, None
    tensor = as_tensor_arg(value, fn, arg, position)
    a = tensor.numpy()
    if a.dtype not in (np.int32, np.int64):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a Tensor of "
                        f"dtype int32 or int64, got dtype {tensor.dtype}")
    if a.ndim != 1:
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must be 1-D, got "
                         f"shape {list(a.shape)}")
    return tensor, a


def _csc(row, colptr, fn):
    row_t, rows = _int_tensor(row, fn, "row", 1)
    _, ptr = _int_tensor(colptr, fn, "colptr", 2)
    if ptr.size == 0 or ptr[0] != 0 or np.any(np.diff(ptr) < 0) or ptr[-1] != rows.size:
        raise ValueError(f"{fn}(): argument 'colptr' must rise from 0 to the length of row "
                         f"({rows.size}), one entry per node and one more")
    return row_t, rows, ptr.astype(np.int64)


def _check_nodes(nodes, ptr, fn, arg):
    count = ptr.size - 1
    if nodes.size and (nodes.min() < 0 or nodes.max() >= count):
        bad = int(nodes.min() if nodes.min() < 0 else nodes.max())
        raise ValueError(f"{fn}(): argument '{arg}' must hold nodes of the graph, in [0, "
                         f"{count}), got {bad}")


def _check_sample_size(sample_size, fn, arg="sample_size"):
    if isinstance(sample_size, bool) or not isinstance(sample_size, (int, np.integer)):
        raise TypeError(f"{fn}(): argument '{arg}' must be an int (-1: all neighbours), "
                        f"got {describe(sample_size)}")
    if sample_size < -1:
        raise ValueError(f"{fn}(): argument '{arg}' must be -1 (all neighbours) or >= 0, got "
                         f"{sample_size}")
    return int(sample_size)


def _sample(ptr, nodes, sample_size):
    """The positions in ``row`` of the neighbours kept for each node, and their counts."""
    picked, counts = [], np.zeros(nodes.size, dtype=np.int64)
    rng = get_rng()
    for i, node in enumerate(nodes.tolist()):
        start, stop = ptr[node], ptr[node + 1]
        degree = stop - start
        if sample_size == -1 or degree <= sample_size:
            chosen = np.arange(start, stop)
        else:
            chosen = start + np.sort(rng.choice(degree, size=sample_size, replace=False))
        picked.append(chosen)
        counts[i] = chosen.size
    positions = np.concatenate(picked) if picked else np.zeros(0, dtype=np.int64)
    return positions.astype(np.int64), counts


def graph_sample_neighbors(row, colptr, input_nodes, eids=None, perm_buffer=None, sample_size=-1,
                           return_eids=False, flag_perm_buffer=False, name=None):
    """Sample up to ``sample_size`` neighbours (-1: all) of each node of ``input_nodes`` in
    the CSC graph ``(row, colptr)``. Returns the neighbours (concatenated), their count per
    node and, with ``return_eids``, their edge ids from ``eids``. ``perm_buffer`` is
    Paddle's GPU buffer of the draw: it must be given with ``flag_perm_buffer``, and
    is not needed here.

    >>> import pylayer
    >>> row = pylayer.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
    >>> colptr = pylayer.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
    >>> neighbors, count = pylayer.incubate.graph_sample_neighbors(
    ...     row, colptr, pylayer.to_tensor([0, 8, 1, 2]))
    >>> neighbors.numpy(), count.numpy()
    (array([3, 7, 9, 7, 0, 9, 1]), array([2, 2, 2, 1]))
    """
    fn = "graph_sample_neighbors"
    if return_eids and eids is None:
        raise ValueError(f"{fn}(): argument 'eids' must be given when return_eids is True")
    if flag_perm_buffer and perm_buffer is None:
        raise ValueError(f"{fn}(): argument 'perm_buffer' must be given when "
                         f"flag_perm_buffer is True")
    _, rows, ptr = _csc(row, colptr, fn)
    _, nodes = _int_tensor(input_nodes, fn, "input_nodes", 3)
    _, edge_ids = _int_tensor(eids, fn, "eids", 4, allow_none=True)
    _int_tensor(perm_buffer, fn, "perm_buffer", 5, allow_none=True)
    if edge_ids is not None and edge_ids.size != rows.size:
        raise ValueError(f"{fn}(): argument 'eids' must hold one id per edge ({rows.size}), "
                         f"got {edge_ids.size}")
    size = _check_sample_size(sample_size, fn)
    _check_nodes(nodes, ptr, fn, "input_nodes")
    positions, counts = _sample(ptr, nodes, size)
    out = (make_tensor(rows[positions]), make_tensor(counts.astype(rows.dtype)))
    if return_eids:
        return out + (make_tensor(edge_ids[positions]),)
    return out


def _reindex(x, neighbors, count):
    """Paddle's renumbering: the nodes ``x`` (a repeated node takes its last index),
    then each new neighbour in order of appearance."""
    index = {node: i for i, node in enumerate(x.tolist())}
    nodes = list(x.tolist())
    for node in neighbors.tolist():
        if node not in index:
            index[node] = len(nodes)
            nodes.append(node)
    src = np.array([index[node] for node in neighbors.tolist()], dtype=x.dtype)
    dst = np.repeat(np.array([index[node] for node in x.tolist()], dtype=x.dtype), count)
    return src, dst, np.array(nodes, dtype=x.dtype)


def graph_reindex(x, neighbors, count, value_buffer=None, index_buffer=None,
                  flag_buffer_hashtable=False, name=None):
    """Renumber a sampled subgraph from 0: the nodes ``x`` take 0, 1, ... (a node given
    twice takes its last place, as in Paddle), then each neighbour not seen before takes
    the next number. ``neighbors`` holds ``count[i]`` neighbours of ``x[i]`` after each
    other. Returns the new numbers of the neighbours (the edges' sources), of their
    centre nodes (the destinations), and the nodes in their new order.
    ``value_buffer`` and ``index_buffer`` are Paddle's GPU hash table: they must be given
    with ``flag_buffer_hashtable`` and are not needed here.

    >>> import pylayer
    >>> src, dst, nodes = pylayer.incubate.graph_reindex(
    ...     pylayer.to_tensor([0, 1, 2]), pylayer.to_tensor([8, 9, 0, 4, 7, 6, 7]),
    ...     pylayer.to_tensor([2, 3, 2], dtype='int32'))
    >>> src.numpy(), dst.numpy(), nodes.numpy()
    (array([3, 4, 0, 5, 6, 7, 6]), array([0, 0, 1, 1, 1, 2, 2]), array([0, 1, 2, 8, 9, 4, 7, 6]))
    """
    fn = "graph_reindex"
    if flag_buffer_hashtable and (value_buffer is None or index_buffer is None):
        raise ValueError(f"{fn}(): arguments 'value_buffer' and 'index_buffer' must be given "
                         f"when flag_buffer_hashtable is True")
    x_t, nodes = _int_tensor(x, fn, "x", 1)
    _, near = _int_tensor(neighbors, fn, "neighbors", 2)
    _, counts = _int_tensor(count, fn, "count", 3)
    _int_tensor(value_buffer, fn, "value_buffer", 4, allow_none=True)
    _int_tensor(index_buffer, fn, "index_buffer", 5, allow_none=True)
    if near.dtype != nodes.dtype:
        raise TypeError(f"{fn}(): arguments 'x' and 'neighbors' must have the same dtype, got "
                        f"{x_t.dtype} and {near.dtype}")
    if counts.size != nodes.size or np.any(counts < 0) or counts.sum() != near.size:
        raise ValueError(f"{fn}(): argument 'count' must hold, for each of the {nodes.size} "
                         f"nodes of x, its number of neighbours, adding up to the length of "
                         f"neighbors ({near.size}); got {counts.tolist()}")
    return tuple(make_tensor(a) for a in _reindex(nodes, near, counts))


def graph_khop_sampler(row, colptr, input_nodes, sample_sizes, sorted_eids=None,
                       return_eids=False, name=None):
    """Sample a ``len(sample_sizes)``-hop neighbourhood of ``input_nodes`` in the CSC
    graph ``(row, colptr)``: hop ``k`` samples up to ``sample_sizes[k]`` neighbours (-1:
    all) of each node of the frontier (the input nodes, then the distinct neighbours
    sampled in the hop before, in order of appearance). The nodes are renumbered as
    :func:`graph_reindex` does, from the input nodes on. Returns the edges' sources (the
    neighbours) and destinations as ``[num_edges, 1]`` tensors of new numbers, the
    original ids of the renumbered nodes, the new numbers of the input nodes and, with
    ``return_eids``, the edges' ids from ``sorted_eids``.

    >>> import pylayer
    >>> row = pylayer.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
    >>> colptr = pylayer.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
    >>> src, dst, nodes, inputs = pylayer.incubate.graph_khop_sampler(
    ...     row, colptr, pylayer.to_tensor([0, 2]), [-1])
    >>> src.numpy().ravel(), dst.numpy().ravel(), nodes.numpy(), inputs.numpy()
    (array([2, 3, 4]), array([0, 0, 1]), array([0, 2, 3, 7, 1]), array([0, 1]))
    """
    fn = "graph_khop_sampler"
    if return_eids and sorted_eids is None:
        raise ValueError(f"{fn}(): argument 'sorted_eids' must be given when return_eids is "
                         f"True")
    _, rows, ptr = _csc(row, colptr, fn)
    _, nodes = _int_tensor(input_nodes, fn, "input_nodes", 3)
    _, edge_ids = _int_tensor(sorted_eids, fn, "sorted_eids", 5, allow_none=True)
    if edge_ids is not None and edge_ids.size != rows.size:
        raise ValueError(f"{fn}(): argument 'sorted_eids' must hold one id per edge "
                         f"({rows.size}), got {edge_ids.size}")
    if not isinstance(sample_sizes, (list, tuple)) or not sample_sizes:
        raise TypeError(f"{fn}(): argument 'sample_sizes' must be a non-empty list of ints, "
                        f"got {describe(sample_sizes)}")
    sizes = [_check_sample_size(size, fn, "sample_sizes") for size in sample_sizes]
    _check_nodes(nodes, ptr, fn, "input_nodes")
    frontier, sources, centres, positions = nodes.astype(np.int64), [], [], []
    for size in sizes:
        picked, counts = _sample(ptr, frontier, size)
        sampled = rows[picked].astype(np.int64)
        sources.append(sampled)
        centres.append(np.repeat(frontier, counts))
        positions.append(picked)
        _, first = np.unique(sampled, return_index=True)
        frontier = sampled[np.sort(first)]
    source, centre = np.concatenate(sources), np.concatenate(centres)
    known = {node: i for i, node in enumerate(dict.fromkeys(nodes.tolist()))}
    for node in source.tolist():
        known.setdefault(node, len(known))
    renumber = np.vectorize(known.__getitem__, otypes=[rows.dtype])
    new_src = renumber(source) if source.size else source.astype(rows.dtype)
    new_dst = renumber(centre) if centre.size else centre.astype(rows.dtype)
    out = (make_tensor(new_src.reshape(-1, 1)), make_tensor(new_dst.reshape(-1, 1)),
           make_tensor(np.array(list(known), dtype=rows.dtype)),
           make_tensor(renumber(nodes) if nodes.size else nodes.astype(rows.dtype)))
    if return_eids:
        return out + (make_tensor(edge_ids[np.concatenate(positions)].reshape(-1, 1)),)
    return out
