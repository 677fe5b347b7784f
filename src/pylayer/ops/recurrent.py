"""The gate arithmetic of one LSTM or GRU step, each one recorded op, and a whole LSTM
over a sequence as one recorded op (private to :mod:`pylayer.nn.rnn`).

A step of an LSTM is otherwise about twelve elementwise ops per time step, each
a node; here the forward is one numpy computation and the backward one rule.
The sequence op runs the time loop in numpy both ways and makes the recurrent
weight's gradient one matrix product over all steps.
The rules are written once over a small set of primitives, used with numpy
arrays when the gradient is final and with recorded pylayer ops when the
backward itself is recorded (``create_graph=True``), so double backward works.
"""
import numpy as np

from pylayer._core.graph import Op, make_output, make_outputs
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer.ops.activation import sigmoid
from pylayer.ops.arithmetic import add, multiply, subtract
from pylayer.ops.creation import to_tensor, zeros_like
from pylayer.ops.linalg import matmul
from pylayer.ops.manipulation import concat, split, stack, unstack
from pylayer.ops.math import tanh

__all__ = []


def _np_sigmoid(a):
    return 0.5 * (1.0 + np.tanh(0.5 * a))


class _Numpy:
    sigmoid = staticmethod(_np_sigmoid)
    tanh = staticmethod(np.tanh)

    @staticmethod
    def split(a, n):
        size = a.shape[-1] // n
        return [a[..., k * size:(k + 1) * size] for k in range(n)]

    @staticmethod
    def concat(parts):
        return np.concatenate(parts, axis=-1)


class _Recorded:
    sigmoid = staticmethod(sigmoid)
    tanh = staticmethod(tanh)

    @staticmethod
    def split(a, n):
        return split(a, n, axis=-1)

    @staticmethod
    def concat(parts):
        return concat(parts, axis=-1)


def _backend(*tensors):
    """The primitives and the operands the rule computes with: arrays unless recorded."""
    if is_grad_enabled():
        return _Recorded, tensors
    return _Numpy, tuple(None if t is None else t.numpy() for t in tensors)


def _wrap(results):
    return tuple(r if r is None or not isinstance(r, np.ndarray) else make_tensor(r)
                 for r in results)


# ------------------------------------------------------------------------- LSTM
def _lstm_forward(m, gates, c_prev):
    pre_i, pre_f, pre_g, pre_o = m.split(gates, 4)
    i, f, g, o = m.sigmoid(pre_i), m.sigmoid(pre_f), m.tanh(pre_g), m.sigmoid(pre_o)
    c = f * c_prev + i * g
    return i, f, g, o, c


def _lstm_vjp(grads, gates, c_prev, c, acts):
    gh, gc = grads[0], grads[1]
    if not is_grad_enabled():
        return _lstm_vjp_arrays(gh, gc, c_prev.numpy(), c.numpy(), acts.numpy())
    i, f, g, o, _ = _lstm_forward(_Recorded, gates, c_prev)
    tc = tanh(c)
    dc = gc
    if gh is not None:
        dh_c = gh * o * (1.0 - tc * tc)
        dc = dh_c if dc is None else dc + dh_c
        do = gh * tc * o * (1.0 - o)
    else:
        do = 0.0 * o
    if dc is None:
        dc = 0.0 * c
    dgates = concat([dc * g * i * (1.0 - i), dc * c_prev * f * (1.0 - f),
                     dc * i * (1.0 - g * g), do], axis=-1)
    return dgates, dc * f


def _lstm_vjp_arrays(gh, gc, c_prev, c, acts):
    n = c.shape[-1]
    i, f, g, o = (acts[..., k * n:(k + 1) * n] for k in range(4))
    dgates = np.empty_like(acts)
    tc = np.tanh(c)
    if gh is None:
        dc = gc.numpy().copy()
        dgates[..., 3 * n:] = 0.0
    else:
        gh = gh.numpy()
        dc = gh * o
        dc *= 1.0 - tc * tc
        if gc is not None:
            dc += gc.numpy()
        np.multiply(gh * tc, o * (1.0 - o), out=dgates[..., 3 * n:])
    np.multiply(dc * g, i * (1.0 - i), out=dgates[..., :n])
    np.multiply(dc * c_prev, f * (1.0 - f), out=dgates[..., n:2 * n])
    np.multiply(dc * i, 1.0 - g * g, out=dgates[..., 2 * n:3 * n])
    dc *= f
    return make_tensor(dgates), make_tensor(dc)


LSTM_CELL = Op("lstm_cell", inputs=("gates", "c_prev"), outputs=("h", "c", "acts"),
               keeps=("gates", "c_prev", "c", "acts"), vjp=_lstm_vjp)


