"""Paddle's operator lists of automatic mixed precision, by Paddle's operator names.

The white list runs in the low precision (float16 or bfloat16), the black list
in float32; an operator on neither list (a "gray" one) follows its inputs. The
names are Paddle's operator types (``matmul_v2``, ``reduce_sum``,
``elementwise_add``...), the names ``custom_white_list`` and
``custom_black_list`` of :func:`pylayer.amp.auto_cast` take.

>>> from pylayer.amp.amp_lists import black_list, white_list
>>> 'matmul_v2' in white_list()['bfloat16']['O1'], 'exp' in black_list()['bfloat16']['O1']
(True, True)
"""
__all__ = ["white_list", "black_list"]

WHITE_LIST = frozenset({
    "conv2d", "einsum", "matmul", "matmul_v2", "max_pool2d_with_index", "mul",
    "fused_gemm_epilogue", "fused_rotary_position_embedding", "flash_attn", "linear_v2"})

# White in float16 only.
ONLY_FP16_WHITE_LIST = frozenset({
    "fake_quantize_dequantize_abs_max", "fake_quantize_dequantize_moving_average_abs_max",
    "fused_attention", "fused_feedforward"})

FP16_WHITE_LIST = WHITE_LIST | ONLY_FP16_WHITE_LIST
BF16_WHITE_LIST = WHITE_LIST

FP16_BLACK_LIST = frozenset({
    "tan", "acos", "asin", "sinh", "cosh", "atanh", "exp", "expm1", "square", "log", "log2",
    "log10", "log_loss", "mean", "softmax", "softmin", "softplus",
    "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits",
    "c_softmax_with_cross_entropy", "c_softmax_with_multi_label_cross_entropy",
    "cross_entropy", "cross_entropy2", "layer_norm", "group_norm", "dist", "pnorm",
    "frobenius_norm", "renorm", "reduce_sum", "reduce_mean", "reduce_prod", "cumprod",
    "cumsum", "erfinv", "pow", "reciprocal", "rsqrt", "huber_loss", "nll_loss",
    "log_softmax", "hsigmoid_loss", "margin_cross_entropy", "tanh_shrink",
    "triplet_margin_loss"})
BF16_BLACK_LIST = FP16_BLACK_LIST

# Black at O1 and O2 alike: lookups, scatters and interpolations.
EXTRA_BLACK_LIST = frozenset({
    "lookup_table", "lookup_table_v2", "scatter", "linear_interp_v2", "nearest_interp_v2",
    "bilinear_interp_v2", "bicubic_interp_v2", "trilinear_interp_v2"})


def white_list():
    """``{dtype: {level: set of operator names}}``: what runs in the low precision.

    >>> from pylayer.amp.amp_lists import white_list
    >>> sorted(white_list()['float16']['O2'] - white_list()['bfloat16']['O2'])[:2]
    ['fake_quantize_dequantize_abs_max', 'fake_quantize_dequantize_moving_average_abs_max']
    """
    return {dtype: {level: set(names) for level in ("OD", "O1", "O2")}
            for dtype, names in (("float16", FP16_WHITE_LIST), ("bfloat16", BF16_WHITE_LIST))}


def black_list():
    """``{dtype: {level: set of operator names}}``: what stays in float32 (O2 keeps only
    the lookups, scatters and interpolations there; OD lists none, since it runs every
    operator off the white list in float32).

    >>> from pylayer.amp.amp_lists import black_list
    >>> sorted(black_list()['bfloat16']['O2'])[:2], black_list()['float16']['OD']
    (['bicubic_interp_v2', 'bilinear_interp_v2'], set())
    """
    return {dtype: {"OD": set(), "O1": set(names | EXTRA_BLACK_LIST),
                    "O2": set(EXTRA_BLACK_LIST)}
            for dtype, names in (("float16", FP16_BLACK_LIST), ("bfloat16", BF16_BLACK_LIST))}
