"""The recurrent layers of pylayer.nn against Paddle 3.3.1: parameter names, shapes and
initialisation, the gate order of each cell, sequence_length, time_major, initial
states, projections, dropout between layers, reprs, errors, gradients, training and
saving.

tests/nn/data/rnn_{lstm,gru}.pdparams and .npz were saved by the scratch Paddle 3.3.1
with tests/nn/data/rnn_make_fixtures.py: a 2-layer bidirectional LSTM / GRU (input 3,
hidden 4) after ``paddle.seed(7)``, its input ``x`` [2, 5, 3], the outputs and final
states, the gradient of x for the sum of outputs and states, and the outputs and states
with ``sequence_length=[5, 3]``.
"""
import pathlib

import numpy as np
import pytest

import pylayer
from pylayer import nn
from pylayer.autograd import gradcheck, gradgradcheck

DATA = pathlib.Path(__file__).parent / "data"


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def tensor(a, grad=False):
    return pylayer.to_tensor(np.asarray(a), stop_gradient=not grad)


def rand(*shape, seed=0, dtype="float32"):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def as_tuple(states):
    return states if isinstance(states, tuple) else (states,)


# ------------------------------------------------------------- Paddle's saved models
@pytest.mark.parametrize("name, cls", [("lstm", nn.LSTM), ("gru", nn.GRU)])
def test_a_model_saved_by_paddle_loads_and_gives_paddles_outputs(name, cls):
    data = np.load(DATA / f"rnn_{name}.npz")
    saved = pylayer.load(str(DATA / f"rnn_{name}.pdparams"))
    model = cls(3, 4, num_layers=2, direction="bidirect")
    assert list(model.state_dict()) == list(saved)
    assert model.set_state_dict(saved) == ([], [])
    x = tensor(data["x"], grad=True)
    out, states = model(x)
    states = as_tuple(states)
    (out.sum() + sum(s.sum() for s in states)).backward()
    np.testing.assert_allclose(out.numpy(), data["out"], atol=1e-6)
    np.testing.assert_allclose(np.stack([s.numpy() for s in states]), data["states"], atol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), data["x_grad"], atol=1e-6)
    out, states = model(tensor(data["x"]), sequence_length=tensor(data["lengths"]))
    np.testing.assert_allclose(out.numpy(), data["out_len"], atol=1e-6)
    np.testing.assert_allclose(np.stack([s.numpy() for s in as_tuple(states)]),
                               data["states_len"], atol=1e-6)


# ------------------------------------------------------------------ parameters
def test_network_state_dict_keys_are_paddles():
    model = nn.SimpleRNN(3, 4, num_layers=2, direction="bidirectional")
    per_layer = ["weight_ih_l{0}{1}", "weight_hh_l{0}{1}", "bias_ih_l{0}{1}", "bias_hh_l{0}{1}"]
    flat = [k.format(layer, suffix) for layer in range(2) for suffix in ("", "_reverse")
            for k in per_layer]
    cells = [f"{layer}.{cell}.{p}" for layer in range(2) for cell in ("cell_fw", "cell_bw")
             for p in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    assert list(model.state_dict()) == flat + cells
    assert len(model.parameters()) == 16
    assert model.weight_hh_l1_reverse is model[1].cell_bw.weight_hh
    assert list(nn.GRU(3, 4).state_dict()) == [
        "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "0.cell.weight_ih",
        "0.cell.weight_hh", "0.cell.bias_ih", "0.cell.bias_hh"]
    assert list(nn.RNN(nn.GRUCell(3, 4)).state_dict()) == [
        "cell.weight_ih", "cell.weight_hh", "cell.bias_ih", "cell.bias_hh"]


@pytest.mark.parametrize("cls, gates", [(nn.SimpleRNNCell, 1), (nn.LSTMCell, 4),
                                        (nn.GRUCell, 3)])
def test_cell_parameters_have_paddles_shapes_and_uniform_initialisation(cls, gates):
    pylayer.seed(1)
    cell = cls(3, 16)
    assert [(n, p.shape) for n, p in cell.named_parameters()] == [
        ("weight_ih", [gates * 16, 3]), ("weight_hh", [gates * 16, 16]),
        ("bias_ih", [gates * 16]), ("bias_hh", [gates * 16])]
    for p in cell.parameters():
        values = p.numpy()
        assert np.abs(values).max() <= 0.25 and np.abs(values).max() > 0.2
        assert not p.stop_gradient


def test_an_attribute_false_gives_a_constant_parameter_without_gradient_as_paddle():
    cell = nn.SimpleRNNCell(3, 4, weight_hh_attr=False, bias_ih_attr=False)
    assert cell.bias_ih.stop_gradient and cell.weight_hh.stop_gradient
    np.testing.assert_array_equal(cell.bias_ih.numpy(), np.zeros(4, "float32"))
    np.testing.assert_array_equal(cell.weight_hh.numpy(), np.ones([4, 4], "float32"))
    assert list(cell.state_dict()) == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]


