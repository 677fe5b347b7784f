"""Random sampling: shapes, dtypes, errors, the generator, and the distributions by
seeded statistical checks (each draw is seeded, so each check gives the same numbers
on every run; the bounds are several standard errors wide)."""
import numpy as np
import pytest

import pylayer

N = 20000


@pytest.fixture(autouse=True)
def seeded():
    pylayer.seed(1234)
    yield


def near(value, expected, width):
    assert abs(value - expected) < width, (value, expected)


# ------------------------------------------------------------- multinomial
def test_multinomial_with_replacement_follows_the_weights():
    draws = pylayer.multinomial(pylayer.to_tensor([1.0, 2.0, 7.0]), N, replacement=True)
    assert draws.dtype == pylayer.int64 and draws.shape == [N]
    np.testing.assert_allclose(np.bincount(draws.numpy(), minlength=3) / N, [0.1, 0.2, 0.7],
                               atol=0.015)


def test_multinomial_without_replacement_draws_sequentially():
    rows = pylayer.to_tensor([[1.0, 2.0, 7.0]] * 5000)
    draws = pylayer.multinomial(rows, 2).numpy()
    assert draws.shape == (5000, 2) and (draws[:, 0] != draws[:, 1]).all()
    np.testing.assert_allclose(np.bincount(draws[:, 0], minlength=3) / 5000, [0.1, 0.2, 0.7],
                               atol=0.02)
    # The second draw, given the first: P(second = 0) = sum over j of p_j * p_0 / (1 - p_j).
    p = np.array([0.1, 0.2, 0.7])
    second = [sum(p[j] * p[k] / (1 - p[j]) for j in range(3) if j != k) for k in range(3)]
    np.testing.assert_allclose(np.bincount(draws[:, 1], minlength=3) / 5000, second, atol=0.02)


def test_multinomial_never_draws_a_zero_weight():
    draws = pylayer.multinomial(pylayer.to_tensor([0.0, 1.0, 0.0, 1.0]), 2).numpy()
    assert sorted(draws.tolist()) == [1, 3]
    assert set(pylayer.multinomial(pylayer.to_tensor([0.0, 3.0]), 50, True).tolist()) == {1}


def test_multinomial_is_a_tensor_method():
    assert pylayer.to_tensor([0.0, 1.0]).multinomial(3, replacement=True).tolist() == [1, 1, 1]


@pytest.mark.parametrize("x, n, replacement, error, text", [
    ([0.2, 0.8], 3, False, ValueError, "num_samples"),
    ([0.0, 1.0, 0.0], 2, False, ValueError, "num_samples"),
    ([-0.2, 0.8], 1, False, ValueError, "non-negative"),
    ([0.0, 0.0], 1, True, ValueError, "positive sum"),
    ([0.2, 0.8], 0, True, ValueError, "num_samples"),
])
def test_multinomial_refuses_what_paddle_refuses(x, n, replacement, error, text):
    with pytest.raises(error, match=text):
        pylayer.multinomial(pylayer.to_tensor(x), n, replacement)


def test_multinomial_refuses_integers_and_3d():
    with pytest.raises(TypeError, match="multinomial"):
        pylayer.multinomial(pylayer.to_tensor([1, 2]))
    with pytest.raises(ValueError, match="1-D or 2-D"):
        pylayer.multinomial(pylayer.ones([2, 2, 2]))


# ------------------------------------------------------------ distributions
def test_poisson_mean_and_variance_and_dtype():
    out = pylayer.poisson(pylayer.full([N], 4.0, dtype="float64"))
    assert out.dtype == pylayer.float64
    near(out.numpy().mean(), 4.0, 0.06)
    near(out.numpy().var(), 4.0, 0.2)


def test_poisson_records_a_zero_gradient_as_paddle():
    x = pylayer.to_tensor([1.0, 5.0], stop_gradient=False)
    out = pylayer.poisson(x)
    assert not out.stop_gradient
    out.sum().backward()
    assert x.grad.numpy().tolist() == [0.0, 0.0]


def test_poisson_refuses_negative_rates():
    # Paddle 3.3.1 returns meaningless samples; PyTorch refuses.
    with pytest.raises(ValueError, match="poisson"):
        pylayer.poisson(pylayer.to_tensor([-1.0, 5.0]))


def test_randperm():
    perm = pylayer.randperm(50)
    assert perm.dtype == pylayer.int64 and sorted(perm.tolist()) == list(range(50))
    assert pylayer.randperm(3, dtype="float32").dtype == pylayer.float32
    assert pylayer.randperm(0).shape == [0]
    with pytest.raises(ValueError, match="'n'"):
        pylayer.randperm(-1)
    with pytest.raises(ValueError, match="'dtype'"):
        pylayer.randperm(3, dtype="bool")


