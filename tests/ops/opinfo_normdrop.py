"""Op-database entries of the normalizations and dropouts added to
``pylayer.nn.functional`` beside ``layer_norm``/``batch_norm``/``group_norm`` and
``dropout`` (``pylayer.ops.normalization``, ``pylayer.ops.dropout``).

The dropouts are random in training: their entries check the deterministic cases
(``p=0``, evaluation). Paddle's observed values, the random masks' statistics, the
layers and the reparameterisation hooks are in ``tests/nn/test_normdrop.py``.
"""
import numpy as np

import pylayer
from pylayer.nn import functional as F

from opinfo import OpInfo, T, samples
from _hostile_values import A, K, Call, _chw, _ncl, _value, f23

_SUMS = {"float32": (1e-5, 1e-6)}


def _instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                   eps=1e-5, data_format="NCHW"):
    axes = tuple(range(2, x.ndim))
    centred = x - x.mean(axis=axes, keepdims=True) if axes else np.zeros_like(x)
    var = (centred ** 2).mean(axis=axes, keepdims=True) if axes else np.zeros_like(x)
    y = centred / np.sqrt(var + eps)
    shape = [-1] + [1] * (x.ndim - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y.astype(x.dtype)


def _local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW"):
    axis = x.ndim - 1 if data_format.endswith("C") else 1
    squares = np.moveaxis(x.astype(np.float64) ** 2, axis, 0)
    channels = squares.shape[0]
    window = np.stack([squares[max(c - size // 2, 0):c + (size - 1) // 2 + 1].sum(axis=0)
                       for c in range(channels)])
    div = (k + alpha * window / size) ** beta
    return (x / np.moveaxis(div, 0, axis)).astype(x.dtype)


def _rms_norm(x, normalized_shape, weight=None, eps=1e-5):
    axes = tuple(range(x.ndim - len(np.atleast_1d(normalized_shape)), x.ndim))
    inverse = 1 / np.sqrt((x.astype(np.float64) ** 2).mean(axis=axes, keepdims=True) + eps)
    out = x * inverse * (1.0 if weight is None else weight)
    return [out.astype(x.dtype), inverse.reshape(-1).astype(x.dtype)]


def _normalize(x, p=2, axis=1, epsilon=1e-12):
    a = np.abs(x.astype(np.float64))
    size = (a.max(axis=axis, keepdims=True) if p == np.inf
            else (a ** p).sum(axis=axis, keepdims=True) ** (1 / p))
    return (x / np.maximum(size, epsilon)).astype(x.dtype)


def _same(x, *args, **kwargs):
    return x


_NCL = (T((2, 3, 4)),)

ENTRIES = [
    OpInfo("instance_norm", _instance_norm, samples(
        ((T((2, 3, 4)),), {"data_format": "NCL"}),
        ((T((2, 2, 3, 3)), None, None, T((2,)), T((2,))), {"eps": 0.1}),
        ((T((1, 2, 2, 2, 3)),), {"data_format": "NCDHW"}),
        ((T((3, 2)),), {"data_format": "NC"})),
           op=F.instance_norm, tolerance=_SUMS,
           call=Call(A("x", _ncl, "float_tensor"),
                     K("weight", lambda env: pylayer.ones([2]), "tensor_or_none"),
                     K("eps", _value(1e-5), "non_negative"),
                     K("data_format", _value("NCL"), "reduction"))),
    OpInfo("local_response_norm", _local_response_norm, samples(
        ((T((2, 5, 3)), 3), {"alpha": 0.5, "data_format": "NCL"}),
        ((T((2, 3, 4)), 2), {"alpha": 0.3, "beta": 0.5, "k": 2.0, "data_format": "NLC"}),
        ((T((1, 4, 2, 3)), 7), {"alpha": 0.2}),
        ((T((1, 2, 2, 2, 3)), 4), {"alpha": 0.4, "data_format": "NDHWC"})),
           op=F.local_response_norm, tolerance=_SUMS,
           call=Call(A("x", _chw, "float_tensor"), A("size", _value(3), "size"),
                     K("alpha", _value(0.1), "number"), K("beta", _value(0.75), "number"),
                     K("data_format", _value("NCHW"), "reduction"))),
    OpInfo("rms_norm", _rms_norm, samples(
        (T((2, 3, 4)), [4]), (T((3, 4)), [3, 4], T((3, 4))),
        ((T((2, 5)), 5), {"eps": 0.1})),
           op=F.rms_norm, tolerance=_SUMS,
           call=Call(A("input", f23, "float_tensor"), A("normalized_shape", _value([3]),
                                                        "int_list"),
                     K("weight", lambda env: pylayer.ones([3]), "tensor_or_none"),
                     K("eps", _value(1e-5), "non_negative"))),
    OpInfo("normalize", _normalize, samples(
        (T((2, 3)),), ((T((2, 3, 4)),), {"p": 1, "axis": -1}),
        ((T((4,)),), {"axis": 0, "p": 3}), ((T((3, 4)),), {"p": np.inf, "axis": 0}),
        ((T((3, 2)),), {"epsilon": 10.0})),
           op=F.normalize, tolerance=_SUMS,
           call=Call(A("x", f23, "float_tensor"), K("p", _value(2), "number"),
                     K("axis", _value(1), "int_axis"), K("epsilon", _value(1e-12), "number"),
                     K("out", _value(None), "out_tensor"))),
    OpInfo("dropout1d", _same, samples(((T((2, 3, 4)),), {"p": 0.0}),
                                       ((T((3, 4)),), {"p": 0.5, "training": False})),
           op=F.dropout1d,
           call=Call(A("input", lambda env: pylayer.ones([2, 3]), "float_tensor"),
                     K("p", _value(0.5), "probability"))),
    OpInfo("dropout2d", _same, samples(((T((2, 3, 2, 2)),), {"p": 0.0}),
                                       ((T((1, 2, 3, 2)),), {"p": 0.5, "training": False,
                                                             "data_format": "NHWC"})),
           op=F.dropout2d,
           call=Call(A("x", _chw, "float_tensor"), K("p", _value(0.5), "probability"),
                     K("data_format", _value("NCHW"), "reduction"))),
    OpInfo("dropout3d", _same, samples(((T((1, 2, 2, 2, 2)),), {"p": 0.0}),
                                       ((T((1, 2, 1, 3, 2)),), {"p": 0.5, "training": False})),
           op=F.dropout3d,
           call=Call(A("x", lambda env: pylayer.ones([1, 2, 2, 2, 2]), "float_tensor"),
                     K("p", _value(0.5), "probability"),
                     K("data_format", _value("NCDHW"), "reduction"))),
    OpInfo("alpha_dropout", _same, samples(((T((2, 3)),), {"p": 0.0}),
                                           ((T((4,)),), {"p": 0.5, "training": False})),
           op=F.alpha_dropout,
           call=Call(A("x", f23, "float_tensor"), K("p", _value(0.5), "probability"))),
    OpInfo("feature_alpha_dropout", _same, samples(
        ((T((2, 3, 2)),), {"p": 0.0}), ((T((2, 3)),), {"p": 0.5, "training": False})),
           op=F.feature_alpha_dropout,
           call=Call(A("x", f23, "float_tensor"), K("p", _value(0.5), "probability"))),
]
