"""The contract of the math areas (arithmetic, math, reduction, compare, linalg.dot): the
Tensor operators and methods that route to them, every public name exported,
documented and dispatched by argument type, and what each op saves for backward."""
import inspect

import numpy as np
import pytest

from pylayer.ops.inplace import twin_of

import pylayer
from pylayer import static
from pylayer.autograd import gradcheck, gradgradcheck
from pylayer.ops import arithmetic, compare, dispatch, linalg, math, reduction
from pylayer.static._record import record_op

from math_helpers import leaf


# The modules this file covers, with the names each one defines.
# The ops of these areas (their in-place twins are tested in test_inplace_twins.py).
MODULES = {module: [name for name in module.__all__ if twin_of(getattr(module, name)) is None]
           for module in (arithmetic, math, reduction, compare)}
MODULES[linalg] = ["dot"]


# ------------------------------------------------------- Tensor operators
def test_tensor_operators_route_to_math_functions():
    x = pylayer.to_tensor([7.0, -7.0, 2.5])
    np.testing.assert_array_equal((x // 2).numpy(), np.floor_divide(x.numpy(), 2))
    np.testing.assert_array_equal((x % 2).numpy(), np.remainder(x.numpy(), 2))
    np.testing.assert_array_equal((x ** 2).numpy(), x.numpy() ** 2)
    np.testing.assert_allclose((2 ** x).numpy(), 2.0 ** x.numpy(), rtol=1e-6)
    np.testing.assert_array_equal(abs(x).numpy(), np.abs(x.numpy()))
    assert (x ** 2).dtype == "float32" and (2 ** x).dtype == "float32"
    flags = x > 0
    np.testing.assert_array_equal((flags & (x < 5)).numpy(), [False, False, True])
    np.testing.assert_array_equal((flags | (x < -5)).numpy(), [True, True, True])
    np.testing.assert_array_equal((~flags).numpy(), [False, True, False])


def test_tensor_operators_record_gradients():
    x = leaf([1.5, 2.0, 3.0])
    assert gradcheck(lambda t: t ** 3, x)
    assert gradcheck(lambda t: 2 ** t, x)
    assert gradcheck(lambda t: t ** t, x)
    assert gradcheck(lambda t: abs(t - 2.5), x)
    assert gradgradcheck(lambda t: t ** 3 + 2 ** t, x)
    assert gradcheck(lambda t: t % 0.7, x)


def test_math_functions_are_tensor_methods():
    a = np.array([[1.0, 4.0], [9.0, 16.0]])
    t = pylayer.to_tensor(a)
    assert t.max().numpy() == 16.0
    assert t.min(axis=0).numpy().tolist() == [1.0, 4.0]
    np.testing.assert_allclose(t.rsqrt().numpy(), 1 / np.sqrt(a), rtol=1e-6)
    np.testing.assert_array_equal(t.clip(2.0, 10.0).numpy(), np.clip(a, 2, 10))
    np.testing.assert_array_equal(t.pow(2).numpy(), a ** 2)
    assert t.argmax().numpy() == 3
    assert t.isnan().any().numpy() == np.False_
    assert t.equal(t).all().numpy()
    np.testing.assert_allclose(t.logsumexp(axis=1).numpy(),
                               np.log(np.exp(a).sum(axis=1)), rtol=1e-6)
    y = pylayer.to_tensor([1.0, -1.0])
    y.abs_()
    assert y.numpy().tolist() == [1.0, 1.0] and y.inplace_version == 1


# --------------------------------------------------------- API contract
def test_every_public_name_is_exported_documented_and_static_aware():
    class Placeholder:
        pass

    calls = []

    def record(fn, *args, **kwargs):
        calls.append(fn)
        return "static"

    dispatch.register_static(Placeholder, record)
    try:
        for module, names in MODULES.items():
            for name in names:
                fn = getattr(module, name)
                assert getattr(pylayer, name) is fn, name
                assert ">>>" in (fn.__doc__ or ""), name
                params = list(inspect.signature(fn).parameters)
                args = [Placeholder()] + [pylayer.ones([1])] * (sum(
                    1 for p in inspect.signature(fn).parameters.values()
                    if p.default is inspect.Parameter.empty) - 1)
                assert fn(*args) == "static", name
                assert calls[-1] is fn.__wrapped__, name
                # name=None ends the positional parameters; Paddle 3 adds keyword-only ones
                # after it (divide's rounding_mode, subtract's alpha)
                positional = [p.name for p in inspect.signature(fn).parameters.values()
                              if p.kind is not inspect.Parameter.KEYWORD_ONLY]
                assert positional[-1] == "name", name
    finally:
        dispatch.register_static(static.Variable, record_op)


@pytest.mark.parametrize("module", [math, reduction])
def test_module_docstring_states_the_dtype_rule(module):
    assert "TypeError" in module.__doc__ and "float32" in module.__doc__
