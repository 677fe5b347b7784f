# cython: wraparound=False
# distutils: extra_compile_args = --param=vect-max-version-for-alias-checks=40 -fno-inline-functions-called-once
"""The time loop of an LSTM layer, forward and backward, for ``ops.recurrent``.

Per time step the forward is one matrix product (``h @ weight_hh.T``, numpy's BLAS,
written into a work buffer, in column blocks where that spares BLAS its packing), one C pass adding the input's gates, one numpy
``tanh`` over all four gate blocks (a sigmoid is ``(tanh(a / 2) + 1) / 2``), one C
pass for the cell state, one ``tanh`` of the cell state and one C pass for the
hidden state; the backward is a few short C passes for the four gates' gradients
and one product (``dgates @ weight_hh``, in column blocks likewise). The roundings are those of the numpy
loop this replaced (the same operations in the same order).

Compiler flags (the distutils line): GCC vectorizes a loop over several arrays
only after as many run-time alias checks as it is allowed; the passes here stay
within 40. A helper called once is not inlined into its large Python-level
caller, where its loops ran 10 % slower.

Arrays indexed by step and sequence (the input's gates, the outputs and what
backward keeps) are C-contiguous ``[T, B, K]`` (time-major) or ``[B, T, K]``
(batch-major); ``K`` is ``4 * H`` for gates and ``H`` for states. Every array is
checked at the door (type, native float32/float64, shape, C-contiguous,
aligned, writable where written); the loops then index raw pointers within those
shapes (checked again in a debug build, see ``_common.pxd``).
"""
import numpy as np

cimport numpy as cnp
from libc.string cimport memcpy, memset

from pylayer._kernels._common cimport at, check_index, real

cnp.import_array()

__all__ = []   # internal: ops.recurrent calls these (and the tests)

_matmul = np.matmul
_tanh = np.tanh

# OpenBLAS multiplies matrices of up to 100**3 multiply-adds by a kernel that packs
# neither operand; above that it copies both into packed panels first, which for the
# recurrent product (a few rows times the whole weight) costs as much as the
# multiply-adds. Such a product is cut into column blocks under that size (see
# ``_column_blocks``); each output element is still one dot product over all of K.
cdef Py_ssize_t UNPACKED_PRODUCT = 100 ** 3


cdef int _door(object a, str name, object dtype, tuple shape, bint writable) except -1:
    if not isinstance(a, np.ndarray):
        raise TypeError(f"lstm kernel: {name} must be a numpy array, got {type(a).__name__}")
    if a.dtype != dtype:
        raise TypeError(f"lstm kernel: {name} must be {np.dtype(dtype)} in native byte order, "
                        f"got {a.dtype.str}")
    if a.shape != shape:
        raise ValueError(f"lstm kernel: {name} must have shape {shape}, got {a.shape}")
    if not (a.flags.c_contiguous and a.flags.aligned):
        raise ValueError(f"lstm kernel: {name} must be C-contiguous and aligned")
    if writable and not a.flags.writeable:
        raise ValueError(f"lstm kernel: {name} must be writable")
    return 0


cdef list _column_blocks(Py_ssize_t rows, object right, object out):
    """Pairs of matching column blocks of ``right`` ``[K, N]`` and ``out`` ``[rows, N]``
    (views) such that ``left @ right_block`` into ``out_block``, for every pair, is
    ``left @ right`` into ``out``: one pair unless cutting the columns in 2 to 4 blocks
    (multiples of 16 wide) brings each product under ``UNPACKED_PRODUCT``."""
    cdef Py_ssize_t k = right.shape[0], n = right.shape[1]
    cdef Py_ssize_t work = rows * k * n, pieces = (work + UNPACKED_PRODUCT - 1) // UNPACKED_PRODUCT
    cdef Py_ssize_t width
    if pieces < 2 or pieces > 4:
        return [(right, out)]
    width = (n + pieces - 1) // pieces
    width = (width + 15) // 16 * 16
    if rows * k * width > UNPACKED_PRODUCT or width >= n:
        return [(right, out)]
    return [(right[:, start:start + width], out[:, start:start + width])
            for start in range(0, n, width)]


cdef inline Py_ssize_t _row(Py_ssize_t t, Py_ssize_t b, Py_ssize_t steps, Py_ssize_t batch,
                            bint batch_major) noexcept nogil:
    """The index of row ``(t, b)`` of a ``[T, B, K]`` or ``[B, T, K]`` array."""
    if batch_major:
        return at(b, batch) * steps + at(t, steps)
    return at(t, steps) * batch + at(b, batch)


