"""The compiled LSTM time loop (``_kernels/rnn.pyx``) behind ``nn.LSTM`` and LSTM ``RNN``s:
outputs against a plain numpy LSTM in float64, float32 results and gradients within
float32 rounding of float64's, both layouts (time-major and batch-major) alike,
gradients and second order with time-major input, and the kernel's door checks."""
import numpy as np
import pytest

import pylayer
from pylayer import nn
from pylayer._kernels import rnn as kernel
from pylayer.autograd import gradcheck, gradgradcheck


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, shape)


def _reference(x, w_ih, w_hh, b, h, c, lengths, reverse):
    """A numpy LSTM over batch-major ``x``: outputs (zero past each length), h, c."""
    steps, hidden = x.shape[1], h.shape[-1]
    out = np.zeros(x.shape[:2] + (hidden,))
    sigmoid = lambda a: 1.0 / (1.0 + np.exp(-a))  # noqa: E731
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        gates = x[:, t] @ w_ih.T + h @ w_hh.T + b
        i, f, g, o = np.split(gates, 4, axis=-1)
        c_new = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h_new = sigmoid(o) * np.tanh(c_new)
        runs = (t < lengths)[:, None]
        out[:, t] = np.where(runs, h_new, 0.0)
        h, c = np.where(runs, h_new, h), np.where(runs, c_new, c)
    return out, h, c


