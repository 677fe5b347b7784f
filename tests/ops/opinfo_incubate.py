"""Op-database entries of ``pylayer.incubate``'s segment reductions
(``pylayer/incubate/segment.py``).

The references loop over the segments. The samples keep the float values of a segment
apart (drawn at random), so ``segment_max``/``segment_min`` are smooth for central
differences; the whole-gradient-to-every-tie rule and Paddle's observed values are in
``tests/api/test_small_namespaces.py``.
"""
import numpy as np

import pylayer

from opinfo import INTS, OpInfo, T, samples
from _hostile_values import A, K, Call

_IDS = np.array([0, 0, 2, 2, 3])          # segment 1 has no rows: zeros
_IDS32 = np.array([1, 1, 1], dtype=np.int32)


def _segments(reduce):
    def reference(data, segment_ids):
        ids = np.asarray(segment_ids).reshape(-1)
        rows = int(ids[-1]) + 1 if ids.size else 0
        out = np.zeros((rows,) + data.shape[1:], dtype=data.dtype)
        for segment in range(rows):
            members = data[ids == segment]
            if len(members):
                out[segment] = reduce(members)
        return out
    return reference


def _mean(members):
    if np.issubdtype(members.dtype, np.integer):
        total = members.sum(axis=0)
        return np.trunc(total / len(members)).astype(members.dtype)
    return members.mean(axis=0)


def _call(name):
    return Call(A("data", lambda env: pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                  "real_math_tensor"),
                A("segment_ids", lambda env: pylayer.to_tensor([0, 0, 1]), "int_tensor"),
                extra=[("unsorted ids", {"segment_ids": lambda env: pylayer.to_tensor([1, 0, 0])},
                        "segment_ids"),
                       ("a negative id", {"segment_ids": lambda env: pylayer.to_tensor([-1, 0, 0])},
                        "segment_ids"),
                       ("an id too few", {"segment_ids": lambda env: pylayer.to_tensor([0, 0])},
                        "segment_ids"),
                       ("2-D ids", {"segment_ids": lambda env: pylayer.to_tensor([[0, 0], [1, 1]])},
                        "segment_ids"),
                       ("0-D data", {"data": lambda env: pylayer.to_tensor(1.0)}, "data")])


_SAMPLES = samples((T((5, 3)), _IDS), (T((5,)), _IDS), (T((3, 2, 2)), _IDS32),
                   (T((0, 2)), np.zeros([0], dtype=np.int64)))
_DTYPES = ("float16", "float32", "float64") + INTS

ENTRIES = [
    OpInfo(f"incubate.{name}", _segments(reduce), _SAMPLES, dtypes=_DTYPES, call=_call(name))
    for name, reduce in (("segment_sum", lambda m: m.sum(axis=0)), ("segment_mean", _mean),
                         ("segment_max", lambda m: m.max(axis=0)),
                         ("segment_min", lambda m: m.min(axis=0)))
]


def _send_recv(x, src_index, dst_index, pool_type="sum", out_size=None):
    rows = out_size if out_size else x.shape[0]
    out = np.zeros((rows,) + x.shape[1:], dtype=x.dtype)
    for node in range(rows):
        received = x[src_index[dst_index == node]]
        if len(received):
            out[node] = {"sum": lambda m: m.sum(axis=0),
                         "mean": lambda m: (np.trunc(m.sum(axis=0) / len(m)) if
                                            np.issubdtype(m.dtype, np.integer) else m.mean(axis=0)),
                         "max": lambda m: m.max(axis=0),
                         "min": lambda m: m.min(axis=0)}[pool_type](received)
    return out


_SRC, _DST = np.array([0, 1, 2, 0, 3]), np.array([1, 2, 1, 0, 1])


def _send_recv_call():
    return Call(A("x", lambda env: pylayer.to_tensor([[0.0, 2.0], [1.0, 4.0], [2.0, 6.0]]),
                  "real_math_tensor"),
                A("src_index", lambda env: pylayer.to_tensor([0, 1, 2]), "int_tensor"),
                A("dst_index", lambda env: pylayer.to_tensor([1, 2, 1]), "int_tensor"),
                A("pool_type", lambda env: "sum", "reduction"),
                K("out_size", lambda env: None, "number_or_none"),
                extra=[("indices of different lengths", {"dst_index": lambda env:
                                                         pylayer.to_tensor([0, 1])},
                        ("src_index", "dst_index")),
                       ("2-D indices", {"src_index": lambda env: pylayer.to_tensor([[0, 1]] * 3)},
                        "src_index")])


ENTRIES += [
    OpInfo("incubate.graph_send_recv", _send_recv,
           samples((T((4, 3)), _SRC, _DST), ((T((4, 3)), _SRC, _DST), {"pool_type": "mean"}),
                   ((T((4,)), _SRC, _DST), {"pool_type": "sum", "out_size": 6}),
                   ((T((4, 2)), _SRC.astype(np.int32), _DST.astype(np.int32)),
                    {"pool_type": "mean", "out_size": 0})),
           dtypes=("float32", "float64") + INTS, call=_send_recv_call()),
    OpInfo("incubate.graph_send_recv", _send_recv,
           samples(((T((4, 3)), _SRC, _DST), {"pool_type": "max"}),
                   ((T((4, 3)), _SRC, _DST), {"pool_type": "min", "out_size": 5})),
           dtypes=("float32", "float64") + INTS, variant="extremes"),
]
