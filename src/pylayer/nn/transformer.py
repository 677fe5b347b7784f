"""Transformer layers: ``MultiHeadAttention``, the encoder and decoder layers and stacks,
and ``Transformer``, with Paddle's sub-layer names (so ``state_dict`` keys are Paddle's)
and Paddle's masks: a bool or integer mask keeps its True (1) positions, a float mask is
added to the attention scores.

Attention runs as one matmul for the scores, the fused masked softmax of
:mod:`pylayer.ops.attention` and one matmul for the values.
"""
import collections
import copy

import numpy as np

from pylayer.extend import (Tensor, as_tensor_arg, check_int, check_number, describe, float_tensor,
                            get_default_dtype)
from pylayer.nn import functional as F
from pylayer.nn.common import Dropout, Linear
from pylayer.nn.container import LayerList
from pylayer.nn.layer import Layer
from pylayer.nn.norm import LayerNorm
from pylayer.nn.param import ParamAttr
from pylayer.ops.arithmetic import add, scale
from pylayer.ops.assembly import triu
from pylayer.ops.attention import masked_softmax
from pylayer.ops.creation import full
from pylayer.ops.linalg import matmul
from pylayer.ops.manipulation import concat
from pylayer.ops.shape import cast, reshape, transpose

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


class _CacheType(type):
    """Shows a cache class as ``MultiHeadAttention.Cache``, as it is reached (and as the
    default of ``gen_cache`` reads in a signature)."""

    def __repr__(cls):
        return f"MultiHeadAttention.{cls.__name__}"


class Cache(collections.namedtuple("Cache", ["k", "v"]), metaclass=_CacheType):
    """Keys and values seen so far, split into heads; extended by each ``forward``."""
    __slots__ = ()


class StaticCache(collections.namedtuple("StaticCache", ["k", "v"]), metaclass=_CacheType):
    """Keys and values projected once, reused by each ``forward``."""
    __slots__ = ()


def _convert_attention_mask(attn_mask, dtype, fn, arg, position):
    """``attn_mask`` as an additive mask of ``dtype``: a bool or integer mask ``m`` becomes
    ``(m - 1) * 1e9`` (0 where kept, -1e9 where left out), a float mask is cast."""
    if attn_mask is None:
        return None
    attn_mask = as_tensor_arg(attn_mask, fn, arg, position)
    if attn_mask.dtype.np_dtype.kind not in "biuf":
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be a bool, "
                        f"integer or floating-point Tensor, got dtype {attn_mask.dtype.name}")
    if attn_mask.dtype == dtype:
        return attn_mask
    if attn_mask.dtype.is_floating_point:
        return cast(attn_mask, dtype)
    return scale(cast(attn_mask, dtype), 1e9, bias=-1.0, bias_after_scale=False)


def _sequence(value, fn, arg, position):
    """``value`` as a floating-point Tensor ``[batch, seq_len, features]``."""
    value = float_tensor(value, fn, arg, position)
    if value.ndim != 3:
        raise ValueError(f"{fn}(): argument '{arg}' (position {position}) must be a 3-D Tensor "
                         f"[batch, seq_len, features], got shape {value.shape}")
    return value


def _norm_layer(norm, fn):
    if norm is not None and not isinstance(norm, Layer):
        raise TypeError(f"{fn}(): argument 'norm' must be a Layer (a LayerNorm) or None, got "
                        f"{describe(norm)}")
    return norm


def _positive_int(value, fn, arg):
    value = check_int(value, fn, arg)
    if value <= 0:
        raise ValueError(f"{fn}(): argument '{arg}' must be greater than 0, got {value}")
    return value


def _param_attrs(attr, n, fn, arg):
    """``attr`` as a list of ``n`` parameter attributes, one per group of sub-layers: a list
    or tuple gives them one by one, anything else is copied ``n`` times (a name gets the
    suffix ``_i``)."""
    if isinstance(attr, (list, tuple)):
        if len(attr) != n:
            raise ValueError(f"{fn}(): argument '{arg}' as a list or tuple must have {n} "
                             f"items, got {len(attr)}")
        return [False if item is False else ParamAttr._to_attr(item, fn, arg) for item in attr]
    if isinstance(attr, bool):
        return [ParamAttr() if attr else False for _ in range(n)]
    attr = ParamAttr._to_attr(attr, fn, arg)
    attrs = []
    for i in range(n):
        item = copy.deepcopy(attr)
        if attr.name:
            item.name = f"{attr.name}_{i}"
        attrs.append(item)
    return attrs


