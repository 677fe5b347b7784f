"""Dropout layers of whole channels and alpha dropout: ``Dropout2D``, ``Dropout3D``,
``AlphaDropout`` and ``FeatureAlphaDropout``.

Each is active in training mode only and calls its functional form in
:mod:`pylayer.ops.dropout`.
"""
from pylayer.extend import check_choice
from pylayer.nn.layer import Layer
from pylayer.ops.dropout import (alpha_dropout, check_dropout_arguments, dropout2d, dropout3d,
                                 feature_alpha_dropout)

__all__ = ["Dropout2D", "Dropout3D", "AlphaDropout", "FeatureAlphaDropout"]


def _name_text(name):
    return f", name={name}" if name else ""


class Dropout2D(Layer):
    """:func:`pylayer.nn.functional.dropout2d` in training mode; the identity otherwise.

    >>> import pylayer
    >>> layer = pylayer.nn.Dropout2D(p=0.5)
    >>> x = pylayer.ones([1, 2, 2, 2])
    >>> bool((layer.eval()(x) == x).all())
    True
    """
    _function = staticmethod(dropout2d)
    _formats = ("NCHW", "NHWC")

    def __init__(self, p=0.5, data_format="NCHW", name=None):
        super().__init__()
        fn = type(self).__name__
        self.p = check_dropout_arguments(p, None, "upscale_in_train", fn)
        self.data_format = check_choice(data_format, fn, "data_format", list(self._formats))
        self.name = name

    def forward(self, input):
        return self._function(input, p=self.p, training=self.training,
                              data_format=self.data_format)

    def extra_repr(self):
        return f"p={self.p}, data_format={self.data_format}{_name_text(self.name)}"


class Dropout3D(Dropout2D):
    """:func:`pylayer.nn.functional.dropout3d` in training mode; the identity otherwise.

    >>> import pylayer
    >>> pylayer.nn.Dropout3D(p=0.0)(pylayer.ones([1, 1, 1, 1, 2])).numpy().ravel()
    array([1., 1.], dtype=float32)
    """
    _function = staticmethod(dropout3d)
    _formats = ("NCDHW", "NDHWC")

    def __init__(self, p=0.5, data_format="NCDHW", name=None):
        super().__init__(p, data_format, name)


class AlphaDropout(Layer):
    """:func:`pylayer.nn.functional.alpha_dropout` in training mode; the identity otherwise.

    >>> import pylayer
    >>> layer = pylayer.nn.AlphaDropout(p=0.2)
    >>> x = pylayer.ones([3])
    >>> layer.eval()(x) is x
    True
    """
    _function = staticmethod(alpha_dropout)

    def __init__(self, p=0.5, name=None):
        super().__init__()
        fn = type(self).__name__
        self.p = check_dropout_arguments(p, None, "upscale_in_train", fn)
        self.name = name

    def forward(self, input):
        return self._function(input, p=self.p, training=self.training)

    def extra_repr(self):
        return f"p={self.p}{_name_text(self.name)}"


class FeatureAlphaDropout(AlphaDropout):
    """:func:`pylayer.nn.functional.feature_alpha_dropout` in training mode; the identity
    otherwise.

    >>> import pylayer
    >>> pylayer.nn.FeatureAlphaDropout(p=0.0)(pylayer.ones([1, 2])).numpy()
    array([[1., 1.]], dtype=float32)
    """
    _function = staticmethod(feature_alpha_dropout)
