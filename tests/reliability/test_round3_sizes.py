"""Issue 31, parts 4 and 6: sizes are checked before allocating, and nothing a user
needs is accepted silently.

The memory repros run in a child process whose address space is limited
(``run_under_limit``), so a blow-up fails the test, not the run.
"""
import numpy as np
import pytest

import pylayer
from pylayer import nn
from pylayer.autograd import gradcheck, gradgradcheck
from pylayer.optimizer import SGD, Adam

from test_memory_limits import run_under_limit

_BUDGET = 256 * 2 ** 20


# ----------------------------------------------- part 4: sizes before allocation
def test_one_hot_of_one_id_needs_only_its_result():
    out = run_under_limit("""
        for classes in (20000, 100000):
            y = F.one_hot(paddle.to_tensor([3]), classes)
            print(y.shape, float(y.sum()), float(y[0, 3]))
    """, budget=_BUDGET)
    assert out.split("\n")[:2] == ["[1, 20000] 1.0 1.0", "[1, 100000] 1.0 1.0"]


def test_one_hot_refuses_a_result_beyond_memory_naming_itself():
    with pytest.raises((MemoryError, ValueError), match=r"one_hot\(\): argument 'num_classes'"):
        pylayer.nn.functional.one_hot(pylayer.arange(1000), 2 ** 30)
    with pytest.raises(ValueError, match=r"one_hot\(\): argument 'num_classes'"):
        pylayer.nn.functional.one_hot(pylayer.to_tensor([3]), 2 ** 40 + 1)


def test_prod_gradient_with_a_zero_is_linear_in_the_input():
    out = run_under_limit("""
        for count in (8000, 100000):
            values = np.ones(count)
            values[:4] = [2.0, 0.0, 0.5, 3.0]
            x = paddle.to_tensor(values, stop_gradient=False)
            paddle.prod(x).backward()
            print(x.grad.numpy()[:4].tolist(), float(np.abs(x.grad.numpy()[4:]).max()))
    """, budget=_BUDGET)
    assert out.split("\n")[:2] == ["[0.0, 3.0, 0.0, 0.0] 0.0"] * 2


def _closed_form_product_gradient(a, axis):
    """The product of the other elements of each slice, one element at a time."""
    a = np.moveaxis(a, axis, -1)
    out = np.empty_like(a)
    for index in np.ndindex(a.shape):
        row = a[index[:-1]]
        out[index] = np.prod(np.delete(row, index[-1]))
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("zeros", [1, 2, 3])
def test_prod_gradient_with_zeros_is_exact_and_twice_differentiable(zeros):
    rng = np.random.default_rng(zeros)
    a = rng.uniform(0.5, 2.0, (3, 5))
    a[0, :zeros] = 0.0
    a[2, 1:1 + zeros] = 0.0
    for axis in (0, 1):
        x = pylayer.to_tensor(a, stop_gradient=False)
        pylayer.prod(x, axis=axis).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), _closed_form_product_gradient(a, axis),
                                   rtol=1e-12, atol=0)
    flat = a.ravel()
    expected = [np.prod(np.delete(flat, i)) for i in range(flat.size)]
    x = pylayer.to_tensor(a, stop_gradient=False)
    pylayer.prod(x).backward()
    np.testing.assert_allclose(x.grad.numpy().ravel(), expected, rtol=1e-12, atol=0)
    for axis in (0, 1, None):
        leaf = pylayer.to_tensor(a, stop_gradient=False)
        assert gradcheck(lambda t: pylayer.prod(t, axis=axis), leaf)
        assert gradgradcheck(lambda t: pylayer.prod(t, axis=axis), leaf)


def test_prod_gradient_with_zeros_in_complex_takes_the_conjugate():
    z = np.array([1 + 1j, 0j, 2 - 1j])
    x = pylayer.to_tensor(z, stop_gradient=False)
    pylayer.prod(x).real().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0, np.conj((1 + 1j) * (2 - 1j)), 0])


def test_interpolate_checks_its_output_size_before_building_indices():
    out = run_under_limit("""
        import time
        x = paddle.ones([1, 1, 2, 2])
        for size in ([2 ** 24] * 2, [2 ** 31] * 2):
            start = time.perf_counter()
            try:
                F.interpolate(x, size=size)
            except (ValueError, MemoryError) as error:
                print(str(error).split(" asks for ")[0], time.perf_counter() - start < 1.0)
    """, budget=_BUDGET, timeout=60)
    assert out.split("\n")[:2] == ["interpolate(): argument 'size' True"] * 2


def test_interpolate_never_holds_more_than_its_input_and_output():
    """Shrinking axes are resized first, so no step holds ``out_h * in_w`` elements."""
    out = run_under_limit("""
        for mode in ("nearest", "bilinear"):
            x = paddle.ones([1, 1, 1, 2 ** 17])
            x.stop_gradient = False
            y = F.interpolate(x, size=[2 ** 17, 1], mode=mode)
            y.sum().backward()
            print(y.shape, float(x.grad.sum()))
    """, budget=_BUDGET)
    assert out.split("\n")[:2] == [f"[1, 1, {2 ** 17}, 1] {2.0 ** 17}"] * 2


