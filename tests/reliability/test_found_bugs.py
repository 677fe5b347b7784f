"""One regression test per bug that the reliability tests found (each failed before its fix)."""
import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck


def leaf(shape, low=-1.0, high=1.0, seed=0):
    values = np.random.default_rng(seed).uniform(low, high, shape)
    return pylayer.to_tensor(values, dtype="float64", stop_gradient=False)


@pytest.mark.parametrize("reduce", [
    lambda t: pylayer.max(t, axis=0), lambda t: pylayer.min(t, axis=0),
    lambda t: pylayer.prod(t, axis=0), lambda t: pylayer.logsumexp(t, axis=0),
    lambda t: pylayer.var(t, axis=0), lambda t: pylayer.std(t, axis=0)])
def test_reduction_backward_over_an_empty_tensor_keeps_its_zero_sized_dims(reduce):
    # Reducing [5, 0, 2] over axis 0 gives [0, 2]; its gradient must be
    # reshaped to [1, 0, 2] exactly, where a 0 is a size, not "keep this dim".
    x = leaf([5, 0, 2])
    reduce(x).sum().backward()
    assert x.grad.shape == [5, 0, 2]