def test_param_attr_initializer_is_used():
    init = pylayer.ParamAttr(initializer=nn.initializer.Constant(0.5))
    cell = nn.GRUCell(2, 3, weight_ih_attr=init)
    np.testing.assert_array_equal(cell.weight_ih.numpy(), np.full([9, 2], 0.5, "float32"))


# ------------------------------------------------------------------ gate order
def test_lstm_cell_gate_order_is_i_f_g_o():
    cell = nn.LSTMCell(3, 2)
    x, h0, c0 = rand(4, 3, seed=1), rand(4, 2, seed=2), rand(4, 2, seed=3)
    out, (h, c) = cell(tensor(x), (tensor(h0), tensor(c0)))
    w_ih, w_hh = cell.weight_ih.numpy(), cell.weight_hh.numpy()
    gates = x @ w_ih.T + cell.bias_ih.numpy() + h0 @ w_hh.T + cell.bias_hh.numpy()
    i, f, g, o = np.split(gates, 4, axis=1)
    c_ref = sigmoid(f) * c0 + sigmoid(i) * np.tanh(g)
    h_ref = sigmoid(o) * np.tanh(c_ref)
    np.testing.assert_allclose(c.numpy(), c_ref, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), h_ref, atol=1e-6)
    assert out is h


def test_gru_cell_gate_order_is_r_z_c_with_reset_after_the_product():
    cell = nn.GRUCell(3, 2)
    x, h0 = rand(4, 3, seed=1), rand(4, 2, seed=2)
    out, h = cell(tensor(x), tensor(h0))
    xg = x @ cell.weight_ih.numpy().T + cell.bias_ih.numpy()
    hg = h0 @ cell.weight_hh.numpy().T + cell.bias_hh.numpy()
    (xr, xz, xc), (hr, hz, hc) = np.split(xg, 3, axis=1), np.split(hg, 3, axis=1)
    r, z = sigmoid(xr + hr), sigmoid(xz + hz)
    c = np.tanh(xc + r * hc)
    np.testing.assert_allclose(h.numpy(), (h0 - c) * z + c, atol=1e-6)
    assert out is h


@pytest.mark.parametrize("activation, fn", [("tanh", np.tanh),
                                             ("relu", lambda a: np.maximum(a, 0))])
def test_simple_rnn_cell(activation, fn):
    cell = nn.SimpleRNNCell(3, 2, activation=activation)
    x = rand(4, 3, seed=1)
    out, h = cell(tensor(x))
    ref = fn(x @ cell.weight_ih.numpy().T + cell.bias_ih.numpy() + cell.bias_hh.numpy())
    np.testing.assert_allclose(h.numpy(), ref, atol=1e-6)


# ---------------------------------------------------------------- running over time
def reference_run(cell, x, h0):
    """The cell called step by step over the batch-first x."""
    states, outs = h0, []
    for t in range(x.shape[1]):
        out, states = cell(tensor(x[:, t]), states)
        outs.append(out.numpy())
    return np.stack(outs, axis=1), states


def test_rnn_runs_the_cell_over_time_and_in_reverse():
    cell = nn.GRUCell(3, 4)
    x = rand(2, 5, 3)
    out, h = nn.RNN(cell)(tensor(x))
    ref_out, ref_h = reference_run(cell, x, None)
    np.testing.assert_allclose(out.numpy(), ref_out, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), ref_h.numpy(), atol=1e-6)
    out, h = nn.RNN(cell, is_reverse=True)(tensor(x))
    ref_out, ref_h = reference_run(cell, x[:, ::-1].copy(), None)
    np.testing.assert_allclose(out.numpy(), ref_out[:, ::-1], atol=1e-6)
    np.testing.assert_allclose(h.numpy(), ref_h.numpy(), atol=1e-6)
    out_tm, h_tm = nn.RNN(cell, is_reverse=True, time_major=True)(
        tensor(x.transpose(1, 0, 2).copy()))
    np.testing.assert_allclose(out_tm.numpy(), ref_out[:, ::-1].transpose(1, 0, 2), atol=1e-6)


