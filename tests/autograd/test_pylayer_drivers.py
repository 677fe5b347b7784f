"""Drivers in the style of Paddle-ecosystem PyLayer code (written for this
project): the ops such classes call, used the way they use them, each
checked against central differences with gradcheck in float64."""
import numpy as np
import pytest

import pylayer as paddle
import pylayer.nn.functional as F
from pylayer import nn
from pylayer.autograd import PyLayer, gradcheck, gradgradcheck

RNG = np.random.default_rng(11)


def leaf(*shape):
    return paddle.to_tensor(RNG.standard_normal(shape), dtype="float64", stop_gradient=False)


# ------------------------------------------------- straight-through quantizer
class FakeQuant(PyLayer):
    """Round to a grid of ``scale`` in forward; pass the gradient straight through
    inside the clipping range, and give ``scale`` the LSQ-style gradient."""

    @staticmethod
    def forward(ctx, x, scale, bits):
        limit = 2 ** (bits - 1) - 1
        scaled = x / scale
        ctx.save_for_backward(scaled, scale)
        ctx.limit = limit
        return paddle.round(paddle.clip(scaled, -limit, limit)) * scale

    @staticmethod
    def backward(ctx, grad):
        scaled, scale = ctx.saved_tensor()
        limit = ctx.limit
        inside = paddle.logical_and(scaled > -limit, scaled < limit)
        grad_x = paddle.where(inside, grad, paddle.zeros_like(grad))
        step = paddle.where(inside, paddle.round(scaled) - scaled,
                            paddle.sign(scaled) * limit)
        grad_scale = (grad * step).sum().reshape([1])
        return grad_x, grad_scale


def test_straight_through_quantizer():
    x = paddle.to_tensor([-3.3, -0.4, 0.2, 1.26, 5.0], dtype="float64", stop_gradient=False)
    scale = paddle.to_tensor([0.5], dtype="float64", stop_gradient=False)
    out = FakeQuant.apply(x, scale, 3)
    assert out.numpy().tolist() == [-1.5, -0.5, 0.0, 1.5, 1.5]
    out.sum().backward()
    assert x.grad.numpy().tolist() == [0.0, 1.0, 1.0, 1.0, 0.0]
    assert scale.grad.shape == [1]
    # Away from rounding boundaries the straight-through estimate of x's
    # gradient is the identity, which gradcheck cannot see through rounding;
    # the clip mask alone is checked on a smooth surrogate below.
    expected_scale_grad = (-3 + (-1 + 0.8) + (0 - 0.4) + (3 - 2.52) + 3)
    np.testing.assert_allclose(scale.grad.numpy(), [expected_scale_grad])