def _activation(name, fn):
    function = getattr(F, name, None) if isinstance(name, str) else None
    if not callable(function):
        raise ValueError(f"{fn}(): argument 'activation' must name a function of "
                         f"pylayer.nn.functional such as 'relu' or 'gelu', got {describe(name)}")
    return function


def _dropout_rate(value, fn, arg, default):
    value = default if value is None else value
    return check_number(value, fn, arg, minimum=0.0, maximum=1.0)


class MultiHeadAttention(Layer):
    """Multi-head attention: ``query``, ``key`` and ``value`` (``[batch, seq_len, dim]``)
    are projected by ``q_proj``, ``k_proj`` and ``v_proj``, split into ``num_heads`` heads,
    attend, and are joined by ``out_proj``.

    ``forward(query, key=None, value=None, attn_mask=None, cache=None)``: ``key`` and
    ``value`` default to ``query``. It returns the output alone, or a tuple of the output,
    the attention weights (when ``need_weights``) and the cache (when one is given). A
    ``Cache`` (from :meth:`gen_cache`) grows by this step's keys and values and the new
    one is returned; a ``StaticCache`` holds the projected keys and values to reuse.

    >>> import pylayer
    >>> attn = pylayer.nn.MultiHeadAttention(8, 2)
    >>> x = pylayer.rand([2, 3, 8])
    >>> attn(x).shape
    [2, 3, 8]
    >>> cache = attn.gen_cache(x)
    >>> out, cache = attn(x, cache=cache)
    >>> cache.k.shape
    [2, 2, 3, 4]
    """

    Cache = Cache
    StaticCache = StaticCache

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None,
                 need_weights=False, weight_attr=None, bias_attr=None):
        super().__init__()
        fn = "MultiHeadAttention"
        self.embed_dim = _positive_int(embed_dim, fn, "embed_dim")
        self.num_heads = _positive_int(num_heads, fn, "num_heads")
        if embed_dim % num_heads:
            raise ValueError(f"{fn}(): argument 'embed_dim' ({embed_dim}) must be divisible "
                             f"by 'num_heads' ({num_heads})")
        self.kdim = embed_dim if kdim is None else _positive_int(kdim, fn, "kdim")
        self.vdim = embed_dim if vdim is None else _positive_int(vdim, fn, "vdim")
        self.dropout = check_number(dropout, fn, "dropout", minimum=0.0, maximum=1.0)
        self.need_weights = bool(need_weights)
        self.head_dim = embed_dim // num_heads
        weight_attr = ParamAttr._to_attr(weight_attr, fn, "weight_attr")
        bias_attr = ParamAttr._to_attr(bias_attr, fn, "bias_attr")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, t):
        """``[batch, seq, embed_dim]`` -> ``[batch, num_heads, seq, head_dim]``."""
        batch, seq = t.shape[:2]
        return transpose(reshape(t, [batch, seq, self.num_heads, self.head_dim]), [0, 2, 1, 3])

    def compute_kv(self, key, value):
        """The projected ``key`` and ``value``, split into heads
        (``[batch, num_heads, seq_len, head_dim]``)."""
        key = _sequence(key, "MultiHeadAttention.compute_kv", "key", 1)
        value = _sequence(value, "MultiHeadAttention.compute_kv", "value", 2)
        return self._heads(self.k_proj(key)), self._heads(self.v_proj(value))

    def gen_cache(self, key, value=None, type=Cache):
        """A cache for :meth:`forward`. ``type=MultiHeadAttention.StaticCache``: the
        projected ``key`` and ``value`` (for attention over a fixed memory). Otherwise a
        ``Cache``: empty (no time steps yet, for ``key``'s batch) when ``value`` is None,
        else ``Cache(key, value)`` as given."""
        if type is MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            key = _sequence(key, "MultiHeadAttention.gen_cache", "key", 1)
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            return self.Cache(full(shape, 0, key.dtype), full(shape, 0, key.dtype))
        return self.Cache(key, value)

    def _prepare_qkv(self, query, key, value, cache=None):
        q = self._heads(self.q_proj(query))
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k = concat([cache.k, k], axis=2)
            v = concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        return (q, k, v) if cache is None else (q, k, v, cache)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        if cache is not None and not isinstance(cache, (self.Cache, self.StaticCache)):
            raise TypeError(f"MultiHeadAttention.forward(): argument 'cache' must be a "
                            f"MultiHeadAttention.Cache, a StaticCache or None, got "
                            f"{describe(cache)}")
        fn = "MultiHeadAttention.forward"
        query = _sequence(query, fn, "query", 1)
        key = query if key is None else _sequence(key, fn, "key", 2)
        value = query if value is None else _sequence(value, fn, "value", 3)
        if cache is None:
            q, k, v = self._prepare_qkv(query, key, value)
        else:
            q, k, v, cache = self._prepare_qkv(query, key, value, cache)
        scores = matmul(q, k, transpose_y=True)
        mask = _convert_attention_mask(attn_mask, scores.dtype, fn, "attn_mask", 4)
        if mask is not None:
            try:
                np.broadcast_shapes(tuple(mask.shape), tuple(scores.shape))
            except ValueError:
                raise ValueError(f"{fn}(): argument 'attn_mask' of shape {mask.shape} must "
                                 f"broadcast to the scores' shape {scores.shape} [batch, "
                                 f"num_heads, seq_len_q, seq_len_k]") from None
        weights = masked_softmax(scores, self.head_dim ** -0.5, mask)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training,
                                mode="upscale_in_train")
        out = transpose(matmul(weights, v), [0, 2, 1, 3])
        batch, seq = out.shape[:2]
        out = self.out_proj(reshape(out, [batch, seq, self.embed_dim]))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)


