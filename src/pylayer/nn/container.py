"""Containers of layers: ``LayerList``."""
from pylayer.nn.layer import Layer
from pylayer.extend import check_int, describe

__all__ = ["LayerList"]


class LayerList(Layer):
    """A list of sub-layers, registered so that ``parameters()`` finds them.

    Indexing, slicing (a new ``LayerList``), ``len``, iteration,
    ``append``, ``extend``, ``insert``, assignment and ``del`` work as for
    a Python list. It has no ``forward``: call its layers yourself.

    >>> import pylayer
    >>> blocks = pylayer.nn.LayerList([pylayer.nn.Linear(2, 2) for _ in range(3)])
    >>> _ = blocks.append(pylayer.nn.Linear(2, 1))
    >>> len(blocks), len(blocks.parameters()), blocks[-1].weight.shape
    (4, 8, [2, 1])
    """

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.extend(sublayers)

    @staticmethod
    def _checked(layer, what):
        if not isinstance(layer, Layer):
            raise TypeError(f"LayerList: {what} must be a Layer, got {describe(layer)}")
        return layer

    def _index(self, index):
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"LayerList: an index must be an int or a slice, got "
                            f"{describe(index)}")
        if not -len(self) <= index < len(self):
            raise IndexError(f"LayerList: index {index} is out of range for {len(self)} layers")
        return index % len(self)

    def _renumber(self, layers):
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def __getitem__(self, index):
        layers = list(self._sub_layers.values())
        if isinstance(index, slice):
            return LayerList(layers[index])
        return layers[self._index(index)]

    def __setitem__(self, index, layer):
        self._sub_layers[str(self._index(index))] = self._checked(layer, "the value")

    def __delitem__(self, index):
        layers = list(self._sub_layers.values())
        if isinstance(index, slice):
            del layers[index]
        else:
            del layers[self._index(index)]
        self._renumber(layers)

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, sublayer):
        """Add ``sublayer`` at the end; returns the list."""
        self.add_sublayer(str(len(self)), self._checked(sublayer, "argument 'sublayer'"))
        return self

    def insert(self, index, sublayer):
        """Put ``sublayer`` before position ``index`` (Python's rules for the position)."""
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"LayerList.insert: argument 'index' must be an int, got "
                            f"{describe(index)}")
        check_int(index, "LayerList.insert", "index")
        layers = list(self._sub_layers.values())
        layers.insert(index, self._checked(sublayer, "argument 'sublayer'"))
        self._renumber(layers)

    def extend(self, sublayers):
        """Append every layer of the iterable ``sublayers``; returns the list."""
        if isinstance(sublayers, (Layer, str, bytes, dict)) or not hasattr(sublayers,
                                                                         "__iter__"):
            raise TypeError(f"LayerList: argument 'sublayers' must be an iterable of Layers, "
                            f"got {describe(sublayers)}")
        layers = list(sublayers)
        for i, layer in enumerate(layers):
            self._checked(layer, f"argument 'sublayers' item {i}")
        for layer in layers:
            self.append(layer)
        return self