cdef object _dtype_of(object xg):
    if not isinstance(xg, np.ndarray) or xg.dtype.char not in "fd":
        raise TypeError(f"lstm kernel: x_gates must be a float32 or float64 array, got "
                        f"{getattr(xg, 'dtype', type(xg).__name__)}")
    if xg.ndim != 3 or xg.shape[2] % 4:
        raise ValueError(f"lstm kernel: x_gates must be 3-D with a last axis of 4 * hidden, "
                         f"got shape {xg.shape}")
    return np.dtype(xg.dtype.char)       # native byte order


def lstm_forward(xg, weight_hh, h0, c0, running, bint reverse, bint zero_padding,
                 bint batch_major, out, h_n, c_n, h_prev, c_prev, acts, tanh_c):
    """Run the LSTM over the ``T`` steps of ``xg`` (the input's gates with both biases,
    ``[T, B, 4H]``, or ``[B, T, 4H]`` when ``batch_major``) from the states ``h0``,
    ``c0`` (``[B, H]``) and the recurrent weight ``weight_hh`` (``[4H, H]``). Writes the
    outputs ``out``, the final states ``h_n``, ``c_n`` and what backward needs: each
    step's incoming states ``h_prev``, ``c_prev``, the ``tanh`` of its new cell state,
    ``tanh_c``, and the gate activations ``acts``. ``running`` (bool
    ``[T, B]`` or None) says which sequences still run at each step: past its end a
    sequence keeps its states and its output is zero with ``zero_padding``."""
    dtype = _dtype_of(xg)
    cdef Py_ssize_t steps, batch, hidden
    if batch_major:
        batch, steps = xg.shape[0], xg.shape[1]
    else:
        steps, batch = xg.shape[0], xg.shape[1]
    hidden = xg.shape[2] // 4
    _door(xg, "x_gates", dtype, xg.shape, False)
    _door(weight_hh, "weight_hh", dtype, (4 * hidden, hidden), False)
    for name, a in (("h0", h0), ("c0", c0)):
        _door(a, name, dtype, (batch, hidden), False)
    for name, a in (("h_n", h_n), ("c_n", c_n)):
        _door(a, name, dtype, (batch, hidden), True)
    state_shape = xg.shape[:2] + (hidden,)
    for name, a in (("out", out), ("h_prev", h_prev), ("c_prev", c_prev), ("tanh_c", tanh_c)):
        _door(a, name, dtype, state_shape, True)
    _door(acts, "acts", dtype, xg.shape, True)
    if running is not None:
        _door(running, "running", np.bool_, (steps, batch), False)
    # Work buffers; h_n and c_n hold the running states.
    np.copyto(h_n, h0)
    np.copyto(c_n, c0)
    gates = np.empty((batch, 4 * hidden), dtype)
    cell = np.empty((batch, hidden), dtype)
    cell_tanh = np.empty((batch, hidden), dtype)
    # a C-ordered copy: BLAS is slower on the transposed view at these shapes
    products = _column_blocks(batch, np.ascontiguousarray(weight_hh.T), gates)
    cdef const cnp.npy_bool* run = NULL
    if running is not None:
        run = <const cnp.npy_bool*>cnp.PyArray_DATA(running)
    cdef Py_ssize_t k, t
    for k in range(steps):
        t = steps - 1 - k if reverse else k
        for right, block in products:
            _matmul(h_n, right, out=block)
        if dtype == np.float32:
            _gates_in(<float*>cnp.PyArray_DATA(gates), <const float*>cnp.PyArray_DATA(xg),
                      t, steps, batch, hidden, batch_major)
        else:
            _gates_in(<double*>cnp.PyArray_DATA(gates), <const double*>cnp.PyArray_DATA(xg),
                      t, steps, batch, hidden, batch_major)
        _tanh(gates, out=gates)
        if dtype == np.float32:
            _cell(<const float*>cnp.PyArray_DATA(gates), <float*>cnp.PyArray_DATA(h_n),
                  <float*>cnp.PyArray_DATA(c_n), <float*>cnp.PyArray_DATA(cell),
                  <float*>cnp.PyArray_DATA(acts), <float*>cnp.PyArray_DATA(h_prev),
                  <float*>cnp.PyArray_DATA(c_prev), t, steps, batch, hidden, batch_major)
        else:
            _cell(<const double*>cnp.PyArray_DATA(gates), <double*>cnp.PyArray_DATA(h_n),
                  <double*>cnp.PyArray_DATA(c_n), <double*>cnp.PyArray_DATA(cell),
                  <double*>cnp.PyArray_DATA(acts), <double*>cnp.PyArray_DATA(h_prev),
                  <double*>cnp.PyArray_DATA(c_prev), t, steps, batch, hidden, batch_major)
        _tanh(cell, out=cell_tanh)
        if dtype == np.float32:
            _hidden(<const float*>cnp.PyArray_DATA(cell), <const float*>cnp.PyArray_DATA(cell_tanh),
                    <float*>cnp.PyArray_DATA(h_n), <float*>cnp.PyArray_DATA(c_n), run,
                    <float*>cnp.PyArray_DATA(acts), <float*>cnp.PyArray_DATA(out),
                    <float*>cnp.PyArray_DATA(tanh_c),
                    zero_padding, t, steps, batch, hidden, batch_major)
        else:
            _hidden(<const double*>cnp.PyArray_DATA(cell),
                    <const double*>cnp.PyArray_DATA(cell_tanh),
                    <double*>cnp.PyArray_DATA(h_n), <double*>cnp.PyArray_DATA(c_n), run,
                    <double*>cnp.PyArray_DATA(acts), <double*>cnp.PyArray_DATA(out),
                    <double*>cnp.PyArray_DATA(tanh_c),
                    zero_padding, t, steps, batch, hidden, batch_major)


