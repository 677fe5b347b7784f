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

    >>> import pylayer
    >>> model = pylayer.nn.Sequential(pylayer.nn.Linear(3, 4), pylayer.nn.ReLU(),
    ...                               pylayer.nn.Linear(4, 1))
    >>> len(model), model(pylayer.ones([2, 3])).shape
    (3, [2, 1])
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

    def __getitem__(self, index):
        layers = list(self._sub_layers.values())
        if isinstance(index, slice):
            return Sequential(*zip(list(self._sub_layers)[index], layers[index]))
        return layers[index]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

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
