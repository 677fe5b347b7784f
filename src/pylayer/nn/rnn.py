"""Recurrent layers: the cells ``SimpleRNNCell``, ``LSTMCell`` and ``GRUCell``, the
wrappers ``RNN`` and ``BiRNN`` that run a cell over time, and the multi-layer
networks ``SimpleRNN``, ``LSTM`` and ``GRU``.

A built-in cell run over a sequence projects the inputs of all steps with one
matrix product before the loop. An LSTM (without projection) then runs the whole
loop as one recorded op; the other cells do, per step, one product with the
recurrent weight and their gate arithmetic as recorded ops
(:mod:`pylayer.ops.recurrent`).
"""
import math

import numpy as np

from pylayer.extend import Tensor, check_count, get_default_dtype
from pylayer.nn import functional as F
from pylayer.nn.container import LayerList
from pylayer.nn.initializer import Constant, Uniform
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops.arithmetic import add, multiply
from pylayer.ops.creation import full, to_tensor
from pylayer.ops.linalg import matmul
from pylayer.ops.linear import linear
from pylayer.ops.manipulation import concat, stack, unstack
from pylayer.ops.math import tanh, where
from pylayer.ops.recurrent import gru_cell, lstm_cell, lstm_sequence
from pylayer.ops.shape import transpose

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN",
           "SimpleRNN", "LSTM", "GRU"]

_BIDIRECTIONAL = ("bidirect", "bidirectional")


def _check_size(value, cls, arg, minimum=1):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"{cls}(): argument '{arg}' must be an int, got "
                        f"{type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{cls}(): argument '{arg}' must be at least {minimum}, got {value}")
    return int(value)


def _map(fn, *structures):
    """``fn`` applied leaf by leaf to tensors nested in lists and tuples of one shape."""
    first = structures[0]
    if isinstance(first, (list, tuple)):
        mapped = [_map(fn, *items) for items in zip(*structures)]
        return mapped if isinstance(first, list) else tuple(mapped)
    return fn(*structures)


def _leaves(structure):
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in _leaves(item)]
    return [structure]


def _sequence(inputs, cls, arg="inputs"):
    if not isinstance(inputs, Tensor):
        raise TypeError(f"{cls}(): argument '{arg}' must be a Tensor, got "
                        f"{type(inputs).__name__}")
    if inputs.ndim != 3:
        raise ValueError(f"{cls}(): argument '{arg}' must be 3-D ([batch, time, features], "
                         f"or [time, batch, features] with time_major=True), got shape "
                         f"{inputs.shape}")
    if inputs.dtype not in ("float32", "float64"):
        raise TypeError(f"{cls}(): argument '{arg}' must be float32 or float64, got "
                        f"{inputs.dtype}")
    return inputs


def _step_input(inputs, cell):
    cls = type(cell).__name__
    if not isinstance(inputs, Tensor):
        raise TypeError(f"{cls}(): argument 'inputs' must be a Tensor, got "
                        f"{type(inputs).__name__}")
    if inputs.dtype not in ("float32", "float64"):
        raise TypeError(f"{cls}(): argument 'inputs' must be float32 or float64, got "
                        f"{inputs.dtype}")
    if inputs.ndim < 1 or inputs.shape[-1] != cell.input_size:
        raise ValueError(f"{cls}(): argument 'inputs' must end in the input size "
                         f"{cell.input_size}, got shape {inputs.shape}")
    return inputs


def _running(sequence_length, steps, batch, cls):
    """``[steps, batch, 1]`` bools: which sequences are still running at each step."""
    if sequence_length is None:
        return None
    lengths = sequence_length.numpy() if isinstance(sequence_length, Tensor) \
        else np.asarray(sequence_length)
    if lengths.dtype.kind not in "iu" or lengths.shape != (batch,):
        raise ValueError(f"{cls}(): argument 'sequence_length' must be an integer tensor of "
                         f"shape [{batch}] (one length per sequence), got "
                         f"{lengths.dtype} of shape {list(lengths.shape)}")
    return (np.arange(steps)[:, None] < lengths[None, :])[:, :, None]


