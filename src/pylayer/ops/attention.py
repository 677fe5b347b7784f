"""Attention: ``scaled_dot_product_attention`` and ``sequence_mask``.

Attention is three recorded steps: one matmul for the scores, one fused masked softmax
(scaling, the additive or boolean mask and the softmax in one record, one new array
worked on in place) and one matmul for the values. The softmax keeps only its output;
its rule is softmax's (recorded ops when differentiated again), so attention
differentiates twice.
"""
import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer._kernels.dtypes import convert_dtype, is_bool, is_floating
from pylayer.ops._arguments import (as_tensor_arg, check_count, check_dtype, check_int,
                                    check_number, check_str, describe, float_tensor)
from pylayer.ops._operands import unbroadcast
from pylayer.ops.activation import SOFTMAX, softmax
from pylayer.ops.arithmetic import scale as scale_op
from pylayer.ops.assembly import repeat_interleave
from pylayer.ops.dispatch import op
from pylayer.ops.dropout import dropout
from pylayer.ops.linalg import matmul
from pylayer.ops.shape import cast, squeeze, transpose, unsqueeze

__all__ = ["scaled_dot_product_attention", "sequence_mask"]


# ------------------------------------------------------------ the fused masked softmax
_SOFTMAX_RULE = SOFTMAX.vjp[0]


def _scaled(t, factor):
    return t if factor == 1.0 else scale_op(t, factor)


def _softmax_grad(g, out, factor):
    """``factor * out * (g - sum(g * out))`` along the last axis: softmax's own rule (its
    compiled row loop, or recorded ops when the gradient is to be differentiated again)."""
    return _scaled(_SOFTMAX_RULE(g, out, -1), factor)


def _masked_softmax_vjp(g, out, factor, mask_shape, needs_input_grad):
    grad = _softmax_grad(g, out, 1.0)
    return (_scaled(grad, factor) if needs_input_grad[0] else None,
            unbroadcast(grad, mask_shape) if needs_input_grad[1] else None)


# softmax(factor * x + mask) along the last axis, with the positions of a boolean mask
# left out (an argument of the forward only: the rules need no more than the output)
SCALED_SOFTMAX = Op("masked_softmax", inputs=("x",), keeps=("out",), attrs=("factor",),
                    vjp=(_softmax_grad,))
MASKED_SOFTMAX = Op("masked_softmax", inputs=("x", "mask"), keeps=("out",),
                    attrs=("factor", "mask_shape"), vjp=_masked_softmax_vjp)


def masked_softmax(scores, factor, mask=None, dropped=None):
    """``softmax(factor * scores + mask)`` over the last axis, with ``-inf`` where the
    boolean array ``dropped`` is True; a row with nothing left is NaN, as in Paddle.
    One new array, worked on in place. The attention layers' step (not a Paddle name,
    so not in ``__all__``).

    >>> import pylayer
    >>> scores = pylayer.to_tensor([[2.0, 2.0, 9.0]])
    >>> masked_softmax(scores, 0.5, pylayer.to_tensor([0.0, 0.0, -1e9])).numpy()
    array([[0.5, 0.5, 0. ]], dtype=float32)
    """
    a = scores._array
    z = np.multiply(a, np.asarray(factor, a.dtype))
    if mask is not None:
        np.add(z, mask._array, out=z, casting="unsafe")
    if dropped is not None:
        np.copyto(z, np.asarray(-np.inf, z.dtype), where=dropped)
    if z.shape[-1]:
        with np.errstate(invalid="ignore"):
            z = softmax(make_tensor(z))._array     # its compiled row loops, unrecorded
    if mask is None:
        return make_output(SCALED_SOFTMAX, z, (scores,), (factor,))
    return make_output(MASKED_SOFTMAX, z, (scores, mask), (factor, mask._array.shape))


# ------------------------------------------------------------ scaled_dot_product_attention
def _attention_inputs(query, key, value, fn):
    names = ("query", "key", "value")
    tensors = [float_tensor(t, fn, n, i + 1, True) for i, (t, n) in
               enumerate(zip((query, key, value), names))]
    ndims = {t._array.ndim for t in tensors}
    if not ndims <= {3, 4} or len(ndims) != 1:
        raise ValueError(f"{fn}(): arguments 'query', 'key' and 'value' must all be 4-D "
                         f"[batch, seq_len, num_heads, head_dim] (or all 3-D without the "
                         f"batch), got shapes {[list(t._array.shape) for t in tensors]}")
    dtypes = {t._array.dtype for t in tensors}
    if len(dtypes) != 1:
        raise TypeError(f"{fn}(): arguments 'query', 'key' and 'value' must have one dtype, "
                        f"got {[str(convert_dtype(t._array.dtype)) for t in tensors]}")
    return tensors


def _check_heads(q, k, v, enable_gqa, fn):
    (bq, _, hq, dq), (bk, sk, hk, dk), (bv, sv, hv, _) = (q.shape, k.shape, v.shape)
    shapes = f"query {list(q.shape)}, key {list(k.shape)}, value {list(v.shape)}"
    if enable_gqa:
        if (hk != 0 and hq % hk) or hk != hv:
            raise ValueError(f"{fn}(): the heads of query must be a multiple of the heads of "
                             f"key, and key and value must have as many heads, got {shapes}")
    elif not hq == hk == hv:
        raise ValueError(f"{fn}(): query, key and value must have as many heads when "
                         f"enable_gqa is False, got {shapes}")
    if not bq == bk == bv or sk != sv or dq != dk:
        raise ValueError(f"{fn}(): query, key and value must have one batch size, key and "
                         f"value one sequence length, query and key one head_dim, got {shapes}")


