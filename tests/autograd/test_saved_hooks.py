"""saved_tensors_hooks (paddle-behavior.md section 5, and where pylayer goes further)."""
import threading

import numpy as np
import pytest

import pylayer as paddle
from pylayer._core.graph import current_saved_tensors_hooks
from pylayer.autograd import PyLayer, saved_tensors_hooks


def leaf(values):
    return paddle.to_tensor(np.asarray(values, dtype="float64"), stop_gradient=False)


class Recorder:
    """A pack/unpack pair that logs its calls and the grad mode they ran in."""

    def __init__(self, tag="", packed=lambda t: ("packed", t)):
        self.tag = tag
        self.log = []
        self.modes = []
        self._packed = packed

    def pack(self, tensor):
        self.log.append(("pack", self.tag, tensor))
        self.modes.append(paddle.is_grad_enabled())
        return self._packed(tensor)

    def unpack(self, packed):
        self.log.append(("unpack", self.tag, packed))
        self.modes.append(paddle.is_grad_enabled())
        return packed[1]

    def hooks(self):
        return saved_tensors_hooks(self.pack, self.unpack)

    def count(self, kind):
        return sum(1 for entry in self.log if entry[0] == kind)


class Mul(PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, dy):
        a, b = ctx.saved_tensor()
        return dy * b, dy * a