def test_rnn_with_sequence_length_keeps_the_state_and_outputs_the_cells_steps():
    # Paddle's RNN wrapper: the states stop at a sequence's length; its outputs past
    # the length are what the cell gives for the kept state (not zeros).
    cell = nn.LSTMCell(3, 4)
    x = rand(2, 5, 3)
    out, (h, c) = nn.RNN(cell)(tensor(x), sequence_length=tensor([5, 2]))
    short_out, (short_h, short_c) = nn.RNN(cell)(tensor(x[1:, :2]))
    np.testing.assert_allclose(h.numpy()[1], short_h.numpy()[0], atol=1e-6)
    np.testing.assert_allclose(c.numpy()[1], short_c.numpy()[0], atol=1e-6)
    np.testing.assert_allclose(out.numpy()[1, :2], short_out.numpy()[0], atol=1e-6)
    assert np.abs(out.numpy()[1, 2:]).min() > 0
    step, _ = cell(tensor(x[1:, 2]), (short_h, short_c))
    np.testing.assert_allclose(out.numpy()[1, 2], step.numpy()[0], atol=1e-6)


@pytest.mark.parametrize("cls", [nn.SimpleRNN, nn.LSTM, nn.GRU])
def test_network_outputs_zeros_past_each_length_and_keeps_its_state(cls):
    model = cls(3, 4, direction="bidirect")
    x = rand(2, 5, 3)
    out, states = model(tensor(x), sequence_length=tensor(np.array([5, 2], "int32")))
    short_out, short_states = model(tensor(x[1:, :2]))
    np.testing.assert_array_equal(out.numpy()[1, 2:], 0)
    np.testing.assert_allclose(out.numpy()[1, :2], short_out.numpy()[0], atol=1e-6)
    for s, short in zip(as_tuple(states), as_tuple(short_states)):
        np.testing.assert_allclose(s.numpy()[:, 1], short.numpy()[:, 0], atol=1e-6)


def test_birnn_concatenates_the_forward_and_backward_runs():
    fw, bw = nn.LSTMCell(3, 4), nn.LSTMCell(3, 2)
    x = rand(2, 5, 3)
    out, (states_fw, states_bw) = nn.BiRNN(fw, bw)(tensor(x))
    out_fw, _ = nn.RNN(fw)(tensor(x))
    out_bw, (h_bw, _) = nn.RNN(bw, is_reverse=True)(tensor(x))
    np.testing.assert_allclose(out.numpy(), np.concatenate([out_fw.numpy(), out_bw.numpy()], -1),
                               atol=1e-6)
    np.testing.assert_allclose(states_bw[0].numpy(), h_bw.numpy(), atol=1e-6)
    assert out.shape == [2, 5, 6]


def test_network_layers_chain_and_states_are_layer_major():
    model = nn.GRU(3, 4, num_layers=2, direction="bidirect", time_major=True)
    x = rand(5, 2, 3)
    h0 = rand(4, 2, 4, seed=5)
    out, h = model(tensor(x), tensor(h0))
    first, (h_fw, h_bw) = model[0](tensor(x), (tensor(h0[0]), tensor(h0[1])))
    second, (h2_fw, h2_bw) = model[1](first, (tensor(h0[2]), tensor(h0[3])))
    np.testing.assert_allclose(out.numpy(), second.numpy(), atol=1e-6)
    np.testing.assert_allclose(h.numpy(), np.stack([t.numpy() for t in
                                                    (h_fw, h_bw, h2_fw, h2_bw)]), atol=1e-6)
    assert out.shape == [5, 2, 8] and h.shape == [4, 2, 4]


def test_lstm_projection_shapes():
    model = nn.LSTM(3, 4, num_layers=2, direction="bidirect", proj_size=2)
    out, (h, c) = model(tensor(rand(2, 5, 3)))
    assert out.shape == [2, 5, 4] and h.shape == [4, 2, 2] and c.shape == [4, 2, 4]
    assert model[0].cell_fw.weight_ho.shape == [4, 2]
    assert model[1].cell_fw.weight_ih.shape == [16, 4]
    assert model.weight_ih_l0_reverse is model[0].cell_bw.weight_ih
    cell = nn.LSTMCell(3, 4, proj_size=2)
    out, (h, c) = cell(tensor(rand(2, 3)))
    assert out.shape == [2, 2] and c.shape == [2, 4]


