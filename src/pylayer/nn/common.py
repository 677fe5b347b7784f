"""Common layers: ``Linear``, ``Dropout`` and the ``Sequential`` container."""
from collections import OrderedDict

from pylayer.extend import check_count
from pylayer.nn import functional as F
from pylayer.nn.layer import Layer
from pylayer.nn.param import ParamAttr
from pylayer.ops.dropout import check_dropout_arguments

__all__ = ["Linear", "Dropout", "Sequential", "Identity"]


class Linear(Layer):
    """``y = x @ weight + bias`` with ``weight`` of shape ``[in_features, out_features]``.

    The weight starts from ``XavierUniform`` and the bias from zeros unless
    ``weight_attr``/``bias_attr`` give an initializer; ``bias_attr=False``
    leaves the bias out.

    >>> import pylayer
    >>> layer = pylayer.nn.Linear(4, 2)
    >>> layer.weight.shape, layer.bias.shape
    ([4, 2], [2])
    >>> layer(pylayer.ones([3, 4])).shape
    [3, 2]
    """

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        for arg, value in (("in_features", in_features), ("out_features", out_features)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"Linear(): argument '{arg}' must be a non-negative int, "
                                 f"got {value!r}")
            check_count(value, "Linear", arg)
        check_count(in_features * out_features, "Linear", "out_features")
        self.in_features = in_features
        self.out_features = out_features
        weight_attr = ParamAttr._to_attr(weight_attr, "Linear", "weight_attr")
        bias_attr = ParamAttr._to_attr(bias_attr, "Linear", "bias_attr")
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr)
        self.bias = self.create_parameter([out_features], attr=bias_attr, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.linear(input, self.weight, self.bias, name=self.name)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, " \
               f"dtype={self._dtype}"


class Dropout(Layer):
    """:func:`pylayer.nn.functional.dropout` that is active in training mode only.

    >>> import pylayer
    >>> layer = pylayer.nn.Dropout(0.5)
    >>> x = pylayer.ones([4])
    >>> layer.eval()(x) is x
    True
    """

    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        self.p = check_dropout_arguments(p, axis, mode, "Dropout")
        self.axis = axis
        self.mode = mode

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self):
        return f"p={self.p}, axis={self.axis}, mode={self.mode}"


class Sequential(Layer):
    """Layers applied one after another; built from layers or ``(name, layer)`` pairs.

    Layers given alone are named ``"0"``, ``"1"``, ...; pairs or one
    (ordered) dict give the names. ``model[i]`` is the i-th layer,
    ``model['name']`` the layer of that name, and a slice a new
    ``Sequential`` numbered from ``"0"``. ``model[name] = layer`` and
    ``del model[name]`` act on a name (an int is read as its string), as in
    Paddle; ``append``, ``insert`` and ``extend`` return the model.

    >>> import pylayer
    >>> model = pylayer.nn.Sequential(pylayer.nn.Linear(3, 4), pylayer.nn.ReLU(),
    ...                               pylayer.nn.Linear(4, 1))
    >>> len(model), model(pylayer.ones([2, 3])).shape
    (3, [2, 1])
    >>> _ = model.insert(1, pylayer.nn.Tanh())
    >>> list(model.state_dict())
    ['0.weight', '0.bias', '3.weight', '3.bias']
    """

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], (OrderedDict, dict)):
            layers = tuple(layers[0].items())
        for index, item in enumerate(layers):
            name, layer = item if isinstance(item, (list, tuple)) and len(item) == 2 \
                else (index, item)
            if not isinstance(layer, Layer):
                raise TypeError(f"Sequential(): argument 'layers' item {index} must be a Layer "
                                f"or a (name, Layer) pair, got {type(item).__name__}")
            self.add_sublayer(str(name), layer)

    def __getitem__(self, name):
        layers = list(self._sub_layers.values())
        if isinstance(name, slice):
            return type(self)(*layers[name])
        if isinstance(name, str):
            return self._sub_layers[name]
        if not isinstance(name, int) or isinstance(name, bool):
            raise TypeError(f"Sequential: an index must be an int, a str or a slice, got "
                            f"{type(name).__name__}")
        if not -len(layers) <= name < len(layers):
            raise IndexError(f"Sequential: index {name} is out of range for {len(layers)} "
                             f"layers")
        return layers[name]

    def __setitem__(self, name, layer):
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential: the value must be a Layer, got "
                            f"{type(layer).__name__}")
        name = str(name)
        if name in self._sub_layers:
            self._sub_layers[name] = layer
        else:
            self.add_sublayer(name, layer)

    def __delitem__(self, name):
        if isinstance(name, slice):
            for key in list(self._sub_layers)[name]:
                del self._sub_layers[key]
            return
        if str(name) not in self._sub_layers:
            raise KeyError(f"Sequential has no layer named {str(name)!r}; its names are "
                           f"{list(self._sub_layers)}")
        del self._sub_layers[str(name)]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def _free_name(self):
        name = len(self)
        while str(name) in self._sub_layers:
            name += 1
        return str(name)

    def append(self, module):
        """Add ``module`` at the end, named ``str(len(self))``; returns the model."""
        if not isinstance(module, Layer):
            raise TypeError(f"Sequential.append(): argument 'module' (position 1) must be a "
                            f"Layer, got {type(module).__name__}")
        self.add_sublayer(self._free_name(), module)
        return self

    def insert(self, index, module):
        """Put ``module`` before position ``index`` (``-len .. len``); returns the model.

        In a model numbered ``"0"``, ``"1"``, ... the layers are renumbered;
        in a model with names of its own the new layer takes a free number.
        """
        if not isinstance(module, Layer):
            raise TypeError(f"Sequential.insert(): argument 'module' (position 2) must be a "
                            f"Layer, got {type(module).__name__}")
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"Sequential.insert(): argument 'index' (position 1) must be an "
                            f"int, got {type(index).__name__}")
        size = len(self)
        if not -size <= index <= size:
            raise IndexError(f"Sequential.insert(): argument 'index' (position 1) must be in "
                             f"range [{-size}, {size}], got {index}")
        items = list(self._sub_layers.items())
        numbered = [key for key, _ in items] == [str(i) for i in range(size)]
        items.insert(index, (str(size) if numbered else self._free_name(), module))
        self._sub_layers.clear()
        for i, (key, layer) in enumerate(items):
            self._sub_layers[str(i) if numbered else key] = layer
        return self

    def extend(self, sequential):
        """Append every layer of the iterable ``sequential``; returns the model."""
        if isinstance(sequential, (str, bytes, dict)) or not hasattr(sequential, "__iter__"):
            raise TypeError(f"Sequential.extend(): argument 'sequential' (position 1) must be "
                            f"an iterable of Layers, got {type(sequential).__name__}")
        layers = list(sequential)
        for i, layer in enumerate(layers):
            if not isinstance(layer, Layer):
                raise TypeError(f"Sequential.extend(): item {i} of argument 'sequential' "
                                f"must be a Layer, got {type(layer).__name__}")
        for layer in layers:
            self.append(layer)
        return self

    def forward(self, input):
        for layer in self._sub_layers.values():
            input = layer(input)
        return input


class Identity(Layer):
    """Returns its input unchanged; arguments given to it are accepted and ignored.

    >>> import pylayer
    >>> x = pylayer.ones([2])
    >>> pylayer.nn.Identity(54, unused='yes')(x) is x
    True
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input
