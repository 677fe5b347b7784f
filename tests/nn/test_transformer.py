"""The attention family: ``scaled_dot_product_attention``'s rules beyond the op database,
``MultiHeadAttention`` and its caches, the Transformer layers, and Paddle 3.3.1's
recorded values.

``data/transformer_encoder.pdparams`` and ``data/transformer_model.pdparams`` were saved
by Paddle 3.3.1 (CPU) with ``paddle.save(model.state_dict(), ...)``, and the ``.npz``
beside each holds the inputs and Paddle's outputs in eval mode:

* encoder: ``paddle.seed(7); np.random.seed(7)``;
  ``TransformerEncoder(TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2)``; ``src`` of
  ``randn(2, 5, 8)``; ``out`` without a mask and ``out_masked`` with ``src_mask=mask``
  (bool ``[2, 1, 5, 5]``, False at keys 3 and 4 of the first item);
* model: ``paddle.seed(8)``; ``Transformer(8, 2, 1, 1, 16, dropout=0.0,
  normalize_before=True, activation='gelu')``; ``src`` ``[2, 5, 8]``, ``tgt`` ``[2, 4, 8]``,
  ``tgt_mask=model.generate_square_subsequent_mask(4)`` and the bool ``memory_mask``.
"""
import pathlib

import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer import nn
from pylayer.autograd import gradcheck, gradgradcheck

DATA = pathlib.Path(__file__).parent / "data"
RNG = np.random.default_rng(5)


def tensor(*shape, dtype="float32", stop_gradient=True):
    return pylayer.to_tensor(RNG.standard_normal(shape).astype(dtype),
                             stop_gradient=stop_gradient)


# ------------------------------------------------------------ Paddle's saved models
def test_a_tiny_encoder_saved_by_paddle_loads_and_gives_paddle_s_output():
    data = np.load(DATA / "transformer_encoder.npz")
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2)
    state = pylayer.load(str(DATA / "transformer_encoder.pdparams"))
    assert list(state) == list(encoder.state_dict())
    encoder.set_state_dict(state)
    encoder.eval()
    src = pylayer.to_tensor(data["src"])
    np.testing.assert_allclose(encoder(src).numpy(), data["out"], rtol=1e-5, atol=2e-6)
    masked = encoder(src, src_mask=pylayer.to_tensor(data["mask"]))
    np.testing.assert_allclose(masked.numpy(), data["out_masked"], rtol=1e-5, atol=2e-6)


def test_a_transformer_saved_by_paddle_gives_paddle_s_output():
    data = np.load(DATA / "transformer_model.npz")
    model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, normalize_before=True,
                           activation="gelu")
    state = pylayer.load(str(DATA / "transformer_model.pdparams"))
    assert list(state) == list(model.state_dict())
    model.set_state_dict(state)
    model.eval()
    out = model(pylayer.to_tensor(data["src"]), pylayer.to_tensor(data["tgt"]),
                tgt_mask=model.generate_square_subsequent_mask(4),
                memory_mask=pylayer.to_tensor(data["memory_mask"]))
    np.testing.assert_allclose(out.numpy(), data["out"], rtol=1e-5, atol=2e-6)


def test_state_dict_keys_are_paddle_s():
    attention = ["q_proj.weight", "q_proj.bias", "k_proj.weight", "k_proj.bias",
                 "v_proj.weight", "v_proj.bias", "out_proj.weight", "out_proj.bias"]
    feed_forward = ["linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias"]
    norms = ["norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias"]
    assert list(nn.TransformerEncoderLayer(8, 2, 16).state_dict()) == \
        ["self_attn." + k for k in attention] + feed_forward + norms
    assert list(nn.TransformerDecoderLayer(8, 2, 16).state_dict()) == \
        ["self_attn." + k for k in attention] + ["cross_attn." + k for k in attention] + \
        feed_forward + norms + ["norm3.weight", "norm3.bias"]
    shapes = {k: v.shape for k, v in nn.MultiHeadAttention(8, 2, kdim=4, vdim=6)
              .state_dict().items()}
    assert shapes["k_proj.weight"] == [4, 8] and shapes["v_proj.weight"] == [6, 8]