@op
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, training=True, backend=None, scale=None,
                                 enable_gqa=True, name=None):
    """Attention ``softmax(scale * q @ k^T + mask) @ v`` over inputs laid out as
    ``[batch, seq_len, num_heads, head_dim]`` (3-D inputs are one unbatched item).

    ``attn_mask`` broadcasts to ``[batch, num_heads, seq_len_q, seq_len_k]``: a bool
    mask keeps the True positions, a float mask is added to the scores. ``is_causal``
    lets query ``i`` see keys ``0..i`` and ignores ``attn_mask``, as Paddle does on
    CPU. ``scale`` defaults to ``head_dim ** -0.5``. With ``enable_gqa`` key and value may
    have fewer heads, each shared by a group of query heads. ``dropout_p`` drops
    attention weights while ``training``.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> q = pylayer.ones([1, 2, 1, 4])
    >>> v = pylayer.to_tensor([[[[1.0, 0, 0, 0]], [[3.0, 0, 0, 0]]]])
    >>> F.scaled_dot_product_attention(q, q, v).numpy()[0, :, 0, 0]
    array([2., 2.], dtype=float32)
    >>> F.scaled_dot_product_attention(q, q, v, is_causal=True).numpy()[0, :, 0, 0]
    array([1., 2.], dtype=float32)
    """
    fn = "scaled_dot_product_attention"
    query, key, value = _attention_inputs(query, key, value, fn)
    dropout_p = check_number(dropout_p, fn, "dropout_p", minimum=0.0, maximum=1.0)
    scale = check_number(scale, fn, "scale", allow_none=True)
    check_str(backend, fn, "backend", allow_none=True)
    for arg, flag in (("is_causal", is_causal), ("training", training),
                      ("enable_gqa", enable_gqa)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{fn}(): argument '{arg}' must be a bool, got {describe(flag)}")
    batched = query._array.ndim == 4
    if not batched:
        query, key, value = (unsqueeze(t, 0) for t in (query, key, value))
    _check_heads(query._array, key._array, value._array, enable_gqa, fn)
    head_dim = query._array.shape[3]
    heads_q, heads_k = query._array.shape[2], key._array.shape[2]
    if heads_k and heads_q != heads_k:
        key = repeat_interleave(key, heads_q // heads_k, axis=2)
        value = repeat_interleave(value, heads_q // heads_k, axis=2)
    q, k, v = (transpose(t, [0, 2, 1, 3]) for t in (query, key, value))
    scores = matmul(q, k, transpose_y=True)
    factor = float(scale or (head_dim ** -0.5 if head_dim else 1.0))
    additive = dropped = None
    if is_causal:
        rows, cols = scores._array.shape[-2:]
        dropped = np.triu(np.ones((rows, cols), dtype=bool), 1)
    elif attn_mask is not None:
        attn_mask = as_tensor_arg(attn_mask, fn, "attn_mask", 4)
        mask = attn_mask._array
        try:
            np.broadcast_shapes(mask.shape, scores._array.shape)
        except ValueError:
            raise ValueError(f"{fn}(): argument 'attn_mask' of shape {list(mask.shape)} must "
                             f"broadcast to the scores' shape {list(scores._array.shape)} "
                             f"[batch, num_heads, seq_len_q, seq_len_k]") from None
        if is_bool(mask.dtype):
            dropped = ~mask
        elif is_floating(mask.dtype):
            additive = attn_mask if mask.dtype == scores._array.dtype else \
                cast(attn_mask, scores._array.dtype)
        else:
            raise TypeError(f"{fn}(): argument 'attn_mask' (position 4) must be a bool or "
                            f"floating-point Tensor, got dtype {convert_dtype(mask.dtype)}")
    weights = masked_softmax(scores, factor, additive, dropped)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=training)
    out = transpose(matmul(weights, v), [0, 2, 1, 3])
    return out if batched else squeeze(out, 0)


# ------------------------------------------------------------ sequence_mask
@op
def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """``out[..., j] = j < x[...]`` for ``j`` in ``range(maxlen)``: a mask of the first
    ``x`` positions of each sequence. ``maxlen`` (an int or a one-element Tensor)
    defaults to the largest length; ``None`` or a negative value means that too.

    >>> import pylayer
    >>> import pylayer.nn.functional as F
    >>> F.sequence_mask(pylayer.to_tensor([1, 3])).numpy()
    array([[1, 0, 0],
           [1, 1, 1]])
    >>> F.sequence_mask(pylayer.to_tensor([2]), maxlen=4, dtype="bool").numpy()
    array([[ True,  True, False, False]])
    """
    fn = "sequence_mask"
    x = as_tensor_arg(x, fn, "x", 1)
    lengths = x._array
    if is_bool(lengths.dtype) or lengths.dtype.kind not in "iuf":
        raise TypeError(f"{fn}(): argument 'x' (position 1) must be an integer or "
                        f"floating-point Tensor, got dtype {convert_dtype(lengths.dtype)}")
    dtype = check_dtype(dtype, fn, "dtype", kinds="biuf", allow_none=False)
    if isinstance(maxlen, Tensor):
        if maxlen._array.size != 1 or maxlen._array.dtype.kind not in "iu":
            raise ValueError(f"{fn}(): argument 'maxlen' must be an int or an integer Tensor "
                             f"of one element, got {describe(maxlen)}")
        maxlen = int(maxlen._array.reshape(()))
    maxlen = check_int(maxlen, fn, "maxlen", allow_none=True)
    if maxlen is None or maxlen < 0:
        maxlen = max(int(lengths.max()), 0) if lengths.size else 0
    check_count(lengths.size * maxlen, fn, "maxlen", dtype)
    return make_tensor((np.arange(maxlen) < lengths[..., None]).astype(dtype, copy=False))
