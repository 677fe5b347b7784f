"""The padding layers: ``Pad1D/2D/3D`` and their fixed-mode forms ``ZeroPad``,
``ConstantPad``, ``ReflectionPad``, ``ReplicationPad`` and ``CircularPad``, each
a thin layer over :func:`pylayer.nn.functional.pad`.

Paddle also exports each class under a lower-case ``d`` name (``ZeroPad2d``);
those are the same classes.
"""
from pylayer.extend import Tensor, check_choice, check_ints, check_number, describe
from pylayer.nn.layer import Layer
from pylayer.ops.spatial import pad

__all__ = ["Pad1D", "Pad2D", "Pad3D", "ZeroPad1D", "ZeroPad2D", "ZeroPad3D", "ConstantPad1D",
           "ConstantPad2D", "ConstantPad3D", "ReflectionPad1D", "ReflectionPad2D",
           "ReflectionPad3D", "ReplicationPad1D", "ReplicationPad2D", "ReplicationPad3D",
           "CircularPad1D", "CircularPad2D", "CircularPad3D", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d"]

_FORMATS = {1: ["NCL", "NLC"], 2: ["NCHW", "NHWC"], 3: ["NCDHW", "NDHWC"]}
_MODES = ["constant", "reflect", "replicate", "circular"]


class _PadND(Layer):
    """Pads the ``dims`` spatial dimensions of its input."""
    dims = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format=None, name=None):
        super().__init__()
        fn = type(self).__name__
        if isinstance(padding, Tensor):
            padding = padding.numpy().tolist()
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = [padding] * (2 * self.dims)
        padding = check_ints(padding, fn, "padding")
        if any(p < 0 for p in padding):
            raise ValueError(f"{fn}(): argument 'padding' must hold non-negative ints, got "
                             f"{describe(padding)}")
        self.padding = padding
        self._mode = check_choice(mode, fn, "mode", _MODES)
        self.value = check_number(value, fn, "value")
        self._data_format = check_choice(data_format, fn, "data_format", _FORMATS[self.dims])
        self._name = name

    def forward(self, x):
        return pad(x, self.padding, self._mode, self.value, self._data_format)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        return (f"padding={self.padding}, mode={self._mode}, value={self.value}, "
                f"data_format={self._data_format}{name}")


class Pad1D(_PadND):
    """Pad the length of ``[N, C, L]`` (or ``'NLC'``) input; ``padding`` is an int or
    ``[left, right]``, ``mode`` one of ``'constant'``, ``'reflect'``,
    ``'replicate'`` and ``'circular'``.

    >>> import pylayer
    >>> pylayer.nn.Pad1D([2, 1], mode='reflect')(pylayer.to_tensor([[[1.0, 2.0, 3.0]]]))
    Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[[3., 2., 1., 2., 3., 2.]]])
    """
    dims = 1

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCL", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad2D(_PadND):
    """Pad the height and width of ``[N, C, H, W]`` (or ``'NHWC'``) input; ``padding``
    is an int or ``[left, right, top, bottom]``.

    >>> import pylayer
    >>> pylayer.nn.Pad2D([1, 0, 0, 1], value=7.0)(pylayer.zeros([1, 1, 1, 2]))[0, 0]
    Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[7., 0., 0.],
            [7., 7., 7.]])
    """
    dims = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad3D(_PadND):
    """Pad the depth, height and width of ``[N, C, D, H, W]`` (or ``'NDHWC'``) input;
    ``padding`` is an int or ``[left, right, top, bottom, front, back]``.

    >>> import pylayer
    >>> pylayer.nn.Pad3D(1, mode='replicate')(pylayer.ones([1, 1, 2, 2, 2])).shape
    [1, 1, 4, 4, 4]
    """
    dims = 3

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCDHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


def _fixed(base, mode, constant):
    """A subclass of ``base`` whose mode is fixed (and whose value is 0 unless
    ``constant``)."""
    default = _FORMATS[base.dims][0]
    if constant:
        def __init__(self, padding, value, data_format=default, name=None):
            base.__init__(self, padding, "constant", value, data_format, name)
    else:
        def __init__(self, padding, data_format=default, name=None):
            base.__init__(self, padding, mode, 0.0, data_format, name)
    return __init__


def _family(prefix, mode, constant, what):
    made = []
    for base, (fmt, shape) in zip((Pad1D, Pad2D, Pad3D), (("NCL", "[1, 1, 2]"),
                                                          ("NCHW", "[1, 1, 2, 2]"),
                                                          ("NCDHW", "[1, 1, 2, 2, 2]"))):
        name = f"{prefix}{base.dims}D"
        value = ", 0.5" if constant else ""
        out = "[1, 1" + ", 4" * base.dims + "]"
        doc = (f"Pad the {base.dims} spatial dimension{'s' if base.dims > 1 else ''} of "
               f"``'{fmt}'`` input {what}; ``padding`` is an int or {2 * base.dims} ints, "
               f"as in :class:`{base.__name__}`.\n\n"
               f"    >>> import pylayer\n"
               f"    >>> pylayer.nn.{name}(1{value})(pylayer.ones({shape})).shape\n"
               f"    {out}\n    ")
        cls = type(name, (base,), {"__init__": _fixed(base, mode, constant),
                                   "__doc__": doc, "__module__": __name__,
                                   "__qualname__": name})
        cls.__init__.__qualname__ = f"{name}.__init__"
        made.append(cls)
    return made


ZeroPad1D, ZeroPad2D, ZeroPad3D = _family("ZeroPad", "constant", False, "with zeros")
ConstantPad1D, ConstantPad2D, ConstantPad3D = _family("ConstantPad", "constant", True,
                                                      "with ``value``")
ReflectionPad1D, ReflectionPad2D, ReflectionPad3D = _family(
    "ReflectionPad", "reflect", False, "with its mirror image (each pad smaller than its "
    "dimension)")
ReplicationPad1D, ReplicationPad2D, ReplicationPad3D = _family(
    "ReplicationPad", "replicate", False, "with copies of its edge values")
CircularPad1D, CircularPad2D, CircularPad3D = _family(
    "CircularPad", "circular", False, "with the values of the other end, wrapping around")

ZeroPad1d, ZeroPad2d, ZeroPad3d = ZeroPad1D, ZeroPad2D, ZeroPad3D
ConstantPad1d, ConstantPad2d, ConstantPad3d = ConstantPad1D, ConstantPad2D, ConstantPad3D
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (ReflectionPad1D, ReflectionPad2D,
                                                     ReflectionPad3D)
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (ReplicationPad1D, ReplicationPad2D,
                                                        ReplicationPad3D)
CircularPad1d, CircularPad2d, CircularPad3d = CircularPad1D, CircularPad2D, CircularPad3D
