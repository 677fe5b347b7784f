"""The gate arithmetic of one LSTM or GRU step, each one recorded op (private to
:mod:`pylayer.nn.rnn`, which does the matrix products around them).

A step of an LSTM is otherwise about twelve elementwise ops per time step, each
a node; here the forward is one numpy computation and the backward one rule.
The rules are written once over a small set of primitives, used with numpy
arrays when the gradient is final and with recorded pylayer ops when the
backward itself is recorded (``create_graph=True``), so double backward works.
"""
import numpy as np

from pylayer._core.graph import Op, make_output, make_outputs
from pylayer._core.tensor import is_grad_enabled, make_tensor
from pylayer.ops.activation import sigmoid
from pylayer.ops.manipulation import concat, split
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
