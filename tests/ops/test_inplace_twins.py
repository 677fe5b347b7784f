"""Every in-place twin, from the ops' declarations: ``x.<name>_(...)`` and Paddle's
function-level ``pylayer.<name>_(x, ...)`` store in ``x`` what ``pylayer.<name>(x, ...)``
returns (in x's dtype; a shape op gives x its shape), for the samples of the op's
database entry whose result has as many elements as ``x``.

Nothing here lists the twins: a new ``@op(method=True, inplace=True)`` or
``<name>_ = inplace_twin(<name>)`` is tested by being declared.
"""
import numpy as np
import pytest

import pylayer
from pylayer import _methods

from opinfo import OPS
from test_opinfo import numpy_args, rng_for, tensor_args

_, WITH_INPLACE = _methods.declared(vars(pylayer), pylayer.__all__)
FUNCTION_TWINS = sorted(name for name in pylayer.__all__ if name.endswith("_")
                        and getattr(getattr(pylayer, name), "__wrapped__", None)
                        is getattr(pylayer, name[:-1], object()))
ENTRIES = {}     # by the public function, so that an alias (clamp = clip) finds its op's
for _info in OPS:
    ENTRIES.setdefault(id(_info.public), []).append(_info)


def twins():
    for name in WITH_INPLACE:
        yield pytest.param(name, lambda x, *a, _n=name, **k: getattr(x, _n + "_")(*a, **k),
                           id=f"Tensor.{name}_")
    for name in FUNCTION_TWINS:
        yield pytest.param(name[:-1], getattr(pylayer, name), id=f"pylayer.{name}")


def fitting_calls(name):
    """``(args, kwargs)`` of the entry samples whose result has as many elements as x."""
    calls = []
    for info in ENTRIES.get(id(getattr(pylayer, name)), []):
        dtype = "float64" if "float64" in info.dtypes else info.dtypes[0]
        rng = rng_for(info, dtype)
        for sample in info.samples:
            args = tensor_args(numpy_args(info, sample, dtype, rng))
            if not args or not isinstance(args[0], pylayer.Tensor):
                continue
            out = info.op(*args, **sample.kwargs)
            if isinstance(out, pylayer.Tensor) and out.size == args[0].size:
                calls.append((args, sample.kwargs))
    return calls


def test_an_inplace_method_is_the_function_twin_where_both_exist():
    assert FUNCTION_TWINS, "no function-level twin found"
    for name in FUNCTION_TWINS:
        if name[:-1] in WITH_INPLACE:
            assert getattr(pylayer.Tensor, name) is getattr(pylayer, name), name


@pytest.mark.parametrize("name, twin", list(twins()))
def test_twin_stores_the_ops_result_in_x(name, twin):
    calls = fitting_calls(name)
    assert calls, f"the database has no sample of {name} whose result fits x"
    op = getattr(pylayer, name)
    for args, kwargs in calls:
        x = pylayer.assign(args[0])
        expected = op(*args, **kwargs).numpy()
        if name != "cast":          # cast_ gives x the new dtype, as Paddle's does
            expected = expected.astype(x.numpy().dtype)
        alias = x.detach()
        version = x.inplace_version
        assert twin(x, *args[1:], **kwargs) is x
        np.testing.assert_array_equal(x.numpy(), expected)
        assert x.numpy().dtype == expected.dtype
        if alias.dtype == x.dtype:  # an alias shares x's memory, and so sees the result
            np.testing.assert_array_equal(alias.numpy().reshape(-1), expected.reshape(-1))
            assert x.inplace_version == version + 1 == alias.inplace_version


@pytest.mark.parametrize("call, error, message", [
    (lambda x: x.add_(pylayer.ones([2, 3])), ValueError, r"add_\(\): the result has shape \[2, 3\]"),
    (lambda x: pylayer.multiply_(x, pylayer.ones([4, 1, 3])), ValueError, "does not broadcast x"),
    (lambda x: x.astype("int64").sin_(), TypeError, r"sin_\(\): the result is float32, which x "
                                                    r"\(int64\) cannot hold"),
    (lambda x: x.astype("int32").add_(2.5), TypeError, "cannot hold without losing its values"),
    (lambda x: x.multiply_(pylayer.to_tensor(1j)), TypeError, "complex64"),
])
def test_a_result_x_cannot_hold_is_refused_and_x_is_left_as_it_was(call, error, message):
    x = pylayer.to_tensor([1.0, 2.0, 3.0])
    with pytest.raises(error, match=message):
        call(x)
    assert x.numpy().tolist() == [1.0, 2.0, 3.0] and x.shape == [3] and x.inplace_version == 0


def test_a_narrower_result_is_cast_into_x():
    x = pylayer.to_tensor([1.0, 2.0])
    assert x.equal_(pylayer.to_tensor([1.0, 3.0])) is x
    assert x.dtype == pylayer.float32 and x.numpy().tolist() == [1.0, 0.0]
    n = pylayer.to_tensor([1, 2])
    assert n.scale_(2).numpy().tolist() == [2, 4]
