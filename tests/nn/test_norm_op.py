"""Layer and batch normalization as one recorded op (ops.normalization.normalize_affine): the same
results and gradients as the formulation with recorded ops, both ways of computing the
gradient (numpy's closed form, and recorded ops when it is differentiated again)."""
import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer.ops.normalization import _affine, _normalize

RNG = np.random.default_rng(31)


def leaf(*shape, dtype="float64"):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype=dtype, stop_gradient=False)


CASES = [   # (x shape, normalized axes, parameter shape)
    ((4, 6), [1], [1, 6]),                          # layer norm over the last axis
    ((2, 3, 4, 5), [2, 3], [1, 1, 4, 5]),           # layer norm over the last two
    ((4, 3, 5, 2), [0, 2, 3], [1, 3, 1, 1]),        # batch norm, NCHW
    ((4, 5, 2, 3), [0, 1, 2], [1, 1, 1, 3]),        # batch norm, NHWC
]


def run(fn, x, w, b, axes, shape):
    if fn == "layer_norm":
        return F.layer_norm(x, [x.shape[a] for a in axes], w, b)
    channels = int(np.prod(shape))
    mean, var = pylayer.zeros([channels]), pylayer.ones([channels])
    return F.batch_norm(x, mean, var, w, b, training=True,
                        data_format="NHWC" if shape[-1] != 1 else "NCHW")


@pytest.mark.parametrize("xshape,axes,shape", CASES)
@pytest.mark.parametrize("affine", [True, False])
def test_one_op_matches_the_recorded_formulation(xshape, axes, shape, affine):
    fn = "batch_norm" if 0 in axes else "layer_norm"
    x = leaf(*xshape)
    w, b = (leaf(int(np.prod(shape))), leaf(int(np.prod(shape)))) if affine else (None, None)
    out = run(fn, x, w, b, axes, shape)
    want = _affine(_normalize(x, axes, 1e-5), w, b, shape, fn)
    np.testing.assert_allclose(out.numpy(), want.numpy(), atol=1e-12)
    g = pylayer.to_tensor(RNG.standard_normal(xshape))
    inputs = [t for t in (x, w, b) if t is not None]
    fast = pylayer.grad(out, inputs, grad_outputs=g, retain_graph=True)    # numpy
    recorded = pylayer.grad(out, inputs, grad_outputs=g, create_graph=True)  # recorded ops
    reference = pylayer.grad(want, inputs, grad_outputs=g)
    for a, r, ref in zip(fast, recorded, reference):
        np.testing.assert_allclose(a.numpy(), ref.numpy(), atol=1e-10)
        np.testing.assert_allclose(r.numpy(), ref.numpy(), atol=1e-10)


def test_float16_is_normalized_in_float32():
    x = pylayer.to_tensor(RNG.standard_normal((3, 8)), dtype="float16")
    out = F.layer_norm(x, 8)
    assert out.dtype == pylayer.float16
    np.testing.assert_allclose(out.numpy(), F.layer_norm(x.astype("float32"), 8).numpy(),
                               atol=2e-3)


def test_an_input_changed_in_place_is_refused_in_backward():
    h = leaf(2, 4) * 1.0
    y = F.layer_norm(h, 4, leaf(4), leaf(4))
    h.zero_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_batch_statistics_update_the_running_ones():
    x = leaf(6, 3, 2, 2)
    mean, var = pylayer.zeros([3], dtype="float64"), pylayer.ones([3], dtype="float64")
    F.batch_norm(x, mean, var, training=True, momentum=0.75)
    a = x.numpy()
    np.testing.assert_allclose(mean.numpy(), 0.25 * a.mean(axis=(0, 2, 3)))
    np.testing.assert_allclose(var.numpy(), 0.75 + 0.25 * a.var(axis=(0, 2, 3)))


@pytest.mark.parametrize("fn", ["layer_norm", "batch_norm"])
def test_strided_inputs_give_what_contiguous_ones_give(fn):
    x = leaf(4, 6, 10)
    strided = x[:, :, ::2]                     # a view whose rows are not contiguous
    dense = pylayer.to_tensor(np.ascontiguousarray(strided.numpy()), stop_gradient=False)
    w, b = leaf(5), leaf(5)
    results = []
    for t in (strided, dense):
        if fn == "layer_norm":
            out = F.layer_norm(t, 5, w, b)
        else:
            out = F.batch_norm(t, pylayer.zeros([6], dtype="float64"),
                               pylayer.ones([6], dtype="float64"), training=True,
                               data_format="NCL")
        (grad,) = pylayer.grad((out * out).sum(), [t])
        results.append((out.numpy(), grad.numpy()))
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, atol=1e-12)


def test_kernels_refuse_arrays_of_other_sizes_or_layouts():
    from pylayer._kernels import norm as kernels
    x = np.zeros((2, 3, 4))
    with pytest.raises(ValueError, match="C-contiguous"):
        kernels.channel_forward(np.zeros((2, 3, 8))[:, :, ::2], np.ones(3), np.zeros(3), 1e-5,
                                np.empty_like(x), np.empty(3), np.empty(3))
    with pytest.raises(ValueError, match="weight must have 3"):
        kernels.channel_forward(x, np.ones(2), np.zeros(3), 1e-5, np.empty_like(x),
                                np.empty(3), np.empty(3))
    with pytest.raises(ValueError, match="rstd must have 2"):
        kernels.row_forward(np.zeros((2, 3)), np.ones(3), np.zeros(3), 1e-5,
                            np.empty((2, 3)), np.empty(2), np.empty(5))
    with pytest.raises(ValueError, match="dx must have"):
        kernels.row_backward(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros(2), np.ones(2),
                             np.ones(3), np.empty((2, 4)), np.empty(3), np.empty(3))
