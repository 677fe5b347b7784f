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
