"""Every layer's ``forward`` takes Paddle's parameter names, so ``layer(x=t)`` works as in Paddle.

``data/forward_signatures.json`` was recorded from the scratch Paddle 3.3.1 by walking
``paddle.nn``: for each ``paddle.nn.Layer`` subclass, the names of
``inspect.signature(cls.forward)`` without ``self`` (``*args``/``**kwargs`` written with
their stars). Only classes present in both libraries are compared.
"""
import inspect
import json
import os

import numpy as np
import pytest

import pylayer

_TABLE = json.load(open(os.path.join(os.path.dirname(__file__), "data",
                                     "forward_signatures.json")))["forward_parameters"]


def _names(function):
    result = []
    for p in list(inspect.signature(function).parameters.values())[1:]:
        star = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
        result.append(star + p.name)
    return result


_SHARED = sorted(name for name in pylayer.nn.__all__
                 if isinstance(getattr(pylayer.nn, name), type)
                 and issubclass(getattr(pylayer.nn, name), pylayer.nn.Layer)
                 and name in _TABLE)


def test_the_table_covers_most_layers():
    assert len(_SHARED) > 50


@pytest.mark.parametrize("name", _SHARED)
def test_forward_parameter_names_are_paddles(name):
    assert _names(getattr(pylayer.nn, name).forward) == _TABLE[name]


def test_keyword_call_with_paddles_names():
    t = pylayer.to_tensor(np.arange(32, dtype="float32").reshape(1, 2, 4, 4))
    out = pylayer.nn.AdaptiveAvgPool2D(3)(x=t)
    np.testing.assert_allclose(out.numpy(), pylayer.nn.AdaptiveAvgPool2D(3)(t).numpy())
    out = pylayer.nn.MaxPool1D(2)(input=t.reshape([1, 4, 8]))
    assert out.shape == [1, 4, 4]
    assert pylayer.nn.ReLU()(x=t).shape == [1, 2, 4, 4]


@pytest.mark.parametrize("make, text", [
    (lambda: pylayer.nn.ReLU(name="nm"), "ReLU(name=nm)"),
    (lambda: pylayer.nn.ReLU(), "ReLU()"),
    (lambda: pylayer.nn.LeakyReLU(name="nm"), "LeakyReLU(negative_slope=0.01, name=nm)"),
    (lambda: pylayer.nn.GELU(name="nm"), "GELU(approximate=False, name=nm)"),
    (lambda: pylayer.nn.Sigmoid(name="nm"), "Sigmoid(name=nm)"),
    (lambda: pylayer.nn.Tanh(name="nm"), "Tanh(name=nm)"),
    (lambda: pylayer.nn.Softmax(name="nm"), "Softmax(axis=-1, name=nm)"),
    (lambda: pylayer.nn.LogSoftmax(name="nm"), "LogSoftmax(axis=-1, name=nm)"),
    (lambda: pylayer.nn.Hardtanh(name="nm"), "Hardtanh(min=-1.0, max=1.0, name=nm)"),
])
def test_activation_repr_shows_the_name_as_paddle(make, text):
    # The texts are Paddle 3.3.1's repr of the same constructions.
    assert repr(make()) == text
