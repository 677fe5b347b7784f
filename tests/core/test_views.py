"""Views and aliases (issue 31): every view op's output shares its base's memory and
version counter; an in-place write through any of them reaches all, and while a
graph is recorded it reaches the gradients too. Each view op named in the op
records (``Op(..., view=True)``) has a case here, and a test fails for one without."""
import gc

import numpy as np
import pytest

import pylayer
from pylayer._core.graph import Op
from pylayer._core.tensor import view_kind
from pylayer.autograd import gradcheck, gradgradcheck
from pylayer.ops.indexing import BASIC_INDEX_OPS

SHAPE = (2, 3)

# A view of a [2, 3] tensor per view op: each lambda returns one view.
VIEW_CASES = {
    "reshape": lambda t: t.reshape([3, 2]),
    "flatten": lambda t: t.flatten(),
    "squeeze": lambda t: pylayer.squeeze(pylayer.unsqueeze(t, 0), 0),
    "unsqueeze": lambda t: t.unsqueeze(1),
    "transpose": lambda t: t.transpose([1, 0]),
    "broadcast_to": lambda t: pylayer.broadcast_to(t, [2, 2, 3]),
    "expand": lambda t: t.expand([2, 2, 3]),
    "getitem": lambda t: t[1, 1:],
    "slice": lambda t: pylayer.slice(t, axes=[1], starts=[1], ends=[3]),
    "split": lambda t: pylayer.split(t, [1, 2], axis=1)[1],
    "unstack": lambda t: pylayer.unstack(t, axis=0)[1],
    "diagonal": lambda t: pylayer.diagonal(t, offset=1),
    "as_strided": lambda t: pylayer.as_strided(t, [2], [2], 1),
    "unfold": lambda t: t.unfold(1, 1, 2),
    # the complex views of a real base, as a round trip (the checks write real values)
    "view_as_complex": lambda t: pylayer.view_as_real(pylayer.view_as_complex(t[:, 1:])[1:]),
    "view_as_real": lambda t: pylayer.view_as_real(pylayer.view_as_complex(t.reshape([3, 2]))),
}
# Views whose elements share memory (broadcasts): written in place, they refuse.
READ_ONLY = {"broadcast_to", "expand"}
WRITABLE = sorted(set(VIEW_CASES) - READ_ONLY)


def view_op_names():
    records = {o.name for o in gc.get_objects() if type(o) is Op and o.view}
    return records | set(BASIC_INDEX_OPS)


def test_every_view_op_in_the_records_has_a_case():
    missing = view_op_names() - set(VIEW_CASES)
    assert not missing, f"view ops without a case in VIEW_CASES: {sorted(missing)}"
    assert set(VIEW_CASES) <= view_op_names() | {"T"}


def base_values():
    return np.arange(6, dtype=np.float64).reshape(SHAPE) + 1.0


def positions(make):
    """Which elements of the base the view ``make`` reads (a 0/1 mask of its shape)."""
    marker = pylayer.to_tensor(np.zeros(SHAPE))
    view = make(marker)
    view.fill_(1.0)
    return marker.numpy().copy()


@pytest.mark.parametrize("name", WRITABLE)
def test_a_write_through_a_view_reaches_the_base_and_shares_its_version(name):
    base = pylayer.to_tensor(base_values())
    view = VIEW_CASES[name](base)
    assert view_kind(view) == "view" and view._base is base
    mask = positions(VIEW_CASES[name])
    view.scale_(10.0)
    np.testing.assert_array_equal(base.numpy(), np.where(mask, 10.0, 1.0) * base_values())
    assert base.inplace_version == view.inplace_version == 1
    base.add_(pylayer.ones(list(SHAPE), dtype="float64"))
    assert view.inplace_version == 2
    np.testing.assert_array_equal(VIEW_CASES[name](base).numpy(), view.numpy())


@pytest.mark.parametrize("name", sorted(READ_ONLY))
def test_a_broadcast_view_refuses_in_place_writes_and_shares_the_version(name):
    base = pylayer.to_tensor(base_values())
    view = VIEW_CASES[name](base)
    with pytest.raises(ValueError, match="view whose memory cannot be written"):
        view.scale_(2.0)
    np.testing.assert_array_equal(base.numpy(), base_values())
    base.scale_(2.0)
    assert view.inplace_version == 1
    np.testing.assert_array_equal(view.numpy()[0], 2.0 * base_values())


@pytest.mark.parametrize("name", WRITABLE)
def test_a_recorded_write_through_a_view_reaches_the_gradient(name):
    make = VIEW_CASES[name]
    mask = positions(make)
    x = pylayer.to_tensor(base_values(), stop_gradient=False)
    h = x * 1.0
    make(h).scale_(3.0)
    factor = np.where(mask, 3.0, 1.0)
    np.testing.assert_allclose(h.numpy(), factor * base_values())
    (h * h).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * factor ** 2 * base_values())


