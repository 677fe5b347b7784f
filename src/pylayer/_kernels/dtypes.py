"""What kind of numbers a numpy dtype holds, in one place.

numpy's ``dtype.kind`` does not say it for every dtype pylayer has: ``bfloat16``
(from ``ml_dtypes``, the numpy extension that provides it) is of kind ``'V'``,
like raw bytes, although it is a floating-point type. Every test of what a dtype
holds goes through these functions instead.

>>> import numpy as np
>>> is_floating(BFLOAT16), is_floating(np.dtype("int64")), kind_of(BFLOAT16)
(True, False, 'f')
"""
import ml_dtypes
import numpy as np

__all__ = ["BFLOAT16", "kind_of", "is_bool", "is_integer", "is_floating", "is_complex",
           "is_inexact", "is_real", "holds_numbers"]

#: numpy's dtype of bfloat16 (8 exponent bits, 7 mantissa bits), from ml_dtypes.
BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


def kind_of(dtype):
    """numpy's kind letter of ``dtype``, with bfloat16 a float (``'f'``): ``'b'`` bool,
    ``'i'``/``'u'`` signed/unsigned integer, ``'f'`` floating point, ``'c'`` complex.

    >>> kind_of(np.dtype("float16")), kind_of(np.dtype("uint8"))
    ('f', 'u')
    """
    return "f" if dtype == BFLOAT16 else dtype.kind


def is_bool(dtype):
    """``bool``.

    >>> is_bool(np.dtype(bool))
    True
    """
    return dtype.kind == "b"


def is_integer(dtype):
    """A signed or unsigned integer dtype (not bool).

    >>> is_integer(np.dtype("int32")), is_integer(np.dtype(bool))
    (True, False)
    """
    return dtype.kind in "iu"


def is_floating(dtype):
    """A real floating-point dtype: float16, bfloat16, float32, float64 (and wider).

    >>> is_floating(np.dtype("float16")), is_floating(np.dtype("complex64"))
    (True, False)
    """
    return dtype.kind == "f" or dtype == BFLOAT16


def is_complex(dtype):
    """complex64 or complex128 (or wider).

    >>> is_complex(np.dtype("complex64"))
    True
    """
    return dtype.kind == "c"


def is_inexact(dtype):
    """Floating point or complex: a dtype that gradients flow through.

    >>> is_inexact(BFLOAT16), is_inexact(np.dtype("int64"))
    (True, False)
    """
    return is_floating(dtype) or is_complex(dtype)


def is_real(dtype):
    """Bool, integer or floating point: numbers that have an order (not complex).

    >>> is_real(np.dtype(bool)), is_real(np.dtype("complex64"))
    (True, False)
    """
    return dtype.kind in "biuf" or dtype == BFLOAT16


def holds_numbers(dtype):
    """Bool, integer, floating point or complex: data a Tensor can hold (in these or
    other widths), unlike strings, objects, dates or raw bytes.

    >>> holds_numbers(np.dtype("complex128")), holds_numbers(np.dtype("M8[D]"))
    (True, False)
    """
    return dtype.kind in "biufc" or dtype == BFLOAT16