def lstm_cell(gates, c_prev):
    """``(h, c)`` of an LSTM step from its pre-activation ``gates`` (blocks i, f, g, o
    along the last axis) and the previous cell state."""
    a = gates.numpy()
    n = a.shape[-1] // 4
    acts = np.tanh(a * 0.5)
    acts += 1.0
    acts *= 0.5
    acts[..., 2 * n:3 * n] = np.tanh(a[..., 2 * n:3 * n])
    c = acts[..., n:2 * n] * c_prev.numpy()
    c += acts[..., :n] * acts[..., 2 * n:3 * n]
    h = np.tanh(c)
    h *= acts[..., 3 * n:]
    h, c, _ = make_outputs(LSTM_CELL, [h, c, acts], (gates, c_prev), non_differentiable=(2,))
    return h, c


# -------------------------------------------------------------------------- GRU
def _gru_forward(m, x_gates, h_gates, h_prev):
    x_r, x_z, x_c = m.split(x_gates, 3)
    h_r, h_z, h_c = m.split(h_gates, 3)
    r = m.sigmoid(x_r + h_r)
    z = m.sigmoid(x_z + h_z)
    c = m.tanh(x_c + r * h_c)
    return r, z, c, h_c


def _gru_vjp(g, x_gates, h_gates, h_prev):
    m, (x_gates, h_gates, h_prev, g) = _backend(x_gates, h_gates, h_prev, g)
    r, z, c, h_c = _gru_forward(m, x_gates, h_gates, h_prev)
    dz = g * (h_prev - c) * z * (1.0 - z)
    dc = g * (1.0 - z) * (1.0 - c * c)
    dr = dc * h_c * r * (1.0 - r)
    return _wrap((m.concat([dr, dz, dc]), m.concat([dr, dz, dc * r]), g * z))


GRU_CELL = Op("gru_cell", inputs=("x_gates", "h_gates", "h_prev"),
              keeps=("x_gates", "h_gates", "h_prev"), vjp=_gru_vjp)


def gru_cell(x_gates, h_gates, h_prev):
    """The new hidden state of a GRU step from the input's and the previous state's
    projections (blocks r, z, c along the last axis, biases included)."""
    a = h_prev.numpy()
    _, z, c, _ = _gru_forward(_Numpy, x_gates.numpy(), h_gates.numpy(), a)
    return make_output(GRU_CELL, ((a - c) * z + c).astype(a.dtype, copy=False),
                       (x_gates, h_gates, h_prev))


# ------------------------------------------------------- a whole LSTM sequence
def _gate_activations(gates, out):
    """Sigmoid of the i, f, o blocks and tanh of the g block of ``gates``, into ``out``."""
    n = gates.shape[-1] // 4
    np.tanh(gates * 0.5, out=out)
    out += 1.0
    out *= 0.5
    np.tanh(gates[..., 2 * n:3 * n], out=out[..., 2 * n:3 * n])


def _sequence_vjp(grads, x_gates, h0, c0, weight_hh, h_prev, c_prev, c_new, acts, running,
                  reverse, zero_padding):
    g_out, g_h, g_c = grads[0], grads[1], grads[2]
    if is_grad_enabled():
        return _sequence_vjp_recorded(g_out, g_h, g_c, x_gates, h0, c0, weight_hh, running,
                                      reverse, zero_padding)
    w, hp, cp, cn, a = (t.numpy() for t in (weight_hh, h_prev, c_prev, c_new, acts))
    steps, n = a.shape[0], cp.shape[-1]
    dh = np.zeros_like(cp[0]) if g_h is None else g_h.numpy()
    dc = np.zeros_like(cp[0]) if g_c is None else g_c.numpy()
    g_out = None if g_out is None else g_out.numpy()
    dgates = np.empty_like(a)
    for t in (range(steps) if reverse else range(steps - 1, -1, -1)):
        i, f, g, o = (a[t, :, k * n:(k + 1) * n] for k in range(4))
        if running is None:
            dh_new, dc_new, carry_h, carry_c = dh, dc, 0.0, 0.0
        else:
            m = running[t]
            dh_new, dc_new = dh * m, dc * m
            carry_h, carry_c = dh - dh_new, dc - dc_new
        if g_out is not None:
            dh_new = dh_new + (g_out[t] * running[t] if zero_padding and running is not None
                               else g_out[t])
        tc = np.tanh(cn[t])
        dct = dh_new * o
        dct *= 1.0 - tc * tc
        dct += dc_new
        # d = (what each gate's activation receives) * (the activation's derivative)
        d = dgates[t]
        np.multiply(dct, g, out=d[:, :n])
        np.multiply(dct, cp[t], out=d[:, n:2 * n])
        np.multiply(dct, i, out=d[:, 2 * n:3 * n])
        np.multiply(dh_new, tc, out=d[:, 3 * n:])
        slope = 1.0 - a[t]
        slope *= a[t]
        np.multiply(g, g, out=slope[:, 2 * n:3 * n])
        np.subtract(1.0, slope[:, 2 * n:3 * n], out=slope[:, 2 * n:3 * n])
        d *= slope
        dct *= f
        dc = dct + carry_c
        dh = d @ w + carry_h
    flat = dgates.reshape(-1, dgates.shape[-1])
    dw = flat.T @ hp.reshape(-1, hp.shape[-1])
    return make_tensor(dgates), make_tensor(dh), make_tensor(dc), make_tensor(dw)