class RNNCellBase(Layer):
    """The base of recurrent cells: one step maps an input and the states to an output
    and the new states. A cell says its states' shapes with ``state_shape`` (without
    the batch dimension), from which :meth:`get_initial_states` makes zeros.

    >>> import pylayer
    >>> cell = pylayer.nn.GRUCell(3, 5)
    >>> cell.get_initial_states(pylayer.ones([2, 3])).shape
    [2, 5]
    """

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0,
                           batch_dim_idx=0):
        """States filled with ``init_value``: one per shape of ``shape`` (default
        ``state_shape``), the batch size taken from dimension ``batch_dim_idx`` of
        ``batch_ref`` (the first tensor of a nested structure); a leading ``-1`` of a
        shape stands for the batch and is added when missing. ``dtype`` defaults to
        ``state_dtype``, or the default dtype when the cell has none."""
        ref = _leaves(batch_ref)[0]
        if not isinstance(ref, Tensor):
            raise TypeError(f"get_initial_states(): argument 'batch_ref' must be a Tensor "
                            f"or a structure of Tensors, got {type(ref).__name__}")
        batch = ref.shape[batch_dim_idx]
        shapes = self.state_shape if shape is None else shape
        if dtype is None:
            try:
                dtype = self.state_dtype
            except NotImplementedError:
                dtype = get_default_dtype()

        def is_shape(value):
            return isinstance(value, (list, tuple)) and all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value)

        def make(one_shape, one_dtype):
            dims = list(one_shape)
            dims = [batch] + dims[1:] if dims and dims[0] == -1 else [batch] + dims
            return full(dims, init_value, dtype=one_dtype)

        def build(shapes, dtypes):
            if is_shape(shapes):
                return make(shapes, dtypes)
            if not isinstance(shapes, (list, tuple)):
                raise TypeError(f"get_initial_states(): argument 'shape' must be a shape or "
                                f"a nested list/tuple of shapes, got {shapes!r}")
            if not isinstance(dtypes, (list, tuple)):
                dtypes = [dtypes] * len(shapes)
            built = [build(s, d) for s, d in zip(shapes, dtypes)]
            return built if isinstance(shapes, list) else tuple(built)

        return build(shapes, dtype)

    @property
    def state_shape(self):
        """The states' shapes without the batch dimension; cells define it."""
        raise NotImplementedError(f"{type(self).__name__} defines no state_shape: pass "
                                  f"the shapes to get_initial_states")

    @property
    def state_dtype(self):
        """The states' dtypes; when a cell defines none, the default dtype is used."""
        raise NotImplementedError(f"{type(self).__name__} defines no state_dtype")

    def _weights(self, cls, gates, input_size, hidden_size, recurrent_size, weight_ih_attr,
                 weight_hh_attr, bias_ih_attr, bias_hh_attr):
        """Paddle's parameters of a cell; an attribute ``False`` gives a constant one
        that takes no gradient (ones for a weight, zeros for a bias)."""
        self.input_size = _check_size(input_size, cls, "input_size")
        self.hidden_size = _check_size(hidden_size, cls, "hidden_size")
        rows = gates * hidden_size
        check_count(rows * (recurrent_size + 2), cls, "hidden_size")
        check_count(rows * input_size, cls, "input_size")
        attrs = {arg: ParamAttr._to_attr(attr, cls, arg) for arg, attr in (
            ("weight_ih_attr", weight_ih_attr), ("weight_hh_attr", weight_hh_attr),
            ("bias_ih_attr", bias_ih_attr), ("bias_hh_attr", bias_hh_attr))}
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr = attrs.values()
        bound = 1.0 / math.sqrt(hidden_size)
        for name, shape, attr, is_bias in (
                ("weight_ih", [rows, input_size], weight_ih_attr, False),
                ("weight_hh", [rows, recurrent_size], weight_hh_attr, False),
                ("bias_ih", [rows], bias_ih_attr, True),
                ("bias_hh", [rows], bias_hh_attr, True)):
            if attr is False:
                param = self.create_parameter(
                    shape, None, is_bias=is_bias,
                    default_initializer=Constant(0.0 if is_bias else 1.0))
                param.stop_gradient = True
            else:
                param = self.create_parameter(shape, attr, is_bias=is_bias,
                                              default_initializer=Uniform(-bound, bound))
            setattr(self, name, param)

    def _input_gates(self, inputs):
        """``inputs @ weight_ih.T + bias_ih`` (for a whole sequence at once; SimpleRNN
        and LSTM cells add ``bias_hh`` there too)."""
        return linear(inputs, transpose(self.weight_ih, [1, 0]), self.bias_ih)