cdef void _gates_in(real* gates, const real* xg, Py_ssize_t t, Py_ssize_t steps,
                    Py_ssize_t batch, Py_ssize_t hidden, bint batch_major) noexcept nogil:
    """``gates = h @ W.T + xg[t]``, halved in the sigmoid blocks (i, f, o)."""
    cdef Py_ssize_t b, j, width = 4 * hidden
    cdef real* g
    cdef const real* x
    for b in range(batch):
        g = gates + b * width
        x = xg + _row(t, b, steps, batch, batch_major) * width
        check_index(_row(t, b, steps, batch, batch_major) * width + width - 1,
                    steps * batch * width)
        for j in range(2 * hidden):
            g[j] = (g[j] + x[j]) * <real>0.5
        for j in range(2 * hidden, 3 * hidden):
            g[j] = g[j] + x[j]
        for j in range(3 * hidden, width):
            g[j] = (g[j] + x[j]) * <real>0.5


cdef void _cell(const real* gates, const real* h, const real* c, real* cell, real* acts,
                real* h_prev, real* c_prev, Py_ssize_t t, Py_ssize_t steps, Py_ssize_t batch,
                Py_ssize_t hidden, bint batch_major) noexcept nogil:
    """The activations (``gates`` holds their tanh), the incoming states and the new cell
    state ``f * c + i * g`` into ``cell``. (Short loops over few arrays, so that the
    compiler vectorizes each.)"""
    cdef Py_ssize_t b, j, r, width = 4 * hidden
    cdef const real* g
    cdef real* a
    cdef real* cn
    cdef const real* cp
    for b in range(batch):
        r = _row(t, b, steps, batch, batch_major)
        check_index(r * width + width - 1, steps * batch * width)
        g = gates + b * width
        a = acts + r * width
        for j in range(2 * hidden):
            a[j] = (g[j] + 1) * <real>0.5
        for j in range(2 * hidden, 3 * hidden):
            a[j] = g[j]
        for j in range(3 * hidden, width):
            a[j] = (g[j] + 1) * <real>0.5
        memcpy(h_prev + r * hidden, h + b * hidden, hidden * sizeof(real))
        memcpy(c_prev + r * hidden, c + b * hidden, hidden * sizeof(real))
        cn = cell + b * hidden
        cp = c + b * hidden
        for j in range(hidden):
            cn[j] = a[hidden + j] * cp[j] + a[j] * a[2 * hidden + j]


cdef void _hidden(const real* cell, const real* cell_tanh, real* h, real* c,
                  const cnp.npy_bool* running, const real* acts, real* out, real* tanh_c,
                  bint zero_padding, Py_ssize_t t, Py_ssize_t steps,
                  Py_ssize_t batch, Py_ssize_t hidden, bint batch_major) noexcept nogil:
    """``h = o * tanh(c)``; the states advance where the sequence runs."""
    cdef Py_ssize_t b, j, r
    cdef const real* o
    cdef const real* ct
    cdef real* y
    for b in range(batch):
        r = _row(t, b, steps, batch, batch_major)
        check_index(r * hidden + hidden - 1, steps * batch * hidden)
        o = acts + r * 4 * hidden + 3 * hidden
        ct = cell_tanh + b * hidden
        y = out + r * hidden
        memcpy(tanh_c + r * hidden, ct, hidden * sizeof(real))
        for j in range(hidden):
            y[j] = ct[j] * o[j]
        if running == NULL or running[at(t * batch + b, steps * batch)]:
            memcpy(h + b * hidden, y, hidden * sizeof(real))
            memcpy(c + b * hidden, cell + b * hidden, hidden * sizeof(real))
        elif zero_padding:
            for j in range(hidden):
                y[j] = y[j] * 0