def _sequence_vjp_recorded(g_out, g_h, g_c, x_gates, h0, c0, weight_hh, running, reverse,
                           zero_padding):
    """The same gradient with recorded ops (the forward recomputed step by step), so that
    it can be differentiated again."""
    steps = x_gates.shape[0]
    order = list(range(steps - 1, -1, -1) if reverse else range(steps))
    xs = unstack(x_gates, axis=0)
    masks = None if running is None else \
        [to_tensor(running[t].astype(x_gates.numpy().dtype)) for t in range(steps)]
    h, c, saved = h0, c0, {}
    for t in order:
        gates = add(xs[t], matmul(h, weight_hh, transpose_y=True))
        h_new, c_new = lstm_cell(gates, c)
        saved[t] = (h, c, gates, c_new)
        if masks is not None:
            h = add(multiply(h_new, masks[t]), multiply(h, subtract(1.0, masks[t])))
            c = add(multiply(c_new, masks[t]), multiply(c, subtract(1.0, masks[t])))
        else:
            h, c = h_new, c_new
    dh = zeros_like(h0) if g_h is None else g_h
    dc = zeros_like(c0) if g_c is None else g_c
    g_steps = None if g_out is None else unstack(g_out, axis=0)
    dgates, dw = [None] * steps, None
    for t in reversed(order):
        h_prev, c_prev, gates, c_new = saved[t]
        if masks is None:
            dh_new, dc_new, carry_h, carry_c = dh, dc, None, None
        else:
            keep = subtract(1.0, masks[t])
            dh_new, dc_new = multiply(dh, masks[t]), multiply(dc, masks[t])
            carry_h, carry_c = multiply(dh, keep), multiply(dc, keep)
        if g_steps is not None:
            dh_new = add(dh_new, multiply(g_steps[t], masks[t])
                         if zero_padding and masks is not None else g_steps[t])
        d, dc = _lstm_vjp([dh_new, dc_new, None], gates, c_prev, c_new, None)
        dh = matmul(d, weight_hh)
        if carry_h is not None:
            dh, dc = add(dh, carry_h), add(dc, carry_c)
        step_w = matmul(d, h_prev, transpose_x=True)
        dw = step_w if dw is None else add(dw, step_w)
        dgates[t] = d
    return stack(dgates, axis=0), dh, dc, dw


LSTM_SEQUENCE = Op("lstm_sequence", inputs=("x_gates", "h0", "c0", "weight_hh"),
                   outputs=("out", "h_n", "c_n", "h_prev", "c_prev", "c_new", "acts"),
                   keeps=("x_gates", "h0", "c0", "weight_hh", "h_prev", "c_prev", "c_new",
                          "acts"),
                   attrs=("running", "reverse", "zero_padding"), vjp=_sequence_vjp)


def lstm_sequence(x_gates, h0, c0, weight_hh, running, reverse, zero_padding):
    """An LSTM over the time-major ``x_gates`` (``[time, batch, 4 * hidden]``, the input
    projection with both biases): ``(outputs, h_n, c_n)``. ``running`` (bool
    ``[time, batch, 1]``, or None) says which steps are within each sequence; past a
    sequence's end its states are kept and its outputs are zeros with
    ``zero_padding``, the cell's outputs otherwise."""
    xg, w = x_gates.numpy(), weight_hh.numpy()
    steps, n = xg.shape[0], xg.shape[-1] // 4
    h, c = h0.numpy(), c0.numpy()
    acts = np.empty_like(xg)
    out = np.empty(xg.shape[:-1] + (n,), xg.dtype)
    h_prev, c_prev, c_new = np.empty_like(out), np.empty_like(out), np.empty_like(out)
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        h_prev[t], c_prev[t] = h, c
        _gate_activations(xg[t] + h @ w.T, acts[t])
        i, f, g, o = (acts[t, :, k * n:(k + 1) * n] for k in range(4))
        cn = c_new[t]
        np.multiply(f, c, out=cn)
        cn += i * g
        hn = np.tanh(cn)
        hn *= o
        if running is None:
            out[t] = hn
            h, c = hn, cn
        else:
            m = running[t]
            out[t] = hn * m if zero_padding else hn
            h, c = np.where(m, hn, h), np.where(m, cn, c)
    results = make_outputs(LSTM_SEQUENCE, [out, np.array(h), np.array(c), h_prev, c_prev,
                                           c_new, acts],
                           (x_gates, h0, c0, weight_hh), (running, bool(reverse),
                                                          bool(zero_padding)),
                           non_differentiable=(3, 4, 5, 6))
    return results[0], results[1], results[2]