def _model(dtype, **kwargs):
    pylayer.set_default_dtype(dtype)
    try:
        pylayer.seed(3)
        return nn.LSTM(3, 4, **kwargs)
    finally:
        pylayer.set_default_dtype("float32")


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("time_major", [False, True])
@pytest.mark.parametrize("with_lengths", [False, True])
def test_outputs_match_a_numpy_lstm(reverse, time_major, with_lengths):
    model = _model("float64", direction="bidirect" if reverse else "forward",
                   time_major=time_major)
    x = _rand(5, 6, 3, seed=1)
    h0, c0 = _rand(2 if reverse else 1, 5, 4, seed=2), _rand(2 if reverse else 1, 5, 4, seed=3)
    lengths = np.array([6, 1, 3, 6, 2]) if with_lengths else np.full(5, 6)
    feed = x.transpose(1, 0, 2) if time_major else x
    out, (h, c) = model(pylayer.to_tensor(feed), (pylayer.to_tensor(h0), pylayer.to_tensor(c0)),
                        sequence_length=pylayer.to_tensor(lengths) if with_lengths else None)
    out = out.numpy().transpose(1, 0, 2) if time_major else out.numpy()
    p = {k: v.numpy() for k, v in model.state_dict().items()}
    for d, suffix in enumerate(["_l0", "_l0_reverse"][:2 if reverse else 1]):
        want = _reference(x, p["weight_ih" + suffix], p["weight_hh" + suffix],
                          p["bias_ih" + suffix] + p["bias_hh" + suffix], h0[d], c0[d], lengths,
                          reverse=d == 1)
        np.testing.assert_allclose(out[..., d * 4:(d + 1) * 4], want[0], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(h.numpy()[d], want[1], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(c.numpy()[d], want[2], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("time_major", [False, True])
def test_float32_results_and_gradients_are_float64s_rounded(time_major):
    results = {}
    for dtype in ("float32", "float64"):
        model = _model(dtype, direction="bidirect", time_major=time_major)
        x = pylayer.to_tensor(_rand(7, 5, 3, seed=4).astype(dtype), stop_gradient=False)
        out, (h, c) = model(x, sequence_length=pylayer.to_tensor([7, 2, 5, 1, 7]
                                                                  if time_major else
                                                                  [5, 2, 3, 1, 5, 4, 5]))
        ((out * out).sum() + (h * c).sum()).backward()
        results[dtype] = [out.numpy(), h.numpy(), c.numpy(), x.grad.numpy()] + \
            [p.grad.numpy() for p in model.parameters()]
    for got, want in zip(results["float32"], results["float64"]):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)


def test_time_major_and_batch_major_agree():
    x = _rand(4, 6, 3, seed=5)
    grads = []
    for time_major in (False, True):
        model = _model("float32", time_major=time_major)
        feed = pylayer.to_tensor((x.transpose(1, 0, 2) if time_major else x).astype("float32"),
                                 stop_gradient=False)
        out, _ = model(feed)
        (out * out).sum().backward()
        grads.append([(out.numpy().transpose(1, 0, 2) if time_major else out.numpy()),
                      (feed.grad.numpy().transpose(1, 0, 2) if time_major
                       else feed.grad.numpy())] + [p.grad.numpy() for p in model.parameters()])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_time_major_gradients_and_second_order_with_lengths():
    model = _model("float64", time_major=True)
    x = pylayer.to_tensor(_rand(3, 2, 3, seed=6), stop_gradient=False)
    h0 = pylayer.to_tensor(_rand(1, 2, 4, seed=7), stop_gradient=False)
    weight = model.weight_hh_l0

    def run(x, h0, w):
        out, (h, c) = model(x, (h0, pylayer.zeros([1, 2, 4], "float64")),
                            sequence_length=pylayer.to_tensor([3, 1]))
        return (out * out).sum() + (h * c).sum()

    assert gradcheck(run, (x, h0, weight))
    assert gradgradcheck(run, (x, h0, weight))


def test_wide_layers_whose_recurrent_product_goes_in_column_blocks_match_the_cell():
    # 16 x 128 x 512 multiply-adds per step: the kernel cuts the product h @ W_hh.T and
    # the backward's dgates @ W_hh into column blocks; stepping LSTMCell by hand does not
    model = nn.LSTM(3, 128)
    cell = nn.LSTMCell(3, 128)
    for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
        value = getattr(model, name + "_l0").numpy()
        getattr(cell, name).set_value(value)
    x = _rand(16, 3, 3, seed=8).astype("float32")
    runs = []
    for step_by_hand in (False, True):
        feed = pylayer.to_tensor(x, stop_gradient=False)
        if step_by_hand:
            state, outs = None, []
            for t in range(3):
                out_t, state = cell(feed[:, t], state)
                outs.append(out_t)
            out = pylayer.stack(outs, axis=1)
        else:
            out, _ = model(feed)
        (out * out).sum().backward()
        weight_hh = (cell.weight_hh if step_by_hand else model.weight_hh_l0)
        runs.append([out.numpy(), feed.grad.numpy(), weight_hh.grad.numpy()])
    for got, want in zip(*runs):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ door checks
def _arrays(dtype=np.float32, steps=3, batch=2, hidden=4):
    xg = _rand(steps, batch, 4 * hidden).astype(dtype)
    w = _rand(4 * hidden, hidden, seed=1).astype(dtype)
    h0 = np.zeros((batch, hidden), dtype)
    states = [np.empty((steps, batch, hidden), dtype) for _ in range(4)]
    out, h_prev, c_prev, tanh_c = states
    return dict(xg=xg, weight_hh=w, h0=h0, c0=h0.copy(), running=None, reverse=False,
                zero_padding=True, batch_major=False, out=out, h_n=h0.copy(), c_n=h0.copy(),
                h_prev=h_prev, c_prev=c_prev, acts=np.empty_like(xg), tanh_c=tanh_c)


@pytest.mark.parametrize("batch_major", [False, True])
def test_the_forward_kernel_on_good_arrays(batch_major):
    args = _arrays(np.float64)
    xg = args["xg"].transpose(1, 0, 2)                  # batch-major
    if batch_major:
        args = dict(args, xg=np.ascontiguousarray(xg), batch_major=True,
                    **{k: np.empty((2, 3) + args[k].shape[2:])
                       for k in ("out", "h_prev", "c_prev", "acts", "tanh_c")})
    kernel.lstm_forward(**args)
    out, h, c = _reference(xg, np.eye(16), args["weight_hh"], 0.0, args["h0"], args["c0"],
                           np.full(2, 3), False)
    np.testing.assert_allclose(args["out"] if batch_major else args["out"].transpose(1, 0, 2),
                               out, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(args["h_n"], h, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(args["c_n"], c, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name, bad, error, words", [
    ("xg", lambda a: a.astype(np.float16), TypeError, "float32 or float64"),
    ("xg", lambda a: a.astype(">f4"), TypeError, "native byte order"),
    ("weight_hh", lambda a: a.astype(np.float64), TypeError, "weight_hh"),
    ("weight_hh", lambda a: np.asfortranarray(a), ValueError, "C-contiguous"),
    ("weight_hh", lambda a: a[:, :3], ValueError, "shape"),
    ("h0", lambda a: a[:1], ValueError, "h0"),
    ("out", lambda a: a[:, :, ::2].copy(), ValueError, "out"),
    ("acts", lambda a: np.frombuffer(a.tobytes(), a.dtype).reshape(a.shape), ValueError,
     "writable"),
    ("running", lambda a: np.ones((3, 2), np.int8), TypeError, "running"),
    ("running", lambda a: np.ones((2, 3), bool), ValueError, "running"),
    ("h_prev", lambda a: [[0.0]], TypeError, "numpy array"),
])
def test_the_forward_kernel_refuses_bad_arrays(name, bad, error, words):
    args = _arrays()
    args[name] = bad(args[name])
    with pytest.raises(error, match=words):
        kernel.lstm_forward(**args)


def test_the_forward_kernel_refuses_misaligned_arrays():
    args = _arrays()
    raw = np.zeros(args["xg"].nbytes + 1, np.uint8)[1:]
    args["xg"] = raw.view(np.float32).reshape(args["xg"].shape)
    with pytest.raises(ValueError, match="aligned"):
        kernel.lstm_forward(**args)


def test_the_backward_kernel_refuses_bad_arrays():
    args = _arrays()
    kernel.lstm_forward(**args)
    good = dict(g_out=np.ones_like(args["out"]), g_h=None, g_c=None,
                weight_hh=args["weight_hh"], acts=args["acts"], c_prev=args["c_prev"],
                tanh_c=args["tanh_c"], running=None, reverse=False, zero_padding=True,
                batch_major=False, dgates=np.empty_like(args["acts"]),
                dh=np.empty((2, 4), np.float32), dc=np.empty((2, 4), np.float32))
    kernel.lstm_backward(**good)
    assert np.isfinite(good["dgates"]).all()
    for name, bad, error in (("g_out", np.ones((3, 2, 5), np.float32), ValueError),
                             ("g_h", np.ones((2, 4)), TypeError),
                             ("dgates", np.empty((3, 2, 16), np.float32)[::-1], ValueError),
                             ("dc", np.empty((2, 4), np.float32)[:, ::-1], ValueError)):
        with pytest.raises(error, match=name):
            kernel.lstm_backward(**dict(good, **{name: bad}))
