"""Operators never write into an operand: whoever holds it, and however it is held.

(Earlier versions reused a large operand that only the expression seemed to
hold; borrowed references fooled that, see test_exact_shortcuts.py.)
"""
import functools
import operator

import numpy as np

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


def test_a_whole_expression_keeps_its_inputs():
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