class ClipStraightThrough(PyLayer):
    """The smooth part of the quantizer: a clip whose gradient is the clip mask."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return paddle.clip(x, -1.0, 1.0)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensor()
        return grad * paddle.cast(paddle.abs(x) < 1.0, grad.dtype)


def test_clip_straight_through_matches_gradcheck():
    x = paddle.to_tensor([-2.0, -0.5, 0.3, 0.9, 1.7], dtype="float64", stop_gradient=False)
    assert gradcheck(ClipStraightThrough.apply, [x])


# ---------------------------------------------------------- gradient reversal
class GradientReversal(PyLayer):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return -ctx.coeff * grad


def test_gradient_reversal_flips_and_scales():
    x = leaf(3, 2)
    head = paddle.to_tensor(RNG.standard_normal((2, 1)), dtype="float64")
    loss = paddle.tanh(paddle.matmul(GradientReversal.apply(x, 0.3), head)).sum()
    loss.backward()
    reference = paddle.to_tensor(x.numpy(), stop_gradient=False)
    paddle.tanh(paddle.matmul(reference, head)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), -0.3 * reference.grad.numpy())
    # Reversing twice with coefficients c and 1/c leaves the true gradient.
    assert gradcheck(lambda t: GradientReversal.apply(GradientReversal.apply(t * t, 2.0), 0.5),
                     [leaf(4)])


# ------------------------------------------------------ LoRA fused linear
class LoRALinear(PyLayer):
    """``x @ W + b + scaling * (x @ A) @ B`` with a hand-written backward."""

    @staticmethod
    def forward(ctx, x, weight, bias, lora_a, lora_b, scaling):
        ctx.save_for_backward(x, weight, lora_a, lora_b)
        ctx.scaling = scaling
        low_rank = paddle.matmul(x, lora_a)
        return paddle.addmm(paddle.addmm(bias, x, weight), low_rank, lora_b, alpha=scaling)

    @staticmethod
    def backward(ctx, grad):
        x, weight, lora_a, lora_b = ctx.saved_tensor()
        s = ctx.scaling
        grad_low = paddle.matmul(grad, lora_b, transpose_y=True) * s
        grad_x = paddle.addmm(paddle.matmul(grad_low, lora_a, transpose_y=True), grad, weight.T)
        grad_w = paddle.matmul(x, grad, transpose_x=True)
        grad_b = grad.sum(axis=0)
        grad_a = paddle.matmul(x, grad_low, transpose_x=True)
        grad_lb = paddle.matmul(paddle.matmul(x, lora_a), grad, transpose_x=True) * s
        return grad_x, grad_w, grad_b, grad_a, grad_lb


def test_lora_linear_with_addmm():
    x, w, b, a, lb = leaf(5, 4), leaf(4, 3), leaf(3), leaf(4, 2), leaf(2, 3)
    out = LoRALinear.apply(x, w, b, a, lb, 0.5)
    want = x.numpy() @ w.numpy() + b.numpy() + 0.5 * x.numpy() @ a.numpy() @ lb.numpy()
    np.testing.assert_allclose(out.numpy(), want)
    fn = lambda *t: LoRALinear.apply(*t, 0.5)  # noqa: E731
    assert gradcheck(fn, [x, w, b, a, lb])
    assert gradgradcheck(fn, [x, w, b, a, lb])


# -------------------------------------------- gather/scatter for unpadding
class Unpad(PyLayer):
    """Move the valid tokens of each row to the front (``take_along_axis``) and
    scatter gradients back with ``put_along_axis``."""

    @staticmethod
    def forward(ctx, hidden, mask):
        order = paddle.argsort(paddle.cast(mask, "int64"), axis=1, descending=True)
        index = paddle.expand_as(order.unsqueeze(-1), hidden)
        keep = paddle.sort(paddle.cast(mask, hidden.dtype), axis=1, descending=True).unsqueeze(-1)
        ctx.save_for_backward(index, keep)
        ctx.shape = hidden.shape
        return paddle.take_along_axis(hidden, index, axis=1) * keep

    @staticmethod
    def backward(ctx, grad):
        index, keep = ctx.saved_tensor()
        zeros = paddle.zeros(ctx.shape, dtype=grad.dtype)
        return paddle.put_along_axis(zeros, index, grad * keep, axis=1, reduce="add")


def test_unpadding_gather_scatter():
    hidden = leaf(2, 4, 3)
    mask = paddle.to_tensor([[False, True, True, False], [True, False, True, True]])
    out = Unpad.apply(hidden, mask)
    h = hidden.numpy()
    np.testing.assert_allclose(out.numpy()[0, :2], h[0, [1, 2]])
    np.testing.assert_allclose(out.numpy()[1, :3], h[1, [0, 2, 3]])
    assert not out.numpy()[0, 2:].any() and not out.numpy()[1, 3:].any()
    assert gradcheck(lambda t: Unpad.apply(t, mask), [hidden])


def test_scatter_add_in_place_accumulates_per_bucket():
    counts = paddle.zeros([2, 3])
    buckets = paddle.to_tensor([[0, 2, 2, 1], [1, 1, 1, 0]])
    counts.put_along_axis_(buckets, 1.0, 1, reduce="add")
    assert counts.numpy().tolist() == [[1.0, 1.0, 2.0], [1.0, 3.0, 0.0]]


# ------------------------------------------------------------ cumsum pooling
class SegmentMean(PyLayer):
    """Mean of each segment ``[starts[i], ends[i])`` of the sequence axis, from a
    running sum, with the backward spreading each mean's gradient evenly."""

    @staticmethod
    def forward(ctx, x, starts, ends):
        padded = F.pad(x, [1, 0], data_format="NLC")     # a zero row in front
        running = paddle.cumsum(padded, axis=1)
        upper = paddle.take_along_axis(running, ends.unsqueeze(-1).expand([-1, -1, x.shape[2]]),
                                       axis=1)
        lower = paddle.take_along_axis(running,
                                       starts.unsqueeze(-1).expand([-1, -1, x.shape[2]]), axis=1)
        lengths = paddle.cast(ends - starts, x.dtype).unsqueeze(-1)
        ctx.save_for_backward(starts, ends, lengths)
        ctx.length = x.shape[1]
        return (upper - lower) / lengths

    @staticmethod
    def backward(ctx, grad):
        starts, ends, lengths = ctx.saved_tensor()
        positions = paddle.arange(ctx.length).reshape([1, 1, -1])
        inside = paddle.logical_and(positions >= starts.unsqueeze(-1),
                                    positions < ends.unsqueeze(-1))
        weights = paddle.cast(inside, grad.dtype) / lengths
        return paddle.einsum("bsl,bsd->bld", weights, grad)


