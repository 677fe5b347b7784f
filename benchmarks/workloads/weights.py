"""Initial weights and data of the model steps (workloads 11-17), from numpy alone.

Every library builds its model, then sets each parameter to ``value(name, shape, std)``
under the parameter's name (the same in Paddle and PyTorch for these models). A
parameter's values depend only on its name, so the libraries start from the same
weights and their first-step losses agree to float32 rounding.
"""
import zlib

import numpy as np


def value(name, shape, std):
    """1-D: ones for a norm's ``weight``, zeros for a bias; otherwise normal(0, std).
    ``shape`` is Paddle's layout (a linear weight is [in, out])."""
    shape = tuple(int(n) for n in shape)
    if len(shape) == 1:
        fill = np.ones if name.rsplit(".", 1)[-1] == "weight" else np.zeros
        return fill(shape, "float32")
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return (rng.standard_normal(shape) * std).astype("float32")


def fan_in_std(shape, gain=1.0):
    """gain / sqrt(fan_in) for a linear weight [in, out] or a conv weight [out, in, kh, kw]."""
    fan_in = shape[0] if len(shape) == 2 else int(np.prod(shape[1:]))
    return gain / fan_in ** 0.5


def data(shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, size=shape).astype("float32")


def labels(shape, classes, seed=1):
    return np.random.default_rng(seed).integers(0, classes, shape).astype("int64")


def causal_mask(length):
    """[length, length] float32: 0 on and below the diagonal, -1e9 above (added to scores)."""
    return np.triu(np.full((length, length), -1e9, "float32"), 1)
