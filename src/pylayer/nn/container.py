"""Containers: ``LayerList``, ``LayerDict``, ``ParameterList``, ``ParameterDict``.

Their members are registered sub-layers or parameters, so ``parameters()`` and
``state_dict()`` find them: a list's members are named ``"0"``, ``"1"``, ...,
a dict's by their keys.
"""
from collections.abc import Mapping

from pylayer.autograd import no_grad
from pylayer.extend import Tensor, describe
from pylayer.nn.layer import Layer, _is_parameter

__all__ = ["LayerList", "LayerDict", "ParameterList", "ParameterDict"]


def _checked_layer(layer, where):
    if not isinstance(layer, Layer):
        raise TypeError(f"{where} must be a Layer, got {describe(layer)}")
    return layer


def _checked_parameter(parameter, where):
    if not _is_parameter(parameter):
        raise TypeError(f"{where} must be a Parameter (made by create_parameter), got "
                        f"{describe(parameter)}")
    return parameter


def _position(index, size, where):
    """``index`` as a position in ``range(size)``, Python's rules for negative values."""
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"{where}: an index must be an int, got {describe(index)}")
    if not -size <= index < size:
        raise IndexError(f"{where}: index {index} is out of range, should be an integer in "
                         f"range [{-size}, {size})")
    return index % size


def _pairs(items, kind, where):
    """The ``(key, value)`` pairs of a mapping or of a sequence of pairs."""
    if isinstance(items, ParameterDict):
        return [(key, items[key]) for key in items]
    if isinstance(items, (Mapping, LayerDict)):
        return list(items.items())
    if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
        raise TypeError(f"{where}: argument '{kind}' must be a mapping or an iterable of "
                        f"(key, value) pairs, got {describe(items)}")
    pairs = []
    for i, pair in enumerate(items):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            length = len(pair) if hasattr(pair, "__len__") else describe(pair)
            raise ValueError(f"{where}: item {i} of argument '{kind}' must be a (key, value) "
                             f"pair, got length {length}")
        pairs.append(tuple(pair))
    return pairs


class LayerList(Layer):
    """A list of sub-layers, registered so that ``parameters()`` finds them.

    Indexing, slicing (a new ``LayerList``), ``len``, iteration, ``+``, ``+=``,
    ``append``, ``extend``, ``insert``, ``pop``, assignment and ``del`` work as
    for a Python list; the layers are renumbered ``"0"``, ``"1"``, ... after a
    deletion. It has no ``forward``: call its layers yourself.

    >>> import pylayer
    >>> blocks = pylayer.nn.LayerList([pylayer.nn.Linear(2, 2) for _ in range(3)])
    >>> _ = blocks.append(pylayer.nn.Linear(2, 1))
    >>> len(blocks), len(blocks.parameters()), blocks[-1].weight.shape
    (4, 8, [2, 1])
    >>> list(blocks[1:].state_dict())[:2]
    ['0.weight', '0.bias']
    """

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self._extend(sublayers, "LayerList()")

    def _renumber(self, layers):
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def __getitem__(self, idx):
        layers = list(self._sub_layers.values())
        if isinstance(idx, slice):
            return type(self)(layers[idx])
        return layers[_position(idx, len(layers), "LayerList")]

    def __setitem__(self, idx, sublayer):
        position = _position(idx, len(self), "LayerList")
        self._sub_layers[str(position)] = _checked_layer(sublayer, "LayerList: the value")

    def __delitem__(self, idx):
        layers = list(self._sub_layers.values())
        if isinstance(idx, slice):
            del layers[idx]
        else:
            del layers[_position(idx, len(layers), "LayerList")]
        self._renumber(layers)

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return LayerList(self)._extend(other, "LayerList.__add__()")

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, sublayer):
        """Add ``sublayer`` at the end; returns the list."""
        _checked_layer(sublayer, "LayerList.append(): argument 'sublayer' (position 1)")
        self._sub_layers[str(len(self))] = sublayer
        return self

    def insert(self, index, sublayer):
        """Put ``sublayer`` before position ``index``, one of ``-len(self) .. len(self)``."""
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"LayerList.insert(): argument 'index' (position 1) must be an "
                            f"int, got {describe(index)}")
        if not -len(self) <= index <= len(self):
            raise IndexError(f"LayerList.insert(): argument 'index' (position 1) must be in "
                             f"range [{-len(self)}, {len(self)}], got {index}")
        _checked_layer(sublayer, "LayerList.insert(): argument 'sublayer' (position 2)")
        layers = list(self._sub_layers.values())
        layers.insert(index, sublayer)
        self._renumber(layers)

    def extend(self, sublayers):
        """Append every layer of the iterable ``sublayers``; returns the list."""
        return self._extend(sublayers, "LayerList.extend()")

    def _extend(self, sublayers, where):
        if isinstance(sublayers, (str, bytes, Mapping)) or not hasattr(sublayers, "__iter__"):
            raise TypeError(f"{where}: argument 'sublayers' (position 1) must be an iterable "
                            f"of Layers, got {describe(sublayers)}")
        layers = list(sublayers)
        for i, layer in enumerate(layers):
            _checked_layer(layer, f"{where}: item {i} of argument 'sublayers'")
        for layer in layers:
            self._sub_layers[str(len(self))] = layer
        return self

    def pop(self, key):
        """Remove and return the layer at ``key`` (an int, or a slice: a ``LayerList``)."""
        if not isinstance(key, (int, slice)) or isinstance(key, bool):
            raise TypeError(f"LayerList.pop(): argument 'key' (position 1) must be an int or "
                            f"a slice, got {describe(key)}")
        if isinstance(key, int):
            key = _position(key, len(self), "LayerList.pop(): argument 'key' (position 1)")
        value = self[key]
        del self[key]
        return value


