"""Op-database entries of the attention ops of ``pylayer.ops.attention`` (``nn.functional``).

The reference of ``scaled_dot_product_attention`` is the textbook formula in numpy over
Paddle's ``[batch, seq_len, num_heads, head_dim]`` layout. Paddle's values with both a
mask and ``is_causal``, its mask dtypes and its errors are in ``tests/nn/test_transformer.py``.
"""
import numpy as np

import pylayer

from opinfo import INTS, OpInfo, T, samples
from _hostile_values import A, Call, K, _value
from pylayer.nn import functional as F


def _attention(query, key, value, attn_mask=None, is_causal=False, scale=None,
               dropout_p=0.0, training=True):
    batched = query.ndim == 4
    if not batched:
        query, key, value = query[None], key[None], value[None]
    groups = query.shape[2] // key.shape[2]
    key, value = np.repeat(key, groups, axis=2), np.repeat(value, groups, axis=2)
    q, k, v = (a.transpose(0, 2, 1, 3) for a in (query, key, value))
    scores = q @ k.transpose(0, 1, 3, 2) * (scale or query.shape[-1] ** -0.5)
    if is_causal:
        keep = np.tril(np.ones(scores.shape[-2:], dtype=bool))
        scores = np.where(keep, scores, -np.inf)
    elif attn_mask is not None and attn_mask.dtype == bool:
        scores = np.where(attn_mask, scores, -np.inf)
    elif attn_mask is not None:
        scores = scores + attn_mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).transpose(0, 2, 1, 3).astype(query.dtype)
    return out if batched else out[0]


def _sequence_mask(x, maxlen=None, dtype="int64"):
    maxlen = int(x.max()) if maxlen is None else maxlen
    return (np.arange(maxlen) < x[..., None]).astype(dtype)


_BOOL_MASK = np.array([[True, False, True, True],
                       [True, True, False, False],
                       [False, True, True, True]])
_SUMS = {"float32": (1e-5, 1e-6)}


def _qkv(env):
    return pylayer.ones([1, 2, 1, 4])


ENTRIES = [
    OpInfo("scaled_dot_product_attention", _attention, samples(
        (T((2, 3, 2, 4)), T((2, 4, 2, 4)), T((2, 4, 2, 4))),
        (T((2, 3, 2, 4)), T((2, 4, 2, 4)), T((2, 4, 2, 4)), T((2, 1, 3, 4))),
        (T((2, 3, 2, 4)), T((2, 4, 2, 4)), T((2, 4, 2, 4)), _BOOL_MASK),
        ((T((1, 3, 2, 4)), T((1, 3, 2, 4)), T((1, 3, 2, 4))), {"is_causal": True}),
        ((T((2, 3, 4, 2)), T((2, 5, 2, 2)), T((2, 5, 2, 3))), {"scale": 0.7}),
        (T((3, 2, 4)), T((4, 2, 4)), T((4, 2, 4))),
        ((T((1, 2, 1, 4)), T((1, 2, 1, 4)), T((1, 2, 1, 4))),
         {"dropout_p": 0.5, "training": False})),
           op=F.scaled_dot_product_attention, tolerance=_SUMS,
           call=Call(A("query", _qkv, "math_tensor"), A("key", _qkv, "math_tensor"),
                     A("value", _qkv, "math_tensor"), K("attn_mask", _value(None),
                                                        "tensor_or_none"),
                     K("dropout_p", _value(0.0), "probability"),
                     K("backend", _value(None), "str_or_none"),
                     K("scale", _value(None), "number_or_none"),
                     extra=[("a key of another head_dim",
                             {"key": lambda env: pylayer.ones([1, 2, 1, 3])}, ("query", "key")),
                            ("a mask that does not broadcast",
                             {"attn_mask": lambda env: pylayer.ones([3, 5])}, "attn_mask"),
                            ("an integer mask",
                             {"attn_mask": lambda env: pylayer.ones([2, 2], "int64")},
                             "attn_mask")])),
    OpInfo("sequence_mask", _sequence_mask, samples(
        (np.array([[1, 3], [0, 2]]),), ((np.array([2, 0, 5]),), {"maxlen": 4}),
        ((np.array([1, 2]),), {"maxlen": 3, "dtype": "bool"}),
        ((np.array([3]),), {"dtype": "float32"})),
           dtypes=INTS, differentiable=False, op=F.sequence_mask,
           call=Call(A("x", lambda env: pylayer.to_tensor([1, 3]), "real_tensor"),
                     K("maxlen", _value(4), "number_or_none"),
                     K("dtype", _value("int64"), "dtype_required"))),
]
