"""Op-database entries of ``pylayer.ops.conversion``: clone, the complex views,
polar, the compatible softmax and the shape queries.

Conversions to and from other containers, creation from numbers, the reader
decorator and the print options are not ops on Tensors (``NOT_IN_DATABASE``);
``test_rest.py`` checks them and Paddle's rules.
"""
import numpy as np

import pylayer
import references as refs
from opinfo import BOOL, COMPLEX, NUMBERS, UNARY_SHAPES, OpInfo, T, bounded, samples
from _hostile_values import A, K, Call, _value, c23, f23


def _softmax(x, dim=None):
    if dim is None:
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return np.exp(refs.log_softmax(x, dim)).astype(x.dtype)


def _polar(r, theta):
    return (r * np.cos(theta) + 1j * r * np.sin(theta)).astype(
        np.complex64 if r.dtype == np.float32 else np.complex128)


ENTRIES = [
    OpInfo("clone", lambda x: x.copy(), UNARY_SHAPES, dtypes=NUMBERS + BOOL + COMPLEX,
           call=Call(A("x", f23, "tensor_only"))),
    OpInfo("view_as_complex", lambda x: x[..., 0] + 1j * x[..., 1],
           samples((T((3, 2)),), (T((2, 3, 2)),), (T((2,)),), (T((0, 2)),)),
           call=Call(A("input", lambda env: pylayer.ones([3, 2]), "float_tensor"),
                     extra=[("a last dimension other than 2", {"input": f23}, "input")])),
    OpInfo("view_as_real", lambda x: np.stack([x.real, x.imag], axis=-1), UNARY_SHAPES,
           dtypes=COMPLEX, call=Call(A("input", c23, "complex_tensor"))),
    OpInfo("polar", _polar,
           samples((T((2, 3), 0.5, 2.0), T((2, 3))), (T((3,), 0.5, 2.0), T((2, 3))),
                   (T((), 0.5, 2.0), T(()))),
           call=Call(A("abs", f23, "float_tensor"), A("angle", f23, "float_tensor"),
                     extra=[("parts of two dtypes",
                             {"angle": lambda env: pylayer.ones([2, 3], "float64")},
                             ("abs", "angle"))])),
    OpInfo("softmax", _softmax,
           samples((T((2, 3)),), (T((5,)),), (T((2, 3, 2)),), (T(()),), (T((0, 3)),),
                   ((T((2, 3)),), {"dim": 0}), ((T((2, 3, 4)),), {"dim": -1})),
           call=Call(A("input", f23, "float_tensor"), A("dim", _value(1), "int_axis_or_none"),
                     K("dtype", _value("float64"), "dtype")), smooth=bounded(30)),
    OpInfo("rank", lambda x: np.array(x.ndim, dtype=np.int32), UNARY_SHAPES,
           dtypes=NUMBERS + BOOL + COMPLEX, differentiable=False,
           call=Call(A("input", f23, "tensor_only"))),
    OpInfo("shape", lambda x: np.array(x.shape, dtype=np.int64), UNARY_SHAPES,
           dtypes=NUMBERS + BOOL + COMPLEX, differentiable=False,
           call=Call(A("input", f23, "tensor_only"))),
]

_NOT_AN_OP = "converts between Tensors and other containers: not an op on Tensors"
_CREATION = ("makes a Tensor from numbers, with no Tensor input to compare against a "
             "reference (test_rest.py and the doctests check it)")
NOT_IN_DATABASE = {
    **dict.fromkeys(["as_tensor", "asarray", "from_numpy", "tolist", "from_dlpack",
                     "to_dlpack"], _NOT_AN_OP),
    **dict.fromkeys(["logspace", "range"], _CREATION),
    "where_": "the in-place form of where, which the database checks (test_rest.py checks "
              "that it writes into x)",
    "batch": "a reader decorator: it groups the items of a Python reader",
    "set_printoptions": "sets how Tensors print",
    "disable_signal_handler": "a process setting with nothing to do in pylayer",
    "check_shape": "checks a shape argument while a static program is built",
}