class LayerDict(Layer):
    """An ordered dict of sub-layers, registered under their keys.

    Built from a mapping or from ``(key, layer)`` pairs. ``d[key]``,
    assignment, ``del``, ``in``, ``len``, iteration over the keys, ``keys``,
    ``values``, ``items``, ``pop``, ``clear`` and ``update`` work as for a
    dict. It has no ``forward``.

    >>> import pylayer
    >>> heads = pylayer.nn.LayerDict({'linear': pylayer.nn.Linear(2, 2),
    ...                               'act': pylayer.nn.ReLU()})
    >>> list(heads), 'act' in heads, list(heads.state_dict())
    (['linear', 'act'], True, ['linear.weight', 'linear.bias'])
    """

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, sublayer):
        return self.add_sublayer(key, sublayer)

    def __delitem__(self, key):
        del self._sub_layers[key]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key):
        return key in self._sub_layers

    def clear(self):
        """Remove every layer."""
        self._sub_layers.clear()

    def pop(self, key):
        """Remove the layer under ``key`` and return it (KeyError when absent)."""
        if not isinstance(key, str):
            raise TypeError(f"LayerDict.pop(): argument 'key' (position 1) must be a str, got "
                            f"{describe(key)}")
        return self._sub_layers.pop(key)

    def keys(self):
        """The keys, in order."""
        return self._sub_layers.keys()

    def items(self):
        """The ``(key, layer)`` pairs, in order."""
        return self._sub_layers.items()

    def values(self):
        """The layers, in order."""
        return self._sub_layers.values()

    def update(self, sublayers):
        """Add or replace layers from a mapping or from ``(key, layer)`` pairs."""
        pairs = _pairs(sublayers, "sublayers", "LayerDict.update()")
        for i, (key, layer) in enumerate(pairs):
            _checked_layer(layer, f"LayerDict.update(): the value of item {i} ({key!r})")
        for key, layer in pairs:
            self.add_sublayer(key, layer)


class ParameterList(Layer):
    """A list of parameters, registered as ``"0"``, ``"1"``, ...

    ``p[i] = tensor`` copies the tensor's value into the parameter already
    there (the parameter object stays).

    >>> import pylayer
    >>> params = pylayer.nn.ParameterList([pylayer.create_parameter([2], 'float32')
    ...                                    for _ in range(2)])
    >>> _ = params.append(pylayer.create_parameter([3], 'float32'))
    >>> len(params), list(params.state_dict()), params[-1].shape
    (3, ['0', '1', '2'], [3])
    """

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            if isinstance(parameters, (str, bytes, Mapping)) or \
                    not hasattr(parameters, "__iter__"):
                raise TypeError(f"ParameterList(): argument 'parameters' (position 1) must "
                                f"be an iterable of Parameters, got {describe(parameters)}")
            parameters = list(parameters)
            for i, parameter in enumerate(parameters):
                _checked_parameter(parameter, f"ParameterList(): item {i} of argument "
                                              f"'parameters'")
            for parameter in parameters:
                self.append(parameter)

    def __getitem__(self, idx):
        position = _position(idx, len(self), "ParameterList")
        return self._parameters[str(position)]

    def __setitem__(self, idx, param):
        target = self[idx]
        if not isinstance(param, Tensor):
            raise TypeError(f"ParameterList: the value must be a Parameter or a Tensor, got "
                            f"{describe(param)}")
        if param.shape != target.shape:
            raise ValueError(f"ParameterList: the value has shape {param.shape}, but "
                             f"parameter {idx} has shape {target.shape}")
        with no_grad():
            target.set_value(param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        """Add ``parameter`` at the end; returns the list."""
        _checked_parameter(parameter, "ParameterList.append(): argument 'parameter' "
                                      "(position 1)")
        self._parameters[str(len(self))] = parameter
        return self


class ParameterDict(Layer):
    """An ordered dict of parameters, registered under their keys.

    Built from a mapping or from ``(key, parameter)`` pairs; ``d[key]``,
    assignment, ``len``, iteration over the keys and ``update`` work as for a
    dict.

    >>> import pylayer
    >>> params = pylayer.nn.ParameterDict({'scale': pylayer.create_parameter([1], 'float32')})
    >>> params['shift'] = pylayer.create_parameter([1], 'float32')
    >>> list(params), list(params.state_dict())
    (['scale', 'shift'], ['scale', 'shift'])
    """

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, param):
        _checked_parameter(param, "ParameterDict: the value")
        self.add_parameter(key, param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def update(self, parameters):
        """Add or replace parameters from a mapping or from ``(key, parameter)`` pairs."""
        pairs = _pairs(parameters, "parameters", "ParameterDict.update()")
        for i, (key, parameter) in enumerate(pairs):
            _checked_parameter(parameter, f"ParameterDict.update(): the value of item {i} "
                                          f"({key!r})")
        for key, parameter in pairs:
            self.add_parameter(key, parameter)
