"""What a PyLayer's forward returned and what its backward returns, in plain Python:
where each output Tensor sits (:class:`Outputs`), and how backward's result is
checked and spread over the inputs (:func:`spread_gradients`). ``_apply`` calls
them; what they hand back is used only through checked operations.
"""
from pylayer._core.tensor import Tensor, unmade_tensor_error
from pylayer.ops.reduction import unbroadcast
from pylayer.ops.shape import reshape

__all__ = []


class Outputs:
    """Where each Tensor sits in what ``forward`` returned (a tuple or list).

    ``tensors`` is the flat list of output Tensors; ``slots`` has one entry per
    output slot, a flat index (a Tensor) or a list of them (a list/tuple holding
    Tensors), and stays None while slot k is output k. ``replace(k, t)`` puts
    ``t`` where flat output ``k`` was.

    >>> import pylayer as paddle
    >>> a, b = paddle.ones([1]), paddle.zeros([1])
    >>> outputs = Outputs((a, 5, [b, "x"]))
    >>> len(outputs.tensors), outputs.slots
    (2, [0, [1]])
    """
    __slots__ = ("returned", "items", "tensors", "places", "slots")

    def __init__(self, returned):
        self.returned = returned
        self.tensors, self.places, self.slots = [], [], None
        self.items = list(returned) if isinstance(returned, (tuple, list)) else [returned]
        for i, item in enumerate(self.items):
            if isinstance(item, Tensor):
                if self.slots is not None:
                    self.slots.append(len(self.tensors))
                self.tensors.append(item)
                self.places.append((i, None))
            elif isinstance(item, (list, tuple)):
                span = []
                for j, inner in enumerate(item):
                    if isinstance(inner, Tensor):
                        span.append(len(self.tensors))
                        self.tensors.append(inner)
                        self.places.append((i, j))
                if span:
                    if self.slots is None:
                        self.slots = list(range(len(self.tensors) - len(span)))
                    self.slots.append(span)

    def replace(self, k, tensor):
        self.tensors[k] = tensor
        i, j = self.places[k]
        if j is None:
            self.items[i] = tensor
        elif isinstance(self.items[i], list):
            self.items[i][j] = tensor      # lists are updated in place, like the top level
        else:
            inner = list(self.items[i])
            inner[j] = tensor
            self.items[i] = tuple(inner)

    def result(self):
        """The object to hand back: same shape as what forward returned."""
        if isinstance(self.returned, list):
            self.returned[:] = self.items
            return self.returned
        if isinstance(self.returned, tuple):
            return tuple(self.items)
        return self.items[0]


def name_the_layer(exc, name):
    """Put the layer's name in front of an error raised by the user's backward.

    The exception keeps its type when its message is a plain string; otherwise
    it is chained to a RuntimeError that carries both.

    >>> name_the_layer(ValueError("bad"), "GradNodePyLayer_Tanh")
    ValueError('in backward of GradNodePyLayer_Tanh: bad')
    """
    prefix = f"in backward of {name}"
    if not exc.args:
        exc.args = (prefix,)
        return exc
    if len(exc.args) == 1 and isinstance(exc.args[0], str):
        exc.args = (f"{prefix}: {exc.args[0]}",)
        return exc
    return RuntimeError(f"{prefix}: {type(exc).__name__}: {exc}")


def spread_gradients(name, needs, spans, input_shapes, result):
    """Check what the user's backward returned and spread it over the node's inputs:
    one gradient (or None) per flat input. ``needs`` says per input slot whether it
    needs a gradient, ``spans`` which flat inputs each slot holds (None: slot i is
    input i), ``input_shapes`` the flat inputs' shapes; ``name`` labels errors."""
    n_slots = len(needs)
    n_values = len(result) if isinstance(result, tuple) else 1
    if not isinstance(result, tuple) and isinstance(result, list) and n_slots > 1 and (
            spans is None or not isinstance(spans[0], list)):
        raise ValueError(
            f"{name}: backward returned a list of {len(result)}, but forward has "
            f"{n_slots} Tensor inputs: return a tuple with one gradient (or None) per "
            f"input (only a tuple is unpacked; a list is the gradient of one list input)")
    if n_values > n_slots:
        raise ValueError(
            f"{name}: backward returned {n_values} gradients, but forward has "
            f"{n_slots} Tensor input(s); the number of gradients should be {n_slots}, "
            f"but received {n_values}")
    flat = [None] * len(input_shapes)
    for i in range(n_slots):
        if i >= n_values:
            if needs[i]:
                raise ValueError(
                    f"{name}: backward returned no gradient at position {i}, but that "
                    f"input of forward needs one (stop_gradient=False); return a Tensor (or "
                    f"None for no gradient) at position {i}")
            continue
        value = result[i] if isinstance(result, tuple) else result
        if value is None:
            continue
        if not needs[i]:
            raise ValueError(
                f"{name}: backward must return None at position {i}, because that "
                f"input of forward has stop_gradient=True, but it returned "
                f"{type(value).__name__}")
        span = i if spans is None else spans[i]
        if isinstance(span, int):
            flat[span] = _shaped(value, input_shapes[span], name, f"position {i}")
            continue
        if not isinstance(value, (list, tuple)) or len(value) != len(span):
            got = (f"{type(value).__name__} of length {len(value)}"
                   if isinstance(value, (list, tuple)) else type(value).__name__)
            raise ValueError(
                f"{name}: input {i} of forward is a list of {len(span)} Tensors, so "
                f"backward must return a list of {len(span)} gradients (or None) at position "
                f"{i}, but it returned {got}")
        for j, (k, item) in enumerate(zip(span, value)):
            if item is not None:
                flat[k] = _shaped(item, input_shapes[k], name, f"position {i}, item {j}")
    return flat


def _shaped(value, shape, name, where):
    """A gradient shaped like its input: one that differs only by size-1 dimensions is
    reshaped, one the input broadcasts to is summed down; anything else is an error."""
    if not isinstance(value, Tensor):
        raise ValueError(f"{name}: backward must return a Tensor or None at {where}, "
                         f"but it returned {type(value).__name__}")
    unmade = unmade_tensor_error(value, f"{name}: the gradient backward returned at {where}")
    if unmade is not None:
        raise unmade
    got = tuple(value.shape)
    if got == tuple(shape):
        return value
    if [d for d in got if d != 1] == [d for d in shape if d != 1]:
        return reshape(value, list(shape))
    if len(got) >= len(shape) and all(s in (1, g) for s, g in zip(shape[::-1], got[::-1])):
        return unbroadcast(value, shape)
    raise ValueError(f"{name}: backward returned a gradient of shape {list(got)} at "
                     f"{where}, but that input of forward has shape {list(shape)}; a gradient "
                     f"may differ from it only by size-1 dimensions, or broadcast from it")