def test_dropout_between_layers_in_training_only():
    pylayer.seed(3)
    model = nn.LSTM(3, 8, num_layers=2, dropout=0.5)
    x = tensor(rand(2, 5, 3))
    first, second = model(x)[0].numpy(), model(x)[0].numpy()
    assert not np.allclose(first, second)
    model.eval()
    np.testing.assert_array_equal(model(x)[0].numpy(), model(x)[0].numpy())


def test_get_initial_states():
    cell = nn.LSTMCell(3, 4)
    states = cell.get_initial_states(pylayer.ones([5, 3]), shape=((2,), (-1, 3)),
                                     dtype="float64", init_value=1.5)
    assert [(s.shape, s.dtype) for s in states] == [([5, 2], pylayer.float64),
                                                     ([5, 3], pylayer.float64)]
    assert float(states[0][0, 0]) == 1.5
    h, c = cell.get_initial_states(pylayer.ones([5, 3]))
    assert h.shape == [5, 4] and h.dtype == pylayer.float32
    assert nn.GRUCell(3, 4).get_initial_states(pylayer.ones([2, 7, 3]),
                                               batch_dim_idx=1).shape == [7, 4]
    with pytest.raises(NotImplementedError):
        nn.RNNCellBase().state_shape


def test_rnn_runs_a_user_cell_with_extra_arguments():
    class Scaled(nn.RNNCellBase):
        def __init__(self):
            super().__init__()
            self.inner = nn.SimpleRNNCell(3, 4)

        def forward(self, inputs, states=None, scale=1.0):
            out, h = self.inner(inputs, states)
            return out * scale, h

        @property
        def state_shape(self):
            return (4,)

    cell = Scaled()
    x = rand(2, 5, 3)
    out, h = nn.RNN(cell)(tensor(x), scale=2.0)
    ref_out, ref_h = nn.RNN(cell.inner)(tensor(x))
    np.testing.assert_allclose(out.numpy(), 2 * ref_out.numpy(), atol=1e-6)
    np.testing.assert_allclose(h.numpy(), ref_h.numpy(), atol=1e-6)


def test_reprs_are_paddles():
    assert repr(nn.SimpleRNN(3, 4, num_layers=2, direction="bidirectional", activation="relu",
                             dropout=0.1, time_major=True)) == """\
SimpleRNN(3, 4, num_layers=2, time_major=True, dropout=0.1
  (0): BiRNN(
    (cell_fw): SimpleRNNCell(3, 4, activation=relu)
    (cell_bw): SimpleRNNCell(3, 4, activation=relu)
  )
  (1): BiRNN(
    (cell_fw): SimpleRNNCell(8, 4, activation=relu)
    (cell_bw): SimpleRNNCell(8, 4, activation=relu)
  )
)"""
    assert repr(nn.GRU(3, 4)) == "GRU(3, 4\n  (0): RNN(\n    (cell): GRUCell(3, 4)\n  )\n)"
    assert repr(nn.LSTMCell(3, 4)) == "LSTMCell(3, 4)"
    assert repr(nn.SimpleRNNCell(3, 4)) == "SimpleRNNCell(3, 4)"


# ------------------------------------------------------------------------ errors
@pytest.mark.parametrize("call, error, words", [
    (lambda: nn.GRUCell(3, 0), ValueError, "hidden_size"),
    (lambda: nn.GRUCell(3, 2.5), TypeError, "hidden_size"),
    (lambda: nn.LSTM(3, 4, proj_size=4), ValueError, "proj_size"),
    (lambda: nn.SimpleRNNCell(3, 4, activation="sigmoid"), ValueError, "activation"),
    (lambda: nn.SimpleRNN(3, 4, activation="sigmoid"), ValueError, "activation"),
    (lambda: nn.GRU(3, 4, direction="back"), ValueError, "direction"),
    (lambda: nn.GRU(3, 4, num_layers=0), ValueError, "num_layers"),
    (lambda: nn.GRU(3, 4, dropout=2), ValueError, "dropout"),
    (lambda: nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(2, 4)), ValueError, "input size"),
    (lambda: nn.RNN("cell"), TypeError, "cell"),
    (lambda: nn.GRU(3, 4)(pylayer.ones([2, 5])), ValueError, "3-D"),
    (lambda: nn.GRU(3, 4)(pylayer.ones([2, 5, 3], "int32")), TypeError, "float32"),
    (lambda: nn.GRU(3, 4)(pylayer.ones([2, 5, 3]), pylayer.zeros([2, 2, 4])), ValueError,
     "[1, 2, 4]"),
    (lambda: nn.LSTM(3, 4)(pylayer.ones([2, 5, 3]), pylayer.zeros([1, 2, 4])), ValueError,
     "(h, c)"),
    (lambda: nn.GRU(3, 4)(pylayer.ones([2, 5, 3]), sequence_length=pylayer.ones([3], "int64")),
     ValueError, "sequence_length"),
    (lambda: nn.RNN(nn.GRUCell(3, 4))(pylayer.ones([2, 0, 3])), ValueError, "time steps"),
])
def test_bad_arguments_raise_naming_the_argument(call, error, words):
    with pytest.raises(error, match=None) as info:
        call()
    assert words in str(info.value)