def lstm_backward(g_out, g_h, g_c, weight_hh, acts, c_prev, tanh_c, running, bint reverse,
                  bint zero_padding, bint batch_major, dgates, dh, dc):
    """The gradients of :func:`lstm_forward` with respect to its input gates (into
    ``dgates``, laid out as ``acts``) and its initial states (into ``dh`` and ``dc``,
    ``[B, H]``), from the gradients of the outputs ``g_out`` and the final states
    ``g_h``, ``g_c`` (each None when nothing flows back through it) and what the
    forward kept."""
    dtype = _dtype_of(acts)
    cdef Py_ssize_t steps, batch, hidden
    if batch_major:
        batch, steps = acts.shape[0], acts.shape[1]
    else:
        steps, batch = acts.shape[0], acts.shape[1]
    hidden = acts.shape[2] // 4
    state_shape = acts.shape[:2] + (hidden,)
    _door(acts, "acts", dtype, acts.shape, False)
    _door(weight_hh, "weight_hh", dtype, (4 * hidden, hidden), False)
    for name, a in (("c_prev", c_prev), ("tanh_c", tanh_c)):
        _door(a, name, dtype, state_shape, False)
    if g_out is not None:
        _door(g_out, "g_out", dtype, state_shape, False)
    for name, a in (("g_h", g_h), ("g_c", g_c)):
        if a is not None:
            _door(a, name, dtype, (batch, hidden), False)
    if running is not None:
        _door(running, "running", np.bool_, (steps, batch), False)
    _door(dgates, "dgates", dtype, acts.shape, True)
    for name, a in (("dh", dh), ("dc", dc)):
        _door(a, name, dtype, (batch, hidden), True)
    if g_h is None:
        dh.fill(0)
    else:
        np.copyto(dh, g_h)
    if g_c is None:
        dc.fill(0)
    else:
        np.copyto(dc, g_c)
    step_grads = np.empty((batch, 4 * hidden), dtype)
    carry = np.zeros((batch, hidden), dtype)
    # The cell state's gradient alternates between dc and a second buffer (in, out).
    dc_in, dc_out = dc, np.empty((batch, hidden), dtype)
    cdef const cnp.npy_bool* run = NULL
    if running is not None:
        run = <const cnp.npy_bool*>cnp.PyArray_DATA(running)
    cdef const void* go = NULL
    if g_out is not None:
        go = cnp.PyArray_DATA(g_out)
    products = _column_blocks(batch, weight_hh, dh)
    cdef Py_ssize_t k, t, n = batch * hidden
    for k in range(steps):
        t = k if reverse else steps - 1 - k
        if dtype == np.float32:
            _gate_grads(<const float*>go, <const float*>cnp.PyArray_DATA(acts),
                        <const float*>cnp.PyArray_DATA(c_prev),
                        <const float*>cnp.PyArray_DATA(tanh_c), run, zero_padding,
                        <float*>cnp.PyArray_DATA(dh), <const float*>cnp.PyArray_DATA(dc_in),
                        <float*>cnp.PyArray_DATA(dc_out), <float*>cnp.PyArray_DATA(carry), <float*>cnp.PyArray_DATA(step_grads),
                        <float*>cnp.PyArray_DATA(dgates), t, steps, batch, hidden, batch_major)
        else:
            _gate_grads(<const double*>go, <const double*>cnp.PyArray_DATA(acts),
                        <const double*>cnp.PyArray_DATA(c_prev),
                        <const double*>cnp.PyArray_DATA(tanh_c), run, zero_padding,
                        <double*>cnp.PyArray_DATA(dh), <const double*>cnp.PyArray_DATA(dc_in),
                        <double*>cnp.PyArray_DATA(dc_out), <double*>cnp.PyArray_DATA(carry),
                        <double*>cnp.PyArray_DATA(step_grads),
                        <double*>cnp.PyArray_DATA(dgates), t, steps, batch, hidden, batch_major)
        dc_in, dc_out = dc_out, dc_in
        for right, block in products:
            _matmul(step_grads, right, out=block)
        if run != NULL:
            if dtype == np.float32:
                _add_into(<float*>cnp.PyArray_DATA(dh), <const float*>cnp.PyArray_DATA(carry), n)
            else:
                _add_into(<double*>cnp.PyArray_DATA(dh), <const double*>cnp.PyArray_DATA(carry),
                          n)
    if dc_in is not dc:
        np.copyto(dc, dc_in)


