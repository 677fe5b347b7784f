"""Adam's fused update (``pylayer.extend.adam_update``, one compiled pass per parameter)
gives numpy's passes' numbers to the last bit, and refuses (changing nothing) the
arrays its raw loop may not run over; Adam and AdamW give the same trajectory as
the numpy passes they replaced."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer import extend

rng = np.random.default_rng(34)


def numpy_adam(param, grad, m, v, v_max, lr, beta1, beta2, epsilon, decay):
    """The numpy passes Adam ran before the fused loop, scalars in the arrays' dtype."""
    ct = param.dtype.type
    param *= ct(decay)
    m *= ct(beta1)
    m += (ct(1) - ct(beta1)) * grad
    v *= ct(beta2)
    v += (ct(1) - ct(beta2)) * np.square(grad)
    if v_max is not None:
        np.maximum(v_max, v, out=v_max)
        v = v_max
    step = m / (np.sqrt(v) + ct(epsilon))
    step *= ct(lr)
    param -= step


def state(dtype, n=1000, nan=False):
    param, grad = (rng.standard_normal(n).astype(dtype) for _ in range(2))
    m = rng.standard_normal(n).astype(dtype) * 0.1
    v = np.abs(rng.standard_normal(n)).astype(dtype) * 0.01
    v_max = np.abs(rng.standard_normal(n)).astype(dtype) * 0.01
    if nan:
        grad[3] = np.nan
        v_max[5] = np.nan
    return param, grad, m, v, v_max


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("amsgrad", [False, True])
@pytest.mark.parametrize("decay", [1.0, 0.99])
def test_the_fused_update_equals_numpys_passes_bit_for_bit(dtype, amsgrad, decay):
    ct = np.dtype(dtype).type
    scalars = (float(ct(3e-3)), 0.9, 0.999, float(ct(1e-8)), float(ct(decay)))
    fused = state(dtype, nan=True)
    expected = [a.copy() for a in fused]
    if not amsgrad:
        fused, expected = fused[:4] + (None,), expected[:4] + [None]
    assert extend.adam_update(*fused, *scalars) is True
    numpy_adam(*expected, *scalars)
    for got, want in zip(fused, expected):
        if want is not None:
            np.testing.assert_array_equal(got, want)


def _refusals():
    return {
        "mixed dtypes": lambda a: a.__setitem__(1, a[1].astype(np.float64)),
        "a strided moment": lambda a: a.__setitem__(2, np.zeros(2 * a[2].size, a[2].dtype)[::2]),
        "a float16 parameter": lambda a: a.__setitem__(0, a[0].astype(np.float16)),
        "a big-endian gradient": lambda a: a.__setitem__(1, a[1].astype(">f4")),
        "a moment that is the gradient": lambda a: a.__setitem__(2, a[1]),
    }


@pytest.mark.parametrize("case", sorted(_refusals()))
def test_arrays_the_loop_may_not_run_over_are_left_alone(case):
    arrays = list(state(np.float32, n=8)[:4])
    _refusals()[case](arrays)
    before = [np.array(a, copy=True) for a in arrays]
    assert extend.adam_update(*arrays, None, 0.1, 0.9, 0.999, 1e-8, 1.0) is False
    for a, b in zip(arrays, before):
        np.testing.assert_array_equal(np.asarray(a), b)


def test_a_non_number_scalar_is_a_type_error():
    with pytest.raises(TypeError, match="adam_update.*'lr' must be a real number"):
        extend.adam_update(*state(np.float32, n=4)[:4], None, "0.1", 0.9, 0.999, 1e-8, 1.0)


def _read_only(arrays):
    arrays[0].flags.writeable = False


@pytest.mark.parametrize("case,error,message", [
    (lambda a: a.__setitem__(0, list(a[0])), TypeError, "'param' must be a numpy array"),
    (lambda a: a.__setitem__(1, a[1].astype(str)), TypeError, "'grad' must be a numpy array"),
    (lambda a: a.__setitem__(3, np.zeros(a[3].size + 1, a[3].dtype)), ValueError,
     "'moment2' must have the shape of 'param'"),
    (_read_only, ValueError, "'param' must be writeable"),
], ids=["a list", "strings", "shapes that differ", "a read-only parameter"])
def test_arguments_that_are_not_arrays_of_one_shape_are_refused(case, error, message):
    arrays = list(state(np.float32, n=8)[:4])
    case(arrays)
    before = [np.array(a, copy=True) for a in arrays]
    with pytest.raises(error, match=message):
        extend.adam_update(*arrays, None, 0.1, 0.9, 0.999, 1e-8, 1.0)
    for a, b in zip(arrays, before):
        np.testing.assert_array_equal(np.asarray(a), b)


def _trajectory(make_optimizer, dtype, steps=20):
    """The parameters after ``steps`` updates of a small quadratic problem."""
    w = paddle.create_parameter([64, 8], dtype)
    b = paddle.create_parameter([8], dtype, is_bias=True)
    w.set_value(np.linspace(-1, 1, 512).reshape(64, 8).astype(dtype))
    b.set_value(np.linspace(0.5, -0.5, 8).astype(dtype))
    x = paddle.to_tensor(np.cos(np.arange(32 * 64)).reshape(32, 64).astype(dtype))
    opt = make_optimizer([w, b])
    for _ in range(steps):
        loss = ((paddle.matmul(x, w) + b) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    return w.numpy().copy(), b.numpy().copy()


def _numpy_only(monkeypatch):
    import pylayer.optimizer.adam as adam_module
    monkeypatch.setattr(adam_module, "adam_update", lambda *args: False)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("make", [
    lambda ps: paddle.optimizer.Adam(learning_rate=0.01, parameters=ps),
    lambda ps: paddle.optimizer.Adam(learning_rate=0.01, parameters=ps, amsgrad=True,
                                     weight_decay=0.1),
    lambda ps: paddle.optimizer.AdamW(learning_rate=0.01, parameters=ps, weight_decay=0.05),
    lambda ps: paddle.optimizer.AdamW(learning_rate=0.01, parameters=ps, amsgrad=True,
                                      apply_decay_param_fun=lambda name: False),
], ids=["adam", "adam-amsgrad-l2", "adamw", "adamw-amsgrad-nodecay"])
def test_adam_and_adamw_follow_the_numpy_trajectory_exactly(monkeypatch, dtype, make):
    fused = _trajectory(make, dtype)
    _numpy_only(monkeypatch)
    reference = _trajectory(make, dtype)
    for got, want in zip(fused, reference):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_adamw_updates_each_float_parameter_in_the_fused_loop(monkeypatch, dtype):
    import pylayer.optimizer.adam as adam_module
    results = []

    def spy(*args):
        results.append(extend.adam_update(*args))
        return results[-1]

    monkeypatch.setattr(adam_module, "adam_update", spy)
    _trajectory(lambda ps: paddle.optimizer.AdamW(parameters=ps), dtype, steps=2)
    assert results == [True] * 4