def test_pad_checks_its_output_size_first():
    for mode in ("constant", "replicate"):
        with pytest.raises(MemoryError, match=r"pad\(\): argument 'pad' asks for"):
            pylayer.nn.functional.pad(pylayer.ones([1, 1, 2, 2]), [2 ** 19, 0, 2 ** 19, 0],
                                      mode=mode)


# ----------------------------------------------- part 6: silent acceptance
def _model(seed=0):
    pylayer.seed(seed)
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))


def _train_step(model, optimizer, inputs):
    model(inputs).sum().backward()
    optimizer.step()
    optimizer.clear_grad()


def test_adam_state_reaches_a_rebuilt_model_whose_parameters_have_other_names():
    inputs = pylayer.to_tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    model = _model()
    optimizer = Adam(learning_rate=0.1, parameters=model.parameters())
    for _ in range(3):
        _train_step(model, optimizer, inputs)
    saved_model = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    saved_optimizer = optimizer.state_dict()

    rebuilt = _model(seed=1)
    assert {p.name for p in rebuilt.parameters()}.isdisjoint(p.name for p in model.parameters())
    rebuilt.set_state_dict(saved_model)
    restored = Adam(learning_rate=0.1, parameters=rebuilt.parameters())
    restored.set_state_dict(saved_optimizer)
    _train_step(model, optimizer, inputs)
    _train_step(rebuilt, restored, inputs)
    for mine, theirs in zip(rebuilt.parameters(), model.parameters()):
        # the powers of beta are saved in float32, as Paddle saves them
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_optimizer_state_that_matches_no_parameter_is_refused_naming_the_keys():
    model = _model()
    optimizer = Adam(learning_rate=0.1, parameters=model.parameters())
    _train_step(model, optimizer, pylayer.ones([2, 3]))
    saved = optimizer.state_dict()
    other = nn.Linear(3, 4)             # another structure: 2 parameters, not 4
    restored = Adam(learning_rate=0.1, parameters=other.parameters())
    with pytest.raises(ValueError, match=r"set_state_dict\(\).*moment1_0"):
        restored.set_state_dict(saved)
    assert restored.state_dict() == {}
    with pytest.raises(ValueError, match=r"set_state_dict\(\).*velocity_0"):
        restored.set_state_dict({f"{other.weight.name}_velocity_0": np.zeros([3, 4])})


def test_optimizer_state_of_the_same_names_still_loads_by_name():
    model = _model()
    optimizer = Adam(learning_rate=0.1, parameters=model.parameters())
    _train_step(model, optimizer, pylayer.ones([2, 3]))
    saved = optimizer.state_dict()
    restored = Adam(learning_rate=0.1, parameters=list(model.parameters())[::-1])
    restored.set_state_dict(saved)
    for key, value in restored.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), saved[key].numpy())
    SGD(learning_rate=0.1, parameters=model.parameters()).set_state_dict({})


@pytest.mark.parametrize("low, high, arg", [
    (-1e308, 1e308, "max"), (-np.inf, 1.0, "min"), (0.0, np.inf, "max"),
    (0.0, np.nan, "max"), (np.nan, 1.0, "min")])
def test_histogram_refuses_a_range_that_is_not_finite(low, high, arg):
    x = pylayer.to_tensor([0.5, 1.0, 2.0])
    with pytest.raises(ValueError, match=rf"histogram\(\): argument '{arg}'"):
        pylayer.histogram(x, bins=4, min=low, max=high)


def test_conv2d_weight_gradient_never_holds_one_product_per_sample():
    # The weight gradient summed a [batch, *weight] array of per-sample products: 148 MiB
    # for a 1 MiB input and a 0.56 MiB weight; now the samples go in chunks whose
    # products take no more memory than the column buffer.
    import tracemalloc
    rng = np.random.default_rng(0)
    x = pylayer.to_tensor(rng.random((256, 64, 4, 4), dtype=np.float32))
    w = pylayer.to_tensor(rng.random((256, 64, 3, 3), dtype=np.float32), stop_gradient=False)
    y = pylayer.nn.functional.conv2d(x, w, padding=1)
    tracemalloc.start()
    try:
        y.sum().backward()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20, f"the backward of conv2d peaked at {peak / 2**20:.0f} MiB"
    col = np.lib.stride_tricks.sliding_window_view(
        np.pad(x.numpy(), ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3), axis=(2, 3))
    expected = np.einsum("ncijkl->ckl", col.astype(np.float64))[None].repeat(256, 0)
    np.testing.assert_allclose(w.grad.numpy(), expected, rtol=1e-4)
