"""Operators reuse the array of a large temporary operand, and never an array anyone can see."""
import functools
import operator

import numpy as np
import pytest

import pylayer as paddle

BIG = np.random.default_rng(0).uniform(0.5, 1.5, 2 ** 17)     # float64, 1 MB
addresses = []


def temporary(dtype="float64"):
    """A new large Tensor that only the calling expression will hold; notes its data address."""
    t = paddle.to_tensor(BIG.astype(dtype))
    addresses.append(t.numpy().ctypes.data)
    return t


def address(t):
    return t.numpy().ctypes.data


@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv])
def test_a_temporary_operand_takes_the_result_on_either_side(op):
    left = op(temporary(), 3.0)
    assert address(left) == addresses[-1]
    np.testing.assert_array_equal(left.numpy(), op(BIG, 3.0))
    right = op(2, temporary())
    assert address(right) == addresses[-1]
    np.testing.assert_array_equal(right.numpy(), op(2, BIG))
    other = paddle.to_tensor(BIG)
    both = op(other, temporary())
    assert address(both) == addresses[-1]
    np.testing.assert_array_equal(both.numpy(), op(BIG, BIG))
    np.testing.assert_array_equal(other.numpy(), BIG)


def test_a_whole_expression_reuses_one_buffer_and_keeps_its_inputs():
    y = paddle.to_tensor(BIG.astype("float32"))
    dy = paddle.to_tensor(np.ones_like(BIG, dtype="float32"))
    out = dy * (1 - y * y)
    np.testing.assert_allclose(out.numpy(), 1 - BIG.astype("float32") ** 2, rtol=1e-6)
    np.testing.assert_array_equal(y.numpy(), BIG.astype("float32"))
    assert out.dtype == paddle.float32


def test_a_tensor_held_by_a_name_is_never_overwritten():
    t = temporary()
    u = t * 2
    np.testing.assert_array_equal(t.numpy(), BIG)
    assert address(u) != address(t)


def test_a_tensor_whose_array_is_shared_is_never_overwritten():
    kept = []

    def shared(keep):
        t = temporary()
        kept.append(keep(t.numpy()))         # the array (or a view of it) lives on
        return t

    for keep in (lambda a: a, lambda a: a[::2]):
        out = shared(keep) * 2
        np.testing.assert_array_equal(out.numpy(), BIG * 2)
        assert address(out) != addresses[-1]
    np.testing.assert_array_equal(kept[0], BIG)
    np.testing.assert_array_equal(kept[1], BIG[::2])


def test_c_code_calling_an_operator_never_gets_its_operand_overwritten():
    cells = np.empty(1, dtype=object)
    cells[0] = paddle.to_tensor(BIG)         # only the object array holds it
    doubled = cells * 2                      # numpy's C loop calls Tensor.__mul__
    np.testing.assert_array_equal(cells[0].numpy(), BIG)
    np.testing.assert_array_equal(doubled[0].numpy(), BIG * 2)
    total = functools.reduce(operator.add, [paddle.to_tensor(BIG), paddle.to_tensor(BIG)])
    np.testing.assert_array_equal(total.numpy(), BIG * 2)


def test_no_reuse_when_the_result_is_recorded_or_cannot_fit():
    x = paddle.to_tensor(BIG, stop_gradient=False)
    y = (x * 1) * 2                          # recorded: the op runs and keeps its graph
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full_like(BIG, 2.0))
    with paddle.no_grad():
        reused = temporary() * 2             # (not inside assert: pytest keeps its operands)
    assert address(reused) == addresses[-1]
    widened = temporary("float32") * paddle.to_tensor(BIG)     # float64 result: no reuse
    assert widened.dtype == paddle.float64 and address(widened) != addresses[-1]
    column = temporary() * paddle.to_tensor(BIG.reshape(-1, 1)[:4])  # broadcast: no reuse
    assert column.shape == [4, BIG.size]
    small = paddle.to_tensor(np.ones(8)) * 2
    np.testing.assert_array_equal(small.numpy(), np.full(8, 2.0))