def test_repr_is_paddle_s():
    text = repr(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0))
    assert text.splitlines()[:3] == [
        "TransformerEncoderLayer(",
        "  (self_attn): MultiHeadAttention(",
        "    (q_proj): Linear(in_features=8, out_features=8, dtype=float32)"]
    assert "  (norm2): LayerNorm(normalized_shape=[8], epsilon=1e-05)" in text


# ------------------------------------------------------------ scaled_dot_product_attention
def _attention(q, k, v, **kwargs):
    return F.scaled_dot_product_attention(q, k, v, **kwargs).numpy()


def test_is_causal_ignores_the_mask_as_paddle_does():
    # Paddle 3.3.1 (CPU): with is_causal=True the attention mask is not used
    q = pylayer.ones([1, 2, 1, 4])
    v = pylayer.to_tensor([[[[1.0, 0, 0, 0]], [[3.0, 0, 0, 0]]]])
    mask = pylayer.to_tensor([[False, True], [True, True]])
    assert _attention(q, q, v)[0, :, 0, 0].tolist() == [2.0, 2.0]
    assert _attention(q, q, v, is_causal=True)[0, :, 0, 0].tolist() == [1.0, 2.0]
    assert _attention(q, q, v, attn_mask=mask)[0, :, 0, 0].tolist() == [3.0, 2.0]
    assert _attention(q, q, v, attn_mask=mask, is_causal=True)[0, :, 0, 0].tolist() == \
        [1.0, 2.0]


def test_a_row_masked_out_entirely_is_nan_in_sdpa():
    q = tensor(1, 2, 1, 4)
    out = _attention(q, q, q, attn_mask=pylayer.to_tensor([[False, False], [True, True]]))
    assert np.isnan(out[0, 0]).all() and np.isfinite(out[0, 1]).all()


def test_mask_dtypes():
    q = tensor(1, 2, 1, 4)
    with pytest.raises(TypeError, match=r"scaled_dot_product_attention\(\).*'attn_mask'.*int64"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=pylayer.ones([2, 2], "int64"))
    # a float64 mask on float32 scores is cast (Paddle 3.3.1 fails with a ValueError)
    out = _attention(q, q, q, attn_mask=pylayer.zeros([2, 2], "float64"))
    np.testing.assert_allclose(out, _attention(q, q, q), rtol=1e-6)


def test_integer_inputs_attend_in_float32():
    q = pylayer.to_tensor(np.ones([1, 2, 1, 4], dtype=np.int64))
    assert F.scaled_dot_product_attention(q, q, q).dtype == pylayer.float32


def test_heads_and_shapes_are_checked():
    q = pylayer.ones([1, 2, 3, 4])
    with pytest.raises(ValueError, match="multiple of the heads of key"):
        F.scaled_dot_product_attention(q, pylayer.ones([1, 2, 2, 4]), pylayer.ones([1, 2, 2, 4]))
    with pytest.raises(ValueError, match="enable_gqa is False"):
        F.scaled_dot_product_attention(q, pylayer.ones([1, 2, 1, 4]), pylayer.ones([1, 2, 1, 4]),
                                       enable_gqa=False)
    with pytest.raises(ValueError, match="4-D"):
        F.scaled_dot_product_attention(pylayer.ones([2, 4]), pylayer.ones([2, 4]),
                                       pylayer.ones([2, 4]))
    with pytest.raises(TypeError, match="'is_causal' must be a bool"):
        F.scaled_dot_product_attention(q, q, q, is_causal="yes")


def test_unbatched_inputs_are_seq_heads_head_dim():
    q, k, v = tensor(3, 2, 4), tensor(5, 2, 4), tensor(5, 2, 4)
    out = F.scaled_dot_product_attention(q, k, v)
    batched = F.scaled_dot_product_attention(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0))
    assert out.shape == [3, 2, 4]
    np.testing.assert_array_equal(out.numpy(), batched.numpy()[0])