def test_cumsum_segment_pooling():
    x = leaf(2, 6, 3)
    starts = paddle.to_tensor([[0, 2], [1, 4]])
    ends = paddle.to_tensor([[2, 6], [4, 5]])
    out = SegmentMean.apply(x, starts, ends)
    np.testing.assert_allclose(out.numpy()[0, 1], x.numpy()[0, 2:6].mean(axis=0))
    np.testing.assert_allclose(out.numpy()[1, 0], x.numpy()[1, 1:4].mean(axis=0))
    fn = lambda t: SegmentMean.apply(t, starts, ends)  # noqa: E731
    assert gradcheck(fn, [x])
    assert gradgradcheck(fn, [x])


# --------------------------------------------------------------- custom norm
class RMSNorm(PyLayer):
    @staticmethod
    def forward(ctx, x, weight, eps):
        ctx.save_for_backward(x, weight)
        ctx.eps = eps
        return x * paddle.rsqrt(paddle.mean(x * x, axis=-1, keepdim=True) + eps) * weight

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensor()
        # recomputed from x, so that the backward itself can be differentiated
        inv = paddle.rsqrt(paddle.mean(x * x, axis=-1, keepdim=True) + ctx.eps)
        normed = x * inv
        grad_weight = (grad * normed).reshape([-1, x.shape[-1]]).sum(axis=0)
        grad_normed = grad * weight
        grad_x = inv * (grad_normed - normed * paddle.mean(grad_normed * normed, axis=-1,
                                                           keepdim=True))
        return grad_x, grad_weight


def test_custom_rms_norm_against_layer_norm_style_reference():
    x, w = leaf(2, 3, 5), leaf(5)
    out = RMSNorm.apply(x, w, 1e-6)
    a = x.numpy()
    np.testing.assert_allclose(out.numpy(), a / np.sqrt((a * a).mean(-1, keepdims=True) + 1e-6)
                               * w.numpy())
    fn = lambda t, s: RMSNorm.apply(t, s, 1e-6)  # noqa: E731
    assert gradcheck(fn, [x, w])
    assert gradgradcheck(fn, [x, w])


# ------------------------------------ small conv model with a custom activation
class Swish(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = x * F.sigmoid(x)
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensor()
        s = F.sigmoid(x)
        return grad * (s + x * s * (1 - s))


class TinyNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.blocks = nn.LayerList([nn.Conv2D(2, 4, 3, padding=1),
                                    nn.Conv2D(4, 4, 3, stride=2, padding="same", groups=2)])
        self.norm = nn.GroupNorm(2, 4)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.head = nn.Linear(4, 3)

    def forward(self, x):
        for block in self.blocks:
            x = Swish.apply(block(x))
        x = self.pool(self.norm(x)).flatten(1)
        return self.head(x)


def test_small_conv_model_trains_with_a_scheduler():
    paddle.seed(0)
    model = TinyNet()
    images = paddle.to_tensor(RNG.standard_normal((6, 2, 6, 6)), dtype="float32")
    labels = paddle.to_tensor([0, 1, 2, 0, 1, 2])
    sched = paddle.optimizer.lr.LinearWarmup(
        paddle.optimizer.lr.CosineAnnealingDecay(0.05, T_max=20), warmup_steps=3,
        start_lr=0.0, end_lr=0.05)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=model.parameters())
    seen = []
    handle = model.register_forward_post_hook(lambda layer, inputs, out: seen.append(out.shape))
    losses = []
    for _ in range(25):
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched.step()
        losses.append(float(loss))
    handle.remove()
    model(images)
    assert len(seen) == 25 and seen[0] == [6, 3]
    assert losses[-1] < 0.5 * losses[0]


def test_small_conv_model_gradients_match_central_differences():
    paddle.seed(1)
    model = TinyNet()
    w1, w2 = (paddle.to_tensor(b.weight.numpy(), dtype="float64", stop_gradient=False)
              for b in model.blocks)

    def forward(x, first, second):
        h = Swish.apply(F.conv2d(x, first, padding=1))
        h = Swish.apply(F.conv2d(h, second, stride=2, padding="same", groups=2))
        h = F.group_norm(h, 2)
        return F.adaptive_avg_pool2d(h, 1).flatten(1)

    x = leaf(2, 2, 5, 5)
    assert gradcheck(forward, [x, w1, w2])


@pytest.mark.parametrize("coefficient", [0.0, 2.0])
def test_gradient_reversal_coefficients(coefficient):
    x = leaf(3)
    GradientReversal.apply(x, coefficient).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [-coefficient] * 3)