cdef void _add_into(real* acc, const real* x, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        acc[i] = acc[i] + x[i]


cdef void _gate_grads(const real* g_out, const real* acts, const real* c_prev,
                      const real* tanh_c, const cnp.npy_bool* running, bint zero_padding,
                      real* dh, const real* dc, real* dc_out, real* carry, real* step_grads,
                      real* dgates, Py_ssize_t t, Py_ssize_t steps, Py_ssize_t batch, Py_ssize_t hidden,
                      bint batch_major) noexcept nogil:
    """One step back: the gates' gradients into ``step_grads`` (``[B, 4H]``) and
    ``dgates``; the cell state's gradient for the step before into ``dc_out``; what the
    hidden state's gradient carries past the product (a finished sequence's) into
    ``carry``. ``dh`` and ``dc`` are the gradients of the step's outgoing states."""
    cdef Py_ssize_t b, j, r, width = 4 * hidden
    cdef const real* a
    cdef const real* go
    cdef real* d
    cdef real* dhb
    cdef const real* dcb
    cdef bint runs
    for b in range(batch):
        r = _row(t, b, steps, batch, batch_major)
        check_index(r * width + width - 1, steps * batch * width)
        a = acts + r * width
        d = step_grads + b * width
        dhb = dh + b * hidden
        dcb = dc + b * hidden
        go = NULL
        if g_out != NULL:
            go = g_out + r * hidden
        runs = running == NULL or running[at(t * batch + b, steps * batch)]
        if runs:
            memset(carry + b * hidden, 0, hidden * sizeof(real))
            _cell_grads(dhb, dcb, go, 1, a, c_prev + r * hidden, tanh_c + r * hidden, d,
                        dc_out + b * hidden, NULL, hidden)
        else:
            # A finished sequence: the outgoing states' gradients pass the step by; only
            # the output's gradient (when it is not zero padding) reaches the cell.
            memcpy(carry + b * hidden, dhb, hidden * sizeof(real))
            _cell_grads(NULL, NULL, go, 0 if zero_padding else 1, a, c_prev + r * hidden,
                        tanh_c + r * hidden, d, dc_out + b * hidden, dcb, hidden)
        memcpy(dgates + r * width, d, width * sizeof(real))


cdef inline void _cell_grads(const real* dh, const real* dc, const real* g_out, real scale,
                             const real* a, const real* cp, const real* tc, real* d,
                             real* dc_out, const real* carry, Py_ssize_t hidden) noexcept nogil:
    """The four gates' gradients of one sequence's step into ``d`` and ``dct * f`` plus
    ``carry`` (NULL: zero; a finished sequence's carried gradient) into ``dc_out``, from
    the outgoing states' gradients ``dh`` and ``dc`` (NULL: zero) and the output's
    ``g_out`` times ``scale`` (NULL: zero). Short loops over few arrays, so that the
    compiler vectorizes each: the hidden state's gradient waits in the o block of
    ``d``, ``dct`` in ``dc_out``."""
    cdef Py_ssize_t j
    cdef real* d_i = d
    cdef real* d_f = d + hidden
    cdef real* d_g = d + 2 * hidden
    cdef real* d_o = d + 3 * hidden
    cdef const real* i_ = a
    cdef const real* f_ = a + hidden
    cdef const real* g_ = a + 2 * hidden
    cdef const real* o_ = a + 3 * hidden
    if dh == NULL:
        memset(d_o, 0, hidden * sizeof(real))
    else:
        memcpy(d_o, dh, hidden * sizeof(real))
    if g_out != NULL:
        for j in range(hidden):
            d_o[j] = d_o[j] + g_out[j] * scale
    for j in range(hidden):
        dc_out[j] = (d_o[j] * o_[j]) * (1 - tc[j] * tc[j])
    if dc != NULL:
        for j in range(hidden):
            dc_out[j] = dc_out[j] + dc[j]
    for j in range(hidden):
        d_o[j] = (d_o[j] * tc[j]) * ((1 - o_[j]) * o_[j])
    for j in range(hidden):
        d_i[j] = (dc_out[j] * g_[j]) * ((1 - i_[j]) * i_[j])
    for j in range(hidden):
        d_f[j] = (dc_out[j] * cp[j]) * ((1 - f_[j]) * f_[j])
    for j in range(hidden):
        d_g[j] = (dc_out[j] * i_[j]) * (1 - g_[j] * g_[j])
    if carry == NULL:
        for j in range(hidden):
            dc_out[j] = dc_out[j] * f_[j]
    else:
        for j in range(hidden):
            dc_out[j] = dc_out[j] * f_[j] + carry[j]