def test_dropout_drops_weights_only_in_training():
    q = tensor(2, 4, 2, 4)
    plain = _attention(q, q, q)
    np.testing.assert_array_equal(_attention(q, q, q, dropout_p=0.5, training=False), plain)
    pylayer.seed(3)
    first = _attention(q, q, q, dropout_p=0.5)
    pylayer.seed(3)
    np.testing.assert_array_equal(_attention(q, q, q, dropout_p=0.5), first)
    assert not np.allclose(first, plain)


def test_attention_is_three_recorded_steps():
    q, k, v = (tensor(1, 3, 2, 4, stop_gradient=False) for _ in range(3))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=pylayer.ones([3, 3]))
    chain = []
    node = out.grad_fn
    while node is not None:
        chain.append(node.name())
        nexts = [n for n, _ in node.next_functions if n is not None and
                 n.name() != "AccumulateGrad"]
        node = nexts[0] if nexts else None
    assert chain == ["TransposeGradNode", "MatmulGradNode", "MaskedSoftmaxGradNode",
                     "MatmulGradNode", "TransposeGradNode"]


def test_a_float_mask_gets_its_gradient_twice():
    q, k, v = (tensor(1, 3, 2, 2, dtype="float64", stop_gradient=False) for _ in range(3))
    mask = tensor(2, 1, 3, dtype="float64", stop_gradient=False)

    def fn(q, k, v, mask):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert gradcheck(fn, (q, k, v, mask)) and gradgradcheck(fn, (q, k, v, mask))


# ------------------------------------------------------------ sequence_mask
def test_sequence_mask_rules():
    lengths = pylayer.to_tensor([1, 3])
    assert F.sequence_mask(lengths, maxlen=-1).numpy().tolist() == [[1, 0, 0], [1, 1, 1]]
    assert F.sequence_mask(lengths, maxlen=2).numpy().tolist() == [[1, 0], [1, 1]]
    assert F.sequence_mask(lengths, pylayer.to_tensor(2), "float32").dtype == pylayer.float32
    assert F.sequence_mask(pylayer.to_tensor(3)).shape == [3]
    assert F.sequence_mask(pylayer.to_tensor([1.5, 2.0])).numpy().tolist() == [[1, 1], [1, 1]]
    with pytest.raises(TypeError, match=r"sequence_mask\(\): argument 'x'.*bool"):
        F.sequence_mask(pylayer.to_tensor([True]))