@pytest.mark.parametrize("name", WRITABLE)
def test_a_recorded_write_through_a_view_passes_gradcheck(name):
    make = VIEW_CASES[name]

    def written(x, w):
        h = x * 1.0
        view = make(h)
        view.multiply_(pylayer.reshape(w, [1]).expand(view.shape) if view.ndim else w.sum())
        return h * h

    x = pylayer.to_tensor(base_values(), stop_gradient=False)
    w = pylayer.to_tensor([1.5], dtype="float64", stop_gradient=False)
    assert gradcheck(written, [x, w])
    assert gradgradcheck(written, [x, w])


@pytest.mark.parametrize("name", WRITABLE + ["detach"])
def test_a_saved_tensor_written_through_a_view_or_alias_fails_backward(name):
    make = (lambda t: t.detach()) if name == "detach" else VIEW_CASES[name]
    x = pylayer.to_tensor(base_values(), stop_gradient=False)
    h = x * 1.0
    loss = (h * h).sum()                 # multiply keeps h
    with pylayer.no_grad():
        make(h).scale_(5.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


@pytest.mark.parametrize("name", WRITABLE)
def test_a_view_used_after_its_base_changed_in_place_reads_the_new_history(name):
    make = VIEW_CASES[name]
    mask = positions(make)
    x = pylayer.to_tensor(base_values(), stop_gradient=False)
    h = x * 1.0
    view = make(h)
    h.scale_(2.0)
    np.testing.assert_allclose(view.numpy(), make(pylayer.to_tensor(2.0 * base_values())).numpy())
    (view * view).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 8.0 * mask * base_values())


def test_a_write_through_one_view_reaches_another_view_and_its_gradient():
    x = pylayer.to_tensor(base_values(), stop_gradient=False)
    h = x * 1.0
    row, column = h[0], h[:, 1]
    row.scale_(4.0)                       # h[0, 1] is in both
    assert column.numpy()[0] == 8.0
    column.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.0, 4.0, 0.0], [0.0, 1.0, 0.0]])


def test_views_of_views_share_one_base_and_counter():
    base = pylayer.to_tensor(base_values())
    inner = base[1][1:].reshape([2, 1])
    assert inner._base is base
    inner.fill_(0.0)
    np.testing.assert_array_equal(base.numpy()[1], [4.0, 0.0, 0.0])
    assert base.inplace_version == inner.inplace_version == 1


def test_the_issue_repros_write_through_while_recording():
    for write in (lambda h: h.__setitem__(0, 7.0), lambda h: h[0:1].scale_(7.0),
                  lambda h: h.reshape([-1]).add_(pylayer.to_tensor(6.0, dtype="float64")),
                  lambda h: h.T[0].fill_(7.0)):
        x = pylayer.to_tensor([1.0, 2.0, 3.0], dtype="float64", stop_gradient=False)
        h = x * 1.0
        write(h)
        assert h.numpy()[0] == 7.0
    x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64", stop_gradient=False)
    h = x * 1.0
    h[0][0] = 7.0
    np.testing.assert_array_equal(h.numpy(), [[7.0, 2.0], [3.0, 4.0]])
    (h * h).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 4.0], [6.0, 8.0]])


def test_a_view_of_a_leaf_that_needs_a_gradient_refuses_a_recorded_write():
    x = pylayer.to_tensor(base_values(), stop_gradient=False)
    with pytest.raises(ValueError, match="view of a leaf tensor that needs a gradient"):
        x[0].fill_(0.0)
    np.testing.assert_array_equal(x.numpy(), base_values())
    with pylayer.no_grad():
        x[0].fill_(0.0)                   # how parameters are updated
    assert x.numpy()[0].tolist() == [0.0, 0.0, 0.0]


def test_detach_is_an_alias_that_is_not_differentiable():
    x = pylayer.to_tensor(base_values(), stop_gradient=False)
    h = x * 1.0
    alias = h.detach()
    assert view_kind(alias) == "alias" and alias._base is None   # keeps no graph alive
    alias[0] = 0.0                        # no graph: h's history is kept
    assert h.numpy()[0].tolist() == [0.0, 0.0, 0.0]
    assert h.inplace_version == 1
    h.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones(SHAPE))


def test_a_copy_is_no_alias():
    base = pylayer.to_tensor(base_values())
    for copy in (base.clone(), base[[0, 1]], base.transpose([1, 0]).reshape([6])):
        assert copy._base is None
        copy.fill_(0.0)
    np.testing.assert_array_equal(base.numpy(), base_values())
    assert base.inplace_version == 0


def test_reshape_in_place_keeps_the_memory():
    base = pylayer.to_tensor(base_values())
    base.reshape_([6])
    assert base.shape == [6] and base.inplace_version == 1
    base.unsqueeze_(0)
    assert base.shape == [1, 6]
