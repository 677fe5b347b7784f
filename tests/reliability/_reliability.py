"""Helpers shared by the reliability tests (settings, data strategies)."""
import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


def fuzz(max_examples):
    """The reliability profile (derandomized, no deadline) with ``max_examples``."""
    return settings(settings.get_profile("reliability"), max_examples=max_examples)


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=3):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def draw_array(data, shape, low=-2.0, high=2.0):
    """A float64 array of ``shape`` with values in [low, high]."""
    return data.draw(hnp.arrays(np.float64, shape, elements=st.floats(
        low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False)))


LAYOUTS = ["C", "F", "strided"]


def stored_as(values, layout):
    """A C-contiguous array from which ``view(..., layout)`` gives ``values`` back.

    "F" stores the transpose (its view is Fortran-ordered), "strided" stores
    every value next to a zero (its view steps over them). gradcheck perturbs
    the stored array, while the ops see the non-contiguous view.
    """
    if layout == "F":
        return np.array(values.T, order="C")
    if layout == "strided" and values.ndim:
        wide = np.zeros(values.shape[:-1] + (2 * values.shape[-1],))
        wide[..., ::2] = values
        return wide
    return values


def view(stored, layout):
    """``values`` again, as a view of ``stored`` (works on Tensors and arrays)."""
    if layout == "F":
        return stored.T
    if layout == "strided" and stored.ndim:
        return stored[..., ::2]
    return stored