# ------------------------------------------------------------ MultiHeadAttention
def test_multi_head_attention_matches_the_formula():
    attn = nn.MultiHeadAttention(8, 2, kdim=4, vdim=6, need_weights=True)
    q, k, v = tensor(2, 3, 8), tensor(2, 5, 4), tensor(2, 5, 6)
    out, weights = attn(q, k, v)

    def heads(t):
        return t.reshape(2, -1, 2, 4).transpose(0, 2, 1, 3)
    qp = heads(q.numpy() @ attn.q_proj.weight.numpy() + attn.q_proj.bias.numpy())
    kp = heads(k.numpy() @ attn.k_proj.weight.numpy() + attn.k_proj.bias.numpy())
    vp = heads(v.numpy() @ attn.v_proj.weight.numpy() + attn.v_proj.bias.numpy())
    scores = qp @ kp.transpose(0, 1, 3, 2) / 2.0
    expected_weights = np.exp(scores) / np.exp(scores).sum(-1, keepdims=True)
    joined = (expected_weights @ vp).transpose(0, 2, 1, 3).reshape(2, 3, 8)
    expected = joined @ attn.out_proj.weight.numpy() + attn.out_proj.bias.numpy()
    np.testing.assert_allclose(weights.numpy(), expected_weights, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_multi_head_attention_masks_are_paddle_s():
    attn = nn.MultiHeadAttention(4, 2, need_weights=True)
    x = tensor(1, 3, 4)
    keep = np.ones((3, 3), dtype=bool)
    keep[1] = False
    # a bool or integer mask m is added as (m - 1) * 1e9: a row with nothing kept is uniform
    _, weights = attn(x, attn_mask=pylayer.to_tensor(keep))
    np.testing.assert_allclose(weights.numpy()[0, :, 1], np.full((2, 3), 1 / 3), rtol=1e-6)
    _, weights = attn(x, attn_mask=pylayer.to_tensor([[2, 1, 0]] * 3))
    np.testing.assert_allclose(weights.numpy()[0, :, :, 0], np.ones((2, 3)))
    _, by_int = attn(x, attn_mask=pylayer.to_tensor(keep.astype("int64")))
    _, by_bool = attn(x, attn_mask=pylayer.to_tensor(keep))
    np.testing.assert_array_equal(by_int.numpy(), by_bool.numpy())
    additive = pylayer.to_tensor(np.where(keep, 0.0, -1e9).astype("float32"))
    np.testing.assert_allclose(attn(x, attn_mask=additive)[1].numpy(), by_bool.numpy())


def test_multi_head_attention_returns_what_paddle_returns():
    x = tensor(2, 3, 8)
    attn = nn.MultiHeadAttention(8, 2)
    assert isinstance(attn(x), pylayer.Tensor)
    cache = attn.gen_cache(x)
    assert type(cache) is nn.MultiHeadAttention.Cache and cache.k.shape == [2, 2, 0, 4]
    out, cache = attn(x, cache=cache)
    assert cache.k.shape == [2, 2, 3, 4]
    out, cache = attn(x[:, :1], cache=cache)
    assert cache.v.shape == [2, 2, 4, 4]
    static = attn.gen_cache(x, x, type=nn.MultiHeadAttention.StaticCache)
    assert static.k.shape == [2, 2, 3, 4]
    assert attn(x, cache=static)[1] is static
    given = attn.gen_cache(static.k, static.v)
    assert type(given) is nn.MultiHeadAttention.Cache and given.k is static.k
    attn.need_weights = True
    out, weights, cache = attn(x, cache=attn.gen_cache(x))
    assert weights.shape == [2, 2, 3, 3]
    with pytest.raises(TypeError, match="argument 'cache' must be"):
        attn(x, cache=(x, x))


def test_multi_head_attention_arguments_are_checked():
    with pytest.raises(ValueError, match="divisible by 'num_heads'"):
        nn.MultiHeadAttention(8, 3)
    with pytest.raises(ValueError, match="'embed_dim' must be greater than 0"):
        nn.MultiHeadAttention(0, 1)
    with pytest.raises(ValueError, match="'dropout'"):
        nn.MultiHeadAttention(8, 2, dropout=1.5)


# ------------------------------------------------------------ the layers
def test_incremental_decoding_equals_causal_decoding():
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2)
    decoder.eval()
    memory, tgt = tensor(2, 5, 8), tensor(2, 3, 8)
    cache = decoder.gen_cache(memory)
    assert type(cache) is list and type(cache[0][1]) is nn.MultiHeadAttention.StaticCache
    steps = []
    for t in range(3):
        out, cache = decoder(tgt[:, t:t + 1], memory, cache=cache)
        steps.append(out.numpy())
    full = decoder(tgt, memory, tgt_mask=pylayer.to_tensor(np.tril(np.ones((3, 3), bool))))
    np.testing.assert_allclose(np.concatenate(steps, 1), full.numpy(), rtol=1e-5, atol=1e-6)
    zipped = decoder.gen_cache(memory, do_zip=True)
    assert len(zipped) == 2 and len(zipped[0]) == 2


def test_encoder_cache_and_normalize_before():
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, normalize_before=True)
    encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8))
    src = tensor(2, 3, 8)
    out, caches = encoder(src, cache=encoder.gen_cache(src))
    np.testing.assert_allclose(out.numpy(), encoder(src).numpy(), rtol=1e-6)
    assert [c.k.shape for c in caches] == [[2, 2, 3, 4]] * 2