class SimpleRNNCell(RNNCellBase):
    """An Elman cell: ``h = act(x @ weight_ih.T + bias_ih + h_prev @ weight_hh.T +
    bias_hh)``, with ``act`` tanh or relu. Returns ``(h, h)``.

    >>> import pylayer
    >>> cell = pylayer.nn.SimpleRNNCell(3, 4)
    >>> out, h = cell(pylayer.ones([2, 3]))
    >>> out.shape, cell.weight_ih.shape, cell.weight_hh.shape
    ([2, 4], [4, 3], [4, 4])
    """

    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        if activation not in ("tanh", "relu"):
            raise ValueError(f"SimpleRNNCell(): argument 'activation' must be 'tanh' or "
                             f"'relu', got {activation!r}")
        self._weights("SimpleRNNCell", 1, input_size, hidden_size, hidden_size,
                      weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.activation = activation

    def _input_gates(self, inputs):
        return linear(inputs, transpose(self.weight_ih, [1, 0]), add(self.bias_ih, self.bias_hh))

    def _step(self, x_gates, state):
        h = add(x_gates, matmul(state, self.weight_hh, transpose_y=True))
        h = tanh(h) if self.activation == "tanh" else F.relu(h)
        return h, h

    def forward(self, inputs, states=None):
        _step_input(inputs, self)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        return self._step(self._input_gates(inputs), states)

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        return text if self.activation == "tanh" else text + f", activation={self.activation}"


class LSTMCell(RNNCellBase):
    """A long short-term memory cell. The gate blocks of ``weight_ih``, ``weight_hh`` and
    the biases are, in order, input ``i``, forget ``f``, cell ``g`` and output ``o``:
    ``c = f * c_prev + i * g``, ``h = o * tanh(c)``, with sigmoid gates and tanh
    ``g``. With ``proj_size`` > 0, ``h`` is then projected by ``weight_ho``
    (``[hidden_size, proj_size]``). Returns ``(h, (h, c))``.

    >>> import pylayer
    >>> cell = pylayer.nn.LSTMCell(3, 4)
    >>> out, (h, c) = cell(pylayer.ones([2, 3]))
    >>> out.shape, c.shape, cell.weight_ih.shape
    ([2, 4], [2, 4], [16, 3])
    """

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__()
        hidden_size = _check_size(hidden_size, "LSTMCell", "hidden_size")
        proj_size = _check_size(proj_size, "LSTMCell", "proj_size", minimum=0)
        if proj_size >= hidden_size:
            raise ValueError(f"LSTMCell(): argument 'proj_size' must be smaller than "
                             f"hidden_size ({hidden_size}), got {proj_size}")
        self._weights("LSTMCell", 4, input_size, hidden_size, proj_size or hidden_size,
                      weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.proj_size = proj_size
        if proj_size:
            bound = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter(
                [hidden_size, proj_size], weight_hh_attr if weight_hh_attr is not False
                else None, default_initializer=Uniform(-bound, bound))

    def _input_gates(self, inputs):
        return linear(inputs, transpose(self.weight_ih, [1, 0]), add(self.bias_ih, self.bias_hh))

    def _step(self, x_gates, states):
        h_prev, c_prev = states
        gates = add(x_gates, matmul(h_prev, self.weight_hh, transpose_y=True))
        h, c = lstm_cell(gates, c_prev)
        if self.proj_size:
            h = matmul(h, self.weight_ho)
        return h, (h, c)

    def forward(self, inputs, states=None):
        _step_input(inputs, self)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        return self._step(self._input_gates(inputs), states)

    @property
    def state_shape(self):
        """``((proj_size or hidden_size,), (hidden_size,))``: the shapes of h and c."""
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(RNNCellBase):
    """A gated recurrent unit. The gate blocks are, in order, reset ``r``, update ``z``
    and candidate ``c``; the reset gate multiplies the recurrent projection after the
    matrix product: ``c = tanh(x_c + r * (h_prev @ W_hc.T + b_hc))`` and
    ``h = (h_prev - c) * z + c``. Returns ``(h, h)``.

    >>> import pylayer
    >>> cell = pylayer.nn.GRUCell(3, 4)
    >>> out, h = cell(pylayer.ones([2, 3]))
    >>> out.shape, cell.weight_hh.shape
    ([2, 4], [12, 4])
    """

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        self._weights("GRUCell", 3, input_size, hidden_size, hidden_size, weight_ih_attr,
                      weight_hh_attr, bias_ih_attr, bias_hh_attr)

    def _step(self, x_gates, state):
        h_gates = add(matmul(state, self.weight_hh, transpose_y=True), self.bias_hh)
        h = gru_cell(x_gates, h_gates, state)
        return h, h

    def forward(self, inputs, states=None):
        _step_input(inputs, self)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        return self._step(self._input_gates(inputs), states)

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


_BUILT_IN = (SimpleRNNCell, LSTMCell, GRUCell)


def _run(cell, inputs, states, sequence_length, time_major, is_reverse, zero_padding,
         kwargs, cls):
    """Run ``cell`` over the time axis of ``inputs``: ``(outputs, final_states)``.

    Steps at or past a sequence's length keep its state; their outputs are zeros
    with ``zero_padding`` (the multi-layer networks) and the cell's outputs
    otherwise (``RNN``), as in Paddle."""
    _sequence(inputs, cls)
    if states is None:
        states = cell.get_initial_states(inputs, batch_dim_idx=1 if time_major else 0)
    steps, batch = inputs.shape[:2] if time_major else inputs.shape[1::-1]
    if not steps:
        raise ValueError(f"{cls}(): argument 'inputs' has no time steps")
    running = _running(sequence_length, steps, batch, cls)
    if type(cell) is LSTMCell and not cell.proj_size and not kwargs:
        h0, c0 = states
        for arg, state in (("h", h0), ("c", c0)):
            if not isinstance(state, Tensor) or state.shape != [batch, cell.hidden_size]:
                raise ValueError(f"{cls}(): the initial state {arg} must be a tensor of shape "
                                 f"{[batch, cell.hidden_size]}, got {state!r}")
        out, h, c = lstm_sequence(cell._input_gates(inputs), h0, c0, cell.weight_hh, running,
                                  is_reverse, zero_padding, batch_major=not time_major)
        return out, (h, c)
    steps_first = inputs if time_major else transpose(inputs, [1, 0, 2])
    masks = None if running is None else [to_tensor(m) for m in running]
    order = range(steps - 1, -1, -1) if is_reverse else range(steps)
    if type(cell) in _BUILT_IN and not kwargs:
        step_inputs = unstack(cell._input_gates(steps_first), axis=0)
        step = cell._step
    else:
        step_inputs = unstack(steps_first, axis=0)

        def step(x, s):
            return cell(x, s, **kwargs)
    outputs = [None] * steps
    for t in order:
        out, new_states = step(step_inputs[t], states)
        if masks is not None:
            new_states = _map(lambda new, old, m=masks[t]: where(m, new, old),
                              new_states, states)
            if zero_padding:
                out = _map(lambda o, m=masks[t]: multiply(o, m.astype(o.dtype)), out)
        states = new_states
        outputs[t] = out
    axis = 0 if time_major else 1
    return _map(lambda *outs: stack(list(outs), axis=axis), *outputs), states


class RNN(Layer):
    """Runs ``cell`` over the time steps of its input. ``forward(inputs,
    initial_states=None, sequence_length=None, **kwargs)`` returns ``(outputs,
    final_states)``, the cell's outputs stacked along the time axis; a sequence stops
    updating its states at its ``sequence_length``.

    >>> import pylayer
    >>> rnn = pylayer.nn.RNN(pylayer.nn.GRUCell(3, 5))
    >>> outputs, h = rnn(pylayer.ones([2, 4, 3]))
    >>> outputs.shape, h.shape
    ([2, 4, 5], [2, 5])
    """

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        if not isinstance(cell, RNNCellBase):
            raise TypeError(f"RNN(): argument 'cell' must be an RNNCellBase, got "
                            f"{type(cell).__name__}")
        self.cell = cell
        self.is_reverse = bool(is_reverse)
        self.time_major = bool(time_major)

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return self._run(inputs, initial_states, sequence_length, False, kwargs)

    def _run(self, inputs, initial_states, sequence_length, zero_padding, kwargs):
        return _run(self.cell, inputs, initial_states, sequence_length, self.time_major,
                    self.is_reverse, zero_padding, kwargs, "RNN")


class BiRNN(Layer):
    """Runs ``cell_fw`` forward and ``cell_bw`` backward over time and concatenates
    their outputs along the last axis. ``forward(inputs, initial_states=None,
    sequence_length=None, **kwargs)`` takes ``initial_states`` as a pair (forward
    cell's, backward cell's) and returns ``(outputs, (states_fw, states_bw))``.

    >>> import pylayer
    >>> rnn = pylayer.nn.BiRNN(pylayer.nn.LSTMCell(3, 5), pylayer.nn.LSTMCell(3, 5))
    >>> outputs, ((h_fw, c_fw), (h_bw, c_bw)) = rnn(pylayer.ones([2, 4, 3]))
    >>> outputs.shape, h_bw.shape
    ([2, 4, 10], [2, 5])
    """

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        for arg, cell in (("cell_fw", cell_fw), ("cell_bw", cell_bw)):
            if not isinstance(cell, RNNCellBase):
                raise TypeError(f"BiRNN(): argument '{arg}' must be an RNNCellBase, got "
                                f"{type(cell).__name__}")
        if getattr(cell_fw, "input_size", None) != getattr(cell_bw, "input_size", None):
            raise ValueError(f"BiRNN(): the input size of cell_fw ({cell_fw.input_size}) "
                             f"differs from that of cell_bw ({cell_bw.input_size})")
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        self.time_major = bool(time_major)

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return self._run(inputs, initial_states, sequence_length, False, kwargs)

    def _run(self, inputs, initial_states, sequence_length, zero_padding, kwargs):
        if initial_states is None:
            states_fw = states_bw = None
        elif isinstance(initial_states, (list, tuple)) and len(initial_states) == 2:
            states_fw, states_bw = initial_states
        else:
            raise ValueError("BiRNN(): argument 'initial_states' must be a pair (states of "
                             "cell_fw, states of cell_bw)")
        out_fw, states_fw = _run(self.cell_fw, inputs, states_fw, sequence_length,
                                 self.time_major, False, zero_padding, kwargs, "BiRNN")
        out_bw, states_bw = _run(self.cell_bw, inputs, states_bw, sequence_length,
                                 self.time_major, True, zero_padding, kwargs, "BiRNN")
        outputs = _map(lambda a, b: concat([a, b], axis=-1), out_fw, out_bw)
        return outputs, (states_fw, states_bw)


class RNNBase(LayerList):
    """The multi-layer network that ``SimpleRNN``, ``LSTM`` and ``GRU`` build: one
    ``RNN`` (or ``BiRNN``) per layer, dropout between layers in training mode. Its
    parameters are also reachable as ``weight_ih_l{k}``, ``weight_hh_l{k}``,
    ``bias_ih_l{k}`` and ``bias_hh_l{k}`` (``_reverse`` for the backward direction)."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0):
        super().__init__()
        cls = type(self).__name__
        _check_size(input_size, cls, "input_size")
        _check_size(hidden_size, cls, "hidden_size")
        num_layers = _check_size(num_layers, cls, "num_layers")
        check_count(8 * hidden_size * (2 * hidden_size + 2), cls, "hidden_size")
        check_count(8 * hidden_size * input_size, cls, "input_size")
        check_count(num_layers * 8 * hidden_size * (input_size + 4 * hidden_size + 2), cls,
                    "num_layers")
        if direction not in ("forward",) + _BIDIRECTIONAL:
            raise ValueError(f"{cls}(): argument 'direction' must be 'forward', 'bidirect' "
                             f"or 'bidirectional', got {direction!r}")
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) \
                or not 0 <= dropout <= 1:
            raise ValueError(f"{cls}(): argument 'dropout' must be a number in [0, 1], got "
                             f"{dropout!r}")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = bool(time_major)
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = proj_size
        kwargs = {arg: ParamAttr._to_attr(attr, cls, arg) for arg, attr in (
            ("weight_ih_attr", weight_ih_attr), ("weight_hh_attr", weight_hh_attr),
            ("bias_ih_attr", bias_ih_attr), ("bias_hh_attr", bias_hh_attr))}
        if mode == "LSTM":
            make = LSTMCell
            kwargs["proj_size"] = proj_size
        elif mode == "GRU":
            make = GRUCell
        else:
            make = SimpleRNNCell
            kwargs["activation"] = "relu" if mode == "RNN_RELU" else "tanh"
        layer_out = (proj_size or hidden_size) * self.num_directions
        for layer in range(num_layers):
            size = input_size if layer == 0 else layer_out
            if self.num_directions == 1:
                self.append(RNN(make(size, hidden_size, **kwargs), False, self.time_major))
            else:
                self.append(BiRNN(make(size, hidden_size, **kwargs),
                                  make(size, hidden_size, **kwargs), self.time_major))
        for layer, rnn in enumerate(self):
            cells = [rnn.cell] if self.num_directions == 1 else [rnn.cell_fw, rnn.cell_bw]
            for cell, suffix in zip(cells, ("", "_reverse")):
                for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
                    setattr(self, f"{name}_l{layer}{suffix}", getattr(cell, name))

    def forward(self, inputs, initial_states=None, sequence_length=None):
        cls = type(self).__name__
        _sequence(inputs, cls)
        batch = inputs.shape[1 if self.time_major else 0]
        count = self.num_layers * self.num_directions
        sizes = ([self.proj_size or self.hidden_size], [self.hidden_size])
        if initial_states is None:
            initial_states = tuple(full([count, batch] + sizes[i], 0, dtype=inputs.dtype)
                                   for i in range(self.state_components))
        elif isinstance(initial_states, Tensor):
            initial_states = (initial_states,)
        if not isinstance(initial_states, (list, tuple)) or \
                len(initial_states) != self.state_components:
            what = "a pair of tensors (h, c)" if self.state_components == 2 else "a tensor"
            raise ValueError(f"{cls}(): argument 'initial_states' must be {what} of shape "
                             f"[num_layers * num_directions, batch, size]")
        for i, state in enumerate(initial_states):
            expected = [count, batch] + sizes[i]
            if not isinstance(state, Tensor) or state.shape != expected:
                got = state.shape if isinstance(state, Tensor) else type(state).__name__
                raise ValueError(f"{cls}(): argument 'initial_states' must hold tensors of "
                                 f"shape {expected}, got {got}")
        per_cell = [unstack(state, axis=0) for state in initial_states]
        per_cell = list(zip(*per_cell)) if self.state_components == 2 else per_cell[0]
        zero_padding = not self.proj_size
        finals = []
        for layer, rnn in enumerate(self):
            if layer > 0:
                inputs = F.dropout(inputs, self.dropout, training=self.training,
                                   mode="upscale_in_train")
            if self.num_directions == 1:
                states = per_cell[layer]
            else:
                states = (per_cell[2 * layer], per_cell[2 * layer + 1])
            inputs, final = rnn._run(inputs, states, sequence_length, zero_padding, {})
            finals.extend([final] if self.num_directions == 1 else list(final))
        if self.state_components == 1:
            return inputs, stack(finals, axis=0)
        return inputs, tuple(stack([f[i] for f in finals], axis=0) for i in range(2))

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.time_major:
            text += f", time_major={self.time_major}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        return text


_NETWORK_INPUTS = """
    ``forward(inputs, initial_states=None, sequence_length=None)``: ``inputs`` is
    ``[batch, time, input_size]`` (``[time, batch, input_size]`` with ``time_major``);
    the states are ``[num_layers * num_directions, batch, hidden_size]``, zeros when
    not given. Past a sequence's ``sequence_length`` the states are kept and the
    outputs are zeros. Returns ``(outputs, final_states)``; outputs have
    ``num_directions * hidden_size`` features."""


class SimpleRNN(RNNBase):
    __doc__ = """A multi-layer Elman network of :class:`SimpleRNNCell` (``activation`` tanh
    or relu), ``direction`` ``'forward'`` or ``'bidirect'``/``'bidirectional'``, with
    ``dropout`` on the inputs of every layer but the first in training mode.""" \
        + _NETWORK_INPUTS + """

    >>> import pylayer
    >>> rnn = pylayer.nn.SimpleRNN(3, 5, num_layers=2)
    >>> outputs, h = rnn(pylayer.ones([2, 4, 3]))
    >>> outputs.shape, h.shape
    ([2, 4, 5], [2, 2, 5])
    """

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        if activation not in ("tanh", "relu"):
            raise ValueError(f"SimpleRNN(): argument 'activation' must be 'tanh' or 'relu', "
                             f"got {activation!r}")
        self.activation = activation
        super().__init__("RNN_TANH" if activation == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)


class LSTM(RNNBase):
    __doc__ = """A multi-layer LSTM of :class:`LSTMCell` (gate order i, f, g, o),
    ``direction`` ``'forward'`` or ``'bidirect'``/``'bidirectional'``, with ``dropout``
    on the inputs of every layer but the first in training mode, and ``proj_size``
    to project h.""" + _NETWORK_INPUTS + """ The states are a pair ``(h, c)``.

    >>> import pylayer
    >>> lstm = pylayer.nn.LSTM(3, 5, direction='bidirect')
    >>> outputs, (h, c) = lstm(pylayer.ones([2, 4, 3]))
    >>> outputs.shape, h.shape, c.shape
    ([2, 4, 10], [2, 2, 5], [2, 2, 5])
    """

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        hidden_size = _check_size(hidden_size, "LSTM", "hidden_size")
        proj_size = _check_size(proj_size, "LSTM", "proj_size", minimum=0)
        if proj_size >= hidden_size:
            raise ValueError(f"LSTM(): argument 'proj_size' must be smaller than hidden_size "
                             f"({hidden_size}), got {proj_size}")
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         proj_size)


class GRU(RNNBase):
    __doc__ = """A multi-layer GRU of :class:`GRUCell` (gate order r, z, c),
    ``direction`` ``'forward'`` or ``'bidirect'``/``'bidirectional'``, with ``dropout``
    on the inputs of every layer but the first in training mode.""" + _NETWORK_INPUTS + """

    >>> import pylayer
    >>> gru = pylayer.nn.GRU(3, 5, time_major=True)
    >>> outputs, h = gru(pylayer.ones([4, 2, 3]))
    >>> outputs.shape, h.shape
    ([4, 2, 5], [1, 2, 5])
    """

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         0)