class _TransformerLayer(Layer):
    """What the encoder and decoder layers share: their settings, checked once, and the
    residual block around each sub-layer (normalised before or after it)."""

    def _settle(self, fn, n_attrs, config):
        """Check ``config`` (the constructor's arguments, kept to rebuild the layer); the
        dropout rates and the per-sub-layer parameter attributes."""
        self._config = config
        super().__init__()
        for arg in ("d_model", "nhead", "dim_feedforward"):
            _positive_int(config[arg], fn, arg)
        dropout = _dropout_rate(config["dropout"], fn, "dropout", None)
        attn_dropout = _dropout_rate(config["attn_dropout"], fn, "attn_dropout", dropout)
        act_dropout = _dropout_rate(config["act_dropout"], fn, "act_dropout", dropout)
        self.activation = _activation(config["activation"], fn)
        self.normalize_before = bool(config["normalize_before"])
        return (dropout, attn_dropout, act_dropout,
                _param_attrs(config["weight_attr"], n_attrs, fn, "weight_attr"),
                _param_attrs(config["bias_attr"], n_attrs, fn, "bias_attr"))

    def _feed_forward_layers(self, act_dropout, weight_attr, bias_attr):
        d_model, width = self._config["d_model"], self._config["dim_feedforward"]
        self.linear1 = Linear(d_model, width, weight_attr, bias_attr=bias_attr)
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(width, d_model, weight_attr, bias_attr=bias_attr)

    def _residual(self, x, norm, dropout, sublayer):
        """``x + dropout(sublayer(x))``, with ``norm`` applied before the sub-layer or
        after the sum (``normalize_before``)."""
        y = sublayer(norm(x) if self.normalize_before else x)
        y = add(x, dropout(y))
        return y if self.normalize_before else norm(y)

    def _feed_forward(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


class TransformerEncoderLayer(_TransformerLayer):
    """One encoder layer: self-attention, then a feed-forward network
    (``linear2(dropout(activation(linear1(x))))``), each with a residual connection and
    layer normalization, after it (``normalize_before=False``) or before it.

    ``attn_dropout`` and ``act_dropout`` default to ``dropout``. ``weight_attr`` and
    ``bias_attr`` may be lists of two: for the attention, and for the two linears.
    ``forward(src, src_mask=None, cache=None)`` returns the output, or the output and the
    new cache when a cache (from :meth:`gen_cache`) is given.

    >>> import pylayer
    >>> layer = pylayer.nn.TransformerEncoderLayer(8, 2, 16)
    >>> layer(pylayer.rand([2, 5, 8])).shape
    [2, 5, 8]
    """

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False,
                 weight_attr=None, bias_attr=None, layer_norm_eps=1e-05):
        dropout, attn_dropout, act_dropout, weight_attrs, bias_attrs = self._settle(
            "TransformerEncoderLayer", 2, dict(
                d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout,
                activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                normalize_before=normalize_before, weight_attr=weight_attr,
                bias_attr=bias_attr, layer_norm_eps=layer_norm_eps))
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=weight_attrs[0],
                                            bias_attr=bias_attrs[0])
        self._feed_forward_layers(act_dropout, weight_attrs[1], bias_attrs[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")

    def forward(self, src, src_mask=None, cache=None):
        fn = "TransformerEncoderLayer.forward"
        src = _sequence(src, fn, "src", 1)
        src_mask = _convert_attention_mask(src_mask, src.dtype, fn, "src_mask", 2)
        new_cache = []

        def attend(x):
            if cache is None:
                return self.self_attn(x, x, x, src_mask)
            out, made = self.self_attn(x, x, x, src_mask, cache)
            new_cache.append(made)
            return out
        src = self._residual(src, self.norm1, self.dropout1, attend)
        src = self._residual(src, self.norm2, self.dropout2, self._feed_forward)
        return src if cache is None else (src, new_cache[0])

    def gen_cache(self, src):
        """An empty ``MultiHeadAttention.Cache`` of the self-attention for ``src``'s batch."""
        src = _sequence(src, "TransformerEncoderLayer.gen_cache", "src", 1)
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """``num_layers`` encoder layers: the given ``encoder_layer`` first, then new layers
    made with its arguments (their own parameters), and ``norm`` (a ``LayerNorm``) after
    the last one when given.

    ``forward(src, src_mask=None, cache=None)`` returns the output, or the output and the
    list of new caches when a list of caches (from :meth:`gen_cache`) is given.

    >>> import pylayer
    >>> layer = pylayer.nn.TransformerEncoderLayer(8, 2, 16)
    >>> encoder = pylayer.nn.TransformerEncoder(layer, 2)
    >>> encoder(pylayer.rand([2, 5, 8])).shape
    [2, 5, 8]
    """

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            raise TypeError(f"TransformerEncoder(): argument 'encoder_layer' must be a "
                            f"TransformerEncoderLayer, got {describe(encoder_layer)}")
        self.num_layers = _positive_int(num_layers, "TransformerEncoder", "num_layers")
        self.layers = LayerList([encoder_layer if i == 0 else
                                 type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.norm = _norm_layer(norm, "TransformerEncoder")

    def forward(self, src, src_mask=None, cache=None):
        fn = "TransformerEncoder.forward"
        src = _sequence(src, fn, "src", 1)
        src_mask = _convert_attention_mask(src_mask, src.dtype, fn, "src_mask", 2)
        output = src
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, new_cache = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        """One empty cache per layer (a list), for ``forward(..., cache=...)``."""
        src = _sequence(src, "TransformerEncoder.gen_cache", "src", 1)
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(_TransformerLayer):
    """One decoder layer: self-attention over ``tgt``, cross-attention to ``memory`` and a
    feed-forward network, each with a residual connection and layer normalization
    (after it, or before it with ``normalize_before``).

    ``weight_attr`` and ``bias_attr`` may be lists of three: for the self-attention, the
    cross-attention and the two linears. ``forward(tgt, memory, tgt_mask=None,
    memory_mask=None, cache=None)`` returns the output, or the output and
    ``(incremental_cache, static_cache)`` when a cache pair (from :meth:`gen_cache`) is
    given.

    >>> import pylayer
    >>> layer = pylayer.nn.TransformerDecoderLayer(8, 2, 16)
    >>> layer(pylayer.rand([2, 4, 8]), pylayer.rand([2, 6, 8])).shape
    [2, 4, 8]
    """

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False,
                 weight_attr=None, bias_attr=None, layer_norm_eps=1e-05):
        dropout, attn_dropout, act_dropout, weight_attrs, bias_attrs = self._settle(
            "TransformerDecoderLayer", 3, dict(
                d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout,
                activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                normalize_before=normalize_before, weight_attr=weight_attr,
                bias_attr=bias_attr, layer_norm_eps=layer_norm_eps))
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=weight_attrs[0],
                                            bias_attr=bias_attrs[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                             weight_attr=weight_attrs[1],
                                             bias_attr=bias_attrs[1])
        self._feed_forward_layers(act_dropout, weight_attrs[2], bias_attrs[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        fn = "TransformerDecoderLayer.forward"
        tgt = _sequence(tgt, fn, "tgt", 1)
        memory = _sequence(memory, fn, "memory", 2)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype, fn, "tgt_mask", 3)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype, fn, "memory_mask", 4)
        if cache is not None and (not isinstance(cache, (list, tuple)) or len(cache) != 2):
            raise TypeError(f"TransformerDecoderLayer.forward(): argument 'cache' must be the "
                            f"pair (Cache, StaticCache) that gen_cache makes, or None, got "
                            f"{describe(cache)}")
        new_cache = []

        def attention(layer, keys, mask, which):
            def attend(x):
                k = x if keys is None else keys
                if cache is None:
                    return layer(x, k, k, mask, None)
                out, made = layer(x, k, k, mask, cache[which])
                new_cache.append(made)
                return out
            return attend
        tgt = self._residual(tgt, self.norm1, self.dropout1,
                             attention(self.self_attn, None, tgt_mask, 0))
        tgt = self._residual(tgt, self.norm2, self.dropout2,
                             attention(self.cross_attn, memory, memory_mask, 1))
        tgt = self._residual(tgt, self.norm3, self.dropout3, self._feed_forward)
        return tgt if cache is None else (tgt, tuple(new_cache))

    def gen_cache(self, memory):
        """``(Cache, StaticCache)``: an empty self-attention cache and the cross-attention's
        projected ``memory``."""
        memory = _sequence(memory, "TransformerDecoderLayer.gen_cache", "memory", 1)
        incremental_cache = self.self_attn.gen_cache(memory, type=self.self_attn.Cache)
        static_cache = self.cross_attn.gen_cache(memory, memory,
                                                 type=self.cross_attn.StaticCache)
        return incremental_cache, static_cache


class TransformerDecoder(Layer):
    """``num_layers`` decoder layers (the given one first, then new ones made with its
    arguments) and ``norm`` after the last one when given.

    ``forward(tgt, memory, tgt_mask=None, memory_mask=None, cache=None)`` returns the
    output, or the output and the list of new caches when a list of caches is given.

    >>> import pylayer
    >>> layer = pylayer.nn.TransformerDecoderLayer(8, 2, 16)
    >>> decoder = pylayer.nn.TransformerDecoder(layer, 2)
    >>> decoder(pylayer.rand([2, 4, 8]), pylayer.rand([2, 6, 8])).shape
    [2, 4, 8]
    """

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        if not isinstance(decoder_layer, TransformerDecoderLayer):
            raise TypeError(f"TransformerDecoder(): argument 'decoder_layer' must be a "
                            f"TransformerDecoderLayer, got {describe(decoder_layer)}")
        self.num_layers = _positive_int(num_layers, "TransformerDecoder", "num_layers")
        self.layers = LayerList([decoder_layer if i == 0 else
                                 type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.norm = _norm_layer(norm, "TransformerDecoder")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        fn = "TransformerDecoder.forward"
        tgt = _sequence(tgt, fn, "tgt", 1)
        memory = _sequence(memory, fn, "memory", 2)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype, fn, "tgt_mask", 3)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype, fn, "memory_mask", 4)
        output = tgt
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
            else:
                output, new_cache = layer(output, memory, tgt_mask=tgt_mask,
                                          memory_mask=memory_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        """One ``(Cache, StaticCache)`` pair per layer; with ``do_zip`` the pairs are
        regrouped as ``[all Caches, all StaticCaches]``."""
        memory = _sequence(memory, "TransformerDecoder.gen_cache", "memory", 1)
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attrs(attr, fn, arg):
    """Transformer's ``weight_attr``/``bias_attr``: the encoder's (two) and the decoder's
    (three) from one value or a list of one, two or three."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise ValueError(f"{fn}(): argument '{arg}' as a list or tuple must have 1, 2 or 3 items, "
                     f"got {len(attr)}")


class Transformer(Layer):
    """An encoder-decoder Transformer: ``encoder`` (a ``TransformerEncoder`` with a final
    ``LayerNorm``, or ``custom_encoder``) and ``decoder`` (likewise).

    ``forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None)`` encodes
    ``src`` and decodes ``tgt`` against it. ``weight_attr``/``bias_attr`` lists of two give
    the attentions' and the linears' attributes, of three the self-attentions',
    cross-attention's and linears'.

    >>> import pylayer
    >>> model = pylayer.nn.Transformer(8, 2, 1, 1, 16)
    >>> src, tgt = pylayer.rand([2, 5, 8]), pylayer.rand([2, 4, 8])
    >>> mask = model.generate_square_subsequent_mask(4)
    >>> model(src, tgt, tgt_mask=mask).shape
    [2, 4, 8]
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
                 custom_encoder=None, custom_decoder=None):
        super().__init__()
        fn = "Transformer"
        for arg, value in (("d_model", d_model), ("nhead", nhead),
                           ("num_encoder_layers", num_encoder_layers),
                           ("num_decoder_layers", num_decoder_layers),
                           ("dim_feedforward", dim_feedforward)):
            _positive_int(value, fn, arg)
        dropout = _dropout_rate(dropout, fn, "dropout", None)
        _dropout_rate(attn_dropout, fn, "attn_dropout", dropout)
        _dropout_rate(act_dropout, fn, "act_dropout", dropout)
        encoder_weight, decoder_weight = _split_attrs(weight_attr, fn, "weight_attr")
        encoder_bias, decoder_bias = _split_attrs(bias_attr, fn, "bias_attr")
        settings = dict(dropout=dropout, activation=activation, attn_dropout=attn_dropout,
                        act_dropout=act_dropout, normalize_before=normalize_before)
        for arg, value in (("custom_encoder", custom_encoder),
                           ("custom_decoder", custom_decoder)):
            if value is not None and not isinstance(value, Layer):
                raise TypeError(f"{fn}(): argument '{arg}' must be a Layer or None, got "
                                f"{describe(value)}")
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward,
                                            weight_attr=encoder_weight, bias_attr=encoder_bias,
                                            **settings)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward,
                                            weight_attr=decoder_weight, bias_attr=decoder_bias,
                                            **settings)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        fn = "Transformer.forward"
        src = _sequence(src, fn, "src", 1)
        tgt = _sequence(tgt, fn, "tgt", 2)
        src_mask = _convert_attention_mask(src_mask, src.dtype, fn, "src_mask", 3)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype, fn, "tgt_mask", 4)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype, fn, "memory_mask", 5)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        """A ``[length, length]`` additive mask of the default dtype: 0 on and below the
        diagonal, ``-inf`` above it (position ``i`` sees ``0..i``).

        >>> import pylayer
        >>> pylayer.nn.Transformer(8, 2, 1, 1, 16).generate_square_subsequent_mask(2).numpy()
        array([[  0., -inf],
               [  0.,   0.]], dtype=float32)
        """
        fn = "Transformer.generate_square_subsequent_mask"
        if isinstance(length, Tensor):
            if length.size != 1 or length.dtype.np_dtype.kind not in "iu":
                raise ValueError(f"{fn}(): argument 'length' must be an int or an integer "
                                 f"Tensor of one element, got {describe(length)}")
            length = int(length.numpy().reshape(()))
        length = check_int(length, fn, "length")
        if length < 0:
            raise ValueError(f"{fn}(): argument 'length' must be >= 0, got {length}")
        return triu(full([length, length], -np.inf, get_default_dtype()), 1)
