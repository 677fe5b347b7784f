"""The gate arithmetic of one LSTM or GRU step, each one recorded op, and a whole LSTM
over a sequence as one recorded op (private to :mod:`pylayer.nn.rnn`).

A step of an LSTM is otherwise about twelve elementwise ops per time step, each
a node; here the forward is one numpy computation and the backward one rule.
The sequence op runs the time loop in compiled code both ways
(``_kernels/rnn.pyx``), on time-major or batch-major gates, and makes the
recurrent weight's gradient one matrix product over all steps.
The rules are written once over a small set of primitives, used with numpy
arrays when the gradient is final and with recorded pylayer ops when the
backward itself is recorded (``create_graph=True``), so double backward works.
"""
import numpy as np

from pylayer._core.graph import Op, make_output, make_outputs
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer._kernels.conv import pooled_empty
from pylayer._kernels.rnn import lstm_backward, lstm_forward
from pylayer.ops.activation import sigmoid
from pylayer.ops.arithmetic import add, multiply, subtract
from pylayer.ops.creation import to_tensor, zeros_like
from pylayer.ops.linalg import matmul
from pylayer.ops.manipulation import concat, split, stack, unstack
from pylayer.ops.math import tanh
from pylayer.ops.shape import transpose

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
def _time_major(t, batch_major):
    return transpose(t, [1, 0, 2]) if batch_major and t is not None else t


def _sequence_vjp(grads, x_gates, h0, c0, weight_hh, c_prev, tanh_c, acts, h_prev, running,
                  reverse, zero_padding, batch_major):
    g_out, g_h, g_c = grads[0], grads[1], grads[2]
    if is_grad_enabled():
        dgates, dh, dc, dw = _sequence_vjp_recorded(
            _time_major(g_out, batch_major), g_h, g_c, _time_major(x_gates, batch_major), h0,
            c0, weight_hh, running, reverse, zero_padding)
        return _time_major(dgates, batch_major), dh, dc, dw
    a = acts.numpy()
    w = np.ascontiguousarray(weight_hh.numpy())
    dgates = pooled_empty(a.shape, a.dtype)
    dh, dc = np.empty_like(h0.numpy()), np.empty_like(c0.numpy())
    lstm_backward(_kernel_array(g_out, a.dtype), _kernel_array(g_h, a.dtype),
                  _kernel_array(g_c, a.dtype), w, a, c_prev.numpy(), tanh_c.numpy(),
                  _kernel_running(running), reverse, zero_padding, batch_major, dgates, dh, dc)
    hp = h_prev.numpy()
    dw = dgates.reshape(-1, a.shape[-1]).T @ hp.reshape(-1, hp.shape[-1])
    return make_tensor(dgates), make_tensor(dh), make_tensor(dc), make_tensor(dw)


def _kernel_array(t, dtype):
    """A gradient or state as the kernel takes it: C-contiguous, aligned, native
    ``dtype``."""
    return None if t is None else np.require(t.numpy(), dtype, "CA")


def _kernel_running(running):
    return None if running is None else \
        np.require(running.reshape(running.shape[:2]), np.bool_, "CA")


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
                   outputs=("out", "h_n", "c_n", "c_prev", "tanh_c", "acts", "h_prev"),
                   keeps=("x_gates", "h0", "c0", "weight_hh", "c_prev", "tanh_c", "acts",
                          "h_prev"),
                   attrs=("running", "reverse", "zero_padding", "batch_major"),
                   vjp=_sequence_vjp)


def lstm_sequence(x_gates, h0, c0, weight_hh, running, reverse, zero_padding,
                  batch_major=False):
    """An LSTM over ``x_gates`` (the input projection with both biases, ``[time, batch,
    4 * hidden]``, or ``[batch, time, 4 * hidden]`` when ``batch_major``): ``(outputs,
    h_n, c_n)``, the outputs laid out as the input. ``running`` (bool ``[time, batch,
    1]``, or None) says which steps are within each sequence; past a sequence's end its
    states are kept and its outputs are zeros with ``zero_padding``, the cell's
    outputs otherwise. The time loop is ``_kernels.rnn``'s."""
    dtype = np.dtype(x_gates.numpy().dtype.char)        # in native byte order
    xg = np.require(x_gates.numpy(), dtype, "CA")
    w = np.require(weight_hh.numpy(), dtype, "CA")
    h, c = np.require(h0.numpy(), dtype, "CA"), np.require(c0.numpy(), dtype, "CA")
    n = xg.shape[-1] // 4
    states = xg.shape[:-1] + (n,)
    out, h_prev, c_prev, tanh_c = (pooled_empty(states, dtype) for _ in range(4))
    acts = pooled_empty(xg.shape, dtype)
    h_n, c_n = np.empty_like(h), np.empty_like(c)
    lstm_forward(xg, w, h, c, _kernel_running(running), bool(reverse), bool(zero_padding),
                 bool(batch_major), out, h_n, c_n, h_prev, c_prev, acts, tanh_c)
    results = make_outputs(LSTM_SEQUENCE, [out, h_n, c_n, c_prev, tanh_c, acts, h_prev],
                           (x_gates, h0, c0, weight_hh),
                           (running, bool(reverse), bool(zero_padding), bool(batch_major)),
                           non_differentiable=(3, 4, 5, 6))
    return results[0], results[1], results[2]