def test_standard_normal_moments_and_complex_variance():
    x = pylayer.standard_normal([N]).numpy()
    assert x.dtype == np.float32
    near(x.mean(), 0.0, 0.03)
    near(x.std(), 1.0, 0.02)
    z = pylayer.standard_normal([N], dtype="complex64").numpy()
    near(z.real.var(), 0.5, 0.02)
    near(z.imag.var(), 0.5, 0.02)
    with pytest.raises(ValueError, match="'dtype'"):
        pylayer.standard_normal([2], dtype="int64")


def test_standard_gamma():
    out = pylayer.standard_gamma(pylayer.full([N], 2.5)).numpy()
    near(out.mean(), 2.5, 0.06)
    near(out.var(), 2.5, 0.15)
    edge = pylayer.standard_gamma(pylayer.to_tensor([0.0, -1.0])).numpy()
    assert edge.tolist() == [np.finfo(np.float32).tiny] * 2           # as Paddle


def test_binomial():
    out = pylayer.binomial(pylayer.full([N], 10, dtype="int64"), pylayer.full([N], 0.3))
    assert out.dtype == pylayer.int64
    near(out.numpy().mean(), 3.0, 0.05)
    near(out.numpy().var(), 2.1, 0.1)
    broadcast = pylayer.binomial(pylayer.to_tensor([10.0]), pylayer.to_tensor([1.0, 0.0]))
    assert broadcast.tolist() == [10, 0]
    with pytest.raises(ValueError, match="'prob'"):
        pylayer.binomial(pylayer.to_tensor([10]), pylayer.to_tensor([1.5]))
    with pytest.raises(TypeError, match="'count'"):
        pylayer.binomial(10, pylayer.to_tensor([0.5]))


def test_log_normal():
    out = pylayer.log_normal(0.5, 0.25, [N])
    assert out.dtype == pylayer.float32 and out.shape == [N]
    logs = np.log(out.numpy())
    near(logs.mean(), 0.5, 0.01)
    near(logs.std(), 0.25, 0.01)
    assert pylayer.log_normal().shape == [1]
    typed = pylayer.log_normal(pylayer.to_tensor([1.0, 2.0], dtype="float64"), 1.0)
    assert typed.dtype == pylayer.float64 and typed.shape == [2]
    both = pylayer.log_normal(pylayer.zeros([2, 1]), pylayer.zeros([3]))
    assert both.shape == [2, 3] and both.numpy().tolist() == [[1.0] * 3] * 2


def test_like_functions():
    x = pylayer.ones([2, 3], dtype="float64")
    assert pylayer.rand_like(x).dtype == pylayer.float64
    assert pylayer.rand_like(pylayer.ones([2]), dtype="float64").dtype == pylayer.float64
    assert pylayer.randn_like(x).shape == [2, 3]
    values = pylayer.rand_like(pylayer.ones([N])).numpy()
    assert values.min() >= 0 and values.max() < 1
    near(values.mean(), 0.5, 0.01)
    ints = pylayer.randint_like(pylayer.ones([N], dtype="int32"), 2, 5)
    assert ints.dtype == pylayer.int32 and set(ints.tolist()) == {2, 3, 4}
    assert pylayer.randint_like(pylayer.ones([3]), 5).dtype == pylayer.float32
    assert pylayer.randint_like(pylayer.ones([3], dtype="bool"), 2).dtype == pylayer.bool
    with pytest.raises(TypeError, match="rand_like"):
        pylayer.rand_like(pylayer.ones([2], dtype="int64"))
    with pytest.raises(ValueError, match="'high'"):
        pylayer.randint_like(pylayer.ones([3]), 5, 2)


# ------------------------------------------------------------ in-place fills
@pytest.mark.parametrize("method, args, check", [
    ("normal_", (1.0, 2.0), lambda v: (near(v.mean(), 1.0, 0.05), near(v.std(), 2.0, 0.05))),
    ("uniform_", (-1.0, 3.0), lambda v: v.min() >= -1 and v.max() < 3 and near(v.mean(), 1, 0.05)),
    ("exponential_", (2.0,), lambda v: near(v.mean(), 0.5, 0.02)),
    ("cauchy_", (1.0, 0.5), lambda v: near(np.median(v), 1.0, 0.03)),
    ("geometric_", (0.25,), lambda v: (v >= 1).all() and (v == np.round(v)).all()
     and near(v.mean(), 4.0, 0.1)),
    ("log_normal_", (0.5, 0.25), lambda v: near(np.log(v).mean(), 0.5, 0.01)),
    ("bernoulli_", (0.3,), lambda v: set(v.tolist()) == {0.0, 1.0} and near(v.mean(), 0.3, 0.015)),
])
def test_fills_write_in_place_with_their_distribution(method, args, check):
    x = pylayer.zeros([N])
    assert getattr(x, method)(*args) is x and x.inplace_version == 1
    assert check(x.numpy()) is not False