def test_stacks_copy_the_layer_with_fresh_parameters():
    layer = nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", attn_dropout=0.2)
    encoder = nn.TransformerEncoder(layer, 3)
    assert encoder.layers[0] is layer
    assert encoder.layers[2].activation is F.gelu
    assert encoder.layers[2].self_attn.dropout == 0.2
    assert not np.array_equal(encoder.layers[1].linear1.weight.numpy(),
                              layer.linear1.weight.numpy())


def test_param_attr_lists():
    zeros = pylayer.ParamAttr(initializer=nn.initializer.Constant(0.0))
    layer = nn.TransformerDecoderLayer(8, 2, 16, weight_attr=[None, zeros, None],
                                       bias_attr=[None, None, False])
    assert np.all(layer.cross_attn.q_proj.weight.numpy() == 0)
    assert np.any(layer.self_attn.q_proj.weight.numpy() != 0)
    assert layer.linear1.bias is None and layer.linear2.bias is None
    with pytest.raises(ValueError, match="'weight_attr' as a list or tuple must have 2 items"):
        nn.TransformerEncoderLayer(8, 2, 16, weight_attr=[None])
    model = nn.Transformer(8, 2, 1, 1, 16, bias_attr=[None, False])
    assert model.encoder.layers[0].linear1.bias is None
    assert model.decoder.layers[0].cross_attn.q_proj.bias is not None
    assert model.decoder.layers[0].linear2.bias is None


def test_layer_arguments_are_checked():
    with pytest.raises(ValueError, match="'activation' must name a function"):
        nn.TransformerEncoderLayer(8, 2, 16, activation="nope")
    with pytest.raises(TypeError, match="'encoder_layer' must be a TransformerEncoderLayer"):
        nn.TransformerEncoder(nn.Linear(2, 2), 2)
    with pytest.raises(ValueError, match="'num_layers' must be greater than 0"):
        nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 0)


def test_generate_square_subsequent_mask():
    model = nn.Transformer(8, 2, 1, 1, 16)
    expected = np.triu(np.full((3, 3), -np.inf, dtype=np.float32), 1)
    np.testing.assert_array_equal(model.generate_square_subsequent_mask(3).numpy(), expected)
    assert model.generate_square_subsequent_mask(pylayer.to_tensor(2)).shape == [2, 2]
    with pytest.raises(ValueError, match="'length' must be >= 0"):
        model.generate_square_subsequent_mask(-1)


def test_a_small_transformer_trains_and_round_trips(tmp_path):
    pylayer.seed(0)
    model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.1)
    head = nn.Linear(8, 1)
    params = model.parameters() + head.parameters()
    opt = pylayer.optimizer.Adam(learning_rate=0.01, parameters=params)
    src, tgt = tensor(4, 5, 8), tensor(4, 3, 8)
    target = pylayer.to_tensor(RNG.standard_normal((4, 3, 1)).astype("float32"))
    mask = model.generate_square_subsequent_mask(3)
    losses = []
    for _ in range(30):
        loss = F.mse_loss(head(model(src, tgt, tgt_mask=mask)), target)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    path = str(tmp_path / "model.pdparams")
    pylayer.save(model.state_dict(), path)
    again = nn.Transformer(8, 2, 1, 1, 16, dropout=0.1)
    again.set_state_dict(pylayer.load(path))
    model.eval()
    again.eval()
    np.testing.assert_array_equal(again(src, tgt, tgt_mask=mask).numpy(),
                                  model(src, tgt, tgt_mask=mask).numpy())


def test_multi_head_attention_differentiates_twice_in_float64():
    pylayer.set_default_dtype("float64")
    try:
        attn = nn.MultiHeadAttention(4, 2)
    finally:
        pylayer.set_default_dtype("float32")
    query = tensor(1, 3, 4, dtype="float64", stop_gradient=False)
    mask = tensor(3, 3, dtype="float64", stop_gradient=False)
    assert gradcheck(lambda q, m: attn(q, attn_mask=m), (query, mask))
    assert gradgradcheck(lambda q, m: attn(q, attn_mask=m), (query, mask))
