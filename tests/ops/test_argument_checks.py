"""The shared argument checks (pylayer.ops._arguments): one wording for one
mistake, whichever module the op lives in."""
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer.nn.initializer import Constant
from pylayer.optimizer import SGD
from pylayer.ops._arguments import check_axes, check_axis, check_ints


def message(call):
    with pytest.raises((TypeError, ValueError)) as info:
        call()
    return str(info.value)


X = pylayer.ones([2, 3])

AXIS_CALLS = {
    "max": lambda axis: pylayer.max(X, axis=axis),                 # ops.reduction
    "logsumexp": lambda axis: pylayer.logsumexp(X, axis=[0, axis]),
    "concat": lambda axis: pylayer.concat([X], axis=axis),         # ops.manipulation
    "argsort": lambda axis: pylayer.argsort(X, axis=axis),         # ops.search
    "softmax": lambda axis: F.softmax(X, axis=axis),               # nn.functional
    "dropout": lambda axis: F.dropout(X, axis=axis),
}


@pytest.mark.parametrize("fn", sorted(AXIS_CALLS))
def test_an_axis_out_of_range_has_one_wording(fn):
    assert message(lambda: AXIS_CALLS[fn](5)) == (
        f"{fn}(): argument 'axis': axis 5 is out of range for a tensor of rank 2 "
        f"(expected -2 <= axis < 2)")


def test_the_axis_message_names_the_argument_it_checks():
    assert message(lambda: pylayer.flatten(X, start_axis=-3)).startswith(
        "flatten(): argument 'start_axis': axis -3 is out of range")


@pytest.mark.parametrize("fn, call", [
    ("concat", lambda axis: pylayer.concat([X], axis=axis)),
    ("softmax", lambda axis: F.softmax(X, axis=axis)),
])
def test_an_axis_tensor_must_hold_one_integer(fn, call):
    assert message(lambda: call(pylayer.ones([1]))) == (
        f"{fn}(): argument 'axis' must be an int or a one-element integer Tensor, got a "
        f"Tensor of shape [1] and dtype float32")
    assert call(pylayer.to_tensor([1])).shape == [2, 3]


def test_axis_checks_normalise():
    assert check_axis(-1, 3, "f") == 2
    assert check_axis(pylayer.to_tensor(1), 3, "f") == 1
    assert check_axis(-1, 0, "f") == 0                  # a 0-d tensor accepts 0 and -1
    assert check_axes([2, -3, 0], 3, "f") == (0, 2)     # sorted, repeats merged
    assert check_axes(None, 3, "f") is None and check_axes([], 3, "f") is None
    assert check_axes(0, 0, "f") is None                # a 0-d tensor reduces over all
    assert check_ints(pylayer.to_tensor([1, 2]), "f", "shape") == [1, 2]
    assert check_ints(3, "f", "shape") == [3]
    with pytest.raises(TypeError, match=r"f\(\): argument 'axis' must be an int or a list "
                                        r"of ints, got float"):
        check_axes([0, 1.0], 3, "f")


@pytest.mark.parametrize("fn, call, kinds", [
    ("var", lambda x: pylayer.var(x), "floating-point"),                     # ops.reduction
    ("bmm", lambda x: pylayer.bmm(x, x), "floating-point or complex"),       # ops.linalg
    ("gelu", lambda x: F.gelu(x), "floating-point"),                         # nn.functional
    ("layer_norm", lambda x: F.layer_norm(x, [1]), "floating-point"),        # nn.norm
    ("interpolate", lambda x: F.interpolate(x, size=[2]), "floating-point"),  # nn.spatial
    ("adaptive_avg_pool1d", lambda x: F.adaptive_avg_pool1d(x, 1), "floating-point"),
])
def test_a_float_only_op_refuses_integers_in_one_wording(fn, call, kinds):
    assert message(lambda: call(pylayer.to_tensor([[[1]]]))) == (
        f"{fn}(): argument 'x' (position 1) must be a {kinds} Tensor, got dtype int64")


@pytest.mark.parametrize("op, compiled", [(pylayer.sin, pylayer.tanh), (pylayer.erf, pylayer.rsqrt),
                                         (pylayer.std, pylayer.rsqrt),
                                         (pylayer.logsumexp, pylayer.rsqrt)])
def test_ops_computing_integers_in_float32_refuse_bool_as_the_compiled_ops_do(op, compiled):
    flag = pylayer.to_tensor([True])
    expected = message(lambda: compiled(flag)).replace(f"{compiled.__name__}()",
                                                       f"{op.__name__}()")
    assert message(lambda: op(flag)) == expected
    assert op(pylayer.to_tensor([1])).dtype == pylayer.float32


@pytest.mark.parametrize("call", [lambda v: Constant(v), lambda v: SGD(learning_rate=v,
                                                                       parameters=[])])
def test_layers_and_optimizers_check_numbers_with_the_shared_check(call):
    assert "must be a number, got 'a'" in message(lambda: call("a"))
    # A one-element Tensor counts as its number; a longer one is refused as a TypeError.
    call(pylayer.to_tensor([0.5]))
    with pytest.raises(TypeError, match="must be a number, got Tensor"):
        call(pylayer.ones([2]))