class SaveAll(PyLayer):
    """Saves whatever SaveAll.items(x) returns; backward stores saved_tensor()."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(*SaveAll.items(x))
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        SaveAll.got = ctx.saved_tensor()
        return dy * 2


def test_builtin_ops_pack_the_tensors_they_save():
    rec = Recorder()
    x = leaf([0.5, 1.0])
    y = leaf([2.0, 3.0])
    with rec.hooks():
        z = paddle.tanh(x) * y       # tanh saves its output; multiply both inputs
    assert rec.count("pack") == 3
    z.sum().backward()
    assert rec.count("unpack") == 3
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 3.0] * (1 - np.tanh([0.5, 1.0]) ** 2))
    np.testing.assert_allclose(y.grad.numpy(), np.tanh([0.5, 1.0]))


def test_save_for_backward_packs_each_element_including_none_and_list_items():
    rec = Recorder()
    a, b = paddle.ones([1]), paddle.zeros([1])
    SaveAll.items = staticmethod(lambda x: (x, None, [a, b], (a,)))
    x = leaf([1.0])
    with rec.hooks():
        out = SaveAll.apply(x)
    packed = [entry[2] for entry in rec.log if entry[0] == "pack"]
    assert packed[0] is x and packed[1] is None and packed[2] is a and packed[3] is b
    assert packed[4] is a and len(packed) == 5
    paddle.grad(out, x, create_graph=True)          # grad mode is on in backward
    assert rec.count("unpack") == 5
    assert len(rec.modes) == 10 and not any(rec.modes)
    got = SaveAll.got
    assert got[0] is x and got[1] is None
    assert isinstance(got[2], list) and got[2][0] is a and got[2][1] is b
    assert isinstance(got[3], tuple) and got[3][0] is a


def test_the_multiply_inside_forward_packs_nothing_only_save_for_backward_does():
    rec = Recorder()
    a, b = leaf([1.0]), leaf([2.0])
    with rec.hooks():
        Mul.apply(a, b).backward()
    assert [entry[2] for entry in rec.log if entry[0] == "pack"] == [a, b]
    assert a.grad.item() == 2.0 and b.grad.item() == 1.0


def test_pack_runs_only_when_a_node_is_built():
    rec = Recorder()
    SaveAll.items = staticmethod(lambda x: (x,))
    with rec.hooks():
        paddle.tanh(paddle.ones([2]))
        SaveAll.apply(paddle.ones([2]))
        with paddle.no_grad():
            paddle.tanh(leaf([1.0]))
            SaveAll.apply(leaf([1.0]))
    assert rec.log == []


def test_both_hooks_run_with_recording_off():
    rec = Recorder()
    a, b = leaf([1.0]), leaf([2.0])
    with rec.hooks():
        y = Mul.apply(a, b) * a
    paddle.grad(y, [a, b], create_graph=True)      # backward records: grad mode is on
    assert rec.count("pack") == 4 and rec.count("unpack") == 4
    assert len(rec.modes) == 8 and not any(rec.modes)


def test_a_pylayer_unpacks_on_every_saved_tensor_call():
    class TwiceUnpack(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            ctx.saved_tensor()
            ctx.saved_tensor()
            x, = ctx.saved_tensors
            return dy

    rec = Recorder()
    with rec.hooks():
        out = TwiceUnpack.apply(leaf([1.0]))
    out.backward()
    assert rec.count("pack") == 1 and rec.count("unpack") == 3


def test_hooks_stay_with_the_node_after_the_block_ends():
    rec = Recorder()
    a, b = leaf([3.0]), leaf([4.0])
    with rec.hooks():
        y = Mul.apply(a, b)
    assert current_saved_tensors_hooks() is None
    y.backward()
    assert rec.count("unpack") == 2 and a.grad.item() == 4.0


def test_the_packed_value_can_be_any_object():
    storage = {}

    def pack(t):
        key = f"slot{len(storage)}"
        storage[key] = t.numpy().tobytes(), t.numpy().dtype, t.shape
        return key

    def unpack(key):
        raw, dtype, shape = storage[key]
        return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()   # an ndarray works too

    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    with saved_tensors_hooks(pack, unpack):
        out = Mul.apply(a, b) + paddle.tanh(a)
    out.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [3.0, 4.0] + (1 - np.tanh([1.0, 2.0]) ** 2))
    np.testing.assert_allclose(b.grad.numpy(), [1.0, 2.0])


def test_nesting_is_allowed_and_the_innermost_pair_wins():
    outer, inner = Recorder("outer"), Recorder("inner")
    a, b = leaf([1.0]), leaf([2.0])
    with outer.hooks():
        y1 = Mul.apply(a, b)
        with inner.hooks():
            y2 = a * b
        y3 = paddle.tanh(a)
    assert outer.count("pack") == 3 and inner.count("pack") == 2
    (y1 + y2 + y3).backward()
    assert outer.count("unpack") == 3 and inner.count("unpack") == 2


def test_save_for_backward_uses_the_hooks_active_where_it_was_called():
    outer, inner = Recorder("outer"), Recorder("inner")

    class InnerBlock(PyLayer):
        @staticmethod
        def forward(ctx, x):
            with inner.hooks():
                ctx.save_for_backward(x)
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            x, = ctx.saved_tensor()
            return dy * x

    x = leaf([5.0])
    with outer.hooks():
        out = InnerBlock.apply(x)
    out.backward()
    assert inner.count("pack") == 1 and inner.count("unpack") == 1
    assert outer.log == [] and x.grad.item() == 5.0


def test_hooks_are_per_thread():
    main_rec, thread_rec = Recorder("main"), Recorder("thread")
    inside_thread = threading.Event()
    main_done = threading.Event()
    errors = []

    def worker():
        try:
            with thread_rec.hooks():
                inside_thread.set()
                main_done.wait(10)
                x = leaf([1.0])
                Mul.apply(x, x).backward()
        except Exception as exc:        # pragma: no cover - reported below
            errors.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    inside_thread.wait(10)
    x = leaf([2.0])
    assert current_saved_tensors_hooks() is None     # the thread's hooks are not ours
    with main_rec.hooks():
        main_done.set()
        Mul.apply(x, x).backward()
    thread.join(10)
    assert errors == []
    assert main_rec.count("pack") == 2 and thread_rec.count("pack") == 2
    assert {entry[1] for entry in main_rec.log} == {"main"}


def test_hook_state_is_restored_when_pack_raises_in_a_builtin_op():
    def bad_pack(t):
        raise MemoryError("cannot pack")

    x = leaf([1.0])
    with pytest.raises(MemoryError, match="cannot pack"):
        with saved_tensors_hooks(bad_pack, lambda p: p):
            paddle.tanh(x)
    assert current_saved_tensors_hooks() is None and paddle.is_grad_enabled()
    paddle.tanh(x).backward()               # works normally afterwards
    assert x.grad is not None


def test_hook_state_is_restored_when_pack_raises_in_a_pylayer():
    rec = Recorder("outer")

    def bad_pack(t):
        raise ValueError("cannot pack")

    class InnerBad(PyLayer):
        @staticmethod
        def forward(ctx, x):
            with saved_tensors_hooks(bad_pack, lambda p: p):
                ctx.save_for_backward(x)
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = leaf([1.0])
    with rec.hooks():
        with pytest.raises(ValueError, match="cannot pack"):
            InnerBad.apply(x)
        assert current_saved_tensors_hooks() == (rec.pack, rec.unpack)
        assert paddle.is_grad_enabled()
    assert current_saved_tensors_hooks() is None


def test_hook_state_is_restored_when_unpack_raises():
    def bad_unpack(p):
        raise ValueError("cannot unpack")

    a, b = leaf([1.0]), leaf([2.0])
    with saved_tensors_hooks(lambda t: t, bad_unpack):
        y = Mul.apply(a, b)
    with pytest.raises(ValueError, match="cannot unpack"):
        y.backward()
    assert paddle.is_grad_enabled() and current_saved_tensors_hooks() is None


def test_version_check_is_kept_while_hooks_are_active():
    a = leaf([1.0, 2.0]) * 1
    b = leaf([3.0, 4.0])
    with saved_tensors_hooks(lambda t: t.numpy().copy(), lambda p: paddle.to_tensor(p)):
        y = Mul.apply(a, b)
    a.add_(paddle.ones([2], dtype="float64"))
    with pytest.raises(RuntimeError, match=r"GradNodePyLayer_Mul.*modified by an inplace"):
        y.sum().backward()


def test_a_saved_output_under_hooks_still_supports_double_backward():
    class Tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))

    data = np.array([0.3, -1.2])
    x = leaf(data)
    with saved_tensors_hooks(lambda t: t.numpy().copy(), lambda p: p):
        out = Tanh.apply(x)
    (g,) = paddle.grad(out.sum(), x, create_graph=True)
    (gg,) = paddle.grad(g.sum(), x)
    y = np.tanh(data)
    np.testing.assert_allclose(gg.numpy(), -2 * y * (1 - y ** 2))


def test_hooks_must_be_callable():
    with pytest.raises(TypeError, match="pack_hook.*callable.*int"):
        saved_tensors_hooks(3, lambda p: p)
    with pytest.raises(TypeError, match="unpack_hook.*callable.*str"):
        saved_tensors_hooks(lambda t: t, "no")


@pytest.mark.parametrize("hooks", [
    lambda: saved_tensors_hooks(lambda t: t.numpy().copy(), lambda p: paddle.to_tensor(p)),
    lambda: saved_tensors_hooks(lambda t: t, lambda p: p),
], ids=["copying hooks", "identity hooks"])
def test_saved_inputs_under_hooks_still_support_double_backward(hooks):
    a = leaf([1.5, -2.0])
    b = paddle.tanh(leaf([0.5, 0.25]))          # a non-leaf input
    with hooks():
        out = Mul.apply(a, b)
    ga, gb = paddle.grad(out.sum(), [a, b], create_graph=True)
    np.testing.assert_allclose(ga.numpy(), b.numpy())
    (gab,) = paddle.grad(ga.sum(), [b])          # d(ga)/db = 1, through the saved b
    np.testing.assert_allclose(gab.numpy(), [1.0, 1.0])
    (gba,) = paddle.grad(gb.sum(), [a])
    np.testing.assert_allclose(gba.numpy(), [1.0, 1.0])


def test_gradgradcheck_passes_on_a_pylayer_under_hooks():
    def hooked_mul(a, b):
        with saved_tensors_hooks(lambda t: t.numpy().copy(), lambda p: paddle.to_tensor(p)):
            return Mul.apply(a, b)

    assert paddle.autograd.gradgradcheck(hooked_mul, (leaf([0.5, 1.0]), leaf([2.0, -1.0])))