# ---------------------------------------------------------------------- gradients
@pytest.mark.parametrize("cls", [nn.SimpleRNN, nn.LSTM, nn.GRU])
def test_network_gradients_and_second_order(cls):
    pylayer.set_default_dtype("float64")
    try:
        model = cls(2, 3, direction="bidirect")
    finally:
        pylayer.set_default_dtype("float32")
    x = pylayer.to_tensor(rand(2, 3, 2, dtype="float64"), stop_gradient=False)
    weight = model.weight_hh_l0

    def run(x, w):
        out, states = model(x)
        return out.sum() + sum(s.sum() for s in as_tuple(states))

    assert gradcheck(run, (x, weight))
    assert gradgradcheck(run, (x, weight))


@pytest.mark.parametrize("wrapper", ["network", "reverse_rnn"])
def test_lstm_gradients_with_lengths_and_initial_states_and_second_order(wrapper):
    pylayer.set_default_dtype("float64")
    try:
        model = nn.LSTM(2, 3) if wrapper == "network" else \
            nn.RNN(nn.LSTMCell(2, 3), is_reverse=True)
    finally:
        pylayer.set_default_dtype("float32")
    lengths = tensor([3, 1])

    def leaf(*shape, seed):
        return pylayer.to_tensor(rand(*shape, seed=seed, dtype="float64"), stop_gradient=False)

    lead = [1] if wrapper == "network" else []
    x, h0, c0 = leaf(2, 3, 2, seed=1), leaf(*lead, 2, 3, seed=2), leaf(*lead, 2, 3, seed=3)
    weight = model.parameters()[1]

    def run(x, h0, c0, w):
        out, (h, c) = model(x, (h0, c0), sequence_length=lengths)
        return (out * out).sum() + (h * c).sum()

    assert gradcheck(run, (x, h0, c0, weight))
    assert gradgradcheck(run, (x, h0, c0, weight))


def test_sequence_length_gradient_does_not_reach_padded_steps():
    model = nn.LSTM(2, 3)
    x = tensor(rand(2, 4, 2), grad=True)
    out, (h, c) = model(x, sequence_length=tensor([4, 1]))
    (out.sum() + h.sum() + c.sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy()[1, 1:], 0)
    assert np.abs(x.grad.numpy()[1, 0]).min() > 0


# --------------------------------------------------------------- training, saving
def test_a_small_model_trains_and_round_trips_through_save_and_load(tmp_path):
    pylayer.seed(0)
    lstm, gru, head = nn.LSTM(2, 8), nn.GRU(8, 8, direction="bidirect"), nn.Linear(16, 1)
    params = lstm.parameters() + gru.parameters() + head.parameters()
    optimizer = pylayer.optimizer.Adam(learning_rate=0.02, parameters=params)
    x = tensor(rand(8, 6, 2, seed=4))
    target = tensor(np.cumsum(x.numpy(), axis=1)[:, -1:, :1].reshape(8, 1))

    def predict(lstm, gru, head):
        out, _ = gru(lstm(x)[0])
        return head(out[:, -1])

    losses = []
    for _ in range(60):
        loss = ((predict(lstm, gru, head) - target) ** 2).mean()
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.3 * losses[0]
    path = str(tmp_path / "gru.pdparams")
    pylayer.save(gru.state_dict(), path)
    copy = nn.GRU(8, 8, direction="bidirect")
    assert copy.set_state_dict(pylayer.load(path)) == ([], [])
    np.testing.assert_array_equal(predict(lstm, copy, head).numpy(),
                                  predict(lstm, gru, head).numpy())