def test_function_forms_of_the_fills():
    x = pylayer.zeros([3])
    assert pylayer.normal_(x, 1.0, 0.0) is x and x.tolist() == [1.0, 1.0, 1.0]
    assert pylayer.bernoulli_(pylayer.zeros([3]), pylayer.to_tensor([0.0, 1.0, 1.0])).tolist() \
        == [0.0, 1.0, 1.0]
    assert pylayer.geometric_(pylayer.zeros([2]), pylayer.to_tensor([1.0, 1.0])).tolist() == \
        [1.0, 1.0]


def test_complex_normal_fill():
    x = pylayer.zeros([N], dtype="complex64")
    x.normal_(mean=1 + 1j, std=2.0)
    values = x.numpy()
    near(values.real.mean(), 1.0, 0.05)
    near(values.imag.var(), 2.0, 0.1)


def test_uniform_fill_with_a_seed_repeats():
    a = pylayer.zeros([4]).uniform_(seed=3).numpy()
    assert (pylayer.zeros([4]).uniform_(seed=3).numpy() == a).all()


def test_a_fill_inside_a_graph_gives_a_zero_gradient_as_paddle():
    y = pylayer.to_tensor([1.0, 1.0, 1.0], stop_gradient=False)
    z = y * 2
    z.normal_()
    z.sum().backward()
    assert y.grad.tolist() == [0.0, 0.0, 0.0]


def test_a_leaf_that_needs_a_gradient_cannot_be_filled():
    leaf = pylayer.zeros([3])
    leaf.stop_gradient = False
    with pytest.raises(ValueError, match="leaf"):
        leaf.normal_()


@pytest.mark.parametrize("call, error, text", [
    (lambda: pylayer.zeros([3], dtype="int64").normal_(), TypeError, "normal_"),
    (lambda: pylayer.zeros([3], dtype="int32").uniform_(), TypeError, "uniform_"),
    (lambda: pylayer.zeros([3]).uniform_(2, 1), ValueError, "'min'"),
    (lambda: pylayer.zeros([3]).exponential_(-1.0), ValueError, "'lam'"),
    (lambda: pylayer.zeros([3]).geometric_(0.0), ValueError, "'probs'"),
    (lambda: pylayer.zeros([3]).geometric_(1.5), ValueError, "'probs'"),
    (lambda: pylayer.zeros([3]).bernoulli_(1.5), ValueError, "'p'"),
    (lambda: pylayer.zeros([2, 3]).bernoulli_(pylayer.to_tensor([0.5, 0.5])), ValueError, "'p'"),
    (lambda: pylayer.zeros([3]).normal_(mean=1j), TypeError, "'mean'"),
])
def test_fill_errors(call, error, text):
    with pytest.raises(error, match=text):
        call()


# ------------------------------------------------------------ the generator
def test_seed_makes_every_function_repeatable():
    def draw():
        return np.concatenate([
            pylayer.rand([2]).numpy(), pylayer.standard_normal([2]).numpy(),
            pylayer.randperm(5).numpy().astype(np.float32),
            pylayer.multinomial(pylayer.to_tensor([0.5, 0.5]), 2, True).numpy().astype(np.float32),
            pylayer.zeros([2]).normal_().numpy(),
            pylayer.poisson(pylayer.to_tensor([3.0])).numpy()])
    pylayer.seed(42)
    first = draw()
    pylayer.manual_seed(42)
    assert (draw() == first).all()


def test_generator_is_the_default_one():
    g = pylayer.Generator()
    assert g is pylayer.Generator("cpu") is pylayer.manual_seed(3)
    assert g.initial_seed() == 3
    new = g.seed()
    assert isinstance(new, int) and g.initial_seed() == new


def test_states_replay_the_stream():
    g = pylayer.Generator()
    state = g.get_state()
    a = pylayer.rand([3]).numpy()
    g.set_state(state)
    assert (pylayer.rand([3]).numpy() == a).all()
    states = pylayer.get_rng_state()
    assert isinstance(states, list) and len(states) == 1
    b = pylayer.randn([3]).numpy()
    pylayer.set_rng_state(states)
    assert (pylayer.randn([3]).numpy() == b).all()


@pytest.mark.parametrize("call, error", [
    (lambda: pylayer.Generator("gpu"), ValueError),
    (lambda: pylayer.Generator(0), TypeError),
    (lambda: pylayer.Generator().set_state({"a": 1}), TypeError),
    (lambda: pylayer.set_rng_state(5), TypeError),
    (lambda: pylayer.set_rng_state([]), ValueError),
    (lambda: pylayer.manual_seed(-1), ValueError),
    (lambda: pylayer.manual_seed(1.5), TypeError),
])
def test_generator_errors(call, error):
    with pytest.raises(error):
        call()
